"""The checker's vocabulary is the reader's: see :mod:`symrow.reader.vocab`."""

from ..reader.vocab import *  # noqa: F401,F403
