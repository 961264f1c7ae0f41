r"""Read a formula written in LaTeX (or built in SymPy) into a :class:`Formula`.

The text goes through the same lexer as the checker's, and names, fonts,
functions and operators are recognised by the one table of notation
(:mod:`symrow.reader.notation`), so an error points at the same line and
column, and a name means the same thing, in ``explain`` and in ``check``.
What it reads, as papers print it:

* **names** of matrices: capitals, Latin or Greek, with accents, fonts,
  subscripts and superscripts (``X``, ``W_Q``, ``W_{out}``, ``W_i^Q``,
  ``W^{(l)}``, ``H^{(l+1)}``, ``\tilde{A}``, ``\Sigma``, ``\mathbf{H}_{t-1}``);
  lowercase names are vectors when bold (``\mathbf{w}``), when a shape is
  given for them, or when they are added to a matrix (a bias row, ``XW + b``);
  otherwise a lowercase letter is a scalar;
* **products** by juxtaposition (or ``\cdot``, ``*``), associating to the
  left unless parenthesised; the **Hadamard product** ``\odot`` (``\circ``);
  **sums** and differences;
* **transposes** in every spelling (``^T ^{T} ^\top ^{\top} ^\mathsf{T}
  ^\intercal '``), and **powers** ``D^{-1/2}`` (read for diagonal matrices);
* **scalings**: numbers, size names (``n``, ``d_k``) and square roots, as
  factors, after ``/``, in ``\frac`` or with ``\over``;
* **functions**: softmax, ``\exp``, ``\tanh``, ``\sigma``, ReLU (also as
  ``\max(0, X)``), GELU, LayerNorm, ``\mathrm{diag}``, ``\mathrm{Concat}``
  and ``\mathrm{Attention}``, in ``\operatorname``, ``\mathrm``, ``\text``,
  ``{\rm ...}`` or plain letters; any other ``\operatorname{name}`` or
  Greek letter applied to a bracket is an element-wise function, unless it
  is within two letters of a known one (``softmx``: did you mean softmax?);
* **definitions** ``S = QK^T``, separated by ``;``, commas, ``\\`` or line
  breaks, or in an ``align*``; the last one is the result.  **Functions**
  are defined as papers define them, ``\mathrm{Attention}(Q, K, V) = ...``,
  ``\mathrm{FFN}(x) = ...``, and **indexed families** as
  ``\mathrm{head}_i = ...``, used as ``\mathrm{Concat}(\mathrm{head}_1,
  \dots, \mathrm{head}_h)``; a function or family may be defined after
  its use.  The degree matrix is read from ``\tilde{D}_{ii} = \sum_j
  \tilde{A}_{ij}``;
* simple ``\newcommand`` macros, expanded first.

Constructs that are valid mathematics but not read (an inverse of a matrix
not known to be diagonal, ``\otimes``, the trace, the determinant, the
rank, vec, norms) raise :class:`~symrow.errors.NotSupportedError`; text
that is not a formula raises :class:`~symrow.errors.ParseError`.  Both give
line and column.

>>> from symrow.formula.read import read_formula
>>> from symrow.formula.expr import text
>>> f = read_formula(r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)V")
>>> text(f.result)
'softmax(QK^T/√d)V'
>>> [(name, text(e)) for name, e in read_formula("S = QK^T; O = softmax(S) V").definitions]
[('S', 'QK^T'), ('O', 'softmax(S)V')]
>>> text(read_formula(r"\sigma(\mathbf{X}\mathbf{W}^{(1)} + \mathbf{b}^{(1)})").result)
'σ(XW^(1) + b^(1))'
>>> read_formula(r"A \otimes B")
Traceback (most recent call last):
...
symrow.errors.NotSupportedError: the Kronecker product \otimes is not supported yet (line 1, column 3, at '\otimes')
"""

from __future__ import annotations

import dataclasses
import re

import sympy

from ..reader import notation as NT
from ..reader import vocab as V
from ..reader.lexer import (DOC_ENVS, MATRIX_ENVS, Cursor, Env, Group, Source, Token,
                            build_tree, tokenize)
from ..reader.macros import expand as expand_macros
from ..reader.typography import plain
from ..errors import NotSupportedError, OptionError, ParseError
from ..seq import size_symbol
from .expr import (FUNCTIONS, Apply, Call, Concat, Expr, Formula, Hadamard, Identity, Name,
                   Ones, Power, Product, Scaled, Softmax, Sum, Transpose, text, walk)

__all__ = ["read_formula", "read_latex", "from_sympy", "softmax", "apply", "MAX_FORMULA"]

#: the longest formula read, in characters
MAX_FORMULA = 20_000
#: the deepest nesting of brackets read
MAX_NESTING = 40
#: the most heads a family such as head_1, ..., head_h is expanded to
MAX_HEADS = 16

_UNSUPPORTED = {
    "\\otimes": "the Kronecker product \\otimes",
    "\\oplus": "the direct sum \\oplus",
    "\\ominus": "\\ominus",
    "\\det": "the determinant \\det",
    "\\sum": "a sum with \\sum (write the matrices themselves)",
    "\\prod": "a product with \\prod",
    "\\min": "\\min",
    "\\|": "a norm", "|": "an absolute value or norm", "\\vert": "an absolute value",
    "\\Vert": "a norm", "\\lVert": "a norm", "\\lvert": "an absolute value",
    "\\nabla": "\\nabla", "\\partial": "a derivative",
    "\\int": "an integral", "\\mathbb": "a set such as \\mathbb{R}",
    "\\cdots": "an ellipsis", "\\dots": "an ellipsis", "\\ldots": "an ellipsis",
    "\\vdots": "an ellipsis", "\\ddots": "an ellipsis",
}
#: what joins a name to its definition (an algorithm's assignment Q \\leftarrow W X too)
_EQUALS = {"=", "\\leftarrow", "\\gets", "\\coloneqq", "\\triangleq", "\\equiv", "\\coloneq",
           "\\eqqcolon", "\\stackrel", "\\overset"}
_SEPARATORS = {";", ","}
_CLOSERS = {")": "(", "]": "[", "\\rbrack": "\\lbrack", "\\}": "\\{"}
_OPENERS = {"(": ")", "[": "]", "\\lbrack": "\\rbrack", "\\{": "\\}"}
_ELLIPSES = {"\\dots", "\\ldots", "\\cdots"}
#: bars between the blocks of a concatenation, [a \| b]
_JOINS = {"\\|", "\\Vert", "\\parallel"}
_HADAMARD = {"\\odot", "\\circ"}
#: commands that hold words, and the words that only join formulas ("where", "and")
_PROSE = {"\\text", "\\mbox", "\\textrm", "\\textnormal", "\\mathrm", "\\textit"}
_PROSE_WORDS = {"where", "and", "with", "for", "s.t", "if", "then", "or", "hence", "so"}
_NAME_SUB = re.compile(r"^[A-Za-z0-9]{1,8}$")
#: index letters a family of definitions may be indexed by (head_i, W_i)
_FAMILY_INDEX = re.compile(r"^[a-z]$")


@dataclasses.dataclass(frozen=True)
class _Scalar:
    """A scalar factor met while reading (a number, a size, a square root); ``name`` is
    the name it was written as when it was one letter (``b``, ``\\beta``)."""

    value: sympy.Expr
    pos: int
    end: int
    name: str | None = None


@dataclasses.dataclass
class _Function:
    """A function defined in the text: ``\\mathrm{FFN}(x) = ...``."""

    word: str
    params: list          # canonical names
    body: list            # nodes
    pos: int
    end: int
    sub: str | None = None   # \mathrm{Att}_{\leftrightarrow}, G_\sigma: the name's subscript


def _function_key(word: str, sub: str | None) -> str:
    return word.lower() if sub is None else f"{word.lower()}_{{{sub}}}"


@dataclasses.dataclass
class _Family:
    """An indexed family of definitions: ``\\mathrm{head}_i = ...``."""

    name: str             # the canonical name without its index: \mathrm{head}
    parts: object         # NameParts of the written left side
    index: str            # the index letter: i
    body: list
    pos: int
    end: int


def _is(node, *texts: str) -> bool:
    return isinstance(node, Token) and node.text in texts


def _span(node) -> tuple[int, int]:
    return node.pos, node.end


def _nodes(node) -> list:
    if node is None:
        return []
    return node.children if isinstance(node, Group) else [node]


def _plain(node) -> str:
    """The text of a simple argument (``T``, ``{\\top}``, ``{-1}``); '' if not simple."""
    if node is None:
        return ""
    if isinstance(node, Token):
        return node.text
    if isinstance(node, Group):
        out = []
        for child in node.children:
            inner = _plain(child)
            if not inner:
                return ""
            out.append(inner if isinstance(child, Token) else "{" + inner + "}")
        return "".join(out)
    return ""


def _is_prose(group: Group, command: Token) -> bool:
    """``\\text{where }``, ``\\mbox{for all } ...``: words, not a function or a name."""
    words = "".join(_plain(c) for c in group.children).lower()
    if words in _PROSE_WORDS:
        return True
    if command.text == "\\mathrm":
        return False
    kids = group.children
    spaced = any(not (isinstance(c, Token) and c.kind == "letter") for c in kids) or any(
        b.pos != a.end for a, b in zip(kids, kids[1:]))
    return spaced or len(kids) == 0


def _split_commas(nodes: list, separators: tuple = (",", ";")) -> list[list]:
    """Top-level pieces of a bracket's contents, cut at ``separators`` (commas)."""
    pieces: list[list] = [[]]
    depth = 0
    for node in nodes:
        if _is(node, "(", "[", "\\left", "\\{"):
            depth += 1
        elif _is(node, ")", "]", "\\right", "\\}"):
            depth -= 1
        if depth == 0 and _is(node, *separators):
            pieces.append([])
            continue
        pieces[-1].append(node)
    return pieces


def _strip_spacing(nodes: list) -> list:
    return [n for n in nodes if not _is(n, *V.SPACING)]


