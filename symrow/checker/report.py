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
        if self.error is not None:
            out["error"] = dict(self.error)
        return out

    def where(self) -> str:
        """``for m = 2, ℓ = 3, n = 5 and i = 1, k = 2: `` (empty when nothing is fixed)."""
        parts = []
        if self.sizes:
            parts.append(", ".join(f"{_size_name(k)} = {v}" for k, v in self.sizes.items()))
        if self.indices:
            parts.append(", ".join(f"{k} = {v}" for k, v in self.indices.items()))
        return ("for " + " and ".join(parts) + ": ") if parts else ""

    def text_lines(self, widths: tuple[int, int] = (1, 1)) -> list[str]:
        head = (f"step {self.index:<{widths[0]}}  line {self.line:<{widths[1]}}  "
                f"{self.status:<10}  ")
        pad = " " * (len(head) - 12)
        if self.status == "unreadable":
            err = self.error or {}
            where = f"line {err.get('line')}, column {err.get('column')}"
            if err.get("near"):
                where += f", at '{err['near']}'"
            return [head + f"{where}: {err.get('message', self.message)}"]
        lines = [head + _short(self.claim)]
        if self.status == "wrong":
            lines.append(pad + self.where() + self.message)
            detail = self.detail or {}
            for line in _detail_lines(detail):
                lines.append(pad + "  " + line)
            if self.others:
                shown = ", ".join(f"({i}, {j})" for i, j in self.others[:8])
                more = f" and {len(self.others) - 8} more" if len(self.others) > 8 else ""
                lines.append(pad + f"entries {shown}{more} differ too")
        elif self.status in ("unchecked", "defines") and self.message:
            lines.append(pad + self.message)
        return lines


def _size_name(name: str) -> str:
    return "ℓ" if name == "ell" else name


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _detail_lines(detail: dict, prefix: str = "") -> list[str]:
    lines = []
    for part in detail.get("parts", ()):
        lines += _detail_lines(part, prefix=prefix + part["part"] + ": ")
    if not detail.get("parts"):
        if detail.get("missing"):
            lines.append(prefix + "missing term" + ("s" if len(detail["missing"]) > 1 else "")
                         + ": " + ", ".join(detail["missing"]))
        if detail.get("extra"):
            lines.append(prefix + "extra term" + ("s" if len(detail["extra"]) > 1 else "")
                         + ": " + ", ".join(detail["extra"]))
        for c in detail.get("coefficients", ()):
            if c["term"] == "1" and not detail.get("missing") and not detail.get("extra") \
                    and len(detail.get("coefficients", ())) == 1:
                lines.append(prefix + f"the value is {c['got']}, expected {c['expected']}")
            elif c["term"] == "1":
                lines.append(prefix + f"the number added on its own is {c['got']}, expected "
                                      f"{c['expected']}")
            else:
                lines.append(prefix + f"coefficient of {c['term']}: {c['got']}, expected "
                                      f"{c['expected']}")
    for hint in detail.get("hints", ()):
        lines.append(prefix + "hint: " + hint)
    counter = detail.get("counterexample")
    if counter:
        values = list(counter["values"].items())
        shown = ", ".join(f"{k} = {v}" for k, v in values[:12])
        if len(values) > 12:
            shown += f", ... ({len(values)} values in the JSON report)"
        at = f"at {shown}: " if shown else ""
        lines.append(f"for example {at}left = {counter['left']}, right = {counter['right']}")
    if detail.get("note"):
        lines.append(prefix + detail["note"])
    return lines


class Report:
    """The result of :func:`symrow.check`.

    ``against`` describes what was checked against (kind, sizes, options);
    ``steps`` are :class:`StepReport` records in the order of the text.
    """

    def __init__(self, against: str, steps, *, notes: tuple = (), unread: tuple = (),
                 convention: str | None = None):
        self.against = against
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
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def summary(self) -> str:
        """``holds (12 claims checked: 12 hold; 2 not checked)``."""
        c = self.counts
        checked = f"{_plural(c['checked'], 'claim')} checked"
        if c["checked"]:
            parts = []
            if c["holds"]:
                parts.append(f"{c['holds']} hold" + ("s" if c["holds"] == 1 else ""))
            if c["wrong"]:
                parts.append(f"{c['wrong']} wrong")
            checked += ": " + ", ".join(parts)
        more = []
        if c["unreadable"]:
            more.append(f"{c['unreadable']} could not be read")
        if c["unchecked"]:
            more.append(f"{c['unchecked']} not checked")
        if c["defines"]:
            more.append(_plural(c["defines"], "definition"))
        if self.unread:
            more.append(f"{len(self.unread)} piece{'s' if len(self.unread) > 1 else ''} "
                        f"of math not read")
        return f"{self.verdict} ({checked}" + ("; " + ", ".join(more) if more else "") + ")"

    def to_text(self) -> str:
        lines = [f"symrow check against {self.against}"]
        if self.convention:
            lines.append(f"convention: {self.convention}")
        lines += [f"note: {note}" for note in self.notes]
        lines += [f"not read: line {u['line']}, column {u['column']}: {u['reason']}"
                  for u in self.unread]
        widths = (max((len(str(s.index)) for s in self.steps), default=1),
                  max((len(str(s.line)) for s in self.steps), default=1))
        section = None
        for step in self.steps:
            if step.section is not None and step.section != section:
                section = step.section
                lines.append(f"-- section {section}")
            lines += step.text_lines(widths)
        lines.append(f"verdict: {self.summary()}")
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
