"""Forms that published backward passes use, read as written (issue 25).

From joyabrata-das/ML_DL's MNIST_scratch.ipynb (tests/check_cases/real/
joyabrata-mlp-relu-backward.ipynb): results framed in ``\\boxed{...}``, the ReLU mask
written as an indicator ``\\mathbb{1}(z_1 > 0)``, and the upstream gradient of the
softmax with cross-entropy given in the page's own names, ``\\frac{1}{B}(\\hat{Y} - Y)``
(Y the labels, B the batch size), which the target leaves free.
"""

from __future__ import annotations

import numpy as np
import pytest

import symrow
from symrow.reader.entries.superscripts import summation_stated

MLP = r"z_1 = XW_1 + b_1; a_1 = \mathrm{ReLU}(z_1); z_2 = a_1 W_2 + b_2"
SHAPES = {"X": (3, 2), "W_1": (2, 3), "W_2": (3, 2)}


@pytest.fixture(scope="module")
def backward():
    return symrow.backward(symrow.explain(MLP, SHAPES))


def _check(text, backward):
    return symrow.check(text, against=backward, parser="builtin")


def test_a_boxed_result_is_a_claim(backward):
    """It was skipped without a word: the box is one group, with no '=' at the top."""
    page = (r"$$\boxed{\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T "
            r"\frac{\partial \mathcal{L}}{\partial z_2}}$$" "\n\n"
            r"$$\boxed{\frac{\partial \mathcal{L}}{\partial W_2} = a_1 "
            r"\frac{\partial \mathcal{L}}{\partial z_2}}$$")
    report = _check(page, backward)
    assert [s.status for s in report.steps] == ["holds", "wrong"]


@pytest.mark.parametrize("mask", [r"\mathbb{1}(z_1 > 0)", r"\mathbb{1}[z_1 > 0]",
                                  r"\mathbb{1}_{z_1 > 0}", r"\mathbf{1}[z_1 > 0]",
                                  r"\mathbb{I}(z_1>0)", r"1\{z_1>0\}",
                                  r"\mathbb{1}\left(0 < z_1\right)", r"\mathbb{1}(z_1 \geq 0)",
                                  r"\mathbb{1} (z_1 > 0)"])   # not a condition ending the line
def test_the_indicator_is_the_relu_mask(mask, backward):
    page = (r"$$\frac{\partial L}{\partial z_1} = \frac{\partial L}{\partial a_1} \odot "
            + mask + "$$")
    assert _check(page, backward).verdict == "holds"


def test_the_indicator_the_wrong_way_round_is_wrong(backward):
    page = (r"$$\frac{\partial L}{\partial z_1} = \frac{\partial L}{\partial a_1} \odot "
            r"\mathbb{1}(z_1 < 0)$$")
    assert _check(page, backward).verdict == "wrong"


UPSTREAM = (r"$$\hat{Y} = \mathrm{softmax}(z_2)$$" "\n\n"
            r"$$\frac{\partial \mathcal{L}}{\partial z_2} = \frac{1}{B}(\hat{Y} - Y)$$" "\n\n")


def test_an_upstream_gradient_in_the_pages_own_names(backward):
    page = UPSTREAM + (r"$$\frac{\partial \mathcal{L}}{\partial W_2} = \frac{1}{B} a_1^T "
                       r"(\hat{Y} - Y)$$")
    report = _check(page, backward)
    assert [s.status for s in report.steps] == ["defines", "defines", "holds"]
    said = report.steps[1].message
    assert r"Y \in \mathbb{R}^{3 \times 2}" in said and "B > 0" in said


def test_the_dropped_one_over_b_is_found(backward):
    """The page's slip: dL/dW_2 = a_1^T (Ŷ - Y), without the 1/B of its own Step 1."""
    page = UPSTREAM + r"$$\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T (\hat{Y} - Y)$$"
    report = _check(page, backward)
    assert report.steps[-1].status == "wrong"
    # the same in numbers: with G = (Ŷ - Y)/B, a_1^T G and a_1^T (Ŷ - Y) differ by B
    rng = np.random.default_rng(25)
    a1, yhat, y, B = rng.normal(size=(3, 3)), rng.random((3, 2)), rng.random((3, 2)), 3
    assert not np.allclose(a1.T @ ((yhat - y) / B), a1.T @ (yhat - y))


