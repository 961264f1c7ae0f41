"""The steps of each reading: what a section shows for one node of the plan.

One function per reading (:func:`combine`, :func:`match`, :func:`tcombine`,
:func:`transpose`, :func:`scale`, :func:`mask`, :func:`softmax`,
:func:`apply`, :func:`add`), plus the pieces around them: the formula as
written, the operands, the plan of definitions, the full expansion of a
softmax-weighted combine, and the summary as a chain of point maps.

Steps are language-neutral: a kind, parameters and a display.  The words
come from the templates in :mod:`symrow.narrate`, chosen by the kind, the
``style`` (``"attention"`` for the attention preset's words, none for the
generic ones) and the ``variant`` (concrete or general, ...).  Displays are
built for both kinds of size at once: a general size shows ``1, 2, ..., n``
with ellipses, a concrete one every index.

Nothing here grows faster than the products it shows (``m n d`` items);
the full expansion, which grows as the fourth power of the sizes, is one
:class:`~symrow.nodes.SoftmaxExpansion` kept by index.
"""

from __future__ import annotations

import sympy

from .. import nodes as N
from ..build import I, J, K, T, column, indices, row_bmat, table
from ..steps import Step
from ..formula import expr as E
from .plan import Node, Plan, call, scaled, scalar_node, visible_keys

__all__ = ["Ctx", "Causal", "SECTIONS", "formula_steps", "operand_steps", "plan_steps",
           "expansion", "expandable", "summary", "spine", "display_expr", "stack_of",
           "stack_of_seq", "run", "causal_of", "entrywise"]

L = sympy.Symbol("l")      # a component of a value (and of an output)
JP = sympy.Symbol("j'")    # the summation index of the softmax's denominator
NEG_INF = sympy.S.NegativeInfinity
ZERO = sympy.S.Zero


class Ctx:
    """What every section needs: the plan, the style of words, and shared helpers."""

    def __init__(self, plan: Plan, style: str | None = None):
        self.plan = plan
        self.style = style
        self.concrete = plan.concrete

    def step(self, kind: str, params: dict | None = None, display=None, *, part: str) -> Step:
        params = dict(params or {})
        if self.style and "style" not in params:
            params["style"] = self.style
        return Step(kind, params, display, part=part)

    def heading(self, topic: str, *, part: str, **params) -> Step:
        return self.step("heading", {"topic": topic, **params}, part=part)


# -- small pieces ----------------------------------------------------------------------

def stack_of(node: Node) -> N.Bmat:
    """``[x_1; x_2; ...]``: a node's points stacked."""
    return column(node.rows, node.row)


def run(size, make, last=None) -> N.OSum:
    """``make(1) + make(2) + ... + make(size)`` (with ``\\cdots`` when general)."""
    if last is not None and not isinstance(last, int):
        return N.OSum([make(1), make(2), N.Dots("c"), make(last)])
    return N.OSum([N.Dots("c") if j is None else make(j) for j in indices(
        size if last is None else last)])


def entrywise(node: Node, values) -> N.Chain:
    """``C = [c_11 ...] = [values]``, shown entry by entry when too wide."""
    names = table(node.rows, node.cols, node.seq.symbol)
    return N.Chain([node.seq, names, N.Entrywise(names, table(node.rows, node.cols, values))])


def _inner_products(left: Node, right: Node, r, c) -> N.OSum:
    """``l_r1 r_c1 + ... + l_rd r_cd``: an inner product in components."""
    return N.OSum([N.OMul([left.entry(r, t), right.entry(c, t)])
                   for t in range(1, left.cols + 1)])


class Causal:
    """The causal rule of a mask node: query i sees the keys j <= i + (n - m)."""

    def __init__(self, mask: Node | None):
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


def causal_of(node: Node) -> Causal:
    """The causal mask under a softmax node (or under the softmax that weighs a combine)."""
    if node.reading == "combine" and node.inputs[0].reading == "softmax":
        node = node.inputs[0]
    if node.reading == "softmax" and node.inputs[0].reading == "mask":
        return Causal(node.inputs[0] if node.inputs[0].causal else None)
    return Causal(None)


def _scores(softmax: Node) -> Node:
    """What a softmax exponentiates, before any mask."""
    arg = softmax.inputs[0]
    return arg.inputs[0] if arg.reading == "mask" else arg


