"""Round trip: every document symrow writes checks against its own derivation.

For every derivation in :data:`OUTPUTS` (combine, match and attention with
each option, general and concrete sizes) and the handout, in English and
Japanese: the LaTeX fragment is checked in full and must hold (no step
wrong, none unreadable); the complete document and the Markdown must make
exactly the same claims as the fragment (so they hold too).  To cover a new
output, add its derivation to :data:`OUTPUTS`.

The narration of combine and match once showed ``C = AB,\\ C = AB^T`` as
a contrast, and AB^T is undefined for the B of a combine; it now shows the
two products side by side without claiming either equals C, and
:func:`test_the_contrast_line_holds` keeps it that way.
"""

from __future__ import annotations

import functools
import re

import pytest

import symrow
from symrow.reader.lexer import Source, build_tree, tokenize
from symrow.checker.structure import split

V = symrow.vecseq
LANGS = ("en", "ja")

#: every derivation symrow writes, by name; add new outputs here
OUTPUTS = {
    "combine-concrete": lambda: symrow.combine(V("A", 2, 3), V("B", 3, 2)),
    "combine-general": lambda: symrow.combine(V("A", "m", "ell"), V("B", "ell", "n")),
    "match-concrete": lambda: symrow.match(V("A", 2, 3), V("B", 4, 3)),
    "match-general": lambda: symrow.match(V("A", "m", "ell"), V("B", "n", "ell")),
    "attention-concrete": lambda: symrow.attention(2, 3, 2),
    "attention-general": lambda: symrow.attention("m", "n", "d"),
    "attention-scale-number": lambda: symrow.attention(2, 2, 2, scale="number"),
    "attention-d_v-concrete": lambda: symrow.attention(2, 2, 2, d_v=3),
    "attention-d_v-general": lambda: symrow.attention("m", "n", "d", d_v="d_v"),
    "attention-causal-concrete": lambda: symrow.attention(3, 3, 2, causal=True),
    "attention-causal-rectangular": lambda: symrow.attention(2, 3, 2, causal=True),
    "attention-causal-general": lambda: symrow.attention("m", "n", "d", causal=True),
    "attention-projections-concrete": lambda: symrow.attention(2, 2, 2, projections=True),
    "attention-projections-general": lambda: symrow.attention("m", "n", "d",
                                                              projections=True),
    "attention-cross-d_model-concrete": lambda: symrow.attention(
        2, 3, 2, projections=True, cross=True, d_model=3),
    "attention-heads-concrete": lambda: symrow.attention(2, 2, 2, heads=2),
    "attention-heads-general": lambda: symrow.attention("m", "n", "d", heads=2),
    "attention-heads-projections-cross-general": lambda: symrow.attention(
        "m", "n", "d", heads=2, projections=True, cross=True),
    # any formula, read by symrow.explain, and the presets made of it
    "explain-gcn-concrete": lambda: symrow.explain(
        r"\hat{A} X W", {r"\hat{A}": (2, 2), "X": (2, 2), "W": (2, 2)}),
    "explain-gcn-general": lambda: symrow.explain(r"\hat{A} X W"),
    "explain-scores-concrete": lambda: symrow.explain(
        "X W_Q (X W_K)^T", {"X": (2, 2), "W_Q": (2, 2), "W_K": (2, 2)}),
    "explain-scores-general": lambda: symrow.explain("X W_Q (X W_K)^T"),
    "explain-mlp-concrete": lambda: symrow.explain(
        r"\operatorname{ReLU}(X W_1) W_2", {"X": (2, 2), "W_1": (2, 2), "W_2": (2, 1)}),
    "explain-linear-attention-general": lambda: symrow.explain(r"\phi(Q)(\phi(K)^T V)"),
    "explain-tcombine-concrete": lambda: symrow.explain("A^T B", {"A": (2, 2), "B": (2, 2)}),
    "explain-residual-concrete": lambda: symrow.explain(
        r"X + \operatorname{softmax}\left(\frac{XX^\top}{\sqrt{d}}\right) X", {"X": (2, 2)}),
    "explain-values": lambda: symrow.explain(
        "AB", values={"A": [[1, 2], [3, 4]], "B": [[0, 1], [1, 0]]}),
    "linear-general": lambda: symrow.presets["linear"].build(general=True),
    "gcn-concrete": lambda: symrow.presets["gcn"].build(),
}


@functools.lru_cache(maxsize=None)
def derivation(name: str):
    if name == "handout":
        from symrow.handout import handout
        return handout()
    return OUTPUTS[name]()


