"""Options of :func:`symrow.attention`: checked, resolved and named before any work.

Everything a user can get wrong is refused here, with a :class:`SymrowError`
subclass, before a single step is built: sizes (:class:`SizeError`,
:class:`LimitError`), options and their combinations (:class:`OptionError`),
and a causal mask that would leave a query without keys (:class:`ShapeError`).
The planner then refuses expansions past ``max_terms``.
"""

from __future__ import annotations

import dataclasses

import sympy

from ..errors import LimitError, OptionError, ShapeError, SizeError
from ..limits import get_limits
from ..seq import check_size

__all__ = ["Config", "configure", "OPTIONS", "SCALES"]

#: the keyword options of :func:`symrow.attention`
OPTIONS = ("d_v", "causal", "heads", "projections", "d_model", "cross", "scale",
           "max_dim", "max_terms")
#: values of ``scale=``
SCALES = ("symbolic", "number")


@dataclasses.dataclass(frozen=True)
class Config:
    """The resolved options of one attention derivation."""

    m: int | sympy.Symbol
    n: int | sympy.Symbol
    d: int | sympy.Symbol
    d_v: int | sympy.Symbol
    d_model: int | sympy.Symbol
    causal: bool
    heads: int
    projections: bool
    cross: bool
    scale: str
    max_dim: int

    @property
    def concrete(self) -> bool:
        return isinstance(self.m, int)


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise OptionError(f"{name}= must be True or False; got {value!r}")
    return value


def configure(m, n, d, *, d_v=None, causal=False, heads=1, projections=False, d_model=None,
              cross=None, scale="symbolic", max_dim=None, max_terms=None, **unknown) -> Config:
    """Check every option and size; raise before any work (see the module doc)."""
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(sorted(unknown))}; "
                          f"attention takes {', '.join(OPTIONS)}")
    causal = _flag(causal, "causal")
    projections = _flag(projections, "projections")
    if scale not in SCALES:
        raise OptionError(f"scale= must be one of {', '.join(map(repr, SCALES))}; got {scale!r}")
    if isinstance(heads, bool) or not isinstance(heads, int) or heads < 1:
        raise OptionError(f"heads= must be a positive integer; got {heads!r}")
    limits = get_limits()
    max_dim = limits.max_dim if max_dim is None else max_dim
    if heads > max_dim:
        raise LimitError(f"heads is {heads}, past the limit of {max_dim}; raise it with "
                         f"symrow.limits(max_dim=...) or max_dim=", limit="max_dim")

    sizes = {"m": check_size(m, "m (the number of queries)", max_dim),
             "n": check_size(n, "n (the number of keys and values)", max_dim),
             "d": check_size(d, "d (the dimension of queries and keys)", max_dim)}
    sizes["d_v"] = sizes["d"] if d_v is None else check_size(
        d_v, "d_v (the dimension of values)", max_dim)
    sizes["d_model"] = sizes["d"] if d_model is None else check_size(
        d_model, "d_model (the width of the inputs and of the output)", max_dim)
    kinds = {name: isinstance(v, int) for name, v in sizes.items()}
    if len(set(kinds.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        raise SizeError(f"attention mixes concrete and general sizes ({shown}); give all "
                        f"sizes as integers, or all as symbols such as 'm', 'n', 'd'")
    concrete = kinds["m"]

    if d_model is not None and not projections and heads == 1:
        raise OptionError("d_model= is the width of the inputs X (projections=True) or of "
                          "the multi-head output (heads > 1); with neither it has no use")
    if cross is not None and not projections:
        raise OptionError("cross= says where K and V are projected from, so it needs "
                          "projections=True; without projections Q, K and V are given "
                          "directly and m may differ from n")
    if cross is not None:
        cross = _flag(cross, "cross")
    if projections and sizes["m"] != sizes["n"] and cross is False:
        raise OptionError(f"with projections and m != n ({sizes['m']} queries, {sizes['n']} "
                          f"keys), K and V must come from a second sequence: "
                          f"use cross=True (or leave cross unset)")
    cross = bool(projections and (cross or sizes["m"] != sizes["n"]))
    if scale == "number" and not concrete:
        raise OptionError("scale='number' substitutes the number for sqrt(d), so it needs "
                          "a concrete d; with general sizes sqrt(d) stays symbolic")
    if causal and concrete and sizes["m"] > sizes["n"]:
        blind = sizes["m"] - sizes["n"]
        who, its = ("query 1", "its") if blind == 1 else (f"queries 1 to {blind}", "their")
        raise ShapeError(
            f"a causal mask lets query i see the keys j <= i + (n - m); with m = {sizes['m']} "
            f"queries and n = {sizes['n']} keys, {who} would see no key at all and {its} "
            f"softmax would be 0/0. Use m <= n")

    return Config(causal=causal, heads=heads, projections=projections, cross=cross,
                  scale=scale, max_dim=max_dim, **sizes)
