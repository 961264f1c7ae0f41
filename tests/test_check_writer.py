r"""The checker reads a page as its writer wrote it (issue 25): each case is a few lines a
student or a blogger writes, and the verdict a careful reader gives.

The writer's own names (``Z = XW + b``, ``\alpha_{ij} = ...``, ``G := \partial L /
\partial O``), conventions (the scores scaled before the softmax), sizes (``Q \in
\mathbb{R}^{T \times d}``), gradient notation (``\frac{dL}{dW}``, ``{\bf X}``, ``\nabla_W
\ell``), index-notation derivatives with Kronecker deltas, vectors and bias rows, and
the functions ``explain`` reads (LayerNorm, ReLU'); and what is not mathematics
(typography, a prose page with no math markup) is never called wrong.  The gradients
the checker compares with are symrow.backward's, which tests/test_backward.py holds
against finite differences; the MLP's are confirmed here in numpy too.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def verdict(tex, against):
    report = symrow.check(tex, against=against)
    return report.verdict, [s.status for s in report.steps], report


MLP = r"H = \mathrm{ReLU}(XW_1 + b_1); Y = HW_2 + b_2"
MLP_SHAPES = {"X": (2, 3), "W_1": (3, 2), "W_2": (2, 2)}

MLP_PAGE = r"""
Forward pass:

$$Z = XW_1 + \mathbf{b}_1, \quad H = \mathrm{ReLU}(Z), \quad Y = HW_2 + \mathbf{b}_2$$

Backward pass:

$$\frac{dL}{dW_2} = H^\top \frac{dL}{dY}$$
$$\frac{dL}{dH} = \frac{dL}{dY} W_2^\top$$
$$\frac{dL}{dZ} = \frac{dL}{dH} \odot \mathrm{ReLU}'(Z)$$
$$\frac{dL}{dW_1} = X^\top \frac{dL}{dZ}$$
$$\frac{dL}{d\mathbf{b}_1} = \sum_i \left(\frac{dL}{dZ}\right)_i$$
"""


@pytest.fixture(scope="module")
def mlp():
    return symrow.backward(MLP, MLP_SHAPES)


def test_an_mlp_backward_pass_in_the_students_own_names_holds(mlp):
    got, statuses, report = verdict(MLP_PAGE, mlp)
    assert got == "holds", report.to_text()
    assert statuses[0] == "defines" and "XW_1 + b_1" in report.steps[0].message
    assert statuses.count("holds") == 7


def test_a_dropped_relu_mask_is_wrong_at_its_line(mlp):
    page = MLP_PAGE.replace(r"\frac{dL}{dH} \odot \mathrm{ReLU}'(Z)", r"\frac{dL}{dH}")
    got, statuses, report = verdict(page, mlp)
    assert got == "wrong"
    wrong = [s for s in report.steps if s.status == "wrong"]
    line = next(k for k, text in enumerate(page.split("\n"), 1) if r"\frac{dL}{dZ} =" in text)
    assert [s.line for s in wrong] == [line], report.to_text()


def test_the_mlp_gradients_agree_with_finite_differences(mlp):
    # what the page is checked against, in numbers: dL/dW_1 = X^T ((G W_2^T) * relu'(Z))
    rng = np.random.default_rng(3)
    x, w1, w2 = rng.normal(size=(2, 3)), rng.normal(size=(3, 2)), rng.normal(size=(2, 2))
    b1, b2, g = rng.normal(size=(1, 2)), rng.normal(size=(1, 2)), rng.normal(size=(2, 2))

    def loss(w):
        return float((g * (np.maximum(0, x @ w + b1) @ w2 + b2)).sum())

    z = x @ w1 + b1
    page = x.T @ ((g @ w2.T) * (z > 0))
    eps = 1e-6
    fd = np.zeros_like(w1)
    for i in range(3):
        for j in range(2):
            e = np.zeros_like(w1)
            e[i, j] = eps
            fd[i, j] = (loss(w1 + e) - loss(w1 - e)) / (2 * eps)
    assert np.allclose(page, fd, atol=1e-6)
    subs = {}
    for name, value in (("X", x), ("W_1", w1), ("W_2", w2), ("b_1", b1), ("b_2", b2),
                        (r"\bar{Y}", g)):
        seq = mlp.quantities[name]
        subs.update({s: v for s, v in zip(seq, value.flatten())})
    engine = np.array(mlp.gradients["W_1"].xreplace(subs).evalf(), dtype=float)
    assert np.allclose(engine, page, atol=1e-9)


ATT = symrow.attention(2, 3, 2)


@pytest.mark.parametrize("tex, expected", [
    # the scores after their scaling: the page's convention, then followed
    (r"$$S = \frac{QK^\top}{\sqrt{d}}$$ $$P = \mathrm{softmax}(S)$$ $$O = PV$$", "holds"),
    # ... scaled twice, wrong at the softmax
    (r"$$S = \frac{QK^\top}{\sqrt{d}}$$ $$P = \mathrm{softmax}(S/\sqrt{d})$$", "wrong"),
    # a wrong S is still wrong: not a rescaling of symrow's S
    (r"$$S = KQ^\top$$", "wrong"),
    # the writer's G for dL/dO (symrow's own G is another matrix), and its entries
    (r"$$G_{ip} = \partial L / \partial O_{ip}$$", None),
    # entries defined by the page (alpha_ij), then used
    (r"$$\alpha_{ij} = \frac{e^{s_{ij}/\sqrt{2}}}{\sum_{k=1}^{3} e^{s_{ik}/\sqrt{2}}}, \quad "
     r"o_{ij} = \sum_{k=1}^{3} \alpha_{ik} v_{kj}$$", "holds"),
    # the page's sizes
    (r"$$Q \in \mathbb{R}^{T \times d}, \quad S_{ij} = \sum_{k=1}^{d} q_{ik} k_{jk}$$",
     "holds"),
])
def test_attention_pages_in_the_writers_terms(tex, expected):
    against = symrow.backward(ATT) if "partial" in tex else ATT
    got, statuses, report = verdict(tex, against)
    if expected is None:
        assert statuses == ["defines"], report.to_text()
    else:
        assert got == expected, report.to_text()


def test_index_notation_chain_rule_with_kronecker_deltas():
    d = symrow.backward("Y = XW", {"X": (2, 3), "W": (3, 2)})
    page = r"""