def _under(node: Node, *readings: str) -> Node:
    """Go down through scale and mask nodes."""
    while node.reading in readings:
        node = node.inputs[0]
    return node


def _variant(ctx: Ctx) -> str:
    return "concrete" if ctx.concrete else "general"


# -- combine: L R -------------------------------------------------------------------------------

def combine(node: Node, ctx: Ctx, part: str) -> list[Step]:
    """``C = L R``: row i of C combines the points of R, weighted by the components of l_i."""
    left, right = node.inputs
    C = node.seq
    inner = left.cols
    causal = causal_of(node)
    weights = left.reading == "softmax"

    def weighted(r, last=None):
        return run(inner, lambda j: N.OMul([left.entry(r, j), right.row(j)]), last)

    LR = N.OMul([left.whole(), right.whole()])
    l_i, c_i = left.row(I), C.vector(I)
    steps = [
        ctx.heading("combine", AB=LR, part=part),
        # C = LR = [c_1; ...] = [the sums]: the sums last, as a matrix whose rows are
        # named, so that a line too narrow for it shows c_1 = ..., c_2 = ... instead
        ctx.step("combine_product", {"LR": LR, "C": C, "L": left.whole(), "R": right.whole()},
                 N.Chain([C, LR, stack_of(node),
                          N.Entrywise(stack_of(node), column(node.rows, weighted))]),
                 part=part),
        ctx.step("combine_row", {"c_i": c_i, "C": C, "i": I, "l_i": l_i, "L": left.whole(),
                                 "R": right.whole()},
                 N.Chain([c_i, weighted(I),
                          N.SumOver(N.OMul([left.entry_symbol(I, J), right.row(J)]), J, 1,
                                    inner),
                          N.OMul([l_i, right.whole()])]), part=part + ".row"),
    ]
    if causal.on:
        if ctx.concrete:
            shown = N.Group([N.Chain([C.vector(r), weighted(r, causal.visible(r))])
                             for r in range(1, node.rows + 1)])
        else:
            last = causal.last(I, inner)
            shown = N.Chain([c_i, weighted(I, last),
                             N.SumOver(N.OMul([left.entry_symbol(I, J), right.row(J)]), J, 1,
                                       last)])
        steps.append(ctx.step("combine_causal", {
            "c_i": c_i, "i": I, "r_1": right.row(1), "r_i": right.row(causal.last(I, inner)),
            "variant": "square" if causal.m == causal.n else "offset"}, shown,
            part=part + ".row"))
    k = L if ctx.style == "attention" else K
    if not ctx.concrete:
        last = causal.last(I, inner) if causal.on else None
        steps.append(ctx.step("combine_entry", {"c_ik": C.symbol(I, k), "k": k, "C": C,
                                                "variant": "general"},
                              N.Chain([C.symbol(I, k),
                                       run(inner, lambda j: N.OMul([left.entry_symbol(I, j),
                                                                    right.entry_symbol(j, k)]),
                                           last),
                                       N.SumOver(N.OMul([left.entry_symbol(I, J),
                                                         right.entry_symbol(J, k)]), J, 1,
                                                 last if last is not None else inner)]),
                              part=part + ".entries"))
    elif ctx.style != "attention":
        steps.append(ctx.step("combine_entry", {"C": C, "variant": "concrete"},
                              entrywise(node, lambda r, c: N.OSum([
                                  N.OMul([left.entry(r, j), right.entry(j, c)])
                                  for j in range(1, inner + 1)])), part=part + ".entries"))
    if weights:
        src = _under(_scores(left), "scale", "mask")
        q_i = src.inputs[0].row(I) if src.reading == "match" else None
        steps.append(ctx.step("combine_read", {"c_i": c_i, "l_i": l_i, "R": right.whole(),
                                               "q_i": q_i,
                                               "variant": "match" if q_i is not None
                                               else "plain"}, part=part + ".row"))
    return steps


# -- match: L R^T -----------------------------------------------------------------------------------

