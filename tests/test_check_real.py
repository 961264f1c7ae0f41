r"""Published derivations that none of us wrote, checked as a user would check them.

The pages are in ``tests/check_cases/real/``: Qiita, Zenn, GitHub study notebooks,
Stack Exchange questions, blogs and worked-exercise sites, transcribed verbatim with
their names, fences, prose, stored-copy artifacts and mistakes.  Each file opens with
a header comment (in a notebook: a first Markdown cell holding an HTML comment) that
gives its source, what it derives, the ``symrow check`` command a user would type, the
hand verdict and how it was confirmed.  The command is read from that header and run
through :func:`symrow.cli.main`, so the test runs exactly what the header says.

``CASES`` below holds the careful reader's verdict on each page as stored:

* ``math``: the hand verdict on the page's mathematics (``holds`` or ``wrong``);
* ``accept``: the outcomes a careful checker may give on the stored copy: where the
  copy lost its delimiters or carries rendered glyphs, or the page is plain text,
  that is ``unreadable`` (and never ``wrong``);
* ``lines``: the lines of the first wrong claim (its first and last line), when
  ``wrong`` is accepted.

What symrow says today, where it is not what a careful reader says, is the reason of a
strict ``xfail``: a fix turns the test into an unexpected pass, and the mark goes.
The worst outcomes (a correct page called wrong; a wrong page passed as holds) are
marked ``WORST`` in the reason.  The hand verdicts themselves are confirmed with numpy
(``test_hand_verdict_in_numbers``), independently of symrow.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from symrow.checker.document import notebook_markdown
from symrow.cli import main

pytestmark = pytest.mark.parsers("builtin")   # the quicker parser: these pages test reading

REAL = Path(__file__).resolve().parent / "check_cases" / "real"


@dataclasses.dataclass(frozen=True)
class Case:
    file: str
    kind: str                    # gradient, attention or product
    cause: str                   # what blocks it today (or what it tests): the report's groups
    math: str                    # holds or wrong: the hand verdict on the page's mathematics
    accept: tuple = ("holds",)   # outcomes a careful checker may give on the stored copy
    lines: tuple | None = None   # (first, last) line of the first wrong claim
    today: str | None = None     # what symrow says today, when it is not acceptable
    artifact: bool = False       # the stored copy lost delimiters / carries glyphs / is plain text

    @property
    def id(self) -> str:
        return self.file.rsplit(".", 1)[0]


WRONG = ("wrong",)
UNREADABLE = ("unreadable",)

CASES = [
    # -- gradients ------------------------------------------------------------------------------
    Case("takasaki376-affine-backward.ipynb", "gradient", "none (read and judged)", "wrong",
         WRONG, (31, 31)),
    Case("shun-tak-affine-backward.ipynb", "gradient", "vectors and bias indices", "holds"),
    Case("shinnkura-matrix-backward.ipynb", "gradient", "names the writer defines (the upstream "
         "as a matrix of its entries; the page's own sizes h, m)", "holds"),
    Case("joyabrata-mlp-relu-backward.ipynb", "gradient", "names the writer defines", "wrong",
         WRONG, (165, 174)),
    Case("mathse-4820588-linear-xwt.md", "gradient", "indices: free-index entry formulas",
         "holds"),
    Case("mathse-3979526-chain-rule.md", "gradient", "gradient notation (upright d)", "wrong",
         WRONG, (27, 27)),
    Case("zenn-kyoheyyy-backprop-cheatsheet.md", "gradient", "stored copy: lost delimiters",
         "wrong", ("unreadable", "wrong"), (76, 76), artifact=True),
    Case("planckeon-attention-gradients.md", "gradient", "indices: superscripts, summation "
         "convention", "holds"),
    Case("edwardshu-matrix-matrix-gradient.md", "gradient", "conventions: shape notation, "
         "column convention", "holds"),
    Case("w32zhong-linear-layer-gradients.md", "gradient", "gradient notation (nabla), "
         "vectors and bias indices", "holds",
         today="unreadable: lines 15-30 (the shapes, W, y_i, its derivatives by W_{i,j} with "
               "the condition k \\neq i) and 56-62 (\\nabla_W \\ell, its rows ending in "
               "\\vdots, = (\\nabla_y \\ell)(x^T)) hold; J_w at line 34 (the flattened "
               "Jacobian: rows with two and three columns of dots each, the second row's x_n "
               "left out) and \\nabla^T_w \\ell of the flattened w at line 45 are not read"),
    Case("rainbow-engine-softmax-derivative.md", "gradient", "vectors: softmax entries of a "
         "vector", "wrong", WRONG, (55, 55)),
    Case("webdevqa-softmax-derivative.md", "gradient", "plain text", "wrong",
         ("unreadable", "wrong"), (41, 41), artifact=True),
    Case("qiita-matchlab-softmax-cross-entropy.md", "gradient", "stored copy: lost fences",
         "holds", ("unreadable", "holds"), artifact=True),
    Case("kesuuyof-affine-transpose.ipynb", "gradient", "matrices written out: entry labels "
         "against the transpose", "wrong", WRONG, (55, 70)),
    Case("hetanshwaghela-matrix-form-backprop.md", "gradient", "conventions: column vectors "
         "(z = Wx + b)", "holds"),
    Case("affine-transformation-layer-zh.md", "gradient", "none (read and judged)", "wrong",
         WRONG, (62, 62)),
    Case("robotchinwag-linear-layer-index.md", "gradient", "indices: subscripts, summation "
         "convention in words, a hat marking a vector whose entries drop it, a row of ones "
         "of unwritten length", "holds"),
    Case("dl-memo-fc-softmax-ja.md", "gradient", "cases without conditions (a comma)",
         "wrong", ("unreadable", "wrong"), (80, 80)),
    Case("annp0-matmul-index-backward.ipynb", "gradient", "indices: a double sum written "
         "\\sum_{ij}, a derivative without brackets", "holds"),
    Case("frobenius-linear-backprop.md", "gradient", "differentials (dX, dW), a refuted "
         "result shown on the way", "wrong", WRONG, (70, 70)),
    Case("chicm-softmax-ce-gradient.md", "gradient", "the page's own loss; e^j for e^{o_j}, "
         "\\partial/o_k without its \\partial", "wrong", ("unreadable", "wrong"), (33, 33)),
    Case("zingale-sigmoid-layer-derivation.md", "gradient", "names the writer defines (g for "
         "the sigmoid, f for the loss, b = Ax unwritten, sizes N_\\mathrm{in}), a scalar "
         "variable \\xi", "wrong", ("unreadable", "wrong"), (56, 57)),
    Case("ouroboros-batchnorm-affine-zh.md", "gradient", "names spelt in text (\\text{input}, "
         "\\text{out}) next to '=', definitions side by side across blank lines", "wrong",
         WRONG, (56, 56)),
    Case("layernorm-backprop-derivation.md", "gradient", "the page's own scalars (\\mu, "
         "\\sigma^2, \\gamma_i, \\beta_i, N) in a LayerNorm backward", "wrong", WRONG, (32, 48),
         today="unreadable: every claim names the page's own scalars \\mu, \\sigma^2, "
               "\\gamma_i, \\beta_i or the size N, which the LayerNorm target (whose backward "
               "is one step, without \\gamma, \\beta or the statistics as names) does not know; "
               "neither the variance without its square (line 32) nor the \\partial L/"
               "\\partial x_i that drops \\partial L/\\partial y_i (line 48) is read"),
    Case("yanfenglee-softmax-ce-derivative.md", "gradient", "cases with conditions after "
         "\\quad; the page's own loss (labels y_k)", "holds"),
    Case("zh-matrix-derivative-notes.md", "gradient", "the page's own size names (W: m x n, "
         "X: n x p), a blockquote around a display, a condition before its claim (当 $i \\neq "
         "d$ 时), the shorthand \\partial Y/\\partial W = X^T", "wrong",
         ("unreadable", "wrong"), (78, 108)),
    Case("brightlamp-affine-backward-csdn.md", "gradient", "stored copy: HTML escapes (&amp;, "
         "&\\#x27;); the page's vector w and the entries w_{jt} of W; a second definition "
         "(A = XW + b) on the same page", "wrong", ("unreadable", "wrong"), (77, 77),
         artifact=True,
         today="wrong at line 335, not at the first error: a_{ij} = \\sum_t x_{it} w_{tj} + "
               "b_j holds for the page's other definition A = XW + b (section 4), whose "
               "statement at line 333 (affine(X,W,b) = X_{m\\times k}W_{k\\times n} + b) is "
               "not read, so the claim is judged against the check's A = XW^T + b; line 77's "
               "a = (a_1, ..., a_k) is not read (a written without an index), and the "
               "matrices with the typos (lines 275, 277, 322, 412-423) hold their &amp; and "
               "&\\#x27; and are not read"),
    Case("zakariapz-softmax-ce-sign.md", "gradient", "the page's own loss and its \\ell_j "
         "(\\ell, a size of the target, as a name), \\sum_j^C without bounds, a condition "
         "in \\( \\) before a display that opens with '='", "wrong",
         ("unreadable", "wrong"), (32, 32)),
    Case("hongseoi-affine-exercise-ko.md", "gradient", "numbers: the upstream given as a "
         "matrix of numbers, {\\partial L \\over \\partial Y}, a bias row B = (7,8,9)",
         "holds"),
    Case("sunhaozhe-softmax-ce-split.md", "gradient", "a condition before a display framed "
         "by \\begin{equation}\\begin{split}, glued to the display before it; \\nabla "
         "without a variable; the page's own loss", "holds", ("unreadable", "holds")),
    Case("mathse-3400818-softmax-linear-dims.md", "gradient", "the page's own loss and labels "
         "y; memberships written \\Bbb R^{1x5} (the letter x)", "wrong", ("unreadable", "wrong"),
         (30, 30)),
    Case("zenn-taro137-layernorm-jacobian.md", "gradient", "stored copy: lost delimiters "
         "(bare LaTeX lines, bare align*); the page's own scalars (\\mu, \\sigma, H, "
         "\\delta_{ij}), \\frac1\\sigma without braces", "holds", ("unreadable", "holds"),
         artifact=True),
    Case("qiita-hatahatadev-softmax-sum-index.md", "gradient", "a sum whose term drops its "
         "index (\\sum_{j=1}^{n} e^{x_i}), carried on; the page's own f and Z; a worked "
         "example's vector \\boldsymbol{x} = (1,2)", "wrong", WRONG, (29, 29)),
    Case("nagoya-ymaeda-softmax-formula.md", "gradient", "the page's own macro "
         "(\\PartialDiff), indices from 0 to J-1, f_i(y_0,\\cdots,y_{J-1}) for an entry, "
         "eqnarray with \\nonumber; stored copy: i\u2019 (U+2019) for i'", "holds",
         ("unreadable", "holds"), artifact=True),
    Case("sumikitch-softmax-derivative-ja.md", "gradient", "stored copy: en dashes for minus "
         "(WordPress); yi for y_i in a cases summary; Japanese words inside a display", "wrong",
         ("unreadable", "wrong"), (78, 82), artifact=True),
    Case("ningyuwhut-softmax-ce-gradient-zh.md", "gradient", "exp( ) and log typed as "
         "words, cases with 'value,&\\quad condition', the page's size V as a sum's bound, "
         "its own loss J with labels y_i", "holds"),     # all 17 claims read since
    Case("mattpetersen-softmax-row-jacobian.md", "gradient", "MathJax script tags for "
         "displays; the softmax as the page's own function s(\\mathbf x)_i; \\nabla_{\\mathbf "
         "s}; its own loss H", "holds", ("unreadable", "holds")),
    Case("bushuhui-softmax-ce-zh.ipynb", "gradient", "eqnarray outside $$; the page's own "
         "loss C with labels y_i; a sum over j implied by the chain rule", "wrong",
         ("unreadable", "wrong"), (132, 132),
         today="wrong at line 141, a real error of the page (the quotient rule's denominator "
               "written \\sum_k (e^{z_k})^2 for (\\sum_k e^{z_k})^2), and at line 142 (the "
               "step from that line back to the right one), not at the first error: line "
               "132's \\partial C/\\partial a_j = -\\sum_j y_j \\frac{1}{a_j} is not read "
               "(the page's loss C, whose definition names the labels y_i the backward "
               "target does not know)"),
    Case("hwanyo14-multilayer-gd-ko.ipynb", "gradient", "Unicode mathematical italic "
         "letters, \u2202, \u2299 and \u205d pasted into LaTeX; the bold and monospace ones "
         "\U0001d7cf, \U0001d7f7; '###$$' headings glued to displays; the page's own names "
         "of a two-layer network", "wrong", ("unreadable", "wrong"), (84, 84)),
    Case("ecomnet-softmax-ce-batch-zh.md", "gradient", "stored copy: KaTeX glyph runs "
         "around LaTeX without delimiters", "wrong", ("unreadable", "wrong"), (35, 35),
         artifact=True),
    Case("mathse-3072387-matrix-derivative-dims.md", "gradient", "the chain rule's shorthand "
         "with a wrong factor (\\partial f/\\partial W = X), a differential d(L); the page's "
         "own shapes in code (X.shape=(1, m)); stored copy: the answer's \\eqalign without "
         "delimiters", "wrong", ("unreadable", "wrong"), (39, 39), artifact=True),
    Case("sahilmalik27-mlp-relu-backward.md", "gradient", "gradients written \\nabla_{W_2} "
         "without the loss and \\delta z for the upstream; a row slice \\delta z_{i:}; an "
         "indicator 1[a_1 > 0]; the page's first layer (X, W_1, b_1) outside the check",
         "holds", ("unreadable", "holds")),
    Case("gauravreddy08-mlp-backprop-notes.md", "gradient", "layers as superscripts (W^L, "
         "a^{L-1}); the upstream in the page's own names (\\hat y - y); the chain rule "
         "written with \\cdot between Jacobians; a prime on \\text{ReLU}'", "wrong",
         ("unreadable", "wrong"), (95, 95)),
    Case("hanezu-relu-backward-replace.md", "gradient", "derivatives on one line with an "
         "upright d (\\mathrm{d}L/\\mathrm{d}X_{i,j}); * declared as the element-wise "
         "product; stored copy: lost headings, a display glued to the prose", "holds",
         ("unreadable", "holds"), artifact=True),
    Case("sucruba70-layernorm-numbers-ko.ipynb", "gradient", "a LayerNorm forward in the "
         "page's own names (\\mu, \\sigma^2, its size d, \\gamma, \\beta), its numbers in code "
         "output; a display left unclosed, its $$ moved into the next list item", "holds",
         ("unreadable", "holds")),
    # -- attention ------------------------------------------------------------------------------
    Case("indepa-sdpa-worked-example.md", "attention", "stored copy: lost row breaks", "wrong",
         UNREADABLE, artifact=True),
    Case("bookai-attention-numerical-walkthrough.md", "attention", "stored copy: mojibake, "
         "code blocks", "holds", UNREADABLE, artifact=True),
    Case("omkarchebale-self-attention-walkthrough.md", "attention", "plain text, a '→ actually' "
         "correction", "holds", UNREADABLE, artifact=True),
    Case("wpnews-attention-backprop-forward.md", "attention", "stored copy: lost delimiters "
         "and subscripts", "wrong", UNREADABLE, artifact=True),
    Case("vukrosic-attention-scores.md", "attention", "plain text in code spans", "holds",
         ("unreadable", "holds"), artifact=True),
    Case("aise-25055-attention-gradient.md", "attention", "vectors: lower-case x for the "
         "sequence", "wrong", WRONG, (17, 17)),
    Case("goubasarian-attention-backprop.md", "attention", "names the writer defines (W, B, "
         "C, B_1 ... B_4, \\zeta_1 ... \\zeta_7, the preliminaries' X_1, X_2), a vector's "
         "reciprocal written B_2^{-1}, Attention(K, Q, V) in its own order", "wrong", WRONG,
         (102, 102),
         today="wrong at line 205 (QK^T = KQ^T, a real error of the page, its fourth in the "
               "attention part), not at the first: line 102's Z = Y_1 + Y_2 (n x n plus m x "
               "m) is not read (Y_1 = WX_1 names the page's own W, X_1, X_2, which the "
               "attention target does not know), nor are the wrong \\zeta_2 = \\zeta_1 V^T "
               "(line 194) and \\zeta_6 (line 201): \\zeta is not read, and neither is "
               "\\partial L / \\partial C of the page's own name C (= O)"),
    Case("willetts-attention-backward.md", "attention", "conventions: scaled S, the writer's G",
         "holds"),
    Case("notion-self-attention-formula.md", "attention", "typesetting macros", "holds"),
    Case("leeinx-attention-qkv-zh.md", "attention", "the page's numbers for X and the "
         "weights, three definitions in three inline formulas on one line", "holds"),
    Case("zenn-fumishiki-causal-mask-softmax.md", "attention", "numbers: a softmax of a "
         "vector with a -\\infty entry; \\text{Mask} and \\text{Attention}_{\\text{causal}}"
         " as the page's names", "wrong", WRONG, (50, 50)),
    Case("amanailab-sdpa-code-lab.md", "attention", "plain text (Unicode \u1d40, \u221a, "
         "Python lists); stored copy: a step glued to the formula", "wrong",
         ("unreadable", "wrong"), (30, 30), artifact=True),
    Case("daffodil2024-attention-numbers-ko.md", "attention", "plain text (softmax((Q * K^T) / "
         "sqrt(d_k)) * V, tables of columns); stored copy: names glued to the next line",
         "wrong", ("unreadable", "wrong"), (66, 71), artifact=True),
    # -- matrix products ------------------------------------------------------------------------
    Case("statisticsschool-matrix-product.md", "product", "stored copy: unclosed $", "holds",
         UNREADABLE, artifact=True),
    Case("egtry-matmul-2x3-by-3x2.md", "product", "stored copy: KaTeX glyph runs", "holds",
         UNREADABLE, artifact=True),
    Case("htfbw-multiply-2x3-by-3x2.md", "product", "plain text", "holds",
         ("unreadable", "holds"), artifact=True),
    Case("senseiai-60173-4x4-product.md", "product", "plain text, a glyph run", "holds",
         ("unreadable", "holds"), artifact=True),
    Case("fersch-matrix-multiplication.md", "product", "typesetting macros (\\small)", "holds"),
    Case("irohabook-2x2-product.md", "product", "stored copy: lost row breaks and '='",
         "holds", UNREADABLE, artifact=True),
    Case("senseiai-36925-products.md", "product", "stored copy: glyph runs", "holds",
         UNREADABLE, artifact=True),
    Case("holooly-3x4-by-4x2-product.md", "product", "stored copy: lost delimiters (bare "
         "LaTeX lines), products written 2(3)", "holds", ("unreadable", "holds"),
         artifact=True),
    Case("monoknock-matmul-3x3-by-hand.ipynb", "product", "plain text in code fences of "
         "Markdown cells", "holds", ("unreadable", "holds"), artifact=True),
    Case("tomoshige-matrix-product-ja.md", "product", "row breaks escaped as \\\\\\ (three "
         "backslashes) ending a line; BA beside AB; the page's own rotation R(\\theta)",
         "holds", ("unreadable", "holds")),
    Case("wyzant-12503-2x3-by-3x2.md", "product", "plain text: matrices typed with bars; "
         "stored copy: the rows of the two matrices interleaved", "holds",
         ("unreadable", "holds"), artifact=True),
]

BY_ID = {case.id: case for case in CASES}


# -- the command each header gives -------------------------------------------------------------

def header(path: Path) -> str:
    """The case's header comment: the first HTML comment of the file (of its first cell)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        text = "".join(json.loads(text)["cells"][0]["source"])
    match = re.match(r"\s*<!--(.*?)-->", text, re.S)
    assert match, f"{path.name}: no header comment"
    return match.group(1)


