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


# -- Japanese: a numeral takes its counter without a space; one heading pattern --------------

#: counters the Japanese templates put after a number
_COUNTERS = "個|つ|段階|次元|行|列|回|番目?|成分|項|節|種類"


def _japanese_outputs():
    V = symrow.vecseq
    for d in (symrow.attention(3, 3, 2), symrow.attention(2, 3, 2, causal=True),
              symrow.combine(V("A", 2, 3), V("B", 3, 2)), symrow.match(V("A", 2, 3), V("B", 4, 3)),
              symrow.explain("A^T B", {"A": (3, 2), "B": (3, 2)})):
        yield "text", d.to_text("ja")
        yield "markdown", d.to_markdown("ja")
        yield "latex", d.to_latex("ja")


def test_japanese_numerals_take_their_counters_without_a_space():
    for kind, out in _japanese_outputs():
        words = out.replace("\u2060", "")
        assert not re.search(r"[0-9]\$?(~|\u00a0| )(%s)" % _COUNTERS, words), (kind, re.search(
            r".{20}[0-9]\$?(~|\u00a0| )(%s).{5}" % _COUNTERS, words))
        # nor a space between a wide character and a numeral with its counter
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff] \$?[0-9]+\$?(\\nobreak )?(%s)"
                             % _COUNTERS, words), kind
    # a numeral and its counter stay on one line: no break between them
    ja = symrow.attention(3, 3, 2)
    assert "$3$\\nobreak 個" in ja.to_latex("ja")
    assert "3\u2060個" in ja.to_markdown("ja")
    # the handout's "3つ分" (b_1 three times over) as its templates' "3つ"
    from symrow.narrate import glued
    assert glued([("text", "を "), ("math", 3), ("text", " つ分")], "ja") == [
        ("text", "を", None), ("math", 3, ""), ("text", "つ分", None)]
    # a letter is set apart, and kept to its counter, as before
    general = symrow.attention("m", "n", "d").to_latex("ja")
    assert "$n$~個" in general and "第~$i$~行" in general


@pytest.mark.parametrize("lang, pattern", [
    ("en", r"Stage [1-4], (match|scale|distribute|combine): \S.*"),
    ("ja", r"第[1-4]段階 \S.*：(照合|スケーリング|配分|結合)$"),
])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_stage_headings_follow_one_pattern(lang, pattern, causal):
    text = symrow.attention(2, 3, 2, causal=causal).to_text(lang)
    lines = text.split("\n")
    stages = [line for k, line in enumerate(lines)
              if k + 1 < len(lines) and set(lines[k + 1]) == {"="}
              and ("Stage" in line or "段階" in line)]
    assert len(stages) == 4, stages
    assert all(re.fullmatch(pattern, line) for line in stages), stages
    assert "√d" in stages[1] and "softmax(" in stages[2]


# -- a sum inside an exponential, and fractions in running text, at text size ------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("causal", [False, True])
def test_sums_inside_exp_are_written_on_the_line(lang, causal):
    """o_il's exp(Σ_t q_it k_jt / √d): as \\frac inside the fraction, the sum
    was set at script size, its terms and limits smaller still."""
    tex = symrow.attention("m", "n", "d", causal=causal).to_latex(lang)
    line = next(x for x in tex.splitlines() if x.startswith("o_{il} &=") and r"\exp" in x)
    assert r"\exp\left(\sum_{t=1}^{d} q_{it} k_{jt} / \sqrt{d}\right)" in line
    assert not re.search(r"\\exp\\left\(\\frac\{\\sum", tex)


def test_the_measure_agrees_with_the_printer_on_a_slashed_exponential():
    from symrow import nodes as N
    from symrow.render.latex import latex, printer
    from symrow.render.measure import KATEX
    import sympy
    t, d = sympy.symbols("t d")
    arg = N.Frac(N.SumOver(sympy.Symbol("q_t"), t, 1, d), N.Sqrt(d))
    assert latex(N.Exp(arg)) == r"\exp\left(\sum_{t=1}^{d} q_{t} / \sqrt{d}\right)"
    m = printer().measure_in(KATEX)
    on_line, stacked = m(N.Exp(arg), "T"), m(N.Frac(N.SumOver(sympy.Symbol("q_t"), t, 1, d),
                                                     N.Sqrt(d)), "T")
    assert on_line.h + on_line.d < 2.0 and on_line.w > stacked.w


