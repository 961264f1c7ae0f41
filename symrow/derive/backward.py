r"""``symrow.backward``: the backward pass of a formula, read as combine and match.

For a scalar loss L computed from the result C of a formula, the gradient
``C̄ = ∂L/∂C`` (the *upstream* gradient, a matrix of C's shape) flows back
through the plan in reverse order.  Every reading says what its inputs
receive (its vector-Jacobian product, :meth:`Reading.backward
<symrow.derive.readings.base.Reading.backward>`), and for a product that is
again a product of vector sequences:

* ``C = L R`` (combine): ``L̄ = C̄ Rᵀ`` is a **match**, ``R̄ = Lᵀ C̄`` a combine
  over the points, ``Σ_i l_iᵀ c̄_i``;
* ``C = L Rᵀ`` (match): ``L̄ = C̄ R`` is a **combine**, ``R̄ = C̄ᵀ L`` a
  combine over the points;
* the row-wise softmax: ``X̄ = P ∘ (P̄ − rowsum(P̄ ∘ P))``, row by row.

The gradients are built as a formula of their own (``\bar{X} = \bar{C}
W^T``, ...) and planned like any other, so each gradient product is read by
the same step builders as a forward one: vector sequences, the row that is
gathered or matched, entry by entry, at general sizes and concrete ones.
A value used more than once gets the sum of the gradients of its uses.

>>> import symrow
>>> d = symrow.backward("XW", {"X": (3, 2), "W": (2, 4)})
>>> d.products
[('tcombine', 'X', '\\bar{C}'), ('match', '\\bar{C}', 'W')]
>>> sorted(d.gradients)
['W', 'X']
>>> d.gradients["X"].shape, d.upstream.shape
((3, 2), (3, 4))
>>> d.gradients["X"][0, 0]
\bar{c}_{11}*w_{11} + \bar{c}_{12}*w_{12} + \bar{c}_{13}*w_{13} + \bar{c}_{14}*w_{14}
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Mapping

import sympy

from .. import nodes as N
from ..build import I
from ..errors import OptionError
from ..formula import expr as E
from ..formula.shapes import canonical_key
from ..narrate import Titles
from ..reader.notation import parse_name
from ..seq import VecSeq
from ..steps import Derivation, Step
from . import sections as S
from .explain import explain, general_sizes
from .plan import Plan, plan
from .readings import Combine, Ctx, Reading, Softmax, is_diagonal

__all__ = ["backward", "NOTATIONS"]

#: how gradients are written: X̄ (the adjoint) or ∂L/∂X
NOTATIONS = ("bar", "partial")


class _Refs:
    """The forward pass as formulas: a named value by its name, any other by what it is."""

    def __init__(self, p: Plan):
        self.plan = p

    def ref(self, node: Reading) -> E.Expr:
        # a constant (the identity) is itself, not a matrix of symbols by its name
        if node.named and (node.derived or node.given):
            return E.Name(node.name)
        return node.as_expr([self.ref(i) for i in node.inputs])


@dataclasses.dataclass
class _Share:
    """A share of a value's gradient, and the forward values it came back through."""

    expr: E.Expr
    via: tuple


def _substitute(matrix, subs: dict):
    """``matrix`` with the forward values put in (a derivative φ′(h) needs ``subs``, which
    keeps it a derivative at a point; everything else the faster ``xreplace``)."""
    if matrix.has(sympy.Derivative):
        return matrix.subs(subs)
    return matrix.xreplace(subs)


def _total(shares: list) -> E.Expr:
    if len(shares) == 1:
        return shares[0].expr
    return E.Sum(tuple(s.expr for s in shares), (1,) * len(shares))


def _as_operand(node: Reading) -> VecSeq:
    """A value of the forward pass as an operand of the backward one: its own symbols (a
    diagonal one's on its diagonal only)."""
    seq = node.seq
    if not is_diagonal(node) or not seq.concrete or seq.values is not None:
        return seq
    values = sympy.Matrix(seq.rows, seq.cols, lambda i, j: seq.symbol(i + 1, j + 1)
                          if i == j else 0)
    return VecSeq(seq.name, seq.rows, seq.cols, values=values, parts=seq.parts)


def _needed(p: Plan, wrt: set) -> set:
    """The indices of the values through which a gradient reaches an operand in ``wrt``."""
    out: set = set()
    for node in p.nodes:
        if node.given and node.name in wrt:
            out.add(node.index)
        elif any(i.index in out for i in node.inputs):
            out.add(node.index)
    return out


