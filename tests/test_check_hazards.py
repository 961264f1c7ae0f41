"""latex2sympy2 1.9.1's hazards, each shown on the raw parser and then neutralized.

Every test first reproduces what the raw parser does (so that a new
latex2sympy2 that behaves differently is noticed), then shows that the
checker is not affected.  The raw calls deliberately leave the parser's
module state dirty; the checker must not care.  Like every checker test,
each runs with both parsers (see conftest.py); where latex2sympy2 is not
installed (Python >= 3.13), the tests of the raw parser skip.
"""

from __future__ import annotations

import sys
import warnings

import harness
import pytest
import sympy

import symrow
from check_cases.derivations import against, combine
from symrow.reader.entries import parse as l2s


@pytest.fixture()
def raw():
    """latex2sympy2 itself, with its module state saved and restored around the test."""
    harness.require_latex2sympy2()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import latex2sympy2
    saved = {k: getattr(latex2sympy2, k) for k in ("var", "variances", "VARIABLE_VALUES")}
    latex2sympy2.var, latex2sympy2.variances = {}, {}
    yield latex2sympy2
    for k, v in saved.items():
        setattr(latex2sympy2, k, v)


def verdicts(tex: str, key: str) -> list[str]:
    return [s.status for s in symrow.check(tex, against(key)).steps]


# -- trailing input ---------------------------------------------------------------------

def test_raw_parser_drops_unparsed_rest(raw):
    assert raw.latex2sympy("a + b )") == sympy.Symbol("a") + sympy.Symbol("b")


def test_wrapper_rejects_unparsed_rest_at_its_offset():
    with pytest.raises(l2s.TextError) as err:
        l2s.parse("a + b )")
    assert err.value.offset == 6


def test_check_reports_trailing_text_where_it_stopped():
    report = symrow.check(r"C = AB )", against("comb23"))
    step = report.steps[0]
    assert step.status == "unreadable" and report.exit_code == 2
    assert (step.error["line"], step.error["column"], step.error["near"]) == (1, 8, ")")


def test_entry_of_a_bracket_and_align_rows_are_read_in_full():
    assert verdicts(r"s_{12} = (QK^T)_{12} = \left[QK^{\top}\right]_{12}", "att222") == \
        ["holds", "holds"]
    assert verdicts("\\begin{align*} c_{11} &= a_{11}b_{11} + a_{12}b_{21} + a_{13}b_{31} "
                    "\\\\ c_{12} &= a_{11}b_{12} + a_{12}b_{22} + a_{13}b_{32} "
                    "\\end{align*}", "comb23") == ["holds", "holds"]


# -- '=' as assignment, module state -------------------------------------------------------

def test_raw_parser_keeps_assignments_in_module_state(raw):
    assert raw.latex2sympy("a = b") == sympy.Symbol("b")
    assert raw.latex2sympy("a = b = c") == sympy.Symbol("c")
    assert raw.latex2sympy("2 x = 4") == [sympy.Eq(sympy.Symbol("x"), 2)]
    raw.latex2sympy(r"C = \begin{bmatrix}1 & 2\\ 3 & 4\end{bmatrix}")
    assert isinstance(raw.latex2sympy("C"), sympy.MatrixSymbol)   # the state leaked


@pytest.mark.parsers("latex2sympy2", "builtin")   # what each parser does
def test_checker_splits_equals_itself_and_resets_state(raw, checker_parser):
    raw.latex2sympy(r"C = \begin{bmatrix}1 & 2\\ 3 & 4\end{bmatrix}")
    raw.latex2sympy(r"A = \begin{bmatrix}0 & 0\\ 0 & 0\end{bmatrix}")
    assert verdicts(r"C = AB = BA", "comb22") == ["holds", "wrong"]
    assert verdicts(r"2c_{11} = 2a_{11}b_{11} + 2a_{12}b_{21}", "comb22") == ["holds"]
    if checker_parser == "latex2sympy2":
        assert raw.var == {} and raw.variances == {} and raw.VARIABLE_VALUES == {}
    else:   # the built-in parser never touches latex2sympy2's state
        assert set(raw.var) == {"A", "C"}


