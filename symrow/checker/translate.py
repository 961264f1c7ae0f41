"""Translate one side of an ``=`` into text latex2sympy2 parses well.

The user's LaTeX never reaches the parser.  The translator reads it token by
token and writes a small, regular language instead: every name the
derivation knows (``Q``, ``\\boldsymbol{k}_2``, ``s_{12}``, ``d``) becomes a
one-letter *placeholder* whose meaning is kept in a table; every construct
the parser gets wrong is rewritten or rejected here, with the line and
column of the offending token:

* transposes in every spelling (``^T ^{T} ^\\top ^{\\top} ^\\mathsf{T}
  ^\\intercal '``), ``softmax(...)``, ``(X)_{ij}`` and parenthesised groups
  become ``(...)^{marker}``, with a placeholder marker as the exponent, so the
  parser keeps them (it drops ``^T`` and flattens groups);
* placeholders are plain symbols, and the parser keeps the order of factors,
  so ``QK^T`` stays a product of matrices in that order (the evaluator, not
  the parser, multiplies them);
* ``e_1`` is a name (or an error), never Euler's number; a bare ``d`` is the
  size ``d``, never a differential; ``(`` after a name never makes a
  function call, because every parenthesis is written ``\\left( \\right)``;
* explicit matrices are split into cells here, and each cell is its own
  parse; ``\\langle x, y \\rangle`` becomes a grouped product; sums keep
  their bounds (or get them inferred);
* spacing (``\\, \\; \\! \\quad``), ``\\left``/``\\right`` sizes and
  ``\\big``-style delimiters are dropped.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.checker.translate import translate_text
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> unit = translate_text(r"\\boldsymbol{a}_1 B^{\\top} + c_{12}", ref)
>>> unit.text
'a {b} ^{ c } + f'
>>> [(k, a.kind, a.name, a.items) for k, a in sorted(unit.atoms.items())]
[('a', 'row', 'A', (1,)), ('b', 'whole', 'B', ()), ('c', 'marker', 'T', ()), ('f', 'entry', 'C', (1, 2))]
"""

from __future__ import annotations

import dataclasses
import itertools
import re

from .lexer import MATRIX_ENVS, Env, Group, Source, Token, build_tree, tokenize

__all__ = ["Atom", "Unit", "TranslateError", "Translator", "translate_text"]

#: one-token placeholders the parser reads as plain symbols (no d, e, E, I)
_LETTERS = "abcfghijklmnopqrstuvwxyzABCDFGHJKLMNOPQRSTUVWXYZ"
_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa "
          "lambda mu nu xi omicron rho varrho sigma varsigma tau upsilon phi varphi chi psi "
          "omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()
_PLACEHOLDERS = [c for c in _LETTERS] + ["\\" + g for g in _GREEK]

#: the deepest nesting of brackets, fractions and exponents the translator reads
MAX_NESTING = 40

_SPACING = {"\\,", "\\;", "\\:", "\\!", "\\ ", "\\>", "\\quad", "\\qquad", "\\enspace",
            "\\thinspace", "\\medspace", "\\thickspace", "\\negthinspace", "\\negmedspace",
            "\\negthickspace", "\\displaystyle", "\\textstyle", "\\scriptstyle", "\\limits",
            "\\nolimits", "\\nonumber", "\\notag", "\\left.", "\\right."}
_SIZES = {"\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr",
          "\\biggl", "\\biggr", "\\Biggl", "\\Biggr", "\\bigm", "\\Bigm", "\\biggm",
          "\\Biggm"}
_SPACE_WITH_ARG = {"\\hspace", "\\phantom", "\\hphantom", "\\vphantom", "\\label", "\\tag"}
_BOLD = {"\\boldsymbol", "\\mathbf", "\\bm", "\\vec", "\\mathbfit", "\\pmb", "\\mathbold",
         "\\overrightarrow", "\\bf", "\\symbf", "\\symbfit"}
_FONT = {"\\mathrm", "\\mathit", "\\mathsf", "\\text", "\\textrm", "\\operatorname",
         "\\mathop", "\\textit", "\\mathnormal", "\\textnormal"}
#: superscripts read as a transpose (braces removed): ^T ^{\top} ^\mathsf{T} ^{\mathsf T} ...
_TRANSPOSE_WORDS = {"T", "\\top", "\\intercal", "\\prime", "\\mathsfT", "\\mathrmT",
                    "\\textT", "\\mathitT", "\\textsfT", "\\mathbfT", "\\textrmT",
                    "\\mathttT", "\\rmT", "\\sfT", "\\operatornameT"}
_MUL = {"\\cdot", "\\times", "*", "\\ast", "\\bullet"}
_DIV = {"/", "\\div"}
_OPEN = {"(": ")", "[": "]", "\\lbrack": "\\rbrack", "\\lgroup": "\\rgroup"}
_UNSUPPORTED = {
    "\\dots": "write every term out: symrow checks concrete sizes, so '...' cannot be checked",
    "\\cdots": "write every term out: symrow checks concrete sizes, so '...' cannot be checked",
    "\\ldots": "write every term out: symrow checks concrete sizes, so '...' cannot be checked",
    "\\vdots": "write every entry out: symrow checks concrete sizes, so '...' cannot be checked",
    "\\ddots": "write every entry out: symrow checks concrete sizes, so '...' cannot be checked",
    "\\neq": "only '=' can be checked", "\\ne": "only '=' can be checked",
    "\\le": "only '=' can be checked", "\\leq": "only '=' can be checked",
    "\\ge": "only '=' can be checked", "\\geq": "only '=' can be checked",
    "\\approx": "only '=' can be checked", "\\sim": "only '=' can be checked",
    "\\in": "'\\in' states a membership, which symrow does not check; keep it out of "
           "the derivation or in \\text{...}",
    "\\mapsto": "'\\mapsto' describes a map, which symrow does not check",
    "\\to": "'\\to' describes a map, which symrow does not check",
    "<": "only '=' can be checked", ">": "only '=' can be checked",
    "\\prod": "products with \\prod are not supported; write the factors out",
    "\\int": "integrals are not supported", "\\lim": "limits are not supported",
    "\\log": "logarithms are not supported", "\\ln": "logarithms are not supported",
    "\\pi": "pi is not part of these derivations",
    "\\max": "max is not supported", "\\min": "min is not supported",
    "|": "absolute values and norms are not supported",
    "\\|": "norms are not supported", "\\vert": "absolute values are not supported",
    "\\pm": "'\\pm' is not supported", "\\mp": "'\\mp' is not supported",
    "!": "factorials are not supported",
}


