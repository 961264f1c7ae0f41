"""Reports: what a wrong step says (issue 10, item 8), and reports people can look at
(item 9): Markdown and LaTeX that KaTeX, MathJax and TeX render, with the
differing terms in color."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import harness
import symrow
from check_cases.derivations import against

V = symrow.vecseq


# -- item 8: what a wrong step says ----------------------------------------------------------

def test_a_softmax_step_names_the_entry_and_the_differing_exponentials():
    tex = (r"o_{11} = \frac{e^{(q_{11}k_{11}+q_{12}k_{12})/\sqrt2} v_{11} + "
           r"e^{(q_{11}k_{21}+q_{12}k_{22})/\sqrt2} v_{21}}{e^{(q_{11}k_{11}+q_{12}k_{12})/"
           r"\sqrt2} + e^{(q_{11}k_{12}+q_{12}k_{22})/\sqrt2}}")
    report = symrow.check(tex, against("att222"))
    text = report.to_text()
    assert "too long" not in text
    assert (r"denominator: missing term: e^{\frac{q_{11} k_{21}}{\sqrt{2}} + "
            r"\frac{q_{12} k_{22}}{\sqrt{2}}}") in text
    assert (r"denominator: extra term: e^{\frac{q_{11} k_{12}}{\sqrt{2}} + "
            r"\frac{q_{12} k_{22}}{\sqrt{2}}}") in text


def test_a_softmax_matrix_step_names_the_entry():
    report = symrow.check(r"P = \operatorname{softmax}(QK^T)", against("att222"))
    step = report.steps[0]
    assert step.entry == (1, 1)
    assert step.detail["parts"][0]["missing"], report.to_text()


def test_multi_head_reports_name_the_heads_entries():
    d = symrow.attention(2, 2, 2, heads=2)
    report = symrow.check(r"o_{11} = o^{(1)}_{11} w^{O(1)}_{11} + o^{(1)}_{12} w^{O(1)}_{21} + "
                          r"o^{(2)}_{11} w^{O(2)}_{11} + o^{(2)}_{12} w^{O(1)}_{21}", d)
    detail = report.steps[0].detail
    assert detail["missing"] == ["o^{(2)}_{12} w^{O(2)}_{21}"]
    assert detail["extra"] == ["o^{(2)}_{12} w^{O(1)}_{21}"]
    assert "o_{11}" not in " ".join(detail["missing"] + detail["extra"])


@pytest.mark.parametrize("make, shown", [
    (lambda: symrow.attention(2, 2, 2, heads=2, projections=True),
     "heads=2, projections"),
    (lambda: symrow.attention(2, 3, 2, causal=True, projections=True, cross=True),
     "causal, projections, cross"),
    (lambda: symrow.attention(2, 2, 2, scale="number"), "scale=number"),
])
def test_the_header_shows_every_option_in_force(make, shown):
    report = symrow.check("S = QK^T" if "heads" not in shown else "O = C W_O", make())
    assert shown in report.to_text().splitlines()[0]


def test_a_shape_mismatch_keeps_both_shapes_as_data():
    # the hints read the shapes from the step, not from the words of its message
    report = symrow.check(r"C = BA", against("comb23"))
    step = report.steps[0]
    assert step.status == "wrong" and step.shapes == ((2, 2), (3, 3)), report.to_text()
    assert json.loads(json.dumps(report.to_dict()))["steps"][0]["shapes"] == [[2, 2], [3, 3]]
    number = symrow.check(r"C = a_{11}", against("comb23")).steps[0]
    assert number.status == "wrong" and number.shapes == ((2, 2), None), number
    assert symrow.check(r"C = AB", against("comb23")).steps[0].shapes is None


def test_one_term_is_singular():
    report = symrow.check(r"c_{11} = a_{11}b_{11} + a_{12}b_{11}", against("comb22"))
    text = report.to_text()
    assert "missing term: a_{12} b_{21}" in text and "1 terms" not in text
    assert text.splitlines()[-1] == "verdict: wrong (1 claim checked: 1 wrong)"


def test_a_wrong_number_reads_in_plain_words():
    report = symrow.check(r"c_{21} = 41", against("comb22"),
                          values={"A": [[1, 2], [3, 4]], "B": [[5, 6], [7, 8]]})
    assert "the value is 41, expected 43" in report.to_text()
    assert "constant" not in report.to_text()
    assert report.steps[0].detail["coefficients"] == [{"term": "1", "expected": "43",
                                                       "got": "41"}]


# -- item 9: reports people can look at -----------------------------------------------------

def sample_reports() -> list:
    """Reports with every status, general sizes, sections and highlights."""
    comb = against("comb22")
    att = against("att222")
    general = symrow.combine(V("A", "m", "ell"), V("B", "ell", "n"))
    return [
        symrow.check(r"\begin{align*} C &= AB \\ &= \begin{bmatrix} a_{11}b_{11} + "
                     r"a_{12}b_{21} & a_{11}b_{12} + a_{12}b_{22} \\ a_{21}b_{11} + a_{22}b_{21} & "
                     r"a_{21}b_{12} + a_{22}b_{12} \end{bmatrix} \\ C &= \foo \end{align*}", comb),
        symrow.check(r"A = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}, \quad c_{11} = 7, "
                     r"\quad \boldsymbol{a}_1 \to \boldsymbol{b}_2", comb),
        symrow.check(r"p_{12} = \frac{e^{s_{12}/\sqrt{2}}}{e^{s_{11}/\sqrt{2}} + "
                     r"e^{s_{21}/\sqrt{2}}}, \quad p_{11} \ge 0", att),
        symrow.check(r"c_{ik} = \sum_{j=1}^{\ell} a_{ij} b_{kj} \quad (i \le m)", general),
        symrow.check(r"c_{21} = 41 + 0 \cdot a_{11}", comb,
                     values={"A": [[1, 2], [3, 4]], "B": [[5, 6], [7, 8]]}),
    ]


def test_reports_display_themselves_in_jupyter():
    report = sample_reports()[0]
    md, tex = report._repr_markdown_(), report._repr_latex_()
    assert md == report.to_markdown()
    assert "$$" in md and "$$" in tex
    assert r"{\color{green} a_{22} b_{22}}" in md
    assert r"{\color{red} a_{22} b_{12}}" in md
    assert r"\text{expected:}" in md and r"\text{written:}" in md
    assert "entry (2, 2) differs" in md
    assert "unreadable" in md and r"\\foo" in md


def _markdown_formulas() -> list[dict]:
    out = []
    for report in sample_reports():
        out += harness.markdown_math(report.to_markdown())
    return out


def _jupyter_formulas() -> list[dict]:
    out = []
    for report in sample_reports():
        text = report._repr_latex_()
        out += [{"tex": m.group(1), "display": True}
                for m in re.finditer(r"\$\$(.+?)\$\$", text, re.S)]
    return out


@pytest.mark.renderer
@pytest.mark.parametrize("formulas", [_markdown_formulas, _jupyter_formulas],
                         ids=["markdown", "jupyter-latex"])
def test_reports_render_in_katex(formulas):
    found = formulas()
    assert any("\\color{green}" in f["tex"] for f in found)
    harness.assert_renders(found, harness.katex)


@pytest.mark.renderer
@pytest.mark.parametrize("formulas", [_markdown_formulas, _jupyter_formulas],
                         ids=["markdown", "jupyter-latex"])
def test_reports_render_in_mathjax(formulas):
    harness.assert_renders(formulas(), harness.mathjax)


@pytest.mark.renderer
def test_the_latex_report_compiles():
    body = "\n".join(r.to_latex() for r in sample_reports())
    assert r"{\color{red}" in body
    doc = ("\\documentclass{article}\n\\usepackage{amsmath,amssymb,xcolor}\n"
           "\\begin{document}\n" + body + "\\end{document}\n")
    pdf, log = harness.compile_tex(doc, "pdflatex")
    assert pdf.startswith(b"%PDF")


def test_markdown_of_a_handout_check_names_its_sections():
    from symrow.handout import handout
    text = handout().to_latex("en")
    part = text[text.index("\\section*{4"):text.index("\\section*{5")]
    md = symrow.check(part, handout()).to_markdown()
    assert "(section 4.2)" in md


# -- the JSON report is documented -------------------------------------------------------------

def _keys(obj, out: set) -> set:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k not in ("values", "indices", "sizes"):   # maps keyed by the user's names
                out.add(k)
                _keys(v, out)
            else:
                out.add(k)
    elif isinstance(obj, list):
        for v in obj:
            _keys(v, out)
    return out


def test_every_json_field_is_documented_in_the_readme():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The JSON report"):]
    keys = set()
    for report in sample_reports():
        _keys(json.loads(report.to_json()), keys)
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"undocumented JSON fields: {missing}"


def test_the_repr_counts_steps_in_words():
    d = symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
    assert repr(symrow.check("C = BA", d)).startswith("<Report wrong: 1 step against ")
    assert repr(symrow.check("C = AB = AB", d)).startswith("<Report holds: 2 steps against ")
