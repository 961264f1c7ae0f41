"""latex2sympy2 and the built-in parser give the same trees, hence the same reports.

* The corpus: every text the translator writes for the checker's test
  table, the inputs and mutated inputs of the fuzz tests, the notations of
  the command-line tests, complete hand derivations of attention, symrow's
  own displays and random expressions in the notation students write.  On
  each, the two parsers must return identical trees (argument order
  included) or fail alike.
* The test table: every case gives the identical report with either parser.
* Random texts in the placeholder language itself, beyond what the
  translator writes today.

The slow fuzz tests of test_check_robust.py also run with both parsers at
once (the ``compare`` runs, see conftest.py).  These tests run once, and
skip where latex2sympy2 is not installed (Python >= 3.13).
"""

from __future__ import annotations

import functools
import random

import harness
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symrow
from check_cases.derivations import against, combine
from check_cases.handwritten import attention_derivation
from symrow.reader.entries import flatparse, parse
from symrow.reader.entries.units import PLACEHOLDERS

pytestmark = pytest.mark.parsers("latex2sympy2")


# -- the corpus of parsed texts ------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _reference(derivation):
    from symrow.checker.reference import Reference
    return Reference(derivation)


def unit_texts(tex: str, derivation) -> set:
    """Every text the translator writes for ``tex``: each side of each step, each cell."""
    from symrow.reader.lexer import Source, build_tree, tokenize
    from symrow.checker.structure import Chain, split
    from symrow.reader.entries.translate import TranslateError, Translator

    def walk(unit):
        yield unit.text
        for atom in unit.atoms.values():
            for row in atom.cells:
                for cell in row:
                    yield from walk(cell)

    try:
        ref = _reference(derivation)
        src = Source(tex)
        items = split(build_tree(tokenize(tex), src), src)
    except symrow.SymrowError:
        return set()
    translator = Translator(ref, src)
    out = set()
    for item in items:
        if not isinstance(item, Chain):
            continue
        for member in item.members:
            try:
                out.update(walk(translator.unit(member.nodes, member.pos, member.end)))
            except (TranslateError, RecursionError):
                pass
    return out


def random_expression(rng: random.Random, depth: int = 0) -> str:
    """An expression in the notation students write (as test_check_parse's user_expr)."""
    names = ["Q", "K", "V", "S", "P", "O", "q_{11}", "k_{21}", "s_{12}", "p_{ij}", "v_{j1}",
             r"\boldsymbol{q}_1", r"\mathbf{k}_2", "d", r"\sqrt{d}", "2", "0.5", r"\infty",
             "-q_{12}", "e"]

    def atom():
        if depth >= 2 or rng.random() < 0.3:
            return rng.choice(names)
        inner = random_expression(rng, depth + 1)
        return rng.choice([
            f"\\left({inner}\\right)", f"({inner})", f"\\frac{{{inner}}}{{2}}",
            f"e^{{{inner}}}", f"\\exp({inner})", f"\\sqrt{{{inner}}}", f"\\sqrt[3]{{{inner}}}",
            f"\\operatorname{{softmax}}({inner})", f"({inner})^T", f"({inner})^{{2}}",
            f"\\sum_{{j=1}}^{{2}} {inner}", f"\\sum_{{t}} {inner}", f"\\frac{{1}}{{{inner}}}",
            f"[{inner}]_{{12}}"])

    out = atom()
    for _ in range(rng.randrange(4)):
        op = rng.choice([" + ", " - ", " ", r" \cdot ", " / ", r" \times ", " - -"])
        tail = atom()
        if rng.random() < 0.3:
            tail += rng.choice(["^T", r"^{\top}", "'", "^{2}"])
        out += op + tail
    return out


#: how many mutated inputs and random expressions the corpus takes
MUTATED, RANDOM = 500, 500


@functools.lru_cache(maxsize=None)
def corpus() -> tuple:
    from test_check_cases import CASES
    from test_check_cli import NOTATIONS
    from test_check_robust import BASES, ITEMS, VOCAB
    from symrow.render.latex import latex

    texts: set = set()
    for case in CASES:
        texts |= unit_texts(case.tex, against(case.against))
    for key, tex in ITEMS + BASES:
        texts |= unit_texts(tex, against(key))
    for tex in NOTATIONS.values():
        texts |= unit_texts(tex, against("att222"))
    for key, sizes, causal in (("att222", (2, 2, 2), False), ("att222c", (2, 2, 2), True),
                               ("att232c", (2, 3, 2), True), ("att444", (4, 4, 4), False)):
        for swap in (None, "S", "P", "O"):
            texts |= unit_texts(attention_derivation(*sizes, causal=causal, swap=swap),
                                against(key))
    for key in ("comb23", "match23", "att222", "att232c"):
        d = against(key)
        for step in d.steps:
            if step.display is not None:
                texts |= unit_texts(latex(step.display), d)
    big = combine((10, 10), (10, 10))      # more than 87 placeholders in one text
    texts |= unit_texts("C = " + " + ".join(f"c_{{{i},{j}}}" for i in range(1, 11)
                                             for j in range(1, 11)), big)
    rng = random.Random(11)
    for _ in range(MUTATED):                # mutated inputs, as in the fuzz tests
        key, tex = rng.choice(BASES)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(tex))
            tex = tex[:i] + rng.choice(VOCAB) + tex[i + rng.randrange(4):]
        texts |= unit_texts(tex, against(key))
    for _ in range(RANDOM):
        key = rng.choice(["att222", "comb23", "match23"])
        texts |= unit_texts(f"{random_expression(rng)} = {random_expression(rng)}",
                            against(key))
    return tuple(sorted(texts))


