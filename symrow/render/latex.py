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

import re
from typing import Any

import sympy
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from .. import nodes as N

__all__ = ["SymrowLatexPrinter", "latex", "display_lines", "display", "vecseq_display",
           "vecseq_node"]

_DOTS = {"c": r"\cdots", "v": r"\vdots", "d": r"\ddots", "l": r"\dots"}
_RELS = {"=": "=", "in": r"\in", "to": r"\longrightarrow", "mapsto": r"\longmapsto",
         "ge": r"\geq", "le": r"\leq", "approx": r"\approx", "times": r"\times"}

#: widest a display line may be, in ems of 10 pt type; an A4 page with
#: 20 mm margins holds about 48 em
LINE_WIDTH = 40.0


class SymrowLatexPrinter(LatexPrinter):
    """Prints symrow's display nodes, and SymPy objects, as LaTeX."""

    _default_settings: dict[str, Any] = {
        **LatexPrinter._default_settings,
        "mat_str": "bmatrix",
        "mat_delim": "",
        "exp_style": "exp",  # "exp": \exp\left(x\right); "e": e^{x}
    }

    def __init__(self, settings=None):
        super().__init__(settings)
        #: the LaTeX of each leaf printed so far (see :meth:`_token`)
        self._tokens: dict = {}

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
        seq = node.seq
        sup = "^{%s}" % seq.tag if seq.tag else ""
        bold = r"\boldsymbol{%s}" % seq.letter
        if seq.accent:
            bold = "\\%s{%s}" % (seq.accent, bold)
        return r"%s%s_{%s}" % (bold, sup, self._print_index(node.index))

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
    def _print_Bmat(self, node: N.Bmat) -> str:
        rows = [" & ".join(self._print(c) for c in row) for row in node.rows]
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
        prev_number = False
        for k, factor in enumerate(node.factors):
            number = isinstance(factor, sympy.Number)
            if k and isinstance(factor, sympy.Number) and factor.is_negative:
                tex = r"\left(%s\right)" % self._print(factor)
            elif isinstance(factor, N.Frac):
                tex = self._print(factor)  # the fraction bar delimits it
            else:
                tex = self.parenthesize(factor, PRECEDENCE["Mul"], strict=False)
            if k and (number and prev_number):
                parts.append(r"\cdot")
            parts.append(tex)
            prev_number = number
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
        return ", ".join(self._print(item) for item in node.items)

    def _print_Entrywise(self, node: N.Entrywise) -> str:
        return self._print(node.values)

    def _print_Cases(self, node: N.Cases) -> str:
        rows = [r"%s & %s" % (self._print(v), self._print(c)) for v, c in node.rows]
        return "\\begin{cases} " + r" \\ ".join(rows) + " \\end{cases}"

    def _print_Frac(self, node: N.Frac) -> str:
        return r"\frac{%s}{%s}" % (self._print(node.num), self._print(node.den))

    def _print_Exp(self, node: N.Exp) -> str:
        if self._settings["exp_style"] == "e":
            return "e^{%s}" % self._print(node.arg)
        return r"\exp\left(%s\right)" % self._print(node.arg)

    def _print_Sqrt(self, node: N.Sqrt) -> str:
        return r"\sqrt{%s}" % self._print(node.arg)

    def _print_Call(self, node: N.Call) -> str:
        args = ", ".join(self._print(a) for a in node.args)
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
        return r",\qquad ".join(self._lines_SoftmaxExpansion(node, None, "= "))

    def _lines_SoftmaxExpansion(self, node: N.SoftmaxExpansion, width: float | None,
                                rel: str = "&= ") -> list[str]:
        """The equations as display lines, streamed token by token.

        The text and the line breaks are those of :func:`display_lines` on
        ``node.chains()`` (a test holds them equal), but no tree is built and
        no text is stored and reused: every inner product is written out from
        its tokens each time it appears, so the work grows with the output.

        Each equation is laid out before it is written.  Its fractions all
        share one denominator, whose width is summed from the tokens (in the
        order :class:`Width` sums them) once per query; the term widths give
        the line breaks, and then the text is written straight through.
        """
        tok, tw = self._token, _token_width
        # lookups inlined where they repeat: a dict's get costs far less than a
        # Python call; a leaf not printed yet (None) falls back to the call
        get, wget = self._tokens.get, _TOKEN_WIDTHS.get
        if self._settings["exp_style"] == "e":
            open_, close, exp_w, exp_k = "e^{", "}", 0.6, 0.7
        else:
            open_, close, exp_w, exp_k = r"\exp\left(", r"\right)", 2.2, 1.0
        scale = node.scale
        s_w = None
        if scale is not None:
            s_tex = get(scale) or tok(scale)
            s_w = wget(s_tex) or tw(s_tex)  # what Width gives a leaf: its LaTeX's width
            open_, close = open_ + r"\frac{", "}{" + s_tex + "}" + close
        close_end = close + "} "
        keys = [self._leaf_texts(key) for key in node.keys]
        heads, tails = [key[0] for key in keys], [key[1:] for key in keys]
        if width is not None:
            key_w = [[wget(t) or tw(t) for t in key] for key in keys]

        # what equations share is prepared once per call: the tokens of each
        # query and each run of weights, and the width of each denominator
        queries: dict = {}
        weight_runs: dict = {}
        dens: dict = {}
        lines: list[str] = []
        for lhs, query, count, weights in node.eqs:
            prep = queries.get(id(query))
            if prep is None:
                q = self._leaf_texts(query)
                # "\exp\left(\frac{q_{i1} " opens an exponential, " + q_{it} "
                # continues its inner product; the constant pieces between
                # exponentials are joined to them
                opening = open_ + q[0] + " "
                prep = queries[id(query)] = (
                    r"\frac{" + opening, close + "}{" + opening, close + " + " + opening,
                    list(map(" + {} ".format, q[1:])), range(len(q) - 1), q)
            num_open, den_open, den_next, rest, products, q = prep
            w_texts = weight_runs.get(id(weights))
            if w_texts is None:
                w_texts = weight_runs[id(weights)] = self._leaf_texts(weights)
            head = get(lhs) or tok(lhs)

            breaks = ()  # the terms that start a new line
            if width is not None:
                den = dens.get((id(query), count))
                if den is None:  # the sum of exp(q_i . k_j / scale), j = 1..count
                    q_w = [wget(x) or tw(x) for x in q]
                    first_w, rest_w, gaps = q_w[0], q_w[1:], 1.5 * (len(q_w) - 1)
                    den = 0
                    for j in range(count):
                        kw = key_w[j]
                        acc = first_w + kw[0] + 0.2
                        for t in products:
                            acc += rest_w[t] + kw[t + 1] + 0.2
                        arg = acc + gaps
                        if s_w is not None:
                            arg = (arg if arg >= s_w else s_w) + 0.3
                        den += exp_w + exp_k * arg
                    den = dens[(id(query), count)] = den + 1.5 * (count - 1)
                # break as display_lines breaks a Chain([lhs, OSum(terms)]); a
                # numerator is one of the denominator's terms, so never wider
                frac_w, terms, w_rhs = den + 0.3, [], 0
                for j in range(count):
                    w_term = (frac_w + (wget(w_texts[j]) or tw(w_texts[j]))) + 0.2
                    terms.append(w_term)
                    w_rhs += w_term
                w_lhs, w_rhs = wget(head) or tw(head), w_rhs + 1.5 * (count - 1)
                if (w_lhs + w_rhs) + 1.8 > width and w_rhs > width - w_lhs - 1.8:
                    limit, used, breaks = width - w_lhs - 1.8 - 1.0, 0.0, set()
                    for j, w_term in enumerate(terms):
                        wt = w_term + 1.5
                        if j and used + wt > limit:
                            breaks.add(j)
                            used = 0.0
                        used += wt

            out = [head, " ", rel]
            ap = out.append
            for j in range(count):
                if j:
                    ap(" \\\\\n&\\quad + " if j in breaks else " + ")
                ap(num_open)  # the numerator exp(q_i . k_j / scale)
                ap(heads[j])
                tail = tails[j]
                for t in products:
                    ap(rest[t])
                    ap(tail[t])
                opening = den_open
                for jj in range(count):  # the denominator, written out again
                    ap(opening)
                    opening = den_next
                    ap(heads[jj])
                    tail = tails[jj]
                    for t in products:
                        ap(rest[t])
                        ap(tail[t])
                ap(close_end)
                ap(w_texts[j])
            lines.append("".join(out))
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


