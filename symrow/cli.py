"""The ``symrow`` command: argument parsing -> public API -> output.

No logic of its own lives here.  Exit codes: 0 success, 2 usage or input
error (one line on stderr, no traceback).  ``check`` adds 1 for a wrong
derivation.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Callable, Sequence

from .errors import OptionError, SizeError, SymrowError

__all__ = ["main", "build_parser"]

FORMATS = ("latex", "markdown", "text", "tex", "pdf")

EPILOG = """\
examples:
  symrow combine --a 2x3 --b 3x2                 concrete C = AB, narrated, as text
  symrow match --general --format latex          general C = AB^T as a LaTeX fragment
  symrow combine --general --lang ja --format tex -o c.tex
                                                 a complete Japanese LaTeX document

formats: latex (fragment), markdown ($$ blocks, for KaTeX sites and Jupyter),
text (Unicode, for a terminal), tex (standalone document), pdf (compiled).
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line on stderr and exit 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


def _shape(text: str) -> tuple:
    """``2x3`` -> (2, 3); ``mxell`` is not accepted: use --general."""
    m = re.fullmatch(r"\s*(\d+)\s*[x×,]\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"shape must look like 2x3, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", "-f", choices=FORMATS, default="text",
                   help="output format (default: text)")
    p.add_argument("--lang", choices=("en", "ja"), default="en",
                   help="narration language (default: en)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (atomically) instead of standard output")


def _product_parser(sub, name: str, help_: str, b_default: str) -> None:
    p = sub.add_parser(name, help=help_, description=help_, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", type=_shape, default=(2, 3), metavar="MxL",
                   help="shape of A, e.g. 2x3 (default: 2x3)")
    p.add_argument("--b", type=_shape, default=None, metavar="RxC",
                   help=f"shape of B (default: {b_default})")
    p.add_argument("--general", action="store_true",
                   help="general sizes m, ell, n with ellipses, as in the article")
    p.add_argument("--names", default="A,B,C", metavar="A,B,C",
                   help="names of the two operands and the result (default: A,B,C)")
    _add_common(p)
    p.set_defaults(run=_run_product, product=name)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="symrow",
        description="Matrix products read as maps between vector sequences: narrated, "
                    "step-by-step derivations of AB (combine), AB^T (match) and attention.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"symrow {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _product_parser(sub, "combine", "derive C = AB, read as combine (結合)", "3x2")
    _product_parser(sub, "match", "derive C = AB^T, read as match (照合)", "4x3")
    return parser


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) != 3 or not all(names):
        raise OptionError(f"--names takes three names such as A,B,C; got {text!r}")
    return names


def _run_product(args) -> object:
    import symrow
    a_name, b_name, c_name = _names(args.names)
    if args.general:
        if args.product == "combine":
            A, B = symrow.vecseq(a_name, "m", "ell"), symrow.vecseq(b_name, "ell", "n")
        else:
            A, B = symrow.vecseq(a_name, "m", "ell"), symrow.vecseq(b_name, "n", "ell")
    else:
        b = args.b or ((args.a[1], 2) if args.product == "combine" else (4, args.a[1]))
        A, B = symrow.vecseq(a_name, *args.a), symrow.vecseq(b_name, *b)
    fn = symrow.combine if args.product == "combine" else symrow.match
    return fn(A, B, name=c_name)


def render(derivation, fmt: str, lang: str) -> str | bytes:
    """The derivation in one output format."""
    if fmt == "latex":
        return derivation.to_latex(lang)
    if fmt == "markdown":
        return derivation.to_markdown(lang)
    if fmt == "text":
        return derivation.to_text(lang)
    if fmt == "tex":
        return derivation.to_document(lang)
    if fmt == "pdf":
        return derivation.to_pdf(lang)
    raise OptionError(f"unknown format {fmt!r}")


def emit(data: str | bytes, output: str | None) -> None:
    """Write to a file atomically, or to standard output."""
    if output:
        from .outfile import write_atomic
        write_atomic(output, data)
        return
    if isinstance(data, bytes):
        if sys.stdout.isatty():
            raise OptionError("refusing to write a PDF to a terminal; use -o FILE")
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data)
    sys.stdout.flush()


def _default(args) -> int:
    import symrow
    d = symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2))
    emit(d.to_text("en"), None)
    sys.stderr.write("hint: symrow --help lists the commands; try "
                     "`symrow match --general --format latex`\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            return _default(args)
        run: Callable = args.run
        out = run(args)
        if isinstance(out, int):
            return out
        emit(render(out, args.format, args.lang), args.output)
        return 0
    except SymrowError as err:
        sys.stderr.write(f"symrow: error: {err}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("symrow: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
