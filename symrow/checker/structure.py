"""Split a hand derivation into steps: chains of expressions joined by ``=``.

The structure is read here, not by the parser: math delimiters and the
layout environments (``align*``, ``aligned``, ``equation``, ...) are
dropped, ``&`` is ignored, and the text is cut into pieces at row breaks
(``\\\\`` and line ends), commas, ``\\text{...}`` and ``\\quad``.  A piece
that starts with ``=`` continues the chain above it (the ``&=`` style); a
piece that starts with ``+`` or ``-`` continues the expression above it;
any other piece with an ``=`` starts a new chain.  Each ``=`` of a chain is
one step.

>>> from symrow.checker.lexer import Source, tokenize, build_tree
>>> from symrow.checker.structure import split
>>> text = r"\\begin{align*} S &= QK^T \\\\ &= P \\end{align*} where $x = y$"
>>> src = Source(text)
>>> [[len(m.nodes) for m in c.members] for c in split(build_tree(tokenize(text), src), src)]
[[1, 4, 1], [1, 1]]

Text that marks its mathematics (``$...$``, ``\\[...\\]``, an ``align*``) is
read for that mathematics only; the prose around it ("where") is skipped.
"""

from __future__ import annotations

import dataclasses

from .lexer import DOC_ENVS, MATRIX_ENVS, Env, Group, Source, Token

__all__ = ["Member", "Chain", "Problem", "split"]

#: commands that start a stretch of prose: a separator between equations
_TEXT_CMDS = {"\\text", "\\textrm", "\\textit", "\\textbf", "\\textnormal", "\\mbox",
              "\\intertext", "\\shortintertext", "\\textup", "\\textsf"}
_DROP_WITH_ARG = {"\\label", "\\tag", "\\hspace", "\\vspace", "\\phantom", "\\hphantom",
                  "\\vphantom"}
_DROP = {"\\nonumber", "\\notag", "\\displaystyle", "\\textstyle", "\\noindent",
         "\\allowbreak", "\\[", "\\]", "\\(", "\\)", "\\relax", "\\medskip", "\\smallskip",
         "\\bigskip", "\\newline"}
_BREAK = {"\\[", "\\]", "\\(", "\\)", "\\newline"}
_EQUALS = {"=", "\\coloneqq", "\\eqqcolon", "\\equiv", "\\triangleq", "\\doteq",
           "\\coloneq"}
_OPEN = {"(", "[", "\\langle", "\\lbrack", "\\lgroup", "\\{"}
_CLOSE = {")", "]", "\\rangle", "\\rbrack", "\\rgroup", "\\}"}
#: arrows: what stands next to one describes a map; on its own it is not a claim
_MAPS = {"\\mapsto", "\\longmapsto", "\\to", "\\rightarrow", "\\longrightarrow",
         "\\Rightarrow", "\\Longrightarrow", "\\implies", "\\iff", "\\Leftrightarrow",
         "\\Longleftrightarrow"}
_BINOPS = {"+", "-", "\\cdot", "\\times", "*", "/", "\\div", "\\ast", "\\pm", "\\mp"}


@dataclasses.dataclass
class Member:
    """One side of an ``=``: a list of tree nodes."""

    nodes: list
    pos: int
    end: int


@dataclasses.dataclass
class Chain:
    """``members[0] = members[1] = ...``; ``equals[k]`` sits between members k and k+1."""

    members: list
    equals: list


@dataclasses.dataclass
class Problem:
    """A piece that cannot be a step, with the place to point at."""

    message: str
    pos: int
    end: int


def _softmax_text(group: Group) -> bool:
    letters = "".join(t.text for t in group.children if isinstance(t, Token)
                      and t.kind == "letter")
    return letters.lower() == "softmax"


_MATH_OPEN = {"\\[", "\\("}
_MATH_CLOSE = {"\\]", "\\)"}


def _has_math_marks(nodes: list) -> bool:
    for node in nodes:
        if isinstance(node, Token) and (node.kind == "dollar" or node.text in _MATH_OPEN):
            return True
        if isinstance(node, Env) and (node.name in DOC_ENVS or _has_math_marks(node.children)):
            return True
    return False


def _flatten(nodes: list, out: list, state: dict) -> None:
    """Splice layout environments into one stream; mark their edges as row breaks.

    When the text marks its mathematics (``$...$``, ``\\[...\\]``, ``align*``, ...),
    only that is read: prose around it, even a whole document, is skipped.
    """
    for node in nodes:
        if isinstance(node, Env) and node.name in DOC_ENVS:
            out.append(("brk", node.begin))
            was, state["math"] = state["math"], True
            _flatten(node.children, out, state)
            state["math"] = was
            out.append(("brk", node.end_token))
        elif isinstance(node, Token) and node.kind == "dollar":
            state["math"] = not state["math"]
            out.append(("brk", node))
        elif isinstance(node, Token) and node.text in _MATH_OPEN:
            state["math"] = True
            out.append(("brk", node))
        elif isinstance(node, Token) and node.text in _MATH_CLOSE:
            state["math"] = False
            out.append(("brk", node))
        elif state["prose"] and not state["math"]:
            if isinstance(node, Group):
                _flatten(node.children, out, state)
            elif isinstance(node, Env) and node.name not in MATRIX_ENVS:
                _flatten(node.children, out, state)
        else:
            out.append(("node", node))


