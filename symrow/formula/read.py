r"""Read a formula written in LaTeX (or built in SymPy) into a :class:`Formula`.

The text goes through the same lexer as the checker's
(:mod:`symrow.checker.lexer`), so an error points at the same line and
column, with the same vocabulary of transposes, fonts and spacing.  What
it accepts:

* **names** of matrices: a capital letter with an optional subscript and
  head index (``X``, ``W_Q``, ``W_{out}``, ``Q^{(2)}``), also in bold
  (``\mathbf{X}``) or with an accent (``\hat{A}``, ``\tilde{A}``,
  ``\bar{A}``);
* **products** by juxtaposition (or ``\cdot``, ``*``), associating to the
  left unless parenthesised; **sums** and differences;
* **transposes** in every spelling (``^T ^{T} ^\top ^{\top} ^\mathsf{T}
  ^\intercal '``);
* **scalings**: numbers, size names (``n``, ``d_k``) and square roots, as
  factors, after ``/`` or in ``\frac``;
* **softmax** (``\operatorname{softmax}``, ``\mathrm``, ``\text``, plain
  letters) and **element-wise functions**: ``\exp``, ``\tanh``,
  ``\sigma``, ``\operatorname{ReLU}``, and any ``\operatorname{name}`` or
  Greek letter applied to a bracket, such as ``\phi(Q)``;
* **definitions** ``S = QK^T``, separated by ``;``, commas, ``\\`` or line
  breaks, or in an ``align*``; the last one is the result.

Constructs that are valid mathematics but not read yet (``\odot``,
inverses, ``\otimes``, a vector added to a matrix) raise
:class:`~symrow.errors.NotSupportedError`; text that is not a formula
raises :class:`~symrow.errors.ParseError`.  Both give line and column.

>>> from symrow.formula.read import read_formula
>>> from symrow.formula.expr import text
>>> f = read_formula(r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V")
>>> text(f.result)
'softmax(QK^T/√d)V'
>>> [(name, text(e)) for name, e in read_formula("S = QK^T; O = softmax(S) V").definitions]
[('S', 'QK^T'), ('O', 'softmax(S)V')]
>>> read_formula(r"A \odot B")
Traceback (most recent call last):
...
symrow.errors.NotSupportedError: the Hadamard (element-wise) product \odot is not supported yet (line 1, column 3, at '\odot')
"""

from __future__ import annotations

import dataclasses
import re

import sympy

from ..reader import vocab as V
from ..reader.lexer import (DOC_ENVS, MATRIX_ENVS, Cursor, Env, Group, Source, Token,
                            build_tree, tokenize)
from ..errors import NotSupportedError, OptionError, ParseError
from ..seq import size_symbol
from .expr import (FUNCTIONS, Apply, Concat, Expr, Formula, Name, Product, Scaled, Softmax,
                   Sum, Transpose, walk)

__all__ = ["read_formula", "read_latex", "from_sympy", "softmax", "apply", "MAX_FORMULA"]

#: the longest formula read, in characters
MAX_FORMULA = 20_000
#: the deepest nesting of brackets read
MAX_NESTING = 40

_ACCENTS = V.ACCENTS
_GREEK_FUNCS = {"\\sigma", "\\phi", "\\varphi", "\\psi", "\\rho", "\\eta", "\\kappa",
                "\\chi", "\\omega", "\\xi", "\\zeta", "\\mu", "\\nu", "\\tau", "\\theta",
                "\\gamma", "\\delta", "\\epsilon", "\\varepsilon", "\\alpha", "\\beta",
                "\\lambda", "\\iota", "\\upsilon", "\\pi"}
_WORD_FUNCS = {"softmax": "softmax", "relu": "relu", "tanh": "tanh", "exp": "exp",
               "gelu": "gelu", "sigmoid": "sigma"}
_COMMAND_FUNCS = {"\\exp": "exp", "\\tanh": "tanh"}
_FONT_WORDS = {"\\operatorname", "\\mathrm", "\\text", "\\textrm", "\\mathsf", "\\mathit",
               "\\textsf", "\\textit", "\\mathop"}
