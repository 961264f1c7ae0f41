"""Narration: per-language sentence templates keyed by step kind.

A template is a Python format string whose fields name the step's
parameters; each field is shown as inline math by whichever renderer asks.
Lookup tries ``"<kind>.<style>.<variant>"``, ``"<kind>.<style>"``,
``"<kind>.<variant>"`` and ``"<kind>"``, in that order, where ``style``
(e.g. ``"attention"``: the words of a preset) and ``variant`` (e.g.
``"concrete"``) are the step's parameters of those names; headings use
``"heading.<topic>"`` in place of the kind.

>>> from symrow.narrate import segments
>>> from symrow.steps import Step
>>> segments(Step("points", {"A": "A"}), "en")
[('text', 'In other words, '), ('math', 'A'), ('text', ' stacks these row vectors:')]
"""

from __future__ import annotations

import string
from typing import Any

from ..errors import OptionError
from ..steps import LANGS, Step
from . import (attention_en, attention_ja, en, handout_en, handout_ja, ja, readings_en,
               readings_ja)

__all__ = ["segments", "template", "check_lang", "article", "glued", "register_templates",
           "unregister_templates"]

# one module per language and topic; keys must not clash (a test checks)
SOURCES = {"en": (en, readings_en, attention_en, handout_en),
           "ja": (ja, readings_ja, attention_ja, handout_ja)}
_TABLES = {lang: {k: v for mod in mods for k, v in mod.TEMPLATES.items()}
           for lang, mods in SOURCES.items()}
_FORMATTER = string.Formatter()


def register_templates(lang: str, templates: dict) -> None:
    """Add the sentences of a new reading (or preset) in ``lang``: keys are step kinds
    (``"rmsnorm"``, ``"heading.rmsnorm"``, with ``.variant`` or ``.style`` suffixes).  A key
    that exists already is refused, so that no reading changes another's words."""
    table = _TABLES[check_lang(lang)]
    clash = sorted(set(templates) & set(table))
    if clash:
        raise OptionError(f"{lang} narration for {', '.join(clash)} exists already")
    table.update(templates)


def unregister_templates(lang: str, keys) -> None:
    """Remove sentences added with :func:`register_templates`."""
    table = _TABLES[check_lang(lang)]
    for key in keys:
        table.pop(key, None)


def check_lang(lang: Any) -> str:
    """Validate a narration language code."""
    if lang not in LANGS:
        raise OptionError(f"unknown language {lang!r}; choose one of: {', '.join(LANGS)}")
    return lang


def template(step: Step, lang: str) -> str:
    """The template text for a step, in ``lang``."""
    table = _TABLES[check_lang(lang)]
    base = f"heading.{step.params['topic']}" if step.kind == "heading" else step.kind
    style, variant = step.params.get("style"), step.params.get("variant")
    keys = []
    if style:
        if variant:
            keys.append(f"{base}.{style}.{variant}")
        keys.append(f"{base}.{style}")
    if variant:
        keys.append(f"{base}.{variant}")
    keys.append(base)
    for key in keys:
        if key in table:
            return table[key]
    raise KeyError(f"no {lang} narration for step {keys[0]!r}")


def segments(step: Step, lang: str) -> list[tuple[str, Any]]:
    """The narration as ``("text", str)`` and ``("math", value)`` pieces.

    A field written ``{ell:a}`` is preceded by its indefinite article, chosen
    by how the value is read aloud: "a 3-dimensional", "an 8-dimensional",
    "an ℓ-dimensional", "a d-dimensional".
    """
    out: list[tuple[str, Any]] = []
    for literal, field, spec, _conv in _FORMATTER.parse(template(step, lang)):
        if spec == "a":
            literal = (literal or "") + article(step.params[field]) + " "
        if literal:
            out.append(("text", literal))
        if field is not None:
            out.append(("math", step.params[field]))
    return out


#: letters whose English names start with a vowel sound ("an f", "an ℓ", "an n")
_VOWEL_LETTERS = set("aefhilmnorsx")


def article(value) -> str:
    """The indefinite article before ``value`` read aloud as a number or a letter.

    >>> [article(v) for v in (3, 8, 11, 18, 80, 110, 800, 11000, 1)]
    ['a', 'an', 'an', 'an', 'an', 'a', 'an', 'an', 'a']
    >>> import sympy
    >>> [article(sympy.Symbol(s)) for s in ("ell", "n", "d", "d_v", "m", "D")]
    ['an', 'an', 'a', 'a', 'an', 'a']
    """
    try:
        number = int(value)
        is_number = number == value
    except (TypeError, ValueError):
        is_number = False
    if is_number and number >= 0:
        digits = str(number)
        lead = digits[:len(digits) % 3 or 3]   # the leading group: "11" of 11,000
        return "an" if digits.startswith("8") or lead in ("11", "18") else "a"
    name = str(value).lstrip("\\")
    if name.startswith(("ell", "ℓ")):
        return "an"
    return "an" if name[:1].lower() in _VOWEL_LETTERS else "a"


def glued(pieces: list) -> list:
    """Segments with each unit kept to its number: ``(kind, value, glue)``, where a
    math piece followed by ``-word`` ("3-dimensional") has glue ``"-"`` and one
    followed by a space and a Japanese counter or unit ("3 個", "d 次元") has
    glue ``" "`` (the text piece after it loses that character); the ordinal
    "第 " before math ("第 i 行") has glue ``" "`` too.
    Each renderer writes the glue so that no line breaks there.
    """
    out = []
    for k, (kind, value) in enumerate(pieces):
        if kind != "text":
            out.append([kind, value, None])
            continue
        text = value
        prev = out[-1] if out else None
        if prev is not None and prev[0] == "math":
            if len(text) > 1 and text[0] == "-" and text[1].isalpha():
                prev[2], text = "-", text[1:]
            elif text.startswith(" ") and text[1:].startswith(_JA_UNITS):
                prev[2], text = " ", text[1:]
        glue = None
        nxt = pieces[k + 1] if k + 1 < len(pieces) else None
        if nxt is not None and nxt[0] == "math" and text.endswith(_JA_BEFORE):
            text, glue = text[:-1], " "
        out.append(["text", text, glue])
    return [tuple(p) for p in out]


#: Japanese counters and units that follow a number ("3 個", "第 i 行"), and the
#: ordinal prefix before one ("第 i")
_JA_UNITS = ("個", "次元", "行", "列", "回", "番", "成分", "項")
_JA_BEFORE = ("第 ",)
