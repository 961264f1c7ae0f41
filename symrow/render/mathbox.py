"""How tall a line of math is when TeX sets it: an estimate, for laying out slides.

A slide has a fixed height, so the slide renderer (:mod:`symrow.render.beamer`)
must know how much of it a display takes before TeX runs.  This module reads
the LaTeX that :mod:`symrow.render.latex` writes and follows TeX's rules for
the few constructs that make a line tall: fractions (display and text
style), scripts, large operators with limits, ``\\left ... \\right``
delimiters, square roots, and matrices and ``cases`` (arrays).  Every other
symbol is one glyph.  Dimensions are those of Computer Modern at 11 pt, the
size of a Beamer deck; the estimate leans to the high side.

>>> from symrow.render.mathbox import box, row_height
>>> [round(x, 1) for x in box(r"\\frac{a}{b}")]   # TeX: 12.1 pt and 7.5 pt
[15.8, 10.3]
>>> [round(x, 1) for x in box(r"\\begin{bmatrix} 1 \\\\ 2 \\\\ 3 \\end{bmatrix}")]  # 23.1, 17.7
[25.6, 20.1]
>>> row_height("a = b") == row_height("x") == 16.6   # a baseline and \\jot
True
"""

from __future__ import annotations

import re

__all__ = ["box", "row_height", "BASELINE"]

#: the font size (pt) and the font parameters that matter, in ems
SIZE = 11.0
#: distance between baselines of 11 pt type
BASELINE = 13.6
_AXIS = 0.25            # math axis above the baseline
_RULE = 0.4 / SIZE      # fraction rule
_GLYPH = (0.76, 0.25)   # an ordinary symbol: height, depth (parentheses' size)
_STYLE_SIZE = {"D": 1.0, "T": 1.0, "S": 0.73, "SS": 0.55}
_SMALLER = {"D": "T", "T": "S", "S": "SS", "SS": "SS"}
_SCRIPT = {"D": "S", "T": "S", "S": "SS", "SS": "SS"}
_NUM = {"D": 0.677, "T": 0.394}    # fraction numerator shift (num1, num2)
_DENOM = {"D": 0.686, "T": 0.345}  # fraction denominator shift (denom1, denom2)
_SUP, _SUB = 0.413, 0.247          # superscript raise, subscript drop
_DELIMS = (1.0, 1.2, 1.8, 2.4, 3.0)  # sizes of ( [ { in cmr and cmex, in ems
_BIG_OP = {"D": (1.0, 0.5), "T": (0.75, 0.25)}  # \sum's height, depth
_TALL = {r"\vdots": (0.9, 0.05), r"\ddots": (0.85, 0.05)}
_JOT, _LINESKIP = 3.0, 1.0
_TOKEN = re.compile(r"\\[a-zA-Z]+\*?|\\.|[{}]|[^\s\\{}]", re.S)


def _tokens(tex: str) -> list:
    return _TOKEN.findall(tex)


class _Reader:
    """Reads tokens into nested lists: a brace group becomes a list."""

    def __init__(self, tokens: list):
        self.tokens, self.k = tokens, 0

    def group(self) -> list:
        out: list = []
        while self.k < len(self.tokens):
            tok = self.tokens[self.k]
            self.k += 1
            if tok == "{":
                out.append(self.group())
            elif tok == "}":
                return out
            else:
                out.append(tok)
        return out


def _arg(items: list, k: int):
    """The argument at ``items[k]``: a group or one token; None past the end."""
    return items[k] if k < len(items) else None


def _env_name(item) -> str:
    return "".join(item) if isinstance(item, list) else str(item)


def _split_env(items: list, k: int):
    """The body of the environment opened at ``items[k]`` (``\\begin``) and the
    index just past its ``\\end``."""
    depth, j = 0, k
    while j < len(items):
        if items[j] == r"\begin":
            depth += 1
        elif items[j] == r"\end":
            depth -= 1
            if depth == 0:
                return items[k + 2:j], j + 2
        j += 1
    return items[k + 2:], len(items)


def _array(body: list, style: str, stretch: float) -> tuple:
    """Height and depth of a matrix or ``cases`` body, centred on the axis."""
    f = _STYLE_SIZE[style]
    rows: list = [[[]]]
    k = 0
    while k < len(body):
        tok = body[k]
        if tok == r"\begin":
            inner, end = _split_env(body, k)
            rows[-1][-1].extend(body[k:end])
            k = end
            continue
        if tok == "\\\\":
            rows.append([[]])
        elif tok == "&":
            rows[-1].append([])
        else:
            rows[-1][-1].append(tok)
        k += 1
    strut_h, strut_d = 0.7 * BASELINE * stretch * f, 0.3 * BASELINE * stretch * f
    total = 0.0
    for row in rows:
        cells = [_list(cell, "T" if style in ("D", "T") else style) for cell in row]
        total += max([strut_h] + [h for h, _ in cells]) + max([strut_d] + [d for _, d in cells])
    axis = _AXIS * SIZE * f
    return total / 2 + axis + 2.5, total / 2 - axis + 2.5  # the brackets reach past


