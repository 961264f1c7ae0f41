r"""The value of a formula at given matrices, by the readings themselves.

``explain`` computes every value of a formula by planning it
(:mod:`symrow.derive.plan`): each node is an instance of the class of its
reading, and each class owns its value.  This module asks the same plan for
the value of a formula at matrices that are *given* (numbers, or the symbols
of another derivation's quantities), so that whoever needs a value (the
checker, the exercises) means by a softmax, a LayerNorm or a ReLU′ exactly
what ``explain`` means, with no second evaluator:

* :func:`evaluate` plans a formula with the shapes of the matrices given for
  its names and returns the value of its result, the operands' entry symbols
  replaced by the entries given;
* :func:`apply` applies one function, by its name in the table of notation
  (:func:`symrow.reader.notation.lookup_function`): ``softmax``, ``relu``,
  ``relu'`` (its derivative), ``layernorm``, ``diag``, ``concat``, ... .

A plan's symbolic value depends only on the formula and the shapes, so it is
built once for each and kept (:data:`CACHE_SIZE` of them); a call then only
substitutes.

>>> import sympy
>>> from symrow.formula.evaluate import apply, evaluate
>>> apply("softmax", [sympy.Matrix([[0, 0, sympy.log(2)]])])
Matrix([[1/4, 1/4, 1/2]])
>>> apply("relu'", [sympy.Matrix([[-1, 2]])])
Matrix([[0, 1]])
>>> a, b = sympy.symbols("a b")
>>> evaluate(r"XW + b", {"X": sympy.Matrix([[1, 2]]), "W": sympy.eye(2),
...                      "b": sympy.Matrix([[a, b]])})
Matrix([[a + 1, b + 2]])
"""

from __future__ import annotations

import collections
import threading
from typing import Mapping

import sympy

from ..errors import NotSupportedError, ShapeError, SymrowError
from ..reader.notation import lookup_function
from . import expr as E

__all__ = ["evaluate", "apply", "plan_of", "operand_symbols", "CACHE_SIZE"]

#: how many planned formulas (per formula and shapes) are kept
CACHE_SIZE = 512

_cache: "collections.OrderedDict" = collections.OrderedDict()
_lock = threading.Lock()


def _shape(value) -> tuple[int, int]:
    if isinstance(value, sympy.MatrixBase):
        return value.shape
    return (1, 1)


def _matrix(value) -> sympy.ImmutableMatrix:
    if isinstance(value, sympy.MatrixBase):
        return sympy.ImmutableMatrix(value)
    return sympy.ImmutableMatrix([[value]])


def _formula(formula, names) -> E.Formula:
    if isinstance(formula, E.Formula):
        return formula
    if isinstance(formula, E.Expr):
        return E.Formula((("", formula),), None)
    from .read import read_formula
    return read_formula(formula, shapes=names)


def plan_of(formula, shapes: Mapping[str, tuple]):
    """The plan of ``formula`` (LaTeX, a :class:`~symrow.formula.expr.Formula` or an
    expression node) at these operand shapes, and the symbolic value of its result (in
    the entry symbols of its operands), built once for each formula and shapes."""
    key = (formula if isinstance(formula, (str, E.Formula, E.Expr)) else repr(formula),
           tuple(sorted((k, tuple(v)) for k, v in shapes.items())))
    with _lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
            return got
    from ..derive.plan import plan
    f = _formula(formula, tuple(shapes))
    p = plan(f, {name: tuple(shape) for name, shape in shapes.items()})
    cache: dict = {}
    value = sympy.ImmutableMatrix(p._value(p.result, cache, leaf=None))
    # a size written in the formula (the d of \sqrt{d}) is the size it stands for
    ties = {s: sympy.Integer(v) for s, v in p.ties.items() if isinstance(v, int)}
    got = (p, value.xreplace(ties) if ties else value)
    with _lock:
        _cache[key] = got
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return got


def operand_symbols(p) -> dict:
    """Each operand's name -> its matrix of entry symbols, in a plan."""
    return {n.name: n.seq.matrix for n in p.nodes if n.reading == "operand"}


def evaluate(formula, env: Mapping[str, object]):
    """The value of ``formula``'s result with the matrices of ``env`` for its names.

    ``env`` maps each name the formula uses to a SymPy matrix (a number is a 1 x 1
    matrix); the shapes come from it.  Raises :class:`~symrow.errors.SymrowError` (a
    shape clash, a name with no value, a construct no reading reads)."""
    shapes = {name: _shape(value) for name, value in env.items()}
    p, value = plan_of(formula, shapes)
    mapping = {}
    for name, symbols in operand_symbols(p).items():
        if name not in env:
            raise ShapeError(f"{name} has no value here")
        given = _matrix(env[name])
        if given.shape != symbols.shape:
            raise ShapeError(f"{name} is {given.rows} x {given.cols}; the formula needs "
                             f"{symbols.rows} x {symbols.cols}")
        for sym, entry in zip(symbols, given):
            if sym != entry:
                mapping[sym] = entry
    return sympy.ImmutableMatrix(value.xreplace(mapping)) if mapping else value


def _arg_name(k: int) -> str:
    """The name of argument k (0-based) of a function applied by :func:`apply`."""
    return "X_%d" % (k + 1) if k < 9 else "X_{%d}" % (k + 1)


def _node(key: str, count: int, params: tuple) -> E.Expr:
    names = [E.Name(_arg_name(k)) for k in range(count)]
    base = key.rstrip("'")
    fn = lookup_function(base)
    if key.endswith("'"):
        if count != 1 or (fn is not None and fn.reading != "apply"):
            raise NotSupportedError(f"the derivative {key} is read for functions applied "
                                    f"entry by entry (ReLU', \\sigma', \\tanh')")
        return E.Apply((fn.key if fn is not None else base) + "'", names[0])
    if fn is None:
        if count != 1:
            raise NotSupportedError(f"{key} is not a function symrow knows")
        return E.Apply(base, names[0])     # a function of the writer's own, left undefined
    if fn.reading == "softmax":
        return E.Softmax(names[0])
    if fn.reading == "apply":
        return E.Apply(fn.key, names[0])
    if fn.reading == "concat":
        return E.Concat(tuple(names))
    return E.Call(fn.reading, tuple(names), params=params)


def apply(key: str, args: list, *, params: tuple = ()) -> sympy.ImmutableMatrix:
    """``key(args...)``: a function by its name in the table of notation (or a derivative,
    ``relu'``), applied to matrices, with the value its reading gives.

    Raises :class:`~symrow.errors.SymrowError` for a function that does not apply."""
    if not args:
        raise SymrowError(f"{key} needs an argument")
    env = {_arg_name(k): _matrix(a) for k, a in enumerate(args)}
    if key.lower() == "attention":      # the builtin the formula reader defines
        return evaluate(r"\mathrm{Attention}(%s)" % ", ".join(env), env)
    node = _node(key, len(args), tuple(params))
    if isinstance(node, (E.Apply, E.Softmax)):
        # a function of the entries or of the rows: the reading's own pure evaluation,
        # with no plan to build (the checker applies these to many small arguments)
        from ..derive.readings import READINGS
        if isinstance(node, E.Apply):
            return sympy.ImmutableMatrix(READINGS["apply"].evaluate(
                [sympy.Matrix(env[_arg_name(0)])], func=node.func))
        return sympy.ImmutableMatrix(READINGS["softmax"].evaluate(
            [sympy.Matrix(env[_arg_name(0)])]))
    return evaluate(node, env)
