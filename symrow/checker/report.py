"""The checker's report: one verdict per step, and one overall.

Every relation of the hand derivation (``=``, ``\\approx``, ``\\le``,
``\\in``, ``\\longmapsto``, ...) is a *claim*, reported as one step with
one status:

* ``holds`` and ``wrong``: the claim was checked (a wrong step says where:
  the entry, the terms, and for general sizes the sizes and index values);
* ``unreadable``: it could not be read (the report says where reading
  stopped and what was there), or its layout is ambiguous;
* ``unchecked``: it was read but cannot be decided here (a map between two
  given points, an ``\\approx`` between symbols, a value that needs the
  numbers of an operand), with the reason;
* ``defines``: a definition that gives an operand its values
  (``A = \\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}``); not a claim.

The overall verdict is ``wrong`` if any step is wrong (a definite
finding), else ``unreadable`` if any step could not be read, else
``unchecked`` if no claim could be checked at all, else ``holds``.  Exit
codes follow: 0 holds, 1 wrong, 2 unreadable or nothing checked.

>>> from symrow.checker.report import Report, StepReport
>>> r = Report("combine (m=1, ℓ=1, n=1)", [StepReport(1, 1, 3, "C", "AB", "holds")])
>>> r.verdict, r.ok, r.exit_code
('holds', True, 0)
>>> print(r.to_text())
symrow check against combine (m=1, ℓ=1, n=1)
step 1  line 1  holds       C = AB
verdict: holds (1 claim checked: 1 holds)
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata

from .words import message, say

__all__ = ["StepReport", "Report"]

STATUSES = ("holds", "wrong", "unreadable", "unchecked", "defines")

#: how each relation is written in a report line
RELATION_TEXT = {"eq": "=", "approx": "\\approx", "le": "\\le", "ge": "\\ge", "lt": "<",
                 "gt": ">", "ne": "\\ne", "in": "\\in", "map": "\\longmapsto",
                 "other": "~"}


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclasses.dataclass(frozen=True)
class StepReport:
    """One step: ``left R right`` at ``line``/``column`` (of its relation), and its verdict.

    ``relation`` is the kind of claim (``eq``, ``approx``, ``le``, ``ge``,
    ``lt``, ``gt``, ``ne``, ``in``, ``map``).  For a wrong step: ``message``
    says what differs, ``entry`` is the (row, column) of the first differing
    entry (None for numbers), ``indices`` the values of free indices such as
    i and j where it differs, ``sizes`` the sizes it was checked at (for a
    general derivation), ``detail`` the missing/extra terms, wrong
    coefficients and the numeric counterexample (a dict), ``others``
    further differing entries.  For an unreadable step: ``error`` holds
    message, line, column and near.  For an unchecked step, ``message``
    says why.
    """

    index: int
    line: int
    column: int
    left: str
    right: str
    status: str
    message: str = ""
    entry: tuple | None = None
    indices: dict | None = None
    detail: dict | None = None
    others: tuple = ()
    error: dict | None = None
    relation: str = "eq"
    sizes: dict | None = None
    section: str | None = None
    symbol: str = ""
    #: for a step whose sides differ in shape: each side's (rows, columns), None for a
    #: number (the hints read it; the message says it in words)
    shapes: tuple | None = None

    @property
    def claim(self) -> str:
        """The step as written, ``left = right``, on one line."""
        symbol = self.symbol or RELATION_TEXT.get(self.relation, "=")
        return " ".join(f"{self.left} {symbol} {self.right}".split())

    def to_dict(self) -> dict:
        out = {"index": self.index, "line": self.line, "column": self.column,
               "left": self.left, "relation": self.relation,
               "symbol": self.symbol or RELATION_TEXT.get(self.relation, "="),
               "right": self.right, "status": self.status}
        if self.section is not None:
            out["section"] = self.section
        if self.message:
            out["message"] = self.message
        if self.sizes:
            out["sizes"] = dict(self.sizes)
        if self.indices:
            out["indices"] = dict(self.indices)
        if self.entry is not None:
            out["entry"] = list(self.entry)
        if self.detail is not None:
            out["detail"] = self.detail
        if self.others:
            out["other_entries"] = [list(e) for e in self.others]
        if self.shapes is not None:
            out["shapes"] = [None if x is None else list(x) for x in self.shapes]
        if self.error is not None:
            out["error"] = dict(self.error)
        return out

    def where(self, lang: str = "en") -> str:
        """``for m = 2, ℓ = 3, n = 5 and i = 1, k = 2: `` (empty when nothing is fixed)."""
        parts = []
        if self.sizes:
            parts.append(", ".join(f"{_size_name(k)} = {v}" for k, v in self.sizes.items()))
        if self.indices:
            parts.append(", ".join(f"{k} = {v}" for k, v in self.indices.items()))
        return say("where.for", lang, parts=say("where.and", lang).join(parts)) \
            if parts else ""

    def text_lines(self, widths: tuple[int, int] = (1, 1), lang: str = "en") -> list[str]:
        status = _ljust(say("status." + self.status, lang), 10)
        head = say("step", lang, index=f"{self.index:<{widths[0]}}",
                   line=f"{self.line:<{widths[1]}}", status=status)
        pad = " " * len(f"step {self.index:<{widths[0]}}  line {self.line:<{widths[1]}}  ")
        if self.status == "unreadable":
            err = self.error or {}
            where = say("where.at", lang, line=err.get("line"), column=err.get("column"))
            if err.get("near"):
                where += say("where.near", lang, near=err["near"])
            return [head + f"{where}: {message(err.get('message', self.message), lang)}"]
        lines = [head + _short(self.claim)]
        if self.status == "wrong":
            lines.append(pad + self.where(lang) + message(self.message, lang))
            detail = self.detail or {}
            for line in _detail_lines(detail, lang=lang):
                lines.append(pad + "  " + line)
            if self.others:
                shown = ", ".join(f"({i}, {j})" for i, j in self.others[:8])
                more = say("others.more", lang, count=len(self.others) - 8) \
                    if len(self.others) > 8 else ""
                lines.append(pad + say("others", lang, shown=shown, more=more))
        elif self.status in ("unchecked", "defines") and self.message:
            lines.append(pad + message(self.message, lang))
        return lines


def _ljust(text: str, width: int) -> str:
    """``text`` padded to ``width`` columns as a terminal shows it (a kana or kanji takes
    two)."""
    shown = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - shown)


def _size_name(name: str) -> str:
    return "ℓ" if name == "ell" else name


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _detail_lines(detail: dict, prefix: str = "", lang: str = "en") -> list[str]:
    lines = []
    for part in detail.get("parts", ()):
        lines += _detail_lines(part, prefix=prefix + part["part"] + ": ", lang=lang)
    if not detail.get("parts"):
        for kind in ("missing", "extra"):
            terms = detail.get(kind)
            if terms:
                lines.append(prefix + say(f"{kind}.{'many' if len(terms) > 1 else 'one'}",
                                          lang, terms=", ".join(terms)))
        for c in detail.get("coefficients", ()):
            if c["term"] == "1" and not detail.get("missing") and not detail.get("extra") \
                    and len(detail.get("coefficients", ())) == 1:
                lines.append(prefix + say("value", lang, got=c["got"], expected=c["expected"]))
            elif c["term"] == "1":
                lines.append(prefix + say("constant", lang, got=c["got"],
                                          expected=c["expected"]))
            else:
                lines.append(prefix + say("coefficient", lang, term=c["term"], got=c["got"],
                                          expected=c["expected"]))
    for hint in detail.get("hints", ()):
        lines.append(prefix + say("hint", lang, text=message(hint, lang)))
    # the counterexample's values are in the JSON report (to_dict), not in the text
    if detail.get("note"):
        lines.append(prefix + message(detail["note"], lang))
    return lines


class Report:
    """The result of :func:`symrow.check`.

    ``against`` describes what was checked against (kind, sizes, options);
    ``steps`` are :class:`StepReport` records in the order of the text.
    """

    def __init__(self, against: str, steps, *, notes: tuple = (), unread: tuple = (),
                 convention: str | None = None, lang: str = "en"):
        self.against = against
        #: the language of the report's words (``en`` or ``ja``; see :mod:`.words`)
        self.lang = lang
        self.steps = tuple(steps)
        self.notes = tuple(notes)
        #: math on the page that was not read: dicts with line, column, near, reason
        self.unread = tuple(unread)
        #: the vector convention the page was read with (``row`` or ``column``, and how
        #: it was found), or None when no step depends on it
        self.convention = convention

    @property
    def counts(self) -> dict:
        """Steps by status, and ``checked`` (claims that hold or are wrong)."""
        out = {s: sum(1 for step in self.steps if step.status == s) for s in STATUSES}
        out["checked"] = out["holds"] + out["wrong"]
        return out

    @property
    def verdict(self) -> str:
        """``holds``, ``wrong``, ``unreadable`` or ``unchecked`` (nothing could be checked)."""
        counts = self.counts
        if counts["wrong"]:
            return "wrong"
        if counts["unreadable"]:
            return "unreadable"
        if not counts["checked"] or self.unread:
            return "unchecked"      # "holds" only when every piece of math was read
        return "holds"

    @property
    def ok(self) -> bool:
        """True when every claim that could be checked holds, and at least one did."""
        return self.verdict == "holds"

    @property
    def exit_code(self) -> int:
        """0 holds, 1 a step is wrong, 2 a step could not be read or nothing was checked."""
        return {"holds": 0, "wrong": 1, "unreadable": 2, "unchecked": 2}[self.verdict]

    def to_dict(self) -> dict:
        out = {"against": self.against, "verdict": self.verdict, "ok": self.ok,
               "exit_code": self.exit_code, "counts": self.counts,
               "steps": [step.to_dict() for step in self.steps]}
        if self.notes:
            out["notes"] = list(self.notes)
        if self.unread:
            out["unread"] = [dict(u) for u in self.unread]
        if self.convention:
            out["convention"] = self.convention
        out["lang"] = self.lang
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def summary(self, lang: str | None = None) -> str:
        """``holds (12 claims checked: 12 hold; 2 not checked)``."""
        lang = lang or self.lang
        c = self.counts
        checked = say("claims.one" if c["checked"] == 1 else "claims.many", lang,
                      count=c["checked"])
        if c["checked"]:
            parts = []
            if c["holds"]:
                parts.append(say("holds.one" if c["holds"] == 1 else "holds.many", lang,
                                 count=c["holds"]))
            if c["wrong"]:
                parts.append(say("wrong.count", lang, count=c["wrong"]))
            checked += say("checked_then", lang) + say("list", lang).join(parts)
        more = []
        if c["unreadable"]:
            more.append(say("could_not_read", lang, count=c["unreadable"]))
        if c["unchecked"]:
            more.append(say("not_checked", lang, count=c["unchecked"]))
        if c["defines"]:
            more.append(say("definitions.one" if c["defines"] == 1 else "definitions.many",
                            lang, count=c["defines"]))
        if self.unread:
            more.append(say("unread.one" if len(self.unread) == 1 else "unread.many", lang,
                            count=len(self.unread)))
        return say("summary", lang, verdict=say("verdict." + self.verdict, lang),
                   checked=checked,
                   more=(say("more_then", lang) + say("list", lang).join(more)) if more else "")

    def summary_inner(self, lang: str | None = None) -> str:
        """The summary without its verdict: ``12 claims checked: 12 hold``."""
        lang = lang or self.lang
        whole = self.summary(lang)
        head = say("summary", lang, verdict=say("verdict." + self.verdict, lang),
                   checked="\0", more="")
        start, end = head.split("\0")
        return whole[len(start):len(whole) - len(end)]

    def to_text(self, lang: str | None = None) -> str:
        """The report as plain text, in ``lang`` (default: the report's own, which
        :func:`symrow.check` takes from the page)."""
        lang = lang or self.lang
        lines = [say("against", lang, against=self.against)]
        if self.convention:
            lines.append(say("convention", lang, text=message(self.convention, lang)))
        lines += [say("note", lang, text=message(note, lang)) for note in self.notes]
        lines += [say("not_read", lang, line=u["line"], column=u["column"],
                      reason=message(u["reason"], lang)) for u in self.unread]
        widths = (max((len(str(s.index)) for s in self.steps), default=1),
                  max((len(str(s.line)) for s in self.steps), default=1))
        section = None
        for step in self.steps:
            if step.section is not None and step.section != section:
                section = step.section
                lines.append(say("section", lang, section=section))
            lines += step.text_lines(widths, lang)
        lines.append(say("verdict", lang, text=self.summary(lang)))
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The report as Markdown with ``$$`` math (KaTeX, MathJax, Jupyter)."""
        from .present import to_markdown
        return to_markdown(self)

    def to_latex(self) -> str:
        """The report as a LaTeX fragment (amsmath, xcolor for the highlights)."""
        from .present import to_latex
        return to_latex(self)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_latex_(self) -> str:
        from .present import to_jupyter_latex
        return to_jupyter_latex(self)

    def __repr__(self) -> str:
        count = len(self.steps)
        return (f"<Report {self.verdict}: {count} step{'' if count == 1 else 's'} "
                f"against {self.against}>")

    def __str__(self) -> str:
        return self.to_text()
