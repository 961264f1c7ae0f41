"""Pictures of the point clouds (issue 26): the geometry is checked against the numbers.

Every check recomputes the numbers with numpy from the operands alone (the
user's values, or the example numbers the figure reports in ``case.given``),
never from symrow's values, and compares them with

* the scene the printers draw from: each drawn c_i is its weighted sum, the
  arrows of c_i go head to tail from the origin, each a_ij b_j; each o_i lies in
  the convex hull of the v_j (of the v_j its query sees, under a causal mask);
  each heat-map cell is its score, each row of P sums to 1;
* what the SVG and the TikZ really carry: the markers' coordinates read back
  from the files, through the data range each panel states;
* the labels: inside their panel, clear of every marker and of each other
  (what is seen together), for every kind of picture and every target.

What a real renderer makes of them is in tests/test_figures_render.py.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import harness
import symrow
from symrow.figures import figures
from symrow.figures.layout import mark_box, mark_radius, note_box, title_box
from symrow.figures.make import case_of
from symrow.figures.scene import Arrow, Cell, Mark, Path, coexist

TOL = 1e-9


def _m(rows) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in rows], dtype=float)


def operand(d, name: str) -> np.ndarray:
    """An operand's numbers as the figure was given them (values, or its example)."""
    case = case_of(d)
    if name in case.given:
        return _m(case.given[name].tolist())
    return _m(d.operands[name].matrix.tolist())


def softmax_rows(x: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    x = x.copy()
    if mask is not None:
        x[mask] = -np.inf
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def marks(scene, seq: str, panel=None) -> dict:
    """index -> (x, y) of the still markers of ``seq`` in a scene (or in one panel)."""
    out = {}
    for p in ([panel] if panel is not None else scene.panels):
        for item in p.items:
            if isinstance(item, Mark) and item.seq == seq and item.still and not item.grey:
                out.setdefault(item.index, (item.x, item.y))
    return out


def cells(panel) -> dict:
    return {(c.row, c.col): c for c in panel.items if isinstance(c, Cell) and c.role == "cell"}


def inside_convex(point, polygon) -> bool:
    """Whether ``point`` is in the convex polygon (any orientation), by the signs of
    the cross products along its edges: written here, apart from the figure's hull."""
    signs = set()
    n = len(polygon)
    for k in range(n):
        (x0, y0), (x1, y1) = polygon[k], polygon[(k + 1) % n]
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) <= 1


# -- combine -------------------------------------------------------------------------------------

COMBINE = {"A": [[1, 2], [3, 1], [-1, 2]], "B": [[1, 1], [2, -1]]}


@pytest.mark.parametrize("target", ["page", "web", "slide"])
@pytest.mark.parametrize("values", [COMBINE, None], ids=["given", "example"])
def test_each_drawn_c_i_is_its_weighted_sum_head_to_tail(values, target):
    d = (symrow.explain("AB", values=values) if values else
         symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)))
    A, B = operand(d, "A"), operand(d, "B")
    C = A @ B
    scene = symrow.figure(d).scene(target)
    drawn = marks(scene, "C")
    assert sorted(drawn) == [1, 2, 3]
    for i, (x, y) in drawn.items():
        assert np.allclose((x, y), C[i - 1], atol=TOL)
    arrows = [a for p in scene.panels for a in p.items
              if isinstance(a, Arrow) and a.term and a.term[0] == "C"]
    for i in range(1, 4):
        chain = sorted({(a.term, a.x0, a.y0, a.x1, a.y1) for a in arrows if a.term[1] == i})
        # the terms a_ij b_j, head to tail, from the origin to c_i
        at = np.zeros(2)
        for (_, _, j), x0, y0, x1, y1 in chain:
            assert np.allclose((x0, y0), at, atol=TOL)
            assert np.allclose((x1 - x0, y1 - y0), A[i - 1, j - 1] * B[j - 1], atol=TOL)
            at = np.array((x1, y1))
        assert np.allclose(at, C[i - 1], atol=TOL)
        # every non-zero weight has its arrow, labelled with the scaled point
        assert [t[2] for t, *_ in chain] == [j for j in (1, 2) if A[i - 1, j - 1] != 0]


