"""Formulas as papers and textbooks print them: read, planned, and checked against numpy.

Each case is a formula in its own notation (Vaswani et al.'s multi-head
attention, Kipf and Welling's graph convolution, d2l.ai's MLP and RNN, GLU,
RetNet's parallel form, LayerNorm, ...), with small concrete shapes, the
readings symrow must find, and an independent numpy computation of the
result.  The whole table is also rendered, in English and in Japanese, by
KaTeX and by TeX (pdflatex, lualatex).
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

EPS = 1e-5


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def relu(x):
    return np.maximum(0, x)


def sigma(x):
    return 1 / (1 + np.exp(-x))


def layernorm(x, g=None, b=None):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    y = (x - mu) / np.sqrt(var + EPS)
    return y * (g if g is not None else 1) + (b if b is not None else 0)


def degree_norm(a):
    d = a.sum(axis=1)
    return np.diag(d ** -0.5) @ a @ np.diag(d ** -0.5)


def attention(q, k, v):
    return softmax(q @ k.T / np.sqrt(k.shape[1])) @ v


@dataclasses.dataclass
class Case:
    id: str
    tex: str
    shapes: dict
    ref: Callable
    readings: list
    options: dict = dataclasses.field(default_factory=dict)
    positive: tuple = ()


MULTIHEAD = (r"\mathrm{MultiHead}(Q, K, V) = \mathrm{Concat}(\mathrm{head}_1, \dots, "
             r"\mathrm{head}_h)W^O \\ \text{where } \mathrm{head}_i = \mathrm{Attention}"
             r"(QW_i^Q, KW_i^K, VW_i^V)")
ATTENTION = (r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}"
             r"\right)V")
PROJECTIONS = ["combine", "combine", "match", "scale", "softmax", "combine", "combine"]


def _multihead(a, q, k, v):
    heads = [attention(q @ a[f"W_{h}^Q"], k @ a[f"W_{h}^K"], v @ a[f"W_{h}^V"])
             for h in (1, 2)]
    return np.hstack(heads) @ a["W^O"]


CASES = [
    # -- the Transformer, as Vaswani et al. print it ------------------------------------
    Case("vaswani-attention", ATTENTION, {"Q": (2, 3), "K": (4, 3), "V": (4, 2)},
         lambda a: attention(a["Q"], a["K"], a["V"]),
         ["match", "scale", "softmax", "combine"]),
    Case("vaswani-multihead", MULTIHEAD,
         {"Q": (2, 4), "K": (3, 4), "V": (3, 4), "W_1^Q": (4, 2), "W_1^K": (4, 2),
          "W_1^V": (4, 2), "W^O": (4, 4)},
         lambda a: _multihead(a, a["Q"], a["K"], a["V"]),
         PROJECTIONS * 2 + ["concat", "combine"], {"heads": 2}),
    Case("vaswani-multihead-attention-defined", ATTENTION + r"\\" + MULTIHEAD,
         {"Q": (2, 4), "K": (3, 4), "V": (3, 4), "W_1^Q": (4, 2), "W_1^K": (4, 2),
          "W_1^V": (4, 2), "W_2^Q": (4, 2), "W^O": (4, 4)},
         lambda a: _multihead(a, a["Q"], a["K"], a["V"]),
         PROJECTIONS * 2 + ["concat", "combine"]),
    Case("vaswani-ffn", r"\mathrm{FFN}(x) = \max(0, xW_1 + b_1)W_2 + b_2",
         {"x": (3, 2), "W_1": (2, 4), "W_2": (4, 2)},
         lambda a: relu(a["x"] @ a["W_1"] + a["b_1"]) @ a["W_2"] + a["b_2"],
         ["combine", "bias", "apply", "combine", "bias"]),
    Case("vaswani-sublayer", MULTIHEAD + r"\\ Z = \mathrm{LayerNorm}(X + "
         r"\mathrm{MultiHead}(X, X, X))",
         {"X": (2, 4), "W_1^Q": (4, 2), "W_1^K": (4, 2), "W_1^V": (4, 2), "W^O": (4, 4)},
         lambda a: layernorm(a["X"] + _multihead(a, a["X"], a["X"], a["X"])),
         PROJECTIONS * 2 + ["concat", "combine", "sum", "layernorm"], {"heads": 2}),
    Case("transformer-ffn-block", r"\mathrm{FFN}(x) = \max(0, xW_1 + b_1)W_2 + b_2 \\ "
         r"Y = \mathrm{LayerNorm}(Z + \mathrm{FFN}(Z))",
         {"Z": (2, 3), "W_1": (3, 4), "W_2": (4, 3)},
         lambda a: layernorm(a["Z"] + relu(a["Z"] @ a["W_1"] + a["b_1"]) @ a["W_2"]
                             + a["b_2"]),
         ["combine", "bias", "apply", "combine", "bias", "sum", "layernorm"]),
    # -- graph convolution -----------------------------------------------------------------
    Case("kipf-gcn-layer", r"H^{(l+1)} = \sigma\left(\tilde{D}^{-\frac{1}{2}}\tilde{A}"
         r"\tilde{D}^{-\frac{1}{2}}H^{(l)}W^{(l)}\right)",
         {r"\tilde{A}": (3, 3), "H^{(l)}": (3, 2), "W^{(l)}": (2, 2)},
         lambda a: sigma(degree_norm(a[r"\tilde{A}"]) @ a["H^(l)"] @ a["W^(l)"]),
         ["degree", "power", "rowscale", "colscale", "combine", "combine", "apply"],
         positive=(r"\tilde{A}",)),
    Case("kipf-gcn-defined", r"\tilde{A} = A + I_N, \quad \tilde{D}_{ii} = \sum_j "
         r"\tilde{A}_{ij} \\ H^{(l+1)} = \mathrm{ReLU}(\tilde{D}^{-1/2}\tilde{A}"
         r"\tilde{D}^{-1/2}H^{(l)}W^{(l)})",
         {"A": (3, 3), "H^{(l)}": (3, 2), "W^{(l)}": (2, 2)},
         lambda a: relu(degree_norm(a["A"] + np.eye(3)) @ a["H^(l)"] @ a["W^(l)"]),
         ["sum", "degree", "power", "rowscale", "colscale", "combine", "combine", "apply"],
         positive=("A",)),
    Case("kipf-gcn-two-layer", r"\hat{A} = \tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2}; "
         r"Z = \mathrm{softmax}\left(\hat{A}\,\mathrm{ReLU}\left(\hat{A}XW^{(0)}\right)"
         r"W^{(1)}\right)",
         {r"\tilde{A}": (3, 3), "X": (3, 2), "W^{(0)}": (2, 2), "W^{(1)}": (2, 2)},
         lambda a: softmax(degree_norm(a[r"\tilde{A}"]) @ relu(
             degree_norm(a[r"\tilde{A}"]) @ a["X"] @ a["W^(0)"]) @ a["W^(1)"]),
         ["degree", "power", "rowscale", "colscale", "combine", "combine", "apply",
          "combine", "combine", "softmax"], positive=(r"\tilde{A}",)),
    Case("gcn-random-walk", r"D^{-1} A X W", {"D": (3, 3), "A": (3, 3), "X": (3, 2),
                                               "W": (2, 2)},
         lambda a: np.linalg.inv(a["D"]) @ a["A"] @ a["X"] @ a["W"],
         ["power", "rowscale", "combine", "combine"], {"diagonal": ["D"]}, positive=("D",)),
    Case("gcn-hat", r"\hat{A} X W", {r"\hat{A}": (3, 3), "X": (3, 2), "W": (2, 2)},
         lambda a: a[r"\hat{A}"] @ a["X"] @ a["W"], ["combine", "combine"]),
    Case("gcn-ell", r"H^{\ell+1} = \mathrm{ReLU}(\hat{A} H^{\ell} W^{\ell})",
         {r"\hat{A}": (3, 3), r"H^{\ell}": (3, 2), r"W^{\ell}": (2, 2)},
         lambda a: relu(a[r"\hat{A}"] @ a[r"H^{\ell}"] @ a[r"W^{\ell}"]),
         ["combine", "combine", "apply"]),
    Case("sgc", r"\hat{Y} = \mathrm{softmax}(\tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2} X "
         r"\Theta)", {r"\tilde{A}": (3, 3), "X": (3, 2), r"\Theta": (2, 2)},
         lambda a: softmax(degree_norm(a[r"\tilde{A}"]) @ a["X"] @ a[r"\Theta"]),
         ["degree", "power", "rowscale", "colscale", "combine", "combine", "softmax"],
         positive=(r"\tilde{A}",)),
    # -- MLPs and linear models --------------------------------------------------------------
    Case("d2l-mlp", r"\mathbf{H} = \sigma(\mathbf{X}\mathbf{W}^{(1)} + \mathbf{b}^{(1)}), "
         r"\quad \mathbf{O} = \mathbf{H}\mathbf{W}^{(2)} + \mathbf{b}^{(2)}",
         {"X": (3, 2), "W^(1)": (2, 4), "W^(2)": (4, 2)},
         lambda a: sigma(a["X"] @ a["W^(1)"] + a["b^(1)"]) @ a["W^(2)"] + a["b^(2)"],
         ["combine", "bias", "apply", "combine", "bias"]),
    Case("mlp-relu", r"H = \mathrm{ReLU}(XW_1 + b_1); Y = HW_2 + b_2",
         {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)},
         lambda a: relu(a["X"] @ a["W_1"] + a["b_1"]) @ a["W_2"] + a["b_2"],
         ["combine", "bias", "apply", "combine", "bias"]),
    Case("mlp-tanh", r"Y = \tanh(XW_1)W_2", {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)},
         lambda a: np.tanh(a["X"] @ a["W_1"]) @ a["W_2"], ["combine", "apply", "combine"]),
    Case("linear-bias", r"Y = XW + b", {"X": (3, 2), "W": (2, 2)},
         lambda a: a["X"] @ a["W"] + a["b"], ["combine", "bias"]),
    Case("layer-ng", r"A^{[l]} = \mathrm{ReLU}(A^{[l-1]} W^{[l]} + b^{[l]})",
         {"A^{[l-1]}": (3, 2), "W^{[l]}": (2, 2)},
         lambda a: relu(a["A^[l-1]"] @ a["W^[l]"] + a["b^[l]"]), ["combine", "bias", "apply"]),
    Case("softmax-regression", r"\hat{\mathbf{Y}} = \mathrm{softmax}(\mathbf{X}\mathbf{W} + "
         r"\mathbf{b})", {"X": (3, 2), "W": (2, 3)},
         lambda a: softmax(a["X"] @ a["W"] + a["b"]), ["combine", "bias", "softmax"]),
    Case("logistic", r"\hat{\mathbf{y}} = \sigma(X\mathbf{w})", {"X": (3, 2),
                                                                   r"\mathbf{w}": (2, 1)},
         lambda a: sigma(a["X"] @ a["w"]), ["combine", "apply"]),
    Case("normal-equations", r"X^\top X \boldsymbol{\beta}",
         {"X": (3, 2), r"\boldsymbol{\beta}": (2, 1)},
         lambda a: a["X"].T @ a["X"] @ a[r"\beta"], ["tcombine", "combine"]),
    Case("gram", r"G = XX^\top", {"X": (3, 2)}, lambda a: a["X"] @ a["X"].T, ["match"]),
    Case("kernel-gram", r"K = \mathbf{\Phi}\mathbf{\Phi}^{\mathsf{T}}", {r"\Phi": (3, 2)},
         lambda a: a[r"\Phi"] @ a[r"\Phi"].T, ["match"]),
    Case("covariance", r"\Sigma = \frac{1}{n} X^\top X", {"X": (3, 2)},
         lambda a: a["X"].T @ a["X"] / 3, ["tcombine", "scale"]),
    Case("lora", r"H = XW_0 + XBA", {"X": (3, 2), "W_0": (2, 2), "B": (2, 1), "A": (1, 2)},
         lambda a: a["X"] @ a["W_0"] + a["X"] @ a["B"] @ a["A"],
         ["combine", "combine", "combine", "sum"]),
    # -- recurrent and gated units -------------------------------------------------------------
    Case("d2l-rnn", r"\mathbf{H}_t = \tanh(\mathbf{X}_t \mathbf{W}_{xh} + \mathbf{H}_{t-1}"
         r"\mathbf{W}_{hh} + \mathbf{b}_h)",
         {"X_t": (2, 3), "W_{xh}": (3, 2), "H_{t-1}": (2, 2), "W_{hh}": (2, 2)},
         lambda a: np.tanh(a["X_t"] @ a["W_{xh}"] + a["H_{t-1}"] @ a["W_{hh}"] + a["b_h"]),
         ["combine", "combine", "bias", "apply"]),
    Case("d2l-gru-candidate", r"\mathbf{R}_t = \sigma(\mathbf{X}_t \mathbf{W}_{xr} + "
         r"\mathbf{H}_{t-1}\mathbf{W}_{hr} + \mathbf{b}_r), \\ \tilde{\mathbf{H}}_t = "
         r"\tanh(\mathbf{X}_t \mathbf{W}_{xh} + (\mathbf{R}_t \odot \mathbf{H}_{t-1})"
         r"\mathbf{W}_{hh} + \mathbf{b}_h)",
         {"X_t": (2, 3), "W_{xr}": (3, 2), "H_{t-1}": (2, 2), "W_{hr}": (2, 2),
          "W_{xh}": (3, 2), "W_{hh}": (2, 2)},
         lambda a: np.tanh(a["X_t"] @ a["W_{xh}"] + (sigma(
             a["X_t"] @ a["W_{xr}"] + a["H_{t-1}"] @ a["W_{hr}"] + a["b_r"]) * a["H_{t-1}"])
             @ a["W_{hh}"] + a["b_h"]),
         ["combine", "combine", "bias", "apply", "combine", "hadamard", "combine", "bias",
          "apply"]),
    Case("glu", r"h(X) = (XW + b) \odot \sigma(XV + c)", {"X": (3, 2), "W": (2, 2),
                                                          "V": (2, 2)},
         lambda a: (a["X"] @ a["W"] + a["b"]) * sigma(a["X"] @ a["V"] + a["c"]),
         ["combine", "bias", "combine", "bias", "apply", "hadamard"]),
    Case("geglu", r"\mathrm{FFN}_{\mathrm{GEGLU}} = (\mathrm{GELU}(XW) \odot XV)W_2",
         {"X": (2, 3), "W": (3, 2), "V": (3, 2), "W_2": (2, 3)}, None,
         ["combine", "apply", "combine", "hadamard", "combine"]),
    Case("lstm-gate", r"\sigma(XW_g) \odot \tanh(XW_h)", {"X": (2, 3), "W_g": (3, 2),
                                                          "W_h": (3, 2)},
         lambda a: sigma(a["X"] @ a["W_g"]) * np.tanh(a["X"] @ a["W_h"]),
         ["combine", "apply", "combine", "apply", "hadamard"]),
    Case("retnet-parallel", r"Q = XW_Q, \quad K = XW_K, \quad V = XW_V \\ "
         r"\mathrm{Retention}(X) = (QK^\intercal \odot D)V",
         {"X": (3, 2), "W_Q": (2, 2), "W_K": (2, 2), "W_V": (2, 2), "D": (3, 3)},
         lambda a: ((a["X"] @ a["W_Q"]) @ (a["X"] @ a["W_K"]).T * a["D"]) @ (a["X"] @ a["W_V"]),
         ["combine", "combine", "combine", "match", "hadamard", "combine"]),
    # -- LayerNorm -------------------------------------------------------------------------------
    Case("layernorm", r"Y = \mathrm{LayerNorm}(X)", {"X": (2, 3)},
         lambda a: layernorm(a["X"]), ["layernorm"]),
    Case("layernorm-affine", r"\mathrm{LayerNorm}(X; \boldsymbol{\gamma}, \boldsymbol{\beta})",
         {"X": (2, 3)}, lambda a: layernorm(a["X"], a[r"\gamma"], a[r"\beta"]),
         ["layernorm"]),
    Case("pre-ln", r"Y = X + \mathrm{softmax}\left(\frac{\mathrm{LN}(X)\mathrm{LN}(X)^\top}"
         r"{\sqrt{d}}\right)\mathrm{LN}(X)", {"X": (2, 3)},
         lambda a: a["X"] + attention(layernorm(a["X"]), layernorm(a["X"]), layernorm(a["X"])),
         ["layernorm", "match", "scale", "softmax", "combine", "sum"]),
    # -- attention in other spellings -----------------------------------------------------------
    Case("linear-attention", r"\phi(Q)\left(\phi(K)^\top V\right)",
         {"Q": (2, 2), "K": (3, 2), "V": (3, 2)}, None,
         ["apply", "apply", "tcombine", "combine"]),
    Case("self-attention-projections", r"\mathrm{softmax}\left(\frac{XW_Q(XW_K)^\top}"
         r"{\sqrt{d}}\right)XW_V", {"X": (2, 3), "W_Q": (3, 2), "W_K": (3, 2),
                                    "W_V": (3, 2)},
         lambda a: attention(a["X"] @ a["W_Q"], a["X"] @ a["W_K"], a["X"] @ a["W_V"]),
         ["combine", "combine", "match", "scale", "softmax", "combine", "combine"]),
    Case("cross-attention", r"\mathrm{softmax}\left(\frac{X W^Q (C W^K)^{\mathsf{T}}}"
         r"{\sqrt{d}}\right) C W^V", {"X": (2, 3), "C": (3, 3), "W^Q": (3, 2),
                                      "W^K": (3, 2), "W^V": (3, 2)},
         lambda a: attention(a["X"] @ a["W^Q"], a["C"] @ a["W^K"], a["C"] @ a["W^V"]),
         ["combine", "combine", "match", "scale", "softmax", "combine", "combine"]),
    Case("causal", r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V",
         {"Q": (2, 2), "K": (2, 2), "V": (2, 2)},
         lambda a: softmax(a["Q"] @ a["K"].T / np.sqrt(2) + np.array([[0, -np.inf],
                                                                      [0, 0]])) @ a["V"],
         ["match", "scale", "mask", "softmax", "combine"], {"causal": True}),
    Case("bold-attention", r"\mathrm{softmax}\left(\frac{\mathbf{Q}\mathbf{K}^\top}"
         r"{\sqrt{d}}\right)\mathbf{V}", {"Q": (2, 2), "K": (3, 2), "V": (3, 2)},
         lambda a: attention(a["Q"], a["K"], a["V"]), ["match", "scale", "softmax", "combine"]),
    Case("macros", r"\newcommand{\mQ}{\mathbf{Q}}\newcommand{\mK}{\mathbf{K}}"
         r"\newcommand{\T}{^{\top}} \operatorname{softmax}(\mQ\mK\T)\mathbf{V}",
         {"Q": (2, 2), "K": (3, 2), "V": (3, 2)},
         lambda a: softmax(a["Q"] @ a["K"].T) @ a["V"], ["match", "softmax", "combine"]),
    Case("plain-tex", r"{\rm softmax}\left({QK^T \over \sqrt{d}}\right)V",
         {"Q": (2, 2), "K": (3, 2), "V": (3, 2)},
         lambda a: attention(a["Q"], a["K"], a["V"]), ["match", "scale", "softmax", "combine"]),
    # -- blocks side by side, diagonal scalings --------------------------------------------------
    Case("block-matrix", r"\begin{bmatrix} A & B \end{bmatrix} W",
         {"A": (2, 2), "B": (2, 1), "W": (3, 2)},
         lambda a: np.hstack([a["A"], a["B"]]) @ a["W"], ["concat", "combine"]),
    Case("array-matrix", r"\left[\begin{array}{cc} A & B \end{array}\right] W",
         {"A": (2, 2), "B": (2, 1), "W": (3, 2)},
         lambda a: np.hstack([a["A"], a["B"]]) @ a["W"], ["concat", "combine"]),
    Case("concat", r"\mathrm{Concat}(H_1, H_2) W^O", {"H_1": (2, 2), "H_2": (2, 2),
                                                        "W^O": (4, 3)},
         lambda a: np.hstack([a["H_1"], a["H_2"]]) @ a["W^O"], ["concat", "combine"]),
    Case("diag-scale", r"\mathrm{diag}(\mathbf{s}) X", {r"\mathbf{s}": (1, 3), "X": (3, 2)},
         lambda a: np.diag(a["s"][0]) @ a["X"], ["diag", "rowscale"]),
    Case("column-scale", r"X \Lambda", {"X": (3, 2), r"\Lambda": (2, 2)},
         lambda a: a["X"] @ a[r"\Lambda"], ["colscale"], {"diagonal": [r"\Lambda"]}),
]


def _values(case: Case, d, rng) -> dict:
    """Random values for every operand (diagonal ones on the diagonal only)."""
    out = {}
    for name, seq in d.operands.items():
        rows, cols = seq.shape
        low = 0.2 if name in case.positive else -1.0
        value = rng.uniform(low, 1.0, size=(rows, cols))
        if name in case.options.get("diagonal", ()):
            value = np.diag(np.diag(value)) + (0 if low > 0 else 1.5 * np.eye(rows))
        out[name] = value
    return out


def _numeric(d, arrays: dict) -> np.ndarray:
    subs = {}
    for name, seq in d.operands.items():
        matrix = seq.matrix
        for i in range(seq.rows):
            for j in range(seq.cols):
                if matrix[i, j].is_Symbol:
                    subs[matrix[i, j]] = sympy.Float(arrays[name][i, j], 30)
    for sym, value in d.plan.ties.items():
        subs[sym] = value
    subs[EPSILON] = sympy.Float(EPS, 30)
    value = sympy.Matrix(d.result).xreplace(subs)
    return np.array(value.evalf(20).tolist(), dtype=float)


class _Derived(dict):
    """Each case's derivation, made when first asked for (a failure stays with its case)."""

    def __missing__(self, key):
        case = next(c for c in CASES if c.id == key)
        self[key] = symrow.explain(case.tex, case.shapes, **case.options)
        return self[key]

    def values(self):
        return [self[c.id] for c in CASES]


