"""What a reader sees in the words around the displays (issue 20, item 6):
each test here failed on the output it guards before its fix.

* no sentence refers to an article the reader has never seen;
* the text's claim on the softmax weights (positive, or non-negative under a
  mask) agrees with the relation displayed beside it.
"""

from __future__ import annotations

import re

import pytest

import symrow
from symrow.narrate import LANGUAGES

LANGS = ("en", "ja")


def _templates():
    for code, language in LANGUAGES.items():
        for key, words in language.templates.items():
            yield code, key, words


def test_no_template_refers_to_an_unseen_article():
    """A standalone page has no "reference article" to point to."""
    bad = [(code, key) for code, key, words in _templates()
           if re.search(r"\barticle\b", words, re.I) or re.search(r"記事|参考文献", words)]
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_transposed_left_factor_names_no_article(lang):
    out = symrow.explain("A^T B").to_text(lang=lang)
    assert "article" not in out and "記事" not in out
    assert ("the columns of" in out) if lang == "en" else ("の列である" in out)


@pytest.mark.parametrize("causal, rel, words", [
    (False, ">", {"en": "positive", "ja": "正"}),
    (True, r"\geq", {"en": "non-negative", "ja": "0 以上"}),
])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["attention", "explain"])
def test_softmax_weights_claim_matches_display(kind, lang, causal, rel, words):
    """"Every p_ij is positive" stands beside p_ij > 0; with a causal mask, some
    weights are 0, and the text and the display both say non-negative."""
    if kind == "attention":
        d = symrow.attention(2, 3, 2, causal=causal)
    else:
        d = symrow.explain(r"\operatorname{softmax}(Q K^T + M) V" if causal
                           else r"\operatorname{softmax}(Q K^T) V",
                           {"Q": (2, 2), "K": (2, 2), "V": (2, 2)}, causal=causal)
    tex = d.to_latex(lang=lang)
    para = next(p for p in tex.split("\n\n") if "p_{ij}" in p and
                re.search("positive|negative|正|0 以上", p))
    assert words[lang] in para.split("\\begin")[0]
    assert re.search(r"p_\{ij\} %s 0" % re.escape(rel), para), para
    if not causal:
        assert "non-negative" not in para and "0 以上" not in para
