"""The checker's parser: one interface, two backends.

The text it gets is never the user's: the translator (:mod:`.translate`)
hands it a small, regular language of placeholders, numbers,
``+ - \\cdot / \\frac \\sqrt e^{} \\exp \\sum``, ``{a}^{b}`` and
``\\infty``.  :func:`parse` reads one such text into an unevaluated SymPy
tree with one of two parsers:

* ``latex2sympy2`` (1.9.1), the parser the project was specified with,
  wherever it is installed and imports (Python < 3.13);
* ``builtin``, :mod:`.flatparse`, a small parser written for this language,
  which returns the same trees and runs on every Python.

``parser="auto"`` (the default) takes the ``SYMROW_PARSER`` environment
variable if it is set, else latex2sympy2 where it is available and the
built-in parser elsewhere.  Asking for latex2sympy2 where it cannot be
imported is an :class:`symrow.OptionError`.

latex2sympy2 has hazards (see the project notes): it keeps state in module
globals, one bad input rebinds a global and breaks every later parse, and
its grammar has no end-of-input anchor, so it returns the parsed prefix of
an input and drops the rest without a word.  Its path here is the only
place that touches it:

* it is imported lazily, on the first parse, never by ``import symrow``;
* every call resets the module globals (``var``, ``variances``,
  ``VARIABLE_VALUES``, ``is_real``, ``frac_type``) and holds a lock, so no
  call sees what an earlier or a concurrent call left behind;
* it drives latex2sympy2's own lexer, parser and converter, and then checks
  that the parser consumed *every* token: an unparsed rest is an error at
  the first token it left;
* it reports where the text stopped as an offset, which the caller maps
  back to the user's line and column.

The built-in parser needs none of that: it keeps no state, and reads to the
end of its input or raises.

>>> from symrow.reader.entries.parse import parse
>>> parse(r"a b + \\frac{c}{2}")
a*b + c/2
>>> parse(r"a b + \\frac{c}{2}", parser="builtin")
a*b + c/2
>>> parse(r"a + b )", parser="builtin")
Traceback (most recent call last):
...
symrow.reader.entries.parse.TextError: unexpected ')' after the end of the expression (offset 6)
"""

from __future__ import annotations

import os
import threading
import warnings

import sympy

from .parse_errors import TextError, TooComplex
from .units import NESTED, Atom, Unit

__all__ = ["parse", "TextError", "TooComplex", "PARSERS", "ENV_VAR", "choose", "available",
           "load", "reset_parser_caches", "release_if_owned", "parse_unit", "ReadError", "sub_units"]

#: the values of ``parser=`` (and of ``--parser`` and ``SYMROW_PARSER``)
PARSERS = ("auto", "latex2sympy2", "builtin")
#: the environment variable that picks the parser when ``parser`` is "auto"
ENV_VAR = "SYMROW_PARSER"

# An RLock knows its owner: if a time limit interrupts this thread right after
# it took the lock, release_if_owned() can give it back.
_lock = threading.RLock()
_mod = None          # the latex2sympy2 module, once loaded
_classes = None      # (InputStream, CommonTokenStream, Token, ErrorListener, PSLexer, PSParser)
_missing = None      # why latex2sympy2 cannot be imported, once that is known


def available() -> bool:
    """True if latex2sympy2 can be imported here (it is installed only on Python < 3.13)."""
    global _missing
    if _mod is not None:
        return True
    if _missing is not None:
        return False
    try:
        load()
    except Exception as err:  # noqa: BLE001 - ImportError, or typing.io on 3.13
        _missing = f"{type(err).__name__}: {err}"
        return False
    return True


def choose(parser: str | None = "auto") -> str:
    """The parser to use, "latex2sympy2" or "builtin", for ``parser`` (see the module doc).

    >>> choose("builtin")
    'builtin'
    >>> choose("antlr")
    Traceback (most recent call last):
    ...
    symrow.errors.OptionError: parser must be one of auto, latex2sympy2, builtin; got 'antlr'
    """
    from ...errors import OptionError
    where = "parser"
    if parser is None or parser == "auto":
        env = os.environ.get(ENV_VAR, "").strip()
        if env:
            parser, where = env, f"the environment variable {ENV_VAR}"
    if not isinstance(parser, str) or parser not in PARSERS:
        raise OptionError(f"{where} must be one of {', '.join(PARSERS)}; got {parser!r}")
    if parser == "builtin":
        return parser
    if available():
        return "latex2sympy2"
    if parser == "auto":
        return "builtin"
    asked = f", as {where} asks" if where != "parser" else ""
    raise OptionError(f"the latex2sympy2 parser cannot be used here{asked} ({_missing}); it "
                      f"is installed only on Python < 3.13; choose builtin or auto instead")


