r"""The one table of notation: names, fonts, functions and operators, as papers print them.

Both readers of LaTeX use it: the formula reader (:mod:`symrow.formula.read`,
for ``explain`` and the presets) and the entry-level translator
(:mod:`symrow.reader.entries.names`).  A name is read once, here, into its parts:

* a **head**: a Latin letter (``W``, ``x``), a Greek letter (``\Sigma``,
  ``\beta``) or a word in an upright font (``\mathrm{head}``);
* a **font** (``\mathbf``, ``\boldsymbol``, ``\bm``, ...), kept for display;
* an **accent** (``\hat``, ``\tilde``, ``\bar``, ...);
* a **subscript** and a **superscript**: indices, roles and layers as papers
  write them: ``W_Q``, ``W_{out}``, ``W_i^Q``, ``W^{(l)}``, ``W^{[l]}``,
  ``H^{(l+1)}``, ``\mathbf{H}_{t-1}``, ``b_h``.

A superscript that is a transpose (``^T``, ``^\top``, ...) or a power
(``^2``, ``^{-1/2}``) is not part of a name; the reader that called
:func:`read_name` deals with it.

>>> parse_name(r"W_i^Q").canonical
'W_i^Q'
>>> parse_name(r"W^{Q}_{i}").canonical
'W_i^Q'
>>> [parse_name(t).canonical for t in (r"W^{(l)}", r"\mathbf{H}_{t-1}", r"\tilde{D}", r"W_{out}")]
['W^(l)', 'H_{t-1}', '\\tilde{D}', 'W_{out}']
>>> parse_name("W_out").canonical
'W_{out}'
>>> p = parse_name(r"\mathbf{\Sigma}")
>>> p.canonical, p.letter, p.font
('\\Sigma', '\\sigma', '\\mathbf')
>>> lookup_function("softmx") is None, did_you_mean("softmx")
(True, 'softmax')
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from typing import Callable

from . import vocab as V
from .lexer import Cursor, Group, Source, Token, build_tree, tokenize

__all__ = ["NameParts", "read_name", "parse_name", "is_name_start", "GREEK_CAPITALS",
           "GREEK_LOWER", "Function", "FUNCTIONS", "lookup_function", "did_you_mean",
           "REFUSED_WORDS", "OPERATORS", "NameError_", "register_function", "unregister_function",
           "UPRIGHT", "function_display"]

#: Greek capitals that name matrices, and the lowercase letter of their rows and entries
GREEK_CAPITALS = {"\\Gamma": "\\gamma", "\\Delta": "\\delta", "\\Theta": "\\theta",
                  "\\Lambda": "\\lambda", "\\Xi": "\\xi", "\\Pi": "\\pi",
                  "\\Sigma": "\\sigma", "\\Upsilon": "\\upsilon", "\\Phi": "\\phi",
                  "\\Psi": "\\psi", "\\Omega": "\\omega"}
#: Greek lowercase letters (a vector when bold or given a shape; else a scalar)
GREEK_LOWER = {"\\alpha", "\\beta", "\\gamma", "\\delta", "\\epsilon", "\\varepsilon",
               "\\zeta", "\\eta", "\\theta", "\\vartheta", "\\iota", "\\kappa", "\\lambda",
               "\\mu", "\\nu", "\\xi", "\\pi", "\\rho", "\\sigma", "\\tau", "\\upsilon",
               "\\phi", "\\varphi", "\\chi", "\\psi", "\\omega"}
#: upright fonts: ``\mathrm{W}`` is a name, ``\mathrm{softmax}`` a function
UPRIGHT = {"\\mathrm", "\\mathit", "\\mathsf", "\\text", "\\textrm", "\\operatorname",
           "\\mathop", "\\textit", "\\textsf", "\\mathnormal", "\\rm", "\\it"}
_WORD_HEAD = re.compile(r"^[A-Za-z]{2,12}$")
_PLAIN = re.compile(r"^[A-Za-z0-9]+$")


class NameError_(ValueError):
    """Text that is not a name; ``pos`` and ``end`` point at it."""

    def __init__(self, message: str, pos: int, end: int):
        super().__init__(message)
        self.message, self.pos, self.end = message, pos, end


@dataclasses.dataclass(frozen=True)
class NameParts:
    """A name read into its parts (see the module documentation)."""

    head: str
    font: str | None = None
    accent: str | None = None
    sub: str | None = None
    sup: str | None = None
    #: the gradient ∂L/∂X of the name: "bar" (written X̄) or "partial" (written ∂L/∂X)
    grad: str | None = None

    # -- what it is ---------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``capital``, ``lower``, ``greek`` (a capital), ``greek-lower`` or ``word``."""
        if self.head in GREEK_CAPITALS:
            return "greek"
        if self.head in GREEK_LOWER:
            return "greek-lower"
        if self.head.startswith("\\"):
            return "word"
        return "capital" if self.head.isupper() else "lower"

    @property
    def lowercase(self) -> bool:
        return self.kind in ("lower", "greek-lower")

    @property
    def letter(self) -> str | None:
        """The letter of its rows and entries: ``w`` for ``W``, ``\\sigma`` for ``\\Sigma``,
        the head itself for a lowercase name, None for a word."""
        kind = self.kind
        if kind == "capital":
            return self.head.lower()
        if kind == "greek":
            return GREEK_CAPITALS[self.head]
        if kind == "word":
            return None
        return self.head

    @property
    def tag(self) -> str:
        """The superscript its rows and entries carry: the subscript and the superscript
        of the name (``Q`` for ``W_Q``, ``(l)`` for ``W^{(l)}``, ``Q,i`` for ``W_i^Q``)."""
        sub, sup = self.sub or "", self.sup or ""
        if sub and sup and not sup.startswith("("):
            return f"{sup},{sub}"
        return sub + sup

    # -- how it is written ---------------------------------------------------------
    @staticmethod
    def _script(text: str) -> str:
        if (len(text) == 1 and _PLAIN.match(text)) or (
                len(text) > 2 and text[0] + text[-1] in ("()", "[]") and "{" not in text):
            return text
        return "{%s}" % text

    def _core(self, with_font: bool, grad: bool = True) -> str:
        head = self.head
        if self.kind == "word":
            head = "\\mathrm{%s}" % head[1:]
        if with_font and self.font and self.kind != "word":
            head = "%s{%s}" % (self.font, head)
        if self.accent:
            head = wrap_accent(self.accent, head)
        if grad and self.grad:   # the gradient: a bar over the name's head (X̄, \bar{\hat{A}})
            head = "\\bar{%s}" % head
        return head

    @property
    def canonical(self) -> str:
        """The name as symrow keys it: the head, ``_sub`` and ``^sup``, without the font
        (``\\mathbf{X}`` and ``X`` are one matrix)."""
        out = self._core(False)
        if self.sub:
            out += "_" + self._script(self.sub)
        if self.sup:
            out += "^" + self._script(self.sup)
        return out

    @property
    def latex(self) -> str:
        """The name as LaTeX, font included: ``\\mathbf{H}_{t-1}``, ``W_{i}^{Q}``; a
        gradient is ``\\bar{X}`` or ``\\frac{\\partial L}{\\partial X}``."""
        out = self._core(True, grad=self.grad == "bar")
        if self.sub:
            out += "_{%s}" % self.sub
        if self.sup:
            out += "^{%s}" % self.sup
        if self.grad == "partial":
            return r"\frac{\partial L}{\partial %s}" % out
        return out

    def gradient(self, notation: str = "bar") -> "NameParts":
        """The name of this one's gradient ∂L/∂X (``notation``: "bar" or "partial")."""
        return dataclasses.replace(self, grad=notation)

    def with_font(self, font: str | None) -> "NameParts":
        return dataclasses.replace(self, font=font)


