r"""The LaTeX vocabulary the translator knows: spacing, fonts, transposes, refusals.

>>> from symrow.reader import vocab
>>> r"\intercal" in vocab.TRANSPOSE_WORDS and r"\bm" in vocab.BOLD
True
"""

SPACING = {"\\,", "\\;", "\\:", "\\!", "\\ ", "\\>", "\\quad", "\\qquad", "\\enspace",
            "\\thinspace", "\\medspace", "\\thickspace", "\\negthinspace", "\\negmedspace",
            "\\negthickspace", "\\displaystyle", "\\textstyle", "\\scriptstyle", "\\limits",
            "\\nolimits", "\\nonumber", "\\notag", "\\left.", "\\right.",
            # size switches (KaTeX and MathJax set them in math): typography only
            "\\tiny", "\\scriptsize", "\\footnotesize", "\\small", "\\normalsize",
            "\\large", "\\Large", "\\LARGE", "\\huge", "\\Huge"}
#: old-style font switches ``{\bf X}``, and the font command each is read as
OLD_FONTS = {"\\bf": "\\mathbf", "\\rm": "\\mathrm", "\\it": "\\mathit",
             "\\sf": "\\mathsf", "\\tt": "\\mathtt", "\\cal": "\\mathcal",
             "\\mit": "\\mathit"}
#: colour commands of one argument (KaTeX's \blue{...}, \red{...}): the argument stays
COLOR_MACROS = {"\\blue", "\\red", "\\green", "\\orange", "\\pink", "\\purple",
                "\\gray", "\\grey", "\\magenta", "\\cyan", "\\violet", "\\teal",
                "\\gold", "\\maroon"}
SIZES = {"\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr",
          "\\biggl", "\\biggr", "\\Biggl", "\\Biggr", "\\bigm", "\\Bigm", "\\biggm",
          "\\Biggm"}
SPACE_WITH_ARG = {"\\hspace", "\\phantom", "\\hphantom", "\\vphantom", "\\label", "\\tag"}
BOLD = {"\\boldsymbol", "\\mathbf", "\\bm", "\\vec", "\\mathbfit", "\\pmb", "\\mathbold",
         "\\overrightarrow", "\\bf", "\\symbf", "\\symbfit"}
#: accents a name may carry, by the command and the name symrow gives the accent
ACCENTS = {"\\hat": "hat", "\\widehat": "hat", "\\tilde": "tilde", "\\widetilde": "tilde",
           "\\bar": "bar", "\\overline": "bar", "\\check": "check", "\\breve": "breve"}
#: fractions, however they are set (``\over`` is read apart: it splits a group)
FRACTIONS = frozenset({"\\frac", "\\dfrac", "\\tfrac", "\\cfrac"})
#: element-wise functions written as a command, and the name symrow gives the function
#: (see symrow.derive.readings.ENTRY_FUNCTIONS); functions written as words (softmax, ReLU,
#: LayerNorm) are in :data:`symrow.reader.notation.FUNCTIONS`.  The Greek ones are
#: functions only when an argument follows them (``\sigma(X)``, not ``\sigma_{12}``)
FUNCTION_COMMANDS = {"\\exp": "exp", "\\tanh": "tanh", "\\sigma": "sigma", "\\phi": "phi",
                     "\\varphi": "varphi", "\\psi": "psi"}
FONT = {"\\mathrm", "\\mathit", "\\mathsf", "\\text", "\\textrm", "\\operatorname",
         "\\mathop", "\\textit", "\\mathnormal", "\\textnormal"}
#: superscripts read as a transpose (braces removed): ^T ^{\top} ^\mathsf{T} ^{\mathsf T} ...
TRANSPOSE_WORDS = {"T", "\\top", "\\intercal", "\\prime", "\\mathsfT", "\\mathrmT",
                    "\\textT", "\\mathitT", "\\textsfT", "\\mathbfT", "\\textrmT",
                    "\\mathttT", "\\rmT", "\\sfT", "\\operatornameT"}
#: products written with a sign (``@`` as numpy writes the matrix product)
MUL = {"\\cdot", "\\times", "*", "\\ast", "\\bullet", "@"}
DIV = {"/", "\\div"}
OPEN = {"(": ")", "[": "]", "\\lbrack": "\\rbrack", "\\lgroup": "\\rgroup"}
#: a relation met inside brackets or an argument
_INSIDE = ("a relation inside an expression: symrow checks relations between whole sides, "
           "such as a \\le b or A \\in \\mathbb{R}^{m \\times n}")
UNSUPPORTED = {
    **{rel: _INSIDE for rel in ("\\neq", "\\ne", "\\le", "\\leq", "\\ge", "\\geq",
                                "\\approx", "\\sim", "\\in", "\\mapsto", "\\to", "<", ">")},
    "\\cdots": "dots stand for a pattern: write the terms around them, as in a_1 + a_2 + "
              "\\cdots + a_n",
    "\\dots": "dots stand for a pattern: write the terms around them, as in a_1 + a_2 + "
             "\\dots + a_n",
    "\\ldots": "dots stand for a pattern: write the terms around them, as in a_1 + a_2 + "
              "\\ldots + a_n",
    "\\vdots": "\\vdots belongs in a matrix, as a row between the rows it elides",
    "\\ddots": "\\ddots belongs in a matrix, where a row of \\vdots meets a column of "
              "\\cdots",
    "\\prod": "products with \\prod are not supported; write the factors out",
    "\\int": "integrals are not supported", "\\lim": "limits are not supported",
    "\\pi": "pi is not part of these derivations",
    "|": "absolute values and norms are not supported",
    "\\|": "norms are not supported", "\\vert": "absolute values are not supported",
    "\\pm": "'\\pm' is not supported", "\\mp": "'\\mp' is not supported",
    "!": "factorials are not supported",
}
