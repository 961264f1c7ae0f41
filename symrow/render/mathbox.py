"""How big a line of math is when TeX sets it: an estimate, for laying out slides.

A slide has a fixed size, so the slide renderer (:mod:`symrow.render.beamer`)
must know how much of it a display takes before TeX runs.  This module reads
the LaTeX that :mod:`symrow.render.latex` writes and follows TeX's rules for
the constructs that make a line tall or wide: fractions (display and text
style), scripts, large operators with limits, ``\\left ... \\right``
delimiters, square roots, and matrices and other arrays.  Every other symbol
is one glyph, with the spacing TeX puts around relations and binary
operators.  Dimensions are those of Computer Modern at 11 pt, the size of a
Beamer deck; the estimate leans to the high side (a test holds it against
TeX's own boxes for every line of the tested decks).

>>> from symrow.render.mathbox import box, row_height, width
>>> [round(x, 1) for x in box(r"\\frac{a}{b}")]   # TeX: 12.1 pt and 7.5 pt
[15.8, 10.3]
>>> [round(x, 1) for x in box(r"\\begin{bmatrix} 1 \\\\ 2 \\\\ 3 \\end{bmatrix}")]  # 23.1, 17.7
[25.6, 20.1]
>>> row_height("a = b") == row_height("x") == 16.6   # a baseline and \\jot
True
>>> round(width("a + b = c"))                     # TeX: 43.2 pt
47
"""

from __future__ import annotations

import re

__all__ = ["box", "row_height", "width", "BASELINE"]

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

# widths in ems: a glyph, and the spaces TeX puts around binary operators
# and relations (medmuskip, thickmuskip) in display and text style
_LETTER = 0.56         # a lower-case letter or a digit; a capital is wider
_CAPITAL = 0.8
_BIN = {"+", "-", r"\cdot", r"\times", r"\pm"}
_REL = {"=": 0.78, r"\in": 0.67, r"\approx": 0.78, r"\geq": 0.78, r"\leq": 0.78,
        r"\longmapsto": 1.67, r"\longrightarrow": 1.67, r"\to": 1.0, r"\mapsto": 1.0}
_BIN_SPACE, _REL_SPACE = 0.222, 0.278
_WIDE = {r"\cdots": 1.34, r"\dots": 1.34, r"\ldots": 1.34, r"\ddots": 1.34, r"\vdots": 0.28,
         r"\infty": 1.0, r"\ell": 0.42, r"\sum": 1.45, ",": 0.28}
_SPACES = {r"\quad": 1.0, r"\qquad": 2.0, r"\,": 0.167, r"\;": 0.278, r"\!": -0.167}
_COLSEP = 10.0 / SIZE   # between the columns of a matrix (2 \arraycolsep)
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


def _as_list(arg) -> list:
    if arg is None:
        return []
    return arg if isinstance(arg, list) else [arg]


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


def _array(body: list, style: str, name: str) -> tuple:
    """Height, depth and width of an array (a matrix, ``cases``, ``gathered``),
    centred on the axis."""
    f = _STYLE_SIZE[style]
    rows: list = [[[]]]
    k = 0
    while k < len(body):
        tok = body[k]
        if tok == r"\begin":
            _inner, end = _split_env(body, k)
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
    stretch = 1.2 if name == "cases" else 1.0
    # gathered sets its rows in display style, matrices their cells in text style
    cell_style = "D" if name == "gathered" else ("T" if style in ("D", "T") else style)
    strut_h, strut_d = 0.7 * BASELINE * stretch * f, 0.3 * BASELINE * stretch * f
    gap = _JOT if name == "gathered" else 0.0
    total, columns = 0.0, []
    for row in rows:
        cells = [_list(cell, cell_style) for cell in row]
        total += max([strut_h] + [c[0] for c in cells]) \
            + max([strut_d] + [c[1] for c in cells]) + gap
        for j, cell in enumerate(cells):
            if j == len(columns):
                columns.append(0.0)
            columns[j] = max(columns[j], cell[2])
    wide = sum(columns) + _COLSEP * SIZE * f * (len(columns) - 1)
    pad = 0.0 if name == "gathered" else 2.5  # the brackets reach past
    axis = _AXIS * SIZE * f
    if name in ("bmatrix", "cases"):
        wide += 0.9 * SIZE * f
    return total / 2 + axis + pad, total / 2 - axis + pad, wide


