"""Split a hand derivation into claims: chains of expressions joined by relations.

The structure is read here, not by the parser.  Math delimiters and the
layout environments (``align*``, ``aligned``, ``equation``, ...) are
dropped, ``&`` is ignored, and the text is cut into *segments* at row
breaks (``\\\\``), the edges of math (``$``, ``\\[``, an environment),
commas, ``\\text{...}`` and wide spaces between two expressions
(``\\quad``, ``\\qquad``, ``\\hspace{2pc}``: definitions side by side; a
wide space next to a relation is only space).  A line break is only white
space: it never ends an equation.  Then:

* a segment that starts with a relation (``&= ...``) continues the chain
  above it; one that starts with ``+`` or ``-`` continues its last side;
* a relation with nothing on either side (``$\\to$`` in a title), or an
  arrow with one side (``$QK^\\top \\to$ softmax``), is a word, not a claim;
* a segment with no relation at all makes no claim and is not a step,
  unless it continues the line above it (a display broken before a factor:
  ``a_{11}`` on one line and ``b_{11}`` on the next);
* any other segment with a relation starts a new chain.

Each relation of a chain (``=``, ``\\approx``, ``\\le``, ``\\in``,
``\\longmapsto``, ...) is one step.

>>> from symrow.reader.lexer import Source, tokenize, build_tree
>>> from symrow.checker.structure import split
>>> def show(text):
...     src = Source(text)
...     return [[src.text[m.pos:m.end] for m in c.members] for c in
...             split(build_tree(tokenize(text), src), src)]
>>> show(r"\\begin{align*} S &= QK^T \\\\ &= P \\end{align*} where $x = y$")
[['S', 'QK^T', 'P'], ['x', 'y']]
>>> show("\\\\[ c_{11} = a_{11}\\nb_{11} + a_{12} b_{21} \\\\]  Row $i$ of $C$.")
[['c_{11}', 'a_{11}\\nb_{11} + a_{12} b_{21}']]

Text that marks its mathematics (``$...$``, ``\\[...\\]``, an ``align*``) is
read for that mathematics only; the prose around it is skipped.

Where a layout is genuinely ambiguous the chain says so: ``joinable``
marks a chain that could also be the continuation of the chain before it
(a new line with its own ``=`` inside one display, or a row after ``\\\\``
with no relation).  The checker tries both readings; it never calls a step
wrong because of the layout alone.
"""

from __future__ import annotations

import dataclasses

from ..reader.lexer import DOC_ENVS, MATRIX_ENVS, Env, Group, Source, Token

__all__ = ["Member", "Relation", "Chain", "split", "RELATIONS"]

#: commands that start a stretch of prose: a separator between equations
_TEXT_CMDS = {"\\text", "\\textrm", "\\textit", "\\textbf", "\\textnormal", "\\mbox",
              "\\intertext", "\\shortintertext", "\\textup", "\\textsf"}
_DROP_WITH_ARG = {"\\label", "\\tag", "\\vspace", "\\phantom", "\\hphantom",
                  "\\vphantom"}
#: wide spaces: between two equations they separate them (``X = A \\hspace{2pc} W = B``)
_WIDE = {"\\quad", "\\qquad", "\\hspace", "\\hspace*", "\\hskip", "\\enspace",
         "\\hfill", "\\hfil"}
_DROP = {"\\nonumber", "\\notag", "\\displaystyle", "\\textstyle", "\\noindent",
         "\\allowbreak", "\\relax", "\\medskip", "\\smallskip", "\\bigskip"}
_BREAK = {"\\newline"}
_OPEN = {"(", "[", "\\langle", "\\lbrack", "\\lgroup", "\\{"}
_CLOSE = {")", "]", "\\rangle", "\\rbrack", "\\rgroup", "\\}"}
_BINOPS = {"+", "-", "\\cdot", "\\times", "*", "/", "\\div", "\\ast", "\\pm", "\\mp"}

