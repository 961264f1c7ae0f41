r"""Exercises for a class: a variant per student, its worked solution and key, and grading.

>>> import symrow, tempfile, pathlib
>>> ex = symrow.exercises.exercise("attention", m=2, n=3, d=2, students=["s01", "s02"], seed=7)
>>> [v.student for v in ex.variants], [s.name for s in ex.spec.steps]
(['s01', 's02'], ['S', 'P', 'O'])
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> files = ex.write(folder, formats=("md",), langs=("en",))
>>> sorted(p.name for p in (folder / "s01").iterdir())
['key-en.md', 'sheet-en.md', 'solution-en.md']
>>> again = load(folder)
>>> again.variant_of("s02").values == ex.variant_of("s02").values
True
>>> subs = folder / "subs"; subs.mkdir()
>>> _ = (subs / "s01.md").write_text((folder / "s01" / "key-en.md").read_text())
>>> summary = again.grade([subs], jobs=1)
>>> summary.grades[0].verdict, summary.grades[0].score
('holds', 3.0)

The pieces: :mod:`.spec` (what an exercise asks), :mod:`.variants` (the
numbers), :mod:`.compute` (symrow's engine on them), :mod:`.catalogue` and
:mod:`.rewrite` (the mistakes), :mod:`.documents` (sheets, solutions,
keys), :mod:`.export` (Moodle XML, GIFT), :mod:`.grade` and :mod:`.summary`
(grading a class).
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import io
import json
import os
import re
from pathlib import Path

import sympy

from ..errors import OptionError, SymrowError
from . import catalogue as _catalogue
from .spec import Spec, build, from_formula, preset
from .variants import Variant, make

__all__ = ["exercise", "Exercise", "load", "read_roster", "MANIFEST", "LANGS", "FORMATS"]

#: the manifest's file name in an exercise's folder
MANIFEST = "exercise.json"
LANGS = ("en", "ja")
FORMATS = ("md", "pdf")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")


def read_roster(path) -> list[str]:
    """The student ids of a roster CSV: the column ``id`` (or ``student``, ``student_id``,
    ``学籍番号``), else the first column; a header row is recognised by those names."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise OptionError(f"cannot read the roster {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise OptionError(f"cannot read the roster {path}: {err}") from None
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows:
        raise OptionError(f"the roster {path} names no student")
    names = [c.strip().lower() for c in rows[0]]
    column = 0
    for k, name in enumerate(names):
        if name in ("id", "student", "student_id", "student id", "学籍番号"):
            column = k
            rows = rows[1:]
            break
    ids = [r[column].strip() for r in rows if len(r) > column and r[column].strip()]
    bad = [i for i in ids if not _ID.fullmatch(i)]
    if bad:
        raise OptionError(f"the roster {path}: a student id is letters, digits and . _ -; "
                          f"not {bad[0]!r}")
    if not ids:
        raise OptionError(f"the roster {path} names no student")
    return ids


class Exercise:
    """An exercise and its variants (see :func:`exercise`)."""

    def __init__(self, spec: Spec, variants, seed: int, extra_entries=()):
        self.spec = spec
        self.variants = list(variants)
        self.seed = seed
        self.extra_entries = list(extra_entries)
        self.catalogue = _catalogue.load(entries=self.extra_entries)

    def variant_of(self, student: str) -> Variant:
        for v in self.variants:
            if v.student == student:
                return v
        raise KeyError(student)

    @property
    def students(self) -> list[str]:
        return [v.student for v in self.variants]

    # -- the manifest -----------------------------------------------------------------------
    def manifest(self) -> dict:
        def plain(value):
            if isinstance(value, tuple):
                return [plain(v) for v in value]
            return value
        return {"format": "symrow-exercise", "version": 1, "kind": self.spec.kind,
                "options": {k: plain(v) for k, v in self.spec.options},
                "seed": self.seed, "catalogue": self.extra_entries,
                "students": [{"id": v.student, "number": v.number,
                              "values": {k: [[str(x) for x in m.row(i)]
                                             for i in range(m.rows)]
                                         for k, m in v.values.items()}}
                             for v in self.variants]}

    # -- files ------------------------------------------------------------------------------
    def write(self, folder, *, langs=LANGS, formats=FORMATS, jobs: int | None = None) -> list:
        """Write the manifest, the exports, and per student a sheet, a solution and a key
        (``formats``: md and/or pdf; ``langs``: en and/or ja), and the booklet of all
        variants with keys (PDF when pdf is asked for, else LaTeX)."""
        from ..outfile import write_atomic
        from . import documents as D
        from . import export as X
        folder = Path(folder)
        for lang in langs:
            if lang not in LANGS:
                raise OptionError(f"an exercise is written in {', '.join(LANGS)}; not {lang!r}")
        for fmt in formats:
            if fmt not in FORMATS:
                raise OptionError(f"an exercise's documents are {', '.join(FORMATS)}; not "
                                  f"{fmt!r}")
        if folder.exists() and not folder.is_dir():
            raise OptionError(f"cannot write the exercise to {folder}: it is a file")
        folder.mkdir(parents=True, exist_ok=True)
        written = []

        def put(path: Path, data):
            write_atomic(path, data)
            written.append(path)
        put(folder / MANIFEST, json.dumps(self.manifest(), indent=1, ensure_ascii=False) + "\n")
        tex_jobs = []
        for lang in langs:
            put(folder / f"moodle-{lang}.xml", X.moodle_xml(self.spec, self.variants, lang))
            put(folder / f"gift-{lang}.txt", X.gift(self.spec, self.variants, lang))
        for v in self.variants:
            sub = folder / v.student
            if formats:
                sub.mkdir(exist_ok=True)
            derivation = D.worked_derivation(self.spec, v) if formats else None
            for lang in langs:
                if not formats:
                    continue
                docs = {"sheet": lambda f: D.sheet(self.spec, v, lang, f),
                        "solution": lambda f: D.solution(self.spec, v, lang, f, derivation),
                        "key": lambda f: D.key(self.spec, v, lang, f)}
                for kind, make_doc in docs.items():
                    if "md" in formats:
                        put(sub / f"{kind}-{lang}.md", make_doc("markdown"))
                    if "pdf" in formats:
                        tex_jobs.append((sub / f"{kind}-{lang}.pdf",
                                         D.as_document(make_doc("latex"), lang), lang))
        for lang in langs if formats else ():
            source = D.booklet(self.spec, self.variants, lang)
            if "pdf" in formats:
                tex_jobs.append((folder / f"booklet-{lang}.pdf", source, lang))
            else:
                put(folder / f"booklet-{lang}.tex", source)
        if tex_jobs:
            from ..render.pdf import compile_pdf
            workers = max(1, min(jobs or os.cpu_count() or 1, len(tex_jobs)))
            with cf.ThreadPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(compile_pdf, src, lang): path
                           for path, src, lang in tex_jobs}
                for future in cf.as_completed(futures):
                    put(futures[future], future.result())
        return written

    # -- grading ----------------------------------------------------------------------------
    def grade(self, paths, *, jobs: int | None = None, parser: str = "auto",
              timeout: float | None = None, lang: str = "en"):
        """Grade every submission under ``paths`` (files or folders of .md, .tex, .ipynb),
        each against its own student's variant; a :class:`.summary.GradedSummary`."""
        from ..checker.classroom import collect
        from .summary import GradedSummary
        files = collect(paths)
        names = _display_names(files)
        _STATE.update(exercise=self, parser=parser, timeout=timeout)
        jobs = max(1, min(jobs or os.cpu_count() or 1, len(files)))
        if jobs == 1:
            grades = [_grade_file(str(f), n) for f, n in zip(files, names)]
        else:
            import multiprocessing
            import sys
            import warnings
            ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") \
                else None
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*fork.*",
                                        category=DeprecationWarning)
                with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
                    grades = list(pool.map(_grade_file, [str(f) for f in files], names,
                                           chunksize=4))
        return GradedSummary(self.spec.describe(), grades, self.catalogue, lang)


