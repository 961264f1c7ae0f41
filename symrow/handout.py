"""The full handout: the mathematics of attention, read through matrix products.

The handout follows the reference article's path, one section each:

1. matrices as vector sequences;
2. matrix products as maps between point clouds;
3. ``AB``: combine;
4. ``AB^T``: match;
5. attention as match, then distribution, then combine.

Every section has the general form (sizes m, ℓ, n with ellipses) and one
worked concrete example.  The general forms are the steps of
:func:`symrow.combine`, :func:`symrow.match` and :func:`symrow.attention`
themselves; the examples and the connecting sentences are the handout's
own steps, narrated by :mod:`symrow.narrate.handout_en` and
:mod:`symrow.narrate.handout_ja`.

A :class:`Handout` renders like a derivation:

>>> import symrow.handout
>>> h = symrow.handout.handout()
>>> [s.params["number"] for s in h.steps if s.kind == "heading" and s.params["level"] == 1]
['1', '2', '3', '4', '5', '6']
>>> h.to_markdown("en").startswith("# Reading attention")
True
"""

from __future__ import annotations

import math
from typing import Iterable

import sympy

from . import nodes as N
from .derive.common import row_bmat, stack
from .narrate import check_lang
from .render.document import preamble, to_latex, to_markdown, tex_escape
from .seq import VecSeq, vecseq
from .steps import Step

__all__ = ["Handout", "handout", "TITLE", "EXAMPLE"]

#: the handout's title, per language (LaTeX)
TITLE = {
    "en": "Reading attention through matrix products",
    "ja": "行列積で読むアテンション",
}
SUBTITLE = {
    "en": "A handout: matrices as vector sequences, products as combine and match",
    "ja": "補足資料：ベクトル列・結合・照合",
}

#: the numbers of the worked examples: A holds three points in the plane
EXAMPLE = {
    "A": [[1, 2], [3, 1], [0, 2]],
    "B_combine": [[1, 0, 1], [0, 1, 1]],
    "B_match": [[1, 1], [2, -1]],
}


class Handout:
    """The handout as an ordered list of steps; renders like a derivation.

    ``steps`` are :class:`~symrow.steps.Step` records; headings carry
    ``level`` (1 section, 2 subsection) and ``number``.
    """

    kind = "handout"

    def __init__(self, steps: Iterable[Step]):
        self.steps = tuple(steps)

    def __repr__(self) -> str:
        sections = sum(1 for s in self.steps if s.kind == "heading" and s.params.get("level") == 1)
        return f"<Handout: {sections} sections, {len(self.steps)} steps>"

    def to_latex(self, lang: str = "en") -> str:
        """The body as a LaTeX fragment (amsmath)."""
        return to_latex(self, lang)

    def to_markdown(self, lang: str = "en") -> str:
        """Markdown with ``$$`` blocks, for KaTeX sites and Jupyter."""
        title = TITLE[check_lang(lang)]
        return f"# {title}\n\n*{SUBTITLE[lang]}*\n\n" + to_markdown(self, lang)

    def to_text(self, lang: str = "en") -> str:
        """Unicode text for a terminal."""
        from .render.text import to_text
        title = TITLE[check_lang(lang)]
        return f"{title}\n{SUBTITLE[lang]}\n\n" + to_text(self, lang)

    def to_document(self, lang: str = "en") -> str:
        """A complete LaTeX document: pdflatex for ``en``, lualatex + luatexja for ``ja``."""
        head = ("\\begin{center}\n{\\LARGE\\bfseries %s\\par}\\vspace{0.6em}\n"
                "{\\large %s\\par}\\vspace{0.3em}\n{\\small %s\\par}\n\\end{center}\n\n"
                % (tex_escape(TITLE[check_lang(lang)]), tex_escape(SUBTITLE[lang]),
                   _MADE_WITH[lang]))
        return (preamble(lang) + "\\begin{document}\n" + head + to_latex(self, lang)
                + "\\end{document}\n")

    def to_pdf(self, lang: str = "en") -> bytes:
        """The document compiled to PDF (pdflatex for ``en``, lualatex for ``ja``)."""
        from .render.pdf import compile_pdf
        return compile_pdf(self.to_document(lang), lang)

    def _repr_markdown_(self) -> str:
        return self.to_markdown("en")

    def __str__(self) -> str:
        return self.to_text("en")

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
        return _check_parts()


