"""Unicode text for a terminal or REPL: a subclass of SymPy's ``PrettyPrinter``.

>>> import symrow
>>> from symrow.render.text import text
>>> A = symrow.vecseq("A", "m", "ell")
>>> print(text(A.vector("i")))
𝐚ᵢ
>>> print(text(symrow.nodes.Transpose(A)))
Aᵀ
"""

from __future__ import annotations

import re
import textwrap
import types
import unicodedata

import sympy
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.stringpict import prettyForm, stringPict

from .. import nodes as N
from ..scripts import ACCENTS, GREEK, SUB as _SUB, SUP as _SUP, script as _script, tex_text

__all__ = ["SymrowTextPrinter", "text", "pretty_lines", "to_text", "vecseq_text",
           "entry_text", "text_walls"]

#: an entry symbol's name, as :meth:`symrow.VecSeq.symbol` makes it: a letter
#: (maybe accented), a tag ``^{Q}``, and indices ``_{12}``, ``_{10,2}``, ``_{i\ell}``
_ENTRY = re.compile(r"^(?:\\(?P<accent>hat|tilde|bar|check|breve)\{(?:\\(?P<inner>hat|tilde|check|breve)"
                    r"\{(?P<iletter>[a-z]|\\[a-z]+)\}|(?P<aletter>[a-z]|\\[a-z]+))\}"
                    r"|(?P<letter>[a-z]|\\[a-z]+))"
                    r"(?:\^\{(?P<tag>[^{}]*)\})?_\{(?P<index>.*)\}$")


_PARTIAL = re.compile(r"^\\frac\{\\partial L\}\{\\partial (?P<inner>.*)\}$")
#: the entry of a sequence named by a word, ``\left(\mathrm{FFN}\right)_{12}``
_WORD_ENTRY = re.compile(r"^\\left\((?P<name>.*)\\right\)_\{(?P<index>[^{}]*)\}$")


def _index_words(index: str) -> str:
    """``i\\ell`` -> ``iℓ``, ``d_{v}`` -> ``d_v``, ``\\ell k`` -> ``ℓk``."""
    index = index.replace("\\ell", "ℓ")
    index = re.sub(r"_\{([^{}]*)\}", r"_\1", index)
    return index.replace(" ", "")


def entry_text(name: str) -> str | None:
    """The Unicode form of an entry symbol's name (``a_{12}`` -> ``a₁₂``), or None
    when the name is not one symrow makes.  Decided by the name alone.

    >>> entry_text("w^{Q}_{12}"), entry_text(r"a_{i\\ell}"), entry_text("x")
    ('w^Q₁₂', 'a_(iℓ)', None)
    >>> entry_text(r"\\frac{\\partial L}{\\partial w_{12}}")
    '∂L/∂w₁₂'
    >>> entry_text(r"\\bar{\\tilde{d}}_{11}") == "d\u0303\u0304₁₁"
    True
    >>> entry_text(r"\\left(\\mathrm{FFN}\\right)_{12}"), entry_text(r"h^{(\\ell+1)}_{12}")
    ('(FFN)₁₂', 'h^(ℓ+1)₁₂')
    """
    word = _WORD_ENTRY.match(name)
    if word is not None:         # (FFN)₁₂
        return f"({tex_text(word['name'])})" + _script(_index_words(word["index"]), _SUB, "_")
    partial = _PARTIAL.match(name)
    if partial is not None:      # a gradient's entry written ∂L/∂x_{ij}
        inner = entry_text(partial["inner"])
        return None if inner is None else "∂L/∂" + inner
    m = _ENTRY.match(name)
    if m is None:
        return None
    letter = m["letter"] or m["aletter"] or m["iletter"]
    if letter.startswith("\\"):
        if letter not in GREEK:
            return None
        letter = GREEK[letter]
    if m["inner"]:      # the gradient of an accented name: \bar{\tilde{d}}
        letter += ACCENTS.get(m["inner"], "")
    if m["accent"]:
        letter += ACCENTS.get(m["accent"], "")
    tag = m["tag"]
    out = letter + (_script(tag, _SUP, "^") if tag else "")
    return out + _script(_index_words(m["index"]), _SUB, "_")


