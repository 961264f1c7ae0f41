"""The full handout: its structure, its numbers, its own words, and its real renderers."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import sympy

import harness
import symrow
from symrow.handout import EXAMPLE, handout
from symrow.narrate import handout_en, handout_ja
from symrow.render.text import display_width

SEED = Path(__file__).resolve().parents[2] / "shared" / "seed" / "000_9ba2d6d7a3a4e690.txt"


@functools.lru_cache(maxsize=None)
def the_handout():
    return handout()


def headings(level: int) -> list:
    return [s for s in the_handout().steps if s.kind == "heading" and s.params["level"] == level]


def test_sections_follow_the_article():
    topics = [(s.params["number"], s.params["topic"]) for s in headings(1)]
    assert topics == [("1", "h_vecseq"), ("2", "h_maps"), ("3", "h_combine"),
                      ("4", "h_match"), ("5", "h_attention"), ("6", "h_beyond"),
                      ("7", "h_backward"), ("8", "h_closing")]


def test_each_section_has_a_general_form_then_a_worked_example():
    subs = [(s.params["number"], s.params["topic"]) for s in headings(2)]
    expected = [(f"{k}.{j}", topic) for k in range(1, 6)
                for j, topic in ((1, "h_general"), (2, "h_example"))]
    # sections 6 and 7 give each formula its general form, then its numbers
    expected += [("6.1", "h_linear"), ("6.2", "h_example_linear"), ("6.3", "h_gcn"),
                 ("6.4", "h_example_gcn"), ("7.1", "h_backward_linear"),
                 ("7.2", "h_example_backward_linear"), ("7.3", "h_backward_attention"),
                 ("7.4", "h_example_backward_attention")]
    assert subs == expected
    # and each subsection has content: at least two narrated steps before the next heading
    steps = the_handout().steps
    starts = [k for k, s in enumerate(steps) if s.kind == "heading"]
    for here, nxt in zip(starts, starts[1:] + [len(steps)]):
        if steps[here].params["level"] == 2:
            assert nxt - here >= 3, steps[here].params["number"]


def test_narration_exists_in_both_languages_for_the_same_keys():
    assert set(handout_en.TEMPLATES) == set(handout_ja.TEMPLATES)
    for lang in ("en", "ja"):
        text = the_handout().to_text(lang)
        assert "{" not in text and "\\" not in text


def test_worked_examples_are_right():
    A = sympy.Matrix(EXAMPLE["A"])
    C_combine = A * sympy.Matrix(EXAMPLE["B_combine"])
    C_match = A * sympy.Matrix(EXAMPLE["B_match"]).T
    assert C_combine.tolist() == [[1, 2, 3], [3, 1, 4], [0, 2, 2]]
    assert C_match.tolist() == [[3, 0], [4, 5], [2, -2]]
    # the engine agrees
    V = symrow.vecseq
    assert symrow.combine(V("A", A), V("B", sympy.Matrix(EXAMPLE["B_combine"]))).result == C_combine
    assert symrow.match(V("A", A), V("B", sympy.Matrix(EXAMPLE["B_match"]))).result == C_match
    tex = the_handout().to_latex("en")
    assert "= \\begin{bmatrix}\n1 & 2 & 3 \\\\\n3 & 1 & 4 \\\\\n0 & 2 & 2\n\\end{bmatrix}" in tex
    assert "\\boldsymbol{c}_{2} &= 3 \\boldsymbol{b}_{1} + 1 \\boldsymbol{b}_{2}" in tex
    assert "1 \\cdot 2 + 2 \\cdot \\left(-1\\right)" in tex
    assert "= \\begin{bmatrix}\n3 & 0 \\\\\n4 & 5 \\\\\n2 & -2\n\\end{bmatrix}" in tex


def test_the_worked_examples_come_from_derivations_with_values():
    """Every number of section 5.2 is a quantity of a derivation whose operands have
    values: the exact softmax, evaluated, not floats computed a second time."""
    from symrow.handout import _examples
    att = _examples()["attention"]
    assert att.operands["Q"].values == sympy.Matrix(EXAMPLE["A"])
    P = att.quantities["P"]
    tex = the_handout().to_latex("en")
    assert f"P \\approx \\begin{{bmatrix}}\n{float(P[0, 0]):.3f} & {float(P[0, 1]):.3f}" in tex
    assert [sympy.nsimplify(sum(P.row(i))) for i in range(P.rows)] == [1, 1, 1]


def test_section_6_reads_a_linear_layer_and_a_graph_convolution():
    text = the_handout().to_text("en")
    section = text[text.index("6 Two more formulas"):text.index("7 Backpropagation")]
    assert "𝐲ᵢ = xᵢ₁ 𝐰₁" in section and "H = A\u0302 X" in section
    ja = the_handout().to_text("ja")
    assert "線形層" in ja and "グラフ畳み込み" in ja


def test_section_7_runs_the_linear_layer_and_attention_backwards():
    import unicodedata
    text = unicodedata.normalize("NFD", the_handout().to_text("en"))
    section = text[text.index("7 Backpropagation"):text.index("8 What carries over")]
    # X̄ = ȲWᵀ is a match, W̄ = XᵀȲ a combine over the points; attention's gradients too
    def bar(t):   # X̄ as the printer writes it: a letter and a combining macron
        return unicodedata.normalize("NFD", t.replace("~", "\u0304"))
    assert bar("X~ = Y~ Wᵀ") in section and bar("W~ = Xᵀ Y~") in section
    assert bar("V~ = Pᵀ O~") in section and bar("K~") in section and bar("Q~") in section
    assert "逆伝播" in the_handout().to_text("ja")


def test_the_attention_section_shows_match_distribute_combine():
    harness.require(any(s.kind != "heading" for s in _section(5)), "symrow.attention",
                    "the attention issue")
    assert "\\operatorname{softmax}" in the_handout().to_latex("en")


def _section(number: int) -> list:
    steps = the_handout().steps
    start = next(k for k, s in enumerate(steps)
                 if s.kind == "heading" and s.params["number"] == str(number))
    end = next((k for k, s in enumerate(steps)
                if k > start and s.kind == "heading" and s.params["level"] == 1), len(steps))
    return list(steps[start + 1:end])


def test_japanese_narration_is_in_our_own_words():
    # no run of 16 characters of the handout's Japanese sentences appears in the
    # reference article: the handout follows its path, not its sentences
    if not SEED.exists():
        pytest.skip(f"the reference article is not at {SEED}")
    article = SEED.read_text(encoding="utf-8")
    window = 16
    for key, template in handout_ja.TEMPLATES.items():
        words = re.sub(r"\{[^}]*\}", "\0", template)
        for k in range(len(words) - window + 1):
            assert words[k:k + window] not in article, (key, words[k:k + window])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_text_fits_a_terminal(lang):
    for line in the_handout().to_text(lang).split("\n"):
        if not line.startswith("    "):
            assert display_width(line) <= 78, line


@pytest.mark.renderer
@pytest.mark.parametrize("renderer", ["katex", "mathjax"])
def test_markdown_renders(renderer):
    for lang in ("en", "ja"):
        formulas = harness.markdown_math(the_handout().to_markdown(lang))
        assert len(formulas) > 100
        harness.assert_renders(formulas, getattr(harness, renderer))


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("lang,engine", [("en", "pdflatex"), ("ja", "lualatex")])
def test_handout_compiles_without_overfull_lines(lang, engine):
    source = the_handout().to_document(lang)
    assert the_handout().to_latex(lang) in source
    pdf, log = harness.compile_tex(source, engine)
    assert pdf.startswith(b"%PDF")
    assert harness.overfull_boxes(log) == []
    assert "Missing character" not in log