_UNSUPPORTED = {
    "\\odot": "the Hadamard (element-wise) product \\odot",
    "\\circ": "the element-wise product \\circ",
    "\\otimes": "the Kronecker product \\otimes",
    "\\oplus": "the direct sum \\oplus",
    "\\ominus": "\\ominus",
    "\\det": "the determinant \\det",
    "\\sum": "a sum with \\sum (write the matrices themselves)",
    "\\prod": "a product with \\prod",
    "\\max": "\\max", "\\min": "\\min", "\\log": "\\log", "\\ln": "\\ln",
    "\\|": "a norm", "|": "an absolute value or norm", "\\vert": "an absolute value",
    "\\Vert": "a norm", "\\nabla": "\\nabla", "\\partial": "a derivative",
    "\\int": "an integral", "\\mathbb": "a set such as \\mathbb{R}",
    "\\cdots": "an ellipsis", "\\dots": "an ellipsis", "\\ldots": "an ellipsis",
    "\\vdots": "an ellipsis", "\\ddots": "an ellipsis",
}
_UNSUPPORTED_WORDS = {"diag": "diag", "tr": "the trace", "trace": "the trace",
                      "layernorm": "LayerNorm", "norm": "a normalisation",
                      "concat": "concatenation (write the blocks in a bmatrix)",
                      "vec": "vec", "det": "the determinant"}
_EQUALS = {"=", "\\coloneqq", "\\triangleq", "\\equiv", "\\coloneq", "\\eqqcolon"}
_SEPARATORS = {";", ","}
_CLOSERS = {")": "(", "]": "[", "\\rbrack": "\\lbrack"}
_OPENERS = {"(": ")", "[": "]", "\\lbrack": "\\rbrack"}
_NAME_SUB = re.compile(r"^[A-Za-z0-9]{1,8}$")


@dataclasses.dataclass(frozen=True)
class _Scalar:
    """A scalar factor met while reading (a number, a size, a square root)."""

    value: sympy.Expr
    pos: int
    end: int


def _is(node, *texts: str) -> bool:
    return isinstance(node, Token) and node.text in texts


def _span(node) -> tuple[int, int]:
    return node.pos, node.end


