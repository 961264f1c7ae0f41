"""The five ways the checker failed correct work (issue 10), one test class each.

Each test reproduces a student's correct derivation that the checker of
d87dc10 called wrong or could not read, and fails there; the two marked
"guard" keep what already worked (breaks before + and =, one equation per
line in plain text).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import symrow
from check_cases.derivations import against

V = symrow.vecseq


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


# -- 1. a line break inside one display ------------------------------------------------------

class TestLineBreaks:
    """A line break never ends an equation; only \\\\, &=, a new environment or a new
    relation does.  The first half of a broken display is never judged on its own."""

    def test_matrices_on_two_lines_inside_equation(self):
        tex = ("\\begin{equation}\n"
               "C = AB = \\begin{bmatrix} a_{11} & a_{12} \\\\ a_{21} & a_{22} \\end{bmatrix}\n"
               "\\begin{bmatrix} b_{11} & b_{12} \\\\ b_{21} & b_{22} \\end{bmatrix}\n"
               "\\end{equation}\n")
        report = symrow.check(tex, against("comb22"))
        assert statuses(report) == ["holds", "holds"], report.to_text()

    def test_a_factor_on_the_next_line_inside_display_brackets(self):
        tex = "\\[\nc_{11} = a_{11}\nb_{11} + a_{12} b_{21}\n\\]\n"
        report = symrow.check(tex, against("comb22"))
        assert statuses(report) == ["holds"], report.to_text()

    def test_breaks_before_plus_and_equals_still_work(self):   # guard
        tex = "\\[\nc_{11} = a_{11} b_{11}\n+ a_{12} b_{21}\n= \\boldsymbol{a}_1 \\cdot " \
              "\\begin{bmatrix} b_{11} & b_{21} \\end{bmatrix}\n\\]"
        assert statuses(symrow.check(tex, against("comb22"))) == ["holds", "holds"]

    def test_an_ambiguous_break_is_unreadable_never_wrong(self):
        # inside one display, a new line with its own '=' may be a new equation or a
        # factor of the one above; neither reading holds here, so it is not judged
        tex = "\\[\nc_{11} = a_{11}\nb_{12} = a_{12} b_{21}\n\\]"
        report = symrow.check(tex, against("comb22"))
        assert "wrong" not in statuses(report), report.to_text()
        assert "ambiguous" in report.to_text()

    def test_one_equation_per_line_in_plain_text(self):   # guard
        report = symrow.check("c_{11} = a_{11} b_{11} + a_{12} b_{21}\n"
                              "c_{12} = a_{11} b_{21} + a_{12} b_{22}", against("comb22"))
        assert statuses(report) == ["holds", "wrong"]


# -- 2. claim-free math is not a step ---------------------------------------------------------

class TestClaimFreeMath:
    def test_inline_math_with_no_claim_is_not_a_step(self):
        tex = ("Row $i$ of $C$ is a combination of the rows of $B$:\n"
               "\\[ \\boldsymbol{c}_i = \\boldsymbol{a}_i B \\]\n")
        report = symrow.check(tex, against("comb23"))
        assert statuses(report) == ["holds"] and report.exit_code == 0, report.to_text()

    def test_inside_a_complete_document(self):
        tex = ("\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
               "Let $A \\in \\mathbb{R}^{2 \\times 3}$ and $B$ be given; write $C$ for their "
               "product and $\\boldsymbol{c}_1, \\boldsymbol{c}_2$ for its rows.\n"
               "\\begin{align*} C &= AB \\end{align*}\n\\end{document}\n")
        report = symrow.check(tex, against("comb23"))
        assert report.exit_code == 0, report.to_text()
        assert statuses(report) == ["holds", "holds"]   # the membership is a claim too

    @pytest.mark.parametrize("make", [
        lambda: symrow.attention(3, 3, 2, causal=True),
        lambda: symrow.combine(V("A", 2, 3), V("B", 3, 2)),
    ], ids=["attention-3x3x2-causal", "combine-2x3-3x2"])
    def test_symrow_s_own_documents_have_no_unreadable_step(self, make):
        d = make()
        report = symrow.check(d.to_latex(), d)
        assert report.counts["unreadable"] == 0, report.to_text()


# -- 3. general sizes ---------------------------------------------------------------------------

GENERAL = (r"\boldsymbol{c}_i = \sum_{j=1}^{\ell} a_{ij}\boldsymbol{b}_j = \boldsymbol{a}_i B"
           "\n"
           r"\boldsymbol{c}_i = a_{i1}\boldsymbol{b}_1 + \cdots + a_{i\ell}\boldsymbol{b}_\ell"
           "\n")


class TestGeneralSizes:
    def test_a_general_derivation_is_checked(self):
        d = symrow.combine(V("A", "m", "ell"), V("B", "ell", "n"))
        report = symrow.check(GENERAL, d)
        assert report.exit_code == 0 and report.counts["holds"] == 3, report.to_text()

    @pytest.mark.slow
    def test_on_the_command_line(self, tmp_path):
        (tmp_path / "g.tex").write_text(GENERAL)
        out = subprocess.run([sys.executable, "-m", "symrow", "check", "g.tex", "--against",
                              "combine", "--general"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr


# -- 4. common notation -------------------------------------------------------------------------

class TestNotation:
    def test_cases_for_a_mask(self):
        report = symrow.check(r"M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & "
                              r"\text{otherwise} \end{cases}", against("att222c"))
        assert report.ok, report.to_text()

    def test_max_in_a_stable_softmax(self):
        report = symrow.check(
            r"p_{ij} = \frac{\exp(s_{ij}/\sqrt{d} - \max_k s_{ik}/\sqrt{d})}"
            r"{\sum_{k=1}^{n} \exp(s_{ik}/\sqrt{d} - \max_{k'} s_{ik'}/\sqrt{d})}",
            against("att222"))
        assert report.ok, report.to_text()

    def test_primed_indices(self):
        report = symrow.check(r"o_{11} = \sum_{j'=1}^{2} p_{1j'} v_{j'1}", against("att222"))
        assert report.ok, report.to_text()

    def test_dots_in_sums_and_matrices(self):
        report = symrow.check(
            r"S = \begin{bmatrix} s_{11} & \cdots & s_{1n} \\ \vdots & \ddots & \vdots \\ "
            r"s_{m1} & \cdots & s_{mn} \end{bmatrix}, \quad "
            r"s_{11} = q_{11} k_{11} + \cdots + q_{1d} k_{1d}", against("att222"))
        assert report.ok, report.to_text()

    def test_a_trailing_range_note(self):
        report = symrow.check(r"o_{i1} = \sum_{j=1}^{2} p_{ij} v_{j1} \quad (1 \le i \le 2)",
                              against("att222"))
        assert report.ok and len(report.steps) == 1, report.to_text()

    def test_a_hint_quotes_the_input_s_own_bounds(self):
        report = symrow.check(r"o_{11} = \sum_{j \in J} p_{1j} v_{j1}", against("att222"))
        message = report.steps[0].message
        assert r"\sum_{j \in J}" in message, message
        assert r"\sum_{j=1}^{3}" not in message


# -- 5. numbers ------------------------------------------------------------------------------------

WORKED = (r"A = \begin{bmatrix}1&2\\3&4\end{bmatrix}, \quad "
          r"B = \begin{bmatrix}1&0\\1&1\end{bmatrix}" "\n"
          r"C = AB = \begin{bmatrix}3&2\\7&4\end{bmatrix}")


class TestValues:
    def test_a_definition_with_numbers_gives_the_values(self):
        report = symrow.check(WORKED, against("comb22"))
        assert statuses(report) == ["defines", "defines", "holds", "holds"], report.to_text()
        assert report.exit_code == 0

    @pytest.mark.slow
    def test_values_on_the_command_line(self, tmp_path):
        (tmp_path / "w.tex").write_text(WORKED)
        out = subprocess.run([sys.executable, "-m", "symrow", "check", "w.tex", "--against",
                              "combine", "--a", "2x2", "--b", "2x2", "--values", "A=1,2;3,4",
                              "--values", "B=1,0;1,1"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        out = subprocess.run([sys.executable, "-m", "symrow", "check", "w.tex", "--against",
                              "combine", "--a", "2x2", "--b", "2x2", "--values", "A=1,2;3,5"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert out.returncode == 1, out.stdout + out.stderr
        assert "the value is 4, expected 5" in out.stdout
