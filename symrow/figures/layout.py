"""From a draft (panels of items in data coordinates) to a scene: sizes, ticks and labels.

:func:`layout` gives each panel its rectangle for a *target* (a page, a
slide, a web page: :data:`TARGETS`), with one scale for both axes of a plot
(so that angles, lengths and projections are drawn true), ticks and a light
grid; then it places every free label (a point's name, an arrow's weight)
where it overlaps no point, no arrow, no other label and no tick label, and
stays inside its panel (:func:`place_labels`).  A label that finds no room
is a failure of the layout: the plot is given more margin and laid out
again, and only after that is a label left out (``Scene.dropped``; the
tests require it empty for every figure symrow makes).

The geometry the printers draw is computed here once: :func:`marker_outline`
and :func:`arrow_outline` give the outlines of markers and arrows in pt, so
that the SVG and the TikZ of a figure are the same picture and the label
placement avoids exactly what is drawn.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional

from .scene import (Arrow, Box, Cell, Label, Mark, Panel, Path, Scene, Text, coexist,
                    text_box)

__all__ = ["Target", "TARGETS", "PanelDraft", "Draft", "layout", "marker_outline",
           "arrow_outline", "mark_radius", "mark_box", "label_obstacles", "note_box", "label_vis",
           "title_box"]


@dataclasses.dataclass(frozen=True)
class Target:
    """Where a figure goes: its font (pt), the height of a plot's data area, the widest
    the whole figure may be, and the tallest (pt)."""

    name: str
    font: float
    plot_height: float
    max_width: float
    max_height: float


#: page: an A4 page of 11 pt text, 170 mm wide; slide: a 16:9 frame's text (398 pt wide),
#: under a title and above a two-line caption; web: an SVG beside a Markdown page, 590 px
#: at most (a 720 px column), readable at a phone's 390 px
TARGETS = {
    "page": Target("page", 10.0, 150.0, 440.0, 300.0),
    "slide": Target("slide", 10.95, 150.0, 390.0, 165.0),
    "web": Target("web", 12.0, 170.0, 444.0, 380.0),
}


@dataclasses.dataclass
class PanelDraft:
    """A panel before layout: its kind, its items in data coordinates, its title.

    * plot: Marks, Arrows and Paths; ``axes`` are the two coordinates drawn and
      ``dims`` how many the points have (a note says so when it is more than 2);
      ``limits`` the data range to show (default: what the items need, and 0);
    * grid: Cells (row, col from 1) and ``row_labels``, ``col_labels``; a column
      past ``cols`` (the row sums) is set apart by a gap;
    * bars: Paths (the bars, closed) in data coordinates, x from 0 to ``cols``, and
      ``col_labels`` under the groups, ``legend`` as (Label, colour, hatch) entries.
    """

    kind: str
    items: list = dataclasses.field(default_factory=list)
    title: Optional[Label] = None
    axes: tuple = (1, 2)
    dims: int = 2
    limits: Optional[tuple] = None
    rows: int = 0
    cols: int = 0
    row_labels: list = dataclasses.field(default_factory=list)
    col_labels: list = dataclasses.field(default_factory=list)
    sum_label: Optional[Label] = None
    legend: list = dataclasses.field(default_factory=list)
    show_words: bool = True    # whether the axes get their titles ("coordinate 1")
    words_room: bool = False   # keep the room of the x-axis title without one (a row of plots)
    note: Optional[Label] = None
    ymax: Optional[float] = None
    first: int = 1             # the step from which its title, ticks and labels show


@dataclasses.dataclass
class Draft:
    """A figure before layout: what it is of, its panels, how many steps it reveals."""

    kind: str
    panels: list
    steps: int = 1
    #: the panels as columns, each a stack from the top (indices of ``panels``); by
    #: default each panel is a column of its own, side by side
    columns: Optional[list] = None
    #: how columns of different heights line up: "center" or "top"
    align: str = "center"


# -- geometry the printers share ------------------------------------------------------------

def mark_radius(font: float) -> float:
    """The radius of a marker, in pt, at a scene's font size: big enough to be seen on
    a projected slide, small enough to leave room for its label."""
    return 0.36 * font


def marker_outline(shape: str, x: float, y: float, r: float):
    """A marker's outline in pt: ``("circle", r)``, or a polygon's corners.

    >>> marker_outline("square", 0, 0, 1)[0]
    'polygon'
    """
    if shape == "circle":
        return ("circle", r)
    if shape == "square":
        s = r * 0.88
        return ("polygon", [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)])
    if shape == "diamond":
        s = r * 1.22
        return ("polygon", [(x, y - s), (x + s, y), (x, y + s), (x - s, y)])
    if shape in ("triangle", "down"):
        s = r * 1.3
        sign = 1 if shape == "triangle" else -1
        return ("polygon", [(x + s * math.cos(math.radians(90 + k * 120)),
                             y + sign * s * math.sin(math.radians(90 + k * 120)))
                            for k in range(3)])
    if shape == "pentagon":
        s = r * 1.12
        return ("polygon", [(x + s * math.cos(math.radians(90 + k * 72)),
                             y + s * math.sin(math.radians(90 + k * 72))) for k in range(5)])
    if shape == "cross":
        s, t = r * 1.1, r * 0.38
        pts = [(t, s), (t, t), (s, t), (s, -t), (t, -t), (t, -s), (-t, -s), (-t, -t),
               (-s, -t), (-s, t), (-t, t), (-t, s)]
        return ("polygon", [(x + a, y + b) for a, b in pts])
    raise ValueError(f"unknown marker shape {shape!r}")


def mark_box(panel: Panel, mark: Mark, r: float) -> Box:
    x, y = panel.at(mark.x, mark.y)
    s = r * 1.35
    return Box(x - s, y - s, 2 * s, 2 * s)


#: an arrow's head, as a multiple of its line width (and at least these pt)
_HEAD_LONG, _HEAD_WIDE = 4.6, 1.9


def arrow_outline(panel: Panel, arrow: Arrow) -> Optional[tuple]:
    """(x0, y0, xb, yb, head) in pt: the shaft from the tail to the base of the head,
    and the head's three corners; None for an arrow too short to draw."""
    x0, y0 = panel.at(arrow.x0, arrow.y0)
    x1, y1 = panel.at(arrow.x1, arrow.y1)
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return None
    ux, uy = dx / length, dy / length
    end = max(length - arrow.shorten, length * 0.5)
    x1, y1 = x0 + ux * end, y0 + uy * end
    long_ = max(_HEAD_LONG * arrow.width, 5.0)
    wide = max(_HEAD_WIDE * arrow.width, 2.1)
    long_ = min(long_, end * 0.6)
    xb, yb = x1 - ux * long_, y1 - uy * long_
    head = [(x1, y1), (xb - uy * wide, yb + ux * wide), (xb + uy * wide, yb - ux * wide)]
    return (x0, y0, xb, yb, head)