def _bar(name: str, notation: str):
    parts = parse_name(name).gradient(notation)
    return parts.canonical, parts


def backward(formula, shapes: Mapping | None = None, *, wrt=None, general: bool = False,
             notation: str = "bar", values: Mapping | None = None, causal: bool = False,
             scale: str = "symbolic", diagonal=(), heads: int | None = None,
             max_dim: int | None = None, max_terms: int | None = None,
             **unknown) -> Derivation:
    """The backward pass of a formula: the gradient of a scalar loss L with respect to
    its operands, derived step by step, each gradient product read as combine or match.

    ``formula``, ``shapes`` and the options are those of :func:`symrow.explain`;
    ``formula`` may also be a derivation made already (``symrow.attention(2, 2, 2)``,
    a preset's), whose formula, sizes and options are taken.
    ``wrt`` names the operands to differentiate (a name or a list; by default all
    of them but a causal mask); ``general=True`` derives at general sizes (no
    shapes); ``notation`` writes the gradient of X as ``\\bar{X}`` ("bar", the
    default) or ``∂L/∂X`` ("partial").

    The derivation has ``.gradients`` (each operand's name -> ∂L/∂operand, a SymPy
    matrix in the entries of the operands and of the upstream gradient),
    ``.upstream`` (the matrix of ∂L/∂C's entries, C the result), ``.operands``
    (as :func:`explain`), and ``.products``: the backward pass's matrix products
    as ``(reading, left, right)``, the reading ``combine``, ``match`` or
    ``tcombine`` (a combine over the points, ``Aᵀ B``).

    >>> import symrow
    >>> att = symrow.backward(r"\\operatorname{softmax}(QK^T/\\sqrt{d})V", general=True)
    >>> att.products
    [('tcombine', 'P', '\\\\bar{O}'), ('match', '\\\\bar{O}', 'V'), ('tcombine', '\\\\bar{S}', 'Q'), ('combine', '\\\\bar{S}', 'K')]
    >>> symrow.backward("XW", {"X": (2, 2), "W": (2, 2)}, wrt="Z")
    Traceback (most recent call last):
    ...
    symrow.errors.OptionError: wrt= names Z, which is not an operand of the formula; its operands are X, W
    """
    if notation not in NOTATIONS:
        raise OptionError(f"notation= must be one of {', '.join(NOTATIONS)}; got {notation!r}")
    if general and (shapes or values):
        raise OptionError("general=True takes no shapes or values")
    if isinstance(formula, Derivation):
        # the backward pass of a derivation made already (a preset's, explain's)
        if formula.plan is None:
            raise OptionError(f"a {formula.kind} derivation has no formula to run backwards")
        given = formula
        formula = given.plan.formula
        operands = {n.name: n.seq for n in given.plan.nodes if n.given}
        shapes = None if not given.concrete else {k: v.shape for k, v in operands.items()}
        values = values or {k: v.values for k, v in operands.items() if v.values is not None
                            and not (given.options.get("causal") and k == "M")}
        causal = bool(given.options.get("causal", causal))
        scale = given.options.get("scale", scale)
        general = not given.concrete
    fwd = explain(formula, None if general else shapes, values=values, causal=causal,
                  scale=scale, diagonal=diagonal, heads=heads, max_dim=max_dim,
                  max_terms=max_terms, **unknown)
    p = fwd.plan
    operands = [n for n in p.nodes if n.given]
    masks = {n.inputs[k].name for n in p.nodes for k in n.constant_inputs}
    if wrt is None:
        chosen = [n.name for n in operands if n.name not in masks]
    else:
        chosen = [canonical_key(w) for w in ([wrt] if isinstance(wrt, str) else list(wrt))]
        names = [n.name for n in operands]
        for w in chosen:
            if w not in names:
                raise OptionError(f"wrt= names {w}, which is not an operand of the formula; "
                                  f"its operands are {', '.join(names)}")
            if w in masks:
                raise OptionError(f"{w} is a mask: it is not differentiated")
        if not chosen:
            raise OptionError("wrt= names no operand")
    needed = _needed(p, set(chosen))
    refs = _Refs(p)
    result = p.result
    up_name, up_parts = _bar(result.name, notation)
    upstream = VecSeq(up_name, result.rows, result.cols, parts=up_parts, max_dim=max_dim)

    # -- the gradients as a formula, in reverse order of the plan -------------------------------
    shares: dict[int, list] = {result.index: [_Share(E.Name(up_name), ())]}
    defs: list[tuple[str, E.Expr]] = []
    labels: dict = {up_name: up_parts}
    origin: dict[str, Reading] = {}
    uses: dict[str, int] = {}
    vias: dict[str, tuple] = {}
    aliases: dict[str, str] = {}
    made: dict = {}
    order: list[str] = []
    for node in reversed(p.nodes):
        got = shares.get(node.index)
        if not got or not (node.derived or node.given):   # the identity
            continue
        g = _total(got)
        via = tuple(v for s in got for v in s.via)
        if node.named and node is not result and (not node.given or node.name in chosen):
            name, parts = _bar(node.name, notation)
            labels[name] = parts
            origin[name] = node
            uses[name] = len(got)
            vias[name] = via
            order.append(name)
            if isinstance(g, E.Name):
                aliases[name] = aliases.get(g.name, g.name)   # H̄ = Ȳ: nothing to compute
            elif g in made:
                aliases[name] = made[g]           # the same gradient as another value's
                g, via = E.Name(made[g]), ()
            else:
                made[g] = name
                defs.append((name, g))
                g, via = E.Name(name), ()
        if node.given:
            continue
        for k, share in node.backward(g, refs):
            target = node.inputs[k]
            if target.index not in needed:
                continue
            shares.setdefault(target.index, []).append(_Share(share, via + (node,)))
    if not order:
        raise OptionError("nothing to differentiate: no operand in wrt= reaches the result")
    if not defs:   # every gradient is the upstream itself (C = X + Y)
        raise OptionError("every gradient here is the upstream gradient itself; there is "
                          "no product to read backwards")

    groups = tuple((name, k) for k, (name, _e) in enumerate(defs))
    bformula = E.Formula(tuple(defs), defs[-1][0], groups=groups)
    used = {e.name for _n, expr in defs for e in E.walk(expr) if isinstance(e, E.Name)}
    seqs = {n.name: _as_operand(n) for n in p.nodes if n.named and n.name in used}
    if up_name in used:
        seqs[up_name] = upstream
    diagonal = {n.name for n in p.nodes if n.named and n.name in used and is_diagonal(n)}
    bp = plan(bformula, seqs=seqs, scale=scale, max_dim=max_dim, labels=labels,
              diagonal=diagonal)

    # -- values: the gradients in the entries of the operands and the upstream -------------------
    grad_names = {_bar(n, notation)[0]: n for n in chosen}

    def quantities() -> dict:
        forward = dict(fwd.quantities)
        values_ = bp.values()
        if p.concrete:
            subs = {}
            for n in p.nodes:
                if n.named and n.derived:
                    subs.update(zip(n.seq.matrix, sympy.Matrix(forward[n.name])))
            values_ = {k: _substitute(sympy.Matrix(v), subs) for k, v in values_.items()}
        out = {**forward, **values_}
        out[up_name] = sympy.ImmutableMatrix(upstream.matrix) if p.concrete else \
            sympy.MatrixSymbol(up_name, upstream.rows, upstream.cols)
        for name, target in aliases.items():
            out[name] = out[target]
        return out

    steps = _steps(p, bp, order, aliases, origin, uses, vias, grad_names, upstream, labels,
                   notation)
    options = {**fwd.options, "wrt": tuple(chosen), "notation": notation}
    sizes = fwd.sizes if fwd.sizes else general_sizes(p.formula, p, None)

    def rebuild(concrete: Mapping, **overrides):
        opts = dict(values=values, causal=causal, scale=overrides.get("scale", scale),
                    diagonal=diagonal, heads=heads, max_dim=max_dim, max_terms=max_terms)
        inst = fwd.instantiate(concrete, **overrides)
        return backward(p.formula, {k: v.shape for k, v in inst.operands.items()},
                        wrt=chosen, notation=notation, **opts)
    title = {code: Titles("title.backward", f=fwd.title.get(code, ""))[code]
             for code in Titles("title.backward")}
    return _Backward("backward", steps, operands=fwd.operands,
                     quantities=quantities if p.concrete else quantities(),
                     result=grad_names and next(iter(grad_names)), options=options, plan=bp,
                     sizes=sizes, rebuild=None if p.concrete else rebuild, title=title,
                     formula=fwd.formula, statement=fwd.statement,
                     more_definitions=lambda: dict(p.definitions()) if p.concrete else {},
                     notes=fwd.notes, gradient_names=grad_names, upstream=upstream,
                     forward=fwd)