class _Reader:
    def __init__(self, src: Source):
        self.src = src
        self.depth = 0

    # -- errors -----------------------------------------------------------------------
    def error(self, message: str, pos: int, end: int | None = None) -> ParseError:
        return self.src.error(message, pos, end)

    def unsupported(self, what: str, pos: int, end: int) -> NotSupportedError:
        line, col = self.src.line_col(pos)
        return NotSupportedError(f"{what} is not supported yet", line=line, column=col,
                                 near=self.src.near(pos, end))

    # -- top level: definitions ---------------------------------------------------------
    def definitions(self, nodes: list) -> Formula:
        flat = self._flatten(nodes)
        pieces = self._split(flat)
        if not pieces:
            raise self.error("there is no formula here", 0)
        defs: list[tuple[str, Expr]] = []
        written = None
        for k, piece in enumerate(pieces):
            eqs = [j for j, node in enumerate(piece) if isinstance(node, Token) and
                   (node.text in _EQUALS or (node.text == ":" and _is(
                       piece[j + 1] if j + 1 < len(piece) else None, "=")))]
            eqs = [j for j in eqs if not (piece[j].text == "=" and j and _is(piece[j - 1], ":"))]
            if not eqs:
                if k != len(pieces) - 1:
                    raise self.error("only the last line may be a bare expression; name "
                                     "the others, as in S = QK^T", *_span(piece[0]))
                defs.append(("", self.expression(piece)))
                continue
            if len(eqs) > 1:
                extra = piece[eqs[1]]
                raise self.error("a definition has one '='; put each definition on a "
                                 "line of its own (separate them with ';')", *_span(extra))
            j = eqs[0]
            lhs, rhs = piece[:j], piece[j + 1:]
            if lhs and _is(lhs[-1], ":"):
                lhs = lhs[:-1]
            if rhs and _is(rhs[0], "="):
                rhs = rhs[1:]
            if not lhs:
                raise self.error("this '=' has no name on its left", *_span(piece[j]))
            if not rhs:
                raise self.error("this '=' has nothing on its right", *_span(piece[j]))
            name = self.lhs_name(lhs)
            if name in [n for n, _ in defs]:
                raise self.error(f"{name} is defined twice", *_span(lhs[0]))
            expr = self.expression(rhs)
            if name in _names_in(expr):
                raise self.error(f"{name} is defined in terms of itself; give the new "
                                 f"quantity a name of its own", *_span(lhs[0]))
            if any(name in _names_in(e) for _n, e in defs):
                raise self.error(f"{name} is used before it is defined; define it on an "
                                 f"earlier line", *_span(lhs[0]))
            defs.append((name, expr))
            written = name if k == len(pieces) - 1 else written
        if defs[-1][0] == "":
            written = None
        return Formula(tuple(defs), written)

    def _flatten(self, nodes: list) -> list:
        """Drop math delimiters and layout environments; keep their contents."""
        out: list = []
        for node in nodes:
            if isinstance(node, Env) and node.name in DOC_ENVS:
                out.append(Token("sym", ";", node.begin.pos, node.begin.end))
                out.extend(self._flatten(node.children))
                out.append(Token("sym", ";", node.end_token.pos, node.end_token.end))
            elif isinstance(node, Token) and (node.kind == "dollar" or node.text in (
                    "\\[", "\\]", "\\(", "\\)")):
                continue
            elif isinstance(node, Token) and (node.kind == "rowsep" or node.text in (
                    "&", "\\nonumber", "\\notag", "\\displaystyle")):
                if node.kind == "rowsep":
                    out.append(Token("sym", ";", node.pos, node.end))
                continue
            else:
                out.append(node)
        return out

    def _split(self, flat: list) -> list[list]:
        """Cut at ';' ',' (outside brackets) and at line breaks before ``NAME =``."""
        pieces: list[list] = [[]]
        depth = 0
        for k, node in enumerate(flat):
            if isinstance(node, Token):
                if node.text in _OPENERS or node.text == "\\left":
                    depth += 1 if node.text != "\\left" else 0
                elif node.text in _CLOSERS:
                    depth = max(0, depth - 1)
                if depth == 0 and node.text in _SEPARATORS and node.kind == "sym":
                    pieces.append([])
                    continue
                if node.newline and pieces[-1] and depth == 0 and self._starts_definition(
                        flat, k):
                    pieces.append([])
            pieces[-1].append(node)
        return [p for p in pieces if p]

    @staticmethod
    def _starts_definition(flat: list, k: int) -> bool:
        for node in flat[k:k + 8]:
            if isinstance(node, Token) and node.text in _EQUALS:
                return True
            if isinstance(node, Token) and node.text in ("+", "-", "(", ")", "\\cdot"):
                return False
        return False

    def lhs_name(self, nodes: list) -> str:
        cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
        node = cur.peek()
        expr = self.primary(cur) if node is not None else None
        if not isinstance(expr, Name) or not cur.at_end():
            raise self.error("the left side of a definition must be one name, such as S "
                             "or W_Q", nodes[0].pos, nodes[-1].end)
        return expr.name

    # -- expressions ----------------------------------------------------------------------
    def expression(self, nodes: list) -> Expr:
        if not nodes:
            raise self.error("there is nothing here", 0)
        value = self.sum(Cursor(nodes, nodes[0].pos, nodes[-1].end), stop=None)
        if isinstance(value, _Scalar):
            raise self.error("this is a number, not a matrix formula", value.pos, value.end)
        return value

    def _enter(self, pos: int, end: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"this formula is nested more than {MAX_NESTING} deep", pos, end)

    def sum(self, cur: Cursor, stop):
        self._enter(cur.pos, cur.end)
        try:
            terms, signs = [], []
            sign, first = 1, True
            start = cur.peek()
            while True:
                node = cur.peek()
                while _is(node, "+", "-"):
                    cur.take()
                    if node.text == "-":
                        sign = -sign
                    node = cur.peek()
                if node is None or (stop and _is(node, *stop)):
                    if not first or terms or sign != 1:
                        where = cur.nodes[cur.i - 1] if cur.i else start
                        raise self.error("a sign with nothing after it", *_span(where))
                    raise self.error("there is nothing here", cur.pos, cur.end)
                terms.append(self.term(cur, stop))
                signs.append(sign)
                first, sign = False, 1
                node = cur.peek()
                if node is None or (stop and _is(node, *stop)):
                    break
                if not _is(node, "+", "-"):
                    raise self.error(f"unexpected {self.src.near(node.pos, node.end)!r}",
                                     *_span(node))
            if len(terms) == 1:
                if signs[0] == 1:
                    return terms[0]
                if isinstance(terms[0], _Scalar):
                    t = terms[0]
                    return _Scalar(-t.value, t.pos, t.end)
                return Sum((terms[0],), (-1,), pos=terms[0].pos)
            scalars = [t for t in terms if isinstance(t, _Scalar)]
            if scalars and len(scalars) < len(terms):
                s = scalars[0]
                raise self.unsupported(
                    f"adding a scalar or vector ({self.src.text[s.pos:s.end].strip()}) to a "
                    f"matrix (a broadcast bias)", s.pos, s.end)
            if scalars:
                total = sum(sg * t.value for sg, t in zip(signs, terms))
                return _Scalar(total, terms[0].pos, terms[-1].end)
            return Sum(tuple(terms), tuple(signs), pos=terms[0].pos)
        finally:
            self.depth -= 1

    def term(self, cur: Cursor, stop):
        factors: list = []
        num, den = sympy.S.One, sympy.S.One
        start = cur.peek()
        while True:
            node = cur.peek()
            if node is None or _is(node, "+", "-") or (stop and _is(node, *stop)):
                break
            if _is(node, *V.MUL) and node.text != "\\times":
                cur.take()
                if not factors:
                    raise self.error(f"'{node.text}' needs something on its left", *_span(node))
                nxt = cur.peek()
                if nxt is None or _is(nxt, "+", "-") or (stop and _is(nxt, *stop)):
                    raise self.error(f"'{node.text}' needs something on its right",
                                     *_span(node))
                continue
            if _is(node, "\\times"):
                raise self.error("'\\times' between matrices is ambiguous; write a product "
                                 "by juxtaposition (AB)", *_span(node))
            if _is(node, *V.DIV):
                cur.take()
                if not factors:
                    raise self.error(f"'{node.text}' needs something on its left", *_span(node))
                divisor = self.factor(cur)
                if not isinstance(divisor, _Scalar):
                    raise self.unsupported("dividing by a matrix (an inverse)", *_span(node))
                if divisor.value == 0:
                    raise self.error("division by zero", divisor.pos, divisor.end)
                den = den * divisor.value
                continue
            f = self.factor(cur)
            if isinstance(f, _Scalar):
                num = num * f.value
            factors.append(f)
        mats = [f for f in factors if not isinstance(f, _Scalar)]
        if not factors:
            where = start if start is not None else None
            raise self.error("there is nothing here", *(_span(where) if where else
                                                        (cur.pos, cur.end)))
        if not mats:
            pos = factors[0].pos
            return _Scalar(num / den, pos, factors[-1].end)
        expr = mats[0]
        for right in mats[1:]:
            expr = Product(expr, right, pos=right.pos)
        if num != 1 or den != 1:
            # keep num/den as written: \frac{QK^T}{\sqrt{d}} has num 1, den sqrt(d)
            n, d = sympy.fraction(sympy.nsimplify(num / den) if (num / den).is_number
                                  else num / den)
            expr = Scaled(expr, n, d, pos=factors[0].pos)
        return expr

    def factor(self, cur: Cursor):
        value = self.primary(cur)
        while True:
            node = cur.peek()
            if _is(node, "'"):
                cur.take()
                value = self._transpose(value, node)
                continue
            if _is(node, "^"):
                cur.take()
                arg = cur.take()
                if arg is None:
                    raise self.error("'^' needs an exponent", *_span(node))
                value = self._power(value, node, arg)
                continue
            if _is(node, "_") and not isinstance(value, Name):
                raise self.error("a subscript here is not a name's; indices of entries "
                                 "belong in a hand derivation, not in a formula", *_span(node))
            return value

    def _transpose(self, value, tok):
        if isinstance(value, _Scalar):
            return value
        if isinstance(value, Transpose):
            return value.arg
        return Transpose(value, pos=tok.pos)

    def _power(self, value, caret: Token, arg):
        word = _plain(arg)
        if word in V.TRANSPOSE_WORDS or word.replace("{", "").replace("}", "") in \
                V.TRANSPOSE_WORDS:
            return self._transpose(value, caret)
        if isinstance(value, _Scalar):
            exponent = self.sum(Cursor(_nodes(arg), arg.pos, arg.end), stop=None)
            if not isinstance(exponent, _Scalar):
                raise self.error("an exponent must be a number", *_span(arg))
            return _Scalar(value.value ** exponent.value, value.pos, arg.end)
        if word in ("-1", "{-1}"):
            raise self.unsupported("the inverse of a matrix", caret.pos, arg.end)
        if word in ("+", "{+}", "\\dagger", "{\\dagger}"):
            raise self.unsupported("the pseudo-inverse of a matrix", caret.pos, arg.end)
        raise self.unsupported(f"a power of a matrix ({self.src.text[caret.pos:arg.end]})",
                               caret.pos, arg.end)

    # -- primaries ---------------------------------------------------------------------------
    def primary(self, cur: Cursor):
        node = cur.peek()
        if node is None:
            raise self.error("the formula ends too early", cur.end)
        if isinstance(node, Group):
            cur.take()
            if not node.children:
                raise self.error("empty braces", *_span(node))
            self._enter(node.pos, node.end)
            try:
                return self.sum(Cursor(node.children, node.pos, node.end), stop=None)
            finally:
                self.depth -= 1
        if isinstance(node, Env):
            cur.take()
            return self._matrix_env(node)
        tok: Token = node
        text = tok.text
        if text in V.SPACING or text in V.SIZES:
            cur.take()
            return self.primary(cur)
        if tok.kind == "num":
            cur.take()
            if len(text) > 30:
                raise self.error("this number has more than 30 digits", *_span(tok))
            return _Scalar(sympy.Rational(text), tok.pos, tok.end)
        if text in _OPENERS:
            cur.take()
            return self._bracketed(cur, tok, _OPENERS[text])
        if text == "\\left":
            cur.take()
            opener = cur.take()
            if not isinstance(opener, Token) or opener.text not in _OPENERS:
                raise self.error("\\left must be followed by ( or [", *_span(tok))
            return self._bracketed(cur, tok, _OPENERS[opener.text], right=True)
        if text in _CLOSERS or text == "\\right":
            raise self.error(f"'{text}' closes nothing", *_span(tok))
        if text in ("\\frac", "\\dfrac", "\\tfrac"):
            return self._frac(cur)
        if text == "\\sqrt":
            return self._sqrt(cur)
        if text in _ACCENTS:
            return self._name(cur)
        if text in V.BOLD:
            return self._name(cur)
        if text in _FONT_WORDS:
            return self._font(cur)
        if text in _COMMAND_FUNCS:
            cur.take()
            return self._call(cur, _COMMAND_FUNCS[text], tok)
        if text in _GREEK_FUNCS:
            cur.take()
            if self._opens_bracket(cur.peek()):
                return self._call(cur, text[1:], tok)
            return _Scalar(sympy.Symbol(text[1:], positive=True), tok.pos, tok.end)
        if text == "\\ell":
            cur.take()
            return _Scalar(size_symbol("ell"), tok.pos, tok.end)
        if text in _UNSUPPORTED:
            raise self.unsupported(_UNSUPPORTED[text], *_span(tok))
        if tok.kind == "letter":
            word = self._word(cur)
            if word is not None:
                return word
            if text.isupper():
                return self._name(cur)
            return self._size(cur)
        if tok.kind == "bad":
            raise self.error(f"unexpected character {text!r}", *_span(tok))
        if tok.kind == "cmd":
            raise self.error(f"{text} is not part of a formula symrow reads", *_span(tok))
        raise self.error(f"unexpected {text!r}", *_span(tok))

    def _opens_bracket(self, node) -> bool:
        return _is(node, "(", "[", "\\left") or (isinstance(node, Token) and node.text in
                                                 V.SIZES)

    def _bracketed(self, cur: Cursor, opener: Token, close: str, right: bool = False):
        inner: list = []
        depth = 0
        while True:
            node = cur.take()
            if node is None:
                raise self.error(f"'{opener.text}' is never closed", *_span(opener))
            if right:
                if _is(node, "\\left"):
                    depth += 1
                elif _is(node, "\\right"):
                    if depth == 0:
                        closer = cur.take()
                        if not _is(closer, close):
                            raise self.error(f"\\right must close with {close}",
                                             *_span(node))
                        break
                    depth -= 1
            else:
                if _is(node, opener.text):
                    depth += 1
                elif _is(node, close):
                    if depth == 0:
                        break
                    depth -= 1
            inner.append(node)
        if not [n for n in inner if not _is(n, *V.SPACING)]:
            raise self.error("empty brackets", *_span(opener))
        self._enter(opener.pos, node.end)
        try:
            return self.sum(Cursor(inner, opener.pos, node.end), stop=None)
        finally:
            self.depth -= 1

    def _arg(self, cur: Cursor, what: str, tok: Token):
        node = cur.take()
        if node is None:
            raise self.error(f"{what} needs an argument in braces", *_span(tok))
        nodes = _nodes(node)
        if not nodes:
            raise self.error(f"{what} of nothing", *_span(node))
        self._enter(node.pos, node.end)
        try:
            return self.sum(Cursor(nodes, node.pos, node.end), stop=None)
        finally:
            self.depth -= 1

    def _frac(self, cur: Cursor):
        tok = cur.take()
        top = self._arg(cur, tok.text, tok)
        bottom = self._arg(cur, tok.text, tok)
        if not isinstance(bottom, _Scalar):
            raise self.unsupported("dividing by a matrix (an inverse)", *_span(tok))
        if bottom.value == 0:
            raise self.error("division by zero", bottom.pos, bottom.end)
        if isinstance(top, _Scalar):
            return _Scalar(top.value / bottom.value, tok.pos, bottom.end)
        if isinstance(top, Scaled):
            return Scaled(top.arg, top.num, top.den * bottom.value, pos=tok.pos)
        return Scaled(top, sympy.S.One, bottom.value, pos=tok.pos)

    def _sqrt(self, cur: Cursor):
        tok = cur.take()
        if _is(cur.peek(), "["):
            raise self.unsupported("a root other than the square root", *_span(tok))
        inner = self._arg(cur, "\\sqrt", tok)
        if not isinstance(inner, _Scalar):
            raise self.unsupported("the square root of a matrix", *_span(tok))
        return _Scalar(sympy.sqrt(inner.value), tok.pos, inner.end)

    def _font(self, cur: Cursor):
        tok = cur.take()
        if _is(cur.peek(), "*"):
            cur.take()
        arg = cur.take()
        word = _plain(arg) if arg is not None else ""
        if not word or not re.fullmatch(r"[A-Za-z]+", word):
            # \mathrm{W}: a name in an upright font
            if arg is not None and len(_nodes(arg)) == 1 and _plain(arg).isupper():
                sub = Cursor(_nodes(arg), arg.pos, arg.end)
                return self._after_name(cur, self._name(sub))
            raise self.error(f"{tok.text}{{...}} must hold a function's name, as in "
                             f"\\operatorname{{softmax}}", *_span(tok))
        key = word.lower()
        if key in _UNSUPPORTED_WORDS:
            raise self.unsupported(_UNSUPPORTED_WORDS[key], tok.pos, arg.end)
        if len(word) == 1 and word.isupper():
            sub = Cursor(_nodes(arg), arg.pos, arg.end)
            return self._after_name(cur, self._name(sub))
        if not self._opens_bracket(cur.peek()):
            raise self.error(f"{word} needs its argument in brackets, as in {word}(X)",
                             tok.pos, arg.end)
        return self._call(cur, _WORD_FUNCS.get(key, key if key in FUNCTIONS else word), tok)

    def _word(self, cur: Cursor):
        """A function typed as plain letters: ``softmax(...)``, ``relu(...)``."""
        for word, func in sorted(_WORD_FUNCS.items(), key=lambda kv: -len(kv[0])):
            toks = [cur.peek(k) for k in range(len(word))]
            if not all(isinstance(t, Token) and t.kind == "letter" for t in toks):
                continue
            if "".join(t.text for t in toks).lower() != word:
                continue
            if any(toks[k].pos != toks[k - 1].end for k in range(1, len(toks))):
                continue
            nxt = cur.peek(len(word))
            if not self._opens_bracket(nxt):
                continue
            for _ in word:
                cur.take()
            return self._call(cur, func, toks[0])
        return None

    def _call(self, cur: Cursor, func: str, tok: Token):
        while isinstance(cur.peek(), Token) and cur.peek().text in V.SIZES:
            cur.take()
        node = cur.peek()
        if node is None or not self._opens_bracket(node):
            if func == "exp" and _is(node, "^"):
                raise self.error("write the exponential of a matrix as \\exp(X)", *_span(tok))
            raise self.error(f"{func} needs its argument in brackets", *_span(tok))
        arg = self.primary(cur)
        if isinstance(arg, _Scalar):
            raise self.error(f"{func} of a number; symrow reads functions of matrices",
                             tok.pos, arg.end)
        if func == "softmax":
            return Softmax(arg, pos=tok.pos)
        return Apply(func, arg, pos=tok.pos)

    def _size(self, cur: Cursor):
        """A lowercase letter is a scalar: a size (n, d_k) or a constant."""
        tok = cur.take()
        name = tok.text
        if _is(cur.peek(), "_"):
            cur.take()
            sub = cur.take()
            word = _plain(sub) if sub is not None else ""
            if not _NAME_SUB.match(word.strip("{}")):
                raise self.error("a size's subscript must be letters or digits, as in d_k",
                                 *_span(tok))
            name += "_" + word.strip("{}")
        if _is(cur.peek(), "(") and name in ("f", "g", "h"):
            return self._call(cur, name, tok)
        return _Scalar(size_symbol(name), tok.pos, tok.end)

    def _name(self, cur: Cursor) -> Name:
        tok = cur.take()
        accent = None
        if tok.text in _ACCENTS or tok.text in V.BOLD:
            arg = cur.take()
            inner = [n for n in _nodes(arg) if not _is(n, *V.SPACING)] if arg is not None \
                else []
            if len(inner) != 1 or not isinstance(inner[0], Token) or \
                    inner[0].kind != "letter" or not inner[0].text.isupper():
                raise self.error(f"{tok.text}{{...}} must hold one capital letter, as in "
                                 f"{tok.text}{{A}}", tok.pos, arg.end if arg else tok.end)
            if tok.text in _ACCENTS:
                accent = _ACCENTS[tok.text]
            letter = inner[0].text
        else:
            letter = tok.text
        name = letter
        if accent:
            name = "\\%s{%s}" % (accent, letter)
        node = cur.peek()
        if _is(node, "_"):
            cur.take()
            sub = cur.take()
            word = _plain(sub) if sub is not None else ""
            word = word.strip("{}")
            if word.startswith("\\mathrm") or word.startswith("\\text"):
                word = re.sub(r"\\[a-z]+", "", word).strip("{}")
            if not _NAME_SUB.match(word):
                raise self.error("a matrix name's subscript must be up to 8 letters or "
                                 "digits, as in W_Q or W_{out}", *_span(node))
            name += "_" + word
        node = cur.peek()
        if _is(node, "^"):
            arg = cur.peek(1)
            text = _plain(arg) if arg is not None else ""
            head = re.fullmatch(r"\{?\(([1-9][0-9]{0,2})\)\}?", text)
            if head:
                cur.take()
                cur.take()
                name += f"^({head.group(1)})"
        return Name(name, pos=tok.pos)

    def _after_name(self, cur: Cursor, name: Name) -> Name:
        return name

    def _matrix_env(self, env: Env):
        if env.name not in MATRIX_ENVS:
            raise self.error(f"the {env.name} environment is not part of a formula",
                             env.pos, env.end)
        rows: list[list] = [[]]
        for node in env.children:
            if isinstance(node, Token) and node.kind == "rowsep":
                rows.append([])
            else:
                rows[-1].append(node)
        rows = [r for r in rows if r]
        if len(rows) != 1:
            raise self.unsupported("a block matrix with more than one row of blocks",
                                   env.pos, env.end)
        cells: list[list] = [[]]
        for node in rows[0]:
            if _is(node, "&"):
                cells.append([])
            else:
                cells[-1].append(node)
        parts = []
        for cell in cells:
            if not cell:
                raise self.error("an empty block in a bmatrix", env.pos, env.end)
            parts.append(self.expression(cell))
        if len(parts) == 1:
            return parts[0]
        return Concat(tuple(parts), pos=env.pos)