def _split_sign(term):
    """(is_negative, magnitude) of a sum's term, for ``a - b`` rather than ``a + -b``."""
    if isinstance(term, N.Neg):
        return True, term.item
    if isinstance(term, sympy.Expr) and term.could_extract_minus_sign():
        return True, -term
    return False, term


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


# -- layout of displays ------------------------------------------------------

_CMD = re.compile(r"\\(?:boldsymbol|mathbb|operatorname|left|right|begin\{[a-z*]+\}|"
                  r"end\{[a-z*]+\}|frac|sqrt|exp)")


_TOKEN_WIDTHS: dict[str, float] = {}


def _token_width(tex: str) -> float:
    """:func:`text_width` of a leaf's LaTeX, remembered (leaves repeat)."""
    width = _TOKEN_WIDTHS.get(tex)
    if width is None:
        width = _TOKEN_WIDTHS[tex] = text_width(tex)
    return width


def text_width(tex: str) -> float:
    """A rough width, in ems, of a line of math written in LaTeX."""
    script = 0.0
    body = _CMD.sub("", tex)
    # subscripts and superscripts print at about 70 % size
    for m in re.finditer(r"[_^]\{([^{}]*)\}", body):
        script += len(re.sub(r"\\[a-zA-Z]+", "x", m.group(1))) * 0.35
    body = re.sub(r"[_^]\{[^{}]*\}", "", body)
    body = re.sub(r"\\[a-zA-Z]+", "x", body)
    body = body.replace("{", "").replace("}", "").replace(" ", "")
    return len(body) * 0.55 + script


