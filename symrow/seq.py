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
from .reader.lexer import ParseError
from .reader.notation import NameError_, NameParts, accent_text, parse_name, wrap_accent
from .scripts import ACCENTS, BOLD, GREEK, SUB, SUP, script

__all__ = ["VecSeq", "vecseq", "size_symbol", "check_size", "check_name", "check_distinct"]

_UNSAFE = set("$%&#~\"'` \t\n")
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
    if isinstance(value, (sympy.Add, sympy.Mul)) and value.free_symbols and all(
            s.is_integer and s.is_positive for s in value.free_symbols) and \
            value.is_positive:
        return value   # a size made of sizes: h d_v, the width of heads side by side
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


def check_name(name: Any, *, head: int | None = None) -> NameParts:
    """Validate a vector-sequence name; return its parts (see :mod:`symrow.reader.notation`).

    Names are read as papers print them: ``A``, ``W_Q``, ``W_{out}``, ``Q^{(2)}``,
    ``W_i^Q``, ``W^{(l)}``, ``\\hat{A}``, ``\\Sigma``, ``\\mathbf{H}_{t-1}``, ``b``."""
    if not isinstance(name, str):
        raise UnsafeNameError(f"a name must be a string such as 'A'; got {name!r}")
    bad = sorted({ch for ch in name if ch in _UNSAFE or ord(ch) < 32 or ord(ch) > 126})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        raise UnsafeNameError(f"name {name!r} contains {shown}, which is not safe in LaTeX; "
                              f"use a capital letter with an optional subscript, e.g. 'A' or "
                              f"'W_Q'")
    try:
        parts = parse_name(name)
    except (NameError_, ParseError) as err:
        unsafe = sorted({ch for ch in name if ch in "\\{}"})
        if unsafe:
            shown = ", ".join(repr(ch) for ch in unsafe)
            raise UnsafeNameError(f"name {name!r} contains {shown}, which is not safe in "
                                  f"LaTeX here ({err}); use a capital letter with an optional "
                                  f"subscript, e.g. 'A' or 'W_Q'") from None
        raise UnsafeNameError(
            f"name {name!r} does not follow the naming rule: a letter (a capital for a "
            f"matrix, Latin or Greek), optionally with an accent or a font, a subscript and "
            f"a superscript; e.g. 'A', 'W_Q', 'Q^(2)', 'W_i^Q', '\\hat{{A}}', '\\Sigma'"
        ) from None
    for script in (parts.sub, parts.sup):
        # 16, as the formula reader takes them: h_{\mathcal{N}(v)} (GraphSAGE) has 14
        if script is not None and (len(script) > 16 or "__" in script):
            raise UnsafeNameError(f"name {name!r}: a subscript or superscript of a name has at "
                                  f"most 16 characters")
    if head is not None:
        if isinstance(head, bool) or not isinstance(head, int) or head < 1:
            raise SizeError(f"head index of {name!r} must be a positive integer; got {head!r}")
        if parts.sup is not None:
            raise UnsafeNameError(f"name {name!r} already has a superscript; do not pass head=")
        parts = NameParts(parts.head, parts.font, parts.accent, parts.sub, f"({head})")
    return parts


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

    __slots__ = ("parts", "name", "rows", "cols", "_values", "_matrix", "_entries")

    def __init__(self, name: str, rows, cols, *, head: int | None = None,
                 values: sympy.MatrixBase | None = None, max_dim: int | None = None,
                 font: str | None = None, parts: NameParts | None = None):
        parts = parts if parts is not None else check_name(name, head=head)
        if font is not None:
            parts = parts.with_font(font)
        self.parts: NameParts = parts
        self.name: str = parts.canonical
        self.rows = check_size(rows, f"rows of {self.name}", max_dim)
        self.cols = check_size(cols, f"cols of {self.name}", max_dim)
        if isinstance(self.rows, int) != isinstance(self.cols, int) and 1 not in (self.rows,
                                                                              self.cols):
            raise SizeError(
                f"{self.name} mixes a concrete and a general size ({rows!r} x {cols!r}); "
                f"give both as integers, or both as symbols such as 'm' and 'ell'")
        self._values = None
        if values is not None:
            self._values = sympy.ImmutableMatrix(values)
        self._matrix = None
        self._entries: dict = {}   # entry symbols by their indices, made once each

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
        return isinstance(self.rows, int) and isinstance(self.cols, int)

    @property
    def accent(self) -> str | None:
        return self.parts.accent

    @property
    def sub(self) -> str | None:
        return self.parts.sub

    @property
    def head(self) -> int | None:
        """The head index of a multi-head name such as ``Q^(2)``, or None."""
        sup = self.parts.sup or ""
        return int(sup[1:-1]) if re.fullmatch(r"\([1-9][0-9]{0,2}\)", sup) else None

    @property
    def letter(self) -> str:
        """The letter of its rows and entries: ``a`` for ``A`` (and for ``\\hat{A}``),
        ``\\sigma`` for ``\\Sigma``; a word name such as ``\\mathrm{head}`` has none and
        writes its rows and entries with the whole name, ``(\\mathrm{head}_1)_{ij}``."""
        return self.parts.letter or self.parts.head

    @property
    def entry_letter(self) -> str:
        """The letter its entries and rows are written with: ``a``, or ``\\hat{a}``."""
        return self._accented(self.letter)

    def _accented(self, letter: str) -> str:
        out = wrap_accent(self.accent, letter) if self.accent else letter
        return "\\bar{%s}" % out if self.parts.grad == "bar" else out

    def _partial(self, tex: str) -> str:
        """``tex`` as a gradient ∂L/∂(tex) when the name is written that way."""
        if self.parts.grad == "partial":
            return r"\frac{\partial L}{\partial %s}" % tex
        return tex

    @property
    def key(self) -> tuple:
        """What its entry symbols are made of: (accent, letter, tag, gradient); two
        sequences with one key would share entries."""
        accent, grad = self.accent, self.parts.grad
        if grad == "bar" and accent is None:
            accent, grad = "bar", None          # X̄: the same symbols as a name \bar{X}
        return (accent, self.letter, self.tag, grad)

    @property
    def tag(self) -> str:
        """The superscript its entries and rows carry ('' for a plain name)."""
        return self.parts.tag

    @property
    def vector_kind(self) -> str | None:
        """``"row"`` or ``"column"`` for a lowercase name of one row or one column (its
        entries take one index: ``b_j``, ``w_i``), else None."""
        if not self.parts.lowercase:
            return None
        if self.rows == 1:
            return "row"
        if self.cols == 1:
            return "column"
        return None

    @property
    def latex_name(self) -> str:
        """The name as LaTeX: ``A``, ``W_{Q}``, ``Q^{(2)}``, ``\\mathbf{H}_{t-1}``."""
        return self.parts.latex

    @property
    def text_name(self) -> str:
        """The name as Unicode text: ``A``, ``W_Q``, ``Q⁽²⁾``, ``Â``, ``Σ``."""
        parts = self.parts
        if parts.kind == "word":
            out = parts.head[1:]
        else:
            out = GREEK.get(parts.head, parts.head)
        if parts.accent:
            out += accent_text(parts.accent, ACCENTS)
        if parts.grad == "bar":
            out += ACCENTS["bar"]
        if parts.sub:
            out += script(parts.sub, SUB, "_")
        if parts.sup:
            out += script(parts.sup, SUP, "^")
        return f"∂L/∂{out}" if parts.grad == "partial" else out

    def row_latex(self, index: str) -> str:
        """Row ``index`` (LaTeX of the index) as LaTeX: ``\\boldsymbol{a}_{i}``."""
        return self._partial(self._row_latex(index))

    def _row_latex(self, index: str) -> str:
        sup = "^{%s}" % self.tag if self.tag else ""
        if self.parts.kind == "word":
            return r"\left(%s\right)_{%s}" % (self.latex_name, index)
        if self.vector_kind == "row":
            return self._accented(r"\boldsymbol{%s}" % self.letter) + sup
        if self.vector_kind == "column":
            return self._accented(self.letter) + sup + "_{%s}" % index
        return self._accented(r"\boldsymbol{%s}" % self.letter) + sup + "_{%s}" % index

    def row_text(self, index: str) -> str:
        """Row ``index`` as Unicode text: ``𝐚ᵢ``."""
        text = self._row_text(index)
        return f"∂L/∂{text}" if self.parts.grad == "partial" else text

    def _row_text(self, index: str) -> str:
        letter = self.letter
        tag = script(self.tag, SUP, "^") if self.tag else ""
        sub = script(index, SUB, "_") if index != "ℓ" else "_ℓ"
        accent = accent_text(self.accent, ACCENTS) if self.accent else ""
        if self.parts.grad == "bar":
            accent += ACCENTS["bar"]
        if self.parts.kind == "word":
            return f"({self.text_name}){sub}"
        plain = GREEK.get(letter, letter)
        if self.vector_kind == "column":
            return plain + accent + tag + sub
        bold = BOLD.get(letter, plain)
        if self.vector_kind == "row":
            return bold + accent + tag
        return bold + accent + tag + sub

    def _require_concrete(self, what: str) -> None:
        if not self.concrete:
            raise SizeError(f"{what} needs concrete sizes; {self.name} is "
                            f"{self.rows} x {self.cols}")

    # -- entries and rows ------------------------------------------------
    def symbol(self, i, j) -> sympy.Symbol:
        """The entry symbol in row ``i``, column ``j`` (1-based; ints, symbols or names)."""
        key = (i, j)
        found = self._entries.get(key)
        if found is None:
            found = self._entries[key] = self._symbol(i, j)
        return found

    def _symbol(self, i, j) -> sympy.Symbol:
        i, j = (sympy.Symbol(x) if isinstance(x, str) else x for x in (i, j))
        ti, wi = _index_tex(i)
        tj, wj = _index_tex(j)
        sep = "," if max(wi, wj) > 1 else ""
        if not sep and ti[-1].isalpha() and ti.startswith("\\"):
            sep = " "  # a_{\ell k}: end the command name before the next index
        sup = "^{%s}" % self.tag if self.tag else ""
        if self.vector_kind is not None:  # b_j, w_i: one index
            one = tj if self.vector_kind == "row" else ti
            tex = "%s%s_{%s}" % (self._accented(self.letter), sup, one)
        elif self.parts.kind == "word":
            tex = r"\left(%s\right)_{%s%s%s}" % (self.latex_name, ti, sep, tj)
        else:
            tex = "%s%s_{%s%s%s}" % (self._accented(self.letter), sup, ti, sep, tj)
        return sympy.Symbol(self._partial(tex))

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

    ``name`` is a name as papers print it: a capital letter (Latin or
    Greek) with an optional accent, font, subscript and superscript
    (``"W_Q"``, ``"W_i^Q"``, ``"W^{(l)}"``, ``"\\Sigma"``), a head index
    (``"Q^(2)"``, or ``head=2``), or a lowercase letter for a vector.  ``max_dim`` overrides the
    size limit (see :mod:`symrow.limits`).

    >>> import sympy, symrow
    >>> X = symrow.vecseq("X", sympy.Matrix([[1, 2], [3, 4]]))
    >>> X.row(2)
    Matrix([[3, 4]])
    >>> symrow.vecseq("A{", 2, 2)
    Traceback (most recent call last):
    ...
    symrow.errors.UnsafeNameError: name 'A{' contains '{', which is not safe in LaTeX here ('{' is never closed (line 1, column 2, at '{')); use a capital letter with an optional subscript, e.g. 'A' or 'W_Q'
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
