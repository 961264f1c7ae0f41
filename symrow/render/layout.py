"""Displays laid out in lines of a given width: where a long display breaks.

:func:`display_lines` turns one display node into the lines of an
``aligned``/``align*`` body, each at most ``width`` ems wide as
:class:`~symrow.render.measure.Measure` estimates it:

* a chain ``x = y = z`` stays on one line when it fits; otherwise each ``=``
  starts a line, aligned on ``&=``;
* a sum too long for its line breaks before a ``+``, continuing on
  ``&\\quad +`` lines;
* a matrix of named entries (:class:`~symrow.nodes.Entrywise`) too wide for
  the line is shown entry by entry, ``c_{11} = ...``;
* displays side by side (:class:`~symrow.nodes.Group`) go one per line;
* a fraction still wider than its line has its sums set on rows
  (:class:`Stacked`: a ``gathered`` in the numerator or denominator).

Tall lines with a fraction of their own (display style) get an invisible
strut, so that the lines of a display keep some room between them
in every renderer (see :func:`symrow.render.measure.tall_strut`).

:func:`display_rows` gives the same lines with their heights and depths,
measured in a renderer's metrics (the slides ask for TeX's, to fill a
frame without running off it).

>>> import symrow
>>> from symrow.render.layout import display_lines
>>> d = symrow.attention(2, 2, 1)
>>> node = [s.display for s in d.steps if s.kind == "combine_row"][0]
>>> len(display_lines(node))
1
>>> for line in display_lines(node, 12.0):
...     print(line)
\\boldsymbol{o}_{i} &= p_{i1} \\boldsymbol{v}_{1} + p_{i2} \\boldsymbol{v}_{2}
 &= \\sum_{j=1}^{2} p_{ij} \\boldsymbol{v}_{j}
 &= \\boldsymbol{p}_{i} V
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sympy.printing.precedence import PRECEDENCE

from .. import nodes as N
from .latex import LINE_WIDTH, printer, strut
from .measure import (_THICK, BIN_WIDTH, KATEX, LINE_ROOM, REL_WIDTH, Box, Metrics, fraction,
                      leaf_box, row, split_sign, stacked_rows, tall_strut)

__all__ = ["display_lines", "display_rows", "display", "Row", "Stacked", "Abridged",
           "entry_pairs", "pack_terms", "strut", "walls", "math_width", "text_columns", "WIDTHS",
           "LINE_WIDTH", "REL_WIDTH", "CONTINUED", "BIN_WIDTH"]

#: the start of a continued line, ``&\\quad +``
CONTINUED = 1.0 + BIN_WIDTH


class Stacked(N.Node):
    """A fraction whose numerator or denominator sum is set on rows.

    ``num`` and ``den`` are lists of rows; a row is a node (one row: the
    part as it was; several: consecutive pieces of an :class:`~symrow.nodes.OSum`).
    It prints as ``\\frac{...}{\\begin{gathered}\\textstyle a + b \\\\
    \\textstyle {}+ c\\end{gathered}}``.
    """

    __slots__ = ("num", "den")
    precedence = N.Frac.precedence
    is_fraction = True  # a product needs no parentheses around it

    def __init__(self, num, den):
        self.num, self.den = tuple(num), tuple(den)


class Abridged(N.Entrywise):
    """A matrix of named entries of which only the first ``shown`` are written
    out when it is shown entry by entry (see :mod:`symrow.render.expand`)."""

    __slots__ = ("shown",)

    def __init__(self, names, values, shown: int = 1):
        super().__init__(names, values)
        self.shown = shown


def entry_pairs(node: N.Entrywise) -> list:
    """(name, value) of each entry of a matrix, row by row, ellipses left out."""
    return [(name, value) for names, values in zip(node.names.rows, node.values.rows)
            for name, value in zip(names, values) if not isinstance(name, N.Dots)]


def pack_terms(widths, first_room: float, next_room: float, fit=None):
    """Terms of a sum packed greedily into lines: the first line has
    ``first_room`` ems, the others ``next_room``.  ``fit(j, room)`` gives term
    j's width when it must fit ``room`` on a line of its own (by stacking its
    fraction), or None when it cannot be narrowed.

    Returns (lines as lists of term indices, {term: room} of terms to fit).

    >>> pack_terms([5, 5, 5], 12, 8)
    ([[0, 1], [2]], {})
    """
    lines: list = [[]]
    fits: dict = {}
    used, room = 0.0, first_room
    for j, w in enumerate(widths):
        if lines[-1] and used + BIN_WIDTH + w > room:
            lines.append([])
            used, room = 0.0, next_room
        if not lines[-1] and w > room and fit is not None:
            narrowed = fit(j, room)
            if narrowed is not None:
                fits[j] = room
                w = narrowed
        used += (BIN_WIDTH if lines[-1] else 0.0) + w
        lines[-1].append(j)
    return lines, fits


def sum_rows(widths, room: float) -> list:
    """Where a sum set on rows (in a :class:`Stacked` fraction) breaks: lists of
    term indices, each row at most ``room`` ems (rows after the first start
    with ``{}+``)."""
    return pack_terms(widths, room, room - BIN_WIDTH)[0]


class Row(NamedTuple):
    """A display line as :func:`display_rows` gives it: its LaTeX (with ``&``
    marks), and its height and depth in ems, its strut included; ``left``, the
    height and depth of what is left of its ``&=`` when it has a left side."""

    text: str
    h: float
    d: float
    left: tuple | None = None


class _Layout:
    """Lines of displays at ``width`` ems, printed with ``settings``.  The
    lines break where KaTeX's metrics say (so every renderer breaks alike);
    ``metrics`` are those :meth:`rows` reports heights in."""

    def __init__(self, width: float, settings: dict, metrics: Metrics = KATEX):
        self.width = width
        self.p = printer(**settings)
        self.m = self.p.measure
        self.boxes = self.p.measure_in(metrics)

    def w(self, node) -> float:
        return self.m(node, "D").w

    def tex(self, node) -> str:
        return self.p.doprint(node)

    # -- fitting a fraction that is too wide --------------------------------------------
    def stacked(self, frac: N.Frac, room: float):
        """``frac`` with its sums on rows of at most ``room`` ems, or None."""
        inner = room - 0.24
        parts = []
        for part in (frac.num, frac.den):
            if isinstance(part, N.OSum) and self.m(part, "T").w > inner:
                widths = [self.m(split_sign(t)[1], "T").w for t in part.terms]
                rows = sum_rows(widths, inner)
                parts.append([N.OSum([part.terms[j] for j in r]) for r in rows])
            else:
                parts.append([part])
        if len(parts[0]) == 1 and len(parts[1]) == 1:
            return None
        return Stacked(*parts)

    def fit(self, node, room: float):
        """``node`` narrowed to ``room`` by stacking its widest fraction (as a whole,
        or as a factor of a product); the node itself when it fits or cannot."""
        if self.w(node) <= room:
            return node
        if isinstance(node, N.Frac):
            return self.stacked(node, room) or node
        if isinstance(node, N.OMul):
            fracs = [k for k, f in enumerate(node.factors) if isinstance(f, N.Frac)]
            if fracs:
                k = max(fracs, key=lambda k: self.w(node.factors[k]))
                rest = self.w(node) - self.w(node.factors[k])
                new = self.stacked(node.factors[k], room - rest)
                if new is not None:
                    return N.OMul(node.factors[:k] + (new,) + node.factors[k + 1:])
        return node

    # -- lines ---------------------------------------------------------------------------
    def lines(self, node) -> list:
        """(text, nodes on the line) for each line of a display."""
        if isinstance(node, N.SoftmaxExpansion):  # streamed, each equation laid out
            return [(text, boxes, boxes[0])
                    for text, boxes in self.p.softmax_lines(node, _SoftmaxPlan(self, node))]
        width = self.width
        if isinstance(node, N.Group):
            if self.w(node) <= width:
                return [(self.tex(node), [node])]
            packed = self.packed(node)
            if packed is not None:
                return [("& " + self.tex(part), [part]) for part in packed]
            out: list = []
            for item in node.items:
                out.extend(self.lines(item))
            return out
        if isinstance(node, N.Rel) and node.rel == "in" and isinstance(node.lhs, N.Chain):
            inner = _Layout.__new__(_Layout)
            inner.__dict__.update(self.__dict__)
            inner.width = width - self.w(node.rhs) - 0.667 - 2 * _THICK
            out = inner.lines(node.lhs)
            text, nodes, *left = out[-1]
            out[-1] = (text + r" \in " + self.tex(node.rhs), nodes + [node.rhs], *left)
            return out
        if isinstance(node, N.Entrywise):
            return self.entries(node)
        if not isinstance(node, N.Chain):
            node = self.fit(node, width)
            return [(self.tex(node), [node])]
        items = node.items
        if self.w(node) <= width:
            first, rest = self.tex(items[0]), [self.tex(i) for i in items[1:]]
            if not rest:
                return [(first, [node])]
            return [(first + " &= " + " = ".join(rest), [node], items[0])]
        lhs = items[0]
        lhs_tex = self.tex(lhs)
        room = width - self.w(lhs) - REL_WIDTH
        out = []
        for k, item in enumerate(items[1:]):
            lead = lhs_tex if k == 0 else ""
            lead_nodes = [lhs] if k == 0 else []
            left = lhs if k == 0 else None
            if isinstance(item, N.OSum) and self.w(item) > room:
                parts = self.broken_sum(item, room, width - CONTINUED)
                out.append((lead + " &= " + parts[0][0], lead_nodes + parts[0][1], left))
                out.extend((r"&\quad " + text, nodes) for text, nodes in parts[1:])
            elif isinstance(item, N.Entrywise) and self.w(item) > room:
                if lead:
                    out.append((lead + " &= " + self.tex(item.names), lead_nodes + [item.names],
                                left))
                out.extend(self.entries(item))
            else:
                item = self.fit(item, room)
                out.append((lead + " &= " + self.tex(item), lead_nodes + [item], left))
        return out

    def packed(self, node: N.Group, width: float | None = None):
        """A group of matrices too wide for one line, as groups of its items that
        each fit one, as many to a line as fit (``Q = ..., K = ...`` over
        ``V = ...``: tall matrices side by side take half the height);
        None when every item needs a line of its own, or one is wider than a
        line or a matrix of named entries (those are laid out one by one, each
        broken as it needs).  The lines start at one left edge."""
        width = self.width if width is None else width
        if not all(_has_matrix(item) for item in node.items):
            return None  # equations one under another, aligned, read best
        lines: list = [[]]
        for item in node.items:
            if self.w(item) > width or isinstance(item, N.Entrywise):
                return None
            if lines[-1] and self.w(N.Group(lines[-1] + [item])) > width:
                lines.append([])
            lines[-1].append(item)
        if all(len(line) == 1 for line in lines):
            return None
        return [N.Group(line) if len(line) > 1 else line[0] for line in lines]

    def broken_sum(self, node: N.OSum, first_room: float, next_room: float) -> list:
        """A sum's terms on lines: (text, nodes) for each, the lines after the
        first starting with their sign."""
        terms = [split_sign(t) for t in node.terms]
        widths = [self.w(body) for _, body in terms]

        def narrowed(j, room):
            new = self.fit(terms[j][1], room)
            return None if new is terms[j][1] else self.w(new)

        groups, fits = pack_terms(widths, first_room, next_room, narrowed)
        out = []
        for g, group in enumerate(groups):
            parts, nodes = [], []
            for j in group:
                neg, body = terms[j]
                if j in fits:
                    body = self.fit(body, fits[j])
                tex = self.p.parenthesize(body, PRECEDENCE["Add"]) \
                    if isinstance(body, N.Node) else self.p._print(body)
                sign = ("- " if neg else "+ ") if (j or neg) else ""
                parts.append(sign + tex)
                nodes.append(body)
            out.append((" ".join(parts), nodes))
        return out

    def entries(self, node: N.Entrywise) -> list:
        out = []
        pairs = entry_pairs(node)
        for name, value in pairs[:getattr(node, "shown", None) or len(pairs)]:
            out.extend(self.lines(N.Chain([name, value])))
        return out

    def walls(self, node, width: float | None = None) -> list:
        """The matrices of named entries (:class:`~symrow.nodes.Entrywise`) in a
        display that :meth:`lines` writes entry by entry, one line each."""
        width = self.width if width is None else width
        if isinstance(node, N.Group):
            if self.w(node) <= width:
                return []
            if self.packed(node, width) is not None:
                return []
            return [e for item in node.items for e in self.walls(item, width)]
        if isinstance(node, N.Rel) and node.rel == "in" and isinstance(node.lhs, N.Chain):
            return self.walls(node.lhs, width - self.w(node.rhs) - 0.667 - 2 * _THICK)
        if isinstance(node, N.Entrywise):
            return [node]
        if not isinstance(node, N.Chain) or self.w(node) <= width:
            return []
        room = width - self.w(node.items[0]) - REL_WIDTH
        return [item for item in node.items[1:]
                if isinstance(item, N.Entrywise) and self.w(item) > room]

    def with_struts(self, lines: list) -> list:
        """The lines' text, a tall line (of several) ending in a strut."""
        return [line.text for line in self.rows(lines)]

    def rows(self, lines: list) -> list:
        """Each line, ``(text, nodes on it[, its left side])`` as :meth:`lines`
        gives it, as a :class:`Row`: a tall line (of several) ends in a strut,
        and its height and depth are measured in ``metrics``, the strut's
        included.  (A streamed expansion's lines come with their boxes, which
        are KaTeX's.)"""
        out = []
        for text, nodes, *rest in lines:
            left = None
            if rest and rest[0] is not None:
                box = rest[0] if isinstance(rest[0], Box) else self.boxes(rest[0], "D")
                left = (box.h, box.d)
            tall = None
            if len(lines) > 1 and any(isinstance(n, Box) or _has_fraction(n) for n in nodes):
                h = d = 0.0
                for n in nodes:
                    box = n if isinstance(n, Box) else self.m(n, "D")
                    h, d = max(h, box.h), max(d, box.d)
                tall = tall_strut(h, d, LINE_ROOM)
            h = d = 0.0
            for n in nodes:
                box = n if isinstance(n, Box) else self.boxes(n, "D")
                h, d = max(h, box.h), max(d, box.d)
            if tall:
                out.append(Row(text + " " + strut(*tall), max(h, tall[0]), max(d, tall[1]), left))
            else:
                out.append(Row(text, h, d, left))
        return out