def _delimited(h: float, d: float, style: str) -> tuple:
    """``\\left( ... \\right)`` around a box: the delimiters' height, depth and
    width, as TeX picks their size."""
    f = _STYLE_SIZE[style]
    axis = _AXIS * SIZE * f
    half = max(h - axis, d + axis)
    need = max(2 * half * 0.901, 2 * half - 5.0)
    k = next((k for k, s in enumerate(_DELIMS) if s * SIZE * f >= need), len(_DELIMS))
    size = _DELIMS[k] * SIZE * f if k < len(_DELIMS) else need + 1.0
    return max(h, axis + size / 2), max(d, size / 2 - axis), (0.39 + 0.1 * k) * 2 * SIZE * f


def _fraction(num: tuple, den: tuple, style: str) -> tuple:
    f = _STYLE_SIZE[style]
    key = "D" if style == "D" else "T"
    axis, rule = _AXIS * SIZE * f, _RULE * SIZE
    clear = 3 * rule if style == "D" else rule
    up = max(_NUM[key] * SIZE * f, axis + rule / 2 + clear + num[1])
    down = max(_DENOM[key] * SIZE * f, den[0] - axis + rule / 2 + clear)
    return up + num[0], down + den[1], max(num[2], den[2]) + 0.24 * SIZE * f


