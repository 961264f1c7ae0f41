"""Fewer garbage collections while a check runs.

A check builds a great many SymPy objects that live until it ends (the
derivation's values, the page's, the memos of both), and CPython's cyclic
collector, at its default threshold of 700 new container objects, walks
them again and again: on the handout's round trip that was about a tenth of
the time, three full collections of everything alive included.  While any
check runs, the youngest generation's threshold is raised to
:data:`THRESHOLD`; the host program's setting comes back when the last
running check ends.  Nothing is frozen or switched off: garbage is still
collected, only less often.

>>> import gc
>>> from symrow.checker.gcpause import fewer_collections, THRESHOLD
>>> before = gc.get_threshold()
>>> with fewer_collections():
...     gc.get_threshold()[0] == max(before[0], THRESHOLD) or before[0] == 0
True
>>> gc.get_threshold() == before
True
"""

from __future__ import annotations

import contextlib
import gc
import threading

__all__ = ["fewer_collections", "THRESHOLD"]

#: the youngest generation's threshold during a check (CPython's default is 700)
THRESHOLD = 20_000

_lock = threading.Lock()
_running = 0
#: (the host's thresholds, the ones set here) while a check runs
_saved: tuple | None = None


@contextlib.contextmanager
def fewer_collections():
    """Raise the collector's threshold while the block runs (checks may nest or run in
    several threads at once: the first to start raises it, the last to end restores it)."""
    global _running, _saved
    with _lock:
        if _running == 0:
            host = gc.get_threshold()
            # 0 means the host turned automatic collection off: leave that alone
            if host[0] and host[0] < THRESHOLD:
                mine = (THRESHOLD,) + tuple(host[1:])
                gc.set_threshold(*mine)
                _saved = (host, mine)
            else:
                _saved = None
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _saved is not None:
                host, mine = _saved
                if gc.get_threshold() == mine:   # unless the host changed it meanwhile
                    gc.set_threshold(*host)
                _saved = None
