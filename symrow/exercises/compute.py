r"""The numbers of a variant, and of its mutations, computed by symrow's own engine.

Every value here comes from :func:`symrow.explain`: a list of definitions
(formula trees) is planned and evaluated with the variant's numbers.  The
grader checks a student's page against derivations made the same way
(:func:`derivation`), so what the worked solution shows, what the key says
and what the grader accepts are one computation.

>>> import sympy
>>> from symrow.exercises.spec import preset
>>> spec = preset("combine", a=(2, 2), b=(2, 2))
>>> values = truth(spec, {"A": sympy.Matrix([[1, 2], [3, 4]]), "B": sympy.Matrix([[0, 1], [1, 0]])})
>>> values["C"]
Matrix([
[2, 1],
[4, 3]])
>>> from symrow.exercises.catalogue import load
>>> [(c.code, c.value(values)) for c in mutations(spec, spec.steps[0], load(), values)][:1]
[('COMBINE-AS-MATCH', Matrix([
[2, 1],
[4, 3]]))]
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

import sympy

from ..errors import SymrowError
from ..formula import expr as E

__all__ = ["truth", "evaluate", "derivation", "mutations", "Candidate", "fresh_letters",
           "names_in", "canonical", "computing"]


def canonical(name: str) -> str:
    """A name as the formula reader keys it (``F_{1}`` -> ``F_1``)."""
    from ..reader.notation import parse_name
    return parse_name(name).canonical


def computing(expr: E.Expr, ones: str):
    """``expr``, made a definition that computes something: a bare name ``X`` (a mistake
    that leaves a step out) becomes ``X ⊙ 1``, ``ones`` a matrix of ones of X's shape.
    Returns (expr, the name of the ones matrix or None)."""
    if isinstance(expr, E.Name):
        return E.Hadamard(expr, E.Name(ones)), ones
    return expr, None


def names_in(expr: E.Expr) -> list[str]:
    out: list[str] = []
    for node in E.walk(expr):
        if isinstance(node, E.Name) and node.name not in out:
            out.append(node.name)
    return out


def fresh_letters(spec, count: int = 2) -> list[str]:
    """Capital letters that no name of ``spec`` uses (for the grader's own names)."""
    used = {n for n in list(spec.shapes) + spec.names + [g[0] for g in spec.computed_given]}
    heads = {n.lstrip("\\").split("_")[0].split("{")[-1][:1] for n in used}
    pool = [c for c in "TUNFGLEDCBAKZYXWVRQPOMIH" if c not in heads and c not in "JRM"]
    return pool[:count]


def derivation(definitions, shapes: Mapping, values: Mapping, causal: bool = False):
    """``symrow.explain`` of ``definitions`` (``[(name, expr), ...]``), the operands given
    their ``shapes`` and, where ``values`` has them, their numbers."""
    from ..derive.explain import explain
    defined = [name for name, _ in definitions]
    used: list[str] = []
    for _name, expr in definitions:
        for n in names_in(expr):
            if n not in defined and n not in used and not (causal and n == "M"):
                used.append(n)
    formula = E.Formula(definitions=tuple(definitions), written=definitions[-1][0])
    given = {n: values[n] for n in used if n in values}
    return explain(formula, {n: tuple(shapes[n]) for n in used}, values=given or None,
                   causal=causal and any("M" in names_in(e) for _n, e in definitions))


def evaluate(definitions, shapes: Mapping, values: Mapping, causal: bool = False) -> dict:
    """The value of every definition, as SymPy matrices."""
    d = derivation(definitions, shapes, values, causal)
    return {name: sympy.Matrix(d.quantities[name]) for name, _ in definitions}


def truth(spec, operands: Mapping) -> dict:
    """Every matrix of a variant: its operands, what the sheet gives besides them (a
    backward pass's forward values), the helpers, and the step's correct values."""
    values = {k: sympy.Matrix(v) for k, v in operands.items()}
    shapes = dict(spec.shapes)
    if spec.computed_given:
        values.update(evaluate([(n, e) for n, e, _r in spec.computed_given], shapes, values,
                               spec.causal))
    for name, make in spec.helpers.items():
        values[name] = sympy.Matrix(make(values))
    values.update(evaluate([(s.name, s.expr) for s in spec.steps], shapes, values, spec.causal))
    return values


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A mutated step: the formula a mistake makes of it, and the operands it needs besides
    the exercise's own (a shortened sum's truncated factors)."""

    code: str
    expr: E.Expr
    extra: tuple = ()        # ((name, function of the values -> Matrix), ...)

    def value(self, values: Mapping, shapes: Mapping | None = None, causal: bool = False):
        """The candidate's numbers, or None where its shapes do not fit together."""
        full = dict(values)
        more_shapes = {}
        for name, make in self.extra:
            full[name] = make(values)
            more_shapes[name] = full[name].shape
        all_shapes = {k: v.shape for k, v in full.items()}
        all_shapes.update(shapes or {})
        all_shapes.update(more_shapes)
        if isinstance(self.expr, E.Name):
            found = full.get(self.expr.name)
            return None if found is None else sympy.Matrix(found)
        try:
            return evaluate([("T", self.expr)], all_shapes, full, causal)["T"]
        except SymrowError:
            return None


