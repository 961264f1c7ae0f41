"""The sizes of every matrix in a formula: given, inferred, or named.

Shapes the user gives (``{"X": (4, 3)}``, or general ``{"X": ("n", "d")}``)
are taken as they are; every product ``L R`` then says that L has as many
columns as R has rows, and a sum that its terms agree, so the rest follows.
A clash is a :class:`~symrow.errors.ShapeError` that names the product (or
the sum), both operands and both shapes.  What cannot be inferred from
concrete shapes is named in the error.  With no shapes at all, the general
form is derived: every size gets a conventional name (m, ℓ, n, ...), a
size divided by (``\\sqrt{d}``, ``/n``) names the inner size of the product
it scales, and a preset may supply the article's own names.

>>> from symrow.formula.read import read_formula
>>> from symrow.formula.shapes import infer
>>> infer(read_formula("XW"), {"X": (4, 3)}).operands
Traceback (most recent call last):
...
symrow.errors.ShapeError: cannot infer the number of columns of W from the formula and the shapes given; give it, e.g. shapes={'W': (3, 2)} (on the command line: --shape W=3x2)
>>> infer(read_formula("XW"), {"X": (4, 3), "W": (3, 2)}).operands
{'X': (4, 3), 'W': (3, 2)}
>>> infer(read_formula(r"\\frac{QK^T}{\\sqrt{d}}"), None).operands
{'Q': (m, d), 'K': (ell, d)}
"""

from __future__ import annotations

import dataclasses
import re
from typing import Mapping

import sympy

from ..errors import OptionError, ShapeError, SizeError, SymrowError
from ..seq import check_size, size_symbol
from ..reader.notation import NameError_, lookup_function, parse_name
from .expr import (Apply, Call, Concat, Expr, Formula, Hadamard, Identity, Name, Ones, Power,
                   Product, Scaled, Softmax, Sum, Transpose, children, text, walk)

__all__ = ["Shapes", "infer", "GENERAL_NAMES", "Sizes", "KNOWN"]

#: conventional names for general sizes, in the order they are handed out (never an
#: index letter of the derivations: i, j, k, l, r, t)
GENERAL_NAMES = ("m", "ell", "n", "d", "p", "q", "s", "u", "v", "w", "g", "h", "a", "b", "c",
                 "e", "f", "o", "x", "y", "z")


@dataclasses.dataclass(frozen=True)
class Shapes:
    """The result of :func:`infer`.

    * ``operands``: each operand's name -> (rows, cols), in order of appearance;
    * ``concrete``: True when every size is an int;
    * ``ties``: size symbols written in the formula (``d`` of ``\\sqrt{d}``)
      -> the size they stand for (an int, or themselves in general form);
    * ``ones``: each all-ones vector of the formula (:class:`~symrow.formula.expr.Ones`)
      -> its size.
    """

    operands: dict
    concrete: bool
    ties: dict
    ones: dict = dataclasses.field(default_factory=dict)


class _Sizes:
    """Union-find over unknown sizes, each class with at most one value."""

    def __init__(self):
        self.parent: list[int] = []
        self.value: dict[int, object] = {}
        self.prefer: dict[int, str] = {}

    def new(self) -> int:
        self.parent.append(len(self.parent))
        return len(self.parent) - 1

    def find(self, v: int) -> int:
        while self.parent[v] != v:
            self.parent[v] = self.parent[self.parent[v]]
            v = self.parent[v]
        return v

    def get(self, v: int):
        return self.value.get(self.find(v))

    def set(self, v: int, value) -> bool:
        root = self.find(v)
        have = self.value.get(root)
        if have is not None and have != value:
            return False
        self.value[root] = value
        return True

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        va, vb = self.value.get(ra), self.value.get(rb)
        if va is not None and vb is not None and va != vb:
            return False
        self.parent[rb] = ra
        if va is None and vb is not None:
            self.value[ra] = vb
        if ra not in self.prefer and rb in self.prefer:
            self.prefer[ra] = self.prefer[rb]
        return True


def _show(value) -> str:
    return "?" if value is None else str(value)