_DOTS = {"c": "⋯", "v": "⋮", "d": "⋱", "l": "…"}
_RELS = {"=": "=", "in": "∈", "to": "⟶", "mapsto": "⟼", "gets": "⟵", "ge": "≥", "le": "≤",
         "gt": ">", "lt": "<", "approx": "≈",
         "times": "×"}

#: widest a text display line may be before a chain breaks at its ``=``
TEXT_WIDTH = 100


class _Grid:
    """Adapter so that PrettyPrinter's grid drawing can lay out a Bmat."""

    def __init__(self, rows):
        self._rows = rows
        self.rows = len(rows)
        self.cols = max(len(r) for r in rows)

    def __getitem__(self, key):
        i, j = key
        row = self._rows[i]
        return row[j] if j < len(row) else N.Label("", "")


class SymrowTextPrinter(PrettyPrinter):
    """Prints symrow's display nodes, and SymPy objects, as Unicode art."""

    _default_settings = {**PrettyPrinter._default_settings, "use_unicode": True,
                         "wrap_line": False}

    def _print_Symbol(self, e, bold_name=False):
        pretty = entry_text(e.name)
        if pretty is not None:
            return prettyForm(pretty)
        if e.name == "ell":
            return prettyForm("ℓ")
        if "\\" in e.name or "{" in e.name:   # a name's LaTeX, never shown as it is
            return prettyForm(tex_text(e.name))
        return super()._print_Symbol(e, bold_name)

    def _print_VecSeq(self, seq):
        return prettyForm(seq.text_name)

    def _print_RowVec(self, node: N.RowVec):
        index = node.index
        idx = ("ℓ" if isinstance(index, sympy.Symbol) and index.name == "ell"
               else str(index))
        return prettyForm(node.seq.row_text(idx))

    def _print_Dots(self, node: N.Dots):
        return prettyForm(_DOTS[node.kind])

    def _print_Label(self, node: N.Label):
        return prettyForm(node.text)

    def _print_Space(self, node: N.Space):
        exp = f"{text(node.rows)}×{text(node.cols)}"
        return prettyForm("ℝ" + (_script(exp, _SUP, "^") if len(exp) <= 5 else f"^({exp})"))

    def _print_Bmat(self, node: N.Bmat):
        D = self._print_matrix_contents(_Grid(node.rows))
        D.baseline = D.height() // 2
        return prettyForm(*D.parens("[", "]"))

    def _join(self, parts, sep: str):
        out = None
        for part in parts:
            if out is None:
                out = part
            else:
                out = prettyForm(*stringPict.next(out, sep, part))
        return out if out is not None else prettyForm("")

    def _paren(self, item, level):
        pf = self._print(item)
        if precedence(item) < level:
            pf = prettyForm(*pf.parens())
        return pf

    def _print_OSum(self, node: N.OSum):
        out = None
        for term in node.terms:
            neg = False
            if isinstance(term, N.Neg):
                neg, term = True, term.item
            elif isinstance(term, sympy.Expr) and term.could_extract_minus_sign():
                neg, term = True, -term
            pf = self._paren(term, PRECEDENCE["Add"] + 1 if isinstance(term, N.Node) else 0)
            if out is None:
                out = prettyForm(*pf.left("-")) if neg else pf
            else:
                out = prettyForm(*stringPict.next(out, " - " if neg else " + ", pf))
        out = out if out is not None else prettyForm("0")
        out.binding = prettyForm.ADD
        return out

    def _print_Neg(self, node: N.Neg):
        return prettyForm(*self._paren(node.item, PRECEDENCE["Mul"]).left("-"))

    def _print_OMul(self, node: N.OMul):
        # juxtaposition, except before a number (2⋅3 and h₁₁⋅2, not "2 3" and "h₁₁ 2"),
        # as in LaTeX
        out = None
        for k, factor in enumerate(node.factors):
            pf = self._paren(factor, PRECEDENCE["Mul"])
            if out is None:
                out = pf
            else:
                number = isinstance(factor, sympy.Number)
                out = prettyForm(*stringPict.next(out, "⋅" if number else " ", pf))
        out = out if out is not None else prettyForm("")
        out.binding = prettyForm.MUL
        return out

    def _print_Dot(self, node: N.Dot):
        out = self._join([self._paren(node.left, PRECEDENCE["Mul"]),
                          self._paren(node.right, PRECEDENCE["Mul"])], "⋅")
        out.binding = prettyForm.MUL
        return out

    def _print_SumOver(self, node: N.SumOver):
        fake = types.SimpleNamespace(function=node.body,
                                     limits=((node.index, node.lower, node.upper),))
        return self._print_Sum(fake)

    def _print_Transpose(self, node: N.Transpose):
        base = self._print(node.base)
        if precedence(node.base) < PRECEDENCE["Pow"] or base.height() > 1:
            base = prettyForm(*base.parens())
        return prettyForm(*base.right("ᵀ"))

    def _print_Power(self, node: N.Power):
        base = self._paren(node.base, PRECEDENCE["Pow"])
        exponent = str(node.exponent)
        return prettyForm(*base.right(_script(exponent, _SUP, "^")))

    def _print_Hadamard(self, node: N.Hadamard):
        out = self._join([self._paren(f, PRECEDENCE["Mul"]) for f in node.factors], " ⊙ ")
        out.binding = prettyForm.MUL
        return out

    def _print_Sub(self, node: N.Sub):
        base = self._paren(node.base, PRECEDENCE["Pow"])
        return prettyForm(*base.right(_script(text(node.index), _SUB, "_")))

    def _print_Paren(self, node: N.Paren):
        return prettyForm(*self._print(node.item).parens())

    def _print_Rel(self, node: N.Rel):
        return self._join([self._print(node.lhs), self._print(node.rhs)], f" {_RELS[node.rel]} ")

    def _print_Chain(self, node: N.Chain):
        return self._join([self._print(i) for i in node.items], " = ")

    def _print_Entrywise(self, node: N.Entrywise):
        return self._print(node.values)

    def _print_Group(self, node: N.Group):
        return self._join([self._print(i) for i in node.items], ",   ")

    def _print_SoftmaxExpansion(self, node: N.SoftmaxExpansion):
        return self._print(N.Group(node.chains()))

    def _print_Items(self, node: N.Items):
        return self._join([self._print(i) for i in node.items], ", ")

    def _print_Cases(self, node: N.Cases):
        rows = [self._join([self._print(v), self._print(c)], "  ") for v, c in node.rows]
        out = prettyForm(*stringPict.stack(*rows))
        out.baseline = out.height() // 2
        return prettyForm(*out.parens("{", ""))

    def _print_Frac(self, node: N.Frac):
        return prettyForm.__truediv__(self._print(node.num), self._print(node.den))

    def _print_Exp(self, node: N.Exp):
        arg = prettyForm(*self._print(node.arg).parens())
        out = prettyForm(*arg.left("exp"))
        out.binding = prettyForm.FUNC
        return out

    def _print_Sqrt(self, node: N.Sqrt):
        if isinstance(node.arg, sympy.Basic):
            return self._print(sympy.sqrt(node.arg, evaluate=False))
        inner = self._print(node.arg)
        if isinstance(node.arg, N.Label):
            return prettyForm(*inner.left("√"))
        return prettyForm(*prettyForm(*inner.parens()).left("√"))

    def _print_Call(self, node: N.Call):
        args = self._join([self._print(a) for a in node.args], ", ")
        out = prettyForm(*prettyForm(*args.parens()).left(node.text))
        out.binding = prettyForm.FUNC
        return out

    def _print_Infinity(self, e):
        return prettyForm("∞")

    def _print_NegativeInfinity(self, e):
        return prettyForm("-∞")


