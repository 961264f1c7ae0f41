r"""The built-in parser of the placeholder language: no dependencies, every Python.

The translator (:mod:`.translate`) never hands a parser the user's LaTeX.
It writes one flat level of arithmetic at a time, in a small language:

* placeholders: ASCII letters except ``d e E I``, the Greek commands of
  :data:`symrow.reader.entries.units.PLACEHOLDERS` (``\alpha`` ...), and beyond
  those ``\alpha_{NN}``;
* numbers: ``12``, ``0.5`` (read exactly, as rationals), and ``\infty``;
* ``+ -`` (binary and as signs), ``\cdot``, ``/`` and juxtaposition;
* ``{a}^{b}`` (any factor may take ``^{...}``; a marker such as a transpose
  is a placeholder exponent that the evaluator applies);
* ``\frac{..}{..}``, ``\sqrt{..}``, ``\sqrt[..]{..}``, ``e^{..}``,
  ``\exp\left(..\right)`` and ``\sum_{a=lo}^{hi}`` followed by its body.

This module reads that language and returns the *same* unevaluated SymPy
tree that latex2sympy2 1.9.1 returns for it (the test suite compares the two
on a corpus of every text the translator writes), so the evaluator cannot
tell which parser ran:

* precedence, loosest first: ``+ -``; then ``\cdot`` and ``/``, left to
  right; then signs; then juxtaposition; then ``^``, left to right.  So
  ``a / b c`` is ``a / (b c)`` and ``- a b`` is ``-(a b)``;
* a sum, a product and a list of juxtaposed factors are flat ``Add`` and
  ``Mul`` nodes with ``evaluate=False``, their arguments in the order
  written; a product of products is flattened into one ``Mul``, but the
  left side of a division is not: ``a \cdot b / c`` is
  ``Mul(Mul(a, b), Pow(c, -1))``;
* ``x - y`` is ``Add(x, Mul(-1, y))``, and ``-y`` is ``Mul(-1, y)``, except
  that a number is negated (``a - 2`` is ``Add(a, -2)``);
* ``\frac{x}{y}`` and ``x / y`` are ``Mul(x, Pow(y, -1))``; ``\sqrt{x}`` is
  ``Pow(x, 1/2)`` and ``\sqrt[r]{x}`` is ``Pow(x, 1/r)``;
* ``e^{x}`` and ``\exp(x)`` are ``sympy.exp(x)``, evaluated as SymPy does
  (``e^{0}`` is 1, ``e^{1}`` is ``E``);
* the body of a sum is everything up to the next ``+`` or ``-`` outside
  it, and nested sums become one ``Sum`` with several limits.

Where it differs from latex2sympy2, on purpose and without effect on any
text the translator writes:

* it reads nothing else: a ``d``, ``e``, ``E`` or ``I`` on its own, bare
  brackets, ``\times``, relations and every other command are errors
  (latex2sympy2 would read them as a differential, Euler's number, the
  imaginary unit, a function call, ...);
* its limits are fixed: at most :data:`MAX_ITEMS` items in one chain
  (terms, factors, signs in a row, powers) and :data:`MAX_DEPTH` levels of
  nesting (sums, braces, fractions), and numbers of at most
  :data:`MAX_NUMBER_DIGITS` digits.  latex2sympy2's limits come from
  Python's recursion limit instead: about 980 items, 300 signs in a row or
  25 nested sums, fewer when called deep inside a program;
* an error names the position of the token where reading stopped, and a
  relation (``a = b``) is reported at its sign (latex2sympy2 reports it at
  offset 0).

>>> from symrow.reader.entries.flatparse import parse
>>> parse(r"a b + \frac{c}{2}")
a*b + c/2
>>> parse(r"{a}^{b} c - 2").args
(a**b*c, -2)
>>> parse(r"a + b )")
Traceback (most recent call last):
...
symrow.reader.entries.parse.TextError: unexpected ')' after the end of the expression (offset 6)
"""

from __future__ import annotations

import re

import sympy

from .parse_errors import TextError, TooComplex
from .units import PLACEHOLDERS

__all__ = ["parse", "MAX_ITEMS", "MAX_DEPTH", "MAX_NUMBER_DIGITS"]

#: most items in one chain: terms of a sum, factors of a product, signs in a row, powers
MAX_ITEMS = 1000
#: deepest nesting of sums, braces, fractions, roots and exponents
MAX_DEPTH = 20
#: longest number, in digits
MAX_NUMBER_DIGITS = 1000

_LETTERS = frozenset(p for p in PLACEHOLDERS if len(p) == 1)
_GREEK = frozenset(p for p in PLACEHOLDERS if p.startswith("\\"))

