r"""Placeholder units: what the translator writes and the parser reads.

A :class:`Unit` is one flat piece of text for latex2sympy2 together with the
table of its placeholders (:class:`Atom`) and a map back to the user's
source.  :class:`Emitter` writes a unit; :class:`Cursor` walks the user's
tree of tokens.

>>> from symrow.reader.entries.units import Atom, Emitter
>>> em = Emitter()
>>> em.atom(Atom("whole", "Q"), 0, 1)
'a'
>>> em.put(r"\cdot", 1, 2)
>>> em.atom(Atom("whole", "K"), 2, 3)
'b'
>>> print(em.unit(0, 3).text)
a \cdot b
"""

from __future__ import annotations

import dataclasses
import re

from .. import vocab as V
from ..lexer import Cursor, Group, Token

__all__ = ["Atom", "Unit", "TranslateError", "Emitter", "Cursor", "PLACEHOLDERS", "NESTED",
           "shape_sides", "size_side",
           "arg_nodes", "plain", "is_token", "env_rows"]

#: one-token placeholders the parser reads as plain symbols (no d, e, E, I)
_LETTERS = "abcfghijklmnopqrstuvwxyzABCDFGHJKLMNOPQRSTUVWXYZ"
_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa "
          "lambda mu nu xi omicron rho varrho sigma varsigma tau upsilon phi varphi chi psi "
          "omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()
PLACEHOLDERS = [c for c in _LETTERS] + ["\\" + g for g in _GREEK]
#: placeholder kinds that hold units of their own (in ``cells``)
NESTED = ("matrix", "sub", "cases", "max", "min", "elided", "grid", "call", "derivative",
          "gradient", "jacobian", "isoftmax")


