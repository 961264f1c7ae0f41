"""A scene as TikZ: for LaTeX notes, PDF documents and Beamer slides.

The picture is drawn in the scene's own coordinates (TeX points, ``x=1pt``),
so that it is the same picture as the SVG, and its labels are math in the
document's own fonts (``\\boldsymbol{c}_{1}``), at the scene's size.  It
needs ``\\usepackage{tikz}`` and nothing else (no TikZ library: arrow heads
are drawn as the scene's triangles; colours are given as RGB).

With ``slides=True`` each item is drawn on the overlays of its steps
(``\\only<2->{...}``), so that a Beamer frame reveals the figure step by step:
the points first, then each row's construction.  The bounding box is fixed
(``\\useasboundingbox``), so the picture does not move between overlays.
"""

from __future__ import annotations

from .layout import arrow_outline, mark_radius, marker_outline, note_box, title_box
from .scene import OKABE_ITO, Arrow, Cell, Mark, Path, Scene, Text

__all__ = ["to_tikz"]

_DASH = {"dashed": "dash pattern=on 3.2pt off 2.2pt", "dotted": "dash pattern=on 1pt off 2pt,"
         "line cap=round", "": ""}


def _rgb(color: str) -> str:
    color = OKABE_ITO.get(color, color)
    r, g, b = (int(color[k:k + 2], 16) for k in (1, 3, 5))
    return "{rgb,255:red,%d;green,%d;blue,%d}" % (r, g, b)


