"""Contact sheet of a Beamer deck: every frame once (beamer handout mode), tiled.
Needs Pillow (not a symrow dependency: use any venv with pillow), pdflatex or
lualatex, and pdftoppm.  usage: deck_sheet.py deck.tex out.png [cols] [dpi] [first-last]"""
import os, subprocess, sys, tempfile, glob
from PIL import Image, ImageDraw
src, out = sys.argv[1], sys.argv[2]
cols = int(sys.argv[3]) if len(sys.argv) > 3 else 4
dpi = sys.argv[4] if len(sys.argv) > 4 else "36"
rng = sys.argv[5] if len(sys.argv) > 5 else None
tex = open(src, encoding="utf-8").read().replace("\\documentclass[", "\\documentclass[handout,", 1)
engine = "lualatex" if "luatexja" in tex else "pdflatex"
with tempfile.TemporaryDirectory() as tmp:
    open(os.path.join(tmp, "d.tex"), "w", encoding="utf-8").write(tex)
    subprocess.run([engine, "-interaction=nonstopmode", "d.tex"], cwd=tmp, capture_output=True)
    args = ["pdftoppm", "-r", dpi, "-png"]
    if rng:
        a, b = rng.split("-"); args += ["-f", a, "-l", b]
    subprocess.run(args + ["d.pdf", "p"], cwd=tmp, check=True)
    pages = sorted(glob.glob(os.path.join(tmp, "p-*.png")))
    ims = [Image.open(p).convert("RGB") for p in pages]
    w, h = ims[0].size
    pad = 6
    rows = (len(ims) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (w + pad) + pad, rows * (h + pad) + pad), (120, 120, 120))
    d = ImageDraw.Draw(sheet)
    for k, im in enumerate(ims):
        x, y = pad + (k % cols) * (w + pad), pad + (k // cols) * (h + pad)
        sheet.paste(im, (x, y))
        d.rectangle([x, y, x + 18, y + 11], fill=(200, 0, 0))
        d.text((x + 2, y), str(int(os.path.basename(pages[k])[2:-4])), fill=(255, 255, 255))
    sheet.save(out, optimize=True)
    print(out, len(ims), "frames", sheet.size)
