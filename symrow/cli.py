"""The ``symrow`` command: argument parsing -> public API -> output.

No logic of its own lives here: every subcommand builds a derivation (or
the handout) with the public API and prints one of its output formats.

Exit codes: 0 success; 2 usage or input error (one line on stderr, no
traceback); ``check`` also returns 1 when a step is wrong.  A bug inside
symrow is reported as one line too, with exit code 70; set
``SYMROW_DEBUG=1`` to see its traceback.

Only what a command uses is imported: ``--help`` loads no SymPy (the parser
is built from the presets' records, :mod:`symrow.derive.catalog`), and
``combine`` never loads the checker or TeX.

>>> from symrow.cli import build_parser
>>> args = build_parser().parse_args(["combine", "--a", "2x3", "--b", "3x4"])
>>> args.a, args.b
((2, 3), (3, 4))
>>> resolve_format(build_parser().parse_args(["handout", "-o", "h.pdf"]))
'pdf'
>>> resolve_format(build_parser().parse_args(["combine", "--slides", "-o", "c.tex"]))
'beamer'
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
from pathlib import Path
from typing import Callable, Sequence

from .errors import OptionError, SymrowError

__all__ = ["main", "build_parser", "build_derivation", "render", "resolve_format"]

FORMATS = ("latex", "markdown", "text", "tex", "pdf", "beamer")
#: the formats of a check report
CHECK_FORMATS = ("text", "json", "markdown", "latex")

#: other names --format accepts for a format
FORMAT_ALIASES = {"md": "markdown"}

#: the format an output file's suffix asks for, when --format is not given
SUFFIX_FORMATS = {".pdf": "pdf", ".tex": "tex", ".md": "markdown", ".markdown": "markdown",
                  ".txt": "text"}

#: the small case the bare ``symrow`` command shows
DEFAULT_ATTENTION = {"m": 2, "n": 2, "d": 2}

#: exit code for a bug inside symrow (EX_SOFTWARE)
EXIT_INTERNAL = 70

EPILOG = """\
examples:
  symrow                                         attention for a small case, as text
  symrow combine --a 2x3 --b 3x2                 C = AB read as combine, narrated
  symrow match --general --format latex          general C = AB^T as a LaTeX fragment
  symrow attention --m 2 --n 3 --d 2 --format markdown
                                                 softmax(QK^T/sqrt(d))V for Zenn, Qiita, Jupyter
  symrow attention --general --causal --lang ja  general causal attention, in Japanese
  symrow explain "\\hat{A} X W" --shape "\\hat{A}=4x4" --shape X=4x3 --shape W=3x2
                                                 any product formula, read row by row
  symrow explain "X W_Q (X W_K)^T" --general --lang ja
                                                 the general form, with m, ell, n
  symrow combine --general --format pdf -o c.pdf a compiled PDF (pdflatex)
  symrow handout --lang ja -o handout.pdf        the full handout (lualatex + luatexja)
  symrow attention --format pdf --slides -o a.pdf
                                                 slides (Beamer), compiled
  symrow handout --slides --lang ja -o slides.pdf
                                                 the handout's path as slides
  symrow check mine.tex --against match --a 2x2 --b 3x2
                                                 check a hand derivation step by step
  symrow check notes.tex --against combine --general
                                                 ... written with general sizes m, ell, n
  symrow check ex.tex --against combine --a 2x2 --b 2x2 --values 'A=1,2;3,4'
                                                 ... a worked example with numbers
  symrow check handout.tex --against handout     symrow's own handout, section by section
  symrow check grad.tex --against "Y = XW" --backward          a student's gradients
  symrow figure attention -o att.svg             a picture: the distribution, o_i in the hull of V
  symrow attention --m 3 --n 3 --d 2 --figures --slides -o att.pdf
                                                 slides with a picture after each reading

formats: text (Unicode, for a terminal; the default), latex (a fragment),
markdown or md ($$ blocks, for KaTeX sites and Jupyter), tex (a complete
document), pdf (compiled), beamer (slides: a complete Beamer document).  With
-o FILE and no --format, the suffix decides: .pdf .tex .md .markdown .txt (no
suffix: text; another suffix is refused).  --slides turns pdf into compiled
slides and tex into the slides' source.  Files are written atomically:
complete, or not at all.  Quote a formula ("X W"): the shell splits it at spaces.

exit codes: 0 success, 1 check found a wrong step, 2 usage or input error
(check: also a step it could not read, or nothing it could check).
"""

BACKWARD_EPILOG = """\
examples:
  symrow backward "XW" --shape X=3x2 --shape W=2x4         dX is a match, dW a sum of outer products
  symrow backward "\\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d}}\\right)V" --general --lang ja
  symrow backward "H = \\mathrm{ReLU}(XW_1 + b_1); Y = HW_2" --general --wrt W_1 b_1
  symrow backward "XX^T" --shape X=3x2 --notation partial   X is used twice: its gradient adds them

The loss L is any number computed from the result C; the upstream gradient dL/dC is
given by its entries. Every gradient has the shape of its variable.
"""

#: the formats of ``symrow figure`` (see symrow.figures.output)
FIGURE_FORMATS = ("svg", "tex", "tikz", "pdf", "png")

FIGURE_EPILOG = """\
examples:
  symrow figure attention --values "Q=1,0;0,1;1,1" --values "K=1,0;0,1;-1,-1" \\
      --values "V=3,1;1,3;-1,-1" -o att.svg      the distribution, and o_i in the hull of V
  symrow figure attention -o att.tex             the same as a LaTeX document (TikZ)
  symrow figure attention --causal -o causal.pdf the masked keys greyed out
  symrow figure combine --values "A=1,2;3,1" --values "B=1,1;2,-1" -o c.svg
  symrow figure "XW + b" --values "X=1,2;3,1" --values "W=1,0;0,1" --values "b=1,-1"
  symrow figure match --of C -o m.png            a PNG, for a site that takes uploads
  symrow figure "XW" --backward --of "\\bar{X}" --values "X=1,2;3,1" --values "W=1,0;1,1"

Points with more than two coordinates are drawn in two that you choose (--axes 1,3);
the picture says which.  Operands without --values get example numbers, printed on
stderr in --values form so that you can change them.
"""

EXPLAIN_EPILOG = """\
examples:
  symrow explain "XW" --shape X=4x3 --shape W=3x2          a linear layer: one combine
  symrow explain "\\hat{A} X W" --shape "\\hat{A}=4x4" --shape X=4x3 --shape W=3x2
                                                           a graph convolution: two combines
  symrow explain "X W_Q (X W_K)^T" --general --lang ja     a match of two combined sequences
  symrow explain "Q = X W_Q; K = X W_K; V = X W_V; O = softmax(QK^T/\\sqrt{d}) V" \\
      --shape X=3x4 --shape W_Q=4x2 --shape W_K=4x2 --shape W_V=4x2
                                                           self-attention with projections
  symrow explain "\\phi(Q)(\\phi(K)^T V)" --general        linear attention
  symrow explain "\\operatorname{ReLU}(X W_1) W_2" --shape X=2x3 --shape W_1=3x4 \\
      --shape W_2=4x2 --format pdf -o mlp.pdf              an MLP, as a PDF
  symrow explain "AB" --values "A=1,2;3,4" --values "B=0,1;1,0"
                                                           with numbers

