"""Check a hand derivation, written in LaTeX, step by step against symrow.

>>> import symrow
>>> d = symrow.combine(symrow.vecseq("A", 2, 2), symrow.vecseq("B", 2, 2))
>>> report = symrow.check(r'''
... \\begin{align*}
... C &= AB \\\\
...   &= \\begin{bmatrix} a_{11}b_{11} + a_{12}b_{21} & a_{11}b_{12} + a_{12}b_{22} \\\\
...                     a_{21}b_{11} + a_{22}b_{21} & a_{21}b_{12} + a_{22}b_{12} \\end{bmatrix}
... \\end{align*}''', against=d)
>>> report.verdict, report.exit_code
('wrong', 1)
>>> print(report.to_text())
symrow check against combine (m=2, ℓ=2, n=2)
step 1  line 3  holds       C = AB
step 2  line 4  wrong       AB = \\begin{bmatrix} a_{11}b_{11} + a_{12}b_{21} & a_{11}b_{12} + a...
                entry (2, 2) differs
                  missing term: a_{22} b_{22}
                  extra term: a_{22} b_{12}
verdict: wrong (2 claims checked: 1 holds, 1 wrong)

How it works, in stages, each in its own module:

0. :mod:`.document` leaves only the page's mathematics to read (Markdown
   fences and comments, notebooks, Beamer overlays), keeping every offset;
1. :mod:`symrow.reader.lexer` and :mod:`.structure` read the text into tokens,
   nest braces and environments, and cut it into chains ``a = b \\approx c``:
   each relation is a claim; math without one (``Row $i$ of $C$``) is not;
2. the entry-level grammar, :mod:`symrow.reader.entries`, turns each side into
   a small language of placeholders (:mod:`symrow.reader.entries.translate`) and
   reads it with latex2sympy2 behind a hardened wrapper (state reset, full-input
   check, a lock) or with the built-in parser, which gives the same trees on
   every Python (:mod:`symrow.reader.entries.parse`);
3. :mod:`symrow.formula.entries` turns the parsed trees into SymPy numbers and
   matrices in the derivation's own symbols (:mod:`.reference`), asking each
   function's reading for its value;
4. :mod:`.verify` compares the sides of ``=`` entry by entry and explains a
   difference (and :mod:`.hints` names a familiar mistake that explains
   it); :mod:`.relations` checks the other relations;
   :mod:`.report` holds the result, :mod:`.present` shows it as
   Markdown or LaTeX.

:mod:`.run` walks the claims (and decides the page's vector convention).
:mod:`.classroom` checks a whole class in parallel.  A derivation with general sizes is checked
at several concrete sizes (:mod:`.general`); the handout section by
section, each against its own derivation.

Parsing and verifying run under one time limit (:mod:`symrow.deadline`).
"""

from __future__ import annotations

import math

from ..errors import ParseError, LimitError, OptionError
from ..limits import get_limits
from ..deadline import run_with_deadline
from .report import Report, StepReport

__all__ = ["check", "Report", "StepReport", "MAX_INPUT"]

#: the longest input the checker reads, in characters: a whole course's lecture notes
#: (symrow's own handout is about 46,000)
MAX_INPUT = 1_000_000
#: the characters one default time limit (``check_timeout``) covers; a longer input gets
#: as many limits as it has such stretches, so a course's notes are checked in one call
CHARACTERS_PER_TIMEOUT = 50_000


