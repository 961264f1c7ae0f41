"""The ``symrow`` command: argument parsing -> public API -> output.

No logic of its own lives here: every subcommand builds a derivation (or
the handout) with the public API and prints one of its output formats.

Exit codes: 0 success; 2 usage or input error (one line on stderr, no
traceback); ``check`` also returns 1 when a step is wrong.  A bug inside
symrow is reported as one line too, with exit code 70; set
``SYMROW_DEBUG=1`` to see its traceback.

Only what a command uses is imported: ``--help`` loads no TeX, checker or
attention code, and ``combine`` never loads the checker.

>>> from symrow.cli import build_parser
>>> args = build_parser().parse_args(["combine", "--a", "2x3", "--b", "3x4"])
>>> args.a, args.b
((2, 3), (3, 4))
>>> resolve_format(build_parser().parse_args(["handout", "-o", "h.pdf"]))
'pdf'
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Callable, Sequence

from .errors import OptionError, SymrowError

__all__ = ["main", "build_parser", "build_derivation", "render", "resolve_format"]

FORMATS = ("latex", "markdown", "text", "tex", "pdf")

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
  symrow combine --general --format pdf -o c.pdf a compiled PDF (pdflatex)
  symrow handout --lang ja -o handout.pdf        the full handout (lualatex + luatexja)
  symrow check mine.tex --against match --a 2x2 --b 3x2
                                                 check a hand derivation step by step

formats: text (Unicode, for a terminal; the default), latex (a fragment),
markdown or md ($$ blocks, for KaTeX sites and Jupyter), tex (a complete
document), pdf (compiled).  With -o FILE and no --format, the suffix
decides: .pdf .tex .md .txt.  Files are written atomically: complete, or
not at all.

exit codes: 0 success, 1 check found a wrong step, 2 usage or input error.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line on stderr and exit 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


# -- argument types -------------------------------------------------------------

def _shape(text: str) -> tuple:
    """``2x3`` -> (2, 3); ``mxell`` is not accepted: use --general."""
    m = re.fullmatch(r"\s*(\d+)\s*[x×,]\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"shape must look like 2x3, got {text!r} (for general sizes, use --general)")
    return int(m.group(1)), int(m.group(2))


def _size(text: str):
    """``3`` -> 3; ``m`` -> ``"m"`` (a general size); validated by symrow itself."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9]{0,15}(_[A-Za-z0-9]{1,8})?", text):
        return text
    raise argparse.ArgumentTypeError(
        f"a size is a positive integer or a name such as m; got {text!r}")


def _format(text: str) -> str:
    """``md`` -> ``markdown``; argparse then checks the name against FORMATS."""
    return FORMAT_ALIASES.get(text, text)


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds; got {text!r}")
    return value


# -- the parser -------------------------------------------------------------------

def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", "-f", type=_format, choices=FORMATS, default=None,
                   help="output format; md is short for markdown (default: text, or from "
                        "the suffix of -o)")
    p.add_argument("--lang", choices=("en", "ja"), default="en",
                   help="narration language (default: en)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (atomically) instead of standard output")


def _add_product_sizes(p: argparse.ArgumentParser, b_default: str) -> None:
    g = p.add_argument_group("sizes of combine and match")
    g.add_argument("--a", type=_shape, default=None, metavar="MxL",
                   help="shape of A, e.g. 2x3 (default: 2x3)")
    g.add_argument("--b", type=_shape, default=None, metavar="RxC",
                   help=f"shape of B (default: {b_default})")
    g.add_argument("--names", default="A,B,C", metavar="A,B,C",
                   help="names of the two operands and the result (default: A,B,C)")


def _add_attention_sizes(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("sizes and options of attention")
    d = DEFAULT_ATTENTION
    g.add_argument("--m", type=_size, default=None,
                   help=f"number of queries (rows of Q; default: {d['m']}, or m with --general)")
    g.add_argument("--n", type=_size, default=None,
                   help=f"number of keys and values (default: {d['n']}, or n with --general)")
    g.add_argument("--d", type=_size, default=None,
                   help=f"dimension of queries and keys (default: {d['d']}, or d with --general)")
    g.add_argument("--d-v", dest="d_v", type=_size, default=None,
                   help="dimension of values (default: the same as --d)")
    g.add_argument("--causal", action="store_true",
                   help="causal mask: query i sees keys j <= i + (n - m), i.e. 1..i when m = n")
    g.add_argument("--heads", type=_positive, default=1, help="number of heads (default: 1)")
    g.add_argument("--projections", action="store_true",
                   help="start from X with projections Q = XW_Q, K = XW_K, V = XW_V")
    g.add_argument("--d-model", dest="d_model", type=_size, default=None,
                   help="width of the inputs X (and Y) and of the multi-head output "
                        "(default: the same as --d)")
    g.add_argument("--cross", action="store_true", default=None,
                   help="with --projections: take K and V from a second sequence Y "
                        "(cross-attention; the default when m != n)")
    g.add_argument("--scale", choices=("symbolic", "number"), default="symbolic",
                   help="keep sqrt(d) as in the formula (default), or substitute the number")


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
                       help=f"most scalar products a concrete attention expansion may "
                            f"write out, per head (default: {default.max_terms:,})")


def _add_general(p: argparse.ArgumentParser) -> None:
    p.add_argument("--general", action="store_true",
                   help="general sizes (m, ell, n, d) with ellipses, as in the article")


