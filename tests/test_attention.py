"""attention(): goldens, numeric truth against numpy, term order, the streamed
expansion against ordinary nodes, renderers, layout and bad input."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
import sympy

import harness
import symrow
from symrow import nodes as N
from symrow.narrate import SOURCES, segments
from symrow.render.latex import latex
from symrow.render.layout import _Layout, display_lines
from symrow.seq import size_symbol

D_SYMBOL = size_symbol("d")

#: golden cases: name -> (sizes, options)
GOLDEN = {
    "general": (("m", "n", "d"), {}),
    "concrete": ((2, 3, 2), {}),
    "causal": ((3, 3, 2), {"causal": True}),
    "causal_general": (("n", "n", "d"), {"causal": True}),
    "heads": ((2, 3, 2), {"projections": True, "heads": 2}),
}
GOLDEN_LANGS = {"general": ("en", "ja"), "concrete": ("en", "ja"), "causal": ("en", "ja"),
                "causal_general": ("en",), "heads": ("en",)}

#: option sets every renderer test goes through
RENDERED = [
    (("m", "n", "d"), {}),
    (("n", "n", "d"), {"causal": True}),
    (("m", "n", "d"), {"causal": True, "projections": True, "heads": 2}),
    (("m", "n", "d"), {"d_v": "e", "projections": True, "d_model": "D"}),
    ((2, 3, 2), {}),
    ((3, 3, 2), {"causal": True}),
    ((2, 3, 2), {"causal": True, "scale": "number"}),
    ((2, 3, 2), {"projections": True, "heads": 2}),
    ((2, 2, 1), {"d_v": 3, "heads": 2, "d_model": 2, "scale": "number"}),
    ((1, 1, 1), {}),
]


def build(sizes, options):
    return symrow.attention(*sizes, **options)


# -- golden files --------------------------------------------------------------------------

@pytest.mark.parametrize("name,lang", [(name, lang) for name in GOLDEN
                                       for lang in GOLDEN_LANGS[name]])
def test_golden_latex(name, lang):
    sizes, options = GOLDEN[name]
    harness.golden(f"attention_{name}_{lang}.tex", build(sizes, options).to_latex(lang))


def test_golden_text():
    harness.golden("attention_concrete_en.txt", build((2, 2, 2), {}).to_text("en"))


# -- numeric truth: .result against numpy ------------------------------------------------

def softmax_rows(x):
    x = x - x.max(axis=1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=1, keepdims=True)


def np_attention(Q, K, V, causal):
    m, n, d = Q.shape[0], K.shape[0], Q.shape[1]
    S = Q @ K.T / math.sqrt(d)
    if causal:  # query i (1-based) sees keys j <= i + (n - m)
        i, j = np.indices((m, n))
        S = np.where(j + 1 <= i + 1 + (n - m), S, -np.inf)
    return softmax_rows(S) @ V


def values(d, rng):
    """Random numbers for every operand's entries: {name: array}, {symbol: Float}."""
    arrays, mapping = {}, {}
    for name, seq in d.operands.items():
        a = rng.normal(size=seq.shape)
        arrays[name] = a
        for i in range(seq.rows):
            for j in range(seq.cols):
                mapping[seq.symbol(i + 1, j + 1)] = sympy.Float(a[i, j], 30)
    return arrays, mapping


def reference(d, arrays, heads, projections, cross, causal):
    sfx = (lambda h: "") if heads == 1 else (lambda h: f"^({h})")
    outs = []
    for h in range(1, heads + 1):
        if projections:
            X = arrays["X"]
            Y = arrays["Y"] if cross else X
            Q, K, V = (X @ arrays["W_Q" + sfx(h)], Y @ arrays["W_K" + sfx(h)],
                       Y @ arrays["W_V" + sfx(h)])
        else:
            Q, K, V = (arrays[name + sfx(h)] for name in "QKV")
        outs.append(np_attention(Q, K, V, causal))
    if heads == 1:
        return outs[0]
    W_O = np.vstack([arrays["W_O" + sfx(h)] for h in range(1, heads + 1)])
    return np.hstack(outs) @ W_O