class _Reader:
    def __init__(self, src: Source, *, known=frozenset(), heads: int | None = None):
        self.src = src
        self.depth = 0
        self.known = set(known)
        self.known_loose = {_loose(k) for k in known}
        self.heads = heads
        self.fonts: dict[str, str] = {}
        self.notes: list = []
        self.functions: dict[str, _Function] = {}
        self.families: dict[str, _Family] = {}
        self.bindings: list[dict] = []        # parameter name -> Expr, innermost last
        self.index_subs: list[dict] = []      # family index letter -> value, innermost last
        self.instances: dict[str, int] = {}   # instance name -> its index
        self.instance_bindings: dict[str, tuple] = {}
        self.pending: list[tuple[str, Expr]] = []   # instances read, to define before use
        self.calling: list[str] = []
        #: the functions of the text that some line applies
        self.called: set = set()
        self.tied: dict[str, set] = {}        # a family's name with its index -> instances
        self.aside: set = set()               # names only in other members of a chain
        self.chains: list = []                # (member read, other members, pos, end)
        self.ones = 0                         # all-ones vectors read without a size

    # -- errors -----------------------------------------------------------------------
    def error(self, message: str, pos: int, end: int | None = None) -> ParseError:
        return self.src.error(message, pos, end)

    def unsupported(self, what: str, pos: int, end: int) -> NotSupportedError:
        line, col = self.src.line_col(pos)
        return NotSupportedError(f"{what} is not supported yet", line=line, column=col,
                                 near=self.src.near(pos, end))

    # -- top level: definitions ---------------------------------------------------------
    def definitions(self, nodes: list) -> Formula:
        flat = self._flatten(nodes)
        pieces = self._split(flat)
        if not pieces:
            raise self.error("there is no formula here", 0)
        plain: list[tuple[int, list, list | None, int | None]] = []
        last_function = None
        family_lines: list = []
        for k, piece in enumerate(pieces):
            piece = self._unannotated(piece)
            eqs = [j for j, node in enumerate(piece) if isinstance(node, Token) and
                   (node.text in _EQUALS or (node.text == ":" and _is(
                       piece[j + 1] if j + 1 < len(piece) else None, "=")))]
            eqs = [j for j in eqs if not (piece[j].text == "=" and j and _is(piece[j - 1], ":"))]
            if len(eqs) > 1:
                piece = self._chain(piece, eqs)
                eqs = [j for j, node in enumerate(piece) if _is(node, "=")][:1]
            if not eqs:
                plain.append((k, piece, None, None))
                continue
            j = eqs[0]
            lhs, rhs = piece[:j], piece[j + 1:]
            if lhs and _is(lhs[-1], ":"):
                lhs = lhs[:-1]
            if rhs and _is(rhs[0], "="):
                rhs = rhs[1:]
            if not lhs:
                raise self.error("this '=' has no name on its left", *_span(piece[j]))
            if not rhs:
                raise self.error("this '=' has nothing on its right", *_span(piece[j]))
            if self._function_definition(lhs, rhs):
                last_function = k
                continue
            if self._family_definition(lhs, rhs):
                family_lines.append((k, lhs, rhs, j))
                continue
            plain.append((k, lhs, rhs, j))
        if not plain and not self.functions and len(family_lines) == 1:
            # \bar{\text{head}_i} = ... alone: nothing uses it as a family, so it is the
            # formula, its index a letter of its names
            self.families.clear()
            plain = family_lines
        if plain and last_function is not None and last_function > plain[-1][0]:
            # Retention(X) = ... after the definitions it uses: that function is the result
            top = self._top_function()
            if top is self.functions.get(self._def_key(pieces[last_function])):
                plain.append((last_function, None, None, None))
        defs: list[tuple[str, Expr]] = []
        families: list[tuple[str, int]] = []
        written = None
        last = len(plain) - 1
        for n, (k, lhs, rhs, _j) in enumerate(plain):
            if lhs is None:       # the last function, applied to its own parameters
                top = self._top_function()
                expr = self._call_user(top, [Name(p, pos=top.pos) for p in top.params],
                                       top.pos)
                defs += self._take_pending(families)
                name = self._function_name(top)
                if any(name == d for d, _ in defs):
                    raise self.error(f"{name} is defined twice", top.pos, top.end)
                defs.append((name, expr))
                written = name
                self.notes.append(("function_result", {"word": top.word,
                                                       "params": tuple(top.params)}))
                continue
            if rhs is None:
                if n != last:
                    raise self.error("only the last line may be a bare expression; name "
                                     "the others, as in S = QK^T", *_span(lhs[0]))
                expr = self.expression(lhs)
                defs += self._take_pending(families)
                defs.append(("", expr))
                continue
            degree = self._degree_definition(lhs, rhs)
            transposed = False
            if degree is not None:
                name, expr = degree
            else:
                try:
                    name = self.lhs_name(lhs)
                except ParseError as lhs_error:
                    # (Q^{new})^T = ...: the transpose of a name is defined
                    name = self._transposed_lhs(lhs)
                    transposed = name is not None
                    if not transposed:
                        self._lhs_obstacle(rhs)
                        raise lhs_error from None
                if name in [d for d, _ in defs]:
                    raise self.error(f"{name} is defined twice", *_span(lhs[0]))
                expr = self.expression(rhs)
                if transposed:
                    expr = Transpose(expr, pos=lhs[0].pos)
                if name in _names_in(expr):
                    raise self.error(f"{name} is defined in terms of itself; give the new "
                                     f"quantity a name of its own", *_span(lhs[0]))
            if any(name in _names_in(e) for _n, e in defs):
                raise self.error(f"{name} is used before it is defined; define it on an "
                                 f"earlier line", *_span(lhs[0]))
            defs += self._take_pending(families)
            defs.append((name, expr))
            # a lowercase name defined here (z_1 = XW_1 + b_1) is that matrix below, not a
            # scalar
            self.known.add(name)
            self.known_loose.add(_loose(name))
            written = name if n == last else written
            if transposed and n == last:
                # the formula is its left side as written, the transpose of the name
                defs.append(("", Transpose(Name(name, pos=lhs[0].pos), pos=lhs[0].pos)))
        unused = [fn for fn in self.functions.values() if fn.word not in self.called]
        if plain and defs and unused and written is not None:
            # Attn(Q, K, V) = D^{-1}AV, then A = ..., D = ...: the function is never
            # applied, and taking the last line (D) for the result would be a guess
            fn = unused[0]
            last = self._function_after_its_uses(unused, defs, families)
            if last is not None:
                defs.append(last)
                written = last[0]
                unused = []
        if plain and defs and unused and written is not None:
            fn = unused[0]
            raise self.error(f"{fn.word}({', '.join(fn.params)}) is defined but never used, "
                             f"and the last line defines {written}: which is the result? "
                             f"Define what {fn.word} uses on the lines before it, so that it "
                             f"comes last, or end with the formula to read", fn.pos, fn.end)
        if not plain:
            # only functions: the result is the one no other function uses
            top = self._top_function()
            expr = self._call_user(top, [Name(p, pos=top.pos) for p in top.params], top.pos)
            defs += self._take_pending(families)
            name = self._function_name(top)
            defs.append((name, expr))
            written = name
            self.notes.append(("function_result", {"word": top.word,
                                                   "params": tuple(top.params)}))
        if defs[-1][0] == "":
            written = None
        tied = tuple(tuple(sorted(group)) for group in self.tied.values() if len(group) > 1)
        return Formula(tuple(defs), written, fonts=tuple(self.fonts.items()),
                       families=tuple(families), notes=tuple(self.notes), tied=tied,
                       aside=tuple(sorted(self.aside)), chains=tuple(self.chains))

    def _unannotated(self, piece: list) -> list:
        """A line without what only describes it: the set a value lies in, written after
        it (``M = L \\circ CB^\\top \\in \\mathbb{R}^{(T,T)}``: the shapes say it), and
        the argument of a map (``X \\mapsto f(X)``: the value is ``f(X)``, a function of
        X)."""
        depth = 0
        for j, node in enumerate(piece):
            if _is(node, *_OPENERS):
                depth += 1
            elif _is(node, *_CLOSERS):
                depth -= 1
            elif depth == 0 and _is(node, "\\in") and j and j + 1 < len(piece) and \
                    _is(piece[j + 1], "\\mathbb", "\\mathcal"):
                return piece[:j]
        for j, node in enumerate(piece):
            if _is(node, "\\mapsto") and j and self._one_name(_strip_spacing(piece[:j])) \
                    is not None and j + 1 < len(piece):
                return piece[j + 1:]
        return piece

    def _lhs_obstacle(self, rhs: list) -> None:
        """``\\log p(y|X) = ...``: a left side that is no name, with an obstacle on the
        right (an inverse of a sum or product): that obstacle is named first."""
        saved = (list(self.notes), dict(self.fonts), list(self.pending))
        try:
            value = self.expression(rhs)
        finally:
            self.notes, self.fonts, self.pending = saved
        for e in walk(value):
            if isinstance(e, Power) and e.exponent < 0 and not isinstance(e.arg, Name):
                # an inverse of a sum or product: no shape makes it diagonal
                raise self.unsupported(f"the inverse of {text(e.arg)}", e.pos, e.pos + 1)

    def _transposed_lhs(self, lhs: list) -> str | None:
        """``\\big( Q^{new} \\big)^T``, ``(W)^\\top``: a left side that is the transpose
        of one name, bracketed; that name, else None."""
        nodes = [n for n in _strip_spacing(lhs) if not _is(n, *V.SIZES, "\\left", "\\right")]
        if len(nodes) < 4 or not _is(nodes[0], "(") or not any(_is(n, ")") for n in nodes):
            return None
        close = max(k for k, n in enumerate(nodes) if _is(n, ")"))
        if not _is(nodes[close + 1] if close + 1 < len(nodes) else None, "^"):
            return None
        parts = self._one_name(nodes[1:close])
        if parts is None:
            return None
        saved = (list(self.notes), dict(self.fonts), list(self.pending))
        try:
            value = self.expression(list(lhs))
        except (ParseError, NotSupportedError, OptionError):
            return None
        finally:
            self.notes, self.fonts, self.pending = saved
        if isinstance(value, Transpose) and isinstance(value.arg, Name):
            if parts.font:
                self.fonts.setdefault(value.arg.name, parts.font)
            return value.arg.name
        return None

    def _function_after_its_uses(self, unused: list, defs: list, families: list):
        """``Attn(Q, K, V) = D^{-1}AV, A = ..., D = ...``: the function comes first and the
        definitions it uses after it, as papers write them.  When the function is the one
        no other uses and every line after it is used by it (directly, or through another
        such line), it is the result, read in the order its names need: ``(name, value)``.
        Otherwise None (a line it does not use would make the result a guess)."""
        if len(unused) != 1:
            return None
        try:
            top = self._top_function()
        except ParseError:
            return None
        if top is not unused[0] or any(name == "" for name, _ in defs):
            return None
        saved = (list(self.notes), list(self.pending), dict(self.instances),
                 dict(self.instance_bindings), set(self.called))
        expr = self._call_user(top, [Name(p, pos=top.pos) for p in top.params], top.pos)
        values = dict(defs)
        needed, todo = set(), list(_names_in(expr))
        while todo:
            name = todo.pop()
            if name in values and name not in needed:
                needed.add(name)
                todo.extend(_names_in(values[name]))
        name = self._function_name(top)
        if not {n for n, _ in defs} <= needed or name in values or any(
                name in _names_in(e) for _, e in defs):     # a cycle through the result
            (self.notes, self.pending, self.instances, self.instance_bindings,
             self.called) = saved
            return None
        defs += self._take_pending(families)
        self.notes.append(("function_result", {"word": top.word, "params": tuple(top.params)}))
        return name, expr

    def _chain(self, piece: list, eqs: list) -> list:
        """``h = W_0x + \\Delta W x = W_0x + BAx``: a chain of equal members.  The value
        is read from its last member that reads (the most written-out one); the piece
        becomes ``name = member`` (or the bare member, for a chain with no name).
        No member that reads: the error of the last one."""
        bounds = [-1] + eqs + [len(piece)]
        members = [piece[a + 1:b] for a, b in zip(bounds, bounds[1:])]
        for k, member in enumerate(members):
            if not _strip_spacing(member):
                eq = piece[eqs[max(0, k - 1)]]
                raise self.error("this '=' has no name on its left" if k == 0 else
                                 "this '=' has nothing on its right", *_span(eq))
        head = members[0]
        named = True
        try:
            self.lhs_name(head)
        except ParseError:
            named = False
        if named and self._function_definition(list(head), list(members[1])):
            # f(x) = ... = ...: a function's definition by its first body
            self.functions.pop(self._def_key(head), None)
        candidates = members[1:] if named else members
        error = None
        for member in reversed(candidates):
            saved = (list(self.notes), dict(self.fonts), list(self.pending),
                     dict(self.instances), dict(self.instance_bindings))
            try:
                chosen = self.expression(_strip_spacing(member))
            except (ParseError, NotSupportedError, OptionError) as err:
                error = error or err
                continue
            finally:
                (self.notes, self.fonts, self.pending, self.instances,
                 self.instance_bindings) = saved
            others = []
            for other in candidates:      # the other members' text: shapes a caller
                if other is not member and other:   # gives for their names (\Delta W)
                    self.aside.add(self.src.text[other[0].pos:other[-1].end])
                    names, value = self._member_names(other)
                    self.aside.update(names)
                    if value is not None and not self.bindings:
                        others.append(value)
            if others:     # checked at random values once the shapes are known (explain)
                self.chains.append((chosen, tuple(others), piece[0].pos, piece[-1].end))
            if named:
                return list(head) + [piece[eqs[0]]] + list(member)
            return list(member)
        raise error

    def _member_names(self, member: list) -> tuple[set, Expr | None]:
        """The names another member of a chain is written in, as symrow keys them
        (``Q^{new}`` for ``\\boldsymbol{Q}^{\\text{new}}``), and its value, when it
        reads; else none."""
        saved = (list(self.notes), dict(self.fonts), list(self.pending),
                 dict(self.instances), dict(self.instance_bindings), set(self.called))
        try:
            value = self.expression(_strip_spacing(member))
            return _names_in(value), value
        except (ParseError, NotSupportedError, OptionError):
            return set(), None
        finally:
            (self.notes, self.fonts, self.pending, self.instances,
             self.instance_bindings, self.called) = saved

    @staticmethod
    def _function_name(fn: _Function) -> str:
        """The name of a function's value: ``\\mathrm{MultiHead}``, or ``h`` for h(X)."""
        if len(fn.word) > 1:
            head = "\\" + fn.word
        else:
            head = fn.word.upper() if fn.word.islower() else fn.word
        # a long subscript (\leftrightarrow) is left off the value's name
        sub = fn.sub if fn.sub is not None and len(fn.sub) <= 12 else None
        return NT.NameParts(head, sub=sub).canonical

    def _take_pending(self, families: list) -> list:
        out = []
        for name, expr in self.pending:
            out.append((name, expr))
            families.append((name, self.instances[name]))
        self.pending = []
        return out

    def _flatten(self, nodes: list) -> list:
        """Drop math delimiters and layout environments; keep their contents."""
        out: list = []
        for node in nodes:
            if isinstance(node, Env) and node.name in DOC_ENVS:
                out.append(Token("sym", ";", node.begin.pos, node.begin.end))
                out.extend(self._flatten(node.children))
                out.append(Token("sym", ";", node.end_token.pos, node.end_token.end))
            elif isinstance(node, Token) and (node.kind == "dollar" or node.text in (
                    "\\[", "\\]", "\\(", "\\)")):
                continue
            elif isinstance(node, Token) and (node.kind == "rowsep" or node.text in (
                    "&", "\\nonumber", "\\notag", "\\displaystyle")):
                if node.kind == "rowsep":
                    out.append(Token("sym", ";", node.pos, node.end))
                continue
            elif isinstance(node, Group) and out and _is(out[-1], "\\label", "\\tag"):
                out.pop()      # \label{...}, \tag{...}: not part of the formula
            elif isinstance(node, Group) and out and _is(out[-1], *_PROSE) and \
                    _is_prose(node, out[-1]):
                # \text{where }: words between formulas separate them
                prose = out.pop()
                out.append(Token("sym", ";", prose.pos, node.end))
            else:
                out.append(node)
        return out

    def _split(self, flat: list) -> list[list]:
        """Cut at ';' ',' (outside brackets) and at line breaks before ``NAME =``."""
        pieces: list[list] = [[]]
        depth = 0
        for k, node in enumerate(flat):
            if isinstance(node, Token):
                if node.text in _OPENERS:
                    depth += 1
                elif node.text in _CLOSERS:
                    depth = max(0, depth - 1)
                if depth == 0 and node.text in _SEPARATORS and node.kind == "sym":
                    pieces.append([])
                    continue
                if node.newline and pieces[-1] and depth == 0 and self._starts_definition(
                        flat, k):
                    pieces.append([])
            pieces[-1].append(node)
        return [p for p in pieces if p]

    @staticmethod
    def _starts_definition(flat: list, k: int) -> bool:
        depth = 0
        for node in flat[k:k + 12]:
            if _is(node, "(", "["):
                depth += 1
            elif _is(node, ")", "]"):
                depth -= 1
            if isinstance(node, Token) and node.text in _EQUALS and depth == 0:
                return True
            if depth == 0 and isinstance(node, Token) and node.text in ("+", "-", "\\cdot"):
                return False
        return False

    def lhs_name(self, nodes: list) -> str:
        nodes = _strip_spacing(nodes)
        cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
        expr = None
        if NT.is_name_start(cur.peek()):
            try:
                parts, _, _ = NT.read_name(cur, self.src)
                if _is(cur.peek(), "'") and parts.sup is None:
                    # H' = ...: on the left of a definition a prime names a new value
                    cur.take()
                    parts = dataclasses.replace(parts, sup="\\prime")
                expr = Name(parts.canonical)
                if parts.font:
                    self.fonts.setdefault(parts.canonical, parts.font)
            except NT.NameError_:
                expr = None
        if not isinstance(expr, Name) or not cur.at_end():
            raise self.error("the left side of a definition must be one name, such as S "
                             "or W_Q", nodes[0].pos, nodes[-1].end)
        return expr.name

    # -- functions and families defined in the text ------------------------------------------
    def _one_name(self, nodes: list):
        """The name ``nodes`` are, all of them (its :class:`NameParts`), or None."""
        if not nodes or not NT.is_name_start(nodes[0]):
            return None
        cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
        try:
            parts, _, _ = NT.read_name(cur, self.src)
        except NT.NameError_:
            return None
        return parts if cur.at_end() else None

    def _head_word(self, nodes: list) -> tuple[str, int] | None:
        """``\\mathrm{Attention}``, ``\\operatorname{FFN}``, ``f``: the word a function
        definition or call starts with, and how many nodes it takes."""
        if not nodes:
            return None
        first = nodes[0]
        if _is(first, *NT.UPRIGHT) and len(nodes) > 1:
            word = _plain(nodes[1])
            if re.fullmatch(r"[A-Za-z]{1,16}", word or ""):
                return word, 2
        if isinstance(first, Group) and first.children and _is(first.children[0], "\\rm"):
            word = "".join(_plain(c) for c in first.children[1:])
            if re.fullmatch(r"[A-Za-z]{1,16}", word):
                return word, 1
        if isinstance(first, Token) and first.text in NT.GREEK_LOWER and \
                len(nodes) > 1 and self._opens_bracket(nodes[1]):
            return first.text[1:], 1       # \phi(x) = ...: a function under a Greek name
        if isinstance(first, Token) and first.kind == "letter":
            k = 0
            while k < len(nodes) and isinstance(nodes[k], Token) and nodes[k].kind == "letter" \
                    and (k == 0 or nodes[k].pos == nodes[k - 1].end):
                k += 1
            return "".join(n.text for n in nodes[:k]), k
        return None

    def _function_definition(self, lhs: list, rhs: list) -> bool:
        lhs = _strip_spacing(lhs)
        head = self._head_word(lhs)
        if head is None:
            return False
        word, k = head
        rest = lhs[k:]
        sub = self._function_sub(rest)
        if sub is not None:
            rest = rest[2:]
        if rest and _is(rest[0], "\\left"):
            rest = rest[1:]
        if len(rest) < 3 or not _is(rest[0], "(") or not _is(rest[-1], ")"):
            return False
        params = []
        for piece in _split_commas(rest[1:-1]):
            piece = _strip_spacing(piece)
            if piece and _is(piece[-1], "\\right"):
                piece = piece[:-1]
            parts = self._one_name(piece)
            if parts is None:
                return False
            params.append(parts.canonical)
        # on the left of a definition, G(x) = ... and G_\sigma(x) = ... define a function
        # of the parameters (a product X(A) would not be defined by '=')
        key = _function_key(word, sub)
        if key in self.functions:
            raise self.error(f"the function {word} is defined twice", lhs[0].pos, lhs[-1].end)
        if sub is None and (key in NT.REFUSED_WORDS or NT.lookup_function(key) is not None
                            and key != "attention"):
            raise self.error(f"{word} is a function symrow knows; define a function of "
                             f"another name", lhs[0].pos, lhs[-1].end)
        self.functions[key] = _Function(word, params, rhs, lhs[0].pos, lhs[-1].end, sub)
        return True

    def _function_sub(self, rest: list) -> str | None:
        """The subscript a function's name carries (``_{\\leftrightarrow}`` after
        ``\\mathrm{Att}``), when a bracket follows it; else None."""
        if len(rest) < 3 or not _is(rest[0], "_") or not self._opens_bracket(rest[2]):
            return None
        try:
            return NT._script_text(rest[1], self.src, "subscript", rest[0].pos)
        except NT.NameError_:
            return None

    def _subscripted_call(self, cur: Cursor, word: str, k: int):
        """``\\mathrm{Att}_{\\leftrightarrow}(Q, K, V)``, ``G_\\sigma(x)``: a call of a
        function the text defines under a subscripted name (``k`` nodes hold the word)."""
        rest = [cur.peek(k + j) for j in range(3)]
        if any(n is None for n in rest):
            return None
        sub = self._function_sub(rest)
        if sub is None or _function_key(word, sub) not in self.functions:
            return None
        tok = cur.peek()
        for _ in range(k + 2):
            cur.take()
        pieces, _ = self._call_args(cur, tok)
        fn = self.functions[_function_key(word, sub)]
        return self._call_user(fn, self._args(pieces, tok), tok.pos)

    def _parametric_call(self, cur: Cursor, word: str, k: int):
        """``\\mathrm{LeakyReLU}_{0.2}(X)``: a function applied entry by entry with its
        parameter written as the subscript of its name (a number, or a letter)."""
        from ..derive.readings.entrywise import ENTRY_FUNCTIONS
        fn = NT.lookup_function(word)
        entry = ENTRY_FUNCTIONS.get(fn.key) if fn is not None else None
        if entry is None or entry.param is None:
            return None
        sub = cur.peek(k + 1)
        written = _plain(sub).replace("{", "").replace("}", "").replace(" ", "")
        if not re.fullmatch(r"\d+(\.\d+)?|\d+/\d+|\\?[A-Za-z]+", written) or (
                written.startswith("\\") and written not in NT.GREEK_LOWER):
            raise self.error(f"the subscript of {word} must be its parameter, a number or a "
                             f"letter, as in {word}_{{0.2}}", *_span(cur.peek(k)))
        if not self._opens_bracket(cur.peek(k + 2)):
            raise self.error(f"{word} needs its argument in brackets, as in {word}(X)",
                             *_span(cur.peek()))
        tok = cur.peek()
        for _ in range(k + 2):
            cur.take()
        return self._call(cur, f"{entry.key}:{written}", tok)

    def _family_definition(self, lhs: list, rhs: list) -> bool:
        lhs = _strip_spacing(lhs)
        parts = self._one_name(lhs)
        if parts is None or parts.sub is None or not _FAMILY_INDEX.match(parts.sub):
            return False
        if parts.kind != "word":
            return False      # W_i = ... : only word names (head_i) make families
        base = dataclasses.replace(parts, sub=None, font=None).canonical
        self.families[base] = _Family(base, parts, parts.sub, rhs, lhs[0].pos, lhs[-1].end)
        return True

    def _degree_definition(self, lhs: list, rhs: list):
        """``\\tilde{D}_{ii} = \\sum_j \\tilde{A}_{ij}``: the degree matrix of Ã."""
        lhs, rhs = _strip_spacing(lhs), _strip_spacing(rhs)
        if not rhs or not _is(rhs[0], "\\sum"):
            return None
        parts = self._one_name(lhs)
        if parts is None or parts.sub is None or len(parts.sub.replace(",", "")) != 2 or \
                parts.sub.replace(",", "")[0] != parts.sub.replace(",", "")[1]:
            return None
        i = parts.sub.replace(",", "")[0]
        k = 1
        j = None
        while k < len(rhs) and _is(rhs[k], "_", "^"):
            if _is(rhs[k], "_"):
                text = _plain(rhs[k + 1]) if k + 1 < len(rhs) else ""
                j = text.split("=")[0].strip("{} ")
            k += 2
        body = rhs[k:]
        if not body or not NT.is_name_start(body[0]):
            return None
        cur = Cursor(body, body[0].pos, body[-1].end)
        try:
            adj, _, _ = NT.read_name(cur, self.src)
        except NT.NameError_:
            return None
        if not cur.at_end() or adj.sub is None or adj.sub.replace(",", "") != i + (j or "?"):
            raise self.error("read the degree matrix as D_{ii} = \\sum_j A_{ij}",
                             lhs[0].pos, rhs[-1].end)
        matrix = dataclasses.replace(adj, sub=None, font=None)
        name = dataclasses.replace(parts, sub=None, font=None).canonical
        self.notes.append(("degree", {"D": name, "A": matrix.canonical}))
        return name, Call("degree", (Name(matrix.canonical, pos=body[0].pos),),
                          pos=lhs[0].pos)

    def _def_key(self, nodes: list) -> str:
        """The key of the function a definition's left side names."""
        nodes = _strip_spacing(nodes)
        word, k = self._head_word(nodes)
        return _function_key(word, self._function_sub(nodes[k:]))

    def _top_function(self) -> _Function:
        if not self.functions:
            raise self.error("there is no formula here, only definitions of families such "
                             "as head_i", 0)
        used = set()
        for fn in list(self.functions.values()) + list(self.families.values()):
            text = self.src.text[fn.body[0].pos:fn.body[-1].end].lower() if fn.body else ""
            for other, called in self.functions.items():
                if called is not fn and re.search(
                        r"(?<![a-z])" + re.escape(called.word.lower()) + r"(?![a-z])", text):
                    used.add(other)
        tops = [fn for key, fn in self.functions.items() if key not in used]
        if len(tops) != 1:
            names = ", ".join(fn.word for fn in (tops or self.functions.values()))
            raise self.error(f"which of the functions {names} is the formula? add a last "
                             f"line that uses it, such as Y = {tops[0].word if tops else 'F'}"
                             f"(X)", 0)
        return tops[0]

    def _call_user(self, fn: _Function, args: list, pos: int) -> Expr:
        if len(args) != len(fn.params):
            raise self.error(f"{fn.word} takes {len(fn.params)} argument(s), "
                             f"({', '.join(fn.params)}); this call gives {len(args)}", pos)
        if fn.word in self.calling:
            raise self.error(f"{fn.word} is defined in terms of itself", fn.pos, fn.end)
        self.calling.append(fn.word)
        self.called.add(fn.word)
        self.bindings.append(dict(zip(fn.params, args)))
        try:
            return self.expression(fn.body)
        finally:
            self.bindings.pop()
            self.calling.pop()

    def _attention(self, args: list, pos: int) -> Expr:
        """The builtin ``Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V``."""
        if len(args) != 3:
            raise self.error(f"Attention takes three arguments (Q, K, V); this call gives "
                             f"{len(args)}", pos)
        q, k, v = args
        if not any(n == "attention" for n, _ in self.notes):
            self.notes.append(("attention", {}))
        scores = Scaled(Product(q, Transpose(k)), sympy.S.One,
                        sympy.sqrt(size_symbol("d_k")), pos=pos)
        return Product(Softmax(scores, pos=pos), v, pos=pos)

    def _instance(self, family: _Family, index, pos: int, end: int) -> Name:
        """``\\mathrm{head}_2``: the family's definition with its index set to 2."""
        parts = dataclasses.replace(family.parts, sub=str(index), font=None)
        name = parts.canonical
        # the family's body sees the arguments of the function it is used in
        # (head_i uses MultiHead's Q, K and V)
        bound = tuple(sorted((k, text(v)) for scope in self.bindings for k, v in scope.items()))
        if name in self.instances:
            if self.instance_bindings[name] != bound:
                raise self.error(f"{name} is used with two sets of arguments; write the "
                                 f"second use with names of its own", pos, end)
            return Name(name, pos=pos)
        if not isinstance(index, int):
            raise self.error(f"{name}: which one? write the index as a number, or list "
                             f"them as {family.name}_1, \\dots, {family.name}_h", pos, end)
        self.instances[name] = index
        self.instance_bindings[name] = bound
        self.index_subs.append({family.index: str(index)})
        try:
            expr = self.expression(family.body)
        finally:
            self.index_subs.pop()
        self.pending.append((name, expr))
        return Name(name, pos=pos)

    # -- expressions ----------------------------------------------------------------------
    def expression(self, nodes: list) -> Expr:
        while nodes and (_is(nodes[-1], *V.SPACING) or _is(nodes[-1], ".") and
                         nodes[-1].kind == "sym" and len(nodes) > 1):
            # "... V\ ," : the space before a closing comma; "... \big) \ .": the period
            # that ends the sentence
            nodes = nodes[:-1]
        if not nodes:
            raise self.error("there is nothing here", 0)
        value = self.sum(Cursor(nodes, nodes[0].pos, nodes[-1].end), stop=None)
        if isinstance(value, _Scalar):
            raise self.error("this is a number, not a matrix formula", value.pos, value.end)
        return value

    def _enter(self, pos: int, end: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"this formula is nested more than {MAX_NESTING} deep", pos, end)

    def sum(self, cur: Cursor, stop):
        self._enter(cur.pos, cur.end)
        try:
            terms, signs = [], []
            sign, first = 1, True
            start = cur.peek()
            while True:
                node = cur.peek()
                while _is(node, "+", "-"):
                    cur.take()
                    if node.text == "-":
                        sign = -sign
                    node = cur.peek()
                if node is None or (stop and _is(node, *stop)):
                    if not first or terms or sign != 1:
                        where = cur.nodes[cur.i - 1] if cur.i else start
                        raise self.error("a sign with nothing after it", *_span(where))
                    raise self.error("there is nothing here", cur.pos, cur.end)
                terms.append(self.term(cur, stop))
                signs.append(sign)
                first, sign = False, 1
                node = cur.peek()
                if node is None or (stop and _is(node, *stop)):
                    break
                if not _is(node, "+", "-"):
                    raise self.error(f"unexpected {self.src.near(node.pos, node.end)!r}",
                                     *_span(node))
            if len(terms) == 1:
                if signs[0] == 1:
                    return terms[0]
                if isinstance(terms[0], _Scalar):
                    t = terms[0]
                    return _Scalar(-t.value, t.pos, t.end)
                return Sum((terms[0],), (-1,), pos=terms[0].pos)
            scalars = [t for t in terms if isinstance(t, _Scalar)]
            if scalars and len(scalars) < len(terms):
                # a lowercase letter added to a matrix is a bias row: XW + b
                out = []
                for t in terms:
                    if isinstance(t, _Scalar):
                        if t.name is None:
                            raise self.unsupported(
                                f"adding a number ({self.src.text[t.pos:t.end].strip()}) to "
                                f"every entry of a matrix", t.pos, t.end)
                        t = Name(t.name, pos=t.pos)
                    out.append(t)
                terms = out
            elif scalars:
                total = sum(sg * t.value for sg, t in zip(signs, terms))
                return _Scalar(total, terms[0].pos, terms[-1].end)
            return Sum(tuple(terms), tuple(signs), pos=terms[0].pos)
        finally:
            self.depth -= 1

    def term(self, cur: Cursor, stop):
        """Products, with ``\\odot`` binding more loosely than juxtaposition."""
        left = self._product(cur, stop)
        while _is(cur.peek(), *_HADAMARD):
            tok = cur.take()
            nxt = cur.peek()
            if nxt is None or _is(nxt, "+", "-") or (stop and _is(nxt, *stop)):
                raise self.error(f"'{tok.text}' needs something on its right", *_span(tok))
            right = self._product(cur, stop)
            if isinstance(left, _Scalar) or isinstance(right, _Scalar):
                raise self.error(f"'{tok.text}' multiplies two matrices entry by entry; one "
                                 f"side here is a number", *_span(tok))
            left = Hadamard(left, right, pos=tok.pos)
        return left

    def _product(self, cur: Cursor, stop):
        factors: list = []
        num, den = sympy.S.One, sympy.S.One
        start = cur.peek()
        while True:
            node = cur.peek()
            if node is None or _is(node, "+", "-", *_HADAMARD) or (stop and _is(node, *stop)):
                break
            if _is(node, *V.MUL) and node.text != "\\times":
                cur.take()
                if not factors:
                    raise self.error(f"'{node.text}' needs something on its left", *_span(node))
                nxt = cur.peek()
                if nxt is None or _is(nxt, "+", "-") or (stop and _is(nxt, *stop)):
                    raise self.error(f"'{node.text}' needs something on its right",
                                     *_span(node))
                continue
            if _is(node, "\\times"):
                raise self.error("'\\times' between matrices is ambiguous; write a product "
                                 "by juxtaposition (AB)", *_span(node))
            if _is(node, *V.DIV):
                cur.take()
                if not factors:
                    raise self.error(f"'{node.text}' needs something on its left", *_span(node))
                divisor = self.factor(cur)
                if not isinstance(divisor, _Scalar):
                    raise self.unsupported("dividing by a matrix (an inverse)", *_span(node))
                if divisor.value == 0:
                    raise self.error("division by zero", divisor.pos, divisor.end)
                den = den * divisor.value
                continue
            f = self.factor(cur)
            if isinstance(f, _Scalar) and f.name is not None and any(
                    not isinstance(g, _Scalar) for g in factors):
                # a name to the right of a matrix is a vector (W x, X^T \xi), not a scalar
                f = Name(f.name, pos=f.pos)
            if isinstance(f, _Scalar):
                num = num * f.value
            factors.append(f)
        mats = [f for f in factors if not isinstance(f, _Scalar)]
        if not factors:
            where = start if start is not None else None
            raise self.error("there is nothing here", *(_span(where) if where else
                                                        (cur.pos, cur.end)))
        if not mats:
            pos = factors[0].pos
            name = factors[0].name if len(factors) == 1 and num == factors[0].value and \
                den == 1 else None
            return _Scalar(num / den, pos, factors[-1].end, name)
        expr = mats[0]
        for right in mats[1:]:
            expr = Product(expr, right, pos=right.pos)
        if num != 1 or den != 1:
            # keep num/den as written: \frac{QK^T}{\sqrt{d}} has num 1, den sqrt(d)
            n, d = sympy.fraction(sympy.nsimplify(num / den) if (num / den).is_number
                                  else num / den)
            expr = Scaled(expr, n, d, pos=factors[0].pos)
        return expr

    def factor(self, cur: Cursor):
        value = self.primary(cur)
        while True:
            node = cur.peek()
            if _is(node, "'"):
                cur.take()
                value = self._transpose(value, node)
                continue
            if _is(node, "^"):
                cur.take()
                arg = cur.take()
                if arg is None:
                    raise self.error("'^' needs an exponent", *_span(node))
                value = self._power(value, node, arg)
                continue
            if _is(node, "_") and isinstance(value, Ones) and value.sub is None:
                cur.take()
                value = self._ones_size(value, node, cur.take())
                continue
            if _is(node, "_") and isinstance(value, _Scalar) and value.value == 1 and \
                    value.name is None and self.src.text[value.pos:value.end] == "1":
                # 1_n: the all-ones vector of size n, in plain type
                cur.take()
                value = self._ones_size(Ones(pos=value.pos), node, cur.take())
                continue
            if _is(node, "_") and not isinstance(value, Name):
                raise self.error("a subscript here is not a name's; indices of entries "
                                 "belong in a hand derivation, not in a formula", *_span(node))
            return value

    def _ones_size(self, ones: Ones, underscore: Token, arg) -> Ones:
        """``\\mathbf{1}_n``, ``1_{L}``: the all-ones vector with its size written."""
        sub = _plain(arg).replace("{", "").replace("}", "") if arg is not None else ""
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]{0,7}|[1-9][0-9]{0,5}", sub):
            end = arg.end if arg is not None else underscore.end
            raise self.error("the all-ones vector's subscript must be its size, a letter or a "
                             "number, as in \\mathbf{1}_n; an indicator function such as "
                             "\\mathbb{1}_{x > 0} is not supported", underscore.pos, end)
        return Ones(sub, 0, pos=ones.pos)

    def _ones(self, cur: Cursor):
        """``\\mathbf{1}``, ``\\mathbf 1``, ``\\boldsymbol{1}``, ``\\mathbb{1}``: the all-ones
        vector (its size follows from what it meets, or from its subscript); None when
        the font holds something else."""
        tok, arg = cur.peek(), cur.peek(1)
        if _plain(arg) not in ("1", "{1}") or isinstance(arg, Token) and arg.kind != "num":
            return None
        if tok.text == "\\mathbb" and self._opens_bracket(cur.peek(2)):
            raise self.unsupported("an indicator function \\mathbb{1}[...]", tok.pos,
                                   arg.end)
        cur.take()
        cur.take()
        self.ones += 1
        return Ones(None, self.ones, pos=tok.pos)

    def _transpose(self, value, tok):
        if isinstance(value, _Scalar):
            if value.name is not None:
                # a transposed name is a vector (a^T, \theta^\top), not a scalar
                return Transpose(Name(value.name, pos=value.pos), pos=tok.pos)
            return value
        if isinstance(value, Transpose):
            return value.arg
        return Transpose(value, pos=tok.pos)

    def _power(self, value, caret: Token, arg):
        word = _plain(arg)
        if word in V.TRANSPOSE_WORDS or word.replace("{", "").replace("}", "") in \
                V.TRANSPOSE_WORDS:
            return self._transpose(value, caret)
        if word in ("+", "{+}", "\\dagger", "{\\dagger}"):
            raise self.unsupported("the pseudo-inverse of a matrix", caret.pos, arg.end)
        exponent = self._scalar_alone(self.sum(Cursor(_nodes(arg), arg.pos, arg.end),
                                               stop=None))
        if isinstance(value, _Scalar) and isinstance(exponent, _Scalar):
            # e^{t}, d^{1/2}: a number's power is a number
            if value.name == "e" and "e" not in self.known:
                return _Scalar(sympy.exp(exponent.value), value.pos, arg.end)
            return _Scalar(value.value ** exponent.value, value.pos, arg.end)
        if isinstance(value, _Scalar) and value.name == "e" and "e" not in self.known and \
                not isinstance(exponent, _Scalar):
            # e^{-\theta^T x}: Euler's number to a matrix's power, entry by entry, as
            # \exp(-\theta^T x)
            return Apply("exp", exponent, pos=value.pos)
        if isinstance(exponent, _Scalar) and exponent.value.free_symbols and \
                not isinstance(value, _Scalar):
            k = self.src.text[arg.pos:arg.end].strip("{} ")
            raise self.error(f"{text(value)}^{{{k}}} is a power of a matrix, and {k} is not "
                             f"a number here; write the power as a whole number, as in "
                             f"{text(value)}^{{2}}", caret.pos, arg.end)
        if not isinstance(exponent, _Scalar) or not exponent.value.is_Rational:
            raise self.error("an exponent must be a number, such as 2 or -1/2", *_span(arg))
        if isinstance(value, _Scalar):
            return _Scalar(value.value ** exponent.value, value.pos, arg.end)
        if exponent.value == 1:
            return value
        return Power(value, exponent.value, pos=caret.pos)

    # -- primaries ---------------------------------------------------------------------------
    def primary(self, cur: Cursor):
        node = cur.peek()
        if node is None:
            raise self.error("the formula ends too early", cur.end)
        if isinstance(node, Group):
            return self._group(cur)
        if isinstance(node, Env):
            cur.take()
            return self._matrix_env(node)
        tok: Token = node
        text = tok.text
        if text in V.SPACING or text in V.SIZES:
            cur.take()
            return self.primary(cur)
        if tok.kind == "num":
            cur.take()
            if len(text) > 30:
                raise self.error("this number has more than 30 digits", *_span(tok))
            return _Scalar(sympy.Rational(text), tok.pos, tok.end)
        if text in ("(", "[", "\\lbrack"):
            cur.take()
            return self._bracketed(cur, tok, _OPENERS[text])
        if text == "\\left":
            cur.take()
            opener = cur.take()
            if not isinstance(opener, Token) or opener.text not in _OPENERS:
                raise self.error("\\left must be followed by ( or [", *_span(tok))
            return self._bracketed(cur, tok, _OPENERS[opener.text], right=True)
        if text in _CLOSERS or text == "\\right":
            raise self.error(f"'{text}' closes nothing", *_span(tok))
        if text in V.FRACTIONS:
            return self._frac(cur)
        if text == "\\sqrt":
            return self._sqrt(cur)
        if text == "\\max":
            return self._max(cur)
        if text in _HADAMARD:
            raise self.error(f"'{text}' needs something on its left", *_span(tok))
        if text in NT.OPERATORS and NT.OPERATORS[text] is None:
            raise self.unsupported(_UNSUPPORTED.get(text, text), *_span(tok))
        if text in V.BOLD or text == "\\mathbb":
            ones = self._ones(cur)
            if ones is not None:
                return ones
        if text in NT.UPRIGHT:
            return self._font(cur)
        if text in V.ACCENTS or text in V.BOLD or text in NT.GREEK_CAPITALS:
            return self._name(cur)
        if text in V.FUNCTION_COMMANDS and text not in NT.GREEK_LOWER:     # \exp, \tanh
            cur.take()
            return self._call(cur, V.FUNCTION_COMMANDS[text], tok)
        if text in NT.GREEK_LOWER:
            if self._opens_bracket(cur.peek(1)) and text[1:] in self.functions:
                cur.take()       # \phi(Q), \phi defined in the text
                return self._named_call(cur, text[1:], tok)
            if self._opens_bracket(cur.peek(1)):
                cur.take()
                key = text[1:]
                fn = NT.lookup_function(key)
                return self._call(cur, fn.key if fn else key, tok)
            return self._lower(cur)
        if text == "\\ell":
            cur.take()
            return _Scalar(size_symbol("ell"), tok.pos, tok.end)
        if text in _UNSUPPORTED:
            raise self.unsupported(_UNSUPPORTED[text], *_span(tok))
        if tok.kind == "letter":
            word = self._word(cur)
            if word is not None:
                return word
            if text.isupper():
                return self._name(cur)
            return self._lower(cur)
        if tok.kind == "bad":
            raise self.error(f"unexpected character {text!r}", *_span(tok))
        if tok.kind == "cmd":
            raise self.error(f"{text} is not part of a formula symrow reads", *_span(tok))
        raise self.error(f"unexpected {text!r}", *_span(tok))

    def _group(self, cur: Cursor):
        node = cur.take()
        if not node.children:
            raise self.error("empty braces", *_span(node))
        children = node.children
        # {\rm softmax}(...), {a \over b}
        if _is(children[0], "\\rm", "\\mathrm", "\\it", "\\bf", "\\boldsymbol") and \
                children[0].text in ("\\rm", "\\it", "\\bf"):
            word = "".join(_plain(c) for c in children[1:])
            if re.fullmatch(r"[A-Za-z]{2,16}", word) and self._opens_bracket(cur.peek()):
                return self._named_call(cur, word, node)
            children = children[1:]
            if not children:
                raise self.error("empty braces", *_span(node))
        overs = [k for k, c in enumerate(children) if _is(c, "\\over")]
        self._enter(node.pos, node.end)
        try:
            if len(overs) == 1:
                k = overs[0]
                top = self.sum(Cursor(children[:k], node.pos, children[k].pos), stop=None)
                bottom = self.sum(Cursor(children[k + 1:], children[k].end, node.end),
                                  stop=None)
                return self._divide(top, bottom, children[k])
            return self.sum(Cursor(children, node.pos, node.end), stop=None)
        finally:
            self.depth -= 1

    def _opens_bracket(self, node) -> bool:
        return _is(node, "(", "[", "\\left") or (isinstance(node, Token) and node.text in
                                                 V.SIZES)

    def _bracket_nodes(self, cur: Cursor, opener: Token, close: str, right: bool = False):
        inner: list = []
        depth = 0
        while True:
            node = cur.take()
            if node is None:
                raise self.error(f"'{opener.text}' is never closed", *_span(opener))
            if right:
                if _is(node, "\\left"):
                    depth += 1
                elif _is(node, "\\right"):
                    if depth == 0:
                        closer = cur.take()
                        if not _is(closer, close, "."):
                            raise self.error(f"\\right must close with {close}",
                                             *_span(node))
                        break
                    depth -= 1
            else:
                if _is(node, opener.text):
                    depth += 1
                elif _is(node, close):
                    if depth == 0:
                        break
                    depth -= 1
            inner.append(node)
        if not [n for n in inner if not _is(n, *V.SPACING)]:
            raise self.error("empty brackets", *_span(opener))
        return inner, node.end

    def _joined(self, inner: list, opener: Token, end: int, separators=tuple(_JOINS)):
        """``[W h_i \\| W h_j]``, ``[a \\Vert b]``: a concatenation, GAT's and DGL's
        spelling (not a norm: the bars stand between two blocks)."""
        pieces = [_strip_spacing(p) for p in _split_commas(inner, separators)]
        if len(pieces) < 2 or not all(pieces):
            return None
        self._enter(opener.pos, end)
        try:
            parts = [self.sum(Cursor(p, p[0].pos, p[-1].end), stop=None) for p in pieces]
        finally:
            self.depth -= 1
        if any(isinstance(p, _Scalar) for p in parts):
            raise self.error("a concatenation of a number; the blocks are vectors or "
                             "matrices", opener.pos, end)
        return Concat(tuple(parts), pos=opener.pos)

    def _stacked(self, inner: list, opener: Token, end: int):
        """``[s_{i-1}; h_j]``: vectors one on top of the other (Bahdanau et al.'s
        concatenation of two columns); None when no ';' divides the brackets."""
        pieces = [_strip_spacing(p) for p in _split_commas(inner, (";",))]
        if len(pieces) < 2 or len(_split_commas(inner, (",",))) > 1:
            return None
        if not all(pieces):
            raise self.error("an empty block between ';'", opener.pos, end)
        concat = self._joined(inner, opener, end, separators=(";",))
        return dataclasses.replace(concat, stacked=True)

    def _bracketed(self, cur: Cursor, opener: Token, close: str, right: bool = False):
        inner, end = self._bracket_nodes(cur, opener, close, right)
        if close in ("]", "\\rbrack"):
            joined = self._joined(inner, opener, end)
            if joined is not None:
                return joined
        stacked = self._stacked(inner, opener, end)
        if stacked is not None:
            return stacked
        if len(_split_commas(inner)) > 1:
            comma = next(n for n in inner if _is(n, ",", ";"))   # where _split_commas split
            raise self.error("a list in brackets is not a matrix formula; a function's "
                             "arguments go after its name, as in \\mathrm{Concat}(A, B)",
                             *_span(comma))
        self._enter(opener.pos, end)
        try:
            return self.sum(Cursor(inner, opener.pos, end), stop=None)
        finally:
            self.depth -= 1

    def _call_args(self, cur: Cursor, tok, braces: bool = False) -> tuple[list[list], int]:
        """The comma-separated arguments of a call, as node lists (in ``\\{ ... \\}`` too
        with ``braces``: ``\\max\\{0, x\\}``)."""
        while isinstance(cur.peek(), Token) and cur.peek().text in V.SIZES:
            cur.take()
        node = cur.peek()
        if node is None or not (self._opens_bracket(node) or braces and _is(node, "\\{")):
            raise self.error("needs its argument in brackets", *_span(tok))
        opener = cur.take()
        right = False
        if _is(opener, "\\left"):
            opener = cur.take()
            right = True
        if not isinstance(opener, Token) or opener.text not in _OPENERS:
            raise self.error("\\left must be followed by ( or [", *_span(tok))
        inner, end = self._bracket_nodes(cur, opener, _OPENERS[opener.text], right)
        return [_strip_spacing(p) for p in _split_commas(inner)], end

    def _args(self, pieces: list[list], tok) -> list:
        out = []
        for piece in pieces:
            if not piece:
                raise self.error("an empty argument", *_span(tok))
            self._enter(piece[0].pos, piece[-1].end)
            try:
                out.append(self.sum(Cursor(piece, piece[0].pos, piece[-1].end), stop=None))
            finally:
                self.depth -= 1
        return out

    def _divide(self, top, bottom, tok):
        if not isinstance(bottom, _Scalar):
            raise self.unsupported("dividing by a matrix (an inverse)", *_span(tok))
        if bottom.value == 0:
            raise self.error("division by zero", bottom.pos, bottom.end)
        if isinstance(top, _Scalar):
            return _Scalar(top.value / bottom.value, tok.pos, bottom.end)
        if isinstance(top, Scaled):
            return Scaled(top.arg, top.num, top.den * bottom.value, pos=tok.pos)
        return Scaled(top, sympy.S.One, bottom.value, pos=tok.pos)

    def _arg(self, cur: Cursor, what: str, tok: Token):
        node = cur.take()
        if node is None:
            raise self.error(f"{what} needs an argument in braces", *_span(tok))
        nodes = _nodes(node)
        if not nodes:
            raise self.error(f"{what} of nothing", *_span(node))
        self._enter(node.pos, node.end)
        try:
            return self.sum(Cursor(nodes, node.pos, node.end), stop=None)
        finally:
            self.depth -= 1

    def _frac(self, cur: Cursor):
        tok = cur.take()
        digits = cur.peek()
        if isinstance(digits, Token) and digits.kind == "num" and len(digits.text) > 1 \
                and digits.text.isdigit():
            # \frac12: TeX takes one digit for each argument
            cur.take()
            value = sympy.Rational(int(digits.text[0]), int(digits.text[1:2]))
            rest = digits.text[2:]
            if rest:
                cur.nodes.insert(cur.i, Token("num", rest, digits.pos + 2, digits.end))
            return _Scalar(value, tok.pos, digits.pos + 2)
        logistic = self._logistic(cur.peek(), cur.peek(1))
        if logistic is not None:
            cur.take()
            cur.take()
            return Apply("sigma", logistic, pos=tok.pos)
        top = self._arg(cur, tok.text, tok)
        bottom = self._arg(cur, tok.text, tok)
        return self._divide(top, bottom, tok)

    def _logistic(self, top, bottom):
        """``\\frac{1}{1 + e^{-z}}``: the logistic function of z, entry by entry (σ(z));
        the argument z read, else None."""
        if not isinstance(top, Group) or not isinstance(bottom, Group) or \
                _plain(top).replace(" ", "").strip("{}") != "1" or "e" in self.known:
            return None
        nodes = _strip_spacing(_nodes(bottom))
        if len(nodes) != 5 or not (_is(nodes[0], "1") and _is(nodes[1], "+") and
                                   _is(nodes[2], "e") and _is(nodes[3], "^")):
            return None
        inner = _strip_spacing(_nodes(nodes[4]))
        if len(inner) < 2 or not _is(inner[0], "-"):
            return None
        value = self.sum(Cursor(inner[1:], inner[1].pos, inner[-1].end), stop=None)
        return None if isinstance(value, _Scalar) else value

    def _sqrt(self, cur: Cursor):
        tok = cur.take()
        if _is(cur.peek(), "["):
            raise self.unsupported("a root other than the square root", *_span(tok))
        letter, script = cur.peek(), cur.peek(1)
        if isinstance(letter, Token) and letter.kind == "letter" and _is(script, "_") and \
                cur.peek(2) is not None:
            # \sqrt d_z: TeX sets the z outside the root, but the writer means the root of
            # the name d_z (Shaw et al. as hyunyoung2.github.io prints it)
            nodes = cur.nodes[cur.i:cur.i + 3]
            cur.nodes[cur.i:cur.i + 3] = [Group(Token("sym", "{", letter.pos, letter.pos),
                                                nodes, Token("sym", "}", nodes[-1].end,
                                                             nodes[-1].end))]
        inner = self._scalar_alone(self._arg(cur, "\\sqrt", tok))
        if not isinstance(inner, _Scalar):
            raise self.unsupported("the square root of a matrix", *_span(tok))
        return _Scalar(sympy.sqrt(inner.value), tok.pos, inner.end)

    def _scalar_alone(self, value):
        """A name alone in an exponent or under a root (``\\sqrt{D_h}``, ``e^{t}``) is a
        scalar, unless a shape is given for it."""
        if isinstance(value, Name) and value.name not in self.known and \
                _loose(value.name) not in self.known_loose:
            try:
                parts = NT.parse_name(value.name)
            except (NT.NameError_, ParseError):
                return value
            if parts.kind in ("capital", "lower") and parts.accent is None and (
                    parts.sub is None or _NAME_SUB.match(parts.sub)) and parts.sup is None:
                symbol = parts.head + (f"_{parts.sub}" if parts.sub else "")
                return _Scalar(size_symbol(symbol), value.pos, value.pos, value.name)
        return value

    def _max(self, cur: Cursor, tok=None):
        """``\\max(0, X)`` (or ``\\max\\{0, X\\}``): ReLU."""
        tok = tok or cur.take()
        if _is(cur.peek(), "_"):
            raise self.unsupported("a maximum over an index (\\max_j)", *_span(tok))
        pieces, end = self._call_args(cur, tok, braces=True)
        args = self._args(pieces, tok)
        zeros = [a for a in args if isinstance(a, _Scalar) and a.value == 0]
        mats = [a for a in args if not isinstance(a, _Scalar)]
        if len(args) == 2 and len(zeros) == 1 and len(mats) == 1:
            return Apply("relu", mats[0], pos=tok.pos)
        raise self.unsupported("\\max of anything but 0 and a matrix (ReLU)", tok.pos, end)

    def _font(self, cur: Cursor):
        """``\\operatorname{softmax}(...)``, ``\\mathrm{head}_1``, ``\\mathrm{W}``."""
        tok = cur.peek()
        k = 2 if _is(cur.peek(1), "*") else 1
        arg = cur.peek(k)
        word = _plain(arg) if arg is not None else ""
        if word and re.fullmatch(r"[A-Za-z]{2,16}", word):
            after = cur.peek(k + 1)
            key = word.lower()
            called = self._subscripted_call(cur, word, k + 1)
            if called is not None:
                return called
            if _is(after, "_"):
                called = self._parametric_call(cur, word, k + 1)
                if called is not None:
                    return called
            if self._opens_bracket(after):
                for _ in range(k + 1):
                    cur.take()
                return self._named_call(cur, word, tok)
            if not (_is(after, "_") or self._family_name(word)):
                if key in NT.REFUSED_WORDS:
                    raise self.unsupported(NT.REFUSED_WORDS[key] or word, tok.pos, arg.end)
                if NT.lookup_function(key) or key in self.functions or key == "attention":
                    raise self.error(f"{word} needs its argument in brackets, as in "
                                     f"{word}(X)", tok.pos, arg.end)
        if k == 2:
            raise self.error(f"{tok.text}* is for operators such as argmax", *_span(tok))
        # \mathrm{W}, \mathsf{X}, \mathrm{head}_1: a name in an upright font
        return self._name(cur)

    def _family_name(self, word: str) -> bool:
        return ("\\mathrm{%s}" % word) in self.families

    def _named_call(self, cur: Cursor, word: str, tok):
        """``word(...)``: a function the text defines, a known one, or an unknown one."""
        key = word.lower()
        if key in NT.REFUSED_WORDS:
            raise self.unsupported(NT.REFUSED_WORDS[key] or word, *_span(tok))
        if key in self.functions:
            pieces, _ = self._call_args(cur, tok)
            return self._call_user(self.functions[key], self._args(pieces, tok), tok.pos)
        if key == "attention":
            pieces, _ = self._call_args(cur, tok)
            return self._attention(self._args(pieces, tok), tok.pos)
        if key == "max":
            return self._max(cur, tok)
        fn = NT.lookup_function(key)
        if fn is None:
            suggestion = NT.did_you_mean(word)
            if suggestion is not None:
                raise self.error(f"unknown function {word!r}; did you mean {suggestion}?",
                                 *_span(tok))
            # a word symrow does not know may mix the points (MultiHead, MSA) or not: never
            # read it as element-wise on a guess
            raise self.error(f"{word} is not a function symrow knows, and nothing here says "
                             f"whether it mixes the points (as attention does) or works on "
                             f"each one alone; define it in the formula, as "
                             f"\\mathrm{{{word}}}(X) = ..., or write a function applied "
                             f"to every entry as a Greek letter, \\phi(X)", *_span(tok))
        if fn.reading == "concat":
            return self._concat(cur, tok)
        if fn.reading in ("softmax", "apply"):
            return self._call(cur, fn.key, tok)
        pieces, end = self._call_args(cur, tok)
        args = self._args(pieces, tok)
        if any(isinstance(a, _Scalar) for a in args):
            raise self.error(f"{word} of a number; symrow reads functions of matrices",
                             tok.pos, end)
        return Call(fn.reading, tuple(args), pos=tok.pos)

    def _concat(self, cur: Cursor, tok):
        """``\\mathrm{Concat}(A, B)`` and ``\\mathrm{Concat}(\\mathrm{head}_1, \\dots,
        \\mathrm{head}_h)``."""
        pieces, end = self._call_args(cur, tok)
        dots = [k for k, p in enumerate(pieces) if len(p) == 1 and _is(p[0], *_ELLIPSES)]
        if not dots:
            parts = self._args(pieces, tok)
        else:
            if dots != [1] or len(pieces) != 3:
                raise self.error("write a list of blocks as A_1, \\dots, A_h", tok.pos, end)
            first, last = pieces[0], pieces[2]
            if not NT.is_name_start(first[0]) or not NT.is_name_start(last[0]):
                raise self.error("write a list of blocks as A_1, \\dots, A_h", tok.pos, end)
            a, _, _ = NT.read_name(Cursor(first, first[0].pos, first[-1].end), self.src)
            b, _, _ = NT.read_name(Cursor(last, last[0].pos, last[-1].end), self.src)
            if a.sub != "1" or b.sub is None or dataclasses.replace(a, sub=None) != \
                    dataclasses.replace(b, sub=None):
                raise self.error("write a list of blocks as A_1, \\dots, A_h: the same name "
                                 "with the indices 1 to h", tok.pos, end)
            count = self._count(b.sub, dataclasses.replace(a, sub=None, font=None), tok, end)
            parts = []
            for k in range(1, count + 1):
                name_tokens = first  # re-read the first block's name with index k
                parts.append(self._block(name_tokens, a, k))
        if len(parts) < 2:
            raise self.error("Concat needs at least two blocks", tok.pos, end)
        if any(isinstance(p, _Scalar) for p in parts):
            raise self.error("Concat of a number; the blocks are matrices", tok.pos, end)
        return Concat(tuple(parts), pos=tok.pos)

    def _count(self, last: str, base, tok, end) -> int:
        """How many blocks ``A_1, \\dots, A_h`` stands for: a number written, the heads
        option, or the shapes given."""
        if last.isdigit():
            count = int(last)
        elif self.heads is not None:
            count = self.heads
        else:
            given = [int(m) for name in self.known
                     for m in re.findall(r"_\{?(\d{1,2})\}?", name)]
            if not given or max(given) < 2:
                raise self.error(f"how many blocks is {base.canonical}_1, \\dots, "
                                 f"{base.canonical}_{last}? give the number of heads "
                                 f"(heads=2, or --heads 2)", tok.pos, end)
            count = max(given)
        if not 2 <= count <= MAX_HEADS:
            raise self.error(f"the number of blocks must be 2 to {MAX_HEADS}; got {count}",
                             tok.pos, end)
        self.notes.append(("blocks", {"count": count, "last": last}))
        return count

    def _block(self, nodes: list, parts, k: int):
        family = self.families.get(dataclasses.replace(parts, sub=None, font=None).canonical)
        pos = nodes[0].pos
        if family is not None:
            return self._instance(family, k, pos, nodes[-1].end)
        name = dataclasses.replace(parts, sub=str(k), font=None).canonical
        return self._bound(name, pos) or Name(name, pos=pos)

    def _word(self, cur: Cursor):
        """A function typed as plain letters: ``softmax(...)``, ``relu(...)``, ``f(X)``."""
        head = self._head_word(cur.nodes[cur.i:])
        if head is None:
            return None
        word, k = head
        called = self._subscripted_call(cur, word, k)
        if called is not None:
            return called
        if k < 2 and word.lower() not in self.functions:
            return None
        nxt = cur.peek(k)
        if not self._opens_bracket(nxt):
            if k >= 2 and (NT.lookup_function(word) is not None or word.lower() in
                           self.functions):
                raise self.error(f"{word} needs its argument in brackets, as in {word}(X)",
                                 *_span(cur.peek()))
            return None
        key = word.lower()
        if not (key in self.functions or NT.lookup_function(key) or key == "attention"
                or key in NT.REFUSED_WORDS or key == "max"):
            return None
        tok = cur.peek()
        for _ in range(k):
            cur.take()
        return self._named_call(cur, word, tok)

    def _call(self, cur: Cursor, func: str, tok: Token):
        while isinstance(cur.peek(), Token) and cur.peek().text in V.SIZES:
            cur.take()
        node = cur.peek()
        if node is None or not self._opens_bracket(node):
            if func == "exp" and _is(node, "^"):
                raise self.error("write the exponential of a matrix as \\exp(X)", *_span(tok))
            raise self.error(f"{func} needs its argument in brackets", *_span(tok))
        arg = self.primary(cur)
        if isinstance(arg, _Scalar):
            raise self.error(f"{func} of a number; symrow reads functions of matrices",
                             tok.pos, arg.end)
        if func == "softmax":
            return Softmax(arg, pos=tok.pos)
        return Apply(func, arg, pos=tok.pos)

    # -- names -----------------------------------------------------------------------------
    def _read_parts(self, cur: Cursor):
        first = cur.peek()
        try:
            parts, pos, end = NT.read_name(cur, self.src)
        except NT.NameError_ as err:
            raise self.error(err.message, err.pos, err.end) from None
        if self.index_subs:
            subs = self.index_subs[-1]
            for script in (parts.sub, parts.sup):
                through = script and re.search(r"(?<![A-Za-z\\])([A-Za-z])\s*\(\s*(" +
                                               "|".join(map(re.escape, subs)) + r")\s*\)",
                                               script)
                if through:
                    g, i = through.group(1), through.group(2)
                    raise self.error(
                        f"{parts.canonical}: the index {i} goes through {g}({i}), a map "
                        f"the formula does not give, so which heads share this matrix (as "
                        f"grouped-query attention shares its keys and values) cannot be "
                        f"told; write each group's matrix by its own index (W_1^K for the "
                        f"heads of group 1)", pos=first.pos, end=end)

            def put(script):
                if script is None:
                    return None
                return re.sub(r"(?<![A-Za-z\\])([a-z])(?![A-Za-z])",
                              lambda m: subs.get(m.group(1), m.group(1)), script)
            new = dataclasses.replace(parts, sub=put(parts.sub), sup=put(parts.sup))
            if new != parts:
                self.tied.setdefault(parts.canonical, set()).add(new.canonical)
            parts = new
        return parts, first.pos, end

    def _bound(self, name: str, pos: int):
        for scope in reversed(self.bindings):
            if name in scope:
                return scope[name]
        return None

    def _name(self, cur: Cursor) -> Expr:
        parts, pos, end = self._read_parts(cur)
        if parts.sup is not None and re.fullmatch(r"[A-Za-z]", parts.sup) and \
                parts.canonical not in self.known and self.known:
            base = dataclasses.replace(parts, sup=None).canonical
            if base in self.known or _loose(base) in self.known_loose:
                k = parts.sup
                raise self.error(f"{parts.canonical} is a power of {base} (a shape is given "
                                 f"for {base}, not for {parts.canonical}), and {k} is not a "
                                 f"number here; write the power as a whole number, as in "
                                 f"{base}^{{2}}", pos, end)
        return self._named(parts, pos, end)

    def _named(self, parts, pos: int, end: int) -> Expr:
        name = parts.canonical
        bound = self._bound(name, pos)
        if bound is not None:
            return bound
        if parts.kind == "word":
            family = self.families.get(dataclasses.replace(parts, sub=None,
                                                           font=None).canonical)
            if family is not None and parts.sub is not None:
                index = int(parts.sub) if parts.sub.isdigit() else parts.sub
                return self._instance(family, index, pos, end)
        if name in ("I", "I_n", "I_N", "I_d", "I_m") and name not in self.known and \
                parts.accent is None:
            return Identity(pos=pos)
        if parts.font:
            self.fonts.setdefault(name, parts.font)
        return Name(name, pos=pos)

    def _lower(self, cur: Cursor):
        """A lowercase letter: a vector when a shape is given for it or it is bound to a
        function's parameter; otherwise a scalar (a size such as n or d_k, or a
        constant)."""
        tok = cur.peek()
        if tok.text in ("f", "g", "h") and _is(cur.peek(1), "("):
            cur.take()
            return self._call(cur, tok.text, tok)
        self._undefined_call(cur, tok)
        parts, pos, end = self._read_parts(cur)
        name = parts.canonical
        bound = self._bound(name, pos)
        if bound is not None:
            return bound
        if parts.head == "e" and parts.sub is None and parts.sup is not None and \
                "e" not in self.known and name not in self.known and \
                re.fullmatch(r"-?[A-Za-z](_[A-Za-z0-9]{1,8})?", parts.sup):
            # e^{t}, e^{-t}: the exponential of a scalar is a scalar
            sign = -1 if parts.sup.startswith("-") else 1
            return _Scalar(sympy.exp(sign * size_symbol(parts.sup.lstrip("-"))), pos, end)
        if name in self.known or _loose(name) in self.known_loose or parts.font or \
                parts.sup is not None:
            # a layer's superscript (b^{[l]}) makes a vector: a scalar would not carry one
            return self._named(parts, pos, end)
        if parts.kind == "greek-lower":
            value = sympy.Symbol(parts.head[1:], positive=True)
            if parts.sub:
                value = sympy.Symbol(f"{parts.head[1:]}_{parts.sub}", positive=True)
            return _Scalar(value, pos, end, name)
        if parts.sub is not None and not _NAME_SUB.match(parts.sub):
            raise self.error("a size's subscript must be letters or digits, as in d_k",
                             pos, end)
        symbol = parts.head + (f"_{parts.sub}" if parts.sub else "")
        return _Scalar(size_symbol(symbol), pos, end, name)

    def _undefined_call(self, cur: Cursor, tok: Token) -> None:
        """``s(Z)`` with no space, where the text neither defines s nor gives it a shape:
        a function the formula leaves undefined (gMLP's spatial gating unit), not the
        scalar s times Z.  Reading it as a product would be a guess; it is refused."""
        nxt = cur.peek(1)
        if not (tok.kind == "letter" and len(tok.text) == 1 and _is(nxt, "(")
                and nxt.pos == tok.end):
            return
        name = tok.text
        if name in self.known or _loose(name) in self.known_loose or \
                self._bound(name, tok.pos) is not None:
            return
        raise self.error(f"{name}(...) applies {name}, which this formula does not define "
                         f"and is no function symrow knows; define it, as {name}(X) = ..., "
                         f"or, for the number {name} times a bracket, write {name} \\cdot (...)",
                         tok.pos, nxt.end)

    def _matrix_env(self, env: Env):
        if env.name not in MATRIX_ENVS:
            raise self.error(f"the {env.name} environment is not part of a formula",
                             env.pos, env.end)
        rows: list[list] = [[]]
        for node in env.children:
            if isinstance(node, Token) and node.kind == "rowsep":
                rows.append([])
            elif not _is(node, "\\hline"):
                rows[-1].append(node)
        rows = [r for r in rows if _strip_spacing(r)]
        if len(rows) != 1:
            raise self.unsupported("a block matrix with more than one row of blocks",
                                   env.pos, env.end)
        cells: list[list] = [[]]
        for node in rows[0]:
            if _is(node, "&"):
                cells.append([])
            else:
                cells[-1].append(node)
        parts = []
        for cell in cells:
            if not _strip_spacing(cell):
                raise self.error("an empty block in a bmatrix", env.pos, env.end)
            parts.append(self.expression(cell))
        if len(parts) == 1:
            return parts[0]
        return Concat(tuple(parts), pos=env.pos)


