"""Small value helpers shared by the evaluator of entries and the checker.

Values are SymPy scalars or immutable matrices.  A 1 x 1 matrix is read as
its one entry, so ``\\boldsymbol{a}_1 \\boldsymbol{b}_2^T`` is a number.

>>> import sympy
>>> from symrow.formula.values import row_softmax
>>> a, b = sympy.symbols("a b")
>>> row_softmax(sympy.ImmutableMatrix([[a, -sympy.oo]]))
Matrix([[1, 0]])
"""

from __future__ import annotations

import sympy

__all__ = ["is_matrix", "scalar_or_matrix", "assemble", "shape_text", "exp_of", "row_softmax",
           "Unsized", "RepeatedRow", "shape_of",
           "MathError", "UndefinedProduct", "Undecided", "NeedsValues"]


class MathError(Exception):
    """An expression that reads fine but means nothing (a product of mismatched shapes)."""


class UndefinedProduct(MathError):
    """A product of two matrices whose shapes do not fit (``kind`` says so to the checker,
    which reads a kind, not the words of a message)."""

    kind = "undefined product"


class Undecided(MathError):
    """The two sides could not be compared (they cannot be evaluated anywhere)."""


class NeedsValues(Undecided):
    """One side is a number and the other depends on operands without values.

    ``difference`` (a :class:`~.verify.Difference`) says how the two sides differ
    as identities: when the page gives no numbers anywhere, the claim is an
    identity, and this is why it is false.
    """

    def __init__(self, message: str, difference=None):
        super().__init__(message)
        self.difference = difference


def is_matrix(value) -> bool:
    return isinstance(value, sympy.MatrixBase)


def scalar_or_matrix(value):
    """A 1 x 1 matrix as its entry; other matrices as immutable matrices."""
    if is_matrix(value):
        if value.shape == (1, 1):
            return value[0, 0]
        return sympy.ImmutableMatrix(value)
    return value


def assemble(rows: list, what: str):
    """A matrix from rows of values, each a number or a block (a matrix): the
    blocks of a row must have one height, and the rows one width.  ``what``
    names the matrix in an error ("an explicit matrix")."""
    stacked = []
    for r, row in enumerate(rows, start=1):
        blocks = [v if is_matrix(v) else sympy.ImmutableMatrix([[v]]) for v in row]
        if len({b.rows for b in blocks}) != 1:
            raise MathError(f"row {r} of {what} mixes blocks of different heights")
        stacked.append(sympy.Matrix.hstack(*blocks))
    widths = {r.cols for r in stacked}
    if len(widths) != 1:
        raise MathError(f"the rows of {what} have different widths "
                        f"({', '.join(str(w) for w in sorted(widths))})")
    return scalar_or_matrix(sympy.Matrix.vstack(*stacked))


def shape_text(value) -> str:
    if is_matrix(value):
        return f"{value.rows} x {value.cols} matrix"
    return "number"


def exp_of(arg):
    """``exp(arg)``; an argument with a -oo term (a masked score) gives 0."""
    from ..derive import readings
    try:
        return readings.exp_of(arg)
    except ArithmeticError as e:
        raise MathError(str(e)) from None


def row_softmax(value):
    """Softmax along each row (a number's softmax is 1): the softmax reading's own
    evaluation (:meth:`symrow.derive.readings.Softmax.evaluate`), which the derivations use."""
    if not is_matrix(value):
        return sympy.S.One
    from ..derive import readings
    try:
        return scalar_or_matrix(sympy.ImmutableMatrix(readings.Softmax.evaluate([value])))
    except ArithmeticError as e:
        raise MathError(str(e)) from None



class Unsized:
    """The identity ``I``, the zero ``\\mathbf{0}`` or the ones ``\\mathbf{1}`` written
    without a size: it takes the size the other operand gives it.

    ``kind`` is ``I``, ``0`` or ``1``; ``scale`` a number it is multiplied by;
    ``row`` whether a ``\\mathbf{1}`` was transposed (a row of ones).

    >>> import sympy
    >>> Unsized("I", 2).fill(2, 2)
    Matrix([
    [2, 0],
    [0, 2]])
    """

    def __init__(self, kind: str, scale=1, row: bool = False):
        self.kind = kind
        self.scale = sympy.sympify(scale)
        self.row = row

    def __repr__(self) -> str:
        return f"Unsized({self.kind!r}, {self.scale})"

    def fill(self, rows: int, cols: int):
        """This as a ``rows`` x ``cols`` matrix (a 1 x 1 one as its entry)."""
        if self.kind == "I":
            if rows != cols:
                raise MathError(f"the identity I next to a {rows} x {cols} matrix: an "
                                f"identity is square")
            value = sympy.eye(rows) * self.scale
        elif self.kind == "0":
            value = sympy.zeros(rows, cols)
        else:
            value = sympy.ones(rows, cols) * self.scale
        return scalar_or_matrix(sympy.ImmutableMatrix(value))

    def times(self, factor) -> "Unsized":
        return Unsized(self.kind, self.scale * factor, self.row)

    def transposed(self) -> "Unsized":
        return Unsized(self.kind, self.scale, not self.row)

    def entry(self, i: int, j: int):
        if self.kind == "I":
            return self.scale if i == j else sympy.S.Zero
        return sympy.S.Zero if self.kind == "0" else self.scale


class RepeatedRow(Unsized):
    """``\\mathbf{1} \\boldsymbol{b}``: a column of ones of no written length times a row,
    the row repeated down as many rows as the sum it is in has (a bias broadcast over
    the points, as Phuong and Hutter write ``\\boldsymbol{b}_q \\boldsymbol{1}^\\intercal``
    in the column convention).

    >>> import sympy
    >>> RepeatedRow(sympy.Matrix([[1, 2]])).fill(2, 2)
    Matrix([
    [1, 2],
    [1, 2]])
    """

    def __init__(self, row):
        super().__init__("1")
        self.row_value = sympy.ImmutableMatrix(row)

    def __repr__(self) -> str:
        return f"RepeatedRow({self.row_value})"

    def fill(self, rows: int, cols: int):
        if cols != self.row_value.cols:
            raise MathError(f"a row of {self.row_value.cols} entries repeated down the rows "
                            f"of a {rows} x {cols} matrix")
        return scalar_or_matrix(sympy.ImmutableMatrix.vstack(*[self.row_value] * rows))

    def times(self, factor) -> "RepeatedRow":
        return RepeatedRow(self.row_value * factor)

    def transposed(self):
        raise MathError("the transpose of a row repeated down an unwritten number of rows: "
                        "write the ones with their length, as in \\mathbf{1}_n")

    def entry(self, i: int, j: int):
        return self.row_value[0, j - 1]


def shape_of(value) -> tuple[int, int]:
    """(rows, cols) of a value; a number is 1 x 1."""
    return value.shape if is_matrix(value) else (1, 1)
