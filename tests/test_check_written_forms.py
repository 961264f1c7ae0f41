r"""Forms that published pages write and the checker now reads as their writer means them.

Each form comes from a page in ``check_cases/real/`` (named at its test) and is held by a
claim that is right and the same claim with one slip; the numbers are confirmed in numpy.

* the page's vector of numbers for an input of one row (qiita-hatahatadev-softmax-sum-index:
  ``\boldsymbol{x}=(1,2)`` against ``softmax(X)`` with X of 1 x 2): it gives X its values,
  as ``X = \begin{pmatrix} 1 & 2 \end{pmatrix}`` does.  It used to be a new name of the
  page's own, so ``e^{x_1}+e^{x_2} = e^1+e^2`` was judged as an identity in the entries of
  X and a correct worked example was called wrong; a row of X, ``\boldsymbol{x}_1 = (1,
  2)``, already gave its values.
* a bias written as one row when the shapes of the other operands are given but not its
  own (hongseoi-affine-exercise-ko, checked with ``--shape X=3x2 --shape W=2x3``: ``B =
  (7,8,9)`` against ``Y = XW + B``).  B's shape was inferred from the formula, that of XW,
  and the page's row was wrong on its line, and so was its correct ``\partial L/\partial
  B``.  The formula is now read again with B as one row added to every row, as it is when
  no shape is given at all, and a note says so; a shape given for B is kept.
* an en dash for minus inside math (sumikitch-softmax-derivative-ja, a WordPress page:
  ``y_i(1 – y_i)``, the typography's dash for " - "): read as a minus sign, as U+2212
  already was; it was an unreadable character.  (That page stays unreadable at its
  reference mark ※, its Japanese words inside a display and its yi for y_i.)
* a claim's condition in brackets at the end of its line, after a space but no ``\quad``
  (qiita-hatahatadev-softmax-sum-index: ``... = \frac{e^{x_i}}{\sum_{j=1}^{n} e^{x_i}}
  (i=1,2,\dots,n)``): a bracket that holds a relation is no factor of the last term, so it
  is the condition, as after ``\quad``; its i was an unknown name (a bracket right after
  a name, ``\mathbb{1}(z > 0)``, stays an argument);
* a function of the page's own as the first member of a chain (the same line: ``f(x_i)=
  softmax(x_i) = ...``): a one-letter name the derivation does not know, applied to a
  bracket, is a function-style heading; the chain is checked from its second member, with
  a note.  Alone on the left (``g(z) = \frac{1}{1 + e^{-z}}``) the line is notation, as
  ``\mathrm{Foo}(X) = ...`` was.  (That line's n is the length of y, from the page's
  ``\sum_{j=1}^{n} y_j``: see the next form.)
* a sum up to a letter of the page's own over the entries of a vector of the check's
  (sumikitch-softmax-derivative-ja: ``Z := \sum_{j=1}^n e^{x_j}`` against softmax(X) with
  X of 1 x 3): the letter is the vector's length for the page (n = 3), said in a note, as
  a sum over the entries of the page's own name for an input already made it.  It was "the
  upper bound n of a sum is not a size this check knows", and every line with Z unreadable;
  that page now has five claims that hold before the lines it still cannot read.  A letter
  that two vectors of different lengths would give, or that the check knows, is not bound.
* a side written in entries that cancels to a number (the same page's line 29:
  ``\frac{e^{x_i}}{\sum_{j=1}^{n} e^{x_i}}`` is 1/2 whatever x is): it is no number of a
  worked example, so against the entries of X it claims an identity, and a wrong one.  It
  was "not checked: one side is a number, the other depends on the entries of X" (the
  rule for a number the page writes, 0.269 before X's numbers are known), and the page
  was wrong only at line 38; with the four forms above it is now wrong at line 29, its
  first error, and its strict xfail is gone.
* a decimal cut off with dots (the same page: ``e^1+e^2=10.107...``, ``\frac{e}{10.107..}
  \approx 0.269``): the dots belong to the number, which is the value to the places
  written, within a whole unit in the last place (the digits after it may be anything);
  next to other decimals, each counts with its own places.  It was "dots inside a term"
  and "unexpected '.'".
* a derivative written without brackets before a fraction (sumikitch, line 67:
  ``\frac{\partial}{\partial x_j} \frac{e^{x_i}}{Z}``): the fraction is what it takes, as a
  product of entries already was; it was "write what \partial/\partial x takes in
  brackets".  That page now has seven claims that hold.
* a prime on a function named in text (gauravreddy08-mlp-backprop-notes:
  ``\text{ReLU}'(z)``): read as ``\mathrm{ReLU}'`` is; the text command had been taken
  for prose, because only a bracket right after it made it a function.
* a sum over every index but one (yanfenglee-softmax-ce-derivative: ``\sum_{k\neq i}
  y_k a_i``): read as ``\sum_k (1 - \delta_{ki}) ...``; it was "write the range as
  \sum_{j=1}^{n}".  (With its own loss read, test_check_page_loss.py, that page holds.)
* the page's word that its ``*`` is the element-wise product (hanezu-relu-backward-replace:
  "Here $*$ denote element-wise product between matrices"), also where the page's numbers
  make a general target concrete: ``X * W`` is then ``X \odot W``, with a note.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def _softmax_of(rows: int):
    return symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (rows, 2)})


def _statuses(page: str, derivation) -> list:
    return [s.status for s in symrow.check(page, derivation).steps]


# -- the page's vector of numbers for an input of one row ---------------------------------------

_VALUES = "Let $\\boldsymbol{x} = (1, 2)$.\n\n"


@pytest.mark.parametrize("claim, status", [
    (r"e^{x_1}+e^{x_2} = e^1+e^2", "holds"),
    (r"y_1 = \frac{e^{x_1}}{e^{x_1}+e^{x_2}} = \frac{e}{e+e^2}", "holds"),
    (r"\boldsymbol{y} = (0.269, 0.731)", "holds"),         # rounded to the places written
    (r"e^{x_1}+e^{x_2} = e^1+e^3", "wrong"),               # the slip: x_2 is 2
    (r"\boldsymbol{y} = (0.731, 0.269)", "wrong"),         # the entries swapped
])
def test_a_vector_of_numbers_gives_the_one_row_input_its_values(claim, status):
    statuses = _statuses(_VALUES + f"$$ {claim} $$\n", _softmax_of(1))
    assert statuses[0] == "defines"
    assert set(statuses[1:]) == {status}, statuses


def test_a_vector_of_the_wrong_length_is_wrong_on_its_line():
    statuses = _statuses("Let $\\boldsymbol{x} = (1, 2, 3)$.\n", _softmax_of(1))
    assert statuses == ["wrong"]


def test_a_row_of_a_taller_input_still_gets_its_values():
    page = ("Let $\\boldsymbol{x}_1 = (1, 2)$ and $\\boldsymbol{x}_2 = (0, 1)$.\n\n"
            "$$ y_{21} = \\frac{e^{0}}{e^0+e^1} $$\n\n$$ y_{11} = \\frac{e}{e+e^3} $$\n")
    assert _statuses(page, _softmax_of(2)) == ["defines", "defines", "holds", "wrong"]


# -- a bias row whose shape was not given --------------------------------------------------------

_AFFINE = ("$$X = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}, \\quad W = \\begin{pmatrix} 1 & 0 "
           "\\\\ 0 & 1 \\end{pmatrix}, \\quad B = \\begin{pmatrix} 1 & 1 \\end{pmatrix}$$\n\n"
           "$$Y = XW + B = \\begin{pmatrix} %s \\end{pmatrix}$$\n")


@pytest.mark.parametrize("result, status", [
    ("2 & 3 \\\\ 4 & 5", "holds"),
    ("2 & 3 \\\\ 4 & 6", "wrong"),                      # the slip: 4 + 1 is 5
    ("2 & 2 \\\\ 3 & 4", "wrong"),                      # the bias left out
])
def test_a_bias_row_is_added_to_every_row_when_its_shape_was_not_given(result, status):
    d = symrow.explain("Y = XW + B", {"X": (2, 2), "W": (2, 2)})
    report = symrow.check(_AFFINE % result, d)
    statuses = [s.status for s in report.steps]
    assert statuses[:3] == ["defines"] * 3, report.to_text()
    assert statuses[-1] == status, report.to_text()
    assert "the page writes B as one row, added to every row" in report.to_text()
    assert "ページは B を 1 行で書き" in report.to_text(lang="ja")


def test_a_bias_shape_that_was_given_is_kept():
    d = symrow.explain("Y = XW + B", {"X": (2, 2), "W": (2, 2), "B": (2, 2)})
    report = symrow.check(_AFFINE % "2 & 3 \\\\ 4 & 5", d)
    assert report.steps[2].status == "wrong"
    assert "2 x 2 matrix, the right side a 1 x 2 matrix" in report.steps[2].message


def test_the_bias_gradient_of_the_affine_exercise_with_two_shapes_given():
    from pathlib import Path
    page = (Path(__file__).parent / "check_cases" / "real" /
            "hongseoi-affine-exercise-ko.md").read_text(encoding="utf-8")
    d = symrow.backward(symrow.explain("Y = XW + B", {"X": (3, 2), "W": (2, 3)}))
    report = symrow.check(page, d)
    assert report.verdict == "holds", report.to_text()
    slip = page.replace("[2+1+0,1+0+0,-1+0+1]", "[2+1-1,1+0+0,0+0+1]", 1)
    assert slip != page
    report = symrow.check(slip, d)
    assert report.verdict == "wrong", report.to_text()
    wrong = [s for s in report.steps if s.status == "wrong"]
    assert "\\partial B" in wrong[0].left, report.to_text()   # (then 2+1-1 = 3 as well)


# -- an en dash for minus ------------------------------------------------------------------------

@pytest.mark.parametrize("claim, status", [
    ("y_1 = \\frac{e^{x_1}}{Z} \u2013 0", "holds"),
    ("\\frac{e^{x_1}}{e^{x_1} + e^{x_2}} = 1 \u2013 y_2", "holds"),
    ("\\frac{e^{x_1}}{e^{x_1} + e^{x_2}} = 1 \u2013 y_1", "wrong"),
    ("y_2 \u2013 y_1 = y_1 \u2013 y_2", "wrong"),
])
def test_an_en_dash_in_math_is_a_minus_sign(claim, status):
    page = "Let $Z = e^{x_1} + e^{x_2}$.\n\n$$ %s $$\n" % claim
    assert _statuses(page, _softmax_of(1))[-1] == status


# -- a condition in brackets ending the line; a function of the page's own -----------------------

@pytest.mark.parametrize("claim, status", [
    (r"y_i = \frac{e^{x_i}}{\sum_{j=1}^{2} e^{x_j}} (i=1,2)", "holds"),
    (r"y_i = \frac{e^{x_i}}{\sum_{j=1}^{2} e^{x_i}} (i=1,2)", "wrong"),   # the page's slip
    (r"y_i = \frac{e^{x_i}}{\sum_{j=1}^{2} e^{x_j}} (i \neq 3)", "holds"),
    (r"y_1 = \frac{e^{x_1}}{e^{x_1} + e^{x_2}} (1 + 0)", "holds"),           # a factor
    (r"y_1 = \frac{e^{x_1}}{e^{x_1} + e^{x_2}} (1 + 1)", "wrong"),           # (twice)
])
def test_a_bracket_with_a_relation_ending_the_line_is_the_claims_condition(claim, status):
    assert _statuses(f"$$ {claim} $$\n", _softmax_of(1)) == [status]


@pytest.mark.parametrize("claim, status", [
    (r"f(x_i)= softmax(x_i) = \frac{e^{x_i}}{\sum_{j=1}^{2} e^{x_j}} (i=1,2)", "holds"),
    (r"f(x_i)= softmax(x_i) = \frac{e^{x_i}}{\sum_{j=1}^{2} e^{x_i}} (i=1,2)", "wrong"),
])
def test_a_function_of_the_pages_own_heads_the_chain(claim, status):
    report = symrow.check(f"$$ {claim} $$\n", _softmax_of(1))
    assert [s.status for s in report.steps] == [status], report.to_text()
    assert "f(...) names a function of the page's own" in report.to_text()
    assert "f(...) はページ独自の関数で" in report.to_text(lang="ja")


def test_a_function_of_the_pages_own_alone_on_the_left_is_notation():
    report = symrow.check("$$ g(z) = \\frac{1}{1 + e^{-z}} $$\n", _softmax_of(1))
    assert not report.steps, report.to_text()
    assert "g(...) names a function of the page's own" in report.to_text()


# -- a sum's own end as the length of the vector it runs over -------------------------------------

_SUMMED = "Let\n$$ Z := \\sum_{j=1}^n e^{x_j} $$\n\n$$ %s $$\n"


@pytest.mark.parametrize("claim, status", [
    (r"y_1 = \frac{e^{x_1}}{Z}", "holds"),
    (r"y_1 + y_2 + y_3 = \frac{1}{Z} \sum_{k=1}^{n} e^{x_k}", "holds"),
    (r"\sum_{j=1}^{n} y_j = 1", "holds"),
    (r"y_1 = \frac{e^{x_2}}{Z}", "wrong"),                          # the wrong entry
    (r"\sum_{j=1}^{n-1} y_j = 1", "wrong"),                          # one short
])
def test_a_sums_own_end_is_the_length_of_the_vector_it_runs_over(claim, status):
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 3)})
    report = symrow.check(_SUMMED % claim, d)
    assert [s.status for s in report.steps] == ["defines", status], report.to_text()
    assert "the page's n is the length of X (3)" in report.to_text()
    assert "ページの n は X の長さ（3）" in report.to_text(lang="ja")


def test_a_letter_two_lengths_would_give_is_not_bound():
    d = symrow.explain(r"Y = \mathrm{softmax}(X) W", {"X": (1, 3), "W": (3, 2)})
    one = "$$ \\sum_{j=1}^{N} e^{x_j} = 1 $$\n"
    assert "the page's N is the length of X (3)" in symrow.check(one, d).to_text()
    page = one + "\n$$ \\sum_{j=1}^{N} y_j = 1 $$\n"         # x has 3 entries, y has 2
    assert "is the length of" not in symrow.check(page, d).to_text()


def test_a_size_the_check_knows_is_not_the_pages():
    d = symrow.explain("Y = XW", {"X": (1, 3), "W": (3, 2)})
    report = symrow.check("$$ y_1 = \\sum_{k=1}^{\\ell} x_k w_{k1} $$\n", d)
    assert [s.status for s in report.steps] == ["holds"], report.to_text()
    assert "is the length of" not in report.to_text()


# -- a side written in entries that cancels to a number ------------------------------------------

_LATER = "$$ %s $$\n\nLet $\\boldsymbol{x} = (1, 2)$.\n"      # the numbers come after


@pytest.mark.parametrize("claim, status", [
    (r"y_1 = \frac{e^{x_1}}{e^{x_1} + e^{x_1}}", "wrong"),      # 1/2 whatever x is
    (r"y_1 = \frac{e^{x_1}}{e^{x_1} + e^{x_2}}", "holds"),
    (r"y_1 + y_2 = \frac{e^{x_1} + e^{x_2}}{e^{x_1} + e^{x_2}}", "holds"),   # 1, rightly
    (r"y_1 = 0.269", "unchecked"),          # a number as written: X's numbers come later
])
def test_a_side_in_entries_that_cancels_to_a_number_claims_an_identity(claim, status):
    assert _statuses(_LATER % claim, _softmax_of(1))[0] == status


# -- a decimal cut off with dots -----------------------------------------------------------------

@pytest.mark.parametrize("claim, status", [
    (r"e^{x_1}+e^{x_2}=e^1+e^2=10.107...", "holds"),
    (r"e^{x_1}+e^{x_2}=10.107..", "holds"),
    (r"e^{x_1}+e^{x_2}=10.108...", "holds"),              # within a unit: cut or rounded
    (r"e^{x_1}+e^{x_2}=10.109...", "wrong"),
    (r"y_1 = \frac{e}{10.107..} \approx 0.269", "holds"),
    (r"y_1 = \frac{e}{10.107..} \approx 0.27", "holds"),
    (r"y_1 = \frac{e}{10.107..} \approx 0.26", "wrong"),   # 0.2689 is 0.27 to two places
])
def test_a_decimal_cut_off_with_dots_is_the_value_to_its_places(claim, status):
    statuses = _statuses(_VALUES + f"$$ {claim} $$\n", _softmax_of(1))
    assert statuses[0] == "defines"
    assert statuses[-1] == status, statuses
    assert set(statuses[1:-1]) <= {"holds"}, statuses


# -- a derivative before a fraction, without brackets ----------------------------------------------

@pytest.mark.parametrize("claim, status", [
    (r"\frac{\partial y_1}{\partial x_2} = \frac{\partial}{\partial x_2} \frac{e^{x_1}}{Z}",
     "holds"),
    (r"\frac{\partial}{\partial x_2} \frac{e^{x_1}}{Z} = -\frac{e^{x_1} e^{x_2}}{Z^2}", "holds"),
    (r"\frac{\partial}{\partial x_2} \frac{e^{x_1}}{Z} = \frac{e^{x_1} e^{x_2}}{Z^2}", "wrong"),
    (r"\frac{\partial}{\partial x_1} \frac{e^{x_1}}{Z} = y_1(1 - y_1)", "holds"),
    (r"\frac{\partial}{\partial x_1} \frac{e^{x_1}}{Z} = y_1(1 - y_2)", "wrong"),
])
def test_a_derivative_without_brackets_takes_the_fraction_after_it(claim, status):
    d = symrow.backward(symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 3)}))
    page = "$$ Z := \\sum_{j=1}^n e^{x_j} $$\n\n$$ %s $$\n" % claim
    assert [s.status for s in symrow.check(page, d).steps] == ["defines", status]


# -- a prime on a function named in text ------------------------------------------------------

@pytest.mark.parametrize("mask, status", [
    (r"\text{ReLU}'(Z)", "holds"), (r"\mathrm{ReLU}'(Z)", "holds"),
    (r"\text{ReLU}(Z)", "wrong"),                            # the value, not its derivative
])
def test_a_prime_on_a_function_named_in_text(mask, status):
    d = symrow.backward(symrow.explain(r"H = \mathrm{ReLU}(XW_1 + b_1); Y = HW_2 + b_2",
                                       {"X": (2, 3), "W_1": (3, 4), "W_2": (4, 2)}))
    page = ("$$ Z = XW_1 + b_1 $$\n\n$$ \\frac{\\partial L}{\\partial Z} = "
            "\\frac{\\partial L}{\\partial H} \\odot %s $$\n" % mask)
    assert [s.status for s in symrow.check(page, d).steps] == ["defines", status]


# -- a sum over every index but one --------------------------------------------------------------

@pytest.mark.parametrize("claim, status", [
    (r"\sum_{k\neq 1} a_k = a_2 + a_3", "holds"),
    (r"1 - \sum_{k \ne 2} a_k = a_2", "holds"),
    (r"\sum_{k\neq 2} a_k = a_1 + a_2", "wrong"),              # the wrong one left out
    (r"\frac{\partial L}{\partial z_1} = \bar{a}_1 a_1 (1 - a_1) - \sum_{k\neq 1} "
     r"\bar{a}_k a_k a_1", "holds"),
    (r"\frac{\partial L}{\partial z_1} = \bar{a}_1 a_1 (1 - a_1) + \sum_{k\neq 1} "
     r"\bar{a}_k a_k a_1", "wrong"),                            # the Jacobian's sign
])
def test_a_sum_over_every_index_but_one(claim, status):
    d = symrow.backward(symrow.explain(r"A = \mathrm{softmax}(Z)", {"Z": (1, 3)}))
    assert [s.status for s in symrow.check(f"$$ {claim} $$\n", d).steps] == [status]


# -- the page's * as the element-wise product, at the sizes of its example -----------------------

@pytest.mark.parametrize("result, status", [("2 & -2 \\\\ 0 & 4", "holds"),
                                            ("2 & -4 \\\\ 0 & 4", "wrong")])
def test_the_pages_star_at_the_sizes_its_numbers_fix(result, status):
    """The page's numbers make the general target concrete (its contexts are made again),
    and its * stays the element-wise product it says it is."""
    page = ("$$X = \\begin{pmatrix} 1 & -2 \\\\ 3 & 4 \\end{pmatrix}, \\quad W = "
            "\\begin{pmatrix} 2 & 1 \\\\ 0 & 1 \\end{pmatrix}$$\n\n"
            "$$Y = X * W = \\begin{pmatrix} %s \\end{pmatrix}$$\n\n"
            "Here $*$ denotes the element-wise product.\n" % result)
    report = symrow.check(page, symrow.explain(r"Y = X \odot W"))
    assert [s.status for s in report.steps][-1] == status, report.to_text()
    assert "* is read as the element-wise product" in report.to_text()


def test_the_vector_values_in_numbers():
    x = np.array([1.0, 2.0])
    y = np.exp(x) / np.exp(x).sum()
    assert np.isclose(np.exp(x).sum(), np.e + np.e ** 2)
    assert not np.isclose(np.exp(x).sum(), np.e + np.e ** 3)
    assert np.allclose(np.round(y, 3), [0.269, 0.731])
    x2 = np.array([0.0, 1.0])
    assert np.isclose((np.exp(x2) / np.exp(x2).sum())[0], 1 / (1 + np.e))
    assert not np.isclose(y[0], np.e / (np.e + np.e ** 3))
    assert np.isclose(y[0], 1 - y[1]) and not np.isclose(y[0], 1 - y[0])   # the en dashes
    z = np.e + np.e ** 2                                              # 10.1073...
    assert 10.107 <= z < 10.108 and abs(z - 10.109) > 1e-3
    assert round(np.e / 10.107, 3) == 0.269 and round(np.e / 10.107, 2) == 0.27
    assert abs(np.e / 10.107 - 0.26) > 0.001 + 0.005                  # the two decimals' units
    x3 = np.array([0.3, -1.2, 2.0])
    y3 = np.exp(x3) / np.exp(x3).sum()
    jac = np.diag(y3) - np.outer(y3, y3)                              # d y_i / d x_j
    assert np.isclose(jac[0, 1], -np.exp(x3[0]) * np.exp(x3[1]) / np.exp(x3).sum() ** 2)
    assert np.isclose(jac[0, 0], y3[0] * (1 - y3[0])) and not np.isclose(jac[0, 0],
                                                                         y3[0] * (1 - y3[1]))
    assert np.isclose(y3[0], np.exp(x3[0]) / np.exp(x3).sum()) and np.isclose(y3.sum(), 1)
    assert not np.isclose(y3[0], np.exp(x3[1]) / np.exp(x3).sum())
    assert not np.isclose(y3[:2].sum(), 1)                            # the sum one short
    up = np.array([0.4, -1.1, 0.7])                                   # the upstream ā
    dz = jac.T @ up                                                   # (jac from y3 above)
    assert np.isclose(dz[0], up[0] * y3[0] * (1 - y3[0]) - sum(up[k] * y3[k] * y3[0]
                                                              for k in (1, 2)))
    assert not np.isclose(dz[0], up[0] * y3[0] * (1 - y3[0]) + sum(up[k] * y3[k] * y3[0]
                                                                  for k in (1, 2)))
    assert np.array_equal(np.array([[1, -2], [3, 4]]) * np.array([[2, 1], [0, 1]]),
                          [[2, -2], [0, 4]])                          # the page's *
    zz = np.array([[-1.5, 0.5], [2.0, -0.1]])                          # ReLU' is the mask
    assert not np.allclose(np.maximum(zz, 0), (zz > 0).astype(float))
    X, W, b = np.array([[1, 2], [3, 4]]), np.eye(2), np.array([1, 1])
    assert np.array_equal(X @ W + b, [[2, 3], [4, 5]])
    G = np.array([[2, 1, -1], [1, 0, 0], [0, 0, 1]])     # the exercise's upstream
    assert np.array_equal(G.sum(axis=0), [3, 1, 0])      # dL/dB: summed over the rows
    assert not np.array_equal(G.sum(axis=1), [3, 1, 0])  # (the slip sums the columns)
