r"""Exercises for a class (symrow/exercises): variants, keys, exports and grading.

The submissions below are written by hand, as students write on paper (the
numbers worked out from the variants of seed 7 and the roster s001, s002,
s003, which the first test pins), in Markdown and in a Jupyter notebook.
Every engine value is checked against numpy.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import sympy

import harness
import symrow.exercises as X
from check_cases.published import notebook
from symrow.exercises import catalogue, documents, export, variants
from symrow.exercises.compute import mutations
from symrow.errors import OptionError
from symrow.exercises.spec import preset

ROSTER = "id,name\ns001,Ann\ns002,Bob\ns003,Chie\n"


@pytest.fixture(scope="module")
def attention():
    return X.exercise("attention", m=2, n=3, d=2, students=["s001", "s002", "s003"], seed=7)


def _np(m) -> np.ndarray:
    return np.array(sympy.Matrix(m).evalf(30).tolist(), dtype=float)


def _softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_the_variants_are_pinned_by_seed_and_roster(attention):
    values = {v.student: {k: m.tolist() for k, m in v.values.items()} for v in attention.variants}
    assert values["s001"] == {"Q": [[0, 1], [1, -1]], "K": [[-1, 2], [0, -1], [2, 0]],
                              "V": [[1, 3], [-2, 1], [2, -1]]}
    assert values["s002"]["Q"] == [[2, 1], [0, 1]]
    # a student keeps the numbers when the roster grows
    more = X.exercise("attention", m=2, n=3, d=2, students=["s001", "zz9", "s002"], seed=7)
    assert more.variant_of("s002").values == attention.variant_of("s002").values
    assert X.exercise("attention", m=2, n=3, d=2, students=["s001"], seed=8) \
        .variant_of("s001").values != attention.variant_of("s001").values


def test_the_engine_agrees_with_numpy(attention):
    spec = attention.spec
    for v in attention.variants:
        t = v.truth(spec)
        Q, K, V = (_np(v.values[k]) for k in "QKV")
        S = Q @ K.T
        P = _softmax(S / np.sqrt(2))
        assert np.allclose(_np(t["S"]), S) and np.allclose(_np(t["P"]), P)
        assert np.allclose(_np(t["O"]), P @ V)
    lin = X.exercise("linear-backward", students=["a", "b"], seed=3)
    for v in lin.variants:
        t = v.truth(lin.spec)
        Xv, W, G = _np(v.values["X"]), _np(v.values["W"]), _np(v.values[r"\bar{Y}"])
        assert np.allclose(_np(t[r"\bar{W}"]), Xv.T @ G)
        assert np.allclose(_np(t[r"\bar{b}"]), G.sum(axis=0, keepdims=True))
        assert np.allclose(_np(t[r"\bar{X}"]), G @ W.T)


def test_the_mlp_gradients_agree_with_finite_differences():
    ex = X.exercise("mlp-backward", students=["a"], seed=5)
    v = ex.variants[0]
    t = v.truth(ex.spec)
    Xv, W1, b1, W2, G = (_np(v.values[k]) for k in ("X", "W_1", "b_1", "W_2", r"\bar{Y}"))

    def loss(W1_, b1_):
        return float((np.maximum(Xv @ W1_ + b1_, 0) @ W2 * G).sum())
    h = 1e-6
    num = np.zeros_like(W1)
    for i in range(W1.shape[0]):
        for j in range(W1.shape[1]):
            e = np.zeros_like(W1)
            e[i, j] = h
            num[i, j] = (loss(W1 + e, b1) - loss(W1 - e, b1)) / (2 * h)
    assert np.allclose(_np(t[r"\bar{W}_1"]), num, atol=1e-5)
    numb = np.array([[(loss(W1, b1 + h * np.eye(1, b1.shape[1], j)) -
                       loss(W1, b1 - h * np.eye(1, b1.shape[1], j))) / (2 * h)
                      for j in range(b1.shape[1])]])
    assert np.allclose(_np(t[r"\bar{b}_1"]), numb, atol=1e-5)


@pytest.mark.parametrize("name, options", [
    ("attention", {"m": 2, "n": 3, "d": 2}), ("attention", {"m": 3, "n": 3, "d": 2,
                                                            "causal": True}),
    ("combine", {}), ("match", {}), ("linear-backward", {}), ("mlp-backward", {}),
])
def test_every_variant_has_the_human_properties(name, options):
    cat = catalogue.load()
    spec = preset(name, **options)
    vs = variants.make(spec, [f"s{k}" for k in range(6)], 11, cat)
    assert len({v.key() for v in vs}) == len(vs)              # no two alike
    for v in vs:
        assert variants.problems(spec, v.values, cat) == []
        t = v.truth(spec)
        for step in spec.steps:
            if not step.softmax:
                assert all(x.is_Integer and abs(x) <= spec.bound for x in t[step.name])
            # every mistake that applies is visible: its numbers differ from the right ones
            for c in mutations(spec, step, cat, t):
                got = c.value(t, spec.shapes, spec.causal)
                if got is not None and got.shape == t[step.name].shape:
                    assert not np.allclose(_np(got), _np(t[step.name])), (c.code, step.name)
        if "S" in t and name == "attention":
            for i in range(t["S"].rows):
                row = [t["S"][i, j] for j in range(t["S"].cols)
                       if "M" not in t or t["M"][i, j] == 0]
                assert len(set(row)) == len(row) and max(abs(x) for x in row) <= 3


def test_a_draw_with_a_tie_or_a_zero_row_is_refused():
    spec = preset("attention", m=2, n=3, d=2)
    tie = {"Q": sympy.Matrix([[1, 0], [0, 1]]), "K": sympy.Matrix([[1, 1], [1, 2], [0, 1]]),
           "V": sympy.Matrix([[1, 2], [3, 0], [0, 1]])}
    assert any(p.startswith("ties") for p in variants.problems(spec, tie))
    zero = dict(tie, Q=sympy.Matrix([[0, 0], [1, 2]]))
    assert variants.problems(spec, zero)[0].startswith("zero-row")


def test_the_catalogue_is_validated(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[mistake]]\ncode = "x"\nscore = 2\nen = "a"\nja = "b"\n'
                   'pattern = "A"\nreplace = "A"\n', encoding="utf-8")
    with pytest.raises(OptionError, match="code must be"):
        catalogue.load([bad])
    bad.write_text('[[mistake]]\ncode = "X-1"\nscore = 0.5\nen = "a"\nja = "b"\n'
                   "pattern = 'A B'\nreplace = 'A C'\nvariables = [\"A\", \"B\", \"C\"]\n",
                   encoding="utf-8")
    with pytest.raises(Exception, match="does not bind"):
        catalogue.load([bad])
    assert len(catalogue.load()) >= 12


# -- the keys, and the files ---------------------------------------------------------------

def test_every_key_holds_against_its_own_variant(attention):
    import symrow
    for v in attention.variants:
        for lang in ("en", "ja"):
            report = symrow.check(documents.key(attention.spec, v, lang),
                                  against=documents.worked_derivation(attention.spec, v))
            assert report.verdict == "holds", report.to_text()


def test_the_command_writes_and_grades_a_class(tmp_path):
    (tmp_path / "class.csv").write_text(ROSTER, encoding="utf-8")
    proc = harness.symrow_cli("exercise", "attention", "--m", "2", "--n", "3", "--d", "2",
                              "--roster", "class.csv", "--seed", "7", "-o", "ex/",
                              "--formats", "md", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ex = tmp_path / "ex"
    for sid in ("s001", "s002", "s003"):
        for kind in ("sheet", "solution", "key"):
            for lang in ("en", "ja"):
                assert (ex / sid / f"{kind}-{lang}.md").stat().st_size > 0
    assert (ex / "moodle-en.xml").exists() and (ex / "moodle-ja.xml").exists()
    keys = tmp_path / "keys"
    keys.mkdir()
    for sid in ("s001", "s002", "s003"):
        (keys / f"{sid}.md").write_text((ex / sid / "key-ja.md").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    proc = harness.symrow_cli("check", "keys/", "--exercise", "ex/", "--summary", "c.csv",
                              "--plot", "m.svg", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "c.csv").read_text().count("holds") == 3
    assert "<svg" in (tmp_path / "m.svg").read_text()
    bad = harness.symrow_cli("check", "keys/", "--exercise", "ex/", "--m", "3", cwd=tmp_path)
    assert bad.returncode == 2 and "do not apply" in bad.stderr
    bad = harness.symrow_cli("exercise", "combine", "--m", "3", "--count", "2", "-o", "x/",
                             cwd=tmp_path)
    assert bad.returncode == 2 and "do not apply" in bad.stderr


# Each preset's exercise, as the command writes it, and the plain `symrow check` a lecturer
# (or a student with the key) would run on one key: the preset's own flags, or the formula
# with the shapes of its operands; nothing the exercise's folder tells.
_PLAIN_CHECKS = [
    pytest.param(["combine", "--a", "2x3", "--b", "3x2"],
                 ["--against", "combine", "--a", "2x3", "--b", "3x2"], id="combine"),
    pytest.param(["match", "--a", "2x2", "--b", "3x2"],
                 ["--against", "match", "--a", "2x2", "--b", "3x2"], id="match"),
    pytest.param(["attention", "--m", "2", "--n", "3", "--d", "2"],
                 ["--against", "attention", "--m", "2", "--n", "3", "--d", "2"], id="attention"),
    pytest.param(["attention", "--causal", "--m", "3", "--n", "3", "--d", "2"],
                 ["--against", "attention", "--causal", "--m", "3", "--n", "3", "--d", "2"],
                 id="causal-attention"),
    pytest.param(["linear-backward", "--m", "2", "--n-in", "3", "--n-out", "2"],
                 ["--against", "Y = XW + b", "--backward", "--shape", "X=2x3", "--shape", "W=3x2"],
                 id="linear-backward"),
    pytest.param(["mlp-backward"],
                 ["--against", r"Z = XW_1 + b_1; H = \operatorname{ReLU}(Z); Y = HW_2",
                  "--backward", "--shape", "X=2x2", "--shape", "W_1=2x2", "--shape", "W_2=2x2"],
                 id="mlp-backward"),
    pytest.param(["attention-backward", "--m", "2", "--n", "2", "--d", "2"],
                 ["--against", "attention", "--backward", "--m", "2", "--n", "2", "--d", "2"],
                 id="attention-backward", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("make, plain", _PLAIN_CHECKS)
def test_every_key_holds_under_a_plain_check(make, plain, tmp_path):
    proc = harness.symrow_cli("exercise", *make, "--count", "2", "--seed", "7", "--formats", "md",
                              "-o", "ex", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # every student's key in English, and the first one's in Japanese too (the same
    # numbers under other headings)
    for key in ("ex/s01/key-en.md", "ex/s01/key-ja.md", "ex/s02/key-en.md"):
        out = harness.symrow_cli("check", key, *plain, cwd=tmp_path)
        # (a Japanese key gets its report in Japanese)
        assert out.returncode == 0 and ("verdict: holds" in out.stdout or
                                        "判定：成り立つ" in out.stdout), \
            (key, out.stdout, out.stderr)
        assert " wrong " not in out.stdout and "unreadable" not in out.stdout and \
            "誤り" not in out.stdout and "読めない" not in out.stdout, out.stdout


# -- grading submissions written by hand --------------------------------------------------

# s002: Q = [[2, 1], [0, 1]], K = [[1, 0], [0, 1], [-1, 2]], V = [[3, -1], [1, -2], [0, 2]]
ANN = r"""
Student: s002

