"""The checker reads with symrow's one LaTeX reader: see :mod:`symrow.reader.lexer`."""

from ..reader.lexer import *  # noqa: F401,F403
from ..reader.lexer import __all__  # noqa: F401
