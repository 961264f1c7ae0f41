"""Translate one side of an ``=`` into text latex2sympy2 parses well.

The user's LaTeX never reaches the parser.  The translator reads it token by
token and writes a small, regular language instead: every name the
derivation knows (``Q``, ``\\boldsymbol{k}_2``, ``s_{12}``, ``d``) becomes a
one-letter *placeholder* whose meaning is kept in a table; every construct
the parser gets wrong is rewritten or rejected here, with the line and
column of the offending token:

* every bracketed or braced part (a group, the top and bottom of a
  fraction, an exponent, a function's argument, each cell of a matrix) is
  translated as a unit of its own and named in its parent by one
  placeholder: the parser sees one flat level at a time (``\\frac{a}{b}``,
  ``e^{a}``, ``a b + c``), cannot regroup a product, and parses quickly,
  because such short texts repeat and are cached;
* transposes in every spelling (``^T ^{T} ^\\top ^{\\top} ^\\mathsf{T}
  ^\\intercal '``), ``softmax(...)`` and ``(X)_{ij}`` become ``{a}^{b}``
  with a placeholder *marker* ``b`` as the exponent, which the evaluator
  applies (the parser drops ``^T``);
* placeholders are plain symbols and the parser keeps the order of factors,
  so ``QK^T`` stays a product of matrices in that order (the evaluator, not
  the parser, multiplies them);
* ``e_1`` is a name (or an error), never Euler's number; a bare ``d`` is the
  size ``d``, never a differential; ``(`` after a name never makes a
  function call, because a bracket becomes a placeholder;
* spacing (``\\, \\; \\! \\quad``), ``\\left``/``\\right`` and ``\\big``-style
  sizes are dropped; ``\\cdots``, relations other than ``=`` and unknown
  commands are refused with their position.

Names are read by :mod:`.names`, functions, sums and matrices by
:mod:`.constructs`, cases and extrema by :mod:`.layouts`, elided sums and matrices by
:mod:`.patterns`; the vocabulary is in :mod:`symrow.reader.vocab`.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> unit = translate_text(r"\\boldsymbol{a}_1 B^{\\top} + c_{12}", ref)
>>> unit.text
'a {b} ^{ c } + f'
>>> [(k, a.kind, a.name, a.items) for k, a in sorted(unit.atoms.items())]
[('a', 'row', 'A', (1,)), ('b', 'whole', 'B', ()), ('c', 'marker', 'T', ()), ('f', 'entry', 'C', (1, 2))]
"""

from __future__ import annotations

import itertools

from .. import vocab as V
from .constructs import ConstructReader
from ..lexer import Env, Group, Source, Token, build_tree, tokenize

#: environments that set one expression on several rows, read inside an
#: expression as that expression (symrow's own long fractions use gathered)
_ROW_ENVS = frozenset({"gathered", "aligned", "split", "multlined"})
from .names import NameReader
from .superscripts import index_letters_of
from .layouts import NotationReader
from .patterns import PatternReader
from .units import Atom, Cursor, Emitter, TranslateError, Unit, arg_nodes, is_token, plain, \
    shape_sides, size_side

__all__ = ["Atom", "Unit", "TranslateError", "Translator", "translate_text", "MAX_NESTING"]

#: style switches that may stand inside a superscript
_STYLES = ("\\scriptscriptstyle", "\\scriptstyle", "\\rm", "\\sf")

#: the deepest nesting of brackets, fractions and exponents the translator reads
MAX_NESTING = 40
#: the most terms one flat sum may have (the parser needs deep recursion beyond that)
MAX_FLAT_TERMS = 1000


