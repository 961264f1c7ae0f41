r"""Claims other than ``=``: ``\approx``, ``\le``/``\ge``/``<``/``>``, ``\in`` and maps.

Each is checked where it means something and is otherwise *not checked*
(:class:`~symrow.formula.values.Undecided`, with the reason):

* ``x \approx 0.893``: both sides must be numbers (with the operands'
  values); they may differ by the rounding of the decimals written
  (half a unit in the last place of each decimal on the claim's sides);
* ``p_{ij} \ge 0``: decided exactly where SymPy can prove the sign for all
  real entries, refuted by a counterexample where one of the sample points
  breaks it, and otherwise not checked;
* ``A \in \mathbb{R}^{m \times \ell}``: the shape of the left side;
* ``\boldsymbol{a}_i \longmapsto \boldsymbol{c}_i`` and ``A \longrightarrow C``:
  the right side is computed from the left point by point: row i of C
  uses row i of A and no other row of A.  A pairing of two given points
  (``\boldsymbol{a}_1 \to \boldsymbol{b}_2``) is not something to compute,
  and is not checked.

>>> import sympy
>>> from symrow.checker.relations import rounding
>>> rounding(["0.893", "0.107 [1 0 1]"])
1/1000
"""

from __future__ import annotations

import re

import sympy

from . import numeric
from ..formula.values import MathError, Undecided, is_matrix, shape_text
from .verify import Difference, EntryDiff, shape_difference, show

__all__ = ["approx", "inequality", "membership", "mapping", "rounding"]

_DECIMAL = re.compile(r"(?<![\w.])\d+\.(\d+)")


def has_decimal(texts) -> bool:
    """Does any of ``texts`` write a decimal (``0.269``, ``10.107...``)?"""
    return any(_DECIMAL.search(text) for text in texts)


def rounding(texts) -> sympy.Rational:
    """The tolerance of the decimals in ``texts``: half a unit in the last place, per
    decimal; a whole unit where one is cut off with dots (``10.107...``, ``10.107..``),
    since its next digits may be anything."""
    found = [m for text in texts for m in _DECIMAL.finditer(text)]
    if not found:
        return sympy.Rational(1, 2)
    cut = [m.string.startswith("..", m.end()) for m in found]
    if any(cut):     # each decimal's own: a unit where it is cut off, else half of one
        units = [sympy.Rational(1, 10 ** len(m.group(1))) for m in found]
        return sum((u if c else u / 2 for u, c in zip(units, cut)), sympy.Integer(0))
    return sympy.Rational(len(found), 2 * 10 ** min(len(m.group(1)) for m in found))


def _entries(value):
    if is_matrix(value):
        return [((i + 1, j + 1), value[i, j]) for i in range(value.rows)
                for j in range(value.cols)]
    return [(None, value)]


def _number(expr, ref, what: str):
    expr = ref.with_values(ref.ground(expr))
    if expr.free_symbols:
        names = ref.missing_values(expr)
        listed = ", ".join(names) if names else "the operands"
        raise Undecided(f"not checked: '{what}' compares numbers, and this depends on the "
                        f"entries of {listed}, whose values are not given")
    try:
        return numeric.evaluate(expr, {})
    except numeric.NumericError as err:
        raise Undecided(f"could not be decided: {err}") from None


def approx(left, right, ref, tolerance) -> Difference | None:
    """``left \\approx right`` within ``tolerance`` (a Rational), entry by entry."""
    if is_matrix(left) != is_matrix(right) or (is_matrix(left) and left.shape != right.shape):
        return shape_difference(left, right)
    tol = numeric._ctx().mpf(tolerance.p) / tolerance.q
    for (entry, x), (_, y) in zip(_entries(left), _entries(right)):
        lv, rv = _number(x, ref, "≈"), _number(y, ref, "≈")
        if abs(lv - rv) > tol * (1 + numeric._ctx().mpf(10) ** -20):
            where = f"entry {entry} is" if entry else "the two sides are"
            return Difference(
                f"{where} not approximately equal: {numeric.show_number(lv)} and "
                f"{numeric.show_number(rv)} differ by more than the rounding of the "
                f"decimals written ({sympy.Float(tolerance, 3)})", entry,
                EntryDiff(counterexample={"values": {}, "left": numeric.show_number(lv),
                                          "right": numeric.show_number(rv)}))
    return None