def _subparser(sub, name: str, help_: str) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help_, description=help_, epilog=EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``symrow`` command."""
    parser = _Parser(
        prog="symrow",
        description="Matrix products read as maps between vector sequences: narrated, "
                    "step-by-step derivations of AB (combine), AB^T (match) and attention "
                    "(match, distribute, combine), as text, LaTeX, Markdown or PDF.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"symrow {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    for name, help_, b_default in (
            ("combine", "derive C = AB, read as combine (結合)", "3x2"),
            ("match", "derive C = AB^T, read as match (照合)", "4x3")):
        p = _subparser(sub, name, help_)
        _add_product_sizes(p, b_default)
        _add_general(p)
        _add_output(p)
        _add_limits(p, "max_dim")
        p.set_defaults(run=_run_derivation, kind=name)

    p = _subparser(sub, "attention",
                   "derive softmax(QK^T/sqrt(d))V: match, distribute (配分), combine")
    _add_attention_sizes(p)
    _add_general(p)
    _add_output(p)
    _add_limits(p, "max_dim", "max_terms")
    p.set_defaults(run=_run_derivation, kind="attention")

    p = _subparser(sub, "handout", "the full handout on the mathematics of attention")
    _add_output(p)
    p.set_defaults(run=_run_handout, kind="handout")

    p = _subparser(sub, "check", "check a hand derivation (LaTeX) against symrow, step by step")
    p.add_argument("file", metavar="FILE", help="the hand derivation in LaTeX; - reads stdin")
    p.add_argument("--against", required=True, choices=("combine", "match", "attention"),
                   help="the derivation to compare with")
    _add_product_sizes(p, "3x2 for combine, 4x3 for match")
    _add_attention_sizes(p)
    _add_general(p)
    p.add_argument("--format", "-f", choices=("text", "json"), default="text",
                   help="report format (default: text)")
    p.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="time limit for checking (default: symrow.get_limits().check_timeout)")
    p.add_argument("--parser", choices=("auto", "latex2sympy2", "builtin"), default=None,
                   help="the LaTeX parser: latex2sympy2 (installed on Python < 3.13), builtin "
                        "(every Python; the same reports), or auto (the default: "
                        "$SYMROW_PARSER if set, else latex2sympy2 where it is installed)")
    _add_limits(p, "max_dim", "max_terms")
    p.set_defaults(run=_run_check, kind="check")
    return parser


# -- from flags to the public API ------------------------------------------------------

def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) != 3 or not all(names):
        raise OptionError(f"--names takes three names such as A,B,C; got {text!r}")
    return names


def _product(kind: str, args):
    import symrow
    a_name, b_name, c_name = _names(args.names)
    if args.general:
        if args.a is not None or args.b is not None:
            raise OptionError("--general takes no shapes; give either --general or --a/--b")
        A = symrow.vecseq(a_name, "m", "ell")
        B = symrow.vecseq(b_name, "ell", "n") if kind == "combine" \
            else symrow.vecseq(b_name, "n", "ell")
    else:
        a = args.a or (2, 3)
        b = args.b or ((a[1], 2) if kind == "combine" else (4, a[1]))
        A, B = symrow.vecseq(a_name, *a), symrow.vecseq(b_name, *b)
    return (symrow.combine if kind == "combine" else symrow.match)(A, B, name=c_name)


def _attention(args):
    from .derive.attention import attention
    sizes = {}
    for key in ("m", "n", "d"):
        given = getattr(args, key)
        sizes[key] = given if given is not None else (key if args.general
                                                      else DEFAULT_ATTENTION[key])
    return attention(sizes["m"], sizes["n"], sizes["d"], d_v=args.d_v, causal=args.causal,
                     heads=args.heads, projections=args.projections, d_model=args.d_model,
                     cross=args.cross, scale=args.scale)


def build_derivation(kind: str, args):
    """The derivation that ``kind`` (combine, match, attention) and the size flags ask for.

    Shared by the derivation subcommands and ``check --against``.
    """
    if kind == "attention":
        return _attention(args)
    return _product(kind, args)


def render(obj, fmt: str, lang: str) -> str | bytes:
    """A derivation (or the handout) in one output format."""
    if fmt == "latex":
        return obj.to_latex(lang)
    if fmt == "markdown":
        return obj.to_markdown(lang)
    if fmt == "text":
        return obj.to_text(lang)
    if fmt == "tex":
        return obj.to_document(lang)
    if fmt == "pdf":
        return obj.to_pdf(lang)
    raise OptionError(f"unknown format {fmt!r}")


def resolve_format(args) -> str:
    """--format if given, else what the suffix of -o asks for, else text."""
    if args.format:
        return args.format
    if args.output:
        return SUFFIX_FORMATS.get(Path(args.output).suffix.lower(), "text")
    return "text"


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
    _check_destination(fmt, args.output)
    emit(render(build_derivation(args.kind, args), fmt, args.lang), args.output)
    return 0


def _run_handout(args) -> int:
    from .handout import handout
    fmt = resolve_format(args)
    _check_destination(fmt, args.output)
    emit(render(handout(), fmt, args.lang), args.output)
    return 0


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


def _run_check(args) -> int:
    tex = _read_input(args.file)
    derivation = build_derivation(args.against, args)
    import symrow
    report = symrow.check(tex, against=derivation, timeout=args.timeout,
                          parser=args.parser or "auto")
    out = report.to_json() if args.format == "json" else report.to_text()
    emit(out if out.endswith("\n") else out + "\n", None)
    return report.exit_code


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
    args = parser.parse_args(argv)
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
