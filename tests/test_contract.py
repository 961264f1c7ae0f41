"""Every reading in the registry keeps the contract (see contract.py): its pieces, its
example in every language and format at a concrete and a general size, its value
against numpy, its gradients against finite differences, the display of its entries.

A reading that lacks a piece fails it: the last tests register incomplete ones.
"""

from __future__ import annotations

import pytest
import sympy

from symrow import nodes as N
from symrow.derive.readings import (ENTRY_FUNCTIONS, READINGS, ROWWISE, Example, Reading,
                                    register, unregister)
from symrow.formula import expr as E
from symrow.reader.notation import Function

import contract


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_every_reading_keeps_the_contract(reading):
    assert contract.problems(READINGS[reading]) == []


@pytest.mark.parametrize("key", sorted(ENTRY_FUNCTIONS))
def test_every_function_applied_entry_by_entry_has_its_value(key):
    assert contract.entry_function_problems(key) == []


def test_the_readings_words_are_in_every_language():
    """The sentences of the built-in readings have one key set in every language."""
    from symrow.narrate import readings_en, readings_ja
    assert set(readings_en.TEMPLATES) == set(readings_ja.TEMPLATES)


def test_every_example_has_a_reference_and_every_reference_an_example():
    examples = {c.example.formula for c in READINGS.values() if c.example is not None}
    assert examples <= set(contract.REFERENCES)


# -- a reading that lacks a piece fails the contract ------------------------------------------

class _Half(Reading):
    """``half(X)``: every entry halved; complete but for what a test takes away."""

    reading = "half"
    kind = ROWWISE
    notation = Function("half", "half", r"\operatorname{half}", "half")
    example = Example(r"\mathrm{half}(X) W", {"X": (2, 3), "W": (3, 2)})
    words = {"en": {"heading.half": "Halved: {Y}", "half": "Every entry is halved:",
                    "backward_rule.half": "Back through halving, the gradient is halved:"},
             "ja": {"heading.half": "半分：{Y}", "half": "どの成分も半分になる。",
                    "backward_rule.half": "半分にする操作を逆にたどると、勾配も半分になる。"}}
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return args[0] / 2

    def compose(self, part):
        return N.Call("half", [part(self.inputs[0])])

    def definition(self, parts):
        return N.Call("half", parts)

    def steps(self, ctx, part):
        return [ctx.heading("half", Y=self.whole(), part=part),
                ctx.step("half", {}, N.Chain([self.whole(), N.Frac(
                    self.inputs[0].whole(), 2)]), part=part)]

    def backward(self, g, bw):
        return [(0, E.Scaled(g, sympy.S.One, sympy.Integer(2)))]


contract.REFERENCES[r"\mathrm{half}(X) W"] = lambda a: (a["X"] / 2) @ a["W"]


def _registered(cls):
    register(cls)
    try:
        return contract.problems(cls)
    finally:
        unregister(cls)
        contract.forget()


def test_a_complete_reading_keeps_the_contract():
    # row-wise in name only: half(x_1)_1 is still a function of the whole row
    assert _registered(_Half) == []


def test_a_reading_without_its_evaluation_fails():
    class NoValue(_Half):
        evaluate = Reading.evaluate
    assert any("no evaluate" in p for p in _registered(NoValue))


def test_a_reading_without_its_backward_pass_fails():
    class NoBackward(_Half):
        backward = Reading.backward
    assert any("no backward" in p for p in _registered(NoBackward))


def test_a_reading_without_its_words_fails():
    class NoWords(_Half):
        words = {"en": _Half.words["en"]}
    found = _registered(NoWords)
    assert any("backward rule in ja" in p for p in found)


def test_a_reading_whose_value_is_wrong_fails():
    class Wrong(_Half):
        @classmethod
        def evaluate(cls, args):
            return args[0] / 3
    found = _registered(Wrong)
    assert any("differs from numpy" in p for p in found)
    assert any("differs from finite differences" in p for p in found)


def test_a_row_wise_reading_shown_entry_by_entry_fails():
    class EntryShown(_Half):
        def entry(self, i, j):
            if self.seq is not None:
                return super().entry(i, j)
            return self.compose(lambda n: n.entry(i, j))
    assert any("function of the row" in p for p in _registered(EntryShown))


def test_a_reading_without_an_example_fails():
    class NoExample(_Half):
        example = None
    assert any("no example" in p for p in _registered(NoExample))


# -- rendered by the real renderers, sampled: every reading in KaTeX, the new ones in TeX --------

@pytest.mark.renderer
def test_every_reading_renders_in_katex_and_the_new_ones_in_tex():
    import harness
    examples = {contract._key(c.example): c.example for c in READINGS.values()
                if c.example is not None}
    formulas = []
    for example in examples.values():
        for d in contract.derivations(example).values():
            formulas += harness.latex_math(d.to_latex("en", expand="all"))
    harness.assert_renders(formulas)
    new = [READINGS[r].example for r in ("normalize", "expdiag")]
    docs = [contract.derivations(e)["backward-general"].to_document("en") for e in new]
    docs.append(contract.derivations(contract.Example(
        r"\mathrm{GELU}(X) W", {"X": (2, 2), "W": (2, 1)}))["concrete"].to_document("en"))
    harness.compile_documents(docs, "pdflatex")