def test_an_upstream_line_with_two_unknown_matrices_is_not_guessed(backward):
    """U - V: two new matrices and one equation; nothing says which is which, so the
    line stays unread rather than bound on a guess."""
    page = UPSTREAM.split("\n\n")[0] + "\n\n" + (
        r"$$\frac{\partial \mathcal{L}}{\partial z_2} = U - V$$")
    report = _check(page, backward)
    assert report.steps[-1].status == "unreadable"


def test_the_hint_names_the_pages_own_factor_in_both_languages(backward):
    page = UPSTREAM + r"$$\frac{\partial \mathcal{L}}{\partial W_2} = a_1^T (\hat{Y} - Y)$$"
    report = _check(page, backward)
    assert "the factor 1/B is missing" in report.to_text("en")
    ja = report.to_text("ja")
    assert "係数 1/B が抜けている" in ja and "ページ自身の名前による上流の勾配" in ja


def test_d_before_a_name_is_its_gradient():
    """CS231n's dW = X^T dY and the backward pass of FlashAttention (Dao et al., 2022,
    arXiv:2205.14135, appendix B.2: dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q)."""
    linear = symrow.backward(symrow.explain("Y = XW", {"X": (2, 3), "W": (3, 2)}))
    page = "$$dW = X^T dY$$\n\n$$\\delta X = \\delta Y W^T$$\n\n$$dX = dY W$$"
    assert [s.status for s in _check(page, linear).steps] == ["holds", "holds", "wrong"]
    att = symrow.backward(symrow.attention(2, 2, 2))
    page = ("$$dV = P^T dO$$\n\n$$dP = dO V^T$$\n\n$$dQ = dS K$$\n\n$$dK = dS^T Q$$")
    assert _check(page, att).verdict == "holds"


# -- the page's own name for the target's input (rainbow-engine-softmax-derivative.md) ----------

SOFTMAX = r"P = \mathrm{softmax}(S)"
SOFTMAX_LINE = r"$$ softmax(x)_i = \frac{e^{x_i}}{\sum^{n}_{j=1}e^{x_j}} \quad (i=1,2,…,n) $$"


@pytest.fixture(scope="module")
def softmax_row():
    return symrow.backward(symrow.explain(SOFTMAX, {"S": (1, 3)}))


def _np_softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def test_a_name_only_in_softmax_of_it_is_the_targets_input(softmax_row):
    """x appears bare only as softmax(x), and the target is softmax(S): x is S, x_i its
    entries, and the n its sums run to is its length; the reading is said."""
    report = _check(SOFTMAX_LINE, softmax_row)
    assert [s.status for s in report.steps] == ["holds"]
    (note,) = report.notes
    assert "x is read as S" in note and "n as its length (3)" in note
    ja = report.to_text("ja")
    assert "x は S と読む" in ja and "n はその長さ 3 と読む" in ja
    # the same in numbers: e^{x_i} / sum_j e^{x_j} is softmax(x); e^{2 x_i} / ... is not
    x = np.random.default_rng(55).normal(size=3)
    assert np.allclose(np.exp(x) / np.exp(x).sum(), _np_softmax(x))
    assert not np.allclose(np.exp(2 * x) / np.exp(x).sum(), _np_softmax(x))
    wrong = SOFTMAX_LINE.replace(r"\frac{e^{x_i}}", r"\frac{e^{2x_i}}")
    assert [s.status for s in _check(wrong, softmax_row).steps] == ["wrong"]


