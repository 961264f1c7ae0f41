"""Figures at their steps: a derivation (or the handout) with a picture after each reading.

:func:`with_figures` returns an object that renders like the derivation, with
a step of kind ``figure`` at the end of each part that reads a value a
picture says something about: the match of attention after the match, the
softmax after the distribution, and so on; the points of the operands after
the vector sequences, and the map after "products as maps", when they are
points in the plane.  Each figure step's sentence is its caption, narrated
like any step; every renderer draws the picture itself: LaTeX and PDF as TikZ
(:mod:`symrow.render.document`), slides as a frame of its own whose
overlays reveal it step by step (:mod:`symrow.render.beamer`), Markdown as
an image written beside the page (:func:`markdown_files`), text as a small
picture in characters (:mod:`.text`).

The handout gets a picture in every section (:func:`handout_figures`), from
its own worked examples where it has them.

>>> import symrow
>>> from symrow.figures.place import with_figures
>>> d = with_figures(symrow.attention(3, 3, 2))
>>> [(s.params["style"], s.part) for s in d.steps if s.kind == "figure"]
[('match', 'match'), ('scale', 'scale'), ('distribution', 'distribution'), ('hull', 'combine')]
"""

from __future__ import annotations

import functools

import sympy

from ..errors import FigureError
from ..printable import Printable
from ..steps import Step

__all__ = ["with_figures", "Figured", "markdown_files", "has_figures", "handout_figures"]


class Figured(Printable):
    """A derivation's steps with figure steps among them; renders like the derivation."""

    def __init__(self, source, steps):
        #: the pictures left out, with the reason (said on the command line)
        self.skipped: list = []
        self.derivation = getattr(source, "derivation", source)
        self.kind = source.kind
        self.steps = tuple(steps)
        self.title = getattr(source, "title", {})

    @property
    def parts(self) -> list:
        return list(dict.fromkeys(s.part for s in self.steps if s.part))

    @property
    def figures(self) -> list:
        """The figures, in the order of the steps."""
        return [s.params["figure"] for s in self.steps if s.kind == "figure"]

    def select(self, parts):
        from ..steps import Excerpt
        chosen = self.derivation.select(parts)
        keep = {id(s) for s in chosen.steps}
        steps = [chosen.steps[0]] + [s for s in self.steps if id(s) in keep or (
            s.kind == "figure" and any(
                _part_of(s.part, p) for p in chosen.selected))]
        return Excerpt(self.derivation, steps, chosen.selected)

    def __repr__(self) -> str:
        return (f"<{self.derivation!r} with {len(self.figures)} "
                f"figure{'' if len(self.figures) == 1 else 's'}>")


def _part_of(part: str, name: str) -> bool:
    return part == name or part.startswith(name + ".") or part.endswith("." + name)


def has_figures(obj) -> bool:
    return any(s.kind == "figure" for s in getattr(obj, "steps", ()))


def _step(fig, part: str, number: int, stem: str, images: str, note: bool = False) -> Step:
    """A figure step; ``note``: its caption ends by saying that the numbers are an
    example (the first picture of a derivation drawn with example numbers)."""
    params = {**fig.caption, "figure": fig, "number": number,
              "file": f"{stem}-{number}.{'png' if images == 'png' else 'svg'}",
              "images": images, "note": note}
    return Step("figure", params, part=part)


#: readings whose picture is left out (and said so) when its points need a choice of
#: coordinates that was not made: around the readings, not the readings themselves
_OPTIONAL = frozenset({"rowscale", "colscale", "bias", "layernorm", "apply"})

#: the part of the attention preset that each reading's picture closes
_ATTENTION_PARTS = {"match": "match", "scale": "scale", "softmax": "distribution",
                    "combine": "combine"}


def _part_for(derivation, node, parts: list):
    """The part a node's figure goes at the end of, or None."""
    kind = derivation.kind
    if node is None:
        return None
    names = []
    if kind == "attention":
        names.append(_ATTENTION_PARTS.get(node.reading))
    elif kind in ("combine", "match"):
        names.append("product")
    if node.name:
        names.append(node.name)
        if kind == "backward":
            from ..formula.shapes import canonical_key
            bare = node.name
            for wrap in ("\\bar{", "\\partial "):
                if bare.startswith(wrap):
                    bare = bare[len(wrap):].rstrip("}")
            names.append("grad-" + canonical_key(bare))
            names.append("grad-" + bare)
    for consumer in derivation.plan.consumers(node) if node.name is None else ():
        if consumer.name:
            names.append(consumer.name)
    for name in names:
        if name and name in parts:
            return name
    return None


