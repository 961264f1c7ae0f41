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

The backward pass adds the gradients of the diagonal matrices: :class:`RowDot`
(of one that scaled the points, ``ḡ_i · x_i``), :class:`ColDot` (of one that
scaled the coordinates, ``Σ_i ḡ_ij x_ij``), :class:`DiagRow` (the diagonal of
a gradient, as a row, for ``diag(s)``) and :class:`RowSpread` (a degree
matrix's, spread along each row).

An operand is diagonal when it is declared so (``diagonal=[...]``,
``--diagonal NAME``); its entries off the diagonal are 0.
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import column, row_bmat, table
from ...errors import ShapeError
from ...formula import expr as E
from ...reader.notation import Function
from ...steps import Step
from .base import (DIAGONAL, GIVEN, MIXING, ROWWISE, Ctx, Example, I, J, Reading, register,
                   variant)
from .structure import Operand

__all__ = ["Degree", "Diag", "DiagPower", "RowScale", "ColScale", "Identity",
           "DiagonalOperand", "is_diagonal", "ONE", "RowDot", "ColDot", "DiagRow",
           "RowSpread"]

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

    kind = DIAGONAL
    diagonal = True
    pointwise = False
    __slots__ = ()

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None or not self.inputs:
            return super().entry(i, j)
        return self.diagonal_entry(i, lambda n, r, c: n.entry(r, c))

    def entry_symbol(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None or not self.inputs:
            return super().entry_symbol(i, j)
        return self.diagonal_entry(i, lambda n, r, c: n.entry_symbol(r, c))

    def diagonal_entry(self, i, at):
        """Entry (i, i) of the value shown unnamed; ``at(input, r, c)`` is an entry of an
        input (by value for :meth:`entry`, by name for :meth:`entry_symbol`)."""
        raise AssertionError(f"a {self.reading} reading shows its own entries")


class DiagonalOperand(_Diagonal, Operand):
    """An operand declared diagonal: its own symbols on the diagonal, 0 elsewhere."""

    reading = "operand"
    kind = GIVEN
    always_named = True
    __slots__ = ()

    def value(self, get, plan):
        return sympy.ImmutableMatrix(self.seq.matrix)


@register
class Identity(_Diagonal, Operand):
    """The identity matrix: 1 on the diagonal, 0 elsewhere."""

    reading = "identity"
    kind = GIVEN
    always_named = True
    given = False
    example = Example("(A + I) X", {"A": (2, 2), "X": (2, 1)})
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
    notation = Function("degree", "degree", r"\operatorname{diag}", "diag")
    example = Example(r"\tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2} X",
                      {r"\tilde{A}": (2, 2), "X": (2, 1)})
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        return _square(sizes, expr, shapes)

    @classmethod
    def evaluate(cls, args):
        a = args[0]
        return sympy.Matrix(a.rows, a.cols, lambda i, j: sympy.Add(
            *[a[i, k] for k in range(a.cols)]) if i == j else sympy.S.Zero)

    @classmethod
    def display_call(cls, args):
        return N.Call("diag", [N.OMul([args[0], ONE])])

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

    def backward(self, g, bw):
        """D = diag(A 1): ā_ij = d̄_ii, every entry of row i counted in d_ii."""
        return [(0, E.Call("rowspread", (g,)))]



@register
class Diag(_Diagonal):
    """``diag(s)``: the entries of the row s (or of the column s, as papers write
    ``\\mathrm{diag}(A\\mathbf{1})``) on the diagonal."""

    reading = "diag"
    notation = Function("diag", "diag", r"\operatorname{diag}", "diag")
    example = Example(r"\mathrm{diag}(\mathbf{s}) X", {r"\mathbf{s}": (1, 2), "X": (2, 1)})
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        """A row (or a column) of numbers on the diagonal."""
        first = shapes[0]
        if sizes.known(first[1]) == 1 and sizes.known(first[0]) != 1:
            return first[0], first[0]          # a column, such as A1
        if not sizes.one(first[0]):
            raise ShapeError(f"diag takes a row or a column of numbers; "
                             f"{E.text(expr.args[0])} is {sizes.shown(first)}")
        return first[1], first[1]

    @classmethod
    def evaluate(cls, args):
        s = args[0]
        if s.cols == 1 and s.rows != 1:
            s = s.T
        return sympy.Matrix(s.cols, s.cols, lambda i, j: s[0, i] if i == j else sympy.S.Zero)

    def _column(self) -> bool:
        s = self.inputs[0]
        return s.cols == 1 and s.rows != 1

    def compose(self, part):
        return N.Call("diag", [part(self.inputs[0])])

    def entry(self, i, j):
        s = self.inputs[0]
        at = (lambda k: (k, 1)) if self._column() else (lambda k: (1, k))
        if isinstance(i, int) and isinstance(j, int):
            return s.entry(*at(i)) if i == j else sympy.S.Zero
        return s.entry_symbol(*at(i))

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return super().entry_symbol(i, j)
        return self.entry(i, j)

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

    def backward(self, g, bw):
        """D = diag(s): s̄_j = d̄_jj (a column for a column s)."""
        if self._column():
            return [(0, E.Transpose(E.Call("diagrow", (g,))))]
        return [(0, E.Call("diagrow", (g,)))]



@register
class DiagPower(_Diagonal):
    """``D^p`` for a diagonal D: entry (i, i) is d_ii^p."""

    reading = "power"
    example = Example("D^{-1/2} X", {"D": (2, 2), "X": (2, 1)}, {"diagonal": ["D"]})
    __slots__ = ("exponent",)

    def params(self) -> dict:
        return {"exponent": self.exponent}

    @classmethod
    def evaluate(cls, args, exponent):
        d = args[0]
        return sympy.Matrix(d.rows, d.cols, lambda i, j: d[i, i] ** exponent
                            if i == j else sympy.S.Zero)

    def compose(self, part):
        return N.Power(part(self.inputs[0]), self.exponent)

    def diagonal_entry(self, i, at):
        return sympy.Pow(at(self.inputs[0], i, i), self.exponent, evaluate=False)

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
    kind = ROWWISE
    always_named = True
    example = Example("DX", {"D": (2, 2), "X": (2, 1)}, {"diagonal": ["D"]})
    __slots__ = ()

    def spine_input(self):
        return self.inputs[1]

    @classmethod
    def evaluate(cls, args):
        d, x = args
        return sympy.Matrix(x.rows, x.cols, lambda i, j: d[i, i] * x[i, j])

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
    kind = ROWWISE
    always_named = True
    example = Example(r"X \Lambda", {"X": (2, 2), r"\Lambda": (2, 2)},
                      {"diagonal": [r"\Lambda"]})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        x, d = args
        return sympy.Matrix(x.rows, x.cols, lambda i, j: x[i, j] * d[j, j])

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


@register
class RowDot(_Diagonal):
    """The gradient of a diagonal matrix that scaled each point: entry (i, i) is ḡ_i · x_i."""

    reading = "rowdot"
    backward_only = True
    notation = Function("rowdot", "rowdot", r"\operatorname{diag}", "diag")
    example = RowScale.example
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        first = _one_shape(sizes, expr, shapes)
        return first[0], first[0]

    def compose(self, part):
        # the whole as its definition, diag(rowsum(Ḡ ⊙ X)): its entries are ḡ_i · x_i
        # (diag(ḡ_i · x_i) named a row index in a claim about the whole matrix)
        G, X = self.inputs
        return N.Call("diag", [N.Call("rowsum", [N.Hadamard([part(G), part(X)])])])

    def diagonal_entry(self, i, at):
        G, X = self.inputs
        return N.Dot(G.row(i), X.row(i))

    @classmethod
    def evaluate(cls, args):
        g, x = args
        return sympy.Matrix(g.rows, g.rows, lambda i, j: sympy.Add(*[
            g[i, k] * x[i, k] for k in range(g.cols)]) if i == j else sympy.S.Zero)

    def definition(self, parts):
        return N.Call("diag", [N.Call("rowsum", [N.Hadamard(parts)])])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        G, X = self.inputs
        d = N.Chain([N.Sub(N.Paren(self.whole()), N.Label("ii", "ii")),
                     N.Dot(G.row(I), X.row(I))])
        return [ctx.step("rowdot", {"G": G.whole(), "X": X.whole(), "g_i": G.row(I),
                                    "x_i": X.row(I)}, d, part=part)]


@register
class ColDot(_Diagonal):
    """The gradient of a diagonal matrix that scaled each coordinate: entry (j, j) is
    Σ_i ḡ_ij x_ij."""

    reading = "coldot"
    backward_only = True
    notation = Function("coldot", "coldot", r"\operatorname{diag}", "diag")
    example = ColScale.example
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        first = _one_shape(sizes, expr, shapes)
        return first[1], first[1]

    def compose(self, part):
        G, X = self.inputs
        return N.Call("diag", [N.SumOver(N.Hadamard([G.row(I), X.row(I)]), I, 1, G.rows)])

    def diagonal_entry(self, i, at):
        G, X = self.inputs
        if isinstance(G.rows, int) and isinstance(i, int):
            return N.OSum([N.OMul([at(G, r, i), at(X, r, i)]) for r in range(1, G.rows + 1)])
        return N.SumOver(N.OMul([G.entry_symbol(I, i), X.entry_symbol(I, i)]), I, 1, G.rows)

    @classmethod
    def evaluate(cls, args):
        g, x = args
        return sympy.Matrix(g.cols, g.cols, lambda i, j: sympy.Add(*[
            g[r, i] * x[r, i] for r in range(g.rows)]) if i == j else sympy.S.Zero)

    def definition(self, parts):
        return N.Call("diag", [N.OMul([N.Transpose(N.Label(r"\mathbf{1}", "𝟏")),
                                       N.Hadamard(parts)])])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        G, X = self.inputs
        d = N.Chain([N.Sub(N.Paren(self.whole()), N.Label("jj", "jj")),
                     N.SumOver(N.OMul([G.entry_symbol(I, J), X.entry_symbol(I, J)]), I, 1,
                               G.rows)])
        return [ctx.step("coldot", {"G": G.whole(), "X": X.whole(), "j": J}, d, part=part)]


@register
class DiagRow(Reading):
    """The diagonal of a gradient, as a row: ``s̄_j = ḡ_jj`` (for ``diag(s)``)."""

    reading = "diagrow"
    kind = MIXING
    pointwise = False
    backward_only = True
    notation = Function("diagrow", "diagrow", r"\operatorname{diagonal}", "diagonal")
    #: as its display writes it, so that a backward pass that shows it reads back
    spellings = ("diagonal",)
    example = Diag.example
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        return sizes.new(1), shapes[0][1]

    def compose(self, part):
        return N.Call("diagonal", [part(self.inputs[0])])

    def entry(self, i, j):
        return self.inputs[0].entry(j, j) if self.seq is None else super().entry(i, j)

    def entry_symbol(self, i, j):
        return self.inputs[0].entry_symbol(j, j) if self.seq is None else \
            self.seq.symbol(i, j)

    @classmethod
    def evaluate(cls, args):
        g = args[0]
        return sympy.Matrix(1, g.cols, lambda _i, j: g[j, j])

    def definition(self, parts):
        return N.Call("diagonal", parts)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        return [ctx.step("diagrow", {"G": G.whole()}, N.Chain([
            N.Sub(N.Paren(self.whole()), J), G.entry_symbol(J, J)]), part=part)]


@register
class RowSpread(Reading):
    """The gradient of a degree matrix spread along each row: entry (i, j) is ḡ_ii."""

    reading = "rowspread"
    kind = ROWWISE
    backward_only = True
    notation = Function("rowspread", "rowspread", r"\operatorname{spread}", "spread")
    example = Degree.example
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        return _square(sizes, expr, shapes)

    def compose(self, part):
        return N.OMul([part(self.inputs[0]), N.Label(r"\mathbf{1}\mathbf{1}^{T}", "𝟏𝟏ᵀ")])

    def entry(self, i, j):
        return self.inputs[0].entry(i, i) if self.seq is None else super().entry(i, j)

    def entry_symbol(self, i, j):
        return self.inputs[0].entry_symbol(i, i) if self.seq is None else \
            self.seq.symbol(i, j)

    @classmethod
    def evaluate(cls, args):
        g = args[0]
        return sympy.Matrix(g.rows, g.cols, lambda i, _j: g[i, i])

    def definition(self, parts):
        return self.compose(lambda n: parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        return [ctx.step("rowspread", {"G": G.whole()}, N.Chain([
            N.Sub(N.Paren(self.whole()), N.Label("ij", "ij")), G.entry_symbol(I, I)]),
            part=part)]


def _square(sizes, expr, shapes):
    """The shape of a function of a square matrix (a degree matrix)."""
    first = shapes[0]
    if not sizes.same(first[0], first[1]):
        raise ShapeError(f"{E.text(expr)} needs a square matrix; "
                         f"{E.text(expr.args[0])} is {sizes.shown(first)}")
    return first


def _one_shape(sizes, expr, shapes):
    """The shape of the arguments of a function whose arguments have one shape."""
    first = shapes[0]
    for arg, rc in zip(expr.args[1:], shapes[1:]):
        if not (sizes.same(first[0], rc[0]) and sizes.same(first[1], rc[1])):
            raise ShapeError(f"the arguments of {E.text(expr)} must have one shape; "
                             f"{E.text(expr.args[0])} is {sizes.shown(first)} and "
                             f"{E.text(arg)} is {sizes.shown(rc)}")
    return first
