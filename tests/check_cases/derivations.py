"""The derivations the checker tests check against.

``attention`` uses :func:`symrow.attention` when it is available, and the
stand-in built from the published contract otherwise, so the checker's tests
run while attention is still being built.
"""

from __future__ import annotations

import functools

import symrow

@functools.lru_cache(maxsize=None)
def attention(m: int, n: int, d: int, causal: bool = False):
    return symrow.attention(m, n, d, causal=causal)


@functools.lru_cache(maxsize=None)
def combine(a=(2, 3), b=(3, 2)):
    return symrow.combine(symrow.vecseq("A", *a), symrow.vecseq("B", *b))


@functools.lru_cache(maxsize=None)
def match(a=(2, 3), b=(2, 3)):
    return symrow.match(symrow.vecseq("A", *a), symrow.vecseq("B", *b))


@functools.lru_cache(maxsize=None)
def linear(x=(2, 2), w=(2, 2)):
    from symrow.derive.presets import REGISTRY
    return REGISTRY["linear"].build(shapes={"X": x, "W": w})


@functools.lru_cache(maxsize=None)
def general(kind: str):
    if kind == "combine":
        return symrow.combine(symrow.vecseq("A", "m", "ell"), symrow.vecseq("B", "ell", "n"))
    return symrow.attention("m", "n", "d")


def against(key: str):
    """A derivation by a short key: comb23, match23, att222, att222c, att232c, ..."""
    table = {
        "comb23": lambda: combine(),
        "comb22": lambda: combine((2, 2), (2, 2)),
        "match23": lambda: match(),
        "match22": lambda: match((2, 2), (2, 2)),
        "att222": lambda: attention(2, 2, 2),
        "att222c": lambda: attention(2, 2, 2, True),
        "att232c": lambda: attention(2, 3, 2, True),
        "att444": lambda: attention(4, 4, 4),
        "lin22": lambda: linear(),
        "combgen": lambda: general("combine"),
    }
    return table[key]()
