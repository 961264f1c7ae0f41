"""A scene as SVG: for a Markdown page (an image beside it) and for Jupyter.

The SVG is plain and self-contained: no script, no external font or image,
inline attributes only (GitHub, Zenn and Qiita show it as an image; Jupyter
shows it inline).  Its user units are the scene's TeX points; ``width`` and
``height`` give its size in px at 96 px per inch, and ``style`` lets it
shrink to a narrow column.  Labels are Unicode (the bold letters of row
vectors set as bold italic, indices as Unicode subscripts): KaTeX does not
reach into an image, so the math a label cannot say goes in the caption.

Every drawn thing says what it is, so that the tests can read the numbers
back: a panel carries its data range and the rectangle it fills
(``data-limits``, ``data-inner``, in the scene's coordinates, y up), a
marker its sequence and row (``data-seq``, ``data-index``), an arrow its
term (``data-term``), a cell its entry and value (``data-row``, ``data-col``,
``data-value``).
"""

from __future__ import annotations

import html

from .layout import arrow_outline, mark_radius, marker_outline, note_box, title_box
from .scene import OKABE_ITO, Arrow, Cell, Mark, Path, Scene, Text

__all__ = ["to_svg", "PX_PER_PT", "runs"]

#: px per TeX point (96 px to the inch, 72.27 pt)
PX_PER_PT = 96 / 72.27

_SERIF = ("'Latin Modern Roman','CMU Serif','STIX Two Text','Times New Roman',"
          "'DejaVu Serif',serif")
_SANS = "'Helvetica Neue',Helvetica,Arial,'DejaVu Sans','Noto Sans CJK JP',sans-serif"

_DASH = {"dashed": "3.2 2.2", "dotted": "1 2", "": None}


def _color(name: str) -> str:
    return OKABE_ITO.get(name, name)


def _n(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def runs(text: str, math: bool) -> list:
    """A label's text as (characters, style) runs: a bold letter of a row vector as
    ("b", "bold"), other Latin and Greek letters of math in italics, the rest upright
    (a combining accent stays with its letter).

    >>> runs("𝐛̄₁", True)
    [('b̄', 'bold'), ('₁', '')]
    """
    out: list = []
    for ch in text:
        code = ord(ch)
        style = ""
        if 0x1D41A <= code <= 0x1D433:
            ch, style = chr(ord("a") + code - 0x1D41A), "bold"
        elif 0x1D6C2 <= code <= 0x1D6DB:
            ch, style = chr(0x3B1 + code - 0x1D6C2), "bold"
        elif math and (ch.isascii() and ch.isalpha() or 0x3B1 <= code <= 0x3C9):
            style = "italic"
        if 0x300 <= code <= 0x36F and out:
            out[-1] = (out[-1][0] + ch, out[-1][1])
            continue
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + ch, style)
        else:
            out.append((ch, style))
    return out


class _Writer:
    def __init__(self, scene: Scene):
        self.scene = scene
        self.out: list = []
        self.h = scene.height
        self.r = mark_radius(scene.font)

    def y(self, v: float) -> float:
        return self.h - v

    def pt(self, x: float, y: float) -> str:
        return f"{_n(x)},{_n(self.y(y))}"

    def text(self, label, cx: float, cy: float, *, anchor="middle", color="#000000",
             rotate=0.0, attrs="") -> None:
        f = self.scene.font * label.size
        family = _SERIF if label.math else _SANS
        # the baseline sits a third of an em under the centre of the box
        base = cy - 0.32 * f
        x, y = cx, self.y(base)
        if rotate:
            x, y = cx + 0.32 * f, self.y(cy)
        spans = []
        for chars, style in runs(label.text, label.math):
            a = ""
            if style == "bold":
                a = ' font-weight="bold" font-style="italic"'
            elif style == "italic":
                a = ' font-style="italic"'
            spans.append(f"<tspan{a}>{html.escape(chars)}</tspan>" if a else html.escape(chars))
        turn = f' transform="rotate({-rotate:g} {_n(x)} {_n(y)})"' if rotate else ""
        self.out.append(f'<text x="{_n(x)}" y="{_n(y)}" font-family="{family}" '
                        f'font-size="{_n(f)}" text-anchor="{anchor}" fill="{color}"{turn}'
                        f'{attrs}>{"".join(spans)}</text>')

    def polygon(self, pts, *, fill="none", stroke="none", width=0.0, dash=None,
                opacity=None, closed=True, attrs="", cap="butt") -> None:
        d = " ".join(self.pt(x, y) for x, y in pts)
        tag = "polygon" if closed else "polyline"
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if opacity is not None and opacity < 1:
            extra += f' fill-opacity="{_n(opacity)}"' if fill != "none" else \
                f' stroke-opacity="{_n(opacity)}"'
        self.out.append(f'<{tag} points="{d}" fill="{fill}" stroke="{stroke}" '
                        f'stroke-width="{_n(width)}" stroke-linejoin="round" '
                        f'stroke-linecap="{cap}"{extra}{attrs}/>')


