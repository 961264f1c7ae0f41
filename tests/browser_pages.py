"""Render symrow's Markdown in headless Chromium, as a reader's browser shows it.

Not a test (Chromium is not among the renderers CI installs): a tool that
measures what the tests estimate, and makes the pictures for notes and the
README.  A Markdown file is turned into a page of one column (``--column``
px wide, body text ``--font`` px, as on Zenn or Qiita) whose math is set by
KaTeX or MathJax 3 from ``tests/node_modules`` (``make renderers``); then
Chromium reports, as JSON:

* ``height``: the height of the column in px (the page's length);
* ``displays``: for each ``$$`` block, its height and the width of its math
  in px, and whether that is wider than the column;
* ``column_scroll``: the column's scroll width (MathJax spills a wide
  display out of the column; KaTeX on Zenn scrolls it inside its block),
  and ``page_width``, the page's (Chromium's window is at least 500 px);

and, with ``--png FILE``, a picture of the whole page.

:func:`measure_many` measures several pages in one run of Chromium (the
tests do: a browser's start costs more than a page), each in a frame as wide
as its column.

    python tests/browser_pages.py page.md --engine katex --column 720 --png page.png
    symrow attention --m 3 --n 3 --d 2 -f md | python tests/browser_pages.py - --column 390

Chromium is run as ``chromium --headless`` with a fresh profile in a
temporary folder; nothing is fetched from the network.  Japanese is set in
a Japanese font: the system's, or else TeX Live's HaranoAji Gothic (see
:func:`_japanese_fonts`; without one, kana and kanji would be empty boxes).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MODULES = TESTS / "node_modules"

_DISPLAY = re.compile(r"^\$\$\n(.*?)\n\$\$$", re.S | re.M)
#: inline math, and the characters Markdown escapes (page_model.py reads them too)
INLINE = re.compile(r"(?<![\\$])\$([^$\n]+)\$")
MD_ESCAPED = re.compile(r"\\([*_`\[\]<>|\\])")


def _inline_html(text: str, engine: str) -> str:
    out, k = [], 0
    for m in INLINE.finditer(text):
        out.append(html.escape(MD_ESCAPED.sub(r"\1", text[k:m.start()])))
        out.append(_math(m.group(1), False, engine))
        k = m.end()
    out.append(html.escape(MD_ESCAPED.sub(r"\1", text[k:])))
    return "".join(out)


def _math(tex: str, display: bool, engine: str) -> str:
    if engine == "katex":
        tag = "div" if display else "span"
        return f'<{tag} class="tex{" display" if display else ""}">{html.escape(tex)}</{tag}>'
    if display:
        return '<div class="tex display">\\[' + html.escape(tex) + "\\]</div>"
    return "\\(" + html.escape(tex) + "\\)"


def keep_displays(text: str, keep: list) -> str:
    """Only the ``$$`` blocks numbered in ``keep`` (from 1), each with the paragraph
    before it: a small page for a picture of some displays."""
    chunks = re.split(r"\n\s*\n", text.strip())
    out, count = [], 0
    for k, chunk in enumerate(chunks):
        if "$$\n" in chunk:
            count += 1
            if count in keep:
                if chunk.startswith("$$") and k and not chunks[k - 1].startswith("#"):
                    out.append(chunks[k - 1])
                out.append(chunk)
    return "\n\n".join(out) + "\n"


def blocks(text: str) -> list:
    """(kind, content) of each block of symrow's Markdown, in order: kind is
    "display" (a ``$$`` block), "p" (a paragraph) or "h1" to "h6"."""
    out = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        chunk = chunk.strip()
        m = _DISPLAY.fullmatch(chunk)
        if m:
            out.append(("display", m.group(1)))
            continue
        # a sentence followed by its display, with no blank line between
        d = re.search(r"^\$\$\n", chunk, re.M)
        if d and d.start() > 0:
            out.append(("p", chunk[:d.start()].strip()))
            out.append(("display", _DISPLAY.fullmatch(chunk[d.start():]).group(1)))
            continue
        h = re.match(r"(#{1,6}) (.*)", chunk, re.S)
        out.append((f"h{len(h.group(1))}", h.group(2)) if h else ("p", chunk))
    return out


def markdown_html(text: str, engine: str) -> str:
    """The HTML body of symrow's Markdown: headings, paragraphs and ``$$`` blocks."""
    out = []
    for kind, content in blocks(text):
        if kind == "display":
            out.append(_math(content, True, engine))
        else:
            tag = "p" if kind == "p" else kind
            out.append(f"<{tag}>" + _inline_html(content, engine) + f"</{tag}>")
    return "\n".join(out)


