"""Test helpers: golden files, the real renderers (KaTeX, MathJax, TeX), the parsers.

Renderer tests call :func:`require`: a missing renderer skips the test with
a stated reason locally, and fails it when ``CI=true``.  latex2sympy2 is
required the same way on Python < 3.13 (:func:`require_latex2sympy2`); on
3.13 and later it is not installed, and its tests skip with the reason.

What each renderer needs, and where it comes from:

* pdflatex: the engine (Debian ``texlive-latex-base``);
* lualatex with luatexja: the engine and ``luatexja.sty``, ``xkeyval.sty``
  (``texlive-luatex``, ``texlive-lang-japanese``, ``texlive-latex-recommended``);
* Beamer slides: ``beamer.cls`` and pgf's ``pgfmath.sty`` (``texlive-pictures``);
* KaTeX, MathJax: ``node`` and the npm packages of ``tests/package.json``
  (``make renderers``);
* Chromium (:func:`require_chromium`): not installed by CI, so its tests
  skip there too; what they measure is estimated by tests that run everywhere.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GOLDEN = TESTS / "golden"
NODE_MODULES = TESTS / "node_modules"
IN_CI = os.environ.get("CI", "").lower() == "true"

#: set by conftest from the --update-golden flag
UPDATE_GOLDEN = False

#: the test being run (set by conftest): its markers say which renderers it may use
CURRENT = None


def _marked(marker: str, what: str) -> None:
    """Fail a test that uses ``what`` without the marker that says so: ``make test-fast``
    deselects by these markers, and a test it should leave out would run there (or, with
    the renderer missing, skip) without it.  Checked whether the renderer is installed
    or not, so a missing marker shows on every machine."""
    item = CURRENT
    if item is not None and item.get_closest_marker(marker) is None:
        pytest.fail(f"{item.nodeid} uses {what} but is not marked @pytest.mark.{marker} "
                    f"(make test-fast leaves out the tests so marked)")


def require(ok: bool, what: str, how: str) -> None:
    """Skip (locally) or fail (CI=true) when a renderer is missing."""
    if ok:
        return
    message = f"{what} is not installed ({how})"
    if IN_CI:
        pytest.fail(f"CI=true and {message}")
    pytest.skip(message)


def require_latex2sympy2() -> None:
    """Skip on Python >= 3.13 (it is not installed there); elsewhere as :func:`require`."""
    from symrow.reader.entries import parse
    if parse.available():
        return
    if sys.version_info >= (3, 13):
        pytest.skip("latex2sympy2 1.9.1 does not import on Python >= 3.13 and is not installed "
                    "there; the built-in parser is tested instead")
    require(False, "latex2sympy2", "pip install -e '.[test]' installs it on Python < 3.13; "
            f"the import failed with {parse._missing}")


def require_node_module(name: str) -> None:
    _marked("renderer", f"node's {name}")
    _require_node_module(name)


def _require_node_module(name: str) -> None:
    require(shutil.which("node") is not None and (NODE_MODULES / name).is_dir(),
            f"node with the npm package {name}", "run `make renderers` or `cd tests && npm ci`")


TEX_PACKAGES = ("apt-get install texlive-latex-base texlive-latex-recommended texlive-luatex "
                "texlive-lang-japanese texlive-pictures")

#: the TeX files each engine's documents need, beyond the engine (amsmath comes with it)
TEX_FILES = {"pdflatex": (), "lualatex": ("luatexja.sty", "xkeyval.sty")}
#: the files Beamer slides need (beamer.cls needs pgf, which Debian ships apart)
BEAMER_FILES = ("beamer.cls", "pgfmath.sty")


@functools.lru_cache(maxsize=None)
def _tex_file_missing(name: str) -> bool:
    """Whether kpsewhich cannot find a TeX file (False when there is no kpsewhich to ask:
    the engine then says what is missing)."""
    kpsewhich = shutil.which("kpsewhich")
    if kpsewhich is None:
        return False
    proc = subprocess.run([kpsewhich, name], capture_output=True, text=True, timeout=60)
    return proc.returncode != 0 or not proc.stdout.strip()


def require_tex(engine: str, *files: str) -> None:
    """The TeX engine, with the files its documents need (and ``files``)."""
    _marked("renderer", engine)
    require(shutil.which(engine) is not None, engine, TEX_PACKAGES)
    missing = [f for f in TEX_FILES.get(engine, ()) + files if _tex_file_missing(f)]
    require(not missing, f"{engine}'s {', '.join(missing)}", TEX_PACKAGES)


def require_chromium() -> None:
    """Skip without Chromium, even under CI=true (CI does not install it); with it, the
    npm renderers its pages load are required as the other renderer tests require them."""
    _marked("browser", "Chromium")
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("chromium is not installed (CI does not install it; tests/page_model.py "
                    "estimates the same, and tests/browser_pages.py measures pages where "
                    "it is)")
    _require_node_module("katex")
    _require_node_module("mathjax-full")


# -- results shared by the workers of one run ------------------------------------------

def shared(name: str, compute, tmp_path_factory):
    """``compute()`` once per test run, whichever worker asks first.

    Under pytest-xdist (make test), each worker is a process of its own, so a
    cached function would compute its result once per worker: the decks of
    every slide deck compiled twice, say.  Here the first worker to ask takes
    a lock file in the folder all workers of the run share, computes, and
    leaves the result (JSON) there; a worker that asks meanwhile waits for the
    lock and reads it.  (The waiting costs no CPU, and the work it waits for
    is what it would have done.)  Within a worker the result is kept too.
    An exception (a skip, a failure) leaves nothing behind: the next asker
    computes again, and meets it again.
    """
    key = (name, id(tmp_path_factory))
    if key in _SHARED:
        return _SHARED[key]
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, over each worker's own
    path, lock = root / f"shared-{name}.json", root / f"shared-{name}.lock"
    try:
        import fcntl
    except ImportError:  # no POSIX locks: each worker computes its own
        fcntl = None
    with open(lock, "a") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        if path.exists():
            value = json.loads(path.read_text(encoding="utf-8"))
        else:
            value = json.loads(json.dumps(compute()))  # as the other workers read it
            partial = path.with_suffix(".partial")
            partial.write_text(json.dumps(value), encoding="utf-8")
            partial.replace(path)
    _SHARED[key] = value
    return value


_SHARED: dict = {}


# -- golden files --------------------------------------------------------------

def golden(name: str, actual: str) -> None:
    """Compare ``actual`` with ``tests/golden/<name>``; rewrite it under --update-golden."""
    path = GOLDEN / name
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path.relative_to(TESTS)} is missing; create it with "
                    f"`pytest --update-golden` and review it with `git diff`")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True),
            f"golden/{name}", "actual", n=2))
        pytest.fail(f"output differs from golden/{name} (regenerate with --update-golden "
                    f"and review the diff):\n{diff[:6000]}")


# -- math extraction -------------------------------------------------------------

_ALIGN = re.compile(r"\\begin\{align\*\}.*?\\end\{align\*\}", re.S)
_DISPLAY_MD = re.compile(r"^\$\$\n(.*?)\n\$\$$", re.S | re.M)
_INLINE = re.compile(r"(?<![\\$])\$([^$\n]+)\$")


def latex_math(fragment: str) -> list[dict]:
    """Every display (align*) and inline ($...$) formula of a LaTeX fragment."""
    out = [{"tex": m.group(0), "display": True} for m in _ALIGN.finditer(fragment)]
    rest = _ALIGN.sub("", fragment)
    out += [{"tex": m.group(1), "display": False} for m in _INLINE.finditer(rest)]
    return out


def markdown_math(text: str) -> list[dict]:
    """Every $$ block and inline $ formula of a Markdown document."""
    out = [{"tex": m.group(1), "display": True} for m in _DISPLAY_MD.finditer(text)]
    rest = _DISPLAY_MD.sub("", text)
    out += [{"tex": m.group(1), "display": False} for m in _INLINE.finditer(rest)]
    return out


_STRUT = re.compile(r" ?\\vphantom\{\\rule\[[^]]*\]\{[^}]*\}\{[^}]*\}\}")


def strip_struts(tex: str) -> str:
    """LaTeX without the invisible struts that give tall rows their room."""
    return _STRUT.sub("", tex)


# -- renderers -------------------------------------------------------------------------

#: what each renderer made of each formula so far in this process, by (tex, display):
#: every formula is rendered on its own (MathJax in a fresh document each), so a
#: formula's result does not depend on the others, and the same formula (the
#: same display in Markdown and Jupyter, in English and Japanese) is rendered once
_RENDERED: dict = {"katex": {}, "mathjax": {}}


def _render(script: str, name: str, formulas: list[dict], timeout: int) -> list[str | None]:
    """One error message or None per formula; each distinct formula rendered once
    per process, in one node run for those not rendered before."""
    done = _RENDERED[name]
    keys = [(f["tex"], bool(f["display"])) for f in formulas]
    todo = list(dict.fromkeys(k for k in keys if k not in done))
    if todo:
        proc = subprocess.run(["node", str(TESTS / script)],
                              input=json.dumps([{"tex": t, "display": d} for t, d in todo]),
                              capture_output=True, text=True, timeout=timeout, check=True)
        results = json.loads(proc.stdout)
        assert len(results) == len(todo), f"{name} answered {len(results)} of {len(todo)}"
        done.update(zip(todo, results))
    return [done[k] for k in keys]


def katex(formulas: list[dict]) -> list[str | None]:
    """Render with KaTeX (throwOnError, strict); one error message or None per formula."""
    require_node_module("katex")
    return _render("katex_render.js", "katex", formulas, 120)


def mathjax(formulas: list[dict]) -> list[str | None]:
    """Render with MathJax 3 (errors made fatal); one error message or None per formula."""
    require_node_module("mathjax-full")
    return _render("mathjax_render.js", "mathjax", formulas, 300)


def katex_layout(formulas: list[dict]) -> list[dict]:
    """KaTeX's own geometry of each formula (see tests/katex_layout.js): the gaps
    between the rows of its arrays and the style of its fractions."""
    require_node_module("katex")
    proc = subprocess.run(["node", str(TESTS / "katex_layout.js")], input=json.dumps(formulas),
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(proc.stdout)


def tex_boxes(lines: list[str], engine: str = "pdflatex") -> list[tuple]:
    """(width, height, depth) in ems of each line of display math as TeX sets it
    (``\\displaystyle`` in an hbox, 10 pt type, amsmath), read from the log."""
    body = "\n".join(r"\setbox0\hbox{$\displaystyle %s$}\typeout{BOX \the\wd0 \the\ht0 "
                     r"\the\dp0}" % line for line in lines)
    source = ("\\documentclass[10pt]{article}\n\\usepackage{amsmath,amssymb}\n"
              "\\begin{document}\n" + body + "\nmeasured\n\\end{document}\n")
    _pdf, log = compile_tex(source, engine)
    found = re.findall(r"BOX ([\d.]+)pt\s*([\d.]+)pt\s*([\d.]+)pt", log)
    assert len(found) == len(lines), f"TeX reported {len(found)} boxes for {len(lines)} lines"
    return [tuple(float(x) / 10.0 for x in box) for box in found]


def assert_renders(formulas: list[dict], renderer=katex) -> None:
    assert formulas, "no math found to render"
    errors = [(f["tex"][:300], e) for f, e in zip(formulas, renderer(formulas)) if e]
    assert not errors, f"{len(errors)} formula(s) failed:\n" + "\n".join(
        f"- {e}\n  in: {tex}" for tex, e in errors[:5])


def compile_tex(source: str, engine: str, *, timeout: int = 300) -> tuple[bytes, str]:
    """Compile a document; return (pdf bytes, log).  Fails the test on a TeX error."""
    require_tex(engine, *(BEAMER_FILES if "{beamer}" in source.split("\n", 1)[0] else ()))
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "doc.tex").write_text(source, encoding="utf-8")
        proc = subprocess.run(
            [engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
            cwd=tmp, capture_output=True, timeout=timeout,
            env={**os.environ, "max_print_line": "1000"})  # log lines unwrapped
        log_path = Path(tmp) / "doc.log"
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
        if proc.returncode != 0:
            errors = [line for line in log.splitlines() if line.startswith("!")][:5]
            pytest.fail(f"{engine} failed ({proc.returncode}): {errors}\n{log[-3000:]}")
        return (Path(tmp) / "doc.pdf").read_bytes(), log


_DOC_MARK = "SYMROW-DOCUMENT"


def compile_documents(sources: list[str], engine: str) -> list[str]:
    """Compile several documents of one preamble in one run of ``engine`` (a TeX
    run's start, its fonts above all, costs more than a page): their bodies
    one after another, each from a new page.  Returns each document's part of
    the log, for :func:`overfull_boxes` and the like; fails the test on a TeX
    error, as :func:`compile_tex` does."""
    heads = {src.split("\\begin{document}", 1)[0] for src in sources}
    assert len(heads) == 1, "compile_documents() takes documents of one preamble"
    body = []
    for k, src in enumerate(sources):
        inner = src.split("\\begin{document}", 1)[1].rsplit("\\end{document}", 1)[0]
        body.append("\\clearpage\\typeout{%s %d}\n%s" % (_DOC_MARK, k, inner))
    _pdf, log = compile_tex(heads.pop() + "\\begin{document}\n" + "\n".join(body)
                            + "\\clearpage\\typeout{%s end}\n\\end{document}\n"
                            % _DOC_MARK, engine)
    parts = re.split(r"^%s (\d+|end)$" % _DOC_MARK, log, flags=re.M)
    # parts: [before, "0", log of 0, "1", log of 1, ..., "end", after]
    found = {parts[k]: parts[k + 1] for k in range(1, len(parts) - 1, 2)}
    assert sorted(found) == sorted([str(k) for k in range(len(sources))] + ["end"]), \
        "a document's mark is missing from the log"
    return [found[str(k)] for k in range(len(sources))]


def overfull_boxes(log: str, tolerance_pt: float = 1.0) -> list[str]:
    """Overfull \\hbox warnings wider than ``tolerance_pt``."""
    found = []
    for m in re.finditer(r"Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*", log):
        if float(m.group(1)) > tolerance_pt:
            found.append(m.group(0))
    return found


# -- the command line, in this process ---------------------------------------------------

def symrow_cli(*args: str, stdin: str | None = None, env: dict | None = None,
               cwd=None) -> subprocess.CompletedProcess:
    """``symrow ARGS`` run by :func:`symrow.cli.main` in this process, as the entry
    point runs it (``raise SystemExit(main())``): its exit code, and what it wrote
    to standard output (text, or bytes when it wrote any) and standard error.

    Standard output is not a terminal; ``env`` is added to the environment and
    ``cwd`` is the working folder, both for the call only.  A subprocess costs a
    fresh interpreter and SymPy's import (0.6 s of CPU); the tests that need a
    real process (the entry point, a pipe, a terminal, what a command imports)
    use :func:`symrow_process`.
    """
    import io
    from symrow.cli import main

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    err = io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr, dict(os.environ), os.getcwd()
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors, --help
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None
                                                                   else 1)
        out.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.environ.clear()
        os.environ.update(saved[3])
        os.chdir(saved[4])
    data = raw.getvalue()
    try:
        stdout = data.decode("utf-8")
    except UnicodeDecodeError:
        stdout = data
    if isinstance(stdout, str) and stdout.startswith("%PDF"):
        stdout = data
    return subprocess.CompletedProcess(["symrow", *args], code, stdout, err.getvalue())


def symrow_process(*args: str, stdin: str | None = None, env: dict | None = None, cwd=None,
                   timeout: int = 300) -> subprocess.CompletedProcess:
    """``python -m symrow ARGS`` in a subprocess, text in and out."""
    return subprocess.run([sys.executable, "-m", "symrow", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=cwd)


# -- the value of a display ---------------------------------------------------------------

def node_value(node):
    """The SymPy value of a displayed expression, computed without the printers,
    so that what a derivation *shows* can be compared with its ``.result``."""
    import sympy
    from symrow import nodes as N
    if isinstance(node, N.OSum):
        return sympy.Add(*[node_value(t) for t in node.terms])
    if isinstance(node, N.OMul):
        return sympy.Mul(*[node_value(f) for f in node.factors])
    if isinstance(node, N.Neg):
        return -node_value(node.item)
    if isinstance(node, N.Frac):
        return node_value(node.num) / node_value(node.den)
    if isinstance(node, N.Exp):
        return sympy.exp(node_value(node.arg))
    if isinstance(node, N.Sqrt):
        return sympy.sqrt(node_value(node.arg))
    if isinstance(node, N.Bmat):
        return sympy.Matrix([[node_value(c) for c in row] for row in node.rows])
    if isinstance(node, N.Entrywise):
        return node_value(node.values)
    if isinstance(node, sympy.Basic):
        return node
    raise TypeError(type(node).__name__)


# -- the checker's two parsers -------------------------------------------------------------

def tree_structure(expr):
    """A parsed tree as nested tuples, arguments in their stored order.

    ``sympy.srepr`` sorts the arguments of Add and Mul when it prints them,
    so it cannot tell ``Mul(a, b)`` from ``Mul(b, a)``; the evaluator can
    (it multiplies matrices in the stored order), and so does this.
    """
    import sympy
    if not isinstance(expr, sympy.Basic):
        return repr(expr)
    if expr.is_Atom or not expr.args:
        return sympy.srepr(expr)
    return (type(expr).__name__, tuple(tree_structure(a) for a in expr.args))


def _run(fn, text: str):
    """(outcome, result, error): what a parser makes of ``text``, with an outcome
    comparable across parsers: ("tree", structure), ("too complex",),
    ("error", reason, offset) or ("exception", type name)."""
    from symrow.reader.entries import parse
    try:
        tree = fn(text)
    except (parse.TooComplex, RecursionError) as err:
        return ("too complex",), None, err
    except parse.TextError as err:
        return ("error", err.reason, err.offset), None, err
    except Exception as err:  # noqa: BLE001 - latex2sympy2's converter raises bare ones
        return ("exception", type(err).__name__), None, err
    return ("tree", tree_structure(tree)), tree, None


def parse_outcome(fn, text: str) -> tuple:
    """What ``fn`` (a parser) makes of ``text``, comparable across parsers."""
    return _run(fn, text)[0]


def comparing_parse(parse_module, mismatches: list):
    """A stand-in for ``parse.parse`` that runs both parsers on every text.

    It returns what latex2sympy2 returns (or raises what it raises), and
    records in ``mismatches`` every text on which the built-in parser's
    outcome differs.
    """
    from symrow.reader.entries import flatparse
    l2s = parse_module._parse_latex2sympy2

    def parse(text, *, parser="auto", two_stage=True):
        got, tree, error = _run(lambda t: l2s(t, two_stage), text)
        builtin = parse_outcome(flatparse.parse, text)
        if got != builtin:
            mismatches.append(f"{text!r}:\n  latex2sympy2: {str(got)[:300]}\n"
                              f"  builtin:      {str(builtin)[:300]}")
        if error is not None:
            raise error
        return tree

    return parse


# -- numbers of a derivation, against numpy --------------------------------------------------

def result_numbers(d, values: dict, scalars: dict | None = None):
    """The result of derivation ``d`` in numbers, its operands given ``values`` (arrays by
    name; an operand read in the row view, its shape reversed, takes the transposed
    values) and its scalars ``scalars`` (by SymPy symbol, or by the symbol's name)."""
    import numpy as np
    import sympy
    subs = {}
    for name, seq in d.operands.items():
        value = np.asarray(values[name], dtype=float)
        if seq.shape != value.shape:
            assert seq.shape == value.shape[::-1], (name, seq.shape, value.shape)
            value = value.T
        for i in range(seq.rows):
            for j in range(seq.cols):
                subs[seq.matrix[i, j]] = value[i, j]
    result = sympy.Matrix(d.result).xreplace(subs)
    named = {}
    for key, v in (scalars or {}).items():
        if isinstance(key, str):
            named.update({s: v for s in result.free_symbols if s.name == key})
        else:
            named[key] = v
    return np.array(result.xreplace(named).evalf(20).tolist(), dtype=float)


def central_gradient(f, arrays: dict, name: str, h: float = 1e-6):
    """The gradient of the number ``f(arrays)`` by the array ``arrays[name]``, by central
    differences (an independent check of a backward pass)."""
    import numpy as np
    want = np.zeros_like(arrays[name])
    for idx in np.ndindex(want.shape):
        p = {k: v.copy() for k, v in arrays.items()}
        m = {k: v.copy() for k, v in arrays.items()}
        p[name][idx] += h
        m[name][idx] -= h
        want[idx] = (f(p) - f(m)) / (2 * h)
    return want
