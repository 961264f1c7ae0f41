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


def _vecseq_options(options: dict):
    """A vector sequence takes ``width=`` (its matrix display) and ignores ``expand=``."""
    from .expand import check_expand
    check_expand(options.pop("expand", None))
    width = options.pop("width", None)
    if options:
        from ..errors import OptionError
        raise OptionError(f"unknown option(s) {', '.join(sorted(options))}; a vector "
                          f"sequence takes width= and expand=")
    return width


def to_latex(obj, lang: str = "en", **options) -> str:
    """``options``: ``parts=``, ``expand=``, ``width=`` (see :mod:`symrow.render.document`)."""
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .latex import vecseq_node
        from .layout import display
        from .layout import math_width
        return display(vecseq_node(obj), width=math_width(_vecseq_options(options)))
    from .document import to_latex as walk
    return walk(obj, lang, **options)


def to_markdown(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        _vecseq_options(options)
        return jupyter_markdown(obj)
    from .document import to_markdown as walk
    return walk(obj, lang, **options)


def to_text(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .text import vecseq_text
        _vecseq_options(options)
        return vecseq_text(obj)
    from .text import to_text as walk
    return walk(obj, lang, **options)


def to_document(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    if isinstance(obj, VecSeq):
        from .document import preamble
        return (preamble(lang) + "\\begin{document}\n" + to_latex(obj, lang, **options)
                + "\n\\end{document}\n")
    from .document import to_document as walk
    return walk(obj, lang, **options)


def to_beamer(obj, lang: str = "en", **options) -> str:
    obj = _selected(obj, options)
    from .beamer import shown, to_beamer as deck
    return deck(shown(obj, options.pop("expand", None), options.pop("width", None)), lang,
                **options)


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