def wrap_accent(accent: str, inner: str) -> str:
    """``inner`` under its accents (``"hat tilde"``, the outer first): ``\\hat{\\tilde{A}}``."""
    for name in reversed(accent.split()):
        inner = "\\%s{%s}" % (name, inner)
    return inner


def accent_text(accent: str, marks: dict) -> str:
    """The combining marks of ``accent`` as text, the inner one first."""
    return "".join(marks.get(name, "") for name in reversed(accent.split()))


def is_name_start(node) -> bool:
    """Whether a name can start at this node (a letter, a Greek letter, a font or accent)."""
    if not isinstance(node, Token):
        return False
    return (node.kind == "letter" or node.text in GREEK_CAPITALS or node.text in GREEK_LOWER
            or node.text in V.BOLD or node.text in V.ACCENTS or node.text in UPRIGHT)


def _inner(node) -> list:
    if node is None:
        return []
    nodes = node.children if isinstance(node, Group) else [node]
    return [n for n in nodes if not (isinstance(n, Token) and n.text in V.SPACING)]


def _text(nodes: list, src: Source | None) -> str:
    if not nodes:
        return ""
    if src is not None:
        text = src.text[nodes[0].pos:nodes[-1].end]
    else:  # pragma: no cover - every caller has a source
        text = "".join(getattr(n, "text", "") for n in nodes)
    return " ".join(text.split())


