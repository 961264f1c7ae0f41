"""The steps of an attention derivation, section by section.

Each function returns a list of :class:`~symrow.steps.Step` records for one
section: the formula, the projections, match, scale, the causal mask,
distribution, combine, the full expansion and the heads.  Displays are
built from :mod:`symrow.nodes` for both sizes at once: the helpers of
:mod:`.common` show ``1, 2, ..., n`` with ellipses for a general size and
every index for a concrete one.  Nothing here grows faster than the
scores (``m n d`` nodes); the full expansion, which grows as the fourth
power, is one :class:`~symrow.nodes.SoftmaxExpansion` kept by index.
"""

from __future__ import annotations

import sympy

from .. import nodes as N
from ..steps import Step
from .attention_config import Config, Seqs
from .common import I, J, T, column, entry_of, indices, row_bmat, stack, table

__all__ = ["Builder"]

L = sympy.Symbol("l")      # a component of a value (and of an output)
JP = sympy.Symbol("j'")    # the summation index of the softmax's denominator
R = sympy.Symbol("r")      # a component of an input (the projections' sums)
NEG_INF = sympy.S.NegativeInfinity
ZERO = sympy.S.Zero
M_LABEL = N.Label("M", "M")


def _chain_in(seq, rows, cols):
    return N.Rel(N.Chain([seq, stack(seq)]), "in", N.Space(rows, cols))


