"""Forms that published backward passes use, read as written (issue 25).

From joyabrata-das/ML_DL's MNIST_scratch.ipynb (tests/check_cases/real/
joyabrata-mlp-relu-backward.ipynb): results framed in ``\\boxed{...}``, the ReLU mask
written as an indicator ``\\mathbb{1}(z_1 > 0)``, and the upstream gradient of the
softmax with cross-entropy given in the page's own names, ``\\frac{1}{B}(\\hat{Y} - Y)``
(Y the labels, B the batch size), which the target leaves free.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

MLP = r"z_1 = XW_1 + b_1; a_1 = \mathrm{ReLU}(z_1); z_2 = a_1 W_2 + b_2"
SHAPES = {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)}


@pytest.fixture(scope="module")
def backward():
    return symrow.backward(symrow.explain(MLP, SHAPES))


def _check(text, backward):
    return symrow.check(text, against=backward, parser="builtin")


def test_a_boxed_result_is_a_claim(backward):
    """It was skipped without a word: the box is one group, with no '=' at the top."""
    page = (r"$$\boxed{\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T "
            r"\frac{\partial \mathcal{L}}{\partial z_2}}$$" "\n\n"
            r"$$\boxed{\frac{\partial \mathcal{L}}{\partial W_2} = a_1 "
            r"\frac{\partial \mathcal{L}}{\partial z_2}}$$")
    report = _check(page, backward)
    assert [s.status for s in report.steps] == ["holds", "wrong"]


@pytest.mark.parametrize("mask", [r"\mathbb{1}(z_1 > 0)", r"\mathbb{1}[z_1 > 0]",
                                  r"\mathbb{1}_{z_1 > 0}", r"\mathbf{1}[z_1 > 0]",
                                  r"\mathbb{I}(z_1>0)", r"1\{z_1>0\}",
                                  r"\mathbb{1}\left(0 < z_1\right)", r"\mathbb{1}(z_1 \geq 0)"])
def test_the_indicator_is_the_relu_mask(mask, backward):
    page = (r"$$\frac{\partial L}{\partial z_1} = \frac{\partial L}{\partial a_1} \odot "
            + mask + "$$")
    assert _check(page, backward).verdict == "holds"


def test_the_indicator_the_wrong_way_round_is_wrong(backward):
    page = (r"$$\frac{\partial L}{\partial z_1} = \frac{\partial L}{\partial a_1} \odot "
            r"\mathbb{1}(z_1 < 0)$$")
    assert _check(page, backward).verdict == "wrong"


UPSTREAM = (r"$$\hat{Y} = \mathrm{softmax}(z_2)$$" "\n\n"
            r"$$\frac{\partial \mathcal{L}}{\partial z_2} = \frac{1}{B}(\hat{Y} - Y)$$" "\n\n")


def test_an_upstream_gradient_in_the_pages_own_names(backward):
    page = UPSTREAM + (r"$$\frac{\partial \mathcal{L}}{\partial W_2} = \frac{1}{B} a_1^T "
                       r"(\hat{Y} - Y)$$")
    report = _check(page, backward)
    assert [s.status for s in report.steps] == ["defines", "defines", "holds"]
    said = report.steps[1].message
    assert r"Y \in \mathbb{R}^{3 \times 2}" in said and "B > 0" in said


def test_the_dropped_one_over_b_is_found(backward):
    """The page's slip: dL/dW_2 = a_1^T (Ŷ - Y), without the 1/B of its own Step 1."""
    page = UPSTREAM + r"$$\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T (\hat{Y} - Y)$$"
    report = _check(page, backward)
    assert report.steps[-1].status == "wrong"
    # the same in numbers: with G = (Ŷ - Y)/B, a_1^T G and a_1^T (Ŷ - Y) differ by B
    rng = np.random.default_rng(25)
    a1, yhat, y, B = rng.normal(size=(3, 3)), rng.random((3, 2)), rng.random((3, 2)), 3
    assert not np.allclose(a1.T @ ((yhat - y) / B), a1.T @ (yhat - y))


def test_an_upstream_line_with_two_unknown_matrices_is_not_guessed(backward):
    """U - V: two new matrices and one equation; nothing says which is which, so the
    line stays unread rather than bound on a guess."""
    page = UPSTREAM.split("\n\n")[0] + "\n\n" + (
        r"$$\frac{\partial \mathcal{L}}{\partial z_2} = U - V$$")
    report = _check(page, backward)
    assert report.steps[-1].status == "unreadable"


