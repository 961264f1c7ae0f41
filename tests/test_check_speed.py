"""The shortcuts that make ``symrow check`` fast give what the slow paths give.

Each shortcut is compared with the computation it replaces, on expressions
of the kind the checker meets (softmax rows, their gradients, polynomials
with shared parts) and on small adversarial ones.
"""

from __future__ import annotations

import gc
import random
import threading

import sympy

import symrow
from symrow.checker import numeric
from symrow.checker import verify as V
from symrow.checker.gcpause import THRESHOLD, fewer_collections
from symrow.formula.substitute import Replacer, xreplace_all
from symrow.seq import size_symbol


def _softmax_values():
    d = symrow.attention(2, 3, 2)
    return {k: sympy.ImmutableMatrix(v) for k, v in d.quantities.items()
            if isinstance(v, sympy.MatrixBase)}


def test_replacer_gives_what_xreplace_gives():
    values = _softmax_values()
    syms = sorted(set().union(*[m.free_symbols for m in values.values()]), key=str)
    rng = random.Random(7)
    for _ in range(5):
        rule = {s: sympy.Rational(rng.randint(-5, 5), rng.randint(1, 4))
                for s in rng.sample(syms, 4)}
        rule[syms[0]] = syms[1] + sympy.sqrt(3)   # a symbol to an expression, too
        got = xreplace_all(values, rule)
        for name, m in values.items():
            want = m.xreplace(rule)
            assert got[name] == want
            assert [sympy.srepr(x) for x in got[name]] == [sympy.srepr(x) for x in want]
            assert type(got[name]) is type(want)


def test_replacer_on_scalars_and_an_empty_rule():
    x, y, d = sympy.symbols("x y d")
    e = sympy.exp(x / sympy.sqrt(d)) / (sympy.exp(x / sympy.sqrt(d)) + y)
    r = Replacer({d: 3})
    assert r(e) == e.xreplace({d: 3})
    assert r(e) == r(e)          # the memo gives the same again
    assert Replacer({})(e) is e
    mutable = sympy.Matrix([[x, d]])
    out = Replacer({d: 2}).matrix(mutable)
    assert out == sympy.Matrix([[x, 2]]) and isinstance(out, sympy.MutableDenseMatrix)


def test_exact_nonzero_test_agrees_with_expand():
    a, b, c = sympy.symbols("a b c")
    cases = [
        ((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2),            # equal
        ((a + b) ** 2, a ** 2 + b ** 2),                         # differ
        ((a + b) * (a - b), a ** 2 - b ** 2),                    # equal
        (a * b * c, c * b * a + 0),                              # equal
        (sympy.Rational(1, 3) * a, a / 3),                       # equal
        (a + sympy.Rational(1, 10 ** 9), a),                     # differ by a tiny number
        (sympy.sqrt(2) * a, a),                                  # a surd: not handled here
        (0.5 * a, a / 2),                                        # a float: not handled here
        ((a - b) ** 3 + (b - a) ** 3, sympy.S.Zero),             # equal (zero)
    ]
    for left, right in cases:
        differ = V._differ(left, right, {})
        exact_zero = V.expand(left - right) == 0
        if differ:
            assert not exact_zero, (left, right)
            assert not V._zero(left - right)
    # a nonzero difference of polynomials with rational coefficients is always found
    assert V._differ((a + b) ** 2, a ** 2 + b ** 2, {})
    assert not V._differ(sympy.sqrt(2) * a, a, {})
    assert not V._differ(0.5 * a, a / 2, {})


def test_shared_numeric_memo_gives_the_same_values():
    values = _softmax_values()
    exprs = [e for m in values.values() for e in m]
    syms = set().union(*[e.free_symbols for e in exprs])
    (point,) = numeric.sample_points(syms, 1)
    shared: dict = {}
    for e in exprs:
        alone = numeric.evaluate(e, point)
        together = numeric.evaluate(e, point, shared)
        assert alone.real == together.real and alone.imag == together.imag
    # and against an independent evaluation in floating point
    p = values["P"]
    for e in p:
        want = complex(e.xreplace(point).evalf(30))
        got = numeric.evaluate(e, point)
        assert abs(complex(got) - want) < 1e-12


def test_fewer_collections_restores_the_threshold():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], THRESHOLD)
        with fewer_collections():       # nested: still raised
            assert gc.get_threshold()[0] == max(before[0], THRESHOLD)
        assert gc.get_threshold()[0] == max(before[0], THRESHOLD)
    assert gc.get_threshold() == before


def test_fewer_collections_across_threads():
    before = gc.get_threshold()
    inside = threading.Event()
    leave = threading.Event()

    def other():
        with fewer_collections():
            inside.set()
            leave.wait(5)

    t = threading.Thread(target=other)
    t.start()
    inside.wait(5)
    with fewer_collections():
        pass
    # the other thread's check still runs: the threshold stays raised
    assert gc.get_threshold()[0] == max(before[0], THRESHOLD)
    leave.set()
    t.join(5)
    assert gc.get_threshold() == before


def test_a_host_setting_is_left_alone():
    before = gc.get_threshold()
    try:
        gc.set_threshold(0)             # the host switched automatic collection off
        with fewer_collections():
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_backward_with_number_scale_takes_d_from_the_forward_pass():
    general = symrow.backward(r"\operatorname{softmax}(QK^T/\sqrt{d})V", general=True)
    by_number = general.instantiate({"m": 2, "d": 3, "n": 2}, scale="number")
    symbolic = general.instantiate({"m": 2, "d": 3, "n": 2})
    d = size_symbol("d")
    for name, value in symbolic.quantities.items():
        if not isinstance(value, sympy.MatrixBase):
            continue
        other = sympy.ImmutableMatrix(by_number.quantities[name])
        assert d not in other.free_symbols
        assert other == sympy.ImmutableMatrix(value).xreplace({d: 3}), name
