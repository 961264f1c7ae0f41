"""The ``symrow`` command: success and error paths, exit codes, one-line errors
without tracebacks, atomic output files, and what a command imports.

Most tests run the command in this process (:func:`harness.symrow_cli`: the
same ``main`` the entry point calls, with its own standard streams, folder
and environment), which spares each a new interpreter and SymPy's import.
What only a real process shows runs as one (:func:`harness.symrow_process`):
the entry point ``python -m symrow`` and its exit codes, a one-line error
with no traceback on its standard error, a PDF to a pipe and the refusal of
a terminal, a closed pipe, and the modules a command imports.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest

import harness

run = harness.symrow_cli
process = harness.symrow_process


def assert_one_line_error(proc, *fragments: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].startswith("symrow"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# -- help and defaults -----------------------------------------------------------------

def test_help_shows_examples_and_every_subcommand():
    proc = process("--help")  # the entry point, in a process of its own
    assert proc.returncode == 0
    assert "examples:" in proc.stdout
    for command in ("combine", "match", "attention", "handout", "check"):
        assert command in proc.stdout
    assert "symrow handout --lang ja -o handout.pdf" in proc.stdout


@pytest.mark.parametrize("command", ["combine", "match", "attention", "explain", "handout",
                                     "check"])
def test_every_subcommand_has_help_with_examples(command):
    proc = run(command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "examples:" in proc.stdout


def test_check_subcommand_takes_the_size_flags_of_the_derivations():
    proc = run("check", "--help")
    for flag in ("--against", "--a", "--b", "--m", "--n", "--d", "--d-v", "--causal",
                 "--heads", "--projections", "--general", "--values", "--format", "--timeout",
                 "--parser"):
        assert flag in proc.stdout, flag
    assert "{text,json,markdown,latex}" in proc.stdout
    assert "--against PRESET|FORMULA|handout" in proc.stdout
    for preset in ("combine", "match", "attention", "linear", "gcn", "handout"):
        assert preset in proc.stdout


def test_check_parses_its_arguments():
    from symrow.cli import build_parser
    args = build_parser().parse_args(["check", "-", "--against", "attention", "--m", "2",
                                      "--n", "3", "--d", "2", "--causal", "--format", "json"])
    assert (args.files, args.against, args.m, args.n, args.d, args.causal, args.format) == \
        (["-"], "attention", 2, 3, 2, True, "json")
    args = build_parser().parse_args(["check", "mine.tex", "--against", "combine",
                                      "--general"])
    assert args.general and args.against == "combine"


def test_check_usage_errors_are_one_line():
    assert_one_line_error(run("check", "mine.tex"), "--against")
    assert_one_line_error(run("check", "mine.tex", "--against", "transpose"), "--against")
    assert_one_line_error(run("check", "--against", "combine"), "FILE")


def test_check_of_a_missing_file_is_one_line(tmp_path):
    proc = run("check", str(tmp_path / "nope.tex"), "--against", "combine")
    assert_one_line_error(proc, "cannot read", "nope.tex", "no such file")


def test_no_arguments_prints_a_small_attention_derivation_and_a_hint():
    from symrow.cli import DEFAULT_ATTENTION
    proc = run()
    assert proc.returncode == 0, proc.stderr
    assert "softmax" in proc.stdout
    assert len(proc.stdout.splitlines()) < 60  # short: the overview, not the full derivation
    assert proc.stderr.startswith("hint: ") and proc.stderr.count("\n") == 1
    assert "symrow attention --m 2 --n 2 --d 2" in proc.stderr
    assert "--help" in proc.stderr
    assert DEFAULT_ATTENTION == {"m": 2, "n": 2, "d": 2}


# -- derivations in every format ------------------------------------------------------------

def test_combine_text():
    proc = run("combine", "--a", "2x3", "--b", "3x2")
    assert proc.returncode == 0 and proc.stderr == ""
    assert "𝐜ᵢ = aᵢ₁ 𝐛₁ + aᵢ₂ 𝐛₂ + aᵢ₃ 𝐛₃" in proc.stdout


@pytest.mark.renderer
@pytest.mark.parametrize("args", [
    ("combine", "--general"),
    ("match", "--a", "2x2", "--b", "3x2", "--lang", "ja"),
    ("attention", "--m", "2", "--n", "3", "--d", "2"),
    ("attention", "--general", "--causal", "--lang", "ja"),
])
def test_markdown_renders_in_katex_and_mathjax(args):
    proc = run(*args, "--format", "markdown")
    assert proc.returncode == 0, proc.stderr
    formulas = harness.markdown_math(proc.stdout)
    harness.assert_renders(formulas, harness.katex)
    harness.assert_renders(formulas, harness.mathjax)


def test_format_md_is_markdown_wherever_markdown_is_a_format():
    import argparse

    from symrow.cli import build_parser
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    takes_markdown = []
    for name, command in sub.choices.items():
        formats = [a for a in command._actions if "--format" in a.option_strings]
        if not formats:
            continue               # symrow exercise writes every format it makes
        (fmt,) = formats
        if "markdown" in fmt.choices:
            takes_markdown.append(name)
            argv = [name, "--format", "md"] + {"check": ["-", "--against", "combine"],
                                               "explain": ["XW"],
                                               "backward": ["XW"]}.get(name, [])
            assert parser.parse_args(argv).format == "markdown", name
    from symrow.derive.presets import REGISTRY
    assert takes_markdown == list(REGISTRY) + ["explain", "backward", "handout", "check"]
    short = run("combine", "--a", "1x2", "--b", "2x1", "-f", "md")
    assert short.returncode == 0 and short.stderr == ""
    assert short.stdout == run("combine", "--a", "1x2", "--b", "2x1", "--format",
                               "markdown").stdout
    assert_one_line_error(run("combine", "--format", "mdx"), "invalid choice")


def test_latex_and_tex_formats():
    frag = run("match", "--general", "--format", "latex")
    doc = run("match", "--general", "--format", "tex", "--lang", "ja")
    assert frag.returncode == doc.returncode == 0
    assert frag.stdout.startswith("\\subsection*") and "\\documentclass" not in frag.stdout
    assert doc.stdout.startswith("\\documentclass") and "{ltjsarticle}" in doc.stdout


def test_names_flag():
    proc = run("combine", "--a", "1x2", "--b", "2x1", "--names", "X,W,Y", "--format", "latex")
    assert proc.returncode == 0
    assert "X W,\\qquad X W^{T}" in proc.stdout and "Y &= \\begin{bmatrix}" in proc.stdout
    assert_one_line_error(run("combine", "--names", "X,W"), "--names")


@pytest.mark.renderer
def test_pdf_to_a_file(tmp_path):
    harness.require_tex("pdflatex")
    proc = run("combine", "--general", "--format", "pdf", "-o", "c.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.pdf"]  # nothing left behind


def test_format_follows_the_output_suffix(tmp_path, tex_spy):
    import symrow
    general = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
    for name, start in (("c.pdf", b"%PDF"), ("c.tex", b"\\documentclass"),
                        ("c.md", b"### "), ("c.txt", b"Matrices")):
        proc = run("combine", "--general", "-o", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / name).read_bytes().startswith(start), name
    assert tex_spy == [(general.to_document("en"), "en")]  # the document, compiled


@pytest.mark.renderer
def test_pdf_to_a_pipe_is_allowed():
    harness.require_tex("pdflatex")
    proc = subprocess.run([sys.executable, "-m", "symrow", "match", "--format", "pdf"],
                          capture_output=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.startswith(b"%PDF")


def test_pdf_to_a_terminal_is_refused_before_compiling():
    try:
        controller, terminal = pty.openpty()
    except OSError as err:      # e.g. a chroot without /dev/pts: skipped, or failed in CI
        harness.require(False, "a pseudo-terminal (/dev/pts)", f"pty.openpty() failed: {err}")
    try:
        proc = subprocess.run([sys.executable, "-m", "symrow", "combine", "--format", "pdf"],
                              stdout=terminal, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PATH": "/nonexistent"})
    finally:
        os.close(terminal)
        os.close(controller)
    # PATH has no TeX: the refusal comes first, so no engine error is reported
    assert_one_line_error(proc, "refusing to write a PDF to a terminal", "-o FILE")


# -- errors: one line, exit 2, nothing written -------------------------------------------------

@pytest.mark.parametrize("args,fragments", [
    (("combine", "--a", "2x3", "--b", "2x2"), ("needs as many columns in A as rows in B",)),
    (("combine", "--lang", "fr"), ("invalid choice",)),
])
def test_the_entry_point_exits_2_with_one_line(args, fragments):
    """A bad input (symrow's own error, and one argparse finds) in a real process:
    exit code 2 from ``python -m symrow``, one line and no traceback on stderr."""
    assert_one_line_error(process(*args), *fragments)


@pytest.mark.parametrize("args,fragments", [
    (("combine", "--a", "2x"), ("shape must look like 2x3",)),
    (("combine", "--a", "2x3", "--b", "2x2"), ("needs as many columns in A as rows in B",)),
    (("match", "--a", "2x3", "--b", "2x2"), ("match C = AB^T",)),
    (("combine", "--general", "--a", "2x3"), ("--general takes no shapes",)),
    (("combine", "--a", "0x3"), ("positive integer",)),
    (("combine", "--a", "100x3"), ("past the limit of 64",)),
    (("combine", "--format", "docx"), ("invalid choice",)),
    (("combine", "--lang", "fr"), ("invalid choice",)),
    (("transpose",), ("invalid choice",)),
    (("attention", "--m", "two"), ()),
    (("attention", "--heads", "0"), ("positive integer",)),
    (("attention", "--m", "2;"), ("a size is a positive integer",)),
])
def test_bad_input_is_one_line_exit_2(args, fragments):
    proc = run(*args)
    assert_one_line_error(proc, *fragments)


def test_an_output_suffix_that_names_no_format_is_refused(tmp_path):
    proc = run("combine", "-o", "notes.docx", cwd=tmp_path)
    assert_one_line_error(proc, "-o notes.docx: the suffix .docx names no format",
                          ".pdf, .tex, .md, .markdown or .txt",
                          "--format: latex, markdown (md), text, tex, pdf or beamer")
    assert list(tmp_path.iterdir()) == []
    assert_one_line_error(run("handout", "-o", "h.DOCX", cwd=tmp_path), "the suffix .docx")
    # --format says what the suffix does not; a name without a suffix is text
    proc = run("combine", "-o", "notes.docx", "--format", "md", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "notes.docx").read_text(encoding="utf-8").startswith("### ")
    assert run("combine", "-o", "notes", cwd=tmp_path).returncode == 0
    assert (tmp_path / "notes").read_text(encoding="utf-8").startswith("Matrices")


def test_the_entry_point_refuses_an_unknown_suffix():
    """`symrow combine -o notes.docx`, as typed in a shell: exit 2, one line."""
    assert_one_line_error(process("combine", "-o", "notes.docx"), "names no format")


@pytest.mark.parametrize("args,hint", [
    (("explain", "X", "W"), 'quote the formula: symrow explain "X W"'),
    (("explain", r"\mathrm{softmax}(QK^T)", "V", "--general"),
     r'quote the formula: symrow explain "\mathrm{softmax}(QK^T) V"'),
    (("backward", "X", "W", "--general"), 'quote the formula: symrow backward "X W"'),
    (("check", "-", "--against", "Y", "=", "XW"), 'quote the formula: --against "Y = XW"'),
    (("X", "W"), 'to read a formula, quote it: symrow explain "X W"'),
    (("combine", "AB"), 'to read a formula, quote it: symrow explain "AB"'),
])
def test_an_unquoted_formula_gets_a_hint_to_quote_it(args, hint):
    assert_one_line_error(run(*args), hint)


@pytest.mark.parametrize("args", [("combine", "--frobnicate"), ("transpose",),
                                  ("check", "a.tex", "--against", "combine", "b.tex")])
def test_what_is_no_formula_gets_no_formula_hint(args):
    proc = run(*args)
    assert_one_line_error(proc)
    assert "formula" not in proc.stderr


@pytest.mark.parametrize("args,echo", [
    (("explain", r"\hat{A} X W", "--shape", r"\hat{A}=4by4"), r"got '\hat{A}=4by4'"),
    (("combine", "--a", r"2\x3"), r"got '2\x3'"),
    (("explain", "AB", "--values", r"A=1,2;\frac{1}{2},4"), r"'\frac{1}{2},4' in"),
    (("check", "-", "--against", r"\hat{A} \wrong"), r"--against '\hat{A} \wrong' is neither"),
    ((r"\hat{A} X",), r"invalid choice: '\hat{A} X'"),   # argparse's own message
])
def test_a_malformed_argument_is_echoed_as_typed(args, echo):
    """What the user typed, not its Python repr (which doubles every backslash)."""
    proc = run(*args, stdin="x")
    assert_one_line_error(proc, echo)
    assert "\\\\" not in proc.stderr


def test_output_into_a_missing_folder(tmp_path):
    proc = run("combine", "-o", str(tmp_path / "no" / "c.txt"))
    assert_one_line_error(proc, "does not exist")
    assert not (tmp_path / "no").exists()


def test_output_onto_a_folder(tmp_path):
    assert_one_line_error(run("combine", "-o", str(tmp_path)), "is a folder")


def test_a_failing_pdf_run_writes_nothing(tmp_path):
    env = {"PATH": "/nonexistent"}  # no TeX engine can be found
    proc = run("combine", "--general", "--format", "pdf", "-o", "c.pdf", cwd=tmp_path, env=env)
    assert_one_line_error(proc, "pdflatex is not installed")
    assert list(tmp_path.iterdir()) == []
    # an existing file is left exactly as it was
    (tmp_path / "c.pdf").write_bytes(b"old")
    proc = run("handout", "--lang", "ja", "-o", "c.pdf", cwd=tmp_path, env=env)
    assert_one_line_error(proc, "lualatex is not installed")
    assert (tmp_path / "c.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.pdf"]


@pytest.mark.renderer
def test_a_tex_error_is_one_line(tmp_path, monkeypatch):
    # a TeX failure from the real engine, through the command: a document
    # that needs a package nobody has
    import dataclasses
    from symrow.narrate import languages
    harness.require_tex("pdflatex")
    monkeypatch.setitem(languages.LANGUAGES, "en", dataclasses.replace(
        languages.get_language("en"), preamble="\\usepackage{symrownosuchpackage}\n"))
    proc = run("combine", "-o", "c.pdf", cwd=tmp_path)
    assert_one_line_error(proc, "symrownosuchpackage.sty")
    assert list(tmp_path.iterdir()) == []


def test_internal_errors_are_one_line_too(monkeypatch):
    import symrow.cli as cli

    def boom(kind, args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "_product", boom)
    monkeypatch.delenv("SYMROW_DEBUG", raising=False)
    proc = run("combine")
    assert proc.returncode == 70
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "internal error: ZeroDivisionError" in proc.stderr and "SYMROW_DEBUG" in proc.stderr


def test_broken_pipe_is_quiet():  # a real pipe, closed early
    proc = subprocess.run(f"'{sys.executable}' -m symrow match --general | head -c 10",
                          shell=True, capture_output=True, text=True, timeout=120)
    assert proc.stderr == ""


# -- the handout --------------------------------------------------------------------------------

def test_handout_ja_pdf(tmp_path, tex_spy):
    # the Japanese handout compiles (lualatex) in test_handout and test_outputs_examples
    from symrow.handout import handout
    proc = run("handout", "--lang", "ja", "-o", "handout.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert tex_spy == [(handout().to_document("ja"), "ja")]
    assert (tmp_path / "handout.pdf").read_bytes() == b"%PDF-1.5 stand-in\n%%EOF\n"


def test_handout_markdown_and_text():
    md = run("handout", "--format", "markdown")
    assert md.returncode == 0 and md.stdout.startswith("# Reading attention")
    text = run("handout", "--lang", "ja")
    assert text.returncode == 0 and text.stdout.startswith("行列積で読むアテンション")


# -- start-up cost --------------------------------------------------------------------------------

_PROBE = """
import json, runpy, sys
sys.argv = ["symrow"] + json.loads(sys.argv[1])
try:
    runpy.run_module("symrow", run_name="__main__")
except SystemExit:
    pass
sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""

HEAVY = ("latex2sympy2", "numpy", "antlr4", "symrow.checker", "symrow.render.pdf",
         "symrow.handout")


@pytest.mark.parametrize("args", [["--help"], ["combine", "--a", "2x3"],
                                  ["match", "--general", "--format", "markdown"]])
def test_commands_import_only_what_they_use(args):
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)],
                          capture_output=True, text=True, timeout=120)
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    modules = set(json.loads(line[len("MODULES "):]))
    loaded = sorted(m for m in modules for h in HEAVY if m == h or m.startswith(h + "."))
    assert loaded == [], f"{args} imported {loaded}"


