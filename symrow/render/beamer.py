"""Slides: a derivation's steps as a Beamer deck.

The deck walks the same steps as the documents (:mod:`symrow.render.document`)
and narrates them with the same sentences, but lays them out in frames:

* each heading starts a new frame and titles it (a lower heading under a
  higher one, as in the handout, becomes the frame's subtitle);
* the steps under a heading share a frame while they fit, a few at most,
  and each one after the first is revealed on the next overlay;
* a display of several lines (a chain broken at its ``=`` signs, a group,
  entries one per line) is revealed line by line with ``\\uncover``;
* a display too tall for one frame is not shrunk: it is split between its
  equations (or lines) and continued on frames titled "(cont.)", each shown
  whole.

Heights are estimated before TeX runs, by :mod:`symrow.render.mathbox`;
the estimate errs high, and the tests compile every deck and fail on a
frame whose content runs off the bottom.

Displays are laid out by :func:`symrow.render.latex.display_lines` at
:data:`SLIDE_WIDTH` ems, so nothing runs past the right edge; a single term
still too wide (a softmax fraction over many keys) has its denominator set
on rows (:func:`symrow.render.texcut.fit_width`).  The math inside the
overlays is the same KaTeX-compatible LaTeX as in the documents:
:func:`~symrow.render.texcut.strip_overlays` removes the overlay commands.

The renderer asks little of what it renders: an object with ``steps``, a
sequence of :class:`~symrow.steps.Step` records (``kind``, ``params``,
``display``) that :func:`symrow.narrate.segments` can narrate, where a step
of kind ``"heading"`` is a heading (``params`` may carry ``level``, 1 to 3,
default 2, and ``number``).  A ``title`` mapping on the object (language ->
LaTeX), as derivations have, gives the deck's default title.

>>> import symrow
>>> from symrow.render.beamer import to_beamer, plan
>>> d = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
>>> deck = to_beamer(d, "en")
>>> deck.startswith("\\\\documentclass") and deck.count("\\\\begin{frame}") == len(plan(d, "en")) + 1
True
"""

from __future__ import annotations

import dataclasses
import math

from ..narrate import check_lang, segments
from .document import heading_number, sentence as _narrated, tex_escape
from .latex import display_lines, latex, text_width
from .mathbox import BASELINE, row_height
from .texcut import fit_width, split_top, strip_overlays

__all__ = ["to_beamer", "plan", "Frame", "Block", "strip_overlays", "preamble",
           "SLIDE_WIDTH", "TEXT_WIDTH", "FRAME_HEIGHT", "SUBTITLE_HEIGHT", "shown"]

#: widest a display line may be on a slide, in the ems of
#: :func:`~symrow.render.latex.display_lines`.  The 16:9 frame's text is
#: 398 pt wide in 11 pt type; the widest line of every deck in the tests
#: came out at up to 1.23 times its estimate, so 28 ems (308 pt estimated)
#: leave room
SLIDE_WIDTH = 28.0

#: the width, in pt, of a frame's text (16:9, 11 pt type, 1 cm margins)
TEXT_WIDTH = 398.0
#: a line estimated wider than this (pt) has its widest fraction set on rows:
#: on the lines with a fraction, the width estimate was found up to 3.4 %
#: short of TeX's (a test holds every line of the tested decks to the frame)
FIT_WIDTH = TEXT_WIDTH / 1.04

#: the height, in pt, that a frame's content may fill: 214 pt measured
#: under a frame title (the 16:9 frame is 256 pt tall), less a margin
FRAME_HEIGHT = 204.0
#: what a frame subtitle takes from that, measured
SUBTITLE_HEIGHT = 12.0

#: most steps that share one frame
MAX_STEPS = 3

_DISPLAY_SKIP = 23.0  # pt above and below one align*, measured
_PARSKIP = 4.0        # pt between paragraphs
_TALL_SKIP = 2.5      # pt a line with a sub- and superscripted symbol may grow by
#: running text per line, in Latin letters (a Japanese character counts two):
#: at these, no sentence of the tested decks is estimated a line short
_CHARS = {"en": 62, "ja": 56}

