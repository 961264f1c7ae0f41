r"""Grading a submission against its own student's variant, knowing the mistakes.

A submission is read by ``symrow.check`` (the checker's public API) against
the variant's worked derivation: that gives every claim of the page, as the
student wrote it, with its verdict.  The claims that start with a step's
name (``S = …``, ``\bar{W} = …``, ``\frac{\partial L}{\partial W} = …``) are
that step's chain, and its last claim whose right side is numbers is the
student's **answer** for the step.

Each answer that does not hold is then checked once more, against
candidates made by symrow's engine (:mod:`.compute`), all on one page:

* the step's formula on the right inputs (the answer is right after all);
* the formula on the student's **own** earlier answers (errors carried
  forward: a step that follows correctly from the student's own wrong
  earlier result loses nothing more);
* every mutation of the catalogue (:mod:`.catalogue`), on the right inputs
  and on the student's own; the first that holds names the mistake.

A step's status and points: ``correct`` and ``carried`` earn the step's
points; ``mistake`` earns them times the mistake's score; ``slip`` (one entry
wrong, no mistake known: a slip of the pen), ``wrong``, ``missing`` and
``unreadable`` earn nothing.  Only a step that is a known mistake or a slip
is carried forward: numbers that are not this variant's at all (another
student's, copied) carry nothing.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Mapping

import sympy

from ..errors import CheckTimeout, SymrowError
from ..formula import expr as E
from .compute import canonical, computing, derivation, fresh_letters, mutations

__all__ = ["StepGrade", "Grade", "grade_text", "find_student", "answers_of", "STATUSES",
           "normal_name"]

#: a step's outcomes, best first
STATUSES = ("correct", "carried", "mistake", "slip", "wrong", "missing", "unreadable")


@dataclasses.dataclass
class StepGrade:
    name: str
    points: float
    earned: float
    status: str
    code: str | None = None
    line: int | None = None
    answer: str | None = None
    note: str = ""
    own: bool = False            # the mistake was made on the student's own earlier answers

    def to_dict(self) -> dict:
        out = {"step": self.name, "status": self.status, "points": self.points,
               "earned": round(self.earned, 4)}
        for k in ("code", "line", "note"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.own:
            out["on_own_answers"] = True
        return out


@dataclasses.dataclass
class Grade:
    """One submission's grade."""

    file: str
    student: str | None
    verdict: str                 # holds, wrong, unreadable (as the checker's words)
    score: float
    max_score: float
    steps: list
    notes: list = dataclasses.field(default_factory=list)
    report: dict | None = None

    @property
    def codes(self) -> list[str]:
        return [s.code for s in self.steps if s.code]

    def to_dict(self) -> dict:
        return {"file": self.file, "student": self.student, "verdict": self.verdict,
                "score": round(self.score, 4), "max_score": self.max_score,
                "codes": self.codes, "steps": [s.to_dict() for s in self.steps],
                "notes": list(self.notes)}


# -- reading the page ------------------------------------------------------------------------

_ID_LINE = re.compile(r"^[\s%#>*_\-]*(?:student(?:\s*id)?|id|学籍番号|学生番号)\s*[:：]\s*"
                      r"\**\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)", re.I | re.M)


def find_student(name: str, text: str, roster) -> tuple[str | None, str]:
    """The student a submission is from: a line ``Student: ID`` in the file, else an id of
    the roster in the file's name.  Returns (id or None, a note)."""
    roster = list(roster)
    found = _ID_LINE.search(text)
    if found:
        sid = found.group(1)
        if sid in roster:
            return sid, ""
        return None, f"the file says Student: {sid}, who is not on the roster"
    stem = re.split(r"[\\/]", name)[-1].rsplit(".", 1)[0]
    tokens = set(re.split(r"[^A-Za-z0-9]+", stem)) | {stem}
    hits = [s for s in roster if s in tokens]
    if len(hits) == 1:
        return hits[0], ""
    if len(hits) > 1:
        return None, f"the file name names {', '.join(hits)}: write a line 'Student: ID'"
    return None, "no student id: name the file after the student or write a line 'Student: ID'"


