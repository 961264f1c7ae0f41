"""How wide, tall and deep a display node is when TeX sets it: an estimate.

Line breaking (:func:`symrow.render.layout.display_lines`) needs widths, and
the row spacing of matrices and aligned lines needs heights and depths,
before any renderer runs.  :class:`Measure` follows TeX's rules on the
display nodes themselves: the four styles (display ``D``, text ``T``,
script ``S``, scriptscript ``SS``), the spaces TeX puts between atoms
(thin, medium around binary operators, thick around relations; the last
two dropped in scripts), fractions and their shifts, sub- and superscripts,
``\\left ... \\right`` delimiters in their sizes, square roots, large
operators, and matrices.  Glyph widths are those of Computer Modern, as
KaTeX ships them (KaTeX, MathJax and TeX all set math in these fonts).

Everything is in ems of the math font.  A test compares the estimate with
the boxes TeX itself makes (``\\wd`` in pdflatex's log): it leans a little
wide, never much narrow.

Where TeX and KaTeX set the same thing differently, the difference is a
:class:`Metrics` record: :data:`KATEX` (the pages: KaTeX, MathJax, and
documents, whose displays get room of their own) and :data:`TEX` (Beamer's
11 pt frames, which must not run off the bottom: TeX's taller matrix rows
and its extensible brackets, which reach past what they enclose).  Glyphs
and spaces are the same in both.

This module prints nothing: a :class:`Measure` is made by a printer
(:attr:`symrow.render.latex.SymrowLatexPrinter.measure`), which it asks
for the LaTeX of a leaf.

>>> from symrow.render.measure import leaf_box
>>> round(leaf_box("a_{11}", "T").w, 2)           # TeX: 1.38
1.38
>>> from symrow import nodes as N
>>> from symrow.render.latex import printer
>>> import sympy
>>> box = printer().measure(N.Frac(sympy.Symbol("a"), sympy.Symbol("b")), "D")
>>> round(box.w, 2), round(box.h, 2), round(box.d, 2)
(0.77, 1.11, 0.69)
"""

from __future__ import annotations

import re
from typing import NamedTuple

import sympy
from sympy.printing.precedence import PRECEDENCE, precedence_traditional

from .. import nodes as N

__all__ = ["Box", "Measure", "Metrics", "KATEX", "TEX", "leaf_box", "tall_strut", "split_sign",
           "row", "stacked_rows", "fraction", "delimited", "SCALE", "AXIS", "TALL_ROOM",
           "LINE_ROOM", "REL_WIDTH", "BIN_WIDTH"]

#: the size of each style relative to the text (KaTeX's; TeX's 7 pt and 5 pt
#: fonts are a little wider, which the widths below allow for)
#: ``C`` is the text style of a matrix cell, where symrow sets a fraction in
#: display style (``\\dfrac``)
SCALE = {"D": 1.0, "T": 1.0, "C": 1.0, "S": 0.72, "SS": 0.56}
_SCRIPT = {"D": "S", "T": "S", "C": "S", "S": "SS", "SS": "SS"}
_NUMER = {"D": "T", "T": "S", "C": "T", "S": "SS", "SS": "SS"}
#: the math axis, the fraction rule and TeX's font parameters (ems)
AXIS = 0.25
_RULE = 0.04
_NUM = {"D": 0.677, "T": 0.394}
_DENOM = {"D": 0.686, "T": 0.345}
_SUP, _SUB, _SUB_BOTH = 0.413, 0.15, 0.247
_SCRIPT_SPACE = 0.05
_NULL_DELIM = 0.12
_THIN, _MED, _THICK = 3 / 18, 4 / 18, 5 / 18
#: a matrix: the space between columns (two \arraycolsep)
_COLSEP = 1.0
#: ``{}= `` between the left side and the first item of a line (thick spaces)
REL_WIDTH = 0.778 + 2 * _THICK
#: a binary operator between two terms, with its medium spaces
BIN_WIDTH = 0.778 + 2 * _MED


class Metrics(NamedTuple):
    """What differs between renderers that set the same math in the same fonts.

    * ``strut``: (height, depth) in ems of the strut every row of a matrix
      has: ``0.7`` and ``0.3`` of the distance between baselines, 1.2 ems in
      KaTeX and 13.6 pt in 11 pt TeX;
    * ``extensible``: None, or (base, step) in ems: a bracket taller than the
      largest fixed size is built of pieces, ``base`` tall with no extension
      and ``step`` more with each (Computer Modern's: 3.6 and 0.6 ems), so
      that it reaches past what it encloses;
    * ``dots``: the heights in ems of ``\\vdots`` and ``\\ddots`` (TeX builds
      them of dots over a 6 pt kern: taller than the glyphs KaTeX measures).
    """

    name: str
    strut: tuple
    extensible: tuple | None = None
    dots: tuple = ()


#: KaTeX's and MathJax's pages (and the documents' line breaking)
KATEX = Metrics("katex", (0.84, 0.36))
#: TeX at 11 pt, as in a Beamer deck: baselines 13.6 pt apart
TEX = Metrics("tex", (0.7 * 13.6 / 11.0, 0.3 * 13.6 / 11.0), (3.6, 0.6),
              ((r"\vdots", 1.36), (r"\ddots", 1.36)))