# -- layout ---------------------------------------------------------------------------------

def _ticks(lo: float, hi: float, room: float = 1e9, least: float = 1.0) -> list:
    """Round tick values between lo and hi: 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, ... apart, at
    most 7 of them and at least ``least`` pt apart over ``room`` pt."""
    span = hi - lo
    for step in (0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if span / step <= 7 and room * step / span >= least:
            break
    first = math.ceil(lo / step - 1e-9)
    out = []
    k = first
    while k * step <= hi + 1e-9:
        out.append(round(k * step, 6))
        k += 1
    return out


def _number(v: float) -> Label:
    """A tick's number: as short as it is (0.5, not 0.50)."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    text = "0" if text in ("-0", "") else text
    return Label(text, text.replace("-", "−"))


def _plot_points(d: PanelDraft) -> list:
    pts = []
    for item in d.items:
        if isinstance(item, Mark):
            pts.append((item.x, item.y))
        elif isinstance(item, Arrow):
            pts += [(item.x0, item.y0), (item.x1, item.y1)]
        elif isinstance(item, Path) and item.role not in ("ray", "region") and not item.figure:
            pts += list(item.points)
    return pts


def _plot_limits(d: PanelDraft, extra: float) -> tuple:
    if d.limits is not None:
        return d.limits
    pts = _plot_points(d) + [(0.0, 0.0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0, 1e-6)
    pad = span * (0.1 + extra)
    x0, x1, y0, y1 = x0 - pad, x1 + pad, y0 - pad, y1 + pad
    # neither a sliver nor a ribbon: between 3:4 and 2:1
    w, h = x1 - x0, y1 - y0
    if w < 0.75 * h:
        grow = (0.75 * h - w) / 2
        x0, x1 = x0 - grow, x1 + grow
    elif w > 2.0 * h:
        grow = (w / 2.0 - h) / 2
        y0, y1 = y0 - grow, y1 + grow
    return (x0, x1, y0, y1)


def _clip_segment(a, b, box) -> Optional[tuple]:
    """The part of segment a-b inside box (x0, x1, y0, y1), by Liang–Barsky; or None."""
    x0, x1, y0, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if abs(p) < 1e-15:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return None
    return ((a[0] + lo * dx, a[1] + lo * dy), (a[0] + hi * dx, a[1] + hi * dy))


def _clip_polygon(points, box) -> tuple:
    """A convex or simple polygon cut to box (x0, x1, y0, y1), by Sutherland–Hodgman."""
    x0, x1, y0, y1 = box
    edges = ((lambda p: p[0] >= x0, lambda a, b: _at_x(a, b, x0)),
             (lambda p: p[0] <= x1, lambda a, b: _at_x(a, b, x1)),
             (lambda p: p[1] >= y0, lambda a, b: _at_y(a, b, y0)),
             (lambda p: p[1] <= y1, lambda a, b: _at_y(a, b, y1)))
    out = list(points)
    for inside, cut in edges:
        pts, out = out, []
        for k, cur in enumerate(pts):
            prev = pts[k - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(cut(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cut(prev, cur))
        if not out:
            break
    return tuple(out)


def _at_x(a, b, x):
    t = (x - a[0]) / (b[0] - a[0])
    return (x, a[1] + t * (b[1] - a[1]))


def _at_y(a, b, y):
    t = (y - a[1]) / (b[1] - a[1])
    return (a[0] + t * (b[0] - a[0]), y)


def _clipped(items: list, box) -> list:
    """Lines and regions that reach past the data range, cut to it (TeX cannot draw a
    coordinate of thousands of points, and nothing outside is shown anyway)."""
    x0, x1, y0, y1 = box
    out = []
    for item in items:
        if isinstance(item, Path) and not item.figure and item.points and any(
                not (x0 <= x <= x1 and y0 <= y <= y1) for x, y in item.points):
            if item.closed:
                pts = _clip_polygon(item.points, box)
                if len(pts) < 3:
                    continue
            elif len(item.points) == 2:
                seg = _clip_segment(item.points[0], item.points[1], box)
                if seg is None:
                    continue
                pts = seg
            else:
                out.append(item)
                continue
            item = dataclasses.replace(item, points=tuple(pts))
        out.append(item)
    return out


def _plot_panel(d: PanelDraft, t: Target, height: float, extra: float, words) -> Panel:
    f = t.font
    x0, x1, y0, y1 = _plot_limits(d, extra)
    scale = height / (y1 - y0)
    width = scale * (x1 - x0)
    xt = _ticks(x0, x1, width, 2.6 * f)
    yt = _ticks(y0, y1, height, 1.7 * f)
    tick_w = max((_number(v).width(f * 0.82) for v in yt), default=f)
    left = tick_w + 0.3 * f + (1.25 * f if words else 0.0)
    bottom = 1.15 * f + (1.25 * f if words or d.words_room else 0.0) + \
        (1.2 * f if d.note else 0.0)
    top = (1.6 * f if d.title else 0.4 * f)
    right = 0.5 * f
    if d.note is not None:   # the note under the plot (centred on it) stays in the panel
        half = d.note.width(f) / 2 + 0.2 * f
        right = max(right, half - width / 2)
        left = max(left, half - width / 2)
    panel = Panel("plot", (0.0, 0.0, left + width + right, bottom + height + top),
                  (x0, x1, y0, y1), (left, bottom, width, height),
                  _clipped(list(d.items), (x0, x1, y0, y1)), d.title, axes=d.axes)
    small = 0.82
    for v in xt:
        px, _ = panel.at(v, y0)
        panel.notes.append(Text(x=px, y=bottom - 0.68 * f, figure=True, role="tick",
                                label=dataclasses.replace(_number(v), size=small)))
    for v in yt:
        _, py = panel.at(x0, v)
        panel.notes.append(Text(x=left - 0.25 * f, y=py, figure=True, anchor="east", role="tick",
                                label=dataclasses.replace(_number(v), size=small)))
    if words:
        xa, ya = words[0], words[1]
        panel.notes.append(Text(x=left + width / 2, y=bottom - 1.75 * f, figure=True,
                                role="axis", label=xa, color="#555555"))
        panel.notes.append(Text(x=0.62 * f, y=bottom + height / 2, figure=True, rotate=90,
                                role="axis", label=ya, color="#555555"))
    if d.note is not None:
        panel.notes.append(Text(x=left + width / 2, y=bottom - (2.95 if words else 1.9) * f,
                                figure=True, role="note", label=d.note, color="#555555"))
    panel.xticks, panel.yticks = xt, yt
    return panel


def _grid_panel(d: PanelDraft, t: Target) -> Panel:
    f = t.font
    cells = [c for c in d.items if isinstance(c, Cell)]
    widest = max((c.label.width(f) for c in cells if c.label), default=f)
    size = max(2.0 * f, widest + 0.6 * f)
    has_sum = any(c.col > d.cols for c in cells)
    gap = 0.3 if has_sum else 0.0
    cols = d.cols + (1 + gap if has_sum else 0)
    lab_w = max((lab.width(f) for lab in d.row_labels), default=0.0)
    left = lab_w + 0.45 * f
    top = (1.35 * f if d.col_labels else 0.0) + (1.6 * f if d.title else 0.3 * f)
    bottom = 0.4 * f
    width, height = size * cols, size * d.rows
    panel = Panel("grid", (0.0, 0.0, left + width + 0.3 * f, bottom + height + top),
                  (0.0, cols, 0.0, float(d.rows)), (left, bottom, width, height), [], d.title)
    for c in cells:
        x = (c.col - 1) + (gap if c.col > d.cols else 0.0)
        panel.items.append(dataclasses.replace(c, x=x, y=float(d.rows - c.row)))
    panel.items += [i for i in d.items if not isinstance(i, Cell)]
    for r, lab in enumerate(d.row_labels, start=1):
        _, py = panel.at(0, d.rows - r + 0.5)
        panel.notes.append(Text(x=left - 0.3 * f, y=py, figure=True, anchor="east",
                                role="row", label=lab))
    for c, lab in enumerate(d.col_labels, start=1):
        px, _ = panel.at(c - 0.5, 0)
        panel.notes.append(Text(x=px, y=bottom + height + 0.72 * f, figure=True,
                                role="col", label=lab))
    if has_sum and d.sum_label is not None:
        px, _ = panel.at(d.cols + gap + 0.5, 0)
        panel.notes.append(Text(x=px, y=bottom + height + 0.72 * f, figure=True,
                                role="col", label=d.sum_label))
    panel.cell = size
    return panel


def _bars_panel(d: PanelDraft, t: Target, height: float) -> Panel:
    f = t.font
    bars = [p for p in d.items if isinstance(p, Path) and p.role == "bar"]
    per_group = max(1, len(bars) // max(1, d.cols))
    group_w = (per_group * 2.0 + 1.0) * f
    width = group_w * d.cols
    ymax = d.ymax or 1.0
    legend_h = 1.35 * f * len(d.legend)
    bottom = 1.5 * f + legend_h
    top = 1.6 * f if d.title else 0.4 * f
    left = 0.4 * f
    panel = Panel("bars", (0.0, 0.0, left + width + 0.4 * f, bottom + height + top),
                  (0.0, float(d.cols), 0.0, ymax), (left, bottom, width, height),
                  list(d.items), d.title)
    for c, lab in enumerate(d.col_labels, start=1):
        px, _ = panel.at(c - 0.5, 0)
        panel.notes.append(Text(x=px, y=bottom - 0.75 * f, figure=True, role="col", label=lab))
    for k, (lab, color, hatch) in enumerate(d.legend):
        y = bottom - 1.75 * f - k * 1.35 * f
        x = left + 0.2 * f
        s = 0.75 * f
        panel.items.append(Path(points=((x, y - s / 2), (x + s, y - s / 2), (x + s, y + s / 2),
                                        (x, y + s / 2)), closed=True, fill=color, color=color,
                                width=0.5, role="swatch", figure=True, dash=hatch))
        panel.notes.append(Text(x=x + s + 0.35 * f, y=y, figure=True, anchor="west",
                                role="legend", label=lab))
    return panel


def _columns(draft: Draft) -> list:
    return draft.columns or [[k] for k in range(len(draft.panels))]


def _arrange(panels: list, t: Target, columns: list, align: str = "center") -> tuple:
    """Columns of panels side by side, each a stack from the top, centred (or from the
    top, ``align="top"``); returns the figure's (width, height)."""
    gap = 1.4 * t.font
    heights = [sum(panels[k].rect[3] for k in col) + gap * (len(col) - 1) for col in columns]
    height = max(heights)
    x = 0.0
    for col, col_h in zip(columns, heights):
        width = max(panels[k].rect[2] for k in col)
        y = height - ((height - col_h) / 2 if align == "center" else 0.0)
        for k in col:
            p = panels[k]
            y -= p.rect[3]
            _shift(p, x + (width - p.rect[2]) / 2 - p.rect[0], y - p.rect[1])
            y -= gap
        x += width + gap
    return x - gap, height


def _shift(p: Panel, dx: float, dy: float) -> None:
    p.rect = (p.rect[0] + dx, p.rect[1] + dy, p.rect[2], p.rect[3])
    p.inner = (p.inner[0] + dx, p.inner[1] + dy, p.inner[2], p.inner[3])
    for note in p.notes:
        note.x += dx
        note.y += dy
    for item in p.items:
        if isinstance(item, Path) and item.figure:
            item.points = tuple((a + dx, b + dy) for a, b in item.points)


def layout(draft: Draft, target: str | Target = "page", words=None) -> Scene:
    """Lay a draft out for ``target`` (a name of :data:`TARGETS`, or a :class:`Target`).

    ``words(panel_draft)`` gives the axis titles of a plot as two Labels (or None).
    Plots share one height: a plot alone in its column grows to the height of the
    tallest column, and when the figure would be too wide or too tall for the target,
    every plot is made smaller (the font stays).  Labels are placed last; when some
    find no room, the plots get more margin, up to three times.
    """
    t = TARGETS[target] if isinstance(target, str) else target
    columns = _columns(draft)
    height, extra = t.plot_height, 0.0
    flexible_kinds = ("plot", "bars")

    def build():
        panels = _build(draft, t, height, extra, words)
        return panels, _arrange(panels, t, columns, draft.align)

    panels, (width, total_h) = build()
    alone = [col[0] for col in columns if len(col) == 1 and draft.panels[col[0]].kind == "plot"]
    if alone and len(columns) > 1:
        p = panels[alone[0]]
        room = total_h - (p.rect[3] - p.inner[3])
        if room > height * 1.05:
            height = room
            panels, (width, total_h) = build()
    # a column without a plot or bars keeps its size: the figure may not be shorter
    fixed_h = max([sum(panels[k].rect[3] for k in col) + 1.4 * t.font * (len(col) - 1)
                   for col in columns
                   if not any(draft.panels[k].kind in flexible_kinds for k in col)] + [0.0])
    max_h = max(t.max_height, fixed_h)

    def fits() -> bool:
        return width <= t.max_width + 0.5 and total_h <= max_h + 0.5

    if not fits() and any(d.kind in flexible_kinds for d in draft.panels):
        # the tallest plots that fit: bisection on their height (the font stays)
        lo, hi = 3.5 * t.font, height
        for _ in range(9):
            height = (lo + hi) / 2
            panels, (width, total_h) = build()
            if fits():
                lo = height
            else:
                hi = height
        height = lo
        panels, (width, total_h) = build()
    best, stale, attempt = None, 0, 0
    while True:
        relaxed = attempt == 5
        if relaxed:   # the last resort: the margins that did best, a line may be crossed
            extra = best[1]
            panels, (width, total_h) = build()
        scene = Scene(draft.kind, width, total_h, t.font, panels, steps=draft.steps,
                      slides=t.name == "slide")
        missing = place_labels(scene, relaxed=relaxed)
        if not missing:
            return scene
        scene.dropped = missing
        if best is None or len(missing) < len(best[0].dropped):
            best, stale = (scene, extra), 0
        else:
            stale += 1
        if relaxed:
            return best[0]
        # more margin, up to four times; after two that did not help, the last resort
        attempt = 5 if (stale >= 2 or attempt >= 4) else attempt + 1
        if attempt < 5:
            extra += 0.15
            panels, (width, total_h) = build()


def _build(draft: Draft, t: Target, height: float, extra: float, words) -> list:
    out = []
    for d in draft.panels:
        if d.kind == "plot":
            out.append(_plot_panel(d, t, height, extra,
                                   words(d) if words and d.show_words else None))
        elif d.kind == "grid":
            out.append(_grid_panel(d, t))
        elif d.kind == "bars":
            out.append(_bars_panel(d, t, height * 0.8))
        else:
            raise ValueError(d.kind)
    for p, d in zip(out, draft.panels):
        p.draft = d
    return out


# -- labels -------------------------------------------------------------------------------

#: directions a point's label tries, in order: up right first, as one labels by hand
_DIRECTIONS = (45, 315, 135, 225, 0, 180, 90, 270, 22, 338, 158, 202, 67, 293, 113, 247)


def _sgn(v: float) -> float:
    return 0.0 if abs(v) < 1e-9 else (1.0 if v > 0 else -1.0)


def _point_candidates(x: float, y: float, w: float, h: float, r: float) -> list:
    """Centres for a label of size w x h beside a point whose marker fits a square of
    half-side ``r``: touching the square at each compass point (up right first), then
    further out, and between the compass points."""
    out = []
    for gap in (1.3, 4.0, 8.0, 13.0, 19.0):
        for angle in _DIRECTIONS:
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            sx, sy = _sgn(ux), _sgn(uy)
            if angle % 45 == 0:
                out.append((x + sx * (r + gap + w / 2), y + sy * (r + gap + h / 2)))
            else:
                d = r * 1.45 + gap
                out.append((x + ux * d + sx * w / 2, y + uy * d + sy * h / 2))
    return out


def _arrow_candidates(x0, y0, x1, y1, w, h,
                      along=(0.5, 0.38, 0.62, 0.27, 0.73, 0.15, 0.85)) -> list:
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    out = []
    for gap in (2.0, 5.0, 9.0, 14.0, 20.0):
        for t in along:
            mx, my = x0 + dx * t, y0 + dy * t
            for side in (1, -1):
                sx, sy = nx * side, ny * side
                off = gap + abs(sx) * w / 2 + abs(sy) * h / 2
                out.append((mx + sx * off, my + sy * off))
    return out


def label_obstacles(scene: Scene, panel: Panel):
    """What a label of ``panel`` must not overlap, as (item, kind, geometry): markers
    and fixed texts as boxes, arrows and drawn lines as segments."""
    r = mark_radius(scene.font)
    out = []
    for item in panel.items:
        if isinstance(item, Mark):
            out.append((item, "box", mark_box(panel, item, r)))
        elif isinstance(item, Arrow):
            geo = arrow_outline(panel, item)
            if geo is None:
                continue
            x0, y0, xb, yb, head = geo
            out.append((item, "seg", (x0, y0, head[0][0], head[0][1])))
            out.append((item, "seg", (head[1][0], head[1][1], head[2][0], head[2][1])))
        elif isinstance(item, Path) and not item.figure and item.width > 0 \
                and item.role not in ("region", "grid"):
            pts = [panel.at(*p) for p in item.points]
            if item.closed and len(pts) > 2:
                pts = pts + pts[:1]
            soft = item.role in ("hull", "ray", "axis")
            for a, b in zip(pts, pts[1:]):
                out.append((item, "soft" if soft else "seg", (a[0], a[1], b[0], b[1])))
        elif isinstance(item, Cell):
            continue
    for note in panel.notes:
        out.append((note, "box", note_box(scene, note)))
    if panel.title is not None:
        out.append((Text(), "box", title_box(scene, panel)))
    return out


def title_box(scene: Scene, panel: Panel) -> Box:
    """The box of a panel's title, centred over its data."""
    f = scene.font
    cx = panel.inner[0] + panel.inner[2] / 2
    cy = panel.rect[1] + panel.rect[3] - 0.75 * f
    return text_box(panel.title, cx, cy, f)


def note_box(scene: Scene, note: Text) -> Box:
    """The box of a fixed text (a tick label, an axis title), in pt."""
    f = scene.font
    w, h = note.label.width(f), note.label.height(f)
    if note.rotate:
        w, h = h, w
    if note.anchor == "east":
        return Box(note.x - w, note.y - h / 2, w, h)
    if note.anchor == "west":
        return Box(note.x, note.y - h / 2, w, h)
    return Box(note.x - w / 2, note.y - h / 2, w, h)


@dataclasses.dataclass
class _Vis:
    """When a label shows: with its item, and in a still picture only if its item
    lets it (``label_still``)."""

    first: int
    last: Optional[int]
    still: bool


def label_vis(item) -> _Vis:
    return _Vis(item.first, item.last, item.still and getattr(item, "label_still", True))


def _seg_box(geo) -> Box:
    x0, y0, x1, y1 = geo
    return Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))


