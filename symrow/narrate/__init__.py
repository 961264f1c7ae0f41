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

__all__ = ["segments", "template", "check_lang"]

# one module per language and topic; keys must not clash (a test checks)
SOURCES = {"en": (en, readings_en, attention_en, handout_en),
           "ja": (ja, readings_ja, attention_ja, handout_ja)}
_TABLES = {lang: {k: v for mod in mods for k, v in mod.TEMPLATES.items()}
           for lang, mods in SOURCES.items()}
_FORMATTER = string.Formatter()


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
    """The narration as ``("text", str)`` and ``("math", value)`` pieces."""
    out: list[tuple[str, Any]] = []
    for literal, field, _spec, _conv in _FORMATTER.parse(template(step, lang)):
        if literal:
            out.append(("text", literal))
        if field is not None:
            out.append(("math", step.params[field]))
    return out
