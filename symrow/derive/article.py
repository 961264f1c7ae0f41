"""The article's own path through one product: sections 1 to 4 of the reference.

When a formula is a single product of two operands (``AB`` or ``AB^T``), its
derivation follows the article in full: A as a vector sequence (section 1),
the product as a map between point clouds (section 2), then the product
itself, read as combine (section 3) or match (section 4), with its row
formula, the weights and points it uses, its entries and a summary.

Parts (see :attr:`symrow.Derivation.parts`): ``vecseq``, ``maps``,
``product``, with its ``product.row``, ``product.entries`` and
``product.summary``.
"""

from __future__ import annotations

from .. import nodes as N
from ..build import (I, J, K, column, entry_of, entries_bmat, indices, items, nested_rows,
                     row_bmat, row_bmat_of, stack, table)
from ..seq import VecSeq
from ..steps import Step
from .plan import Plan

__all__ = ["article_steps", "intro_steps", "is_article"]


def is_article(plan: Plan) -> bool:
    """A single product (combine or match) of two different operands, nothing else
    (``XX^T`` matches a sequence with itself: no point maps to one row alone)."""
    r = plan.result
    return r.reading in ("combine", "match") and all(
        x.reading == "operand" for x in r.inputs) and len(plan.nodes) == 3


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
             N.Chain([A, entries_bmat(A)]), part="vecseq"),
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


def _operands(A: VecSeq, B: VecSeq, C: VecSeq) -> N.Group:
    return N.Group([N.Rel(N.Chain([X, stack(X)]), "in", N.Space(X.rows, X.cols))
                    for X in (A, B, C)])


def article_steps(plan: Plan) -> list[Step]:
    """The whole derivation of a single product, as the article reads it."""
    node = plan.result
    A, B = (x.seq for x in node.inputs)
    C = node.seq
    if node.reading == "combine":
        return intro_steps(A, B, C, "combine") + _combine(A, B, C)
    return intro_steps(A, B, C, "match") + _match(A, B, C)


def _combine(A: VecSeq, B: VecSeq, C: VecSeq) -> list[Step]:
    """Section 3: ``C = AB`` read as combine, ``c_i = sum_j a_ij b_j = a_i B``."""
    m, ell = A.rows, A.cols
    i, j = I, J
    a_i, c_i = A.vector(i), C.vector(i)

    def weighted_rows(r):
        return N.OSum([N.Dots("c") if jj is None else N.OMul([entry_of(A, r, jj), B.vector(jj)])
                       for jj in indices(ell)])

    return [
        Step("heading", {"topic": "combine", "AB": N.OMul([A, B])}, part="product"),
        Step("operands_combine", {"AB": N.OMul([A, B]), "A": A, "B": B, "C": C},
             _operands(A, B, C), part="product"),
        Step("components", {"A": A}, N.Chain([A, nested_rows(A)]), part="product"),
        Step("product_combine", {"AB": N.OMul([A, B]), "C": C},
             N.Chain([N.OMul([A, B]), N.OMul([nested_rows(A), stack(B)]),
                      column(m, weighted_rows), stack(C), C]), part="product"),
        Step("extract_row_combine", {"c_i": c_i, "C": C, "i": i},
             N.Chain([c_i, weighted_rows(i),
                      N.SumOver(N.OMul([A.symbol(i, j), B.vector(j)]), j, 1, ell),
                      N.OMul([a_i, B])]), part="product.row"),
        Step("weights", {"a_i": a_i, "c_i": c_i, "A": A, "ell": ell},
             items(ell, lambda jj: A.symbol(i, jj)), part="product.row"),
        Step("combined_points", {"B": B, "c_i": c_i, "ell": ell},
             items(ell, B.vector), part="product.row"),
        Step("entries_combine", {"C": C, "variant": "concrete" if A.concrete else "general"},
             _combine_entries(A, B, C), part="product.entries"),
        Step("summary_combine", {"AB": N.OMul([A, B]), "A": A, "B": B, "C": C, "a_i": a_i},
             N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, B])])), part="product.summary"),
    ]


