"""combine (AB) and match (AB^T): goldens, numeric truth, term order, bad input."""

import itertools
import re

import numpy as np
import pytest
import sympy

import harness
import symrow
from symrow.narrate import SOURCES, segments
from symrow.render.latex import latex

GENERAL = {
    "combine": lambda: symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n")),
    "match": lambda: symrow.match(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "n", "ell")),
}
CONCRETE = {
    "combine": lambda: symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)),
    "match": lambda: symrow.match(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 2, 3)),
}
CASES = [(kind, size, lang) for kind in ("combine", "match")
         for size in ("general", "concrete") for lang in ("en", "ja")]


def build(kind, size):
    return (GENERAL if size == "general" else CONCRETE)[kind]()


# -- golden files of whole derivations -------------------------------------------------

@pytest.mark.parametrize("kind,size,lang", CASES)
def test_golden_latex(kind, size, lang):
    harness.golden(f"{kind}_{size}_{lang}.tex", build(kind, size).to_latex(lang))


@pytest.mark.parametrize("kind,size", [("combine", "concrete"), ("match", "general")])
def test_golden_text(kind, size):
    harness.golden(f"{kind}_{size}_en.txt", build(kind, size).to_text("en"))


# -- numeric truth: .result against numpy, sizes 1..5 --------------------------------------

def _numbers(seq, rng):
    values = rng.integers(-9, 10, size=seq.shape)
    mapping = {seq.symbol(i + 1, j + 1): int(values[i, j])
               for i in range(seq.rows) for j in range(seq.cols)}
    return values, mapping


def _evaluate(matrix, mapping):
    return np.array(matrix.xreplace(mapping).tolist(), dtype=float)


@pytest.mark.parametrize("m,ell,n", list(itertools.product(range(1, 6), repeat=3)))
def test_results_equal_numpy(m, ell, n):
    rng = np.random.default_rng(m * 100 + ell * 10 + n)
    A, B = symrow.vecseq("A", m, ell), symrow.vecseq("B", ell, n)
    a, amap = _numbers(A, rng)
    b, bmap = _numbers(B, rng)
    got = _evaluate(symrow.combine(A, B).result, {**amap, **bmap})
    np.testing.assert_array_equal(got, a @ b)

    Bm = symrow.vecseq("B", n, ell)
    bm, bmmap = _numbers(Bm, rng)
    got = _evaluate(symrow.match(A, Bm).result, {**amap, **bmmap})
    np.testing.assert_array_equal(got, a @ bm.T)


@pytest.mark.parametrize("kind", ["combine", "match"])
@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 3, 2), (3, 2, 4), (4, 4, 4)])
def test_displayed_expansion_equals_result(kind, shape):
    m, ell, n = shape
    A = symrow.vecseq("A", m, ell)
    d = (symrow.combine(A, symrow.vecseq("B", ell, n)) if kind == "combine"
         else symrow.match(A, symrow.vecseq("B", n, ell)))
    step = next(s for s in d.steps if s.kind == f"entries_{kind}")
    shown = harness.node_value(step.display.items[-1])
    assert (shown - d.result).expand() == sympy.zeros(m, n)


def test_values_flow_through():
    A = symrow.vecseq("A", sympy.Matrix([[1, 2], [3, 4]]))
    B = symrow.vecseq("B", sympy.Matrix([[5, 6], [7, 8]]))
    assert symrow.combine(A, B).result == sympy.Matrix([[19, 22], [43, 50]])
    assert symrow.match(A, B).result == sympy.Matrix([[17, 23], [39, 53]])


def test_general_results_are_matrix_expressions():
    d = GENERAL["combine"]()
    assert isinstance(d.result, sympy.MatMul) and d.result.shape == (d.operands["A"].rows,
                                                                      d.operands["B"].cols)
    assert str(GENERAL["match"]().result) == "A*B.T"


# -- term order: the article's, never SymPy's -------------------------------------------------

def _positions(tex, pieces):
    return [tex.index(p) for p in pieces]


def test_combine_row_terms_in_index_order_a_before_b():
    d = symrow.combine(symrow.vecseq("Z", 2, 12), symrow.vecseq("A", 12, 1))
    row = latex(next(s for s in d.steps if s.kind == "extract_row_combine").display)
    terms = [r"z_{i%d} \boldsymbol{a}_{%d}" % (j, j) if j < 10
             else r"z_{i,%d} \boldsymbol{a}_{%d}" % (j, j) for j in range(1, 13)]
    pos = _positions(row, terms)
    assert pos == sorted(pos)
    # SymPy itself would put a before z and 10, 11 before 2
    assert str(sympy.Symbol("z") * sympy.Symbol("a")) == "a*z"


def test_concrete_entries_in_index_order():
    d = symrow.combine(symrow.vecseq("Z", 1, 11), symrow.vecseq("A", 11, 1))
    tex = d.to_latex()
    tex = tex[tex.index("c_{11} &="):]
    terms = [("z_{1%d} a_{%d1}" if j < 10 else "z_{1,%d} a_{%d,1}") % (j, j)
             for j in range(1, 12)]
    pos = _positions(tex, terms)
    assert pos == sorted(pos)


