"""What each reading looks like: one builder per kind of picture.

Each builder takes the quantities it draws (:class:`~.numbers.Quantity`, from
the plan's own values), the words of the figure's language and the options,
and returns a :class:`~.layout.Draft`: panels of items in data coordinates,
each item tagged with what it stands for (a mark is row ``index`` of
sequence ``seq``; an arrow is the term ``(C, i, j)``; a cell is entry (i, j)),
so that the tests can check every drawn number against its own computation.

============== ==================================================================
kind           what it shows
============== ==================================================================
points         the rows of one vector sequence as points
map            the points of A (left) and the points of C they are sent to (right)
combine        each c_i reached by adding the points b_j, scaled by a_ij, head to tail
match          a_i and b_j in one plane, a_i projected on each b_j; the heat map of c_ij
attention      the scores, the distribution P (rows summing to 1), o_i in the hull of V
distribution   the scores and P side by side, with P's row sums
scale          one row of P with and without the 1/√d
hull           o_i in the convex hull of the v_j (a combine with a distribution)
graph          a graph's points mixing their neighbours' (a normalised adjacency)
shift          before and after: a diagonal scaling, a bias, LayerNorm, ReLU, σ, tanh
============== ==================================================================
"""

from __future__ import annotations

import math

import sympy

from .layout import Draft, PanelDraft
from .numbers import check_axes, fmt, number_label, project
from .scene import OKABE_ITO, SERIES, Arrow, Cell, Label, Mark, Path, Text

__all__ = ["hull", "BUILDERS", "row_label", "name_label", "heat"]


# -- labels -------------------------------------------------------------------------------

def row_label(q, i: int) -> Label:
    """Row ``i`` of a quantity, as the derivation writes it: ``\\boldsymbol{c}_{1}``, 𝐜₁."""
    if q.seq is not None:
        return Label(q.seq.row_latex(str(i)), q.seq.row_text(str(i)))
    from ..render.latex import latex
    from ..render.text import _inline
    node = q.node.row(i)
    return Label(latex(node), _inline(node))


def name_label(q) -> Label:
    """A quantity's name (``S``), or what it computes when it has none (``S/√d``)."""
    if q.seq is not None:
        return Label(q.seq.latex_name, q.seq.text_name)
    from ..render.latex import latex
    from ..render.text import _inline
    node = q.node.whole()
    return Label(latex(node, fraction="slash"), _inline(node))


def _scaled_name(weight: float, point: Label) -> Label:
    """``3𝐛₁``: a point scaled by its weight (1 and −1 as a sign alone)."""
    tex, text = fmt(weight)
    return Label(tex + point.tex, text + point.text)


def _words(text: str) -> Label:
    return Label(text, text, math=False)


# -- colours ------------------------------------------------------------------------------

