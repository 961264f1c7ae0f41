"""Narration languages as data: one :class:`Language` record each, in a registry.

A language is its templates (modules with a ``TEMPLATES`` dict, the same
keys in every language) and one record of what the renderers need to know:
the TeX engine and the preambles of a document and of a deck, how text is
wrapped for a terminal, how much running text a slide's line holds, and a
few words the renderers write themselves ("(cont.)").  Nothing else in
symrow names a language: the command line's ``--lang`` choices, the
engines and the preambles all come from :data:`LANGUAGES`.

>>> from symrow.narrate.languages import LANGUAGES, get_language
>>> list(LANGUAGES)
['en', 'ja']
>>> get_language("ja").engine, get_language("ja").words["cont"]
('lualatex', '（続き）')
>>> get_language("fr")
Traceback (most recent call last):
...
symrow.errors.OptionError: unknown language 'fr'; choose one of: en, ja

A new language is a record with its own templates, registered once
(:func:`register`); every renderer and the command line then offer it.
A copy of English with other words, say:

>>> import dataclasses
>>> xx = dataclasses.replace(get_language("en"), code="xx", name="Test English",
...                          words={"cont": "(more)"})
>>> xx.templates["heading.combine"]
'The product {AB}: combine'
"""

from __future__ import annotations

import collections
import dataclasses
import re
from types import MappingProxyType
from typing import Any, Mapping

from ..errors import OptionError
from . import (attention_en, attention_ja, en, figures_en, figures_ja, handout_en, handout_ja,
               ja, readings_en, readings_ja, slides_en, slides_ja)

__all__ = ["Language", "LANGUAGES", "register", "get_language", "codes", "WRAPS"]

#: how a language's text is filled for a terminal: between words (textwrap), or
#: between any two wide characters, by display width (CJK)
WRAPS = ("words", "width")

#: the words a renderer writes itself, which every language gives
WORDS = ("cont",)


@dataclasses.dataclass(frozen=True)
class Language:
    """One narration language: its templates and its typesetting.

    * ``code``: what ``lang=`` and ``--lang`` take (``"en"``);
    * ``name``: its name, in itself (``"English"``, ``"日本語"``);
    * ``sources``: the template modules (anything with a ``TEMPLATES``
      dict); their keys must not clash;
    * ``engine``: the TeX engine of its documents and decks;
    * ``document_class``: the class of a standalone document (A4, 11 pt);
    * ``preamble``: what a document needs after amsmath (packages, settings);
    * ``beamer_preamble``: what a Beamer deck needs right after its class;
    * ``wrap``: ``"words"`` or ``"width"`` (see :data:`WRAPS`);
    * ``slide_chars``: running text one line of a slide holds, in Latin
      letters (a wide character counts two), leaning low;
    * ``words``: the words renderers write, by key: ``"cont"``, the mark
      of a continued frame;
    * ``units`` and ``ordinals``: words after (``"個"``) and before
      (``"第 "``) a number that stay on its line.
    """

    code: str
    name: str
    sources: tuple
    engine: str = "pdflatex"
    document_class: str = "article"
    preamble: str = ""
    beamer_preamble: str = ""
    wrap: str = "words"
    slide_chars: int = 62
    words: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType({"cont": "(cont.)"}))
    units: tuple = ()
    ordinals: tuple = ()

    def __post_init__(self):
        if not (isinstance(self.code, str) and re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]+)?",
                                                              self.code)):
            raise ValueError(f"a language code is two or three lower-case letters, with an "
                             f"optional -region: got {self.code!r}")
        if self.wrap not in WRAPS:
            raise ValueError(f"wrap must be one of {WRAPS}; got {self.wrap!r}")
        missing = [w for w in WORDS if w not in self.words]
        if missing:
            raise ValueError(f"language {self.code!r} lacks the words {missing}")
        object.__setattr__(self, "words", MappingProxyType(dict(self.words)))
        object.__setattr__(self, "sources", tuple(self.sources))
        table: dict = {}
        origin: dict = {}
        for source in self.sources:
            for key, text in source.TEMPLATES.items():
                if key in table:
                    raise ValueError(f"{self.code}: template {key!r} is in both "
                                     f"{origin[key]} and {_name(source)}")
                table[key], origin[key] = text, _name(source)
        # the sources' templates, and those added since (add_templates)
        object.__setattr__(self, "_added", {})
        object.__setattr__(self, "_templates", MappingProxyType(
            collections.ChainMap(self._added, table)))

    @property
    def templates(self) -> Mapping[str, str]:
        """Every template of the language, by key (read-only): its sources', and
        any added with :meth:`add_templates`."""
        return self._templates

    def add_templates(self, templates: Mapping[str, str]) -> None:
        """Add the sentences of a new reading (or preset); a key the language has
        already is refused (an :class:`~symrow.OptionError`), so that no reading
        changes another's words."""
        clash = sorted(set(templates) & set(self._templates))
        if clash:
            raise OptionError(f"{self.code} narration for {', '.join(clash)} exists already")
        self._added.update(templates)

    def remove_templates(self, keys) -> None:
        """Remove templates added with :meth:`add_templates` (not the sources')."""
        for key in keys:
            self._added.pop(key, None)


def _name(source: Any) -> str:
    return getattr(source, "__name__", type(source).__name__)


#: the registered languages, by code, in the order they were registered
LANGUAGES: dict[str, Language] = {}


def register(language: Language) -> Language:
    """Add (or replace) a language; the renderers and ``--lang`` offer it from then on."""
    if not isinstance(language, Language):
        raise TypeError(f"register() takes a Language; got {type(language).__name__}")
    LANGUAGES[language.code] = language
    return language


def codes() -> tuple:
    """The codes of the registered languages."""
    return tuple(LANGUAGES)


def get_language(code: Any) -> Language:
    """The registered language ``code``; an :class:`~symrow.OptionError` naming the
    choices when there is none."""
    found = LANGUAGES.get(code) if isinstance(code, str) else None
    if found is None:
        raise OptionError(f"unknown language {code!r}; choose one of: {', '.join(LANGUAGES)}")
    return found


register(Language(
    code="en", name="English", sources=(en, readings_en, attention_en, handout_en, figures_en,
                                            slides_en),
    engine="pdflatex", document_class="article"))

register(Language(
    code="ja", name="日本語", sources=(ja, readings_ja, attention_ja, handout_ja, figures_ja,
                                            slides_ja),
    engine="lualatex", document_class="ltjsarticle",
    # a missing glyph stops the build instead of leaving a gap
    preamble="\\tracinglostchars=3\n",
    beamer_preamble=(
        "\\usepackage{luatexja}\n"
        "\\renewcommand{\\kanjifamilydefault}{\\gtdefault}\n"
        "\\tracinglostchars=3\n"
        # beamer sets bold math letters in the text italic, which Latin
        # Modern has no bold of in TU: take the bold slant, without a warning
        "\\input{tulmr.fd}\\DeclareFontShape{TU}{lmr}{b}{it}{<->ssub*lmr/b/sl}{}\n"),
    wrap="width", slide_chars=56, words={"cont": "（続き）"},
    units=("個", "次元", "行", "列", "回", "番", "成分", "項", "つ分"), ordinals=("第 ",)))
