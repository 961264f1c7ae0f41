"""Typography papers print routinely (issue 24), each read as printed, its value held to numpy.

Sources of the spellings: the Hopfield update (Ramsauer et al. blog,
ml-jku.github.io/hopfield-layers, eq. 22: ``\\text{softmax}\\big(\\beta X^T \\xi \\big)``),
the Performer (Choromanski et al., arXiv:2009.14794, eq. 1:
``\\mathrm{Att}_{\\leftrightarrow}(Q,K,V)``), the sparsely gated MoE (Shazeer et al.,
arXiv:1701.06538, eq. 2: ``G_\\sigma(x)``), APPNP (Gasteiger et al., arXiv:1810.05997:
``\\hat{\\tilde{A}}``), the Hopfield layer (eq. 30: ``W^T_K``), GIN (PyG's GINConv
docstring: ``A + (1 + \\epsilon) \\cdot I``), GAT (DGL's GATConv docstring:
``[W h_i \\| W h_j]``).  The cases of tests/test_papers_fresh.py carry them verbatim.
"""

from __future__ import annotations

import numpy as np
import pytest

import harness
import symrow

RNG = np.random.default_rng(24)


_numbers = harness.result_numbers


def _values(shapes: dict) -> dict:
    return {k: RNG.normal(size=v) for k, v in shapes.items()}