def evaluate(matrix, mapping, d):
    return np.array(matrix.xreplace({**mapping, D_SYMBOL: d}).evalf(30).tolist(), dtype=float)


SHAPES = [(m, n, d, dv) for m, n, d, dv in itertools.product((1, 2, 3), (1, 2, 3), (1, 2, 3),
                                                             (None, 1, 2))
          if (m * 7 + n * 3 + d + (dv or 0)) % 3 == 0]
NUMERIC = (
    [((m, n, d), {"d_v": dv}) for m, n, d, dv in SHAPES]
    + [((m, n, d), {"causal": True, "d_v": dv}) for m, n, d, dv in SHAPES if m <= n]
    + [((2, 3, 2), {"scale": "number"}), ((3, 4, 2), {"causal": True, "scale": "number"}),
       ((2, 2, 2), {"projections": True}), ((2, 2, 3), {"projections": True, "d_model": 2}),
       ((2, 3, 2), {"projections": True}), ((2, 2, 2), {"projections": True, "cross": True}),
       ((3, 3, 2), {"projections": True, "causal": True, "d_v": 1}),
       ((2, 3, 2), {"heads": 2}), ((2, 2, 1), {"heads": 3, "d_v": 2, "d_model": 2}),
       ((2, 3, 2), {"heads": 2, "projections": True, "causal": True, "d_model": 3}),
       ((3, 3, 1), {"heads": 2, "projections": True, "causal": True, "d_v": 2})])


@pytest.mark.parametrize("sizes,options", NUMERIC,
                         ids=[f"{s}-{o}" for s, o in NUMERIC])
def test_result_equals_numpy(sizes, options):
    d = build(sizes, options)
    rng = np.random.default_rng(abs(hash((sizes, tuple(sorted(options.items()))))) % 2**32)
    arrays, mapping = values(d, rng)
    cross = options.get("cross", sizes[0] != sizes[1]) if options.get("projections") else False
    want = reference(d, arrays, options.get("heads", 1), options.get("projections", False),
                     cross, options.get("causal", False))
    got = evaluate(d.result, mapping, sizes[2])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert d.result.shape == want.shape


def test_quantities_hold_each_stage():
    d = build((2, 3, 2), {"causal": False})
    q = d.quantities
    assert sorted(q) == ["K", "O", "P", "Q", "S", "V"]
    Q, K, V = (d.operands[x].matrix for x in "QKV")
    assert q["S"] == Q * K.T  # raw inner products, before the scale
    assert q["S"][0, 1] == sum(Q[0, t] * K[1, t] for t in range(2))
    assert q["O"] == q["P"] * V and q["O"] == d.result
    assert q["P"][0, 0] == sympy.exp(q["S"][0, 0] / sympy.sqrt(D_SYMBOL)) / sum(
        sympy.exp(q["S"][0, k] / sympy.sqrt(D_SYMBOL)) for k in range(3))
    causal = build((2, 3, 2), {"causal": True}).quantities
    assert causal["M"] == sympy.Matrix([[0, 0, -sympy.oo], [0, 0, 0]])
    assert causal["P"][0, 2] == 0
    heads = build((2, 3, 2), {"heads": 2, "projections": True}).quantities
    assert {"X", "Y", "W_Q^(1)", "W_K^(2)", "S^(1)", "P^(2)", "O^(1)", "O^(2)", "C", "W_O",
            "W_O^(1)", "O"} <= set(heads)
    assert heads["O"] == heads["C"] * heads["W_O"]


