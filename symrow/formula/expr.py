"""Matrix formulas as small trees: what a lecturer writes, before any reading.

A formula is built from named matrices and a handful of operations, each
of which symrow knows how to read row by row:

* :class:`Name`: a matrix written by name, ``X``, ``W_Q``, ``\\hat{A}``;
* :class:`Transpose`: ``A^T``;
* :class:`Product`: ``L R``, one product of two factors (longer products
  associate to the left unless parenthesised);
* :class:`Scaled`: ``num/den * arg``, a scaling by a number, a size or
  ``\\sqrt{d}``;
* :class:`Sum`: terms of one shape, added or subtracted;
* :class:`Softmax`: the row-wise softmax;
* :class:`Apply`: an element-wise function (exp, ReLU, σ, tanh, or a
  user-named φ);
* :class:`Concat`: matrices placed side by side (used by multi-head
  attention);
* :class:`Power`: ``D^{-1/2}``, a power of a diagonal matrix;
* :class:`Hadamard`: ``A \\odot B``, the element-wise product;
* :class:`Call`: a function with a reading of its own, named in the
  notation table (:mod:`symrow.reader.notation`): ``LayerNorm``, ``diag``,
  the degree matrix;
* :class:`Identity`: the identity matrix ``I``;
* :class:`Ones`: the all-ones column ``\\mathbf{1}`` (``\\mathbf{1}_n``, ``1_n``).

A :class:`Formula` is a list of definitions ``name = expr``; the last one
is the result.  Nodes compare by structure only (positions are ignored), so
a repeated sub-expression is recognised as one value.

>>> from symrow.formula.expr import Name, Product, Transpose, text
>>> text(Product(Name("A"), Transpose(Name("B"))))
'AB^T'
>>> text(Product(Name("X"), Product(Name("W"), Name("V"))))
'X(WV)'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Iterator

import sympy

from ..reader import notation as _notation
from ..reader.notation import function_display, lookup_function

__all__ = ["Expr", "Name", "Transpose", "Product", "Scaled", "Sum", "Softmax", "Apply",
           "Concat", "Power", "Hadamard", "Call", "Identity", "Ones", "Formula", "text", "walk",
           "children", "rebuild", "FUNCTIONS"]

class _Functions(Mapping):
    """The element-wise functions with a name of their own: key -> (LaTeX, text).  A view
    of the table of notation (each function registers its own entry there), with the
    Greek letters a user's function is commonly called by."""

    _GREEK = ("phi", "varphi", "psi")

    def _keys(self):
        table = _notation._builtins()
        keys = [fn.key for word, fn in table.items() if fn.reading == "apply" and word == fn.key]
        return keys + [g for g in self._GREEK if g not in keys]

    def __getitem__(self, key):
        if key not in self._keys():
            raise KeyError(key)
        return function_display(key)

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())


#: element-wise functions with a meaning of their own: name -> (LaTeX, text)
FUNCTIONS = _Functions()


@dataclasses.dataclass(frozen=True)
class Expr:
    """Base class of formula nodes; ``pos`` is an offset in the source text, if any."""


@dataclasses.dataclass(frozen=True)
class Name(Expr):
    """A matrix written by name: an operand, or a name defined earlier in the formula."""

    name: str
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Transpose(Expr):
    arg: Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Product(Expr):
    """``left right``: ``pos`` points at the start of the right factor."""

    left: Expr
    right: Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Scaled(Expr):
    """``num / den * arg``; ``num`` and ``den`` are SymPy scalars (``1``, ``sqrt(d)``, ``n``)."""

    arg: Expr
    num: sympy.Expr = sympy.S.One
    den: sympy.Expr = sympy.S.One
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Sum(Expr):
    """Terms of one shape: ``signs[k]`` is +1 or -1 for ``terms[k]``."""

    terms: tuple
    signs: tuple
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Softmax(Expr):
    arg: Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Apply(Expr):
    """An element-wise function ``func`` (a key of :data:`FUNCTIONS`, or a user's name)."""

    func: str
    arg: Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Concat(Expr):
    """Matrices side by side, ``[A_1 A_2 ...]``; ``stacked``: written one on top of the
    other, ``[s; h]``, which joins the coordinates of column vectors (a formula whose
    points are rows would stack points, which symrow does not read)."""

    parts: tuple
    pos: int | None = dataclasses.field(default=None, compare=False)
    stacked: bool = False


