"""The full handout on the mathematics of attention, in both languages.

The same as `symrow handout --lang en -o handout_en.pdf` (and ja), from Python.
Run it:  python examples/handout.py [OUTPUT_FOLDER]   (default: out/)
"""

import sys
from pathlib import Path

import symrow
from symrow.handout import handout
from symrow.outfile import write_atomic

out = Path(sys.argv[1] if len(sys.argv) > 1 else "out")
out.mkdir(parents=True, exist_ok=True)

h = handout()
print(repr(h))  # <Handout: ... sections, ... steps>
for lang in ("en", "ja"):
    write_atomic(out / f"handout_{lang}.md", h.to_markdown(lang))
    try:
        write_atomic(out / f"handout_{lang}.pdf", h.to_pdf(lang))
    except symrow.RenderError as err:
        print(f"no PDF for {lang}: {err}")

print("wrote", ", ".join(sorted(p.name for p in out.iterdir())))