def field(head: str, name: str) -> str:
    """A header field and its indented continuation lines, joined."""
    match = re.search(rf"^{name}:(.*?)(?=^\S|\Z)", head, re.S | re.M)
    assert match, f"no '{name}:' in the header"
    return " ".join(part.strip() for part in match.group(1).splitlines())


def command(case: Case) -> list[str]:
    words = shlex.split(field(header(REAL / case.file), "check"))
    assert words[:3] == ["symrow", "check", case.file], words[:3]
    return ["check", str(REAL / case.file), *words[3:]]


@functools.lru_cache(maxsize=None)
def outcome(file: str) -> tuple[str, int | None, str]:
    """(holds | wrong | unreadable, the first wrong line, the report) of the header's command."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*command(BY_ID[file.rsplit(".", 1)[0]]), "--format", "json"])
    if not out.getvalue().strip():
        assert code == 2, (code, err.getvalue())      # a one-line error: nothing was read
        return "unreadable", None, err.getvalue()
    report = json.loads(out.getvalue())
    verdict = {"unchecked": "unreadable"}.get(report["verdict"], report["verdict"])
    wrong = [step["line"] for step in report["steps"] if step["status"] == "wrong"]
    return verdict, (wrong[0] if wrong else None), out.getvalue()


def acceptable(case: Case, result) -> bool:
    verdict, line, _ = result
    if verdict not in case.accept:
        return False
    return verdict != "wrong" or case.lines[0] <= line <= case.lines[1]


def _param(case: Case):
    marks = [pytest.mark.xfail(strict=True, reason="today: " + case.today)] if case.today else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_real_page(case):
    verdict, line, report = outcome(case.file)
    assert acceptable(case, (verdict, line, report)), \
        f"{case.file}: {verdict} (first wrong line {line}); a careful reader: " \
        f"{' or '.join(case.accept)} {case.lines or ''}\n{report[:3000]}"


def _known_worst(verdict: str) -> list:
    """The pages whose strict xfail says they come out ``verdict`` today, the worst way
    (``today="WORST: wrong. ..."``): the only ones the two tests below let through, so
    that a new one fails them, and a fix turns the case's own xfail into a pass."""
    return sorted(case.file for case in CASES
                  if case.today and case.today.startswith(f"WORST: {verdict}"))


