"""The full handout: the mathematics of attention, read through matrix products.

The handout follows the reference article's path, one section each:

1. matrices as vector sequences;
2. matrix products as maps between point clouds;
3. ``AB``: combine;
4. ``AB^T``: match;
5. attention as match, then distribution, then combine;
6. two more formulas read the same way: a linear layer and a graph convolution,
   each with its numbers;
7. backpropagation through attention: every gradient is a combine or a match
   again, first for a linear layer, then for attention (:func:`symrow.backward`),
   each followed by the gradients of its worked example; attention refers to the
   rules said for the linear layer rather than saying them again;
8. what carries over.

Every section has the general form (sizes m, ℓ, n with ellipses) and a
worked example.  The general forms are the steps of the presets themselves
(:func:`symrow.combine`, :func:`symrow.match`, :func:`symrow.attention`, and
the ``linear`` and ``gcn`` presets); the worked examples are derivations of
vector sequences *with values*, so every number shown is one of their
quantities; the connecting sentences are the handout's own steps, narrated
by :mod:`symrow.narrate.handout_en` and :mod:`symrow.narrate.handout_ja`.

A :class:`Handout` renders like a derivation:

>>> import symrow.handout
>>> h = symrow.handout.handout()
>>> [s.params["number"] for s in h.steps if s.kind == "heading" and s.params["level"] == 1]
['1', '2', '3', '4', '5', '6', '7', '8']
>>> h.to_markdown("en").startswith("# Reading attention")
True
"""

from __future__ import annotations

import functools
from typing import Iterable

import sympy

from . import nodes as N
from .build import row_bmat, stack
from .narrate import Titles, phrase
from .printable import Printable
from .seq import VecSeq, vecseq
from .steps import Step

__all__ = ["Handout", "handout", "TITLE", "EXAMPLE"]

#: the handout's title in each language (plain words, from the templates
#: ``handout.title`` of :mod:`symrow.narrate.handout_en` and the others)
TITLE = Titles("handout.title")

#: the numbers of the worked examples: A holds three points in the plane
EXAMPLE = {
    "A": [[1, 2], [3, 1], [0, 2]],
    "B_combine": [[1, 0, 1], [0, 1, 1]],
    "B_match": [[1, 1], [2, -1]],
    # section 6.4: a path of three nodes 1 - 2 - 3 with self-loops, each row divided by
    # its sum (every node averages itself and its neighbours)
    "A_hat": [[sympy.Rational(1, 2), sympy.Rational(1, 2), 0],
              [sympy.Rational(1, 3), sympy.Rational(1, 3), sympy.Rational(1, 3)],
              [0, sympy.Rational(1, 2), sympy.Rational(1, 2)]],
    # section 7.2: the gradient that reaches the linear layer's output from above
    "Y_bar": [[1, -1, 0], [0, 1, 2], [1, 0, -1]],
    # section 7.4: L = o_11 + o_22 + o_33, so the upstream gradient is the identity
    "O_bar": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
}

_ATTENTION = r"\operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}}\right) V"


