"""Decide whether the two sides of a step are equal, and if not, say where.

Both sides are values: numbers or matrices of SymPy expressions in the
derivation's symbols.  Named results (``c_{12}``, ``S``, ``p_{21}``) enter
as opaque symbols, so each side stays at the level it was written at.

For one entry:

1. Unfold the side that is written at the higher level, one level at a
   time (``o_{11}`` becomes ``p_{11} v_{11} + p_{12} v_{21}``), until both
   sides stand at the same level; if they are then identical, the entry
   holds.  The first level at which both sides meet is where a wrong entry
   is *explained*: missing terms, extra terms and wrong coefficients, after
   exact expansion (for a single fraction, separately for its numerator and
   denominator).
2. The verdict itself comes from the derivation's own ground truth, in
   operand symbols: polynomials are compared exactly after expansion;
   anything with ``exp`` (softmax) is evaluated at three fixed rational
   points with 40 significant digits, and the first point where the sides
   differ is reported with both values.

>>> import sympy, symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.checker.verify import compare
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 1, 2), symrow.vecseq("B", 2, 1)))
>>> a11, a12, b11, b21, c11 = sympy.symbols("a_{11} a_{12} b_{11} b_{21} c_{11}")
>>> compare(c11, a11 * b11 + a12 * b21, ref) is None
True
>>> diff = compare(c11, a11 * b11 + a12 * b11, ref).detail
>>> diff.missing, diff.extra
(['a_{12} b_{21}'], ['a_{12} b_{11}'])
"""

from __future__ import annotations

import contextvars
import dataclasses
import math
import zlib
from fractions import Fraction

import sympy

from . import numeric
from ..formula.values import MathError, NeedsValues, Undecided, is_matrix, scalar_or_matrix, shape_text

__all__ = ["EntryDiff", "Difference", "compare", "is_polynomial", "show"]

#: sample points for the numeric comparison of non-polynomial entries
POINTS = 3


@dataclasses.dataclass
class EntryDiff:
    """How one entry (or a number) differs."""

    missing: list = dataclasses.field(default_factory=list)
    extra: list = dataclasses.field(default_factory=list)
    coefficients: list = dataclasses.field(default_factory=list)   # (term, expected, got)
    parts: list = dataclasses.field(default_factory=list)          # (name, EntryDiff)
    counterexample: dict | None = None
    note: str = ""
    common: list = dataclasses.field(default_factory=list)         # terms both sides have

    def to_dict(self) -> dict:
        out = {"missing": self.missing, "extra": self.extra,
               "coefficients": [{"term": t, "expected": e, "got": g}
                                for t, e, g in self.coefficients]}
        if self.common:
            out["common"] = self.common
        if self.parts:
            out["parts"] = [{"part": name, **diff.to_dict()} for name, diff in self.parts]
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        if self.note:
            out["note"] = self.note
        return out

    def summary(self) -> str:
        pieces = []
        for name, diff in self.parts:
            inner = diff.summary()
            if inner:
                pieces.append(f"{name}: {inner}")
        if not self.parts:
            if self.missing:
                pieces.append("missing " + ", ".join(self.missing))
            if self.extra:
                pieces.append("extra " + ", ".join(self.extra))
            for term, expected, got in self.coefficients:
                pieces.append(f"coefficient of {term} is {got}, expected {expected}")
        if self.note:
            pieces.append(self.note)
        return "; ".join(pieces)


@dataclasses.dataclass
class Difference:
    """Why a step is wrong: a shape mismatch, or entries that differ."""

    message: str
    entry: tuple | None = None
    detail: EntryDiff | None = None
    others: list = dataclasses.field(default_factory=list)
    #: for sides of two shapes: each side's (rows, columns), None for a number
    shapes: tuple | None = None