#: relation tokens and the kind of claim each makes
RELATIONS = {
    "=": "eq", "\\coloneqq": "eq", "\\eqqcolon": "eq", "\\equiv": "eq", "\\triangleq": "eq",
    "\\doteq": "eq", "\\coloneq": "eq", "\\stackrel": None,
    "\\approx": "approx", "\\simeq": "approx", "\\thickapprox": "approx",
    "\\fallingdotseq": "approx", "\\risingdotseq": "approx",
    "\\le": "le", "\\leq": "le", "\\leqslant": "le", "\\ge": "ge", "\\geq": "ge",
    "\\geqslant": "ge", "<": "lt", ">": "gt", "\\lt": "lt", "\\gt": "gt",
    "\\ne": "ne", "\\neq": "ne",
    "\\in": "in",
    "\\mapsto": "map", "\\longmapsto": "map", "\\to": "map", "\\rightarrow": "map",
    "\\longrightarrow": "map",
    "\\sim": "other", "\\propto": "other", "\\subset": "other", "\\subseteq": "other",
    "\\cong": "other", "\\notin": "other",
}
RELATIONS = {k: v for k, v in RELATIONS.items() if v is not None}
#: connectives between whole claims: each side is a claim of its own
_CONNECTIVES = {"\\Rightarrow", "\\Longrightarrow", "\\implies", "\\iff", "\\Leftrightarrow",
                "\\Longleftrightarrow", "\\therefore", "\\because", "\\forall", "\\text"}


@dataclasses.dataclass
class Member:
    """One side of a relation: a list of tree nodes."""

    nodes: list
    pos: int
    end: int


@dataclasses.dataclass
class Relation:
    """The relation between two members: its kind (eq, approx, le, in, map, ...) and token."""

    kind: str
    token: Token

    @property
    def pos(self) -> int:
        return self.token.pos

    @property
    def end(self) -> int:
        return self.token.end


@dataclasses.dataclass
class Chain:
    """``members[0] R members[1] R ...``; ``relations[k]`` sits between members k and k+1.

    ``joinable``: the chain may instead continue the chain before it (its
    first member juxtaposed with that chain's last); ``listed``: a comma
    list follows the chain (``i = 1, \\dots, m``); ``display``: it sits in
    a display (or inline math), not in plain one-equation-per-line text;
    ``problem``: a layout error to report instead of checking (an ``=``
    with nothing on one side).
    """

    members: list
    relations: list
    joinable: bool = False
    listed: bool = False
    display: bool = True
    problem: tuple | None = None     # (message, pos, end)
    before: str = "edge"             # the break before it: edge, row, sep or soft
    note_only: bool = False          # read from brackets, ``(1 \\le i \\le m)``: a note or nothing

    @property
    def equals(self) -> list:
        """The relation tokens (the name before relations other than ``=`` were steps)."""
        return [r.token for r in self.relations]

    @property
    def pos(self) -> int:
        if self.members:
            return self.members[0].pos
        return self.problem[1] if self.problem else 0

    @property
    def end(self) -> int:
        if self.members:
            return self.members[-1].end
        return self.problem[2] if self.problem else 0


_MATH_OPEN = {"\\[", "\\("}
_MATH_CLOSE = {"\\]", "\\)"}


def _softmax_text(group: Group) -> bool:
    letters = "".join(t.text for t in group.children if isinstance(t, Token)
                      and t.kind == "letter")
    return letters.lower() == "softmax"


def _has_math_marks(nodes: list) -> bool:
    for node in nodes:
        if isinstance(node, Token) and (node.kind == "dollar" or node.text in _MATH_OPEN):
            return True
        if isinstance(node, Env) and (node.name in DOC_ENVS or _has_math_marks(node.children)):
            return True
        if isinstance(node, Group) and _has_math_marks(node.children):
            return True
    return False