class Handout(Printable):
    """The handout as an ordered list of steps; renders like a derivation.

    ``steps`` are :class:`~symrow.steps.Step` records; headings carry
    ``level`` (1 section, 2 subsection) and ``number``.
    """

    kind = "handout"

    def __init__(self, steps: Iterable[Step]):
        self.steps = tuple(steps)
        #: the title in each language, as LaTeX
        self.title = Titles("handout.title", _tex_escape)

    def __repr__(self) -> str:
        sections = sum(1 for s in self.steps if s.kind == "heading" and s.params.get("level") == 1)
        return f"<Handout: {sections} sections, {len(self.steps)} steps>"

    @property
    def parts(self) -> list[str]:
        return list(dict.fromkeys(s.part for s in self.steps if s.part))

    def to_markdown(self, lang: str = "en", **options) -> str:
        """Markdown with ``$$`` blocks, for KaTeX sites and Jupyter."""
        title, subtitle = phrase("handout.title", lang), phrase("handout.subtitle", lang)
        return f"# {title}\n\n*{subtitle}*\n\n" + super().to_markdown(lang, **options)

    def to_text(self, lang: str = "en", **options) -> str:
        """Unicode text for a terminal."""
        title, subtitle = phrase("handout.title", lang), phrase("handout.subtitle", lang)
        return f"{title}\n{subtitle}\n\n" + super().to_text(lang, **options)

    def to_document(self, lang: str = "en", **options) -> str:
        """A complete LaTeX document, compiled by the language's engine (pdflatex for
        English, lualatex + luatexja for Japanese)."""
        from .render.document import extra_preamble, preamble, tex_escape
        head = ("\\begin{center}\n{\\LARGE\\bfseries %s\\par}\\vspace{0.6em}\n"
                "{\\large %s\\par}\\vspace{0.3em}\n{\\small %s\\par}\n\\end{center}\n\n"
                % tuple(tex_escape(phrase(key, lang)) for key in
                        ("handout.title", "handout.subtitle", "handout.made_with")))
        shown = self._figured(options)   # figures=True: a picture in every section
        return (preamble(lang) + extra_preamble(shown) + "\\begin{document}\n" + head
                + shown.to_latex(lang, **options)
                + "\\end{document}\n")

    def to_beamer(self, lang: str = "en", **options) -> str:
        """The handout as slides: a complete Beamer document that follows its
        path in frames, compiled by the language's engine."""
        from .render.document import tex_escape
        options.setdefault("title", tex_escape(phrase("handout.title", lang)))
        options.setdefault("subtitle", tex_escape(phrase("handout.subtitle", lang)))
        return super().to_beamer(lang, **options)

    def _repr_markdown_(self) -> str:
        return self.to_markdown("en")

    def check_parts(self) -> list:
        """What ``symrow check FILE --against handout`` reads each section against.

        The handout mixes general forms and worked examples, and the same
        names (A, B, C, Q, K, V) mean different things in different
        sections, so each section has its own reference.  Returns a list of
        ``(section, derivation, values)``:

        * ``section``: the section number as the headings print it, ``"3.2"``
          (the checker starts a section's stretch of text at that heading;
          text before the first numbered heading uses the first entry);
        * ``derivation``: what the section's mathematics is checked
          against: a general derivation for a general form, a concrete one
          for a worked example;
        * ``values``: the numbers of a worked example's operands, by name
          (``{"A": Matrix(...)}``), or ``{}``.

        >>> parts = handout().check_parts()
        >>> [(section, d.kind, sorted(values)) for section, d, values in parts][:3]
        [('1', 'combine', []), ('1.2', 'combine', ['A', 'B']), ('2', 'combine', [])]
        """
        ex = _examples()
        comb, mat = _general_products()
        values = {name: seq.matrix for name, seq in ex["combine"].operands.items()}
        match_values = {name: seq.matrix for name, seq in ex["match"].operands.items()}
        att_values = {name: seq.matrix for name, seq in ex["attention"].operands.items()}
        linear, gcn = _beyond()
        by, numbers = _beyond_examples(), _backward_examples()
        return [("1", comb, {}), ("1.2", ex["combine"], values),
                ("2", comb, {}), ("2.2", ex["combine"], values),
                ("3", comb, {}), ("3.2", ex["combine"], values),
                ("4", mat, {}), ("4.2", ex["match"], match_values),
                ("5", _general_attention(), {}), ("5.2", ex["attention"], att_values),
                ("6", linear, {}), ("6.2", by["linear"], _values(by["linear"])),
                ("6.3", gcn, {}), ("6.4", by["gcn"], _values(by["gcn"])),
                ("7", _backwards()[0], {}),
                ("7.2", numbers["linear"][0], _values(numbers["linear"][0])),
                ("7.3", _backwards()[1], {}),
                ("7.4", numbers["attention"][0], _values(numbers["attention"][0])),
                ("8", comb, {})]


def _tex_escape(words: str) -> str:
    from .render.document import tex_escape
    return tex_escape(words)


# -- the derivations the handout is made of --------------------------------------------------

@functools.lru_cache(maxsize=None)
def _general_products():
    from .derive.products import combine, match
    A = vecseq("A", "m", "ell")
    return combine(A, vecseq("B", "ell", "n")), match(A, vecseq("B", "n", "ell"))


@functools.lru_cache(maxsize=None)
def _general_attention():
    from .derive.attention import attention
    return attention("m", "n", "d")


@functools.lru_cache(maxsize=None)
def _examples() -> dict:
    """The worked examples: derivations of vector sequences with values."""
    from .derive.explain import explain
    from .derive.products import combine, match
    A = vecseq("A", sympy.Matrix(EXAMPLE["A"]))
    return {
        "combine": combine(A, vecseq("B", sympy.Matrix(EXAMPLE["B_combine"]))),
        "match": match(A, vecseq("B", sympy.Matrix(EXAMPLE["B_match"]))),
        "attention": explain(_ATTENTION, values={"Q": EXAMPLE["A"], "K": EXAMPLE["B_match"],
                                                 "V": EXAMPLE["B_combine"]}, scale="number"),
    }


@functools.lru_cache(maxsize=None)
def _beyond():
    from .derive.presets import REGISTRY
    return REGISTRY["linear"].build(general=True), REGISTRY["gcn"].build(general=True)


@functools.lru_cache(maxsize=None)
def _backwards():
    """The backward passes of a linear layer and of attention, at general sizes."""
    from .derive.backward import backward
    # the sizes of section 6.1: n inputs with d features, f outputs
    return (backward("Y = XW", {"X": ("n", "d"), "W": ("d", "f")}),
            backward(r"O = \operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}}\right) V",
                     general=True))


# -- building blocks ------------------------------------------------------------------

