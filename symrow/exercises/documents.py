r"""A variant's sheet, worked solution and answer key, in Markdown and LaTeX, en and ja.

* the **sheet** states the task: the given matrices and what to compute, and
  how to write the answers so that ``symrow check`` reads them (a line
  ``Student: ID``, each result as ``S = \begin{bmatrix} … \end{bmatrix}``);
* the **key** writes each step as ``S = QK^{T} = [numbers]``, starting with the
  student's line: the key of a variant checks as "holds" against it;
* the **solution** is symrow's own derivation of the variant
  (:func:`symrow.explain`, or :func:`symrow.backward` for a backward pass,
  with the variant's numbers), followed by the key's numbers.

Numbers are printed as a student writes them: integers, fractions, and
exponentials as ``e^{1/\sqrt{2}}``.

>>> import sympy
>>> number_tex(sympy.exp(sympy.sqrt(2) / 2) / (1 + sympy.exp(sympy.sqrt(2))))
'\\frac{e^{1/\\sqrt{2}}}{1 + e^{\\sqrt{2}}}'
>>> matrix_tex(sympy.Matrix([[1, -2], [sympy.Rational(1, 2), 0]]))
'\\begin{bmatrix} 1 & -2 \\\\ \\dfrac{1}{2} & 0 \\end{bmatrix}'
"""

from __future__ import annotations

import functools
import re

import sympy
from sympy.printing.latex import LatexPrinter

from ..render.document import preamble, tex_escape

__all__ = ["number_tex", "matrix_tex", "sheet", "key", "solution", "booklet", "WORDS",
           "as_document", "worked_derivation"]


class _NumberPrinter(LatexPrinter):
    """SymPy's LaTeX, with ``e^{x}`` for exp and an exponent ``k/√d`` written so."""

    def _print_ExpBase(self, expr, exp=None):
        arg = expr.args[0]
        tex = "e^{%s}" % self._exponent(arg)
        return tex if exp is None else r"\left(%s\right)^{%s}" % (tex, exp)

    def _exponent(self, x):
        # the exponents are exact already; nsimplify (a PSLQ search each) only for a float
        if not isinstance(x, sympy.Basic) or x.has(sympy.Float):
            x = sympy.nsimplify(x)
        for root in (2, 3, 5, 6, 7):
            k = x * sympy.sqrt(root)
            if not k.is_Rational:
                k = sympy.nsimplify(k) if k.has(sympy.Float) else sympy.radsimp(k)
            if k.is_Rational and not x.is_Rational and not (k / root).is_Integer:
                sign = "-" if k < 0 else ""
                k = abs(k)
                num = self._print(k)
                return rf"{sign}{num}/\sqrt{{{root}}}"
        return self._print(x)


_PRINTER = _NumberPrinter({"fold_short_frac": False})


def number_tex(x) -> str:
    """One entry, as LaTeX a student writes and symrow's checker reads."""
    x = sympy.sympify(x)
    # a float equals its exact value for a cache's keys (1.0 == 1): only exact ones cached
    return _cached_tex(x) if not x.has(sympy.Float) else _number_tex(x)


def _number_tex(x) -> str:
    if x.has(sympy.exp) or x.has(sympy.E):
        x = sympy.factor_terms(sympy.together(x))
    return _PRINTER.doprint(x)


#: a variant's entries are printed in its sheet, key, solution and booklet, in each
#: language: the same numbers, written once
_cached_tex = functools.lru_cache(maxsize=8192)(_number_tex)


def matrix_tex(m) -> str:
    """A matrix of numbers as ``bmatrix``; a fraction in it is set in display style."""
    m = sympy.Matrix(m)
    rows = [" & ".join(_display(number_tex(x)) for x in m.row(i)) for i in range(m.rows)]
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


#: the words of the documents, by language
def _display(tex: str) -> str:
    """An entry that is a fraction (or minus one) in display style, as its neighbours."""
    for lead in ("\\frac", "- \\frac"):
        if tex.startswith(lead):
            return lead.replace("\\frac", "\\dfrac") + tex[len(lead):]
    return tex


