"""Diagonal matrices: each point, or each coordinate, scaled by its own number.

A diagonal matrix D does not mix points at all: on the left (``D X``) it
scales each point, row i by d_ii; on the right (``X D``) it scales each
coordinate, column j by d_jj.  The graph convolution's ``D̃^{-1/2} Ã D̃^{-1/2}``
is read this way: Ã with each row and each column scaled by the degrees.

* :class:`Degree`: the degree matrix of a square matrix, d_ii = Σ_j a_ij;
* :class:`Diag`: ``diag(s)``, the entries of a row s on the diagonal;
* :class:`DiagPower`: ``D^p``, a power of a diagonal matrix (entries d_ii^p);
* :class:`RowScale`: ``D X``, each point scaled: row i is d_ii x_i;
* :class:`ColScale`: ``X D``, each coordinate scaled: column j times d_jj;
* :class:`Identity`: the identity matrix I.

An operand is diagonal when it is declared so (``diagonal=[...]``,
``--diagonal NAME``); its entries off the diagonal are 0.
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import column, row_bmat, table
from ...formula import expr as E
from ...steps import Step
from .base import Ctx, I, J, Reading, register, variant
from .structure import Operand

__all__ = ["Degree", "Diag", "DiagPower", "RowScale", "ColScale", "Identity",
           "DiagonalOperand", "is_diagonal", "ONE"]

#: the all-ones column, as in D̃ = diag(Ã 1)
ONE = N.Label(r"\mathbf{1}", "𝟏")


def is_diagonal(node) -> bool:
    """Whether a reading (or a draft of one) is a diagonal matrix."""
    cls = getattr(node, "cls", type(node))
    return bool(getattr(cls, "diagonal", False))


def _diag_entry(node, i):
    """Entry (i, i) of a diagonal reading, by name or by value."""
    return node.entry_symbol(i, i)


class _Diagonal(Reading):
    """A diagonal matrix: entries off the diagonal are 0."""

    diagonal = True
    pointwise = False
    __slots__ = ()

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        return super().entry(i, j)

    def entry_symbol(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        return super().entry_symbol(i, j)


class DiagonalOperand(_Diagonal, Operand):
    """An operand declared diagonal: its own symbols on the diagonal, 0 elsewhere."""

    reading = "operand"
    always_named = True
    __slots__ = ()

    def value(self, get, plan):
        return sympy.ImmutableMatrix(self.seq.matrix)


@register
class Identity(_Diagonal, Operand):
    """The identity matrix: 1 on the diagonal, 0 elsewhere."""

    reading = "identity"
    always_named = True
    __slots__ = ()

    def entry(self, i, j):
        return sympy.KroneckerDelta(i, j)

    def entry_symbol(self, i, j):
        return sympy.KroneckerDelta(i, j)

    def value(self, get, plan):
        return sympy.ImmutableMatrix(sympy.eye(self.rows))

    def general(self, get, plan):
        return sympy.Identity(self.rows)

    def as_expr(self, args):
        return E.Identity()



@register
class Degree(_Diagonal):
    """``D_ii = sum_j A_ij``: the degree matrix of a square matrix (a graph's degrees)."""

    reading = "degree"
    always_named = True
    __slots__ = ()

    def value(self, get, plan):
        a = get(self.inputs[0])
        return sympy.Matrix(self.rows, self.cols, lambda i, j: sympy.Add(
            *[a[i, k] for k in range(self.cols)]) if i == j else sympy.S.Zero)

    def definition(self, parts):
        return N.Call("diag", [N.OMul([parts[0], ONE])])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (A,) = self.inputs
        D = self.seq
        rowsum = N.SumOver(A.entry_symbol(I, J), J, 1, A.cols)
        shown = [N.Chain([D, N.Call("diag", [N.OMul([A.whole(), ONE])])]),
                 N.Chain([D.symbol(I, I), rowsum])]
        if ctx.concrete:
            shown.append(N.Chain([D, table(self.rows, self.cols, lambda r, c: N.OSum(
                [A.entry(r, k) for k in range(1, A.cols + 1)]) if r == c else sympy.S.Zero)]))
        return [ctx.heading("degree", D=D, part=part),
                ctx.step("degree", {"D": D, "A": A.whole(), "d_ii": D.symbol(I, I),
                                    "a_i": A.row(I), "i": I, "variant": variant(ctx)},
                         N.Group(shown), part=part)]

    def as_expr(self, args):
        return E.Call("degree", tuple(args))

    def backward(self, g, bw):
        """D = diag(A 1): ā_ij = d̄_ii, every entry of row i counted in d_ii."""
        return [(0, E.Call("rowspread", (g,)))]



@register
class Diag(_Diagonal):
    """``diag(s)``: the entries of the row s on the diagonal."""

    reading = "diag"
    __slots__ = ()

    @classmethod
    def from_call(cls, planner, expr):
        (s,) = [planner.get(a) for a in expr.args]
        return planner.draft(cls, [s], s.cols, s.cols, expr)

    def compose(self, part):
        return N.Call("diag", [part(self.inputs[0])])

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int):
            return self.inputs[0].entry(1, i) if i == j else sympy.S.Zero
        return self.inputs[0].entry_symbol(1, i)

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return super().entry_symbol(i, j)
        return self.entry(i, j)

    def value(self, get, plan):
        s = get(self.inputs[0])
        return sympy.Matrix(self.rows, self.cols, lambda i, j: s[0, i] if i == j
                            else sympy.S.Zero)

    def definition(self, parts):
        return N.Call("diag", parts)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (s,) = self.inputs
        whole = self.whole()
        shown = N.Chain([whole, table(self.rows, self.cols, lambda r, c: self.entry(r, c)
                                      if r == c or not (isinstance(r, int) and
                                                        isinstance(c, int))
                                      else sympy.S.Zero)])
        return [ctx.heading("diag", S=whole, part=part),
                ctx.step("diag", {"S": whole, "s": s.whole()}, shown, part=part)]

    def as_expr(self, args):
        return E.Call("diag", tuple(args))

    def backward(self, g, bw):
        """D = diag(s): s̄_j = d̄_jj."""
        return [(0, E.Call("diagrow", (g,)))]