def _h(level: int, number: str, topic: str, **params) -> Step:
    return Step("heading", {"topic": topic, "level": level, "number": number, **params},
                part=number.split(".")[0])


def _say(kind: str, display=None, **params) -> Step:
    return Step(kind, params, display)


def _from(derivation, first_kind: str, *, stop: str | None = None,
          skip: tuple = ("heading",)) -> list[Step]:
    """The derivation's steps from the first of ``first_kind`` (inclusive) up to
    ``stop`` (exclusive), without the kinds in ``skip``."""
    kinds = [s.kind for s in derivation.steps]
    start = kinds.index(first_kind)
    end = kinds.index(stop, start) if stop else len(kinds)
    return [s for s in derivation.steps[start:end] if s.kind not in skip]


def _label(tex: str, text: str) -> N.Label:
    return N.Label(tex, text)


def _vec(values) -> N.Bmat:
    """A row vector of numbers, ``[1  2  3]``."""
    return N.Bmat([[sympy.sympify(v) for v in values]])


def _mat(matrix) -> N.Bmat:
    return N.Bmat([[sympy.sympify(v) for v in row] for row in sympy.Matrix(matrix).tolist()])


def _decimal(x) -> N.Label:
    """A quantity to three decimals (it is shown with ≈)."""
    text = f"{float(sympy.N(x, 30)):.3f}"
    if text == "-0.000":      # a zero that rounding left a sign on
        text = "0.000"
    return N.Label(text, text)


def _rows(seq: VecSeq) -> list:
    return [list(seq.matrix.row(i)) for i in range(seq.rows)]


# -- the sections ------------------------------------------------------------------------

def _section_vecseq(comb, A: VecSeq) -> list[Step]:
    steps = [_h(1, "1", "h_vecseq"), _say("h_vecseq_lead"),
             _h(2, "1.1", "h_general")]
    steps += _from(comb, "entries", stop="products")
    rows = _rows(A)
    steps += [
        _h(2, "1.2", "h_example"),
        _say("h_ex_vecseq_matrix", N.Chain([A, _mat(A.matrix)]), A=A, m=A.rows, ell=A.cols),
        _say("h_ex_vecseq_points",
             N.Group([N.Chain([A.vector(k + 1), _vec(r)]) for k, r in enumerate(rows)]),
             A=A, m=A.rows),
        _say("h_ex_vecseq_stack", N.Rel(N.Chain([A, stack(A)]), "in", N.Space(A.rows, A.cols)),
             A=A, a_2=A.vector(2), x=_vec(rows[1])),
    ]
    return steps


def _section_maps(comb, example) -> list[Step]:
    A, C = example.operands["A"], example.plan.result.seq
    steps = [_h(1, "2", "h_maps"), _h(2, "2.1", "h_general")]
    steps += [Step(s.kind, {**s.params, "variant": "handout"}, s.display, part=s.part)
              for s in _from(comb, "products", stop="map")]
    steps += _from(comb, "map", stop="operands_combine")
    steps += [
        _h(2, "2.2", "h_example"),
        _say("h_ex_maps", N.Rel(A, "to", C), A=A, C=C, m=A.rows, ell=A.cols, n=C.cols,
             space_a=N.Space(A.rows, A.cols), space_c=N.Space(C.rows, C.cols)),
        _say("h_ex_maps_points",
             N.Items([N.Rel(A.vector(k), "mapsto", C.vector(k)) for k in range(1, A.rows + 1)]),
             A=A, C=C),
    ]
    return steps


def _section_combine(comb, example) -> list[Step]:
    A, B = example.operands["A"], example.operands["B"]
    C, Cv = example.plan.result.seq, example.result
    Bv = _rows(B)
    rows = []
    for i in range(A.rows):
        weights = list(A.matrix.row(i))
        rows.append(N.Chain([
            C.vector(i + 1),
            N.OSum([N.OMul([w, B.vector(j + 1)]) for j, w in enumerate(weights)]),
            N.OSum([N.OMul([w, _vec(Bv[j])]) for j, w in enumerate(weights)]),
            _vec(list(Cv.row(i)))]))
    steps = [_h(1, "3", "h_combine", AB=N.OMul([vecseq("A", "m", "ell"),
                                                vecseq("B", "ell", "n")])),
             _h(2, "3.1", "h_general")]
    steps += _from(comb, "operands_combine")
    steps += [
        _h(2, "3.2", "h_example"),
        _say("h_ex_combine_b",
             N.Group([N.Chain([B.vector(j + 1), _vec(r)]) for j, r in enumerate(Bv)]),
             A=A, B=B, ell=B.rows, n=B.cols),
        _say("h_ex_combine_rows", N.Group(rows), A=A, B=B, C=C),
        _say("h_ex_combine_result",
             N.Chain([C, N.OMul([A, B]), N.OMul([_mat(A.matrix), _mat(B.matrix)]), _mat(Cv)]),
             C=C, AB=N.OMul([A, B])),
        _say("h_ex_combine_read", a_2=A.vector(2), b_1=B.vector(1), b_2=B.vector(2),
             c_2=C.vector(2), three=A.matrix[1, 0], one=A.matrix[1, 1]),
    ]
    return steps


