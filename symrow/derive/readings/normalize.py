"""Row-wise L2 normalisation: each point divided by its length, onto the unit sphere.

``normalize(X)`` divides every point x_i by its Euclidean length: ``y_i = x_i /
‖x_i‖`` with ``‖x_i‖ = sqrt(Σ_j x_ij²)``.  Every point keeps its direction and
gets length 1, and no point sees another: the reading is row-wise, as
LayerNorm is (CLIP normalises its image and text embeddings this way before it
matches them, so that the match is a cosine similarity).  symrow divides by
the length itself, with no ε (``torch.nn.functional.normalize`` divides by
``max(‖x_i‖, ε)``, the same wherever the length is not tiny).

Backwards, each point on its own (:class:`NormalizeVJP`): the part of the
gradient along y_i is taken out, and what is left is divided by the length,
``x̄_i = (ȳ_i − (ȳ_i · y_i) y_i) / ‖x_i‖``.

>>> import symrow
>>> d = symrow.explain(r"\\mathrm{normalize}(X) W", {"X": (2, 2), "W": (2, 1)},
...                    values={"X": [[3, 4], [0, 2]], "W": [[1], [1]]})
>>> d.result
Matrix([
[7/5],
[  1]])
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...formula import expr as E
from ...reader.notation import Function
from ...steps import Step
from .base import ROWWISE, Ctx, Example, I, J, Reading, register

__all__ = ["Normalize", "NormalizeVJP"]


def _length(x, i):
    """‖x_i‖ of row i of a matrix."""
    return sympy.sqrt(sympy.Add(*[x[i, k] ** 2 for k in range(x.cols)]))


def _length_display(X: Reading, i=I):
    """``sqrt(Σ_j x_ij²)``: the length of point i, as a display."""
    return N.Sqrt(N.SumOver(N.Power(X.entry_symbol(i, J), 2), J, 1, X.cols))


@register
class Normalize(Reading):
    """``normalize(X)``: each point divided by its length."""

    reading = "normalize"
    kind = ROWWISE
    notation = Function("normalize", "normalize", r"\operatorname{normalize}", "normalize")
    spellings = ("normalise", "l2normalize", "l2normalise")
    example = Example(r"\mathrm{normalize}(X) W", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        x = args[0]
        lengths = [_length(x, i) for i in range(x.rows)]
        return sympy.Matrix(x.rows, x.cols, lambda i, j: x[i, j] / lengths[i])

    def compose(self, part):
        return self.display_call([part(self.inputs[0])])

    def definition(self, parts):
        return self.display_call(parts)

    def row_formula(self):
        return self.display_call([self.inputs[0].row(I)])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (X,) = self.inputs
        x_i = X.row(I)
        head = self.seq.vector(I) if self.named else self.row_formula()
        shown = N.Chain([head, N.Frac(x_i, _length_display(X))])
        params = {"Y": self.whole(), "X": X.whole(), "x_i": x_i, "d": X.cols, "i": I}
        return [ctx.heading("normalize", Y=self.whole(), part=part),
                ctx.step("normalize", params, shown, part=part),
                ctx.step("normalize_read", params, part=part)]

    def backward(self, g, bw):
        """Each point on its own (see :class:`NormalizeVJP`)."""
        return [(0, E.Call("normalize_vjp", (bw.ref(self.inputs[0]), g)))]


@register
class NormalizeVJP(Reading):
    """``normalize'(X, Ȳ)``: the gradient of the points that were normalised, each on its
    own: ``x̄_i = (ȳ_i − (ȳ_i · y_i) y_i) / ‖x_i‖`` with ``y_i = x_i / ‖x_i‖``."""

    reading = "normalize_vjp"
    kind = ROWWISE
    backward_only = True
    notation = Function("normalize_vjp", "normalize_vjp", r"\operatorname{normalize}'",
                        "normalize′")
    example = Normalize.example
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        x, g = args
        out = []
        for i in range(x.rows):
            length = _length(x, i)
            y = [x[i, j] / length for j in range(x.cols)]
            along = sympy.Add(*[g[i, j] * y[j] for j in range(x.cols)])
            out.append([(g[i, j] - along * y[j]) / length for j in range(x.cols)])
        return sympy.Matrix(out)

    def compose(self, part):
        return self.display_call([part(t) for t in self.inputs])

    def definition(self, parts):
        return self.display_call(parts)

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        X, G = self.inputs
        y_i = N.Label(r"\hat{\boldsymbol{x}}_{i}", "x̂ᵢ")
        g_i = G.row(I)
        head = self.row(I) if self.named else N.Sub(N.Paren(self.whole()), I)
        shown = N.Group([
            N.Chain([y_i, N.Frac(X.row(I), _length_display(X))]),
            N.Chain([head, N.Frac(N.OSum([g_i, N.Neg(N.OMul([N.Paren(N.Dot(g_i, y_i)), y_i]))]),
                                  _length_display(X))]),
        ])
        return [ctx.step("normalize_vjp", {"X": X.whole(), "G": G.whole(), "x_i": X.row(I),
                                           "g_i": g_i, "y_i": y_i}, shown, part=part)]
