r"""A whole class at once: check every submission in some files and folders.

:func:`check_class` checks every ``.tex``, ``.md`` and ``.ipynb`` file (the
Markdown cells of a notebook) against one derivation, on every core of the
machine (:mod:`concurrent.futures` over processes; the derivation is built
once), and returns a :class:`ClassSummary`: per file the verdict, the first
wrong step and its line, and the counts of steps that hold, are wrong or
were not checked.  A file that cannot be read, takes longer than its time
limit, or crashes the process checking it is reported as such
(``unreadable``, with a note) and never stops the others.

>>> import symrow, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ann.md").write_text("$$C = AB$$")
>>> _ = (folder / "bob.tex").write_text(r"\[ C = BA \]")
>>> d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 4))
>>> summary = check_class([folder], lambda: d, jobs=1)
>>> print(summary.to_text())
file     verdict  first wrong  holds  wrong  unchecked  note
ann.md   holds    -                1      0          0
bob.tex  wrong    step 1 (line 1)  0      1          0
2 files: 1 holds, 1 wrong

At m = n, a class cannot tell a student's m from n, and the summary says so:

>>> d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
>>> print(check_class([folder], lambda: d, jobs=1).notes[0])
m and n are both 2 here: a submission that writes one of them for another is not told apart (give distinct sizes, as in --m 2 --n 3 --d 4)
>>> summary.exit_code
1
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import dataclasses
import io
import json
import multiprocessing
import os
import sys
from pathlib import Path
from typing import Callable

from ..errors import OptionError, SymrowError

__all__ = ["SUFFIXES", "FileResult", "ClassSummary", "collect", "read_submission",
           "check_file", "check_class"]

#: the kinds of file a class check reads
SUFFIXES = (".tex", ".md", ".ipynb")
#: the columns of the CSV summary
COLUMNS = ("file", "verdict", "exit_code", "first_wrong_step", "first_wrong_line", "holds",
           "wrong", "unreadable", "unchecked", "defines", "note")


@dataclasses.dataclass
class FileResult:
    """One submission's outcome; ``verdict`` is one of the report's verdict words."""

    file: str
    verdict: str
    counts: dict
    first_wrong_step: int | None = None
    first_wrong_line: int | None = None
    note: str = ""
    report: dict | None = None      # the full report (its JSON form), when there is one

    @property
    def exit_code(self) -> int:
        return {"holds": 0, "wrong": 1}.get(self.verdict, 2)

    def row(self) -> dict:
        c = self.counts
        return {"file": self.file, "verdict": self.verdict, "exit_code": self.exit_code,
                "first_wrong_step": self.first_wrong_step,
                "first_wrong_line": self.first_wrong_line, "holds": c.get("holds", 0),
                "wrong": c.get("wrong", 0), "unreadable": c.get("unreadable", 0),
                "unchecked": c.get("unchecked", 0), "defines": c.get("defines", 0),
                "note": self.note}


class ClassSummary:
    """The outcomes of a class, in file order, and the class's verdict."""

    def __init__(self, against: str, results: list[FileResult], notes: tuple = ()):
        self.against = against
        self.results = list(results)
        #: remarks on the whole class (sizes that coincide, see :func:`same_sizes`)
        self.notes = tuple(notes)

    @property
    def verdict(self) -> str:
        """``wrong`` if any file is wrong, else ``unreadable``/``unchecked`` if any file
        is, else ``holds`` (as the steps of one report)."""
        verdicts = {r.verdict for r in self.results}
        for word in ("wrong", "unreadable", "unchecked"):
            if word in verdicts:
                return word
        return "holds" if verdicts else "unchecked"

    @property
    def exit_code(self) -> int:
        return {"holds": 0, "wrong": 1}.get(self.verdict, 2)

    def totals(self) -> str:
        order = ("holds", "wrong", "unreadable", "unchecked")
        counts = [(w, sum(1 for r in self.results if r.verdict == w)) for w in order]
        n = len(self.results)
        return (f"{n} file{'s' if n != 1 else ''}: " +
                ", ".join(f"{c} {w}" for w, c in counts if c))

    # -- formats ----------------------------------------------------------------------
    def _cells(self) -> list[list[str]]:
        rows = []
        for r in self.results:
            first = "-"
            if r.first_wrong_step is not None:
                first = f"step {r.first_wrong_step} (line {r.first_wrong_line})"
            c = r.counts
            rows.append([r.file, r.verdict, first, str(c.get("holds", 0)),
                         str(c.get("wrong", 0)),
                         str(c.get("unchecked", 0) + c.get("unreadable", 0)), r.note])
        return rows

    _HEAD = ["file", "verdict", "first wrong", "holds", "wrong", "unchecked", "note"]

    def to_text(self) -> str:
        rows = [self._HEAD] + self._cells()
        widths = [max(len(row[k]) for row in rows) for k in range(len(self._HEAD))]
        right = {3, 4, 5}
        lines = []
        for row in rows:
            cells = [(row[k].rjust(widths[k]) if k in right and row is not rows[0] else
                      row[k].ljust(widths[k])) for k in range(len(row))]
            lines.append("  ".join(cells).rstrip())
        lines += [f"note: {note}" for note in self.notes]
        lines.append(self.totals())
        return "\n".join(lines)

    def to_markdown(self) -> str:
        def esc(text: str) -> str:
            return text.replace("|", "\\|")
        lines = [f"**symrow check** against {esc(self.against)}", "",
                 "| " + " | ".join(self._HEAD) + " |",
                 "|" + "|".join(["---", "---", "---", "---:", "---:", "---:", "---"]) + "|"]
        for row in self._cells():
            lines.append("| " + " | ".join(esc(c) for c in row) + " |")
        lines += [""] + [f"> note: {esc(note)}\n" for note in self.notes] + [self.totals()]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for r in self.results:
            writer.writerow({k: ("" if v is None else v) for k, v in r.row().items()})
        return out.getvalue()

    def to_dict(self) -> dict:
        out = {"against": self.against, "verdict": self.verdict,
               "exit_code": self.exit_code,
               "files": [{**r.row(), "report": r.report} for r in self.results]}
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def render(self, fmt: str) -> str:
        """The summary in ``fmt``: text, csv, json or markdown."""
        out = {"text": self.to_text, "csv": self.to_csv, "json": self.to_json,
               "markdown": self.to_markdown}.get(fmt)
        if out is None:
            raise OptionError(f"a class summary is written as text, csv, json or markdown; "
                              f"not {fmt}")
        text = out()
        return text if text.endswith("\n") else text + "\n"


