"""Readings that act on every entry alike: scaling, element-wise functions and sums.

* :class:`Scale`: ``X / √d``, ``2X``, ``X / n``: every entry scaled by one number;
* :class:`Apply`: an element-wise function (exp, ReLU, σ, tanh, GELU, or a φ of
  the user's);
* :class:`Sum`: terms of one shape, added or subtracted: the points are added
  row by row.

The functions applied entry by entry are records (:class:`EntryFunction`), each
with its spelling, its value on one entry and its display; a module adds one
with :func:`register_entry_function` (as :mod:`.gelu` does).  A function of
which some matrices are read as a whole (the exponential of a diagonal matrix,
:mod:`.expdiag`) names the reading that does so with :func:`read_whole`.

>>> [function_of(f)(sympy.Symbol("x")) for f in ("relu", "sigma")]
[Max(0, x), 1/(1 + exp(-x))]
>>> function_of("phi")(sympy.Symbol("x"))
phi(x)
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

import sympy

from ... import nodes as N
from ...build import row_bmat, table
from ...formula import expr as E
from ...reader.notation import Function, function_display, register_function
from ...reader.vocab import FUNCTION_COMMANDS
from ...steps import Step
from .base import (ELEMENTWISE, Ctx, Example, I, Reading, register, scalar_node, scaled)

__all__ = ["Scale", "Apply", "Sum", "EntryFunction", "ENTRY_FUNCTIONS",
           "register_entry_function", "read_whole", "function_of", "call", "exp_of"]


# -- the functions applied entry by entry -----------------------------------------------------

@dataclasses.dataclass(frozen=True)
class EntryFunction:
    """A function applied to every entry on its own.

    ``key`` is its name in formulas (``"relu"``), ``tex`` and ``text`` how it prints,
    ``value`` the SymPy function of one entry (None: left undefined, as a φ of the
    user's is), ``spellings`` its other names, ``display`` how ``f(item)`` is shown when
    not as ``tex(item)`` (the exponential), ``definition`` a display of its value on
    one entry that the derivation shows (GELU's exact form), with the sentence
    ``apply_definition.<key>``."""

    key: str
    tex: str
    text: str
    value: Callable | None = None
    spellings: tuple = ()
    display: Callable | None = None
    definition: Callable | None = None
    #: the symbol of a parameter its value has (LeakyReLU's slope), which a formula may
    #: write as the name's subscript: the function is then keyed ``key:written``
    #: (``leakyrelu:0.2``), and its value has the parameter in place of the symbol
    param: sympy.Symbol | None = None


#: the functions applied entry by entry, by key
ENTRY_FUNCTIONS: dict[str, EntryFunction] = {}
#: function key -> the readings that read ``f(X)`` of some matrices X as a whole
_WHOLE: dict[str, list] = {}


def register_entry_function(fn: EntryFunction) -> EntryFunction:
    """Add a function applied entry by entry, and its entry in the table of notation; a
    spelling that is a command of its own (``\\log``, ``\\ln``) is read as the function
    by both readers of LaTeX."""
    ENTRY_FUNCTIONS[fn.key] = fn
    register_function(Function(fn.key, "apply", fn.tex, fn.text), *fn.spellings)
    for spelling in (fn.tex, *fn.spellings):
        if re.fullmatch(r"\\[A-Za-z]+", spelling):
            FUNCTION_COMMANDS.setdefault(spelling, fn.key)
    return fn


def read_whole(key: str, cls: type) -> type:
    """Let reading ``cls`` read ``key(X)`` as a whole where it says so
    (``cls.from_apply(planner, expr, x)`` returns a draft, or None to leave it to
    :class:`Apply`)."""
    _WHOLE.setdefault(key, []).append(cls)
    return cls


def _has_minus_infinity(expr) -> bool:
    if expr is sympy.S.NegativeInfinity:
        return True
    return isinstance(expr, sympy.Add) and sympy.S.NegativeInfinity in expr.args \
        and sympy.S.Infinity not in expr.args


def exp_of(arg):
    """``exp(arg)``; an argument with a -oo term (a masked score) gives 0.

    An argument that is infinite or undefined otherwise raises ``ArithmeticError``.

    >>> exp_of(-sympy.oo), exp_of(sympy.Symbol("a") - sympy.oo), exp_of(sympy.S(0))
    (0, 0, 1)
    """
    if _has_minus_infinity(arg):
        return sympy.S.Zero
    if arg.has(sympy.S.Infinity) or arg.has(sympy.S.NegativeInfinity) or \
            arg.has(sympy.zoo) or arg.has(sympy.nan):
        raise ArithmeticError("an exponent is infinite or undefined")
    return sympy.exp(arg)


def parametric(key: str) -> tuple:
    """``(function, parameter)`` of a key ``leakyrelu:0.2`` (a registered function with its
    parameter written: a number, or a symbol), or ``(None, None)``.

    >>> fn, slope = parametric("leakyrelu:0.2"); fn.key, slope
    ('leakyrelu', 1/5)
    """
    base, sep, written = key.partition(":")
    fn = ENTRY_FUNCTIONS.get(base)
    if not sep or fn is None or fn.param is None:
        return None, None
    if re.fullmatch(r"\d+(\.\d+)?|\d+/\d+", written):
        return fn, sympy.Rational(written)
    return fn, sympy.Symbol(written.lstrip("\\"), positive=True)


def function_of(name: str) -> Callable:
    """The SymPy function of one entry that ``name`` (``relu``, ``phi``, ...) stands for;
    ``relu'`` is its derivative (ReLU's is the step function, an undefined φ's is φ′)."""
    if name.endswith("'"):
        f = function_of(name[:-1])
        x = sympy.Dummy("x")
        derivative = sympy.diff(f(x), x)
        if derivative.has(sympy.Derivative):   # an undefined φ: φ′ at the argument
            return lambda arg: derivative.subs(x, arg)
        return lambda arg: derivative.xreplace({x: arg})
    fn, param = parametric(name)
    if fn is not None:
        return lambda arg: fn.value(arg).xreplace({fn.param: param})
    fn = ENTRY_FUNCTIONS.get(name)
    return fn.value if fn is not None and fn.value is not None else sympy.Function(name)


def call(func: str, item):
    """``func(item)`` as a display: ``\\exp``, ``\\operatorname{ReLU}``, ``\\phi``; a
    derivative ``func'`` as ``\\phi'``."""
    prime = func.endswith("'")
    base = func.rstrip("'")
    fn = ENTRY_FUNCTIONS.get(base)
    if not prime and fn is not None and fn.display is not None:
        return fn.display(item)
    tex, txt = function_display(base)
    if prime:   # the derivative, f'
        tex = "{%s}'" % tex if tex.startswith("\\operatorname") else tex + "'"
        return N.Call(func, [item], tex=tex, text=txt + "′")
    return N.Call(func, [item], tex=tex, text=txt)


def _relu(x):
    return sympy.Max(0, x)


def _sigma(x):
    return 1 / (1 + sympy.exp(-x))


for _fn in (EntryFunction("exp", r"\exp", "exp", sympy.exp, display=N.Exp),
            EntryFunction("relu", r"\operatorname{ReLU}", "ReLU", _relu),
            EntryFunction("sigma", r"\sigma", "σ", _sigma, spellings=("sigmoid", "sigm")),
            EntryFunction("tanh", r"\tanh", "tanh", sympy.tanh)):
    register_entry_function(_fn)


# -- the readings ----------------------------------------------------------------------------

@register
class Scale(Reading):
    """``num / den * X``: every entry scaled alike.  ``shown`` is the scale as displayed:
    √d as written, or its number (``scale="number"``)."""

    reading = "scale"
    kind = ELEMENTWISE
    example = Example(r"\frac{QK^T}{\sqrt{d}}", {"Q": (2, 2), "K": (2, 2)})
    __slots__ = ("num", "den", "shown")

    def params(self) -> dict:
        return {"num": self.num, "den": self.den}

    @classmethod
    def made(cls, params: dict, plan) -> dict:
        return {**params, "shown": (plan.scalar(params["num"]), plan.scalar(params["den"]))}

    def evaluation_params(self, plan) -> dict:
        return {"num": plan.scalar(self.num), "den": plan.scalar(self.den)}

    @classmethod
    def evaluate(cls, args, num=1, den=1):
        value = args[0]
        if num != 1:
            value = value * num
        return value / den if den != 1 else value

    def compose(self, part):
        return scaled(part(self.inputs[0]), *self.shown)

    def general(self, get, plan):
        return (self.num / self.den) * get(self.inputs[0])

    def definition(self, parts):
        return scaled(parts[0], self.num, self.den)

    def row_formula(self):
        return scaled(self.inputs[0].row(I), *self.shown)

    def matched(self):
        return self.inputs[0].matched()

    def factor(self):
        """The scale as a display: ``\\frac{1}{\\sqrt{d}}``, ``2``."""
        num, den = self.shown
        if den == 1:
            return scalar_node(num)
        return N.Frac(scalar_node(num), scalar_node(den))

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (inner,) = self.inputs
        plan = ctx.plan
        symbols = sorted((sympy.sympify(self.num).free_symbols |
                          sympy.sympify(self.den).free_symbols), key=str)
        by = scalar_node(self.den) if self.den != 1 else scalar_node(self.num)
        shown = scaled(inner.whole(), *self.shown)
        params = {"X": inner.whole(), "by": by, "scaled": shown,
                  "direction": "divide" if self.den != 1 else "multiply"}
        if symbols:
            sym = symbols[0]
            params["d"] = plan.ties.get(sym, sym) if ctx.concrete else sym
            params["sqrt_d"] = by
        steps = [ctx.heading("scale", scaled=shown, part=part)]
        if plan.scale_mode == "number" and symbols:
            value = plan.scalar(self.num) / plan.scalar(self.den)
            if value == 1:
                return steps + [ctx.step("scale", {**params, "d": sym, "variant": "one"},
                                         part=part)]
            factor = plan.scalar(self.den if self.den != 1 else self.num)
            params["value"] = factor
            params["sqrt_d_value"] = N.Chain([by, factor])
            kind = "number"
        else:
            kind = "symbolic" if symbols else "constant"
        head = [self.seq, shown] if self.named else [shown]
        display = N.Chain(head + [table(self.rows, self.cols, lambda r, c: scaled(
            inner.entry_symbol(r, c), *self.shown))])
        if inner.named:
            # the same, for row i alone: what a shortened rendering shows (expand="one")
            row_head = [self.seq.vector(I)] if self.named else []
            params["short"] = N.Chain(row_head + [
                scaled(inner.row(I), *self.shown),
                row_bmat(self.cols, lambda c: scaled(inner.entry_symbol(I, c), *self.shown))])
        return steps + [ctx.step("scale", {**params, "variant": kind}, display, part=part)]

    def as_expr(self, args):
        return E.Scaled(args[0], self.num, self.den)

    def rule_params(self, rules) -> dict:
        return {**super().rule_params(rules), "c": self.factor()}

    def backward(self, g, bw):
        """C = c X: X̄ = c C̄."""
        return [(0, E.Scaled(g, self.num, self.den))]


@register
class Apply(Reading):
    """An element-wise function ``func`` (a key of :data:`ENTRY_FUNCTIONS`, or a user's
    name such as ``phi``)."""

    reading = "apply"
    kind = ELEMENTWISE
    on_path = True
    example = Example(r"\tanh(X) W", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ("func",)

    def params(self) -> dict:
        return {"func": self.func}

    @classmethod
    def from_expr(cls, planner, expr: E.Apply):
        """The draft for ``f(X)``: read entry by entry, unless a reading that reads
        ``f`` of some matrices as a whole takes it (:func:`read_whole`)."""
        x = planner.get(expr.arg)
        for whole in _WHOLE.get(expr.func, ()):
            draft = whole.from_apply(planner, expr, x)
            if draft is not None:
                return draft
        return planner.draft(cls, (x,), x.rows, x.cols, expr, func=expr.func)

    @classmethod
    def evaluate(cls, args, func):
        return args[0].applyfunc(function_of(func))

    def compose(self, part):
        return call(self.func, part(self.inputs[0]))

    def definition(self, parts):
        return call(self.func, parts[0])

    def row_formula(self):
        return call(self.func, self.inputs[0].row(I))

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (inner,) = self.inputs
        fX = call(self.func, inner.whole())
        f_i = call(self.func, inner.row(I))
        head = [self.seq, fX] if self.named else [fX]
        entry = inner.entry if ctx.concrete else inner.entry_symbol
        display = N.Chain(head + [table(self.rows, self.cols,
                                        lambda r, c: call(self.func, entry(r, c)))])
        f = N.Label(*function_display(self.func))
        steps = [ctx.heading("apply", fX=fX, part=part),
                 ctx.step("apply", {"f": f, "fX": fX, "X": inner.whole(), "x_i": inner.row(I),
                                    "f_i": f_i}, display, part=part)]
        fn, param = parametric(self.func)
        fn = fn or ENTRY_FUNCTIONS.get(self.func)
        if fn is not None and fn.definition is not None:
            x = sympy.Symbol("x")
            variant = fn.key
            if fn.param is not None:
                written = self.func.partition(":")[2]
                # the parameter as the formula writes it (0.2, not 1/5)
                param = N.Label(written, written) if written else fn.param
                shown = fn.definition(x, param)
                variant += ".given" if self.func != fn.key else ""
            else:
                shown = fn.definition(x)
            steps.append(ctx.step("apply_definition", {"f": f, "variant": variant,
                                                        "p": param},
                                  N.Chain([call(self.func, x), shown]), part=part))
        steps.append(ctx.step("apply_row", {"f_i": f_i, "x_i": inner.row(I), "f": f},
                              N.Chain([self.row(I) if self.named else f_i,
                                       row_bmat(inner.cols, lambda c: call(
                                           self.func, inner.entry_symbol(I, c)))]),
                              part=part + ".row"))
        return steps

    def as_expr(self, args):
        return E.Apply(self.func, args[0])

    def rule_params(self, rules) -> dict:
        return {**super().rule_params(rules), "f": N.Label(*function_display(self.func))}

    def backward(self, g, bw):
        """C = f(X) entry by entry: X̄ = C̄ ∘ f'(X)."""
        return [(0, E.Hadamard(g, E.Apply(self.func + "'", bw.ref(self.inputs[0]))))]


@register
class Sum(Reading):
    """Terms of one shape, added or subtracted: ``signs[k]`` is +1 or -1 for input k."""

    reading = "sum"
    kind = ELEMENTWISE
    example = Example("XW + YV", {"X": (2, 2), "W": (2, 1), "Y": (2, 2), "V": (2, 1)})
    __slots__ = ("signs",)

    def params(self) -> dict:
        return {"signs": self.signs}

    @classmethod
    def evaluate(cls, args, signs):
        total = None
        for v, s in zip(args, signs):
            v = v if s > 0 else -v
            total = v if total is None else total + v
        return total

    def _signed(self, items):
        return N.OSum([x if s > 0 else N.Neg(x) for x, s in zip(items, self.signs)])

    def compose(self, part):
        return self._signed([part(t) for t in self.inputs])

    def general(self, get, plan):
        return sympy.MatAdd(*[get(t) if s > 0 else -get(t)
                              for t, s in zip(self.inputs, self.signs)])

    def definition(self, parts):
        return self._signed(parts)

    def row_formula(self):
        return self._signed([t.row(I) for t in self.inputs])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        whole = self._signed([t.whole() for t in self.inputs])
        head = [self.seq] if self.named else []
        steps = [ctx.heading("sum", S=whole, part=part),
                 ctx.step("sum", {"S": whole, "terms": len(self.inputs), "i": I},
                          N.Chain(([self.seq.vector(I)] if self.named else []) +
                                  [self.row_formula()]), part=part)]
        if ctx.concrete:
            def entry(r, c):
                return self._signed([t.entry(r, c) for t in self.inputs])
            steps.append(ctx.step("sum_entries", {"S": whole},
                                  N.Chain(head + [whole, table(self.rows, self.cols, entry)]),
                                  part=part + ".entries"))
        return steps

    def as_expr(self, args):
        return E.Sum(tuple(args), tuple(self.signs))

    def backward(self, g, bw):
        """C = ±X ± Y ...: each term gets ±C̄."""
        return [(k, g if s > 0 else E.Scaled(g, -1)) for k, s in enumerate(self.signs)]
