r"""Gradients as students write them, read as the names a backward derivation gives them.

Against a backward derivation (:func:`symrow.backward`), the gradient of X is
the quantity ``\bar{X}``.  Students and textbooks write it many ways; each is
rewritten, in the page's tree, into the bar form before anything is read:

* ``\frac{\partial L}{\partial X}`` (also ``\dfrac``, ``\tfrac``, ``\mathcal{L}``
  or ``\ell`` for the loss), ``\partial L / \partial X`` and
  ``{\partial L \over \partial X}``;
* ``\nabla_X L``;
* ``G_X`` and ``\delta_X``, when X is a matrix of the formula; ``dX`` (CS231n's and
  FlashAttention's ``dW``, ``dQ``: the d written against the name), ``\delta X`` and
  ``\partial X`` (``\partial W = X^T \Delta``, with no loss written);
* the same for rows and entries: ``\frac{\partial L}{\partial \boldsymbol{x}_i}``
  is row i of X̄, ``\frac{\partial L}{\partial x_{ij}}`` its entry (i, j).

The rewritten tokens keep the positions of what they replace, so a report
points at what the student wrote.

>>> from symrow.reader.lexer import Source, build_tree, tokenize
>>> from symrow.reader.entries.gradients import rewrite
>>> def show(text, names=("X", "W")):
...     src = Source(text)
...     return "".join(_text(n) for n in rewrite(build_tree(tokenize(text), src), set(names)))
>>> show(r"\frac{\partial L}{\partial W} = X^T \frac{\partial L}{\partial Y}", ("X", "W", "Y"))
'\\bar{W}=X^T\\bar{Y}'
>>> show(r"G_X = \partial L / \partial \boldsymbol{x}_i")
'\\bar{X}=\\bar{\\boldsymbol{x}}_{i}'
"""

from __future__ import annotations

import re

from .. import vocab as V
from ..lexer import Env, Group, Token

__all__ = ["rewrite", "as_bars", "chain_rule_letters", "derivative_by_entry"]

#: what the differential of a gradient of the loss is taken of (L, \mathcal{L}, ...)
LOSS_HEADS = frozenset({"L", "\\mathcal", "\\ell", "E", "J", "\\mathscr"})


def _text(node) -> str:
    if isinstance(node, Token):
        return node.text
    if isinstance(node, Group):
        return "{" + "".join(_text(c) for c in node.children) + "}"
    return ""


def _plain(nodes) -> list:
    return [n for n in nodes if not (isinstance(n, Token) and n.text in V.SPACING)]


#: the differential before a name: \partial, or d as in dL/dW (also \mathrm{d})
_UPRIGHT_D = ("\\mathrm", "\\text", "\\operatorname", "\\rm", "\\mathit")


def _differential(nodes: list) -> int:
    """How many nodes the differential at the start of ``nodes`` takes (``\\partial``,
    ``d``, ``\\mathrm{d}``, ``{\\rm d}``), 0 if there is none."""
    if not nodes:
        return 0
    first = nodes[0]
    if isinstance(first, Token) and first.text == "\\partial":
        return 1
    if isinstance(first, Token) and first.kind == "letter" and first.text == "d" and \
            len(nodes) > 1:
        return 1
    if isinstance(first, Token) and first.text in _UPRIGHT_D and len(nodes) > 2 and \
            _text(nodes[1]) in ("{d}", "d"):
        return 2
    if isinstance(first, Group) and [_text(c) for c in _plain(first.children)] in (
            ["\\rm", "d"], ["\\mathrm", "{d}"]):
        return 1
    return 0


def _loss(nodes: list, matrices=frozenset()) -> bool:
    """``\\partial L``, ``\\partial \\mathcal{L}``, ``dL``, ``\\mathrm{d}L``: the loss
    after a differential (also a lower-case ``l``, as PyTorch-minded pages write it, when
    the formula has no l of its own)."""
    nodes = _plain(nodes)
    k = _differential(nodes)
    if not k or len(nodes) < k + 1:
        return False
    rest = nodes[k:]
    head = rest[0]
    if isinstance(head, Token) and head.text in ("L", "E", "J", "\\ell") and len(rest) == 1:
        return True
    if isinstance(head, Token) and head.text == "l" and len(rest) == 1 and \
            not any(name[:1] in ("l", "L") and len(name) == 1 for name in matrices):
        return True
    if isinstance(head, Group) and [_text(c) for c in _plain(head.children)] == ["L"]:
        return True
    return isinstance(head, Token) and head.text in ("\\mathcal", "\\mathscr") and \
        len(rest) == 2


