"""The value of the entries a hand derivation writes: translated units into SymPy values.

The entry-level grammar (:mod:`symrow.reader.entries`) reads one side of a claim
into a unit and parses it (:func:`symrow.reader.entries.parse.parse_unit`) into
an unevaluated SymPy tree.  :class:`Evaluator` walks that tree itself: it looks
placeholders up in the unit's table, multiplies factors strictly in the
order written (so ``QK^T`` is never ``K^TQ``), applies the markers
(transpose, softmax, group, entry), expands sums and bounds every number
before it reaches SymPy, so no single arithmetic operation can run long.

What a function, a transpose, an entrywise product, ``diag`` or the power or
exponential of a diagonal matrix computes is asked of its reading
(:mod:`symrow.derive.readings`, through :func:`symrow.formula.evaluate.apply` or
the reading's ``evaluate``), so ``check`` means by each exactly what ``explain``
means.  The target (the checker's ``Reference``: the derivation's symbols,
sizes, ground truth and gradients) is a parameter, used by what it offers.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> from symrow.reader.entries.parse import parse_unit
>>> from symrow.formula.entries import Evaluator
>>> ref = Reference(symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> unit = translate_text(r"\\sum_{k=1}^{2} a_{1k} b_{2k}", ref)
>>> parse_unit(unit, {})
>>> Evaluator(ref).value(unit, {})
a_{11}*b_{21} + a_{12}*b_{22}
"""

from __future__ import annotations

import math

import sympy

from ..reader.entries.indices import index_names, index_value
from ..reader.entries.parse import ALLOWED_SINGLETONS, sub_units
from ..reader.entries.units import NESTED, Atom, Unit
from .values import (MathError, RepeatedRow, UndefinedProduct, Unsized, assemble, exp_of, is_matrix,
                     scalar_or_matrix, shape_text)

__all__ = ["Evaluator", "free_indices", "MathError"]

def _reading(name: str):
    """The reading ``name`` (:data:`symrow.derive.readings.READINGS`), whose ``evaluate``
    is the one definition of what it computes; imported on use, as formula/ sits below
    derive/."""
    from ..derive.readings import READINGS
    return READINGS[name]


def matrix_product(left, right):
    """``left right``, each entry one sum of products, as the combine reading multiplies
    (:func:`symrow.derive.readings.matrix_product`)."""
    from ..derive.readings import matrix_product as product
    return product(left, right)


#: largest integer power of a symbolic expression (expansion grows fast)
MAX_SYMBOLIC_POWER = 16
#: largest number of digits a number may reach
MAX_DIGITS = 2000
#: most terms a single sum may add up
MAX_SUM_TERMS = 4096


def _atom(node, unit: Unit) -> Atom | None:
    if isinstance(node, sympy.Symbol):
        return unit.atoms.get(node.name)
    return None


def _uses(tree, unit: Unit, ref, bound: frozenset, out: dict) -> None:
    """Record index names used freely (not bound by a sum) and the ranges they index."""
    if isinstance(tree, sympy.Sum):
        body, limits = tree.args[0], tree.args[1:]
        names = set(bound)
        for var, lo, hi in reversed(limits):
            _uses(lo, unit, ref, frozenset(names), out)
            top: dict = {}
            _uses(hi, unit, ref, frozenset(names), top)
            for name, where in top.items():    # \sum_k^C: C is a bound, not an index
                out.setdefault(name, set()).update(
                    (size, q) if size is not None or q else (None, _BOUND) for size, q in where)
            atom = _atom(var, unit)
            if atom is not None:
                names.add(atom.name)
        _uses(body, unit, ref, frozenset(names), out)
        return
    if isinstance(tree, sympy.Pow):
        # (X)_{ij}, (\bar{Z})_i: the indices of a marker on a whole matrix run over its
        # rows and columns, as the indices of its own entries do
        base, marker = _atom(tree.args[0], unit), _atom(tree.args[1], unit)
        if base is not None and base.kind == "whole" and marker is not None and \
                marker.kind == "marker" and marker.name in ("entry", "row"):
            q = ref.quantities[base.name]
            for k, item in enumerate(marker.items):
                if isinstance(item, str) and item not in bound and item not in ref.sizes:
                    out.setdefault(item, set()).add((q.rows if k == 0 else q.cols, q.name))
    atom = _atom(tree, unit)
    if atom is not None:
        if atom.kind in ("entry", "row"):
            q = ref.quantities[atom.name]
            for k, item in enumerate(atom.items):
                if isinstance(item, str) and item not in bound and item not in ref.sizes:
                    out.setdefault(item, set()).add(
                        (q.rows if k == 0 else q.cols, f"{q.name}"))
                else:
                    _free_names(item, bound, ref, out)
        elif atom.kind == "marker" and atom.name in ("entry", "row"):
            for item in atom.items:
                _free_names(item, bound, ref, out)
        elif atom.kind == "kronecker":
            # \delta_{bj}: b runs over the range of j, and j over that of b
            a, b = atom.items
            for item, other in ((a, b), (b, a)):
                _free_names(item, bound, ref, out)
                if isinstance(item, str) and isinstance(other, str) and \
                        item not in bound and item not in ref.sizes:
                    out.setdefault(item, set()).add((None, "=" + other))
        elif atom.kind == "index" and atom.name not in bound and atom.name not in ref.sizes:
            out.setdefault(atom.name, set()).add((None, ""))
        elif atom.kind == "special" and atom.name in ("0", "1") and atom.items:
            _free_names(atom.items[0], bound, ref, out)     # \mathbf{1}_i: an entry
        elif atom.kind == "cases":
            for condition in atom.items:
                for _, a, b in condition:
                    _free_names(a, bound, ref, out)
                    _free_names(b, bound, ref, out)
            for cell in sub_units(atom):
                _uses(cell.tree, cell, ref, bound, out)
        elif atom.kind in ("max", "min") and atom.name:
            for item in atom.items:
                if item is not None:
                    _free_names(item, bound, ref, out)
            inner = bound | {atom.name}
            for cell in sub_units(atom):
                _uses(cell.tree, cell, ref, inner, out)
        elif atom.kind in ("elided", "grid"):
            names = frozenset(atom.name.split()) if atom.name else frozenset()
            for item in _pattern_items(atom):
                _free_names(item, bound | names, ref, out)
            for cell in sub_units(atom):
                _uses(cell.tree, cell, ref, bound | names, out)
        elif atom.kind in NESTED:
            for cell in sub_units(atom):
                _uses(cell.tree, cell, ref, bound, out)
        return
    for arg in tree.args:
        _uses(arg, unit, ref, bound, out)


