"""The attention benchmark still runs: a smoke test, not a timing.

``make bench`` is not part of the suite (it takes minutes), so this runs the
same script at tiny sizes and checks what it reports, not how fast it is.
"""

import subprocess
import sys
from pathlib import Path

import pytest

#: each runs a benchmark script in a process of its own (about 5 s)
pytestmark = pytest.mark.slow

BENCH = Path(__file__).with_name("bench_attention.py")


def run_bench(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def table_rows(out: str) -> dict[int, list[str]]:
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            rows[int(cells[0])] = cells
    return rows


def test_bench_prints_its_table_and_verdicts():
    out = run_bench("--sizes", "1,2", "--repeat", "2")
    rows = table_rows(out)
    assert sorted(rows) == [1, 2]
    for cells in rows.values():
        assert cells[-1] == "yes"  # symrow's O equals the naive one
        assert "capped" not in cells[1]
    assert "time per character, largest over smallest" in out
    assert "writing the terms only" in out


def test_naive_pipeline_is_stopped_at_the_cap():
    # the naive sympy.latex(O) at m=n=d=4 takes about 0.1 s: far over 10 ms
    out = run_bench("--sizes", "4", "--repeat", "1", "--naive-cap", "0.01")
    cells = table_rows(out)[4]
    assert "(capped)" in cells[1]
    assert cells[3].startswith(">")  # a lower bound on the speed-up
    assert cells[-1] == "yes"  # the equality check runs before the capped part


def test_explain_bench_compares_with_attention_and_checks_the_result():
    proc = subprocess.run([sys.executable, str(BENCH.with_name("bench_explain.py")),
                           "--sizes", "2", "--repeat", "1", "--naive-cap", "5"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cells = table_rows(proc.stdout)[2]
    assert cells[-2:] == ["yes", "yes"]  # the same LaTeX and the same result
    assert cells[4].endswith("x")
    assert "explain within 1.25x of attention()" in proc.stdout