def _free(box: Box, boxes, segs, softs, placed, bounds: Box, soft_ok: bool,
          lines_ok: bool = False) -> bool:
    """Whether ``box`` is inside ``bounds`` and clear of the obstacles seen with it:
    ``boxes`` (markers, fixed texts), ``segs`` and ``softs`` (lines, as (bbox, segment)),
    and the labels ``placed`` so far."""
    if not box.inside(bounds):
        return False
    for geo in boxes:
        if box.overlaps(geo, 0.8):
            return False
    grown = Box(box.x - 0.8, box.y - 0.8, box.w + 1.6, box.h + 1.6)
    for group, given_up in ((segs, lines_ok), (softs, soft_ok)):
        if given_up:
            continue
        for bbox, geo in group:
            if grown.overlaps(bbox) and grown.hits_segment(*geo):
                return False
    for obox in placed:
        if box.overlaps(obox, 1.2):
            return False
    return True


def place_labels(scene: Scene, relaxed: bool = False) -> list:
    """Place the labels of every marker, arrow and path; return those left without room.

    A label is tried around its anchor (see :func:`_point_candidates`, and beside the
    middle of an arrow); the first place that is free of every obstacle seen at the
    same time (:func:`~symrow.figures.scene.coexist`) is taken.  Soft obstacles (a
    hull's edge, a line through the origin) are avoided when possible.
    """
    missing = []
    for panel in scene.panels:
        # the points' names first: they matter most, and they are near their markers
        order = ([i for i in panel.items if isinstance(i, Mark) and i.label] +
                 [i for i in panel.items if isinstance(i, Path) and i.label and not i.figure] +
                 [i for i in panel.items if isinstance(i, Arrow) and i.label])
        lost = _place_panel(scene, panel, order, relaxed)
        if 0 < len(lost) <= 3:
            # those without room go first, and the others find their places around them
            first_try = dict(panel.placed)
            again = _place_panel(scene, panel, lost + [i for i in order
                                                       if all(i is not x for x in lost)],
                                 relaxed)
            if len(again) >= len(lost):
                panel.placed = first_try
                _place_panel(scene, panel, order, relaxed)
            else:
                lost = again
        missing += lost
    return missing