@pytest.mark.parametrize("formula, shapes", [
    (r"P = \mathrm{softmax}(S) + \mathrm{softmax}(T)", {"S": (1, 3), "T": (1, 3)}),  # two
    (SOFTMAX, {"S": (2, 3)}),            # x_i of a matrix: a row or an entry?
    (SOFTMAX, {"S": (3, 1)}),            # a column: the target's softmax is by rows
    (r"P = \mathrm{softmax}(S/\sqrt{3})", {"S": (1, 3)}),    # softmax of no operand
    # the page's n is x's length, 3; the target's n is V's 5 columns
    (r"P = \mathrm{softmax}(S); O = PV", {"S": (1, 3), "V": (3, 5)}),
])
def test_an_input_name_that_could_be_several_things_is_not_bound(formula, shapes):
    report = _check(SOFTMAX_LINE, symrow.explain(formula, shapes))
    assert report.verdict == "unreadable" and not report.notes
    assert "unknown name 'x'" in report.steps[0].message


@pytest.mark.parametrize("page", [
    "$$ x = 2 $$\n\n" + SOFTMAX_LINE,                                   # x defined as a number
    r"$$ softmax(x)_i = \frac{e^{x_i}}{\sum_{j=1}^{n} e^{x}} $$",       # x bare in a power
])
def test_a_name_used_bare_elsewhere_is_not_the_input(page, softmax_row):
    report = _check(page, softmax_row)
    assert report.verdict == "unreadable" and not report.notes


def test_a_number_the_page_names_has_no_entries(softmax_row):
    """Y = sum_j e^{x_j} binds Y; the page's y_i (its outputs, never defined) is no entry
    of that number, so a line in y_i is not judged at the one index value Y has."""
    page = SOFTMAX_LINE + "\n\n" + r"\( Y=\sum^{n}_{j=1}e^{x_j} \)と置く" + "\n\n" + (
        r"$$ \frac{\partial y_i}{\partial x_j} = -\frac{e^{x_i}e^{x_j}}{Y^2} $$")
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "defines", "unreadable"]
    assert "unknown name 'y_i'" in report.steps[2].message


def test_softmax_of_one_entry_is_the_shorthand_for_an_entry_of_the_softmax(softmax_row):
    page = SOFTMAX_LINE + "\n\n" + r"$$ softmax(x_i) = \frac{e^{x_i}}{\sum^{n}_{j=1}e^{x_j}} $$"
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "holds"]
    assert any("softmax(x_i) is read as softmax(x)_i" in n for n in report.notes)
    assert "softmax(x_i) はページの略記として softmax(x)_i と読む" in report.to_text("ja")
    # in the derivation's own names too, and against the forward pass
    forward = symrow.explain(SOFTMAX, {"S": (1, 3)})
    page = r"$$ \mathrm{softmax}(s_i) = \frac{e^{s_i}}{\sum_{j=1}^{\ell} e^{s_j}} $$"
    assert _check(page, forward).verdict == "holds"


def test_e_with_a_subscript_beside_its_powers_is_the_pages_slip(softmax_row):
    """softmax(x_i) = e^{x_i} / sum_j e_{x_j}: the denominator as written is not the
    softmax's (e_{x_j} is no power); e^{x_j} is meant, and the line is wrong."""
    page = SOFTMAX_LINE + "\n\n" + (
        r"$$ softmax(x_i) = \frac{e^{x_i}}{\sum^{n}_{j=1}e_{x_j}} $$")
    report = _check(page, softmax_row)
    assert [s.status for s in report.steps] == ["holds", "wrong"]
    assert report.steps[1].message == ("e_{x_j}: e with a subscript; its power e^{x_j} is "
                                       "meant (with it the step holds)")
    assert "e_{x_j}：e に下付き添字が付いている。書くつもりだったのはべき e^{x_j} である" in \
        report.to_text("ja")
    # still wrong with the power: both said
    page = SOFTMAX_LINE + "\n\n" + (
        r"$$ softmax(x_i) = \frac{e^{2x_i}}{\sum^{n}_{j=1}e_{x_j}} $$")
    step = _check(page, softmax_row).steps[1]
    assert step.status == "wrong" and "with it the step is still wrong" in step.message


