"""Presets: named formulas with their article's conventions, in one registry.

A preset is a formula (``AB``, ``AB^T``, ``XW``, ...) with the general size
names a lecturer expects (m x ℓ times ℓ x n), a default concrete example,
a title and, optionally, words of its own (``style``) and a builder for
options a formula alone cannot say (attention's heads and projections).
Everything else comes from the planner.  The command line makes one
subcommand per preset, with its flags, from this registry; the narration
templates are the only other place a new preset touches.  The registry
imports no builders: the built-in presets are registered by
:mod:`symrow.derive.catalog`, which ``import symrow`` loads.

>>> import symrow
>>> from symrow.derive.presets import REGISTRY
>>> sorted(REGISTRY)
['attention', 'combine', 'gcn', 'linear', 'match']
>>> REGISTRY["gcn"].build(general=True).products
[('combine', '\\\\hat{A}', 'X'), ('combine', 'H', 'W')]
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Callable, Mapping

from ..errors import OptionError

if TYPE_CHECKING:  # the formula modules need SymPy: imported where a formula is read
    from ..formula import expr as E

__all__ = ["Preset", "Option", "REGISTRY", "register", "conventions_for", "style_for",
           "matching_preset"]


@dataclasses.dataclass(frozen=True)
class Option:
    """A command-line option of a preset with a builder of its own (see attention)."""

    flag: str            # "--d-v"
    dest: str            # "d_v"
    help: str
    kind: str = "size"   # "size", "flag", "count", "choice"
    default: object = None
    choices: tuple = ()


@dataclasses.dataclass(frozen=True)
class Preset:
    """One named formula.

    * ``formula``: LaTeX, with the article's operand names;
    * ``general``: each operand's general size names (the article's m, ℓ, n);
    * ``example``: each operand's shape in the default concrete example;
    * ``flags``: command-line shape flags, flag -> operand (``{"a": "A"}``);
      operands without one take ``--shape NAME=RxC``;
    * ``title``: the document title per language (LaTeX);
    * ``style``: the narration style (templates ``<kind>.<style>``), if any;
    * ``builder``: ``builder(preset, **options)`` returns its Derivation (set
      when it is registered: :func:`symrow.derive.explain.derive_preset` for a
      formula, a function of its own for presets whose options change the
      formula itself, such as attention);
    * ``options``: the command-line options of ``builder``;
    * ``examples``: other spellings of the formula that mean the preset;
    * ``result``: the name of the result.
    """

    name: str
    help: str
    title: Mapping[str, str]
    formula: str = ""
    general: Mapping[str, tuple] = dataclasses.field(default_factory=dict)
    example: Mapping[str, tuple] = dataclasses.field(default_factory=dict)
    flags: Mapping[str, str] = dataclasses.field(default_factory=dict)
    style: str | None = None
    builder: Callable | None = None
    options: tuple = ()
    examples: tuple = ()
    result: str = "C"

    def parsed(self) -> E.Formula:
        from ..formula.read import read_latex
        return read_latex(self.formula)

    def build(self, *, shapes: Mapping | None = None, general: bool = False,
              names: Mapping | None = None, **options):
        """The preset's derivation: its example shapes by default, general sizes with
        ``general=True``, or ``shapes`` (by the formula's names); ``names`` renames
        operands (and ``"result"``) before reading."""
        builder = self.builder or DEFAULT_BUILDER.get("formula")
        if builder is None:
            raise OptionError(f"the preset {self.name!r} has no builder; import symrow first")
        if shapes is not None:
            options["shapes"] = shapes
        if names is not None:
            options["names"] = names
        return builder(self, general=general, **options)


REGISTRY: dict[str, Preset] = {}
#: the builder of a preset that has none of its own (a formula read by the planner): set by
#: :mod:`symrow.derive.catalog` to :func:`symrow.derive.explain.derive_preset`
DEFAULT_BUILDER: dict[str, Callable] = {}


def register(preset: Preset) -> Preset:
    """Add a preset (its name becomes a subcommand of the ``symrow`` command)."""
    if preset.name in REGISTRY:
        raise OptionError(f"a preset named {preset.name!r} exists already")
    REGISTRY[preset.name] = preset
    return preset


# -- recognising a preset in a formula ------------------------------------------------------

def _canonical(formula: E.Formula) -> tuple:
    """The formula's structure with operand names replaced by their order of appearance."""
    from ..formula import expr as E
    names: dict[str, int] = {}
    defined = {n for n, _ in formula.definitions if n}
    inline = dict(d for d in formula.definitions if d[0])

    def canon(e):
        if isinstance(e, E.Name):
            if e.name in defined:
                return canon(inline[e.name])
            return ("name", names.setdefault(e.name, len(names)))
        if isinstance(e, E.Scaled):
            return ("scaled", canon(e.arg), len(e.num.free_symbols), len(e.den.free_symbols),
                    e.num.is_number and e.num, e.den.is_number and e.den)
        if isinstance(e, E.Apply):
            return ("apply", e.func, canon(e.arg))
        if isinstance(e, E.Sum):
            return ("sum", e.signs) + tuple(canon(t) for t in e.terms)
        return (type(e).__name__,) + tuple(canon(c) for c in E.children(e))
    return canon(formula.result), list(names)


@functools.lru_cache(maxsize=None)
def _preset_shape(text: str) -> tuple:
    from ..formula.read import read_latex
    return _canonical(read_latex(text))


def matching_preset(formula: E.Formula) -> tuple[Preset, dict] | None:
    """The preset whose formula has the same structure, and the renaming of operands
    (the user's name -> the preset's)."""
    shape, order = _canonical(formula)
    for preset in REGISTRY.values():
        for text in (preset.formula,) + tuple(preset.examples):
            if not text:
                continue
            theirs, their_order = _preset_shape(text)
            if theirs == shape:
                return preset, dict(zip(order, their_order))
    return None


def conventions_for(formula: E.Formula) -> dict:
    """General size names for the operands of a formula that is a preset's (renamed)."""
    found = matching_preset(formula)
    if found is None:
        return {}
    preset, renaming = found
    return {mine: preset.general[theirs] for mine, theirs in renaming.items()
            if theirs in preset.general}


def style_for(plan) -> str | None:
    """The narration style of a preset whose formula the plan's is."""
    found = matching_preset(plan.formula)
    return found[0].style if found else None
