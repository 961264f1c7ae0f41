r"""The catalogue of mistakes: data a lecturer can read and extend.

The catalogue that ships with symrow is ``mistakes.toml`` beside this module
(its comments document the format).  :func:`load` reads it, and any files a
lecturer adds (TOML, or JSON with the same fields), and checks every entry:
a code of capital letters, digits and ``-``, a score from 0 to 1, a sentence
in English and in Japanese, and exactly one way to make the mistake (a
``pattern`` with its ``replace``, read by symrow's formula reader, or a
``builtin``).  An entry of a later file replaces the one with its code.

>>> cat = load()
>>> [m.code for m in cat][:3]
['MATCH-AS-COMBINE', 'COMBINE-AS-MATCH', 'TRANSPOSE-MISSING']
>>> cat.get("SCALE-MISSING").score, cat.get("SCALE-MISSING").text("ja")
(0.5, 'ソフトマックスの前にスコアを √d で割っていません。')
>>> import tempfile, pathlib
>>> extra = pathlib.Path(tempfile.mkdtemp()) / "mine.toml"
>>> _ = extra.write_text('''
... [[mistake]]
... code = "DX-NO-TRANSPOSE"
... score = 0.5
... steps = "gradient"
... pattern = 'A W^T'
... replace = 'A W'
... variables = ["A"]
... en = "dX needs W transposed."
... ja = "dX には W の転置が必要です。"
... ''', encoding="utf-8")
>>> [m.code for m in load([extra])][-1]
'DX-NO-TRANSPOSE'
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

from ..errors import OptionError
from .rewrite import Rewrite

__all__ = ["Mistake", "Catalogue", "load", "BUILTIN_FILE", "BUILTINS", "read_file"]

#: the catalogue that ships with symrow
BUILTIN_FILE = Path(__file__).with_name("mistakes.toml")
#: the mutations symrow makes itself (``builtin = "..."``)
BUILTINS = ("sum-bound",)
#: the steps an entry may apply to
STEPS = ("any", "gradient", "forward")
_CODE = re.compile(r"[A-Z][A-Z0-9]*(-[A-Z0-9]+)*")
_FIELDS = {"code", "score", "en", "ja", "pattern", "replace", "variables", "whole", "builtin",
           "steps"}


@dataclasses.dataclass(frozen=True)
class Mistake:
    """One entry of the catalogue (see the module documentation)."""

    code: str
    score: float
    words: tuple                  # ((lang, sentence), ...)
    rewrite: Rewrite | None = None
    builtin: str | None = None
    steps: str = "any"
    source: str = ""

    def text(self, lang: str = "en") -> str:
        words = dict(self.words)
        return words.get(lang) or words["en"]

    def applies_to(self, step) -> bool:
        if self.steps == "gradient":
            return step.gradient
        if self.steps == "forward":
            return not step.gradient
        return True

    def to_dict(self) -> dict:
        return {"code": self.code, "score": self.score, **dict(self.words)}


class Catalogue:
    """The mistakes in order (earlier ones win a tie), by code."""

    def __init__(self, mistakes):
        self.mistakes = tuple(mistakes)

    def __iter__(self):
        return iter(self.mistakes)

    def __len__(self):
        return len(self.mistakes)

    def get(self, code: str) -> Mistake:
        for m in self.mistakes:
            if m.code == code:
                return m
        raise KeyError(code)

    def codes(self) -> list[str]:
        return [m.code for m in self.mistakes]


def _toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise OptionError(f"{path}: not a TOML file: {err}") from None


def read_file(path) -> list:
    """The raw entries of a catalogue file (TOML or JSON: ``{"mistake": [...]}``)."""
    path = Path(path)
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            data = _toml(path)
    except FileNotFoundError:
        raise OptionError(f"cannot read the catalogue {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise OptionError(f"cannot read the catalogue {path}: {err}") from None
    except json.JSONDecodeError as err:
        raise OptionError(f"{path}: not a JSON file: {err}") from None
    entries = data.get("mistake") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise OptionError(f"{path}: a catalogue is a list of [[mistake]] tables")
    return entries


def _entry(raw: dict, where: str) -> Mistake:
    unknown = sorted(set(raw) - _FIELDS)
    if unknown:
        raise OptionError(f"{where}: unknown field {', '.join(unknown)} (the fields are "
                          f"{', '.join(sorted(_FIELDS))})")
    code = raw.get("code")
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise OptionError(f"{where}: code must be capital letters, digits and '-', such as "
                          f"SCALE-MISSING; got {code!r}")
    where = f"{where} ({code})"
    score = raw.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
        raise OptionError(f"{where}: score must be a number from 0 to 1; got {score!r}")
    words = []
    for lang in ("en", "ja"):
        text = raw.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise OptionError(f"{where}: needs a sentence for the student in {lang}")
        words.append((lang, " ".join(text.split())))
    steps = raw.get("steps", "any")
    if steps not in STEPS:
        raise OptionError(f"{where}: steps must be one of {', '.join(STEPS)}; got {steps!r}")
    builtin = raw.get("builtin")
    has_pattern = "pattern" in raw or "replace" in raw
    if (builtin is None) == (not has_pattern):
        raise OptionError(f"{where}: give either pattern and replace, or builtin")
    rewrite = None
    if builtin is not None:
        if builtin not in BUILTINS:
            raise OptionError(f"{where}: builtin must be one of {', '.join(BUILTINS)}; got "
                              f"{builtin!r}")
    else:
        pattern, replace = raw.get("pattern"), raw.get("replace")
        if not isinstance(pattern, str) or not isinstance(replace, str):
            raise OptionError(f"{where}: pattern and replace are both LaTeX text")
        variables = raw.get("variables", ["A", "B"])
        if not isinstance(variables, list) or not all(isinstance(v, str) for v in variables):
            raise OptionError(f"{where}: variables is a list of names such as [\"A\"]")
        whole = raw.get("whole", False)
        if not isinstance(whole, bool):
            raise OptionError(f"{where}: whole is true or false")
        try:
            rewrite = Rewrite.read(pattern, replace, variables, whole)
        except OptionError as err:
            raise OptionError(f"{where}: {err}") from None
    return Mistake(code, float(score), tuple(words), rewrite, builtin, steps, where)


def load(extra=(), entries=()) -> Catalogue:
    """The built-in catalogue, then the entries of each file in ``extra``, then the raw
    ``entries`` (dicts, as an exercise's manifest keeps them), validated."""
    merged: dict = {}
    sources = [("symrow's catalogue", read_file(BUILTIN_FILE))]
    sources += [(str(p), read_file(p)) for p in extra]
    if entries:
        sources.append(("the exercise's catalogue", list(entries)))
    for name, entries_ in sources:
        seen = set()
        entries = entries_
        for k, raw in enumerate(entries, 1):
            mistake = _entry(raw, f"{name}, mistake {k}")
            if mistake.code in seen:
                raise OptionError(f"{name}: the code {mistake.code} is given twice")
            seen.add(mistake.code)
            merged[mistake.code] = mistake
    return Catalogue(merged.values())
