r"""Indices written as superscripts, ``S^{ij} = Q^{ia} K^{ja}``: when a page reads so.

Physics and tensor-style pages write the indices of an entry up, not down
(``S^{ij}`` for the entry (i, j) of S, ``x^j`` for entry j of x, and mixed
Kronecker deltas ``\delta^j_m``).  A superscript is also where a power goes, so
a page is read this way only when it cannot be a power anywhere:

* the page writes a capital (a matrix's name) with a superscript of two or more
  index letters (``Q^{ia}``, ``V^{mn}``), and
* it writes no power at all: no number or expression in a superscript of a name
  or bracket (``x^2``, ``(Q K)^{-1}``).  ``e^{...}``, ``\mathbb{R}^{m \times n}``,
  the bounds of a sum and transposes (``A^T``) are not powers.

When the page also writes powers, a superscript of letters could be either: it
is left unread (the name is unknown), never guessed.  :func:`page_scripts`
makes that decision from the members of the page's claims; the translator
then reads a superscript of index letters as the subscript of an entry.

It also tells which of the derivation's size letters the page uses only as
indices (``V^{mn}`` with m and n never a size on the page), so that those are
free to be indices there.

>>> from symrow.reader.lexer import Source, build_tree, tokenize
>>> def decide(*texts):
...     return page_scripts([build_tree(tokenize(t), Source(t)) for t in texts])
>>> got = decide(r"S^{ij} = Q^{ia} K^{ja}", r"\frac{\partial O^{ib}}{\partial V^{mn}} = A^{im}\delta^b_n")
>>> got.upper, sorted(got.index_letters)
(True, ['a', 'b', 'i', 'j', 'm', 'n'])
>>> decide(r"S^{ij} = Q^{ia} K^{ja}", r"y = x^2").upper
False
>>> decide(r"S = Q K^T / \sqrt{d}").upper
False
"""

from __future__ import annotations

import dataclasses
import re

from .. import vocab as V
from ..lexer import Env, Group, Token

__all__ = ["PageScripts", "page_scripts", "index_letters_of", "NO_SCRIPTS", "as_subscript",
           "summation_stated"]

#: commands whose superscript is a bound or a space, never a power
_NOT_POWER_BASES = {"\\sum", "\\prod", "\\int", "\\oint", "\\bigcup", "\\bigcap", "\\max",
                    "\\min", "\\lim", "\\sup", "\\inf", "\\mathbb", "\\exp"}
#: commands that take their argument as text (softmax in \text{softmax}: no index letters)
_TEXT_FONTS = {"\\text", "\\mathrm", "\\operatorname", "\\textrm", "\\textit", "\\mathit",
               "\\textnormal", "\\mbox"}


@dataclasses.dataclass(frozen=True)
class PageScripts:
    """How a page uses superscripts: ``upper`` when it writes indices up (and no
    powers); ``index_letters`` the letters it writes in index positions,
    ``standalone`` those it writes elsewhere (as a size, a factor, a bound);
    ``power`` the source position of the first power it writes, if any."""

    upper: bool = False
    index_letters: frozenset = frozenset()
    standalone: frozenset = frozenset()
    power: int | None = None
    first_upper: int | None = None

    def only_indices(self, sizes) -> set:
        """The size letters the page writes only as indices (m of ``V^{mn}``)."""
        return {s for s in sizes if s in self.index_letters and s not in self.standalone}


NO_SCRIPTS = PageScripts()


def index_letters_of(nodes: list) -> tuple | None:
    """The index letters of a script (``{ij}`` -> ('i', 'j'), ``{ij'}`` -> ('i', "j'"),
    ``j`` -> ('j',)), or None when it is anything else (a number, T, a capital, an
    expression)."""
    nodes = [n for n in nodes if not (isinstance(n, Token) and n.text in V.SPACING)]
    if not nodes:
        return None
    out: list = []
    for node in nodes:
        if isinstance(node, Token) and node.kind == "letter" and node.text.islower() and \
                node.text.isascii():
            out.append(node.text)
        elif isinstance(node, Token) and node.text == "'" and out:
            out[-1] += "'"
        elif isinstance(node, Token) and node.text == "," and out:
            continue
        else:
            return None
    return tuple(out)


def _script(node) -> list:
    return list(node.children) if isinstance(node, Group) else [node]


def _kind(nodes: list) -> str:
    """What a superscript is: "index", "neutral" (a transpose, a tag, a word) or
    "power" (a number or an expression)."""
    if index_letters_of(nodes) is not None:
        return "index"
    flat = [n for n in nodes if not (isinstance(n, Token) and n.text in V.SPACING)]
    text = "".join(n.text if isinstance(n, Token) else "{}" for n in flat)
    if text in V.TRANSPOSE_WORDS or text in ("*", "\\ast", "\\dagger", "H", "'", "\\prime"):
        return "neutral"
    if flat and isinstance(flat[0], Token) and flat[0].text in V.FONT:
        return "neutral"                    # ^{\mathsf{T}}, ^{\text{new}}
    if flat and isinstance(flat[0], Token) and flat[0].text in ("(", "["):
        return "neutral"                    # a layer's tag: W^{(l)}
    if all(isinstance(n, Token) and n.kind == "letter" for n in flat) and \
            any(n.text.isupper() for n in flat):
        return "neutral"                    # a role: W^Q, W^{QK}
    return "power"


