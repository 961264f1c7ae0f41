r"""Reading names: ``Q``, ``\boldsymbol{q}_1``, ``q_{12}``, ``W_Q``, ``Q^{(1)}``, sizes.

A mixin of :class:`symrow.checker.translate.Translator`.  A name is a head
(a letter, or a letter in ``\boldsymbol``, ``\mathbf``, ``\bm``, ``\vec``)
with an optional subscript and superscript; it resolves against the
reference to a whole matrix, a row vector (one index), an entry (two
indices) or a size (``m``, ``n``, ``d``, ``d_k``, ``\ell``).  Indices are
digits (``{12}`` is row 1, column 2; ``{10,2}`` needs the comma), index
letters (``{ij}``) or sizes.  Anything else is an error that names what the
derivation knows.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.checker.translate import translate_text
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 10, 2), symrow.vecseq("B", 2, 1)))
>>> [a.items for a in translate_text(r"a_{10,2} + a_{1 2} + a_{10\,1} + c_{i1}", ref).atoms.values()]
[(10, 2), (1, 2), (10, 1), ('i', 1)]
"""

from __future__ import annotations

import re

from . import vocab as V
from .indices import NotIndex, name_at, read_expr
from .lexer import Token
from .units import Atom, Cursor, Emitter, TranslateError, arg_nodes, is_token, plain

__all__ = ["NameReader"]


