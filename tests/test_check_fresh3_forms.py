r"""Forms of published derivations that were new to symrow's checker (a third held-out set).

The pages added to ``check_cases/real/`` in this round showed these forms:

* a condition before a display framed by an environment (sunhaozhe-softmax-ce-split:
  ``If $i = k$,`` then ``\[\begin{equation}\begin{split} \frac{\partial p_i}{\partial
  o_k} &= ... \\ &= p_k (1 - p_k) \end{split}\end{equation}\]``): the frame
  ``\begin{equation}\begin{split}`` between the condition and its claim is layout, as
  ``\[`` is.  It hid the condition, the claim was checked for every i and k, and the
  correct softmax partials were called wrong (``for i = 1, k = 2: the two sides
  differ``).  ``\end{aligned}`` between a claim and the condition after it (``... \end
  {aligned}$$ where $i \neq k$``) is layout too;
* a condition glued to the display before it (the same page: ``...\end{equation}\]If $i
  = k$,`` and the next display on the next line): a sentence that opens with the
  condition (a capital If, When, For) and goes on after a comma or 'then' is about the
  claim after it, not the claim before (``$x = 0$ if $i \neq d$`` still restricts the
  claim before it);
* three messages these pages raise had no Japanese words (test_check_lang_pages reads
  the Japanese report of every real page and finds no English in it):
  ``\partial/\partial x`` without brackets, ``\ell`` as a page's own name (zakariapz), a
  membership in ``\Bbb R^{1x5}`` (mathse-3400818-softmax-linear-dims);
* ``\sum_j^C`` (a sum whose upper bound is the page's class count C, its index
  without a lower bound; zakariapz-softmax-ce-sign) was refused as "cannot tell what
  range the index C runs over": C is the sum's bound, and the message now says so
  (still unreadable: C is no size of the check);
* a Chinese page's report came in Japanese (leeinx-attention-qkv-zh: its Han characters
  were taken for Japanese words); Japanese is now told by its kana;
* a worked example against general sizes (hongseoi-affine-exercise-ko checked with
  ``--against "Y = XW + B" --backward`` and no ``--shape``): the page's numbers for X
  and W fix m, ℓ and n, and its bias written as one row, ``B = (7,8,9)``, is that row
  added to every row; the target is read again at those shapes.  Before, every line of
  numbers was "not checked" and three correct products were called wrong against a
  size choice ("for m = 2, ℓ = 3, n = 5: the left side is a 2 x 5 matrix, the right side
  a 1 x 3 matrix"); a matrix of numbers against general sizes is now "not checked";
* a space as math.SE writes it (mathse-3400818-softmax-linear-dims: ``y \in\Bbb
  R^{1x5}, h\in \Bbb R^{1x 30}``): ``\Bbb R`` without braces and ``1x5`` with a letter x
  were not read as a real space ("not checked"), and a lowercase name in a space was
  taken for an index and dropped; ``h \in ...`` is a claim now, and ``y``, a name the
  target does not know, is unreadable (binding it as a free 1 x 5 matrix would call the
  page's correct ``dJ/db_2 = \hat{y} - y`` wrong: it follows from the page's own loss);
* Typora's ``\part`` for ``\partial`` (ouroboros-batchnorm-affine-zh, of the second
  round: ``\dfrac{\part y_i}{\part \hat{x_i}}``): read as the partial sign where it is
  not a heading's ``\part{Title}``;
* seen and left as they are: the page's own ``\ell_j`` is refused as "\ell is not a size
  of this derivation".

Each form is held by a claim that is right and the same claim with one slip; the
numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def softmax_backward():
    return symrow.backward(symrow.explain(r"P = \mathrm{softmax}(O)", {"O": (1, 3)}))


REAL = Path(__file__).resolve().parent / "check_cases" / "real"


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


SAME = r"\frac{\partial p_i}{\partial o_k} = p_k (1 - p_k)"           # i = k
OTHER = r"\frac{\partial p_i}{\partial o_k} = - p_k p_i"              # i ≠ k
SOFTMAX = r"p_i = \frac{ \exp (o_i) }{\sum_j \exp(o_j) }"


# -- a condition before a display framed by an environment --------------------------------------

FRAMED = [
    "If $i = k$,\n\\[\\begin{equation}\\begin{split} {claim} \\end{split}\\end{equation}\\]\n",
    "If $i = k$,\n\\[\\begin{equation} {claim} \\end{equation}\\]\n",
    "If $i = k$,\n$$\\begin{aligned} {claim} \\end{aligned}$$\n",
]
FRAMES = ["equation-split", "equation", "aligned"]


@pytest.mark.parametrize("text", FRAMED, ids=FRAMES)
def test_a_condition_before_a_framed_display_restricts_its_claim(text):
    report = symrow.check(text.replace("{claim}", SAME), against=softmax_backward())
    assert statuses(report) == ["holds"], report.to_text()      # was: wrong for i = 1, k = 2


@pytest.mark.parametrize("text", FRAMED, ids=FRAMES)
def test_a_slip_in_a_framed_display_after_a_condition_is_wrong(text):
    slip = SAME.replace("(1 - p_k)", "(1 + p_k)")
    report = symrow.check(text.replace("{claim}", slip), against=softmax_backward())
    assert statuses(report) == ["wrong"], report.to_text()


def test_the_wrong_condition_before_a_framed_display_is_wrong():
    text = FRAMED[0].replace("i = k", "i \\neq k").replace("{claim}", SAME)
    report = symrow.check(text, against=softmax_backward())
    assert statuses(report) == ["wrong"], report.to_text()


@pytest.mark.parametrize("claim, verdict", [(OTHER, "holds"), (OTHER.replace("- p_k", "p_k"),
                                                                "wrong")])
def test_a_condition_after_a_framed_display_restricts_its_claim(claim, verdict):
    text = "$$\\begin{aligned} " + claim.replace(" = ", " &= ") + \
           " \\end{aligned}$$ where $i \\neq k$.\n"
    report = symrow.check(text, against=softmax_backward())
    assert statuses(report) == [verdict], report.to_text()


# -- a condition glued to the display before it ---------------------------------------------------

GLUED = "\\[" + SOFTMAX + "\\]If $i = k$,\n\\[{claim}\\]\n"


def test_a_sentence_opening_with_a_condition_is_about_the_claim_after_it():
    report = symrow.check(GLUED.replace("{claim}", SAME), against=softmax_backward())
    assert statuses(report) == ["holds", "holds"], report.to_text()


def test_a_slip_after_a_glued_condition_is_wrong():
    slip = SAME.replace("(1 - p_k)", "(1 + p_k)")
    report = symrow.check(GLUED.replace("{claim}", slip), against=softmax_backward())
    assert statuses(report) == ["holds", "wrong"], report.to_text()


def test_a_condition_after_its_claim_still_restricts_that_claim():
    for text, want in [("$" + OTHER + "$ if $i \\neq k$.\n", ["holds"]),
                       ("$" + OTHER + "$ if $i \\neq k$, and so on.\n", ["holds"]),
                       ("$" + SAME + "$ if $i \\neq k$.\n", ["wrong"])]:
        report = symrow.check(text, against=softmax_backward())
        assert statuses(report) == want, report.to_text()


# -- the numbers ------------------------------------------------------------------------------

def test_the_forms_in_numbers():
    rng = np.random.default_rng(12)
    o = rng.normal(size=3)
    p = np.exp(o) / np.exp(o).sum()
    eps = 1e-6
    jac = np.zeros((3, 3))                                   # [i, k] = ∂p_i/∂o_k
    for k in range(3):
        d = np.zeros(3)
        d[k] = eps
        up, down = np.exp(o + d), np.exp(o - d)
        jac[:, k] = (up / up.sum() - down / down.sum()) / (2 * eps)
    for i in range(3):
        for k in range(3):
            if i == k:
                assert np.isclose(jac[i, k], p[k] * (1 - p[k]))          # SAME for i = k
                assert not np.isclose(jac[i, k], p[k] * (1 + p[k]))      # its slip
                assert not np.isclose(jac[i, k], -p[k] * p[i])           # OTHER is not it
            else:
                assert np.isclose(jac[i, k], -p[k] * p[i])               # OTHER for i ≠ k
                assert not np.isclose(jac[i, k], p[k] * p[i])            # its slip
                assert not np.isclose(jac[i, k], p[k] * (1 - p[k]))      # SAME is not it


def test_an_unknown_upper_bound_is_said_to_be_a_bound():
    d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
    for sum_ in (r"\sum_k^C", r"\sum_{k=1}^{C}"):
        step = symrow.check("$$ c_{12} = %s a_{1k} b_{k2} $$" % sum_, d).steps[0]
        assert step.status == "unreadable"
        assert "the upper bound C of a sum is not a size" in step.message, step.message
    assert symrow.check(r"$$ c_{12} = \sum_{k=1}^{\ell} a_{1k} b_{k2} $$", d).verdict == \
        "holds"


def test_a_chinese_page_is_reported_in_english_and_a_japanese_one_in_japanese():
    d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
    zh = "其中输出矩阵的每一行是 A 的行与 B 的结合：\n$$ C = AB $$\n"
    ja = "出力の各行は A の行と B の結合である。\n$$ C = AB $$\n"
    assert "holds" in symrow.check(zh, d).to_text()
    assert "verdict" in symrow.check(zh, d).to_text()
    assert "verdict" not in symrow.check(ja, d).to_text()


WORKED = "\n".join([
    r"$$ X = \begin{pmatrix}1&0\\0&1\\1&1\end{pmatrix}, \quad "
    r"W = \begin{pmatrix}1&2&3\\4&5&6\end{pmatrix} $$",
    r"$$ Y = XW = \begin{pmatrix}1&2&3\\4&5&6\\5&7&%d\end{pmatrix} $$",
    ""])


def test_a_worked_example_fixes_the_sizes_of_a_general_target():
    d = symrow.explain("Y = XW", {})                     # general: m, ell, n
    report = symrow.check(WORKED % 9, d)
    assert report.verdict == "holds", report.to_text()
    assert statuses(report) == ["defines", "defines", "holds", "holds"]
    assert any("fix the sizes (m = 3, ℓ = 2, n = 3)" in n for n in report.notes)
    assert symrow.check(WORKED % 8, d).verdict == "wrong"       # (3, 3) is 9, not 8


def test_numbers_that_contradict_the_first_are_wrong_on_their_line():
    d = symrow.explain("Y = XW", {})
    clash = (WORKED % 9).replace(r"4&5&6\end{pmatrix} $$", r"4&5&6\\1&1&1\end{pmatrix} $$")
    report = symrow.check(clash, d)        # W with 3 rows after X with 2 columns: XW undefined
    assert statuses(report)[:2] == ["defines", "wrong"], report.to_text()
    assert "3 x 3" in report.steps[1].message


def test_numbers_that_fix_no_sizes_are_not_checked_rather_than_wrong():
    d = symrow.explain("Y = XW", {})
    only = "$$ X = \\begin{pmatrix}1&0\\\\0&1\\end{pmatrix} $$\n$$ XW = \\begin{pmatrix}1&2\\\\3&4" \
        "\\end{pmatrix} $$\n"                         # n is left open: no sizes fixed
    report = symrow.check(only, d)
    assert report.verdict == "unchecked", report.to_text()
    assert "a matrix of numbers against general sizes" in report.steps[-1].message


def test_the_bias_row_of_a_worked_example_without_its_shape():
    text = (REAL / "hongseoi-affine-exercise-ko.md").read_text(encoding="utf-8")
    d = symrow.backward(symrow.explain("Y = XW + B", {}))
    report = symrow.check(text, d)
    assert report.verdict == "holds", report.to_text()
    assert any("B as one row, added to every row" in n for n in report.notes)
    slip = text.replace("[3,1,0]", "[3,1,1]")
    assert slip != text and symrow.check(slip, d).verdict == "wrong"


def test_a_general_derivation_with_an_example_stays_general():
    # a page that also writes in m, ell, n is checked at the size choices (an example
    # with m = n could not tell m from n); its numbers are then not checked
    d = symrow.explain("Y = XW", {})
    page = "Row $i$ of $Y$: $$ y_{ij} = \\sum_{k=1}^{\\ell} x_{ik} w_{kj} $$\n" + WORKED % 9
    report = symrow.check(page, d)
    assert "general" in report.to_text().splitlines()[0]
    assert statuses(report) == ["holds", "unchecked", "unchecked", "holds", "unchecked"]
    swapped = page.replace("x_{ik} w_{kj}", "x_{ik} w_{jk}")
    assert symrow.check(swapped, d).verdict == "wrong"


@pytest.mark.parametrize("space, status", [
    (r"\Bbb R^{1x 30}", "holds"),            # math.SE's spelling (mathse-3400818)
    (r"\mathbb{R}^{1 \times 30}", "holds"),
    (r"\Bbb R^{1x5}", "wrong"),              # h is 1 x 30
])
def test_a_vector_in_a_space_written_as_math_se_writes_it_is_a_claim(space, status):
    # \Bbb R without braces and 1x5 with a letter x were "not a real space" (not
    # checked), and a lowercase name in a space was taken for an index and dropped
    b = symrow.backward(symrow.explain("Z = hU + b_2", {"h": (1, 30), "U": (30, 5)}))
    report = symrow.check("$h \\in %s$\n" % space, b)
    assert statuses(report) == [status], report.to_text()


def test_typora_s_part_is_the_partial_sign():
    # Typora renders \part as ∂, and Chinese notes write \dfrac{\part l}{\part y}
    # (ouroboros-batchnorm-affine-zh); \part{Title} stays a heading's command
    b = symrow.backward(symrow.explain("Y = XW", {"X": (2, 2), "W": (2, 2)}))
    page = "$$ \\dfrac{\\part L}{\\part W} = %s \\dfrac{\\part L}{\\part Y} $$\n"
    assert statuses(symrow.check(page % "X^T", b)) == ["holds"]
    assert statuses(symrow.check(page % "X", b)) == ["wrong"]
    from symrow.reader.lexer import tokenize
    assert [t.text for t in tokenize(r"\part{Intro} \part l")][:2] == ["\\part", "{"]
