"""Pictures in real renderers (issue 26): TeX sets the TikZ, Chromium the SVG, KaTeX the captions.

* pdflatex and lualatex compile a figure alone, a document and a deck with
  figures, and the Japanese handout with a picture in every section; a deck
  steps through each figure frame by frame, and each figure frame fits its
  frame as TeX measures it;
* the label boxes the layout places by (estimates) hold the labels as TeX sets
  them (so that "no overlap" holds in the PDF), and as Chromium sets the SVG's
  Unicode labels, at a desktop's and a phone's width;
* the captions' math renders in KaTeX (Markdown pages).
"""

from __future__ import annotations

import html
import json
import re
import tempfile
from pathlib import Path

import pytest

import harness
import symrow
from symrow.figures import figures
from symrow.figures.scene import Box

ATT = ["--values", "Q=1,0;0,1;-1,-1", "--values", "K=1,1;-1,1;0,-1",
       "--values", "V=3,1;1,3;-1,-1"]


def _page_texts(pdf: bytes) -> list:
    """The text of each page of a PDF, by poppler's pdftotext (spaces and line breaks
    taken out, as Japanese is set without them)."""
    import shutil
    import subprocess
    tool = shutil.which("pdftotext")
    harness.require(tool is not None, "pdftotext", "apt-get install poppler-utils")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.pdf"
        path.write_bytes(pdf)
        out = subprocess.run([tool, "-enc", "UTF-8", str(path), "-"], capture_output=True,
                             text=True, timeout=60).stdout
    return [re.sub(r"\s+", "", page) for page in out.split("\f")]


def _scenes():
    """Scenes of every kind, for the label measures."""
    ds = [symrow.attention(3, 3, 2), symrow.attention(3, 3, 2, causal=True),
          symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)),
          symrow.explain(r"\hat{A} X W", {r"\hat{A}": (4, 4), "X": (4, 2), "W": (2, 2)}),
          symrow.backward("XW", {"X": (3, 2), "W": (2, 2)})]
    return [f for d in ds for f in figures(d)]


