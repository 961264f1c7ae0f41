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
