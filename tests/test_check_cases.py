"""A table of hand derivations, right and wrong, in several notations.

Each row: the derivation it is checked against, the LaTeX a student might
hand in, the expected verdict, and for a wrong or unreadable one what the
report must point at (the step, the entry, the terms, the column).
"""

from __future__ import annotations

import dataclasses

import pytest

import symrow
from check_cases.derivations import against
from check_cases.handwritten import attention_derivation


@dataclasses.dataclass
class Case:
    id: str
    against: str
    tex: str
    verdict: str
    step: int | None = None          # the first step that does not hold (1-based)
    entry: tuple | None = None
    missing: tuple = ()
    extra: tuple = ()
    coefficient: tuple | None = None  # (term, expected, got)
    part: str | None = None           # numerator / denominator
    counterexample: bool | None = None
    message: str | None = None        # a piece of the step's message
    column: int | None = None         # for unparsed steps: where reading stopped
    indices: dict | None = None


C23_ENTRIES = (r"\begin{bmatrix} a_{11}b_{11} + a_{12}b_{21} + a_{13}b_{31} & "
               r"a_{11}b_{12} + a_{12}b_{22} + a_{13}b_{32} \\ "
               r"a_{21}b_{11} + a_{22}b_{21} + a_{23}b_{31} & "
               r"a_{21}b_{12} + a_{22}b_{22} + a_{23}b_{32} \end{bmatrix}")

