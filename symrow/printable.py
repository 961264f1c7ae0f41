"""The one bridge from model objects to the printers: a lazy mixin.

Derivations, vector sequences and the handout display themselves in every
output format, but the model never imports a renderer: the methods of
:class:`Printable` import :mod:`symrow.render` when first called (as SymPy's
own ``Printable`` mixin keeps its printers apart from its expressions).  So
``import symrow.seq`` loads no printer, and a renderer may import the model
freely.

>>> import symrow
>>> print(symrow.vecseq("A", 1, 2))
A = [a₁₁  a₁₂]
>>> print(symrow.vecseq("A", 1, 2)._repr_markdown_())
$$
A = \\begin{bmatrix}
a_{11} & a_{12}
\\end{bmatrix}
$$
"""

from __future__ import annotations

__all__ = ["Printable"]


class Printable:
    """Mixin: ``to_latex``, ``to_markdown``, ``to_text``, ``to_document``, ``to_beamer``,
    ``to_pdf``,
    ``__str__`` and the Jupyter ``_repr_*_`` methods, all imported lazily."""

    __slots__ = ()

    def to_latex(self, lang: str = "en", **options) -> str:
        """A LaTeX fragment (amsmath, ``align*``)."""
        from .render import bridge
        return bridge.to_latex(self, lang, **options)

    def to_markdown(self, lang: str = "en", **options) -> str:
        """Markdown with ``$`` and ``$$`` math, for KaTeX sites and Jupyter."""
        from .render import bridge
        return bridge.to_markdown(self, lang, **options)

    def to_text(self, lang: str = "en", **options) -> str:
        """Unicode text for a terminal."""
        from .render import bridge
        return bridge.to_text(self, lang, **options)

    def to_document(self, lang: str = "en", **options) -> str:
        """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``."""
        from .render import bridge
        return bridge.to_document(self, lang, **options)

    def to_beamer(self, lang: str = "en", **options) -> str:
        """Slides: a complete Beamer document, one frame per step or small group of
        steps (pdflatex for ``en``, lualatex + luatexja for ``ja``).

        Chains are revealed line by line; a display too tall for a frame goes
        on over "(cont.)" frames.  ``parts=`` selects parts, as for documents.
        """
        from .render import bridge
        return bridge.to_beamer(self, lang, **options)

    def to_pdf(self, lang: str = "en", *, slides: bool = False, **options) -> bytes:
        """The document (or, with ``slides=True``, the Beamer deck) compiled to PDF:
        pdflatex for ``en``, lualatex for ``ja``.

        Raises :class:`symrow.RenderError` naming the missing engine or
        package, or quoting TeX's first error.
        """
        from .render.pdf import compile_pdf
        source = self.to_beamer(lang, **options) if slides else self.to_document(lang, **options)
        return compile_pdf(source, lang)

    def _repr_latex_(self) -> str:
        from .render import bridge
        return bridge.jupyter_latex(self)

    def _repr_markdown_(self) -> str:
        from .render import bridge
        return bridge.jupyter_markdown(self)

    def __str__(self) -> str:
        return self.to_text("en")