class _Inference:
    def __init__(self, formula: Formula, given: Mapping):
        self.formula = formula
        self.given = given
        self.u = _Sizes()
        self.operands: dict[str, tuple[int, int]] = {}
        self.defined: dict[str, tuple[int, int]] = {}
        self.ties: list[tuple[sympy.Symbol, int]] = []
        self.scalars: set[str] = set()
        self.concat: list[tuple[int, list[int]]] = []
        self.biases = _bias_names(formula)
        self.ones: list[int] = []          # sizes that are 1 by the reading (a bias row)
        self.all_ones: dict[Ones, int] = {}   # each all-ones vector -> its size

    def shape_text(self, rc) -> str:
        return f"{_show(self.u.get(rc[0]))} x {_show(self.u.get(rc[1]))}"

    def name(self, expr: Name) -> tuple[int, int]:
        if expr.name in self.defined:
            return self.defined[expr.name]
        if expr.name not in self.operands:
            rc = (self.u.new(), self.u.new())
            self.operands[expr.name] = rc
            if expr.name in self.formula.vectors:
                self._one(rc[0])
            if expr.name in self.given:
                rows, cols = self.given[expr.name]
                self.u.set(rc[0], rows)
                self.u.set(rc[1], cols)
        return self.operands[expr.name]

    def shape(self, expr: Expr) -> tuple[int, int]:
        if isinstance(expr, Name):
            return self.name(expr)
        if isinstance(expr, Transpose):
            r, c = self.shape(expr.arg)
            return c, r
        if isinstance(expr, Product):
            left, right = self.shape(expr.left), self.shape(expr.right)
            if not self.u.union(left[1], right[0]):
                lt, rt = text(expr.left), text(expr.right)
                raise ShapeError(
                    f"the product {text(expr)} needs as many columns in {lt} as rows in "
                    f"{rt}; {lt} is {self.shape_text(left)} and {rt} is "
                    f"{self.shape_text(right)}")
            return left[0], right[1]
        if isinstance(expr, Scaled):
            rc = self.shape(expr.arg)
            inner = self._inner(expr.arg)
            for scalar in (expr.num, expr.den):
                for sym in sympy.sympify(scalar).free_symbols:
                    self.scalars.add(sym.name)
                    if inner is not None and sym.is_integer:
                        self.ties.append((sym, inner))
            return rc
        if isinstance(expr, (Softmax, Apply)):
            return self.shape(expr.arg)
        if isinstance(expr, Power):
            r, c = self.shape(expr.arg)
            if not self.u.union(r, c):
                raise ShapeError(f"{text(expr)} is a power of a matrix that is not square "
                                 f"({self.shape_text((r, c))})")
            return r, c
        if isinstance(expr, Identity):
            v = self.u.new()
            return v, v
        if isinstance(expr, Ones):
            return self._all_ones(expr)
        if isinstance(expr, Hadamard):
            left, right = self.shape(expr.left), self.shape(expr.right)
            if not (self.u.union(left[0], right[0]) and self.u.union(left[1], right[1])):
                a, b = text(expr.left), text(expr.right)
                raise ShapeError(
                    f"the Hadamard product {text(expr)} multiplies matrices of different "
                    f"shapes entry by entry: {a} is {self.shape_text(left)} and {b} is "
                    f"{self.shape_text(right)}")
            return left
        if isinstance(expr, Call):
            return self._call(expr)
        if isinstance(expr, Sum):
            shapes = [self.shape(t) for t in expr.terms]
            bias = [self._is_bias(t, rc) for t, rc in zip(expr.terms, shapes)]
            main = [k for k, b in enumerate(bias) if not b] or [0]
            first = shapes[main[0]]
            for k, (term, rc) in enumerate(zip(expr.terms, shapes)):
                if k == main[0]:
                    continue
                rows_ok = self._one(rc[0]) if bias[k] else self.u.union(first[0], rc[0])
                if not (rows_ok and self.u.union(first[1], rc[1])):
                    a, b = text(expr.terms[main[0]]), text(term)
                    what = "adds a row to every row of" if bias[k] else "adds"
                    raise ShapeError(
                        f"the sum {text(expr)} {what} matrices of different shapes: {a} is "
                        f"{self.shape_text(first)} and {b} is {self.shape_text(rc)}")
            return first
        if isinstance(expr, Concat):
            shapes = [self.shape(p) for p in expr.parts]
            for part, rc in zip(expr.parts[1:], shapes[1:]):
                if not self.u.union(shapes[0][0], rc[0]):
                    raise ShapeError(
                        f"the blocks of {text(expr)} must have as many rows each; "
                        f"{text(expr.parts[0])} is {self.shape_text(shapes[0])} and "
                        f"{text(part)} is {self.shape_text(rc)}")
            cols = self.u.new()
            self.concat.append((cols, [rc[1] for rc in shapes]))
            return shapes[0][0], cols
        raise TypeError(type(expr).__name__)

    def _all_ones(self, expr: Ones) -> tuple[int, int]:
        """A column of ones: as many rows as what it meets needs (or as its subscript
        says), one column."""
        if expr in self.all_ones:
            v = self.all_ones[expr]
        else:
            v = self.all_ones[expr] = self.u.new()
            if expr.size is not None:
                self.u.set(v, expr.size)
            elif expr.sub is not None and expr.sub.isdigit():
                self.u.set(v, int(expr.sub))
            elif expr.sub is not None:
                sym = size_symbol(expr.sub)
                self.scalars.add(sym.name)
                self.ties.append((sym, v))
        one = self.u.new()
        self._one(one)
        return v, one

    def _is_bias(self, term: Expr, rc) -> bool:
        """A term added to every row: a lowercase name used only as a term of sums
        (``XW + b``), or a matrix with one row added to one with more."""
        if isinstance(term, Name) and term.name in self.biases:
            return self.u.get(rc[0]) in (None, 1)
        return self.u.get(rc[0]) == 1 and isinstance(term, Name)

    def _one(self, v: int) -> bool:
        """Size ``v`` is 1 because of what it is (a row added to every row)."""
        self.ones.append(v)
        return self.u.set(v, 1)

    def _call(self, expr: Call) -> tuple[int, int]:
        """The shape of a function with a reading of its own, by the rule that reading
        gives its entry in the notation table (:class:`symrow.reader.notation.Function`)."""
        shapes = [self.shape(a) for a in expr.args]
        fn = lookup_function(expr.func)
        if fn is None or fn.shape is None:
            return shapes[0]
        return fn.shape(_Unknown(self), expr, shapes)

    def _inner(self, expr: Expr) -> int | None:
        """The inner size of the product ``expr`` is (following defined names)."""
        seen = 0
        while isinstance(expr, Name) and seen < 50:
            expr = dict(self.formula.definitions).get(expr.name)
            seen += 1
        if isinstance(expr, Product):
            return self.shape(expr.left)[1]
        return None

    def run(self) -> None:
        for name, expr in self.formula.definitions:
            rc = self.shape(expr)
            if name:
                if name in self.operands:
                    raise ShapeError(f"{name} is used before it is defined")
                self.defined[name] = rc
        for group in self.formula.tied:
            present = [self.operands[n] for n in group if n in self.operands]
            for rc in present[1:]:
                if not (self.u.union(present[0][0], rc[0]) and
                        self.u.union(present[0][1], rc[1])):
                    raise ShapeError(f"{', '.join(group)} are one matrix for each head, so "
                                     f"they share a shape; the shapes given differ")
        # a name written only in another member of a chain (\Delta W in W_0x + \Delta W x
        # = W_0x + BAx) may be given a shape: it is not read, and not refused
        aside = [re.sub(r"[\s{}]", "", t) for t in self.formula.aside]
        unknown = sorted(n for n in set(self.given) - set(self.operands)
                         if not any(re.sub(r"[\s{}]", "", n) in t for t in aside))
        if unknown:
            defined = [n for n in unknown if n in self.defined]
            if defined:
                raise OptionError(f"{defined[0]} is defined by the formula; its shape follows "
                                  f"from it, so do not give it")
            raise OptionError(f"shapes were given for {', '.join(unknown)}, which the formula "
                              f"does not use; it uses {', '.join(self.operands)}")


