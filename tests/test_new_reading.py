"""A new reading is one class, its sentences in each language, and one entry in the
notation table: nothing else in symrow changes.

The reading here is RMSNorm, a row-wise map like LayerNorm: each point is
divided by the root of the mean of its squared coordinates.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import symrow
from symrow import nodes as N
from symrow.derive.readings import READINGS, Reading, register
from symrow.derive.readings.base import I, J
from symrow.narrate import register_templates, unregister_templates
from symrow.reader.notation import Function, register_function, unregister_function

WORDS = {
    "en": {"heading.rmsnorm": "RMSNorm: {Y}",
           "rmsnorm": ("RMSNorm works on each point on its own: {x_i} is divided by the root "
                       "of the mean of its squared coordinates:")},
    "ja": {"heading.rmsnorm": "RMSNorm：{Y}",
           "rmsnorm": "RMSNorm は各点に別々に働く。{x_i} をその座標の2乗平均の平方根で割る。"},
}


class RMSNorm(Reading):
    """``RMSNorm(X)``: each point divided by the root of its mean square."""

    reading = "rmsnorm"
    __slots__ = ()

    def compose(self, part):
        return N.Call("RMSNorm", [part(self.inputs[0])], tex=r"\operatorname{RMSNorm}")

    def value(self, get, plan):
        x = sympy.Matrix(get(self.inputs[0]))
        return sympy.Matrix(x.rows, x.cols, lambda i, j: x[i, j] / sympy.sqrt(
            sympy.Add(*[x[i, k] ** 2 for k in range(x.cols)]) / x.cols))

    def definition(self, parts):
        return N.Call("RMSNorm", parts, tex=r"\operatorname{RMSNorm}")

    def row_formula(self):
        return self.compose(lambda n: n.row(I))

    def steps(self, ctx, part):
        X = self.inputs[0]
        d = X.cols
        rms = N.Sqrt(N.OMul([N.Frac(1, d), N.SumOver(N.Power(X.entry_symbol(I, J), 2),
                                                     J, 1, d)]))
        return [ctx.heading("rmsnorm", Y=self.whole(), part=part),
                ctx.step("rmsnorm", {"x_i": X.row(I)},
                         N.Chain([self.row_formula(), N.Frac(X.row(I), rms)]), part=part)]


@pytest.fixture
def rmsnorm():
    register(RMSNorm)
    for lang, words in WORDS.items():
        register_templates(lang, words)
    register_function(Function("rmsnorm", "rmsnorm", r"\operatorname{RMSNorm}", "RMSNorm"))
    yield RMSNorm
    READINGS.pop("rmsnorm", None)
    for lang, words in WORDS.items():
        unregister_templates(lang, words)
    unregister_function("rmsnorm")


def test_a_new_reading_needs_its_class_templates_and_notation_entry(rmsnorm):
    d = symrow.explain(r"\mathrm{RMSNorm}(X) W", {"X": (2, 3), "W": (3, 2)})
    assert [n.reading for n in d.plan.nodes] == ["operand", "rmsnorm", "operand", "combine"]
    assert d.products == [("combine", "RMSNorm(X)", "W")]
    rng = np.random.default_rng(5)
    x, w = rng.normal(size=(2, 3)), rng.normal(size=(3, 2))
    subs = {**dict(zip(d.operands["X"].matrix, x.flat)),
            **dict(zip(d.operands["W"].matrix, w.flat))}
    got = np.array(d.result.xreplace(subs).evalf().tolist(), dtype=float)
    want = (x / np.sqrt((x ** 2).mean(axis=1, keepdims=True))) @ w
    np.testing.assert_allclose(got, want, rtol=1e-10)
    assert "divided by the root of the mean" in d.to_latex("en")
    assert "2乗平均の平方根" in d.to_latex("ja")
    assert r"\operatorname{RMSNorm}" in d.to_latex("en")


def test_without_its_entry_the_function_is_unknown():
    assert "rmsnorm" not in READINGS
    d = symrow.explain(r"\mathrm{RMSNorm}(X)", {"X": (2, 3)})
    assert [n.reading for n in d.plan.nodes] == ["operand", "apply"]   # an undefined φ