def _shown(item) -> bool:
    return item.still


def _mark(w: _Writer, panel, mk: Mark) -> None:
    x, y = panel.at(mk.x, mk.y)
    color = _color(mk.color)
    fill = color if mk.filled else "#ffffff"
    edge = "#ffffff" if mk.filled else color
    width = 0.9 if mk.filled else 1.4
    attrs = f' data-seq="{html.escape(mk.seq)}" data-index="{mk.index}"'
    shape = marker_outline(mk.shape, x, y, w.r)
    if mk.filled:   # a dark rim keeps a light marker visible on white paper
        edge = "#1a1a1a" if mk.color in ("orange", "sky", "yellow") else "#ffffff"
    if shape[0] == "circle":
        w.out.append(f'<circle cx="{_n(x)}" cy="{_n(w.y(y))}" r="{_n(shape[1])}" fill="{fill}" '
                     f'stroke="{edge}" stroke-width="{_n(width)}"{attrs}/>')
    else:
        w.polygon(shape[1], fill=fill, stroke=edge, width=width, attrs=attrs)


def _arrow(w: _Writer, panel, a: Arrow) -> None:
    geo = arrow_outline(panel, a)
    if geo is None:
        return
    x0, y0, xb, yb, head = geo
    color = _color(a.color)
    term = " ".join(str(t) for t in a.term)
    dash = f' stroke-dasharray="{_DASH[a.dash]}"' if _DASH.get(a.dash) else ""
    w.out.append(f'<g data-term="{html.escape(term)}" data-tail="{_n(a.x0)},{_n(a.y0)}" '
                 f'data-head="{_n(a.x1)},{_n(a.y1)}">'
                 f'<line x1="{_n(x0)}" y1="{_n(w.y(y0))}" x2="{_n(xb)}" y2="{_n(w.y(yb))}" '
                 f'stroke="{color}" stroke-width="{_n(a.width)}"{dash}/>')
    w.polygon(head, fill=color)
    w.out.append("</g>")


def _path(w: _Writer, panel, p: Path) -> None:
    pts = p.points if p.figure else [panel.at(*q) for q in p.points]
    fill = _color(p.fill) if p.fill else "none"
    stroke = _color(p.color) if p.width > 0 else "none"
    attrs = f' data-role="{p.role}"'
    if p.role in ("region", "hull", "subhull"):
        attrs += ' data-points="%s"' % " ".join(f"{_n(a)},{_n(b)}" for a, b in p.points)
    w.polygon(pts, fill=fill, stroke=stroke, width=p.width, dash=_DASH.get(p.dash),
              opacity=p.opacity if (p.fill or p.opacity < 1) else None, closed=p.closed,
              attrs=attrs, cap="round" if p.dash == "dotted" else "butt")


def _cell(w: _Writer, panel, c: Cell) -> None:
    x0, y0 = panel.at(c.x, c.y)
    x1, y1 = panel.at(c.x + 1, c.y + 1)
    attrs = (f' data-row="{c.row}" data-col="{c.col}" data-value="{c.value!r}" '
             f'data-role="{c.role}"')
    stroke = "#ffffff" if c.role != "sum" else "#9a9a9a"
    w.out.append(f'<rect x="{_n(x0)}" y="{_n(w.y(y1))}" width="{_n(x1 - x0)}" '
                 f'height="{_n(y1 - y0)}" fill="{c.fill}" stroke="{stroke}" '
                 f'stroke-width="0.8"{attrs}/>')
    if c.masked:
        step = (x1 - x0) / 4
        for k in range(1, 4):
            a = k * step
            w.out.append(f'<line x1="{_n(x0 + a)}" y1="{_n(w.y(y0))}" x2="{_n(x0)}" '
                         f'y2="{_n(w.y(y0 + a))}" stroke="#b8b8b8" stroke-width="0.6"/>')
            w.out.append(f'<line x1="{_n(x1)}" y1="{_n(w.y(y1 - a))}" x2="{_n(x1 - a)}" '
                         f'y2="{_n(w.y(y1))}" stroke="#b8b8b8" stroke-width="0.6"/>')
    if c.label is not None:
        w.text(c.label, (x0 + x1) / 2, (y0 + y1) / 2, color=c.ink)


def _grid_lines(w: _Writer, panel) -> None:
    ix, iy, iw, ih = panel.inner
    x0, x1, y0, y1 = panel.limits
    for v in getattr(panel, "xticks", []):
        px, _ = panel.at(v, 0)
        color, width = ("#a0a0a0", 0.7) if abs(v) < 1e-9 else ("#ececec", 0.5)
        w.out.append(f'<line x1="{_n(px)}" y1="{_n(w.y(iy))}" x2="{_n(px)}" '
                     f'y2="{_n(w.y(iy + ih))}" stroke="{color}" stroke-width="{width}"/>')
    for v in getattr(panel, "yticks", []):
        _, py = panel.at(0, v)
        color, width = ("#a0a0a0", 0.7) if abs(v) < 1e-9 else ("#ececec", 0.5)
        w.out.append(f'<line x1="{_n(ix)}" y1="{_n(w.y(py))}" x2="{_n(ix + iw)}" '
                     f'y2="{_n(w.y(py))}" stroke="{color}" stroke-width="{width}"/>')


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