_TOKEN = re.compile(r"\s*(?:([0-9]+(?:\.[0-9]+)?)|(\\[A-Za-z]+)|([A-Za-z])|(\S))")

#: tokens that can start a factor (used to continue a juxtaposition)
_STARTS = frozenset(["{", "\\frac", "\\sqrt", "\\exp", "\\sum", "\\infty"])
_RELATIONS = frozenset(["=", "<", ">", "\\le", "\\ge", "\\leq", "\\geq", "\\neq", "\\ne"])

_NEG = sympy.S.NegativeOne
_EOF = "end"


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int):
        self.kind = kind     # num, cmd, letter, sym or end
        self.text = text
        self.pos = pos


def _tokens(text: str) -> list[_Tok]:
    out = []
    pos, n = 0, len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:       # only blanks are left
            break
        num, cmd, letter, sym = m.groups()
        start = m.start(m.lastindex)
        if num is not None:
            out.append(_Tok("num", num, start))
        elif cmd is not None:
            out.append(_Tok("cmd", cmd, start))
        elif letter is not None:
            out.append(_Tok("letter", letter, start))
        else:
            out.append(_Tok("sym", sym, start))
        pos = m.end()
    out.append(_Tok(_EOF, "", len(text)))
    return out


# -- the trees, built as latex2sympy2 builds them ------------------------------------

def _factors(x) -> list:
    return list(x.args) if x.is_Mul else [x]


def _terms(x) -> list:
    return list(x.args) if x.is_Add else [x]


def _product(items: list):
    """Factors multiplied into one flat ``Mul`` (a product of products is flattened)."""
    if len(items) == 1:
        return items[0]
    args = []
    for item in items:
        args.extend(_factors(item))
    return sympy.Mul(*args, evaluate=False)


def _negate(x):
    """``-x``: a number is negated, anything else becomes ``Mul(-1, x)``."""
    if x.func.is_Number:
        return -x
    return sympy.Mul(_NEG, *_factors(x), evaluate=False)