Scores first, a match of the queries with the keys:
\begin{align*}
S &= QK^\top \\
  &= \begin{pmatrix} 2 & 1 & 0 \\ 0 & 1 & 2 \end{pmatrix}
\end{align*}
Scaled by $\sqrt 2$ and normalised row by row:
$$P = \begin{pmatrix}
\frac{e^{\sqrt2}}{e^{\sqrt2}+e^{1/\sqrt2}+1} & \frac{e^{1/\sqrt2}}{e^{\sqrt2}+e^{1/\sqrt2}+1} & \frac{1}{e^{\sqrt2}+e^{1/\sqrt2}+1} \\
\frac{1}{1+e^{1/\sqrt2}+e^{\sqrt2}} & \frac{e^{1/\sqrt2}}{1+e^{1/\sqrt2}+e^{\sqrt2}} & \frac{e^{\sqrt2}}{1+e^{1/\sqrt2}+e^{\sqrt2}}
\end{pmatrix}$$
$$O = PV = \begin{pmatrix}
\frac{3e^{\sqrt2}+e^{1/\sqrt2}}{e^{\sqrt2}+e^{1/\sqrt2}+1} & \frac{-e^{\sqrt2}-2e^{1/\sqrt2}+2}{e^{\sqrt2}+e^{1/\sqrt2}+1} \\
\frac{3+e^{1/\sqrt2}}{1+e^{1/\sqrt2}+e^{\sqrt2}} & \frac{-1-2e^{1/\sqrt2}+2e^{\sqrt2}}{1+e^{1/\sqrt2}+e^{\sqrt2}}
\end{pmatrix}$$
"""

# s001: Q = [[0, 1], [1, -1]], K = [[-1, 2], [0, -1], [2, 0]], V = [[1, 3], [-2, 1], [2, -1]];
# the softmax without the scale, and O worked out from that P (errors carried forward)
BOB_CELL = r"""
$S = QK^T = \begin{bmatrix} 2 & -1 & 0 \\ -3 & 1 & 2 \end{bmatrix}$