# -- files ----------------------------------------------------------------------------------

def collect(paths) -> list[Path]:
    """The submissions under ``paths``: files as given, folders searched recursively for
    :data:`SUFFIXES` (hidden folders and notebook checkpoints skipped), in sorted order."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                                 d != "__pycache__")
                for name in sorted(files):
                    if name.startswith("."):
                        continue
                    if Path(name).suffix.lower() in SUFFIXES:
                        found.append(Path(root) / name)
        elif path.exists():
            found.append(path)
        else:
            raise OptionError(f"cannot read {given}: no such file or folder")
    unique = list(dict.fromkeys(found))
    if not unique:
        raise OptionError(f"no {', '.join(SUFFIXES)} files in {', '.join(map(str, paths))}")
    return unique


def read_submission(path: Path) -> tuple[str, str]:
    """(text to check, a note): a notebook's Markdown cells are joined, and the note
    says where each cell starts."""
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"cannot read {path}: not UTF-8 text") from None
    except OSError as err:
        raise OptionError(f"cannot read {path}: {err.strerror or err}") from None
    if path.suffix.lower() != ".ipynb":
        return raw, ""
    from .document import notebook_markdown
    text, starts = notebook_markdown(raw)
    note = ("lines count through the notebook's Markdown cells: " +
            ", ".join(f"cell {cell} from line {line}" for cell, line in starts)
            if starts else "the notebook has no Markdown cell")
    return text, note


def _first_wrong(report) -> tuple[int | None, int | None]:
    for step in report.steps:
        if step.status == "wrong":
            return step.index, step.line
    return None, None


def check_file(path, against, *, values=None, timeout=None, parser="auto",
               name: str | None = None) -> FileResult:
    """Check one submission; every failure becomes a result, never an exception."""
    import symrow
    from ..errors import CheckTimeout
    shown = name or str(path)
    try:
        text, note = read_submission(Path(path))
        if not text.strip():
            return FileResult(shown, "unreadable", {}, note="the file is empty")
        report = symrow.check(text, against=against, timeout=timeout, values=values,
                              parser=parser)
    except CheckTimeout as err:
        return FileResult(shown, "unreadable", {}, note=f"timed out: {_one_line(err)}")
    except SymrowError as err:
        return FileResult(shown, "unreadable", {}, note=_one_line(err))
    except Exception as err:  # noqa: BLE001 - one submission must not stop the class
        return FileResult(shown, "unreadable", {},
                          note=f"internal error: {type(err).__name__}: {_one_line(err)}")
    failure = getattr(report, "failure", None)
    if failure is not None:
        return FileResult(shown, "unreadable", {}, note=_one_line(failure))
    if note:
        report.notes = report.notes + (note,)
    step, line = _first_wrong(report)
    return FileResult(shown, report.verdict, report.counts, step, line,
                      note="; ".join(f"line {u['line']}: {u['reason']}"
                                     for u in report.unread[:2]),
                      report=report.to_dict())


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


# -- the parallel check -----------------------------------------------------------------------

_WORKER: dict = {}


def _init(build, options: dict) -> None:
    """In a worker: the derivation (inherited when the process was forked, else built)."""
    if _WORKER.get("build") is not build or "against" not in _WORKER:
        _WORKER["against"] = build()
        _WORKER["build"] = build
    _WORKER["options"] = options


def _work(path: str, name: str) -> FileResult:
    return check_file(path, _WORKER["against"], name=name, **_WORKER["options"])


def _context():
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")   # the parent's derivation, at once
    return None


class _Progress:
    """``[#####.....] 12/60 files`` on a terminal's stderr; nothing elsewhere."""

    def __init__(self, total: int, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.done = 0
        self.on = total > 1 and hasattr(self.stream, "isatty") and self.stream.isatty()

    def step(self) -> None:
        self.done += 1
        if self.on:
            width = 30
            filled = width * self.done // self.total
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} files")
            self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\r" + " " * 50 + "\r")
            self.stream.flush()


def check_class(paths, build: Callable[[], object], *, jobs: int | None = None,
                values=None, timeout=None, parser: str = "auto", worker=None,
                progress=None) -> ClassSummary:
    """Check every submission under ``paths`` against the derivation ``build()`` makes.

    ``jobs``: processes to use (default: every core; 1 checks in this process).
    ``worker`` replaces the function that checks one file in a worker process
    (a picklable ``(path, name) -> FileResult``), for tests.
    """
    files = collect(paths)
    names = _display_names(files)
    against = build()
    options = {"values": values, "timeout": timeout, "parser": parser}
    from .run import targets_for
    for target in targets_for(against, None):
        target.instances()          # built once, before the workers start (and fork)
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(files)))
    bar = _Progress(len(files), progress)
    results: dict[int, FileResult] = {}
    try:
        if jobs == 1:
            for k, path in enumerate(files):
                if worker is not None:
                    _init(lambda: against, options)
                    results[k] = worker(str(path), names[k])
                else:
                    results[k] = check_file(path, against, name=names[k], **options)
                bar.step()
        else:
            if parser != "builtin":
                from ..reader.entries import parse
                if parse.choose(parser) == "latex2sympy2":
                    parse.load()      # once, before the fork
            _WORKER.update(against=against, build=build, options=options)
            results = _parallel(files, names, build, options, jobs, worker or _work, bar)
    finally:
        bar.close()
    describe = targets_for(against, None)
    text = describe[0].describe() if len(describe) == 1 else "the handout"
    return ClassSummary(text, [results[k] for k in range(len(files))],
                        notes=tuple(same_sizes(against)))


