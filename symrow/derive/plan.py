"""The planner: a formula becomes a list of readings, one per value it computes.

Every node of the plan is one matrix the formula computes (or an operand),
with the *reading* that explains it:

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
from typing import Callable, Mapping

import sympy

from .. import nodes as N
from ..errors import OptionError, ShapeError, UnsafeNameError
from ..formula import expr as E
from ..formula.shapes import infer
from ..seq import VecSeq
from ..build import entry_of

__all__ = ["Node", "Plan", "plan", "PRODUCTS", "FUNCTION_VALUES", "function_of", "matrix_product"]

#: readings that are matrix products, with the reading they report in ``.products``
PRODUCTS = {"combine": "combine", "match": "match", "tcombine": "combine"}
#: readings whose result is always named
_NAMED = {"operand", "combine", "match", "tcombine", "transpose", "softmax", "concat"}
#: letters for unnamed intermediates, in order of preference
_FREE = ("H", "G", "F", "U", "Z", "R", "N", "L", "J", "D", "B", "Y")
#: the result's name, in order of preference
_RESULT = ("C", "Y", "Z", "O", "R", "H")


def _relu(x):
    return sympy.Max(0, x)


def _sigma(x):
    return 1 / (1 + sympy.exp(-x))


#: element-wise functions as SymPy functions of one entry (others stay undefined)
FUNCTION_VALUES: dict[str, Callable] = {"exp": sympy.exp, "relu": _relu, "sigma": _sigma,
                                        "tanh": sympy.tanh}


def function_of(name: str) -> Callable:
    """The SymPy function of one entry that ``name`` (``relu``, ``phi``, ...) stands for."""
    return FUNCTION_VALUES.get(name) or sympy.Function(name)


class Node:
    """One value of the plan: its reading, inputs, size and (if named) vector sequence."""

    __slots__ = ("reading", "inputs", "rows", "cols", "seq", "expr", "num", "den", "func",
                 "signs", "causal", "quiet", "index", "shown_scale")

    def __init__(self, reading: str, inputs, rows, cols, expr=None, **extra):
        self.reading = reading
        self.inputs = tuple(inputs)
        self.rows, self.cols = rows, cols
        self.expr = expr
        self.seq: VecSeq | None = None
        self.num = extra.get("num", sympy.S.One)
        self.den = extra.get("den", sympy.S.One)
        #: the scale as displayed: √d as written, or its number (scale="number")
        self.shown_scale = (self.num, self.den)
        self.func = extra.get("func")
        self.signs = tuple(extra.get("signs", ()))
        self.causal = extra.get("causal", False)
        self.quiet = False
        self.index = -1

    def __repr__(self) -> str:
        return f"<Node {self.reading} {self.name or self.label()} {self.rows}x{self.cols}>"

    @property
    def name(self) -> str | None:
        return self.seq.name if self.seq is not None else None

    @property
    def named(self) -> bool:
        return self.seq is not None

    @property
    def concrete(self) -> bool:
        return isinstance(self.rows, int)

    def label(self) -> str:
        """The node as plain text: its name, or what it computes."""
        if self.seq is not None:
            return self.seq.name
        return E.text(self.expr) if self.expr is not None else self.reading

    # -- displays: the whole matrix, one entry, one row ---------------------------------------
    def whole(self):
        if self.seq is not None:
            return self.seq
        return self._compose(lambda n: n.whole())

    def entry(self, i, j):
        if self.seq is not None:
            return entry_of(self.seq, i, j)
        return self._compose(lambda n: n.entry(i, j))

    def entry_symbol(self, i, j):
        """Entry (i, j) by name (never its value), for definitions shown symbolically."""
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self._compose(lambda n: n.entry_symbol(i, j))

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        if self.reading == "mask":
            x, m = self.inputs
            return N.OSum([x.row(i), N.Sub(m.whole(), i)])
        return self._compose(lambda n: n.row(i))

    def _compose(self, part):
        r = self.reading
        if r == "scale":
            return scaled(part(self.inputs[0]), *self.shown_scale)
        if r == "mask":
            return N.OSum([part(self.inputs[0]), part(self.inputs[1])])
        if r == "apply":
            return call(self.func, part(self.inputs[0]))
        if r == "sum":
            return N.OSum([part(t) if s > 0 else N.Neg(part(t))
                           for t, s in zip(self.inputs, self.signs)])
        raise AssertionError(f"a {r} node is always named")


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
    if func == "exp":
        return N.Exp(item)
    tex, txt = E.FUNCTIONS.get(func, (None, None))
    if tex is None:
        return N.Call(func, [item])
    return N.Call(func, [item], tex=tex, text=txt)


@dataclasses.dataclass
class Plan:
    """The nodes of a formula in order of evaluation, and what they are called."""

    nodes: list
    result: Node
    formula: E.Formula
    concrete: bool
    scale_mode: str
    ties: dict

    @property
    def operands(self) -> dict:
        return {n.name: n.seq for n in self.nodes if n.reading == "operand"}

    @property
    def named(self) -> dict:
        return {n.name: n for n in self.nodes if n.named}

    @property
    def products(self) -> list[tuple[str, str, str]]:
        return [(PRODUCTS[n.reading], n.inputs[0].label(), n.inputs[1].label())
                for n in self.nodes if n.reading in PRODUCTS]

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
            if n.named and n.reading != "operand":
                out[n.name] = self._value(n, {}, leaf=lambda m: _symbols(m.seq), top=n)
        return out

    def _value(self, n: Node, cache: dict, leaf, top: Node | None = None):
        if leaf is not None and n is not top and n.named:
            return leaf(n)
        key = id(n)
        if leaf is None and key in cache:
            return cache[key]
        value = self._compute(n, lambda m: self._value(m, cache, leaf, top))
        if leaf is None:
            cache[key] = value
        return value

    def _compute(self, n: Node, get):
        r = n.reading
        if not self.concrete:
            return self._general(n, get)
        if r == "operand":
            return sympy.ImmutableMatrix(n.seq.matrix)
        if r == "combine":
            return matrix_product(get(n.inputs[0]), get(n.inputs[1]), sympy.Matrix)
        if r == "match":
            return matrix_product(get(n.inputs[0]), get(n.inputs[1]).T, sympy.Matrix)
        if r == "tcombine":
            return matrix_product(get(n.inputs[0]).T, get(n.inputs[1]), sympy.Matrix)
        if r == "transpose":
            return sympy.Matrix(get(n.inputs[0]).T)
        if r == "scale":
            value = sympy.Matrix(get(n.inputs[0]))
            if n.num != 1:
                value = value * self.scalar(n.num)
            return value / self.scalar(n.den) if n.den != 1 else value
        if r == "mask":
            x = sympy.Matrix(get(n.inputs[0]))
            if n.causal:
                return x  # the softmax reads the mask's pattern
            return x + sympy.Matrix(get(n.inputs[1]))
        if r == "softmax":
            return self._softmax(n, sympy.Matrix(get(n.inputs[0])))
        if r == "apply":
            return sympy.Matrix(get(n.inputs[0])).applyfunc(function_of(n.func))
        if r == "sum":
            total = None
            for t, s in zip(n.inputs, n.signs):
                v = sympy.Matrix(get(t))
                v = v if s > 0 else -v
                total = v if total is None else total + v
            return total
        if r == "concat":
            return sympy.Matrix.hstack(*[get(t) for t in n.inputs])
        raise AssertionError(r)

    def _softmax(self, n: Node, x: sympy.Matrix) -> sympy.Matrix:
        arg = n.inputs[0]
        visible = visible_keys(arg) if arg.reading == "mask" and arg.causal else None
        E_ = x.applyfunc(sympy.exp)
        rows, cols = x.shape

        counts = [cols if visible is None else visible(i + 1) for i in range(rows)]
        # each row's denominator is built once, as one Add (not term by term)
        dens = [sympy.Add(*[E_[i, k] for k in range(counts[i])]) for i in range(rows)]
        return sympy.Matrix(rows, cols, lambda i, j: E_[i, j] / dens[i] if j < counts[i]
                            else sympy.S.Zero)

    def _general(self, n: Node, get):
        MS = sympy.MatrixSymbol
        r = n.reading
        if r == "operand":
            return MS(n.name, n.rows, n.cols)
        if r == "combine":
            return get(n.inputs[0]) * get(n.inputs[1])
        if r == "match":
            return get(n.inputs[0]) * get(n.inputs[1]).T
        if r == "tcombine":
            return get(n.inputs[0]).T * get(n.inputs[1])
        if r == "transpose":
            return get(n.inputs[0]).T
        if r == "scale":
            return (n.num / n.den) * get(n.inputs[0])
        if r == "sum":
            return sympy.MatAdd(*[get(t) if s > 0 else -get(t)
                                  for t, s in zip(n.inputs, n.signs)])
        if r == "mask" and not n.causal:
            return get(n.inputs[0]) + get(n.inputs[1])
        # nonlinear (or a pattern): a matrix of its own name
        return MS(n.name or n.label(), n.rows, n.cols)

    def scalar(self, value):
        """A scale factor's value: ``sqrt(d)`` stays symbolic, or gets its number."""
        value = sympy.sympify(value)
        if self.scale_mode == "number":
            return value.xreplace({s: sympy.Integer(v) for s, v in self.ties.items()
                                   if isinstance(v, int)})
        return value