def _boxed_cells(nodes: list) -> set:
    """The places of ``\\boxed{..}`` side by side with another (``\\boxed{0}\\boxed{1}``):
    each \\boxed and its group."""
    pairs = [k for k in range(len(nodes) - 1)
             if isinstance(nodes[k], Token) and nodes[k].text == "\\boxed" and
             isinstance(nodes[k + 1], Group)]
    out: set = set()
    for k in pairs:
        if k + 2 in pairs or k - 2 in pairs:
            out.update((k, k + 1))
    return out


def _flatten(nodes: list, out: list, state: dict) -> None:
    """Splice layout environments into one stream; mark their edges as breaks.

    When the text marks its mathematics (``$...$``, ``\\[...\\]``, ``align*``, ...),
    only that is read: prose around it, even a whole document, is skipped.
    """
    boxed = False
    cells = _boxed_cells(nodes)
    for k, node in enumerate(nodes):
        if k in cells:
            # \boxed{2}\boxed{3}\boxed{4}: a row drawn as cells, not a product of
            # framed results; kept whole, for the reader to refuse
            out.append(("node", node))
            continue
        if boxed and isinstance(node, Group):
            # \boxed{a = b}: a page's framed result; the frame is typography, the claim
            # inside is read like any other (it was skipped as one group with no '=')
            boxed = False
            _flatten(node.children, out, state)
            continue
        boxed = isinstance(node, Token) and node.text == "\\boxed" and state["math"]
        if boxed:
            continue
        if isinstance(node, Env) and node.name in DOC_ENVS:
            out.append(("edge", node.begin))
            was, state["math"] = state["math"], True
            _flatten(node.children, out, state)
            state["math"] = was
            out.append(("edge", node.end_token))
        elif isinstance(node, Token) and node.kind == "dollar":
            state["math"] = not state["math"]
            out.append(("edge", node))
        elif isinstance(node, Token) and node.text in _MATH_OPEN:
            state["math"] = True
            out.append(("edge", node))
        elif isinstance(node, Token) and node.text in _MATH_CLOSE:
            state["math"] = False
            out.append(("edge", node))
        elif state["prose"] and not state["math"]:
            if isinstance(node, Group):
                _flatten(node.children, out, state)
            elif isinstance(node, Env) and node.name not in MATRIX_ENVS:
                _flatten(node.children, out, state)
        else:
            out.append(("node", node))


