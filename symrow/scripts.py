"""Unicode sub- and superscripts and accents, for names shown as plain text.

>>> from symrow.scripts import SUB, script
>>> script("12", SUB, "_"), script("iℓ", SUB, "_")
('₁₂', '_(iℓ)')
"""

from __future__ import annotations

__all__ = ["SUB", "SUP", "ACCENTS", "script"]

#: subscript digits and letters
SUB = dict(zip("0123456789aehijklmnoprstuvx+-=(),",
               "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₊₋₌₍₎,"))
#: superscript digits and letters
SUP = dict(zip("0123456789+-=()ABDEGHIJKLMNOPRTUVWabcdefghijklmnoprstuvwxyz",
               "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))
#: accents a name may carry, and the combining character that shows each in text
ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "check": "\u030c",
           "breve": "\u0306"}


def script(text: str, table: dict[str, str], mark: str) -> str:
    """``text`` in sub/superscript characters, or ``mark(text)`` when one is missing."""
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return f"{mark}{text}" if len(text) == 1 else f"{mark}({text})"