$P = \mathrm{softmax}(S) = \begin{bmatrix}
\frac{e^{2}}{e^{2}+e^{-1}+1} & \frac{e^{-1}}{e^{2}+e^{-1}+1} & \frac{1}{e^{2}+e^{-1}+1} \\
\frac{e^{-3}}{e^{-3}+e+e^{2}} & \frac{e}{e^{-3}+e+e^{2}} & \frac{e^{2}}{e^{-3}+e+e^{2}}
\end{bmatrix}$

$O = PV = \begin{bmatrix}
\frac{e^{2}-2e^{-1}+2}{e^{2}+e^{-1}+1} & \frac{3e^{2}+e^{-1}-1}{e^{2}+e^{-1}+1} \\
\frac{e^{-3}-2e+2e^{2}}{e^{-3}+e+e^{2}} & \frac{3e^{-3}+e-e^{2}}{e^{-3}+e+e^{2}}
\end{bmatrix}$
"""

# s003: Q = [[-1, 1], [-1, -1]], K = [[1, -1], [1, 0], [-1, 0]]: the softmax down the columns
CHIE = r"""
学籍番号: s003

$$S = QK^{T} = \begin{bmatrix} -2 & -1 & 1 \\ 0 & -1 & 1 \end{bmatrix}$$

$$P = \begin{bmatrix} \frac{e^{-\sqrt{2}}}{1+e^{-\sqrt{2}}} & \frac12 & \frac12 \\
\frac{1}{1+e^{-\sqrt{2}}} & \frac12 & \frac12 \end{bmatrix}$$
"""

# s001 hands in Ann's (s002's) right answers
DAN = ANN.replace("Student: s002", "Student: s001")

# s002 slips in one entry of S, then gets P right
FRANK = r"""
Student: s002

