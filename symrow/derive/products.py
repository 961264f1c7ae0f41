"""The two product types as step-by-step derivations.

* :func:`combine` derives ``C = AB`` (結合): ``c_i = sum_j a_ij b_j = a_i B``;
  row i of C mixes every row of B, weighted by the components of a_i.
* :func:`match` derives ``C = AB^T`` (照合): ``c_i = [a_i.b_1 ... a_i.b_n]``;
  row i of C holds the inner products of a_i with every row of B.

Both follow the reference article's sections 1-4 in order: the vector
sequence, the product as a map, then the product itself.

>>> import symrow
>>> A, B = symrow.vecseq("A", 2, 3), symrow.vecseq("B", 2, 3)
>>> symrow.match(A, B).result[0, 1]
a_{11}*b_{21} + a_{12}*b_{22} + a_{13}*b_{23}
>>> symrow.combine(A, B)
Traceback (most recent call last):
...
symrow.errors.ShapeError: combine C = AB needs as many columns in A as rows in B; A is 2 x 3 and B is 2 x 3 (for C = AB^T, use symrow.match)
"""

from __future__ import annotations

import sympy

from .. import nodes as N
from ..errors import ShapeError, SizeError
from ..seq import VecSeq, check_distinct
from ..steps import Derivation, Step
from .common import (I, J, K, column, entry_of, entries_bmat, indices, items,
                     nested_rows, row_bmat, row_bmat_of, stack, table)

__all__ = ["combine", "match", "intro_steps"]


def _require_vecseq(x, what: str) -> VecSeq:
    if not isinstance(x, VecSeq):
        raise SizeError(f"{what} must be a vector sequence made with symrow.vecseq(); "
                        f"got {type(x).__name__}")
    return x


def _shape(seq: VecSeq) -> str:
    return f"{seq.rows} x {seq.cols}"


def intro_steps(A: VecSeq, B: VecSeq, C: VecSeq, product: str) -> list[Step]:
    """Sections 1 and 2 of the article: A as a vector sequence, the product as a map.

    ``product`` is ``"combine"`` or ``"match"``: the one this derivation follows.
    """
    i = I
    m, ell, n = A.rows, A.cols, C.cols
    a_i, c_i = A.vector(i), C.vector(i)
    return [
        Step("heading", {"topic": "vecseq"}),
        Step("entries", {"A": A, "m": m, "ell": ell, "shape": N.Rel(m, "times", ell)},
             N.Chain([A, entries_bmat(A)])),
        Step("stack", {"A": A, "m": m, "ell": ell},
             N.Rel(N.Chain([A, stack(A)]), "in", N.Space(m, ell))),
        Step("points", {"A": A, "m": m}, items(m, A.vector)),
        Step("row", {"a_i": a_i, "i": i, "ell": ell},
             N.Chain([a_i, row_bmat_of(A, i)])),
        Step("shapes", {"A": A, "B": B, "C": C},
             N.Group([N.Rel(A, "in", N.Space(m, ell)), N.Rel(C, "in", N.Space(m, n))])),
        Step("heading", {"topic": "maps"}),
        Step("products", {"AB": N.OMul([A, B]), "ABT": N.OMul([A, N.Transpose(B)]),
                          "variant": product},
             N.Group([N.Chain([C, N.OMul([A, B])]),
                      N.Chain([C, N.OMul([A, N.Transpose(B)])])])),
        Step("map", {"A": A, "C": C, "m": m, "ell": ell, "n": n}, N.Rel(A, "to", C)),
        Step("point_map", {"a_i": a_i, "c_i": c_i, "i": i, "A": A, "C": C},
             N.Rel(a_i, "mapsto", c_i)),
    ]


def _operands(A: VecSeq, B: VecSeq, C: VecSeq) -> N.Group:
    return N.Group([N.Rel(N.Chain([X, stack(X)]), "in", N.Space(X.rows, X.cols))
                    for X in (A, B, C)])


