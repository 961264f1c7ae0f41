"""The errors of the checker's parsers, below both of them.

:mod:`symrow.reader.entries.parse` (which runs latex2sympy2, or hands the text to
the built-in parser) and :mod:`symrow.reader.entries.flatparse` (the built-in
parser) raise the same two errors; they live here so that neither parser
module imports the other to get them.  Their public home is
:mod:`symrow.reader.entries.parse`, which re-exports them, and they carry its name.

>>> from symrow.reader.entries.parse import TextError
>>> str(TextError("unexpected ')'", 6)), TextError.__module__
("unexpected ')' (offset 6)", 'symrow.reader.entries.parse')
"""

from __future__ import annotations

__all__ = ["TextError", "TooComplex"]


class TextError(Exception):
    """The parser could not read the (translated) text; ``offset`` is where it stopped."""

    __module__ = "symrow.reader.entries.parse"

    def __init__(self, message: str, offset: int):
        super().__init__(f"{message} (offset {offset})")
        self.reason = message
        self.offset = offset


class TooComplex(TextError):
    """The text is beyond the parser's limits (too long, or nested too deeply)."""

    __module__ = "symrow.reader.entries.parse"
