"""Evaluate SymPy expressions at a point, with mpmath, without generating code.

Used where exact comparison is out of reach (softmax entries, anything with
``exp``): both sides are evaluated at a few points with 40 significant
digits.  Nothing is compiled or ``eval``-ed; the walker below knows the few
node types the checker produces and refuses the rest.

>>> import sympy
>>> from symrow.checker.numeric import evaluate, close, sample_points
>>> a, b = sympy.symbols("a b")
>>> v = evaluate(sympy.exp(a) / (sympy.exp(a) + sympy.exp(b)), {a: sympy.Rational(1, 2), b: 0})
>>> print(format(float(v.real), ".6f"))
0.622459
>>> close(v, v)
True
>>> [sorted(p.values()) for p in sample_points([a, b], 2)] == [sorted(p.values()) for p in sample_points([a, b], 2)]
True
"""

from __future__ import annotations

import random
import re
import threading

import mpmath
import sympy
from sympy.core.function import AppliedUndef

__all__ = ["evaluate", "close", "sample_points", "natural_key", "show_number"]

_local = threading.local()
#: the largest |x| for which exp(x) is evaluated (larger ones have no use here)
_MAX_EXP = 10_000
#: a fixed seed: the same input always gets the same sample points
SEED = 20260611


def _ctx():
    ctx = getattr(_local, "ctx", None)
    if ctx is None:
        ctx = mpmath.MPContext()
        ctx.dps = 40
        _local.ctx = ctx
    return ctx


class NumericError(Exception):
    """The expression cannot be evaluated at this point (e.g. a division by zero)."""


def evaluate(expr, values: dict, memo: dict | None = None):
    """``expr`` at ``values`` (symbol -> number) as an mpmath complex number.

    ``memo`` keeps the value of every part evaluated; it may be shared by the
    evaluations of several expressions *at the same values* (the two sides of a
    step share most of their parts)."""
    ctx = _ctx()
    if memo is None:
        memo = {}

    def ev(node):
        hit = memo.get(node)
        if hit is not None:
            return hit
        if node.is_Symbol:
            if node not in values:
                raise NumericError(f"no value for {node}")
            value = values[node]
            if isinstance(value, sympy.Rational):
                out = ctx.mpc(ctx.mpf(value.p) / value.q)
            elif isinstance(value, sympy.Basic):
                out = ev(value)
            else:
                out = ctx.mpc(value)
        elif node.is_Integer:
            out = ctx.mpc(int(node))
        elif node.is_Rational:
            out = ctx.mpc(ctx.mpf(int(node.p)) / int(node.q))
        elif node.is_Float:
            out = ctx.mpc(ctx.mpf(str(node)))
        elif node is sympy.S.Exp1:
            out = ctx.mpc(ctx.e)
        elif node is sympy.S.ImaginaryUnit:
            out = ctx.mpc(0, 1)
        elif node is sympy.S.Pi:
            out = ctx.mpc(ctx.pi)
        elif node.is_Add or node.is_Mul:
            # from the first term, not from 0 (or 1): every value is already rounded to
            # the working precision, so 0 + x is x exactly; and sums and products of
            # finite values are finite (mpmath's exponents do not overflow)
            args = node.args
            out = ev(args[0])
            if node.is_Add:
                for arg in args[1:]:
                    out += ev(arg)
            else:
                for arg in args[1:]:
                    out *= ev(arg)
            memo[node] = out
            return out
        elif node.is_Pow:
            base, exp = node.args
            b, e = ev(base), ev(exp)
            if b == 0:
                if e.real <= 0:
                    raise NumericError("division by zero")
                out = ctx.mpc(0)
            else:
                # |b^e| = exp(Re(e log b)): refuse what would not fit in memory
                if abs((e * ctx.log(b)).real) > _MAX_EXP:
                    raise NumericError("a power is too large to evaluate")
                out = b ** int(exp) if exp.is_Integer else ctx.power(b, e)
        elif isinstance(node, (sympy.Max, sympy.Min)):
            got = [ev(arg) for arg in node.args]
            if any(abs(v.imag) > ctx.mpf(10) ** -30 for v in got):
                raise NumericError("max or min of complex numbers")
            pick = max if isinstance(node, sympy.Max) else min
            out = ctx.mpc(pick(v.real for v in got))
        elif isinstance(node, sympy.exp):
            arg = ev(node.args[0])
            if abs(arg.real) > _MAX_EXP:
                raise NumericError("an exponent is too large to evaluate")
            out = ctx.exp(arg)
        elif isinstance(node, sympy.tanh):
            arg = ev(node.args[0])
            if abs(arg.real) > _MAX_EXP:
                raise NumericError("an argument is too large to evaluate")
            out = ctx.tanh(arg)
        elif isinstance(node, sympy.log):
            # the natural logarithm (a cross-entropy's); of 0 it is not finite, below
            arg = ev(node.args[0])
            if arg == 0:
                raise NumericError("the logarithm of 0")
            out = ctx.log(arg)
        elif isinstance(node, sympy.Heaviside):
            # the step function, ReLU's derivative: 1 above 0, 0 below (1/2 at 0, SymPy's)
            arg = ev(node.args[0])
            if abs(arg.imag) > ctx.mpf(10) ** -30:
                raise NumericError("a step function of a complex number")
            out = ctx.mpc(1 if arg.real > 0 else 0 if arg.real < 0 else ctx.mpf(1) / 2)
        elif isinstance(node, sympy.erf):
            out = ctx.erf(ev(node.args[0]))
        elif isinstance(node, AppliedUndef) and len(node.args) == 1:
            # a function the user named (phi): both sides get the same fixed stand-in,
            # a smooth function that is not even, odd or linear
            arg = ev(node.args[0])
            if abs(arg.real) > _MAX_EXP:
                raise NumericError("an argument is too large to evaluate")
            out = ctx.exp(arg / 3) + arg * arg / 5 + _stand_in(node.func.__name__)
        else:
            raise NumericError(f"cannot evaluate {type(node).__name__}")
        if not (ctx.isfinite(out.real) and ctx.isfinite(out.imag)):
            raise NumericError("the value is not finite")
        memo[node] = out
        return out

    return ev(sympy.sympify(expr) if not isinstance(expr, sympy.Basic) else expr)