# Computer Modern's glyphs, as KaTeX ships their metrics: each is the character
# followed by its width, height, depth and italic correction (ems)
_ITALIC_DATA = (
    "a0.529,0.431,0,0 b0.429,0.694,0,0 c0.433,0.431,0,0 d0.52,0.694,0,0 e0.466,0.431,0,0 "
    "f0.49,0.694,0.194,0.108 g0.477,0.431,0.194,0.036 h0.576,0.694,0,0 i0.345,0.66,0,0 "
    "j0.412,0.66,0.194,0.057 k0.521,0.694,0,0.031 l0.298,0.694,0,0.02 m0.878,0.431,0,0 "
    "n0.6,0.431,0,0 o0.485,0.431,0,0 p0.503,0.431,0.194,0 q0.446,0.431,0.194,0.036 "
    "r0.451,0.431,0,0.028 s0.469,0.431,0,0 t0.361,0.615,0,0 u0.572,0.431,0,0 "
    "v0.485,0.431,0,0.036 w0.716,0.431,0,0.027 x0.572,0.431,0,0 y0.49,0.431,0.194,0.036 "
    "z0.465,0.431,0,0.044 A0.75,0.683,0,0 B0.759,0.683,0,0.05 C0.715,0.683,0,0.072 "
    "D0.828,0.683,0,0.028 E0.738,0.683,0,0.058 F0.643,0.683,0,0.139 G0.786,0.683,0,0 "
    "H0.831,0.683,0,0.081 I0.44,0.683,0,0.078 J0.555,0.683,0,0.096 K0.849,0.683,0,0.072 "
    "L0.681,0.683,0,0 M0.97,0.683,0,0.109 N0.803,0.683,0,0.109 O0.763,0.683,0,0.028 "
    "P0.642,0.683,0,0.139 Q0.791,0.683,0.194,0 R0.759,0.683,0,0.008 S0.613,0.683,0,0.058 "
    "T0.584,0.683,0,0.139 U0.683,0.683,0,0.109 V0.583,0.683,0,0.222 W0.944,0.683,0,0.139 "
    "X0.828,0.683,0,0.078 Y0.581,0.683,0,0.222 Z0.683,0.683,0,0.072 ")
_BOLD_DATA = (
    "a0.633,0.444,0,0 b0.521,0.694,0,0 c0.513,0.444,0,0 d0.61,0.694,0,0 e0.554,0.444,0,0 "
    "f0.568,0.694,0.194,0.11 g0.545,0.444,0.194,0.037 h0.668,0.694,0,0 i0.405,0.693,0,0 "
    "j0.471,0.693,0.194,0.062 k0.604,0.694,0,0.019 l0.348,0.694,0,0.009 m1.032,0.444,0,0 "
    "n0.713,0.444,0,0 o0.585,0.444,0,0 p0.601,0.444,0.194,0 q0.542,0.444,0.194,0.037 "
    "r0.529,0.444,0,0.032 s0.531,0.444,0,0 t0.415,0.635,0,0 u0.681,0.444,0,0 "
    "v0.567,0.444,0,0.037 w0.831,0.444,0,0.028 x0.659,0.444,0,0 y0.59,0.444,0.194,0.037 "
    "z0.555,0.444,0,0.042 A0.869,0.686,0,0 B0.866,0.686,0,0.048 C0.817,0.686,0,0.07 "
    "D0.938,0.686,0,0.032 E0.81,0.686,0,0.055 F0.689,0.686,0,0.16 G0.887,0.686,0,0 "
    "H0.982,0.686,0,0.082 I0.511,0.686,0,0.078 J0.631,0.686,0,0.101 K0.971,0.686,0,0.07 "
    "L0.756,0.686,0,0 M1.142,0.686,0,0.114 N0.95,0.686,0,0.114 O0.837,0.686,0,0.032 "
    "P0.723,0.686,0,0.16 Q0.869,0.686,0.194,0 R0.872,0.686,0,0.004 S0.693,0.686,0,0.054 "
    "T0.637,0.686,0,0.16 U0.8,0.686,0,0.114 V0.678,0.686,0,0.256 W1.093,0.686,0,0.16 "
    "X0.947,0.686,0,0.078 Y0.675,0.686,0,0.256 Z0.773,0.686,0,0.07 ")
_ROMAN_DATA = (
    "a0.5,0.431,0,0 b0.556,0.694,0,0 c0.444,0.431,0,0 d0.556,0.694,0,0 e0.444,0.431,0,0 "
    "f0.306,0.694,0,0.078 g0.5,0.431,0.194,0.014 h0.556,0.694,0,0 i0.278,0.668,0,0 "
    "j0.306,0.668,0.194,0 k0.528,0.694,0,0 l0.278,0.694,0,0 m0.833,0.431,0,0 "
    "n0.556,0.431,0,0 o0.5,0.431,0,0 p0.556,0.431,0.194,0 q0.528,0.431,0.194,0 "
    "r0.392,0.431,0,0 s0.394,0.431,0,0 t0.389,0.615,0,0 u0.556,0.431,0,0 "
    "v0.528,0.431,0,0.014 w0.722,0.431,0,0.014 x0.528,0.431,0,0 y0.528,0.431,0.194,0.014 "
    "z0.444,0.431,0,0 A0.75,0.683,0,0 B0.708,0.683,0,0 C0.722,0.683,0,0 D0.764,0.683,0,0 "
    "E0.681,0.683,0,0 F0.653,0.683,0,0 G0.785,0.683,0,0 H0.75,0.683,0,0 I0.361,0.683,0,0 "
    "J0.514,0.683,0,0 K0.778,0.683,0,0 L0.625,0.683,0,0 M0.917,0.683,0,0 N0.75,0.683,0,0 "
    "O0.778,0.683,0,0 P0.681,0.683,0,0 Q0.778,0.683,0.194,0 R0.736,0.683,0,0 "
    "S0.556,0.683,0,0 T0.722,0.683,0,0 U0.75,0.683,0,0 V0.75,0.683,0,0.014 "
    "W1.028,0.683,0,0.014 X0.75,0.683,0,0 Y0.75,0.683,0,0.025 Z0.611,0.683,0,0 "
    "00.5,0.644,0,0 10.5,0.644,0,0 20.5,0.644,0,0 30.5,0.644,0,0 40.5,0.644,0,0 "
    "50.5,0.644,0,0 60.5,0.644,0,0 70.5,0.644,0,0 80.5,0.644,0,0 90.5,0.644,0,0 ")


