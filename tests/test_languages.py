"""Languages are data: a third language is one record and its templates.

A toy language, "xx" (English with other words, a marked heading and a
preamble comment of its own), is registered in-process and every renderer
and the command line take it with no other change; the command line's
``--lang`` choices are the registry's codes.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
from types import SimpleNamespace

import pytest

import harness
import symrow
from symrow.narrate import languages
from symrow.narrate.languages import LANGUAGES, Language, get_language

V = symrow.vecseq


def toy() -> Language:
    """English, its headings marked "[xx]", with its own words and preambles."""
    english = get_language("en")
    marked = {k: ("[xx] " + v if k.startswith("heading.") else v)
              for k, v in english.templates.items()}
    return dataclasses.replace(
        english, code="xx", name="Toy English",
        sources=(SimpleNamespace(__name__="toy_xx", TEMPLATES=marked),),
        preamble="% the xx document preamble\n",
        beamer_preamble="% the xx deck preamble\n",
        words={"cont": "(xx more)"})


@pytest.fixture
def xx(monkeypatch):
    """The toy language, registered for one test."""
    monkeypatch.setitem(LANGUAGES, "xx", toy())
    return LANGUAGES["xx"]


def general_combine():
    return symrow.combine(V("A", "m", "ell"), V("B", "ell", "n"))


def test_a_registered_language_renders_in_every_format(xx):
    d = general_combine()
    text = d.to_text("xx")
    assert "[xx] Matrices as vector sequences" in text
    # the rest is English's (a heading's rule is as long as its words)
    assert [line for line in text.replace("[xx] ", "").splitlines() if set(line) != {"="}] \
        == [line for line in d.to_text("en").splitlines() if set(line) != {"="}]
    latex = d.to_latex("xx")
    assert "\\subsection*{[xx] The product $A B$: combine}" in latex
    assert "### \\[xx\\] Matrices" in d.to_markdown("xx")  # [ escaped for Markdown
    doc = d.to_document("xx")
    assert doc.startswith("\\documentclass[11pt,a4paper]{article}")
    assert "% the xx document preamble\n" in doc and latex in doc
    deck = d.to_beamer("xx")
    assert "% the xx deck preamble\n" in deck
    assert "combine (xx more)}" in deck and "(cont.)" not in deck
    from symrow.render.pdf import engine_for
    assert engine_for("xx") == "pdflatex"


def test_the_handout_and_parts_take_it_too(xx):
    from symrow.handout import handout
    h = handout()
    assert "[xx] Matrices as vector sequences" in h.to_text("xx")
    assert h.title["xx"] == h.title["en"]  # its title template is English's
    part = general_combine().select(["product"])
    assert "\\subsection*{[xx] The product $A B$: combine}" in part.to_latex("xx")


def test_the_command_line_offers_it(xx):
    from symrow.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["combine", "--general", "--lang", "xx", "--format", "latex"])
    assert code == 0
    assert out.getvalue() == general_combine().to_latex("xx")


@pytest.mark.renderer
def test_its_document_compiles(xx):
    pdf, log = harness.compile_tex(general_combine().to_document("xx"), xx.engine)
    assert pdf.startswith(b"%PDF") and harness.overfull_boxes(log) == []


def test_an_unregistered_language_is_refused_with_the_choices():
    assert "xx" not in LANGUAGES
    with pytest.raises(symrow.OptionError, match=r"unknown language 'xx'; choose one of: en, ja"):
        general_combine().to_text("xx")
    with pytest.raises(symrow.OptionError):
        get_language(["en"])


def test_the_command_line_choices_are_the_registry(xx):
    from symrow.cli import build_parser
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = 0
    for name, command in sub.choices.items():
        for action in command._actions:
            if "--lang" in action.option_strings and action.choices is not None:
                assert tuple(action.choices) == tuple(LANGUAGES) == ("en", "ja", "xx"), name
                found += 1
            # (symrow exercise takes a list, en,ja: checked against the registry when read)
    assert found >= 5  # every derivation, explain and the handout


def test_register_adds_and_a_record_is_checked(monkeypatch):
    monkeypatch.setattr(languages, "LANGUAGES", dict(LANGUAGES))
    languages.register(toy())
    assert languages.codes()[-1] == "xx" and languages.get_language("xx").name == "Toy English"
    english = get_language("en")
    with pytest.raises(ValueError, match="wrap"):
        dataclasses.replace(english, code="yy", wrap="letters")
    with pytest.raises(ValueError, match="lacks the words"):
        dataclasses.replace(english, code="yy", words={})
    with pytest.raises(ValueError, match="is in both"):
        dataclasses.replace(english, code="yy", sources=english.sources + english.sources[:1])
    with pytest.raises(ValueError, match="code"):
        dataclasses.replace(english, code="English")
    with pytest.raises(TypeError):
        languages.register("xx")