def to_svg(scene: Scene, *, title: str = "", desc: str = "") -> str:
    """The still picture of ``scene`` as an SVG document (str)."""
    w = _Writer(scene)
    W, H = scene.width, scene.height
    w.out.append(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(W)} {_n(H)}" '
                 f'width="{_n(W * PX_PER_PT)}" height="{_n(H * PX_PER_PT)}" role="img" '
                 f'style="max-width:100%;height:auto" data-kind="{scene.kind}" '
                 f'data-font="{_n(scene.font)}">')
    if title:
        w.out.append(f"<title>{html.escape(title)}</title>")
    if desc:
        w.out.append(f"<desc>{html.escape(desc)}</desc>")
    w.out.append(f'<rect x="0" y="0" width="{_n(W)}" height="{_n(H)}" fill="#ffffff"/>')
    for k, panel in enumerate(scene.panels):
        ix, iy, iw, ih = panel.inner
        w.out.append(f'<g data-panel="{k}" data-kind="{panel.kind}" '
                     f'data-limits="{" ".join(repr(float(v)) for v in panel.limits)}" '
                     f'data-inner="{" ".join(repr(float(v)) for v in panel.inner)}">')
        if panel.kind == "plot":
            clip = f"clip{k}"
            w.out.append(f'<clipPath id="{clip}"><rect x="{_n(ix)}" y="{_n(w.y(iy + ih))}" '
                         f'width="{_n(iw)}" height="{_n(ih)}"/></clipPath>')
            w.out.append(f'<rect x="{_n(ix)}" y="{_n(w.y(iy + ih))}" width="{_n(iw)}" '
                         f'height="{_n(ih)}" fill="#ffffff" stroke="#bdbdbd" '
                         f'stroke-width="0.6"/>')
            _grid_lines(w, panel)
            w.out.append(f'<g clip-path="url(#{clip})">')
        if panel.kind == "bars":
            w.out.append(f'<line x1="{_n(ix)}" y1="{_n(w.y(iy))}" x2="{_n(ix + iw)}" '
                         f'y2="{_n(w.y(iy))}" stroke="#555555" stroke-width="0.8"/>')
        items = sorted((i for i in panel.items if _shown(i) and not
                        (isinstance(i, Path) and i.figure)), key=_z)
        late = []
        for item in items:
            if isinstance(item, Path) and item.role == "highlight":
                late.append(item)
                continue
            if isinstance(item, Mark):
                late.append(item)
                continue
            if isinstance(item, Arrow):
                _arrow(w, panel, item)
            elif isinstance(item, Path):
                _path(w, panel, item)
            elif isinstance(item, Cell):
                _cell(w, panel, item)
            elif isinstance(item, Text):
                late.append(item)
        if panel.kind == "plot":
            w.out.append("</g>")
        for item in late:
            if isinstance(item, Mark):
                _mark(w, panel, item)
            elif isinstance(item, Path):
                _path(w, panel, item)
            elif isinstance(item, Text):
                x, y = (item.x, item.y) if item.figure else panel.at(item.x, item.y)
                if item.role == "value":
                    y += 0.75 * scene.font * item.label.size
                w.text(item.label, x, y, color=_color(item.color))
        for item in panel.items:
            if isinstance(item, Path) and item.figure and item.still:
                _path(w, panel, item)
        for item in panel.items:
            box = panel.placed.get(id(item))
            if box is None or not (item.still and getattr(item, "label_still", True)):
                continue
            w.text(item.label, box.cx, box.cy, color=item.label.color,
                   attrs=f' data-label-of="{_what(item)}"')
        if panel.title is not None:
            box = title_box(scene, panel)
            w.text(panel.title, box.cx, box.cy, attrs=' data-role="title"')
        for note in panel.notes:
            box = note_box(scene, note)
            anchor = {"east": "end", "west": "start"}.get(note.anchor, "middle")
            x = {"end": box.x + box.w, "start": box.x}.get(anchor, box.cx)
            w.text(note.label, x, box.cy, anchor=anchor, color=_color(note.color),
                   rotate=note.rotate, attrs=f' data-role="{note.role}"')
        w.out.append("</g>")
    w.out.append("</svg>")
    return "\n".join(w.out) + "\n"


def _what(item) -> str:
    if isinstance(item, Mark):
        return html.escape(f"{item.seq} {item.index}")
    if isinstance(item, Arrow):
        return html.escape(" ".join(str(t) for t in item.term))
    return html.escape(getattr(item, "role", ""))
