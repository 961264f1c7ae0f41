"""Confident wrong readings of issue 24, each held by a test that failed before its fix.

(The exponential of a diagonal matrix is in test_expdiag.py; RMSNorm's entries in
test_new_reading.py.)
"""

from __future__ import annotations

import harness
import symrow


def test_layernorm_of_a_matrix_is_not_layernorm_of_one_entry():
    """``LayerNorm(X) W`` weighs W's points by coordinate j of LayerNorm(x_i), a function
    of the whole row: the display came from the element-wise default, LayerNorm(x₁₁)."""
    run = harness.symrow_cli("explain", r"\mathrm{LayerNorm}(X) W", "--shape", "X=2x3",
                             "--shape", "W=3x2", "--format", "text")
    assert run.returncode == 0, run.stderr
    assert "LayerNorm(x₁₁)" not in run.stdout
    assert "LayerNorm(𝐱₁)₁ 𝐰₁ + LayerNorm(𝐱₁)₂ 𝐰₂ + LayerNorm(𝐱₁)₃ 𝐰₃" in run.stdout
    tex = symrow.explain(r"\mathrm{LayerNorm}(X) W", {"X": (2, 3), "W": (3, 2)}).to_latex()
    assert r"\operatorname{LayerNorm}(x_{11})" not in tex
    assert r"\operatorname{LayerNorm}(\boldsymbol{x}_{1})_{1} \boldsymbol{w}_{1}" in tex


def test_the_identity_is_no_operand_of_the_backward_pass():
    """The gradient of X in (A + I) X is (A + I)ᵀ C̄: it had entries i₁₁ and i₂₂, the
    identity's diagonal read as unknowns."""
    d = symrow.backward("(A + I) X", {"A": (2, 2), "X": (2, 1)})
    names = {str(s) for s in d.gradients["X"].free_symbols}
    assert not any(n.startswith("i_") for n in names), names
    c = d.upstream
    a = d.operands["A"].matrix
    assert d.gradients["X"][0, 0] == (a[0, 0] + 1) * c[0, 0] + a[1, 0] * c[1, 0]


def test_a_bias_added_to_the_scores_leaves_no_none_in_the_narration():
    """With B added to the scores, no query's matches are distributed any more: the
    sentences named a query that was not there, and printed it as Python's None,
    「None によく合うキー」 in the PDF too."""
    d = symrow.explain(r"\mathrm{softmax}(QK^T/\sqrt{d} + B)V",
                       {"Q": (2, 2), "K": (2, 2), "V": (2, 2), "B": (2, 2)})
    for lang in ("en", "ja"):
        for rendered in (d.to_text(lang), d.to_latex(lang), d.to_markdown(lang)):
            assert "None" not in rendered
    assert "largest scores" in " ".join(d.to_text("en").split())
    assert "スコアの大きいキー" in d.to_text("ja").replace("\n", "")
    # the plain attention still names the query whose matches are distributed
    plain = symrow.explain(r"\mathrm{softmax}(QK^T/\sqrt{d})V",
                           {"Q": (2, 2), "K": (2, 2), "V": (2, 2)})
    assert "keys that match 𝐪ᵢ best" in " ".join(plain.to_text().split())


# -- the column convention: points stacked as columns, read in the row view ----------------

import numpy as np
import pytest
import sympy


_numbers = harness.result_numbers


def _softmax_columns(x):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def test_the_hopfield_update_normalises_over_the_stored_patterns():
    """X softmax(β Xᵀ ξ), the stored patterns the columns of X: ξ is a vector (it stands to
    the right of a matrix), and the softmax runs over the N patterns.  It read ξ as a
    scalar and took the softmax row by row."""
    rng = np.random.default_rng(1)
    X, xi = rng.normal(size=(3, 4)), rng.normal(size=(3, 1))
    d = symrow.explain(r"X\,\mathrm{softmax}(\beta X^\top \xi)", {"X": (3, 4), r"\xi": (3, 1)})
    assert "xi" not in " ".join(d.warnings())      # no 'read as a scalar' note for ξ
    beta = sympy.Symbol("beta", positive=True)
    got = _numbers(d, {"X": X, r"\xi": xi}, {beta: 0.7})
    np.testing.assert_allclose(got, X @ _softmax_columns(0.7 * X.T @ xi), rtol=1e-10)
    assert got.shape == (3, 1)
    text = " ".join(d.to_text().split())
    assert "writes its points as columns" in text and "row view" in text


def test_a_softmax_on_the_right_normalises_the_columns():
    """V softmax(KᵀQ): each query (a column of Q) gets a distribution over the keys."""
    rng = np.random.default_rng(2)
    V, K, Q = rng.normal(size=(2, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 5))
    d = symrow.explain(r"V\,\mathrm{softmax}(K^\top Q)", {"V": (2, 4), "K": (3, 4), "Q": (3, 5)})
    np.testing.assert_allclose(_numbers(d, {"V": V, "K": K, "Q": Q}),
                               V @ _softmax_columns(K.T @ Q), rtol=1e-10)
    assert "softmax" in [n.reading for n in d.plan.nodes]