_MEASURE = """
function measure() {
  const col = document.getElementById('col');
  const rect = col.getBoundingClientRect();
  const displays = [];
  for (const el of document.querySelectorAll('.tex.display')) {
    const r = el.getBoundingClientRect();
    // the ink of the math: KaTeX's .base boxes (its .katex-html is a full-width
    // block), or MathJax's mjx-math
    let left = Infinity, right = -Infinity;
    const parts = el.querySelectorAll('.katex-html > .base, .katex-html > .katex-base, .katex-html > .tag');
    for (const b of (parts.length ? parts : el.querySelectorAll('mjx-math'))) {
      const q = b.getBoundingClientRect();
      left = Math.min(left, q.left); right = Math.max(right, q.right);
    }
    const width = right > left ? right - left : 0;
    displays.push({height: r.height, width: width, scroll: el.scrollWidth,
                   over: width > rect.width + 0.5});
  }
  const out = {height: rect.height, column: rect.width, displays: displays,
               column_scroll: col.scrollWidth,
               page_width: document.documentElement.scrollWidth,
               page_height: document.documentElement.scrollHeight,
               errors: document.querySelectorAll('.katex-error, mjx-merror').length};
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
  pre.style.display = 'none';
  // in a frame of measure_many's page: report to it
  if (window.parent !== window) window.parent.postMessage({page: location.hash, out: out}, '*');
}
"""


def page(body: str, engine: str, column: int, font: int, frame: bool = False) -> str:
    css = (f"body {{ margin: 0; font: {font}px/1.8 'DejaVu Sans', sans-serif; }}"
           f"#col {{ width: {column}px; padding: 0; margin: 0; overflow-wrap: break-word; "
           + ("outline: 1px dashed #bbb; " if frame else "") + "}"
           "h3 { font-size: 1.25em; margin: 1.6em 0 0.6em; } p { margin: 0.8em 0; }"
           # Zenn's rule: a wide display scrolls inside its own block
           ".katex-display { overflow-x: auto; overflow-y: hidden; margin: 1em 0; }")
    if engine == "katex":
        dist = (MODULES / "katex" / "dist").as_uri()
        head = (f'<link rel="stylesheet" href="{dist}/katex.min.css">'
                f'<script src="{dist}/katex.min.js"></script>')
        run = ("for (const el of document.querySelectorAll('.tex')) {"
               " katex.render(el.textContent, el, {displayMode: el.classList.contains('display'),"
               " throwOnError: false}); }"
               "document.fonts.ready.then(measure);")
        script = f"<script>{_MEASURE}\nwindow.addEventListener('load', () => {{ {run} }});</script>"
    else:
        es5 = (MODULES / "mathjax-full" / "es5").as_uri()
        head = ("<script>window.MathJax = {startup: {pageReady: () => MathJax.startup"
                ".defaultPageReady().then(() => document.fonts.ready).then(measure)}, "
                "chtml: {fontURL: '" + es5 + "/output/chtml/fonts/woff-v2'}};</script>"
                f'<script src="{es5}/tex-chtml-full.js"></script>')
        script = f"<script>{_MEASURE}</script>"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{css}</style>{head}"
            f"</head><body><div id='col'>{body}</div>{script}</body></html>")


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _japanese_fonts(tmp: Path) -> dict:
    """The environment that lets Chromium set Japanese in real glyphs.

    Without a Japanese font known to fontconfig, Chromium draws every kana
    and kanji as an empty box of its own (narrower) width, so a Japanese
    page is neither readable nor as long as a reader's.  TeX Live's
    HaranoAji fonts (needed for lualatex anyway) are then added through a
    fontconfig file of our own; with a Japanese font installed, nothing
    changes."""
    env = dict(os.environ)
    fc_list = shutil.which("fc-list")
    if fc_list and subprocess.run([fc_list, ":lang=ja", "family"], capture_output=True,
                                  text=True).stdout.strip():
        return env
    kpsewhich = shutil.which("kpsewhich")
    found = subprocess.run([kpsewhich, "HaranoAjiGothic-Regular.otf"], capture_output=True,
                           text=True).stdout.strip() if kpsewhich else ""
    if not found:
        return env
    conf = tmp / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"  <dir>{html.escape(str(Path(found).parent))}</dir>\n"
        f"  <cachedir>{html.escape(str(tmp / 'fontcache'))}</cachedir>\n</fontconfig>\n",
        encoding="utf-8")
    env["FONTCONFIG_FILE"] = str(conf)
    return env