_MADE_WITH = {"en": "Every derivation in this handout was produced by symrow.",
              "ja": "この資料の導出はすべて symrow が生成した。"}


# -- building blocks ------------------------------------------------------------------

def _h(level: int, number: str, topic: str, **params) -> Step:
    return Step("heading", {"topic": topic, "level": level, "number": number, **params})


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


def _num(value) -> sympy.Integer:
    return sympy.Integer(value)


def _vec(values) -> N.Bmat:
    """A row vector of numbers, ``[1  2  3]``."""
    return N.Bmat([[_num(v) for v in values]])


def _mat(rows) -> N.Bmat:
    return N.Bmat([[_num(v) for v in row] for row in rows])


# -- the sections ------------------------------------------------------------------------

def _general_products():
    from .derive.products import combine, match
    A, B = vecseq("A", "m", "ell"), vecseq("B", "ell", "n")
    return combine(A, B), match(A, vecseq("B", "n", "ell"))


def _section_vecseq(comb, A: VecSeq) -> list[Step]:
    rows = EXAMPLE["A"]
    steps = [_h(1, "1", "h_vecseq"), _say("h_vecseq_lead"),
             _h(2, "1.1", "h_general")]
    steps += _from(comb, "entries", stop="products")
    steps += [
        _h(2, "1.2", "h_example"),
        _say("h_ex_vecseq_matrix", N.Chain([A, _mat(rows)]), A=A, m=A.rows, ell=A.cols),
        _say("h_ex_vecseq_points",
             N.Group([N.Chain([A.vector(k + 1), _vec(r)]) for k, r in enumerate(rows)]),
             A=A, m=A.rows),
        _say("h_ex_vecseq_stack", N.Rel(N.Chain([A, stack(A)]), "in", N.Space(A.rows, A.cols)),
             A=A, a_2=A.vector(2), x=_vec(rows[1])),
    ]
    return steps


def _section_maps(comb, A: VecSeq) -> list[Step]:
    steps = [_h(1, "2", "h_maps"), _h(2, "2.1", "h_general")]
    steps += [Step(s.kind, {**s.params, "variant": "handout"}, s.display)
              for s in _from(comb, "products", stop="map")]
    steps += _from(comb, "map", stop="operands_combine")
    n = len(EXAMPLE["B_combine"][0])
    C = vecseq("C", A.rows, n)
    steps += [
        _h(2, "2.2", "h_example"),
        _say("h_ex_maps", N.Rel(A, "to", C), A=A, C=C, m=A.rows, ell=A.cols, n=n,
             space_a=N.Space(A.rows, A.cols), space_c=N.Space(C.rows, C.cols)),
        _say("h_ex_maps_points",
             N.Items([N.Rel(A.vector(k), "mapsto", C.vector(k)) for k in range(1, A.rows + 1)]),
             A=A, C=C),
    ]
    return steps


def _section_combine(comb, A: VecSeq) -> list[Step]:
    Bv = EXAMPLE["B_combine"]
    B = vecseq("B", sympy.Matrix(Bv))
    C = vecseq("C", A.rows, B.cols)
    Av = sympy.Matrix(EXAMPLE["A"])
    Cv = Av * sympy.Matrix(Bv)
    steps = [_h(1, "3", "h_combine", AB=N.OMul([vecseq("A", "m", "ell"),
                                                vecseq("B", "ell", "n")])),
             _h(2, "3.1", "h_general")]
    steps += _from(comb, "operands_combine")
    rows = []
    for i in range(A.rows):
        weights = [Av[i, j] for j in range(B.rows)]
        rows.append(N.Chain([
            C.vector(i + 1),
            N.OSum([N.OMul([w, B.vector(j + 1)]) for j, w in enumerate(weights)]),
            N.OSum([N.OMul([w, _vec(Bv[j])]) for j, w in enumerate(weights)]),
            _vec(list(Cv.row(i)))]))
    steps += [
        _h(2, "3.2", "h_example"),
        _say("h_ex_combine_b",
             N.Group([N.Chain([B.vector(j + 1), _vec(r)]) for j, r in enumerate(Bv)]),
             A=A, B=B, ell=B.rows, n=B.cols),
        _say("h_ex_combine_rows", N.Group(rows), A=A, B=B, C=C),
        _say("h_ex_combine_result",
             N.Chain([C, N.OMul([A, B]), N.OMul([_mat(EXAMPLE["A"]), _mat(Bv)]),
                      _mat(Cv.tolist())]),
             C=C, AB=N.OMul([A, B])),
        _say("h_ex_combine_read", a_2=A.vector(2), b_1=B.vector(1), b_2=B.vector(2),
             c_2=C.vector(2), three=_num(Av[1, 0]), one=_num(Av[1, 1])),
    ]
    return steps


