r"""What of a page is mathematics: Markdown, Jupyter cells, LaTeX and Beamer.

Before the structure is read, :func:`prepare` rewrites the page into text of
*the same length* (every offset, line and column stays where it was) in
which only the mathematics a reader sees is left to read:

* Markdown (Qiita, Zenn, GitHub, Jupyter cells): a ```` ```math ```` fence
  becomes a display (``\[ ... \]``); other fenced code, inline code, HTML
  comments ``<!-- ... -->``, YAML front matter and the ``:::message`` lines
  of Zenn are blanked as prose, and so are a blockquote's ``>`` markers (a display
  inside a quote is read as a display); ``$$...$$``, ``\[...\]``, ``$...$``,
  ``$`...`$`` and bare ``\begin{align}`` stay math.  A ``$`` that opens
  no inline formula (none closes it in its paragraph) is blanked too, and
  listed: math that could not be read.
* LaTeX: ``\iffalse ... \fi`` and ``comment`` environments are blanked;
  Beamer's overlay commands (``\pause``, ``\only<2>``, ``\uncover``,
  ``\visible``, ``\onslide``, ``\alert``) and colour commands leave only
  what they show.

>>> page = prepare("# Title\n<!-- $x = 1$ -->\n```math\nC = AB\n```\n")
>>> page.text.splitlines()
['# Title', '                ', '\\[     ', 'C = AB', '\\] ']
>>> len(page.text) == len(page.original)
True
>>> prepare("costs $5 today").unread
[(6, 7, "a lone '$' that no '$' closes in its paragraph: not read as math")]
"""

from __future__ import annotations

import dataclasses
import re

__all__ = ["Page", "prepare", "is_markdown", "notebook_markdown"]


@dataclasses.dataclass
class Page:
    """The page to read (``text``), the page as written (``original``), and
    the pieces of math that were not read: ``(pos, end, reason)``."""

    text: str
    original: str
    unread: list = dataclasses.field(default_factory=list)
    notes: list = dataclasses.field(default_factory=list)     # (pos, message)
    markdown: bool = False


def _blank(chars: list, start: int, end: int) -> None:
    """Blank ``chars[start:end]``, keeping line breaks."""
    for k in range(max(start, 0), min(end, len(chars))):
        if chars[k] != "\n":
            chars[k] = " "


def _put(chars: list, start: int, text: str) -> None:
    for k, ch in enumerate(text):
        chars[start + k] = ch


_LATEX_DOC = re.compile(r"\\documentclass|\\begin\s*\{document\}")
_MD_SIGNS = re.compile(r"^(?:#{1,6}\s|```|~~~|:::|---\s*$|\$\$\s*$|[*-]\s|\d+\.\s|>\s)"
                       r"|<!--|\$`", re.MULTILINE)


_LATEX_SIGNS = re.compile(r"\\(?:sub)*section\*?\s*\{|\\begin\s*\{(?:frame|itemize|enumerate)\}")


def is_markdown(text: str) -> bool:
    """Markdown, unless the text is a LaTeX document (``\\documentclass``), or a
    fragment with LaTeX sections or frames and no sign of Markdown."""
    if _LATEX_DOC.search(text):
        return False
    return bool(_MD_SIGNS.search(text)) or not _LATEX_SIGNS.search(text)


# -- LaTeX and Beamer ---------------------------------------------------------------------

#: Beamer commands that only choose slides: the command and its overlay go, its
#: argument stays (and is read)
_OVERLAY_CMDS = ("only", "uncover", "visible", "invisible", "onslide", "alert", "structure",
                 "textbf", "textit", "emph", "item", "action", "temporal")
_OVERLAY = re.compile(r"\\(" + "|".join(_OVERLAY_CMDS) + r")(?![A-Za-z])(\s*<[^<>{}\n]*>)?")
_OVERLAY_SPEC = re.compile(r"(\\begin\s*\{[A-Za-z*]+\}\s*)(<[^<>{}\n]*>)")
_PAUSE = re.compile(r"\\pause(?![A-Za-z])(\s*\[[^\]\n]*\])?")
_COLOR = re.compile(r"\\(?:textcolor|colorbox)\s*\{[A-Za-z!0-9.]*\}|\\color\s*\{[A-Za-z!0-9.]*\}")
_IFFALSE = re.compile(r"\\iffalse(?![A-Za-z]).*?\\fi(?![A-Za-z])", re.DOTALL)
_COMMENT_ENV = re.compile(r"\\begin\s*\{comment\}.*?\\end\s*\{comment\}", re.DOTALL)


