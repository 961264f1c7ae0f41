"""The scene: what a figure draws, in the figure's own coordinates.

One scene is drawn by every printer (:mod:`.svg`, :mod:`.tikz`, :mod:`.text`),
so that the SVG of a page, the TikZ of a PDF and the overlays of a slide show
the same picture.  A scene is made of panels (a plot of points, a heat map,
bars), each with a rectangle on the figure and a map from its data
coordinates to the figure; the items of a panel are kept in *data*
coordinates (the numbers of the derivation), and placed on the figure by
:meth:`Panel.at`.  Lengths on the figure are TeX points (1/72.27 in), y up.

Items carry the steps at which they show (``first``, ``last``): a slide
reveals a figure step by step, one overlay per step; a still picture (a page,
an SVG) shows every item whose ``still`` is true.

>>> p = Panel("plot", (0.0, 0.0, 100.0, 50.0), (0.0, 2.0, 0.0, 1.0), (10.0, 5.0, 80.0, 40.0))
>>> p.at(1.0, 0.5)
(50.0, 25.0)
>>> p.data(50.0, 25.0)
(1.0, 0.5)
"""

from __future__ import annotations

import dataclasses
import unicodedata
from typing import Optional

__all__ = ["OKABE_ITO", "SERIES", "Label", "Mark", "Arrow", "Path", "Cell", "Text", "Panel",
           "Scene", "Box", "text_box", "coexist", "MARKERS"]

#: the Okabe–Ito palette, safe for the common colour-vision deficiencies
OKABE_ITO = {"black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
             "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
             "purple": "#CC79A7"}

#: the colours that tell the points of one index apart (the yellow is too light for a
#: marker on white paper), in order
SERIES = ("vermillion", "green", "purple", "orange", "blue", "sky", "black")

#: marker shapes, so that a black-and-white print still tells the series apart
MARKERS = ("circle", "square", "triangle", "diamond", "down", "pentagon", "cross")

#: the width of characters, in ems, leaning wide: a serif face's letters and digits at
#: text size (the estimate of a label's box, which labels are placed by)
_NARROW = set(".,:;!|'`ı")
_WIDE = set("mwMWQGOCDHNU")
_SCRIPTS = set("₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₊₋₌₍₎⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ")
_OPERATORS = set("=+−<>≈×∑√·")


def _char_width(ch: str) -> float:
    if unicodedata.combining(ch):
        return 0.0
    if ch in _SCRIPTS:
        return 0.42
    if ch in _NARROW:
        return 0.32
    if ch == " ":
        return 0.36
    if ch in _OPERATORS:
        return 0.86
    if unicodedata.east_asian_width(ch) in "WF":
        return 1.04
    if ch in _WIDE:
        return 0.92
    if ch.isupper():
        return 0.76
    return 0.58


def text_width(text: str) -> float:
    """The width of ``text`` in ems, estimated high (see :data:`_NARROW` and the others).

    >>> round(text_width("0.42"), 2), text_width("𝐛₁") > text_width("b")
    (2.06, True)
    """
    total = 0.0
    for ch in text:
        code = ord(ch)
        if 0x1D400 <= code <= 0x1D7FF:   # a bold letter of the derivation's rows: a bit wider
            total += 0.66
        else:
            total += _char_width(ch)
    return total


@dataclasses.dataclass(frozen=True)
class Label:
    """A label, as each printer writes it: ``tex`` is math-mode LaTeX (or text mode
    when ``math`` is false), ``text`` the same in Unicode (a bold letter of a row
    vector as its mathematical bold character, sub- and superscripts as Unicode
    scripts).  ``size`` is relative to the scene's font."""

    tex: str
    text: str
    math: bool = True
    size: float = 1.0
    color: str = "#000000"   # the ink: a weight is written in the colour of its line

    def width(self, font: float) -> float:
        """The estimated width in pt at ``font`` pt (leaning wide)."""
        return text_width(self.text) * font * self.size + 0.2 * font

    def height(self, font: float) -> float:
        """The estimated height in pt (the ascent of a capital, the depth of a subscript)."""
        scripts = any(ch in _SCRIPTS for ch in self.text)
        return (1.0 + (0.18 if scripts else 0.0)) * font * self.size


@dataclasses.dataclass(frozen=True)
class Box:
    """A rectangle on the figure: lower left corner and size, in pt."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def overlaps(self, other: "Box", gap: float = 0.0) -> bool:
        return (self.x < other.x + other.w + gap and other.x < self.x + self.w + gap and
                self.y < other.y + other.h + gap and other.y < self.y + self.h + gap)

    def inside(self, other: "Box") -> bool:
        return (self.x >= other.x - 1e-9 and self.y >= other.y - 1e-9 and
                self.x + self.w <= other.x + other.w + 1e-9 and
                self.y + self.h <= other.y + other.h + 1e-9)

    def hits_segment(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the segment from (x0, y0) to (x1, y1) crosses the box (Liang–Barsky)."""
        dx, dy = x1 - x0, y1 - y0
        lo, hi = 0.0, 1.0
        for p, q in ((-dx, x0 - self.x), (dx, self.x + self.w - x0),
                     (-dy, y0 - self.y), (dy, self.y + self.h - y0)):
            if abs(p) < 1e-12:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
            if lo > hi:
                return False
        return True


def text_box(label: Label, cx: float, cy: float, font: float) -> Box:
    """The box of ``label`` centred on (cx, cy)."""
    w, h = label.width(font), label.height(font)
    return Box(cx - w / 2, cy - h / 2, w, h)