def shape_difference(left, right) -> Difference:
    """The two sides have different shapes: said, and kept as data for the hints."""
    def shape(value):
        return tuple(value.shape) if is_matrix(value) else None
    return Difference(f"the left side is a {shape_text(left)}, the right side a "
                      f"{shape_text(right)}", shapes=(shape(left), shape(right)))


#: the longest term a report shows in full
MAX_SHOWN = 160
#: the most shared terms a report lists (to show a differing entry whole)
MAX_COMMON = 12


def show(expr, rank: dict | None = None) -> str:
    """An expression as compact LaTeX for a report, factors in the derivation's order.

    ``rank`` maps symbols to their place (q before k before v); a product is
    written in that order, as a student would write it.  An expression too large
    to show whole (more than :data:`SHOW_NODES` nodes, so more than
    :data:`MAX_SHOWN` characters) is written only as far as it is shown: its
    terms in SymPy's order, each sum cut after :data:`MAX_SHOWN` characters (the
    entries of a backward pass took seconds each to write out in full, and then
    to be cut).

    >>> import sympy
    >>> a, b = sympy.symbols("a_{11} b_{11}")
    >>> show(2 * a * b + a)
    '2 a_{11} b_{11} + a_{11}'
    >>> show(sum(sympy.Symbol(f"x_{{{i}}}") for i in range(500))).endswith("...")
    True
    """
    brief = not _few_nodes(expr, SHOW_NODES)
    text = _show(expr, rank or {}, brief)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


#: the most nodes an expression :func:`show` writes out whole may have: a tree's leaves
#: are at least half its nodes and each is a character or more, so a larger one is longer
#: than MAX_SHOWN characters and is cut anyway
SHOW_NODES = 2 * MAX_SHOWN + 2


def _few_nodes(expr, limit: int) -> bool:
    for count, _ in enumerate(sympy.preorder_traversal(expr)):
        if count >= limit:
            return False
    return True


def _show(expr, rank: dict, brief: bool = False) -> str:
    if expr.is_Mul:
        coeff, factors = expr.as_coeff_mul()
        # s/sqrt(2) rather than sqrt(2) s/2
        roots = [f for f in factors if f.is_Pow and f.base.is_Integer and f.exp == sympy.S.Half]
        if len(roots) == 1 and coeff.is_Rational and coeff.q == roots[0].base:
            rest = [f for f in factors if f is not roots[0]]
            body = _show(sympy.Mul(*rest), rank, brief) if rest else "1"
            sign = "-" if coeff < 0 else ""
            top = body if abs(coeff.p) == 1 else f"{abs(coeff.p)} {body}"
            return sign + r"\frac{%s}{\sqrt{%d}}" % (top, roots[0].base)
    if expr.is_Mul or expr.is_Pow:
        num, den = sympy.fraction(expr)
        if den != 1:
            return r"\frac{%s}{%s}" % (_show(num, rank, brief), _show(den, rank, brief))
    if expr.is_Mul:
        coeff, factors = expr.as_coeff_mul()
        if brief:
            texts = [(f, _show(f, rank, brief)) for f in factors]
            texts.sort(key=lambda ft: (rank.get(ft[0], 99) if ft[0].is_Symbol else 100,
                                       numeric.natural_key(ft[1])))
        else:
            factors = sorted(factors, key=lambda f: (rank.get(f, 99) if f.is_Symbol else 100,
                                                     numeric.natural_key(str(f))))
            texts = [(f, _show(f, rank)) for f in factors]
        parts = [f"({text})" if f.is_Add else text for f, text in texts]
        body = " ".join(parts)
        if coeff == 1:
            return body
        if coeff == -1:
            return "-" + body
        return sympy.latex(coeff) + " " + body
    if expr.is_Add:
        out = ""
        for k, term in enumerate(expr.args if brief else expr.as_ordered_terms()):
            text = _show(term, rank, brief)
            if k and text.startswith("-"):
                out += " - " + text[1:]
            elif k:
                out += " + " + text
            else:
                out = text
            if brief and len(out) > MAX_SHOWN:
                return out + " + \\ldots"
        return out
    if isinstance(expr, sympy.exp):
        return "e^{%s}" % _show(expr.args[0], rank, brief)
    return sympy.latex(expr)