CASES = [
    # -- combine C = AB, A 2x3, B 3x2 ----------------------------------------------
    Case("combine-matrix", "comb23", r"C = AB", "holds"),
    Case("combine-entries-align", "comb23",
         "\\begin{align*}\nC &= AB \\\\\n  &= " + C23_ENTRIES + "\n\\end{align*}", "holds"),
    Case("combine-entries-cdot-times", "comb23",
         r"C = \begin{pmatrix} a_{11}\cdot b_{11} + a_{12}\cdot b_{21} + a_{13}\cdot b_{31} & "
         r"a_{11}\times b_{12} + a_{12}\times b_{22} + a_{13}\times b_{32} \\ "
         r"a_{21} b_{11} + a_{22} b_{21} + a_{23} b_{31} & "
         r"a_{21} b_{12}+a_{22} b_{22}+a_{23} b_{32} \end{pmatrix}", "holds"),
    Case("combine-rows-bold-styles", "comb23",
         "\\boldsymbol{c}_1 = a_{11}\\boldsymbol{b}_1 + a_{12}\\boldsymbol{b}_2 + "
         "a_{13}\\boldsymbol{b}_3\n"
         "\\mathbf{c}_2 = a_{21}\\mathbf{b}_1 + a_{22}\\bm{b}_2 + a_{23}\\vec{b}_3", "holds"),
    Case("combine-row-general-index", "comb23",
         r"\boldsymbol{c}_i = \sum_{j=1}^{3} a_{ij}\boldsymbol{b}_j = \boldsymbol{a}_i B",
         "holds"),
    Case("combine-sum-bounds", "comb23", r"c_{ij} = \sum_{k=1}^{\ell} a_{ik} b_{kj}", "holds"),
    Case("combine-sum-no-bounds", "comb23", r"c_{ij} = \sum_k a_{ik} b_{kj}", "holds"),
    Case("combine-engine-nested", "comb23",
         r"AB = \begin{bmatrix} \begin{bmatrix} a_{11} & a_{12} & a_{13} \end{bmatrix} \\ "
         r"\begin{bmatrix} a_{21} & a_{22} & a_{23} \end{bmatrix} \end{bmatrix}"
         r"\begin{bmatrix} \boldsymbol{b}_{1} \\ \boldsymbol{b}_{2} \\ \boldsymbol{b}_{3}"
         r"\end{bmatrix} = \begin{bmatrix} a_{11}\boldsymbol{b}_1 + a_{12}\boldsymbol{b}_2 + "
         r"a_{13}\boldsymbol{b}_3 \\ a_{21}\boldsymbol{b}_1 + a_{22}\boldsymbol{b}_2 + "
         r"a_{23}\boldsymbol{b}_3 \end{bmatrix}", "holds"),
    Case("combine-swapped-index", "comb23",
         r"c_{12} = a_{11}b_{12} + a_{12}b_{12} + a_{13}b_{32}", "wrong", step=1,
         missing=("a_{12} b_{22}",), extra=("a_{12} b_{12}",)),
    Case("combine-swapped-in-matrix", "comb23",
         "C = " + C23_ENTRIES.replace("a_{22}b_{21}", "a_{22}b_{12}"), "wrong", step=1,
         entry=(2, 1), missing=("a_{22} b_{21}",), extra=("a_{22} b_{12}",)),
    Case("combine-missing-term", "comb23",
         "C = " + C23_ENTRIES.replace(" + a_{23}b_{31}", ""), "wrong", step=1,
         entry=(2, 1), missing=("a_{23} b_{31}",), extra=()),
    Case("combine-wrong-coefficient", "comb23",
         r"\boldsymbol{c}_2 = a_{21}\boldsymbol{b}_1 + 2a_{22}\boldsymbol{b}_2 + "
         r"a_{23}\boldsymbol{b}_3", "wrong", step=1, entry=(1, 1),
         coefficient=("a_{22} b_{21}", "1", "2")),
    Case("combine-zero-matrix", "comb23", r"C - AB = 0", "holds"),
    Case("combine-order", "comb23", r"C = AB = BA", "wrong", step=2,
         message="the left side is a 2 x 2 matrix, the right side a 3 x 3 matrix"),
    Case("combine-sum-swapped-index", "comb23", r"c_{ij} = \sum_{k=1}^{3} a_{ik} b_{ki}",
         "wrong", step=1, indices={"i": 1, "j": 2},
         missing=("a_{11} b_{12}", "a_{12} b_{22}", "a_{13} b_{32}"),
         extra=("a_{11} b_{11}", "a_{12} b_{21}", "a_{13} b_{31}")),
    Case("combine-dangling-plus", "comb23", r"C = AB +", "unreadable", step=1, column=8,
         message="'+' needs something on its right"),

    # -- match C = AB^T, A and B 2x3 --------------------------------------------------
    Case("match-transposes", "match23",
         r"C = AB^T = AB^{T} = AB^\top = AB^{\top} = AB^\mathsf{T} = AB^{\mathsf{T}} = "
         r"AB^\intercal = AB'", "holds"),
    Case("match-dot", "match23",
         r"c_{12} = \boldsymbol{a}_1 \cdot \boldsymbol{b}_2 = "
         r"\langle \boldsymbol{a}_1, \boldsymbol{b}_2 \rangle = "
         r"\left\langle \mathbf{a}_1 , \mathbf{b}_2 \right\rangle = "
         r"\boldsymbol{a}_1 \boldsymbol{b}_2^{\top} = a_{11}b_{21} + a_{12}b_{22} + a_{13}b_{23}",
         "holds"),
    Case("match-stack-times-row", "match23",
         r"C = \begin{bmatrix} \boldsymbol{a}_1 \\ \boldsymbol{a}_2 \end{bmatrix}"
         r"\begin{bmatrix} \boldsymbol{b}_1^T & \boldsymbol{b}_2^T \end{bmatrix} = "
         r"\begin{bmatrix} \boldsymbol{a}_1\cdot\boldsymbol{b}_1 & "
         r"\boldsymbol{a}_1\cdot\boldsymbol{b}_2 \\ \boldsymbol{a}_2\cdot\boldsymbol{b}_1 & "
         r"\boldsymbol{a}_2\cdot\boldsymbol{b}_2 \end{bmatrix}", "holds"),
    Case("match-sum", "match23", r"c_{ij} = \sum_{k=1}^{3} a_{ik}b_{jk}", "holds"),
    Case("match-row", "match23",
         r"\boldsymbol{c}_1 = \boldsymbol{a}_1 B^T = \begin{bmatrix} "
         r"\boldsymbol{a}_1\cdot\boldsymbol{b}_1 & \boldsymbol{a}_1\cdot\boldsymbol{b}_2"
         r"\end{bmatrix}", "holds"),
    Case("match-transpose-dropped", "match23", r"C = AB", "wrong", step=1,
         message="a 2 x 3 matrix times a 2 x 3 matrix is undefined"),
    Case("match-operands-swapped", "match23", r"C = BA^T", "wrong", step=1, entry=(1, 2),
         missing=("a_{11} b_{21}", "a_{12} b_{22}", "a_{13} b_{23}"),
         extra=("a_{21} b_{11}", "a_{22} b_{12}", "a_{23} b_{13}")),
    Case("match-wrong-row", "match23",
         r"C = \begin{bmatrix} \boldsymbol{a}_1\cdot\boldsymbol{b}_1 & "
         r"\boldsymbol{a}_1\cdot\boldsymbol{b}_2 \\ \boldsymbol{a}_2\cdot\boldsymbol{b}_1 & "
         r"\boldsymbol{a}_1\cdot\boldsymbol{b}_2 \end{bmatrix}", "wrong", step=1, entry=(2, 2),
         missing=("a_{21} b_{21}", "a_{22} b_{22}", "a_{23} b_{23}"),
         extra=("a_{11} b_{21}", "a_{12} b_{22}", "a_{13} b_{23}")),
    Case("match-unknown-name", "match23", r"C = AX^T", "unreadable", step=1, column=6,
         message="unknown name 'X'"),

    # -- attention, m = n = d = 2 -------------------------------------------------------
    Case("attention-one-line", "att222",
         r"O = \operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V", "holds"),
    Case("attention-softmax-spellings", "att222",
         r"P = \mathrm{softmax}(S/\sqrt{d_k}) = \text{softmax}\left(\frac{1}{\sqrt{2}} Q K^{T}"
         r"\right) = softmax(\frac{QK^{\mathsf{T}}}{\sqrt{d}})", "holds"),
    Case("attention-full-handwritten", "att222", attention_derivation(2, 2, 2), "holds"),
    Case("attention-bold-capitals-and-fonts", "att222",
         r"O = \operatorname*{softmax}\left(\frac{\mathbf{Q}\mathbf{K}^{\mathsf T}}{\sqrt{d}}"
         r"\right)\mathbf{V} = \mathrm{softmax}\!\left(\tfrac{S}{\sqrt{d}}\right) V = "
         r"\text{softmax}\left(2^{-1/2} S\right)V = \mathbf{P}\mathbf{V}", "holds"),
    Case("attention-entries-of-products", "att222",
         r"P_{12} = p_{12}, \quad (PV)_{21} = o_{21}, \quad [S]_{22} = s_{22}, \quad "
         r"o_{12} = \sum\limits_{j=1}^{2} p_{1j} v_{j2}", "holds"),
    Case("attention-softmax-entry-sums", "att222",
         r"o_{11} = \frac{\sum_{j=1}^{2} e^{s_{1j}/\sqrt{2}} v_{j1}}"
         r"{\sum_{j=1}^{2} e^{s_{1j}/\sqrt{2}}} = \dfrac{e^{s_{11}/\sqrt 2} v_{11} + "
         r"e^{s_{12}/\sqrt 2} v_{21}}{e^{s_{11}/\sqrt 2}+e^{s_{12}/\sqrt 2}}", "holds"),
    Case("attention-entry-formulas", "att222",
         "s_{ij} = \\boldsymbol{q}_i \\cdot \\boldsymbol{k}_j = \\sum_{t=1}^{d} q_{it} k_{jt}\n"
         "p_{ij} = \\frac{\\exp(s_{ij}/\\sqrt{d})}{\\sum_{k=1}^{n} \\exp(s_{ik}/\\sqrt{d})}\n"
         "\\boldsymbol{o}_i = \\sum_{j=1}^{n} p_{ij} \\boldsymbol{v}_j = \\boldsymbol{p}_i V\n"
         "p_{11} + p_{12} = 1", "holds"),
    Case("attention-swapped-k", "att222", attention_derivation(2, 2, 2, swap="S"), "wrong",
         step=3, entry=(2, 2), missing=("q_{21} k_{21}",), extra=("q_{21} k_{12}",)),
    Case("attention-swapped-s", "att222", attention_derivation(2, 2, 2, swap="P"), "wrong",
         step=5, entry=(1, 1), part="denominator", missing=(r"e^{\frac{s_{12}}{\sqrt{2}}}",),
         extra=(r"e^{\frac{s_{21}}{\sqrt{2}}}",), counterexample=True),
    Case("attention-swapped-v", "att222", attention_derivation(2, 2, 2, swap="O"), "wrong",
         step=7, entry=(2, 1), missing=("p_{21} v_{11}",), extra=("p_{21} v_{21}",),
         counterexample=True),
    Case("attention-keys-and-queries-swapped", "att222", r"S = KQ^T", "wrong", step=1,
         entry=(1, 2), missing=("q_{11} k_{21}", "q_{12} k_{22}"),
         extra=("q_{21} k_{11}", "q_{22} k_{12}")),
    Case("attention-no-scaling", "att222", r"P = \operatorname{softmax}(QK^T)", "wrong",
         step=1, entry=(1, 1), counterexample=True),
    Case("attention-column-softmax", "att222",
         r"P = \operatorname{softmax}\left(\frac{S^T}{\sqrt{d}}\right)^T", "wrong", step=1,
         counterexample=True),
    Case("attention-dots", "att222", r"o_{11} = p_{11}v_{11} + \cdots", "unreadable", step=1,
         message="needs a last term after it"),
    Case("attention-elided-sum", "att222",
         r"o_{11} = p_{11}v_{11} + \cdots + p_{1n}v_{n1}", "holds"),

    # -- causal attention ---------------------------------------------------------------
    Case("causal-full-handwritten", "att222c",
         attention_derivation(2, 2, 2, causal=True), "holds"),
    Case("causal-mask-and-entries", "att222c",
         "M = \\begin{bmatrix} 0 & -\\infty \\\\ 0 & 0 \\end{bmatrix}\n"
         "p_{11} = 1, \\quad p_{12} = 0\n"
         "\\boldsymbol{o}_1 = \\boldsymbol{v}_1\n"
         "\\boldsymbol{o}_i = \\sum_{t=1}^{i} p_{it}\\boldsymbol{v}_t", "holds"),
    Case("causal-mask-forgotten", "att222c",
         r"P = \operatorname{softmax}\left(\frac{QK^T}{\sqrt{d}}\right)", "wrong", step=1,
         entry=(1, 1), counterexample=True),
    Case("causal-wrong-value", "att222c",
         r"\boldsymbol{o}_2 = p_{21}\boldsymbol{v}_1 + p_{22}\boldsymbol{v}_1", "wrong", step=1,
         entry=(1, 1), missing=("p_{22} v_{21}",), extra=("p_{22} v_{11}",),
         counterexample=True),
    Case("causal-rectangular", "att232c", attention_derivation(2, 3, 2, causal=True), "holds"),
    Case("causal-rectangular-mask", "att232c",
         r"M = \begin{bmatrix} 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "holds"),
    Case("causal-rectangular-mask-wrong", "att232c",
         r"M = \begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "wrong",
         step=1, entry=(1, 2)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case):
    report = symrow.check(case.tex, against(case.against))
    assert report.verdict == case.verdict, report.to_text()
    assert report.exit_code == {"holds": 0, "wrong": 1, "unreadable": 2}[case.verdict]
    if case.verdict == "holds":
        assert all(s.status == "holds" for s in report.steps)
        return
    bad = [s for s in report.steps if s.status != "holds"]
    step = bad[0]
    assert step.index == case.step, report.to_text()
    assert all(s.status == "holds" for s in report.steps[:case.step - 1]), report.to_text()
    if case.message is not None:
        assert case.message in step.message, report.to_text()
    if case.verdict == "unreadable":
        assert step.error is not None
        if case.column is not None:
            assert step.error["column"] == case.column, report.to_text()
        return
    if case.entry is not None:
        assert step.entry == case.entry, report.to_text()
    if case.indices is not None:
        assert step.indices == case.indices, report.to_text()
    detail = step.detail or {}
    if case.part is not None:
        (part,) = [p for p in detail["parts"] if p["part"] == case.part]
        found = part
    else:
        found = detail
    if case.missing:
        assert set(case.missing) <= set(found.get("missing", ())), report.to_text()
    if case.extra:
        assert set(case.extra) <= set(found.get("extra", ())), report.to_text()
    if case.missing or case.extra:
        assert len(found.get("missing", ())) == len(case.missing), report.to_text()
        assert len(found.get("extra", ())) == len(case.extra), report.to_text()
    if case.coefficient is not None:
        term, expected, got = case.coefficient
        assert {"term": term, "expected": expected, "got": got} in found["coefficients"]
    if case.counterexample:
        counter = detail["counterexample"]
        assert counter["values"] and counter["left"] != counter["right"]


def test_the_table_covers_every_kind_and_verdict():
    kinds = {(c.against[:3], c.verdict) for c in CASES}
    for kind in ("com", "mat", "att"):
        for verdict in ("holds", "wrong", "unreadable"):
            assert (kind, verdict) in kinds


def test_counterexample_values_reproduce_the_two_sides():
    """The reported values, substituted, give the reported left and right values."""
    import sympy
    d = against("att222")
    report = symrow.check(r"p_{12} = \frac{e^{s_{12}/\sqrt{2}}}{e^{s_{11}/\sqrt{2}} + "
                          r"e^{s_{21}/\sqrt{2}}}", d)
    counter = report.steps[0].detail["counterexample"]
    values = {sympy.Symbol(k): sympy.Rational(v) for k, v in counter["values"].items()}
    P = d.quantities["P"].subs(symrow.seq.size_symbol("d"), 2)
    S = d.quantities["S"]
    left = P[0, 1].subs(values)
    right = (sympy.exp(S[0, 1] / sympy.sqrt(2)) /
             (sympy.exp(S[0, 0] / sympy.sqrt(2)) + sympy.exp(S[1, 0] / sympy.sqrt(2)))).subs(values)
    assert float(left) == pytest.approx(float(counter["left"]), rel=1e-8)
    assert float(right) == pytest.approx(float(counter["right"]), rel=1e-8)


@pytest.mark.parametrize("key", ["comb23", "match23", "att222", "att232c"])
def test_symrow_s_own_displays_check(key):
    """Every equation symrow itself writes in a concrete derivation holds when checked.

    Displays that are not equations (memberships, maps, lists of points,
    ``\\geq``, ``cases``) are skipped by the checker or reported as unreadable;
    the ``products`` display shows both AB and AB^T on purpose, as expressions.
    """
    from symrow.render.latex import latex
    d = against(key)
    holding = 0
    for step in d.steps:
        if step.display is None:
            continue
        try:
            report = symrow.check(latex(step.display), d)
        except symrow.ParseError:
            continue
        statuses = [s.status for s in report.steps]
        if step.kind == "products":  # AB and AB^T side by side, claimed equal to nothing
            assert "wrong" not in statuses and "holds" not in statuses, report.to_text()
            continue
        assert "wrong" not in statuses, (step.kind, report.to_text())
        holding += statuses.count("holds")
    assert holding >= 8
