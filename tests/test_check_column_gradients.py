"""A linear layer's gradients in the column convention, as w32zhong/simp-intelligence writes
them (tests/check_cases/real/w32zhong-linear-layer-gradients.md): the gradient of the
column y written ``\\nabla_y \\ell``, a transposed gradient ``\\nabla^T_w \\ell``, the shape
of a value written under it (``(x^T)_{1 \\times n}``, ``\\end{bmatrix}_{m \\times n}``),
a matrix whose rows end in ``\\vdots``, and a definition whose right side cannot be read.

Every form is read against ``Y = WX + B`` with W 2 x 3 and X a 3 x 1 column, the page's
own command; each has a version that holds and one that is wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

AGAINST = "Y = WX + B"


def _check(page: str, rows: int = 2, lang: str = "en"):
    target = symrow.backward(symrow.explain(AGAINST, {"W": (rows, 3), "X": (3, 1)}))
    return symrow.check(page, against=target, parser="builtin", lang=lang)


def _statuses(report) -> list[str]:
    return [step.status for step in report.steps]


SIZES = r"A linear layer computes $y_{m \times 1} = W_{m \times n} x_{n \times 1} + b_{m \times 1}$."

UNROLLED = r"""
$$
\nabla_W \ell =
\begin{bmatrix}
x_1 \frac{\partial \ell}{\partial y_1} & x_2 \frac{\partial \ell}{\partial y_1} & ... & x_n \frac{\partial \ell}{\partial y_1} \\
x_1 \frac{\partial \ell}{\partial y_2} & x_2 \frac{\partial \ell}{\partial y_2} & ... & x_n \frac{\partial \ell}{\partial y_2} \\
\vdots
\end{bmatrix}_{m \times n}
= (\nabla_y \ell)_{m \times 1} \cdot (x^T)_{1 \times n}
$$
"""


def test_the_hand_verdict_in_numbers():
    """∇_W ℓ = (∇_y ℓ) x^T for ℓ = g·(Wx + b), by central differences (numpy only)."""
    rng = np.random.default_rng(3)
    W, x, b, g = rng.normal(size=(4, 3)), rng.normal(size=3), rng.normal(size=4), \
        rng.normal(size=4)
    loss = lambda W: g @ (W @ x + b)          # noqa: E731
    h, numeric = 1e-6, np.zeros_like(W)
    for i in range(4):
        for j in range(3):
            E = np.zeros_like(W)
            E[i, j] = h
            numeric[i, j] = (loss(W + E) - loss(W - E)) / (2 * h)
    assert np.allclose(numeric, np.outer(g, x), atol=1e-6)


def test_the_gradient_of_the_column_y():
    report = _check(r"$\nabla_W \ell = (\nabla_y \ell) \cdot (x^T)$")
    assert _statuses(report) == ["holds"]
    assert any("\\bar{Y}" in note for note in report.notes), report.notes
    wrong = _check(r"$\nabla_W \ell = 2 (\nabla_y \ell) \cdot (x^T)$")
    assert _statuses(wrong) == ["wrong"]


@pytest.mark.parametrize("written", [r"\nabla^T_W \ell", r"\nabla_W^T \ell",
                                     r"\nabla^{\top}_W \ell"])
def test_a_transposed_gradient(written):
    report = _check(f"$${written} = x \\nabla^T_y \\ell$$")
    assert _statuses(report) == ["holds"]
    assert report.steps[0].left == written          # shown as the student wrote it
    assert _statuses(_check(f"$${written} = 3 x \\nabla^T_y \\ell$$")) == ["wrong"]


def test_the_shape_written_under_a_value():
    assert _statuses(_check(SIZES + "\n\n" + r"$\nabla_W \ell = (\nabla_y \ell)_{m \times 1} "
                            r"\cdot (x^T)_{1 \times n}$")) == ["holds", "holds"]
    wrong = _check(r"$\nabla_W \ell = (\nabla_y \ell)_{2 \times 1} \cdot (x^T)_{3 \times 1}$")
    assert _statuses(wrong) == ["wrong"]
    assert "the page writes 3 rows under a 1 x 3 value" in wrong.steps[0].message
    ja = _check(r"$\nabla_W \ell = (\nabla_y \ell)_{2 \times 1} \cdot (x^T)_{3 \times 1}$",
                lang="ja")
    assert "ページはこの値の下に 3 行と書くが" in ja.to_text()


def test_a_size_the_page_named_is_held_to_its_value():
    """n is the page's (3, the columns of W, from line 15): a 1 x n that is 1 x 2 is wrong."""
    report = _check(SIZES + "\n\n" + r"$(x^T)_{1 \times n} = (x_1, x_2, x_3)$" "\n\n"
                    r"$(\nabla_y \ell)_{n \times 1} = (\nabla_y \ell)$")
    assert _statuses(report) == ["holds", "holds", "wrong"]