def is_polynomial(expr) -> bool:
    """Only +, x and non-negative integer powers of symbols (numeric factors may be surds)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.is_Symbol or node.is_Number:
            continue
        if node.is_Add or node.is_Mul:
            stack.extend(node.args)
            continue
        if node.is_Pow:
            base, exp = node.args
            if base.free_symbols:
                if not (exp.is_Integer and exp >= 0):
                    return False
                stack.append(base)
            elif exp.free_symbols or base in (sympy.S.Exp1,):
                return False
            continue
        return False
    return True


#: the most terms an exact expansion may produce
MAX_EXPANSION = 200_000


def expansion_size(expr) -> int:
    """An upper estimate of the number of terms ``expand`` would produce."""
    if expr.is_Add:
        return sum(expansion_size(a) for a in expr.args)
    if expr.is_Mul:
        out = 1
        for a in expr.args:
            out *= expansion_size(a)
            if out > MAX_EXPANSION:
                return out
        return out
    if expr.is_Pow and expr.exp.is_Integer and expr.exp > 1:
        k = expansion_size(expr.base)
        if k <= 1:
            return 1
        return math.comb(int(expr.exp) + k - 1, k - 1) if k < 10_000 else MAX_EXPANSION + 1
    return 1


def expand(expr, **hints):
    """``sympy.expand``, refused when the result would be huge."""
    if expansion_size(expr) > MAX_EXPANSION:
        raise MathError(f"expanding this would give more than {MAX_EXPANSION} terms")
    return sympy.expand(expr, **hints)


def _terms(expr) -> dict:
    expanded = expand(expr, power_exp=False, power_base=False, log=False)
    table: dict = {}
    for term in sympy.Add.make_args(expanded):
        coeff, rest = term.as_coeff_Mul()
        table[rest] = table.get(rest, 0) + coeff
    return {k: v for k, v in table.items() if v != 0}


def _sorted(texts) -> list:
    return sorted(texts, key=numeric.natural_key)


def _over_one_denominator(expr):
    """A sum of fractions as one fraction, when they share their denominators
    (p_{11} v_{11} + p_{12} v_{21} with p = e^x / (e^x + e^y)); else unchanged."""
    if not expr.is_Add:
        return expr
    dens = {sympy.fraction(term)[1] for term in expr.args}
    if len(dens) < 2 and dens != {1}:
        return sympy.together(expr)
    if len(dens) <= 3 and all(d != 1 for d in dens):
        together = sympy.together(expr)
        if len(str(together)) < 4 * len(str(expr)):
            return together
    return expr


#: the most nodes a side may have for its terms to be listed in a report: expanding
#: larger ones (an entry of a gradient through two softmax layers) took seconds to
#: tens of seconds, for a list too long to read; the counterexample says as much
REPORT_NODES = 1000


def _term_diff(expected, got, rank: dict, refine: bool = True) -> EntryDiff:
    if not (_few_nodes(expected, REPORT_NODES) and _few_nodes(got, REPORT_NODES)):
        return EntryDiff(note="the two sides are too long to compare term by term here; "
                              "the counterexample pins the difference down")
    lt, rt = _terms(expected), _terms(got)
    if refine and (len(lt) > 1 or len(rt) > 1):
        # softmax-weighted sums: compare them as single fractions, numerator and
        # denominator apart, so that the differing exponentials can be named
        one_l, one_r = _over_one_denominator(expected), _over_one_denominator(got)
        if sympy.fraction(one_l)[1] != 1 and sympy.fraction(one_r)[1] != 1 and \
                (one_l, one_r) != (expected, got):
            parts = _fraction_parts(one_l, one_r, rank)
            if parts:
                return EntryDiff(parts=parts)
    diff = EntryDiff()
    for term, coeff in lt.items():
        if term not in rt:
            diff.missing.append(show(coeff * term, rank))
        elif rt[term] != coeff:
            diff.coefficients.append((show(term, rank), show(coeff), show(rt[term])))
        elif len(diff.common) < MAX_COMMON:
            diff.common.append(show(coeff * term, rank))
    for term, coeff in rt.items():
        if term not in lt:
            diff.extra.append(show(coeff * term, rank))
    if any(text.endswith("...") for text in diff.missing + diff.extra):
        many = len(diff.missing) + len(diff.extra)
        diff.note = (f"{many} term{'s differ' if many > 1 else ' differs'}; too long to "
                     f"show here; the counterexample pins the difference down")
        diff.missing, diff.extra, diff.common = [], [], []
    diff.missing = _sorted(diff.missing)
    diff.extra = _sorted(diff.extra)
    diff.coefficients.sort(key=lambda item: numeric.natural_key(item[0]))
    if refine and len(lt) == len(rt) == 1 and not diff.coefficients:
        # a single fraction on each side: compare numerators and denominators
        (tl, cl), = lt.items()
        (tr, cr), = rt.items()
        diff.parts = _fraction_parts(cl * tl, cr * tr, rank) or []
    return diff


def _fraction_parts(left, right, rank: dict) -> list:
    """Numerator and denominator compared apart (those that differ); [] for no fraction."""
    nl, dl = sympy.fraction(sympy.together(left))
    nr, dr = sympy.fraction(sympy.together(right))
    if dl == 1 and dr == 1:
        return []
    if dl == dr:
        return [("numerator", _term_diff(nl, nr, rank, False))]
    if nl == nr:
        return [("denominator", _term_diff(dl, dr, rank, False))]
    return [("numerator", _term_diff(nl, nr, rank, False)),
            ("denominator", _term_diff(dl, dr, rank, False))]


def _zero(expr) -> bool:
    if expr == 0:
        return True
    if is_polynomial(expr):
        return expand(expr) == 0
    return False


def _point_value(symbol) -> int:
    """A fixed nonzero integer for a symbol, from its name alone."""
    return zlib.crc32(symbol.name.encode("utf-8")) % 999_983 + 17


_NONE = object()


def _exact_value(expr, memo: dict):
    """The exact value of a polynomial with rational coefficients at the integer point
    of :func:`_point_value` (a ``Fraction``); None for anything else (a float, a surd,
    a function, a negative power)."""
    got = memo.get(expr, _NONE)
    if got is not _NONE:
        return got
    if expr.is_Symbol:
        value = _point_value(expr)
    elif expr.is_Rational:
        value = Fraction(int(expr.p), int(expr.q))
    elif expr.is_Add or expr.is_Mul:
        value = Fraction(0 if expr.is_Add else 1)
        for arg in expr.args:
            part = _exact_value(arg, memo)
            if part is None:
                value = None
                break
            value = value + part if expr.is_Add else value * part
    elif expr.is_Pow and expr.exp.is_Integer and expr.exp >= 0:
        base = _exact_value(expr.base, memo)
        value = None if base is None else base ** int(expr.exp)
    else:
        value = None
    memo[expr] = value
    return value


def _differ(left, right, memo: dict) -> bool:
    """``_zero(left - right)`` is False for certain, found without building the
    difference or expanding it: both sides are polynomials with rational coefficients
    and their exact values at one integer point differ (a polynomial that is zero is
    zero at every point).  Small ones only, so that no expansion ``_zero`` would
    refuse as too large is let through."""
    lv = _exact_value(left, memo)
    if lv is None:
        return False
    rv = _exact_value(right, memo)
    if rv is None or lv == rv:
        return False
    return expansion_size(left) + expansion_size(right) <= MAX_EXPANSION


#: sample points for sides with a step in them (ReLU' as Heaviside, ReLU as Max): a
#: step agrees with another step of the wrong argument at a few points by chance
#: (g_{21} ReLU'(h_{22}) for g_{21} ReLU'(h_{21}) held at three)
STEP_POINTS = 24
#: the sample points again, nearer 0, when a side was vanishingly small but not 0 at one:
#: a softmax of scores made by six products of values up to 4 is one-hot to 180 digits,
#: and a gradient through it (10^-188) passed for 0 (linformer's \bar{S} = 0 held)
SHRINKS = (1, 8, 64)
_STEPS = (sympy.Heaviside, sympy.Max, sympy.Min, sympy.Piecewise, sympy.sign, sympy.Abs)


def _opaque(left, right):
    """Both sides with each application of a function the formula leaves unknown
    (``\\phi(q_{11})``, ``\\phi'(q_{21})``) as one symbol of its own, the same on both sides:
    no value can be computed for it, but ``\\phi'(q_{22})`` for ``\\phi'(q_{21})`` is still
    another quantity (the step was left undecided)."""
    from sympy.core.function import AppliedUndef
    calls = {e for side in (left, right) for e in sympy.preorder_traversal(side)
             if isinstance(e, (AppliedUndef, sympy.Derivative, sympy.Subs))
             and e.atoms(AppliedUndef)}
    if not calls:
        return left, right
    # outermost first: a derivative of phi(x) is one quantity, not phi(x) inside it
    outer = {e for e in calls if not any(e is not o and e in o.args for o in calls)}
    table = {e: sympy.Symbol(f"⟨{sympy.srepr(e)}⟩", real=True) for e in outer}
    return left.xreplace(table), right.xreplace(table)


def _counterexample(left, right) -> tuple[bool, dict | None]:
    """(equal, counterexample): evaluate at fixed points; None when they agree."""
    symbols = left.free_symbols | right.free_symbols
    evaluated = 0
    steps = left.has(*_STEPS) or right.has(*_STEPS)
    points = numeric.sample_points(symbols, STEP_POINTS if steps else POINTS)
    for shrink in SHRINKS:
        vanished = False
        for point in points:
            if shrink != 1:
                point = {s: v / shrink for s, v in point.items()}
            memo: dict = {}     # the parts both sides share are evaluated once
            try:
                lv = numeric.evaluate(left, point, memo)
                rv = numeric.evaluate(right, point, memo)
            except numeric.NumericError:
                continue
            evaluated += 1
            if not numeric.close(lv, rv):
                values = {s.name: str(point[s]) for s in
                          sorted(symbols, key=lambda s: numeric.natural_key(s.name))}
                return False, {"values": values, "left": numeric.show_number(lv),
                               "right": numeric.show_number(rv)}
            vanished = vanished or numeric.vanishing(lv, rv)
        if not vanished:
            break
    if evaluated == 0:
        raise Undecided("could not be decided: the two sides cannot be evaluated at any "
                        "sample point (an overflow, or a division by zero)")
    return True, None


def _infinity(expr):
    """+oo or -oo if ``expr`` is infinite (a finite score plus a -oo mask entry), else None."""
    if expr in (sympy.S.Infinity, sympy.S.NegativeInfinity):
        return expr
    if expr.is_Add:
        signs = {a for a in expr.args if a in (sympy.S.Infinity, sympy.S.NegativeInfinity)}
        if len(signs) == 1:
            return signs.pop()
    return None


def compare_scalar(left, right, ref, *, explain: bool = True) -> EntryDiff | None:
    """None when ``left == right`` under the derivation's meaning; else how they differ.

    Raises :class:`Undecided` when the two sides cannot be compared (one is
    a number, the other depends on operands whose values are not known).
    ``explain=False`` asks for the verdict only: a difference is an empty
    :class:`EntryDiff`, without the terms a report shows (a hint that tries
    many candidates needs no more, and the terms of a backward pass's entries
    cost seconds to write out).
    """
    if left == right:
        return None
    li, ri = _infinity(left), _infinity(right)
    if li is not None or ri is not None:
        if li == ri:
            return None
        return EntryDiff(missing=[show(li if li is not None else left, ref.rank)],
                         extra=[show(ri if ri is not None else right, ref.rank)])
    diff = _compare_symbols(left, right, ref, explain)
    if diff is None:
        return None
    return _compare_values(left, right, ref, diff, explain)


def _compare_symbols(left, right, ref, explain: bool = True) -> EntryDiff | None:
    # a pair found equal once is equal again (the same tables): a chain and its
    # instances compare many entries more than once
    held = ref.held_pairs() if hasattr(ref, "held_pairs") else None
    if held is not None and (left, right) in held:
        return None
    diff = _compare_symbols_once(left, right, ref, explain)
    if diff is None and held is not None:
        held.add((left, right))
    return diff


def _compare_symbols_once(left, right, ref, explain: bool = True) -> EntryDiff | None:
    L, R = ref.unalias(left), ref.unalias(right)
    meet = None
    exact: dict = {}     # exact values at one point of the parts of L and R (see _differ)
    for _ in range(64):
        lv, rv = ref.level(L), ref.level(R)
        if meet is None and lv == rv:
            meet = (L, R)
        if not _differ(L, R, exact) and _zero(L - R):
            return None
        if lv == 0 and rv == 0:
            break
        top = max(lv, rv)
        if lv == top:
            L = ref.unfold(L, top)
        if rv == top:
            R = ref.unfold(R, top)
    lg, rg = ref.ground(left), ref.ground(right)
    lo, ro = _opaque(lg, rg)
    counter = None
    if is_polynomial(lo) and is_polynomial(ro):
        if expand(lo - ro) == 0:
            return None
    else:
        equal, counter = _counterexample(lo, ro)
        if equal:
            return None
    if not explain:
        return EntryDiff(counterexample=counter)
    if meet is None:
        meet = (lg, rg)
    diff = _term_diff(*meet, ref.rank)
    if not (diff.missing or diff.extra or diff.coefficients or diff.parts) and \
            meet != (lg, rg):
        diff = _term_diff(lg, rg, ref.rank)
    diff.counterexample = counter
    return diff


def _needs_values(ref, exprs) -> str:
    names = []
    for expr in exprs:
        for name in ref.missing_values(expr):
            if name not in names:
                names.append(name)
    listed = ", ".join(sorted(names)) or "the operands"
    return (f"not checked: one side is a number, the other depends on the entries of "
            f"{listed}, whose values are not given (define them, as in "
            f"A = \\begin{{bmatrix}} 1 & 2 \\\\ 3 & 4 \\end{{bmatrix}}, or give --values)")


def _numbers_equal(x, y) -> bool:
    if _zero(x - y):
        return True
    try:
        return numeric.close(numeric.evaluate(x, {}), numeric.evaluate(y, {}))
    except numeric.NumericError:
        return False


#: whether each side of the claim being compared was written in the entries of
#: quantities (left, right): such a side is no number of a worked example, even where
#: its value cancels to one (the caller sets it, :meth:`symrow.checker.run._Run.claim`)
IN_SYMBOLS: contextvars.ContextVar = contextvars.ContextVar("in_symbols",
                                                           default=(False, False))


def _compare_values(left, right, ref, diff: EntryDiff,
                    explain: bool = True) -> EntryDiff | None:
    """A step that differs in symbols may hold with the operands' values (a worked
    example with numbers); a number against symbols without values is undecided."""
    lg, rg = ref.ground(left), ref.ground(right)
    lv, rv = ref.with_values(lg), ref.with_values(rg)
    lfree, rfree = bool(lv.free_symbols), bool(rv.free_symbols)
    # numbers as written (not a quantity that happens to be constant, such as a masked p_12,
    # nor a side written in entries that cancels to a number: e^{x_1} / (2 e^{x_1}))
    symbolic = IN_SYMBOLS.get()
    written = (not getattr(left, "free_symbols", True) and not symbolic[0]) or \
        (not getattr(right, "free_symbols", True) and not symbolic[1])
    if (lv, rv) == (lg, rg):
        if lfree != rfree and written:
            raise NeedsValues(_needs_values(ref, (lg, rg)), diff)
        return diff
    if not lfree and not rfree:
        if _numbers_equal(lv, rv):
            return None
        if lv.is_Rational and rv.is_Rational:
            return EntryDiff(coefficients=[("1", show(lv), show(rv))])
        return EntryDiff(counterexample={"values": {}, "left": numeric.show_number(
            numeric.evaluate(lv, {})), "right": numeric.show_number(numeric.evaluate(rv, {}))})
    if lfree != rfree and written:
        raise Undecided(_needs_values(ref, (lv, rv)))
    if is_polynomial(lv) and is_polynomial(rv):
        if expand(lv - rv) == 0:
            return None
        return _term_diff(lv, rv, ref.rank) if explain else EntryDiff()
    equal, counter = _counterexample(lv, rv)
    if equal:
        return None
    out = _term_diff(lv, rv, ref.rank) if explain else EntryDiff()
    out.counterexample = counter
    return out


def sized(left, right):
    """``I``, ``0`` or ``1`` without a size (:class:`~symrow.formula.values.Unsized`) given the size of
    the other side."""
    from ..formula.values import Unsized, shape_of
    lu, ru = isinstance(left, Unsized), isinstance(right, Unsized)
    if lu and ru:
        if (left.kind, left.scale) == (right.kind, right.scale) or {left.kind, right.kind} \
                == {"0"}:
            return sympy.S.Zero, sympy.S.Zero
        raise MathError("cannot tell the sizes of I, 0 or 1 on both sides: write one, as "
                        "in I_n")
    if lu:
        left = left.fill(*shape_of(right))
    elif ru:
        right = right.fill(*shape_of(left))
    return left, right


def compare(left, right, ref) -> Difference | None:
    """None when the step holds; else a :class:`Difference`."""
    left, right = scalar_or_matrix(left), scalar_or_matrix(right)
    left, right = sized(left, right)
    # "= 0" next to a matrix means the zero matrix
    if is_matrix(left) and not is_matrix(right) and right == 0:
        right = sympy.zeros(*left.shape)
    elif is_matrix(right) and not is_matrix(left) and left == 0:
        left = sympy.zeros(*right.shape)
    if is_matrix(left) != is_matrix(right) or (is_matrix(left) and left.shape != right.shape):
        return shape_difference(left, right)
    if not is_matrix(left):
        try:
            diff = compare_scalar(left, right, ref)
        except NeedsValues as err:
            err.difference = Difference("the two sides differ", None, err.difference)
            raise
        if diff is None:
            return None
        return Difference("the two sides differ", None, diff)
    first = None
    others = []
    for i in range(left.rows):
        for j in range(left.cols):
            if first is None:
                try:
                    diff = compare_scalar(left[i, j], right[i, j], ref)
                except NeedsValues as err:
                    err.difference = Difference(f"entry ({i + 1}, {j + 1}) differs",
                                                (i + 1, j + 1), err.difference)
                    raise
                if diff is not None:
                    first = ((i + 1, j + 1), diff)
            else:
                try:
                    if compare_scalar(left[i, j], right[i, j], ref, explain=False) is not None:
                        others.append((i + 1, j + 1))
                except Undecided:
                    others.append((i + 1, j + 1))
    if first is None:
        return None
    (i, j), diff = first
    return Difference(f"entry ({i}, {j}) differs", (i, j), diff, others)
