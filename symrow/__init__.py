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

from .errors import (CheckTimeout, LimitError, NotSupportedError, OptionError, OutputError,
                     ParseError, RenderError, ShapeError, SizeError, SymrowError,
                     UnsafeNameError)
from .limits import Limits, get_limits, limits
from .seq import VecSeq, vecseq
from .steps import Derivation, Step
from .derive.products import combine, match
from .derive.explain import explain
from .derive import catalog as _catalog  # noqa: F401  (registers the built-in presets)
from .derive.presets import REGISTRY as presets
from .derive.attention import attention
from .derive.backward import backward
from .formula.read import apply, softmax
from . import nodes, render  # noqa: F401  (public submodules)
from .render import latex as _latex  # noqa: F401

__version__ = "0.1.0"


def check(tex: str, against, *, timeout: float | None = None, values: dict | None = None,
          parser: str = "auto"):
    """Check a hand derivation written in LaTeX against a derivation, step by step.

    ``against`` is a derivation (concrete or general sizes, from a preset or
    :func:`explain`) or the handout; ``values`` gives operands numbers
    (``{"A": [[1, 2], [3, 4]]}``); ``parser`` is "auto" (the default),
    "latex2sympy2" or "builtin" (see :func:`symrow.checker.check`).
    Returns a report (see :mod:`symrow.checker`).  latex2sympy2 is imported
    only when it is first used.
    """
    from .checker import check as _check
    return _check(tex, against, timeout=timeout, values=values, parser=parser)

__all__ = [
    "SymrowError", "SizeError", "UnsafeNameError", "ShapeError", "LimitError",
    "OptionError", "ParseError", "NotSupportedError", "CheckTimeout", "RenderError",
    "OutputError",
    "Limits", "limits", "get_limits",
    "VecSeq", "vecseq", "Step", "Derivation",
    "combine", "match", "attention", "explain", "backward", "softmax", "apply", "presets",
    "check",
]
