r"""Exports to learning systems: Moodle XML (cloze) and GIFT.

**Moodle XML**: one ``<question type="cloze">`` per student, named after the
student, whose text gives the variant's matrices (MathJax ``\( … \)``) and
one NUMERICAL blank per entry of every step, ``{1:NUMERICAL:=0.4223:0.0005}``;
an integer is exact (tolerance 0), an exponential is asked to 4 decimals.
The file is what Moodle's importer (``question/format/xml/format.php``)
reads: ``<quiz>``, ``<question type="cloze">`` with ``<name><text>`` and
``<questiontext format="html"><text>`` (in CDATA), a category first.

**GIFT** (Moodle's plain-text format, also read by other systems): one
numerical question per entry, ``::s01 S [1,2]::[html] … {#0.4223:0.0005}``;
the text is HTML (``&`` of a matrix written ``&amp;``, as in the cloze), with
GIFT's special characters ``~ = # { } : \`` escaped by a backslash.

>>> cloze_number(sympy.Integer(3)), cloze_number(sympy.Rational(1, 3))
('{1:NUMERICAL:=3:0}', '{1:NUMERICAL:=0.3333:0.0005}')
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

import sympy

from .documents import WORDS, matrix_tex

__all__ = ["moodle_xml", "gift", "cloze_number", "decimal", "TOLERANCE"]

#: the tolerance of an answer that is not a whole number (4 decimals asked)
TOLERANCE = "0.0005"


def decimal(x) -> tuple[str, str]:
    """(the answer, its tolerance) as Moodle writes numbers."""
    x = sympy.nsimplify(x) if not isinstance(x, sympy.Basic) else x
    if x.is_Integer:
        return str(int(x)), "0"
    value = float(sympy.N(x, 30))
    text = f"{value:.4f}"
    if text in ("-0.0000",):
        text = "0.0000"
    return text, TOLERANCE


def cloze_number(x, weight: int = 1) -> str:
    answer, tol = decimal(x)
    return "{%d:NUMERICAL:=%s:%s}" % (weight, answer, tol)


def _cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _html_math(tex: str) -> str:
    # MathJax reads \( ... \); the HTML around it is escaped where it must be
    return r"\(" + escape(tex) + r"\)"


def _step_table(spec, values, step) -> str:
    m = sympy.Matrix(values[step.name])
    rows = []
    for i in range(m.rows):
        cells = "".join(f"<td>{cloze_number(m[i, j])}</td>" for j in range(m.cols))
        rows.append(f"<tr>{cells}</tr>")
    return (f"<p>{_html_math(step.name + ' = ' + step.rule)}</p>"
            f"<table border=\"1\">{''.join(rows)}</table>")


def moodle_xml(spec, variants, lang: str = "en", category: str | None = None) -> str:
    """The exercise as Moodle XML: a category, then a cloze question per student."""
    w = WORDS.get(lang, WORDS["en"])
    title = spec.title.get(lang) or spec.title["en"]
    category = category or f"$course$/symrow/{title}"
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>",
           '  <question type="category">',
           f"    <category><text>{escape(category)}</text></category>",
           "  </question>"]
    for v in variants:
        values = v.truth(spec)
        given = "".join(f"<p>{_html_math(name + ' = ' + matrix_tex(values[name]))}</p>"
                        for name in spec.given)
        steps = "".join(_step_table(spec, values, s) for s in spec.steps)
        text = (f"<p><b>{escape(w['student'])}: {escape(v.student)}</b></p>"
                f"<p>{escape(w['given'])}:</p>{given}<p>{escape(w['task'])}</p>{steps}")
        name = f"{title} — {v.student}"
        out += [f'  <question type="cloze">',
                f"    <name><text>{escape(name)}</text></name>",
                f'    <questiontext format="html"><text>{_cdata(text)}</text></questiontext>',
                '    <generalfeedback format="html"><text></text></generalfeedback>',
                "    <penalty>0.1</penalty>", "    <hidden>0</hidden>",
                f"    <idnumber>{escape(v.student)}</idnumber>",
                "  </question>"]
    out.append("</quiz>")
    return "\n".join(out) + "\n"


_GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")


def _gift_escape(text: str) -> str:
    return _GIFT_SPECIAL.sub(r"\\\1", text)


def gift(spec, variants, lang: str = "en") -> str:
    """The exercise in GIFT: one numerical question per entry of every step."""
    w = WORDS.get(lang, WORDS["en"])
    title = spec.title.get(lang) or spec.title["en"]
    lines = [f"// {title}: symrow exercise, one question per entry", ""]
    for v in variants:
        values = v.truth(spec)
        given = " ".join(_html_math(f"{n} = {matrix_tex(values[n])}") for n in spec.given)
        for step in spec.steps:
            m = sympy.Matrix(values[step.name])
            for i in range(m.rows):
                for j in range(m.cols):
                    answer, tol = decimal(m[i, j])
                    name = f"{v.student} {step.name} [{i + 1},{j + 1}]"
                    entry = w["entry"].format(i=i + 1, j=j + 1)
                    text = (f"{escape(w['student'])}: {escape(v.student)}. "
                            f"{escape(w['given'])}: {given} {escape(w['task'])} "
                            f"{_html_math(step.name + ' = ' + step.rule)}, {escape(entry)}.")
                    lines.append(f"::{_gift_escape(name)}::[html]{_gift_escape(text)} "
                                 f"{{#{answer}:{tol}}}")
                    lines.append("")
    return "\n".join(lines)


del quoteattr
