"""The planner: a formula becomes a list of readings, one per value it computes.

Every node of the plan is one matrix the formula computes (or an operand),
an instance of the class of the *reading* that explains it
(:mod:`symrow.derive.readings`); the planner only picks the classes and
names the values:

========== ========================================================== =========
reading    what it is                                                  named?
========== ========================================================== =========
operand    a matrix given by name, read as a vector sequence          yes
combine    ``L R``: the points of R combined, weighted by l_i          yes
match      ``L R^T``: l_i matched against every point of R             yes
tcombine   ``A^T B``: a combine over the data points, Σ_i a_i^T b_i    yes
transpose  ``(AB)^T`` and other transposed results                     yes
scale      ``X / √d``, ``2X``, ``X / n``                               no
mask       ``X + M`` inside a softmax: an additive (causal) mask       no
softmax    row-wise softmax: each row becomes a distribution (配分)    yes
apply      an element-wise function: exp, ReLU, σ, tanh, φ            no
sum        terms of one shape, added or subtracted                     no
concat     matrices side by side (multi-head attention)                yes
========== ========================================================== =========

Nodes marked "no" are shown inline, as what they compute (``\\frac{S}{\\sqrt{d}}``,
``\\phi(Q)``), unless the user names them in a definition; the final result
is always named.  Names come from the user's definitions, then from the
reading (a match under a softmax is ``S``, the softmax ``P``, a projection
``X W_Q`` is ``Q``), then from a list of free letters.

Each node knows its value (:func:`Plan.values`), and its one-level
*definition* in the entry symbols of the named nodes it is made from
(:func:`Plan.definitions`), which is what the checker compares a hand
derivation with.

>>> from symrow.derive.plan import plan
>>> from symrow.formula.read import read_formula
>>> p = plan(read_formula(r"\\hat{A} X W"), {"\\\\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)})
>>> [(n.reading, n.name) for n in p.nodes]
[('operand', '\\\\hat{A}'), ('operand', 'X'), ('combine', 'H'), ('operand', 'W'), ('combine', 'C')]
>>> p.products
[('combine', '\\\\hat{A}', 'X'), ('combine', 'H', 'W')]
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

import sympy

from ..errors import NotSupportedError, OptionError, ShapeError, UnsafeNameError
from ..formula import expr as E
from ..formula.shapes import canonical_key, infer
from ..reader.lexer import Source
from ..reader.notation import NameError_, parse_name
from ..seq import VecSeq
from .readings import (READINGS, Apply, Bias, ColScale, Combine, Concat, DiagonalOperand,
                       DiagPower, Hadamard, Identity, Mask, Match, Ones, Operand, Reading, RowScale,
                       Scale, Softmax, Sum, TCombine, Transpose, is_diagonal)

__all__ = ["Plan", "plan", "FREE_LETTERS"]

#: letters for unnamed intermediates, in order of preference
_FREE = ("H", "G", "F", "U", "Z", "R", "N", "L", "J", "D", "B", "Y")
#: the letters the planner names values with that nobody named (the checker lets a page
#: define its own quantities under them)
FREE_LETTERS = frozenset(_FREE)
#: more letters, when a long backward pass has used the others and the forward pass's
#: names are taken (not FREE_LETTERS: a page defines its own S or P under them)
_MORE = ("E", "T", "A", "K", "Q", "V", "W", "X", "S", "P", "O", "C")
#: the result's name, in order of preference
_RESULT = ("C", "Y", "Z", "O", "R", "H")


@dataclasses.dataclass(frozen=True)
class Plan:
    """The readings of a formula in order of evaluation, and what they are called."""

    nodes: tuple
    result: Reading
    formula: E.Formula
    concrete: bool
    scale_mode: str
    ties: Mapping
    notes: tuple = ()

    @property
    def operands(self) -> dict:
        return {n.name: n.seq for n in self.nodes if n.given}

    @property
    def named(self) -> dict:
        return {n.name: n for n in self.nodes if n.named}

    @property
    def products(self) -> list[tuple[str, str, str]]:
        return [p for n in self.nodes for p in n.products()]

    def consumers(self, node: Reading) -> list[Reading]:
        return [n for n in self.nodes if any(i is node for i in n.inputs)]

    def sizes(self) -> dict:
        """Size names and their values (ints, or symbols in general form)."""
        out: dict = {}
        for n in self.nodes:
            for v in (n.rows, n.cols):
                if isinstance(v, sympy.Symbol):
                    out.setdefault(v.name, v)
        return out

    # -- values ---------------------------------------------------------------------------
    def values(self) -> dict:
        """Every named node's value: Matrices (concrete) or matrix expressions (general)."""
        out: dict = {}
        cache: dict = {}
        for n in self.nodes:
            if n.named:
                out[n.name] = self._value(n, cache, leaf=None)
        return out

    def definitions(self) -> dict:
        """Each derived named node, one level down: in the entry symbols of the named
        nodes it is made from (concrete sizes only)."""
        out: dict = {}
        for n in self.nodes:
            if n.named and not n.given:
                out[n.name] = self._value(n, {}, leaf=lambda m: _symbols(m.seq), top=n)
        return out

    def _value(self, n: Reading, cache: dict, leaf, top: Reading | None = None):
        if leaf is not None and n is not top and n.named:
            return leaf(n)
        key = id(n)
        if leaf is None and key in cache:
            return cache[key]

        def get(m):
            return self._value(m, cache, leaf, top)
        value = n.value(get, self) if self.concrete else n.general(get, self)
        if leaf is None:
            cache[key] = value
        return value

    def scalar(self, value):
        """A scale factor's value: ``sqrt(d)`` stays symbolic, or gets its number."""
        value = sympy.sympify(value)
        if self.scale_mode == "number":
            return value.xreplace({s: sympy.Integer(v) for s, v in self.ties.items()
                                   if isinstance(v, int)})
        return value


