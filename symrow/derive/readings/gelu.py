"""GELU, the Gaussian error linear unit, applied entry by entry, in its exact form.

``GELU(x) = x Φ(x) = ½ x (1 + erf(x / √2))``, where Φ is the distribution
function of the standard normal distribution (Hendrycks and Gimpel, "Gaussian
Error Linear Units", 2016).  symrow computes this exact form, not the tanh
approximation ``½ x (1 + tanh(√(2/π) (x + 0.044715 x³)))`` that some code uses;
the derivation says so.  Its derivative, for the backward pass, is
``Φ(x) + x φ(x)``, which SymPy finds from the value.

>>> import sympy
>>> from symrow.derive.readings.entrywise import function_of
>>> x = sympy.Symbol("x")
>>> function_of("gelu")(x)
x*(erf(sqrt(2)*x/2) + 1)/2
>>> float(function_of("gelu")(sympy.S(1)))
0.8413447460685429
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from .entrywise import EntryFunction, register_entry_function

__all__ = ["GELU"]


def _value(x):
    return x * (1 + sympy.erf(x / sympy.sqrt(2))) / 2


def _definition(x):
    """``½ x (1 + erf(x/√2))`` as a display."""
    erf = N.Call("erf", [N.Frac(x, sympy.sqrt(2))], tex=r"\operatorname{erf}", text="erf")
    return N.OMul([N.Frac(1, 2), x, N.Paren(N.OSum([sympy.S.One, erf]))])


GELU = register_entry_function(EntryFunction(
    "gelu", r"\operatorname{GELU}", "GELU", _value, definition=_definition))
