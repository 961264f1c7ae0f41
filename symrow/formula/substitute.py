"""``xreplace`` that does each shared part once.

The values of a derivation share most of their parts: the denominator of a
softmax row is in every entry of that row, and again in every gradient built
from it.  SymPy's ``xreplace`` walks and rebuilds each occurrence on its own;
a :class:`Replacer` remembers what every subexpression became, so a part that
occurs a thousand times is walked and rebuilt once.  The result is the one
``xreplace`` gives: the same rule, the same ``func(*args)`` rebuilding.

>>> import sympy
>>> from symrow.formula.substitute import Replacer
>>> x, y, d = sympy.symbols("x y d")
>>> swap = Replacer({d: 3})
>>> swap(sympy.exp(x / sympy.sqrt(d)) + y)
y + exp(sqrt(3)*x/3)
>>> swap.matrix(sympy.ImmutableMatrix([[x / d, d]]))
Matrix([[x/3, 3]])
"""

from __future__ import annotations

from sympy.core.basic import Basic
from sympy.matrices import MatrixBase

__all__ = ["Replacer", "xreplace_all"]

#: a memo larger than this is dropped and started again (the parts of one check fit)
MEMO_LIMIT = 200_000


class Replacer:
    """``expr.xreplace(rule)``, remembering what each subexpression became.

    The rule must not change while the replacer is in use (make a new one).
    A matrix is replaced entry by entry, as ``xreplace`` does.
    """

    __slots__ = ("rule", "memo")

    def __init__(self, rule: dict):
        self.rule = rule
        self.memo: dict = {}

    def __call__(self, expr):
        if isinstance(expr, MatrixBase):
            return self.matrix(expr)
        if not isinstance(expr, Basic):
            return expr.xreplace(self.rule)     # a value of symrow's own (what it does)
        if not self.rule:
            return expr
        if len(self.memo) > MEMO_LIMIT:
            self.memo = {}
        return self._walk(expr)[0]

    def _walk(self, expr):
        memo = self.memo
        got = memo.get(expr)
        if got is not None:
            return got
        rule = self.rule
        if expr in rule:
            got = (rule[expr], True)
        else:
            args = expr.args
            if not args:
                got = (expr, False)
            else:
                new = []
                changed = False
                for arg in args:
                    if isinstance(arg, Basic):
                        value, moved = self._walk(arg)
                        new.append(value)
                        changed |= moved
                    else:
                        new.append(arg)
                got = (expr.func(*new), True) if changed else (expr, False)
        memo[expr] = got
        return got

    def matrix(self, matrix):
        """``matrix.xreplace(rule)``: the same kind of matrix, each entry replaced."""
        return matrix.applyfunc(self)


def xreplace_all(matrices: dict, rule: dict) -> dict:
    """name -> ``matrix.xreplace(rule)`` for every matrix, the shared parts done once."""
    replace = Replacer(rule)
    return {name: replace.matrix(value) for name, value in matrices.items()}
