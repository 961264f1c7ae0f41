"""The products: combine (結合), match (照合), and the combine over the data points.

* :class:`Combine`: ``C = L R``; row i of C combines the points of R, weighted
  by the components of l_i: ``c_i = sum_j l_ij r_j = l_i R``;
* :class:`Match`: ``C = L R^T``; row i of C holds the inner products of l_i
  with every point of R: ``c_i = [l_i . r_1 ... l_i . r_n] = l_i R^T``;
* :class:`TCombine`: ``C = A^T B = sum_i a_i^T b_i``, the one product the
  reference article does not name: a sum of outer products over the data
  points.

A single product of two operands follows the article's own path (sections 1
to 4 of the reference); that is an option of the same step builder
(``ctx.article``), which shares its displays with the generic path.

>>> a, b = sympy.symbols("a b")
>>> Combine.evaluate([sympy.Matrix([[1, 2]]), sympy.Matrix([[a], [b]])])
Matrix([[a + 2*b]])
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import (I, J, K, T, column, entry_of, items, nested_rows, row_bmat, row_bmat_of,
                      stack, table)
from ...seq import VecSeq
from ...steps import Step
from ...formula import expr as E
from .base import (JP, MIXING, L, Ctx, Example, Reading, entrywise, register, run, scalar_node,
                   stack_of, variant)
from .entrywise import Scale
from .rowwise import Causal, Mask, Softmax

__all__ = ["Combine", "Match", "TCombine", "intro_steps", "matrix_product"]


def matrix_product(left, right, cls=sympy.ImmutableMatrix):
    """The matrix product, each entry one ``Add`` of its products.

    The same value as ``left * right``; SymPy's own product first asks of
    every entry whether ``0 * entry`` is 0, which for entries such as
    softmax weights means assumption queries that cost more than the
    product itself.  ``cls``: the kind of matrix returned."""
    inner = left.shape[1]
    # the entries as lists: indexing a SymPy matrix entry by entry costs more than the
    # products of symbols themselves
    rows, cols = left.tolist(), right.tolist()
    return cls(left.shape[0], right.shape[1], lambda i, j: sympy.Add(
        *[rows[i][t] * cols[t][j] for t in range(inner)]))


def _points(seq: VecSeq) -> N.Rel:
    """``B = [b_1; b_2] ∈ ℝ^{2×2}``, with its numbers when it was given them."""
    chain = [seq, stack(seq)]
    if seq.concrete and seq.values is not None:
        chain.append(N.Bmat(sympy.Matrix(seq.values).tolist()))
    return N.Rel(N.Chain(chain), "in", N.Space(seq.rows, seq.cols))


@register
class Combine(Reading):
    """``C = L R``: row i of C combines the points of R, weighted by the components of l_i."""

    reading = "combine"
    kind = MIXING
    always_named = True
    product = "combine"
    article = True
    example = Example("XW", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return matrix_product(args[0], args[1], sympy.Matrix)

    def mask(self):
        left = self.inputs[0]
        return left.mask() if left.distribution else None

    def weighs(self, node):
        return self.inputs[0] is node

    def general(self, get, plan):
        return get(self.inputs[0]) * get(self.inputs[1])

    def definition(self, parts):
        return N.OMul(parts)

    def row_formula(self):
        return N.OMul([self.inputs[0].row(I), self.inputs[1].whole()])

    @classmethod
    def preferred_names(cls, node, plan):
        left, right = node.inputs
        out = []
        if left.cls.distribution and node is plan.result:
            out.append("O")
        if right.cls.given and left.cls.given:
            seq = right.seq
            if seq.sub and len(seq.sub) == 1 and seq.sub.isalpha() and seq.sub.isupper():
                out.append(seq.sub + (f"^({seq.head})" if seq.head else ""))
            sup = seq.parts.sup or ""
            if len(sup) == 1 and sup.isalpha() and sup.isupper():  # X W_i^Q: Q
                out.append(sup)
        return out

    # -- what it writes ----------------------------------------------------------------
    def terms(self, plan, shown_combine=True):
        a, b = self.inputs
        total = 0
        found = self.expandable()
        if not (found and not shown_combine):
            total += self.rows * self.cols * a.cols
        if found:
            mtch, _, V = found
            causal = Causal(self.mask())
            d = mtch.inputs[0].cols
            counts = [causal.last(i, a.cols) for i in range(1, self.rows + 1)]
            total += V.cols * d * sum(c * (c + 1) for c in counts)
        return total

    def _weighted(self, r, last=None):
        left, right = self.inputs
        return run(left.cols, lambda j: N.OMul([left.entry(r, j), right.row(j)]), last)

    def _row_display(self, last=None):
        """``c_i = l_i1 r_1 + ... = sum_j l_ij r_j = l_i R``."""
        left, right = self.inputs
        chain = [self.seq.vector(I), self._weighted(I, last),
                 N.SumOver(N.OMul([left.entry_symbol(I, J), right.row(J)]), J, 1,
                           left.cols if last is None else last)]
        if last is None:
            chain.append(N.OMul([left.row(I), right.whole()]))
        return N.Chain(chain)

    def _entries_display(self, k=K, last=None):
        """General: ``c_ik = l_i1 r_1k + ... = sum_j l_ij r_jk``; concrete: every entry."""
        left, right = self.inputs
        inner = left.cols
        if not self.concrete:
            return N.Chain([self.seq.symbol(I, k),
                            run(inner, lambda j: N.OMul([left.entry_symbol(I, j),
                                                         right.entry_symbol(j, k)]), last),
                            N.SumOver(N.OMul([left.entry_symbol(I, J),
                                              right.entry_symbol(J, k)]), J, 1,
                                      last if last is not None else inner)])
        return entrywise(self, lambda r, c: N.OSum([
            N.OMul([left.entry(r, j), right.entry(j, c)]) for j in range(1, inner + 1)]))

    # -- the steps ---------------------------------------------------------------------
    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        if ctx.article:
            return self._article(ctx)
        left, right = self.inputs
        C = self.seq
        inner = left.cols
        causal = Causal(self.mask())
        weights = left.distribution
        LR = N.OMul([left.whole(), right.whole()])
        l_i, c_i = left.row(I), C.vector(I)
        steps = [
            ctx.heading("combine", AB=LR, part=part),
            # C = LR = [c_1; ...] = [the sums]: the sums last, as a matrix whose rows are
            # named, so that a line too narrow for it shows c_1 = ..., c_2 = ... instead
            ctx.step("combine_product", {"LR": LR, "C": C, "L": left.whole(),
                                         "R": right.whole()},
                     N.Chain([C, LR, stack_of(self),
                              N.Entrywise(stack_of(self), column(self.rows, self._weighted))]),
                     part=part),
            ctx.step("combine_row", {"c_i": c_i, "C": C, "i": I, "l_i": l_i,
                                     "L": left.whole(), "R": right.whole()},
                     self._row_display(), part=part + ".row"),
        ]
        if causal.on:
            if ctx.concrete:
                shown = N.Group([N.Chain([C.vector(r), self._weighted(r, causal.visible(r))])
                                 for r in range(1, self.rows + 1)])
            else:
                shown = self._row_display(causal.last(I, inner))
            steps.append(ctx.step("combine_causal", {
                "c_i": c_i, "i": I, "r_1": right.row(1),
                "r_i": right.row(causal.last(I, inner)),
                "variant": "square" if causal.m == causal.n else "offset"}, shown,
                part=part + ".row"))
        k = L if ctx.style == "attention" else K
        if not ctx.concrete:
            last = causal.last(I, inner) if causal.on else None
            steps.append(ctx.step("combine_entry", {"c_ik": C.symbol(I, k), "k": k, "C": C,
                                                    "variant": "general"},
                                  self._entries_display(k, last), part=part + ".entries"))
        elif ctx.style != "attention":
            steps.append(ctx.step("combine_entry", {"C": C, "variant": "concrete"},
                                  self._entries_display(), part=part + ".entries"))
        if weights:
            matched = left.matched()
            q_i = matched.row(I) if matched is not None else None
            steps.append(ctx.step("combine_read", {"c_i": c_i, "l_i": l_i, "R": right.whole(),
                                                   "q_i": q_i,
                                                   "variant": "match" if q_i is not None
                                                   else "plain"}, part=part + ".row"))
        return steps

    def _article(self, ctx: Ctx) -> list[Step]:
        """Section 3 of the reference: ``C = AB`` read as combine, ``c_i = sum_j a_ij b_j``."""
        A, B = (x.seq for x in self.inputs)
        C = self.seq
        m, ell = A.rows, A.cols
        a_i, c_i = A.vector(I), C.vector(I)
        AB = N.OMul([A, B])
        return intro_steps(A, B, C, "combine") + [
            Step("heading", {"topic": "combine", "AB": AB}, part="product"),
            Step("operands_combine", {"AB": AB, "A": A, "B": B, "C": C},
                 N.Group([_points(X) for X in (A, B, C)]), part="product"),
            Step("components", {"A": A}, N.Chain([A, nested_rows(A)]), part="product"),
            Step("product_combine", {"AB": AB, "C": C},
                 N.Chain([AB, N.OMul([nested_rows(A), stack(B)]),
                          column(m, self._weighted), stack(C), C]), part="product"),
            Step("extract_row_combine", {"c_i": c_i, "C": C, "i": I},
                 self._row_display(), part="product.row"),
            Step("weights", {"a_i": a_i, "c_i": c_i, "A": A, "ell": ell},
                 items(ell, lambda jj: A.symbol(I, jj)), part="product.row"),
            Step("combined_points", {"B": B, "c_i": c_i, "ell": ell},
                 items(ell, B.vector), part="product.row"),
            Step("entries_combine", {"C": C, "variant": variant(ctx)},
                 self._entries_display(), part="product.entries"),
            Step("summary_combine", {"AB": AB, "A": A, "B": B, "C": C, "a_i": a_i},
                 N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, B])])),
                 part="product.summary"),
        ]

    # -- the full expansion of a softmax-weighted combine --------------------------------
    def expandable(self) -> tuple | None:
        """(match, scale, V) when this is ``softmax(match [/ scale] [+ mask]) V`` with
        named operands, so that every entry can be written in their components."""
        if not isinstance(self.inputs[0], Softmax):
            return None
        sm, V = self.inputs
        src = sm.scores()
        den = None
        if isinstance(src, Scale):
            if src.num != 1:
                return None
            den = src.den
            src = src.inputs[0]
        if not isinstance(src, Match) or not all(x.named for x in src.inputs) or not V.named:
            return None
        return src, den, V

    def expansion(self, ctx: Ctx, part: str = "expansion") -> list[Step]:
        """Every o_i and o_il in the entries of Q, K and V alone, as one fraction."""
        found = self.expandable()
        if found is None:
            return []
        mtch, den, Vn = found
        Q, K_ = (x.seq for x in mtch.inputs)
        V, O = Vn.seq, self.seq
        causal = Causal(self.mask())
        plan = ctx.plan
        if den is None:
            scale = None
        elif plan.scale_mode == "number":
            value = plan.scalar(den)
            scale = None if value == 1 else value
        else:
            scale = scalar_node(den)
        d, n = Q.cols, K_.rows
        steps = [ctx.heading("expansion", part=part)]
        params = {"o_i": O.vector(I), "o_il": O.symbol(I, L), "Q": Q, "K": K_, "V": V,
                  "variant": variant(ctx)}
        if ctx.concrete:
            keys = [tuple(K_.symbol(j, t) for t in range(1, d + 1)) for j in range(1, n + 1)]
            queries = [tuple(Q.symbol(i, t) for t in range(1, d + 1))
                       for i in range(1, Q.rows + 1)]
            vectors = tuple(V.vector(j) for j in range(1, n + 1))
            columns = [tuple(V.symbol(j, l) for j in range(1, n + 1))
                       for l in range(1, V.cols + 1)]
            rows = N.SoftmaxExpansion(
                [(O.vector(i), queries[i - 1], causal.last(i, n), vectors)
                 for i in range(1, O.rows + 1)], keys, scale)
            entries = N.SoftmaxExpansion(
                [(O.symbol(i, l), queries[i - 1], causal.last(i, n), columns[l - 1])
                 for i in range(1, O.rows + 1) for l in range(1, V.cols + 1)], keys, scale)
        else:
            last = causal.last(I, n)

            def sc(x):
                return x if scale is None else N.Frac(x, scale)

            def general(weight, exponent):
                # the weights share their denominator: written once, under the whole sum
                return N.Frac(N.SumOver(N.OMul([N.Exp(sc(exponent(J))), weight]), J, 1, last),
                              N.SumOver(N.Exp(sc(exponent(JP))), JP, 1, last))

            rows = N.Chain([O.vector(I), general(V.vector(J), lambda j: N.Dot(
                Q.vector(I), K_.vector(j)))])
            entries = N.Chain([O.symbol(I, L), general(V.symbol(J, L), lambda j: N.SumOver(
                N.OMul([Q.symbol(I, T), K_.symbol(j, T)]), T, 1, d))])
        steps += [ctx.step("expand_rows", params, rows, part=part),
                  ctx.step("expand_entries", params, entries, part=part)]
        return steps

    # -- the backward pass ---------------------------------------------------------------
    def as_expr(self, args):
        return E.Product(*args)

    def backward(self, g, bw):
        """C = L R: L̄ = C̄ Rᵀ (a match), R̄ = Lᵀ C̄ (a combine over the points)."""
        L, R = self.inputs
        return [(0, E.Product(g, E.Transpose(bw.ref(R)))),
                (1, E.Product(E.Transpose(bw.ref(L)), g))]



@register
class Match(Reading):
    """``C = L R^T``: row i of C holds the inner products of l_i with every point of R."""

    reading = "match"
    kind = MIXING
    always_named = True
    product = "match"
    article = True
    example = Example("XW^T", {"X": (2, 2), "W": (1, 2)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return matrix_product(args[0], args[1].T, sympy.Matrix)

    def matched(self):
        return self.inputs[0]

    def general(self, get, plan):
        return get(self.inputs[0]) * get(self.inputs[1]).T

    def definition(self, parts):
        return N.OMul([parts[0], N.Transpose(parts[1])])

    def row_formula(self):
        return N.OMul([self.inputs[0].row(I), N.Transpose(self.inputs[1].whole())])

    def terms(self, plan, shown_combine=True):
        return self.rows * self.cols * self.inputs[0].cols

    @classmethod
    def preferred_names(cls, node, plan):
        # the scores of a softmax, seen through a scaling or a mask
        consumers = plan.consumers(node)
        while consumers and issubclass(consumers[0].cls, (Scale, Mask)):
            consumers = plan.consumers(consumers[0])
        return ["S"] if consumers and consumers[0].cls.distribution else []

    def _row_display(self):
        left, right = self.inputs
        l_i = left.row(I)
        return N.Chain([self.seq.vector(I), row_bmat(right.rows, lambda c: N.Dot(
            l_i, right.row(c))), N.OMul([l_i, N.Transpose(right.whole())])])

    def _entry_general(self, t=K):
        """``c_ij = l_i . r_j = l_i1 r_j1 + ... = sum_t l_it r_jt``."""
        left, right = self.inputs
        return N.Chain([
            self.seq.symbol(I, J), N.Dot(left.row(I), right.row(J)),
            run(left.cols, lambda tt: N.OMul([left.entry_symbol(I, tt),
                                              right.entry_symbol(J, tt)])),
            N.SumOver(N.OMul([left.entry_symbol(I, t), right.entry_symbol(J, t)]), t, 1,
                      left.cols)])

    def _entries_concrete(self):
        left, right = self.inputs
        return lambda r, c: N.OSum([N.OMul([left.entry(r, t), right.entry(c, t)])
                                    for t in range(1, left.cols + 1)])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        if ctx.article:
            return self._article(ctx)
        left, right = self.inputs
        C = self.seq
        RT = N.Transpose(right.whole())
        LRT = N.OMul([left.whole(), RT])
        l_i, c_i = left.row(I), C.vector(I)
        n = right.rows
        steps = [
            ctx.heading("match", ABT=LRT, part=part),
            ctx.step("match_product", {"C": C, "LRT": LRT, "L": left.whole(),
                                       "R": right.whole()},
                     N.Chain([C, LRT,
                              N.OMul([stack_of(left), row_bmat(n, lambda c: N.Transpose(
                                  right.row(c)))]),
                              table(self.rows, n, lambda r, c: N.Dot(left.row(r),
                                                                     right.row(c)))]),
                     part=part),
            ctx.step("match_row", {"c_i": c_i, "l_i": l_i, "C": C, "R": right.whole(), "i": I},
                     self._row_display(), part=part + ".row"),
        ]
        short = None
        if ctx.concrete:
            display = entrywise(self, self._entries_concrete())
            if left.named and right.named:
                # entry (i, j) for every i and j: what a shortened rendering shows
                short = N.Chain([C.symbol(I, J), N.OSum([
                    N.OMul([left.entry_symbol(I, tt), right.entry_symbol(J, tt)])
                    for tt in range(1, left.cols + 1)])])
        else:
            display = self._entry_general(T if ctx.style == "attention" else K)
        params = {"c_ij": C.symbol(I, J), "l_i": l_i, "r_j": right.row(J), "dim": left.cols,
                  "C": C, "variant": variant(ctx)}
        if short is not None:
            params["short"] = short
        steps.append(ctx.step("match_entry", params, display, part=part + ".entries"))
        return steps

    def _article(self, ctx: Ctx) -> list[Step]:
        """Section 4 of the reference: ``C = AB^T`` read as match."""
        A, B = (x.seq for x in self.inputs)
        C = self.seq
        m, ell, n = A.rows, A.cols, B.rows
        a_i, c_i = A.vector(I), C.vector(I)
        BT = N.Transpose(B)
        ABT = N.OMul([A, BT])
        bT_row = row_bmat(n, lambda jj: N.Transpose(B.vector(jj)))
        dots = table(m, n, lambda r, c: N.Dot(A.vector(r), B.vector(c)))
        if ctx.concrete:
            names = table(C.rows, C.cols, C.symbol)
            entries = N.Chain([C, names, dots, N.Entrywise(names, table(
                C.rows, C.cols, self._entries_concrete()))])
        else:
            entries = self._entry_general()
        return intro_steps(A, B, C, "match") + [
            Step("heading", {"topic": "match", "ABT": ABT}, part="product"),
            Step("operands_match", {"ABT": ABT, "A": A, "B": B, "C": C},
                 N.Group([_points(X) for X in (A, B, C)]), part="product"),
            Step("transpose_points", {"B": B, "BT": BT, "ell": ell, "n": n},
                 N.Rel(N.Chain([BT, bT_row]), "in", N.Space(ell, n)), part="product"),
            Step("product_match", {"ABT": ABT, "A": A, "BT": BT, "C": C},
                 N.Chain([ABT, N.OMul([stack(A), bT_row]), dots, stack(C), C]),
                 part="product"),
            Step("extract_row_match", {"c_i": c_i, "C": C, "i": I},
                 self._row_display(), part="product.row"),
            Step("matched_points", {"a_i": a_i, "B": B, "c_i": c_i, "n": n},
                 items(n, B.vector), part="product.row"),
            Step("entries_match", {"C": C, "variant": variant(ctx)}, entries,
                 part="product.entries"),
            Step("summary_match", {"ABT": ABT, "A": A, "B": B, "C": C, "a_i": a_i},
                 N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, BT])])),
                 part="product.summary"),
        ]

    def as_expr(self, args):
        return E.Product(args[0], E.Transpose(args[1]))

    def backward(self, g, bw):
        """C = L Rᵀ: L̄ = C̄ R (a combine), R̄ = C̄ᵀ L (a combine over the points)."""
        L, R = self.inputs
        return [(0, E.Product(g, bw.ref(R))), (1, E.Product(E.Transpose(g), bw.ref(L)))]



@register
class TCombine(Reading):
    """``C = A^T B = sum_i a_i^T b_i``: row j of C combines the points of B, weighted by
    column j of A (the points of A^T are the columns of A)."""

    reading = "tcombine"
    kind = MIXING
    always_named = True
    product = "combine"
    pointwise = False
    example = Example("X^T W", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return matrix_product(args[0].T, args[1], sympy.Matrix)

    def general(self, get, plan):
        return get(self.inputs[0]).T * get(self.inputs[1])

    def definition(self, parts):
        return N.OMul([N.Transpose(parts[0]), parts[1]])

    def terms(self, plan, shown_combine=True):
        return self.rows * self.cols * self.inputs[0].rows

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        left, right = self.inputs
        C = self.seq
        data = left.rows
        ATB = N.OMul([N.Transpose(left.whole()), right.whole()])
        outer = (N.SumOver(N.OMul([N.Transpose(left.row(I)), right.row(I)]), I, 1, data)
                 if not ctx.concrete else
                 N.OSum([N.OMul([N.Transpose(left.row(r)), right.row(r)])
                         for r in range(1, data + 1)]))
        c_j = C.vector(J)
        steps = [
            ctx.heading("tcombine", ATB=ATB, part=part),
            ctx.step("tcombine_outer", {"ATB": ATB, "A": left.whole(), "B": right.whole(),
                                        "C": C, "data": data,
                                        "outer": N.OMul([N.Transpose(left.row(I)),
                                                         right.row(I)])},
                     N.Chain([C, ATB, outer]), part=part),
            ctx.step("tcombine_row", {"c_j": c_j, "j": J, "A": left.whole(),
                                      "B": right.whole(), "C": C},
                     N.Chain([c_j, run(data, lambda r: N.OMul([left.entry(r, J),
                                                                right.row(r)])),
                              N.SumOver(N.OMul([left.entry_symbol(I, J), right.row(I)]), I, 1,
                                        data)]), part=part + ".row"),
        ]
        if ctx.concrete:
            display = entrywise(self, lambda r, c: N.OSum([
                N.OMul([left.entry(t, r), right.entry(t, c)]) for t in range(1, data + 1)]))
        else:
            display = N.Chain([C.symbol(J, K),
                               run(data, lambda r: N.OMul([left.entry_symbol(r, J),
                                                           right.entry_symbol(r, K)])),
                               N.SumOver(N.OMul([left.entry_symbol(I, J),
                                                 right.entry_symbol(I, K)]), I, 1, data)])
        steps.append(ctx.step("tcombine_entry", {"C": C, "variant": variant(ctx)}, display,
                              part=part + ".entries"))
        return steps

    def as_expr(self, args):
        return E.Product(E.Transpose(args[0]), args[1])

    def backward(self, g, bw):
        """C = Aᵀ B: Ā = B C̄ᵀ (a match), B̄ = A C̄ (a combine)."""
        A, B = self.inputs
        return [(0, E.Product(bw.ref(B), E.Transpose(g))), (1, E.Product(bw.ref(A), g))]



def intro_steps(A: VecSeq, B: VecSeq, C: VecSeq, product: str) -> list[Step]:
    """Sections 1 and 2 of the article: A as a vector sequence, the product as a map.

    ``product`` is ``"combine"`` or ``"match"``: the one this derivation follows.
    The two products are shown side by side as expressions; with the shapes of
    one of them, the other is usually not even defined, so neither is claimed
    to equal C.
    """
    i = I
    m, ell, n = A.rows, A.cols, C.cols
    a_i, c_i = A.vector(i), C.vector(i)
    return [
        Step("heading", {"topic": "vecseq"}, part="vecseq"),
        Step("entries", {"A": A, "m": m, "ell": ell, "shape": N.Rel(m, "times", ell)},
             N.Chain([A, table(A.rows, A.cols, lambda r, c: entry_of(A, r, c))]),
             part="vecseq"),
        Step("stack", {"A": A, "m": m, "ell": ell},
             N.Rel(N.Chain([A, stack(A)]), "in", N.Space(m, ell)), part="vecseq"),
        Step("points", {"A": A, "m": m}, items(m, A.vector), part="vecseq"),
        Step("row", {"a_i": a_i, "i": i, "ell": ell},
             N.Chain([a_i, row_bmat_of(A, i)]), part="vecseq"),
        Step("shapes", {"A": A, "B": B, "C": C},
             N.Group([N.Rel(A, "in", N.Space(m, ell)), N.Rel(C, "in", N.Space(m, n))]),
             part="vecseq"),
        Step("heading", {"topic": "maps"}, part="maps"),
        Step("products", {"AB": N.OMul([A, B]), "ABT": N.OMul([A, N.Transpose(B)]),
                          "variant": product},
             N.Group([N.OMul([A, B]), N.OMul([A, N.Transpose(B)])]), part="maps"),
        Step("map", {"A": A, "C": C, "m": m, "ell": ell, "n": n}, N.Rel(A, "to", C),
             part="maps"),
        Step("point_map", {"a_i": a_i, "c_i": c_i, "i": i, "A": A, "C": C},
             N.Rel(a_i, "mapsto", c_i), part="maps"),
    ]
