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
from typing import Mapping

import sympy

from .. import nodes as N
from ..build import I
from ..errors import OptionError
from ..formula import expr as E
from ..formula.shapes import canonical_key
from ..formula.substitute import Replacer
from ..narrate import Titles
from ..reader.notation import parse_name
from ..seq import VecSeq
from ..steps import Derivation, Step
from . import sections as S
from .explain import explain, general_sizes
from .options import NAMES as OPTION_NAMES
from .options import Options
from .plan import Plan, plan
from .readings import Ctx, Reading, is_diagonal

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


def _substitute(matrix, subs: dict, replace: Replacer | None = None):
    """``matrix`` with the forward values put in (a derivative φ′(h) needs ``subs``, which
    keeps it a derivative at a point; everything else the faster ``xreplace``, done by
    ``replace`` when given: a :class:`Replacer` of ``subs`` shared by the gradients)."""
    if matrix.has(sympy.Derivative):
        return matrix.subs(subs)
    return replace.matrix(matrix) if replace is not None else matrix.xreplace(subs)


def _total(shares: list) -> E.Expr:
    if len(shares) == 1:
        return shares[0].expr
    return E.Sum(tuple(s.expr for s in shares), (1,) * len(shares))


def _by_containment(defs: list) -> list:
    """The definitions, each one whose formula is part of another's moved before it."""
    out = list(defs)
    moved = True
    while moved:
        moved = False
        for i, (_n, outer) in enumerate(out):
            parts = list(E.walk(outer))[:-1]
            j = next((j for j in range(i + 1, len(out)) if out[j][1] in parts), None)
            if j is not None:
                out.insert(i, out.pop(j))
                moved = True
                break
    return out


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
             notation: str = "bar", options: Options | None = None,
             **given) -> Derivation:
    """The backward pass of a formula: the gradient of a scalar loss L with respect to
    its operands, derived step by step, each gradient product read as combine or match.

    ``formula``, ``shapes`` and the options (keywords, or one record ``options=``) are
    those of :func:`symrow.explain`; ``formula`` may also be a derivation made already
    (``symrow.attention(2, 2, 2)``, a preset's), whose formula, sizes, values and
    options are taken.
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
    opts = (options or Options()).merge(**given)
    if general and (shapes or opts.values):
        raise OptionError("general=True takes no shapes or values")
    made = None
    if isinstance(formula, Derivation):
        # the backward pass of a derivation made already (a preset's, explain's)
        if formula.plan is None:
            raise OptionError(f"a {formula.kind} derivation has no formula to run backwards")
        made = formula
        formula = made.plan.formula
        operands = {n.name: n.seq for n in made.plan.nodes if n.given}
        # general sizes keep the names they were given (W: m x n, X: n x p): renamed to
        # the conventional m, ell, n, a page's (and the user's) n became another size
        shapes = {k: v.shape for k, v in operands.items()}
        taken = {k: v for k, v in made.options.items() if k in OPTION_NAMES}
        opts = opts.merge(**taken, values=opts.values or {
            k: v.values for k, v in operands.items() if v.values is not None
            and not (taken.get("causal") and k == "M")})
        general = not made.concrete
    fwd = explain(formula, shapes if made is not None else None if general else shapes,
                  options=opts)
    if made is not None:     # the shapes given are the first derivation's, not all of them
        fwd.shapes_written = made.shapes_written
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
    upstream = VecSeq(up_name, result.rows, result.cols, parts=up_parts, max_dim=opts.max_dim)

    # -- the gradients as a formula, in reverse order of the plan -------------------------------
    shares: dict[int, list] = {result.index: [_Share(E.Name(up_name), ())]}
    defs: list[tuple[str, E.Expr]] = []
    labels: dict = {up_name: up_parts}
    origin: dict[str, Reading] = {}
    uses: dict[str, list] = {}          # a gradient's name -> the shares it is the sum of
    grads: dict[int, E.Expr] = {}       # a forward value (its index) -> its gradient
    sent: dict[tuple, E.Expr] = {}      # (a forward value, input k) -> the share it sends
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
            uses[name] = got
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
        grads[node.index] = g
        if node.given:
            continue
        for k, share in node.backward(g, refs):
            target = node.inputs[k]
            if target.index not in needed:
                continue
            sent[(node.index, k)] = share
            shares.setdefault(target.index, []).append(_Share(share, via + (node,)))
    if not order:
        raise OptionError("nothing to differentiate: no operand in wrt= reaches the result")
    if not defs:   # every gradient is the upstream itself (C = X + Y)
        raise OptionError("every gradient here is the upstream gradient itself; there is "
                          "no product to read backwards")

    # a gradient that is part of another's (Ḡ of b̄₁ = Σᵢ ḡᵢ) is derived first
    defs = _by_containment(defs)
    rank = {name: k for k, (name, _e) in enumerate(defs)}
    order = sorted(order, key=lambda n: (rank.get(n, rank.get(aliases.get(n), len(rank))),
                                         order.index(n)))
    groups = tuple((name, k) for k, (name, _e) in enumerate(defs))
    bformula = E.Formula(tuple(defs), defs[-1][0], groups=groups)
    used = {e.name for _n, expr in defs for e in E.walk(expr) if isinstance(e, E.Name)}
    seqs = {n.name: _as_operand(n) for n in p.nodes if n.named and n.name in used}
    if up_name in used:
        seqs[up_name] = upstream
    diagonal = {n.name for n in p.nodes if n.named and n.name in used and is_diagonal(n)}
    # with scale="number", sqrt(d) of the gradients is the number the forward pass gives d
    # (the gradients' formula alone has no operand of size d to tell it)
    # the forward pass's names are taken: its H is not the backward pass's X \bar{H}^T
    reserved = [n.seq for n in p.nodes if n.seq is not None and n.name not in seqs]
    bp = plan(bformula, seqs=seqs, scale=opts.scale, max_dim=opts.max_dim, labels=labels,
              diagonal=diagonal, ties=p.ties if opts.scale == "number" else None,
              reserved=reserved)

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
            replace = Replacer(subs)
            values_ = {k: _substitute(sympy.Matrix(v), subs, replace)
                       for k, v in values_.items()}
        out = {**forward, **values_}
        out[up_name] = sympy.ImmutableMatrix(upstream.matrix) if p.concrete else \
            sympy.MatrixSymbol(up_name, upstream.rows, upstream.cols)
        for name, target in aliases.items():
            out[name] = out[target]
        return out

    rules = _Rules(p, bp, grads, sent, {name: len(got) for name, got in uses.items()},
                   upstream, labels, notation)
    steps = _steps(rules, order, aliases, origin, uses, grad_names)
    options = {**fwd.options, "wrt": tuple(chosen), "notation": notation}
    sizes = fwd.sizes if fwd.sizes else general_sizes(p.formula, p, None)

    def rebuild(concrete: Mapping, **overrides):
        inst = fwd.instantiate(concrete, **overrides)
        return backward(p.formula, {k: v.shape for k, v in inst.operands.items()},
                        wrt=chosen, notation=notation, options=opts.merge(**overrides))
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


class _Rules:
    """What a reading needs to say its backward rule in the formula's own names (see
    :meth:`Reading.rule_steps <symrow.derive.readings.base.Reading.rule_steps>`): the
    forward values as the formula shows them, their gradients as the backward pass names
    them, and the share of the gradient each value sends back to each of its inputs."""

    def __init__(self, p: Plan, bp: Plan, grads: Mapping, sent: Mapping, counts: Mapping,
                 upstream: VecSeq, labels: Mapping, notation: str):
        self.p, self.bp = p, bp
        self.grads, self.sent, self.counts = grads, sent, counts
        self.upstream, self.labels, self.notation = upstream, labels, notation
        self.names = {**{n.name: n.seq for n in bp.nodes if n.named},
                      upstream.name: upstream}
        self.by_expr: dict = {}
        for n in bp.nodes:
            self.by_expr.setdefault(n.expr, n)
        #: the backward value that the steps right after a rule read in full
        self.next = None

    # -- the forward pass ---------------------------------------------------------------
    def show(self, node: Reading):
        """A forward value as the formula shows it: its name, or what it computes."""
        return node.whole()

    def use(self, node: Reading):
        """Where a value is made: ``O = P V``, or ``S/√d`` for a value with no name."""
        return S._definition_display(node) if node.named else node.whole()

    def consumers(self, node: Reading) -> list:
        return self.p.consumers(node)

    # -- the backward pass --------------------------------------------------------------
    def expr(self, e: E.Expr):
        """A formula of the backward pass as it is shown: by the names of the values it
        is made of, or what it computes."""
        if isinstance(e, E.Name) and e.name in self.names:
            return self.names[e.name]
        node = self.by_expr.get(e)
        if node is not None:
            return node.whole()
        return S.display_expr(e, self.bp, names=self.names)

    def grad(self, node: Reading):
        """The gradient of a forward value, by its name: ``V̄``, ``G`` (the backward pass's
        name for the gradient of ``S/√d``), or ``∂L/∂(S/√d)`` when it has none."""
        if node.named:
            if node.seq is not None and not (node.given or node.derived):
                # a constant (the all-ones vector 1, which is no name to parse)
                parts = node.seq.parts.gradient(self.notation)
                name = parts.canonical
            else:
                name, parts = _bar(node.name, self.notation)
            return self.names.get(name) or VecSeq(name, *node.seq.shape, parts=parts)
        g = self.grads.get(node.index)
        if g is not None:
            shown = self.expr(g)
            if isinstance(shown, VecSeq):
                return shown
        from ..render.latex import latex
        from ..render.text import text
        whole = node.whole()
        return N.Label(r"\frac{\partial L}{\partial \left(%s\right)}" % latex(whole),
                       f"∂L/∂({text(whole)})")

    def share(self, node: Reading, k: int):
        """What ``node`` sends back to its input ``k``, as it is computed (``Ō Vᵀ``; None:
        it sends nothing)."""
        e = self.sent.get((node.index, k))
        if e is None:
            return None
        made = self.by_expr.get(e)
        return S.definition_of(made) if made is not None and made.derived else self.expr(e)

    def named_share(self, node: Reading, k: int):
        """The backward value that is the share ``node`` sends to input ``k``, when the
        backward pass names it (``G`` for the softmax's argument), else None."""
        e = self.sent.get((node.index, k))
        found = self.by_expr.get(e) if e is not None else None
        return found if found is not None and found.named else None

    def relations(self, node: Reading):
        """``P̄ = Ō Vᵀ, V̄ = Pᵀ Ō``: the gradient each input of ``node`` gets, in the
        formula's names (``⟵``: a share, for an input used more than once); None when it
        sends back nothing."""
        out = []
        for k, x in enumerate(node.inputs):
            share = self.share(node, k)
            lhs = self.grad(x)
            if share is None or share == lhs:
                continue
            many = x.named and self.counts.get(_bar(x.name, self.notation)[0], 1) > 1
            out.append((self.by_expr.get(self.sent[(node.index, k)]),
                        N.Rel(lhs, "gets" if many else "=", share)))
        if not out or (len(out) == 1 and len(node.inputs) == 1 and out[0][0] is not None
                       and out[0][0] is self.next):
            return None
        return N.Group([r for _n, r in out]) if len(out) > 1 else out[0][1]


def _steps(rules: _Rules, order, aliases, origin, uses, grad_names) -> list[Step]:
    """The forward pass, the loss, one section per gradient, the gradients.

    A section follows the shares of its gradient back through the values that sent
    them: each value's rule is said once, in the formula's names, the first time a
    gradient goes back through it (a reading's rule in full the first time, shortly
    after), and then the backward values it makes are read (a product of a kind
    read in full before by its first display alone)."""
    p, bp, upstream, notation = rules.p, rules.bp, rules.upstream, rules.notation
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
    backward = _of_gradients(bp, set(rules.labels))
    by_group: dict = {}
    for node in bp.nodes:
        if node.group is not None and node.index in backward:
            by_group.setdefault(node.group, []).append(node)
    group_of = dict(bp.formula.groups)

    def seq_of(name):
        if name in rules.names:
            return rules.names[name]
        return VecSeq(name, *origin[name].seq.shape, parts=rules.labels[name])

    def statement(name):
        if name in aliases:
            return N.Chain([seq_of(name), seq_of(aliases[name])])
        return S._definition_display(bp.named[name])

    explained: set = set()     # readings whose rule has been said
    ruled: set = set()         # forward values whose rule has been shown
    introduced: set = set()    # backward names said to be a gradient
    read: dict = {}            # readings whose products have been read in full: the first
    for name in order:
        node = origin[name]
        bar = seq_of(name)
        part = f"grad-{node.name}"
        steps.append(ctx.heading("backward_grad", Z=node.seq, Zbar=bar, part=part))
        got = uses[name]
        if len(got) > 1:
            consumers = [c for c in p.nodes if any(i is node for i in c.inputs)]
            shown = list(dict.fromkeys(S._definition_display(c) if c.named else
                                       S._definition_display(_owner(p, c)) for c in consumers))
            steps.append(ctx.step("backward_uses", {
                "Z": node.seq, "Zbar": bar, "count": len(got), "variant": "many"},
                N.Group(shown) if len(shown) > 1 else shown[0], part=part))
        group = list(by_group.get(group_of.get(name), []))
        for share in got:
            chain = share.via
            for k, via in enumerate(chain):
                target = chain[k + 1] if k + 1 < len(chain) else node
                slot = next(j for j, x in enumerate(via.inputs) if x is target)
                made_here = rules.by_expr.get(rules.sent.get((via.index, slot)))
                if made_here not in group:
                    made_here = None
                rules.next = made_here
                # a backward value named for the gradient of a value that has no name of
                # its own (G, for S/√d) is said to be that gradient before a rule uses it
                for j, x in enumerate(via.inputs):
                    named = rules.named_share(via, j)
                    if not x.named and named is not None and named.name not in introduced \
                            and named.name not in rules.labels:
                        introduced.add(named.name)
                        steps.append(ctx.step("backward_name", {
                            "G": named.seq, "X": x.whole(), "g_i": named.seq.vector(I)},
                            part=part))
                if via.index not in ruled:
                    ruled.add(via.index)
                    if type(via) in explained:
                        steps.append(ctx.step("backward_again", {"use": rules.use(via)},
                                              rules.relations(via), part=part))
                    else:
                        explained.add(type(via))
                        steps += via.rule_steps(rules, ctx, part)
                elif target is node:   # the last step back, to this value
                    steps.append(ctx.step("backward_same", {
                        "use": rules.use(via), "Zbar": rules.grad(target),
                        "variant": "read" if made_here is not None else "shown"},
                        None if made_here is not None else rules.relations(via), part=part))
                if made_here is not None:
                    group.remove(made_here)
                    steps += _read(made_here, ctx, part, read)
                steps += via.rule_notes(rules, ctx, part)
        for bnode in group:      # the sum of the shares, and what is left
            steps += _read(bnode, ctx, part, read)
        if len(got) > 1 or name in aliases:
            steps.append(ctx.step("backward_result", {"Zbar": bar}, statement(name),
                                  part=part))
    steps += [ctx.heading("backward_gradients", part="gradients"),
              ctx.step("backward_gradients", {"count": len(grad_names)},
                       N.Group([statement(n) for n in grad_names]), part="gradients")]
    return steps


def _read(bnode: Reading, ctx: Ctx, part: str, read: dict) -> list[Step]:
    """A backward value's own steps; a product of a kind read in full before in this
    derivation is shown by its first display alone, with a sentence that says so."""
    steps = [s for s in bnode.steps(ctx, part) if s.kind != "heading"]
    if bnode.product is None or type(bnode) not in read:
        read.setdefault(type(bnode), bnode)
        return steps
    first = next((s for s in steps if s.display is not None), None)
    return [ctx.step("backward_read_again", {"Zbar": bnode.whole(),
                                             "Ybar": read[type(bnode)].whole()},
                     first.display if first is not None else None, part=part)]


def _of_gradients(bp: Plan, gradient_names: set) -> set:
    """The values of the backward pass that are made from a gradient (not the forward
    values it needs again, such as ``normalize(X)`` in ``normalize(X)ᵀ C̄``)."""
    out: set = set()
    for n in bp.nodes:
        if (n.named and n.name in gradient_names) or any(i.index in out for i in n.inputs):
            out.add(n.index)
    return out


def _owner(p: Plan, node: Reading) -> Reading:
    """The first named value that an unnamed one is part of."""
    while not node.named:
        consumers = [c for c in p.nodes if any(i is node for i in c.inputs)]
        if not consumers:
            return node
        node = consumers[0]
    return node
