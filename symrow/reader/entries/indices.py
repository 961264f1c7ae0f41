r"""Index names and index arithmetic: ``j'``, ``k_1``, ``i - m + n``, ``2d``.

An index is a whole number, a name (an index letter such as ``i``, possibly
primed, ``j'``, or with a subscript, ``k_1``; or a size such as ``m`` or
``ell``), or a linear :class:`IndexExpr` of those.  Subscripts, sum bounds,
the conditions of a ``cases`` and range notes such as ``(1 \le i \le m)``
are read with :func:`read_expr`.

>>> from symrow.reader.lexer import tokenize
>>> e = read_expr(tokenize("i - m + n"))
>>> e, e.value({"i": 2, "m": 2, "n": 5})
(IndexExpr(i - m + n), 5)
>>> read_expr(tokenize("j'")), read_expr(tokenize("2d")).value({"d": 3})
("j'", 6)
"""

from __future__ import annotations

import dataclasses

from ..lexer import Group, Token

__all__ = ["IndexExpr", "read_expr", "index_value", "index_names", "NotIndex", "name_at"]

#: spacing that may stand anywhere in an index
_SPACE = {"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad"}


class NotIndex(Exception):
    """The tokens are not an index expression; ``node`` is where reading stopped."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.message = message
        self.node = node


@dataclasses.dataclass(frozen=True)
class IndexExpr:
    """``const + sum(coef * name)``: index arithmetic such as ``i - m + n``."""

    terms: tuple        # ((name, coef), ...), sorted by first appearance
    const: int = 0

    def value(self, env) -> int:
        total = self.const
        for name, coef in self.terms:
            total += coef * env[name]
        return total

    @property
    def names(self) -> tuple:
        return tuple(name for name, _ in self.terms)

    def __repr__(self) -> str:
        return f"IndexExpr({self.text()})"

    def text(self) -> str:
        out = ""
        for name, coef in self.terms:
            shown = "\\ell" if name == "ell" else name
            word = shown if abs(coef) == 1 else f"{abs(coef)}{shown}"
            out += ("- " if coef < 0 else "+ ") + word + " " if out else \
                ("-" if coef < 0 else "") + word + " "
        if self.const or not out:
            out += ("- " if self.const < 0 else "+ ") + str(abs(self.const)) if out else \
                str(self.const)
        return out.strip()


def name_at(tokens: list, k: int, subscripts: bool = True) -> tuple[str, int] | None:
    """An index name starting at ``tokens[k]``: (name, next k), or None.

    ``j``, ``j'``, ``j''``, ``\\ell``, ``k_1``, ``k_{12}``, ``j^{\\prime}``.
    """
    tok = tokens[k]
    if not isinstance(tok, Token):
        return None
    if tok.text == "\\ell":
        name = "ell"
    elif tok.kind == "letter":
        name = tok.text
    else:
        return None
    k += 1
    while k < len(tokens):
        nxt = tokens[k]
        if isinstance(nxt, Token) and nxt.text == "'":
            name += "'"
            k += 1
        elif isinstance(nxt, Token) and nxt.text == "^" and k + 1 < len(tokens) and \
                _is_prime(tokens[k + 1]):
            name += "'"
            k += 2
        elif subscripts and isinstance(nxt, Token) and nxt.text == "_" and name != "ell" \
                and k + 1 < len(tokens) and "_" not in name:
            arg = tokens[k + 1]
            word = _plain_word(arg)
            if word is None:
                return None
            name += "_" + word
            k += 2
        else:
            break
    return name, k


def _is_prime(node) -> bool:
    if isinstance(node, Token):
        return node.text == "\\prime"
    if isinstance(node, Group):
        return len(node.children) == 1 and _is_prime(node.children[0])
    return False


def _plain_word(node) -> str | None:
    if isinstance(node, Token) and node.kind in ("num", "letter"):
        return node.text
    if isinstance(node, Group):
        parts = [n for n in node.children if not (isinstance(n, Token) and n.text in _SPACE)]
        if parts and all(isinstance(n, Token) and n.kind in ("num", "letter") for n in parts):
            return "".join(n.text for n in parts)
    return None


def read_expr(tokens: list, subscripts: bool = True):
    """Read ``tokens`` as one index: an int, a name, or an :class:`IndexExpr`.

    ``subscripts=False`` refuses names such as ``k_1`` (in a range note,
    ``s_{11}`` is an entry, not an index).  Raises :class:`NotIndex` when
    the tokens are something else.
    """
    toks = [t for t in tokens if not (isinstance(t, Token) and t.text in _SPACE)]
    if not toks:
        raise NotIndex("an empty index")
    coefs: dict = {}
    const = 0
    k = 0
    sign = 1
    expect = True
    while k < len(toks):
        tok = toks[k]
        if isinstance(tok, Token) and tok.text in ("+", "-"):
            if expect and k > 0:
                raise NotIndex("two signs in a row in an index", tok)
            sign = -1 if tok.text == "-" else 1
            expect = True
            k += 1
            continue
        if not expect:
            raise NotIndex("cannot read this index: write a sign between its terms", tok)
        factor = 1
        if isinstance(tok, Token) and tok.kind == "num":
            if not tok.text.isdigit() or len(tok.text) > 6:
                raise NotIndex(f"{tok.text} is not a whole number", tok)
            factor = int(tok.text)
            k += 1
            if k < len(toks) and isinstance(toks[k], Token) and toks[k].text in (
                    "\\cdot", "\\times"):
                k += 1
            got = name_at(toks, k, subscripts) if k < len(toks) else None
            if got is None:
                const += sign * factor
                sign, expect = 1, False
                continue
        else:
            got = name_at(toks, k, subscripts)
            if got is None:
                raise NotIndex(f"cannot read {getattr(tok, 'text', '...')!r} in an index", tok)
        name, k = got
        coefs[name] = coefs.get(name, 0) + sign * factor
        sign, expect = 1, False
    if expect:
        raise NotIndex("an index ends with a sign", toks[-1])
    terms = tuple((n, c) for n, c in coefs.items() if c)
    if not terms:
        return const
    if len(terms) == 1 and terms[0][1] == 1 and const == 0:
        return terms[0][0]
    return IndexExpr(terms, const)


def index_value(item, env, sizes) -> int:
    """The value of an index item; KeyError names an index with no value."""
    if isinstance(item, int):
        return item
    if isinstance(item, str):
        if item in env:
            return env[item]
        return sizes[item]
    return item.value(_Lookup(env, sizes))


class _Lookup:
    def __init__(self, env, sizes):
        self.env, self.sizes = env, sizes

    def __getitem__(self, name):
        if name in self.env:
            return self.env[name]
        return self.sizes[name]


def index_names(item) -> tuple:
    """The names an index item uses."""
    if isinstance(item, int):
        return ()
    if isinstance(item, str):
        return (item,)
    return item.names
