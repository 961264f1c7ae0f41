"""The exponential of a diagonal matrix: the diagonal of the exponentials.

``\\exp`` is read entry by entry, as attention papers mean it (``\\exp(QK^T /
\\sqrt{d})``, a feature map ``\\exp(XW)``).  Of a *diagonal* matrix D, though,
papers mean its matrix exponential (Mamba's ``\\exp(\\Delta A)`` with A
diagonal, a spectrum ``\\exp(\\Lambda)``), and for a diagonal matrix that is the
diagonal of the exponentials ``exp(d_ii)``, with 0 off the diagonal, where exp
entry by entry would put ``exp(0) = 1``.  So ``\\exp`` of a matrix known to be
diagonal (declared, or a degree matrix, ``diag(s)``, a power of one) is this
reading.

The exponential of a square matrix given by name and not declared diagonal
(``\\exp(A)``, ``\\exp(-tL)``) is refused: papers that write it mean the matrix
exponential ``e^{A} = I + A + A^2/2! + ⋯`` (a heat kernel, the discretisation
of a state-space model), which symrow does not derive, and exp entry by entry
would be a confident wrong reading.

>>> import symrow
>>> d = symrow.explain(r"\\exp(D) X", {"D": (2, 2), "X": (2, 1)}, diagonal="D")
>>> d.quantities["C"]
Matrix([
[x_{11}*exp(d_{11})],
[x_{21}*exp(d_{22})]])
>>> symrow.explain(r"\\exp(A) X", {"A": (2, 2), "X": (2, 1)})
Traceback (most recent call last):
...
symrow.errors.NotSupportedError: the matrix exponential of the square matrix A is not supported yet: \\exp(A) of a square matrix is e^A = I + A + A^2/2! + ..., not exp entry by entry. symrow takes \\exp entry by entry of a computed matrix (\\exp(QK^T/\\sqrt{d}), \\exp(XW)) and of a matrix that is not square; if A is diagonal, declare it (diagonal=['A'], or --diagonal 'A'), and \\exp(A) is the diagonal of the exponentials (line 1, column 1, at '\\')
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import table
from ...formula import expr as E
from ...steps import Step
from .base import Ctx, Example, I, register, variant
from .diagonal import _Diagonal, is_diagonal
from .entrywise import Scale, Sum, read_whole

__all__ = ["ExpDiag"]


@register
class ExpDiag(_Diagonal):
    """``\\exp(D)`` for a diagonal D: entry (i, i) is exp(d_ii), every other entry 0."""

    reading = "expdiag"
    example = Example(r"\exp(D) X", {"D": (2, 2), "X": (2, 1)}, {"diagonal": ["D"]})
    __slots__ = ()

    @classmethod
    def from_apply(cls, planner, expr: E.Apply, x):
        """The draft for ``\\exp(X)`` when X is diagonal; a refusal when X is a square
        matrix given by name (the matrix exponential); else None (entry by entry)."""
        if is_diagonal(x):
            return planner.draft(cls, (x,), x.rows, x.cols, expr)
        named = x
        # a square matrix given by name, scaled or negated: \exp(A), \exp(-tL)
        while issubclass(named.cls, Scale) or (issubclass(named.cls, Sum) and
                                               len(named.inputs) == 1):
            named = named.inputs[0]
        if named.cls.given and x.rows == x.cols:
            what = named.label()
            raise planner.unsupported(
                f"the matrix exponential of the square matrix {what}", expr,
                f": \\exp({what}) of a square matrix is e^{what} = I + {what} + {what}^2/2! + "
                f"..., not exp entry by entry. symrow takes \\exp entry by entry of a computed "
                f"matrix (\\exp(QK^T/\\sqrt{{d}}), \\exp(XW)) and of a matrix that is not "
                f"square; if {what} is diagonal, declare it (diagonal=[{what!r}], or "
                f"--diagonal '{what}'), and \\exp({what}) is the diagonal of the exponentials")
        return None

    @classmethod
    def evaluate(cls, args):
        d = args[0]
        return sympy.Matrix(d.rows, d.cols, lambda i, j: sympy.exp(d[i, i]) if i == j
                            else sympy.S.Zero)

    def compose(self, part):
        return N.Exp(part(self.inputs[0]))

    def diagonal_entry(self, i, at):
        return N.Exp(at(self.inputs[0], i, i))

    def definition(self, parts):
        return N.Exp(parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (D,) = self.inputs
        whole = self.whole()
        shown = [N.Chain([N.Sub(N.Paren(whole), N.Label("ii", "ii")),
                          N.Exp(D.entry_symbol(I, I))])]
        if ctx.concrete:
            shown.append(N.Chain([whole, table(self.rows, self.cols, self.entry_symbol)]))
        return [ctx.heading("expdiag", E=whole, part=part),
                ctx.step("expdiag", {"E": whole, "D": D.whole(), "d_ii": D.entry_symbol(I, I),
                                     "variant": variant(ctx)}, N.Group(shown), part=part)]

    def as_expr(self, args):
        return E.Apply("exp", args[0])

    def backward(self, g, bw):
        """E = exp(D), D diagonal: d̄_ii = ē_ii exp(d_ii) (on the diagonal)."""
        return [(0, E.Hadamard(g, E.Apply("exp", bw.ref(self.inputs[0]))))]


read_whole("exp", ExpDiag)