#: the sizes a student may mix up, as a report names them
_SIZES = ("m", "ell", "n", "d", "d_k", "d_v")


def same_sizes(derivation) -> list[str]:
    """A note for each value that two sizes of a concrete derivation share (m = n = 2):
    there a student's m written for n is not told apart, in any file of the class.

    >>> import symrow
    >>> same_sizes(symrow.attention(2, 2, 2))
    ['m, n and d are all 2 here: a submission that writes one of them for another is not told apart (give distinct sizes, as in --m 2 --n 3 --d 4)']
    >>> same_sizes(symrow.attention(2, 3, 4))
    []
    """
    from .reference import Reference
    try:
        sizes = Reference(derivation).sizes
    except Exception:  # noqa: BLE001 - the handout, a general derivation: no one size set
        return []
    by_value: dict = {}
    for name in _SIZES:
        value = sizes.get(name)
        if name == "d_v" and value == sizes.get("d"):
            continue            # the values' width is d unless it is given
        if isinstance(value, int) and value > 1:
            by_value.setdefault(value, []).append("ℓ" if name == "ell" else name)
    out = []
    for value, names in by_value.items():
        if len(names) > 1:
            listed = " and ".join(names) if len(names) == 2 else \
                ", ".join(names[:-1]) + " and " + names[-1]
            out.append(f"{listed} are {'both' if len(names) == 2 else 'all'} {value} here: a "
                       f"submission that writes one of them for another is not told apart "
                       f"(give distinct sizes, as in --m 2 --n 3 --d 4)")
    return out


