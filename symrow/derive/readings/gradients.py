"""Readings that only the backward pass makes (see :mod:`symrow.derive.backward`).

Most gradients of a product are products again (combine, match, a combine
over the points), read by the classes of :mod:`.products`.  These are the
others:

* :class:`SoftmaxVJP`: the row-wise softmax, backwards: each row of the
  gradient is ``p_i ∘ (p̄_i − (p̄_i · p_i))``, the Jacobian
  ``diag(p_i) − p_iᵀ p_i`` applied to row i alone;
* :class:`PointSum`: ``Σ_i ḡ_i``, a sum over the points (a bias row moved every
  point, so its gradient gathers them all);
* :class:`RowDot` and :class:`ColDot`: the gradient of a diagonal matrix that
  scaled the points (``ḡ_i · x_i``) or the coordinates (``Σ_i ḡ_ij x_ij``);
* :class:`Block`: some columns of a gradient (the blocks of a Concat);
* :class:`DiagRow`: the diagonal of a gradient, as a row (``diag(s)``);
* :class:`RowSpread`: the gradient of a degree matrix, spread along each row;
* :class:`LayerNormVJP`: LayerNorm, backwards, each point on its own.
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...reader.notation import Function, register_function
from ...steps import Step
from .base import JP, Ctx, I, J, Reading, register, variant
from .diagonal import _Diagonal
from .layers import EPSILON

__all__ = ["SoftmaxVJP", "PointSum", "RowDot", "ColDot", "Block", "DiagRow", "RowSpread",
           "LayerNormVJP"]


def _call_label(name: str, tex: str):
    def show(items):
        return N.Call(name, items, tex=tex, text=name)
    return show


@register
class SoftmaxVJP(Reading):
    """``softmax'(P, P̄)``: the gradient of the softmax's argument, row by row."""

    reading = "softmax_vjp"
    always_named = True
    __slots__ = ()

    @classmethod
    def preferred_names(cls, node, plan):
        return ["G"]

    def compose(self, part):
        P, G = self.inputs
        inner = N.OSum([part(G), N.Neg(N.Call("rowsum", [N.Hadamard([part(G), part(P)])]))])
        return N.Hadamard([part(P), N.Paren(inner)])

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return self._entry(i, j, lambda n, r, c: n.entry(r, c))

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self._entry(i, j, lambda n, r, c: n.entry_symbol(r, c))

    def _entry(self, i, j, at):
        P, G = self.inputs
        k = JP
        dot = N.SumOver(N.OMul([at(G, i, k), at(P, i, k)]), k, 1, self.cols)
        return N.OMul([at(P, i, j), N.Paren(N.OSum([at(G, i, j), N.Neg(dot)]))])

    def value(self, get, plan):
        P, G = (sympy.Matrix(get(t)) for t in self.inputs)
        rows, cols = P.shape
        dots = [sympy.Add(*[G[i, k] * P[i, k] for k in range(cols)]) for i in range(rows)]
        return sympy.Matrix(rows, cols, lambda i, j: P[i, j] * (G[i, j] - dots[i]))

    def definition(self, parts):
        P, G = parts
        return N.Hadamard([P, N.Paren(N.OSum([G, N.Neg(N.Call("rowsum", [
            N.Hadamard([G, P])]))]))])

    def row_formula(self):
        P, G = self.inputs
        return N.Hadamard([P.row(I), N.Paren(N.OSum([G.row(I), N.Neg(
            N.Dot(G.row(I), P.row(I)))]))])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        P, G = self.inputs
        p_i, g_i = P.row(I), G.row(I)
        jac = N.OSum([N.Call("diag", [p_i]), N.Neg(N.OMul([N.Transpose(p_i), p_i]))])
        row = N.Chain([self.row(I) if self.named else N.Sub(N.Paren(self.whole()), I),
                       N.OMul([g_i, N.Paren(jac)]), self.row_formula()])
        entry = N.Chain([self.entry_symbol(I, J) if self.named else
                         N.Sub(N.Paren(self.whole()), N.Label("ij", "ij")),
                         self._entry(I, J, lambda n, r, c: n.entry_symbol(r, c))])
        whole = N.Chain(([self.seq] if self.named else []) + [
            self.definition([P.whole(), G.whole()])])
        return [ctx.step("softmax_vjp", {"P": P.whole(), "G": G.whole(), "p_i": p_i,
                                         "g_i": g_i, "i": I, "jac": jac},
                         N.Group([row, entry]), part=part),
                ctx.step("softmax_vjp_matrix", {"P": P.whole(), "G": G.whole()}, whole,
                         part=part)]


class _FromCall(Reading):
    """A backward reading whose shape follows from its first argument."""

    __slots__ = ()
    shape = staticmethod(lambda rows, cols, params: (rows, cols))

    @classmethod
    def from_call(cls, planner, expr):
        inputs = [planner.get(a) for a in expr.args]
        rows, cols = cls.shape(inputs[0].rows, inputs[0].cols, dict(expr.params))
        return planner.draft(cls, inputs, rows, cols, expr, **dict(expr.params))


@register
class PointSum(_FromCall):
    """``Σ_i ḡ_i``: every point's row added up (the gradient of a bias row)."""

    reading = "pointsum"
    always_named = False
    pointwise = False
    __slots__ = ()
    shape = staticmethod(lambda rows, cols, params: (1, cols))

    def compose(self, part):
        (G,) = self.inputs
        return N.SumOver(G.row(I), I, 1, G.rows)

    def entry(self, i, j):
        (G,) = self.inputs
        if self.seq is not None:
            return super().entry(i, j)
        if isinstance(G.rows, int):
            return N.OSum([G.entry(r, j) for r in range(1, G.rows + 1)])
        return N.SumOver(G.entry_symbol(I, j), I, 1, G.rows)

    def entry_symbol(self, i, j):
        (G,) = self.inputs
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return N.SumOver(G.entry_symbol(I, j), I, 1, G.rows)

    def row(self, i):
        return self.seq.vector(i) if self.seq is not None else self.compose(None)

    def value(self, get, plan):
        g = sympy.Matrix(get(self.inputs[0]))
        return sympy.Matrix(1, g.cols, lambda _i, j: sympy.Add(*[g[r, j]
                                                                 for r in range(g.rows)]))

    def general(self, get, plan):
        return sympy.OneMatrix(1, self.inputs[0].rows) * get(self.inputs[0])

    def definition(self, parts):
        return N.SumOver(N.Sub(parts[0], I), I, 1, self.inputs[0].rows)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        shown = N.Chain(([self.seq] if self.named else []) + [
            N.SumOver(G.row(I), I, 1, G.rows), N.OMul([N.Transpose(N.Label(
                r"\mathbf{1}", "𝟏")), G.whole()])])
        return [ctx.step("pointsum", {"G": G.whole(), "g_i": G.row(I), "n": G.rows},
                         shown, part=part)]