WORDS = {
    "en": {
        "sheet": "Exercise sheet", "solution": "Worked solution", "key": "Answer key",
        "student": "Student", "given": "You are given",
        "task": "Compute, by hand:",
        "how": ("Write your answers as below, so that they can be checked: first a line "
                "`Student: {id}`, then each result as a whole matrix, e.g. "
                "`$$S = \\begin{{bmatrix}} 1 & 0 \\\\ 2 & 1 \\end{{bmatrix}}$$`. "
                "Keep fractions and exponentials exact (`\\frac{{1}}{{2}}`, "
                "`e^{{\\frac{{1}}{{\\sqrt{{2}}}}}}`); you may show your working on the "
                "way, `S = QK^T = ...`."),
        "upstream": "The upstream gradient of the loss L is given: {name}.",
        "forward": "The forward pass computes",
        "numbers": "The numbers", "variant": "variant",
        "derivation": "symrow's derivation of this variant",
        "booklet": "All variants, with their keys",
        "points": "points",
        "entry": "entry ({i}, {j})",
        "numbers_lead": "Each step with this variant's numbers:",
    },
    "ja": {
        "sheet": "演習問題", "solution": "解答と解説", "key": "解答",
        "student": "学籍番号", "given": "次の行列が与えられています",
        "task": "手計算で次を求めなさい：",
        "how": ("採点できるように、解答は次の形で書いてください。最初の行に "
                "`Student: {id}`、続いて各結果を行列ごと、例えば "
                "`$$S = \\begin{{bmatrix}} 1 & 0 \\\\ 2 & 1 \\end{{bmatrix}}$$` のように。"
                "分数や指数は正確な形のままにしてください（`\\frac{{1}}{{2}}`、"
                "`e^{{\\frac{{1}}{{\\sqrt{{2}}}}}}`）。途中の式 `S = QK^T = ...` を書いても"
                "かまいません。"),
        "upstream": "損失 L の上流からの勾配 {name} が与えられています。",
        "forward": "順伝播は次を計算します",
        "numbers": "数値", "variant": "バリアント",
        "derivation": "このバリアントに対する symrow の導出",
        "booklet": "全バリアントと解答",
        "points": "点",
        "entry": "({i}, {j}) 成分",
        "numbers_lead": "各段階をこのバリアントの数値で書くと次のとおり。",
    },
}


def _words(lang: str) -> dict:
    return WORDS.get(lang, WORDS["en"])


def _title(spec, lang: str) -> str:
    return spec.title.get(lang) or spec.title["en"]


def _given(spec, values) -> list[str]:
    return [f"{name} = {matrix_tex(values[name])}" for name in spec.given]


def _steps(spec, values, *, answers: bool) -> list[str]:
    out = []
    for step in spec.steps:
        line = f"{step.name} = {step.rule}"
        if answers:
            line += " = " + matrix_tex(values[step.name])
        out.append(line)
    return out


# -- Markdown ------------------------------------------------------------------------------

def _md_display(lines) -> str:
    return "\n\n".join(f"$$\n{line}\n$$" for line in lines)


def sheet(spec, variant, lang: str = "en", fmt: str = "markdown") -> str:
    """The task for one student (``fmt``: ``markdown`` or ``latex``, a fragment)."""
    w = _words(lang)
    values = variant.truth(spec)
    head = f"{w['student']}: {variant.student}"
    given = _given(spec, values)
    tasks = [f"{s.name} = {s.rule}" for s in spec.steps]
    how = w["how"].format(id=variant.student)
    if fmt == "latex":
        return (f"\\section*{{{tex_escape(_title(spec, lang))}}}\n"
                f"\\textbf{{{tex_escape(head)}}}\\par\n"
                f"{tex_escape(w['given'])}:\n" + _tex_display(given) +
                _upstream(spec, lang, "latex") +
                f"{tex_escape(w['task'])}\n" + _tex_display(tasks) +
                f"\\par\\small {_tex_how(how)}\\par\n")
    return (f"## {_title(spec, lang)} — {w['sheet']}\n\n**{head}**\n\n{w['given']}:\n\n"
            + _md_display(given) + "\n\n" + _upstream(spec, lang, "markdown")
            + f"{w['task']}\n\n" + _md_display(tasks) + f"\n\n{how}\n")


def _upstream(spec, lang: str, fmt: str) -> str:
    if not spec.backward:
        return ""
    w = _words(lang)
    name = spec.upstream
    if fmt == "latex":
        return tex_escape(w["upstream"].split("{name}")[0]) + f"${name}$" + \
            tex_escape(w["upstream"].split("{name}")[1]) + "\\par\n"
    return w["upstream"].format(name=f"${name}$") + "\n\n"


def key(spec, variant, lang: str = "en", fmt: str = "markdown") -> str:
    """The answer key: the student's line, the given matrices, and every step with its
    numbers.  It checks as "holds" against the variant."""
    w = _words(lang)
    values = variant.truth(spec)
    lines = _given(spec, values) + _steps(spec, values, answers=True)
    if fmt == "latex":
        return (f"\\section*{{{tex_escape(_title(spec, lang))} --- {tex_escape(w['key'])}}}\n"
                f"Student: {tex_escape(variant.student)}\n" + _tex_display(lines))
    return (f"Student: {variant.student}\n\n## {_title(spec, lang)} — {w['key']}\n\n"
            + _md_display(lines) + "\n")