@pytest.mark.parametrize("lang", LANGS)
def test_fractions_in_headings_and_sentences_are_slashed(lang):
    tex = symrow.attention(2, 3, 2).to_latex(lang)
    prose = [p for p in tex.split("\n\n") if "\\begin{align" not in p]
    assert not any("\\frac" in p for p in prose), [p for p in prose if "\\frac" in p]
    assert "$S / \\sqrt{d}$" in tex


# -- a function's parenthesis follows it without a gap ----------------------------------------

def test_element_wise_functions_take_plain_parentheses():
    """\\phi\\left(Q\\right) is set with a thin space before the parenthesis
    (an ordinary symbol before an inner atom): ϕ (Q)."""
    tex = symrow.explain(r"\phi(Q) \phi(K)^T V").to_latex()
    assert r"\phi(Q)" in tex and r"\phi(\boldsymbol{q}_{i})" in tex
    assert not re.search(r"\\phi\\left\(", tex)
    # a tall argument keeps \left( ... \right)
    att = symrow.attention(2, 2, 2).to_latex()
    assert r"\operatorname{softmax}\left(\frac{Q K^{T}}{\sqrt{d}}\right)" in att


# -- Markdown: a list of formulas is one formula -----------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_markdown_keeps_a_list_of_formulas_together(lang):
    """$Q$, $K$, $V$ come apart at a comma on a phone (a browser may break after
    any inline formula); $Q, K, V$ does not."""
    for d in (symrow.attention(2, 3, 2), symrow.attention("m", "n", "d"),
              symrow.attention(2, 2, 2, heads=2, projections=True)):
        md = d.to_markdown(lang)
        prose = re.sub(r"^\$\$\n.*?\n\$\$$", "", md, flags=re.S | re.M)
        assert not re.search(r"\$[^$\n]+\$, \$[^$\n]+\$", prose), re.search(
            r".{30}\$[^$\n]+\$, \$[^$\n]+\$.{10}", prose)
    md = symrow.attention(2, 3, 2).to_markdown(lang)
    assert ("$Q, K$ and $V$" if lang == "en" else "$Q, K, V$") in md
    # LaTeX keeps its formulas apart (a line may break after a comma in print)
    assert "$Q$, $K$" in symrow.attention(2, 3, 2).to_latex(lang)


# -- indices in running text are math ----------------------------------------------------------

#: letters that name an index or a quantity when they stand alone in a sentence
_BARE = re.compile(r"(?<![\w'’\\])(?:[ijklmntcsL]|[dJ]_\w+|\([ij], [ij]\))(?![\w(])")


def test_no_template_writes_an_index_as_a_plain_word():
    """"node i" set an upright i; a template writes {=i}, which is math."""
    bad = []
    for code, key, words in _templates():
        if key.startswith(("title.", "handout.title")):
            continue
        plain = re.sub(r"\{[^{}]*\}", "", words)
        found = _BARE.findall(plain)
        if found:
            bad.append((code, key, found))
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_indices_in_sentences_are_set_as_math(lang):
    from symrow.narrate import segments
    from symrow.steps import Step
    pieces = segments(Step("rowdot", {"g_i": "g_i", "x_i": "x_i"}), lang)
    assert pieces[0][0] == "math" if lang == "ja" else pieces[1][0] == "math"
    tex = symrow.backward("X W", general=True).to_latex(lang) if hasattr(symrow, "backward") \
        else ""
    assert "Let L" not in tex and "数 L を" not in tex
    assert ("Let $L$ be" in tex) if lang == "en" else ("数 $L$ を" in tex)