_GRAD = [
    (re.compile(r"^\\frac\{\\?(?:partial|d|mathrm\{d\})\s*(?:L|\\mathcal\{L\}|\\ell)\}"
                r"\{\\?(?:partial|d|mathrm\{d\})\s*(.+)\}$"), r"\\bar{\1}"),
    (re.compile(r"^\\nabla_\{(.+)\}\s*(?:L|\\mathcal\{L\}|\\ell)?$"), r"\\bar{\1}"),
    (re.compile(r"^\\nabla_(\w)\s*(?:L|\\mathcal\{L\}|\\ell)?$"), r"\\bar{\1}"),
    (re.compile(r"^\\delta_?\{?(.+?)\}?$"), r"\\bar{\1}"),
    (re.compile(r"^d([A-Z](?:_\{?\w+\}?)?)$"), r"\\bar{\1}"),
    (re.compile(r"^\\bar\{([A-Za-z])\}(_\{?\w+\}?)$"), r"\\bar{\1\2}"),
]


def normal_name(text: str) -> str:
    """A left side as the grader compares it with a step's name: fonts and spaces dropped,
    and a gradient written ∂L/∂X, dL/dX, ∇_X L, δX or dX as ``\\bar{X}``."""
    from .spec import step_key
    t = step_key(text)
    t = re.sub(r"\\(left|right)", "", t)
    for pattern, repl in _GRAD:
        m = pattern.match(t)
        if m:
            t = pattern.sub(repl, t)
            break
    t = re.sub(r"^\\bar\{([A-Za-z])(_\{?(\w+)\}?)\}$",
               lambda m: r"\bar{%s}_%s" % (m.group(1), m.group(3)), t)
    t = re.sub(r"_\{(\w)\}", r"_\1", t)
    return t


_NUMERIC_OK = re.compile(
    r"\\(begin|end)\{[pbvBV]?matrix\}|\\(d|t)?frac|\\sqrt|\\exp|\\mathrm\{e\}|\\left|"
    r"\\right|\\cdot|\\times|\\,|\\;|\\!|\\quad|\\mathrm|\\operatorname|\\e\b|\\displaystyle")


def _numeric(text: str) -> bool:
    """Whether a side is numbers only (integers, fractions, roots, exponentials)."""
    # a row break may carry its spacing, \\[4pt], as a matrix typed for paper does
    rest = re.sub(r"\\\\\s*(\[[^\]]*\])?", " ", text)
    rest = _NUMERIC_OK.sub(" ", rest)
    rest = re.sub(r"\\exp|\bexp\b", " ", rest)
    return not re.search(r"[A-DF-Za-df-z\\]", rest) and bool(re.search(r"\d", rest))


def answers_of(report, spec) -> dict:
    """step name -> the StepReport of the student's answer for it (the last numeric claim of
    the last chain that starts with the step's name)."""
    keys = {normal_name(s.name): s.name for s in spec.steps}
    answers: dict = {}
    current, last_right, chain_ok = None, None, True
    for step in report.steps:
        left = " ".join(step.left.split())
        if current is not None and last_right is not None and left == last_right:
            chain_ok = chain_ok and step.status == "holds"    # the chain goes on: a = b = c
        else:
            current = keys.get(normal_name(step.left))
            chain_ok = step.status == "holds"
        last_right = " ".join(step.right.split())
        if current is not None and _numeric(step.right) and step.status != "defines":
            # the answer holds only when the whole chain from the step's name does
            answers[current] = dataclasses.replace(step, status="holds" if chain_ok else
                                                   ("wrong" if step.status == "holds"
                                                    else step.status))
    return answers


# -- grading -----------------------------------------------------------------------------------

def _rename(expr: E.Expr, names: Mapping) -> E.Expr:
    return E.rebuild(expr, lambda n: E.Name(names[n.name]) if n.name in names else n)


def _differing(step_report) -> int:
    return (1 if step_report.entry is not None else 0) + len(step_report.others or ())


def _entries(spec, values, name) -> int:
    rows, cols = sympy.Matrix(values[name]).shape
    return rows * cols


