r"""A variant per student, with numbers chosen so that the work stays human.

A variant is the operands' numbers for one student.  They are drawn from a
random generator seeded by the exercise's seed, the exercise itself and the
student's id, so the same seed and roster always give the same variants, and
a student keeps the same numbers when others join the roster (unless their
draw would repeat an earlier student's, which is drawn again).

A draw is kept only when it has every property of :func:`problems`:

* ``entries``: small integers, in the exercise's range (by the draw itself);
* ``zero-row`` / ``equal-rows``: no operand has a row of zeros or two equal
  rows (a zero row's result is zero whatever the student did, and equal
  rows hide which one was used);
* ``bound``: every step that is not a softmax comes out in integers no
  larger than the exercise's bound (12 for a product);
* ``ties`` and ``scores``: in each row of scores the keys a query sees have
  pairwise different scores (a tie makes the softmax's shares equal, and a
  missing scale invisible), all of them within ±3, so that every
  exponential stays readable, ``e^{2/\sqrt{2}}``;
* ``nonzero``: a ReLU's pre-activation has no zero entry (ReLU' is not
  defined there) and both signs (the mask matters);
* ``visible``: every mistake of the catalogue that applies to a step changes
  that step's numbers, and two different mistakes give different numbers,
  so each mistake is seen and named;
* ``distinct``: no two students of the roster share their numbers, nor their
  final answer, while the space of variants allows it.

>>> from symrow.exercises.spec import preset
>>> from symrow.exercises.catalogue import load
>>> spec = preset("attention", m=2, n=3, d=2)
>>> vs = make(spec, ["s01", "s02", "s03"], seed=7, catalogue=load())
>>> [v.student for v in vs], vs[0].values == make(spec, ["s01"], 7, load())[0].values
(['s01', 's02', 's03'], True)
>>> problems(spec, vs[0].values, load())
[]
"""

from __future__ import annotations

import dataclasses
import random
from typing import Mapping

import sympy

from ..errors import OptionError
from .compute import mutations, truth

__all__ = ["Variant", "draw", "problems", "make", "PROPERTIES", "MAX_DRAWS"]

#: the properties a variant must have (see the module documentation)
PROPERTIES = ("entries", "zero-row", "equal-rows", "bound", "ties", "scores", "nonzero",
              "visible", "distinct")
#: draws per student before symrow says the exercise's numbers cannot all be kept
MAX_DRAWS = 3000
#: the largest |score| of a softmax step
SCORE_BOUND = 3


@dataclasses.dataclass
class Variant:
    """One student's numbers (``values``: operand name -> SymPy matrix of integers)."""

    student: str
    values: dict
    number: int = 0
    _truth: dict | None = dataclasses.field(default=None, repr=False, compare=False)

    def truth(self, spec) -> dict:
        if self._truth is None:
            self._truth = truth(spec, self.values)
        return self._truth

    def key(self) -> tuple:
        return tuple((k, tuple(v)) for k, v in sorted(self.values.items()))


def draw(spec, rng: random.Random) -> dict:
    """The operands' numbers, each entry uniform in the operand's range."""
    out = {}
    for name in spec.operands:
        rows, cols = spec.shapes[name]
        low, high = spec.ranges[name]
        out[name] = sympy.Matrix(rows, cols, lambda i, j: sympy.Integer(rng.randint(low, high)))
    return out


def _rows_problem(name: str, m: sympy.Matrix) -> str | None:
    rows = [tuple(m.row(i)) for i in range(m.rows)]
    if any(all(x == 0 for x in r) for r in rows):
        return f"zero-row: {name} has a row of zeros"
    if len(set(rows)) < len(rows):
        return f"equal-rows: {name} has two equal rows"
    return None


def _scores(spec, values) -> list:
    """(row, visible scores) of every softmax step's scores, where there is one."""
    out = []
    if "S" in values and any(s.softmax for s in spec.steps):
        S = values["S"]
        mask = values.get("M")
        for i in range(S.rows):
            seen = [S[i, j] for j in range(S.cols)
                    if mask is None or mask[i, j] == 0]
            out.append((i + 1, seen))
    return out


def _quick(spec, operands) -> dict:
    """A first screen of a draw, before the engine runs: the integer matrices that follow
    from the operands by products, transposes and sums alone (the scores S, a product's
    result).  It only turns draws away early; a draw is kept by :func:`problems`, on the
    engine's own numbers."""
    from ..formula import expr as E
    values = dict(operands)

    def value(e):
        if isinstance(e, E.Name):
            return values[e.name]
        if isinstance(e, E.Transpose):
            return value(e.arg).T
        if isinstance(e, E.Product):
            return value(e.left) * value(e.right)
        if isinstance(e, E.Sum):
            out = None
            for sign, term in zip(e.signs, e.terms):
                t = value(term) * sign
                out = t if out is None else out + t
            return out
        raise KeyError
    for name, expr in [(n, e) for n, e, _r in spec.computed_given] + \
            [(st.name, st.expr) for st in spec.steps]:
        try:
            values[name] = value(expr)
        except (KeyError, Exception):  # noqa: BLE001 - what needs the engine is left to it
            break
    return values