_CONTINUED = {"en": "(cont.)", "ja": "（続き）"}

_CLASS = (r"\documentclass[11pt,aspectratio=169,hyperref={bookmarks=false},"
          r"usepdftitle=false]{beamer}" "\n")
_PREAMBLE = {
    "en": _CLASS,
    "ja": (_CLASS + r"\usepackage{luatexja}" "\n"
           r"\renewcommand{\kanjifamilydefault}{\gtdefault}" "\n"
           r"\tracinglostchars=3" "\n"
           # beamer sets bold math letters in the text italic, which Latin
           # Modern has no bold of in TU: take the bold slant, without a warning
           r"\input{tulmr.fd}\DeclareFontShape{TU}{lmr}{b}{it}{<->ssub*lmr/b/sl}{}" "\n"),
}


def preamble(lang: str) -> str:
    """The preamble of a deck in ``lang``: pdflatex for ``en``, lualatex +
    luatexja for ``ja`` (sans-serif text, Gothic Japanese, serif math)."""
    return _PREAMBLE[check_lang(lang)] + (
        "\\usepackage{amsmath,amssymb}\n"
        "\\usefonttheme[onlymath]{serif}\n"
        "\\setbeamertemplate{navigation symbols}{}\n"
        "\\setlength{\\parskip}{%gpt}\n"
        "\\setbeamertemplate{footline}{\\hfill\\usebeamerfont{page number in head/foot}"
        "\\usebeamercolor[fg]{page number in head/foot}\\insertframenumber\\kern1em"
        "\\vskip4pt}\n" % _PARSKIP)


# -- the plan: blocks and frames ----------------------------------------------------------

@dataclasses.dataclass
class Block:
    """One step on a slide, or the part of it that one frame shows: its
    sentence (LaTeX, empty on a continuation) and its display's lines,
    grouped into equations, each revealed as a whole."""

    sentence: str
    sentence_height: float  # estimated, in pt
    equations: list         # list[list[str]]: display lines, one list per equation

    @property
    def height(self) -> float:
        """The estimated height, in pt, of the sentence and the display."""
        if not self.equations:
            return self.sentence_height
        return self.sentence_height + _DISPLAY_SKIP + sum(
            row_height(line) for eq in self.equations for line in eq)


@dataclasses.dataclass
class Frame:
    """One frame: a title, an optional subtitle, and the blocks it shows.

    The steps of a frame, and the equations of a display that fits one
    frame, are revealed one by one.  A ``split`` frame shows one part of a
    display too tall for a frame, all at once; the parts after the first
    are titled "(cont.)".
    """

    title: str
    subtitle: str
    blocks: list
    split: bool = False

    @property
    def height(self) -> float:
        return sum(b.height for b in self.blocks)

    @property
    def overlays(self) -> int:
        """How many overlay pages the frame shows (1 when it has none)."""
        if self.split:
            return 1
        return sum(max(1, len(b.equations)) for b in self.blocks)


def _sentence(step, lang: str) -> str:
    """The step's sentence as LaTeX, as the documents write it."""
    return _narrated(step, lang, tex_escape)


def _sentence_height(step, lang: str) -> float:
    """Estimated height of a sentence, in pt: its lines, from its width in
    characters of running text, and a little more for each line that an
    inline formula with both a superscript and a subscript (``q^{(1)}_i``)
    can push apart from the one above."""
    chars, tall = 0.0, 0
    for kind, v in segments(step, lang):
        if kind == "text":
            # a Japanese character is as wide as about two Latin letters
            chars += sum(2 if ord(ch) > 0x2E80 else 1 for ch in v) if lang == "ja" else len(v)
        else:
            tex = latex(v)
            chars += text_width(tex) * 2.2  # an em is about two letters wide
            tall += "^" in tex and "_" in tex
    lines = max(1, math.ceil(chars / _CHARS[lang]))
    return BASELINE * lines + _TALL_SKIP * min(lines, tall) + _PARSKIP


