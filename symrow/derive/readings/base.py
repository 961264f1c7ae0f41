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
* ``backward``: its vector-Jacobian products (see :mod:`symrow.derive.backward`);
* ``evaluate``: its value as a pure function of matrices, which the plan, the
  backward pass and the checker all call;
* ``notation``, ``spellings`` and ``shape_rule``: the function that names it in a
  formula (``\\mathrm{LayerNorm}(X)``), registered in the table of notation
  (:mod:`symrow.reader.notation`) by :func:`register`, and its rule of shapes,
  which the shape inference (:mod:`symrow.formula.shapes`) and the planner both run;
* ``kind``: what an entry of it is made of, which gives its default display
  (element-wise ``f(x_ij)``, row-wise ``f(x_i)_j``, ...);
* ``example``: a formula that reads it, which the contract test over the
  registry (``tests/test_contract.py``) derives in every language and format.

No reading tests another by its name: they ask each other's capabilities
(``distribution``, ``matched()``, ``mask()``) or their classes.

Readings are immutable: the planner builds each one whole, name included.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, ClassVar, Mapping, Sequence

import sympy

from ... import nodes as N
from ...build import I, J, K, T, column, indices, table
from ...errors import NotSupportedError
from ...formula import expr as E
from ...formula.shapes import KNOWN
from ...narrate import register_templates, unregister_templates
from ...reader.notation import Function, register_function, unregister_function
from ...seq import VecSeq
from ...steps import Step

__all__ = ["Reading", "Ctx", "READINGS", "register", "unregister", "Example", "scalar_node",
           "scaled", "stack_of", "stack_of_seq", "run", "entrywise", "variant", "I", "J",
           "K", "T", "L", "JP", "NEG_INF", "ZERO", "KINDS", "GIVEN", "ELEMENTWISE", "ROWWISE",
           "MIXING", "DIAGONAL"]

L = sympy.Symbol("l")      # a component of a value (and of an output)
JP = sympy.Symbol("j'")    # the summation index of the softmax's denominator
NEG_INF = sympy.S.NegativeInfinity
ZERO = sympy.S.Zero

#: what an entry of a reading is made of (its ``kind``), which gives its default display:
#: a matrix given by name (an operand, the identity): its own entries
GIVEN = "given"
#: entry (i, j) from the entries (i, j) of the inputs alone: ``f(x_ij)``
ELEMENTWISE = "elementwise"
#: row i from the rows i of the inputs alone: ``f(x_i)``, entry (i, j) ``f(x_i)_j``
ROWWISE = "rowwise"
#: entries from many rows of an input: a product, a sum over the points
MIXING = "mixing"
#: a diagonal matrix: entry (i, i) from the inputs, 0 elsewhere
DIAGONAL = "diagonal"
KINDS = (GIVEN, ELEMENTWISE, ROWWISE, MIXING, DIAGONAL)

#: every reading class by its name ("combine", "softmax", ...), in order of registration
READINGS: dict[str, type] = {}


@dataclasses.dataclass(frozen=True)
class Example:
    """A formula that reads a reading, at concrete ``shapes`` (their general form is
    derived with no shapes), with the ``options`` of :func:`symrow.explain` it needs.
    ``backward`` says that the reading appears in the formula's backward pass."""

    formula: str
    shapes: Mapping
    options: Mapping = dataclasses.field(default_factory=dict)
    backward: bool = False


def register(cls: type) -> type:
    """Add a reading class to :data:`READINGS` (a class decorator), and its function to the
    table of notation with its spellings and its rule of shapes."""
    if not cls.reading:
        raise TypeError(f"{cls.__name__} needs a reading name")
    if cls.kind not in KINDS:
        raise TypeError(f"{cls.__name__}.kind must be one of {', '.join(KINDS)}")
    READINGS[cls.reading] = cls
    if cls.notation is not None:
        register_function(dataclasses.replace(cls.notation, shape=cls.shape_rule),
                          *cls.spellings)
    for lang, words in cls.words.items():
        register_templates(lang, words)
    return cls


def unregister(cls: type) -> None:
    """Remove a reading added with :func:`register` (and its function)."""
    if READINGS.get(cls.reading) is cls:
        del READINGS[cls.reading]
    if cls.notation is not None:
        unregister_function(cls.notation.key)
    for lang, words in cls.words.items():
        unregister_templates(lang, words)


