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
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...formula import expr as E
from ...steps import Step
from .base import Ctx, I, J, Reading, register, variant
from .entrywise import Sum

__all__ = ["Bias", "Hadamard", "LayerNorm", "EPSILON"]

#: the ε of LayerNorm
EPSILON = sympy.Symbol("epsilon", positive=True)


@register
class Bias(Sum):
    """Terms of one width, some of them rows added to every row (``XW + b``).

    Its formula (``as_expr``) is a sum's: the shapes say which terms are rows."""

    reading = "bias"
    __slots__ = ("is_row",)

    def params(self) -> dict:
        return {"signs": self.signs, "is_row": self.is_row}

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

    def value(self, get, plan):
        total = None
        for t, s, row in zip(self.inputs, self.signs, self.is_row):
            v = sympy.Matrix(get(t))
            if row:
                v = sympy.Matrix.vstack(*[v] * self.rows)
            v = v if s > 0 else -v
            total = v if total is None else total + v
        return total

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
    __slots__ = ()

    def compose(self, part):
        return N.Hadamard([part(t) for t in self.inputs])

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return N.OMul([t.entry(i, j) for t in self.inputs])

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return N.OMul([t.entry_symbol(i, j) for t in self.inputs])

    def value(self, get, plan):
        left, right = (sympy.Matrix(get(t)) for t in self.inputs)
        return left.multiply_elementwise(right)

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



def _mean(x_row: list):
    d = len(x_row)
    return sympy.Add(*x_row) / d


@register
class LayerNorm(Reading):
    """Each point centred, scaled to unit variance, then scaled by γ and moved by β."""

    reading = "layernorm"
    __slots__ = ()

    TEX = r"\operatorname{LayerNorm}"

    def _call(self, items):
        return N.Call("LayerNorm", items, tex=self.TEX, text="LayerNorm")

    def compose(self, part):
        return self._call([part(self.inputs[0])])

    def value(self, get, plan):
        x = sympy.Matrix(get(self.inputs[0]))
        gain = get(self.inputs[1]) if len(self.inputs) > 1 else None
        shift = get(self.inputs[2]) if len(self.inputs) > 2 else None
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
        return self._call(parts[:1])

    def row_formula(self):
        return self._call([self.inputs[0].row(I)])

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

    def as_expr(self, args):
        return E.Call("layernorm", tuple(args))

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