def _symbols(seq: VecSeq) -> sympy.ImmutableMatrix:
    return sympy.ImmutableMatrix(seq.rows, seq.cols, lambda i, j: seq.symbol(i + 1, j + 1))


# -- planning -----------------------------------------------------------------------------------

class _Draft:
    """A reading before it is named: its class, inputs (drafts), size and parameters."""

    __slots__ = ("cls", "inputs", "rows", "cols", "expr", "params", "seq", "index", "family",
                 "group")

    def __init__(self, cls, inputs, rows, cols, expr, **params):
        self.cls = cls
        self.inputs = tuple(inputs)
        self.rows, self.cols = rows, cols
        self.expr = expr
        self.params = params
        self.seq: VecSeq | None = None
        self.index = -1
        self.family: int | None = None
        self.group = None

    @property
    def reading(self) -> str:
        return self.cls.reading

    @property
    def name(self) -> str | None:
        return self.seq.name if self.seq is not None else None

    def label(self) -> str:
        if self.seq is not None:
            return self.seq.name
        return E.text(self.expr) if self.expr is not None else self.cls.reading


class _Planner:
    def __init__(self, formula: E.Formula, shapes: Mapping, *, values: Mapping,
                 causal: bool, names: Mapping, max_dim, seqs: Mapping, unnamed: set,
                 diagonal=frozenset(), labels=None, ones=None, reserved=()):
        self.ones = dict(ones or {})
        #: names taken elsewhere (a backward pass's forward names), with their entry keys
        self.reserved = tuple(reserved)
        self.diagonal = set(diagonal)
        self.labels = dict(labels or {})
        self.groups = dict(formula.groups)
        self.group = None
        self.fonts = dict(formula.fonts)
        self.families = dict(formula.families)
        self.family: int | None = None
        self.seqs = seqs
        self.unnamed = unnamed
        self.formula = formula
        self.shapes = shapes
        self.values = values
        self.causal = causal
        self.prefer = dict(names)
        self.max_dim = max_dim
        self.nodes: list[_Draft] = []
        self.by_expr: dict = {}
        self.defined: dict[str, _Draft] = {}
        self.def_of: dict[int, str] = {}
        self.mask_name = "M"
        self.result: _Draft | None = None

    def add(self, node: _Draft) -> _Draft:
        node.index = len(self.nodes)
        node.family = self.family
        node.group = self.group
        self.nodes.append(node)
        return node

    def draft(self, cls, inputs, rows, cols, expr, **params) -> _Draft:
        """A new reading of class ``cls`` (what a reading's ``from_call`` makes)."""
        return self.add(_Draft(cls, inputs, rows, cols, expr, **params))

    def unsupported(self, what: str, expr: E.Expr, hint: str = "") -> NotSupportedError:
        message = f"{what} is not supported yet{hint}"
        if self.formula.source is not None and expr.pos is not None:
            src = Source(self.formula.source)
            line, col = src.line_col(expr.pos)
            return NotSupportedError(message, line=line, column=col,
                                     near=src.near(expr.pos, expr.pos + 1))
        return NotSupportedError(message)

    def identity(self, size, expr) -> _Draft:
        key = ("identity", size)
        node = self.by_expr.get(key)
        if node is None:
            node = self.add(_Draft(Identity, (), size, size, expr))
            node.seq = VecSeq("I", size, size, max_dim=self.max_dim)
            self.by_expr[key] = node
        return node

    def all_ones(self, expr: E.Ones) -> _Draft:
        """The all-ones vector, at the size the shape inference found for it."""
        size = self.ones[expr]
        key = ("ones", size)
        node = self.by_expr.get(key)
        if node is None:
            node = self.add(_Draft(Ones, (), size, 1, expr))
            node.seq = Ones.seq_of(size, self.max_dim)
            self.by_expr[key] = node
        return node

    def _scaled_identity(self, size, expr) -> _Draft:
        """I, or (1 + eps) I, at the size of what it is added to."""
        if isinstance(expr, E.Identity):
            return self.identity(size, expr)
        x = self.identity(size, expr.arg)
        key = expr
        node = self.by_expr.get(key)
        if node is None:
            node = self.add(_Draft(Scale, (x,), size, size, expr, num=expr.num, den=expr.den))
            self.by_expr[key] = node
        return node

    def _pair(self, left: E.Expr, right: E.Expr, product: bool):
        """The drafts of two sides; an identity takes its size from the other side."""
        if isinstance(left, E.Identity) and isinstance(right, E.Identity):
            raise OptionError("I times I: the size of the identity cannot be told")
        if isinstance(left, E.Identity):
            b = self.get(right)
            return self.identity(b.rows, left), b
        a = self.get(left)
        if isinstance(right, E.Identity):
            return a, self.identity(a.cols if product else a.rows, right)
        return a, self.get(right)

    def consumers(self, node: _Draft) -> list[_Draft]:
        return [n for n in self.nodes if any(i is node for i in n.inputs)]

    def get(self, expr: E.Expr, *, in_softmax: bool = False) -> _Draft:
        if isinstance(expr, E.Name):
            if expr.name in self.defined:
                return self.defined[expr.name]
            key = ("operand", expr.name)
            node = self.by_expr.get(key)
            if node is None:
                rows, cols = self.shapes[expr.name]
                cls = DiagonalOperand if expr.name in self.diagonal else Operand
                if cls is DiagonalOperand and rows != cols:
                    raise ShapeError(f"{expr.name} is declared diagonal, so it must be "
                                     f"square; it is {rows} x {cols}")
                node = self.add(_Draft(cls, (), rows, cols, expr))
                node.seq = self._operand_seq(expr.name, rows, cols)
                self.by_expr[key] = node
            return node
        key = expr
        node = self.by_expr.get(key)
        if node is None:
            node = self._build(expr, in_softmax)
            self.by_expr[key] = node
        return node

    def _operand_seq(self, name: str, rows, cols) -> VecSeq:
        if name in self.seqs:
            return self.seqs[name]
        given = self.values.get(name)
        if name == self.mask_name and self.causal:
            if isinstance(rows, int):
                shift = cols - rows
                given = sympy.Matrix(rows, cols, lambda i, j: 0 if j + 1 <= i + 1 + shift
                                     else sympy.S.NegativeInfinity)
        font = self.fonts.get(name)
        if given is None and name in self.diagonal and isinstance(rows, int):
            plain = VecSeq(name, rows, cols, max_dim=self.max_dim, font=font)
            given = sympy.Matrix(rows, cols, lambda i, j: plain.symbol(i + 1, j + 1)
                                 if i == j else 0)
        if given is not None:
            matrix = sympy.Matrix(given)
            if matrix.shape != (rows, cols):
                raise ShapeError(f"the values of {name} are {matrix.rows} x {matrix.cols}, "
                                 f"but the formula needs {rows} x {cols}")
            return VecSeq(name, rows, cols, values=matrix, max_dim=self.max_dim, font=font)
        return VecSeq(name, rows, cols, max_dim=self.max_dim, font=font)

    def _build(self, expr: E.Expr, in_softmax: bool) -> _Draft:
        if isinstance(expr, E.Transpose):
            if isinstance(expr.arg, E.Transpose):
                return self.get(expr.arg.arg)
            inner = self.get(expr.arg)
            return self.add(_Draft(Transpose, (inner,), inner.cols, inner.rows, expr))
        if isinstance(expr, E.Product):
            left, right = expr.left, expr.right
            if isinstance(left, E.Identity) or isinstance(right, E.Identity):
                a, b = self._pair(left, right, product=True)
                return self.add(_Draft(RowScale, (a, b), a.rows, b.cols, expr))
            if not isinstance(left, E.Transpose) and is_diagonal(self.get(left)):
                a, b = self.get(left), self.get(right)
                return self.add(_Draft(RowScale, (a, b), a.rows, b.cols, expr))
            if not isinstance(left, E.Transpose) and not isinstance(right, E.Transpose) and \
                    is_diagonal(self.get(right)):
                a, b = self.get(left), self.get(right)
                return self.add(_Draft(ColScale, (a, b), a.rows, b.cols, expr))
            if isinstance(right, E.Transpose):
                a, b = self.get(left), self.get(right.arg)
                return self.add(_Draft(Match, (a, b), a.rows, b.rows, expr))
            if isinstance(left, E.Transpose):
                a, b = self.get(left.arg), self.get(right)
                return self.add(_Draft(TCombine, (a, b), a.cols, b.cols, expr))
            a, b = self.get(left), self.get(right)
            return self.add(_Draft(Combine, (a, b), a.rows, b.cols, expr))
        if isinstance(expr, E.Power):
            x = self.get(expr.arg)
            if not is_diagonal(x) and x.rows == x.cols and sympy.Integer(expr.exponent) == \
                    expr.exponent and 2 <= expr.exponent <= 8:
                # S^3 of a square matrix: the product S S S, read as it is written out
                out = expr.arg
                for _ in range(int(expr.exponent) - 1):
                    out = E.Product(out, expr.arg, pos=expr.pos)
                return self.get(out)
            if not is_diagonal(x):
                what = E.text(expr.arg)
                hint = (f": {what} is not known to be diagonal (if it is, declare it with "
                        f"diagonal=[{what!r}] or --diagonal '{what}', or define it, as in "
                        f"D_{{ii}} = \\sum_j A_{{ij}})")
                if expr.exponent == -1:
                    raise self.unsupported(f"the inverse of {what}", expr, hint)
                raise self.unsupported(f"a power of {what} ({what}^{{{expr.exponent}}})",
                                       expr, hint)
            return self.add(_Draft(DiagPower, (x,), x.rows, x.cols, expr,
                                   exponent=expr.exponent))
        if isinstance(expr, E.Hadamard):
            a, b = self._pair(expr.left, expr.right, product=False)
            return self.add(_Draft(Hadamard, (a, b), a.rows, a.cols, expr))
        if isinstance(expr, E.Call):
            cls = READINGS.get(expr.func)
            if cls is None:
                raise self.unsupported(f"the function {expr.func}", expr)
            return cls.from_call(self, expr)
        if isinstance(expr, E.Ones):
            return self.all_ones(expr)
        if isinstance(expr, E.Identity):
            raise OptionError("the size of the identity I cannot be told here; write it "
                              "beside a matrix, as in A + I, or give its size")
        if isinstance(expr, E.Scaled):
            x = self.get(expr.arg)
            return self.add(_Draft(Scale, (x,), x.rows, x.cols, expr, num=expr.num,
                                   den=expr.den))
        if isinstance(expr, E.Sum):
            if in_softmax and len(expr.terms) == 2 and expr.signs == (1, 1) and \
                    isinstance(expr.terms[1], E.Name) and expr.terms[1].name == self.mask_name \
                    and self.mask_name not in self.defined:
                x, m = self.get(expr.terms[0]), self.get(expr.terms[1])
                return self.add(_Draft(Mask, (x, m), x.rows, x.cols, expr, causal=self.causal))
            known = [self.get(t) for t in expr.terms if not _is_identity(t)]
            if not known:
                raise OptionError("a sum of identities: the size of I cannot be told")
            terms = [self._scaled_identity(known[0].rows, t) if _is_identity(t) else
                     self.get(t) for t in expr.terms]
            is_row = tuple(t.rows == 1 and any(o.rows != 1 for o in terms) for t in terms)
            main = next(t for t, row in zip(terms, is_row) if not row)
            if any(is_row):
                return self.add(_Draft(Bias, terms, main.rows, main.cols, expr,
                                       signs=tuple(expr.signs), is_row=is_row))
            return self.add(_Draft(Sum, terms, terms[0].rows, terms[0].cols, expr,
                                   signs=tuple(expr.signs)))
        if isinstance(expr, E.Softmax):
            x = self.get(expr.arg, in_softmax=True)
            return self.add(_Draft(Softmax, (x,), x.rows, x.cols, expr))
        if isinstance(expr, E.Apply):
            return Apply.from_expr(self, expr)
        if isinstance(expr, E.Concat):
            if expr.stacked:
                raise self.unsupported(
                    "blocks one on top of the other, [a; b], in a formula whose points are "
                    "rows (that stacks points)", expr,
                    "; if the blocks are column vectors, give convention='column' "
                    "(--convention column)")
            parts = [self.get(p) for p in expr.parts]
            cols = sum((p.cols for p in parts), sympy.S.Zero)
            cols = int(cols) if all(isinstance(p.cols, int) for p in parts) else cols
            return self.add(_Draft(Concat, parts, parts[0].rows, cols, expr))
        raise TypeError(type(expr).__name__)

    def run(self) -> _Draft:
        result = None
        for name, expr in self.formula.definitions:
            if isinstance(expr, E.Name) and name:
                raise OptionError(f"{name} = {expr.name} only renames {expr.name}; a "
                                  f"definition must compute something")
            self.family = self.families.get(name)
            self.group = self.groups.get(name)
            node = self.get(expr)
            self.family = self.group = None
            if name:
                if node.cls.given or id(node) in self.def_of:
                    raise OptionError(f"{name} only renames "
                                      f"{self.def_of.get(id(node), node.label())}")
                self.defined[name] = node
                self.def_of[id(node)] = name
            result = node
        if result.cls.given:
            raise OptionError(f"the formula is just the matrix {result.name}; write a product, "
                              f"such as {result.name}B or {result.name}B^T")
        self.result = result
        return result

    # -- naming -----------------------------------------------------------------------------
    def _wants_name(self, node: _Draft) -> bool:
        if node is self.result:
            return True
        return node.cls.always_named and node.expr not in self.unnamed

    def _preferred(self, node: _Draft) -> list[str]:
        """Names this node would like, best first; in the k-th member of a family
        (``\\mathrm{head}_k``) the letters carry its index, ``S^(k)``."""
        plain = self._preferred_plain(node)
        if node.family is None:
            return plain
        return [f"{name}^({node.family})" for name in plain if len(name) == 1] + plain

    def _preferred_plain(self, node: _Draft) -> list[str]:
        out = []
        if node is self.result:
            out += [self.formula.written] if self.formula.written else []
            out += [self.prefer["result"]] if "result" in self.prefer else []
        out += node.cls.preferred_names(node, self)
        if node is self.result:
            out += list(_RESULT)
        return out + list(_FREE) + list(_MORE)

    def name_nodes(self) -> None:
        taken_keys = {n.seq.key for n in self.nodes if n.seq is not None} | \
            {seq.key for seq in self.reserved}
        taken = {n.seq.name for n in self.nodes if n.seq is not None} | \
            {seq.name for seq in self.reserved}
        # user-defined names first, in order; then the rest in order of evaluation
        order = [self.defined[name] for name in self.formula.names if name] + self.nodes
        done: set[int] = set()
        for node in order:
            if id(node) in done or node.seq is not None:
                done.add(id(node))
                continue
            done.add(id(node))
            user = self.def_of.get(id(node))
            if user is None and not self._wants_name(node):
                continue
            choices = [user] if user else self._preferred(node)
            for name in choices:
                if name in taken:
                    if user:
                        raise UnsafeNameError(f"{name} is both an operand and a defined name")
                    continue
                if not user and self._rows_named(name):
                    continue
                seq = VecSeq(name, node.rows, node.cols, max_dim=self.max_dim,
                             font=self.fonts.get(name), parts=self.labels.get(name))
                if seq.key in taken_keys:
                    if user:
                        clash = next(n.seq.name for n in self.nodes if n.seq is not None
                                     and n.seq.key == seq.key)
                        raise UnsafeNameError(f"{name} and {clash} would share entry symbols "
                                              f"({seq.letter}_{{ij}}); rename one of them")
                    continue
                node.seq = seq
                taken.add(name)
                taken_keys.add(seq.key)
                break
            else:
                raise UnsafeNameError("ran out of letters to name the intermediate results; "
                                      "name them in the formula, as in H = XW")

    def _rows_named(self, name: str) -> bool:
        """Whether the rows of an intermediate called ``name`` (``\\boldsymbol{h}_i`` of
        H) would be written as a name the formula already has (its operand ``h_i``, as
        GAT writes ``W h_i``): a reader could not tell them apart, so the letter is left."""
        if len(name) != 1 or not name.isupper():
            return False
        for n in self.nodes:
            parts = getattr(n.seq, "parts", None)
            if parts is not None and parts.head == name.lower() and parts.sub is not None \
                    and parts.sup is None and parts.accent is None:
                return True
        return False

    def readings(self, shell: "Plan") -> tuple[list[Reading], Reading]:
        """The drafts made whole: one immutable reading each, in order."""
        made: dict[int, Reading] = {}
        out = []
        for d in self.nodes:
            params = d.cls.made(dict(d.params), shell)
            node = d.cls([made[id(i)] for i in d.inputs], d.rows, d.cols, d.expr, seq=d.seq,
                         index=d.index, family=d.family, group=d.group, **params)
            made[id(d)] = node
            out.append(node)
        return out, made[id(self.result)]


