"""The exponential of a diagonal matrix (symrow/derive/readings/expdiag.py).

Mamba's discretisation (Gu and Dao, 2023) writes ``\\bar{A} = \\exp(\\Delta A)`` with
A diagonal; of a diagonal matrix that is the diagonal of the exponentials, and
exp entry by entry would put exp(0) = 1 off the diagonal (what symrow did
before).  The exponential of a square matrix not known to be diagonal, as in
the heat kernel ``\\exp(-tL) X`` of a graph Laplacian L, is refused with what to
give.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import symrow


def test_exp_of_a_diagonal_matrix_is_zero_off_the_diagonal():
    d = symrow.explain(r"\exp(\Lambda) X", {r"\Lambda": (2, 2), "X": (2, 1)},
                       diagonal=[r"\Lambda"])
    C = d.result
    lam, x = d.operands[r"\Lambda"].matrix, d.operands["X"].matrix
    assert C == sympy.Matrix([[sympy.exp(lam[0, 0]) * x[0, 0]],
                              [sympy.exp(lam[1, 1]) * x[1, 0]]])
    assert [n.reading for n in d.plan.nodes][:2] == ["operand", "expdiag"]
    text = d.to_text()
    assert "exp(λ₁₁)" in text and "exp(0)" not in text


def test_its_value_is_the_matrix_exponential():
    d = symrow.explain(r"\exp(D) X", {"D": (2, 2), "X": (2, 2)}, diagonal="D",
                       values={"D": [[1, 0], [0, -2]], "X": [[1, 0], [0, 1]]})
    got = np.array(d.result.evalf().tolist(), dtype=float)
    np.testing.assert_allclose(got, np.diag(np.exp([1, -2])))   # expm of diag(1, -2)


def test_the_exponential_of_a_square_matrix_is_refused_with_what_to_give():
    with pytest.raises(symrow.NotSupportedError, match="matrix exponential") as err:
        symrow.explain(r"H = \exp(-tL) X", {"L": (3, 3), "X": (3, 2)})
    assert "--diagonal 'L'" in str(err.value)


def test_exp_of_a_computed_matrix_stays_entry_by_entry():
    """Attention papers' exp: of scores, of a product; and of a matrix that is not
    square, for which no matrix exponential exists."""
    d = symrow.explain(r"\exp(QK^T) V", {"Q": (2, 2), "K": (2, 2), "V": (2, 1)})
    assert "apply" in [n.reading for n in d.plan.nodes]
    d = symrow.explain(r"\exp(K)^T V", {"K": (3, 2), "V": (3, 1)})
    assert "apply" in [n.reading for n in d.plan.nodes]
