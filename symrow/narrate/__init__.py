"""Narration: per-language sentence templates keyed by step kind.

Each language is a record in :data:`~symrow.narrate.languages.LANGUAGES`
with its template modules (:mod:`symrow.narrate.languages`).

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
import unicodedata
from collections.abc import Mapping
from typing import Any

from ..steps import Step
from .languages import LANGUAGES, Language, codes, get_language, register

__all__ = ["segments", "template", "template_key", "slide_key", "check_lang", "article", "glued", "phrase",
           "Titles", "goes_on", "register_templates", "unregister_templates", "SOURCES", "LANGUAGES", "Language",
           "get_language", "register", "codes"]

_FORMATTER = string.Formatter()


class _Sources(Mapping):
    """Language code -> its template modules, for every registered language (live)."""

    def __getitem__(self, code):
        return LANGUAGES[code].sources

    def __iter__(self):
        return iter(LANGUAGES)

    def __len__(self):
        return len(LANGUAGES)


#: the template modules of each language; within a language, keys must not clash
SOURCES = _Sources()


def register_templates(lang: str, templates: dict) -> None:
    """Add the sentences of a new reading (or preset) in ``lang``: keys are step kinds
    (``"rmsnorm"``, ``"heading.rmsnorm"``, with ``.variant`` or ``.style`` suffixes).  A key
    that exists already is refused, so that no reading changes another's words."""
    get_language(lang).add_templates(templates)


def unregister_templates(lang: str, keys) -> None:
    """Remove sentences added with :func:`register_templates`."""
    get_language(lang).remove_templates(keys)


def check_lang(lang: Any) -> str:
    """Validate a narration language code (a registered language's)."""
    return get_language(lang).code


def phrase(key: str, lang: str, **params) -> str:
    """A template that is plain words (a title, a label), its fields filled in as text.

    >>> phrase("handout.title", "ja")
    '行列積で読むアテンション'
    """
    return get_language(lang).templates[key].format(**params)


class Titles(Mapping):
    """Language code -> a title: the template ``key`` in each registered language
    that has it, its fields filled in with ``params``, passed through
    ``transform`` (e.g. a LaTeX escape).  Live: a language registered later
    is included.  Derivations carry their title as such a mapping
    (``title.get(lang)``).

    >>> t = Titles("handout.title")
    >>> t["en"], sorted(t)
    ('Reading attention through matrix products', ['en', 'ja'])
    """

    def __init__(self, key: str, transform=None, **params):
        self.key, self.transform, self.params = key, transform, params

    def __getitem__(self, lang):
        language = LANGUAGES.get(lang) if isinstance(lang, str) else None
        if language is None or self.key not in language.templates:
            raise KeyError(lang)
        text = language.templates[self.key].format(**self.params)
        return self.transform(text) if self.transform is not None else text

    def __iter__(self):
        return (code for code, language in LANGUAGES.items() if self.key in language.templates)

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Titles({self.key!r})"


def template(step: Step, lang: str, slide: bool = False) -> str:
    """The template text for a step, in ``lang``; with ``slide``, its phrase for a
    slide (:func:`slide_key`) when it has one."""
    table = get_language(lang).templates
    if slide:
        key = slide_key(step, lang)
        if key is not None:
            return table[key]
    return table[template_key(step, lang)]


#: what a slide's phrase for a step is keyed by: ``"slide."`` and a key its sentence
#: could be found under (``"slide.match_product.attention"``)
SLIDE = "slide."


def slide_key(step: Step, lang: str) -> str | None:
    """The key of a step's phrase on a slide: a few words over its display, where the
    document's sentence goes to the frame's notes.  The keys are tried in the order
    of :func:`template_key`, each with ``"slide."`` before it; None when there is none
    (the slide then shows the sentence).

    >>> slide_key(Step("match_product", {"style": "attention"}), "en")
    'slide.match_product.attention'
    >>> slide_key(Step("heading", {"topic": "combine"}), "en") is None
    True
    """
    if step.kind == "heading":
        return None
    table = get_language(lang).templates
    for key in _keys(step):
        if SLIDE + key in table:
            return SLIDE + key
    return None


def _keys(step: Step) -> list:
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
    return keys


def template_key(step: Step, lang: str) -> str:
    """The key of the template a step is narrated with in ``lang`` (see the module's
    documentation for the order in which keys are tried).

    >>> template_key(Step("combine_entry", {"variant": "concrete"}), "en")
    'combine_entry.concrete'
    """
    table = get_language(lang).templates
    keys = _keys(step)
    for key in keys:
        if key in table:
            return key
    raise KeyError(f"no {lang} narration for step {keys[0]!r}")


#: steps whose sentence refers to the display before them ("The other entries,
#: ..., follow the same pattern")
_REFERRING = frozenset({"expand_others"})


