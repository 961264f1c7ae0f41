"""Hints in the student's terms (issue 25): a wrong step names the usual mistake when
undoing it makes the step hold: a dropped ReLU mask, a bias gradient summed along the
wrong axis or not summed, combine for match, a missing 1/√d, in English and Japanese."""

from __future__ import annotations

import pytest

import symrow

from test_check_writer import MLP, MLP_PAGE

pytestmark = pytest.mark.parsers("builtin")

DB = r"\sum_i \left(\frac{dL}{dZ}\right)_i"


@pytest.fixture(scope="module")
def mlp():
    # m = 3 points, 4 hidden units: the two axes of the bias gradient differ
    return symrow.backward(MLP, {"X": (3, 2), "W_1": (2, 4), "W_2": (4, 2)})


def hint_of(page, against, lang="en"):
    report = symrow.check(page, against, lang=lang)
    wrong = [s for s in report.steps if s.status == "wrong"]
    assert len(wrong) == 1, report.to_text()
    return (wrong[0].detail or {}).get("hints", []), report


def test_a_dropped_relu_mask_is_named(mlp):
    page = MLP_PAGE.replace(r"\frac{dL}{dH} \odot \mathrm{ReLU}'(Z)", r"\frac{dL}{dH}")
    hints, report = hint_of(page, mlp)
    assert hints and "ReLU mask is missing" in hints[0]
    assert "ReLU のマスクが抜けている" in report.to_text("ja")


@pytest.mark.parametrize("wrong, says", [
    (r"\frac{dL}{dZ} \mathbf{1}", "sums along each row instead (a 3 x 1 column)"),
    (r"\frac{dL}{dZ}", "adds up all their shares"),
])
def test_a_bias_gradient_on_the_wrong_axis_is_named(mlp, wrong, says):
    hints, report = hint_of(MLP_PAGE.replace(DB, wrong), mlp)
    assert hints and says in hints[0], report.to_text()
    assert "バイアス行の勾配" in report.to_text("ja")


def test_the_right_bias_gradient_holds(mlp):
    assert symrow.check(MLP_PAGE, mlp).verdict == "holds"


def test_combine_for_match_is_named_in_both_languages():
    d = symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
    hints, report = hint_of("$$c_{12} = a_{11} b_{12} + a_{12} b_{22}$$", d)
    assert "combine rule" in hints[0]
    assert "結合の規則" in report.to_text("ja") and "照合" in report.to_text("ja")


# -- attention: the 1/√d and the softmax's Jacobian, as a student writes them ------------------

ATTENTION = r"\mathrm{softmax}(QK^T/\sqrt{d})V"
RS = r"\operatorname{rowsum}(P \odot \bar{P})"
JACOBIAN = r"P \odot \left(\bar{P} - " + RS + r"\right)"
ATTENTION_PAGE = r"""# Backprop through attention

$$
\begin{aligned}
\frac{\partial L}{\partial V} &= P^\top \frac{\partial L}{\partial O} \\
\frac{\partial L}{\partial P} &= \frac{\partial L}{\partial O} V^\top \\
\frac{\partial L}{\partial S} &= \frac{1}{\sqrt{d}} P \odot \left(\bar{P} - """ + RS + r"""\right) \\
\frac{\partial L}{\partial Q} &= \frac{1}{\sqrt{d}} \left(""" + JACOBIAN + r"""\right) K \\
\frac{\partial L}{\partial K} &= \bar{S}^\top Q
\end{aligned}
$$
"""
SBAR = r"\frac{1}{\sqrt{d}} P \odot \left(\bar{P} - " + RS + r"\right) \\"
QBAR = r"\frac{1}{\sqrt{d}} \left(" + JACOBIAN + r"\right) K \\"


@pytest.fixture(scope="module")
def attention():
    # d = 3 keeps √d irrational: a dropped 1/√d cannot hide in a rational coefficient
    return symrow.backward(ATTENTION, {"Q": (2, 3), "K": (2, 3), "V": (2, 2)})


def test_the_attention_backward_page_holds(attention):
    assert symrow.check(ATTENTION_PAGE, attention).verdict == "holds"