def test_operands():
    assert sorted(build((2, 3, 2), {}).operands) == ["K", "Q", "V"]
    d = build((2, 3, 2), {"projections": True, "heads": 2})
    ops = d.operands  # what the formula starts from; Q, K, V are computed from them
    assert {"X", "Y", "W_Q^(1)", "W_V^(2)", "W_O^(1)", "W_O^(2)"} <= set(ops)
    assert "Q^(1)" not in ops and "Q^(1)" in d.quantities
    assert ops["Y"].shape == (3, 2)
    assert "Y" not in build((2, 2, 2), {"projections": True}).operands


def test_scale_number_substitutes_the_square_root():
    r = build((1, 2, 4), {"scale": "number"}).result
    assert D_SYMBOL not in r.free_symbols
    tex = build((1, 2, 4), {"scale": "number"}).to_latex()
    assert r"\sqrt{d}" in tex and r"\sqrt{d} = 2" in tex.replace("$", "")
    assert r"\dfrac{s_{11}}{2}" in tex
    assert r"\dfrac{s_{11}}{\sqrt{2}}" in build((1, 2, 2), {"scale": "number"}).to_latex()
    one = build((1, 2, 1), {"scale": "number"})  # sqrt(1) = 1: nothing to divide by
    assert r"\exp\left(s_{11}\right)" in one.to_latex()


def test_general_result_is_a_matrix_expression():
    assert str(build(("m", "n", "d"), {}).result) == "P*V"
    d = build(("m", "n", "d"), {"heads": 2})
    assert isinstance(d.result, sympy.MatAdd) and d.result.shape == (size_symbol("m"),
                                                                     size_symbol("d"))


# -- distributions: every row of P sums to 1 ---------------------------------------------

@pytest.mark.parametrize("sizes,options", [((2, 3, 2), {}), ((3, 3, 2), {"causal": True}),
                                           ((2, 4, 1), {"causal": True}),
                                           ((2, 2, 2), {"projections": True})])
def test_rows_of_P_sum_to_one_symbolically(sizes, options):
    d = build(sizes, options)
    P, S = d.quantities["P"], d.quantities["S"]
    for i in range(P.rows):
        assert sympy.simplify(sympy.together(sum(P.row(i)))) == 1
    if options.get("causal"):  # masked keys get weight exactly 0, the others are positive
        M = d.quantities["M"]
        for (i, j), p in np.ndenumerate(np.array(P.tolist(), dtype=object)):
            assert (p == 0) == (M[i, j] == -sympy.oo)
            assert p == 0 or p.has(sympy.exp(S[i, j] / sympy.sqrt(D_SYMBOL))) or p == 1


def _has(tex, *pieces, sep=r" &?= "):
    """Whether the pieces occur in a row, joined by '=' or '&=' (aligned or not)."""
    return re.search(sep.join(map(re.escape, pieces)), tex) is not None


def test_distribution_is_shown_row_by_row_for_causal():
    tex = build((3, 3, 2), {"causal": True}).to_latex()
    e11 = r"\exp\left(\dfrac{s_{11}}{\sqrt{d}}\right)"
    assert _has(tex, "p_{11}", r"\frac{%s}{%s}" % (e11, e11), "1")
    assert "p_{21} + p_{22} &=" in tex and "p_{31} + p_{32} + p_{33} &=" in tex


# -- the causal rule ------------------------------------------------------------------------

def test_causal_rule_aligns_queries_with_the_last_keys():
    for m, n in [(1, 1), (2, 2), (3, 3), (1, 3), (2, 3), (2, 5)]:
        M = build((m, n, 1), {"causal": True}).quantities["M"]
        for i in range(m):
            for j in range(n):
                assert (M[i, j] == 0) == (j + 1 <= i + 1 + n - m)
        assert all(M[m - 1, j] == 0 for j in range(n))  # the last query sees every key
    tex = build((2, 3, 2), {"causal": True}).to_latex()
    assert r"(j \leq i + 1)" in tex and "up to position $i + 1$" in tex
    square = build((3, 3, 2), {"causal": True}).to_latex()
    assert r"(j \leq i)" in square
    # row i combines only v_1 .. v_i
    assert _has(square, r"\boldsymbol{o}_{1}", r"p_{11} \boldsymbol{v}_{1},")
    assert _has(square, r"\boldsymbol{o}_{2}",
                r"p_{21} \boldsymbol{v}_{1} + p_{22} \boldsymbol{v}_{2},")