def _equations(lines: list) -> list:
    """Display lines grouped into equations: a continued sum (``&\\quad``)
    stays with the line it continues.  A line that breaks itself (with a
    top-level ``\\\\``) is split first, and a row too wide for the frame
    is fitted (:func:`~symrow.render.texcut.fit_width`)."""
    out: list = []
    for line in (fit_width(part, FIT_WIDTH) for whole in lines
                 for part in split_top(whole, "\\\\")):
        if out and line.lstrip().startswith("&\\quad"):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _block(step, lang: str) -> Block:
    sentence = _sentence(step, lang)
    height = _sentence_height(step, lang) if sentence else 0.0
    equations = _equations(display_lines(step.display, SLIDE_WIDTH, cell_fraction="text")) \
        if step.display is not None else []
    return Block(sentence, height, equations)


def _split(block: Block, room: float) -> list:
    """A block too tall for one frame, as parts that each fit ``room`` pt:
    the sentence and the first equations, then the rest.  The parts break
    between equations; an equation that fits on no frame, or not after the
    sentence on the first, breaks between its lines.  A part that goes on
    with a chain (``&= ...``) starts again from the chain's left side."""
    parts = [Block(block.sentence, block.sentence_height, [])]
    lhs = ""  # the left side of the chain so far

    def fits(part: Block, piece: list) -> bool:
        return Block("", part.sentence_height, part.equations + [piece]).height <= room

    def start(piece: list) -> None:
        first = piece[0]
        if lhs and first.startswith("&= "):
            piece = [fit_width(lhs + " " + first, FIT_WIDTH)] + piece[1:]
        parts.append(Block("", 0.0, [piece]))

    for eq in block.equations:
        if fits(parts[-1], eq):
            parts[-1].equations.append(eq)
        elif parts[-1].equations and fits(Block("", 0.0, []), eq):
            start(eq)
        else:
            for line in eq:
                if fits(parts[-1], [line]) or not (parts[-1].equations or parts[-1].sentence):
                    parts[-1].equations.append([line])
                else:
                    start([line])
        for line in eq:
            cells = split_top(line, "&")
            if len(cells) == 2 and cells[0]:
                lhs = cells[0]
    return parts


def _heading(step, lang: str) -> str:
    return heading_number(step) + _sentence(step, lang)


def plan(derivation, lang: str = "en", title: str = "") -> list:
    """The frames of a deck (without its title frame), as :class:`Frame` records.

    Steps before the first heading are titled ``title``.
    A heading closes the frame before it.  A step joins the open frame
    when the frame has room and fewer than :data:`MAX_STEPS` steps; a step
    taller than a frame (:data:`FRAME_HEIGHT`) is split across frames of
    its own.
    """
    check_lang(lang)
    titles: dict = {}  # level -> heading text, the open headings
    frames: list = []
    fresh = True       # a heading came since the last frame was opened

    def title_and_subtitle():
        if not titles:
            return title, ""
        levels = sorted(titles)
        return titles[levels[0]], " \\textperiodcentered{} ".join(titles[k] for k in levels[1:])

    for step in derivation.steps:
        if step.kind == "heading":
            level = step.params.get("level", 2)
            for deeper in [k for k in titles if k >= level]:
                del titles[deeper]
            titles[level] = _heading(step, lang)
            fresh = True
            continue
        block = _block(step, lang)
        heading, subtitle = title_and_subtitle()
        room = FRAME_HEIGHT - (SUBTITLE_HEIGHT if subtitle else 0.0)
        current = frames[-1] if frames else None
        if block.height > room:
            for k, part in enumerate(_split(block, room)):
                frames.append(Frame(heading + (" " + _CONTINUED[lang] if k else ""),
                                    subtitle, [part], split=True))
        elif (not fresh and current is not None and not current.split
                and len(current.blocks) < MAX_STEPS
                and current.height + block.height <= room):
            current.blocks.append(block)
            continue
        else:
            frames.append(Frame(heading, subtitle, [block]))
        fresh = False
    return frames