def match(node: Node, ctx: Ctx, part: str) -> list[Step]:
    """``C = L R^T``: row i of C holds the inner products of l_i with every point of R."""
    left, right = node.inputs
    C = node.seq
    RT = N.Transpose(right.whole())
    LRT = N.OMul([left.whole(), RT])
    l_i, c_i = left.row(I), C.vector(I)
    n = right.rows
    steps = [
        ctx.heading("match", ABT=LRT, part=part),
        ctx.step("match_product", {"C": C, "LRT": LRT, "L": left.whole(), "R": right.whole()},
                 N.Chain([C, LRT,
                          N.OMul([stack_of(left), row_bmat(n, lambda c: N.Transpose(
                              right.row(c)))]),
                          table(node.rows, n, lambda r, c: N.Dot(left.row(r), right.row(c)))]),
                 part=part),
        ctx.step("match_row", {"c_i": c_i, "l_i": l_i, "C": C, "R": right.whole(), "i": I},
                 N.Chain([c_i, row_bmat(n, lambda c: N.Dot(l_i, right.row(c))),
                          N.OMul([l_i, RT])]), part=part + ".row"),
    ]
    t = T if ctx.style == "attention" else K
    short = None
    if ctx.concrete:
        display = entrywise(node, lambda r, c: _inner_products(left, right, r, c))
        if left.named and right.named:
            # entry (i, j) for every i and j: what a shortened rendering shows
            short = N.Chain([C.symbol(I, J), N.OSum([
                N.OMul([left.entry_symbol(I, tt), right.entry_symbol(J, tt)])
                for tt in range(1, left.cols + 1)])])
    else:
        display = N.Chain([
            C.symbol(I, J), N.Dot(l_i, right.row(J)),
            run(left.cols, lambda tt: N.OMul([left.entry_symbol(I, tt),
                                              right.entry_symbol(J, tt)])),
            N.SumOver(N.OMul([left.entry_symbol(I, t), right.entry_symbol(J, t)]), t, 1,
                      left.cols)])
    params = {"c_ij": C.symbol(I, J), "l_i": l_i, "r_j": right.row(J), "dim": left.cols,
              "C": C, "variant": _variant(ctx)}
    if short is not None:
        params["short"] = short
    steps.append(ctx.step("match_entry", params, display, part=part + ".entries"))
    return steps


# -- A^T B: a combine over the data points ------------------------------------------------------

def tcombine(node: Node, ctx: Ctx, part: str) -> list[Step]:
    """``C = A^T B = Σ_i a_i^T b_i``: row j of C combines the points of B, weighted by
    column j of A (the points of A^T are the columns of A)."""
    left, right = node.inputs
    C = node.seq
    data = left.rows
    ATB = N.OMul([N.Transpose(left.whole()), right.whole()])
    outer = (N.SumOver(N.OMul([N.Transpose(left.row(I)), right.row(I)]), I, 1, data)
             if not ctx.concrete else
             N.OSum([N.OMul([N.Transpose(left.row(r)), right.row(r)])
                     for r in range(1, data + 1)]))
    c_j = C.vector(J)
    steps = [
        ctx.heading("tcombine", ATB=ATB, part=part),
        ctx.step("tcombine_outer", {"ATB": ATB, "A": left.whole(), "B": right.whole(),
                                    "C": C, "data": data,
                                    "outer": N.OMul([N.Transpose(left.row(I)), right.row(I)])},
                 N.Chain([C, ATB, outer]), part=part),
        ctx.step("tcombine_row", {"c_j": c_j, "j": J, "A": left.whole(), "B": right.whole(),
                                  "C": C},
                 N.Chain([c_j, run(data, lambda r: N.OMul([left.entry(r, J), right.row(r)])),
                          N.SumOver(N.OMul([left.entry_symbol(I, J), right.row(I)]), I, 1,
                                    data)]), part=part + ".row"),
    ]
    if ctx.concrete:
        display = entrywise(node, lambda r, c: N.OSum([
            N.OMul([left.entry(t, r), right.entry(t, c)]) for t in range(1, data + 1)]))
    else:
        display = N.Chain([C.symbol(J, K),
                           run(data, lambda r: N.OMul([left.entry_symbol(r, J),
                                                       right.entry_symbol(r, K)])),
                           N.SumOver(N.OMul([left.entry_symbol(I, J), right.entry_symbol(I, K)]),
                                     I, 1, data)])
    steps.append(ctx.step("tcombine_entry", {"C": C, "variant": _variant(ctx)}, display,
                          part=part + ".entries"))
    return steps


# -- a transposed result --------------------------------------------------------------------------

