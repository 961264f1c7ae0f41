"""The golden combine/match derivations through the real renderers.

KaTeX renders every formula of every golden LaTeX file with errors fatal;
pdflatex (en) and lualatex + luatexja (ja) compile each derivation as a
standalone document, with no overfull lines.  Missing renderers skip
locally and fail under CI=true (see harness.require).
"""

import pytest

import harness
import symrow

GOLDEN_TEX = sorted(p.name for p in harness.GOLDEN.glob("*.tex")
                    if p.name.startswith(("combine_", "match_")))


def test_golden_files_exist():
    assert len(GOLDEN_TEX) == 8, GOLDEN_TEX


@pytest.mark.renderer
@pytest.mark.parametrize("name", GOLDEN_TEX)
def test_golden_renders_in_katex(name):
    fragment = (harness.GOLDEN / name).read_text(encoding="utf-8")
    formulas = harness.latex_math(fragment)
    assert sum(f["display"] for f in formulas) >= 15
    harness.assert_renders(formulas)


def _derivations():
    return {
        ("combine", "general"): symrow.combine(symrow.vecseq("A", "m", "ell"),
                                               symrow.vecseq("B", "ell", "n")),
        ("combine", "concrete"): symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)),
        ("match", "general"): symrow.match(symrow.vecseq("A", "m", "ell"),
                                           symrow.vecseq("B", "n", "ell")),
        ("match", "concrete"): symrow.match(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 2, 3)),
    }


KINDS = [("combine", "general"), ("combine", "concrete"), ("match", "general"),
         ("match", "concrete")]


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """compiled(lang, engine): the four documents in ``lang``, compiled in one run
    once per test run (harness.shared): a log for each, in the order of KINDS."""
    def logs(lang: str, engine: str) -> list:
        return harness.shared(
            f"product-documents-{lang}",
            lambda: harness.compile_documents(
                [_derivations()[k].to_document(lang) for k in KINDS], engine),
            tmp_path_factory)
    return logs


@pytest.mark.renderer
@pytest.mark.parametrize("kind,size", KINDS)
@pytest.mark.parametrize("lang,engine", [("en", "pdflatex"), ("ja", "lualatex")])
def test_document_compiles_without_overfull_lines(kind, size, lang, engine, compiled):
    d = _derivations()[kind, size]
    assert d.to_latex(lang) in d.to_document(lang)
    log = compiled(lang, engine)[KINDS.index((kind, size))]
    assert harness.overfull_boxes(log) == []
    assert "Missing character" not in log


@pytest.mark.renderer
def test_wide_concrete_product_stays_on_the_page():
    # 5 x 5 entries of five terms each do not fit as one matrix: entry by entry instead
    d = symrow.match(symrow.vecseq("A", 5, 5), symrow.vecseq("B", 5, 5))
    tex = d.to_latex(expand="all")
    assert "c_{55} &= a_{51} b_{51} + a_{52} b_{52}" in tex
    # by default only c_11 is written out, and the others are named
    short = d.to_latex()
    assert "c_{11} &= a_{11} b_{11}" in short and "c_{55} &=" not in short
    assert "c_{12}, c_{13}, c_{14}, \\dots, c_{55}" in short
    for expand in (None, "all"):
        _pdf, log = harness.compile_tex(d.to_document("en", expand=expand), "pdflatex")
        assert harness.overfull_boxes(log) == []


@pytest.mark.renderer
def test_documents_compiled_together_keep_their_own_warnings():
    """harness.compile_documents: a warning is found in the part of the document it
    comes from, and only there."""
    harness.require_tex("pdflatex")
    d = _derivations()["combine", "concrete"]
    wide = d.to_document("en").replace("\\end{document}",
                                       "\\hbox to 600pt{wide}\\par\n\\end{document}")
    logs = harness.compile_documents([d.to_document("en"), wide, d.to_document("en")],
                                     "pdflatex")
    assert [bool(harness.overfull_boxes(log)) for log in logs] == [False, True, False]