def _items(nodes: list, marked: bool) -> list:
    """Classify the stream: content nodes, relations, separators, breaks."""
    flat: list = []
    _flatten(nodes, flat, {"prose": marked, "math": not marked})
    items: list = []
    depth = 0
    skip_delim = False
    k = 0
    while k < len(flat):
        kind, node = flat[k]
        k += 1
        if kind == "edge":
            depth = 0
            items.append(("edge", node))
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
                if depth == 0 and text == "(" and _trailing_condition(flat, k - 1, items):
                    # f(x_i) = ... (i=1,2,\dots,n): a condition in brackets at the end
                    # of a claim, as after \quad, not a factor of its last term
                    items.append(("space", node))
                depth += 1
            elif node.kind in ("sym", "cmd") and text in _CLOSE:
                depth = max(0, depth - 1)
            if depth == 0:
                if node.kind == "rowsep" or text in _BREAK:
                    items.append(("row", node))
                    continue
                if text == "&" or text in _DROP:
                    continue
                if text in _DROP_WITH_ARG or text == "\\tag*":
                    if k < len(flat) and isinstance(flat[k][1], Group):
                        k += 1
                    continue
                if text in ("\\stackrel", "\\overset", "\\underset") and k + 1 < len(flat) \
                        and isinstance(flat[k][1], Group) and isinstance(flat[k + 1][1], Group):
                    inner = [n for n in flat[k + 1][1].children if isinstance(n, Token)]
                    if len(inner) == 1 and inner[0].text in RELATIONS:
                        # S \stackrel{\text{def}}{=} QK^T: the relation, annotated
                        items.append(("rel", Relation(RELATIONS[inner[0].text], inner[0])))
                        k += 2
                        continue
                if text == ":" and k < len(flat) and isinstance(flat[k][1], Token) \
                        and flat[k][1].text == "=":
                    items.append(("rel", Relation("eq", flat[k][1])))
                    k += 1
                    continue
                if text == "\\not" and k < len(flat) and isinstance(flat[k][1], Token) \
                        and flat[k][1].text == "=":
                    # k \not= i: the relation \ne, written with \not
                    items.append(("rel", Relation("ne", Token("cmd", "\\ne", node.pos,
                                                              flat[k][1].end))))
                    k += 1
                    continue
                if text == "=" and k < len(flat) and isinstance(flat[k][1], Token) \
                        and flat[k][1].text == "=" and flat[k][1].pos == node.end:
                    # i == p: a programmer's equality, one relation (a condition in prose)
                    items.append(("rel", Relation("eq", Token("sym", "=", node.pos,
                                                              flat[k][1].end))))
                    k += 1
                    continue
                if node.kind in ("sym", "cmd") and text in RELATIONS:
                    items.append(("rel", Relation(RELATIONS[text], node)))
                    continue
                if text in (",", ";", "."):
                    items.append(("sep", node))
                    continue
                if text in _WIDE:
                    if text == "\\hspace":
                        if k < len(flat) and isinstance(flat[k][1], Token) and \
                                flat[k][1].text == "*":
                            k += 1
                        if k < len(flat) and isinstance(flat[k][1], Group):
                            k += 1
                    elif text == "\\hskip":
                        while k < len(flat) and isinstance(flat[k][1], Token) and \
                                flat[k][1].kind in ("num", "letter"):
                            k += 1
                    items.append(("space", node))
                    continue
                if text in _TEXT_CMDS or text in _CONNECTIVES:
                    if text in _TEXT_CMDS and k < len(flat) and isinstance(flat[k][1], Group):
                        if _softmax_text(flat[k][1]) or \
                                _followed_by(flat, k + 1, "(", "\\left", "'") or (
                                _word(flat[k][1]) and (_operated(flat, k + 1) or
                                                       _followed_by(flat, k + 1, "_", "^") or (
                                    items and (items[-1][0] == "rel" or
                                               _is_binop(items[-1][1]))))):
                            # \text{out} = \text{input}\times W: one word in text next
                            # to a relation or an operator, or with an index
                            # (\text{Score}_{ij}), is a name, a side of the claim
                            # (for the reader to read or refuse), not prose; as prose it
                            # cut the chain, and '= [o_{ij}]' went on the chain before it
                            items.append(("node", node))
                            continue
                        k += 1
                    items.append(("sep", node))
                    continue
        items.append(("node", node))
    return items


#: how far a condition in brackets and the claim before it are looked for, in nodes
_NEAR = 200
#: fonts whose group may take a bracket as an argument (the indicator \mathbb{1}(z > 0))
_FONTS = {"\\mathbb", "\\mathbf", "\\mathrm", "\\operatorname", "\\text", "\\boldsymbol",
          "\\bm", "\\mathds", "\\mathit", "\\mathsf"}