def transpose(node: Node, ctx: Ctx, part: str) -> list[Step]:
    (inner,) = node.inputs
    C = node.seq
    XT = N.Transpose(inner.whole())
    if ctx.concrete:
        display = N.Chain([C, XT, table(node.rows, node.cols, lambda r, c: inner.entry(c, r))])
    else:
        display = N.Chain([C.symbol(I, J), inner.entry_symbol(J, I)])
    return [ctx.heading("transpose", XT=XT, part=part),
            ctx.step("transpose", {"C": C, "XT": XT, "X": inner.whole(), "c_i": C.vector(I),
                                   "variant": _variant(ctx)}, display, part=part)]


# -- scaling ------------------------------------------------------------------------------------------

def scale(node: Node, ctx: Ctx, part: str) -> list[Step]:
    """``X / √d`` (or times a number, or over a size): every entry scaled alike."""
    (inner,) = node.inputs
    plan = ctx.plan
    symbols = sorted((sympy.sympify(node.num).free_symbols |
                      sympy.sympify(node.den).free_symbols), key=str)
    by = scalar_node(node.den) if node.den != 1 else scalar_node(node.num)
    shown = scaled(inner.whole(), *node.shown_scale)
    params = {"X": inner.whole(), "by": by, "scaled": shown,
              "direction": "divide" if node.den != 1 else "multiply"}
    if symbols:
        sym = symbols[0]
        params["d"] = plan.ties.get(sym, sym) if ctx.concrete else sym
        params["sqrt_d"] = by
    steps = [ctx.heading("scale", scaled=shown, part=part)]
    if plan.scale_mode == "number" and symbols:
        value = plan.scalar(node.num) / plan.scalar(node.den)
        if value == 1:
            return steps + [ctx.step("scale", {**params, "d": sym, "variant": "one"},
                                     part=part)]
        factor = plan.scalar(node.den if node.den != 1 else node.num)
        params["value"] = factor
        params["sqrt_d_value"] = N.Chain([by, factor])
        variant = "number"
    else:
        variant = "symbolic" if symbols else "constant"
    head = [node.seq, shown] if node.named else [shown]
    display = N.Chain(head + [table(node.rows, node.cols, lambda r, c: scaled(
        inner.entry_symbol(r, c), *node.shown_scale))])
    if inner.named:
        # the same, for row i alone: what a shortened rendering shows (expand="one")
        row_head = [node.seq.vector(I)] if node.named else []
        params["short"] = N.Chain(row_head + [
            scaled(inner.row(I), *node.shown_scale),
            row_bmat(node.cols, lambda c: scaled(inner.entry_symbol(I, c), *node.shown_scale))])
    return steps + [ctx.step("scale", {**params, "variant": variant}, display, part=part)]


# -- the mask ------------------------------------------------------------------------------------------

def mask(node: Node, ctx: Ctx, part: str) -> list[Step]:
    x, M = node.inputs
    Mw = M.whole()
    if not node.causal:
        display = N.Chain([node.whole(), table(node.rows, node.cols, node.entry)])
        return [ctx.heading("mask", part=part),
                ctx.step("mask", {"M": Mw, "X": x.whole(), "variant": "additive"}, display,
                         part=part)]
    causal = Causal(node)
    ij = N.Label("ij", "ij")
    square = causal.m == causal.n
    shown = [N.Chain([N.Sub(Mw, ij), causal.cases(ZERO, NEG_INF)])]
    if ctx.concrete or square:
        shown.insert(0, N.Chain([Mw, table(node.rows, node.cols, lambda r, c: ZERO
                                           if causal.sees(r, c) else NEG_INF)]))
        masked = N.Chain([node.whole(), table(
            node.rows, node.cols, lambda r, c: x.entry_symbol(r, c) if causal.sees(r, c)
            else NEG_INF)])
    else:  # general m and n: the pattern depends on n - m, so show the rule
        masked = N.Chain([N.Sub(N.Paren(node.whole()), ij),
                          causal.cases(x.entry_symbol(I, J), NEG_INF)])
    return [
        ctx.heading("mask", part=part),
        ctx.step("mask", {"M": Mw, "m": causal.m, "n": causal.n, "i": I,
                          "last": I + causal.offset,
                          "variant": "square" if square else "offset"}, N.Group(shown),
                 part=part),
        ctx.step("mask_result", {"M": Mw, "X": x.whole()}, masked, part=part),
    ]


