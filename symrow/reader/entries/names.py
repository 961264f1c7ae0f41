r"""Reading names: ``Q``, ``\boldsymbol{q}_1``, ``q_{12}``, ``W^Q``, ``Q^{(1)}``, sizes.

A mixin of :class:`symrow.reader.entries.translate.Translator`.  A name is read by
the one table of notation (:func:`symrow.reader.notation.read_name`, which
``explain`` reads formulas with): a head (a letter, a Greek letter, a word in
``\mathrm``) in any font, with an accent and a subscript and superscript as
papers write them (``W_i^Q``, ``W^{(l)}``, ``\tilde{D}``, ``\mathbf{\Sigma}``).
It resolves against the reference, by canonical name, to a whole matrix, a
row vector (one index), an entry (two indices) or a size (``m``, ``n``,
``d``, ``d_k``, ``\ell``).  Indices are
digits (``{12}`` is row 1, column 2; ``{10,2}`` needs the comma), index
letters (``{ij}``) or sizes.  Anything else is an error that names what the
derivation knows.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 10, 2), symrow.vecseq("B", 2, 1)))
>>> [a.items for a in translate_text(r"a_{10,2} + a_{1 2} + a_{10\,1} + c_{i1}", ref).atoms.values()]
[(10, 2), (1, 2), (10, 1), ('i', 1)]
"""

from __future__ import annotations

import dataclasses
import re

from ..notation import (GREEK_CAPITALS, GREEK_LOWER, NameError_, NameParts,
                               parse_name, read_name)
from .. import vocab as V
from .indices import NotIndex, name_at, read_expr
from .superscripts import NO_SCRIPTS, as_subscript, index_letters_of
from ..lexer import Group, Token
from .units import Atom, Cursor, Emitter, TranslateError, arg_nodes, is_token, plain, \
    shape_sides, size_side

__all__ = ["NameReader"]


