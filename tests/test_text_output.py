"""The text format (``--format text``, ``print(d)``) is Unicode for a terminal: no LaTeX
in it, and every heading on one line.

A name's LaTeX must never reach the text (``\\left(\\mathrm{FFN}\\right)_{ij}``,
``H^(\\ell+1)``), and a heading is one line of words under which its rule is
drawn, so a two-line radical squashed into it (``S/⎝╲╱ dₖ ⎠``) is a failure:
``√dₖ`` is written inline.  Scanned over the formulas of ``tests/test_papers.py``
(concrete and general), the attention presets and the backward pass, in every
language.
"""

from __future__ import annotations

import re

import pytest

import symrow
from symrow.narrate import languages
from symrow.render.text import display_width

from test_papers import CASES

#: a LaTeX command, an escaped brace or a script's braces (``_{12}``, ``^{(l)}``)
LATEX = re.compile(r"\\[A-Za-z]+|\\[{}]|[_^]\{")
#: what a two-dimensional picture is drawn with (radicals, fraction bars, big brackets)
PICTURE = re.compile(r"[⎛⎜⎝⎞⎟⎠⎡⎢⎣⎤⎥⎦╲╱─│]|‾|___")
LANGS = list(languages.codes())


def headings(out: str) -> list:
    """(the line before, the heading, its rule) of every heading: a line under which
    a rule of ``=`` or ``-`` as wide as it is drawn."""
    lines = out.split("\n")
    found = []
    for k, line in enumerate(lines):
        if k and re.fullmatch(r"=+|-+", line) and display_width(lines[k - 1]) == len(line):
            found.append((lines[k - 2] if k >= 2 else "", lines[k - 1], line))
    return found


def problems(out: str) -> list:
    bad = [f"LaTeX: {line.strip()[:100]}" for line in out.splitlines() if LATEX.search(line)]
    for before, heading, _rule in headings(out):
        if before.strip():
            bad.append(f"a heading over two lines: {before!r} / {heading!r}")
        if PICTURE.search(heading):
            bad.append(f"a picture in a heading: {heading!r}")
    return bad


def _derivations():
    for case in CASES:
        yield case.id, lambda c=case: symrow.explain(c.tex, c.shapes, **c.options)
        if "heads" in case.options or "Concat" not in case.tex:
            yield case.id + "-general", lambda c=case: symrow.explain(c.tex, **c.options)
    yield "attention", lambda: symrow.attention(2, 3, 2)
    yield "attention-general-causal", lambda: symrow.attention("m", "n", "d", causal=True)
    yield "attention-heads", lambda: symrow.attention(2, 2, 2, heads=2, projections=True)
    yield "backward-attention", lambda: symrow.backward(
        r"\operatorname{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V", general=True)
    yield "backward-ffn", lambda: symrow.backward(
        r"\mathrm{FFN}(x) = \max(0, xW_1 + b_1)W_2 + b_2", general=True)
    yield "backward-gcn-ell", lambda: symrow.backward(
        r"H^{(\ell+1)} = \sigma(\hat{A} H^{(\ell)} W^{(\ell)})", general=True)
    yield "values-xwwt", lambda: symrow.explain(
        r"XWW^\top", values={"X": [[1, 2], [3, 4], [0, 1]], "W": [[1, 0], [2, 1]]})
    yield "values-attention", lambda: symrow.explain(
        r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{2}}\right)V",
        values={"Q": [[1, 0], [0, 1]], "K": [[1, 1], [0, 1]], "V": [[1, 2], [3, 4]]})


DERIVATIONS = list(_derivations())


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_no_latex_and_one_line_headings_in_text(lang):
    bad = {}
    for name, make in DERIVATIONS:
        found = problems(make().to_text(lang))
        if found:
            bad[name] = found[:3]
    assert not bad, bad


def test_the_scan_sees_what_it_looks_for():
    """The two faults of issue 28, as they were printed, are found by the scan."""
    leaked = "The other entries, \\left(\\mathrm{FFN}\\right)_{12}, follow the same pattern."
    squashed = "Stage 2, scale: ⎛ ____⎞ S/⎝╲╱ dₖ ⎠\n" + "=" * 34
    assert problems(leaked) and problems("\n" + squashed)
    two_lines = "Stage 2, scale:\nS/√dₖ\n" + "=" * 5
    assert problems("\n" + two_lines)
    assert not problems("\nStage 2, scale: S/√dₖ\n" + "=" * 21)


def test_a_word_name_and_a_script_in_text():
    ffn = symrow.explain(r"\mathrm{FFN}(x) = \max(0, xW_1 + b_1)W_2 + b_2",
                         {"x": (3, 2), "W_1": (2, 4), "W_2": (4, 2)}).to_text()
    assert "(FFN)₁₂" in ffn and "\\" not in ffn
    gcn = symrow.explain(r"H^{(\ell+1)} = \sigma(\hat{A} H^{(\ell)} W^{(\ell)})").to_text()
    assert "H^(ℓ+1)" in gcn and "W^(ℓ)" in gcn and "\\" not in gcn


def test_a_heading_writes_the_root_inline():
    out = symrow.attention(2, 2, 2).to_text()
    titles = [h for _b, h, _r in headings(out)]
    assert any("S/√d" in t for t in titles), titles
    out = symrow.explain(r"\mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V").to_text()
    assert any("S/√dₖ" in h for _b, h, _r in headings(out))
