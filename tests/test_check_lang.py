"""The checker's report in the page's language (issue 25): Japanese for a Japanese
page, English otherwise, ``lang=`` / ``--lang`` to choose; the words are data with one
key set in both languages, and the JSON report is the same in both."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import symrow
from symrow.checker.words import message, page_language
from symrow.errors import OptionError
from symrow.narrate import check_en, check_ja

pytestmark = pytest.mark.parsers("builtin")

COMBINE = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
MATCH = symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
JA_PAGE = "行列の積を成分で書く。\n$$c_{12} = a_{11} b_{12} + a_{12} b_{22}$$\n"
EN_PAGE = "The entry, written out.\n$$c_{12} = a_{11} b_{12} + a_{12} b_{22}$$\n"
_KANA = re.compile(r"[\u3040-\u30ff]")


def test_both_languages_have_one_key_set():
    assert set(check_en.TEMPLATES) == set(check_ja.TEMPLATES)
    for key in check_en.TEMPLATES:
        fields = set(re.findall(r"\{(\w+)\}", check_en.TEMPLATES[key]))
        assert fields == set(re.findall(r"\{(\w+)\}", check_ja.TEMPLATES[key])), key


def test_every_message_form_compiles_and_fills():
    for pattern, repl in check_ja.MESSAGES:
        rx = re.compile(pattern)
        named = set(rx.groupindex)
        assert set(re.findall(r"\{(T\d)\}", repl)) <= named, pattern


def test_a_japanese_page_gets_a_japanese_report_and_an_english_one_on_request():
    ja = symrow.check(JA_PAGE, MATCH)
    assert page_language(JA_PAGE) == "ja" and ja.lang == "ja"
    text = ja.to_text()
    assert "誤り" in text and "判定" in text and "照合" in text, text   # the combine/match hint
    assert _KANA.search(ja.to_markdown())
    en = symrow.check(JA_PAGE, MATCH, lang="en")
    assert "wrong" in en.to_text() and not _KANA.search(en.to_text())
    # the JSON report is the same whatever the language
    a, b = json.loads(ja.to_json()), json.loads(en.to_json())
    assert a.pop("lang") == "ja" and b.pop("lang") == "en" and a == b


def test_an_english_page_gets_an_english_report():
    r = symrow.check(EN_PAGE, MATCH)
    assert r.lang == "en" and not _KANA.search(r.to_text())
    assert "combine rule" in r.to_text()
    ja = r.to_text("ja")
    assert "結合の規則" in ja and "成分 (1, 2)" not in r.to_text()


def test_frequent_messages_read_in_japanese():
    cases = {
        "entry (1, 2) differs": "成分 (1, 2) が違う",
        "the left side is a 2 x 2 matrix, the right side a 3 x 3 matrix":
            "左辺は 2×2 行列、右辺は 3×3 行列である",
        "a 2 x 3 matrix times a 2 x 3 matrix is undefined":
            "2×3 行列と 2×3 行列の積は定義されない",
        "for i = 1: a 1 x 3 matrix has no row 2": "i = 1 のとき：1×3 行列に第 2 行はない",
    }
    for en, ja in cases.items():
        assert message(en, "ja") == ja
    # a message of no known form is shown as it is, never dropped
    assert message("something new", "ja") == "something new"


def test_a_counterexample_is_in_the_json_not_in_the_students_text():
    r = symrow.check("$$C = BA + A B$$", COMBINE, lang="en")
    r = symrow.check(r"$$c_{11} = a_{11} b_{11}$$", COMBINE, lang="en")
    assert r.verdict == "wrong"
    assert "for example" not in r.to_text() and "for example" not in r.to_markdown()


def test_a_bad_language_is_a_clear_error():
    with pytest.raises(OptionError, match="en, ja"):
        symrow.check(EN_PAGE, MATCH, lang="fr")


def test_the_command_line_takes_lang(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(JA_PAGE, encoding="utf-8")
    run = [sys.executable, "-m", "symrow", "check", str(page), "--against", "match",
           "--a", "2x2", "--b", "2x2"]
    ja = subprocess.run(run, capture_output=True, text=True, timeout=120)
    en = subprocess.run(run + ["--lang", "en"], capture_output=True, text=True, timeout=120)
    assert ja.returncode == en.returncode == 1, ja.stderr
    assert "判定" in ja.stdout and "verdict: wrong" in en.stdout