def _unbrace(text: str, chars: list, pos: int) -> None:
    """The braces of an overlay's argument go when it holds equations (``\\onslide<3->{O
    &= PV}`` inside an ``align``): a group would hide its ``=`` and ``&``."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    if pos >= len(text) or text[pos] != "{":
        return
    depth = 0
    for k in range(pos, len(text)):
        if text[k] == "\\":
            continue
        if text[k] == "{" and text[k - 1] != "\\":
            depth += 1
        elif text[k] == "}" and text[k - 1] != "\\":
            depth -= 1
            if depth == 0:
                inner = text[pos + 1:k]
                if re.search(r"[=&<>]|\\(?:le|ge|approx|to)(?![A-Za-z])|\\\\", inner):
                    chars[pos] = chars[k] = " "
                return


def _latex_pass(text: str, chars: list) -> None:
    for pattern in (_IFFALSE, _COMMENT_ENV):
        for m in pattern.finditer(text):
            _blank(chars, m.start(), m.end())
    for m in _OVERLAY.finditer(text):
        if m.group(1) in ("only", "uncover", "visible", "invisible", "onslide", "alert",
                          "structure", "action", "temporal"):
            _blank(chars, m.start(), m.end())
            _unbrace(text, chars, m.end())
        elif m.group(2):
            _blank(chars, m.start(2), m.end(2))   # \item<2->, \textbf<3>{...}
    for m in _OVERLAY_SPEC.finditer(text):
        _blank(chars, m.start(2), m.end(2))
    for pattern in (_PAUSE, _COLOR):
        for m in pattern.finditer(text):
            _blank(chars, m.start(), m.end())


# -- Markdown ---------------------------------------------------------------------------

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FRONT = re.compile(r"\A(?:\ufeff)?---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_ZENN = re.compile(r"^[ \t]*:::+[^\n]*$", re.MULTILINE)
#: a Liquid tag of a Jekyll or Hugo page ({% link a.md %}, {% raw %}): the site's template,
#: not mathematics (in LaTeX, {% would open a group and comment out the rest of the line)
_LIQUID = re.compile(r"(?<!\\)\{%[^\n]*?%\}")
_RELATION = re.compile(r"=|\\(?:le|ge|leq|geq|approx|in|to|mapsto)(?![A-Za-z])|<|>")
_MATH_LANGS = {"math", "latex-math", "katex", "mathjax"}
_TEX_LANGS = {"latex", "tex"}


def _fences(text: str, chars: list, page: Page) -> list:
    """Fenced blocks: ```math becomes a display; other code is blanked.  Returns the
    (start, end) spans of the blanked code (where no $ is looked for)."""
    spans = []
    pos = 0
    while True:
        m = _FENCE.search(text, pos)
        if m is None:
            return spans
        fence, lang = m.group(2), m.group(3).lower()
        close = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) +
                           r",}[ \t]*$", re.MULTILINE)
        end_m = close.search(text, m.end() + 1) if m.end() < len(text) else None
        body_start = min(m.end() + 1, len(text))
        body_end = end_m.start() if end_m else len(text)
        block_end = end_m.end() if end_m else len(text)
        if lang in _MATH_LANGS:
            _blank(chars, m.start(), m.end())
            _put(chars, m.start(), "\\[")
            if end_m:
                _blank(chars, end_m.start(), end_m.end())
                _put(chars, end_m.start(), "\\]")
            else:
                page.notes.append((m.start(), "a ```math fence is never closed: read to the "
                                              "end of the page"))
        else:
            _blank(chars, m.start(), block_end)
            spans.append((m.start(), block_end))
            if lang in _TEX_LANGS and _RELATION.search(text, body_start, body_end):
                page.notes.append((m.start(), f"a ```{lang} code block is shown as code, "
                                              f"not as mathematics: not read"))
        pos = block_end if block_end > m.end() else m.end() + 1
        if pos >= len(text):
            return spans


def _inline_code(text: str, chars: list, skip: list) -> None:
    """Blank `code` spans (not $`...`$, which is math: its backticks go)."""
    k = 0
    n = len(text)
    while k < n:
        if any(a <= k < b for a, b in skip):
            k = next(b for a, b in skip if a <= k < b)
            continue
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch != "`":
            k += 1
            continue
        run = 1
        while k + run < n and text[k + run] == "`":
            run += 1
        ticks = "`" * run
        close = text.find(ticks, k + run)
        blank_line = text.find("\n\n", k + run)
        if close == -1 or (blank_line != -1 and blank_line < close):
            k += run
            continue
        if k > 0 and text[k - 1] == "$" and close + run < n and text[close + run] == "$":
            _blank(chars, k, k + run)              # $`x = 1`$: GitLab / GitHub math
            _blank(chars, close, close + run)
        else:
            _blank(chars, k, close + run)
        k = close + run


