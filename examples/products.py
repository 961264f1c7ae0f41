"""Combine (AB) and match (AB^T), general and concrete: a first session with symrow.

Run it:  python examples/products.py
"""

import sympy

import symrow

# General sizes m, ell, n: the derivation as the lecture reads it, narrated.
A = symrow.vecseq("A", "m", "ell")
B = symrow.vecseq("B", "ell", "n")
print(symrow.combine(A, B))  # Unicode text; .to_text("ja") for Japanese

# Concrete sizes: entries are symbols a_{11}, b_{21}, ...; the result is a
# plain SymPy matrix you can keep computing with.
d = symrow.match(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 4, 3))
print("c_12 =", d.result[0, 1])
print("shape of C:", d.result.shape)

# Numbers: three points in the plane, combined with two points of 3-D space.
X = symrow.vecseq("X", sympy.Matrix([[1, 2], [3, 1], [0, 2]]))
W = symrow.vecseq("W", sympy.Matrix([[1, 0, 1], [0, 1, 1]]))
Y = symrow.combine(X, W, name="Y").result
print("Y = XW =", Y.tolist())
assert Y == X.matrix * W.matrix