#: the place of a name used only as a sum's bound (``C`` of ``\\sum_k^C``), in the uses
_BOUND = "^bound"


def _free_names(item, bound, ref, out: dict) -> None:
    """Record the free names of an index item, with no range of their own."""
    for name in index_names(item):
        if name not in bound and name not in ref.sizes:
            out.setdefault(name, set()).add((None, ""))


def _pattern_items(atom: Atom):
    """The index items that place the explicit parts of an elided pattern."""
    for spec in atom.items:
        if spec is None:
            continue
        yield from spec[1]
        yield from spec[2:]       # the last row's place, under a matrix that ends in \vdots


def unit_names(unit: Unit) -> set:
    """Every index name a unit (and the units inside it) refers to."""
    out: set = set()
    for atom in unit.atoms.values():
        if atom.kind in ("bound", "auto", "size", "index"):
            out.add(atom.name)
        elif atom.kind == "special" and atom.name in ("0", "1") and atom.items:
            out.update(index_names(atom.items[0]))
        elif atom.kind in ("entry", "row", "kronecker") or (atom.kind == "marker" and
                                                             atom.items and
                                                             atom.name != "shape"):
            for item in atom.items:
                out.update(index_names(item))
        elif atom.kind == "cases":
            for condition in atom.items:
                for _, a, b in condition:
                    out.update(index_names(a))
                    out.update(index_names(b))
        elif atom.kind in ("max", "min"):
            if atom.name:
                out.add(atom.name)
            for item in atom.items:
                if item is not None:
                    out.update(index_names(item))
        elif atom.kind in ("elided", "grid"):
            out.update(atom.name.split())
            for item in _pattern_items(atom):
                out.update(index_names(item))
        for cell in sub_units(atom):
            out |= unit_names(cell)
    return out


def free_indices(units, ref) -> dict:
    """Free index names of some units and the ranges they run over: name -> set of (size, quantity)."""
    out: dict = {}
    for unit in units:
        _uses(unit.tree, unit, ref, frozenset(), out)
    return out


def step_ranges(left: Unit, right: Unit, ref) -> dict:
    """The range of each free index of a step: name -> upper bound.

    Where the two sides disagree (``c_{ij} = ... b_{jk}`` with B not the
    shape of C), the left side decides: the right side then refers to
    entries that do not exist, which makes the step wrong, not unreadable.
    """
    lu, ru = free_indices([left], ref), free_indices([right], ref)
    out = {}
    for name in sorted(set(lu) | set(ru)):
        known = {size for size, _ in lu.get(name, ()) if size is not None}
        # an index only the left side uses is judged where it is used (a sum's bound
        # named by the page, \sum_{i=1}^V, is then said to be no size of the check)
        out[name] = index_range(name, lu if known or name not in ru else ru)
    return out


def index_range(name: str, uses: dict) -> int:
    """The one size an index runs up to, from where it is used (or from the index a
    Kronecker delta ties it to); raise if unclear."""
    sizes = {size for size, _ in uses.get(name, ()) if size is not None}
    if not sizes:
        partners = [q[1:] for size, q in uses.get(name, ()) if q.startswith("=")]
        sizes = {size for p in partners for size, _ in uses.get(p, ()) if size is not None}
    if not sizes and uses.get(name) and all(q == _BOUND for _, q in uses[name]):
        raise MathError(f"the upper bound {name} of a sum is not a size this check knows; "
                        f"write it as a number (\\sum_{{k=1}}^{{3}}) or as one of the sizes")
    if not sizes:
        raise MathError(f"cannot tell what range the index {name} runs over; give a sum "
                        f"its bounds, as in \\sum_{{{name}=1}}^{{3}}")
    if len(sizes) > 1:
        where = ", ".join(sorted({f"{q} ({size})" for size, q in uses[name] if size}))
        raise MathError(f"the index {name} runs over different ranges: {where}")
    return sizes.pop()