def _assume_degrees(formula: E.Formula, diagonal: set, values: Mapping,
                    given=frozenset()) -> tuple:
    """``\\tilde{D}^{-1/2}`` with no definition of D̃, in a formula that has Ã: D̃ is read
    as the degree matrix of Ã (and the derivation says so)."""
    defined = {name for name, _ in formula.definitions if name}
    names = {e.name for _n, expr in formula.definitions for e in E.walk(expr)
             if isinstance(e, E.Name)}
    added, notes = [], []
    for _n, expr in formula.definitions:
        for e in E.walk(expr):
            if not (isinstance(e, E.Power) and isinstance(e.arg, E.Name)):
                continue
            name = e.arg.name
            if name in defined or name in diagonal or name in values or name in given or \
                    any(name == d for d, _ in added):
                continue
            try:
                parts = parse_name(name)
            except NameError_:
                continue
            if parts.head != "D":
                continue
            adjacency = dataclasses.replace(parts, head="A").canonical
            if adjacency in names and adjacency not in defined:
                added.append((name, E.Call("degree", (E.Name(adjacency),), pos=e.pos)))
                notes.append(("degree_assumed", {"D": name, "A": adjacency}))
    if not added:
        return formula, ()
    return dataclasses.replace(formula, definitions=tuple(added) + formula.definitions), \
        tuple(notes)


