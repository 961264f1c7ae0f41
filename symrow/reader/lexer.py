"""Read LaTeX into tokens, then into a tree of groups and environments.

The checker never hands raw user text to the parser.  It first reads the
text itself: :func:`tokenize` splits it into tokens that remember where
they came from, and :func:`build_tree` nests braces and environments,
reporting an unbalanced ``{`` or ``\\begin`` with its line and column.

>>> from symrow.reader.lexer import tokenize
>>> [t.text for t in tokenize(r"c_{12} = a_{11}\\,b_{12}")]
['c', '_', '{', '12', '}', '=', 'a', '_', '{', '11', '}', '\\\\,', 'b', '_', '{', '12', '}']
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from typing import Iterator, Union

from ..errors import ParseError

__all__ = ["Token", "Group", "Env", "Source", "tokenize", "build_tree", "Node",
           "DOC_ENVS", "MATRIX_ENVS", "first_token", "last_token", "walk_tokens", "Cursor"]

#: environments that only lay out equations; their contents are read as-is
DOC_ENVS = frozenset({"align", "align*", "aligned", "equation", "equation*", "gather",
                      "gather*", "gathered", "split", "multline", "multline*", "eqnarray",
                      "eqnarray*", "displaymath", "math", "flalign", "flalign*"})
#: environments that hold an explicit matrix
MATRIX_ENVS = frozenset({"bmatrix", "pmatrix", "matrix", "Bmatrix", "smallmatrix",
                         "bmatrix*", "pmatrix*", "vmatrix", "array"})
#: environments whose \begin takes one argument (array's column spec), kept in Env.args
_ARG_ENVS = frozenset({"array", "alignat", "alignat*", "alignedat", "tabular"})

#: a few Unicode characters that students paste, and their LaTeX
_UNICODE = {"\u2212": "-", "\u00b7": r"\cdot", "\u22c5": r"\cdot", "\u00d7": r"\times",
            "\u2032": "'", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
            "\u2026": r"\cdots", "\u22ef": r"\cdots", "\u2192": r"\to",
            # an en dash inside math: the minus of " - ", turned by a blog's typography
            # (WordPress serves "1 – y_i")
            "\u2013": "-",
            # pasted from a PDF or a Word equation: the partial sign, the Hadamard circle,
            # vertical dots (and the tricolon typed for them)
            "\u2202": r"\partial", "\u2299": r"\odot", "\u22ee": r"\vdots",
            "\u205d": r"\vdots"}


def _math_italic(ch: str) -> str | None:
    """The letter of a mathematical italic character (U+1D434 to U+1D467: ``𝑋`` is X,
    ``𝑏`` is b; the italic h is U+210E), as a PDF or a Word equation pastes a formula's
    letters; None for any other character (bold and script letters keep meaning of their
    own and stay refused)."""
    code = ord(ch)
    if ch == "\u210e":
        return "h"
    if 0x1D434 <= code <= 0x1D467:
        k = code - 0x1D434
        return chr(ord("A") + k) if k < 26 else chr(ord("a") + k - 26)
    return None


#: the mathematical italic letters, as a table for str.translate
_ITALIC = {code: _math_italic(chr(code)) for code in [*range(0x1D434, 0x1D468), 0x210E]}
_HAS_ITALIC = re.compile("[\U0001D434-\U0001D467\u210e]")

_SINGLE = set("{}()[]^_&=+-*/,;|'<>.!:?@\"#")


@dataclasses.dataclass(frozen=True)
class Token:
    """One token: ``kind`` is cmd, letter, num, sym, rowsep, dollar or bad."""

    kind: str
    text: str
    pos: int           # offset of its first character in the source
    end: int           # offset just after it
    newline: bool = False   # a line break came between it and the token before

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}, {self.pos})"


@dataclasses.dataclass
class Group:
    """``{ ... }``: the braces and what they hold."""

    open: Token
    children: list
    close: Token

    @property
    def pos(self) -> int:
        return self.open.pos

    @property
    def end(self) -> int:
        return self.close.end

    @property
    def newline(self) -> bool:
        return self.open.newline


@dataclasses.dataclass
class Env:
    """``\\begin{name} ... \\end{name}``."""

    name: str
    begin: Token
    children: list
    end_token: Token
    end: int
    args: list = dataclasses.field(default_factory=list)

    @property
    def pos(self) -> int:
        return self.begin.pos

    @property
    def newline(self) -> bool:
        return self.begin.newline


Node = Union[Token, Group, Env]


class Source:
    """The text being checked: maps offsets to 1-based line and column."""

    def __init__(self, text: str):
        # mathematical italic letters are their letters (see _math_italic): one character
        # for one, so every offset stays where it was
        self.text = text.translate(_ITALIC) if _HAS_ITALIC.search(text) else text
        self._starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line_col(self, pos: int) -> tuple[int, int]:
        pos = max(0, min(pos, len(self.text)))
        line = bisect.bisect_right(self._starts, pos) - 1
        return line + 1, pos - self._starts[line] + 1

    def near(self, pos: int, end: int | None = None) -> str:
        """The text at ``pos``: the token there, or a short stretch."""
        if pos >= len(self.text):
            return "end of input"
        if end is None or end <= pos:
            end = pos + 1
        snippet = self.text[pos:max(end, pos + 1)]
        if len(snippet) > 30:
            snippet = snippet[:30] + "..."
        return " ".join(snippet.split()) or snippet

    def error(self, message: str, pos: int, end: int | None = None) -> ParseError:
        line, col = self.line_col(pos)
        return ParseError(message, line=line, column=col, near=self.near(pos, end))


#: commands written for another that symrow reads: Typora renders ``\part`` as ∂, and
#: Chinese notes write ``\dfrac{\part l}{\part y}`` (ouroboros-batchnorm-affine-zh)
_SPELLINGS = {"\\part": "\\partial"}

def tokenize(text: str) -> list[Token]:
    """Split LaTeX into tokens; comments and white space are dropped."""
    return list(_tokens(text))


def _tokens(text: str) -> Iterator[Token]:
    i, n = 0, len(text)
    newline = False
    while i < n:
        ch = text[i]
        if ch in " \t\r\f\v~" or ch in "\u00a0\u2009\u202f":
            i += 1
            continue
        if ch == "\n":
            newline = True
            i += 1
            continue
        if ch == "%":
            while i < n and text[i] != "\n":
                i += 1
            continue
        start = i
        if ch == "\\":
            if i + 1 < n and text[i + 1].isascii() and text[i + 1].isalpha():
                j = i + 1
                while j < n and text[j].isascii() and text[j].isalpha():
                    j += 1
                if j < n and text[j] == "*" and text[i + 1:j] in ("begin", "end"):
                    pass
                kind, tok = "cmd", text[i:j]
                if tok in _SPELLINGS and (j == n or text[j] not in "{[*"):
                    tok = _SPELLINGS[tok]     # \part l: Typora's ∂ (not \part{Title})
                i = j
            elif i + 1 < n and text[i + 1] == "\\":
                kind, tok = "rowsep", "\\\\"
                i += 2
                # an optional spacing argument: \\[2pt]
                if i < n and text[i] == "[":
                    close = text.find("]", i, i + 20)
                    if close != -1 and all(c.isalnum() or c in ".- " for c in text[i + 1:close]):
                        i = close + 1
            elif i + 1 < n and text[i + 1] in "\r\n\t" and text[i - 2:i] == "\\\\":
                # a row break escaped as \\\ (Markdown pages escape \\ so) ending a line:
                # its third backslash is TeX's control space, as \ before a space is
                # (tomoshige-matrix-product-ja); a lone \ at a line's end stays refused: it
                # is a row break a stored copy lost half of (indepa-sdpa-worked-example)
                kind, tok = "cmd", "\\ "
                i += 1
            elif i + 1 < n:
                kind, tok = "cmd", text[i:i + 2]
                i += 2
            else:
                kind, tok = "bad", "\\"
                i += 1
        elif ch.isascii() and ch.isalpha():
            kind, tok = "letter", ch
            i += 1
        elif ch.isascii() and ch.isdigit():
            j = i
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            if j + 1 < n and text[j] == "." and text[j + 1].isascii() and text[j + 1].isdigit():
                j += 1
                while j < n and text[j].isascii() and text[j].isdigit():
                    j += 1
                kind, tok = "num", text[i:j]
                if text.startswith("..", j):
                    # 10.107... (or 10.107..): a decimal cut off, its dots part of the
                    # number (the token ends after them; the checker reads the places)
                    j += 3 if text.startswith("...", j) else 2
            else:
                kind, tok = "num", text[i:j]
            i = j
        elif ch == "$":
            kind, tok = "dollar", "$"
            i += 1
            if i < n and text[i] == "$":
                tok = "$$"
                i += 1
        elif ch == "." and text.startswith("...", i):
            # "..." typed for an ellipsis: \cdots
            kind, tok = "cmd", "\\cdots"
            i += 3
        elif ch in _SINGLE:
            kind, tok = "sym", ch
            i += 1
        elif (letter := _math_italic(ch)) is not None:
            kind, tok = "letter", letter
            i += 1
        elif ch in _UNICODE:
            mapped = _UNICODE[ch]
            kind = "cmd" if mapped.startswith("\\") else "sym"
            tok = mapped
            i += 1
        else:
            kind, tok = "bad", ch
            i += 1
        yield Token(kind, tok, start, i, newline)
        newline = False


def _env_name(tokens: list[Token], k: int, src: Source) -> tuple[str, int]:
    """Read ``{name}`` after a \\begin or \\end at index k; return (name, next index)."""
    if k + 1 >= len(tokens) or tokens[k + 1].text != "{":
        raise src.error(f"{tokens[k].text} needs an environment name in braces",
                        tokens[k].pos, tokens[k].end)
    j = k + 2
    name = ""
    while j < len(tokens) and tokens[j].text != "}":
        if tokens[j].kind not in ("letter", "sym") or tokens[j].text not in \
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ*" or len(name) > 20:
            raise src.error(f"bad environment name after {tokens[k].text}",
                            tokens[j].pos, tokens[j].end)
        name += tokens[j].text
        j += 1
    if j >= len(tokens):
        raise src.error(f"{tokens[k].text}{{ is not closed", tokens[k].pos, tokens[k].end)
    return name, j + 1


#: the deepest nesting of braces and environments the checker reads
MAX_DEPTH = 40


def build_tree(tokens: list[Token], src: Source) -> list[Node]:
    """Nest ``{...}`` groups and ``\\begin``/``\\end`` environments.

    Raises :class:`symrow.ParseError` at an unbalanced brace or environment.
    """
    root: list[Node] = []
    stack: list[tuple[str, object, list]] = []   # (kind, opener, children of the parent)
    current = root
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        if tok.text == "{" and tok.kind == "sym":
            stack.append(("{", tok, current))
            if len(stack) > MAX_DEPTH:
                raise src.error(f"braces and environments are nested more than {MAX_DEPTH} "
                                f"deep", tok.pos, tok.end)
            current = []
            k += 1
            continue
        if tok.text == "}" and tok.kind == "sym":
            if not stack or stack[-1][0] != "{":
                if stack:
                    opener = stack[-1][1]
                    raise src.error(f"'}}' closes nothing here: \\begin{{{opener[0]}}} "
                                    f"is still open", tok.pos, tok.end)
                raise src.error("'}' has no matching '{'", tok.pos, tok.end)
            _, opener, parent = stack.pop()
            parent.append(Group(opener, current, tok))
            current = parent
            k += 1
            continue
        if tok.kind == "cmd" and tok.text == "\\begin":
            name, k2 = _env_name(tokens, k, src)
            stack.append(("env", (name, tok, tokens[k2 - 1].end), current))
            if len(stack) > MAX_DEPTH:
                raise src.error(f"braces and environments are nested more than {MAX_DEPTH} "
                                f"deep", tok.pos, tok.end)
            current = []
            k = k2
            # array-style column spec: \begin{array}{cc}, \begin{alignat}{2}
            if name in _ARG_ENVS and k < len(tokens) and tokens[k].text == "{":
                close = next((j for j in range(k + 1, min(len(tokens), k + 40))
                              if tokens[j].text == "}"), None)
                if close is not None:
                    stack[-1] = ("env", (name, tok, tokens[close].end, tokens[k + 1:close]),
                                 stack[-1][2])
                    k = close + 1
            continue
        if tok.kind == "cmd" and tok.text == "\\end":
            name, k2 = _env_name(tokens, k, src)
            if not stack or stack[-1][0] != "env":
                if stack:
                    raise src.error(f"\\end{{{name}}} comes before the '{{' opened at "
                                    f"line {src.line_col(stack[-1][1].pos)[0]} is closed",
                                    tok.pos, tokens[k2 - 1].end)
                raise src.error(f"\\end{{{name}}} has no matching \\begin{{{name}}}",
                                tok.pos, tokens[k2 - 1].end)
            _, (open_name, begin, _, *spec), parent = stack.pop()
            if open_name != name:
                line = src.line_col(begin.pos)[0]
                raise src.error(f"\\end{{{name}}} does not match \\begin{{{open_name}}} "
                                f"from line {line}", tok.pos, tokens[k2 - 1].end)
            parent.append(Env(name, begin, current, tok, tokens[k2 - 1].end,
                              list(spec[0]) if spec else []))
            current = parent
            k = k2
            continue
        current.append(tok)
        k += 1
    if stack:
        kind, opener, _ = stack[-1]
        if kind == "{":
            raise src.error("'{' is never closed", opener.pos, opener.end)
        name, begin, name_end = opener[:3]
        raise src.error(f"\\begin{{{name}}} is never closed by \\end{{{name}}}",
                        begin.pos, name_end)
    return _restyle(root)


_WORD_FONTS = ("\\text", "\\textrm", "\\mathrm", "\\operatorname", "\\textit")


def _called_inside(group: "Group") -> bool:
    """``{Attention(Q, K, V)}``: a word, then a bracket that closes the group."""
    kids = group.children
    n = 0
    while n < len(kids) and isinstance(kids[n], Token) and kids[n].kind == "letter":
        n += 1
    return n >= 2 and n < len(kids) - 1 and isinstance(kids[n], Token) and \
        kids[n].text == "(" and isinstance(kids[-1], Token) and kids[-1].text == ")"


def _restyle(nodes: list) -> list:
    """Typography read as what it sets: ``{\\bf X}`` as ``\\mathbf{X}``, a font switch
    standing alone (``\\tt Attention(...)``) dropped, and a colour of one argument
    (``\\blue{...}``) as its argument."""
    from .vocab import COLOR_MACROS, OLD_FONTS
    out: list = []
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, Group):
            first = node.children[0] if node.children else None
            if isinstance(first, Token) and first.text in OLD_FONTS and len(node.children) > 1:
                font = Token("cmd", OLD_FONTS[first.text], node.open.pos, node.open.pos)
                inner = [font, Group(node.open, _restyle(node.children[1:]), node.close)]
                if out and isinstance(out[-1], Token) and out[-1].text in ("^", "_"):
                    # ^{\rm T}: a script keeps its one argument, \mathrm{T} inside it
                    out.append(Group(node.open, inner, node.close))
                else:
                    out += inner
            else:
                out.append(Group(node.open, _restyle(node.children), node.close))
        elif isinstance(node, Env):
            out.append(Env(node.name, node.begin, _restyle(node.children), node.end_token,
                           node.end, node.args))
        elif node.kind == "cmd" and node.text in _WORD_FONTS and k + 1 < len(nodes) and \
                isinstance(nodes[k + 1], Group) and _called_inside(nodes[k + 1]):
            # \text{Attention(Q, K, V)}: the function's word in the font, its call after it
            group = nodes[k + 1]
            kids = _restyle(group.children)
            n = next(j for j, c in enumerate(kids) if isinstance(c, Token) and c.text == "(")
            close = Token("sym", "}", kids[n].pos, kids[n].pos)
            out += [node, Group(group.open, kids[:n], close)] + kids[n:]
            k += 2
            continue
        elif node.kind == "cmd" and node.text in COLOR_MACROS and k + 1 < len(nodes) and \
                isinstance(nodes[k + 1], Group):
            pass                                  # \blue{...}: the braces stay, as a group
        elif node.kind == "cmd" and node.text in OLD_FONTS:
            pass                                  # \tt Attention(...): typography
        else:
            out.append(node)
        k += 1
    return out


def walk_tokens(nodes: list) -> Iterator[Token]:
    """Every token under ``nodes``, in source order (group braces included)."""
    for node in nodes:
        if isinstance(node, Token):
            yield node
        elif isinstance(node, Group):
            yield node.open
            yield from walk_tokens(node.children)
            yield node.close
        else:
            yield node.begin
            yield from walk_tokens(node.children)
            yield node.end_token


def first_token(nodes: list) -> Token | None:
    for tok in walk_tokens(nodes):
        return tok
    return None


def last_token(nodes: list) -> Token | None:
    if not nodes:
        return None
    node = nodes[-1]
    if isinstance(node, Token):
        return node
    if isinstance(node, Group):
        return node.close
    return node.end_token


class Cursor:
    """A position in a list of tree nodes, for the readers that walk one."""

    def __init__(self, nodes: list, pos: int, end: int):
        self.nodes = nodes
        self.i = 0
        self.pos = pos
        self.end = end

    def peek(self, k: int = 0):
        j = self.i + k
        return self.nodes[j] if j < len(self.nodes) else None

    def take(self):
        node = self.peek()
        self.i += 1
        return node

    def at_end(self) -> bool:
        return self.i >= len(self.nodes)

    def here(self) -> tuple[int, int]:
        node = self.peek()
        if node is None:
            return self.end, self.end
        return node.pos, node.end
