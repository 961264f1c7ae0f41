r"""The all-ones vector \mathbf{1}: sized by what it meets, its values against numpy, and
refused (saying how to write it) where nothing sizes it."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import harness
import symrow


def _value(d, arrays):
    subs = {}
    for name, seq in d.operands.items():
        for i in range(seq.rows):
            for j in range(seq.cols):
                subs[seq.matrix[i, j]] = sympy.Float(arrays[name][i, j], 30)
    return np.array(sympy.Matrix(d.result).xreplace(subs).evalf(20).tolist(), dtype=float)


CASES = [
    (r"S = P\mathbf{1}", {"P": (2, 3)}, lambda a: a["P"].sum(axis=1, keepdims=True)),
    (r"\mathbf{1}^\top X", {"X": (3, 2)}, lambda a: a["X"].sum(axis=0, keepdims=True)),
    (r"\mathbf 1^T X", {"X": (3, 2)}, lambda a: a["X"].sum(axis=0, keepdims=True)),
    (r"\boldsymbol{1}^\top X \boldsymbol{1}", {"X": (3, 2)},
     lambda a: a["X"].sum().reshape(1, 1)),
    (r"X + \mathbf{1} b", {"X": (3, 2), "b": (1, 2)}, lambda a: a["X"] + a["b"]),
    (r"A 1_n", {"A": (2, 4)}, lambda a: a["A"].sum(axis=1, keepdims=True)),
    (r"\mathbb{1}_3^\top X", {"X": (3, 2)}, lambda a: a["X"].sum(axis=0, keepdims=True)),
    (r"\mathbf{1}_{3}\mathbf{1}_{3}^\top X", {"X": (3, 2)},
     lambda a: np.ones((3, 3)) @ a["X"]),
    (r"\mathrm{diag}(A\mathbf{1})^{-1} A", {"A": (3, 3)},
     lambda a: a["A"] / a["A"].sum(axis=1, keepdims=True)),
]


@pytest.mark.parametrize("tex, shapes, ref", CASES, ids=[c[0] for c in CASES])
def test_value_against_numpy(tex, shapes, ref):
    d = symrow.explain(tex, shapes)
    assert set(d.operands) == set(shapes)          # the ones vector is no operand
    rng = np.random.default_rng(3)
    arrays = {n: rng.uniform(0.2, 1.0, size=s) for n, s in shapes.items()}
    np.testing.assert_allclose(_value(d, arrays), ref(arrays), rtol=1e-10)
    assert "None" not in d.to_text() and "None" not in d.to_text("ja")


def test_a_column_formula_repeats_its_bias_by_a_row_of_ones():
    """Phuong & Hutter write a bias as b 1^T: a column repeated for each point (column)."""
    d = symrow.explain(r"Q = W X + b \mathbf{1}^\top",
                       {"W": (2, 3), "X": (3, 4), "b": (2, 1)})
    rng = np.random.default_rng(5)
    a = {n: rng.uniform(-1, 1, size=s) for n, s in {"W": (2, 3), "X": (3, 4),
                                                     "b": (2, 1)}.items()}
    want = a["W"] @ a["X"] + a["b"] @ np.ones((1, 4))   # in the source's convention
    got = _value(d, {n: (v.T if d.operands[n].shape == v.shape[::-1] else v)
                     for n, v in a.items()})
    np.testing.assert_allclose(got, want, rtol=1e-10)


@pytest.mark.parametrize("tex, shapes", [
    (r"\mathbf{1}\mathbf{1}^\top X", {"X": (3, 2)}),    # the first 1's size: nothing says
    (r"Y = \mathbf{1}^\top \mathbf{1}", None),
])
def test_nothing_sizes_it_refused_saying_how(tex, shapes):
    if shapes is None:    # general sizes: a size of its own, named
        d = symrow.explain(tex)
        assert d.result.shape == (1, 1)
        return
    with pytest.raises(symrow.ShapeError, match=r"\\mathbf\{1\}_\{3\}"):
        symrow.explain(tex, shapes)


def test_an_indicator_is_not_the_ones_vector():
    with pytest.raises(symrow.SymrowError, match="indicator"):
        symrow.explain(r"\mathbb{1}[X] W", {"X": (2, 2), "W": (2, 2)})
    with pytest.raises(symrow.SymrowError, match="indicator"):
        symrow.explain(r"\mathbb{1}_{x > 0}", None)


def test_backward_through_diag_of_row_sums_against_finite_differences():
    tex, shapes = r"Y = \mathrm{diag}(A\mathbf{1}_L)^{-1} A V", {"A": (3, 3), "V": (3, 2)}
    b = symrow.backward(tex, shapes)
    rng = np.random.default_rng(2)
    a = {n: rng.uniform(0.2, 1.0, size=s) for n, s in shapes.items()}
    up = rng.uniform(-1, 1, size=(3, 2))

    def f(x):
        return ((x["A"] / x["A"].sum(axis=1, keepdims=True)) @ x["V"] * up).sum()
    subs = {}
    for name, seq in b.operands.items():
        for i in range(seq.rows):
            for j in range(seq.cols):
                subs[seq.matrix[i, j]] = sympy.Float(a[name][i, j], 30)
    G = b.upstream
    for i in range(G.rows):
        for j in range(G.cols):
            subs[G[i, j]] = sympy.Float(up[i, j], 30)
    for name, grad in b.gradients.items():
        got = np.array(sympy.Matrix(grad).xreplace(subs).evalf(20).tolist(), dtype=float)
        want = harness.central_gradient(f, a, name)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7, err_msg=name)
