"""Attention read as match, then distribution (配分), then combine: a preset.

``O = softmax(QK^T / sqrt(d)) V`` is a formula like any other; the planner
reads it in four stages, each a reading from the reference article:

1. **match** (照合): ``S = QK^T``; row i of S holds the inner products of
   the query point q_i with every key point, ``s_ij = q_i . k_j``;
2. **scale**: divide by ``sqrt(d)``;
3. **distribution** (配分): ``P = softmax`` by rows; each row p_i is
   non-negative and sums to 1;
4. **combine** (結合): ``O = PV``; ``o_i = sum_j p_ij v_j``, a weighted
   average of the value points;

and finally the **full expansion**: every o_i and o_il in the entries of
Q, K and V alone.  This module only says what a formula cannot: the
options (a causal mask, projections from inputs, several heads) become
definitions for the planner, and the sections are arranged as a lecture on
attention tells them, in the preset's own words (style ``"attention"``).

>>> import symrow
>>> d = symrow.attention(2, 3, 2)
>>> d
<Derivation attention: Q 2×2, K 3×2, V 3×2; 23 steps>
>>> sorted(d.quantities)
['K', 'O', 'P', 'Q', 'S', 'V']
>>> d.result.shape
(2, 2)
>>> d.products
[('match', 'Q', 'K'), ('combine', 'P', 'V')]
>>> "\\\\operatorname{softmax}" in d.to_latex()
True
"""

from __future__ import annotations

import sympy

from .. import nodes as N
from ..build import I, J, T, column, entry_of, row_bmat, table
from ..formula import expr as E
from ..narrate import Titles
from ..seq import size_symbol
from ..steps import Step
from . import sections as S
from .attention_config import Config, configure
from .plan import plan
from .readings import Ctx, Scale
from .readings.base import entrywise, run, scaled, stack_of_seq
from .explain import check_terms, derive

__all__ = ["attention"]

_R = sympy.Symbol("r")      # a component of an input (the projections' sums)


def attention(m, n, d, *, d_v=None, causal=False, heads=1, projections=False, d_model=None,
              cross=None, scale="symbolic", max_dim=None, max_terms=None,
              **unknown):
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
      derivation writes out (see :func:`symrow.derive.explain.count_terms`):
      m = n = d = 16 writes about 1.1 million; with the default limit of
      2,000,000, 17 is the largest such size that passes.

    The result:

    * ``.result``: the fully expanded O as a :class:`sympy.Matrix`,
      computed when first asked for (a matrix expression for general
      sizes); with projections it is in the entries of X, Y and the W's.
    * ``.operands``: the sequences the formula starts from, by name: Q, K,
      V (and M when causal), or with projections X, Y, W_Q, W_K, W_V;
      with several heads also W_O^(h).
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
    formula, shapes, unnamed = _formula(cfg)
    p = plan(formula, shapes, causal=cfg.causal, scale=cfg.scale, max_dim=cfg.max_dim,
             unnamed=unnamed)
    check_terms(p, max_terms, shown_combine=False)
    head_names = [_names(cfg, h) for h in range(1, cfg.heads + 1)]
    quiet = frozenset()
    if cfg.heads > 1:  # head 1 is derived in full; the others and the output are summed up
        first = _ancestors(p.named[head_names[0]["O"]])
        quiet = frozenset(node.index for node in p.nodes
                          if not node.given and id(node) not in first)
    layout = _Layout(p, cfg, head_names, quiet)
    steps = layout.steps()
    sizes = {"m": cfg.m, "n": cfg.n, "d": cfg.d, "d_v": cfg.d_v}
    if cfg.projections or cfg.heads > 1:
        sizes["d_model"] = cfg.d_model
    options = {"d_v": cfg.d_v, "causal": cfg.causal, "heads": cfg.heads,
               "projections": cfg.projections, "d_model": cfg.d_model, "cross": cfg.cross,
               "scale": cfg.scale}

    def rebuild(concrete, scale: str = scale):
        return attention(concrete["m"], concrete["n"], concrete["d"],
                         d_v=concrete.get("d_v", concrete["d"]) if d_v is not None else None,
                         causal=causal, heads=heads, projections=projections,
                         d_model=concrete.get("d_model") if d_model is not None else None,
                         cross=cross, scale=scale, max_dim=max_dim, max_terms=max_terms)
    several = cfg.heads > 1 and cfg.concrete
    return derive(p, kind="attention", steps=steps, options=options, sizes=sizes,
                  statement=layout.statement(),
                  rebuild=None if cfg.concrete else rebuild,
                  title=Titles("title.attention"), formula_text=E.text(formula.result),
                  more_quantities=(lambda q: _concatenation(q, head_names)) if several
                  else None,
                  more_definitions=(lambda: {"C": sympy.Matrix.hstack(
                      *[sympy.Matrix(p.named[hn["O"]].seq.matrix) for hn in head_names])})
                  if several else None)