def grade_text(text: str, spec, variant, catalogue, *, file: str = "", parser: str = "auto",
               timeout: float | None = None) -> Grade:
    """Grade one submission's text against ``variant`` of ``spec`` (see the module
    documentation)."""
    import symrow
    from .documents import worked_derivation
    values = variant.truth(spec)
    max_score = float(sum(s.points for s in spec.steps))
    against = worked_derivation(spec, variant)
    given = {spec.upstream: variant.values[spec.upstream]} if spec.backward else None
    try:
        report = symrow.check(text, against=against, values=given, parser=parser,
                              timeout=timeout)
    except CheckTimeout as err:
        return Grade(file, variant.student, "unreadable", 0.0, max_score,
                     [StepGrade(s.name, s.points, 0.0, "unreadable") for s in spec.steps],
                     [f"timed out: {err}"])
    except SymrowError as err:
        return Grade(file, variant.student, "unreadable", 0.0, max_score,
                     [StepGrade(s.name, s.points, 0.0, "missing") for s in spec.steps],
                     [" ".join(str(err).split())])
    answers = answers_of(report, spec)
    grades: dict = {}
    pending = []
    for step in spec.steps:
        found = answers.get(step.name)
        if found is None:
            grades[step.name] = StepGrade(step.name, step.points, 0.0, "missing",
                                          note="no answer for this step")
        elif found.status == "holds":
            grades[step.name] = StepGrade(step.name, step.points, step.points, "correct",
                                          line=found.line, answer=found.right)
        else:
            pending.append(step)
    if pending:
        _second_look(spec, variant, values, catalogue, pending, answers, grades, parser,
                     timeout)
    steps = [grades[s.name] for s in spec.steps]
    score = sum(g.earned for g in steps)
    verdict = "holds" if all(g.status == "correct" for g in steps) else (
        "unreadable" if all(g.status in ("missing", "unreadable") for g in steps) else "wrong")
    notes = [f"line {s.line}: {' '.join(s.left.split())} = {' '.join(s.right.split())[:60]} "
             "does not hold"
             for s in report.steps if s.status == "wrong"
             and not any(g.line == s.line for g in steps if g.status == "correct")][:3]
    return Grade(file, variant.student, verdict, score, max_score, steps, notes,
                 report.to_dict())