class Evaluator:
    """Evaluate parsed units against a reference."""

    def __init__(self, ref, column: bool = False):
        self.ref = ref
        #: read a vector (``\\boldsymbol{q}_i``) as a column, not a row
        self.column = column
        self._memo: dict = {}
        self._names: dict = {}
        #: set when a sum adds no terms (see :func:`empty_sums`)
        self.empty = False

    def value(self, unit: Unit, env: dict):
        """The value of a unit with the indices in ``env``.

        Remembered per unit and per the values of the indices the unit uses, so
        that sweeping i, j, l of a step computes a part that depends on i alone
        once per i.
        """
        names = self._names.get(id(unit))
        if names is None:
            names = self._names[id(unit)] = (unit, frozenset(unit_names(unit)))
        key = (id(unit), tuple(sorted((k, v) for k, v in env.items() if k in names[1])))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = scalar_or_matrix(self._ev(unit.tree, unit, env))
        return got

    # -- atoms ------------------------------------------------------------------------
    def _index(self, item, env: dict) -> int:
        try:
            return index_value(item, env, self.ref.sizes)
        except KeyError as err:
            raise MathError(f"the index {err.args[0]} has no value here") from None

    def _atom_value(self, atom: Atom, unit: Unit, env: dict):
        kind = atom.kind
        if kind in ("entry", "row", "whole"):
            q = self.ref.quantities[atom.name]
            if kind == "whole":
                point = getattr(self.ref, "column_point", None)
                if self.column and point is not None and point(q):
                    # z = Wx + b checked against a formula that writes its points as
                    # columns (read in the row view, x a row): the page's x is the column
                    return sympy.ImmutableMatrix(q.symbols.T)
                return q.symbols
            idx = [self._index(item, env) for item in atom.items]
            limits = (q.rows, q.cols)
            for k, value in enumerate(idx):
                if not 1 <= value <= limits[k]:
                    what = "row" if k == 0 else "column"
                    item = atom.items[k]
                    if isinstance(item, str) and item not in env and \
                            item in self.ref.sizes and value > limits[k]:
                        # x_{1m} of a 3 x 2 X where this derivation's m is 3: the page's
                        # size letters are not this derivation's; not judged on that
                        from .values import Undecided
                        shown = "\\ell" if item == "ell" else item
                        raise Undecided(f"{q.name} is {q.rows} x {q.cols}, and the page "
                                        f"writes {shown} as its last {what}, where this "
                                        f"derivation's {shown} is {value}: the page's "
                                        f"sizes are not this derivation's; not checked")
                    raise MathError(f"{q.name} is {q.rows} x {q.cols}, so it has no {what} "
                                    f"{value} (check the bounds of the sum)")
            if kind == "row":
                if self.column:       # the page writes its vectors as columns
                    return sympy.ImmutableMatrix(q.row(idx[0] - 1).T)
                return q.row(idx[0] - 1)
            return q.entry(idx[0] - 1, idx[1] - 1)
        if kind == "size":
            if atom.name in env:
                return sympy.Integer(env[atom.name])
            return sympy.Integer(self.ref.sizes[atom.name])
        if kind == "index":
            return sympy.Integer(self._index(atom.name, env))
        if kind == "special":
            return self._special(atom, env)
        if kind == "sub":
            return self.value(atom.cells[0][0], env)
        if kind == "matrix":
            return self._matrix(atom, env)
        if kind == "cases":
            return self._cases(atom, env)
        if kind == "call":
            return self._call(atom, env)
        if kind == "derivative":
            return self._derivative(atom, env)
        if kind == "isoftmax":
            return self._index_softmax(atom, env)
        if kind == "gradient":
            ((unit,),) = atom.cells
            got = self.ref.gradient_of_value(self.value(unit, env))
            if got is None:
                raise MathError("the gradient by this expression: it is not a value the "
                                "formula computes")
            return scalar_or_matrix(got)
        if kind == "jacobian":
            from .values import Undecided
            raise Undecided(f"a Jacobian of a matrix by the matrix {atom.name}: the chain "
                            f"rule written formally, not a product of matrices; not checked")
        if kind == "outside":
            raise MathError(atom.name)
        if kind == "constant":
            own = getattr(self.ref, "page_scalars", {}).get(atom.name)
            return own if own is not None else self.ref.constants()[atom.name]
        if kind == "variable":
            if not atom.items:
                return sympy.Symbol(atom.name, real=True)
            rows, cols = atom.items      # a matrix variable of a definition: its own entries
            return sympy.ImmutableMatrix(rows, cols, lambda i, j: sympy.Symbol(
                f"{atom.name.lower()}'_{{{i + 1}{j + 1}}}", real=True))
        if kind == "kronecker":
            a, b = (self._index(item, env) for item in atom.items)
            return sympy.S.One if a == b else sympy.S.Zero
        if kind in ("max", "min"):
            return self._extremum(atom, env)
        if kind == "elided":
            return elided_value(self, atom, env)
        if kind == "grid":
            return grid_value(self, atom, env)
        raise MathError(f"internal: a {kind} placeholder where a value belongs")

    def _special(self, atom: Atom, env: dict):
        """``I``, ``I_n``, ``\\mathbf{0}``, ``\\mathbf{1}_n``: sized when a size is written,
        else :class:`~.values.Unsized` (the other operand gives the size)."""
        if not atom.items:
            return Unsized(atom.name)
        item = atom.items[0]
        if atom.name != "I" and isinstance(item, str) and item in env and \
                item not in self.ref.sizes:
            # \mathbf{1}_i with i an index, not a size: an entry of the one-tensor
            # (y_{ij} = x_{ik} c_{kj} + \mathbf{1}_i b_j), so 1 (or 0)
            return sympy.Integer(int(atom.name))
        n = self._index(item, env)
        if not 1 <= n <= self.ref.max_dim:
            raise MathError(f"a size of {n} for {atom.name}")
        if atom.name == "I":
            return sympy.ImmutableMatrix(sympy.eye(n))
        return sympy.ImmutableMatrix(sympy.zeros(n, 1) if atom.name == "0" else
                                     sympy.ones(n, 1))

    def holds(self, condition, env: dict) -> bool:
        """Does a condition ((relation, index, index), ...) hold at ``env``?"""
        for kind, a, b in condition:
            x, y = self._index(a, env), self._index(b, env)
            ok = {"le": x <= y, "lt": x < y, "ge": x >= y, "gt": x > y, "eq": x == y,
                  "ne": x != y}[kind]
            if not ok:
                return False
        return True

    def _cases(self, atom: Atom, env: dict):
        for condition, (unit,) in zip(atom.items, atom.cells):
            if self.holds(condition, env):
                return self.value(unit, env)
        where = ", ".join(f"{k} = {v}" for k, v in sorted(env.items()) if "#" not in k)
        raise MathError(f"no row of the cases applies{' for ' + where if where else ''}")

    def _extremum(self, atom: Atom, env: dict):
        if atom.name:
            (body,), = atom.cells
            lower, upper = atom.items
            low = 1 if lower is None else self._index(lower, env)
            if upper is None:
                uses: dict = {}
                _uses(body.tree, body, self.ref, frozenset(k for k in env if k != atom.name),
                      uses)
                high = index_range(atom.name, uses)
            else:
                high = self._index(upper, env)
            if high - low + 1 > MAX_SUM_TERMS:
                raise MathError(f"a {atom.kind} of more than {MAX_SUM_TERMS} values")
            values = [self.value(body, {**env, atom.name: k}) for k in range(low, high + 1)]
        else:
            values = [self.value(cell, env) for (cell,) in atom.cells]
        if not values:
            raise MathError(f"a {atom.kind} over no values")
        f = sympy.Max if atom.kind == "max" else sympy.Min
        mats = [v for v in values if is_matrix(v)]
        if mats and not atom.name:
            # \max(0, Z): entry by entry, as papers write ReLU (and explain reads it)
            shape = mats[0].shape
            if any(m.shape != shape for m in mats):
                raise MathError(f"a {atom.kind} of matrices of different shapes")
            return scalar_or_matrix(sympy.ImmutableMatrix(shape[0], shape[1], lambda i, j: f(
                *[v[i, j] if is_matrix(v) else v for v in values])))
        if mats:
            raise MathError(f"a {atom.kind} of matrices; write it entry by entry")
        return f(*values)

    def _call(self, atom: Atom, env: dict):
        """A function applied by its reading (:func:`symrow.formula.evaluate.apply`): the
        value explain gives it, whatever the function."""
        from ..errors import SymrowError
        from .evaluate import apply
        args = [self.value(cell, env) for (cell,) in atom.cells]
        if atom.name == "erf" and len(args) == 1:
            # the error function, in GELU's definition: entry by entry (no reading has erf
            # alone: the gelu entry function uses it inside its own value)
            x = args[0]
            return x.applyfunc(sympy.erf) if is_matrix(x) else sympy.erf(x)
        if any(isinstance(a, (Unsized, _Entrywise)) for a in args):
            raise MathError(f"cannot tell the size of the argument of {atom.name} here")
        try:
            return scalar_or_matrix(apply(atom.name, args,
                                          params=atom.items))
        except (SymrowError, ArithmeticError) as err:
            # ArithmeticError: an exponent that is infinite or undefined (a mask's -oo
            # multiplied, not added: softmax(S/√d M))
            raise MathError(str(err)) from None

    def _index_softmax(self, atom: Atom, env: dict):
        """``\\mathrm{softmax}_j(s_{ij})``: at the value of j, that entry of the softmax of
        the values the body takes as j runs over its range (the softmax reading applied to
        that row, as explain reads it)."""
        from .evaluate import apply
        from .values import Undecided
        ((body,),) = atom.cells
        name = atom.name
        if name not in env:
            raise Undecided(f"softmax_{name} of an entry, where {name} is no index of the "
                            f"claim: which entry is meant? not checked")
        uses: dict = {}
        _uses(body.tree, body, self.ref, frozenset(k for k in env if k != name), uses)
        high = index_range(name, uses)
        values = [self.value(body, {**env, name: k}) for k in range(1, high + 1)]
        if any(is_matrix(v) for v in values):
            raise Undecided(f"softmax_{name} of a matrix: which axis {name} runs along is "
                            f"not written; write it of an entry, as in "
                            f"softmax_{name}(s_{{i{name}}}); not checked")
        row = sympy.ImmutableMatrix(1, high, values)
        got = apply("softmax", [row])
        k = self._index(name, env)
        if not 1 <= k <= high:
            raise MathError(f"the index {name} = {k} is outside its range 1..{high}")
        return got[0, k - 1]

    def _derivative(self, atom: Atom, env: dict):
        """``\\partial f / \\partial y_{jp}``: ``f`` taken down to the level of y's matrix
        (the quantities above it written in those below), then differentiated by y."""
        ((value,), (variable,)) = atom.cells
        (var,) = variable.atoms.values()
        y = self._atom_value(var, variable, env)
        if not isinstance(y, sympy.Symbol):
            raise MathError("a derivative by something that is not an entry")
        f = self.value(value, env)
        level = self.ref.level_of.get(y, 0)
        top = max(self.ref.unfold_maps, default=0)
        for k in range(top, level, -1):
            f = self.ref.unfold(f, k) if not is_matrix(f) else \
                sympy.ImmutableMatrix(f.applyfunc(lambda e, k=k: self.ref.unfold(e, k)))
        twins = getattr(self.ref, "twins", {})
        owner = self.ref.owner.get(y, (None,))[0]
        if y in twins and owner is not None:
            # y is an entry of the page's own name for a quantity of the derivation (its A
            # for P): what is written in the derivation's entries is written in the page's
            back = {theirs: mine for mine, theirs in twins.items()
                    if self.ref.owner.get(mine, (None,))[0] == owner}
            f = f.xreplace(back)
        if is_matrix(f):
            return scalar_or_matrix(sympy.ImmutableMatrix(f.applyfunc(lambda e: e.diff(y))))
        return sympy.diff(f, y)

    def _matrix(self, atom: Atom, env: dict):
        return assemble([[self.value(cell, env) for cell in row] for row in atom.cells],
                        "an explicit matrix")

    # -- nodes ------------------------------------------------------------------------
    def _ev(self, node, unit: Unit, env: dict):
        if isinstance(node, sympy.Symbol):
            atom = unit.atoms[node.name]
            return self._atom_value(atom, unit, env)
        if node.is_Float:
            # a decimal as written: 0.893 is 893/1000, exactly
            return sympy.Rational(str(node).rstrip("0").rstrip(".") or "0") \
                if node.is_finite else node
        if node.is_Number or node in ALLOWED_SINGLETONS:
            return node
        if isinstance(node, sympy.Add):
            return self._add([self._ev(a, unit, env) for a in node.args])
        if isinstance(node, sympy.Mul):
            return self._product(node.args, unit, env)
        if isinstance(node, sympy.Pow):
            return self._pow(node, unit, env)
        if isinstance(node, sympy.exp):
            arg = self._ev(node.args[0], unit, env)
            inner = unit.atoms.get(node.args[0].name) if isinstance(node.args[0],
                                                                     sympy.Symbol) else None
            if inner is not None and inner.kind == "whole" and is_matrix(arg) and \
                    arg.rows == arg.cols > 1 and _diagonal(self.ref.ground(arg)):
                # \exp(D) of a diagonal matrix, as explain reads it (the expdiag reading):
                # the exponential of each diagonal entry, 0 off the diagonal
                return sympy.ImmutableMatrix(_reading("expdiag").evaluate([sympy.Matrix(arg)]))
            if is_matrix(arg):  # entry by entry, as symrow's formulas read \exp(XW)
                return sympy.ImmutableMatrix(arg.applyfunc(exp_of))
            return exp_of(arg)
        if isinstance(node, sympy.Sum):
            return self._sum(node.args[0], list(node.args[1:]), unit, env)
        raise MathError(f"cannot evaluate {type(node).__name__}")

    @staticmethod
    def _add(values):
        values = [v.value if isinstance(v, _Entrywise) else v for v in values]
        if any(isinstance(v, Unsized) for v in values):
            sized = [v for v in values if not isinstance(v, Unsized)]
            if not sized:
                raise MathError("cannot tell the size of I, 0 or 1 here: write it, as in I_n")
            shape = sized[0].shape if is_matrix(sized[0]) else (1, 1)
            values = [v.fill(*shape) if isinstance(v, Unsized) else v for v in values]
        mats = [v for v in values if is_matrix(v)]
        if not mats:
            return sympy.Add(*values)
        values = _broadcast(values)
        mats = [v for v in values if is_matrix(v)]
        if len(mats) != len(values):
            raise MathError(f"a number is added to a {shape_text(mats[0])}")
        shapes = {m.shape for m in mats}
        if len(shapes) != 1:
            listed = " and ".join(f"{r} x {c}" for r, c in sorted(shapes))
            raise MathError(f"matrices of different shapes are added: {listed}")
        total = mats[0]
        for m in mats[1:]:
            total = total + m
        return sympy.ImmutableMatrix(total)

    def _product(self, args, unit: Unit, env: dict):
        acc = None
        for k, arg in enumerate(args):
            value = self._ev(arg, unit, env)
            acc = value if acc is None else self._mul(acc, value)
            if isinstance(acc, _Entrywise) and k + 1 < len(args):
                # A \odot X V: the product after the \odot is one factor, (X V), as the
                # formula reader reads it
                return self._mul(acc, self._product(args[k + 1:], unit, env))
        return acc

    @staticmethod
    def _mul(x, y):
        if isinstance(x, _Entrywise):          # A \odot B: entry by entry
            y = y.value if isinstance(y, _Entrywise) else y
            return _entrywise_product(x.value, y)
        if isinstance(y, _Entrywise):          # X A \odot B: (X A) \odot B
            return _Entrywise(Evaluator._mul(x, y.value))
        if isinstance(x, Unsized) or isinstance(y, Unsized):
            return _mul_unsized(x, y)
        if not is_matrix(x) and not is_matrix(y):
            return x * y
        if not is_matrix(x) or not is_matrix(y):
            return sympy.ImmutableMatrix((x * y) if is_matrix(x) else (y * x))
        if x.cols == y.rows:
            return scalar_or_matrix(matrix_product(x, y))
        if x.shape == y.shape and 1 in x.shape:
            # two row vectors (or two columns): their inner product
            return sympy.Add(*[a * b for a, b in zip(x, y)])
        raise UndefinedProduct(f"a {x.rows} x {x.cols} matrix times a {y.rows} x {y.cols} "
                               f"matrix is undefined")

    def _pow(self, node, unit: Unit, env: dict):
        base, exponent = node.args
        atom = _atom(exponent, unit)
        if atom is not None and atom.kind == "marker":
            value = scalar_or_matrix(self._ev(base, unit, env))
            return self._marker(atom, value, env)
        b = self._ev(base, unit, env)
        e = self._ev(exponent, unit, env)
        if is_matrix(e) or isinstance(e, Unsized):
            raise MathError(f"an exponent is a {shape_text(e)}" if is_matrix(e) else
                            "an exponent is an I, 0 or 1 without a size")
        if isinstance(b, Unsized):
            return _unsized_power(b, e)
        if is_matrix(b):
            if e == 1:
                return b
            if b.rows == b.cols and e.is_Rational and not (e.is_Integer and e > 1) and \
                    _diagonal(self.ref.ground(b)) and not _diagonal(b):
                # a degree matrix (D of A's row sums) is diagonal by what it is made of:
                # the power reading takes its diagonal entries to the power
                return sympy.ImmutableMatrix(_reading("power").evaluate([b], exponent=e))
            return _matrix_power(b, e)
        if b is sympy.S.Exp1:
            return exp_of(e)
        if e.is_Number:
            if not (e.is_Integer or e.is_Rational):
                raise MathError("a non-rational exponent")
            if b.is_Number and not b.is_finite:
                raise MathError("a power of infinity")
            if b.is_Number:
                size = math.log10(max(abs(b.p), 2)) + math.log10(max(abs(b.q), 2))
                if abs(e.p) > 10_000 or size * abs(e.p) / e.q > MAX_DIGITS:
                    raise MathError("a number with more than 2000 digits")
                if b == 0 and e < 0:
                    raise MathError("division by zero")
            elif abs(e.p) > MAX_SYMBOLIC_POWER or e.q > 16:
                raise MathError(f"the exponent {e} is too large for a symbolic base "
                                f"(at most {MAX_SYMBOLIC_POWER})")
        else:
            if abs(sympy.Integer(len(str(e)))) > 2000:
                raise MathError("an exponent that is too long")
        result = b ** e
        if result.has(sympy.zoo) or result.has(sympy.nan):
            raise MathError("division by zero")
        return result

    def _shape(self, items: tuple, value):
        """A value with the shape the page writes under it: a number of rows or columns
        that is not the value's is the page's error; a size the page named itself is held
        to what it named, and one it did not name is its label only."""
        shape = value.shape if is_matrix(value) else (1, 1)
        mine = getattr(self.ref, "page_size_names", frozenset())
        for (kind, said), size, what in zip(items, shape, ("rows", "columns")):
            if kind == "size":
                if said not in mine:
                    continue
                said = self.ref.sizes[said]
            if said != size:
                raise MathError(f"the page writes {said} {what} under a {shape[0]} x "
                                f"{shape[1]} value")
        return value

    def _marker(self, atom: Atom, value, env: dict):
        name = atom.name
        if name == "group":
            return value
        if isinstance(value, Unsized):
            if name == "T":
                return value.transposed()
            if name == "entry":
                return value.entry(*[self._index(item, env) for item in atom.items])
            raise MathError(f"cannot tell the size of {value.kind} here: write it, as in "
                            f"{value.kind}_n")
        if isinstance(value, _Entrywise):
            value = value.value
        if name == "odot":
            return _Entrywise(value)
        if name == "diag":
            if not is_matrix(value):
                return value
            if 1 not in value.shape:
                raise MathError(f"diag takes a row or a column; this is a {shape_text(value)}")
            return sympy.ImmutableMatrix(_reading("diag").evaluate([sympy.Matrix(value)]))
        if name == "rowsum":
            if not is_matrix(value):
                return value
            # the row sums are X 1, as symrow's formulas write them (no reading sums the
            # rows of any matrix alone: degree does it for a square one, on the diagonal)
            return scalar_or_matrix(matrix_product(value, sympy.ones(value.cols, 1)))
        if name == "T":
            return sympy.ImmutableMatrix(_reading("transpose").evaluate([value])) \
                if is_matrix(value) else value
        if name == "shape":
            return self._shape(atom.items, value)
        if name == "slice":
            return _block(value, atom.cells)
        idx = [self._index(item, env) for item in atom.items]
        if not is_matrix(value):
            if all(i == 1 for i in idx):
                return value
            raise MathError("an index on a number")
        if name == "row" and value.rows == 1 and value.cols > 1:
            # one index on a row vector, f(x_i)_j: its entry j
            if not 1 <= idx[0] <= value.cols:
                raise MathError(f"a {shape_text(value)} has no entry {idx[0]}")
            return value[0, idx[0] - 1]
        if name == "row":
            if not 1 <= idx[0] <= value.rows:
                raise MathError(f"a {shape_text(value)} has no row {idx[0]}")
            return scalar_or_matrix(value[idx[0] - 1, :])
        if not (1 <= idx[0] <= value.rows and 1 <= idx[1] <= value.cols):
            raise MathError(f"a {shape_text(value)} has no entry ({idx[0]}, {idx[1]})")
        return value[idx[0] - 1, idx[1] - 1]

    def _int(self, node, unit: Unit, env: dict, what: str) -> int:
        value = self._ev(node, unit, env)
        if is_matrix(value) or not getattr(value, "is_Integer", False):
            raise MathError(f"the {what} of a sum must be a whole number; it is {value}")
        return int(value)

    def _sum(self, body, limits: list, unit: Unit, env: dict):
        if not limits:
            return self._ev(body, unit, env)
        var, lo, hi = limits[-1]
        atom = _atom(var, unit)
        if atom is None or atom.kind != "bound":
            raise MathError("cannot read the index of a sum")
        name = atom.name
        low = self._int(lo, unit, env, "lower bound")
        hi_atom = _atom(hi, unit)
        if hi_atom is not None and hi_atom.kind == "auto":
            inner = sympy.Sum(body, *limits[:-1]) if limits[:-1] else body
            uses: dict = {}
            _uses(inner, unit, self.ref, frozenset(k for k in env if k != name), uses)
            high = index_range(name, uses)
        else:
            high = self._int(hi, unit, env, "upper bound")
        if high - low + 1 > MAX_SUM_TERMS:
            raise MathError(f"a sum of more than {MAX_SUM_TERMS} terms")
        terms = [self._sum(body, limits[:-1], unit, {**env, name: k})
                 for k in range(low, high + 1)]
        if not terms:
            self.empty = True
            return sympy.S.Zero
        return self._add(terms)