_SIGN = {"le": ("nonnegative", "≤"), "ge": ("nonnegative", "≥"), "lt": ("positive", "<"),
         "gt": ("positive", ">")}


def _realize(expr):
    """The entry symbols as real symbols, so that SymPy can reason about signs."""
    mapping = {s: sympy.Symbol(s.name, real=True) for s in expr.free_symbols
               if not s.is_real}
    return expr.xreplace(mapping)


def _quick_sign(expr):
    """'pos', 'nonneg' or None for the expressions of these derivations, at once:
    exponentials are positive, and sums, products and quotients of positives too."""
    if expr.is_Number:
        return "pos" if expr > 0 else "nonneg" if expr == 0 else None
    if isinstance(expr, sympy.exp):
        return "pos"
    if expr.is_Add or expr.is_Mul:
        signs = [_quick_sign(a) for a in expr.args]
        if any(s is None for s in signs):
            return None
        if expr.is_Mul and "nonneg" in signs:
            return "nonneg"
        return "pos" if expr.is_Mul or all(s == "pos" for s in signs) or "pos" in signs \
            else "nonneg"
    if expr.is_Pow:
        base = _quick_sign(expr.base)
        if base == "pos":
            return "pos"
        if base == "nonneg" and expr.exp.is_positive:
            return "nonneg"
    return None


def _sign(real, mode: str) -> bool:
    """True when the sign is proved: by :func:`_quick_sign`, else by SymPy, also over one
    common denominator (``1 - e^a/(e^a + e^b)`` is ``e^b/(e^a + e^b)``)."""
    quick = _quick_sign(real)
    if quick == "pos" or (quick == "nonneg" and mode == "nonnegative"):
        return True
    for form in (real, sympy.together(real) if len(str(real)) < 2000 else None):
        if form is None:
            continue
        if (form.is_nonnegative if mode == "nonnegative" else form.is_positive):
            return True
    return False


def _proved(gap, mode: str, ref) -> bool:
    """A sign proved one level at a time: ``p_{ij} \\ge 0`` follows from p's definition
    (a ratio of exponentials) for all real scores, without going down to q and k."""
    expr = gap
    for _ in range(8):
        quick = _quick_sign(expr)
        if quick == "pos" or (quick == "nonneg" and mode == "nonnegative"):
            return True
        real = _realize(expr)
        if _sign(real, mode):
            return True
        top = ref.level(expr)
        if top == 0:
            return False
        expr = ref.unfold(expr, top)
        if len(str(expr)) > 4000:
            return False
    return False


def inequality(kind: str, left, right, ref) -> Difference | None:
    """``left <= right`` and friends, for numbers (entry by entry for matrices)."""
    if is_matrix(left) or is_matrix(right):
        if not (is_matrix(left) and is_matrix(right)) or left.shape != right.shape:
            if is_matrix(left) and not is_matrix(right):
                right = sympy.ImmutableMatrix(*left.shape, [right] * len(left))
            elif is_matrix(right) and not is_matrix(left):
                left = sympy.ImmutableMatrix(*right.shape, [left] * len(right))
            else:
                return shape_difference(left, right)
    mode, sign = _SIGN[kind]
    for (entry, x), (_, y) in zip(_entries(left), _entries(right)):
        gap = (y - x) if kind in ("le", "lt") else (x - y)
        if not ref.values and _proved(gap, mode, ref):
            continue
        gap = ref.with_values(ref.ground(gap))
        if gap.has(sympy.S.Infinity, sympy.S.NegativeInfinity):
            decided = gap == sympy.S.Infinity or (gap.is_Add and sympy.S.Infinity in gap.args)
            if decided:
                continue
            if gap == sympy.S.NegativeInfinity:
                return Difference(f"{show(x, ref.rank)} {sign} {show(y, ref.rank)} is false",
                                  entry)
            raise Undecided("could not be decided: an infinite side")
        real = _realize(gap)
        proved = real.is_nonnegative if mode == "nonnegative" else real.is_positive
        if proved:
            continue
        if proved is False and not real.free_symbols:
            return Difference(f"{show(x, ref.rank)} {sign} {show(y, ref.rank)} is false "
                              f"(the difference is {show(gap, ref.rank)})", entry)
        # look for a counterexample
        symbols = sorted(gap.free_symbols, key=lambda s: numeric.natural_key(s.name))
        for point in numeric.sample_points(symbols, 6):
            try:
                value = numeric.evaluate(gap, point).real
            except numeric.NumericError:
                continue
            if value < 0 or (mode == "positive" and value == 0):
                values = {s.name: str(point[s]) for s in symbols}
                return Difference(
                    f"{sign} does not hold", entry,
                    EntryDiff(counterexample={"values": values,
                                              "left": numeric.show_number(numeric.evaluate(
                                                  ref.with_values(ref.ground(x)), point)),
                                              "right": numeric.show_number(numeric.evaluate(
                                                  ref.with_values(ref.ground(y)), point))}))
        raise Undecided(f"not checked: symrow could not prove '{sign}' for all values of "
                        f"the entries (it holds at every sample point)")
    return None