def test_the_hint_names_the_pages_own_factor_in_both_languages(backward):
    page = UPSTREAM + r"$$\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T (\hat{Y} - Y)$$"
    report = _check(page, backward)
    assert "the factor 1/B is missing" in report.to_text("en")
    ja = report.to_text("ja")
    assert "係数 1/B が抜けている" in ja and "ページ自身の名前による上流の勾配" in ja


def test_d_before_a_name_is_its_gradient():
    """CS231n's dW = X^T dY and the backward pass of FlashAttention (Dao et al., 2022,
    arXiv:2205.14135, appendix B.2: dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q)."""
    linear = symrow.backward(symrow.explain("Y = XW", {"X": (2, 3), "W": (3, 2)}))
    page = "$$dW = X^T dY$$\n\n$$\\delta X = \\delta Y W^T$$\n\n$$dX = dY W$$"
    assert [s.status for s in _check(page, linear).steps] == ["holds", "holds", "wrong"]
    att = symrow.backward(symrow.attention(2, 2, 2))
    page = ("$$dV = P^T dO$$\n\n$$dP = dO V^T$$\n\n$$dQ = dS K$$\n\n$$dK = dS^T Q$$")
    assert _check(page, att).verdict == "holds"


# -- the page's own name for the target's input (rainbow-engine-softmax-derivative.md) ----------

SOFTMAX = r"P = \mathrm{softmax}(S)"
SOFTMAX_LINE = r"$$ softmax(x)_i = \frac{e^{x_i}}{\sum^{n}_{j=1}e^{x_j}} \quad (i=1,2,…,n) $$"


@pytest.fixture(scope="module")
def softmax_row():
    return symrow.backward(symrow.explain(SOFTMAX, {"S": (1, 3)}))


def _np_softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def test_a_name_only_in_softmax_of_it_is_the_targets_input(softmax_row):
    """x appears bare only as softmax(x), and the target is softmax(S): x is S, x_i its
    entries, and the n its sums run to is its length; the reading is said."""
    report = _check(SOFTMAX_LINE, softmax_row)
    assert [s.status for s in report.steps] == ["holds"]
    (note,) = report.notes
    assert "x is read as S" in note and "n as its length (3)" in note
    ja = report.to_text("ja")
    assert "x は S と読む" in ja and "n はその長さ 3 と読む" in ja
    # the same in numbers: e^{x_i} / sum_j e^{x_j} is softmax(x); e^{2 x_i} / ... is not
    x = np.random.default_rng(55).normal(size=3)
    assert np.allclose(np.exp(x) / np.exp(x).sum(), _np_softmax(x))
    assert not np.allclose(np.exp(2 * x) / np.exp(x).sum(), _np_softmax(x))
    wrong = SOFTMAX_LINE.replace(r"\frac{e^{x_i}}", r"\frac{e^{2x_i}}")
    assert [s.status for s in _check(wrong, softmax_row).steps] == ["wrong"]


@pytest.mark.parametrize("formula, shapes", [
    (r"P = \mathrm{softmax}(S) + \mathrm{softmax}(T)", {"S": (1, 3), "T": (1, 3)}),  # two
    (SOFTMAX, {"S": (2, 3)}),            # x_i of a matrix: a row or an entry?
    (SOFTMAX, {"S": (3, 1)}),            # a column: the target's softmax is by rows
    (r"P = \mathrm{softmax}(S/\sqrt{3})", {"S": (1, 3)}),    # softmax of no operand
    # the page's n is x's length, 3; the target's n is V's 5 columns
    (r"P = \mathrm{softmax}(S); O = PV", {"S": (1, 3), "V": (3, 5)}),
])
def test_an_input_name_that_could_be_several_things_is_not_bound(formula, shapes):
    report = _check(SOFTMAX_LINE, symrow.explain(formula, shapes))
    assert report.verdict == "unreadable" and not report.notes
    assert "unknown name 'x'" in report.steps[0].message


