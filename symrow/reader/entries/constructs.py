r"""Reading functions and explicit matrices: ``\frac``, ``\sqrt``, ``\exp``,
``e^{...}``, softmax, ``\sum`` and ``bmatrix``/``pmatrix``.

A mixin of :class:`symrow.reader.entries.translate.Translator`.  Each argument is
translated as its own unit, so the parser only ever sees ``\frac{a}{b}``,
``e^{a}``, ``\sqrt{a}``; sums keep their bounds (sizes and index letters are
placeholders, a missing upper bound is inferred later); every cell of a
matrix is a unit of its own.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> ref = Reference(symrow.match(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2)))
>>> translate_text(r"\frac{\exp(c_{11})}{\sum_j e^{c_{1j}}}", ref).text
'\\frac{ a }{ b }'
"""

from __future__ import annotations

from ..notation import GREEK_CAPITALS, GREEK_LOWER, did_you_mean, lookup_function
from .. import vocab as V
from .gradients import _name_end
from .indices import IndexExpr, NotIndex, name_at, read_expr
from .superscripts import index_letters_of
from ..lexer import MATRIX_ENVS, Env, Group, Token
from .units import Atom, Cursor, Emitter, TranslateError, arg_nodes, env_rows, is_token, plain

__all__ = ["ConstructReader"]


def _shift(item, by: int):
    """An index item plus a whole number."""
    if isinstance(item, int):
        return item + by
    if isinstance(item, str):
        return IndexExpr(((item, 1),), by)
    const = item.const + by
    if const == 0 and len(item.terms) == 1 and item.terms[0][1] == 1:
        return item.terms[0][0]
    return IndexExpr(item.terms, const)