def _quotient(x, y):
    return sympy.Mul(x, sympy.Pow(y, -1, evaluate=False), evaluate=False)


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    # -- tokens -----------------------------------------------------------------------
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        if tok.kind != _EOF:
            self.i += 1
        return tok

    def expect(self, text: str) -> _Tok:
        tok = self.tok
        if tok.text != text or tok.kind == _EOF:
            self.fail(tok, f"expected '{text}'")
        return self.take()

    def fail(self, tok: _Tok, wanted: str = ""):
        if tok.kind == _EOF:
            raise TextError("the expression ends too early", tok.pos)
        reason = f"unexpected {tok.text!r}"
        raise TextError(f"{reason} ({wanted})" if wanted else reason, tok.pos)

    def deeper(self, tok: _Tok) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooComplex(f"nested more than {MAX_DEPTH} levels deep", tok.pos)

    def count(self, n: int, tok: _Tok) -> None:
        if n > MAX_ITEMS:
            raise TooComplex(f"more than {MAX_ITEMS} items in a row", tok.pos)

    def starts_factor(self, tok: _Tok) -> bool:
        if tok.kind in ("num", "letter"):
            return True
        return tok.text in _STARTS or tok.text in _GREEK

    # -- the grammar --------------------------------------------------------------------
    def whole(self):
        tree = self.expr()
        tok = self.tok
        if tok.kind != _EOF:
            if tok.text in _RELATIONS:
                raise TextError("expected one expression, not a relation", tok.pos)
            raise TextError(f"unexpected {tok.text!r} after the end of the expression",
                            tok.pos)
        return tree

    def expr(self):
        """Terms joined by ``+`` and ``-``."""
        terms = [self.mp()]
        while self.tok.text in ("+", "-") and self.tok.kind == "sym":
            op = self.take()
            term = self.mp()
            terms.append(_negate(term) if op.text == "-" else term)
            self.count(len(terms), op)
        if len(terms) == 1:
            return terms[0]
        args = []
        for term in terms:
            args.extend(_terms(term))
        return sympy.Add(*args, evaluate=False)

    def mp(self):
        """Factors joined by ``\\cdot`` and ``/``, left to right."""
        node = self.unary()
        pending = None      # the flat factors of a product not built yet
        n = 1
        while self.tok.text in ("\\cdot", "/"):
            op = self.take()
            right = self.unary()
            n += 1
            self.count(n, op)
            if op.text == "\\cdot":
                if pending is None:
                    pending = _factors(node)
                pending.extend(_factors(right))
            else:
                if pending is not None:
                    node, pending = sympy.Mul(*pending, evaluate=False), None
                node = _quotient(node, right)
        if pending is not None:
            node = sympy.Mul(*pending, evaluate=False)
        return node

    def unary(self):
        """Signs, then juxtaposed factors: ``- a b`` is ``-(a b)``."""
        signs = []
        while self.tok.text in ("+", "-") and self.tok.kind == "sym":
            signs.append(self.take())
            self.count(len(signs), signs[-1])
        items = [self.power()]
        while self.starts_factor(self.tok):
            items.append(self.power())
            self.count(len(items), self.tok)
        node = _product(items)
        for sign in reversed(signs):
            if sign.text == "-":
                node = _negate(node)
        return node

    def power(self):
        """A factor and its superscripts, left to right: ``{a}^{b}^{c}`` is ``(a^b)^c``."""
        node = self.factor()
        n = 1
        while self.tok.text == "^":
            caret = self.take()
            n += 1
            self.count(n, caret)
            node = sympy.Pow(node, self.script(caret), evaluate=False)
        return node

    def script(self, caret: _Tok):
        """The argument of ``^``: ``{expr}``, or a single letter, number or command."""
        if self.tok.text == "{":
            return self.braced()
        tok = self.tok
        if tok.kind in ("num", "letter") or tok.text in _GREEK or tok.text == "\\infty":
            return self.factor()
        self.fail(tok, f"after '^' at offset {caret.pos}")

    def braced(self, open_: str = "{", close: str = "}"):
        tok = self.expect(open_)
        self.deeper(tok)
        tree = self.expr()
        self.expect(close)
        self.depth -= 1
        return tree

    def factor(self):
        tok = self.tok
        kind, text = tok.kind, tok.text
        if kind == "num":
            self.take()
            digits = len(text) - text.count(".")
            if digits > MAX_NUMBER_DIGITS:
                raise TextError(f"a number with more than {MAX_NUMBER_DIGITS} digits", tok.pos)
            return sympy.Rational(text)
        if kind == "letter":
            if text == "e" and self.toks[self.i + 1].text == "^":
                self.take()
                caret = self.take()
                return sympy.exp(self.script(caret))
            if text not in _LETTERS:
                self.fail(tok, "not a placeholder")
            self.take()
            return sympy.Symbol(text)
        if text in _GREEK:
            self.take()
            return sympy.Symbol(text[1:] + self.greek_index())
        if text == "{":
            return self.braced()
        if text == "\\infty":
            self.take()
            return sympy.oo
        if text == "\\frac":
            self.take()
            top = self.braced()
            return _quotient(top, self.braced())
        if text == "\\sqrt":
            self.take()
            if self.tok.text == "[":
                root = self.braced("[", "]")
                return sympy.Pow(self.braced(), 1 / root, evaluate=False)
            return sympy.Pow(self.braced(), sympy.S.Half, evaluate=False)
        if text == "\\exp":
            self.take()
            if self.tok.text == "\\left":
                self.take()
                self.expect("(")
                self.deeper(tok)
                arg = self.expr()
                self.expect("\\right")
                self.expect(")")
                self.depth -= 1
            else:
                arg = self.braced("(", ")")
            return sympy.exp(arg)
        if text == "\\sum":
            return self.sum()
        self.fail(tok)

    def greek_index(self) -> str:
        """``\\alpha_{12}``: a numbered placeholder (the name keeps the braces)."""
        if self.tok.text != "_":
            return ""
        self.take()
        self.expect("{")
        tok = self.tok
        if tok.kind != "num" or not tok.text.isdigit():
            self.fail(tok, "a placeholder's number")
        self.take()
        self.expect("}")
        return "_{%s}" % tok.text if len(tok.text) > 1 else "_" + tok.text

    def sum(self):
        """``\\sum_{a=lo}^{hi} body``: the body is a product (it stops at + or -)."""
        cmd = self.take()
        var = lo = hi = None
        for _ in range(2):
            if self.tok.text == "_" and var is None:
                self.take()
                brace = self.expect("{")
                self.deeper(brace)
                var = self.expr()
                self.expect("=")
                lo = self.expr()
                self.expect("}")
                self.depth -= 1
                if not isinstance(var, sympy.Symbol):
                    raise TextError("the index of a sum must be a placeholder", brace.pos)
            elif self.tok.text == "^" and hi is None:
                hi = self.script(self.take())
            else:
                self.fail(self.tok, "a sum needs _{a=lo} and ^{hi}")
        self.deeper(cmd)
        body = self.mp()
        self.depth -= 1
        return sympy.Sum(body, (var, lo, hi))


def parse(text: str):
    """Parse translated text into the unevaluated SymPy tree latex2sympy2 would return.

    Raises :class:`symrow.reader.entries.parse.TextError` (with the offset where
    reading stopped) for text outside the language, and its subclass
    :class:`symrow.reader.entries.parse.TooComplex` beyond the limits.
    """
    try:
        return _Reader(text).whole()
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise TooComplex("nested too deeply", 0) from None
