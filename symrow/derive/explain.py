"""``symrow.explain``: read any product formula row by row.

A formula (LaTeX, a SymPy matrix expression, or several definitions) is
planned (:mod:`.plan`) and every value it computes is read as what it does
to the points of a vector sequence: products as **combine** or **match**,
and scalings, masks, softmax, element-wise functions and sums around them.
The derivation shows, in order:

1. the formula as written;
2. every operand as a vector sequence, with what its points are;
3. the definitions it computes, when there are several;
4. each value with its reading and row formula (c_i = Σ_j a_ij b_j,
   c_ij = a_i·b_j), and, for concrete sizes, every entry written out; a
   softmax-weighted combine is also written out in full;
5. the whole formula as a chain of point maps (x_i ⟼ ⋯ ⟼ c_i).

A single product of two operands (``AB``, ``AB^T``) follows the reference
article's path instead, section by section.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

import sympy

from .. import nodes as N
from ..errors import LimitError, OptionError, ShapeError
from ..formula import expr as E
from ..formula.read import from_sympy, read_latex
from ..formula.shapes import canonical_key, infer
from ..limits import get_limits
from ..narrate import Titles
from ..seq import VecSeq
from ..steps import Derivation
from . import sections as S
from ..render.latex import latex
from .plan import Plan, plan
from .convention import convention_of, to_row_view
from ..formula.read import _loose
from .presets import REGISTRY, conventions_for, style_for
from .options import NAMES as EXPLAIN_OPTIONS
from .options import Options
from .readings import Ctx

__all__ = ["explain", "derive", "count_terms", "read", "general_sizes", "EXPLAIN_OPTIONS"]


def read(formula, shapes: Mapping | None = None, heads: int | None = None
         ) -> tuple[E.Formula, dict]:
    """A formula from LaTeX text or a SymPy matrix expression; and the shapes the
    SymPy symbols carry (empty for text).  ``shapes`` and ``heads`` help the reader:
    see :func:`symrow.formula.read.read_latex`."""
    if isinstance(formula, E.Formula):
        return formula, {}
    if isinstance(formula, str):
        return read_latex(formula, shapes=list(shapes or ()), heads=heads), {}
    if isinstance(formula, sympy.Basic):
        return from_sympy(formula)
    raise OptionError(f"a formula must be LaTeX text such as 'XW' or a SymPy matrix "
                      f"expression over MatrixSymbols; got {type(formula).__name__}")


def count_terms(p: Plan, *, shown_combine=True) -> int:
    """Scalar products a concrete derivation writes out (checked against ``max_terms``).

    Each product writes rows x cols x inner; a softmax-weighted combine that is
    expanded in full writes, for each of its rows x cols entries, c (c + 1) x d
    more, where c is the number of keys its row sees and d the inner size of
    the match.  A combine whose entries are left to that expansion
    (``shown_combine=False``) is not counted.
    """
    if not p.concrete:
        return 0
    return sum(n.terms(p, shown_combine) for n in p.nodes)


def is_article(p: Plan) -> bool:
    """A single product (combine or match) of two different operands, nothing else
    (``XX^T`` matches a sequence with itself: no point maps to one row alone)."""
    r = p.result
    return r.article and all(x.given for x in r.inputs) and len(p.nodes) == 3


def article_steps(p: Plan) -> list:
    """The whole derivation of a single product, as the reference article reads it."""
    ctx = Ctx(p, article=True)
    steps = p.result.steps(ctx, "product")
    # with numbers given, the product in numbers, after its entries written out
    at = next((k + 1 for k, s in enumerate(steps) if s.kind.startswith("entries_")),
              len(steps))
    return steps[:at] + S.number_steps(ctx, p.result, part="product.entries") + steps[at:]


def check_terms(p: Plan, max_terms: int | None, *, shown_combine=True) -> None:
    limit = get_limits().max_terms if max_terms is None else max_terms
    terms = count_terms(p, shown_combine=shown_combine)
    if terms > limit:
        raise LimitError(
            f"the full expansion would write out {terms:,} scalar products, past the limit "
            f"of {limit:,}; raise it with symrow.limits(max_terms=...) or max_terms=, or "
            f"choose smaller sizes", limit="max_terms")


def general_sizes(formula: E.Formula, p: Plan, conventions: Mapping | None) -> dict:
    """The sizes of a plan by their general names: ``{"m": 2, "ell": 3, "n": 2}``."""
    if not p.concrete:
        return {name: value for name, value in p.sizes().items()}
    try:
        general = infer(formula, None, conventions=conventions).operands
    except ShapeError:
        # more independent sizes than general names (a grader's page of many candidates):
        # the derivation is concrete, and its sizes then go without general names
        return {}
    out: dict = {}
    for node in p.nodes:
        if not node.given:
            continue
        for sym, value in zip(general.get(node.name, ()), (node.rows, node.cols)):
            if isinstance(sym, sympy.Symbol) and out.get(sym.name, value) == value:
                out[sym.name] = value
    return out


def generic_steps(p: Plan, style: str | None = None) -> list:
    """Formula, operands, definitions, one section per value, expansions, summary.

    The members of a family after the first (``\\mathrm{head}_2, ...``) are read like
    the first: their steps are not repeated, and one step says so."""
    quiet = frozenset(n.index for n in p.nodes if n.family is not None and n.family > 1)
    ctx = Ctx(p, style, quiet=quiet)
    steps = S.formula_steps(ctx)
    steps += S.note_steps(ctx, p.formula.notes + p.notes, part="formula")
    steps += [ctx.heading("operands", part="operands")] + S.operand_steps(ctx)
    steps += S.plan_steps(ctx, part="operands")
    seen: dict[str, int] = {}
    several = sum(1 for n in p.nodes if n.expandable() and ctx.shown(n)) > 1
    said: set = set()
    for node in p.nodes:
        if node.family is not None and node.family > 1 and node.family not in said:
            said.add(node.family)
            steps += S.family_steps(ctx, node.family)
        if not node.derived or not ctx.shown(node):
            continue
        part = node.name or node.reading
        seen[part] = seen.get(part, 0) + 1
        if seen[part] > 1:
            part = f"{part}-{seen[part]}"
        steps += node.steps(ctx, part)
        steps += S.number_steps(ctx, node, part=part)
        steps += node.expansion(ctx, f"expansion-{node.name}" if several else "expansion")
    steps += S.summary(ctx)
    return steps


def derive(p: Plan, *, kind: str, steps: list | None = None, options: Mapping | None = None,
           sizes: Mapping | None = None, rebuild=None, title: Mapping | None = None,
           formula_text: str | None = None, statement=None, more_quantities=None,
           more_definitions=None) -> Derivation:
    """The Derivation of a plan: its steps (the generic layout, or the article's for a
    single product, unless given), its values and definitions."""
    if statement is None:
        statement = N.Chain([p.result.seq, S.display_expr(p.formula.result, p)])
    if steps is None:
        steps = article_steps(p) if is_article(p) else generic_steps(p)
    if p.concrete:
        def quantities() -> dict:
            return p.values()
    else:
        quantities = p.values()
    return Derivation(kind, steps, operands=p.operands, quantities=quantities,
                      result=p.result.name, options=options, plan=p, sizes=sizes,
                      rebuild=rebuild, title=title, formula=formula_text, statement=statement,
                      more_quantities=more_quantities, more_definitions=more_definitions,
                      notes=p.formula.notes + p.notes)


def explain(formula, shapes: Mapping | None = None, *, options: Options | None = None,
            **given) -> Derivation:
    """Read a formula row by row: every product as combine or match, and what comes
    around them, as a narrated derivation.

    ``formula`` is LaTeX (``r"\\hat{A} X W"``, ``"X W_Q (X W_K)^T"``,
    ``r"\\operatorname{softmax}(QK^\\top/\\sqrt{d})V"``), several definitions
    (``"S = QK^T; P = softmax(S/\\sqrt{d}); O = PV"``, or an ``align*``), or a
    SymPy matrix expression over MatrixSymbols (with :func:`symrow.softmax`
    and :func:`symrow.apply` for the non-linear parts).

    ``shapes`` maps names as written to ``(rows, cols)``: ints (concrete: every
    entry is written out) or size names (general).  Shapes not given are
    inferred from the products; with none at all the general form is derived
    with conventional names.  ``values`` gives operands numbers (name ->
    matrix), ``causal=True`` makes the ``M`` added inside a softmax the causal
    mask, ``scale="number"`` substitutes the number for ``√d``, ``diagonal``
    names operands that are diagonal matrices (``D^{-1/2}`` is read only for
    those), and ``heads`` says how many blocks ``\\mathrm{Concat}(\\mathrm{head}_1,
    \\dots, \\mathrm{head}_h)`` has (else it is taken from the shapes); ``max_dim``
    and ``max_terms`` are limits for this call.  The options may also come as one
    record, ``options=`` (:class:`symrow.derive.options.Options`), which the
    keywords change.

    >>> import symrow
    >>> d = symrow.explain(r"\\hat{A} X W", {r"\\hat{A}": (4, 4), "X": (4, 3), "W": (3, 2)})
    >>> d.products
    [('combine', '\\\\hat{A}', 'X'), ('combine', 'H', 'W')]
    >>> d.result.shape
    (4, 2)
    >>> symrow.explain("X W_Q (X W_K)^T").products
    [('combine', 'X', 'W_Q'), ('combine', 'X', 'W_K'), ('match', 'Q', 'K')]
    >>> symrow.explain("XW", {"X": (2, 3), "W": (2, 2)})
    Traceback (most recent call last):
    ...
    symrow.errors.ShapeError: the product XW needs as many columns in X as rows in W; X is 2 x 3 and W is 2 x 2

    Names are keyed as written (``"W^{(l)}"``, ``"\\mathbf{H}_{t-1}"``), and
    read as papers print them:

    >>> d = symrow.explain(r"\\mathbf{H}_t = \\tanh(\\mathbf{X}_t \\mathbf{W}_{xh}"
    ...                    r" + \\mathbf{H}_{t-1}\\mathbf{W}_{hh} + \\mathbf{b}_h)")
    >>> sorted(d.operands)
    ['H_{t-1}', 'W_{hh}', 'W_{xh}', 'X_t', 'b_h']
    >>> [r for r, _, _ in d.products]
    ['combine', 'combine']
    """
    opts = (options or Options()).merge(**given)
    parsed, sym_shapes = read(formula, shapes, opts.heads)
    given_shapes = {**sym_shapes, **dict(shapes or {})}
    _check_chains(parsed, given_shapes)
    parsed, given_shapes, values = _row_view(parsed, given_shapes, opts)
    if values is not opts.values:
        opts = opts.merge(values=values)
    conv = conventions_for(parsed)
    p = plan(parsed, given_shapes or None, values=opts.values, causal=opts.causal,
             scale=opts.scale, conventions=conv, max_dim=opts.max_dim, diagonal=opts.diagonal)
    style = style_for(p)
    check_terms(p, opts.max_terms, shown_combine=style != "attention")
    steps = None
    if not is_article(p):
        steps = generic_steps(p, style)

    def rebuild(concrete: Mapping, **overrides) -> Derivation:
        return explain(parsed, concrete, options=opts.merge(**overrides))
    options = opts.shown()
    tex = latex(S.display_expr(parsed.result, p))
    for kind, params in parsed.notes:
        if kind == "function_result":   # MultiHead(Q, K, V), as the paper writes it
            tex = r"\operatorname{%s}\left(%s\right)" % (params["word"], ", ".join(
                p.operands[name].latex_name if name in p.operands else name
                for name in params["params"]))
    title = Titles("title.explain", f=tex)
    d = derive(p, kind="explain", steps=steps, options=options, title=title,
               sizes=general_sizes(parsed, p, conv), rebuild=_shapes_rebuilder(p, rebuild),
               formula_text=E.text(parsed.result) if not parsed.written else
               "; ".join(f"{n} = {E.text(e)}" for n, e in parsed.definitions))
    # the operands whose shapes were given (the others were inferred from the formula)
    d.shapes_written = frozenset(canonical_key(k) if isinstance(k, str) else str(k)
                                 for k in (shapes or {}))
    return d


def _check_chains(parsed: E.Formula, shapes: Mapping) -> None:
    """A chain ``Z = A = B`` is read from one member; any other member written in the same
    operands must have its value.  Each is computed at random numbers (sizes left general
    are given small ones of their own), and a chain whose members differ is refused,
    for reading either member would be a guess."""
    import random
    from sympy.core.function import AppliedUndef
    from ..errors import SymrowError
    from ..formula.shapes import canonical_key
    from ..formula.evaluate import plan_of, operand_symbols
    defined = {name for name, _ in parsed.definitions if name}
    for chosen, others, pos, end in parsed.chains:
        names = {e.name for e in E.walk(chosen) if isinstance(e, E.Name)}
        if names & defined:
            continue
        for other in others:
            if not {e.name for e in E.walk(other) if isinstance(e, E.Name)} <= names:
                continue
            try:
                one = E.Formula((("", chosen),), None)
                sizes = infer(one, {k: v for k, v in shapes.items()
                                    if canonical_key(k) in names}).operands
                small = {}
                concrete = {n: tuple(v if isinstance(v, int) else
                                     small.setdefault(v, 2 + len(small)) for v in shape)
                            for n, shape in sizes.items()}
                values = []
                rnd = random.Random(7)
                numbers: dict = {}
                planned = [plan_of(E.Formula((("", expr),), None), concrete)
                           for expr in (chosen, other)]
                # a size written in one member (the r of alpha/r) is that size in both
                ties = {str(k): v for p, _ in planned for k, v in p.ties.items()
                        if isinstance(v, int)}
                if any(ties.get(str(k), v) != v for p, _ in planned for k, v in
                       p.ties.items() if isinstance(v, int)):
                    continue      # the members take a size name for different sizes
                for p, value in planned:
                    value = value.xreplace({sym: ties[str(sym)] for sym in value.free_symbols
                                            if str(sym) in ties})
                    subs = {}
                    for name, matrix in sorted(operand_symbols(p).items()):
                        for sym in matrix:
                            subs[sym] = numbers.setdefault((name, str(sym)),
                                                           sympy.Float(rnd.uniform(-1, 1), 20))
                    value = value.xreplace(subs)
                    for sym in sorted(value.free_symbols, key=str):
                        subs[sym] = numbers.setdefault(("", str(sym)),
                                                       sympy.Float(rnd.uniform(0.5, 2), 20))
                    values.append(value.xreplace(subs).evalf(15))
            except SymrowError:
                continue
            a, b = values
            if a.atoms(AppliedUndef) or b.atoms(AppliedUndef) or a.free_symbols or \
                    b.free_symbols:
                continue      # a function the formula does not define: no number to compare
            if a.shape != b.shape or any(abs(complex(x - y)) > 1e-9 * (1 + abs(complex(x)))
                                         for x, y in zip(a, b)):
                from ..errors import ParseError
                raise ParseError(f"the members of the chain {E.text(other)} = "
                                 f"{E.text(chosen)} are not equal (their values differ at "
                                 f"random numbers); write the one meant")


def _row_view(parsed: E.Formula, shapes: dict, opts: Options):
    """A formula written with its points as columns, read in the row view: the formula
    transposed, and the shapes and values of its operands with it (see
    :mod:`.convention`); any other formula as it is."""
    if any(kind == "convention" for kind, _ in parsed.notes):
        return parsed, shapes, opts.values       # read in the row view already
    if opts.convention is not None:
        conv, evidence = opts.convention, ("given", None)
    else:
        conv, _why, evidence = convention_of(parsed, shapes)
    if conv != "column":
        return parsed, shapes, opts.values
    view = to_row_view(parsed, shapes)
    vectors = {_loose(v) for v in view.vectors}
    note = ("convention", {"evidence": evidence[0], "name": evidence[1],
                           "vectors": view.vectors})
    view = dataclasses.replace(view, notes=(note,) + tuple(view.notes))
    flipped = {name: tuple(shape)[::-1] if _loose(name) in vectors else shape
               for name, shape in shapes.items()}
    values = opts.values
    if values:
        values = {name: sympy.Matrix(value).T if _loose(name) in vectors else value
                  for name, value in values.items()}
    return view, flipped, values


def _shapes_rebuilder(p: Plan, rebuild):
    """``instantiate(sizes)`` for a general plan: substitute the sizes into every
    operand's shape and derive again."""
    if p.concrete:
        return None

    def instantiate(sizes: Mapping, **overrides) -> Derivation:
        subs = {sympy.Symbol(k, integer=True, positive=True): v for k, v in sizes.items()}
        missing = sorted({str(s) for n in p.nodes if n.given
                          for s in (n.rows, n.cols) if isinstance(s, sympy.Symbol)
                          and s not in subs})
        if missing:
            raise OptionError(f"instantiate needs a value for every size; missing: "
                              f"{', '.join(missing)}")
        shapes = {n.name: (int(sympy.sympify(n.rows).xreplace(subs)),
                           int(sympy.sympify(n.cols).xreplace(subs)))
                  for n in p.nodes if n.given}
        return rebuild(shapes, **overrides)
    return instantiate