def load():
    """Import latex2sympy2 and its ANTLR runtime (about half a second, once)."""
    global _mod, _classes
    if _mod is not None:
        return _mod
    with _lock:
        if _mod is None:
            with warnings.catch_warnings():
                # latex2sympy2 1.9.1 imports typing.io, deprecated since Python 3.8
                warnings.simplefilter("ignore", DeprecationWarning)
                import latex2sympy2 as mod
                from antlr4 import CommonTokenStream, InputStream, Token
                from antlr4.error.ErrorListener import ErrorListener
                try:
                    from gen.PSLexer import PSLexer
                    from gen.PSParser import PSParser
                except ImportError:  # pragma: no cover - other packagings
                    from latex2sympy2.gen.PSLexer import PSLexer  # type: ignore
                    from latex2sympy2.gen.PSParser import PSParser  # type: ignore
            _classes = (InputStream, CommonTokenStream, Token, ErrorListener, PSLexer, PSParser)
            _mod = mod
    return _mod


def release_if_owned() -> None:
    """Release the parser lock if this thread still holds it (after an interruption)."""
    while _lock._is_owned():
        _lock.release()


def _reset_globals(mod) -> None:
    """Put latex2sympy2's module state back to a fixed, empty state."""
    mod.var = {}
    mod.variances = {}
    mod.VARIABLE_VALUES = {}
    mod.is_real = None
    mod.frac_type = r"\frac"


def reset_parser_caches() -> None:
    """Drop the ANTLR prediction caches (after an interrupted parse may have left them half-built)."""
    if _classes is None:
        return
    from antlr4.dfa.DFA import DFA
    from antlr4.PredictionContext import PredictionContextCache
    for cls in _classes[4:]:
        atn = cls.atn
        cls.decisionsToDFA = [DFA(state, i) for i, state in enumerate(atn.decisionToState)]
        if hasattr(cls, "sharedContextCache"):
            cls.sharedContextCache = PredictionContextCache()


def _listener_class():
    ErrorListener = _classes[3]

    class Listener(ErrorListener):
        def syntaxError(self, recognizer, offending, line, column, msg, e):  # noqa: N802
            offset = offending.start if offending is not None and offending.start >= 0 \
                else column
            text = getattr(offending, "text", None)
            if text == "<EOF>" or text is None:
                raise TextError("the expression ends too early", offset)
            raise TextError(f"unexpected {text!r}", offset)
    return Listener


_Listener = None


def _run(text: str, mode):
    """One parse attempt with the given ANTLR prediction mode."""
    mod = _mod
    InputStream, CommonTokenStream, Token, _, PSLexer, PSParser = _classes
    _reset_globals(mod)
    listener = _Listener()
    lexer = PSLexer(InputStream(text))
    lexer.removeErrorListeners()
    lexer.addErrorListener(listener)
    tokens = CommonTokenStream(lexer)
    parser = PSParser(tokens)
    parser.removeErrorListeners()
    parser.addErrorListener(listener)
    parser._interp.predictionMode = mode
    tree = parser.math()
    rest = tokens.LT(1)
    if rest is not None and rest.type != Token.EOF:
        raise TextError(f"unexpected {rest.text!r} after the end of the expression", rest.start)
    relation = tree.relation()
    if tree.relation_list() is not None or relation is None or relation.expr() is None:
        raise TextError("expected one expression, not a relation", 0)
    return mod.convert_relation(relation)