def test_causal_needs_a_key_for_every_query():
    with pytest.raises(symrow.ShapeError, match="would see no key"):
        symrow.attention(3, 2, 2, causal=True)
    symrow.attention(3, 2, 2)  # without the mask, fine


def test_causal_general_shows_the_mask_pattern():
    tex = build(("n", "n", "d"), {"causal": True}).to_latex()
    assert r"0 & -\infty & \cdots & -\infty" in tex
    assert r"\sum_{j=1}^{i} p_{ij} \boldsymbol{v}_{j}" in tex
    offset = build(("m", "n", "d"), {"causal": True}).to_latex()
    assert r"(j \leq i - m + n)" in offset and r"\sum_{j'=1}^{i - m + n}" in offset


# -- term order: index order, the left operand's factor first -------------------------------

def _positions(tex, pieces):
    return [tex.index(p) for p in pieces]


def test_expansion_terms_in_index_order_q_before_k():
    d = build((1, 11, 2), {})
    tex = d.to_latex(expand="all")
    entry = tex[tex.index("o_{11} &="):]
    entry = entry[:entry.index("o_{12} &=")]
    # the numerator's terms, one per key, in key order 1, 2, ..., 11 (SymPy would put 10
    # before 2)
    numerators = [r"\exp\left(\frac{q_{11} k_{%s} + q_{12} k_{%s}}{\sqrt{d}}\right) v_{%s}" % (
        (f"{j}1", f"{j}2", f"{j}1") if j < 10 else (f"{j},1", f"{j},2", f"{j},1"))
        for j in range(1, 12)]
    pos = _positions(entry, numerators)
    assert pos == sorted(pos)
    weights = [f"v_{{{j}1}}" if j < 10 else f"v_{{{j},1}}" for j in range(1, 12)]
    assert _positions(entry, weights) == sorted(_positions(entry, weights))
    # SymPy's own order differs: it sorts k before q
    assert str(sympy.Symbol("q") * sympy.Symbol("k")) == "k*q"


def test_scores_and_combine_in_index_order():
    tex = build((2, 3, 3), {}).to_latex()
    assert "q_{11} k_{21} + q_{12} k_{22} + q_{13} k_{23}" in tex
    assert (r"p_{11} \boldsymbol{v}_{1} + p_{12} \boldsymbol{v}_{2} + p_{13} "
            r"\boldsymbol{v}_{3}") in tex
    proj = build((2, 2, 2), {"projections": True, "d_model": 3}).to_latex()
    assert "x_{11} w^{Q}_{11} + x_{12} w^{Q}_{21} + x_{13} w^{Q}_{31}" in proj


# -- the streamed expansion equals ordinary nodes --------------------------------------------

def expansion_nodes(d):
    nodes = [s.display for s in d.steps if s.kind in ("expand_rows", "expand_entries")]
    assert len(nodes) == 2  # the kinds are right: a filter that finds nothing proves nothing
    return nodes


@pytest.mark.parametrize("sizes,options", [
    ((2, 3, 2), {}), ((3, 3, 2), {"causal": True}), ((2, 4, 3), {"causal": True, "d_v": 1}),
    ((1, 1, 1), {}), ((2, 2, 4), {"scale": "number"}), ((2, 3, 1), {"scale": "number"}),
    ((3, 12, 2), {}), ((2, 2, 2), {"projections": True, "heads": 2})])