@pytest.mark.parametrize("page", [
    # no power e^{...} anywhere in the claim: e_{x_j} may be anything
    SOFTMAX_LINE + "\n\n" + r"$$ \frac{1}{\sum^{n}_{j=1}e_{x_j}} = \frac{1}{3} $$",
    r"$$ p_{11} = e_{1} $$",
    # e_j beside a power: the j-th unit vector as often as a slip
    SOFTMAX_LINE + "\n\n" + r"$$ \frac{e^{x_1}}{\sum^{n}_{j=1}e_{j}} = p_{11} $$",
])
def test_an_unknown_e_with_a_subscript_alone_stays_unreadable(page, softmax_row):
    step = _check(page, softmax_row).steps[-1]
    assert step.status == "unreadable" and "unknown name 'e_" in step.message


def test_the_known_names_are_listed_in_japanese():
    forward = symrow.explain(SOFTMAX, {"S": (1, 3)})
    report = _check("ソフトマックス関数の式\n\n$$ p_{11} = e^{s_{11}} / r $$", forward)
    ja = report.to_text("ja")
    assert "行列 S, P、その行 \\boldsymbol{s}_i, \\boldsymbol{p}_i、その成分 s_{ij}, p_{ij}、" \
           "大きさ m, \\ell" in ja
    assert "the matrices" not in ja and "the matrices S, P" in report.to_text("en")


# -- index notation as tensor-style pages write it (tests/check_cases/real/
# planckeon-attention-gradients.md): indices up, the summation convention, mixed Kronecker
# deltas, softmax_j of an entry, the page's A for P -------------------------------------

SQUARE = symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
OBLONG = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 4))
ATTENTION = symrow.backward(symrow.attention(2, 3, 2))
CONVENTION = "read with the summation convention"


def _statuses(page, against):
    return [s.status for s in _check(page, against).steps]


def test_indices_written_up_and_summed_by_the_convention():
    """C^{ij} = A^{ik} B^{kj}: k is repeated and not on the left, so it is summed; the page
    writes its indices up (tensor style), which is why the convention is read."""
    report = _check(r"$$C^{ij} = A^{ik} B^{kj}$$", SQUARE)
    assert report.verdict == "holds"
    assert any(CONVENTION in n and "superscripts" in n for n in report.notes), report.notes
    assert _check(r"$$C^{ij} = A^{ki} B^{kj}$$", SQUARE).verdict == "wrong"
    # with the sum written, nothing is summed by the convention
    report = _check(r"$$C^{ij} = \sum_k A^{ik} B^{kj}$$", SQUARE)
    assert report.verdict == "holds" and not any(CONVENTION in n for n in report.notes)


def test_the_convention_read_is_numbers_as_numpy_gives_them():
    """The sum the convention reads, at numbers: C^{ij} = A^{ik} B^{kj} is einsum's ik,kj."""
    rng = np.random.default_rng(5)
    a, b = rng.integers(-5, 6, size=(2, 3)), rng.integers(-5, 6, size=(3, 4))
    c = np.einsum("ik,kj->ij", a, b)
    page = "\n\n".join([
        "$$A = " + _bmatrix(a) + "$$", "$$B = " + _bmatrix(b) + "$$",
        r"$$C^{ij} = A^{ik} B^{kj}$$", "$$C = " + _bmatrix(c) + "$$"])
    assert _statuses(page, OBLONG) == ["defines", "defines", "holds", "holds"]
    c[1, 2] += 1
    page = page.rsplit("\n\n", 1)[0] + "\n\n$$C = " + _bmatrix(c) + "$$"
    assert _statuses(page, OBLONG)[-1] == "wrong"


def _bmatrix(m) -> str:
    return r"\begin{bmatrix}" + r" \\ ".join(" & ".join(str(int(x)) for x in row)
                                             for row in m) + r"\end{bmatrix}"


