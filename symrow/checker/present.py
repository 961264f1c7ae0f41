r"""Reports people can look at: Markdown (web pages, Jupyter) and LaTeX.

Every step is shown as mathematics with its verdict.  A wrong step also
shows where it differs (the sizes and index values, the entry) and the
differing entry both ways, with the terms the hand derivation is missing
in green and the terms it has instead in red (``\color``, which KaTeX,
MathJax and LaTeX's xcolor all read).  An unreadable step is shown as the
text it is, with the place reading stopped.

>>> import symrow
>>> d = symrow.combine(symrow.vecseq("A", 1, 2), symrow.vecseq("B", 2, 1))
>>> md = symrow.check("c_{11} = a_{11} b_{11} + a_{12} b_{11}", d).to_markdown()
>>> print(md.splitlines()[0])
**symrow check: wrong** against combine (m=1, ℓ=2, n=1): 1 claim checked: 1 wrong
>>> r"{\color{green} a_{12} b_{21}}" in md and r"{\color{red} a_{12} b_{11}}" in md
True
"""

from __future__ import annotations

import re

from .words import message, say

__all__ = ["to_markdown", "to_latex", "to_jupyter_latex", "MISSING", "EXTRA"]

#: the colors of missing (expected) and extra (written) terms
MISSING, EXTRA = "green", "red"

_MARK = {"holds": "✓ holds", "wrong": "✗ wrong", "unreadable": "? unreadable",
         "unchecked": "– not checked", "defines": "≔ defines"}
#: the verdicts as plain words (inside math, where symbols such as ✓ are not safe)
_WORD = {"holds": "holds", "wrong": "wrong", "unreadable": "unreadable",
         "unchecked": "not checked", "defines": "defines"}
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")


def _math(text: str) -> str:
    """The user's LaTeX on one line, without comments, for a display."""
    return " ".join(_COMMENT.sub("", text).split())


def _claim(step) -> str:
    symbol = step.symbol or "="
    if symbol in ("&=",):
        symbol = "="
    return f"{_math(step.left)} {symbol} {_math(step.right)}"


def _colored(color: str, term: str) -> str:
    return "{\\color{%s} %s}" % (color, term)


def _sum(terms: list[str]) -> str:
    out = ""
    for term in terms:
        stripped = term.lstrip()
        if not out:
            out = term
        elif stripped.startswith("-") or stripped.startswith("{\\color") and \
                stripped.split("}", 1)[1].lstrip().startswith("-"):
            out += " " + term
        else:
            out += " + " + term
    return out or "0"


def _entry_lines(detail: dict) -> list[tuple[str, str, str]]:
    """(label, expected, written) rows for a differing entry, terms highlighted."""
    rows = []
    for part in detail.get("parts", ()):
        for label, expected, written in _entry_lines(part):
            rows.append((f"{part['part']}" + (f", {label}" if label else ""), expected,
                         written))
    if detail.get("parts"):
        return rows
    missing, extra = detail.get("missing", []), detail.get("extra", [])
    coefficients = detail.get("coefficients", [])
    if not (missing or extra or coefficients):
        return rows
    common = detail.get("common", [])
    expected = list(common) + [_colored(MISSING, t) for t in missing]
    written = list(common) + [_colored(EXTRA, t) for t in extra]
    for c in coefficients:
        term = "" if c["term"] == "1" else " " + c["term"]
        expected.append(_colored(MISSING, f"{c['expected']}{term}"))
        written.append(_colored(EXTRA, f"{c['got']}{term}"))
    return [("", _sum(expected), _sum(written))]


def _difference_display(step) -> str | None:
    """An ``aligned`` block: the entry as it should be and as written."""
    rows = _entry_lines(step.detail or {})
    if not rows:
        return None
    lines = []
    for label, expected, written in rows:
        tag = f" ({label})" if label else ""
        lines.append("\\text{expected%s:} &\\quad %s" % (tag, expected))
        lines.append("\\text{written%s:} &\\quad %s" % (tag, written))
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"


def _where(step) -> str:
    parts = []
    if step.sizes:
        parts.append(", ".join(f"{'ℓ' if k == 'ell' else k} = {v}"
                               for k, v in step.sizes.items()))
    if step.indices:
        parts.append(", ".join(f"{k} = {v}" for k, v in step.indices.items()))
    return " and ".join(parts)


def _counter_text(detail: dict, math=lambda tex: "$" + tex + "$") -> str | None:
    """Where the two sides were evaluated and what they came to, with the values as math."""
    counter = detail.get("counterexample")
    for part in detail.get("parts", ()):
        counter = counter or part.get("counterexample")
    if not counter:
        return None
    values = list(counter.get("values", {}).items())
    shown = ", ".join(f"{k} = {v}" for k, v in values[:6])
    more = f" ({len(values)} values in the JSON report)" if len(values) > 6 else ""
    dots = ", \\ldots" if more else ""
    at = f"at {math(shown + dots)}{more}: " if shown else ""
    return f"{at}left side {counter['left']}, right side {counter['right']}"


def _md_text(text: str) -> str:
    """Running text for Markdown: characters that start emphasis or escapes, escaped."""
    return re.sub(r"([\\_*`<>\[\]])", r"\\\1", text)


