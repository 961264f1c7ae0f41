"""Compiling a standalone document to PDF with a real TeX engine.

Each language names its engine (:mod:`symrow.narrate.languages`): English
documents are compiled with ``pdflatex``; Japanese ones with ``lualatex``
and luatexja (pdflatex cannot set Japanese).  The engine runs
in a temporary folder with ``-interaction=nonstopmode -halt-on-error
-no-shell-escape`` and a timeout; nothing is left behind.

Every failure is a :class:`symrow.RenderError` with a one-line message: a
missing engine or LaTeX package is named, and a TeX error quotes the first
``!`` line of the log.

>>> from symrow.render.pdf import engine_for
>>> engine_for("en"), engine_for("ja")
('pdflatex', 'lualatex')
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import RenderError
from ..narrate import get_language

__all__ = ["compile_pdf", "engine_for", "INSTALL_HINT"]

#: how to install what the engines need, on Debian and Ubuntu (slides need
#: beamer, in texlive-latex-recommended, and pgf, in texlive-pictures)
INSTALL_HINT = ("install it with: apt-get install texlive-latex-base texlive-latex-recommended "
                "texlive-luatex texlive-lang-japanese texlive-pictures")

#: the Debian package that ships a LaTeX file, by the start of its name
DEBIAN_PACKAGES = (("pgf", "texlive-pictures"), ("tikz", "texlive-pictures"),
                   ("beamer", "texlive-latex-recommended"),
                   ("luatexja", "texlive-lang-japanese"), ("ltj", "texlive-lang-japanese"))

#: seconds one engine run may take; the first lualatex run builds a font cache (~8 s)
TIMEOUT = 180

_MISSING_FILE = re.compile(r"^! LaTeX Error: File `([^']+)' not found", re.M)
_MISSING_GLYPH = re.compile(r"^Missing character: There is no (.+?) in font ([^!\n]+)", re.M)


def engine_for(lang: str) -> str:
    """The TeX engine that compiles documents in ``lang``."""
    return get_language(lang).engine


def _first_error(log: str) -> str:
    """The first ``!`` line of a TeX log, with its ``l.N`` location when there is one."""
    lines = log.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("!"):
            message = line[1:].strip()
            for follow in lines[k + 1:k + 12]:
                at = re.match(r"^(l\.\d+) ?(.*)", follow)
                if at:
                    near = at.group(2).strip()[-60:]
                    message += f" (at {at.group(1)}" + (f": {near})" if near else ")")
                    break
            return message
    return ""


def _explain(engine: str, log: str, returncode: int) -> str:
    missing = _MISSING_FILE.search(log)
    if missing:
        name = missing.group(1)
        debian = next((pkg for start, pkg in DEBIAN_PACKAGES if name.startswith(start)), None)
        hint = f"install it with: apt-get install {debian}" if debian else INSTALL_HINT
        kind = {"sty": "package", "cls": "class"}.get(name.rsplit(".", 1)[-1])
        return (f"{engine} cannot find the LaTeX file {name}"
                f"{f' ({kind} ' + name.rsplit('.', 1)[0] + ')' if kind else ''}; {hint}")
    glyph = _MISSING_GLYPH.search(log)
    if glyph:
        return (f"{engine}: the font {glyph.group(2).strip()} has no glyph for "
                f"{glyph.group(1).strip()}")
    first = _first_error(log)
    if first:
        return f"{engine} failed: {first}"
    return f"{engine} failed with exit code {returncode} and no error in its log"


def compile_pdf(source: str, lang: str = "en", *, timeout: float = TIMEOUT,
                engine: str | None = None) -> bytes:
    """Compile a complete LaTeX document; return the PDF's bytes.

    ``engine`` defaults to :func:`engine_for(lang) <engine_for>`.  Raises
    :class:`symrow.RenderError` when the engine is missing, a package is
    missing, TeX reports an error, or the run takes longer than ``timeout``
    seconds.
    """
    engine = engine or engine_for(lang)
    exe = shutil.which(engine)
    if exe is None:
        raise RenderError(f"the TeX engine {engine} is not installed; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="symrow-tex-") as tmp:
        folder = Path(tmp)
        (folder / "doc.tex").write_text(source, encoding="utf-8")
        env = {**os.environ, "max_print_line": "1000"}  # unwrapped log lines
        try:
            proc = subprocess.run(
                [exe, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                 "doc.tex"],
                cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise RenderError(f"{engine} took longer than {timeout:g} s and was stopped") from None
        except OSError as err:
            raise RenderError(f"cannot run {engine}: {err.strerror or err}") from None
        log_path = folder / "doc.log"
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() \
            else proc.stdout.decode("utf-8", errors="replace")
        pdf = folder / "doc.pdf"
        if proc.returncode != 0 or not pdf.exists():
            raise RenderError(_explain(engine, log, proc.returncode))
        glyph = _MISSING_GLYPH.search(log)
        if glyph:  # \tracinglostchars=3 makes this an error; older engines only log it
            raise RenderError(_explain(engine, log, proc.returncode))
        return pdf.read_bytes()