def test_a_superscript_that_could_be_a_power_is_not_read_as_indices():
    """A page that writes powers too: C^{ij} of a square C could be a power, so it is
    refused with its reason; on a matrix that is not square it cannot be one."""
    step = _check("$$C^{ij} = A^{ik} B^{kj}$$\n\n$$D = x^2$$", SQUARE).steps[0]
    assert step.status == "unreadable" and "or a power?" in step.message
    assert "line 3" in step.message
    assert _statuses("$$C^{ij} = A^{ik} B^{kj}$$\n\n$$D = x^2$$", OBLONG)[0] == "holds"


def test_subscripts_are_summed_only_when_the_page_states_the_convention():
    without = _check(r"$$c_{ij} = a_{ik} b_{kj}$$", SQUARE)
    assert without.verdict != "holds" and not any(CONVENTION in n for n in without.notes)
    stated = _check("Repeated indices are summed.\n\n$$c_{ij} = a_{ik} b_{kj}$$", SQUARE)
    assert stated.verdict == "holds"
    assert any("as the text states: 'Repeated indices are summed'" in n for n in stated.notes)
    assert _check("Einstein summation.\n\n$$c_{ij} = a_{ki} b_{kj}$$", SQUARE).verdict == \
        "wrong"


def test_a_dummy_index_in_words_states_the_convention():
    """robotchinwag's linear layer (tests/check_cases/real/robotchinwag-linear-layer-index.md)
    says it in the convention's own word: "the k index is repeated ... meaning it's a
    [dummy index](...) and we sum"."""
    page = ("The $k$ index is repeated, meaning it's a [dummy index](#dummy) and we sum.\n\n"
            r"$$c_{ij} = a_{ik} b_{kj}$$")
    report = _check(page, SQUARE)
    assert report.verdict == "holds"
    assert any("as the text states: 'it's a dummy index'" in n for n in report.notes)
    wrong = page.replace("a_{ik} b_{kj}", "a_{ki} b_{kj}")
    assert _check(wrong, SQUARE).verdict == "wrong"
    # an explicit sum over the dummy index is not summed twice
    explicit = "Here $k$ is a dummy index.\n\n" r"$$c_{ij} = \sum_k a_{ik} b_{kj}$$"
    assert _check(explicit, SQUARE).verdict == "holds"
    # "dummy" alone says nothing
    assert summation_stated("a dummy variable, and a dummy index table") is None


def test_a_liquid_tag_does_not_stop_its_paragraph_being_read():
    """Jekyll pages link with Liquid tags, {% link a.md %}: in LaTeX '{%' would open a
    group and comment out the rest of the line, so the whole paragraph went unread."""
    page = (r"Let $D = A^T$ (see [the notes]({% link _posts/notes.md %}#transpose)), so "
            r"that $d_{12} = a_{21}$.")
    report = _check(page, SQUARE)
    assert [s.status for s in report.steps] == ["defines", "holds"]
    assert not report.unread
    wrong = page.replace("a_{21}", "a_{12}")
    assert [s.status for s in _check(wrong, SQUARE).steps] == ["defines", "wrong"]


@pytest.mark.parametrize("right, reason", [
    (r"A^{ik} B^{kj} A^{kk}", "occurs 4 times in one term"),
    (r"A^{ik} (B^{kj} + A^{ij})", "not in every term of a bracket"),
])
def test_what_the_convention_cannot_read_is_refused(right, reason):
    step = _check(f"$$C^{{ij}} = {right}$$", SQUARE).steps[0]
    assert step.status == "unreadable" and reason in step.message


def test_an_index_free_on_the_left_is_never_summed():
    """delta^i_m A^{ij} (delta^j_n - A^{in}): i and j repeat, but they are free on the
    left, so this is one entry of the softmax's Jacobian, not a sum."""
    page = (r"$$A^{ij} = \mathrm{softmax}_j(S^{ij} / \sqrt{d})$$" "\n\n"
            r"$$\frac{\partial A^{ij}}{\partial S^{mn}} = \frac{1}{\sqrt{d}} \delta^i_m "
            r"A^{ij} (\delta^j_n - A^{in})$$")
    assert _statuses(page, ATTENTION) == ["defines", "holds"]
    wrong = page.replace(r"\delta^i_m A^{ij}", r"A^{ij}")
    assert _statuses(wrong, ATTENTION)[1] == "wrong"