class Width:
    """Estimated widths (in ems) of display nodes, for line breaking."""

    def __init__(self, printer_: SymrowLatexPrinter):
        self.p = printer_

    def __call__(self, node) -> float:
        method = getattr(self, "w_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        if isinstance(node, (sympy.Basic, N.RowVec)):  # leaves repeat: remember them
            return _token_width(self.p._token(node))
        return text_width(self.p.doprint(node))

    def w_Bmat(self, node: N.Bmat) -> float:
        ncols = max(len(r) for r in node.rows)
        cols = [max((self(r[c]) for r in node.rows if c < len(r)), default=0.0)
                for c in range(ncols)]
        return sum(cols) + 1.0 * (ncols - 1) + 1.0

    def w_OSum(self, node: N.OSum) -> float:
        return sum(self(t.item if isinstance(t, N.Neg) else t) for t in node.terms) \
            + 1.5 * (len(node.terms) - 1)

    def w_OMul(self, node: N.OMul) -> float:
        return sum(self(f) for f in node.factors) + 0.2 * (len(node.factors) - 1)

    def w_Entrywise(self, node: N.Entrywise) -> float:
        return self(node.values)

    def w_Frac(self, node: N.Frac) -> float:
        return max(self(node.num), self(node.den)) + 0.3

    def w_Chain(self, node: N.Chain) -> float:
        return sum(self(i) for i in node.items) + 1.8 * (len(node.items) - 1)

    def w_Group(self, node: N.Group) -> float:
        return sum(self(i) for i in node.items) + 2.5 * (len(node.items) - 1)

    def w_Rel(self, node: N.Rel) -> float:
        return self(node.lhs) + self(node.rhs) + 2.0

    def w_Paren(self, node: N.Paren) -> float:
        return self(node.item) + 0.8

    def w_SumOver(self, node: N.SumOver) -> float:
        return self(node.body) + 1.6

    def w_Exp(self, node: N.Exp) -> float:
        if self.p._settings["exp_style"] == "e":
            return 0.6 + 0.7 * self(node.arg)
        return 2.2 + self(node.arg)


def _break_sum(p: SymrowLatexPrinter, w: Width, node: N.OSum, limit: float) -> list[str]:
    """Split a long ordered sum into lines of at most ``limit`` ems."""
    lines: list[list[str]] = [[]]
    used = 0.0
    for k, term in enumerate(node.terms):
        neg, body = _split_sign(term)
        wt = w(body) + 1.5
        if lines[-1] and used + wt > limit:
            lines.append([])
            used = 0.0
        tex = p.parenthesize(body, PRECEDENCE["Add"]) if isinstance(body, N.Node) else p._print(body)
        sign = ("- " if neg else "+ ") if (k or neg) else ""
        if not lines[-1] and k:
            sign = sign.strip() + " "
        lines[-1].append(sign + tex)
        used += wt
    return [" ".join(parts) for parts in lines]


def display_lines(node, width: float = LINE_WIDTH, **settings) -> list[str]:
    """Lines of an ``aligned``/``align*`` body for one display, with ``&`` marks.

    A chain ``x = y = z`` stays on one line when it fits; otherwise each
    ``=`` starts a new line, aligned on ``&=``.  An over-long sum breaks
    between its terms, and an over-wide matrix of named entries
    (:class:`~symrow.nodes.Entrywise`) is shown one entry per line.
    """
    p = printer(**settings)
    own = getattr(p, "_lines_" + type(node).__name__, None)
    if own is not None:  # a node that lays itself out (e.g. SoftmaxExpansion)
        return own(node, width)
    w = Width(p)
    if isinstance(node, N.Group):
        if w(node) <= width:
            return [p.doprint(node)]
        lines: list[str] = []
        for item in node.items:
            lines.extend(display_lines(item, width, **settings))
        return lines
    if isinstance(node, N.Rel) and node.rel == "in" and isinstance(node.lhs, N.Chain):
        inner = display_lines(node.lhs, width - w(node.rhs) - 2, **settings)
        inner[-1] += r" \in " + p.doprint(node.rhs)
        return inner
    if isinstance(node, N.Entrywise):
        return _entrywise_lines(p, w, node, width, settings)
    if not isinstance(node, N.Chain):
        return [p.doprint(node)]
    items = node.items
    if w(node) <= width:
        first, rest = p.doprint(items[0]), [p.doprint(i) for i in items[1:]]
        return [first + " &= " + " = ".join(rest)] if rest else [first]
    lhs = p.doprint(items[0])
    room = width - w(items[0]) - 1.8
    lines = []
    for k, item in enumerate(items[1:]):
        lead = lhs if k == 0 else ""
        if isinstance(item, N.OSum) and w(item) > room:
            parts = _break_sum(p, w, item, room - 1.0)
            lines.append(lead + " &= " + parts[0])
            lines.extend(r"&\quad " + part for part in parts[1:])
        elif isinstance(item, N.Entrywise) and w(item) > room:
            if lead:
                lines.append(lead + " &= " + p.doprint(item.names))
            lines.extend(_entrywise_lines(p, w, item, width, settings))
        else:
            lines.append(lead + " &= " + p.doprint(item))
    return lines


def _entrywise_lines(p: SymrowLatexPrinter, w: Width, node: N.Entrywise,
                     width: float, settings: dict) -> list[str]:
    lines = []
    for names, values in zip(node.names.rows, node.values.rows):
        for name, value in zip(names, values):
            if isinstance(name, N.Dots):
                continue
            lines.extend(display_lines(N.Chain([name, value]), width, **settings))
    return lines


def display(node, env: str = "align*", **settings) -> str:
    """One display as a complete math environment (``align*`` or ``aligned``)."""
    body = " \\\\\n".join(display_lines(node, **settings))
    return "\\begin{%s}\n%s\n\\end{%s}" % (env, body, env)


def vecseq_node(seq) -> N.Chain:
    """``A = [...]``: a vector sequence with its entries, as a display node."""
    from ..build import entries_bmat
    return N.Chain([seq, entries_bmat(seq)])


def vecseq_display(seq) -> str:
    """``A = [...]`` for a vector sequence, as shown in Jupyter."""
    return latex(vecseq_node(seq))
