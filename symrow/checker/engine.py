r"""The derivation's own values, for what a page names: the checker's side of the engine.

A page names a value the formula computes (``Z = XW_1 + b_1``), or writes a
gradient by an expression (``\\partial L / \\partial (XW)``).  The value is
found among the nodes of the derivation's plans, named or not
(:func:`unnamed_node`), and its gradient is the one the engine derives
(:func:`gradient_of`: that of the quantity it equals, or that of the backward
pass of the same formula with the value named, :func:`named_gradient`).
"""

from __future__ import annotations

import dataclasses

import sympy

from ..reader.notation import NameError_, parse_name
from ..formula.values import is_matrix

__all__ = ["gradient_of_value", "gradient_of", "unnamed_node", "node_value", "plans",
           "equal_quantity", "named_gradient", "replace_subtree"]


def gradient_of_value(ref, value):
    """The gradient, against a backward derivation, of the value an expression computes
    (``\\partial L / \\partial (X W)``): that of the quantity or the unnamed value of the
    forward pass it equals; None when it equals none (or the target is not backward)."""
    if getattr(ref.derivation, "kind", None) != "backward":
        return None
    if isinstance(value, sympy.Symbol) and value in ref.owner:
        # an entry: that entry of its matrix's gradient
        name, i, j = ref.owner[value]
        try:
            grad = ref.quantities.get(parse_name(name).gradient().canonical)
        except (NameError_, ValueError):
            grad = None
        return None if grad is None else grad.symbols[i - 1, j - 1]
    if not is_matrix(value):
        return None
    value = sympy.ImmutableMatrix(value)
    probe = QuantityLike(ref.ground(value), value.rows, value.cols)
    return gradient_of(ref, probe)


class QuantityLike:
    """What :func:`_gradient` reads of a quantity: its ground truth and shape."""

    def __init__(self, ground, rows: int, cols: int, name: str = "\\mathrm{expr}"):
        self.ground, self.rows, self.cols, self.name = ground, rows, cols, name


def gradient_of(ref, q):
    """The gradient of the page's quantity ``q`` against a backward derivation: that of
    the quantity it equals, or, when it equals a value the formula leaves unnamed
    (``XW_1 + b_1`` inside a ReLU), the gradient the engine derives once that value is
    named.  None when it equals no value of the forward pass."""
    same = equal_quantity(ref, q)
    if same is not None:
        try:
            grad = ref.quantities.get(parse_name(same).gradient().canonical)
        except (NameError_, ValueError):
            grad = None
        return None if grad is None else grad.symbols
    forward = getattr(ref.derivation, "forward", None)
    plan = getattr(forward, "plan", None)
    if plan is None or not plan.concrete:
        return None
    node = unnamed_node(ref, plan, q.ground)
    if node is None:
        return None
    return named_gradient(ref.derivation, plan, node, q.name)


def node_value(ref, plan, node, cache: dict):
    """The value of a plan's node in the entries of its operands, its sizes as numbers."""
    from ..seq import size_symbol
    value = sympy.ImmutableMatrix(plan._value(node, cache, leaf=None))
    sizes = {s: sympy.Integer(v) for s, v in plan.ties.items() if isinstance(v, int)}
    sizes.update({size_symbol(k): sympy.Integer(v) for k, v in ref.sizes.items()})
    sizes.setdefault(size_symbol("d_k"), sympy.Integer(ref.sizes.get("d", 1)))
    return value.xreplace(sizes) if value.free_symbols & set(sizes) else value


def unnamed_node(ref, plan, ground):
    """The node of a plan whose value is ``ground`` (and has no name of its own)."""
    cache: dict = {}
    for node in plan.nodes:
        if node.named or node.expr is None or (node.rows, node.cols) != ground.shape:
            continue
        value = node_value(ref, plan, node, cache)
        if value == ground or (value - ground).expand() == sympy.zeros(*ground.shape):
            return node
    return None


def replace_subtree(expr, old, new):
    """``expr`` with every subtree equal to ``old`` replaced by ``new``."""
    from ..formula import expr as E
    if expr == old:
        return new
    changes = {}
    for field in dataclasses.fields(expr):
        value = getattr(expr, field.name)
        if isinstance(value, E.Expr):
            changes[field.name] = replace_subtree(value, old, new)
        elif isinstance(value, tuple) and value and all(isinstance(v, E.Expr) for v in value):
            changes[field.name] = tuple(replace_subtree(v, old, new) for v in value)
    return dataclasses.replace(expr, **changes) if changes else expr


def named_gradient(derivation, plan, node, name: str):
    """The gradient of the value ``node`` computes, from the backward pass of the same
    formula with that value given the page's ``name``."""
    from ..derive.backward import backward
    from ..errors import SymrowError
    from ..formula import expr as E
    formula = plan.formula
    defs = []
    done = False
    for left, expr in formula.definitions:
        replaced = replace_subtree(expr, node.expr, E.Name(name))
        if replaced != expr and not done:
            defs.append((name, node.expr))
            done = True
        defs.append((left, replaced))
    if not done:
        return None
    named = dataclasses.replace(formula, definitions=tuple(defs), source=None)
    shapes = {n.name: (n.rows, n.cols) for n in plan.nodes if n.reading == "operand"}
    options = dict(derivation.options)
    try:
        other = backward(named, shapes, notation=options.get("notation", "bar"),
                         causal=bool(options.get("causal")),
                         scale=options.get("scale", "symbolic"))
        value = other.quantities.get(parse_name(name).gradient().canonical)
    except (SymrowError, KeyError, NameError_, ValueError):
        return None
    if value is None:
        return None
    # the sizes the formula ties to numbers (√d with d = 2), as the derivation's own
    # values have them
    ties = {sym: sympy.Integer(v) for sym, v in dict(plan.ties).items() if isinstance(v, int)}
    value = sympy.ImmutableMatrix(value)
    return value.xreplace(ties) if ties else value



def plans(derivation) -> list:
    """The plans of a derivation: its own, and its forward pass's for a backward one."""
    out = []
    for d in (derivation, getattr(derivation, "forward", None)):
        plan = getattr(d, "plan", None)
        if plan is not None:
            out.append(plan)
    return out


def equal_quantity(ref, q) -> str | None:
    """The derivation's quantity whose ground truth equals that of ``q`` (so that ``q``
    is the page's own name for it), or None."""
    for other in ref.quantities.values():
        if other is q or other.name == q.name or (other.rows, other.cols) != (q.rows, q.cols):
            continue
        if other.ground == q.ground:
            return other.name
    return None
