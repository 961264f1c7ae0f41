"""Display nodes: the pieces a derivation shows, kept in the order written.

SymPy's ``Add`` and ``Mul`` sort their terms.  A lecture must keep the
article's order (``a_{i1} b_1 + a_{i2} b_2 + ...``, the factor from A
before the factor from B), so derivations are shown with these small,
immutable node classes instead.  They hold SymPy objects (symbols,
numbers, expressions) and :class:`~symrow.seq.VecSeq` objects as leaves.
Printers dispatch on the class names (``_print_OSum`` and so on); no SymPy
class has these names.

>>> import symrow
>>> from symrow.nodes import OSum, OMul
>>> from symrow.render.latex import latex
>>> A, B = symrow.vecseq("A", 1, 2), symrow.vecseq("B", 2, 2)
>>> latex(OSum([OMul([A.entry(1, j), B.vector(j)]) for j in (1, 2)]))
'a_{11} \\\\boldsymbol{b}_{1} + a_{12} \\\\boldsymbol{b}_{2}'
"""

from __future__ import annotations

from sympy.printing.precedence import PRECEDENCE

__all__ = [
    "Node", "RowVec", "Dots", "Bmat", "OSum", "OMul", "Neg", "Dot", "SumOver",
    "Transpose", "Space", "Rel", "Chain", "Group", "Items", "Frac", "Exp",
    "Sqrt", "Call", "Label", "Paren", "Sub", "Entrywise", "Cases", "SoftmaxExpansion",
    "Power", "Hadamard",
]


class Node:
    """Base class of display nodes."""

    __slots__ = ()
    precedence = PRECEDENCE["Atom"]
    is_Add = False  # read by SymPy's Sum pretty printer

    def __repr__(self) -> str:
        fields = ", ".join(repr(getattr(self, f)) for f in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(
            _hashable(getattr(self, f)) for f in self.__slots__))


def _hashable(value):
    return tuple(map(_hashable, value)) if isinstance(value, (list, tuple)) else value


class RowVec(Node):
    """Row vector ``i`` of a vector sequence: ``\\boldsymbol{a}_{i}``."""

    __slots__ = ("seq", "index")

    def __init__(self, seq, index):
        self.seq, self.index = seq, index

    def __hash__(self) -> int:  # cheap: printers look row vectors up by hash
        return hash((self.seq.name, self.index))


class Dots(Node):
    """An ellipsis: ``"c"`` (⋯), ``"v"`` (⋮), ``"d"`` (⋱) or ``"l"`` (…, in lists)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        if kind not in ("c", "v", "d", "l"):
            raise ValueError(kind)
        self.kind = kind


class Bmat(Node):
    """A bracketed matrix of display items; ``rows`` is a tuple of tuples."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = tuple(tuple(r) for r in rows)


class OSum(Node):
    """A sum whose terms print in the given order."""

    __slots__ = ("terms",)
    precedence = PRECEDENCE["Add"]
    is_Add = True

    def __init__(self, terms):
        self.terms = tuple(terms)


class OMul(Node):
    """A product whose factors print in the given order, by juxtaposition."""

    __slots__ = ("factors",)
    precedence = PRECEDENCE["Mul"]

    def __init__(self, factors):
        self.factors = tuple(factors)


class Neg(Node):
    """A negated item: ``-x``; inside an :class:`OSum` it prints as ``- x``."""

    __slots__ = ("item",)
    precedence = PRECEDENCE["Add"]

    def __init__(self, item):
        self.item = item


class Dot(Node):
    """The inner product ``u \\cdot v``."""

    __slots__ = ("left", "right")
    precedence = PRECEDENCE["Mul"]

    def __init__(self, left, right):
        self.left, self.right = left, right


class SumOver(Node):
    """``\\sum_{index=lower}^{upper} body``."""

    __slots__ = ("body", "index", "lower", "upper")
    precedence = PRECEDENCE["Mul"]

    def __init__(self, body, index, lower, upper):
        self.body, self.index, self.lower, self.upper = body, index, lower, upper


class Transpose(Node):
    """``x^T``."""

    __slots__ = ("base",)
    precedence = PRECEDENCE["Pow"]

    def __init__(self, base):
        self.base = base


class Space(Node):
    """The real matrix space ``\\mathbb{R}^{rows \\times cols}``."""

    __slots__ = ("rows", "cols")

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols


class Rel(Node):
    """A binary relation: ``lhs rel rhs`` with rel in ``in``, ``to``, ``mapsto``, ``=``, ``ge``, ``gt``."""

    __slots__ = ("lhs", "rel", "rhs")
    precedence = PRECEDENCE["Relational"]

    def __init__(self, lhs, rel: str, rhs):
        self.lhs, self.rel, self.rhs = lhs, rel, rhs


class Chain(Node):
    """An equality chain ``items[0] = items[1] = ...``; may end in a :class:`Rel` tail."""

    __slots__ = ("items",)
    precedence = PRECEDENCE["Relational"]

    def __init__(self, items):
        self.items = tuple(items)


class Group(Node):
    """Several displays shown side by side (``,\\qquad``) or one per line."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)


class Items(Node):
    """A comma-separated list, e.g. ``a_1, a_2, \\dots, a_m``."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)