class _Backward(Derivation):
    """A backward derivation: a Derivation with ``.gradients`` and ``.upstream``."""

    def __init__(self, *args, gradient_names: Mapping, upstream: VecSeq, forward: Derivation,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self._gradient_names = dict(gradient_names)
        self._upstream = upstream
        self.forward = forward

    @property
    def gradients(self) -> dict:
        """Each operand's name as written -> ∂L/∂operand (a SymPy matrix)."""
        values = self.quantities
        return {operand: values[name] for name, operand in self._gradient_names.items()}

    @property
    def upstream(self):
        """The matrix of the upstream gradient's entries, ∂L/∂C for the result C."""
        if self._upstream.concrete:
            return sympy.ImmutableMatrix(self._upstream.matrix)
        return sympy.MatrixSymbol(self._upstream.name, self._upstream.rows,
                                  self._upstream.cols)

    @property
    def products(self) -> list:
        """The backward pass's matrix products, in order: ``(reading, left, right)`` with
        reading ``combine``, ``match`` or ``tcombine``."""
        return [(n.reading, n.inputs[0].label(), n.inputs[1].label())
                for n in self.plan.nodes if n.product is not None]

    def __repr__(self) -> str:
        return (f"<Derivation backward: {', '.join(self._gradient_names.values())}; "
                f"{len(self.steps)} steps>")


def _steps(p: Plan, bp: Plan, order, aliases, origin, uses, vias, grad_names,
           upstream: VecSeq, labels, notation: str) -> list[Step]:
    ctx = Ctx(bp)
    result = p.result
    steps = [ctx.heading("backward_forward", part="forward"),
             ctx.step("backward_forward", {"C": result.seq},
                      N.Group([S._definition_display(n) for n in p.nodes
                               if n.named and n.derived]),
                      part="forward")]
    steps += [ctx.heading("backward_loss", part="loss"),
              ctx.step("backward_loss", {"C": result.seq, "G": upstream,
                                         "dLdC": N.Label(r"\partial L / \partial %s" %
                                                         result.seq.latex_name,
                                                         f"∂L/∂{result.seq.text_name}"),
                                         "g_i": upstream.vector(I), "m": upstream.rows,
                                         "n": upstream.cols, "variant": notation},
                       N.Rel(N.Chain([upstream, S.stack_of_seq(upstream)]), "in",
                             N.Space(upstream.rows, upstream.cols)), part="loss")]
    by_group: dict = {}
    for node in bp.nodes:
        if node.group is not None and node.derived:
            by_group.setdefault(node.group, []).append(node)
    group_of = dict(bp.formula.groups)
    seqs = {n.name: n.seq for n in bp.nodes if n.named}
    seqs[upstream.name] = upstream

    def seq_of(name):
        if name in seqs:
            return seqs[name]
        return VecSeq(name, *origin[name].seq.shape, parts=labels[name])

    def statement(name):
        if name in aliases:
            return N.Chain([seq_of(name), seq_of(aliases[name])])
        return S._definition_display(bp.named[name])

    for name in order:
        node = origin[name]
        bar = seq_of(name)
        part = f"grad-{node.name}"
        steps.append(ctx.heading("backward_grad", Z=node.seq, Zbar=bar, part=part))
        consumers = [c for c in p.nodes if any(i is node for i in c.inputs)]
        shown = [S._definition_display(c) if c.named else S._definition_display(_owner(p, c))
                 for c in consumers]
        shown = list(dict.fromkeys(shown))
        steps.append(ctx.step("backward_uses", {
            "Z": node.seq, "Zbar": bar, "count": uses[name],
            "variant": "many" if uses[name] > 1 else "one"},
            N.Group(shown) if len(shown) > 1 else (shown[0] if shown else None), part=part))
        said = set()
        for via in vias[name]:
            if via.reading in said:
                continue
            said.add(via.reading)
            steps.append(ctx.step("backward_rule", {"variant": via.reading},
                                  _rule_display(via.reading, notation), part=part))
            if isinstance(via, Softmax):
                steps += _flash(p, bp, via, ctx, part)
        for bnode in by_group.get(group_of.get(name), []):
            steps += [s for s in bnode.steps(ctx, part) if s.kind != "heading"]
        steps.append(ctx.step("backward_result", {"Zbar": bar}, statement(name), part=part))
    steps += [ctx.heading("backward_gradients", part="gradients"),
              ctx.step("backward_gradients", {"count": len(grad_names)},
                       N.Group([statement(n) for n in grad_names]), part="gradients")]
    return steps


def _flash(p: Plan, bp: Plan, softmax: Reading, ctx: Ctx, part: str) -> list[Step]:
    """When P = softmax(...) weighs a combine O = PV, rowsum(P̄ ∘ P) = rowsum(Ō ∘ O): the
    row sums FlashAttention computes from the output alone."""
    out = []
    for c in p.nodes:
        if isinstance(c, Combine) and c.inputs[0] is softmax and c.named:
            P, O = softmax.seq, c.seq
            bars = {n.name: n.seq for n in bp.nodes if n.named}
            Pbar = bars.get(parse_name(P.name).gradient().canonical)
            Obar = bars.get(parse_name(O.name).gradient().canonical)
            if Pbar is None or Obar is None:
                continue
            rowsum = N.Label(r"\operatorname{rowsum}", "rowsum")
            V = c.inputs[1].whole()
            out.append(ctx.step("backward_flash", {
                "P": P, "O": O, "Pbar": Pbar, "Obar": Obar, "PV": N.OMul([P, V]),
                "ObarVT": N.OMul([Obar, N.Transpose(V)]), "PbarP": N.Hadamard([Pbar, P])},
                N.Chain([
                N.OMul([rowsum, N.Paren(N.Hadamard([Pbar, P]))]),
                N.OMul([rowsum, N.Paren(N.Hadamard([Obar, O]))])]), part=part))
    return out


def _owner(p: Plan, node: Reading) -> Reading:
    """The first named value that an unnamed one is part of."""
    while not node.named:
        consumers = [c for c in p.nodes if any(i is node for i in c.inputs)]
        if not consumers:
            return node
        node = consumers[0]
    return node


def _rule(*pairs):
    return [(a, b, c, d) for a, b, c, d in pairs]


def _rule_display(reading: str, notation: str):
    """A reading's rule on generic names (C the value, C̄ its gradient), in the notation of
    the derivation: ``\\bar{A}`` or ``\\frac{\\partial L}{\\partial A}``."""
    pairs = _RULES.get(reading)
    if pairs is None:
        return None

    def tex(t):
        if notation != "partial":
            return t
        return re.sub(r"\\bar\{([^{}]*(?:\{[^{}]*\})?[^{}]*)\}",
                      r"\\frac{\\partial L}{\\partial \1}", t)

    def text(t):
        if notation != "partial":
            return t
        # NFD: Ā is one character (U+0100), C̄ two; both are a letter and a macron
        return re.sub(r"(\w)\u0304", r"∂L/∂\1", unicodedata.normalize("NFD", t))
    # a rule on generic names is not a claim about this formula's values: "gets", not "="
    return N.Group([N.Rel(N.Label(tex(a), text(b)), "gets", N.Label(tex(c), text(d)))
                    for a, b, c, d in pairs])


#: each reading's rule, on generic names: C is the value, C̄ its gradient
_RULES = {
    "combine": _rule((r"\bar{A}", "Ā", r"\bar{C} B^{T}", "C̄ Bᵀ"),
                     (r"\bar{B}", "B̄", r"A^{T} \bar{C}", "Aᵀ C̄")),
    "match": _rule((r"\bar{A}", "Ā", r"\bar{C} B", "C̄ B"),
                   (r"\bar{B}", "B̄", r"\bar{C}^{T} A", "C̄ᵀ A")),
    "tcombine": _rule((r"\bar{A}", "Ā", r"B \bar{C}^{T}", "B C̄ᵀ"),
                      (r"\bar{B}", "B̄", r"A \bar{C}", "A C̄")),
    "transpose": _rule((r"\bar{X}", "X̄", r"\bar{C}^{T}", "C̄ᵀ")),
    "scale": _rule((r"\bar{X}", "X̄", r"c \, \bar{C}", "c C̄")),
    "mask": _rule((r"\bar{X}", "X̄", r"\bar{C}", "C̄")),
    "softmax": _rule((r"\bar{\boldsymbol{x}}_{i}", "x̄ᵢ",
                      r"\bar{\boldsymbol{p}}_{i} \left(\operatorname{diag}(\boldsymbol{p}_{i})"
                      r" - \boldsymbol{p}_{i}^{T} \boldsymbol{p}_{i}\right)",
                      "p̄ᵢ (diag(pᵢ) − pᵢᵀ pᵢ)"),
                     (r"\bar{X}", "X̄", r"P \odot \left(\bar{P} - \operatorname{rowsum}"
                      r"(\bar{P} \odot P)\right)", "P ⊙ (P̄ − rowsum(P̄ ⊙ P))")),
    "apply": _rule((r"\bar{X}", "X̄", r"\bar{C} \odot f'(X)", "C̄ ⊙ f′(X)")),
    "sum": _rule((r"\bar{X}", "X̄", r"\pm \bar{C}", "±C̄")),
    "bias": _rule((r"\bar{X}", "X̄", r"\bar{C}", "C̄"),
                  (r"\bar{\boldsymbol{b}}", "b̄", r"\sum_{i} \bar{\boldsymbol{c}}_{i}",
                   "Σᵢ c̄ᵢ")),
    "hadamard": _rule((r"\bar{A}", "Ā", r"\bar{C} \odot B", "C̄ ⊙ B"),
                      (r"\bar{B}", "B̄", r"\bar{C} \odot A", "C̄ ⊙ A")),
    "layernorm": _rule((r"\bar{\boldsymbol{x}}_{i}", "x̄ᵢ",
                        r"\frac{\bar{\boldsymbol{n}}_{i} - \operatorname{mean}"
                        r"(\bar{\boldsymbol{n}}_{i}) - \hat{\boldsymbol{x}}_{i} \operatorname"
                        r"{mean}(\bar{\boldsymbol{n}}_{i} \odot \hat{\boldsymbol{x}}_{i})}"
                        r"{\sqrt{\sigma_{i}^{2} + \epsilon}}",
                        "(n̄ᵢ − mean(n̄ᵢ) − x̂ᵢ mean(n̄ᵢ ⊙ x̂ᵢ)) / √(σᵢ² + ε)")),
    "normalize": _rule((r"\bar{\boldsymbol{x}}_{i}", "x̄ᵢ",
                        r"\frac{\bar{\boldsymbol{c}}_{i} - (\bar{\boldsymbol{c}}_{i} \cdot "
                        r"\hat{\boldsymbol{x}}_{i}) \hat{\boldsymbol{x}}_{i}}"
                        r"{\lVert \boldsymbol{x}_{i} \rVert}",
                        "(c̄ᵢ − (c̄ᵢ · x̂ᵢ) x̂ᵢ) / ‖xᵢ‖")),
    "rowscale": _rule((r"\bar{X}", "X̄", r"D \bar{C}", "D C̄"),
                      (r"\bar{d}_{ii}", "d̄ᵢᵢ", r"\bar{\boldsymbol{c}}_{i} \cdot "
                       r"\boldsymbol{x}_{i}", "c̄ᵢ · xᵢ")),
    "colscale": _rule((r"\bar{X}", "X̄", r"\bar{C} D", "C̄ D"),
                      (r"\bar{d}_{jj}", "d̄ⱼⱼ", r"\sum_{i} \bar{c}_{ij} x_{ij}",
                       "Σᵢ c̄ᵢⱼ xᵢⱼ")),
    "power": _rule((r"\bar{D}", "D̄", r"p \, D^{p-1} \odot \bar{C}", "p Dᵖ⁻¹ ⊙ C̄")),
    "expdiag": _rule((r"\bar{d}_{ii}", "d̄ᵢᵢ", r"\bar{c}_{ii} \exp(d_{ii})", "c̄ᵢᵢ exp(dᵢᵢ)")),
    "degree": _rule((r"\bar{a}_{ij}", "āᵢⱼ", r"\bar{d}_{ii}", "d̄ᵢᵢ")),
    "diag": _rule((r"\bar{s}_{j}", "s̄ⱼ", r"\bar{d}_{jj}", "d̄ⱼⱼ")),
    "concat": _rule((r"\bar{A}_{k}", "Āₖ", r"\bar{C}_{:,\,J_{k}}", "C̄[:, Jₖ]")),
}
