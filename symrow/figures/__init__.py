"""Pictures of the point clouds: every reading drawn as what it does to the points.

A figure is drawn from the numbers of a concrete case (the derivation's own
values, or example numbers: :mod:`.numbers`), in the row view: each row of a
matrix is a point.  One scene model (:mod:`.scene`: points, arrows, hulls,
heat-map cells and labels, in data coordinates), laid out once for a page, a
slide or the web (:mod:`.layout`), is drawn by two small printers: TikZ for
LaTeX, PDF and Beamer (:mod:`.tikz`: the document's fonts and math in the
labels, one overlay per step on a slide) and SVG for Markdown pages and
Jupyter (:mod:`.svg`: Unicode labels, the math in the caption).  PNG comes from
the compiled TikZ, by poppler's ``pdftoppm`` (:mod:`.output`).

>>> import symrow
>>> att = symrow.attention(3, 3, 2)
>>> fig = symrow.figure(att)                  # scores, distribution, o_i in the hull of V
>>> fig.kind, [p.kind for p in fig.scene().panels]
('attention', ['grid', 'grid', 'plot'])
>>> [f.kind for f in symrow.figures.figures(att)]
['match', 'scale', 'distribution', 'hull', 'attention']

Only :func:`figure` and :func:`figures` are imported here; the rest is loaded
when a picture is drawn.
"""

from __future__ import annotations

__all__ = ["figure", "figures", "Figure"]


def figure(obj, of=None, *, axes=None, values=None, focus: int = 1):
    """A picture of a derivation: see :func:`symrow.figures.make.figure`."""
    from .make import figure as make
    return make(obj, of, axes=axes, values=values, focus=focus)


def figures(obj, *, axes=None, values=None, focus: int = 1) -> list:
    """Every picture a derivation has, in the order of its plan (attention as a whole
    last)."""
    from .make import case_of, catalogue
    obj = getattr(obj, "derivation", obj)
    return [fig for _node, fig in catalogue(case_of(obj, values), axes=axes, focus=focus)]


def __getattr__(name: str):
    if name == "Figure":
        from .make import Figure
        return Figure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
