"""Values of matrices: the one matrix product, row-wise softmax and element-wise functions.

The planner (values of every step of a derivation) and the checker (values
of what a student wrote) compute with these, so that both mean the same by
a softmax or a ReLU.

>>> import sympy
>>> from symrow.values import row_softmax, matrix_product
>>> a, b = sympy.symbols("a b")
>>> row_softmax(sympy.Matrix([[a, -sympy.oo]]))
Matrix([[1, 0]])
>>> row_softmax(sympy.Matrix([[a, b]]), counts=[1])
Matrix([[1, 0]])
>>> matrix_product(sympy.Matrix([[1, 2]]), sympy.Matrix([[a], [b]]))
Matrix([[a + 2*b]])
"""

from __future__ import annotations

from typing import Callable, Sequence

import sympy

__all__ = ["matrix_product", "row_softmax", "exp_of", "FUNCTION_VALUES", "function_of",
           "MaskedRow"]


class MaskedRow(ArithmeticError):
    """A softmax row whose every entry is masked: its distribution would be 0/0."""


def matrix_product(left, right, cls=sympy.ImmutableMatrix):
    """The matrix product, each entry one ``Add`` of its products.

    The same value as ``left * right``; SymPy's own product first asks of
    every entry whether ``0 * entry`` is 0, which for entries such as
    softmax weights means assumption queries that cost more than the
    product itself.  ``cls``: the kind of matrix returned."""
    inner = left.shape[1]
    return cls(left.shape[0], right.shape[1], lambda i, j: sympy.Add(
        *[left[i, t] * right[t, j] for t in range(inner)]))


def _has_minus_infinity(expr) -> bool:
    if expr is sympy.S.NegativeInfinity:
        return True
    return isinstance(expr, sympy.Add) and sympy.S.NegativeInfinity in expr.args \
        and sympy.S.Infinity not in expr.args


def exp_of(arg):
    """``exp(arg)``; an argument with a -oo term (a masked score) gives 0.

    An argument that is infinite or undefined otherwise raises ``ArithmeticError``."""
    if _has_minus_infinity(arg):
        return sympy.S.Zero
    if arg.has(sympy.S.Infinity) or arg.has(sympy.S.NegativeInfinity) or \
            arg.has(sympy.zoo) or arg.has(sympy.nan):
        raise ArithmeticError("an exponent is infinite or undefined")
    return sympy.exp(arg)


def row_softmax(x, counts: Sequence[int] | None = None, cls=sympy.Matrix):
    """Softmax along each row of ``x``: ``exp(x_ij) / sum_k exp(x_ik)``.

    ``counts[i]``, when given, is how many leading entries of row i take
    part (a causal mask read as a pattern); the rest are 0.  An entry of
    -oo (a mask added to the scores) is 0 as well.  Each row's denominator
    is built once, as one ``Add``.  A row with nothing left raises
    :class:`MaskedRow`."""
    rows, cols = x.shape
    exps = [[exp_of(x[i, j]) if counts is None or j < counts[i] else sympy.S.Zero
             for j in range(cols)] for i in range(rows)]
    dens = [sympy.Add(*row) for row in exps]
    for i, den in enumerate(dens):
        if den == 0:
            raise MaskedRow(f"row {i + 1} of the softmax argument is masked everywhere")
    return cls(rows, cols, lambda i, j: exps[i][j] / dens[i] if exps[i][j] != 0
               else sympy.S.Zero)


def _relu(x):
    return sympy.Max(0, x)


def _sigma(x):
    return 1 / (1 + sympy.exp(-x))


#: element-wise functions as SymPy functions of one entry (others stay undefined)
FUNCTION_VALUES: dict[str, Callable] = {"exp": sympy.exp, "relu": _relu, "sigma": _sigma,
                                        "tanh": sympy.tanh}


def function_of(name: str) -> Callable:
    """The SymPy function of one entry that ``name`` (``relu``, ``phi``, ...) stands for;
    ``relu'`` is its derivative (ReLU's is the step function, an undefined φ's is φ′)."""
    if name.endswith("'"):
        f = function_of(name[:-1])
        x = sympy.Dummy("x")
        derivative = sympy.diff(f(x), x)
        if derivative.has(sympy.Derivative):   # an undefined φ: φ′ at the argument
            return lambda arg: derivative.subs(x, arg)
        return lambda arg: derivative.xreplace({x: arg})
    return FUNCTION_VALUES.get(name) or sympy.Function(name)
