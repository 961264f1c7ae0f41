"""The handout's printed gradients, held against finite differences computed here with
numpy (not with symrow); and the handout's prose: no template sentence said more than
twice in one section, no "None" and no LaTeX outside the mathematics."""

from __future__ import annotations

import functools
import re
from collections import Counter

import numpy as np
import pytest

from symrow.handout import handout
from symrow.narrate import template

LANGS = ("en", "ja")

# the numbers of the worked examples, written out again (the handout's EXAMPLE)
X = np.array([[1, 2], [3, 1], [0, 2]], float)        # section 1's points; Q in 5.2
W = np.array([[1, 0, 1], [0, 1, 1]], float)          # section 3's B; V in 5.2
KEYS = np.array([[1, 1], [2, -1]], float)            # section 4's B; K in 5.2
Y_BAR = np.array([[1, -1, 0], [0, 1, 2], [1, 0, -1]], float)   # 7.2's upstream
# 7.4: L = o_11 + o_22 + o_33


@functools.lru_cache(maxsize=None)
def markdown(lang: str) -> str:
    return handout().to_markdown(lang)


def printed(md: str, lhs: str) -> np.ndarray:
    """The matrix a display of the handout gives for ``lhs``: the last bracketed matrix of
    the chain that starts with it (up to the next display of the group)."""
    for block in md.split("$$")[1::2]:
        for line_start in re.finditer(r"(?:^|\n|\\qquad )" + re.escape(lhs) +
                                      r" &?(?:=|\\approx)", block):
            chain = block[line_start.end():]
            chain = re.split(r",\\qquad ", chain)[0]
            found = re.findall(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", chain, re.S)
            if found:
                rows = [r.split("&") for r in found[-1].strip().split("\\\\")]
                try:
                    return np.array([[float(x) for x in r] for r in rows])
                except ValueError:   # the general form: symbols, not numbers
                    continue
    raise AssertionError(f"no display of {lhs} with numbers")


def central(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """∂f/∂x by central differences, entry by entry."""
    out = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += h
        down[idx] -= h
        out[idx] = (f(up) - f(down)) / (2 * h)
    return out


def softmax_rows(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("lang", LANGS)
def test_the_linear_layer_s_printed_gradients_are_the_finite_differences(lang):
    def loss(x, w):
        return float(np.sum(Y_BAR * (x @ w)))
    md = markdown(lang)
    np.testing.assert_allclose(printed(md, r"\bar{X}"), central(lambda x: loss(x, W), X),
                               atol=1e-6)
    np.testing.assert_allclose(printed(md, r"\bar{W}"), central(lambda w: loss(X, w), W),
                               atol=1e-6)


@pytest.mark.parametrize("lang", LANGS)
def test_attention_s_printed_gradients_are_the_finite_differences(lang):
    """Every gradient 7.4 prints (to three decimals), including those of P, S/√d and S."""
    d = X.shape[1]

    def loss_from_p(p, v=W):
        return float(np.trace(p @ v))          # L = o_11 + o_22 + o_33

    def loss(q, k, v):
        return loss_from_p(softmax_rows(q @ k.T / np.sqrt(d)), v)

    S = X @ KEYS.T
    P = softmax_rows(S / np.sqrt(d))
    expected = {
        r"\bar{V}": central(lambda v: loss(X, KEYS, v), W),
        r"\bar{P}": central(loss_from_p, P),
        "G": central(lambda z: loss_from_p(softmax_rows(z)), S / np.sqrt(d)),
        r"\bar{S}": central(lambda s: loss_from_p(softmax_rows(s / np.sqrt(d))), S),
        r"\bar{Q}": central(lambda q: loss(q, KEYS, W), X),
        r"\bar{K}": central(lambda k: loss(X, k, W), KEYS),
    }
    md = markdown(lang)
    for name, value in expected.items():
        np.testing.assert_allclose(printed(md, name), value, atol=5e-4 + 1e-6, err_msg=name)


# -- the prose -------------------------------------------------------------------------

def _sections() -> list[list]:
    """The handout's steps, one list per numbered section (the introduction first)."""
    out: list[list] = [[]]
    for s in handout().steps:
        if s.kind == "heading" and s.params.get("level") == 1:
            out.append([])
        out[-1].append(s)
    return out


def _sentences(words: str, lang: str) -> list[str]:
    """A template's sentences, each field written ``{}`` (so that the same sentence about
    other names counts as the same)."""
    words = re.sub(r"\{[^}]*\}", "{}", words)
    parts = re.split(r"(?<=。)" if lang == "ja" else r"(?<=[.:])\s+", words)
    return [p.strip() for p in parts if len(p.strip()) > 12]


@pytest.mark.parametrize("lang", LANGS)
def test_no_template_sentence_is_said_more_than_twice_in_a_section(lang):
    repeated = []
    for steps in _sections():
        counts = Counter(sentence for s in steps if s.kind != "heading"
                         for sentence in _sentences(template(s, lang), lang))
        repeated += [(steps[0].params.get("number"), n, sentence)
                     for sentence, n in counts.items() if n > 2]
    assert not repeated, repeated


def _prose(md: str) -> str:
    """The markdown without its mathematics (display and inline)."""
    md = re.sub(r"\$\$.*?\$\$", " ", md, flags=re.S)
    return re.sub(r"\$[^$]*\$", " ", md)


@pytest.mark.parametrize("lang", LANGS)
def test_no_none_and_no_latex_in_the_words(lang):
    h = handout()
    for name, text in (("text", h.to_text(lang)), ("markdown prose", _prose(markdown(lang)))):
        assert "None" not in text, name
        leaked = re.findall(r"\\[A-Za-z]+|\^\{|_\{", text)
        assert not leaked, (name, leaked[:5])