def _items(nodes: list) -> list:
    """Classify the top-level stream: content nodes, '=', separators, breaks."""
    flat: list = []
    marked = _has_math_marks(nodes)
    _flatten(nodes, flat, {"prose": marked, "math": not marked})
    items: list = []
    depth = 0
    skip_delim = False
    k = 0
    while k < len(flat):
        kind, node = flat[k]
        k += 1
        if kind == "brk":
            items.append(("brk", node))
            continue
        if depth == 0 and getattr(node, "newline", False):
            items.append(("soft", node))
        if isinstance(node, Token):
            text = node.text
            if skip_delim:
                skip_delim = False
                items.append(("node", node))
                continue
            if text == "\\left":
                depth += 1
                skip_delim = True
            elif text == "\\right":
                depth = max(0, depth - 1)
                skip_delim = True
            elif node.kind in ("sym", "cmd") and text in _OPEN:
                depth += 1
            elif node.kind in ("sym", "cmd") and text in _CLOSE:
                depth = max(0, depth - 1)
            if depth == 0:
                if node.kind == "rowsep" or text in _BREAK:
                    items.append(("brk", node))
                    continue
                if text == "&" or text in _DROP:
                    continue
                if text in _DROP_WITH_ARG or text == "\\tag*":
                    if k < len(flat) and isinstance(flat[k][1], Group):
                        k += 1
                    continue
                if text == ":" and k < len(flat) and isinstance(flat[k][1], Token) \
                        and flat[k][1].text == "=":
                    items.append(("eq", flat[k][1]))
                    k += 1
                    continue
                if text in _EQUALS and node.kind in ("sym", "cmd"):
                    items.append(("eq", node))
                    continue
                if text in _MAPS:
                    items.append(("map", node))
                    continue
                if text == "\\in":
                    items.append(("in", node))
                    continue
                if text in (",", ";", "."):
                    items.append(("sep", node))
                    continue
                if text in ("\\quad", "\\qquad"):
                    items.append(("space", node))
                    continue
                if text in _TEXT_CMDS:
                    if k < len(flat) and isinstance(flat[k][1], Group):
                        if _softmax_text(flat[k][1]):
                            items.append(("node", node))
                            continue
                        k += 1
                    items.append(("sep", node))
                    continue
        items.append(("node", node))
    return items


def _is_binop(node) -> bool:
    return isinstance(node, Token) and node.text in _BINOPS


def _span(nodes: list) -> tuple[int, int]:
    return nodes[0].pos, nodes[-1].end


def split(nodes: list, src: Source) -> list:
    """The chains (and problems) of a document tree, in source order."""
    # pieces: runs of items between separators; each remembers what came before it
    # A piece next to an arrow (a_i \mapsto c_i) describes a map: without an '=' it is
    # skipped quietly.  After \in (A \in R^{2x3}) everything up to the next separator is
    # a membership, which is skipped.
    pieces: list[tuple[str, list, bool]] = []
    current: list = []
    before = "brk"
    quiet = False
    skipping = False
    for kind, node in _items(nodes):
        if skipping:
            if kind not in ("brk", "soft", "sep", "map"):
                continue
            skipping = False
        if kind == "in":
            kind, skipping = "sep", True
        if kind == "map":
            if current:
                pieces.append((before, current, True))
                current = []
            before = "sep"
            quiet = True
            continue
        if kind in ("brk", "soft", "sep") or (kind == "space" and any(
                k == "node" for k, _ in current)):
            if current:
                pieces.append((before, current, quiet))
                current = []
                before = kind
            elif kind == "brk" or (kind == "soft" and before != "brk"):
                before = kind
            quiet = False
            continue
        if kind == "space":
            continue
        current.append((kind, node))
    if current:
        pieces.append((before, current, quiet))

    out: list = []          # Chain drafts and Problems, in order
    draft: list | None = None   # [members (lists of nodes), equals]
    for before, piece, quiet in pieces:
        parts: list[list] = [[]]
        equals: list[Token] = []
        for kind, node in piece:
            if kind == "eq":
                equals.append(node)
                parts.append([])
            else:
                parts[-1].append(node)
        if draft is not None and not draft[0][-1]:
            # the chain above ended with '=': this piece supplies its right side
            draft[0][-1].extend(parts[0])
            draft[0].extend(parts[1:])
            draft[1].extend(equals)
            continue
        if not parts[0] and equals:
            if draft is None:
                out.append(Problem("this '=' has nothing on its left", equals[0].pos,
                                   equals[0].end))
                draft = [parts[1:], equals[1:]]
                out.append(draft)
                continue
            draft[0].extend(parts[1:])
            draft[1].extend(equals)
            continue
        if not equals:
            content = parts[0]
            if draft is not None and before != "sep" and (
                    _is_binop(content[0]) or _is_binop(draft[0][-1][-1])):
                draft[0][-1].extend(content)
                continue
            draft = None
            if not quiet:
                out.append(Problem("there is no '=' here, so there is nothing to check",
                                   *_span(content)))
            continue
        draft = [parts, equals]
        out.append(draft)
    result: list = []
    for item in out:
        if isinstance(item, Problem):
            result.append(item)
        else:
            result.extend(_finish(*item))
    return result


def _finish(parts: list, equals: list) -> list:
    """A chain draft as Chains; empty sides (``a = = b``, a trailing ``=``) become Problems."""
    out: list = []
    members: list = []
    eqs: list = []
    for k, nodes in enumerate(parts):
        if not nodes:
            if not equals:
                continue
            eq = equals[k - 1] if k > 0 else equals[0]
            out.append(Problem("there is nothing on this side of '='", eq.pos, eq.end))
            if len(members) > 1:
                out.append(Chain(members, eqs))
            members, eqs = [], []
            continue
        if members:
            eqs.append(equals[k - 1])
        members.append(Member(nodes, *_span(nodes)))
    if len(members) > 1:
        out.append(Chain(members, eqs))
    out.sort(key=lambda item: item.pos if isinstance(item, Problem) else item.members[0].pos)
    return out