def test_a_combine_over_the_points_takes_its_weights_from_the_columns():
    """W̄ = Xᵀ C̄ (the backward pass of XW): w̄_j = Σ_i x_ij c̄_i."""
    d = symrow.backward("XW", values={"X": [[1, 2], [3, 1], [0, 2]], "W": [[2, 0], [1, 1]]})
    fig = symrow.figure(d, r"\bar{W}")
    X = operand(d.forward, "X")
    Cbar = _m(case_of(d).given[r"\bar{C}"].tolist())
    Wbar = X.T @ Cbar
    drawn = marks(fig.scene("page"), r"\bar{W}")
    assert sorted(drawn) == [1, 2]
    for j, xy in drawn.items():
        assert np.allclose(xy, Wbar[j - 1], atol=TOL)
    assert np.allclose(_m(d.gradients["W"].subs(_subs(d)).tolist()), Wbar)


def _subs(d) -> dict:
    case = case_of(d)
    out = {}
    for name, matrix in case.given.items():
        seq = d.plan.operands.get(name) or d.forward.plan.operands.get(name)
        out.update(zip(seq.matrix, matrix))
    for name, seq in d.forward.operands.items():
        if seq.values is not None:
            out.update(zip(symrow.vecseq(name, seq.rows, seq.cols).matrix, seq.matrix))
    return out


# -- match -------------------------------------------------------------------------------------

def test_match_draws_the_points_the_projections_and_every_score():
    d = symrow.explain("AB^T", values={"A": [[1, 2], [3, 1], [0, 2]], "B": [[1, 1], [2, -1]]})
    A, B = operand(d, "A"), operand(d, "B")
    C = A @ B.T
    scene = symrow.figure(d).scene("page")
    plot, grid = scene.panels
    for seq, M in (("A", A), ("B", B)):
        drawn = marks(scene, seq)
        assert sorted(drawn) == list(range(1, len(M) + 1))
        assert all(np.allclose(drawn[i + 1], M[i]) for i in range(len(M)))
    got = cells(grid)
    assert sorted(got) == [(i, j) for i in range(1, 4) for j in range(1, 3)]
    for (i, j), cell in got.items():
        assert cell.value == pytest.approx(C[i - 1, j - 1])
        assert cell.label.text.replace("−", "-") == f"{C[i - 1, j - 1]:g}"
    # the feet of a_1's projections: on the line of b_j, at a_1·b_j / |b_j|^2 b_j
    feet = [m for m in plot.items if isinstance(m, Mark) and m.seq == "foot" and m.still]
    assert len(feet) == 2
    for m in feet:
        b = B[m.index - 1]
        assert np.allclose((m.x, m.y), (A[0] @ b) / (b @ b) * b)
        assert abs(np.dot(b, np.array((m.x, m.y)) - A[0])) < 1e-9   # a_1 - foot ⟂ b_j


# -- attention --------------------------------------------------------------------------------

