r"""A page's own loss gives the upstream gradient of a backward pass its value.

Published derivations of the softmax's gradient start from a loss in labels of their own
(yanfenglee-softmax-ce-derivative: ``L = -\sum_k y_k \log a_k``, then six steps to
``\partial L / \partial z_i = a_i - y_i``).  symrow's backward pass leaves the upstream
gradient general, so every such step used to be unreadable (the labels are no name of the
check's).  Now the loss, written in the entries of the derivation's result and in labels
of the page's own, is read with the result's entries, the labels free; the upstream
gradient is its derivative by the result (here ``-y_k / a_k``), in every line after, and a
note says so.  The labels of a cross-entropy (a loss ``-c \sum y \log a``, c > 0) are a
distribution, one-hot or any: each row of them sums to 1, which the last step uses.

``\log`` (and ``\ln``) is the natural logarithm, a function applied entry by entry, one
module of its own (``symrow.derive.readings.log``), read by ``explain`` and ``check``
alike, with or without brackets around one factor (``\log a_k``).

Each form has a claim that is right and the same claim with one slip; the numbers are
confirmed in numpy at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def softmax_backward(rows: int = 1):
    return symrow.backward(symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (rows, 3)}))


def statuses(page: str, d) -> list:
    return [s.status for s in symrow.check(page, d).steps]


CE = "$$L = -\\sum_k t_k \\log y_k$$\n\n$$ %s $$\n"


@pytest.mark.parametrize("claim, status", [
    (r"\frac{\partial L}{\partial y_k} = -\frac{t_k}{y_k}", "holds"),
    (r"\frac{\partial L}{\partial y_k} = \frac{t_k}{y_k}", "wrong"),            # the sign
    (r"\frac{\partial L}{\partial x_i} = y_i - t_i", "holds"),
    (r"\frac{\partial L}{\partial x_i} = t_i - y_i", "wrong"),                  # reversed
    (r"\frac{\partial L}{\partial x_i} = -\sum_k t_k \frac{1}{y_k} "
     r"\frac{\partial y_k}{\partial x_i}", "holds"),
    (r"\frac{\partial L}{\partial x_1} = -t_1(1 - y_1) + \sum_{k \neq 1} t_k y_1", "holds"),
    (r"\frac{\partial L}{\partial x_1} = -t_1(1 - y_1) - \sum_{k \neq 1} t_k y_1", "wrong"),
    (r"y_1 \sum_k t_k - t_1 = y_1 - t_1", "holds"),           # the labels sum to 1
])
def test_a_cross_entropy_gives_the_upstream_its_value(claim, status):
    report = symrow.check(CE % claim, softmax_backward())
    assert [s.status for s in report.steps] == [status], report.to_text()
    text = report.to_text()
    assert "the page's loss L = -\\sum_k t_k \\log y_k gives the upstream gradient" in text
    assert "they sum to 1, as the labels of a cross-entropy do" in text
    assert "ページの損失" in report.to_text(lang="ja")


@pytest.mark.parametrize("claim", [r"\frac{\partial L}{\partial x_1} = y_1 - 1",
                                   r"\frac{\partial L}{\partial x_1} = y_1 + 1"])
def test_a_gradient_for_particular_labels_is_not_read(claim):
    """y_1 - 1 is the gradient where the labels are one-hot at the first class, which the
    page does not say here: not read (and y_1 + 1, a slip, is never "holds")."""
    report = symrow.check(CE % claim, softmax_backward())
    assert [s.status for s in report.steps] == ["unreadable"], report.to_text()
    assert "the labels t of the page's own loss" in report.steps[0].message
    assert "ページ独自の損失のラベル t" in report.to_text(lang="ja")


def test_the_labels_free_entries_are_shown_as_the_page_writes_them():
    report = symrow.check(CE % r"\frac{\partial L}{\partial x_1} = t_1 - y_1",
                          softmax_backward())
    assert "t_{1}" in report.to_text() and "page}" not in report.to_text()


MSE = "$$L = \\frac{1}{2}\\sum_k (y_k - t_k)^2$$\n\n$$ %s $$\n"


@pytest.mark.parametrize("claim, status", [
    (r"\frac{\partial L}{\partial y_k} = y_k - t_k", "holds"),
    (r"\frac{\partial L}{\partial y_k} = t_k - y_k", "wrong"),
    (r"\frac{\partial L}{\partial x_i} = y_i - t_i", "wrong"),    # only a cross-entropy's
    (r"y_1 \sum_k t_k - t_1 = y_1 - t_1", "wrong"),              # no distribution here
])
def test_another_loss_gives_its_own_gradient_and_no_distribution(claim, status):
    report = symrow.check(MSE % claim, softmax_backward())
    assert [s.status for s in report.steps] == [status], report.to_text()
    assert "they sum to 1" not in report.to_text()


BATCH = ("$$L = -\\frac{1}{m}\\sum_{i=1}^{m}\\sum_{k=1}^{\\ell} T_{ik} \\log Y_{ik}$$\n\n"
         "$$ %s $$\n")


@pytest.mark.parametrize("claim, status", [
    (r"\frac{\partial L}{\partial X} = \frac{1}{m}(Y - T)", "holds"),
    (r"\frac{\partial L}{\partial X} = Y - T", "wrong"),          # the mean's 1/m dropped
])
def test_a_batch_of_labels_each_row_a_distribution(claim, status):
    assert statuses(BATCH % claim, softmax_backward(2)) == [status]


def test_a_line_that_is_no_loss_of_the_result_binds_nothing():
    page = ("$$L = -\\sum_k t_k \\log s_k$$\n\n"
            "$$\\frac{\\partial L}{\\partial x_1} = y_1 - t_1$$\n")
    report = symrow.check(page, softmax_backward())
    assert "gives the upstream gradient" not in report.to_text()
    assert report.verdict != "holds"


@pytest.mark.parametrize("claim, status", [
    (r"\log y_1 = x_1 - \log(e^{x_1} + e^{x_2} + e^{x_3})", "holds"),
    (r"\log y_1 + \log y_2 = \log(y_1 y_2)", "holds"),
    (r"\ln y_1 = x_1", "wrong"),
])
def test_the_logarithm_is_read_with_or_without_brackets(claim, status):
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 3)})
    assert statuses(f"$$ {claim} $$\n", d) == [status]


def test_a_logarithm_without_brackets_before_a_product_is_refused():
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 3)})
    report = symrow.check("$$ \\log y_1 y_2 = 0 $$\n", d)
    assert report.verdict == "unreadable"
    assert "it is unclear how far the argument reaches" in report.to_text()
    assert "引数がどこまでか分からない" in report.to_text(lang="ja")


def test_explain_reads_the_logarithm_entry_by_entry():
    d = symrow.explain(r"\log(X) W", {"X": (1, 2), "W": (2, 1)})
    x11, x12 = d.operands["X"].matrix
    w11, w21 = d.operands["W"].matrix
    import sympy
    assert sympy.simplify(d.result[0, 0] - (sympy.log(x11) * w11 + sympy.log(x12) * w21)) == 0


def test_log_typed_as_letters_before_a_bracket_is_the_logarithm():
    page = "$$L = -\\sum_k t_k log(y_k)$$\n\n$$ \\frac{\\partial L}{\\partial x_i} = %s $$\n"
    assert statuses(page % "y_i - t_i", softmax_backward()) == ["holds"]
    assert statuses(page % "t_i - y_i", softmax_backward()) == ["wrong"]


def test_a_published_derivation_in_its_own_size_and_labels_holds():
    r"""ningyuwhut-softmax-ce-gradient-zh: the loss J = -\sum_{i=1}^V y_i log (\hat y_i), its
    size V (the length of \theta, from its sums) and labels y of its own; it was unreadable
    at 14 of its 17 claims."""
    from pathlib import Path
    page = (Path(__file__).parent / "check_cases" / "real" /
            "ningyuwhut-softmax-ce-gradient-zh.md").read_text(encoding="utf-8")
    d = symrow.backward(symrow.explain(r"\hat{Y} = \mathrm{softmax}(\Theta)", {r"\Theta": (1, 3)}))
    report = symrow.check(page, d)
    assert report.verdict == "holds", report.to_text()
    assert len(report.steps) == 17
    slip = page.replace(r"= \hat y_k-y_k", r"= y_k-\hat y_k")
    assert slip != page
    assert symrow.check(slip, d).verdict == "wrong"


# -- the numbers ----------------------------------------------------------------------------------

def test_the_losses_in_numbers():
    rng = np.random.default_rng(25)
    x = rng.normal(size=3)
    t = rng.dirichlet(np.ones(3))                         # a distribution
    y = np.exp(x) / np.exp(x).sum()
    jac = np.diag(y) - np.outer(y, y)                     # [k, i] = d y_k / d x_i

    def num_grad(f, v, h=1e-6):
        return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(len(v))])

    ce = lambda x_: -np.sum(t * np.log(np.exp(x_) / np.exp(x_).sum()))
    assert np.allclose(num_grad(ce, x), y - t, atol=1e-6)
    assert not np.allclose(num_grad(ce, x), t - y, atol=1e-6)
    assert np.allclose(-(t / y) @ jac, y - t)
    onehot = np.eye(3)[0]                                 # y_1 - 1: the first class's
    assert np.isclose((y - onehot)[0], y[0] - 1) and not np.isclose((y - t)[0], y[0] - 1)
    assert np.isclose(-t[0] * (1 - y[0]) + sum(t[k] * y[0] for k in (1, 2)), y[0] - t[0])
    assert not np.isclose(-t[0] * (1 - y[0]) - sum(t[k] * y[0] for k in (1, 2)), y[0] - t[0])
    mse = lambda x_: 0.5 * np.sum((np.exp(x_) / np.exp(x_).sum() - t) ** 2)
    assert np.allclose(num_grad(mse, x), (y - t) @ jac)
    assert not np.allclose(num_grad(mse, x), y - t, atol=1e-4)
    u = rng.normal(size=3)                                # labels that sum to anything
    assert not np.isclose(y[0] * u.sum() - u[0], y[0] - u[0])
    X = rng.normal(size=(2, 3))
    T = rng.dirichlet(np.ones(3), size=2)
    P = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    batch = lambda X_: -np.sum(T * np.log(np.exp(X_) / np.exp(X_).sum(axis=1,
                                                                       keepdims=True))) / 2
    g = num_grad(lambda v: batch(v.reshape(2, 3)), X.ravel()).reshape(2, 3)
    assert np.allclose(g, (P - T) / 2, atol=1e-6) and not np.allclose(g, P - T, atol=1e-3)
