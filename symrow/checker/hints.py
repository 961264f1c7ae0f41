r"""Plain-word hints for a wrong step: which familiar mistake explains it.

When a step is wrong, the checker tries the mistakes students make most
and says so when one of them accounts for the whole difference:

* the **combine** rule ``c_{ij} = \sum_k a_{ik} b_{kj}`` used where the
  **match** ``c_{ij} = \sum_k a_{ik} b_{jk}`` was meant (AB^T), or the
  other way round: the indices of one operand are swapped;
* a **softmax over the wrong axis**: each row of P is a distribution over
  j, and this one sums down a column;
* a **missing** (or an extra) **1/√d** inside the softmax, or a score
  scaled where the derivation's S = QK^T is not;
* a gradient through ReLU with its **mask dropped** (ReLU′ taken as 1).

A hint is only given when undoing the mistake makes the step hold.

>>> import sympy, symrow
>>> from symrow.checker.reference import Reference
>>> ref = Reference(symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> a11, a12, b11, b21, c12 = sympy.symbols("a_{11} a_{12} b_{11} b_{21} c_{12}")
>>> b12, b22 = sympy.symbols("b_{12} b_{22}")
>>> hints(c12, a11 * b12 + a12 * b22, ref)
['this is the combine rule c_{ij} = \\sum_k a_{ik} b_{kj}; for AB^T the entry is c_{ij} = \\sum_k a_{ik} b_{jk}']
"""

from __future__ import annotations

import sympy

from .values import MathError

__all__ = ["hints"]


def _holds(left, right, ref) -> bool:
    from .verify import compare_scalar
    try:
        return compare_scalar(left, right, ref) is None
    except MathError:
        return False


def _transpose_map(q) -> dict | None:
    if q.rows != q.cols or q.rows < 2:
        return None
    return {q.symbols[i, j]: q.symbols[j, i] for i in range(q.rows) for j in range(q.cols)
            if i != j}


def _owner_entry(ref, left, right):
    """(quantity, i, j) of the entry a side names (``c_{12}``), if one does."""
    for side in (left, right):
        if isinstance(side, sympy.Symbol) and side in ref.owner:
            name, i, j = ref.owner[side]
            q = ref.quantities[name]
            if q.level > 0:
                return q, i, j
    return None


def _uses(expr, q) -> bool:
    return bool(expr.free_symbols & set(q.symbols))


def _role(ref, target, i: int, j: int, x) -> str | None:
    """How the definition of ``target``'s entry (i, j) uses operand ``x``: ``match``
    (x_{jk}: x by its rows), ``combine`` (x_{kj}), ``softmax`` (inside exp), or None."""
    definition = target.definition[i - 1, j - 1]
    if any(_uses(e.args[0], x) for e in definition.atoms(sympy.exp)):
        return "softmax"
    for sym in definition.free_symbols:
        owner = ref.owner.get(sym)
        if owner is None or owner[0] != x.name:
            continue
        _, u, v = owner
        if u == j and v != j:
            return "match"
        if v == j and u != j:
            return "combine"
    return None


def _other(ref, target, x):
    """The other factor of the product that defines ``target`` (A of AB^T)."""
    for sym in target.definition[0, 0].free_symbols:
        owner = ref.owner.get(sym)
        if owner is not None and owner[0] != x.name:
            return ref.quantities[owner[0]]
    return None


