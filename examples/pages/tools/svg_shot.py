"""A picture of an SVG as a browser shows it beside a page: headless Chromium, a
column of the given width (the SVG shrinks to it, as on a phone), with a Japanese
font where the system has none (tests/browser_pages.py).  Needs chromium.
usage: svg_shot.py figure.svg out.png column_px height_px"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
import browser_pages as B  # noqa: E402

src, out, column, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    doc = tmp / "figure.html"
    doc.write_text('<!doctype html><meta charset="utf-8"><body style="margin:8px;background:'
                   f'#fff"><div style="max-width:{column - 16}px">'
                   + Path(src).read_text(encoding="utf-8") + "</div></body>", encoding="utf-8")
    B._run([f"--window-size={column},{height}", f"--screenshot={Path(out).resolve()}",
            doc.as_uri()], tmp)
print(out)
