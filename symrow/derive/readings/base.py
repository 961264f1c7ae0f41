"""The base of every reading, and the display pieces the readings share.

A plan (:mod:`symrow.derive.plan`) is a list of :class:`Reading` objects,
one per value the formula computes, in order of evaluation.  Each reading
class owns everything about its kind of value, as SymPy's
``manualintegrate`` rule classes do:

* ``value`` and ``general``: its SymPy value (concrete sizes) and its matrix
  expression (general sizes);
* ``compose``: how it is shown inline when it has no name of its own
  (``\\frac{S}{\\sqrt{d}}``, ``\\phi(Q)``);
* ``definition``: the display of its definition one level down (``H =
  \\hat{A} X``);
* ``row_formula``: row i of it, in the rows of its inputs;
* ``steps``: the language-neutral steps that read it (the words are in the
  narration templates, keyed by the step kinds);
* ``product``: its place in ``Derivation.products``;
* ``terms``: the scalar products a concrete derivation writes out for it;
* ``preferred_names``: the names it would like (``S`` for a match under a
  softmax);
* ``backward``: its vector-Jacobian products (see :mod:`symrow.derive.backward`).

Readings are immutable: the planner builds each one whole, name included.
"""

from __future__ import annotations

from typing import Callable, ClassVar

import sympy

from ... import nodes as N
from ...build import I, J, K, T, column, indices, table
from ...errors import NotSupportedError
from ...formula import expr as E
from ...seq import VecSeq
from ...steps import Step

__all__ = ["Reading", "Ctx", "READINGS", "register", "scalar_node", "scaled", "call",
           "stack_of", "stack_of_seq", "run", "entrywise", "variant", "I", "J", "K", "T",
           "L", "JP", "NEG_INF", "ZERO"]

L = sympy.Symbol("l")      # a component of a value (and of an output)
JP = sympy.Symbol("j'")    # the summation index of the softmax's denominator
NEG_INF = sympy.S.NegativeInfinity
ZERO = sympy.S.Zero

#: every reading class by its name ("combine", "softmax", ...), in order of registration
READINGS: dict[str, type] = {}


def register(cls: type) -> type:
    """Add a reading class to :data:`READINGS` (a class decorator)."""
    if not cls.reading:
        raise TypeError(f"{cls.__name__} needs a reading name")
    READINGS[cls.reading] = cls
    return cls


