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
* a gradient through ReLU with its **mask dropped** (ReLU′ taken as 1);
* in a backward pass, a gradient back through the scores **without their 1/√d**
  (or with one too many), said in plain words: no name the page does not use;
* a gradient back through the softmax with its Jacobian **taken element-wise**
  (P ⊙ P̄: the term -p_{ij} \sum_k p_{ik} \bar{p}_{ik} dropped) or with that
  term's **sign flipped**, on S̄ and on every gradient computed from it;
* a forward softmax computed entry by entry, **without its row sum**.

A wrong claim about a whole gradient (``\bar{W} = W^T \bar{Y}``) gets its own
sentence (:func:`gradient_hints`): factors in the wrong order, one use of a
matrix used twice, a factor from the wrong side.

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

from ..formula.values import MathError

__all__ = ["hints", "gradient_hints", "is_backward"]


def _holds(left, right, ref) -> bool:
    from .verify import compare_scalar
    try:
        return compare_scalar(left, right, ref, explain=False) is None
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


def _backward(ref) -> bool:
    """Whether the reference is a backward pass (it has gradients, named with a bar)."""
    return any(name.startswith("\\bar{") for name in ref.quantities)


def _factor_hint(left, right, ref) -> str | None:
    """A score scaled by 1/√d where the derivation's S is not (or the other way round);
    in a backward pass, a gradient back through the scores without their 1/√d."""
    d = ref.sizes.get("d")
    if not d or d == 1 or any(isinstance(x, sympy.exp) for x in left.atoms(sympy.exp)):
        return None
    root = sympy.sqrt(d)
    found = _owner_entry(ref, left, right)
    name = found[0].name if found else "this"
    backward = _backward(ref)
    if _holds(left, right * root, ref) or _holds(left / root, right, ref):
        if backward:
            return (f"the gradient carries one 1/\\sqrt{{d}} too many: the scores are "
                    f"divided by \\sqrt{{d}} once, so the gradient back through them "
                    f"carries 1/\\sqrt{{d}} once (here \\sqrt{{d}} = \\sqrt{{{d}}})")
        return (f"the right side carries a 1/\\sqrt{{d}} that {name} does not have here: "
                f"this derivation's S = QK^T is unscaled, and the 1/\\sqrt{{d}} is applied "
                f"inside the softmax, P = softmax(S/\\sqrt{{d}})")
    if _holds(left, right / root, ref) or _holds(left * root, right, ref):
        if backward:
            return (f"the 1/\\sqrt{{d}} of the scores is missing in the gradient: the scores "
                    f"enter the softmax divided by \\sqrt{{d}}, so every gradient back "
                    f"through them carries a factor 1/\\sqrt{{d}} (here \\sqrt{{d}} = "
                    f"\\sqrt{{{d}}})")
        return (f"the 1/\\sqrt{{d}} is missing on the right (here \\sqrt{{d}} = "
                f"\\sqrt{{{d}}})")
    return None


def _softmax_pair(ref):
    """The softmax's output P and its gradient P̄ in a backward pass, or None."""
    for q in ref.quantities.values():
        if q.definition is None or not q.definition[0, 0].atoms(sympy.exp):
            continue
        bar = ref.quantities.get("\\bar{%s}" % q.name)
        if bar is not None and bar.symbols.shape == q.symbols.shape:
            return q, bar
    return None


def _unfold_to(expr, ref, level: int):
    """``expr`` with every entry of a quantity above ``level`` replaced by its
    definition, until none is left."""
    mapping = {}
    for q in ref.quantities.values():
        if q.level > level and q.definition is not None:
            for i in range(q.rows):
                for j in range(q.cols):
                    mapping[q.entry(i, j)] = q.definition[i, j]
    for _ in range(12):
        if not expr.free_symbols & mapping.keys():
            return expr
        expr = expr.xreplace(mapping)
    return expr


