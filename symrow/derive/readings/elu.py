r"""ELU, the exponential linear unit, applied entry by entry.

``ELU(x) = x`` for a positive entry and ``e^x - 1`` for a negative one (Clevert et
al., 2015, with the scale 1 that linear attention's feature map ``elu(x) + 1``
uses: Katharopoulos et al., 2020).  Written here as ``max(0, x) + e^{min(0, x)} - 1``,
the same value, so that its derivative is the step 1 / ``e^x`` as for ReLU.

>>> import sympy
>>> from symrow.derive.readings.entrywise import function_of
>>> [function_of("elu")(sympy.S(v)) for v in (2, 0, -1)]
[2, 0, -1 + exp(-1)]
"""

from __future__ import annotations

import sympy

from .entrywise import EntryFunction, register_entry_function

__all__ = ["ELU"]


def _value(x):
    return sympy.Max(0, x) + sympy.exp(sympy.Min(0, x)) - 1


ELU = register_entry_function(EntryFunction("elu", r"\operatorname{ELU}", "ELU", _value))
