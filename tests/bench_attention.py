"""Benchmark: the full attention expansion in LaTeX, symrow against naive SymPy.

Run it with ``make bench`` or ``.venv/bin/python tests/bench_attention.py``.
It is a benchmark, not a test: nothing here fails the test suite.

For m = n = d = 2, 4, 8, 16 it times, on this machine:

* **naive**: the pipeline a user writes by hand in SymPy (see the notes on
  the baseline): build ``O = softmax(QK^T/sqrt(d)) V`` as a SymPy matrix,
  then ``sympy.latex(O)``.  It runs in a child process, capped at
  ``--naive-cap`` seconds (a capped run is reported as "> cap").
* **symrow expansion**: ``symrow.attention(n, n, n, scale="number")`` (the
  whole derivation, all steps), then the LaTeX of its full expansion: the
  displays of ``o_i`` and ``o_il`` with everything substituted, laid out
  as the documents lay them out (``display_lines``).  This produces what the
  naive pipeline produces, so its time is the one compared.
* **symrow document**: ``symrow.attention(n, n, n, scale="number").to_latex()``,
  the whole narrated derivation.

``scale="number"`` makes symrow divide by the number sqrt(n), as the naive
pipeline does, so that the two results can be compared: in the child, the
naive O and symrow's ``.result`` must be the same SymPy expression.

symrow's times are the best of several runs (``--repeat``, fewer for the
large sizes).  Per character is symrow's time divided by the characters it
wrote; "marginal" is the extra time per extra character from the previous
size, which shows linear growth without the fixed cost of a call.

To show where the time per character goes, the expansion is also timed with
every equation's terms removed (the same displays, each sum running over no
keys): that is the fixed set-up of the calls and the equations (dispatch,
the tokens of the queries, keys and weights).  "terms ns/char" is the rest,
the time spent writing and laying out the terms, per character.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

SIZES = (2, 4, 8, 16)
TARGET_RATIO = 50.0      # symrow at least this many times faster at 8 and 16
TARGET_FLAT = 2.0        # time per character within this factor from 2 to 16


# -- the naive pipeline (runs in a child process) -------------------------------------

def naive_child(n: int, repeat: int) -> None:
    """Build and print O the naive way; report JSON lines on stdout as it goes."""
    import sympy

    import symrow

    def emit(**record):
        print(json.dumps(record), flush=True)

    m = d = n
    Q = sympy.Matrix(m, d, lambda i, j: sympy.Symbol("q_{%d%d}" % (i + 1, j + 1)
                                                     if max(i, j) < 9 else
                                                     "q_{%d,%d}" % (i + 1, j + 1)))
    K = sympy.Matrix(n, d, lambda i, j: sympy.Symbol("k_{%d%d}" % (i + 1, j + 1)
                                                     if max(i, j) < 9 else
                                                     "k_{%d,%d}" % (i + 1, j + 1)))
    V = sympy.Matrix(n, d, lambda i, j: sympy.Symbol("v_{%d%d}" % (i + 1, j + 1)
                                                     if max(i, j) < 9 else
                                                     "v_{%d,%d}" % (i + 1, j + 1)))

    def build():
        S = Q * K.T / sympy.sqrt(d)
        E = S.applyfunc(sympy.exp)
        P = sympy.Matrix(m, n, lambda i, j: E[i, j] / sum(E[i, k] for k in range(n)))
        return P * V

    t0 = time.perf_counter()
    O = build()
    build_s = time.perf_counter() - t0

    # the same expression?  (not timed; before printing, so a cap cannot hide it)
    t0 = time.perf_counter()
    ours = symrow.attention(n, n, n, scale="number").result
    equal = ours == O
    emit(equal=bool(equal), check_s=time.perf_counter() - t0)

    emit(start=True)
    t0 = time.perf_counter()
    tex = sympy.latex(O)
    latex_s = time.perf_counter() - t0
    for _ in range(repeat - 1):  # small sizes: best of several, like symrow
        t0 = time.perf_counter()
        O2 = build()
        b = time.perf_counter() - t0
        t0 = time.perf_counter()
        sympy.latex(O2)
        latex_s = min(latex_s, time.perf_counter() - t0)
        build_s = min(build_s, b)
    emit(build_s=build_s, latex_s=latex_s, chars=len(tex))


def run_naive(n: int, cap: float, repeat: int) -> dict:
    """The child's report; ``capped`` when printing took longer than ``cap``."""
    import queue
    import threading

    proc = subprocess.Popen([sys.executable, __file__, "--child", str(n), "--repeat",
                             str(repeat)], stdout=subprocess.PIPE, text=True)
    # a thread reads the child's lines as they come (a selector on the pipe would
    # miss lines already read into the file's buffer, and wait past the cap)
    lines: queue.Queue = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    out: dict = {}
    deadline = None
    try:
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                out["capped"] = True
                break
            if line is None:
                break
            record = json.loads(line)
            out.update(record)
            if record.get("start"):
                deadline = time.monotonic() + cap
    finally:
        if proc.poll() is None:
            proc.kill()  # only our own child
        proc.wait()
    return out