def _barred(nodes: list, start, end: int) -> list | None:
    """``\\partial NAME`` (or ``d NAME``) -> ``\\bar{HEAD}`` + the scripts of NAME, or
    None."""
    nodes = _plain(nodes)
    k = _differential(nodes)
    if not k or len(nodes) < k + 1:
        return None
    return _bar_of(nodes[k:], start, end)


_OLD_FONTS = {"\\bf": "\\mathbf", "\\rm": "\\mathrm", "\\it": "\\mathit",
              "\\sf": "\\mathsf", "\\boldsymbol": "\\boldsymbol"}


def _unfont(name: list) -> list:
    """``{\\bf X}_1`` -> ``\\mathbf{X}_1``: an old-style font switch as a font command."""
    head = name[0] if name else None
    if isinstance(head, Group):
        inner = _plain(head.children)
        if len(inner) == 2 and isinstance(inner[0], Token) and inner[0].text in _OLD_FONTS:
            font = Token("cmd", _OLD_FONTS[inner[0].text], head.pos, head.pos)
            return [font, Group(head.open, [inner[1]], head.close)] + list(name[1:])
    return name


def _bar_of(name: list, start, end: int | None = None) -> list | None:
    """A name's nodes with a bar over its head: ``\\boldsymbol{x}_i`` -> ``\\bar{\\boldsymbol{x}}_i``."""
    if not name:
        return None
    name = _unfont(name)
    head = name[0]
    if isinstance(head, Group) and len(_plain(head.children)) == 1 and \
            isinstance(_plain(head.children)[0], Token) and \
            _plain(head.children)[0].kind == "letter":
        name = [_plain(head.children)[0]] + list(name[1:])     # {W}_{ij}: braces only
        head = name[0]
    if isinstance(head, Token) and head.kind == "letter":
        k = 1
    elif isinstance(head, Token) and head.kind == "cmd" and len(name) > 1 and \
            isinstance(name[1], Group):
        k = 2
    elif isinstance(head, Token) and head.kind == "cmd":
        k = 1                                  # \Sigma
    else:
        return None
    rest = list(name[k:])
    # only scripts may follow the head
    j = 0
    while j < len(rest):
        if isinstance(rest[j], Token) and rest[j].text in ("_", "^") and j + 1 < len(rest):
            j += 2
        else:
            return None
    pos = start.pos
    end = name[-1].end if end is None else end
    bar = Token("cmd", "\\bar", pos, pos)
    # the new tokens span what they replace, so that a report shows what was written
    last = rest[-1] if rest else None
    close = end if last is None else name[k - 1].end
    group = Group(Token("sym", "{", pos, pos), list(name[:k]), Token("sym", "}", close, close))
    if last is not None and isinstance(last, Token):
        # a script's last token keeps its own text; a group around it spans the rest
        rest[-1] = Group(Token("sym", "{", last.pos, last.pos), [last],
                         Token("sym", "}", end, end))
    elif last is not None:
        rest[-1] = Group(last.open, last.children, Token("sym", "}", end - 1, end))
    return [bar, group] + rest


