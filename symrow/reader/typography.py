r"""Typography that papers print around a formula, taken off before it is read.

Pages colour their terms and label them (labml.ai's annotated papers), and
put a whole product under one bold command (``\mathbf{W_ah}_j`` for
:math:`\mathbf{W}_a\mathbf{h}_j`).  None of it changes what the formula
computes, so :func:`plain` rewrites the tree of a formula
(:func:`symrow.reader.lexer.build_tree`) into the one the formula means:

* ``\color{c}`` and ``\textcolor{c}{X}``: the colour goes, ``X`` stays;
* ``\underset{label}{X}``, ``\overset{label}{X}``, ``\underbrace{X}_{label}``,
  ``\overbrace{X}^{label}``: the label goes, ``X`` stays;
* a bold command over several symbols with scripts, ``\mathbf{W_a h}_j`` or
  ``\mathbf{X^{(0)}}``: each symbol bold on its own, ``\mathbf{W}_a\mathbf{h}_j``,
  ``\mathbf{X}^{(0)}`` (a bold word without scripts, ``\mathbf{Att}``, is left
  as it is: it may be one name).

>>> from symrow.reader.lexer import Source, build_tree, tokenize
>>> def show(text):
...     src = Source(text)
...     out = []
...     def flat(nodes):
...         for n in nodes:
...             if hasattr(n, "children"):
...                 out.append("{"); flat(n.children); out.append("}")
...             else:
...                 out.append(n.text)
...     flat(plain(build_tree(tokenize(text), src)))
...     return "".join(out)
>>> show(r"\underset{\mathbf{\color{green}{A}}}{Q_i^\top K_j}")
'{Q_i^\\topK_j}'
>>> show(r"\mathbf{W_ah}_j")
'\\mathbf{W}_a\\mathbf{h}_j'
>>> show(r"\mathbf{X^{(0)}}")
'\\mathbf{X}^{(0)}'
>>> show(r"\mathbf{Att}")
'\\mathbf{Att}'
"""

from __future__ import annotations

from . import vocab as V
from .lexer import Env, Group, Token
from .notation import GREEK_CAPITALS, GREEK_LOWER

__all__ = ["plain"]

#: commands whose first argument is a colour, dropped with it
_COLOUR = {"\\color", "\\textcolor", "\\colorbox"}
#: commands whose first argument is a label set above or below the second
_LABEL_FIRST = {"\\underset", "\\overset", "\\stackrel"}
#: commands whose argument is followed by a label in a script: \underbrace{X}_{label}
_LABEL_AFTER = {"\\underbrace": "_", "\\overbrace": "^"}


def _is(node, *texts: str) -> bool:
    return isinstance(node, Token) and node.text in texts


def _brace(node) -> Group:
    """``node`` as a braced group (a single token argument, ``\\underset a X``, too)."""
    if isinstance(node, Group):
        return node
    return Group(Token("sym", "{", node.pos, node.pos), [node], Token("sym", "}", node.end,
                                                                        node.end))


def _head_ends(nodes: list, k: int) -> int:
    """Where the symbol that starts at ``nodes[k]`` ends: a letter, a Greek letter, or a
    font or accent command with its argument."""
    node = nodes[k]
    if isinstance(node, Token) and (node.text in V.BOLD or node.text in V.ACCENTS) and \
            k + 1 < len(nodes):
        return k + 2
    return k + 1


def _symbols(children: list):
    """``children`` as symbols with their scripts, [(head nodes, script nodes)], or None
    when they are not only that."""
    out = []
    k = 0
    nodes = [n for n in children if not _is(n, *V.SPACING)]
    while k < len(nodes):
        node = nodes[k]
        if not (isinstance(node, Token) and (node.kind == "letter" or node.text in V.BOLD
                                             or node.text in V.ACCENTS
                                             or node.text in GREEK_CAPITALS
                                             or node.text in GREEK_LOWER)):
            return None
        end = _head_ends(nodes, k)
        head = nodes[k:end]
        k = end
        scripts = []
        while k + 1 < len(nodes) and _is(nodes[k], "_", "^"):
            scripts += nodes[k:k + 2]
            k += 2
        while k < len(nodes) and _is(nodes[k], "'"):
            scripts.append(nodes[k])
            k += 1
        out.append((head, scripts))
    return out


def _split_font(font: Token, arg) -> list | None:
    """``\\mathbf{W_ah}`` as ``\\mathbf{W}_a \\mathbf{h}``; None to leave it alone."""
    if not isinstance(arg, Group):
        return None
    symbols = _symbols(arg.children)
    if not symbols:
        return None
    scripted = any(scripts for _, scripts in symbols)
    if not scripted or len(symbols) == 1 and not any(
            _is(s, "^") for s in symbols[0][1]):
        return None     # \mathbf{Att}, \mathbf{W_Q}: a name, read as one
    out: list = []
    for head, scripts in symbols:
        out += [font, _brace(head[0]) if len(head) == 1 else
                Group(Token("sym", "{", head[0].pos, head[0].pos), head,
                      Token("sym", "}", head[-1].end, head[-1].end))]
        out += scripts
    return out


def plain(nodes: list) -> list:
    """The tree without colours, labels, or a font over several symbols (see the module)."""
    out: list = []
    k = 0
    while k < len(nodes):
        node = nodes[k]
        nxt = nodes[k + 1] if k + 1 < len(nodes) else None
        if isinstance(node, Group):
            out.append(Group(node.open, plain(node.children), node.close))
        elif isinstance(node, Env):
            out.append(Env(node.name, node.begin, plain(node.children), node.end_token,
                           node.end, node.args))
        elif node.text in _COLOUR and isinstance(nxt, Group):
            k += 2           # \color{c}: a switch; \textcolor{c}{X}: X follows, kept
            continue
        elif node.text in _LABEL_FIRST and nxt is not None and k + 2 < len(nodes):
            out.append(_brace(plain([nodes[k + 2]])[0]))
            k += 3
            continue
        elif node.text in _LABEL_AFTER and nxt is not None:
            out.append(_brace(plain([nxt])[0]))
            k += 2
            if k + 1 < len(nodes) and _is(nodes[k], _LABEL_AFTER[node.text]):
                k += 2
            continue
        elif node.text in V.BOLD and nxt is not None:
            inner = plain([nxt])[0]
            split = _split_font(node, inner)
            if split is not None:
                out += split
            else:
                out += [node, inner]
            k += 2
            continue
        else:
            out.append(node)
        k += 1
    return _unwrap(out)


def _unwrap(nodes: list) -> list:
    """``{{A}}`` (what ``\\mathbf{\\color{c}{A}}`` leaves) is ``{A}``."""
    return [Group(n.open, n.children[0].children, n.close)
            if isinstance(n, Group) and len(n.children) == 1 and
            isinstance(n.children[0], Group) else n for n in nodes]
