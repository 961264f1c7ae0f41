"""Figures of a derivation: which reading gets which picture, and the :class:`Figure` object.

:func:`catalogue` walks a plan and gives each node that a picture says
something about its figure (see :mod:`.kinds`): a combine, a match, a
softmax, the 1/√d before it, a combine with a distribution (the hull), a
graph's mixing, a diagonal scaling, a bias, LayerNorm, ReLU, σ and tanh;
and, for attention as a whole, the overview (scores, distribution, hull).
:func:`figure` picks one of them.

>>> import symrow
>>> fig = symrow.figure(symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2)))
>>> fig
<Figure combine of C (example values)>
>>> fig.to_svg().startswith("<svg")
True
>>> "\\\\begin{tikzpicture}" in fig.to_tikz()
True
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional

import sympy

from ..build import I, J
from ..errors import FigureError
from .layout import Draft, layout
from .numbers import Case, evaluate
from .scene import Label, Scene

__all__ = ["Figure", "figure", "catalogue", "Words", "case_of"]


class Words:
    """The words a picture writes in ``lang``: axis titles, the note on the coordinates
    drawn, the legend of the scale's bars (from the templates ``figure.word.*``)."""

    def __init__(self, lang: str):
        from ..narrate import check_lang
        self.lang = check_lang(lang)

    def _phrase(self, key: str, tex_fields: dict | None = None, **fields) -> Label:
        from ..narrate import get_language
        from ..render.document import tex_escape
        template = get_language(self.lang).templates[key]
        text = template.format(**fields)
        tex_fields = {**{k: tex_escape(str(v)) for k, v in fields.items()},
                      **(tex_fields or {})}
        # the words escaped, the fields as given (math in $...$)
        pieces, rest = [], template
        import string
        for literal, field, _spec, _conv in string.Formatter().parse(rest):
            pieces.append(tex_escape(literal))
            if field is not None:
                pieces.append(tex_fields[field])
        return Label("".join(pieces), text, math=False, size=0.9)

    def axis(self, k: int) -> Label:
        return self._phrase("figure.word.axis", k=k)

    def axes(self, axes: tuple) -> tuple:
        return (self.axis(axes[0]), self.axis(axes[1]))

    def note(self, axes: tuple, dims: int) -> Label:
        return self._phrase("figure.word.note", a=axes[0], b=axes[1], n=dims)

    def scale_with(self, root: Label) -> Label:
        return self._phrase("figure.word.with", {"root": f"${root.tex}$"}, root=root.text)

    def scale_without(self) -> Label:
        return self._phrase("figure.word.without")

    @staticmethod
    def points_of(q) -> str:
        """The points of a quantity, for an error message (English, as every message)."""
        from .kinds import name_label
        return f"the points of {name_label(q).text}"