def _jacobian_hint(left, right, ref) -> str | None:
    """A gradient back through the softmax with its Jacobian taken element-wise (the
    -p_{ij} \\sum_k p_{ik} \\bar{p}_{ik} term dropped) or with that term's sign flipped:
    the step holds once the term is put back (or its sign turned). Found on the
    gradient of the softmax's input and on every gradient computed from it (Q̄, K̄)."""
    found = _owner_entry(ref, left, right)
    pair = _softmax_pair(ref)
    if found is None or pair is None:
        return None
    p, pbar = pair
    rows, cols = p.symbols.shape

    def a(i, j):
        return p.entry(i, j) * pbar.entry(i, j)

    def b(i, j):
        return p.entry(i, j) * sum(p.entry(i, k) * pbar.entry(i, k) for k in range(cols))

    d = ref.sizes.get("d")
    scales = [sympy.S.One] + ([1 / sympy.sqrt(d)] if d and d != 1 else [])
    # the quantity that is the softmax's vector-Jacobian product (times a scale)
    vjp = None
    for q in sorted(ref.quantities.values(), key=lambda q: q.level):
        if q.symbols.shape != (rows, cols) or q.definition is None or q in pair:
            continue
        c = next((c for c in scales if _holds(q.entry(0, 0), c * (a(0, 0) - b(0, 0)), ref)),
                 None)
        if c is not None:
            vjp = (q, c)
            break
    if vjp is None:
        return None
    x, c = vjp
    unfolded = _unfold_to(left, ref, x.level)
    if not _uses(unfolded, x):
        return None
    P, Pb, pl, pbl = p.name, pbar.name, p.letter, pbar.letter
    row = f"{pl}_{{ij}} \\sum_k {pl}_{{ik}} {pbl}_{{ik}}"
    fixes = [(sympy.S.One, "")]
    if d and d != 1:
        # the page's right side without the 1/√d as well: it is √d times the mistake
        fixes.append((1 / sympy.sqrt(d), "; the 1/\\sqrt{d} of the scores is missing too"))
    for factor, tail in fixes:
        for kind, mistake in (("element-wise", a), ("sign", lambda i, j: a(i, j) + b(i, j))):
            wrong = unfolded.xreplace({x.entry(i, j): c * mistake(i, j)
                                       for i in range(rows) for j in range(cols)})
            if not _holds(wrong, right * factor, ref):
                continue
            if kind == "element-wise":
                return (f"the softmax's Jacobian has a second term, -{row}: each row's "
                        f"gradient is shifted by its weighted mean, {P} \\odot ({Pb} - "
                        f"\\mathrm{{rowsum}}({P} \\odot {Pb})), not {P} \\odot {Pb}" + tail)
            return (f"the sign of the softmax Jacobian's second term is wrong: the row's "
                    f"weighted mean is subtracted, {pl}_{{ij}}({pbl}_{{ij}} - \\sum_k "
                    f"{pl}_{{ik}} {pbl}_{{ik}}), not added" + tail)
    return None


def _row_sum_hint(left, right, ref) -> str | None:
    """A softmax computed entry by entry, p_{ij} = e^{s_{ij}} with no denominator: the step
    holds once each exponential is divided by the sum of its row."""
    found = _owner_entry(ref, left, right)
    if found is None:
        return None
    target, i, j = found
    if target.definition is None or not right.atoms(sympy.exp):
        return None
    num, den = sympy.fraction(sympy.together(target.definition[i - 1, j - 1]))
    if not den.atoms(sympy.exp) or not isinstance(den, sympy.Add) or \
            len(den.args) != target.cols:
        return None
    if _holds(right, left * den, ref):
        tail = ""
    else:
        d = ref.sizes.get("d")
        if not d or d == 1:
            return None
        root = sympy.sqrt(d)
        scaled = right.xreplace({e: sympy.exp(e.args[0] / root) for e in right.atoms(sympy.exp)})
        if not _holds(scaled, left * den, ref):
            return None
        tail = f"; and the softmax takes S/\\sqrt{{d}}, so each exponent is divided by \\sqrt{{{d}}}"
    inner = None
    exps = target.definition[i - 1, j - 1].atoms(sympy.exp)
    for sym in sorted(set().union(*(e.free_symbols for e in exps)), key=str):
        owner = ref.owner.get(sym)
        if owner is not None:
            inner = ref.quantities[owner[0]].letter
            break
    s = inner or "s"
    return (f"each row of {target.name} is divided by its sum \\sum_j e^{{{s}_{{ij}}}}: "
            f"{target.letter}_{{ij}} = e^{{{s}_{{ij}}}} / \\sum_{{j'}} e^{{{s}_{{ij'}}}}, so "
            f"that the row is a distribution" + tail)


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


