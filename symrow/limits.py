"""Size limits, documented and overridable.

symrow refuses work that would take unreasonably long or produce output
nobody can read, *before* it starts.  The defaults:

* ``max_dim = 64``: the largest concrete size of a vector sequence
  (rows or columns).
* ``max_terms = 2_000_000``: the largest number of scalar products a
  concrete attention derivation writes out, per head: m·n·d for the
  scores, plus d_v·d·Σ_i c_i(c_i + 1) for the substituted output entries
  (c_i is the number of keys query i sees: n without a mask), plus the
  projections' combines; see
  :func:`symrow.derive.explain.count_terms`.  m = n = d = 16
  writes about 1.1 million, 17 still fits.
* ``check_timeout = 10.0``: seconds of CPU time the checker may spend on one input
  (its wall time is capped at three times that, so a loaded machine does not cut
  a check short and nothing waits for ever).

Override them for a block of code with :func:`limits`, which is a context
manager and safe across threads and asyncio tasks:

>>> import symrow
>>> with symrow.limits(max_dim=100):
...     symrow.vecseq("A", 80, 2).shape
(80, 2)
>>> symrow.get_limits().max_dim
64

Most functions also take the limit as a keyword, e.g.
``symrow.vecseq("A", 80, 2, max_dim=100)``.  On the command line the flags
are ``--max-dim``, ``--max-terms`` and (for ``check``) ``--timeout``; a
:class:`~symrow.errors.LimitError` names the limit it hit in ``.limit``.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
from typing import Iterator

__all__ = ["Limits", "limits", "get_limits"]


@dataclasses.dataclass(frozen=True)
class Limits:
    """The current limits; see the module documentation."""

    max_dim: int = 64
    max_terms: int = 2_000_000
    check_timeout: float = 10.0

    def merge(self, **changes) -> "Limits":
        """A copy with the given fields replaced; ``None`` keeps a field."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            from .errors import OptionError
            raise OptionError(f"unknown limit(s): {', '.join(sorted(unknown))}; "
                              f"known: max_dim, max_terms, check_timeout")
        return dataclasses.replace(
            self, **{k: v for k, v in changes.items() if v is not None})


_CURRENT: contextvars.ContextVar[Limits] = contextvars.ContextVar(
    "symrow_limits", default=Limits())


def get_limits() -> Limits:
    """The limits in force here."""
    return _CURRENT.get()


@contextlib.contextmanager
def limits(**changes) -> Iterator[Limits]:
    """Raise (or lower) limits inside a ``with`` block."""
    token = _CURRENT.set(get_limits().merge(**changes))
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)
