r"""The summation convention (Einstein's): a repeated index is summed.

Pages in index notation often leave the sums out: ``O^{ib} = A^{ij} V^{jb}`` means
``O^{ib} = \sum_j A^{ij} V^{jb}``.  Under the convention, an index that occurs twice
in one product term and is not free on the left side of the claim is summed over
its range; an index free on the left is never summed, however often a term
writes it (``\delta^i_m A^{ij} (\delta^j_n - A^{in})``).

:func:`summed` rewrites a parsed unit that way: each product term whose indices
repeat is wrapped in sums over them, whose ranges the evaluator infers from the
entries the index runs over (as for ``\sum_j`` written without bounds).  An
index bound by a sum the page writes (``\sum_{j'} A^{ij'} \bar{A}^{ij'}``) is
left alone.  A term in which a summed index occurs more than twice, or in which
the terms of a bracket disagree on how often it occurs, cannot be read under the
convention: :class:`ConventionError` says so.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> from symrow.reader.entries.parse import parse_unit
>>> from symrow.formula.entries import Evaluator
>>> ref = Reference(symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> unit = translate_text(r"a_{ik} b_{jk}", ref)
>>> parse_unit(unit, {})
>>> new, names = summed(unit, {"i", "j"}, ref)
>>> names, Evaluator(ref).value(new, {"i": 1, "j": 2})
(['k'], a_{11}*b_{21} + a_{12}*b_{22})
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import sympy

from ..reader.entries.indices import index_names
from ..reader.entries.parse import sub_units
from ..reader.entries.units import Atom, Unit

__all__ = ["summed", "occurrences", "ConventionError", "free_of"]


class ConventionError(Exception):
    """A term cannot be read under the summation convention."""


_INCONSISTENT = "#inconsistent"


def _atom_counts(atom: Atom, unit: Unit) -> Counter:
    out: Counter = Counter()
    if atom.kind in ("entry", "row", "kronecker") or (atom.kind == "marker" and atom.items):
        for item in atom.items:
            for name in index_names(item):
                out[name] += 1
    elif atom.kind == "index":
        out[atom.name] += 1
    elif atom.kind == "special" and atom.name in ("0", "1") and atom.items:
        # \mathbf{1}_i, an entry of the one-tensor: its index is written once
        for name in index_names(atom.items[0]):
            out[name] += 1
    for cell in sub_units(atom):
        if cell.tree is not None:
            out.update(occurrences(cell.tree, cell))
    return out


def occurrences(tree, unit: Unit) -> Counter:
    """How often each index occurs in a product term (indices bound by a sum the page
    writes are not counted); an index the terms of a bracket disagree on is counted
    under the key ``"#inconsistent"`` too."""
    if isinstance(tree, sympy.Symbol):
        atom = unit.atoms.get(tree.name)
        return _atom_counts(atom, unit) if atom is not None else Counter()
    if isinstance(tree, sympy.Sum):
        body = occurrences(tree.args[0], unit)
        for var, _, _ in tree.args[1:]:
            atom = unit.atoms.get(getattr(var, "name", ""))
            if atom is not None:
                body.pop(atom.name, None)
        return body
    if isinstance(tree, sympy.Add):
        parts = [occurrences(arg, unit) for arg in tree.args]
        out: Counter = Counter()
        names = set().union(*parts)
        for name in names:
            counts = {p.get(name, 0) for p in parts}
            out[name] = max(counts)
            if len(counts) > 1 and name != _INCONSISTENT:
                out[_INCONSISTENT] += 1
                out["#" + name] = 1
        return out
    if isinstance(tree, sympy.Pow):
        base, exponent = tree.args
        out = occurrences(base, unit)
        atom = unit.atoms.get(getattr(exponent, "name", "")) if \
            isinstance(exponent, sympy.Symbol) else None
        if atom is not None:
            out.update(_atom_counts(atom, unit))       # (X)_{ij}: a marker's indices
        elif not exponent.is_Number:
            out.update(occurrences(exponent, unit))
        return out
    out = Counter()
    for arg in tree.args:
        out.update(occurrences(arg, unit))
    return out


def _terms(tree) -> list:
    return list(tree.args) if isinstance(tree, sympy.Add) else [tree]


def _wrap(term, limits: list, names: set, unit: Unit):
    """The sums around the factors of a product that use their indices: from the first
    such factor to the last, so that the order of the factors is kept and a factor
    before or after them (a constant such as 1/√d) stays outside, as a page writes
    ``\\frac{1}{\\sqrt{d}} \\sum_a q_{ia} k_{ja}``."""
    if not isinstance(term, sympy.Mul):
        return sympy.Sum(term, *limits)
    args = list(term.args)
    uses = [bool(set(occurrences(arg, unit)) & names) for arg in args]
    first = uses.index(True)
    last = len(uses) - 1 - uses[::-1].index(True)
    inner = args[first:last + 1]
    body = inner[0] if len(inner) == 1 else sympy.Mul(*inner, evaluate=False)
    parts = args[:first] + [sympy.Sum(body, *limits)] + args[last + 1:]
    return parts[0] if len(parts) == 1 else sympy.Mul(*parts, evaluate=False)


def free_of(unit: Unit) -> set:
    """The indices a unit leaves free under the convention: those its terms write once."""
    out: set = set()
    for term in _terms(unit.tree):
        counts = occurrences(term, unit)
        out |= {name for name, n in counts.items() if n == 1 and not name.startswith("#")}
    return out


#: atoms whose inner units are a bracket's terms (not the cells of a matrix or a cases)
_BRACKETS = ("sub", "call", "derivative", "gradient", "jacobian", "max", "min", "isoftmax")


def _close_brackets(term, unit: Unit, free: set | None, ref, atoms: dict, names: list) -> bool:
    """Sum, inside a bracket of the product ``term``, the indices that one of its terms
    repeats and nothing else in ``term`` writes: ``\\frac{\\partial}{\\partial x_{pq}}
    [x_{ik} c_{kj} + \\mathbf{1}_i b_j]`` sums k in its first term only, as the convention
    reads each term of a sum on its own.  (An index the bracket's terms write once each
    and the product writes outside, ``a_k (b_k + c_k)``, is the product's, summed
    there.)  Rewrites ``atoms`` in place; returns whether anything was summed."""
    done = False
    for sym in sorted(term.free_symbols, key=lambda s: s.name):
        atom = atoms.get(sym.name)
        if atom is None or atom.kind not in _BRACKETS or not atom.cells:
            continue
        rest = occurrences(term.subs(sym, sympy.Integer(1)), unit)
        outside = {name for name, n in rest.items() if n and not name.startswith("#")}
        rows = []
        for row in atom.cells:
            cells = []
            for cell in row:
                if cell is not None and cell.tree is not None:
                    new, inner = summed(cell, set(free or ()) | outside, ref)
                    if inner:
                        done = True
                        names.extend(n for n in inner if n not in names)
                    cell = new
                cells.append(cell)
            rows.append(tuple(cells))
        if done:
            atoms[sym.name] = dataclasses.replace(atom, cells=tuple(rows))
    return done


def summed(unit: Unit, free: set | None, ref) -> tuple[Unit, list]:
    """``unit`` with each product term summed over its repeated indices that are not in
    ``free`` (the free indices of the claim's left side; None for the left side itself,
    where every repeated index is summed); and the names summed.  The unit itself is
    returned when nothing is summed."""
    sizes = getattr(ref, "sizes", {})
    atoms = dict(unit.atoms)
    names: list = []
    terms = []
    changed = False
    for term in _terms(unit.tree):
        if _close_brackets(term, unit, free, ref, atoms, names):
            unit = dataclasses.replace(unit, atoms=dict(atoms))
            changed = True
        counts = occurrences(term, unit)
        repeated = sorted(name for name, n in counts.items() if n >= 2 and
                          not name.startswith("#") and name not in sizes and
                          (free is None or name not in free))
        if not repeated:
            terms.append(term)
            continue
        for name in repeated:
            if "#" + name in counts:
                raise ConventionError(
                    f"the index {name} is repeated, but not in every term of a bracket: "
                    f"cannot tell what the summation convention sums here")
            if counts[name] > 2:
                raise ConventionError(
                    f"the index {name} occurs {counts[name]} times in one term: under the "
                    f"summation convention an index is summed when it occurs twice")
        limits = []
        for name in repeated:
            bound, auto = f"Σ{name}", f"Σ{name}#"
            atoms[bound] = Atom("bound", name)
            atoms[auto] = Atom("auto", name)
            limits.append((sympy.Symbol(bound), sympy.Integer(1), sympy.Symbol(auto)))
            if name not in names:
                names.append(name)
        terms.append(_wrap(term, limits, set(repeated), unit))
        changed = True
    if not changed:
        return unit, []
    tree = terms[0] if len(terms) == 1 else sympy.Add(*terms, evaluate=False)
    return dataclasses.replace(unit, atoms=atoms, tree=tree), names
