"""Vector sequences: entry names, sizes, rows, and bad input."""

import pytest
import sympy

import symrow
from symrow import nodes as N
from symrow.render.latex import latex
from symrow.render.text import text


def test_entry_symbols_are_named_as_they_print():
    A = symrow.vecseq("A", 2, 3)
    assert A.matrix[1, 2] == sympy.Symbol("a_{23}")
    for sym in A.matrix:
        assert latex(sym) == sym.name


def test_comma_once_an_index_has_two_digits():
    A = symrow.vecseq("A", 12, 3)
    assert A.entry(10, 2).name == "a_{10,2}"
    assert A.entry(9, 3).name == "a_{93}"
    assert symrow.vecseq("B", 2, 11).entry(1, 11).name == "a_{1,11}".replace("a", "b")


def test_general_entries_keep_commands_apart():
    A = symrow.vecseq("A", "m", "ell")
    assert A.symbol(A.rows, A.cols).name == r"a_{m\ell}"
    assert A.symbol(A.cols, sympy.Symbol("k")).name == r"a_{\ell k}"


def test_rows_and_matrix():
    A = symrow.vecseq("A", 3, 2)
    assert A.shape == (3, 2) and A.concrete
    assert A.row(3) == sympy.Matrix([[sympy.Symbol("a_{31}"), sympy.Symbol("a_{32}")]])
    assert latex(A.vector(2)) == r"\boldsymbol{a}_{2}"
    assert [latex(v) for v in A.vectors()] == [r"\boldsymbol{a}_{%d}" % i for i in (1, 2, 3)]


def test_row_index_is_one_based_and_checked():
    A = symrow.vecseq("A", 2, 2)
    with pytest.raises(symrow.ShapeError, match="1-based"):
        A.row(0)
    with pytest.raises(symrow.ShapeError, match="from 1 to 2"):
        A.entry(3, 1)


def test_general_sizes_accept_strings_and_symbols_alike():
    A = symrow.vecseq("A", "m", "ell")
    B = symrow.vecseq("B", sympy.Symbol("ell"), "n")
    assert A.cols == B.rows
    assert not A.concrete
    assert latex(A.cols) == r"\ell"
    with pytest.raises(symrow.SizeError, match="concrete sizes"):
        A.matrix


def test_from_a_sympy_matrix_with_values():
    x = sympy.Symbol("x")
    X = symrow.vecseq("X", sympy.Matrix([[1, x + 1], [3, 4]]))
    assert X.shape == (2, 2)
    assert X.entry(1, 2) == x + 1
    assert X.row(2) == sympy.Matrix([[3, 4]])
    d = symrow.combine(X, symrow.vecseq("B", 2, 1))
    b11, b21 = sympy.symbols("b_{11} b_{21}")
    assert d.result[0, 0] == b11 + (x + 1) * b21


def test_subscripted_and_head_names_do_not_collide():
    WQ, WK, W = (symrow.vecseq(n, 2, 2) for n in ("W_Q", "W_K", "W"))
    names = {s.name for M in (WQ, WK, W) for s in M.matrix}
    assert len(names) == 12
    assert WQ.entry(1, 2).name == "w^{Q}_{12}"
    assert latex(WQ) == "W_{Q}"
    assert latex(WQ.vector(1)) == r"\boldsymbol{w}^{Q}_{1}"
    Q2 = symrow.vecseq("Q", 2, 2, head=2)
    assert Q2.name == "Q^(2)" and latex(Q2) == "Q^{(2)}"
    assert Q2.entry(1, 1).name == "q^{(2)}_{11}"
    assert symrow.vecseq("Q^(2)", 2, 2).entry(1, 1) == Q2.entry(1, 1)
    assert symrow.vecseq("W_Q", 1, 1, head=3).entry(1, 1).name == "w^{Q(3)}_{11}"


def test_text_forms_are_readable_unicode():
    A = symrow.vecseq("A", 2, 2)
    assert "a₁₂" in str(A)
    assert text(A.vector(1)) == "𝐚₁"
    assert "ᵀ" in text(N.Transpose(A))
    assert symrow.vecseq("W_Q", 1, 1).text_name == "W_Q"


def test_repr_latex_for_jupyter():
    A = symrow.vecseq("A", 2, 2)
    out = A._repr_latex_()
    assert out.startswith("$") and out.endswith("$") and "a_{22}" in out
    assert "a_{22}" in A._repr_markdown_()