def _page_factor_hint(left, right, ref) -> str | None:
    """A number the page brought in with its upstream gradient (the batch size B of
    ∂L/∂z = (1/B)(Ŷ - Y)) dropped or doubled: the two sides differ by that factor."""
    for name, c in getattr(ref, "page_scalars", {}).items():
        if _holds(left, right / c, ref):
            return (f"the factor 1/{name} is missing: the upstream gradient carries it, "
                    f"so every gradient computed from it does too")
        if _holds(left, right * c, ref):
            return f"the factor 1/{name} is here twice: it comes once, with the upstream"
    return None


def hints(left, right, ref) -> list[str]:
    """Hints for a wrong entry whose two sides are ``left`` and ``right`` (scalars)."""
    out = []
    if getattr(left, "free_symbols", None) is None or \
            getattr(right, "free_symbols", None) is None:
        return out
    for make in (_mask_hint, _jacobian_hint, _row_sum_hint, _swap_hint, _scale_hint,
                 _factor_hint, _page_factor_hint):
        try:
            hint = make(left, right, ref)
        except (MathError, TypeError, ValueError, ZeroDivisionError):
            hint = None
        if hint:
            out.append(hint)
            break
    return out


# -- hints on a wrong gradient claim (read with symrow.reader.entries.gradients) -------------

def is_backward(derivation) -> bool:
    """Whether a derivation is a backward pass (its quantities include gradients)."""
    return getattr(derivation, "kind", None) == "backward"


def _factors(expr) -> list | None:
    """The factors of a product, each a name or a transposed name; None otherwise."""
    from ..formula import expr as E
    if isinstance(expr, E.Product):
        left, right = _factors(expr.left), _factors(expr.right)
        return None if left is None or right is None else left + right
    if isinstance(expr, E.Name):
        return [expr.name]
    if isinstance(expr, E.Transpose) and isinstance(expr.arg, E.Name):
        return [expr.arg.name]
    if isinstance(expr, E.Scaled):
        return _factors(expr.arg)
    return None


def _unscaled(expr):
    """A product without its number in front (``\\bar{S}K/\\sqrt{d}`` -> ``\\bar{S}K``)."""
    from ..formula import expr as E
    while isinstance(expr, E.Scaled):
        expr = expr.arg
    return expr


def gradient_hints(left: str, right: str, derivation) -> list[str]:
    """What a wrong gradient claim ``left = right`` most likely got wrong: the factors in
    the wrong order or transposed (W^T Ȳ for Ȳ W^T), one use of a matrix used twice, or
    a factor taken from the wrong side of the product (W^T Ȳ for X^T Ȳ)."""
    from ..errors import SymrowError
    from ..formula import expr as E
    from ..formula.read import read_latex
    from ..reader.entries.gradients import as_bars
    names = set(derivation.forward.quantities)
    try:
        lhs = read_latex(as_bars(left, names)).result
        rhs = read_latex(as_bars(right, names)).result
    except SymrowError:
        return []
    if not isinstance(lhs, E.Name):
        return []
    formula = derivation.plan.formula
    defs = dict(formula.definitions)
    correct = defs.get(lhs.name)
    if correct is None:
        return []
    target = lhs.name
    owner = target[len("\\bar{"):-1] if target.startswith("\\bar{") else target
    out = []
    got = E.text(rhs)
    if isinstance(correct, E.Sum) and any(got == E.text(t) for t in correct.terms):
        out.append(f"{owner} is used {len(correct.terms)} times, and this is the share of one "
                   f"use; its gradient adds the shares of all its uses: "
                   f"{target} = {E.text(correct)}")
        return out
    if E.text(_unscaled(rhs)) == E.text(_unscaled(correct)):
        # the same product, scaled differently (a 1/√d dropped or doubled): the
        # hints of the entries name the factor; "wrong order" would be false
        return out
    want, have = _factors(correct), _factors(rhs)
    if want is not None and have is not None and sorted(want) == sorted(have) and \
            got != E.text(correct):
        out.append(f"the factors are in the wrong order or transposed: the gradient of "
                   f"{owner} has the shape of {owner}, and it is {E.text(correct)}, not {got}")
    elif want is not None and have is not None and len(want) == len(have):
        missing = [n for n in want if n not in have]
        extra = [n for n in have if n not in want]
        if len(missing) == 1 and len(extra) == 1:
            out.append(f"the gradient of {owner} is {E.text(correct)}: it takes {missing[0]} "
                       f"where this has {extra[0]}")
    return out