def _check_pair(A, B, kind: str) -> tuple[VecSeq, VecSeq]:
    A = _require_vecseq(A, f"{kind}'s first operand")
    B = _require_vecseq(B, f"{kind}'s second operand")
    if A.concrete != B.concrete:
        raise ShapeError(f"{kind}: {A.name} is {_shape(A)} and {B.name} is {_shape(B)}; "
                         f"sizes must be all integers (concrete) or all symbols (general)")
    return A, B


def _result_seq(name: str, rows, cols) -> VecSeq:
    # the operands passed their size limit; the result's sizes are theirs
    return VecSeq(name, rows, cols, max_dim=max(rows, cols) if isinstance(rows, int) else None)


def _derivation(kind: str, steps, A: VecSeq, B: VecSeq, C: VecSeq, *,
                transpose: bool) -> Derivation:
    """The Derivation of ``C = AB`` (or ``AB^T``): for concrete sizes the result
    is a Matrix, computed on first use; for general ones a matrix expression."""
    operands, options = {A.name: A, B.name: B}, {"name": C.name}
    if A.concrete:
        def quantities() -> dict:
            product = sympy.Matrix(A.matrix * (B.matrix.T if transpose else B.matrix))
            return {A.name: A.matrix, B.name: B.matrix, C.name: product}
    else:
        a = sympy.MatrixSymbol(A.name, A.rows, A.cols)
        b = sympy.MatrixSymbol(B.name, B.rows, B.cols)
        quantities = {A.name: a, B.name: b, C.name: a * (b.T if transpose else b)}
    return Derivation(kind, steps, operands=operands, quantities=quantities, result=C.name,
                      options=options)


def combine(A: VecSeq, B: VecSeq, *, name: str = "C") -> Derivation:
    """Derive ``C = AB`` read as combine (結合): ``c_i = sum_j a_ij b_j = a_i B``.

    ``A`` is m x l and ``B`` is l x n, both concrete or both general; the
    result ``name`` defaults to ``"C"``.  The derivation follows the
    article: A as a vector sequence, the product as a map ``a_i -> c_i``,
    then AB written out row by row.  Terms stay in index order, the factor
    from A before the factor from B.

    >>> import symrow
    >>> d = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
    >>> d.result
    A*B
    >>> row = next(s for s in d.steps if s.kind == "extract_row_combine")
    >>> print(symrow.render.latex.latex(row.display))
    \\boldsymbol{c}_{i} = a_{i1} \\boldsymbol{b}_{1} + a_{i2} \\boldsymbol{b}_{2} + \\cdots + a_{i\\ell} \\boldsymbol{b}_{\\ell} = \\sum_{j=1}^{\\ell} a_{ij} \\boldsymbol{b}_{j} = \\boldsymbol{a}_{i} B
    """
    A, B = _check_pair(A, B, "combine")
    if A.cols != B.rows:
        raise ShapeError(f"combine C = AB needs as many columns in {A.name} as rows in "
                         f"{B.name}; {A.name} is {_shape(A)} and {B.name} is {_shape(B)} "
                         f"(for C = AB^T, use symrow.match)")
    m, ell, n = A.rows, A.cols, B.cols
    C = _result_seq(name, m, n)
    check_distinct([A, B], C)
    i, j = I, J
    a_i, c_i = A.vector(i), C.vector(i)

    def weighted_rows(r):
        return N.OSum([N.Dots("c") if jj is None else N.OMul([entry_of(A, r, jj), B.vector(jj)])
                       for jj in indices(ell)])

    steps = intro_steps(A, B, C, "combine")
    steps += [
        Step("heading", {"topic": "combine", "AB": N.OMul([A, B])}),
        Step("operands_combine", {"AB": N.OMul([A, B]), "A": A, "B": B, "C": C},
             _operands(A, B, C)),
        Step("components", {"A": A}, N.Chain([A, nested_rows(A)])),
        Step("product_combine", {"AB": N.OMul([A, B]), "C": C},
             N.Chain([N.OMul([A, B]), N.OMul([nested_rows(A), stack(B)]),
                      column(m, weighted_rows), stack(C), C])),
        Step("extract_row_combine", {"c_i": c_i, "C": C, "i": i},
             N.Chain([c_i, weighted_rows(i),
                      N.SumOver(N.OMul([A.symbol(i, j), B.vector(j)]), j, 1, ell),
                      N.OMul([a_i, B])])),
        Step("weights", {"a_i": a_i, "c_i": c_i, "A": A, "ell": ell},
             items(ell, lambda jj: A.symbol(i, jj))),
        Step("combined_points", {"B": B, "c_i": c_i, "ell": ell},
             items(ell, B.vector)),
        Step("entries_combine", {"C": C, "variant": "concrete" if A.concrete else "general"},
             _combine_entries(A, B, C)),
        Step("summary_combine", {"AB": N.OMul([A, B]), "A": A, "B": B, "C": C, "a_i": a_i},
             N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, B])]))),
    ]
    return _derivation("combine", steps, A, B, C, transpose=False)


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


