"""Every output format of every derivation, in both languages, through its real renderer.

* Markdown (``to_markdown``) and Jupyter (``_repr_markdown_``, ``_repr_latex_``):
  every ``$$`` block and inline ``$`` in KaTeX and in MathJax, errors fatal.
* LaTeX fragments (``to_latex``): every display and inline formula in KaTeX
  and MathJax too (fragments get pasted into KaTeX sites as well).
* Documents (``to_document``, ``to_pdf``): pdflatex (en) and lualatex (ja),
  no overfull lines.
* Text (``to_text``): fits a terminal, measured by display width.

Renderers run once per format over all cases (one node process each), and a
failure names the case.
"""

from __future__ import annotations

import functools
import re

import pytest

import harness
import symrow
from symrow.render.text import display_width

LANGS = ("en", "ja")


@functools.lru_cache(maxsize=None)
def cases() -> dict:
    """(kind, size) -> derivation, for combine, match and attention."""
    V = symrow.vecseq
    out = {
        ("combine", "general"): symrow.combine(V("A", "m", "ell"), V("B", "ell", "n")),
        ("combine", "concrete"): symrow.combine(V("A", 2, 3), V("B", 3, 2)),
        ("match", "general"): symrow.match(V("A", "m", "ell"), V("B", "n", "ell")),
        ("match", "concrete"): symrow.match(V("A", 2, 3), V("B", 3, 3)),
    }
    out["attention", "general"] = symrow.attention("m", "n", "d")
    out["attention", "concrete"] = symrow.attention(2, 3, 2)
    out["attention", "causal"] = symrow.attention(3, 3, 2, causal=True)
    return out


def test_attention_is_among_the_cases():
    assert ("attention", "general") in cases()


def _collect(render, extract) -> list[dict]:
    formulas = []
    for (kind, size), d in cases().items():
        for lang in LANGS:
            for f in extract(render(d, lang)):
                formulas.append({**f, "case": f"{kind}-{size}-{lang}"})
    return formulas


def _assert_all_render(formulas: list[dict], renderer) -> None:
    errors = [(f["case"], f["tex"][:200], e)
              for f, e in zip(formulas, renderer([{"tex": f["tex"], "display": f["display"]}
                                                  for f in formulas])) if e]
    assert formulas, "no math found"
    assert not errors, f"{len(errors)} of {len(formulas)} formulas failed:\n" + "\n".join(
        f"- [{case}] {err}\n  in: {tex}" for case, tex, err in errors[:8])


_JUPYTER_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)


def jupyter_math(text: str) -> list[dict]:
    """Formulas of the text/latex repr: ``$$...$$`` displays and ``$...$`` inline."""
    out = [{"tex": m.group(1), "display": True} for m in _JUPYTER_DISPLAY.finditer(text)]
    rest = _JUPYTER_DISPLAY.sub("", text)
    out += [{"tex": m.group(1), "display": False}
            for m in re.finditer(r"(?<![\\$])\$([^$\n]+)\$", rest)]
    return out


FRAGMENTS = {
    "markdown": (lambda d, lang: d.to_markdown(lang), harness.markdown_math),
    "latex": (lambda d, lang: d.to_latex(lang), harness.latex_math),
    "jupyter-latex": (lambda d, lang: d._repr_latex_() if lang == "en"
                      else symrow.render.document.to_jupyter_latex(d, lang), jupyter_math),
}


@pytest.mark.renderer
@pytest.mark.parametrize("fmt", sorted(FRAGMENTS))
def test_every_formula_renders_in_katex(fmt):
    _assert_all_render(_collect(*FRAGMENTS[fmt]), harness.katex)


@pytest.mark.renderer
@pytest.mark.parametrize("fmt", sorted(FRAGMENTS))
def test_every_formula_renders_in_mathjax(fmt):
    _assert_all_render(_collect(*FRAGMENTS[fmt]), harness.mathjax)