def _swap_hint(left, right, ref) -> str | None:
    found = _owner_entry(ref, left, right)
    for q in sorted(ref.quantities.values(), key=lambda q: q.level):
        mapping = _transpose_map(q)
        if mapping is None or not (_uses(left, q) or _uses(right, q)):
            continue
        if not (_holds(left, right.xreplace(mapping), ref) or
                _holds(left.xreplace(mapping), right, ref)):
            continue
        if found is None:
            return (f"the indices of {q.name} are swapped: with {q.letter}_{{ji}} written "
                    f"for {q.letter}_{{ij}} the step would hold")
        target, i, j = found
        if target.name == q.name:
            return (f"the two sides are each other's transpose: the right side gives "
                    f"{q.letter}_{{ji}} where {q.letter}_{{ij}} belongs ({q.name}^T for "
                    f"{q.name})")
        role = _role(ref, target, i, j, q)
        if role == "softmax":
            return (f"the softmax is taken over the wrong axis: row i of {target.name} is a "
                    f"distribution over the columns, {target.letter}_{{ij}} = "
                    f"e^{{{q.letter}_{{ij}}}} / \\sum_{{j'}} e^{{{q.letter}_{{ij'}}}}; "
                    f"this one sums down a column (over i)")
        other = _other(ref, target, q)
        if role is None or other is None:
            return (f"the indices of {q.name} are swapped: with {q.letter}_{{ji}} written "
                    f"for {q.letter}_{{ij}} the step would hold")
        c, a, b = target.letter, other.letter, q.letter
        combine = f"{c}_{{ij}} = \\sum_k {a}_{{ik}} {b}_{{kj}}"
        match = f"{c}_{{ij}} = \\sum_k {a}_{{ik}} {b}_{{jk}}"
        if role == "match":
            return (f"this is the combine rule {combine}; for {other.name}{q.name}^T the "
                    f"entry is {match}")
        return (f"this is the match rule {match}; for {other.name}{q.name} the entry is "
                f"{combine}")
    return None


def _scale_hint(left, right, ref) -> str | None:
    d = ref.sizes.get("d")
    if not d or d == 1:
        return None
    root = sympy.sqrt(d)
    for side, other, name in ((right, left, "right"), (left, right, "left")):
        exps = side.atoms(sympy.exp)
        if not exps:
            continue
        scaled = side.xreplace({e: sympy.exp(e.args[0] / root) for e in exps})
        if _holds(other, scaled, ref) if name == "right" else _holds(scaled, other, ref):
            return (f"the 1/\\sqrt{{d}} is missing on the {name}: the softmax takes "
                    f"S/\\sqrt{{d}}, so each exponent is s_{{ij}}/\\sqrt{{{d}}}")
        unscaled = side.xreplace({e: sympy.exp(e.args[0] * root) for e in exps})
        if _holds(other, unscaled, ref) if name == "right" else _holds(unscaled, other, ref):
            return (f"the {name} side divides by \\sqrt{{d}} once too often: the softmax "
                    f"takes S/\\sqrt{{d}} once")
    return None


def _factor_hint(left, right, ref) -> str | None:
    """A score scaled by 1/√d where the derivation's S is not (or the other way round)."""
    d = ref.sizes.get("d")
    if not d or d == 1 or any(isinstance(x, sympy.exp) for x in left.atoms(sympy.exp)):
        return None
    root = sympy.sqrt(d)
    found = _owner_entry(ref, left, right)
    name = found[0].name if found else "this"
    if _holds(left, right * root, ref) or _holds(left / root, right, ref):
        return (f"the right side carries a 1/\\sqrt{{d}} that {name} does not have here: "
                f"this derivation's S = QK^T is unscaled, and the 1/\\sqrt{{d}} is applied "
                f"inside the softmax, P = softmax(S/\\sqrt{{d}})")
    if _holds(left, right / root, ref) or _holds(left * root, right, ref):
        return (f"the 1/\\sqrt{{d}} is missing on the right (here \\sqrt{{d}} = "
                f"\\sqrt{{{d}}})")
    return None


def _mask_hint(left, right, ref) -> str | None:
    """A gradient through ReLU with its mask dropped: the step holds once the step
    function ReLU' (1 where the pre-activation is positive, else 0) is taken as 1."""
    for side, other in ((left, right), (right, left)):
        ground = ref.ground(side)
        steps = ground.atoms(sympy.Heaviside)
        if not steps or ref.ground(other).atoms(sympy.Heaviside):
            continue
        if _holds(ground.xreplace({h: sympy.S.One for h in steps}), ref.ground(other), ref):
            return ("the ReLU mask is missing: the gradient passes back through ReLU only "
                    "where its input is positive, so multiply entry by entry by "
                    "ReLU' of that input (1 where it is positive, else 0)")
    return None


def hints(left, right, ref) -> list[str]:
    """Hints for a wrong entry whose two sides are ``left`` and ``right`` (scalars)."""
    out = []
    if getattr(left, "free_symbols", None) is None or \
            getattr(right, "free_symbols", None) is None:
        return out
    for make in (_mask_hint, _swap_hint, _scale_hint, _factor_hint):
        try:
            hint = make(left, right, ref)
        except (MathError, TypeError, ValueError, ZeroDivisionError):
            hint = None
        if hint:
            out.append(hint)
            break
    return out