@pytest.mark.renderer
def test_a_figure_alone_compiles_to_a_pdf_of_its_size(tmp_path):
    out = tmp_path / "att.tex"
    proc = harness.symrow_cli("figure", "attention", *ATT, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    _pdf, log = harness.compile_tex(out.read_text(), "pdflatex")
    assert harness.overfull_boxes(log) == []
    assert "Overfull \\vbox" not in log


@pytest.mark.renderer
def test_a_png_is_made_from_the_pdf(tmp_path):
    harness.require_tex("pdflatex")
    import shutil
    harness.require(shutil.which("pdftoppm") is not None, "pdftoppm", "poppler-utils")
    out = tmp_path / "m.png"
    proc = harness.symrow_cli("figure", "match", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG")
    width = int.from_bytes(data[16:20], "big")
    scene = symrow.figure(symrow.match(symrow.vecseq("A", 3, 2),
                                       symrow.vecseq("B", 2, 2))).scene("page")
    assert abs(width - (scene.width + 8) / 72.27 * 200) < 4   # 200 dpi, the page's size


@pytest.mark.renderer
def test_the_japanese_deck_steps_through_the_figures_frame_by_frame():
    from types import SimpleNamespace
    from symrow.figures.place import with_figures
    from symrow.render.beamer import FRAME_HEIGHT, FigureFrame, plan, to_beamer
    d = symrow.attention(3, 3, 2)
    shown = with_figures(d)
    # the deck's figure frames under their headings (the other frames are the decks
    # test_slides compiles): what `symrow attention --m 3 --n 3 --d 2 --figures
    # --slides --lang ja` adds
    steps = [s for s in shown.steps if s.kind in ("heading", "figure")]
    deck = to_beamer(SimpleNamespace(steps=steps, kind=d.kind, title=d.title), "ja")
    assert deck.count("\\begin{tikzpicture}") == 4
    assert d.to_beamer("ja", figures=True).count("\\begin{tikzpicture}") == 4
    frames = plan(SimpleNamespace(steps=steps), "ja")
    figure_frames = [f for f in frames if isinstance(f, FigureFrame)]
    assert [f.overlays for f in figure_frames] == [4, 2, 2, 4]
    # each figure frame's body measured as TeX sets it, in a probe frame of its own
    probe = "".join(
        "\\begin{frame}<1>\\setbox0\\vbox{\\hsize=\\textwidth %s}\\typeout{FIGURE %d "
        "\\the\\ht0 \\space\\the\\dp0}\\end{frame}\n" % (f.body, k)
        for k, f in enumerate(figure_frames))
    pdf, log = harness.compile_tex(deck.replace("\\end{document}", probe + "\\end{document}"),
                                   "lualatex")
    # the pages that show each figure: one per step (a probe's box is not shipped out)
    pages = _page_texts(pdf)
    for frame, words in zip(figure_frames, ("照合の図", "スケールありとなし", "行ごとのソフトマックス",
                                            "線が太いほど重みが大きい")):
        assert sum(words in page for page in pages) == frame.overlays, words
    found = {int(k): float(ht) + float(dp) for k, ht, dp in
             re.findall(r"FIGURE (\d+) ([\d.]+)pt ([\d.]+)pt", log)}
    assert sorted(found) == [0, 1, 2, 3]
    for k, frame in enumerate(figure_frames):
        room = FRAME_HEIGHT - (12 if frame.subtitle else 0)
        assert found[k] <= room + 8, (k, found[k], room)


@pytest.mark.renderer
@pytest.mark.slow
def test_the_japanese_handout_with_a_picture_in_every_section_compiles():
    from symrow.handout import handout
    tex = handout().to_document("ja", figures=True)
    assert tex.count("\\begin{tikzpicture}") == 10
    _pdf, log = harness.compile_tex(tex, "lualatex")
    assert harness.overfull_boxes(log) == []


@pytest.mark.renderer
def test_the_label_boxes_hold_the_labels_as_tex_sets_them():
    """The layout keeps labels apart by boxes it estimates; TeX's boxes must fit in
    them (centred, as the TikZ places them), or labels could touch in a PDF."""
    seen, labels = set(), []
    for fig in _scenes():
        for target in ("page", "slide"):
            scene = fig.scene(target)
            for panel in scene.panels:
                for item in panel.items:
                    box = panel.placed.get(id(item))
                    key = (item.label.tex if box else None, scene.font)
                    if box is not None and key not in seen:
                        seen.add(key)
                        labels.append((item.label, scene.font, box))
    body = "\n".join(
        r"\setbox0\hbox{\fontsize{%s}{%s}\selectfont$%s$}\typeout{LABEL %d \the\wd0"
        r" \space\the\ht0 \space\the\dp0}" % (font * lab.size, font * lab.size * 1.2, lab.tex,
                                              k)
        for k, (lab, font, _box) in enumerate(labels))
    source = ("\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n"
              + body + "\nmeasured\n\\end{document}\n")
    _pdf, log = harness.compile_tex(source, "pdflatex")
    found = re.findall(r"LABEL (\d+) ([\d.]+)pt ([\d.]+)pt ([\d.]+)pt", log)
    assert len(found) == len(labels) > 40
    worst = max(float(wd) / labels[int(k)][2].w for k, wd, _h, _d in found)
    print(f"widest label against its estimate: {worst:.2f}")
    for k, wd, ht, dp in found:
        lab, font, box = labels[int(k)]
        assert float(wd) <= box.w + 0.3, (lab.tex, wd, box.w)
        assert float(ht) + float(dp) <= box.h + 1.0, (lab.tex, ht, dp, box.h)


@pytest.mark.renderer
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_captions_math_renders_in_katex(lang, tmp_path):
    page = tmp_path / "att.md"
    proc = harness.symrow_cli("attention", "--m", "3", "--n", "3", "--d", "2", "--causal",
                              "--figures", "--lang", lang, "-o", str(page))
    assert proc.returncode == 0, proc.stderr
    paragraphs = page.read_text().split("\n\n")
    captions = [paragraphs[k + 1] for k, p in enumerate(paragraphs) if p.startswith("![")]
    assert len(captions) == 4
    formulas = harness.markdown_math("\n\n".join(captions))
    assert len(formulas) > 8
    harness.assert_renders(formulas)


# -- the SVG in Chromium, at a desktop's and a phone's width ---------------------------------

_MEASURE = """
<script>
const out = [];
for (const svg of document.querySelectorAll('svg')) {
  const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
  const k = vb.width / r.width;   // user units per px
  const box = el => { const b = el.getBoundingClientRect();
    return [(b.left - r.left) * k, (b.top - r.top) * k, b.width * k, b.height * k]; };
  out.push({
    scale: r.width / vb.width,
    labels: [...svg.querySelectorAll('text[data-label-of]')].map(t => ({
      of: t.getAttribute('data-label-of'), box: box(t),
      font: parseFloat(t.getAttribute('font-size'))})),
    marks: [...svg.querySelectorAll('[data-seq]')].map(m => ({
      of: m.getAttribute('data-seq') + ' ' + m.getAttribute('data-index'), box: box(m)})),
    size: [vb.width, vb.height]});
}
const pre = document.createElement('pre'); pre.id = 'measured';
pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
</script>
"""


def _overlap(a, b, gap=0.0) -> bool:
    return Box(*a).overlaps(Box(*b), gap)


def _ink(label) -> list:
    """A label's box as Chromium reports it (the font's whole line box, ascent to
    descent of the tallest font used), cut to 1.2 em about its middle: a line box
    holds the leading above and below the letters, which is not ink."""
    x, y, w, h = label["box"]
    keep = min(h, 1.2 * label["font"])
    return [x, y + (h - keep) / 2, w, keep]


@pytest.mark.browser
@pytest.mark.parametrize("width", [720, 390])
def test_in_chromium_the_svg_labels_clear_the_points_and_each_other(width):
    harness.require_chromium()
    import browser_pages
    figs = _scenes()
    svgs = [f.to_svg("en") for f in figs]
    body = "".join(f'<div style="max-width:{width - 16}px">{svg}</div>' for svg in svgs)
    page = ('<!doctype html><meta charset="utf-8"><body style="margin:8px">' + body
            + _MEASURE + "</body>")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        doc = tmp / "figures.html"
        doc.write_text(page, encoding="utf-8")
        dom = browser_pages._run([f"--window-size={width},1000", "--dump-dom", doc.as_uri()],
                                 tmp)
    m = re.search(r'<pre id="measured"[^>]*>(.*?)</pre>', dom, re.S)
    assert m, "Chromium did not report"
    measured = json.loads(html.unescape(m.group(1)))
    assert len(measured) == len(figs)
    for fig, got in zip(figs, measured):
        if width == 390:   # a phone shrinks a wide figure: its labels stay readable
            assert got["scale"] * fig.scene("web").font * 1.33 >= 9.0, fig
        for k, lab in enumerate(got["labels"]):
            x, y, w, h = _ink(lab)
            assert x >= -0.5 and y >= -0.5 and x + w <= got["size"][0] + 0.5, (fig, lab)
            for mk in got["marks"]:
                assert not _overlap(_ink(lab), mk["box"], -0.3), (fig, lab, mk)
            for other in got["labels"][k + 1:]:
                assert not _overlap(_ink(lab), _ink(other), -0.3), (fig, lab, other)
