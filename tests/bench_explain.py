"""Benchmark: explain() of the attention formula against attention() and naive SymPy.

Run it with ``make bench`` or ``.venv/bin/python tests/bench_explain.py``.
It is a benchmark, not a test: nothing here fails the test suite.

For m = n = d = 8 and 16 it times, side by side:

* **attention()**: ``symrow.attention(n, n, n, scale="number")``, every step,
  then the LaTeX of its full expansion (the displays of o_i and o_il);
* **explain()**: ``symrow.explain(r"\\operatorname{softmax}(QK^T/\\sqrt{d})V",
  shapes, scale="number")``, reading the formula, planning it and building
  every step, then the LaTeX of the same expansion;
* **naive**: build O as a SymPy matrix and ``sympy.latex(O)``, as in
  ``bench_attention.py`` (a child process, capped at ``--naive-cap``).

The target: explain within 1.25x of attention().  Both produce the same
``.result``, which the benchmark checks.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
from pathlib import Path

SIZES = (8, 16)
TARGET = 1.25
FORMULA = r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V"

_spec = importlib.util.spec_from_file_location(
    "bench_attention", Path(__file__).with_name("bench_attention.py"))
bench_attention = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_attention)


def run(n: int, repeat: int) -> dict:
    import symrow
    from symrow.render.layout import display_lines

    def expansion(d):
        displays = [s.display for s in d.steps if s.kind in ("expand_rows", "expand_entries")]
        return " \\\\\n".join(line for node in displays for line in display_lines(node))

    shapes = {"Q": (n, n), "K": (n, n), "V": (n, n)}
    preset = bench_attention.best(
        lambda: expansion(symrow.attention(n, n, n, scale="number")), repeat)
    explained = bench_attention.best(
        lambda: expansion(symrow.explain(FORMULA, shapes, scale="number")), repeat)
    same = (symrow.explain(FORMULA, shapes, scale="number").result
            == symrow.attention(n, n, n, scale="number").result)
    return {"attention_s": preset[0], "explain_s": explained[0], "chars": len(explained[1]),
            "same_text": preset[1] == explained[1], "same_result": same}


def _secs(s: float) -> str:
    return bench_attention._secs(s)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="m = n = d values (default: 8,16)")
    ap.add_argument("--naive-cap", type=float,
                    default=float(os.environ.get("SYMROW_BENCH_NAIVE_CAP", 600)),
                    help="seconds the naive sympy.latex(O) may take (default 600)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per size; the best counts")
    args = ap.parse_args(argv)
    import sympy
    print(f"symrow explain benchmark: Python {platform.python_version()}, SymPy "
          f"{sympy.__version__}, {os.cpu_count()} CPUs")
    print("timed (best of several runs): build + the LaTeX of the full expansion; "
          "naive = build O + sympy.latex(O)\n")
    print("| m=n=d | naive | attention() | explain() | explain / attention | chars "
          "| same LaTeX | same result |")
    print("|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for n in (int(s) for s in args.sizes.split(",")):
        s = run(n, args.repeat if n <= 8 else max(1, args.repeat // 2))
        naive = bench_attention.run_naive(n, args.naive_cap, 1)
        if "latex_s" in naive:
            naive_txt = _secs(naive["build_s"] + naive["latex_s"])
        else:
            naive_txt = f"> {_secs(args.naive_cap)} (capped)"
        ratio = s["explain_s"] / s["attention_s"]
        worst = max(worst, ratio)
        print(f"| {n} | {naive_txt} | {_secs(s['attention_s'])} | {_secs(s['explain_s'])} | "
              f"{ratio:.2f}x | {s['chars']:,} | {'yes' if s['same_text'] else 'NO'} | "
              f"{'yes' if s['same_result'] else 'NO'} |", flush=True)
    print(f"\nexplain within {TARGET:g}x of attention(): worst {worst:.2f}x -> "
          f"{'met' if worst <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
