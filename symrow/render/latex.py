"""LaTeX for display nodes: a subclass of SymPy's ``LatexPrinter``.

The output works in amsmath LaTeX (pdflatex, lualatex), KaTeX and MathJax:
it uses ``\\boldsymbol``, ``\\operatorname``, ``bmatrix`` and ``aligned``,
and never ``\\label``, ``\\eqref``, ``\\intertext`` or
``\\DeclareMathOperator``.

>>> import symrow
>>> from symrow.render.latex import latex
>>> A = symrow.vecseq("A", "m", "ell")
>>> latex(A.vector("i"))
'\\\\boldsymbol{a}_{i}'
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from .. import nodes as N
from .measure import (KATEX, Measure, Metrics, plain_parens, slash_paren, slashed, summed,
                      split_sign as _split_sign, tall_strut)

__all__ = ["SymrowLatexPrinter", "latex", "printer", "strut", "vecseq_display", "vecseq_node",
           "LINE_WIDTH"]

_DOTS = {"c": r"\cdots", "v": r"\vdots", "d": r"\ddots", "l": r"\dots"}
_RELS = {"=": "=", "in": r"\in", "to": r"\longrightarrow", "mapsto": r"\longmapsto",
         "gets": r"\longleftarrow",
         "ge": r"\geq", "le": r"\leq", "gt": ">", "lt": "<", "approx": r"\approx",
         "times": r"\times"}

#: widest a display line may be by default, in ems of the math font, as
#: :mod:`symrow.render.measure` estimates them: a 720 px column at 16 px text
#: (Zenn, Qiita; KaTeX and MathJax set math about 20 px to the em) holds
#: about 35, and an A4 page with 20 mm margins at 11 pt about 43.  Every
#: format shares it, so that a document and its Markdown break alike.
LINE_WIDTH = 34.0


class SymrowLatexPrinter(LatexPrinter):
    """Prints symrow's display nodes, and SymPy objects, as LaTeX."""

    _default_settings: dict[str, Any] = {
        **LatexPrinter._default_settings,
        "mat_str": "bmatrix",
        "mat_delim": "",
        "exp_style": "exp",  # "exp": \exp\left(x\right); "e": e^{x}
        # a fraction in a matrix cell: "display" (\dfrac, the default: roomy,
        # easy to read on a page) or "text" (\frac, narrower: slides)
        "cell_fraction": "display",
        # a fraction of display nodes: "stacked" (\frac) or "slash" (num / den,
        # for math in running text and headings, where \frac is set small)
        "fraction": "stacked",
        # an exponential's fraction whose numerator is a sum of terms (an inner
        # product over its scale): "stacked" (\frac, in the text style of a
        # softmax's numerator: its indices at scriptscript size) or "slash"
        # ((q_11 k_11 + q_12 k_12) / \sqrt{d}, at text size: slides)
        "exp_sums": "stacked",
        # an exponential's fraction of one term (a score over its scale, s_11 / sqrt(d)):
        # "display" (\dfrac, the default: in a softmax's numerator the score keeps the
        # formula's size, which projected slides and printed pages need) or "text"
        # (\frac, set in the style around it: web pages, where KaTeX's lines stay low)
        "exp_fraction": "display",
    }

    def __init__(self, settings=None):
        super().__init__(settings)
        #: the LaTeX of each leaf printed so far (see :meth:`_token`)
        self._tokens: dict = {}
        #: True while printing a matrix cell, where a fraction is \dfrac
        self._cell = False
        self._measures: dict = {}

    @property
    def measure(self) -> Measure:
        """The :class:`~symrow.render.measure.Measure` of this printer's output,
        in KaTeX's metrics (which the struts of tall rows are computed in)."""
        return self.measure_in(KATEX)

    def measure_in(self, metrics: Metrics) -> Measure:
        """The :class:`~symrow.render.measure.Measure` of this printer's output in
        ``metrics`` (:data:`~symrow.render.measure.KATEX` or ``TEX``)."""
        found = self._measures.get(metrics)
        if found is None:
            found = self._measures[metrics] = Measure(self, metrics)
        return found

    # -- atoms -----------------------------------------------------------
    def _print(self, expr, **kwargs) -> str:
        # symbols and numbers repeat thousands of times in a large display, and
        # SymPy's own printing of them is slow: print each one once per printer
        if not kwargs and isinstance(expr, sympy.Basic) and (expr.is_Symbol or expr.is_number):
            return self._token(expr)
        return super()._print(expr, **kwargs)

    def _print_VecSeq(self, seq) -> str:
        return seq.latex_name

    def _print_RowVec(self, node: N.RowVec) -> str:
        return node.seq.row_latex(self._print_index(node.index))

    def _print_index(self, index) -> str:
        if isinstance(index, int):
            return str(index)
        return self._print(index)

    def _print_Dots(self, node: N.Dots) -> str:
        return _DOTS[node.kind]

    def _print_Label(self, node: N.Label) -> str:
        return node.tex

    def _print_Space(self, node: N.Space) -> str:
        return r"\mathbb{R}^{%s \times %s}" % (self._print(node.rows), self._print(node.cols))

    # -- structure -------------------------------------------------------
    def _cells(self, row) -> list[str]:
        """A matrix row's cells: each in text style, a fraction in it in display
        style (``\\dfrac``, which also spaces the operators inside it), and a
        tall row gets a strut that gives it room above and below."""
        saved, self._cell = self._cell, True
        try:
            cells = [self._print(c) for c in row]
        finally:
            self._cell = saved
        if any(_tall_kind(c) for c in row):
            boxes = [self.measure(c, "C") for c in row]
            tall = tall_strut(max(b.h for b in boxes), max(b.d for b in boxes))
            if tall:  # in the first cell: a condition of cases is read as a condition
                cells[0] += " " + strut(*tall)
        return cells

    def _print_Bmat(self, node: N.Bmat) -> str:
        rows = [" & ".join(self._cells(row)) for row in node.rows]
        return "\\begin{bmatrix}\n" + " \\\\\n".join(rows) + "\n\\end{bmatrix}"

    def _print_OSum(self, node: N.OSum) -> str:
        out: list[str] = []
        for k, term in enumerate(node.terms):
            neg, body = _split_sign(term)
            tex = self._print(body) if not isinstance(body, N.Node) or body.precedence > PRECEDENCE["Add"] \
                else self.parenthesize(body, PRECEDENCE["Add"])
            if neg:
                out.append(("- " if k else "-") + tex)
            else:
                out.append(("+ " if k else "") + tex)
        return " ".join(out) if out else "0"

    def _print_Neg(self, node: N.Neg) -> str:
        return "-" + self.parenthesize(node.item, PRECEDENCE["Mul"])

    def _print_OMul(self, node: N.OMul) -> str:
        parts: list[str] = []
        for k, factor in enumerate(node.factors):
            number = isinstance(factor, sympy.Number)
            if k and isinstance(factor, sympy.Number) and factor.is_negative:
                tex = r"\left(%s\right)" % self._print(factor)
            elif isinstance(factor, N.Frac) and self._settings["fraction"] == "slash" and \
                    k + 1 < len(node.factors):
                # \alpha / r G would read as \alpha / (r G): the slashed fraction in brackets
                tex = r"\left(%s\right)" % self._print(factor)
            elif isinstance(factor, N.Frac) or getattr(factor, "is_fraction", False):
                tex = self._print(factor)  # the fraction bar delimits it
            else:
                tex = self.parenthesize(factor, PRECEDENCE["Mul"], strict=False)
            if k and number:
                # 2 \cdot 3, and h_{11} \cdot 2: a number after a factor is never juxtaposed
                # (h_{11} 2 reads as one index too many)
                parts.append(r"\cdot")
            parts.append(tex)
        return " ".join(parts)

    def _print_Dot(self, node: N.Dot) -> str:
        return r"%s \cdot %s" % (self.parenthesize(node.left, PRECEDENCE["Mul"]),
                                 self.parenthesize(node.right, PRECEDENCE["Mul"]))

    def _print_SumOver(self, node: N.SumOver) -> str:
        return r"\sum_{%s=%s}^{%s} %s" % (
            self._print(node.index), self._print(node.lower), self._print(node.upper),
            self.parenthesize(node.body, PRECEDENCE["Add"]))

    def _print_Transpose(self, node: N.Transpose) -> str:
        base = self.parenthesize(node.base, PRECEDENCE["Pow"], strict=True)
        if "^" in base and not base.startswith(r"\left("):
            base = "{%s}" % base  # K^{(1)} and w^{Q}_{1}: no double superscript
        return "%s^{T}" % base

    def _print_Power(self, node: N.Power) -> str:
        base = self.parenthesize(node.base, PRECEDENCE["Pow"], strict=True)
        if "^" in base and not base.startswith(r"\left("):
            base = "{%s}" % base
        return "%s^{%s}" % (base, self._print(node.exponent))

    def _print_Hadamard(self, node: N.Hadamard) -> str:
        return r" \odot ".join(self.parenthesize(f, PRECEDENCE["Mul"], strict=True)
                                for f in node.factors)

    def _print_Sub(self, node: N.Sub) -> str:
        return "%s_{%s}" % (self.parenthesize(node.base, PRECEDENCE["Pow"], strict=True),
                            self._print_index(node.index))

    def _print_Paren(self, node: N.Paren) -> str:
        return r"\left(%s\right)" % self._print(node.item)

    def _print_Rel(self, node: N.Rel) -> str:
        return "%s %s %s" % (self._print(node.lhs), _RELS[node.rel], self._print(node.rhs))

    def _print_Chain(self, node: N.Chain) -> str:
        return " = ".join(self._print(item) for item in node.items)

    def _print_Group(self, node: N.Group) -> str:
        return r",\qquad ".join(self._print(item) for item in node.items)

    def _print_Items(self, node: N.Items) -> str:
        # a list of relations (a_1 -> b_1, a_2 -> b_2) needs a real space after each
        # comma: in math mode ", " alone sets the arrows almost touching
        sep = r",\quad " if any(isinstance(i, N.Rel) for i in node.items) else ", "
        return sep.join(self._print(item) for item in node.items)

    def _print_Entrywise(self, node: N.Entrywise) -> str:
        return self._print(node.values)

    def _print_Cases(self, node: N.Cases) -> str:
        rows = [" & ".join(self._cells(row)) for row in node.rows]
        return "\\begin{cases} " + r" \\ ".join(rows) + " \\end{cases}"

    def _fraction(self, num, den) -> str:
        """``\\frac{num}{den}``, or ``\\dfrac`` in a matrix cell (the setting
        ``cell_fraction``); num and den are callables that print them."""
        cmd = r"\dfrac" if self._cell and self._settings["cell_fraction"] == "display" \
            else r"\frac"
        saved, self._cell = self._cell, False
        try:
            return r"%s{%s}{%s}" % (cmd, num(), den())
        finally:
            self._cell = saved

    def _print_Frac(self, node: N.Frac) -> str:
        if self._settings["fraction"] == "slash":
            return "%s / %s" % (self._slash_part(node.num), self._slash_part(node.den))
        return self._fraction(lambda: self._print(node.num), lambda: self._print(node.den))

    def _print_Stacked(self, node) -> str:
        """A fraction with its sums on rows (see :class:`symrow.render.layout.Stacked`)."""
        return self._fraction(lambda: self._rows(node.num), lambda: self._rows(node.den))

    def _rows(self, rows) -> str:
        if len(rows) == 1:
            return self._print(rows[0])
        out = []
        for k, part in enumerate(rows):
            if k:
                neg, first = _split_sign(part.terms[0])
                rest = self._print(N.OSum((first,) + part.terms[1:]))
                out.append(("{}- " if neg else "{}+ ") + rest)
            else:
                out.append(self._print(part))
        return "\\begin{gathered}" + r" \\ ".join(r"\textstyle " + r for r in out) \
            + "\\end{gathered}"

    def _print_Exp(self, node: N.Exp) -> str:
        if self._settings["exp_style"] == "e":
            saved, self._cell = self._cell, False  # an exponent is a script
            try:
                return "e^{%s}" % self._print(node.arg)
            finally:
                self._cell = saved
        if slashed(node.arg, self._settings["exp_sums"] == "slash"):
            # an exponential stands in a fraction (a softmax), where a fraction
            # in its argument is set at script size, and a sum in its numerator
            # (its limits and terms) would be too small to read: num / den
            return r"\exp\left(%s / %s\right)" % (self._slash_part(node.arg.num),
                                                  self._slash_part(node.arg.den))
        if isinstance(node.arg, N.Frac) and self._settings["fraction"] == "stacked" \
                and self._settings["exp_fraction"] == "display" and not summed(node.arg):  # (a sum stays a \frac, as softmax_lines writes it)
            # the same fraction written stacked: in display style (\dfrac), so that
            # in a softmax's numerator or denominator (text style) the scores and
            # their scale keep the size of the formula around them, and their
            # indices are ordinary subscripts, not scripts of scripts
            return r"\exp\left(%s\right)" % self._display_fraction(node.arg)
        return r"\exp\left(%s\right)" % self._print(node.arg)

    def _display_fraction(self, node: N.Frac) -> str:
        """``\\dfrac{num}{den}``: a fraction in display style wherever it stands."""
        saved, self._cell = self._cell, False
        try:
            return r"\dfrac{%s}{%s}" % (self._print(node.num), self._print(node.den))
        finally:
            self._cell = saved

    def _slash_part(self, part) -> str:
        tex = self._print(part)
        return r"\left(%s\right)" % tex if slash_paren(part) else tex

    def _print_Sqrt(self, node: N.Sqrt) -> str:
        return r"\sqrt{%s}" % self._print(node.arg)

    def _print_Call(self, node: N.Call) -> str:
        args = ", ".join(self._print(a) for a in node.args)
        if plain_parens(args):   # \phi(Q), not \phi (Q)
            return r"%s(%s)" % (node.tex, args)
        return r"%s\left(%s\right)" % (node.tex, args)

    # -- streamed expansions ---------------------------------------------
    def _token(self, leaf) -> str:
        """LaTeX of a leaf (symbol, number, row vector), printed once per printer."""
        cache = self._tokens
        tex = cache.get(leaf)
        if tex is None:
            if len(cache) > 100_000:
                cache.clear()
            tex = cache[leaf] = super()._print(leaf)
        return tex

    def _print_SoftmaxExpansion(self, node: N.SoftmaxExpansion) -> str:
        return r",\qquad ".join(text for text, _ in self.softmax_lines(node))

    def softmax_lines(self, node: N.SoftmaxExpansion, plan=None) -> list:
        """The equations as display lines, streamed token by token: a list of
        (text, boxes on the line), as :class:`symrow.render.layout._Layout` gives.

        Each equation is one fraction, ``lhs = (e_1 w_1 + ... + e_c w_c) /
        (e_1 + ... + e_c)``.  The text and the line breaks are those of
        :func:`~symrow.render.layout.display_lines` on ``node.chains()`` (a
        test holds them equal), but no tree of the whole is built and no text
        is stored and reused: every inner product is written out from its
        tokens each time it appears, so the work grows with the output.

        Without ``plan``, the equations are written as they are (``lhs =
        ...``).  With it, each is laid out before it is written:
        ``plan(lhs, query, count, weights)`` gives the rows of its numerator
        and denominator sums (lists of term indices, or None for one row)
        and the boxes of the line (see :mod:`symrow.render.layout`, which
        measures it), and the lines are aligned on ``&=``.
        """
        tok = self._token
        get = self._tokens.get
        if self._settings["exp_style"] == "e":
            open_, close = "e^{", "}"
        else:
            open_, close = r"\exp\left(", r"\right)"
        scale = node.scale
        if scale is not None:
            s_tex = get(scale) or tok(scale)
            # as :meth:`_print_Exp` writes an exponential's fraction: an inner
            # product of several terms over the scale, (q_{i1} k_{j1} + ...) / scale;
            # of one, in display style
            # (an exponent, e^{...}, is a script: there it stays a \frac)
            if self._settings["exp_style"] == "e" or node.keys and len(node.keys[0]) > 1 \
                    and self._settings["exp_sums"] != "slash" \
                    or not (node.keys and len(node.keys[0]) > 1) \
                    and self._settings["exp_fraction"] != "display":
                open_, close = open_ + r"\frac{", "}{" + s_tex + "}" + close
            elif node.keys and len(node.keys[0]) > 1 and self._settings["exp_sums"] == "slash":
                open_, close = open_ + r"\left(", r"\right) / " + s_tex + close
            else:
                open_, close = open_ + r"\dfrac{", "}{" + s_tex + "}" + close
        keys = [self._leaf_texts(key) for key in node.keys]
        heads, tails = [key[0] for key in keys], [key[1:] for key in keys]
        rel = "= " if plan is None else "&= "

        # what equations share is prepared once per call: the tokens of each
        # query and each run of weights
        queries: dict = {}
        weight_runs: dict = {}
        lines: list = []
        for lhs, query, count, weights in node.eqs:
            q = queries.get(id(query))
            if q is None:
                q = self._leaf_texts(query)
                # "\exp\left(\frac{q_{i1} " opens an exponential, " + q_{it} "
                # continues its inner product
                q = queries[id(query)] = (open_ + q[0] + " ",
                                          list(map(" + {} ".format, q[1:])), range(len(q) - 1))
            opening, rest, products = q
            w_texts = weight_runs.get(id(weights))
            if w_texts is None:
                w_texts = weight_runs[id(weights)] = self._leaf_texts(weights)
            head = get(lhs) or tok(lhs)
            num_rows, den_rows, boxes = (None, None, None) if plan is None \
                else plan(lhs, query, count, weights)

            out = [head, " ", rel, r"\frac{"]
            ap = out.append
            for part, rows_ in ((0, num_rows), (1, den_rows)):
                if part:
                    ap("}{")
                starts = {r[0] for r in rows_[1:]} if rows_ else ()
                if rows_:
                    ap("\\begin{gathered}\\textstyle ")
                for j in range(count):
                    if j:
                        ap(" \\\\ \\textstyle {}+ " if j in starts else " + ")
                    ap(opening)  # exp(q_i . k_j / scale)
                    ap(heads[j])
                    tail = tails[j]
                    for t in products:
                        ap(rest[t])
                        ap(tail[t])
                    ap(close)
                    if not part:
                        ap(" ")
                        ap(w_texts[j])
                if not count:
                    ap("0")
                if rows_:
                    ap("\\end{gathered}")
            ap("}")
            lines.append(("".join(out), boxes))
        return lines

    def _leaf_texts(self, leaves) -> list[str]:
        """The LaTeX of each leaf, as :meth:`_token` gives it (mostly looked up)."""
        get = self._tokens.get
        texts = list(map(get, leaves))
        if None in texts:
            texts = [get(leaf) or self._token(leaf) for leaf in leaves]
        return texts

    # -- SymPy objects that need a different look ------------------------
    def _print_Infinity(self, expr) -> str:
        return r"\infty"

    def _print_NegativeInfinity(self, expr) -> str:
        return r"-\infty"


