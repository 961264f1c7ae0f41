"""No math glyph in the compiled slides and handout smaller than an ordinary subscript.

Measured in the PDF, not in the source: the attention slides (``symrow attention
--m 3 --n 3 --d 2 --slides``) and the handout are compiled by the command line,
in English (pdflatex) and Japanese (lualatex), and poppler's ``pdftohtml -xml``
gives the size and font of every run of glyphs on every page.

The threshold is relative to the body font, which is measured too (the size at
which the most characters are set).  TeX sets a subscript in script size and a
subscript's own subscript in scriptscript size: at a 10 pt body, 7 pt and 5 pt;
at 11 pt, 8 pt and 6 pt (ltjsarticle: 7.5 pt and 5.5 pt); at 12 pt, 8 pt and
6 pt.  Script size is thus 0.67 to 0.73 of the body, scriptscript 0.50 to 0.55;
the test wants every math glyph at 0.6 of the body or more, halfway between.

Math glyphs are those in the math fonts: Computer Modern and Latin Modern
(the slides' text is sans-serif, CMSS or LM Sans, and Japanese in its own fonts;
the handout's text shares the serif fonts with its math, and is held to the same
size).  One glyph is exempt: the prime of ``j'`` in a subscript (``k_{j'}``).
TeX's ``'`` is a superscript by definition (``^\\prime``), and the prime's glyph
is drawn for that size; it is a mark, not a letter to read.  (In the PDF it is
``′`` in cmsy from pdflatex, and slot "0" of cmsy from LuaTeX, which has no
Unicode name for it.)

Before this test, the softmax's entries were set with the score and its scale
in script size and the score's indices in scriptscript (``\\exp(\\frac{s_{11}}
{\\sqrt{d}})`` in the text style of a fraction's numerator): 150 runs of 6 pt
glyphs in each language's slides, and 4 to 8 in the handouts.
"""

from __future__ import annotations

import collections
import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import harness

run = harness.symrow_cli

#: what each document is: the command line that makes it
DOCUMENTS = {
    "attention-slides": ["attention", "--m", "3", "--n", "3", "--d", "2", "--slides"],
    "handout": ["handout"],
}

#: smallest a math glyph may be, as a share of the body font (see the module's text)
SMALLEST = 0.6

#: the math fonts, by their PostScript names (after the subset's "ABCDEF+")
_MATH_FONT = re.compile(r"^(CM(?!SS)|LM(?!Sans)|MSAM|MSBM|EUF|EUS)")
#: the prime in cmsy: as pdflatex names it, and as LuaTeX leaves its slot
_PRIME = {"′", "0"}
#: pdftohtml's sizes are whole numbers of its pixels: 2 to the pt gives half points
_ZOOM = 2


def glyph_runs(pdf: Path) -> list:
    """Every run of glyphs in the PDF: (page, font, size in pt, text)."""
    harness.require(shutil.which("pdftohtml") is not None, "pdftohtml",
                    "apt-get install poppler-utils")
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-zoom", str(_ZOOM),
                          str(pdf)], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    fonts: dict = {}
    runs, page = [], 0
    for line in xml.splitlines():
        m = re.match(r'<page number="(\d+)"', line)
        if m:
            page = int(m.group(1))
            continue
        m = re.match(r'\s*<fontspec id="(\d+)" size="(-?[\d.]+)" family="([^"]*)"', line)
        if m:
            fonts[m.group(1)] = (m.group(3).split("+")[-1], float(m.group(2)) / _ZOOM)
            continue
        m = re.match(r'<text top="-?\d+" left="-?\d+" width="\d+" height="\d+" '
                     r'font="(\d+)">(.*)</text>$', line)
        if m:
            font, size = fonts[m.group(1)]
            runs.append((page, font, size, html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))))
    return runs


def body_size(runs: list) -> float:
    """The size at which the most characters are set."""
    count: collections.Counter = collections.Counter()
    for _page, _font, size, text in runs:
        count[size] += len(text)
    return count.most_common(1)[0][0]


def too_small(runs: list) -> tuple:
    """(the body size, the runs of math glyphs under :data:`SMALLEST` of it)."""
    body = body_size(runs)
    small = [r for r in runs if _MATH_FONT.match(r[1]) and r[2] < SMALLEST * body
             and not (r[1].startswith("CMSY") and set(r[3]) <= _PRIME)]
    return body, small


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_no_math_glyph_is_smaller_than_a_subscript(document, lang, tmp_path):
    harness.require_tex("pdflatex" if lang == "en" else "lualatex")
    pdf = tmp_path / f"{document}-{lang}.pdf"
    proc = run(*DOCUMENTS[document], "--lang", lang, "-o", str(pdf))
    assert proc.returncode == 0, proc.stderr
    runs = glyph_runs(pdf)
    body, small = too_small(runs)
    # the measure is real: a body of 10 to 11 pt, and math in it
    assert 9.5 <= body <= 11.5, body
    math = [r for r in runs if _MATH_FONT.match(r[1])]
    assert len(math) > 500
    # ... which has subscripts at script size (0.67 to 0.73 of the body)
    assert any(SMALLEST * body <= r[2] < 0.8 * body for r in math)
    found = collections.Counter((page, font, size, text) for page, font, size, text in small)
    assert not found, (f"math glyphs under {SMALLEST} x {body} pt (page, font, size, text): "
                       f"{sorted(found.items())[:12]}")


def test_the_measure_finds_a_script_of_a_script(tmp_path):
    """The check can fail: a subscript's subscript is found, and the prime is not."""
    runs = [(1, "CMSS10", 11.0, "Some words of the body"), (1, "CMMI10", 11.0, "s"),
            (1, "CMR8", 8.0, "11"), (1, "CMSY6", 6.0, "′"), (1, "CMSS8", 6.0, "3"),
            (2, "LMRoman6", 6.0, "11")]
    body, small = too_small(runs)
    assert body == 11.0
    # the 6 pt page number in sans-serif is text; the prime is exempt
    assert small == [(2, "LMRoman6", 6.0, "11")]
