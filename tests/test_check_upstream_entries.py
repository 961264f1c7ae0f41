r"""The page's own name for the upstream gradient, given as a matrix of its entries.

A study page writes the upstream of a backward pass as ``\Delta = (\delta_{11} \ldots
\delta_{1n} \\ \vdots \\ \delta_{h1} \ldots \delta_{hn})``: a capital name whose
entries are its lowercase letter (Δ, δ), a matrix of free entries in the page's own
sizes (h rows).  Against a backward pass, whose one free matrix is the upstream, such a
matrix of exactly the upstream's shape is the page's name for it, said in a note; when
it could be more than one thing it is not bound.  The page's size letters that run past
symrow's own (the page's m is X's columns, symrow's is its rows) are the page's sizes.
The verdicts are confirmed in numpy at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

DELTA = r"""\Delta = \left( \begin{array}{cccc}
  \delta_{11} & \delta_{12} & \ldots & \delta_{1n} \\
  \vdots & \vdots & \ddots & \vdots \\
  \delta_{h1} & \delta_{h2} & \ldots & \delta_{hn} \\
\end{array} \right)"""

# \begin{array}{cc} with four entries a row, as the page has it (KaTeX accepts it)
XT_DELTA = r"""X^{\mathrm{T}}\Delta = \left( \begin{array}{cc}
  \sum\limits_{k=1}^h x_{k1}\delta_{k1} & \sum\limits_{k=1}^h x_{k1}\delta_{k2} & \ldots &
    \sum\limits_{k=1}^h x_{k1}\delta_{kn} \\
  \sum\limits_{k=1}^h x_{k2}\delta_{k1} & \sum\limits_{k=1}^h x_{k2}\delta_{k2} & \ldots &
    \sum\limits_{k=1}^h x_{k2}\delta_{kn} \\
  \vdots & \vdots & \ddots & \vdots \\
  \sum\limits_{k=1}^h x_{km}\delta_{k1} & \sum\limits_{k=1}^h x_{km}\delta_{k2} & \ldots &
    \sum\limits_{k=1}^h x_{km}\delta_{kn} \\
\end{array} \right)"""


def page(*lines: str) -> str:
    return "\n\n".join(f"$$ {line} $$" for line in lines) + "\n"


def affine():
    return symrow.backward(symrow.explain("Y = XW + b", {"X": (3, 2), "W": (2, 4)}))


def steps(report) -> list[tuple[int, str]]:
    return [(s.line, s.status) for s in report.steps]


def test_a_matrix_of_its_own_entries_is_the_page_s_upstream():
    report = symrow.check(page(DELTA, r"\partial W = X^{\mathrm{T}}\Delta",
                               r"\partial X = \Delta W^{\mathrm{T}}", XT_DELTA), against=affine())
    assert report.verdict == "holds", report.text()
    first = report.steps[0]
    assert first.status == "defines" and "upstream gradient" in first.message
    assert "\\bar{Y}" in first.message and "h = 3" in first.message
    said = " ".join(report.notes)
    assert "page's name for it" in said and "the page's m is 2" in said
    ja = report.to_text("ja")
    assert "ページが上流の勾配に付けた名前" in ja and "ページの m は 2" in ja


def test_the_transpose_left_out_is_wrong_at_its_line():
    report = symrow.check(page(DELTA, r"\partial X = \Delta W"), against=affine())
    assert report.verdict == "wrong"
    assert [s.status for s in report.steps] == ["defines", "wrong"]
    assert "undefined" in report.steps[1].message


def test_the_transpose_on_the_wrong_side_is_wrong():
    report = symrow.check(page(DELTA, r"\partial W = \Delta^{\mathrm{T}} X"), against=affine())
    assert [s.status for s in report.steps] == ["defines", "wrong"]


def test_a_written_entry_with_the_wrong_column_is_wrong():
    # the second row's first entry with \delta_{k2}: at the page's m = 2 that row is also
    # the last one, written there correctly; the page says two things of one place
    slipped = XT_DELTA.replace(r"x_{k2}\delta_{k1}", r"x_{k2}\delta_{k2}", 1)
    assert slipped != XT_DELTA
    report = symrow.check(page(DELTA, slipped), against=affine())
    assert report.verdict == "wrong"
    assert report.steps[1].status == "wrong" and "written twice" in report.steps[1].message
    assert "成分 (2, 1)が 2 回書かれていて" in report.to_text("ja")
    first_row = XT_DELTA.replace(r"x_{k1}\delta_{k2}", r"x_{k1}\delta_{k1}", 1)
    report = symrow.check(page(DELTA, first_row), against=affine())
    assert [s.status for s in report.steps] == ["defines", "wrong"]
    assert report.steps[1].entry == (1, 2)


def test_single_sample_lines_in_another_notation_are_not_judged():
    report = symrow.check(page(DELTA, r"\partial b_j = \delta_{j}",
                               r"\partial y_j = \sum_{r=1}^n \delta_r w_{jr}",
                               r"\partial w_{ij} = \frac{\partial E}{\partial w_{ij}} = "
                               r"y_i\delta_{j}"), against=affine())
    assert report.verdict != "wrong"
    got = [s.status for s in report.steps]
    assert got == ["defines", "unchecked", "unchecked", "holds", "unchecked"], got
    assert "another notation" in report.steps[1].message
    assert "別の記法" in report.to_text("ja")


def test_two_free_matrices_of_that_shape_are_not_guessed():
    gamma = DELTA.replace("\\Delta", "\\Gamma").replace("\\delta", "\\gamma")
    report = symrow.check(page(DELTA, gamma, r"\partial W = X^{\mathrm{T}}\Delta"),
                          against=affine())
    assert report.verdict == "unreadable"
    assert "wrong" not in [s.status for s in report.steps]
    assert not any("upstream" in s.message for s in report.steps)


def test_a_free_matrix_of_another_shape_is_not_the_upstream():
    small = r"""\Delta = \left( \begin{array}{cc} \delta_{11} & \delta_{12} \\
      \delta_{21} & \delta_{22} \end{array} \right)"""
    report = symrow.check(page(small, r"\partial W = X^{\mathrm{T}}\Delta"), against=affine())
    assert report.verdict != "holds"
    assert not any("upstream gradient" in s.message for s in report.steps)


def test_a_name_defined_again_is_not_the_upstream():
    report = symrow.check(page(DELTA, r"\Delta = Y", r"\partial W = X^{\mathrm{T}}\Delta"),
                          against=affine())
    assert not any("upstream gradient" in s.message for s in report.steps)
    assert report.verdict != "holds"


def test_a_forward_target_has_no_upstream_to_name():
    forward = symrow.explain("Y = XW + b", {"X": (3, 2), "W": (2, 4)})
    report = symrow.check(page(DELTA, r"Y = XW + b"), against=forward)
    assert report.steps[0].status == "unreadable"
    assert "wrong" not in [s.status for s in report.steps]


# -- the page's own sizes, from the places its size letters index ---------------------------

def forward():
    return symrow.explain("Y = XW", {"X": (3, 2), "W": (2, 4)})   # m = 3, ell = 2, n = 4


def test_a_size_letter_past_the_end_is_the_page_s_size():
    report = symrow.check(page(r"y_{11} = x_{11} w_{11} + x_{12} w_{21} + \cdots + "
                               r"x_{1m} w_{m1}"), against=forward())
    assert report.verdict == "holds", report.text()
    assert any("the page's m is 2" in n for n in report.notes)
    slipped = symrow.check(page(r"y_{11} = x_{11} w_{11} + x_{12} w_{22} + \cdots + "
                                r"x_{1m} w_{m1}"), against=forward())
    assert slipped.verdict == "wrong"


def test_size_letters_indexing_places_of_two_counts_are_not_bound():
    report = symrow.check(page(r"y_{11} = x_{11} w_{11} + \cdots + x_{1m} w_{m1}",
                               r"y_{11} = x_{m1} w_{11}"), against=forward())
    assert not any("the page's m" in n for n in report.notes)
    # never wrong on the page's m running past X's columns; the second line is wrong as
    # written (y_11 is not x_31 w_11, whichever m is meant)
    assert [s.status for s in report.steps] == ["unchecked", "wrong"]
    assert "the page's sizes are not this derivation's" in report.steps[0].message
    assert "最後の列" in report.to_text("ja")


def test_a_written_number_out_of_range_stays_the_page_s_error():
    report = symrow.check(page(r"y_{11} = x_{11} w_{11} + x_{12} w_{31}"), against=forward())
    assert report.verdict == "wrong"
    assert "no row 3" in report.steps[0].message


# -- the verdicts in numbers ----------------------------------------------------------------

def test_the_verdicts_in_numbers():
    rng = np.random.default_rng(7)
    h, m, n = 3, 2, 4
    x, w, b = rng.normal(size=(h, m)), rng.normal(size=(m, n)), rng.normal(size=(1, n))
    delta = rng.normal(size=(h, n))

    def loss(x_=x, w_=w, b_=b):
        return float(np.sum(delta * (x_ @ w_ + b_)))

    def grad(f, a, eps=1e-6):
        g = np.zeros_like(a)
        for idx in np.ndindex(*a.shape):
            e = np.zeros_like(a)
            e[idx] = eps
            g[idx] = (f(a + e) - f(a - e)) / (2 * eps)
        return g

    dw = grad(lambda w_: loss(w_=w_), w)
    dx = grad(lambda x_: loss(x_=x_), x)
    assert np.allclose(dw, x.T @ delta, atol=1e-6)
    assert np.allclose(dx, delta @ w.T, atol=1e-6)
    sums = np.array([[sum(x[k, i] * delta[k, j] for k in range(h)) for j in range(n)]
                     for i in range(m)])
    assert np.allclose(dw, sums, atol=1e-6)
    # the slips are not the gradient: the transpose left out does not even multiply, and
    # the entry with delta_{k2} for delta_{k1} is another number
    with pytest.raises(ValueError):
        delta @ w
    assert not np.isclose(sum(x[k, 1] * delta[k, 1] for k in range(h)), dw[1, 0])
    assert not np.isclose(sum(x[k, 0] * delta[k, 0] for k in range(h)), dw[0, 1])
    # the page's own size: y_11 = sum over X's 2 columns (the page's m), not symrow's m = 3
    y = x @ w
    assert np.isclose(y[0, 0], sum(x[0, k] * w[k, 0] for k in range(m)))
    assert not np.isclose(y[0, 0], x[0, 0] * w[0, 0] + x[0, 1] * w[1, 1])


# -- the real page, and its slips ----------------------------------------------------------

def real_page() -> str:
    from pathlib import Path
    from symrow.checker.document import notebook_markdown
    path = Path(__file__).resolve().parent / "check_cases" / "real" / \
        "shinnkura-matrix-backward.ipynb"
    return notebook_markdown(path.read_text(encoding="utf-8"))[0]


def line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("old, new, needle", [
    (r"\partial X & = \Delta W^{\mathrm{T}}", r"\partial X & = \Delta W", r"\partial X & ="),
    (r"\sum\limits_{k=1}^hx_{k2}\delta_{k1}", r"\sum\limits_{k=1}^hx_{k2}\delta_{k2}",
     r"\sum\limits_{k=1}^hx_{k2}\delta_{k2} & \sum\limits_{k=1}^hx_{k2}\delta_{k2}"),
    (r"\sum\limits_{k=1}^n\delta_{1k}w_{2k}", r"\sum\limits_{k=1}^n\delta_{1k}w_{1k}",
     r"\sum\limits_{k=1}^n\delta_{1k}w_{1k} & \sum\limits_{k=1}^n\delta_{1k}w_{1k}"),
])
def test_the_real_page_with_a_slip_is_wrong_at_that_line(old, new, needle):
    text = real_page()
    report = symrow.check(text, against=affine())
    assert report.verdict == "holds", report.to_text()
    slipped = text.replace(old, new, 1)
    assert slipped != text
    report = symrow.check(slipped, against=affine())
    assert report.verdict == "wrong"
    wrong = [s for s in report.steps if s.status == "wrong"]
    at = line_of(slipped, needle)
    # the first wrong step is the claim that holds the slip: its relation is on the
    # slip's line, or on the line of the '=' that opens the written-out matrix
    assert wrong[0].line <= at and all(s.status != "wrong" for s in report.steps
                                       if s.line < wrong[0].line)
    before = [s for s in report.steps if s.line <= at]
    assert before[-1] is wrong[0] or before[-1].status == "wrong"