_DIGITS = re.compile(r"[0-9]")


class _SoftmaxPlan:
    """How each equation of a streamed expansion (:class:`~symrow.nodes.SoftmaxExpansion`)
    is laid out at a layout's width: ``plan(lhs, query, count, weights)`` gives
    (rows of the numerator, rows of the denominator, boxes on the line), as
    :meth:`~symrow.render.latex.SymrowLatexPrinter.softmax_lines` asks.

    A fraction wider than its line has its numerator and denominator set on
    rows, as :meth:`_Layout.stacked` sets one.  The boxes of the
    exponentials are measured once per shape (digits aside), the denominator
    once per query, the numerator's terms once per query and weight.
    """

    def __init__(self, layout: _Layout, node: N.SoftmaxExpansion):
        self.layout, self.node = layout, node
        self.m = layout.m
        leaf_texts = layout.p._leaf_texts
        self.texts = leaf_texts
        self.eq_box, self.plus_t = leaf_box("=", "D"), leaf_box("+", "T")
        self.exps: dict = {}      # (query, key) -> the box of exp(q . k / scale), text style
        self.shapes: dict = {}    # (query, key) with digits as 0 -> the same box
        self.dens: dict = {}      # (query, keys) -> the box of the denominator's sum
        self.den_stacks: dict = {}  # (query, keys, room) -> the denominator on rows
        self.key_shapes = [_DIGITS.sub("0", " ".join(leaf_texts(key))) for key in node.keys]
        self.q_shapes: dict = {}  # id(query) -> its shape
        self.terms: dict = {}     # (query, key, weight) -> the box of exp(...) w, text style
        self.weight_boxes: dict = {}  # a weight -> its box, text style

    def summed(self, boxes: list) -> Box:
        """The box of a sum of terms, as :meth:`Measure.m_OSum` measures it."""
        plus = self.plus_t
        return row([b for k, t in enumerate(boxes) for b in ((plus, t) if k else (t,))], "T")

    def on_rows(self, boxes: list, inner: float):
        """(rows of term indices or None, the box) of a sum at ``inner`` ems."""
        whole = self.summed(boxes)
        if whole.w <= inner:
            return None, whole
        rows_ = sum_rows([b.w for b in boxes], inner)
        if len(rows_) < 2:
            return rows_, whole
        return rows_, stacked_rows([self.summed(boxes[r[0]:r[-1] + 1]) for r in rows_], "T")

    def __call__(self, lhs, query, count: int, weights):
        m, node = self.m, self.node
        qid = id(query)
        q_shape = self.q_shapes.get(qid)
        if q_shape is None:
            q_shape = self.q_shapes[qid] = _DIGITS.sub("0", " ".join(self.texts(query)))
        exps, shapes, terms = self.exps, self.shapes, self.terms
        for j in range(count):
            if (qid, j) not in exps:
                # exponentials that differ only in their digits have one box
                # (every digit is as wide and as tall as another), so it is
                # measured once per shape: q_{11} k_{21} as q_{00} k_{00}
                shape = (q_shape, self.key_shapes[j])
                box = shapes.get(shape)
                if box is None:
                    box = shapes[shape] = m(N.Exp(node.exponent(query, node.keys[j])), "T")
                exps[qid, j] = box
        num_boxes = []
        for j in range(count):
            box = terms.get((qid, j, weights[j]))
            if box is None:
                w_box = self.weight_boxes.get(weights[j])
                if w_box is None:
                    w_box = self.weight_boxes[weights[j]] = m(weights[j], "T")
                box = terms[qid, j, weights[j]] = row([exps[qid, j], w_box], "T")
            num_boxes.append(box)
        den_boxes = [exps[qid, j] for j in range(count)]
        lhs_box = m(lhs, "D")
        num = self.summed(num_boxes)
        den = self.dens.get((qid, count))
        if den is None:  # the denominator is the same for a query's entries
            den = self.dens[qid, count] = self.summed(den_boxes)
        frac = fraction(num, den, "D")
        num_rows = den_rows = None
        width = self.layout.width
        if row([lhs_box, self.eq_box, frac], "D").w > width:
            room = width - lhs_box.w - REL_WIDTH
            if frac.w > room:  # as _Layout.stacked sets a fraction on rows
                inner = room - 0.24
                num_rows, num_s = self.on_rows(num_boxes, inner)
                found = self.den_stacks.get((qid, count, inner))
                if found is None:
                    found = self.den_stacks[qid, count, inner] = self.on_rows(den_boxes, inner)
                den_rows, den_s = found
                if num_rows is None or len(num_rows) < 2:
                    num_rows = None
                if den_rows is None or len(den_rows) < 2:
                    den_rows = None
                if num_rows or den_rows:
                    frac = fraction(num_s, den_s, "D")
        return num_rows, den_rows, [lhs_box, frac]