def goes_on(step: Step) -> bool:
    """Whether a step's sentence leans on the step before it, so that a page
    or frame should not part them: it refers to what that step showed ("The
    other entries ... follow the same pattern"), or it goes on with that
    step's sentence (a template that starts in lower case, in a language
    that has cases: "as weights, and combining ...").

    >>> goes_on(Step("combined_points", {})), goes_on(Step("points", {}))
    (True, False)
    >>> goes_on(Step("expand_others", {"variant": "entries"}))
    True
    """
    if step.kind in _REFERRING:
        return True
    if step.kind == "heading":
        return False
    for code in LANGUAGES:
        try:
            words = template(step, code).lstrip()
        except KeyError:
            continue
        if words[:1].isalpha() and words[:1].islower():
            return True
    return False


def segments(step: Step, lang: str, slide: bool = False) -> list[tuple[str, Any]]:
    """The narration as ``("text", str)`` and ``("math", value)`` pieces; with
    ``slide``, of the step's phrase on a slide when it has one (:func:`slide_key`).

    A field written ``{ell:a}`` is preceded by its indefinite article, chosen
    by how the value is read aloud: "a 3-dimensional", "an 8-dimensional",
    "an ℓ-dimensional", "a d-dimensional".
    """
    out: list[tuple[str, Any]] = []
    for literal, field, spec, _conv in _FORMATTER.parse(template(step, lang, slide)):
        if spec == "a":
            literal = (literal or "") + article(step.params[field]) + " "
        if literal:
            out.append(("text", literal))
        if field is not None:
            out.append(("math", literal_math(field[1:]) if field.startswith("=")
                        else step.params[field]))
    return out


def literal_math(text: str):
    """The math a template writes itself, as ``{=i}``: an index or a name in the
    running text ("row {=i}", "node {=i}", "{=d_ii}") is math like any field, so that
    it is set in math italics.  ``name(a, b)`` is an operator applied, ``(a, b)`` a
    pair.

    >>> from symrow.render.latex import latex
    >>> [latex(literal_math(t)) for t in ("i", "d_ii", "diag(s)", "(i, i)")]
    ['i', 'd_{ii}', '\\\\operatorname{diag}(s)', '(i, i)']
    """
    import sympy
    from .. import nodes as N

    def items(inside):
        return [sympy.Symbol(x.strip()) for x in inside.split(",")]

    if text.startswith("(") and text.endswith(")"):
        return N.Label(text, text)
    if "(" in text and text.endswith(")"):
        name, inside = text[:-1].split("(", 1)
        return N.Call(name, items(inside))
    return sympy.Symbol(text)


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


def _numeral(value) -> bool:
    """Whether a math piece is a whole number, written in Arabic numerals."""
    import sympy
    return isinstance(value, (int, sympy.Integer)) and not isinstance(value, bool)


def glued(pieces: list, lang: str) -> list:
    """Segments with each unit kept to its number: ``(kind, value, glue)``, where a
    math piece followed by ``-word`` ("3-dimensional") has glue ``"-"`` and one
    followed by a space and one of the language's ``units`` has glue ``" "``
    ("d 次元"), or ``""`` when it is a whole number ("3個": a numeral takes its
    counter without a space, as the templates write "3つ" and "第1段階"); the
    text piece after it loses that space.  One of its ``ordinals`` before math
    has glue ``" "`` ("第 i 行") or ``""`` ("第2行") too.
    Each renderer writes the glue so that no line breaks there.

    >>> from symrow.narrate import glued
    >>> glued([("text", "点と "), ("math", 3), ("text", " 個、"), ("math", "n"), ("text", " 個")],
    ...       "ja")
    [('text', '点と', None), ('math', 3, ''), ('text', '個、', None), ('math', 'n', ' '), ('text', '個', None)]
    >>> glued([("text", "第 "), ("math", 2), ("text", " 行")], "ja")
    [('text', '第', ''), ('math', 2, ''), ('text', '行', None)]
    """
    language = get_language(lang)
    units, ordinals = language.units, language.ordinals
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
            elif units and text.startswith(" ") and text[1:].startswith(units):
                prev[2], text = "" if _numeral(prev[1]) else " ", text[1:]
        glue = None
        nxt = pieces[k + 1] if k + 1 < len(pieces) else None
        if ordinals and nxt is not None and nxt[0] == "math" and text.endswith(ordinals):
            text, glue = text[:-1], "" if _numeral(nxt[1]) else " "
        out.append(["text", text, glue])
    # a numeral with its counter is one word: no space before it either, after
    # a wide character ("点と2個", as "点と3つ")
    for k in range(1, len(out)):
        before, piece = out[k - 1], out[k]
        if piece[0] == "math" and piece[2] == "" and before[0] == "text" \
                and before[1].endswith(" ") and len(before[1]) > 1 \
                and unicodedata.east_asian_width(before[1][-2]) in "WF":
            before[1] = before[1][:-1]
    return [tuple(p) for p in out]

