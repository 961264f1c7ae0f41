"""A band of a PDF page around the first line that contains some words, as a PNG.
Needs pdftotext and pdftoppm (poppler-utils) only.
usage: pdf_crop.py file.pdf "words to find" out.png [lines_above] [lines_below] [dpi]
The band runs from ``lines_above`` text lines above the match to ``lines_below``
below it (each line taken as 14 pt), the page's full width; out.png is written
as given (pdftoppm's own suffix is removed)."""
import os, re, subprocess, sys, tempfile, html

pdf, words, out = sys.argv[1], sys.argv[2], sys.argv[3]
above = float(sys.argv[4]) if len(sys.argv) > 4 else 3
below = float(sys.argv[5]) if len(sys.argv) > 5 else 6
dpi = int(sys.argv[6]) if len(sys.argv) > 6 else 80
xml = subprocess.run(["pdftotext", "-bbox-layout", pdf, "-"], capture_output=True,
                     text=True, check=True).stdout
target = words.split()
for pno, page in enumerate(re.findall(r"<page .*?</page>", xml, re.S), 1):
    width, height = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', page).groups())
    for line in re.findall(r"<line\b.*?</line>", page, re.S):
        ws = re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</word>', line)
        text = " ".join(html.unescape(w[2]) for w in ws)
        if " ".join(target) in text:
            y0 = max(0.0, float(ws[0][0]) - above * 14)
            y1 = min(height, float(ws[0][1]) + below * 14)
            k = dpi / 72
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(pno), "-l", str(pno),
                                "-x", "0", "-y", str(int(y0 * k)), "-W", str(int(width * k)),
                                "-H", str(int((y1 - y0) * k)), "-singlefile", pdf,
                                os.path.join(tmp, "p")], check=True)
                os.replace(os.path.join(tmp, "p.png"), out)
            print(f"{out}: page {pno}, y {y0:.0f}-{y1:.0f} pt")
            sys.exit(0)
sys.exit(f"{words!r} not found in {pdf}")