@dataclasses.dataclass
class Figure:
    """One picture of a derivation, drawn from its numbers.

    * ``kind``: what it shows (``"combine"``, ``"attention"``, ...: :mod:`.kinds`);
    * ``quantities``: the :class:`~.numbers.Quantity` objects it draws, in the
      builder's order, and ``options`` (``axes``, ``focus``, ...);
    * ``node``: the plan's node it pictures (None for attention as a whole);
    * ``caption``: the parameters of its caption step (``style``, ``variant`` and the
      math fields of the template ``figure.<style>[.<variant>]``);
    * ``example``: whether some numbers are an example (not given by the user).

    ``to_svg``, ``to_tikz``, ``to_document``, ``to_pdf``, ``to_png`` and ``save``
    draw it; ``scene`` lays it out (a :class:`~.scene.Scene`); in Jupyter it shows
    itself (``_repr_svg_``).
    """

    kind: str
    quantities: tuple
    options: dict
    node: object
    caption: dict
    example: bool = False
    name: str = ""

    def __post_init__(self):
        self._scenes: dict = {}

    def __repr__(self) -> str:
        of = f" of {self.name}" if self.name else ""
        return f"<Figure {self.kind}{of}{' (example values)' if self.example else ''}>"

    # -- drawing ------------------------------------------------------------------------
    def draft(self, lang: str = "en", target: str = "page") -> Draft:
        from .kinds import BUILDERS
        return BUILDERS[self.kind](Words(lang), *self.quantities, **self.options,
                                   slides=target == "slide")

    def scene(self, target: str = "page", lang: str = "en", *,
              max_height: float | None = None) -> Scene:
        """The figure laid out for ``target`` ("page", "slide" or "web"), in ``lang``;
        ``max_height`` (pt) makes it fit a smaller room (a slide under a long caption)."""
        key = (target, lang, max_height)
        if key not in self._scenes:
            words = Words(lang)
            from .layout import TARGETS
            room = TARGETS[target]
            if max_height is not None:
                room = dataclasses.replace(room, max_height=min(room.max_height, max_height),
                                           plot_height=min(room.plot_height, max_height))
            self._scenes[key] = layout(self.draft(lang, target), room,
                                       lambda d: words.axes(d.axes) if d.kind == "plot"
                                       else None)
        return self._scenes[key]

    def to_svg(self, lang: str = "en") -> str:
        """The picture as an SVG document, for a web page or a notebook."""
        from .svg import to_svg
        return to_svg(self.scene("web", lang), title=self.alt(lang))

    def to_tikz(self, lang: str = "en", *, slides: bool = False,
                max_height: float | None = None) -> str:
        """The picture as a ``tikzpicture`` (needs ``\\usepackage{tikz}``); ``slides``
        draws each step on its own overlays, at the size of a slide (at most
        ``max_height`` pt tall)."""
        from .tikz import to_tikz
        return to_tikz(self.scene("slide" if slides else "page", lang, max_height=max_height),
                       slides=slides)

    def to_text(self, lang: str = "en") -> str:
        """The picture in characters, for a terminal (coarse: see :mod:`.text`)."""
        from .text import to_text
        return to_text(self.scene("page", lang))

    def caption_step(self):
        """The caption as a step (kind ``figure``), narrated like every step."""
        from ..steps import Step
        return Step("figure", {**self.caption, "figure": self})

    def caption_latex(self, lang: str = "en") -> str:
        from ..render.document import sentence, tex_escape
        return sentence(self.caption_step(), lang, tex_escape)

    def caption_markdown(self, lang: str = "en") -> str:
        from ..render.document import _md_escape, sentence
        return sentence(self.caption_step(), lang, _md_escape, "markdown")

    def alt(self, lang: str = "en") -> str:
        """The caption as plain text (an image's alternative text)."""
        from ..narrate import glued, segments
        from ..render.text import _inline
        return "".join(v if k == "text" else _inline(v)
                       for k, v, _join in glued(segments(self.caption_step(), lang), lang))

    def to_document(self, lang: str = "en") -> str:
        """A LaTeX document of the picture alone, its page the picture's size (for PDF
        and PNG), in the language's engine."""
        from ..render.document import preamble
        scene = self.scene("page", lang)
        head = preamble(lang).replace("\\usepackage[a4paper,margin=20mm]{geometry}",
                                      "\\usepackage[papersize={%.2fpt,%.2fpt},margin=0pt]"
                                      "{geometry}" % (scene.width + 8, scene.height + 8))
        head = head.replace("a4paper,", "")
        from .tikz import to_tikz
        return (head + "\\usepackage{tikz}\n\\pagestyle{empty}\n\\begin{document}\n"
                "\\noindent\\hspace*{4pt}\\raisebox{0pt}[\\dimexpr%.2fpt+4pt\\relax][4pt]{%%\n"
                % scene.height + to_tikz(scene) + "}\n\\end{document}\n")

    def to_pdf(self, lang: str = "en") -> bytes:
        """The picture as a one-page PDF (TeX: see :func:`symrow.render.pdf.compile_pdf`)."""
        from ..render.pdf import compile_pdf
        return compile_pdf(self.to_document(lang), lang)

    def to_png(self, lang: str = "en", dpi: int = 200) -> bytes:
        """The picture as PNG: its PDF, rasterised by poppler's ``pdftoppm``."""
        from .output import pdf_to_png
        return pdf_to_png(self.to_pdf(lang), dpi)

    def save(self, path, lang: str = "en") -> None:
        """Write the picture to ``path``, atomically; the suffix picks the format: .svg,
        .tex (a document), .tikz (the picture alone), .pdf or .png."""
        from .output import FIGURE_SUFFIXES, render_figure
        from ..outfile import write_atomic
        import pathlib
        suffix = pathlib.Path(path).suffix.lower()
        if suffix not in FIGURE_SUFFIXES:
            raise FigureError(f"a picture is written as {', '.join(FIGURE_SUFFIXES)}; "
                              f"got {path}")
        write_atomic(path, render_figure(self, FIGURE_SUFFIXES[suffix], lang))

    def data_uri(self, lang: str = "en") -> str:
        """The SVG as a ``data:`` URI (an image inside a notebook's Markdown)."""
        import base64
        return "data:image/svg+xml;base64," + base64.b64encode(
            self.to_svg(lang).encode("utf-8")).decode("ascii")

    def _repr_svg_(self) -> str:
        return self.to_svg("en")


