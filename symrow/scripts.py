"""Unicode sub- and superscripts and accents, for names shown as plain text.

>>> from symrow.scripts import SUB, script
>>> script("12", SUB, "_"), script("iℓ", SUB, "_")
('₁₂', '_(iℓ)')
"""

from __future__ import annotations

__all__ = ["SUB", "SUP", "ACCENTS", "GREEK", "BOLD", "script", "tex_text"]

import re

#: subscript digits and letters
SUB = dict(zip("0123456789aehijklmnoprstuvx+-=(),",
               "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₊₋₌₍₎,"))
#: superscript digits and letters
SUP = dict(zip("0123456789+-=()ABDEGHIJKLMNOPRTUVWabcdefghijklmnoprstuvwxyz",
               "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))
#: accents a name may carry, and the combining character that shows each in text
ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "check": "\u030c",
           "breve": "\u0306"}


#: Greek letters as LaTeX commands, and as Unicode
GREEK = dict(zip(
    ["\\" + n for n in ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota "
                        "kappa lambda mu nu xi pi rho sigma tau upsilon phi varphi chi psi "
                        "omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()],
    "αβγδϵεζηθϑικλμνξπρστυϕφχψωΓΔΘΛΞΠΣΥΦΨΩ"))
#: bold letters for row vectors: Latin and Greek lowercase
BOLD = {**{ch: chr(0x1D41A + k) for k, ch in enumerate("abcdefghijklmnopqrstuvwxyz")},
        **{cmd: chr(0x1D6C2 + k) for k, cmd in enumerate(
            "\\" + n for n in ("alpha beta gamma delta epsilon zeta eta theta iota kappa "
                                "lambda mu nu xi omicron pi rho varsigma sigma tau upsilon "
                                "phi chi psi omega").split())},
        "\\varphi": "\U0001D6D7", "\\varepsilon": "\U0001D6C6"}


def script(text: str, table: dict[str, str], mark: str) -> str:
    r"""``text`` in sub/superscript characters, or ``mark(text)`` when one is missing.

    ``text`` may be a name's LaTeX (``(\ell+1)``): it is written in Unicode first,
    and a script already in brackets is not bracketed again.

    >>> script(r"(\ell+1)", SUP, "^"), script("(2)", SUP, "^"), script(r"\ell", SUP, "^")
    ('^(ℓ+1)', '⁽²⁾', '^ℓ')
    """
    if text == "\\prime" and mark == "^":
        return "′"
    text = tex_text(text)
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    if len(text) == 1 or (text[:1], text[-1:]) in (("(", ")"), ("[", "]")):
        return f"{mark}{text}"
    return f"{mark}({text})"


#: LaTeX commands of names and indices, and their Unicode
_COMMANDS = {"\\ell": "ℓ", "\\prime": "′", "\\top": "ᵀ", "\\intercal": "ᵀ",
             "\\dots": "…", "\\ldots": "…", "\\cdots": "⋯", "\\infty": "∞",
             "\\cdot": "⋅", "\\times": "×", **GREEK}
_FONT = re.compile(r"\\(?:mathrm|operatorname|text|textrm|mathit|mathbf|boldsymbol|bm|"
                   r"mathsf|mathcal|mathbb|mathtt)\s*\{([^{}]*)\}")
_ACCENT = re.compile(r"\\(hat|tilde|bar|check|breve)\s*\{([^{}]*)\}")
_SCRIPT = re.compile(r"([_^])(?:\{([^{}]*)\}|(\\[A-Za-z]+|[^{}\\]))")


def tex_text(tex: str) -> str:
    r"""A name's or an index's LaTeX as Unicode text, for the text renderer:
    fonts dropped, Greek and ``\ell`` as letters, scripts as Unicode scripts.

    >>> tex_text(r"\left(\mathrm{head}_{1}\right)"), tex_text(r"\ell+1"), tex_text("t-1")
    ('(head₁)', 'ℓ+1', 't-1')
    >>> tex_text(r"\hat{A}") == "A\u0302"
    True
    """
    if "\\" not in tex and "{" not in tex and "_" not in tex and "^" not in tex:
        return tex
    s = re.sub(r"\\(?:left|right|big|Big|bigl|bigr|Bigl|Bigr)\b\s*", "", tex)
    s = re.sub(r"\\[,;:! ]", " ", s)
    for _ in range(4):       # nested fonts and accents, inside out
        new = _ACCENT.sub(lambda m: m[2] + ACCENTS[m[1]], _FONT.sub(r"\1", s))
        if new == s:
            break
        s = new
    s = re.sub(r"\\[A-Za-z]+", lambda m: _COMMANDS.get(m[0], m[0][1:]), s)
    for _ in range(4):
        new = _SCRIPT.sub(lambda m: script(m[2] if m[2] is not None else m[3],
                                           SUB if m[1] == "_" else SUP, m[1]), s)
        if new == s:
            break
        s = new
    return s.replace("{", "").replace("}", "")