def _script_text(node, src: Source, what: str, pos: int) -> str:
    """The canonical text of a sub- or superscript: braces and upright fonts dropped."""
    nodes = _inner(node)
    if not nodes:
        raise NameError_(f"an empty {what}", pos, getattr(node, "end", pos + 1))
    # _{\mathrm{out}}, ^{\text{Q}}: the font is typography
    if len(nodes) == 2 and isinstance(nodes[0], Token) and nodes[0].text in UPRIGHT:
        nodes = _inner(nodes[1])
    text = _text(nodes, src)
    if len(text) > 24:      # \mathcal{N}(v)(k): GraphSAGE's tag, written up on its rows
        raise NameError_(f"this {what} is too long for a name's", nodes[0].pos, nodes[-1].end)
    # an index may have its own subscript (p_{1k_1}); nothing else nests in a name
    nested = what == "subscript" and "_" in text and not (
        text.startswith("_") or text.endswith("_") or "__" in text)
    if any(ch in text for ch in ("=&$%#^" if nested else "=&$%#_^")):
        raise NameError_(f"cannot read this {what}", nodes[0].pos, nodes[-1].end)
    return re.sub(r"\s*([-+,])\s*", r"\1", text)


def _head(cur: Cursor, src: Source) -> tuple:
    """(head, font, accent, inner subscript, end, grad): ``\\tilde{\\mathbf{A}}``,
    ``\\Sigma``; a bar over an accented name is its gradient, ``\\bar{\\hat{A}}``."""
    tok = cur.take()
    if tok.kind == "letter":
        return tok.text, None, None, None, tok.end, None
    if tok.text in GREEK_CAPITALS or tok.text in GREEK_LOWER:
        return tok.text, None, None, None, tok.end, None
    if tok.text in V.BOLD or tok.text in V.ACCENTS or tok.text in UPRIGHT:
        arg = cur.take()
        if arg is None:
            raise NameError_(f"{tok.text} needs a letter after it", tok.pos, tok.end)
        nodes = _inner(arg)
        inner_sub = None
        # \mathbf{W_Q}: a subscript inside the font
        if len(nodes) == 3 and isinstance(nodes[1], Token) and nodes[1].text == "_":
            inner_sub = _script_text(nodes[2], src, "subscript", nodes[1].pos)
            nodes = nodes[:1]
        if tok.text in UPRIGHT and nodes and all(
                isinstance(n, Token) and n.kind == "letter" for n in nodes) and len(nodes) > 1:
            word = "".join(n.text for n in nodes)
            if not _WORD_HEAD.match(word):
                raise NameError_(f"cannot read {word!r} as a name", tok.pos, arg.end)
            return "\\" + word, None, None, inner_sub, arg.end, None
        sub_cur = Cursor(nodes, arg.pos, arg.end)
        if not nodes or not is_name_start(nodes[0]):
            raise NameError_(f"{tok.text}{{...}} must hold a letter, as in {tok.text}{{A}}",
                             tok.pos, arg.end)
        head, font, accent, sub2, _, grad = _head(sub_cur, src)
        rest = [sub_cur.peek(k) for k in range(3)]
        if inner_sub is None and sub2 is None and isinstance(rest[0], Token) and \
                rest[0].text == "_" and \
                rest[1] is not None and rest[2] is None:
            # \bar{\text{head}_{i}}: the subscript of a word under an accent
            sub_cur.take()
            sub2 = _script_text(sub_cur.take(), src, "subscript", rest[0].pos)
        if grad is not None:
            raise NameError_("a gradient's bar goes outside every other accent",
                             tok.pos, arg.end)
        if not sub_cur.at_end():
            raise NameError_(f"cannot read the name in {tok.text}{{...}}", tok.pos, arg.end)
        if tok.text in V.ACCENTS:
            if accent is not None:
                if V.ACCENTS[tok.text] != "bar":
                    # \hat{\tilde{A}}: two accents, the outer one first
                    return (head, font, f"{V.ACCENTS[tok.text]} {accent}",
                            inner_sub or sub2, arg.end, None)
                return head, font, accent, inner_sub or sub2, arg.end, "bar"
            accent = V.ACCENTS[tok.text]
        elif tok.text in V.BOLD:
            font = "\\boldsymbol" if tok.text in ("\\boldsymbol", "\\bm", "\\pmb") else \
                "\\mathbf" if tok.text != "\\vec" else "\\vec"
        elif font is None:
            font = tok.text if tok.text in ("\\mathrm", "\\mathsf") else None
        return head, font, accent, inner_sub or sub2, arg.end, None
    raise NameError_(f"cannot read {tok.text!r} as a name", tok.pos, tok.end)


