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
from ..build import I, J
from ..steps import Step
from ..formula import expr as E
from .plan import Plan
from .readings import READINGS, Ctx, Match, Reading, Softmax
from .readings.base import scaled, stack_of_seq
from .readings.entrywise import call

__all__ = ["Ctx", "formula_steps", "operand_steps", "plan_steps", "summary", "spine",
           "display_expr", "stack_of_seq", "number_steps", "numbers_display"]

# -- the formula, the operands, the plan ------------------------------------------------------------

def display_expr(expr: E.Expr, plan: Plan, names=None):
    """A formula as written, for display: names are the plan's vector sequences (or those
    of ``names``, a mapping of names to vector sequences)."""
    named = {**plan.operands, **{n: node.seq for n, node in plan.named.items()},
             **dict(names or {})}

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
            if isinstance(e.right, (E.Product, E.Sum, E.Hadamard)):
                right = N.Paren(right)
            if isinstance(e.left, (E.Sum, E.Hadamard)):
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
        if isinstance(e, E.Power):
            inner = show(e.arg)
            return N.Power(N.Paren(inner) if not isinstance(e.arg, E.Name) else inner,
                           e.exponent)
        if isinstance(e, E.Hadamard):
            def side(x):
                shown = show(x)
                return N.Paren(shown) if isinstance(x, (E.Sum, E.Scaled, E.Hadamard)) \
                    else shown
            return N.Hadamard([side(e.left), side(e.right)])
        if isinstance(e, E.Call):
            args = [show(a) for a in e.args]
            cls = READINGS.get(e.func)
            return cls.display_call(args) if cls is not None else N.Call(e.func, args)
        if isinstance(e, E.Identity):
            return plan.named["I"].seq if "I" in plan.named else N.Label("I", "I")
        if isinstance(e, E.Ones):    # as written: \mathbf{1}, \mathbf{1}_L
            sub = e.sub or (str(e.size) if e.size is not None else "")
            return N.Label("\\mathbf{1}" + ("_{%s}" % sub if sub else ""),
                           "𝟏" + (f"_{sub}" if sub else ""))
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
    """Each operand as a vector sequence (those used only by the other members of a
    family, such as the second head's matrices, are said with that family)."""
    steps = []
    plan = ctx.plan
    for node in plan.nodes:
        if not node.given:
            continue
        users = plan.consumers(node)
        if users and not any(ctx.shown(u) for u in users):
            continue
        seq = node.seq
        # numbers given (a diagonal operand's values are its symbols on the diagonal:
        # not numbers, and not said to be)
        numbers = ctx.concrete and seq.values is not None and \
            not sympy.Matrix(seq.values).free_symbols
        chain = [seq, stack_of_seq(seq)]
        if numbers:     # the numbers themselves, as given
            chain.append(N.Bmat(sympy.Matrix(seq.values).tolist()))
        steps.append(ctx.step("operand", {"X": seq, "m": seq.rows, "ell": seq.cols,
                                          "x_i": seq.vector(I),
                                          "variant": "values" if numbers else "symbols"},
                              N.Rel(N.Chain(chain), "in", N.Space(seq.rows, seq.cols)),
                              part=part))
    return steps


def numbers_display(values: sympy.Matrix):
    """A matrix of numbers for display: exact when every entry is rational (``2``,
    ``3/5``), else to three decimals; and whether it is exact."""
    if all(x.is_Rational for x in values):
        return N.Bmat(values.tolist()), True
    rows = []
    for row in values.tolist():
        out = []
        for x in row:
            if x.is_Integer:
                out.append(x)
                continue
            v = complex(sympy.N(x, 20))
            shown = f"{v.real:.3f}" if abs(v.imag) < 1e-12 else str(sympy.N(x, 4))
            out.append(N.Label(shown, shown.replace("-", "−")))
        rows.append(out)
    return N.Bmat(rows), False


def number_steps(ctx: Ctx, node: Reading, *, part: str) -> list[Step]:
    """With numbers given for its operands, the value of ``node`` in numbers: ``C =
    [[2, 1], [4, 3]]``, or to three decimals (``P ≈ ...``) where it is not rational."""
    values = ctx.numbers(node)
    if values is None:
        return []
    shown, exact = numbers_display(values)
    whole = node.whole()
    display = N.Chain([whole, shown]) if exact else N.Rel(whole, "approx", shown)
    return [ctx.step("numbers", {"C": whole, "variant": "exact" if exact else "approx"},
                     display, part=part)]