class Sizes:
    """What a reading's rule of shapes may say about sizes (see
    :meth:`symrow.derive.readings.Reading.shape_rule`).  The shape inference runs a rule
    on sizes that are not known yet (:class:`_Unknown`: each size is a class of equal
    sizes), the planner on known ones (:data:`KNOWN`), so that a rule is written once.

    * ``same(a, b)``: the sizes a and b are one (False when they cannot be);
    * ``one(a)``: a is 1, because of what the reading is (a row);
    * ``new(value)``: a size of its own, of ``value`` (an int or a size symbol);
    * ``known(a)``: the value of a (None while it is not known);
    * ``shown(shape)``: a shape as the error messages write it, ``2 x 3``.

    >>> KNOWN.same(2, 2), KNOWN.one(3), KNOWN.new(4), KNOWN.known(5), KNOWN.shown((2, 3))
    (True, False, 4, 5, '2 x 3')
    """

    def same(self, a, b) -> bool:
        return a == b

    def one(self, a) -> bool:
        return a == 1

    def new(self, value):
        return value

    def known(self, a):
        """The value of size a, or None when it is not known yet."""
        return a

    def shown(self, shape) -> str:
        return f"{shape[0]} x {shape[1]}"


#: the sizes of a plan, all known: a rule of shapes run on them computes the shape
KNOWN = Sizes()


