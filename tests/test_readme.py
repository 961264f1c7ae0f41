"""The README's commands, run as they are written.

Every line of a ``sh`` block of README.md that starts with ``symrow`` (or is
a ``$ symrow ...`` prompt, whose output the block shows) is a test of its own.
It runs in a folder of its own, holding the files it reads (a hand
derivation that holds against its ``--against``, a notebook, a class's
folder, symrow's own handout), which the README leaves to its reader:

* most run in this process (:func:`harness.symrow_cli`, the words split as a
  shell splits them);
* those with a shell's redirection (``> file``, ``< file``) run in ``sh``,
  with ``symrow`` found on PATH as ``. .venv/bin/activate`` puts it there;
* a prompt's output must be what the README shows.

A command that writes a PDF runs with TeX replaced by a recorder (the
documents themselves are compiled by the renderer tests: test_handout,
test_slides, test_outputs); one of them, the README's first, is compiled for
real by :func:`test_a_readme_pdf_command_compiles`.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import harness
from check_cases.published import notebook

README = Path(__file__).resolve().parent.parent / "README.md"
#: the folder of the ``symrow`` script, which ``. .venv/bin/activate`` puts on PATH
BIN = Path(sys.executable).parent

_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def readme_commands() -> list:
    """(line number, command, the output shown after it or None) of every ``symrow``
    command of the README's sh blocks; a command may go on over lines ending in ``\\``."""
    text = README.read_text(encoding="utf-8")
    found = []
    for block in _BLOCK.finditer(text):
        first = text.count("\n", 0, block.start(1)) + 1
        lines = block.group(1).splitlines()
        k = 0
        while k < len(lines):
            line, number = lines[k], first + k
            k += 1
            prompt = line.startswith("$ ")
            if prompt:
                line = line[2:]
            if not re.match(r"symrow(\s|$)", line):
                continue
            while line.endswith("\\") and k < len(lines):
                line = line[:-1] + " " + lines[k].strip()
                k += 1
            shown = None
            if prompt:  # the output: the lines up to the next prompt
                end = next((j for j in range(k, len(lines)) if lines[j].startswith("$ ")),
                           len(lines))
                shown, k = "\n".join(lines[k:end]), end
            found.append((number, line, shown))
    return found


COMMANDS = readme_commands()


def _words(command: str) -> list:
    return shlex.split(command, comments=True)


# -- the files the commands read -------------------------------------------------------------

#: a hand derivation that holds, by the derivation a command checks against
PAGES = {
    "attention": "The scores and the output:\n$S = QK^\\top$, and $O = PV$.\n",
    "combine": ("Row $i$ of $C$ combines the rows of $B$:\n"
                "$\\boldsymbol{c}_i = \\sum_{j=1}^{\\ell} a_{ij}\\boldsymbol{b}_j$, "
                "so $C = AB$.\n"),
    "match": "$C = AB^\\top$\n",
    r"\hat{A} X W": "$C = \\hat{A} X W$\n",
    # the README shows what the checker says of this one (line 2 wrong, line 3 holds)
    "Y = XW": ("The gradients, by the chain rule:\n"
               "$\\bar{X} = W^\\top \\bar{Y}$\n"
               "$\\bar{W} = X^\\top \\bar{Y}$\n"),
}


def _read_files(words: list) -> list:
    """The files and folders a command reads: check's inputs and what ``<`` redirects."""
    names = [w for prev, w in zip([""] + words, words) if prev == "<"]
    if words[1:2] == ["check"]:
        for w in words[2:]:
            if w.startswith("-") or w in ("<", ">"):
                break
            names.append(w)
    return names