def _nodes(node) -> list:
    if node is None:
        return []
    return node.children if isinstance(node, Group) else [node]


def _plain(node) -> str:
    """The text of a simple argument (``T``, ``{\\top}``, ``{-1}``); '' if not simple."""
    if node is None:
        return ""
    if isinstance(node, Token):
        return node.text
    if isinstance(node, Group):
        out = []
        for child in node.children:
            inner = _plain(child)
            if not inner:
                return ""
            out.append(inner if isinstance(child, Token) else "{" + inner + "}")
        return "".join(out)
    return ""


def read_latex(text: str) -> Formula:
    """Read a formula (or several definitions) written in LaTeX."""
    if not isinstance(text, str):
        raise OptionError(f"a formula must be a string of LaTeX; got {type(text).__name__}")
    if len(text) > MAX_FORMULA:
        raise ParseError(f"the formula has {len(text)} characters, more than symrow reads "
                         f"({MAX_FORMULA})")
    src = Source(text)
    tree = build_tree(tokenize(text), src)
    return _Reader(src).definitions(tree)


# -- SymPy input -------------------------------------------------------------------------------

class Softmax_(sympy.MatrixExpr):
    """``symrow.softmax(X)``: the row-wise softmax of a SymPy matrix expression."""

    def __new__(cls, arg):
        arg = sympy.sympify(arg)
        if not getattr(arg, "is_Matrix", False):
            raise OptionError(f"softmax needs a matrix expression; got {arg!r}")
        return sympy.Basic.__new__(cls, arg)

    @property
    def arg(self):
        return self.args[0]

    @property
    def shape(self):
        return self.args[0].shape

    def _latex(self, printer):
        return r"\operatorname{softmax}\left(%s\right)" % printer._print(self.arg)

    def _sympystr(self, printer):
        return "softmax(%s)" % printer._print(self.arg)