The formula is LaTeX: names are capital letters (W_Q, \\hat{A}); products are
juxtaposition and associate to the left unless parenthesised; transposes are
^T, ^\\top and friends; scalings are numbers, sizes and \\sqrt{d}; softmax and
element-wise functions (\\exp, \\operatorname{ReLU}, \\sigma, \\tanh, \\phi) are
read; several definitions are separated by ';'.  Shapes not given are
inferred from the products; with --general (or no shape at all) the general
form is derived.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line on stderr and exit 2."""

    #: the command line being parsed (set by :func:`main`), for the hints of errors
    words: Sequence[str] = ()

    def error(self, message: str):  # noqa: D401 - argparse API
        # argparse shows a value it refuses as its repr: each backslash doubled
        message = re.sub(r"(invalid choice: )('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")",
                         lambda m: m.group(1) + _typed(ast.literal_eval(m.group(2))), message)
        if message.startswith("argument COMMAND: invalid choice"):
            message += _formula_hint(self.words, None)
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


#: a file name a check reads, which is not part of a formula
_FILE_NAME = re.compile(r".*\.(tex|md|markdown|ipynb|txt)", re.I)


def _formula_words(words: Sequence[str]) -> list:
    """The words that look like part of a formula: no option, no file name, and a capital
    letter, a backslash or an operator of a formula (``X``, ``W_Q``, ``\\hat{A}``, ``=``)."""
    return [w for w in words if not w.startswith("-") and not _FILE_NAME.fullmatch(w)
            and re.search(r"[A-Z\\^_{}()=+*/;]", w)]


def _formula_hint(words: Sequence[str], args) -> str:
    """"; quote the formula: ..." when the words that were not understood look like a
    formula typed without quotes (so the shell split it), else ""."""
    found = _formula_words(words)
    if not found:
        return ""
    command = getattr(args, "command", None)
    if command in ("explain", "backward") and getattr(args, "formula", None):
        return f'; quote the formula: symrow {command} "{" ".join([args.formula, *found])}"'
    if command == "check" and getattr(args, "against", None):
        return f'; quote the formula: --against "{" ".join([args.against, *found])}"'
    return f'; to read a formula, quote it: symrow explain "{" ".join(found)}"'


# -- argument types -------------------------------------------------------------

def _typed(text: str) -> str:
    """What the user typed, in quotes, as typed: ``repr`` would double every backslash of
    ``\\hat{A}`` and so show something the user never wrote."""
    return f"'{text}'" if "'" not in text else f'"{text}"'


def _shape(text: str) -> tuple:
    """``2x3`` -> (2, 3); ``mxell`` is not accepted: use --general."""
    m = re.fullmatch(r"\s*(\d+)\s*[x×,]\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"shape must look like 2x3, got {_typed(text)} (for general sizes, use --general)")
    return int(m.group(1)), int(m.group(2))


def _named_shape(text: str) -> tuple:
    """``X=4x3`` -> ("X", (4, 3)); ``X=nxd`` -> ("X", ("n", "d"))."""
    name, sep, shape = text.rpartition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(
            f"a shape looks like NAME=RxC, e.g. X=4x3; got {_typed(text)}")
    m = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*[x×,]\s*([A-Za-z0-9_]+)\s*", shape)
    if not m:
        raise argparse.ArgumentTypeError(
            f"a shape looks like NAME=RxC, e.g. X=4x3; got {_typed(text)}")
    sizes = tuple(int(v) if v.isdigit() else v for v in m.groups())
    return name.strip(), sizes


def _named_values(text: str) -> tuple:
    """``A=1,2;3,4`` -> ("A", [[1, 2], [3, 4]]) (rows separated by ';')."""
    name, sep, body = text.partition("=")
    if not sep or not name.strip() or not body.strip():
        raise argparse.ArgumentTypeError(f"values take NAME=ROWS such as 'A=1,2;3,4'; got "
                                         f"{_typed(text)}")
    rows = []
    for row in body.split(";"):
        cells = [c.strip() for c in row.split(",")]
        if not all(re.fullmatch(r"-?\d+(\.\d+)?(/\d+)?", c) for c in cells):
            raise argparse.ArgumentTypeError(
                f"{_typed(row.strip())} in {_typed(text)} is not a row of numbers such as 1,2 "
                f"(numbers may be 2, -1.5 or 1/3)")
        rows.append(cells)
    if len({len(r) for r in rows}) != 1:
        raise argparse.ArgumentTypeError(f"the rows of {name.strip()} have different lengths")
    import sympy
    return name.strip(), [[sympy.Rational(c) for c in r] for r in rows]


def _size(text: str):
    """``3`` -> 3; ``m`` -> ``"m"`` (a general size); validated by symrow itself."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9]{0,15}(_[A-Za-z0-9]{1,8})?", text):
        return text
    raise argparse.ArgumentTypeError(
        f"a size is a positive integer or a name such as m; got {_typed(text)}")


def _format(text: str) -> str:
    """``md`` -> ``markdown``; argparse then checks the name against FORMATS."""
    return FORMAT_ALIASES.get(text, text)


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {_typed(text)}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of seconds; got {_typed(text)}")
    return value


# -- the parser -------------------------------------------------------------------

def _add_output(p: argparse.ArgumentParser) -> None:
    from .narrate.languages import LANGUAGES
    p.add_argument("--format", "-f", type=_format, choices=FORMATS, default=None,
                   help="output format; md is short for markdown (default: text, or from "
                        "the suffix of -o)")
    p.add_argument("--lang", choices=tuple(LANGUAGES), default="en",
                   help="narration language: " + ", ".join(
                       f"{code} ({language.name})" for code, language in LANGUAGES.items())
                   + " (default: en)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (atomically) instead of standard output")
    p.add_argument("--slides", action="store_true",
                   help="slides (Beamer) instead of a document: with --format pdf or "
                        "-o FILE.pdf, the compiled deck; with --format tex, its source "
                        "(the same as --format beamer)")
    _add_deck(p)


#: the title frame's fields: option -> help
DECK_FIELDS = {
    "title": "the slides' title (default: the derivation's own)",
    "author": "the lecturer's name, under the title",
    "date": "the date of the lecture, as it should read (default: none)",
    "course": "the course (or institution), on the line under the author",
}