@pytest.mark.parametrize("exp_style", ["exp", "e"])
def test_streamed_expansion_equals_ordinary_nodes(sizes, options, exp_style):
    for node in expansion_nodes(build(sizes, options)):
        assert isinstance(node, N.SoftmaxExpansion)
        for width in (40.0, 25.0, 18.0, 200.0):
            fast = " \\\\\n".join(display_lines(node, width, exp_style=exp_style))
            # the chains laid out one after another, as one display (whose tall
            # lines get their struts)
            layout = _Layout(width, {"exp_style": exp_style})
            slow = " \\\\\n".join(layout.with_struts(
                [line for chain in node.chains() for line in layout.lines(chain)]))
            assert fast == slow
        assert latex(node, exp_style=exp_style) == latex(N.Group(node.chains()),
                                                         exp_style=exp_style)


@pytest.mark.parametrize("sizes,options", [((2, 3, 2), {}), ((3, 3, 2), {"causal": True}),
                                           ((2, 3, 2), {"causal": True, "d_v": 3,
                                                        "scale": "number"})])
def test_displayed_expansion_equals_result(sizes, options):
    d = build(sizes, options)
    entries = expansion_nodes(d)[1]
    O = d.operands["V"]  # for the shape of the values
    rng = np.random.default_rng(7)
    _, mapping = values(d, rng)
    shown = {chain.items[0]: harness.node_value(chain.items[1]) for chain in entries.chains()}
    assert len(shown) == d.result.rows * d.result.cols
    for (i, l), want in np.ndenumerate(evaluate(d.result, mapping, sizes[2])):
        name = sympy.Symbol("o_{%d%d}" % (i + 1, l + 1))
        got = float(shown[name].xreplace({**mapping, D_SYMBOL: sizes[2]}).evalf(30))
        assert got == pytest.approx(want, rel=1e-12)
    assert O.cols == d.result.cols


# -- general sizes: ellipses as in the article -------------------------------------------------

def test_general_displays_use_ellipses():
    tex = build(("m", "n", "d"), {}).to_latex()
    assert r"\vdots & \vdots & \ddots & \vdots" in tex
    assert (r"s_{ij} &= \boldsymbol{q}_{i} \cdot \boldsymbol{k}_{j} = q_{i1} k_{j1} + q_{i2} "
            r"k_{j2} + \cdots + q_{id} k_{jd} = \sum_{t=1}^{d} q_{it} k_{jt}") in tex
    assert (r"p_{ij} &= \frac{\exp\left(\dfrac{s_{ij}}{\sqrt{d}}\right)}{\sum_{j'=1}^{n} "
            r"\exp\left(\dfrac{s_{i,j'}}{\sqrt{d}}\right)}") in tex
    assert (r"\boldsymbol{o}_{i} &= p_{i1} \boldsymbol{v}_{1} + p_{i2} \boldsymbol{v}_{2} + "
            r"\cdots + p_{in} \boldsymbol{v}_{n} = \sum_{j=1}^{n} p_{ij} \boldsymbol{v}_{j} = "
            r"\boldsymbol{p}_{i} V") in tex
    assert r"\boldsymbol{q}_{i} \longmapsto \boldsymbol{s}_{i} \longmapsto" in tex


def test_steps_follow_match_distribution_combine():
    kinds = [s.kind for s in build((2, 3, 2), {"causal": True, "projections": True,
                                               "heads": 2}).steps]
    order = ["attn_formula_heads", "formula", "attn_inputs", "attn_projection_rows",
             "attn_head_one", "operands", "match_product", "match_entry", "scale", "mask",
             "mask_result", "softmax", "softmax_entry", "softmax_mask_zero",
             "softmax_distribution", "combine_product", "combine_row", "combine_causal",
             "expand_rows", "expand_entries", "summary",
             "attn_concat", "attn_output", "attn_output_row", "attn_output_entries"]
    assert [k for k in kinds if k in order] == order
    assert {s.params.get("style") for s in build((2, 2, 2), {}).steps} == {"attention"}


# -- multi-head names ------------------------------------------------------------------------