class InlineTextPrinter(SymrowTextPrinter):
    """One line: a fraction of display nodes is written ``num/den`` (with
    parentheses around a compound part), for math in running text."""

    def _print_Frac(self, node: N.Frac):
        parts = []
        for part in (node.num, node.den):
            pic = self._print(part)
            if isinstance(part, (N.OSum, N.OMul, N.Neg, N.Frac, sympy.Add, sympy.Mul)) \
                    or pic.height() > 1:
                pic = prettyForm(*pic.parens())
            parts.append(pic)
        out = prettyForm(*stringPict.next(parts[0], "/", parts[1]))
        out.binding = prettyForm.DIV
        return out

    def _over(self, num, den) -> prettyForm:
        """``num/den`` on one line, a compound part in parentheses."""
        parts = []
        for part in (num, den):
            pic = self._print(part)
            if isinstance(part, (sympy.Add, sympy.Mul)) or pic.height() > 1 or (
                    isinstance(part, sympy.Number) and not part.is_Integer):
                pic = prettyForm(*pic.parens())
            parts.append(pic)
        out = prettyForm(*stringPict.next(parts[0], "/", parts[1]))
        out.binding = prettyForm.DIV
        return out

    def _root(self, arg) -> prettyForm:
        """``√d``, ``√dₖ``, ``√(d + 1)``: a square root on the line."""
        pic = self._print(arg)
        if not isinstance(arg, (sympy.Symbol, sympy.Integer, N.Label)) or pic.height() > 1:
            pic = prettyForm(*pic.parens())
        return prettyForm(*pic.left("√"))

    def _print_Sqrt(self, node: N.Sqrt):
        return self._root(node.arg)

    def _print_Pow(self, e, rational=False):
        if e.exp == sympy.S.Half:
            return self._root(e.base)
        if e.exp.is_Rational and e.exp.is_negative:
            return self._over(sympy.S.One, e.base ** -e.exp)
        if e.exp.is_Rational and not e.exp.is_Integer:
            base = self._print(e.base)
            if not isinstance(e.base, (sympy.Symbol, sympy.Integer)):
                base = prettyForm(*base.parens())
            return prettyForm(*base.right(_script(str(e.exp), _SUP, "^")))
        return super()._print_Pow(e)

    def _print_Rational(self, e):
        if e.q == 1:
            return super()._print_Rational(e)
        out = prettyForm(f"{'-' if e.p < 0 else ''}{abs(e.p)}/{e.q}")
        out.binding = prettyForm.DIV
        return out

    def _print_Mul(self, e):
        num, den = sympy.fraction(e)
        if den != 1:
            return self._over(num, den)
        return super()._print_Mul(e)


