r"""The natural logarithm, applied entry by entry: ``\log(X)``, ``\ln(X)``.

(``\mathrm{LN}`` stays LayerNorm's: the logarithm is spelt as a command.)

The logarithm of machine learning is the natural one (the cross-entropy
``-\sum_k y_k \log p_k``), so ``\log`` is ``\ln``; a logarithm to another base is
not read.  Its derivative is ``1/x``.  Its entries are meant to be positive (a
probability, a softmax's entry); SymPy keeps ``log(x)`` of a symbol as it is.

>>> import sympy
>>> from symrow.derive.readings.entrywise import function_of
>>> function_of("log")(sympy.E ** 2), function_of("log")(sympy.S(1))
(2, 0)
"""

from __future__ import annotations

import sympy

from .entrywise import EntryFunction, register_entry_function

__all__ = ["LOG"]

LOG = register_entry_function(EntryFunction("log", r"\log", "log", sympy.log,
                                            spellings=("\\ln",)))