def _is_transpose_or_power(node, src: Source) -> bool:
    """A superscript that is not part of a name: a transpose, a power, an inverse."""
    nodes = _inner(node)
    if not nodes:
        return True
    flat = _text(nodes, src).replace(" ", "")
    if flat in ("\\prime", "{\\prime}"):
        return False      # H^{\prime}, written H': a new value's name, not a transpose
    if flat.replace("{", "").replace("}", "") in V.TRANSPOSE_WORDS or flat in ("T", "\\top"):
        return True
    if flat in ("\\mathsf", "\\mathrm", "\\text", "\\textsf"):
        return True       # ^\mathsf T: a transpose in a font, its letter after the script

    if flat.startswith(("-", "+", "\\frac", "\\dagger", "*", "\\ast", "\\prime")):
        return True
    if flat[:1].isdigit():
        return True
    return False


def read_name(cur: Cursor, src: Source) -> tuple[NameParts, int, int]:
    """Read a name at the cursor: its parts, and where it starts and ends in the source.

    Stops before a superscript that is a transpose or a power (``W^T``,
    ``D^{-1/2}``), and before a prime; raises :class:`NameError_` for what
    cannot be a name."""
    start = cur.peek().pos
    head, font, accent, sub, end, grad = _head(cur, src)
    sup = None
    for _ in range(4):
        node = cur.peek()
        if not isinstance(node, Token) or node.text not in ("_", "^"):
            break
        arg = cur.peek(1)
        if arg is None:
            raise NameError_(f"'{node.text}' needs something after it", node.pos, node.end)
        if isinstance(arg, Token) and arg.text in ("(", "["):
            # the plain-text spelling of a layer or head index: Q^(2), W^[l]
            close = {"(": ")", "[": "]"}[arg.text]
            k = 2
            while cur.peek(k) is not None and not (isinstance(cur.peek(k), Token)
                                                   and cur.peek(k).text == close):
                k += 1
            if cur.peek(k) is None or k == 2 or k > 8:
                break
            last = cur.peek(k)
            text = arg.text + _text([cur.peek(j) for j in range(2, k)], src) + close
            for _ in range(k + 1):
                cur.take()
            if node.text == "_":
                if sub is not None:
                    raise NameError_("two subscripts on one name", node.pos, last.end)
                sub = text
            else:
                if sup is not None:
                    raise NameError_("two superscripts on one name", node.pos, last.end)
                sup = text
            end = last.end
            continue
        if isinstance(arg, Token) and arg.kind == "num" and len(arg.text) > 1:
            raise NameError_(f"write {node.text}{{{arg.text}}} with braces: without them "
                             f"LaTeX takes only the first digit, {node.text}{arg.text[0]}",
                             node.pos, arg.end)
        if isinstance(arg, Token) and arg.text in UPRIGHT and isinstance(cur.peek(2), Group):
            # _\text{SGC}, ^\mathrm{new}: the font's argument is the script
            font_arg = cur.peek(2)
            cur.nodes[cur.i + 1:cur.i + 3] = [Group(font_arg.open, [arg, font_arg],
                                                    font_arg.close)]
            continue
        if node.text == "_":
            if sub is not None:
                raise NameError_("two subscripts on one name", node.pos, arg.end)
            cur.take()
            cur.take()
            sub = _script_text(arg, src, "subscript", node.pos)
        else:
            if sup is not None or _is_transpose_or_power(arg, src):
                nxt = cur.peek(2)
                if sub is None and isinstance(nxt, Token) and nxt.text == "_" and \
                        cur.peek(3) is not None:
                    # W^T_K: the name's subscript after its transpose; the transpose is
                    # read after the name, as in W_K^T
                    i = cur.i
                    cur.nodes[i:i + 4] = cur.nodes[i + 2:i + 4] + cur.nodes[i:i + 2]
                    continue
                break
            cur.take()
            cur.take()
            sup = _script_text(arg, src, "superscript", node.pos)
        end = arg.end
    return NameParts(head, font, accent, sub, sup, grad), start, end