# -- softmax: a distribution per row ------------------------------------------------------------------

def softmax(node: Node, ctx: Ctx, part: str) -> list[Step]:
    arg = node.inputs[0]
    scores = _scores(node)
    causal = causal_of(node)
    P = node.seq
    n = node.cols
    p_i = P.vector(I)

    def exp_score(i, j):
        return N.Exp(scores.entry_symbol(i, j))

    steps = [
        ctx.heading("softmax", part=part),
        ctx.step("softmax", {"P": P, "p_i": p_i, "i": I, "X": arg.whole(),
                             "variant": "causal" if causal.on else "plain"},
                 N.Group([N.Chain([P, N.Call("softmax", [arg.whole()])]),
                          N.Chain([p_i, N.Call("softmax", [arg.row(I)])])]), part=part),
    ]
    p_ij = P.symbol(I, J)
    if ctx.concrete:
        names = table(node.rows, n, P.symbol)
        values = table(node.rows, n, lambda r, c: N.Frac(
            exp_score(r, c), N.OSum([exp_score(r, k) for k in range(1, causal.last(r, n) + 1)]))
            if causal.sees(r, c) else ZERO)
        entry = N.Chain([P, names, N.Entrywise(names, values)])
    else:
        last = causal.last(I, n)
        frac = N.Frac(exp_score(I, J), N.SumOver(exp_score(I, JP), JP, 1, last))
        entry = N.Chain([p_ij, causal.cases(frac, ZERO) if causal.on else frac])
    steps.append(ctx.step("softmax_entry", {"p_ij": p_ij, "P": P, "variant": _variant(ctx)},
                          entry, part=part + ".entries"))
    if causal.on:
        steps.append(ctx.step("softmax_mask_zero", {"M": arg.inputs[1].whole()},
                              N.Chain([N.Exp(NEG_INF), ZERO]), part=part))
    steps.append(ctx.step("softmax_distribution", {
        "p_ij": p_ij, "p_i": p_i, "i": I, "n": n,
        "variant": "causal" if causal.on else "plain"},
        N.Group([N.Rel(p_ij, "ge", ZERO)] + _row_sums(node, ctx, causal, exp_score)),
        part=part))
    src = _under(scores, "scale", "mask")
    q_i = src.inputs[0].row(I) if src.reading == "match" else None
    steps.append(ctx.step("softmax_read", {"p_i": p_i, "n": n, "q_i": q_i, "i": I,
                                           "variant": "match" if q_i is not None else "plain"},
                          N.Chain([p_i, row_bmat(n, lambda c: P.symbol(I, c))]), part=part))
    return steps


def _row_sums(node: Node, ctx: Ctx, causal: Causal, exp_score) -> list:
    """``p_i1 + ... + p_in = (sum of exps) / (the same sum) = 1``, per row if needed."""
    P, n = node.seq, node.cols
    if not ctx.concrete:
        last = causal.last(I, n)
        return [N.Chain([N.SumOver(P.symbol(I, J), J, 1, last),
                         N.Frac(N.SumOver(exp_score(I, J), J, 1, last),
                                N.SumOver(exp_score(I, JP), JP, 1, last)),
                         sympy.S.One])]
    rows = [I] if not causal.on else list(range(1, node.rows + 1))
    out = []
    for r in rows:
        count = n if r is I else causal.last(r, n)
        exps = N.OSum([exp_score(r, k) for k in range(1, count + 1)])
        out.append(N.Chain([N.OSum([P.symbol(r, k) for k in range(1, count + 1)]),
                            N.Frac(exps, exps), sympy.S.One]))
    return out


# -- element-wise functions -------------------------------------------------------------------------

def apply(node: Node, ctx: Ctx, part: str) -> list[Step]:
    (inner,) = node.inputs
    fX = call(node.func, inner.whole())
    f_i = call(node.func, inner.row(I))
    head = [node.seq, fX] if node.named else [fX]
    if ctx.concrete:
        display = N.Chain(head + [table(node.rows, node.cols,
                                        lambda r, c: call(node.func, inner.entry(r, c)))])
    else:
        display = N.Chain(head + [table(node.rows, node.cols,
                                        lambda r, c: call(node.func, inner.entry_symbol(r, c)))])
    name = E.FUNCTIONS.get(node.func, (None, node.func))
    f = N.Label(name[0] or r"\operatorname{%s}" % node.func, name[1])
    return [ctx.heading("apply", fX=fX, part=part),
            ctx.step("apply", {"f": f, "fX": fX, "X": inner.whole(), "x_i": inner.row(I),
                               "f_i": f_i}, display, part=part),
            ctx.step("apply_row", {"f_i": f_i, "x_i": inner.row(I), "f": f},
                     N.Chain([node.row(I) if node.named else f_i,
                              row_bmat(inner.cols, lambda c: call(
                                  node.func, inner.entry_symbol(I, c)))]), part=part + ".row")]