def _trailing_condition(flat: list, k: int, items: list) -> bool:
    """Does the ``(`` at ``flat[k]`` open a bracket that ends the line (a break, the end
    of the display) and holds a relation at its own level (``(i=1,2,\\dots,n)``, ``(j
    \\neq i)``), after a claim (a relation before it on the line)?  A factor in brackets
    never holds a relation, so the bracket is the claim's condition.  Both looks are
    bounded (a condition is short, and so is the claim before it on its line), so a long
    text with many brackets is read in linear time."""
    if k == 0 or flat[k - 1][0] != "node" or getattr(flat[k - 1][1], "end", None) == \
            flat[k][1].pos:
        return False            # \mathbb{1}(z > 0), f(x > 0): an argument, next to its name
    if k >= 2 and isinstance(flat[k - 1][1], Group) and isinstance(flat[k - 2][1], Token) \
            and (flat[k - 2][1].text in _FONTS):
        return False            # \mathbb{1} (z > 0): the indicator's argument
    for kind, _ in reversed(items[-_NEAR:]):
        if kind in ("edge", "row"):
            return False
        if kind == "rel":
            break
    else:
        return False
    depth, related = 0, False
    for j in range(k, min(len(flat), k + _NEAR)):
        kind, node = flat[j]
        if kind == "edge":
            return False
        if not isinstance(node, Token):
            continue
        if node.text == "(":
            depth += 1
        elif node.text == ")":
            depth -= 1
            if depth == 0:
                after = next((flat[a] for a in range(j + 1, len(flat))
                              if not (isinstance(flat[a][1], Token) and
                                      flat[a][1].text in _WIDE | {".", ","})), None)
                ends = after is None or after[0] == "edge" or (
                    isinstance(after[1], Token) and (after[1].kind == "rowsep" or
                                                     after[1].text in _BREAK or
                                                     after[1].newline))
                return related and ends
        elif depth == 1 and node.kind in ("sym", "cmd") and node.text in RELATIONS:
            related = True
        elif node.text in ("\\left", "\\right") or node.kind == "rowsep":
            return False
    return False


def _word(group) -> bool:
    """Is a ``\\text{...}`` group one word, letters with no space (``out``, not `` if ``)?"""
    if not isinstance(group, Group) or not group.children:
        return False
    kids = group.children
    return all(isinstance(t, Token) and t.kind == "letter" for t in kids) and \
        group.open.end == kids[0].pos and kids[-1].end == group.close.pos and \
        all(a.end == b.pos for a, b in zip(kids, kids[1:]))


def _operated(flat: list, k: int) -> bool:
    """Does a relation or an operator follow at ``flat[k]`` (``\\text{out} = ...``)?"""
    if k >= len(flat) or flat[k][0] != "node":
        return False
    node = flat[k][1]
    return isinstance(node, Token) and node.kind in ("sym", "cmd") and (
        node.text in RELATIONS or node.text in _BINOPS)


def _followed_by(flat: list, k: int, *texts: str) -> bool:
    """Is ``flat[k]`` one of these tokens: a bracket (``\\text{Attention}(Q, K, V)``), a
    subscript or superscript (``\\text{Score}_{ij}``)?"""
    if k >= len(flat) or flat[k][0] != "node":
        return False
    node = flat[k][1]
    return isinstance(node, Token) and node.text in texts


def _is_binop(node) -> bool:
    return isinstance(node, Token) and node.text in _BINOPS


def _span(nodes: list) -> tuple[int, int]:
    first, last = nodes[0], nodes[-1]
    return first.pos, last.end


@dataclasses.dataclass
class _Segment:
    before: str            # what separates it from the segment before: edge, row, sep, soft
    items: list            # ("node", node) and ("rel", Relation)
    display: bool
    newline_inside: bool = False


_STRENGTH = {"soft": 0, "sep": 1, "row": 2, "edge": 3}


def _segments(items: list, marked: bool) -> list:
    """Cut the stream into segments; each remembers the strongest break before it."""
    out: list[_Segment] = []
    current: list = []
    before = "edge"

    def cut(kind: str) -> None:
        nonlocal current, before
        if current:
            out.append(_Segment(before, current, marked))
            current = []
            before = kind
        elif _STRENGTH[kind] > _STRENGTH[before]:
            before = kind

    for n, (kind, node) in enumerate(items):
        if kind == "space":
            # a wide space between two equations separates them; next to a relation
            # (``a \\quad = \\quad b``) it is only space
            after = next((k for k, _ in items[n + 1:] if k != "space"), None)
            if any(k == "node" for k, _ in current) and current[-1][0] != "rel" and \
                    after != "rel":
                cut("sep")
            continue
        if kind == "soft":
            if not marked:
                cut("soft")     # plain text: one line, one segment (joined in split)
            continue
        if kind in ("edge", "row", "sep"):
            cut(kind)
            continue
        current.append((kind, node))
    cut("edge")
    return out