class _Unknown(Sizes):
    """The sizes of a shape inference: classes of equal sizes, each with at most one
    value."""

    def __init__(self, inference: "_Inference"):
        self.inference = inference

    def same(self, a, b) -> bool:
        return self.inference.u.union(a, b)

    def one(self, a) -> bool:
        return self.inference._one(a)

    def new(self, value):
        v = self.inference.u.new()
        if value == 1:
            self.inference._one(v)
        elif value is not None:
            self.inference.u.set(v, value)
        return v

    def known(self, a):
        return self.inference.u.get(a)

    def shown(self, shape) -> str:
        return self.inference.shape_text(shape)


def _bias_names(formula: Formula) -> set:
    """Lowercase names used only as terms of sums: rows added to every row (``XW + b``)."""
    as_term: set = set()
    elsewhere: set = set()
    for _name, expr in formula.definitions:
        for node in walk(expr):
            for child in children(node):
                if isinstance(child, Name):
                    (as_term if isinstance(node, Sum) else elsewhere).add(child.name)
        if isinstance(expr, Name):
            elsewhere.add(expr.name)
    out = set()
    for name in as_term - elsewhere:
        try:
            if parse_name(name).lowercase:
                out.add(name)
        except NameError_:
            continue
    return out


def _normalise(given: Mapping | None, max_dim) -> dict:
    out = {}
    for name, shape in (given or {}).items():
        if not isinstance(name, str):
            raise OptionError(f"shapes are keyed by the names in the formula; got {name!r}")
        if not isinstance(shape, (tuple, list)) or len(shape) != 2:
            raise SizeError(f"the shape of {name} must be (rows, cols); got {shape!r}")
        rows = check_size(shape[0], f"rows of {name}", max_dim)
        cols = check_size(shape[1], f"cols of {name}", max_dim)
        out[canonical_key(name)] = (rows, cols)
    return out


def canonical_key(name: str) -> str:
    """A name as symrow keys it (``W^{(l)}`` -> ``W^(l)``, ``\\mathbf{X}`` -> ``X``); a
    key that is not a name is kept as given (and reported as unused)."""
    try:
        return parse_name(name).canonical
    except (NameError_, SymrowError):
        return name


def _family_shapes(formula: Formula, given: dict) -> dict:
    """A shape given for a family's pattern (``W_i^Q``, as the paper prints it) is the
    shape of each of its members (``W_1^Q``, ``W_2^Q``, ...)."""
    members = {name for group in formula.tied for name in group}
    if not members or all(name in members for name in given):
        return given
    from ..reader.notation import parse_name
    out = {}
    for name, shape in given.items():
        matched = []
        if name not in members:
            try:
                pattern = parse_name(name)
            except ValueError:
                pattern = None
            if pattern is not None:
                matched = [m for m in sorted(members) if _instance_of(pattern, parse_name(m))]
        for m in matched or [name]:
            out.setdefault(m, shape)
    return out


def _instance_of(pattern, member) -> bool:
    """Whether ``member`` (W_2^Q) is ``pattern`` (W_i^Q) with its index letter a number."""
    import dataclasses
    import re
    if dataclasses.replace(pattern, sub=None, sup=None, font=None) != \
            dataclasses.replace(member, sub=None, sup=None, font=None):
        return False
    found = False
    for mine, theirs in ((pattern.sub, member.sub), (pattern.sup, member.sup)):
        if (mine is None) != (theirs is None):
            return False
        if mine is None:
            continue
        regex = re.sub(r"(?<![A-Za-z\\])[a-z](?![A-Za-z])", "\x00", mine)
        if "\x00" not in regex:
            if mine != theirs:
                return False
            continue
        regex = "".join(r"\d+" if ch == "\x00" else re.escape(ch) for ch in regex)
        if not re.fullmatch(regex, theirs):
            return False
        found = True
    return found