@functools.lru_cache(maxsize=None)
def report(name: str, lang: str):
    d = derivation(name)
    return symrow.check(d.to_latex(lang), d, timeout=600)


def _same_math(text: str) -> str:
    """Spacing, the size of a fraction and a row's strut ignored: a web page sets exp(s/√d)
    with text-size fractions where slides and PDFs use display size (\\dfrac), and its rows
    are propped open less; the claim is the same."""
    text = re.sub(r"\\vphantom\{\\rule\[[^\]]*\]\{0pt\}\{[^{}]*\}\}", "", text)
    return "".join(text.split()).replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")


def claims(text: str) -> list[tuple]:
    """What a document claims: (left, relation, right) of every step, typesetting ignored."""
    src = Source(text)
    out = []
    for chain in split(build_tree(tokenize(text), src), src):
        for k, rel in enumerate(chain.relations):
            left, right = chain.members[k], chain.members[k + 1]
            out.append((_same_math(src.text[left.pos:left.end]), rel.kind,
                        _same_math(src.text[right.pos:right.end])))
    return out


NAMES = sorted(OUTPUTS) + ["handout"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_symrow_s_own_latex_holds(name, lang):
    r = report(name, lang)
    bad = [s for s in r.steps if s.status in ("wrong", "unreadable")]
    assert not bad, "\n".join(line for s in bad for line in s.text_lines())
    assert r.counts["checked"] >= 5
    assert r.verdict == "holds" and r.exit_code == 0, r.to_text()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_documents_and_markdown_make_the_same_claims(name, lang):
    d = derivation(name)
    fragment = claims(d.to_latex(lang))
    assert fragment
    assert claims(d.to_document(lang)) == fragment
    assert claims(d.to_markdown(lang)) == fragment


@pytest.mark.slow
@pytest.mark.parametrize("name", ["combine-concrete", "attention-causal-concrete"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_document_and_markdown_check_in_full(name, lang):
    d = derivation(name)
    for text in (d.to_document(lang), d.to_markdown(lang)):
        r = symrow.check(text, d)
        assert r.counts["unreadable"] == 0
        assert [s for s in r.steps if s.status == "wrong"] == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["combine-concrete", "combine-general", "match-concrete",
                                  "match-general", "handout"])
def test_the_contrast_line_holds(name):
    for lang in LANGS:
        r = report(name, lang)
        assert r.verdict == "holds", r.to_text()


@pytest.mark.slow
def test_the_handout_command_line_round_trip(tmp_path):
    """``symrow check FILE --against handout`` reads the handout section by section
    (with a time limit for a loaded machine: the default, 10 s, is about twice what it
    takes on a quiet one)."""
    import subprocess
    import sys
    from symrow.handout import handout
    (tmp_path / "h.tex").write_text(handout().to_document("ja"), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "symrow", "check", "h.tex", "--against",
                          "handout", "--format", "json", "--timeout", "600"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    import json
    data = json.loads(out.stdout)
    wrong = [s for s in data["steps"] if s["status"] == "wrong"]
    assert data["counts"]["unreadable"] == 0
    assert [(s["left"], s["right"]) for s in wrong] in ([], [("C", "A B^{T}")])
    assert out.returncode == (1 if wrong else 0)
    sections = {s.get("section") for s in data["steps"]}
    assert {"1.2", "3", "3.2", "4.2", "5", "5.2"} <= sections


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_width_page_holds(lang):
    """At the phone width, long numerators are set on rows (a ``gathered``
    inside the fraction): the checker reads them as one expression again."""
    d = derivation("attention-concrete")
    tex = d.to_latex(lang, width="phone")
    assert "\\begin{gathered}" in tex
    r = symrow.check(tex, d, timeout=600)
    assert r.counts["unreadable"] == 0 and r.verdict == "holds", r.to_text()


@pytest.mark.slow
def test_a_wrong_term_on_a_later_row_of_a_fraction_is_found():
    d = derivation("attention-concrete")
    tex = d.to_latex(width="phone")
    line = next(x for x in tex.splitlines() if x.startswith("p_{i1} + p_{i2} + p_{i3} &="))
    # the second row of the denominator loses its last exponential's index
    num, den = line.split("}{\\begin{gathered}", 1)
    bad = num + "}{\\begin{gathered}" + den.replace("{}+ \\exp\\left(\\dfrac{s_{i3}}",
                                                    "{}+ \\exp\\left(\\dfrac{s_{i2}}", 1)
    assert bad != line
    r = symrow.check("\\begin{align*}\n%s\n\\end{align*}" % bad, d, timeout=600)
    assert [s.status for s in r.steps] == ["wrong"], r.to_text()