def _parallel(files, names, build, options, jobs, worker, bar) -> dict:
    import warnings
    with warnings.catch_warnings():
        # Python >= 3.12 warns that forking a process with threads may deadlock; the
        # command forks before any check runs, when only a host's own threads (a test
        # runner's) exist, and the workers use none of their locks
        warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
        return _pool_check(files, names, build, options, jobs, worker, bar)


def _pool_check(files, names, build, options, jobs, worker, bar) -> dict:
    results: dict[int, FileResult] = {}
    todo = list(range(len(files)))
    crashed: list[int] = []
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=_init,
                                initargs=(build, options)) as pool:
        futures = {pool.submit(worker, str(files[k]), names[k]): k for k in todo}
        for future in cf.as_completed(futures):
            k = futures[future]
            try:
                results[k] = future.result()
                bar.step()
            except cf.process.BrokenProcessPool:
                crashed.append(k)
            except Exception as err:  # noqa: BLE001 - a result that did not come back
                results[k] = FileResult(names[k], "unreadable", {},
                                        note=f"internal error: {_one_line(err)}")
                bar.step()
    # a process died: check what it left, one file per fresh process, to find the culprit
    for k in sorted(crashed):
        with cf.ProcessPoolExecutor(max_workers=1, mp_context=_context(), initializer=_init,
                                    initargs=(build, options)) as pool:
            try:
                results[k] = pool.submit(worker, str(files[k]), names[k]).result()
            except cf.process.BrokenProcessPool:
                results[k] = FileResult(names[k], "unreadable", {},
                                        note="the process checking this file crashed")
            except Exception as err:  # noqa: BLE001
                results[k] = FileResult(names[k], "unreadable", {},
                                        note=f"internal error: {_one_line(err)}")
        bar.step()
    return results


def _display_names(files: list[Path]) -> list[str]:
    """Paths as shown: relative to the folder they share."""
    if len(files) == 1:
        return [files[0].name]
    try:
        common = Path(os.path.commonpath([str(f.resolve().parent) for f in files]))
        return [str(f.resolve().relative_to(common)) for f in files]
    except ValueError:
        return [str(f) for f in files]
