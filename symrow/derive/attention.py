"""Attention read as match, then distribution (配分), then combine.

``O = softmax(QK^T / sqrt(d)) V`` is derived in four stages, each a reading
from the reference article:

1. **match** (照合): ``S = QK^T``; row i of S holds the inner products of
   the query point q_i with every key point, ``s_ij = q_i . k_j``;
2. **scale**: divide by ``sqrt(d)``;
3. **distribution** (配分): ``P = softmax`` by rows; each row p_i is
   non-negative and sums to 1;
4. **combine** (結合): ``O = PV``; ``o_i = sum_j p_ij v_j``, a weighted
   average of the value points;

and finally the **full expansion**: every o_i and o_il in the entries of
Q, K and V alone.

>>> import symrow
>>> d = symrow.attention(2, 3, 2)
>>> d
<Derivation attention: Q 2x2, K 3x2, V 3x2; 23 steps>
>>> sorted(d.quantities)
['K', 'O', 'P', 'Q', 'S', 'V']
>>> d.result.shape
(2, 2)
>>> "\\\\operatorname{softmax}" in d.to_latex()
True
"""

from __future__ import annotations

import sympy

from ..seq import vecseq
from ..steps import Derivation
from .attention_config import Config, Seqs, configure, sequences
from .attention_steps import Builder

__all__ = ["attention", "attention_values"]


