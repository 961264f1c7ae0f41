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
step 1  line 3  holds     C = AB
step 2  line 4  wrong     AB = \\begin{bmatrix} a_{11}b_{11} + a_{12}b_{21} & a_{11}b_{12} + a...
        entry (2, 2) differs
          missing term: a_{22} b_{22}
          extra term: a_{22} b_{12}
verdict: wrong (1 step holds, 1 wrong)

How it works, in four stages, each in its own module:

1. :mod:`.lexer` and :mod:`.structure` read the text into tokens, nest
   braces and environments, and cut it into chains ``a = b = c``: each
   ``=`` is a step;
2. :mod:`.translate` turns each side into a small language of placeholders,
   and :mod:`.parse` reads it with latex2sympy2 behind a hardened wrapper
   (state reset, full-input check, a lock) or with the built-in parser
   (:mod:`.flatparse`), which gives the same trees on every Python;
3. :mod:`.evaluate` turns the parsed trees into SymPy numbers and matrices
   in the derivation's own symbols (:mod:`.reference`);
4. :mod:`.verify` compares the sides entry by entry and explains a
   difference; :mod:`.report` holds the result.

Parsing and verifying run under one time limit (:mod:`.deadline`).
"""

from __future__ import annotations

import itertools
import math

from ..errors import LimitError, OptionError, ParseError
from ..limits import get_limits
from .deadline import run_with_deadline
from .report import Report, StepReport

__all__ = ["check", "Report", "StepReport", "MAX_INPUT"]

#: the longest input the checker reads, in characters
MAX_INPUT = 200_000
#: the most index combinations (i, j, ...) one step may need
MAX_ASSIGNMENTS = 4096


def _timeout(timeout) -> float | None:
    if timeout is None:
        timeout = get_limits().check_timeout
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or \
            math.isnan(timeout) or timeout <= 0:
        raise OptionError(f"timeout must be a positive number of seconds; got {timeout!r}")
    return None if math.isinf(timeout) else float(timeout)


def check(tex: str, against, *, timeout: float | None = None, parser: str = "auto") -> Report:
    """Check the hand derivation ``tex`` against the derivation ``against``.

    Returns a :class:`Report`.  Raises :class:`symrow.ParseError` when the
    text as a whole cannot be read (unbalanced braces or environments, no
    equation at all), :class:`symrow.CheckTimeout` after ``timeout``
    seconds (default ``symrow.get_limits().check_timeout``), and
    :class:`symrow.OptionError` for a bad argument.

    ``parser`` picks the LaTeX parser: "latex2sympy2", "builtin", or
    "auto" (the default): the ``SYMROW_PARSER`` environment variable if set,
    else latex2sympy2 where it is installed (Python < 3.13) and the built-in
    parser elsewhere.  Both give the same reports.
    """
    if not isinstance(tex, str):
        raise OptionError(f"the hand derivation must be a string of LaTeX; got "
                          f"{type(tex).__name__}")
    seconds = _timeout(timeout)
    if len(tex) > MAX_INPUT:
        raise LimitError(f"the input has {len(tex)} characters, more than the checker reads "
                         f"({MAX_INPUT})")
    from . import parse
    backend = parse.choose(parser)
    if backend == "builtin":
        return run_with_deadline(lambda: _check(tex, against, backend), seconds)
    parse.load()   # the import is not user-dependent: keep it out of the time limit
    try:
        return run_with_deadline(lambda: _check(tex, against, backend), seconds,
                                 on_timeout=parse.reset_parser_caches)
    finally:
        parse.release_if_owned()


def _check(tex: str, against, parser: str) -> Report:
    from .evaluate import Evaluator, MathError, ReadError, parse_unit, step_ranges
    from .lexer import Source, build_tree, tokenize
    from .reference import Reference
    from .structure import Chain, Problem, split
    from .translate import TranslateError, Translator
    from .values import Undecided
    from .verify import compare

    ref = Reference(against)
    src = Source(tex)
    tree = build_tree(tokenize(tex), src)
    items = split(tree, src)
    if not items:
        raise ParseError("there is no equation to check: write steps such as C = AB, one "
                         "per line or in an align* environment", line=1, column=1,
                         near=src.near(0))
    translator = Translator(ref, src)
    evaluator = Evaluator(ref)
    cache: dict = {}
    steps: list[StepReport] = []

    def error_dict(message: str, pos: int, end: int) -> dict:
        line, column = src.line_col(pos)
        return {"message": message, "line": line, "column": column, "near": src.near(pos, end)}

    def unparsed(pos: int, left: str, right: str, err: dict) -> None:
        line, column = src.line_col(pos)
        steps.append(StepReport(len(steps) + 1, line, column, left, right, "unparsed",
                                err["message"], error=err))

    for item in items:
        if isinstance(item, Problem):
            text = src.text[item.pos:item.end]
            unparsed(item.pos, text, "", error_dict(item.message, item.pos, item.end))
            continue
        assert isinstance(item, Chain)
        units = []
        for member in item.members:
            try:
                unit = translator.unit(member.nodes, member.pos, member.end)
                parse_unit(unit, cache, parser)
                units.append(unit)
            except TranslateError as err:
                units.append(error_dict(err.message, err.pos, err.end))
            except ReadError as err:
                units.append(error_dict(err.message, err.pos, err.end))
            except RecursionError:
                units.append(error_dict("this is nested too deeply to read", member.pos,
                                        member.end))
            except Exception as err:  # noqa: BLE001 - a bug must not cost the report
                units.append(error_dict(
                    f"internal error while reading this: {type(err).__name__}: "
                    f"{' '.join(str(err).split())[:200]} (a bug in symrow; please report it)",
                    member.pos, member.end))
        for k, eq in enumerate(item.equals):
            lm, rm = item.members[k], item.members[k + 1]
            left, right = src.text[lm.pos:lm.end].strip(), src.text[rm.pos:rm.end].strip()
            lu, ru = units[k], units[k + 1]
            bad = lu if isinstance(lu, dict) else ru if isinstance(ru, dict) else None
            if bad is not None:
                unparsed(eq.pos, left, right, bad)
                continue
            line, column = src.line_col(eq.pos)
            # free indices (c_{ij} = ...): check every value they can take
            try:
                bounds = step_ranges(lu, ru, ref)
                names = sorted(bounds)
                ranges = [range(1, bounds[n] + 1) for n in names]
            except MathError as err:
                unparsed(eq.pos, left, right, error_dict(str(err), eq.pos, eq.end))
                continue
            total = math.prod(len(r) for r in ranges)
            if total > MAX_ASSIGNMENTS:
                unparsed(eq.pos, left, right, error_dict(
                    f"the free indices {', '.join(names)} take {total} combinations, more "
                    f"than {MAX_ASSIGNMENTS}", eq.pos, eq.end))
                continue
            report = None
            for values in itertools.product(*ranges):
                env = dict(zip(names, values))
                try:
                    diff = compare(evaluator.value(lu, env), evaluator.value(ru, env), ref)
                except Undecided as err:
                    report = StepReport(len(steps) + 1, line, column, left, right, "unparsed",
                                        str(err), indices=env or None,
                                        error=error_dict(str(err), eq.pos, eq.end))
                    break
                except MathError as err:
                    report = StepReport(len(steps) + 1, line, column, left, right, "wrong",
                                        str(err), indices=env or None)
                    break
                except RecursionError:
                    report = StepReport(len(steps) + 1, line, column, left, right, "unparsed",
                                        "this step is nested too deeply to check",
                                        error=error_dict("this step is nested too deeply to "
                                                         "check", eq.pos, eq.end))
                    break
                except Exception as err:  # noqa: BLE001 - a bug must not cost the report
                    message = (f"internal error while checking this step: "
                               f"{type(err).__name__}: {' '.join(str(err).split())[:200]} "
                               f"(a bug in symrow; please report it)")
                    report = StepReport(len(steps) + 1, line, column, left, right, "unparsed",
                                        message, error=error_dict(message, eq.pos, eq.end))
                    break
                if diff is not None:
                    report = StepReport(
                        len(steps) + 1, line, column, left, right, "wrong", diff.message,
                        entry=diff.entry, indices=env or None,
                        detail=diff.detail.to_dict() if diff.detail else None,
                        others=tuple(diff.others))
                    break
            if report is None:
                report = StepReport(len(steps) + 1, line, column, left, right, "holds")
            steps.append(report)
    return Report(ref.describe(), steps)
