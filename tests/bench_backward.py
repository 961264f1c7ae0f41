"""Benchmark: backward() of attention against explain() of it, and against SymPy.

Run it with ``make bench`` or ``.venv/bin/python tests/bench_backward.py``.
It is a benchmark, not a test: nothing here fails the test suite.

For m = n = d (8 by default, ``--sizes 4 8``) it times, side by side:

* **explain()**: ``symrow.explain(attention, shapes)`` and its whole LaTeX
  (``.to_latex()``);
* **backward()**: ``symrow.backward(attention, shapes)`` and its whole LaTeX;
  the target is within 3x of explain();
* **backward().gradients**: the gradients as SymPy matrices in the entries of
  Q, K, V and the upstream gradient (the forward values substituted);
* **naive SymPy**: what one writes by hand: build O as a SymPy matrix, form
  the loss L = sum(O ∘ Ḡ), and ``sympy.diff`` it by every entry of Q, K and
  V (a child process, capped at ``--naive-cap`` seconds).

Both sides' gradients are compared at a random point, so the figures are of
the same result.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

FORMULA = r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V"
TARGET = 3.0

_spec = importlib.util.spec_from_file_location(
    "bench_attention", Path(__file__).with_name("bench_attention.py"))
bench_attention = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_attention)

_NAIVE = r"""
import json, sys, time
import sympy
n = int(sys.argv[1])
t0 = time.perf_counter()
sym = lambda c, i, j: sympy.Symbol(f"{c}_{i}{j}")
Q, K, V, G = (sympy.Matrix(n, n, lambda i, j, c=c: sym(c, i, j)) for c in "qkvg")
d = sympy.sqrt(n)
S = Q * K.T / d
E = S.applyfunc(sympy.exp)
P = sympy.Matrix(n, n, lambda i, j: E[i, j] / sum(E[i, k] for k in range(n)))
O = P * V
L = sum(O[i, j] * G[i, j] for i in range(n) for j in range(n))
grads = {c: sympy.Matrix(n, n, lambda i, j, c=c: sympy.diff(L, sym(c, i, j))) for c in "qkv"}
elapsed = time.perf_counter() - t0
import random
rng = random.Random(3)
point = {s: rng.uniform(-1, 1) for s in L.free_symbols}
values = {c: [[float(grads[c][i, j].evalf(subs=point)) for j in range(n)] for i in range(n)]
          for c in "qkv"}
print(json.dumps({"seconds": elapsed, "point": {str(k): v for k, v in point.items()},
                  "values": values}))
"""


def naive(n: int, cap: float) -> dict | None:
    try:
        proc = subprocess.run([sys.executable, "-c", _NAIVE, str(n)], capture_output=True,
                              text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(proc.stdout)


def run(n: int, repeat: int) -> dict:
    import symrow
    shapes = {"Q": (n, n), "K": (n, n), "V": (n, n)}
    explained = bench_attention.best(lambda: symrow.explain(FORMULA, shapes).to_latex(), repeat)
    backward = bench_attention.best(lambda: symrow.backward(FORMULA, shapes).to_latex(), repeat)
    d = symrow.backward(FORMULA, shapes)
    t0 = time.perf_counter()
    grads = d.gradients
    gradients_s = time.perf_counter() - t0
    return {"explain_s": explained[0], "backward_s": backward[0], "gradients_s": gradients_s,
            "chars": len(backward[1]), "derivation": d, "gradients": grads}


def agree(d, grads, naive_out, n: int) -> bool:
    """symrow's gradients at the naive run's random point equal SymPy's."""
    import sympy
    point = naive_out["point"]
    subs = {}
    for letter, name in (("q", "Q"), ("k", "K"), ("v", "V")):
        seq = d.operands[name]
        for i in range(n):
            for j in range(n):
                subs[seq.matrix[i, j]] = point.get(f"{letter}_{i}{j}", 0.0)
    up = d.upstream
    for i in range(n):
        for j in range(n):
            subs[up[i, j]] = point.get(f"g_{i}{j}", 0.0)
    for sym, value in d.forward.plan.ties.items():
        subs[sym] = value
    for letter, name in (("q", "Q"), ("k", "K"), ("v", "V")):
        got = sympy.Matrix(grads[name]).xreplace(subs).evalf()
        want = naive_out["values"][letter]
        if any(abs(float(got[i, j]) - want[i][j]) > 1e-8 for i in range(n) for j in range(n)):
            return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive-cap", type=float, default=600.0)
    args = parser.parse_args(argv)
    print(f"backward() of attention; Python {platform.python_version()}, "
          f"{platform.machine()}; best of {args.repeat}")
    print("| m=n=d | explain() + LaTeX | backward() + LaTeX | backward / explain | "
          ".gradients | naive SymPy: build L + diff | naive / (backward + gradients) |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        r = run(n, args.repeat)
        out = naive(n, args.naive_cap)
        ratio = r["backward_s"] / r["explain_s"]
        ours = r["backward_s"] + r["gradients_s"]
        if out is None:
            naive_cell, speed = f"> {args.naive_cap:.0f} s (stopped)", f"> {args.naive_cap / ours:.0f}x"
        else:
            naive_cell = bench_attention._secs(out["seconds"])
            speed = f"{out['seconds'] / ours:.0f}x"
            if not agree(r["derivation"], r["gradients"], out, n):
                print(f"  ! the gradients differ from SymPy's at size {n}")
        print(f"| {n} | {bench_attention._secs(r['explain_s'])} | "
              f"{bench_attention._secs(r['backward_s'])} | {ratio:.2f}x "
              f"({'within' if ratio <= TARGET else 'over'} {TARGET:.0f}x) | "
              f"{bench_attention._secs(r['gradients_s'])} | {naive_cell} | {speed} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