$$S = \begin{bmatrix} 2 & 1 & 0 \\ 0 & 1 & 3 \end{bmatrix}$$
"""


def test_a_class_of_hand_written_submissions_gets_its_codes_and_scores(attention, tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "ann.md").write_text(ANN, encoding="utf-8")
    (folder / "s001-bob.ipynb").write_text(
        notebook(("markdown", "# Attention, by hand"), ("markdown", BOB_CELL),
                 ("code", "print('checked')")), encoding="utf-8")
    (folder / "chie.md").write_text(CHIE, encoding="utf-8")
    (folder / "dan.md").write_text(DAN, encoding="utf-8")
    (folder / "frank.md").write_text(FRANK, encoding="utf-8")
    (folder / "nobody.md").write_text("$$S = QK^T$$", encoding="utf-8")
    summary = attention.grade([folder], jobs=1)
    got = {g.file: (g.student, g.verdict, g.score, g.codes,
                    [s.status for s in g.steps]) for g in summary.grades}
    assert got["ann.md"] == ("s002", "holds", 3.0, [], ["correct"] * 3)
    assert got["s001-bob.ipynb"] == ("s001", "wrong", 2.5, ["SCALE-MISSING"],
                                     ["correct", "mistake", "carried"])
    assert got["chie.md"] == ("s003", "wrong", 1.25, ["SOFTMAX-AXIS"],
                              ["correct", "mistake", "missing"])
    # a correct page, but for another student's variant: wrong, and nothing is carried
    assert got["dan.md"][:3] == ("s001", "wrong", 0.0)
    assert got["frank.md"][4] == ["slip", "missing", "missing"]
    assert got["nobody.md"][:2] == (None, "unreadable")
    assert summary.frequent()[:2] == [("SCALE-MISSING", 1, 1), ("SOFTMAX-AXIS", 1, 1)]
    table = summary.render("markdown")
    assert "| SCALE-MISSING | 1 | 1 |" in table and "mean score" in table
    data = json.loads(summary.render("json"))
    assert data["frequent_mistakes"][0]["code"] == "SCALE-MISSING"
    csv_text = summary.render("csv")
    assert csv_text.splitlines()[0] == "file,student,verdict,score,max_score,codes,steps,note"
    svg = summary.to_svg()
    ET.fromstring(svg)
    assert svg.count("<rect") == 2


# A second class, on the roster s001 to s005 (the same seed; s004 and s005 added):
# s004: Q = [[1, -1], [1, 1]], K = [[-1, 2], [2, 0], [-1, 0]], V = [[1, -2], [0, 1], [-2, 2]]
# s005: Q = [[-1, 2], [-1, 1]], K = [[-1, 1], [0, 1], [1, 1]], V = [[-2, 0], [2, -2], [3, -2]]
ROSTER5 = ["s001", "s002", "s003", "s004", "s005"]

# s005 types up the paper as a LaTeX document, the working of S shown entry by entry, the
# rows of the matrices spaced with \\[4pt]; divides S by d = 2, not by its root, then
# works O out correctly from that P
PAPER = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\noindent Eve Sato \hfill Student: s005 \\
Homework 3, attention by hand.

\paragraph{1.} The scores, each query against each key:
\[
S = QK^\top
  = \begin{pmatrix}
      (-1)(-1) + 2\cdot 1 & (-1)\cdot 0 + 2\cdot 1 & (-1)\cdot 1 + 2\cdot 1 \\
      (-1)(-1) + 1\cdot 1 & (-1)\cdot 0 + 1\cdot 1 & (-1)\cdot 1 + 1\cdot 1
    \end{pmatrix}
  = \begin{pmatrix} 3 & 2 & 1 \\ 2 & 1 & 0 \end{pmatrix}
\]

\paragraph{2.} Scale by $d = 2$, then the softmax of each row:
\[
P = \begin{pmatrix}
  \frac{e^{3/2}}{e^{3/2} + e + e^{1/2}} & \frac{e}{e^{3/2} + e + e^{1/2}} & \frac{e^{1/2}}{e^{3/2} + e + e^{1/2}} \\[4pt]
  \frac{e}{e + e^{1/2} + 1} & \frac{e^{1/2}}{e + e^{1/2} + 1} & \frac{1}{e + e^{1/2} + 1}
\end{pmatrix}
\]

\paragraph{3.} The output mixes the rows of $V$ with these weights:
\[
O = PV = \begin{pmatrix}
  \frac{-2e^{3/2} + 2e + 3e^{1/2}}{e^{3/2} + e + e^{1/2}} & \frac{-2e - 2e^{1/2}}{e^{3/2} + e + e^{1/2}} \\[4pt]
  \frac{-2e + 2e^{1/2} + 3}{e + e^{1/2} + 1} & \frac{-2e^{1/2} - 2}{e + e^{1/2} + 1}
\end{pmatrix}
\]
\end{document}
"""