def _stand_in(name: str):
    """A constant that tells user-named functions apart (phi and psi differ)."""
    return _ctx().mpf(sum(map(ord, name)) % 97) / 7


def close(x, y) -> bool:
    """Equal to about 25 significant digits (both are 40-digit results)."""
    ctx = _ctx()
    scale = max(ctx.mpf(1), abs(x), abs(y))
    return abs(x - y) <= scale * ctx.mpf(10) ** -25


def vanishing(x, y) -> bool:
    """Did :func:`close` call ``x`` and ``y`` equal only because both are vanishingly
    small (below 10^-20) while one is not 0: a value squeezed to nothing at this point
    (an exponential's tail), which says little about the two expressions?"""
    ctx = _ctx()
    tiny = ctx.mpf(10) ** -20
    return (x != 0 or y != 0) and abs(x) < tiny and abs(y) < tiny


#: small nonzero rationals between -4 and 4, all different
_POOL = sorted({sympy.Rational(p, q) for p in range(-47, 48) if p for q in (2, 3, 5, 7, 11)
                if abs(sympy.Rational(p, q)) <= 4}, key=lambda r: (abs(r), r))


def sample_points(symbols, count: int) -> list[dict]:
    """``count`` assignments of small nonzero rationals to ``symbols`` (sorted by name).

    The points depend only on the symbols' names, never on earlier calls.
    """
    names = sorted(symbols, key=lambda s: natural_key(s.name))
    rng = random.Random(SEED)
    points = []
    for _ in range(count):
        # distinct values at one point, so that swapping two symbols always shows
        if len(names) <= len(_POOL):
            values = rng.sample(_POOL, len(names))
        else:
            values = [rng.choice(_POOL) for _ in names]
        points.append(dict(zip(names, values)))
    return points


def natural_key(text: str):
    """Sort ``a_{2}`` before ``a_{10}``."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text)]


def show_number(value, digits: int = 10) -> str:
    """A short decimal for a report."""
    ctx = _ctx()
    re_part = ctx.nstr(value.real, digits)
    if abs(value.imag) > ctx.mpf(10) ** -30 * max(1, abs(value.real)):
        return f"{re_part} + {ctx.nstr(value.imag, digits)}i"
    return re_part