$$\frac{\partial L}{\partial W_{ij}} = \sum_{a, b} \frac{\partial L}{\partial Y_{ab}}
  \frac{\partial Y_{ab}}{\partial W_{ij}}$$
$$\frac{\partial Y_{ab}}{\partial W_{ij}} = \sum_k X_{ak} \delta_{ki} \delta_{bj}
  = X_{ai} \delta_{bj}$$
"""
    got, statuses, report = verdict(page, d)
    assert got == "holds", report.to_text()
    wrong = page.replace(r"= X_{ai} \delta_{bj}", r"= X_{ai} \delta_{aj}")
    assert verdict(wrong, d)[0] == "wrong"


@pytest.mark.parametrize("tex, expected", [
    (r"$$Q = x W^Q$$", "holds"),                       # x for X, W^Q for W_Q
    (r"$$\mathrm{SelfAttention}(X) = \mathrm{softmax}\left(\frac{XW_Q (XW_K)^\top}"
     r"{\sqrt{d}}\right) XW_V$$", "holds"),            # the page's own main claim
    (r"$$\mathrm{SelfAttention}(X) = \mathrm{softmax}\left(XW_Q (XW_K)^\top\right) XW_V$$",
     "wrong"),
])
def test_self_attention_in_the_papers_and_blogs_spelling(tex, expected):
    d = symrow.attention(2, 2, 2, projections=True, d_model=3)
    got, _, report = verdict(tex, d)
    assert got == expected, report.to_text()


XW = symrow.explain("XW", {"X": (2, 2), "W": (2, 3)})


@pytest.mark.parametrize("tex, expected", [
    (r"$$C = X @ W$$", "holds"),
    (r"$$c_{11} = x_{11} w_{11} + ... + x_{12} w_{21}$$", "holds"),
    (r"$$\small C = {\bf X} W$$", "holds"),
    (r"$$\tt C = \blue{XW}$$", "holds"),
    (r"$$C = WX \to XW$$", "holds"),                   # the writer's correction
    (r"$$Y_{\text{出力}} = XW, \quad Y_{\text{出力}} = WX$$", "wrong"),
    # an index past the matrix is the page's error, wrong (not unreadable)
    (r"$$W = \begin{bmatrix} w_{11} & w_{12} & w_{13} \\ w_{21} & w_{22} & w_{31}"
     r"\end{bmatrix}$$", "wrong"),
    # m = 1 on a page about this 2-row derivation: a case, not a claim
    (r"バッチなしのときは$m = 1$とすればよい。$$C = XW$$", "holds"),
])
def test_typography_and_the_writers_habits(tex, expected):
    got, _, report = verdict(tex, XW)
    assert got == expected, report.to_text()


def test_functions_explain_reads_are_checkable():
    d = symrow.explain(r"Y = \mathrm{LayerNorm}(X)W", {"X": (2, 3), "W": (3, 2)})
    assert verdict(r"$$Y = \mathrm{LayerNorm}(X) W$$", d)[0] == "holds"
    assert verdict(r"$$Y = XW$$", d)[0] == "wrong"


def test_a_prose_page_without_math_markup_is_never_wrong():
    page = ("Multiply a 2x2 matrix X by a 2x3 matrix W to get the result entry by entry.\n"
            "C=[123456],11+22=5\n")
    got, statuses, report = verdict(page, XW)
    assert got != "wrong" and "wrong" not in statuses, report.to_text()


def test_unreadable_text_is_an_unreadable_report():
    report = symrow.check("no mathematics here at all", against=XW)
    assert report.verdict == "unreadable" and report.exit_code == 2


def test_a_lowercase_name_the_target_defines_is_its_matrix_and_max_is_entrywise():
    """The target as the page writes it, z_1 = XW_1 + b_1; a_1 = ReLU(z_1) (joyabrata's
    notebook): z_1 below its definition is the matrix, not a number; and the page's
    a_1 = max(0, z_1) is ReLU entry by entry."""
    target = r"z_1 = XW_1 + b_1; a_1 = \mathrm{ReLU}(z_1); z_2 = a_1 W_2 + b_2"
    d = symrow.explain(target, {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)})
    assert d.quantities["z_1"].rows == 3 and d.quantities["a_1"].cols == 3
    assert verdict(r"$$a_1 = \max(0, z_1)$$", d)[0] == "holds"
    assert verdict(r"$$a_1 = \max(0, -z_1)$$", d)[0] == "wrong"


SCALED_PAGE = r"""
$$S = \frac{QK^\top}{\sqrt{d}}, \quad P = \mathrm{softmax}(S), \quad O = PV$$
$$\bar{V} = P^\top \bar{O}, \quad \bar{P} = \bar{O} V^\top$$
$$\bar{S} = P \odot \left(\bar{P} - \operatorname{rowsum}(\bar{P} \odot P)\right)$$
$$\bar{Q} = \frac{1}{\sqrt{d}} \bar{S} K, \quad \bar{K} = \frac{1}{\sqrt{d}} \bar{S}^\top Q$$
"""


def test_the_gradient_of_the_page_s_scaled_scores_is_the_page_s_own():
    """A page that scales its scores, S = QK^T/√d, means by S̄ the gradient of its own S
    (symrow's G, the gradient of S/√d), and carries the 1/√d into Q̄ and K̄: it holds; the
    same page without the 1/√d in Q̄ is wrong there."""
    b = symrow.backward(r"\mathrm{softmax}(QK^T/\sqrt{d})V", {"Q": (2, 3), "K": (2, 3),
                                                               "V": (2, 2)})
    got, statuses, report = verdict(SCALED_PAGE, b)
    assert got == "holds" and statuses.count("holds") == 7, report.to_text()
    bad = SCALED_PAGE.replace(r"\bar{Q} = \frac{1}{\sqrt{d}} \bar{S} K", r"\bar{Q} = \bar{S} K")
    got, statuses, report = verdict(bad, b)
    assert got == "wrong" and statuses.count("wrong") == 1, report.to_text()
