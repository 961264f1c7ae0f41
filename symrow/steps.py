"""Derivations as data: an ordered list of language-neutral steps.

A :class:`Step` records *what* is shown (a step kind, its parameters and the
display), never *how it is said*: the narration lives in per-language
templates (:mod:`symrow.narrate`), and printers turn the displays into
LaTeX, Markdown or text.  Derivations are built by :func:`symrow.combine`,
:func:`symrow.match` and :func:`symrow.attention`.

>>> import symrow
>>> d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
>>> [s.kind for s in d.steps][:4]
['heading', 'entries', 'stack', 'points']
>>> d.result
Matrix([
[a_{11}*b_{11} + a_{12}*b_{21} + a_{13}*b_{31}, a_{11}*b_{12} + a_{12}*b_{22} + a_{13}*b_{32}],
[a_{21}*b_{11} + a_{22}*b_{21} + a_{23}*b_{31}, a_{21}*b_{12} + a_{22}*b_{22} + a_{23}*b_{32}]])
>>> sorted(d.operands)
['A', 'B']
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any, Mapping

from .printable import Printable

__all__ = ["Step", "Derivation", "Excerpt"]


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a derivation.

    * ``kind``: what the step does, e.g. ``"stack"`` or ``"extract_row"``;
      the narration templates are keyed by it.
    * ``params``: the values the narration refers to (names, sizes, small
      expressions), keyed by the template's field names.
    * ``display``: the display node it shows, or None;
    * ``part``: the name of the part of the derivation it belongs to
      (``"vecseq"``, ``"match"``, ...), so that parts can be selected.
    """

    kind: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    display: Any = None
    part: str = ""

    def __post_init__(self):
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