def _block(value, spec):
    """``(X)_{:, 1:3}``: the rows and columns ``spec`` keeps ((first, last), 1-based, or
    (None, None) for all) of a matrix."""
    if not is_matrix(value):
        raise MathError("a block of a number")
    bounds = []
    for (first, last), size, what in zip(spec, value.shape, ("rows", "columns")):
        if first is None:
            first, last = 1, size
        if last > size:
            raise MathError(f"a {shape_text(value)} has no {what} {first} to {last}")
        bounds.append((first - 1, last))
    (r0, r1), (c0, c1) = bounds
    return scalar_or_matrix(sympy.ImmutableMatrix(value[r0:r1, c0:c1]))


def _mul_unsized(x, y):
    """A product with ``I``, ``0`` or ``1`` of no written size: the other factor sizes it
    (``A I = A``, ``P \\mathbf{1}`` is the column of row sums, ``2 I``)."""
    if isinstance(x, Unsized) and isinstance(y, Unsized):
        raise MathError("cannot tell the sizes of a product of I, 0 or 1: write one, as in I_n")
    if isinstance(y, Unsized):
        other, u, right = x, y, True
    else:
        other, u, right = y, x, False
    if not is_matrix(other):
        return u.times(other)
    if u.kind == "0":
        return u
    if u.kind == "I":
        return scalar_or_matrix(sympy.ImmutableMatrix(other * u.scale))
    if right:    # A 1: a column of ones after A
        ones = sympy.ones(other.cols, 1) if not u.row else None
        if ones is None:
            raise MathError("a row of ones after a matrix: write 1^T before it")
        return scalar_or_matrix(matrix_product(other, ones) * u.scale)
    if not u.row and other.rows == 1 and type(u) is Unsized:
        # \mathbf{1} \boldsymbol{b}: the row b repeated down the rows of the sum it is in
        return RepeatedRow(other * u.scale)
    if not u.row:
        raise MathError("a column of ones before a matrix: write 1^T (a row of ones)")
    return scalar_or_matrix(matrix_product(sympy.ones(1, other.rows), other) * u.scale)


