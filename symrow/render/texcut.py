"""Cutting printed LaTeX at its top level, for slides.

The printers of :mod:`symrow.render.latex` write each display as lines of
an ``align*``.  The slide renderer (:mod:`symrow.render.beamer`) works on
that text: it cuts a line into its cells, to reveal each with an overlay
command (which cannot span ``&``), and takes the left side of a chain to
start a continued frame with.  Nothing here measures: the lines come laid
out, with their sizes (:func:`symrow.render.layout.display_rows`).  "Top
level" means outside braces, ``\\left ... \\right`` and environments such
as matrices.

>>> split_top(r"c_{1} &= \\begin{bmatrix} a & b \\end{bmatrix}", "&")
['c_{1}', '= \\\\begin{bmatrix} a & b \\\\end{bmatrix}']
>>> strip_overlays(r"\\uncover<2->{c} & \\uncover<2->{{}= d}")
'c & {}= d'
"""

from __future__ import annotations

__all__ = ["split_top", "strip_overlays", "joined_cells"]


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