@register
class RowDot(_FromCall, _Diagonal):
    """The gradient of a diagonal matrix that scaled each point: entry (i, i) is ḡ_i · x_i."""

    reading = "rowdot"
    always_named = False
    __slots__ = ()
    shape = staticmethod(lambda rows, cols, params: (rows, rows))

    def compose(self, part):
        G, X = self.inputs
        return N.Call("diag", [N.Dot(G.row(I), X.row(I))])

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None:
            return super().entry(i, j)
        G, X = self.inputs
        return N.Dot(G.row(i), X.row(i))

    entry_symbol = entry

    def value(self, get, plan):
        g, x = (sympy.Matrix(get(t)) for t in self.inputs)
        return sympy.Matrix(self.rows, self.rows, lambda i, j: sympy.Add(*[
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
class ColDot(_FromCall, _Diagonal):
    """The gradient of a diagonal matrix that scaled each coordinate: entry (j, j) is
    Σ_i ḡ_ij x_ij."""

    reading = "coldot"
    always_named = False
    __slots__ = ()
    shape = staticmethod(lambda rows, cols, params: (cols, cols))

    def compose(self, part):
        G, X = self.inputs
        return N.Call("diag", [N.SumOver(N.Hadamard([G.row(I), X.row(I)]), I, 1, G.rows)])

    def entry(self, i, j):
        if isinstance(i, int) and isinstance(j, int) and i != j:
            return sympy.S.Zero
        if self.seq is not None:
            return super().entry(i, j)
        G, X = self.inputs
        if isinstance(G.rows, int) and isinstance(i, int):
            return N.OSum([N.OMul([G.entry(r, i), X.entry(r, i)])
                           for r in range(1, G.rows + 1)])
        return N.SumOver(N.OMul([G.entry_symbol(I, i), X.entry_symbol(I, i)]), I, 1, G.rows)

    entry_symbol = entry

    def value(self, get, plan):
        g, x = (sympy.Matrix(get(t)) for t in self.inputs)
        return sympy.Matrix(self.rows, self.rows, lambda i, j: sympy.Add(*[
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
class Block(_FromCall):
    """Columns ``start + 1`` to ``start + width`` of a gradient: the block that belongs
    to one of the matrices placed side by side."""

    reading = "block"
    always_named = False
    __slots__ = ("start", "width")
    shape = staticmethod(lambda rows, cols, params: (rows, params["width"]))

    def params(self) -> dict:
        return {"start": self.start, "width": self.width}

    def compose(self, part):
        return N.Sub(N.Paren(part(self.inputs[0])), N.Label(
            r":,\,%s:%s" % (_tex(self.start + 1), _tex(self.start + self.width)),
            f":,{self.start + 1}:{self.start + self.width}"))

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return self.inputs[0].entry(i, self.start + j)

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self.inputs[0].entry_symbol(i, self.start + j)

    def value(self, get, plan):
        g = sympy.Matrix(get(self.inputs[0]))
        return g[:, self.start:self.start + self.width]

    def definition(self, parts):
        return self.compose(lambda n: parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        shown = N.Chain(([self.seq] if self.named else []) + [
            self.compose(lambda n: n.whole())])
        return [ctx.step("block", {"G": G.whole(), "first": self.start + 1,
                                   "last": self.start + self.width}, shown, part=part)]


def _tex(x):
    return sympy.latex(x) if isinstance(x, sympy.Basic) else str(x)


@register
class DiagRow(_FromCall):
    """The diagonal of a gradient, as a row: ``s̄_j = ḡ_jj`` (for ``diag(s)``)."""

    reading = "diagrow"
    always_named = False
    pointwise = False
    __slots__ = ()
    shape = staticmethod(lambda rows, cols, params: (1, cols))

    def compose(self, part):
        return N.Call("diagonal", [part(self.inputs[0])])

    def entry(self, i, j):
        return self.inputs[0].entry(j, j) if self.seq is None else super().entry(i, j)

    def entry_symbol(self, i, j):
        return self.inputs[0].entry_symbol(j, j) if self.seq is None else \
            self.seq.symbol(i, j)

    def value(self, get, plan):
        g = sympy.Matrix(get(self.inputs[0]))
        return sympy.Matrix(1, g.cols, lambda _i, j: g[j, j])

    def definition(self, parts):
        return N.Call("diagonal", parts)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        return [ctx.step("diagrow", {"G": G.whole()}, N.Chain([
            N.Sub(N.Paren(self.whole()), J), G.entry_symbol(J, J)]), part=part)]


@register
class RowSpread(_FromCall):
    """The gradient of a degree matrix spread along each row: entry (i, j) is ḡ_ii."""

    reading = "rowspread"
    always_named = False
    __slots__ = ()

    def compose(self, part):
        return N.OMul([part(self.inputs[0]), N.Label(r"\mathbf{1}\mathbf{1}^{T}", "𝟏𝟏ᵀ")])

    def entry(self, i, j):
        return self.inputs[0].entry(i, i) if self.seq is None else super().entry(i, j)

    def entry_symbol(self, i, j):
        return self.inputs[0].entry_symbol(i, i) if self.seq is None else \
            self.seq.symbol(i, j)

    def value(self, get, plan):
        g = sympy.Matrix(get(self.inputs[0]))
        return sympy.Matrix(g.rows, g.cols, lambda i, _j: g[i, i])

    def definition(self, parts):
        return self.compose(lambda n: parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        return [ctx.step("rowspread", {"G": G.whole()}, N.Chain([
            N.Sub(N.Paren(self.whole()), N.Label("ij", "ij")), G.entry_symbol(I, I)]),
            part=part)]


@register
class LayerNormVJP(Reading):
    """LayerNorm backwards, each point on its own: with x̂_i the normalised point and
    n̄_i = ȳ_i ∘ γ, ``x̄_i = (n̄_i − mean(n̄_i) − x̂_i mean(n̄_i ∘ x̂_i)) / sqrt(σ_i² + ε)``."""

    reading = "layernorm_vjp"
    always_named = False
    __slots__ = ()

    def compose(self, part):
        return N.Call("LayerNorm'", [part(t) for t in self.inputs],
                      tex=r"\operatorname{LayerNorm}'", text="LayerNorm′")

    def value(self, get, plan):
        x = sympy.Matrix(get(self.inputs[0]))
        g = sympy.Matrix(get(self.inputs[1]))
        gain = sympy.Matrix(get(self.inputs[2])) if len(self.inputs) > 2 else None
        d = x.cols
        rows = []
        for i in range(x.rows):
            row = [x[i, j] for j in range(d)]
            mu = sympy.Add(*row) / d
            rstd = 1 / sympy.sqrt(sympy.Add(*[(v - mu) ** 2 for v in row]) / d + EPSILON)
            norm = [(v - mu) * rstd for v in row]
            dn = [g[i, j] * (gain[0, j] if gain is not None else 1) for j in range(d)]
            mean_dn = sympy.Add(*dn) / d
            mean_dnx = sympy.Add(*[a * b for a, b in zip(dn, norm)]) / d
            rows.append([(dn[j] - mean_dn - norm[j] * mean_dnx) * rstd for j in range(d)])
        return sympy.Matrix(rows)

    def definition(self, parts):
        return N.Call("LayerNorm'", parts, tex=r"\operatorname{LayerNorm}'",
                      text="LayerNorm′")

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        X, G = self.inputs[0], self.inputs[1]
        x_hat = N.Label(r"\hat{\boldsymbol{x}}_{i}", "x̂ᵢ")
        n_i = N.Label(r"\bar{\boldsymbol{n}}_{i}", "n̄ᵢ")
        gain = N.Hadamard([G.row(I), self.inputs[2].whole()]) if len(self.inputs) > 2 \
            else G.row(I)
        shown = N.Group([
            N.Chain([n_i, gain]),
            N.Chain([self.row(I) if self.named else N.Sub(N.Paren(self.whole()), I), N.Frac(
                N.OSum([n_i, N.Neg(N.Call("mean", [n_i])), N.Neg(N.OMul([
                    x_hat, N.Call("mean", [N.Hadamard([n_i, x_hat])])]))]),
                N.Sqrt(N.OSum([N.Label(r"\sigma_{i}^{2}", "σᵢ²"), EPSILON])))]),
        ])
        return [ctx.step("layernorm_vjp", {"X": X.whole(), "G": G.whole(), "x_i": X.row(I),
                                           "eps": EPSILON}, shown, part=part)]


for _fn in (Function("softmax_vjp", "softmax_vjp", r"\operatorname{softmax}'", "softmax′"),
            Function("pointsum", "pointsum", r"\sum", "Σ", "pointsum"),
            Function("rowdot", "rowdot", r"\operatorname{diag}", "diag", "rowdiag"),
            Function("coldot", "coldot", r"\operatorname{diag}", "diag", "coldiag"),
            Function("block", "block", r"\operatorname{block}", "block", "block"),
            Function("diagrow", "diagrow", r"\operatorname{diagonal}", "diagonal", "diagrow"),
            Function("rowspread", "rowspread", r"\operatorname{spread}", "spread", "square"),
            Function("layernorm_vjp", "layernorm_vjp", r"\operatorname{LayerNorm}'",
                     "LayerNorm′")):
    register_function(_fn)