_ROWS = (N.OSum, N.OMul, N.Neg, N.Chain, N.Rel, N.Group, N.Paren, N.Call, N.Exp, N.Items,
         N.Dot)


def _has_matrix(node) -> bool:
    """Whether a node holds a matrix of several rows."""
    if isinstance(node, N.Bmat):
        return len(node.rows) > 1
    if isinstance(node, N.Entrywise):
        return _has_matrix(node.values)
    if isinstance(node, _ROWS + (N.Transpose, N.Frac)):
        for f in node.__slots__:
            value = getattr(node, f)
            if any(_has_matrix(v) for v in (value if isinstance(value, tuple) else (value,))):
                return True
    return False


def _has_fraction(node) -> bool:
    """Whether a line's node holds a fraction of its own (not one inside a matrix,
    whose rows have their own struts): such a line is given room."""
    if isinstance(node, (N.Frac, Stacked)):
        return True
    if isinstance(node, N.SumOver):
        return _has_fraction(node.body)
    if isinstance(node, _ROWS):
        for f in node.__slots__:
            value = getattr(node, f)
            if any(_has_fraction(v) for v in (value if isinstance(value, tuple) else (value,))):
                return True
    return False


def display_lines(node, width: float | None = None, **settings) -> list[str]:
    """Lines of an ``aligned``/``align*`` body for one display, with ``&`` marks
    (see the module's doc); ``width`` in ems, :data:`LINE_WIDTH` by default."""
    layout = _Layout(LINE_WIDTH if width is None else float(width), settings)
    return layout.with_struts(layout.lines(node))