def _section_match(mat, example) -> list[Step]:
    A, B = example.operands["A"], example.operands["B"]
    C, Cv = example.plan.result.seq, example.result
    Bv = _rows(B)

    def dot_terms(i, j):
        return N.OSum([N.OMul([A.matrix[i, k], B.matrix[j, k]]) for k in range(A.cols)])

    rows = []
    for i in range(A.rows):
        rows.append(N.Chain([
            C.vector(i + 1),
            row_bmat(B.rows, lambda j, i=i: N.Dot(A.vector(i + 1), B.vector(j))),
            row_bmat(B.rows, lambda j, i=i: dot_terms(i, j - 1)),
            _vec(list(Cv.row(i)))]))
    best = [max(range(B.rows), key=lambda j, i=i: Cv[i, j]) + 1 for i in range(A.rows)]
    steps = [_h(1, "4", "h_match", ABT=N.OMul([vecseq("A", "m", "ell"),
                                               N.Transpose(vecseq("B", "n", "ell"))])),
             _h(2, "4.1", "h_general")]
    steps += _from(mat, "operands_match")
    steps += [
        _h(2, "4.2", "h_example"),
        _say("h_ex_match_b",
             N.Group([N.Chain([B.vector(j + 1), _vec(r)]) for j, r in enumerate(Bv)]),
             A=A, B=B, n=B.rows, ell=B.cols),
        _say("h_ex_match_rows", N.Group(rows), A=A, B=B, C=C),
        _say("h_ex_match_result",
             N.Chain([C, N.OMul([A, N.Transpose(B)]),
                      N.OMul([_mat(A.matrix), _mat(B.matrix.T)]), _mat(Cv)]),
             C=C, ABT=N.OMul([A, N.Transpose(B)])),
        _say("h_ex_match_read",
             N.Items([N.Rel(A.vector(i + 1), "to", B.vector(best[i])) for i in range(A.rows)]),
             A=A, B=B, C=C, a_1=A.vector(1), b_1=B.vector(1), b_2=B.vector(2),
             c_11=N.Chain([C.symbol(1, 1), Cv[0, 0]]),
             c_12=N.Chain([C.symbol(1, 2), Cv[0, 1]])),
    ]
    return steps


def _demoted(steps) -> list[Step]:
    """A derivation's steps inside a subsection: its own headings become level 3,
    and the first (its title) is left out."""
    out = []
    for k, s in enumerate(steps):
        if s.kind == "heading":
            if k == 0:
                continue
            s = Step("heading", {**s.params, "level": 3}, s.display, part=s.part)
        out.append(s)
    return out


def _scaled_score(value, d: int):
    """A scaled score written inline, ``3/√2`` (``0`` for 0): small fractions
    inside a matrix or an exponent are hard to read."""
    if value == 0:
        return sympy.S.Zero
    return N.Label("%s/\\sqrt{%d}" % (value, d), f"{value}/√{d}")


def _section_attention(example) -> list[Step]:
    """Attention in general, then the example's own quantities: S exactly, P and O to
    three decimals (computed from the derivation's exact values)."""
    q = example.quantities
    Q, K, V = (example.operands[n] for n in "QKV")
    S, P, O = q["S"], q["P"], q["O"]
    Sseq, Pseq, Oseq = (example.plan.named[n].seq for n in "SPO")
    d = Q.cols
    m, n = S.shape
    root = N.Sqrt(sympy.Integer(d))

    def softmax_entry(i, j):
        def e(jj):
            return N.Exp(_scaled_score(S[i, jj], d))
        return N.Frac(e(j), N.OSum([e(jj) for jj in range(n)]))

    first_row = N.Group([N.Rel(N.Chain([Pseq.symbol(1, j + 1), softmax_entry(0, j)]),
                               "approx", _decimal(P[0, j])) for j in range(n)])
    combine_rows = [N.Rel(N.Chain([Oseq.vector(i + 1),
                                   N.OSum([N.OMul([Pseq.symbol(i + 1, j + 1), V.vector(j + 1)])
                                           for j in range(n)])]),
                          "approx",
                          N.Chain([N.OSum([N.OMul([_decimal(P[i, j]), _vec(V.matrix.row(j))])
                                           for j in range(n)]),
                                   N.Bmat([[_decimal(O[i, k]) for k in range(O.cols)]])]))
                    for i in range(m)]
    share = round(100 * float(sympy.N(P[0, 0], 30)))
    A = vecseq("A", Q.matrix)
    steps = [_h(1, "5", "h_attention"), _say("h_attention_lead"),
             _h(2, "5.1", "h_general")]
    steps += _demoted(_general_attention().steps)
    steps += [
        _h(2, "5.2", "h_example"),
        _say("h_ex_attn_setup",
             N.Group([N.Chain([X, _mat(X.matrix)]) for X in (Q, K, V)]),
             Q=Q, K=K, V=V, A=A, d=sympy.Integer(d),
             d_eq=N.Chain([N.Label("d", "d"), sympy.Integer(d)])),
        _say("h_ex_attn_match",
             N.Chain([Sseq, N.OMul([Q, N.Transpose(K)]), _mat(S)]),
             QKT=N.OMul([Q, N.Transpose(K)])),
        _say("h_ex_attn_scale",
             N.Chain([N.Frac(Sseq, root),
                      N.Bmat([[_scaled_score(S[i, j], d) for j in range(n)]
                              for i in range(m)])]),
             root=root),
        _say("h_ex_attn_softmax", first_row),
        _say("h_ex_attn_distribution",
             N.Rel(Pseq, "approx", N.Bmat([[_decimal(P[i, j]) for j in range(n)]
                                           for i in range(m)])),
             P=Pseq),
        _say("h_ex_attn_combine", N.Group(combine_rows), O=Oseq, P=Pseq, V=V),
        _say("h_ex_attn_read", None,
             o_1=Oseq.vector(1), o_2=Oseq.vector(2), v_1=V.vector(1), v_2=V.vector(2),
             q_1=Q.vector(1), q_2=Q.vector(2), k_1=K.vector(1), k_2=K.vector(2),
             share=N.Label(f"{share}\\%", f"{share}%")),
    ]
    return steps