def test_no_wrong_page_is_passed_as_holds():
    """The worst outcome of all: none of the pages with a published error holds today."""
    passed = [case.file for case in CASES if case.math == "wrong" and outcome(case.file)[0] == "holds"]
    assert sorted(passed) == _known_worst("holds"), passed


def test_no_correct_page_is_called_wrong():
    called = [case.file for case in CASES if case.math == "holds" and outcome(case.file)[0] == "wrong"]
    assert sorted(called) == _known_worst("wrong"), called


# -- the set itself ------------------------------------------------------------------------------

def test_the_set_is_real_large_and_mixed():
    files = sorted(p.name for p in REAL.iterdir() if p.suffix in (".md", ".ipynb", ".tex"))
    assert files == sorted(case.file for case in CASES)
    assert len(CASES) >= 24
    kinds = [case.kind for case in CASES]
    assert kinds.count("gradient") >= 9 and kinds.count("attention") >= 7 \
        and kinds.count("product") >= 7
    assert sum(case.math == "wrong" for case in CASES) >= 6
    for case in CASES:
        head = header(REAL / case.file)
        for name in ("source", "transcription", "derives", "check", "hand verdict", "numpy"):
            assert field(head, name), (case.file, name)
        verdict = field(head, "hand verdict")
        assert ("WRONG" in verdict) == (case.math == "wrong"), case.file
        assert case.accept and (("wrong" in case.accept) == (case.lines is not None))
        assert case.artifact == ("ARTIFACT" in head or "PLAIN TEXT" in head), case.file
        if case.artifact:
            assert "wrong" not in case.accept or case.math == "wrong", case.file


def test_a_wrong_line_named_in_a_header_is_the_page_s_own():
    """The lines a header names are the lines symrow counts (notebooks: through their
    Markdown cells), and the line holds the claim the header quotes."""
    for case in CASES:
        if case.lines is None:
            continue
        text = (REAL / case.file).read_text(encoding="utf-8")
        if case.file.endswith(".ipynb"):
            text = notebook_markdown(text)[0]
        lines = text.splitlines()
        first, last = case.lines
        assert 0 < first <= last <= len(lines), case.file
        named = [int(n) for n in re.findall(r"line (\d+)", field(header(REAL / case.file),
                                                                    "hand verdict"))]
        assert any(first <= n <= last for n in named), (case.file, named)


# -- the hand verdicts in numbers ------------------------------------------------------------------

RNG = np.random.default_rng(20240611)


def grad(f, x, eps=1e-6):
    """Central finite differences of the scalar f at the array x."""
    g = np.zeros_like(x, dtype=float)
    for idx in np.ndindex(*x.shape):
        e = np.zeros_like(x, dtype=float)
        e[idx] = eps
        g[idx] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def close(a, b):
    return np.shape(a) == np.shape(b) and np.allclose(a, b, atol=1e-6)


def undefined(f) -> bool:
    try:
        f()
    except ValueError:
        return True
    return False


def affine(shape_x, shape_w):
    x, w = RNG.normal(size=shape_x), RNG.normal(size=shape_w)
    b = RNG.normal(size=(1, shape_w[1]))
    g = RNG.normal(size=(shape_x[0], shape_w[1]))
    loss = lambda x_, w_, b_: np.sum(g * (x_ @ w_ + b_))
    return x, w, b, g, loss


def n_takasaki():
    x, w, b, g, loss = affine((2, 2), (2, 3))
    dw = grad(lambda w_: loss(x, w_, b), w)
    assert close(grad(lambda x_: loss(x_, w, b), x), g @ w.T)         # dL/dX = dL/dY W^T
    assert close(dw, x.T @ g)                                         # the right dL/dW
    assert not close(w.T @ g, dw)                                     # the page's W^T dL/dY: 3 x 3


def n_shinnkura():
    h, m, n = 3, 2, 4
    x, w, b = RNG.normal(size=(h, m)), RNG.normal(size=(m, n)), RNG.normal(size=(1, n))
    delta = RNG.normal(size=(h, n))                                    # Δ = ∂E/∂Y, h x n

    def loss(x_=x, w_=w, b_=b):
        return np.sum(delta * (x_ @ w_ + b_))

    dw = grad(lambda w_: loss(w_=w_), w)
    assert close(dw, x.T @ delta)                                      # ∂W = X^T Δ
    sums = np.array([[sum(x[k, i] * delta[k, j] for k in range(h)) for j in range(n)]
                     for i in range(m)])
    assert close(dw, sums)                                             # Σ_k x_{ki} δ_{kj}
    assert close(grad(lambda x_: loss(x_=x_), x), delta @ w.T)         # ∂X = Δ W^T
    assert close(grad(lambda b_: loss(b_=b_), b), delta.sum(axis=0, keepdims=True))


def n_shun_tak():
    x, w, b, g, loss = affine((1, 2), (2, 3))
    assert close(grad(lambda x_: loss(x_, w, b), x), g @ w.T)
    assert close(grad(lambda w_: loss(x, w_, b), w), x.T @ g)
    assert close(grad(lambda b_: loss(x, w, b_), b), g)               # one row: dL/dB = dL/dY


def n_joyabrata():
    bsz, x = 3, RNG.normal(size=(3, 2))
    w1, b1, w2, b2 = (RNG.normal(size=s) for s in ((2, 3), (1, 3), (3, 2), (1, 2)))
    labels = np.array([0, 1, 1])
    y = np.eye(2)[labels]

    def loss(w1_, w2_=w2):
        z1 = x @ w1_ + b1
        p = softmax(np.maximum(z1, 0) @ w2_ + b2)
        return -np.mean(np.log(p[range(bsz), labels]))

    z1 = x @ w1 + b1
    a1 = np.maximum(z1, 0)
    yhat = softmax(a1 @ w2 + b2)
    dz2 = (yhat - y) / bsz                                            # Step 1
    dz1 = (dz2 @ w2.T) * (z1 > 0)                                     # Steps 2-3
    assert close(grad(loss, w1), x.T @ dz1)                           # Step 4 holds
    assert close(grad(lambda w2_: loss(w1, w2_), w2), a1.T @ dz2)
    collapsed = x.T @ (((yhat - y) @ w2.T) * (z1 > 0))                # the page's final chain
    assert close(collapsed, bsz * grad(loss, w1)) and not close(collapsed, grad(loss, w1))


def n_mathse_4820588():
    x, w = RNG.normal(size=(2, 3)), RNG.normal(size=(4, 3))
    bias, g = RNG.normal(size=(2, 4)), RNG.normal(size=(2, 4))
    assert close(grad(lambda w_: np.sum(g * (x @ w_.T + bias)), w), g.T @ x)


def n_mathse_3979526():
    x, w, b, g, loss = affine((1, 3), (3, 4))
    assert close(grad(lambda x_: loss(x_, w, b), x), g @ w.T)
    assert close(grad(lambda w_: loss(x, w_, b), w), x.T @ g)
    assert undefined(lambda: w.T @ g)                                 # W^T · dL/dY: (4,3)(1,4)


def n_zenn():
    n = 4
    w, xs, bias = RNG.normal(size=(2, 3)), RNG.normal(size=(3, n)), RNG.normal(size=(2, 1))
    delta = RNG.normal(size=(2, n))                                   # δ^(n) = dL_n/dz_n, columns

    def loss(w_=w, xs_=xs, b_=bias):                                  # L = (1/N) Σ_n L_n
        return np.sum(delta * (w_ @ xs_ + b_)) / n

    assert close(grad(lambda w_: loss(w_=w_), w), delta @ xs.T / n)   # dL/dW = (1/N) Δ X^T
    assert close(grad(lambda b_: loss(b_=b_), bias), delta.sum(axis=1, keepdims=True) / n)
    dx = grad(lambda xs_: loss(xs_=xs_), xs)
    assert close(dx, w.T @ delta / n) and not close(dx, w.T @ delta)  # the page's W^T Δ
    a, bm = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 2))          # Y = AB
    gy = RNG.normal(size=(2, 2))
    assert close(grad(lambda a_: np.sum(gy * (a_ @ bm)), a), gy @ bm.T)
    assert close(grad(lambda b_: np.sum(gy * (a @ b_)), bm), a.T @ gy)


def n_kesuuyof():
    x, w, b, g, loss = affine((1, 2), (2, 3))
    assert close(grad(lambda x_: loss(x_, w, b), x), g @ w.T)         # dL/dX = dL/dY W^T
    assert close(grad(lambda w_: loss(x, w_, b), w), x.T @ g)         # dL/dW = X^T dL/dY
    e = {k: RNG.normal() for k in ("11", "12", "13", "21", "22", "23", "31", "32")}
    page_w = np.array([[e["11"], e["21"], e["31"]], [e["12"], e["22"], e["32"]]])
    page_wt = np.array([[e["11"], e["21"]], [e["12"], e["22"]], [e["13"], e["23"]]])
    assert not close(page_w.T, page_wt)                               # the two displays disagree
    row = np.array([[e["11"], e["21"], e["31"]]])
    assert (row @ page_wt).shape == (1, 2) != (3, 1)                  # not the page's column


def n_hetanshwaghela():
    w, x, b, g = (RNG.normal(size=s) for s in ((3, 2), (2, 1), (3, 1), (3, 1)))
    loss = lambda w_=w, x_=x, b_=b: np.sum(g * (w_ @ x_ + b_))        # g = dL/dz
    assert close(grad(lambda w_: loss(w_=w_), w), g @ x.T)            # dL/dW = dL/dz x^T
    assert close(grad(lambda x_: loss(x_=x_), x), w.T @ g)            # dL/dx = W^T dL/dz
    assert close(grad(lambda b_: loss(b_=b_), b), g)                  # dL/db = dL/dz


def n_affine_zh():
    x, w, b, g, loss = affine((2, 3), (3, 4))
    b = RNG.normal(size=(2, 4))                                       # B of Y's shape
    assert close(grad(lambda x_: loss(x_, w, b), x), g @ w.T)
    assert close(grad(lambda w_: loss(x, w_, b), w), x.T @ g)
    assert close(grad(lambda b_: loss(x, w, b_), b), g)
    assert undefined(lambda: w.T @ g)                                 # the page's W^T dL/dY


def n_robotchinwag():
    x, a, b, g = (RNG.normal(size=s) for s in ((2, 3), (4, 3), (1, 4), (2, 4)))
    loss = lambda x_=x, a_=a, b_=b: np.sum(g * (x_ @ a_.T + b_))
    c = a.T
    assert close(np.einsum("ik,kj->ij", x, c) + np.ones((2, 1)) * b, x @ a.T + b)
    dx, da = grad(lambda x_: loss(x_=x_), x), grad(lambda a_: loss(a_=a_), a)
    assert close(dx, np.einsum("pj,qj->pq", g, c)) and close(dx, g @ a)
    assert close(da, np.einsum("ip,iq->pq", g, x)) and close(da, g.T @ x)
    db = grad(lambda b_: loss(b_=b_), b)
    assert close(db, g.sum(axis=0, keepdims=True)) and close(db, np.ones((1, 2)) @ g)


