"""Benchmark: how long a picture takes, from a derivation to its SVG and its TikZ.

Run it with ``make bench`` or ``.venv/bin/python tests/bench_figures.py``.
It is a benchmark, not a test: nothing here fails the test suite.

For each case it times (in CPU time of this process, which other programs on the
machine disturb less than the wall clock), best of ``--repeat`` runs, each from a
fresh derivation (so that nothing is cached):

* **numbers**: the plan evaluated with the figure's numbers (symrow's readings,
  exact, then floats);
* **SVG**: the figure for a web page: its draft, its layout (sizes, ticks, the
  placing of every label) and the SVG text;
* **TikZ**: the same for a page, and the slides' overlays;
* **all**: ``symrow.figure(d).to_svg()`` and ``.to_tikz()`` and the slides, from the
  derivation: what ``symrow figure`` costs after the derivation is built.

The target: a figure well under a second (at most 0.5 s, every case).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

TARGET = 0.5


def cases():
    import symrow
    return {
        "attention 3x3x2 (overview)": lambda: (symrow.attention(3, 3, 2), None),
        "attention 3x3x2 causal": lambda: (symrow.attention(3, 3, 2, causal=True), None),
        "attention 6x6x2": lambda: (symrow.attention(6, 6, 2), None),
        "combine 3x2 . 2x2": lambda: (symrow.combine(symrow.vecseq("A", 3, 2),
                                                     symrow.vecseq("B", 2, 2)), None),
        "match 3x2 . 2x2": lambda: (symrow.match(symrow.vecseq("A", 3, 2),
                                                 symrow.vecseq("B", 2, 2)), None),
        "gcn 4 nodes (H = ÂX)": lambda: (symrow.explain(
            r"\hat{A} X W", {r"\hat{A}": (4, 4), "X": (4, 2), "W": (2, 2)}), "H"),
    }


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def run(make, of, repeat: int) -> dict:
    import symrow
    from symrow.figures.make import case_of

    def numbers():
        d, _ = make()
        t = time.process_time()
        case_of(d)
        return time.process_time() - t

    def part(fn):
        d, _ = make()
        fig = symrow.figure(d, of)
        t = time.process_time()
        fn(fig)
        return time.process_time() - t

    def whole():
        d, _ = make()
        t = time.process_time()
        fig = symrow.figure(d, of)
        fig.to_svg()
        fig.to_tikz()
        fig.to_tikz(slides=True)
        return time.process_time() - t

    return {"numbers": min(numbers() for _ in range(repeat)),
            "svg": min(part(lambda f: f.to_svg()) for _ in range(repeat)),
            "tikz": min(part(lambda f: (f.to_tikz(), f.to_tikz(slides=True)))
                        for _ in range(repeat)),
            "all": min(whole() for _ in range(repeat))}


def _ms(s: float) -> str:
    return f"{s * 1000:.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    import symrow  # noqa: F401  (imported once, outside the timings)
    print(f"Python {platform.python_version()}, {platform.machine()}; best of {args.repeat}")
    print()
    print("| case | numbers | SVG (web) | TikZ (page + slides) | all: figure + SVG + TikZ |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for name, make in cases().items():
        _d, of = make()
        r = run(make, of, args.repeat)
        worst = max(worst, r["all"])
        print(f"| {name} | {_ms(r['numbers'])} | {_ms(r['svg'])} | {_ms(r['tikz'])} | "
              f"{_ms(r['all'])} |")
    print()
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"slowest figure: {_ms(worst)}; target {TARGET * 1000:.0f} ms: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
