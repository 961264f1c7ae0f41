"""The backward pass: every gradient against central finite differences in numpy.

For each formula, ``L = Σ (C ∘ Ḡ)`` with a random upstream gradient Ḡ; the
gradient symrow derives for each operand is evaluated at random values and
compared with ``(L(θ + h) − L(θ − h)) / 2h`` computed in numpy from an
independent forward function.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
import pytest
import sympy

import symrow
from symrow.derive.readings.layers import EPSILON

import harness
from test_papers import attention, degree_norm, layernorm, relu, sigma, softmax, EPS

H = 1e-6


@dataclasses.dataclass
class Case:
    id: str
    tex: str
    shapes: dict
    forward: Callable
    products: list | None = None
    options: dict = dataclasses.field(default_factory=dict)
    positive: tuple = ()


CASES = [
    Case("linear", "XW", {"X": (3, 2), "W": (2, 4)}, lambda a: a["X"] @ a["W"],
         [("tcombine", "X", r"\bar{C}"), ("match", r"\bar{C}", "W")]),
    Case("linear-bias", "Y = XW + b", {"X": (3, 2), "W": (2, 2)},
         lambda a: a["X"] @ a["W"] + a["b"]),
    Case("linear-chain", "XW_1W_2", {"X": (2, 3), "W_1": (3, 2), "W_2": (2, 2)},
         lambda a: a["X"] @ a["W_1"] @ a["W_2"]),
    Case("gram", "XX^T", {"X": (3, 2)}, lambda a: a["X"] @ a["X"].T),
    Case("tcombine", "A^T B", {"A": (3, 2), "B": (3, 2)}, lambda a: a["A"].T @ a["B"]),
    Case("transpose", "(XW)^T", {"X": (3, 2), "W": (2, 2)}, lambda a: (a["X"] @ a["W"]).T),
    Case("scaled", r"\frac{1}{n} X^\top X", {"X": (3, 2)}, lambda a: a["X"].T @ a["X"] / 3),
    Case("residual", r"X + \mathrm{softmax}(XX^\top)X", {"X": (3, 2)},
         lambda a: a["X"] + softmax(a["X"] @ a["X"].T) @ a["X"]),
    Case("gcn-hat", r"\hat{A} X W", {r"\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)},
         lambda a: a[r"\hat{A}"] @ a["X"] @ a["W"]),
    Case("gcn-kipf", r"\sigma(\tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2}XW)",
         {r"\tilde{A}": (3, 3), "X": (3, 2), "W": (2, 2)},
         lambda a: sigma(degree_norm(a[r"\tilde{A}"]) @ a["X"] @ a["W"]),
         positive=(r"\tilde{A}",)),
    Case("gcn-diagonal", "D^{-1} A X", {"D": (3, 3), "A": (3, 3), "X": (3, 2)},
         lambda a: np.diag(1 / np.diag(a["D"])) @ a["A"] @ a["X"], options={"diagonal": ["D"]},
         positive=("D",)),
    Case("column-scale", r"X \Lambda", {"X": (3, 2), r"\Lambda": (2, 2)},
         lambda a: a["X"] @ np.diag(np.diag(a[r"\Lambda"])), options={"diagonal": [r"\Lambda"]}),
    Case("mlp-relu", r"H = \mathrm{ReLU}(XW_1 + b_1); Y = HW_2 + b_2",
         {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)},
         lambda a: relu(a["X"] @ a["W_1"] + a["b_1"]) @ a["W_2"] + a["b_2"]),
    Case("mlp-sigma", r"\sigma(XW_1)W_2", {"X": (2, 3), "W_1": (3, 2), "W_2": (2, 2)},
         lambda a: sigma(a["X"] @ a["W_1"]) @ a["W_2"]),
    Case("mlp-tanh", r"\tanh(XW_1)W_2", {"X": (2, 3), "W_1": (3, 2), "W_2": (2, 2)},
         lambda a: np.tanh(a["X"] @ a["W_1"]) @ a["W_2"]),
    Case("exp", r"\exp(XW)", {"X": (2, 2), "W": (2, 2)}, lambda a: np.exp(a["X"] @ a["W"])),
    Case("attention", r"\operatorname{softmax}\left(\frac{QK^T}{\sqrt{d}}\right)V",
         {"Q": (2, 2), "K": (2, 2), "V": (2, 2)},
         lambda a: attention(a["Q"], a["K"], a["V"]),
         [("tcombine", "P", r"\bar{O}"), ("match", r"\bar{O}", "V"),
          ("tcombine", r"\bar{S}", "Q"), ("combine", r"\bar{S}", "K")]),
    Case("attention-cross", r"\operatorname{softmax}(QK^T/\sqrt{d})V",
         {"Q": (2, 2), "K": (3, 2), "V": (3, 2)},
         lambda a: attention(a["Q"], a["K"], a["V"])),
    Case("attention-dv", r"\operatorname{softmax}(QK^T/\sqrt{d})V",
         {"Q": (2, 3), "K": (2, 3), "V": (2, 1)},
         lambda a: attention(a["Q"], a["K"], a["V"])),
    Case("attention-causal", r"\operatorname{softmax}(QK^T/\sqrt{d} + M)V",
         {"Q": (3, 2), "K": (3, 2), "V": (3, 2)},
         lambda a: softmax(a["Q"] @ a["K"].T / np.sqrt(2) + np.triu(
             np.full((3, 3), -np.inf), 1)) @ a["V"], options={"causal": True}),
    Case("attention-projections", r"Q = XW_Q; K = XW_K; V = XW_V; O = "
         r"\operatorname{softmax}(QK^T/\sqrt{d})V",
         {"X": (2, 2), "W_Q": (2, 2), "W_K": (2, 2), "W_V": (2, 2)},
         lambda a: attention(a["X"] @ a["W_Q"], a["X"] @ a["W_K"], a["X"] @ a["W_V"])),
    # Q is not square: the exponential of a square matrix given by name is its matrix
    # exponential, which symrow refuses (test_expdiag.py)
    Case("linear-attention", r"\exp(Q)(\exp(K)^\top V)", {"Q": (3, 2), "K": (3, 2),
                                                          "V": (3, 2)},
         lambda a: np.exp(a["Q"]) @ (np.exp(a["K"]).T @ a["V"])),
    Case("layernorm", r"\mathrm{LayerNorm}(X)W", {"X": (2, 3), "W": (3, 2)},
         lambda a: layernorm(a["X"]) @ a["W"]),
    Case("layernorm-affine", r"\mathrm{LayerNorm}(X; \boldsymbol{\gamma}, \boldsymbol{\beta})",
         {"X": (2, 3)}, lambda a: layernorm(a["X"], a[r"\gamma"], a[r"\beta"])),
    Case("glu", r"(XW + b) \odot \sigma(XV + c)", {"X": (3, 2), "W": (2, 2), "V": (2, 2)},
         lambda a: (a["X"] @ a["W"] + a["b"]) * sigma(a["X"] @ a["V"] + a["c"])),
    Case("retnet", r"(QK^\intercal \odot D)V", {"Q": (3, 2), "K": (3, 2), "V": (3, 2),
                                                "D": (3, 3)},
         lambda a: (a["Q"] @ a["K"].T * a["D"]) @ a["V"]),
    Case("concat", r"\mathrm{Concat}(H_1, H_2) W^O", {"H_1": (2, 2), "H_2": (2, 1),
                                                        "W^O": (3, 2)},
         lambda a: np.hstack([a["H_1"], a["H_2"]]) @ a["W^O"]),
    Case("diag", r"\mathrm{diag}(\mathbf{s}) X", {r"\mathbf{s}": (1, 3), "X": (3, 2)},
         lambda a: np.diag(a["s"][0]) @ a["X"]),
    Case("rnn", r"\tanh(X_t W_{xh} + H_{t-1} W_{hh} + b_h)",
         {"X_t": (2, 3), "W_{xh}": (3, 2), "H_{t-1}": (2, 2), "W_{hh}": (2, 2)},
         lambda a: np.tanh(a["X_t"] @ a["W_{xh}"] + a["H_{t-1}"] @ a["W_{hh}"] + a["b_h"])),
    Case("softmax-regression", r"\mathrm{softmax}(XW + b)", {"X": (3, 2), "W": (2, 3)},
         lambda a: softmax(a["X"] @ a["W"] + a["b"])),
]


def _arrays(case: Case, d, rng) -> dict:
    out = {}
    for name, seq in d.operands.items():
        low = 0.3 if name in case.positive else -1.0
        value = rng.uniform(low, 1.0, size=seq.shape)
        if name in case.options.get("diagonal", ()):
            value = np.diag(np.diag(value)) + (0 if low > 0 else 2 * np.eye(seq.rows))
        out[name] = value
    return out


def _subs(d, arrays: dict, upstream: np.ndarray) -> dict:
    subs = {}
    for name, seq in d.operands.items():
        for i in range(seq.rows):
            for j in range(seq.cols):
                if seq.matrix[i, j].is_Symbol:   # a diagonal operand's zeros are numbers
                    subs[seq.matrix[i, j]] = sympy.Float(arrays[name][i, j], 30)
    G = d.upstream
    for i in range(G.rows):
        for j in range(G.cols):
            subs[G[i, j]] = sympy.Float(upstream[i, j], 30)
    for sym, value in d.forward.plan.ties.items():
        subs[sym] = value
    subs[EPSILON] = sympy.Float(EPS, 30)
    return subs


def _finite_differences(case: Case, arrays: dict, upstream: np.ndarray, name: str):
    grad = np.zeros_like(arrays[name])
    for idx in np.ndindex(grad.shape):
        if name in case.options.get("diagonal", ()) and idx[0] != idx[1]:
            continue
        plus = {k: v.copy() for k, v in arrays.items()}
        minus = {k: v.copy() for k, v in arrays.items()}
        plus[name][idx] += H
        minus[name][idx] -= H
        grad[idx] = ((case.forward(plus) * upstream).sum()
                     - (case.forward(minus) * upstream).sum()) / (2 * H)
    return grad


def test_at_least_25_cases():
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradients_agree_with_finite_differences(case):
    d = symrow.backward(case.tex, case.shapes, **case.options)
    rng = np.random.default_rng(11)
    arrays = _arrays(case, d, rng)
    upstream = rng.uniform(-1, 1, size=d.upstream.shape)
    subs = _subs(d, arrays, upstream)
    assert set(d.gradients) == {n for n in d.operands if n != "M"}
    for name, grad in d.gradients.items():
        assert grad.shape == d.operands[name].shape
        got = np.array(sympy.Matrix(grad).xreplace(subs).evalf(20).tolist(), dtype=float)
        want = _finite_differences(case, arrays, upstream, name)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
    if case.products is not None:
        assert d.products == case.products


def test_an_operand_used_twice_adds_its_uses():
    d = symrow.backward("XX^T", {"X": (2, 2)})
    uses = next(s for s in d.steps if s.kind == "backward_uses")
    assert uses.params["count"] == 2
    assert "is used 2 times" in " ".join(d.to_text().split())
    assert [r for r, _, _ in d.products] == ["combine", "tcombine"]


def test_linear_layer_reads_a_match_and_a_sum_of_outer_products():
    d = symrow.backward("XW", {"X": (3, 2), "W": (2, 4)})
    text = " ".join(d.to_text().split())
    assert "C̄ Wᵀ is a match" in text
    assert "outer product" in text and "𝐱₁ᵀ 𝐜̄₁ + 𝐱₂ᵀ 𝐜̄₂ + 𝐱₃ᵀ 𝐜̄₃" in text


def test_wrt_chooses_the_operands_and_refuses_the_others():
    d = symrow.backward("XW", {"X": (2, 2), "W": (2, 2)}, wrt=["W"])
    assert list(d.gradients) == ["W"]
    with pytest.raises(symrow.OptionError, match="not an operand"):
        symrow.backward("XW", {"X": (2, 2), "W": (2, 2)}, wrt="Y")
    with pytest.raises(symrow.OptionError, match="mask"):
        symrow.backward(r"\operatorname{softmax}(QK^T + M)V", wrt="M", causal=True)


def test_the_partial_notation():
    d = symrow.backward("XW", {"X": (2, 2), "W": (2, 2)}, notation="partial")
    tex = d.to_latex()
    assert r"\frac{\partial L}{\partial X}" in tex and r"\bar{X}" not in tex
    # and as text: every gradient, rule and entry as ∂L/∂…, with no LaTeX and no bar
    text = d.to_text()
    # the rule in the formula's own names, not on generic ones (∂L/∂A ⟵ ∂L/∂C Bᵀ)
    assert "∂L/∂X = ∂L/∂C Wᵀ,   ∂L/∂W = Xᵀ ∂L/∂C" in text and "∂L/∂w₁₂" in text
    assert "\\frac" not in text and "Ā" not in text and "\u0304" not in text
    with pytest.raises(symrow.OptionError, match="notation"):
        symrow.backward("XW", notation="nabla")


def test_undefined_functions_give_their_derivative():
    d = symrow.backward(r"\phi(XW)", {"X": (1, 1), "W": (1, 1)})
    assert d.gradients["X"][0, 0].has(sympy.Derivative)


def test_general_attention_backward_in_japanese():
    d = symrow.backward(r"\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d}}\right)V", general=True)
    ja = d.to_text("ja")
    for word in ("照合", "結合", "勾配"):
        assert word in ja
    assert [r for r, _, _ in d.products] == ["tcombine", "match", "tcombine", "combine"]


@pytest.mark.renderer
def test_backward_renders_in_katex_and_tex():
    d = symrow.backward(r"\mathrm{softmax}(QK^T/\sqrt{d})V", {"Q": (2, 2), "K": (2, 2),
                                                                 "V": (2, 2)})
    g = symrow.backward(r"\mathrm{softmax}(QK^T/\sqrt{d})V", general=True, notation="partial")
    harness.assert_renders([f for x in (d, g) for lang in ("en", "ja")
                            for f in harness.latex_math(x.to_latex(lang))])
    harness.compile_tex(g.to_document("ja"), "lualatex")


# -- golden files: one general and one concrete backward derivation in each language --------

GOLDEN = [
    ("attention_general", r"\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d}}\right)V", None, {}),
    ("linear_concrete", "XW", {"X": (3, 2), "W": (2, 4)}, {}),
    ("mlp_general_partial", r"H = \mathrm{ReLU}(XW_1 + b_1); Y = HW_2", None,
     {"notation": "partial"}),
]


@pytest.mark.parametrize("key,tex,shapes,options", GOLDEN, ids=[g[0] for g in GOLDEN])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_golden(key, tex, shapes, options, lang):
    d = symrow.backward(tex, shapes, general=shapes is None, **options)
    harness.golden(f"backward_{key}_{lang}.tex", d.to_latex(lang))


# -- the backward derivation in the formula's own names (issue 28) ---------------------------

ATTENTION = r"\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d}}\right)V"


def _repeated(steps, lang: str) -> dict:
    """The template sentences (whatever they are filled with) said more than twice."""
    from collections import Counter
    from symrow.narrate import template_key
    counts = Counter(template_key(s, lang) for s in steps if s.kind != "heading")
    return {words: n for words, n in counts.items() if n > 2}


def _words(d) -> str:
    """A derivation's text on one line, its accents decomposed (Ō is O and a macron)."""
    import unicodedata
    return unicodedata.normalize("NFD", " ".join(d.to_text().split()))