def test_every_parse_leaves_the_module_state_empty(raw):
    for text in ("a b + c", r"\frac{a}{b}", r"e^{a}", r"\sum_{a=1}^{3} b"):
        l2s.parse(text)
        assert raw.var == {} and raw.variances == {}


# -- d \cdot x poisons every later parse ------------------------------------------------------

def test_raw_d_cdot_x_breaks_later_parses(raw):
    with pytest.raises(TypeError):
        raw.latex2sympy(r"d \cdot x")
    with pytest.raises(TypeError):
        raw.latex2sympy("x + 1")      # `var` was rebound to a Symbol


def test_checker_survives_d_cdot_x(raw):
    with pytest.raises(TypeError):
        raw.latex2sympy(r"d \cdot x")
    assert verdicts(r"d \cdot s_{11} = 2 s_{11}", "att222") == ["holds"]
    assert verdicts(r"C = AB", "comb23") == ["holds"]


# -- a bare d is a differential -----------------------------------------------------------------

def test_raw_bare_d_is_a_differential(raw):
    assert raw.latex2sympy("d x") == sympy.Symbol("dx")
    with pytest.raises(Exception):
        raw.latex2sympy(r"\left(x+d\right)")


@pytest.mark.parametrize("tex", [
    r"d s_{11} = 2 s_{11}",
    r"\left(s_{11} + d\right) = s_{11} + 2",
    r"\sqrt{d}\,\sqrt{d} = d",
    r"\begin{bmatrix} s_{11} & d \end{bmatrix} = \begin{bmatrix} s_{11} & 2 \end{bmatrix}",
    r"\frac{S}{\sqrt{d_k}} = \frac{1}{\sqrt{2}} S",
])
def test_bare_d_is_the_size_d(tex):
    assert verdicts(tex, "att222") == ["holds"]


# -- transposes -------------------------------------------------------------------------------

def test_raw_parser_drops_or_garbles_transposes(raw):
    A = sympy.Symbol("A")
    assert raw.latex2sympy("A^T") == A and raw.latex2sympy("A^{T}") == A
    assert raw.latex2sympy("A'") == A and raw.latex2sympy(r"A^{\top}") == A
    with pytest.raises(Exception):
        raw.latex2sympy(r"A^\top")
    assert raw.latex2sympy(r"A^{\intercal}").has(sympy.Integral)


@pytest.mark.parametrize("t", ["^T", "^{T}", r"^\top", r"^{\top}", r"^\mathsf{T}",
                               r"^{\mathsf{T}}", r"^\intercal", r"^{\intercal}", "'",
                               r"^{\mathrm{T}}"])
def test_every_transpose_spelling_is_kept(t):
    assert verdicts(f"C = AB{t}", "match22") == ["holds"]
    assert verdicts(f"C = AB{t}", "comb22") == ["wrong"]   # AB^T is not AB


# -- products do not commute ------------------------------------------------------------------

def test_raw_parser_commutes_matrix_names(raw):
    product = raw.latex2sympy("Q K^T")
    assert product.is_commutative
    assert sympy.expand(product - raw.latex2sympy("K Q")) == 0


def test_factors_stay_in_the_order_written():
    assert verdicts(r"S = QK^T", "att222") == ["holds"]
    assert verdicts(r"S = K^TQ", "att222") == ["wrong"]
    assert verdicts(r"S^T = KQ^T", "att222") == ["holds"]
    assert verdicts(r"C = AB", "comb22") == ["holds"]
    assert verdicts(r"C = BA", "comb22") == ["wrong"]


def test_grouping_is_kept_for_dot_products():
    # (a_1 . b_1) b_2 scales b_2; b_2 (a_1 . b_1) too; flattening would give (b_2 . a_1) b_1
    tex = (r"\left(\boldsymbol{a}_1 \cdot \boldsymbol{b}_1\right) \boldsymbol{b}_2 = "
           r"\boldsymbol{b}_2 \left(\boldsymbol{a}_1 \cdot \boldsymbol{b}_1\right) = "
           r"\boldsymbol{b}_2 \langle \boldsymbol{a}_1, \boldsymbol{b}_1 \rangle = "
           r"c_{11} \boldsymbol{b}_2")
    assert verdicts(tex, "match22") == ["holds", "holds", "holds"]


