"""What :class:`symrow.printable.Printable` calls: each model object in each format.

A vector sequence shows as ``A = [entries]``; anything with ``steps`` (a
derivation, a selection of its parts, the handout) as narrated steps.
"""

from __future__ import annotations

from ..seq import VecSeq

__all__ = ["to_latex", "to_markdown", "to_text", "to_document", "to_beamer",
           "jupyter_latex", "jupyter_markdown"]


def _selected(obj, options: dict):
    """``parts=[...]``: only those parts of a derivation (see Derivation.select)."""
    parts = options.pop("parts", None)
    return obj.select(parts) if parts else obj


def to_latex(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .latex import display, vecseq_node
        return display(vecseq_node(obj))
    from .document import to_latex as walk
    return walk(obj, lang, **options)


def to_markdown(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        return jupyter_markdown(obj)
    from .document import to_markdown as walk
    return walk(obj, lang, **options)


def to_text(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .text import vecseq_text
        return vecseq_text(obj)
    from .text import to_text as walk
    return walk(obj, lang, **options)


def to_document(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .document import preamble
        return (preamble(lang) + "\\begin{document}\n" + to_latex(obj, lang)
                + "\n\\end{document}\n")
    from .document import to_document as walk
    return walk(obj, lang, **options)


def to_beamer(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    from .beamer import to_beamer as deck
    return deck(obj, lang, **options)


def jupyter_latex(obj) -> str:
    if isinstance(obj, VecSeq):
        from .latex import vecseq_display
        return "$\\displaystyle " + vecseq_display(obj) + "$"
    from .document import to_jupyter_latex
    return to_jupyter_latex(obj, "en")


def jupyter_markdown(obj) -> str:
    if isinstance(obj, VecSeq):
        from .latex import vecseq_display
        return "$$\n" + vecseq_display(obj) + "\n$$"
    return to_markdown(obj, "en")