def n_dl_memo():
    a = RNG.normal(size=3)
    y = softmax(a)
    jac = np.array([grad(lambda a_: softmax(a_)[k], a) for k in range(3)])   # [k, j]
    k, j = 0, 1
    assert close(jac[k, j], -y[k] * y[j]) and not close(jac[k, j], -y[j])  # the page: -y_j
    assert close(jac[j, j], y[j] * (1 - y[j]))
    t = np.eye(3)[2]
    assert close(grad(lambda a_: -np.sum(t * np.log(softmax(a_))), a), y - t)


def n_annp0():
    w, x, g = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)), RNG.normal(size=(2, 4))
    loss = lambda w_=w, x_=x: np.sum(g * (w_ @ x_))
    dx = grad(lambda x_: loss(x_=x_), x)
    assert close(dx, w.T @ g)                                         # ∂L/∂X = W^T ∂L/∂Y
    assert close(dx, np.einsum("in,im->mn", g, w))                    # Σ_i ∂L/∂y_in w_im
    jac = np.einsum("ia,ma,nj->ijmn", w, np.eye(3), np.eye(4))        # Σ_a w_ia δ_ma δ_nj
    assert close(jac, np.einsum("im,nj->ijmn", w, np.eye(4)))         # = w_im δ_nj
    assert close(grad(lambda w_: loss(w_=w_), w), g @ x.T)            # ∂L/∂W = ∂L/∂Y X^T


def n_frobenius():
    x, w, g = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)), RNG.normal(size=(2, 4))
    loss = lambda x_=x, w_=w: np.sum(g * (x_ @ w_))
    assert close(grad(lambda x_: loss(x_=x_), x), g @ w.T)            # ∂L/∂X = ∂L/∂Y W^T
    assert close(grad(lambda w_: loss(w_=w_), w), x.T @ g)            # ∂L/∂W = X^T ∂L/∂Y
    dx, dw = 1e-6 * RNG.normal(size=(2, 3)), 1e-6 * RNG.normal(size=(3, 4))
    change = (x + dx) @ (w + dw) - x @ w
    assert np.allclose(change, dx @ w + x @ dw, atol=1e-10)           # dY = dX W + X dW
    assert undefined(lambda: w @ dx)                                  # the page's W dX
    assert undefined(lambda: g @ x)                                   # the refuted ∂L/∂Y X
    assert np.isclose(np.sum(g * (dx @ w)), np.trace(g.T @ dx @ w))   # A : B = Tr(A^T B)
    assert np.isclose(np.sum(g * (dx @ w + x @ dw)),                  # the cyclic moves
                      np.sum((g @ w.T) * dx) + np.sum((x.T @ g) * dw))


def n_chicm():
    o, y = np.array([2.0, 3.0, 4.0]), np.array([0.0, 1.0, 0.0])
    p = softmax(o)
    assert np.allclose(p, [0.090, 0.245, 0.665], atol=5e-4)
    assert abs(-np.log(0.245) - 1.406) < 5e-4
    ce = lambda o_: -np.sum(y * np.log(softmax(o_)))
    assert close(grad(ce, o), p - y)                                  # ∂L/∂o = p - y
    assert np.allclose(p - y, [0.090, -0.755, 0.665], atol=5e-4)      # not the page's -0.775
    assert not np.isclose((p - y)[1], -0.775, atol=5e-4)
    page = np.exp(np.arange(1, 4)) / np.exp(np.arange(1, 4)).sum()   # e^j / Σ e^i, as written:
    other = RNG.normal(size=3)                                        # the same for every o
    assert not close(page, softmax(other))


def n_zingale():
    sig = lambda t: 1 / (1 + np.exp(-t))
    for xi in (-1.3, 0.2, 2.1):
        slope = (sig(xi + 1e-6) - sig(xi - 1e-6)) / 2e-6
        assert np.isclose(slope, np.exp(-xi) / (1 + np.exp(-xi)) ** 2)   # -(1+e^-ξ)^-2 (-e^-ξ)
        assert np.isclose(slope, sig(xi) * (1 - sig(xi)))
        assert not np.isclose(slope, (1 + np.exp(-xi)) ** 2 * np.exp(-xi))  # the page's ^2
    a, x, y = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 1)), RNG.normal(size=(2, 1))
    f = lambda a_: np.sum((sig(a_ @ x) - y) ** 2)
    z = sig(a @ x)
    assert close(grad(f, a), 2 * (z - y) * z * (1 - z) @ x.T)        # ∂f/∂A


def n_goubasarian():
    n, h = 3, 2
    q, k, v, g = (RNG.normal(size=(n, h)) for _ in range(4))         # g = ∂L/∂C
    c = 1 / np.sqrt(h)
    ones = np.ones((n, 1))
    w = c * q @ k.T
    b1 = np.exp(w)
    b2 = b1 @ ones
    b3 = 1 / b2                                                        # entry by entry
    b4 = b3 @ ones.T
    b = b1 * b4
    assert close(b, softmax(w))                                       # the split holds
    loss_b = lambda b_: np.sum(g * (b_ @ v))
    z1 = b.T @ g
    assert close(grad(lambda v_: np.sum(g * (b @ v_)), v), z1)        # ∂L/∂V = B^T ∂L/∂C
    gb = grad(loss_b, b)
    assert close(gb, g @ v.T) and not close(gb, z1 @ v.T)             # not the page's ζ_1 V^T
    z3 = b1 * gb
    assert close(grad(lambda b4_: loss_b(b1 * b4_), b4), z3)          # ζ_3 = B_1 ⊙ ∂L/∂B
    z4 = z3 @ ones
    assert close(grad(lambda b3_: loss_b(b1 * (b3_ @ ones.T)), b3), z4)
    z5 = -(1 / (b2 * b2)) * z4
    assert close(grad(lambda b2_: loss_b(b1 * ((1 / b2_) @ ones.T)), b2), z5)
    loss_b1 = lambda b1_: loss_b(b1_ * ((1 / (b1_ @ ones)) @ ones.T))
    z6 = grad(loss_b1, b1)
    assert close(z6, z5 @ ones.T + gb * b4)                           # the second path: ∂L/∂B ⊙ B_4
    assert not close(z6, z5 @ ones.T + z3 * b4)                       # not the page's ζ_3 ⊙ B_4
    z7 = grad(lambda w_: loss_b(softmax(w_)), w)
    assert close(z7, b1 * z6)                                         # ζ_7 = B_1 ⊙ ζ_6
    loss_qk = lambda q_, k_: np.sum(g * (softmax(c * q_ @ k_.T) @ v))
    assert close(grad(lambda q_: loss_qk(q_, k), q), c * z7 @ k)      # ∂L/∂Q = ζ_7 K/√d_k
    dk = grad(lambda k_: loss_qk(q, k_), k)
    assert close(dk, c * z7.T @ q) and not close(dk, c * z7 @ q)      # ζ_7^T Q/√d_k, not ζ_7 Q
    assert not close(q @ k.T, k @ q.T) and close(q @ k.T, (k @ q.T).T)  # QK^T is not KQ^T
    wm, x1 = RNG.normal(size=(3, 2)), RNG.normal(size=(2, 3))         # W n x m, X_1, X_2 m x n
    assert (wm @ x1).shape != (x1 @ wm).shape                         # Y_1 + Y_2: 3x3 + 2x2


def n_ouroboros():
    i, w, b = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 2)), RNG.normal(size=(1, 2))
    o = np.array([[sum(i[r, k] * w[k, c] for k in range(3)) + b[0, c] for c in range(2)]
                  for r in range(2)])                                 # o_11 = i_11 w_11 + ... + b_1
    assert close(o, i @ w + b) and not close(o, i @ w)                # out = input × W leaves out b
    g = RNG.normal(size=(2, 2))                                       # dl/do_ij
    db = grad(lambda b_: np.sum(g * (i @ w + b_)), b)
    assert close(db, [[g[0, 0] + g[1, 0], g[0, 1] + g[1, 1]]])        # dl/db_1 = dl/do_11 + dl/do_21
    m, eps = 5, 1e-5
    x, gam, bet, dy = RNG.normal(size=m), 1.3, 0.4, RNG.normal(size=m)
    norm = lambda x_: (x_ - x_.mean()) / np.sqrt(x_.var() + eps)
    loss = lambda x_, g_=gam, b_=bet: np.sum(dy * (g_ * norm(x_) + b_))
    dgam = (loss(x, gam + 1e-6) - loss(x, gam - 1e-6)) / 2e-6
    assert np.isclose(dgam, np.sum(dy * norm(x))) and not np.isclose(dgam, np.sum(dy * x))
    dbet = (loss(x, gam, bet + 1e-6) - loss(x, gam, bet - 1e-6)) / 2e-6
    assert np.isclose(dbet, np.sum(dy))
    mu, var = x.mean(), x.var()
    xhat = lambda x_, mu_=mu, var_=var: (x_ - mu_) / np.sqrt(var_ + eps)   # the graph's node
    h = 1e-6
    assert np.allclose((xhat(x, mu + h) - xhat(x, mu - h)) / (2 * h), -1 / np.sqrt(var + eps))
    assert np.allclose((xhat(x, mu, var + h) - xhat(x, mu, var - h)) / (2 * h),
                       (x - mu) * -0.5 * (var + eps) ** -1.5)
    s2 = lambda x_, mu_=mu: np.mean((x_ - mu_) ** 2)                  # σ² with μ held fixed
    assert close(grad(s2, x), 2 * (x - mu) / m)
    assert np.isclose((s2(x, mu + h) - s2(x, mu - h)) / (2 * h), -2 * np.sum(x - mu) / m)


def n_layernorm():
    n, eps = 4, 1e-5
    x, gam, bet, g = (RNG.normal(size=n) for _ in range(4))
    mu, var = x.mean(), x.var()
    assert np.isclose(np.sum(x - mu) / n, 0) and var > 0.01           # the page's σ² is 0
    loss = lambda x_: np.sum(g * (gam * (x_ - x_.mean()) / np.sqrt(x_.var() + eps) + bet))
    dsig = np.sum(g * gam * (x - mu) * -0.5 * (var + eps) ** -1.5)    # ∂L/∂σ² (line 44)
    xhat_of = lambda x_, mu_, var_: (x_ - mu_) / np.sqrt(var_ + eps)
    lg = lambda mu_=mu, var_=var: np.sum(g * (gam * xhat_of(x, mu_, var_) + bet))
    assert np.isclose((lg(var_=var + 1e-6) - lg(var_=var - 1e-6)) / 2e-6, dsig)
    dmu = np.sum(g * gam * -1 / np.sqrt(var + eps)) - dsig * 2 / n * np.sum(x - mu)
    assert np.isclose((lg(mu_=mu + 1e-6) - lg(mu_=mu - 1e-6)) / 2e-6, dmu)   # line 46
    dx = grad(loss, x)
    page = gam / np.sqrt(var + eps) + dsig * 2 / n * (x - mu) + dmu / n
    right = g * gam / np.sqrt(var + eps) + dsig * 2 / n * (x - mu) + dmu / n
    assert close(dx, right) and not close(dx, page)                  # line 48 drops ∂L/∂y_i
    xhat = (x - mu) / np.sqrt(var + eps)
    lgb = lambda gam_=gam, bet_=bet: np.sum(g * (gam_ * xhat + bet_))
    assert close(grad(lambda gam_: lgb(gam_=gam_), gam), g * xhat)
    assert close(grad(lambda bet_: lgb(bet_=bet_), bet), g)


