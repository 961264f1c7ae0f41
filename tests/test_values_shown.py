"""With numbers given, a derivation shows every operand's numbers and, at each step, the
numbers it computes (issue 28): the numeric example is complete.

``symrow explain "AB" --values "A=1,2;3,4" --values "B=0,1;1,0"`` shows A's and B's
numbers and ends at C = [[2, 1], [4, 3]]; with ``XWW^\\top`` every value, the
intermediate H and the result, is numbers, not ``h₁₁ 3/5``.  Every number shown is
held against numpy, computed from the operands alone; across the formulas of
``tests/test_papers.py`` (small random integers) the result shown is numpy's.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import harness
import symrow
from symrow import nodes as N
from symrow.render.text import _INLINE, text

from test_papers import CASES

AB = {"A": [[1, 2], [3, 4]], "B": [[0, 1], [1, 0]]}
XWWT = {"X": [[1, 2], [3, 4], [0, 1]], "W": [[1, 0], [2, 1]]}
ATT = r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{2}}\right)V"
ATT_VALUES = {"Q": [[1, 0], [0, 1], [2, -1]], "K": [[1, 1], [0, 1]], "V": [[1, 2], [3, 4]]}


def shown(d) -> list:
    """(what, numbers as an array, exact) of every numbers step, in order."""
    out = []
    for step in d.steps:
        if step.kind != "numbers":
            continue
        display = step.display
        exact = isinstance(display, N.Chain)
        matrix = display.items[-1] if exact else display.rhs
        rows = [[float(x.text.replace("−", "-")) if isinstance(x, N.Label) else float(x)
                 for x in row] for row in matrix.rows]
        out.append((_INLINE.doprint(step.params["C"]), np.array(rows), exact))
    return out


def _check(got, want, exact):
    if exact:
        np.testing.assert_array_equal(got, want)
    else:   # to three decimals
        np.testing.assert_allclose(got, want, rtol=0, atol=5e-4 + 1e-12)


def _block(lhs: str, matrix) -> str:
    """``lhs = [matrix]`` as the text output indents a display."""
    node = N.Chain([N.Label(lhs, lhs), N.Bmat([[sympy.Integer(int(v)) for v in row]
                                             for row in np.asarray(matrix)])])
    return "\n".join("    " + line.rstrip() for line in text(node).split("\n"))


def test_the_readme_example_shows_both_operands_and_the_result():
    proc = harness.symrow_cli("explain", "AB", "--values", "A=1,2;3,4", "--values", "B=0,1;1,0")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    A, B = np.array(AB["A"]), np.array(AB["B"])
    C = A @ B
    assert C.tolist() == [[2, 1], [4, 3]]
    assert _block("C", C) in out
    # B's numbers, beside its points, where the product's vector sequences are shown
    assert "⎡𝐛₁⎤   ⎡0  1⎤" in out and "⎣𝐛₂⎦   ⎣1  0⎦" in out
    assert "⎡𝐚₁⎤   ⎡1  2⎤" in out
    d = symrow.explain("AB", values=AB)
    [(what, got, exact)] = shown(d)
    assert what == "C" and exact
    _check(got, C, exact)
    # the numbers come after the entries written out, before the summary
    kinds = [s.kind for s in d.steps]
    assert kinds.index("entries_combine") < kinds.index("numbers") < kinds.index("summary_combine")


def test_a_chain_of_products_is_numbers_at_every_step():
    d = symrow.explain(r"XWW^\top", values=XWWT)
    X, W = np.array(XWWT["X"]), np.array(XWWT["W"])
    H = X @ W
    assert [(what, exact) for what, _g, exact in shown(d)] == [("H", True), ("C", True)]
    for (what, got, exact), want in zip(shown(d), (H, H @ W.T)):
        _check(got, want, exact)
    out = d.to_text()
    assert _block("C", H @ W.T) in out and _block("H", H) in out
    # each operand's numbers in its own step
    operands = [s for s in d.steps if s.kind == "operand"]
    assert [s.params["variant"] for s in operands] == ["values", "values"]
    for step, name in zip(operands, ("X", "W")):
        numbers = step.display.lhs.items[-1]
        assert [[int(x) for x in row] for row in numbers.rows] == XWWT[name]
    # a number after an entry symbol is never juxtaposed with it (h₁₁ 1 is not h₁₁₁)
    assert "h₁₁⋅1 + h₁₂⋅0" in out
    assert r"h_{11} \cdot 1 + h_{12} \cdot 0" in d.to_latex()


def test_attention_with_numbers_to_three_decimals():
    d = symrow.explain(ATT, values=ATT_VALUES)
    Q, K, V = (np.array(ATT_VALUES[k], dtype=float) for k in "QKV")
    S = Q @ K.T
    scaled = S / np.sqrt(2)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    P = e / e.sum(axis=1, keepdims=True)
    want = {"S": S, "S/√2": scaled, "P": P, "O": P @ V}
    got = shown(d)
    assert [what for what, _g, _e in got] == list(want)
    for what, numbers, exact in got:
        _check(numbers, want[what], exact)
    assert [exact for _w, _n, exact in got] == [True, False, False, False]
    assert "P ≈ " in d.to_text() and "≈" in d.to_text("ja")


def test_the_page_with_its_numbers_holds_against_itself():
    for formula, values in (("AB", AB), (r"XWW^\top", XWWT), (ATT, ATT_VALUES)):
        d = symrow.explain(formula, values=values)
        report = symrow.check(d.to_latex(), against=d, values=values)
        assert report.verdict == "holds" and report.counts["wrong"] == 0, formula


def test_no_numbers_without_them():
    """Symbols stay symbols: no numbers step where an operand has none (nothing is
    computed for it), nor at general sizes."""
    assert shown(symrow.explain("XW", {"X": (2, 2), "W": (2, 2)})) == []
    assert shown(symrow.explain("XW")) == []
    half = symrow.explain(r"XWW^\top", {"W": (2, 2)}, values={"X": XWWT["X"]})
    assert shown(half) == []
    assert [s.params["variant"] for s in half.steps if s.kind == "operand"] == \
        ["values", "symbols"]


def _integers(d, case, rng) -> dict:
    out = {}
    for name, seq in d.operands.items():
        value = rng.integers(-2, 3, size=seq.shape)
        if name in case.positive:
            value = np.abs(value) + 1
        if name in case.options.get("diagonal", ()):
            value = np.diag(np.abs(np.diag(value)) + 1)
        out[name] = value
    return out


@pytest.mark.slow
def test_the_papers_results_shown_in_numbers_are_numpys():
    rng = np.random.default_rng(28)
    checked = []
    for case in CASES:
        if case.ref is None:
            continue
        shapes = symrow.explain(case.tex, case.shapes, **case.options)
        arrays = _integers(shapes, case, rng)
        d = symrow.explain(case.tex, case.shapes, values={k: v.tolist() for k, v in
                                                          arrays.items()}, **case.options)
        got = shown(d)
        if not got or got[-1][0] != d.plan.result.seq.text_name:
            continue       # a symbol left in the result (LayerNorm's ε): no numbers claimed
        what, numbers, exact = got[-1]
        want = case.ref({k: v.astype(float) for k, v in arrays.items()})
        _check(numbers, want, exact)
        checked.append(case.id)
    assert len(checked) >= 30, checked