def _delimited(h: float, d: float, style: str) -> tuple:
    """``\\left( ... \\right)`` around a box: the delimiter's size, as TeX picks it."""
    f = _STYLE_SIZE[style]
    axis = _AXIS * SIZE * f
    half = max(h - axis, d + axis)
    need = max(2 * half * 0.901, 2 * half - 5.0)
    size = next((s * SIZE * f for s in _DELIMS if s * SIZE * f >= need), need + 1.0)
    return max(h, axis + size / 2), max(d, size / 2 - axis)


def _fraction(num: tuple, den: tuple, style: str) -> tuple:
    f = _STYLE_SIZE[style]
    key = "D" if style == "D" else "T"
    axis, rule = _AXIS * SIZE * f, _RULE * SIZE
    clear = 3 * rule if style == "D" else rule
    up = max(_NUM[key] * SIZE * f, axis + rule / 2 + clear + num[1])
    down = max(_DENOM[key] * SIZE * f, den[0] - axis + rule / 2 + clear)
    return up + num[0], down + den[1]


def _list(items: list, style: str) -> tuple:
    """Height and depth of a math list in ``style`` (D, T, S or SS)."""
    f = _STYLE_SIZE[style]
    h = d = 0.0
    last = (0.0, 0.0)    # the atom that a script attaches to
    big_op = False       # the last atom was \sum in display style (limits)
    k = 0
    while k < len(items):
        tok = items[k]
        k += 1
        if isinstance(tok, list):
            last = _list(tok, style)
            big_op = False
        elif tok in ("^", "_"):
            script = _list(_as_list(_arg(items, k)), _SCRIPT[style])
            k += 1
            if big_op:  # limits above and below a display \sum
                if tok == "^":
                    last = (last[0] + 2.2 + script[1] + script[0] + 1.1, last[1])
                else:
                    last = (last[0], last[1] + 2.2 + script[0] + script[1] + 1.1)
            elif tok == "^":
                last = (max(last[0], _SUP * SIZE * f + script[0], script[1] + 1.1 * f),
                        last[1])
            else:
                last = (last[0], max(last[1], _SUB * SIZE * f + script[1],
                                     script[0] - 0.8 * SIZE * f * 0.5))
        elif tok == r"\frac":
            num = _list(_as_list(_arg(items, k)), _SMALLER[style])
            den = _list(_as_list(_arg(items, k + 1)), _SMALLER[style])
            k += 2
            last, big_op = _fraction(num, den, style), False
        elif tok == r"\sqrt":
            inner = _list(_as_list(_arg(items, k)), style)
            k += 1
            last, big_op = (inner[0] + 2.0 * f, max(inner[1], 0.25 * SIZE * f) + 0.5), False
        elif tok == r"\left":
            depth, j = 1, k + 1
            while j < len(items) and depth:
                if items[j] == r"\left":
                    depth += 1
                elif items[j] == r"\right":
                    depth -= 1
                j += 1
            inner = _list(items[k + 1:j - 1], style)
            k = j + 1  # past \right and its delimiter
            last, big_op = _delimited(inner[0], inner[1], style), False
        elif tok == r"\begin":
            name = _env_name(_arg(items, k))
            body, k = _split_env(items, k - 1)
            stretch = 1.2 if name == "cases" else 1.0
            last, big_op = _array(body, style, stretch), False
        elif tok == r"\sum":
            op = _BIG_OP["D" if style == "D" else "T"]
            last, big_op = (op[0] * SIZE * f + _AXIS * SIZE * f, op[1] * SIZE * f), style == "D"
        elif tok in (r"\boldsymbol", r"\mathbb", r"\operatorname", r"\text", r"\mathrm"):
            last, big_op = _list(_as_list(_arg(items, k)), style), False
            k += 1
        elif tok in _TALL:
            last, big_op = (_TALL[tok][0] * SIZE * f, _TALL[tok][1] * SIZE * f), False
        elif tok in (r"\quad", r"\qquad", r"\,", r"\;", r"\!", "&", r"\right", r"\limits"):
            continue
        else:
            last, big_op = (_GLYPH[0] * SIZE * f, _GLYPH[1] * SIZE * f), False
        h, d = max(h, last[0]), max(d, last[1])
    return h, d


def _as_list(arg) -> list:
    if arg is None:
        return []
    return arg if isinstance(arg, list) else [arg]


def box(tex: str, style: str = "D") -> tuple:
    """(height, depth) in pt of math ``tex`` set in ``style`` (``"D"``: display)."""
    return _list(_Reader(_tokens(tex)).group(), style)


def row_height(tex: str) -> float:
    """The vertical space, in pt, one row of an ``align*`` takes: a baseline
    apart from its neighbour, or more when it is tall, plus ``\\jot``."""
    h, d = box(tex)
    return max(BASELINE, h + d + _LINESKIP) + _JOT