def attention(m, n, d, *, d_v=None, causal=False, heads=1, projections=False, d_model=None,
              cross=None, scale="symbolic", max_dim=None, max_terms=None,
              **unknown) -> Derivation:
    """Derive ``O = softmax(QK^T / sqrt(d)) V`` as match, distribution, combine.

    Sizes: ``m`` queries, ``n`` keys and values, ``d`` the dimension of
    queries and keys.  Give them as positive ints (**concrete**: every entry
    is written out, terms in index order) or as size names such as ``"m"``
    (**general**: ``1, 2, ..., n`` with ⋯ ⋮ ⋱).  Q is m x d, K is n x d and
    V is n x d_v; their entries are ``q_{it}``, ``k_{jt}``, ``v_{jl}``.

    Options (all checked before any work; a bad one raises a
    :class:`~symrow.SymrowError` subclass):

    * ``d_v``: the dimension of the values (default ``d``).
    * ``causal``: add the causal mask M (0 where query i may look, −∞
      elsewhere) before the softmax.  **Rule:** query i sees the keys
      ``j <= i + (n - m)``: with m = n that is keys 1..i; with fewer queries
      than keys the queries are taken as the *last* m positions, so the last
      query sees every key.  m > n would leave queries with no key at all,
      and is a :class:`~symrow.ShapeError`.
    * ``projections``: start from inputs: ``Q = XW_Q``, ``K = XW_K``,
      ``V = XW_V``, each derived as a combine; X is m x d_model.
    * ``cross``: with projections, take K and V from a second sequence
      Y (n x d_model): cross-attention.  Unset, it follows ``m != n``.
    * ``d_model``: the width of X (and Y), and of the multi-head output
      (default ``d``).
    * ``heads``: with h > 1 heads, every head has its own ``Q^(h)``,
      ``K^(h)``, ``V^(h)`` (entries ``q^{(h)}_{it}``; with projections
      ``W_Q^(h)`` …); head 1 is derived in full, then the outputs are
      concatenated, ``C = [O^(1) ... O^(h)]``, and combined with the output
      projection ``W_O = [W_O^(1); ...; W_O^(h)]`` (blocks of d_v x d_model),
      so ``O = C W_O = sum_h O^(h) W_O^(h)``.
    * ``scale``: ``"symbolic"`` (default) keeps √d as in the formula;
      ``"number"`` substitutes the number (concrete sizes only).
    * ``max_dim``, ``max_terms``: override :mod:`symrow.limits` for this
      call.  ``max_terms`` bounds the scalar products the concrete
      derivation writes out (see :func:`count_terms
      <symrow.derive.attention_config.count_terms>`): m = n = d = 16 writes
      about 1.1 million; with the default limit of 2,000,000, 17 is the
      largest such size that passes.

    The result:

    * ``.result``: the fully expanded O as a :class:`sympy.Matrix`,
      computed when first asked for (a matrix expression for general
      sizes); with projections it is in the entries of X, Y and the W's.
    * ``.operands``: Q, K, V (and X, Y, W_Q, W_K, W_V, W_O^(h) …) by name.
    * ``.quantities`` (concrete): "Q", "K", "V", "S" (= QK^T, the raw inner
      products), "P" (the row softmax of S/√d, plus M), "O" (= PV), "M"
      when causal, and "X", "Y", "W_Q", … with projections.  With several
      heads, each head's are named "Q^(1)", "S^(1)", …, and "C", "W_O" and
      the final "O" are added.

    With √d symbolic, d is ``symrow.seq.size_symbol("d")``:

    >>> import symrow, sympy
    >>> from symrow.seq import size_symbol
    >>> size_symbol("d") in symrow.attention(1, 2, 1).result.free_symbols
    True
    >>> size_symbol("d") in symrow.attention(1, 2, 1, scale="number").result.free_symbols
    False

    Each row of P is a distribution:

    >>> P = symrow.attention(2, 3, 2).quantities["P"]
    >>> [sympy.simplify(sum(P.row(i))) for i in range(2)]
    [1, 1]

    With a causal mask and m < n, query i sees keys up to i + (n - m):

    >>> symrow.attention(2, 3, 1, causal=True).quantities["M"]
    Matrix([
    [0, 0, -oo],
    [0, 0,   0]])
    >>> symrow.attention(3, 2, 1, causal=True)
    Traceback (most recent call last):
    ...
    symrow.errors.ShapeError: a causal mask lets query i see the keys j <= i + (n - m); with m = 3 queries and n = 2 keys, query 1 would see no key at all and its softmax would be 0/0. Use m <= n

    General sizes give a matrix expression:

    >>> symrow.attention("m", "n", "d").result
    P*V
    >>> symrow.attention(20, 20, 20)
    Traceback (most recent call last):
    ...
    symrow.errors.LimitError: the full expansion would write out 3,368,000 scalar products, past the limit of 2,000,000; raise it with symrow.limits(max_terms=...) or max_terms=, or choose smaller sizes
    """
    cfg = configure(m, n, d, d_v=d_v, causal=causal, heads=heads, projections=projections,
                    d_model=d_model, cross=cross, scale=scale, max_dim=max_dim,
                    max_terms=max_terms, **unknown)
    X = Y = None
    if cfg.projections:
        X = vecseq("X", cfg.m, cfg.d_model, max_dim=cfg.max_dim)
        if cfg.cross:
            Y = vecseq("Y", cfg.n, cfg.d_model, max_dim=cfg.max_dim)
    heads_ = [sequences(cfg, h, X, Y) for h in range(1, cfg.heads + 1)]
    final = heads_[0].O if cfg.heads == 1 else vecseq("O", cfg.m, cfg.d_model,
                                                      max_dim=cfg.max_dim)
    b = Builder(cfg, heads_, final)
    steps = b.formula()
    if cfg.projections:
        steps += b.projections()
    steps += b.operands() + b.match() + b.scaling()
    if cfg.causal:
        steps += b.mask()
    steps += b.distribution() + b.combine() + b.expansion()
    if cfg.heads > 1:
        steps += b.multi_head()

    operands = {}
    for seq in ([X, Y] if cfg.projections else []):
        if seq is not None:
            operands[seq.name] = seq
    for hs in heads_:
        for seq in (hs.Q, hs.K, hs.V) if not cfg.projections else (hs.W_Q, hs.W_K, hs.W_V):
            operands[seq.name] = seq
    if cfg.projections:  # Q, K and V are derived, and still listed
        for hs in heads_:
            operands.update({hs.Q.name: hs.Q, hs.K.name: hs.K, hs.V.name: hs.V})
    for hs in heads_:
        if hs.W_O is not None:
            operands[hs.W_O.name] = hs.W_O

    options = {"d_v": cfg.d_v, "causal": cfg.causal, "heads": cfg.heads,
               "projections": cfg.projections, "d_model": cfg.d_model, "cross": cfg.cross,
               "scale": cfg.scale}
    if cfg.concrete:
        def quantities() -> dict:
            return attention_values(cfg, heads_, final)
    else:
        quantities = _general_quantities(cfg, heads_, final)
    return Derivation("attention", steps, operands=operands, quantities=quantities,
                      result=final.name, options=options)


