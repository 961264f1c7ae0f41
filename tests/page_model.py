"""The length of a Markdown page as tests/browser_pages.py lays it out, without a browser.

CI does not install Chromium, so the page-length tests (issue 12: the 3x3x2
attention page at most half as long as before) need an estimate they can
run anywhere.  This one follows the page of ``browser_pages.page`` (a column
``column`` px wide, DejaVu Sans at ``font`` px with line height 1.8, h3 at
1.25 em, paragraph margins 0.8 em, display margins 1 em, adjacent margins
collapsed) and takes its parts from:

* displays: their height in KaTeX's own layout (tests/katex_layout.js), in
  KaTeX's ems (1.21 times the body text);
* paragraphs and headings: lines filled word by word, each word as wide as
  DejaVu Sans sets it (:data:`DEJAVU`, the advance widths of its printable
  ASCII characters, read from DejaVuSans.ttf), a CJK character one em and
  breakable anywhere, inline math as wide as
  :func:`symrow.render.measure.leaf_box` measures it in KaTeX's ems.

Against Chromium (KaTeX, 720 px) it is within a few per cent on the 3x3x2
attention pages before and after issue 12 (see :func:`test_pages` where it
is used); it compares pages with each other, so what matters is that it
errs alike on both.

    python tests/page_model.py page.md       # the estimated height in px
"""

from __future__ import annotations

import math
import sys

from browser_pages import INLINE, MD_ESCAPED, blocks

#: DejaVu Sans advance widths (em) of the characters 32 (space) to 126 (~)
DEJAVU = [
    0.318, 0.401, 0.46, 0.838, 0.636, 0.95, 0.78, 0.275, 0.39, 0.39, 0.5, 0.838, 0.318, 0.361,
    0.318, 0.337, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337,
    0.337, 0.838, 0.838, 0.838, 0.531, 1.0, 0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775,
    0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611,
    0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.39, 0.337, 0.39, 0.838, 0.5, 0.5, 0.613, 0.635,
    0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612,
    0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.636, 0.337,
    0.636, 0.838]
#: other characters symrow's prose uses: non-breaking hyphen and space
OTHER = {"\u2011": 0.361, "\u00a0": 0.318}
#: KaTeX sets math at 1.21 times the surrounding text
KATEX_EM = 1.21
LINE = 1.8



def _cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80


def _char(ch: str) -> float:
    if 32 <= ord(ch) <= 126:
        return DEJAVU[ord(ch) - 32]
    if _cjk(ch):
        return 1.0
    return OTHER.get(ch, 0.6)


def _tokens(text: str) -> list:
    """(width in ems, whether a space comes before it) of each unbreakable piece:
    a line may break at a space, and before or after a CJK character."""
    from symrow.render.measure import leaf_box
    atoms: list = []   # (width, a break may come before it, a space comes before it)
    k = 0
    space = brk = False
    for m in list(INLINE.finditer(text)) + [None]:
        prose = MD_ESCAPED.sub(r"\1", text[k:m.start() if m else len(text)])
        for ch in prose:
            if ch in " \n":
                space = brk = True
                continue
            cjk = _cjk(ch)
            atoms.append((_char(ch), brk or cjk, space))
            space, brk = False, cjk
        if m is None:
            break
        atoms.append((leaf_box(m.group(1), "T").w * KATEX_EM, brk, space))
        space = brk = False
        k = m.end()
    out: list = []
    for w, may_break, sp in atoms:
        if may_break or not out:
            out.append([w, sp])
        else:
            out[-1][0] += w
    return [tuple(t) for t in out]


def lines(text: str, width_em: float) -> int:
    """How many lines ``text`` fills at ``width_em`` (ems of the text's font)."""
    used, count = None, 1
    for w, space in _tokens(text):
        if used is None:
            used = w
            continue
        step = (_char(" ") if space else 0.0) + w
        if used + step > width_em + 1e-9:
            count += 1
            used = w
        else:
            used += step
    return count


def page_height(markdown: str, column: int = 720, font: int = 16, layout=None) -> float:
    """The estimated height in px of the page's column (see the module's doc).
    ``layout``: KaTeX's layout of each display (harness.katex_layout), in order."""
    parts = blocks(markdown)   # as tests/browser_pages.py renders them
    displays = [c for k, c in parts if k == "display"]
    if layout is None:
        import harness
        layout = harness.katex_layout([{"tex": t, "display": True} for t in displays])
    heights = iter(x["height"] for x in layout)
    total, prev_margin = 0.0, None
    for kind, content in parts:
        if kind == "display":
            h, top, bottom = next(heights) * KATEX_EM * font, font, font
        elif kind.startswith("h"):  # symrow writes ### headings
            size = 1.25 * font
            h = lines(content, column / size) * LINE * size
            top, bottom = 1.6 * size, 0.6 * size
        else:
            h = lines(content, column / font) * LINE * font
            top = bottom = 0.8 * font
        if prev_margin is not None:
            total += max(prev_margin, top)
        total += h
        prev_margin = bottom
    return total


if __name__ == "__main__":
    text = open(sys.argv[1], encoding="utf-8").read() if sys.argv[1] != "-" else sys.stdin.read()
    print(round(page_height(text), 1))
