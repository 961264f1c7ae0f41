"""Slides: every deck compiles cleanly in the real engines and fits its frames.

Each deck (combine, match and attention, general and concrete, causal and
with heads, the handout, and a bare object with steps, as a selection of
parts will be) is compiled in both languages: pdflatex for English,
lualatex + luatexja for Japanese.  To keep the time down, the decks of a
language are compiled as one document (their frames one after another, with
the very preamble each deck has), in a pool of processes; a marker between
decks attributes pages, overfull boxes and warnings to each.

Pinned per deck: the number of frames and of pages (overlays included).
A frame whose content runs off the bottom is an overfull \\vbox, and fails.

The decks are compiled once per test run (:func:`harness.shared`): under
``make test``, the first worker to need them compiles them, in two threads,
and a worker that needs them meanwhile waits and reads the results.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

import harness
import symrow
from symrow.handout import handout
from symrow.render import beamer, texcut
from symrow.render.latex import latex, printer
from symrow.narrate import get_language
from symrow.render.layout import display_lines

V = symrow.vecseq
LANGS = ("en", "ja")


def _selection():
    """A bare object with steps, as a selection of parts will be: the combine
    of AB alone, from its heading on."""
    steps = symrow.combine(V("A", "m", "ell"), V("B", "ell", "n")).steps
    start = next(k for k, s in enumerate(steps)
                 if s.kind == "heading" and s.params["topic"] == "combine")
    return SimpleNamespace(steps=steps[start:])


DECKS = {
    "combine_general": lambda: symrow.combine(V("A", "m", "ell"), V("B", "ell", "n")),
    "combine_concrete": lambda: symrow.combine(V("A", 2, 3), V("B", 3, 2)),
    "match_general": lambda: symrow.match(V("A", "m", "ell"), V("B", "n", "ell")),
    "match_concrete": lambda: symrow.match(V("A", 2, 3), V("B", 3, 3)),
    "attention_general": lambda: symrow.attention("m", "n", "d"),
    "attention_concrete": lambda: symrow.attention(2, 2, 2),
    "attention_causal": lambda: symrow.attention(3, 3, 2, causal=True),
    "attention_heads": lambda: symrow.attention(2, 3, 2, projections=True, heads=2),
    "handout": handout,
    "selection": _selection,
    # five keys: a softmax fraction wider than a frame, set on rows
    "attention_wide": lambda: symrow.attention(2, 5, 2),
}

#: decks compiled in one language only (the layout does not depend on it)
ONE_LANGUAGE = {"attention_wide": "en"}

#: (frames, pages) of each deck, the title frame included; pages count every overlay.
#: (Before sparse frames were joined, tall matrices packed side by side and a step
#: kept with the one it leans on: handout 97/98 frames and 143 pages, the attention
#: decks 15/16/20 frames, now 13/14/17.  The backward section saying each rule once,
#: in the formula's names, took the handout from 88/87 frames and 137 pages to these.
#: The softmax's scores and scale set in display style inside the exponentials, nothing
#: smaller than a subscript (tests/test_glyph_sizes.py), made those displays taller: the
#: general, causal, heads and handout decks one frame and one page more each (p_ij over
#: its sum no longer shares a frame with what comes before or after it), the wide deck
#: 15 -> 17 frames but 25 -> 24 pages (its written-out o_1, set at the frame's full width,
#: two exponentials to a row, is no longer split between frames).  Slides in the style of
#: slides, a few words over each display and the sentences in the frames' notes, let more
#: steps share a frame: match_general ja 11 -> 10 frames, attention_general 14 -> 13,
#: concrete 14/13 -> 12, causal 18 -> 16 (31 -> 30 pages), heads 30 -> 26, wide 17 -> 15
#: (24 -> 23 pages); the handout (which gained sections 6.x and 7.x: measured on main at
#: 99/94 frames and 149 pages) 83 frames and 154 pages in both languages, more steps to a
#: frame, each revealed on an overlay of its own.)
PINNED = {
    ("combine_general", "en"): (11, 18), ("combine_general", "ja"): (11, 18),
    ("combine_concrete", "en"): (8, 21), ("combine_concrete", "ja"): (8, 21),
    ("match_general", "en"): (10, 17), ("match_general", "ja"): (10, 17),
    ("match_concrete", "en"): (8, 22), ("match_concrete", "ja"): (8, 22),
    ("attention_general", "en"): (13, 22), ("attention_general", "ja"): (13, 22),
    ("attention_concrete", "en"): (12, 19), ("attention_concrete", "ja"): (12, 19),
    ("attention_causal", "en"): (16, 30), ("attention_causal", "ja"): (16, 30),
    ("attention_heads", "en"): (26, 58), ("attention_heads", "ja"): (26, 58),
    ("handout", "en"): (83, 154), ("handout", "ja"): (83, 154),
    ("selection", "en"): (6, 9), ("selection", "ja"): (6, 9),
    ("attention_wide", "en"): (15, 23),
}

CASES = [(name, lang) for name in DECKS for lang in LANGS
         if ONE_LANGUAGE.get(name, lang) == lang]


@functools.lru_cache(maxsize=None)
def deck_object(name: str):
    return DECKS[name]()


@functools.lru_cache(maxsize=None)
def source(name: str, lang: str) -> str:
    obj = deck_object(name)
    return obj.to_beamer(lang) if hasattr(obj, "to_beamer") else beamer.to_beamer(obj, lang)


def body(name: str, lang: str) -> str:
    """The deck between \\begin{document} and \\end{document}."""
    return source(name, lang).split("\\begin{document}\n", 1)[1].rsplit("\\end{document}", 1)[0]


# -- without TeX ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,lang", CASES)
def test_a_deck_is_its_preamble_titles_and_planned_frames(name, lang):
    src = source(name, lang)
    head = src.split("\\begin{document}\n", 1)[0]
    assert head.startswith(beamer.preamble(lang))
    assert set(re.findall(r"^\\(\w+)", head[len(beamer.preamble(lang)):], re.M)) <= {
        "title", "subtitle", "author", "institute", "date"}
    frames = beamer.plan(beamer.shown(deck_object(name)), lang)
    titled = "\\titlepage" in src
    assert titled == (name != "selection")
    assert src.count("\\begin{frame}") == len(frames) + titled
    # no frame is shrunk to fit: long displays go on over "(cont.)" frames
    for forbidden in ("\\resizebox", "\\scalebox", "shrink", "allowframebreaks", "\\small",
                      "\\footnotesize", "\\tiny"):
        assert forbidden not in src


@pytest.mark.parametrize("name,lang", CASES)
def test_overlays_count_up_from_two_in_each_frame(name, lang):
    for frame in re.findall(r"\\begin\{frame\}.*?\\end\{frame\}", body(name, lang), re.S):
        slides = sorted({int(k) for k in re.findall(r"\\uncover<(\d+)->", frame)})
        assert slides == list(range(2, len(slides) + 2)), slides


@pytest.mark.parametrize("name,lang", CASES)
def test_planned_frames_fit_their_estimated_room(name, lang):
    # (a frame that took in a sparse one fits at its likely height: see beamer._joined)
    for frame in beamer.plan(beamer.shown(deck_object(name)), lang):
        room = beamer.FRAME_HEIGHT - (beamer.SUBTITLE_HEIGHT if frame.subtitle else 0.0)
        one_line = len(frame.blocks) == 1 and len(frame.blocks[0].equations) <= 1 \
            and all(len(eq) == 1 for eq in frame.blocks[0].equations)
        assert frame.likely_height <= room + beamer._MARGIN or one_line, (frame.title, frame.height)


@pytest.mark.parametrize("name,lang", CASES)
def test_what_leans_on_a_step_stays_on_its_frame(name, lang):
    """"The other entries ... follow the same pattern" is on the frame that shows
    the entry it speaks of, and a sentence that goes on from the step before
    stays with it, unless the step before fills its frame: then the step
    opens the next frame, titled "(cont.)" (one case in these decks: the
    heads deck's o_1, a fraction 123 pt tall)."""
    cont = get_language(lang).words["cont"]
    alone = []
    for frame in beamer.plan(beamer.shown(deck_object(name)), lang):
        first = frame.blocks[0]
        assert not first.leans or frame.title.endswith(cont), (frame.title, first.sentence)
        alone += [frame.title] if first.kind == "expand_others" else []
    assert len(alone) <= (name == "attention_heads"), alone


def test_a_fraction_wider_than_a_frame_is_set_on_rows():
    src = source("attention_wide", "en")
    # the row sum of the distribution: numerator and denominator, five exponentials each
    line = next(x for x in src.splitlines() if "p_{i1} + p_{i2} + p_{i3}" in x)
    assert line.count("\\begin{gathered}\\textstyle") == 2
    # which it had to be: as one row, that equation is wider than a slide's line
    # (pdflatex's widths of every line of the decks as set: within the frame, see
    # test_row_heights_are_never_underestimated)
    (step,) = [s for s in beamer.shown(deck_object("attention_wide")).steps
               if s.kind == "softmax_distribution"]
    (chain,) = [c for c in step.display.items if "p_{i1} + p_{i2}" in latex(c)]
    assert printer(cell_fraction="text").measure(chain).w > beamer.SLIDE_WIDTH


def test_long_expansions_are_continued_not_shrunk():
    for lang, cont in (("en", "(cont.)"), ("ja", "（続き）")):
        frames = beamer.plan(beamer.shown(deck_object("attention_heads")), lang)
        continued = [f for f in frames if f.title.endswith(cont)]
        assert len(continued) >= 3  # (4 when the frames carried whole sentences)
        # each the part of a split display, shown at once, or the step that goes
        # on from a step that filled the frame before (test_what_leans_on_...)
        assert all(f.split and f.overlays == 1 or f.blocks[0].leans for f in continued)
        # a continued chain starts again from its left side
        src = source("combine_general", lang)
        # (with no empty line above the display: amsmath would start it on one)
        assert re.search(r"\(cont\.\)\}\n\\vspace\*\{-\\baselineskip\}\n"
                         r"\\begin\{align\*\}\nA B &= " if lang == "en"
                         else r"（続き）\}\n\\vspace\*\{-\\baselineskip\}\n"
                         r"\\begin\{align\*\}\nA B &= ", src)


def test_a_long_chain_is_revealed_line_by_line():
    src = source("attention_general", "en")
    frame = next(f for f in src.split("\\begin{frame}") if "The first product" in f)
    assert "S &= Q K^{T} \\\\\n & \\uncover<2->{{}= \\begin{bmatrix}" in frame
    assert "\\end{bmatrix}} \\\\\n & \\uncover<3->{{}= \\begin{bmatrix}" in frame


def test_strip_overlays_gives_the_documents_math_back():
    d = deck_object("match_general")
    stripped = texcut.strip_overlays(body("match_general", "en"))
    assert "\\uncover" not in stripped
    for step in d.steps:
        if step.display is not None and step.kind == "extract_row_match":
            lines = display_lines(step.display, beamer.SLIDE_WIDTH)
            assert lines[0] in stripped


def test_golden_decks():
    harness.golden("slides_combine_general_en.tex", source("combine_general", "en"))
    harness.golden("slides_attention_concrete_ja.tex", source("attention_concrete", "ja"))


def test_to_beamer_methods_and_a_bare_object():
    d = deck_object("combine_concrete")
    assert d.to_beamer("ja") == beamer.to_beamer(d, "ja")
    assert "\\subtitle{" in handout().to_beamer("en")
    bare = beamer.to_beamer(_selection(), "en")
    assert "\\titlepage" not in bare and bare.count("\\begin{frame}") >= 5
    with pytest.raises(symrow.OptionError):
        d.to_beamer("fr")


# -- KaTeX --------------------------------------------------------------------------------

@pytest.mark.renderer
def test_the_decks_math_renders_in_katex():
    formulas = []
    for name, lang in CASES:
        for f in harness.latex_math(texcut.strip_overlays(body(name, lang))):
            formulas.append({"tex": f["tex"], "display": f["display"]})
    assert len(formulas) > 1000
    harness.assert_renders(formulas)


# -- the real engines ------------------------------------------------------------------------

def require_beamer() -> None:
    ok = shutil.which("kpsewhich") is not None and all(
        subprocess.run(["kpsewhich", f], capture_output=True, text=True).stdout.strip()
        for f in ("beamer.cls", "pgf.sty"))
    harness.require(ok, "beamer with pgf", "apt-get install texlive-latex-recommended "
                    "texlive-pictures")


_MARK = "SYMROW-DECK"
_FILL = "SYMROW-FILL"

#: where each frame's content starts and ends, written to the log as the page
#: ships out: the frame's number, "start" or "end", and the vertical position
#: in sp (pdfTeX's \\pdfsavepos; LuaTeX's \\savepos)
_FILL_MACROS = (
    "\\makeatletter\n"
    "\\ifdefined\\savepos\\let\\symrowsavepos\\savepos\\let\\symrowypos\\lastypos\n"
    "\\else\\let\\symrowsavepos\\pdfsavepos\\let\\symrowypos\\pdflastypos\\fi\n"
    "\\newcommand\\symrowfill[1]{\\symrowsavepos"
    "\\write-1{%s \\the\\c@framenumber\\space #1 \\the\\symrowypos}}\n"
    "\\makeatother\n" % _FILL)


def _marked(frames: str) -> str:
    """Each titled frame with a mark where its content starts and another
    where it ends (after the last paragraph or display)."""
    def mark(m):
        head, body = m.group(1), m.group(2)
        return head + "\\symrowfill{start}" + body + "\\par\\symrowfill{end}\n\\end{frame}"
    return re.sub(r"(\\begin\{frame\}\[t\]\{.*?\}\n(?:\\framesubtitle\{.*?\}\n)?)"
                  r"(.*?)\n\\end\{frame\}", mark, frames, flags=re.S)


def _combined(names: list, lang: str) -> str:
    """The decks' frames in one document, a marker (with the page number)
    before each.  Every deck's preamble is the shared one, and its titles
    come along into the body; the subtitle is reset between decks.  Each
    frame's content is marked where it starts and ends (:func:`_marked`)."""
    pre = beamer.preamble(lang)
    out = [pre, _FILL_MACROS, "\\begin{document}\n"]
    for name in names:
        head, rest = source(name, lang).split("\\begin{document}\n", 1)
        assert head.startswith(pre)
        out.append("\\typeout{%s %s \\arabic{page}}\n\\subtitle{}\n" % (_MARK, name))
        out.append(head[len(pre):] + _marked(rest.rsplit("\\end{document}", 1)[0]))
    out.append("\\typeout{%s end \\arabic{page}}\n\\end{document}\n" % _MARK)
    return "".join(out)


def _compile(job) -> dict:
    names, lang = job
    engine = "pdflatex" if lang == "en" else "lualatex"
    with tempfile.TemporaryDirectory(prefix="symrow-slides-") as tmp:
        Path(tmp, "deck.tex").write_text(_combined(names, lang), encoding="utf-8")
        proc = subprocess.run(
            [engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "deck.tex"],
            cwd=tmp, capture_output=True, timeout=600,
            env={**os.environ, "max_print_line": "1000"})
        log = Path(tmp, "deck.log").read_text(encoding="utf-8", errors="replace")
    if proc.returncode != 0:
        errors = [line for line in log.splitlines() if line.startswith("!")][:3]
        return {(name, lang): {"error": f"{engine} failed: {errors}"} for name in names}
    results, current, start = {}, None, 0
    marks: dict = {}  # frame number -> {"start": y, "end": y}, in sp
    for line in log.splitlines():
        mark = re.match(_MARK + r" (\S+) (\d+)$", line)
        fill = re.match(_FILL + r" (\d+) (start|end) (-?\d+)$", line)
        if mark:
            if current:
                results[current, lang]["pages"] = int(mark.group(2)) - start
                results[current, lang]["fills"] = [
                    (ys["start"] - ys["end"]) / 65536 for _n, ys in sorted(marks.items())]
            current, start = (None if mark.group(1) == "end" else mark.group(1)), int(mark.group(2))
            marks = {}
            if current:
                results[current, lang] = {"pages": 0, "problems": []}
        elif fill and current:
            marks.setdefault(int(fill.group(1)), {})[fill.group(2)] = int(fill.group(3))
        elif current and re.search(r"Overfull|Underfull|Warning|Missing character", line):
            results[current, lang]["problems"].append(line.strip())
    return results


def _compile_all() -> dict:
    """Every deck compiled, in four documents over two threads (the largest
    first: about 20 s each for the Japanese halves, 10 s for the English ones,
    on this machine); "name lang" -> pages and problems (or an error)."""
    harness.require_tex("pdflatex")
    harness.require_tex("lualatex")
    require_beamer()
    big = {"handout", "attention_heads", "attention_causal"}
    jobs = [([n for n, lang in CASES if lang == language and (n in big) == large], language)
            for language, large in (("ja", False), ("ja", True), ("en", True), ("en", False))]
    results: dict = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for part in pool.map(_compile, jobs):
            results.update(part)
    return {f"{name} {lang}": result for (name, lang), result in results.items()}


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> dict:
    """(name, lang) -> what TeX made of the deck, compiled once per test run."""
    found = harness.shared("slide-decks", _compile_all, tmp_path_factory)
    return {tuple(key.split(" ")): result for key, result in found.items()}


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("name,lang", CASES)
def test_deck_compiles_with_nothing_overfull_and_no_warnings(name, lang, compiled):
    result = compiled[name, lang]
    assert "error" not in result, result.get("error")
    assert result["problems"] == [], result["problems"][:5]


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("name,lang", CASES)
def test_frames_and_pages_are_pinned(name, lang, compiled):
    result = compiled[name, lang]
    assert "error" not in result, result.get("error")
    frames = source(name, lang).count("\\begin{frame}")
    planned = sum(f.overlays for f in beamer.plan(beamer.shown(deck_object(name)), lang)) \
        + ("\\titlepage" in source(name, lang))
    assert result["pages"] == planned  # the overlays come out as planned
    assert (frames, result["pages"]) == PINNED[name, lang]


#: the decks whose frames are measured for fill (test_no_frame_is_left_nearly_empty)
FILLED = [(name, lang) for name, lang in CASES if name.startswith("attention") or name == "handout"]


@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("name,lang", FILLED)
def test_no_frame_is_left_nearly_empty(name, lang, compiled):
    """Each frame's fill as TeX set it (from where its content starts to where
    it ends): no frame holds less than a third of a frame's room under the
    heading of the frame before, when that frame had room for it."""
    result = compiled[name, lang]
    assert "error" not in result, result.get("error")
    frames = beamer.plan(beamer.shown(deck_object(name)), lang)
    fills = result["fills"]
    assert len(fills) == len(frames)
    # the measure is real: every frame holds something, none more than its room
    # (and the frames TeX sets fullest are near the room the planner fills)
    assert all(0 < f <= beamer.FRAME_HEIGHT + 10 for f in fills), fills
    found = beamer.orphans(frames, " " + get_language(lang).words["cont"], fills)
    assert not found, [(frames[k].title, round(fills[k - 1]), round(fills[k])) for k in found]


@pytest.mark.renderer
def test_row_heights_are_never_underestimated():
    """The estimate of each display row is compared with TeX's own box."""
    harness.require_tex("pdflatex")
    require_beamer()
    rows = {line.text: line for name in DECKS
            for frame in beamer.plan(beamer.shown(deck_object(name)), "en")
            for block in frame.blocks for eq in block.equations for line in eq}
    lines = sorted(rows)
    boxes = "\n".join(
        "\\setbox0\\hbox{$\\displaystyle %s$}\\typeout{ROW %d,\\the\\ht0,\\the\\dp0,\\the\\wd0}"
        % (texcut.joined_cells(line), n)
        for n, line in enumerate(lines))
    doc = beamer.preamble("en") + "\\begin{document}\n\\begin{frame}\n" + boxes \
        + "\n\\end{frame}\n\\end{document}\n"
    _pdf, log = harness.compile_tex(doc, "pdflatex")
    measured = re.findall(r"ROW (\d+),([\d.]+)pt,([\d.]+)pt,([\d.]+)pt", log)
    assert len(measured) == len(lines) > 200
    worst = max((max(13.6, float(h) + float(d) + 1.0) + 3.0 - beamer.row_height(rows[lines[int(n)]]),
                 lines[int(n)][:80]) for n, h, d, _w in measured)
    assert worst[0] <= 1.0, worst
    widest = max(float(w) for *_x, w in measured)
    assert widest < 398.0  # the frame's text width, 16:9 at 11 pt


@pytest.mark.renderer
@pytest.mark.parametrize("lang", LANGS)
def test_sentences_are_never_estimated_a_line_short(lang):
    """Each sentence's estimated height is compared with its paragraph as TeX sets it."""
    engine = "pdflatex" if lang == "en" else "lualatex"
    harness.require_tex(engine)
    require_beamer()
    blocks = {}
    for name in DECKS:
        for frame in beamer.plan(beamer.shown(deck_object(name)), lang):
            for block in frame.blocks:
                if block.sentence:
                    blocks[block.sentence] = block.sentence_height
    sentences = sorted(blocks)
    boxes = "\n".join("\\setbox0\\vbox{\\hsize\\textwidth %s}\\typeout{PAR %d,\\the\\ht0,"
                      "\\the\\dp0}" % (text, n) for n, text in enumerate(sentences))
    doc = beamer.preamble(lang) + "\\begin{document}\n\\begin{frame}\n" + boxes \
        + "\n\\end{frame}\n\\end{document}\n"
    _pdf, log = harness.compile_tex(doc, engine)
    measured = re.findall(r"PAR (\d+),([\d.]+)pt,([\d.]+)pt", log)
    assert len(measured) == len(sentences) > 100
    for n, h, d in measured:
        text = sentences[int(n)]
        assert float(h) + float(d) <= blocks[text] + 1.0, (float(h) + float(d), blocks[text], text)


# -- the command line ----------------------------------------------------------------------
# In this process (harness.symrow_cli): the command's own handling of --slides.
# Its PDFs: one real deck compiled end to end (English, small); the other two
# through a recorder of compile_pdf, whose decks compile in the tests above.

run = harness.symrow_cli


def test_cli_beamer_format_writes_the_deck():
    proc = run("combine", "--general", "--format", "beamer")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == source("combine_general", "en")


def test_cli_slides_with_tex_writes_the_deck(tmp_path):
    proc = run("match", "--general", "--slides", "--lang", "ja", "-o", str(tmp_path / "m.tex"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.tex").read_text(encoding="utf-8") == source("match_general", "ja")


@pytest.mark.parametrize("args,fragment", [
    (["combine", "--slides"], "got text, the default"),
    (["match", "--slides", "--format", "markdown"], "got --format markdown"),
    (["attention", "--slides", "--format", "latex"], "got --format latex"),
    (["handout", "--slides", "-o", "h.md"], "got -o h.md, which means markdown"),
])
def test_cli_slides_with_a_format_that_cannot_hold_slides(args, fragment, tmp_path):
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"symrow: error: --slides needs --format pdf (or -o FILE.pdf) or --format beamer; "
        f"{fragment}"]
    assert list(tmp_path.iterdir()) == []


def test_cli_help_tells_of_slides():
    proc = run("attention", "--help")
    assert "--slides" in proc.stdout and "beamer" in proc.stdout


def _pdf_pages(path: Path) -> int:
    harness.require(shutil.which("pdfinfo") is not None, "pdfinfo", "apt-get install poppler-utils")
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


@pytest.mark.renderer
def test_cli_attention_slides_compile_end_to_end(tmp_path):
    harness.require_tex("pdflatex")
    require_beamer()
    proc = run("attention", "--m", "2", "--n", "2", "--d", "2", "--format", "pdf", "--slides",
               "--author", "A. Lecturer", "--course", "Machine Learning 2 (MA-ML2)",
               "--date", "3 June 2025", "-o", str(tmp_path / "a.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert _pdf_pages(tmp_path / "a.pdf") == PINNED["attention_concrete", "en"][1]
    title = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(tmp_path / "a.pdf"), "-"],
                           capture_output=True, text=True).stdout
    for field in ("A. Lecturer", "Machine Learning 2 (MA-ML2)", "3 June 2025"):
        assert field in title, title


def test_the_title_frame_takes_title_author_date_and_course():
    d = deck_object("combine_concrete")
    src = d.to_beamer("en", title="Lecture 5", author="A. Lecturer", date="3 June 2025",
                      course="ML 2")
    head = src.split("\\begin{frame}", 1)[0]
    assert ("\\title{Lecture 5}\n\\author{A. Lecturer}\n\\institute{ML 2}\n"
            "\\date{3 June 2025}\n") in head
    # the handout keeps its subtitle under a title of one's own
    h = handout().to_beamer("ja", title="第5回", author="講師")
    assert "\\title{第5回}\n\\subtitle{" in h and "\\author{講師}" in h
    # a bare object with only an author still gets a title frame
    assert "\\titlepage" in beamer.to_beamer(_selection(), "en", author="A. Lecturer")
    # on the command line, plain text, escaped
    proc = run("combine", "--slides", "--format", "beamer", "--title", "Products & sums",
               "--author", "R. O'Neil", "--date", "Week 3", "--course", "CS 101: 50%")
    assert proc.returncode == 0, proc.stderr
    assert ("\\title{Products \\& sums}\n\\author{R. O'Neil}\n\\institute{CS 101: 50\\%}\n"
            "\\date{Week 3}\n") in proc.stdout
    assert "--course TEXT" in run("attention", "--help").stdout


@pytest.mark.parametrize("option", ["--title", "--author", "--date", "--course"])
def test_title_frame_fields_need_slides(option, tmp_path):
    proc = run("combine", option, "x", "-o", str(tmp_path / "c.tex"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"symrow: error: {option} is for the title frame of slides; it goes with --slides"]
    assert list(tmp_path.iterdir()) == []


def test_cli_attention_slides_in_japanese(tmp_path, tex_spy):
    proc = run("attention", "--m", "2", "--n", "2", "--d", "2", "--format", "pdf", "--slides",
               "--lang", "ja", "-o", str(tmp_path / "a.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert tex_spy == [(source("attention_concrete", "ja"), "ja")]
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_cli_handout_slides_in_english(tmp_path, tex_spy):
    proc = run("handout", "--slides", "--lang", "en", "-o", str(tmp_path / "s.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert tex_spy == [(source("handout", "en"), "en")]


# -- a missing beamer or pgf is named -----------------------------------------------------------

@pytest.mark.renderer
@pytest.mark.parametrize("document,names", [
    ("\\documentclass{beamersymrowmissing}\n\\begin{document}x\\end{document}\n",
     ("class beamersymrowmissing", "apt-get install texlive-latex-recommended")),
    ("\\documentclass{article}\n\\usepackage{pgfsymrowmissing}\n\\begin{document}x\\end{document}\n",
     ("package pgfsymrowmissing", "apt-get install texlive-pictures")),
])
def test_a_missing_beamer_or_pgf_names_its_package(document, names):
    from symrow.render.pdf import compile_pdf
    harness.require_tex("pdflatex")
    with pytest.raises(symrow.RenderError) as err:
        compile_pdf(document, "en")
    message = str(err.value)
    assert "\n" not in message
    for name in names:
        assert name in message, message


# -- slides in the style of slides -------------------------------------------------------------

def _prose(frame: str) -> str:
    """The running text a frame shows: its notes, title, displays and math left out."""
    f = re.sub(r"\n\\note\[item\]\{.*", "", frame, flags=re.S)  # the notes come last
    f = re.sub(r"\\begin\{frame\}(\[t\])?\{.*?\}\n(\\framesubtitle\{.*?\}\n)?", "", f)
    f = re.sub(r"\\begin\{align\*\}.*?\\end\{align\*\}", "", f, flags=re.S)
    f = re.sub(r"\$[^$]*\$", " X ", f)        # a formula counts as a word
    f = re.sub(r"\\uncover<\d+->\{|\\[a-zA-Z*]+|[{}~]", " ", f)
    return f


@pytest.mark.parametrize("name,lang", [("attention_332", "en"), ("attention_332", "ja"),
                                       ("handout", "en"), ("handout", "ja")])
def test_frames_carry_phrases_and_their_notes_the_sentences(name, lang):
    """No frame of `symrow attention --m 3 --n 3 --d 2 --slides` or of the handout's
    slides carries more than about two lines of prose (25 words; in Japanese 60
    characters) outside its notes, and the notes hold each step's sentence as the
    documents write it."""
    from symrow.render.document import sentence, tex_escape
    from symrow.narrate import slide_key
    obj = symrow.attention(3, 3, 2) if name == "attention_332" else deck_object(name)
    src = obj.to_beamer(lang)
    frames = re.findall(r"\\begin\{frame\}\[t\].*?\\end\{frame\}", src, re.S)
    assert len(frames) > 8
    for frame in frames:
        words = _prose(frame)
        size = len(words.split()) if lang == "en" else len(re.sub(r"\s", "", words))
        assert size <= (25 if lang == "en" else 60), (size, words.strip())
    steps = [s for s in beamer.shown(obj).steps if s.kind not in ("heading", "figure")]
    assert all(slide_key(s, lang) for s in steps)   # every step has its phrase
    for step in steps:
        assert "\\note[item]{%s}\n" % sentence(step, lang, tex_escape) in src, step.kind


def test_every_phrase_stands_for_a_sentence_in_both_languages():
    from symrow.narrate import LANGUAGES
    phrases = {code: {k for k in lang.templates if k.startswith("slide.")}
               for code, lang in LANGUAGES.items()}
    assert phrases["en"] == phrases["ja"] and len(phrases["en"]) > 150
    for code, keys in phrases.items():
        assert all(k[len("slide."):] in LANGUAGES[code].templates for k in keys)
