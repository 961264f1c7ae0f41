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
    ``__str__`` and the Jupyter ``_repr_*_`` methods, all imported lazily.

    Every ``to_*`` method takes ``figures=True`` (a picture at each reading's step, see
    :mod:`symrow.figures.place`; for Markdown ``figures="svg"``, ``"png"`` or
    ``"inline"`` says how the pictures are linked) and ``axes=(i, j)``, the two
    coordinates drawn of points with more than two."""

    __slots__ = ()

    def _figured(self, options: dict):
        figures = options.pop("figures", None)
        axes = options.pop("axes", None)
        if not figures:
            if axes is not None:
                from .errors import OptionError
                raise OptionError("axes= chooses the coordinates of the pictures; it goes "
                                  "with figures=True")
            return self
        from .figures.place import with_figures
        return with_figures(self, axes=axes,
                            images=figures if isinstance(figures, str) else "svg")

    def figure(self, of=None, **options):
        """A picture of a reading of this derivation (see :func:`symrow.figure`)."""
        from .figures import figure
        return figure(self, of, **options)

    def with_figures(self, **options):
        """The same steps with a picture after each reading (see
        :func:`symrow.figures.place.with_figures`); in Jupyter it shows the pictures
        inline, in the same cell."""
        from .figures.place import with_figures
        options.setdefault("images", "inline")
        return with_figures(self, **options)

    def to_latex(self, lang: str = "en", **options) -> str:
        """A LaTeX fragment (amsmath, ``align*``)."""
        from .render import bridge
        return bridge.to_latex(self._figured(options), lang, **options)

    def to_markdown(self, lang: str = "en", **options) -> str:
        """Markdown with ``$`` and ``$$`` math, for KaTeX sites and Jupyter."""
        from .render import bridge
        return bridge.to_markdown(self._figured(options), lang, **options)

    def to_text(self, lang: str = "en", **options) -> str:
        """Unicode text for a terminal."""
        from .render import bridge
        return bridge.to_text(self._figured(options), lang, **options)

    def to_document(self, lang: str = "en", **options) -> str:
        """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``."""
        from .render import bridge
        return bridge.to_document(self._figured(options), lang, **options)

    def to_beamer(self, lang: str = "en", **options) -> str:
        """Slides: a complete Beamer document, one frame per step or small group of
        steps (pdflatex for ``en``, lualatex + luatexja for ``ja``).

        Chains are revealed line by line; a display too tall for a frame goes
        on over "(cont.)" frames.  ``parts=`` selects parts, as for documents.
        ``title=``, ``subtitle=``, ``author=``, ``date=`` and ``course=`` (LaTeX)
        fill the title frame (see :func:`symrow.render.beamer.to_beamer`).
        """
        from .render import bridge
        return bridge.to_beamer(self._figured(options), lang, **options)

    def to_pdf(self, lang: str = "en", *, slides: bool = False, **options) -> bytes:
        """The document (or, with ``slides=True``, the Beamer deck) compiled to PDF:
        pdflatex for ``en``, lualatex for ``ja``.

        Raises :class:`symrow.RenderError` naming the missing engine or
        package, or quoting TeX's first error.
        """
        from .render.pdf import compile_pdf
        target = self._figured(options)
        source = target.to_beamer(lang, **options) if slides else \
            target.to_document(lang, **options)
        return compile_pdf(source, lang)

    def _repr_latex_(self) -> str:
        from .render import bridge
        return bridge.jupyter_latex(self)

    def _repr_markdown_(self) -> str:
        from .render import bridge
        return bridge.jupyter_markdown(self)

    def __str__(self) -> str:
        return self.to_text("en")