@pytest.mark.parametrize("rows", [2, 4])
def test_rows_ending_in_vdots(rows):
    """Two rows, then ⋮ to the m rows the shape under the matrix gives: at m = 4, rows 3 and
    4 come from the pattern of the first two."""
    report = _check(SIZES + "\n" + UNROLLED, rows=rows)
    assert _statuses(report) == ["holds", "holds", "holds"], report.to_text()


def test_rows_ending_in_vdots_with_a_wrong_entry():
    page = SIZES + "\n" + UNROLLED.replace(
        r"x_2 \frac{\partial \ell}{\partial y_2} & ... & x_n \frac{\partial \ell}{\partial y_2}",
        r"x_2 \frac{\partial \ell}{\partial y_1} & ... & x_n \frac{\partial \ell}{\partial y_2}")
    report = _check(page, rows=4)
    assert _statuses(report)[1:] == ["wrong", "wrong"], report.to_text()


def test_rows_ending_in_vdots_need_the_shape():
    page = UNROLLED.replace(r"\end{bmatrix}_{m \times n}", r"\end{bmatrix}")
    report = _check(page)
    assert _statuses(report) == ["unreadable", "unreadable"]
    assert "the shape under it" in report.steps[0].message


def test_a_definition_that_cannot_be_read_is_named_where_it_is_used():
    page = (r"$$J_w = \begin{bmatrix} x_1 & \cdots & x_n & 0 & \cdots & 0 \\ 0 & \cdots & 0 "
            r"& x_1 & \cdots & x_n \end{bmatrix}$$" "\n\n"
            r"$$\nabla_W \ell = \nabla_y \ell \cdot J_w$$")
    report = _check(page)
    assert _statuses(report) == ["unreadable", "unreadable"]
    assert report.steps[0].message.startswith("the page's definition of J_w: ")
    assert "J_w: its definition (line 1) could not be read" in report.steps[1].message
    ja = _check(page, lang="ja").to_text()
    assert "ページによる J_w の定義" in ja and "その定義（1 行目）が読めなかった" in ja


ENTRIES = r"""Because $y_i = W_{i,1} x_1 + W_{i,2} x_2 + ... + W_{i,n} x_n + b_i$, we have
$\partial y_i / \partial W_{i,j} = x_j$ and
$\partial y_k / \partial W_{i,j} = 0$ for $k \not= i$.
"""


def test_an_entrys_derivative_on_one_line_with_its_condition():
    """The page's lines 28-30: the derivative of y_i by an entry of W is a claim (it names
    no gradient of the loss), and ``for $k \\not= i$`` restricts the claim before it."""
    report = _check(SIZES + "\n\n" + ENTRIES)
    assert _statuses(report) == ["holds"] * 4, report.to_text()
    for wrong in (ENTRIES.replace("= x_j$", "= x_i$"),
                  ENTRIES.replace(r"$k \not= i$", "$k = i$"),
                  ENTRIES.replace(r" for $k \not= i$", "")):
        assert "wrong" in _statuses(_check(SIZES + "\n\n" + wrong)), wrong


def test_terms_written_past_the_end_are_not_judged():
    """Without the page's sizes (line 15), its n is this derivation's n = 1 (X is 3 x 1),
    and the terms W_{i,2} x_2 it writes lie past the end: not checked, never wrong."""
    report = _check(ENTRIES)
    assert report.steps[0].status == "unchecked"
    assert "the page's sizes are not this derivation's" in report.steps[0].message
    ja = _check(ENTRIES, lang="ja").to_text()
    assert "ページの大きさはこの導出のものと違う" in ja


def test_a_product_of_matrices_written_over_lines_is_one_side():
    r"""shinnkura/learning's matrix_backward.ipynb writes ``& = \left(`` at the end of a line,
    the array on the lines below, ``\right)``, then the second factor's ``\left(`` on a
    line of its own: one side of one equation, not a new equation at each line break."""
    page = r"""$$  \begin{aligned} \\
\nabla^T_W \ell & = x \nabla^T_y \ell \\
& = \left(
    \begin{array}{c}
      x_{1} \\
      x_{2} \\
      x_{3} \\
    \end{array}
  \right)
\left(
    \begin{array}{cc}
      \frac{\partial \ell}{\partial y_1} & \frac{\partial \ell}{\partial y_2} \\
    \end{array}
  \right)
  \end{aligned}
  $$"""
    report = _check(page)
    assert _statuses(report) == ["holds", "holds"], report.to_text()
    assert _statuses(_check(page.replace(r"x_{2} \\", r"x_{1} \\"))) == ["holds", "wrong"]