def _make_files(folder: Path, words: list) -> None:
    if "--roster" in words:
        (folder / words[words.index("--roster") + 1]).write_text("id\ns001\ns002\n",
                                                                 encoding="utf-8")
    if "--exercise" in words:
        # an exercise made as the README's `symrow exercise` makes it, and its keys handed in
        import symrow.exercises as X
        from symrow.exercises.documents import key
        ex = X.exercise("attention", m=2, n=3, d=2, students=["s001", "s002"], seed=7)
        ex.write(folder / words[words.index("--exercise") + 1], formats=("md",),
                 langs=("en",))
        for name in _read_files(words):
            (folder / name).mkdir()
            for v in ex.variants:
                (folder / name / f"{v.student}.md").write_text(key(ex.spec, v),
                                                               encoding="utf-8")
        return
    against = words[words.index("--against") + 1] if "--against" in words else None
    for name in _read_files(words):
        path = folder / name
        if against == "handout":
            # symrow's own handout, as `symrow handout -f tex` writes it
            from symrow.handout import handout
            path.write_text(handout().to_document("en"), encoding="utf-8")
            continue
        page = PAGES[against]
        if name.endswith("/"):
            path.mkdir()
            (path / "ann.tex").write_text(page, encoding="utf-8")
            (path / "bob.md").write_text(page, encoding="utf-8")
        elif name.endswith(".ipynb"):
            path.write_text(notebook(("markdown", page), ("code", "print(1)")),
                            encoding="utf-8")
        else:
            path.write_text(page, encoding="utf-8")


# -- running one --------------------------------------------------------------------------------

def _compiles(words: list) -> bool:
    return any(w.endswith(".pdf") for w in words) or "pdf" in words


def _id(entry) -> str:
    number, command, _shown = entry
    return (f"line{number}-" + "-".join(re.sub(r"\W+", "", w) for w in _words(command)[1:3]))[:40]


def _marks(entry) -> list:
    words = _words(entry[1])
    # checking the whole handout reads every section of it (some seconds)
    return [pytest.mark.slow] if "handout" in words and "check" in words else []


