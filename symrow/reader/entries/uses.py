r"""Where a page uses a name: as the lone argument of a function, or otherwise.

A page may name the target's input in its own letter only through the function the
target applies to it (``softmax(x)`` where the target is ``P = \mathrm{softmax}(S)``),
and then write that input's entries ``x_i``.  :func:`name_uses` lists every name a
member of a claim writes, with the function it is the whole argument of (None
otherwise), so that the checker can tell a name used only that way; :func:`sum_limits`
lists the sums ``\sum_{j=1}^{n}`` (either script first) with the names their index
subscripts in the same expression, the evidence that the page's ``n`` is a length.

>>> from symrow.reader.lexer import Source, build_tree, tokenize
>>> text = r"softmax(x)_i = \frac{e^{x_i}}{\sum^{n}_{j=1}e^{x_j}}"
>>> src = Source(text)
>>> tree = build_tree(tokenize(text), src)
>>> [(u.parts.canonical, u.function) for u in name_uses(tree, src) if u.parts.head == "x"]
[('x', 'softmax'), ('x_i', None), ('x_j', None)]
>>> [(s.index, s.upper, sorted(p.canonical for p in s.indexed)) for s in sum_limits(tree, src)]
[('j', 'n', ['x_j'])]
"""

from __future__ import annotations

import dataclasses

from .. import vocab as V
from ..lexer import Cursor, Env, Group, Token
from ..notation import NameError_, NameParts, is_name_start, lookup_function, read_name
from .units import is_token, plain

__all__ = ["Use", "Sum", "name_uses", "sum_limits"]

#: commands that set a function's name upright: \mathrm{softmax}, \operatorname{ReLU}
_WORD_FONTS = ("\\mathrm", "\\operatorname", "\\text", "\\textrm", "\\mathit", "\\mathop")


@dataclasses.dataclass(frozen=True)
class Use:
    """One name as written (its parts), where, and the key of the function whose
    whole argument it is (None when it is not one)."""

    parts: NameParts
    pos: int
    end: int
    function: str | None = None


@dataclasses.dataclass(frozen=True)
class Sum:
    r"""``\sum_{j=1}^{n} ...``: its index, its upper limit as written (one letter), and
    the names its index subscripts after it in the same expression (``x_j``)."""

    index: str
    upper: str
    indexed: tuple
    pos: int


def _function_at(nodes: list, k: int):
    """(the function's key, the index after its name) when a function's name starts
    at ``nodes[k]``: letters typed together (``softmax``), an upright word
    (``\\mathrm{softmax}``) or a command (``\\tanh``); else None."""
    node = nodes[k]
    if not isinstance(node, Token):
        return None
    if node.kind == "letter":
        j = k + 1
        while j < len(nodes) and isinstance(nodes[j], Token) and nodes[j].kind == "letter" \
                and nodes[j].pos == nodes[j - 1].end:
            j += 1
        if j - k < 3:
            return None
        fn = lookup_function("".join(t.text for t in nodes[k:j]))
        return (fn.key, j) if fn is not None else None
    if node.text in _WORD_FONTS and k + 1 < len(nodes) and isinstance(nodes[k + 1], Group):
        word = plain(nodes[k + 1].children)
        fn = lookup_function(word) if word.isalpha() else None
        return (fn.key, k + 2) if fn is not None else None
    if node.text in V.FUNCTION_COMMANDS and not is_token(nodes[k + 1] if k + 1 < len(nodes)
                                                         else None, "_"):
        fn = lookup_function(V.FUNCTION_COMMANDS[node.text])
        return (fn.key, k + 1) if fn is not None else None
    return None


