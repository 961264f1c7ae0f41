"""The errors symrow raises.

Every error a user can trigger with bad input is a :class:`SymrowError`.
Catch that one class to handle them all; the subclasses say what kind of
input was wrong.  Messages name the offending value, and the command line
prints them as one line, without a traceback.

>>> import symrow
>>> try:
...     symrow.vecseq("A", 0, 3)
... except symrow.SymrowError as err:
...     print(type(err).__name__, "-", err)
SizeError - rows of A must be a positive integer or a size symbol such as 'm'; got 0
"""

from __future__ import annotations

__all__ = [
    "SymrowError",
    "SizeError",
    "UnsafeNameError",
    "ShapeError",
    "LimitError",
    "OptionError",
    "ParseError",
    "NotSupportedError",
    "CheckTimeout",
    "RenderError",
    "OutputError",
    "FigureError",
]


class SymrowError(Exception):
    """Base class of every error caused by the input given to symrow."""


class SizeError(SymrowError, ValueError):
    """A size is not a positive integer or a valid size symbol."""


class UnsafeNameError(SymrowError, ValueError):
    """A name cannot be used safely in LaTeX, or does not follow the naming rule."""


class ShapeError(SymrowError, ValueError):
    """Two operands have shapes that the product does not accept."""


class LimitError(SymrowError, ValueError):
    """A size is past a documented limit.  Raise the limit to go on.

    ``limit`` names the limit of :mod:`symrow.limits` that was hit
    (``"max_dim"`` or ``"max_terms"``), or is None for a fixed one.
    """

    def __init__(self, message: str, limit: str | None = None):
        super().__init__(message)
        self.limit = limit


class OptionError(SymrowError, ValueError):
    """An option, or a combination of options, is not supported."""


class ParseError(SymrowError, ValueError):
    """LaTeX input could not be read.

    ``line`` and ``column`` are 1-based and point at where reading stopped;
    ``near`` is the text found there.
    """

    def __init__(self, message: str, *, line: int | None = None,
                 column: int | None = None, near: str | None = None):
        where = ""
        if line is not None:
            where = f" (line {line}, column {column}"
            if near:
                # as typed, so that backslashes stay single (repr() doubles them),
                # but with line breaks and other control characters escaped:
                # the message stays one line
                shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in near)
                where += f", at '{shown}'"
            where += ")"
        super().__init__(message + where)
        self.reason = message
        self.line = line
        self.column = column
        self.near = near


class NotSupportedError(ParseError):
    """A formula uses a construct that is valid mathematics but that symrow does not
    read yet (a Hadamard product, an inverse, a Kronecker product, a broadcast bias).

    Like :class:`ParseError`, it carries ``line``, ``column`` and ``near`` when the
    formula was LaTeX.
    """


class CheckTimeout(SymrowError, TimeoutError):
    """Checking took longer than its time limit."""


class RenderError(SymrowError, RuntimeError):
    """An external renderer (a TeX engine) is missing or failed."""


class OutputError(SymrowError, OSError):
    """An output file cannot be written."""


class FigureError(SymrowError, ValueError):
    """A picture cannot be drawn as asked: points with more than two coordinates and
    no choice of which two (``axes=``), general sizes, a value that is not a number."""
