"""Lecture notes from one derivation: Markdown (Zenn, Qiita, Jupyter), LaTeX and PDF,
in English and Japanese.

Run it:  python examples/lecture_notes.py [OUTPUT_FOLDER]   (default: out/)
"""

import sys
from pathlib import Path

import symrow
from symrow.outfile import write_atomic

out = Path(sys.argv[1] if len(sys.argv) > 1 else "out")
out.mkdir(parents=True, exist_ok=True)

# softmax(QK^T / sqrt(d)) V for 2 queries, 3 keys, dimension 2
d = symrow.attention(2, 3, 2)

for lang in ("en", "ja"):
    write_atomic(out / f"attention_{lang}.md", d.to_markdown(lang))   # $$ blocks
    write_atomic(out / f"attention_{lang}.tex", d.to_document(lang))  # a complete .tex
    try:
        # pdflatex for English, lualatex + luatexja for Japanese
        write_atomic(out / f"attention_{lang}.pdf", d.to_pdf(lang))
    except symrow.RenderError as err:  # no TeX installed: say so, keep the rest
        print(f"no PDF for {lang}: {err}")

print("wrote", ", ".join(sorted(p.name for p in out.iterdir())))