def _section_match(mat, A: VecSeq) -> list[Step]:
    Bv = EXAMPLE["B_match"]
    B = vecseq("B", sympy.Matrix(Bv))
    C = vecseq("C", A.rows, B.rows)
    Av = sympy.Matrix(EXAMPLE["A"])
    Cv = Av * sympy.Matrix(Bv).T

    def dot_terms(i, j):
        return N.OSum([N.OMul([Av[i, k], _num(Bv[j][k])]) for k in range(A.cols)])

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
                      N.OMul([_mat(EXAMPLE["A"]), _mat(sympy.Matrix(Bv).T.tolist())]),
                      _mat(Cv.tolist())]),
             C=C, ABT=N.OMul([A, N.Transpose(B)])),
        _say("h_ex_match_read",
             N.Items([N.Rel(A.vector(i + 1), "to", B.vector(best[i])) for i in range(A.rows)]),
             A=A, B=B, C=C, a_1=A.vector(1), b_1=B.vector(1), b_2=B.vector(2),
             c_11=N.Chain([C.symbol(1, 1), _num(Cv[0, 0])]),
             c_12=N.Chain([C.symbol(1, 2), _num(Cv[0, 1])])),
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
            s = Step("heading", {**s.params, "level": 3}, s.display)
        out.append(s)
    return out


def _decimal(x: float) -> N.Label:
    text = f"{x:.3f}"
    return N.Label(text, text)


def _scores_over_root(value, d: int):
    """A scaled score written inline, ``3/√2`` (``0`` for 0): small fractions
    inside a matrix or an exponent are hard to read."""
    if value == 0:
        return _num(0)
    return N.Label("%s/\\sqrt{%d}" % (value, d), f"{value}/√{d}")