def empty_sums(ev: Evaluator, unit: Unit, env: dict) -> bool:
    """Does a sum in ``unit`` add no terms at ``env`` (``\\sum_{j=1}^{i-1}`` at i = 1)?"""
    ev.empty = False
    try:
        ev._ev(unit.tree, unit, env)   # not remembered: the flag must be raised afresh
    except MathError:
        return False
    return ev.empty


def unused_bounds(ev: Evaluator, unit: Unit, env: dict) -> list:
    """``[(name, count)]``: sums whose body does not use their index (``\\sum_{j'}
    e^{s_{ij}}``), with the number of copies they add at ``env``."""
    out = []
    units = [unit]
    while units:
        u = units.pop()
        for node in sympy.preorder_traversal(u.tree):
            if isinstance(node, sympy.Sum) and len(node.args) == 2:
                body, (var, lo, hi) = node.args
                atom = _atom(var, u)
                if atom is None or atom.kind != "bound":
                    continue
                used = set()
                for sym in body.free_symbols:
                    inner = u.atoms.get(sym.name)
                    if inner is None:
                        continue
                    if inner.kind in ("entry", "row", "index", "size"):
                        used.update(index_names(inner) if False else
                                    [n for item in inner.items for n in index_names(item)]
                                    + ([inner.name] if inner.kind in ("index", "size") else []))
                    for cell in sub_units(inner):
                        used |= unit_names(cell)
                if atom.name in used:
                    continue
                try:
                    low = ev._int(lo, u, env, "lower bound")
                    hi_atom = _atom(hi, u)
                    if hi_atom is not None and hi_atom.kind == "auto":
                        continue
                    high = ev._int(hi, u, env, "upper bound")
                except MathError:
                    continue
                if high - low + 1 > 1:
                    out.append((atom.name, high - low + 1))
        for atom in u.atoms.values():
            units.extend(sub_units(atom))
    return out


