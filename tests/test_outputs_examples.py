"""The example scripts in examples/ run as a newcomer would run them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import harness

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_products_example(tmp_path):
    proc = run_example("products.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Y = XW = [[1, 2, 3], [3, 1, 4], [0, 2, 2]]" in proc.stdout
    assert list(tmp_path.iterdir()) == []  # it writes nothing


def test_any_formula_example(tmp_path):
    proc = run_example("any_formula.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "graph convolution: [('combine', '\\\\hat{A}', 'X'), ('combine', 'H', 'W')]" \
        in proc.stdout
    assert "self-attention: ['combine', 'combine', 'combine', 'match', 'combine']" in proc.stdout
    assert "AB = [[2, 1], [4, 3]]" in proc.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.renderer
@pytest.mark.slow
def test_handout_example_writes_both_languages(tmp_path):
    harness.require_tex("lualatex")
    harness.require_tex("pdflatex")
    proc = run_example("handout.py", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["handout_en.md", "handout_en.pdf", "handout_ja.md", "handout_ja.pdf"]


@pytest.mark.renderer
@pytest.mark.slow
def test_lecture_notes_example(tmp_path):
    harness.require_tex("lualatex")
    harness.require_tex("pdflatex")
    proc = run_example("lecture_notes.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"attention_{lang}.{ext}" for lang in ("en", "ja") for ext in ("md", "tex", "pdf"))
    assert (out / "attention_ja.pdf").read_bytes().startswith(b"%PDF")
