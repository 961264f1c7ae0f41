"""Any product formula, read row by row: symrow.explain.

Run it:  python examples/any_formula.py

Every product is read as combine (AB) or match (AB^T); what comes around
them (a scaling, a softmax, an element-wise function, a sum) is read too.
"""

import sympy

import symrow

# A graph convolution: each node mixes its neighbours' features (a combine),
# then the mixture is mapped through W (another combine).
gcn = symrow.explain(r"\hat{A} X W", {r"\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)})
print("graph convolution:", gcn.products)
print(gcn.to_text(parts=["H.row"]))  # only the row formula of the first combine

# Self-attention with projections, at general sizes, as definitions: every
# intermediate keeps its name (Q, K, V, S, P, O).
sa = symrow.explain(r"Q = X W_Q; K = X W_K; V = X W_V; "
                    r"O = \operatorname{softmax}(QK^\top / \sqrt{d}) V")
print("self-attention:", [reading for reading, _, _ in sa.products])
print("its parts:", ", ".join(sa.parts))

# Linear attention: phi(K)^T V is read along the data points.
la = symrow.explain(r"\phi(Q)\,(\phi(K)^\top V)", {"Q": (2, 2), "K": (3, 2), "V": (3, 2)})
print("linear attention:", la.products)

# A SymPy matrix expression works too, with symrow.softmax and symrow.apply.
X, W1, W2 = (sympy.MatrixSymbol(n, *s) for n, s in (("X", (2, 3)), ("W_1", (3, 4)),
                                                    ("W_2", (4, 2))))
mlp = symrow.explain(symrow.apply("relu", X * W1) * W2)
print("MLP:", mlp.products, mlp.result.shape)

# Numbers: values for the operands give every entry as a number.
nums = symrow.explain("AB", values={"A": [[1, 2], [3, 4]], "B": [[0, 1], [1, 0]]})
print("AB =", nums.result.tolist())
