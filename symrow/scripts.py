"""Unicode sub- and superscripts and accents, for names shown as plain text.

>>> from symrow.scripts import SUB, script
>>> script("12", SUB, "_"), script("iℓ", SUB, "_")
('₁₂', '_(iℓ)')
"""

from __future__ import annotations

__all__ = ["SUB", "SUP", "ACCENTS", "GREEK", "BOLD", "script"]

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
    """``text`` in sub/superscript characters, or ``mark(text)`` when one is missing."""
    if text == "\\prime" and mark == "^":
        return "′"
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return f"{mark}{text}" if len(text) == 1 else f"{mark}({text})"