_PRINTERS: dict[tuple, SymrowLatexPrinter] = {}


def printer(**settings) -> SymrowLatexPrinter:
    """A (cached) printer with the given settings."""
    if not settings:
        default = _PRINTERS.get(())
        if default is not None:
            return default
    key = tuple(sorted(settings.items()))
    if key not in _PRINTERS:
        _PRINTERS[key] = SymrowLatexPrinter(settings)
    return _PRINTERS[key]


def latex(node, **settings) -> str:
    """LaTeX of a display node or SymPy object."""
    return printer(**settings).doprint(node)


def strut(h: float, d: float) -> str:
    """The LaTeX of an invisible strut ``h`` ems high and ``d`` ems deep.

    A ``\\vphantom``, which every renderer (and symrow's checker) reads as
    nothing but its size, of a zero-width ``\\rule``.
    """
    return r"\vphantom{\rule[-%gem]{0pt}{%gem}}" % (d, round(h + d, 2))


_TALL_NODES = (N.Frac, N.SumOver, N.Bmat, N.Cases)


def _tall_kind(node) -> bool:
    """Whether a cell holds something that can make its row tall (a fraction,
    a large operator, a matrix), outside any script."""
    if isinstance(node, _TALL_NODES) or type(node).__name__ == "Stacked":
        return True
    if isinstance(node, (N.OSum, N.OMul, N.Neg, N.Paren, N.Call, N.Exp, N.Chain, N.Rel,
                         N.Dot, N.Items, N.Group)):
        return any(_tall_kind(getattr(node, f)) if not isinstance(getattr(node, f), tuple)
                   else any(_tall_kind(x) for x in getattr(node, f)) for f in node.__slots__)
    return False


def vecseq_node(seq) -> N.Chain:
    """``A = [...]``: a vector sequence with its entries, as a display node."""
    from ..build import entries_bmat
    return N.Chain([seq, entries_bmat(seq)])


def vecseq_display(seq) -> str:
    """``A = [...]`` for a vector sequence, as shown in Jupyter."""
    return latex(vecseq_node(seq))
