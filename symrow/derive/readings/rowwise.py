"""Readings that act on each point alone: the mask and the row-wise softmax (配分).

* :class:`Mask`: ``X + M`` inside a softmax, an additive (causal) mask;
* :class:`Softmax`: each row becomes a distribution, ``p_i = softmax(x_i)``.
"""

from __future__ import annotations

from typing import Callable

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...formula import expr as E
from ...values import row_softmax
from .base import (JP, NEG_INF, ZERO, Ctx, I, J, Reading, register, variant)

__all__ = ["Mask", "Softmax", "Causal", "causal_of", "scores_of", "under", "visible_keys"]


def visible_keys(mask: Reading) -> Callable[[int], int]:
    """Under a causal mask, how many keys query ``i`` (1-based) sees: i + (n - m)."""
    m, n = mask.rows, mask.cols
    return lambda i: i + n - m


class Causal:
    """The causal rule of a mask node: query i sees the keys j <= i + (n - m)."""

    def __init__(self, mask: Reading | None):
        self.node = mask
        self.on = mask is not None and mask.causal
        if self.on:
            self.m, self.n = mask.rows, mask.cols
            self.offset = self.n - self.m
            self.visible = visible_keys(mask)

    def last(self, i, n):
        """The last key query ``i`` sees (``n`` without a mask)."""
        if not self.on:
            return n
        if isinstance(i, int) and isinstance(self.m, int):
            return self.visible(i)
        return i + self.offset

    def sees(self, i, j) -> bool:
        if not self.on:
            return True
        if isinstance(i, int) and isinstance(j, int):
            return j <= (self.visible(i) if isinstance(self.m, int) else i)
        return not isinstance(j, sympy.Basic) or isinstance(i, sympy.Basic)

    def rule(self):
        last = I + self.offset
        tex, text = sympy.latex(last), str(last).replace("-", "−")
        return r"j \leq " + tex, "j ≤ " + text, "j > " + tex, "j > " + text

    def cases(self, seen, unseen) -> N.Cases:
        le_tex, le_text, gt_tex, gt_text = self.rule()
        return N.Cases([(seen, N.Label(f"({le_tex})", f"({le_text})")),
                        (unseen, N.Label(f"({gt_tex})", f"({gt_text})"))])


def causal_of(node: Reading) -> Causal:
    """The causal mask under a softmax node (or under the softmax that weighs a combine)."""
    if node.reading == "combine" and node.inputs[0].reading == "softmax":
        node = node.inputs[0]
    if node.reading == "softmax" and node.inputs[0].reading == "mask":
        return Causal(node.inputs[0] if node.inputs[0].causal else None)
    return Causal(None)


def scores_of(softmax: Reading) -> Reading:
    """What a softmax exponentiates, before any mask."""
    arg = softmax.inputs[0]
    return arg.inputs[0] if arg.reading == "mask" else arg


def under(node: Reading, *readings: str) -> Reading:
    """Go down through nodes of the given readings (scale, mask)."""
    while node.reading in readings:
        node = node.inputs[0]
    return node


@register
class Mask(Reading):
    """``X + M`` inside a softmax: an additive mask; ``causal`` makes M the causal one."""

    reading = "mask"
    __slots__ = ("causal",)

    def params(self) -> dict:
        return {"causal": self.causal}

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        x, m = self.inputs
        return N.OSum([x.row(i), N.Sub(m.whole(), i)])

    def compose(self, part):
        return N.OSum([part(self.inputs[0]), part(self.inputs[1])])

    def value(self, get, plan):
        x = sympy.Matrix(get(self.inputs[0]))
        if self.causal:
            return x  # the softmax reads the mask's pattern
        return x + sympy.Matrix(get(self.inputs[1]))

    def general(self, get, plan):
        if not self.causal:
            return get(self.inputs[0]) + get(self.inputs[1])
        return super().general(get, plan)

    def definition(self, parts):
        return N.OSum(parts)

    def steps(self, ctx: Ctx, part: str):
        x, M = self.inputs
        Mw = M.whole()
        if not self.causal:
            display = N.Chain([self.whole(), table(self.rows, self.cols, self.entry)])
            return [ctx.heading("mask", part=part),
                    ctx.step("mask", {"M": Mw, "X": x.whole(), "variant": "additive"}, display,
                             part=part)]
        causal = Causal(self)
        ij = N.Label("ij", "ij")
        square = causal.m == causal.n
        shown = [N.Chain([N.Sub(Mw, ij), causal.cases(ZERO, NEG_INF)])]
        if ctx.concrete or square:
            shown.insert(0, N.Chain([Mw, table(self.rows, self.cols, lambda r, c: ZERO
                                               if causal.sees(r, c) else NEG_INF)]))
            masked = N.Chain([self.whole(), table(
                self.rows, self.cols, lambda r, c: x.entry_symbol(r, c) if causal.sees(r, c)
                else NEG_INF)])
        else:  # general m and n: the pattern depends on n - m, so show the rule
            masked = N.Chain([N.Sub(N.Paren(self.whole()), ij),
                              causal.cases(x.entry_symbol(I, J), NEG_INF)])
        return [
            ctx.heading("mask", part=part),
            ctx.step("mask", {"M": Mw, "m": causal.m, "n": causal.n, "i": I,
                              "last": I + causal.offset,
                              "variant": "square" if square else "offset"}, N.Group(shown),
                     part=part),
            ctx.step("mask_result", {"M": Mw, "X": x.whole()}, masked, part=part),
        ]

    def as_expr(self, args):
        return E.Sum(tuple(args), (1, 1))

    def backward(self, g, bw):
        """C = X + M: X̄ = C̄; the mask itself is not differentiated."""
        return [(0, g)]