def parse(text: str, *, parser: str | None = "auto", two_stage: bool = True):
    """Parse translated text into an unevaluated SymPy expression.

    ``parser`` is "auto", "latex2sympy2" or "builtin" (see :func:`choose`).
    Raises :class:`TextError` when the text cannot be read to its end, and
    :class:`TooComplex` (the built-in parser) or ``RecursionError``
    (latex2sympy2) when it is too long or nested too deeply.
    """
    if choose(parser) == "builtin":
        from .flatparse import parse as builtin_parse
        return builtin_parse(text)
    return _parse_latex2sympy2(text, two_stage)


def _parse_latex2sympy2(text: str, two_stage: bool):
    """latex2sympy2 behind the wrapper.

    The usual ANTLR two-stage strategy keeps it fast: a parse in SLL mode (no
    full-context prediction), and only if that fails, a parse in full LL
    mode, whose error is the one reported.  ``two_stage=False`` parses in LL
    mode only (the tests compare both).
    """
    global _Listener
    load()
    if _Listener is None:
        _Listener = _listener_class()
    from antlr4.atn.PredictionMode import PredictionMode
    from ...deadline import Deadline, remaining
    left = remaining()
    if not _lock.acquire(timeout=-1 if left is None else max(left, 0.001)):
        raise Deadline()
    try:
        if two_stage:
            try:
                return _run(text, PredictionMode.SLL)
            except RecursionError:
                raise           # too long for either mode: do not spend as long again
            except Exception:  # noqa: BLE001 - any other failure: let full LL decide
                pass
        return _run(text, PredictionMode.LL)
    finally:
        _reset_globals(_mod)
        _lock.release()


# -- translated units ---------------------------------------------------------------------

class ReadError(Exception):
    """A unit cannot be read; ``pos``/``end`` locate it in the source."""

    def __init__(self, message: str, pos: int, end: int):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.end = end


_ALLOWED = (sympy.Symbol, sympy.Number, sympy.Add, sympy.Mul, sympy.Pow, sympy.exp,
            sympy.Sum, sympy.Tuple)
#: the constants a parsed tree may hold besides numbers and placeholders
ALLOWED_SINGLETONS = (sympy.S.Exp1, sympy.S.Infinity, sympy.S.NegativeInfinity)


def _check_tree(tree, unit: Unit) -> None:
    """Only the node types the translator emits; anything else is refused."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node in ALLOWED_SINGLETONS:
            continue
        if not isinstance(node, _ALLOWED) or node in (sympy.nan, sympy.zoo) or \
                isinstance(node, sympy.Float) and not node.is_finite:
            raise ReadError(f"cannot read this expression (it parsed to "
                            f"{type(node).__name__})", unit.pos, unit.end)
        if isinstance(node, sympy.Symbol) and node.name not in unit.atoms:
            raise ReadError(f"cannot read this expression (stray symbol {node.name})",
                            unit.pos, unit.end)
        stack.extend(node.args)


def parse_unit(unit: Unit, cache: dict, parser: str = "auto") -> None:
    """Parse a unit and all its matrix cells; ``cache`` maps text to parsed trees.

    ``parser`` is passed to :func:`parse`; one cache
    must only ever see one parser.
    """
    if unit.tree is None:
        tree = cache.get(unit.text)
        if tree is None:
            try:
                tree = parse(unit.text, parser=parser)
            except (TooComplex, RecursionError):
                raise ReadError("this expression is too long or nested too deeply for the "
                                "parser; split it into several steps", unit.pos,
                                unit.end) from None
            except TextError as err:
                pos, end = unit.source_span(err.offset)
                raise ReadError(f"cannot read this: {err.reason}", pos, end) from None
            except Exception as err:  # latex2sympy2's converter raises bare Exceptions
                reason = " ".join(str(err).split())[:120] or type(err).__name__
                raise ReadError(f"cannot read this expression ({reason})", unit.pos,
                                unit.end) from None
            cache[unit.text] = tree
        _check_tree(tree, unit)
        unit.tree = tree
    for atom in unit.atoms.values():
        for cell in sub_units(atom):
            parse_unit(cell, cache, parser)


def sub_units(atom: Atom):
    """Every unit inside an atom (matrix cells, a group, the rows of a cases, ...)."""
    if atom.kind in NESTED:
        for row in atom.cells:
            for cell in row:
                if cell is not None:
                    yield cell