class _Entrywise:
    """The left factor of ``A \\odot B``: what follows multiplies it entry by entry."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _entrywise_product(x, y):
    if not is_matrix(x) or not is_matrix(y):
        return Evaluator._mul(x, y)       # a number times anything: as usual
    if x.shape != y.shape:
        raise MathError(f"an entry-by-entry product of a {shape_text(x)} and a "
                        f"{shape_text(y)}")
    return scalar_or_matrix(sympy.ImmutableMatrix(_reading("hadamard").evaluate([x, y])))


def _broadcast(values: list) -> list:
    """Terms of a sum with one matrix shape, where a row vector meets numbers (each added to
    every entry: p_i - (p_i . g_i)), a matrix meets a column of its height (added to
    every column: P - rowsum(...)) or a row of its width (a bias, added to every row:
    XW + b); other terms are left as they are."""
    mats = [v for v in values if is_matrix(v)]
    big = max(mats, key=lambda m: m.rows * m.cols)
    out = []
    for v in values:
        if not is_matrix(v) and big.rows == 1:
            out.append(sympy.ImmutableMatrix(1, big.cols, lambda _i, _j: v))
        elif is_matrix(v) and v.shape == (big.rows, 1) and big.cols > 1:
            out.append(sympy.ImmutableMatrix(big.rows, big.cols, lambda i, _j: v[i, 0]))
        elif is_matrix(v) and v.shape == (1, big.cols) and big.rows > 1:
            # a bias row added to every row (XW + b), as the formula reads it
            out.append(sympy.ImmutableMatrix(big.rows, big.cols, lambda _i, j: v[0, j]))
        else:
            out.append(v)
    return out


def _diagonal(b) -> bool:
    return is_matrix(b) and all(b[i, j] == 0 for i in range(b.rows) for j in range(b.cols)
                                if i != j)


def _unsized_power(b: "Unsized", e):
    """A power of ``I``, ``\\mathbf{0}`` or ``\\mathbf{1}`` written without a size: a
    power of the (scaled) identity is the identity scaled; ``\\mathbf{1}^{-1}`` is a
    vector's negative power, not judged either way (see :func:`_matrix_power`)."""
    from .values import Undecided
    if not getattr(e, "is_Rational", False):
        raise MathError("a power of I, 0 or 1 with an exponent that is not a number")
    if e == 1:
        return b
    if b.kind == "I" and not (b.scale == 0 and e < 0):
        return Unsized("I", b.scale ** e)
    if b.kind == "0" or b.scale == 0:
        if e < 0:
            raise MathError("division by zero")
        return Unsized("0") if e > 0 else Unsized("1")
    if e < 0:
        raise Undecided(f"a negative power of the vector of ones (^{e}): it has no "
                        f"inverse; if the power of each entry is meant, symrow does not "
                        f"read it so; not checked")
    return Unsized("1", b.scale ** e, row=b.row)