def _glyphs(data: str) -> dict:
    out = {}
    for item in data.split():
        out[item[0]] = tuple(float(x) for x in item[1:].split(","))
    return out


_ITALIC, _BOLD, _ROMAN = _glyphs(_ITALIC_DATA), _glyphs(_BOLD_DATA), _glyphs(_ROMAN_DATA)
#: glyph widths in the script styles, relative to the text's: TeX's 7 pt and
#: 5 pt fonts are drawn wider than 70 % and 50 % of its 10 pt ones
_GLYPH_SCALE = {"D": 1.0, "T": 1.0, "C": 1.0, "S": 0.8, "SS": 0.65}

#: symbols: (width, height, depth, atom class)
_SYMBOLS = {
    "+": (0.778, 0.583, 0.083, "bin"), "-": (0.778, 0.583, 0.083, "bin"),
    r"\cdot": (0.278, 0.445, -0.055, "bin"), r"\times": (0.778, 0.583, 0.083, "bin"),
    "=": (0.778, 0.367, -0.133, "rel"), r"\in": (0.667, 0.539, 0.039, "rel"),
    r"\geq": (0.778, 0.636, 0.136, "rel"), r"\leq": (0.778, 0.636, 0.136, "rel"),
    r"\ge": (0.778, 0.636, 0.136, "rel"), r"\le": (0.778, 0.636, 0.136, "rel"),
    ">": (0.778, 0.54, 0.04, "rel"), "<": (0.778, 0.54, 0.04, "rel"),
    "/": (0.5, 0.75, 0.25, "ord"),
    r"\approx": (0.778, 0.483, -0.017, "rel"), r"\to": (1.0, 0.367, -0.133, "rel"),
    r"\mapsto": (1.0, 0.511, 0.011, "rel"), r"\longmapsto": (1.638, 0.511, 0.011, "rel"),
    r"\longrightarrow": (1.638, 0.511, 0.011, "rel"), ",": (0.278, 0.106, 0.194, "punct"),
    ";": (0.278, 0.431, 0.194, "punct"), "(": (0.389, 0.75, 0.25, "open"),
    ")": (0.389, 0.75, 0.25, "close"), "[": (0.278, 0.75, 0.25, "open"),
    "]": (0.278, 0.75, 0.25, "close"), r"\cdots": (1.172, 0.313, -0.19, "inner"),
    r"\dots": (1.172, 0.123, 0.0, "inner"), r"\ldots": (1.172, 0.123, 0.0, "inner"),
    r"\vdots": (0.278, 0.903, 0.03, "ord"), r"\ddots": (1.282, 0.823, -0.1, "inner"),
    r"\infty": (1.0, 0.431, 0.0, "ord"), r"\ell": (0.417, 0.694, 0.0, "ord"),
    "'": (0.275, 0.56, 0.0, "ord"), r"\prime": (0.275, 0.56, 0.0, "ord"),
    r"\top": (0.778, 0.694, 0.0, "ord"), "|": (0.278, 0.75, 0.25, "ord"),
    ".": (0.278, 0.106, 0.0, "ord"), r"\sigma": (0.571, 0.431, 0.0, "ord"),
    r"\phi": (0.596, 0.694, 0.194, "ord"), r"\tanh": (1.89, 0.694, 0.0, "op"),
    r"\exp": (1.528, 0.431, 0.194, "op"),
}
_SPACES = {r"\quad": 1.0, r"\qquad": 2.0, r"\,": _THIN, r"\;": _THICK, r"\:": _MED,
           r"\!": -_THIN, "~": 0.333, r"\ ": 0.333}
#: \left( and \right) in their sizes: (total height, width of ( and of [)
_DELIMS = ((1.0, 0.389, 0.278), (1.2, 0.458, 0.417), (1.8, 0.597, 0.472),
           (2.4, 0.736, 0.528), (3.0, 0.792, 0.583))

# TeX's table of spaces between atoms: 1 thin, 2 medium, 3 thick; negative:
# only in display and text style
_CLASSES = ("ord", "op", "bin", "rel", "open", "close", "punct", "inner")
_TABLE = {
    "ord": (0, 1, -2, -3, 0, 0, 0, -1), "op": (1, 1, 0, -3, 0, 0, 0, -1),
    "bin": (-2, -2, 0, 0, -2, 0, 0, -2), "rel": (-3, -3, 0, 0, -3, 0, 0, -3),
    "open": (0, 0, 0, 0, 0, 0, 0, 0), "close": (0, 1, -2, -3, 0, 0, 0, -1),
    "punct": (-1, -1, 0, -1, -1, -1, -1, -1), "inner": (-1, 1, -2, -3, -1, 0, -1, -1),
}
_MU = {1: _THIN, 2: _MED, 3: _THICK}


