"""The parser wrapper: the two-stage (SLL, then LL) strategy, caches, and the text it is given.

The tests of latex2sympy2's own machinery run with it alone (``parsers``
mark); the others, like every checker test, with both parsers.
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symrow
from check_cases.derivations import against
from symrow.reader.entries import parse as l2s
from symrow.reader.lexer import Source, build_tree, tokenize
from symrow.checker.reference import Reference
from symrow.reader.entries.translate import Translator

NAMES = ["Q", "K", "V", "S", "P", "O", r"q_{11}", r"k_{21}", r"s_{12}", r"p_{ij}", r"v_{j1}",
         r"\boldsymbol{q}_1", r"\mathbf{k}_2", "d", r"\sqrt{d}", "2", "0.5", r"\infty"]


@st.composite
def user_expr(draw, depth=0):
    """A random expression in the notation students write."""
    def atom():
        kind = draw(st.integers(0, 9 if depth < 2 else 1))
        if kind <= 1:
            return draw(st.sampled_from(NAMES))
        inner = draw(user_expr(depth + 1))
        return draw(st.sampled_from([
            f"\\left({inner}\\right)", f"({inner})", f"\\frac{{{inner}}}{{2}}",
            f"e^{{{inner}}}", f"\\exp({inner})", f"\\sqrt{{{inner}}}",
            f"\\operatorname{{softmax}}({inner})", f"({inner})^T", f"({inner})^{{2}}",
            f"\\sum_{{j=1}}^{{2}} {inner}"]))

    out = atom()
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from([" + ", " - ", " ", r" \cdot ", " / "]))
        tail = atom()
        if draw(st.booleans()):
            tail += draw(st.sampled_from(["^T", r"^{\top}", "'", "^{2}"]))
        out += op + tail
    return out


def units_of(unit):
    yield unit
    for atom in unit.atoms.values():
        for row in atom.cells:
            for cell in row:
                yield from units_of(cell)


@pytest.mark.slow
@pytest.mark.parsers("latex2sympy2")
@settings(deadline=None, derandomize=True, database=None, max_examples=400,
          suppress_health_check=[HealthCheck.too_slow])
@given(user_expr())
def test_fast_and_full_parses_agree_on_translated_text(text):
    """When the fast SLL parse succeeds, it gives what the full LL parse gives."""
    from antlr4.atn.PredictionMode import PredictionMode
    ref = _attention_reference()
    src = Source(text)
    try:
        unit = Translator(ref, src).unit(build_tree(tokenize(text), src), 0, len(text))
    except Exception:
        return
    l2s.load()
    if l2s._Listener is None:
        l2s._Listener = l2s._listener_class()
    for u in units_of(unit):
        try:
            full = sympy.srepr(l2s._run(u.text, PredictionMode.LL))
        except l2s.TextError:
            full = None
        try:
            fast = sympy.srepr(l2s._run(u.text, PredictionMode.SLL))
        except l2s.TextError:
            continue
        assert fast == full, u.text


_REF = []


def _attention_reference():
    if not _REF:
        _REF.append(Reference(against("att222")))
    return _REF[0]


@pytest.mark.parsers("latex2sympy2")
def test_translated_text_of_common_forms_needs_no_full_context_parse(monkeypatch):
    """The placeholder language is written so that the fast SLL parse suffices."""
    from antlr4.atn.PredictionMode import PredictionMode
    slow = []
    original = l2s._run

    def spy(text, mode):
        if mode == PredictionMode.LL:
            slow.append(text)
        return original(text, mode)

    monkeypatch.setattr(l2s, "_run", spy)
    from check_cases.handwritten import attention_derivation
    assert symrow.check(attention_derivation(2, 2, 2), against("att222")).ok
    assert symrow.check(r"S = QK^T = Q K^{\top} \\ C = \frac{QK^T}{\sqrt{d}}V", against("att222"))
    assert slow == []


@pytest.mark.parsers("latex2sympy2")
def test_parser_caches_can_be_dropped():
    l2s.reset_parser_caches()
    assert str(l2s.parse("a b + {c}^{f}")) == "a*b + c**f"


@pytest.mark.parsers("latex2sympy2", "builtin")   # each reports its own offset
def test_relations_are_refused_by_the_wrapper():
    with pytest.raises(l2s.TextError):
        l2s.parse("a = b")
    with pytest.raises(l2s.TextError):
        l2s.parse("a < b")


@pytest.mark.parametrize("tex,column,construct", [
    (r"c_{11} = \frac{a_{11}}{2}^{2}", 26, r"\frac{..}{..}"),
    (r"c_{11} = \sqrt{a_{11}}^{2}", 23, r"\sqrt{..}"),
    (r"c_{11} = \sqrt{a_{11}}_{2}", 23, r"\sqrt{..}"),
    (r"c_{11} = \exp(a_{11})'", 22, r"\exp(...)"),
    (r"c_{11} = e^{a_{11}}^{2}", 20, "e^{...}")])
def test_a_script_right_after_a_construct_is_refused_where_it_stands(tex, column, construct):
    # is the 2 on the fraction's numerator, denominator or the whole?  Ask for brackets.
    d = symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
    step = symrow.check(tex, against=d).steps[0]
    assert step.status == "unreadable"
    assert step.error["column"] == column and construct in step.message
    assert "in brackets first" in step.message
