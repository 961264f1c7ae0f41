"""Readings that act on each point alone: the mask and the row-wise softmax (配分).

* :class:`Mask`: ``X + M`` inside a softmax, an additive (causal) mask;
* :class:`Softmax`: each row becomes a distribution, ``p_i = softmax(x_i)``;
* :class:`SoftmaxVJP`: the softmax backwards: each row of the gradient is
  ``p_i ∘ (p̄_i − (p̄_i · p_i))``, the Jacobian ``diag(p_i) − p_iᵀ p_i`` applied to row
  i alone.

>>> a, b = sympy.symbols("a b")
>>> Softmax.evaluate([sympy.Matrix([[a, -sympy.oo]])])
Matrix([[1, 0]])
>>> Softmax.evaluate([sympy.Matrix([[a, b]])], counts=[1])
Matrix([[1, 0]])
"""

from __future__ import annotations

from typing import Callable, Sequence

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...formula import expr as E
from ...reader.notation import Function
from ...steps import Step
from .base import (ELEMENTWISE, JP, NEG_INF, ROWWISE, ZERO, Ctx, Example, I, J, Reading,
                   register, variant)
from .entrywise import exp_of

__all__ = ["Mask", "Softmax", "SoftmaxVJP", "Causal", "visible_keys", "row_softmax",
           "MaskedRow"]


class MaskedRow(ArithmeticError):
    """A softmax row whose every entry is masked: its distribution would be 0/0."""


def row_softmax(x, counts: Sequence[int] | None = None, cls=sympy.Matrix):
    """Softmax along each row of ``x``: ``exp(x_ij) / sum_k exp(x_ik)``.

    ``counts[i]``, when given, is how many leading entries of row i take
    part (a causal mask read as a pattern); the rest are 0.  An entry of
    -oo (a mask added to the scores) is 0 as well.  Each row's denominator
    is built once, as one ``Add``.  A row with nothing left raises
    :class:`MaskedRow`."""
    rows, cols = x.shape
    exps = [[exp_of(x[i, j]) if counts is None or j < counts[i] else sympy.S.Zero
             for j in range(cols)] for i in range(rows)]
    dens = [sympy.Add(*row) for row in exps]
    for i, den in enumerate(dens):
        if den == 0:
            raise MaskedRow(f"row {i + 1} of the softmax argument is masked everywhere")
    return cls(rows, cols, lambda i, j: exps[i][j] / dens[i] if exps[i][j] != 0
               else sympy.S.Zero)


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


@register
class Mask(Reading):
    """``X + M`` inside a softmax: an additive mask; ``causal`` makes M the causal one."""

    reading = "mask"
    kind = ELEMENTWISE
    constant_inputs = (1,)
    example = Example(r"\mathrm{softmax}(QK^T + M)V", {"Q": (2, 2), "K": (2, 2), "V": (2, 1)},
                      {"causal": True})
    __slots__ = ("causal",)

    def params(self) -> dict:
        return {"causal": self.causal}

    @classmethod
    def evaluate(cls, args, causal=False):
        if causal:
            return args[0]  # the softmax reads the mask's pattern
        return args[0] + args[1]

    def matched(self):
        return self.inputs[0].matched()

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        x, m = self.inputs
        return N.OSum([x.row(i), N.Sub(m.whole(), i)])

    def compose(self, part):
        return N.OSum([part(self.inputs[0]), part(self.inputs[1])])

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

    def rule_params(self, rules) -> dict:
        x, m = self.inputs
        return {**super().rule_params(rules), "X": rules.show(x), "Xbar": rules.grad(x),
                "M": rules.show(m)}

    def backward(self, g, bw):
        """C = X + M: X̄ = C̄; the mask itself is not differentiated."""
        return [(0, g)]