class Elementwise_(sympy.MatrixExpr):
    """``symrow.apply("relu", X)``: a function applied to every entry."""

    def __new__(cls, func, arg):
        arg = sympy.sympify(arg)
        if not getattr(arg, "is_Matrix", False):
            raise OptionError(f"{func} needs a matrix expression; got {arg!r}")
        return sympy.Basic.__new__(cls, sympy.Symbol(str(func)), arg)

    @property
    def func_name(self) -> str:
        return self.args[0].name

    @property
    def arg(self):
        return self.args[1]

    @property
    def shape(self):
        return self.args[1].shape

    def _sympystr(self, printer):
        return "%s(%s)" % (self.func_name, printer._print(self.arg))


def softmax(matrix):
    """The row-wise softmax of a SymPy matrix expression, for :func:`symrow.explain`.

    >>> import sympy, symrow
    >>> Q, K, V = (sympy.MatrixSymbol(n, 2, 2) for n in "QKV")
    >>> symrow.softmax(Q * K.T) * V
    softmax(Q*K.T)*V
    """
    return Softmax_(matrix)


def apply(func: str, matrix):
    """An element-wise function (``"exp"``, ``"relu"``, ``"sigma"``, ``"tanh"`` or a name
    of your own, such as ``"phi"``) applied to a SymPy matrix expression."""
    if not isinstance(func, str) or not re.fullmatch(r"[A-Za-z]{1,12}", func):
        raise OptionError(f"a function's name must be a word such as 'relu'; got {func!r}")
    return Elementwise_(func.lower() if func.lower() in FUNCTIONS else func, matrix)


