"""Derivations written as people publish them: the verdict a careful reader gives.

The pages are in ``tests/check_cases/published.py``.  Each is checked with
both parsers (latex2sympy2 where it is installed, and the built-in one),
and the two reports must be identical.  Then the promises about layout and
reading are tested as properties:

* "holds" means every piece of math that makes a claim was read: a page
  that holds, with one piece of math added that cannot be read, no longer
  holds;
* layout never gives a wrong verdict: a page that holds, typeset again
  with other spacing, line breaks, ``\\left``/``\\right`` and ``\\bigl``,
  is never called wrong.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symrow
from check_cases.derivations import against
from check_cases.published import PAGES
from symrow.reader.entries import parse
from symrow.checker.document import notebook_markdown

pytestmark = pytest.mark.parsers("builtin")   # each test runs both parsers itself

PARSERS = ["builtin"] + (["latex2sympy2"] if parse.available() else [])


def text_of(page) -> str:
    return notebook_markdown(page.text)[0] if page.notebook else page.text


def test_the_table_is_large_and_balanced():
    assert len(PAGES) >= 60
    holds = [p for p in PAGES if p.verdict == "holds"]
    wrong = [p for p in PAGES if p.verdict == "wrong"]
    assert len(holds) + len(wrong) == len(PAGES)
    assert abs(len(holds) - len(wrong)) <= 4
    assert all(p.line is not None for p in wrong)
    assert len({p.id for p in PAGES}) == len(PAGES)
    kinds = {p.id.split("-")[0] for p in PAGES}
    assert {"zenn", "qiita", "jupyter", "article", "beamer", "notation", "column",
            "layout"} <= kinds


@pytest.mark.parametrize("page", PAGES, ids=[p.id for p in PAGES])
def test_published_page(page):
    reports = [symrow.check(text_of(page), against(page.against), parser=name)
               for name in PARSERS]
    report = reports[0]
    text = report.to_text("en")   # the words the case quotes (a Japanese page reads in ja)
    assert report.verdict == page.verdict, text
    if page.verdict == "wrong":
        first = next(s for s in report.steps if s.status == "wrong")
        assert first.line == page.line, text
    else:
        assert not report.unread, text
    if page.says is not None:
        assert page.says in text, text
    for other in reports[1:]:
        assert other.to_json() == report.to_json()


# -- "holds" means every piece of math was read -------------------------------------------------

HOLDS = [p for p in PAGES if p.verdict == "holds" and not p.notebook]

UNREAD = [
    # a lone $ (the formula after it never closes)
    "\n\nand therefore $S = QK^\\top\n\nis what we use.\n",
    # a display that is never closed
    "\n\n$$\nO = PV\n",
    # a paragraph whose braces do not balance
    "\n\nFinally $$o_{11} = p_{11 v_{11}$$\n\nThat is all.\n",
    # a claim about gradients, which the derivation does not derive
    "\n\n$$\\frac{\\partial L}{\\partial V} = P^\\top \\bar{O}$$\n",
]


@pytest.mark.parametrize("extra", UNREAD, ids=["lone-dollar", "open-display", "braces",
                                               "gradient-claim"])
def test_math_that_is_not_read_never_holds(extra):
    markdown = [p for p in HOLDS if p.id.split("-")[0] in ("zenn", "qiita", "layout",
                                                            "notation")]
    assert markdown
    for page in markdown:
        report = symrow.check(page.text + extra, against(page.against))
        assert report.verdict != "holds", (page.id, report.to_text())
        if report.verdict == "unchecked":
            assert report.unread and report.unread[0]["line"] > 1, report.to_text()


def test_a_qiita_fence_is_read():
    """A page whose only computation sits in a ```math fence is judged by it."""
    page = next(p for p in PAGES if p.id == "qiita-fence-only-wrong")
    report = symrow.check(page.text, against(page.against))
    assert report.verdict == "wrong"
    assert "```math" not in " ".join(s.left + s.right for s in report.steps)