# -- shapes ------------------------------------------------------------------------------

_REALS = {"\\mathbb", "\\mathbf", "\\Bbb", "\\mathbbm"}


def _reals_head(nodes: list) -> int | None:
    """How many nodes the name of the reals takes at the start (``\\R``: 1; ``\\mathbb{R}``
    and math.SE's ``\\Bbb R`` without braces: 2); None when they do not start with it."""
    from ..reader.lexer import Group, Token
    head = nodes[0]
    if isinstance(head, Token) and head.text in ("\\R", "\\Re", "\\reals"):
        return 1
    if isinstance(head, Token) and head.text in _REALS and len(nodes) > 1 and (
            isinstance(nodes[1], Group) and
            [getattr(t, "text", "") for t in nodes[1].children] == ["R"] or
            isinstance(nodes[1], Token) and nodes[1].text == "R"):
        return 2
    return None


def _space_factors(arg) -> list[list]:
    """The factors of a space's exponent, split at its times signs: ``m \\times n``, and
    ``1x5``, ``30 x5`` (a letter x between numbers, the times sign of plain text)."""
    from ..reader.lexer import Group, Token
    toks = arg.children if isinstance(arg, Group) else [arg]
    plain_x = all(isinstance(t, Token) and (t.kind == "num" or t.text == "x") for t in toks)
    factors: list[list] = [[]]
    for tok in toks:
        if isinstance(tok, Token) and (tok.text in ("\\times", "\\cdot", "*") or
                                       plain_x and tok.text == "x"):
            factors.append([])
        else:
            factors[-1].append(tok)
    return factors


def space_shape(nodes: list, sizes: dict) -> tuple[int, int] | None:
    """``\\mathbb{R}^{m \\times \\ell}`` -> (m, ell) in numbers; None if not a real space."""
    from ..reader.entries.indices import NotIndex, read_expr, index_value
    from ..reader.lexer import Token
    nodes = [n for n in nodes if not (isinstance(n, Token) and n.text in ("\\,", "\\;", "\\!"))]
    if not nodes:
        return None
    k = _reals_head(nodes)
    if k is None:
        return None
    rest = nodes[k:]
    if not rest:
        return (1, 1)
    if not (isinstance(rest[0], Token) and rest[0].text == "^") or len(rest) != 2:
        return None
    arg = rest[1]
    factors = _space_factors(arg)
    if len(factors) > 2 or any(not f for f in factors):
        return None
    dims = []
    for factor in factors:
        try:
            dims.append(index_value(read_expr(factor), {}, sizes))
        except (NotIndex, KeyError):
            return None
    return (dims[0], dims[1]) if len(dims) == 2 else (1, dims[0])


def space_names(nodes: list) -> list | None:
    """``\\mathbb{R}^{T \\times d}`` -> ["T", "d"]: the dimensions of a real space, each a
    number or a name (a letter, optionally with a subscript); None if it is not one."""
    from ..reader.lexer import Token
    nodes = [n for n in nodes if not (isinstance(n, Token) and n.text in ("\\,", "\\;", "\\!"))]
    if len(nodes) < 3:
        return None
    k = _reals_head(nodes)
    if k is None:
        return None
    rest = nodes[k:]
    if len(rest) != 2 or not (isinstance(rest[0], Token) and rest[0].text == "^"):
        return None
    arg = rest[1]
    factors = _space_factors(arg)
    if len(factors) > 2:
        return None
    out: list = []
    for factor in factors:
        text = "".join(getattr(t, "text", "") if isinstance(t, Token) else
                       "{" + "".join(getattr(c, "text", "") for c in t.children) + "}"
                       for t in factor)
        if text.isdigit():
            out.append(int(text))
        elif re.fullmatch(r"[A-Za-z](?:_\{?[A-Za-z0-9]{1,4}\}?)?", text):
            out.append(text.replace("{", "").replace("}", ""))
        elif text == "\\ell":
            out.append("ell")
        else:
            return None
    return out