def _loose(name: str) -> str:
    """A name without its font and braces, to match shapes keyed loosely."""
    try:
        return NT.parse_name(name).canonical
    except (NT.NameError_, ParseError):
        return name


def _unsized(nodes: list) -> list:
    """Sizing commands are typography: ``\\big(`` is ``(``, ``\\Bigl[`` is ``[``; and a
    ``\\left.`` (an invisible bracket) goes with the ``\\right`` that closes it."""
    out: list = []
    lefts: list[bool] = []          # for each open \left: was it \left. (dropped)?
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, Group):
            out.append(Group(node.open, _unsized(node.children), node.close))
        elif isinstance(node, Env):
            out.append(Env(node.name, node.begin, _unsized(node.children), node.end_token,
                           node.end, node.args))
        elif node.text in V.SIZES:
            pass
        elif node.text == "\\left":
            invisible = _is(nodes[k + 1] if k + 1 < len(nodes) else None, ".")
            lefts.append(invisible)
            if invisible:
                k += 2
                continue
            out.append(node)
        elif node.text == "\\right" and lefts:
            if lefts.pop():
                k += 2              # \left. ... \right): neither side is a bracket
                continue
            out.append(node)
        else:
            out.append(node)
        k += 1
    return out


def read_latex(text: str, *, shapes=None, heads: int | None = None) -> Formula:
    """Read a formula (or several definitions, functions and families) written in LaTeX.

    ``shapes`` are the names given a shape (a lowercase name with a shape is a
    vector or a matrix, not a scalar; a family's blocks are counted from
    them); ``heads`` is how many blocks ``head_1, \\dots, head_h`` stands for."""
    if not isinstance(text, str):
        raise OptionError(f"a formula must be a string of LaTeX; got {type(text).__name__}")
    if len(text) > MAX_FORMULA:
        raise ParseError(f"the formula has {len(text)} characters, more than symrow reads "
                         f"({MAX_FORMULA})")
    try:
        text = expand_macros(text)
    except ValueError as err:
        raise ParseError(str(err)) from None
    src = Source(text)
    tree = _unsized(plain(build_tree(tokenize(text), src)))
    known = {_loose(k) for k in (shapes or ())}
    formula = _Reader(src, known=known, heads=heads).definitions(tree)
    return dataclasses.replace(formula, source=text)


