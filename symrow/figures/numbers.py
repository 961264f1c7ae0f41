"""The numbers a figure draws: every value of a plan, evaluated by symrow's own readings.

A figure is drawn from a concrete case.  When the derivation's operands have
numbers (``values=``, ``--values``), those are used; otherwise each operand
without numbers is given example numbers (:func:`example_values`): the
handout's worked example where the shapes are the handout's, else small
integers from a fixed generator, chosen so that no two points of an operand
coincide and three or more points in the plane are not all on one line.
Then every node of the plan is evaluated by its own reading
(``Reading.value``), exactly, as the derivation computes it, and only then
turned into floats.  The figure never recomputes a product itself: what it
draws is what symrow derived.

>>> import symrow
>>> from symrow.figures.numbers import evaluate
>>> d = symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
>>> case = evaluate(d.plan)
>>> case.example, case["A"].rows
(True, [[2.0, -1.0], [1.0, 0.0]])
>>> case["C"].rows == [[sum(a * b for a, b in zip(row, col)) for col in zip(*case["B"].rows)]
...                    for row in case["A"].rows]
True
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping

import sympy

from ..errors import FigureError
from .scene import Label

__all__ = ["Quantity", "Case", "evaluate", "example_values", "number_label", "fmt",
           "project", "check_axes"]


@dataclasses.dataclass
class Quantity:
    """One value of the plan: its reading node, its vector sequence (None when it has no
    name), its exact value and its entries as floats, row by row."""

    node: object
    seq: object
    exact: sympy.Matrix
    rows: list

    @property
    def name(self):
        return self.seq.name if self.seq is not None else None


@dataclasses.dataclass
class Case:
    """Every value of a plan, by node (``case.of(node)``) and by name (``case["S"]``);
    ``example`` says whether some operand was given example numbers (by name, in
    ``given``: the numbers each was given)."""

    plan: object
    by_node: dict
    example: bool
    given: dict

    def of(self, node) -> Quantity:
        return self.by_node[id(node)]

    def __getitem__(self, name: str) -> Quantity:
        for q in self.by_node.values():
            if q.name == name:
                return q
        raise KeyError(name)


# -- example numbers ---------------------------------------------------------------------

def _handout_examples() -> dict:
    """The handout's worked example (symrow.handout.EXAMPLE), by operand name and shape:
    A for the combine and the match, Q, K, V for attention."""
    from ..handout import EXAMPLE
    return {("A", (3, 2)): EXAMPLE["A"], ("B", (2, 3)): EXAMPLE["B_combine"],
            ("B", (2, 2)): EXAMPLE["B_match"], ("Q", (3, 2)): EXAMPLE["A"],
            ("K", (2, 2)): EXAMPLE["B_match"], ("V", (2, 3)): EXAMPLE["B_combine"]}


#: example numbers for whole formulas, by their operands' names and shapes: the
#: handout's attention example, and small cases of attention whose weights are
#: spread enough for each o_i to stand apart inside the hull of V
_SIGNATURES = {
    (("Q", (3, 2)), ("K", (3, 2)), ("V", (3, 2))): {
        "Q": [[1, 0], [0, 1], [-1, -1]], "K": [[1, 1], [-1, 1], [0, -1]],
        "V": [[3, 1], [1, 3], [-1, -1]]},
    (("Q", (2, 2)), ("K", (2, 2)), ("V", (2, 2))): {
        "Q": [[1, 0], [0, 1]], "K": [[1, 1], [-1, 1]], "V": [[3, 1], [1, 3]]},
    (("Q", (2, 2)), ("K", (3, 2)), ("V", (3, 2))): {
        "Q": [[1, 0], [0, 1]], "K": [[1, 1], [-1, 1], [0, -1]],
        "V": [[3, 1], [1, 3], [-1, -1]]},
}


def signature_examples(plan) -> dict:
    """Example numbers chosen for the whole formula (see :data:`_SIGNATURES`), by name."""
    ops = tuple((n.seq.name, (n.seq.rows, n.seq.cols)) for n in plan.nodes
                if n.reading == "operand" and n.seq.name != "M")
    return dict(_SIGNATURES.get(ops, {}))


def _lcg(seed: int):
    state = (seed * 2654435761 + 12345) % 2 ** 31
    while True:
        state = (1103515245 * state + 12345) % 2 ** 31
        yield state >> 16


def _good(rows: list) -> bool:
    """No zero point, no two equal points, and in the plane no two on one line through
    the origin and not all on one line."""
    if any(all(v == 0 for v in r) for r in rows):
        return False
    if len({tuple(r) for r in rows}) < len(rows):
        return False
    if len(rows[0]) == 2 and len(rows) <= 4 and any(
            a[0] * b[1] - a[1] * b[0] == 0 for k, a in enumerate(rows) for b in rows[k + 1:]):
        return False
    if len(rows[0]) == 2 and len(rows) >= 3:
        (ax, ay), (bx, by) = rows[0], rows[1]
        if all((bx - ax) * (cy - ay) - (by - ay) * (cx - ax) == 0 for cx, cy in rows[2:]):
            return False
    return True


def _generated(rows: int, cols: int, seed: int, avoid=frozenset()) -> list:
    """Small integers, -1 to 2, from a fixed stream: :func:`_good` rows, none of them a
    row in ``avoid`` (another operand's point, so that no two points coincide)."""
    for attempt in range(200):
        gen = _lcg(seed * 7919 + attempt)
        out = [[(next(gen) % 4) - 1 for _ in range(cols)] for _ in range(rows)]
        if rows <= 4 ** cols and _good(out) and \
                not any(tuple(float(v) for v in r) in avoid for r in out):
            return out
    return [[(i + j) % 3 + 1 for j in range(cols)] for i in range(rows)]


def _is_adjacency(seq) -> bool:
    return seq.rows == seq.cols and seq.letter == "a" and seq.accent in ("hat", "tilde")


def example_values(seq, order: int, avoid=frozenset()) -> list:
    """Example numbers for an operand without values: a list of rows of ints or
    SymPy numbers.

    * an adjacency matrix with self-loops, ``\\tilde{A}`` (a path graph: each node
      linked to the next), or normalised, ``\\hat{A} = D̃^{-1/2} Ã D̃^{-1/2}``;
    * a diagonal operand: 2, 1/2, 3/2, 1, ... on the diagonal;
    * the operands of the handout's worked examples take its numbers, by name and
      shape: A (3 x 2) and B (2 x 3 or 2 x 2); Q (3 x 2), K (2 x 2) and V (2 x 3);
    * anything else: small integers from a fixed generator (``order`` picks the
      stream, so that two operands of one shape differ).

    >>> from symrow.seq import vecseq
    >>> example_values(vecseq(r"\\tilde{A}", 3, 3), 0)
    [[1, 1, 0], [1, 1, 1], [0, 1, 1]]
    """
    n, m = seq.rows, seq.cols
    if _is_adjacency(seq):
        adj = [[1 if abs(i - j) <= 1 else 0 for j in range(m)] for i in range(n)]
        if seq.accent == "tilde":
            return adj
        deg = [sum(r) for r in adj]
        return [[sympy.Integer(adj[i][j]) / sympy.sqrt(deg[i] * deg[j]) for j in range(m)]
                for i in range(n)]
    found = _handout_examples().get((seq.name, (n, m)))
    if found is not None:
        return [list(r) for r in found]
    return _generated(n, m, order + 31 * n + 7 * m, avoid)


def _diagonal_example(size: int) -> list:
    cycle = [sympy.Integer(2), sympy.Rational(1, 2), sympy.Rational(3, 2), sympy.Integer(1)]
    return [[cycle[i % 4] if i == j else 0 for j in range(size)] for i in range(size)]


# -- evaluating a plan --------------------------------------------------------------------

def _operands(plan) -> list:
    return [n for n in plan.nodes if n.reading in ("operand", "identity")]


def evaluate(plan, values: Mapping | None = None, sizes: Mapping | None = None) -> Case:
    """Every value of ``plan`` (concrete sizes), with ``values`` (name -> rows) or the
    operands' own numbers, and example numbers for the others (see the module's doc).

    Raises :class:`~symrow.FigureError` when the plan has general sizes, or when a
    value is not a number (a function left undefined, φ).
    """
    if not plan.concrete:
        raise FigureError("a picture needs concrete sizes and numbers; give sizes (e.g. "
                          "--m 3 --n 3 --d 2) or --values, not --general")
    from ..formula.shapes import canonical_key
    given_values = {canonical_key(k): v for k, v in dict(values or {}).items()}
    cache: dict = {}
    given: dict = {}
    example = False
    order = 0
    chosen = signature_examples(plan)
    for node in _operands(plan):
        seq = node.seq
        key = canonical_key(seq.name)
        if key in given_values:
            matrix = sympy.Matrix(given_values[key])
            if matrix.shape != (seq.rows, seq.cols):
                raise FigureError(f"the values of {seq.name} are {matrix.rows} x {matrix.cols}, "
                                  f"but the formula needs {seq.rows} x {seq.cols}")
        elif node.reading == "identity" or _numeric(seq):
            matrix = sympy.Matrix(node.value(lambda m: cache[id(m)], plan))
        else:
            from ..derive.readings import is_diagonal
            if is_diagonal(node):
                matrix = sympy.Matrix(_diagonal_example(seq.rows))
            elif seq.name in chosen:
                matrix = sympy.Matrix(chosen[seq.name])
            else:
                avoid = {tuple(float(v) for v in row) for q in cache.values()
                         for row in q.tolist()
                         if all(getattr(v, "is_number", False) for v in row)}
                matrix = sympy.Matrix(example_values(seq, order, avoid))
                order += 1
            example = True
            given[seq.name] = matrix
        cache[id(node)] = matrix
    subs = _substitutions(plan, sizes)
    out = {}
    for node in plan.nodes:
        if id(node) not in cache:
            cache[id(node)] = sympy.Matrix(node.value(lambda m: cache[id(m)], plan))
        exact = cache[id(node)]
        if subs:
            exact = exact.xreplace(subs)
            cache[id(node)] = exact
        out[id(node)] = Quantity(node, node.seq, exact, _floats(exact, node))
    return Case(plan, out, example, given)


def _numeric(seq) -> bool:
    values = seq.values
    return values is not None and not any(
        isinstance(v, sympy.Symbol) for v in values)


def _substitutions(plan, sizes=None) -> dict:
    """Size symbols (√d kept symbolic) by their numbers (the plan's, and ``sizes``: a
    backward pass's are its forward pass's), and LayerNorm's ε by 0."""
    from ..derive.readings.layers import EPSILON
    from ..seq import size_symbol
    subs = {EPSILON: sympy.Integer(0)}
    for sym, value in {**dict(sizes or {}), **dict(plan.ties)}.items():
        if isinstance(value, int):
            subs[sym] = sympy.Integer(value)
            subs[size_symbol(str(sym))] = sympy.Integer(value)
    return subs


def _floats(matrix: sympy.Matrix, node) -> list:
    rows = []
    for i in range(matrix.rows):
        row = []
        for j in range(matrix.cols):
            v = matrix[i, j]
            if v == sympy.S.NegativeInfinity:
                row.append(-math.inf)
                continue
            try:
                row.append(float(sympy.N(v, 20)))
            except (TypeError, ValueError):
                what = node.label() if hasattr(node, "label") else "a value"
                raise FigureError(f"{what} is not a number with these values ({v}); a "
                                  f"picture needs every value to be one (a function left "
                                  f"undefined, such as phi, has none)") from None
        rows.append(row)
    return rows


# -- numbers as labels -----------------------------------------------------------------------

def fmt(v: float, digits: int = 2) -> tuple:
    """A number as (LaTeX, Unicode): whole numbers as they are, others to ``digits``
    decimals (trailing zeros kept, so that a column of them lines up); the minus sign
    is U+2212 in Unicode.

    >>> fmt(3.0), fmt(-0.5), fmt(0.4249)
    (('3', '3'), ('-0.50', '−0.50'), ('0.42', '0.42'))
    """
    if v == -math.inf:
        return (r"-\infty", "−∞")
    if abs(v - round(v)) < 1e-9:
        text = str(int(round(v)))
    else:
        text = f"{v:.{digits}f}"
        if text in ("-0." + "0" * digits,):
            text = text[1:]
    return (text, text.replace("-", "−"))


def number_label(v: float, digits: int = 2, size: float = 1.0) -> Label:
    tex, text = fmt(v, digits)
    return Label(tex, text, size=size)


# -- more than two coordinates ------------------------------------------------------------

def check_axes(dims: int, axes, what: str) -> tuple:
    """The two coordinates (from 1) to draw of points with ``dims`` coordinates.

    Two coordinates need no choice; more need one, given as ``axes=(1, 3)``
    (``--axes 1,3``), and a figure never picks them silently.

    >>> check_axes(2, None, "the points of V")
    (1, 2)
    >>> check_axes(3, None, "the points of V")
    Traceback (most recent call last):
    ...
    symrow.errors.FigureError: the points of V have 3 coordinates and a picture shows 2; choose them with --axes 1,2 (axes=(1, 2) in Python), any two of 1 to 3
    """
    if dims < 2:
        raise FigureError(f"{what} have {dims} coordinate and a picture of points in the "
                          f"plane needs 2; nothing to draw for it")
    if axes is None:
        if dims == 2:
            return (1, 2)
        raise FigureError(f"{what} have {dims} coordinates and a picture shows 2; choose them "
                          f"with --axes 1,2 (axes=(1, 2) in Python), any two of 1 to {dims}")
    try:
        a, b = (int(x) for x in axes)
    except (TypeError, ValueError):
        raise FigureError(f"axes= takes two coordinates such as (1, 2); got {axes!r}") from None
    if a == b or not (1 <= a <= dims and 1 <= b <= dims):
        raise FigureError(f"axes {a},{b}: {what} have coordinates 1 to {dims}; choose two "
                          f"different ones")
    return (a, b)


def project(rows: list, axes: tuple) -> list:
    """The points (x, y) of ``rows`` in the coordinates ``axes`` (from 1)."""
    a, b = axes
    return [(r[a - 1], r[b - 1]) for r in rows]
