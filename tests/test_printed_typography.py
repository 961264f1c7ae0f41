"""What pages print around and inside a formula (issue 24), read as printed and held to numpy.

Sources: labml.ai's Transformer-XL docstring (labml_nn/transformers/xl/relative_mha.py:
``\\underset{\\mathbf{\\color{lightgreen}{A}}}{Q_i^\\top K_j}``), hcnoh.github.io's Luong
attention post (``\\mathbf{W_ah}_j``), PyG's GCN2Conv docstring (``\\mathbf{X^{(0)}}``),
hyunyoung2.github.io on Shaw et al. (``\\sqrt d_z``), blmoistawinde/ml_equations_latex
(Bahdanau's ``W[s_{i-1}; h_j]``), torchgnn's GraphSAGE page (``h_{\\mathcal{N}(v)}``).
The verbatim formulas are cases of tests/test_papers_fresh.py; these pin each construct.
"""

from __future__ import annotations

import numpy as np
import pytest

import harness
import symrow

RNG = np.random.default_rng(2412)


def _values(shapes: dict) -> dict:
    return {k: RNG.normal(size=v) for k, v in shapes.items()}


@pytest.mark.parametrize("tex", [
    r"\underset{\mathbf{\color{lightgreen}{A}}}{X W} + \underset{B}{\color{orange}{Y}}",
    r"\overset{\text{scores}}{X W} + \textcolor{red}{Y}",
    r"\underbrace{X W}_{\text{scores}} + \color{blue} Y",
])
def test_colours_and_labels_are_typography(tex):
    shapes = {"X": (2, 3), "W": (3, 2), "Y": (2, 2)}
    v = _values(shapes)
    d = symrow.explain(tex, shapes)
    np.testing.assert_allclose(harness.result_numbers(d, v), v["X"] @ v["W"] + v["Y"],
                               rtol=1e-10)


def test_one_bold_command_over_a_product():
    """\\mathbf{W_ah}_j is W_a h_j in bold: it was refused ('cannot read the name')."""
    shapes = {"s": (3, 1), "W_a": (3, 2), "h_j": (2, 1)}
    v = _values(shapes)
    d = symrow.explain(r"\mathbf{s}^T\mathbf{W_ah}_j", shapes)
    np.testing.assert_allclose(harness.result_numbers(d, v).reshape(-1),
                               (v["s"].T @ v["W_a"] @ v["h_j"]).reshape(-1), rtol=1e-10)


def test_a_superscript_inside_the_bold_command():
    shapes = {"X^(0)": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\mathbf{X^{(0)}} \mathbf{W}", shapes)
    assert "X^(0)" in d.operands
    np.testing.assert_allclose(harness.result_numbers(d, v), v["X^(0)"] @ v["W"], rtol=1e-10)


def test_the_root_of_a_subscripted_name_written_without_braces():
    """\\sqrt d_z: TeX sets z outside the root; the writer means √(d_z)."""
    shapes = {"X": (2, 3), "W": (3, 2)}
    v = _values(shapes)
    d = symrow.explain(r"\frac{XW}{\sqrt d_z}", shapes)
    np.testing.assert_allclose(harness.result_numbers(d, v, {"d_z": 4}), v["X"] @ v["W"] / 2,
                               rtol=1e-10)


def test_blocks_one_on_top_of_the_other_join_column_vectors():
    """Bahdanau's W[s; h]: the two columns stacked (5 x 1), in the column convention."""
    shapes = {"W": (2, 5), "s": (3, 1), "h": (2, 1)}
    v = _values(shapes)
    d = symrow.explain(r"W[s; h]", shapes)
    got = harness.result_numbers(d, {"W": v["W"], "s": v["s"].T, "h": v["h"].T})
    np.testing.assert_allclose(got.reshape(-1), (v["W"] @ np.vstack([v["s"], v["h"]])).reshape(-1),
                               rtol=1e-10)


def test_blocks_on_top_of_each_other_with_rows_are_refused_with_what_to_give():
    with pytest.raises(symrow.NotSupportedError) as err:
        symrow.explain(r"[X; Y] W", {"X": (2, 3), "Y": (2, 3), "W": (3, 2)})
    assert "stacks points" in str(err.value) and "convention" in str(err.value)
    assert "\n" not in str(err.value)