ATT = {"Q": [[1, 0], [0, 1], [-1, -1]], "K": [[1, 1], [-1, 1], [0, -1]],
       "V": [[3, 1], [1, 3], [-1, -1]]}


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("target", ["page", "slide"])
def test_attention_scores_distribution_and_each_o_i_inside_the_hull(causal, target):
    d = symrow.attention(3, 3, 2, causal=causal)
    Q, K, V = (operand(d, n) for n in "QKV")
    S = Q @ K.T / math.sqrt(2)
    mask = np.triu(np.ones((3, 3), dtype=bool), 1) if causal else None
    P = softmax_rows(S, mask)
    O = P @ V
    fig = symrow.figure(d)
    assert fig.kind == "attention" and fig.example
    assert case_of(d).given["Q"].tolist() == ATT["Q"]   # the example numbers, as stated
    scene = fig.scene(target)
    s_grid, p_grid, plot = scene.panels
    for (i, j), cell in cells(s_grid).items():
        if causal and mask[i - 1, j - 1]:
            assert cell.masked and cell.value == -math.inf
        else:
            assert not cell.masked and cell.value == pytest.approx(S[i - 1, j - 1])
    for (i, j), cell in cells(p_grid).items():
        assert cell.value == pytest.approx(P[i - 1, j - 1])
        assert cell.masked == bool(causal and mask[i - 1, j - 1])
    sums = [c for c in p_grid.items if isinstance(c, Cell) and c.role == "sum"]
    assert [c.value for c in sums] == pytest.approx([1.0, 1.0, 1.0])
    drawn = marks(scene, "O", plot)
    hull = next(p for p in plot.items if isinstance(p, Path) and p.role == "hull")
    for v in V:     # the drawn hull is the hull of V: every v_j is a corner or inside
        assert inside_convex(v, hull.points)
    assert {tuple(map(float, p)) for p in hull.points} <= {tuple(v) for v in V}
    for i, xy in drawn.items():
        assert np.allclose(xy, O[i - 1], atol=TOL)
        assert inside_convex(xy, hull.points)
        seen = V[~mask[i - 1]] if causal else V
        # inside the hull of the values it sees: a convex combination of them
        w = P[i - 1][~mask[i - 1]] if causal else P[i - 1]
        assert (w >= 0).all() and w.sum() == pytest.approx(1) and np.allclose(w @ seen, xy)
        if len(seen) >= 3:
            assert inside_convex(xy, [tuple(s) for s in seen])


def test_the_scale_picture_shows_the_row_with_and_without_the_scale():
    d = symrow.explain(r"\operatorname{softmax}(QK^T/\sqrt{d})V", values=ATT)
    fig = symrow.figure(d, "scale")
    Q, K = _m(ATT["Q"]), _m(ATT["K"])
    S = Q @ K.T
    bars = [p for p in fig.scene().panels[0].items if isinstance(p, Path) and p.role == "bar"]
    heights = [b.points[2][1] for b in bars]
    assert heights == pytest.approx(list(softmax_rows(S / math.sqrt(2))[0]) +
                                    list(softmax_rows(S)[0]))


# -- every kind: what is drawn is what the plan computes -----------------------------------------

KINDS = [
    ("bias", lambda: symrow.explain("XW + b", values={"X": [[1, 2], [3, 1], [0, 2]],
                                                       "W": [[1, 0], [0, 1]], "b": [[1, -1]]}),
     None, lambda v: v["X"] @ v["W"] + v["b"]),
    ("relu", lambda: symrow.explain(r"\operatorname{ReLU}(X)",
                                    values={"X": [[1, 2], [3, -1], [-1, -2]]}),
     None, lambda v: np.maximum(v["X"], 0)),
    ("layernorm", lambda: symrow.explain(r"\mathrm{LayerNorm}(X)",
                                         values={"X": [[1, 2], [3, 1], [0, 2]]}),
     None, lambda v: (v["X"] - v["X"].mean(1, keepdims=True)) / v["X"].std(1, keepdims=True)),
    ("sigma", lambda: symrow.explain(r"\sigma(X)", values={"X": [[1, 2], [3, -1], [-1, 0]]}),
     None, lambda v: 1 / (1 + np.exp(-v["X"]))),
    ("rowscale", lambda: symrow.explain("D X", {"D": (3, 3)}, diagonal=["D"],
                                        values={"X": [[1, 2], [3, 1], [-1, 1]]}),
     None, lambda v: v["D"] @ v["X"]),
    ("colscale", lambda: symrow.explain("X D", {"D": (2, 2)}, diagonal=["D"],
                                        values={"X": [[1, 2], [3, 1], [-1, 1]]}),
     None, lambda v: v["X"] @ v["D"]),
    ("graph", lambda: symrow.explain(r"\hat{A} X W", {r"\hat{A}": (4, 4), "X": (4, 2),
                                                     "W": (2, 2)}),
     "H", lambda v: v[r"\hat{A}"] @ v["X"]),
    ("backward match", lambda: symrow.backward("XW", values={"X": [[1, 2], [3, 1]],
                                                               "W": [[2, 0], [1, 1]]}),
     r"\bar{X}", lambda v: v[r"\bar{C}"] @ v["W"].T),
]