def n_yanfenglee():
    z = RNG.normal(size=3)
    a = softmax(z)
    jac = np.array([grad(lambda z_: softmax(z_)[j], z) for j in range(3)])   # [j, i]
    assert close(np.diag(jac), a * (1 - a))                           # i = j: a_i(1 - a_i)
    assert close(jac[0, 1], -a[1] * a[0]) and close(jac[2, 0], -a[0] * a[2])  # i ≠ j
    y = RNG.dirichlet(np.ones(3))                                     # Σ_k y_k = 1
    dz = grad(lambda z_: -np.sum(y * np.log(softmax(z_))), z)
    for i in range(3):
        rest = [k for k in range(3) if k != i]
        steps = [
            -sum(y[k] / a[k] * jac[k, i] for k in range(3)),
            -y[i] * (1 - a[i]) - sum(y[k] / a[k] * (-a[k] * a[i]) for k in rest),
            -y[i] * (1 - a[i]) + sum(y[k] * a[i] for k in rest),
            -y[i] + y[i] * a[i] + sum(y[k] * a[i] for k in rest),
            a[i] * y.sum() - y[i],
            a[i] - y[i],
        ]
        assert np.allclose(steps, dz[i], atol=1e-6)


def n_zh_notes():
    m, n, p = 2, 3, 4
    w, x, g = RNG.normal(size=(m, n)), RNG.normal(size=(n, p)), RNG.normal(size=(m, p))
    dw = grad(lambda w_: np.sum(g * (w_ @ x)), w)
    assert close(dw, g @ x.T)                                         # ∂L/∂W = ∂L/∂Y X^T
    sums = lambda q: np.array([[sum(g[d, j] * x[c, j] for j in range(q)) for c in range(n)]
                               for d in range(m)])                    # Σ_{j=1}^{q} ∂L/∂Y_dj X_cj
    assert close(sums(p), dw) and not close(sums(p - 1), dw)          # the bound is p, not q
    for d, c in ((0, 1), (1, 2)):
        e = np.zeros_like(w)
        e[d, c] = 1e-6
        jac = ((w + e) @ x - (w - e) @ x) / 2e-6                      # [i, j]
        assert close(jac, np.outer(np.eye(m)[d], x[c]))               # δ_id X_cj: 0 for i ≠ d
    xs, ys = 0.7, -0.4
    assert np.isclose(((xs - (ys + 1e-6)) - (xs - (ys - 1e-6))) / 2e-6, -1)   # ∂z/∂y = -1


def n_brightlamp():
    m, k, n = 3, 4, 2
    x, w, b, g = (RNG.normal(size=s) for s in ((m, k), (n, k), (1, n), (m, n)))
    a = x @ w.T + b
    assert close(a, [[sum(x[i, t] * w[j, t] for t in range(k)) + b[0, j] for j in range(n)]
                     for i in range(m)])                              # a_ij = Σ_t x_it w_jt + b_j
    loss = lambda x_=x, w_=w, b_=b: np.sum(g * (x_ @ w_.T + b_))
    assert close(grad(lambda x_: loss(x_=x_), x), g @ w)              # de/dX = ∇e_(A) W
    dw = grad(lambda w_: loss(w_=w_), w)
    assert close(dw, g.T @ x)                                         # de/dW = ∇e_(A)^T X
    assert close(grad(lambda b_: loss(b_=b_), b), g.sum(axis=0, keepdims=True))
    wv = RNG.normal(size=(1, k))
    assert (x @ wv.T).shape == (m, 1) and m != k                      # a has m entries, not k
    typo = sum(g[i, 1] * x[i, 1] for i in range(2, m))                # \sum_{i=3}^{m} a_{i2}' x_{i2}
    assert not np.isclose(typo, dw[1, 1])
    w2 = RNG.normal(size=(k, n))                                      # the other definition
    loss2 = lambda x_=x, w_=w2: np.sum(g * (x_ @ w_ + b))
    assert close(grad(lambda x_: loss2(x_=x_), x), g @ w2.T)
    assert close(grad(lambda w_: loss2(w_=w_), w2), x.T @ g)


def attention_parts(m=2, n=3, d=2, scale=True):
    q, k, v = RNG.normal(size=(m, d)), RNG.normal(size=(n, d)), RNG.normal(size=(n, d))
    g = RNG.normal(size=(m, d))
    c = 1 / np.sqrt(d) if scale else 1.0
    return q, k, v, g, c


def n_planckeon():
    q, k, v, g, c = attention_parts()
    s = c * q @ k.T
    a = softmax(s)
    assert close(grad(lambda v_: np.sum(g * (a @ v_)), v), a.T @ g)  # dL/dV = A^T dL/dO
    assert close(grad(lambda a_: np.sum(g * (a_ @ v)), a), g @ v.T)  # dL/dA = dL/dO V^T
    da = g @ v.T
    ds = a * (da - np.sum(a * da, axis=1, keepdims=True))             # the softmax backward
    assert close(grad(lambda s_: np.sum(g * (softmax(s_) @ v)), s), ds)
    dq = grad(lambda q_: np.sum(g * (softmax(c * q_ @ k.T) @ v)), q)
    assert close(dq, c * ds @ k)                                      # via dS^{ij}/dQ^{kl}


def n_edwardshu():
    w, x, g = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)), RNG.normal(size=(2, 4))
    assert close(grad(lambda w_: np.sum(g * (w_ @ x)), w), g @ x.T)   # dL/dW = dL/dD X^T


def n_w32zhong():
    w, x, b, g = (RNG.normal(size=s) for s in ((2, 3), (3, 1), (2, 1), (2, 1)))
    assert close(grad(lambda w_: np.sum(g * (w_ @ x + b)), w), g @ x.T)
    assert close(grad(lambda b_: np.sum(g * (w @ x + b_)), b), g)


def jacobian_of_softmax():
    x = RNG.normal(size=3)
    p = softmax(x)
    jac = np.array([grad(lambda x_: softmax(x_)[i], x) for i in range(3)])
    assert close(jac, np.diag(p) - np.outer(p, p))                   # y_i (δ_ij - y_j)
    return x, p


def n_rainbow():
    x, p = jacobian_of_softmax()                                      # the page's (1-2) holds
    assert close(np.exp(x) / np.exp(x).sum(), p)                      # with e^{x_j}, not e_{x_j}


def n_webdevqa():
    o, p = jacobian_of_softmax()
    i, j = 0, 1
    total = np.exp(o).sum()
    assert close(-np.exp(o[j]) * np.exp(o[i]) / total ** 2, -p[j] * p[i])
    typo = -(np.exp(o[j]) / total) * (np.exp(o[j]) / total)           # the published line
    assert not close(typo, -p[j] * p[i])


def n_matchlab():
    m, n = 2, 3
    x = RNG.normal(size=(m, n))
    t = np.eye(n)[[2, 0]]
    loss = lambda x_: -np.sum(t * np.log(softmax(x_))) / m
    assert close(grad(loss, x), (softmax(x) - t) / m)


def n_indepa():
    x = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]])
    wq = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])
    wk = np.array([[1, 0], [0, 1], [0, 1], [1, 0]])
    q_page = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])
    k_page = np.array([[1, 0], [0, 1], [0, 1], [1, 0]])
    e_page = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]])
    assert (x @ wq)[0].tolist() == [2, 0] and not close(x @ wq, q_page)
    assert not close(x @ wk, k_page)
    assert (q_page @ k_page.T)[0].tolist() == [1, 0, 0, 1] and not close(q_page @ k_page.T, e_page)


def n_bookai():
    x = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
    assert (x @ x.T)[0].tolist() == [2, 0, 1] and (x @ x.T)[1, 0] == 0


def n_omkarchebale():
    x = np.array([[1, 0], [0, 2], [1, 1]])
    wq, wk, wv = np.eye(2), np.array([[1, 1], [0, 1]]), np.eye(2)
    assert close(x @ wq, [[1, 0], [0, 2], [1, 1]]) and close(x @ wk, [[1, 1], [0, 2], [1, 2]])
    assert (x @ wv)[1].tolist() == [0, 2]                             # not the page's [2, 2]


def n_wpnews():
    q, k = RNG.normal(size=(3, 3)), RNG.normal(size=(3, 3))
    page = np.array([[sum(q[i, j] * k[j, c] for j in range(3)) for c in range(3)]
                     for i in range(3)])                              # q_{i1}k_{1c} + ...
    assert close(page, q @ k) and not close(page, q @ k.T)


def n_vukrosic():
    q1 = np.array([1, 0, 0])
    keys = np.array([[1, 1, 0], [1, 1, 0], [0, 1, 1]])
    assert (keys @ q1).tolist() == [1, 1, 0]
    assert np.allclose(softmax(keys @ q1 / np.sqrt(3)), [0.39, 0.39, 0.22], atol=0.005)


def n_aise():
    x, wq, wk = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2))
    assert close(x @ wq @ (x @ wk).T, x @ wq @ wk.T @ x.T)
    assert undefined(lambda: x @ wq @ wk.T @ x)                       # the page's x W^Q (W^K)^T x


def n_willetts():
    q, k, v, g, c = attention_parts()
    s = np.array([[c * sum(q[i, kk] * k[j, kk] for kk in range(2)) for j in range(3)]
                  for i in range(2)])
    assert close(s, c * q @ k.T)
    a = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    assert close(a, softmax(s))
    assert close(grad(lambda v_: np.sum(g * (a @ v_)), v), a.T @ g)  # Σ_{a,b} G_ab ∂O_ab/∂V_jp


def n_notion():
    q, k, v, _, c = attention_parts(2, 2, 2)
    scores = q @ k.T * c
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    assert close(weights @ v, softmax(scores) @ v)                    # the formula, row-wise


def n_zakariapz():
    a = RNG.normal(size=3)
    p = softmax(a)
    y = np.eye(3)[1]
    jac = np.array([grad(lambda a_: softmax(a_)[j], a) for j in range(3)])   # [j, i]
    assert close(jac, np.diag(p) - np.outer(p, p))                   # p_j(δ_ij - p_i)
    for j in range(3):
        h = 1e-6
        ell = lambda p_: y[j] * np.log(p_)                           # ℓ_j: L = -Σ ℓ_j
        d = (ell(p[j] + h) - ell(p[j] - h)) / (2 * h)
        assert np.isclose(d, y[j] / p[j]) and (y[j] == 0 or not np.isclose(d, -y[j] / p[j]))
    dl = grad(lambda a_: -np.sum(y * np.log(softmax(a_))), a)
    page = np.array([sum(-y[j] / p[j] * jac[j, i] for j in range(3)) for i in range(3)])
    assert close(dl, page) and close(dl, p - y)                      # line 38 with its -y_j/p_j
    chain = np.array([-sum(-y[j] / p[j] * jac[j, i] for j in range(3)) for i in range(3)])
    assert not close(dl, chain)                                      # line 31's minus kept