def _md_code(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > 160:
        text = text[:157] + "..."
    return "`` " + text.replace("`", "'") + " ``"


def _md_step(step, lang: str = "en") -> list[str]:
    head = say("md.step", lang, index=step.index, line=step.line,
               mark=say("mark." + step.status, lang))
    if step.section:
        head += say("md.section", lang, section=step.section)
    if step.status == "unreadable":
        err = step.error or {}
        out = [head, "", _md_code(_claim(step)), "",
               f"> line {err.get('line', step.line)}, column {err.get('column', step.column)}"
               + (f", at {_md_code(err['near'])}" if err.get("near") else "")
               + f": {_md_text(message(err.get('message', step.message), lang))}"]
        return out
    out = [head, "", "$$", "\\begin{aligned}", _claim(step), "\\end{aligned}", "$$"]
    if step.status == "wrong":
        shown = step.where(lang) + message(step.message, lang)
        out += ["", f"> {_md_text(shown)}"]
        block = _difference_display(step)
        if block is not None:
            out += ["", "$$", block, "$$"]
        for hint in (step.detail or {}).get("hints", ()):
            out += ["", f"> {_md_text(say('hint', lang, text=message(hint, lang)))}"]
        if step.others:
            shown = ", ".join(f"({i}, {j})" for i, j in step.others[:8])
            more = say("others.more", lang, count=len(step.others) - 8) \
                if len(step.others) > 8 else ""
            out += ["", f"> {say('md.others', lang, shown=shown, more=more)}"]
    elif step.status in ("unchecked", "defines") and step.message:
        out += ["", f"> {_md_text(message(step.message, lang))}"]
    return out


def to_markdown(report, lang: str | None = None) -> str:
    """The report as Markdown: ``$$`` displays, one per step."""
    lang = lang or getattr(report, "lang", "en")
    lines = [say("md.title", lang, verdict=say("verdict." + report.verdict, lang),
                 against=report.against, inner=report.summary_inner(lang)), ""]
    if report.convention:
        lines += [f"> {_md_text(say('convention', lang, text=message(report.convention, lang)))}",
                  ""]
    for note in report.notes:
        lines += [f"> {message(note, lang)}", ""]
    for unread in report.unread:
        lines += [f"> {_md_text(say('not_read', lang, line=unread['line'], column=unread['column'], reason=message(unread['reason'], lang)))}",
                  ""]
    for step in report.steps:
        lines += _md_step(step, lang) + [""]
    return "\n".join(lines).rstrip() + "\n"


_TEXT_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                 "%": r"\%", "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}


_TEXT_SPECIAL.update({"ℓ": r"$\ell$", "…": r"\ldots{}", "≤": r"$\le$", "≥": r"$\ge$"})


def _tex_text(words: str) -> str:
    return "".join(_TEXT_SPECIAL.get(ch, ch) for ch in words)


def _tex_step(step) -> list[str]:
    head = (f"\\paragraph{{Step {step.index}}} line {step.line}: "
            f"{_tex_text(_WORD.get(step.status, step.status))}")
    if step.status == "unreadable":
        err = step.error or {}
        return [head, "", f"\\texttt{{{_tex_text(_math(_claim(step))[:160])}}}", "",
                _tex_text(f"line {err.get('line', step.line)}, column "
                          f"{err.get('column', step.column)}: "
                          f"{err.get('message', step.message)}")]
    out = [head, "\\begin{align*}", _claim(step), "\\end{align*}"]
    if step.status == "wrong":
        where = _where(step)
        out.append(_tex_text((f"for {where}: " if where else "") + step.message))
        block = _difference_display(step)
        if block is not None:
            out += ["\\begin{align*}", block.replace("\\begin{aligned}\n", "")
                    .replace("\n\\end{aligned}", ""), "\\end{align*}"]
        for hint in (step.detail or {}).get("hints", ()):
            out.append(_tex_text("hint: " + hint))
    elif step.status in ("unchecked", "defines") and step.message:
        out.append(_tex_text(step.message))
    return out


def to_latex(report) -> str:
    """The report as a LaTeX fragment (amsmath; ``xcolor`` for the highlights)."""
    lines = [f"\\noindent\\textbf{{symrow check: {report.verdict}}} against "
             f"{_tex_text(report.against)}: "
             f"{_tex_text(report.summary_inner('en'))}", ""]
    extra = ([f"convention: {report.convention}"] if report.convention else []) + [
        f"not read: line {u['line']}, column {u['column']}: {u['reason']}"
        for u in report.unread]
    lines += [_tex_text(text) + "\\par" for text in extra] + ([""] if extra else [])
    for step in report.steps:
        lines += _tex_step(step) + [""]
    return "\n".join(lines).rstrip() + "\n"


def to_jupyter_latex(report) -> str:
    """The ``text/latex`` form Jupyter shows (MathJax reads ``$$``): one display
    per step, the verdict beside it."""
    lines = [f"symrow check: {report.verdict}, {report.summary_inner('en')}"]
    for step in report.steps:
        mark = _MARK.get(step.status, step.status)
        if step.status == "unreadable":
            err = step.error or {}
            lines.append(f"step {step.index} (line {step.line}): {mark}: "
                         f"{err.get('message', step.message)}")
            continue
        lines.append("$$\\begin{aligned} %s &\\qquad \\text{%s} \\end{aligned}$$"
                     % (_claim(step), f"step {step.index}: {_WORD[step.status]}"))
        if step.status == "wrong":
            block = _difference_display(step)
            where = _where(step)
            lines.append((f"for {where}: " if where else "") + step.message)
            if block is not None:
                lines.append("$$" + block + "$$")
    return "\n\n".join(lines) + "\n"