def _section_attention() -> list[Step]:
    from .derive.attention import attention
    Qv, Kv, Vv = EXAMPLE["A"], EXAMPLE["B_match"], EXAMPLE["B_combine"]
    d = len(Qv[0])
    Q, K, V = (vecseq(name, sympy.Matrix(v)) for name, v in (("Q", Qv), ("K", Kv), ("V", Vv)))
    S = sympy.Matrix(Qv) * sympy.Matrix(Kv).T
    m, n = S.shape
    weights = [[math.exp(S[i, j] / math.sqrt(d)) for j in range(n)] for i in range(m)]
    P = [[w / sum(row) for w in row] for row in weights]
    O = [[sum(P[i][j] * Vv[j][k] for j in range(n)) for k in range(len(Vv[0]))]
         for i in range(m)]
    Pseq, Oseq, Sseq = vecseq("P", m, n), vecseq("O", m, len(Vv[0])), vecseq("S", m, n)
    root = N.Sqrt(_num(d))

    def softmax_entry(i, j):
        def e(jj):
            return N.Exp(_scores_over_root(S[i, jj], d))
        return N.Frac(e(j), N.OSum([e(jj) for jj in range(n)]))

    first_row = N.Group([N.Rel(N.Chain([Pseq.symbol(1, j + 1), softmax_entry(0, j)]),
                               "approx", _decimal(P[0][j])) for j in range(n)])
    combine_rows = [N.Rel(N.Chain([Oseq.vector(i + 1),
                                   N.OSum([N.OMul([Pseq.symbol(i + 1, j + 1), V.vector(j + 1)])
                                           for j in range(n)])]),
                          "approx",
                          N.Chain([N.OSum([N.OMul([_decimal(P[i][j]), _vec(Vv[j])])
                                           for j in range(n)]),
                                   N.Bmat([[_decimal(o) for o in O[i]]])]))
                    for i in range(m)]
    steps = [_h(1, "5", "h_attention"), _say("h_attention_lead"),
             _h(2, "5.1", "h_general")]
    steps += _demoted(attention("m", "n", "d").steps)
    steps += [
        _h(2, "5.2", "h_example"),
        _say("h_ex_attn_setup",
             N.Group([N.Chain([X, _mat(v)]) for X, v in ((Q, Qv), (K, Kv), (V, Vv))]),
             Q=Q, K=K, V=V, A=vecseq("A", sympy.Matrix(Qv)), d=_num(d),
             d_eq=N.Chain([N.Label("d", "d"), _num(d)])),
        _say("h_ex_attn_match",
             N.Chain([Sseq, N.OMul([Q, N.Transpose(K)]), _mat(S.tolist())]),
             QKT=N.OMul([Q, N.Transpose(K)])),
        _say("h_ex_attn_scale",
             N.Chain([N.Frac(Sseq, root),
                      N.Bmat([[_scores_over_root(S[i, j], d) for j in range(n)]
                              for i in range(m)])]),
             root=root),
        _say("h_ex_attn_softmax", first_row),
        _say("h_ex_attn_distribution",
             N.Rel(Pseq, "approx", N.Bmat([[_decimal(p) for p in row] for row in P])),
             P=Pseq),
        _say("h_ex_attn_combine", N.Group(combine_rows), O=Oseq, P=Pseq, V=V),
        _say("h_ex_attn_read", None,
             o_1=Oseq.vector(1), o_2=Oseq.vector(2), v_1=V.vector(1), v_2=V.vector(2),
             q_1=Q.vector(1), q_2=Q.vector(2), k_1=K.vector(1), k_2=K.vector(2),
             share=N.Label(f"{round(100 * P[0][0])}\\%", f"{round(100 * P[0][0])}%")),
    ]
    return steps


def _section_closing() -> list[Step]:
    return [_h(1, "6", "h_closing"),
            _say("h_closing_1", AB=_label("AB", "AB"), ABT=_label("AB^{T}", "ABᵀ")),
            _say("h_closing_2")]


def _check_parts() -> list:
    from .derive.attention import attention
    from .derive.products import combine, match
    comb, mat = _general_products()
    A, Bc, Bm = (sympy.Matrix(EXAMPLE[k]) for k in ("A", "B_combine", "B_match"))
    comb_ex = combine(vecseq("A", *A.shape), vecseq("B", *Bc.shape))
    mat_ex = match(vecseq("A", *A.shape), vecseq("B", *Bm.shape))
    att = attention("m", "n", "d")
    att_ex = attention(A.rows, Bm.rows, A.cols, d_v=Bc.cols)
    return [("1", comb, {}), ("1.2", comb_ex, {"A": A, "B": Bc}),
            ("2", comb, {}), ("2.2", comb_ex, {"A": A, "B": Bc}),
            ("3", comb, {}), ("3.2", comb_ex, {"A": A, "B": Bc}),
            ("4", mat, {}), ("4.2", mat_ex, {"A": A, "B": Bm}),
            ("5", att, {}), ("5.2", att_ex, {"Q": A, "K": Bm, "V": Bc}),
            ("6", comb, {})]


def handout() -> Handout:
    """Build the handout (every language renders from the same steps)."""
    comb, mat = _general_products()
    A = vecseq("A", sympy.Matrix(EXAMPLE["A"]))
    steps = [_say("h_intro", QKT=_label("QK^{T}", "QKᵀ"), PV=_label("PV", "PV")),
             _say("h_intro_plan")]
    steps += _section_vecseq(comb, A)
    steps += _section_maps(comb, A)
    steps += _section_combine(comb, A)
    steps += _section_match(mat, A)
    steps += _section_attention()
    steps += _section_closing()
    return Handout(steps)