def _bracketed(nodes: list, k: int):
    """(the nodes inside, the index after the closer) for ``( ... )`` or ``\\left( ...
    \\right)`` at ``nodes[k]`` (spacing skipped); else None."""
    while k < len(nodes) and is_token(nodes[k], *V.SPACING):
        k += 1
    left = k < len(nodes) and is_token(nodes[k], "\\left")
    if left:
        k += 1
    if k >= len(nodes) or not is_token(nodes[k], "("):
        return None
    depth, start = 0, k + 1
    for j in range(start, len(nodes)):
        if is_token(nodes[j], "("):
            depth += 1
        elif is_token(nodes[j], ")"):
            if depth == 0:
                inner = nodes[start:j]
                if left:
                    if not inner or not is_token(inner[-1], "\\right"):
                        return None
                    inner = inner[:-1]
                return inner, j + 1
            depth -= 1
    return None


def _lone_name(nodes: list, src):
    """The name ``nodes`` are, alone (spacing aside), or None."""
    nodes = [n for n in nodes if not is_token(n, *V.SPACING)]
    if not nodes or not is_name_start(nodes[0]):
        return None
    cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
    try:
        parts, pos, end = read_name(cur, src)
    except NameError_:
        return None
    return (parts, pos, end) if cur.at_end() else None


def name_uses(nodes: list, src) -> list[Use]:
    """Every name the nodes write, in order, with the function it is the lone argument
    of (``softmax(x)``: x, ``softmax``)."""
    out: list[Use] = []
    _walk(nodes, src, out)
    return out


def _walk(nodes: list, src, out: list) -> None:
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, (Group, Env)):
            _walk(list(node.children), src, out)
            k += 1
            continue
        got = _function_at(nodes, k)
        if got is not None:
            key, after = got
            arg = _bracketed(nodes, after)
            if arg is not None:
                inner, after = arg
                lone = _lone_name(inner, src)
                if lone is not None:
                    parts, pos, end = lone
                    out.append(Use(parts, pos, end, key))
                    _walk_scripts(inner, src, out)
                else:
                    _walk(inner, src, out)
            k = after
            continue
        if is_name_start(node):
            cur = Cursor(nodes[k:], node.pos, nodes[-1].end)
            try:
                parts, pos, end = read_name(cur, src)
            except NameError_:
                k += 1
                continue
            out.append(Use(parts, pos, end))
            _walk_scripts(nodes[k:k + cur.i], src, out)
            k += max(cur.i, 1)
            continue
        k += 1


def _walk_scripts(nodes: list, src, out: list) -> None:
    """The names inside the scripts a name was read with (``e^{x}``: x); the group an
    accent or a font takes (the b of ``\\hat{b}``) is the name itself, not a script."""
    for k, node in enumerate(nodes):
        if isinstance(node, Group) and (k == 0 or is_token(nodes[k - 1], "_", "^")):
            _walk(list(node.children), src, out)


def sum_limits(nodes: list, src) -> list[Sum]:
    """The sums the nodes write whose upper limit is one letter (``\\sum_{j=1}^{n}``,
    ``\\sum^{n}_{j=1}``), with the names their index subscripts after them."""
    out: list[Sum] = []
    _sums(nodes, src, out)
    return out


def _script(node) -> str:
    inner = node.children if isinstance(node, Group) else [node]
    return " ".join(plain([n for n in inner if not is_token(n, *V.SPACING)]).split())


def _sums(nodes: list, src, out: list) -> None:
    for k, node in enumerate(nodes):
        if isinstance(node, (Group, Env)):
            _sums(list(node.children), src, out)
            continue
        if not is_token(node, "\\sum") or k + 4 >= len(nodes):
            continue
        scripts = {}
        j = k + 1
        for _ in range(2):
            if j + 1 < len(nodes) and is_token(nodes[j], "_", "^"):
                scripts[nodes[j].text] = _script(nodes[j + 1])
                j += 2
        lower, upper = scripts.get("_", ""), scripts.get("^", "")
        index, eq, start = lower.partition("=")
        index = index.strip()
        if not (eq and start.strip() == "1" and len(index) == 1 and index.isalpha() and
                len(upper) == 1 and upper.isalpha()):
            continue
        indexed = tuple(u.parts for u in name_uses(nodes[j:], src)
                        if u.parts.sub is not None and u.parts.sub.strip("{} ") == index)
        out.append(Sum(index, upper, indexed, node.pos))
