"""Readings that act on every entry alike: scaling, element-wise functions and sums.

* :class:`Scale`: ``X / √d``, ``2X``, ``X / n``: every entry scaled by one number;
* :class:`Apply`: an element-wise function (exp, ReLU, σ, tanh, or a φ of the
  user's);
* :class:`Sum`: terms of one shape, added or subtracted: the points are added
  row by row.
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...formula import expr as E
from ...steps import Step
from ...values import function_of
from .base import Ctx, I, Reading, call, register, scalar_node, scaled

__all__ = ["Scale", "Apply", "Sum"]


@register
class Scale(Reading):
    """``num / den * X``: every entry scaled alike.  ``shown`` is the scale as displayed:
    √d as written, or its number (``scale="number"``)."""

    reading = "scale"
    __slots__ = ("num", "den", "shown")

    def params(self) -> dict:
        return {"num": self.num, "den": self.den}

    def compose(self, part):
        return scaled(part(self.inputs[0]), *self.shown)

    def value(self, get, plan):
        value = sympy.Matrix(get(self.inputs[0]))
        if self.num != 1:
            value = value * plan.scalar(self.num)
        return value / plan.scalar(self.den) if self.den != 1 else value

    def general(self, get, plan):
        return (self.num / self.den) * get(self.inputs[0])

    def definition(self, parts):
        return scaled(parts[0], self.num, self.den)

    def row_formula(self):
        return scaled(self.inputs[0].row(I), *self.shown)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (inner,) = self.inputs
        plan = ctx.plan
        symbols = sorted((sympy.sympify(self.num).free_symbols |
                          sympy.sympify(self.den).free_symbols), key=str)
        by = scalar_node(self.den) if self.den != 1 else scalar_node(self.num)
        shown = scaled(inner.whole(), *self.shown)
        params = {"X": inner.whole(), "by": by, "scaled": shown,
                  "direction": "divide" if self.den != 1 else "multiply"}
        if symbols:
            sym = symbols[0]
            params["d"] = plan.ties.get(sym, sym) if ctx.concrete else sym
            params["sqrt_d"] = by
        steps = [ctx.heading("scale", scaled=shown, part=part)]
        if plan.scale_mode == "number" and symbols:
            value = plan.scalar(self.num) / plan.scalar(self.den)
            if value == 1:
                return steps + [ctx.step("scale", {**params, "d": sym, "variant": "one"},
                                         part=part)]
            factor = plan.scalar(self.den if self.den != 1 else self.num)
            params["value"] = factor
            params["sqrt_d_value"] = N.Chain([by, factor])
            kind = "number"
        else:
            kind = "symbolic" if symbols else "constant"
        head = [self.seq, shown] if self.named else [shown]
        display = N.Chain(head + [table(self.rows, self.cols, lambda r, c: scaled(
            inner.entry_symbol(r, c), *self.shown))])
        if inner.named:
            # the same, for row i alone: what a shortened rendering shows (expand="one")
            row_head = [self.seq.vector(I)] if self.named else []
            params["short"] = N.Chain(row_head + [
                scaled(inner.row(I), *self.shown),
                row_bmat(self.cols, lambda c: scaled(inner.entry_symbol(I, c), *self.shown))])
        return steps + [ctx.step("scale", {**params, "variant": kind}, display, part=part)]

    def as_expr(self, args):
        return E.Scaled(args[0], self.num, self.den)

    def backward(self, g, bw):
        """C = c X: X̄ = c C̄."""
        return [(0, E.Scaled(g, self.num, self.den))]



@register
class Apply(Reading):
    """An element-wise function ``func`` (a key of :data:`symrow.formula.expr.FUNCTIONS`,
    or a user's name such as ``phi``)."""

    reading = "apply"
    __slots__ = ("func",)

    def params(self) -> dict:
        return {"func": self.func}

    def compose(self, part):
        return call(self.func, part(self.inputs[0]))

    def value(self, get, plan):
        return sympy.Matrix(get(self.inputs[0])).applyfunc(function_of(self.func))

    def definition(self, parts):
        return call(self.func, parts[0])

    def row_formula(self):
        return call(self.func, self.inputs[0].row(I))

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (inner,) = self.inputs
        fX = call(self.func, inner.whole())
        f_i = call(self.func, inner.row(I))
        head = [self.seq, fX] if self.named else [fX]
        entry = inner.entry if ctx.concrete else inner.entry_symbol
        display = N.Chain(head + [table(self.rows, self.cols,
                                        lambda r, c: call(self.func, entry(r, c)))])
        name = E.FUNCTIONS.get(self.func, (None, self.func))
        f = N.Label(name[0] or r"\operatorname{%s}" % self.func, name[1])
        return [ctx.heading("apply", fX=fX, part=part),
                ctx.step("apply", {"f": f, "fX": fX, "X": inner.whole(), "x_i": inner.row(I),
                                   "f_i": f_i}, display, part=part),
                ctx.step("apply_row", {"f_i": f_i, "x_i": inner.row(I), "f": f},
                         N.Chain([self.row(I) if self.named else f_i,
                                  row_bmat(inner.cols, lambda c: call(
                                      self.func, inner.entry_symbol(I, c)))]),
                         part=part + ".row")]

    def as_expr(self, args):
        return E.Apply(self.func, args[0])

    def backward(self, g, bw):
        """C = f(X) entry by entry: X̄ = C̄ ∘ f'(X)."""
        return [(0, E.Hadamard(g, E.Apply(self.func + "'", bw.ref(self.inputs[0]))))]



@register
class Sum(Reading):
    """Terms of one shape, added or subtracted: ``signs[k]`` is +1 or -1 for input k."""

    reading = "sum"
    __slots__ = ("signs",)

    def params(self) -> dict:
        return {"signs": self.signs}

    def _signed(self, items):
        return N.OSum([x if s > 0 else N.Neg(x) for x, s in zip(items, self.signs)])

    def compose(self, part):
        return self._signed([part(t) for t in self.inputs])

    def value(self, get, plan):
        total = None
        for t, s in zip(self.inputs, self.signs):
            v = sympy.Matrix(get(t))
            v = v if s > 0 else -v
            total = v if total is None else total + v
        return total

    def general(self, get, plan):
        return sympy.MatAdd(*[get(t) if s > 0 else -get(t)
                              for t, s in zip(self.inputs, self.signs)])

    def definition(self, parts):
        return self._signed(parts)

    def row_formula(self):
        return self._signed([t.row(I) for t in self.inputs])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        whole = self._signed([t.whole() for t in self.inputs])
        head = [self.seq] if self.named else []
        steps = [ctx.heading("sum", S=whole, part=part),
                 ctx.step("sum", {"S": whole, "terms": len(self.inputs), "i": I},
                          N.Chain(([self.seq.vector(I)] if self.named else []) +
                                  [self.row_formula()]), part=part)]
        if ctx.concrete:
            def entry(r, c):
                return self._signed([t.entry(r, c) for t in self.inputs])
            steps.append(ctx.step("sum_entries", {"S": whole},
                                  N.Chain(head + [whole, table(self.rows, self.cols, entry)]),
                                  part=part + ".entries"))
        return steps

    def as_expr(self, args):
        return E.Sum(tuple(args), tuple(self.signs))

    def backward(self, g, bw):
        """C = ±X ± Y ...: each term gets ±C̄."""
        return [(k, g if s > 0 else E.Scaled(g, -1)) for k, s in enumerate(self.signs)]
