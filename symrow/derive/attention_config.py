"""Options of :func:`symrow.attention`: checked, resolved and named before any work.

Everything a user can get wrong is refused here, with a :class:`SymrowError`
subclass, before a single step is built: sizes (:class:`SizeError`,
:class:`LimitError`), options and their combinations (:class:`OptionError`),
a causal mask that would leave a query without keys (:class:`ShapeError`),
and expansions past ``max_terms`` (:class:`LimitError`).
"""

from __future__ import annotations

import dataclasses

import sympy

from ..errors import LimitError, OptionError, ShapeError, SizeError
from ..limits import get_limits
from ..seq import VecSeq, _check_size, size_symbol, vecseq

__all__ = ["Config", "configure", "Seqs", "sequences", "count_terms", "OPTIONS", "SCALES"]

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

    @property
    def offset(self):
        """``n - m``: query i sees the keys j <= i + (n - m) under a causal mask."""
        return self.n - self.m

    def visible(self, i: int) -> int:
        """How many keys query ``i`` (1-based, concrete) combines."""
        if not self.causal:
            return self.n
        return i + self.n - self.m

    @property
    def scale_value(self):
        """What the scores are divided by: sqrt(d) with d a symbol, or its number."""
        if self.scale == "number":
            return sympy.sqrt(self.d)
        return sympy.sqrt(self.d if isinstance(self.d, sympy.Symbol) else size_symbol("d"))

    def suffix(self, h: int) -> str:
        """The head index a name carries: ``""`` for one head, ``"^(h)"`` for several."""
        return "" if self.heads == 1 else f"^({h})"


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
    max_terms = limits.max_terms if max_terms is None else max_terms
    if heads > max_dim:
        raise LimitError(f"heads is {heads}, past the limit of {max_dim}; raise it with "
                         f"symrow.limits(max_dim=...) or max_dim=", limit="max_dim")

    sizes = {"m": _check_size(m, "m (the number of queries)", max_dim),
             "n": _check_size(n, "n (the number of keys and values)", max_dim),
             "d": _check_size(d, "d (the dimension of queries and keys)", max_dim)}
    sizes["d_v"] = sizes["d"] if d_v is None else _check_size(
        d_v, "d_v (the dimension of values)", max_dim)
    sizes["d_model"] = sizes["d"] if d_model is None else _check_size(
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

    cfg = Config(causal=causal, heads=heads, projections=projections, cross=cross,
                 scale=scale, max_dim=max_dim, **sizes)
    if concrete:
        terms = count_terms(cfg)
        if terms > max_terms:
            raise LimitError(
                f"the full expansion would write out {terms:,} scalar products, past the "
                f"limit of {max_terms:,}; raise it with symrow.limits(max_terms=...) or "
                f"max_terms=, or choose smaller sizes", limit="max_terms")
    return cfg


def count_terms(cfg: Config) -> int:
    """Scalar products the concrete derivation writes out (checked against ``max_terms``).

    Per head: ``m*n*d`` for the scores and, for each of the ``m*d_v`` output
    entries, ``c*(c+1)*d`` in its expansion (c = the keys its query sees,
    n without a mask); with projections also the ``(m + 2n) d_model``-wide
    combines that make Q, K and V; with several heads the output projection.
    """
    m, n, d, d_v, D = cfg.m, cfg.n, cfg.d, cfg.d_v, cfg.d_model
    per_head = m * n * d + d_v * d * sum(c * (c + 1) for c in map(cfg.visible, range(1, m + 1)))
    if cfg.projections:
        per_head += m * D * d + n * D * d + n * D * d_v
    total = cfg.heads * per_head
    if cfg.heads > 1:
        total += m * cfg.heads * d_v * D
    return total


@dataclasses.dataclass(frozen=True)
class Seqs:
    """The vector sequences of one head (and the shared inputs)."""

    Q: VecSeq
    K: VecSeq
    V: VecSeq
    S: VecSeq
    P: VecSeq
    O: VecSeq
    X: VecSeq | None = None
    Y: VecSeq | None = None
    W_Q: VecSeq | None = None
    W_K: VecSeq | None = None
    W_V: VecSeq | None = None
    W_O: VecSeq | None = None


def sequences(cfg: Config, h: int, X: VecSeq | None = None,
              Y: VecSeq | None = None) -> Seqs:
    """Head ``h``'s sequences: ``Q``, ``K``, ``V``, ... or ``Q^(h)``, ``K^(h)``, ..."""
    m, n, d, d_v, D = cfg.m, cfg.n, cfg.d, cfg.d_v, cfg.d_model
    sfx, lim = cfg.suffix(h), cfg.max_dim

    def seq(name, rows, cols):
        return vecseq(name + sfx, rows, cols, max_dim=lim)

    extra = {}
    if cfg.projections:
        extra = dict(X=X, Y=Y, W_Q=seq("W_Q", D, d), W_K=seq("W_K", D, d), W_V=seq("W_V", D, d_v))
    if cfg.heads > 1:
        extra["W_O"] = seq("W_O", d_v, D)
    return Seqs(Q=seq("Q", m, d), K=seq("K", n, d), V=seq("V", n, d_v), S=seq("S", m, n),
                P=seq("P", m, n), O=seq("O", m, d_v), **extra)