# -- sums ----------------------------------------------------------------------------------------------

def add(node: Node, ctx: Ctx, part: str) -> list[Step]:
    whole = N.OSum([t.whole() if s > 0 else N.Neg(t.whole())
                    for t, s in zip(node.inputs, node.signs)])
    row = N.OSum([t.row(I) if s > 0 else N.Neg(t.row(I))
                  for t, s in zip(node.inputs, node.signs)])
    head = [node.seq] if node.named else []
    steps = [ctx.heading("sum", S=whole, part=part),
             ctx.step("sum", {"S": whole, "terms": len(node.inputs), "i": I},
                      N.Chain(([node.seq.vector(I)] if node.named else []) + [row]), part=part)]
    if ctx.concrete:
        def entry(r, c):
            return N.OSum([t.entry(r, c) if s > 0 else N.Neg(t.entry(r, c))
                           for t, s in zip(node.inputs, node.signs)])
        steps.append(ctx.step("sum_entries", {"S": whole},
                              N.Chain(head + [whole, table(node.rows, node.cols, entry)]),
                              part=part + ".entries"))
    return steps


SECTIONS = {"combine": combine, "match": match, "tcombine": tcombine, "transpose": transpose,
            "scale": scale, "mask": mask, "softmax": softmax, "apply": apply, "sum": add}


# -- the formula, the operands, the plan ------------------------------------------------------------

def display_expr(expr: E.Expr, plan: Plan):
    """A formula as written, for display: names are the plan's vector sequences."""
    named = {**plan.operands, **{n: node.seq for n, node in plan.named.items()}}

    def show(e, top=False):
        if isinstance(e, E.Name):
            return named[e.name]
        if isinstance(e, E.Transpose):
            inner = show(e.arg)
            if isinstance(e.arg, (E.Product, E.Sum, E.Scaled)):
                inner = N.Paren(inner)
            return N.Transpose(inner)
        if isinstance(e, E.Product):
            left = show(e.left)
            right = show(e.right)
            if isinstance(e.right, (E.Product, E.Sum)):
                right = N.Paren(right)
            if isinstance(e.left, E.Sum):
                left = N.Paren(left)
            if isinstance(e.right, E.Scaled) and not isinstance(right, N.Frac):
                right = N.Paren(right)
            factors = list(left.factors) if isinstance(left, N.OMul) and \
                isinstance(e.left, E.Product) else [left]
            return N.OMul(factors + [right])
        if isinstance(e, E.Scaled):
            return scaled(show(e.arg), e.num, e.den)
        if isinstance(e, E.Sum):
            return N.OSum([show(t) if s > 0 else N.Neg(show(t)) for t, s in zip(e.terms, e.signs)])
        if isinstance(e, E.Softmax):
            return N.Call("softmax", [show(e.arg)])
        if isinstance(e, E.Apply):
            return call(e.func, show(e.arg))
        if isinstance(e, E.Concat):
            return N.Bmat([[show(p) for p in e.parts]])
        raise TypeError(type(e).__name__)
    return show(expr)


def formula_steps(ctx: Ctx, *, part: str = "formula") -> list[Step]:
    plan = ctx.plan
    shown = []
    for name, expr in plan.formula.definitions:
        seq = plan.named[name].seq if name else plan.result.seq
        shown.append(N.Chain([seq, display_expr(expr, plan)]))
    display = shown[0] if len(shown) == 1 else N.Group(shown)
    return [ctx.heading("formula", part=part),
            ctx.step("formula", {"C": plan.result.seq, "count": len(plan.products),
                                 "variant": "one" if len(shown) == 1 else "defs"},
                     display, part=part)]