def matrix_product(left, right, cls=sympy.ImmutableMatrix):
    """The matrix product, each entry one ``Add`` of its products.

    The same value as ``left * right``; SymPy's own product first asks of
    every entry whether ``0 * entry`` is 0, which for entries such as
    softmax weights means assumption queries that cost more than the
    product itself.  (The checker multiplies its small matrices with it too.)
    ``cls``: the kind of matrix returned."""
    inner = left.shape[1]
    return cls(left.shape[0], right.shape[1], lambda i, j: sympy.Add(
        *[left[i, t] * right[t, j] for t in range(inner)]))


def _symbols(seq: VecSeq) -> sympy.ImmutableMatrix:
    return sympy.ImmutableMatrix(seq.rows, seq.cols, lambda i, j: seq.symbol(i + 1, j + 1))


def visible_keys(mask: Node) -> Callable[[int], int]:
    """Under a causal mask, how many keys query ``i`` (1-based) sees: i + (n - m)."""
    m, n = mask.rows, mask.cols
    return lambda i: i + n - m


# -- planning -----------------------------------------------------------------------------------

class _Planner:
    def __init__(self, formula: E.Formula, shapes: Mapping, *, values: Mapping,
                 causal: bool, names: Mapping, max_dim, seqs: Mapping, unnamed: set):
        self.seqs = seqs
        self.unnamed = unnamed
        self.formula = formula
        self.shapes = shapes
        self.values = values
        self.causal = causal
        self.prefer = dict(names)
        self.max_dim = max_dim
        self.nodes: list[Node] = []
        self.by_expr: dict = {}
        self.defined: dict[str, Node] = {}
        self.def_of: dict[int, str] = {}
        self.mask_name = "M"

    def add(self, node: Node) -> Node:
        node.index = len(self.nodes)
        self.nodes.append(node)
        return node

    def get(self, expr: E.Expr, *, in_softmax: bool = False) -> Node:
        if isinstance(expr, E.Name):
            if expr.name in self.defined:
                return self.defined[expr.name]
            key = ("operand", expr.name)
            node = self.by_expr.get(key)
            if node is None:
                rows, cols = self.shapes[expr.name]
                node = self.add(Node("operand", (), rows, cols, expr))
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
        if given is not None:
            matrix = sympy.Matrix(given)
            if matrix.shape != (rows, cols):
                raise ShapeError(f"the values of {name} are {matrix.rows} x {matrix.cols}, "
                                 f"but the formula needs {rows} x {cols}")
            return VecSeq(name, rows, cols, values=matrix, max_dim=self.max_dim)
        return VecSeq(name, rows, cols, max_dim=self.max_dim)

    def _build(self, expr: E.Expr, in_softmax: bool) -> Node:
        if isinstance(expr, E.Transpose):
            if isinstance(expr.arg, E.Transpose):
                return self.get(expr.arg.arg)
            inner = self.get(expr.arg)
            return self.add(Node("transpose", (inner,), inner.cols, inner.rows, expr))
        if isinstance(expr, E.Product):
            left, right = expr.left, expr.right
            lt, rt = isinstance(left, E.Transpose), isinstance(right, E.Transpose)
            if rt:
                a = self.get(left)
                b = self.get(right.arg)
                return self.add(Node("match", (a, b), a.rows, b.rows, expr))
            if lt:
                a, b = self.get(left.arg), self.get(right)
                return self.add(Node("tcombine", (a, b), a.cols, b.cols, expr))
            a, b = self.get(left), self.get(right)
            return self.add(Node("combine", (a, b), a.rows, b.cols, expr))
        if isinstance(expr, E.Scaled):
            x = self.get(expr.arg)
            return self.add(Node("scale", (x,), x.rows, x.cols, expr, num=expr.num,
                                 den=expr.den))
        if isinstance(expr, E.Sum):
            if in_softmax and len(expr.terms) == 2 and expr.signs == (1, 1) and \
                    isinstance(expr.terms[1], E.Name) and expr.terms[1].name == self.mask_name \
                    and self.mask_name not in self.defined:
                x, m = self.get(expr.terms[0]), self.get(expr.terms[1])
                return self.add(Node("mask", (x, m), x.rows, x.cols, expr,
                                     causal=self.causal))
            terms = [self.get(t) for t in expr.terms]
            return self.add(Node("sum", terms, terms[0].rows, terms[0].cols, expr,
                                 signs=expr.signs))
        if isinstance(expr, E.Softmax):
            x = self.get(expr.arg, in_softmax=True)
            return self.add(Node("softmax", (x,), x.rows, x.cols, expr))
        if isinstance(expr, E.Apply):
            x = self.get(expr.arg)
            return self.add(Node("apply", (x,), x.rows, x.cols, expr, func=expr.func))
        if isinstance(expr, E.Concat):
            parts = [self.get(p) for p in expr.parts]
            cols = sum((p.cols for p in parts), sympy.S.Zero)
            cols = int(cols) if all(isinstance(p.cols, int) for p in parts) else cols
            return self.add(Node("concat", parts, parts[0].rows, cols, expr))
        raise TypeError(type(expr).__name__)

    def run(self) -> Node:
        result = None
        for name, expr in self.formula.definitions:
            if isinstance(expr, E.Name) and name:
                raise OptionError(f"{name} = {expr.name} only renames {expr.name}; a "
                                  f"definition must compute something")
            node = self.get(expr)
            if name:
                if node.reading == "operand" or id(node) in self.def_of:
                    raise OptionError(f"{name} only renames "
                                      f"{self.def_of.get(id(node), node.label())}")
                self.defined[name] = node
                self.def_of[id(node)] = name
            result = node
        if result.reading == "operand":
            raise OptionError(f"the formula is just the matrix {result.name}; write a product, "
                              f"such as {result.name}B or {result.name}B^T")
        return result