def _run(args: list, tmp: Path, timeout: int = 180) -> str:
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--hide-scrollbars", "--allow-file-access-from-files",
           f"--user-data-dir={tmp / 'profile'}", "--virtual-time-budget=30000"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=_japanese_fonts(tmp)).stdout


def measure(markdown: str, *, engine: str = "katex", column: int = 720, font: int = 16,
            png: str | None = None, frame: bool = False) -> dict:
    """Render Markdown in Chromium and measure it (see the module doc)."""
    if chromium() is None:
        raise RuntimeError("chromium is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        doc = tmp / "page.html"
        doc.write_text(page(markdown_html(markdown, engine), engine, column, font, frame),
                       encoding="utf-8")
        dom = _run(["--window-size=%d,1000" % column, "--dump-dom", doc.as_uri()], tmp)
        m = re.search(r'<pre id="measured"[^>]*>(.*?)</pre>', dom, re.S)
        if m is None:
            raise RuntimeError("the page did not report its measurements")
        out = json.loads(html.unescape(m.group(1)))
        if png:
            width = max(column, int(out["page_width"]))
            height = int(out["height"]) + 16
            _run([f"--window-size={width},{height}", f"--screenshot={Path(png).resolve()}",
                  doc.as_uri()], tmp)
    return out


def measure_many(pages: list) -> list:
    """Measure several pages in one run of Chromium: each item holds the keyword
    arguments of :func:`measure` (``markdown``, and ``engine``, ``column``,
    ``font``), and each page is loaded in a frame of its own, as wide as its
    column and 1000 px high (the window :func:`measure` opens).  The measures
    are those of :func:`measure`, but ``page_width``, which is the frame's.
    """
    if chromium() is None:
        raise RuntimeError("chromium is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        frames = []
        for k, job in enumerate(pages):
            job = {"engine": "katex", "column": 720, "font": 16, **job}
            doc = tmp / f"page{k}.html"
            doc.write_text(page(markdown_html(job["markdown"], job["engine"]), job["engine"],
                                job["column"], job["font"]), encoding="utf-8")
            frames.append(f'<iframe src="{doc.as_uri()}#{k}" width="{job["column"]}" '
                          f'height="1000" style="display:block;border:0"></iframe>')
        index = tmp / "index.html"
        index.write_text(
            "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body style='margin:0'>"
            + "".join(frames) +
            "<script>const got = {}; window.addEventListener('message', (e) => {"
            " got[e.data.page.slice(1)] = e.data.out;"
            f" if (Object.keys(got).length === {len(pages)}) {{"
            "  const pre = document.createElement('pre'); pre.id = 'measured';"
            f"  pre.textContent = JSON.stringify([...Array({len(pages)}).keys()].map("
            "(k) => got[k])); document.body.appendChild(pre); } });</script></body></html>",
            encoding="utf-8")
        width = max([720] + [int(job.get("column", 720)) for job in pages])
        dom = _run([f"--window-size={width},1000", "--dump-dom", index.as_uri()], tmp,
                   timeout=60 + 30 * len(pages))
    m = re.search(r'<pre id="measured"[^>]*>(.*?)</pre>', dom, re.S)
    if m is None:
        raise RuntimeError("the pages did not all report their measurements")
    return json.loads(html.unescape(m.group(1)))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="a Markdown file; - reads standard input")
    p.add_argument("--engine", choices=("katex", "mathjax"), default="katex")
    p.add_argument("--column", type=int, default=720, help="column width in px (default 720)")
    p.add_argument("--font", type=int, default=16, help="body text size in px (default 16)")
    p.add_argument("--png", help="also write a picture of the whole page")
    p.add_argument("--frame", action="store_true",
                   help="draw the column's edge in the picture (a dashed line)")
    p.add_argument("--keep", default=None, metavar="K,L",
                   help="only these $$ blocks (numbered from 1), each with its sentence")
    p.add_argument("--summary", action="store_true",
                   help="print one line (height, widest display, overflowing displays)")
    args = p.parse_args(argv)
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    if args.keep:
        text = keep_displays(text, [int(k) for k in args.keep.split(",")])
    out = measure(text, engine=args.engine, column=args.column, font=args.font, png=args.png,
                  frame=args.frame)
    if args.summary:
        widest = max((d["width"] for d in out["displays"]), default=0)
        over = sum(d["over"] for d in out["displays"])
        print(f"{args.engine} {args.column}px: height {out['height']:.0f} px, "
              f"{len(out['displays'])} displays, widest {widest:.0f} px, {over} wider than "
              f"the column, column scroll width {out['column_scroll']} px, "
              f"{len(text)} characters, "
              f"errors {out['errors']}")
    else:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