class TranslateError(Exception):
    """The text cannot be read; ``pos``/``end`` locate it in the source."""

    def __init__(self, message: str, pos: int, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.end = end if end is not None else pos + 1


@dataclasses.dataclass(frozen=True)
class Atom:
    """What a placeholder stands for.

    ``kind`` is one of: ``entry`` (an entry of a quantity; ``items`` are
    its row and column), ``row`` (a row vector; ``items`` = (row,)),
    ``whole`` (a matrix), ``size`` (a size such as d, or a bound index of
    the same name), ``index`` (an index variable's value), ``auto`` (the
    inferred upper bound of the sum over ``name``), ``bound`` (the
    variable of a sum), ``marker`` (``T``, ``softmax``, ``group``,
    ``entry``, ``row``: only ever an exponent), ``matrix`` (an explicit
    matrix; ``cells`` are its Units by row), ``number`` (a constant,
    ``name`` is ``e``).  Indices are ints or index names.
    """

    kind: str
    name: str = ""
    items: tuple = ()
    cells: tuple = dataclasses.field(default=(), compare=False)
    ident: int = 0
    pos: int = dataclasses.field(default=0, compare=False)
    end: int = dataclasses.field(default=0, compare=False)

    @property
    def key(self) -> tuple:
        return (self.kind, self.name, self.items, self.ident)


@dataclasses.dataclass
class Unit:
    """Translated text for one parse, with its placeholder table and source map."""

    text: str
    atoms: dict
    spans: list      # (start, end) in text -> (pos, end) in source
    pos: int
    end: int
    tree: object = None   # the parsed expression, once parsed

    def source_span(self, offset: int) -> tuple[int, int]:
        """The source span of the text at ``offset`` (the last piece starting at or before it)."""
        best = (self.pos, self.end)
        for start, stop, pos, end in self.spans:
            if start <= offset:
                best = (pos, end)
            else:
                break
        return best


class _Emitter:
    def __init__(self):
        self.parts: list[str] = []
        self.length = 0
        self.spans: list = []
        self.letters: dict = {}
        self.atoms: dict = {}
        self.pieces: list = []     # (text, atom or None, pos, end), to inline a lone piece

    def put(self, text: str, pos: int, end: int, atom: Atom | None = None) -> None:
        self.spans.append((self.length, self.length + len(text), pos, end))
        self.parts.append(text)
        self.parts.append(" ")
        self.length += len(text) + 1
        self.pieces.append((text, atom, pos, end))

    def atom(self, atom: Atom, pos: int, end: int) -> str:
        letter = self.letters.get(atom.key)
        if letter is None:
            n = len(self.letters)
            letter = _PLACEHOLDERS[n] if n < len(_PLACEHOLDERS) else "\\alpha_{%d}" % (n + 10)
            self.letters[atom.key] = letter
            sym = letter.lstrip("\\")
            self.atoms[sym] = dataclasses.replace(atom, pos=pos, end=end)
        self.put(letter, pos, end, atom)
        return letter

    def brace_last(self) -> None:
        """``a`` -> ``{a}`` before a superscript: ``{a}^{b}`` parses in ANTLR's fast
        SLL mode, ``a^{b}`` needs its slow full-context mode."""
        text, atom, pos, end = self.pieces[-1]
        if atom is None or text.startswith("{"):
            return
        start, stop, p, e = self.spans[-1]
        self.parts[-2] = "{" + text + "}"
        self.spans[-1] = (start, stop + 2, p, e)
        self.length += 2
        self.pieces[-1] = ("{" + text + "}", atom, pos, end)

    def unit(self, pos: int, end: int) -> Unit:
        return Unit("".join(self.parts).rstrip(), self.atoms, self.spans, pos, end)


def _arg_nodes(node) -> list:
    return node.children if isinstance(node, Group) else [node]


def _plain(nodes: list) -> str:
    """The text of simple tokens (for names like softmax or T); '' if not simple."""
    out = []
    for node in nodes:
        if isinstance(node, Token):
            out.append(node.text)
        elif isinstance(node, Group):
            inner = _plain(node.children)
            if not inner:
                return ""
            out.append("{" + inner + "}")
        else:
            return ""
    return "".join(out)


class _Cursor:
    def __init__(self, nodes: list, pos: int, end: int):
        self.nodes = nodes
        self.i = 0
        self.pos = pos
        self.end = end

    def peek(self, k: int = 0):
        j = self.i + k
        return self.nodes[j] if j < len(self.nodes) else None

    def take(self):
        node = self.peek()
        self.i += 1
        return node

    def at_end(self) -> bool:
        return self.i >= len(self.nodes)

    def here(self) -> tuple[int, int]:
        node = self.peek()
        if node is None:
            return self.end, self.end
        return node.pos, node.end


def _is(node, *texts: str) -> bool:
    return isinstance(node, Token) and node.text in texts


class Translator:
    """Translate member node lists into :class:`Unit` objects for one reference."""

    def __init__(self, ref, src: Source):
        self.ref = ref
        self.src = src
        self._ids = itertools.count(1)
        self.cells_total = 0
        self._depth = 0

    # -- entry points -------------------------------------------------------
    def unit(self, nodes: list, pos: int, end: int) -> Unit:
        em = _Emitter()
        cur = _Cursor(nodes, pos, end)
        self._expr(cur, em, stop=None)
        if not em.parts:
            raise TranslateError("there is nothing here", pos, end)
        return em.unit(pos, end)

    # -- expressions ----------------------------------------------------------
    def _expr(self, cur: _Cursor, em: _Emitter, stop) -> None:
        """Emit nodes until the cursor ends (or a token in ``stop``)."""
        expect_operand = True
        while not cur.at_end():
            node = cur.peek()
            if stop is not None and isinstance(node, Token) and node.text in stop:
                break
            if isinstance(node, Token):
                text = node.text
                if text in _SPACING or text in _SIZES:
                    cur.take()      # \bigl( is just (
                    continue
                if text in _SPACE_WITH_ARG:
                    cur.take()
                    if isinstance(cur.peek(), Group):
                        cur.take()
                    continue
                if text in ("+", "-"):
                    cur.take()
                    em.put(text, node.pos, node.end)
                    expect_operand = True
                    continue
                if text in _MUL or text in _DIV:
                    cur.take()
                    if expect_operand:
                        raise TranslateError(f"'{text}' needs something on its left",
                                             node.pos, node.end)
                    em.put("\\cdot" if text in _MUL else "/", node.pos, node.end)
                    expect_operand = True
                    continue
            self._primary(cur, em)
            expect_operand = False
        if expect_operand and em.parts:
            last = cur.nodes[cur.i - 1] if cur.i else None
            if last is not None and isinstance(last, Token) and last.text in (
                    "+", "-", "\\cdot", "\\times", "*", "/", "\\div", "\\ast"):
                raise TranslateError(f"'{last.text}' needs something on its right",
                                     last.pos, last.end)

    def _primary(self, cur: _Cursor, em: _Emitter) -> None:
        node = cur.peek()
        if isinstance(node, Group):
            cur.take()
            if not node.children:
                raise TranslateError("empty braces", node.pos, node.end)
            self._grouped(node.children, node.pos, node.end, em, cur)
            return
        if isinstance(node, Env):
            cur.take()
            self._matrix(node, em, cur)
            return
        tok: Token = node
        text = tok.text
        if tok.kind == "bad":
            raise TranslateError(f"unexpected character {text!r}", tok.pos, tok.end)
        if tok.kind == "rowsep":
            raise TranslateError("'\\\\' (a row break) inside an expression; close the "
                                 "brackets first", tok.pos, tok.end)
        if text == "&":
            raise TranslateError("'&' inside brackets; alignment marks belong outside "
                                 "them", tok.pos, tok.end)
        if tok.kind == "num":
            cur.take()
            if len(text.replace(".", "")) > 30:
                raise TranslateError("this number has more than 30 digits", tok.pos, tok.end)
            em.put(text, tok.pos, tok.end)
            self._postfix(cur, em, simple=True)
            return
        if text in _OPEN:
            cur.take()
            inner, close = self._until_close(cur, tok, _OPEN[text])
            self._grouped(inner, tok.pos, close.end, em, cur)
            return
        if text in (")", "]", "\\rbrack", "\\rangle", "\\right"):
            raise TranslateError(f"'{text}' closes nothing", tok.pos, tok.end)
        if text == "\\left":
            self._left(cur, em)
            return
        if text in _SIZES:
            cur.take()
            nxt = cur.peek()
            if nxt is None or not isinstance(nxt, Token):
                raise TranslateError(f"{text} must be followed by a bracket", tok.pos, tok.end)
            return
        if text == "\\langle":
            cur.take()
            inner, close = self._until_close(cur, tok, "\\rangle")
            self._inner_product(inner, tok, close, em, cur)
            return
        if text in ("\\frac", "\\dfrac", "\\tfrac", "\\cfrac"):
            self._frac(cur, em)
            return
        if text == "\\sqrt":
            self._sqrt(cur, em)
            return
        if text == "\\exp":
            self._exp(cur, em)
            return
        if text == "\\sum":
            self._sum(cur, em)
            return
        if text == "\\infty":
            cur.take()
            em.put("\\infty", tok.pos, tok.end)
            return
        if text in _FONT:
            self._font(cur, em)
            return
        if text in _BOLD or tok.kind == "letter" or text == "\\ell":
            if tok.kind == "letter" and self._softmax_letters(cur, em):
                return
            if text == "e" and _is(cur.peek(1), "^"):
                self._e_power(cur, em)
                return
            self._name(cur, em)
            return
        if text in ("^", "_", "'"):
            raise TranslateError(f"'{text}' has nothing to attach to", tok.pos, tok.end)
        if text in ("\\top", "\\intercal", "\\mathsf"):
            raise TranslateError(f"{text} belongs in a superscript, as in K^{{{text}}}",
                                 tok.pos, tok.end)
        if text in ("=", ":", "\\coloneqq", "\\equiv"):
            raise TranslateError("'=' inside brackets; symrow compares whole sides of '='",
                                 tok.pos, tok.end)
        if text in (",", ";"):
            raise TranslateError(f"unexpected '{text}'", tok.pos, tok.end)
        if text in _UNSUPPORTED:
            raise TranslateError(_UNSUPPORTED[text], tok.pos, tok.end)
        if tok.kind == "cmd":
            raise TranslateError(f"{text} is not supported here", tok.pos, tok.end)
        raise TranslateError(f"unexpected {text!r}", tok.pos, tok.end)

    # -- brackets -----------------------------------------------------------------
    def _until_close(self, cur: _Cursor, opener: Token, close_text: str):
        """Nodes up to the matching closer (same node level); the closer is consumed."""
        depth = 0
        start = cur.i
        open_text = opener.text
        while not cur.at_end():
            node = cur.take()
            if isinstance(node, Token):
                if node.text == open_text and open_text != close_text:
                    depth += 1
                elif node.text == close_text:
                    if depth == 0:
                        return cur.nodes[start:cur.i - 1], node
                    depth -= 1
        raise TranslateError(f"'{open_text}' is never closed by '{close_text}'",
                             opener.pos, opener.end)

    def _left(self, cur: _Cursor, em: _Emitter) -> None:
        left = cur.take()
        delim = cur.take()
        if delim is None or not isinstance(delim, Token):
            raise TranslateError("\\left must be followed by a bracket", left.pos, left.end)
        depth = 0
        start = cur.i
        while not cur.at_end():
            node = cur.take()
            if _is(node, "\\left"):
                depth += 1
            elif _is(node, "\\right"):
                if depth == 0:
                    right_delim = cur.take()
                    if right_delim is None or not isinstance(right_delim, Token):
                        raise TranslateError("\\right must be followed by a bracket",
                                             node.pos, node.end)
                    inner = cur.nodes[start:cur.i - 2]
                    break
                depth -= 1
        else:
            raise TranslateError("\\left is never closed by \\right", left.pos, left.end)
        if delim.text == "\\langle":
            self._inner_product(inner, left, right_delim, em, cur)
        elif delim.text in ("(", "[", ".", "\\lbrack", "\\lgroup"):
            self._grouped(inner, left.pos, right_delim.end, em, cur)
        else:
            raise TranslateError(f"\\left{delim.text} is not supported; use ( ) or [ ]",
                                 left.pos, delim.end)

    def _sub(self, nodes: list, pos: int, end: int, em: _Emitter,
             build=None) -> None:
        """Translate ``nodes`` as their own unit and emit one placeholder for it.

        The parser then only ever sees one flat level: ``\\frac{a}{b}``,
        ``e^{a}``, ``a b + c``.  Flat texts are short and repeat (every
        fraction reads ``\\frac{a}{b}``), so parsing is fast and cached.  A
        lone number or name is emitted in place instead.
        """
        sub = _Emitter()
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise TranslateError(f"brackets are nested more than {MAX_NESTING} deep here",
                                 pos, end)
        try:
            if build is None:
                self._expr(_Cursor(nodes, pos, end), sub, stop=None)
            else:
                build(sub)
        finally:
            self._depth -= 1
        if not sub.pieces:
            raise TranslateError("there is nothing here", pos, end)
        if len(sub.pieces) == 1:
            text, atom, p, e = sub.pieces[0]
            if atom is not None:
                em.atom(atom, p, e)
            else:
                em.put(text, p, e)
            return
        unit = sub.unit(pos, end)
        em.atom(Atom("sub", cells=((unit,),), ident=next(self._ids)), pos, end)

    def _grouped(self, inner: list, pos: int, end: int, em: _Emitter, cur: _Cursor) -> None:
        """``( ... )``: its own unit, so the parser can neither regroup nor call it."""
        if not [n for n in inner if not _is(n, *_SPACING)]:
            raise TranslateError("empty brackets", pos, end)
        self._sub(inner, pos, end, em)
        self._postfix(cur, em, simple=False)

    def _inner_product(self, inner: list, opener: Token, closer: Token, em: _Emitter,
                       cur: _Cursor) -> None:
        parts: list[list] = [[]]
        depth = 0
        for node in inner:
            if isinstance(node, Token):
                if node.text in ("(", "[", "\\langle", "\\left"):
                    depth += 1
                elif node.text in (")", "]", "\\rangle", "\\right"):
                    depth -= 1
                elif node.text == "," and depth == 0:
                    parts.append([])
                    continue
            parts[-1].append(node)
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TranslateError("\\langle x, y \\rangle needs two vectors separated by a "
                                 "comma", opener.pos, closer.end)

        def build(sub: _Emitter) -> None:
            self._sub(parts[0], parts[0][0].pos, parts[0][-1].end, sub)
            sub.put("\\cdot", opener.pos, closer.end)
            self._sub(parts[1], parts[1][0].pos, parts[1][-1].end, sub)

        self._sub([], opener.pos, closer.end, em, build=build)
        self._postfix(cur, em, simple=False)

    # -- scripts --------------------------------------------------------------------
    def _script_arg(self, cur: _Cursor, script: Token) -> list:
        """The argument of ``^`` or ``_``: a group's nodes, or one token (with its group)."""
        node = cur.take()
        if node is None or _is(node, "^", "_"):
            raise TranslateError(f"'{script.text}' needs something after it",
                                 script.pos, script.end)
        if isinstance(node, Token) and node.kind == "num" and len(node.text) > 1:
            raise TranslateError(f"write {script.text}{{{node.text}}} with braces: without "
                                 f"them LaTeX takes only the first digit, "
                                 f"{script.text}{node.text[0]}", script.pos, node.end)
        if isinstance(node, Token) and node.kind == "cmd" and (
                node.text in _FONT or node.text in _BOLD):
            nxt = cur.peek()
            if isinstance(nxt, Group) or (isinstance(nxt, Token) and nxt.kind == "letter"):
                return [node, cur.take()]      # ^{\mathsf{T}}, ^\mathsf T
        return _arg_nodes(node)

    def _scripts(self, cur: _Cursor) -> tuple[list | None, list | None, int, tuple]:
        """Read ``_x``, ``^y`` and primes after a head; return (sub, sup, primes, span)."""
        sub = sup = None
        primes = 0
        first = cur.here()
        last_end = first[0]
        while True:
            node = cur.peek()
            if _is(node, "_"):
                cur.take()
                if sub is not None:
                    raise TranslateError("a second subscript; put all indices in one "
                                         "pair of braces, as in a_{12}", node.pos, node.end)
                sub = self._script_arg(cur, node)
                last_end = cur.nodes[cur.i - 1].end
            elif _is(node, "^"):
                cur.take()
                if sup is not None:
                    raise TranslateError("a second superscript; use braces, as in "
                                         "(K^{T})^{2}", node.pos, node.end)
                sup = self._script_arg(cur, node)
                last_end = cur.nodes[cur.i - 1].end
            elif _is(node, "'"):
                cur.take()
                primes += 1
                last_end = node.end
            else:
                break
        return sub, sup, primes, (first[0], last_end)

    def _is_transpose(self, sup: list) -> bool:
        text = _plain(sup).replace("{", "").replace("}", "")
        return text in _TRANSPOSE_WORDS

    def _postfix(self, cur: _Cursor, em: _Emitter, simple: bool) -> bool:
        """Scripts after a number, a bracket, a matrix or softmax(...); True if any."""
        node = cur.peek()
        if not (_is(node, "^", "_", "'")):
            return False
        sub, sup, primes, (pos, end) = self._scripts(cur)
        if sub is not None:
            if simple:
                raise TranslateError("a subscript on a number", pos, end)
            items = self._index_items(sub, pos, end, single=False)
            kind = "entry" if len(items) == 2 else "row"
            if len(items) not in (1, 2):
                raise TranslateError("(X)_{...} takes one index (a row) or two (an entry)",
                                     pos, end)
            self._marker(em, kind, items, pos, end)
        if sup is not None:
            if self._is_transpose(sup):
                self._marker(em, "T", (), pos, end)
            else:
                self._power(sup, em, pos, end)
        for _ in range(primes):
            self._marker(em, "T", (), pos, end)
        return True

    def _marker(self, em: _Emitter, kind: str, items: tuple, pos: int, end: int) -> None:
        em.brace_last()
        em.put("^{", pos, end)
        em.atom(Atom("marker", kind, items), pos, end)
        em.put("}", pos, end)

    def _power(self, sup: list, em: _Emitter, pos: int, end: int) -> None:
        em.brace_last()
        em.put("^{", pos, end)
        self._sub(sup, pos, end, em)
        em.put("}", pos, end)

    # -- names ------------------------------------------------------------------------
    def _head(self, cur: _Cursor) -> tuple[str, bool, list | None, int, int]:
        """Read a name's head: (letter, bold, inner subscript, pos, end)."""
        tok = cur.take()
        if tok.text == "\\ell":
            return "ell", False, None, tok.pos, tok.end
        if tok.kind == "letter":
            return tok.text, False, None, tok.pos, tok.end
        arg = cur.take()
        if arg is None:
            raise TranslateError(f"{tok.text} needs a letter after it", tok.pos, tok.end)
        nodes = _arg_nodes(arg)
        nodes = [n for n in nodes if not _is(n, *_SPACING)]
        inner_sub = None
        if len(nodes) >= 3 and _is(nodes[1], "_"):
            inner_sub = _arg_nodes(nodes[2]) if len(nodes) == 3 else None
            if inner_sub is None:
                raise TranslateError(f"cannot read the name in {tok.text}{{...}}",
                                     tok.pos, arg.end)
            nodes = nodes[:1]
        if len(nodes) != 1 or not isinstance(nodes[0], Token) or not (
                nodes[0].kind == "letter" or nodes[0].text == "\\ell"):
            raise TranslateError(f"{tok.text}{{...}} must hold one letter, as in "
                                 f"{tok.text}{{a}}_1", tok.pos, arg.end)
        letter = "ell" if nodes[0].text == "\\ell" else nodes[0].text
        return letter, tok.text in _BOLD, inner_sub, tok.pos, arg.end

    def _font(self, cur: _Cursor, em: _Emitter) -> None:
        tok = cur.peek()
        if tok.text == "\\operatorname" and _is(cur.peek(1), "*"):
            cur.take()                      # \operatorname*{...}: the star only moves limits
            cur.nodes = cur.nodes[:cur.i] + [tok] + cur.nodes[cur.i + 1:]
            tok = cur.peek()
        arg = cur.peek(1)
        text = _plain(_arg_nodes(arg)) if arg is not None else ""
        if tok.text == "\\mathop" and isinstance(arg, Group):
            inner = [n for n in arg.children]
            if len(inner) == 2 and _is(inner[0], *_FONT):
                text = _plain(_arg_nodes(inner[1]))
        if text.lower() in ("softmax", "soft\\,max"):
            cur.take()
            cur.take()
            self._softmax(cur, em, tok.pos, arg.end)
            return
        if isinstance(arg, Group) and len(arg.children) == 1 and isinstance(
                arg.children[0], Token) and arg.children[0].kind == "letter" and \
                tok.text not in ("\\text", "\\textrm", "\\textit", "\\textnormal"):
            self._name(cur, em)
            return
        if arg is None:
            raise TranslateError(f"{tok.text} needs an argument", tok.pos, tok.end)
        raise TranslateError(f"{tok.text}{{{text or '...'}}} is not supported here; the "
                             f"functions symrow knows are softmax, \\exp and \\sqrt",
                             tok.pos, arg.end)

    def _softmax_letters(self, cur: _Cursor, em: _Emitter) -> bool:
        """``softmax(...)`` typed as plain letters."""
        word = []
        for k in range(7):
            node = cur.peek(k)
            if not isinstance(node, Token) or node.kind != "letter":
                return False
            if k and node.pos != word[-1].end:
                return False
            word.append(node)
        if "".join(t.text for t in word).lower() != "softmax":
            return False
        nxt = cur.peek(7)
        if isinstance(nxt, Token) and nxt.kind == "letter" and nxt.pos == word[-1].end:
            return False
        for _ in range(7):
            cur.take()
        return self._softmax(cur, em, word[0].pos, word[-1].end)

    def _softmax(self, cur: _Cursor, em: _Emitter, pos: int, end: int) -> bool:
        got = self._bracket_arg(cur, "softmax", pos, end)
        if got is None:
            raise TranslateError("softmax needs its argument in brackets, as in "
                                 "\\operatorname{softmax}(S)", pos, end)
        inner, a, b = got
        if not [n for n in inner if not _is(n, *_SPACING)]:
            raise TranslateError("softmax of nothing", a, b)
        self._sub(inner, a, b, em)
        self._marker(em, "softmax", (), pos, end)
        self._postfix(cur, em, simple=False)
        return True

    def _e_power(self, cur: _Cursor, em: _Emitter) -> None:
        e = cur.take()
        caret = cur.take()
        arg = self._script_arg(cur, caret)
        em.put("e^{", e.pos, e.end)
        self._sub(arg, caret.pos, cur.nodes[cur.i - 1].end, em)
        em.put("}", e.pos, e.end)
        if _is(cur.peek(), "^", "_", "'"):
            node = cur.peek()
            raise TranslateError("a script after e^{...}; put e^{...} in brackets first",
                                 node.pos, node.end)

    def _name(self, cur: _Cursor, em: _Emitter) -> None:
        letter, bold, inner_sub, pos, end = self._head(cur)
        head_end = end
        sub, sup, primes, (_, send) = self._scripts(cur)
        if inner_sub is not None:
            if sub is not None:
                raise TranslateError("two subscripts on one name", pos, send)
            sub = inner_sub
        end = max(end, send)
        if letter == "e" and sub is None and not bold:
            # Euler's number, written bare
            em.put("\\exp\\left(1\\right)", pos, end)
            self._name_scripts(None, sup, primes, em, pos, end)
            return
        shown = self.src.text[pos:head_end]
        if sub is not None:
            shown += "_" + (_plain(sub) if len(sub) == 1 else "{" + _plain(sub) + "}")
        atom, sup = self._resolve(letter, bold, sub, sup, pos, end, shown)
        em.atom(atom, pos, end)
        self._name_scripts(atom, sup, primes, em, pos, end)

    def _name_scripts(self, atom, sup, primes, em, pos, end) -> None:
        if sup is not None:
            if self._is_transpose(sup):
                self._marker(em, "T", (), pos, end)
            else:
                self._power(sup, em, pos, end)
        for _ in range(primes):
            self._marker(em, "T", (), pos, end)

    def _resolve(self, letter: str, bold: bool, sub, sup, pos: int, end: int, shown: str):
        """The atom a name stands for; returns (atom, superscript left to apply)."""
        ref = self.ref
        # sizes: m, n, d, \ell, d_k, d_v
        if not bold:
            size = None
            if sub is None and letter in ref.sizes:
                size = letter
            elif sub is not None and letter == "d":
                word = _plain(sub)
                alias = {"k": "d", "{k}": "d", "v": "d_v", "{v}": "d_v", "q": "d",
                         "{q}": "d"}.get(word)
                if alias in ref.sizes:
                    size = alias
            if size is not None:
                return Atom("size", size), sup
        if letter == "ell":
            raise TranslateError("\\ell is not a size of this derivation", pos, end)
        tag = ""
        if sup is not None and letter.islower():
            word = _plain(sup).strip("{}")
            if (letter, word) in ref.by_letter:
                tag, sup = word, None
        if letter.islower():
            q = ref.by_letter.get((letter, tag))
            if q is None:
                raise TranslateError(self._unknown(shown), pos, end)
            if sub is None:
                raise TranslateError(
                    f"which row or entry of {q.name}? write \\boldsymbol{{{letter}}}_1 for a "
                    f"row or {letter}_{{11}} for an entry", pos, end)
            items = self._index_items(sub, pos, end, single=bold)
            return self._indexed(q, items, bold, pos, end), sup
        # capitals: a matrix, W_Q style names, heads Q^{(1)}, or entries written Q_{12}
        head = ""
        if sup is not None:
            found = re.match(r"^\{?\((\d{1,3})\)(.*?)\}?$", _plain(sup))
            if found:
                head = f"^({found.group(1)})"
                tail = found.group(2)
                if tail and tail.replace("{", "").replace("}", "") not in _TRANSPOSE_WORDS:
                    raise TranslateError(f"cannot read the superscript of {shown}", pos, end)
                sup = [Token("letter", "T", pos, end)] if tail else None
        if sub is not None:
            word = _plain(sub).strip("{}")
            full = f"{letter}_{word}{head}"
            if full in ref.matrices:
                return Atom("whole", full), sup
        if head:
            full = letter + head
            if full not in ref.matrices:
                raise TranslateError(self._unknown(shown + head), pos, end)
            if sub is None:
                return Atom("whole", full), sup
            q = ref.matrices[full]
            items = self._index_items(sub, pos, end, single=False)
            return self._indexed(q, items, False, pos, end), sup
        q = ref.matrices.get(letter)
        if q is None:
            raise TranslateError(self._unknown(shown), pos, end)
        if sub is None:
            return Atom("whole", q.name), sup
        items = self._index_items(sub, pos, end, single=False)
        return self._indexed(q, items, False, pos, end), sup

    def _indexed(self, q, items: tuple, bold: bool, pos: int, end: int) -> Atom:
        if len(items) == 1:
            self._check_range(q, items[0], q.rows, "row", pos, end)
            return Atom("row", q.name, items)
        if len(items) == 2 and not bold:
            self._check_range(q, items[0], q.rows, "row", pos, end)
            self._check_range(q, items[1], q.cols, "column", pos, end)
            return Atom("entry", q.name, items)
        raise TranslateError(f"{q.name} has rows (one index, as in "
                             f"\\boldsymbol{{{q.letter}}}_1) and entries (two, as in "
                             f"{q.letter}_{{12}}); this has {len(items)}", pos, end)

    def _check_range(self, q, item, bound: int, what: str, pos: int, end: int) -> None:
        if isinstance(item, int) and not 1 <= item <= bound:
            raise TranslateError(f"{q.name} is {q.rows} x {q.cols}, so it has no {what} "
                                 f"{item} (indices start at 1)", pos, end)

    def _unknown(self, shown: str) -> str:
        return (f"unknown name {' '.join(shown.split())!r}: this {self.ref.kind} "
                f"derivation knows {self.ref.known_names()}")

    def _index_items(self, sub: list, pos: int, end: int, single: bool) -> tuple:
        """Indices from a subscript: ``{12}`` -> (1, 2), ``{10,2}``, ``{ij}``, ``{1j}``."""
        toks = [n for n in sub if not _is(n, *_SPACING)]
        if any(not isinstance(t, Token) for t in toks):
            raise TranslateError("cannot read this subscript as indices", pos, end)
        words = [t for t in toks if t.text != ","]
        commas = len(toks) - len(words)
        for t in words:
            if not (t.kind in ("num", "letter") or t.text == "\\ell"):
                if t.text in ("+", "-"):
                    raise TranslateError("index arithmetic such as i+1 is not supported; "
                                         "write the index out", t.pos, t.end)
                raise TranslateError(f"cannot read {t.text!r} as an index", t.pos, t.end)
            if t.kind == "num" and not t.text.isdigit():
                raise TranslateError(f"{t.text} is not an index", t.pos, t.end)
        if not words:
            raise TranslateError("an empty subscript", pos, end)

        def item(t: Token):
            if t.kind == "num":
                return int(t.text)
            return "ell" if t.text == "\\ell" else t.text

        if commas:
            if len(toks) % 2 == 0 or any(t.text == "," for t in toks[0::2]) or any(
                    t.text != "," for t in toks[1::2]):
                raise TranslateError("cannot read this subscript: write a_{10,2}", pos, end)
            return tuple(item(t) for t in words)
        if single:
            if len(words) != 1:
                raise TranslateError("a row vector takes one index, as in "
                                     "\\boldsymbol{a}_{1}", pos, end)
            return (item(words[0]),)
        if len(words) == 1 and words[0].kind == "num":
            digits = words[0].text
            if len(digits) == 1:
                return (int(digits),)
            if len(digits) == 2:
                return (int(digits[0]), int(digits[1]))
            raise TranslateError(f"cannot tell where the row index ends in {digits}; write "
                                 f"it with a comma, as in a_{{{digits[:-1]},{digits[-1]}}}",
                                 words[0].pos, words[0].end)
        return tuple(item(t) for t in words)

    # -- functions ----------------------------------------------------------------
    def _one_arg(self, cur: _Cursor, cmd: Token) -> tuple[list, int, int]:
        node = cur.take()
        while _is(node, *_SPACING):
            node = cur.take()
        if node is None:
            raise TranslateError(f"{cmd.text} needs an argument", cmd.pos, cmd.end)
        if isinstance(node, Group):
            return node.children, node.pos, node.end
        if isinstance(node, Token) and node.kind in ("num", "letter"):
            return [node], node.pos, node.end
        if isinstance(node, Token) and node.kind == "cmd" and (
                node.text in _BOLD or node.text in _FONT) and isinstance(cur.peek(), Group):
            group = cur.take()
            return [node, group], node.pos, group.end
        raise TranslateError(f"{cmd.text} needs its argument in braces", node.pos, node.end)

    def _frac(self, cur: _Cursor, em: _Emitter) -> None:
        cmd = cur.take()
        nxt = cur.peek()
        if isinstance(nxt, Token) and nxt.kind == "num" and len(nxt.text) >= 2 and \
                nxt.text.isdigit():
            cur.take()
            if len(nxt.text) != 2:
                raise TranslateError("write \\frac{..}{..} with braces", nxt.pos, nxt.end)
            em.put("\\frac{%s}{%s}" % (nxt.text[0], nxt.text[1]), cmd.pos, nxt.end)
            return
        top, a, b = self._one_arg(cur, cmd)
        bottom, c, d = self._one_arg(cur, cmd)
        if not top or not bottom:
            raise TranslateError("\\frac has an empty part", cmd.pos, d)
        em.put("\\frac{", cmd.pos, cmd.end)
        self._sub(top, a, b, em)
        em.put("}{", c, d)
        self._sub(bottom, c, d, em)
        em.put("}", d - 1, d)
        if _is(cur.peek(), "^", "_", "'"):
            node = cur.peek()
            raise TranslateError("a script right after \\frac{..}{..}; put the fraction in "
                                 "brackets first", node.pos, node.end)

    def _sqrt(self, cur: _Cursor, em: _Emitter) -> None:
        cmd = cur.take()
        root = None
        if _is(cur.peek(), "["):
            opener = cur.take()
            root, close = self._until_close(cur, opener, "]")
            if not root:
                raise TranslateError("\\sqrt[]{...} has an empty root", opener.pos, close.end)
        arg, a, b = self._one_arg(cur, cmd)
        if not arg:
            raise TranslateError("\\sqrt of nothing", cmd.pos, b)
        if root is not None:
            em.put("\\sqrt[", cmd.pos, cmd.end)
            self._sub(root, cmd.pos, cmd.end, em)
            em.put("]{", a, b)
        else:
            em.put("\\sqrt{", cmd.pos, cmd.end)
        self._sub(arg, a, b, em)
        em.put("}", b - 1, b)
        if _is(cur.peek(), "^", "_", "'"):
            node = cur.peek()
            raise TranslateError("a script right after \\sqrt{..}; put it in brackets first",
                                 node.pos, node.end)

    def _bracket_arg(self, cur: _Cursor, what: str, pos: int, end: int):
        """A function's argument: ``{...}``, ``(...)``, ``[...]`` or ``\\left( ... \\right)``."""
        while _is(cur.peek(), *_SPACING) or _is(cur.peek(), *_SIZES):
            cur.take()
        node = cur.peek()
        if _is(node, "_", "^"):
            raise TranslateError(f"{what} takes no sub- or superscript here", node.pos,
                                 node.end)
        if isinstance(node, Group):
            cur.take()
            return node.children, node.pos, node.end
        if _is(node, "\\left"):
            left = cur.take()
            delim = cur.take()
            if not _is(delim, "(", "[", "\\lbrack"):
                raise TranslateError(f"{what} needs its argument in ( )", left.pos, left.end)
            depth, start = 0, cur.i
            while True:
                n = cur.take()
                if n is None:
                    raise TranslateError("\\left is never closed by \\right", left.pos,
                                         left.end)
                if _is(n, "\\left"):
                    depth += 1
                elif _is(n, "\\right"):
                    if depth == 0:
                        close = cur.take()
                        if close is None:
                            raise TranslateError("\\right must be followed by a bracket",
                                                 n.pos, n.end)
                        return cur.nodes[start:cur.i - 2], left.pos, close.end
                    depth -= 1
        if _is(node, "(", "[", "\\lbrack"):
            opener = cur.take()
            inner, close = self._until_close(cur, opener, _OPEN[opener.text])
            return inner, opener.pos, close.end
        return None

    def _exp(self, cur: _Cursor, em: _Emitter) -> None:
        cmd = cur.take()
        got = self._bracket_arg(cur, "\\exp", cmd.pos, cmd.end)
        if got is None:
            node = cur.peek()
            if node is None:
                raise TranslateError("\\exp needs an argument", cmd.pos, cmd.end)
            # \exp x: the next factor alone
            sub_start = cur.i
            self._primary(cur, _Emitter())
            got = cur.nodes[sub_start:cur.i], node.pos, cur.nodes[cur.i - 1].end
        inner, a, b = got
        if not [n for n in inner if not _is(n, *_SPACING)]:
            raise TranslateError("\\exp of nothing", a, b)
        em.put("e^{", cmd.pos, cmd.end)
        self._sub(inner, a, b, em)
        em.put("}", b - 1, b)
        if _is(cur.peek(), "^", "_", "'"):
            node = cur.peek()
            raise TranslateError("a script right after \\exp(...); put it in brackets first",
                                 node.pos, node.end)

    def _sum(self, cur: _Cursor, em: _Emitter) -> None:
        cmd = cur.take()
        while _is(cur.peek(), "\\limits", "\\nolimits", *_SPACING):
            cur.take()
        sub, sup, primes, (pos, end) = self._scripts(cur)
        if primes:
            raise TranslateError("a prime on \\sum", cmd.pos, end)
        if sub is None:
            raise TranslateError("\\sum needs its index, as in \\sum_{j=1}^{3} or \\sum_j",
                                 cmd.pos, cmd.end)
        toks = [n for n in sub if not _is(n, *_SPACING)]
        if not toks or not isinstance(toks[0], Token) or toks[0].kind != "letter":
            raise TranslateError("\\sum needs an index letter, as in \\sum_{j=1}^{3}",
                                 cmd.pos, end)
        var = toks[0].text
        lower = None
        if len(toks) > 1:
            if not _is(toks[1], "=") or len(toks) < 3:
                raise TranslateError("write the sum's range as \\sum_{j=1}^{3}", cmd.pos, end)
            lower = toks[2:]
        em.put("\\sum_{", cmd.pos, cmd.end)
        em.atom(Atom("bound", var), toks[0].pos, toks[0].end)
        em.put("=", toks[0].pos, toks[0].end)
        if lower is None:
            em.put("1", cmd.pos, cmd.end)
        else:
            self._bound(lower, em, pos, end)
        em.put("}^{", cmd.pos, cmd.end)
        if sup is None:
            em.atom(Atom("auto", var), cmd.pos, end)
        else:
            self._bound(sup, em, pos, end)
        em.put("}", cmd.pos, end)
        if cur.at_end():
            raise TranslateError("\\sum has nothing to add up", cmd.pos, end)

    def _bound(self, nodes: list, em: _Emitter, pos: int, end: int) -> None:
        """A sum bound: numbers, sizes and index letters joined by + and -."""
        expect = True
        for node in nodes:
            if _is(node, *_SPACING):
                continue
            if not isinstance(node, Token):
                raise TranslateError("a sum bound must be a number, a size or an index, as "
                                     "in \\sum_{j=1}^{n}", node.pos, node.end)
            if node.text in ("+", "-"):
                em.put(node.text, node.pos, node.end)
                expect = True
                continue
            if not expect:
                raise TranslateError("cannot read this sum bound", node.pos, node.end)
            if node.kind == "num" and node.text.isdigit() and len(node.text) <= 6:
                em.put(node.text, node.pos, node.end)
            elif node.kind == "letter" or node.text == "\\ell":
                name = "ell" if node.text == "\\ell" else node.text
                if name in self.ref.sizes:
                    em.atom(Atom("size", name), node.pos, node.end)
                else:
                    em.atom(Atom("index", name), node.pos, node.end)
            else:
                raise TranslateError("a sum bound must be a number, a size or an index",
                                     node.pos, node.end)
            expect = False
        if expect:
            raise TranslateError("an empty or unfinished sum bound", pos, end)

    # -- explicit matrices ----------------------------------------------------------
    def _matrix(self, env: Env, em: _Emitter, cur: _Cursor) -> None:
        if env.name not in MATRIX_ENVS:
            raise TranslateError(f"the environment {env.name} is not supported here; "
                                 f"write matrices with bmatrix or pmatrix", env.pos,
                                 env.begin.end)
        rows: list[list[list]] = [[[]]]
        for node in env.children:
            if isinstance(node, Token) and node.kind == "rowsep":
                rows.append([[]])
            elif _is(node, "&"):
                rows[-1].append([])
            elif _is(node, "\\hline"):
                continue
            else:
                rows[-1][-1].append(node)
        if rows and all(not cell for cell in rows[-1]) and len(rows) > 1:
            rows.pop()       # a trailing \\ before \end
        limit = self.ref.max_dim
        if len(rows) > limit or max(len(r) for r in rows) > limit:
            raise TranslateError(f"this matrix is larger than {limit} x {limit}", env.pos,
                                 env.begin.end)
        width = len(rows[0])
        units = []
        for r, row in enumerate(rows):
            if len(row) != width:
                first = next((c[0] for c in row if c), None)
                where = (first.pos, first.end) if first is not None else (env.pos, env.end)
                raise TranslateError(f"row {r + 1} of this matrix has {len(row)} entries, "
                                     f"row 1 has {width}", *where)
            cells = []
            for c, cell in enumerate(row):
                content = [n for n in cell if not _is(n, *_SPACING)]
                if not content:
                    raise TranslateError(f"entry ({r + 1}, {c + 1}) of this matrix is empty",
                                         env.pos, env.begin.end)
                self.cells_total += 1
                if self.cells_total > 20000:
                    raise TranslateError("too many matrix entries in one input", env.pos,
                                         env.begin.end)
                cells.append(self.unit(content, content[0].pos, content[-1].end))
            units.append(tuple(cells))
        atom = Atom("matrix", env.name, (len(rows), width), cells=tuple(units),
                    ident=next(self._ids))
        em.atom(atom, env.pos, env.end)
        self._postfix(cur, em, simple=False)


def translate_text(text: str, ref) -> Unit:
    """Translate one expression given as text (for tests and examples)."""
    src = Source(text)
    nodes = build_tree(tokenize(text), src)
    tr = Translator(ref, src)
    return tr.unit(nodes, 0, len(text))
