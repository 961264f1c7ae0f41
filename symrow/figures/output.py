"""Writing pictures: by format, and PNG from PDF.

PNG is made from the picture's own PDF (its TikZ, compiled by the language's
TeX engine) by poppler's ``pdftoppm``, which the PDF tools of symrow already
need: the PNG is the same picture as the PDF, in the document's fonts, with
no new dependency (no Cairo, no browser).  Without TeX or poppler it is a
:class:`~symrow.RenderError` that names what to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import RenderError

__all__ = ["FIGURE_SUFFIXES", "FIGURE_FORMATS", "render_figure", "pdf_to_png"]

#: what ``symrow figure -o FILE`` writes for each suffix
FIGURE_SUFFIXES = {".svg": "svg", ".tex": "tex", ".tikz": "tikz", ".pdf": "pdf", ".png": "png"}
#: the formats of a picture: SVG, a LaTeX document, a tikzpicture alone, PDF, PNG
FIGURE_FORMATS = ("svg", "tex", "tikz", "pdf", "png")


def render_figure(fig, fmt: str, lang: str = "en", *, dpi: int = 200) -> str | bytes:
    """``fig`` in ``fmt`` (one of :data:`FIGURE_FORMATS`)."""
    if fmt == "svg":
        return fig.to_svg(lang)
    if fmt == "tex":
        return fig.to_document(lang)
    if fmt == "tikz":
        return fig.to_tikz(lang)
    if fmt == "pdf":
        return fig.to_pdf(lang)
    if fmt == "png":
        return fig.to_png(lang, dpi)
    from ..errors import OptionError
    raise OptionError(f"a picture's format is one of {', '.join(FIGURE_FORMATS)}; got {fmt!r}")


def pdf_to_png(pdf: bytes, dpi: int = 200) -> bytes:
    """The first page of ``pdf`` as PNG at ``dpi``, by ``pdftoppm`` (poppler-utils)."""
    tool = shutil.which("pdftoppm")
    if tool is None:
        raise RenderError("PNG needs pdftoppm, which is not installed; install it with: "
                          "apt-get install poppler-utils (or write -o FILE.svg)")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "figure.pdf"
        src.write_bytes(pdf)
        proc = subprocess.run([tool, "-png", "-r", str(int(dpi)), "-singlefile", str(src),
                               str(Path(tmp) / "figure")], capture_output=True, timeout=120,
                              env={**os.environ})
        out = Path(tmp) / "figure.png"
        if proc.returncode != 0 or not out.exists():
            message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RenderError(f"pdftoppm failed: {message[0] if message else proc.returncode}")
        return out.read_bytes()