# -- e_1 is not Euler's number; E and I ---------------------------------------------------------

def test_raw_parser_reads_e_with_subscript_as_euler(raw):
    assert raw.latex2sympy("e_1") is sympy.E
    assert raw.latex2sympy("e_{ij}") is sympy.E
    assert raw.latex2sympy("I") is sympy.I


def test_e_with_a_subscript_is_a_name():
    report = symrow.check(r"s_{11} = e_1", against("att222"))
    step = report.steps[0]
    assert step.status == "unreadable" and "unknown name 'e_1'" in step.message
    assert step.error["column"] == 10


def test_e_power_and_bare_e():
    assert verdicts(r"e^{s_{11}} = \exp(s_{11}) = \exp\left(s_{11}\right)", "att222") == \
        ["holds", "holds"]
    assert verdicts(r"e^{1} = e", "att222") == ["holds"]


@pytest.mark.parametrize("name", ["E", "x", r"\pi"])
def test_other_letters_are_unknown(name):
    report = symrow.check(f"s_{{11}} = {name}", against("att222"))
    assert report.steps[0].status == "unreadable"


def test_capital_i_is_the_identity_never_the_imaginary_unit():
    """latex2sympy2 reads I as sqrt(-1); the checker reads it as the identity matrix."""
    assert verdicts(r"Q I = I Q = Q = I_2 Q", "att222") == ["holds"] * 3
    assert verdicts(r"Q = K = \mathbf{I}", "att222") == ["defines", "defines"]


# -- subscripts ----------------------------------------------------------------------------------

def test_raw_parser_mangles_subscripts(raw):
    assert raw.latex2sympy("x_{1}") == sympy.Symbol("x_1")
    assert raw.latex2sympy(r"a_{10\,2}") == sympy.Symbol("a_{102}")


def test_subscripts_are_read_as_indices():
    d = combine((10, 2), (2, 1))
    ok = symrow.check(r"c_{10,1} = a_{10\,1} b_{11} + a_{10,2}b_{2 1}", d)
    assert ok.verdict == "holds"
    ambiguous = symrow.check(r"c_{10,1} = a_{101} b_{11} + a_{10,2}b_{21}", d)
    assert "cannot tell where the row index ends" in ambiguous.steps[0].message
    assert verdicts(r"\boldsymbol{c}_{1} = c_1 = \mathbf{c}_{1}", "comb23") == ["holds", "holds"]
    unbraced = symrow.check(r"c_{11} = a_11 b_11", against("comb23"))
    assert unbraced.steps[0].status == "unreadable"   # a_11 is a_1 times 1 in LaTeX


# -- juxtaposition read as a function call ----------------------------------------------------------

def test_raw_parser_reads_a_name_before_brackets_as_a_call(raw):
    assert isinstance(raw.latex2sympy("q_1 (k_1)"), sympy.core.function.AppliedUndef)


def test_a_name_before_brackets_is_a_product():
    assert verdicts(r"c_{11} = a_{11} (b_{11}) + a_{12}(b_{21}) + a_{13} (b_{31})", "comb23") \
        == ["holds"]


# -- spacing, sizes, softmax, dots, sums, environments ------------------------------------------------

@pytest.mark.parametrize("space", [r"\,", r"\;", r"\!", r"\ ", r"\quad", r"\qquad", "~",
                                   r"\:"])
def test_spacing_commands(space):
    assert verdicts(f"S = \\left(Q{space} K^T\\right)", "att222") == ["holds"]
    if "quad" not in space:     # at the top level, \quad separates two equations
        assert verdicts(f"s_{{11}} = q_{{11}}{space} k_{{11}} + q_{{12}}k_{{12}}",
                        "att222") == ["holds"]


def test_quad_and_commas_separate_equations():
    assert verdicts(r"p_{11} = 1 - p_{12}, \quad s_{12} = q_{11}k_{21} + q_{12}k_{22}\qquad "
                    r"\text{and} \quad S = QK^T.", "att222") == ["holds", "holds", "holds"]


def test_sized_delimiters():
    assert verdicts(r"s_{11} = \bigl(\boldsymbol{q}_1\bigr) \cdot \Bigl(\boldsymbol{k}_1\Bigr)",
                    "att222") == ["holds"]


