"""Builders of display nodes: index runs, stacks and tables of vector sequences.

A general size ``m`` shows as ``1, 2, ..., m`` with the right ellipsis; a
concrete size shows every index.
"""

from __future__ import annotations

from typing import Callable

import sympy

from . import nodes as N
from .seq import VecSeq

__all__ = ["indices", "entries_bmat", "entry_of", "stack", "row_bmat", "row_bmat_of",
           "nested_rows", "table", "column", "items", "I", "J", "K", "T"]

#: the index letters of the article: i runs over points, j over the other operand
I, J, K, T = (sympy.Symbol(s) for s in "ijkt")


def indices(size) -> list:
    """``[1, 2, None, size]`` for a general size (None marks the ellipsis),
    ``[1, ..., size]`` for a concrete one."""
    if isinstance(size, int):
        return list(range(1, size + 1))
    return [1, 2, None, size]


def column(size, make: Callable, dots: str = "v") -> N.Bmat:
    """A one-column bmatrix ``[make(1); make(2); ...]``."""
    return N.Bmat([[N.Dots(dots) if i is None else make(i)] for i in indices(size)])


def items(size, make: Callable) -> N.Items:
    """A comma list ``make(1), make(2), \\dots, make(size)``."""
    return N.Items([N.Dots("l") if i is None else make(i) for i in indices(size)])


def row_bmat(size, make: Callable) -> N.Bmat:
    """A one-row bmatrix ``[make(1) make(2) \\cdots make(size)]``."""
    return N.Bmat([[N.Dots("c") if j is None else make(j) for j in indices(size)]])


def table(rows, cols, make: Callable) -> N.Bmat:
    """A rows x cols bmatrix of ``make(i, j)``, with ⋯ ⋮ ⋱ where sizes are general."""
    out = []
    for i in indices(rows):
        if i is None:
            out.append([N.Dots("d" if j is None else "v") for j in indices(cols)])
        else:
            out.append([N.Dots("c") if j is None else make(i, j) for j in indices(cols)])
    return N.Bmat(out)


def entries_bmat(seq: VecSeq) -> N.Bmat:
    """``[a_{11} ... a_{1l}; ...]``: the sequence entry by entry."""
    return table(seq.rows, seq.cols, lambda i, j: entry_of(seq, i, j))


def stack(seq: VecSeq) -> N.Bmat:
    """``[a_1; a_2; ...; a_m]``: the sequence as a stack of row vectors."""
    return column(seq.rows, seq.vector)


def entry_of(seq: VecSeq, i, j):
    """Entry (i, j): its value for concrete indices, else its symbol."""
    if seq.concrete and isinstance(i, int) and isinstance(j, int):
        return seq.entry(i, j)
    return seq.symbol(i, j)


def row_bmat_of(seq: VecSeq, i) -> N.Bmat:
    """``[a_{i1} a_{i2} ... a_{il}]``: row i in components."""
    return row_bmat(seq.cols, lambda j: entry_of(seq, i, j))


def nested_rows(seq: VecSeq) -> N.Bmat:
    """``[[a_{11} ... a_{1l}]; ...]``: the stack with every row in components."""
    return column(seq.rows, lambda i: row_bmat_of(seq, i))
