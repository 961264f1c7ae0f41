"""A picture of a Markdown page in headless Chromium with KaTeX, at a given
window size (tests/browser_pages.py sizes its picture to the page's measured
height, which can leave out a display set after the measurement).
Needs chromium and KaTeX in tests/node_modules (make renderers).
usage: md_shot.py page.md out.png column_px height_px"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
import browser_pages as B  # noqa: E402

src, out, column, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
text = Path(src).read_text(encoding="utf-8")
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    doc = tmp / "page.html"
    doc.write_text(B.page(B.markdown_html(text, "katex"), "katex", column, 16), encoding="utf-8")
    B._run([f"--window-size={column},{height}", f"--screenshot={Path(out).resolve()}",
            doc.as_uri()], tmp)
print(out)