def worked_derivation(spec, variant):
    """symrow's own derivation of the variant: explain (or backward) with its numbers."""
    from ..derive.backward import backward
    from ..derive.explain import explain
    values = {k: v for k, v in variant.values.items() if k != spec.upstream}
    shapes = {k: tuple(spec.shapes[k]) for k in values}
    if spec.backward:
        return backward(spec.explain_formula, shapes, values=values)
    return explain(spec.explain_formula, shapes, values=values, causal=spec.causal)


def solution(spec, variant, lang: str = "en", fmt: str = "markdown", derivation=None) -> str:
    """The worked solution: symrow's derivation of the variant, then its numbers."""
    w = _words(lang)
    d = derivation if derivation is not None else worked_derivation(spec, variant)
    values = variant.truth(spec)
    numbers = _steps(spec, values, answers=True)
    if fmt == "latex":
        return (f"\\section*{{{tex_escape(_title(spec, lang))} --- "
                f"{tex_escape(w['solution'])}}}\n"
                f"{tex_escape(w['student'])}: {tex_escape(variant.student)}\\par\n"
                f"{tex_escape(w['given'])}:\n" + _tex_display(_given(spec, values))
                + _upstream(spec, lang, "latex")
                + f"\\subsection*{{{tex_escape(w['derivation'])}}}\n"
                + _demote(d.to_latex(lang)) +
                f"\\subsection*{{{tex_escape(w['numbers'])}}}\n"
                f"{tex_escape(w['numbers_lead'])}\n" + _tex_display(numbers))
    return (f"## {_title(spec, lang)} — {w['solution']}\n\n{w['student']}: {variant.student}"
            f"\n\n{w['given']}:\n\n" + _md_display(_given(spec, values)) + "\n\n"
            + _upstream(spec, lang, "markdown")
            + f"### {w['derivation']}\n\n" + _demote_md(d.to_markdown(lang))
            + f"\n### {w['numbers']}\n\n{w['numbers_lead']}\n\n" + _md_display(numbers)
            + "\n")


def _demote(tex: str) -> str:
    return (tex.replace("\\subsubsection*{", "\\paragraph*{")
            .replace("\\subsection*{", "\\subsubsection*{")
            .replace("\\section*{", "\\subsection*{"))


def _demote_md(md: str) -> str:
    return "\n".join(("#" + line) if line.startswith("#") else line
                     for line in md.splitlines()) + "\n"


# -- LaTeX ---------------------------------------------------------------------------------

_MATRIX = re.compile(r"\\begin\{bmatrix\}.*?\\end\{bmatrix\}", re.S)


def _spread(line: str) -> str:
    """A matrix of display fractions with room between its rows (on paper only: the
    Markdown a student copies keeps the plain ``\\\\``)."""
    def rows(m):
        text = m.group(0)
        # \\[len] only deepens a row's strut, which a display fraction already passes
        return text.replace(r" \\ ", r" \\ \noalign{\vskip 1.2ex} ") if r"\dfrac" in text \
            else text
    return _MATRIX.sub(rows, line)


def _tex_display(lines) -> str:
    if not lines:
        return ""
    out = []
    for k, line in enumerate(lines):
        out.append(_aligned(_spread(line)))
        if k < len(lines) - 1:
            pair = line + lines[k + 1]
            out.append(" \\\\[1.5ex]\n" if r"\dfrac" in pair else
                       " \\\\[0.6ex]\n" if "bmatrix" in pair else " \\\\\n")
    return "\\begin{align*}\n" + "".join(out) + "\n\\end{align*}\n"


def _aligned(line: str) -> str:
    left, sep, right = line.partition(" = ")
    return f"{left} &= {right}" if sep else line


def _tex_how(how: str) -> str:
    """The Markdown instructions as LaTeX: `code` as verbatim-like text."""
    out, parts = [], how.split("`")
    for k, part in enumerate(parts):
        out.append(r"\texttt{" + tex_escape(part) + "}" if k % 2 else tex_escape(part))
    return "".join(out)


def as_document(body: str, lang: str, title: str | None = None) -> str:
    """A complete LaTeX document around fragments (for :func:`symrow.render.pdf.compile_pdf`)."""
    extra = "\\usepackage{amsmath,amssymb}\n"
    head = preamble(lang)
    del extra
    pdftitle = f"\\title{{{tex_escape(title)}}}\n" if title else ""
    return head + pdftitle + "\\begin{document}\n" + body + "\\end{document}\n"


def booklet(spec, variants, lang: str = "en") -> str:
    """Every variant's sheet and key, one student a page, as one LaTeX document."""
    parts = []
    for v in variants:
        parts.append(sheet(spec, v, lang, "latex") + "\\bigskip\n\\hrule\\medskip\n"
                     + key(spec, v, lang, "latex").replace("\\section*", "\\subsection*")
                     + "\\clearpage\n")
    return as_document("".join(parts), lang)
