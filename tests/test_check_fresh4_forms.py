r"""Forms of published derivations that were new to symrow's checker (a fourth held-out set).

The pages added to ``check_cases/real/`` in this round showed these forms:

* a Greek letter as the unbraced argument of ``\frac`` (zenn-taro137-layernorm-jacobian:
  ``\frac1\sigma\left(\frac{\partial \mathcal{L}}{\partial y_j} - \frac1H(...)\right)``):
  TeX reads one control word as the argument, so ``\frac1\sigma`` is ``\frac{1}{\sigma}``.
  It was refused as "\frac needs its argument in braces"; a Greek letter (lower case or
  capital) is now taken as the argument, as a digit or a letter already was.  (On that
  page the line stays unreadable: its \sigma, the page's own standard deviation, is read
  as the sigmoid without its brackets, braced or not, and H is no size of the check);
* four messages these pages raise had no Japanese words (test_check_lang_pages reads the
  Japanese report of every real page and finds no English in it): ``\frac needs its
  argument in braces`` (the same page, before the fix, and still for other commands),
  ``dots inside a term`` (qiita-hatahatadev-softmax-sum-index: ``(x_1 ,x_2 ,\dots x_n)``
  without a comma before the dots), ``index arithmetic needs commas between the
  indices`` (nagoya-ymaeda-softmax-formula: ``f_i(y_0,\cdots,y_{J-1})``), and ``\text{Mask}
  is not supported here; the functions symrow knows are ...`` (zenn-fumishiki-causal-mask-
  softmax: ``\text{Mask}_{ij}``, ``\text{Attention}_{\text{causal}}``);
* seen and left as they are (each a strict xfail or an accepted "unreadable" in
  test_check_real, with its reason):
  - a sum whose term drops the sum's index, carried from a definition into a worked
    example (``\sum_{j=1}^{2} e^{x_i} = e^{x_1}+e^{x_2}``, hatahatadev) is called wrong
    with the hint that the sum does not use j, but only where the page writes it in a
    claim: the definition itself, ``f(x_i)= softmax(x_i) = ...`` with ``(i=1,2,\dots,n)``
    after it, is not read (the name f);
  - the page's own vector of numbers (``\boldsymbol{x}=(1,2)``, read as a definition) did
    not give x_1 and x_2 their numbers: ``e^{x_1}+e^{x_2} = e^1+e^2`` was checked as an
    identity in the entries of the check's X and called wrong (since read as X's values:
    test_check_written_forms.py);
  - a single subscript with arithmetic (``y_{J-1}`` of a page counting from 0) is refused
    as index arithmetic without commas; the page's own macro ``\PartialDiff`` and a
    typographic apostrophe in ``i’`` are not read;
  - en dashes for minus (a WordPress page, sumikitch) were refused as unreadable characters
    (since read as minus signs: test_check_written_forms.py);
  - a softmax of numbers with a ``-\infty`` entry is read and judged (the published
    [0.0116, 0.0315, 0.0, 0.8569] is wrong), though the explanation compares the entry as
    a fraction (numerator 29, constant 2500) rather than as a decimal.

Each form is held by a claim that is right and the same claim with one slip; the
numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import symrow
from symrow.checker.words import message

pytestmark = pytest.mark.parsers("builtin")


def scaled():
    return symrow.explain(r"Y = \alpha X", {"X": (2, 2)})


# -- a Greek letter as the unbraced argument of \frac -------------------------------------------

@pytest.mark.parametrize("claim", [
    r"\frac1\alpha y_{12} = x_{12}",
    r"\frac\alpha2 x_{12} = \frac{y_{12}}{2}",
    r"\frac{1}{\alpha} y_{12} = x_{12}",                      # the braced form, as before
])
def test_a_greek_letter_is_an_unbraced_argument_of_frac(claim):
    report = symrow.check(f"$$ {claim} $$", scaled())
    assert [s.status for s in report.steps] == ["holds"], report.to_text()


@pytest.mark.parametrize("claim", [
    r"\frac1\alpha y_{12} = x_{21}",                          # the wrong entry
    r"\frac\alpha2 x_{12} = y_{12}",                          # the half dropped
])
def test_a_slip_with_an_unbraced_greek_argument_is_wrong(claim):
    report = symrow.check(f"$$ {claim} $$", scaled())
    assert [s.status for s in report.steps] == ["wrong"], report.to_text()


def test_a_command_that_takes_arguments_still_needs_braces():
    report = symrow.check(r"$$ \frac1\sqrt{2} y_{12} = x_{12} $$", scaled())
    assert report.verdict == "unreadable"
    assert "\\frac needs its argument in braces" in report.to_text()
    assert "\\frac の引数は {...} で囲む" in report.to_text(lang="ja")


# -- the messages in Japanese -------------------------------------------------------------------

_ENGLISH = re.compile(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b")


@pytest.mark.parametrize("english, japanese", [
    (r"\frac needs its argument in braces", r"\frac の引数は {...} で囲む"),
    (r"dots inside a term: write the sum as a_1 + a_2 + \cdots + a_n",
     r"項の中に点がある：和は a_1 + a_2 + \cdots + a_n のように書く"),
    (r"the page's definition of \boldsymbol{x}: dots inside a term: write the sum as a_1 + "
     r"a_2 + \cdots + a_n",
     r"ページによる \boldsymbol{x} の定義：項の中に点がある：和は a_1 + a_2 + \cdots + a_n "
     r"のように書く"),
    ("index arithmetic needs commas between the indices, as in a_{i,j+1}",
     "計算を含む添字は a_{i,j+1} のようにコンマで区切る"),
    (r"\text{Mask} is not supported here; the functions symrow knows are softmax, \exp, "
     r"\sqrt, Attention, Concat, diag, and ReLU, GELU, \sigma, \tanh and \phi entry by entry",
     r"\text{Mask} にはまだ対応していない；symrow が知っている関数は softmax, \exp, \sqrt, "
     r"Attention, Concat, diag と、成分ごとの ReLU, GELU, \sigma, \tanh, \phi"),
    (r"\text{Atention} is not supported here (did you mean Attention?); the functions symrow "
     r"knows are softmax, \exp, \sqrt, Attention, Concat, diag, and ReLU, GELU, \sigma, "
     r"\tanh and \phi entry by entry",
     r"\text{Atention} にはまだ対応していない（Attention のことか）；symrow が知っている関数"
     r"は softmax, \exp, \sqrt, Attention, Concat, diag と、成分ごとの ReLU, GELU, \sigma, "
     r"\tanh, \phi"),
])
def test_the_new_messages_in_japanese(english, japanese):
    assert message(english, "ja") == japanese
    assert not _ENGLISH.search(re.sub(r"\\[A-Za-z]+(\{[^}]*\})?", "", japanese))
    assert message(english, "en") == english


def test_the_messages_come_from_the_checker():
    """The English texts above are what the checker says, so the forms meet them."""
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 2)})
    report = symrow.check(r"$$ \text{Attention}_{\text{causal}}(X) = Y $$", d)
    assert "is not supported here; the functions symrow knows are" in report.to_text()
    assert "にはまだ対応していない；symrow が知っている関数は" in report.to_text(lang="ja")


# -- the forms in numbers ------------------------------------------------------------------------

def test_the_forms_in_numbers():
    rng = np.random.default_rng(4)
    x, alpha = rng.normal(size=(2, 2)), 1.7
    y = alpha * x
    assert np.isclose(y[0, 1] / alpha, x[0, 1]) and not np.isclose(y[0, 1] / alpha, x[1, 0])
    assert np.isclose(alpha / 2 * x[0, 1], y[0, 1] / 2) and not np.isclose(y[0, 1] / 2, y[0, 1])


@pytest.mark.parametrize("written, status", [
    ("0.269", "holds"), ("0.2689", "holds"), ("0.27", "holds"),
    ("0.2687", "wrong"), ("0.268", "wrong"), ("0.25", "wrong"),
])
def test_a_decimal_after_equals_is_the_value_rounded_to_its_places(written, status):
    # worked examples write y_1 = e/(e + e^2) = 0.269: the value rounded to the places
    # written (half a unit in the last place); it was compared exactly, and a correct
    # worked example was wrong at every rounded number
    x = np.array([1.0, 2.0])
    y1 = np.exp(x[0]) / np.exp(x).sum()                       # 0.268941...
    assert (abs(y1 - float(written)) <= 0.5 * 10 ** -len(written.split(".")[1])) == \
        (status == "holds")
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 2)})
    page = "$X = (1, 2)$\n$$ y_{11} = \\frac{e}{e + e^2} = %s $$\n" % written
    report = symrow.check(page, d)
    assert [s.status for s in report.steps] == ["defines", "holds", status], report.to_text()
    assert any("read as equal to the places written" in n for n in report.notes) == \
        (status == "holds")


def test_a_decimal_against_symbols_is_still_an_identity():
    d = symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 2)})
    report = symrow.check("$$ y_{11} = 0.269 $$\n", d)    # no numbers for X: not rounded
    assert report.steps[0].status == "wrong", report.to_text()
