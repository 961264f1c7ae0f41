"""Benchmark: checking a complete hand derivation of attention.

Run it with ``make bench`` or ``.venv/bin/python tests/bench_check.py``.  It
is a benchmark, not a test: nothing here fails the test suite.

The hand derivation (``tests/check_cases/handwritten.py``) writes S = QK^T
as inner products and then entry by entry, P = softmax(S/sqrt(d)) entry by
entry, O = PV entry by entry, and one output entry fully expanded in the
entries of Q, K and V.  For m = n = d = 4 that is 8 steps, 100 matrix
entries and about 7,000 characters of LaTeX.

Reported, for each size and each parser (latex2sympy2 where it is
installed, and the built-in one), side by side:

* **first check**: the first ``symrow.check`` in a fresh process, after
  ``import symrow`` and after the derivation was built, so it includes
  loading the parser (for latex2sympy2, its ANTLR runtime) and warming the
  parser's prediction caches.  The target for m = n = d = 4 is at most 1 s.
* **parser load**: the part of that spent importing latex2sympy2.
* **warm check**: the best of several later checks of the same text in the
  same process.

Each size and parser runs in its own child process, so every "first check"
is cold.

Two more figures, for each parser, each in a fresh process (wall clock, and
the process's own CPU time, which a busy machine disturbs less):

* **general sizes**: the 10-step hand derivation of attention written with
  m, n, d (``GENERAL_ATTENTION`` in ``tests/check_cases/handwritten.py``),
  checked against ``symrow.attention("m", "n", "d")`` at its four size
  choices; target: the first check after ``import symrow`` in at most 1 s;
* **handout round trip**: the whole Japanese handout (LaTeX) checked with
  ``--against handout``; target: at most 3 s;
* **a backward pass**: symrow's own backward pass of Phuong & Hutter's
  attention in column vectors (130 claims, 20,000 characters) checked
  against it; target: at most 3 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
TARGET_SIZE, TARGET_SECONDS = 4, 1.0

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import symrow
t1 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from check_cases.handwritten import attention_derivation
n = int(sys.argv[2])
parser = sys.argv[4]
derivation = symrow.attention(n, n, n)
tex = attention_derivation(n, n, n)
t2 = time.perf_counter()
report = symrow.check(tex, derivation, parser=parser)
t3 = time.perf_counter()
warm = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    symrow.check(tex, derivation, parser=parser)
    warm.append(time.perf_counter() - t)
# the parser load on its own, in this process's terms: time a fresh import elsewhere
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first": t3 - t2,
                  "warm": min(warm) if warm else None, "verdict": report.verdict,
                  "steps": len(report.steps), "chars": len(tex)}))
"""

LOAD = r"""
import time, symrow
t = time.perf_counter()
import symrow.reader.entries.parse as parse
parse.load()
print(time.perf_counter() - t)
"""


GENERAL = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
t0, c0 = time.perf_counter(), time.process_time()
import symrow
t1, c1 = time.perf_counter(), time.process_time()
from check_cases.handwritten import GENERAL_ATTENTION
derivation = symrow.attention("m", "n", "d")
t2, c2 = time.perf_counter(), time.process_time()
report = symrow.check(GENERAL_ATTENTION, derivation, parser=sys.argv[2])
t3, c3 = time.perf_counter(), time.process_time()
symrow.check(GENERAL_ATTENTION, derivation, parser=sys.argv[2])
t4, c4 = time.perf_counter(), time.process_time()
print(json.dumps({"first": t3 - t2, "first_cpu": c3 - c2, "warm": t4 - t3,
                  "warm_cpu": c4 - c3, "verdict": report.verdict,
                  "steps": len(report.steps), "chars": len(GENERAL_ATTENTION)}))
