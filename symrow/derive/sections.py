"""The pieces of a derivation around its readings: the formula, the operands, the summary.

Each reading's own steps are a method of its class
(:mod:`symrow.derive.readings`); this module has what a whole derivation
shows around them: the formula as written, the operands as vector
sequences, the plan of definitions, and the summary as a chain of point
maps.

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
from ..build import I
from ..steps import Step
from ..formula import expr as E
from .plan import Plan
from .readings import Ctx, Reading
from .readings.base import call, scaled, stack_of_seq

__all__ = ["Ctx", "formula_steps", "operand_steps", "plan_steps", "summary", "spine",
           "display_expr", "stack_of_seq"]

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


def _definition_display(node: Reading):
    """``H = \\hat{A} X``: a named node in terms of the named nodes it is made from."""
    def show(n: Reading, top: bool):
        if n.named and not top:
            return n.seq
        return n.definition([show(i, False) for i in n.inputs])
    return N.Chain([node.seq, show(node, True)])


def plan_steps(ctx: Ctx, *, part: str = "plan") -> list[Step]:
    plan = ctx.plan
    derived = [n for n in plan.nodes if n.named and n.reading != "operand" and ctx.shown(n)]
    if len(derived) < 2:
        return []
    return [ctx.step("plan", {"count": len(derived), "C": plan.result.seq},
                     N.Group([_definition_display(n) for n in derived]), part=part)]


# -- the summary: a chain of point maps ---------------------------------------------------------

def spine(node: Reading, plan: Plan | None = None) -> list[Reading]:
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
    while node.inputs and node.pointwise:
        nxt = node.inputs[0]
        if uses.get(id(nxt), 1) > 1:
            break
        node = nxt
        if node.named or node.reading == "apply":
            out.append(node)
    return out[::-1]


def summary(ctx: Ctx, node: Reading | None = None, *, part: str = "summary") -> list[Step]:
    node = node or ctx.plan.result
    path = spine(node, ctx.plan)
    if len(path) == 1:  # no single point to follow: say how row i is made instead
        formula = node.row_formula()
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