_PRINTER = SymrowTextPrinter()
_INLINE = InlineTextPrinter()


def text(node) -> str:
    """Unicode text of a display node or SymPy object (possibly several lines)."""
    return _PRINTER.doprint(node)


def _width(rendered: str) -> int:
    """Terminal columns of the widest line (wide characters count 2)."""
    return max(map(display_width, rendered.split("\n")))


def pretty_lines(node, width: int = TEXT_WIDTH) -> list[str]:
    """A display as text lines; a chain too wide for ``width`` breaks at each ``=``,
    and a matrix of named entries too wide for its line goes entry by entry."""
    if isinstance(node, N.SoftmaxExpansion):
        return _softmax_lines(node, width)
    if isinstance(node, N.Group):
        whole = text(node)
        if _width(whole) <= width:
            return whole.split("\n")
        out: list[str] = []
        for item in node.items:
            out.extend(pretty_lines(item, width))
        return out
    if isinstance(node, N.Entrywise):
        return _entry_lines(node, width)
    if isinstance(node, N.Chain) and len(node.items) > 2:
        whole = text(node)
        if _width(whole) > width:
            lhs = _PRINTER._print(node.items[0])
            pad = " " * lhs.width()
            room = width - lhs.width() - 3
            out = []
            for k, item in enumerate(node.items[1:]):
                lead = lhs if k == 0 else prettyForm(pad)
                if isinstance(item, N.Entrywise) and _width(text(item)) > room:
                    if k == 0:
                        out.extend(prettyForm(*stringPict.next(lead, " = ", _PRINTER._print(
                            item.names))).render(wrap_line=False).split("\n"))
                    out.extend(_entry_lines(item, width))
                    continue
                out.extend(prettyForm(*stringPict.next(lead, " = ", _PRINTER._print(item)))
                           .render(wrap_line=False).split("\n"))
            return out
        return whole.split("\n")
    return text(node).split("\n")