def n_hongseoi():
    x = np.array([[1.0, 0], [0, 1], [1, 1]])
    w = np.array([[1.0, 2, 3], [4, 5, 6]])
    b = np.array([[7.0, 8, 9]])
    g = np.array([[2.0, 1, -1], [1, 0, 0], [0, 0, 1]])
    assert g.sum(axis=0).tolist() == [3, 1, 0]
    assert (x.T @ g).tolist() == [[2, 1, 0], [1, 0, 1]]
    assert (g @ w.T).tolist() == [[1, 7], [1, 4], [3, 6]]
    loss = lambda x_=x, w_=w, b_=b: np.sum(g * (x_ @ w_ + b_))
    assert close(grad(lambda b_: loss(b_=b_), b), [[3, 1, 0]])
    assert close(grad(lambda w_: loss(w_=w_), w), x.T @ g)
    assert close(grad(lambda x_: loss(x_=x_), x), g @ w.T)


def n_sunhaozhe():
    o = RNG.normal(size=3)
    p = softmax(o)
    jac = np.array([grad(lambda o_: softmax(o_)[i], o) for i in range(3)])   # [i, k]
    cases = np.array([[p[k] * (1 - p[k]) if i == k else -p[k] * p[i] for k in range(3)]
                      for i in range(3)])
    assert close(jac, cases)
    s = np.exp(o).sum()
    for k in range(3):                                               # the quotient rule, i = k
        assert np.isclose((np.exp(o[k]) * s - np.exp(o[k]) ** 2) / s ** 2, p[k] * (1 - p[k]))
    y = np.eye(3)[2]
    dl = grad(lambda o_: -np.sum(y * np.log(softmax(o_))), o)
    for k in range(3):
        steps = [-sum(y[i] / p[i] * jac[i, k] for i in range(3)),
                 -y[k] * (1 - p[k]) + sum(y[i] * p[k] for i in range(3) if i != k),
                 -y[k] + sum(y[i] * p[k] for i in range(3)),
                 p[k] - y[k]]
        assert np.allclose(steps, dl[k], atol=1e-6)
    a, bm, x = RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2)), RNG.normal(size=2)
    f = lambda x_: (a @ x_) @ (bm @ x_)                              # u^T v, u = Ax, v = Bx
    assert close(grad(f, x), a.T @ (bm @ x) + bm.T @ (a @ x))        # ∇(u^T) v + ∇(v^T) u


def n_mathse_3400818():
    h, u, b2 = RNG.normal(size=(1, 30)), RNG.normal(size=(30, 5)), RNG.normal(size=(1, 5))
    y = np.eye(5)[[3]]
    loss = lambda u_=u, b_=b2: -np.sum(y * np.log(softmax(h @ u_ + b_)))
    yhat = softmax(h @ u + b2)
    assert close(grad(lambda u_: loss(u_=u_), u), h.T @ (yhat - y))  # 30 x 5
    assert close(grad(lambda b_: loss(b_=b_), b2), yhat - y)         # dJ/db_2 holds
    assert undefined(lambda: (yhat - y) @ h)                         # the page's (ŷ - y)h


def n_leeinx():
    x = np.array([[1, 2], [0, 1], [3, 1]])
    wq, wk, wv = np.eye(2), np.array([[1, 1], [0, 1]]), np.array([[1, 0], [1, 1]])
    assert close(x @ wq, x)                                          # Q = X · W_Q = X
    assert (x @ wk).tolist() == [[1, 3], [0, 1], [3, 4]]
    assert (x @ wv).tolist() == [[3, 2], [1, 1], [4, 1]]


def n_taro137():
    x = RNG.normal(size=5)
    h = x.size
    mu = lambda x_: x_.mean()
    sigma = lambda x_: np.sqrt(np.mean((x_ - x_.mean()) ** 2))
    y = lambda x_: (x_ - mu(x_)) / sigma(x_)
    s, yv, eye = sigma(x), y(x), np.eye(h)
    jac = np.array([grad(lambda x_: y(x_)[i], x) for i in range(h)])          # [i, j]
    dsig = grad(sigma, x)
    dvar = grad(lambda x_: np.mean((x_ - x_.mean()) ** 2), x)
    lines = [(eye - 1 / h) / s - np.outer(x - mu(x), dsig) / s ** 2,
             (eye - 1 / h) / s - np.outer(x - mu(x), dvar) / (2 * s ** 3),
             (eye - 1 / h - np.outer(x - mu(x), x - mu(x)) / (h * s ** 2)) / s,
             (eye - (1 + np.outer(yv, yv)) / h) / s]
    for line in lines:
        assert close(line, jac)
    g = RNG.normal(size=h)                                                    # ∂L/∂y
    dx = grad(lambda x_: g @ y(x_), x)
    assert close(jac.T @ g, dx)                                               # Σ_i ∂y_i/∂x_j ∂L/∂y_i
    assert close((g - (g.sum() + (yv @ g) * yv) / h) / s, dx)
    a, b = g.sum(), np.einsum("...i,...i->...", yv, g)                        # the page's Python
    assert close((g - (a + b * yv) / h) / s, dx)


def n_hatahatadev():
    for x in (np.array([1.0, 2.0]), RNG.normal(size=4)):
        page = np.exp(x) / np.array([sum(np.exp(x[i]) for _ in x) for i in range(x.size)])
        assert close(page, np.full(x.size, 1 / x.size)) and not close(page, softmax(x))
    z = np.e + np.e ** 2
    assert np.isclose(z, 10.107, atol=1e-3)
    y = softmax(np.array([1.0, 2.0]))
    assert np.allclose(y, [0.269, 0.731], atol=5e-4) and np.isclose(y.sum(), 1)
    assert np.allclose([np.e / z, np.e ** 2 / z], y)


def n_nagoya():
    y = RNG.normal(size=3)
    f = softmax(y)
    u = np.exp(y).sum()
    jac = np.array([grad(lambda y_: softmax(y_)[i], y) for i in range(3)])   # [i, i']
    du = np.exp(y)                                                            # ∂u/∂y_{i'}
    d = np.eye(3)
    lines = [np.exp(y)[:, None] * d / u - np.outer(np.exp(y) / u ** 2, du),
             np.exp(y)[:, None] / u * d - np.outer(np.exp(y) / u ** 2, np.exp(y)),
             np.exp(y)[:, None] / u * (d - np.exp(y)[None, :] / u),
             f[:, None] * (d - f[None, :])]
    for line in lines:
        assert close(line, jac)


def n_sumikitch():
    x = RNG.normal(size=3)
    y, z = softmax(x), np.exp(x).sum()
    jac = np.array([grad(lambda x_: softmax(x_)[i], x) for i in range(3)])   # [i, j]
    for i in range(3):
        assert np.isclose((np.exp(x[i]) * z - np.exp(x[i]) ** 2) / z ** 2, jac[i, i])
        assert np.isclose(np.exp(x[i]) / z - (np.exp(x[i]) / z) ** 2, y[i] * (1 - y[i]))
        for j in range(3):
            if i != j:
                steps = [(0 * z - np.exp(x[i]) * np.exp(x[j])) / z ** 2,     # ∂e^{x_i}/∂x_j = 0
                         -np.exp(x[i]) * np.exp(x[j]) / z ** 2, -y[i] * y[j]]
                assert np.allclose(steps, jac[i, j], atol=1e-6)
    for i in (2, 3):                                                          # yi: y times i
        assert not np.isclose(y[i - 1] * (1 - y[i - 1] * i), jac[i - 1, i - 1])


def n_fumishiki():
    with np.errstate(invalid="ignore"):
        p = np.exp([1.0, 2.0, -np.inf, 3.0]) / np.exp([1.0, 2.0, -np.inf, 3.0]).sum()
    assert np.allclose(p, [0.0900, 0.2447, 0.0, 0.6652], atol=5e-5)
    page = np.array([0.0116, 0.0315, 0.0, 0.8569])
    assert not np.allclose(page, p, atol=1e-3) and np.isclose(page.sum(), 0.9)
    q, k, v = (RNG.normal(size=(4, 2)) for _ in range(3))
    mask = np.where(np.tri(4, dtype=bool), 0.0, -np.inf)
    a = softmax(q @ k.T / np.sqrt(2) + mask)
    assert np.allclose(np.triu(a, 1), 0) and np.allclose(a.sum(axis=1), 1)
    assert (a @ v).shape == (4, 2)


def n_ningyuwhut():
    theta = RNG.normal(size=3)
    yhat = softmax(theta)
    e, total = np.exp(theta), np.exp(theta).sum()
    jac = np.array([grad(lambda t_: softmax(t_)[j], theta) for j in range(3)])   # [j, k]
    for j in range(3):
        assert np.isclose((e[j] * total - e[j] * e[j]) / total ** 2, jac[j, j])  # k = j
        assert np.isclose(e[j] / total - (e[j] / total) ** 2, yhat[j] * (1 - yhat[j]))
        for k in range(3):
            if k != j:
                assert np.isclose(-e[j] * e[k] / total ** 2, jac[j, k])
                assert np.isclose(-yhat[j] * yhat[k], jac[j, k])
    y = np.eye(3)[1]
    dj = grad(lambda t_: -np.sum(y * np.log(softmax(t_))), theta)
    for k in range(3):
        others = [i for i in range(3) if i != k]
        steps = [-sum(y[i] / yhat[i] * jac[i, k] for i in range(3)),
                 -y[k] / yhat[k] * yhat[k] * (1 - yhat[k])
                 - sum(y[i] / yhat[i] * (-yhat[i] * yhat[k]) for i in others),
                 -y[k] * (1 - yhat[k]) + sum(y[i] * yhat[k] for i in others),
                 -y[k] + y[k] * yhat[k] + sum(y[i] * yhat[k] for i in others),
                 yhat[k] * y.sum() - y[k], yhat[k] - y[k]]
        assert np.allclose(steps, dj[k], atol=1e-6)


def n_mattpetersen():
    x = RNG.normal(size=(1, 3))
    s = softmax(x)
    jac = np.array([grad(lambda x_: softmax(x_)[0, i], x)[0] for i in range(3)])  # [i, j]
    assert close(jac, np.diag(s[0]) - s.T @ s)                       # diag(s) - s^T s, s a row
    assert close(np.diag(jac), s[0] - s[0] ** 2) and close(jac, jac.T)
    y = np.eye(3)[[2]]
    assert close(grad(lambda s_: -np.sum(y * np.log(s_)), s), -y / s)   # ∇_s H = -y/s
    dx = grad(lambda x_: -np.sum(y * np.log(softmax(x_))), x)
    lines = [-(y / s) @ (np.diag(s[0]) - s.T @ s), (y / s) @ s.T @ s - (y / s) @ np.diag(s[0]),
             y @ np.repeat(s, 3, axis=0) - y, s - y]
    for line in lines:
        assert close(line, dx)