def _values(d) -> dict:
    case = case_of(d)
    out = {name: _m(m.tolist()) for name, m in case.given.items()}
    for source in (d, getattr(d, "forward", None)):
        for name, seq in (source.operands.items() if source is not None else ()):
            if name not in out and seq.values is not None:
                out[name] = _m(seq.matrix.tolist())
    return out


@pytest.mark.parametrize("kind, make, of, expected", KINDS, ids=[k[0] for k in KINDS])
def test_the_points_after_are_the_reading_of_the_points_before(kind, make, of, expected):
    d = make()
    fig = symrow.figure(d, of)
    want = expected(_values(d))
    name = fig.node.name
    if fig.kind == "match":   # a match is drawn as its heat map
        got = cells(fig.scene("page").panels[1])
        assert {k: c.value for k, c in got.items()} == pytest.approx(
            {(i + 1, j + 1): want[i, j] for i in range(want.shape[0])
             for j in range(want.shape[1])})
        return
    drawn = marks(fig.scene("page"), name)
    assert sorted(drawn) == list(range(1, len(want) + 1))
    for i, xy in drawn.items():
        assert np.allclose(xy, want[i - 1][:2], atol=1e-9), (i, xy, want[i - 1])


# -- the files carry the coordinates ---------------------------------------------------------

def _svg_points(svg: str) -> dict:
    """(seq, index) -> data coordinates of each marker of an SVG, read through the
    data range and the rectangle its panel states (SVG's y runs down)."""
    root = ET.fromstring(svg)
    height = float(root.get("viewBox").split()[3])
    out = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("data-limits") is None:
            continue
        x0, x1, y0, y1 = map(float, g.get("data-limits").split())
        ix, iy, iw, ih = map(float, g.get("data-inner").split())
        for el in g.iter():
            if el.get("data-seq") is None:
                continue
            if el.tag.endswith("circle"):
                px, py = float(el.get("cx")), float(el.get("cy"))
            else:
                pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
                px = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
                py = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
                if len(pts) == 3:   # a triangle's centre is its circumcentre, not its box's
                    px = sum(p[0] for p in pts) / 3
                    py = sum(p[1] for p in pts) / 3
            py = height - py
            out.setdefault((el.get("data-seq"), int(el.get("data-index"))),
                           (x0 + (px - ix) / iw * (x1 - x0), y0 + (py - iy) / ih * (y1 - y0)))
    return out


def _tikz_points(tikz: str) -> dict:
    """The same, from the TikZ: each ``% point SEQ I`` and the marker after it."""
    out = {}
    panel = None
    lines = tikz.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"% panel \d+: \w+; data (\S+) (\S+) (\S+) (\S+) fill (\S+) (\S+) (\S+) (\S+)",
                     line)
        if m:
            panel = [float(v) for v in m.groups()]
            continue
        m = re.match(r"% point (\S+) (\d+)", line)
        if not m:
            continue
        code = lines[k + 1]
        pts = [tuple(map(float, p)) for p in re.findall(r"\((-?[\d.]+),(-?[\d.]+)\)", code)]
        if "circle" in code:
            px, py = pts[0]
        elif len(pts) == 3:
            px, py = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
        else:
            px = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
            py = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
        x0, x1, y0, y1, ix, iy, iw, ih = panel
        out.setdefault((m.group(1), int(m.group(2))),
                       (x0 + (px - ix) / iw * (x1 - x0), y0 + (py - iy) / ih * (y1 - y0)))
    return out