def test_match_inner_products_in_order():
    d = symrow.match(symrow.vecseq("B", 1, 3), symrow.vecseq("A", 2, 3))
    tex = d.to_latex()
    assert "b_{11} a_{11} + b_{12} a_{12} + b_{13} a_{13}" in tex
    assert (r"\boldsymbol{b}_{i} \cdot \boldsymbol{a}_{1} & \boldsymbol{b}_{i} \cdot "
            r"\boldsymbol{a}_{2}") in tex


def test_general_displays_follow_the_article():
    tex = GENERAL["combine"]().to_latex()
    # A entry by entry, with all three kinds of dots
    assert re.search(r"a_{m1} & a_{m2} & \\cdots & a_{m\\ell}", tex)
    assert r"\vdots & \vdots & \ddots & \vdots" in tex
    # the weighted sum, the sum sign and a_i B in one chain
    assert (r"\boldsymbol{c}_{i} &= a_{i1} \boldsymbol{b}_{1} + a_{i2} \boldsymbol{b}_{2} + "
            r"\cdots + a_{i\ell} \boldsymbol{b}_{\ell} = \sum_{j=1}^{\ell} a_{ij} "
            r"\boldsymbol{b}_{j} = \boldsymbol{a}_{i} B") in tex
    assert r"\boldsymbol{a}_{i} \longmapsto \boldsymbol{c}_{i}" in tex
    assert r"A \longrightarrow C" in tex
    match = GENERAL["match"]().to_latex()
    assert (r"B^{T} &= \begin{bmatrix}" "\n" r"\boldsymbol{b}_{1}^{T} & \boldsymbol{b}_{2}^{T} "
            r"& \cdots & \boldsymbol{b}_{n}^{T}") in match
    assert r"\boldsymbol{a}_{m} \cdot \boldsymbol{b}_{n}" in match


def test_article_display_order_for_combine():
    kinds = [s.kind for s in GENERAL["combine"]().steps]
    order = ["entries", "stack", "points", "row", "shapes", "products", "map", "point_map",
             "operands_combine", "components", "product_combine", "extract_row_combine",
             "weights", "combined_points", "summary_combine"]
    assert [k for k in kinds if k in order] == order


def test_article_display_order_for_match():
    kinds = [s.kind for s in GENERAL["match"]().steps]
    order = ["operands_match", "transpose_points", "product_match", "extract_row_match",
             "matched_points", "summary_match"]
    assert [k for k in kinds if k in order] == order


# -- narration -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind,size,lang", CASES)
def test_every_step_is_narrated(kind, size, lang):
    for step in build(kind, size).steps:
        parts = segments(step, lang)  # raises on a missing template or field
        assert any(k == "text" and v.strip() for k, v in parts)


def test_terms_of_the_article():
    en = GENERAL["combine"]().to_latex("en") + GENERAL["match"]().to_latex("en")
    for word in ("combine", "match", "vector sequence"):
        assert word in en
    ja = GENERAL["combine"]().to_latex("ja") + GENERAL["match"]().to_latex("ja")
    for word in ("結合", "照合", "ベクトル列"):
        assert word in ja


def test_template_keys_do_not_clash():
    for lang, modules in SOURCES.items():
        seen = {}
        for mod in modules:
            for key in mod.TEMPLATES:
                assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {mod.__name__}"
                seen[key] = mod.__name__


def test_no_forbidden_latex():
    for kind, size, lang in CASES:
        tex = build(kind, size).to_latex(lang)
        for bad in (r"\label", r"\eqref", r"\intertext", r"\DeclareMathOperator", r"\bm{"):
            assert bad not in tex


def test_unknown_language():
    with pytest.raises(symrow.OptionError, match="unknown language 'fr'"):
        CONCRETE["combine"]().to_latex("fr")


# -- bad input ---------------------------------------------------------------------------

def test_shape_mismatch_names_both_shapes():
    with pytest.raises(symrow.ShapeError) as info:
        symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 2, 2))
    assert "A is 2 x 3" in str(info.value) and "B is 2 x 2" in str(info.value)
    with pytest.raises(symrow.ShapeError, match="A is 2 x 3 and B is 3 x 2"):
        symrow.match(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
    with pytest.raises(symrow.ShapeError, match="all integers"):
        symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", "ell", "n"))
    with pytest.raises(symrow.ShapeError, match="A is m x ell and B is n x ell"):
        symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "n", "ell"))


def test_non_sequence_operands():
    with pytest.raises(symrow.SizeError, match="made with symrow.vecseq"):
        symrow.combine(sympy.Matrix([[1]]), symrow.vecseq("B", 1, 1))


def test_result_name_is_checked():
    with pytest.raises(symrow.UnsafeNameError):
        symrow.combine(symrow.vecseq("A", 1, 1), symrow.vecseq("B", 1, 1), name="C$")


def test_repr_and_displays():
    d = CONCRETE["combine"]()
    assert repr(d) == "<Derivation combine: A 2×3, B 3×2; 19 steps>"
    general = symrow.explain("XW")
    assert repr(general).startswith("<Derivation explain: X m×ℓ, W ℓ×n; ")
    assert "\\begin{aligned}" in d._repr_latex_()
    assert "$$" in d._repr_markdown_()
    assert "𝐜ᵢ" in str(d)
