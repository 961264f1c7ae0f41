"""The one bridge from model objects to the printers: a lazy mixin.

Derivations, vector sequences and the handout display themselves in every
output format, but the model never imports a renderer at module level: the
methods of :class:`Printable` import :mod:`symrow.render` when first called.
So ``import symrow.seq`` loads no printer, and a renderer may import the
model freely (as SymPy's own ``Printable`` mixin keeps its printers apart).

A class says how it renders by overriding the ``_render_*`` hooks; the
public methods validate the language and dispatch.
"""

from __future__ import annotations

__all__ = ["Printable"]


class Printable:
    """Mixin: ``to_latex``, ``to_markdown``, ``to_text``, ``to_document``, ``to_pdf``,
    ``__str__`` and the Jupyter ``_repr_*_`` methods, all imported lazily."""

    __slots__ = ()

    def to_latex(self, lang: str = "en", **options) -> str:
        """A LaTeX fragment (amsmath, ``align*``)."""
        from .render.document import to_latex
        return to_latex(self, lang, **options)

    def to_markdown(self, lang: str = "en", **options) -> str:
        """Markdown with ``$`` and ``$$`` math, for KaTeX sites and Jupyter."""
        from .render.document import to_markdown
        return to_markdown(self, lang, **options)

    def to_text(self, lang: str = "en", **options) -> str:
        """Unicode text for a terminal."""
        from .render.text import to_text
        return to_text(self, lang, **options)

    def to_document(self, lang: str = "en", **options) -> str:
        """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``."""
        from .render.document import to_document
        return to_document(self, lang, **options)

    def to_pdf(self, lang: str = "en", **options) -> bytes:
        """The document compiled to PDF (pdflatex for ``en``, lualatex for ``ja``).

        Raises :class:`symrow.RenderError` naming the missing engine or
        package, or quoting TeX's first error.
        """
        from .render.pdf import compile_pdf
        return compile_pdf(self.to_document(lang, **options), lang)

    def _repr_latex_(self) -> str:
        from .render.document import to_jupyter_latex
        return to_jupyter_latex(self, "en")

    def _repr_markdown_(self) -> str:
        return self.to_markdown("en")

    def __str__(self) -> str:
        return self.to_text("en")