def _ancestors(node) -> set:
    out, todo = set(), [node]
    while todo:
        n = todo.pop()
        if id(n) not in out:
            out.add(id(n))
            todo.extend(n.inputs)
    return out


def _concatenation(q: dict, head_names: list) -> dict:
    """``C = [O^(1) ... O^(h)]`` and ``W_O = [W_O^(1); ...; W_O^(h)]``."""
    return {"C": sympy.Matrix.hstack(*[q[hn["O"]] for hn in head_names]),
            "W_O": sympy.Matrix.vstack(*[q[hn["W_O"]] for hn in head_names])}


def _names(cfg: Config, h: int) -> dict:
    sfx = "" if cfg.heads == 1 else f"^({h})"
    return {k: k + sfx for k in ("Q", "K", "V", "S", "P", "O", "W_Q", "W_K", "W_V", "W_O")}


def _formula(cfg: Config):
    """The definitions the options stand for, the shapes of the operands, and the
    products left unnamed (the per-head terms of the output projection)."""
    d = size_symbol("d") if cfg.concrete else cfg.d
    defs, shapes, unnamed = [], {}, set()
    src = "Y" if cfg.cross else "X"
    if cfg.projections:
        shapes["X"] = (cfg.m, cfg.d_model)
        if cfg.cross:
            shapes["Y"] = (cfg.n, cfg.d_model)
    terms = []
    for h in range(1, cfg.heads + 1):
        nm = _names(cfg, h)
        if cfg.projections:
            shapes.update({nm["W_Q"]: (cfg.d_model, cfg.d), nm["W_K"]: (cfg.d_model, cfg.d),
                           nm["W_V"]: (cfg.d_model, cfg.d_v)})
            defs += [(nm["Q"], E.Product(E.Name("X"), E.Name(nm["W_Q"]))),
                     (nm["K"], E.Product(E.Name(src), E.Name(nm["W_K"]))),
                     (nm["V"], E.Product(E.Name(src), E.Name(nm["W_V"])))]
        else:
            shapes.update({nm["Q"]: (cfg.m, cfg.d), nm["K"]: (cfg.n, cfg.d),
                           nm["V"]: (cfg.n, cfg.d_v)})
        scores = E.Scaled(E.Name(nm["S"]), sympy.S.One, sympy.sqrt(d))
        if cfg.causal:
            scores = E.Sum((scores, E.Name("M")), (1, 1))
        defs += [(nm["S"], E.Product(E.Name(nm["Q"]), E.Transpose(E.Name(nm["K"])))),
                 (nm["P"], E.Softmax(scores)),
                 (nm["O"], E.Product(E.Name(nm["P"]), E.Name(nm["V"])))]
        if cfg.heads > 1:
            shapes[nm["W_O"]] = (cfg.d_v, cfg.d_model)
            term = E.Product(E.Name(nm["O"]), E.Name(nm["W_O"]))
            unnamed.add(term)
            terms.append(term)
    if cfg.causal:
        shapes["M"] = (cfg.m, cfg.n)
    if cfg.heads > 1:
        defs.append(("O", E.Sum(tuple(terms), (1,) * len(terms))))
    return E.Formula(tuple(defs), defs[-1][0]), shapes, unnamed