def attention_values(cfg: Config, heads: list[Seqs], final) -> dict:
    """The concrete matrices of the derivation, by name (see :func:`attention`).

    They are built the way the formula reads, in SymPy, so that ``O`` is the
    same expression a user gets by hand: ``S/sqrt(d)``, ``exp`` entrywise,
    each entry over its row's sum, then times V.
    """
    out: dict = {}
    if cfg.projections:
        X = heads[0].X.matrix
        Y = heads[0].Y.matrix if cfg.cross else X
        out["X"] = X
        if cfg.cross:
            out["Y"] = Y
    m, n = cfg.m, cfg.n
    if cfg.causal:
        M = sympy.Matrix(m, n, lambda i, j: 0 if j < cfg.visible(i + 1) else sympy.S.NegativeInfinity)
        out["M"] = M
    for hs in heads:
        if cfg.projections:
            Q, K, V = (sympy.Matrix(X * hs.W_Q.matrix), sympy.Matrix(Y * hs.W_K.matrix),
                       sympy.Matrix(Y * hs.W_V.matrix))
            out.update({hs.W_Q.name: hs.W_Q.matrix, hs.W_K.name: hs.W_K.matrix,
                        hs.W_V.name: hs.W_V.matrix})
        else:
            Q, K, V = (sympy.Matrix(hs.Q.matrix), sympy.Matrix(hs.K.matrix),
                       sympy.Matrix(hs.V.matrix))
        S = Q * K.T
        E = (S / cfg.scale_value).applyfunc(sympy.exp)
        P = sympy.Matrix(m, n, lambda i, j: E[i, j] / sum(E[i, k] for k in range(
            cfg.visible(i + 1))) if j < cfg.visible(i + 1) else sympy.S.Zero)
        out.update({hs.Q.name: Q, hs.K.name: K, hs.V.name: V, hs.S.name: S, hs.P.name: P,
                    hs.O.name: P * V})
    if cfg.heads > 1:
        C = sympy.Matrix.hstack(*[out[hs.O.name] for hs in heads])
        W_O = sympy.Matrix.vstack(*[hs.W_O.matrix for hs in heads])
        out.update({"C": C, "W_O": W_O, final.name: C * W_O})
        out.update({hs.W_O.name: hs.W_O.matrix for hs in heads})
    return out


def _general_quantities(cfg: Config, heads: list[Seqs], final) -> dict:
    """Matrix expressions for general sizes: ``S = Q K^T``, ``O = P V`` …"""
    MS = sympy.MatrixSymbol
    m, n, d, d_v, D = cfg.m, cfg.n, cfg.d, cfg.d_v, cfg.d_model
    out: dict = {}
    if cfg.projections:
        out["X"] = MS("X", m, D)
        if cfg.cross:
            out["Y"] = MS("Y", n, D)
    for hs in heads:
        if cfg.projections:
            src = out["Y"] if cfg.cross else out["X"]
            W = {w.name: MS(w.name, w.rows, w.cols) for w in (hs.W_Q, hs.W_K, hs.W_V)}
            out.update(W)
            Q, K, V = out["X"] * W[hs.W_Q.name], src * W[hs.W_K.name], src * W[hs.W_V.name]
        else:
            Q, K, V = MS(hs.Q.name, m, d), MS(hs.K.name, n, d), MS(hs.V.name, n, d_v)
        P = MS(hs.P.name, m, n)
        out.update({hs.Q.name: Q, hs.K.name: K, hs.V.name: V, hs.S.name: Q * K.T,
                    hs.P.name: P, hs.O.name: P * V})
    if cfg.heads > 1:
        out[final.name] = sympy.MatAdd(*[out[hs.O.name] * MS(hs.W_O.name, d_v, D)
                                         for hs in heads])
    return out
