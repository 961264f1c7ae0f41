"""Complete hand derivations of attention, written the way a student would.

:func:`attention_derivation` writes S, P and O of softmax(QK^T/sqrt(d))V
entry by entry for concrete sizes, in LaTeX (``align*``).  The benchmark
checks the m = n = d = 4 one; the tests use small ones and inject a single
mistake with ``swap``.
"""

from __future__ import annotations

import math


def _sqrt_d(d: int) -> str:
    root = math.isqrt(d)
    return str(root) if root * root == d else r"\sqrt{%d}" % d


def _sees(i: int, j: int, m: int, n: int, causal: bool) -> bool:
    return not causal or j <= i + (n - m)


def attention_derivation(m: int, n: int, d: int, *, d_v: int | None = None,
                         causal: bool = False, swap: str | None = None,
                         full_entry: bool = True) -> str:
    """The LaTeX of a complete hand derivation.

    ``swap`` puts one mistake in: ``"S"`` swaps the indices of one k in
    entry (m, n) of S, ``"P"`` one s in the denominator of entry (1, 1) of
    P, ``"O"`` one v in entry (m, 1) of O.
    """
    d_v = d if d_v is None else d_v
    scale = _sqrt_d(d)

    def s_entry(i, j):
        terms = []
        for t in range(1, d + 1):
            kj, kt = j, t
            if swap == "S" and (i, j, t) == (m, n, 1):
                kj, kt = t, j          # k_{1n} instead of k_{n1}
            terms.append(f"q_{{{i}{t}}}k_{{{kj}{kt}}}")
        return " + ".join(terms)

    def e(i, j):
        return f"e^{{s_{{{i}{j}}}/{scale}}}"

    def p_entry(i, j):
        if not _sees(i, j, m, n, causal):
            return "0"
        seen = [k for k in range(1, n + 1) if _sees(i, k, m, n, causal)]
        den = []
        for k in seen:
            if swap == "P" and (i, j, k) == (1, 1, seen[-1]) and n > 1:
                den.append(e(seen[-1], 1) if m > 1 else e(i, seen[0]))
            else:
                den.append(e(i, k))
        return r"\frac{%s}{%s}" % (e(i, j), " + ".join(den))

    def o_entry(i, l):
        terms = []
        for t in range(1, n + 1):
            vt = t
            if swap == "O" and (i, l, t) == (m, 1, 1) and n > 1:
                vt = 2
            terms.append(f"p_{{{i}{t}}}v_{{{vt}{l}}}")
        return " + ".join(terms)

    def bmatrix(rows, cols, cell):
        body = r" \\" + "\n    "
        return (r"\begin{bmatrix}" + "\n    " +
                body.join(" & ".join(cell(i, j) for j in range(1, cols + 1))
                          for i in range(1, rows + 1)) + "\n" + r"\end{bmatrix}")

    lines = [r"\begin{align*}",
             r"S &= QK^{\top} \\",
             "  &= " + bmatrix(m, n, lambda i, j: rf"\boldsymbol{{q}}_{i} \cdot "
                                                 rf"\boldsymbol{{k}}_{j}") + r" \\",
             "  &= " + bmatrix(m, n, s_entry) + r" \\"]
    if causal:
        lines += [r"P &= \operatorname{softmax}\left(\frac{S}{\sqrt{d}} + M\right) \\"]
    else:
        lines += [r"P &= \operatorname{softmax}\left(\frac{S}{\sqrt{d}}\right) \\"]
    lines += ["  &= " + bmatrix(m, n, p_entry) + r" \\",
              r"O &= PV \\",
              "  &= " + bmatrix(m, d_v, o_entry)]
    if full_entry and not causal:
        # o_{11} in the entries of Q, K and V alone
        dots = [" + ".join(f"q_{{1{t}}}k_{{{j}{t}}}" for t in range(1, d + 1))
                for j in range(1, n + 1)]
        exps = [f"e^{{({dot})/{scale}}}" for dot in dots]
        num = " + ".join(f"{x} v_{{{j}1}}" for j, x in enumerate(exps, start=1))
        lines[-1] += r" \\"
        lines += [r"o_{11} &= \frac{%s}{%s}" % (num, " + ".join(exps))]
    lines.append(r"\end{align*}")
    return "\n".join(lines) + "\n"


#: a 10-step hand derivation of attention at general sizes, as in a lecture: the
#: stages entry by entry, with an elided sum and the sums written out
GENERAL_ATTENTION = r"""\begin{align*}
S &= QK^{\top} \\
s_{ij} &= \boldsymbol{q}_i \cdot \boldsymbol{k}_j = \sum_{t=1}^{d} q_{it} k_{jt}
        = q_{i1}k_{j1} + q_{i2}k_{j2} + \cdots + q_{id}k_{jd} \\
P &= \operatorname{softmax}\left(\frac{S}{\sqrt{d}}\right) \\
p_{ij} &= \frac{\exp(s_{ij}/\sqrt{d})}{\sum_{k=1}^{n} \exp(s_{ik}/\sqrt{d})} \\
O &= PV \\
\boldsymbol{o}_i &= \sum_{j=1}^{n} p_{ij} \boldsymbol{v}_j
  = p_{i1}\boldsymbol{v}_1 + p_{i2}\boldsymbol{v}_2 + \cdots + p_{in}\boldsymbol{v}_n \\
o_{il} &= \sum_{j=1}^{n} p_{ij} v_{jl}
\end{align*}
"""
