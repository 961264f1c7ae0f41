"""``symrow check FOLDER ...``: a whole class at once, and its summary table.

Most tests run in-process (``cli.main`` with ``--jobs 1``, or
:func:`symrow.checker.classroom.check_class`); one runs the command in a
subprocess with the default number of processes, as a lecturer would.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest

from check_cases.derivations import against
from check_cases.published import PAGES, notebook
from symrow import cli
from symrow.checker import classroom
from symrow.checker.report import STATUSES

pytestmark = pytest.mark.parsers("builtin")

ATTENTION = ["--against", "attention", "--m", "2", "--n", "2", "--d", "2"]
VERDICTS = {"holds", "wrong", "unreadable", "unchecked"}


def page(name: str) -> str:
    return next(p.text for p in PAGES if p.id == name)


@pytest.fixture
def submissions(tmp_path):
    folder = tmp_path / "submissions"
    (folder / "week1").mkdir(parents=True)
    (folder / "ann.md").write_text(page("zenn-attention-steps"), encoding="utf-8")
    (folder / "bob.tex").write_text(page("notation-transpose-wrong-side"), encoding="utf-8")
    (folder / "week1" / "cy.ipynb").write_text(notebook(
        ("markdown", "$$S = QK^\\top$$"), ("code", "print(1)")), encoding="utf-8")
    (folder / "dee.tex").write_text("\\[ S = QK^\\top \\]\n\\[ s_{11} = {q_{11} \\]\n")
    (folder / "eve.md").write_bytes(b"\xff\xfe not text")
    (folder / "fay.md").write_text("")
    (folder / "notes.py").write_text("print('not a submission')")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "x.tex").write_text("\\[ S = KQ^\\top \\]")
    return folder


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_folder_gives_one_row_per_file_and_the_worst_verdict(submissions, tmp_path,
                                                                capsys):
    out = tmp_path / "class.csv"
    code = cli.main(["check", str(submissions), *ATTENTION, "--jobs", "1", "--summary",
                     str(out)])
    table = rows(out.read_text(encoding="utf-8"))
    got = {r["file"]: r for r in table}
    assert list(got) == ["ann.md", "bob.tex", "dee.tex", "eve.md", "fay.md",
                         os.path.join("week1", "cy.ipynb")]
    assert {"file", "verdict"} <= set(table[0])
    assert {r["verdict"] for r in table} <= VERDICTS
    assert got["ann.md"]["verdict"] == "holds" and got["ann.md"]["wrong"] == "0"
    assert got["bob.tex"]["verdict"] == "wrong"
    assert (got["bob.tex"]["first_wrong_step"], got["bob.tex"]["first_wrong_line"]) == \
        ("1", "2")
    assert got["dee.tex"]["verdict"] == "unreadable" and "never closed" in got["dee.tex"]["note"]
    assert got["eve.md"]["verdict"] == "unreadable" and "UTF-8" in got["eve.md"]["note"]
    assert got["fay.md"]["verdict"] == "unreadable" and "empty" in got["fay.md"]["note"]
    assert got[os.path.join("week1", "cy.ipynb")]["verdict"] == "holds"
    assert code == 1                      # the worst verdict: a wrong step
    shown = capsys.readouterr().out
    assert "bob.tex" in shown and "step 1 (line 2)" in shown
    assert shown.rstrip().endswith("6 files: 2 holds, 1 wrong, 3 unreadable")


@pytest.mark.parametrize("suffix, check", [
    (".json", lambda t: json.loads(t)["files"][0]["report"]["verdict"] == "holds"),
    (".md", lambda t: t.startswith("**symrow check**") and "| bob.tex | wrong |" in t),
    (".txt", lambda t: t.splitlines()[0].split()[:2] == ["file", "verdict"]),
])
def test_the_summary_format_follows_the_suffix(submissions, tmp_path, suffix, check):
    out = tmp_path / ("summary" + suffix)
    cli.main(["check", str(submissions / "ann.md"), str(submissions / "bob.tex"), *ATTENTION,
              "--jobs", "1", "--summary", str(out)])
    assert check(out.read_text(encoding="utf-8"))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".summary")] == []


def test_only_wrong_files_fail_the_class(tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / f"{name}.tex").write_text(page("notation-transposes"))
    assert cli.main(["check", str(tmp_path), *ATTENTION, "--jobs", "1"]) == 0
    (tmp_path / "c.tex").write_text("\\[ S = QK^\\top \\]\n\\[ s_{11} = {q \\]")
    assert cli.main(["check", str(tmp_path), *ATTENTION, "--jobs", "1"]) == 2


@pytest.mark.parametrize("args, message", [
    (["--summary", "class.pdf"], "suffix picks the format"),
    (["--summary", "missing/class.csv"], "does not exist"),
    (["--format", "latex"], "does not apply to a class check"),
    (["--jobs", "0"], "--jobs"),
])
def test_class_usage_errors_are_one_line(submissions, tmp_path, capsys, args, message,
                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if args[0] == "--jobs" else _nothing():
        code = cli.main(["check", str(submissions), *ATTENTION, *args])
        assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "class.csv").exists()


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_missing_path_is_an_error(tmp_path, capsys):
    assert cli.main(["check", str(tmp_path / "nobody"), str(tmp_path), *ATTENTION]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def crash_on_bob(path: str, name: str):
    """A worker that dies, as a process, on one file (a segfault would look the same)."""
    if name == "bob.tex":
        os._exit(3)
    return classroom._work(path, name)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks a pool")
def test_a_crashing_file_never_stops_the_others(submissions):
    summary = classroom.check_class([submissions], lambda: against("att222"), jobs=2,
                                    worker=crash_on_bob)
    got = {r.file: r for r in summary.results}
    assert got["bob.tex"].verdict == "unreadable"
    assert "crashed" in got["bob.tex"].note
    assert got["ann.md"].verdict == "holds"
    assert len(got) == 6


def test_a_file_that_times_out_is_reported(tmp_path):
    from check_cases.handwritten import attention_derivation
    # the limit counts CPU time, and a worker that checked att444 before has its parses
    # cached: sixteen copies take about a second of CPU even so, far past the limit
    (tmp_path / "long.tex").write_text("\n".join([attention_derivation(4, 4, 4)] * 16))
    (tmp_path / "short.tex").write_text("\\[ S = QK^\\top \\]")
    summary = classroom.check_class([tmp_path], lambda: against("att444"), jobs=1,
                                    timeout=0.1)
    long, short = summary.results
    assert long.verdict == "unreadable" and "timed out" in long.note
    assert short.verdict == "holds"


def test_the_progress_bar_only_on_a_terminal():
    class Stream(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty
    for tty in (True, False):
        stream = Stream(tty)
        bar = classroom._Progress(3, stream)
        for _ in range(3):
            bar.step()
        bar.close()
        assert ("3/3 files" in stream.getvalue()) == tty


def test_statuses_and_verdict_words_agree():
    assert VERDICTS <= set(STATUSES) | {"unchecked"}


@pytest.mark.slow
def test_the_class_command_in_a_subprocess(submissions, tmp_path):
    """As a lecturer runs it: the default number of processes, a CSV summary."""
    out = tmp_path / "class.csv"
    proc = subprocess.run([sys.executable, "-m", "symrow", "check", str(submissions),
                           *ATTENTION, "--summary", str(out)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr == ""                   # no progress bar without a terminal
    table = rows(out.read_text(encoding="utf-8"))
    assert len(table) == 6 and table[0]["file"] == "ann.md"
    assert [r["verdict"] for r in table].count("wrong") == 1