def display_rows(node, width: float | None = None, metrics: Metrics = KATEX,
                 **settings) -> list[Row]:
    """The lines of :func:`display_lines`, each a :class:`Row` with its height
    and depth in ems as ``metrics`` measure them (``TEX`` for a Beamer frame).

    >>> import symrow
    >>> from symrow.render.measure import TEX
    >>> d = symrow.combine(symrow.vecseq("A", 3, 2), symrow.vecseq("B", 2, 2))
    >>> [r.text.split(" &")[0] for r in display_rows(d.steps[1].display, metrics=TEX)]
    ['A']
    >>> row_, = display_rows(d.steps[1].display, metrics=TEX)
    >>> round(row_.h + row_.d, 2) > 3 * 13.6 / 11     # three rows of a matrix, in 11 pt TeX
    True
    """
    layout = _Layout(LINE_WIDTH if width is None else float(width), settings, metrics)
    return layout.rows(layout.lines(node))


#: widths by name: ``phone`` fits a 390 px column at 16 px text in KaTeX and
#: MathJax (measured in Chromium: see tests/browser_pages.py)
WIDTHS = {"phone": 18.0}
#: the text renderer's characters per em of the LaTeX renderers (their defaults
#: agree: 100 characters, 34 ems)
CHARS_PER_EM = 100 / LINE_WIDTH