def _pick(derivation, kind: str, part: str | None = None) -> Step:
    return next(s for s in derivation.steps if s.kind == kind and
                (part is None or s.part == part))


def _section_beyond() -> list[Step]:
    """A linear layer and a graph convolution, read with the same two readings, each
    with its numbers (the example's points again)."""
    linear, gcn = _beyond()
    ex = _beyond_examples()
    X, W = linear.operands["X"], linear.operands["W"]
    Y = linear.plan.result.seq
    A_hat = gcn.operands[r"\hat{A}"]
    H, Yg = gcn.plan.named["H"].seq, gcn.plan.result.seq
    return [
        _h(1, "6", "h_beyond"), _say("h_beyond_lead"),
        _h(2, "6.1", "h_linear", XW=N.OMul([X, W])),
        _say("h_linear_points", N.Group([N.Rel(X, "in", N.Space(X.rows, X.cols)),
                                         N.Rel(W, "in", N.Space(W.rows, W.cols))]),
             X=X, W=W, n=X.rows, d=X.cols, f=W.cols, x_i=X.vector(sympy.Symbol("i"))),
        _say("h_linear_row", _pick(linear, "extract_row_combine").display,
             y_i=Y.vector(sympy.Symbol("i")), W=W, x_i=X.vector(sympy.Symbol("i"))),
        *_example_linear(ex["linear"]),
        _h(2, "6.3", "h_gcn", AXW=N.OMul([A_hat, gcn.operands["X"], gcn.operands["W"]])),
        _say("h_gcn_plan", _pick(gcn, "plan").display, A=A_hat, H=H, Y=Yg, n=A_hat.rows,
             X=gcn.operands["X"]),
        _say("h_gcn_mix", _pick(gcn, "combine_row", "H.row").display,
             h_i=H.vector(sympy.Symbol("i")), a_i=A_hat.vector(sympy.Symbol("i")),
             X=gcn.operands["X"]),
        _say("h_gcn_map", _pick(gcn, "combine_row", "Y.row").display,
             W=gcn.operands["W"], y_i=Yg.vector(sympy.Symbol("i"))),
        _say("h_gcn_read", _pick(gcn, "summary").display),
        *_example_gcn(ex["gcn"]),
    ]


@functools.lru_cache(maxsize=None)
def _beyond_examples() -> dict:
    """The worked examples of section 6: derivations with values (the points of
    section 1 as inputs, the points of section 3 as the weights)."""
    from .derive.explain import explain
    X, W = EXAMPLE["A"], EXAMPLE["B_combine"]
    return {"linear": explain("Y = XW", values={"X": X, "W": W}),
            "gcn": explain(r"Y = \hat{A} X W", values={r"\hat{A}": EXAMPLE["A_hat"], "X": X,
                                                       "W": W})}


def _weighted_rows(left, right, result_seq, result, *, decimals=False) -> N.Group:
    """Each row of a combine ``left · right`` with its numbers: ``c_i = Σ l_ij r_j =
    Σ l_ij [..] = [..]``."""
    lv, rv = left.matrix, right.matrix
    num = _decimal if decimals else sympy.sympify
    rows = []
    for i in range(lv.rows):
        rows.append(N.Chain([
            result_seq.vector(i + 1),
            N.OSum([N.OMul([lv[i, j], right.vector(j + 1)]) for j in range(lv.cols)]),
            N.OSum([N.OMul([lv[i, j], _vec(rv.row(j))]) for j in range(lv.cols)]),
            N.Bmat([[num(x) for x in result.row(i)]])]))
    return N.Group(rows)


