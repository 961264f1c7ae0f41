"""A new reading is one class, registered: nothing else in symrow changes.

The class says what it is (its kind: RMSNorm is row-wise), how a formula names
it (its entry in the notation table), its value as a pure function of matrices,
its steps and their sentences in each language, its backward pass, and an
example formula; ``register`` puts it in the registry and its function in the
notation table.  The contract over the registry (contract.py) then holds it to
everything every reading keeps.

The reading here is RMSNorm, a row-wise map like LayerNorm: each point is
divided by the root of the mean of its squared coordinates.  Its backward pass
reuses the L2 normalisation's: RMSNorm(x) = √d · x / ‖x‖.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import symrow
from symrow import nodes as N
from symrow.derive.readings import READINGS, ROWWISE, Example, Reading, register, unregister
from symrow.derive.readings.base import I, J
from symrow.formula import expr as E
from symrow.reader.notation import Function

import contract

WORDS = {
    "en": {"heading.rmsnorm": "RMSNorm: {Y}",
           "rmsnorm": ("RMSNorm works on each point on its own: {x_i} is divided by the root "
                       "of the mean of its squared coordinates:"),
           "backward_rule.rmsnorm": ("Back through RMSNorm, each point on its own: it is the "
                                     "L2 normalisation times the root of the width:")},
    "ja": {"heading.rmsnorm": "RMSNorm：{Y}",
           "rmsnorm": "RMSNorm は各点に別々に働く。{x_i} をその座標の2乗平均の平方根で割る。",
           "backward_rule.rmsnorm": ("RMSNorm を逆にたどる。各点は別々で、L2 正規化に幅の"
                                     "平方根を掛けたものである。")},
}


class RMSNorm(Reading):
    """``RMSNorm(X)``: each point divided by the root of its mean square."""

    reading = "rmsnorm"
    kind = ROWWISE
    notation = Function("rmsnorm", "rmsnorm", r"\operatorname{RMSNorm}", "RMSNorm")
    example = Example(r"\mathrm{RMSNorm}(X) W", {"X": (2, 3), "W": (3, 1)})
    words = WORDS
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        x = args[0]
        return sympy.Matrix(x.rows, x.cols, lambda i, j: x[i, j] / sympy.sqrt(
            sympy.Add(*[x[i, k] ** 2 for k in range(x.cols)]) / x.cols))

    def compose(self, part):
        return N.Call("RMSNorm", [part(self.inputs[0])], tex=r"\operatorname{RMSNorm}")

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

    def backward(self, g, bw):
        """RMSNorm(x) = √d · normalize(x): its gradient is √d times normalize's."""
        grad = E.Call("normalize_vjp", (bw.ref(self.inputs[0]), g))
        return [(0, E.Scaled(grad, sympy.sqrt(self.cols)))]


contract.REFERENCES[RMSNorm.example.formula] = lambda a: (
    a["X"] / np.sqrt((a["X"] ** 2).mean(axis=1, keepdims=True))) @ a["W"]


@pytest.fixture
def rmsnorm():
    register(RMSNorm)
    yield RMSNorm
    unregister(RMSNorm)
    contract.forget()


def test_a_new_reading_is_one_class(rmsnorm):
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


def test_its_entries_are_functions_of_the_whole_row(rmsnorm):
    """Row-wise: the combine weighs W's points by RMSNorm(x_1)_j, never RMSNorm(x_11)."""
    text = symrow.explain(r"\mathrm{RMSNorm}(X) W", {"X": (2, 3), "W": (3, 2)}).to_text()
    assert "RMSNorm(𝐱₁)₁ 𝐰₁" in text
    assert "RMSNorm(x₁₁)" not in text


def test_it_keeps_the_contract(rmsnorm):
    assert contract.problems(RMSNorm) == []


def test_without_its_registration_the_function_is_unknown():
    """Unregistered, RMSNorm is a word symrow does not know: refused, never read as an
    element-wise function on a guess (issue 24: MultiHead read entry by entry)."""
    assert "rmsnorm" not in READINGS
    with pytest.raises(symrow.ParseError, match="RMSNorm is not a function symrow knows"):
        symrow.explain(r"\mathrm{RMSNorm}(X)", {"X": (2, 3)})
    d = symrow.explain(r"\phi(X)", {"X": (2, 3)})
    assert [n.reading for n in d.plan.nodes] == ["operand", "apply"]   # an undefined φ


def test_it_is_checkable_with_no_change_to_the_checker(rmsnorm):
    """The checker evaluates a function by the reading that explain reads it with
    (symrow/formula/evaluate.py): registering RMSNorm makes a page with it checkable."""
    d = symrow.explain(r"Y = \mathrm{RMSNorm}(X) W", {"X": (2, 3), "W": (3, 2)})
    good = symrow.check(r"$$Y = \mathrm{RMSNorm}(X) W$$", against=d)
    assert good.verdict == "holds", good.to_text()
    # row by row, as a student writes it: the row's root mean square
    row = symrow.check(r"$$\mathrm{RMSNorm}(X)_{1} = \frac{\boldsymbol{x}_1}{\sqrt{"
                       r"\frac{1}{3}(x_{11}^2 + x_{12}^2 + x_{13}^2)}}$$", against=d)
    assert row.verdict == "holds", row.to_text()
    assert symrow.check(r"$$Y = \mathrm{LayerNorm}(X) W$$", against=d).verdict == "wrong"