def infer(formula: Formula, given: Mapping | None, *, conventions: Mapping | None = None,
          defaults: Mapping | None = None, max_dim: int | None = None,
          square=()) -> Shapes:
    """Every operand's shape: ``given`` ones, those implied by the products and sums,
    and (with no concrete shape at all) conventional names for the rest.

    ``conventions`` maps operand names to preferred general size names, as a
    preset gives them (``{"Q": ("m", "d"), ...}``); they apply in general form only.
    ``defaults`` fills sizes that remain unknown after inference (a preset's
    example shapes, so that ``combine --a 2x3`` needs no ``--b``).  ``square`` names
    operands that are square whatever their sizes (those declared diagonal).
    """
    given = _family_shapes(formula, _normalise(given, max_dim))
    kinds = {isinstance(v, int) for shape in given.values() for v in shape if v != 1}
    if len(kinds) > 1:
        shown = ", ".join(f"{n}: {r} x {c}" for n, (r, c) in given.items())
        raise SizeError(f"the shapes mix concrete and general sizes ({shown}); give all "
                        f"sizes as integers, or all as names such as 'n' and 'd'")
    inf = _Inference(formula, given)
    inf.run()
    u = inf.u
    for name in square:
        if name in inf.operands:
            rows, cols = inf.operands[name]
            if not u.union(rows, cols):
                raise ShapeError(f"{name} is declared diagonal, so it must be square; it is "
                                 f"{inf.shape_text(inf.operands[name])}")
    for name, shape in _normalise(defaults, max_dim).items():
        for v, value in zip(inf.operands.get(name, ()), shape):
            if u.get(v) is None:
                u.set(v, value)
    roots = []
    for name, (r, c) in inf.operands.items():
        for v in (r, c):
            root = u.find(v)
            if root not in roots:
                roots.append(root)
    ones = {u.find(v) for v in inf.ones}
    values = [u.value.get(root) for root in roots if root not in ones]
    for v in inf.all_ones.values():
        if u.find(v) not in roots:
            roots.append(u.find(v))
    kinds = {isinstance(v, int) for v in values if v is not None}
    if kinds == {True, False}:
        shown = ", ".join(f"{n}: {_show(u.get(r))} x {_show(u.get(c))}"
                          for n, (r, c) in inf.operands.items())
        raise SizeError(f"the shapes mix concrete and general sizes ({shown}); give all "
                        f"sizes as integers, or all as names such as 'n' and 'd'")
    concrete = kinds == {True}
    ties: dict = {}
    concats = {u.find(v) for v, _parts in inf.concat}

    def fill_concats() -> None:
        for v, parts in inf.concat:
            if u.get(v) is None and all(u.get(p) is not None for p in parts):
                total = sum((u.get(p) for p in parts), sympy.S.Zero)
                u.set(v, int(total) if total.is_Integer else total)
    fill_concats()
    if concrete:
        for name, (r, c) in inf.operands.items():
            for v, what in ((r, "rows"), (c, "columns")):
                if u.get(v) is None:
                    example = tuple(u.get(x) or 2 for x in (r, c))
                    raise ShapeError(
                        f"cannot infer the number of {what} of {name} from the formula and "
                        f"the shapes given; give it, e.g. shapes={{{name!r}: {example}}} "
                        f"(on the command line: --shape {name}={example[0]}x{example[1]})")
        for expr, v in inf.all_ones.items():
            if u.get(v) is None:
                raise ShapeError(
                    f"nothing in the formula tells the size of the all-ones vector "
                    f"\\mathbf{{1}}; write it beside what it sums, as in X\\mathbf{{1}}, or "
                    f"with its size, as in \\mathbf{{1}}_{{3}}")
        for sym, v in inf.ties:
            ties.setdefault(sym, u.get(v))
    else:
        used = {str(v) for v in values if v is not None}
        # preferences: the sizes the formula divides by (the Transformer's \sqrt{d_k} names
        # the inner size of its scores d_k, never d beside it), then the preset's names
        for sym, v in inf.ties:
            if u.get(v) is None and sym.name not in used:
                u.set(v, size_symbol(sym.name))
                used.add(sym.name)
        for name, (r, c) in inf.operands.items():
            for v, pref in zip((r, c), (conventions or {}).get(name, (None, None))):
                # a preset may give two sizes one name (attention's d_v defaults to d)
                if pref is not None and u.get(v) is None:
                    u.set(v, size_symbol(pref))
                    used.add(pref)
        for sym, v in inf.ties:
            if u.get(v) is None and sym.name not in used:
                u.set(v, size_symbol(sym.name))
                used.add(sym.name)
        # a size must not read like an operand's entries (p_ij for P) either
        letters = {name.lstrip("\\").split("{")[-1][:1].lower() for name in inf.operands}
        taken = used | inf.scalars | letters
        names = iter(n for n in GENERAL_NAMES if n not in taken)
        for root in roots:
            if u.value.get(u.find(root)) is None and u.find(root) not in concats:
                name = next(names, None)
                if name is None:
                    raise ShapeError("the formula has more sizes than symrow has names for; "
                                     "give some of its shapes")
                u.set(root, size_symbol(name))
        fill_concats()
        for sym, v in inf.ties:
            ties.setdefault(sym, u.get(v))
    shapes = {name: (u.get(r), u.get(c)) for name, (r, c) in inf.operands.items()}
    return Shapes(shapes, concrete, ties, {e: u.get(v) for e, v in inf.all_ones.items()})