@register
class Softmax(Reading):
    """The row-wise softmax: each row becomes a distribution (配分)."""

    reading = "softmax"
    always_named = True
    __slots__ = ()

    def value(self, get, plan):
        x = sympy.Matrix(get(self.inputs[0]))
        arg = self.inputs[0]
        counts = None
        if arg.reading == "mask" and arg.causal:
            visible = visible_keys(arg)
            counts = [visible(i + 1) for i in range(x.rows)]
        return row_softmax(x, counts)

    def definition(self, parts):
        return N.Call("softmax", parts)

    def row_formula(self):
        return N.Call("softmax", [self.inputs[0].row(I)])

    @classmethod
    def preferred_names(cls, node, plan):
        return ["P"]

    def steps(self, ctx: Ctx, part: str):
        arg = self.inputs[0]
        scores = scores_of(self)
        causal = causal_of(self)
        P = self.seq
        n = self.cols
        p_i = P.vector(I)

        def exp_score(i, j):
            return N.Exp(scores.entry_symbol(i, j))

        steps = [
            ctx.heading("softmax", softmax=N.Call("softmax", [arg.whole()]), part=part),
            ctx.step("softmax", {"P": P, "p_i": p_i, "i": I, "X": arg.whole(),
                                 "variant": "causal" if causal.on else "plain"},
                     N.Group([N.Chain([P, N.Call("softmax", [arg.whole()])]),
                              N.Chain([p_i, N.Call("softmax", [arg.row(I)])])]), part=part),
        ]
        p_ij = P.symbol(I, J)
        if ctx.concrete:
            names = table(self.rows, n, P.symbol)
            values = table(self.rows, n, lambda r, c: N.Frac(
                exp_score(r, c), N.OSum([exp_score(r, k)
                                         for k in range(1, causal.last(r, n) + 1)]))
                if causal.sees(r, c) else ZERO)
            entry = N.Chain([P, names, N.Entrywise(names, values)])
        else:
            last = causal.last(I, n)
            frac = N.Frac(exp_score(I, J), N.SumOver(exp_score(I, JP), JP, 1, last))
            entry = N.Chain([p_ij, causal.cases(frac, ZERO) if causal.on else frac])
        steps.append(ctx.step("softmax_entry", {"p_ij": p_ij, "P": P, "variant": variant(ctx)},
                              entry, part=part + ".entries"))
        if causal.on:
            steps.append(ctx.step("softmax_mask_zero", {"M": arg.inputs[1].whole()},
                                  N.Chain([N.Exp(NEG_INF), ZERO]), part=part))
        steps.append(ctx.step("softmax_distribution", {
            "p_ij": p_ij, "p_i": p_i, "i": I, "n": n,
            "variant": "causal" if causal.on else "plain"},
            # without a mask every exponential is positive, so is every weight; a
            # mask makes some weights exactly 0
            N.Group([N.Rel(p_ij, "ge" if causal.on else "gt", ZERO)]
                    + self._row_sums(ctx, causal, exp_score)),
            part=part))
        src = under(scores, "scale", "mask")
        q_i = src.inputs[0].row(I) if src.reading == "match" else None
        steps.append(ctx.step("softmax_read", {"p_i": p_i, "n": n, "q_i": q_i, "i": I,
                                               "variant": "match" if q_i is not None
                                               else "plain"},
                              N.Chain([p_i, row_bmat(n, lambda c: P.symbol(I, c))]),
                              part=part))
        return steps

    def _row_sums(self, ctx: Ctx, causal: Causal, exp_score) -> list:
        """``p_i1 + ... + p_in = (sum of exps) / (the same sum) = 1``, per row if needed."""
        P, n = self.seq, self.cols
        if not ctx.concrete:
            last = causal.last(I, n)
            return [N.Chain([N.SumOver(P.symbol(I, J), J, 1, last),
                             N.Frac(N.SumOver(exp_score(I, J), J, 1, last),
                                    N.SumOver(exp_score(I, JP), JP, 1, last)),
                             sympy.S.One])]
        rows = [I] if not causal.on else list(range(1, self.rows + 1))
        out = []
        for r in rows:
            count = n if r is I else causal.last(r, n)
            exps = N.OSum([exp_score(r, k) for k in range(1, count + 1)])
            out.append(N.Chain([N.OSum([P.symbol(r, k) for k in range(1, count + 1)]),
                                N.Frac(exps, exps), sympy.S.One]))
        return out

    def as_expr(self, args):
        return E.Softmax(args[0])

    def backward(self, g, bw):
        """P = softmax(X) by rows: X̄ = P ∘ (P̄ − rowsum(P̄ ∘ P))."""
        return [(0, E.Call("softmax_vjp", (bw.ref(self), g)))]