class NameReader:
    """Mixin: names and their indices."""

    def _head(self, cur: Cursor) -> tuple[str, bool, list | None, int, int]:
        """Read a name's head: (letter, bold, inner subscript, pos, end).

        An accent is part of the letter: ``\\hat{a}`` and ``\\hat{A}`` are read as
        those names, and a bold accented row is ``\\hat{\\boldsymbol{a}}`` or
        ``\\boldsymbol{\\hat{a}}``.
        """
        tok = cur.take()
        if tok.text == "\\ell":
            return "ell", False, None, tok.pos, tok.end
        if tok.kind == "letter":
            return tok.text, False, None, tok.pos, tok.end
        arg = cur.take()
        if arg is None:
            raise TranslateError(f"{tok.text} needs a letter after it", tok.pos, tok.end)
        nodes = arg_nodes(arg)
        nodes = [n for n in nodes if not is_token(n, *V.SPACING)]
        if nodes and isinstance(nodes[0], Token) and (
                (tok.text in V.ACCENTS and nodes[0].text in V.BOLD) or
                (tok.text in V.BOLD and nodes[0].text in V.ACCENTS)):
            # \hat{\boldsymbol{a}} or \boldsymbol{\hat{a}}: read the inner command's name
            inner = Cursor(nodes, arg.pos, arg.end)
            accent = tok.text if tok.text in V.ACCENTS else nodes[0].text
            letter, _, inner_sub, _, _ = self._head(inner)
            if not inner.at_end():
                raise TranslateError(f"cannot read the name in {tok.text}{{...}}",
                                     tok.pos, arg.end)
            if "{" not in letter:
                letter = "\\%s{%s}" % (V.ACCENTS[accent], letter)
            return letter, True, inner_sub, tok.pos, arg.end
        inner_sub = None
        if len(nodes) >= 3 and is_token(nodes[1], "_"):
            inner_sub = arg_nodes(nodes[2]) if len(nodes) == 3 else None
            if inner_sub is None:
                raise TranslateError(f"cannot read the name in {tok.text}{{...}}",
                                     tok.pos, arg.end)
            nodes = nodes[:1]
        if len(nodes) != 1 or not isinstance(nodes[0], Token) or not (
                nodes[0].kind == "letter" or nodes[0].text == "\\ell"):
            raise TranslateError(f"{tok.text}{{...}} must hold one letter, as in "
                                 f"{tok.text}{{a}}_1", tok.pos, arg.end)
        letter = "ell" if nodes[0].text == "\\ell" else nodes[0].text
        if tok.text in V.ACCENTS:
            letter = "\\%s{%s}" % (V.ACCENTS[tok.text], letter)
        return letter, tok.text in V.BOLD, inner_sub, tok.pos, arg.end

    def _word_heading(self, cur: Cursor, em: Emitter) -> bool:
        """``Attention(Q, K, V)`` typed as plain letters (a capital, then three or more
        letters, then a bracket)."""
        first = cur.peek()
        if not first.text.isupper():
            return False
        word = [first]
        while True:
            node = cur.peek(len(word))
            if not (isinstance(node, Token) and node.kind == "letter" and
                    node.pos == word[-1].end):
                break
            word.append(node)
        if len(word) < 4 or not is_token(cur.peek(len(word)), "(", "\\left"):
            return False
        save = cur.i
        for _ in word:
            cur.take()
        if self._heading(cur, em, "".join(t.text for t in word), first.pos):
            return True
        cur.i = save
        return False

    def _softmax_letters(self, cur: Cursor, em: Emitter) -> bool:
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

    def _special_vector(self, cur: Cursor, em: Emitter) -> bool:
        """``\\mathbf{0}``, ``\\boldsymbol{1}_n``, ``\\mathbb{1}``: the zero or the ones
        vector (sized by its subscript, or by what it meets)."""
        tok, arg = cur.peek(), cur.peek(1)
        inner = arg_nodes(arg) if arg is not None else []
        inner = [n for n in inner if not is_token(n, *V.SPACING)]
        if not (len(inner) == 1 and is_token(inner[0], "0", "1")):
            return False
        cur.take()
        cur.take()
        sub, sup, primes, (_, send) = self._scripts(cur)
        end = max(arg.end, send)
        items = () if sub is None else self._index_items(sub, tok.pos, end, single=True)
        em.atom(Atom("special", inner[0].text, items), tok.pos, end)
        self._scripts_after(sup, primes, em, tok.pos, end)
        return True

    def _name(self, cur: Cursor, em: Emitter) -> None:
        if cur.peek().text in V.BOLD and self._special_vector(cur, em):
            return
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
            self._scripts_after(sup, primes, em, pos, end)
            return
        shown = self.src.text[pos:head_end]
        if sub is not None:
            shown += "_" + (plain(sub) if len(sub) == 1 else "{" + plain(sub) + "}")
        atom, sup = self._resolve(letter, bold, sub, sup, pos, end, shown)
        em.atom(atom, pos, end)
        self._scripts_after(sup, primes, em, pos, end)

    def _scripts_after(self, sup, primes, em, pos, end) -> None:
        """Apply a superscript (a transpose or a power) and primes to what was just written."""
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
                word = plain(sub)
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
            word = plain(sup).strip("{}")
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
            found = re.match(r"^\{?\((\d{1,3})\)(.*?)\}?$", plain(sup))
            if found:
                head = f"^({found.group(1)})"
                tail = found.group(2)
                if tail and tail.replace("{", "").replace("}", "") not in V.TRANSPOSE_WORDS:
                    raise TranslateError(f"cannot read the superscript of {shown}", pos, end)
                sup = [Token("letter", "T", pos, end)] if tail else None
        if sub is not None:
            word = plain(sub).strip("{}")
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
        if q is None and letter == "I":
            # the identity, sized by its subscript (I_n) or by what it meets
            if sub is None:
                return Atom("special", "I"), sup
            return Atom("special", "I", self._index_items(sub, pos, end, single=True)), sup
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
        """Indices from a subscript: ``{12}`` -> (1, 2), ``{10,2}``, ``{ij}``, ``{1j}``,
        ``{i,j'}``, ``{ik_1}``, ``{i,i - m + n}``, and for a row ``{i - m + n}``."""
        nodes = [n for n in sub if not is_token(n, *V.SPACING)]
        if not nodes:
            raise TranslateError("an empty subscript", pos, end)
        parts: list[list] = [[]]
        for node in nodes:
            if is_token(node, ","):
                parts.append([])
            else:
                parts[-1].append(node)
        if len(parts) > 1:
            if any(not part for part in parts):
                raise TranslateError("cannot read this subscript: write a_{10,2}", pos, end)
            return tuple(self._one_index(part, pos, end) for part in parts)
        if single:
            return (self._one_index(nodes, pos, end),)
        for node in nodes:
            if is_token(node, "+", "-"):
                raise TranslateError("index arithmetic needs commas between the indices, as "
                                     "in a_{i,j+1}", node.pos, node.end)
        words = []
        k = 0
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, Token) and node.kind == "num":
                if not node.text.isdigit():
                    raise TranslateError(f"{node.text} is not an index", node.pos, node.end)
                words.append(node)
                k += 1
                continue
            got = name_at(nodes, k)
            if got is None:
                if isinstance(node, Token):
                    raise TranslateError(f"cannot read {node.text!r} as an index", node.pos,
                                         node.end)
                raise TranslateError("cannot read this subscript as indices", pos, end)
            name, k = got
            words.append(name)
        if len(words) == 1 and isinstance(words[0], Token):
            digits = words[0].text
            if len(digits) == 1:
                return (int(digits),)
            if len(digits) == 2:
                return (int(digits[0]), int(digits[1]))
            raise TranslateError(f"cannot tell where the row index ends in {digits}; write "
                                 f"it with a comma, as in a_{{{digits[:-1]},{digits[-1]}}}",
                                 words[0].pos, words[0].end)
        return tuple(int(w.text) if isinstance(w, Token) else w for w in words)

    def _one_index(self, nodes: list, pos: int, end: int):
        try:
            return read_expr(nodes)
        except NotIndex as err:
            node = err.node
            if node is not None and hasattr(node, "pos"):
                raise TranslateError(err.message, node.pos, node.end) from None
            raise TranslateError(err.message, pos, end) from None