def page_scripts(members: list, known=None) -> PageScripts:
    """Decide how the page uses superscripts from the node lists of its claims' members
    (see the module doc).  ``known(head, sup)`` tells a name the derivation has with that
    superscript as its tag (``W^{xh}``, a weight of a GRU): no evidence of indices up."""
    state = {"upper": None, "power": None, "index": set(), "alone": set(),
             "known": known or (lambda head, sup: False)}
    for nodes in members:
        _walk(list(nodes), state)
    upper = state["upper"] is not None and state["power"] is None
    return PageScripts(upper, frozenset(state["index"]), frozenset(state["alone"]),
                       state["power"], state["upper"])


def _walk(nodes: list, state: dict) -> None:
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, Env):
            _walk(list(node.children), state)
            k += 1
            continue
        if isinstance(node, Group):
            _walk(list(node.children), state)
            k += 1
            continue
        if isinstance(node, Token) and node.text in _TEXT_FONTS and k + 1 < len(nodes) and \
                isinstance(nodes[k + 1], Group):
            k += 2                          # \text{softmax}: a word, not letters
            continue
        if isinstance(node, Token) and node.text in _NOT_POWER_BASES:
            # \sum_{j=1}^{n}, \mathbb{R}^{m \times n}: bounds and spaces, whose letters
            # stand for sizes, not indices
            k += 1
            if node.text == "\\mathbb" and k < len(nodes) and isinstance(nodes[k], Group):
                k += 1
            while k < len(nodes) and isinstance(nodes[k], Token) and \
                    nodes[k].text in ("\\limits", "\\nolimits"):
                k += 1
            while k + 1 < len(nodes) and isinstance(nodes[k], Token) and \
                    nodes[k].text in ("^", "_"):
                _walk(_script(nodes[k + 1]), state)
                k += 2
            continue
        if isinstance(node, Token) and node.text in ("^", "_") and k + 1 < len(nodes):
            script = _script(nodes[k + 1])
            base = nodes[k - 1] if k else None
            _script_use(node.text, base, script, state)
            k += 2
            continue
        if isinstance(node, Token) and node.kind == "letter":
            state["alone"].add(node.text)
        k += 1


def _script_use(mark: str, base, script: list, state: dict) -> None:
    letters = index_letters_of(script)
    if letters is None:
        if mark == "^" and not (isinstance(base, Token) and base.text == "e") and \
                _kind(script) == "power" and state["power"] is None:
            state["power"] = script[0].pos if script and hasattr(script[0], "pos") else 0
        _walk(script, state)
        return
    state["index"].update(letter.rstrip("'") for letter in letters)
    head = base.text if isinstance(base, Token) else None
    if isinstance(base, Group):
        inner = [n for n in base.children if isinstance(n, Token) and n.kind == "letter"]
        head = inner[0].text if len(inner) == 1 and len(base.children) == 1 else None
    if mark == "^" and len(letters) >= 2 and state["upper"] is None and head is not None \
            and head.isupper() and len(head) == 1 and \
            not state["known"](head, "".join(letters)):
        state["upper"] = base.pos


_LETTERS = re.compile(r"(?:[a-z]'*)+")


def as_subscript(parts, scripts: PageScripts):
    """A name's parts with a superscript of index letters read as its subscript, on a
    page that writes its indices up (``S^{ij}`` -> ``S_{ij}``); the parts unchanged
    otherwise."""
    if not scripts.upper or parts.sub is not None or parts.sup is None:
        return parts
    sup = parts.sup.replace(",", "").replace(" ", "")
    if not _LETTERS.fullmatch(sup):
        return parts
    return dataclasses.replace(parts, sub=parts.sup, sup=None)


_STATED = re.compile(
    r"(?:Einstein(?:'s)?\s+(?:summation|notation|convention)|summation\s+convention|"
    r"repeated\s+ind(?:ex|ices)\s+(?:is|are)\s+(?:implicitly\s+)?summed|"
    r"sum(?:med|mation)?\s+over\s+(?:the\s+)?(?:repeated|intermediate|dummy)\s+ind(?:ex|ices)|"
    r"(?:it'?s|is|are)\s+(?:an?\s+)?\[?dummy\s+ind(?:ex|ices))",
    re.IGNORECASE)


def summation_stated(text: str) -> str | None:
    """The words in which a page states the summation convention ("Note the sum over the
    intermediate index", "Einstein summation", "repeated indices are summed"), or
    None."""
    found = _STATED.search(text)
    return " ".join(found.group(0).replace("[", "").split()) if found else None
