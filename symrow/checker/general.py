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

A concrete derivation comes from ``derivation.instantiate(sizes)`` when the
derivation has that method, and from :func:`rebuild` otherwise.
"""

from __future__ import annotations

import sympy

from ..errors import OptionError, SymrowError

__all__ = ["size_names", "size_plan", "instances", "instantiate", "rebuild", "is_general"]

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
    if callable(method):
        return method(sizes)
    return rebuild(derivation, sizes)


def rebuild(derivation, sizes: dict):
    """Fallback for derivations without ``instantiate``: build combine, match or
    attention again from the kind, the options and the operands' names.

    (Delete this when every derivation can instantiate itself.)
    """
    import symrow

    def value(size):
        if isinstance(size, sympy.Symbol):
            return sizes[size.name]
        return size

    ops = list(derivation.operands.values())
    if derivation.kind in ("combine", "match"):
        a, b = ops[:2]
        A = symrow.vecseq(a.name, value(a.rows), value(a.cols))
        B = symrow.vecseq(b.name, value(b.rows), value(b.cols))
        make = symrow.combine if derivation.kind == "combine" else symrow.match
        return make(A, B, name=derivation.options.get("name", "C"))
    if derivation.kind == "attention":
        opts = dict(derivation.options)
        first = {seq.name: seq for seq in ops}
        q = first.get("Q") or first.get("Q^(1)") or first.get("X")
        k = first.get("K") or first.get("K^(1)") or first.get("Y") or q
        m = value(q.rows)
        n = value(k.rows)
        d = sizes.get("d")
        if d is None:
            d = value(opts.get("d"))
        heads = opts.get("heads", 1)
        projections = opts.get("projections", False)
        wide = projections or heads > 1
        return symrow.attention(m, n, d, d_v=value(opts.get("d_v")),
                                causal=opts.get("causal", False), heads=heads,
                                projections=projections,
                                d_model=value(opts.get("d_model")) if wide else None,
                                cross=opts.get("cross") if projections else None,
                                # the number for sqrt(d): the same values, and no size
                                # symbol for the reference to substitute
                                scale="number")
    raise OptionError(f"cannot check against a general {derivation.kind} derivation: it "
                      f"cannot be instantiated at concrete sizes")
