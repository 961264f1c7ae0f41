"""The full handout: the mathematics of attention, read through matrix products.

The handout follows the reference article's path, one section each:

1. matrices as vector sequences;
2. matrix products as maps between point clouds;
3. ``AB``: combine;
4. ``AB^T``: match;
5. attention as match, then distribution, then combine;
6. two more formulas read the same way: a linear layer and a graph convolution;
7. backpropagation through attention: every gradient is a combine or a match
   again, first for a linear layer, then for attention (:func:`symrow.backward`);
8. what carries over.

Every section has the general form (sizes m, ℓ, n with ellipses) and one
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
        return [("1", comb, {}), ("1.2", ex["combine"], values),
                ("2", comb, {}), ("2.2", ex["combine"], values),
                ("3", comb, {}), ("3.2", ex["combine"], values),
                ("4", mat, {}), ("4.2", ex["match"], match_values),
                ("5", _general_attention(), {}), ("5.2", ex["attention"], att_values),
                ("6", linear, {}), ("6.2", gcn, {}),
                ("7", _backwards()[0], {}), ("7.2", _backwards()[1], {}),
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
    return (backward("Y = XW", general=True),
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
    """A linear layer and a graph convolution, read with the same two readings."""
    linear, gcn = _beyond()
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
        _h(2, "6.2", "h_gcn", AXW=N.OMul([A_hat, gcn.operands["X"], gcn.operands["W"]])),
        _say("h_gcn_plan", _pick(gcn, "plan").display, A=A_hat, H=H, Y=Yg, n=A_hat.rows,
             X=gcn.operands["X"]),
        _say("h_gcn_mix", _pick(gcn, "combine_row", "H.row").display,
             h_i=H.vector(sympy.Symbol("i")), a_i=A_hat.vector(sympy.Symbol("i")),
             X=gcn.operands["X"]),
        _say("h_gcn_map", _pick(gcn, "combine_row", "Y.row").display,
             W=gcn.operands["W"], y_i=Yg.vector(sympy.Symbol("i"))),
        _say("h_gcn_read", _pick(gcn, "summary").display),
    ]


def _section_backward() -> list[Step]:
    """Backpropagation: a linear layer, then attention, derived by the engine."""
    linear, att = _backwards()
    X, W = linear.operands["X"], linear.operands["W"]
    Q, K, V = (att.operands[n] for n in "QKV")
    steps = [_h(1, "7", "h_backward"), _say("h_backward_lead"),
             _h(2, "7.1", "h_backward_linear", XW=N.OMul([X, W])),
             _say("h_backward_linear_lead", X=X, W=W)]
    steps += _demoted(linear.steps)
    steps += [_h(2, "7.2", "h_backward_attention"),
              _say("h_backward_attention_lead", Q=Q, K=K, V=V)]
    # 7.1 wrote each gradient out entry by entry; here the rows are enough
    steps += _demoted([s for s in att.steps if not (s.part or "").endswith(".entries")])
    steps += [_say("h_backward_read")]
    return steps


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
