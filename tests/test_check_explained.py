r"""Every formula the ``explain`` tests read can be checked, forward and backward (issue 25).

For each formula of the ``explain`` table (``tests/test_explain.py``) and of the fresh
paper table (``tests/test_papers_fresh.py``, the formulas that ``explain`` reads, many
in the column convention of their sources), symrow's own derivation, written out as
LaTeX, must check as "holds" against that derivation; and the same LaTeX with one entry
of one claim changed must be "wrong".  The same holds for symrow's own backward pass of
each formula, checked against that backward pass: explain, backward and check read one
formula one way.  (The readings' own examples and the first paper table are held so by
``tests/test_check_every_reading.py``.)

What symrow says today where it is not that, is the reason of a strict ``xfail``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import symrow

sys.path.insert(0, str(Path(__file__).parent))
import test_explain          # noqa: E402
import test_papers_fresh     # noqa: E402

FORMULAS = {f"explain-{row[0]}": (row[1], row[2], row[3]) for row in test_explain.TABLE}
FORMULAS.update({f"fresh-{c.id}": (c.tex, c.shapes, c.options)
                 for c in test_papers_fresh.READ
                 if c.expect == "value" and "value" not in c.today})

#: what symrow says today where it is not "holds" (id -> reason)
TODAY: dict[str, str] = {}
#: the same for the changed entry, where its report is not "wrong" at that step
CHANGED_TODAY: dict[str, str] = {}


def _derivation(key: str):
    tex, shapes, options = FORMULAS[key]
    return symrow.explain(tex, shapes, **options)


def _cases(today: dict) -> list:
    return [pytest.param(key, id=key, marks=[pytest.mark.xfail(strict=True,
                                                               reason=today[key])]
                         if key in today else []) for key in FORMULAS]


CASES, CHANGED = _cases(TODAY), _cases(CHANGED_TODAY)

#: an entry as symrow writes it: x_{12}, \hat{a}_{12}
_ENTRY = re.compile(r"(?<![\\a-zA-Z{])((?:\\[a-z]+\{)?[a-z]\}?)_\{(\d)(\d)\}")
_MATH_OPEN = re.compile(r"\\begin\{(align\*?|equation\*?|gather\*?)\}|\\\[")
_MATH_CLOSE = re.compile(r"\\end\{(align\*?|equation\*?|gather\*?)\}|\\\]")


def _right_sides(lines: list) -> list:
    """(line index, where its right side starts) for every line of displayed math that
    is on the right of an = (the rest of the line after it, or a whole later line of
    the same display: the rows of a matrix written out)."""
    out, inside, seen = [], False, False
    for k, line in enumerate(lines):
        if _MATH_OPEN.search(line):
            inside, seen = True, False
        if inside:
            if "=" in line:
                out.append((k, line.index("=")))
                seen = True
            elif seen:
                out.append((k, 0))
        if _MATH_CLOSE.search(line):
            inside = False
    return out


def changed_claim(tex: str):
    """The LaTeX with one entry of one claim changed, and the index of its line: on the
    last line of displayed math right of an ``=`` that writes an entry of a matrix it
    names another entry of (``c_{11} = x_{11} w_{11} + x_{12} w_{21}``), the first such
    entry becomes the other; else the first entry right of an ``=`` on the last line
    that has one becomes another of its matrix; None when no claim writes an entry."""
    lines = tex.splitlines()
    sides = _right_sides(lines)
    for k, cut in reversed(sides):
        line = lines[k]
        found = list(_ENTRY.finditer(line))
        for a in (m for m in found if m.start() > cut):
            other = next((b for b in found if b.group(1) == a.group(1)
                          and b.group(0) != a.group(0)), None)
            if other is not None:
                lines[k] = line[:a.start()] + other.group(0) + line[a.end():]
                return "\n".join(lines), k
    for k, cut in reversed(sides):
        # no such pair: the entry becomes another of its matrix (x_{21} -> x_{11},
        # x_{11} -> x_{12})
        line = lines[k]
        a = next((m for m in _ENTRY.finditer(line) if m.start() > cut), None)
        if a is not None:
            new = "11" if a.group(2) + a.group(3) != "11" else "12"
            lines[k] = line[:a.start()] + f"{a.group(1)}_{{{new}}}" + line[a.end():]
            return "\n".join(lines), k
    return None


def _wrong_there(report, tex: str, k: int) -> None:
    """The report is wrong at the step the changed line (index k) is in, and only in the
    display that holds it: the step that starts last at or before the line, and the
    relations of that chain after it (a changed middle member differs from both of its
    neighbours)."""
    assert report.verdict == "wrong", report.to_text()
    lines = tex.splitlines()
    end = next((j for j in range(k, len(lines)) if _MATH_CLOSE.search(lines[j])), len(lines))
    at = max(s.line for s in report.steps if s.line <= k + 1)
    wrong = {s.line for s in report.steps if s.status == "wrong"}
    assert at in wrong and all(at <= line <= end + 1 for line in wrong), report.to_text()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("key", CASES)
def test_symrow_s_own_derivation_holds(key, lang):
    d = _derivation(key)
    report = symrow.check(d.to_latex(lang), d, timeout=120)
    bad = [line for s in report.steps if s.status in ("wrong", "unreadable")
           for line in s.text_lines()]
    assert not bad, "\n".join(bad)
    assert report.verdict == "holds", report.to_text()


@pytest.mark.parametrize("key", CHANGED)
def test_one_changed_entry_is_wrong(key):
    d = _derivation(key)
    got = changed_claim(d.to_latex("en"))
    if got is None:
        pytest.skip(f"{key}: its derivation writes no entry to change")
    bad, k = got
    _wrong_there(symrow.check(bad, d, timeout=120), bad, k)


# -- the backward pass of each formula ------------------------------------------------------

#: formulas whose backward pass symrow refuses (nothing to check): id -> why
NO_BACKWARD = {
    "fresh-goodfellow-xor": "symrow.backward refuses it: the gradients of W and of w would "
                            "share entry symbols (\\bar{w}_{ij})",
}
#: what symrow says today of its own backward pass, where it is not "holds"
BACKWARD_TODAY: dict[str, str] = {}
#: ... and where its changed entry is not "wrong" at that step
BACKWARD_CHANGED_TODAY: dict[str, str] = {}

BACKWARD_KEYS = [k for k in FORMULAS if k not in NO_BACKWARD]


def _backward_cases(today: dict) -> list:
    return [pytest.param(key, id=key, marks=[pytest.mark.xfail(strict=True,
                                                               reason=today[key])]
                         if key in today else []) for key in BACKWARD_KEYS]


def _backward(key: str):
    return symrow.backward(_derivation(key))


@pytest.mark.parametrize("key", _backward_cases(BACKWARD_TODAY))
def test_symrow_s_own_backward_pass_holds(key):
    b = _backward(key)
    report = symrow.check(b.to_latex("en"), b, timeout=120)
    bad = [line for s in report.steps if s.status in ("wrong", "unreadable")
           for line in s.text_lines()]
    assert not bad, "\n".join(bad)
    assert report.verdict == "holds", report.to_text()


@pytest.mark.parametrize("key", _backward_cases(BACKWARD_CHANGED_TODAY))
def test_one_changed_entry_of_the_backward_pass_is_wrong(key):
    b = _backward(key)
    got = changed_claim(b.to_latex("en"))
    if got is None:
        pytest.skip(f"{key}: its backward pass writes no entry to change")
    bad, k = got
    _wrong_there(symrow.check(bad, b, timeout=120), bad, k)


def test_the_backward_passes_symrow_refuses_still_refuse():
    for key in NO_BACKWARD:
        with pytest.raises(symrow.SymrowError):
            _backward(key)