class TranslateError(Exception):
    """The text cannot be read; ``pos``/``end`` locate it in the source."""

    def __init__(self, message: str, pos: int, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.end = end if end is not None else pos + 1


@dataclasses.dataclass(frozen=True)
class Atom:
    """What a placeholder stands for.

    ``kind`` is one of: ``entry`` (an entry of a quantity; ``items`` are
    its row and column), ``row`` (a row vector; ``items`` = (row,)),
    ``whole`` (a matrix), ``size`` (a size such as d, or a bound index of
    the same name), ``index`` (an index variable's value), ``auto`` (the
    inferred upper bound of the sum over ``name``), ``bound`` (the
    variable of a sum), ``marker`` (``T``, ``softmax``, ``group``,
    ``entry``, ``row``: only ever an exponent), ``matrix`` (an explicit
    matrix; ``cells`` are its Units by row), ``number`` (a constant,
    ``name`` is ``e``).  Indices are ints or index names.
    """

    kind: str
    name: str = ""
    items: tuple = ()
    cells: tuple = dataclasses.field(default=(), compare=False)
    ident: int = 0
    pos: int = dataclasses.field(default=0, compare=False)
    end: int = dataclasses.field(default=0, compare=False)

    @property
    def key(self) -> tuple:
        return (self.kind, self.name, self.items, self.ident)


@dataclasses.dataclass
class Unit:
    """Translated text for one parse, with its placeholder table and source map."""

    text: str
    atoms: dict
    spans: list      # (start, end) in text -> (pos, end) in source
    pos: int
    end: int
    tree: object = None   # the parsed expression, once parsed
    #: the powers e^{...} written as powers in it (a slip e_{x} is told by them)
    e_powers: int = 0

    def source_span(self, offset: int) -> tuple[int, int]:
        """The source span of the text at ``offset`` (the last piece starting at or before it)."""
        best = (self.pos, self.end)
        for start, stop, pos, end in self.spans:
            if start <= offset:
                best = (pos, end)
            else:
                break
        return best


class Emitter:
    def __init__(self):
        self.parts: list[str] = []
        self.length = 0
        self.spans: list = []
        self.letters: dict = {}
        self.atoms: dict = {}
        self.pieces: list = []     # (text, atom or None, pos, end), to inline a lone piece

    def put(self, text: str, pos: int, end: int, atom: Atom | None = None) -> None:
        self.spans.append((self.length, self.length + len(text), pos, end))
        self.parts.append(text)
        self.parts.append(" ")
        self.length += len(text) + 1
        self.pieces.append((text, atom, pos, end))

    def atom(self, atom: Atom, pos: int, end: int) -> str:
        letter = self.letters.get(atom.key)
        if letter is None:
            n = len(self.letters)
            letter = PLACEHOLDERS[n] if n < len(PLACEHOLDERS) else "\\alpha_{%d}" % (n + 10)
            self.letters[atom.key] = letter
            sym = letter.lstrip("\\")
            self.atoms[sym] = dataclasses.replace(atom, pos=pos, end=end)
        self.put(letter, pos, end, atom)
        return letter

    def brace_last(self) -> None:
        """``a`` -> ``{a}`` before a superscript: ``{a}^{b}`` parses in ANTLR's fast
        SLL mode, ``a^{b}`` needs its slow full-context mode."""
        text, atom, pos, end = self.pieces[-1]
        if atom is None or text.startswith("{"):
            return
        start, stop, p, e = self.spans[-1]
        self.parts[-2] = "{" + text + "}"
        self.spans[-1] = (start, stop + 2, p, e)
        self.length += 2
        self.pieces[-1] = ("{" + text + "}", atom, pos, end)

    def unit(self, pos: int, end: int) -> Unit:
        return Unit("".join(self.parts).rstrip(), self.atoms, self.spans, pos, end)


def arg_nodes(node) -> list:
    return node.children if isinstance(node, Group) else [node]


def plain(nodes: list) -> str:
    """The text of simple tokens (for names like softmax or T); '' if not simple."""
    out = []
    for node in nodes:
        if isinstance(node, Token):
            out.append(node.text)
        elif isinstance(node, Group):
            inner = plain(node.children)
            if not inner:
                return ""
            out.append("{" + inner + "}")
        else:
            return ""
    return "".join(out)


def is_token(node, *texts: str) -> bool:
    return isinstance(node, Token) and node.text in texts


def shape_sides(sub: list) -> list | None:
    """The two sides of a shape written ``m \\times n`` (each a list of nodes), or None
    when it is not two sides around one ``\\times``."""
    dims: list[list] = [[]]
    for node in sub:
        if is_token(node, "\\times"):
            dims.append([])
        elif not is_token(node, *V.SPACING):
            dims[-1].append(node)
    return dims if len(dims) == 2 and all(dims) else None


def size_side(nodes: list, pos: int, end: int) -> tuple:
    """One side of a shape (see :func:`shape_sides`): ``("number", 3)``, or a size the
    page names, ``("size", "m")`` (``\\ell`` as ``"ell"``); anything else cannot be read."""
    text = plain(nodes).strip("{} ")
    if text.isdigit():
        return ("number", int(text))
    if re.fullmatch(r"[A-Za-z](?:_\{?\w+\}?)?|\\ell", text):
        return ("size", "ell" if text == "\\ell" else text)
    raise TranslateError(f"cannot read {text!r} as a size", pos, end)


def env_rows(env) -> list:
    """The cells of an environment's rows (``\\\\`` between rows, ``&`` between
    cells), each a list of nodes; ``\\hline`` is dropped, and so is a last row
    left empty by a trailing ``\\\\``."""
    from .. import vocab as V
    rows: list[list[list]] = [[[]]]
    for node in env.children:
        if isinstance(node, Token) and node.kind == "rowsep":
            rows.append([[]])
        elif is_token(node, "&"):
            rows[-1].append([])
        elif not is_token(node, "\\hline"):
            rows[-1][-1].append(node)
    if len(rows) > 1 and all(not [n for n in cell if not is_token(n, *V.SPACING)]
                             for cell in rows[-1]):
        rows.pop()
    return rows