# -- which figure for which node -----------------------------------------------------------------

def _seq_field(q):
    return q.seq if q.seq is not None else q.node.whole()


def _row(q, index):
    return q.seq.vector(index) if q.seq is not None else q.node.row(index)


def _softmax_consumer(plan, node):
    for n in plan.consumers(node):
        if n.reading == "softmax":
            return n
        if n.reading == "mask":
            return _softmax_consumer(plan, n)
    return None


def _is_distribution(q) -> bool:
    return all(v >= -1e-12 for r in q.rows for v in r if math.isfinite(v)) and \
        all(abs(sum(r) - 1) < 1e-9 for r in q.rows)


def _is_graph(q) -> bool:
    rows = q.rows
    n = len(rows)
    if n < 3 or any(len(r) != n for r in rows):
        return False
    if any(v < -1e-12 for r in rows for v in r):
        return False
    off = [(i, j) for i in range(n) for j in range(n) if i != j]
    zero = [(i, j) for i, j in off if abs(rows[i][j]) < 1e-12]
    return bool(zero) and all(abs(rows[j][i]) < 1e-12 for i, j in zero)


_FUNCS = {"relu": "relu", "sigma": "sigma", "sigmoid": "sigma", "tanh": "tanh"}


def catalogue(case: Case, *, axes=None, focus: int = 1) -> list:
    """Every figure the plan of ``case`` has, in plan order, as (node, Figure)."""
    plan = case.plan
    out = []
    opts = {"axes": axes}
    for node in plan.nodes:
        q = case.of(node)
        r = node.reading
        fig = None
        if r in ("combine", "tcombine"):
            w, b = (case.of(i) for i in node.inputs)
            if r == "combine" and _is_distribution(w) and w.node.reading == "softmax" \
                    or (r == "combine" and _is_distribution(w) and len(w.rows[0]) >= 2
                        and w.node.reading != "operand"):
                fig = _fig("hull", (w, b, q), {**opts, "focus": focus}, node,
                           dict(style="hull", o_i=_row(q, I), v_j=_row(b, J)), case)
            elif r == "combine" and _is_graph(w) and len(w.rows) == len(b.rows):
                fig = _fig("graph", (w, b, q), opts, node,
                           dict(style="graph", h_i=_row(q, I), x_j=_row(b, J),
                                x_i=_row(b, I), A=_seq_field(w)), case)
            else:
                t = r == "tcombine"
                fig = _fig("combine", (w, b, q), {**opts, "transposed": t}, node,
                           dict(style="combine", variant="transposed" if t else None,
                                C=_seq_field(q), B=_seq_field(b), A=_seq_field(w),
                                a_i=_row(w, I), b_j=_row(b, J), c_i=_row(q, I)), case)
        elif r == "match":
            a, b = (case.of(i) for i in node.inputs)
            flat = len(a.rows[0]) != 2
            fig = _fig("match", (a, b, q), {**opts, "focus": focus}, node,
                       dict(style="match", variant="flat" if flat else None,
                            a_i=_row(a, I), b_j=_row(b, J), a_f=_row(a, focus),
                            c_i=_row(q, I), c_ij=_entry(q, I, J)), case)
        elif r == "softmax":
            s = case.of(node.inputs[0])
            masked = any(not math.isfinite(v) for row in s.rows for v in row)
            fig = _fig("distribution", (s, q), {}, node,
                       dict(style="distribution", variant="masked" if masked else None,
                            S=_seq_field(s), P=_seq_field(q)), case)
        elif r == "scale":
            soft = _softmax_consumer(plan, node)
            den = sympy.sympify(getattr(node, "den", 1))
            if soft is not None and den != 1:
                raw = case.of(node.inputs[0])
                p = case.of(soft)
                root = Label(_latex(node.shown[1]) if hasattr(node, "shown") else
                             _latex(den), _text(node.shown[1]) if hasattr(node, "shown")
                             else _text(den))
                fig = _fig("scale", (raw, q, p), {"root": root, "focus": focus}, node,
                           dict(style="scale", p_i=_row(p, focus), root=_root_node(node)),
                           case, field_i=focus)
        elif r == "rowscale":
            d, x = (case.of(i) for i in node.inputs)
            fig = _shift("rowscale", x, q, node, case, opts)
        elif r == "colscale":
            x, d = (case.of(i) for i in node.inputs)
            fig = _shift("colscale", x, q, node, case, opts)
        elif r == "bias":
            terms = [case.of(i) for i in node.inputs]
            rows = [t for t, is_row in zip(terms, node.is_row) if is_row]
            main = [t for t, is_row in zip(terms, node.is_row) if not is_row]
            if len(main) == 1 and len(rows) == 1 and all(s == 1 for s in node.signs):
                fig = _shift("bias", main[0], q, node, case, opts, extra=rows[0],
                             b=_seq_field(rows[0]))
        elif r == "layernorm":
            fig = _shift("layernorm", case.of(node.inputs[0]), q, node, case, opts)
        elif r == "apply":
            how = _FUNCS.get(str(node.func).lower())
            if how is not None:
                fig = _shift(how, case.of(node.inputs[0]), q, node, case, opts)
        if fig is not None:
            out.append((node, fig))
    overview = _attention(case, axes=axes, focus=focus)
    if overview is not None:
        out.append((None, overview))
    return out


