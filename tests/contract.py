"""The contract every reading keeps, checked over the registry (see test_contract.py).

:func:`problems` lists what a reading class lacks or gets wrong, as sentences;
an empty list means it keeps the contract:

* its pieces: a kind, a pure evaluation, a backward pass and the words of its
  rule, its entry in the table of notation (when a function names it), an
  example formula, and a numpy reference for that example (:data:`REFERENCES`,
  keyed by the example's formula);
* its example, derived at the example's concrete shapes and at general sizes,
  forwards and backwards, rendered in every language and format, with no
  ``None`` in a narration and no LaTeX in the text;
* the forward value against the numpy reference, and every gradient of the
  backward pass against central finite differences of that reference;
* the display of one of its entries, right for its kind: ``f(x_11)`` for an
  element-wise reading, a function of the whole row ``f(x_1)`` for a row-wise one
  (never ``LayerNorm(x_11)``), a sum of products for one that mixes points, 0 off
  the diagonal of a diagonal one.

The derivations of one example are made once (:func:`derived`), and shared by
the readings whose example it is.
"""

from __future__ import annotations

import functools
import re
from typing import Callable

import numpy as np
import sympy

import symrow
from symrow.derive.readings import (ELEMENTWISE, DIAGONAL, ENTRY_FUNCTIONS, GIVEN, KINDS,
                                    MIXING, ROWWISE, Example, Reading)
from symrow.derive.readings.layers import EPSILON
from symrow.narrate import LANGUAGES, segments
from symrow.reader.notation import lookup_function
from symrow.render.text import text as as_text

EPS = 1e-5     # the ε of LayerNorm in the numpy references
H = 1e-6       # the step of the finite differences
#: LaTeX in text output: a command, or a braced sub- or superscript
RAW_LATEX = re.compile(r"\\[A-Za-z]+|[_^]\{")


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm(x):
    mu = x.mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(axis=1, keepdims=True) + EPS)


def _diag(a):
    return np.diag(np.diag(a))


def _erf(x):
    from math import erf
    return np.vectorize(erf)(x)


#: each example's formula -> its value in numpy, from the operands' arrays (by name)
REFERENCES: dict[str, Callable] = {
    "XW": lambda a: a["X"] @ a["W"],
    "XW^T": lambda a: a["X"] @ a["W"].T,
    "X^T W": lambda a: a["X"].T @ a["W"],
    "(XW)^T": lambda a: (a["X"] @ a["W"]).T,
    r"\frac{QK^T}{\sqrt{d}}": lambda a: a["Q"] @ a["K"].T / np.sqrt(a["Q"].shape[1]),
    r"\mathrm{softmax}(QK^T + M)V": lambda a: _softmax(
        a["Q"] @ a["K"].T + np.triu(np.full((len(a["Q"]), len(a["K"])), -np.inf), 1)) @ a["V"],
    r"\mathrm{softmax}(QK^T/\sqrt{d})V": lambda a: _softmax(
        a["Q"] @ a["K"].T / np.sqrt(a["Q"].shape[1])) @ a["V"],
    r"\tanh(X) W": lambda a: np.tanh(a["X"]) @ a["W"],
    "XW + YV": lambda a: a["X"] @ a["W"] + a["Y"] @ a["V"],
    r"\mathrm{Concat}(H_1, H_2) W": lambda a: np.hstack([a["H_1"], a["H_2"]]) @ a["W"],
    "XW + b": lambda a: a["X"] @ a["W"] + a["b"],
    r"(X \odot Y) W": lambda a: (a["X"] * a["Y"]) @ a["W"],
    r"\mathrm{LayerNorm}(X) W": lambda a: _layernorm(a["X"]) @ a["W"],
    "(A + I) X": lambda a: (a["A"] + np.eye(len(a["A"]))) @ a["X"],
    r"X\mathbf{1}": lambda a: a["X"] @ np.ones((a["X"].shape[1], 1)),
    "DX": lambda a: _diag(a["D"]) @ a["X"],
    r"X \Lambda": lambda a: a["X"] @ _diag(a[r"\Lambda"]),
    "D^{-1/2} X": lambda a: np.diag(np.diag(a["D"]) ** -0.5) @ a["X"],
    r"\tilde{D}^{-1/2}\tilde{A}\tilde{D}^{-1/2} X": lambda a: (
        np.diag(a[r"\tilde{A}"].sum(axis=1) ** -0.5) @ a[r"\tilde{A}"]
        @ np.diag(a[r"\tilde{A}"].sum(axis=1) ** -0.5) @ a["X"]),
    r"\mathrm{diag}(\mathbf{s}) X": lambda a: np.diag(a["s"][0]) @ a["X"],
    r"\mathrm{normalize}(X) W": lambda a: (
        a["X"] / np.linalg.norm(a["X"], axis=1, keepdims=True)) @ a["W"],
    r"\exp(D) X": lambda a: np.diag(np.exp(np.diag(a["D"]))) @ a["X"],
}

