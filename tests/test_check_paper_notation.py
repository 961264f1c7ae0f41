r"""The checker reads names with the same table of notation as ``explain``.

A student who copies a paper's notation (``W^Q``, ``W^{(l)}``, ``\tilde{D}^{-1/2}``,
``\mathbf{\Sigma}``, ``\mathrm{head}_i``, ``\mathrm{Concat}``, ``\mathrm{Attention}``)
is checked against a formula explain read in that notation, with no renaming.
"""

from __future__ import annotations

import pytest

import symrow


def statuses(report) -> list[str]:
    return [step.status for step in report.steps]


def test_projections_written_with_superscripts():
    against = symrow.explain(r"Q = XW^Q, K = XW^K, S = QK^\top",
                             {"X": (2, 3), "W^Q": (3, 2)})
    page = r"""$$Q = XW^Q, \quad K = XW^{K}$$
$$S = QK^\top, \qquad s_{ij} = \boldsymbol{q}_i \cdot \boldsymbol{k}_j$$
$$q_{12} = \sum_{k=1}^{3} x_{1k} w^{Q}_{k2}$$
$$\mathbf{Q} = \mathbf{X}\mathbf{W}^{Q}$$"""
    report = symrow.check(page, against=against)
    assert statuses(report) == ["holds"] * 6, report.to_text()


def test_a_wrong_projection_in_paper_notation_is_wrong():
    against = symrow.explain(r"Q = XW^Q, K = XW^K, S = QK^\top",
                             {"X": (2, 3), "W^Q": (3, 2)})
    report = symrow.check(r"$$K = XW^Q$$", against=against)
    assert statuses(report) == ["wrong"], report.to_text()


def test_gcn_with_the_renormalised_degree_matrix():
    formula = r"H^{(1)} = \tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2} X W^{(0)}"
    against = symrow.explain(formula, {"X": (3, 2), "W^{(0)}": (2, 2)},
                             diagonal=[r"\tilde{D}"])
    page = r"""$$H^{(1)} = \tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2} X W^{(0)}$$
$$\boldsymbol{h}^{(1)}_1 = \sum_{j=1}^{3} \tilde{d}_{11}^{-1/2} \tilde{a}_{1j}
  \tilde{d}_{jj}^{-1/2} \boldsymbol{x}_j W^{(0)}$$
$$H^{(1)} = \tilde{D}^{-1}\tilde{A} X W^{(0)}$$"""
    report = symrow.check(page, against=against)
    assert statuses(report) == ["holds", "holds", "wrong"], report.to_text()


def test_a_power_of_a_matrix_that_is_not_diagonal_is_refused_clearly():
    against = symrow.explain(r"S = XX^\top", {"X": (2, 2)})
    report = symrow.check(r"$$S^{-1/2} = X$$", against=against)
    assert statuses(report) == ["wrong"]
    assert "not diagonal" in report.steps[0].message, report.to_text()


def test_greek_capitals_and_their_entries():
    against = symrow.explain(r"\Sigma = X^\top X", {"X": (3, 2)})
    page = r"""$$\mathbf{\Sigma} = \mathbf{X}^\top \mathbf{X}$$
$$\sigma_{12} = \sum_{k=1}^{3} x_{k1} x_{k2}$$
$$\boldsymbol{\sigma}_1 = \sum_{k} x_{k1} \boldsymbol{x}_k$$"""
    report = symrow.check(page, against=against)
    assert statuses(report) == ["holds"] * 3, report.to_text()


MULTIHEAD = (r"\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1, \dots, "
             r"\mathrm{head}_h)W^O \text{ where } \mathrm{head}_i = "
             r"\mathrm{Attention}(QW_i^Q, KW_i^K, VW_i^V)")


@pytest.fixture(scope="module")
def multihead():
    # the family's shape given once, as the paper names it (W_i^Q), for every head
    return symrow.explain(MULTIHEAD, {"Q": (2, 2), "K": (2, 2), "V": (2, 2),
                                      "W_i^Q": (2, 1), "W_i^K": (2, 1), "W_i^V": (2, 1),
                                      "W^O": (2, 2)}, heads=2)


def test_multihead_as_the_paper_writes_it(multihead):
    page = r"""$$\mathrm{head}_1 = \mathrm{Attention}(QW_1^Q, KW_1^K, VW_1^V)$$
$$\mathrm{head}_1 = \mathrm{softmax}\left(\frac{QW_1^Q (KW_1^K)^\top}{\sqrt{d_k}}\right) VW_1^V$$
$$\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1, \mathrm{head}_2) W^O$$
$$\mathrm{head}_2 = \mathrm{Attention}(QW_2^Q, KW_2^K, VW_1^V)$$"""
    report = symrow.check(page, against=multihead, timeout=60)
    assert statuses(report) == ["holds", "holds", "holds", "wrong"], report.to_text()


def test_concat_with_dots_asks_for_every_head(multihead):
    page = r"$$\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1, \dots, " \
           r"\mathrm{head}_h) W^O$$"
    report = symrow.check(page, against=multihead, timeout=60)
    assert statuses(report) == ["unreadable"], report.to_text()