def _latex(v) -> str:
    from ..render.latex import latex
    return latex(v)


def _text(v) -> str:
    from ..render.text import _inline
    return _inline(v)


def _root_node(node):
    return node.shown[1] if hasattr(node, "shown") else node.den


def _entry(q, i, j):
    if q.seq is not None:
        return q.seq.symbol(i, j)
    return q.node.entry(i, j)


def _fig(kind, quantities, options, node, caption, case, field_i=None) -> Figure:
    caption = {k: v for k, v in caption.items() if v is not None}
    name = node.name if node is not None and node.name else (
        node.label() if node is not None else "")
    return Figure(kind, tuple(quantities), dict(options), node, caption, case.example, name)


def _shift(how, before, after, node, case, opts, extra=None, **fields) -> Figure:
    caption = dict(style="shift", variant=how, x_i=_row(before, I), **fields)
    options = {**opts, "how": how, "extra": extra}
    return _fig("shift", (before, after), options, node, caption, case)


def _attention(case: Case, *, axes=None, focus: int = 1) -> Optional[Figure]:
    """Attention as a whole, when the plan has it: a match, (a scale, a mask,) a softmax,
    and a combine of the softmax with the values."""
    plan = case.plan
    for node in plan.nodes:
        if node.reading != "combine" or node.inputs[0].reading != "softmax":
            continue
        soft = node.inputs[0]
        scores = soft.inputs[0]
        inner = scores
        while inner.reading in ("scale", "mask"):
            inner = inner.inputs[0]
        if inner.reading != "match":
            continue
        s, p, v, o = (case.of(n) for n in (scores, soft, node.inputs[1], node))
        masked = any(not math.isfinite(x) for row in s.rows for x in row)
        caption = dict(style="attention", variant="masked" if masked else None,
                       S=_seq_field(s), P=_seq_field(p), o_i=_row(o, I), v_j=_row(v, J),
                       p_ij=_entry(p, I, J))
        fig = Figure("attention", (s, p, v, o), {"axes": axes, "focus": focus}, None,
                     {k: x for k, x in caption.items() if x is not None}, case.example,
                     o.name or "")
        return fig
    return None


# -- from a derivation ------------------------------------------------------------------------

def case_of(obj, values=None) -> Case:
    """The numbers of a derivation (see :func:`.numbers.evaluate`); a backward
    derivation takes the values of its forward pass."""
    plan = getattr(obj, "plan", None)
    if plan is None:
        raise FigureError(f"a {getattr(obj, 'kind', type(obj).__name__)} has no plan of "
                          f"values to draw")
    forward = getattr(obj, "forward", None)
    if forward is not None and forward.plan is not None:
        first = evaluate(forward.plan, values)
        given = {q.name: q.exact for q in first.by_node.values() if q.name}
        given.update(values or {})
        case = evaluate(plan, given, sizes=forward.plan.ties)
        case.example = case.example or first.example
        return case
    return evaluate(plan, values)


