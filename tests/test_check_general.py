"""General sizes: derivations in m, ℓ, n, d checked at several concrete sizes.

A table of hand derivations written with general sizes, right and wrong.
A wrong one must exit 1 and name the sizes and index values where it fails;
one that only holds for particular sizes must fail at the instance that
varies that size; what cannot be decided is never "holds".
"""

from __future__ import annotations

import dataclasses
import functools

import pytest

import symrow
from symrow.checker.general import instances, size_names, size_plan

V = symrow.vecseq


@functools.lru_cache(maxsize=None)
def general(key: str):
    table = {
        "combine": lambda: symrow.combine(V("A", "m", "ell"), V("B", "ell", "n")),
        "match": lambda: symrow.match(V("A", "m", "ell"), V("B", "n", "ell")),
        "attention": lambda: symrow.attention("m", "n", "d"),
        "causal": lambda: symrow.attention("m", "n", "d", causal=True),
    }
    return table[key]()


@dataclasses.dataclass
class Case:
    id: str
    against: str
    tex: str
    verdict: str
    message: str | None = None      # a piece of the first bad step's message
    sizes: bool = False             # a wrong step names the sizes it fails at
    indices: tuple = ()             # ... and these free indices


CASES = [
    # -- right --------------------------------------------------------------------------
    Case("combine-row-sum", "combine",
         r"\boldsymbol{c}_i = \sum_{j=1}^{\ell} a_{ij}\boldsymbol{b}_j = \boldsymbol{a}_i B",
         "holds"),
    Case("combine-elided-row", "combine",
         r"\boldsymbol{c}_i = a_{i1}\boldsymbol{b}_1 + a_{i2}\boldsymbol{b}_2 + \cdots + "
         r"a_{i\ell}\boldsymbol{b}_\ell", "holds"),
    Case("combine-elided-one-term", "combine",
         r"c_{ik} = a_{i1} b_{1k} + \cdots + a_{i\ell} b_{\ell k}", "holds"),
    Case("combine-general-matrix", "combine",
         r"C = \begin{bmatrix} c_{11} & c_{12} & \cdots & c_{1n} \\ c_{21} & c_{22} & \cdots & "
         r"c_{2n} \\ \vdots & \vdots & \ddots & \vdots \\ c_{m1} & c_{m2} & \cdots & c_{mn} "
         r"\end{bmatrix} = \begin{bmatrix} \boldsymbol{a}_1 B \\ \vdots \\ \boldsymbol{a}_m B "
         r"\end{bmatrix}", "holds"),
    Case("combine-shapes", "combine",
         r"A \in \mathbb{R}^{m \times \ell}, \quad B \in \mathbb{R}^{\ell \times n}, \quad "
         r"\boldsymbol{c}_i \in \mathbb{R}^{n}", "holds"),
    Case("match-entry", "match",
         r"c_{ij} = \boldsymbol{a}_i \cdot \boldsymbol{b}_j = \sum_{k=1}^{\ell} a_{ik} b_{jk}",
         "holds"),
    Case("attention-stages", "attention",
         r"s_{ij} = \sum_{t=1}^{d} q_{it} k_{jt}, \quad "
         r"p_{ij} = \frac{\exp(s_{ij}/\sqrt{d})}{\sum_{k=1}^{n} \exp(s_{ik}/\sqrt{d})}, \quad "
         r"\boldsymbol{o}_i = \sum_{j=1}^{n} p_{ij} \boldsymbol{v}_j", "holds"),
    Case("attention-distribution", "attention",
         r"p_{ij} \ge 0, \quad \sum_{j=1}^{n} p_{ij} = 1", "holds"),
    Case("causal-elided-with-index-arithmetic", "causal",
         r"\boldsymbol{o}_i = p_{i1}\boldsymbol{v}_1 + \cdots + "
         r"p_{i,i-m+n}\boldsymbol{v}_{i-m+n} = \sum_{j=1}^{i-m+n} p_{ij}\boldsymbol{v}_j",
         "holds"),
    # -- wrong --------------------------------------------------------------------------
    Case("combine-swapped-index", "combine", r"c_{ik} = \sum_{j=1}^{\ell} a_{ij} b_{kj}",
         "wrong", sizes=True, indices=("i", "k")),
    Case("combine-swapped-in-elided-sum", "combine",
         r"c_{ik} = a_{i1} b_{k1} + a_{i2} b_{k2} + \cdots + a_{i\ell} b_{k\ell}", "wrong",
         sizes=True, indices=("i", "k")),
    Case("combine-ell-for-n", "combine", r"c_{ik} = \sum_{j=1}^{n} a_{ij} b_{jk}", "wrong",
         sizes=True),
    Case("combine-a-number-for-a-size", "combine", r"\boldsymbol{c}_i = \sum_{j=1}^{3} "
         r"a_{ij}\boldsymbol{b}_j", "wrong", sizes=True),
    Case("combine-wrong-shape", "combine", r"C \in \mathbb{R}^{m \times \ell}", "wrong",
         sizes=True),
    Case("attention-sqrt-of-a-number", "attention",
         r"p_{ij} = \frac{\exp(s_{ij}/\sqrt{3})}{\sum_{k=1}^{n} \exp(s_{ik}/\sqrt{3})}",
         "wrong", sizes=True),
    Case("attention-keys-for-queries", "attention", r"s_{ij} = \sum_{t=1}^{d} q_{jt} k_{it}",
         "wrong", sizes=True),
    # -- unreadable, never holds -----------------------------------------------------------
    Case("dots-without-a-pattern", "combine",
         r"c_{ik} = a_{i1} b_{1k} + \cdots + b_{\ell k}", "unreadable",
         message="do not have the same form"),
    Case("numbers-for-a-general-operand", "combine",
         r"A = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}", "unchecked",
         message="general sizes"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_general_case(case: Case):
    report = symrow.check(case.tex, general(case.against))
    assert report.verdict == case.verdict, report.to_text()
    bad = [s for s in report.steps if s.status != "holds"]
    if case.verdict == "holds":
        assert not bad
        return
    step = bad[0]
    if case.message:
        assert case.message in (step.message + str(step.error)), report.to_text()
    if case.sizes:
        assert step.sizes and set(step.sizes) == set(size_names(general(case.against)))
        assert "for m = " in report.to_text()
    for name in case.indices:
        assert name in (step.indices or {}), report.to_text()


def test_a_swapped_index_exits_1_and_names_sizes_and_index_values(tmp_path):
    import subprocess
    import sys
    (tmp_path / "g.tex").write_text(r"c_{ik} = \sum_{j=1}^{\ell} a_{ij} b_{kj}")
    out = subprocess.run([sys.executable, "-m", "symrow", "check", "g.tex", "--against",
                          "combine", "--general"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "for m = 2, ℓ = 3, n = 5 and i = 1, k = " in out.stdout


def test_the_instances_keep_sizes_distinct_and_vary_each_on_its_own():
    plan = size_plan(["m", "ell", "n"])
    for sizes in plan:
        assert len(set(sizes.values())) == len(sizes)
    base = plan[0]
    for name, variant in zip(["m", "ell", "n"], plan[1:]):
        assert [k for k in base if base[k] != variant[k]] == [name]


def test_causal_instances_respect_m_at_most_n():
    got = instances(general("causal"))
    assert len(got) == 4
    assert all(sizes["m"] <= sizes["n"] for sizes, _ in got)


def test_instantiate_is_used_when_a_derivation_has_it():
    d = general("combine")
    calls = []

    class Planned:
        kind, options, operands = d.kind, d.options, d.operands
        steps = d.steps

        def instantiate(self, sizes):
            calls.append(dict(sizes))
            return symrow.combine(V("A", sizes["m"], sizes["ell"]),
                                  V("B", sizes["ell"], sizes["n"]))

        @property
        def quantities(self):
            return d.quantities

    report = symrow.check(r"C = AB", Planned())
    assert report.ok and len(calls) == 4


def test_definitions_of_a_derivation_replace_the_attention_fallback():
    """A derivation's ``definitions`` are what steps are explained against."""
    import sympy
    d = symrow.attention(2, 2, 2)

    class WithDefinitions:
        kind, options, operands, steps = d.kind, d.options, d.operands, d.steps
        quantities = d.quantities

        @property
        def definitions(self):
            S = sympy.Matrix(2, 2, lambda i, j: sympy.Symbol(f"s_{{{i + 1}{j + 1}}}"))
            Q = d.operands["Q"].matrix
            K = d.operands["K"].matrix
            return {"S": Q * K.T}

    report = symrow.check(r"s_{12} = q_{11} k_{21} + q_{12} k_{22}", WithDefinitions())
    assert report.ok, report.to_text()