def operand_steps(ctx: Ctx, *, part: str = "operands") -> list[Step]:
    steps = []
    for name, seq in ctx.plan.operands.items():
        steps.append(ctx.step("operand", {"X": seq, "m": seq.rows, "ell": seq.cols,
                                          "x_i": seq.vector(I),
                                          "variant": "values" if ctx.concrete and
                                          seq.values is not None else "symbols"},
                              N.Rel(N.Chain([seq, stack_of_seq(seq)]), "in",
                                    N.Space(seq.rows, seq.cols)), part=part))
    return steps


def stack_of_seq(seq):
    return column(seq.rows, seq.vector)


def _definition_display(node: Node, plan: Plan):
    """``H = \\hat{A} X``: a named node in terms of the named nodes it is made from."""
    def show(n: Node, top: bool):
        if n.named and not top:
            return n.seq
        r = n.reading
        parts = [show(i, False) for i in n.inputs]
        if r == "combine":
            return N.OMul(parts)
        if r == "match":
            return N.OMul([parts[0], N.Transpose(parts[1])])
        if r == "tcombine":
            return N.OMul([N.Transpose(parts[0]), parts[1]])
        if r == "transpose":
            return N.Transpose(parts[0])
        if r == "scale":
            return scaled(parts[0], n.num, n.den)
        if r == "mask":
            return N.OSum(parts)
        if r == "softmax":
            return N.Call("softmax", parts)
        if r == "apply":
            return call(n.func, parts[0])
        if r == "sum":
            return N.OSum([p if s > 0 else N.Neg(p) for p, s in zip(parts, n.signs)])
        if r == "concat":
            return N.Bmat([parts])
        raise AssertionError(r)
    return N.Chain([node.seq, show(node, True)])


def plan_steps(ctx: Ctx, *, part: str = "plan") -> list[Step]:
    plan = ctx.plan
    derived = [n for n in plan.nodes if n.named and n.reading != "operand" and not n.quiet]
    if len(derived) < 2:
        return []
    return [ctx.step("plan", {"count": len(derived), "C": plan.result.seq},
                     N.Group([_definition_display(n, plan) for n in derived]), part=part)]


# -- the full expansion of a softmax-weighted combine ------------------------------------------------

def expandable(node: Node) -> tuple | None:
    """(match, scale, V) when ``node`` is ``softmax(match [/ scale] [+ mask]) V`` with
    named operands, so that every entry can be written in their components."""
    if node.reading != "combine" or node.inputs[0].reading != "softmax":
        return None
    sm, V = node.inputs
    src = _scores(sm)
    den = None
    if src.reading == "scale":
        if src.num != 1:
            return None
        den = src.den
        src = src.inputs[0]
    if src.reading != "match" or not all(x.named for x in src.inputs) or not V.named:
        return None
    return src, den, V


def expansion(node: Node, ctx: Ctx, *, part: str = "expansion") -> list[Step]:
    found = expandable(node)
    if found is None:
        return []
    mtch, den, Vn = found
    Q, K = (x.seq for x in mtch.inputs)
    V, O = Vn.seq, node.seq
    causal = causal_of(node)
    plan = ctx.plan
    if den is None:
        scale = None
    elif plan.scale_mode == "number":
        value = plan.scalar(den)
        scale = None if value == 1 else value
    else:
        scale = scalar_node(den)
    d, n = Q.cols, K.rows
    steps = [ctx.heading("expansion", part=part)]
    params = {"o_i": O.vector(I), "o_il": O.symbol(I, L), "Q": Q, "K": K, "V": V,
              "variant": _variant(ctx)}
    if ctx.concrete:
        keys = [tuple(K.symbol(j, t) for t in range(1, d + 1)) for j in range(1, n + 1)]
        queries = [tuple(Q.symbol(i, t) for t in range(1, d + 1))
                   for i in range(1, Q.rows + 1)]
        vectors = tuple(V.vector(j) for j in range(1, n + 1))
        columns = [tuple(V.symbol(j, l) for j in range(1, n + 1)) for l in range(1, V.cols + 1)]
        rows = N.SoftmaxExpansion(
            [(O.vector(i), queries[i - 1], causal.last(i, n), vectors)
             for i in range(1, O.rows + 1)], keys, scale)
        entries = N.SoftmaxExpansion(
            [(O.symbol(i, l), queries[i - 1], causal.last(i, n), columns[l - 1])
             for i in range(1, O.rows + 1) for l in range(1, V.cols + 1)], keys, scale)
    else:
        last = causal.last(I, n)

        def sc(x):
            return x if scale is None else N.Frac(x, scale)

        def general(weight, exponent):
            # the weights share their denominator: written once, under the whole sum
            return N.Frac(N.SumOver(N.OMul([N.Exp(sc(exponent(J))), weight]), J, 1, last),
                          N.SumOver(N.Exp(sc(exponent(JP))), JP, 1, last))

        rows = N.Chain([O.vector(I), general(V.vector(J), lambda j: N.Dot(Q.vector(I),
                                                                            K.vector(j)))])
        entries = N.Chain([O.symbol(I, L), general(V.symbol(J, L), lambda j: N.SumOver(
            N.OMul([Q.symbol(I, T), K.symbol(j, T)]), T, 1, d))])
    steps += [ctx.step("expand_rows", params, rows, part=part),
              ctx.step("expand_entries", params, entries, part=part)]
    return steps