# -- SymPy input -------------------------------------------------------------------------------

class Softmax_(sympy.MatrixExpr):
    """``symrow.softmax(X)``: the row-wise softmax of a SymPy matrix expression."""

    def __new__(cls, arg):
        arg = sympy.sympify(arg)
        if not getattr(arg, "is_Matrix", False):
            raise OptionError(f"softmax needs a matrix expression; got {arg!r}")
        return sympy.Basic.__new__(cls, arg)

    @property
    def arg(self):
        return self.args[0]

    @property
    def shape(self):
        return self.args[0].shape

    def _latex(self, printer):
        return r"\operatorname{softmax}\left(%s\right)" % printer._print(self.arg)

    def _sympystr(self, printer):
        return "softmax(%s)" % printer._print(self.arg)


class Elementwise_(sympy.MatrixExpr):
    """``symrow.apply("relu", X)``: a function applied to every entry."""

    def __new__(cls, func, arg):
        arg = sympy.sympify(arg)
        if not getattr(arg, "is_Matrix", False):
            raise OptionError(f"{func} needs a matrix expression; got {arg!r}")
        return sympy.Basic.__new__(cls, sympy.Symbol(str(func)), arg)

    @property
    def func_name(self) -> str:
        return self.args[0].name

    @property
    def arg(self):
        return self.args[1]

    @property
    def shape(self):
        return self.args[1].shape

    def _sympystr(self, printer):
        return "%s(%s)" % (self.func_name, printer._print(self.arg))