class _Layout:
    """The sections of the attention preset, in the order a lecture tells them."""

    def __init__(self, p, cfg: Config, head_names: list, quiet=frozenset()):
        self.p, self.cfg = p, cfg
        self.ctx = Ctx(p, "attention", quiet=quiet)
        self.named = p.named
        self.heads = head_names
        one = head_names[0]
        self.Q, self.K, self.V = (self.named[one[k]] for k in "QKV")
        self.Sn, self.Pn, self.On = (self.named[one[k]] for k in "SPO")
        self.final = p.result

    def seq(self, name):
        return self.named[name].seq

    def steps(self) -> list[Step]:
        ctx, cfg = self.ctx, self.cfg
        steps = self.formula()
        if cfg.projections:
            steps += self.projections()
        if cfg.heads > 1:  # the stages below are head 1's: say so once
            steps += [ctx.heading("attn_head_one", h=1, part="operands"),
                      ctx.step("attn_head_one", {"h": 1, "H": cfg.heads,
                                                 "Q_2": self.seq(self.heads[1]["Q"]),
                                                 "K_2": self.seq(self.heads[1]["K"]),
                                                 "V_2": self.seq(self.heads[1]["V"])},
                               part="operands")]
        steps += self.operands()
        for node in self.p.nodes:
            if not ctx.shown(node) or node.given:
                continue
            if cfg.projections and node in (self.Q, self.K, self.V):
                continue
            part = node.stage or node.reading
            steps += node.steps(ctx, part)
        steps += self.On.expansion(ctx, "expansion")
        steps += S.summary(ctx, self.On)
        if cfg.heads > 1:
            steps += self.multi_head()
        return steps

    # -- the formula and its operands -------------------------------------------------------
    def _softmax_arg(self, x):
        arg = self.Pn.inputs[0]
        scale = arg if isinstance(arg, Scale) else arg.inputs[0]
        out = scaled(x, *scale.shown)
        if self.cfg.causal:
            out = N.OSum([out, arg.inputs[1].whole()])
        return out

    def statement(self) -> N.Chain:
        """``O = softmax(QK^T / sqrt(d)) V`` for head 1."""
        Q, K, V, O = (x.seq for x in (self.Q, self.K, self.V, self.On))
        QKT = N.OMul([Q, N.Transpose(K)])
        return N.Chain([O, N.OMul([N.Call("softmax", [self._softmax_arg(QKT)]), V])])

    def formula(self) -> list[Step]:
        ctx, cfg = self.ctx, self.cfg
        Q, K, V, O = (x.seq for x in (self.Q, self.K, self.V, self.On))
        att = self.statement()
        steps = [ctx.heading("formula", part="formula")]
        params = {"O": O, "Q": Q, "K": K, "V": V, "m": cfg.m, "n": cfg.n,
                  "M": N.Label("M", "M"), "variant": "causal" if cfg.causal else "plain"}
        if cfg.heads == 1:
            return steps + [ctx.step("formula", params, att, part="formula")]
        # several heads: one overview (the whole, and what each head computes),
        # then the derivation of head 1, introduced as such
        H = cfg.heads
        W_O = N.Label("W_{O}", "W_O")
        outs = [self.seq(hn["O"]) for hn in self.heads]
        each = [N.Chain([outs[h], N.OMul([N.Call("softmax", [self._softmax_arg(N.OMul([
            self.seq(hn["Q"]), N.Transpose(self.seq(hn["K"]))]))]), self.seq(hn["V"])])])
            for h, hn in enumerate(self.heads)]
        listed = outs if H <= 3 else [outs[0], N.Dots("l"), outs[-1]]
        steps.append(ctx.step("attn_formula_heads", {
            "H": H, "O": self.final.seq, "O_1": outs[0], "O_H": outs[-1],
            "outs": N.Items(listed), "W_O": W_O, "variant": "two" if H == 2 else "many"},
            N.Group([N.Chain([self.final.seq, N.OMul([row_bmat(H, lambda h: outs[h - 1]),
                                                      W_O])])] + each), part="formula"))
        steps.append(ctx.step("formula", {**params, "h": 1, "variant": params["variant"]
                                          + "_head"}, None, part="formula"))
        return steps

    def operands(self) -> list[Step]:
        ctx, cfg = self.ctx, self.cfg
        Q, K, V, Sq, Pq, O = (x.seq for x in (self.Q, self.K, self.V, self.Sn, self.Pn,
                                              self.On))
        variant = ("general" if not cfg.concrete else "self" if cfg.m == cfg.n else "cross")

        def chain_in(seq, rows, cols):
            return N.Rel(N.Chain([seq, stack_of_seq(seq)]), "in", N.Space(rows, cols))

        return [
            ctx.step("operands", {"Q": Q, "K": K, "V": V, "m": cfg.m, "n": cfg.n,
                                  "d": cfg.d, "d_v": cfg.d_v, "q_i": Q.vector(I),
                                  "k_j": K.vector(J), "v_j": V.vector(J), "j": J,
                                  "variant": variant},
                     N.Group([chain_in(Q, cfg.m, cfg.d), chain_in(K, cfg.n, cfg.d),
                              chain_in(V, cfg.n, cfg.d_v)]), part="operands"),
            ctx.step("plan", {"S": Sq, "P": Pq, "O": O,
                              "variant": "causal" if cfg.causal else "plain"},
                     N.Group([N.Chain([Sq, N.OMul([Q, N.Transpose(K)])]),
                              N.Chain([Pq, N.Call("softmax", [self.Pn.inputs[0].whole()])]),
                              N.Chain([O, N.OMul([Pq, V])])]), part="operands"),
        ]

    # -- projections -------------------------------------------------------------------------------
    def projections(self) -> list[Step]:
        ctx, cfg = self.ctx, self.cfg
        D = cfg.d_model
        X = self.seq("X")
        Y = self.seq("Y") if cfg.cross else X

        def chain_in(seq, rows, cols):
            return N.Rel(N.Chain([seq, stack_of_seq(seq)]), "in", N.Space(rows, cols))

        inputs = [chain_in(X, cfg.m, D)] + ([chain_in(Y, cfg.n, D)] if cfg.cross else [])
        part = "projections"
        steps = [
            ctx.heading("attn_projections", part=part),
            ctx.step("attn_inputs", {"X": X, "Y": Y, "m": cfg.m, "n": cfg.n, "D": D,
                                     "x_i": X.vector(I), "y_j": Y.vector(J),
                                     "variant": "cross" if cfg.cross else "self"},
                     N.Group(inputs), part=part),
        ]
        defs, rows = [], []
        for hn in self.heads:
            Qh, Kh, Vh = (self.seq(hn[k]) for k in "QKV")
            WQ, WK, WV = (self.seq(hn[k]) for k in ("W_Q", "W_K", "W_V"))
            defs += [N.Chain([Qh, N.OMul([X, WQ])]), N.Chain([Kh, N.OMul([Y, WK])]),
                     N.Chain([Vh, N.OMul([Y, WV])])]
            rows += [self._projection_row(Qh, X, WQ, I), self._projection_row(Kh, Y, WK, J),
                     self._projection_row(Vh, Y, WV, J)]
        # the shapes in one display: the W's of one kind share theirs
        shapes = [N.Rel(self._listed(key), "in", N.Space(D, cfg.d_v if key == "W_V" else cfg.d))
                  for key in ("W_Q", "W_K", "W_V")]
        one = self.heads[0]
        steps += [
            ctx.step("attn_projection_defs", {"X": X, "Y": Y, "H": cfg.heads,
                                              "variant": ("heads" if cfg.heads > 1 else "one")},
                     N.Group(defs), part=part),
            ctx.step("attn_projection_shapes", {"D": D, "d": cfg.d, "d_v": cfg.d_v},
                     N.Group(shapes), part=part),
            ctx.step("attn_projection_rows", {"Q": self.seq(one["Q"]),
                                              "W_Q": self.seq(one["W_Q"]), "X": X,
                                              "q_i": self.seq(one["Q"]).vector(I), "D": D,
                                              "x_i": X.vector(I), "Y": Y},
                     N.Group(rows), part=part),
        ]
        if cfg.concrete:
            for hn in self.heads:
                Qh, Kh, Vh = (self.seq(hn[k]) for k in "QKV")
                steps.append(ctx.step(
                    "attn_projection_entries", {"Q": Qh, "K": Kh, "V": Vh},
                    N.Group([self._projection_entries(self.named[hn["Q"]]),
                             self._projection_entries(self.named[hn["K"]]),
                             self._projection_entries(self.named[hn["V"]])]), part=part))
        return steps

    def _listed(self, key: str):
        """The weight matrices of one kind, for all heads: ``W_Q^(1), W_Q^(2)``
        (with an ellipsis past three heads), or the one matrix."""
        seqs = [self.seq(hn[key]) for hn in self.heads]
        if len(seqs) == 1:
            return seqs[0]
        return N.Items(seqs if len(seqs) <= 3 else [seqs[0], N.Dots("l"), seqs[-1]])

    def _projection_row(self, out, src, W, i):
        """``q_i = x_i1 w_1 + ... = sum_r x_ir w_r = x_i W``: a combine."""
        D = self.cfg.d_model
        return N.Chain([out.vector(i),
                        run(D, lambda r: N.OMul([entry_of(src, i, r), W.vector(r)])),
                        N.SumOver(N.OMul([src.symbol(i, _R), W.vector(_R)]), _R, 1, D),
                        N.OMul([src.vector(i), W])])

    def _projection_entries(self, node):
        src, W = node.inputs
        D = self.cfg.d_model
        return entrywise(node, lambda r, c: N.OSum(
            [N.OMul([src.entry(r, k), W.entry(k, c)]) for k in range(1, D + 1)]))

    # -- several heads -----------------------------------------------------------------------------
    def multi_head(self) -> list[Step]:
        ctx, cfg = self.ctx, self.cfg
        H, D = cfg.heads, cfg.d_model
        outs = [self.seq(hn["O"]) for hn in self.heads]
        W_Os = [self.seq(hn["W_O"]) for hn in self.heads]
        final = self.final.seq
        C, W_O = N.Label("C", "C"), N.Label("W_{O}", "W_O")
        c_i = N.Label(r"\boldsymbol{c}_{i}", "𝐜ᵢ")
        blocks = column(H, lambda h: W_Os[h - 1])
        o_i = final.vector(I)
        part = "heads"
        W_Os_listed = N.Items(W_Os if H <= 3 else [W_Os[0], N.Dots("l"), W_Os[-1]])
        steps = [
            ctx.heading("attn_heads", part=part),
            ctx.step("attn_concat", {"C": C, "c_i": c_i, "H": H, "m": cfg.m, "d_v": cfg.d_v,
                                     "i": I, "W_O": W_O, "D": D},
                     N.Group([N.Rel(N.Chain([C, row_bmat(H, lambda h: outs[h - 1])]), "in",
                                    N.Space(cfg.m, H * cfg.d_v)),
                              N.Chain([c_i, row_bmat(H, lambda h: outs[h - 1].vector(I))]),
                              N.Rel(N.Chain([W_O, blocks]), "in", N.Space(H * cfg.d_v, D)),
                              N.Rel(W_Os_listed, "in", N.Space(cfg.d_v, D))]),
                     part=part),
            ctx.step("attn_output", {"O": final, "C": C, "W_O": W_O},
                     N.Chain([final, N.OMul([C, W_O]),
                              N.OSum([N.OMul([o, w]) for o, w in zip(outs, W_Os)])]),
                     part=part),
            ctx.step("attn_output_row", {"o_i": o_i, "c_i": c_i, "W_O": W_O, "i": I},
                     N.Chain([o_i, N.OMul([c_i, W_O]),
                              N.OSum([N.OMul([o.vector(I), w]) for o, w in zip(outs, W_Os)]),
                              N.OSum([N.SumOver(N.OMul([o.symbol(I, T), w.vector(T)]),
                                                T, 1, cfg.d_v) for o, w in zip(outs, W_Os)])]),
                     part=part),
        ]
        if cfg.concrete:
            names = table(cfg.m, D, final.symbol)
            values = table(cfg.m, D, lambda r, c: N.OSum(
                [N.OMul([o.entry(r, t), w.entry(t, c)])
                 for o, w in zip(outs, W_Os) for t in range(1, cfg.d_v + 1)]))
            steps.append(ctx.step("attn_output_entries", {"O": final},
                                  N.Chain([final, names, N.Entrywise(names, values)]),
                                  part=part))
        return steps


def _build(preset=None, *, general: bool = False, m=None, n=None, d=None, **options):
    sizes = {}
    for key, default in (("m", 2), ("n", 2), ("d", 2)):
        given = {"m": m, "n": n, "d": d}[key]
        sizes[key] = given if given is not None else (key if general else default)
    return attention(sizes["m"], sizes["n"], sizes["d"], **options)
