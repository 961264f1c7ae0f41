r"""Forms of published derivations that were new to symrow's checker (a held-out set).

Four pages added to ``check_cases/real/`` showed seven forms a careful reader follows:

* ``\sum_{ij}`` (annp0-matmul-index-backward): the indices of a double sum run
  together, a sum over i and over j, as ``\sum_{i,j}``;
* ``\dfrac{\partial}{\partial x_{mn}} w_{ia}x_{aj}`` (the same page): a derivative
  written without brackets takes the product of entries after it, to the end of the
  term; followed by anything else it is still not read;
* a page that writes its own loss out (chicm-softmax-ce-gradient:
  ``L = -\sum_i y_i \log p_i``, then ``\partial L/\partial o_k = p_k - 1``): a gradient
  with no upstream gradient in it follows from that loss, which symrow's backward pass
  leaves general, so it is not read (it was called wrong; "not checked" would let a
  slip pass as a page that holds); claims in terms of the
  upstream gradient are still judged, and without a loss written out a gradient that
  forgot its upstream is still wrong;
* differentials (frobenius-linear-backprop: ``dL = \frac{\partial L}{\partial Y} : dY``,
  ``dY = dX W + X dW``): on a page that writes dL, the differential of the loss, dX and
  dW are differentials, not CS231n's gradients; a claim in them that differs in value is
  not read (the right product rule was called wrong), and one whose product is
  undefined is still wrong (a differential has its matrix's shape, as a gradient does);
* boxes side by side (chicm: ``p = \boxed{0.090}\boxed{0.245}\boxed{0.665}``, a row
  drawn as cells): not a product of framed results (it was read as one, and a later
  claim could hold against the product); refused, while one \boxed{...} is still read;
* ``Attention(K, Q, V) = softmax(QK^T/\sqrt{d_k})V`` against a backward pass
  (goubasarian-attention-backprop): the heading names the forward function by its
  arguments' names, and its value is the forward result O (it was read as a call with the
  arguments in their places, and called wrong);
* ``B_3 = B_2^{-1}`` of a column (the same page, whose code writes ``B2 ** -1``): a
  vector has no inverse and the reciprocal of each entry is most likely meant, so the
  claim is not judged (it was called wrong); a power of a matrix that is not square and
  not a vector is still wrong.

Each form is held by a claim that is right and the same claim with one slip; the
numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def matmul():
    return symrow.backward(symrow.explain("Y = WX", {"W": (2, 3), "X": (3, 4)}))


def softmax_row():
    return symrow.backward(symrow.explain(r"P = \mathrm{softmax}(O)", {"O": (1, 3)}))


def page(*lines: str) -> str:
    return "\n\n".join(f"$$\n{line}\n$$" for line in lines) + "\n"


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


# -- \sum_{ij} -----------------------------------------------------------------------------

CHAIN = r"\dfrac{\partial L}{\partial x_{mn}} = \sum_{ij}\dfrac{\partial L}{\partial y_{ij}}" \
        r"w_{im}\delta_{n,j}"


def test_indices_run_together_under_a_sum_are_a_double_sum():
    report = symrow.check(page(CHAIN + r" = \sum_{i}\dfrac{\partial L}{\partial y_{in}}w_{im}"),
                          against=matmul())
    assert statuses(report) == ["holds", "holds"], report.to_text()


@pytest.mark.parametrize("slip", [
    r" = \sum_{i}\dfrac{\partial L}{\partial y_{im}}w_{in}",    # m and n swapped
    r" = \sum_{i}\dfrac{\partial L}{\partial y_{in}}w_{mi}",    # W's indices swapped
])
def test_a_slip_after_a_double_sum_is_wrong(slip):
    report = symrow.check(page(CHAIN + slip), against=matmul())
    assert statuses(report) == ["holds", "wrong"], report.to_text()


def test_a_repeated_letter_is_not_read_as_a_double_sum():
    report = symrow.check(page(r"\dfrac{\partial L}{\partial x_{mn}} = \sum_{ii}"
                               r"\dfrac{\partial L}{\partial y_{in}}w_{im}"), against=matmul())
    assert report.verdict == "unreadable", report.to_text()


# -- a derivative without brackets ---------------------------------------------------------

BARE = r"\sum_a\dfrac{\partial}{\partial x_{mn}}w_{ia}x_{aj}"


def test_a_derivative_without_brackets_takes_the_product_of_entries_after_it():
    report = symrow.check(page(BARE + r" = \sum_a w_{ia}\delta_{m,a}\delta_{n,j}"
                                      r" = w_{im}\delta_{n,j}"), against=matmul())
    assert statuses(report) == ["holds", "holds"], report.to_text()


@pytest.mark.parametrize("slip", [
    r" = w_{im}\delta_{m,j}",           # the delta by the wrong index
    r" = w_{im}",                       # the delta left out
    r" = x_{mj}",                       # the other factor
])
def test_a_slip_after_a_derivative_without_brackets_is_wrong(slip):
    report = symrow.check(page(BARE + slip), against=matmul())
    assert statuses(report) == ["wrong"], report.to_text()


def test_a_derivative_without_brackets_before_more_is_still_not_read():
    # what follows the entries is not an entry: where the operator ends is not clear
    report = symrow.check(page(r"\dfrac{\partial}{\partial x_{mn}}w_{ia}(x_{aj} + x_{aj})"
                               r" = 2 w_{im}\delta_{n,j}"), against=matmul())
    assert report.verdict == "unreadable", report.to_text()
    assert "in brackets" in report.to_text()


# -- the page's own loss ----------------------------------------------------------------------

LOSS = r"L = -\sum_{i} y_i \log(p_i)"
UPSTREAM = r"\dfrac{\partial L}{\partial o_{1k}} = p_{1k}\left(\dfrac{\partial L}{\partial " \
           r"p_{1k}} - \sum_{j} p_{1j}\dfrac{\partial L}{\partial p_{1j}}\right)"


def test_a_gradient_of_the_page_s_own_loss_is_not_checked():
    for claim in (r"\dfrac{\partial L}{\partial o_{1k}} = p_{1k} - 1",
                  r"\dfrac{\partial L}{\partial o_{1k}} = p_{1k} + 1"):
        report = symrow.check(page(LOSS, claim), against=softmax_row())
        assert statuses(report) == ["unreadable"], report.to_text()
        assert "the page's own loss" in report.steps[0].message
        assert report.verdict == "unreadable"      # never "holds": p + 1 is wrong


def test_a_gradient_in_the_upstream_is_judged_with_the_page_s_loss():
    report = symrow.check(page(LOSS, UPSTREAM), against=softmax_row())
    assert statuses(report) == ["holds"], report.to_text()
    slipped = UPSTREAM.replace(r"- \sum_{j}", r"+ \sum_{j}")
    report = symrow.check(page(LOSS, slipped), against=softmax_row())
    assert statuses(report) == ["wrong"], report.to_text()


def test_without_a_loss_written_out_a_gradient_without_upstream_is_wrong():
    report = symrow.check(page(r"\dfrac{\partial L}{\partial o_{1k}} = p_{1k} - 1"),
                          against=softmax_row())
    assert statuses(report) == ["wrong"], report.to_text()
    report = symrow.check(page(r"L = \ell(P)", r"\dfrac{\partial L}{\partial o_{1k}} = "
                                               r"p_{1k} - 1"), against=softmax_row())
    assert "wrong" in statuses(report), report.to_text()


# -- differentials --------------------------------------------------------------------------

def linear():
    return symrow.backward(symrow.explain("Y = XW", {"X": (2, 3), "W": (3, 4)}))


DL = r"dL = \frac{\partial L}{\partial Y} : dY"


def test_differentials_on_a_page_that_writes_dl_are_not_read_as_gradients():
    # the product rule, right: read as gradients (dX for \bar{X}) it was called wrong
    report = symrow.check(page(DL, r"dY = dX W + X dW"), against=linear())
    assert "wrong" not in statuses(report), report.to_text()
    assert any("d marks a differential" in s.message for s in report.steps)
    # a slip in a differential is not read either: the page never "holds" on it
    slipped = symrow.check(page(DL, r"dY = dX W"), against=linear())
    assert slipped.verdict == "unreadable", slipped.to_text()


def test_a_differential_whose_product_is_undefined_is_still_wrong():
    # W dX for X dW: W is 3 x 4, dX 2 x 3, whatever d means
    report = symrow.check(page(DL, r"dY = dX W + W dX"), against=linear())
    assert statuses(report)[-1] == "wrong", report.to_text()
    assert "undefined" in report.steps[-1].message


def test_without_dl_the_d_names_are_still_gradients():
    report = symrow.check(page(r"dX = dY W^T", r"dW = X^T dY"), against=linear())
    assert statuses(report) == ["holds", "holds"], report.to_text()
    report = symrow.check(page(r"dW = X^T dY W^T W"), against=linear())
    assert statuses(report) == ["wrong"], report.to_text()
    report = symrow.check(page(r"\frac{dL}{dX} = dY W^T"), against=linear())
    assert "unchecked" not in statuses(report), report.to_text()


# -- Attention(K, Q, V) and B_2^{-1} against a backward pass (goubasarian) ---------------------

def attention_backward():
    return symrow.backward(symrow.attention(m=3, n=3, d=2))


@pytest.mark.parametrize("heading", [r"Attention(K, Q, V)", r"Attention(Q, K, V)"])
def test_a_heading_names_the_forward_function_in_a_backward_check(heading):
    # the arguments by name, the value the forward result O (not the gradient derived)
    report = symrow.check(page(heading + r" = softmax(\frac{QK^T}{\sqrt{d_k}})V"),
                          against=attention_backward())
    assert statuses(report) == ["holds"], report.to_text()


@pytest.mark.parametrize("slip", [
    r"Attention(K, Q, V) = softmax(\frac{KQ^T}{\sqrt{d_k}})V",    # the scores transposed
    r"Attention(K, Q, V) = softmax(\frac{QK^T}{d_k})V",            # the root dropped
    r"Attention(Q, K, V) = softmax(\frac{QK^T}{\sqrt{d_k}})K",     # K for V
])
def test_a_slipped_heading_in_a_backward_check_is_wrong(slip):
    report = symrow.check(page(slip), against=attention_backward())
    assert statuses(report) == ["wrong"], report.to_text()


def test_a_negative_power_of_a_vector_is_not_judged():
    # B_3 = B_2^{-1} for a column B_2 = B_1 1_n (the page's code: B2 ** -1, entry by entry)
    report = symrow.check(page(r"(P\mathbf{1}_3)^{-1} = P\mathbf{1}_3"),
                          against=attention_backward())
    assert statuses(report) == ["unchecked"], report.to_text()
    assert "negative power of a vector" in report.steps[0].message


def test_a_power_of_a_matrix_that_is_not_square_is_still_wrong():
    report = symrow.check(page(r"(QK^T V)^{-1} = V"), against=attention_backward())
    assert statuses(report) == ["wrong"], report.to_text()


# -- a row drawn as boxed cells (chicm) -----------------------------------------------------

def test_boxes_side_by_side_are_a_drawn_row_not_a_product():
    # p = \boxed{0.5}\boxed{0.5} was read as p = 0.25, and p = 0.25 then held
    report = symrow.check(page(r"p = \boxed{0.5}\boxed{0.5}", r"p = 0.25"),
                          against=softmax_row())
    assert statuses(report)[0] == "unreadable", report.to_text()
    assert "boxes side by side" in report.steps[0].message
    assert "holds" not in statuses(report), report.to_text()


def test_one_boxed_result_is_still_read():
    report = symrow.check(page(r"\boxed{\dfrac{\partial L}{\partial o_{1k}} = p_{1k}\left("
                               r"\dfrac{\partial L}{\partial p_{1k}} - \sum_{j} p_{1j}"
                               r"\dfrac{\partial L}{\partial p_{1j}}\right)}"),
                          against=softmax_row())
    assert statuses(report) == ["holds"], report.to_text()
    report = symrow.check(page(r"\boxed{\dfrac{\partial L}{\partial o_{1k}} = p_{1k}\left("
                               r"\dfrac{\partial L}{\partial p_{1k}} + \sum_{j} p_{1j}"
                               r"\dfrac{\partial L}{\partial p_{1j}}\right)}"),
                          against=softmax_row())
    assert statuses(report) == ["wrong"], report.to_text()


# -- the numbers ------------------------------------------------------------------------------

def test_the_forms_in_numbers():
    rng = np.random.default_rng(7)
    w, x, g = rng.normal(size=(2, 3)), rng.normal(size=(3, 4)), rng.normal(size=(2, 4))
    # \sum_{ij} ∂L/∂y_ij w_im δ_nj = Σ_i ∂L/∂y_in w_im = (W^T G)_mn
    double = np.einsum("ij,im,nj->mn", g, w, np.eye(4))
    assert np.allclose(double, w.T @ g) and not np.allclose(double, (w.T @ g)[:, ::-1])
    # ∂(w_ia x_aj)/∂x_mn summed over a: w_im δ_nj
    eps = 1e-6
    for m, n in ((0, 1), (2, 3)):
        e = np.zeros_like(x)
        e[m, n] = eps
        jac = ((w @ (x + e)) - (w @ (x - e))) / (2 * eps)          # [i, j]
        assert np.allclose(jac, np.outer(w[:, m], np.eye(4)[n]))
    # cross-entropy after softmax: ∂L/∂o = p - y (p_k - 1 at the class k, not p_k + 1)
    o, y = rng.normal(size=3), np.eye(3)[1]
    soft = lambda v: np.exp(v) / np.exp(v).sum()
    loss = lambda v: -np.sum(y * np.log(soft(v)))
    grad = np.array([(loss(o + eps * np.eye(3)[k]) - loss(o - eps * np.eye(3)[k])) / (2 * eps)
                     for k in range(3)])
    assert np.allclose(grad, soft(o) - y) and np.isclose(grad[1], soft(o)[1] - 1)
    # the differential of XW: dX W + X dW to first order; W dX undefined
    x, w = rng.normal(size=(2, 3)), rng.normal(size=(3, 4))
    dx, dw = 1e-7 * rng.normal(size=(2, 3)), 1e-7 * rng.normal(size=(3, 4))
    assert np.allclose((x + dx) @ (w + dw) - x @ w, dx @ w + x @ dw, atol=1e-12)
    with pytest.raises(ValueError):
        w @ dx