# s003 (found from the file's name) writes plain text from the notes, formulas in \[ \]:
# S summed over the first coordinate only (q_i1 k_j1), then P and O right from that S
PLAIN = r"""Chie Tanaka, s003
Attention exercise (typed from my notes)

scores: every query with every key
\[
S = QK^T = \begin{pmatrix} -1 & -1 & 1 \\ -1 & -1 & 1 \end{pmatrix}
\]

weights, row by row, with the 1/\sqrt{2}:
\[
P = \mathrm{softmax}(S/\sqrt{2}) = \begin{pmatrix}
 \frac{e^{-1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{e^{-1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} \\
 \frac{e^{-1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{e^{-1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}}
\end{pmatrix}
\]

output:
\[
O = PV = \begin{pmatrix}
 \frac{-2e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{3e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} \\
 \frac{-2e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}} & \frac{3e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}}{2e^{-1/\sqrt{2}} + e^{1/\sqrt{2}}}
\end{pmatrix}
\]
"""

# s004 in Japanese Markdown: S and P right, O summed over the first two values only
DORA = r"""学籍番号: s004

アテンションの計算（手計算）

まずスコア:
$$S = QK^\top = \begin{bmatrix} -3 & 2 & -1 \\ 1 & 2 & -1 \end{bmatrix}$$

各行を $\sqrt{2}$ で割ってソフトマックス:
$$P = \begin{bmatrix}
\frac{1}{1+e^{\sqrt2}+e^{5/\sqrt2}} & \frac{e^{5/\sqrt2}}{1+e^{\sqrt2}+e^{5/\sqrt2}} & \frac{e^{\sqrt2}}{1+e^{\sqrt2}+e^{5/\sqrt2}} \\
\frac{e^{\sqrt2}}{1+e^{\sqrt2}+e^{3/\sqrt2}} & \frac{e^{3/\sqrt2}}{1+e^{\sqrt2}+e^{3/\sqrt2}} & \frac{1}{1+e^{\sqrt2}+e^{3/\sqrt2}}
\end{bmatrix}$$

重みでバリューを足し合わせる: $o_i = \sum_{j=1}^{2} p_{ij} v_j$
$$O = \begin{bmatrix}
\frac{1}{1+e^{\sqrt2}+e^{5/\sqrt2}} & \frac{e^{5/\sqrt2}-2}{1+e^{\sqrt2}+e^{5/\sqrt2}} \\
\frac{e^{\sqrt2}}{1+e^{\sqrt2}+e^{3/\sqrt2}} & \frac{e^{3/\sqrt2}-2e^{\sqrt2}}{1+e^{\sqrt2}+e^{3/\sqrt2}}
\end{bmatrix}$$
"""

# s002's notebook, named by the file, with s001's key: right numbers, the wrong variant
COPIED_CELL = BOB_CELL.replace(r"\mathrm{softmax}(S)", r"\mathrm{softmax}(S/\sqrt{2})")