def space(left: str | None, right: str | None, style: str) -> float:
    """The glue TeX puts between an atom of class ``left`` and one of class ``right``."""
    if left is None or right is None:
        return 0.0
    code = _TABLE[left][_CLASSES.index(right)]
    if code < 0:
        if style in ("S", "SS"):
            return 0.0
        code = -code
    return _MU.get(code, 0.0) * SCALE[style]


class Box(NamedTuple):
    """Width, height and depth (ems), the atom classes at its two ends, and the
    italic correction of its last glyph (which a subscript tucks under)."""

    w: float
    h: float
    d: float
    first: str | None = "ord"
    last: str | None = "ord"
    ic: float = 0.0


_EMPTY = Box(0.0, 0.0, 0.0, None, None)


def row(boxes, style: str) -> Box:
    """Boxes set side by side, with TeX's spaces between them.  A binary operator
    with nothing (or a relation, an opening, punctuation) before it is ordinary."""
    w = h = d = ic = 0.0
    first = last = None
    for box in boxes:
        if box.first is None and box.last is None and not box.w:
            continue
        kind = box.first
        if kind == "bin" and last in (None, "bin", "rel", "open", "punct", "op"):
            kind = "ord"
            if box.last == "bin":
                box = box._replace(last="ord")
        w += space(last, kind, style) + box.w
        h, d = max(h, box.h), max(d, box.d)
        if first is None:
            first = kind
        last, ic = box.last, box.ic
    if last == "bin":
        last = "ord"
    return Box(w, h, d, first, last, ic if first is not None else 0.0)


def _scripted(base: Box, sub: Box | None, sup: Box | None, style: str) -> Box:
    """``base_{sub}^{sup}``, the scripts already measured in the script style."""
    h, d = base.h, base.d
    s = SCALE[style]
    # a subscript sits under the italic correction, a superscript after it
    extra = 0.0
    if sup is not None:
        extra = max(extra, sup.w)
        h = max(h, _SUP * s + sup.h)
    if sub is not None:
        extra = max(extra, sub.w - (base.ic if sup is None else 0.0))
        d = max(d, (_SUB_BOTH if sup is not None else _SUB) * s + sub.d)
    return Box(base.w + extra + _SCRIPT_SPACE * s, h, d, base.first, base.last)