def _entry_lines(node: N.Entrywise, width: int) -> list[str]:
    from .layout import entry_pairs
    pairs = entry_pairs(node)
    out: list[str] = []
    for name, value in pairs[:getattr(node, "shown", None) or len(pairs)]:
        out.extend(pretty_lines(N.Chain([name, value]), width))
    return out


def text_walls(node, width: int = TEXT_WIDTH) -> list:
    """The matrices of named entries that :func:`pretty_lines` writes entry by entry."""
    if isinstance(node, N.Group):
        if _width(text(node)) <= width:
            return []
        return [e for item in node.items for e in text_walls(item, width)]
    if isinstance(node, N.Entrywise):
        return [node]
    if not (isinstance(node, N.Chain) and len(node.items) > 2) or _width(text(node)) <= width:
        return []
    room = width - _PRINTER._print(node.items[0]).width() - 3
    return [item for item in node.items[1:]
            if isinstance(item, N.Entrywise) and _width(text(item)) > room]


def _softmax_lines(node: N.SoftmaxExpansion, width: int) -> list[str]:
    """One equation after another; a wide one sets the sums above and below its
    fraction bar on rows, as many terms to a row as fit."""
    out: list[str] = []
    for chain in node.chains():
        whole = text(chain).split("\n")
        if max(map(display_width, whole)) <= width:
            out.extend(whole)
            continue
        lhs, frac = chain.items
        lead = _PRINTER._print(lhs)
        room = max(width - lead.width() - 3, 1)
        parts = [_sum_rows(part, room) for part in (frac.num, frac.den)]
        out.extend(prettyForm(*stringPict.next(lead, " = ", prettyForm.__truediv__(*parts)))
                   .render(wrap_line=False).split("\n"))
    return out


def _sum_rows(node: N.OSum, room: int) -> prettyForm:
    """A sum as rows of terms at most ``room`` characters wide (a row after the
    first starts with ``+``), centred one under the other."""
    pictures = [_PRINTER._print(t) for t in node.terms]
    rows: list = [[]]
    used = 0
    for pic in pictures:
        w = pic.width() + (3 if rows[-1] or len(rows) > 1 else 0)
        if rows[-1] and used + w > room:
            rows.append([])
            used, w = 0, pic.width() + 3
        rows[-1].append(pic)
        used += w
    lines = []
    for k, row_ in enumerate(rows):
        pic = row_[0] if not k else prettyForm(*stringPict.next("+ ", row_[0]))
        for term in row_[1:]:
            pic = prettyForm(*stringPict.next(pic, " + ", term))
        lines.append(pic)
    if len(lines) == 1:
        return lines[0]
    out = prettyForm(*stringPict.stack(*lines))
    out.baseline = out.height() // 2
    return out


_NBSP = "\u00a0"
_NBHY = "\u2011"
_WJ = "\u2060"
#: a unit kept to its number while lines are filled ("3-dimensional", "n 個",
#: "3個": a word joiner, which no line starts or ends at, removed once filled)
_TEXT_GLUE = {"-": _NBHY, " ": _NBSP, "": _WJ}

#: characters that may not start a line in Japanese (kinsoku shori)
_NO_LINE_START = set("、。，．・：；？！ー）」』】〕〉》”’%,.:;?!)]")


def _inline(value) -> str:
    """A value shown inline: one line, its spaces non-breaking so it never wraps."""
    if isinstance(value, str):
        return value
    rendered = text(value)
    if "\n" in rendered:
        rendered = _INLINE.doprint(value)
    if "\n" in rendered:
        rendered = " ".join(rendered.split())
    return rendered.replace(" ", _NBSP)


