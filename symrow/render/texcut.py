"""Cutting printed LaTeX at its top level, for slides.

The printers of :mod:`symrow.render.latex` write each display as lines of
an ``align*``.  The slide renderer (:mod:`symrow.render.beamer`) works on
that text: it cuts a line into its cells (to reveal each with an overlay
command, which cannot span ``&``), cuts a line that holds several rows,
and sets the denominator of a fraction too wide for a frame on rows of its
own.  "Top level" means outside braces, ``\\left ... \\right`` and
environments such as matrices.

>>> split_top(r"c_{1} &= \\begin{bmatrix} a & b \\end{bmatrix}", "&")
['c_{1}', '= \\\\begin{bmatrix} a & b \\\\end{bmatrix}']
>>> strip_overlays(r"\\uncover<2->{c} & \\uncover<2->{{}= d}")
'c & {}= d'
"""

from __future__ import annotations

from .mathbox import width

__all__ = ["split_top", "strip_overlays", "joined_cells", "fit_width"]


def _scan(line: str):
    """Yield (position, at top level) for each character and control
    sequence of ``line``, except braces."""
    depth = 0
    k = 0
    while k < len(line):
        if line[k] == "\\":
            j = k + 1
            while j < len(line) and line[j].isalpha():
                j += 1
            j = max(j, k + 2)
            name = line[k + 1:j]
            yield k, depth == 0
            if name in ("begin", "left"):
                depth += 1
            elif name in ("end", "right"):
                depth -= 1
            k = j
            continue
        if line[k] == "{":
            depth += 1
        elif line[k] == "}":
            depth -= 1
        else:
            yield k, depth == 0
        k += 1


def split_top(line: str, sep: str) -> list:
    """``line`` split at each ``sep`` (such as ``&``, ``\\\\\\\\`` or ``" + "``)
    that is at the top level; the parts are stripped."""
    parts, start = [], 0
    for k, top in _scan(line):
        if top and k >= start and line.startswith(sep, k):
            parts.append(line[start:k].strip())
            start = k + len(sep)
    parts.append(line[start:].strip())
    return parts


def joined_cells(line: str) -> str:
    """The math of a display line without its ``&``: each cell after the
    first starts with ``{}``, so that its ``=`` keeps its spacing."""
    return " ".join(c if k == 0 else "{}" + c for k, c in enumerate(split_top(line, "&")))


_UNCOVER = "\\uncover<"


def strip_overlays(tex: str) -> str:
    r"""The LaTeX without its ``\uncover<k->{...}`` wrappers: the math as KaTeX sees it."""
    out, k = [], 0
    while True:
        at = tex.find(_UNCOVER, k)
        if at < 0:
            out.append(tex[k:])
            return "".join(out)
        out.append(tex[k:at])
        brace = tex.index("{", at)
        end = _closing(tex, brace)
        out.append(strip_overlays(tex[brace + 1:end]))
        k = end + 1


def _closing(tex: str, brace: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``brace``."""
    depth, j = 0, brace
    while True:
        if tex[j] == "\\":
            j += 2
            continue
        if tex[j] == "{":
            depth += 1
        elif tex[j] == "}":
            depth -= 1
            if depth == 0:
                return j
        j += 1


def _fractions(line: str) -> list:
    """(start, numerator's braces, denominator's braces) of each top-level ``\\frac``."""
    out, depth, k = [], 0, 0
    while k < len(line):
        if line.startswith("\\frac{", k) and depth == 0:
            num_end = _closing(line, k + 5)
            den_end = _closing(line, num_end + 1)
            out.append((k, (k + 5, num_end), (num_end + 1, den_end)))
            k = den_end + 1
            continue
        if line[k] == "\\":
            k += 2
            continue
        if line[k] == "{":
            depth += 1
        elif line[k] == "}":
            depth -= 1
        k += 1
    return out


def _rows(terms: list, room: float) -> list:
    """Terms of a sum packed into rows at most ``room`` pt wide (in text style)."""
    rows: list = [[]]
    for term in terms:
        if rows[-1] and width(" + ".join(rows[-1] + [term]), "T") > room:
            rows.append([])
        rows[-1].append(term)
    return rows


def _stacked(rows: list) -> str:
    """Rows of a sum, one under the other, each in text style as a fraction's
    numerator or denominator is set."""
    return "\\begin{gathered}" + " \\\\ ".join(
        "\\textstyle " + ("{}+ " if k else "") + " + ".join(row) for k, row in enumerate(rows)) \
        + "\\end{gathered}"


def fit_width(line: str, room: float) -> str:
    """A display line that is wider than ``room`` pt, with the numerator and
    denominator of its widest fraction set on rows (a ``gathered``), as
    many as the rest of the line leaves room for.  A line that fits, or that
    has no such sum to break, comes back as it is.

    >>> line = r"o &= \\frac{x}{a + b + c + d} v"
    >>> fit_width(line, 300.0) == line
    True
    >>> fit_width(line, 60.0)
    'o &= \\\\frac{x}{\\\\begin{gathered}\\\\textstyle a + b \\\\\\\\ \\\\textstyle {}+ c + d\\\\end{gathered}} v'
    """
    if width(joined_cells(line)) <= room:
        return line
    fractions = _fractions(line)
    if not fractions:
        return line
    start, (num_a, num_b), (den_a, den_b) = max(
        fractions, key=lambda f: width(line[f[0]:f[2][1] + 1]))
    frac = line[start:den_b + 1]
    left = room - (width(joined_cells(line)) - width(frac))
    parts = []
    for a, b in ((num_a, num_b), (den_a, den_b)):
        body = line[a + 1:b]
        rows = _rows(split_top(body, " + "), left)
        parts.append(_stacked(rows) if len(rows) > 1 else body)
    if parts == [line[num_a + 1:num_b], line[den_a + 1:den_b]]:
        return line
    return line[:start] + "\\frac{%s}{%s}" % tuple(parts) + line[den_b + 1:]