def parse_name(text: str) -> NameParts:
    """Read a whole string as one name (``"W_i^Q"``, ``"\\\\mathbf{H}_{t-1}"``)."""
    src = Source(text)
    tree = build_tree(tokenize(text), src)
    if not tree or not is_name_start(tree[0]):
        raise NameError_(f"{text!r} does not start with a letter", 0, len(text))
    cur = Cursor(tree, 0, len(text))
    parts, _, end = read_name(cur, src)
    rest = []
    while not cur.at_end() and isinstance(cur.peek(), Token) and cur.peek().kind in (
            "letter", "num") and cur.peek().pos == end:
        end = cur.peek().end
        rest.append(cur.take().text)
    if rest:
        # W_out, as typed in Python: the subscript (or superscript) runs on
        if parts.sup is not None and text.rstrip().endswith(parts.sup + "".join(rest)):
            parts = dataclasses.replace(parts, sup=parts.sup + "".join(rest))
        elif parts.sub is not None:
            parts = dataclasses.replace(parts, sub=parts.sub + "".join(rest))
        else:
            raise NameError_(f"{text!r} is more than one name", 0, len(text))
    if not cur.at_end():
        node = cur.peek()
        raise NameError_(f"{text!r} has more after its name: {src.near(node.pos, node.end)!r}",
                         node.pos, node.end)
    return parts


# -- functions ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Function:
    """A function as papers write it: the key symrow gives it, the reading it makes, and
    its rule of shapes.

    * ``reading``: ``"softmax"``, ``"apply"`` (element-wise), or the name of a
      reading class registered for it (``"layernorm"``, ``"concat"``, ``"diag"``);
    * ``tex`` and ``text``: how its name prints;
    * ``shape``: its rule of shapes, ``shape(sizes, call, shapes) -> (rows, cols)``
      (see :class:`symrow.formula.shapes.Sizes`); None: the shape of its first
      argument.

    The entries are not written here: each reading registers its own, with its
    spellings (:func:`symrow.derive.readings.register`), and so does each function
    applied entry by entry (:mod:`symrow.derive.readings.entrywise`).  The table is
    filled with the built-in ones when it is first read.
    """

    key: str
    reading: str
    tex: str
    text: str
    shape: Callable | None = None