def definition_of(node: Reading):
    """``\\hat{A} X``: what a node computes, in terms of the named nodes it is made from."""
    def show(n: Reading, top: bool):
        if n.named and not top:
            return n.seq
        return n.definition([show(i, False) for i in n.inputs])
    return show(node, True)


def _definition_display(node: Reading):
    """``H = \\hat{A} X``: a named node in terms of the named nodes it is made from."""
    return N.Chain([node.seq, definition_of(node)])


def note_steps(ctx: Ctx, notes, *, part: str) -> list[Step]:
    """What the reader and the planner say about how they read the text: a symbol read as
    a scalar, a degree matrix assumed, the builtin Attention, the number of heads."""
    plan = ctx.plan
    named = plan.named
    out = []
    for kind, params in notes:
        if kind == "scalar":
            out.append(ctx.step("note_scalar", {"x": params["symbol"]}, part=part))
        elif kind == "degree_assumed" and params["D"] in named and params["A"] in named:
            D, A = named[params["D"]], named[params["A"]]
            d_ii = N.Chain([D.seq.symbol(I, I), N.SumOver(A.entry_symbol(I, J), J, 1,
                                                          A.cols)])
            out.append(ctx.step("note_degree", {"D": D.seq, "A": A.seq}, d_ii, part=part))
        elif kind == "attention":
            q, k, v = (N.Label(x, x) for x in "QKV")
            d_k = N.Label("d_{k}", "dₖ")
            out.append(ctx.step("note_attention", {}, N.Chain([
                N.Call("Attention", [q, k, v], tex=r"\operatorname{Attention}",
                       text="Attention"),
                N.OMul([N.Call("softmax", [N.Frac(N.OMul([q, N.Transpose(k)]), N.Sqrt(d_k))]),
                        v])]), part=part))
        elif kind == "undefined":
            name = params["name"]
            out.append(ctx.step("note_undefined", {"f": N.Label(
                r"\operatorname{%s}" % name, name)}, part=part))
        elif kind == "convention":
            name = params["name"]
            x = named[name].seq if name in named else N.Label(name, name)
            key = {"right": "note_columns_right", "left": "note_columns_left",
                   "shape": "note_columns_shape", "softmax": "note_columns_softmax",
                   }.get(params["evidence"], "note_columns_given")
            out.append(ctx.step(key, {"x": x}, part=part))
            out.append(ctx.step("note_columns", {}, part=part))
        elif kind == "blocks":
            out.append(ctx.step("note_blocks", {"count": params["count"]}, part=part))
        elif kind == "function_result":
            word = params["word"]
            out.append(ctx.step("note_function", {"F": N.Label(
                r"\operatorname{%s}" % word, word)}, part=part))
    return out


def family_steps(ctx: Ctx, k: int) -> list[Step]:
    """The members of a family after the first, said once: they are read like the first."""
    plan = ctx.plan
    if k != 2:
        return []
    members = [n for n in plan.nodes if n.family is not None and n.family > 1 and n.named
               and n.derived]
    instances = [n.seq for n in members if n.name in dict(plan.formula.families)]
    if not instances:
        return []
    return [ctx.step("family", {"others": N.Items(instances)},
                     N.Group([_definition_display(n) for n in members]),
                     part=f"{instances[0].name}")]


def plan_steps(ctx: Ctx, *, part: str = "plan") -> list[Step]:
    plan = ctx.plan
    derived = [n for n in plan.nodes if n.named and n.derived and ctx.shown(n)]
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
        nxt = node.spine_input()
        if uses.get(id(nxt), 1) > 1:
            break
        node = nxt
        if node.named or node.on_path:
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
        sm = next((n for n in path if isinstance(n, Softmax)), None)
        mt = next((n for n in path if isinstance(n, Match)), None)
        if sm is not None and mt is not None:
            params.update({"q_i": mt.inputs[0].row(I), "s_i": mt.seq.vector(I),
                           "p_i": sm.seq.vector(I), "o_i": node.seq.vector(I)})
            chain = N.Rel(N.Rel(N.Rel(params["q_i"], "mapsto", params["s_i"]), "mapsto",
                                params["p_i"]), "mapsto", params["o_i"])
    return [ctx.step("summary", params, chain, part=part)]