def test_a_second_class_on_paper_in_markdown_and_jupyter(tmp_path):
    ex = X.exercise("attention", m=2, n=3, d=2, students=ROSTER5, seed=7)
    assert ex.variant_of("s004").values["Q"].tolist() == [[1, -1], [1, 1]]
    assert ex.variant_of("s005").values["V"].tolist() == [[-2, 0], [2, -2], [3, -2]]
    folder = tmp_path / "class"
    (folder / "paper").mkdir(parents=True)
    (folder / "paper" / "s005-paper.tex").write_text(PAPER, encoding="utf-8")
    (folder / "s003-plain.tex").write_text(PLAIN, encoding="utf-8")
    (folder / "dora.md").write_text(DORA, encoding="utf-8")
    key = documents.key(ex.spec, ex.variant_of("s001")).replace("Student: s001\n", "")
    (folder / "s002-homework.ipynb").write_text(
        notebook(("markdown", "## Attention"), ("markdown", key)), encoding="utf-8")
    (folder / "zed.md").write_text("Student: s099\n\n$$S = QK^T$$\n", encoding="utf-8")
    summary = ex.grade([folder], jobs=1)
    got = {g.file: (g.student, g.verdict, g.score, g.codes, [s.status for s in g.steps])
           for g in summary.grades}
    assert got["paper/s005-paper.tex"] == ("s005", "wrong", 2.5, ["SCALE-DOUBLED"],
                                           ["correct", "mistake", "carried"])
    assert got["s003-plain.tex"] == ("s003", "wrong", 2.5, ["SUM-BOUND"],
                                     ["mistake", "carried", "carried"])
    assert got["dora.md"] == ("s004", "wrong", 2.5, ["SUM-BOUND"],
                              ["correct", "correct", "mistake"])
    # right for s001, handed in as s002's: nothing of it is s002's, nothing is carried
    assert got["s002-homework.ipynb"][:4] == ("s002", "wrong", 0.0, [])
    assert "carried" not in got["s002-homework.ipynb"][4]
    assert got["zed.md"][:3] == (None, "unreadable", 0.0)
    # the same key checks as holds against its own variant
    own = ex.grade([folder / "s002-homework.ipynb"], jobs=1)
    assert own.grades[0].student == "s002"
    from symrow.exercises.grade import grade_text
    assert grade_text(key, ex.spec, ex.variant_of("s001"), ex.catalogue).verdict == "holds"
    # the class table
    assert summary.frequent() == [("SUM-BOUND", 2, 2), ("SCALE-DOUBLED", 1, 1)]
    rows = {r["file"]: r for r in __import__("csv").DictReader(
        __import__("io").StringIO(summary.render("csv")))}
    assert rows["dora.md"]["score"] == "2.5" and rows["dora.md"]["codes"] == "SUM-BOUND"
    assert rows["dora.md"]["steps"] == "S=correct; P=correct; O=mistake"
    assert all("\n" not in r["note"] for r in rows.values())
    table = summary.render("markdown")
    assert "| SUM-BOUND | 2 | 2 |" in table and "| SCALE-DOUBLED | 1 | 1 |" in table
    assert "| s003-plain.tex | s003 | wrong | 2.5 / 3 | SUM-BOUND |" in table
    data = json.loads(summary.render("json"))
    assert [m["code"] for m in data["frequent_mistakes"]] == ["SUM-BOUND", "SCALE-DOUBLED"]
    svg = summary.to_svg()
    ET.fromstring(svg)
    assert svg.count("<rect") == 2


def test_a_shortened_sum_in_two_steps_keeps_its_own_factors():
    """S's and O's shortened sums are graded on one page: the truncated factors of each
    step have names of their own (they once shared them, and O's overwrote S's)."""
    ex = X.exercise("attention", m=2, n=3, d=2, students=["s003"], seed=7)
    v = ex.variants[0]
    t = v.truth(ex.spec)
    cands = {name: next(c for c in mutations(ex.spec, ex.spec.step(name), ex.catalogue, t)
                        if c.code == "SUM-BOUND") for name in ("S", "O")}
    names = [n for c in cands.values() for n, _make in c.extra]
    assert len(set(names)) == len(names) == 4
    Q, K, V = (_np(v.values[k]) for k in "QKV")
    S = cands["S"].value(t, ex.spec.shapes)
    assert np.allclose(_np(S), np.outer(Q[:, 0], K[:, 0]))       # q_i1 k_j1
    assert np.allclose(_np(cands["O"].value(t, ex.spec.shapes)),
                       _np(t["P"])[:, :2] @ V[:2])              # the sum over j = 1, 2


# s001 of the linear layer: X = [[-2, 2], [0, -1]], W = [[2, 0], [2, 2]],
# upstream [[2, -2], [-1, -1]]: dW in the transposed layout, db not summed, dX right
GRADIENTS = r"""
Student: s001

$$\frac{\partial L}{\partial W} = \bar{Y}^\top X = \begin{pmatrix} -4 & 5 \\ 4 & -3 \end{pmatrix}$$
$$\frac{\partial L}{\partial b} = \begin{pmatrix} 2 & -2 \\ -1 & -1 \end{pmatrix}$$
$$\frac{\partial L}{\partial X} = \bar{Y} W^\top = \begin{pmatrix} 4 & 0 \\ -2 & -4 \end{pmatrix}$$
"""


def test_gradient_mistakes_get_their_codes():
    ex = X.exercise("linear-backward", students=["s001", "s002"], seed=7)
    assert ex.variant_of("s001").values["X"].tolist() == [[-2, 2], [0, -1]]
    from symrow.exercises.grade import grade_text
    g = grade_text(GRADIENTS, ex.spec, ex.variant_of("s001"), ex.catalogue)
    assert [(s.status, s.code) for s in g.steps] == [
        ("mistake", "GRAD-LAYOUT"), ("mistake", "BIAS-NOT-SUMMED"), ("correct", None)]
    assert g.score == pytest.approx(0.5 + 0.25 + 1)