def _example_linear(ex) -> list[Step]:
    X, W = ex.operands["X"], ex.operands["W"]
    Y, Yv = ex.plan.result.seq, ex.result
    return [
        _h(2, "6.2", "h_example_linear"),
        _say("h_ex_linear_setup", N.Group([N.Chain([X, _mat(X.matrix)]),
                                           N.Chain([W, _mat(W.matrix)])]),
             X=X, W=W, n=X.rows, d=X.cols, f=W.cols, B=_examples()["combine"].operands["B"]),
        _say("h_ex_linear_rows", _weighted_rows(X, W, Y, Yv), X=X, W=W, Y=Y,
             x_2=X.vector(2), y_2=Y.vector(2), w_1=W.vector(1), w_2=W.vector(2),
             three=X.matrix[1, 0], one=X.matrix[1, 1]),
        _say("h_ex_linear_result",
             N.Chain([Y, N.OMul([X, W]), N.OMul([_mat(X.matrix), _mat(W.matrix)]), _mat(Yv)]),
             Y=Y, XW=N.OMul([X, W])),
    ]


def _example_gcn(ex) -> list[Step]:
    A, X, W = ex.operands[r"\hat{A}"], ex.operands["X"], ex.operands["W"]
    H, Hv = ex.plan.named["H"].seq, ex.quantities["H"]
    Y, Yv = ex.plan.result.seq, ex.result
    return [
        _h(2, "6.4", "h_example_gcn"),
        _say("h_ex_gcn_graph", N.Chain([A, _mat(A.matrix)]), A=A, X=X, W=W,
             one=sympy.Integer(1), two=sympy.Integer(2), three=sympy.Integer(3)),
        _say("h_ex_gcn_mix", _weighted_rows(A, X, H, Hv), H=H, X=X, h_1=H.vector(1),
             h_3=H.vector(3), x_1=X.vector(1), x_3=X.vector(3)),
        _say("h_ex_gcn_map",
             N.Chain([Y, N.OMul([H, W]), N.OMul([_mat(Hv), _mat(W.matrix)]), _mat(Yv)]),
             Y=Y, H=H, W=W),
    ]


def _section_backward() -> list[Step]:
    """Backpropagation: a linear layer, then attention, derived by the engine, each
    followed by its numbers.  The rules said for the linear layer are referred to,
    not said again, for attention."""
    linear, att = _backwards()
    X, W = linear.operands["X"], linear.operands["W"]
    Q, K, V = (att.operands[n] for n in "QKV")
    ex = _backward_examples()
    steps = [_h(1, "7", "h_backward"), _say("h_backward_lead"),
             _h(2, "7.1", "h_backward_linear", XW=N.OMul([X, W])),
             _say("h_backward_linear_lead", X=X, W=W)]
    steps += _demoted(linear.steps)
    steps += _example_backward_linear(ex["linear"])
    steps += [_h(2, "7.3", "h_backward_attention"),
              _say("h_backward_attention_lead", Q=Q, K=K, V=V)]
    # 7.1 wrote each gradient out entry by entry; here the rows are enough
    steps += _referring(linear, att, _demoted([s for s in att.steps
                                          if not (s.part or "").endswith(".entries")]))
    steps += [_say("h_backward_read")]
    steps += _example_backward_attention(ex["attention"], att)
    return steps


def _first(steps, kind: str, **params) -> Step:
    return next(s for s in steps if s.kind == kind and
                all(s.params.get(k) == v for k, v in params.items()))


def _referring(linear, att, steps: list[Step]) -> list[Step]:
    """Attention's backward steps, with what 7.1 said already referred to: the loss and
    its notation, the rule of a combine (7.1's ``Y = XW``), and the readings of the two
    products that rule makes (``V̄ = PᵀŌ`` like ``W̄``, ``P̄ = ŌVᵀ`` like ``X̄``)."""
    rule = _first(linear.steps, "backward_rule", variant="combine")
    outer = _first(linear.steps, "tcombine_outer")
    row = _first(linear.steps, "match_row")
    out = []
    skip_p = False
    for s in steps:
        p = s.params
        if s.kind == "backward_loss":
            s = Step(s.kind, {**p, "variant": "again"}, s.display, part=s.part)
        elif s.kind == "backward_rule" and p.get("variant") == "combine":
            s = Step("h_bw_rule_again", {"use": p["use"], "first": N.OMul(list(
                         linear.operands[n] for n in ("X", "W"))),
                                         "Lbar": p["Lbar"], "Rbar": p["Rbar"]},
                     s.display, part=s.part)
        elif s.kind == "tcombine_outer":
            s = Step("h_bw_outer_again", {"ATB": p["ATB"], "first": outer.params["C"],
                                          "data": p["data"], "outer": p["outer"]},
                     s.display, part=s.part)
        elif s.kind == "tcombine_row":
            i, j = sympy.Symbol("i"), sympy.Symbol("j")
            s = Step("h_bw_vbar_row", {"v_j": att.operands["V"].vector(j),
                                       "o_i": att._upstream.vector(i),
                                       "p_ij": att.forward.plan.named["P"].seq.symbol(i, j)},
                     s.display, part=s.part)
        elif s.kind == "backward_same" and s.part == "grad-P":
            skip_p = True
            continue
        elif skip_p and s.kind == "match_product":
            continue
        elif skip_p and s.kind == "match_row":
            skip_p = False
            s = Step("h_bw_pbar", {"Pbar": p["C"], "first": row.params["C"],
                                   "o_i": p["l_i"], "V": p["R"]}, s.display, part=s.part)
        out.append(s)
    return out