def _matrix_power(b, e):
    """``D^{-1/2}`` of a diagonal matrix (each diagonal entry to the power), ``A^2`` of a
    square one (a product); any other power of a matrix is refused."""
    if b.rows == b.cols and e.is_Rational:
        if _diagonal(b):      # the power reading: each diagonal entry to the power
            return sympy.ImmutableMatrix(_reading("power").evaluate([b], exponent=e))
        if e.is_Integer and 1 < e <= 8:
            out = b
            for _ in range(int(e) - 1):
                out = matrix_product(out, b)
            return sympy.ImmutableMatrix(out)
    if (b.rows == 1) != (b.cols == 1) and e.is_Rational and e < 0:
        from .values import Undecided
        # B_2^{-1} of a column (the page's code: B2 ** -1): a vector has no inverse, and
        # the reciprocal of each entry is most likely meant; not judged either way
        raise Undecided(f"a negative power of a vector ({shape_text(b)}, ^{e}): it has no "
                        f"inverse; if the power of each entry is meant, symrow does not "
                        f"read it so; not checked")
    what = "a matrix that is not square" if b.rows != b.cols else (
        "a matrix that is not diagonal" if e.is_Rational else "a matrix")
    raise MathError(f"a power of {what} ({shape_text(b)}, ^{e}): symrow takes powers of "
                    f"diagonal matrices (D^{{-1/2}}) and whole powers of square ones; "
                    f"a transpose is written ^T, ^\\top or ^\\mathsf{{T}}")