@pytest.mark.renderer
def test_vecseq_reprs_render():
    seqs = [symrow.vecseq("A", "m", "ell"), symrow.vecseq("W_Q", 2, 3),
            symrow.vecseq("X", [[1, -2], [0, 3]])]
    formulas = []
    for s in seqs:
        latex = s._repr_latex_()
        assert latex.startswith("$\\displaystyle ") and latex.endswith("$")
        formulas.append({"tex": latex[1:-1], "display": False})
        formulas += harness.markdown_math(s._repr_markdown_())
    assert len(formulas) == 2 * len(seqs)
    harness.assert_renders(formulas, harness.katex)
    harness.assert_renders(formulas, harness.mathjax)


# -- Markdown for KaTeX sites (Zenn, Qiita) and Jupyter ----------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_markdown_math_is_delimited_the_way_sites_expect(lang):
    for (kind, size), d in cases().items():
        md = d.to_markdown(lang)
        lines = md.split("\n")
        opens = [k for k, line in enumerate(lines) if line == "$$"]
        assert len(opens) % 2 == 0 and opens, (kind, size)
        for start, end in zip(opens[::2], opens[1::2]):
            # a $$ block stands alone: blank lines around it, never inside it
            assert lines[start - 1] == "" and lines[end + 1] == "", (kind, size, start)
            assert "" not in lines[start + 1:end], (kind, size, start)
        rest = harness._DISPLAY_MD.sub("", md)
        for m in re.finditer(r"(?<![\\$])\$([^$\n]+)\$", rest):
            # Zenn and Qiita read $x$ as math only without spaces inside the dollars
            assert m.group(1) == m.group(1).strip(), (kind, size, m.group(0))
        # no stray dollar signs left outside math
        assert "$" not in re.sub(r"(?<![\\$])\$([^$\n]+)\$", "", rest), (kind, size)


def test_repr_markdown_is_the_english_markdown():
    d = cases()["combine", "general"]
    assert d._repr_markdown_() == d.to_markdown("en")
    assert d._repr_latex_().startswith("Matrices as vector sequences")


# -- standalone documents -------------------------------------------------------------------

@pytest.mark.renderer
@pytest.mark.slow
@pytest.mark.parametrize("lang,engine", [("en", "pdflatex"), ("ja", "lualatex")])
def test_attention_documents_compile(lang, engine):
    sizes = ("general", "concrete", "causal")
    logs = harness.compile_documents([cases()["attention", size].to_document(lang)
                                      for size in sizes], engine)
    for size, log in zip(sizes, logs):
        assert harness.overfull_boxes(log) == [], size
        assert "Missing character" not in log


@pytest.mark.renderer
@pytest.mark.parametrize("lang", LANGS)
def test_to_pdf_compiles_with_the_language_engine(lang):
    harness.require_tex("pdflatex" if lang == "en" else "lualatex")
    pdf = cases()["match", "general"].to_pdf(lang)
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")


def test_document_is_pdflatex_for_english_and_luatexja_for_japanese():
    d = cases()["combine", "general"]
    en, ja = d.to_document("en"), d.to_document("ja")
    assert en.startswith("\\documentclass") and "luatexja" not in en and "ltjs" not in en
    assert "{ltjsarticle}" in ja and "\\tracinglostchars=3" in ja
    assert en.rstrip().endswith("\\end{document}") and ja.rstrip().endswith("\\end{document}")
    # the title is LaTeX: math in the title is typeset, not escaped
    assert "\\section*{Reading the matrix product $AB$ as combine}" in en


# -- terminal text ------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_text_paragraphs_fit_a_terminal(lang):
    for (kind, size), d in cases().items():
        text = d.to_text(lang)
        for line in text.split("\n"):
            assert line == line.rstrip(), (kind, size, line)
            if not line.startswith("    "):  # narration, not a display
                assert display_width(line) <= 78, (kind, size, lang, line)
        assert "\u00a0" not in text
        assert "\\" not in text, (kind, size)  # no LaTeX leaks into text