#: each function applied entry by entry (its key) -> its value in numpy
ENTRY_REFERENCES: dict[str, Callable] = {
    "exp": np.exp,
    "relu": lambda x: np.maximum(0, x),
    "sigma": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh,
    "gelu": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
    "elu": lambda x: np.where(x > 0, x, np.exp(np.minimum(x, 0)) - 1),
    "log": np.log,          # the operands' numbers are positive (0.5 to 1.5)
    # at the parameter ENTRY_PARAMETER (a function with one: LeakyReLU's slope)
    "leakyrelu": lambda x: np.where(x > 0, x, 0.3 * x),
}
#: the parameter written for a function that has one, \operatorname{leakyrelu}_{0.3}(X)
ENTRY_PARAMETER = "0.3"

FORMATS = ("to_text", "to_latex", "to_markdown")


def _overrides(cls, name: str) -> bool:
    mine = getattr(cls, name)
    base = getattr(Reading, name)
    return getattr(mine, "__func__", mine) is not getattr(base, "__func__", base)


def pieces(cls) -> list[str]:
    """What the class lacks, without deriving anything."""
    out = []
    if cls.kind not in KINDS:
        out.append(f"its kind is {cls.kind!r}, not one of {', '.join(KINDS)}")
    if cls.kind == GIVEN:
        return out
    if not _overrides(cls, "evaluate"):
        out.append("it has no evaluate (its value as a pure function of matrices)")
    if not cls.backward_only:
        if not _overrides(cls, "backward"):
            out.append("it has no backward (its backward pass)")
        if not _overrides(cls, "as_expr") and cls.notation is None:
            out.append("it has no as_expr (its formula, for its backward pass)")
        for code, language in LANGUAGES.items():
            if f"backward_rule.{cls.reading}" not in language.templates:
                out.append(f"it has no words for its backward rule in {code} "
                           f"(backward_rule.{cls.reading})")
    if cls.notation is not None:
        fn = lookup_function(cls.notation.key)
        if fn is None or fn.reading != cls.reading:
            out.append(f"its function {cls.notation.key!r} is not in the table of notation")
        elif fn.shape is None:
            out.append("its function has no rule of shapes")
    if cls.words:
        keys = {code: set(words) for code, words in cls.words.items()}
        for code in LANGUAGES:
            if keys.get(code) != set().union(*keys.values()):
                out.append(f"its own words in {code} are not those of the other languages")
    if cls.example is None:
        out.append("it has no example formula")
    elif cls.example.formula not in REFERENCES:
        out.append(f"its example {cls.example.formula!r} has no numpy reference")
    return out


@functools.lru_cache(maxsize=None)
def derived(formula: str, shapes: tuple, options: tuple):
    """The example's derivations: explain and backward, concrete and general."""
    shapes, options = dict(shapes), dict(options)
    return {"concrete": symrow.explain(formula, shapes, **options),
            "general": symrow.explain(formula, **options),
            "backward": symrow.backward(formula, shapes, **options),
            "backward-general": symrow.backward(formula, general=True, **options)}


def derivations(example) -> dict:
    return derived(example.formula, tuple(example.shapes.items()),
                   tuple((k, tuple(v) if isinstance(v, list) else v)
                         for k, v in example.options.items()))


