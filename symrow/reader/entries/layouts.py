r"""Reading ``cases`` (a mask), ``\max`` and ``\min``.

A mixin of :class:`symrow.reader.entries.translate.Translator`.  Each construct
becomes one placeholder whose parts are units of their own, so the parser
never sees it:

* ``\begin{cases} 0 & j \le i \\ -\infty & \text{otherwise} \end{cases}``: a
  ``cases`` atom; each row is a value and a condition on indices
  (``(j \leq i - m + n)``, ``\text{if } j > i``, ``\text{otherwise}``);
  the evaluator takes the first row whose condition holds;
* ``\max_j s_{1j}``, ``\max_{1 \le j \le n} x_j``, ``\max(a, b)``: a ``max``
  (or ``min``) atom over an index range or a list.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> ref = Reference(symrow.attention(2, 2, 2, causal=True))
>>> unit = translate_text(r"\begin{cases} 0 & (j \le i) \\ -\infty & (j > i) \end{cases}", ref)
>>> atom, = unit.atoms.values()
>>> atom.kind, atom.items
('cases', ((('le', 'j', 'i'),), (('gt', 'j', 'i'),)))
"""

from __future__ import annotations

from .. import vocab as V
from .indices import NotIndex, read_expr
from ..lexer import Env, Group, Token
from .units import Atom, Cursor, Emitter, TranslateError, env_rows, is_token

__all__ = ["NotationReader", "CONDITION_RELATIONS"]

#: relations a condition may use
CONDITION_RELATIONS = {"\\le": "le", "\\leq": "le", "\\leqslant": "le", "<": "lt",
                       "\\lt": "lt", "\\ge": "ge", "\\geq": "ge", "\\geqslant": "ge", ">": "gt",
                       "\\gt": "gt", "=": "eq", "\\ne": "ne", "\\neq": "ne"}
#: words that make a row the default one
_OTHERWISE = {"otherwise", "else", "elsewhere", "sonst", "その他", "それ以外"}
_FILLER = {"if", "for", "when", "where", "and", "のとき", "の場合", "ならば", "(", ")", ",",
           "\\quad", "\\qquad", "\\,", "\\;", "\\text", "\\mathrm", "\\textrm", "\\mbox"}


def _words(node) -> str:
    """The letters of a ``\\text{...}`` group, lowercased."""
    if isinstance(node, Group):
        return "".join(_words(n) for n in node.children)
    if isinstance(node, Token):
        return node.text.lower() if node.kind in ("letter", "bad") else " "
    return " "


