"""Narrated derivations as LaTeX fragments, Markdown and standalone documents.

Every output walks the same steps: a heading, or a narrating sentence
followed by its display.  Only the wrapping differs:

* :func:`to_latex`: paragraphs with ``$...$`` and ``align*`` displays;
* :func:`to_markdown`: paragraphs with ``$...$`` and ``$$\\begin{aligned}``
  blocks, for KaTeX sites (Zenn, Qiita) and Jupyter/MathJax;
* :func:`to_document`: a complete file, for the language's TeX engine
  (pdflatex for English, lualatex + luatexja for Japanese: see
  :mod:`symrow.narrate.languages`).
"""

from __future__ import annotations

import sympy

from ..narrate import check_lang, get_language, glued, segments
from .latex import latex
from .layout import display

__all__ = ["to_latex", "to_markdown", "to_document", "to_jupyter_latex"]

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                "%": r"\%", "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}

def tex_escape(words: str) -> str:
    """Escape LaTeX's special characters in running text."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in words)


#: how each renderer keeps a unit to its number ("3-dimensional", "n 個", "3個"):
#: LaTeX with amsmath's unbreakable dash, a tie, or no space and no break
#: (luatexja spaces "$3$個" as it does the templates' "3つ"); Markdown, where a
#: browser may break after any inline formula, writes a whole number as text
#: (a reader sees the same digits) and joins it with a non-breaking hyphen or
#: space, or a word joiner
_GLUE = {"latex": {"-": r"\nobreakdash-", " ": "~", "": "\\nobreak "},
         "markdown": {"-": "\u2011", " ": "\u00a0", "": "\u2060"}}


def _listed(pieces: list) -> list:
    """Math pieces separated by commas alone (``{Q}, {K}, {V}``) as one piece, a
    list: a browser may break a line after any inline formula, so that
    ``$Q$, $K$, $V$`` comes apart on a phone, where ``$Q, K, V$`` stays whole."""
    out: list = []
    for piece in pieces:
        kind, value, join = piece
        if (kind == "math" and len(out) > 1 and out[-1][:2] == ("text", ", ")
                and out[-1][2] is None and out[-2][0] == "math" and out[-2][2] is None
                and not _whole(value) and not _whole(out[-2][1][-1])):
            out.pop()
            out[-1] = ("math", out[-1][1] + (value,), join)
            continue
        out.append((kind, (value,) if kind == "math" else value, join))
    return out


def _whole(value) -> bool:
    return isinstance(value, (int, sympy.Integer)) and not isinstance(value, bool)


def sentence(step, lang: str, escape, mode: str = "latex", slide: bool = False) -> str:
    """A step's narration in ``lang``: words escaped by ``escape``, math in ``$``, units
    kept to their numbers as ``mode`` (``"latex"`` or ``"markdown"``) does it; in
    Markdown, a list of formulas is one formula (:func:`_listed`).  With ``slide``,
    the step's phrase on a slide, when it has one (:func:`symrow.narrate.slide_key`)."""
    glue = _GLUE[mode]
    pieces = [(kind, v, join) for kind, v, join in glued(segments(step, lang, slide), lang)]
    if mode == "markdown":
        pieces = _listed(pieces)
    else:
        pieces = [(kind, (v,) if kind == "math" else v, join) for kind, v, join in pieces]
    out = []
    for kind, v, join in pieces:
        if kind == "text":
            out.append(escape(v))
        elif mode == "markdown" and len(v) == 1 and _whole(v[0]):
            out.append(str(v[0]))
        else:
            out.append("$" + ", ".join(latex(item, fraction="slash") for item in v) + "$")
        if join is not None:
            out.append(glue[join])
    return "".join(out)


def shown_steps(derivation, expand=None, width=None) -> list:
    """The steps a LaTeX or Markdown rendering shows, for ``expand=`` at ``width``
    (see :mod:`symrow.render.expand` and :func:`symrow.render.layout.math_width`)."""
    from .expand import expanded_steps
    from .layout import math_width, walls
    ems = math_width(width)
    return expanded_steps(derivation.steps, expand, lambda node: walls(node, ems))


def _walk(derivation, lang: str, *, heading, paragraph, display,
          before_display: str = "\n\n", expand=None, width=None, figure=None) -> str:
    """Headings, sentences and displays, separated by blank lines; a display
    follows its sentence after ``before_display``; ``display(node, ems)``; a
    picture (a step of kind ``figure``, see :mod:`symrow.figures.place`) is
    ``figure(step)``, or its caption alone."""
    check_lang(lang)
    from .layout import math_width
    ems = math_width(width)
    parts: list[str] = []
    for step in shown_steps(derivation, expand, width):
        if step.kind == "heading":
            parts.append(heading(step))
            continue
        if step.kind == "figure" and figure is not None:
            parts.append(figure(step))
            continue
        part = paragraph(step)
        if step.display is not None:
            part += before_display + display(step.display, ems)
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