def n_amanailab():
    def attention(q, k, v):
        return softmax(np.array(q) @ np.array(k).T / np.sqrt(2)) @ np.array(v)
    out = attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2], [3, 4]])
    assert close(np.round(out, 5), [[1.66048, 2.66048], [2.33952, 3.33952]])
    assert not np.allclose(out, [[1.66082, 2.66082], [2.33918, 3.33918]], atol=5e-6)
    one = attention([[1, 0]], [[1, 0], [0, 1]], [[10, 20], [30, 40]])
    assert close(np.round(one, 5), [[16.60477, 26.60477]])
    assert not np.allclose(one, [[16.60882, 26.60882]], atol=5e-6)
    weight = (out[0, 0] - 1) / 2                                      # the weight on V's row 2
    assert np.isclose(weight, 0.33024, atol=5e-6) and not np.isclose(weight, 0.33041, atol=5e-6)


def n_monoknock():
    a = np.array([[-1, 2, 3], [4, -5, 6], [7, 8, -9]])
    b = np.array([[0, 2, 1], [0, 2, -8], [2, 9, -1]])
    terms = [[(0, 0, 6), (-2, 4, 27), (-1, -16, -3)], [(0, 0, 12), (8, -10, 54), (4, 40, -6)],
             [(0, 0, -18), (14, 16, -81), (7, -64, 9)]]
    for i in range(3):
        for j in range(3):
            assert [a[i, k] * b[k, j] for k in range(3)] == list(terms[i][j])
    assert (a @ b).tolist() == [[6, 29, -20], [12, 52, 38], [-18, -51, -48]]
    assert [[sum(t) for t in row] for row in terms] == (a @ b).tolist()
    c = np.array([[1, 2, 3]])
    assert (a @ c.T).tolist() == [[12], [12], [-4]] != [[6], [12], [-18]]
    assert (a @ b)[:, :1].tolist() == [[6], [12], [-18]]              # the code's global b


def n_bushuhui():
    z = RNG.normal(size=3)
    a, e = softmax(z), np.exp(z)
    y = np.eye(3)[1]
    dc_da = grad(lambda a_: -np.sum(y * np.log(a_)), a)
    assert close(dc_da, -y / a)                                       # -y_j / a_j, one term
    assert not np.allclose(dc_da, -np.sum(y / a))                     # the page's sum
    assert np.isclose(grad(lambda a_: -np.sum(np.array([0, 1, 0]) * np.log(a_)),
                           np.array([0.2, 0.5, 0.3]))[0], 0)
    assert np.isclose(-np.sum(np.array([0, 1, 0]) / np.array([0.2, 0.5, 0.3])), -2)
    jac = np.array([grad(lambda z_: softmax(z_)[j], z) for j in range(3)])   # [j, i]
    for i in range(3):
        right = (e.sum() * e[i] - e[i] ** 2) / e.sum() ** 2
        page = (e.sum() * e[i] - e[i] ** 2) / np.sum(e ** 2)
        assert np.isclose(right, jac[i, i]) and not np.isclose(page, jac[i, i])
        assert np.isclose(a[i] * (1 - a[i]), jac[i, i])
        for j in range(3):
            if j != i:
                assert np.isclose((0 * e.sum() - e[j] * e[i]) / e.sum() ** 2, jac[j, i])
    dz = grad(lambda z_: -np.sum(y * np.log(softmax(z_))), z)
    for i in range(3):
        others = [j for j in range(3) if j != i]
        steps = [sum(-y[j] / a[j] * jac[j, i] for j in range(3)),
                 -y[i] / a[i] * a[i] * (1 - a[i]) + sum(y[j] / a[j] * a[i] * a[j] for j in others),
                 -y[i] + y[i] * a[i] + sum(y[j] * a[i] for j in others),
                 -y[i] + a[i] * y.sum(), -y[i] + a[i]]
        assert np.allclose(steps, dz[i], atol=1e-6)
    w, x, bias = RNG.normal(size=(3, 4)), RNG.normal(size=4), 0.3
    dw = grad(lambda w_: -np.sum(y * np.log(softmax(w_ @ x + bias))), w)
    p = softmax(w @ x + bias)
    assert close(dw, np.outer(p - y, x))                              # (a_i - y_i) x_j
    assert not close(dw, np.outer(p - y, np.ones(4)) * x[:3, None])   # the page's x_i


def n_hwanyo14():
    sig = lambda t: 1 / (1 + np.exp(-t))
    x, y = RNG.normal(size=(3, 3)), np.array([[1.0], [0.0], [1.0]])
    w1, b1, w2, b2 = (RNG.normal(size=s) for s in ((3, 2), (1, 2), (2, 1), (1, 1)))

    def loss(w1_=w1, b1_=b1, w2_=w2, b2_=b2):
        a2 = sig(sig(x @ w1_ + b1_) @ w2_ + b2_)
        return -np.sum(y * np.log(a2) + (1 - y) * np.log(1 - a2))

    a1 = sig(x @ w1 + b1)
    a2 = sig(a1 @ w2 + b2)
    ones = np.ones((3, 1))
    assert close(grad(lambda w_: loss(w2_=w_), w2), a1.T @ (-(y - a2)))      # line 61, 2 x 1
    db2 = grad(lambda b_: loss(b2_=b_), b2)
    assert close(db2, ones.T @ (-(y - a2))) and db2.shape == (1, 1) != w2.shape  # line 84
    inner = (-(y - a2)) @ w2.T * a1 * (1 - a1)
    assert close(grad(lambda w_: loss(w1_=w_), w1), x.T @ inner)              # line 157
    assert close(grad(lambda b_: loss(b1_=b_), b1), ones.T @ inner)           # line 162
    t = np.linspace(-10, 10, 2001)
    assert np.max(sig(t) * (1 - sig(t))) <= 0.25 < min(2.37, 6.10, 1.81, 4.82)  # line 124
    assert close(np.array([[0.7], [0.3], [0.6]]) @ np.array([[0.02, 0.16]]),
                 [[0.014, 0.112], [0.006, 0.048], [0.012, 0.096]])          # line 149's numbers


def n_ecomnet():
    z = RNG.normal(size=10)
    p, y = softmax(z), np.eye(10)[4]
    dl = grad(lambda z_: -np.sum(y * np.log(softmax(z_))), z)
    jac = np.array([grad(lambda z_: softmax(z_)[j], z) for j in range(10)])   # [j, i]
    for i in range(10):
        others = [j for j in range(10) if j != i]
        steps = [sum(-y[j] / p[j] * jac[j, i] for j in range(10)),
                 sum(-y[j] / p[j] * jac[j, i] for j in others) + (p[i] - 1) * y[i],
                 sum(p[i] * y[j] for j in others) + (p[i] - 1) * y[i], p[i] - y[i]]
        assert np.allclose(steps, dl[i], atol=1e-6)
    assert np.isclose(y.sum(), 1) and np.isclose(sum(y[4] for _ in range(10)), 10)
    zs, ys = RNG.normal(size=(3, 10)), np.eye(10)[[1, 7, 4]]
    batch = grad(lambda z_: -np.sum(ys * np.log(softmax(z_))), zs)
    assert close(batch, softmax(zs) - ys)                             # line 38
    page = np.array([[softmax(np.array([zs[r, c] - ys[r, 0]]))[0] for c in range(10)]
                     for r in range(3)])
    assert close(page, np.ones((3, 10))) and not close(page, batch)   # line 39


def n_mathse_3072387():
    x, w, b, y = (RNG.normal(size=s) for s in ((1, 4), (4, 10), (1, 10), (10, 1)))
    loss = lambda w_: ((x @ w_ + b) @ y).item()                       # L = f y
    dw = grad(loss, w)
    assert close(dw, x.T @ y.T) and (y @ x).shape == (10, 4) != dw.shape
    jac = np.zeros((10, 4, 10))                                       # ∂f_k / ∂W_ij
    for k in range(10):
        jac[k] = grad(lambda w_: (x @ w_ + b)[0, k], w)
    assert close(jac, np.einsum("i,jk->kij", x[0], np.eye(10)))     # x_i δ_jk: no matrix X
    assert close(grad(lambda f_: (f_ @ y).item(), x @ w + b), y.T)     # ∂L/∂f: y, laid as f
    dW = 1e-3 * RNG.normal(size=(4, 10))
    assert np.isclose(loss(w + dW) - loss(w), (x @ dW @ y).item())     # d(L) = X dW y


def n_sahilmalik27():
    n, d, h, c = 3, 4, 5, 3
    x, w1, b1, w2, b2 = (RNG.normal(size=s) for s in ((n, d), (d, h), (1, h), (h, c), (1, c)))
    y = np.eye(c)[[0, 2, 1]]

    def loss(w1_=w1, b1_=b1, w2_=w2, b2_=b2):
        p_ = softmax(np.maximum(x @ w1_ + b1_, 0) @ w2_ + b2_)
        return -np.sum(y * np.log(p_)) / n

    a1 = x @ w1 + b1
    hid = np.maximum(a1, 0)
    p = softmax(hid @ w2 + b2)
    dz = (p - y) / n                                                  # \delta z = (P - Y)/N
    assert close(grad(lambda z_: -np.sum(y * np.log(softmax(z_))) / n, hid @ w2 + b2), dz)
    assert close(grad(lambda w_: loss(w2_=w_), w2), hid.T @ dz)       # h^T \delta z
    assert close(grad(lambda b_: loss(b2_=b_), b2), dz.sum(axis=0, keepdims=True))
    dh = dz @ w2.T                                                    # \delta z W_2^T
    da1 = dh * (a1 > 0)                                               # \delta h ⊙ 1[a_1 > 0]
    assert close(grad(lambda w_: loss(w1_=w_), w1), x.T @ da1)        # X^T \delta a_1
    assert close(grad(lambda b_: loss(b1_=b_), b1), da1.sum(axis=0, keepdims=True))
    assert (hid.T @ dz).shape == (h, c) and (x.T @ da1).shape == (d, h)   # section 7


def n_gauravreddy08():
    w, a, b, g = (RNG.normal(size=s) for s in ((2, 3), (3, 1), (2, 1), (2, 1)))  # g = ŷ - y
    loss = lambda w_=w, a_=a: np.sum(g * (w_ @ a_ + b))
    assert close(grad(lambda w_: loss(w_=w_), w), g @ a.T)            # (ŷ - y)(a^{L-1})^T
    da = grad(lambda a_: loss(a_=a_), a)
    assert close(da, w.T @ g)                                         # (W^L)^T (ŷ - y)
    assert undefined(lambda: g @ w)                                   # the page's (ŷ - y) W^L
    w1, g1 = RNG.normal(size=(1, 3)), RNG.normal(size=(1, 1))         # n_L = 1
    assert (g1 @ w1).shape == (1, 3) != (w1.T @ g1).shape             # a row, not the column
    w0, a0, b0 = RNG.normal(size=(3, 4)), RNG.normal(size=(4, 1)), RNG.normal(size=(3, 1))
    net = lambda w0_: np.sum(g * (w @ np.maximum(w0_ @ a0 + b0, 0) + b))
    z0 = w0 @ a0 + b0
    assert close(grad(net, w0), ((w.T @ g) * (z0 > 0)) @ a0.T)        # line 124