def membership(value, shape: tuple[int, int] | None, text: str) -> Difference | None:
    """``value \\in`` a space of the given shape."""
    if shape is None:
        raise Undecided(f"not checked: symrow checks memberships in real spaces such as "
                        f"\\mathbb{{R}}^{{m \\times n}}, not in {text}")
    got = value.shape if is_matrix(value) else (1, 1)
    if got == shape or (shape[0] == 1 and got == (shape[1], 1)):
        return None
    if shape == (1, 1) and not is_matrix(value):
        return None
    want = "a number" if shape == (1, 1) else f"{shape[0]} x {shape[1]}"
    return Difference(f"the left side is a {shape_text(value)}, not {want}")


# -- maps ---------------------------------------------------------------------------------

def _source(value, ref):
    """(quantity, rows) when ``value`` is a whole quantity or some of its rows; else None."""
    entries = list(value) if is_matrix(value) else [value]
    owners = [ref.owner.get(e) if isinstance(e, sympy.Symbol) else None for e in entries]
    if not owners or any(o is None for o in owners):
        return None
    names = {o[0] for o in owners}
    if len(names) != 1:
        return None
    q = ref.quantities[names.pop()]
    rows = sorted({o[1] for o in owners})
    if len(entries) != len(rows) * q.cols:
        return None
    return q, rows


def _down_to(expr, level: int, ref):
    for _ in range(64):
        top = ref.level(expr)
        if top <= level:
            break
        expr = ref.unfold(expr, top)
    return expr


def mapping(left, right, ref, left_text: str, right_text: str) -> Difference | None:
    """``left \\longmapsto right``: right is computed from left, point by point."""
    got = _source(left, ref)
    if got is None:
        raise Undecided("not checked: symrow checks maps from a vector sequence or one of "
                        "its points")
    q, rows = got
    theirs = _source(right, ref)
    if theirs is None:
        raise Undecided("not checked: symrow checks maps between vector sequences and "
                        "their points, such as \\boldsymbol{a}_i \\longmapsto "
                        "\\boldsymbol{c}_i")
    rq, rrows = theirs
    if rq.level <= q.level:
        raise Undecided(f"not checked: {right_text} is not computed from {q.name}, so this "
                        f"pairs two given points; symrow checks maps that compute one from "
                        f"the other")
    target = right if is_matrix(right) else sympy.ImmutableMatrix([[right]])
    used = []
    for i in range(target.rows):
        row_used = set()
        for j in range(target.cols):
            expr = _down_to(target[i, j], q.level, ref)
            for sym in expr.free_symbols:
                owner = ref.owner.get(sym)
                if owner is not None and owner[0] == q.name:
                    row_used.add(owner[1])
        used.append(row_used)
    whole = len(rows) == q.rows and q.rows > 1 and len(rrows) == rq.rows
    if whole:
        # a whole vector sequence: point i goes to point i
        if rq.rows != q.rows:
            return Difference(f"{left_text} has {q.rows} points but {right_text} has "
                              f"{rq.rows}: a map between vector sequences keeps the number "
                              f"of points")
        for i, row_used in enumerate(used, start=1):
            extra = row_used - {i}
            if extra:
                others = ", ".join(str(r) for r in sorted(extra))
                return Difference(f"point {i} of {right_text} uses point"
                                  f"{'s' if len(extra) > 1 else ''} {others} of {left_text} "
                                  f"too: this is not a map point by point", (i, 1))
        return None
    allowed = set(rows)
    for row_used in used:
        if row_used - allowed:
            from_rows = ", ".join(str(r) for r in sorted(row_used))
            return Difference(f"{right_text} is computed from point{'s' if len(row_used) > 1 else ''} "
                              f"{from_rows} of {q.name}, not from {left_text}")
    return None


def unchecked(kind: str) -> Undecided:
    word = {"ne": "'\\ne'", "other": "this relation"}.get(kind, kind)
    return Undecided(f"not checked: symrow does not check {word}")


class _Unused(MathError):
    pass
