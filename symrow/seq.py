"""Vector sequences (ベクトル列): a matrix read as a stack of row vectors.

An m x l matrix ``A`` is read as m points in l-dimensional space, one point
per row: ``A = [a_1; a_2; ...; a_m]``.  :func:`vecseq` builds one.

>>> import symrow
>>> A = symrow.vecseq("A", 2, 3)
>>> A
VecSeq('A', 2, 3)
>>> A.matrix
Matrix([
[a_{11}, a_{12}, a_{13}],
[a_{21}, a_{22}, a_{23}]])
>>> A.row(2)
Matrix([[a_{21}, a_{22}, a_{23}]])
>>> print(A)
    ⎡a₁₁  a₁₂  a₁₃⎤
A = ⎢             ⎥
    ⎣a₂₁  a₂₂  a₂₃⎦

Sizes may be symbols, for the general case; ``"ell"`` prints as ℓ:

>>> G = symrow.vecseq("A", "m", "ell")
>>> G.shape
(m, ell)
>>> G.concrete
False

Entry symbols are named exactly as they print in LaTeX, with 1-based
indices, and a comma once an index has two digits:

>>> symrow.vecseq("A", 10, 2).entry(10, 2)
a_{10,2}

A subscripted name such as ``W_Q`` moves its subscript up on the entries,
so that ``W_Q`` and ``W_K`` never share a symbol:

>>> symrow.vecseq("W_Q", 2, 2).entry(1, 2)
w^{Q}_{12}
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import sympy

from .errors import LimitError, ShapeError, SizeError, UnsafeNameError
from .limits import get_limits
from .nodes import RowVec
from .printable import Printable
from .scripts import ACCENTS, SUB, SUP, script

__all__ = ["VecSeq", "vecseq", "size_symbol", "check_size", "check_name", "check_distinct"]

_UNSAFE = set("\\{}$%&#~^ \t\n\"'`")
_NAME_RE = re.compile(
    r"^(?:\\(?P<accent>hat|tilde|bar|check|breve)\{(?P<abase>[A-Z])\}|(?P<base>[A-Z]))"
    r"(?:_(?P<sub>[A-Za-z0-9]{1,8}))?(?:\^\((?P<head>[1-9][0-9]{0,2})\))?$")
#: a general size: a name such as m, n, ell, optionally subscripted (d_v)
_SIZE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,15}(_[A-Za-z0-9]{1,8})?$")


def size_symbol(name: str) -> sympy.Symbol:
    """The symbol symrow uses for a general size, e.g. ``m`` or ``ell``.

    Size symbols are positive integers, so that ``m`` given as a string and
    ``m`` given as a plain :class:`sympy.Symbol` are the same size.
    """
    return sympy.Symbol(name, integer=True, positive=True)


def check_size(value: Any, what: str, max_dim: int | None) -> int | sympy.Symbol:
    """Validate one size: a positive int, or a size symbol/name (``max_dim``: the limit,
    None for the one in force)."""
    if isinstance(value, bool):
        raise SizeError(f"{what} must be a positive integer or a size symbol such as 'm'; "
                        f"got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            value = int(text)
        elif _SIZE_NAME_RE.match(text):
            return size_symbol(text)
        else:
            raise SizeError(f"{what} must be a positive integer or a size symbol such as 'm'; "
                            f"got {value!r}")
    if isinstance(value, sympy.Symbol):
        if not _SIZE_NAME_RE.match(value.name):
            raise SizeError(f"{what}: size symbol {value.name!r} must be a plain name such as 'm'")
        return size_symbol(value.name)
    if isinstance(value, (int, sympy.Integer)) and not isinstance(value, bool):
        n = int(value)
        if n < 1:
            raise SizeError(f"{what} must be a positive integer or a size symbol such as 'm'; "
                            f"got {n}")
        limit = get_limits().max_dim if max_dim is None else max_dim
        if n > limit:
            raise LimitError(f"{what} is {n}, past the limit of {limit}; raise it with "
                             f"symrow.limits(max_dim=...) or max_dim=", limit="max_dim")
        return n
    raise SizeError(f"{what} must be a positive integer or a size symbol such as 'm'; "
                    f"got {value!r} of type {type(value).__name__}")


def check_name(name: Any) -> re.Match:
    """Validate a vector-sequence name; return its parts."""
    if not isinstance(name, str):
        raise UnsafeNameError(f"a name must be a string such as 'A'; got {name!r}")
    bad = sorted({ch for ch in name if ch in _UNSAFE or ord(ch) < 32 or ord(ch) > 126})
    accented = _NAME_RE.match(name) is not None and name.startswith("\\")
    if bad and not accented and not (name.count("^") == 1 and set(bad) == {"^"}):
        shown = ", ".join(repr(ch) for ch in bad)
        raise UnsafeNameError(f"name {name!r} contains {shown}, which is not safe in LaTeX; "
                              f"use a capital letter with an optional subscript, e.g. 'A' or 'W_Q'")
    match = _NAME_RE.match(name)
    if match is None:
        raise UnsafeNameError(
            f"name {name!r} does not follow the naming rule: one capital letter, "
            f"optionally '_' and up to 8 letters or digits, optionally a head index "
            f"'^(h)', optionally with an accent; e.g. 'A', 'W_Q', 'Q^(2)', '\\hat{{A}}'")
    return match


def _index_tex(index: int | sympy.Basic) -> tuple[str, int]:
    """LaTeX of one index and how many glyphs it takes."""
    if isinstance(index, int):
        return str(index), len(str(index))
    if isinstance(index, sympy.Symbol):
        if index.name == "ell":
            return r"\ell", 1
        if "_" in index.name:  # d_v -> d_{v}
            base, sub = index.name.split("_", 1)
            return "%s_{%s}" % (base, sub), 2
        return index.name, len(index.name)
    tex = sympy.latex(index)
    return tex, len(tex)


class VecSeq(Printable):
    """An m x l matrix read as m row vectors (points) of dimension l.

    Build one with :func:`vecseq`.  Attributes:

    * ``name``: the name as given, e.g. ``"A"`` or ``"W_Q"``;
    * ``shape``: ``(rows, cols)``, ints (concrete) or size symbols (general);
    * ``matrix``: for a concrete sequence, a :class:`sympy.Matrix` of its
      entries (entry symbols, or the values it was built from).
    """

    __slots__ = ("name", "base", "sub", "head", "accent", "rows", "cols", "_values", "_matrix")

    def __init__(self, name: str, rows, cols, *, head: int | None = None,
                 values: sympy.MatrixBase | None = None, max_dim: int | None = None):
        parts = check_name(name)
        self.base: str = parts["base"] or parts["abase"]
        self.accent: str | None = parts["accent"]
        self.sub: str | None = parts["sub"]
        head_from_name = parts["head"]
        if head is not None and head_from_name is not None:
            raise UnsafeNameError(f"name {name!r} already has a head index; do not pass head=")
        if head is None and head_from_name is not None:
            head = int(head_from_name)
        if head is not None and (isinstance(head, bool) or not isinstance(head, int) or head < 1):
            raise SizeError(f"head index of {name!r} must be a positive integer; got {head!r}")
        self.head: int | None = head
        self.name: str = self._accented(self.base) + (f"_{self.sub}" if self.sub else "") + (
            f"^({head})" if head is not None else "")
        self.rows = check_size(rows, f"rows of {self.name}", max_dim)
        self.cols = check_size(cols, f"cols of {self.name}", max_dim)
        if isinstance(self.rows, int) != isinstance(self.cols, int):
            raise SizeError(
                f"{self.name} mixes a concrete and a general size ({rows!r} x {cols!r}); "
                f"give both as integers, or both as symbols such as 'm' and 'ell'")
        self._values = None
        if values is not None:
            self._values = sympy.ImmutableMatrix(values)
        self._matrix = None

    # -- identity -------------------------------------------------------
    def __repr__(self) -> str:
        rows = self.rows if isinstance(self.rows, int) else repr(str(self.rows))
        cols = self.cols if isinstance(self.cols, int) else repr(str(self.cols))
        extra = ", values=..." if self._values is not None else ""
        return f"VecSeq({self.name!r}, {rows}, {cols}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VecSeq):
            return NotImplemented
        return (self.name, self.shape, self._values) == (other.name, other.shape, other._values)

    def __hash__(self) -> int:
        return hash((self.name, self.shape))

    @property
    def values(self) -> sympy.ImmutableMatrix | None:
        """The values it was built from (numbers or expressions), or None for symbols."""
        return self._values

    @property
    def shape(self) -> tuple:
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def concrete(self) -> bool:
        """True when both sizes are integers."""
        return isinstance(self.rows, int)

    @property
    def letter(self) -> str:
        """The lowercase letter of its rows and entries: ``a`` for ``A`` (and for ``\\hat{A}``)."""
        return self.base.lower()

    @property
    def entry_letter(self) -> str:
        """The letter its entries and rows are written with: ``a``, or ``\\hat{a}``."""
        return self._accented(self.letter)

    def _accented(self, letter: str) -> str:
        return "\\%s{%s}" % (self.accent, letter) if self.accent else letter

    @property
    def key(self) -> tuple:
        """What its entry symbols are made of: (accent, letter, tag); two sequences
        with one key would share entries."""
        return (self.accent, self.letter, self.tag)

    @property
    def tag(self) -> str:
        """The superscript its entries and rows carry ('' for a plain name)."""
        return (self.sub or "") + (f"({self.head})" if self.head is not None else "")

    @property
    def latex_name(self) -> str:
        """The name as LaTeX: ``A``, ``W_{Q}``, ``Q^{(2)}``."""
        tex = self._accented(self.base)
        if self.sub:
            tex += "_{%s}" % self.sub
        if self.head is not None:
            tex += "^{(%d)}" % self.head
        return tex

    @property
    def text_name(self) -> str:
        """The name as Unicode text: ``A``, ``W_Q``, ``Q⁽²⁾``, ``Â``."""
        out = self.base + (ACCENTS.get(self.accent, "") if self.accent else "")
        if self.sub:
            out += script(self.sub, SUB, "_")
        if self.head is not None:
            out += script(f"({self.head})", SUP, "^")
        return out

    def _require_concrete(self, what: str) -> None:
        if not self.concrete:
            raise SizeError(f"{what} needs concrete sizes; {self.name} is "
                            f"{self.rows} x {self.cols}")

    # -- entries and rows ------------------------------------------------
    def symbol(self, i, j) -> sympy.Symbol:
        """The entry symbol in row ``i``, column ``j`` (1-based; ints, symbols or names)."""
        i, j = (sympy.Symbol(x) if isinstance(x, str) else x for x in (i, j))
        ti, wi = _index_tex(i)
        tj, wj = _index_tex(j)
        sep = "," if max(wi, wj) > 1 else ""
        if not sep and ti[-1].isalpha() and ti.startswith("\\"):
            sep = " "  # a_{\ell k}: end the command name before the next index
        sup = "^{%s}" % self.tag if self.tag else ""
        return sympy.Symbol("%s%s_{%s%s%s}" % (self._accented(self.letter), sup, ti, sep, tj))

    def _check_index(self, i: int, bound, what: str) -> None:
        if isinstance(bound, int) and (isinstance(i, bool) or not isinstance(i, int)
                                       or not 1 <= i <= bound):
            raise ShapeError(f"{what} index of {self.name} must be an integer from 1 to "
                             f"{bound} (indices are 1-based, as in a_1); got {i!r}")

    def entry(self, i, j) -> sympy.Expr:
        """Entry (i, j), 1-based: its value if the sequence has values, else its symbol."""
        self._check_index(i, self.rows, "row")
        self._check_index(j, self.cols, "column")
        if self._values is not None:
            return self._values[i - 1, j - 1]
        return self.symbol(i, j)

    @property
    def matrix(self) -> sympy.ImmutableMatrix:
        """The entries as a :class:`sympy.ImmutableMatrix` (concrete sizes only)."""
        self._require_concrete(".matrix")
        if self._matrix is None:
            if self._values is not None:
                self._matrix = self._values
            else:
                self._matrix = sympy.ImmutableMatrix(
                    self.rows, self.cols, lambda i, j: self.symbol(i + 1, j + 1))
        return self._matrix

    def row(self, i: int) -> sympy.ImmutableMatrix:
        """Row vector ``i`` (1-based, as a_1 in the article) as a 1 x l matrix."""
        self._require_concrete(".row()")
        self._check_index(i, self.rows, "row")
        return self.matrix[i - 1, :]

    def vector(self, i):
        """The row vector ``i`` as a display node: prints as ``\\boldsymbol{a}_{i}``."""
        if isinstance(i, str):
            i = sympy.Symbol(i)
        return RowVec(self, i)

    def vectors(self) -> list:
        """All row vectors of a concrete sequence, as display nodes."""
        self._require_concrete(".vectors()")
        return [self.vector(i) for i in range(1, self.rows + 1)]

    @property
    def free_symbols(self) -> set:
        """The entry symbols (concrete, symbolic sequences only)."""
        return set(self.matrix.free_symbols)

    # -- display ---------------------------------------------------------
    def _latex(self, printer) -> str:
        return printer._print_VecSeq(self)

def vecseq(name: str, rows, cols=None, *, head: int | None = None,
           max_dim: int | None = None) -> VecSeq:
    """Build a vector sequence: an m x l matrix read as m points in l dimensions.

    ``rows`` and ``cols`` are positive ints for a concrete sequence, or size
    symbols (``"m"``, ``"n"``, ``"ell"``, or :class:`sympy.Symbol`) for the
    general one.  Instead of sizes, ``rows`` may be a :class:`sympy.Matrix`
    whose entries (numbers or expressions) become the sequence's values.

    ``name`` is one capital letter with an optional subscript (``"W_Q"``)
    and head index (``"Q^(2)"``, or ``head=2``).  ``max_dim`` overrides the
    size limit (see :mod:`symrow.limits`).

    >>> import sympy, symrow
    >>> X = symrow.vecseq("X", sympy.Matrix([[1, 2], [3, 4]]))
    >>> X.row(2)
    Matrix([[3, 4]])
    >>> symrow.vecseq("A{", 2, 2)
    Traceback (most recent call last):
    ...
    symrow.errors.UnsafeNameError: name 'A{' contains '{', which is not safe in LaTeX; use a capital letter with an optional subscript, e.g. 'A' or 'W_Q'
    """
    if isinstance(rows, (sympy.MatrixBase, list)) and not isinstance(rows, str):
        values = sympy.Matrix(rows)
        if cols is not None:
            raise SizeError(f"vecseq({name!r}, ...): give either a matrix or two sizes, not both")
        if values.rows == 0 or values.cols == 0:
            raise SizeError(f"vecseq({name!r}, ...): the matrix is empty "
                            f"({values.rows} x {values.cols})")
        return VecSeq(name, values.rows, values.cols, head=head, values=values, max_dim=max_dim)
    if cols is None:
        raise SizeError(f"vecseq({name!r}, ...) needs both sizes, e.g. vecseq({name!r}, 2, 3)")
    return VecSeq(name, rows, cols, head=head, max_dim=max_dim)


def check_distinct(operands: Iterable[VecSeq], result: VecSeq | None = None) -> None:
    """Operands of one derivation must not share entry symbols unless they are the
    same sequence (``A A`` is fine), and the result must differ from them all."""
    seen: dict[tuple, VecSeq] = {}
    for seq in operands:
        if seq.key in seen and seen[seq.key] != seq:
            raise UnsafeNameError(
                f"{seen[seq.key].name} and {seq.name} would share entry symbols "
                f"({seq.letter}_{{ij}}); give the operands different names")
        seen[seq.key] = seq
    if result is not None and result.key in seen:
        other = seen[result.key]
        raise UnsafeNameError(
            f"the result {result.name} and the operand {other.name} would share entry "
            f"symbols ({result.letter}_{{ij}}); name the result differently")
