r"""LeakyReLU, applied entry by entry, with its slope for negative entries.

``LeakyReLU(x) = max(0, x) + α min(0, x)``: a positive entry passes as it is, a
negative one is multiplied by the slope α (Maas et al., 2013; GAT uses
α = 0.2).  Papers rarely write the slope in the formula; symrow never supplies
one silently: ``\mathrm{LeakyReLU}_{0.2}(X)`` takes the slope written, and a
plain ``\mathrm{LeakyReLU}(X)`` keeps it as the symbol α, which the
derivation names (its value then holds α).  Its derivative, for the backward
pass, is 1 for a positive entry and α for a negative one.

>>> import sympy
>>> from symrow.derive.readings.entrywise import function_of
>>> x = sympy.Symbol("x")
>>> function_of("leakyrelu")(x)
alpha*Min(0, x) + Max(0, x)
>>> function_of("leakyrelu:0.2")(sympy.S(-1)), function_of("leakyrelu:0.2'")(sympy.S(-3))
(-1/5, 1/5)
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from .entrywise import EntryFunction, register_entry_function

__all__ = ["LEAKY_RELU", "SLOPE"]

#: the slope of a LeakyReLU whose formula does not write it
SLOPE = sympy.Symbol("alpha", positive=True)


def _value(x):
    return sympy.Max(0, x) + SLOPE * sympy.Min(0, x)


def _definition(x, slope):
    """``max(0, x) + α min(0, x)`` as a display."""
    return N.OSum([N.Call("max", [sympy.S.Zero, x], tex=r"\max", text="max"),
                   N.OMul([slope, N.Call("min", [sympy.S.Zero, x], tex=r"\min",
                                         text="min")])])


LEAKY_RELU = register_entry_function(EntryFunction(
    "leakyrelu", r"\operatorname{LeakyReLU}", "LeakyReLU", _value, spellings=("lrelu",),
    definition=_definition, param=SLOPE))