# -- the summary: a chain of point maps ---------------------------------------------------------

def spine(node: Node, plan: Plan | None = None) -> list[Node]:
    """The points a point passes through, from an operand to ``node``: row i of a
    combine, match, softmax, scale or sum comes from row i of its first input.
    Named nodes are on it, and element-wise functions (``\\phi(\\boldsymbol{q}_i)``).

    The walk stops before a node that is used more than once (``X`` in
    ``X + softmax(XX^T)X``): row i of the result then depends on every point of
    it, so a map from its row i alone would not be true.
    """
    uses: dict[int, int] = {}
    for n in (plan.nodes if plan is not None else []):
        for i in n.inputs:
            uses[id(i)] = uses.get(id(i), 0) + 1
    out = [node]
    while node.inputs and node.reading not in ("tcombine", "transpose", "concat"):
        nxt = node.inputs[0]
        if uses.get(id(nxt), 1) > 1:
            break
        node = nxt
        if node.named or node.reading == "apply":
            out.append(node)
    return out[::-1]


def row_formula(node: Node):
    """Row i of a node in the rows of its inputs (``c_i = a_i B``), or None."""
    r = node.reading
    if r == "combine":
        return N.OMul([node.inputs[0].row(I), node.inputs[1].whole()])
    if r == "match":
        return N.OMul([node.inputs[0].row(I), N.Transpose(node.inputs[1].whole())])
    if r == "sum":
        return N.OSum([t.row(I) if s > 0 else N.Neg(t.row(I))
                       for t, s in zip(node.inputs, node.signs)])
    if r == "scale":
        return scaled(node.inputs[0].row(I), *node.shown_scale)
    if r == "apply":
        return call(node.func, node.inputs[0].row(I))
    if r == "softmax":
        return N.Call("softmax", [node.inputs[0].row(I)])
    return None


def summary(ctx: Ctx, node: Node | None = None, *, part: str = "summary") -> list[Step]:
    node = node or ctx.plan.result
    path = spine(node, ctx.plan)
    if len(path) == 1:  # no single point to follow: say how row i is made instead
        formula = row_formula(node)
        if formula is None:
            return []
        return [ctx.step("summary", {"c_i": node.seq.vector(I), "i": I, "variant": "row"},
                         N.Chain([node.seq.vector(I), formula]), part=part)]
    chain = path[0].row(I)
    for n in path[1:]:
        chain = N.Rel(chain, "mapsto", n.row(I))
    readings = [n.reading for n in path[1:]]
    params = {"x_i": path[0].row(I), "c_i": node.seq.vector(I), "i": I,
              "steps": len(path) - 1, "C": node.seq,
              "readings": N.Label(", ".join(readings), ", ".join(readings))}
    if ctx.style == "attention":
        sm = next((n for n in path if n.reading == "softmax"), None)
        mt = next((n for n in path if n.reading == "match"), None)
        if sm is not None and mt is not None:
            params.update({"q_i": mt.inputs[0].row(I), "s_i": mt.seq.vector(I),
                           "p_i": sm.seq.vector(I), "o_i": node.seq.vector(I)})
            chain = N.Rel(N.Rel(N.Rel(params["q_i"], "mapsto", params["s_i"]), "mapsto",
                                params["p_i"]), "mapsto", params["o_i"])
    return [ctx.step("summary", params, chain, part=part)]