def _screen(spec, operands) -> list[str]:
    """The properties that the operands alone, or :func:`_quick`, already break."""
    out = []
    for name in spec.operands:
        if name == spec.upstream:
            continue          # an upstream gradient may repeat a row: it is the loss's
        m = sympy.Matrix(operands[name])
        found = _rows_problem(name, m)
        if found:
            return [found]
        if m.cols > 1 and m.rows > 1 and any(all(x == 0 for x in m.col(j))
                                              for j in range(m.cols)):
            return [f"zero-row: {name} has a column of zeros"]
    quick = _quick(spec, operands)
    for step in spec.steps:
        if step.name in quick and not step.softmax and step.name not in operands:
            if any(abs(x) > spec.bound for x in quick[step.name]):
                return [f"bound: {step.name} has an entry past ±{spec.bound}"]
    if "S" in quick and not spec.causal:
        for row, seen in _scores(spec, {"S": quick["S"]}):
            if len(set(seen)) < len(seen) or any(abs(x) > SCORE_BOUND for x in seen):
                return [f"ties: row {row} of S"]
    return out


def problems(spec, operands: Mapping, catalogue=None, values: Mapping | None = None
             ) -> list[str]:
    """The properties (see the module documentation) that the numbers ``operands`` break:
    ``"name: why"`` strings; an empty list for a variant to keep."""
    out = _screen(spec, operands)
    if out:
        return out
    if values is None:
        try:
            values = truth(spec, operands)
        except Exception as err:  # noqa: BLE001 - a draw the engine refuses is not kept
            return [f"entries: {type(err).__name__}: {err}"]
    for name in spec.nonzero:
        m = values[name]
        if any(x == 0 for x in m):
            out.append(f"nonzero: {name} has a zero entry")
        elif not (any(x > 0 for x in m) and any(x < 0 for x in m)):
            out.append(f"nonzero: {name} has entries of one sign only")
    for step in spec.steps:
        if step.softmax:
            continue
        m = values[step.name]
        if any(not (x.is_Integer) or abs(x) > spec.bound for x in m):
            out.append(f"bound: {step.name} has an entry past ±{spec.bound} or not whole")
    for row, seen in _scores(spec, values):
        if len(set(seen)) < len(seen):
            out.append(f"ties: row {row} of S has two equal scores")
        if any(abs(x) > SCORE_BOUND for x in seen):
            out.append(f"scores: row {row} of S has a score past ±{SCORE_BOUND}")
    if out or catalogue is None:
        return out
    for step in spec.steps:
        seen: dict = {}
        right = sympy.Matrix(values[step.name])
        for cand in mutations(spec, step, catalogue, values):
            got = cand.value(values, spec.shapes, spec.causal)
            if got is None:
                continue
            if got.shape == right.shape and _same(got, right):
                out.append(f"visible: {cand.code} gives {step.name} its right numbers")
                break
            for code, other in seen.items():
                if code != cand.code and other.shape == got.shape and _same(other, got):
                    out.append(f"visible: {cand.code} and {code} give {step.name} the same "
                               f"numbers")
                    break
            seen.setdefault(cand.code, got)
        if out:
            break
    return out


def _same(a, b) -> bool:
    """Equal matrices (exactly, or to 12 digits where exponentials are involved)."""
    if a.shape != b.shape:
        return False
    for x, y in zip(a, b):
        d = sympy.sympify(x - y)
        if d == 0:
            continue
        if d.is_number:
            try:
                if abs(complex(sympy.N(d, 20))) < 1e-12:
                    continue
            except (TypeError, ValueError):
                pass
        return False
    return True


def make(spec, students, seed: int, catalogue=None, *, max_draws: int = MAX_DRAWS) -> list:
    """A variant for each student, in roster order (see the module documentation)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be a whole number; got {seed!r}")
    students = [str(s) for s in students]
    if len(set(students)) != len(students):
        dupes = sorted({s for s in students if students.count(s) > 1})
        raise OptionError(f"the roster names {', '.join(dupes)} more than once")
    out: list[Variant] = []
    taken: set = set()
    answers: set = set()
    for k, student in enumerate(students):
        rng = random.Random(f"{seed}|{spec.describe()}|{student}")
        fallback = None
        for _attempt in range(max_draws):
            values = draw(spec, rng)
            key = tuple((n, tuple(v)) for n, v in sorted(values.items()))
            if key in taken or _screen(spec, values):
                continue
            try:
                computed = truth(spec, values)
            except Exception:  # noqa: BLE001 - shapes the engine refuses: draw again
                continue
            if problems(spec, values, catalogue, computed):
                continue
            final = tuple(computed[spec.steps[-1].name])
            if final in answers:
                fallback = fallback or (values, computed)
                continue
            break
        else:
            if fallback is None:
                raise OptionError(
                    f"no variant for {student} with every property after {max_draws} draws: "
                    f"the sizes or the ranges leave too few numbers that work by hand")
            values, computed = fallback      # the final answer repeats: the space is small
        taken.add(tuple((n, tuple(v)) for n, v in sorted(values.items())))
        answers.add(tuple(computed[spec.steps[-1].name]))
        out.append(Variant(student, values, k + 1, computed))
    return out
