"""The options of reading a formula travel as one record (symrow/derive/options.py).

Handed on as keywords, two of them were dropped on the way: a derivation run
backwards lost its diagonal operands, and a general one made again at sizes
(``instantiate``) lost its ``heads``.
"""

from __future__ import annotations

import pytest
import sympy

import symrow
from symrow.derive.options import Options


def test_a_derivation_run_backwards_keeps_its_diagonal_operands():
    forward = symrow.explain("DX", {"D": (2, 2), "X": (2, 1)}, diagonal="D")
    d = symrow.backward(forward)
    assert d.options["diagonal"] == ("D",)
    assert d.gradients["D"][0, 1] == 0 and d.gradients["D"][1, 0] == 0
    assert "rowscale" in [n.reading for n in d.forward.plan.nodes]


def test_instantiate_keeps_every_option():
    d = symrow.explain(r"\mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h) W^O",
                       heads=2, scale="symbolic")
    sizes = {str(s): 2 for s in d.sizes}
    assert d.instantiate(sizes).options["heads"] == 2


def test_the_record_checks_its_options_once():
    with pytest.raises(symrow.OptionError, match="unknown option"):
        symrow.explain("XW", scal="number")
    with pytest.raises(symrow.OptionError, match="causal= must be True or False"):
        symrow.backward("XW", causal="yes")
    opts = Options(causal=True, diagonal="D")
    assert opts.diagonal == ("D",) and opts.merge(heads=3).heads == 3 and opts.heads is None
    d = symrow.explain(r"\mathrm{softmax}(QK^T + M)V", {"Q": (2, 2), "K": (2, 2), "V": (2, 2)},
                       options=opts.merge(diagonal=()))
    assert d.options["causal"] is True
    assert d.quantities["P"][0, 1] == sympy.S.Zero    # the causal mask
