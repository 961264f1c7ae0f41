r"""What an exercise asks: its operands, and the steps a student writes, each a formula.

An exercise is a chain of **steps**.  Each step names one matrix the student
computes (``S``, ``P``, ``O``; ``\bar{W}`` for a gradient) and the formula
that gives it from the operands and the earlier steps, as a formula tree of
:mod:`symrow.formula.expr`: ``S = QK^T``, ``P = softmax(S/√d)``,
``O = PV``.  symrow's own engine (:func:`symrow.explain`) evaluates the
steps with a variant's numbers, and evaluates the *mutated* steps that the
mistake catalogue makes of them (:mod:`.catalogue`).

The presets:

* ``combine`` (``C = AB``) and ``match`` (``C = AB^T``), shapes ``a`` and ``b``;
* ``attention``: ``S = QK^T``, ``P = softmax(S/√d)`` (``+ M`` with
  ``causal=True``), ``O = PV``; sizes ``m``, ``n``, ``d`` (and ``d_v``);
* ``linear-backward``: the gradients of ``Y = XW + b`` for a given upstream
  gradient ``\bar{Y}``: ``\bar{W} = X^T\bar{Y}``, ``\bar{b} = Σ_i \bar{y}_i``,
  ``\bar{X} = \bar{Y}W^T``;
* ``mlp-backward``: the gradients of ``Z = XW_1 + b_1; H = ReLU(Z); Y = HW_2``:
  ``\bar{W}_2``, ``\bar{H}``, ``\bar{Z} = \bar{H} ⊙ ReLU'(Z)``, ``\bar{W}_1``,
  ``\bar{b}_1``;
* ``attention-backward``: the gradients of ``O = softmax(QK^T/√d)V`` for a
  given ``\bar{O}``: ``\bar{V}``, ``\bar{P}``, ``\bar{S}`` (the softmax's
  Jacobian and the 1/√d), ``\bar{Q}``, ``\bar{K}``;

and any formula :func:`symrow.explain` reads (:func:`from_formula`), whose
definitions are the steps.

Some formulas need a matrix that the notation writes as an operation: the
row of ones that sums a bias gradient over the points (``J``), the mask
``ReLU'(Z)`` (``R``), the matrix of ones that spreads a row sum (``J``).
They are *helpers*: operands whose numbers follow from the variant, never
shown to the student as such (the sheet and the key write ``Σ_i``,
``ReLU'(Z)``, ``rowsum``).

>>> spec = preset("attention", m=2, n=3, d=2)
>>> [s.name for s in spec.steps], spec.shapes["K"]
(['S', 'P', 'O'], (3, 2))
>>> from symrow.formula.expr import text
>>> text(spec.steps[1].expr)
'softmax(S/√2)'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Mapping

import sympy

from ..errors import OptionError, ShapeError
from ..formula import expr as E
from ..formula.read import read_latex

__all__ = ["Step", "Spec", "PRESETS", "preset", "from_formula", "build", "step_key"]


@dataclasses.dataclass(frozen=True)
class Step:
    """One matrix the student computes.

    ``name`` is its LaTeX name as the student writes it (``S``, ``\\bar{W}_1``);
    ``expr`` its formula over the operands, the helpers and the earlier steps
    (their names); ``rule`` the formula as the sheet and the key write it
    (LaTeX); ``points`` what the step is worth; ``softmax`` whether its
    numbers come from a softmax (exponentials, not integers).
    """

    name: str
    expr: E.Expr
    rule: str
    points: float = 1.0
    gradient: bool = False
    softmax: bool = False

    @property
    def key(self) -> str:
        return step_key(self.name)


@dataclasses.dataclass(frozen=True)
class Spec:
    """An exercise: the kind, its options, the operands and the steps.

    ``given`` are the matrices whose numbers the sheet gives (the operands,
    and for a backward pass the forward values and the upstream gradient);
    ``computed_given`` those of them that the engine computes from the
    operands (a backward pass's forward values), as step-like definitions;
    ``helpers`` maps a helper's name to a function of the variant's values.
    ``ranges`` gives each operand's entries: (low, high) integers.
    """

    kind: str
    options: tuple                  # ((key, value), ...) as given, for the manifest
    title: Mapping                  # lang -> title
    formula: str                    # the exercise's formula, LaTeX, as the sheet shows it
    shapes: Mapping                 # operand (and helper) name -> (rows, cols)
    operands: tuple                 # names whose numbers are drawn
    steps: tuple
    ranges: Mapping
    given: tuple = ()
    computed_given: tuple = ()      # ((name, expr, rule), ...): shown on the sheet, computed
    helpers: Mapping = dataclasses.field(default_factory=dict)
    causal: bool = False
    sizes: Mapping = dataclasses.field(default_factory=dict)
    bound: int = 12                 # the largest |entry| of an integer result
    explain_formula: str | None = None   # what explain derives as the worked solution
    backward: bool = False
    upstream: str | None = None     # the upstream gradient's name (a backward pass)
    nonzero: tuple = ()             # computed givens that must have no zero entry (ReLU's Z)

    def option(self, key, default=None):
        return dict(self.options).get(key, default)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.steps]

    def step(self, name: str) -> Step:
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(name)

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options if v not in (None, False))
        return f"{self.kind} ({opts})" if opts else self.kind


def step_key(name: str) -> str:
    """A name as the grader compares it: no spaces, no font, braces of one letter dropped.

    >>> step_key(r"\\bar{W}_{1}"), step_key(r"\\mathbf{S}")
    ('\\\\bar{W}_1', 'S')
    """
    text = re.sub(r"\s+", "", name)
    text = re.sub(r"\\(mathbf|boldsymbol|bm|mathrm|mathit)\{([^{}]*)\}", r"\2", text)
    text = re.sub(r"([_^])\{([A-Za-z0-9])\}", r"\1\2", text)
    return text


def _expr(text: str) -> E.Expr:
    return read_latex(text).definitions[-1][1]


def _sized(expr: E.Expr, sizes: Mapping) -> E.Expr:
    """``expr`` with the sizes in its scalings replaced by their numbers (√d -> √2)."""
    def number(x):
        x = sympy.sympify(x)
        return x.subs({s: sizes[s.name] for s in x.free_symbols if s.name in sizes})

    def walk(e):
        if isinstance(e, E.Scaled):
            return dataclasses.replace(e, arg=walk(e.arg), num=number(e.num),
                                       den=number(e.den))
        changes = {}
        for field in dataclasses.fields(e):
            value = getattr(e, field.name)
            if isinstance(value, E.Expr):
                changes[field.name] = walk(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, E.Expr) for v in value):
                changes[field.name] = tuple(walk(v) for v in value)
        return dataclasses.replace(e, **changes) if changes else e
    return walk(expr)


def _size(value, what: str, low: int = 1, high: int = 6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"{what} must be a whole number from {low} to {high} for an exercise "
                          f"worked by hand; got {value!r}")
    return value


def _shape(value, what: str) -> tuple:
    if (not isinstance(value, (tuple, list)) or len(value) != 2):
        raise OptionError(f"{what} must be a shape such as (2, 3); got {value!r}")
    return (_size(value[0], f"the rows of {what}"), _size(value[1], f"the columns of {what}"))


# -- the presets ----------------------------------------------------------------------------

_TITLES = {
    "combine": {"en": "The product AB as combine", "ja": "積 AB：結合"},
    "match": {"en": "The product AB^T as match", "ja": "積 AB^T：照合"},
    "attention": {"en": "Attention: match, distribute, combine",
                  "ja": "アテンション：照合・配分・結合"},
    "causal": {"en": "Causal attention: match, mask, distribute, combine",
               "ja": "因果的アテンション：照合・マスク・配分・結合"},
    "linear-backward": {"en": "The backward pass of a linear layer Y = XW + b",
                        "ja": "線形層 Y = XW + b の逆伝播"},
    "mlp-backward": {"en": "The backward pass of a two-layer perceptron",
                     "ja": "2層パーセプトロンの逆伝播"},
    "attention-backward": {"en": "The backward pass of attention",
                           "ja": "アテンションの逆伝播"},
}


def _products(kind: str, a=None, b=None) -> Spec:
    a = _shape(a or ((2, 3) if kind == "combine" else (2, 2)), "a")
    default_b = (a[1], 2) if kind == "combine" else (3, a[1])
    b = _shape(b or default_b, "b")
    if kind == "combine" and a[1] != b[0]:
        raise ShapeError(f"AB needs as many columns of A as rows of B; got A {a[0]}x{a[1]} "
                         f"and B {b[0]}x{b[1]}")
    if kind == "match" and a[1] != b[1]:
        raise ShapeError(f"AB^T needs as many columns of A as of B; got A {a[0]}x{a[1]} "
                         f"and B {b[0]}x{b[1]}")
    formula = "C = AB" if kind == "combine" else "C = AB^T"
    rule = "AB" if kind == "combine" else "AB^{T}"
    return Spec(kind, (("a", a), ("b", b)), _TITLES[kind], formula, {"A": a, "B": b},
                ("A", "B"), (Step("C", _expr(formula), rule),),
                {"A": (-3, 3), "B": (-3, 3)}, given=("A", "B"), explain_formula=formula)


def _attention(m=2, n=3, d=2, d_v=None, causal=False) -> Spec:
    m, n, d = _size(m, "m"), _size(n, "n"), _size(d, "d")
    d_v = _size(d_v if d_v is not None else d, "d_v")
    if causal and m > n:
        raise ShapeError(f"causal attention needs m <= n (a query with no key); got m = {m}, "
                         f"n = {n}")
    sizes = {"m": m, "n": n, "d": d}
    mask = " + M" if causal else ""
    steps = (
        Step("S", _expr("S = QK^T"), "QK^{T}"),
        Step("P", _sized(_expr(rf"P = \operatorname{{softmax}}(S/\sqrt{{d}}{mask})"), sizes),
             rf"\operatorname{{softmax}}\left(\frac{{S}}{{\sqrt{{{d}}}}}{mask}\right)",
             softmax=True),
        Step("O", _expr("O = PV"), "PV", softmax=True),
    )
    formula = rf"O = \operatorname{{softmax}}\left(\frac{{QK^{{T}}}}{{\sqrt{{d}}}}{mask}\right)V"
    return Spec("attention", (("m", m), ("n", n), ("d", d), ("d_v", d_v), ("causal", causal)),
                _TITLES["causal" if causal else "attention"], formula,
                {"Q": (m, d), "K": (n, d), "V": (n, d_v)}, ("Q", "K", "V"), steps,
                {"Q": (-1, 2), "K": (-1, 2), "V": (-2, 3)}, given=("Q", "K", "V"),
                causal=causal, sizes=sizes,
                explain_formula=rf"S = QK^T; P = \operatorname{{softmax}}(S/\sqrt{{d}}{mask}); "
                                r"O = PV")


def _ones(rows: int, cols: int) -> Callable:
    return lambda values: sympy.Matrix.ones(rows, cols)


def _linear_backward(m=2, n_in=2, n_out=2) -> Spec:
    m, l, n = _size(m, "m"), _size(n_in, "n_in"), _size(n_out, "n_out")
    steps = (
        Step(r"\bar{W}", _expr(r"\bar{W} = X^T \bar{Y}"), r"X^{T}\bar{Y}", gradient=True),
        Step(r"\bar{b}", _expr(r"\bar{b} = J \bar{Y}"), r"\sum_{i=1}^{%d} \bar{y}_{i}" % m,
             gradient=True),
        Step(r"\bar{X}", _expr(r"\bar{X} = \bar{Y} W^T"), r"\bar{Y} W^{T}", gradient=True),
    )
    shapes = {"X": (m, l), "W": (l, n), "b": (1, n), r"\bar{Y}": (m, n), "J": (1, m)}
    return Spec("linear-backward", (("m", m), ("n_in", l), ("n_out", n)),
                _TITLES["linear-backward"], "Y = XW + b", shapes, ("X", "W", "b", r"\bar{Y}"),
                steps, {"X": (-2, 2), "W": (-2, 2), "b": (-2, 2), r"\bar{Y}": (-2, 2)},
                given=("X", "W", "b", r"\bar{Y}"), helpers={"J": _ones(1, m)},
                explain_formula="Y = XW + b", backward=True, upstream=r"\bar{Y}", bound=12)


def _relu_mask(values) -> sympy.Matrix:
    Z = values["Z"]
    return Z.applyfunc(lambda z: sympy.Integer(1) if z > 0 else sympy.Integer(0))


def _mlp_backward(m=2, n_in=2, hidden=2, n_out=2) -> Spec:
    m, l, h, n = (_size(m, "m"), _size(n_in, "n_in"), _size(hidden, "hidden"),
                  _size(n_out, "n_out"))
    steps = (
        Step(r"\bar{W}_2", _expr(r"\bar{W}_2 = H^T \bar{Y}"), r"H^{T}\bar{Y}", gradient=True),
        Step(r"\bar{H}", _expr(r"\bar{H} = \bar{Y} W_2^T"), r"\bar{Y} W_2^{T}", gradient=True),
        Step(r"\bar{Z}", _expr(r"\bar{Z} = \bar{H} \odot R"),
             r"\bar{H} \odot \operatorname{ReLU}'(Z)", gradient=True),
        Step(r"\bar{W}_1", _expr(r"\bar{W}_1 = X^T \bar{Z}"), r"X^{T}\bar{Z}", gradient=True),
        Step(r"\bar{b}_1", _expr(r"\bar{b}_1 = J \bar{Z}"), r"\sum_{i=1}^{%d} \bar{z}_{i}" % m,
             gradient=True),
    )
    shapes = {"X": (m, l), "W_1": (l, h), "b_1": (1, h), "W_2": (h, n), r"\bar{Y}": (m, n),
              "Z": (m, h), "H": (m, h), "R": (m, h), "J": (1, m)}
    computed = (("Z", _expr("Z = XW_1 + b_1"), "XW_1 + b_1"),
                ("H", _expr(r"H = \operatorname{ReLU}(Z)"), r"\operatorname{ReLU}(Z)"))
    return Spec("mlp-backward", (("m", m), ("n_in", l), ("hidden", h), ("n_out", n)),
                _TITLES["mlp-backward"],
                r"Z = XW_1 + b_1,\quad H = \operatorname{ReLU}(Z),\quad Y = HW_2", shapes,
                ("X", "W_1", "b_1", "W_2", r"\bar{Y}"), steps,
                {"X": (-2, 2), "W_1": (-2, 2), "b_1": (-1, 1), "W_2": (-2, 2),
                 r"\bar{Y}": (-2, 2)},
                given=("X", "W_1", "b_1", "W_2", "Z", "H", r"\bar{Y}"), computed_given=computed,
                helpers={"R": _relu_mask, "J": _ones(1, m)},
                explain_formula=r"Z = XW_1 + b_1; H = \operatorname{ReLU}(Z); Y = HW_2",
                backward=True, upstream=r"\bar{Y}", nonzero=("Z",), bound=16)


def _attention_backward(m=2, n=2, d=2) -> Spec:
    m, n, d = _size(m, "m"), _size(n, "n"), _size(d, "d")
    sizes = {"m": m, "n": n, "d": d}
    steps = (
        Step(r"\bar{V}", _expr(r"\bar{V} = P^T \bar{O}"), r"P^{T}\bar{O}", gradient=True,
             softmax=True),
        Step(r"\bar{P}", _expr(r"\bar{P} = \bar{O} V^T"), r"\bar{O} V^{T}", gradient=True),
        Step(r"\bar{S}", _sized(_expr(r"\bar{S} = (P \odot (\bar{P} - (P \odot \bar{P}) J))"
                                      r"/\sqrt{d}"), sizes),
             r"\frac{1}{\sqrt{%d}}\, P \odot \left(\bar{P} - \operatorname{rowsum}"
             r"(P \odot \bar{P})\right)" % d, gradient=True, softmax=True),
        Step(r"\bar{Q}", _expr(r"\bar{Q} = \bar{S} K"), r"\bar{S} K", gradient=True,
             softmax=True),
        Step(r"\bar{K}", _expr(r"\bar{K} = \bar{S}^T Q"), r"\bar{S}^{T} Q", gradient=True,
             softmax=True),
    )
    shapes = {"Q": (m, d), "K": (n, d), "V": (n, d), r"\bar{O}": (m, d), "S": (m, n),
              "P": (m, n), "J": (n, n)}
    computed = (("S", _expr("S = QK^T"), "QK^{T}"),
                ("P", _sized(_expr(r"P = \operatorname{softmax}(S/\sqrt{d})"), sizes),
                 r"\operatorname{softmax}\left(\frac{S}{\sqrt{%d}}\right)" % d))
    return Spec("attention-backward", (("m", m), ("n", n), ("d", d)),
                _TITLES["attention-backward"],
                r"S = QK^{T},\quad P = \operatorname{softmax}\left(\frac{S}{\sqrt{d}}\right),"
                r"\quad O = PV", shapes, ("Q", "K", "V", r"\bar{O}"), steps,
                {"Q": (-1, 1), "K": (-1, 1), "V": (-2, 2), r"\bar{O}": (-1, 1)},
                given=("Q", "K", "V", "S", "P", r"\bar{O}"), computed_given=computed,
                helpers={"J": _ones(n, n)}, sizes=sizes,
                explain_formula=r"O = \operatorname{softmax}(QK^T/\sqrt{d}) V",
                backward=True, upstream=r"\bar{O}", bound=12)


#: preset name -> (builder, its keyword options and their defaults)
PRESETS: dict = {
    "combine": (lambda **o: _products("combine", **o), {"a": None, "b": None}),
    "match": (lambda **o: _products("match", **o), {"a": None, "b": None}),
    "attention": (_attention, {"m": 2, "n": 3, "d": 2, "d_v": None, "causal": False}),
    "linear-backward": (_linear_backward, {"m": 2, "n_in": 2, "n_out": 2}),
    "mlp-backward": (_mlp_backward, {"m": 2, "n_in": 2, "hidden": 2, "n_out": 2}),
    "attention-backward": (_attention_backward, {"m": 2, "n": 2, "d": 2}),
}


def preset(name: str, **options) -> Spec:
    """The exercise of a preset (see the module documentation), with its sizes."""
    if name not in PRESETS:
        raise OptionError(f"unknown exercise {name!r}; the presets are {', '.join(PRESETS)}, "
                          f"or give a formula")
    builder, known = PRESETS[name]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(f"the {name} exercise takes {', '.join(known) or 'no options'}; "
                          f"not {', '.join(unknown)}")
    given = {k: v for k, v in options.items() if v is not None}
    return builder(**given)


def from_formula(formula: str, shapes: Mapping, *, causal: bool = False,
                 ranges: tuple = (-2, 3)) -> Spec:
    r"""An exercise from any formula :func:`symrow.explain` reads: each definition is a step.

    >>> spec = from_formula(r"H = \hat{A} X; C = H W", {r"\hat{A}": (3, 3), "X": (3, 2),
    ...                                                  "W": (2, 2)})
    >>> spec.names, spec.operands
    (['H', 'C'], ('\\hat{A}', 'X', 'W'))
    """
    if not isinstance(formula, str) or not formula.strip():
        raise OptionError("an exercise's formula is LaTeX text such as 'H = XW'")
    parsed = read_latex(formula, shapes=list(shapes or ()))
    defined = [name for name, _ in parsed.definitions]
    used: list[str] = []
    for _name, expr in parsed.definitions:
        for node in E.walk(expr):
            if isinstance(node, E.Name) and node.name not in defined and node.name not in used:
                used.append(node.name)
    if causal:
        used = [u for u in used if u != "M"]
    missing = [u for u in used if u not in (shapes or {})]
    if missing:
        raise OptionError(f"an exercise needs the shape of every operand: give "
                          f"{', '.join(missing)} (e.g. --shape {missing[0]}=2x3)")
    fixed = {u: _shape(tuple(shapes[u]), u) for u in used}
    sizes: dict = {}
    steps = []
    for name, expr in parsed.definitions:
        scalars = {str(s) for node in E.walk(expr) if isinstance(node, E.Scaled)
                   for s in (sympy.sympify(node.num).free_symbols |
                             sympy.sympify(node.den).free_symbols)}
        if scalars - set(sizes):
            sizes.update(_guess_sizes(scalars - set(sizes), fixed))
        sized = _sized(expr, sizes)
        softmax = any(isinstance(n, (E.Softmax, E.Apply)) for n in E.walk(expr)) or any(
            any(isinstance(n, E.Name) and n.name == s.name for n in E.walk(expr))
            for s in steps if s.softmax)
        steps.append(Step(name, sized, _rule_text(formula, name, expr), softmax=softmax))
    written = parsed.written or "C"
    if parsed.written is None:
        steps[-1] = dataclasses.replace(steps[-1], name=written)
    return Spec("formula", (("formula", formula), ("shapes", tuple(sorted(
        (k, tuple(v)) for k, v in fixed.items()))), ("causal", causal)),
        {"en": "Exercise: " + formula, "ja": "演習：" + formula}, formula, dict(fixed),
        tuple(used), tuple(steps), {u: ranges for u in used}, given=tuple(used),
        causal=causal, sizes=sizes, explain_formula=formula)


def _guess_sizes(symbols: set, shapes: Mapping) -> dict:
    """A size written in a scaling (``d``, ``d_k``) that no shape names: the width of the
    operands when they all agree, else an error."""
    widths = {shape[1] for shape in shapes.values()}
    if len(widths) == 1:
        return {s: widths.pop() for s in symbols}
    raise OptionError(f"the formula divides by {', '.join(sorted(symbols))}, which no shape "
                      f"fixes; write the number (\\sqrt{{2}})")


def _rule_text(formula: str, name: str, expr: E.Expr) -> str:
    """The right side of the definition of ``name`` as the formula wrote it."""
    parts = [p.strip() for p in formula.split(";")]
    for part in parts:
        left, sep, right = part.partition("=")
        if sep and step_key(left.strip()) == step_key(name):
            return right.strip()
    if len(parts) == 1 and "=" not in parts[0]:
        return parts[0]
    return E.text(expr)


def build(kind: str, options: Mapping) -> Spec:
    """The spec a manifest records: a preset's name and options, or ``formula``."""
    options = dict(options)
    if kind == "formula":
        shapes = {k: tuple(v) for k, v in options.get("shapes", ())}
        return from_formula(options["formula"], shapes, causal=bool(options.get("causal")))
    if kind == "attention" and "causal" not in options:
        options["causal"] = False
    return preset(kind, **options)