def _dollars(chars: list, page: Page) -> None:
    """Blank a ``$`` that no ``$`` closes within its paragraph, and list it."""
    text = "".join(chars)
    k, n = 0, len(text)
    display = None
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch != "$":
            k += 1
            continue
        if text.startswith("$$", k):
            if display is None:
                display = k
            else:
                display = None
            k += 2
            continue
        if display is not None:
            k += 1
            continue
        stop = text.find("\n\n", k)
        stop = n if stop == -1 else stop
        j = k + 1
        close = -1
        while j < stop:
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "$":
                close = j
                break
            j += 1
        if close == -1 or text.startswith("$$", close):
            chars[k] = " "
            page.unread.append((k, k + 1, "a lone '$' that no '$' closes in its paragraph: "
                                          "not read as math"))
            k += 1
            continue
        k = close + 1
    if display is not None:
        page.unread.append((display, display + 2, "a '$$' display that is never closed: "
                                                  "not read"))
        _blank(chars, display, n)


_QUOTE = re.compile(r"^ {0,3}(?:>[ \t]?)+", re.MULTILINE)


def _markdown_pass(text: str, chars: list, page: Page) -> None:
    m = _FRONT.match(text)
    if m:
        _blank(chars, m.start(), m.end())
    for m in _COMMENT.finditer(text):
        _blank(chars, m.start(), m.end())
    # a blockquote's markers are Markdown, not mathematics: in ``> $$`` / ``> w = f(x, y)``
    # / ``> $$`` the '>' of each line was read as a relation inside the display
    for m in _QUOTE.finditer("".join(chars)):
        _blank(chars, m.start(), m.end())
    masked = "".join(chars)
    skip = _fences(masked, chars, page)
    for m in _ZENN.finditer(masked):
        if not any(a <= m.start() < b for a, b in skip):
            _blank(chars, m.start(), m.end())
    for m in _LIQUID.finditer(masked):
        if not any(a <= m.start() < b for a, b in skip):
            _blank(chars, m.start(), m.end())
    if not re.search(r"``[^`\n]+''", text):      # LaTeX's ``quotes'' are not code
        _inline_code("".join(chars), chars, skip)
    _dollars(chars, page)
    # blogs that run Markdown before MathJax escape the subscript: a\_{ij}
    masked = "".join(chars)
    for m in re.finditer(r"\\_(?=[{\w])", masked):
        chars[m.start()] = " "


def prepare(text: str, markdown: bool | None = None) -> Page:
    """The page with only its mathematics left to read (same length, same lines)."""
    if markdown is None:
        markdown = is_markdown(text)
    page = Page(text, text, markdown=markdown)
    chars = list(text)
    if markdown:
        _markdown_pass(text, chars, page)
    _latex_pass("".join(chars), chars)
    page.text = "".join(chars)
    return page


def notebook_markdown(data: str) -> tuple[str, list]:
    """The Markdown cells of a Jupyter notebook (its JSON text), joined by blank lines,
    and the line each cell starts on: ``(text, [(cell number, first line), ...])``.

    >>> import json
    >>> nb = {"cells": [{"cell_type": "markdown", "source": ["$C = AB$\\n", "ok"]},
    ...                 {"cell_type": "code", "source": "x = 1"},
    ...                 {"cell_type": "markdown", "source": "$$c_{11} = 1$$"}]}
    >>> notebook_markdown(json.dumps(nb))
    ('$C = AB$\\nok\\n\\n$$c_{11} = 1$$\\n', [(1, 1), (3, 4)])
    """
    import json
    from ..errors import ParseError
    try:
        nb = json.loads(data)
        cells = nb["cells"]
        if not isinstance(cells, list):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise ParseError("this is not a Jupyter notebook: no list of cells in its JSON",
                         line=1, column=1, near=data[:20]) from None
    parts, starts = [], []
    line = 1
    for k, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(str(s) for s in source)
        source = str(source).rstrip("\n") + "\n"
        starts.append((k, line))
        parts.append(source)
        line += source.count("\n") + 1
    return "\n".join(parts), starts