def test_the_svg_and_the_tikz_carry_the_coordinates_of_the_numbers():
    d = symrow.explain(r"\operatorname{softmax}(QK^T/\sqrt{d})V", values=ATT)
    Q, K, V = (_m(ATT[n]) for n in "QKV")
    O = softmax_rows(Q @ K.T / math.sqrt(2)) @ V
    fig = symrow.figure(d)
    for points, tol in ((_svg_points(fig.to_svg()), 0.02), (_tikz_points(fig.to_tikz()), 0.02)):
        for j in range(3):
            assert np.allclose(points[("V", j + 1)], V[j], atol=tol)
        for i in range(3):
            assert np.allclose(points[("O", i + 1)], O[i], atol=tol)
    # and every cell of the heat maps carries its number
    root = ET.fromstring(fig.to_svg())
    values = sorted(float(r.get("data-value")) for r in root.iter("{http://www.w3.org/2000/svg}rect")
                    if r.get("data-role") == "cell")
    want = sorted(list((Q @ K.T / math.sqrt(2)).ravel()) +
                  list(softmax_rows(Q @ K.T / math.sqrt(2)).ravel()))
    assert values == pytest.approx(want)
    tikz_cells = sorted(float(v) for v in re.findall(r"% cell \d+ \d+ (\S+)", fig.to_tikz()))
    assert tikz_cells == pytest.approx(want + [1.0] * 3)   # with P's row sums


# -- labels: never on a point, never on each other ------------------------------------------------

def _all_figures():
    out = []
    for d in (symrow.attention(3, 3, 2), symrow.attention(3, 3, 2, causal=True),
              symrow.attention(2, 3, 2),
              symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)),
              symrow.match(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)),
              symrow.explain(r"\hat{A} X W", {r"\hat{A}": (4, 4), "X": (4, 2), "W": (2, 2)}),
              symrow.backward("XW", {"X": (3, 2), "W": (2, 2)}),
              *(make() for _k, make, _o, _e in KINDS)):
        out += [(d.kind, f) for f in figures(d)]
    from symrow.figures.place import _handout_pictures
    out += [("handout " + section, f) for section, figs in _handout_pictures().items()
            for f in figs]
    return out


def test_no_label_overlaps_a_point_another_label_or_its_panels_edge():
    r_checked = 0
    for kind, fig in _all_figures():
        targets = ("page", "web", "slide") if fig.kind != "attention" else ("page", "web")
        for target in targets:
            scene = fig.scene(target)
            assert scene.dropped == [], (kind, fig, target, scene.dropped)
            r = mark_radius(scene.font)
            for panel in scene.panels:
                placed = [(item, box) for item in panel.items
                          if (box := panel.placed.get(id(item))) is not None]
                for item, box in placed:
                    assert box.inside(harness_box(panel.rect)), (fig, target, item.label)
                    for other in panel.items:
                        if isinstance(other, Mark) and coexist(item, other, scene.slides):
                            assert not box.overlaps(mark_box(panel, other, r)), \
                                (fig, target, item.label.text, other.label)
                    for note in panel.notes:
                        assert not box.overlaps(note_box(scene, note)), (fig, item.label.text)
                    if panel.title is not None:
                        assert not box.overlaps(title_box(scene, panel)), (fig, item.label)
                for k, (a, abox) in enumerate(placed):
                    for b, bbox in placed[k + 1:]:
                        if coexist(_vis(a, scene), _vis(b, scene), scene.slides):
                            assert not abox.overlaps(bbox), (fig, target, a.label.text,
                                                             b.label.text)
                            r_checked += 1
    assert r_checked > 200


def harness_box(rect):
    from symrow.figures.scene import Box
    return Box(*rect)


def _vis(item, scene):
    from symrow.figures.layout import label_vis
    return label_vis(item)


def test_colours_are_okabe_ito_and_series_differ_by_shape_too():
    from symrow.figures.scene import OKABE_ITO
    fig = symrow.figure(symrow.match(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)))
    plot = fig.scene().panels[0]
    shapes = {m.seq: m.shape for m in plot.items if isinstance(m, Mark) and m.seq in "AB"}
    assert shapes["A"] != shapes["B"]      # a grey print tells a_i from b_j
    used = {m.color for p in fig.scene().panels for m in p.items if isinstance(m, Mark)}
    assert used <= set(OKABE_ITO) | {"#b0b0b0"}
    # a heat map's lightness falls with the size of the value: a grey print keeps the order
    from symrow.figures.kinds import _luminance, heat
    assert _luminance(heat(0.2, 1, False)[0]) > _luminance(heat(0.8, 1, False)[0])


