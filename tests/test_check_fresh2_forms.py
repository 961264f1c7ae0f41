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
  is said in Japanese too.

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
