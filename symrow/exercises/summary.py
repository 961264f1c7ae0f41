r"""A graded class: per student the score and the codes, and the class's most frequent mistakes.

:class:`GradedSummary` is the checker's class summary
(:class:`symrow.checker.classroom.ClassSummary`) with, for every file, the
student, the score and the mistake codes; and for the class, a table of the
most frequent mistakes (code, how many students made it, what it means) and
an SVG bar chart of it.  It renders as text, CSV, JSON and Markdown.

>>> from symrow.exercises.grade import Grade, StepGrade
>>> g = Grade("ann.md", "s01", "wrong", 2.5, 3.0,
...           [StepGrade("S", 1, 1, "correct"), StepGrade("P", 1, 0.5, "mistake", "SCALE-MISSING"),
...            StepGrade("O", 1, 1, "carried")])
>>> s = GradedSummary("attention (m=2, n=3, d=2)", [g])
>>> print(s.to_text())
file    student  verdict  score    codes          steps
ann.md  s01      wrong    2.5 / 3  SCALE-MISSING  S correct, P mistake, O carried
1 file: 1 wrong; mean score 2.5 / 3
<BLANKLINE>
most frequent mistakes
code           students  steps  meaning
SCALE-MISSING         1      1  The scores were not divided by the square root of d before the softmax.
"""

from __future__ import annotations

import collections
import csv
import io
import json
from xml.sax.saxutils import escape

from ..checker.classroom import ClassSummary, FileResult

__all__ = ["GradedSummary", "svg_chart"]

COLUMNS = ("file", "student", "verdict", "score", "max_score", "codes", "steps", "note")


class GradedSummary(ClassSummary):
    """The class summary of a graded exercise (see the module documentation)."""

    def __init__(self, against: str, grades, catalogue=None, lang: str = "en"):
        results = [FileResult(g.file, g.verdict, {}, note="; ".join(g.notes))
                   for g in grades]
        super().__init__(against, results)
        self.grades = list(grades)
        self.catalogue = catalogue
        self.lang = lang

    # -- the class ------------------------------------------------------------------------
    def frequent(self) -> list[tuple]:
        """(code, students, steps) of every mistake made, most students first."""
        students = collections.Counter()
        steps = collections.Counter()
        for g in self.grades:
            codes = g.codes
            steps.update(codes)
            students.update(set(codes))
        return sorted(((c, students[c], steps[c]) for c in students),
                      key=lambda t: (-t[1], -t[2], t[0]))

    def meaning(self, code: str) -> str:
        if self.catalogue is None:
            from .catalogue import load
            self.catalogue = load()
        try:
            return self.catalogue.get(code).text(self.lang)
        except KeyError:
            return ""

    def mean(self) -> float:
        return sum(g.score for g in self.grades) / len(self.grades) if self.grades else 0.0

    def totals(self) -> str:
        top = self.grades[0].max_score if self.grades else 0
        return super().totals() + f"; mean score {_num(self.mean())} / {_num(top)}"

    # -- formats --------------------------------------------------------------------------
    _HEAD = ["file", "student", "verdict", "score", "codes", "steps"]

    def _cells(self) -> list[list[str]]:
        out = []
        for g in self.grades:
            out.append([g.file, g.student or "-", g.verdict,
                        f"{_num(g.score)} / {_num(g.max_score)}",
                        " ".join(g.codes) or "-",
                        ", ".join(f"{s.name} {s.status}" for s in g.steps)])
        return out

    def _frequent_rows(self) -> list[list[str]]:
        return [[c, str(n), str(k), self.meaning(c)] for c, n, k in self.frequent()]

    def to_text(self) -> str:
        rows = [self._HEAD] + self._cells()
        widths = [max(len(r[k]) for r in rows) for k in range(len(self._HEAD))]
        lines = ["  ".join(r[k].ljust(widths[k]) for k in range(len(r))).rstrip()
                 for r in rows]
        lines.append(self.totals())
        freq = [["code", "students", "steps", "meaning"]] + self._frequent_rows()
        if len(freq) > 1:
            w = [max(len(r[k]) for r in freq) for k in range(3)]
            lines += ["", "most frequent mistakes"]
            for r in freq:
                head = r is freq[0]
                lines.append("  ".join([r[0].ljust(w[0]),
                                        r[1].ljust(w[1]) if head else r[1].rjust(w[1]),
                                        r[2].ljust(w[2]) if head else r[2].rjust(w[2]),
                                        r[3]]).rstrip())
        return "\n".join(lines)

    def to_markdown(self) -> str:
        def esc(text: str) -> str:
            return text.replace("|", "\\|")
        lines = [f"**symrow exercise** {esc(self.against)}", "",
                 "| " + " | ".join(self._HEAD) + " |",
                 "|---|---|---|---:|---|---|"]
        lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in self._cells()]
        lines += ["", self.totals()]
        freq = self._frequent_rows()
        if freq:
            lines += ["", "**Most frequent mistakes**", "",
                      "| code | students | steps | meaning |", "|---|---:|---:|---|"]
            lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in freq]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for g in self.grades:
            writer.writerow({"file": g.file, "student": g.student or "", "verdict": g.verdict,
                             "score": _num(g.score), "max_score": _num(g.max_score),
                             "codes": " ".join(g.codes),
                             "steps": "; ".join(f"{s.name}={s.status}" for s in g.steps),
                             "note": "; ".join(g.notes)})
        return out.getvalue()

    def to_dict(self) -> dict:
        return {"against": self.against, "verdict": self.verdict, "exit_code": self.exit_code,
                "mean_score": round(self.mean(), 4),
                "files": [g.to_dict() for g in self.grades],
                "frequent_mistakes": [{"code": c, "students": n, "steps": k,
                                       "meaning": self.meaning(c)}
                                      for c, n, k in self.frequent()]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_svg(self) -> str:
        return svg_chart(self.frequent(), len(self.grades), self.meaning)


def _num(x: float) -> str:
    return f"{x:g}" if abs(x - round(x, 4)) < 1e-9 else f"{x:.4f}"


def svg_chart(frequent, students: int, meaning=lambda code: "") -> str:
    """A horizontal bar chart (SVG, no dependency) of how many students made each mistake."""
    bar_h, gap, left, width = 22, 8, 190, 360
    rows = frequent or []
    height = 60 + max(1, len(rows)) * (bar_h + gap)
    top = max([n for _c, n, _k in rows] + [1])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" '
             f'height="{height}" viewBox="0 0 {left + width + 80} {height}" '
             f'font-family="sans-serif" font-size="13">',
             f'<text x="10" y="22" font-size="15" font-weight="bold">Most frequent mistakes '
             f'({students} student{"s" if students != 1 else ""})</text>']
    if not rows:
        parts.append('<text x="10" y="52">no mistake found</text>')
    for k, (code, n, _steps) in enumerate(rows):
        y = 40 + k * (bar_h + gap)
        w = max(2, round(width * n / top))
        title = escape(meaning(code))
        parts.append(f'<g><title>{title}</title>'
                     f'<text x="{left - 8}" y="{y + 16}" text-anchor="end">{escape(code)}</text>'
                     f'<rect x="{left}" y="{y}" width="{w}" height="{bar_h}" fill="#4a78b5"/>'
                     f'<text x="{left + w + 6}" y="{y + 16}">{n}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