_OPTIONS = """
    ``expand`` (``"all"``, ``"one"``, ``"none"``, or None: see
    :mod:`symrow.render.expand`) says how much of a written-out expansion to
    show; ``width`` (ems, or a string such as ``"18em"``, ``"45ch"`` or
    ``"phone"``: see :func:`symrow.render.layout.math_width`) how wide a
    display line may be."""


def to_latex(derivation, lang: str = "en", *, expand=None, width=None) -> str:
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
        display=lambda node, ems: display(node, "align*", ems), before_display="\n",
        expand=expand, width=width, figure=lambda s: _tex_figure(s, lang))


def _tex_figure(step, lang: str) -> str:
    """A picture at its step: its TikZ, centred, and its caption below it, small (not a
    float: it stays at its step).  Needs ``\\usepackage{tikz}`` (see
    :func:`extra_preamble`)."""
    picture = step.params["figure"].to_tikz(lang)
    return ("\\begin{center}\n%s\\end{center}\n{\\small %s\\par}"
            % (picture, figure_caption(step, lang, tex_escape)))


def figure_caption(step, lang: str, escape, mode: str = "latex") -> str:
    """A picture's caption: its sentence, and, on the first picture drawn with example
    numbers, the sentence that says so."""
    words = sentence(step, lang, escape, mode)
    if step.params.get("note"):
        from ..steps import Step
        words += " " + sentence(Step("figure_example", {}), lang, escape, mode)
    return words


def extra_preamble(obj) -> str:
    """What a document of ``obj`` needs beyond :func:`preamble`: TikZ, for pictures."""
    if any(s.kind == "figure" for s in getattr(obj, "steps", ())):
        return "\\usepackage{tikz}\n"
    return ""


def _md_escape(words: str) -> str:
    return "".join("\\" + ch if ch in "*_`[]<>|\\" else ch for ch in words)


def to_markdown(derivation, lang: str = "en", *, expand=None, width=None) -> str:
    """Markdown: narration as text, inline math in ``$``, displays in ``$$`` blocks; a
    picture as an image beside the page (its file named by the step), or inline."""
    return _walk(
        derivation, lang,
        heading=lambda s: "#" * (s.params.get("level", 2) + 1) + " " + heading_number(s)
        + sentence(s, lang, _md_escape, "markdown"),
        paragraph=lambda s: sentence(s, lang, _md_escape, "markdown"),
        # (a web page is read on a screen, not projected: a score over its scale in
        # an exponential stays a \frac, so that KaTeX's lines stay low)
        display=lambda node, ems: "$$\n" + display(node, "aligned", ems, exp_fraction="text")
        + "\n$$",
        expand=expand, width=width, figure=lambda s: _md_figure(s, lang))


def _md_figure(step, lang: str) -> str:
    """A picture in Markdown: ``![alt](file)`` (or an inline data URI, for Jupyter),
    then its caption, whose math KaTeX and MathJax set."""
    fig = step.params["figure"]
    alt = fig.alt(lang).replace("[", "(").replace("]", ")")
    if step.params.get("images") == "inline":
        src = fig.data_uri(lang)
    else:
        src = step.params["file"]
    return f"![{alt}]({src})\n\n" + figure_caption(step, lang, _md_escape, "markdown")


def to_jupyter_latex(derivation, lang: str = "en", *, expand=None, width=None) -> str:
    """The ``text/latex`` form shown by Jupyter (MathJax reads ``$`` and ``$$``)."""
    return _walk(
        derivation, lang,
        heading=lambda s: heading_number(s) + sentence(s, lang, str, "markdown"),
        paragraph=lambda s: sentence(s, lang, str, "markdown"),
        display=lambda node, ems: "$$" + display(node, "aligned", ems, exp_fraction="text")
        + "$$",
        expand=expand, width=width)


def preamble(lang: str) -> str:
    """The preamble of a standalone document in ``lang``: A4, 11 pt, in the
    language's document class, with what the language needs after amsmath.

    >>> print(preamble("ja").splitlines()[0])
    \\documentclass[11pt,a4paper]{ltjsarticle}
    """
    language = get_language(lang)
    return ("\\documentclass[11pt,a4paper]{%s}\n" % language.document_class
            + "\\usepackage[a4paper,margin=20mm]{geometry}\n\\usepackage{amsmath,amssymb}\n"
            + language.preamble
            + "\\allowdisplaybreaks\n\\setlength{\\parindent}{0pt}\n"
              "\\setlength{\\parskip}{0.6em}\n")


def to_document(derivation, lang: str = "en", title: str | None = None, *, expand=None,
                width=None) -> str:
    """A complete LaTeX document, for the language's TeX engine.

    ``title`` is LaTeX (default: the derivation's own title in ``lang``).
    """
    check_lang(lang)
    title = title or getattr(derivation, "title", {}).get(lang) or tex_escape(derivation.kind)
    return (preamble(lang) + extra_preamble(derivation)
            + "\\begin{document}\n\\section*{%s}\n\n" % title
            + to_latex(derivation, lang, expand=expand, width=width) + "\\end{document}\n")


for _f in (to_latex, to_markdown, to_jupyter_latex, to_document):
    if _f.__doc__:  # (not under python -OO)
        _f.__doc__ += _OPTIONS