def _timeout(timeout, length: int = 0) -> float | None:
    if timeout is None:
        timeout = get_limits().check_timeout * max(1.0, length / CHARACTERS_PER_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or \
            math.isnan(timeout) or timeout <= 0:
        raise OptionError(f"timeout must be a positive number of seconds; got {timeout!r}")
    return None if math.isinf(timeout) else float(timeout)


def check(tex: str, against, *, timeout: float | None = None,
          values: dict | None = None, parser: str = "auto",
          lang: str | None = None) -> Report:
    """Check the hand derivation ``tex`` against the derivation ``against``.

    ``against`` is a derivation with concrete sizes, one with general sizes
    (checked at several concrete sizes, see :mod:`.general`), or the handout
    (``symrow.handout.handout()``: each section against its own derivation).
    ``values`` gives operands numbers, ``{"A": [[1, 2], [3, 4]]}``; a
    definition in the text such as ``A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4
    \\end{bmatrix}`` is then checked against them (without ``values`` it
    gives A those numbers).

    Returns a :class:`Report`; text that cannot be read as a whole (unbalanced
    braces or environments, no claim at all) gives an ``unreadable`` report
    whose one step says where reading stopped.  Raises
    :class:`symrow.CheckTimeout` after ``timeout`` seconds of CPU time (default
    ``symrow.get_limits().check_timeout`` for every 50,000 characters, so that a
    course's notes fit), :class:`symrow.LimitError` for more than
    :data:`MAX_INPUT` characters, and :class:`symrow.OptionError` for a bad
    argument.

    ``lang`` is the language of the report's words, ``en`` or ``ja``; by default the
    page's own (Japanese when its words are).  The JSON report (``to_dict``) is the
    same in both.

    ``parser`` picks the LaTeX parser: "latex2sympy2", "builtin", or
    "auto" (the default): the ``SYMROW_PARSER`` environment variable if set,
    else latex2sympy2 where it is installed (Python < 3.13) and the built-in
    parser elsewhere.  Both give the same reports.
    """
    if not isinstance(tex, str):
        raise OptionError(f"the hand derivation must be a string of LaTeX; got "
                          f"{type(tex).__name__}")
    seconds = _timeout(timeout, len(tex))
    if len(tex) > MAX_INPUT:
        raise LimitError(f"the input has {len(tex)} characters, more than the checker reads "
                         f"({MAX_INPUT})")
    from .words import check_lang, page_language
    lang = page_language(tex) if lang is None else check_lang(lang)
    from .gcpause import fewer_collections
    with fewer_collections():
        report = _check(tex, against, seconds, values, parser)
    report.lang = lang
    return report


def _check(tex: str, against, seconds, values, parser) -> Report:
    from .run import check_text, targets_for
    targets = targets_for(against, _values(values))
    from ..reader.entries import parse
    backend = parse.choose(parser)
    try:
        if backend == "builtin":
            return run_with_deadline(lambda: check_text(tex, targets, backend), seconds)
        parse.load()   # the import is not user-dependent: keep it out of the time limit
        try:
            return run_with_deadline(lambda: check_text(tex, targets, backend), seconds,
                                     on_timeout=parse.reset_parser_caches)
        finally:
            parse.release_if_owned()
    except ParseError as err:
        # text that cannot be read as a whole (no claim at all, unbalanced braces): an
        # unreadable report, as a class summary gives it, not an exception
        return _unreadable(err, targets)


def _unreadable(err, targets):
    from .report import Report, StepReport
    line, column = err.line or 1, err.column or 1
    error = {"message": err.reason, "line": line, "column": column, "near": err.near or ""}
    against = targets[0].describe() if len(targets) == 1 else "the handout"
    step = StepReport(1, line, column, err.near or "", "", "unreadable", err.reason,
                      error=error)
    report = Report(against, [step])
    #: the error that stopped the reading of the whole text (the command line prints it
    #: as its one line; a class summary gives it as the file's note)
    report.failure = err
    return report


def _values(values) -> dict | None:
    """``{"A": [[1, 2], [3, 4]]}`` (lists or SymPy matrices) as SymPy matrices."""
    if values is None:
        return None
    import sympy
    if not isinstance(values, dict):
        raise OptionError(f"values= must be a dict from operand names to matrices; got "
                          f"{type(values).__name__}")
    out = {}
    for name, matrix in values.items():
        try:
            m = sympy.Matrix(matrix)
        except Exception:  # noqa: BLE001 - SymPy raises many kinds
            raise OptionError(f"values for {name!r} must be a matrix of numbers") from None
        if m.free_symbols or any(not x.is_number for x in m):
            raise OptionError(f"values for {name!r} must be numbers")
        out[str(name)] = sympy.ImmutableMatrix(m.applyfunc(sympy.nsimplify))
    return out
