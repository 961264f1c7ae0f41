r"""The all-ones vector ``\mathbf{1}``: a column of ones, sized by what it meets.

Papers sum rows and columns with it: ``A\mathbf{1}`` is the column of the row
sums of A (Performer's normaliser ``\mathrm{diag}(A\mathbf{1}_L)``),
``\mathbf{1}^\top X`` the row of the column sums, ``b\mathbf{1}^\top`` a column
``b`` repeated once for each point (Phuong and Hutter's bias), ``\mathbf{1}
\mathbf{1}^\top`` the square of ones.  Its size is never guessed: the shape
inference finds it from the product or the sum it stands in, or from its
subscript (``\mathbf{1}_n``, ``1_L``); where nothing sizes it, the formula is
refused with how to write it.

>>> import symrow
>>> d = symrow.explain(r"S = A\mathbf{1}", {"A": (2, 3)})
>>> d.result.shape, [n.reading for n in d.plan.nodes]
((2, 1), ['operand', 'ones', 'combine'])
"""

from __future__ import annotations

import sympy

from ...formula import expr as E
from ...reader.notation import NameParts
from ...seq import VecSeq
from .base import GIVEN, Example, register
from .structure import Operand

__all__ = ["Ones"]


@register
class Ones(Operand):
    """A column of ones; its entries are 1, and it is no operand of the formula (nothing
    is given for it, and it has no gradient)."""

    reading = "ones"
    kind = GIVEN
    always_named = True
    given = False
    example = Example(r"X\mathbf{1}", {"X": (2, 3)})
    __slots__ = ()

    @staticmethod
    def seq_of(size, max_dim=None) -> VecSeq:
        """Its vector sequence, written ``\\mathbf{1}_n`` with its size."""
        parts = NameParts("1", font="\\mathbf", sub=str(size))
        return VecSeq("1", size, 1, values=sympy.ones(size, 1) if isinstance(size, int)
                      else None, max_dim=max_dim, parts=parts)

    def entry(self, i, j):
        return sympy.S.One

    def entry_symbol(self, i, j):
        return sympy.S.One

    def row(self, i):
        """Row i of a column of ones is the number 1."""
        return sympy.S.One

    def value(self, get, plan):
        return sympy.ImmutableMatrix(sympy.ones(self.rows, 1))

    def general(self, get, plan):
        return sympy.OneMatrix(self.rows, 1)

    def as_expr(self, args):
        return E.Ones(size=self.rows)