class Reading:
    """One value of a plan: its inputs, its size, its name (if it has one), and its reading.

    ``inputs`` are readings earlier in the plan; ``rows`` and ``cols`` are ints
    (concrete) or size expressions (general); ``seq`` is the vector sequence
    that names it (None when it is shown inline); ``expr`` the formula node it
    was read from; ``index`` its place in the plan.
    """

    #: the reading's name: "combine", "softmax", ...
    reading: ClassVar[str] = ""
    #: what an entry is made of (one of :data:`KINDS`): it gives the default display of
    #: an entry and of a row of the value when it is shown unnamed
    kind: ClassVar[str] = ""
    #: shown under a name of its own even when the user gave none
    always_named: ClassVar[bool] = False
    #: the reading this node reports in ``Derivation.products`` (None: not a product)
    product: ClassVar[str | None] = None
    #: row i of it is made from row i of its first input (see :func:`sections.spine`)
    pointwise: ClassVar[bool] = True
    #: a matrix the user gives by name (an operand): no inputs, differentiated
    given: ClassVar[bool] = False
    #: each row is a distribution (non-negative, adding up to 1): a combine weighted by
    #: it is a weighted average
    distribution: ClassVar[bool] = False
    #: shown in the summary's chain of points even when unnamed (φ(q_i))
    on_path: ClassVar[bool] = False
    #: a single product of two operands of this reading follows the reference article
    article: ClassVar[bool] = False
    #: the inputs that are not differentiated (a mask)
    constant_inputs: ClassVar[tuple] = ()
    #: its part's name in a preset's layout (attention's "distribution"); "" for its name
    stage: ClassVar[str] = ""
    #: made only by the backward pass (a vector-Jacobian product): it has no backward
    #: pass of its own
    backward_only: ClassVar[bool] = False
    #: the function that names it in a formula (its key is the reading's name), and the
    #: other words it is spelled with; :func:`register` adds them to the table of notation
    notation: ClassVar[Function | None] = None
    spellings: ClassVar[tuple] = ()
    #: a formula that reads it (see :class:`Example`)
    example: ClassVar[Example | None] = None
    #: its sentences, for a reading that brings its own (language code -> templates);
    #: the built-in readings' are in the narration modules (:mod:`symrow.narrate`)
    words: ClassVar[Mapping] = {}

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

    @property
    def derived(self) -> bool:
        """Computed from other values (not an operand, not the identity)."""
        return bool(self.inputs)

    # -- what other readings ask of it --------------------------------------------------
    def matched(self) -> "Reading | None":
        """The value whose points this one's rows match against others (the left factor
        of a match, seen through a scaling or a mask), or None."""
        return None

    def weighs(self, node: "Reading") -> bool:
        """Whether the rows of ``node`` are the weights with which this value combines
        points (the left factor of a combine)."""
        return False

    def mask(self) -> "Reading | None":
        """The causal mask this value's rows obey (a softmax's, or that of the softmax
        weighing a combine), or None."""
        return None

    def label(self) -> str:
        """The node as plain text: its name, or what it computes."""
        if self.seq is not None:
            return self.seq.name
        return E.text(self.expr) if self.expr is not None else self.reading

    def params(self) -> dict:
        """The reading's own parameters (everything but inputs, size, name and place)."""
        return {}

    @classmethod
    def made(cls, params: dict, plan) -> dict:
        """Its parameters once the plan's options are known (a scale's number)."""
        return params

    # -- displays: the whole matrix, one entry, one row ---------------------------------
    def whole(self):
        if self.seq is not None:
            return self.seq
        return self.compose(lambda n: n.whole())

    def entry(self, i, j):
        if self.seq is not None:
            from ...build import entry_of
            return entry_of(self.seq, i, j)
        return self._entry_by_kind(i, j, lambda n: n.entry(i, j))

    def entry_symbol(self, i, j):
        """Entry (i, j) by name (never its value), for definitions shown symbolically."""
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self._entry_by_kind(i, j, lambda n: n.entry_symbol(i, j))

    def _entry_by_kind(self, i, j, entry_of_input):
        """An unnamed value's entry (i, j), as its kind says it is made: ``f(x_ij)``
        (element-wise) or coordinate j of ``f(x_i)`` (row-wise); any other kind shows
        its entries itself."""
        if self.kind == ELEMENTWISE:
            return self.compose(entry_of_input)
        if self.kind == ROWWISE:
            return N.Sub(self.compose(lambda n: n.row(i)), j)
        raise AssertionError(f"a {self.reading} reading shows its own entries")

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        return self.compose(lambda n: n.row(i))

    def compose(self, part: Callable):
        """The unnamed node shown as what it computes, with ``part(input)`` for its inputs."""
        raise AssertionError(f"a {self.reading} reading is always named")

    # -- values -----------------------------------------------------------------------
    @classmethod
    def evaluate(cls, args: Sequence[sympy.Matrix], **params) -> sympy.Matrix:
        """Its value as a pure function of matrices: ``args`` are the values of its
        inputs (SymPy matrices, numbers or symbols as entries), ``params`` its own
        parameters (:meth:`params`).  The plan, the backward pass and the checker call
        it; nothing else computes a reading's value."""
        raise NotImplementedError(f"{cls.__name__} has no evaluate")

    def evaluation_params(self, plan) -> dict:
        """The parameters :meth:`evaluate` gets in ``plan`` (its own, by default)."""
        return self.params()

    def value(self, get: Callable, plan):
        """Its value for concrete sizes (a SymPy matrix), from ``get(input)``."""
        return self.evaluate([sympy.Matrix(get(t)) for t in self.inputs],
                             **self.evaluation_params(plan))

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
    def shape_rule(cls, sizes, expr, shapes):
        """Its shape, from ``shapes``, the (rows, cols) of the arguments of ``expr`` (a
        :class:`~symrow.formula.expr.Call` of it), said in ``sizes``: the shape
        inference runs it on sizes not known yet, the planner on known ones (see
        :class:`symrow.formula.shapes.Sizes`).  By default, the first argument's shape."""
        return shapes[0]

    @classmethod
    def from_call(cls, planner, expr):
        """The draft for ``expr``, a :class:`symrow.formula.expr.Call` of this reading
        (``LayerNorm(X)``): its inputs are the arguments, its shape what
        :meth:`shape_rule` says, its parameters those of the call."""
        inputs = [planner.get(a) for a in expr.args]
        rows, cols = cls.shape_rule(KNOWN, expr, [(t.rows, t.cols) for t in inputs])
        return planner.draft(cls, inputs, rows, cols, expr, **dict(expr.params))

    @classmethod
    def display_call(cls, args: list):
        """The formula's ``f(args)`` as written, for the display of the formula."""
        fn = cls.notation
        if fn is None:
            return N.Call(cls.reading, args)
        return N.Call(fn.text, args, tex=fn.tex, text=fn.text)

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
        backward pass refers to a value that has no name.  A reading that a function
        names (:attr:`notation`) is that function's call."""
        if self.notation is not None and self.notation.reading == self.reading:
            return E.Call(self.reading, tuple(args), params=tuple(self.params().items()))
        raise NotSupportedError(f"the backward pass through a {self.reading} reading is not "
                                f"supported yet")

    def backward(self, g, bw):
        """The vector-Jacobian products of this reading: ``[(input index, its share of the
        gradient), ...]`` given ``g``, the gradient of this value (formula nodes), and
        ``bw``, whose ``ref(node)`` is the formula of any value of the forward pass.
        See :mod:`symrow.derive.backward`."""
        raise NotSupportedError(f"the backward pass through a {self.reading} reading is not "
                                f"supported yet")

    # -- its backward rule, in the formula's own names -----------------------------------
    def rule_params(self, rules) -> dict:
        """The fields of the sentence of its backward rule (``backward_rule.<reading>``):
        ``use`` (where it is made, ``O = P V``), ``C`` and ``Cbar`` (the value and its
        gradient), and its inputs with their gradients: ``X`` and ``Xbar`` for one input,
        ``L``, ``R``, ``Lbar`` and ``Rbar`` for two.  ``rules`` shows the forward values and
        names their gradients (see :class:`symrow.derive.backward._Rules`)."""
        params = {"use": rules.use(self), "C": rules.show(self), "Cbar": rules.grad(self)}
        ins = self.inputs
        if len(ins) == 1:
            params.update(X=rules.show(ins[0]), Xbar=rules.grad(ins[0]))
        elif len(ins) >= 2:
            params.update(L=rules.show(ins[0]), R=rules.show(ins[1]),
                          Lbar=rules.grad(ins[0]), Rbar=rules.grad(ins[1]))
        return params

    def rule_steps(self, rules, ctx: "Ctx", part: str) -> list[Step]:
        """Its backward rule, said once in a derivation, the first time a gradient goes
        back through it: the sentence ``backward_rule.<reading>`` with the gradients its
        inputs get, in the formula's own names (``P̄ = Ō Vᵀ, V̄ = Pᵀ Ō``)."""
        return [ctx.step("backward_rule", {**self.rule_params(rules), "variant": self.reading},
                         rules.relations(self), part=part)]

    def rule_notes(self, rules, ctx: "Ctx", part: str) -> list[Step]:
        """What it adds once the gradient it sends back has been read (the softmax: the row
        sums FlashAttention takes from the output)."""
        return []


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
        self._values: dict = {}

    def numbers(self, node: "Reading"):
        """The value of ``node`` as a matrix of numbers, when every operand it is computed
        from was given numbers (concrete sizes; a size in a scale, ``\\sqrt{d}``, takes
        its number); else None.  Nothing is computed for a node with an operand of
        symbols."""
        if not self.concrete:
            return None
        todo, seen = [node], set()
        while todo:
            n = todo.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if n.given and (n.seq is None or n.seq.values is None):
                return None
            todo.extend(n.inputs)
        value = self.plan._value(node, self._values, leaf=None)
        sizes = {s: sympy.Integer(v) for s, v in self.plan.ties.items()
                 if isinstance(s, sympy.Symbol) and isinstance(v, int)}
        value = sympy.Matrix(value).xreplace(sizes) if sizes else sympy.Matrix(value)
        if any(getattr(x, "free_symbols", True) for x in value):
            return None
        return value

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
