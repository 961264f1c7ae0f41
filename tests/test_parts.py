"""Parts of a derivation: listed, selected, and readable on their own."""

from __future__ import annotations

import pytest

import harness
import symrow
from test_cli import assert_one_line_error, run


def general_combine():
    return symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))


def test_parts_are_named_in_order():
    assert general_combine().parts == ["vecseq", "maps", "product", "product.row",
                                       "product.entries", "product.summary"]
    assert symrow.attention(2, 2, 2, causal=True, projections=True, heads=2).parts == [
        "formula", "projections", "operands", "match", "match.row", "match.entries", "scale",
        "mask", "distribution", "distribution.entries", "combine", "combine.row", "expansion",
        "summary", "heads"]
    assert symrow.explain(r"\hat{A} X W").parts == [
        "formula", "operands", "H", "H.row", "H.entries", "C", "C.row", "C.entries", "summary"]


def test_a_part_takes_its_inner_parts_and_a_short_name_matches_the_end():
    d = general_combine()
    product = {s.part for s in d.select(["product"]).steps}
    assert product == {"excerpt", "product", "product.row", "product.entries", "product.summary"}
    rows = {s.part for s in symrow.attention(2, 2, 2).select(["row"]).steps}
    assert rows == {"excerpt", "match.row", "combine.row"}


def test_a_selection_is_introduced_and_leaves_the_preamble_out():
    tex = general_combine().to_latex(parts=["product"])
    assert tex.startswith("The parts below are taken from the derivation of this formula:")
    assert "C &= A B" in tex.split("\\end{align*}")[0]
    assert "Matrices as vector sequences" not in tex and "Matrix products as maps" not in tex
    assert "The product $A B$: combine" in tex
    ja = general_combine().to_latex("ja", parts=["product"])
    assert ja.startswith("以下は、次の式の導出から抜き出した部分である。")


def test_every_format_renders_a_selection():
    d = symrow.attention(2, 2, 2)
    for out in (d.to_text(parts=["combine.row"]), d.to_markdown(parts=["combine.row"]),
                d.to_document("ja", parts=["combine.row"])):
        assert "softmax" in out  # the formula it is taken from
        assert "Stage 1" not in out and "第1段階" not in out


def test_golden_selection():
    harness.golden("parts_combine_general_product_en.tex",
                   general_combine().to_latex(parts=["product"]))


def test_unknown_parts_are_refused_with_the_list():
    with pytest.raises(symrow.OptionError, match="its parts are vecseq, maps, product"):
        general_combine().select(["lemma"])
    with pytest.raises(symrow.OptionError):
        general_combine().select([])


def test_command_line_parts_and_list():
    proc = run("combine", "--general", "--parts", "product", "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == general_combine().to_latex(parts=["product"])
    listing = run("attention", "--list-parts")
    assert listing.returncode == 0
    assert [line.split()[0] for line in listing.stdout.splitlines()][:3] == [
        "formula", "operands", "match"]
    assert_one_line_error(run("combine", "--parts", "lemma"), "no part named 'lemma'")


@pytest.mark.renderer
def test_selected_parts_render_in_katex():
    formulas = []
    for d, parts in ((general_combine(), ["product"]), (symrow.attention(2, 3, 2), ["row"]),
                     (symrow.explain(r"\hat{A} X W"), ["H", "summary"])):
        for lang in ("en", "ja"):
            formulas += harness.latex_math(d.to_latex(lang, parts=parts))
    harness.assert_renders(formulas)


def test_parts_apply_to_slides_too():
    deck = general_combine().to_beamer(parts=["product.row"])
    assert "Matrices as vector sequences" not in deck
    assert r"\boldsymbol{c}_{i}" in deck and "derivation of this formula" in deck
    proc = run("attention", "--parts", "combine.row", "--format", "beamer", "--lang", "ja")
    assert proc.returncode == 0, proc.stderr
    assert "第1段階" not in proc.stdout and r"\begin{frame}" in proc.stdout