def _place_panel(scene: Scene, panel: Panel, order: list, relaxed: bool) -> list:
    """Place the labels of ``order`` in turn in one panel; return those left without room."""
    r = mark_radius(scene.font)
    f = scene.font
    missing = []
    obstacles = label_obstacles(scene, panel)
    bounds = Box(*panel.rect)
    placed: list = []
    panel.placed = {}
    if True:
        for item in order:
            lab = item.label
            w, h = lab.width(f), lab.height(f)
            if isinstance(item, Mark):
                x, y = panel.at(item.x, item.y)
                spots = _point_candidates(x, y, w, h, r * 1.35 + 0.8)
            elif isinstance(item, Arrow):
                geo = arrow_outline(panel, item)
                if geo is None:
                    continue
                spots = _arrow_candidates(geo[0], geo[1], geo[4][0][0], geo[4][0][1], w, h)
            elif item.role == "link" and len(item.points) == 2:
                (x0, y0), (x1, y1) = (panel.at(*q) for q in item.points)
                spots = _arrow_candidates(x0, y0, x1, y1, w, h, (0.72, 0.62, 0.82, 0.52, 0.42))
            else:
                x, y = panel.at(*item.points[-1])
                spots = _point_candidates(x, y, w, h, 1.0)
            chosen = None
            vis = label_vis(item)
            if not scene.slides and not vis.still:
                continue      # a still picture does not show it
            # what is seen with this label (a label keeps off its own marker and its
            # own arrow too)
            seen = [(kind, geo) for other, kind, geo in obstacles
                    if coexist(vis, other, scene.slides)]
            boxes = [geo for kind, geo in seen if kind == "box"]
            segs = [(_seg_box(geo), geo) for kind, geo in seen if kind == "seg"]
            softs = [(_seg_box(geo), geo) for kind, geo in seen if kind == "soft"]
            near = [obox for other, obox in placed if coexist(vis, other, scene.slides)]
            # soft obstacles (a hull's edge) are given up first; a line only as a last
            # resort, never a point or another label
            passes = ((False, False), (True, False)) + (((True, True),) if relaxed else ())
            for soft_ok, lines_ok in passes:
                for cx, cy in spots:
                    box = Box(cx - w / 2, cy - h / 2, w, h)
                    if _free(box, boxes, segs, softs, near, bounds, soft_ok, lines_ok):
                        chosen = box
                        break
                if chosen is not None:
                    break
            if chosen is None:
                missing.append(item)
                continue
            panel.placed[id(item)] = chosen
            placed.append((vis, chosen))
    return missing
