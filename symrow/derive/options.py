"""The options of reading a formula, as one frozen record (as latexify's ``Config``).

:func:`symrow.explain` and :func:`symrow.backward` take them as keywords, the
command line builds one record from its flags, and a derivation made again at
other sizes (``instantiate``) or run backwards takes the record it was made
with: the options travel together, checked once, instead of as a list of
keywords handed on at every call.

>>> opts = Options(causal=True)
>>> opts.merge(scale="number").scale, opts.scale
('number', 'symbolic')
>>> Options.of(scal="number")
Traceback (most recent call last):
...
symrow.errors.OptionError: unknown option(s) scal; explain takes values, causal, scale, diagonal, heads, max_dim, max_terms, convention
>>> Options(scale="numeric")
Traceback (most recent call last):
...
symrow.errors.OptionError: scale= must be 'symbolic' or 'number'; got 'numeric'
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from ..errors import OptionError

__all__ = ["Options", "NAMES"]


@dataclasses.dataclass(frozen=True)
class Options:
    """How a formula is read (see :func:`symrow.explain`).

    * ``values``: numbers for operands (name -> matrix);
    * ``causal``: the ``M`` added inside a softmax is the causal mask;
    * ``scale``: ``"symbolic"`` (keep √d) or ``"number"`` (its number);
    * ``diagonal``: the operands that are diagonal matrices;
    * ``heads``: how many blocks ``Concat(head_1, ..., head_h)`` has;
    * ``max_dim``, ``max_terms``: limits for this derivation (see
      :func:`symrow.limits`);
    * ``convention``: how the formula stacks its points, ``"row"`` or ``"column"``
      (default: read from the products, see :mod:`symrow.derive.convention`).
    """

    values: Mapping | None = dataclasses.field(default=None, compare=False)
    causal: bool = False
    scale: str = "symbolic"
    diagonal: tuple = ()
    heads: int | None = None
    max_dim: int | None = None
    max_terms: int | None = None
    convention: str | None = None

    def __post_init__(self):
        if not isinstance(self.causal, bool):
            raise OptionError(f"causal= must be True or False; got {self.causal!r}")
        if self.scale not in ("symbolic", "number"):
            raise OptionError(f"scale= must be 'symbolic' or 'number'; got {self.scale!r}")
        heads = self.heads
        if heads is not None and (isinstance(heads, bool) or not isinstance(heads, int)
                                  or heads < 1):
            raise OptionError(f"heads= must be a positive integer; got {heads!r}")
        diagonal = self.diagonal
        if isinstance(diagonal, str):
            diagonal = (diagonal,)
        object.__setattr__(self, "diagonal", tuple(diagonal or ()))
        if self.convention not in (None, "row", "column"):
            raise OptionError(f"convention= must be 'row' or 'column'; got "
                              f"{self.convention!r}")

    @classmethod
    def of(cls, **options) -> "Options":
        """The record of these keywords (an unknown one is refused, with the choices)."""
        return cls().merge(**options)

    def merge(self, **changes) -> "Options":
        """A copy with ``changes``; an unknown option is an :class:`~symrow.OptionError`."""
        unknown = sorted(set(changes) - set(NAMES))
        if unknown:
            raise OptionError(f"unknown option(s) {', '.join(unknown)}; explain takes "
                              f"{', '.join(NAMES)}")
        return dataclasses.replace(self, **changes) if changes else self

    def shown(self) -> dict:
        """The options a derivation reports (``Derivation.options``)."""
        return {"causal": self.causal, "scale": self.scale, "diagonal": self.diagonal,
                "heads": self.heads, "convention": self.convention}


#: the names of the options, in order
NAMES = tuple(f.name for f in dataclasses.fields(Options))