class Derivation(Printable):
    """An ordered list of steps, with what they derive.

    * ``kind``: the preset (``"combine"``, ``"match"``, ``"attention"``, ...)
      or ``"explain"`` for a formula read with :func:`symrow.explain`;
    * ``steps``: the :class:`Step` records, in order;
    * ``operands``: each operand's name, as written in the formula, mapped to
      its vector sequence;
    * ``result``: the final :class:`sympy.Matrix` for concrete sizes, or a
      SymPy matrix expression (``A*B``) for general ones;
    * ``quantities``: every named matrix the derivation defines (operands,
      intermediates and the result), by name, for the checker;
    * ``products``: every matrix product in order of evaluation, as
      ``(reading, left, right)`` with reading ``"combine"`` or ``"match"``;
    * ``definitions``: each derived quantity one level down, in the entry
      symbols of the quantities it is made from (concrete sizes);
    * ``sizes``: the size names and their values (``{"m": 2, "ell": 3}``);
    * ``parts``: the names of its parts, in order (see :meth:`select`);
    * ``shapes_written``: the operands whose shapes were given, for a formula read with
      :func:`symrow.explain` (the others were inferred from the formula), else None.

    ``quantities`` may be given as a function, called once on first use (a
    concrete expansion can be large); ``more_quantities(quantities)`` adds
    quantities computed from the others, and ``more_definitions()`` adds
    one-level definitions of quantities the plan does not compute (both
    lazily); ``result`` names the quantity that is the result.
    """

    def __init__(self, kind: str, steps, *, operands: Mapping, quantities, result: str,
                 options: Mapping | None = None, plan=None, sizes: Mapping | None = None,
                 rebuild=None, title: Mapping | None = None, formula: str | None = None,
                 statement=None, more_quantities=None, more_definitions=None, notes=()):
        self.kind = kind
        self.notes = tuple(notes)
        self.steps = tuple(steps)
        self.operands = MappingProxyType(dict(operands))
        self._more_quantities = more_quantities
        self._more_definitions = more_definitions
        if not callable(quantities) and more_quantities is not None:
            quantities = {**quantities, **more_quantities(quantities)}
        self._quantities = quantities
        self._result_name = result
        self.options = MappingProxyType(dict(options or {}))
        self.plan = plan
        self.sizes = MappingProxyType(dict(sizes or {}))
        self._rebuild = rebuild
        self.title = MappingProxyType(dict(title or {}))
        self.formula = formula
        self.shapes_written = None
        self._statement = statement

    def _values(self) -> Mapping:
        # computed once, on first use (a cache: what the derivation says does not change)
        if callable(self._quantities):
            values = dict(self._quantities())
            if self._more_quantities is not None:
                values.update(self._more_quantities(values))
            self._quantities = MappingProxyType(values)
        return self._quantities

    def warnings(self) -> list[str]:
        """One line each for what was read in a way the user may not have meant: a
        symbol read as a scalar between matrices, a degree matrix assumed."""
        out = []
        for kind, params in self.notes:
            if kind == "scalar":
                sym = params["symbol"]
                name = sympy_latex_name(sym)
                out.append(f"{name} is read as a scalar that multiplies every entry; to read "
                           f"it as a vector, give it a shape (shapes={{'{name}': (3, 1)}}, or "
                           f"--shape '{name}=3x1')")
            elif kind == "undefined":
                out.append(f"{params['name']} is not a function symrow knows; it is read as "
                           f"a function applied to every entry, left undefined")
            elif kind == "degree_assumed":
                out.append(f"{params['D']} is raised to a power but not defined, so it is "
                           f"read as the degree matrix of {params['A']}; declare it with "
                           f"--diagonal '{params['D']}' to read it as a diagonal operand")
        return out

    @property
    def result(self):
        """The final matrix (computed on first use), in the formula's own orientation: a
        formula that writes its points as columns (``W x``) is read in the row view, its
        :attr:`quantities` transposed, but its result is a column, as written."""
        value = self._values()[self._result_name]
        if any(kind == "convention" for kind, _ in self.notes):
            return value.T
        return value

    @property
    def result_name(self) -> str:
        return self._result_name

    @property
    def quantities(self) -> Mapping:
        """Named matrices of the derivation (computed on first use)."""
        return MappingProxyType(dict(self._values()))

    @property
    def products(self) -> list:
        """Every matrix product, in order of evaluation: ``(reading, left, right)``."""
        return self.plan.products if self.plan is not None else []

    @property
    def definitions(self) -> Mapping:
        """Each derived quantity one level down, in the entry symbols of what it is made
        from (concrete sizes only; empty for general ones)."""
        if self.plan is None or not self.concrete:
            return MappingProxyType({})
        if not hasattr(self, "_definitions"):  # a cache, computed on first use
            found = dict(self.plan.definitions())
            if self._more_definitions is not None:
                found.update(self._more_definitions())
            self._definitions = MappingProxyType(found)
        return self._definitions

    @property
    def concrete(self) -> bool:
        """True when every size is an integer."""
        return all(seq.concrete for seq in self.operands.values())

    def instantiate(self, sizes: Mapping, **overrides) -> "Derivation":
        """The same formula and options at concrete sizes, e.g. ``{"m": 2, "ell": 3, "n": 2}``
        (general derivations only).  ``overrides`` replace options, such as
        ``scale="number"`` (the checker's instances need numbers, not √d)."""
        from .errors import OptionError
        if self.concrete:
            raise OptionError("this derivation has concrete sizes already")
        if self._rebuild is None:
            raise OptionError(f"a {self.kind} derivation cannot be instantiated")
        return self._rebuild(dict(sizes), **overrides)

    @property
    def parts(self) -> list[str]:
        """The names of the parts of this derivation, in order.

        A dotted name is inside another: ``product.row`` is the row formula
        of the ``product``.  Selecting ``product`` takes its inner parts too,
        and ``row`` selects every ``*.row``.
        """
        return list(dict.fromkeys(s.part for s in self.steps if s.part))

    def select(self, parts) -> "Excerpt":
        """Only the steps of the named parts (see :attr:`parts`), introduced by a sentence
        that says what they are taken from.

        >>> import symrow
        >>> d = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
        >>> [s.kind for s in d.select(["product"]).steps][:3]
        ['excerpt', 'heading', 'operands_combine']
        >>> d.select(["lemma"])
        Traceback (most recent call last):
        ...
        symrow.errors.OptionError: this combine derivation has no part named 'lemma'; its parts are vecseq, maps, product, product.row, product.entries, product.summary
        """
        from .errors import OptionError
        if isinstance(parts, str):
            parts = [parts]
        names = [str(p).strip() for p in parts if str(p).strip()]
        if not names:
            raise OptionError("select at least one part; the parts are " + ", ".join(self.parts))
        for name in names:
            if not any(_part_matches(part, name) for part in self.parts):
                raise OptionError(f"this {self.kind} derivation has no part named {name!r}; "
                                  f"its parts are {', '.join(self.parts)}")
        steps = [s for s in self.steps if any(_part_matches(s.part, n) for n in names)]
        intro = Step("excerpt", {}, self.statement, part="excerpt")
        return Excerpt(self, [intro] + steps, names)

    @property
    def statement(self):
        """The formula as one display, ``C = AB`` (a display node)."""
        return self._statement

    def __repr__(self) -> str:
        def size(n) -> str:
            return "ℓ" if str(n) == "ell" else str(n)
        ops = ", ".join(f"{name} {size(seq.rows)}×{size(seq.cols)}"
                        for name, seq in self.operands.items())
        count = len(self.steps)
        return f"<Derivation {self.kind}: {ops}; {count} step{'' if count == 1 else 's'}>"


def sympy_latex_name(sym) -> str:
    """A scalar's name as the user typed it: ``beta`` -> ``\\beta``."""
    name = str(sym)
    base = name.split("_")[0]
    greek = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
             "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon",
             "phi", "chi", "psi", "omega"}
    return "\\" + name if base in greek else name


def _part_matches(part: str, name: str) -> bool:
    return part == name or part.startswith(name + ".") or part.endswith("." + name)


class Excerpt(Printable):
    """Some parts of a derivation (see :meth:`Derivation.select`); renders like one."""

    def __init__(self, derivation: Derivation, steps, parts):
        self.derivation = derivation
        self.kind = derivation.kind
        self.steps = tuple(steps)
        self.selected = tuple(parts)
        self.title = derivation.title

    @property
    def parts(self) -> list[str]:
        return list(dict.fromkeys(s.part for s in self.steps if s.part))

    def __repr__(self) -> str:
        return f"<Excerpt of {self.kind}: {', '.join(self.selected)}; {len(self.steps)} steps>"