@dataclasses.dataclass(frozen=True)
class Power(Expr):
    """``arg^{exponent}``, ``exponent`` a SymPy rational (``-1/2``); read only for a
    diagonal matrix."""

    arg: Expr
    exponent: sympy.Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Hadamard(Expr):
    """``left \\odot right``: entry by entry."""

    left: Expr
    right: Expr
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Call(Expr):
    """A function with a reading of its own: ``func`` is the reading's name
    (``"layernorm"``, ``"diag"``, ``"degree"``), ``args`` its arguments, ``params``
    numbers it takes besides them (``(("start", 2), ("stop", 4))``)."""

    func: str
    args: tuple
    pos: int | None = dataclasses.field(default=None, compare=False)
    params: tuple = ()


@dataclasses.dataclass(frozen=True)
class Identity(Expr):
    """The identity matrix ``I`` (its size follows from where it stands)."""

    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Ones(Expr):
    """The all-ones vector ``\\mathbf{1}``, a column as written (``\\mathbf{1}^\\top`` is
    a row).  ``sub`` is its size as written (``"n"`` of ``\\mathbf{1}_n``, ``"3"``), or
    None: its size then follows from what it meets (``A\\mathbf{1}``: the columns of A),
    found by the shape inference.  ``slot`` tells apart the occurrences written without a
    size, which may have different sizes (``b_q \\mathbf{1}^\\top`` and ``b_k
    \\mathbf{1}^\\top``); ``size`` is a size already known (an int or a size symbol: the
    backward pass writes the vectors of its forward pass so)."""

    sub: str | None = None
    slot: int = 0
    size: object = None
    pos: int | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Formula:
    """Definitions ``name = expr`` in order; the last is the result.

    ``written`` is the name the user gave the result, or None when the
    formula was a bare expression (the planner then names it).  ``fonts``
    maps names to the font they were written in (``\\mathbf``), for display;
    ``scalars`` lists the symbols read as scalars between matrices, with
    their positions; ``families`` maps a definition's name to the index it
    instantiates (``\\mathrm{head}_2`` of ``\\mathrm{head}_i``: 2), so that
    the planner can name its values after it, and ``tied`` the names its
    members use in place of one (``W_1^Q`` and ``W_2^Q`` for ``W_i^Q``), which
    share a shape; ``diagonal`` names the
    operands known to be diagonal; ``notes`` are what the reader says about
    how it read the text (a degree matrix, a builtin function).
    """

    definitions: tuple      # ((name, expr), ...)
    written: str | None = None
    fonts: tuple = ()       # ((name, font), ...)
    scalars: tuple = ()     # ((name, pos), ...)
    families: tuple = ()    # ((name, index), ...)
    notes: tuple = ()       # ((kind, params), ...)
    tied: tuple = ()        # groups of names that share a shape (W_1^Q, W_2^Q of W_i^Q)
    groups: tuple = ()      # ((name, group), ...): the values a definition makes carry it
    vectors: tuple = ()     # operands that are one point each (a column vector's row view)
    aside: tuple = ()       # the text of the other members of a chain (h = W_0x + \Delta W x = ...)
    chains: tuple = ()      # ((member read, (other members read, ...), pos, end), ...)
    source: str | None = dataclasses.field(default=None, compare=False)

    @property
    def result(self) -> Expr:
        return self.definitions[-1][1]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.definitions]


def walk(expr: Expr) -> Iterator[Expr]:
    """Every node of ``expr``, children before their parent."""
    for child in children(expr):
        yield from walk(child)
    yield expr


