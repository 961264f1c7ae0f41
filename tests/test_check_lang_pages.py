"""Japanese reports of the published pages read in Japanese (issue 25: the checker's words
are data, in both languages).

Every real page of tests/check_cases/real is checked with ``--lang ja`` by the command its
header gives; what the report says in its own words (statuses, notes, messages, hints)
must be Japanese. What the page wrote (the claims, the names quoted) stays as it was, and
so does the list of the names a derivation knows, which are mathematics.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from symrow.checker.words import message
from symrow.cli import main

import test_check_real as real

pytestmark = pytest.mark.parsers("builtin")

#: three English words in a row, once what the page wrote is taken out
_ENGLISH = re.compile(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b")


def _own_words(line: str) -> str:
    """A report line without what the page wrote: the claim after a status, the text
    quoted at a place ('...' のところ), LaTeX commands and the known names' list."""
    line = re.sub(r"^ステップ\s+\d+\s+行\s+\d+\s+(成り立つ|誤り|未検査|定義)\s+.*", "", line)
    line = re.sub(r"'[^']*'", "", line)            # what the page wrote, quoted
    line = re.sub(r"（この \S+ の導出が知っている名前：.*", "", line)
    line = re.sub(r"\\[A-Za-z]+(\{[^}]*\})?", "", line)
    return line


def _ja_report(case) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main([*real.command(case), "--lang", "ja"])
    return out.getvalue()


@pytest.mark.parametrize("case", real.CASES, ids=[c.id for c in real.CASES])
def test_a_japanese_report_speaks_japanese(case):
    report = _ja_report(case)
    english = [line for line in report.splitlines() if _ENGLISH.search(_own_words(line))]
    assert not english, "\n".join(english[:5])


@pytest.mark.parametrize("en, ja", [
    ("x (no index) is read as the matrix X, which the page writes in lowercase",
     "添字のない x は行列 X と読む（ページは小文字で書いている）"),
    ("which row or entry of S? write \\boldsymbol{s}_1 for a row or s_{11} for an entry",
     "S のどの行または成分か分からない。行なら \\boldsymbol{s}_1、成分なら s_{11} のように書く"),
    ("\\hl is not supported here", "\\hl にはまだ対応していない"),
    ("the page writes 3 rows under a 1 x 3 value", "ページはこの値の下に 3 行と書くが、値は 1 x 3"),
    ("J_w: its definition (line 34) could not be read", "J_w：その定義（34 行目）が読めなかった"),
    ("the page's own name A_{ij}, followed in what comes after (it is P of the derivation)",
     "ページ独自の名前 A_{ij}（この導出の P のこと）：以降もこの意味で読む"),
    ("the sum over j' on the right does not use j': it adds 2 copies of the same term; the "
     "right side is the number 1/2, the other is not that number for every value of the "
     "entries (no numbers are given on this page, so the step claims an identity)",
     "右辺の j' についての和は j' を使わない：同じ項を 2 個足している；右辺は数 1/2 だが、"
     "左辺は成分の値によらずその数になるわけではない（このページには数値がないので、この行は"
     "恒等式の主張として読んだ）"),
    ("A is 2 x 3, so it has no column 4 (check the bounds of the sum)",
     "A は 2 x 3 なので第 4 列はない（和の範囲を確かめる）"),
    ("something new; of no known form", "something new; of no known form"),
    ("this '=' has nothing on its left", "この '=' の左に何もない"),
    ("'{' is never closed: this paragraph was not read",
     "'{' が閉じられていない：この段落は読まなかった"),
    ("softmax needs its argument in brackets, as in \\operatorname{softmax}(S)",
     "softmax の引数は \\operatorname{softmax}(S) のように括弧で囲む"),
    ("the left side is a 1 x 3 matrix, not 2 x 1", "左辺は 1×3 行列で、2×1 ではない"),
    ("the left side is a 2 x 1 matrix, not a number", "左辺は 2×1 行列で、数ではない"),
    ("not checked: the page's m stands for two sizes of this derivation here (2 and 3); "
     "check it at sizes where they agree",
     "未検査：ページの m はここでこの導出の二つの大きさ（2 と 3）を表す。一致する大きさで検査する"),
    ("the left side is the number 0, the other is not that number for every value of the "
     "entries (no numbers are given on this page, so the step claims an identity)",
     "左辺は数 0 だが、右辺は成分の値によらずその数になるわけではない（このページには数値がない"
     "ので、この行は恒等式の主張として読んだ）"),
])
def test_messages_in_japanese(en, ja):
    assert message(en, "ja") == ja
