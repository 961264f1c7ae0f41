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

Displays are laid out by :func:`symrow.render.layout.display_rows` at
:data:`SLIDE_WIDTH` ems, so nothing runs past the right edge (a softmax
fraction over many keys has its sums set on rows), and the same call
gives each line's height and depth in TeX's metrics
(:data:`symrow.render.measure.TEX`): the one box model of
:mod:`symrow.render.measure`, which every renderer's layout uses.  Heights
are known before TeX runs, leaning high, and the tests compile every deck
and fail on a frame whose content runs off the bottom.  The math inside
the overlays is the same KaTeX-compatible LaTeX as in the documents:
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

from ..narrate import check_lang, get_language, goes_on, segments, slide_key
from .document import (extra_preamble, figure_caption, heading_number, sentence as _narrated,
                       tex_escape)
from ..nodes import SoftmaxExpansion
from .latex import printer
from .layout import Row, display_rows
from .measure import TEX
from .texcut import split_top, strip_overlays

__all__ = ["to_beamer", "plan", "orphans", "Frame", "Block", "strip_overlays", "preamble",
           "SLIDE_WIDTH", "TEXT_WIDTH", "FRAME_HEIGHT", "SUBTITLE_HEIGHT", "shown"]

#: widest a display line may be on a slide, in the ems of
#: :func:`~symrow.render.layout.display_rows` (11 pt each).  The 16:9
#: frame's text is 398 pt wide, 36 ems; 28 ems leave room for a display
#: that cannot break (the widest of the tested decks, a group of three
#: equations, is 35 ems)
SLIDE_WIDTH = 28.0

#: widest a line of a written-out softmax (:class:`~symrow.nodes.SoftmaxExpansion`)
#: may be: its fractions' sums are set on rows, so nothing in it is unbreakable, and
#: the frame's 36 ems, less a margin, hold two of its exponentials to a row
#: (``\\exp((q_{11} k_{11} + q_{12} k_{12}) / \\sqrt{d})``, 12 ems each, in text size)
SOFTMAX_WIDTH = 33.0

#: the width, in pt, of a frame's text (16:9, 11 pt type, 1 cm margins)
TEXT_WIDTH = 398.0
#: the size of the deck's type: pt in an em
SIZE = 11.0
#: distance between baselines of 11 pt type
BASELINE = 13.6

#: the height, in pt, that a frame's content may fill: 214 pt measured
#: under a frame title (the 16:9 frame is 256 pt tall), less a margin
FRAME_HEIGHT = 204.0
#: the margin FRAME_HEIGHT leaves: a sparse frame joins the one before when
#: their likely heights fit within it too (see _joined)
_MARGIN = 10.0
#: what a frame subtitle takes from that, measured
SUBTITLE_HEIGHT = 12.0

#: most steps that share one frame
MAX_STEPS = 3

_DISPLAY_SKIP = 23.0  # pt above and below one align*, measured
_PARSKIP = 4.0        # pt between paragraphs
_JOT, _LINESKIP = 3.0, 1.0  # pt between the rows of an align*; between boxes that touch
#: pt a tall row's estimate adds to the measure's box: on the rows of the
#: tested decks, the box was found up to 2.3 pt short of TeX's (scripts on
#: both sides of a symbol, limits of a sum); a test holds each row's
#: estimate within 1 pt of TeX's
_ROW_LEAN = 1.5
#: letters of running text per em of inline math (11 pt sans-serif letters
#: are about half an em wide; leaning high)
_MATH_CHARS = 2.2
#: an inline formula taller than this (pt, as measured) pushes its line apart
#: from the one above, by up to _TALL_SKIP pt.  TeX parts lines whose depth
#: and height add up to more than the 13.6 pt between baselines: under a line
#: of text, a formula over about 11 pt.  The measure puts q^{(1)}_i at 10.5 pt
#: (TeX: 11.8, which parts the lines) and K^{T} or w^{Q}_{11} at 9.9 (TeX: 9.5
#: and 10.8, which do not)
_TALL_HEIGHT = 10.2
_TALL_SKIP = 2.5
#: the language's characters to a slide's line lean low, for a sentence may
#: never be estimated a line short; about this many times as many fill a line
#: of most sentences (on the tested decks, English lines hold 80 to 95 letters
#: against 62, and Japanese ones 72 or more, against 56).  Only a frame's join
#: with a sparse one uses it (_joined)
_FULLER = 1.4