def match(A: VecSeq, B: VecSeq, *, name: str = "C") -> Derivation:
    """Derive ``C = AB^T`` read as match (照合): ``c_i = [a_i.b_1 ... a_i.b_n] = a_i B^T``.

    ``A`` is m x l and ``B`` is n x l: the rows of both are points in the
    same l-dimensional space, and every entry of C is an inner product.

    >>> import symrow
    >>> d = symrow.match(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "n", "ell"))
    >>> d.result
    A*B.T
    """
    A, B = _check_pair(A, B, "match")
    if A.cols != B.cols:
        raise ShapeError(f"match C = AB^T needs as many columns in {A.name} as in "
                         f"{B.name}; {A.name} is {_shape(A)} and {B.name} is {_shape(B)} "
                         f"(for C = AB, use symrow.combine)")
    m, ell, n = A.rows, A.cols, B.rows
    C = _result_seq(name, m, n)
    check_distinct([A, B], C)
    i = I
    a_i, c_i = A.vector(i), C.vector(i)
    BT = N.Transpose(B)
    BT_prod = N.OMul([A, BT])
    bT_row = row_bmat(n, lambda jj: N.Transpose(B.vector(jj)))

    def dots_row(r):
        return row_bmat(n, lambda jj: N.Dot(A.vector(r), B.vector(jj)))

    steps = intro_steps(A, B, C, "match")
    steps += [
        Step("heading", {"topic": "match", "ABT": BT_prod}),
        Step("operands_match", {"ABT": BT_prod, "A": A, "B": B, "C": C},
             _operands(A, B, C)),
        Step("transpose", {"B": B, "BT": BT, "ell": ell, "n": n},
             N.Rel(N.Chain([BT, bT_row]), "in", N.Space(ell, n))),
        Step("product_match", {"ABT": BT_prod, "A": A, "BT": BT, "C": C},
             N.Chain([N.OMul([A, BT]), N.OMul([stack(A), bT_row]),
                      table(m, n, lambda r, c: N.Dot(A.vector(r), B.vector(c))),
                      stack(C), C])),
        Step("extract_row_match", {"c_i": c_i, "C": C, "i": i},
             N.Chain([c_i, dots_row(i), N.OMul([a_i, BT])])),
        Step("matched_points", {"a_i": a_i, "B": B, "c_i": c_i, "n": n},
             items(n, B.vector)),
        Step("entries_match", {"C": C, "variant": "concrete" if A.concrete else "general"},
             _match_entries(A, B, C)),
        Step("summary_match", {"ABT": BT_prod, "A": A, "B": B, "C": C, "a_i": a_i},
             N.Rel(a_i, "mapsto", N.Chain([c_i, N.OMul([a_i, BT])]))),
    ]
    return _derivation("match", steps, A, B, C, transpose=True)


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
