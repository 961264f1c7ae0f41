"""The built-in parser of the placeholder language (symrow/reader/entries/flatparse.py),
and how the checker chooses between it and latex2sympy2.

The expected trees here are written out by hand, so these tests run (and
mean the same) on every Python; that they are also latex2sympy2's trees is
shown in test_check_parity.py.
"""

from __future__ import annotations

import os
import subprocess
import sys

import harness
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symrow
from check_cases.derivations import against
from symrow.reader.entries import flatparse, parse
from symrow.reader.entries.flatparse import MAX_DEPTH, MAX_ITEMS, MAX_NUMBER_DIGITS

a, b, c, f, g = sympy.symbols("a b c f g")
alpha = sympy.Symbol("alpha")
Mul = lambda *args: sympy.Mul(*args, evaluate=False)    # noqa: E731
Add = lambda *args: sympy.Add(*args, evaluate=False)    # noqa: E731
Pow = lambda x, y: sympy.Pow(x, y, evaluate=False)      # noqa: E731
inv = lambda x: Pow(x, -1)                              # noqa: E731


@pytest.mark.parametrize("text, tree", [
    ("a", a),
    ("12", sympy.Integer(12)),
    ("0.5", sympy.Rational(1, 2)),
    ("1.50", sympy.Rational(3, 2)),
    ("123456789012345678901234567890", sympy.Integer(123456789012345678901234567890)),
    (r"\infty", sympy.oo),
    (r"- \infty", -sympy.oo),
    (r"\alpha \alpha_{97}", Mul(alpha, sympy.Symbol("alpha_{97}"))),
    # juxtaposition: one flat product, in the order written
    ("a b c", Mul(a, b, c)),
    ("b a", Mul(b, a)),
    ("2 a 2", Mul(2, a, 2)),
    # sums, differences, signs: a number is negated, anything else is Mul(-1, ...)
    ("a + b - c", Add(a, b, Mul(-1, c))),
    ("a - 2", Add(a, -2)),
    ("a - - 2", Add(a, 2)),
    ("a - b c", Add(a, Mul(-1, b, c))),
    ("- a b", Mul(-1, a, b)),
    ("- - a", Mul(-1, -1, a)),
    ("+ a", a),
    # \cdot and /: left to right; a product is flattened, the left of a division is not
    (r"a \cdot b / c \cdot f", Mul(Mul(a, b), inv(c), f)),
    ("a / b / c", Mul(Mul(a, inv(b)), inv(c))),
    (r"a \cdot - b", Mul(a, -1, b)),
    # juxtaposition binds tighter than / and \cdot
    ("a / b c", Mul(a, inv(Mul(b, c)))),
    (r"\frac{ a }{ b } c", Mul(a, inv(b), c)),
    (r"\frac{1}{2}", Mul(1, inv(2))),
    # powers: left to right, markers are placeholder exponents
    ("{a} ^{ b } ^{ c }", Pow(Pow(a, b), c)),
    ("a {b} ^{ c }", Mul(a, Pow(b, c))),
    ("2 ^{ a } b", Mul(Pow(2, a), b)),
    (r"\sqrt{ a }", Pow(a, sympy.S.Half)),
    (r"\sqrt[ 3 ]{ a }", Pow(a, sympy.Rational(1, 3))),
    (r"\sqrt[ b ]{ a }", Pow(a, 1 / b)),
    # exp is evaluated as SymPy evaluates it
    ("e^{ a } b", Mul(sympy.exp(a), b)),
    ("e^{ 0 } a", Mul(1, a)),
    ("e^{ 1 }", sympy.E),
    (r"\exp\left(1\right)", sympy.E),
    (r"\exp\left(1\right) ^{ a }", Pow(sympy.E, a)),
    # a sum's body is a product; nested sums are one Sum with several limits
    (r"\sum_{ a = 1 }^{ b } c f + g", Add(sympy.Sum(Mul(c, f), (a, 1, b)), g)),
    (r"\sum_{ a = 1 }^{ 2 } \sum_{ b = 1 }^{ 3 } c", sympy.Sum(c, (b, 1, 3), (a, 1, 2))),
    (r"f \sum_{ a = b - 1 }^{ 3 } c \cdot g", Mul(f, sympy.Sum(Mul(c, g), (a, Add(b, -1), 3)))),
])
def test_trees(text, tree):
    assert harness.tree_structure(flatparse.parse(text)) == harness.tree_structure(tree)