def _shell(command: str, folder: Path) -> subprocess.CompletedProcess:
    """The command in sh, in ``folder``, with the venv's bin first on PATH."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["sh", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("entry", [pytest.param(e, marks=_marks(e), id=_id(e))
                                   for e in COMMANDS])
def test_a_readme_command_runs_as_written(entry, tmp_path, tex_spy):
    import symrow
    _number, command, shown = entry
    words = _words(command)
    _make_files(tmp_path, words)
    before = {p.name for p in tmp_path.iterdir()}
    if "--exercise" in words:
        before -= {words[words.index("--exercise") + 1]}
        before.add(words[words.index("--exercise") + 1])
    # a loaded machine must not make a check run out of its time (10 s by default)
    with symrow.limits(check_timeout=600):
        if {"<", ">", "|"} & set(words):
            assert not _compiles(words), "a PDF command would compile for real in sh"
            proc = _shell(command, tmp_path)
        else:
            proc = harness.symrow_cli(*words[1:], cwd=tmp_path)
    expected = 1 if shown is not None and "verdict: wrong" in shown else 0
    assert proc.returncode == expected, (command, proc.returncode, proc.stderr[-2000:])
    assert "error" not in proc.stderr, proc.stderr
    if shown is not None:
        assert [line.rstrip() for line in proc.stdout.splitlines()] == shown.splitlines()
    written = [w for prev, w in zip([""] + words, words)
               if prev in (">", "-o", "--summary", "--plot")]
    if "--figures" in words:   # a Markdown page's pictures are written beside it
        written += sorted(p.name for name in written if name.endswith(".md")
                          for p in tmp_path.glob(name[:-3] + "-*.svg"))
    for name in written:
        assert (tmp_path / name).stat().st_size > 0, name
    assert {p.name for p in tmp_path.iterdir()} - before == set(written)
    assert bool(tex_spy) == _compiles(words), command


# -- what the tests above rely on ----------------------------------------------------------------

def test_the_readme_has_the_commands_it_should():
    commands = [command for _n, command, _s in COMMANDS]
    assert len(commands) > 30
    assert ["symrow"] in [_words(c) for c in commands]
    assert any(c.startswith("symrow check") for c in commands)
    assert sum(shown is not None for _n, _c, shown in COMMANDS) == 1
    # every command reads as a shell reads it; no "[--option]" left to the reader
    for command in commands:
        assert not re.search(r"\s\[-", command), command
    # each ships with what it reads
    for command in commands:
        words = _words(command)
        if "--against" in words and _read_files(words):
            against = words[words.index("--against") + 1]
            assert against == "handout" or against in PAGES, command


def test_the_readme_says_how_to_put_symrow_on_path():
    text = README.read_text(encoding="utf-8")
    setup = text[:text.index("## The reading")]
    assert "make demo" in setup and "make test" in setup
    assert ". .venv/bin/activate" in setup
    makefile = (README.parent / "Makefile").read_text(encoding="utf-8")
    demo = makefile[makefile.index("\ndemo:"):].split("\n\n", 1)[0]
    assert ". $(VENV)/bin/activate" in demo


@pytest.mark.renderer
def test_a_readme_pdf_command_compiles(tmp_path):
    """The first PDF command of the README, compiled for real, from a shell."""
    command = next(c for _n, c, _s in COMMANDS if _compiles(_words(c)))
    words = _words(command)
    harness.require_tex("pdflatex" if "ja" not in words else "lualatex")
    proc = _shell(command, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = words[words.index("-o") + 1]
    assert (tmp_path / out).read_bytes().startswith(b"%PDF")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_starts_with_the_reader():
    """What symrow is and a picture of what it makes on the first screen; the two
    commands; a lecturer's and a student's first result within 150 lines; then a
    contents list whose links all lead to a heading (issue 28)."""
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    first_screen = "\n".join(lines[:30])
    assert "vector sequence" in first_screen
    picture = re.search(r"!\[[^\]]+\]\((examples/[^)]+\.png)\)", first_screen)
    assert picture and (README.parent / picture[1]).is_file()
    assert "|" not in first_screen          # no table before the reader knows what it is
    start = "\n".join(lines[:150])
    assert start.index("make demo") < start.index("## For a lecturer")
    lecturer = start[start.index("## For a lecturer"):start.index("## For a student")]
    assert re.search(r"^symrow .*-o \S+\.pdf", lecturer, re.M)
    student = start[start.index("## For a student"):]
    assert "symrow explain" in student and "$ symrow check" in student
    assert "verdict:" in student            # the check's report itself, within the 150 lines
    headings = {_slug(h) for h in re.findall(r"^#{2,3} (.+)$", text, re.M)}
    contents = text[text.index("## Contents"):]
    contents = contents[:contents.index("\n## ", 3)]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    assert len(links) >= 10 and set(links) <= headings, set(links) - headings
    # what moved to tests/README.md: the renderers' table and the before/after pictures
    for moved in ("| renderer | for | install |", "-before.png", "before (commit"):
        assert moved not in text, moved


def test_jupyter_is_an_extra_the_readme_names():
    pyproject = (README.parent / "pyproject.toml").read_text(encoding="utf-8")
    extras = pyproject[pyproject.index("[project.optional-dependencies]"):]
    assert re.search(r"^jupyter = \[", extras, re.M)
    assert "pip install -e '.[jupyter]'" in README.read_text(encoding="utf-8")


def test_the_developers_page_has_what_left_the_readme():
    dev = (README.parent / "tests" / "README.md").read_text(encoding="utf-8")
    for kept in ("| renderer | for | install |", "CI=true", "--update-golden",
                 "**A new reading**", "fractions-before-katex.png", "before these changes"):
        assert kept in dev, kept
    for link in re.findall(r"\]\((\.\./[^)#]+)\)", dev):
        assert (README.parent / "tests" / link).resolve().exists(), link