@pytest.mark.parametrize("rows", [0, -1, 2.5, "2.5", True, None, "m n", [], "1x"])
def test_bad_sizes(rows):
    with pytest.raises(symrow.SymrowError) as info:
        symrow.vecseq("A", rows, 3)
    assert isinstance(info.value, (symrow.SizeError,))
    assert "A" in str(info.value)


def test_mixed_sizes_are_refused():
    with pytest.raises(symrow.SizeError, match="mixes a concrete and a general size"):
        symrow.vecseq("A", 2, "ell")


@pytest.mark.parametrize("name", ["A\\", "A{", "A}", "$A", "A%", "A&", "A#", "A~", "A_{Q}}",
                                  "\\hat{A"])
def test_names_unsafe_in_latex(name):
    with pytest.raises(symrow.UnsafeNameError, match="not safe in LaTeX"):
        symrow.vecseq(name, 2, 2)


@pytest.mark.parametrize("name", ["", "AB", "A_", "A__Q", "Ä", "A_waytoolongname1234", 3, "A^2",
                                  "A^T", "A^{-1}", "A'", "\\hat{AB}"])
def test_names_outside_the_naming_rule(name):
    with pytest.raises(symrow.UnsafeNameError):
        symrow.vecseq(name, 2, 2)


@pytest.mark.parametrize("name, canonical, latex, entry", [
    ("A_{Q}", "A_Q", "A_{Q}", "a^{Q}_{12}"),
    ("W_i^Q", "W_i^Q", "W_{i}^{Q}", "w^{Q,i}_{12}"),
    ("W^{Q}_{i}", "W_i^Q", "W_{i}^{Q}", "w^{Q,i}_{12}"),
    ("W^{(l)}", "W^(l)", "W^{(l)}", "w^{(l)}_{12}"),
    ("W^{[l]}", "W^[l]", "W^{[l]}", "w^{[l]}_{12}"),
    ("H^{(l+1)}", "H^(l+1)", "H^{(l+1)}", "h^{(l+1)}_{12}"),
    ("\\Sigma", "\\Sigma", "\\Sigma", "\\sigma_{12}"),
    ("\\mathbf{\\Phi}", "\\Phi", "\\mathbf{\\Phi}", "\\phi_{12}"),
    ("\\mathbf{H}_{t-1}", "H_{t-1}", "\\mathbf{H}_{t-1}", "h^{t-1}_{12}"),
    ("\\tilde{D}", "\\tilde{D}", "\\tilde{D}", "\\tilde{d}_{12}"),
    ("x", "x", "x", "x_{12}"),
])
def test_names_as_papers_print_them(name, canonical, latex, entry):
    seq = symrow.vecseq(name, 2, 2)
    assert (seq.name, seq.latex_name, str(seq.symbol(1, 2))) == (canonical, latex, entry)


def test_lowercase_vectors_take_one_index():
    b = symrow.vecseq("b", 1, 3)
    w = symrow.vecseq("\\mathbf{w}", 3, 1)
    assert [str(b.symbol(1, j)) for j in (1, 2, 3)] == ["b_{1}", "b_{2}", "b_{3}"]
    assert [str(w.symbol(i, 1)) for i in (1, 2)] == ["w_{1}", "w_{2}"]
    assert (b.vector_kind, w.vector_kind, symrow.vecseq("x", 2, 2).vector_kind) == \
        ("row", "column", None)


def test_size_limit_is_documented_and_overridable():
    with pytest.raises(symrow.LimitError, match="past the limit of 64") as info:
        symrow.vecseq("A", 65, 2)
    assert info.value.limit == "max_dim"
    assert symrow.vecseq("A", 65, 2, max_dim=65).rows == 65
    with symrow.limits(max_dim=100):
        assert symrow.vecseq("A", 100, 1).rows == 100
        with pytest.raises(symrow.LimitError, match="limit of 100"):
            symrow.vecseq("A", 101, 1)
    assert symrow.get_limits().max_dim == 64
    with pytest.raises(symrow.OptionError, match="unknown limit"):
        with symrow.limits(max_rows=3):
            pass


def test_operands_sharing_a_letter_are_refused():
    with pytest.raises(symrow.UnsafeNameError, match="share entry symbols"):
        symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2), name="A")



def test_subscripted_size_names():
    V = symrow.vecseq("V", "n", "d_v")
    assert latex(V.cols) == "d_{v}"
    assert V.symbol("j", "d_v").name == "v_{j,d_{v}}"
    assert latex(N.Space(V.rows, V.cols)) == r"\mathbb{R}^{n \times d_{v}}"
    with pytest.raises(symrow.SizeError):
        symrow.vecseq("V", "n", "d_")
