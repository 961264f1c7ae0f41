r"""Simple macros, expanded before reading: ``\newcommand``, ``\def``, ``\DeclareMathOperator``.

Lecture notes define shorthands (``\newcommand{\vq}{\boldsymbol{q}}``,
``\newcommand{\T}{^{\top}}``, ``\DeclareMathOperator{\softmax}{softmax}``).
:func:`expand` removes the definitions and writes each use out, arguments
(``#1``) included, so that both readers see plain LaTeX.  Only the simple
forms are read: ``\newcommand{\name}[n]{body}`` (also ``\renewcommand``,
``\providecommand`` and the starred forms), ``\newcommand\name{body}``,
``\def\name{body}`` and ``\DeclareMathOperator{\name}{text}``.

>>> expand(r"\newcommand{\vq}{\boldsymbol{q}} \vq_1 \cdot \vq_2")
' \\boldsymbol{q}_1 \\cdot \\boldsymbol{q}_2'
>>> expand(r"\newcommand{\ip}[2]{\langle #1, #2 \rangle} \ip{a}{b}")
' \\langle a, b \\rangle'
>>> expand(r"\DeclareMathOperator{\softmax}{softmax} \softmax(x)")
' \\operatorname{softmax}(x)'
"""

from __future__ import annotations

import re

__all__ = ["expand", "MAX_EXPANSION"]

#: the longest text an expansion may produce, and how deep macros may nest
MAX_EXPANSION = 200_000
_MAX_DEPTH = 20

_DEF = re.compile(r"\\(?:re|provide)?newcommand\*?\s*(?:\{\s*(\\[A-Za-z]+)\s*\}|(\\[A-Za-z]+))"
                  r"\s*(?:\[(\d)\])?\s*(?:\[[^\]]*\])?\s*\{")
_TEXDEF = re.compile(r"\\def\s*(\\[A-Za-z]+)\s*\{")
_OPERATOR = re.compile(r"\\DeclareMathOperator\*?\s*\{\s*(\\[A-Za-z]+)\s*\}\s*\{")


def _group(text: str, start: int) -> int | None:
    """The end (after the closing brace) of the brace group opening at ``start``."""
    depth = 0
    k = start
    while k < len(text):
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return None


def _definitions(text: str) -> tuple[str, dict]:
    macros: dict[str, tuple[int, str]] = {}
    out, k = [], 0
    while True:
        found = [m for m in (_DEF.search(text, k), _TEXDEF.search(text, k),
                             _OPERATOR.search(text, k)) if m]
        if not found:
            break
        m = min(found, key=lambda m: m.start())
        body_start = m.end() - 1
        end = _group(text, body_start)
        if end is None:
            break
        body = text[body_start + 1:end - 1]
        if m.re is _OPERATOR:
            macros[m.group(1)] = (0, r"\operatorname{%s}" % body)
        elif m.re is _TEXDEF:
            macros[m.group(1)] = (0, body)
        else:
            macros[m.group(1) or m.group(2)] = (int(m.group(3) or 0), body)
        out.append(text[k:m.start()])
        k = end
    out.append(text[k:])
    return "".join(out), macros


def _arguments(text: str, k: int, count: int) -> tuple[list[str], int] | None:
    args = []
    for _ in range(count):
        while k < len(text) and text[k] in " \t\n":
            k += 1
        if k >= len(text):
            return None
        if text[k] == "{":
            end = _group(text, k)
            if end is None:
                return None
            args.append(text[k + 1:end - 1])
            k = end
        else:
            args.append(text[k])
            k += 1
    return args, k


def expand(text: str) -> str:
    """The text with its simple macro definitions removed and their uses written out."""
    if "\\newcommand" not in text and "\\def" not in text and "\\renewcommand" not in text \
            and "\\DeclareMathOperator" not in text and "\\providecommand" not in text:
        return text
    text, macros = _definitions(text)
    if not macros:
        return text
    names = sorted(macros, key=len, reverse=True)
    pattern = re.compile("(" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z])")
    for _ in range(_MAX_DEPTH):
        out, k, changed = [], 0, False
        for m in pattern.finditer(text):
            if m.start() < k:
                continue
            count, body = macros[m.group(1)]
            got = _arguments(text, m.end(), count)
            if got is None:
                continue
            args, end = got
            for n, arg in enumerate(args, 1):
                body = body.replace(f"#{n}", arg)
            out.append(text[k:m.start()])
            out.append(body)
            k = end
            changed = True
        out.append(text[k:])
        text = "".join(out)
        if len(text) > MAX_EXPANSION:
            raise ValueError(f"expanding the macros makes the text longer than "
                             f"{MAX_EXPANSION:,} characters")
        if not changed:
            break
    return text
