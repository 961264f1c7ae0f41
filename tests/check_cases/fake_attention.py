"""An attention derivation built by hand from the published contract.

Used only while ``symrow.attention`` is not available (and to test that the
checker takes its meaning from whatever derivation it is given): the
quantities Q, K, V, S = QK^T, P = softmax(S/sqrt(d) + M) by rows, O = PV,
with d kept as a size symbol, as the contract says.
"""

from __future__ import annotations

import sympy

import symrow
from symrow.seq import size_symbol
from symrow.steps import Derivation


def fake_attention(m: int, n: int, d: int, *, d_v: int | None = None,
                   causal: bool = False) -> Derivation:
    d_v = d if d_v is None else d_v
    Q, K, V = symrow.vecseq("Q", m, d), symrow.vecseq("K", n, d), symrow.vecseq("V", n, d_v)
    S = sympy.Matrix(Q.matrix * K.matrix.T)
    root = sympy.sqrt(size_symbol("d"))
    # query i sees keys j <= i + (n - m): with fewer queries than keys, the queries
    # are the last m positions
    M = sympy.Matrix(m, n, lambda i, j: -sympy.oo if causal and j > i + (n - m) else 0)
    P = sympy.zeros(m, n)
    for i in range(m):
        exps = [sympy.S.Zero if M[i, j] == -sympy.oo else sympy.exp(S[i, j] / root)
                for j in range(n)]
        total = sympy.Add(*exps)
        for j in range(n):
            P[i, j] = exps[j] / total
    O = P * V.matrix
    quantities = {"Q": Q.matrix, "K": K.matrix, "V": V.matrix, "S": S, "P": P, "O": O}
    if causal:
        quantities["M"] = M
    return Derivation("attention", [], operands={"Q": Q, "K": K, "V": V}, result=O,
                      quantities=quantities, options={"causal": causal})