@pytest.mark.parametrize("name, options, step, code", [
    ("attention", {"m": 2, "n": 3, "d": 2}, "P", "SCALE-DOUBLED"),
    ("attention", {"m": 3, "n": 3, "d": 2, "causal": True}, "P", "MASK-MISSING"),
    ("combine", {"a": (2, 2), "b": (2, 2)}, "C", "COMBINE-AS-MATCH"),
    ("match", {"a": (2, 2), "b": (2, 2)}, "C", "MATCH-AS-COMBINE"),
    ("combine", {}, "C", "SUM-BOUND"),
    ("mlp-backward", {}, r"\bar{Z}", "RELU-MASK-DROPPED"),
    ("attention-backward", {}, r"\bar{S}", "JACOBIAN-DROPPED"),
    ("linear-backward", {"m": 2, "n_in": 2, "n_out": 2}, r"\bar{W}", "TRANSPOSE-MISSING"),
])
def test_each_mistake_of_the_catalogue_is_named(name, options, step, code):
    from symrow.exercises.grade import grade_text
    ex = X.exercise(name, students=["s1"], seed=2, **options)
    spec, v = ex.spec, ex.variants[0]
    t = v.truth(spec)
    wrong = next(c.value(t, spec.shapes, spec.causal) for c in
                 mutations(spec, spec.step(step), ex.catalogue, t) if c.code == code)
    page = "Student: s1\n" + "\n".join(
        f"$${s.name} = {documents.matrix_tex(wrong if s.name == step else t[s.name])}$$"
        for s in spec.steps if spec.steps.index(s) <= spec.names.index(step))
    g = grade_text(page, spec, v, ex.catalogue)
    assert g.codes == [code], [(s.name, s.status, s.note) for s in g.steps]


# -- exports, checked as the learning system reads them -------------------------------------

# Moodle's cloze syntax, as question/type/multianswer/questiontype.php reads it (its
# regexes, with the one look-behind of three widths split into three)
_FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_ALT = f"({_FRACTION})?({_ANSWER})(#({_FEEDBACK}))?"
_TYPES = (r"(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|"
          r"(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|(MULTICHOICE_S|MCS)|"
          r"(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|(MULTIRESPONSE|MR)|"
          r"(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)")
_CLOZE = re.compile(r"\{([0-9]*):(" + _TYPES + r"):(" + _ALT + r"(~" + _ALT + r")*)\}", re.S)
_NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
_NUMERICAL = re.compile(r"^(" + _NUMBER + r")(:" + _NUMBER + r")?$", re.S)


def _moodle_cloze(text: str) -> list:
    """The subquestions Moodle extracts from a cloze text: (type, answer, tolerance,
    fraction), as qtype_multianswer_extract_question does, with its validation."""
    subs = []
    while True:
        m = _CLOZE.search(text)
        if not m:
            break
        assert m.group(3), "only NUMERICAL blanks are written"
        alt = re.match("~?" + _ALT, m.group(16), re.S)
        fraction = 1.0 if alt.group(1) == "=" else 0.0
        num = _NUMERICAL.match(alt.group(3))
        assert num, f"answer {alt.group(3)!r} must be a number or *"
        subs.append(("numerical", float(num.group(1)),
                     float(num.group(6)) if num.group(6) else 0.0, fraction))
        text = text.replace(m.group(0), "{#%d}" % len(subs), 1)
    assert subs and all(s[3] == 1.0 for s in subs)   # fractionsnomax: a right answer each
    return subs


def test_the_moodle_xml_is_what_moodles_importer_reads(attention):
    xml = export.moodle_xml(attention.spec, attention.variants, "ja")
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "quiz"
    questions = root.findall("question")
    assert questions[0].get("type") == "category"
    assert questions[0].find("category/text").text.startswith("$course$/")
    cloze = questions[1:]
    assert len(cloze) == 3
    for q, v in zip(cloze, attention.variants):
        # import_question: the type; import_multianswer: name/text, questiontext/text
        assert q.get("type") == "cloze"
        assert q.find("name/text").text.strip().endswith(v.student)
        assert q.find("questiontext").get("format") == "html"
        text = q.find("questiontext/text").text
        subs = _moodle_cloze(text)
        truth = v.truth(attention.spec)
        expected = [x for s in attention.spec.steps for x in _np(truth[s.name]).ravel()]
        assert len(subs) == len(expected)
        for (_kind, answer, tol, _f), want in zip(subs, expected):
            assert abs(answer - want) <= max(tol, 1e-9) + 5e-5
        assert r"\(" in text and "\\)" in text      # MathJax's delimiters
        assert q.find("penalty") is not None and q.find("idnumber").text == v.student


_GIFT_QUESTION = re.compile(r"^::((?:\\.|[^:\\])+)::\[html\]((?:\\.|[^{}\\])+)\{#(-?\d+(?:\.\d+)?)"
                            r":(\d+(?:\.\d+)?)\}$")