def test_lora_reads_x_as_a_column_vector_not_a_scalar():
    """h = W_0 x + BAx: x was a scalar and a size name (B ∈ ℝ^{m×x}), printed h = x W₀ + x B A."""
    d = symrow.explain(r"h = W_0 x + BAx")
    assert d.operands["x"].shape[0] == 1                      # one point, in the row view
    assert all("x" not in {str(s) for s in seq.shape} for seq in d.operands.values())
    text = d.to_text()
    assert "x B A" not in text and "h = x W₀ᵀ + x Aᵀ Bᵀ" in text
    rng = np.random.default_rng(3)
    vals = {"W_0": rng.normal(size=(2, 3)), "B": rng.normal(size=(2, 2)),
            "A": rng.normal(size=(2, 3)), "x": rng.normal(size=(3, 1))}
    c = symrow.explain(r"h = W_0 x + BAx", {k: v.shape for k, v in vals.items()})
    np.testing.assert_allclose(_numbers(c, vals),
                               vals["W_0"] @ vals["x"] + vals["B"] @ vals["A"] @ vals["x"],
                               rtol=1e-10)


def test_evidence_for_both_conventions_is_refused_with_what_to_give():
    with pytest.raises(symrow.OptionError, match="convention"):
        symrow.explain(r"\mathrm{softmax}(W x) V")
    d = symrow.explain(r"\mathrm{softmax}(W x) V", convention="row", shapes={
        "W": (2, 3), "x": (3, 2), "V": (2, 2)})
    assert d.result.shape == (2, 2)


def test_an_unknown_word_function_is_not_read_entry_by_entry():
    """X + MultiHead(LN(X)) read MultiHead as element-wise: "nothing is mixed between points"."""
    with pytest.raises(symrow.ParseError, match=r"MultiHead is not a function symrow knows.*"
                                                r"mixes the points.*define it"):
        symrow.explain(r"X + \mathrm{MultiHead}(\mathrm{LN}(X))")
    run = harness.symrow_cli("explain", r"X + \mathrm{MultiHead}(\mathrm{LN}(X))")
    assert run.returncode != 0 and run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    # defined in the formula, it is read by its definition
    d = symrow.explain(r"\mathrm{MultiHead}(X) = \mathrm{softmax}(XX^T)X; Y = X + "
                       r"\mathrm{MultiHead}(\mathrm{LN}(X))", {"X": (2, 2)})
    assert "softmax" in [n.reading for n in d.plan.nodes]


def test_the_transformers_scores_have_d_k_coordinates_not_d():
    """softmax(QKᵀ/√d_k)V declared Q and K with d coordinates, then said a score's variance
    is d_k: one size under two names."""
    d = symrow.explain(r"\mathrm{softmax}(QK^T/\sqrt{d_k})V")
    assert str(d.operands["Q"].shape[1]) == "d_k" and str(d.operands["K"].shape[1]) == "d_k"
    text = " ".join(d.to_text().split())
    assert "each in dₖ-dimensional space" in text and "its variance is dₖ" in text
    assert "𝐪ᵢ, m in all, each in d-dimensional space" not in text
    assert "𝐪ᵢ, m in all, each in dₖ-dimensional space" in text


def test_grouped_query_attention_is_not_plain_multi_head():
    """head_i = Attention(Q W_i^Q, K W_{g(i)}^K, V W_{g(i)}^V) became multi-head attention with
    a W_{g(1)}^K and a W_{g(2)}^K of their own, the sharing through g lost."""
    f = (r"\mathrm{MultiHead}(Q,K,V) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)"
         r" W^O; \mathrm{head}_i = \mathrm{Attention}(Q W_i^Q, K W_{g(i)}^K, V W_{g(i)}^V)")
    with pytest.raises(symrow.ParseError, match=r"goes through g\(i\).*share"):
        symrow.explain(f, heads=2)


def test_a_chain_of_equal_members_is_read_by_its_last_member_that_reads():
    """h = W_0x + ΔW x = W_0x + BAx: refused as 'a definition has one ='; \\max\\{0, …\\} too."""
    d = symrow.explain(r"h = W_0x + \Delta W x = W_0x + BAx", {"W_0": (2, 3), "x": (3, 1),
                       r"\Delta W": (2, 3), "B": (2, 1), "A": (1, 3)})
    assert sorted(d.operands) == ["A", "B", "W_0", "x"] and d.result.shape == (2, 1)
    r = symrow.explain(r"\max\{0, XW\}", {"X": (2, 3), "W": (3, 2)})
    assert [n.reading for n in r.plan.nodes][-1] == "apply"