@register
class DiagPower(_Diagonal):
    """``D^p`` for a diagonal D: entry (i, i) is d_ii^p."""

    reading = "power"
    __slots__ = ("exponent",)

    def params(self) -> dict:
        return {"exponent": self.exponent}

    def compose(self, part):
        return N.Power(part(self.inputs[0]), self.exponent)

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None:
            return super().entry(i, j)
        return sympy.Pow(self.inputs[0].entry(i, i), self.exponent, evaluate=False)

    def entry_symbol(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return sympy.Pow(self.inputs[0].entry_symbol(i, i), self.exponent, evaluate=False)

    def value(self, get, plan):
        d = get(self.inputs[0])
        return sympy.Matrix(self.rows, self.cols, lambda i, j: d[i, i] ** self.exponent
                            if i == j else sympy.S.Zero)

    def general(self, get, plan):
        return sympy.MatPow(get(self.inputs[0]), self.exponent)

    def definition(self, parts):
        return N.Power(parts[0], self.exponent)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (D,) = self.inputs
        whole = self.whole()
        return [ctx.heading("power", P=whole, part=part),
                ctx.step("power", {"P": whole, "D": D.whole(), "p": self.exponent,
                                   "d_ii": D.entry_symbol(I, I)},
                         N.Chain([N.Sub(N.Paren(whole), N.Label("ii", "ii")),
                                  sympy.Pow(D.entry_symbol(I, I), self.exponent,
                                            evaluate=False)]), part=part)]

    def as_expr(self, args):
        return E.Power(args[0], self.exponent)

    def backward(self, g, bw):
        """P = D^p, D diagonal: D̄ = p D^(p−1) ∘ P̄ (on the diagonal)."""
        D = bw.ref(self.inputs[0])
        power = E.Scaled(E.Power(D, self.exponent - 1), *sympy.fraction(self.exponent))
        return [(0, E.Hadamard(g, power))]



@register
class RowScale(Reading):
    """``D X`` with D diagonal: each point scaled by its own number, row i by d_ii."""

    reading = "rowscale"
    always_named = True
    __slots__ = ()

    def spine_input(self):
        return self.inputs[1]

    def value(self, get, plan):
        d, x = get(self.inputs[0]), get(self.inputs[1])
        return sympy.Matrix(self.rows, self.cols, lambda i, j: d[i, i] * x[i, j])

    def general(self, get, plan):
        return get(self.inputs[0]) * get(self.inputs[1])

    def definition(self, parts):
        return N.OMul(parts)

    def row_formula(self):
        D, X = self.inputs
        return N.OMul([D.entry_symbol(I, I), X.row(I)])

    def terms(self, plan, shown_combine=True):
        return self.rows * self.cols

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        D, X = self.inputs
        C = self.seq
        DX = N.OMul([D.whole(), X.whole()])
        rows = [N.Chain([C, DX, column(self.rows, lambda r: N.OMul([D.entry(r, r),
                                                                      X.row(r)]))])]
        rows.append(N.Chain([C.vector(I), N.OMul([D.entry_symbol(I, I), X.row(I)])]))
        out = [ctx.heading("rowscale", DX=DX, part=part),
               ctx.step("rowscale", {"DX": DX, "D": D.whole(), "X": X.whole(), "C": C,
                                     "c_i": C.vector(I), "x_i": X.row(I),
                                     "d_ii": D.entry_symbol(I, I), "i": I},
                        N.Group(rows), part=part)]
        if ctx.concrete:
            out.append(ctx.step("rowscale_entries", {"C": C}, N.Chain([C, table(
                self.rows, self.cols, lambda r, c: N.OMul([D.entry(r, r), X.entry(r, c)]))]),
                part=part + ".entries"))
        return out

    def as_expr(self, args):
        return E.Product(*args)

    def backward(self, g, bw):
        """C = D X: X̄ = D C̄ (each point scaled back), d̄_ii = c̄_i · x_i."""
        D, X = self.inputs
        return [(0, E.Call("rowdot", (g, bw.ref(X)))), (1, E.Product(bw.ref(D), g))]



@register
class ColScale(Reading):
    """``X D`` with D diagonal: each coordinate scaled by its own number, column j by
    d_jj; every point keeps its place."""

    reading = "colscale"
    always_named = True
    __slots__ = ()

    def value(self, get, plan):
        x, d = get(self.inputs[0]), get(self.inputs[1])
        return sympy.Matrix(self.rows, self.cols, lambda i, j: x[i, j] * d[j, j])

    def general(self, get, plan):
        return get(self.inputs[0]) * get(self.inputs[1])

    def definition(self, parts):
        return N.OMul(parts)

    def row_formula(self):
        X, D = self.inputs
        return N.OMul([X.row(I), D.whole()])

    def terms(self, plan, shown_combine=True):
        return self.rows * self.cols

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        X, D = self.inputs
        C = self.seq
        XD = N.OMul([X.whole(), D.whole()])
        row = N.Chain([C.vector(I), N.OMul([X.row(I), D.whole()]), row_bmat(
            self.cols, lambda c: N.OMul([X.entry_symbol(I, c), D.entry_symbol(c, c)]))])
        out = [ctx.heading("colscale", XD=XD, part=part),
               ctx.step("colscale", {"XD": XD, "D": D.whole(), "X": X.whole(), "C": C,
                                     "c_i": C.vector(I), "x_i": X.row(I),
                                     "d_jj": D.entry_symbol(J, J), "j": J},
                        row, part=part)]
        if ctx.concrete:
            out.append(ctx.step("colscale_entries", {"C": C}, N.Chain([C, table(
                self.rows, self.cols, lambda r, c: N.OMul([X.entry(r, c), D.entry(c, c)]))]),
                part=part + ".entries"))
        return out

    def as_expr(self, args):
        return E.Product(*args)

    def backward(self, g, bw):
        """C = X D: X̄ = C̄ D, d̄_jj = Σ_i c̄_ij x_ij."""
        X, D = self.inputs
        return [(0, E.Product(g, bw.ref(D))), (1, E.Call("coldot", (g, bw.ref(X))))]