# -- the values of elided sums and matrices (read by symrow.reader.entries.patterns) ---------------------------------------------------------------------------------

def _places(ev, spec, env) -> tuple[str, list[int], range]:
    kappa, values = spec[:2]
    places = [ev._index(v, env) for v in values]
    low, high = places[0], places[-1]
    if len(spec) == 3:
        # rows written, then \vdots to the last row, which the shape under the matrix gives
        high = ev._index(spec[2], env)
    if high < low:
        raise MathError(f"the dots run from {low} down to {high}")
    if any(not low <= place <= high for place in places):
        # W_{i,1} x_1 + W_{i,2} x_2 + ... + W_{i,n} x_n at this derivation's n = 1: the
        # terms written run past the end, so the page's n is not this derivation's
        from .values import Undecided
        ends = "the shape under the matrix" if len(spec) == 3 else "the last term"
        raise Undecided(f"the terms written before the dots run past the end that {ends} "
                        f"gives ({high}) at these sizes: the page's sizes are not this "
                        f"derivation's; say them (as in W_{{m \\times n}}) to have it "
                        f"checked")
    if high - low + 1 > 4096:
        raise MathError("the dots stand for more than 4096 terms")
    return kappa, places, range(low, high + 1)


def _explicit(places: list, k: int):
    found = None
    for n, place in enumerate(places):
        if place == k:
            found = n
    return found


def _written(ev, units: list, local: dict, what: str):
    """The value of the place that the written ``units`` all stand at (one, mostly; two
    when the sizes make places meet: the second row of x_{k1}, x_{k2}, ⋮, x_{km} is also
    its last when m = 2).  Written twice, they must agree there: else the page says two
    things of one place, and the step is wrong at these sizes."""
    values = [ev.value(unit, local) for unit in units]
    first = values[0]
    for other in values[1:]:
        if other == first:
            continue
        diff = (other - first) if is_matrix(first) == is_matrix(other) else None
        if diff is not None and (diff.expand() == sympy.zeros(*diff.shape)
                                 if is_matrix(diff) else sympy.expand(diff) == 0):
            continue
        raise MathError(f"{what} is written twice at these sizes (the places before and "
                        f"after the dots meet), as {sympy.sstr(first)} and as "
                        f"{sympy.sstr(other)}, which differ")
    return first


def elided_value(ev, atom: Atom, env: dict):
    """The value of ``t_1 + t_2 + \\cdots + t_N`` at ``env``."""
    (spec,) = atom.items
    template = atom.cells[0][0]
    explicit = [row[0] for row in atom.cells[1:]]
    kappa, places, span = _places(ev, spec, env)
    terms = []
    for k in span:
        written = [explicit[n] for n, place in enumerate(places) if place == k]
        local = {**env, kappa: k}
        terms.append(_written(ev, written, local, f"term {k}") if written else
                     ev.value(template, local))
    return ev._add(terms)


def grid_value(ev, atom: Atom, env: dict):
    """The value of a matrix with ⋯ ⋮ ⋱ at ``env``."""
    rspec, cspec = atom.items
    templates = atom.cells[0]
    grid = atom.cells[1:]
    if rspec is not None:
        kr, rplaces, rspan = _places(ev, rspec, env)
    else:
        kr, rplaces, rspan = None, list(range(len(grid))), range(len(grid))
    if cspec is not None:
        kc, cplaces, cspan = _places(ev, cspec, env)
    else:
        kc, cplaces, cspan = None, list(range(len(grid[0]))), range(len(grid[0]))
    rows = []
    for rk in rspan:
        ri = _explicit(rplaces, rk)
        blocks = []
        for ck in cspan:
            ci = _explicit(cplaces, ck)
            if ri is not None and ci is not None:
                unit = grid[ri][ci]
                written = [grid[a][b] for a, p in enumerate(rplaces) if p == rk
                           for b, q in enumerate(cplaces) if q == ck]
            elif rspec is not None and cspec is not None:
                unit = templates[0]
            elif rspec is not None:
                unit = templates[ci]
            else:
                unit = templates[ri]
            local = dict(env)
            if kr is not None:
                local[kr] = rk
            if kc is not None:
                local[kc] = ck
            if ri is not None and ci is not None and len(written) > 1:
                place = f"entry ({rk}, {ck})" if rspec is not None and cspec is not None \
                    else (f"row {rk}" if rspec is not None else f"column {ck}")
                blocks.append(_written(ev, written, local, place))
                continue
            blocks.append(ev.value(unit, local))
        rows.append(blocks)
    return assemble(rows, "a matrix with dots")