def _second_look(spec, variant, values, catalogue, pending, answers, grades, parser,
                 timeout) -> None:
    """One check of a page of candidates for every pending step (see the module
    documentation); fills ``grades``."""
    import symrow
    cand_letter, own_letter, _extra, ones_letter = (fresh_letters(spec, 4) + ["F", "N"])[:4]
    step_names = [s.name for s in spec.steps]
    own_names = {name: canonical(f"{own_letter}_{{{k + 1}}}")
                 for k, name in enumerate(step_names)}
    shapes = {k: tuple(sympy.Matrix(v).shape) for k, v in values.items()}
    shapes.update(spec.shapes)
    for name in step_names:
        shapes[own_names[name]] = shapes[name]
    defs, labels, extra_values, used_own = [], [], {}, []
    ones: dict = {}

    def add(step, label, expr, code=None, own=(), extra=()):
        expr, wrapped = computing(expr, "")
        if wrapped is not None:
            shape = shapes[expr.left.name]
            oname = ones.setdefault(shape, canonical(f"{ones_letter}_{{{len(ones) + 1}}}"))
            expr = E.Hadamard(expr.left, E.Name(oname))
            extra_values[oname] = sympy.Matrix.ones(*shape)
            shapes[oname] = shape
        for name, make in extra:
            try:
                extra_values[name] = make(values)
            except Exception:  # noqa: BLE001
                return
            shapes[name] = extra_values[name].shape
        name = canonical(f"{cand_letter}_{{{len(defs) + 1}}}")
        defs.append((name, expr))
        labels.append((step, label, code, own))

    for step in pending:
        inputs = [n for n in step_names[:step_names.index(step.name)]
                  if any(isinstance(x, E.Name) and x.name == n for x in E.walk(step.expr))]
        own_all = {n: own_names[n] for n in inputs if n in answers and
                   (grades.get(n) is None or grades[n].status != "correct")}
        add(step, "truth", step.expr)
        if own_all:
            add(step, "own", _rename(step.expr, own_all), own=tuple(own_all))
        cands = mutations(spec, step, catalogue, values)
        for c in cands:
            add(step, "mistake", c.expr, c.code, extra=c.extra)
        if own_all:
            for c in cands:
                if not c.extra:
                    add(step, "mistake", _rename(c.expr, own_all), c.code, own=tuple(own_all))
        used_own += [n for n in own_all if n not in used_own]
    known = dict(values)
    known.update(extra_values)
    d = _candidates(defs, labels, shapes, known, spec.causal)
    if d is None:
        for step in pending:
            grades[step.name] = StepGrade(step.name, step.points, 0.0, "wrong",
                                          line=answers[step.name].line,
                                          answer=answers[step.name].right)
        return
    defs, labels, derivation_ = d
    page = []
    for name in used_own:
        page.append(f"$${own_names[name]} = {answers[name].right}$$")
    for (cname, _expr), (step, _label, _code, _own) in zip(defs, labels):
        page.append(f"$${cname} = {answers[step.name].right}$$")
    try:
        report = symrow.check("\n".join(page), against=derivation_, parser=parser,
                              timeout=timeout)
        status = {canonical(s.left): s for s in report.steps}
    except SymrowError:
        status = {}
    for step in pending:
        answer = answers[step.name]
        mine = [(cname, lab) for (cname, _e), lab in zip(defs, labels) if lab[0] is step]
        result = None
        foreign = False
        for cname, (_s, label, code, own) in mine:
            s = status.get(cname)
            if s is None or s.status != "holds":
                continue
            if own and any(grades[n].status not in ("mistake", "slip", "carried")
                           for n in own):
                foreign = True           # it follows from numbers that are not this variant's
                continue
            if label == "truth":
                result = StepGrade(step.name, step.points, step.points, "correct")
                break
            if label == "own":
                result = StepGrade(step.name, step.points, step.points, "carried", own=True,
                                   note="follows from your own earlier answer")
                break
            if result is None and label == "mistake":
                score = catalogue.get(code).score
                result = StepGrade(step.name, step.points, step.points * score, "mistake",
                                   code=code, own=bool(own))
        if result is None:
            truth_report = status.get(mine[0][0]) if mine else None
            if truth_report is not None and truth_report.status == "unreadable":
                result = StepGrade(step.name, step.points, 0.0, "unreadable",
                                   note=(truth_report.error or {}).get("message", ""))
            elif truth_report is not None and truth_report.status == "wrong" and \
                    truth_report.entry is not None and not foreign and \
                    _differing(truth_report) == 1 < _entries(spec, values, step.name):
                result = StepGrade(step.name, step.points, 0.0, "slip",
                                   note=f"entry {tuple(truth_report.entry)} differs")
            else:
                note = ("follows from earlier answers that are not this variant's"
                        if foreign else "")
                result = StepGrade(step.name, step.points, 0.0, "wrong", note=note)
        result.line, result.answer = answer.line, answer.right
        grades[step.name] = result
        # a later step may be carried from this one only when it is a mistake or a slip


def _candidates(defs, labels, shapes, values, causal):
    """The candidates' derivation, leaving out those whose shapes do not fit (each alone
    is tried when all together fail).  Returns (defs, labels, derivation) or None."""
    def build(ds):
        used = {n.name for _c, e in ds for n in E.walk(e) if isinstance(n, E.Name)}
        return derivation(ds, {k: v for k, v in shapes.items() if k in used},
                          {k: v for k, v in values.items() if k in used}, causal)
    try:
        return defs, labels, build(defs)
    except SymrowError:
        pass
    keep = []
    for k, item in enumerate(defs):
        try:
            build([item])
            keep.append(k)
        except SymrowError:
            continue
    if not keep:
        return None
    defs = [defs[k] for k in keep]
    labels = [labels[k] for k in keep]
    try:
        return defs, labels, build(defs)
    except SymrowError:
        return None