# -- symrow ------------------------------------------------------------------------------

def best(fn, repeat: int, sample: float = 0.01):
    """(best time of one call, its result): the fastest of ``repeat`` samples.

    As in :mod:`timeit`, a call much shorter than ``sample`` seconds is timed
    in a loop of calls long enough to last about that long, so that the
    clock's resolution and the odd interruption do not dominate it.
    """
    t0 = time.perf_counter()
    result = fn()
    once = time.perf_counter() - t0
    number = max(1, int(sample / max(once, 1e-9)))
    times = [once]
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            result = fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times), result


def run_symrow(n: int, repeat: int) -> dict:
    import symrow
    from symrow import nodes as N
    from symrow.render.layout import display_lines

    kinds = ("expand_rows", "expand_entries")

    def build():
        return symrow.attention(n, n, n, scale="number")

    def expansion(displays):
        return " \\\\\n".join(line for node in displays for line in display_lines(node))

    build_s, d = best(build, repeat)
    # finding the two displays among the steps is not rendering: done before timing
    displays = [s.display for s in d.steps if s.kind in kinds]
    latex_s, tex = best(lambda: expansion(displays), repeat)
    # the same equations with no terms: what a call costs before it writes any
    bare = [N.SoftmaxExpansion([(lhs, query, 0, weights) for lhs, query, _, weights
                                in node.eqs], node.keys, node.scale) for node in displays]
    setup_s, _ = best(lambda: expansion(bare), repeat)
    doc_s, doc = best(lambda: build().to_latex(), max(1, repeat // 2))
    return {"build_s": build_s, "latex_s": latex_s, "chars": len(tex), "doc_s": doc_s,
            "doc_chars": len(doc), "setup_s": setup_s}


# -- the table ---------------------------------------------------------------------------

def _secs(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    return f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="m = n = d values (default: 2,4,8,16)")
    ap.add_argument("--naive-cap", type=float,
                    default=float(os.environ.get("SYMROW_BENCH_NAIVE_CAP", 600)),
                    help="seconds the naive sympy.latex(O) may take before it is stopped "
                         "(default 600, or $SYMROW_BENCH_NAIVE_CAP)")
    ap.add_argument("--repeat", type=int, default=30,
                    help="runs per size for the small sizes; the best counts (default 30)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        naive_child(args.child, args.repeat)
        return 0

    sizes = [int(s) for s in args.sizes.split(",")]
    import sympy
    print(f"symrow attention benchmark: Python {platform.python_version()}, SymPy "
          f"{sympy.__version__}, {os.cpu_count()} CPUs, naive capped at {args.naive_cap:g} s")
    print("timed (best of several runs for symrow): naive = build O + sympy.latex(O); "
          "symrow build = attention(n, n, n, scale='number'), every step; symrow expansion "
          "LaTeX = the displays of o_i and o_il with everything substituted, laid out as in "
          "the documents; symrow document = attention(n, n, n, scale='number').to_latex(). "
          "ns/char = expansion LaTeX time / its characters; set-up = the same expansion "
          "with every equation's terms removed; terms ns/char = (expansion - set-up) / "
          "characters.\n")

    rows, sym = [], {}
    for n in sizes:
        repeat = args.repeat if n <= 4 else (5 if n <= 8 else 3)
        sym[n] = run_symrow(n, repeat)
        naive = run_naive(n, args.naive_cap, repeat if n <= 4 else 1)
        rows.append((n, sym[n], naive))
        print(f"  size {n}: done", file=sys.stderr, flush=True)

    header = ("| m=n=d | naive: build + latex | symrow: build + expansion LaTeX | ratio "
              "| chars | LaTeX ns/char | marginal ns/char | set-up | terms ns/char "
              "| symrow document | doc ratio | equal |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    per_char, terms_per_char, ratios, prev = {}, {}, {}, None
    for n, s, naive in rows:
        ours = s["build_s"] + s["latex_s"]
        per_char[n] = s["latex_s"] / s["chars"]
        terms_per_char[n] = (s["latex_s"] - s["setup_s"]) / s["chars"]
        marginal = "" if prev is None else (
            f"{(s['latex_s'] - prev[0]) / (s['chars'] - prev[1]) * 1e9:.1f}")
        prev = (s["latex_s"], s["chars"])
        if "latex_s" in naive:
            total = naive["build_s"] + naive["latex_s"]
            naive_txt = (f"{_secs(naive['build_s'])} + {_secs(naive['latex_s'])} "
                         f"= {_secs(total)}")
            ratios[n] = total / ours
            ratio = f"{ratios[n]:.0f}x"
            doc_ratio = f"{total / s['doc_s']:.0f}x"
        else:
            floor = naive.get("build_s", 0) + args.naive_cap
            naive_txt = f"> {_secs(args.naive_cap)} (capped)"
            ratios[n] = floor / ours
            ratio = f"> {ratios[n]:.0f}x"
            doc_ratio = f"> {floor / s['doc_s']:.0f}x"
        equal = {True: "yes", False: "NO"}.get(naive.get("equal"), "?")
        print(f"| {n} | {naive_txt} | {_secs(s['build_s'])} + {_secs(s['latex_s'])} | "
              f"{ratio} | {s['chars']:,} | {per_char[n] * 1e9:.1f} | {marginal} | "
              f"{_secs(s['setup_s'])} | {terms_per_char[n] * 1e9:.1f} | "
              f"{_secs(s['doc_s'])} ({s['doc_chars']:,} chars) | {doc_ratio} | {equal} |")

    print()
    flat = max(per_char.values()) / min(per_char.values())
    print(f"expansion LaTeX, time per character, largest over smallest: {flat:.2f}x "
          f"(target: within {TARGET_FLAT:g}x) -> {'met' if flat <= TARGET_FLAT else 'NOT met'}")
    if len(per_char) > 1:
        inner = [v for n, v in per_char.items() if n != min(per_char)]
        flat_rest = max(inner) / min(inner)
        print(f"  without the smallest size: {flat_rest:.2f}x")
        terms_flat = max(terms_per_char.values()) / min(terms_per_char.values())
        print(f"  writing the terms only (without the set-up): {terms_flat:.2f}x")
    for n in (8, 16):
        if n in ratios:
            ok = ratios[n] >= TARGET_RATIO
            print(f"speed-up at {n}: {ratios[n]:.0f}x (target: at least {TARGET_RATIO:g}x) -> "
                  f"{'met' if ok else 'NOT met'}")
    if any(naive.get("equal") is not True for _, _, naive in rows):
        print("WARNING: symrow's result and the naive O differ for some size")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