def softmax(matrix):
    """The row-wise softmax of a SymPy matrix expression, for :func:`symrow.explain`.

    >>> import sympy, symrow
    >>> Q, K, V = (sympy.MatrixSymbol(n, 2, 2) for n in "QKV")
    >>> symrow.softmax(Q * K.T) * V
    softmax(Q*K.T)*V
    """
    return Softmax_(matrix)


def apply(func: str, matrix):
    """An element-wise function (``"exp"``, ``"relu"``, ``"sigma"``, ``"tanh"`` or a name
    of your own, such as ``"phi"``) applied to a SymPy matrix expression."""
    if not isinstance(func, str) or not re.fullmatch(r"[A-Za-z]{1,12}", func):
        raise OptionError(f"a function's name must be a word such as 'relu'; got {func!r}")
    return Elementwise_(func.lower() if func.lower() in FUNCTIONS else func, matrix)


def from_sympy(expr) -> tuple[Formula, dict]:
    """A SymPy matrix expression over MatrixSymbols -> (formula, shapes of its symbols)."""
    shapes: dict = {}

    def conv(e) -> Expr:
        if isinstance(e, sympy.MatrixSymbol):
            name = str(e.name)
            shape = tuple(int(x) if getattr(x, "is_Integer", False) else x for x in e.shape)
            if name in shapes and shapes[name] != shape:
                raise OptionError(f"{name} is used with two shapes, {shapes[name]} and {shape}")
            shapes[name] = shape
            return Name(name)
        if isinstance(e, sympy.Transpose):
            inner = conv(e.arg)
            return inner.arg if isinstance(inner, Transpose) else Transpose(inner)
        if isinstance(e, sympy.MatMul):
            coeff, mats = e.as_coeff_matrices()
            if not mats:
                raise OptionError(f"{e} is not a matrix expression")
            out = conv(mats[0])
            for m in mats[1:]:
                out = Product(out, conv(m))
            if coeff != 1:
                num, den = sympy.fraction(coeff)
                out = Scaled(out, num, den)
            return out
        if isinstance(e, sympy.MatAdd):
            terms, signs = [], []
            for arg in e.args:
                coeff, rest = (arg.as_coeff_mmul() if isinstance(arg, sympy.MatMul)
                               else (1, arg))
                if isinstance(arg, sympy.MatMul) and coeff == -1:
                    terms.append(conv(sympy.MatMul(*arg.args[1:])))
                    signs.append(-1)
                else:
                    terms.append(conv(arg))
                    signs.append(1)
            return Sum(tuple(terms), tuple(signs))
        if isinstance(e, Softmax_):
            return Softmax(conv(e.arg))
        if isinstance(e, Elementwise_):
            return Apply(e.func_name, conv(e.arg))
        if isinstance(e, sympy.MatPow):
            raise NotSupportedError(f"a power of a matrix ({e}) is not supported yet")
        if isinstance(e, sympy.Inverse):
            raise NotSupportedError(f"the inverse of a matrix ({e}) is not supported yet")
        if isinstance(e, sympy.HadamardProduct):
            raise NotSupportedError("the Hadamard (element-wise) product is not supported yet")
        if isinstance(e, sympy.KroneckerProduct):
            raise NotSupportedError("the Kronecker product is not supported yet")
        raise OptionError(f"cannot read {type(e).__name__} ({e}); symrow reads products, "
                          f"sums, transposes and scalings of MatrixSymbols, with "
                          f"symrow.softmax() and symrow.apply()")

    if not isinstance(expr, sympy.MatrixExpr):
        raise OptionError(f"a formula must be LaTeX text or a SymPy matrix expression over "
                          f"MatrixSymbols; got {type(expr).__name__}")
    return Formula((("", conv(expr)),), None), shapes


def _names_in(expr: Expr) -> set:
    return {e.name for e in walk(expr) if isinstance(e, Name)}


def read_formula(formula, **options) -> Formula:
    """Read LaTeX text (see the module documentation) into a :class:`Formula`."""
    return read_latex(formula, **options)