def test_mixed_kronecker_deltas_and_size_letters_used_as_indices():
    """delta^j_m is 1 where j = m; m and n, sizes of the derivation, are indices on a page
    that writes them only as indices."""
    page = (r"$$\frac{\partial O^{ib}}{\partial V^{mn}} = P^{ij} \delta^j_m \delta^b_n = "
            r"P^{im} \delta^b_n$$")
    report = _check(page, ATTENTION)
    assert [s.status for s in report.steps] == ["holds", "holds"]
    assert "m=2" in report.against and "n=3" in report.against
    assert _check(page.replace(r"= P^{im} \delta^b_n", r"= P^{mi} \delta^b_n"),
                  ATTENTION).verdict != "holds"
    square = (r"$$\frac{\partial C^{ij}}{\partial B^{mn}} = A^{ik} \delta^k_m \delta^j_n = "
              r"A^{im} \delta^j_n$$")
    assert _statuses(square, SQUARE) == ["holds", "holds"]
    assert _statuses(square.replace(r"= A^{im} \delta^j_n", r"= A^{in} \delta^j_m"),
                     SQUARE)[-1] == "wrong"


def test_softmax_over_an_index_is_the_softmax_of_the_row():
    """softmax_j(S^{ij}/sqrt(d)) is entry (i, j) of softmax(S/sqrt(d)), as numpy has it."""
    import sympy
    from symrow.checker.reference import Reference
    from symrow.formula.entries import Evaluator
    from symrow.reader.entries.parse import parse_unit
    from symrow.reader.entries.translate import translate_text
    ref = Reference(symrow.attention(2, 3, 2))
    unit = translate_text(r"\mathrm{softmax}_j(s_{ij} / \sqrt{d})", ref)
    parse_unit(unit, {}, "builtin")
    rng = np.random.default_rng(7)
    q, k = rng.normal(size=(2, 2)), rng.normal(size=(3, 2))
    values = {**dict(zip(ref.quantities["Q"].symbols, q.ravel())),
              **dict(zip(ref.quantities["K"].symbols, k.ravel()))}
    s = q @ k.T / np.sqrt(2)
    expected = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    ev = Evaluator(ref)
    for i in (1, 2):
        for j in (1, 2, 3):
            got = ref.ground(ev.value(unit, {"i": i, "j": j})).xreplace(values)
            assert abs(float(sympy.N(got)) - expected[i - 1, j - 1]) < 1e-12


def test_the_pages_name_for_p_has_its_gradient_and_its_entries():
    """A^{ij} = softmax_j(...) is P under the page's name: dL/dA is P's gradient (= dL/dO V^T,
    as numpy's finite differences confirm in the real page's case), and a derivative by
    A^{mn} is one by p_{mn}."""
    page = (r"$$A^{ij} = \mathrm{softmax}_j(S^{ij} / \sqrt{d})$$" "\n\n"
            r"$$\frac{\partial L}{\partial A} = \frac{\partial L}{\partial O} V^T$$" "\n\n"
            r"$$\frac{\partial O^{ib}}{\partial A^{mn}} = \delta^i_m V^{nb}$$" "\n\n"
            r"$$\frac{\partial L}{\partial A^{mn}} = \frac{\partial L}{\partial O^{mb}} "
            r"V^{nb}$$")
    report = _check(page, ATTENTION)
    assert [s.status for s in report.steps] == ["defines", "holds", "holds", "holds"]
    assert "it is P of the derivation" in report.steps[0].message
    for old, new in ((r"O} V^T$$", r"O} V$$"), (r"\delta^i_m V^{nb}", r"\delta^i_n V^{mb}"),
                     (r"O^{mb}} V^{nb}", r"O^{nb}} V^{mb}")):
        assert _check(page.replace(old, new), ATTENTION).verdict == "wrong", new