FUNCTIONS: dict[str, Function] = {}
#: the module whose import registers the built-in functions (every reading's own)
BUILTINS = "symrow.derive.readings"
_loaded: list = []


def _builtins() -> dict[str, Function]:
    """The table, with the built-in functions registered (on first use: the readings
    register their functions when they are imported)."""
    if not _loaded:
        _loaded.append(True)
        importlib.import_module(BUILTINS)
    return FUNCTIONS


def register_function(fn: Function, *words: str) -> Function:
    """Add a function under its key and other spellings (lower case)."""
    for word in (fn.key,) + words:
        FUNCTIONS[word.lower()] = fn
    return fn


def unregister_function(key: str) -> None:
    """Remove a function and its other spellings."""
    fn = FUNCTIONS.get(key.lower())
    for word in [w for w, f in FUNCTIONS.items() if f is fn]:
        del FUNCTIONS[word]


def function_display(key: str) -> tuple[str, str]:
    r"""How the function ``key`` prints, as (LaTeX, text): a registered function's own
    spelling, a Greek letter as the letter (a φ of the user's), any other word upright.

    >>> function_display("relu"), function_display("phi"), function_display("f")
    (('\\operatorname{ReLU}', 'ReLU'), ('\\phi', 'φ'), ('\\operatorname{f}', 'f'))
    """
    fn = lookup_function(key)
    if fn is not None:
        return fn.tex, fn.text
    base, sep, written = key.partition(":")
    if sep and lookup_function(base) is not None:     # leakyrelu:0.2, its slope written
        tex, txt = function_display(base)
        return "%s_{%s}" % (tex, written), f"{txt}_{written.lstrip(chr(92))}"
    if "\\" + key in GREEK_LOWER:
        return "\\" + key, _GREEK_TEXT.get(key, key)
    return r"\operatorname{%s}" % key, key


_GREEK_TEXT = {"phi": "φ", "varphi": "φ", "psi": "ψ", "chi": "χ", "xi": "ξ", "eta": "η",
               "rho": "ρ", "kappa": "κ", "omega": "ω", "theta": "θ", "zeta": "ζ", "nu": "ν"}


#: words that name constructs symrow does not read, and what to call them in an error
REFUSED_WORDS = {
    "tr": "the trace", "trace": "the trace", "det": "the determinant", "rank": "the rank",
    "vec": "vec (stacking columns)", "norm": "a norm", "inv": "the inverse",
    "kron": "the Kronecker product", "einsum": "Einstein index notation",
    "argmax": "argmax", "argmin": "argmin",
    "batchnorm": "batch normalisation", "dropout": "dropout", "conv": "a convolution",
}
#: infix operators between matrices, and the reading they make (None: refused, with why)
OPERATORS = {"\\odot": "hadamard", "\\circ": "hadamard",
             "\\otimes": None, "\\oplus": None}


def lookup_function(word: str) -> Function | None:
    """The function a word names (``softmax``, ``ReLU``, ``LayerNorm``), or None."""
    return _builtins().get(word.lower())


def _distance(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions, adjacent swaps)."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, prev2[j - 2] + 1)
            cur.append(value)
        prev2, prev = prev, cur
    return prev[-1]


def did_you_mean(word: str) -> str | None:
    """A known function within two edits of ``word`` (``softmx`` -> ``softmax``), if any."""
    low = word.lower()
    table = _builtins()
    if low in table or len(low) < 4:
        return None
    best = min(((_distance(low, known), known) for known in table if len(known) >= 4),
               default=(99, None))
    return table[best[1]].key if best[0] <= 2 else None