"""

HANDOUT = r"""
import json, sys, time
import symrow
from symrow.handout import handout
h = handout()
tex = h.to_latex("ja")
t0, c0 = time.perf_counter(), time.process_time()
report = symrow.check(tex, h, parser=sys.argv[1], timeout=300)   # timed here, not limited
t1, c1 = time.perf_counter(), time.process_time()
counts = report.counts
print(json.dumps({"time": t1 - t0, "cpu": c1 - c0, "verdict": report.verdict,
                  "checked": counts["checked"], "wrong": counts["wrong"],
                  "unreadable": counts["unreadable"], "unchecked": counts["unchecked"]}))
"""

BACKWARD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import symrow
from test_check_explained import _derivation
b = symrow.backward(_derivation(sys.argv[3]))
tex = b.to_latex("en")
t0, c0 = time.perf_counter(), time.process_time()
report = symrow.check(tex, b, parser=sys.argv[2], timeout=300)   # timed here, not limited
t1, c1 = time.perf_counter(), time.process_time()
print(json.dumps({"time": t1 - t0, "cpu": c1 - c0, "verdict": report.verdict,
                  "checked": report.counts["checked"], "chars": len(tex)}))
"""

#: targets of the added figures, in seconds
GENERAL_TARGET, HANDOUT_TARGET, BACKWARD_TARGET = 1.0, 3.0, 3.0
#: a paper's formula whose backward pass is the largest the suite checks: Phuong &
#: Hutter's attention in column vectors (arXiv:2207.09238, Algorithm 4); its check
#: took 11 s before the free symbols of the grounds were kept (2026-12-04)
BACKWARD_KEY = "fresh-phuong-hutter-attention"


def child(size: int, repeat: int, parser: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(TESTS), str(size), str(repeat),
                          parser], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> int:
    from symrow.reader.entries import parse
    parsers = ["latex2sympy2", "builtin"] if parse.available() else ["builtin"]
    print("symrow check: a complete hand derivation of softmax(QK^T/sqrt(d))V")
    if "latex2sympy2" in parsers:
        load = float(subprocess.run([sys.executable, "-c", LOAD], capture_output=True,
                                    text=True, check=True).stdout)
        print(f"(parser load, i.e. importing latex2sympy2, in a fresh process: {load:.2f} s; "
              f"it is part of every first check with latex2sympy2)")
    else:
        print("(latex2sympy2 is not installed here: the built-in parser alone)")
    print()
    head = "".join(f"  {p + ': first':>19}  {'warm':>7}" for p in parsers)
    print(f"{'m=n=d':>5}  {'steps':>5}  {'chars':>6}{head}  verdict")
    status = 0
    targets = {}
    for size, repeat in ((2, 5), (4, 5), (6, 2), (8, 1)):
        row = [child(size, repeat, p) for p in parsers]
        r = row[0]
        cells = "".join(f"  {x['first']:>17.2f} s  {x['warm']:>5.2f} s" for x in row)
        verdicts = sorted({x["verdict"] for x in row})
        print(f"{size:>5}  {r['steps']:>5}  {r['chars']:>6}{cells}  {'/'.join(verdicts)}")
        if verdicts != ["holds"]:
            status = 1
        if size == TARGET_SIZE:
            targets = {p: x["first"] for p, x in zip(parsers, row)}
    print()
    for p, seconds in targets.items():
        ok = "within" if seconds <= TARGET_SECONDS else "OVER"
        print(f"target: m = n = d = {TARGET_SIZE}, first check after import <= "
              f"{TARGET_SECONDS:.0f} s, {p}: {seconds:.2f} s ({ok})")

    def best(args, key):
        # best of three fresh processes: on a shared machine one run can be slowed down
        return min((json.loads(subprocess.run([sys.executable, "-c", *args],
                                              capture_output=True, text=True,
                                              check=True).stdout)
                    for _ in range(3)), key=lambda r: r[key])

    print()
    print("general sizes: 10 steps of attention in m, n, d, checked at 4 size choices "
          "(best of 3 fresh processes)")
    for p in parsers:
        g = best([GENERAL, str(TESTS), p], "first")
        ok = "within" if g["first"] <= GENERAL_TARGET else "OVER"
        print(f"  {p}: first check after import: {g['first']:.2f} s (CPU "
              f"{g['first_cpu']:.2f} s), target <= {GENERAL_TARGET:.0f} s ({ok}); warm: "
              f"{g['warm']:.2f} s; {g['steps']} steps, verdict {g['verdict']}")
        if g["verdict"] != "holds":
            status = 1

    print()
    print("handout round trip: the Japanese handout, symrow check --against handout "
          "(best of 3)")
    def whole(p, r, target) -> str:
        ok = "within" if r["time"] <= target else "OVER"
        return (f"  {p}: whole check: {r['time']:.2f} s (CPU {r['cpu']:.2f} s), target <= "
                f"{target:.0f} s ({ok}); {r['checked']} claims checked")

    for p in parsers:
        h = best([HANDOUT, p], "time")
        print(f"{whole(p, h, HANDOUT_TARGET)}, {h['wrong']} wrong, {h['unreadable']} "
              f"unreadable, {h['unchecked']} not checked")

    print()
    print("a backward pass: symrow's own backward pass of Phuong & Hutter's attention "
          "(column vectors), checked (best of 3)")
    for p in parsers:
        r = best([BACKWARD, str(TESTS), p, BACKWARD_KEY], "time")
        print(f"{whole(p, r, BACKWARD_TARGET)}, {r['chars']} characters, verdict "
              f"{r['verdict']} (11 s before 2026-12-04)")
        if r["verdict"] != "holds":
            status = 1
    print()
    status = max(status, bench_class())
    return status


