"""``symrow check`` on the command line: exit codes, formats, stdin, one-line errors.

The tests run ``symrow check ...`` in this process (:func:`harness.symrow_cli`, the
same ``main`` as the entry point's, with its own streams and folder), which
spares each a new interpreter and the parsers' imports; the exit code and a
one-line error of a real process, with a time limit that stops the check, are
tested in one (:func:`run_process`).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import harness
from check_cases.handwritten import attention_derivation


ATTENTION = ["--against", "attention", "--m", "2", "--n", "2", "--d", "2"]

NOTATIONS = {
    "handwritten-align": attention_derivation(2, 2, 2),
    "one-line": r"$$O = \operatorname{softmax}\left(\frac{QK^{\top}}{\sqrt{d}}\right)V$$",
    "entry-formulas": (
        "s_{ij} = \\boldsymbol{q}_i \\cdot \\boldsymbol{k}_j = \\sum_{t=1}^{d} q_{it}k_{jt}\n"
        "p_{ij} = \\frac{e^{s_{ij}/\\sqrt{d}}}{\\sum_{k=1}^{n} e^{s_{ik}/\\sqrt{d}}}\n"
        "\\mathbf{o}_i = \\sum_{j} p_{ij} \\mathbf{v}_j\n"),
    "aligned-chain": ("\\begin{equation}\\begin{aligned}\n"
                      "O &= \\mathrm{softmax}(S/\\sqrt{d_k})\\,V \\\\\n"
                      "  &= \\begin{pmatrix} \\bm{p}_1 V \\\\ \\bm{p}_2 V \\end{pmatrix} \\\\\n"
                      "  &= PV\n"
                      "\\end{aligned}\\end{equation}\n"),
    "inner-products": (r"S = \begin{bmatrix} \langle \vec{q}_1, \vec{k}_1\rangle & "
                       r"\langle \vec{q}_1, \vec{k}_2\rangle \\ \langle \vec q_2, \vec k_1"
                       r"\rangle & \langle \vec q_2, \vec k_2 \rangle \end{bmatrix} = "
                       r"Q K^\intercal = QK^\mathsf{T}"),
}


def run(args, stdin: str | None = None, cwd=None):
    return harness.symrow_cli("check", *args, stdin=stdin, cwd=cwd)


def run_process(args, stdin: str | None = None, cwd=None):
    return subprocess.run([sys.executable, "-m", "symrow", "check", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("name", sorted(NOTATIONS))
def test_correct_answers_exit_0(tmp_path, name):
    (tmp_path / "answer.tex").write_text(NOTATIONS[name], encoding="utf-8")
    out = run(["answer.tex", *ATTENTION], cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.rstrip().endswith("hold)") or "verdict: holds" in out.stdout
    assert out.stderr == ""


def test_causal_answer_exit_0(tmp_path):
    (tmp_path / "answer.tex").write_text(attention_derivation(2, 2, 2, causal=True))
    out = run(["answer.tex", *ATTENTION, "--causal"], cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "causal" in out.stdout.splitlines()[0]


def test_swapped_index_exit_1_names_entry_and_terms(tmp_path):
    (tmp_path / "answer.tex").write_text(attention_derivation(2, 2, 2, swap="S"))
    out = run(["answer.tex", *ATTENTION], cwd=tmp_path)
    assert out.returncode == 1
    assert "wrong" in out.stdout and "entry (2, 2) differs" in out.stdout
    assert "missing term: q_{21} k_{21}" in out.stdout
    assert "extra term: q_{21} k_{12}" in out.stdout
    assert out.stderr == ""


def test_malformed_latex_exit_2_with_one_line(tmp_path):
    (tmp_path / "answer.tex").write_text("S = QK^{T\nP = S\n")
    out = run(["answer.tex", *ATTENTION], cwd=tmp_path)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("symrow: error: ") and "line 1, column 8" in lines[0]


def test_unreadable_step_exit_2_with_report(tmp_path):
    (tmp_path / "answer.tex").write_text("S = QK^T\nP = \\foo(S)\n")
    out = run(["answer.tex", *ATTENTION], cwd=tmp_path)
    assert out.returncode == 2
    assert "line 2, column 5" in out.stdout and "\\foo" in out.stdout
    assert "verdict: unreadable" in out.stdout


def test_stdin_and_json():
    out = run(["-", "--against", "combine", "--a", "2x3", "--b", "3x2", "--format", "json"],
              stdin="C = AB = BA\n")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    assert data["verdict"] == "wrong" and data["exit_code"] == 1
    assert [s["status"] for s in data["steps"]] == ["holds", "wrong"]


def test_match_sizes():
    out = run(["-", "--against", "match", "--a", "2x3", "--b", "4x3"],
              stdin=r"c_{24} = \boldsymbol{a}_2 \cdot \boldsymbol{b}_4")
    assert out.returncode == 0, out.stdout + out.stderr


def test_missing_file_is_one_line(tmp_path):
    out = run_process(["nope.tex", *ATTENTION], cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and "nope.tex" in out.stderr


def test_timeout_is_one_line():
    text = "\n".join(attention_derivation(4, 4, 4, swap=s) for s in (None, "S", "P", "O") * 3)
    out = run_process(["-", "--against", "attention", "--m", "4", "--n", "4", "--d", "4",
                       "--timeout", "0.05"], stdin=text)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and "time limit" in out.stderr


# -- options that do not apply, values, formats ------------------------------------------------

@pytest.mark.parametrize("args, flags", [
    (["--against", "combine", "--causal", "--heads", "3"], "--causal, --heads"),
    (["--against", "match", "--projections"], "--projections"),
    (["--against", "attention", "--a", "2x2"], "--a"),
    (["--against", "attention", "--names", "X,Y,Z"], "--names"),
    (["--against", "handout", "--m", "2"], "--m"),
    (["--against", "handout", "--general"], "--general"),
    (["--against", "handout", "--values", "A=1"], "--values"),
])
def test_options_that_do_not_apply_are_refused(args, flags):
    out = run(["-", *args], stdin="C = AB\n")
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1
    assert flags in out.stderr and "not apply" in out.stderr


@pytest.mark.parametrize("values, message", [
    ("A", "NAME=ROWS"),
    ("A=1,x;3,4", "not a row of numbers"),
    ("A=1,2;3", "different lengths"),
    ("C=1,2;3,4", "not an operand"),
    ("A=1,2,3;4,5,6", "values for A"),
])
def test_bad_values_are_one_line(values, message):
    out = run(["-", "--against", "combine", "--a", "2x2", "--b", "2x2", "--values", values],
              stdin="C = AB\n")
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and message in out.stderr


def test_values_need_concrete_sizes():
    out = run(["-", "--against", "combine", "--general", "--values", "A=1,2;3,4"],
              stdin="C = AB\n")
    assert out.returncode == 2 and "concrete" in out.stderr


def test_markdown_and_latex_reports():
    tex = r"C = AB = \begin{bmatrix} a_{11}b_{11} & a_{11}b_{12} \\ a_{21}b_{11} & a_{21}b_{12} \end{bmatrix}"
    out = run(["-", "--against", "combine", "--a", "2x1", "--b", "1x2", "--format", "markdown"],
              stdin=tex)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("**symrow check: holds**") and "$$" in out.stdout
    out = run(["-", "--against", "combine", "--a", "2x1", "--b", "1x2", "--format", "latex"],
              stdin=tex.replace("a_{21}b_{12}", "a_{21}b_{11}"))
    assert out.returncode == 1
    assert "\\begin{align*}" in out.stdout and "{\\color{red}" in out.stdout


def test_general_sizes_on_the_command_line():
    out = run(["-", "--against", "attention", "--general", "--causal"],
              stdin=r"M_{ij} = \begin{cases} 0 & j \le i - m + n \\ -\infty & "
                    r"\text{otherwise} \end{cases}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "general: m, d, n" in out.stdout.splitlines()[0]
    assert "causal" in out.stdout.splitlines()[0]