def n_hanezu():
    x = RNG.normal(size=(2, 3))
    x[np.abs(x) < 0.1] = 0.5                                          # away from the kink
    g = RNG.normal(size=(2, 3))                                       # dL/dY
    dx = grad(lambda x_: np.sum(g * np.maximum(x_, 0)), x)
    assert close(dx, g * (x > 0))                                     # dL/dY * 1(X > 0)
    jac = np.zeros((2, 3, 2, 3))                                      # dY_{kl}/dX_{ij}
    for idx in np.ndindex(2, 3):
        jac[idx] = grad(lambda x_: np.maximum(x_, 0)[idx], x)
    assert close(np.einsum("kl,klij->ij", g, jac), dx)                # the sum over (k, l)
    off = jac.copy()
    for idx in np.ndindex(2, 3):
        off[idx + idx] = 0
    assert np.allclose(off, 0)                                        # 0 for (k,l) ≠ (i,j)


def n_sucruba70():
    x = np.array([1.0, 10.0, 100.0])
    mu, var = x.mean(), x.var()                                       # the biased variance
    std = np.sqrt(var + 1e-6)
    assert mu == 37 and var == 1998 and np.isclose(std, 44.6990, atol=5e-5)
    assert np.allclose((x - mu) / std, [-0.8054, -0.6040, 1.4094], atol=5e-5)
    assert not np.isclose(x.var(ddof=1), 1998)                        # not the unbiased one
    row, gam, bet, eps = RNG.normal(size=5), RNG.normal(size=5), RNG.normal(size=5), 1e-5
    m_ = np.sum(row) / 5                                              # \mu = (1/d) \sum x_i
    s2 = np.sum((row - m_) ** 2) / 5                                  # \sigma^2
    y = gam * (row - m_) / np.sqrt(s2 + eps) + bet                    # y_i = \gamma \hat x_i + \beta
    ref = (row - row.mean()) / np.sqrt(row.var() + eps)
    assert np.allclose(y, gam * ref + bet)


def n_daffodil2024():
    w = softmax(np.array([1.0, 0.0]) / np.sqrt(2))
    assert np.allclose(w, [0.66976, 0.33024], atol=5e-6)
    assert abs(0.668 - w[0]) > 5e-4 and np.isclose(round(w[0], 3), 0.670)   # line 66
    v = np.array([[1.0, 0.0], [2.0, 1.0]])
    assert np.allclose(0.668 * v[0] + 0.332 * v[1], [1.332, 0.332])   # the page's weights
    out = softmax(np.eye(2) / np.sqrt(2)) @ v
    assert np.allclose(out, [[1.3302, 0.3302], [1.6698, 0.6698]], atol=5e-5)
    assert not np.allclose(out, [[1.332, 0.332], [1.668, 0.668]], atol=5e-4)


def product(a, b, c):
    assert close(np.array(a) @ np.array(b), np.array(c))


NUMERIC = {
    "takasaki376-affine-backward": n_takasaki,
    "shun-tak-affine-backward": n_shun_tak,
    "shinnkura-matrix-backward": n_shinnkura,
    "joyabrata-mlp-relu-backward": n_joyabrata,
    "mathse-4820588-linear-xwt": n_mathse_4820588,
    "mathse-3979526-chain-rule": n_mathse_3979526,
    "zenn-kyoheyyy-backprop-cheatsheet": n_zenn,
    "planckeon-attention-gradients": n_planckeon,
    "edwardshu-matrix-matrix-gradient": n_edwardshu,
    "w32zhong-linear-layer-gradients": n_w32zhong,
    "rainbow-engine-softmax-derivative": n_rainbow,
    "webdevqa-softmax-derivative": n_webdevqa,
    "qiita-matchlab-softmax-cross-entropy": n_matchlab,
    "kesuuyof-affine-transpose": n_kesuuyof,
    "hetanshwaghela-matrix-form-backprop": n_hetanshwaghela,
    "affine-transformation-layer-zh": n_affine_zh,
    "robotchinwag-linear-layer-index": n_robotchinwag,
    "dl-memo-fc-softmax-ja": n_dl_memo,
    "annp0-matmul-index-backward": n_annp0,
    "frobenius-linear-backprop": n_frobenius,
    "chicm-softmax-ce-gradient": n_chicm,
    "zingale-sigmoid-layer-derivation": n_zingale,
    "ouroboros-batchnorm-affine-zh": n_ouroboros,
    "layernorm-backprop-derivation": n_layernorm,
    "yanfenglee-softmax-ce-derivative": n_yanfenglee,
    "zh-matrix-derivative-notes": n_zh_notes,
    "brightlamp-affine-backward-csdn": n_brightlamp,
    "indepa-sdpa-worked-example": n_indepa,
    "bookai-attention-numerical-walkthrough": n_bookai,
    "omkarchebale-self-attention-walkthrough": n_omkarchebale,
    "wpnews-attention-backprop-forward": n_wpnews,
    "vukrosic-attention-scores": n_vukrosic,
    "aise-25055-attention-gradient": n_aise,
    "goubasarian-attention-backprop": n_goubasarian,
    "willetts-attention-backward": n_willetts,
    "notion-self-attention-formula": n_notion,
    "statisticsschool-matrix-product":
        lambda: product([[2, 1], [3, 4]], [[1, 2], [-1, 3]], [[1, 7], [-1, 18]]),
    "egtry-matmul-2x3-by-3x2":
        lambda: product([[1, 2, 3], [4, 0, -1]], [[1, 0], [2, -1], [0, 3]], [[5, 7], [4, -3]]),
    "htfbw-multiply-2x3-by-3x2":
        lambda: product([[2, 4, 3], [1, 5, 0]], [[4, 3], [2, 1], [2, 6]], [[22, 28], [14, 8]]),
    "senseiai-60173-4x4-product":
        lambda: product([[1, 2, 2, 3], [2, 1, 0, 3], [-1, 2, 1, 2], [2, 3, 3, 5]],
                        [[0, 4, -1, 1], [1, -2, -1, 1], [4, 1, 0, -3], [-3, 1, 1, 1]],
                        [[1, 5, 0, 0], [-8, 9, 0, 6], [0, -5, 1, 0], [0, 10, 0, 1]]),
    "fersch-matrix-multiplication":
        lambda: product([[5, 6], [7, 8]], [[-3, 6], [5, 4]], [[15, 54], [19, 74]]),
    "irohabook-2x2-product": lambda: product(
        [[2, 3], [4, 5]], [[0.3, -1.2], [2.0, 0.7]],
        [[2 * 0.3 + 3 * 2.0, 2 * -1.2 + 3 * 0.7], [4 * 0.3 + 5 * 2.0, 4 * -1.2 + 5 * 0.7]]),
    "zakariapz-softmax-ce-sign": n_zakariapz,
    "hongseoi-affine-exercise-ko": n_hongseoi,
    "sunhaozhe-softmax-ce-split": n_sunhaozhe,
    "leeinx-attention-qkv-zh": n_leeinx,
    "mathse-3400818-softmax-linear-dims": n_mathse_3400818,
    "zenn-taro137-layernorm-jacobian": n_taro137,
    "qiita-hatahatadev-softmax-sum-index": n_hatahatadev,
    "nagoya-ymaeda-softmax-formula": n_nagoya,
    "sumikitch-softmax-derivative-ja": n_sumikitch,
    "zenn-fumishiki-causal-mask-softmax": n_fumishiki,
    "ningyuwhut-softmax-ce-gradient-zh": n_ningyuwhut,
    "mattpetersen-softmax-row-jacobian": n_mattpetersen,
    "amanailab-sdpa-code-lab": n_amanailab,
    "monoknock-matmul-3x3-by-hand": n_monoknock,
    "bushuhui-softmax-ce-zh": n_bushuhui,
    "hwanyo14-multilayer-gd-ko": n_hwanyo14,
    "ecomnet-softmax-ce-batch-zh": n_ecomnet,
    "mathse-3072387-matrix-derivative-dims": n_mathse_3072387,
    "holooly-3x4-by-4x2-product": lambda: (
        product([[2, 3, 0, 1], [4, 1, 2, 1], [0, 0, 0, 1]], [[3, 1], [1, 2], [2, 3], [0, 5]],
                [[9, 13], [17, 17], [0, 5]]),
        product([[2, 3, 0, 1], [4, 1, 2, 1], [0, 0, 0, 1]], [[3, 1], [1, 2], [2, 3], [0, 5]],
                [[2*3+3*1+0*2+1*0, 2*1+3*2+0*3+1*5], [4*3+1*1+2*2+1*0, 4*1+1*2+2*3+1*5],
                 [0*3+0*1+0*2+1*0, 0*1+0*2+0*3+1*5]])),
    "sahilmalik27-mlp-relu-backward": n_sahilmalik27,
    "gauravreddy08-mlp-backprop-notes": n_gauravreddy08,
    "hanezu-relu-backward-replace": n_hanezu,
    "daffodil2024-attention-numbers-ko": n_daffodil2024,
    "sucruba70-layernorm-numbers-ko": n_sucruba70,
    "tomoshige-matrix-product-ja": lambda: (
        product([[1, 2], [3, 4]], [[5, 6], [7, 8]], [[19, 22], [43, 50]]),
        product([[1, 2], [3, 4]], [[5, 6], [7, 8]],
                [[1*5 + 2*7, 1*6 + 2*8], [3*5 + 4*7, 3*6 + 4*8]]),
        product([[5, 6], [7, 8]], [[1, 2], [3, 4]], [[23, 34], [31, 46]]),
        product([[5, 6], [7, 8]], [[1, 2], [3, 4]],
                [[5*1 + 6*3, 5*2 + 6*4], [7*1 + 8*3, 7*2 + 8*4]])),
    "wyzant-12503-2x3-by-3x2": lambda: (
        product([[1, 7, 5], [4, 9, 1]], [[5, 1], [0, 4], [3, 5]], [[20, 54], [23, 45]]),
        product([[1, 7, 5], [4, 9, 1]], [[5, 1], [0, 4], [3, 5]],
                [[1*5 + 7*0 + 5*3, 1*1 + 7*4 + 5*5], [4*5 + 9*0 + 1*3, 4*1 + 9*4 + 1*5]])),
    "senseiai-36925-products": lambda: (
        product([[4, 1], [2, 2]], [[2, 3], [4, 0]], [[12, 12], [12, 6]]),
        product([[2, 0, -1], [1, 2, 3], [0, 1, 0]], [[1, 9, 0], [4, 1, 1], [-2, 0, 1]],
                [[4, 18, -1], [3, 11, 5], [4, 1, 1]]),
        product([[2], [1]], [[-1, 3]], [[-2, 6], [-1, 3]])),
}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hand_verdict_in_numbers(case):
    NUMERIC[case.id]()
