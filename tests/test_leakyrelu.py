r"""LeakyReLU entry by entry: its slope as written (\mathrm{LeakyReLU}_{0.2}), or kept as
the symbol alpha and said so, never a slope supplied silently; values and gradients
against numpy."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import harness
import symrow


def _subs(seqs: dict, arrays: dict) -> dict:
    out = {}
    for name, seq in seqs.items():
        for i in range(seq.rows):
            for j in range(seq.cols):
                out[seq.matrix[i, j]] = sympy.Float(arrays[name][i, j], 30)
    return out


def _num(matrix, subs) -> np.ndarray:
    return np.array(sympy.Matrix(matrix).xreplace(subs).evalf(20).tolist(), dtype=float)


SHAPES = {"X": (2, 3), "W": (3, 2)}


@pytest.mark.parametrize("tex", [r"\mathrm{LeakyReLU}_{0.2}(X) W",
                                 r"\operatorname{LeakyReLU}_{0.2}(X)W"])
def test_the_slope_written_is_taken(tex):
    d = symrow.explain(tex, SHAPES)
    a = {"X": np.array([[-1.0, 0.5, -0.25], [2.0, -3.0, 0.1]]), "W": np.arange(6.).reshape(3, 2)}
    want = np.where(a["X"] > 0, a["X"], 0.2 * a["X"]) @ a["W"]
    np.testing.assert_allclose(_num(d.result, _subs(d.operands, a)), want, rtol=1e-12)
    assert "slope 0.2 written" in " ".join(d.to_text().split())


def test_an_unwritten_slope_stays_a_symbol_and_is_said():
    d = symrow.explain(r"\mathrm{LeakyReLU}(X) W", SHAPES)
    alpha = sympy.Symbol("alpha", positive=True)
    assert alpha in sympy.Matrix(d.result).free_symbols
    assert "does not write the slope" in " ".join(d.to_text().split())
    assert "傾きが書かれていない" in "".join(d.to_text("ja").split())


def test_backward_against_finite_differences():
    tex = r"\mathrm{LeakyReLU}_{0.2}(X) W"
    b = symrow.backward(tex, SHAPES)
    rng = np.random.default_rng(4)
    a = {n: rng.uniform(-1, 1, size=s) for n, s in SHAPES.items()}
    up = rng.uniform(-1, 1, size=(2, 2))

    def f(x):
        return ((np.where(x["X"] > 0, x["X"], 0.2 * x["X"]) @ x["W"]) * up).sum()
    subs = _subs(b.operands, a)
    for i in range(2):
        for j in range(2):
            subs[b.upstream[i, j]] = sympy.Float(up[i, j], 30)
    for name, grad in b.gradients.items():
        want = harness.central_gradient(f, a, name)
        np.testing.assert_allclose(_num(grad, subs), want, rtol=1e-5, atol=1e-7, err_msg=name)


def test_a_subscript_that_is_no_slope_is_refused():
    with pytest.raises(symrow.ParseError, match=r"subscript of LeakyReLU"):
        symrow.explain(r"\mathrm{LeakyReLU}_{x+1}(X)", {"X": (2, 2)})