# -- more than two coordinates: a stated choice ----------------------------------------------

def test_more_than_two_coordinates_need_a_choice_and_the_figure_names_it():
    d = symrow.explain("AB", values={"A": [[1, 2], [3, 1]], "B": [[1, 0, 1], [0, 1, 1]]})
    with pytest.raises(symrow.FigureError, match=r"3 coordinates .* --axes 1,2"):
        symrow.figure(d)
    fig = symrow.figure(d, axes=(1, 3))
    note = [n for n in fig.scene().panels[0].notes if n.role == "note"]
    assert note and note[0].label.text == "coordinates 1 and 3 of 3"
    C = _m([[1, 2], [3, 1]]) @ _m([[1, 0, 1], [0, 1, 1]])
    drawn = marks(fig.scene(), "C")
    assert np.allclose([drawn[1], drawn[2]], C[:, [0, 2]])
    with pytest.raises(symrow.FigureError, match="choose two different"):
        symrow.figure(d, axes=(2, 2))
    with pytest.raises(symrow.FigureError, match="concrete sizes"):
        symrow.figure(symrow.attention("m", "n", "d"))


# -- the command line ----------------------------------------------------------------------------

def test_symrow_figure_attention_writes_the_svg_and_the_tex(tmp_path):
    values = ["--values", "Q=1,0;0,1;-1,-1", "--values", "K=1,1;-1,1;0,-1",
              "--values", "V=3,1;1,3;-1,-1"]
    proc = harness.symrow_cli("figure", "attention", *values, "-o", str(tmp_path / "att.svg"))
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "att.svg").read_text()
    points = _svg_points(svg)
    V = _m(ATT["V"])
    assert np.allclose(points[("O", 1)], softmax_rows(_m(ATT["Q"]) @ _m(ATT["K"]).T
                                                      / math.sqrt(2))[0] @ V, atol=0.02)
    assert "example" not in proc.stderr
    proc = harness.symrow_cli("figure", "attention", "-o", str(tmp_path / "att.tex"))
    assert proc.returncode == 0, proc.stderr
    tex = (tmp_path / "att.tex").read_text()
    assert tex.startswith("\\documentclass") and "\\usepackage{tikz}" in tex
    assert 'drawn with example numbers: --values "Q=1,0;0,1;-1,-1"' in proc.stderr


@pytest.mark.parametrize("args, message", [
    (["figure", "AB", "--values", "A=1,2;3,4", "--values", "B=1,0,1;0,1,1"],
     "have 3 coordinates and a picture shows 2; choose them with --axes 1,2"),
    (["figure", "attention", "-o", "att.docx"], "a picture is written as .svg"),
    (["figure", "attention", "--of", "Z"], "no picture of Z"),
    (["combine", "--figures", "-f", "md"], "give -o PAGE.md"),
    (["combine", "--axes", "1,2"], "--axes chooses the coordinates"),
    (["figure", "combine", "--axes", "1"], "--axes takes two coordinates"),
])
def test_bad_figure_requests_are_one_line_errors(args, message):
    proc = harness.symrow_cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_markdown_pages_get_their_pictures_beside_them(tmp_path):
    page = tmp_path / "att.md"
    proc = harness.symrow_cli("attention", "--m", "3", "--n", "3", "--d", "2", "--figures",
                              "-o", str(page))
    assert proc.returncode == 0, proc.stderr
    text = page.read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links == [f"att-{k}.svg" for k in range(1, 5)]
    for name in links:
        assert (tmp_path / name).read_text().startswith("<svg")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_handout_has_a_picture_in_every_section(lang):
    from symrow.handout import handout
    h = handout()
    shown = h.to_text(lang, figures=True)
    tex = h.to_latex(lang, figures=True)
    sections = re.split(r"\\section\*\{", tex)[1:]
    assert len(sections) == 8
    assert all("\\begin{tikzpicture}" in s for s in sections)
    texts = re.split(r"\n(?=\d \S.*\n=+\n)", shown)[1:]
    assert len(texts) == 8 and all(any(ch in t for ch in "●■▲◆│") for t in texts)