def test_the_chain_rule_for_generic_names_is_a_note():
    page = (r"$$\frac{\partial L}{\partial x^j} = \frac{\partial L}{\partial y^i} "
            r"\frac{\partial y^i}{\partial x^j}$$" "\n\n" r"$$C^{ij} = A^{ik} B^{kj}$$")
    for against in (SQUARE, ATTENTION.forward if hasattr(ATTENTION, "forward") else SQUARE,
                    ATTENTION):
        report = _check(page, against)
        assert any("line 1: the chain rule for x, y in general" in n for n in report.notes)
        assert all(s.line != 1 for s in report.steps)


def test_a_name_the_derivation_has_keeps_its_superscript():
    """W^{qk}, a weight the derivation names so, is that weight on a page that writes its
    indices up: its superscript is a tag, not two indices."""
    own = symrow.explain("Q = X W^{qk}", {"X": (2, 2), "W^{qk}": (2, 2)})
    page = r"$$Q^{ij} = X^{ia} w^{qk}_{aj}$$" "\n\n" r"$$Q = X W^{qk}$$"
    assert _statuses(page, own) == ["holds", "holds"]


def test_one_index_up_on_a_matrix_is_not_guessed():
    page = "$$C^{ij} = A^{ik} B^{kj}$$\n\n$$C^{k} = A^{k} B$$"
    report = _check(page, SQUARE)
    assert [s.status for s in report.steps] == ["holds", "unreadable"]
    assert "a row, or a power?" in report.steps[1].message
    assert "行か、べき乗か" in report.to_text("ja")


def test_softmax_over_an_index_is_never_wrong_on_a_guess():
    """softmax_j of a whole matrix does not say which axis j runs along: not checked; of
    an entry over the wrong index it is wrong."""
    base = r"$$p_{ij} = \mathrm{softmax}_j(s_{ij} / \sqrt{d})$$"
    assert _check(base, ATTENTION).verdict == "holds"
    assert _check(base.replace("softmax}_j", "softmax}_i"), ATTENTION).verdict == "wrong"
    report = _check(r"$$P = \mathrm{softmax}_j(S / \sqrt{d})$$", ATTENTION)
    assert report.verdict == "unchecked" and "not checked" in report.steps[0].message
    assert "検査しなかった" in report.to_text("ja")


def test_a_size_the_page_writes_as_a_bound_stays_a_size():
    """n in \\sum_{j=1}^{n} is the size n (3 keys), even on a page that writes indices up;
    m, written only as an index, is one."""
    page = (r"$$O^{ib} = \sum_{j=1}^{n} P^{ij} V^{jb}$$" "\n\n"
            r"$$\frac{\partial O^{ib}}{\partial V^{mc}} = P^{im} \delta^b_c$$")
    assert _statuses(page, ATTENTION) == ["holds", "holds"]
    assert _check(page.replace("^{n}", "^{2}"), ATTENTION).steps[0].status == "wrong"
    # n a size above and an index here (V has 2 columns, n = 3): not read, never wrong
    both = page.replace("V^{mc}} = P^{im} \\delta^b_c", "V^{mn}} = P^{im} \\delta^b_n")
    step = _check(both, ATTENTION).steps[1]
    assert step.status == "unreadable" and "uses it both ways" in step.message


def test_a_derivative_by_an_entry_equal_to_an_entry_is_a_claim():
    """dO^{ib}/dV^{mb} = P^{im} is a claim about entries (not a notation for a gradient);
    b repeats on its left, so by the convention it is summed there: the sum over the d_v
    = 2 columns is 2 P^{im}, not P^{im}."""
    page = r"$$\frac{\partial O^{ib}}{\partial V^{mb}} = P^{im}$$"
    assert _check(page, ATTENTION).verdict == "wrong"
    assert _check(page.replace("= P", "= 2 P"), ATTENTION).verdict == "holds"


