r"""Mistakes as rewrites of a step's formula: a pattern, and what a student writes instead.

A rewrite is two formulas in LaTeX, read by symrow's formula reader: a
**pattern** and its **replacement**.  Its *variables* (by default ``A`` and
``B``) stand for any part of a formula that is not written transposed (a
transposed part is matched by ``A^T``); every other name stands for itself
(``M``, the causal mask; ``J``, a row of ones; ``R``, a ReLU mask).  A size
in a scaling (``\sqrt{d}``) matches any number or size there, and the
replacement uses what it matched.

Each place where the pattern matches a step's formula gives one mutated
formula; the engine evaluates it with the variant's numbers.

>>> from symrow.formula.expr import text
>>> from symrow.exercises.spec import preset
>>> attention = preset("attention", m=2, n=3, d=2)
>>> drop = Rewrite.read(r"A/\sqrt{d}", "A")
>>> [text(e) for e in drop.apply(attention.steps[1].expr)]
['softmax(S)']
>>> double = Rewrite.read(r"A/\sqrt{d}", "A/d")
>>> [text(e) for e in double.apply(attention.steps[1].expr)]
['softmax(S/2)']
>>> [text(e) for e in Rewrite.read("A B^T", "A B").apply(attention.steps[0].expr)]
['QK']
>>> Rewrite.read("A B", "A B^T").apply(attention.steps[0].expr)   # QK^T is not A B
[]
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

import sympy

from ..errors import OptionError, SymrowError
from ..formula import expr as E
from ..formula.read import read_latex

__all__ = ["Rewrite"]


def _read(text: str, what: str) -> E.Expr:
    try:
        return read_latex(text).definitions[-1][1]
    except SymrowError as err:
        raise OptionError(f"the {what} {text!r} is not a formula symrow reads: {err}") from None


def _compared(node) -> list:
    return [f for f in dataclasses.fields(node) if f.compare]


@dataclasses.dataclass(frozen=True)
class Rewrite:
    """A pattern, its replacement, and the names in them that are variables."""

    pattern: E.Expr
    replace: E.Expr
    variables: frozenset = frozenset({"A", "B"})
    whole: bool = False          # match the whole formula of a step only

    @classmethod
    def read(cls, pattern: str, replace: str, variables=("A", "B"), whole: bool = False):
        out = cls(_read(pattern, "pattern"), _read(replace, "replacement"),
                  frozenset(variables), whole)
        free = {n.name for n in E.walk(out.replace) if isinstance(n, E.Name)} & out.variables
        bound = {n.name for n in E.walk(out.pattern) if isinstance(n, E.Name)}
        if free - bound:
            raise OptionError(f"the replacement {replace!r} uses {', '.join(sorted(free - bound))}"
                              f", which the pattern {pattern!r} does not bind")
        return out

    # -- matching ----------------------------------------------------------------------------
    def _match(self, pattern, target, bind: dict, protected=frozenset()) -> bool:
        if isinstance(pattern, E.Name) and pattern.name in self.variables:
            if isinstance(target, E.Transpose):
                return False
            if isinstance(target, E.Name) and target.name in protected:
                return False
            if pattern.name in bind:
                return bind[pattern.name] == target
            bind[pattern.name] = target
            return True
        if type(pattern) is not type(target):
            return False
        for field in _compared(pattern):
            p, t = getattr(pattern, field.name), getattr(target, field.name)
            if isinstance(p, E.Expr):
                if not self._match(p, t, bind, protected):
                    return False
            elif isinstance(p, tuple) and p and all(isinstance(v, E.Expr) for v in p):
                if len(p) != len(t) or not all(self._match(a, b, bind, protected)
                                                 for a, b in zip(p, t)):
                    return False
            elif isinstance(p, sympy.Basic) or isinstance(t, sympy.Basic):
                if not self._scalar(sympy.sympify(p), sympy.sympify(t), bind):
                    return False
            elif p != t:
                return False
        return True

    @staticmethod
    def _scalar(p, t, bind: dict) -> bool:
        if not p.free_symbols:
            return sympy.simplify(p - t) == 0
        if t == 1 and p != 1:
            return False
        wilds = {s: sympy.Wild("w_" + s.name) for s in p.free_symbols}
        found = t.match(p.xreplace(wilds))
        if found is None:
            return False
        for s, w in wilds.items():
            value = found.get(w)
            if value is None:
                return False
            key = "$" + s.name
            if key in bind and bind[key] != value:
                return False
            bind[key] = value
        return True

    # -- building ----------------------------------------------------------------------------
    def _instance(self, node, bind: dict):
        if isinstance(node, E.Name) and node.name in self.variables:
            return bind[node.name]
        changes = {}
        for field in _compared(node):
            value = getattr(node, field.name)
            if isinstance(value, E.Expr):
                changes[field.name] = self._instance(value, bind)
            elif isinstance(value, tuple) and value and all(isinstance(v, E.Expr) for v in value):
                changes[field.name] = tuple(self._instance(v, bind) for v in value)
            elif isinstance(value, sympy.Basic) and value.free_symbols:
                changes[field.name] = value.subs({s: bind["$" + s.name] for s in
                                                  value.free_symbols if "$" + s.name in bind})
        return dataclasses.replace(node, **changes) if changes else node

    def _sites(self, expr) -> Iterator:
        """(node, a function that rebuilds ``expr`` with that node replaced)."""
        yield expr, (lambda new: new)
        for field in _compared(expr):
            value = getattr(expr, field.name)
            if isinstance(value, E.Expr):
                for node, put in self._sites(value):
                    yield node, (lambda new, put=put, f=field.name:
                                 dataclasses.replace(expr, **{f: put(new)}))
            elif isinstance(value, tuple) and value and all(isinstance(v, E.Expr) for v in value):
                for k, item in enumerate(value):
                    for node, put in self._sites(item):
                        yield node, (lambda new, put=put, f=field.name, k=k, value=value:
                                     dataclasses.replace(expr, **{f: value[:k] + (put(new),)
                                                                  + value[k + 1:]}))

    def apply(self, expr: E.Expr, protected=()) -> list:
        """Every formula made by rewriting one place where the pattern matches ``expr``;
        a variable never stands for a name in ``protected`` (the helpers, such as a row
        of ones, which no student writes)."""
        protected = frozenset(protected)
        out = []
        sites = [(expr, lambda new: new)] if self.whole else self._sites(expr)
        for node, put in sites:
            bind: dict = {}
            if self._match(self.pattern, node, bind, protected):
                new = put(self._instance(self.replace, bind))
                if new != expr and new not in out:
                    out.append(new)
        return out