def _values(derivation) -> dict:
    return {name: seq.matrix for name, seq in derivation.operands.items()}


@functools.lru_cache(maxsize=None)
def _backward_examples() -> dict:
    """The backward passes of the worked examples, with the upstream gradients given
    numbers: the linear layer of 6.2 and the attention of 5.2."""
    from .derive.backward import backward
    X, W = EXAMPLE["A"], EXAMPLE["B_combine"]
    lin = backward("Y = XW", {"X": (3, 2), "W": (2, 3)}, values={"X": X, "W": W})
    att = backward(r"O = \operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}}\right) V",
                   {"Q": (3, 2), "K": (2, 2), "V": (2, 3)},
                   values={"Q": EXAMPLE["A"], "K": EXAMPLE["B_match"], "V": EXAMPLE["B_combine"]})
    return {"linear": (lin, sympy.Matrix(EXAMPLE["Y_bar"])),
            "attention": (att, sympy.Matrix(EXAMPLE["O_bar"]))}


def _numbers(derivation, upstream) -> dict:
    """Every quantity of a backward derivation with the upstream gradient's numbers
    put in (and ``d``, the dimension of the queries, where the scale has it)."""
    subs = dict(zip(derivation.upstream, upstream))
    q = {k: v for k, v in derivation.quantities.items() if not isinstance(v, sympy.MatrixSymbol)}
    if "Q" in derivation.operands:
        d = derivation.operands["Q"].cols
        for v in q.values():
            subs.update({x: d for x in sympy.Matrix(v).free_symbols if x.name == "d"})
    return {k: sympy.Matrix(v).xreplace(subs) for k, v in q.items()}


def _decimals(matrix) -> N.Bmat:
    return N.Bmat([[_decimal(x) for x in sympy.Matrix(matrix).row(i)]
                   for i in range(sympy.Matrix(matrix).rows)])


def _example_backward_linear(pair) -> list[Step]:
    lin, Yb = pair
    q = _numbers(lin, Yb)
    X, W = lin.operands["X"], lin.operands["W"]
    named = lin.plan.named
    Ybar, Xbar, Wbar = lin._upstream, named[r"\bar{X}"].seq, named[r"\bar{W}"].seq
    Xv, Wv = X.values, W.values
    match_rows = N.Group([N.Chain([
        Xbar.vector(i + 1),
        N.Bmat([[N.Dot(Ybar.vector(i + 1), W.vector(j + 1)) for j in range(W.rows)]]),
        _vec(q[r"\bar{X}"].row(i))]) for i in range(Yb.rows)] + [
        N.Chain([Xbar, N.OMul([Ybar, N.Transpose(W)]), N.OMul([_mat(Yb), _mat(Wv.T)]),
                 _mat(q[r"\bar{X}"])])])
    outer = N.Chain([
        Wbar,
        N.OSum([N.OMul([N.Transpose(X.vector(i + 1)), Ybar.vector(i + 1)])
                for i in range(X.rows)]),
        N.OSum([N.OMul([_mat(Xv.row(i).T), _vec(Yb.row(i))]) for i in range(X.rows)]),
        _mat(q[r"\bar{W}"])])
    return [
        _h(2, "7.2", "h_example_backward_linear"),
        _say("h_ex_bw_linear_setup", N.Chain([Ybar, _mat(Yb)]), Ybar=Ybar, X=X, W=W,
             Y=lin.forward.plan.result.seq),
        _say("h_ex_bw_linear_x", match_rows, Xbar=Xbar, Ybar=Ybar, W=W,
             rule=N.Chain([Xbar, N.OMul([Ybar, N.Transpose(W)])])),
        _say("h_ex_bw_linear_w", outer, Wbar=Wbar, X=X, Ybar=Ybar,
             rule=N.Chain([Wbar, N.OMul([N.Transpose(X), Ybar])])),
        _say("h_ex_bw_linear_read", None, Xbar=Xbar, x_2=Xbar.vector(2), w_1=W.vector(1),
             w_2=W.vector(2), ybar_2=Ybar.vector(2)),
    ]