class Translator(NameReader, ConstructReader, NotationReader, PatternReader):
    """Translate member node lists into :class:`Unit` objects for one reference."""

    def __init__(self, ref, src: Source):
        #: inside (c^T)_{jq}: a lowercase letter may stand for its whole matrix
        self.whole_inside = False
        self.ref = ref
        self.src = src
        self._ids = itertools.count(1)
        self.cells_total = 0
        self._depth = 0
        #: lowercase letters read as a whole matrix (x for X), for the report's notes
        self.lowercase_wholes: set = set()
        #: the variables of a function's definition, ReLU(x) = max(0, x), and their shapes
        #: (None for a number): values of their own, not the derivation's matrices (see
        #: :meth:`~.run._Run.function_definition`)
        self.dummies: dict = {}
        #: softmax(x_i) read as softmax(x)_i: (where, x_i, softmax(x)_i), for the report
        self.softmax_shorthands: set = set()
        #: read an unknown e_{...} as the power e^{...} (see :meth:`_subscripted_e`)
        self.subscript_e = False
        #: how many powers e^{...} were read as written, for :attr:`Unit.e_powers`
        self.e_powers = 0


    # -- entry points -------------------------------------------------------
    def unit(self, nodes: list, pos: int, end: int) -> Unit:
        em = Emitter()
        cur = Cursor(nodes, pos, end)
        powers = self.e_powers
        self._expr(cur, em, stop=None)
        if not em.parts:
            raise TranslateError("there is nothing here", pos, end)
        unit = em.unit(pos, end)
        unit.e_powers = self.e_powers - powers
        return unit

    # -- expressions ----------------------------------------------------------
    def _expr(self, cur: Cursor, em: Emitter, stop) -> None:
        """Emit nodes until the cursor ends (or a token in ``stop``)."""
        if self._has_dots(cur, stop):
            self._elided_sum(cur, em, stop)
            return
        expect_operand = True
        terms = 0
        while not cur.at_end():
            node = cur.peek()
            if stop is not None and isinstance(node, Token) and node.text in stop:
                break
            if isinstance(node, Token):
                text = node.text
                if text in V.SPACING or text in V.SIZES:
                    cur.take()      # \bigl( is just (
                    continue
                if text in V.SPACE_WITH_ARG:
                    cur.take()
                    if isinstance(cur.peek(), Group):
                        cur.take()
                    continue
                if text in ("+", "-"):
                    cur.take()
                    em.put(text, node.pos, node.end)
                    expect_operand = True
                    terms += 1
                    if terms > MAX_FLAT_TERMS:
                        raise TranslateError(
                            f"this expression is too long: more than {MAX_FLAT_TERMS} terms "
                            f"in one sum; split it into several steps", cur.pos, cur.end)
                    continue
                if text in ("\\odot", "\\circ") or (
                        text in ("*", "\\ast") and getattr(self.ref, "star_entrywise", False)):
                    # A \odot B: the factor on the left is marked, and the evaluator
                    # multiplies it by what follows entry by entry (so is A * B on a page
                    # that says its * is the element-wise product)
                    cur.take()
                    if expect_operand:
                        raise TranslateError(f"'{text}' needs something on its left",
                                             node.pos, node.end)
                    self._marker(em, "odot", (), node.pos, node.end)
                    em.put("\\cdot", node.pos, node.end)
                    expect_operand = True
                    continue
                if text in V.MUL or text in V.DIV:
                    cur.take()
                    if expect_operand:
                        raise TranslateError(f"'{text}' needs something on its left",
                                             node.pos, node.end)
                    em.put("\\cdot" if text in V.MUL else "/", node.pos, node.end)
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

    def _primary(self, cur: Cursor, em: Emitter) -> None:
        node = cur.peek()
        if isinstance(node, Group) and is_token(cur.peek(1), "'") and \
                self._function_word(node.children):
            # {\operatorname{ReLU}}'(H), as symrow writes a derivative: the braces only
            # hold the name for its prime
            cur.nodes = cur.nodes[:cur.i] + list(node.children) + cur.nodes[cur.i + 1:]
            node = cur.peek()
        if isinstance(node, Group):
            cur.take()
            if not node.children:
                raise TranslateError("empty braces", node.pos, node.end)
            self._grouped(node.children, node.pos, node.end, em, cur)
            return
        if isinstance(node, Env):
            cur.take()
            if node.name in ("cases", "dcases", "cases*"):
                self._cases(node, em, cur)
            elif node.name in _ROW_ENVS:
                # one expression set on rows (a long numerator): the rows join up
                # again, and a row's empty {} (which spaces its leading +) goes
                parts = [n for n in node.children
                         if not (isinstance(n, Token) and (n.kind == "rowsep" or n.text == "&"))
                         and not (isinstance(n, Group) and not n.children)]
                if not parts:
                    raise TranslateError(f"the environment {node.name} is empty", node.pos,
                                         node.end)
                self._grouped(parts, node.pos, node.end, em, cur)
            else:
                self._matrix(node, em, cur)
            return
        tok: Token = node
        text = tok.text
        if text in ("\\mathbb", "\\mathbf", "\\boldsymbol", "\\bm", "1") and \
                self._indicator(cur, em):
            return
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
        if text in V.OPEN:
            cur.take()
            inner, close = self._until_close(cur, tok, V.OPEN[text])
            self._grouped(inner, tok.pos, close.end, em, cur)
            return
        if text in (")", "]", "\\rbrack", "\\rangle", "\\right"):
            raise TranslateError(f"'{text}' closes nothing", tok.pos, tok.end)
        if text == "\\left":
            self._left(cur, em)
            return
        if text in V.SIZES:
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
        if text in V.FRACTIONS:
            self._frac(cur, em)
            return
        if text == "\\sqrt":
            self._sqrt(cur, em)
            return
        if text == "\\exp" and is_token(cur.peek(1), "'"):
            cur.take()             # \exp'(H): the derivative, entry by entry
            self._elementwise(cur, em, "exp'" if self._prime(cur) else "exp", tok.pos,
                              tok.end)
            return
        if text == "\\exp":
            self._exp(cur, em)
            return
        if text == "\\sum":
            self._sum(cur, em)
            return
        if text in ("\\max", "\\min"):
            self._extremum(cur, em)
            return
        if text == "\\infty":
            cur.take()
            em.put("\\infty", tok.pos, tok.end)
            return
        if text == "\\mathbb" and self._special_vector(cur, em):
            return
        if text in ("\\underbrace", "\\overbrace", "\\boxed", "\\underset", "\\overset"):
            self._decorated(cur, em)
            return
        if text in V.FONT:
            self._font(cur, em)
            return
        if text == "\\partial" and self._slash_derivative(cur, em):
            return
        if text == "\\delta" and is_token(cur.peek(1), "_", "^") and \
                not self._greek_name(text) and self._kronecker_scripts(cur):
            self._kronecker(cur, em)       # \delta_{ij}: 1 where i = j, 0 elsewhere
            return
        if text in V.FUNCTION_COMMANDS and is_token(cur.peek(1), "_") and \
                self._greek_name(text):
            self._name(cur, em)        # \sigma_{12}: an entry of Σ, not the sigmoid
            return
        if text in V.FUNCTION_COMMANDS:
            cur.take()
            key = V.FUNCTION_COMMANDS[text]
            self._elementwise(cur, em, key + "'" if self._prime(cur) else key, tok.pos,
                              tok.end)
            return
        constant = "epsilon" if text == "\\varepsilon" else text[1:]
        if tok.kind == "cmd" and constant in self.ref.constants() and \
                not self._greek_name(text):
            # a named scalar of the derivation: LayerNorm's epsilon, Hopfield's beta,
            # APPNP's alpha (symbols of its values, no entry of a quantity)
            cur.take()
            em.atom(Atom("constant", constant), tok.pos, tok.end)
            return
        if text in V.BOLD or text in V.ACCENTS or tok.kind == "letter" or text == "\\ell" \
                or self._greek_name(text):
            if tok.kind == "letter" and (self._softmax_letters(cur, em) or
                                         self._exp_letters(cur, em) or
                                         self._word_heading(cur, em)):
                return
            if text == "e" and is_token(cur.peek(1), "^") and not self._tagged_e(cur):
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
        if text in V.UNSUPPORTED:
            raise TranslateError(V.UNSUPPORTED[text], tok.pos, tok.end)
        if tok.kind == "cmd" and not text[1:].strip():
            raise TranslateError("a backslash before a space or a line break is not "
                                 "supported here", tok.pos, tok.end)
        if tok.kind == "cmd":
            raise TranslateError(f"{text} is not supported here", tok.pos, tok.end)
        raise TranslateError(f"unexpected {text!r}", tok.pos, tok.end)

    def _kronecker_scripts(self, cur: Cursor) -> bool:
        """``\\delta_{ij}``, ``\\delta^j_m`` (one index up, one down), and on a page that
        writes its indices up, ``\\delta^{ij}``: a Kronecker delta."""
        if is_token(cur.peek(1), "_"):
            return True
        arg = cur.peek(2)
        letters = index_letters_of(arg_nodes(arg)) if arg is not None else None
        if letters is None:
            return False                # \delta^2: not a delta's indices
        if is_token(cur.peek(3), "_"):
            return len(letters) == 1
        return len(letters) == 2 and self.scripts.upper

    def _kronecker(self, cur: Cursor, em: Emitter) -> None:
        tok = cur.take()
        sub, sup, primes, (_, end) = self._scripts(cur)
        if primes:
            raise TranslateError("a prime on a Kronecker delta", tok.pos, end)
        if sup is not None and sub is not None:
            # \delta^j_m: one index up and one down, 1 where j = m
            items = self._index_items(sup, tok.pos, end, single=True) + \
                self._index_items(sub, tok.pos, end, single=True)
        else:
            items = self._index_items(sub if sub is not None else sup, tok.pos, end,
                                      single=False)
        if len(items) != 2:
            raise TranslateError("the Kronecker delta takes two indices, as in \\delta_{ij}",
                                 tok.pos, end)
        em.atom(Atom("kronecker", "delta", items), tok.pos, end)

    def _decorated(self, cur: Cursor, em: Emitter) -> None:
        """``\\underbrace{QK^\\top}_{\\text{match}}``, ``\\boxed{x}``,
        ``\\overset{\\text{note}}{x}``: the expression, without its annotation."""
        cmd = cur.take()
        if cmd.text == "\\boxed" and isinstance(cur.peek(), Group) and \
                is_token(cur.peek(1), "\\boxed"):
            raise TranslateError("boxes side by side (\\boxed{2}\\boxed{3}): a row drawn as "
                                 "cells; write it as a matrix, as in \\begin{bmatrix} 2 & 3 "
                                 "\\end{bmatrix}", cmd.pos, cur.peek().end)
        if cmd.text in ("\\underset", "\\overset"):
            note = cur.take()
            if not isinstance(note, Group):
                raise TranslateError(f"{cmd.text} needs {{note}}{{expression}}", cmd.pos,
                                     cmd.end)
        arg = cur.take()
        if not isinstance(arg, Group) or not arg.children:
            raise TranslateError(f"{cmd.text} needs its expression in braces", cmd.pos, cmd.end)
        if cmd.text in ("\\underbrace", "\\overbrace") and is_token(cur.peek(), "_", "^"):
            script = cur.take()
            if cur.take() is None:
                raise TranslateError(f"'{script.text}' needs something after it", script.pos,
                                     script.end)
        self._grouped(arg.children, arg.pos, arg.end, em, cur)

    # -- brackets -----------------------------------------------------------------
    def _until_close(self, cur: Cursor, opener: Token, close_text: str):
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

    def _left(self, cur: Cursor, em: Emitter) -> None:
        left = cur.take()
        delim = cur.take()
        if delim is None or not isinstance(delim, Token):
            raise TranslateError("\\left must be followed by a bracket", left.pos, left.end)
        depth = 0
        start = cur.i
        while not cur.at_end():
            node = cur.take()
            if is_token(node, "\\left"):
                depth += 1
            elif is_token(node, "\\right"):
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

    def _sub(self, nodes: list, pos: int, end: int, em: Emitter,
             build=None) -> None:
        """Translate ``nodes`` as their own unit and emit one placeholder for it.

        The parser then only ever sees one flat level: ``\\frac{a}{b}``,
        ``e^{a}``, ``a b + c``.  Flat texts are short and repeat (every
        fraction reads ``\\frac{a}{b}``), so parsing is fast and cached.  A
        lone number or name is emitted in place instead.
        """
        sub = Emitter()
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise TranslateError(f"brackets are nested more than {MAX_NESTING} deep here",
                                 pos, end)
        try:
            if build is None:
                self._expr(Cursor(nodes, pos, end), sub, stop=None)
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

    def _grouped(self, inner: list, pos: int, end: int, em: Emitter, cur: Cursor) -> None:
        """``( ... )``: its own unit, so the parser can neither regroup nor call it."""
        if not [n for n in inner if not is_token(n, *V.SPACING)]:
            raise TranslateError("empty brackets", pos, end)
        parts = self._arguments(inner, "a row", pos, end)
        if len(parts) > 1:
            # (7, 8, 9), [0, 2, 1], (v_{11}, \cdots, v_{1d}): a row vector, read as the
            # one-row matrix [7 & 8 & 9] (so that dots between entries work as there)
            cells: list = []
            for k, part in enumerate(parts):
                if k:
                    cells.append(Token("sym", "&", part[0].pos, part[0].pos))
                cells.extend(part)
            opener = Token("cmd", "\\begin", pos, pos)
            closer = Token("cmd", "\\end", end, end)
            self._matrix(Env("matrix", opener, cells, closer, end), em, cur)
            return
        entry_of_whole = is_token(cur.peek(), "_") and self._lone_lowercase(inner)
        if entry_of_whole:
            # (c^T)_{jq}: an entry of C^T, the lowercase letter standing for the whole
            self.whole_inside = True
        try:
            self._sub(inner, pos, end, em)
        finally:
            self.whole_inside = False
        self._postfix(cur, em, simple=False)

    def _tagged_e(self, cur: Cursor) -> bool:
        """``e^{i}_{11}``: an entry of E_i, whose tag the derivation writes up (as symrow
        does), not Euler's e to the power i: e with a superscript that tags a matrix
        whose letter is e, and a subscript after it."""
        sup, after = cur.peek(2), cur.peek(3)
        if sup is None or not is_token(after, "_"):
            return False
        tag = plain(sup.children if isinstance(sup, Group) else [sup]).strip()
        return ("e", tag) in self.ref.by_letter

    @staticmethod
    def _function_word(nodes: list) -> bool:
        """Whether ``nodes`` are one function's name in an upright font
        (``\\operatorname{ReLU}``, ``\\mathrm{GELU}``)."""
        from ..notation import lookup_function
        nodes = [n for n in nodes if not is_token(n, *V.SPACING)]
        if len(nodes) != 2 or not is_token(nodes[0], "\\operatorname", "\\mathrm",
                                           "\\text", "\\textrm") or \
                not isinstance(nodes[1], Group):
            return False
        word = plain(nodes[1].children).strip()
        return word.isalpha() and lookup_function(word) is not None

    @staticmethod
    def _lone_lowercase(inner: list) -> bool:
        """Whether ``inner`` is one lowercase letter and a transpose (``c^T``)."""
        nodes = [n for n in inner if not is_token(n, *V.SPACING)]
        return len(nodes) == 3 and isinstance(nodes[0], Token) and \
            nodes[0].kind == "letter" and nodes[0].text.islower() and \
            is_token(nodes[1], "^") and \
            plain([nodes[2]]).strip("{}").strip() in V.TRANSPOSE_WORDS

    def _inner_product(self, inner: list, opener: Token, closer: Token, em: Emitter,
                       cur: Cursor) -> None:
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

        def build(sub: Emitter) -> None:
            self._sub(parts[0], parts[0][0].pos, parts[0][-1].end, sub)
            sub.put("\\cdot", opener.pos, closer.end)
            self._sub(parts[1], parts[1][0].pos, parts[1][-1].end, sub)

        self._sub([], opener.pos, closer.end, em, build=build)
        self._postfix(cur, em, simple=False)

    # -- scripts --------------------------------------------------------------------
    def _script_arg(self, cur: Cursor, script: Token) -> list:
        """The argument of ``^`` or ``_``: a group's nodes, or one token (with its group)."""
        node = cur.take()
        if node is None or is_token(node, "^", "_"):
            raise TranslateError(f"'{script.text}' needs something after it",
                                 script.pos, script.end)
        if isinstance(node, Token) and node.kind == "num" and len(node.text) > 1:
            raise TranslateError(f"write {script.text}{{{node.text}}} with braces: without "
                                 f"them LaTeX takes only the first digit, "
                                 f"{script.text}{node.text[0]}", script.pos, node.end)
        if isinstance(node, Token) and node.kind == "cmd" and (
                node.text in V.FONT or node.text in V.BOLD):
            nxt = cur.peek()
            if isinstance(nxt, Group) or (isinstance(nxt, Token) and nxt.kind == "letter"):
                return [node, cur.take()]      # ^{\mathsf{T}}, ^\mathsf T
        return arg_nodes(node)

    def _scripts(self, cur: Cursor) -> tuple[list | None, list | None, int, tuple]:
        """Read ``_x``, ``^y`` and primes after a head; return (sub, sup, primes, span)."""
        sub = sup = None
        primes = 0
        first = cur.here()
        last_end = first[0]
        while True:
            node = cur.peek()
            if is_token(node, "_"):
                cur.take()
                if sub is not None:
                    raise TranslateError("a second subscript; put all indices in one "
                                         "pair of braces, as in a_{12}", node.pos, node.end)
                sub = self._script_arg(cur, node)
                last_end = cur.nodes[cur.i - 1].end
            elif is_token(node, "^"):
                cur.take()
                if sup is not None:
                    raise TranslateError("a second superscript; use braces, as in "
                                         "(K^{T})^{2}", node.pos, node.end)
                sup = self._script_arg(cur, node)
                last_end = cur.nodes[cur.i - 1].end
            elif is_token(node, "'"):
                cur.take()
                primes += 1
                last_end = node.end
            else:
                break
        return sub, sup, primes, (first[0], last_end)

    def _is_transpose(self, sup: list) -> bool:
        """``^T``, ``^{\\top}``, ``^{\\!\\top}``, ``^{\\scriptscriptstyle T}``,
        ``^{\\mkern-1.5mu\\mathsf{T}}``: spacing and style inside do not matter."""
        nodes = [n for n in sup if not is_token(n, *V.SPACING, *_STYLES)]
        if nodes and is_token(nodes[0], "\\mkern", "\\mskip", "\\kern"):
            k = 1
            while k < len(nodes) and isinstance(nodes[k], Token) and \
                    nodes[k].kind in ("num", "letter", "sym") and nodes[k].text not in "T":
                k += 1
            nodes = nodes[k:]
        text = plain(nodes).replace("{", "").replace("}", "")
        return text in V.TRANSPOSE_WORDS

    def _postfix(self, cur: Cursor, em: Emitter, simple: bool) -> bool:
        """Scripts after a number, a bracket, a matrix or softmax(...); True if any."""
        node = cur.peek()
        if not (is_token(node, "^", "_", "'")):
            return False
        sub, sup, primes, (pos, end) = self._scripts(cur)
        if sub is not None and not simple and any(is_token(n, "\\times") for n in sub):
            # (\nabla_y \ell)_{m \times 1}, \end{bmatrix}_{m \times n}: the shape the page
            # writes under a value, checked against the value
            self._marker(em, "shape", self._shape_items(sub, pos, end), pos, end)
            sub = None
        if sub is not None and not simple and any(is_token(n, ":") for n in sub):
            # (\bar{H})_{:, 1:3}: a block of columns (or rows), as symrow writes the
            # parts of a Concat's gradient
            em.brace_last()
            em.put("^{", pos, end)
            em.atom(Atom("marker", "slice", cells=self._slice(sub, pos, end)), pos, end)
            em.put("}", pos, end)
            sub = None
        if sub is not None:
            if simple:
                raise TranslateError("a subscript on a number", pos, end)
            items = self._index_items(sub, pos, end, single=False)
            kind = "entry" if len(items) == 2 else "row"
            if len(items) not in (1, 2):
                raise TranslateError("(X)_{...} takes one index (a row) or two (an entry)",
                                     pos, end)
            self._marker(em, kind, items, pos, end)
        self._scripts_after(sup, primes, em, pos, end)
        return True

    @staticmethod
    def _slice(sub: list, pos: int, end: int) -> tuple:
        """``:, 1:3`` as ((None, None), (1, 3)): for the rows and the columns, the first
        and last kept (1-based, both kept), None for all."""
        parts: list[list] = [[]]
        for node in sub:
            if is_token(node, ","):
                parts.append([])
            elif not is_token(node, *V.SPACING):
                parts[-1].append(node)
        if len(parts) != 2:
            raise TranslateError("a block is written (X)_{rows, columns}, as in "
                                 "(X)_{:, 1:3}", pos, end)
        out = []
        for part in parts:
            texts = [plain([n]).strip() for n in part]
            if texts == [":"]:
                out.append((None, None))
            elif len(texts) == 3 and texts[1] == ":" and texts[0].isdigit() and \
                    texts[2].isdigit() and 1 <= int(texts[0]) <= int(texts[2]):
                out.append((int(texts[0]), int(texts[2])))
            else:
                raise TranslateError("a block's rows and columns are : (all) or first:last, "
                                     "as in (X)_{:, 1:3}", pos, end)
        return tuple(out)

    def _shape_items(self, sub: list, pos: int, end: int) -> tuple:
        """The two sides of a shape ``m \\times 1``: each a number, or a size the page
        names (``("size", "m")``), which the value's shape is held against."""
        dims = shape_sides(sub)
        if dims is None:
            raise TranslateError("a shape is written rows \\times columns, as in "
                                 "(x^T)_{1 \\times n}", pos, end)
        return tuple(size_side(nodes, pos, end) for nodes in dims)

    def _marker(self, em: Emitter, kind: str, items: tuple, pos: int, end: int) -> None:
        em.brace_last()
        em.put("^{", pos, end)
        em.atom(Atom("marker", kind, items), pos, end)
        em.put("}", pos, end)

    def _power(self, sup: list, em: Emitter, pos: int, end: int) -> None:
        em.brace_last()
        em.put("^{", pos, end)
        self._sub(sup, pos, end, em)
        em.put("}", pos, end)



def translate_text(text: str, ref) -> Unit:
    """Translate one expression given as text (for tests and examples)."""
    src = Source(text)
    nodes = build_tree(tokenize(text), src)
    tr = Translator(ref, src)
    return tr.unit(nodes, 0, len(text))