@pytest.fixture(scope="module")
def derived():
    return _Derived()


def test_the_table_has_forty_formulas_from_papers():
    assert len(CASES) >= 40
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_readings_as_papers_print_them(case, derived):
    d = derived[case.id]
    readings = [n.reading for n in d.plan.nodes if n.reading not in ("operand", "identity")]
    assert readings == case.readings


@pytest.mark.parametrize("case", [c for c in CASES if c.ref is not None],
                         ids=[c.id for c in CASES if c.ref is not None])
def test_results_agree_with_numpy(case, derived):
    d = derived[case.id]
    arrays = _values(case, d, np.random.default_rng(17))
    got = _numeric(d, arrays)
    want = case.ref(arrays)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_functions_without_numbers_agree_with_numpy(derived):
    """GELU and φ are left as functions: give them numbers, then compare."""
    from sympy import Function
    d = derived["linear-attention"]
    arrays = _values(CASES[[c.id for c in CASES].index("linear-attention")], d,
                     np.random.default_rng(3))
    phi = Function("phi")
    value = sympy.Matrix(d.result).replace(phi, lambda x: sympy.exp(x) + 1)
    subs = {seq.matrix[i, j]: arrays[name][i, j] for name, seq in d.operands.items()
            for i in range(seq.rows) for j in range(seq.cols)}
    got = np.array(value.xreplace(subs).evalf().tolist(), dtype=float)
    f = np.exp(arrays["Q"]) + 1, np.exp(arrays["K"]) + 1
    np.testing.assert_allclose(got, f[0] @ (f[1].T @ arrays["V"]), rtol=1e-9)