def children(expr: Expr) -> tuple:
    if isinstance(expr, (Transpose, Scaled, Softmax, Apply, Power)):
        return (expr.arg,)
    if isinstance(expr, (Product, Hadamard)):
        return (expr.left, expr.right)
    if isinstance(expr, Call):
        return expr.args
    if isinstance(expr, Sum):
        return expr.terms
    if isinstance(expr, Concat):
        return expr.parts
    return ()


def rebuild(expr: Expr, leaf) -> Expr:
    """``expr`` with every :class:`Name` replaced by ``leaf(name)`` (which returns an Expr),
    the rest of the tree kept as it is."""
    if isinstance(expr, Name):
        return leaf(expr)
    changes = {}
    for field in dataclasses.fields(expr):
        value = getattr(expr, field.name)
        if isinstance(value, Expr):
            changes[field.name] = rebuild(value, leaf)
        elif isinstance(value, tuple) and value and all(isinstance(v, Expr) for v in value):
            changes[field.name] = tuple(rebuild(v, leaf) for v in value)
    return dataclasses.replace(expr, **changes)


def _scalar_text(x) -> str:
    if isinstance(x, sympy.Pow) and x.exp == sympy.S.Half:
        return f"√{_scalar_text(x.base)}"
    return str(x)


def text(expr: Expr, *, _outer: str = "") -> str:
    """A compact plain-text form of a formula, as one would type it: ``XW_Q(XW_K)^T``."""
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Transpose):
        inner = text(expr.arg)
        if not isinstance(expr.arg, (Name, Apply, Softmax)):
            inner = f"({inner})"
        return inner + "^T"
    if isinstance(expr, Product):
        left = text(expr.left, _outer="product")
        right = text(expr.right, _outer="product")
        if isinstance(expr.right, (Product, Sum, Hadamard)):
            right = f"({right})"
        if isinstance(expr.left, (Sum, Hadamard)):
            left = f"({left})"
        return left + right
    if isinstance(expr, Scaled):
        inner = text(expr.arg)
        if isinstance(expr.arg, Sum):
            inner = f"({inner})"
        num = "" if expr.num == 1 else _scalar_text(expr.num)
        if isinstance(expr.num, sympy.Add):
            num = f"({num})"                      # (1 - alpha) A, not 1 - alpha A
        num = num + " " if num else ""
        den = "" if expr.den == 1 else "/" + _scalar_text(expr.den)
        if isinstance(expr.den, sympy.Add):
            den = f"/({_scalar_text(expr.den)})"
        out = num + inner + den
        return f"({out})" if _outer == "product" else out
    if isinstance(expr, Sum):
        parts = []
        for k, (sign, term) in enumerate(zip(expr.signs, expr.terms)):
            piece = text(term)
            parts.append((" - " if sign < 0 else " + ") + piece if k else
                         ("-" if sign < 0 else "") + piece)
        return "".join(parts)
    if isinstance(expr, Softmax):
        return f"softmax({text(expr.arg)})"
    if isinstance(expr, Apply):
        return f"{function_display(expr.func)[1]}({text(expr.arg)})"
    if isinstance(expr, Concat):
        return "[" + " ".join(text(p) for p in expr.parts) + "]"
    if isinstance(expr, Power):
        inner = text(expr.arg)
        if not isinstance(expr.arg, Name):
            inner = f"({inner})"
        return f"{inner}^{{{expr.exponent}}}"
    if isinstance(expr, Hadamard):
        def side(e):
            return f"({text(e)})" if isinstance(e, (Sum, Scaled)) else text(e)
        return f"{side(expr.left)} ⊙ {side(expr.right)}"
    if isinstance(expr, Call):
        fn = lookup_function(expr.func)
        name = fn.text if fn is not None else expr.func
        return f"{name}({', '.join(text(a) for a in expr.args)})"
    if isinstance(expr, Identity):
        return "I"
    if isinstance(expr, Ones):
        return "1" + (f"_{expr.sub}" if expr.sub else "")
    raise TypeError(type(expr).__name__)