def delimited(inner: Box, style: str, kind: str = "(", metrics: Metrics = KATEX) -> Box:
    """``\\left( inner \\right)``: an inner atom, the delimiters sized to cover ``inner``."""
    s = SCALE[style]
    need = 2 * max(inner.h - AXIS * s, inner.d + AXIS * s)
    need = max(need * 0.96, need - 0.5 * s)  # TeX: 0.901; leaning high
    col = 1 if kind == "(" else 2
    for total, *widths in _DELIMS:
        if total * s >= need:
            break
    else:
        total, widths = need / s, [0.875, 0.667]
        if metrics.extensible is not None:  # pieces: a whole number of extensions
            base, step = metrics.extensible
            total = base + step * max(0, -(-(total - base) // step))
    dw = widths[col - 1] * s
    h, d = max(inner.h, AXIS * s + total * s / 2), max(inner.d, total * s / 2 - AXIS * s)
    return Box(inner.w + 2 * dw, h, d, "inner", "inner")


#: what makes a function's argument tall enough for \\left( ... \\right)
_TALL_TEX = ("\\frac", "\\dfrac", "\\sum", "\\prod", "\\int", "\\begin")


def plain_parens(args_tex: str) -> bool:
    """Whether a function's arguments take plain parentheses, ``\\phi(Q)``: all
    but tall ones.  ``\\phi\\left(Q\\right)`` would be set with a gap before
    its parenthesis (an ordinary symbol or an operator before an inner atom
    gets a thin space in TeX and KaTeX)."""
    return not any(cmd in args_tex for cmd in _TALL_TEX)


def slashed(arg, sums: bool = False) -> bool:
    """Whether an exponential's argument is a fraction written ``num / den``: one
    whose numerator is a sum over an index (``\\sum_t q_{it} k_{jt} / \\sqrt{d}``)
    or, with ``sums`` (the printer's setting ``exp_sums="slash"``, which slides use),
    of several terms (``(q_{11} k_{11} + q_{12} k_{12}) / \\sqrt{d}``).  As a
    ``\\frac`` in an exponential in a fraction (a softmax) it would be set at
    script size, its indices at scriptscript size; as a ``\\dfrac`` it would be
    readable but tall, and a softmax written out has many of them.  A fraction of
    one term (a score over its scale) is a ``\\dfrac``: see
    :meth:`symrow.render.latex.SymrowLatexPrinter._print_Exp`."""
    return isinstance(arg, N.Frac) and (
        isinstance(arg.num, N.SumOver)
        or sums and summed(arg))


def summed(arg) -> bool:
    """Whether a fraction's numerator is a sum of several terms (an inner product)."""
    return isinstance(arg.num, N.OSum) and len(arg.num.terms) > 1


def slash_paren(part) -> bool:
    """Whether a part of ``num / den`` needs parentheses: a sum of terms, a sign, a fraction
    (an exponential writes a fraction in its argument so: see
    :meth:`Measure.m_Exp`)."""
    return (isinstance(part, N.OSum) and len(part.terms) > 1) \
        or isinstance(part, (N.Neg, N.Frac, sympy.Add)) \
        or (isinstance(part, sympy.Basic) and bool(part.could_extract_minus_sign()))


def fraction(num: Box, den: Box, style: str) -> Box:
    """``\\frac{num}{den}`` in ``style``; num and den measured in the smaller style."""
    s = SCALE[style]
    big = style == "D"
    clr = (3 * _RULE if big else _RULE) * s
    up = max((_NUM["D"] if big else _NUM["T"]) * s, AXIS * s + _RULE * s / 2 + clr + num.d)
    down = max((_DENOM["D"] if big else _DENOM["T"]) * s,
               den.h + clr + _RULE * s / 2 - AXIS * s)
    return Box(max(num.w, den.w) + 2 * _NULL_DELIM * s, up + num.h, down + den.d,
               "inner", "inner")


# -- leaves: short LaTeX strings ---------------------------------------------------------

_TOKEN = re.compile(r"\\[a-zA-Z]+|\\.|[{}]|[^\s\\{}]")


def _group(tokens: list, k: int):
    """The argument at tokens[k]: (its tokens, the index after it)."""
    if k >= len(tokens):
        return [], k
    if tokens[k] != "{":
        return [tokens[k]], k + 1
    depth, j = 0, k
    while j < len(tokens):
        if tokens[j] == "{":
            depth += 1
        elif tokens[j] == "}":
            depth -= 1
            if depth == 0:
                return tokens[k + 1:j], j + 1
        j += 1
    return tokens[k + 1:], len(tokens)


def _matching_right(tokens: list, k: int):
    """The index of the ``\\right`` that closes a ``\\left`` whose contents start at
    tokens[k], or None."""
    depth = 1
    for j in range(k, len(tokens)):
        if tokens[j] == r"\left":
            depth += 1
        elif tokens[j] == r"\right":
            depth -= 1
            if depth == 0:
                return j
    return None


def _glyph(ch: str, table: dict, style: str, kind: str = "ord") -> Box:
    s, g = SCALE[style], _GLYPH_SCALE[style]
    w, h, d, ic = table.get(ch) or _ROMAN.get(ch) or (0.6, 0.694, 0.0, 0.0)
    return Box((w + ic) * g, h * s, d * s, kind, kind, ic * g)


def _tokens_box(tokens: list, style: str, font: dict = _ITALIC) -> Box:
    boxes: list = []
    k = 0
    s = SCALE[style]
    while k < len(tokens):
        tok = tokens[k]
        k += 1
        if tok in ("_", "^"):
            arg, k = _group(tokens, k)
            box = _tokens_box(arg, _SCRIPT[style], font)
            sub = sup = None
            if tok == "_":
                sub = box
            else:
                sup = box
            if k < len(tokens) and tokens[k] in ("_", "^") and tokens[k] != tok:
                other, k2 = _group(tokens, k + 1)
                obox = _tokens_box(other, _SCRIPT[style], font)
                if tokens[k] == "_":
                    sub = obox
                else:
                    sup = obox
                k = k2
            base = boxes.pop() if boxes else Box(0.0, 0.0, 0.0)
            boxes.append(_scripted(base, sub, sup, style))
            continue
        if tok == "{":
            arg, k = _group(tokens, k - 1)
            boxes.append(_tokens_box(arg, style, font)._replace(first="ord", last="ord"))
            continue
        if tok in (r"\boldsymbol", r"\mathbf", r"\bm"):
            arg, k = _group(tokens, k)
            boxes.append(_tokens_box(arg, style, _BOLD_ALL))
            continue
        if tok in (r"\hat", r"\tilde", r"\bar", r"\widehat", r"\check", r"\dot"):
            arg, k = _group(tokens, k)
            inner = _tokens_box(arg, style, font)
            boxes.append(inner._replace(h=inner.h + 0.25 * s))
            continue
        if tok in (r"\operatorname", r"\mathrm", r"\text", r"\mathsf", r"\textrm"):
            arg, k = _group(tokens, k)
            word = _tokens_box(arg, style, _ROMAN)
            boxes.append(word._replace(first="op" if tok == r"\operatorname" else "ord",
                                       last="op" if tok == r"\operatorname" else "ord"))
            continue
        if tok == r"\mathbb":
            arg, k = _group(tokens, k)
            boxes.append(Box(0.722 * s * max(1, len(arg)), 0.689 * s, 0.0))
            continue
        if tok == r"\sqrt":
            arg, k = _group(tokens, k)
            inner = _tokens_box(arg, style, font)
            boxes.append(Box(inner.w + 0.85 * s, inner.h + 0.2 * s, max(inner.d, 0.2 * s)))
            continue
        if tok in (r"\frac", r"\dfrac", r"\tfrac"):
            num, k = _group(tokens, k)
            den, k = _group(tokens, k)
            fstyle = "D" if tok == r"\dfrac" else ("T" if tok == r"\tfrac" else style)
            inner = _NUMER[fstyle]
            boxes.append(fraction(_tokens_box(num, inner, font), _tokens_box(den, inner, font),
                                  fstyle))
            continue
        if tok == r"\left":
            # \left( ... \right): the delimiters are sized to what they enclose (a
            # \dfrac in parentheses, (1/2) in a combine's weights, is 2.4 ems tall)
            end = _matching_right(tokens, k + 1)
            if end is not None:
                kind = "(" if k < len(tokens) and tokens[k] in ("(", ")", ".") else "["
                inner = _tokens_box(tokens[k + 1:end], style, font)
                boxes.append(delimited(inner, style, kind))
                k = end + 2  # past \right and its delimiter
                continue
        if tok in (r"\left", r"\right", r"\displaystyle", r"\textstyle", r"\limits"):
            continue
        if tok in _SPACES:
            boxes.append(Box(_SPACES[tok] * s, 0.0, 0.0, None, None))
            continue
        if tok in _SYMBOLS:
            w, h, d, kind = _SYMBOLS[tok]
            boxes.append(Box(w * _GLYPH_SCALE[style], h * s, max(d, 0.0) * s, kind, kind))
            continue
        if len(tok) == 1 and (tok.isalpha() or tok.isdigit()):
            if font is _ITALIC and tok.isdigit():
                boxes.append(_glyph(tok, _ROMAN, style))
            else:
                boxes.append(_glyph(tok, font, style))
            continue
        if tok.startswith("\\"):  # an unknown command: one wide glyph
            boxes.append(Box(0.8 * s, 0.694 * s, 0.0))
            continue
        boxes.append(_glyph(tok, _ROMAN, style))
    return row(boxes, style)


_BOLD_ALL = {**_BOLD, **{str(k): (0.575, 0.644, 0.0, 0.0) for k in range(10)}}
_LEAVES: dict = {}


def leaf_box(tex: str, style: str) -> Box:
    """The box of a short piece of LaTeX (a symbol, a label), remembered."""
    key = (tex, style)
    box = _LEAVES.get(key)
    if box is None:
        if len(_LEAVES) > 200_000:
            _LEAVES.clear()
        if tex in _SYMBOLS:  # an operator on its own keeps its class
            w, h, d, kind = _SYMBOLS[tex]
            box = Box(w * _GLYPH_SCALE[style], h * SCALE[style], max(d, 0.0) * SCALE[style],
                      kind, kind)
        else:
            box = _tokens_box(_TOKEN.findall(tex), style)
        _LEAVES[key] = box
    return box


# -- display nodes -------------------------------------------------------------------------

#: the room, in ems, that a tall matrix row (one with a display-style
#: fraction, or a large operator) gets above and below its contents; the
#: lines of a display, which ``aligned`` already parts by a \\jot, get less
TALL_ROOM = 0.25
LINE_ROOM = 0.15
#: a row whose contents are taller than this (height plus depth, ems) is tall
TALL = 1.6


def tall_strut(h: float, d: float, room: float = TALL_ROOM) -> tuple | None:
    """(height, depth) of the invisible strut that gives a tall row its room, or None.

    TeX and KaTeX set ``\\\\[x]`` at the end of an array row as "at least x
    below the baseline", which a tall row already is, while MathJax adds x:
    a strut in the row itself is the one kind of room all three give alike.
    """
    if h + d <= TALL:
        return None
    step = 0.05
    up = -(-(h + room) // step) * step
    down = -(-(d + room) // step) * step
    return round(up, 2), round(down, 2)


class Measure:
    """Boxes of display nodes (and SymPy leaves), in a style: ``measure(node, "D")``.

    ``printer`` is the printer whose output is measured (a
    :class:`~symrow.render.latex.SymrowLatexPrinter`): it gives the LaTeX of
    leaves (``_token``) and of anything measured as printed (``doprint``),
    and its settings ``exp_style`` and ``cell_fraction``.  ``metrics`` are
    the renderer's (:data:`KATEX` or :data:`TEX`).
    """

    def __init__(self, printer, metrics: Metrics = KATEX):
        self.leaf = printer._token
        self.printed = printer.doprint
        self.metrics = metrics
        self.exp_style = printer._settings["exp_style"]
        #: the style of a fraction in a matrix cell: D (``\\dfrac``) or T (``\\frac``)
        self.cell_style = "D" if printer._settings["cell_fraction"] == "display" else "T"
        #: whether fractions are stacked (``\\frac``), not written ``num / den``
        self.stacked = printer._settings["fraction"] == "stacked"
        #: whether an exponential's inner product over its scale is written num / den
        self.slash_sums = printer._settings["exp_sums"] == "slash"
        #: whether an exponential's fraction of one term is a ``\\dfrac``
        self.exp_display = printer._settings["exp_fraction"] == "display"
        #: boxes of the display nodes measured so far, by identity: a large
        #: display measures the same subtrees (an exponential, a denominator)
        #: many times.  The node is kept with its box, so its id stays its own.
        self._boxes: dict = {}

    def __call__(self, node, style: str = "D") -> Box:
        if isinstance(node, N.Node):
            key = (id(node), style)
            found = self._boxes.get(key)
            if found is not None:
                return found[1]
            method = getattr(self, "m_" + type(node).__name__, None)
            box = method(node, style) if method is not None else leaf_box(self.printed(node), style)
            if len(self._boxes) > 500_000:
                self._boxes.clear()
            self._boxes[key] = (node, box)
            return box
        method = getattr(self, "m_" + type(node).__name__, None)
        if method is not None:
            return method(node, style)
        return self.m_leaf(node, style)

    def width(self, node, style: str = "D") -> float:
        return self(node, style).w

    # -- leaves ------------------------------------------------------------------------
    def m_leaf(self, node, style: str) -> Box:
        if isinstance(node, sympy.Basic) and not (node.is_Symbol or node.is_number):
            return leaf_box(self.printed(node), style)
        return leaf_box(self.leaf(node), style)

    def m_VecSeq(self, node, style: str) -> Box:
        return leaf_box(node.latex_name, style)

    def m_Label(self, node, style: str) -> Box:
        return leaf_box(node.tex, style)

    def m_Dots(self, node, style: str) -> Box:
        tex = {"c": r"\cdots", "v": r"\vdots", "d": r"\ddots", "l": r"\dots"}[node.kind]
        box = leaf_box(tex, style)
        for name, h in self.metrics.dots:
            if name == tex:
                return box._replace(h=h, d=0.0)
        return box

    def m_Space(self, node, style: str) -> Box:
        sc = _SCRIPT[style]
        sup = row([self(node.rows, sc), leaf_box(r"\times", sc), self(node.cols, sc)], sc)
        return _scripted(leaf_box(r"\mathbb{R}", style), None, sup, style)

    # -- rows of atoms --------------------------------------------------------------------
    def m_OSum(self, node: N.OSum, style: str) -> Box:
        boxes = []
        for k, term in enumerate(node.terms):
            neg, body = split_sign(term)
            if k or neg:
                boxes.append(leaf_box("+", style))
            boxes.append(self._paren_if(body, style, isinstance(body, N.Node)
                                        and body.precedence <= N.OSum.precedence))
        return row(boxes, style) if boxes else leaf_box("0", style)

    def _paren_if(self, node, style: str, paren: bool) -> Box:
        box = self(node, style)
        return delimited(box, style, metrics=self.metrics) if paren else box

    def m_Neg(self, node: N.Neg, style: str) -> Box:
        return row([leaf_box("-", style), self(node.item, style)], style)

    def m_OMul(self, node: N.OMul, style: str) -> Box:
        boxes = []
        prev_number = False
        for k, f in enumerate(node.factors):
            number = isinstance(f, sympy.Number)
            if k and number and prev_number:
                boxes.append(leaf_box(r"\cdot", style))
            paren = (k and number and f.is_negative) or isinstance(
                f, (N.OSum, N.Neg, N.Rel, N.Chain, sympy.Add)) or (
                # as the printer's parenthesize: a SymPy factor no tighter than a
                # product, a fraction (1/2) among them, is set in \left( \right)
                isinstance(f, sympy.Basic) and not getattr(f, "is_fraction", False)
                and precedence_traditional(f) <= PRECEDENCE["Mul"])
            boxes.append(self._paren_if(f, style, bool(paren)))
            prev_number = number
        return row(boxes, style)

    def m_Dot(self, node: N.Dot, style: str) -> Box:
        return row([self(node.left, style), leaf_box(r"\cdot", style),
                    self(node.right, style)], style)

    def m_Rel(self, node: N.Rel, style: str) -> Box:
        rel = {"=": "=", "in": r"\in", "to": r"\longrightarrow", "mapsto": r"\longmapsto",
               "gets": r"\longleftarrow",
               "ge": r"\geq", "le": r"\leq", "gt": ">", "lt": "<", "approx": r"\approx",
               "times": r"\times"}[node.rel]
        box = leaf_box(rel, style)._replace(first="rel", last="rel")
        return row([self(node.lhs, style), box, self(node.rhs, style)], style)

    def _separated(self, items, separators: tuple, style: str) -> Box:
        """The items on one line with the ``separators`` (TeX) between each two."""
        between = [leaf_box(tex, style) for tex in separators]
        boxes = []
        for k, item in enumerate(items):
            if k:
                boxes += between
            boxes.append(self(item, style))
        return row(boxes, style)

    def m_Chain(self, node: N.Chain, style: str) -> Box:
        return self._separated(node.items, ("=",), style)

    def m_Group(self, node: N.Group, style: str) -> Box:
        return self._separated(node.items, (",", r"\qquad"), style)

    def m_Items(self, node: N.Items, style: str) -> Box:
        return self._separated(node.items, (",",), style)

    # -- structures -------------------------------------------------------------------------
    def m_Frac(self, node: N.Frac, style: str) -> Box:
        if style == "C":  # a fraction in a matrix cell: \dfrac unless the printer says \frac
            style = self.cell_style
        inner = _NUMER[style]
        return fraction(self(node.num, inner), self(node.den, inner), style)

    def m_Exp(self, node: N.Exp, style: str) -> Box:
        if self.exp_style == "e":
            return _scripted(leaf_box("e", style), None, self(node.arg, _SCRIPT[style]), style)
        arg = node.arg
        if slashed(arg, self.slash_sums):  # num / den: see SymrowLatexPrinter._print_Exp
            parts = [self(p, style) if not slash_paren(p)
                     else delimited(self(p, style), style, metrics=self.metrics)
                     for p in (arg.num, arg.den)]
            inner = row([parts[0], leaf_box("/", style), parts[1]], style)
        elif isinstance(arg, N.Frac) and self.stacked and self.exp_display and not summed(arg):
            inner = self(arg, "D")  # \dfrac, in any style
        else:
            inner = self(arg, style)
        return row([leaf_box(r"\exp", style),
                    delimited(inner, style, metrics=self.metrics)], style)

    def m_Sqrt(self, node: N.Sqrt, style: str) -> Box:
        inner = self(node.arg, style)
        s = SCALE[style]
        return Box(inner.w + 0.85 * s, inner.h + 0.2 * s, max(inner.d, 0.2 * s))

    def m_Call(self, node: N.Call, style: str) -> Box:
        args = self(N.Items(node.args), style)
        parens = delimited(args, style, metrics=self.metrics)
        if plain_parens(self.printed(N.Items(node.args))):
            parens = parens._replace(first="open", last="close")
        return row([leaf_box(node.tex, style)._replace(first="op", last="op"), parens], style)

    def m_Paren(self, node: N.Paren, style: str) -> Box:
        return delimited(self(node.item, style), style, metrics=self.metrics)

    def m_Transpose(self, node: N.Transpose, style: str) -> Box:
        base = self._paren_if(node.base, style, isinstance(node.base, N.Node)
                              and node.base.precedence < N.Transpose.precedence)
        return _scripted(base, None, leaf_box("T", _SCRIPT[style]), style)

    def m_Power(self, node: N.Power, style: str) -> Box:
        base = self._paren_if(node.base, style, isinstance(node.base, N.Node)
                              and node.base.precedence < N.Power.precedence)
        return _scripted(base, None, self(node.exponent, _SCRIPT[style]), style)

    def m_Hadamard(self, node: N.Hadamard, style: str) -> Box:
        boxes = []
        for k, f in enumerate(node.factors):
            if k:
                boxes.append(leaf_box(r"\odot", style))
            boxes.append(self._paren_if(f, style, isinstance(
                f, (N.OSum, N.Neg, N.Rel, N.Chain, sympy.Add))))
        return row(boxes, style)

    def m_Sub(self, node: N.Sub, style: str) -> Box:
        base = self._paren_if(node.base, style, isinstance(node.base, N.Node)
                              and node.base.precedence < N.Sub.precedence)
        return _scripted(base, self(node.index, _SCRIPT[style]), None, style)

    def m_SumOver(self, node: N.SumOver, style: str) -> Box:
        sc = _SCRIPT[style]
        lower = row([self(node.index, sc), leaf_box("=", sc), self(node.lower, sc)], sc)
        upper = self(node.upper, sc)
        s = SCALE[style]
        if style == "D":
            op = Box(max(1.444, lower.w, upper.w), 1.05 + 0.2 + upper.h + upper.d,
                     0.55 + 0.2 + lower.h + lower.d, "op", "op")
        else:
            op = _scripted(Box(1.056 * s, 0.75 * s, 0.25 * s, "op", "op"), lower, upper, style)
        return row([op, self(node.body, style)], style)

    def m_Entrywise(self, node: N.Entrywise, style: str) -> Box:
        return self(node.values, style)

    def rows(self, node: N.Bmat, style: str) -> list:
        """Each row's (height, depth) and its cells' boxes, in the cells' style."""
        cs = "C" if style in ("D", "T", "C") else style
        out = []
        for r in node.rows:
            boxes = [self(c, cs) for c in r]
            out.append((max(b.h for b in boxes), max(b.d for b in boxes), boxes))
        return out

    def _stack(self, rows, style: str, strut_h: float, strut_d: float) -> float:
        """The height plus depth of rows of an array, tall rows with their struts."""
        s = SCALE[style]
        total = 0.0
        for h, d in rows:
            tall = tall_strut(h, d)
            if tall is not None:
                h, d = tall
            total += max(strut_h * s, h) + max(strut_d * s, d)
        return total

    def m_Bmat(self, node: N.Bmat, style: str) -> Box:
        grid = self.rows(node, style)
        ncols = max(len(r[2]) for r in grid)
        cols = [max((r[2][c].w for r in grid if c < len(r[2])), default=0.0)
                for c in range(ncols)]
        s = SCALE[style]
        total = self._stack([(h, d) for h, d, _ in grid], style, *self.metrics.strut)
        inner = Box(sum(cols) + _COLSEP * s * (ncols - 1), total / 2 + AXIS * s,
                    total / 2 - AXIS * s)
        return delimited(inner, style, "[", self.metrics)

    def m_Cases(self, node: N.Cases, style: str) -> Box:
        cs = "C" if style in ("D", "T", "C") else style
        vals = [self(v, cs) for v, _ in node.rows]
        conds = [self(c, cs) for _, c in node.rows]
        s = SCALE[style]
        total = self._stack([(max(v.h, c.h), max(v.d, c.d)) for v, c in zip(vals, conds)],
                            style, *(1.2 * x for x in self.metrics.strut))
        inner = Box(max(b.w for b in vals) + 1.0 * s + max(b.w for b in conds),
                    total / 2 + AXIS * s, total / 2 - AXIS * s)
        box = delimited(inner, style, "[", self.metrics)
        return box._replace(w=box.w + 0.3 * s)

    def m_Stacked(self, node, style: str) -> Box:
        """A fraction whose sums are set on rows (see :class:`symrow.render.latex.Stacked`)."""
        if style == "C":
            style = self.cell_style
        inner = _NUMER[style]
        return fraction(self.gathered(node.num, inner), self.gathered(node.den, inner), style)

    def m_SoftmaxExpansion(self, node, style: str) -> Box:
        return self(N.Group(node.chains()), style)

    def gathered(self, rows: list, style: str) -> Box:
        """Rows of a sum, one under the other (a ``gathered``; each row in ``style``)."""
        if len(rows) == 1:
            return self(rows[0], style)
        return stacked_rows([self(r, style) for r in rows], style)


def stacked_rows(boxes: list, style: str) -> Box:
    """The box of rows of a sum set one under the other, from the rows' boxes."""
    s = SCALE[style]
    lead = leaf_box("+", style).w + 2 * _MED * s
    w = max(b.w + (lead if k else 0.0) for k, b in enumerate(boxes))
    total = sum(max(b.h + b.d, 1.2 * s) for b in boxes) + 0.4 * s * (len(boxes) - 1)
    return Box(w, total / 2 + AXIS * s, total / 2 - AXIS * s)


def split_sign(term):
    """(is_negative, magnitude) of a sum's term, for ``a - b`` rather than ``a + -b``."""
    if isinstance(term, N.Neg):
        return True, term.item
    if isinstance(term, sympy.Expr) and term.could_extract_minus_sign():
        return True, -term
    return False, term

