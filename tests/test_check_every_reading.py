"""Every reading that ``explain`` reads can be checked (issue 25).

For every reading in the registry, its example formula (the one the contract test
derives) is derived by ``symrow.explain`` at its concrete shapes; symrow's own
derivation, written out as LaTeX, must check as "holds", with no step unreadable;
and the same LaTeX with one entry of one displayed matrix changed must be "wrong",
at that line.  A reading added as its class is covered with no change here (nor in
the checker): :mod:`tests.test_new_reading` adds one.
"""

from __future__ import annotations

import re

import pytest

import symrow
from symrow.derive.readings import ENTRY_FUNCTIONS, READINGS

CASES = sorted(name for name, cls in READINGS.items()
               if cls.example is not None and not cls.backward_only)


def derivation(name):
    ex = READINGS[name].example
    return symrow.explain(ex.formula, dict(ex.shapes), **dict(ex.options))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", CASES)
def test_the_derivation_of_every_reading_holds(name, lang):
    d = derivation(name)
    r = symrow.check(d.to_latex(lang), d, timeout=120)
    bad = [line for s in r.steps if s.status in ("wrong", "unreadable")
           for line in s.text_lines()]
    assert not bad, "\n".join(bad)
    assert r.verdict == "holds", r.to_text()


_ENTRY = re.compile(r"(?<![\\a-zA-Z])([a-z])_\{(\d)(\d)\}")


def _mutated(tex: str):
    """The LaTeX with one entry changed, and the index of the line it is on: on the
    last line that names two different entries of one matrix (``x_{11}`` and
    ``x_{12}``), the first of them becomes the other (else the last line with an entry
    has it changed); None when no line names an entry."""
    lines = tex.splitlines()
    for k in range(len(lines) - 1, -1, -1):
        found = list(_ENTRY.finditer(lines[k]))
        for a in found:
            other = next((b for b in found if b.group(1) == a.group(1)
                          and b.group(0) != a.group(0)), None)
            if other is not None:
                line = lines[k]
                lines[k] = line[:a.start()] + other.group(0) + line[a.end():]
                return "\n".join(lines), k
    for k in range(len(lines) - 1, -1, -1):
        # no line names two entries of one matrix: one entry becomes another of its
        # matrix (x_{21} -> x_{11}, d_{11} -> d_{21})
        a = next(_ENTRY.finditer(lines[k]), None)
        if a is not None:
            new = "11" if a.group(2) + a.group(3) != "11" else "21"
            line = lines[k]
            lines[k] = line[:a.start()] + f"{a.group(1)}_{{{new}}}" + line[a.end():]
            return "\n".join(lines), k
    return None


@pytest.mark.parametrize("name", CASES)
def test_one_changed_entry_is_wrong(name):
    d = derivation(name)
    tex = d.to_latex("en")
    got = _mutated(tex)
    if got is None:
        pytest.skip(f"{name}: its derivation shows no number to change")
    bad, k = got
    r = symrow.check(bad, d, timeout=120)
    assert r.verdict == "wrong", r.to_text()
    wrong = [s for s in r.steps if s.status == "wrong"]
    # the changed line is inside the step that starts last at or before it
    at = max(s.line for s in r.steps if s.line <= k + 1)
    assert wrong and {s.line for s in wrong} == {at}, r.to_text()


# -- every formula of the paper table (tests/test_papers.py) ---------------------------------

def _paper_cases():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    import test_papers
    return {c.id: c for c in test_papers.CASES}


PAPERS = _paper_cases()


@pytest.mark.parametrize("case", sorted(PAPERS))
def test_the_derivation_of_every_paper_formula_holds(case):
    """symrow's own derivation of each formula papers print (Vaswani's multi-head
    attention with its definition of Attention on Q, K and V of its own, the FFN with
    its bias rows b_1 and b_2, GEGLU with GELU's definition by erf, ...) checks."""
    c = PAPERS[case]
    d = symrow.explain(c.tex, c.shapes, **c.options)
    r = symrow.check(d.to_latex("en"), d, timeout=120)
    bad = [line for s in r.steps if s.status in ("wrong", "unreadable")
           for line in s.text_lines()]
    assert not bad, "\n".join(bad)
    assert r.verdict == "holds", r.to_text()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("key", sorted(ENTRY_FUNCTIONS))
def test_the_derivation_of_every_entry_function_holds(key, lang):
    """Each function applied entry by entry (ReLU, σ, tanh, exp, GELU with its definition
    by erf), as the contract test writes it."""
    tex = r"\operatorname{%s}(X) W" % key if key not in ("exp", "tanh", "sigma") else \
        r"\%s(X) W" % key
    if ENTRY_FUNCTIONS[key].param is not None:     # LeakyReLU: its slope written
        tex = r"\operatorname{%s}_{0.3}(X) W" % key
    d = symrow.explain(tex, {"X": (2, 3), "W": (3, 2)})
    r = symrow.check(d.to_latex(lang), d, timeout=120)
    bad = [line for s in r.steps if s.status in ("wrong", "unreadable")
           for line in s.text_lines()]
    assert not bad, "\n".join(bad)
    assert r.verdict == "holds", r.to_text()