def rewrite(nodes: list, matrices: set) -> list:
    """The tree with every gradient written as ``\\bar{...}`` (see the module doc);
    ``matrices`` are the names ``G_X`` and ``\\delta_X`` may follow."""
    out: list = []
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, Group):
            inner = node.children
            overs = [j for j, c in enumerate(inner) if isinstance(c, Token) and c.text == "\\over"]
            if len(overs) == 1 and _loss(inner[:overs[0]], matrices):
                got = _barred(inner[overs[0] + 1:], node, node.end)
                if got is not None:
                    out += got
                    k += 1
                    continue
            out.append(Group(node.open, rewrite(inner, matrices), node.close))
            k += 1
            continue
        if isinstance(node, Env):
            out.append(Env(node.name, node.begin, rewrite(node.children, matrices),
                           node.end_token, node.end, node.args))
            k += 1
            continue
        if isinstance(node, Token):
            if node.text in V.FRACTIONS and k + 2 < len(nodes) and \
                    isinstance(nodes[k + 1], Group) and isinstance(nodes[k + 2], Group) and \
                    _loss(nodes[k + 1].children, matrices):
                got = _barred(nodes[k + 2].children, node, nodes[k + 2].end)
                if got is not None:
                    out += got
                    k += 3
                    continue
            if node.text in V.FRACTIONS and k + 2 < len(nodes) and \
                    isinstance(nodes[k + 1], Group) and isinstance(nodes[k + 2], Group) and \
                    _differential(_plain(nodes[k + 1].children)) and \
                    _differential(_plain(nodes[k + 2].children)):
                out += nodes[k:k + 3]   # dY/dX: a derivative as Leibniz writes it, kept whole
                k += 3
                continue
            if node.text == "\\partial" and _slash(nodes, k):
                end = _name_end(nodes, k + 4)
                got = _bar_of(nodes[k + 4:end], node)
                if got is not None:
                    out += got
                    k = end
                    continue
            flipped = _transposed_nabla(nodes, k) if node.text == "\\nabla" else None
            if flipped is not None:
                # \nabla^T_w \ell, \nabla_y^T \ell: the gradient, transposed
                out += flipped[0]
                k = flipped[1]
                continue
            if node.text == "\\nabla" and k + 2 < len(nodes) and \
                    isinstance(nodes[k + 1], Token) and nodes[k + 1].text == "_":
                sub = nodes[k + 2]
                name = sub.children if isinstance(sub, Group) else [sub]
                got = _bar_of(_plain(name), node, nodes[k + 3].end if k + 3 < len(nodes)
                              else None)
                after = nodes[k + 3] if k + 3 < len(nodes) else None
                if got is not None and isinstance(after, Token) and after.text in (
                        "L", "E", "J", "\\ell"):
                    out += got
                    k += 4
                    continue
                if got is not None and _is_cal_loss(nodes[k + 3:k + 5]):
                    out += got
                    k += 5
                    continue
            if node.text == "\\nabla" and k + 1 < len(nodes) and not (
                    isinstance(nodes[k + 1], Token) and nodes[k + 1].text == "_"):
                # \nabla W: the gradient of W itself
                end = _name_end(nodes, k + 1)
                name = _plain(nodes[k + 1:end])
                if name and "".join(_text(n) for n in name) in matrices:
                    got = _bar_of(name, node)
                    if got is not None:
                        out += got
                        k = end
                        continue
            if node.text in ("d", "\\delta", "\\partial") and k + 1 < len(nodes) and \
                    "d" not in matrices and isinstance(nodes[k + 1], Token) and \
                    (node.text != "d" or nodes[k + 1].pos == node.end) and \
                    not (node.text == "\\partial" and (_before_slash(nodes, k + 1) or (
                        k > 0 and _text(nodes[k - 1]) == "/"))):
                # dW, dQ (CS231n's and FlashAttention's spelling), \delta W: the gradient
                # of a matrix of the formula, the d written against its name
                end = _name_end(nodes, k + 1)
                first = nodes[k + 1]
                if node.text == "\\partial" and first.kind == "letter" and \
                        first.text.islower() and first.text.upper() in matrices and \
                        end == k + 4 and _text(nodes[k + 2]) == "_":
                    # \partial w_{ij}: an entry of the gradient of W (the page's shorthand
                    # for \partial E / \partial w_{ij})
                    got = _bar_of(_plain(nodes[k + 1:end]), node)
                    if got is not None:
                        out += got
                        k = end
                        continue
                while end > k + 2 and "".join(_text(n) for n in _plain(nodes[k + 1:end])) \
                        not in matrices:
                    end -= 2          # dS^T: the gradient of S, then its transpose
                name = _plain(nodes[k + 1:end])
                if name and "".join(_text(n) for n in name) in matrices:
                    got = _bar_of(name, node)
                    if got is not None:
                        out += got
                        k = end
                        continue
            if node.text in ("G", "\\delta") and k + 2 < len(nodes) and \
                    isinstance(nodes[k + 1], Token) and nodes[k + 1].text == "_":
                sub = nodes[k + 2]
                name = _plain(sub.children if isinstance(sub, Group) else [sub])
                if "".join(_text(n) for n in name) in matrices:
                    got = _bar_of(name, node)
                    if got is not None:
                        out += got
                        k += 3
                        continue
        out.append(node)
        k += 1
    return out