class Reading:
    """One value of a plan: its inputs, its size, its name (if it has one), and its reading.

    ``inputs`` are readings earlier in the plan; ``rows`` and ``cols`` are ints
    (concrete) or size expressions (general); ``seq`` is the vector sequence
    that names it (None when it is shown inline); ``expr`` the formula node it
    was read from; ``index`` its place in the plan.
    """

    #: the reading's name: "combine", "softmax", ...
    reading: ClassVar[str] = ""
    #: shown under a name of its own even when the user gave none
    always_named: ClassVar[bool] = False
    #: the reading this node reports in ``Derivation.products`` (None: not a product)
    product: ClassVar[str | None] = None
    #: row i of it is made from row i of its first input (see :func:`sections.spine`)
    pointwise: ClassVar[bool] = True

    __slots__ = ("inputs", "rows", "cols", "seq", "expr", "index", "family", "group")

    def __init__(self, inputs, rows, cols, expr=None, *, seq: VecSeq | None = None,
                 index: int = -1, family: int | None = None, group=None, **params):
        set_ = object.__setattr__
        set_(self, "family", family)
        set_(self, "group", group)
        set_(self, "inputs", tuple(inputs))
        set_(self, "rows", rows)
        set_(self, "cols", cols)
        set_(self, "seq", seq)
        set_(self, "expr", expr)
        set_(self, "index", index)
        for key, value in params.items():
            set_(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError(f"a {self.reading} reading is not changed after it is built")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label()} {self.rows}x{self.cols}>"

    # -- what it is ---------------------------------------------------------------------
    @property
    def name(self) -> str | None:
        """Its name (the name of its vector sequence), or None when it is shown inline."""
        return self.seq.name if self.seq is not None else None

    @property
    def named(self) -> bool:
        return self.seq is not None

    @property
    def concrete(self) -> bool:
        return isinstance(self.rows, int) and isinstance(self.cols, int)

    def label(self) -> str:
        """The node as plain text: its name, or what it computes."""
        if self.seq is not None:
            return self.seq.name
        return E.text(self.expr) if self.expr is not None else self.reading

    def params(self) -> dict:
        """The reading's own parameters (everything but inputs, size, name and place)."""
        return {}

    # -- displays: the whole matrix, one entry, one row ---------------------------------
    def whole(self):
        if self.seq is not None:
            return self.seq
        return self.compose(lambda n: n.whole())

    def entry(self, i, j):
        if self.seq is not None:
            from ...build import entry_of
            return entry_of(self.seq, i, j)
        return self.compose(lambda n: n.entry(i, j))

    def entry_symbol(self, i, j):
        """Entry (i, j) by name (never its value), for definitions shown symbolically."""
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self.compose(lambda n: n.entry_symbol(i, j))

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        return self.compose(lambda n: n.row(i))

    def compose(self, part: Callable):
        """The unnamed node shown as what it computes, with ``part(input)`` for its inputs."""
        raise AssertionError(f"a {self.reading} reading is always named")

    # -- values -----------------------------------------------------------------------
    def value(self, get: Callable, plan):
        """Its value for concrete sizes (a SymPy matrix), from ``get(input)``."""
        raise NotImplementedError(self.reading)

    def general(self, get: Callable, plan):
        """Its matrix expression for general sizes; a nonlinear reading is a matrix of
        its own name."""
        return sympy.MatrixSymbol(self.seq.name if self.seq else self.label(), self.rows,
                                  self.cols)

    # -- the derivation ---------------------------------------------------------------
    def definition(self, parts: list):
        """Its definition one level down, with ``parts`` shown for its inputs."""
        raise NotImplementedError(self.reading)

    def row_formula(self):
        """Row i in the rows of its inputs (``c_i = a_i B``), or None."""
        return None

    def spine_input(self):
        """The input whose row i row i of this one is made from (when ``pointwise``)."""
        return self.inputs[0]

    def steps(self, ctx: "Ctx", part: str) -> list[Step]:
        """The steps that read it, for the narrators."""
        return []

    def terms(self, plan, shown_combine: bool = True) -> int:
        """Scalar products a concrete derivation writes out for it."""
        return 0

    def products(self) -> list[tuple[str, str, str]]:
        """Its entries in ``Derivation.products``: ``(reading, left, right)``."""
        if self.product is None:
            return []
        return [(self.product, self.inputs[0].label(), self.inputs[1].label())]

    @classmethod
    def from_call(cls, planner, expr):
        """The draft for ``expr``, a :class:`symrow.formula.expr.Call` of this reading
        (``LayerNorm(X)``): by default its inputs are the arguments and its shape is the
        first one's."""
        inputs = [planner.get(a) for a in expr.args]
        return planner.draft(cls, inputs, inputs[0].rows, inputs[0].cols, expr)

    @classmethod
    def preferred_names(cls, node, plan) -> list[str]:
        """Names a node of this reading would like, best first (``plan``: the planner)."""
        return []

    def expandable(self):
        """What a full expansion of it in the operands' entries needs, or None."""
        return None

    def expansion(self, ctx: "Ctx", part: str) -> list[Step]:
        """Its full expansion in the entries of the operands, if it has one."""
        return []

    def as_expr(self, args):
        """Its formula (:mod:`symrow.formula.expr`) with ``args`` for its inputs: how the
        backward pass refers to a value that has no name."""
        raise NotSupportedError(f"the backward pass through a {self.reading} reading is not "
                                f"supported yet")

    def backward(self, g, bw):
        """The vector-Jacobian products of this reading: ``[(input index, its share of the
        gradient), ...]`` given ``g``, the gradient of this value (formula nodes), and
        ``bw``, whose ``ref(node)`` is the formula of any value of the forward pass.
        See :mod:`symrow.derive.backward`."""
        raise NotSupportedError(f"the backward pass through a {self.reading} reading is not "
                                f"supported yet")


