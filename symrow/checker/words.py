r"""The checker's words in each language: the report's frame and its messages.

The sentences are data, in :mod:`symrow.narrate.check_en` and
:mod:`symrow.narrate.check_ja` (one key set, held by a test).  A message made
where the checker finds something (``entry (1, 2) differs``, a hint) is
English where it arises; :func:`message` gives it in the report's language
through that language's table of message forms, and leaves a message of no
known form as it is.

>>> from symrow.checker.words import message, say
>>> say("status.wrong", "ja")
'誤り'
>>> message("entry (1, 2) differs", "ja")
'成分 (1, 2) が違う'
>>> message("the left side is a 2 x 3 matrix, the right side a 3 x 2 matrix", "ja")
'左辺は 2×3 行列、右辺は 3×2 行列である'
"""

from __future__ import annotations

import functools
import re

from ..errors import OptionError

__all__ = ["LANGS", "say", "message", "page_language", "check_lang"]

LANGS = ("en", "ja")


def _tables(lang: str):
    if lang == "ja":
        from ..narrate import check_ja as mod
    else:
        from ..narrate import check_en as mod
    return mod.TEMPLATES, mod.MESSAGES


def check_lang(lang) -> str:
    """``lang`` if the checker speaks it; an :class:`~symrow.OptionError` otherwise."""
    if lang not in LANGS:
        raise OptionError(f"the checker's reports are in {', '.join(LANGS)}; got {lang!r}")
    return lang


def say(key: str, lang: str = "en", **params) -> str:
    return _tables(lang)[0][key].format(**params)


@functools.lru_cache(maxsize=None)
def _compiled(lang: str) -> tuple:
    return tuple((re.compile(pattern), repl) for pattern, repl in _tables(lang)[1])


@functools.lru_cache(maxsize=4096)
def message(text: str, lang: str = "en") -> str:
    """``text``, a message of the checker, in ``lang`` (as it is where no form fits)."""
    if lang == "en" or not text:
        return text
    for pattern, repl in _compiled(lang):
        found = pattern.fullmatch(text)
        if found is None:
            continue
        out = found.expand(repl)
        for name, value in found.groupdict().items():
            out = out.replace("{%s}" % name, "" if value is None else message(value, lang))
        return out
    if "; " in text:
        # hints joined to a message (the sum's plain words; the comparison's): each part
        # in its own form
        parts = text.split("; ")
        for k in range(1, len(parts)):
            head, tail = "; ".join(parts[:k]), "; ".join(parts[k:])
            first = message(head, lang)
            if first != head:
                return first + _JOIN.get(lang, "; ") + message(tail, lang)
    return text


#: how two messages joined by "; " are joined in each language
_JOIN = {"ja": "；"}

_KANA = re.compile(r"[\u3040-\u30ff]")
_KANJI = re.compile(r"[\u4e00-\u9fff]")


def page_language(text: str) -> str:
    """The language a page is written in, for its report: ``ja`` when its words are
    Japanese, else ``en``.  Japanese is told by its kana: a Chinese page (Han characters
    and no kana) gets an English report, not a Japanese one.

    >>> page_language("行列の積を求める"), page_language("其中输出矩阵的每一行"), page_language("AB")
    ('ja', 'en', 'en')
    """
    head = text[:200_000]
    kana = len(_KANA.findall(head))
    return "ja" if kana >= 3 or (kana >= 1 and len(_KANJI.findall(head)) >= 3) else "en"
