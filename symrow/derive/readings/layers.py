"""The pieces of a layer around its products: a bias row, the Hadamard product, LayerNorm.

* :class:`Bias`: ``XW + b``, a row added to every row: every point moves by
  the same vector b;
* :class:`Hadamard`: ``A ⊙ B``, entry by entry: row i of the result is
  a_i ⊙ b_i, so point i of one sequence gates point i of the other (GLU,
  RetNet's decay);
* :class:`LayerNorm`: each point on its own is centred and scaled to unit
  variance, then scaled by a gain row γ and moved by a shift row β:
  ``y_i = γ ⊙ (x_i − μ_i) / sqrt(σ_i² + ε) + β``, where μ_i and σ_i² are the
  mean and the variance of the coordinates of x_i.  ε is a small positive
  number that keeps the square root away from 0; symrow keeps it as the
  symbol ε.

The backward pass adds :class:`PointSum` (``Σ_i ḡ_i``: a bias row moved every
point, so its gradient gathers them all) and :class:`LayerNormVJP` (LayerNorm
backwards, each point on its own).
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...errors import ShapeError
from ...formula import expr as E
from ...reader.notation import Function
from ...seq import VecSeq
from ...steps import Step
from .base import DIAGONAL, ELEMENTWISE, MIXING, ROWWISE, Ctx, Example, I, J, Reading, register
from .entrywise import Sum

__all__ = ["Bias", "Hadamard", "LayerNorm", "PointSum", "LayerNormVJP", "EPSILON"]

#: the ε of LayerNorm
EPSILON = sympy.Symbol("epsilon", positive=True)


@register
class Bias(Sum):
    """Terms of one width, some of them rows added to every row (``XW + b``).

    Its formula (``as_expr``) is a sum's: the shapes say which terms are rows."""

    reading = "bias"
    example = Example("XW + b", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ("is_row",)

    def params(self) -> dict:
        return {"signs": self.signs, "is_row": self.is_row}

    @classmethod
    def evaluate(cls, args, signs, is_row):
        rows = max(v.rows for v in args)
        return Sum.evaluate([sympy.Matrix.vstack(*[v] * rows) if row else v
                             for v, row in zip(args, is_row)], signs)

    def _rows(self, i):
        return [t.row(1) if row else t.row(i) for t, row in zip(self.inputs, self.is_row)]

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        return self._signed(self._rows(i))

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return self._signed([t.entry(1 if row else i, j)
                             for t, row in zip(self.inputs, self.is_row)])

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self._signed([t.entry_symbol(1 if row else i, j)
                             for t, row in zip(self.inputs, self.is_row)])

    def general(self, get, plan):
        ones = sympy.OneMatrix(self.rows, 1)
        return sympy.MatAdd(*[(ones * get(t) if row else get(t)) * s
                              for t, s, row in zip(self.inputs, self.signs, self.is_row)])

    def row_formula(self):
        return self._signed(self._rows(I))

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        whole = self._signed([t.whole() for t in self.inputs])
        b = next(t for t, row in zip(self.inputs, self.is_row) if row)
        head = [self.seq] if self.named else []
        steps = [ctx.heading("bias", S=whole, part=part),
                 ctx.step("bias", {"S": whole, "b": b.whole(), "i": I,
                                   "c_i": self.seq.vector(I) if self.named else None},
                          N.Chain(([self.seq.vector(I)] if self.named else []) +
                                  [self.row_formula()]), part=part)]
        entry = self._signed([t.entry_symbol(1 if row else I, J)
                              for t, row in zip(self.inputs, self.is_row)])
        steps.append(ctx.step("bias_entry", {"b": b.whole(), "b_j": b.entry_symbol(1, J)},
                              N.Chain(([self.seq.symbol(I, J)] if self.named else []) +
                                      [entry]), part=part + ".entries"))
        if ctx.concrete:
            steps.append(ctx.step("sum_entries", {"S": whole},
                                  N.Chain(head + [whole, table(self.rows, self.cols,
                                                               self.entry)]),
                                  part=part + ".entries"))
        return steps

    def backward(self, g, bw):
        """C = X + b: X̄ = C̄, and b̄ = Σ_i c̄_i, since b moved every point."""
        out = []
        for k, (s, row) in enumerate(zip(self.signs, self.is_row)):
            term = E.Call("pointsum", (g,)) if row else g
            out.append((k, term if s > 0 else E.Scaled(term, -1)))
        return out



@register
class Hadamard(Reading):
    """``L ⊙ R``: entry by entry; point i of L and point i of R make point i."""

    reading = "hadamard"
    kind = ELEMENTWISE
    example = Example(r"(X \odot Y) W", {"X": (2, 2), "Y": (2, 2), "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return args[0].multiply_elementwise(args[1])

    def compose(self, part):
        return N.Hadamard([part(t) for t in self.inputs])

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return _product([t.entry(i, j) for t in self.inputs])

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return _product([t.entry_symbol(i, j) for t in self.inputs])

    def general(self, get, plan):
        return sympy.HadamardProduct(*[get(t) for t in self.inputs])

    def definition(self, parts):
        return N.Hadamard(parts)

    def row_formula(self):
        return N.Hadamard([t.row(I) for t in self.inputs])

    def terms(self, plan, shown_combine=True):
        return self.rows * self.cols

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        L, R = self.inputs
        whole = N.Hadamard([L.whole(), R.whole()])
        head = [self.seq] if self.named else []
        if L.kind == DIAGONAL and R.kind == DIAGONAL:
            # two diagonal matrices (the gradient through D^{-1}): a row of either is
            # zero off the diagonal, so the product is told by its diagonal entries
            d = N.Chain([N.Sub(N.Paren(self.whole()), N.Label("ii", "ii")),
                         N.OMul([L.entry_symbol(I, I), R.entry_symbol(I, I)])])
            steps = [ctx.heading("hadamard", S=whole, part=part),
                     ctx.step("hadamard_diagonal", {"S": whole, "L": L.whole(),
                                                    "R": R.whole(), "i": I},
                              d, part=part)]
            if ctx.concrete:
                steps.append(ctx.step("hadamard_entries", {"S": whole},
                                      N.Chain(head + [whole, table(
                                          self.rows, self.cols, lambda r, c: N.OMul(
                                              [L.entry(r, c), R.entry(r, c)]))]),
                                      part=part + ".entries"))
            return steps
        row = N.Chain(([self.seq.vector(I)] if self.named else []) + [
            N.Hadamard([L.row(I), R.row(I)]),
            row_bmat(self.cols, lambda c: N.OMul([L.entry_symbol(I, c),
                                                  R.entry_symbol(I, c)]))])
        steps = [ctx.heading("hadamard", S=whole, part=part),
                 ctx.step("hadamard", {"S": whole, "L": L.whole(), "R": R.whole(),
                                       "l_i": L.row(I), "r_i": R.row(I), "i": I},
                          row, part=part)]
        if ctx.concrete:
            steps.append(ctx.step("hadamard_entries", {"S": whole},
                                  N.Chain(head + [whole, table(
                                      self.rows, self.cols, lambda r, c: N.OMul(
                                          [L.entry(r, c), R.entry(r, c)]))]),
                                  part=part + ".entries"))
        return steps

    def as_expr(self, args):
        return E.Hadamard(*args)

    def backward(self, g, bw):
        """C = L ∘ R: L̄ = C̄ ∘ R, R̄ = C̄ ∘ L."""
        L, R = self.inputs
        return [(0, E.Hadamard(g, bw.ref(R))), (1, E.Hadamard(g, bw.ref(L)))]



def _product(factors: list):
    """Entries multiplied, as written; 0 when one of them is 0 (off a diagonal)."""
    if any(f is sympy.S.Zero for f in factors):
        return sympy.S.Zero
    return N.OMul(factors)


def _mean(x_row: list):
    d = len(x_row)
    return sympy.Add(*x_row) / d


@register
class LayerNorm(Reading):
    """Each point centred, scaled to unit variance, then scaled by γ and moved by β."""

    reading = "layernorm"
    kind = ROWWISE
    notation = Function("layernorm", "layernorm", r"\operatorname{LayerNorm}", "LayerNorm")
    spellings = ("ln",)
    example = Example(r"\mathrm{LayerNorm}(X) W", {"X": (2, 3), "W": (3, 1)})
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        """The gain and the shift are rows as wide as the points."""
        first = shapes[0]
        for arg, rc in zip(expr.args[1:], shapes[1:]):
            if not (sizes.one(rc[0]) and sizes.same(first[1], rc[1])):
                raise ShapeError(f"the gain and shift of {E.text(expr)} are rows as wide as "
                                 f"{E.text(expr.args[0])} ({sizes.shown(first)}); "
                                 f"{E.text(arg)} is {sizes.shown(rc)}")
        return first

    def compose(self, part):
        return self.display_call([part(self.inputs[0])])

    @classmethod
    def evaluate(cls, args):
        x = args[0]
        gain = args[1] if len(args) > 1 else None
        shift = args[2] if len(args) > 2 else None
        rows = []
        for i in range(x.rows):
            row = [x[i, j] for j in range(x.cols)]
            mu = _mean(row)
            var = _mean([(v - mu) ** 2 for v in row])
            scale = 1 / sympy.sqrt(var + EPSILON)
            out = []
            for j, v in enumerate(row):
                y = (v - mu) * scale
                if gain is not None:
                    y = gain[0, j] * y
                if shift is not None:
                    y = y + shift[0, j]
                out.append(y)
            rows.append(out)
        return sympy.Matrix(rows)

    def definition(self, parts):
        return self.display_call(parts[:1])

    def row_formula(self):
        return self.display_call([self.inputs[0].row(I)])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        X = self.inputs[0]
        d = X.cols
        x_i = X.row(I)
        mu = N.Label(r"\mu_{i}", "μᵢ")
        var = N.Label(r"\sigma_{i}^{2}", "σᵢ²")
        normal = N.Frac(N.OSum([x_i, N.Neg(mu)]), N.Sqrt(N.OSum([var, EPSILON])))
        y = normal
        if len(self.inputs) > 1:
            y = N.Hadamard([self.inputs[1].whole(), normal])
        if len(self.inputs) > 2:
            y = N.OSum([y, self.inputs[2].whole()])
        head = self.seq.vector(I) if self.named else self.row_formula()
        shown = N.Group([
            N.Chain([head, y]),
            N.Chain([mu, N.OMul([N.Frac(1, d), N.SumOver(X.entry_symbol(I, J), J, 1, d)])]),
            N.Chain([var, N.OMul([N.Frac(1, d), N.SumOver(
                N.Power(N.Paren(N.OSum([X.entry_symbol(I, J), N.Neg(mu)])), 2), J, 1, d)])]),
        ])
        params = {"Y": self.whole(), "X": X.whole(), "x_i": x_i, "d": d, "i": I,
                  "eps": EPSILON, "variant": "affine" if len(self.inputs) > 1 else "plain"}
        if len(self.inputs) > 1:
            params["gamma"] = self.inputs[1].whole()
        if len(self.inputs) > 2:
            params["beta"] = self.inputs[2].whole()
        return [ctx.heading("layernorm", Y=self.whole(), part=part),
                ctx.step("layernorm", params, shown, part=part),
                ctx.step("layernorm_read", params, part=part)]

    def backward(self, g, bw):
        """Each point on its own (see :class:`.gradients.LayerNormVJP`); the gain's
        gradient is Σ_i c̄_i ∘ x̂_i and the shift's Σ_i c̄_i."""
        X = bw.ref(self.inputs[0])
        gain = (bw.ref(self.inputs[1]),) if len(self.inputs) > 1 else ()
        out = [(0, E.Call("layernorm_vjp", (X, g) + gain))]
        if len(self.inputs) > 1:
            out.append((1, E.Call("pointsum", (E.Hadamard(g, E.Call("layernorm", (X,))),))))
        if len(self.inputs) > 2:
            out.append((2, E.Call("pointsum", (g,))))
        return out


@register
class PointSum(Reading):
    """``Σ_i ḡ_i``: every point's row added up (the gradient of a bias row)."""

    reading = "pointsum"
    kind = MIXING
    pointwise = False
    backward_only = True
    notation = Function("pointsum", "pointsum", r"\sum", "Σ")
    example = Bias.example
    __slots__ = ()

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        return sizes.new(1), shapes[0][1]

    @classmethod
    def evaluate(cls, args):
        g = args[0]
        return sympy.Matrix(1, g.cols, lambda _i, j: sympy.Add(*[g[r, j]
                                                                 for r in range(g.rows)]))

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

    def general(self, get, plan):
        return sympy.OneMatrix(1, self.inputs[0].rows) * get(self.inputs[0])

    def definition(self, parts):
        part = parts[0].vector(I) if isinstance(parts[0], VecSeq) else N.Sub(parts[0], I)
        return N.SumOver(part, I, 1, self.inputs[0].rows)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        shown = N.Chain(([self.seq] if self.named else []) + [
            N.SumOver(G.row(I), I, 1, G.rows), N.OMul([N.Transpose(N.Label(
                r"\mathbf{1}", "𝟏")), G.whole()])])
        return [ctx.step("pointsum", {"G": G.whole(), "g_i": G.row(I), "n": G.rows},
                         shown, part=part)]


@register
class LayerNormVJP(Reading):
    """LayerNorm backwards, each point on its own: with x̂_i the normalised point and
    n̄_i = ȳ_i ∘ γ, ``x̄_i = (n̄_i − mean(n̄_i) − x̂_i mean(n̄_i ∘ x̂_i)) / sqrt(σ_i² + ε)``."""

    reading = "layernorm_vjp"
    kind = ROWWISE
    backward_only = True
    notation = Function("layernorm_vjp", "layernorm_vjp", r"\operatorname{LayerNorm}'",
                        "LayerNorm′")
    example = LayerNorm.example
    __slots__ = ()

    def compose(self, part):
        return self.display_call([part(t) for t in self.inputs])

    @classmethod
    def evaluate(cls, args):
        x, g = args[0], args[1]
        gain = args[2] if len(args) > 2 else None
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
        return self.display_call(parts)

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