def test_the_gradient_written_partial_against_its_name():
    """shinnkura/learning writes ∂W = X^T Δ and ∂X = Δ W^T: the ∂ against a matrix's name,
    with no loss, is its gradient (as dW is); a derivative on one line keeps its ∂'s."""
    target = symrow.backward(symrow.explain("Y = XW + b", {"X": (3, 2), "W": (2, 4)}))
    page = (r"$$\partial W = X^{\mathrm{T}} \bar{Y}$$" "\n\n" r"$$\partial X = \bar{Y} W^T$$")
    assert _statuses(symrow.check(page, against=target, parser="builtin")) == ["holds"] * 2
    wrong = page.replace(r"\bar{Y} W^T", r"2 \bar{Y} W^T")
    assert _statuses(symrow.check(wrong, against=target, parser="builtin")) == \
        ["holds", "wrong"]
    assert _statuses(_check(r"$$\partial y_k / \partial W_{i,j} = 0$$ for $k \ne i$.")) == \
        ["holds"]


COLUMN_LAYER = r"""$$z = Wx + b$$

$$\frac{\partial L}{\partial W} = \frac{\partial L}{\partial z} \cdot x^T$$

$$\frac{\partial L}{\partial x} = W^T \frac{\partial L}{\partial z}$$

$$\frac{\partial L}{\partial b} = \frac{\partial L}{\partial z}$$
"""


def test_a_column_formula_checks_a_page_in_its_own_convention():
    """HetanshWaghela/basic_ml_dl's matrix_form_backprop.md against ``z = Wx + b`` (x 2 x 1):
    symrow reads the formula in the row view (x a row), and the page, which writes x, z
    and b as the columns the formula has, is read with column vectors: it holds, where it
    was called wrong at every product.  No hint compares it with the row view's order."""
    target = symrow.backward(symrow.explain("z = Wx + b", {"W": (3, 2), "x": (2, 1),
                                                           "b": (3, 1)}))
    report = symrow.check(COLUMN_LAYER, against=target, parser="builtin")
    assert _statuses(report) == ["holds"] * 4, report.to_text()
    assert report.convention.startswith("column vectors")
    wrong = symrow.check(COLUMN_LAYER.replace(r"= W^T \frac", r"= 2 W^T \frac"),
                         against=target, parser="builtin")
    assert _statuses(wrong) == ["holds", "holds", "wrong", "holds"]
    assert "wrong order" not in wrong.to_text()
    undefined = symrow.check(COLUMN_LAYER.replace(r"= W^T \frac", r"= W \frac"),
                             against=target, parser="builtin")
    assert _statuses(undefined)[2] == "wrong"


def test_a_row_formula_keeps_the_row_reading():
    """Against Y = XW + b (rows), a whole vector is not turned into a column: x is X."""
    target = symrow.backward(symrow.explain("Y = XW + b", {"X": (1, 2), "W": (2, 3)}))
    report = symrow.check(r"$$Y = XW + b$$" "\n\n" r"$$\bar{W} = X^T \bar{Y}$$",
                          against=target, parser="builtin")
    assert _statuses(report) == ["holds", "holds"], report.to_text()


def test_a_lower_case_loss():
    """robotchinwag.com writes the loss l: \\frac{\\partial l}{\\partial X} is X's gradient
    when the formula has no l of its own."""
    target = symrow.backward(symrow.explain("Y = XA^T", {"X": (2, 3), "A": (4, 3)}))
    page = (r"$$\frac{\partial l}{\partial X} = \frac{\partial l}{\partial Y} A$$" "\n\n"
            r"$$\frac{\partial l}{\partial A} = \left(\frac{\partial l}{\partial Y}\right)^T X$$")
    assert _statuses(symrow.check(page, against=target, parser="builtin")) == ["holds"] * 2
    wrong = page.replace(r"\frac{\partial l}{\partial Y} A$$", r"\frac{\partial l}{\partial Y} A^T$$")
    assert _statuses(symrow.check(wrong, against=target, parser="builtin"))[0] == "wrong"


def test_an_activation_before_the_layer_gives_the_upstream_in_the_pages_names():
    """HetanshWaghela's Step 2: ``a = \\sigma(z)``, then ``\\partial L/\\partial z =
    \\partial L/\\partial a \\odot \\sigma'(z)``: the page's upstream in names of its own,
    \\bar{a} of a's shape (a column here), solved for; the layer's gradients after it are
    judged with it."""
    target = symrow.backward(symrow.explain("z = Wx + b", {"W": (3, 2), "x": (2, 1),
                                                           "b": (3, 1)}))
    page = (r"$$a = \sigma(z)$$" "\n\n"
            r"$$\frac{\partial L}{\partial z} = \frac{\partial L}{\partial a} \odot \sigma'(z)$$"
            "\n\n" + COLUMN_LAYER)
    report = symrow.check(page, against=target, parser="builtin")
    assert _statuses(report)[:2] == ["defines", "defines"], report.to_text()
    assert "\\bar{a} \\in \\mathbb{R}^{3 \\times 1}" in report.steps[1].message
    assert report.verdict == "holds", report.to_text()