@register
class Softmax(Reading):
    """The row-wise softmax: each row becomes a distribution (配分)."""

    reading = "softmax"
    kind = ROWWISE
    always_named = True
    distribution = True
    stage = "distribution"
    notation = Function("softmax", "softmax", r"\operatorname{softmax}", "softmax")
    example = Example(r"\mathrm{softmax}(QK^T/\sqrt{d})V", {"Q": (2, 2), "K": (2, 2),
                                                            "V": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args, counts: Sequence[int] | None = None):
        """Softmax along each row (see :func:`row_softmax`); ``counts``: how many
        leading entries of each row a causal mask lets take part."""
        return row_softmax(args[0], counts)

    def evaluation_params(self, plan) -> dict:
        mask = self.mask()
        if mask is None:
            return {}
        visible = visible_keys(mask)
        return {"counts": [visible(i + 1) for i in range(self.rows)]}

    def mask(self):
        arg = self.inputs[0]
        return arg if isinstance(arg, Mask) and arg.causal else None

    def matched(self):
        """The queries, when its scores are a match: row i distributes over their matches."""
        return self.inputs[0].matched()

    def scores(self) -> Reading:
        """What it exponentiates, before any mask."""
        arg = self.inputs[0]
        return arg.inputs[0] if isinstance(arg, Mask) else arg

    def definition(self, parts):
        return N.Call("softmax", parts)

    def row_formula(self):
        return N.Call("softmax", [self.inputs[0].row(I)])

    @classmethod
    def preferred_names(cls, node, plan):
        return ["P"]

    def steps(self, ctx: Ctx, part: str):
        arg = self.inputs[0]
        scores = self.scores()
        causal = Causal(self.mask())
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
        matched = self.matched()
        q_i = matched.row(I) if matched is not None else None
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

    def rule_params(self, rules) -> dict:
        return {**super().rule_params(rules), "P": rules.show(self), "Pbar": rules.grad(self)}

    def rule_notes(self, rules, ctx: Ctx, part: str) -> list[Step]:
        """When P = softmax(...) weighs a combine O = PV, rowsum(P̄ ∘ P) = rowsum(Ō ∘ O):
        the row sums FlashAttention computes from the output alone."""
        out = []
        for c in rules.consumers(self):
            if not (c.weighs(self) and c.named and self.named):
                continue
            P, O, V = self.seq, c.seq, c.inputs[1].whole()
            Pbar, Obar = rules.grad(self), rules.grad(c)
            out.append(ctx.step("backward_flash", {
                "P": P, "O": O, "Pbar": Pbar, "Obar": Obar, "PV": N.OMul([P, V]),
                "ObarVT": N.OMul([Obar, N.Transpose(V)]), "PbarP": N.Hadamard([Pbar, P])},
                N.Chain([N.Call("rowsum", [N.Hadamard([Pbar, P])]),
                         N.Call("rowsum", [N.Hadamard([Obar, O])])]), part=part))
        return out

    def backward(self, g, bw):
        """P = softmax(X) by rows: X̄ = P ∘ (P̄ − rowsum(P̄ ∘ P))."""
        return [(0, E.Call("softmax_vjp", (bw.ref(self), g)))]


@register
class SoftmaxVJP(Reading):
    """``softmax'(P, P̄)``: the gradient of the softmax's argument, row by row."""

    reading = "softmax_vjp"
    kind = ROWWISE
    always_named = True
    backward_only = True
    notation = Function("softmax_vjp", "softmax_vjp", r"\operatorname{softmax}'", "softmax′")
    example = Softmax.example
    __slots__ = ()

    @classmethod
    def preferred_names(cls, node, plan):
        return ["G"]

    @classmethod
    def evaluate(cls, args):
        P, G = args
        rows, cols = P.shape
        dots = [sympy.Add(*[G[i, k] * P[i, k] for k in range(cols)]) for i in range(rows)]
        return sympy.Matrix(rows, cols, lambda i, j: P[i, j] * (G[i, j] - dots[i]))

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
        return [ctx.step("softmax_vjp", {"Y": self.whole(), "P": P.whole(), "G": G.whole(),
                                         "p_i": p_i, "g_i": g_i, "i": I, "jac": jac},
                         N.Group([row, entry]), part=part),
                ctx.step("softmax_vjp_matrix", {"Y": self.whole(), "P": P.whole(),
                                                "G": G.whole(),
                                                "GP": N.Hadamard([G.whole(), P.whole()])},
                         whole, part=part)]