def _wants_name(node: Node, result: Node, unnamed: set) -> bool:
    if node is result:
        return True
    return node.reading in _NAMED and node.expr not in unnamed


def _preferred(node: Node, pl: _Planner, result: Node) -> list[str]:
    """Names this node would like, best first."""
    r = node.reading
    out = []
    if node is result:
        out += [pl.formula.written] if pl.formula.written else []
        out += [pl.prefer["result"]] if "result" in pl.prefer else []
    if r in pl.prefer:
        out.append(pl.prefer[r])
    if r == "match":
        consumers = _consumers(node, pl.nodes)
        chain = node
        while consumers and consumers[0].reading in ("scale", "mask"):
            chain = consumers[0]
            consumers = _consumers(chain, pl.nodes)
        if consumers and consumers[0].reading == "softmax":
            out.append("S")
    if r == "softmax":
        out.append("P")
    if r == "combine" and node.inputs[0].reading == "softmax" and node is result:
        out.append("O")
    if r == "combine" and node.inputs[1].reading == "operand" and node.inputs[0].reading == \
            "operand":
        seq = node.inputs[1].seq
        if seq.sub and len(seq.sub) == 1 and seq.sub.isalpha() and seq.sub.isupper():
            out.append(seq.sub + (f"^({seq.head})" if seq.head else ""))
    if node is result:
        out += list(_RESULT)
    return out + list(_FREE)


