"""The checker's report: one verdict per step, and one overall.

A step *holds*, is *wrong*, or is *unparsed* (it could not be read; the
report says where reading stopped and what was there).  The overall verdict
is ``wrong`` if any step is wrong (a definite finding), else ``unparsed`` if
any step could not be read, else ``holds``.  Exit codes follow: 0 holds,
1 wrong, 2 unparsed.

>>> from symrow.checker.report import Report, StepReport
>>> r = Report("combine (m=1, ℓ=1, n=1)", [StepReport(1, 1, 3, "C", "AB", "holds")])
>>> r.verdict, r.ok, r.exit_code
('holds', True, 0)
>>> print(r.to_text())
symrow check against combine (m=1, ℓ=1, n=1)
step 1  line 1  holds     C = AB
verdict: holds (1 step holds)
"""

from __future__ import annotations

import dataclasses
import json

__all__ = ["StepReport", "Report"]

STATUSES = ("holds", "wrong", "unparsed")


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclasses.dataclass(frozen=True)
class StepReport:
    """One step: ``left = right`` at ``line``/``column`` (of its ``=``), and its verdict.

    For a wrong step: ``message`` says what differs, ``entry`` is the
    (row, column) of the first differing entry (None for numbers),
    ``indices`` the values of free indices such as i and j where it
    differs, ``detail`` the missing/extra terms, wrong coefficients and the
    numeric counterexample (a dict), ``others`` further differing entries.
    For an unparsed step: ``error`` holds message, line, column and near.
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

    def to_dict(self) -> dict:
        out = {"index": self.index, "line": self.line, "column": self.column,
               "left": self.left, "right": self.right, "status": self.status}
        if self.message:
            out["message"] = self.message
        if self.entry is not None:
            out["entry"] = list(self.entry)
        if self.indices:
            out["indices"] = dict(self.indices)
        if self.detail is not None:
            out["detail"] = self.detail
        if self.others:
            out["other_entries"] = [list(e) for e in self.others]
        if self.error is not None:
            out["error"] = dict(self.error)
        return out

    def text_lines(self, widths: tuple[int, int] = (1, 1)) -> list[str]:
        head = (f"step {self.index:<{widths[0]}}  line {self.line:<{widths[1]}}  "
                f"{self.status:<8}  ")
        if self.status == "unparsed":
            err = self.error or {}
            where = f"line {err.get('line')}, column {err.get('column')}"
            if err.get("near"):
                where += f", at '{err['near']}'"
            return [head + f"{where}: {err.get('message', self.message)}"]
        lines = [head + _short(f"{self.left} = {self.right}")]
        if self.status == "wrong":
            where = ""
            if self.indices:
                where = "for " + ", ".join(f"{k} = {v}" for k, v in self.indices.items()) + ": "
            pad = " " * (len(head) - 10)
            lines.append(pad + where + self.message)
            detail = self.detail or {}
            for line in _detail_lines(detail):
                lines.append(pad + "  " + line)
            if self.others:
                shown = ", ".join(f"({i}, {j})" for i, j in self.others[:8])
                more = f" and {len(self.others) - 8} more" if len(self.others) > 8 else ""
                lines.append(pad + f"entries {shown}{more} differ too")
        return lines


def _detail_lines(detail: dict, prefix: str = "") -> list[str]:
    lines = []
    for part in detail.get("parts", ()):
        lines += _detail_lines(part, prefix=part["part"] + ": ")
    if not detail.get("parts"):
        if detail.get("missing"):
            lines.append(prefix + "missing term" + ("s" if len(detail["missing"]) > 1 else "")
                         + ": " + ", ".join(detail["missing"]))
        if detail.get("extra"):
            lines.append(prefix + "extra term" + ("s" if len(detail["extra"]) > 1 else "")
                         + ": " + ", ".join(detail["extra"]))
        for c in detail.get("coefficients", ()):
            lines.append(prefix + f"coefficient of {c['term']}: {c['got']}, expected "
                                  f"{c['expected']}")
    counter = detail.get("counterexample")
    if counter:
        values = list(counter["values"].items())
        shown = ", ".join(f"{k} = {v}" for k, v in values[:12])
        if len(values) > 12:
            shown += f", ... ({len(values)} values in the JSON report)"
        lines.append(f"for example at {shown}: left = {counter['left']}, "
                     f"right = {counter['right']}")
    if detail.get("note"):
        lines.append(detail["note"])
    return lines


class Report:
    """The result of :func:`symrow.check`."""

    def __init__(self, against: str, steps):
        self.against = against
        self.steps = tuple(steps)

    @property
    def counts(self) -> dict:
        return {s: sum(1 for step in self.steps if step.status == s) for s in STATUSES}

    @property
    def verdict(self) -> str:
        """``holds``, ``wrong`` (a step is wrong) or ``unparsed`` (a step could not be read)."""
        counts = self.counts
        if counts["wrong"]:
            return "wrong"
        if counts["unparsed"] or not self.steps:
            return "unparsed"
        return "holds"

    @property
    def ok(self) -> bool:
        """True when every step holds."""
        return self.verdict == "holds"

    @property
    def exit_code(self) -> int:
        """0 every step holds, 1 a step is wrong, 2 a step could not be read."""
        return {"holds": 0, "wrong": 1, "unparsed": 2}[self.verdict]

    def to_dict(self) -> dict:
        return {"against": self.against, "verdict": self.verdict, "ok": self.ok,
                "exit_code": self.exit_code, "counts": self.counts,
                "steps": [step.to_dict() for step in self.steps]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_text(self) -> str:
        lines = [f"symrow check against {self.against}"]
        widths = (max((len(str(s.index)) for s in self.steps), default=1),
                  max((len(str(s.line)) for s in self.steps), default=1))
        for step in self.steps:
            lines += step.text_lines(widths)
        counts = self.counts
        parts = []
        for status in STATUSES:
            n = counts[status]
            if n:
                noun = "step" if n == 1 else "steps"
                verb = {"holds": "holds" if n == 1 else "hold", "wrong": "wrong",
                        "unparsed": "could not be read"}[status]
                parts.append(f"{n} {noun} {verb}" if status == "holds" else
                             f"{n} {verb}")
        lines.append(f"verdict: {self.verdict} ({', '.join(parts)})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Report {self.verdict}: {len(self.steps)} steps against {self.against}>"

    def __str__(self) -> str:
        return self.to_text()
