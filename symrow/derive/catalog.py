"""The built-in presets: ``combine``, ``match``, ``attention``, ``linear`` and ``gcn``.

The registry (:mod:`.presets`) imports no builders; this module registers the
built-in presets with theirs, and ``import symrow`` loads it.  It imports no
SymPy either: the command line builds its parser (``symrow --help``) from
these records alone, and a builder imports its module (and SymPy) when it is
first called.

>>> from symrow.derive.presets import REGISTRY
>>> REGISTRY["linear"].build(general=True).products
[('combine', 'X', 'W')]
"""

from __future__ import annotations

from ..narrate import Titles
from .presets import DEFAULT_BUILDER, Option, Preset, register

__all__: list[str] = []


def _formula(preset, **options):
    """A formula read by the planner (:func:`symrow.derive.explain.derive_preset`)."""
    from .explain import derive_preset
    return derive_preset(preset, **options)


def _attention(preset, **options):
    """Attention, whose options change the formula itself."""
    from .attention import _build
    return _build(preset, **options)


DEFAULT_BUILDER["formula"] = _formula

register(Preset(
    name="combine", help="derive C = AB, read as combine (結合)",
    title=Titles("title.combine"),
    formula="AB", general={"A": ("m", "ell"), "B": ("ell", "n")},
    example={"A": (2, 3), "B": (3, 2)}, flags={"a": "A", "b": "B"}))
register(Preset(
    name="match", help="derive C = AB^T, read as match (照合)",
    title=Titles("title.match"),
    formula="AB^T", general={"A": ("m", "ell"), "B": ("n", "ell")},
    example={"A": (2, 3), "B": (4, 3)}, flags={"a": "A", "b": "B"}))
register(Preset(
    name="attention",
    help="derive softmax(QK^T/sqrt(d))V: match, distribute (配分), combine",
    title=Titles("title.attention"),
    formula=r"\operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}}\right) V",
    general={"Q": ("m", "d"), "K": ("n", "d"), "V": ("n", "d"), "M": ("m", "n")},
    example={"Q": (2, 2), "K": (2, 2), "V": (2, 2)},
    examples=(r"\operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}} + M\right) V",),
    style="attention",
    builder=_attention,
    options=(
        Option("--m", "m", "number of queries (rows of Q; default: 2, or m with --general)"),
        Option("--n", "n", "number of keys and values (default: 2, or n with --general)"),
        Option("--d", "d", "dimension of queries and keys (default: 2, or d with --general)"),
        Option("--d-v", "d_v", "dimension of values (default: the same as --d)"),
        Option("--causal", "causal", "causal mask: query i sees keys j <= i + (n - m), "
                                     "i.e. 1..i when m = n", kind="flag", default=False),
        Option("--heads", "heads", "number of heads (default: 1)", kind="count", default=1),
        Option("--projections", "projections", "start from X with projections Q = XW_Q, "
                                               "K = XW_K, V = XW_V", kind="flag",
               default=False),
        Option("--d-model", "d_model", "width of the inputs X (and Y) and of the multi-head "
                                       "output (default: the same as --d)"),
        Option("--cross", "cross", "with --projections: take K and V from a second sequence "
                                   "Y (cross-attention; the default when m != n)",
               kind="flag", default=None),
        Option("--scale", "scale", "keep sqrt(d) as in the formula (default), or substitute "
                                   "the number", kind="choice", default="symbolic",
               choices=("symbolic", "number")),
    )))
register(Preset(
    name="linear", help="derive a linear layer Y = XW: every output point combines "
                        "the rows of W",
    title=Titles("title.linear"),
    formula="XW", general={"X": ("n", "d"), "W": ("d", "f")},
    example={"X": (3, 2), "W": (2, 2)}, result="Y"))
register(Preset(
    name="gcn", help="derive a graph convolution \\hat{A}XW: two combines",
    title=Titles("title.gcn"),
    formula=r"\hat{A} X W", general={r"\hat{A}": ("n", "n"), "X": ("n", "d"),
                                     "W": ("d", "f")},
    example={r"\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)}, result="Y"))