class Builder:
    """Builds the steps of one derivation; ``s`` holds the sequences of the head
    derived in full (head 1), ``heads`` those of every head."""

    def __init__(self, cfg: Config, heads: list[Seqs], final=None):
        self.cfg, self.heads, self.s, self.final = cfg, heads, heads[0], final
        value = cfg.scale_value
        if cfg.scale == "symbolic":
            self.scale = N.Sqrt(value.args[0] if isinstance(value, sympy.Pow) else value)
        else:
            self.scale = None if value == 1 else value
        self.i, self.j = I, J

    # -- small pieces ------------------------------------------------------
    def sc(self, x):
        """``x / sqrt(d)`` (or x when the scale is 1)."""
        return x if self.scale is None else N.Frac(x, self.scale)

    def masked(self, x):
        return N.OSum([x, M_LABEL]) if self.cfg.causal else x

    def last_key(self, i):
        """The last key query ``i`` combines (n without a mask)."""
        cfg = self.cfg
        if not cfg.causal:
            return cfg.n
        if isinstance(i, int) and cfg.concrete:
            return cfg.visible(i)
        return i + cfg.n - cfg.m

    def sees(self, i, j) -> bool:
        """Whether query i sees key j, for the (possibly general) indices of a table."""
        if not self.cfg.causal:
            return True
        if isinstance(i, int) and isinstance(j, int):
            return j <= (self.cfg.visible(i) if self.cfg.concrete else i)
        return not isinstance(j, sympy.Basic) or isinstance(i, sympy.Basic)

    def run(self, size, make, last=None):
        """``make(1) + make(2) + ... + make(size)`` (with ``\\cdots`` when general)."""
        if last is not None and not isinstance(last, int):
            return N.OSum([make(1), make(2), N.Dots("c"), make(last)])
        return N.OSum([N.Dots("c") if j is None else make(j) for j in indices(
            size if last is None else last)])

    def cases(self, seen, unseen) -> N.Cases:
        """``seen`` where query i may look at key j, ``unseen`` elsewhere."""
        le_tex, le_text, gt_tex, gt_text = self.mask_rule()
        return N.Cases([(seen, N.Label(f"({le_tex})", f"({le_text})")),
                        (unseen, N.Label(f"({gt_tex})", f"({gt_text})"))])

    def mask_rule(self):
        """``j <= i + (n - m)`` (and its negation) as TeX and text, e.g. ``j <= i + 1``."""
        last = I + self.cfg.offset
        tex, text = sympy.latex(last), str(last).replace("-", "−")
        return r"j \leq " + tex, "j ≤ " + text, "j > " + tex, "j > " + text

    def softmax_arg(self, x):
        return self.masked(self.sc(x))

    # -- the formula -------------------------------------------------------
    def formula(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        QKT = N.OMul([s.Q, N.Transpose(s.K)])
        att = N.Chain([s.O, N.OMul([N.Call("softmax", [self.softmax_arg(QKT)]), s.V])])
        steps = [Step("heading", {"topic": "attn_formula"})]
        if cfg.heads > 1:
            last = self.heads[-1]
            steps.append(Step("attn_formula_heads", {
                "H": cfg.heads, "O": self.final, "O_1": s.O, "O_H": last.O,
                "W_O": _label("W_{O}", "W_O")},
                N.Chain([self.final, N.OMul([row_bmat(cfg.heads,
                                                      lambda h: self.heads[h - 1].O),
                                             _label("W_{O}", "W_O")])])))
        steps.append(Step("attn_formula", {"O": s.O, "Q": s.Q, "K": s.K, "V": s.V, "m": cfg.m,
                                           "M": M_LABEL,
                                           "n": cfg.n, "variant": "causal" if cfg.causal
                                           else "plain"}, att))
        return steps

    def operands(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        variant = ("general" if not cfg.concrete else "self" if cfg.m == cfg.n else "cross")
        return [
            Step("attn_operands", {"Q": s.Q, "K": s.K, "V": s.V, "m": cfg.m, "n": cfg.n,
                                   "d": cfg.d, "d_v": cfg.d_v, "q_i": s.Q.vector(I),
                                   "k_j": s.K.vector(J), "v_j": s.V.vector(J), "j": J,
                                   "variant": variant},
                 N.Group([_chain_in(s.Q, cfg.m, cfg.d), _chain_in(s.K, cfg.n, cfg.d),
                          _chain_in(s.V, cfg.n, cfg.d_v)])),
            Step("attn_plan", {"S": s.S, "P": s.P, "O": s.O,
                               "variant": "causal" if cfg.causal else "plain"},
                 N.Group([N.Chain([s.S, N.OMul([s.Q, N.Transpose(s.K)])]),
                          N.Chain([s.P, N.Call("softmax", [self.softmax_arg(s.S)])]),
                          N.Chain([s.O, N.OMul([s.P, s.V])])])),
        ]

    # -- projections -------------------------------------------------------
    def projections(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        D = cfg.d_model
        X, Y = s.X, (s.Y if cfg.cross else s.X)
        inputs = [_chain_in(X, cfg.m, D)] + ([_chain_in(Y, cfg.n, D)] if cfg.cross else [])
        steps = [
            Step("heading", {"topic": "attn_projections"}),
            Step("attn_inputs", {"X": X, "Y": Y, "m": cfg.m, "n": cfg.n, "D": D,
                                 "x_i": X.vector(I), "y_j": Y.vector(J),
                                 "variant": "cross" if cfg.cross else "self"},
                 N.Group(inputs)),
        ]
        defs, shapes, rows = [], [], []
        for hs in self.heads:
            defs += [N.Chain([hs.Q, N.OMul([X, hs.W_Q])]), N.Chain([hs.K, N.OMul([Y, hs.W_K])]),
                     N.Chain([hs.V, N.OMul([Y, hs.W_V])])]
            shapes += [N.Rel(hs.W_Q, "in", N.Space(D, cfg.d)),
                       N.Rel(hs.W_K, "in", N.Space(D, cfg.d)),
                       N.Rel(hs.W_V, "in", N.Space(D, cfg.d_v))]
            rows += [self._projection_row(hs.Q, X, hs.W_Q, I),
                     self._projection_row(hs.K, Y, hs.W_K, J),
                     self._projection_row(hs.V, Y, hs.W_V, J)]
        steps += [
            Step("attn_projection_defs", {"X": X, "Y": Y, "H": cfg.heads,
                                          "variant": ("heads" if cfg.heads > 1 else "one")},
                 N.Group(defs)),
            Step("attn_projection_shapes", {"D": D, "d": cfg.d, "d_v": cfg.d_v}, N.Group(shapes)),
            Step("attn_projection_rows", {"Q": s.Q, "W_Q": s.W_Q, "X": X, "q_i": s.Q.vector(I), "D": D,
                                          "x_i": X.vector(I), "Y": Y},
                 N.Group(rows)),
        ]
        if cfg.concrete:
            for hs in self.heads:
                steps.append(Step(
                    "attn_projection_entries", {"Q": hs.Q, "K": hs.K, "V": hs.V},
                    N.Group([self._projection_entries(hs.Q, X, hs.W_Q),
                             self._projection_entries(hs.K, Y, hs.W_K),
                             self._projection_entries(hs.V, Y, hs.W_V)])))
        return steps

    def _projection_row(self, out, src, W, i):
        """``q_i = x_i1 w_1 + ... = sum_r x_ir w_r = x_i W``: a combine."""
        D = self.cfg.d_model
        return N.Chain([out.vector(i),
                        self.run(D, lambda r: N.OMul([entry_of(src, i, r), W.vector(r)])),
                        N.SumOver(N.OMul([src.symbol(i, R), W.vector(R)]), R, 1, D),
                        N.OMul([src.vector(i), W])])

    def _projection_entries(self, out, src, W):
        D = self.cfg.d_model
        names = table(out.rows, out.cols, out.symbol)
        values = table(out.rows, out.cols, lambda r, c: N.OSum(
            [N.OMul([src.entry(r, k), W.entry(k, c)]) for k in range(1, D + 1)]))
        return N.Chain([out, names, N.Entrywise(names, values)])

    # -- match -------------------------------------------------------------
    def match(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        Q, K, S = s.Q, s.K, s.S
        q_i, s_i = Q.vector(I), S.vector(I)
        KT = N.Transpose(K)
        steps = [
            Step("heading", {"topic": "attn_match", "QKT": N.OMul([Q, KT])}),
            Step("attn_match", {"S": S, "QKT": N.OMul([Q, KT]), "Q": Q, "K": K},
                 N.Chain([S, N.OMul([Q, KT]),
                          N.OMul([stack(Q), row_bmat(cfg.n, lambda c: N.Transpose(K.vector(c)))]),
                          table(cfg.m, cfg.n, lambda r, c: N.Dot(Q.vector(r), K.vector(c)))])),
            Step("attn_match_row", {"s_i": s_i, "q_i": q_i, "S": S, "K": K, "i": I},
                 N.Chain([s_i, row_bmat(cfg.n, lambda c: N.Dot(q_i, K.vector(c))),
                          N.OMul([q_i, KT])])),
        ]
        if cfg.concrete:
            names = table(cfg.m, cfg.n, S.symbol)
            values = table(cfg.m, cfg.n, lambda r, c: N.OSum(
                [N.OMul([Q.entry(r, t), K.entry(c, t)]) for t in range(1, cfg.d + 1)]))
            display = N.Chain([S, names, N.Entrywise(names, values)])
        else:
            display = N.Chain([
                S.symbol(I, J), N.Dot(q_i, K.vector(J)),
                self.run(cfg.d, lambda t: N.OMul([Q.symbol(I, t), K.symbol(J, t)])),
                N.SumOver(N.OMul([Q.symbol(I, T), K.symbol(J, T)]), T, 1, cfg.d)])
        steps.append(Step("attn_match_entry", {
            "s_ij": S.symbol(I, J), "q_i": q_i, "k_j": K.vector(J), "d": cfg.d, "S": S,
            "variant": "concrete" if cfg.concrete else "general"}, display))
        return steps

    # -- scale -------------------------------------------------------------
    def scaling(self) -> list[Step]:
        cfg, S = self.cfg, self.s.S
        sqrt_d = N.Sqrt(sympy.Symbol("d") if cfg.concrete else cfg.d)
        params = {"S": S, "d": cfg.d, "sqrt_d": sqrt_d, "scaled": self.sc(S)}
        if self.scale is None:
            return [Step("heading", {"topic": "attn_scale"}),
                    Step("attn_scale", {**params, "variant": "one"})]
        variant = "symbolic" if cfg.scale == "symbolic" else "number"
        params["value"] = self.scale
        params["sqrt_d_value"] = N.Chain([sqrt_d, self.scale])
        return [Step("heading", {"topic": "attn_scale"}),
                Step("attn_scale", {**params, "variant": variant},
                     N.Chain([self.sc(S), table(cfg.m, cfg.n,
                                                lambda r, c: self.sc(S.symbol(r, c)))]))]

    # -- causal mask ---------------------------------------------------------
    def mask(self) -> list[Step]:
        cfg, S = self.cfg, self.s.S
        ij = N.Label("ij", "ij")
        square = cfg.m == cfg.n
        shown = [N.Chain([N.Sub(M_LABEL, ij), self.cases(ZERO, NEG_INF)])]
        if cfg.concrete or square:
            shown.insert(0, N.Chain([M_LABEL, table(cfg.m, cfg.n, lambda r, c: ZERO
                                                    if self.sees(r, c) else NEG_INF)]))
            masked = N.Chain([N.OSum([self.sc(S), M_LABEL]), table(
                cfg.m, cfg.n, lambda r, c: self.sc(S.symbol(r, c)) if self.sees(r, c)
                else NEG_INF)])
        else:  # general m and n: the pattern depends on n - m, so show the rule
            masked = N.Chain([N.Sub(N.Paren(N.OSum([self.sc(S), M_LABEL])), ij),
                              self.cases(self.sc(S.symbol(I, J)), NEG_INF)])
        variant = "square" if square else "offset"
        return [
            Step("heading", {"topic": "attn_mask"}),
            Step("attn_mask", {"M": M_LABEL, "m": cfg.m, "n": cfg.n, "i": I,
                               "last": I + cfg.offset, "variant": variant}, N.Group(shown)),
            Step("attn_masked", {"M": M_LABEL, "scaled": self.sc(S)}, masked),
        ]

    # -- distribution --------------------------------------------------------
    def exp_score(self, i, j):
        return N.Exp(self.sc(self.s.S.symbol(i, j)))

    def distribution(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        S, P = s.S, s.P
        p_i, s_i = P.vector(I), S.vector(I)
        row_arg = self.sc(s_i)
        if cfg.causal:
            row_arg = N.OSum([row_arg, N.Sub(M_LABEL, I)])
        steps = [
            Step("heading", {"topic": "attn_distribution"}),
            Step("attn_softmax", {"P": P, "p_i": p_i, "s_i": s_i, "i": I,
                                  "variant": "causal" if cfg.causal else "plain"},
                 N.Group([N.Chain([P, N.Call("softmax", [self.softmax_arg(S)])]),
                          N.Chain([p_i, N.Call("softmax", [row_arg])])])),
        ]
        p_ij = P.symbol(I, J)
        if cfg.concrete:
            names = table(cfg.m, cfg.n, P.symbol)
            values = table(cfg.m, cfg.n, lambda r, c: N.Frac(
                self.exp_score(r, c), N.OSum([self.exp_score(r, k) for k in
                                              range(1, cfg.visible(r) + 1)]))
                if self.sees(r, c) else ZERO)
            entry = N.Chain([P, names, N.Entrywise(names, values)])
        else:
            frac = N.Frac(self.exp_score(I, J), N.SumOver(self.exp_score(I, JP), JP, 1,
                                                           self.last_key(I)))
            entry = N.Chain([p_ij, self.cases(frac, ZERO) if cfg.causal else frac])
        steps.append(Step("attn_softmax_entry", {
            "p_ij": p_ij, "P": P, "variant": "concrete" if cfg.concrete else "general"}, entry))
        if cfg.causal:
            steps.append(Step("attn_mask_zero", {"M": M_LABEL},
                              N.Chain([N.Exp(NEG_INF), ZERO])))
        steps.append(Step("attn_distribution", {
            "p_ij": p_ij, "p_i": p_i, "i": I, "n": cfg.n,
            "variant": "causal" if cfg.causal else "plain"},
            N.Group([N.Rel(p_ij, "ge", ZERO)] + self._row_sums())))
        steps.append(Step("attn_distribution_read", {"p_i": p_i, "n": cfg.n, "q_i": s.Q.vector(I),
                                                     "i": I},
                          N.Chain([p_i, row_bmat(cfg.n, lambda c: P.symbol(I, c))])))
        return steps

    def _row_sums(self) -> list:
        """``p_i1 + ... + p_in = (sum of exps) / (the same sum) = 1``, per row if needed."""
        cfg, P = self.cfg, self.s.P
        if not cfg.concrete:
            last = self.last_key(I)
            return [N.Chain([N.SumOver(P.symbol(I, J), J, 1, last),
                             N.Frac(N.SumOver(self.exp_score(I, J), J, 1, last),
                                    N.SumOver(self.exp_score(I, JP), JP, 1, last)),
                             sympy.S.One])]
        rows = [I] if not cfg.causal else list(range(1, cfg.m + 1))
        out = []
        for r in rows:
            count = cfg.n if r is I else cfg.visible(r)
            exps = N.OSum([self.exp_score(r, k) for k in range(1, count + 1)])
            out.append(N.Chain([N.OSum([P.symbol(r, k) for k in range(1, count + 1)]),
                                N.Frac(exps, exps), sympy.S.One]))
        return out

    # -- combine -------------------------------------------------------------
    def combine(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        P, V, O = s.P, s.V, s.O
        p_i, o_i = P.vector(I), O.vector(I)

        def weighted(r, last=None):
            return self.run(cfg.n, lambda j: N.OMul([entry_of(P, r, j), V.vector(j)]), last)

        steps = [
            Step("heading", {"topic": "attn_combine", "PV": N.OMul([P, V])}),
            Step("attn_combine", {"PV": N.OMul([P, V]), "O": O, "P": P, "V": V},
                 N.Chain([N.OMul([P, V]), column(cfg.m, weighted), stack(O), O])),
            Step("attn_combine_row", {"o_i": o_i, "p_i": p_i, "V": V, "i": I, "O": O},
                 N.Chain([o_i, weighted(I),
                          N.SumOver(N.OMul([P.symbol(I, J), V.vector(J)]), J, 1, cfg.n),
                          N.OMul([p_i, V])])),
        ]
        if cfg.causal:
            if cfg.concrete:
                shown = N.Group([N.Chain([O.vector(r), weighted(r, cfg.visible(r))])
                                 for r in range(1, cfg.m + 1)])
            else:
                last = self.last_key(I)
                shown = N.Chain([o_i, weighted(I, last),
                                 N.SumOver(N.OMul([P.symbol(I, J), V.vector(J)]), J, 1, last)])
            steps.append(Step("attn_combine_causal", {
                "o_i": o_i, "i": I, "v_1": V.vector(1), "v_i": V.vector(self.last_key(I)),
                "variant": "square" if cfg.m == cfg.n else "offset"}, shown))
        if not cfg.concrete:
            last = self.last_key(I)
            steps.append(Step("attn_combine_entry", {"o_il": O.symbol(I, L), "l": L},
                              N.Chain([O.symbol(I, L), self.run(cfg.n, lambda j: N.OMul(
                                  [P.symbol(I, j), V.symbol(j, L)]), last if cfg.causal
                                  else None),
                                  N.SumOver(N.OMul([P.symbol(I, J), V.symbol(J, L)]), J, 1,
                                            last)])))
        steps.append(Step("attn_combine_read", {"o_i": o_i, "p_i": p_i, "V": V,
                                                "q_i": s.Q.vector(I)}))
        return steps

    # -- everything substituted ------------------------------------------------
    def expansion(self) -> list[Step]:
        cfg, s = self.cfg, self.s
        Q, K, V, O = s.Q, s.K, s.V, s.O
        steps = [Step("heading", {"topic": "attn_expansion"})]
        variant = "concrete" if cfg.concrete else "general"
        params = {"o_i": O.vector(I), "o_il": O.symbol(I, L), "Q": Q, "K": K, "V": V,
                  "variant": variant}
        if cfg.concrete:
            keys = [tuple(K.symbol(j, t) for t in range(1, cfg.d + 1))
                    for j in range(1, cfg.n + 1)]
            queries = [tuple(Q.symbol(i, t) for t in range(1, cfg.d + 1))
                       for i in range(1, cfg.m + 1)]
            vectors = tuple(V.vector(j) for j in range(1, cfg.n + 1))
            columns = [tuple(V.symbol(j, l) for j in range(1, cfg.n + 1))
                       for l in range(1, cfg.d_v + 1)]
            rows = N.SoftmaxExpansion(
                [(O.vector(i), queries[i - 1], cfg.visible(i), vectors)
                 for i in range(1, cfg.m + 1)], keys, self.scale)
            entries = N.SoftmaxExpansion(
                [(O.symbol(i, l), queries[i - 1], cfg.visible(i), columns[l - 1])
                 for i in range(1, cfg.m + 1) for l in range(1, cfg.d_v + 1)], keys, self.scale)
        else:
            last = self.last_key(I)

            def general(weight, exponent):
                frac = N.Frac(N.Exp(self.sc(exponent(J))),
                              N.SumOver(N.Exp(self.sc(exponent(JP))), JP, 1, last))
                return N.SumOver(N.OMul([frac, weight]), J, 1, last)

            rows = N.Chain([O.vector(I), general(V.vector(J),
                                                 lambda j: N.Dot(Q.vector(I), K.vector(j)))])
            entries = N.Chain([O.symbol(I, L), general(V.symbol(J, L), lambda j: N.SumOver(
                N.OMul([Q.symbol(I, T), K.symbol(j, T)]), T, 1, cfg.d))])
        steps += [Step("attn_expand_rows", params, rows),
                  Step("attn_expand_entries", params, entries)]
        q_i, s_i, p_i, o_i = Q.vector(I), s.S.vector(I), s.P.vector(I), O.vector(I)
        steps.append(Step("attn_summary", {"q_i": q_i, "s_i": s_i, "p_i": p_i, "o_i": o_i,
                                           "K": K, "V": V},
                          N.Rel(N.Rel(N.Rel(q_i, "mapsto", s_i), "mapsto", p_i), "mapsto", o_i)))
        return steps

    # -- several heads -----------------------------------------------------------
    def multi_head(self) -> list[Step]:
        cfg, H, final = self.cfg, self.cfg.heads, self.final
        heads = self.heads
        D = cfg.d_model
        C, W_O = _label("C"), _label("W_{O}", "W_O")
        c_i = N.Label(r"\boldsymbol{c}_{i}", "𝐜ᵢ")
        formulas = [N.Chain([hs.O, N.OMul([N.Call("softmax", [self.softmax_arg(
            N.OMul([hs.Q, N.Transpose(hs.K)]))]), hs.V])]) for hs in heads]
        blocks = column(H, lambda h: heads[h - 1].W_O)
        o_i = final.vector(I)
        steps = [
            Step("heading", {"topic": "attn_heads"}),
            Step("attn_heads", {"H": H, "first": heads[0].O, "Q": heads[0].Q}, N.Group(formulas)),
            Step("attn_concat", {"C": C, "c_i": c_i, "H": H, "m": cfg.m, "d_v": cfg.d_v,
                                 "i": I},
                 N.Group([N.Rel(N.Chain([C, row_bmat(H, lambda h: heads[h - 1].O)]), "in",
                                N.Space(cfg.m, H * cfg.d_v)),
                          N.Chain([c_i, row_bmat(H, lambda h: heads[h - 1].O.vector(I))])])),
            Step("attn_output_blocks", {"W_O": W_O, "H": H, "d_v": cfg.d_v, "D": D,
                                        "W_1": heads[0].W_O},
                 N.Group([N.Rel(N.Chain([W_O, blocks]), "in", N.Space(H * cfg.d_v, D))] +
                         [N.Rel(hs.W_O, "in", N.Space(cfg.d_v, D)) for hs in heads[:1]])),
            Step("attn_output", {"O": final, "C": C, "W_O": W_O},
                 N.Chain([final, N.OMul([C, W_O]),
                          N.OMul([row_bmat(H, lambda h: heads[h - 1].O), blocks]),
                          N.OSum([N.OMul([hs.O, hs.W_O]) for hs in heads])])),
            Step("attn_output_row", {"o_i": o_i, "c_i": c_i, "W_O": W_O, "i": I},
                 N.Chain([o_i, N.OMul([c_i, W_O]),
                          N.OSum([N.OMul([hs.O.vector(I), hs.W_O]) for hs in heads]),
                          N.OSum([N.SumOver(N.OMul([hs.O.symbol(I, T), hs.W_O.vector(T)]),
                                            T, 1, cfg.d_v) for hs in heads])])),
        ]
        if cfg.concrete:
            names = table(cfg.m, D, final.symbol)
            values = table(cfg.m, D, lambda r, c: N.OSum(
                [N.OMul([hs.O.entry(r, t), hs.W_O.entry(t, c)])
                 for hs in heads for t in range(1, cfg.d_v + 1)]))
            steps.append(Step("attn_output_entries", {"O": final},
                              N.Chain([final, names, N.Entrywise(names, values)])))
        return steps


def _label(tex: str, text: str | None = None) -> N.Label:
    return N.Label(tex, text if text is not None else tex)
