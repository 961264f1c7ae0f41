r"""Index-notation forms of a published linear-layer derivation (robotchinwag.com).

Josh Levy-Kramer's post (``check_cases/real/robotchinwag-linear-layer-index.md``)
writes PyTorch's ``Y = XA^T + \hat{b}`` in index notation, with the repeated index
summed as its text says, and uses five forms a careful reader follows:

* the hat marks a vector, and its entries drop it: ``\hat{b}`` whole, ``b_j`` its
  entries (read so only when the page writes the letter no other way, and said in a
  note);
* the one-tensor ``\mathbf{1}_i``: with i an index (not a size) it is an entry, 1;
* a derivative of a bracket, ``\partial / \partial x_{pq} [x_{ik} c_{kj} + \mathbf{1}_i
  b_j]``: the convention sums k in the one term that repeats it;
* ``(c^T)_{jq}``: the bracket's index makes the lowercase c the whole matrix C;
* the row of ones of unwritten length, ``\begin{pmatrix} 1 & \cdots & 1
  \end{pmatrix}``, sized by the product it is in;
* ``$i == p$`` in prose is a condition, not a claim with an empty side.

Each form is held by a claim that is right and by the same claim with one slip, which
must be wrong; the numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

TARGET = r"Y = XA^T + \hat{b}"
SUMMED = "the k index is repeated, meaning it's a dummy index and we sum over it.\n\n"


def linear():
    return symrow.backward(symrow.explain(TARGET, {"X": (2, 3), "A": (4, 3)}))


def page(*lines: str, words: str = SUMMED) -> str:
    return words + "\n\n".join(f"$$\n{line}\n$$" for line in lines) + "\n"


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


DEFINE_C = "C = A^T"
FORWARD = r"y_{i j} = x_{i k}c_{k j} + \mathbf{1}_i b_j"


def test_the_entries_of_a_hatted_vector_drop_the_hat():
    report = symrow.check(page(TARGET, DEFINE_C, FORWARD), against=linear())
    assert report.verdict == "holds", report.to_text()
    assert any("b_j is read as an entry of \\hat{b}" in n for n in report.notes)


@pytest.mark.parametrize("slip", [
    r"y_{i j} = x_{i k}c_{k j} + \mathbf{1}_i b_i",          # the bias by the row
    r"y_{i j} = x_{i k}c_{j k} + \mathbf{1}_i b_j",          # C's indices swapped
    r"y_{i j} = x_{i k}c_{k j}",                             # the bias left out
])
def test_a_slip_in_the_index_form_is_wrong(slip):
    report = symrow.check(page(TARGET, DEFINE_C, slip), against=linear())
    assert statuses(report)[-1] == "wrong", report.to_text()


def test_a_hatted_vector_beside_its_own_entries_is_not_renamed():
    # \hat{b}_j and b_j on one page are two things (as \hat{y} and y are): b_j is unknown
    report = symrow.check(page(TARGET, DEFINE_C, FORWARD, r"\hat{b}_j = b_j"),
                          against=linear())
    assert report.verdict == "unreadable", report.to_text()
    assert not any("read as an entry of" in n for n in report.notes)


DERIVATIVE = (r"\frac{\partial y_{i j}}{\partial x_{p q}} = \frac{\partial}{\partial x_{p q}} "
              r"\left [x_{i k}c_{k j} + \mathbf{1}_ib_j \right] = \delta_{i p} c_{q j}")


def test_a_bracket_sums_the_index_its_one_term_repeats():
    report = symrow.check(page(TARGET, DEFINE_C, DERIVATIVE), against=linear())
    assert report.verdict == "holds", report.to_text()
    slip = DERIVATIVE.replace(r"\delta_{i p} c_{q j}", r"\delta_{i p} c_{j q}")
    assert symrow.check(page(TARGET, DEFINE_C, slip), against=linear()).verdict == "wrong"


def test_an_index_repeated_across_a_bracket_and_once_in_one_term_is_still_refused():
    # x_{ik} (c_{kj} + b_j) would sum k over a bracket one of whose terms lacks it
    report = symrow.check(page(TARGET, DEFINE_C, r"y_{i j} = x_{i k} (c_{k j} + b_j)"),
                          against=linear())
    assert statuses(report)[-1] == "unreadable", report.to_text()


TRANSPOSED = r"\frac{\partial l}{\partial x_{p q}} =\frac{\partial l}{\partial y_{p j}} (c^T)_{j q}"


def test_a_lowercase_letter_in_an_indexed_bracket_is_the_whole_matrix():
    report = symrow.check(page(TARGET, DEFINE_C, TRANSPOSED), against=linear())
    assert report.verdict == "holds", report.to_text()
    slip = TRANSPOSED.replace("(c^T)_{j q}", "(c^T)_{q j}")
    assert statuses(symrow.check(page(TARGET, DEFINE_C, slip), against=linear()))[-1] == \
        "wrong"


def test_a_lowercase_letter_alone_is_still_asked_about():
    report = symrow.check(page(TARGET, DEFINE_C, r"c^T = A"), against=linear())
    assert statuses(report)[-1] == "unreadable", report.to_text()
    assert "which row or entry of C" in report.steps[-1].message


ONES = (r"\frac{\partial l}{\partial \hat{b}} = \begin{pmatrix} 1 & \cdots & 1 "
        r"\end{pmatrix} \frac{\partial l}{\partial Y}")


def test_a_row_of_ones_takes_its_length_from_the_product():
    report = symrow.check(page(TARGET, ONES), against=linear())
    assert report.verdict == "holds", report.to_text()
    column = (r"\frac{\partial l}{\partial \hat{b}} = \frac{\partial l}{\partial Y} "
              r"\begin{pmatrix} 1 \\ \vdots \\ 1 \end{pmatrix}")
    assert symrow.check(page(TARGET, column), against=linear()).verdict == "wrong"
    zeros = ONES.replace("1 & \\cdots & 1", "0 & \\cdots & 0")
    assert symrow.check(page(TARGET, zeros), against=linear()).verdict == "wrong"


def test_the_bias_gradient_by_its_entries():
    good = r"\frac{\partial l}{\partial b_p} = \sum_i \frac{\partial l}{\partial y_{i p}}"
    report = symrow.check(page(TARGET, DEFINE_C, FORWARD, good), against=linear())
    assert report.verdict == "holds", report.to_text()
    bad = r"\frac{\partial l}{\partial b_p} = \sum_j \frac{\partial l}{\partial y_{p j}}"
    assert statuses(symrow.check(page(TARGET, DEFINE_C, FORWARD, bad), against=linear()))[-1] == \
        "wrong"


def test_a_programmers_equality_in_prose_is_not_a_claim():
    text = page(TARGET, DEFINE_C, DERIVATIVE.replace(r" = \frac{\partial}{\partial x_{p q}} \left [x_{i k}"
                                           r"c_{k j} + \mathbf{1}_ib_j \right]", ""))
    text += "\nThe tensor is only non-zero when $i == p$ due to the Kronecker delta.\n"
    report = symrow.check(text, against=linear())
    assert report.verdict == "holds", report.to_text()
    assert all("nothing on this side" not in (s.message or "") for s in report.steps)


def test_the_forms_in_numbers():
    rng = np.random.default_rng(7)
    x, a, b, g = (rng.normal(size=s) for s in ((2, 3), (4, 3), (4,), (2, 4)))
    c = a.T
    y = np.einsum("ik,kj->ij", x, c) + np.ones(2)[:, None] * b[None, :]
    assert np.allclose(y, x @ a.T + b)
    # dl/dx_pq = g_pj (c^T)_jq; dl/db_p = sum_i g_ip = (1 ... 1) G; wrong axis differs
    assert np.allclose(np.einsum("pj,jq->pq", g, c.T), g @ a)
    assert np.allclose(np.ones(2) @ g, g.sum(axis=0))
    assert not np.allclose(g.sum(axis=1)[:2], g.sum(axis=0)[:2])
    # the derivative of the bracket: d y_ij / d x_pq = delta_ip c_qj
    eps, p, q = 1e-6, 1, 2
    bumped = x.copy()
    bumped[p, q] += eps
    dy = ((bumped @ a.T + b) - y) / eps
    want = np.array([[float(i == p) * c[q, j] for j in range(4)] for i in range(2)])
    assert np.allclose(dy, want, atol=1e-5)
