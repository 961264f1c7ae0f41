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
