"""GELU with its value (symrow/derive/readings/gelu.py): the exact erf form.

The GELU paper (Hendrycks and Gimpel, "Gaussian Error Linear Units", 2016)
defines GELU(x) = x Φ(x); TensorFlow's documentation of
``tf.keras.activations.gelu(x, approximate=False)`` writes it
``0.5 * x * (1 + erf(x / sqrt(2)))`` and gives gelu(-1), gelu(0), gelu(1) as
-0.15865525, 0, 0.84134475.  BERT's feed-forward layer is GELU(XW_1 + b_1)W_2 + b_2.
"""

from __future__ import annotations

import numpy as np
import sympy

import symrow


def test_its_value_is_the_exact_form():
    d = symrow.explain(r"\mathrm{GELU}(X)", {"X": (1, 3)}, values={"X": [[-1, 0, 1]]})
    got = [float(v) for v in d.result]
    np.testing.assert_allclose(got, [-0.15865525, 0, 0.84134475], atol=5e-9)
    assert d.result[2] == sympy.erf(sympy.sqrt(2) / 2) / 2 + sympy.S.Half


def test_the_derivation_says_which_form():
    d = symrow.explain(r"\mathrm{GELU}(XW_1 + b_1)W_2 + b_2",
                       {"X": (2, 3), "W_1": (3, 4), "W_2": (4, 3)})
    en, ja = (" ".join(d.to_text(lang).split()) for lang in ("en", "ja"))
    assert "exact form" in en and "not the tanh approximation" in en
    tex = d.to_latex("en")
    assert r"\operatorname{GELU}(x) &= \frac{1}{2} x \left(1 + \operatorname{erf}" \
           r"\left(\frac{x}{\sqrt{2}}\right)\right)" in tex
    assert "厳密な形" in ja


def test_its_backward_pass_has_its_derivative():
    d = symrow.backward(r"\mathrm{GELU}(X)", {"X": (1, 1)})
    x, g = d.operands["X"].matrix[0, 0], d.upstream[0, 0]
    want = g * sympy.diff(x * (1 + sympy.erf(x / sympy.sqrt(2))) / 2, x)
    assert sympy.simplify(d.gradients["X"][0, 0] - want) == 0