def _end_of(steps: list, part: str) -> int:
    """The index after the last step of ``part`` (or of its inner parts)."""
    last = -1
    for k, s in enumerate(steps):
        if _part_of(s.part, part) and not s.part.endswith(".summary"):
            last = k
    return last + 1


def with_figures(obj, *, axes=None, values=None, images: str = "svg", stem: str = "figure",
                 focus: int = 1):
    """``obj`` (a derivation, an excerpt or the handout) with its figures at their steps.

    ``images`` says how Markdown shows a picture: ``"svg"`` or ``"png"``, a file
    beside the page named ``{stem}-{number}.svg``, or ``"inline"`` (a data URI, for
    Jupyter).  ``axes`` and ``values`` are as for :func:`symrow.figure`.
    """
    from ..handout import Handout
    if images not in ("svg", "png", "inline"):
        from ..errors import OptionError
        raise OptionError(f"images= is 'svg', 'png' or 'inline'; got {images!r}")
    if isinstance(obj, Handout):
        return Handout(handout_figures(obj, images=images, stem=stem))
    from .make import case_of, catalogue
    derivation = getattr(obj, "derivation", obj)
    case = case_of(derivation, values)
    found = catalogue(case, axes=axes, focus=focus)
    steps = list(obj.steps)
    parts = list(dict.fromkeys(s.part for s in steps if s.part))
    inserts: list = []    # (index, figure)
    skipped: list = []
    for node, fig in found:
        part = _part_for(derivation, node, parts)
        if part is None:
            continue
        try:
            fig.draft("en")
        except FigureError as err:
            if node.reading in _OPTIONAL:
                # a scaling of a matrix whose rows are not points of the plane (the
                # adjacency of a graph): said, not drawn
                skipped.append(f"no picture of {fig.name} ({node.reading}): {err}")
                continue
            raise
        inserts.append((_end_of(steps, part), part, fig))
    inserts += _operand_figures(derivation, case, steps, parts, axes)
    out: list = []
    number = 0
    by_index: dict = {}
    for index, part, fig in inserts:
        by_index.setdefault(index, []).append((part, fig))
    noted = False
    for k in range(len(steps) + 1):
        for part, fig in by_index.get(k, []):
            number += 1
            note = fig.example and not noted
            noted = noted or note
            out.append(_step(fig, part, number, stem, images, note))
        if k < len(steps):
            out.append(steps[k])
    shown = Figured(obj, out)
    shown.skipped = skipped
    return shown


def _operand_figures(derivation, case, steps, parts, axes) -> list:
    """For combine and match: the points of A after the vector sequences, and the map
    from A to C after "products as maps", when they are drawn without a choice of
    coordinates (points in the plane, or ``axes`` given)."""
    if derivation.kind not in ("combine", "match"):
        return []
    from ..build import I
    from .make import Figure
    plan = case.plan
    a = case.of(plan.nodes[0])
    c = case.of(plan.result)
    out = []

    def drawable(q):
        return len(q.rows[0]) == 2 or (axes is not None and len(q.rows[0]) > 2)
    if "vecseq" in parts and drawable(a):
        fig = Figure("points", (a,), {"axes": axes}, plan.nodes[0],
                     dict(style="points", A=a.seq, a_i=a.seq.vector(I)), case.example, a.name)
        out.append((_end_of(steps, "vecseq"), "vecseq", fig))
    if "maps" in parts and drawable(a) and drawable(c):
        fig = Figure("map", (a, c), {"axes": axes}, plan.result,
                     dict(style="map", A=a.seq, C=c.seq, a_i=a.seq.vector(I),
                          c_i=c.seq.vector(I)), case.example, c.name)
        out.append((_end_of(steps, "maps"), "maps", fig))
    return out


# -- Markdown: pictures beside the page ------------------------------------------------------

def markdown_files(obj, lang: str = "en") -> dict:
    """The picture files a Markdown rendering of ``obj`` links to: name -> bytes (SVG,
    or PNG by TeX and pdftoppm)."""
    out = {}
    for s in getattr(obj, "steps", ()):
        if s.kind != "figure" or s.params.get("images") == "inline":
            continue
        fig = s.params["figure"]
        name = s.params["file"]
        if name.endswith(".png"):
            out[name] = fig.to_png(lang)
        else:
            out[name] = fig.to_svg(lang).encode("utf-8")
    return out


