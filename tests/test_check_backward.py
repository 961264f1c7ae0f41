r"""Checking a student's gradients against the backward pass (``check --backward``).

Gradients are written the many ways people write them (\frac{\partial L}{\partial X},
\partial L / \partial X, {\partial L \over \partial X}, \nabla_X L, G_X, \delta_X,
\bar{X}), for matrices, rows and entries; a wrong one gets a hint that names the
right gradient.  Each case is small: the checker's own cost is measured in
tests/bench_check.py.
"""

from __future__ import annotations

import pytest

import symrow

from test_cli import run

ATTENTION = r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V"


def linear():
    return symrow.backward("Y = XW", {"X": (2, 3), "W": (3, 2)})


def verdicts(report) -> list[str]:
    return [step.status for step in report.steps]


def hints(report) -> list[str]:
    return [h for step in report.steps for h in (step.detail or {}).get("hints", ())]


def test_gradients_as_a_textbook_writes_them_hold():
    page = r"""For $Y = XW$ the gradients are
\[ \frac{\partial L}{\partial X} = \frac{\partial L}{\partial Y} W^\top, \qquad
   \frac{\partial L}{\partial W} = X^\top \frac{\partial L}{\partial Y}. \]
Row by row, $\frac{\partial L}{\partial \boldsymbol{w}_k} = \sum_{i=1}^{m} x_{ik}
\frac{\partial L}{\partial \boldsymbol{y}_i}$ and
$\frac{\partial L}{\partial x_{ij}} = \bar{\boldsymbol{y}}_i \cdot \boldsymbol{w}_j$.
"""
    report = symrow.check(page, against=linear())
    assert report.verdict == "holds", report.to_text()
    assert verdicts(report) == ["holds"] * 5


@pytest.mark.parametrize("claim", [
    r"\nabla_X L = \nabla_S L \, X + (\nabla_S L)^\top X",
    r"\partial L / \partial X = {\partial L \over \partial S} X + \bar{S}^T X",
    r"\delta_X = \dfrac{\partial \mathcal{L}}{\partial S}X + \delta_S^\top X",
    r"G_X = G_S X + G_S^T X",
])
def test_every_way_of_writing_a_gradient_is_read(claim):
    against = symrow.backward(r"S = XX^\top", {"X": (2, 3)})
    report = symrow.check(f"$${claim}$$", against=against)
    assert verdicts(report) == ["holds"], report.to_text()


def test_a_wrong_claim_written_the_same_way_is_wrong():
    against = symrow.backward(r"S = XX^\top", {"X": (2, 3)})
    report = symrow.check(r"$$\nabla_X L = 2 \nabla_S L \, X$$", against=against)
    assert verdicts(report) == ["wrong"], report.to_text()


def test_factors_in_the_wrong_order_get_the_right_gradient_as_hint():
    page = r"""\begin{align*}
\bar{X} &= W^\top \bar{Y} \\
\bar{W} &= X^\top \bar{Y}
\end{align*}"""
    report = symrow.check(page, against=linear())
    assert verdicts(report) == ["wrong", "holds"]
    assert hints(report) == [
        "the factors are in the wrong order or transposed: the gradient of X has the "
        "shape of X, and it is \\bar{Y}W^T, not W^T\\bar{Y}"]


def test_the_wrong_factor_of_the_product_is_named():
    report = symrow.check(r"$$G_X = G_Y W^T, \quad G_W = W^T G_Y$$", against=linear())
    assert verdicts(report) == ["holds", "wrong"], report.to_text()
    assert hints(report) == ["the gradient of W is X^T\\bar{Y}: it takes X where this has W"]


def test_one_share_of_a_matrix_used_twice_is_explained():
    against = symrow.backward(r"S = XX^\top", {"X": (2, 3)})
    report = symrow.check(r"\[ \bar{X} = \bar{S} X \]", against=against)
    assert verdicts(report) == ["wrong"]
    [hint] = hints(report)
    assert hint.startswith("X is used 2 times")
    assert hint.endswith("\\bar{X} = \\bar{S}X + \\bar{S}^TX")


def test_attention_backward_as_a_student_writes_it():
    page = r"""# Backprop through attention

$$
\begin{aligned}
\frac{\partial L}{\partial V} &= P^\top \frac{\partial L}{\partial O} \\
\frac{\partial L}{\partial P} &= \frac{\partial L}{\partial O} V^\top \\
\frac{\partial L}{\partial S} &= \frac{1}{\sqrt{d}} P \odot \left(\bar{P} -
    \operatorname{rowsum}(P \odot \bar{P})\right) \\
\bar{Q} &= \bar{S} K \\
\bar{K} &= \bar{S} Q
\end{aligned}
$$
"""
    against = symrow.backward(ATTENTION, {"Q": (2, 2), "K": (2, 2), "V": (2, 2)})
    report = symrow.check(page, against=against)
    assert verdicts(report) == ["holds"] * 4 + ["wrong"], report.to_text()
    wrong = report.steps[-1]
    # the difference is shown in the entries of S̄ and Q, not as the opaque k̄₁₁
    assert wrong.detail["missing"] == ["q_{21} \\bar{s}_{21}"], wrong.detail
    assert wrong.detail["extra"] == ["q_{21} \\bar{s}_{12}"], wrong.detail
    assert hints(report) == [
        "the factors are in the wrong order or transposed: the gradient of K has the "
        "shape of K, and it is \\bar{S}^TQ, not \\bar{S}Q"]


def test_a_backward_derivation_holds_under_its_own_check():
    derivation = linear()
    report = symrow.check(derivation.to_latex(), against=derivation)
    assert report.verdict == "holds", report.to_text()
    assert len(report.steps) > 10


def test_check_backward_on_the_command_line(tmp_path):
    page = tmp_path / "grad.tex"
    page.write_text("\\begin{align*}\n\\bar{X} &= W^\\top \\bar{Y} \\\\\n"
                    "\\bar{W} &= X^\\top \\bar{Y}\n\\end{align*}\n", encoding="utf-8")
    proc = run("check", str(page), "--backward", "--against", "Y = XW",
               "--shape", "X=2x3", "--shape", "W=3x2")
    assert proc.returncode == 1, proc.stderr
    assert "symrow check against backward" in proc.stdout
    assert "hint: the factors are in the wrong order or transposed" in proc.stdout
    assert "verdict: wrong (2 claims checked: 1 holds, 1 wrong)" in proc.stdout