def from_sympy(expr) -> tuple[Formula, dict]:
    """A SymPy matrix expression over MatrixSymbols -> (formula, shapes of its symbols)."""
    shapes: dict = {}

    def conv(e) -> Expr:
        if isinstance(e, sympy.MatrixSymbol):
            name = str(e.name)
            shape = tuple(int(x) if getattr(x, "is_Integer", False) else x for x in e.shape)
            if name in shapes and shapes[name] != shape:
                raise OptionError(f"{name} is used with two shapes, {shapes[name]} and {shape}")
            shapes[name] = shape
            return Name(name)
        if isinstance(e, sympy.Transpose):
            inner = conv(e.arg)
            return inner.arg if isinstance(inner, Transpose) else Transpose(inner)
        if isinstance(e, sympy.MatMul):
            coeff, mats = e.as_coeff_matrices()
            if not mats:
                raise OptionError(f"{e} is not a matrix expression")
            out = conv(mats[0])
            for m in mats[1:]:
                out = Product(out, conv(m))
            if coeff != 1:
                num, den = sympy.fraction(coeff)
                out = Scaled(out, num, den)
            return out
        if isinstance(e, sympy.MatAdd):
            terms, signs = [], []
            for arg in e.args:
                coeff, rest = (arg.as_coeff_mmul() if isinstance(arg, sympy.MatMul)
                               else (1, arg))
                if isinstance(arg, sympy.MatMul) and coeff == -1:
                    terms.append(conv(sympy.MatMul(*arg.args[1:])))
                    signs.append(-1)
                else:
                    terms.append(conv(arg))
                    signs.append(1)
            return Sum(tuple(terms), tuple(signs))
        if isinstance(e, Softmax_):
            return Softmax(conv(e.arg))
        if isinstance(e, Elementwise_):
            return Apply(e.func_name, conv(e.arg))
        if isinstance(e, sympy.MatPow):
            raise NotSupportedError(f"a power of a matrix ({e}) is not supported yet")
        if isinstance(e, sympy.Inverse):
            raise NotSupportedError(f"the inverse of a matrix ({e}) is not supported yet")
        if isinstance(e, sympy.HadamardProduct):
            raise NotSupportedError("the Hadamard (element-wise) product is not supported yet")
        if isinstance(e, sympy.KroneckerProduct):
            raise NotSupportedError("the Kronecker product is not supported yet")
        raise OptionError(f"cannot read {type(e).__name__} ({e}); symrow reads products, "
                          f"sums, transposes and scalings of MatrixSymbols, with "
                          f"symrow.softmax() and symrow.apply()")

    if not isinstance(expr, sympy.MatrixExpr):
        raise OptionError(f"a formula must be LaTeX text or a SymPy matrix expression over "
                          f"MatrixSymbols; got {type(expr).__name__}")
    return Formula((("", conv(expr)),), None), shapes


def _names_in(expr: Expr) -> set:
    return {e.name for e in walk(expr) if isinstance(e, Name)}


def read_formula(formula) -> Formula:
    """Read LaTeX text (see the module documentation) into a :class:`Formula`."""
    return read_latex(formula)