def _n(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _p(x: float, y: float) -> str:
    return f"({_n(x)},{_n(y)})"


class _Writer:
    def __init__(self, scene: Scene, slides: bool):
        self.scene = scene
        self.slides = slides
        self.out: list = []
        self.r = mark_radius(scene.font)

    def emit(self, item, code: str, *, label: bool = False) -> None:
        """``code`` for ``item``: on its overlays (slides), or if the still picture shows
        it (a label: if its item lets the still picture show it)."""
        if not self.slides:
            if item.still and (not label or getattr(item, "label_still", True)):
                self.out.append(code)
            return
        if item.first <= 1 and item.last is None:
            self.out.append(code)
            return
        spec = f"{item.first}-{item.last if item.last is not None else ''}"
        if item.last == item.first:
            spec = str(item.first)
        self.out.append("\\only<%s>{%s}" % (spec, code))

    def text(self, label, cx: float, cy: float, *, anchor: str = "center", color="#000000",
             rotate: float = 0.0) -> str:
        f = self.scene.font * label.size
        # a label in words is LaTeX already (its words escaped, any math in $...$)
        body = "$%s$" % label.tex if label.math else label.tex
        opts = [f"anchor={anchor}", "inner sep=0pt",
                "font=\\fontsize{%s}{%s}\\selectfont" % (_n(f), _n(f * 1.2))]
        if color != "#000000":
            opts.append("text=" + _rgb(color))
        if rotate:
            opts.append(f"rotate={rotate:g}")
        return "\\node[%s] at %s {%s};" % (",".join(opts), _p(cx, cy), body)


def _mark(w: _Writer, panel, mk: Mark) -> str:
    x, y = panel.at(mk.x, mk.y)
    color = _rgb(mk.color)
    if mk.filled:
        edge = _rgb("#1a1a1a") if mk.color in ("orange", "sky", "yellow") else "white"
        opts = f"fill={color},draw={edge},line width=0.9pt"
    else:
        opts = f"fill=white,draw={color},line width=1.4pt"
    shape = marker_outline(mk.shape, x, y, w.r)
    if shape[0] == "circle":
        return "\\filldraw[%s] %s circle[radius=%spt];" % (opts, _p(x, y), _n(shape[1]))
    return "\\filldraw[%s,line join=round] %s -- cycle;" % (
        opts, " -- ".join(_p(a, b) for a, b in shape[1]))


def _arrow(w: _Writer, panel, a: Arrow) -> str:
    geo = arrow_outline(panel, a)
    if geo is None:
        return ""
    x0, y0, xb, yb, head = geo
    dash = _DASH[a.dash]
    opts = f"draw={_rgb(a.color)},line width={_n(a.width)}pt" + (f",{dash}" if dash else "")
    return ("\\draw[%s] %s -- %s; \\fill[color=%s] %s -- cycle;"
            % (opts, _p(x0, y0), _p(xb, yb), _rgb(a.color),
               " -- ".join(_p(x, y) for x, y in head)))


def _path(w: _Writer, panel, p: Path) -> str:
    pts = p.points if p.figure else [panel.at(*q) for q in p.points]
    path = " -- ".join(_p(x, y) for x, y in pts) + (" -- cycle" if p.closed else "")
    opts = []
    if p.fill:
        opts.append("fill=" + _rgb(p.fill))
        if p.opacity < 1:
            opts.append(f"fill opacity={_n(p.opacity)}")
    if p.width > 0:
        opts.append(f"draw={_rgb(p.color)},line width={_n(p.width)}pt,line join=round")
        if p.opacity < 1 and not p.fill:
            opts.append(f"draw opacity={_n(p.opacity)}")
        if _DASH.get(p.dash):
            opts.append(_DASH[p.dash])
    if not opts:
        return ""
    return "\\path[%s] %s;" % (",".join(opts), path)


def _cell(w: _Writer, panel, c: Cell) -> str:
    x0, y0 = panel.at(c.x, c.y)
    x1, y1 = panel.at(c.x + 1, c.y + 1)
    edge = "white" if c.role != "sum" else _rgb("#9a9a9a")
    out = ["\\filldraw[fill=%s,draw=%s,line width=0.8pt] %s rectangle %s;"
           % (_rgb(c.fill), edge, _p(x0, y0), _p(x1, y1))]
    if c.masked:
        step = (x1 - x0) / 4
        for k in range(1, 4):
            a = k * step
            out.append("\\draw[color=%s,line width=0.6pt] %s -- %s %s -- %s;" % (
                _rgb("#b8b8b8"), _p(x0 + a, y0), _p(x0, y0 + a), _p(x1, y1 - a),
                _p(x1 - a, y1)))
    if c.label is not None:
        out.append(w.text(c.label, (x0 + x1) / 2, (y0 + y1) / 2, color=c.ink))
    return " ".join(out)


def _grid_lines(panel) -> str:
    ix, iy, iw, ih = panel.inner
    out = []
    for v in getattr(panel, "xticks", []):
        px, _ = panel.at(v, 0)
        color, width = ("#a0a0a0", 0.7) if abs(v) < 1e-9 else ("#ececec", 0.5)
        out.append("\\draw[color=%s,line width=%spt] %s -- %s;" % (_rgb(color), width, _p(px, iy),
                                                             _p(px, iy + ih)))
    for v in getattr(panel, "yticks", []):
        _, py = panel.at(0, v)
        color, width = ("#a0a0a0", 0.7) if abs(v) < 1e-9 else ("#ececec", 0.5)
        out.append("\\draw[color=%s,line width=%spt] %s -- %s;" % (_rgb(color), width, _p(ix, py),
                                                             _p(ix + iw, py)))
    return "\n".join(out)


_ORDER = {"region": 0, "grid": 1, "edge": 2, "ray": 2, "guide": 2, "hull": 3, "subhull": 3,
          "link": 4, "proj": 5, "bar": 2, "highlight": 9, "swatch": 8}


def _z(item) -> int:
    if isinstance(item, Path):
        return _ORDER.get(item.role, 4)
    if isinstance(item, Cell):
        return 1
    if isinstance(item, Arrow):
        return 6
    if isinstance(item, Mark):
        return 7
    return 8


def to_tikz(scene: Scene, *, slides: bool = False) -> str:
    """``scene`` as a ``tikzpicture`` (str): the still picture, or with ``slides`` every
    step on its overlays."""
    w = _Writer(scene, slides)
    f = scene.font
    w.out.append("\\begin{tikzpicture}[x=1pt,y=1pt,font=\\fontsize{%s}{%s}\\selectfont]"
                 % (_n(f), _n(f * 1.2)))
    w.out.append("\\useasboundingbox (0,0) rectangle %s;" % _p(scene.width, scene.height))
    for k, panel in enumerate(scene.panels):
        ix, iy, iw, ih = panel.inner
        w.out.append("%% panel %d: %s; data %s fill %s" % (
            k + 1, panel.kind, " ".join(_n(v) for v in panel.limits),
            " ".join(_n(v) for v in panel.inner)))
        if panel.kind == "plot":
            w.out.append("\\draw[color=%s,line width=0.6pt,fill=white] %s rectangle %s;"
                         % (_rgb("#bdbdbd"), _p(ix, iy), _p(ix + iw, iy + ih)))
            w.out.append(_grid_lines(panel))
            w.out.append("\\begin{scope}\n\\clip %s rectangle %s;" % (_p(ix, iy),
                                                                      _p(ix + iw, iy + ih)))
        if panel.kind == "bars":
            w.out.append("\\draw[color=%s,line width=0.8pt] %s -- %s;" % (
                _rgb("#555555"), _p(ix, iy), _p(ix + iw, iy)))
        items = sorted((i for i in panel.items if not (isinstance(i, Path) and i.figure)),
                       key=_z)
        late = []
        for item in items:
            if isinstance(item, (Mark, Text)) or (isinstance(item, Path) and
                                                  item.role == "highlight"):
                late.append(item)
            elif isinstance(item, Arrow):
                w.out.append("%% arrow %s" % " ".join(str(t).replace("\\", "")
                                                       for t in item.term))
                w.emit(item, _arrow(w, panel, item))
            elif isinstance(item, Path):
                code = _path(w, panel, item)
                if code:
                    w.emit(item, code)
            elif isinstance(item, Cell):
                w.out.append("%% cell %d %d %r" % (item.row, item.col, item.value))
                w.emit(item, _cell(w, panel, item))
        if panel.kind == "plot":
            w.out.append("\\end{scope}")
        for item in late:
            if isinstance(item, Mark):
                # which row it is, for a reader of the source (and the tests)
                w.out.append("%% point %s %d" % (item.seq.replace("\\", ""), item.index))
                w.emit(item, _mark(w, panel, item))
            elif isinstance(item, Path):
                w.emit(item, _path(w, panel, item))
            else:
                x, y = (item.x, item.y) if item.figure else panel.at(item.x, item.y)
                if item.role == "value":
                    y += 0.75 * f * item.label.size
                w.emit(item, w.text(item.label, x, y, color=OKABE_ITO.get(item.color,
                                                                          item.color)))
        for item in panel.items:
            if isinstance(item, Path) and item.figure:
                w.emit(item, _path(w, panel, item))
        for item in panel.items:
            box = panel.placed.get(id(item))
            if box is not None:
                w.emit(item, w.text(item.label, box.cx, box.cy, color=item.label.color),
                       label=True)
        first = getattr(getattr(panel, "draft", None), "first", 1)
        if panel.title is not None:
            box = title_box(scene, panel)
            w.emit(Text(first=first), w.text(panel.title, box.cx, box.cy))
        for note in panel.notes:
            box = note_box(scene, note)
            anchor = {"east": "east", "west": "west"}.get(note.anchor, "center")
            x = {"east": box.x + box.w, "west": box.x}.get(anchor, box.cx)
            color = OKABE_ITO.get(note.color, note.color)
            w.emit(Text(first=first), w.text(note.label, x, box.cy, anchor=anchor, color=color,
                                             rotate=note.rotate))
    w.out.append("\\end{tikzpicture}")
    return "\n".join(line for line in w.out if line) + "\n"