def test_a_size_letter_seen_to_mean_another_size_is_not_read_later():
    """HetanshWaghela's layer (tests/check_cases/real/hetanshwaghela-matrix-form-backprop.md)
    writes W in R^{m x n} with its own m, refused as two sizes; a later space with that m
    was then judged with the derivation's m and called wrong."""
    against = symrow.backward(symrow.explain("Y = XW", {"X": (2, 3), "W": (3, 4)}))
    later = r"$W^T \in \mathbb{R}^{4 \times m}$"        # the page's m is 3, the derivation's 2
    alone = _check(later, against).steps
    assert [s.status for s in alone] == ["wrong"]       # with nothing said, m is ours
    steps = _check(r"$W \in \mathbb{R}^{m \times k}$ and so " + later, against).steps
    assert [s.status for s in steps] == ["unchecked", "unchecked"]
    assert all("the page's m stands for two sizes of this derivation here (2 and 3)"
               in s.message for s in steps)


def test_an_undefined_product_after_the_same_name_held_is_a_remark():
    """``D = WX`` held, then inline "others write $D = XW$": the second product is
    undefined at these shapes, so the page speaks of another convention (not checked);
    without the first claim, or with a product that is defined but wrong, it is wrong."""
    against = symrow.explain("D = WX", {"W": (2, 3), "X": (3, 4)})
    remark = "Other texts may write $D = XW$ instead.\n"
    steps = _check("$$D = WX$$\n\n" + remark, against).steps
    assert [s.status for s in steps] == ["holds", "unchecked"]
    assert "another convention" in steps[1].message
    assert _check(remark, against).steps[0].status == "wrong"
    assert _check("$$D = WX$$\n\nand so $D = 2WX$.\n", against).steps[1].status == "wrong"


def test_a_column_of_ones_times_a_bias_row_is_its_broadcast():
    """``Y = XW + \\mathbf{1} b``: the bias row repeated down the points (Phuong and
    Hutter's b_q 1^T, read in the row view); ones times a matrix of several rows is still
    the mistake it was."""
    against = symrow.explain("Y = XW + b", {"X": (3, 2), "W": (2, 4)})
    assert _check(r"$$Y = XW + \mathbf{1} b$$", against).verdict == "holds"
    assert _check(r"$$Y = XW + \mathbf{1} 2b$$", against).verdict == "wrong"
    step = _check(r"$$Y = XW + \mathbf{1} W$$", against).steps[0]
    assert step.status == "wrong" and "write 1^T" in step.message


def test_a_vector_and_a_matrix_of_one_letter():
    """Goodfellow's w^T max{0, W^T x + c} + b: W's rows are \\boldsymbol{w}_i and its
    entries w_{ij}; the vector w's entries are w_j, with one index."""
    against = symrow.explain(r"f = w^T \max\{0, W^Tx + c\} + b",
                             {"W": (2, 2), "x": (2, 1), "c": (2, 1), "w": (2, 1), "b": (1, 1)})
    good = r"$$f = \max(0, x_{1} w_{11} + x_{2} w_{21} + c_{1}) w_{1} + \max(0, x_{1} w_{12} + x_{2} w_{22} + c_{2}) w_{2} + b_{1}$$"
    assert _check(good, against).verdict == "holds"
    assert _check(good.replace(") w_{2}", ") w_{1}"), against).verdict == "wrong"


def test_a_mask_multiplied_instead_of_added_is_wrong_not_a_crash():
    """softmax(S/√d M): the causal mask's -oo multiplied makes an exponent undefined, which
    is the page's error (found by the mutation fuzz of test_check_robust), said in words."""
    causal = symrow.attention(2, 2, 2, causal=True)
    page = r"$$P = \operatorname{softmax}\left(\frac{S}{\sqrt{d}} M\right)$$"
    step = _check(page, causal).steps[0]
    assert step.status == "wrong" and "exponent is infinite" in step.message, step
    assert "指数が無限大" in symrow.check(page, causal, lang="ja").to_text("ja")
    plus = r"$$P = \operatorname{softmax}\left(\frac{S}{\sqrt{d}} + M\right)$$"
    assert _check(plus, causal).verdict == "holds"