class ConstructReader:
    """Mixin: functions, sums and explicit matrices."""

    def _font(self, cur: Cursor, em: Emitter) -> None:
        tok = cur.peek()
        if tok.text == "\\operatorname" and is_token(cur.peek(1), "*"):
            cur.take()                      # \operatorname*{...}: the star only moves limits
            cur.nodes = cur.nodes[:cur.i] + [tok] + cur.nodes[cur.i + 1:]
            tok = cur.peek()
        arg = cur.peek(1)
        text = plain(arg_nodes(arg)) if arg is not None else ""
        if tok.text == "\\mathop" and isinstance(arg, Group):
            inner = [n for n in arg.children]
            if len(inner) == 2 and is_token(inner[0], *V.FONT):
                text = plain(arg_nodes(inner[1]))
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
        fn = lookup_function(text)      # the table of notation explain reads with
        if fn is not None and fn.reading == "apply":
            cur.take()
            cur.take()
            key = self._parameter(cur, fn.key)
            key = key + "'" if self._prime(cur) else key
            self._elementwise(cur, em, key, tok.pos, arg.end)
            return
        if fn is not None and fn.reading not in ("diag", "degree") and \
                is_token(cur.peek(2), "(", "\\left", "["):
            # LayerNorm(X), Concat(A, B), and any function a reading of its own reads
            cur.take()
            cur.take()
            got = self._bracket_arg(cur, text, tok.pos, arg.end)
            inner, a, b = got
            self._engine_call(fn.key, self._arguments(inner, text, a, b), em, tok.pos, b)
            self._postfix(cur, em, simple=False)
            return
        if text == "erf" and is_token(cur.peek(2), "(", "\\left", "["):
            # the error function of GELU's definition, entry by entry
            cur.take()
            cur.take()
            inner, a, b = self._bracket_arg(cur, text, tok.pos, arg.end)
            self._engine_call("erf", self._arguments(inner, text, a, b), em, tok.pos, b)
            self._postfix(cur, em, simple=False)
            return
        if text.lower() in ("diag", "rowsum"):
            # diag(p_i): a row on the diagonal; rowsum(X): each row added up (a column)
            cur.take()
            cur.take()
            self._applied(cur, em, text.lower(), tok.pos, arg.end)
            return
        if text.isalpha() and len(text) > 1 and not is_token(cur.peek(2), "(", "\\left") \
                and self._is_word_name(text):
            self._name(cur, em)             # \mathrm{head}_1: a matrix named by a word
            return
        if text.isalpha() and len(text) > 1:
            save = cur.i
            cur.take()
            cur.take()
            if self._heading(cur, em, text, tok.pos):
                return
            cur.i = save
        guess = did_you_mean(text) if text.isalpha() else None
        raise TranslateError(f"{tok.text}{{{text or '...'}}} is not supported here"
                             + (f" (did you mean {guess}?)" if guess else "")
                             + "; the functions symrow knows are softmax, \\exp, \\sqrt, "
                             "Attention, Concat, diag, and ReLU, GELU, \\sigma, \\tanh and "
                             "\\phi entry by entry", tok.pos, arg.end)

    def _heading(self, cur: Cursor, em: Emitter, word: str, pos: int) -> bool:
        """``\\mathrm{Attention}(Q, K, V)`` (the cursor after the word): a name for the
        derivation's result, when its arguments are the derivation's operands; else
        refused as a heading.  False when no bracket follows."""
        if not is_token(cur.peek(), "(", "\\left"):
            return False
        got = self._bracket_arg(cur, word, pos, pos)
        if got is None:
            return False
        inner, a, b = got
        args = "".join(plain([n]) for n in inner if not is_token(n, *V.SPACING))
        names = [n for n in args.split(",") if n]
        operands = [q.name for q in self.ref.quantities.values() if q.level == 0 and
                    q.symbols.free_symbols]
        upstream = getattr(getattr(self.ref, "derivation", None), "upstream", None)
        marks = set(getattr(upstream, "free_symbols", ()))
        result = getattr(self.ref, "result", None)
        if marks:
            # a backward pass: the heading names the forward function, of the operands
            # without the upstream gradient (Attention(K, Q, V) names Q, K and V only),
            # and its value is the forward result (O), not the gradient derived
            operands = [name for name in operands
                        if not set(self.ref.quantities[name].symbols.free_symbols) <= marks]
            forward = getattr(self.ref.derivation, "forward", None)
            result = getattr(forward, "result_name", None)
        # the function the formula defines, with its parameters: MultiHead(Q, K, V)
        own = result in ("\\mathrm{%s}" % word, word) and names and \
            all(n in self.ref.matrices for n in names)
        # SelfAttention(X) = ...: the page's own name for the result, of some of the
        # operands (X, where the weights are the function's own)
        mine = names and lookup_function(word) is None and word.lower() not in (
            "concat", "attention") and set(names) <= set(operands)
        if result in self.ref.quantities and names and (set(names) == set(operands) or own
                                                         or mine):
            em.atom(Atom("whole", result), pos, b)
            self._postfix(cur, em, simple=False)
            return True
        if word in ("Concat", "concat", "Attention", "attention"):
            self._call(word, self._arguments(inner, word, a, b), em, pos, b)
            self._postfix(cur, em, simple=False)
            return True
        shown = " ".join(self.src.text[pos:b].split())
        guess = did_you_mean(word)
        if guess and guess.lower() != word.lower():
            raise TranslateError(f"unknown function {word}: did you mean {guess}?", pos, b)
        raise TranslateError(f"a function-style heading: {shown} is not this derivation's "
                             f"result ({result}, of {', '.join(operands)}); not checked",
                             pos, b)

    def _call(self, word: str, args: list[list], em: Emitter, pos: int, end: int) -> None:
        """``Concat(A, B, ...)``: the blocks side by side, as ``[A \\; B]``;
        ``Attention(Q, K, V)``: softmax(QKᵀ/√d_k)V, with d_k the columns of Q."""
        for arg in args:
            if any(is_token(n, "\\dots", "\\ldots", "\\cdots") for n in arg):
                raise TranslateError(f"write every argument of {word}: with these sizes, as "
                                     f"in {word}(\\mathrm{{head}}_1, \\mathrm{{head}}_2)",
                                     pos, end)
        if word.lower() == "concat":
            units = [self.unit(arg, arg[0].pos, arg[-1].end) for arg in args]
            em.atom(Atom("matrix", "Concat", (1, len(units)), cells=(tuple(units),),
                         ident=next(self._ids)), pos, end)
            return
        if len(args) != 3:
            raise TranslateError(f"Attention takes three arguments (Q, K, V); this has "
                                 f"{len(args)}", pos, end)
        self._engine_call("attention", args, em, pos, end)

    def _is_word_name(self, word: str) -> bool:
        """Whether ``\\mathrm{word}`` (with any subscript) names a matrix of the reference."""
        head = "\\mathrm{%s}" % word
        return any(name == head or name.startswith(head + "_") or name.startswith(head + "^")
                   for name in self.ref.matrices)

    def _elementwise(self, cur: Cursor, em: Emitter, func: str, pos: int, end: int) -> None:
        """``\\operatorname{ReLU}(X)``, ``\\tanh(x)``, ``\\phi(q_{11})``: a function
        applied to every entry of its argument (a marker the evaluator applies)."""
        got = self._bracket_arg(cur, func, pos, end)
        if got is None and func.rstrip("'") in ("log", "tanh") and cur.peek() is not None:
            got = self._lone_factor(cur, func, f"{func}(...)", pos)     # \log a_k, \tanh x
        if got is None:
            raise TranslateError(f"{func} needs its argument in brackets, as in "
                                 f"{func}(X)", pos, end)
        inner, a, b = got
        if not [n for n in inner if not is_token(n, *V.SPACING)]:
            raise TranslateError(f"{func} of nothing", a, b)
        self._engine_call(func, [inner], em, pos, b)
        self._postfix(cur, em, simple=False)

    @staticmethod
    def _parameter(cur: Cursor, key: str) -> str:
        """``\\operatorname{LeakyReLU}_{0.2}``: a function with its parameter written as a
        subscript is keyed ``leakyrelu:0.2``, as explain keys it (consumed)."""
        from ...derive.readings.entrywise import ENTRY_FUNCTIONS
        entry = ENTRY_FUNCTIONS.get(key)
        if entry is None or entry.param is None or not is_token(cur.peek(), "_"):
            return key
        arg = cur.peek(1)
        written = plain(arg_nodes(arg)).replace(" ", "") if arg is not None else ""
        if not written:
            return key
        cur.take()
        cur.take()
        return f"{key}:{written}"

    @staticmethod
    def _prime(cur: Cursor) -> bool:
        """``'`` or ``^{\\prime}`` after a function's name: its derivative (consumed)."""
        if is_token(cur.peek(), "'"):
            cur.take()
            return True
        if is_token(cur.peek(), "^"):
            arg = cur.peek(1)
            inner = [n for n in arg_nodes(arg) if not is_token(n, *V.SPACING)] \
                if arg is not None else []
            if len(inner) == 1 and is_token(inner[0], "\\prime"):
                cur.take()
                cur.take()
                return True
        return False

    def _engine_call(self, key: str, args: list[list], em: Emitter, pos: int, end: int,
                     params: tuple = ()) -> None:
        """``key(args...)``: a function of the table of notation, applied by the reading
        that explain reads it with (:func:`symrow.formula.evaluate.apply`); each argument
        is a unit of its own."""
        units = []
        for arg in args:
            arg = [n for n in arg if not is_token(n, *V.SPACING)]
            if not arg:
                raise TranslateError(f"{key} of nothing", pos, end)
            units.append(self.unit(arg, arg[0].pos, arg[-1].end))
        em.atom(Atom("call", key, tuple(params), cells=tuple((u,) for u in units),
                     ident=next(self._ids)), pos, end)

    def _applied(self, cur: Cursor, em: Emitter, name: str, pos: int, end: int) -> None:
        """``\\operatorname{diag}(...)``, ``\\operatorname{rowsum}(...)``: a marker the
        evaluator applies to the whole argument."""
        got = self._bracket_arg(cur, name, pos, end)
        if got is None:
            raise TranslateError(f"{name} needs its argument in brackets, as in {name}(X)",
                                 pos, end)
        inner, a, b = got
        if not [n for n in inner if not is_token(n, *V.SPACING)]:
            raise TranslateError(f"{name} of nothing", a, b)
        self._sub(inner, a, b, em)
        self._marker(em, name, (), pos, end)
        self._postfix(cur, em, simple=False)

    def _softmax(self, cur: Cursor, em: Emitter, pos: int, end: int) -> bool:
        over = None
        if is_token(cur.peek(), "_") and cur.peek(1) is not None:
            letters = index_letters_of(arg_nodes(cur.peek(1)))
            if letters is None or len(letters) != 1:
                node = cur.peek()
                raise TranslateError("softmax takes one index under it, the one it "
                                     "normalizes over, as in \\mathrm{softmax}_j(s_{ij})",
                                     node.pos, node.end)
            cur.take()
            cur.take()
            over = letters[0]
        got = self._bracket_arg(cur, "softmax", pos, end)
        if got is not None and over is not None:
            # softmax_j(S^{ij}): the entry (i, j) of the softmax over j, of an entry
            inner, a, b = got
            body = [n for n in inner if not is_token(n, *V.SPACING)]
            if not body:
                raise TranslateError("softmax of nothing", a, b)
            unit = self.unit(body, body[0].pos, body[-1].end)
            em.atom(Atom("isoftmax", over, cells=((unit,),), ident=next(self._ids)), pos, b)
            self._postfix(cur, em, simple=False)
            return True
        if got is None:
            raise TranslateError("softmax needs its argument in brackets, as in "
                                 "\\operatorname{softmax}(S)", pos, end)
        inner, a, b = got
        if not [n for n in inner if not is_token(n, *V.SPACING)]:
            raise TranslateError("softmax of nothing", a, b)
        if self._softmax_of_entry(inner, cur, em, pos, b):
            return True
        self._engine_call("softmax", [inner], em, pos, b)
        self._postfix(cur, em, simple=False)
        return True

    def _softmax_of_entry(self, inner: list, cur: Cursor, em: Emitter, pos: int,
                          end: int) -> bool:
        """``softmax(x_i)`` of one entry of a row vector x (1 x n): the softmax of one
        number is 1, which nobody writes; it is the shorthand for the i-th entry of the
        softmax of the vector, softmax(x)_i, and read so (said in the report's notes:
        :attr:`softmax_shorthands`).  False when the argument is no entry of a row
        vector (a whole matrix, an expression, an entry of a matrix of several rows:
        read as written)."""
        nodes = [n for n in inner if not is_token(n, *V.SPACING)]
        powers = self.e_powers
        unit = self.unit(nodes, nodes[0].pos, nodes[-1].end)
        self.e_powers = powers          # a trial reading: the argument is read again
        if len(unit.atoms) != 1:
            return False
        (key, atom), = unit.atoms.items()
        q = self.ref.quantities.get(atom.name)
        if unit.text.strip() != key or atom.kind != "entry" or q is None or q.rows != 1 or \
                q.cols < 2 or len(atom.items) != 2:
            return False
        if is_token(cur.peek(), "_", "^", "'"):
            node = cur.peek()
            raise TranslateError("a script after softmax of one entry; write softmax(x)_i "
                                 "for an entry of the softmax of x", node.pos, node.end)
        whole = Emitter()
        whole.atom(Atom("whole", q.name), nodes[0].pos, nodes[-1].end)
        em.atom(Atom("call", "softmax", (), cells=((whole.unit(nodes[0].pos,
                                                               nodes[-1].end),),),
                     ident=next(self._ids)), pos, end)
        self._marker(em, "entry", atom.items, pos, end)
        shown = " ".join(self.src.text[nodes[0].pos:nodes[-1].end].split())
        head, _, index = shown.rpartition("_")
        self.softmax_shorthands.add((pos, shown, f"softmax({head})_{index}" if head else shown))
        return True

    def _e_power(self, cur: Cursor, em: Emitter) -> None:
        e = cur.take()
        caret = cur.take()
        arg = self._script_arg(cur, caret)
        self.e_powers += 1
        em.put("e^{", e.pos, e.end)
        self._sub(arg, caret.pos, cur.nodes[cur.i - 1].end, em)
        em.put("}", e.pos, e.end)
        self._no_script_after(cur, "a script after e^{...}; put e^{...} in brackets first")

    @staticmethod
    def _no_script_after(cur: Cursor, message: str) -> None:
        """Refuse ``^``, ``_`` or a prime right after a construct: its scope is unclear."""
        if is_token(cur.peek(), "^", "_", "'"):
            node = cur.peek()
            raise TranslateError(message, node.pos, node.end)

    def _one_arg(self, cur: Cursor, cmd: Token) -> tuple[list, int, int]:
        node = cur.take()
        while is_token(node, *V.SPACING):
            node = cur.take()
        if node is None:
            raise TranslateError(f"{cmd.text} needs an argument", cmd.pos, cmd.end)
        if isinstance(node, Group):
            return node.children, node.pos, node.end
        if isinstance(node, Token) and node.kind in ("num", "letter"):
            return [node], node.pos, node.end
        if isinstance(node, Token) and node.kind == "cmd" and (
                node.text in GREEK_LOWER or node.text in GREEK_CAPITALS):
            return [node], node.pos, node.end     # one control word, as TeX reads \frac1\sigma
        if isinstance(node, Token) and node.kind == "cmd" and (
                node.text in V.BOLD or node.text in V.FONT) and isinstance(cur.peek(), Group):
            group = cur.take()
            return [node, group], node.pos, group.end
        raise TranslateError(f"{cmd.text} needs its argument in braces", node.pos, node.end)

    def _frac(self, cur: Cursor, em: Emitter) -> None:
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
        if _is_partial(top) and _is_partial(bottom):
            rest = [n for n in top[1:] if not is_token(n, *V.SPACING)]
            if len(rest) == 1 and is_token(rest[0], "L", "E", "J", "\\ell"):
                rest = ["loss"]             # the loss, by an expression (not a name)
            self._derivative(rest, bottom[1:], cur, em, cmd.pos, d)
            return
        em.put("\\frac{", cmd.pos, cmd.end)
        self._sub(top, a, b, em)
        em.put("}{", c, d)
        self._sub(bottom, c, d, em)
        em.put("}", d - 1, d)
        self._no_script_after(cur, "a script right after \\frac{..}{..}; put the fraction in "
                            "brackets first")

    def _slash_derivative(self, cur: Cursor, em: Emitter) -> bool:
        """``\\partial y_k / \\partial W_{i,j}``: the derivative written on one line, read as
        ``\\frac{\\partial y_k}{\\partial W_{i,j}}`` is (each side one name with its
        scripts); False, reading nothing, when it is not written so."""
        start = cur.i
        names = []
        k = start + 1
        for _ in range(2):
            end = _script_end(cur.nodes, k)
            if end == k:
                return False
            names.append(cur.nodes[k:end])
            k = end
            if len(names) == 1:
                if not (k + 1 < len(cur.nodes) and is_token(cur.nodes[k], "/") and
                        is_token(cur.nodes[k + 1], "\\partial")):
                    return False
                k += 2
        first, last = cur.nodes[start], cur.nodes[k - 1]
        cur.i = k
        self._derivative(names[0], names[1], cur, em, first.pos, last.end)
        return True

    def _derivative(self, top: list, bottom: list, cur: Cursor, em: Emitter, pos: int,
                    end: int) -> None:
        """``\\frac{\\partial O_{ab}}{\\partial V_{jp}}``: the derivative of an expression by
        one entry of a matrix (``\\frac{\\partial}{\\partial V_{jp}}[...]`` takes the factor
        after it), as the chain rule in index notation writes it."""
        top = top if top == ["loss"] else [n for n in top if not is_token(n, *V.SPACING)]
        bottom = [n for n in bottom if not is_token(n, *V.SPACING)]
        if not bottom:
            raise TranslateError("\\partial of nothing", pos, end)
        if not top:
            while is_token(cur.peek(), *V.SPACING):
                cur.take()
            node = cur.peek()
            if node is None:
                raise TranslateError("a derivative of nothing", pos, end)
            if isinstance(node, Token) and node.text in V.OPEN:
                opener = cur.take()
                top, close = self._until_close(cur, opener, V.OPEN[node.text])
                end = close.end
            elif is_token(node, "\\left"):
                start = cur.i
                self._left(cur, Emitter())      # find its extent, then read it again
                top = cur.nodes[start:cur.i]
                end = cur.nodes[cur.i - 1].end
            elif isinstance(node, Group):
                top = cur.take().children
                end = node.end
            else:
                top = self._entry_run(cur)
                if not top:
                    raise TranslateError("write what \\partial/\\partial x takes in brackets",
                                         node.pos, node.end)
                end = top[-1].end
        variable = self.unit(bottom, bottom[0].pos, bottom[-1].end)
        value = self.unit(top, top[0].pos, top[-1].end) if top != ["loss"] else None
        atoms = list(variable.atoms.values())
        single = len(atoms) == 1 and variable.text.strip() in variable.atoms
        if value is None:
            # \partial L / \partial (X W): the gradient of a value the formula computes
            em.atom(Atom("gradient", "", (), cells=((variable,),), ident=next(self._ids)),
                    pos, end)
            return
        if single and atoms[0].kind == "whole":
            # \partial F / \partial X: a Jacobian of a matrix by a matrix, the chain rule
            # written formally
            em.atom(Atom("jacobian", atoms[0].name, (), cells=((value,), (variable,)),
                         ident=next(self._ids)), pos, end)
            return
        if not single or atoms[0].kind != "entry":
            raise TranslateError("symrow takes derivatives by one entry of a matrix, as in "
                                 "\\partial O_{ab} / \\partial V_{jp}", bottom[0].pos,
                                 bottom[-1].end)
        em.atom(Atom("derivative", "", (), cells=((value,), (variable,)),
                     ident=next(self._ids)), pos, end)

    @staticmethod
    def _entry_run(cur: Cursor) -> list:
        """``\\frac{\\partial}{\\partial x_{mn}} w_{ia}x_{aj}``: what a derivative written
        without brackets takes, when it is a product of entries (letters with their
        scripts, or fractions: ``\\frac{\\partial}{\\partial x_j} \\frac{e^{x_i}}{Z}``) that
        runs to the end of the term (a ``+``, ``-``, relation, ``&``, row break or the
        end): the whole product, as the operator is read.  Taken from the
        cursor; [] (nothing taken) when the term goes on with anything else, which
        brackets must then decide."""
        k = cur.i
        nodes = cur.nodes
        fraction = False
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, Token) and node.kind == "letter" and len(node.text) == 1:
                k += 1
            elif is_token(node, "\\frac", "\\dfrac", "\\tfrac") and k + 2 < len(nodes) and \
                    isinstance(nodes[k + 1], Group) and isinstance(nodes[k + 2], Group):
                # \frac{\partial}{\partial x_j} \frac{e^{x_i}}{Z}: a fraction is a factor
                # whole in itself
                fraction = True
                k += 3
            elif is_token(node, "_", "^") and k + 1 < len(nodes) and k > cur.i and \
                    not is_token(nodes[k - 1], "_", "^"):
                k += 2
            elif is_token(node, *V.SPACING) and k > cur.i:
                k += 1
            else:
                break
        if k == cur.i:
            return []
        if k < len(nodes) and not is_token(nodes[k], "+", "-", "=", "&", "\\\\", ",",
                                            "\\quad", "\\qquad"):
            return []
        run = list(nodes[cur.i:k])
        while run and is_token(run[-1], *V.SPACING):
            run.pop()
        if not fraction and not any(is_token(n, "_") for n in run):
            return []              # entries only: \partial/\partial x_{mn} ab is not read
        cur.i = k
        return run

    def _sqrt(self, cur: Cursor, em: Emitter) -> None:
        cmd = cur.take()
        root = None
        if is_token(cur.peek(), "["):
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
        self._no_script_after(cur, "a script right after \\sqrt{..}; put it in brackets first")

    def _indicator(self, cur: Cursor, em: Emitter) -> bool:
        """``\\mathbb{1}(z_1 > 0)``, ``\\mathbb{1}[A > 0]``, ``\\mathbf{1}_{Z > 0}``,
        ``\\mathbb{I}(\\cdot)``: the indicator of a comparison, entry by entry, which is
        ReLU′ of the difference (``A > B`` is ReLU′(A − B), ``A < B`` is ReLU′(B − A);
        at the tie the two differ, on a set of measure zero).  False when the cursor is
        not at one (the cursor is then left as it was)."""
        save = cur.i
        tok = cur.peek()
        if is_token(tok, "\\mathbb", "\\mathbf", "\\boldsymbol", "\\bm"):
            arg = cur.peek(1)
            inner = [n for n in arg_nodes(arg) if not is_token(n, *V.SPACING)] \
                if arg is not None else []
            if not (len(inner) == 1 and is_token(inner[0], "1", "I")):
                return False
            cur.take()
            cur.take()
        elif is_token(tok, "1"):
            cur.take()
        else:
            return False
        got = None
        if is_token(cur.peek(), "_") and isinstance(cur.peek(1), Group):
            cur.take()
            group = cur.take()
            got = group.children, group.pos, group.end
        elif is_token(cur.peek(), "\\{"):
            opener = cur.take()
            inner, close = self._until_close(cur, opener, "\\}")
            got = inner, opener.pos, close.end
        elif is_token(cur.peek(), "(", "[", "\\lbrack", "\\left") or \
                is_token(cur.peek(), *V.SIZES):
            got = self._bracket_arg(cur, "the indicator", tok.pos, tok.end)
        relations = [k for k, n in enumerate(got[0]) if is_token(n, *_ORDER)] if got else []
        if len(relations) != 1:
            cur.i = save
            return False
        inner, a, b = got
        k = relations[0]
        left, right = inner[:k], inner[k + 1:]
        if is_token(inner[k], *_LESS):
            left, right = right, left
        if not [n for n in left if not is_token(n, *V.SPACING)] or \
                not [n for n in right if not is_token(n, *V.SPACING)]:
            raise TranslateError("an indicator compares two sides, as in "
                                 "\\mathbb{1}(Z > 0)", a, b)
        zero = [n for n in right if not is_token(n, *V.SPACING)]
        if len(zero) == 1 and is_token(zero[0], "0"):
            diff = left
        else:
            at = inner[k]
            diff = [Token("sym", "(", at.pos, at.pos)] + left + \
                [Token("sym", ")", at.pos, at.pos), Token("sym", "-", at.pos, at.end),
                 Token("sym", "(", at.end, at.end)] + right + \
                [Token("sym", ")", at.end, at.end)]
        self._engine_call("relu'", [diff], em, tok.pos, b)
        self._postfix(cur, em, simple=False)
        return True

    def _bracket_arg(self, cur: Cursor, what: str, pos: int, end: int):
        """A function's argument: ``{...}``, ``(...)``, ``[...]`` or ``\\left( ... \\right)``."""
        while is_token(cur.peek(), *V.SPACING) or is_token(cur.peek(), *V.SIZES):
            cur.take()
        node = cur.peek()
        if is_token(node, "_", "^"):
            raise TranslateError(f"{what} takes no sub- or superscript here", node.pos,
                                 node.end)
        if isinstance(node, Group):
            cur.take()
            return node.children, node.pos, node.end
        if is_token(node, "\\left"):
            left = cur.take()
            delim = cur.take()
            if not is_token(delim, "(", "[", "\\lbrack"):
                raise TranslateError(f"{what} needs its argument in ( )", left.pos, left.end)
            depth, start = 0, cur.i
            while True:
                n = cur.take()
                if n is None:
                    raise TranslateError("\\left is never closed by \\right", left.pos,
                                         left.end)
                if is_token(n, "\\left"):
                    depth += 1
                elif is_token(n, "\\right"):
                    if depth == 0:
                        close = cur.take()
                        if close is None:
                            raise TranslateError("\\right must be followed by a bracket",
                                                 n.pos, n.end)
                        return cur.nodes[start:cur.i - 2], left.pos, close.end
                    depth -= 1
        if is_token(node, "(", "[", "\\lbrack"):
            opener = cur.take()
            inner, close = self._until_close(cur, opener, V.OPEN[opener.text])
            return inner, opener.pos, close.end
        return None

    def _exp(self, cur: Cursor, em: Emitter) -> None:
        cmd = cur.take()
        got = self._bracket_arg(cur, "\\exp", cmd.pos, cmd.end)
        if got is None:
            if cur.peek() is None:
                raise TranslateError("\\exp needs an argument", cmd.pos, cmd.end)
            got = self._lone_factor(cur, "\\exp", "\\exp(...) or e^{...}", cmd.pos)
        inner, a, b = got
        if not [n for n in inner if not is_token(n, *V.SPACING)]:
            raise TranslateError("\\exp of nothing", a, b)
        em.put("e^{", cmd.pos, cmd.end)
        self._sub(inner, a, b, em)
        em.put("}", b - 1, b)
        self._no_script_after(cur, "a script right after \\exp(...); put it in brackets first")

    def _lone_factor(self, cur: Cursor, shown: str, written: str, pos: int) -> tuple:
        """The argument of a function written without brackets (``\\exp x``, ``\\log
        a_k``): the next factor alone, when nothing multiplies or divides it after (in
        ``\\exp s/\\sqrt{d}`` no one can tell how far the argument reaches: refused, with
        ``written`` as the way to write it).  Returns (nodes, start, end), taken from the
        cursor."""
        node, start = cur.peek(), cur.i
        self._primary(cur, Emitter())
        got = cur.nodes[start:cur.i], node.pos, cur.nodes[cur.i - 1].end
        nxt = cur.peek()
        if nxt is not None and not is_token(nxt, "+", "-", "=", ",", *V.SPACING) and \
                not (isinstance(nxt, Token) and nxt.kind == "rowsep"):
            raise TranslateError(f"{shown} without brackets, and something follows its "
                                 f"argument: it is unclear how far the argument reaches; "
                                 f"write {written}", pos, nxt.end)
        return got

    def _sum(self, cur: Cursor, em: Emitter) -> None:
        cmd = cur.take()
        while is_token(cur.peek(), "\\limits", "\\nolimits", *V.SPACING):
            cur.take()
        sub, sup, primes, (pos, end) = self._scripts(cur)
        if primes:
            raise TranslateError("a prime on \\sum", cmd.pos, end)
        if sub is None and sup is not None:
            # \sum^{n} a_{ik} b_{kj}: only the upper bound; the index is the one the
            # body contracts (or its only index)
            var = self._summed_index(cur, sup)
            if var is None:
                raise TranslateError("which index does this \\sum run over? write it, as "
                                     "in \\sum_{k=1}^{n}", cmd.pos, end)
            sub = [Token("letter", var, cmd.pos, cmd.end)]
        if sub is None:
            raise TranslateError("\\sum needs its index, as in \\sum_{j=1}^{n} or \\sum_j",
                                 cmd.pos, cmd.end)
        names = [n for n in sub if not is_token(n, *V.SPACING)]
        if sup is None and len(names) in (2, 3) and all(
                isinstance(n, Token) and n.kind == "letter" and len(n.text) == 1 and
                n.text.islower() for n in names) and \
                len({n.text for n in names}) == len(names):
            # \sum_{ij}: the indices run together, a sum over i, then over j, each over
            # its whole range (as \sum_{i,j})
            names = [x for n in names for x in (n, Token("sym", ",", n.pos, n.end))][:-1]
        if sup is None and len(names) >= 3 and all(
                (is_token(n, ",") if k % 2 else isinstance(n, Token) and n.kind == "letter"
                 and len(n.text) == 1) for k, n in enumerate(names)) and len(names) % 2:
            # \sum_{a, b}: a sum over a, then over b, each over its whole range
            for n in names[::2]:
                em.put("\\sum_{", cmd.pos, cmd.end)
                em.atom(Atom("bound", n.text), cmd.pos, end)
                em.put("=1}^{", cmd.pos, end)
                em.atom(Atom("auto", n.text), cmd.pos, end)
                em.put("}", cmd.pos, end)
            if cur.at_end():
                raise TranslateError("\\sum has nothing to add up", cmd.pos, end)
            return
        names = [n for n in sub if not is_token(n, *V.SPACING)]
        if sup is None and len(names) == 3 and isinstance(names[0], Token) and \
                names[0].kind == "letter" and is_token(names[1], "\\neq", "\\ne") and \
                isinstance(names[2], Token) and names[2].kind in ("letter", "num") and \
                names[2].text != names[0].text:
            # \sum_{k \neq i} T: every k but i, read as \sum_k (1 - \delta_{ki}) T; the
            # factor goes in front of the term, which runs to the next + or -
            index, other, at = names[0], names[2], names[1]
            sub = [index]

            def tok(kind, text):
                return Token(kind, text, at.pos, at.end)
            factor = [tok("sym", "("), tok("num", "1"), tok("sym", "-"), tok("cmd", "\\delta"),
                      tok("sym", "_"), Group(tok("sym", "{"), [index, other], tok("sym", "}")),
                      tok("sym", ")")]
            cur.nodes = cur.nodes[:cur.i] + factor + cur.nodes[cur.i:]
        var, lower, upper = self._range_of(sub, sup, "\\sum", cmd.pos, end)
        em.put("\\sum_{", cmd.pos, cmd.end)
        em.atom(Atom("bound", var), cmd.pos, end)
        em.put("=", cmd.pos, end)
        if lower is None:
            em.put("1", cmd.pos, cmd.end)
        else:
            self._emit_index(lower, em, pos, end)
        em.put("}^{", cmd.pos, cmd.end)
        if upper is None:
            em.atom(Atom("auto", var), cmd.pos, end)
        else:
            self._emit_index(upper, em, pos, end)
        em.put("}", cmd.pos, end)
        if cur.at_end():
            raise TranslateError("\\sum has nothing to add up", cmd.pos, end)

    def _summed_index(self, cur: Cursor, sup: list) -> str | None:
        """The index a sum written with only its upper bound runs over: the letter the
        subscripts of its term use twice or more (k in a_{ik} b_{kj}), else their only
        letter; None when that does not decide it."""
        from collections import Counter
        bound = {t.text for t in _tokens(sup) if t.kind == "letter"}
        counts: Counter = Counter()
        depth = 0
        k = cur.i
        while k < len(cur.nodes):
            node = cur.nodes[k]
            if isinstance(node, Token) and node.text in ("(", "[", "\\left"):
                depth += 1
            elif isinstance(node, Token) and node.text in (")", "]", "\\right"):
                depth -= 1
            elif depth == 0 and is_token(node, "+", "-", "=", ",", "\\sum"):
                break
            if is_token(node, "_") and k + 1 < len(cur.nodes):
                for t in _tokens(arg_nodes(cur.nodes[k + 1])):
                    if t.kind == "letter" and len(t.text) == 1 and t.text.islower() and \
                            t.text not in bound and t.text not in self.ref.sizes:
                        counts[t.text] += 1
            k += 1
        twice = [name for name, n in counts.items() if n >= 2]
        if len(twice) == 1:
            return twice[0]
        return next(iter(counts)) if len(counts) == 1 else None

    def _range_of(self, sub: list, sup, what: str, pos: int, end: int):
        """The index and bounds of a sum (or max): ``_{j=1}^{n}``, ``_j``, ``_{j'=1}^{n}``,
        ``_{1 \\le j \\le n}``, ``_{j \\le i}``.  Returns (name, lower, upper); a bound
        is an index item, or None (lower 1; upper inferred from the body)."""
        toks = [n for n in sub if not is_token(n, *V.SPACING)]
        shown = " ".join(self.src.text[sub[0].pos:sub[-1].end].split()) if sub else "..."
        hint = (f"write the range as {what}_{{j=1}}^{{n}}, {what}_{{1 \\le j \\le n}} or "
                f"{what}_j (this one reads {what}_{{{shown}}})")
        rels = [k for k, t in enumerate(toks) if is_token(t, "=", "\\le", "\\leq", "<",
                                                          "\\ge", "\\geq", ">", "\\in")]
        parts, start = [], 0
        for k in rels:
            parts.append(toks[start:k])
            start = k + 1
        parts.append(toks[start:])
        if any(not p for p in parts):
            raise TranslateError(hint, pos, end)
        kinds = [toks[k].text for k in rels]

        def name_of(nodes):
            got = name_at(nodes, 0)
            if got is None or got[1] != len(nodes):
                return None
            return got[0]

        def item(nodes):
            try:
                return read_expr(nodes)
            except NotIndex:
                raise TranslateError(f"cannot read the bound {plain(nodes) or '...'}; "
                                     + hint, pos, end) from None

        upper = None
        if sup is not None:
            upper = item([n for n in sup if not is_token(n, *V.SPACING)])
        if not kinds:
            var = name_of(parts[0])
            if var is None:
                raise TranslateError(hint, pos, end)
            return var, None, upper
        if kinds == ["="]:
            var = name_of(parts[0])
            if var is None:
                raise TranslateError(hint, pos, end)
            return var, item(parts[1]), upper
        if upper is not None:
            raise TranslateError(f"{what} has both a range under it and a bound above it; "
                                 + hint, pos, end)
        le = {"\\le": "le", "\\leq": "le", "<": "lt", "\\ge": "ge", "\\geq": "ge",
              ">": "gt"}
        if len(kinds) == 2 and all(le.get(k) in ("le", "lt") for k in kinds):
            var = name_of(parts[1])
            if var is None:
                raise TranslateError(hint, pos, end)
            lower, upper = item(parts[0]), item(parts[2])
            if le[kinds[0]] == "lt":
                lower = _shift(lower, 1)
            if le[kinds[1]] == "lt":
                upper = _shift(upper, -1)
            return var, lower, upper
        if len(kinds) == 1 and le.get(kinds[0]) in ("le", "lt"):
            var = name_of(parts[0])
            if var is None:
                raise TranslateError(hint, pos, end)
            upper = item(parts[1])
            return var, None, (_shift(upper, -1) if le[kinds[0]] == "lt" else upper)
        raise TranslateError(hint, pos, end)

    def _emit_index(self, item, em: Emitter, pos: int, end: int) -> None:
        """An index item as placeholder text: numbers, sizes and indices with + and -."""
        if isinstance(item, int):
            em.put(str(item) if item >= 0 else f"({item})", pos, end)
            return
        if isinstance(item, str):
            kind = "size" if item in self.ref.sizes else "index"
            em.atom(Atom(kind, item), pos, end)
            return
        first = True
        for name, coef in item.terms:
            if coef < 0:
                em.put("-", pos, end)
            elif not first:
                em.put("+", pos, end)
            if abs(coef) != 1:
                em.put(str(abs(coef)), pos, end)
                em.put("\\cdot", pos, end)
            kind = "size" if name in self.ref.sizes else "index"
            em.atom(Atom(kind, name), pos, end)
            first = False
        if item.const:
            em.put("-" if item.const < 0 else "+", pos, end)
            em.put(str(abs(item.const)), pos, end)

    # -- explicit matrices ----------------------------------------------------------
    @staticmethod
    def _columns_told_apart(env: Env, rows: list) -> None:
        """A row typed with spaces between its entries (``1 \\ 2``, ``1 \\quad 2``, or
        two numbers side by side) has columns no one can tell apart: unreadable, never
        a product."""
        gaps = ("\\ ", "\\quad", "\\qquad", "\\hspace", "\\enspace", "\\;", "\\:")
        operators = set(V.MUL) | set(V.DIV) | {"+", "-", "=", ","}
        for row in rows:
            for cell in row:
                nodes = [n for n in cell if not is_token(n, "\\,", "\\!")]
                for k in range(1, len(nodes) - 1):
                    if is_token(nodes[k], *gaps) and len(row) == 1 and not (
                            is_token(nodes[k - 1], *operators) or
                            is_token(nodes[k + 1], *operators)):
                        raise TranslateError(
                            "the columns of this matrix cannot be told apart: the entries "
                            "of a row are separated by spaces, not by '&'; write & between "
                            "them", nodes[k].pos, nodes[k].end)
                for a, b in zip(nodes, nodes[1:]):
                    if isinstance(a, Token) and isinstance(b, Token) and a.kind == "num" \
                            and b.kind == "num":
                        raise TranslateError(
                            "the columns of this matrix cannot be told apart: two numbers "
                            "stand side by side; write & between the entries of a row",
                            b.pos, b.end)

    def _matrix(self, env: Env, em: Emitter, cur: Cursor) -> None:
        if env.name == "array" and not env.args and env.children and \
                isinstance(env.children[0], Group):
            # \left[ \begin{array}{cc} ... \end{array} \right]: its column spec goes
            import dataclasses
            env = dataclasses.replace(env, name="matrix", children=env.children[1:])
        if env.name not in MATRIX_ENVS:
            raise TranslateError(f"the environment {env.name} is not supported here; "
                                 f"write matrices with bmatrix or pmatrix", env.pos,
                                 env.begin.end)
        rows = env_rows(env)
        if self._pattern_matrix(env, rows, em, cur):
            return
        limit = self.ref.max_dim
        if len(rows) > limit or max(len(r) for r in rows) > limit:
            raise TranslateError(f"this matrix is larger than {limit} x {limit}", env.pos,
                                 env.begin.end)
        self._columns_told_apart(env, rows)
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
                content = [n for n in cell if not is_token(n, *V.SPACING)]
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


#: the comparisons an indicator holds, and those that point the other way
_ORDER = {">", "<", "\\gt", "\\lt", "\\ge", "\\geq", "\\le", "\\leq", "\\geqslant",
          "\\leqslant"}
_LESS = {"<", "\\lt", "\\le", "\\leq", "\\leqslant"}


def _is_partial(nodes: list) -> bool:
    first = next((n for n in nodes if not is_token(n, *V.SPACING)), None)
    return is_token(first, "\\partial")


def _tokens(nodes) -> list:
    """The tokens of ``nodes``, groups opened."""
    out = []
    for node in nodes:
        if isinstance(node, Token):
            out.append(node)
        elif isinstance(node, Group):
            out.extend(_tokens(node.children))
    return out


def _script_end(nodes: list, k: int) -> int:
    """The end of one name at ``k``: a letter or a command (with its argument, as in
    \\mathbf{x}), then its sub- and superscripts; ``k`` when there is none."""
    if k >= len(nodes) or not isinstance(nodes[k], Token) or \
            nodes[k].kind not in ("letter", "cmd") or nodes[k].text == "\\partial":
        return k
    return _name_end(nodes, k)