# -- the handout -----------------------------------------------------------------------------

#: where the handout's pictures go: after the last step of each of these (sub)sections
HANDOUT_SECTIONS = ("1.2", "2.2", "3.2", "4.2", "5.2", "6.1", "6.2", "7.1", "7.2", "8")


def handout_figures(h, *, images: str = "svg", stem: str = "figure") -> list:
    """The handout's steps with a picture at the end of every (sub)section of
    :data:`HANDOUT_SECTIONS`, so that each of its sections has at least one."""
    figs = _handout_pictures()
    steps = list(h.steps)
    # the (sub)section each step belongs to, by the headings before it
    current, where = None, []
    for s in steps:
        if s.kind == "heading" and s.params.get("number"):
            current = s.params["number"]
        where.append(current)
    out, number = [], 0
    for k, s in enumerate(steps):
        out.append(s)
        here = where[k]
        nxt = where[k + 1] if k + 1 < len(steps) else None
        if here in figs and nxt != here:
            for fig in figs[here]:
                number += 1
                out.append(_step(fig, s.part, number, stem, images))
    return out


@functools.lru_cache(maxsize=None)
def _handout_pictures() -> dict:
    """The pictures of the handout, by the (sub)section they close, from its worked
    examples (``symrow.handout``) and from small cases with example numbers."""
    from .. import handout as H
    from ..build import I, J
    from ..derive.backward import backward
    from ..derive.explain import explain
    from .make import Figure, case_of, catalogue, figure
    ex = H._examples()
    comb, mat, att = ex["combine"], ex["match"], ex["attention"]
    A = comb.operands["A"]
    cc = case_of(comb)
    a, c = cc["A"], cc["C"]
    out: dict = {}
    out["1.2"] = [figure(A)]
    out["2.2"] = [Figure("map", (a, c), {"axes": (1, 3)}, comb.plan.result,
                         dict(style="map", A=a.seq, C=c.seq, a_i=a.seq.vector(I),
                              c_i=c.seq.vector(I)), False, "C")]
    out["3.2"] = [figure(comb, axes=(1, 3))]
    out["4.2"] = [figure(mat)]
    out["5.2"] = [figure(att, axes=(1, 2))]
    linear = explain("XW", values={"X": H.EXAMPLE["A"], "W": [[2, 0], [1, 1]]})
    out["6.1"] = [figure(linear)]
    adj = [[sympy.Integer(v) for v in row] for row in
           ([1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1])]
    deg = [sum(r) for r in adj]
    a_hat = [[adj[i][j] / sympy.sqrt(deg[i] * deg[j]) for j in range(4)] for i in range(4)]
    gcn = explain(r"\hat{A} X W", values={r"\hat{A}": a_hat,
                                          "X": [[2, 0], [1, 2], [-1, 1], [0, -2]],
                                          "W": [[1, 0], [0, 1]]})
    out["6.2"] = [figure(gcn, "H")]
    lin_back = backward("Y = XW", values={"X": H.EXAMPLE["A"], "W": [[2, 0], [1, 1]]})
    out["7.1"] = [figure(lin_back, r"\bar{X}",
                         values={r"\bar{Y}": [[1, 0], [0, 1], [1, -1]]})]
    att3 = explain(r"\operatorname{softmax}\left(\frac{QK^{T}}{\sqrt{d}}\right) V",
                   values={"Q": [[1, 0], [0, 1], [-1, -1]], "K": [[1, 1], [-1, 1], [0, -1]],
                           "V": [[3, 1], [1, 3], [-1, -1]]})
    att_back = backward(att3)
    out["7.2"] = [figure(att_back, r"\bar{V}",
                         values={r"\bar{O}": [[1, 0], [0, 1], [-1, 1]]})]
    ac = case_of(att3)
    q, o = ac["Q"], ac["O"]
    out["8"] = [Figure("map", (q, o), {}, att3.plan.result,
                       dict(style="map", A=q.seq, C=o.seq, a_i=q.seq.vector(I),
                            c_i=o.seq.vector(I)), False, "O")]
    del J, catalogue
    return out