class Ctx:
    """What every reading's steps need: the plan, the style of words, shared helpers.

    ``article``: a single product follows the reference article's path
    (sections 1 to 4) instead of the generic one; ``quiet``: the readings
    whose steps are not shown (another head of multi-head attention)."""

    def __init__(self, plan, style: str | None = None, *, article: bool = False,
                 quiet=frozenset()):
        self.plan = plan
        self.style = style
        self.concrete = plan.concrete
        self.article = article
        self.quiet = frozenset(quiet)

    def shown(self, node: "Reading") -> bool:
        """Whether the steps of ``node`` are shown."""
        return node.index not in self.quiet

    def step(self, kind: str, params: dict | None = None, display=None, *, part: str) -> Step:
        params = dict(params or {})
        if self.style and "style" not in params:
            params["style"] = self.style
        return Step(kind, params, display, part=part)

    def heading(self, topic: str, *, part: str, **params) -> Step:
        return self.step("heading", {"topic": topic, **params}, part=part)


def variant(ctx: Ctx) -> str:
    return "concrete" if ctx.concrete else "general"


# -- display helpers ------------------------------------------------------------------------

def scalar_node(value):
    """A SymPy scalar as a display item: ``sqrt(d)`` -> ``\\sqrt{d}`` (a number, such as
    ``sqrt(2)``, stays a SymPy leaf)."""
    if isinstance(value, sympy.Pow) and value.exp == sympy.S.Half and value.base.is_Symbol:
        return N.Sqrt(value.base)
    return value


def scaled(item, num, den):
    """``item`` times ``num/den`` as written: ``\\frac{S}{\\sqrt{d}}``, ``2 X``."""
    if num == 1 and den == 1:
        return item
    if num == 1:
        return N.Frac(item, scalar_node(den))
    if den == 1:
        return N.OMul([scalar_node(num), item])
    return N.OMul([N.Frac(scalar_node(num), scalar_node(den)), item])


def call(func: str, item):
    """``func(item)`` as a display: ``\\exp``, ``\\operatorname{ReLU}``, ``\\phi``."""
    if func == "exp":
        return N.Exp(item)
    prime = func.endswith("'")
    base = func.rstrip("'")
    tex, txt = E.FUNCTIONS.get(base, (r"\operatorname{%s}" % base, base))
    if prime:   # the derivative, f'
        tex, txt = ("{%s}'" % tex if tex.startswith("\\operatorname") else tex + "'"), \
            txt + "′"
        return N.Call(func, [item], tex=tex, text=txt)
    if base not in E.FUNCTIONS:
        return N.Call(func, [item])
    return N.Call(func, [item], tex=tex, text=txt)


def stack_of(node: Reading) -> N.Bmat:
    """``[x_1; x_2; ...]``: a node's points stacked."""
    return column(node.rows, node.row)


def stack_of_seq(seq: VecSeq) -> N.Bmat:
    return column(seq.rows, seq.vector)


def run(size, make, last=None) -> N.OSum:
    """``make(1) + make(2) + ... + make(size)`` (with ``\\cdots`` when general)."""
    if last is not None and not isinstance(last, int):
        return N.OSum([make(1), make(2), N.Dots("c"), make(last)])
    return N.OSum([N.Dots("c") if j is None else make(j) for j in indices(
        size if last is None else last)])


def entrywise(node: Reading, values) -> N.Chain:
    """``C = [c_11 ...] = [values]``, shown entry by entry when too wide."""
    names = table(node.rows, node.cols, node.seq.symbol)
    return N.Chain([node.seq, names, N.Entrywise(names, table(node.rows, node.cols, values))])