def _width_value(width):
    """(number, unit) of a width: ``18`` and ``"18em"`` are ems, ``"45ch"`` characters."""
    if isinstance(width, str):
        text = width.strip().lower()
        if text in WIDTHS:
            return WIDTHS[text], "em"
        for unit in ("em", "ch"):
            if text.endswith(unit):
                number, text = text[:-len(unit)].strip(), unit
                break
        else:
            number, text = text, "em"
        try:
            value = float(number)
        except ValueError:
            value = None
        unit = text
    elif isinstance(width, (int, float)) and not isinstance(width, bool):
        value, unit = float(width), "em"
    else:
        value, unit = None, "em"
    if value is None or not value == value or value <= 0 or value == float("inf"):
        from ..errors import OptionError
        names = ", ".join(repr(k) for k in WIDTHS)
        raise OptionError(f"width= must be a positive number of ems (18, '18em'), of "
                          f"characters ('45ch') or one of {names}; got {width!r}")
    return value, unit


def math_width(width=None) -> float:
    """A display width in ems: ``width=`` as given (None: :data:`LINE_WIDTH`).

    >>> math_width(), math_width(18), math_width("phone"), math_width("50ch")
    (34.0, 18.0, 18.0, 17.0)
    """
    if width is None:
        return LINE_WIDTH
    value, unit = _width_value(width)
    if value < 8 and unit == "em" or value < 20 and unit == "ch":
        from ..errors import OptionError
        raise OptionError(f"width= {width!r} is too narrow for any display; give at "
                          f"least 8 ems (20 characters)")
    return value if unit == "em" else value / CHARS_PER_EM


def text_columns(width=None, default: int = 100) -> int:
    """A text display width in characters: ``width=`` as given (None: ``default``).

    >>> text_columns(), text_columns("60ch"), text_columns(18)
    (100, 60, 52)
    """
    if width is None:
        return default
    value, unit = _width_value(width)
    chars = value if unit == "ch" else value * CHARS_PER_EM
    if chars < 20:
        from ..errors import OptionError
        raise OptionError(f"width= {width!r} is too narrow for any display; give at "
                          f"least 8 ems (20 characters)")
    return int(chars)


def walls(node, width: float | None = None, **settings) -> list:
    """The :class:`~symrow.nodes.Entrywise` matrices of a display that are too wide
    to show as matrices at ``width``, so that their entries go one a line."""
    return _Layout(LINE_WIDTH if width is None else float(width), settings).walls(node)


def display(node, env: str = "align*", width: float | None = None, **settings) -> str:
    """One display as a complete math environment (``align*`` or ``aligned``)."""
    body = " \\\\\n".join(display_lines(node, width, **settings))
    return "\\begin{%s}\n%s\n\\end{%s}" % (env, body, env)