def figure(obj, of: str | None = None, *, axes=None, values=None, focus: int = 1) -> Figure:
    """A picture of a derivation (or of a vector sequence), drawn from its numbers.

    ``of`` picks the quantity whose reading is drawn, by name (``"S"``, ``"O"``,
    ``"\\\\bar{X}"``) or by reading (``"scale"``, ``"softmax"``), or ``"attention"`` for
    attention as a whole, or an operand's name for its points; by default attention as a whole when the formula is attention,
    else the result's reading (or the last reading with a picture).  ``values`` gives
    numbers (name -> rows) to operands that have none; without them, example numbers
    are used (see :mod:`.numbers`).  ``axes`` chooses the two coordinates drawn of
    points with more than two; ``focus`` the row whose construction is spelled out
    (projections, weights), from 1.

    >>> import symrow
    >>> att = symrow.attention(3, 3, 2)
    >>> symrow.figure(att).kind, symrow.figure(att, "S").kind, symrow.figure(att, "P").kind
    ('attention', 'match', 'distribution')
    >>> symrow.figure(att, "Z")
    Traceback (most recent call last):
    ...
    symrow.errors.FigureError: this derivation has no picture of Z; it has pictures of S, S/√d, P, O, attention, and the points of K, Q, V
    """
    from ..seq import VecSeq
    if isinstance(obj, VecSeq):
        from .numbers import Quantity
        matrix = obj.values
        if matrix is None or any(isinstance(v, sympy.Symbol) for v in matrix):
            raise FigureError(f"{obj.name} has no numbers to draw; make it with values, "
                              f"e.g. vecseq('{obj.name}', sympy.Matrix([[1, 2], [3, 4]]))")
        from .numbers import _floats
        q = Quantity(None, obj, sympy.Matrix(matrix), _floats(sympy.Matrix(matrix), None))
        return Figure("points", (q,), {"axes": axes}, None,
                      dict(style="points", A=obj, a_i=obj.vector(I)), False, obj.name)
    obj = getattr(obj, "derivation", obj)   # an excerpt: the derivation it is taken from
    case = case_of(obj, values)
    found = catalogue(case, axes=axes, focus=focus)
    names = {}
    for node, fig in found:
        key = "attention" if node is None else (node.name or fig.name)
        names.setdefault(key, fig)
    operands = {q.name: q for q in case.by_node.values()
                if q.node.reading == "operand" and q.name}
    if of is None:
        if "attention" in names and getattr(obj, "kind", "") != "backward":
            return _checked(names["attention"])
        result = case.plan.result
        for node, fig in found:
            if node is result:
                return _checked(fig)
        if found:
            return _checked([fig for node, fig in found if node is not None][-1])
        raise FigureError("this derivation has no reading a picture is made for (a "
                          "combine, a match, a softmax, ...)")
    from ..formula.shapes import canonical_key
    key = canonical_key(of) if of != "attention" else of
    for name, fig in names.items():
        if name == key or canonical_key(name) == key:
            return _checked(fig)
    for node, fig in found:   # a reading's name: "scale", "softmax", "match", ...
        if node is not None and (fig.name == of or node.reading == of):
            return _checked(fig)
    if key in operands:
        q = operands[key]
        return _checked(Figure("points", (q,), {"axes": axes}, None,
                      dict(style="points", A=q.seq, a_i=q.seq.vector(I)), case.example,
                      q.name))
    listed = list(names)
    raise FigureError(f"this derivation has no picture of {of}; it has pictures of "
                      f"{', '.join(_shown_name(n) for n in listed)}, and the points of "
                      f"{', '.join(sorted(operands))}")


def _checked(fig: Figure) -> Figure:
    """The figure, once its draft is made: a choice it needs (``axes``) is asked for now,
    not when it is first drawn."""
    fig.draft("en")
    return fig


def _shown_name(name: str) -> str:
    from ..render.text import _inline
    return name if name.isidentifier() or name == "attention" else name