@pytest.mark.parametrize("page", [
    "$$ x = 2 $$\n\n" + SOFTMAX_LINE,                                   # x defined as a number
    r"$$ softmax(x)_i = \frac{e^{x_i}}{\sum_{j=1}^{n} e^{x}} $$",       # x bare in a power
])
def test_a_name_used_bare_elsewhere_is_not_the_input(page, softmax_row):
    report = _check(page, softmax_row)
    assert report.verdict == "unreadable" and not report.notes


def test_a_number_the_page_names_has_no_entries(softmax_row):
    """Y = sum_j e^{x_j} binds Y; the page's y_i (its outputs, never defined) is no entry
    of that number, so a line in y_i is not judged at the one index value Y has."""
    page = SOFTMAX_LINE + "\n\n" + r"\( Y=\sum^{n}_{j=1}e^{x_j} \)と置く" + "\n\n" + (
        r"$$ \frac{\partial y_i}{\partial x_j} = -\frac{e^{x_i}e^{x_j}}{Y^2} $$")
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "defines", "unreadable"]
    assert "unknown name 'y_i'" in report.steps[2].message


def test_softmax_of_one_entry_is_the_shorthand_for_an_entry_of_the_softmax(softmax_row):
    page = SOFTMAX_LINE + "\n\n" + r"$$ softmax(x_i) = \frac{e^{x_i}}{\sum^{n}_{j=1}e^{x_j}} $$"
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "holds"]
    assert any("softmax(x_i) is read as softmax(x)_i" in n for n in report.notes)
    assert "softmax(x_i) はページの略記として softmax(x)_i と読む" in report.to_text("ja")
    # in the derivation's own names too, and against the forward pass
    forward = symrow.explain(SOFTMAX, {"S": (1, 3)})
    page = r"$$ \mathrm{softmax}(s_i) = \frac{e^{s_i}}{\sum_{j=1}^{\ell} e^{s_j}} $$"
    assert _check(page, forward).verdict == "holds"


def test_e_with_a_subscript_beside_its_powers_is_the_pages_slip(softmax_row):
    """softmax(x_i) = e^{x_i} / sum_j e_{x_j}: the denominator as written is not the
    softmax's (e_{x_j} is no power); e^{x_j} is meant, and the line is wrong."""
    page = SOFTMAX_LINE + "\n\n" + (
        r"$$ softmax(x_i) = \frac{e^{x_i}}{\sum^{n}_{j=1}e_{x_j}} $$")
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "wrong"]
    assert report.steps[1].message == ("e_{x_j}: e with a subscript; its power e^{x_j} is "
                                       "meant (with it the step holds)")
    assert "e_{x_j}：e に下付き添字が付いている。書くつもりだったのはべき e^{x_j} である" in \
        report.to_text("ja")
    # still wrong with the power: both said
    page = SOFTMAX_LINE + "\n\n" + (
        r"$$ softmax(x_i) = \frac{e^{2x_i}}{\sum^{n}_{j=1}e_{x_j}} $$")
    step = _check(page, softmax_row).steps[1]
    assert step.status == "wrong" and "with it the step is still wrong" in step.message


@pytest.mark.parametrize("page", [
    # no power e^{...} anywhere in the claim: e_{x_j} may be anything
    SOFTMAX_LINE + "\n\n" + r"$$ \frac{1}{\sum^{n}_{j=1}e_{x_j}} = \frac{1}{3} $$",
    r"$$ p_{11} = e_{1} $$",
    # e_j beside a power: the j-th unit vector as often as a slip
    SOFTMAX_LINE + "\n\n" + r"$$ \frac{e^{x_1}}{\sum^{n}_{j=1}e_{j}} = p_{11} $$",
])
def test_an_unknown_e_with_a_subscript_alone_stays_unreadable(page, softmax_row):
    step = _check(page, softmax_row).steps[-1]
    assert step.status == "unreadable" and "unknown name 'e_" in step.message


def test_the_known_names_are_listed_in_japanese():
    forward = symrow.explain(SOFTMAX, {"S": (1, 3)})
    report = _check("ソフトマックス関数の式\n\n$$ p_{11} = e^{s_{11}} / r $$", forward)
    ja = report.to_text("ja")
    assert "行列 S, P、その行 \\boldsymbol{s}_i, \\boldsymbol{p}_i、その成分 s_{ij}, p_{ij}、" \
           "大きさ m, \\ell" in ja
    assert "the matrices" not in ja and "the matrices S, P" in report.to_text("en")
