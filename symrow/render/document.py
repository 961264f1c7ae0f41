"""Narrated derivations as LaTeX fragments, Markdown and standalone documents.

Every output walks the same steps: a heading, or a narrating sentence
followed by its display.  Only the wrapping differs:

* :func:`to_latex`: paragraphs with ``$...$`` and ``align*`` displays;
* :func:`to_markdown`: paragraphs with ``$...$`` and ``$$\\begin{aligned}``
  blocks, for KaTeX sites (Zenn, Qiita) and Jupyter/MathJax;
* :func:`to_document`: a complete file, for pdflatex (en) or lualatex +
  luatexja (ja).
"""

from __future__ import annotations

from ..narrate import check_lang, segments
from .latex import display, latex

__all__ = ["to_latex", "to_markdown", "to_document", "to_jupyter_latex"]

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                "%": r"\%", "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}

def tex_escape(words: str) -> str:
    """Escape LaTeX's special characters in running text."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in words)


def sentence(step, lang: str, escape) -> str:
    """A step's narration in ``lang``: words escaped by ``escape``, math in ``$``."""
    return "".join(escape(v) if kind == "text" else "$" + latex(v) + "$"
                   for kind, v in segments(step, lang))


def _walk(derivation, lang: str, *, heading, paragraph, display,
          before_display: str = "\n\n") -> str:
    """Headings, sentences and displays, separated by blank lines; a display
    follows its sentence after ``before_display``."""
    check_lang(lang)
    parts: list[str] = []
    for step in derivation.steps:
        if step.kind == "heading":
            parts.append(heading(step))
            continue
        part = paragraph(step)
        if step.display is not None:
            part += before_display + display(step.display)
        parts.append(part)
    return "\n\n".join(parts) + "\n"


def heading_number(step) -> str:
    """The number a heading shows before its words (``"3.2 "``), or ``""``."""
    number = step.params.get("number")
    return f"{number} " if number else ""


_TEX_HEADINGS = {1: "section*", 2: "subsection*", 3: "subsubsection*"}


def _tex_heading(step, lang: str) -> str:
    number = step.params.get("number")
    words = sentence(step, lang, tex_escape)
    return "\\%s{%s%s}" % (_TEX_HEADINGS[step.params.get("level", 2)],
                            f"{number}\\quad " if number else "", words)


def to_latex(derivation, lang: str = "en") -> str:
    """A LaTeX fragment (amsmath): ``\\subsection*`` headings, sentences, ``align*``.

    A heading step may carry ``level`` (1 section, 2 subsection, the
    default, 3 subsubsection) and ``number`` (shown before its words).
    Each display starts on the line right after its sentence: an
    ``align*`` after a blank line would open an empty paragraph first,
    which shows as a gap of one line.
    """
    return _walk(
        derivation, lang,
        heading=lambda s: _tex_heading(s, lang),
        paragraph=lambda s: sentence(s, lang, tex_escape),
        display=display, before_display="\n")


def _md_escape(words: str) -> str:
    return "".join("\\" + ch if ch in "*_`[]<>|\\" else ch for ch in words)


def to_markdown(derivation, lang: str = "en") -> str:
    """Markdown: narration as text, inline math in ``$``, displays in ``$$`` blocks."""
    return _walk(
        derivation, lang,
        heading=lambda s: "#" * (s.params.get("level", 2) + 1) + " " + heading_number(s)
        + sentence(s, lang, _md_escape),
        paragraph=lambda s: sentence(s, lang, _md_escape),
        display=lambda node: "$$\n" + display(node, "aligned") + "\n$$")


def to_jupyter_latex(derivation, lang: str = "en") -> str:
    """The ``text/latex`` form shown by Jupyter (MathJax reads ``$`` and ``$$``)."""
    return _walk(
        derivation, lang,
        heading=lambda s: heading_number(s) + sentence(s, lang, str),
        paragraph=lambda s: sentence(s, lang, str),
        display=lambda node: "$$" + display(node, "aligned") + "$$")


_PREAMBLE = {
    "en": (r"\documentclass[11pt,a4paper]{article}" "\n"
           r"\usepackage[a4paper,margin=20mm]{geometry}" "\n"
           r"\usepackage{amsmath,amssymb}" "\n"),
    "ja": (r"\documentclass[11pt,a4paper]{ltjsarticle}" "\n"
           r"\usepackage[a4paper,margin=20mm]{geometry}" "\n"
           r"\usepackage{amsmath,amssymb}" "\n"
           r"\tracinglostchars=3" "\n"),
}


def preamble(lang: str) -> str:
    """The preamble of a standalone document in ``lang``."""
    return _PREAMBLE[check_lang(lang)] + "\\allowdisplaybreaks\n\\setlength{\\parindent}{0pt}\n" \
        "\\setlength{\\parskip}{0.6em}\n"


def to_document(derivation, lang: str = "en", title: str | None = None) -> str:
    """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``.

    ``title`` is LaTeX (default: the derivation's own title in ``lang``).
    """
    check_lang(lang)
    title = title or getattr(derivation, "title", {}).get(lang) or tex_escape(derivation.kind)
    return (preamble(lang) + "\\begin{document}\n\\section*{%s}\n\n" % title
            + to_latex(derivation, lang) + "\\end{document}\n")