def test_the_gift_file_has_one_numerical_question_per_entry(attention):
    text = export.gift(attention.spec, attention.variants, "en")
    questions = [line for line in text.splitlines() if line.startswith("::")]
    assert len(questions) == 3 * (6 + 6 + 4)
    for line in questions:
        m = _GIFT_QUESTION.match(line)
        assert m, line
        # every special character of GIFT in the text is escaped
        assert not re.search(r"(?<!\\)[{}~=#]", m.group(2)), m.group(2)


def _gift_pegjs(text: str, tmp_path) -> list:
    """The questions gift-pegjs (the PEG grammar of Moodle's GIFT format,
    github.com/fuhrmanator/GIFT-grammar-PEG.js) reads in ``text``."""
    import subprocess
    harness.require_node_module("gift-pegjs")
    path = tmp_path / "questions.gift"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.run(["node", str(harness.TESTS / "gift_parse.js"), str(path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    data = json.loads(proc.stdout) if proc.stdout else {"error": proc.stderr}
    assert proc.returncode == 0 and isinstance(data, list), data
    return data


@pytest.mark.renderer
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gift_pegjs_reads_every_question_with_the_keys_numbers(attention, lang, tmp_path):
    import html
    spec = attention.spec
    questions = _gift_pegjs(export.gift(spec, attention.variants, lang), tmp_path)
    expected = []
    for v in attention.variants:
        t = v.truth(spec)
        for s in spec.steps:
            m = _np(t[s.name])
            for i in range(m.shape[0]):
                for j in range(m.shape[1]):
                    expected.append((v, t, s, i, j, m[i, j], t[s.name][i, j]))
    assert len(questions) == len(expected) == 3 * (6 + 6 + 4)
    entry = documents.WORDS[lang]["entry"]
    for q, (v, t, s, i, j, want, exact) in zip(questions, expected):
        assert q["type"] == "Numerical", q
        assert q["title"] == f"{v.student} {s.name} [{i + 1},{j + 1}]"
        assert q["stem"]["format"] == "html"
        choice = q["choices"]
        assert choice["type"] == "range", choice
        tolerance = 0.0 if exact.is_Integer else 0.0005
        assert choice["range"] == tolerance
        if exact.is_Integer:
            assert choice["number"] == int(exact)
        else:                                   # 4 decimals: within the tolerance
            assert abs(choice["number"] - want) <= 5e-5 + 1e-12
        # the text, unescaped by the parser and read as HTML, is the variant's TeX
        stem = html.unescape(q["stem"]["text"])
        for name in spec.given:
            assert r"\(" + f"{name} = {documents.matrix_tex(t[name])}" + r"\)" in stem
        assert r"\(" + f"{s.name} = {s.rule}" + r"\)" in stem
        assert stem.endswith(entry.format(i=i + 1, j=j + 1) + ".")
        assert v.student in stem


# -- the PDFs ------------------------------------------------------------------------------

def _pdf_text(pdf: bytes, tmp_path) -> str:
    """The text of a PDF by poppler's pdftotext, white space taken out (Japanese is set
    without spaces)."""
    import shutil
    import subprocess
    tool = shutil.which("pdftotext")
    harness.require(tool is not None, "pdftotext", "apt-get install poppler-utils")
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run([tool, "-enc", "UTF-8", str(path), "-"], capture_output=True,
                         text=True, encoding="utf-8", timeout=60).stdout
    return re.sub(r"[\s'’]+", "", out)


@pytest.mark.renderer
@pytest.mark.parametrize("lang, engine", [("en", "pdflatex"), ("ja", "lualatex")])
def test_a_solution_compiles_and_reads_as_its_student_s(attention, lang, engine, tmp_path):
    from symrow.render.pdf import compile_pdf
    v = attention.variants[0]
    source = documents.as_document(documents.solution(attention.spec, v, lang, "latex"), lang)
    pdf, log = harness.compile_tex(source, engine)
    assert harness.overfull_boxes(log) == []
    text = _pdf_text(pdf, tmp_path)
    w = documents.WORDS[lang]
    for words in (attention.spec.title[lang], w["solution"], v.student, w["derivation"],
                  w["numbers"], w["numbers_lead"]):
        assert re.sub(r"[\s'’]+", "", words) in text, words
    # symrow's own route to the PDF gives one too
    assert compile_pdf(source, lang).startswith(b"%PDF")


@pytest.mark.renderer
def test_a_backward_solution_compiles_without_overfull_lines(tmp_path):
    ex = X.exercise("attention-backward", students=["s1"], seed=7)
    source = documents.as_document(documents.solution(ex.spec, ex.variants[0], "en", "latex"),
                                   "en")
    pdf, log = harness.compile_tex(source, "pdflatex")
    assert harness.overfull_boxes(log) == []
    assert "s1" in _pdf_text(pdf, tmp_path)
