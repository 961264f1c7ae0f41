"""Readings that arrange points: operands, transposes and matrices side by side.

* :class:`Operand`: a matrix given by name, read as a vector sequence;
* :class:`Transpose`: ``(AB)^T`` and other transposed results: the points
  become the coordinates;
* :class:`Concat`: matrices side by side, ``[A_1 A_2 ...]``: each point of
  the result strings together the points of the blocks (multi-head
  attention's Concat);
* :class:`Block`: some columns of a gradient (the block of a Concat that one
  of its matrices filled), made by the backward pass.
"""

from __future__ import annotations

import sympy

from ... import nodes as N
from ...build import table
from ...formula import expr as E
from ...reader.notation import Function
from ...steps import Step
from .base import GIVEN, MIXING, ROWWISE, Ctx, Example, I, J, Reading, register, variant

__all__ = ["Operand", "Transpose", "Concat", "Block"]


@register
class Operand(Reading):
    """A matrix given by name: its entries are its own symbols (or its given values)."""

    reading = "operand"
    kind = GIVEN
    always_named = True
    pointwise = False
    given = True
    __slots__ = ()

    def value(self, get, plan):
        return sympy.ImmutableMatrix(self.seq.matrix)

    def general(self, get, plan):
        return sympy.MatrixSymbol(self.seq.name, self.rows, self.cols)

    def as_expr(self, args):
        return E.Name(self.name)



@register
class Transpose(Reading):
    """``X^T``: a transposed result."""

    reading = "transpose"
    kind = MIXING
    always_named = True
    pointwise = False
    example = Example("(XW)^T", {"X": (2, 2), "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return sympy.Matrix(args[0].T)

    def general(self, get, plan):
        return get(self.inputs[0]).T

    def definition(self, parts):
        return N.Transpose(parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (inner,) = self.inputs
        C = self.seq
        XT = N.Transpose(inner.whole())
        if ctx.concrete:
            display = N.Chain([C, XT, table(self.rows, self.cols,
                                            lambda r, c: inner.entry(c, r))])
        else:
            display = N.Chain([C.symbol(I, J), inner.entry_symbol(J, I)])
        return [ctx.heading("transpose", XT=XT, part=part),
                ctx.step("transpose", {"C": C, "XT": XT, "X": inner.whole(),
                                       "c_i": C.vector(I), "variant": variant(ctx)},
                         display, part=part)]

    def as_expr(self, args):
        return E.Transpose(args[0])

    def backward(self, g, bw):
        """C = Xᵀ: X̄ = C̄ᵀ."""
        return [(0, E.Transpose(g))]



@register
class Concat(Reading):
    """Matrices side by side: row i of the result is the rows i of the blocks, one after
    another."""

    reading = "concat"
    kind = ROWWISE
    always_named = True
    pointwise = False
    notation = Function("concat", "concat", r"\operatorname{Concat}", "Concat")
    example = Example(r"\mathrm{Concat}(H_1, H_2) W", {"H_1": (2, 1), "H_2": (2, 1),
                                                     "W": (2, 1)})
    __slots__ = ()

    @classmethod
    def evaluate(cls, args):
        return sympy.Matrix.hstack(*args)

    def general(self, get, plan):
        return sympy.BlockMatrix([[get(t) for t in self.inputs]])

    def definition(self, parts):
        return N.Bmat([parts])

    def row_formula(self):
        return N.Bmat([[t.row(I) for t in self.inputs]])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        C = self.seq
        blocks = N.Bmat([[t.whole() for t in self.inputs]])
        display = [N.Chain([C, blocks]), N.Chain([C.vector(I), self.row_formula()])]
        if ctx.concrete:
            display.append(N.Chain([C, table(self.rows, self.cols, self._entry)]))
        return [ctx.heading("concat", blocks=blocks, part=part),
                ctx.step("concat", {"C": C, "blocks": blocks, "c_i": C.vector(I),
                                    "count": len(self.inputs), "variant": variant(ctx)},
                         N.Group(display), part=part)]

    def _entry(self, r, c):
        for t in self.inputs:
            if c <= t.cols:
                return t.entry(r, c)
            c -= t.cols
        raise IndexError(c)

    def as_expr(self, args):
        return E.Concat(tuple(args))

    def backward(self, g, bw):
        """C = [A_1 ... A_k]: each block's gradient is its columns of C̄."""
        out, start = [], 0
        for k, t in enumerate(self.inputs):
            out.append((k, E.Call("block", (g,), params=(("start", start),
                                                          ("width", t.cols)))))
            start = start + t.cols
        return out


@register
class Block(Reading):
    """Columns ``start + 1`` to ``start + width`` of a gradient: the block that belongs
    to one of the matrices placed side by side."""

    reading = "block"
    kind = ROWWISE
    backward_only = True
    notation = Function("block", "block", r"\operatorname{block}", "block")
    example = Concat.example
    __slots__ = ("start", "width")

    def params(self) -> dict:
        return {"start": self.start, "width": self.width}

    @classmethod
    def shape_rule(cls, sizes, expr, shapes):
        return shapes[0][0], sizes.new(dict(expr.params)["width"])

    @classmethod
    def evaluate(cls, args, start, width):
        return args[0][:, start:start + width]

    def compose(self, part):
        return N.Sub(N.Paren(part(self.inputs[0])), N.Label(
            r":,\,%s:%s" % (_tex(self.start + 1), _tex(self.start + self.width)),
            f":,{self.start + 1}:{self.start + self.width}"))

    def entry(self, i, j):
        if self.seq is not None:
            return super().entry(i, j)
        return self.inputs[0].entry(i, self.start + j)

    def entry_symbol(self, i, j):
        if self.seq is not None:
            return self.seq.symbol(i, j)
        return self.inputs[0].entry_symbol(i, self.start + j)

    def row(self, i):
        if self.seq is not None:
            return self.seq.vector(i)
        return N.Sub(N.Paren(self.inputs[0].whole()), N.Label(
            r"%s,\,%s:%s" % (_tex(i), _tex(self.start + 1), _tex(self.start + self.width)),
            f"{i},{self.start + 1}:{self.start + self.width}"))

    def definition(self, parts):
        return self.compose(lambda n: parts[0])

    def steps(self, ctx: Ctx, part: str) -> list[Step]:
        (G,) = self.inputs
        shown = N.Chain(([self.seq] if self.named else []) + [
            self.compose(lambda n: n.whole())])
        return [ctx.step("block", {"G": G.whole(), "first": self.start + 1,
                                   "last": self.start + self.width}, shown, part=part)]


def _tex(x):
    return sympy.latex(x) if isinstance(x, sympy.Basic) else str(x)