def _nfd(text: str) -> str:
    import unicodedata
    return unicodedata.normalize("NFD", text)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_sentence_of_a_backward_pass_is_said_more_than_twice(lang):
    for d in (symrow.backward(ATTENTION, general=True),
              symrow.backward(ATTENTION, {"Q": (2, 2), "K": (2, 2), "V": (2, 2)}),
              symrow.backward("XW", general=True)):
        assert _repeated(d.steps, lang) == {}
    from symrow.handout import handout
    steps = [s for s in handout().steps if s.part == "7" or (s.part or "").startswith(
        ("grad-", "forward", "loss", "gradients"))]
    sections, current = [], []
    for s in steps:      # 7.1 and 7.3: a backward pass each; 7.2 and 7.4: their numbers
        if s.kind == "heading" and s.params.get("level") == 2:
            sections.append(current)
            current = []
        current.append(s)
    sections.append(current)
    assert len(sections) == 5
    for section in sections:
        assert _repeated(section, lang) == {}


def test_the_rules_are_written_with_the_formulas_own_factors():
    text = _words(symrow.backward(ATTENTION, general=True))
    # each product's rule once, with its factors: no generic A, B, C, X or c
    assert _nfd("P̄ = Ō Vᵀ, V̄ = Pᵀ Ō") in text and _nfd("Q̄ = S̄ K, K̄ = S̄ᵀ Q") in text
    for generic in ("Ā", "B̄", "X̄", "C̄", "c C̄", "⟵"):
        assert _nfd(generic) not in text
    # the softmax step names S/√d and 1/√d, and G before it is used
    assert "every entry of S was multiplied by 1/√d" in text
    said = text.index("Write G for the gradient of S/√d")
    assert said < text.index("G = P ⊙") and said < text.index("𝐠ᵢ =")
    assert text.count("Write G for") == 1 and _nfd("S̄√d") not in text
    # rowsum's broadcasting is said in words
    assert _nfd("subtracting it from P̄ takes each row's number from every entry") in text
    # the old lead-in, once per gradient, is gone
    assert "is used here, so its gradient comes back" not in text


def test_a_value_used_twice_says_so_and_sums_its_shares():
    d = symrow.backward(r"\mathrm{softmax}(XX^T)X", {"X": (2, 2)})
    text = _words(d)
    assert "X is used 3 times" in text and "⟵" in text
    assert _nfd("So X̄, the sum of its shares, is:") in text