def test_multi_head_reads_head_one_and_says_the_others_are_alike(derived):
    d = derived["vaswani-multihead"]
    kinds = [s.kind for s in d.steps]
    assert "family" in kinds and "note_blocks" in kinds and "note_attention" in kinds
    assert d.result_name == r"\mathrm{MultiHead}"
    tex = d.to_latex()
    assert r"\mathrm{head}_{2}" in tex and "W_{1}^{Q}" in tex


@pytest.mark.renderer
def test_every_formula_renders_in_katex_in_both_languages(derived):
    formulas = []
    for d in derived.values():
        for lang in ("en", "ja"):
            formulas += harness.latex_math(d.to_latex(lang))
    harness.assert_renders(formulas)


def _covering(derived) -> list:
    """Cases that between them make every kind of step (each sentence of every reading)
    at least once, chosen greedily."""
    kinds = {c.id: {(s.kind, s.params.get("variant")) for s in derived[c.id].steps}
             for c in CASES}
    left, chosen = set().union(*kinds.values()), []
    while left:
        best = max(CASES, key=lambda c: len(kinds[c.id] & left))
        chosen.append(best)
        left -= kinds[best.id]
    return chosen


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("lang,engine", [("en", "pdflatex"), ("ja", "lualatex")])
def test_the_table_compiles_in_tex(derived, lang, engine):
    """English: the whole table in pdflatex.  Japanese: the math is the same, so lualatex
    (which takes a second a page) compiles the cases that make every kind of step."""
    from symrow.render.document import preamble
    cases = CASES if lang == "en" else _covering(derived)
    body = "".join("\\section*{%s}\n%s\n\\clearpage\n" % (case.id, derived[case.id].to_latex(
        lang)) for case in cases)
    source = preamble(lang) + "\\begin{document}\n" + body + "\\end{document}\n"
    _pdf, log = harness.compile_tex(source, engine)
    assert "Missing character" not in log


@pytest.mark.parametrize("key", ["kipf-gcn-layer", "vaswani-multihead", "d2l-gru-candidate"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_golden(key, lang, derived):
    harness.golden(f"papers_{key}_{lang}.tex", derived[key].to_latex(lang))
