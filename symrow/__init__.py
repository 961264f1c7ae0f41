"""symrow: matrix products read as maps between vector sequences.

A matrix is a *vector sequence* (ベクトル列): a stack of row vectors, each
row a point.  ``AB`` is **combine** (結合), ``AB^T`` is **match** (照合),
and attention is match, then a distribution (配分), then combine.

>>> import symrow
>>> A, B = symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)
>>> d = symrow.combine(A, B)
>>> d.result.shape
(2, 2)
>>> "\\\\begin{align*}" in d.to_latex()
True
"""

import os as _os

# SymPy keeps the expressions it builds in a cache of 1,000 entries by default, too few
# for a check: the same sums and products are built again for every size choice and every
# step, and a check spent a sixth of its time rebuilding what had been evicted.  SymPy reads
# the size when it is first imported; a size the user set is kept, and a SymPy imported
# before symrow keeps its own.
_os.environ.setdefault("SYMPY_CACHE_SIZE", "10000")

# What needs no SymPy is imported now; the rest when it is first asked for (PEP 562),
# so that ``import symrow`` costs little more than SymPy itself, and the ``symrow``
# command's --help imports no SymPy at all (symrow.cli imports this package).
from .errors import (CheckTimeout, FigureError, LimitError, NotSupportedError, OptionError,
                     OutputError, ParseError, RenderError, ShapeError, SizeError, SymrowError,
                     UnsafeNameError)
from .limits import Limits, get_limits, limits
from .derive import catalog as _catalog  # noqa: F401  (registers the built-in presets)
from .derive.presets import REGISTRY as presets

#: lazy attribute -> (module, name in it; None for the module itself)
_LAZY = {
    "VecSeq": (".seq", "VecSeq"), "vecseq": (".seq", "vecseq"),
    "Step": (".steps", "Step"), "Derivation": (".steps", "Derivation"),
    "combine": (".derive.products", "combine"), "match": (".derive.products", "match"),
    "explain": (".derive.explain", "explain"),
    "attention": (".derive.attention", "attention"),
    "backward": (".derive.backward", "backward"),
    "apply": (".formula.read", "apply"), "softmax": (".formula.read", "softmax"),
    "figure": (".figures", "figure"), "figures": (".figures", None),
    "nodes": (".nodes", None), "render": (".render", None),
}


def __getattr__(name: str):
    """The public names that need SymPy, imported when first used (then kept)."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    import importlib
    value = importlib.import_module(module, __name__)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"


def check(tex: str, against, *, timeout: float | None = None, values: dict | None = None,
          parser: str = "auto", lang: str | None = None):
    """Check a hand derivation written in LaTeX against a derivation, step by step.

    ``against`` is a derivation (concrete or general sizes, from a preset or
    :func:`explain`) or the handout; ``values`` gives operands numbers
    (``{"A": [[1, 2], [3, 4]]}``); ``parser`` is "auto" (the default),
    "latex2sympy2" or "builtin" (see :func:`symrow.checker.check`); ``lang``
    is the language of the report's words, ``en`` or ``ja`` (by default the
    page's own).  Returns a report (see :mod:`symrow.checker`).  latex2sympy2 is imported
    only when it is first used.
    """
    from .checker import check as _check
    return _check(tex, against, timeout=timeout, values=values, parser=parser, lang=lang)

__all__ = [
    "SymrowError", "SizeError", "UnsafeNameError", "ShapeError", "LimitError",
    "OptionError", "ParseError", "NotSupportedError", "CheckTimeout", "RenderError",
    "OutputError", "FigureError",
    "Limits", "limits", "get_limits",
    "VecSeq", "vecseq", "Step", "Derivation",
    "combine", "match", "attention", "explain", "backward", "softmax", "apply", "presets",
    "check", "figure",
]