def _combine_entries(A: VecSeq, B: VecSeq, C: VecSeq):
    """General: c_ik = a_i1 b_1k + ... = sum_j a_ij b_jk.  Concrete: the whole C."""
    ell = A.cols
    if not A.concrete:
        i, j, k = I, J, K
        return N.Chain([C.symbol(i, k),
                        N.OSum([N.Dots("c") if jj is None else
                                N.OMul([A.symbol(i, jj), B.symbol(jj, k)])
                                for jj in indices(ell)]),
                        N.SumOver(N.OMul([A.symbol(i, j), B.symbol(j, k)]), j, 1, ell)])

    def entry(r, c):
        return N.OSum([N.OMul([A.entry(r, jj), B.entry(jj, c)]) for jj in indices(ell)])
    names = table(C.rows, C.cols, C.symbol)
    return N.Chain([C, names, N.Entrywise(names, table(C.rows, C.cols, entry))])


def _match(A: VecSeq, B: VecSeq, C: VecSeq) -> list[Step]:
    """Section 4: ``C = AB^T`` read as match, ``c_i = [a_i.b_1 ... a_i.b_n] = a_i B^T``."""
    m, ell, n = A.rows, A.cols, B.rows
    i = I
    a_i, c_i = A.vector(i), C.vector(i)
    BT = N.Transpose(B)
    BT_prod = N.OMul([A, BT])
    bT_row = row_bmat(n, lambda jj: N.Transpose(B.vector(jj)))

    def dots_row(r):
        return row_bmat(n, lambda jj: N.Dot(A.vector(r), B.vector(jj)))

    return [
        Step("heading", {"topic": "match", "ABT": BT_prod}, part="product"),
        Step("operands_match", {"ABT": BT_prod, "A": A, "B": B, "C": C},
             _operands(A, B, C), part="product"),
        Step("transpose_points", {"B": B, "BT": BT, "ell": ell, "n": n},
             N.Rel(N.Chain([BT, bT_row]), "in", N.Space(ell, n)), part="product"),
        Step("product_match", {"ABT": BT_prod, "A": A, "BT": BT, "C": C},
             N.Chain([N.OMul([A, BT]), N.OMul([stack(A), bT_row]),
                      table(m, n, lambda r, c: N.Dot(A.vector(r), B.vector(c))),
                      stack(C), C]), part="product"),
        Step("extract_row_match", {"c_i": c_i, "C": C, "i": i},
             N.Chain([c_i, dots_row(i), N.OMul([a_i, BT])]), part="product.row"),
        Step("matched_points", {"a_i": a_i, "B": B, "c_i": c_i, "n": n},
             items(n, B.vector), part="product.row"),
        Step("entries_match", {"C": C, "variant": "concrete" if A.concrete else "general"},
             _match_entries(A, B, C), part="product.entries"),
        Step("summary_match", {"ABT": BT_prod, "A": A, "B": B, "C": C, "a_i": a_i},
             N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, BT])])), part="product.summary"),
    ]


def _match_entries(A: VecSeq, B: VecSeq, C: VecSeq):
    """General: c_ij = a_i.b_j = a_i1 b_j1 + ... = sum_k a_ik b_jk.  Concrete: the whole C."""
    ell = A.cols
    if not A.concrete:
        i, j, k = I, J, K
        return N.Chain([C.symbol(i, j), N.Dot(A.vector(i), B.vector(j)),
                        N.OSum([N.Dots("c") if kk is None else
                                N.OMul([A.symbol(i, kk), B.symbol(j, kk)])
                                for kk in indices(ell)]),
                        N.SumOver(N.OMul([A.symbol(i, k), B.symbol(j, k)]), k, 1, ell)])

    def entry(r, c):
        return N.OSum([N.OMul([A.entry(r, kk), B.entry(c, kk)]) for kk in indices(ell)])
    names = table(C.rows, C.cols, C.symbol)
    return N.Chain([C, names, table(C.rows, C.cols, lambda r, c: N.Dot(A.vector(r), B.vector(c))),
                    N.Entrywise(names, table(C.rows, C.cols, entry))])