@pytest.mark.slow
def test_trees_are_identical_on_the_corpus():
    texts = corpus()
    assert len(texts) > 500
    outcomes = {"tree": 0}
    mismatches = []
    for text in texts:
        mine = harness.parse_outcome(flatparse.parse, text)
        theirs = harness.parse_outcome(lambda t: parse.parse(t, parser="latex2sympy2"), text)
        if mine != theirs:
            mismatches.append(f"{text!r}:\n  latex2sympy2: {theirs}\n  builtin: {mine}")
        outcomes[theirs[0]] = outcomes.get(theirs[0], 0) + 1
    assert not mismatches, f"{len(mismatches)} of {len(texts)} differ:\n" + \
        "\n".join(mismatches[:10])
    assert outcomes["tree"] == len(texts) - outcomes.get("too complex", 0)


# -- the test table: identical reports ------------------------------------------------------

def _cases():
    from test_check_cases import CASES
    return CASES


@pytest.mark.parametrize("case", _cases(), ids=[c.id for c in _cases()])
def test_reports_are_identical_on_the_test_table(case):
    d = against(case.against)
    first = symrow.check(case.tex, d, parser="latex2sympy2").to_dict()
    second = symrow.check(case.tex, d, parser="builtin").to_dict()
    assert first == second
    assert first["verdict"] == case.verdict


def test_reports_are_identical_on_the_fuzz_inputs():
    from test_check_robust import ITEMS
    for key, tex in ITEMS:
        first = symrow.check(tex, against(key), parser="latex2sympy2").to_dict()
        assert symrow.check(tex, against(key), parser="builtin").to_dict() == first


def test_overlong_steps_are_refused_alike():
    tex = "c_{11} = " + " + ".join(["a_{11}b_{11}"] * 1500)
    reports = [symrow.check(tex, against("comb23"), parser=p, timeout=120).to_dict()
               for p in ("latex2sympy2", "builtin")]
    assert reports[0] == reports[1]
    assert "split it into several steps" in reports[0]["steps"][0]["message"]


# -- the placeholder language itself ---------------------------------------------------------

# (numbered placeholders are rare: latex2sympy2 needs its slow full-context mode for them)
_ph = st.sampled_from(PLACEHOLDERS + [r"\alpha_{97}", r"\alpha_{123}"])
_num = st.one_of(st.integers(0, 10 ** 12).map(str),
                 st.tuples(st.integers(0, 99), st.integers(0, 999)).map("{0[0]}.{0[1]}".format))
_single = st.one_of(_ph, _num, st.sampled_from([r"\infty", r"\frac{1}{2}",
                                                r"\exp\left(1\right)"]))
_signs = st.sampled_from(["", "", "- ", "+ ", "- - "])


@st.composite
def _factor(draw):
    # as the translator writes them: a placeholder is braced before a superscript
    return draw(st.sampled_from([
        "{x}", "{x}", "{{{p}}} ^{{ {y} }}", "{{{p}}} ^{{ {y} }} ^{{ {z} }}", "{n} ^{{ {y} }}",
        r"\frac{{ {x} }}{{ {y} }}", r"\sqrt{{ {x} }}", r"\sqrt[ {y} ]{{ {x} }}",
        "e^{{ {x} }}", r"\sum_{{ {p} = {y} }}^{{ {z} }} {x}"])).format(
            x=draw(_single), y=draw(_single), z=draw(_single), p=draw(_ph), n=draw(_num))


@st.composite
def _term(draw):
    out = draw(_signs) + draw(_factor())
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from([" ", " ", r" \cdot ", " / "]))
        out += op + (draw(_signs) if op != " " else "") + draw(_factor())
    return out


@pytest.mark.slow
@settings(deadline=None, derandomize=True, database=None, max_examples=100,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_term(), min_size=1, max_size=3), st.lists(st.sampled_from([" + ", " - "]),
                                                          min_size=2, max_size=2))
def test_trees_are_identical_on_random_placeholder_texts(terms, ops):
    text = terms[0] + "".join(op + t for op, t in zip(ops, terms[1:]))
    mine = harness.parse_outcome(flatparse.parse, text)
    theirs = harness.parse_outcome(lambda t: parse.parse(t, parser="latex2sympy2"), text)
    assert mine == theirs, text