def display_width(chars: str) -> int:
    """Columns a string takes in a terminal: wide (CJK) characters count 2.

    >>> display_width("行列 AB")
    7
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF"
               else 0 if unicodedata.combining(ch) else 1 for ch in chars)


def _tokens(paragraph: str) -> list[str]:
    """Units a line may break between: a wide character (with any closing
    punctuation that must follow it), a run of narrow characters, or a space."""
    out: list[str] = []
    for ch in paragraph:
        wide = unicodedata.east_asian_width(ch) in "WF"
        if out and (ch in _NO_LINE_START or ch == _WJ or out[-1].endswith(_WJ)):
            out[-1] += ch
        elif ch == " " or wide or not out or out[-1] == " " \
                or unicodedata.east_asian_width(out[-1][-1]) in "WF":
            out.append(ch)
        else:
            out[-1] += ch
    return out


def _wrap(paragraph: str, lang: str, width: int = 78) -> str:
    """Fill a paragraph to ``width`` terminal columns; inline math never breaks.

    A language that wraps by words (English) breaks at spaces; one that wraps
    by width (Japanese) breaks between any two wide characters (never before
    、 or 。) and around runs of narrow ones, measured by display width.
    """
    from ..narrate import get_language
    if get_language(lang).wrap == "words":
        return (textwrap.fill(paragraph, width).replace(_NBSP, " ").replace(_NBHY, "-")
                .replace(_WJ, ""))
    lines, line, used = [], "", 0
    for token in _tokens(paragraph):
        w = display_width(token)
        if line and used + w > width:
            lines.append(line.rstrip())
            line, used = "", 0
        if not line and token == " ":
            continue
        line += token
        used += w
    lines.append(line.rstrip())
    return "\n".join(lines).replace(_NBSP, " ").replace(_NBHY, "-").replace(_WJ, "")


def to_text(derivation, lang: str = "en", *, expand=None, width=None) -> str:
    """The narrated derivation as Unicode text.

    ``expand`` as for LaTeX (see :mod:`symrow.render.expand`); ``width`` in
    characters (``"60ch"``) or in the LaTeX renderers' ems (``18``, which is
    about 52 characters; see :func:`symrow.render.layout.text_columns`):
    displays break to fit it, and narration wraps at 78 columns or less.
    """
    from ..narrate import glued, segments
    from .expand import expanded_steps
    from .layout import text_columns
    chars = text_columns(width, TEXT_WIDTH)
    wrap = min(78, chars)
    # displays are indented by 4: with the indent, a line is at most ``chars``
    # terminal columns wide (100 by default, as --help says)
    room = chars - 4
    out: list[str] = []
    for step in expanded_steps(derivation.steps, expand,
                               lambda node: text_walls(node, room)):
        words = "".join((v if kind == "text" else _inline(v)) + _TEXT_GLUE.get(join, "")
                        for kind, v, join in glued(segments(step, lang), lang))
        if step.kind == "heading":
            if step.params.get("number"):
                words = f"{step.params['number']} {words}"
            # a section (level 1, and a derivation's own headings) is underlined
            # with =, a subsection with -
            rule = "=" if step.params.get("level", 1) == 1 else "-"
            words = words.replace(_NBSP, " ").replace(_NBHY, "-").replace(_WJ, "")
            bar = rule * display_width(words)
            out.append(f"{words}\n{bar}")
            continue
        if step.kind == "figure" and step.params.get("note"):
            from ..steps import Step
            words += " " + "".join(
                (v if kind == "text" else _inline(v)) + _TEXT_GLUE.get(join, "")
                for kind, v, join in glued(segments(Step("figure_example", {}), lang), lang))
        if step.kind == "figure":   # a picture (symrow.figures): in characters, then its caption
            out.append("\n".join("    " + line for line in
                                  step.params["figure"].to_text(lang).rstrip().splitlines()))
        out.append(_wrap(words, lang, wrap))
        if step.display is not None:
            out.append("\n".join("    " + line.rstrip()
                                  for line in pretty_lines(step.display, room)))
    return "\n\n".join(out) + "\n"


def vecseq_text(seq) -> str:
    """``A = [...]`` (concrete) or ``A ∈ ℝ^(m×ℓ)`` with its entry pattern (general)."""
    from ..build import entries_bmat
    return text(N.Chain([seq, entries_bmat(seq)]))
