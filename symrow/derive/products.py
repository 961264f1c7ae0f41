"""The two product types as step-by-step derivations: presets of the planner.

* :func:`combine` derives ``C = AB`` (結合): ``c_i = sum_j a_ij b_j = a_i B``;
  row i of C mixes every row of B, weighted by the components of a_i.
* :func:`match` derives ``C = AB^T`` (照合): ``c_i = [a_i.b_1 ... a_i.b_n]``;
  row i of C holds the inner products of a_i with every row of B.

Both are the formulas ``AB`` and ``AB^T`` read by the planner; a single
product follows the reference article's sections 1-4 in order: the vector
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

from ..errors import ShapeError, SizeError
from ..formula import expr as E
from ..seq import VecSeq, check_distinct
from ..steps import Derivation
from .explain import derive_product

__all__ = ["combine", "match"]


def _require_vecseq(x, what: str) -> VecSeq:
    if not isinstance(x, VecSeq):
        raise SizeError(f"{what} must be a vector sequence made with symrow.vecseq(); "
                        f"got {type(x).__name__}")
    return x


def _shape(seq: VecSeq) -> str:
    return f"{seq.rows} x {seq.cols}"


def _check_pair(A, B, kind: str) -> tuple[VecSeq, VecSeq]:
    A = _require_vecseq(A, f"{kind}'s first operand")
    B = _require_vecseq(B, f"{kind}'s second operand")
    if A.concrete != B.concrete:
        raise ShapeError(f"{kind}: {A.name} is {_shape(A)} and {B.name} is {_shape(B)}; "
                         f"sizes must be all integers (concrete) or all symbols (general)")
    return A, B


def _derive(kind: str, A: VecSeq, B: VecSeq, name: str, transpose: bool) -> Derivation:
    right = E.Transpose(E.Name(B.name)) if transpose else E.Name(B.name)
    formula = E.Formula(((name, E.Product(E.Name(A.name), right)),), name)
    rows, cols = A.rows, (B.rows if transpose else B.cols)
    check_distinct([A, B], VecSeq(name, rows, cols, max_dim=max(rows, cols) if isinstance(
        rows, int) else None))
    return derive_product(kind, formula, {A.name: A, B.name: B})


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
    return _derive("combine", A, B, name, transpose=False)


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
    return _derive("match", A, B, name, transpose=True)