def _parts(seg: _Segment) -> tuple[list, list]:
    parts: list[list] = [[]]
    rels: list[Relation] = []
    for kind, node in seg.items:
        if kind == "rel":
            rels.append(node)
            parts.append([])
        else:
            parts[-1].append(node)
    return parts, rels


def _bracket_note(content: list):
    """``(1 \\le i \\le m)`` or ``(j > i)`` after a claim: its parts and relations, or None."""
    if len(content) < 3 or not (isinstance(content[0], Token) and content[0].text == "(") \
            or not (isinstance(content[-1], Token) and content[-1].text == ")"):
        return None
    inner = content[1:-1]
    parts: list[list] = [[]]
    rels: list[Relation] = []
    for node in inner:
        if isinstance(node, Token) and node.kind in ("sym", "cmd") and node.text in RELATIONS:
            rels.append(Relation(RELATIONS[node.text], node))
            parts.append([])
        elif isinstance(node, Token) and node.text in ("(", ")"):
            return None
        else:
            parts[-1].append(node)
    if not rels or any(not p for p in parts):
        return None
    return parts, rels


def split(nodes: list, src: Source) -> list:
    """The chains of a document tree, in source order (claim-free math is left out)."""
    marked = _has_math_marks(nodes)
    segments = _segments(_items(nodes, marked), marked)
    drafts: list[dict] = []
    draft: dict | None = None
    resume: dict | None = None       # the chain a bracketed remark interrupted
    for seg in segments:
        parts, rels = _parts(seg)
        if seg.before == "edge":
            resume = None
        if draft is not None and not draft["parts"][-1] and seg.before != "edge":
            # the chain above ended with a relation: this segment supplies its right side
            draft["parts"][-1].extend(parts[0])
            draft["parts"].extend(parts[1:])
            draft["rels"].extend(rels)
            continue
        if not parts[0] and rels:
            if draft is None and resume is not None and seg.before in ("row", "soft"):
                # a remark in brackets ended the line: ``... \\quad (d = 2) \\ &= ...``
                draft = resume
            if draft is None:
                drafts.append({"parts": [[]] + parts[1:], "rels": rels, "joinable": False,
                               "display": seg.display, "listed": False,
                               "before": seg.before})
                draft = drafts[-1]
                continue
            draft["parts"].extend(parts[1:])
            draft["rels"].extend(rels)
            continue
        continues = draft is not None and draft["parts"][-1] and (
            _is_binop(parts[0][0]) or _is_binop(draft["parts"][-1][-1]))
        if not rels:
            content = parts[0]
            if draft is not None and seg.before == "soft":
                # plain text, a line with no relation: the line above goes on
                draft["parts"][-1].extend(content)
                continue
            if continues and seg.before in ("row", "soft"):
                draft["parts"][-1].extend(content)
                continue
            if draft is not None and seg.before == "row":
                # a row after \\ with no relation: claim-free, or the rest of the row above?
                drafts.append({"parts": [content], "rels": [], "joinable": True,
                               "display": seg.display, "listed": False,
                               "before": seg.before})
                draft = drafts[-1]
                continue
            note = _bracket_note(content) if seg.before == "sep" else None
            if note is not None:
                drafts.append({"parts": note[0], "rels": note[1], "joinable": False,
                               "display": seg.display, "listed": False, "before": "sep",
                               "note_only": True})
                resume = draft
            elif draft is not None and seg.before == "sep" and drafts[-1] is draft:
                draft["listed"] = True
            draft = None
            continue
        if continues and seg.before in ("row", "soft"):
            draft["parts"][-1].extend(parts[0])
            draft["parts"].extend(parts[1:])
            draft["rels"].extend(rels)
            continue
        drafts.append({"parts": parts, "rels": rels, "joinable": False,
                       "display": seg.display, "listed": False, "before": seg.before})
        draft = drafts[-1]
    # a display broken over lines is one segment: a line inside it that starts a new
    # equation (``a = b`` then ``c = d`` on the next line) is ambiguous; mark it
    result: list[Chain] = []
    for d in drafts:
        result.extend(_finish(d, src))
    return result