def test_head_names_do_not_collide_and_read_well():
    d = build((2, 2, 2), {"projections": True, "heads": 3})
    symbols = [seq.symbol(i + 1, j + 1) for seq in d.operands.values()
               for i in range(seq.rows) for j in range(seq.cols)]
    assert len(symbols) == len(set(symbols))
    tex = d.to_latex()
    for piece in ("q^{(2)}_{11}", "w^{Q(3)}_{12}", r"\boldsymbol{o}^{(1)}_{i}",
                  r"{K^{(1)}}^{T}", "W_{O}^{(2)}", "O^{(3)} W_{O}^{(3)}"):
        assert piece in tex, piece
    assert "}^{(1)}^{T}" not in tex  # no double superscript


# -- narration -------------------------------------------------------------------------------

@pytest.mark.parametrize("sizes,options", RENDERED)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_step_is_narrated(sizes, options, lang):
    for step in build(sizes, options).steps:
        parts = segments(step, lang)  # raises on a missing template or parameter
        assert any(k == "text" and v.strip() for k, v in parts)


def test_the_article_words():
    en = build((2, 3, 2), {}).to_latex("en") + build(("m", "n", "d"), {}).to_latex("en")
    for word in ("match", "combine", "distribution", "vector sequence"):
        assert word in en, word
    ja = build((2, 3, 2), {}).to_latex("ja") + build(("m", "n", "d"), {}).to_latex("ja")
    for word in ("照合", "配分", "結合", "ベクトル列"):
        assert word in ja, word


def test_attention_templates_are_its_own_words_or_its_own_steps():
    """The preset's module holds its style of the readings' templates and the steps only
    attention has; both languages have the same keys."""
    for mods in SOURCES.values():
        for mod in mods:
            if mod.__name__.endswith(("attention_en", "attention_ja")):
                for key in mod.TEMPLATES:
                    assert ".attention" in key or key.startswith(("attn_", "heading.attn_")), key
    en = next(m for m in SOURCES["en"] if m.__name__.endswith("attention_en"))
    ja = next(m for m in SOURCES["ja"] if m.__name__.endswith("attention_ja"))
    assert set(en.TEMPLATES) == set(ja.TEMPLATES)


def test_text_output():
    text = build((2, 2, 2), {"causal": True}).to_text("en")
    assert "softmax" in text and "𝐨₁ = " in text and "\\" not in text


# -- renderers: KaTeX and TeX ---------------------------------------------------------------

@pytest.mark.renderer
def test_every_formula_renders_in_katex():
    formulas = []
    for sizes, options in RENDERED:
        d = build(sizes, options)
        for lang in ("en", "ja"):
            formulas += harness.latex_math(d.to_latex(lang))
            formulas += harness.markdown_math(d.to_markdown(lang))
    harness.assert_renders(formulas)


@pytest.mark.renderer
@pytest.mark.parametrize("sizes,options", [((3, 3, 2), {}), ((3, 3, 2), {"causal": True}),
                                           ((2, 3, 2), {"projections": True, "heads": 2,
                                                        "causal": True}),
                                           (("m", "n", "d"), {"projections": True, "heads": 2,
                                                              "causal": True})])
def test_english_documents_fit_a4(sizes, options):
    pdf, log = harness.compile_tex(build(sizes, options).to_document("en"), "pdflatex")
    assert pdf.startswith(b"%PDF")
    assert harness.overfull_boxes(log) == []


@pytest.mark.renderer
@pytest.mark.slow
def test_japanese_document_compiles():
    d = build((2, 3, 2), {"projections": True, "heads": 2, "causal": True})
    pdf, log = harness.compile_tex(d.to_document("ja"), "lualatex")
    assert pdf.startswith(b"%PDF")
    assert harness.overfull_boxes(log) == []
    assert "Missing character" not in log


