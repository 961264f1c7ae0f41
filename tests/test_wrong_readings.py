"""Confident wrong readings of issue 24, each held by a test that failed before its fix."""

from __future__ import annotations

import symrow


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
