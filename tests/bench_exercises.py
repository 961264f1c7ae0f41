"""Benchmark: an exercise for 300 students, and 300 submissions graded.

Run it with ``.venv/bin/python tests/bench_exercises.py``.  It is a benchmark, not a
test.  It makes the attention exercise (m = 2, n = 3, d = 2) for 300 students and
writes its Markdown files and exports (``--formats md``; PDFs cost one TeX run
each, measured apart on 3 students), then grades 300 submissions: each student's
own key, every third one with the scale left out of P (so the grader's second
look, with the catalogue's mutations and errors carried forward, runs for a
third of the class).  Wall clock on every core, as ``symrow check --exercise``
runs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

STUDENTS = 300


def main() -> None:
    import symrow.exercises as X
    from symrow.exercises import documents as D
    from symrow.exercises.compute import mutations
    t0 = time.perf_counter()
    ex = X.exercise("attention", m=2, n=3, d=2, count=STUDENTS, seed=7)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ex"
        ex.write(folder, formats=(), langs=("en",))    # the manifest and the exports
        t2 = time.perf_counter()
        few = X.exercise("attention", m=2, n=3, d=2, count=30, seed=7)
        t2a = time.perf_counter()
        few.write(Path(tmp) / "few", formats=("md",))
        t2b = time.perf_counter()
        subs = Path(tmp) / "subs"
        subs.mkdir()
        for k, v in enumerate(ex.variants):
            page = D.key(ex.spec, v)
            if k % 3 == 0:
                t = v.truth(ex.spec)
                wrong = next(c.value(t, ex.spec.shapes) for c in
                             mutations(ex.spec, ex.spec.step("P"), ex.catalogue, t)
                             if c.code == "SCALE-MISSING")
                page = page.replace(D.matrix_tex(t["P"]), D.matrix_tex(wrong))
            (subs / f"{v.student}.md").write_text(page, encoding="utf-8")
        loaded = X.load(folder)
        t3 = time.perf_counter()
        summary = loaded.grade([subs])
        t4 = time.perf_counter()
        small = X.exercise("attention", m=2, n=3, d=2, count=3, seed=7)
        t5 = time.perf_counter()
        small.write(Path(tmp) / "pdf")
        t6 = time.perf_counter()
    codes = summary.frequent()
    print(f"variants for {STUDENTS} students: {t1 - t0:.1f} s")
    print(f"their manifest, Moodle XML and GIFT (en): {t2 - t1:.1f} s")
    print(f"30 students' Markdown sheets, solutions and keys (en, ja): {t2b - t2a:.1f} s")
    print(f"{STUDENTS} submissions graded: {t4 - t3:.1f} s "
          f"(mean score {summary.mean():.2f} / 3; {codes[:1]})")
    print(f"3 students with PDFs (18 documents and 2 booklets, en and ja): {t6 - t5:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