def _list(items: list, style: str) -> tuple:
    """Height, depth and width (pt) of a math list in ``style`` (D, T, S or SS)."""
    f = _STYLE_SIZE[style]
    spaced = style in ("D", "T")  # scripts get no space around + and =
    h = d = w = 0.0
    last = (0.0, 0.0, 0.0)  # the atom that a script attaches to
    big_op = False          # the last atom was \sum in display style (limits)
    sup = sub = None        # the scripts on the last atom
    k = 0

    def close():
        """Put the last atom, with its scripts, on the line."""
        nonlocal h, d, w, sup, sub
        lh, ld, lw = last
        if big_op:  # limits above and below a display \sum
            if sup is not None:
                lh += 2.2 + sup[1] + sup[0] + 1.1
            if sub is not None:
                ld += 2.2 + sub[0] + sub[1] + 1.1
            lw = max([lw] + [s[2] for s in (sup, sub) if s is not None])
        else:
            if sup is not None:
                lh = max(lh, _SUP * SIZE * f + sup[0], sup[1] + 1.1 * f)
            if sub is not None:
                ld = max(ld, _SUB * SIZE * f + sub[1], sub[0] - 0.4 * SIZE * f)
            lw += max([0.0] + [s[2] for s in (sup, sub) if s is not None])
        h, d, w = max(h, lh), max(d, ld), w + lw
        sup = sub = None

    while k < len(items):
        tok = items[k]
        k += 1
        if tok in ("^", "_"):
            script = _list(_as_list(_arg(items, k)), _SCRIPT[style])
            k += 1
            if tok == "^":
                sup = script
            else:
                sub = script
            continue
        close()
        big_op = False
        if tok in (r"\textstyle", r"\displaystyle"):
            style = "T" if tok == r"\textstyle" else "D"
            last = (0.0, 0.0, 0.0)
        elif isinstance(tok, list):
            last = _list(tok, style)
        elif tok in (r"\frac", r"\dfrac"):
            fstyle = "D" if tok == r"\dfrac" else style
            num = _list(_as_list(_arg(items, k)), _SMALLER[fstyle])
            den = _list(_as_list(_arg(items, k + 1)), _SMALLER[fstyle])
            k += 2
            last = _fraction(num, den, fstyle)
        elif tok == r"\vphantom":  # the height and depth of its argument, no width
            inner = _list(_as_list(_arg(items, k)), style)
            k += 1
            last = (inner[0], inner[1], 0.0)
        elif tok == r"\rule":  # \rule[raise]{width}{height}, as symrow's struts write it
            raise_ = 0.0
            if _arg(items, k) == "[":
                j = items.index("]", k)
                raise_ = _dimen("".join(t for t in items[k + 1:j] if isinstance(t, str)), f)
                k = j + 1
            wide = _dimen("".join(_as_list(_arg(items, k))), f)
            tall = _dimen("".join(_as_list(_arg(items, k + 1))), f)
            k += 2
            last = (max(0.0, tall + raise_), max(0.0, -raise_), wide)
        elif tok == r"\sqrt":
            inner = _list(_as_list(_arg(items, k)), style)
            k += 1
            last = (inner[0] + 2.0 * f, max(inner[1], 0.25 * SIZE * f) + 0.5,
                    inner[2] + 0.83 * SIZE * f)
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
            dh, dd, dw = _delimited(inner[0], inner[1], style)
            last = (dh, dd, inner[2] + dw)
        elif tok == r"\begin":
            name = _env_name(_arg(items, k))
            body, k = _split_env(items, k - 1)
            last = _array(body, style, name)
        elif tok == r"\sum":
            op = _BIG_OP["D" if style == "D" else "T"]
            last = (op[0] * SIZE * f + _AXIS * SIZE * f, op[1] * SIZE * f,
                    (1.45 if style == "D" else 1.05) * SIZE * f)
            big_op = style == "D"
        elif tok in (r"\boldsymbol", r"\mathbb"):
            inner = _list(_as_list(_arg(items, k)), style)
            k += 1
            last = (inner[0], inner[1], inner[2] * 1.15)
        elif tok in (r"\operatorname", r"\text", r"\mathrm"):
            text = _as_list(_arg(items, k))
            k += 1
            last = (_GLYPH[0] * SIZE * f, _GLYPH[1] * SIZE * f,
                    (0.56 * len(text) + 0.17) * SIZE * f)
        elif tok == r"\exp":
            last = (_GLYPH[0] * SIZE * f, _GLYPH[1] * SIZE * f, (1.5 + 0.17) * SIZE * f)
        elif tok in _SPACES:
            last = (0.0, 0.0, _SPACES[tok] * SIZE * f)
        elif tok in _BIN:
            gap = 2 * _BIN_SPACE if spaced and w > 0 else 0.0
            last = (_GLYPH[0] * SIZE * f, _GLYPH[1] * SIZE * f, (0.78 + gap) * SIZE * f)
        elif tok in _REL:
            gap = 2 * _REL_SPACE if spaced else 0.0
            last = (_GLYPH[0] * SIZE * f, _GLYPH[1] * SIZE * f, (_REL[tok] + gap) * SIZE * f)
        elif tok in ("&", r"\right", r"\limits"):
            last = (0.0, 0.0, 0.0)
        else:
            tall = _TALL.get(tok, _GLYPH)
            wide = _WIDE.get(tok, _CAPITAL if tok.isupper() else _LETTER) \
                + (0.167 if tok == "," and spaced else 0.0)
            last = (tall[0] * SIZE * f, tall[1] * SIZE * f, wide * SIZE * f)
    close()
    return h, d, w


def _dimen(text: str, f: float) -> float:
    """A TeX dimension (``1.25em``, ``0pt``) in pt; 0 when it is not one."""
    found = re.fullmatch(r"\s*(-?[\d.]+)\s*(em|pt)\s*", text)
    if not found:
        return 0.0
    value = float(found.group(1))
    return value * SIZE * f if found.group(2) == "em" else value


def box(tex: str, style: str = "D") -> tuple:
    """(height, depth) in pt of math ``tex`` set in ``style`` (``"D"``: display)."""
    return _list(_Reader(_tokens(tex)).group(), style)[:2]


def width(tex: str, style: str = "D") -> float:
    """The width in pt of math ``tex`` set in ``style`` (``"D"``: display)."""
    return _list(_Reader(_tokens(tex)).group(), style)[2]


def row_height(tex: str) -> float:
    """The vertical space, in pt, one row of an ``align*`` takes: a baseline
    apart from its neighbour, or more when it is tall, plus ``\\jot``."""
    h, d = box(tex)
    return max(BASELINE, h + d + _LINESKIP) + _JOT