def test_japanese_text_wraps_by_display_width_without_breaking_math():
    from symrow.render.text import _wrap
    para = "これは" * 20 + "点 𝐚₂ は座標 [3  1] の点である。"
    lines = _wrap(para.replace("[3  1]", "[3\u00a0\u00a01]"), "ja", width=40).split("\n")
    assert all(display_width(line) <= 40 for line in lines)
    assert any("[3  1]" in line for line in lines)  # the inline value stayed whole
    assert not any(line.startswith(("、", "。")) for line in lines)
    # wide characters count two columns: 20 of them fill a 40-column line
    assert _wrap("あ" * 25, "ja", width=40).split("\n")[0] == "あ" * 20


@pytest.mark.parametrize("kind,size", [("combine", "concrete"), ("match", "general")])
def test_japanese_text_golden(kind, size):
    harness.golden(f"text_{kind}_{size}_ja.txt", cases()[kind, size].to_text("ja"))


def test_text_shows_a_product_of_numbers_with_a_dot():
    d = symrow.combine(symrow.vecseq("A", [[1, 2]]), symrow.vecseq("B", [[3], [-4]]))
    assert "1⋅3 + 2⋅(-4)" in d.to_text()


# -- PDF errors: one line, naming what is missing -------------------------------------------

from symrow.render.pdf import compile_pdf  # noqa: E402

_MINIMAL = "\\documentclass{article}\n%s\\begin{document}\n%s\n\\end{document}\n"


def test_missing_engine_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no TeX anywhere on PATH
    with pytest.raises(symrow.RenderError, match=r"TeX engine lualatex is not installed.*apt-get"):
        cases()["combine", "general"].to_pdf("ja")
    with pytest.raises(symrow.RenderError, match=r"TeX engine pdflatex is not installed"):
        cases()["combine", "general"].to_pdf("en")


@pytest.mark.renderer
def test_missing_package_is_named():
    harness.require_tex("pdflatex")
    with pytest.raises(symrow.RenderError) as err:
        compile_pdf(_MINIMAL % ("\\usepackage{symrownosuchpackage}\n", "x"), "en")
    message = str(err.value)
    assert "symrownosuchpackage.sty" in message and "package symrownosuchpackage" in message
    assert "\n" not in message


@pytest.mark.renderer
def test_tex_error_is_one_line_with_the_first_error():
    harness.require_tex("pdflatex")
    with pytest.raises(symrow.RenderError) as err:
        compile_pdf(_MINIMAL % ("", "fine \\symrowundefined"), "en")
    message = str(err.value)
    assert message.startswith("pdflatex failed: Undefined control sequence")
    assert message.endswith("(at l.3: fine \\symrowundefined)") and "\n" not in message


@pytest.mark.renderer
def test_missing_japanese_glyph_is_an_error():
    # \tracinglostchars=3 (the Japanese preamble) turns a missing glyph into an
    # error, not a silent gap, and the message names it
    harness.require_tex("lualatex")
    d = cases()["combine", "concrete"]
    source = d.to_document("ja").replace("\\end{document}", "\\char\"1F600\n\\end{document}")
    with pytest.raises(symrow.RenderError, match=r"has no glyph for .* \(U\+1F600\)"):
        compile_pdf(source, "ja")


@pytest.mark.renderer
def test_a_run_past_the_timeout_is_stopped():
    harness.require_tex("pdflatex")
    with pytest.raises(symrow.RenderError, match="took longer than 2 s"):
        compile_pdf(_MINIMAL % ("\\def\\loop{\\loop}\n", "\\loop"), "en", timeout=2)


@pytest.mark.parametrize("width,columns", [(None, 100), ("60ch", 60), (18, 52)])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_text_keeps_to_the_width_it_promises(width, columns, lang):
    """--help promises 100 characters for text, the indent of a display
    included; --width is honoured, in terminal columns (wide characters two).
    (The 3x3x2 attention had lines of 104 columns, its P written out.)"""
    out = symrow.attention(3, 3, 2).to_text(lang, width=width)
    widest = max(display_width(line) for line in out.splitlines())
    assert widest <= columns, widest
    assert widest > columns - 12  # and it uses the room