def test_full_expansion_writes_the_shared_denominator_once():
    d = build((3, 3, 2), {})
    first = r"\exp\left(\frac{q_{11} k_{11} + q_{12} k_{12}}{\sqrt{d}}\right)"
    tex = harness.strip_struts(d.to_latex())
    line = tex[tex.index("o_{11} &="):].split("\n")[0]
    # one fraction on one line: each exponential once above the bar, once below
    assert line.startswith(r"o_{11} &= \frac{" + first + " v_{11} + ")
    assert line.count(first) == 2 and line.count(r"\exp") == 6
    # on a phone, numerator and denominator go on rows, one term each
    narrow = harness.strip_struts(d.to_latex(width="phone"))
    line = narrow[narrow.index("o_{11} &="):].split("\n")[0]
    assert line.count(r"\textstyle {}+ ") == 4 and line.count(first) == 2


# -- bad input: clear errors before any work ------------------------------------------------

@pytest.mark.parametrize("sizes,error", [
    ((0, 2, 2), symrow.SizeError), ((2, -1, 2), symrow.SizeError), ((2, 2, 0), symrow.SizeError),
    ((2.5, 2, 2), symrow.SizeError), ((2, 2, True), symrow.SizeError),
    (("m", 2, 2), symrow.SizeError), ((2, 2, "d d"), symrow.SizeError),
    ((2, 2, None), symrow.SizeError), ((65, 2, 2), symrow.LimitError)])
def test_bad_sizes(sizes, error):
    with pytest.raises(error):
        symrow.attention(*sizes)


@pytest.mark.parametrize("options,message", [
    ({"d_v": 0}, "d_v"),
    ({"heads": 0}, "heads"), ({"heads": True}, "heads"), ({"heads": 2.0}, "heads"),
    ({"causal": "yes"}, "causal"), ({"projections": 1}, "projections"),
    ({"scale": "numeric"}, "scale"), ({"d_model": 3}, "d_model"),
    ({"cross": True}, "cross"), ({"mask": True}, "unknown option"),
    ({"d_v": "e"}, "mixes concrete and general")])
def test_bad_options(options, message):
    with pytest.raises(symrow.SymrowError, match=message):
        symrow.attention(2, 2, 2, **options)


def test_bad_option_combinations():
    with pytest.raises(symrow.OptionError, match="cross=True"):
        symrow.attention(2, 3, 2, projections=True, cross=False)
    with pytest.raises(symrow.OptionError, match="concrete d"):
        symrow.attention("m", "n", "d", scale="number")
    with pytest.raises(symrow.OptionError):
        symrow.attention("m", "n", "d", d_model="D")


def test_expansion_limit_is_checked_first_and_can_be_raised(monkeypatch):
    import symrow.derive.attention as module
    monkeypatch.setattr(module, "_Layout", None)  # any work past the checks would fail
    with pytest.raises(symrow.LimitError, match="max_terms") as info:
        symrow.attention(20, 20, 20)
    assert info.value.limit == "max_terms"  # the command line turns it into --max-terms
    with pytest.raises(symrow.LimitError, match="limit of 100"):
        symrow.attention(3, 3, 3, max_terms=100)
    with symrow.limits(max_terms=100):
        with pytest.raises(symrow.LimitError):
            symrow.attention(3, 3, 3)
    with pytest.raises(symrow.LimitError):
        symrow.attention(18, 18, 18)  # 2,000,376 products: just past the default
    monkeypatch.undo()
    assert symrow.attention(3, 3, 3, max_terms=10_000).result.shape == (3, 3)
    with symrow.limits(max_terms=3_000_000):
        assert symrow.attention(18, 18, 18).concrete


def test_errors_are_raised_before_any_work(monkeypatch):
    import symrow.derive.attention as module
    monkeypatch.setattr(module, "plan", None)
    for bad in ({"heads": 0}, {"scale": "x"}, {"cross": True}, {"causal": True}):
        with pytest.raises(symrow.SymrowError):
            symrow.attention(3, 2, 2, **bad)