def _add_deck(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("the title frame (with --slides; plain text, escaped for LaTeX)")
    for name, text in DECK_FIELDS.items():
        g.add_argument("--" + name, metavar="TEXT", default=None, help=text)


def deck_options(args) -> dict:
    """The title frame's fields given on the command line, as LaTeX; refused without
    --slides (only slides have a title frame)."""
    from .render.document import tex_escape
    given = {name: getattr(args, name, None) for name in DECK_FIELDS}
    given = {name: value for name, value in given.items() if value is not None}
    if given and not getattr(args, "slides", False):
        raise OptionError(f"--{next(iter(given))} is for the title frame of slides; it goes "
                          f"with --slides")
    return {name: tex_escape(value) for name, value in given.items()}


def _add_layout(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("layout (how much is written out, and how wide)")
    g.add_argument("--expand", choices=("all", "one", "none"), default=None,
                   help="written-out expansions (o_1, o_2, ...; entries shown one a line): "
                        "all of them, one in full and the others named, or none (default: "
                        "one when a display would repeat one pattern more than 4 times, "
                        "else all)")
    g.add_argument("--width", default=None, metavar="W",
                   help="widest display line: ems of the math font (e.g. 18), characters "
                        "(e.g. 60ch) or 'phone' (a 390 px column at 16 px text); long "
                        "displays break at '=' and '+' to fit (default: 34 em, a 720 px "
                        "column; text: 100 characters)")


def _axes(text: str) -> tuple:
    """``1,3`` -> (1, 3): the two coordinates a picture draws."""
    m = re.fullmatch(r"\s*(\d+)\s*[,x]\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"--axes takes two coordinates such as 1,2; got "
                                         f"{_typed(text)}")
    return int(m.group(1)), int(m.group(2))


def _add_figures(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("pictures (each reading drawn as what it does to the points)")
    g.add_argument("--figures", nargs="?", const="svg", default=None, choices=("svg", "png"),
                   help="put a picture after each reading, drawn from the numbers (--values, "
                        "or example numbers): TikZ in LaTeX, PDF and slides (one overlay per "
                        "step), an image beside a Markdown page (-o PAGE.md; svg, the "
                        "default, or png, made from the PDF by pdftoppm)")
    g.add_argument("--axes", type=_axes, default=None, metavar="I,J",
                   help="the two coordinates drawn of points with more than two (e.g. 1,3); "
                        "without it such a picture is refused")


def _add_shapes(p, *, extra: str = "") -> None:
    p.add_argument("--shape", action="append", type=_named_shape, default=[], metavar="NAME=RxC",
                   help="the shape of a matrix of the formula, e.g. X=4x3 or X=nxd; repeat "
                        "for each (others are inferred from the products)" + extra)


def _add_preset_options(p: argparse.ArgumentParser, preset, seen: set) -> None:
    """The flags of one preset: its shape flags and ``--names``, or its builder's options."""
    if preset.builder is None:
        g = p.add_argument_group(f"shapes of {preset.name}")
        operands = list(preset.example)
        for flag, name in preset.flags.items():
            if "--" + flag in seen:
                continue
            seen.add("--" + flag)
            shape = "x".join(map(str, preset.example[name]))
            g.add_argument("--" + flag, type=_shape, default=None, metavar="RxC",
                           help=f"shape of {name}, e.g. {shape}")
        if "--names" not in seen:
            seen.add("--names")
            g.add_argument("--names", default=None, metavar=",".join(operands + ["C"]),
                           help="names of the operands and the result, in the formula's order "
                                f"(default: {','.join(operands + ['C'])})")
        return
    g = p.add_argument_group(f"sizes and options of {preset.name}")
    for opt in preset.options:
        if opt.flag in seen:
            continue
        seen.add(opt.flag)
        if opt.kind == "flag":
            g.add_argument(opt.flag, dest=opt.dest, action="store_true", default=opt.default,
                           help=opt.help)
        elif opt.kind == "count":
            g.add_argument(opt.flag, dest=opt.dest, type=_positive, default=opt.default,
                           help=opt.help)
        elif opt.kind == "choice":
            g.add_argument(opt.flag, dest=opt.dest, choices=opt.choices, default=opt.default,
                           help=opt.help)
        else:
            g.add_argument(opt.flag, dest=opt.dest, type=_size, default=opt.default,
                           help=opt.help)


def _add_limits(p: argparse.ArgumentParser, *names: str) -> None:
    from .limits import Limits
    default = Limits()
    g = p.add_argument_group("limits (symrow refuses larger work before it starts)")
    if "max_dim" in names:
        g.add_argument("--max-dim", type=_positive, default=None, metavar="N",
                       help=f"largest concrete size of a vector sequence, and number of "
                            f"heads (default: {default.max_dim})")
    if "max_terms" in names:
        g.add_argument("--max-terms", type=_positive, default=None, metavar="N",
                       help=f"most scalar products a concrete expansion may write out "
                            f"(default: {default.max_terms:,})")


def _add_general(p: argparse.ArgumentParser) -> None:
    p.add_argument("--general", action="store_true",
                   help="general sizes (m, ell, n, d) with ellipses, as in the article")


def _add_parts(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("parts (to take only some of a derivation into your notes)")
    g.add_argument("--parts", default=None, metavar="NAME,...",
                   help="only these parts, e.g. product or match,combine.row; a name "
                        "selects its inner parts too (see --list-parts)")
    g.add_argument("--list-parts", action="store_true",
                   help="list the parts of this derivation, then stop")


def _subparser(sub, name: str, help_: str, epilog: str = EPILOG) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help_, description=help_, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def _presets():
    from .derive.presets import REGISTRY
    return REGISTRY


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``symrow`` command: one subcommand per preset of
    :data:`symrow.derive.presets.REGISTRY`, then ``explain``, ``handout`` and ``check``."""
    parser = _Parser(
        prog="symrow",
        description="Matrix products read as maps between vector sequences: narrated, "
                    "step-by-step derivations of AB (combine), AB^T (match), attention "
                    "(match, distribute, combine) and any product formula, as text, LaTeX, "
                    "Markdown or PDF.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"symrow {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    for preset in _presets().values():
        p = _subparser(sub, preset.name, preset.help)
        _add_preset_options(p, preset, set())
        if preset.builder is None and set(preset.example) - set(preset.flags.values()):
            _add_shapes(p)
        _add_general(p)
        _add_output(p)
        _add_layout(p)
        _add_parts(p)
        _add_figures(p)
        _add_limits(p, "max_dim", "max_terms")
        p.set_defaults(run=_run_derivation, kind=preset.name)

    p = _subparser(sub, "explain", "read any product formula row by row: combine, match "
                                   "and what comes around them", EXPLAIN_EPILOG)
    p.add_argument("formula", metavar="FORMULA",
                   help="the formula in LaTeX, e.g. \"\\hat{A} X W\" or \"S = QK^T; O = "
                        "softmax(S)V\"")
    _add_shapes(p)
    p.add_argument("--values", action="append", type=_named_values, default=[],
                   metavar="NAME=1,2;3,4", help="numbers for an operand, rows separated by ';'")
    p.add_argument("--causal", action="store_true",
                   help="the M added inside a softmax is the causal mask")
    p.add_argument("--scale", choices=("symbolic", "number"), default="symbolic",
                   help="keep sqrt(d) as written (default), or substitute its number")
    p.add_argument("--diagonal", action="append", default=[], metavar="NAME",
                   help="an operand that is a diagonal matrix (D^{-1/2} is read only for "
                        "those); may be repeated")
    p.add_argument("--heads", type=_positive, default=None, metavar="H",
                   help="how many heads \\mathrm{Concat}(\\mathrm{head}_1, \\dots, "
                        "\\mathrm{head}_h) has (default: from the shapes)")
    p.add_argument("--convention", choices=("row", "column"), default=None,
                   help="how the formula stacks its points: as rows (the article's) or as "
                        "columns (W x); default: read from the products")
    _add_general(p)
    _add_output(p)
    _add_layout(p)
    _add_parts(p)
    _add_figures(p)
    _add_limits(p, "max_dim", "max_terms")
    p.set_defaults(run=_run_derivation, kind="explain")

    p = _subparser(sub, "backward", "the backward pass of a formula: every gradient read as "
                                    "combine or match, step by step", BACKWARD_EPILOG)
    p.add_argument("formula", metavar="FORMULA",
                   help="the formula in LaTeX, as for explain, e.g. \"XW\"")
    _add_shapes(p)
    p.add_argument("--values", action="append", type=_named_values, default=[],
                   metavar="NAME=1,2;3,4", help="numbers for an operand, rows separated by ';'")
    p.add_argument("--causal", action="store_true",
                   help="the M added inside a softmax is the causal mask (not differentiated)")
    p.add_argument("--scale", choices=("symbolic", "number"), default="symbolic",
                   help="keep sqrt(d) as written (default), or substitute its number")
    p.add_argument("--diagonal", action="append", default=[], metavar="NAME",
                   help="an operand that is a diagonal matrix; may be repeated")
    p.add_argument("--heads", type=_positive, default=None, metavar="H",
                   help="how many heads Concat(head_1, ..., head_h) has")
    p.add_argument("--convention", choices=("row", "column"), default=None,
                   help="how the formula stacks its points: as rows or as columns (W x); "
                        "default: read from the products")
    p.add_argument("--wrt", action="append", nargs="+", default=None, metavar="NAME",
                   help="the operands to differentiate (default: all but a mask); may be "
                        "repeated or given several names")
    p.add_argument("--notation", choices=("bar", "partial"), default="bar",
                   help="write the gradient of X as \\bar{X} (default) or dL/dX")
    _add_general(p)
    _add_output(p)
    _add_layout(p)
    _add_parts(p)
    _add_figures(p)
    _add_limits(p, "max_dim", "max_terms")
    p.set_defaults(run=_run_derivation, kind="backward")

    p = _subparser(sub, "exercise", "exercises for a class: a variant per student, with its "
                                    "sheet, worked solution and key, and exports to Moodle",
                   EXERCISE_EPILOG)
    p.add_argument("what", metavar="PRESET|FORMULA",
                   help="combine, match, attention, linear-backward, mlp-backward, "
                        "attention-backward, or a formula in LaTeX (with --shape)")
    g = p.add_argument_group("sizes")
    for flag, what in (("--m", "rows of Q, X (queries, points)"), ("--n", "keys"),
                       ("--d", "the dimension of queries and keys"),
                       ("--d-v", "the dimension of the values"),
                       ("--n-in", "inputs of a layer"), ("--n-out", "outputs of a layer"),
                       ("--hidden", "hidden units of the MLP")):
        g.add_argument(flag, type=_positive, default=None, metavar="N", help=what)
    g.add_argument("--a", type=_shape, default=None, metavar="RxC", help="shape of A")
    g.add_argument("--b", type=_shape, default=None, metavar="RxC", help="shape of B")
    _add_shapes(p, extra="; for a formula")
    p.add_argument("--causal", action="store_true", help="attention with the causal mask")
    g = p.add_argument_group("the class and the files")
    g.add_argument("--roster", metavar="FILE.csv", default=None,
                   help="the class: a CSV file of student ids (a column id, or the first)")
    g.add_argument("--count", type=_positive, default=None, metavar="N",
                   help="or N students, named s01, s02, ...")
    g.add_argument("--seed", type=int, default=0,
                   help="the random seed; the same seed and roster give the same variants "
                        "(default: 0)")
    g.add_argument("-o", "--output", required=True, metavar="FOLDER",
                   help="the folder to write (made if missing)")
    g.add_argument("--lang", default="en,ja", metavar="en,ja",
                   help="the languages of the documents and exports (default: en,ja)")
    g.add_argument("--formats", default="md,pdf", metavar="md,pdf",
                   help="the documents' formats: md (Markdown) and/or pdf (compiled with TeX; "
                        "a few seconds per document) (default: md,pdf)")
    g.add_argument("--catalogue", action="append", default=None, metavar="FILE",
                   help="more mistakes (TOML or JSON, in the form of symrow's catalogue)")
    g.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                   help="TeX runs at once (default: every core)")
    p.set_defaults(run=_run_exercise, kind="exercise")

    p = _subparser(sub, "handout", "the full handout on the mathematics of attention")
    _add_output(p)
    g = p.add_argument_group("pictures")
    g.add_argument("--figures", nargs="?", const="svg", default=None, choices=("svg", "png"),
                   help="a picture in every section, drawn from the worked examples (with "
                        "-o PAGE.md the pictures are written beside the page)")
    p.set_defaults(run=_run_handout, kind="handout")

    p = _subparser(sub, "figure", "a picture of a formula's readings, drawn from numbers: "
                                  "the points, combine, match, attention", FIGURE_EPILOG)
    p.add_argument("what", metavar="PRESET|FORMULA",
                   help="a preset (" + ", ".join(_presets()) + ") or a formula in LaTeX, as "
                        "for explain")
    _add_shapes(p)
    p.add_argument("--values", action="append", type=_named_values, default=[],
                   metavar="NAME=1,2;3,4", help="numbers for an operand, rows separated by "
                                                "';' (operands without them get example "
                                                "numbers, shown on stderr)")
    p.add_argument("--of", default=None, metavar="NAME",
                   help="the quantity whose reading is drawn (e.g. S, P, O, H), 'attention' "
                        "for attention as a whole, or an operand for its points (default: "
                        "attention as a whole, or the result)")
    p.add_argument("--axes", type=_axes, default=None, metavar="I,J",
                   help="the two coordinates drawn of points with more than two")
    p.add_argument("--focus", type=_positive, default=1, metavar="I",
                   help="the row whose construction is spelled out (projections, weights; "
                        "default: 1)")
    p.add_argument("--causal", action="store_true",
                   help="the causal mask (attention: query i sees keys j <= i)")
    p.add_argument("--diagonal", action="append", default=[], metavar="NAME",
                   help="an operand that is a diagonal matrix; may be repeated")
    p.add_argument("--backward", action="store_true",
                   help="draw a gradient of the backward pass (--of \\bar{X}, ...)")
    p.add_argument("--format", "-f", choices=FIGURE_FORMATS, default=None,
                   help="svg (the default), tex (a LaTeX document of the picture), tikz "
                        "(the tikzpicture alone, to \\input), pdf or png (compiled by TeX; "
                        "png by pdftoppm); by default from the suffix of -o")
    from .narrate.languages import LANGUAGES
    p.add_argument("--lang", choices=tuple(LANGUAGES), default="en",
                   help="the language of the words in the picture (default: en)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (atomically): .svg .tex .tikz .pdf .png")
    _add_limits(p, "max_dim", "max_terms")
    p.set_defaults(run=_run_figure, kind="figure")

    p = _subparser(sub, "check", "check a hand derivation (LaTeX) against symrow, step by step")
    p.add_argument("files", metavar="FILE_OR_DIR", nargs="+",
                   help="the hand derivation in LaTeX (a fragment or a whole document), "
                        "Markdown or a Jupyter notebook; - reads stdin.  Several files or a "
                        "folder check a whole class (every .tex, .md and .ipynb file, in "
                        "parallel) and print a summary table")
    p.add_argument("--against", default=None, metavar="PRESET|FORMULA|handout",
                   help="the derivation to compare with: a preset ("
                        + ", ".join(_presets()) + "), a formula in LaTeX (with --shape), or "
                        "handout, which checks symrow's handout section by section (no "
                        "sizes or options then)")
    seen: set = set()
    for preset in _presets().values():
        _add_preset_options(p, preset, seen)
    _add_shapes(p, extra="; for a formula or a preset without flags of its own")
    p.add_argument("--diagonal", action="append", default=None, metavar="NAME",
                   help="for a formula: an operand that is a diagonal matrix (as for "
                        "explain); may be repeated")
    _add_general(p)
    p.add_argument("--values", action="append", type=_named_values, default=None,
                   metavar="NAME=ROWS",
                   help="numbers for an operand, rows separated by ';', entries by ',': "
                        "--values 'A=1,2;3,4' (repeat for several operands); a definition "
                        "A = \\begin{bmatrix}...\\end{bmatrix} in FILE is then checked "
                        "against them (without --values it gives A its numbers)")
    p.add_argument("--format", "-f", type=_format, choices=CHECK_FORMATS, default="text",
                   help="report format: text (default), json (fields in the README), "
                        "markdown ($$ math with colored differences, for a web page or "
                        "Jupyter) or latex (a fragment; needs xcolor)")
    p.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="time limit for checking, in seconds of CPU time "
                        "(default: symrow.get_limits().check_timeout)")
    p.add_argument("--lang", default=None, dest="report_lang", metavar="en|ja",
                   help="the language of the report: en or ja (default: the page's own, "
                        "Japanese when its words are); the JSON report is the same in both")
    p.add_argument("--parser", choices=("auto", "latex2sympy2", "builtin"), default=None,
                   help="the LaTeX parser: latex2sympy2 (installed on Python < 3.13), builtin "
                        "(every Python; the same reports), or auto (the default: "
                        "$SYMROW_PARSER if set, else latex2sympy2 where it is installed)")
    p.add_argument("--summary", metavar="FILE", default=None,
                   help="write the class summary to FILE (atomically); its suffix picks the "
                        "format: .csv, .json, .md or .txt")
    p.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                   help="processes for a class check (default: every core)")
    g = p.add_argument_group("grading an exercise (made by symrow exercise)")
    g.add_argument("--exercise", metavar="FOLDER|exercise.json", default=None,
                   help="grade each submission against its own student's variant (found from "
                        "a line 'Student: ID' in the file, or the file's name), with scores "
                        "and the codes of the mistakes; instead of --against")
    g.add_argument("--catalogue", action="append", default=None, metavar="FILE",
                   help="more mistakes, a TOML or JSON file in the form of symrow's own "
                        "catalogue (symrow/exercises/mistakes.toml); may be repeated")
    g.add_argument("--plot", metavar="FILE.svg", default=None,
                   help="with --exercise: an SVG bar chart of the class's most frequent "
                        "mistakes")
    p.add_argument("--backward", action="store_true", default=None,
                   help="check gradients: compare with the backward pass of --against "
                        "(written dL/dX, \\bar{X}, \\frac{\\partial L}{\\partial X} or "
                        "G_X)")
    _add_limits(p, "max_dim", "max_terms")
    # None marks "not given", so that options foreign to --against can be refused
    options = [a.dest for a in p._actions if a.dest not in (
        "help", "files", "against", "format", "timeout", "parser", "max_dim", "max_terms",
        "summary", "jobs", "exercise", "catalogue", "plot", "report_lang")]
    p.set_defaults(run=_run_check, kind="check", check_options=options,
                   **{dest: None for dest in options})
    return parser


# -- from flags to the public API ------------------------------------------------------

def _shapes_of(args) -> dict:
    shapes: dict = {}
    for name, shape in getattr(args, "shape", []) or []:
        if name in shapes:
            raise OptionError(f"--shape gives {name} twice")
        shapes[name] = shape
    return shapes


def _values_of(args) -> dict:
    values: dict = {}
    for name, rows in getattr(args, "values", []) or []:
        if name in values:
            raise OptionError(f"--values gives {name} twice")
        values[name] = rows
    return values


def _names(text: str, count: int) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) != count or not all(names):
        raise OptionError(f"--names takes {count} names such as "
                          f"{','.join('ABCDEFG'[:count - 1] + 'C')}; got {_typed(text)}")
    return names


def _product(preset, args):
    """combine and match: their --a/--b flags, with the example's shapes as defaults."""
    import symrow
    operands = list(preset.example)
    names = _names(args.names, len(operands) + 1) if args.names else operands + ["C"]
    given = {op: getattr(args, flag) for flag, op in preset.flags.items()
             if getattr(args, flag, None) is not None}
    if args.general:
        if given or _shapes_of(args):
            raise OptionError("--general takes no shapes; give either --general or the shapes")
        shapes = dict(preset.general)
    elif len(given) == len(operands):
        shapes = given  # the preset itself says what is wrong with them
    else:
        from .formula.shapes import infer
        shapes = dict(infer(preset.parsed(), given, defaults=preset.example).operands)
    seqs = [symrow.vecseq(new, *shapes[old]) for old, new in zip(operands, names)]
    return getattr(symrow, preset.name)(*seqs, name=names[-1])


def _formula_preset(preset, args):
    shapes = _shapes_of(args)
    names = dict(zip(list(preset.example) + ["result"],
                     _names(args.names, len(preset.example) + 1))) if args.names else None
    if args.general and shapes:
        raise OptionError("--general takes no shapes; give either --general or --shape")
    return preset.build(shapes=shapes or None, general=args.general, names=names)


def _builder_preset(preset, args):
    options = {opt.dest: getattr(args, opt.dest) for opt in preset.options}
    return preset.build(general=args.general, **options)


def _formula_inputs(args) -> tuple:
    """``explain``'s and ``backward``'s --shape and --values, as (shapes, values), each
    None when not given."""
    shapes, values = _shapes_of(args), _values_of(args)
    if args.general and (shapes or values):
        raise OptionError("--general takes no shapes or values")
    return shapes or None, values or None


def _options(args, values=None):
    """The one record of how to read the formula, from the flags (the limits are set
    around the whole command: :func:`main`)."""
    from .derive.options import Options
    return Options(values=values, causal=bool(getattr(args, "causal", False)),
                   scale=getattr(args, "scale", None) or "symbolic",
                   diagonal=getattr(args, "diagonal", None) or (),
                   heads=getattr(args, "heads", None),
                   convention=getattr(args, "convention", None))


def _explain(args):
    from .derive.explain import explain
    shapes, values = _formula_inputs(args)
    return explain(args.formula, shapes, options=_options(args, values))


def _backward(args):
    from .derive.backward import backward
    shapes, values = _formula_inputs(args)
    wrt = [name for group in args.wrt for name in group] if args.wrt else None
    return backward(args.formula, shapes, wrt=wrt, general=args.general,
                    notation=args.notation, options=_options(args, values))


def build_derivation(kind: str, args):
    """The derivation that ``kind`` (a preset's name, or ``explain``) and the flags ask for.

    Shared by the derivation subcommands and ``check --against``.
    """
    if kind == "explain":
        return _explain(args)
    if kind == "backward":
        return _backward(args)
    preset = _presets()[kind]
    if preset.builder is not None:
        return _builder_preset(preset, args)
    if preset.flags:
        return _product(preset, args)
    return _formula_preset(preset, args)


def render(obj, fmt: str, lang: str, *, slides: bool = False, deck: dict | None = None,
           **options) -> str | bytes:
    """A derivation (or the handout) in one output format; ``slides`` turns ``pdf``
    into compiled slides; ``options`` such as ``parts=`` go to the renderer, and
    ``deck`` (the title frame's fields: :func:`deck_options`) to slides only."""
    if fmt == "beamer" or fmt == "pdf" and slides:
        options.update(deck or {})
    if fmt == "beamer":
        return obj.to_beamer(lang, **options)
    if fmt == "latex":
        return obj.to_latex(lang, **options)
    if fmt == "markdown":
        return obj.to_markdown(lang, **options)
    if fmt == "text":
        return obj.to_text(lang, **options)
    if fmt == "tex":
        return obj.to_document(lang, **options)
    if fmt == "pdf":
        return obj.to_pdf(lang, slides=slides, **options)
    raise OptionError(f"unknown format {fmt!r}")


def list_parts(derivation, lang: str) -> str:
    """``name   what it shows``, one part a line."""
    from .narrate import segments
    from .render.text import _inline
    rows = []
    for part in derivation.parts:
        step = next(s for s in derivation.steps if s.part == part)
        words = "".join(v if k == "text" else _inline(v) for k, v in segments(step, lang))
        words = " ".join(words.split())
        rows.append((part, words if len(words) <= 70 else words[:67] + "..."))
    width = max(len(name) for name, _ in rows)
    return "".join(f"{name.ljust(width)}  {words}\n" for name, words in rows)


def resolve_format(args) -> str:
    """--format if given, else what the suffix of -o asks for, else text.

    With --slides, ``tex`` means the slides' source (``beamer``), and a
    format that cannot hold slides is refused.
    """
    fmt = args.format
    if not fmt and args.output:
        fmt = _suffix_format(args.output)
    fmt = fmt or "text"
    if getattr(args, "slides", False):
        if fmt == "tex":
            return "beamer"
        if fmt not in ("pdf", "beamer"):
            given = f"--format {args.format}" if args.format else \
                (f"-o {args.output}, which means {fmt}" if args.output else "text, the default")
            raise OptionError(f"--slides needs --format pdf (or -o FILE.pdf) or --format "
                              f"beamer; got {given}")
    return fmt


def _suffix_format(output: str) -> str:
    """The format the suffix of ``-o FILE`` names; a name without a suffix is text, and a
    suffix that names no format is refused (a .docx of plain text helps nobody)."""
    suffix = Path(output).suffix.lower()
    if not suffix:
        return "text"
    fmt = SUFFIX_FORMATS.get(suffix)
    if fmt is None:
        names = [f"{f} ({a})" if a else f for f in FORMATS
                 for a in ["/".join(k for k, v in FORMAT_ALIASES.items() if v == f)]]
        raise OptionError(
            f"-o {output}: the suffix {suffix} names no format; use {_or(list(SUFFIX_FORMATS))}"
            f", or give --format: {_or(names)}")
    return fmt


def _or(items: list) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def emit(data: str | bytes, output: str | None) -> None:
    """Write to a file atomically, or to standard output."""
    if output:
        from .outfile import write_atomic
        write_atomic(output, data)
        return
    if isinstance(data, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data)
    sys.stdout.flush()


def _check_destination(fmt: str, output: str | None) -> None:
    """Refuse what cannot work before doing the work (a PDF compile takes seconds)."""
    if output is None:
        if fmt == "pdf" and sys.stdout.isatty():
            raise OptionError("refusing to write a PDF to a terminal; use -o FILE "
                              "or redirect standard output")
        return
    folder = Path(output).parent
    if not folder.is_dir():
        raise OptionError(f"cannot write {output}: folder {folder} does not exist")
    if Path(output).is_dir():
        raise OptionError(f"cannot write {output}: it is a folder")


def _run_derivation(args) -> int:
    fmt = resolve_format(args)
    layout = _layout_of(args)
    derivation = build_derivation(args.kind, args)
    for line in derivation.warnings():
        print(f"symrow: note: {line}", file=sys.stderr)
    if args.list_parts:
        emit(list_parts(derivation, args.lang), None)
        return 0
    _check_destination(fmt, args.output)
    _check_figures(args, fmt)
    parts = [p.strip() for p in args.parts.split(",")] if args.parts else None
    if parts:
        derivation.select(parts)  # an unknown part is refused before any rendering
    if args.figures:
        shown = derivation.select(parts) if parts else derivation
        _emit_with_figures(shown, fmt, args, dict(layout, figures=args.figures,
                                                  axes=args.axes))
        return 0
    emit(render(derivation, fmt, args.lang, slides=args.slides, deck=deck_options(args),
                parts=parts, **layout),
         args.output)
    return 0


def _run_handout(args) -> int:
    from .handout import handout
    fmt = resolve_format(args)
    _check_destination(fmt, args.output)
    _check_figures(args, fmt)
    options = {"figures": args.figures} if args.figures else {}
    _emit_with_figures(handout(), fmt, args, options)
    return 0


def _check_figures(args, fmt: str) -> None:
    """--figures with Markdown writes its pictures beside the page, so it needs -o."""
    if getattr(args, "axes", None) is not None and not args.figures:
        raise OptionError("--axes chooses the coordinates of the pictures; it goes with "
                          "--figures")
    if args.figures and fmt == "markdown" and not args.output:
        raise OptionError("--figures with Markdown writes each picture as a file beside the "
                          "page: give -o PAGE.md")
    if args.figures == "png" and fmt not in ("markdown", "text"):
        raise OptionError("--figures png is for Markdown pages (pictures as PNG files); "
                          "LaTeX, PDF and slides draw them as TikZ: use --figures")


def _emit_with_figures(obj, fmt: str, args, options: dict) -> None:
    """Render ``obj`` (with its pictures when --figures is given) and write it; with
    Markdown, each picture is written beside the page first."""
    if not options.get("figures"):
        emit(render(obj, fmt, args.lang, slides=args.slides, deck=deck_options(args),
                    **options), args.output)
        return
    from .figures.place import markdown_files, with_figures
    stem = Path(args.output).stem if args.output else "figure"
    shown = with_figures(obj, axes=options.pop("axes", None), images=options.pop("figures"),
                         stem=stem)
    for line in getattr(shown, "skipped", ()):
        print(f"symrow: note: {line}", file=sys.stderr)
    if any(s.params["figure"].example for s in shown.steps if s.kind == "figure"):
        print("symrow: note: the pictures are drawn with example numbers; give --values "
              "NAME=ROWS for yours", file=sys.stderr)
    out = render(shown, fmt, args.lang, slides=args.slides, deck=deck_options(args),
                 **options)
    if fmt == "markdown":
        from .outfile import write_atomic
        folder = Path(args.output).parent
        for name, data in markdown_files(shown, args.lang).items():
            write_atomic(folder / name, data)
    emit(out, args.output)


def _run_figure(args) -> int:
    from .figures.output import render_figure
    fmt = args.format or _figure_suffix(args.output)
    if fmt in ("pdf", "png"):
        _check_destination("pdf", args.output)
    else:
        _check_destination(fmt, args.output)
    fig = _figure_of(args)
    if fig.example:
        given = getattr(fig, "given", {})
        shown = " ".join(f'--values "{name}={_rows_text(rows)}"' for name, rows in given.items())
        print(f"symrow: note: drawn with example numbers: {shown}" if shown else
              "symrow: note: drawn with example numbers", file=sys.stderr)
    emit(render_figure(fig, fmt, args.lang), args.output)
    return 0


def _rows_text(matrix) -> str:
    import sympy
    rows = sympy.Matrix(matrix).tolist()
    return ";".join(",".join(str(v) for v in row) for row in rows)


def _figure_suffix(output: str | None) -> str:
    if not output:
        return "svg"
    from .figures.output import FIGURE_SUFFIXES
    suffix = Path(output).suffix.lower()
    fmt = FIGURE_SUFFIXES.get(suffix)
    if fmt is None:
        raise OptionError(f"-o {output}: a picture is written as {_or(list(FIGURE_SUFFIXES))}, "
                          f"or give --format: {_or(list(FIGURE_FORMATS))}")
    return fmt


#: the shapes ``symrow figure PRESET`` draws without --shape or --values: points in the plane
FIGURE_SHAPES = {
    "attention": {"Q": (3, 2), "K": (3, 2), "V": (3, 2)},
    "combine": {"A": (3, 2), "B": (2, 2)}, "match": {"A": (3, 2), "B": (2, 2)},
    "linear": {"X": (3, 2), "W": (2, 2)},
    "gcn": {r"\hat{A}": (4, 4), "X": (4, 2), "W": (2, 2)},
}


def _figure_of(args):
    """The derivation ``symrow figure`` draws from, and its picture."""
    from .derive.explain import explain
    from .figures import figure
    presets = _presets()
    values = _values_of(args)
    shapes = _shapes_of(args)
    causal = bool(args.causal)
    if args.what in presets:
        preset = presets[args.what]
        formula = preset.examples[0] if (causal and preset.examples) else preset.formula
        if not shapes:
            defaults = FIGURE_SHAPES.get(preset.name, dict(preset.example))
            shapes = {k: v for k, v in defaults.items() if k not in values}
            if values:   # the given numbers decide the sizes; the others follow from them
                shapes = {}
    else:
        formula = args.what
    if causal and "M" not in formula:
        raise OptionError("--causal needs a mask M inside the softmax: use the preset "
                          "attention, or write softmax(QK^T/\\sqrt{d} + M)V")
    derivation = explain(formula, shapes or None, values=values or None, causal=causal,
                         diagonal=args.diagonal or ())
    if args.backward:
        from .derive.backward import backward
        derivation = backward(derivation)
    fig = figure(derivation, args.of, axes=args.axes, focus=args.focus)
    from .figures.make import case_of
    fig.given = case_of(derivation).given
    return fig


def _layout_of(args) -> dict:
    """--expand and --width, as the renderers take them (checked before any output)."""
    from .render.expand import check_expand
    from .render.layout import math_width
    check_expand(args.expand)
    if args.width is not None:
        try:
            math_width(args.width)  # a bad width is refused here, in one line
        except OptionError as err:
            raise OptionError(str(err).replace("width=", "--width", 1)) from None
    return {"expand": args.expand, "width": args.width}


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OptionError(f"cannot read {name}: no such file") from None
    except IsADirectoryError:
        raise OptionError(f"cannot read {name}: it is a folder") from None
    except UnicodeDecodeError:
        raise OptionError(f"cannot read {name}: not UTF-8 text") from None
    except OSError as err:
        raise OptionError(f"cannot read {name}: {err.strerror or err}") from None


def _against(args):
    """The derivation ``check --against`` names: a preset, the handout, or a formula; with
    --backward, its backward pass."""
    if args.against == "handout":
        from .handout import handout
        return handout()
    if getattr(args, "backward", None):
        from .derive.backward import backward
        return backward(_forward(args))
    return _forward(args)


def _forward(args):
    if args.against in _presets():
        return build_derivation(args.against, args)
    from .derive.explain import explain
    from .errors import ParseError
    try:
        return explain(args.against, _shapes_of(args) or None, options=_options(args))
    except ParseError as err:
        raise type(err)(f"--against {_typed(args.against)} is neither a preset ("
                        f"{', '.join(_presets())}, or handout) nor a formula symrow can "
                        f"read: {err}") from None


def _own_options(against: str) -> set:
    """The option names (argparse dests) that apply to ``check --against``."""
    if against == "handout":
        return set()
    preset = _presets().get(against)
    if preset is None:  # a formula
        return {"shape", "causal", "scale", "general", "values", "backward", "diagonal",
                "heads"}
    if preset.builder is not None:
        return {opt.dest for opt in preset.options} | {"general", "values", "backward"}
    own = set(preset.flags) | {"names", "general", "values", "backward"}
    return own | ({"shape"} if set(preset.example) - set(preset.flags.values()) else set())


def _check_options(args) -> None:
    """Refuse the flags that do not apply to the chosen --against, before any work; then
    give the options that were not given their defaults."""
    given = [dest for dest in args.check_options
             if getattr(args, dest, None) not in (None, False, [])]
    own = _own_options(args.against)
    foreign = ["--" + dest.replace("_", "-") for dest in given if dest not in own]
    if foreign:
        what = ("each section of the handout has its own sizes and values"
                if args.against == "handout" else
                f"its options are {', '.join(sorted('--' + o.replace('_', '-') for o in own))}")
        raise OptionError(f"{', '.join(foreign)} do{'es' if len(foreign) == 1 else ''} not "
                          f"apply to --against {args.against}: {what}")
    if args.general and args.values:
        raise OptionError("--values needs concrete sizes, not --general")
    for preset in _presets().values():
        for opt in preset.options:
            if getattr(args, opt.dest, None) is None:
                setattr(args, opt.dest, opt.default)


#: the format of a class summary a --summary file's suffix asks for
SUMMARY_SUFFIXES = {".csv": "csv", ".json": "json", ".md": "markdown", ".markdown": "markdown",
                    ".txt": "text"}


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes, got "
                                         f"{_typed(text)}") from None
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"--jobs takes 1 to 256 processes; got {value}")
    return value


def _is_class(args) -> bool:
    files = args.files
    return (len(files) > 1 or args.summary is not None or args.jobs is not None or
            (files[0] != "-" and Path(files[0]).is_dir()))


def _summary_format(path: str) -> str:
    fmt = SUMMARY_SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None:
        raise OptionError(f"--summary {path}: the suffix picks the format; use .csv, .json, "
                          f".md or .txt")
    return fmt


def _run_class(args, values: dict) -> int:
    import functools
    from .checker.classroom import check_class
    from .outfile import write_atomic
    if "-" in args.files:
        raise OptionError("a class check reads files and folders, not - (stdin)")
    summary_fmt = _summary_format(args.summary) if args.summary else None
    fmt = {"text": "text", "json": "json", "markdown": "markdown"}.get(args.format)
    if fmt is None:
        raise OptionError(f"--format {args.format} does not apply to a class check: its "
                          f"summary is text, json or markdown (and csv with --summary)")
    if args.summary:
        folder = Path(args.summary).parent
        if str(folder) and not folder.is_dir():
            raise OptionError(f"--summary {args.summary}: folder {folder} does not exist")
    summary = check_class(args.files, functools.partial(_against, args), jobs=args.jobs,
                          values=values or None, timeout=args.timeout,
                          parser=args.parser or "auto")
    if summary_fmt is not None:
        write_atomic(args.summary, summary.render(summary_fmt))
    emit(summary.render(fmt), None)
    return summary.exit_code


def _run_check(args) -> int:
    if args.exercise is not None:
        return _run_graded(args)
    if args.against is None:
        raise OptionError("check needs --against (a preset, a formula or handout) or "
                          "--exercise (an exercise made by symrow exercise)")
    if args.catalogue or args.plot:
        raise OptionError("--catalogue and --plot go with --exercise")
    _check_options(args)
    values = _values_of(args)
    if _is_class(args):
        return _run_class(args, values)
    derivation = _against(args)
    name = args.files[0]
    note = ""
    if name != "-" and name.lower().endswith(".ipynb"):
        from .checker.classroom import read_submission
        tex, note = read_submission(Path(name))
    else:
        tex = _read_input(name)
    import symrow
    report = symrow.check(tex, against=derivation, timeout=args.timeout,
                          values=values or None, parser=args.parser or "auto",
                          lang=args.report_lang)
    failure = getattr(report, "failure", None)
    if failure is not None and args.format not in ("json",):
        raise failure      # text that cannot be read at all: its one line, exit 2
    if note:
        report.notes = report.notes + (note,)
    out = {"json": report.to_json, "markdown": report.to_markdown,
           "latex": report.to_latex}.get(args.format, report.to_text)()
    emit(out if out.endswith("\n") else out + "\n", None)
    return report.exit_code


def _run_graded(args) -> int:
    """``check FILES --exercise EX``: each submission against its own student's variant."""
    from .exercises import load
    from .exercises.catalogue import read_file
    from .outfile import write_atomic
    if args.against is not None:
        raise OptionError("give --against or --exercise, not both: an exercise knows what "
                          "each student was asked")
    given = [dest for dest in args.check_options
             if getattr(args, dest, None) not in (None, False, [])]
    if given:
        raise OptionError(f"{', '.join('--' + d.replace('_', '-') for d in given)} do not "
                          f"apply to --exercise: the exercise fixes the sizes and numbers")
    if "-" in args.files:
        raise OptionError("an exercise is graded from files and folders, not - (stdin)")
    fmt = {"text": "text", "json": "json", "markdown": "markdown"}.get(args.format)
    if fmt is None:
        raise OptionError(f"--format {args.format} does not apply to grading: its summary is "
                          f"text, json or markdown (and csv with --summary)")
    summary_fmt = _summary_format(args.summary) if args.summary else None
    for path in filter(None, (args.summary, args.plot)):
        folder = Path(path).parent
        if str(folder) and not folder.is_dir():
            raise OptionError(f"cannot write {path}: folder {folder} does not exist")
    if args.plot and Path(args.plot).suffix.lower() != ".svg":
        raise OptionError(f"--plot {args.plot}: the chart is an SVG file (FILE.svg)")
    ex = load(args.exercise)
    if args.catalogue:
        from .exercises.catalogue import load as load_catalogue
        extra = ex.extra_entries + [e for path in args.catalogue for e in read_file(path)]
        ex.catalogue = load_catalogue(entries=extra)
    summary = ex.grade(args.files, jobs=args.jobs, parser=args.parser or "auto",
                       timeout=args.timeout)
    if summary_fmt is not None:
        write_atomic(args.summary, summary.render(summary_fmt))
    if args.plot:
        write_atomic(args.plot, summary.to_svg())
    emit(summary.render(fmt), None)
    return summary.exit_code


EXERCISE_EPILOG = """\
examples:
  symrow exercise attention --m 2 --n 3 --d 2 --roster class.csv --seed 7 -o ex/
                                  a variant per student: sheet, worked solution, key (en, ja;
                                  Markdown and PDF), a booklet, Moodle XML and GIFT
  symrow exercise combine --a 2x3 --b 3x2 --count 30 --formats md -o ex/
  symrow exercise mlp-backward --roster class.csv -o ex/      the gradients of an MLP
  symrow exercise "H = \\hat{A} X; C = HW" --shape "\\hat{A}=3x3" --shape X=3x2 --shape W=2x2 \\
      --count 10 -o ex/                                      any formula explain reads
  symrow check submissions/ --exercise ex/ --summary class.csv --plot mistakes.svg
                                  grade: each file against its student's variant

presets: combine, match (--a, --b), attention (--m, --n, --d, --d-v, --causal),
linear-backward (--m, --n-in, --n-out), mlp-backward (--m, --n-in, --hidden, --n-out),
attention-backward (--m, --n, --d).  The roster is a CSV file with a column id (or
the first column).  The same seed and roster always give the same variants.
"""

#: exercise flags -> the option of the presets that take them
_EXERCISE_FLAGS = {"m": "m", "n": "n", "d": "d", "d_v": "d_v", "n_in": "n_in",
                   "n_out": "n_out", "hidden": "hidden", "a": "a", "b": "b"}


def _run_exercise(args) -> int:
    from . import exercises
    from .exercises.spec import PRESETS
    from .narrate.languages import LANGUAGES
    langs = _list_of(args.lang, tuple(LANGUAGES), "--lang")
    formats = _list_of(args.formats, ("md", "pdf"), "--formats")
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise OptionError(f"-o {args.output}: it is a file; give a folder")
    if not out.parent.is_dir():
        raise OptionError(f"-o {args.output}: folder {out.parent} does not exist")
    given = {k: getattr(args, k) for k in _EXERCISE_FLAGS if getattr(args, k) is not None}
    klass = {"roster": args.roster, "count": args.count}
    if (args.roster is None) == (args.count is None):
        raise OptionError("give the class: --roster class.csv (a column of student ids) or "
                          "--count N")
    common = {"seed": args.seed, "catalogue": args.catalogue or (),
              **{k: v for k, v in klass.items() if v is not None}}
    if args.what in PRESETS:
        takes = set(PRESETS[args.what][1])
        foreign = sorted(set(given) - takes)
        if foreign or args.shape or (args.causal and args.what != "attention"):
            bad = ["--" + f.replace("_", "-") for f in foreign] + \
                (["--shape"] if args.shape else []) + \
                (["--causal"] if args.causal and args.what != "attention" else [])
            raise OptionError(f"{', '.join(bad)} do not apply to the {args.what} exercise; "
                              f"its options are "
                              f"{', '.join('--' + t.replace('_', '-') for t in sorted(takes))}")
        ex = exercises.exercise(args.what, causal=args.causal, **given, **common)
    else:
        if given:
            raise OptionError(f"a formula's exercise takes --shape, not "
                              f"{', '.join('--' + g.replace('_', '-') for g in given)}")
        ex = exercises.exercise(args.what, shapes=_shapes_of(args), causal=args.causal,
                                **common)
    written = ex.write(out, langs=langs, formats=formats, jobs=args.jobs)
    students = len(ex.variants)
    sys.stdout.write(f"{ex.spec.describe()}: {students} variant{'s' if students != 1 else ''} "
                     f"in {out} ({len(written)} files; {', '.join(langs)}; "
                     f"{', '.join(formats)})\n")
    return 0


def _list_of(text: str, allowed: tuple, flag: str) -> tuple:
    items = tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise OptionError(f"{flag} takes {', '.join(allowed)} (comma-separated); got {text!r}")
    return items


def _overview(derivation):
    """The derivation's opening section and its closing summary: the short form
    the bare command shows (the full one is a few hundred lines)."""
    from types import SimpleNamespace
    steps = derivation.steps
    second = next((k for k, s in enumerate(steps) if k and s.kind == "heading"), len(steps))
    return SimpleNamespace(kind=derivation.kind, steps=steps[:second] + steps[-1:])


def _default() -> int:
    from .derive.attention import attention
    from .render.text import to_text
    d = attention(**DEFAULT_ATTENTION)
    emit(to_text(_overview(d), "en"), None)
    sys.stderr.write(
        "hint: the full derivation is `symrow attention --m 2 --n 2 --d 2`; "
        "`symrow --help` lists the commands, e.g. `symrow combine --general --format pdf "
        "-o c.pdf` or `symrow handout --lang ja -o handout.pdf`\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    parser.words = argv
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}"
                     + _formula_hint(unknown, args))
    try:
        if args.command is None:
            return _default()
        run: Callable = args.run
        from .limits import limits
        with limits(max_dim=getattr(args, "max_dim", None),
                    max_terms=getattr(args, "max_terms", None)):
            return run(args)
    except SymrowError as err:
        flag = getattr(err, "limit", None)
        hint = f" (on the command line: --{flag.replace('_', '-')} N)" if flag else ""
        sys.stderr.write(f"symrow: error: {_one_line(err)}{hint}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("symrow: interrupted\n")
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `symrow ... | head`): not an error
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except Exception as err:  # a bug in symrow: still one line, unless asked
        if os.environ.get("SYMROW_DEBUG"):
            raise
        sys.stderr.write(f"symrow: internal error: {type(err).__name__}: {_one_line(err)} "
                         f"(a bug; SYMROW_DEBUG=1 shows the traceback)\n")
        return EXIT_INTERNAL


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
