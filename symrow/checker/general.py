"""General sizes: a derivation in m, ℓ, n, d is checked at several concrete sizes.

A hand derivation written with general sizes (``\\sum_{j=1}^{\\ell}``,
``a_{i1} b_1 + \\cdots + a_{i\\ell} b_\\ell``, matrices with ⋯ ⋮ ⋱) is read
against *instances* of the general derivation: the same formula with every
size a number.  A step holds when it holds in every instance.  The instances
are chosen so that a confusion shows:

* in every instance all sizes are different (ℓ ≠ n, so writing one for the
  other cannot go unnoticed);
* besides a base instance, each size is varied on its own (a step that only
  holds for d = 3, or that uses a number where a size belongs, fails in one
  of them).

>>> import symrow
>>> from symrow.checker.general import size_names, size_plan
>>> d = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
>>> size_names(d)
['m', 'ell', 'n']
>>> size_plan(size_names(d))
[{'m': 2, 'ell': 3, 'n': 5}, {'m': 4, 'ell': 3, 'n': 5}, {'m': 2, 'ell': 4, 'n': 5}, {'m': 2, 'ell': 3, 'n': 6}]

A concrete derivation comes from ``derivation.instantiate(sizes)``: the
same formula and options at those sizes.
"""

from __future__ import annotations

import sympy

from ..errors import OptionError, SymrowError

__all__ = ["size_names", "size_plan", "instances", "instantiate", "is_general"]

#: base values of the sizes, in the order the derivation names them; gaps between
#: them leave room to vary each size on its own while keeping all of them distinct
BASE_VALUES = (2, 3, 5, 7, 8, 9)


def is_general(derivation) -> bool:
    return not all(seq.concrete for seq in derivation.operands.values())


def size_names(derivation) -> list[str]:
    """The general sizes of a derivation, in the order its operands use them."""
    names: list[str] = []
    for seq in derivation.operands.values():
        for size in (seq.rows, seq.cols):
            if isinstance(size, sympy.Symbol) and size.name not in names:
                names.append(size.name)
    for value in derivation.options.values():
        if isinstance(value, sympy.Symbol) and value.name not in names:
            names.append(value.name)
    return names


def _candidates(base: dict, name: str) -> list[int]:
    others = {v for k, v in base.items() if k != name}
    pool = [v for v in range(2, 12) if v not in others and v != base[name]]
    return sorted(pool, key=lambda v: (abs(v - base[name]), -v))


def size_plan(names: list[str]) -> list[dict]:
    """The sizes to check at: a base with all sizes distinct, then each size varied."""
    base = {name: BASE_VALUES[k] for k, name in enumerate(names)}
    plan = [base]
    for name in names:
        plan.append({**base, name: _candidates(base, name)[0]})
    return plan


def instances(derivation, attempts: int = 4) -> list[tuple[dict, object]]:
    """(sizes, concrete derivation) for every size assignment of :func:`size_plan`.

    A variant that the derivation refuses (causal attention needs m <= n) is
    replaced by the next candidate value.
    """
    names = size_names(derivation)
    if not names:
        raise OptionError("this derivation has no general sizes")
    base = {name: BASE_VALUES[k] for k, name in enumerate(names)}
    out = [(base, instantiate(derivation, base))]
    for name in names:
        for value in _candidates(base, name)[:attempts]:
            sizes = {**base, name: value}
            try:
                out.append((sizes, instantiate(derivation, sizes)))
                break
            except SymrowError:
                continue    # e.g. causal attention refuses m > n: try the next value
    return out


def instantiate(derivation, sizes: dict):
    """The derivation with every general size replaced by its value in ``sizes``."""
    method = getattr(derivation, "instantiate", None)
    if not callable(method):
        raise OptionError(f"cannot check against a general {derivation.kind} derivation: it "
                          f"cannot be instantiated at concrete sizes")
    import inspect
    params = inspect.signature(method).parameters.values()
    if any(p.kind is p.VAR_KEYWORD or p.name == "scale" for p in params):
        try:  # numbers for sqrt(d): the same values, nothing for the reference to substitute
            return method(sizes, scale="number")
        except SymrowError:
            pass  # a scale by a size the formula does not name: keep it symbolic
    return method(sizes)