@functools.lru_cache(maxsize=None)
def _narrations(key: tuple) -> list[str]:
    """Every narration of one derivation (by the key of :func:`derived` and its kind), in
    every language and format.  The displays of a text rendering are the same in every
    language, so the text is rendered whole in the first language and, in the others,
    sentence by sentence with their inline math (the costly part of a text rendering is
    its displays)."""
    d = derived(*key[:3])[key[3]]
    out = []
    first = next(iter(LANGUAGES))
    for code in LANGUAGES:
        for fmt in FORMATS:
            try:
                if fmt == "to_text" and code != first:
                    rendered = "\n".join(_sentences(d, code))
                else:
                    rendered = getattr(d, fmt)(code, expand="all")
            except Exception as e:   # a missing sentence is a KeyError
                out.append(f"{key[3]} {code} {fmt}: {type(e).__name__}: {e}")
                continue
            if "None" in rendered:
                out.append(f"{key[3]} {code} {fmt}: a None in the narration")
            if fmt == "to_text":
                leak = RAW_LATEX.search(rendered)
                if leak:
                    near = rendered[max(0, leak.start() - 30):leak.end() + 10]
                    out.append(f"{key[3]} {code} text: LaTeX in the text: {near!r}")
    return out


def _sentences(d, code: str):
    """The sentences of a derivation in ``code``, their math as text."""
    for step in d.steps:
        yield "".join(value if kind == "text" else as_text(value)
                      for kind, value in segments(step, code))


def _key(example):
    return (example.formula, tuple(example.shapes.items()),
            tuple((k, tuple(v) if isinstance(v, list) else v)
                  for k, v in example.options.items()))


def _arrays(d, rng) -> dict:
    out = {}
    diagonal = set(d.options.get("diagonal", ()))
    for name, seq in d.operands.items():
        value = rng.uniform(0.5, 1.5, size=seq.shape)
        out[name] = np.diag(np.diag(value)) if name in diagonal else value
    return out


def _subs(d, arrays, ties) -> dict:
    subs = {EPSILON: sympy.Float(EPS, 30)}
    for name, seq in d.operands.items():
        for (i, j), sym in np.ndenumerate(np.array(seq.matrix, dtype=object)):
            if getattr(sym, "is_Symbol", False):
                subs[sym] = sympy.Float(arrays[name][i, j], 30)
    subs.update(ties)
    return subs


def _numbers(matrix, subs) -> np.ndarray:
    return np.array(sympy.Matrix(matrix).xreplace(subs).evalf(20).tolist(), dtype=float)


def values(example, reference: Callable) -> list[str]:
    """The forward value against numpy, every gradient against finite differences."""
    ds = derivations(example)
    out = []
    rng = np.random.default_rng(7)
    d = ds["concrete"]
    arrays = _arrays(d, rng)
    ties = dict(d.plan.ties)
    got = _numbers(d.result, _subs(d, arrays, ties))
    want = reference(arrays)
    if not np.allclose(got, want, rtol=1e-8, atol=1e-10):
        out.append(f"its value differs from numpy's: {got.tolist()} != {want.tolist()}")
    b = ds["backward"]
    upstream = rng.uniform(-1, 1, size=b.upstream.shape)
    subs = _subs(b, arrays, ties)
    subs.update({b.upstream[i, j]: sympy.Float(upstream[i, j], 30)
                 for i, j in np.ndindex(upstream.shape)})
    diagonal = set(example.options.get("diagonal", ()))
    for name, grad in b.gradients.items():
        got = _numbers(grad, subs)
        want = np.zeros_like(arrays[name])
        for idx in np.ndindex(want.shape):
            if name in diagonal and idx[0] != idx[1]:
                continue
            plus = {k: v.copy() for k, v in arrays.items()}
            minus = {k: v.copy() for k, v in arrays.items()}
            plus[name][idx] += H
            minus[name][idx] -= H
            want[idx] = ((reference(plus) - reference(minus)) * upstream).sum() / (2 * H)
        if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            out.append(f"the gradient of {name} differs from finite differences: "
                       f"{got.tolist()} != {want.tolist()}")
    return out