_STATE: dict = {}


def _grade_file(path: str, name: str):
    from ..checker.classroom import read_submission
    from .grade import Grade, grade_text
    ex = _STATE["exercise"]
    try:
        text, _note = read_submission(Path(path))
    except SymrowError as err:
        return Grade(name, None, "unreadable", 0.0, _max(ex), [], [str(err)])
    from .grade import find_student
    student, note = find_student(name, text, ex.students)
    if student is None:
        return Grade(name, None, "unreadable", 0.0, _max(ex), [], [note])
    try:
        return grade_text(text, ex.spec, ex.variant_of(student), ex.catalogue, file=name,
                          parser=_STATE.get("parser", "auto"), timeout=_STATE.get("timeout"))
    except SymrowError as err:
        return Grade(name, student, "unreadable", 0.0, _max(ex), [], [" ".join(str(err).split())])
    except Exception as err:  # noqa: BLE001 - one submission must not stop the class
        return Grade(name, student, "unreadable", 0.0, _max(ex), [],
                     [f"internal error: {type(err).__name__}: {err}"])


def _max(ex) -> float:
    return float(sum(s.points for s in ex.spec.steps))


def _display_names(files) -> list[str]:
    if len(files) == 1:
        return [files[0].name]
    try:
        common = Path(os.path.commonpath([str(f.resolve().parent) for f in files]))
        return [str(f.resolve().relative_to(common)) for f in files]
    except ValueError:
        return [str(f) for f in files]