@dataclasses.dataclass
class _Item:
    """What every item has: the steps it shows at (from ``first``, up to ``last``
    or to the end), and whether a still picture shows it."""

    first: int = 1
    last: Optional[int] = None
    still: bool = True


def coexist(a: _Item, b: _Item, slides: bool = False) -> bool:
    """Whether two items are seen together: in a still picture, when it shows both; on
    slides, when they share a step."""
    if not slides:
        return a.still and b.still
    a_last = a.last if a.last is not None else 10 ** 6
    b_last = b.last if b.last is not None else 10 ** 6
    return a.first <= b_last and b.first <= a_last


@dataclasses.dataclass
class Mark(_Item):
    """A point of a vector sequence: ``x``, ``y`` in data coordinates; ``seq`` and
    ``index`` say whose row it is (``("V", 2)`` is v_2), ``value`` its row as drawn
    (every coordinate, for the tests)."""

    x: float = 0.0
    y: float = 0.0
    seq: str = ""
    index: int = 0
    shape: str = "circle"
    color: str = "blue"
    filled: bool = True
    label: Optional[Label] = None
    grey: bool = False
    value: tuple = ()


@dataclasses.dataclass
class Arrow(_Item):
    """An arrow from (x0, y0) to (x1, y1), data coordinates; ``label`` (a weight) is
    placed beside its middle.  ``term`` names what it draws (``("C", 1, 2)``: the
    term a_12 b_2 of c_1), for the tests."""

    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    color: str = "black"
    width: float = 1.1
    dash: str = ""
    label: Optional[Label] = None
    term: tuple = ()
    shorten: float = 0.0     # pt taken off the end (so that a marker does not hide the head)
    label_still: bool = True  # whether a still picture shows the label (slides always do)


@dataclasses.dataclass
class Path(_Item):
    """A polyline or polygon through ``points`` (data coordinates): a convex hull
    (``closed``, ``fill``), a line through the origin, a guide.  ``width`` is the
    stroke in pt (0: none), ``opacity`` the fill's, ``role`` what it is."""

    points: tuple = ()
    color: str = "black"
    width: float = 0.6
    dash: str = ""
    closed: bool = False
    fill: Optional[str] = None
    opacity: float = 1.0
    role: str = ""
    label: Optional[Label] = None
    figure: bool = False     # points in pt on the figure (a legend's swatch), not data
    label_still: bool = True
    term: tuple = ()


@dataclasses.dataclass
class Cell(_Item):
    """One cell of a heat map at row ``row``, column ``col`` (from 1): its number,
    the colour it is filled with (``#rrggbb``) and the colour of its text;
    ``masked`` cells (a causal mask) are grey and hatched."""

    row: int = 1
    col: int = 1
    x: float = 0.0           # its lower left corner, data coordinates (a cell is 1 x 1)
    y: float = 0.0
    value: float = 0.0
    label: Optional[Label] = None
    fill: str = "#ffffff"
    ink: str = "#000000"
    masked: bool = False
    role: str = "cell"


@dataclasses.dataclass
class Text(_Item):
    """A label at a fixed place: its centre (``x``, ``y``) in data coordinates of the
    panel (``figure=True``: in pt on the figure); ``rotate`` in degrees; ``anchor``
    ``"center"``, ``"west"`` or ``"east"``; ``color`` a palette name or ``#rrggbb``."""

    x: float = 0.0
    y: float = 0.0
    label: Optional[Label] = None
    rotate: float = 0.0
    figure: bool = False
    anchor: str = "center"
    color: str = "black"
    role: str = ""


@dataclasses.dataclass
class Panel:
    """One panel of a figure: ``kind`` ("plot", "grid" or "bars"), its rectangle on
    the figure (x, y, w, h in pt), its data range (xmin, xmax, ymin, ymax) and the
    rectangle (pt) that range fills; its items; its title; and, after layout, the
    boxes of the labels as placed (``placed``: item -> Box)."""

    kind: str
    rect: tuple
    limits: tuple
    inner: tuple
    items: list = dataclasses.field(default_factory=list)
    title: Optional[Label] = None
    placed: dict = dataclasses.field(default_factory=dict)
    axes: tuple = ()         # the coordinates drawn (from 1), for a plot
    notes: list = dataclasses.field(default_factory=list)   # Text items outside the data

    def at(self, x: float, y: float) -> tuple:
        """Data coordinates -> the figure (pt)."""
        x0, x1, y0, y1 = self.limits
        ix, iy, iw, ih = self.inner
        return (ix + (x - x0) / (x1 - x0) * iw, iy + (y - y0) / (y1 - y0) * ih)

    def data(self, px: float, py: float) -> tuple:
        """The figure (pt) -> data coordinates."""
        x0, x1, y0, y1 = self.limits
        ix, iy, iw, ih = self.inner
        return (x0 + (px - ix) / iw * (x1 - x0), y0 + (py - iy) / ih * (y1 - y0))

    @property
    def scale(self) -> float:
        """pt per data unit along x."""
        return self.inner[2] / (self.limits[1] - self.limits[0])

    def of(self, cls) -> list:
        return [item for item in self.items if isinstance(item, cls)]


@dataclasses.dataclass
class Scene:
    """A whole figure: its size (pt), its font (pt), its panels, how many steps its
    slides reveal, and what it is of (``kind``, e.g. "attention")."""

    kind: str
    width: float
    height: float
    font: float
    panels: list
    steps: int = 1
    dropped: list = dataclasses.field(default_factory=list)   # labels with no room
    slides: bool = False     # laid out for slides: every step is seen, one at a time