def _factor(node, side: str, fresh):
    """A factor of a product, with the inner index shortened by one: (new node, extra)."""
    transposed = isinstance(node, E.Transpose)
    inner = node.arg if transposed else node
    if not isinstance(inner, E.Name):
        return None
    name = inner.name
    new = fresh()
    # the inner index of L (its columns) or of R (its rows); a transposed factor swaps them
    cut_columns = (side == "left") != transposed

    def make(values, name=name, cut_columns=cut_columns):
        m = sympy.Matrix(values[name])
        return m[:, :-1] if cut_columns else m[:-1, :]
    rebuilt = E.Transpose(E.Name(new)) if transposed else E.Name(new)
    return rebuilt, (new, make)


def _sum_bound(step, values, fresh) -> list:
    out = []
    for node in E.walk(step.expr):
        if not isinstance(node, E.Product):
            continue
        left = _factor(node.left, "left", fresh)
        right = _factor(node.right, "right", fresh)
        if left is None or right is None:
            continue
        lname = left[1][0]
        inner_values = left[1][1](values) if values is not None else None
        if inner_values is not None and inner_values.cols < 1:
            continue
        replaced = _replace(step.expr, node, E.Product(left[0], right[0]))
        out.append((replaced, (left[1], right[1])))
        del lname
    return out


def _replace(expr, old, new):
    if expr is old:
        return new
    changes = {}
    for field in dataclasses.fields(expr):
        if not field.compare:
            continue
        value = getattr(expr, field.name)
        if isinstance(value, E.Expr):
            changes[field.name] = _replace(value, old, new)
        elif isinstance(value, tuple) and value and all(isinstance(v, E.Expr) for v in value):
            changes[field.name] = tuple(_replace(v, old, new) for v in value)
    return dataclasses.replace(expr, **changes) if changes else expr


def mutations(spec, step, catalogue, values: Mapping | None = None) -> list:
    """The candidates the catalogue makes of ``step``, in the catalogue's order."""
    counter = iter(range(1, 100))
    letter = fresh_letters(spec, 3)[2] if len(fresh_letters(spec, 3)) > 2 else "F"
    # the names of a shortened sum's factors carry the step's place, so that the
    # candidates of several steps checked on one page never share a name
    place = next((k for k, s in enumerate(spec.steps) if s.name == step.name), 0) + 1

    def fresh():
        return canonical(f"{letter}_{{{place * 100 + next(counter)}}}")
    out = []
    for mistake in catalogue:
        if not mistake.applies_to(step):
            continue
        if mistake.rewrite is not None:
            for expr in mistake.rewrite.apply(step.expr, protected=spec.helpers):
                out.append(Candidate(mistake.code, expr))
        elif mistake.builtin == "sum-bound":
            for expr, extra in _sum_bound(step, values, fresh):
                inner = [make(values) for _n, make in extra] if values is not None else None
                if inner is not None and any(0 in m.shape for m in inner):
                    continue
                out.append(Candidate(mistake.code, expr, extra))
    return out