def _mix(a: str, b: str, t: float) -> str:
    """The colour t of the way from ``a`` to ``b`` (``#rrggbb``), mixed in linear light."""
    def lin(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def srgb(c):
        c = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
        return max(0, min(255, round(c * 255)))
    ra, rb = [[int(h[k:k + 2], 16) for k in (1, 3, 5)] for h in (a, b)]
    return "#" + "".join(f"{srgb(lin(x) + (lin(y) - lin(x)) * t):02x}" for x, y in zip(ra, rb))


def _darker(color: str) -> str:
    """A colour darkened for text on white (a label in the colour of its line)."""
    return _mix(color, "#000000", 0.25)


def _luminance(color: str) -> float:
    r, g, b = [int(color[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def heat(value: float, top: float, signed: bool) -> tuple:
    """The fill and the ink of a heat-map cell: white to Okabe–Ito blue for the size of
    a value (its lightness falls with it, so that a grey print keeps the order), and to
    vermillion for a negative one when the map is ``signed``."""
    t = 0.0 if top <= 0 else min(1.0, abs(value) / top)
    end = OKABE_ITO["vermillion"] if (signed and value < 0) else OKABE_ITO["blue"]
    fill = _mix("#ffffff", end, 0.92 * t)
    return fill, ("#ffffff" if _luminance(fill) < 0.42 else "#000000")


# -- helpers ------------------------------------------------------------------------------

def _axes(q, axes, words) -> tuple:
    """The coordinates drawn of the points of ``q``: points in the plane as they are
    (``axes`` chooses among more than two)."""
    dims = len(q.rows[0]) if q.rows else 0
    what = words.points_of(q)
    return check_axes(dims, axes if dims > 2 else None, what), dims


def _plot(items, title, axes, dims, words, limits=None) -> PanelDraft:
    note = words.note(axes, dims) if dims > 2 else None
    return PanelDraft("plot", items, title, axes=axes, dims=dims, note=note, limits=limits)


def _marks(q, pts, *, shape, color, filled=True, first=1, last=None, still=True,
           labels=True, per_index=False, grey=False) -> list:
    out = []
    for k, (x, y) in enumerate(pts, start=1):
        c = SERIES[(k - 1) % len(SERIES)] if per_index else color
        s = _SHAPES[(k - 1) % len(_SHAPES)] if per_index else shape
        out.append(Mark(x=x, y=y, seq=q.name or "", index=k, shape=s, color=c, filled=filled,
                        label=row_label(q, k) if labels else None, first=first, last=last,
                        still=still, grey=grey, value=tuple(q.rows[k - 1])))
    return out


_SHAPES = ("circle", "square", "triangle", "diamond", "down", "pentagon", "cross")


def _grid(q, title, row_names, col_names, *, signed=None, first=1, last=None, still=True,
          masked=None, sums=False, digits=2, masked_as=None) -> PanelDraft:
    """A heat map of ``q``; a masked cell is grey and hatched, and shows ``masked_as``
    (−∞ for a score the mask removes) or its own value (the weight 0)."""
    values = q.rows
    finite = [abs(v) for r, row in enumerate(values) for c, v in enumerate(row)
              if math.isfinite(v) and not (masked is not None and masked[r][c])]
    top = max(finite, default=1.0)
    signed = any(v < 0 for r, row in enumerate(values) for c, v in enumerate(row)
                 if math.isfinite(v) and not (masked is not None and masked[r][c])) \
        if signed is None else signed
    items = []
    for i, row in enumerate(values, start=1):
        for j, v in enumerate(row, start=1):
            off = masked is not None and masked[i - 1][j - 1]
            label = number_label(v, digits)
            if off:
                fill, ink = "#e4e4e4", "#6b6b6b"
                if masked_as is not None:
                    v, label = masked_as, number_label(masked_as)
            else:
                fill, ink = heat(v, top, signed)
            items.append(Cell(row=i, col=j, value=v, label=label, fill=fill,
                              ink=ink, masked=off, first=first, last=last, still=still))
        if sums:
            total = sum(v for v in row if math.isfinite(v))
            items.append(Cell(row=i, col=len(row) + 1, value=total,
                              label=number_label(total, digits), fill="#ffffff", ink="#000000",
                              role="sum", first=first, last=last, still=still))
    return PanelDraft("grid", items, title, rows=len(values), cols=len(values[0]),
                      row_labels=row_names, col_labels=col_names,
                      sum_label=Label(r"\textstyle\sum_j", "Σⱼ") if sums else None)


def hull(points: list) -> list:
    """The convex hull of 2-D points, counter-clockwise, by Andrew's monotone chain
    (collinear points on an edge left out).

    >>> hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 0)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    """
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-12:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-12:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _hull_items(pts, color, *, first=1, last=None, still=True, fill=True, role="hull") -> list:
    shape = hull(pts)
    out = []
    if fill and len(shape) >= 3:
        out.append(Path(points=tuple(shape), closed=True, fill=OKABE_ITO["sky"], opacity=0.22,
                        width=0, role="region", first=first, last=last, still=still))
    if len(shape) >= 2:
        out.append(Path(points=tuple(shape), closed=len(shape) >= 3, color=color, width=0.9,
                        dash="dashed", role=role, first=first, last=last, still=still))
    return out


def _steps(*items_lists) -> int:
    top = 1
    for items in items_lists:
        for item in items:
            top = max(top, item.first, item.last or 0)
    return top


# -- the builders ---------------------------------------------------------------------------

def points(words, seq_q, *, axes=None, **_):
    """The rows of one vector sequence as points in the plane."""
    ax, dims = _axes(seq_q, axes, words)
    pts = project(seq_q.rows, ax)
    items = _marks(seq_q, pts, shape="circle", color="green", per_index=True)
    return Draft("points", [_plot(items, name_label(seq_q), ax, dims, words)], 1)


def point_map(words, a, c, *, axes=None, axes_c=None, **_):
    """A map between point clouds: row i of ``a`` (left) goes to row i of ``c`` (right);
    the same colour and marker for the same row."""
    ax, dims = _axes(a, axes if len(a.rows[0]) > 2 else None, words)
    cx, cdims = _axes(c, axes_c or (axes if len(c.rows[0]) > 2 else None), words)
    left = _marks(a, project(a.rows, ax), shape="circle", color="green", per_index=True)
    right = _marks(c, project(c.rows, cx), shape="circle", color="green", per_index=True,
                   first=2)
    return Draft("map", [_plot(left, name_label(a), ax, dims, words),
                         _plot(right, name_label(c), cx, cdims, words)], 2)


def _scaled_sum(weights: list, points: list, result: Label) -> Label:
    """``𝐜₁ = 1𝐛₁ + 2𝐛₂``: a row of the result as the sum the arrows draw."""
    tex, text = [], []
    for w, lab in zip(weights, points):
        if abs(w) < 1e-12:
            continue
        t, u = fmt(w)
        if tex:
            if t.startswith("-"):
                tex.append(" - ")
                text.append(" − ")
                t, u = t[1:], u[1:]
            else:
                tex.append(" + ")
                text.append(" + ")
        tex.append(t + lab.tex)
        text.append(u + lab.text)
    if not tex:
        tex, text = ["0"], ["0"]
    return Label(f"{result.tex} = " + "".join(tex), f"{result.text} = " + "".join(text))


def combine(words, w, b, c, *, axes=None, transposed=False, slides=False, **_):
    """``C = AB`` (``transposed``: ``C = AᵀB``): each c_i reached from the origin by the
    points b_j, scaled by the weights a_ij, added head to tail, the scaled point written
    on each arrow.  A still picture has one panel per row (at most four), titled by the
    sum it draws; a slide has one panel, and shows row i's arrows at step i + 1."""
    ax, dims = _axes(b, axes, words)
    weights = [list(col) for col in zip(*w.rows)] if transposed else w.rows
    bpts = project(b.rows, ax)
    m = len(weights)

    def base(first=1):
        items: list = []
        for j, (x, y) in enumerate(bpts, start=1):
            items.append(Arrow(x0=0, y0=0, x1=x, y1=y, color="#8a8a8a", width=0.7,
                               term=(b.name, 0, j), shorten=4.0, first=first))
        items += _marks(b, bpts, shape="triangle", color="blue", first=first)
        return items

    def chain(i: int, step: int, last=None) -> list:
        items: list = []
        row = weights[i - 1]
        color = SERIES[(i - 1) % len(SERIES)]
        full = [0.0] * len(b.rows[0])
        for j, a_ij in enumerate(row, start=1):
            if abs(a_ij) < 1e-12:
                continue
            nxt = [s + a_ij * v for s, v in zip(full, b.rows[j - 1])]
            (x0, y0), (x1, y1) = project([full, nxt], ax)
            items.append(Arrow(x0=x0, y0=y0, x1=x1, y1=y1, color=OKABE_ITO[color], width=1.3,
                               label=_scaled_name(a_ij, row_label(b, j)), term=(c.name, i, j),
                               first=step, last=last, shorten=4.2))
            full = nxt
        (px, py), = project([c.rows[i - 1]], ax)
        items.append(Mark(x=px, y=py, seq=c.name or "", index=i, shape="square", color=color,
                          label=row_label(c, i), first=step, value=tuple(c.rows[i - 1])))
        return items

    if slides:
        items = base()
        for i in range(1, m + 1):
            part = chain(i, i + 1)
            for item in part:
                if isinstance(item, Arrow):
                    item.last = i + 1
            items += part
        return Draft("combine", [_plot(items, name_label(c), ax, dims, words)], m + 1)
    shown = min(m, 4)
    chains = [base() + chain(i, i + 1) for i in range(1, shown + 1)]
    everything = [p for items in chains for p in items]
    from .layout import _plot_limits
    limits = _plot_limits(PanelDraft("plot", everything), 0.0)
    panels = []
    for i, items in enumerate(chains, start=1):
        title = _scaled_sum(weights[i - 1], [row_label(b, j) for j in range(1, len(bpts) + 1)],
                            row_label(c, i))
        panel = _plot(items, title, ax, dims, words, limits=limits)
        panel.show_words = i == 1
        panel.words_room = True
        if i > 1 and panel.note is not None:
            panel.note = None       # said once, under the first
        panels.append(panel)
    # four panels as two rows of two; three of a wide cloud too (side by side they would
    # be flat strips)
    x0, x1, y0, y1 = limits
    wide = (x1 - x0) > 1.25 * (y1 - y0)
    columns = [[0, 2], [1, 3]] if shown == 4 else [[0, 2], [1]] if shown == 3 and wide else None
    return Draft("combine", panels, m + 1, columns=columns, align="top")


def match(words, a, b, c, *, axes=None, focus=1, slides=False, **_):
    """``C = ABᵀ``: the points a_i and b_j in one plane, the line of each b_j, and a_i
    projected on it (the number at the foot is a_i·b_j); beside it, the heat map of C."""
    if len(a.rows[0]) != len(b.rows[0]):
        raise AssertionError("a match pairs points of one space")
    ax, dims = _axes(a, axes, words)
    apts, bpts = project(a.rows, ax), project(b.rows, ax)
    items: list = []
    m = len(a.rows)
    focus = min(max(1, focus), m)
    for j, (x, y) in enumerate(bpts, start=1):
        norm = math.hypot(x, y) or 1.0
        far = 1e3 * max(1.0, max(abs(v) for p in apts + bpts for v in p))
        items.append(Path(points=((-far * x / norm, -far * y / norm),
                                  (far * x / norm, far * y / norm)),
                          color=OKABE_ITO["sky"], width=0.6, dash="dashed", role="ray"))
    items += _marks(b, bpts, shape="triangle", color="blue")
    items += _marks(a, apts, shape="circle", color="green")
    exact_plane = dims == 2
    for i, full in enumerate(a.rows, start=1):
        if not exact_plane:
            break
        for j, bj in enumerate(b.rows, start=1):
            dot = c.rows[i - 1][j - 1]
            nb = sum(v * v for v in bj)
            if nb < 1e-12:
                continue
            foot = [dot / nb * v for v in bj]
            (fx, fy), = project([foot], ax)
            ax_, ay_ = project([full], ax)[0]
            tex, text = fmt(dot)
            if slides:   # a slide has less room: the number at the foot, as the caption says
                label = Label(tex, text, size=0.9)
            else:
                label = Label(f"{row_label(a, i).tex}\\cdot{row_label(b, j).tex} = {tex}",
                              f"{row_label(a, i).text}·{row_label(b, j).text} = {text}",
                              size=0.9)
            items.append(Path(points=((ax_, ay_), (fx, fy)), color="#555555", width=0.8,
                              dash="dotted", role="proj", label=label, first=i + 1,
                              last=i + 1, still=(i == focus)))
            items.append(Mark(x=fx, y=fy, seq="foot", index=j, shape="circle",
                              color="black", filled=True, first=i + 1, last=i + 1,
                              still=(i == focus), value=tuple(foot)))
    for item in items:
        if isinstance(item, Mark) and item.seq == "foot":
            item.shape = "diamond"
    grid = _grid(c, _product_title(c, a, b, "match"), [row_label(a, i) for i in range(1, m + 1)],
                 [row_label(b, j) for j in range(1, len(b.rows) + 1)])
    for i in range(1, m + 1):
        grid.items.append(Path(points=_row_box(i, len(b.rows), m), closed=True,
                               color=OKABE_ITO["black"], width=1.6, role="highlight",
                               first=i + 1, last=i + 1, still=(i == focus and exact_plane)))
    return Draft("match", [_plot(items, _seq_names(a, b), ax, dims, words), grid], m + 1)


def _seq_names(*qs) -> Label:
    labs = [name_label(q) for q in qs]
    return Label(", ".join(lab.tex for lab in labs), ", ".join(lab.text for lab in labs))


def _row_box(i: int, cols: int, rows: int) -> tuple:
    y0 = rows - i
    return ((0.0, y0), (float(cols), y0), (float(cols), y0 + 1.0), (0.0, y0 + 1.0))


def _product_title(c, a, b, reading) -> Label:
    A, B, C = name_label(a), name_label(b), name_label(c)
    if reading == "match":
        return Label(f"{C.tex} = {A.tex} {B.tex}^{{T}}", f"{C.text} = {A.text} {B.text}ᵀ")
    return Label(f"{C.tex} = {A.tex} {B.tex}", f"{C.text} = {A.text} {B.text}")


def _mask_of(scores, case_rows=None) -> list:
    """Which scores are masked: −∞ among them, or, for a causal mask (whose value the
    softmax reads as a pattern, leaving the scores as they are), −∞ in the mask M."""
    masked = [[not math.isfinite(v) for v in row] for row in scores.rows]
    node = scores.node
    if node is not None and node.reading == "mask" and node.inputs[1].seq is not None:
        m = node.inputs[1].seq.values
        if m is not None:
            masked = [[masked[i][j] or m[i, j] == -sympy.oo for j in range(len(row))]
                      for i, row in enumerate(masked)]
    return masked


def _hull_panel(words, p, v, o, ax, dims, *, first_step=1, focus=1, masked=None,
                weights=True):
    """The values v_j, their hull, and each o_i inside it with a line to every v_j it
    weighs (wider for a larger weight); o_i shows at step ``first_step + i - 1``."""
    vpts = project(v.rows, ax)
    items: list = []
    items += _hull_items(vpts, OKABE_ITO["blue"])
    m = len(p.rows)
    focus = min(max(1, focus), m)
    for i, row in enumerate(p.rows, start=1):
        step = first_step + i - 1
        color = SERIES[(i - 1) % len(SERIES)]
        (ox, oy), = project([o.rows[i - 1]], ax)
        seen = [j for j, w in enumerate(row, start=1) if w > 0 and not
                (masked and masked[i - 1][j - 1])]
        for j in seen:
            w = row[j - 1]
            x, y = vpts[j - 1]
            if math.hypot(x - ox, y - oy) < 1e-9:
                continue     # o_i is v_j itself (all its weight on one value)
            items.append(Path(points=((ox, oy), (x, y)), color=OKABE_ITO[color],
                              width=0.35 + 2.6 * w, role="link", first=step, last=step,
                              label=Label(fmt(w)[0], fmt(w)[1], size=0.85,
                                          color=_darker(OKABE_ITO[color])) if weights
                              else None, opacity=0.85, still=True))
            items[-1].label_still = (i == focus)
        if masked and any(masked[i - 1]):
            sub = [vpts[j - 1] for j in seen]
            items += _hull_items(sub, OKABE_ITO[color], first=step, last=step, still=False,
                                 fill=False, role="subhull")
            for j in range(1, len(vpts) + 1):
                if masked[i - 1][j - 1]:
                    x, y = vpts[j - 1]
                    items.append(Mark(x=x, y=y, seq=v.name or "", index=j, shape="triangle",
                                      color="#b0b0b0", grey=True, first=step, last=step,
                                      still=False, value=tuple(v.rows[j - 1])))
        items.append(Mark(x=ox, y=oy, seq=o.name or "", index=i, shape="square", color=color,
                          label=row_label(o, i), first=step, value=tuple(o.rows[i - 1])))
    marks = _marks(v, vpts, shape="triangle", color="blue")
    if masked:
        # under a mask a value point is greyed while the query shown cannot see it
        split = []
        for mk in marks:
            j = mk.index
            hidden = [first_step + i for i in range(m) if masked[i][j - 1]]
            if not hidden:
                split.append(mk)
                continue
            spans, start = [], 1
            for s in hidden:
                if s > start:
                    spans.append((start, s - 1))
                start = s + 1
            spans.append((start, None))
            for k, (a, b) in enumerate(spans):
                part = Mark(**{**mk.__dict__, "first": a, "last": b, "still": k == 0})
                if k:
                    part.label = mk.label
                split.append(part)
        marks = split
    return _plot(marks + items, _seq_names(v, o), ax, dims, words)


def attention(words, scores, p, v, o, *, axes=None, focus=1, slides=False, **_):
    """Attention with numbers: the (scaled, masked) scores, the distribution P with its
    row sums, and each o_i inside the hull of the v_j."""
    ax, dims = _axes(v, axes, words)
    masked = _mask_of(scores)
    any_mask = any(any(r) for r in masked)
    m, n = len(p.rows), len(p.rows[0])
    cols = [Label(rf"{j}", str(j)) for j in range(1, n + 1)]
    match = scores.node
    while match.reading in ("scale", "mask"):
        match = match.inputs[0]
    queries, keys = match.inputs if match.reading == "match" else (None, None)
    s_rows = [_node_row(queries, i) if queries is not None else row_label(p, i)
              for i in range(1, m + 1)]
    s_cols = [_node_row(keys, j) for j in range(1, n + 1)] if keys is not None else cols
    v_cols = [row_label(v, j) for j in range(1, n + 1)]
    s_grid = _grid(scores, name_label(scores), s_rows, s_cols, first=1, masked=masked,
                   masked_as=-math.inf)
    p_grid = _grid(p, name_label(p), _query_labels(p, m), v_cols, first=2, masked=masked,
                   sums=True, signed=False)
    p_grid.first = 2
    # on a slide the heat map of P beside it gives the weights, row by row
    panel = _hull_panel(words, p, v, o, ax, dims, first_step=3, focus=focus,
                        masked=masked if any_mask else None, weights=not slides)
    for i in range(1, m + 1):
        p_grid.items.append(Path(points=_row_box(i, n, m), closed=True, color="#000000",
                                 width=1.6, role="highlight", first=i + 2, last=i + 2,
                                 still=False))
    return Draft("attention", [s_grid, p_grid, panel], m + 2,
                 columns=None if slides else [[0, 1], [2]])


def _node_row(node, i: int) -> Label:
    if node.seq is not None:
        return Label(node.seq.row_latex(str(i)), node.seq.row_text(str(i)))
    from ..render.latex import latex
    from ..render.text import _inline
    return Label(latex(node.row(i)), _inline(node.row(i)))


def _query_labels(p, m) -> list:
    return [row_label(p, i) for i in range(1, m + 1)]


def distribution(words, scores, p, **_):
    """The softmax: the scores, and each row of P, positive and summing to 1."""
    masked = _mask_of(scores)
    m, n = len(p.rows), len(p.rows[0])
    cols = [Label(str(j), str(j)) for j in range(1, n + 1)]
    s_grid = _grid(scores, name_label(scores), [row_label(scores, i) if scores.seq is not None
                                                 else row_label(p, i) for i in range(1, m + 1)],
                   cols, first=1, masked=masked, masked_as=-math.inf)
    p_grid = _grid(p, name_label(p), [row_label(p, i) for i in range(1, m + 1)], cols, first=2,
                   masked=masked, sums=True, signed=False)
    p_grid.first = 2
    return Draft("distribution", [s_grid, p_grid], 2)


def scale(words, raw, scaled, p, *, root, focus=1, **_):
    """Row ``focus`` of P as bars, with the scale (the derivation's own P) and without it
    (the softmax of the raw scores, by the same row-wise softmax)."""
    import sympy
    from ..derive.readings.rowwise import row_softmax
    i = min(max(1, focus), len(p.rows))
    counts = None
    finite = [j for j, v in enumerate(scaled.rows[i - 1]) if math.isfinite(v)]
    row_raw = sympy.Matrix([[raw.exact[i - 1, j] for j in finite]])
    without = [float(sympy.N(x, 20)) for x in row_softmax(row_raw, counts)]
    with_ = [p.rows[i - 1][j] for j in finite]
    n = len(p.rows[0])
    items: list = []
    top = max(with_ + without + [0.01])
    series = [(with_, OKABE_ITO["blue"], "with"), (without, OKABE_ITO["orange"], "without")]
    bw = 0.36
    for k, (vals, color, role) in enumerate(series):
        for jj, val in zip(finite, vals):
            x0 = jj + 0.5 - bw + k * bw
            items.append(Path(points=((x0, 0.0), (x0 + bw, 0.0), (x0 + bw, val), (x0, val)),
                              closed=True, fill=color, color="#333333", width=0.4, role="bar",
                              first=k + 1))
            tex, text = fmt(val)
            items.append(Text(x=x0 + bw / 2, y=val, label=Label(tex, text, size=0.74),
                              role="value", first=k + 1))
    cols = [Label(str(j), str(j)) for j in range(1, n + 1)]
    legend = [(words.scale_with(root), OKABE_ITO["blue"], ""),
              (words.scale_without(), OKABE_ITO["orange"], "")]
    draft = PanelDraft("bars", items, row_label(p, i), cols=n, col_labels=cols,
                       legend=legend, ymax=top * 1.22)
    return Draft("scale", [draft], 2)


def hull_combine(words, p, v, o, *, axes=None, focus=1, masked=None, **_):
    """A combine whose weights are a distribution: each o_i in the hull of the v_j."""
    ax, dims = _axes(v, axes, words)
    m = len(p.rows)
    mask = [[w == 0 for w in row] for row in p.rows]
    panel = _hull_panel(words, p, v, o, ax, dims, first_step=2, focus=focus,
                        masked=mask if any(any(r) for r in mask) else None)
    return Draft("hull", [panel], m + 1)


def graph(words, adj, x, h, *, axes=None, **_):
    """A graph convolution's mixing, H = ÂX: the points x_j, the graph's edges between
    them, and each h_i with an arrow from x_i."""
    ax, dims = _axes(x, axes, words)
    xpts = project(x.rows, ax)
    items: list = []
    n = len(adj.rows)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(adj.rows[i][j]) > 1e-12 or abs(adj.rows[j][i]) > 1e-12:
                (x0, y0), (x1, y1) = xpts[i], xpts[j]
                items.append(Path(points=((x0, y0), (x1, y1)), color="#9a9a9a", width=1.4,
                                  role="edge", term=(i + 1, j + 1)))
    items += _marks(x, xpts, shape="circle", color="green")
    hpts = project(h.rows, ax)
    for i, (hx, hy) in enumerate(hpts, start=1):
        color = SERIES[(i - 1) % len(SERIES)]
        x0, y0 = xpts[i - 1]
        items.append(Arrow(x0=x0, y0=y0, x1=hx, y1=hy, color=OKABE_ITO[color], width=1.0,
                           term=(h.name, i, i), first=i + 1, shorten=4.2))
        items.append(Mark(x=hx, y=hy, seq=h.name or "", index=i, shape="square", color=color,
                          label=row_label(h, i), first=i + 1, value=tuple(h.rows[i - 1])))
    return Draft("graph", [_plot(items, _seq_names(x, h), ax, dims, words)], n + 1)


def shift(words, before, after, *, axes=None, how="apply", extra=None, **_):
    """Before and after: hollow markers for the points before, filled for after, an
    arrow from each to its image; a guide where the reading has one (the quadrant of
    ReLU, the unit box of σ, the box [−1, 1]² of tanh, the line x₁ + x₂ = 0 of
    LayerNorm in the plane, the bias vector from the origin)."""
    ax, dims = _axes(before, axes, words)
    bpts, apts = project(before.rows, ax), project(after.rows, ax)
    items: list = []
    big = 1e3 * max([1.0] + [abs(v) for p in bpts + apts for v in p])
    if how == "relu":
        items.append(Path(points=((0, 0), (big, 0), (big, big), (0, big)), closed=True,
                          fill=OKABE_ITO["sky"], opacity=0.2, width=0, role="region"))
    elif how == "sigma":
        items.append(Path(points=((0, 0), (1, 0), (1, 1), (0, 1)), closed=True,
                          color=OKABE_ITO["sky"], width=0.9, dash="dashed", role="guide"))
    elif how == "tanh":
        items.append(Path(points=((-1, -1), (1, -1), (1, 1), (-1, 1)), closed=True,
                          color=OKABE_ITO["sky"], width=0.9, dash="dashed", role="guide"))
    elif how == "layernorm" and dims == 2:
        items.append(Path(points=((-big, big), (big, -big)), color=OKABE_ITO["sky"],
                          width=0.8, dash="dashed", role="ray"))
    elif how == "rowscale":
        for (x, y) in bpts:
            norm = math.hypot(x, y) or 1.0
            items.append(Path(points=((0, 0), (big * x / norm, big * y / norm)),
                              color="#c8c8c8", width=0.5, dash="dashed", role="ray"))
    elif how == "bias" and extra is not None:
        (bx, by), = project([extra.rows[0]], ax)
        items.append(Arrow(x0=0, y0=0, x1=bx, y1=by, color="#555555", width=0.9, dash="dashed",
                           label=row_label(extra, 1) if extra.seq is None or
                           extra.seq.vector_kind else Label(extra.seq.latex_name,
                                                            extra.seq.text_name),
                           term=(extra.name, 0, 1)))
    items += _marks(before, bpts, shape="circle", color="green", filled=False,
                    per_index=True)
    after_marks = _marks(after, apts, shape="circle", color="green", per_index=True, first=2)
    for k, (mk, (x0, y0)) in enumerate(zip(after_marks, bpts), start=1):
        if math.hypot(mk.x - x0, mk.y - y0) > 1e-9:
            items.append(Arrow(x0=x0, y0=y0, x1=mk.x, y1=mk.y,
                               color=OKABE_ITO[SERIES[(k - 1) % len(SERIES)]], width=0.9,
                               term=(after.name, k, k), first=2, shorten=4.2))
    items += after_marks
    return Draft("shift", [_plot(items, _seq_names(before, after), ax, dims, words)], 2)


BUILDERS = {"points": points, "map": point_map, "combine": combine, "match": match,
            "attention": attention, "distribution": distribution, "scale": scale,
            "hull": hull_combine, "graph": graph, "shift": shift}