class NotationReader:
    """Mixin: cases, max and min."""

    # -- cases ---------------------------------------------------------------------------
    def _cases(self, env: Env, em: Emitter, cur: Cursor) -> None:
        rows = env_rows(env)
        values, conditions = [], []
        for r, row in enumerate(rows, start=1):
            if len(row) > 2:
                raise TranslateError(f"row {r} of this cases has {len(row)} parts; write "
                                     f"'value & condition'", env.pos, env.begin.end)
            value = [n for n in row[0] if not is_token(n, *V.SPACING)]
            if len(row) > 1 and value and is_token(value[-1], ","):
                value = value[:-1]    # 'value, & condition': the comma of the prose
            if not value:
                raise TranslateError(f"row {r} of this cases has no value", env.pos,
                                     env.begin.end)
            values.append((self.unit(value, value[0].pos, value[-1].end),))
            conditions.append(self._condition(row[1] if len(row) > 1 else [], env, r))
        atom = Atom("cases", "cases", tuple(conditions), cells=tuple(values),
                    ident=next(self._ids))
        em.atom(atom, env.pos, env.end)
        self._postfix(cur, em, simple=False)

    def _condition(self, nodes: list, env: Env, row: int) -> tuple:
        """A row's condition as ((relation, index, index), ...); () for otherwise."""
        toks = []
        for node in nodes:
            if isinstance(node, Group):
                word = _words(node).strip()
                if any(w in word for w in _OTHERWISE):
                    return ()
                continue          # the argument of \text{if }, \text{for }
            if isinstance(node, Token) and (node.text in _FILLER or node.text in V.SPACING):
                continue
            if isinstance(node, Token) and node.kind == "bad":
                continue          # Japanese particles typed in math
            toks.append(node)
        if not toks:
            if not nodes:
                return ()
            return ()
        parts: list[list] = [[]]
        kinds = []
        for tok in toks:
            if isinstance(tok, Token) and tok.text in CONDITION_RELATIONS:
                kinds.append(CONDITION_RELATIONS[tok.text])
                parts.append([])
            else:
                parts[-1].append(tok)
        if not kinds or any(not p for p in parts):
            first = toks[0]
            raise TranslateError(f"cannot read the condition of row {row}: write it as a "
                                 f"comparison of indices, such as j \\le i, or "
                                 f"\\text{{otherwise}}", getattr(first, "pos", env.pos),
                                 getattr(toks[-1], "end", env.end))
        items = []
        for part in parts:
            try:
                items.append(read_expr(part))
            except NotIndex as err:
                node = err.node if err.node is not None else part[0]
                raise TranslateError(f"cannot read the condition of row {row}: "
                                     f"{err.message}", getattr(node, "pos", env.pos),
                                     getattr(node, "end", env.end)) from None
        return tuple((k, items[n], items[n + 1]) for n, k in enumerate(kinds))

    # -- max and min --------------------------------------------------------------------------
    def _arguments(self, inner: list, what: str, a: int, b: int) -> list[list]:
        """The arguments of ``what(x, y, ...)``: ``inner`` split at its top-level commas."""
        args: list[list] = [[]]
        depth = 0
        for node in inner:
            if isinstance(node, Token) and node.text in ("(", "[", "\\left"):
                depth += 1
            elif isinstance(node, Token) and node.text in (")", "]", "\\right"):
                depth -= 1
            if depth == 0 and is_token(node, ","):
                args.append([])
            else:
                args[-1].append(node)
        if any(not [n for n in arg if not is_token(n, *V.SPACING)] for arg in args):
            raise TranslateError(f"an empty argument of {what}", a, b)
        return args

    def _extremum(self, cur: Cursor, em: Emitter) -> None:
        cmd = cur.take()
        which = cmd.text.lstrip("\\")
        while is_token(cur.peek(), "\\limits", "\\nolimits", *V.SPACING):
            cur.take()
        sub = None
        if is_token(cur.peek(), "_"):
            script = cur.take()
            sub = self._script_arg(cur, script)
        if sub is None:
            got = self._bracket_arg(cur, cmd.text, cmd.pos, cmd.end)
            if got is None and is_token(cur.peek(), "\\{"):
                opener = cur.take()
                inner, close = self._until_close(cur, opener, "\\}")
                got = inner, opener.pos, close.end
            if got is None:
                raise TranslateError(f"{cmd.text} needs its arguments, as in {cmd.text}(a, b), "
                                     f"or an index, as in {cmd.text}_j s_{{ij}}", cmd.pos,
                                     cmd.end)
            inner, a, b = got
            args = self._arguments(inner, cmd.text, a, b)
            cells = tuple((self.unit(arg, arg[0].pos, arg[-1].end),) for arg in args)
            em.atom(Atom(which, "", (), cells=cells, ident=next(self._ids)), cmd.pos, b)
            self._no_script_after(cur, f"a script right after {cmd.text}(...); put it in "
                                       f"brackets first")
            return
        end = cur.nodes[cur.i - 1].end
        var, lower, upper = self._range_of(sub, None, cmd.text, cmd.pos, end)
        node = cur.peek()
        if node is None:
            raise TranslateError(f"{cmd.text} has nothing to take the {which} of", cmd.pos,
                                 end)
        start = cur.i
        self._primary(cur, Emitter())
        body = cur.nodes[start:cur.i]
        unit = self.unit(body, body[0].pos, body[-1].end)
        atom = Atom(which, var, (lower, upper), cells=((unit,),), ident=next(self._ids))
        em.atom(atom, cmd.pos, cur.nodes[cur.i - 1].end)