def _before_slash(nodes: list, k: int) -> bool:
    """Does a ``/`` follow the name at ``k`` (``\\partial y_k / \\partial W_{ij}``, a
    derivative on one line, not the gradient ``\\partial W`` of a name)?"""
    end = _name_end(nodes, k)
    rest = _plain(nodes[end:end + 2])
    return bool(rest) and isinstance(rest[0], Token) and rest[0].text == "/"


def _transposed_nabla(nodes: list, k: int):
    """``\\nabla^T_X L`` or ``\\nabla_X^T L`` at ``k``: (the bar form of X's gradient
    followed by its ``^T``, the index after it), or None."""
    rest = nodes[k + 1:k + 6]
    marks = [isinstance(n, Token) and n.text in ("_", "^") and n.text for n in rest]
    if marks[:1] == ["^"] and marks[2:3] == ["_"]:
        sup, sub, after = rest[1], rest[3], k + 5
    elif marks[:1] == ["_"] and marks[2:3] == ["^"]:
        sub, sup, after = rest[1], rest[3], k + 5
    else:
        return None
    word = "".join(_text(n) for n in _plain(sup.children if isinstance(sup, Group) else [sup]))
    if word.strip("{}") not in V.TRANSPOSE_WORDS:
        return None
    loss = nodes[after] if after < len(nodes) else None
    width = 1 if isinstance(loss, Token) and loss.text in ("L", "E", "J", "\\ell") else \
        2 if _is_cal_loss(nodes[after:after + 2]) else 0
    if not width:
        return None
    name = _plain(sub.children if isinstance(sub, Group) else [sub])
    end = nodes[after + width - 1].end
    got = _bar_of(name, nodes[k], end)
    if got is None:
        return None
    # in braces that span all the student wrote; the T keeps the place of its own
    sup_token = sup if isinstance(sup, Token) else _plain(sup.children)[0]
    inner = got + [Token("sym", "^", sup_token.pos, sup_token.pos), sup_token]
    pos = nodes[k].pos
    return [Group(Token("sym", "{", pos, pos), inner, Token("sym", "}", end, end))], \
        after + width


def _is_cal_loss(nodes: list) -> bool:
    """``\\mathcal{L}``, ``\\mathscr{L}`` (two nodes)."""
    return len(nodes) == 2 and isinstance(nodes[0], Token) and \
        nodes[0].text in ("\\mathcal", "\\mathscr") and _text(nodes[1]) in ("{L}", "L")


def _slash(nodes: list, k: int) -> bool:
    """``\\partial L / \\partial`` at ``k``."""
    if k + 4 >= len(nodes):
        return False
    loss, slash, partial = nodes[k + 1], nodes[k + 2], nodes[k + 3]
    return (isinstance(loss, Token) and loss.text in ("L", "E", "\\ell")
            and isinstance(slash, Token) and slash.text == "/"
            and isinstance(partial, Token) and partial.text == "\\partial")


def _name_end(nodes: list, k: int) -> int:
    """Where the name starting at ``k`` ends: its head, a font's group, and its scripts."""
    if k >= len(nodes):
        return k
    j = k + 1
    if isinstance(nodes[k], Token) and nodes[k].kind == "cmd" and j < len(nodes) and \
            isinstance(nodes[j], Group):
        j += 1
    while j + 1 < len(nodes) and isinstance(nodes[j], Token) and nodes[j].text in ("_", "^"):
        j += 2
    return j


# -- the same, on text (for the hints on a wrong gradient, see symrow.checker.hints) -----------

_LOSS_RE = r"(?:L|E|\\ell|\\mathcal\s*\{?\s*L\s*\}?)"
_NAME_RE = (r"(?:\\(?:mathbf|boldsymbol|bm|hat|tilde|bar)\s*\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z])"
            r"(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?(?:\s*\^\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?")