def exercise(what: str, *, roster=None, students=None, count: int | None = None, seed: int = 0,
             shapes=None, causal: bool = False, catalogue=(), **options) -> Exercise:
    """An exercise: a preset (``combine``, ``match``, ``attention``, ``linear-backward``,
    ``mlp-backward``, ``attention-backward``; see :mod:`.spec`) with its sizes, or any
    formula :func:`symrow.explain` reads (with ``shapes``); a variant per student of
    ``roster`` (a CSV file), ``students`` (a list of ids) or ``count`` students (s01, s02,
    ...), reproducible from ``seed``.  ``catalogue`` adds files of mistakes."""
    if sum(x is not None for x in (roster, students, count)) != 1:
        raise OptionError("give the class as one of roster= (a CSV file), students= (ids) "
                          "or count=")
    if roster is not None:
        ids = read_roster(roster)
    elif students is not None:
        ids = [str(s) for s in students]
        bad = [i for i in ids if not _ID.fullmatch(i)]
        if bad:
            raise OptionError(f"a student id is letters, digits and . _ -; not {bad[0]!r}")
    else:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 5000:
            raise OptionError(f"count= takes 1 to 5000 students; got {count!r}")
        ids = [f"s{k:0{max(2, len(str(count)))}d}" for k in range(1, count + 1)]
    entries = []
    for path in catalogue or ():
        entries += _catalogue.read_file(path)
    if what in _PRESET_NAMES:
        if what == "attention":
            options["causal"] = causal
        elif causal:
            raise OptionError(f"causal applies to the attention exercise, not {what}")
        spec = preset(what, **options)
    else:
        if options:
            raise OptionError(f"a formula's exercise takes shapes=, not "
                              f"{', '.join(sorted(options))}")
        spec = from_formula(what, shapes or {}, causal=causal)
    cat = _catalogue.load(entries=entries)
    return Exercise(spec, make(spec, ids, seed, cat), seed, entries)


_PRESET_NAMES = ("combine", "match", "attention", "linear-backward", "mlp-backward",
                 "attention-backward")


def load(path) -> Exercise:
    """The exercise an ``exercise.json`` manifest (or a folder holding one) describes."""
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OptionError(f"no exercise at {path}: write one with `symrow exercise ... -o "
                          f"FOLDER`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise OptionError(f"cannot read the exercise {path}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != "symrow-exercise":
        raise OptionError(f"{path} is not a symrow exercise manifest")
    try:
        options = data["options"]
        if data["kind"] == "formula":
            options = {**options, "shapes": tuple((k, tuple(v)) for k, v in options["shapes"])}
        else:
            options = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
        spec = build(data["kind"], options)
        variants = []
        for k, row in enumerate(data["students"]):
            values = {name: sympy.Matrix([[sympy.Rational(x) for x in r] for r in rows])
                      for name, rows in row["values"].items()}
            variants.append(Variant(str(row["id"]), values, row.get("number", k + 1)))
    except (KeyError, TypeError, ValueError) as err:
        raise OptionError(f"{path}: the manifest is damaged ({type(err).__name__}: {err})") \
            from None
    return Exercise(spec, variants, int(data.get("seed", 0)), data.get("catalogue") or [])