def plan(formula: E.Formula, shapes: Mapping | None = None, *, values: Mapping | None = None,
         causal: bool = False, scale: str = "symbolic", names: Mapping | None = None,
         conventions: Mapping | None = None, max_dim: int | None = None,
         seqs: Mapping | None = None, unnamed: set | None = None,
         diagonal=(), labels: Mapping | None = None, ties: Mapping | None = None,
         reserved=()) -> Plan:
    """Plan a formula: infer the shapes, build the readings, name them.

    ``values`` gives operands numbers (name -> Matrix); ``causal`` makes the
    mask ``M`` inside a softmax the causal one; ``scale`` is ``"symbolic"``
    (keep √d) or ``"number"``; ``names`` may give the result a preferred name
    (``{"result": "Y"}``); ``conventions`` are a preset's
    general size names (see :func:`symrow.formula.shapes.infer`); ``seqs``
    gives ready vector sequences for operands (their names, sizes and values);
    ``unnamed`` lists sub-expressions to leave unnamed (not shown on their own);
    ``diagonal`` names operands that are diagonal matrices; ``labels`` gives the
    name parts of defined names (a gradient written ∂L/∂X); ``ties`` gives size symbols
    values the formula itself cannot tell (a backward pass's, from its forward pass);
    ``reserved`` holds vector sequences whose names and entries are taken elsewhere (the
    forward pass's, which a backward pass's own intermediates must not reuse).
    """
    seqs = dict(seqs or {})
    shapes = dict(shapes or {})
    for name, seq in seqs.items():
        shapes.setdefault(name, seq.shape)
    values = {canonical_key(k): v for k, v in dict(values or {}).items()}
    if isinstance(diagonal, str):
        diagonal = [diagonal]
    diagonal = {canonical_key(d) for d in diagonal}
    formula, notes = _assume_degrees(formula, diagonal, values, set(seqs))
    given = dict(shapes or {})
    for name, matrix in values.items():
        given.setdefault(name, sympy.Matrix(matrix).shape)
    shp = infer(formula, given, conventions=conventions, max_dim=max_dim, square=diagonal)
    if causal and "M" not in shp.operands:
        raise OptionError("causal=True needs a mask M added inside a softmax, as in "
                          "softmax(QK^T/\\sqrt{d} + M)V")
    if scale not in ("symbolic", "number"):
        raise OptionError(f"scale= must be 'symbolic' or 'number'; got {scale!r}")
    if scale == "number":
        if not shp.concrete:
            raise OptionError("scale='number' substitutes the number for sqrt(d), so it "
                              "needs concrete sizes; with general sizes sqrt(d) stays symbolic")
    unknown = sorted(diagonal - set(shp.operands))
    if unknown:
        raise OptionError(f"diagonal= names {', '.join(unknown)}, which the formula does not "
                          f"use as an operand; it uses {', '.join(shp.operands)}")
    pl = _Planner(formula, shp.operands, values=values, causal=causal, names=names or {},
                  max_dim=max_dim, seqs=seqs, unnamed=unnamed or set(), diagonal=diagonal,
                  labels=labels, ones=shp.ones, reserved=reserved)
    pl.run()
    if causal:
        mask = next((n for n in pl.nodes if issubclass(n.cls, Mask)), None)
        if mask is None:
            raise OptionError("causal=True needs the mask M added inside a softmax")
        if isinstance(mask.rows, int) and mask.rows > mask.cols:
            blind = mask.rows - mask.cols
            who, its = ("query 1", "its") if blind == 1 else (f"queries 1 to {blind}", "their")
            raise ShapeError(
                f"a causal mask lets query i see the keys j <= i + (n - m); with m = "
                f"{mask.rows} queries and n = {mask.cols} keys, {who} would see no key at "
                f"all and {its} softmax would be 0/0. Use m <= n")
    pl.name_nodes()
    ties = {**dict(ties or {}), **dict(shp.ties)}
    if scale == "number":
        for n in pl.nodes:
            if issubclass(n.cls, Scale):
                for sym in (sympy.sympify(n.params["num"]).free_symbols |
                            sympy.sympify(n.params["den"]).free_symbols):
                    if not isinstance(ties.get(sym), int):
                        raise OptionError(f"scale='number' needs the value of {sym}, which is "
                                          f"not a size of the formula")
    shell = Plan((), None, formula, shp.concrete, scale, ties)
    nodes, result = pl.readings(shell)
    notes = notes + tuple(_scalar_notes(nodes, ties))
    return Plan(tuple(nodes), result, formula, shp.concrete, scale, ties, notes)


def _scalar_notes(nodes, ties: Mapping) -> list:
    """Symbols read as scalars between matrices that are not sizes (β in X^T X β)."""
    out, seen = [], set()
    for n in nodes:
        if not isinstance(n, Scale):
            continue
        for sym in sorted(sympy.sympify(n.num).free_symbols |
                          sympy.sympify(n.den).free_symbols, key=str):
            if sym in ties or sym in seen:
                continue
            seen.add(sym)
            out.append(("scalar", {"symbol": sym}))
    return out


def _is_identity(expr) -> bool:
    """I, or a scaled I such as (1 + eps) I."""
    return isinstance(expr, E.Identity) or (isinstance(expr, E.Scaled) and
                                            isinstance(expr.arg, E.Identity))