#: the size of the class in the class benchmark, and its target ratio
CLASS_SIZE, CLASS_TARGET = 60, 0.5


def write_class(folder: Path) -> list[Path]:
    """60 submissions against attention (m = n = d = 2): the published-style pages of the
    test table that are written against it, as .md, .tex and .ipynb files, in turn."""
    sys.path.insert(0, str(TESTS))
    from check_cases.published import PAGES
    pages = [p for p in PAGES if p.against == "att222"]
    files = []
    for k in range(CLASS_SIZE):
        page = pages[k % len(pages)]
        suffix = ".ipynb" if page.notebook else ".md" if page.id.split("-")[0] in (
            "zenn", "qiita") else ".tex"
        path = folder / f"student{k + 1:02d}-{page.id}{suffix}"
        path.write_text(page.text, encoding="utf-8")
        files.append(path)
    return files


def bench_class() -> int:
    """A class of 60 files checked at once against 60 separate ``symrow check`` runs."""
    import os
    import tempfile
    import time
    args = ["--against", "attention", "--m", "2", "--n", "2", "--d", "2"]
    cmd = [sys.executable, "-m", "symrow", "check"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        files = write_class(folder)
        t = time.perf_counter()
        one = subprocess.run(cmd + [str(folder), *args, "--summary", str(Path(tmp) / "c.csv")],
                             capture_output=True, text=True)
        together = time.perf_counter() - t
        t = time.perf_counter()
        codes = [subprocess.run(cmd + [str(f), *args], capture_output=True, text=True).returncode
                 for f in files]
        apart = time.perf_counter() - t
        rows = (Path(tmp) / "c.csv").read_text(encoding="utf-8").splitlines()[1:]
    verdicts = {}
    for row in rows:
        verdict = row.split(",")[1]
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    ratio = together / apart
    ok = "within" if ratio <= CLASS_TARGET else "OVER"
    print(f"a class: {CLASS_SIZE} files (.md, .tex, .ipynb) against attention m = n = d = 2, "
          f"on {os.cpu_count()} cores")
    print(f"  {'one class check':>24}  {'60 separate checks':>18}  {'ratio':>6}")
    print(f"  {together:>22.2f} s  {apart:>16.2f} s  {ratio:>6.2f}   target <= "
          f"{CLASS_TARGET} ({ok})")
    print(f"  class exit code {one.returncode}; verdicts "
          + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))
          + f"; separate runs: exit codes {sorted(set(codes))}")
    return 0 if ratio <= CLASS_TARGET and len(rows) == CLASS_SIZE else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--class"]:
        raise SystemExit(bench_class())
    raise SystemExit(main())