class NameReader:
    """Mixin: names and their indices."""

    #: how the page uses superscripts (:mod:`.superscripts`): indices up, or not
    scripts = NO_SCRIPTS

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

    def _exp_letters(self, cur: Cursor, em: Emitter) -> bool:
        """``exp(x)`` typed as plain letters (``\\exp`` without its backslash, as a blog
        writes ``\\frac{exp(\\theta_j)}{\\sum_i exp(\\theta_i)}``): read as ``\\exp``
        when a bracket follows; three names e, x, p multiplied would need no bracket.
        ``log(x)`` likewise is ``\\log``."""
        word = [cur.peek(k) for k in range(3)]
        if not all(isinstance(node, Token) and node.kind == "letter" for node in word) or \
                "".join(node.text for node in word) not in ("exp", "log") or \
                any(word[k].pos != word[k - 1].end for k in (1, 2)):
            return False
        before = cur.nodes[cur.i - 1] if cur.i else None
        if isinstance(before, Token) and before.kind == "letter" and before.end == word[0].pos:
            return False
        k = 3
        while is_token(cur.peek(k), *V.SPACING):
            k += 1
        if not is_token(cur.peek(k), "(", "\\left", "["):
            return False
        text = "\\" + "".join(node.text for node in word)
        command = Token("cmd", text, word[0].pos, word[-1].end, word[0].newline)
        cur.nodes = cur.nodes[:cur.i] + [command] + cur.nodes[cur.i + 3:]
        if text == "\\exp":
            self._exp(cur, em)
        else:
            cur.take()
            self._elementwise(cur, em, V.FUNCTION_COMMANDS[text], command.pos, command.end)
        return True

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
        """A name, read by the one table of notation (:func:`symrow.reader.notation.read_name`),
        then resolved against the reference: a size, a matrix, a row or an entry."""
        if cur.peek().text in V.BOLD and self._special_vector(cur, em):
            return
        first = cur.i
        if is_token(cur.peek(), "\\ell"):      # a size, not a name of the table
            tok = cur.take()
            parts, pos, end = NameParts("\\ell"), tok.pos, tok.end
        else:
            try:
                parts, pos, end = read_name(cur, self.src)
            except NameError_ as err:
                raise TranslateError(err.message, err.pos, err.end) from None
        sub_nodes = _subscript_nodes(cur.nodes[first:cur.i])
        turned = as_subscript(parts, self.scripts)
        up = turned is not parts and not self._known_as_written(parts)
        if up:
            # S^{ij} on a page that writes its indices up: the entry S_{ij}
            parts, sub_nodes = turned, _subscript_nodes(cur.nodes[first:cur.i], "^")
        name_end = end
        sub, sup, primes, (_, send) = self._scripts(cur)
        self._cursor = cur
        if sub is not None:       # W^T_{12}: a subscript after a transpose
            if parts.sub is not None:
                raise TranslateError("two subscripts on one name", pos, send)
            sub_nodes, parts = sub, dataclasses.replace(parts, sub=plain(sub).strip("{}"))
        end = max(end, send)
        if parts == NameParts("e"):
            # Euler's number, written bare
            if sup is not None and not self._is_transpose(sup):
                self.e_powers += 1
            em.put("\\exp\\left(1\\right)", pos, end)
            self._scripts_after(sup, primes, em, pos, end)
            return
        shown = self.src.text[pos:name_end] if sub is None else self.src.text[pos:end]
        try:
            atom, sup = self._resolve(parts, sub_nodes, sup, pos, end, shown)
        except TranslateError as err:
            got = self._up_or_power(err, parts, cur.nodes[first:cur.i], pos, end)
            if got is None:
                if not self._subscripted_e(parts, sub_nodes, sup, primes, err, em, pos, end,
                                           shown):
                    raise
                return
            atom = got
        if up and atom.kind in ("entry", "row", "outside"):
            sizes = [it for it in atom.items if isinstance(it, str) and it in self.ref.sizes]
            if sizes:
                # V^{mn} where n is also the page's size (the bound of a sum over the 3
                # keys): written up as an index here; the page uses n both ways
                shown = "\\ell" if sizes[0] == "ell" else sizes[0]
                raise TranslateError(
                    f"{' '.join(self.src.text[pos:end].split())}: {shown} is a size of "
                    f"this derivation ({self.ref.sizes[sizes[0]]}) and, written up here, "
                    f"an index; the page uses it both ways, so this is not read", pos, end)
        if up and atom.kind == "row":
            # A^k of a matrix: one index where the page writes two (a row, or a power?)
            raise TranslateError(f"{' '.join(self.src.text[pos:end].split())}: one index up "
                                 f"on a matrix, where the page writes two: a row, or a "
                                 f"power? not read", pos, end)
        em.atom(atom, pos, end)
        self._scripts_after(sup, primes, em, pos, end)

    def _subscripted_e(self, parts: NameParts, sub_nodes, sup, primes, err, em, pos: int,
                       end: int, shown: str) -> bool:
        """``e_{x_j}``, a name the derivation does not know, headed by Euler's e: most
        likely its power e^{x_j} with the caret slipped.  The error says so (its
        ``subscripted_e`` holds the text as written and the power meant), for the checker
        to decide with the rest of the claim; read as the power when ``subscript_e`` is
        set (True), else the error is raised as it is (False)."""
        if getattr(err, "unknown", None) is None or parts.head != "e" or parts.sub is None \
                or parts.sup is not None or parts.font is not None or parts.accent is not None \
                or parts.grad is not None or sup is not None or primes or not sub_nodes:
            return False
        inner = [n for n in sub_nodes if not is_token(n, *V.SPACING)]
        if len(inner) == 1 and isinstance(inner[0], Token) and inner[0].kind in ("letter",
                                                                                 "num"):
            return False       # e_j, e_1: a unit vector as often as a slip; not guessed
        written = " ".join(self.src.text[sub_nodes[0].pos:sub_nodes[-1].end].split())
        power = "e^{%s}" % written
        shown = " ".join(shown.split())
        if not self.subscript_e:
            err.subscripted_e = (shown, power)
            return False
        em.put("\\exp\\left(1\\right)", pos, end)
        self._power(list(sub_nodes), em, pos, end)
        return True

    def _known_as_written(self, parts: NameParts) -> bool:
        """Whether a name with its superscript is one the derivation has (``W^{qk}``,
        ``b^{1}``): then its superscript is its tag, never indices."""
        plain = dataclasses.replace(parts, font=None)
        if plain.canonical in self._canonical_names():
            return True
        key = dataclasses.replace(plain, sub=None, sup=None).canonical
        return (key, parts.sup or "") in self.ref.by_letter

    def _up_or_power(self, err, parts: NameParts, nodes: list, pos: int, end: int):
        """An unknown name with a superscript of index letters (``Q^{ia}``) on a page that
        writes powers too (so indices are not read up everywhere): the entry, when it
        cannot be a power (two indices on a matrix that is not square); else a refusal
        that says why.  None when the name is unknown for another reason."""
        if getattr(err, "unknown", None) is None or self.scripts.power is None or \
                parts.sub is not None or parts.sup is None:
            return None
        turned = as_subscript(parts, dataclasses.replace(self.scripts, upper=True))
        if turned is parts:
            return None
        up = _subscript_nodes(nodes, "^")
        owner = self._canonical_names().get(
            dataclasses.replace(turned, sub=None, font=None).canonical)
        q = self.ref.matrices.get(owner) if owner is not None else None
        letters = index_letters_of(up) if up is not None else None
        if q is not None and letters is not None and len(letters) == 2 and q.rows != q.cols:
            # Q^{ia} of a 2 x 3 matrix: no power of it exists, so these are its indices
            return self._indexed(q, self._index_items(up, pos, end, single=False), False,
                                 pos, end)
        line = self.src.line_col(self.scripts.power)[0]
        raise TranslateError(f"{' '.join(self.src.text[pos:end].split())}: indices written "
                             f"up, or a power? the page writes powers too (line {line}), so "
                             f"a superscript of letters is not read as indices", pos,
                             end) from None

    def _greek_name(self, text: str) -> bool:
        """A Greek capital (``\\Sigma``), or the Greek letter of a matrix's rows and
        entries (``\\sigma_{12}`` of Σ): a name; other Greek letters are not."""
        if text in GREEK_CAPITALS:
            return True
        return text in GREEK_LOWER and any(letter == text for letter, _ in self.ref.by_letter)

    def _scripts_after(self, sup, primes, em, pos, end) -> None:
        """Apply a superscript (a transpose or a power) and primes to what was just written."""
        if sup is not None:
            if self._is_transpose(sup):
                self._marker(em, "T", (), pos, end)
            else:
                self._power(sup, em, pos, end)
        for _ in range(primes):
            self._marker(em, "T", (), pos, end)

    def _resolve(self, parts: NameParts, sub, sup, pos: int, end: int, shown: str):
        """The atom a name stands for; returns (atom, superscript left to apply).

        Matrices are found by their canonical names (``W^Q``, ``W_i^Q``,
        ``H^(l+1)``, ``\\tilde{D}``, ``\\Sigma``, ``\\bar{X}``): a font does not
        change a name, and ``W^{Q}_{i}`` is ``W_i^Q``.  A lowercase name is a
        row (bold, one index) or an entry of the matrix whose letter and tag it
        carries (``\\boldsymbol{w}^{Q}_i``, ``w^{(l)}_{ij}``).
        """
        ref = self.ref
        if parts.head in self.dummies and sub is None and parts.sub is None and \
                parts.sup is None and parts.accent is None and parts.grad is None:
            shape = self.dummies[parts.head]
            return Atom("variable", parts.head, shape or ()), sup
        if sub is not None and any(is_token(n, "\\times") for n in sub):
            return self._shape_note(parts, sub, pos, end), sup
        bold = parts.font in _BOLD_FONTS
        letter = "ell" if parts.head == "\\ell" else parts.head
        plain_name = not bold and parts.accent is None and parts.grad is None
        if plain_name and parts.sup is None:       # sizes: m, n, d, \ell, d_k, d_v
            size = None
            if parts.sub is None and letter in ref.sizes:
                size = letter
            elif parts.sub is not None and letter == "d":
                own = f"d_{parts.sub}"
                alias = own if own in ref.sizes else \
                    {"k": "d", "v": "d_v", "q": "d"}.get(parts.sub)
                if alias in ref.sizes:
                    size = alias
            if size is not None:
                return Atom("size", size), sup
        if letter == "ell":
            raise TranslateError("\\ell is not a size of this derivation", pos, end)
        if parts.lowercase:
            names = self._canonical_names()
            key = dataclasses.replace(parts, font=None, sub=None, sup=None).canonical
            tagged = parts.sup is None and sup is not None and \
                (key, plain(sup).strip("{}")) in ref.by_letter
            if tagged:
                # w^{1}_{ij} of W_1, b^{1}_{j} of b_1: a number in the superscript is
                # the tag of W_1 (not a power of b_1)
                parts, sup = dataclasses.replace(parts, sup=plain(sup).strip("{}")), None
            whole = names.get(dataclasses.replace(parts, font=None).canonical)
            if whole is not None and not tagged:
                # a vector or bias named as the derivation names it: b, \mathbf{b}, b_1
                return Atom("whole", whole), sup
            q = ref.by_letter.get((key, parts.sup or ""))
            if q is None and parts.canonical in getattr(ref, "page_scalars", {}):
                return Atom("constant", parts.canonical), sup    # the page's own number
            if q is None and sub is None and parts.sub is None and parts.sup is None and \
                    parts.accent is None and len(parts.head) == 1 and \
                    is_token(cur_next(self), "("):
                # f(x_i) = softmax(x_i) = ...: the page's own name for a function
                raise TranslateError(f"a function-style heading: {' '.join(shown.split())}"
                                     f"(...) names a function of the page's own, not one "
                                     f"of this derivation; not checked", pos, end)
            if q is None:
                raise self._unknown_name(parts, shown, pos, end)
            upper = dataclasses.replace(parts, font=None, sub=None, sup=None,
                                        head=parts.head.upper()).canonical
            if sub is None and not bold and parts.sup is None and \
                    len(parts.head) == 1 and q.rows > 1 and q.level == 0 and \
                    names.get(upper) == q.name and not is_token(cur_next(self), "("):
                # x for the matrix X: the page names the input in lowercase (Q = xW^Q), and
                # \nabla_y \ell for the gradient of the column y = Wx + b
                self.lowercase_wholes.add((key, q.name))
                return Atom("whole", q.name), sup
            if sub is None and getattr(self, "whole_inside", False) and not bold and \
                    parts.sup is None and q.rows > 1 and q.cols > 1 and \
                    names.get(upper) == q.name:
                # (c^T)_{jq}: the bracket's index makes c the whole C
                return Atom("whole", q.name), sup
            if sub is None and bold and q.rows == 1:
                # \boldsymbol{b}^{1} of a bias row b_1: its one row, the whole of it
                return Atom("whole", q.name), sup
            if sub is None:
                raise TranslateError(
                    f"which row or entry of {q.name}? write \\boldsymbol{{{key}}}_1 for a "
                    f"row or {key}_{{11}} for an entry", pos, end)
            items = self._index_items(sub, pos, end, single=bold)
            vector = getattr(ref, "vectors_by_letter", {}).get((key, parts.sup or ""))
            if vector is not None and len(items) == 1 and not bold:
                q = vector          # w_j of the vector w beside the matrix W: its entry
            return self._indexed(q, items, bold, pos, end), sup
        names = self._canonical_names()
        if parts.sup is not None and parts.canonical not in names:
            # Q^{(1)T}: a head's index and a transpose in one superscript
            found = re.match(r"^\((.+?)\)(.+)$", parts.sup)
            if found and found.group(2).replace("{", "").replace("}", "").strip() in \
                    V.TRANSPOSE_WORDS:
                parts = dataclasses.replace(parts, sup=f"({found.group(1)})")
                sup = [Token("letter", "T", pos, end)] if sup is None else sup
        whole = names.get(parts.canonical)
        if whole is not None:
            return Atom("whole", whole), sup
        if parts.sub is not None and parts.sub.isascii():
            # entries written Q_{12}, Q^{(1)}_{12}, rows Q_1 (a word in the page's language,
            # Y_{\text{出力}}, is a label of a name, not an index)
            owner = names.get(dataclasses.replace(parts, sub=None).canonical)
            if owner is not None:
                q = ref.matrices[owner]
                items = self._index_items(sub, pos, end, single=False)
                return self._indexed(q, items, False, pos, end), sup
        if parts.head == "I" and "I" not in names and parts.sup is None and \
                parts.accent is None and parts.grad is None:
            # the identity, sized by its subscript (I_n) or by what it meets
            if sub is None:
                return Atom("special", "I"), sup
            return Atom("special", "I", self._index_items(sub, pos, end, single=True)), sup
        if dataclasses.replace(parts, font=None).canonical in getattr(ref, "page_scalars", {}):
            return Atom("constant", dataclasses.replace(parts, font=None).canonical), sup
        raise self._unknown_name(parts, shown, pos, end)

    def _shape_note(self, parts: NameParts, sub, pos: int, end: int) -> Atom:
        """``W_{m \\times n}``, ``x_{n \\times 1}``: a matrix with its shape written under
        it, as some pages write the sizes.  A size the page names this way is the page's
        own for what follows (its n may be this derivation's ℓ); a number that is not the
        matrix's size is the page's error."""
        ref = self.ref
        names = self._canonical_names()
        bare = dataclasses.replace(parts, sub=None, font=None)
        owner = names.get(bare.canonical)
        if owner is None and parts.lowercase:
            owner = names.get(dataclasses.replace(bare, head=bare.head.upper()).canonical)
        if owner is None:
            raise TranslateError(self._unknown(self.src.text[pos:end]), pos, end)
        q = ref.matrices[owner]
        dims = shape_sides(sub)
        if dims is None:
            raise TranslateError("a shape under a name is written rows \\times columns, as in "
                                 "W_{m \\times n}", pos, end)
        for nodes, size, what in zip(dims, (q.rows, q.cols), ("rows", "columns")):
            kind, name = size_side(nodes, pos, end)
            if kind == "number":
                if name != size:
                    return Atom("outside", f"{q.name} has {size} {what}, not {name}")
                continue
            text = "\\ell" if name == "ell" else name
            mine = getattr(ref, "page_size_names", frozenset())
            if name in mine and ref.sizes.get(name) != size:
                raise TranslateError(f"the page's {text} stands for two sizes here "
                                     f"({ref.sizes[name]} and {size})", pos, end)
            if ref.sizes.get(name) != size:
                ref.own_size(name, size)
        return Atom("whole", q.name)

    def _canonical_names(self) -> dict:
        """The reference's matrices by canonical name (as :mod:`symrow.reader.notation`
        writes it), remembered for the reference."""
        ref = self.ref
        names = getattr(ref, "_canonical_names", None)
        if names is None:
            names = {}
            aliases = {}
            for name in ref.matrices:
                try:
                    parts = parse_name(name)
                except (NameError_, ValueError):
                    names.setdefault(name, name)
                    continue
                names.setdefault(parts.canonical, name)
                names.setdefault(name, name)
                # a role written up or down: W_Q is W^Q, as papers print either
                role = parts.sub if parts.sup is None else parts.sup if parts.sub is None \
                    else None
                if role is not None and role.isalpha() and role.isupper():
                    flipped = dataclasses.replace(
                        parts, sub=None if parts.sub else role, sup=None if parts.sup else role)
                    aliases.setdefault(flipped.canonical, set()).add(name)
            for alias, owners in aliases.items():
                if alias not in names and len(owners) == 1:
                    names[alias] = owners.pop()
            # the page's names for the derivation's quantities (its S̄ of its scaled S)
            names.update(getattr(ref, "aliases", {}))
            # the page's own names for operands (x for S, read from its softmax(x))
            names.update(getattr(ref, "input_names", {}))
            ref._canonical_names = names
        return names

    def _indexed(self, q, items: tuple, bold: bool, pos: int, end: int) -> Atom:
        if len(items) == 2 and q.derived and 1 in (q.rows, q.cols) and q.rows * q.cols > 1:
            # w = (w_1, ..., w_k) of the page, then w_{jt}: two indices are an entry of the
            # matrix of that letter (W), not of the page's vector (read as row j of w, "no
            # row 2", a right a_{ij} = \sum_t x_{it} w_{jt} + b_j was called wrong)
            twins = [p for p in self.ref.quantities.values() if p is not q and
                     p.letter == q.letter and p.tag == q.tag and p.rows > 1 and p.cols > 1]
            if len(twins) == 1:
                q = twins[0]
        if len(items) == 1 and not bold and q.rows == 1 and q.cols > 1:
            # b_j of a bias row, w_3 of a 1 x 4 vector: an entry
            return self._checked(q, "entry", (1, items[0]), ((items[0], q.cols, "column"),))
        if len(items) == 1 and q.cols == 1 and q.rows > 1:
            return self._checked(q, "entry", (items[0], 1), ((items[0], q.rows, "row"),))
        if len(items) == 1 and q.name in getattr(self.ref, "entries_only", ()):
            # the page wrote this matrix by its entries only (\\delta_{ij} of its Δ): a
            # one-index \\delta_j is in another notation, not a row of it
            err = TranslateError(f"the page writes {q.name} by its entries, with two "
                                 f"indices; {q.letter} with one index is in another "
                                 f"notation", pos, end)
            err.another_notation = True        # read, but not of this page's batch forms
            raise err
        if len(items) == 1:
            return self._checked(q, "row", items, ((items[0], q.rows, "row"),))
        if len(items) == 2 and not bold:
            return self._checked(q, "entry", items, ((items[0], q.rows, "row"),
                                                      (items[1], q.cols, "column")))
        raise TranslateError(f"{q.name} has rows (one index, as in "
                             f"\\boldsymbol{{{q.letter}}}_1) and entries (two, as in "
                             f"{q.letter}_{{12}}); this has {len(items)}", pos, end)

    @staticmethod
    def _checked(q, kind: str, items: tuple, ranges: tuple) -> Atom:
        """The atom of a row or entry; one whose written index is out of the matrix's
        range (w_{31} of a 2 x 3 W) is the page's error, a step that is wrong there."""
        for item, bound, what in ranges:
            if isinstance(item, int) and not 1 <= item <= bound:
                return Atom("outside", f"{q.name} is {q.rows} x {q.cols}, so it has no "
                                       f"{what} {item} (indices start at 1)", items)
        return Atom(kind, q.name, items)

    def _unknown_name(self, parts: NameParts, shown: str, pos: int, end: int):
        """The error for a name the reference does not know; ``.unknown`` holds its parts
        (a page that defines its upstream gradient in names of its own binds them)."""
        line = getattr(self.ref, "unread_definitions", {}).get(parts.canonical)
        if line is not None:
            # the page defines it, on a line that could not be read
            err = TranslateError(f"{' '.join(shown.split())}: its definition (line {line}) "
                                 f"could not be read", pos, end)
        else:
            err = TranslateError(self._unknown(shown), pos, end)
        err.unknown = parts
        return err

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


_BOLD_FONTS = ("\\boldsymbol", "\\mathbf", "\\vec")


def cur_next(reader):
    """The node after the name just read (the translator keeps its cursor there)."""
    cur = getattr(reader, "_cursor", None)
    return cur.peek() if cur is not None else None


def _subscript_nodes(nodes: list, mark: str = "_") -> list | None:
    """The nodes of the subscript among the nodes a name was read from: after its
    ``_``, or inside its font (``\\mathbf{W_Q}``); with ``mark="^"``, those of its
    superscript."""
    for k, node in enumerate(nodes):
        if is_token(node, mark) and k + 1 < len(nodes):
            return arg_nodes(nodes[k + 1])
    for node in nodes:
        if isinstance(node, Group):
            inner = _subscript_nodes(list(node.children), mark)
            if inner is not None:
                return inner
    return None