def test_raw_parser_fails_on_softmax_and_dots(raw):
    for text in (r"\operatorname{softmax}(x)", r"\cdots", r"\sum_{k} a_k"):
        with pytest.raises(Exception):
            raw.latex2sympy(text)


def test_dots_are_read_as_their_pattern_or_get_a_clear_message():
    report = symrow.check(r"c_{11} = a_{11}b_{11} + \cdots + a_{13}b_{31}", against("comb23"))
    assert report.ok, report.to_text()
    report = symrow.check(r"c_{11} = a_{11}b_{11} + \cdots + b_{31}", against("comb23"))
    assert "do not have the same form" in report.steps[0].message


def test_bold_dot_product_is_an_inner_product(raw):
    # raw: a commutative product of two symbols named \boldsymbol{a}_1 ...
    assert raw.latex2sympy(r"\boldsymbol{a}_1 \cdot \boldsymbol{b}_2").is_Mul
    assert verdicts(r"c_{12} = \boldsymbol{a}_1 \cdot \boldsymbol{b}_2", "match23") == ["holds"]


def test_layout_environments():
    tex = ("\\begin{equation}\n\\begin{aligned}\nC &= AB \\\\\n  &= "
           "\\begin{bmatrix} \\boldsymbol{a}_1 B \\\\ \\boldsymbol{a}_2 B \\end{bmatrix}\n"
           "\\end{aligned}\n\\end{equation}")
    assert verdicts(tex, "comb23") == ["holds", "holds"]
    assert verdicts("Products: $C = AB$ and, for one entry,\n"
                    "$$c_{11} = \\boldsymbol{a}_1 \\begin{bmatrix} b_{11} \\\\ b_{21} \\\\ b_{31} "
                    "\\end{bmatrix}$$ (by definition).", "comb23") == ["holds", "holds"]


def test_a_whole_document_is_read_for_its_mathematics():
    tex = ("\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
           "\\section{Answer}\nBy the definition of a product,\n"
           "\\begin{itemize}\\item the first row: \\[ \\boldsymbol{c}_1 = \\boldsymbol{a}_1 B "
           "\\]\\end{itemize}\n"
           "\\begin{align*} C &= AB \\\\ &= BA \\end{align*}\n\\end{document}\n")
    assert verdicts(tex, "comb22") == ["holds", "holds", "wrong"]


# -- what was parsed before never matters -----------------------------------------------------------

def test_after_all_that_abuse_a_check_matches_a_fresh_process(raw, tmp_path):
    for text in (r"d \cdot x", r"C = \begin{bmatrix}1\end{bmatrix}", "e = 5", "a = b"):
        try:
            raw.latex2sympy(text)
        except Exception:
            pass
    tex = r"S = QK^T = \begin{bmatrix} s_{11} & s_{12} \\ s_{21} & s_{22} \end{bmatrix}"
    here = symrow.check(tex, against("att222")).to_json()
    import subprocess
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import symrow; "
              "from check_cases.derivations import against; "
              "print(symrow.check(sys.argv[2], against('att222')).to_json())")
    tests_dir = str(__import__("pathlib").Path(__file__).resolve().parent)
    fresh = subprocess.run([sys.executable, "-c", script, tests_dir, tex], capture_output=True,
                           text=True, check=True).stdout
    assert here == fresh.rstrip("\n")


def test_explicit_matrices_are_split_by_the_checker(raw):
    # raw: a 3x3 product of bmatrices parses (slowly) into a MatMul; the checker splits
    # matrices into cells itself, transposes them and multiplies in order
    assert verdicts(r"C = A \begin{bmatrix} \boldsymbol{b}_1 \\ \boldsymbol{b}_2 \end{bmatrix}^{\top}"
                    r" = \begin{pmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{pmatrix}"
                    r"\begin{pmatrix} b_{11} & b_{21} \\ b_{12} & b_{22} \end{pmatrix}",
                    "match22") == ["holds", "holds"]
    report = symrow.check(r"C = \begin{bmatrix} 1 & 2 \\ 3 \end{bmatrix}", against("match22"))
    assert "row 2 of this matrix has 1 entries, row 1 has 2" in report.steps[0].message