def _consumers(node: Node, nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if any(i is node for i in n.inputs)]


def _name_nodes(pl: _Planner, result: Node) -> None:
    taken_keys = {n.seq.key for n in pl.nodes if n.seq is not None}
    taken = {n.seq.name for n in pl.nodes if n.seq is not None}
    # user-defined names first, in order; then the rest in order of evaluation
    order = [pl.defined[name] for name in pl.formula.names if name] + pl.nodes
    done: set[int] = set()
    for node in order:
        if id(node) in done or node.seq is not None:
            done.add(id(node))
            continue
        done.add(id(node))
        user = pl.def_of.get(id(node))
        if user is None and not _wants_name(node, result, pl.unnamed):
            continue
        choices = [user] if user else _preferred(node, pl, result)
        for name in choices:
            if name in taken:
                if user:
                    raise UnsafeNameError(f"{name} is both an operand and a defined name")
                continue
            seq = VecSeq(name, node.rows, node.cols, max_dim=pl.max_dim)
            if seq.key in taken_keys:
                if user:
                    clash = next(n.seq.name for n in pl.nodes if n.seq is not None
                                 and n.seq.key == seq.key)
                    raise UnsafeNameError(f"{name} and {clash} would share entry symbols "
                                          f"({seq.letter}_{{ij}}); rename one of them")
                continue
            node.seq = seq
            taken.add(name)
            taken_keys.add(seq.key)
            break
        else:
            raise UnsafeNameError("ran out of letters to name the intermediate results; name "
                                  "them in the formula, as in H = XW")


