r"""Forms of published derivations that were new to symrow's checker (a second held-out set).

The pages added to ``check_cases/real/`` in this round showed these forms:

* a name spelt in text next to a relation (ouroboros-batchnorm-affine-zh:
  ``\text{input} = \begin{bmatrix} i_{11} & ... \end{bmatrix} \quad W = ... \quad
  \text{out} = ...``, then ``\text{out} = \text{input}\times W``): ``\text{out}`` is a
  side of the claim, not prose.  As prose it cut the display, and ``= [o_{ij}]`` went on
  the chain before it: ``W = [w_{ij}] = [o_{ij}]``, a claim the page never made, was
  called wrong (3 x 2 against 2 x 2).  Now the reader reads the name (a page's own name,
  followed to the derivation's matrix) or refuses it; ``\text{and}`` between two claims
  is still prose;
* ``\sum`` without its index (the same page, ``\sum\dfrac{dl}{do_{i}}``): the reason
  is said in Japanese too;
* general sizes named by the user (zh-matrix-derivative-notes: ``--shape W=mxn --shape
  X=nxp``, as the page names them): a backward pass keeps those names (they were renamed
  m, ell, n, so the page's ``\sum_{k=1}^{n} W_{ik}X_{kj}`` ran to another size and was
  called wrong);
* a blockquote around a display (the same page: ``> $$`` / ``> w = f(x, y)`` / ``> $$``):
  the ``>`` markers are Markdown, not relations (``... > w`` was a claim, called wrong);
* a condition before its claim (the same page: ``而当 $i \neq d$ 时，$$\frac{\partial
  Y_{ij}}{\partial W_{dc}} = 0$$``; ``If $i \neq d$, then ...``; ``$i \neq d$ のとき``):
  it restricts the claim after it, as one after a claim does (the claim was checked for
  every index and called wrong);
* the chain rule written formally between two values (``\frac{\partial L}{\partial X}
  = \frac{\partial L}{\partial Y}\frac{\partial Y}{\partial X} = \frac{\partial L}
  {\partial Y} W``): the values on either side are compared across it (no step was
  checked, and the slip W for W^T left the page 'holds'); the shorthand ``\frac{\partial
  Y}{\partial W} = X^T``, with nothing to compare across, is not read (it was 'not
  checked': ``= X`` passed too);
* the page's own vector and the entries of the matrix of its letter
  (brightlamp-affine-backward-csdn: ``w = (w_1, ..., w_k)``, then ``a_{ij} = \sum_t
  x_{it} w_{jt} + b_j``): two indices are an entry of W, not of the page's vector w (read
  as row j of a 1 x k w, "no row 2", the right entry formula was called wrong).

Each form is held by a claim that is right and the same claim with one slip; the
numbers are confirmed in numpy at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow

pytestmark = pytest.mark.parsers("builtin")


def affine():
    return symrow.backward(symrow.explain("O = IW + b", {"I": (2, 3), "W": (3, 2)}))


def statuses(report) -> list[str]:
    return [s.status for s in report.steps]


# -- a name spelt in text next to a relation ----------------------------------------------------

SIDE_BY_SIDE = "\n".join([
    "$$",
    r"\text{input} = \begin{bmatrix} i_{11} & i_{12} & i_{13} \\ i_{21} & i_{22} & i_{23}"
    r" \end{bmatrix}",
    "",
    r"\quad",
    r"W= \begin{bmatrix} w_{11} & w_{12} \\ w_{21} & w_{22} \\ w_{31} & w_{32} \end{bmatrix}",
    r"\quad",
    "",
    r"\text{out}= \begin{bmatrix} o_{11} & o_{12} \\ o_{21} & o_{22} \end{bmatrix}",
    "$$",
    "",
])


def test_definitions_side_by_side_with_names_in_text_are_three_claims():
    report = symrow.check(SIDE_BY_SIDE, against=affine())
    assert statuses(report) == ["defines", "holds", "defines"], report.to_text()
    assert report.verdict != "wrong"            # was: W = [w] = [o], 3 x 2 against 2 x 2


def test_a_claim_in_names_spelt_in_text_holds():
    report = symrow.check(SIDE_BY_SIDE + r"其中$\text{out}=\text{input}\times W + b$" + "\n",
                          against=affine())
    assert statuses(report)[-1] == "holds", report.to_text()
    assert report.verdict == "holds", report.to_text()


@pytest.mark.parametrize("slip", [
    r"\text{out}=\text{input}\times W",           # the bias left out (the page's own slip)
    r"\text{out}=W\times\text{input} + b",        # the factors swapped: 3x2 times 2x3
    r"\text{out}=\text{input}\times W - b",       # the bias's sign
])
def test_a_slip_in_names_spelt_in_text_is_wrong(slip):
    report = symrow.check(SIDE_BY_SIDE + "其中$" + slip + "$\n", against=affine())
    assert statuses(report)[-1] == "wrong", report.to_text()
    assert report.verdict == "wrong"


@pytest.mark.parametrize("name", [r"\text{Score}", r"\text{out}", r"\textrm{out}",
                                  r"\mathrm{out}"])
def test_an_entry_of_a_name_spelt_in_text_is_read(name):
    # \text{Score}_{ij} (issue 25's list of the writer's names): the word with an index
    # was prose, and its '_' had "nothing to attach to"; numpy's C[0, 1] for A, B of
    # a_ij, b_ij is a11 b12 + a12 b22 + a13 b32
    d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
    page = "$$ %s = AB $$\n$$ %s_{12} = a_{11} b_{12} + a_{12} b_{%d} + a_{13} b_{32} $$\n"
    assert statuses(symrow.check(page % (name, name, 22), d)) == ["defines", "holds"]
    assert statuses(symrow.check(page % (name, name, 21), d)) == ["defines", "wrong"]


def test_an_undefined_name_in_text_is_not_read():
    report = symrow.check(r"其中$\text{out}=\text{input}\times W + b$" + "\n", against=affine())
    assert report.verdict == "unreadable", report.to_text()


def test_text_between_two_claims_is_still_prose():
    report = symrow.check(r"$$ W = \begin{bmatrix} w_{11} & w_{12} \\ w_{21} & w_{22} \\ "
                          r"w_{31} & w_{32} \end{bmatrix} \quad \text{and} \quad "
                          r"o_{11} = i_{11}w_{11}+i_{12}w_{21}+i_{13}w_{31}+b_1 $$" + "\n",
                          against=affine())
    assert statuses(report) == ["holds", "holds"], report.to_text()
    report = symrow.check(r"$$ W = \begin{bmatrix} w_{11} & w_{12} \\ w_{21} & w_{22} \\ "
                          r"w_{31} & w_{32} \end{bmatrix} \quad \text{and} \quad "
                          r"o_{11} = i_{11}w_{11}+i_{12}w_{21}+i_{13}w_{31}+b_2 $$" + "\n",
                          against=affine())
    assert statuses(report) == ["holds", "wrong"], report.to_text()


# -- \sum without its index, in Japanese ---------------------------------------------------------

def test_a_sum_without_its_index_is_said_in_japanese():
    report = symrow.check(r"$\dfrac{dl}{db}=\sum\dfrac{dl}{do_{i}}$" + "\n", against=affine())
    assert report.verdict == "unreadable", report.to_text()
    text = report.to_text(lang="ja")
    assert "添字を書く" in text and "needs its index" not in text, text


# -- general sizes keep their names ---------------------------------------------------------------

def general_wx():
    return symrow.backward(symrow.explain("Y = WX", {"W": ("m", "n"), "X": ("n", "p")}))


def test_a_backward_pass_keeps_the_general_size_names_it_was_given():
    from symrow.checker.general import size_names
    assert size_names(general_wx()) == ["m", "n", "p"]
    report = symrow.check("$$\nY_{ij} = \\sum_{k=1}^{n}W_{ik}X_{kj}\n$$\n", against=general_wx())
    assert statuses(report) == ["holds"], report.to_text()


@pytest.mark.parametrize("slip", [r"\sum_{k=1}^{p}W_{ik}X_{kj}", r"\sum_{k=1}^{n}W_{ki}X_{kj}",
                                  r"\sum_{k=1}^{n}W_{ik}X_{jk}"])
def test_a_slip_in_the_general_size_names_is_wrong(slip):
    report = symrow.check("$$\nY_{ij} = " + slip + "\n$$\n", against=general_wx())
    assert statuses(report) == ["wrong"], report.to_text()


# -- a blockquote around a display ----------------------------------------------------------------

def wx():
    return symrow.backward(symrow.explain("Y = WX", {"W": (2, 3), "X": (3, 4)}))


QUOTED = "$$\nY = WX\n$$\n\n> 则\n> \n> $$\n> {claim}\n> $$\n> \n> 也就是说\n"


def test_a_display_in_a_blockquote_is_read_without_its_markers():
    report = symrow.check(QUOTED.format(claim=r"Y_{ij} = \sum_{k=1}^{3}W_{ik}X_{kj}"),
                          against=wx())
    assert statuses(report) == ["holds", "holds"], report.to_text()
    report = symrow.check(QUOTED.format(claim=r"w = f(x, y)"), against=wx())
    assert "wrong" not in statuses(report), report.to_text()   # was: Y = WX > w, wrong


def test_a_slip_in_a_blockquote_is_wrong():
    report = symrow.check(QUOTED.format(claim=r"Y_{ij} = \sum_{k=1}^{3}W_{kj}X_{ik}"),
                          against=wx())
    assert statuses(report) == ["holds", "wrong"], report.to_text()


# -- a condition before its claim -----------------------------------------------------------------

ZERO = r"\frac{\partial Y_{ij}}{\partial W_{dc}} = 0"


@pytest.mark.parametrize("text", [
    "而当 $i \\neq d$ 时，\n\n$$\n" + ZERO + "\n$$\n",
    "If $i \\neq d$, then $" + ZERO + "$.\n",
    "$i \\neq d$ のとき $" + ZERO + "$\n",
])
def test_a_condition_before_its_claim_restricts_it(text):
    report = symrow.check(text, against=wx())
    assert statuses(report) == ["holds"], report.to_text()


@pytest.mark.parametrize("text", [
    "而当 $i = d$ 时，\n\n$$\n" + ZERO + "\n$$\n",               # the wrong condition
    "If $i \\neq d$, then $" + ZERO.replace("W_{dc}", "W_{ic}") + "$.\n",   # the claim slipped
    "We have $i \\neq d$ and $" + ZERO + "$\n",                  # no 'if': not a condition
])
def test_a_slip_with_a_condition_before_it_is_wrong(text):
    report = symrow.check(text, against=wx())
    assert statuses(report) == ["wrong"], report.to_text()


# -- the chain rule written formally --------------------------------------------------------------

def xw():
    return symrow.backward(symrow.explain("Y = XW", {"X": (2, 3), "W": (3, 4)}))


FORMAL = r"\frac{\partial L}{\partial X} = \frac{\partial L}{\partial Y} " \
         r"\frac{\partial Y}{\partial X} = \frac{\partial L}{\partial Y} "


def test_values_across_the_chain_rule_written_formally_are_compared():
    report = symrow.check("$$\n" + FORMAL + "W^T\n$$\n", against=xw())
    assert statuses(report) == ["unchecked", "holds"], report.to_text()
    assert report.verdict == "holds"


@pytest.mark.parametrize("slip", ["W", "W^T W", "X^T"])
def test_a_slip_across_the_chain_rule_written_formally_is_wrong(slip):
    report = symrow.check("$$\n" + FORMAL + slip + "\n$$\n", against=xw())
    assert statuses(report) == ["unchecked", "wrong"], report.to_text()
    assert report.verdict == "wrong"                    # was: unchecked, and 'holds' beside


@pytest.mark.parametrize("right", ["X^T", "X", "W"])
def test_the_shorthand_of_a_jacobian_is_not_read(right):
    report = symrow.check("$$\nY = XW\n$$\n\n$$\n\\frac{\\partial Y}{\\partial W} = " + right +
                          "\n$$\n", against=xw())
    assert statuses(report) == ["holds", "unreadable"], report.to_text()
    assert report.verdict == "unreadable"               # never 'holds': = X is a slip too


def test_the_chain_rule_itself_is_still_not_checked():
    # a gradient equal to the chain rule written formally, and nothing after it
    report = symrow.check("$$\n\\frac{\\partial L}{\\partial X} = \\frac{\\partial L}"
                          "{\\partial Y} \\frac{\\partial Y}{\\partial X}\n$$\n", against=xw())
    assert statuses(report) == ["unchecked"], report.to_text()


def test_a_naive_chain_rule_after_the_gradient_held_is_a_remark():
    # frobenius-linear-backprop: the gradient given, then what the naive chain rule gives
    page = ("$$\n\\frac{\\partial L}{\\partial W} = X^T \\frac{\\partial L}{\\partial Y}\n$$\n\n"
            "$$\n\\frac{\\partial L}{\\partial W} = \\frac{\\partial L}{\\partial Y} "
            "\\frac{\\partial Y}{\\partial W} = \\frac{\\partial L}{\\partial Y} X\n$$\n")
    report = symrow.check(page, against=xw())
    assert statuses(report) == ["holds", "unchecked", "unchecked"], report.to_text()
    report = symrow.check(page.replace("= X^T \\frac", "= X \\frac", 1), against=xw())
    assert statuses(report)[0] == "wrong", report.to_text()


# -- the page's own vector and the entries of the matrix of its letter ------------------------------

def affine_t():
    return symrow.backward(symrow.explain("A = XW^T + b", {"X": ("m", "k"), "W": ("n", "k")}))


VECTOR = "$$\nw = (w_1, w_2,w_3,\\cdots,w_k)\n$$\n\n$$\na_{ij} =\\sum_{t=1}^{k} x_{it} \\cdot  w_{%s} + b_%s\n$$\n"


def test_two_indices_on_the_letter_of_a_page_vector_are_an_entry_of_the_matrix():
    report = symrow.check(VECTOR % ("jt", "j"), against=affine_t())
    assert statuses(report) == ["defines", "holds"], report.to_text()


@pytest.mark.parametrize("slip", [("tj", "j"), ("jt", "i"), ("it", "j")])
def test_a_slip_in_the_entries_of_the_matrix_beside_a_page_vector_is_wrong(slip):
    report = symrow.check(VECTOR % slip, against=affine_t())
    assert statuses(report) == ["defines", "wrong"], report.to_text()


# -- the numbers ------------------------------------------------------------------------------

def test_the_forms_in_numbers():
    rng = np.random.default_rng(11)
    i, w, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 2)), rng.normal(size=(1, 2))
    out = i @ w + b
    assert np.isclose(out[0, 0], i[0, 0] * w[0, 0] + i[0, 1] * w[1, 0] + i[0, 2] * w[2, 0]
                      + b[0, 0])                             # o_11 with b_1
    assert not np.isclose(out[0, 0], i[0] @ w[:, 0] + b[0, 1])   # not with b_2
    assert not np.allclose(out, i @ w) and not np.allclose(out, i @ w - b)
    with pytest.raises(ValueError):
        w @ i + b                                            # W × input: (3,2)(2,3) + (1,2)
    assert w.shape != out.shape                              # [w] = [o] is no claim to make
    # Y = WX at W m x n, X n x p: Y_ij = Σ_{k=1}^{n} W_ik X_kj, ∂Y_ij/∂W_dc = δ_id X_cj
    w, x = rng.normal(size=(2, 3)), rng.normal(size=(3, 4))
    y = np.array([[sum(w[a, k] * x[k, c] for k in range(3)) for c in range(4)] for a in range(2)])
    assert np.allclose(y, w @ x)
    e = np.zeros_like(w)
    e[1, 2] = 1e-6
    jac = ((w + e) @ x - (w - e) @ x) / 2e-6
    assert np.allclose(jac[0], 0) and np.allclose(jac[1], x[2])      # zero for i ≠ d only
    # ∂L/∂X for Y = XW: G W^T, not G W (nor W^T W, X^T)
    x, w, g = rng.normal(size=(2, 3)), rng.normal(size=(3, 4)), rng.normal(size=(2, 4))
    eps = 1e-6
    dx = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        dx[idx] = (np.sum(g * ((x + d) @ w)) - np.sum(g * ((x - d) @ w))) / (2 * eps)
    assert np.allclose(dx, g @ w.T)
    with pytest.raises(ValueError):
        g @ w                                                # ∂L/∂Y W: (2,4)(3,4)
    with pytest.raises(ValueError):
        g @ x                                                # ∂L/∂Y X: the naive dL/dW
    # A = XW^T + b: a_ij = Σ_t x_it w_jt + b_j (W's entries), not w_tj, not b_i
    x, w, b = rng.normal(size=(2, 3)), rng.normal(size=(4, 3)), rng.normal(size=(1, 4))
    a = x @ w.T + b
    assert np.isclose(a[0, 1], x[0] @ w[1] + b[0, 1]) and not np.isclose(a[0, 1], x[0] @ w[0] + b[0, 1])
    assert not np.isclose(a[1, 0], x[1] @ w[0] + b[0, 1])