def _softmax_rows(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _softmax_cols(x):
    return _softmax_rows(x.T).T


@pytest.mark.parametrize("tex", [
    r"X\,\mathrm{softmax}\big(\beta X^\top \xi\big)",
    r"X\,\mathrm{softmax}\Bigl(\beta X^\top \xi\Bigr)",
    r"X\,\mathrm{softmax}\left(\beta X^\top \xi\right)",
    r"X\,\mathrm{softmax}\bigg[\beta X^\top \xi\bigg] \ .",
])
def test_sizing_commands_are_brackets(tex):
    """\\big( was taken for the start of a call of ξ (\\xi \\big) ...) and refused."""
    shapes = {"X": (3, 4), r"\xi": (3, 1)}
    v = _values(shapes)
    d = symrow.explain(tex, shapes)
    np.testing.assert_allclose(_numbers(d, v, {"beta": 0.7}),
                               v["X"] @ _softmax_cols(0.7 * v["X"].T @ v[r"\xi"]), rtol=1e-10)


def test_an_invisible_left_bracket_goes_with_its_right():
    shapes = {"X": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\left. X W \right.", shapes)
    np.testing.assert_allclose(_numbers(d, v), v["X"] @ v["W"], rtol=1e-10)


def test_sigm_is_the_sigmoid():
    shapes = {"X": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\mathrm{sigm}(XW)", shapes)
    np.testing.assert_allclose(_numbers(d, v), 1 / (1 + np.exp(-v["X"] @ v["W"])), rtol=1e-10)


@pytest.mark.parametrize("tex", [
    r"\mathrm{Att}_{\leftrightarrow}(Q,K,V) = \mathrm{softmax}(QK^T)V",
    r"G_\sigma(Q,K,V) = \mathrm{softmax}(QK^T)V",
    r"G(Q,K,V) = \mathrm{softmax}(QK^T)V",
    r"\mathrm{Att}_{\leftrightarrow}(A,B,C) = \mathrm{softmax}(AB^T)C \\ "
    r"Y = \mathrm{Att}_{\leftrightarrow}(Q, K, V)",
    r"G_\sigma(A, B, C) = \mathrm{softmax}(AB^T)C \\ Y = G_\sigma(Q, K, V)",
])
def test_a_function_under_a_subscripted_or_capital_name(tex):
    """The left side was refused: 'the left side of a definition must be one name'."""
    shapes = {"Q": (2, 3), "K": (4, 3), "V": (4, 2)}
    v = _values(shapes)
    d = symrow.explain(tex, shapes)
    np.testing.assert_allclose(_numbers(d, v), _softmax_rows(v["Q"] @ v["K"].T) @ v["V"],
                               rtol=1e-10)


def test_two_accents_on_one_name():
    shapes = {r"\hat{\tilde{A}}": (3, 3), "Z": (3, 2), "H": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"(1 - \alpha) \hat{\tilde{\mathbf{A}}} Z + \alpha H", shapes)
    assert r"\hat{\tilde{A}}" in d.operands
    np.testing.assert_allclose(_numbers(d, v, {"alpha": 0.1}),
                               0.9 * v[r"\hat{\tilde{A}}"] @ v["Z"] + 0.1 * v["H"], rtol=1e-10)
    assert r"\hat{\tilde{a}}" in d.to_latex()


def test_a_transpose_written_before_the_subscript():
    """W^T_K is W_K transposed (the Hopfield layer, eq. 30); it was refused at '_'."""
    shapes = {"R": (2, 3), "W_K": (4, 3)}
    v = _values(shapes)
    d = symrow.explain(r"R W^T_K", shapes)
    assert sorted(d.operands) == ["R", "W_K"]
    np.testing.assert_allclose(_numbers(d, v), v["R"] @ v["W_K"].T, rtol=1e-10)


def test_a_font_command_as_a_subscript():
    """\\hat{\\mathbf{Y}}_\\text{SGC} = ...: the subscript is \\text{SGC}, braces and all."""
    shapes = {"X": (3, 2), r"\Theta": (2, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\hat{\mathbf{Y}}_\text{SGC} = \mathrm{softmax}(\mathbf{X}"
                       r"\mathbf{\Theta})", shapes)
    np.testing.assert_allclose(_numbers(d, v), _softmax_rows(v["X"] @ v[r"\Theta"]),
                               rtol=1e-10)


def test_an_inverse_prints_its_scalar_in_brackets():
    with pytest.raises(symrow.NotSupportedError, match=r"alpha\(I - \(1 - alpha\)"):
        symrow.explain(r"\alpha\left(I_n - (1 - \alpha) \hat{\tilde{A}}\right)^{-1} H")


def test_a_scalar_under_a_root_or_in_an_exponent():
    """\\sqrt{D_h} was 'the square root of a matrix'; e^{t} a matrix named e^t."""
    shapes = {"X": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"e^{-t} XW/\sqrt{D_h}", shapes)
    got = _numbers(d, v, {"t": 0.3, "D_h": 4.0})
    np.testing.assert_allclose(got, np.exp(-0.3) * v["X"] @ v["W"] / 2, rtol=1e-10)


def test_a_scaled_identity_added_to_a_matrix():
    """GIN's (A + (1 + eps) I) X: the identity took no size from A once scaled."""
    shapes = {"A": (3, 3), "X": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\left(\mathbf{A} + (1 + \epsilon) \cdot \mathbf{I}\right) \cdot "
                       r"\mathbf{X}", shapes)
    np.testing.assert_allclose(_numbers(d, v, {"epsilon": 0.5}),
                               (v["A"] + 1.5 * np.eye(3)) @ v["X"], rtol=1e-10)


def test_a_power_of_a_square_matrix():
    """S^2 X is S S X; S^K with K not a number is refused saying to write a number."""
    shapes = {"S": (3, 3), "X": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"S^{2} X", shapes)
    np.testing.assert_allclose(_numbers(d, v), v["S"] @ v["S"] @ v["X"], rtol=1e-10)
    with pytest.raises(symrow.ParseError, match=r"S\^K is a power of S.*K is not a number.*"
                                                r"S\^\{2\}"):
        symrow.explain(r"\mathrm{softmax}(\mathbf{S}^K \mathbf{X})", shapes)
    with pytest.raises(symrow.ParseError, match=r"power of a matrix, and K is not a number"):
        symrow.explain(r"(D A D)^K X", {"D": (3, 3), "A": (3, 3), "X": (3, 2)})


def test_bars_between_blocks_are_a_concatenation_not_a_norm():
    """DGL's [W h_i \\| W h_j] (column vectors): was refused as 'a norm'."""
    shapes = {"a": (4, 1), "W": (2, 3), "h_i": (3, 1), "h_j": (3, 1)}
    v = _values(shapes)
    for bars in (r"\|", r"\Vert"):
        d = symrow.explain(r"\vec{a}^T [W h_{i} " + bars + r" W h_{j}]", shapes)
        np.testing.assert_allclose(_numbers(d, v), v["a"].T @ np.vstack(
            [v["W"] @ v["h_i"], v["W"] @ v["h_j"]]), rtol=1e-10)
    with pytest.raises(symrow.NotSupportedError, match="norm"):
        symrow.explain(r"\|X\|")


def test_a_left_side_that_is_no_name_lets_the_real_obstacle_speak():
    """\\log p(y|X) = (X^T X)^{-1} X^T y was refused at its left side, before the inverse."""
    with pytest.raises(symrow.NotSupportedError, match=r"the inverse of X\^TX"):
        symrow.explain(r"\log p(y|X) = (X^T X)^{-1} X^T y")
    with pytest.raises(symrow.ParseError, match="left side"):
        symrow.explain(r"\log p(y|X) = X^T y")


def test_an_annotation_of_the_set_and_a_map_are_not_the_formula():
    """M = L \\circ CB^\\top \\in \\mathbb{R}^{(T,T)} (the Mamba-2 post) was refused at \\in,
    and X \\mapsto Attention(XT_q, XT_k, XT_v) (Wikipedia) at \\mapsto."""
    shapes = {"L": (3, 3), "C": (3, 2), "B": (3, 2), "x": (3, 1)}
    v = _values(shapes)
    d = symrow.explain(r"M = L \circ C B^\top \in \mathbb{R}^{\mathtt{(T,T)}} \\ y = Mx", shapes)
    np.testing.assert_allclose(_numbers(d, v), (v["L"] * (v["C"] @ v["B"].T)) @ v["x"],
                               rtol=1e-9)
    shapes = {"X": (3, 2), "T_q": (2, 2), "T_v": (2, 2)}
    v = _values(shapes)
    d = symrow.explain(r"X \mapsto \mathrm{softmax}(X T_q X^T) X T_v", shapes)
    s = v["X"] @ v["T_q"] @ v["X"].T
    e = np.exp(s - s.max(axis=1, keepdims=True))
    np.testing.assert_allclose(_numbers(d, v), e / e.sum(axis=1, keepdims=True) @ v["X"]
                               @ v["T_v"], rtol=1e-9)


def test_an_accented_word_with_its_subscript_is_a_left_side():
    """\\bar{\\text{head}_{i}} = ... (Linformer, paperswithcode) was refused: 'the left side
    of a definition must be one name'."""
    shapes = {"Q": (4, 3), "W_i^Q": (3, 2), "E_i": (2, 4), "K": (4, 3), "W_i^K": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\bar{\text{head}_{i}} = Q W^{Q}_{i} \left(E_{i} K W_{i}^{K}\right)^{T}",
                       shapes)
    np.testing.assert_allclose(_numbers(d, v), v["Q"] @ v["W_i^Q"] @ (v["E_i"] @ v["K"]
                                                                       @ v["W_i^K"]).T, rtol=1e-9)


def test_one_over_one_plus_e_to_the_minus_z_is_the_logistic_function():
    """h_\\theta(x) = g(\\theta^T x) = \\frac{1}{1 + e^{-\\theta^T x}} (CS229): refused, 'an
    exponent must be a number', and the chain then read from g(...), which it never defines."""
    shapes = {r"\theta": (3, 1), "x": (3, 1)}
    v = _values(shapes)
    want = 1 / (1 + np.exp(-(v[r"\theta"].T @ v["x"])))
    for tex in (r"h_\theta(x) = g(\theta^T x) = \frac{1}{1 + e^{-\theta^T x}}",
                r"\frac{1}{1+e^{-\theta^T x}}"):
        d = symrow.explain(tex, shapes)
        np.testing.assert_allclose(_numbers(d, v), want, rtol=1e-9)
    shapes = {"X": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\frac{1}{1 + e^{-XW}}", shapes)
    np.testing.assert_allclose(_numbers(d, v), 1 / (1 + np.exp(-(v["X"] @ v["W"]))), rtol=1e-9)


def test_a_transposed_left_side_defines_the_transpose_of_its_name():
    """Hopfield eq. (27), (Q^{new})^T = K^T softmax(K Q^T / √d_k): the left side was refused
    ('must be one name'); it defines Q^{new} as the transpose of the right side, and the
    formula's value is its left side as written, the right side."""
    shapes = {"K": (4, 2), "Q": (3, 2)}
    v = _values(shapes)
    want = v["K"].T @ _softmax_cols(v["K"] @ v["Q"].T)
    for tex in (r"\big( \boldsymbol{Q}^{\text{new}} \big)^T = \boldsymbol{K}^T "
                r"\text{softmax}\left( \boldsymbol{K} \boldsymbol{Q}^T \right) \ .",
                r"\left(Q^{new}\right)^\top = K^\top \mathrm{softmax}(K Q^\top)"):
        d = symrow.explain(tex, shapes)
        np.testing.assert_allclose(_numbers(d, v), want, rtol=1e-10)
        assert "Q^{new}" in [n.name for n in d.plan.nodes]
    # used on a later line, the name has the transposed value
    shapes = {"A": (2, 3), "B": (3, 4), "X": (5, 4)}
    v = _values(shapes)
    d = symrow.explain(r"(W)^T = AB \\ Y = XW", shapes)
    np.testing.assert_allclose(_numbers(d, v), v["X"] @ (v["A"] @ v["B"]).T, rtol=1e-10)


def test_a_function_defined_under_a_greek_name_with_sized_brackets():
    """Linear attention writes \\phi\\left(x\\right) = \\text{elu}(x) + 1 and then
    \\phi\\left(Q\\right): the definition's left side was refused ('must be one name'), and
    elu was 'not a function symrow knows'."""
    shapes = {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\phi\left(x\right) = \text{elu}(x) \\ \left(\phi\left(Q\right) "
                       r"\phi\left(K\right)^T\right) V", shapes)

    def elu(x):
        return np.where(x > 0, x, np.exp(x) - 1)
    np.testing.assert_allclose(_numbers(d, v), elu(v["Q"]) @ elu(v["K"]).T @ v["V"],
                               rtol=1e-10)