def derive_product(kind: str, formula: E.Formula, seqs: Mapping) -> Derivation:
    """``combine`` and ``match``: a single product of two given vector sequences."""
    conv = conventions_for(formula)
    p = plan(formula, seqs=seqs, conventions=conv)

    def rebuild(shapes: Mapping, **_) -> Derivation:  # no options to override
        return derive_product(kind, formula, {name: VecSeq(name, *shape)
                                              for name, shape in shapes.items()})
    return derive(p, kind=kind, options={"name": p.result.name},
                  sizes=general_sizes(formula, p, conv), rebuild=_shapes_rebuilder(p, rebuild),
                  title=REGISTRY[kind].title, formula_text=E.text(formula.result))


def rename(formula: E.Formula, names: Mapping) -> E.Formula:
    """The formula with names replaced (``{"A": "X"}``); ``"result"`` names the result."""
    def ren(e):
        return E.rebuild(e, lambda n: E.Name(names.get(n.name, n.name), pos=n.pos))
    defs = tuple((names.get(n, n) if n else n, ren(e)) for n, e in formula.definitions)
    written = names.get("result", formula.written)
    if written and not defs[-1][0]:
        defs = defs[:-1] + ((written, defs[-1][1]),)
    return E.Formula(defs, written)


def derive_preset(preset, *, shapes: Mapping | None = None, general: bool = False,
                  names: Mapping | None = None, values: Mapping | None = None,
                  causal: bool = False, scale: str = "symbolic", max_dim: int | None = None,
                  max_terms: int | None = None) -> Derivation:
    """A formula preset (see :mod:`.presets`): its example, general sizes, or given shapes."""
    names = {"result": preset.result, **dict(names or {})}
    formula = rename(preset.parsed(), names)

    def renamed(table: Mapping) -> dict:
        return {names.get(k, k): v for k, v in table.items()}
    if general:
        if shapes:
            raise OptionError("general=True takes no shapes")
        shapes = renamed(preset.general)
    elif shapes is None and not values:
        shapes = renamed(preset.example)
    conv = renamed(preset.general)
    p = plan(formula, shapes, values=values, causal=causal, scale=scale, conventions=conv,
             max_dim=max_dim)
    check_terms(p, max_terms, shown_combine=preset.style != "attention")
    steps = None if is_article(p) else generic_steps(p, preset.style)

    def rebuild(concrete: Mapping, scale: str = scale) -> Derivation:
        return derive_preset(preset, shapes=concrete, names=names, values=values, causal=causal,
                             scale=scale, max_dim=max_dim, max_terms=max_terms)
    return derive(p, kind=preset.name, steps=steps, options={"causal": causal, "scale": scale},
                  sizes=general_sizes(formula, p, conv), rebuild=_shapes_rebuilder(p, rebuild),
                  title=preset.title, formula_text=E.text(formula.result))
