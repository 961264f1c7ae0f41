"""The built-in presets: ``combine``, ``match``, ``attention``, ``linear`` and ``gcn``.

The registry (:mod:`.presets`) imports no builders; this module registers the
built-in presets with theirs, and ``import symrow`` loads it.

>>> from symrow.derive.presets import REGISTRY
>>> REGISTRY["linear"].build(general=True).products
[('combine', 'X', 'W')]
"""

from __future__ import annotations

from ..narrate import Titles
from . import attention
from .explain import derive_preset
from .presets import DEFAULT_BUILDER, Preset, register

__all__: list[str] = []

DEFAULT_BUILDER["formula"] = derive_preset

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
register(attention.PRESET)
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