def _zero_row(q: dict, att, V) -> list[Step]:
    """A row of G that is 0, said why: the two values agree in the coordinate that
    row's upstream gradient asks for, so moving weight between them changes nothing."""
    G, Ob, Vv = q["G"], q[r"\bar{O}"], V.values
    for i in range(G.rows):
        if all(sympy.simplify(x) == 0 for x in G.row(i)) and sum(abs(x) for x in Ob.row(i)) == 1:
            k = next(k for k in range(Ob.cols) if Ob[i, k] != 0)
            if len(set(Vv.col(k))) == 1:
                O = att.forward.plan.result.seq
                return [_say("h_ex_bw_att_zero", None, i=sympy.Integer(i + 1),
                             o_ik=O.symbol(i + 1, k + 1), k=sympy.Integer(k + 1),
                             v_1=V.vector(1), v_2=V.vector(2), G=att.plan.named["G"].seq)]
    return []


def _example_backward_attention(pair, general) -> list[Step]:
    att, Ob = pair
    q = _numbers(att, Ob)
    Q, K, V = (att.operands[n] for n in "QKV")
    named = att.plan.named
    Obar = att._upstream
    bars = {k: named[r"\bar{%s}" % k].seq for k in "VPSQK"}
    G = named["G"].seq
    P = att.forward.plan.named["P"].seq
    Pv, Pb = q["P"], q[r"\bar{P}"]
    d = Q.cols
    rowsum = sympy.Matrix([sum(Pb[i, j] * Pv[i, j] for j in range(Pv.cols))
                           for i in range(Pv.rows)])
    rs = N.Call("rowsum", [N.Hadamard([bars["P"], P])])
    return [
        _h(2, "7.4", "h_example_backward_attention"),
        _say("h_ex_bw_att_setup", N.Chain([Obar, _mat(Ob)]), Obar=Obar, O=att.forward.plan.result.seq,
             L=N.Label("L = o_{11} + o_{22} + o_{33}", "L = o₁₁ + o₂₂ + o₃₃"), P=P),
        _say("h_ex_bw_att_v", N.Rel(N.Chain([bars["V"], N.OMul([N.Transpose(P), Obar])]),
                                    "approx", _decimals(q[r"\bar{V}"])),
             Vbar=bars["V"], P=P, v_1=V.vector(1)),
        _say("h_ex_bw_att_p", N.Chain([bars["P"], N.OMul([Obar, N.Transpose(V)]),
                                       _mat(Pb)]), Pbar=bars["P"], V=V),
        _say("h_ex_bw_att_rowsum", N.Rel(rs, "approx", _decimals(rowsum)), Pbar=bars["P"],
             P=P),
        _say("h_ex_bw_att_g", N.Rel(G, "approx", _decimals(q["G"])), G=G, P=P, Pbar=bars["P"]),
        *_zero_row(q, att, V),
        _say("h_ex_bw_att_s", N.Rel(N.Chain([bars["S"], N.Frac(G, N.Sqrt(sympy.Integer(d)))]),
                                    "approx", _decimals(q[r"\bar{S}"])),
             Sbar=bars["S"], G=G, root=N.Sqrt(sympy.Integer(d))),
        _say("h_ex_bw_att_qk", N.Group([
            N.Rel(N.Chain([bars["Q"], N.OMul([bars["S"], K])]), "approx",
                  _decimals(q[r"\bar{Q}"])),
            N.Rel(N.Chain([bars["K"], N.OMul([N.Transpose(bars["S"]), Q])]), "approx",
                  _decimals(q[r"\bar{K}"]))]),
             Qbar=bars["Q"], Kbar=bars["K"], Sbar=bars["S"], K=K, Q=Q,
             SQK=N.Chain([att.forward.plan.named["S"].seq, N.OMul([Q, N.Transpose(K)])])),
        _say("h_ex_bw_att_check", None, q_11=Q.symbol(1, 1), L=N.Label("L", "L"),
             qbar_11=bars["Q"].symbol(1, 1),
             value=_decimal(q[r"\bar{Q}"][0, 0]), eps=N.Label(r"\varepsilon", "ε")),
    ]


def _section_closing() -> list[Step]:
    return [_h(1, "8", "h_closing"),
            _say("h_closing_1", AB=_label("AB", "AB"), ABT=_label("AB^{T}", "ABᵀ")),
            _say("h_closing_2")]


def handout() -> Handout:
    """Build the handout (every language renders from the same steps)."""
    comb, mat = _general_products()
    ex = _examples()
    steps = [_say("h_intro", QKT=_label("QK^{T}", "QKᵀ"), PV=_label("PV", "PV")),
             _say("h_intro_plan")]
    steps += _section_vecseq(comb, ex["combine"].operands["A"])
    steps += _section_maps(comb, ex["combine"])
    steps += _section_combine(comb, ex["combine"])
    steps += _section_match(mat, ex["match"])
    steps += _section_attention(ex["attention"])
    steps += _section_beyond()
    steps += _section_backward()
    steps += _section_closing()
    return Handout(steps)