# -- LaTeX -----------------------------------------------------------------------------

def _uncover_line(line: str, slide: int) -> str:
    """One display line shown from overlay ``slide`` on.  Each cell is
    wrapped on its own (an overlay command cannot span ``&``); a cell after
    the first starts with ``{}`` so that its ``=`` or ``+`` keeps its spacing."""
    out = []
    for k, cell in enumerate(split_top(line, "&")):
        body = cell.strip()
        if not body:
            out.append("")
            continue
        out.append("\\uncover<%d->{%s%s}" % (slide, "{}" if k else "", body))
    return " & ".join(out)


#: before a display that no sentence leads into (a continued frame): amsmath
#: starts it on an empty line of its own, one baseline high
_NO_EMPTY_LINE = "\\vspace*{-\\baselineskip}\n"


def _display(lines: list, env: str = "align*") -> str:
    return "\\begin{%s}\n%s\n\\end{%s}" % (env, " \\\\\n".join(lines), env)


def _frame(frame: Frame) -> str:
    head = "\\begin{frame}[t]{%s}\n" % frame.title
    if frame.subtitle:
        head += "\\framesubtitle{%s}\n" % frame.subtitle
    parts = []
    reveal = frame.overlays > 1
    slide = 1
    for block in frame.blocks:
        part = ""
        if block.sentence:
            part = ("\\uncover<%d->{%s}" % (slide, block.sentence)) if reveal and slide > 1 \
                else block.sentence
        if block.equations:
            lines = []
            for k, eq in enumerate(block.equations):
                if k:
                    slide += 1
                for line in eq:
                    lines.append(_uncover_line(line, slide) if reveal and slide > 1 else line)
            # a display with no sentence before it would start a paragraph of its
            # own: an empty line, which is taken back
            part += "\n" + _display(lines) if part else _NO_EMPTY_LINE + _display(lines)
        parts.append(part)
        slide += 1
    return head + "\n\n".join(parts) + "\n\\end{frame}\n"


def _title_frame(title: str, subtitle: str | None) -> str:
    out = "\\title{%s}\n" % title
    if subtitle:
        out += "\\subtitle{%s}\n" % subtitle
    return out + "\\date{}\n\\begin{document}\n\\begin{frame}\n\\titlepage\n\\end{frame}\n"


def shown(obj, expand=None, width=None):
    """What a deck of ``obj`` shows: the steps a document shows for ``expand=``
    (see :mod:`symrow.render.expand`), laid out at the slides' own width
    (:data:`SLIDE_WIDTH`) unless ``width=`` says otherwise."""
    from types import SimpleNamespace
    from .document import shown_steps
    steps = shown_steps(obj, expand, SLIDE_WIDTH if width is None else width)
    return SimpleNamespace(steps=steps, kind=getattr(obj, "kind", None),
                           title=getattr(obj, "title", None))


def to_beamer(derivation, lang: str = "en", *, title: str | None = None,
              subtitle: str | None = None) -> str:
    """A complete Beamer document: pdflatex for ``en``, lualatex + luatexja for ``ja``.

    ``title`` and ``subtitle`` are LaTeX; the title defaults to the
    derivation's own title in ``lang``, and a deck without a title has no
    title frame.
    """
    check_lang(lang)
    if title is None:
        title = (getattr(derivation, "title", None) or {}).get(lang)
    title = title or ""
    frames = plan(derivation, lang, title)
    out = preamble(lang)
    if title:
        out += _title_frame(title, subtitle)
    else:
        out += "\\begin{document}\n"
    for frame in frames:
        out += "\n" + _frame(frame)
    return out + "\n\\end{document}\n"
