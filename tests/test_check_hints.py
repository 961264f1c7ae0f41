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