_CLASS = (r"\documentclass[11pt,aspectratio=169,hyperref={bookmarks=false},"
          r"usepdftitle=false]{beamer}" "\n")


def preamble(lang: str) -> str:
    """The preamble of a deck in ``lang``: the class, what the language needs
    right after it (luatexja for Japanese: Gothic), then sans-serif text and
    serif math."""
    return _CLASS + get_language(lang).beamer_preamble + (
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
    equations: list         # list[list[Row]]: display lines, one list per equation
    leans: bool = False     # it leans on the block before it (narrate.goes_on)
    #: what the sentence's estimate may be over TeX's, in pt: a line when it
    #: is long enough to be counted a line over (see _sentence_height)
    spare: float = 0.0
    kind: str = ""          # the kind of step it shows
    #: the document's sentence, in the frame's notes, when the frame shows the
    #: step's phrase for a slide instead (see :func:`symrow.narrate.slide_key`)
    note: str = ""

    @property
    def height(self) -> float:
        """The estimated height, in pt, of the sentence and the display."""
        if not self.equations:
            return self.sentence_height
        return self.sentence_height + _DISPLAY_SKIP + sum(
            row_height(line) for eq in self.equations for line in eq)

    @property
    def likely_height(self) -> float:
        """The height leaning less high: the sentence at the line count a
        fuller line gives (what TeX set on the tested decks, or more)."""
        return self.height - self.spare


def row_height(line: Row) -> float:
    """The vertical space, in pt, one row of an ``align*`` takes: a baseline
    apart from its neighbour, or more when it is tall, plus ``\\jot``.

    >>> row_height(Row("a", 0.7, 0.2)) == BASELINE + 3.0         # a baseline apart
    True
    >>> row_height(Row("a", 2.0, 1.0)) == 3 * SIZE + 1.0 + 1.5 + 3.0  # tall: with a lean
    True
    """
    return max(BASELINE, (line.h + line.d) * SIZE + _LINESKIP + _ROW_LEAN) + _JOT


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
    def likely_height(self) -> float:
        return sum(b.likely_height for b in self.blocks)

    @property
    def overlays(self) -> int:
        """How many overlay pages the frame shows (1 when it has none)."""
        if self.split:
            return 1
        return sum(max(1, len(b.equations)) for b in self.blocks)


@dataclasses.dataclass
class FigureFrame(Frame):
    """A frame of its own for a picture (a step of kind ``figure``: see
    :mod:`symrow.figures.place`): its TikZ at the size of a slide, revealed one
    overlay per step of the picture, and its caption below.  It counts as a full
    frame, so that no other frame joins it."""

    body: str = ""
    steps: int = 1
    dropped: int = 0      # labels the picture found no room for (the tests want none)

    @property
    def height(self) -> float:
        return FRAME_HEIGHT

    @property
    def likely_height(self) -> float:
        return FRAME_HEIGHT

    @property
    def overlays(self) -> int:
        return self.steps


#: pt a centred picture takes beyond its own height on a frame (the skips around it)
_PICTURE_SKIPS = 26.0


def _figure_frame(step, lang: str, title: str, subtitle: str) -> FigureFrame:
    """A picture and its caption on a frame: the picture as tall as the frame leaves it
    under the title (and subtitle) and over its caption, as estimated before TeX runs
    (the tests measure the frame as TeX sets it)."""
    fig = step.params["figure"]
    caption = figure_caption(step, lang, tex_escape)
    # the caption is \\small: 10 pt type on 12 pt lines, about 1.35 times the letters a
    # line of the frame's own type is counted to hold (see _FULLER)
    lines = _sentence_height(step, lang, get_language(lang).slide_chars * 1.35,
                             slide=False) * 12.0 / BASELINE
    room = (FRAME_HEIGHT - (SUBTITLE_HEIGHT if subtitle else 0.0)
            - lines * (1.6 if step.params.get("note") else 1.0) - _PICTURE_SKIPS)
    picture = fig.to_tikz(lang, slides=True, max_height=room)
    body = ("\\begin{center}\n%s\\end{center}\n\\vspace*{-0.6\\baselineskip}\n"
            "{\\small %s\\par}" % (picture, caption))
    scene = fig.scene("slide", lang, max_height=room)
    return FigureFrame(title, subtitle, [], body=body, steps=scene.steps,
                       dropped=len(scene.dropped))


def _sentence(step, lang: str, slide: bool = False) -> str:
    """The step's sentence as LaTeX, as the documents write it; with ``slide``, its
    phrase for a slide when it has one."""
    return _narrated(step, lang, tex_escape, slide=slide)


def _sentence_height(step, lang: str, line_chars: float | None = None,
                     slide: bool = True) -> float:
    """Estimated height of a sentence, in pt: its lines, from its width in
    characters of running text (an inline formula measured as TeX sets
    it), and a little more for each line that a tall inline formula
    (``q^{(1)}_i``) pushes apart from its neighbours."""
    measure = printer().measure_in(TEX)
    chars, tall = 0.0, 0
    for kind, v in segments(step, lang, slide):
        if kind == "text":
            # a wide (CJK) character is as wide as about two Latin letters
            chars += sum(2 if ord(ch) > 0x2E80 else 1 for ch in v)
        else:
            box = measure(v, "T")
            chars += box.w * _MATH_CHARS
            tall += box.h * SIZE > _TALL_HEIGHT
    lines = max(1, math.ceil(chars / (line_chars or get_language(lang).slide_chars)))
    return BASELINE * lines + _TALL_SKIP * min(lines, tall) + _PARSKIP


def _sentence_spare(step, lang: str, height: float) -> float:
    """How much of a sentence's estimate may be a line too many: the estimate
    less the height at :data:`_FULLER` times the characters to a line."""
    likely = _sentence_height(step, lang, get_language(lang).slide_chars * _FULLER)
    return max(0.0, height - likely)


def _equations(rows: list) -> list:
    """Display rows grouped into equations: a continued sum (``&\\quad``)
    stays with the line it continues."""
    out: list = []
    for line in rows:
        line = line._replace(text=line.text.strip())
        if out and line.text.lstrip().startswith("&\\quad"):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _block(step, lang: str) -> Block:
    # a few words over the display; the sentence goes to the notes
    sentence = _sentence(step, lang, slide=True)
    note = _sentence(step, lang) if slide_key(step, lang) is not None else ""
    height = _sentence_height(step, lang) if sentence else 0.0
    width = SOFTMAX_WIDTH if isinstance(step.display, SoftmaxExpansion) else SLIDE_WIDTH
    equations = _equations(display_rows(step.display, width, TEX, exp_sums="slash")) \
        if step.display is not None else []
    spare = _sentence_spare(step, lang, height) if sentence else 0.0
    return Block(sentence, height, equations, spare=spare, kind=step.kind, note=note)


def _split(block: Block, room: float) -> list:
    """A block too tall for one frame, as parts that each fit ``room`` pt:
    the sentence and the first equations, then the rest.  The parts break
    between equations; an equation that fits on no frame, or not after the
    sentence on the first, breaks between its lines.  A part that goes on
    with a chain (``&= ...``) starts again from the chain's left side."""
    parts = [Block(block.sentence, block.sentence_height, [], note=block.note)]
    lhs, lhs_box = "", None  # the left side of the chain so far, and its (height, depth)

    def fits(part: Block, piece: list) -> bool:
        return Block("", part.sentence_height, part.equations + [piece]).height <= room

    def start(piece: list) -> None:
        first = piece[0]
        if lhs and first.text.startswith("&= "):
            h, d = lhs_box
            piece = [Row(lhs + " " + first.text, max(first.h, h), max(first.d, d))] + piece[1:]
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
            cells = split_top(line.text, "&")
            if len(cells) == 2 and cells[0] and line.left is not None:
                lhs, lhs_box = cells[0], line.left
    return parts


def _heading(step, lang: str) -> str:
    return heading_number(step) + _sentence(step, lang)


def plan(derivation, lang: str = "en", title: str = "") -> list:
    """The frames of a deck (without its title frame), as :class:`Frame` records.

    Steps before the first heading are titled ``title``.
    A heading closes the frame before it.  A step joins the open frame
    when the frame has room and fewer than :data:`MAX_STEPS` steps; a step
    taller than a frame (:data:`FRAME_HEIGHT`) is split across frames of
    its own.  A step that leans on the one before (it goes on with its
    sentence, or speaks of "the other entries" it showed: see
    :func:`symrow.narrate.goes_on`) is not parted from it: when it does not
    fit the open frame, the step before moves with it to the next, or,
    when the two are too tall for one frame, the next is titled "(cont.)".
    Last, a frame that holds less than a third of a frame and fits in the
    one before it (under the same heading) joins it: no frame is left
    nearly empty where the one before had room (see :func:`orphans`).
    """
    continued = " " + get_language(lang).words["cont"]
    titles: dict = {}  # level -> heading text, the open headings
    frames: list = []
    fresh = True       # a heading came since the last frame was opened

    def title_and_subtitle():
        if not titles:
            return title, ""
        levels = sorted(titles)
        return titles[levels[0]], " \\textperiodcentered{} ".join(titles[k] for k in levels[1:])

    for step in derivation.steps:
        if step.kind == "figure":
            frames.append(_figure_frame(step, lang, *title_and_subtitle()))
            fresh = True      # the next step opens a frame of its own
            continue
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
        leans = block.leans = not fresh and current is not None and goes_on(step)
        if block.height > room:
            for k, part in enumerate(_split(block, room)):
                frames.append(Frame(heading + (continued if k or leans else ""),
                                    subtitle, [part], split=True))
        elif (not fresh and current is not None
                and (len(current.blocks) < MAX_STEPS or leans)
                and (current.height + block.height <= room
                     or leans and current.likely_height + block.likely_height <= room)):
            # (a step that leans on the one before stays with it if it fits at all)
            current.blocks.append(block)
            continue
        elif leans:
            before = current.blocks[-1]
            if len(current.blocks) > 1 and not current.split \
                    and before.height + block.height <= room:
                current.blocks.pop()
                frames.append(Frame(heading, subtitle, [before, block]))
            else:
                frames.append(Frame(heading + continued, subtitle, [block]))
        else:
            frames.append(Frame(heading, subtitle, [block]))
        fresh = False
    return _joined(frames, continued)


def _room(frame: Frame) -> float:
    return FRAME_HEIGHT - (SUBTITLE_HEIGHT if frame.subtitle else 0.0)


def _same_heading(a: Frame, b: Frame, continued: str) -> bool:
    def base(t: str) -> str:
        return t[:-len(continued)] if t.endswith(continued) else t
    return base(a.title) == base(b.title) and a.subtitle == b.subtitle


def orphans(frames: list, continued: str, heights=None) -> list:
    """Indices of frames that hold less than a third of a frame under the same
    heading as the frame before, which has room for them.  ``heights`` are
    the frames' heights in pt (by default, the estimates); the tests give
    what TeX measured."""
    fill = [f.height for f in frames] if heights is None else list(heights)
    return [k for k in range(1, len(frames))
            if _same_heading(frames[k - 1], frames[k], continued)
            and fill[k] < _room(frames[k]) / 3
            and fill[k - 1] + fill[k] <= _room(frames[k - 1])]


#: a frame whose estimate is under this share of its room may hold under a
#: third of it as TeX sets it (the estimates lean high, by up to about 30% on
#: a frame of a sentence or two): it is joined to the frame before, or given
#: that frame's last step
SPARSE = 0.46


def _joined(frames: list, continued: str) -> list:
    """Frames with no sparse frame (under :data:`SPARSE` of its room, under the
    same heading as the one before): it joins the frame before when the two
    fit one frame, or else takes that frame's last step (with the steps that
    lean on it) when that frame keeps another.  A split frame that takes more
    stays shown all at once.  Whether two frames fit one is judged by their
    likely heights (:attr:`Block.likely_height`): a sparse frame is a line or
    two, and its sentence and the one before are often each a line over."""
    for _ in range(2 * len(frames)):
        for k in range(1, len(frames)):
            before, after = frames[k - 1], frames[k]
            if not _same_heading(before, after, continued) \
                    or after.height >= SPARSE * _room(after):
                continue
            if before.likely_height + after.likely_height <= _room(before) + _MARGIN:
                frames[k - 1] = Frame(before.title, before.subtitle, before.blocks + after.blocks,
                                      split=before.split or after.split)
                del frames[k]
                break
            cut = len(before.blocks) - 1
            while cut > 0 and before.blocks[cut].leans:
                cut -= 1
            moved = before.blocks[cut:]
            if cut > 0 and not before.split and not after.split and \
                    sum(b.height for b in moved) + after.height <= _room(after):
                frames[k - 1] = Frame(before.title, before.subtitle, before.blocks[:cut])
                frames[k] = Frame(after.title, after.subtitle, moved + after.blocks)
                break
        else:
            return frames
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
    if isinstance(frame, FigureFrame):
        return head + frame.body + "\n\\end{frame}\n"
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
                    lines.append(_uncover_line(line.text, slide) if reveal and slide > 1
                                 else line.text)
            # a display with no sentence before it would start a paragraph of its
            # own: an empty line, which is taken back
            part += "\n" + _display(lines) if part else _NO_EMPTY_LINE + _display(lines)
        parts.append(part)
        slide += 1
    return head + "\n\n".join(parts) + _notes(frame) + "\n\\end{frame}\n"


def _notes(frame: Frame) -> str:
    """The sentences of the frame's steps, as the documents write them, in its notes
    (``\\note[item]``, one item a step): off the frame, shown with Beamer's
    ``\\setbeameroption{show notes}`` (or on a second screen)."""
    return "".join("\n\\note[item]{%s}" % b.note for b in frame.blocks if b.note)


def _title_frame(title: str, subtitle: str | None = None, author: str | None = None,
                 date: str | None = None, course: str | None = None) -> str:
    """The title frame's fields (LaTeX) and the frame: the course is Beamer's
    institute line, under the author; no date unless one is given."""
    out = "\\title{%s}\n" % title
    if subtitle:
        out += "\\subtitle{%s}\n" % subtitle
    if author:
        out += "\\author{%s}\n" % author
    if course:
        out += "\\institute{%s}\n" % course
    return out + "\\date{%s}\n\\begin{document}\n\\begin{frame}\n\\titlepage\n\\end{frame}\n" % (
        date or "")


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
              subtitle: str | None = None, author: str | None = None,
              date: str | None = None, course: str | None = None) -> str:
    """A complete Beamer document in ``lang``, for the language's TeX engine.

    ``title``, ``subtitle``, ``author``, ``date`` and ``course`` are LaTeX, shown
    on the title frame (the course on the line under the author).  The title
    defaults to the derivation's own title in ``lang``; a deck with none of
    them has no title frame.
    """
    check_lang(lang)
    if title is None:
        title = (getattr(derivation, "title", None) or {}).get(lang)
    title = title or ""
    frames = plan(derivation, lang, title)
    out = preamble(lang) + extra_preamble(derivation)
    if title or author or date or course:
        out += _title_frame(title, subtitle, author, date, course)
    else:
        out += "\\begin{document}\n"
    for frame in frames:
        out += "\n" + _frame(frame)
    return out + "\n\\end{document}\n"
