"""The checker's contract: a report or a clear SymrowError, in time, for any input.

Covers the report API, argument errors, the time limit (main thread, other
threads, nested limits), independence from call order and from other
threads, that no user text is evaluated as Python, that ``import symrow``
does not load the parser, and a fuzz test over thousands of random and
mutated inputs.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

import pytest
import sympy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import symrow
from check_cases.derivations import against, combine
from check_cases.handwritten import attention_derivation
from symrow import deadline


# -- import ---------------------------------------------------------------------------------

@pytest.mark.parsers("latex2sympy2", "builtin")   # what each parser does
def test_import_symrow_does_not_load_the_parser(checker_parser):
    # the built-in parser never loads latex2sympy2, not even when it is installed
    loaded = checker_parser == "latex2sympy2"
    code = ("import sys, symrow\n"
            "d = symrow.combine(symrow.vecseq('A', 2, 2), symrow.vecseq('B', 2, 2))\n"
            "d.to_latex(); d.to_text()\n"
            "import symrow.checker\n"
            "assert 'latex2sympy2' not in sys.modules, 'loaded on import'\n"
            "assert 'antlr4' not in sys.modules, 'antlr loaded on import'\n"
            "assert symrow.check('C = AB', d).ok\n"
            f"assert ('latex2sympy2' in sys.modules) is {loaded}\n"
            f"assert ('antlr4' in sys.modules) is {loaded}\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the report -----------------------------------------------------------------------------

def test_report_api_text_and_json():
    report = symrow.check("C = AB = BA\n c_{11} = +", against("comb22"))
    assert report.verdict == "wrong" and not report.ok and report.exit_code == 1
    assert [s.status for s in report.steps] == ["holds", "wrong", "unreadable"]
    data = json.loads(report.to_json())
    assert data == report.to_dict()
    assert data["verdict"] == "wrong" and data["exit_code"] == 1 and data["ok"] is False
    assert data["counts"] == {"holds": 1, "wrong": 1, "unreadable": 1, "unchecked": 0,
                              "defines": 0, "checked": 2}
    wrong = data["steps"][1]
    assert wrong["entry"] == [1, 1] and wrong["line"] == 1 and wrong["column"] == 8
    assert wrong["detail"]["missing"] == ["a_{12} b_{21}"]
    unparsed = data["steps"][2]["error"]
    assert (unparsed["line"], unparsed["column"]) == (2, 11)
    text = report.to_text()
    assert text.splitlines()[0] == "symrow check against combine (m=2, ℓ=2, n=2)"
    assert text.splitlines()[-1] == ("verdict: wrong (2 claims checked: 1 holds, 1 wrong; "
                                     "1 could not be read)")
    assert "line 2, column 11" in text


def test_verdict_precedence():
    d = against("comb22")
    assert symrow.check("C = AB", d).exit_code == 0
    assert symrow.check("C = AB\n C = +", d).verdict == "unreadable"
    assert symrow.check("C = AB\n C = +", d).exit_code == 2
    assert symrow.check("C = BA\n C = +", d).exit_code == 1   # a definite finding wins


# -- argument and whole-input errors ----------------------------------------------------------

def test_bad_arguments_are_option_errors():
    d = against("comb22")
    with pytest.raises(symrow.OptionError):
        symrow.check(b"C = AB", d)
    with pytest.raises(symrow.OptionError):
        symrow.check("C = AB", "combine")
    general = symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
    with pytest.raises(symrow.OptionError, match="concrete sizes"):
        symrow.check("C = AB", general, values={"A": [[1]]})
    with pytest.raises(symrow.OptionError, match="not an operand"):
        symrow.check("C = AB", d, values={"C": [[1, 2], [3, 4]]})
    with pytest.raises(symrow.OptionError, match="values for A"):
        symrow.check("C = AB", d, values={"A": [[1, 2, 3]]})
    for bad in (0, -1, float("nan"), "10", True):
        with pytest.raises(symrow.OptionError):
            symrow.check("C = AB", d, timeout=bad)


@pytest.mark.parametrize("tex, line, column, near", [
    ("", 1, 1, "end of input"),
    ("   % only a comment\n", 1, 1, " "),
    ("C = A{B", 1, 6, "{"),
    ("C = AB}", 1, 7, "}"),
    ("\\begin{align*}\nC &= AB\n", 1, 1, "\\begin{align*}"),
    ("\\begin{align*}\nC &= AB\n\\end{aligned}", 3, 1, "\\end{aligned}"),
])
def test_unreadable_input_is_one_unreadable_step(tex, line, column, near):
    # an unreadable report, as the class summary and the command line give it: one step
    # that says where reading stopped (issue 25: symrow.check returns, it does not raise)
    report = symrow.check(tex, against("comb22"))
    assert report.verdict == "unreadable" and report.exit_code == 2
    (step,) = report.steps
    assert step.status == "unreadable"
    assert (step.error["line"], step.error["column"]) == (line, column)
    assert near in (step.error["near"] or " ")
    assert "\n" not in step.message


def test_input_size_limit():
    from symrow.checker import MAX_INPUT
    with pytest.raises(symrow.LimitError):
        symrow.check("C = AB\n" * (MAX_INPUT // 7 + 1), against("comb22"))


# -- the time limit -------------------------------------------------------------------------------

def heavy_text() -> str:
    """A derivation that takes seconds to check: twenty 4 x 4 attention derivations."""
    return "\n".join(attention_derivation(4, 4, 4, swap=s) for s in (None, "S", "P", "O") * 5)


def test_deadline_is_not_an_exception():
    assert issubclass(deadline.Deadline, BaseException)
    assert not issubclass(deadline.Deadline, Exception)
    assert issubclass(symrow.CheckTimeout, symrow.SymrowError)


def test_timeout_interrupts_the_main_thread():
    with pytest.raises(symrow.CheckTimeout, match="time limit of 0.05 s"):
        symrow.check(heavy_text(), against("att444"), timeout=0.05)


def test_timeout_from_limits():
    with symrow.limits(check_timeout=0.05):
        with pytest.raises(symrow.CheckTimeout):
            symrow.check(heavy_text(), against("att444"))


def test_timeout_interrupts_another_thread():
    outcome = {}

    def work():
        try:
            symrow.check(heavy_text(), against("att444"), timeout=0.05)
            outcome["result"] = "finished"
        except symrow.SymrowError as err:
            outcome["result"] = type(err).__name__

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(120)
    assert outcome == {"result": "CheckTimeout"}


def test_after_a_timeout_checks_are_unchanged():
    tex = attention_derivation(2, 2, 2, swap="P")
    before = symrow.check(tex, against("att222")).to_dict()
    for _ in range(3):
        with pytest.raises(symrow.CheckTimeout):
            symrow.check(heavy_text(), against("att444"), timeout=0.02)
    assert symrow.check(tex, against("att222")).to_dict() == before


def test_a_swallowing_function_still_times_out():
    import time

    def stubborn():
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            try:
                while True:
                    pass
            except BaseException:      # swallows the Deadline
                pass
        return "late"

    with pytest.raises(symrow.CheckTimeout):
        deadline.run_with_deadline(stubborn, 0.05)


def test_the_limit_counts_cpu_time_and_wall_time_is_capped():
    """Time spent not computing (another program on the core, here a sleep) does not
    count against the limit; but a check that does not finish is stopped by the wall cap
    (WALL_FACTOR times the limit)."""
    import time

    assert deadline.run_with_deadline(lambda: time.sleep(0.3) or "done", 0.2) == "done"
    start = time.monotonic()
    with pytest.raises(symrow.CheckTimeout):
        deadline.run_with_deadline(lambda: [time.sleep(0.01) for _ in range(10 ** 6)], 0.2)
    assert 0.2 * deadline.WALL_FACTOR <= time.monotonic() - start < 0.2 * deadline.WALL_FACTOR + 5


def test_a_deadline_landing_in_a_finalizer_is_not_reported(monkeypatch):
    """An asynchronous exception inside __del__ is 'unraisable'; it must not be printed."""
    import time

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)

    class Slow:
        def __del__(self):
            end = time.monotonic() + 0.001
            while time.monotonic() < end:
                pass

    def churn():
        while True:
            Slow()                       # its finalizer runs at once
            end = time.monotonic() + 0.001
            while time.monotonic() < end:
                pass

    with pytest.raises(symrow.CheckTimeout):
        deadline.run_with_deadline(churn, 0.3)
    assert sys.unraisablehook == seen.append        # put back
    assert not [u for u in seen if u.exc_type is deadline.Deadline]


@pytest.mark.parsers("latex2sympy2")
def test_an_interrupted_parse_gives_its_lock_back():
    from symrow.reader.entries import parse as l2s
    l2s.load()
    l2s._lock.acquire()                  # as if interrupted right after taking it
    l2s.release_if_owned()
    assert not l2s._lock._is_owned()
    assert symrow.check("C = AB", against("comb22")).ok


# -- order, threads, no evaluation ----------------------------------------------------------------

ITEMS = [
    ("comb23", "C = AB = BA"),
    ("comb23", r"c_{ij} = \sum_k a_{ik} b_{kj}"),
    ("match23", r"C = AB^\top = \begin{bmatrix} \boldsymbol{a}_1 \\ \boldsymbol{a}_2 "
                r"\end{bmatrix} B'"),
    ("match23", r"c_{12} = \langle \boldsymbol{a}_2, \boldsymbol{b}_1 \rangle"),
    ("att222", attention_derivation(2, 2, 2)),
    ("att222", attention_derivation(2, 2, 2, swap="P")),
    ("att222", r"d \cdot s_{11} = 2 s_{11} = e_1"),
    ("att222", r"P = \operatorname{softmax}(QK^T)"),
    ("att222c", attention_derivation(2, 2, 2, causal=True)),
    ("att222c", r"\boldsymbol{o}_2 = p_{21}\boldsymbol{v}_1 + p_{22}\boldsymbol{v}_1"),
    ("comb22", r"C = \begin{bmatrix} a_{11} & d \end{bmatrix} + \mathrm{softmax}(A)"),
    ("comb22", r"C = A(B"),
]


def run_items(order):
    out = {}
    for k in order:
        key, tex = ITEMS[k]
        out[k] = symrow.check(tex, against(key)).to_dict()
    return out


def test_reports_do_not_depend_on_call_order():
    reference = run_items(range(len(ITEMS)))
    for seed in (1, 2, 3):
        order = list(range(len(ITEMS)))
        random.Random(seed).shuffle(order)
        assert run_items(order) == reference


def test_reports_do_not_depend_on_other_threads():
    reference = run_items(range(len(ITEMS)))
    results: list = []

    def work(seed):
        order = list(range(len(ITEMS)))
        random.Random(seed).shuffle(order)
        results.append(run_items(order))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert len(results) == 3 and all(r == reference for r in results)


def test_user_text_is_never_evaluated(monkeypatch):
    import builtins

    import sympy
    import sympy.parsing.sympy_parser as sympy_parser

    def forbidden(*args, **kwargs):
        raise AssertionError("user text reached eval/exec/parse_expr")

    original_sympify = sympy.sympify

    def guarded_sympify(a, *args, **kwargs):
        if isinstance(a, str):
            raise AssertionError(f"a string reached sympify: {a!r}")
        return original_sympify(a, *args, **kwargs)

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(sympy_parser, "parse_expr", forbidden)
    monkeypatch.setattr(sympy, "sympify", guarded_sympify)
    hostile = [r"C = __import__('os').system('echo hacked')",
               r"C = \text{__import__('os')} AB", r"C = AB; import os", "C = A.B"]
    for tex in hostile:
        report = symrow.check(tex, against("comb22"))
        assert report.verdict in ("unreadable", "holds", "wrong", "unchecked")
    assert symrow.check(attention_derivation(2, 2, 2), against("att222")).ok


# -- fuzz -------------------------------------------------------------------------------------------

VOCAB = ["a", "b", "c", "d", "e", "q", "k", "s", "p", "o", "v", "x", "i", "j", "t", "Q", "K",
         "V", "S", "P", "O", "M", "A", "B", "C", "E", "I", "_", "^", "{", "}", "(", ")", "[",
         "]", "=", "&", "\\\\", "+", "-", "/", "*", "'", ",", ".", "1", "2", "12", "11", "21",
         "0.5", "10", "99999999999999999999999999999999", r"\frac", r"\sqrt", r"\exp", r"\sum",
         r"\left(", r"\right)", r"\left[", r"\right]", r"\langle", r"\rangle", r"\cdot",
         r"\times", r"\top", r"\intercal", r"\mathsf{T}", "T", r"\boldsymbol", r"\mathbf",
         r"\bm", r"\vec", r"\operatorname{softmax}", r"\mathrm{softmax}", r"\text{so}",
         r"\begin{bmatrix}", r"\end{bmatrix}", r"\begin{pmatrix}", r"\end{pmatrix}",
         r"\begin{align*}", r"\end{align*}", r"\begin{cases}", r"\infty", r"\,", r"\;", r"\!",
         r"\quad", " ", "\n", "$", "$$", r"\[", r"\]", r"\ell", "%", r"\foo", "é", "∑", "·",
         r"\bigl(", r"\bigr)", "^{T}", "_{ij}", "_{1}", "_{10,2}", r"\cdots", r"\in",
         r"\mapsto", r"\le", ":=", r"\dfrac", r"\sqrt[3]", "e^{", "}^{", r"\lim", r"\int",
         r"\begin{document}", r"\end{document}", "\t", "\x00", "~", "\\"]

BASES = [
    ("att222", attention_derivation(2, 2, 2)),
    ("att222c", attention_derivation(2, 2, 2, causal=True)),
    ("comb23", "\\begin{align*} C &= AB \\\\ c_{ij} &= \\sum_{k=1}^{3} a_{ik} b_{kj} \\\\ "
               "\\boldsymbol{c}_1 &= \\begin{bmatrix} \\boldsymbol{a}_1 \\boldsymbol{b}^T_{1} "
               "& (AB)_{12} \\end{bmatrix} \\end{align*}"),
    ("match23", r"C = AB^\top = \begin{bmatrix} \langle \boldsymbol{a}_1, \boldsymbol{b}_1 "
                r"\rangle & e^{0} c_{12} \\ \frac{2 c_{21}}{2} & \sqrt{c_{22}^2} \end{bmatrix}"),
]

#: every input must be answered within this many seconds (the default limit)
LIMIT = 10.0


def assert_answered(tex: str, key: str) -> None:
    try:
        report = symrow.check(tex, against(key), timeout=LIMIT)
    except symrow.SymrowError as err:
        assert str(err) and "\n" not in str(err)
        return
    assert report.verdict in ("holds", "wrong", "unreadable", "unchecked")
    for step in report.steps:
        assert "internal error" not in step.message, (tex, step.message)
    report.to_text()
    json.loads(report.to_json())


# no "explain" phase: after a failure it re-runs every example under a line
# tracer, which turns a one-line failure report into a half-hour wait
FUZZ = settings(deadline=None, derandomize=True, database=None, max_examples=1200,
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@pytest.mark.parsers("compare")
@settings(FUZZ, max_examples=2000)
@given(tokens=st.lists(st.sampled_from(VOCAB), max_size=40),
       key=st.sampled_from(["att222", "comb23", "match23", "att222c"]))
def test_fuzz_random_token_soup(tokens, key):
    assert_answered(" ".join(tokens) if len(tokens) % 2 else "".join(tokens), key)


@st.composite
def mutated(draw):
    key, text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "swap", "replace"]))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(VOCAB)) + text[i:]
        elif op == "duplicate":
            j = i + draw(st.integers(1, 40))
            text = text[:i] + text[i:j] * draw(st.integers(2, 3)) + text[i:]
        elif op == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        else:
            text = text[:i] + draw(st.text(max_size=4)) + text[i + 1:]
    return key, text


@pytest.mark.slow
@pytest.mark.parsers("compare")
@FUZZ
@given(case=mutated())
def test_fuzz_mutated_derivations(case):
    key, text = case
    assert_answered(text, key)


@pytest.mark.parsers("compare")
@settings(deadline=None, derandomize=True, database=None, max_examples=300)
@given(st.text(max_size=60))
def test_fuzz_arbitrary_unicode(text):
    assert_answered(text, "comb23")


@pytest.mark.slow
@pytest.mark.parsers("compare")
def test_fuzz_is_answered_the_same_twice():
    """Mutated inputs give the same report on a second call (no hidden state)."""
    rng = random.Random(7)
    for _ in range(60):
        key, text = rng.choice(BASES)
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice(VOCAB) + text[i + rng.randrange(4):]
        try:
            first = symrow.check(text, against(key)).to_dict()
        except symrow.SymrowError as err:
            first = str(err)
        try:
            second = symrow.check(text, against(key)).to_dict()
        except symrow.SymrowError as err:
            second = str(err)
        assert first == second


@pytest.mark.slow
def test_large_concrete_sizes_are_refused_or_answered():
    # what is tested is the verdict, not the time: generous limits, for a loaded machine
    d = combine((12, 12), (12, 12))
    report = symrow.check(r"c_{ij} = \sum_{k=1}^{12} a_{ik}b_{kj}", d, timeout=120)
    assert report.ok
    # a square's power is a product: answered
    report = symrow.check(r"C = (A + B)^{2}", d, timeout=120)
    assert report.verdict == "wrong" and report.steps[0].message == "entry (1, 1) differs"
    report = symrow.check(r"C = (A + B)^{-1}", d, timeout=120)  # not diagonal: refused
    assert report.verdict == "wrong" and "not diagonal" in report.steps[0].message


@pytest.mark.parametrize("tex, status, message", [
    (r"C = AB \mathbf{1}^{-1}", "unchecked", "negative power of the vector of ones"),
    (r"C = A \mathbf{0}^{-1}", "wrong", "division by zero"),
    (r"C = 2A (2I)^{-1} B", "holds", ""),
    (r"C = A I^{2} B", "holds", ""),
])
def test_powers_of_i_0_and_1_without_a_size(tex, status, message):
    # I, 0 and 1 written without a size take it from their neighbour; a power of one
    # was an internal error (AttributeError: 'Unsized' object has no attribute ...)
    step = symrow.check(tex, against("comb23"), timeout=120).steps[0]
    assert (step.status, message in step.message) == (status, True), step.message
    assert "internal error" not in step.message


def test_undecidable_and_overlong_steps_are_reported_not_guessed():
    # what is tested is the verdict, not the time: generous limits, for a loaded machine
    overflow = symrow.check(r"P = \operatorname{softmax}(10^{30} QK^T)", against("att222"),
                            timeout=120)
    assert overflow.steps[0].status == "unchecked" and overflow.verdict == "unchecked"
    assert "could not be decided" in overflow.steps[0].message
    long_sum = symrow.check("c_{11} = " + " + ".join(["a_{11}b_{11}"] * 1500), against("comb23"),
                            timeout=120)
    assert long_sum.steps[0].status == "unreadable"
    assert "split it into several steps" in long_sum.steps[0].message


def test_a_course_of_lecture_notes_fits_the_limits():
    # ten handouts' worth of LaTeX is read, and its default time limit grows with it
    # (checking it is a benchmark's job: tests/bench_check.py times the handout)
    from symrow.checker import CHARACTERS_PER_TIMEOUT, MAX_INPUT, _timeout
    one = 46_000   # symrow handout --lang ja -f latex | wc -c (45,881 characters)
    assert 10 * one <= MAX_INPUT
    limit = symrow.get_limits().check_timeout
    assert _timeout(None, 10 * one) >= limit * 10 * one / CHARACTERS_PER_TIMEOUT
    assert _timeout(None, 100) == limit


def test_a_value_squeezed_to_nothing_at_the_sample_points_is_not_taken_for_0():
    # through two softmax layers (Linformer's backward pass) the sample points, up to 4,
    # make the scores so large that a gradient's entry is 10^-188 at every one of them:
    # it passed for 0 (\bar{S} = 0 held); the points are tried again nearer 0
    from symrow.checker import numeric
    from symrow.checker.verify import _counterexample
    a = sympy.Symbol("a_{11}")
    squeezed = a * sympy.exp(-9000 * a**2 / (1 + a**2))   # e^-74 at the smallest point
    values = [numeric.evaluate(squeezed, p, {}) for p in numeric.sample_points({a}, 3)]
    assert all(0 < abs(v) < 1e-20 for v in values)          # tiny at every first point
    equal, counter = _counterexample(squeezed, sympy.S.Zero)
    assert not equal and counter is not None
    assert _counterexample(squeezed - squeezed * (1 + a) / (1 + a), sympy.S.Zero) == (True, None)


def test_a_long_difference_is_reported_without_its_terms():
    # an entry of 1,728 terms (a gradient through Linformer's softmax) took 32 s to
    # expand for a list nobody reads; the report says the sides differ, and why it
    # lists no terms
    from symrow.checker.verify import REPORT_NODES, _term_diff
    xs = sympy.symbols("x_{1:40}")
    big = sum(x * y for i, x in enumerate(xs) for y in xs[i + 1:])    # 741 terms
    assert sum(1 for _ in sympy.preorder_traversal(big)) > REPORT_NODES
    diff = _term_diff(big, big + xs[0], {})
    assert "too long to compare term by term" in diff.note
    assert not (diff.missing or diff.extra or diff.common)