def test_unread_math_is_listed_with_its_line():
    report = symrow.check("# x\n\n$$S = QK^\\top$$\n\nthe cost is $5\n", against("att222"))
    assert report.verdict == "unchecked"
    (unread,) = report.unread
    assert unread["line"] == 5 and "lone '$'" in unread["reason"]
    assert "not read: line 5" in report.to_text()
    assert report.to_dict()["unread"][0]["line"] == 5


# -- layout never gives a wrong verdict ------------------------------------------------------------

#: places between tokens where a typesetter may put space or a line break
_SAFE = re.compile(r"(?<!\\)(?:[+=&]|-(?!\\infty)|\\cdot(?![a-z])|\\\\(?!\[))")
_SPACES = ["\\,", "\\;", "\\!", "\\ ", "\n", " \\quad ", "\n  "]


def _math_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in re.finditer(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|```math\n(.+?)```|(?<!\$)\$(?!\$)(.+?)"
                         r"(?<!\$)\$(?!\$)", text, re.DOTALL):
        group = next(k for k in range(1, 5) if m.group(k) is not None)
        spans.append((m.start(group), m.end(group)))
    for m in re.finditer(r"\\begin\{(align|equation)\}(.+?)\\end\{\1\}", text, re.DOTALL):
        spans.append((m.start(2), m.end(2)))
    return spans


def retypeset(text: str, choose) -> str:
    """The same mathematics, typeset again: spacing and line breaks next to operators and
    relations, \\left( \\right) or \\bigl( \\bigr) for plain brackets.  ``choose(options,
    label)`` picks one of the options at each place."""
    spans = _math_spans(text)
    edits: list[tuple[int, int, str]] = []
    for a, b in spans:
        inner = text[a:b]
        for m in _SAFE.finditer(inner):
            if choose([True, False, False, False], "space?"):
                before = choose(_SPACES, "before")
                after = choose(["", "\\,", " ", "\n"], "after")
                # \quad next to a relation only: never between two factors
                if "quad" in before and m.group(0) != "=":
                    before = "\\,"
                edits.append((a + m.start(), a + m.end(), before + m.group(0) + after))
        opens = [m.start() for m in re.finditer(r"(?<![\\a-zA-Z])\((?!\s*\))", inner)]
        for start in opens:
            depth, end = 0, None
            for k in range(start, len(inner)):
                if inner[k] == "(":
                    depth += 1
                elif inner[k] == ")":
                    depth -= 1
                    if depth == 0:
                        end = k
                        break
            if end is None or any(s <= a + end < e or s <= a + start < e for s, e, _ in edits):
                continue
            style = choose(["", "left", "bigl"], "bracket")
            if style == "left":
                edits += [(a + start, a + start + 1, "\\left("), (a + end, a + end + 1, "\\right)")]
            elif style == "bigl":
                edits += [(a + start, a + start + 1, "\\bigl("), (a + end, a + end + 1, "\\bigr)")]
    edits.sort()
    out, last = [], 0
    for start, end, new in edits:
        if start < last:
            continue
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(HOLDS), st.data())
def test_layout_never_gives_a_wrong_verdict(page, data):
    text = retypeset(page.text, lambda options, label: data.draw(st.sampled_from(options),
                                                                 label=label))
    report = symrow.check(text, against(page.against))
    assert report.verdict != "wrong", (page.id, text, report.to_text())
    assert report.counts["wrong"] == 0


@pytest.mark.parametrize("pick", [0, 1, 2, -1])
def test_every_page_retypeset_alike_is_never_wrong(pick):
    """The same property, every page, each place retypeset by one fixed rule."""
    def choose(options, label):
        return options[0] if label == "space?" else options[pick % len(options)]
    changed = 0
    for page in HOLDS:
        text = retypeset(page.text, choose)
        changed += text != page.text
        report = symrow.check(text, against(page.against))
        assert report.verdict != "wrong", (page.id, text, report.to_text())
    assert changed >= len(HOLDS) // 2