def test_figures_in_a_document_and_a_deck_bring_tikz_and_the_overlays():
    d = symrow.attention(3, 3, 2)
    doc = d.to_document("en", figures=True)
    assert "\\usepackage{tikz}" in doc and doc.count("\\begin{tikzpicture}") == 4
    assert "\\usepackage{tikz}" not in d.to_document("en")
    deck = d.to_beamer("ja", figures=True)
    # the combine, point by point: o_1, o_2, o_3 each on an overlay of its own
    hull = deck.split("\\begin{tikzpicture}")[4]
    assert all(f"\\only<{k}" in hull for k in (2, 3, 4))
    from symrow.render.beamer import FigureFrame, plan
    from symrow.figures.place import with_figures
    frames = [f for f in plan(with_figures(d), "ja") if isinstance(f, FigureFrame)]
    assert [f.overlays for f in frames] == [4, 2, 2, 4]
    # every picture of the decks symrow makes has room for all its labels
    for made in (d, symrow.attention(3, 3, 2, causal=True), symrow.attention(2, 3, 2),
                 symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)),
                 symrow.backward("XW", {"X": (3, 2), "W": (2, 2)})):
        for lang in ("en", "ja"):
            for f in plan(with_figures(made), lang):
                if isinstance(f, FigureFrame):
                    assert f.dropped == 0, (made, lang, f.title)


def test_jupyter_shows_a_figure_and_a_derivation_with_its_figures():
    d = symrow.attention(2, 2, 2)
    fig = d.figure()
    assert fig._repr_svg_().startswith("<svg")
    shown = d.with_figures()._repr_markdown_()
    assert shown.count("](data:image/svg+xml;base64,") == 4


# -- a published worked example, as its page gives it ---------------------------------------

#: "Self-Attention From Scratch — A Complete Numerical Walkthrough" (the sentence "please
#: study man"), https://omkarchebale.vercel.app/blogs/self-attention-from-scratch-a-complete-
#: numerical-walkthrough: the embeddings please [1, 0], study [0, 2], man [1, 1], and
#: Wq = [[1, 0], [0, 1]], Wk = [[1, 1], [0, 1]], Wv = [[1, 0], [0, 1]], transcribed as printed
PUBLISHED = {"X": [[1, 0], [0, 2], [1, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 1], [0, 1]],
             "W_V": [[1, 0], [0, 1]]}


def test_a_published_walkthrough_is_drawn_from_its_own_numbers():
    d = symrow.explain(r"Q = X W_Q; K = X W_K; V = X W_V; "
                       r"O = \operatorname{softmax}(QK^T / \sqrt{d}) V", values=PUBLISHED)
    X, Wq, Wk, Wv = (_m(PUBLISHED[n]) for n in ("X", "W_Q", "W_K", "W_V"))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    assert K.tolist() == [[1, 1], [0, 2], [1, 2]]     # the page's key vectors
    S = Q @ K.T / math.sqrt(2)
    P = softmax_rows(S)
    O = P @ V
    fig = symrow.figure(d)
    assert fig.kind == "attention" and not fig.example
    s_grid, p_grid, plot = fig.scene("web").panels
    assert {k: c.value for k, c in cells(s_grid).items()} == pytest.approx(
        {(i + 1, j + 1): S[i, j] for i in range(3) for j in range(3)})
    assert {k: c.value for k, c in cells(p_grid).items()} == pytest.approx(
        {(i + 1, j + 1): P[i, j] for i in range(3) for j in range(3)})
    hull = next(p for p in plot.items if isinstance(p, Path) and p.role == "hull")
    for i, xy in marks(fig.scene("web"), "O", plot).items():
        assert np.allclose(xy, O[i - 1]) and inside_convex(xy, hull.points)
    # the projections are combines too: each k_i is x_i's weights on the rows of W_K
    kfig = symrow.figure(d, "K")
    assert kfig.kind == "combine"
    drawn = marks(kfig.scene("page"), "K")
    assert all(np.allclose(drawn[i + 1], K[i]) for i in range(3))