_PATTERNS = [
    re.compile(r"\\[dt]?frac\s*\{\s*\\partial\s*" + _LOSS_RE + r"\s*\}\s*\{\s*\\partial\s*(" +
               _NAME_RE + r")\s*\}"),
    re.compile(r"\\partial\s*" + _LOSS_RE + r"\s*/\s*\\partial\s*(" + _NAME_RE + r")"),
    re.compile(r"\{\s*\\partial\s*" + _LOSS_RE + r"\s*\\over\s*\\partial\s*(" + _NAME_RE +
               r")\s*\}"),
]
_G = re.compile(r"(?:G|\\delta)\s*_\s*(?:\{\s*(" + _NAME_RE + r")\s*\}|([A-Za-z]))")


def as_bars(text: str, matrices: set) -> str:
    """``text`` with its gradients written ``\\bar{X}`` (see the module doc), as text."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: r"\bar{%s}" % m.group(1), text)

    def g(m):
        name = m.group(1) or m.group(2)
        return r"\bar{%s}" % name if name in matrices else m.group(0)
    return _G.sub(g, text)


# -- the chain rule stated for names of no derivation -------------------------------------

def _head_letter(nodes: list) -> str | None:
    """The head of a name's nodes (``x^j`` -> x, ``\\boldsymbol{y}_i`` -> y), or None
    when the nodes are not one name with scripts."""
    nodes = _plain(nodes)
    if not nodes:
        return None
    k = 0
    head = nodes[0]
    if isinstance(head, Token) and head.kind == "cmd" and len(nodes) > 1 and \
            isinstance(nodes[1], Group):
        inner = _plain(nodes[1].children)
        if len(inner) != 1 or not isinstance(inner[0], Token) or inner[0].kind != "letter":
            return None
        letter, k = inner[0].text, 2
    elif isinstance(head, Token) and head.kind == "letter":
        letter, k = head.text, 1
    elif isinstance(head, Group) and len(_plain(head.children)) == 1 and \
            isinstance(_plain(head.children)[0], Token) and \
            _plain(head.children)[0].kind == "letter":
        letter, k = _plain(head.children)[0].text, 1       # {x} under a bar
    else:
        return None
    rest = nodes[k:]
    if len(rest) % 2 or any(not (isinstance(rest[j], Token) and rest[j].text in ("_", "^"))
                            for j in range(0, len(rest), 2)):
        return None
    return letter


def chain_rule_letters(members: list) -> list | None:
    """``\\frac{\\partial L}{\\partial x^j} = \\frac{\\partial L}{\\partial y^i}
    \\frac{\\partial y^i}{\\partial x^j}`` (gradients already written ``\\bar{x}^j``): the
    letters of the names a chain of products of derivatives differentiates (x, y), or
    None when a member is anything else."""
    letters: list = []
    for nodes in members:
        nodes = [n for n in _plain(nodes) if not (isinstance(n, Token) and
                                                   n.text in ("\\cdot", "\\,"))]
        if not nodes:
            return None
        k = 0
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, Token) and node.text == "\\bar" and k + 1 < len(nodes):
                end = _name_end(nodes, k + 1)
                letter = _head_letter(nodes[k + 1:end])
                if letter is None:
                    return None
                letters.append(letter)
                k = end
                continue
            if isinstance(node, Token) and node.text in V.FRACTIONS and k + 2 < len(nodes) \
                    and isinstance(nodes[k + 1], Group) and isinstance(nodes[k + 2], Group):
                top, bottom = _plain(nodes[k + 1].children), _plain(nodes[k + 2].children)
                if not (_differential(top) and _differential(bottom)):
                    return None
                for part in (top, bottom):
                    letter = _head_letter(part[_differential(part):])
                    if letter is None:
                        return None
                    letters.append(letter)
                k += 3
                continue
            return None
    return list(dict.fromkeys(letters))


def derivative_by_entry(nodes: list) -> bool:
    """``\\frac{\\partial O^{ib}}{\\partial V^{mb}}``: a derivative of something that is not
    the loss, by a name with indices (an entry); False for a gradient of the loss
    (``\\partial L / \\partial Z``) or a derivative by a whole matrix."""
    from ..lexer import walk_tokens
    texts = [t.text for t in walk_tokens(nodes)]
    if texts.count("\\partial") != 2:
        return False
    after = texts[texts.index("\\partial") + 1:][:1]
    if not after or after[0] in LOSS_HEADS:
        return False
    by = texts[len(texts) - 1 - texts[::-1].index("\\partial"):]
    return bool({"_", "^"} & set(by))
