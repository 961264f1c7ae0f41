r"""Forms of published derivations that were new to symrow's checker (a fifth held-out set).

The pages added to ``check_cases/real/`` in this round showed these forms:

* ``exp( )`` typed as a word, without its backslash (ningyuwhut-softmax-ce-gradient-zh:
  ``\frac{exp ( \theta_j)} {\sum_{i=1}^V exp(\theta_i)}``): it was read as the three names
  e, x and p multiplied ("unknown name 'x'"); the letters e, x, p run together and followed
  by a bracket are now read as ``\exp``, as ``softmax`` typed as letters already was (without
  a bracket, ``exp x``, they are still names);
* a cases row with a comma before its condition, ``\hat y_j(1-\hat y_j),&\quad k = j``
  (the same page): the comma of the prose was read into the value ("unexpected ','"); a
  comma that ends a value with a condition after it is now dropped;
* a sum up to the page's own size, ``\sum_{i=1}^V`` (the same page): a display holding it
  is refused with "the upper bound V of a sum is not a size this check knows", but the
  step from it to the next side was refused with "cannot tell what range the index V runs
  over; give a sum its bounds, as in \sum_{V=1}^{3}" (the bound called an index: the range
  was looked up on the side that does not use it); both now give the first message (the
  size itself stays the page's own, and unreadable);
* a formula pasted from a PDF or a Word equation (hwanyo14-multilayer-gd-ko): Unicode
  mathematical italic letters (``𝑋𝑊_1 + 𝑏_1 = 𝑍_1``, ``𝐴_1^{𝑇}``), the partial sign ``∂``,
  ``⊙`` and the tricolon ``⁝`` for vertical dots were refused as unexpected characters;
  the italic letters are now their letters (in the lexer and in the source a name is read
  from, one character for one, so every column stays where it was; the superscript ``𝑇`` is
  a transpose), and ``∂``, ``⊙``, ``⋮`` and ``⁝`` are ``\partial``, ``\odot`` and
  ``\vdots``.  (On that page the claims of the check's A_1, W_2 and b_2 are now read; the
  rest names the page's own first layer and stays unreadable);
* the note of an arrow read as the page's correction (``C = WX \to XW``) quoted the page's
  text with its line break, and had no Japanese form (amanailab-sdpa-code-lab, plain text:
  ``d_k = 2 → Output ≈ [[...]]`` then the next line); it now quotes the text on one line,
  and reads in Japanese;
* seen and left as they are (each a strict xfail or an accepted "unreadable" in
  test_check_real, with its reason):
  - a size the page names itself as a sum's bound (``\sum_{i=1}^V``, the number of
    classes; ningyuwhut), and ``log`` typed as a word: unreadable;
  - the softmax written as the page's own function of a bold row, ``s(\mathbf x)_i``, and
    displays in MathJax ``<script type="math/tex; mode=display">`` tags (mattpetersen):
    the tags are read, ``s(\mathbf x)_i`` is not ("which row or entry of S?");
  - a partial by one entry set equal to a sum over every class, ``\partial C/\partial a_j
    = -\sum_j y_j \frac{1}{a_j}`` (bushuhui), is not read (the page's loss C names labels
    y_i the backward target does not know); the page's later error, the quotient rule's
    denominator ``\sum_k (e^{z_k})^2``, is found;
  - the bold and monospace ones ``𝟏`` and ``𝟷`` for a ones vector, and ``∑`` in a KaTeX
    glyph run, are still unexpected characters;
  - the chain rule's shorthand with a wrong factor, ``\frac{\partial f}{\partial W} = X``
    (mathse-3072387), is "a Jacobian of a matrix by a matrix ... not read", as every such
    factor is: its slip cannot be told from the right shorthand; the page's ``\partial L /
    \partial f = y`` is taken as its upstream gradient, 1 x 10, where the page's y is 10 x 1
    (written in code, ``y.shape=(10, 1)``, which is not read);
  - plain-text worked examples (Python lists, ``Q × Kᵀ / √d_k``; numbers in code fences)
    stay unreadable, as before.

Each form is held by a claim that is right and the same claim with one slip; the
numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import symrow
from symrow.checker.words import message
from symrow.reader.lexer import tokenize

pytestmark = pytest.mark.parsers("builtin")


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


def softmax_pair():
    return symrow.explain(r"Y = \mathrm{softmax}(X)", {"X": (1, 2)})


# -- exp( ) typed as a word ----------------------------------------------------------------------

@pytest.mark.parametrize("claim", [
    r"y_{11} = \frac{exp(x_{11})}{exp(x_{11}) + exp(x_{12})}",
    r"y_{11} = \frac{exp (x_{11})}{exp(x_{11}) + \exp(x_{12})}",     # a space; mixed with \exp
    r"y_{11} = \frac{e^{x_{11}}}{exp\left(x_{11}\right) + exp(x_{12})}",
])
def test_exp_typed_as_a_word_is_the_exponential(claim):
    report = symrow.check(f"$$ {claim} $$", softmax_pair())
    assert statuses(report) == ["holds"], report.to_text()


@pytest.mark.parametrize("claim", [
    r"y_{11} = \frac{exp(x_{11})}{exp(x_{12}) + exp(x_{12})}",       # x_{11} lost below
    r"y_{11} = \frac{exp(x_{12})}{exp(x_{11}) + exp(x_{12})}",       # the other entry above
])
def test_a_slip_with_exp_typed_as_a_word_is_wrong(claim):
    report = symrow.check(f"$$ {claim} $$", softmax_pair())
    assert statuses(report) == ["wrong"], report.to_text()


@pytest.mark.parametrize("claim", [r"y_{11} = exp x_{11}", r"y_{11} = softexp(x_{11})"])
def test_exp_without_a_bracket_or_inside_a_word_is_not_the_exponential(claim):
    report = symrow.check(f"$$ {claim} $$", softmax_pair())
    assert statuses(report) == ["unreadable"], report.to_text()


# -- a comma before a cases condition ------------------------------------------------------------

def softmax_backward():
    return symrow.backward(symrow.explain(r"\hat{Y} = \mathrm{softmax}(\Theta)",
                                          {r"\Theta": (1, 3)}))


CASES = (r"\frac{\partial \hat y_j}{\partial \theta_k} = \begin{cases} %s,&\quad k = j \\ "
         r"%s,&\quad k \neq j\end{cases}")


@pytest.mark.parametrize("same, other, status", [
    (r"\hat y_j(1-\hat y_j)", r"-\hat y_j * \hat y_k", "holds"),    # the page's line
    (r"\hat y_j(1+\hat y_j)", r"-\hat y_j * \hat y_k", "wrong"),    # a sign in the k = j row
    (r"\hat y_j(1-\hat y_j)", r"\hat y_j * \hat y_k", "wrong"),     # the minus dropped
])
def test_a_comma_before_a_cases_condition_is_prose(same, other, status):
    report = symrow.check(f"$$ {CASES % (same, other)} $$", softmax_backward())
    assert statuses(report) == [status], report.to_text()


def test_a_comma_inside_a_cases_value_is_still_refused():
    claim = (r"\frac{\partial \hat y_j}{\partial \theta_k} = \begin{cases} \hat y_j, "
             r"\hat y_k & k = j \\ 0 & k \neq j\end{cases}")
    report = symrow.check(f"$$ {claim} $$", softmax_backward())
    assert report.verdict == "unreadable", report.to_text()


def test_a_page_s_own_bound_is_named_a_bound_on_both_sides_of_a_step():
    # the page's V (its number of classes) as a sum's bound: the step from the display that
    # holds the sum to the next side was refused with "cannot tell what range the index V
    # runs over; give a sum its bounds, as in \sum_{V=1}^{3}", which names the bound an
    # index; it is the message of the display itself now
    page = (r"$$ \frac{\partial \hat y_{11}}{\partial \theta_{12}} = -\frac{exp(\theta_{11}) "
            r"exp(\theta_{12})}{(\sum_{i=1}^V exp(\theta_{1i}))^2} = -\hat y_{11} \hat y_{12} $$")
    report = symrow.check(page, softmax_backward())
    assert statuses(report) == ["unreadable", "unreadable"], report.to_text()
    text = report.to_text()
    assert text.count("the upper bound V of a sum is not a size this check knows") == 2, text
    assert "the index V" not in text
    three = page.replace("^V", "^3")
    assert statuses(symrow.check(three, softmax_backward())) == ["holds", "holds"]
    slip = three.replace(r"-\hat y_{11} \hat y_{12} $$", r"\hat y_{11} \hat y_{12} $$")
    assert statuses(symrow.check(slip, softmax_backward())) == ["holds", "wrong"]


# -- a formula pasted with Unicode mathematical letters ------------------------------------------

def linear_backward():
    return symrow.backward(symrow.explain("Y = XW", {"X": (2, 2), "W": (2, 2)}))


@pytest.mark.parametrize("claim, status", [
    (r"\frac{∂𝐿}{∂𝑊} = 𝑋^{𝑇} \frac{∂𝐿}{∂𝑌}", "holds"),
    (r"\frac{∂𝐿}{∂𝑊} = 𝑋 \frac{∂𝐿}{∂𝑌}", "wrong"),               # the transpose dropped
    (r"\frac{∂𝐿}{∂𝑋} = \frac{∂𝐿}{∂𝑌} 𝑊^𝑇", "holds"),
    (r"\frac{∂𝐿}{∂𝑋} = \frac{∂𝐿}{∂𝑌} 𝑊", "wrong"),
    (r"\frac{\partial L}{\partial W} = X^{𝑇} \frac{\partial L}{\partial Y}", "holds"),
])
def test_mathematical_italic_letters_and_the_partial_sign_are_read(claim, status):
    report = symrow.check(f"$$ {claim} $$", linear_backward())
    assert statuses(report) == [status], report.to_text()


@pytest.mark.parametrize("claim, status", [
    (r"𝑌 = 𝑋 ⊙ 𝑊", "holds"), (r"𝑌 = 𝑊 ⊙ 𝑊", "wrong"), (r"𝑦_{12} = 𝑥_{12} 𝑤_{12}", "holds"),
])
def test_the_hadamard_circle_pasted_as_a_character(claim, status):
    d = symrow.explain(r"Y = X \odot W", {"X": (2, 2), "W": (2, 2)})
    report = symrow.check(f"$$ {claim} $$", d)
    assert statuses(report) == [status], report.to_text()


@pytest.mark.parametrize("dots", [r"\vdots", "⋮", "⁝"])
def test_vertical_dots_pasted_as_a_character(dots):
    d = symrow.explain("C = AB", {"A": ("m", "n"), "B": ("n", "p")})
    right = rf"C = \begin{{bmatrix}} \boldsymbol{{a}}_1 B \\ {dots} \\ \boldsymbol{{a}}_m B \end{{bmatrix}}"
    assert statuses(symrow.check(f"$$ {right} $$", d)) == ["holds"]
    slip = right.replace(r"\boldsymbol{a}_m B", r"\boldsymbol{a}_m A")
    assert symrow.check(f"$$ {slip} $$", d).verdict != "holds"


def test_an_italic_letter_keeps_its_column():
    text = "𝑋𝑊_1 + 𝑏_1"
    assert [t.text for t in tokenize(text)] == ["X", "W", "_", "1", "+", "b", "_", "1"]
    assert [t.pos for t in tokenize(text)] == [0, 1, 2, 3, 5, 7, 8, 9]
    report = symrow.check("$$ 𝑌 = 𝑊 ⊙ 𝑞 $$",
                          symrow.explain(r"Y = X \odot W", {"X": (2, 2), "W": (2, 2)}))
    assert "column 12, at 'q'" in report.to_text()   # the name as the lexer reads it


@pytest.mark.parametrize("char", ["𝐗", "𝓧", "𝟏", "𝟷"])
def test_bold_and_script_letters_and_digits_are_still_refused(char):
    assert tokenize(char)[0].kind == "bad"


# -- the note of a correction by an arrow --------------------------------------------------------

def test_the_note_of_an_arrow_quotes_the_page_on_one_line_and_reads_in_japanese():
    d = symrow.explain("C = AB", {"A": (2, 2), "B": (2, 2)})
    page = "$$ C = BA\n\\to AB $$\n"
    report = symrow.check(page, d)
    note = [n for n in report.notes if "correction of the side before the arrow" in n]
    assert note and "\n" not in note[0], report.notes
    assert note[0] == "line 2: BA \\to AB is read as the page's correction of the side " \
                      "before the arrow"
    assert message(note[0], "ja") == "2 行目：BA \\to AB は、矢印の前の辺をページが書き直したもの" \
                                     "と読む"
    assert statuses(report) == ["holds"], report.to_text()


_ENGLISH = re.compile(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b")


def test_the_new_japanese_has_no_english():
    ja = message("X is read as the page's correction of the side before the arrow", "ja")
    assert ja != "X is read as the page's correction of the side before the arrow"
    assert not _ENGLISH.search(ja)


# -- the forms in numbers ------------------------------------------------------------------------

def test_the_forms_in_numbers():
    rng = np.random.default_rng(5)
    x = rng.normal(size=2)
    y = np.exp(x) / np.exp(x).sum()
    assert np.isclose(np.exp(x[0]) / (np.exp(x[0]) + np.exp(x[1])), y[0])
    assert not np.isclose(np.exp(x[0]) / (2 * np.exp(x[1])), y[0])
    assert not np.isclose(np.exp(x[1]) / np.exp(x).sum(), y[0])
    theta = rng.normal(size=3)
    p = np.exp(theta) / np.exp(theta).sum()
    h = 1e-6
    jac = np.array([[(np.exp(theta + h * e)[j] / np.exp(theta + h * e).sum()
                      - np.exp(theta - h * e)[j] / np.exp(theta - h * e).sum()) / (2 * h)
                     for e in np.eye(3)] for j in range(3)])            # [j, k]
    assert np.allclose(jac, np.diag(p) - np.outer(p, p), atol=1e-6)
    assert not np.allclose(np.diag(jac), p * (1 + p), atol=1e-6)
    assert not np.isclose(jac[0, 1], p[0] * p[1])
    xm, wm, g = rng.normal(size=(2, 2)), rng.normal(size=(2, 2)), rng.normal(size=(2, 2))
    assert not np.allclose(xm.T @ g, xm @ g) and not np.allclose(g @ wm.T, g @ wm)
    assert not np.allclose(xm * wm, wm * wm)