def plan(formula: E.Formula, shapes: Mapping | None = None, *, values: Mapping | None = None,
         causal: bool = False, scale: str = "symbolic", names: Mapping | None = None,
         conventions: Mapping | None = None, max_dim: int | None = None,
         seqs: Mapping | None = None, unnamed: set | None = None) -> Plan:
    """Plan a formula: infer the shapes, build the nodes, name them.

    ``values`` gives operands numbers (name -> Matrix); ``causal`` makes the
    mask ``M`` inside a softmax the causal one; ``scale`` is ``"symbolic"``
    (keep √d) or ``"number"``; ``names`` maps readings (``"result"``,
    ``"softmax"``, ...) to preferred names; ``conventions`` are a preset's
    general size names (see :func:`symrow.formula.shapes.infer`); ``seqs``
    gives ready vector sequences for operands (their names, sizes and values);
    ``unnamed`` lists sub-expressions to leave unnamed (not shown on their own).
    """
    seqs = dict(seqs or {})
    shapes = dict(shapes or {})
    for name, seq in seqs.items():
        shapes.setdefault(name, seq.shape)
    values = dict(values or {})
    given = dict(shapes or {})
    for name, matrix in values.items():
        given.setdefault(name, sympy.Matrix(matrix).shape)
    shp = infer(formula, given, conventions=conventions, max_dim=max_dim)
    if causal and "M" not in shp.operands:
        raise OptionError("causal=True needs a mask M added inside a softmax, as in "
                          "softmax(QK^T/\\sqrt{d} + M)V")
    if scale not in ("symbolic", "number"):
        raise OptionError(f"scale= must be 'symbolic' or 'number'; got {scale!r}")
    if scale == "number":
        if not shp.concrete:
            raise OptionError("scale='number' substitutes the number for sqrt(d), so it "
                              "needs concrete sizes; with general sizes sqrt(d) stays symbolic")
    pl = _Planner(formula, shp.operands, values=values, causal=causal, names=names or {},
                  max_dim=max_dim, seqs=seqs, unnamed=unnamed or set())
    result = pl.run()
    if causal:
        mask = next((n for n in pl.nodes if n.reading == "mask"), None)
        if mask is None:
            raise OptionError("causal=True needs the mask M added inside a softmax")
        if isinstance(mask.rows, int) and mask.rows > mask.cols:
            blind = mask.rows - mask.cols
            who, its = ("query 1", "its") if blind == 1 else (f"queries 1 to {blind}", "their")
            raise ShapeError(
                f"a causal mask lets query i see the keys j <= i + (n - m); with m = "
                f"{mask.rows} queries and n = {mask.cols} keys, {who} would see no key at "
                f"all and {its} softmax would be 0/0. Use m <= n")
    _name_nodes(pl, result)
    if scale == "number":
        for n in pl.nodes:
            if n.reading == "scale":
                for sym in (sympy.sympify(n.num).free_symbols | sympy.sympify(n.den).free_symbols):
                    if not isinstance(shp.ties.get(sym), int):
                        raise OptionError(f"scale='number' needs the value of {sym}, which is "
                                          f"not a size of the formula")
    out = Plan(pl.nodes, result, formula, shp.concrete, scale, dict(shp.ties))
    if scale == "number":
        for n in out.nodes:
            if n.reading == "scale":
                n.shown_scale = (out.scalar(n.num), out.scalar(n.den))
    return out