def test_a_function_defined_but_never_applied_is_not_dropped_for_the_last_line():
    """Performer's appendix prints Attn(Q, K, V) = D^{-1}AV, then defines A and D after it:
    taking the last line, D, for the result (and ignoring Attn) would be a confident wrong
    reading.  The function is the result, its names read in the order they need; a line
    the function does not use makes the result a guess, and is refused with what to do."""
    tex = (r"\mathrm{Attn}(Q, K, V) = D^{-1}AV \\ A = \exp(QK^T/\sqrt{d}) \\ "
           r"D = \mathrm{diag}(A\mathbf{1}_L)")
    shapes = {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}
    rng = np.random.default_rng(9)
    v = {k: rng.uniform(-1, 1, s) for k, s in shapes.items()}
    s = np.exp(v["Q"] @ v["K"].T / np.sqrt(2))
    want = s / s.sum(axis=1, keepdims=True) @ v["V"]
    d = symrow.explain(tex, shapes)
    np.testing.assert_allclose(harness.result_numbers(d, v, {"d": 2}), want, rtol=1e-9)
    # in order, it reads the same
    ordered = (r"A = \exp(QK^T/\sqrt{d}) \\ D = \mathrm{diag}(A\mathbf{1}_L) \\ "
               r"\mathrm{Attn}(Q, K, V) = D^{-1}AV")
    np.testing.assert_allclose(harness.result_numbers(symrow.explain(ordered, shapes), v,
                                                      {"d": 2}), want, rtol=1e-9)
    with pytest.raises(symrow.SymrowError, match="defined but never used.*last line defines E"):
        symrow.explain(tex + r" \\ E = QV^T")
    # a cycle through the function is no order
    with pytest.raises(symrow.SymrowError, match="defined but never used"):
        symrow.explain(r"\mathrm{F}(X) = AX \\ A = \mathrm{F}(B)")


def test_the_members_of_a_chain_must_agree_and_a_name_in_another_member_takes_its_shape():
    """Z = Q^{new} W_V = softmax(QK^T/√d_k) K W_V = ...: the shape given for Q^{new}, a name
    only in another member, was refused ('the formula does not use it'); a chain whose
    members differ (AB^T = BA^T) was read from its last member with exit 0."""
    tex = (r"\boldsymbol{Z} = \boldsymbol{Q}^{\text{new}} \boldsymbol{W}_V = "
           r"\text{softmax}\left( \boldsymbol{Q} \boldsymbol{K}^T \right) \boldsymbol{V}")
    d = symrow.explain(tex, {"Q^new": (2, 2), "W_V": (2, 2), "Q": (2, 2), "K": (3, 2),
                             "V": (3, 2)})
    rng = np.random.default_rng(3)
    vals = {n: rng.uniform(-1, 1, s) for n, s in (("Q", (2, 2)), ("K", (3, 2)), ("V", (3, 2)))}
    s = vals["Q"] @ vals["K"].T
    e = np.exp(s - s.max(axis=1, keepdims=True))
    np.testing.assert_allclose(harness.result_numbers(d, vals),
                               e / e.sum(axis=1, keepdims=True) @ vals["V"], rtol=1e-9)
    with pytest.raises(symrow.ParseError, match=r"chain BA\^T = AB\^T.*not equal"):
        symrow.explain(r"Z = B A^T = A B^T", {"A": (2, 3), "B": (2, 3)})
    # members that agree read: the transpose of a transpose, a sum in either order
    assert symrow.explain(r"Z = A B^T = (B A^T)^T", {"A": (2, 3), "B": (2, 3)})
    assert symrow.explain(r"Y = \frac{\alpha}{r} x (BA)^T = \frac{\alpha}{r} x A^T B^T",
                          {"x": (2, 3), "A": (2, 3), "B": (4, 2)})


def test_a_letter_applied_to_a_bracket_that_nothing_defines_is_refused():
    """gMLP's block writes Z̃ = s(Z) for its spatial gating unit, defined elsewhere: s(Z) was
    read as the scalar s times Z, with exit 0."""
    tex = r"Z = \sigma(XU) \\ \tilde{Z} = s(Z) \\ Y = \tilde{Z}V"
    with pytest.raises(symrow.ParseError, match=r"s\(\.\.\.\) applies s, which this formula "
                                                r"does not define"):
        symrow.explain(tex)
    run = harness.symrow_cli("explain", tex)
    assert run.returncode != 0 and run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    # defined in the text, it is read by its definition
    shapes = {"X": (3, 2), "U": (2, 2), "W": (3, 3), "V": (2, 2)}
    d = symrow.explain(r"s(Z) = WZ \\ " + tex, shapes)
    rng = np.random.default_rng(5)
    v = {k: rng.uniform(-1, 1, s) for k, s in shapes.items()}
    z = 1 / (1 + np.exp(-v["X"] @ v["U"]))
    np.testing.assert_allclose(harness.result_numbers(d, v), v["W"] @ z @ v["V"], rtol=1e-9)
    # a space, a \cdot, or a shape for s keep the product of a number and a bracket
    for product in (r"s (X + Y)", r"s \cdot (X + Y)"):
        p = symrow.explain(product, {"X": (2, 2), "Y": (2, 2)})
        assert [n.reading for n in p.plan.nodes][-1] == "scale"
    assert symrow.explain(r"W(x + y)", {"W": (2, 3), "x": (3, 1), "y": (3, 1)})
