"""symrow.explain: any product formula, read row by row.

A table of real formulas from lectures.  For each: the result agrees with an
independent numpy computation on random values, the products carry the
expected readings, and the output goes through KaTeX and TeX.  Then the
presets against explain, SymPy input, definitions, errors and a fuzz test
of the formula reader.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import harness
import symrow
from symrow.formula.read import read_formula


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _relu(x):
    return np.maximum(x, 0)


def _sigma(x):
    return 1 / (1 + np.exp(-x))


def _causal(m, n):
    return np.array([[0.0 if j <= i + n - m else -np.inf for j in range(n)] for i in range(m)])


#: (id, formula, shapes, options, numpy of the operands, expected readings)
TABLE = [
    ("linear", "XW", {"X": (3, 2), "W": (2, 4)}, {}, lambda o: o["X"] @ o["W"],
     ["combine"]),
    ("gcn", r"\hat{A} X W", {r"\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)}, {},
     lambda o: o[r"\hat{A}"] @ o["X"] @ o["W"], ["combine", "combine"]),
    ("gram", "XX^T", {"X": (3, 2)}, {}, lambda o: o["X"] @ o["X"].T, ["match"]),
    ("covariance", r"\frac{1}{n} X^\top X", {"X": (4, 2)}, {},
     lambda o: o["X"].T @ o["X"] / 4, ["combine"]),
    ("low-rank", "UV^T", {"U": (3, 2), "V": (4, 2)}, {}, lambda o: o["U"] @ o["V"].T,
     ["match"]),
    ("bilinear", "Q W K^T", {"Q": (2, 3), "W": (3, 3), "K": (4, 3)}, {},
     lambda o: o["Q"] @ o["W"] @ o["K"].T, ["combine", "match"]),
    ("scores", "X W_Q (X W_K)^T", {"X": (3, 2), "W_Q": (2, 2), "W_K": (2, 2)}, {},
     lambda o: o["X"] @ o["W_Q"] @ (o["X"] @ o["W_K"]).T, ["combine", "combine", "match"]),
    ("attention", r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V",
     {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}, {},
     lambda o: _softmax(o["Q"] @ o["K"].T / math.sqrt(2)) @ o["V"], ["match", "combine"]),
    ("self-attention", r"Q = X W_Q; K = X W_K; V = X W_V; "
                       r"O = \operatorname{softmax}\left(\frac{QK^T}{\sqrt{d}}\right) V",
     {"X": (3, 3), "W_Q": (3, 2), "W_K": (3, 2), "W_V": (3, 2)}, {},
     lambda o: _softmax((o["X"] @ o["W_Q"]) @ (o["X"] @ o["W_K"]).T / math.sqrt(2))
     @ (o["X"] @ o["W_V"]), ["combine", "combine", "combine", "match", "combine"]),
    ("causal", r"\operatorname{softmax}\left(\frac{QK^T}{\sqrt{d}} + M\right)V",
     {"Q": (3, 2), "K": (3, 2), "V": (3, 2)}, {"causal": True},
     lambda o: _softmax(o["Q"] @ o["K"].T / math.sqrt(2) + _causal(3, 3)) @ o["V"],
     ["match", "combine"]),
    ("linear-attention", r"\phi(Q)(\phi(K)^T V)", {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}, {},
     lambda o: np.exp(o["Q"]) @ (np.exp(o["K"]).T @ o["V"]), ["combine", "combine"]),
    ("mlp", r"\operatorname{ReLU}(X W_1) W_2", {"X": (2, 3), "W_1": (3, 3), "W_2": (3, 2)}, {},
     lambda o: _relu(o["X"] @ o["W_1"]) @ o["W_2"], ["combine", "combine"]),
    ("residual", r"X + \operatorname{softmax}\left(\frac{XX^\top}{\sqrt{d}}\right) X",
     {"X": (3, 2)}, {}, lambda o: o["X"] + _softmax(o["X"] @ o["X"].T / math.sqrt(2)) @ o["X"],
     ["match", "combine"]),
    ("tcombine", "A^T B", {"A": (3, 2), "B": (3, 2)}, {}, lambda o: o["A"].T @ o["B"],
     ["combine"]),
    ("transposed-result", "(AB)^T", {"A": (2, 3), "B": (3, 2)}, {},
     lambda o: (o["A"] @ o["B"]).T, ["combine"]),
    ("logistic", r"\sigma(XW)", {"X": (3, 2), "W": (2, 1)}, {},
     lambda o: _sigma(o["X"] @ o["W"]), ["combine"]),
    ("difference", r"\tanh(XW) - X", {"X": (2, 2), "W": (2, 2)}, {},
     lambda o: np.tanh(o["X"] @ o["W"]) - o["X"], ["combine"]),
    ("two-layer-gcn", r"\hat{A}\,\operatorname{ReLU}(\hat{A} X W_1) W_2",
     {r"\hat{A}": (3, 3), "X": (3, 2), "W_1": (2, 2), "W_2": (2, 1)}, {},
     lambda o: o[r"\hat{A}"] @ _relu(o[r"\hat{A}"] @ o["X"] @ o["W_1"]) @ o["W_2"],
     ["combine", "combine", "combine", "combine"]),
    ("scaled-sum", r"2AB - \frac{C}{3}", {"A": (2, 2), "B": (2, 2), "C": (2, 2)}, {},
     lambda o: 2 * o["A"] @ o["B"] - o["C"] / 3, ["combine"]),
    ("exp", r"\exp(XW)", {"X": (2, 2), "W": (2, 2)}, {}, lambda o: np.exp(o["X"] @ o["W"]),
     ["combine"]),
]
IDS = [row[0] for row in TABLE]


def build(key):
    _, formula, shapes, options, _, _ = TABLE[IDS.index(key)]
    return symrow.explain(formula, shapes, **options)


def numeric(d, rng):
    """Random values for every operand; the result evaluated at them; and the values."""
    arrays, mapping = {}, {}
    for name, seq in d.operands.items():
        if seq.values is not None:  # the causal mask comes with its values
            arrays[name] = np.array(seq.matrix.tolist(), dtype=float)
            continue
        a = rng.uniform(-1, 1, size=seq.shape)
        arrays[name] = a
        for i in range(seq.rows):
            for j in range(seq.cols):
                mapping[seq.symbol(i + 1, j + 1)] = sympy.Float(a[i, j], 30)
    for sym, value in d.plan.ties.items():
        mapping[sym] = sympy.Integer(value)
    result = d.result.xreplace(mapping).replace(sympy.Function("phi"), sympy.exp)
    got = np.array(result.evalf(30).tolist(), dtype=float)
    return got, arrays


@pytest.mark.parametrize("key", IDS)
def test_result_agrees_with_numpy(key):
    row = TABLE[IDS.index(key)]
    d = build(key)
    for seed in (1, 2):
        got, arrays = numeric(d, np.random.default_rng(seed))
        want = row[4](arrays)
        assert got.shape == want.shape
        assert np.allclose(got, want, rtol=1e-10, atol=1e-12), (got, want)


@pytest.mark.parametrize("key", IDS)
def test_products_have_the_expected_readings(key):
    d = build(key)
    assert [reading for reading, _, _ in d.products] == TABLE[IDS.index(key)][5]


def test_products_name_their_operands():
    assert build("gcn").products == [("combine", r"\hat{A}", "X"), ("combine", "H", "W")]
    assert build("scores").products == [("combine", "X", "W_Q"), ("combine", "X", "W_K"),
                                        ("match", "Q", "K")]
    assert symrow.explain("X W_Q (X W_K)^T").products[-1] == ("match", "Q", "K")


@pytest.mark.parametrize("key", IDS)
def test_every_step_is_narrated_in_both_languages(key):
    from symrow.narrate import segments
    for general in (False, True):
        d = symrow.explain(TABLE[IDS.index(key)][1], **TABLE[IDS.index(key)][3]) if general \
            else build(key)
        for lang in ("en", "ja"):
            for step in d.steps:
                assert any(k == "text" and v.strip() for k, v in segments(step, lang))
        assert d.to_text("ja") and d.to_markdown("en")


# -- the presets are explain's formulas ----------------------------------------------------------

def test_explain_gives_the_presets_results():
    A, B = symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)
    assert symrow.explain("AB", {"A": (2, 3), "B": (3, 2)}).result == \
        symrow.combine(A, B).result
    assert symrow.explain("AB^T", {"A": (2, 3), "B": (4, 3)}).result == \
        symrow.match(A, symrow.vecseq("B", 4, 3)).result
    att = r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V"
    assert symrow.explain(att, {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}).result == \
        symrow.attention(2, 3, 2).result
    # general sizes: the same matrix expressions, with the article's size names
    assert symrow.explain("AB").result == symrow.combine(
        symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n")).result
    assert symrow.explain("AB^T").result == symrow.match(
        symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "n", "ell")).result
    assert symrow.explain(att).result == symrow.attention("m", "n", "d").result
    causal = r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}} + M\right)V"
    assert symrow.explain(causal, {"Q": (2, 1), "K": (3, 1), "V": (3, 1)},
                          causal=True).result == symrow.attention(2, 3, 1, causal=True).result


def test_a_single_product_follows_the_article():
    kinds = [s.kind for s in symrow.explain("AB").steps]
    assert kinds == [s.kind for s in symrow.combine(symrow.vecseq("A", "m", "ell"),
                                                    symrow.vecseq("B", "ell", "n")).steps]


def test_sympy_input():
    X, W = sympy.MatrixSymbol("X", 3, 2), sympy.MatrixSymbol("W", 2, 2)
    d = symrow.explain(X * W)
    assert d.products == [("combine", "X", "W")] and d.result.shape == (3, 2)
    A, B = sympy.MatrixSymbol("A", 2, 3), sympy.MatrixSymbol("B", 4, 3)
    assert symrow.explain(A * B.T).result == symrow.explain("AB^T", {"A": (2, 3),
                                                                     "B": (4, 3)}).result
    Q, K, V = (sympy.MatrixSymbol(n, r, 2) for n, r in (("Q", 2), ("K", 3), ("V", 3)))
    d = symrow.explain(symrow.softmax(Q * K.T / sympy.sqrt(2)) * V)
    assert [r for r, _, _ in d.products] == ["match", "combine"]
    m, ell = sympy.symbols("m ell", integer=True, positive=True)
    general = symrow.explain(sympy.MatrixSymbol("A", m, ell) * sympy.MatrixSymbol("B", ell, m))
    assert not general.concrete
    relu = symrow.explain(symrow.apply("relu", X * W) * W)
    assert relu.products[1][1] == "ReLU(XW)"


def test_definitions_name_the_intermediates():
    d = symrow.explain(r"S = QK^T; P = \operatorname{softmax}(S/\sqrt{d}); O = PV",
                       {"Q": (2, 2), "K": (2, 2), "V": (2, 2)})
    assert {"S", "P", "O"} <= set(d.quantities)
    assert d.result == symrow.attention(2, 2, 2).result
    aligned = symrow.explain(r"\begin{align*} H &= \hat{A} X \\ Y &= H W \end{align*}")
    assert aligned.products == [("combine", r"\hat{A}", "X"), ("combine", "H", "W")]
    assert aligned.result_name == "Y"
    lines = symrow.explain("H = XW\nY = HV")
    assert lines.products == [("combine", "X", "W"), ("combine", "H", "V")]


def test_definitions_one_level_down():
    d = build("gcn")
    h11, c11 = sympy.Symbol("h_{11}"), d.quantities["C"][0, 0]
    assert d.definitions["C"][0, 0] == sympy.expand(
        sum(sympy.Symbol(f"h_{{1{k}}}") * sympy.Symbol(f"w_{{{k}1}}") for k in (1, 2)))
    assert h11 in d.definitions["C"][0, 0].free_symbols
    assert h11 not in c11.free_symbols  # the value is in the operands' entries


def test_general_sizes_are_named_and_instantiated():
    d = symrow.explain(r"\hat{A} X W")
    assert {str(s) for s in d.sizes} == {"n", "d", "f"}  # the graph convolution preset's
    concrete = d.instantiate({"n": 3, "d": 2, "f": 2})
    assert concrete.result.shape == (3, 2)
    assert concrete.result == build("gcn").result.subs({})  # the same entries
    with pytest.raises(symrow.OptionError, match="missing"):
        d.instantiate({"n": 3})


def test_transposed_operands_are_read_along_the_data_points():
    # (a standalone page names no article: the reader has none; test_pictures)
    tex = build("tcombine").to_latex()
    assert "rather than the points of $A$. Read it along the" in tex
    assert "article" not in tex
    assert r"\boldsymbol{a}_{i}^{T} \boldsymbol{b}_{i}" in tex
    ja = build("tcombine").to_latex("ja")
    assert "データ点に沿って読む" in ja and "記事" not in ja


def test_products_associate_to_the_left_unless_parenthesised():
    left = symrow.explain("ABC", {"A": (2, 2), "B": (2, 2), "C": (2, 2)})
    right = symrow.explain("A(BC)", {"A": (2, 2), "B": (2, 2), "C": (2, 2)})
    assert left.products == [("combine", "A", "B"), ("combine", "H", "C")]
    assert right.products == [("combine", "B", "C"), ("combine", "A", "H")]
    assert sympy.simplify(left.result - right.result) == sympy.zeros(2, 2)


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("formula,construct,column", [
    ("A^{-1} B", "inverse of A", 2), (r"A \otimes B", "Kronecker", 3),
    (r"\mathrm{tr}(X^\top X)", "trace", 1), (r"\operatorname{tr}(A)B", "trace", 1),
    (r"\det(A) B", "determinant", 1), (r"\operatorname{rank}(A)", "rank", 1),
    (r"\mathrm{vec}(X)", "vec", 1), (r"\|X\|", "norm", 1), (r"\lVert X \rVert", "norm", 1),
    (r"\mathrm{einsum}(X, W)", "Einstein", 1), (r"X W^{-1}", "inverse of W", 4),
    ("XW + 1", "adding a number", 6),
])
def test_refused_constructs_name_themselves_and_their_column(formula, construct, column):
    """Valid mathematics that symrow does not read: a NotSupportedError naming it, and never
    an element-wise function because its name came in \\operatorname."""
    with pytest.raises(symrow.NotSupportedError) as info:
        symrow.explain(formula)
    assert "not supported yet" in str(info.value) and construct in str(info.value)
    assert info.value.column == column


@pytest.mark.parametrize("formula,suggestion", [
    (r"\operatorname{softmx}(QK^T)V", "softmax"), (r"\mathrm{Softmaxx}(X)", "softmax"),
    (r"\operatorname{LayerNrom}(X)", "layernorm"), (r"\mathrm{tahn}(X)", "tanh"),
])
def test_a_misspelt_function_gets_did_you_mean(formula, suggestion):
    with pytest.raises(symrow.ParseError, match=f"did you mean {suggestion}\\?") as info:
        symrow.explain(formula)
    assert info.value.column == 1


def test_a_shape_clash_names_the_product_both_operands_and_shapes():
    with pytest.raises(symrow.ShapeError) as info:
        symrow.explain("X W_Q (X W_K)^T", {"X": (3, 2), "W_Q": (2, 2), "W_K": (3, 2)})
    message = str(info.value)
    assert "X" in message and "W_K" in message and "3 x 2" in message


def test_what_cannot_be_inferred_is_named():
    with pytest.raises(symrow.ShapeError, match="columns of W"):
        symrow.explain("XW", {"X": (2, 3)})


@pytest.mark.parametrize("formula,line,column", [("(AB", 1, 1), ("A +", 1, 3),
                                                 ("S = QK^T;\nP = softmax(S", 2, 12)])
def test_unreadable_latex_gives_line_and_column(formula, line, column):
    with pytest.raises(symrow.ParseError) as info:
        symrow.explain(formula)
    assert (info.value.line, info.value.column) == (line, column)


@pytest.mark.parametrize("formula,message,column", [
    ("B = B", "B is defined in terms of itself", 1),
    (r"\\ B = B", "B is defined in terms of itself", 4),
    (r"A = B \\ B = A", "B is used before it is defined", 10),
    ("O = P V; P = A B", "P is used before it is defined", 10),
])
def test_a_definition_that_refers_to_itself_is_refused(formula, message, column):
    with pytest.raises(symrow.ParseError, match=message) as info:
        symrow.explain(formula)
    assert info.value.column == column


def test_bad_options_and_shapes():
    with pytest.raises(symrow.OptionError, match="unknown option"):
        symrow.explain("AB", colour="red")
    with pytest.raises(symrow.OptionError, match="does not use"):
        symrow.explain("AB", {"Z": (2, 2)})
    with pytest.raises(symrow.SizeError, match="mix"):
        symrow.explain("AB", {"A": (2, 3), "B": ("ell", "n")})
    with pytest.raises(symrow.OptionError, match="causal"):
        symrow.explain("AB", causal=True)
    with pytest.raises(symrow.OptionError):
        symrow.explain(42)


# -- the formula reader under fuzzing ------------------------------------------------------------

_PIECES = ["A", "B", "X", "W_Q", r"\hat{A}", "^T", "^\\top", "'", "(", ")", "{", "}", "+", "-",
           "2", "n", r"\sqrt{d}", "/", r"\frac{", "}{", r"\operatorname{softmax}", r"\sigma",
           r"\left(", r"\right)", ";", "=", "S", r"\cdot", r"\odot", "^{-1}", "_", "^", "&",
           r"\\", " ", r"\exp", "M", r"\begin{bmatrix}", r"\end{bmatrix}", "$"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
@example([r"\left(", r"\\", r"\right)"])    # a row break in brackets is a list: it crashed
def test_reader_fuzz_only_raises_symrow_errors(pieces):
    text = "".join(pieces)
    try:
        formula = read_formula(text)
    except symrow.SymrowError:
        return
    for name, _ in formula.definitions:
        assert isinstance(name, str)
    try:
        symrow.explain(formula)
    except symrow.SymrowError:
        pass


# -- renderers --------------------------------------------------------------------------------

GOLDEN = [("gcn", "en", "tex"), ("linear-attention", "ja", "tex"), ("mlp", "en", "txt")]


@pytest.mark.parametrize("key,lang,ext", GOLDEN)
def test_golden(key, lang, ext):
    d = build(key) if key != "linear-attention" else symrow.explain(TABLE[IDS.index(key)][1])
    harness.golden(f"explain_{key}_{lang}.{ext}",
                   d.to_latex(lang) if ext == "tex" else d.to_text(lang))


@pytest.mark.renderer
@pytest.mark.parametrize("key", IDS)
def test_renders_in_katex(key):
    formulas = []
    for d in (build(key), symrow.explain(TABLE[IDS.index(key)][1], **TABLE[IDS.index(key)][3])):
        for lang in ("en", "ja"):
            formulas += harness.latex_math(d.to_latex(lang))
            formulas += harness.markdown_math(d.to_markdown(lang))
    harness.assert_renders(formulas)


@pytest.mark.renderer
@pytest.mark.parametrize("key,lang,engine", [
    ("gcn", "en", "pdflatex"), ("self-attention", "ja", "lualatex"), ("mlp", "ja", "lualatex"),
    ("linear-attention", "en", "pdflatex"), ("tcombine", "en", "pdflatex"),
    ("residual", "en", "pdflatex"), ("two-layer-gcn", "ja", "lualatex")])
def test_documents_compile_without_overfull_lines(key, lang, engine):
    for d in (build(key), symrow.explain(TABLE[IDS.index(key)][1], **TABLE[IDS.index(key)][3])):
        pdf, log = harness.compile_tex(d.to_document(lang), engine)
        assert pdf.startswith(b"%PDF")
        assert harness.overfull_boxes(log) == [], key


@pytest.mark.slow
def test_a_new_preset_needs_only_the_registry():
    """Registering a formula makes a subcommand, a derivation, a title and a check target,
    with no other change: the registry is the only list of presets."""
    import subprocess
    import sys
    code = r'''
import sys
from symrow.derive.presets import Preset, register
register(Preset(name="gram", help="derive a Gram matrix XX^T: every point matched with all",
                title={"en": "A Gram matrix", "ja": "グラム行列"}, formula="XX^T",
                general={"X": ("n", "d")}, example={"X": (3, 2)}))
from symrow.cli import main
sys.exit(main(sys.argv[1:]))
'''
    def cli(*args, stdin=None):
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, timeout=300, input=stdin)
    proc = cli("gram", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert "X X^{T}" in proc.stdout and "c_{32}" in proc.stdout
    assert "gram" in cli("--help").stdout
    assert cli("gram", "--general", "--format", "tex").stdout.count("A Gram matrix") == 1
    checked = cli("check", "-", "--against", "gram", stdin="c_{12} = x_{11} x_{21} + x_{12} x_{22}")
    assert checked.returncode == 0, checked.stdout + checked.stderr