def _line_splits(d: dict, src: Source) -> list[dict]:
    """Inside a display, a line that holds a new ``x = ...`` may be a new equation."""
    if not d["display"] or len(d["parts"]) < 3:
        return [d]
    out = [d]
    # find a member (not the first or last) whose nodes contain a line break between
    # two of them: the text after the break, with the relation that follows, could
    # start a new chain
    k = 1
    while k < len(d["parts"]) - 1:
        nodes = d["parts"][k]
        cut = next((n for n in range(1, len(nodes)) if getattr(nodes[n], "newline", False)
                    and not _is_binop(nodes[n]) and not _is_binop(nodes[n - 1])
                    and not _inside_left(nodes, n) and not _opens_factor(nodes[n])), None)
        if cut is None:
            k += 1
            continue
        head = {**d, "parts": d["parts"][:k] + [nodes[:cut]], "rels": d["rels"][:k],
                "listed": False}
        tail = {**d, "parts": [nodes[cut:]] + d["parts"][k + 1:], "rels": d["rels"][k:],
                "joinable": True, "before": "soft"}
        out = [head] + _line_splits(tail, src)
        break
    return out


def _inside_left(nodes: list, n: int) -> bool:
    """Is node ``n`` between a ``\\left`` and its ``\\right`` (a matrix written over lines,
    ``\\left(`` at the end of one and ``\\right)`` lines below)?"""
    depth = 0
    for node in nodes[:n]:
        if isinstance(node, Token) and node.text == "\\left":
            depth += 1
        elif isinstance(node, Token) and node.text == "\\right":
            depth -= 1
    return depth > 0


def _opens_factor(node) -> bool:
    """A line that starts with a bracket or a matrix continues a product (the second
    factor of ``\\left(...\\right)`` written under the first); a new equation starts with
    what it defines."""
    return (isinstance(node, Token) and node.text in ("\\left", "(", "[", "\\{")) or \
        (isinstance(node, Env) and node.name in MATRIX_ENVS)


def _finish(d: dict, src: Source) -> list:
    """A chain draft as Chains; empty sides (``a = = b``, a trailing ``=``) are problems."""
    out: list = []
    for piece in _line_splits(d, src):
        out.extend(_finish_one(piece))
    return out


def _finish_one(d: dict) -> list:
    parts, rels = d["parts"], d["rels"]
    out: list = []
    if rels and not any(parts):
        return out          # a relation alone, as a word: ``$\\to$`` in a title
    if len(rels) == 1 and rels[0].kind == "map" and not all(parts):
        return out          # an arrow with one side: ``$QK^\\top \\to$ softmax``
    members: list = []
    mine: list = []
    joinable = d["joinable"]
    for k, nodes in enumerate(parts):
        if not nodes:
            if not rels:
                continue
            rel = rels[k - 1] if k > 0 else rels[0]
            message = ("this '%s' has nothing on its left" % rel.token.text if k == 0 else
                       "there is nothing on this side of '%s'" % rel.token.text)
            if len(members) > 1:
                out.append(Chain(members, mine, joinable, display=d["display"]))
            out.append(Chain([], [], problem=(message, rel.pos, rel.end)))
            members, mine, joinable = [], [], False
            continue
        if members:
            mine.append(rels[k - 1])
        members.append(Member(nodes, *_span(nodes)))
    if len(members) > 1 or (members and d["joinable"] and not rels):
        out.append(Chain(members, mine, joinable, d["listed"], d["display"],
                         before=d.get("before", "edge"), note_only=d.get("note_only", False)))
    out.sort(key=lambda item: item.pos)
    return out