class Frac(Node):
    """``\\frac{num}{den}``."""

    __slots__ = ("num", "den")
    precedence = PRECEDENCE["Mul"]

    def __init__(self, num, den):
        self.num, self.den = num, den


class Exp(Node):
    """The exponential of ``arg``, printed ``\\exp\\left(arg\\right)``."""

    __slots__ = ("arg",)
    precedence = PRECEDENCE["Func"]

    def __init__(self, arg):
        self.arg = arg


class Sqrt(Node):
    """``\\sqrt{arg}``."""

    __slots__ = ("arg",)

    def __init__(self, arg):
        self.arg = arg


class Call(Node):
    """An operator applied to arguments: ``\\operatorname{softmax}\\left(x\\right)``.

    ``tex`` and ``text`` spell the operator when it is not ``\\operatorname{name}``
    (``\\sigma``, ``\\tanh``); by default they come from ``name``.
    """

    __slots__ = ("name", "args", "tex", "text")
    precedence = PRECEDENCE["Func"]

    def __init__(self, name: str, args, tex: str | None = None, text: str | None = None):
        self.name, self.args = name, tuple(args)
        self.tex = tex if tex is not None else r"\operatorname{%s}" % name
        self.text = text if text is not None else name


class Label(Node):
    """A ready-made atom: LaTeX and Unicode text given explicitly."""

    __slots__ = ("tex", "text")

    def __init__(self, tex: str, text: str):
        self.tex, self.text = tex, text


class Paren(Node):
    """Explicit parentheses around ``item``."""

    __slots__ = ("item",)

    def __init__(self, item):
        self.item = item


class Sub(Node):
    """``base_{index}``: a subscripted item, e.g. a row of a product ``(AB)_i``."""

    __slots__ = ("base", "index")
    precedence = PRECEDENCE["Pow"]

    def __init__(self, base, index):
        self.base, self.index = base, index



class Power(Node):
    """``base^{exponent}``: a power of a diagonal matrix, ``\\tilde{D}^{-1/2}``."""

    __slots__ = ("base", "exponent")
    precedence = PRECEDENCE["Pow"]

    def __init__(self, base, exponent):
        self.base, self.exponent = base, exponent


class Hadamard(Node):
    """Factors multiplied entry by entry: ``A \\odot B``."""

    __slots__ = ("factors",)
    precedence = PRECEDENCE["Mul"]

    def __init__(self, factors):
        self.factors = tuple(factors)


class Entrywise(Node):
    """A matrix of values whose entries have names (``values`` and ``names`` are
    :class:`Bmat` of one shape).  It prints as the matrix of values; a display
    too wide for the page shows it entry by entry instead: ``c_{11} = ...``."""

    __slots__ = ("names", "values")

    def __init__(self, names: Bmat, values: Bmat):
        self.names, self.values = names, values


class Cases(Node):
    """A definition by cases: ``rows`` is a tuple of ``(value, condition)``."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = tuple((value, cond) for value, cond in rows)


class SoftmaxExpansion(Node):
    """Softmax-weighted combinations written out in full, one equation each,
    over the denominator their terms share::

        lhs = (exp(a_1) w_1 + ... + exp(a_c) w_c) / (exp(a_1) + ... + exp(a_c))

    where ``a_j = (x_1 y_j1 + ... + x_d y_jd) / scale`` is an inner product
    written out in components.  This is how attention's outputs look with
    everything substituted (the weights ``exp(a_j) / (exp(a_1) + ...)`` all
    have the one denominator, so it is written once), and all of them together
    grow as the fourth power of the sizes, so they are kept by index rather
    than as a tree of nodes:

    * ``eqs``: one ``(lhs, query, count, weights)`` per equation: the item
      on the left, the components ``x_1..x_d``, how many keys the sums run
      over (a prefix, for a causal mask) and the items ``w_1..`` they weigh;
    * ``keys``: the rows ``(y_j1, ..., y_jd)``, shared by all equations;
    * ``scale``: the display item divided by (e.g. ``Sqrt(d)``), or None.

    Rows and columns are shared tuples, so building one is cheap; printers
    stream it.  :meth:`chains` gives the same equations as ordinary nodes.
    """

    __slots__ = ("eqs", "keys", "scale")

    def __init__(self, eqs, keys, scale=None):
        self.eqs = tuple((lhs, tuple(query), int(count), tuple(weights))
                         for lhs, query, count, weights in eqs)
        self.keys = tuple(tuple(row) for row in keys)
        self.scale = scale

    def exponent(self, query, key):
        """The argument of one exponential: the inner product, over ``scale``."""
        dot = OSum([OMul([x, y]) for x, y in zip(query, key)])
        return dot if self.scale is None else Frac(dot, self.scale)

    def chains(self) -> list:
        """The equations as :class:`Chain` nodes of ordinary nodes (large!)."""
        out = []
        for lhs, query, count, weights in self.eqs:
            keys = self.keys[:count]
            num = OSum([OMul([Exp(self.exponent(query, key)), weight])
                        for key, weight in zip(keys, weights)])
            den = OSum([Exp(self.exponent(query, key)) for key in keys])
            out.append(Chain([lhs, Frac(num, den)]))
        return out