@pytest.mark.parametrize("text, reason, offset", [
    ("a + b )", "unexpected ')' after the end of the expression", 6),
    ("a + )", "unexpected ')'", 4),
    ("a +", "the expression ends too early", 3),
    ("", "the expression ends too early", 0),
    ("   ", "the expression ends too early", 3),
    ("a = b", "expected one expression, not a relation", 2),
    ("a < b", "expected one expression, not a relation", 2),
    ("a b d", "unexpected 'd' (not a placeholder)", 4),
    ("a & b", "unexpected '&' after the end of the expression", 2),
    (r"\frac{ a }", "the expression ends too early", 10),
    (r"\frac{ a }{ b", "the expression ends too early", 13),
    (r"{a} ^ +", "unexpected '+' (after '^' at offset 4)", 6),
    (r"\sum_{ 2 = 1 }^{ 3 } a", "the index of a sum must be a placeholder", 5),
    (r"\sum a", "unexpected 'a' (a sum needs _{a=lo} and ^{hi})", 5),
    (r"a \foo", r"unexpected '\\foo' after the end of the expression", 2),
    ("( a )", "unexpected '('", 0),
    (r"\alpha_{x}", "unexpected 'x' (a placeholder's number)", 8),
])
def test_errors_name_where_reading_stopped(text, reason, offset):
    with pytest.raises(parse.TextError) as err:
        flatparse.parse(text)
    assert (err.value.reason, err.value.offset) == (reason, offset)
    assert not isinstance(err.value, parse.TooComplex)


def test_an_error_offset_becomes_the_user_s_column():
    from symrow.reader.entries.parse import ReadError, parse_unit
    from symrow.reader.entries.units import Atom, Unit
    # "a + )" written from source positions 10..15
    unit = Unit("a + )", {"a": Atom("whole", "A")}, [(0, 1, 10, 11), (2, 3, 12, 13),
                                                      (4, 5, 14, 15)], 10, 15)
    with pytest.raises(ReadError) as err:
        parse_unit(unit, {}, "builtin")
    assert (err.value.pos, err.value.end) == (14, 15)
    assert err.value.message == "cannot read this: unexpected ')'"


# -- limits -------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda n: " + ".join(["a"] * n),        # terms
    lambda n: " ".join(["a"] * n),          # juxtaposed factors
    lambda n: r" \cdot ".join(["a"] * n),   # factors
    lambda n: " / ".join(["a"] * n),        # quotients
    lambda n: "- " * n + "a",               # signs in a row
    lambda n: "{a}" + " ^{ b }" * (n - 1),  # powers
], ids=["terms", "juxtaposed", "cdot", "division", "signs", "powers"])
def test_at_most_max_items_in_a_chain(make):
    assert flatparse.parse(make(MAX_ITEMS)) is not None
    with pytest.raises(parse.TooComplex):
        flatparse.parse(make(MAX_ITEMS + 1))


@pytest.mark.parametrize("make", [
    lambda n: "{ " * n + "a" + " }" * n,
    lambda n: r"\sum_{ a = 1 }^{ 2 } " * n + "b",
    lambda n: r"\sqrt{ " * n + "a" + " }" * n,
    lambda n: "e^{ " * n + "a" + " }" * n,
], ids=["braces", "sums", "roots", "exponents"])
def test_at_most_max_depth_of_nesting(make):
    assert flatparse.parse(make(MAX_DEPTH)) is not None
    with pytest.raises(parse.TooComplex):
        flatparse.parse(make(MAX_DEPTH + 1))


def test_very_deep_nesting_is_refused_without_a_recursion_error():
    for text in ("{ " * 5000 + "a" + " }" * 5000, r"\sum_{ a = 1 }^{ 2 } " * 5000 + "b",
                 "- " * 100_000 + "a"):
        with pytest.raises(parse.TooComplex):
            flatparse.parse(text)


def test_huge_numbers_are_exact_up_to_the_limit():
    digits = "9" * MAX_NUMBER_DIGITS
    assert flatparse.parse(digits) == sympy.Integer(digits)
    assert flatparse.parse(digits[:-1] + ".5") == sympy.Rational(digits[:-1] + "5", 10)
    with pytest.raises(parse.TextError, match="more than 1000 digits"):
        flatparse.parse(digits + "9")
    with pytest.raises(parse.TextError, match="more than 1000 digits"):
        flatparse.parse("a + " + digits + ".5")


def test_a_time_limit_interrupts_the_parser():
    from symrow.deadline import run_with_deadline
    text = " + ".join(["a b"] * 900)

    def forever():
        while True:
            flatparse.parse(text)

    with pytest.raises(symrow.CheckTimeout):
        run_with_deadline(forever, 0.1)


# -- fuzz ------------------------------------------------------------------------------------