@pytest.mark.parametrize("old, new", [
    (SBAR, r"P \odot \left(\bar{P} - " + RS + r"\right) \\"),
    (QBAR, r"\left(" + JACOBIAN + r"\right) K \\"),
])
def test_a_missing_one_over_root_d_in_the_gradient_is_named(attention, old, new):
    hints, report = hint_of(ATTENTION_PAGE.replace(old, new), attention)
    assert hints and hints[0].startswith(
        "the 1/\\sqrt{d} of the scores is missing in the gradient"), report.to_text()
    # in the page's names or plain words: no internal name of the derivation
    assert "\\bar{H}" not in hints[0] and "G" not in hints[0]
    assert "勾配にスコアの 1/\\sqrt{d} が抜けている" in report.to_text("ja")


def test_an_extra_one_over_root_d_in_the_gradient_is_named(attention):
    page = ATTENTION_PAGE.replace(r"\bar{S}^\top Q", r"\frac{1}{\sqrt{d}} \bar{S}^\top Q")
    hints, report = hint_of(page, attention)
    assert hints and "one 1/\\sqrt{d} too many" in hints[0], report.to_text()
    # the same product scaled differently is not "the factors in the wrong order"
    assert not any("wrong order" in h for h in hints)
    assert "1/\\sqrt{d} が1つ多い" in report.to_text("ja")


ELEMENTWISE = "the softmax's Jacobian has a second term, -p_{ij} \\sum_k p_{ik} \\bar{p}_{ik}"


@pytest.mark.parametrize("old, new, tail", [
    (SBAR, r"\frac{1}{\sqrt{d}} P \odot \bar{P} \\", False),
    (SBAR, r"\frac{1}{\sqrt{d}} \bar{P} \odot P \\", False),
    (SBAR, r"P \odot \bar{P} \\", True),
    (QBAR, r"\frac{1}{\sqrt{d}} (P \odot \bar{P}) K \\", False),
])
def test_a_softmax_treated_element_wise_is_named(attention, old, new, tail):
    hints, report = hint_of(ATTENTION_PAGE.replace(old, new), attention)
    assert hints and hints[0].startswith(ELEMENTWISE), report.to_text()
    assert "weighted mean" in hints[0]
    assert hints[0].endswith("the 1/\\sqrt{d} of the scores is missing too") == tail
    assert "softmax のヤコビアンには2つ目の項" in report.to_text("ja")


@pytest.mark.parametrize("old, new", [
    (SBAR, r"\frac{1}{\sqrt{d}} P \odot \left(\bar{P} + " + RS + r"\right) \\"),
    (QBAR, r"\frac{1}{\sqrt{d}} \left(P \odot \left(\bar{P} + " + RS + r"\right)\right) K \\"),
])
def test_a_sign_error_in_the_softmax_jacobian_is_named(attention, old, new):
    hints, report = hint_of(ATTENTION_PAGE.replace(old, new), attention)
    assert hints and hints[0].startswith(
        "the sign of the softmax Jacobian's second term is wrong"), report.to_text()
    assert "符号が違う" in report.to_text("ja")


def test_another_wrong_jacobian_gets_no_softmax_hint(attention):
    # twice the second term: neither mistake explains it, so neither is named
    page = ATTENTION_PAGE.replace(SBAR, r"\frac{1}{\sqrt{d}} P \odot \left(\bar{P} - 2"
                                  + RS + r"\right) \\")
    hints, _ = hint_of(page, attention)
    assert not any("Jacobian" in h for h in hints)


# -- forward: a softmax entry by entry, with no denominator ---------------------------------------

@pytest.mark.parametrize("page, tail", [
    (r"$$P = \exp(S/\sqrt{d})$$", False),
    (r"$$p_{ij} = e^{s_{ij}/\sqrt{d}}$$", False),
    (r"$$P = \exp(S)$$", True),
])
def test_a_softmax_without_its_row_sum_is_named(page, tail):
    hints, report = hint_of(page, symrow.attention(2, 3, 2))
    assert hints and hints[0].startswith(
        "each row of P is divided by its sum \\sum_j e^{s_{ij}}"), report.to_text()
    assert ("each exponent is divided by \\sqrt{2}" in hints[0]) == tail
    assert "P の各行はその和" in report.to_text("ja")


def test_the_softmax_with_its_row_sum_holds():
    page = r"$$p_{ij} = \frac{e^{s_{ij}/\sqrt{d}}}{\sum_{k} e^{s_{ik}/\sqrt{d}}}$$"
    assert symrow.check(page, symrow.attention(2, 3, 2)).verdict == "holds"