_HELP_PROBE = """
import json, sys
from symrow.cli import build_parser, main
commands = [[]] + [[name] for name in build_parser()._subparsers._group_actions[0].choices]
for command in commands:
    try:
        main(command + ["--help"])
    except SystemExit as exit_:
        assert exit_.code == 0, (command, exit_.code)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("sympy", "mpmath", "numpy"))
sys.stderr.write("COMMANDS " + json.dumps(commands) + "\\n")
sys.stderr.write("HEAVY " + json.dumps(heavy) + "\\n")
"""


def test_help_imports_no_sympy():
    """``symrow --help`` and ``symrow COMMAND --help`` of every command, in one fresh
    process: the parser is built from the presets' records, which need no SymPy."""
    proc = subprocess.run([sys.executable, "-c", _HELP_PROBE], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = dict(line.split(" ", 1) for line in proc.stderr.splitlines()
                 if line.startswith(("COMMANDS ", "HEAVY ")))
    assert ["explain"] in json.loads(found["COMMANDS"]) and len(json.loads(found["COMMANDS"])) > 6
    assert json.loads(found["HEAVY"]) == []


def test_import_symrow_imports_no_sympy_until_asked():
    """``import symrow`` loads what needs no SymPy; ``symrow.combine`` and the others
    import their modules (and SymPy) when first used."""
    probe = ("import sys, symrow; before = 'sympy' in sys.modules; "
             "symrow.combine(symrow.vecseq('A', 1, 2), symrow.vecseq('B', 2, 1)); "
             "print(before, 'sympy' in sys.modules, sorted(symrow.presets) == "
             "sorted(['attention', 'combine', 'gcn', 'linear', 'match']), "
             "set(symrow.__all__) <= set(dir(symrow)))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert proc.stdout.split() == ["False", "True", "True", "True"], proc.stderr[-3000:]


# -- every option of attention reaches symrow.attention ---------------------------------

def test_attention_options_scale_d_model_cross_and_general_d_v():
    proc = run("attention", "--m", "2", "--n", "3", "--d", "2", "--projections", "--cross",
               "--d-model", "3", "--scale", "number", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert r"\frac{S}{\sqrt{2}}" in proc.stdout and r"\sqrt{d} = \sqrt{2}" in proc.stdout
    assert "Y W_{K}" in proc.stdout.replace("YW_{K}", "Y W_{K}")
    assert r"\mathbb{R}^{2 \times 3}" in proc.stdout  # X is m x d_model
    proc = run("attention", "--general", "--d-v", "d_v", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert r"\mathbb{R}^{n \times d_{v}}" in proc.stdout


def test_attention_option_errors_are_one_line():
    assert_one_line_error(run("attention", "--cross"), "needs projections=True")
    assert_one_line_error(run("attention", "--general", "--scale", "number"), "concrete d")
    assert_one_line_error(run("attention", "--scale", "exact"), "--scale")


# -- limits: the error names the flag that raises them --------------------------------------

def test_a_limit_error_names_its_flag_and_the_flag_raises_it():
    too_wide = ("combine", "--a", "70x2", "--b", "2x2", "--format", "latex")
    assert_one_line_error(run(*too_wide), "past the limit of 64", "--max-dim N")
    proc = run(*too_wide, "--max-dim", "80")
    assert proc.returncode == 0, proc.stderr
    assert "a_{70,1}" in proc.stdout

    # m = n = d = 3 writes m*n*d = 27 for the scores and, for each of the 9 output
    # entries, n*(n + 1)*d = 36 in its expansion: 351 scalar products
    small = ("attention", "--m", "3", "--n", "3", "--d", "3", "--format", "latex")
    assert_one_line_error(run(*small, "--max-terms", "350"), "past the limit of 350",
                          "--max-terms N")
    assert run(*small, "--max-terms", "351").returncode == 0
    assert_one_line_error(run("attention", "--heads", "3", "--max-dim", "2"), "heads is 3",
                          "--max-dim N")
    # the checker builds the derivation it compares with under the same limits
    assert_one_line_error(run("check", "-", "--against", "attention", "--m", "65",
                              stdin="o = 1"), "--max-dim N")
    assert_one_line_error(run("attention", "--max-terms", "0"), "positive integer")


# -- explain and the presets' registry ---------------------------------------------------------

def test_every_preset_is_a_subcommand():
    from symrow.derive.presets import REGISTRY
    proc = run("--help")
    for name in list(REGISTRY) + ["explain"]:
        assert name in proc.stdout, name
        sub = run(name, "--help")
        assert sub.returncode == 0 and "examples:" in sub.stdout, name


def test_explain_reads_a_graph_convolution_as_two_combines():
    proc = run("explain", r"\hat{A} X W", "--shape", r"\hat{A}=4x4", "--shape", "X=4x3",
               "--shape", "W=3x2")
    assert proc.returncode == 0, proc.stderr
    assert "The product A\u0302 X: combine" in proc.stdout  # Â: A with a combining hat
    assert "The product H W: combine" in proc.stdout
    assert "ĥ" not in proc.stdout and "h₄₂" in proc.stdout  # every entry written out


def test_explain_general_in_japanese_reads_the_outer_product_as_a_match():
    proc = run("explain", "X W_Q (X W_K)^T", "--general", "--lang", "ja", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert "型の積：照合" in proc.stdout and "型の積：結合" in proc.stdout
    assert r"\cdots" in proc.stdout and "m" in proc.stdout


def test_explain_values_and_md_format():
    proc = run("explain", "AB", "--values", "A=1,2;3,4", "--values", "B=0,1;1,0", "--format",
               "md")
    assert proc.returncode == 0, proc.stderr
    assert "1 \\cdot 0 + 2 \\cdot 1" in proc.stdout and "$$" in proc.stdout


@pytest.mark.parametrize("args,fragments", [
    (("explain", r"A \otimes B"), ("not supported yet", "Kronecker", "column 3")),
    (("explain", r"\operatorname{softmx}(X)"), ("did you mean softmax?", "column 1")),
    (("explain", "XW", "--shape", "X=2x3", "--shape", "W=2x2"),
     ("the product XW", "X is 2 x 3", "W is 2 x 2")),
    (("explain", "(AB"), ("line 1, column 1",)),
    (("explain", "AB", "--shape", "A=2"), ("NAME=RxC",)),
    (("explain", "AB", "--values", "A=1,x"), ("numbers",)),
    (("explain", "XW", "--shape", "X=2x3"), ("columns of W", "--shape W=3x2")),
    (("check", "-", "--against", "transpose"), ("--against", "neither a preset")),
])
def test_explain_errors_are_one_line(args, fragments):
    assert_one_line_error(run(*args, stdin=""), *fragments)


def test_check_against_a_formula():
    proc = run("check", "-", "--against", "XW", "--shape", "X=2x2", "--shape", "W=2x2",
               stdin=r"c_{12} = x_{11} w_{12} + x_{12} w_{22}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wrong = run("check", "-", "--against", "XW", "--shape", "X=2x2", "--shape", "W=2x2",
                stdin=r"c_{12} = x_{11} w_{21} + x_{12} w_{22}")
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
