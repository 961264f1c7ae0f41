"""Row-wise L2 normalisation, a reading of its own (symrow/derive/readings/normalize.py).

CLIP normalises its image and text embeddings before it matches them, so that the
match is a cosine similarity; its pseudocode (Radford et al., "Learning
Transferable Visual Models From Natural Language Supervision", 2021, Figure 3)
writes ``I_e = l2_normalize(np.dot(I_f, W_i), axis=1)`` and
``logits = np.dot(I_e, T_e.T)``.  Here it is, in matrices.
"""

from __future__ import annotations

import numpy as np

import symrow

CLIP = (r"I_e = \mathrm{normalize}(I_f W_i); T_e = \mathrm{normalize}(T_f W_t); "
        r"S = I_e T_e^T")
SHAPES = {"I_f": (2, 3), "W_i": (3, 2), "T_f": (3, 2), "W_t": (2, 2)}


def test_clip_matches_unit_points_so_its_scores_are_cosines():
    rng = np.random.default_rng(3)
    arrays = {k: rng.normal(size=v) for k, v in SHAPES.items()}
    d = symrow.explain(CLIP, SHAPES, values=arrays)
    got = np.array(d.quantities["S"].evalf().tolist(), dtype=float)
    image, text = arrays["I_f"] @ arrays["W_i"], arrays["T_f"] @ arrays["W_t"]
    cosines = np.array([[a @ b / np.linalg.norm(a) / np.linalg.norm(b) for b in text]
                        for a in image])
    np.testing.assert_allclose(got, cosines, rtol=1e-10)
    assert [r for r, _, _ in d.products] == ["combine", "combine", "match"]


def test_it_is_read_row_by_row_in_both_languages():
    d = symrow.explain(r"\mathrm{normalize}(X) W", {"X": (2, 3), "W": (3, 2)})
    text = d.to_text()
    assert "normalize(𝐱₁)₁ 𝐰₁" in text and "normalize(x₁₁)" not in text
    assert "unit sphere" in " ".join(text.split())
    assert "単位球面" in d.to_text("ja")