PIECES = ["a", "b", "Q", r"\alpha", r"\alpha_{97}", r"\omega", "2", "0.5", "10", "+", "-",
          r"\cdot", "/", "{", "}", "^", "^{", "_", "_{", r"\frac", r"\sqrt", "[", "]", "e",
          "e^{", r"\exp", r"\left(", r"\right)", "(", ")", r"\sum_{", "=", r"\infty", "d",
          "E", "I", "&", r"\foo", "}^{", "1", " ", "\\", "."]


def _answered(text: str) -> None:
    try:
        tree = flatparse.parse(text)
    except parse.TextError as err:
        assert 0 <= err.offset <= len(text)
        return
    assert isinstance(tree, sympy.Basic)


@pytest.mark.slow
@settings(deadline=None, derandomize=True, database=None, max_examples=1500,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_fuzz_pieces_give_a_tree_or_a_text_error(pieces):
    _answered(" ".join(pieces))
    _answered("".join(pieces))


@settings(deadline=None, derandomize=True, database=None, max_examples=300)
@given(st.text(max_size=40))
def test_fuzz_any_text_gives_a_tree_or_a_text_error(text):
    _answered(text)


# -- choosing the parser ------------------------------------------------------------------

@pytest.fixture()
def no_env(monkeypatch):
    monkeypatch.delenv(parse.ENV_VAR, raising=False)


@pytest.fixture()
def without_latex2sympy2(monkeypatch, no_env):
    """As on Python 3.13: latex2sympy2 cannot be imported."""
    monkeypatch.setattr(parse, "_mod", None)
    monkeypatch.setattr(parse, "_missing", "ModuleNotFoundError: No module named 'typing.io'")


def test_choose(no_env, monkeypatch):
    assert parse.choose("builtin") == "builtin"
    monkeypatch.setenv(parse.ENV_VAR, "builtin")
    assert parse.choose("auto") == parse.choose(None) == "builtin"
    assert parse.choose("builtin") == "builtin"
    monkeypatch.setenv(parse.ENV_VAR, "antlr")
    with pytest.raises(symrow.OptionError, match="environment variable SYMROW_PARSER"):
        parse.choose("auto")
    for bad in ("antlr", "", 3):
        with pytest.raises(symrow.OptionError, match="parser must be one of"):
            parse.choose(bad)


def test_auto_is_latex2sympy2_where_it_is_installed(no_env):
    harness.require_latex2sympy2()
    assert parse.choose("auto") == parse.choose("latex2sympy2") == "latex2sympy2"


def test_without_latex2sympy2_auto_is_builtin(without_latex2sympy2):
    assert parse.choose("auto") == "builtin"
    assert symrow.check("C = AB", against("comb22")).ok
    with pytest.raises(symrow.OptionError, match="cannot be used here.*typing.io.*< 3.13"):
        symrow.check("C = AB", against("comb22"), parser="latex2sympy2")


def test_both_parsers_can_be_asked_for_in_check(no_env):
    harness.require_latex2sympy2()
    d = against("comb22")
    for name in ("latex2sympy2", "builtin", "auto"):
        assert symrow.check("C = AB = BA", d, parser=name).verdict == "wrong"
    with pytest.raises(symrow.OptionError):
        symrow.check("C = AB", d, parser="sympy")


def _cli(args, env_extra=None, pythonpath=None):
    env = {k: v for k, v in os.environ.items() if k != parse.ENV_VAR}
    env.update(env_extra or {})
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "symrow", "check", "-", "--against", "combine",
                           "--a", "2x2", "--b", "2x2", *args], input="C = AB = BA\n",
                          capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.slow
def test_cli_parser_flag(tmp_path):
    out = _cli(["--parser", "builtin"])
    assert out.returncode == 1 and "wrong" in out.stdout and out.stderr == ""
    out = _cli([], {parse.ENV_VAR: "builtin"})
    assert out.returncode == 1 and out.stderr == ""
    out = _cli(["--parser", "yacc"])
    assert out.returncode == 2 and "invalid choice" in out.stderr
    out = _cli([], {parse.ENV_VAR: "yacc"})
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "SYMROW_PARSER" in out.stderr


@pytest.mark.slow
def test_cli_where_latex2sympy2_does_not_import(tmp_path):
    # a latex2sympy2 that fails at import, as 1.9.1 does on Python 3.13
    (tmp_path / "latex2sympy2.py").write_text("raise ModuleNotFoundError(\"No module named "
                                              "'typing.io'\")\n")
    out = _cli([], pythonpath=tmp_path)
    assert out.returncode == 1 and "wrong" in out.stdout and out.stderr == ""
    out = _cli(["--parser", "latex2sympy2"], pythonpath=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "typing.io" in out.stderr
    assert out.stderr.startswith("symrow: error: the latex2sympy2 parser cannot be used here")
