"""Derivations as data: an ordered list of language-neutral steps.

A :class:`Step` records *what* is shown (a step kind, its parameters and the
display), never *how it is said*: the narration lives in per-language
templates (:mod:`symrow.narrate`), and printers turn the displays into
LaTeX, Markdown or text.  Derivations are built by :func:`symrow.combine`,
:func:`symrow.match` and :func:`symrow.attention`.

>>> import symrow
>>> d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
>>> [s.kind for s in d.steps][:4]
['heading', 'entries', 'stack', 'points']
>>> d.result
Matrix([
[a_{11}*b_{11} + a_{12}*b_{21} + a_{13}*b_{31}, a_{11}*b_{12} + a_{12}*b_{22} + a_{13}*b_{32}],
[a_{21}*b_{11} + a_{22}*b_{21} + a_{23}*b_{31}, a_{21}*b_{12} + a_{22}*b_{22} + a_{23}*b_{32}]])
>>> sorted(d.operands)
['A', 'B']
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["Step", "Derivation", "LANGS"]

#: the narration languages
LANGS = ("en", "ja")


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a derivation.

    * ``kind``: what the step does, e.g. ``"stack"`` or ``"extract_row"``;
      the narration templates are keyed by it.
    * ``params``: the values the narration refers to (names, sizes, small
      expressions), keyed by the template's field names.
    * ``display``: the display node it shows, or None.
    """

    kind: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    display: Any = None

    def __post_init__(self):
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


class Derivation:
    """An ordered list of steps, with what they derive.

    * ``kind``: ``"combine"``, ``"match"`` or ``"attention"``;
    * ``steps``: the :class:`Step` records, in order;
    * ``operands``: each operand's name mapped to its vector sequence;
    * ``result``: the final :class:`sympy.Matrix` for concrete sizes, or a
      SymPy matrix expression (``A*B``) for general ones;
    * ``quantities``: every named matrix the derivation defines (operands,
      intermediates and the result), by name, for the checker.

    ``quantities`` may be given as a function, called once on first use (a
    concrete expansion can be large); ``result`` names the quantity that is
    the result.
    """

    def __init__(self, kind: str, steps, *, operands: Mapping, quantities, result: str,
                 options: Mapping | None = None):
        self.kind = kind
        self.steps = tuple(steps)
        self.operands = MappingProxyType(dict(operands))
        self._quantities = quantities
        self._result_name = result
        self.options = MappingProxyType(dict(options or {}))

    def _values(self) -> Mapping:
        if callable(self._quantities):
            self._quantities = MappingProxyType(dict(self._quantities()))
        return self._quantities

    @property
    def result(self):
        """The final matrix (computed on first use)."""
        return self._values()[self._result_name]

    @property
    def quantities(self) -> Mapping:
        """Named matrices of the derivation (computed on first use)."""
        return MappingProxyType(dict(self._values()))

    @property
    def concrete(self) -> bool:
        """True when every size is an integer."""
        return all(seq.concrete for seq in self.operands.values())

    def __repr__(self) -> str:
        ops = ", ".join(f"{name} {seq.rows}x{seq.cols}" for name, seq in self.operands.items())
        return f"<Derivation {self.kind}: {ops}; {len(self.steps)} steps>"

    # -- output ------------------------------------------------------------
    def to_latex(self, lang: str = "en") -> str:
        """The narrated derivation as a LaTeX fragment (amsmath, ``align*``)."""
        from .render.document import to_latex
        return to_latex(self, lang)

    def to_markdown(self, lang: str = "en") -> str:
        """The narrated derivation as Markdown with ``$$`` math blocks."""
        from .render.document import to_markdown
        return to_markdown(self, lang)

    def to_text(self, lang: str = "en") -> str:
        """The narrated derivation as Unicode text for a terminal."""
        from .render.text import to_text
        return to_text(self, lang)

    def to_document(self, lang: str = "en") -> str:
        """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``."""
        from .render.document import to_document
        return to_document(self, lang)

    def to_beamer(self, lang: str = "en") -> str:
        """Slides: a complete Beamer document, one frame per step or small
        group of steps (pdflatex for ``en``, lualatex + luatexja for ``ja``).

        Chains are revealed line by line; a display too tall for a frame
        goes on over "(cont.)" frames.  Compile it with
        :func:`symrow.render.pdf.compile_pdf`.
        """
        from .render.beamer import to_beamer
        return to_beamer(self, lang)

    def to_pdf(self, lang: str = "en") -> bytes:
        """The document compiled to PDF (pdflatex for ``en``, lualatex for ``ja``).

        Raises :class:`symrow.RenderError` naming the missing engine or
        package, or quoting TeX's first error.
        """
        from .render.pdf import compile_pdf
        return compile_pdf(self.to_document(lang), lang)

    def _repr_latex_(self) -> str:
        from .render.document import to_jupyter_latex
        return to_jupyter_latex(self, "en")

    def _repr_markdown_(self) -> str:
        return self.to_markdown("en")

    def __str__(self) -> str:
        return self.to_text("en")