def entry_display(node) -> list[str]:
    """The display of an entry of ``node``, shown unnamed, right for its kind."""
    if node.kind == GIVEN or not node.inputs:
        return []
    cls = type(node)
    own = {k for c in cls.__mro__ if c is not Reading and issubclass(c, Reading)
           for k in c.__dict__.get("__slots__", ())}
    params = {k: getattr(node, k) for k in own if hasattr(node, k)}
    try:
        bare = cls(node.inputs, node.rows, node.cols, node.expr, seq=None, **params)
        shown = as_text(bare.entry(1, 1))
    except AssertionError:
        if cls.always_named:   # always shown by name: its entries are its own symbols
            return []
        return [f"an unnamed {cls.reading} has no display of its entries"]
    first = node.inputs[0]
    entry = as_text(first.entry(1, 1))
    if node.kind == ELEMENTWISE and entry not in shown:
        return [f"an entry of an element-wise reading shows {shown!r}, not {entry!r}"]
    if node.kind == ROWWISE:
        try:
            by_entry = as_text(bare.compose(lambda n: n.entry(1, 1)))
        except (AssertionError, AttributeError, TypeError):
            by_entry = None
        if shown == by_entry:
            return [f"an entry of a row-wise reading shows {shown!r}: it must be a function "
                    f"of the row {as_text(first.row(1))!r}, not of the entry {entry!r}"]
    if node.kind == MIXING and len(re.findall(r"[+·⋅]|Σ|∑|⋯", shown)) == 0:
        return [f"an entry of a reading that mixes points shows {shown!r}, not a sum"]
    if node.kind == DIAGONAL and isinstance(node.rows, int) and node.rows > 1 and \
            bare.entry(1, 2) != 0:
        return [f"entry (1, 2) of a diagonal reading shows {as_text(bare.entry(1, 2))!r}"]
    return []


def problems(cls) -> list[str]:
    """Everything the reading class lacks or gets wrong (empty: it keeps the contract)."""
    out = pieces(cls)
    if cls.kind == GIVEN and cls.example is None:
        return out
    if out:
        return out
    example = cls.example
    try:
        ds = derivations(example)
    except Exception as e:
        return [f"its example {example.formula!r} cannot be derived: "
                f"{type(e).__name__}: {e}"]
    forward = [n for n in ds["concrete"].plan.nodes if type(n) is cls]
    backward = [n for n in ds["backward"].plan.nodes if type(n) is cls]
    if not (backward if cls.backward_only else forward):
        where = "backward pass" if cls.backward_only else "plan"
        return [f"its example {example.formula!r} has no {cls.reading} in its {where}"]
    key = _key(example)
    for kind in ds:
        out += _narrations(key + (kind,))
    out += _values(example)
    for node in forward + backward:
        out += entry_display(node)
    return list(dict.fromkeys(out))


_VALUES: dict = {}


def forget() -> None:
    """Forget the derivations and checks made so far (after a reading is unregistered)."""
    derived.cache_clear()
    _narrations.cache_clear()
    _VALUES.clear()


def _values(example) -> list[str]:
    """:func:`values` of an example, checked once for all the readings that share it."""
    key = _key(example)
    if key not in _VALUES:
        _VALUES[key] = values(example, REFERENCES[example.formula])
    return _VALUES[key]


def entry_function_problems(key: str) -> list[str]:
    """A function applied entry by entry: its value and derivative, rendered."""
    fn = ENTRY_FUNCTIONS[key]
    if key not in ENTRY_REFERENCES:
        return [f"{key} has no numpy reference"]
    if fn.value is None:
        return [f"{key} has no value"]
    f = ENTRY_REFERENCES[key]
    tex = r"\operatorname{%s}(X) W" % key if key not in ("exp", "tanh", "sigma") else \
        r"\%s(X) W" % key
    if fn.param is not None:
        tex = r"\operatorname{%s}_{%s}(X) W" % (key, ENTRY_PARAMETER)
    example = Example(tex, {"X": (2, 3), "W": (3, 2)})
    REFERENCES.setdefault(tex, lambda a: f(a["X"]) @ a["W"])
    out = values(example, REFERENCES[tex])
    out += _narrations(_key(example) + ("concrete",))
    return out
