"""A time limit that really interrupts pure-Python work, from any thread.

The limit is CPU time: the seconds the checked thread itself computes, so a
check is not cut short because other programs share the cores; its wall
time is capped at :data:`WALL_FACTOR` times the limit.

The checker runs a LaTeX parser and SymPy on user input; either can take
long on a hostile input.  :func:`run_with_deadline` runs a function in the
*calling* thread and, when the limit passes, raises :class:`Deadline` inside
it.  A watchdog thread delivers the exception with CPython's
``PyThreadState_SetAsyncExc``, so it works in the main thread and in any
other thread alike, needs no signal handler (and so cannot clash with one
the host program installed), and starts no process.

:class:`Deadline` derives from :class:`BaseException`: no ``except
Exception`` inside the parser or SymPy can swallow it.  A bare ``except:``
can (latex2sympy2 has some), so the watchdog keeps re-raising until the
function gives up, and a function that returns after the limit passed still
counts as timed out.  Only the boundary, :func:`run_with_deadline`, turns it
into :class:`symrow.CheckTimeout`.

An asynchronous exception can also land in a finalizer or a garbage
collector callback, where Python cannot raise it; while a deadline is
active, such "unraisable" reports of a :class:`Deadline` are dropped
instead of printed.  A lock taken just before the exception arrived is the
caller's to release (see :func:`symrow.reader.entries.parse.release_if_owned`).

The one thing this cannot interrupt is a single long call into C (a huge
integer power, say); the checker bounds numbers, exponents and sizes before
they reach SymPy so that no such call happens.

>>> from symrow.deadline import run_with_deadline
>>> run_with_deadline(lambda: 6 * 7, 1.0)
42
>>> def spin():
...     while True:
...         pass
>>> run_with_deadline(spin, 0.05)
Traceback (most recent call last):
...
symrow.errors.CheckTimeout: checking took longer than its time limit of 0.05 s; raise it with timeout= (or --timeout)
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from typing import Callable, TypeVar

from .errors import CheckTimeout

__all__ = ["Deadline", "run_with_deadline", "remaining"]

T = TypeVar("T")

#: how often the watchdog re-raises after the limit, in case a bare except swallowed it
_RETRY = 0.05
#: the limit counts the checked thread's CPU time, so that a loaded machine (other
#: programs, a test suite on every core) does not cut a check short; wall time is
#: capped at this many times the limit, so that nothing waits for ever
WALL_FACTOR = 3.0

# Two prototypes of one C function: one passes an exception class, the other
# NULL (which clears a pending exception).  PYFUNCTYPE keeps the GIL held.
try:
    _set_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)(
        ("PyThreadState_SetAsyncExc", ctypes.pythonapi))
    _clear_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)(
        ("PyThreadState_SetAsyncExc", ctypes.pythonapi))
except (AttributeError, OSError):  # pragma: no cover - not CPython: cannot interrupt
    _set_async_exc = _clear_async_exc = None

_local = threading.local()


class Deadline(BaseException):
    """Raised inside the checked function when its time is up (internal)."""


# An asynchronous exception can land in a finalizer (__del__) or a garbage
# collector callback, where Python cannot raise it and reports it as
# "unraisable" on stderr.  While a deadline is active, such reports of a
# Deadline are dropped; everything else goes to the hook that was in place.
_hook_lock = threading.Lock()
_hook_users = 0
_previous_hook = None


def _filtering_hook(unraisable) -> None:
    if unraisable.exc_type is Deadline or isinstance(unraisable.exc_value, Deadline):
        return
    (_previous_hook or sys.__unraisablehook__)(unraisable)


def _hook_on() -> None:
    global _hook_users, _previous_hook
    with _hook_lock:
        if _hook_users == 0 and sys.unraisablehook is not _filtering_hook:
            _previous_hook = sys.unraisablehook
            sys.unraisablehook = _filtering_hook
        _hook_users += 1


def _hook_off() -> None:
    global _hook_users, _previous_hook
    with _hook_lock:
        _hook_users -= 1
        if _hook_users == 0 and sys.unraisablehook is _filtering_hook:
            sys.unraisablehook = _previous_hook or sys.__unraisablehook__
            _previous_hook = None


def remaining() -> float | None:
    """Seconds left before the current deadline of this thread, or None if there is none."""
    end = getattr(_local, "end", None)
    return None if end is None else max(0.0, end - time.monotonic())


def _cpu_clock(thread_id: int):
    """The CPU-time clock of a thread, or None where there is none (then wall time counts)."""
    try:
        clock = time.pthread_getcpuclockid(thread_id)
        time.clock_gettime(clock)
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None
    return clock


class _Watchdog:
    def __init__(self, thread_id: int, seconds: float):
        self.thread_id = thread_id
        self.seconds = seconds
        self.clock = _cpu_clock(thread_id)
        self.cpu0 = time.clock_gettime(self.clock) if self.clock is not None else 0.0
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.done = False
        self.fired = False
        self.wake = threading.Event()
        self.thread = threading.Thread(target=self._run, name="symrow-check-deadline",
                                       daemon=True)

    def _run(self) -> None:
        if self.wake.wait(self.seconds):
            return
        # the wall-clock limit has passed: wait on while the thread has used less CPU
        # time than the limit, up to WALL_FACTOR times the limit in all
        cap = self.seconds * WALL_FACTOR
        while self.clock is not None:
            left = self.seconds - (time.clock_gettime(self.clock) - self.cpu0)
            wall_left = cap - (time.monotonic() - self.start)
            if left <= 0 or wall_left <= 0:
                break
            if self.wake.wait(min(left, wall_left) + 0.001):
                return
        while True:
            with self.lock:
                if self.done:
                    return
                self.fired = True
                _set_async_exc(self.thread_id, Deadline)
            if self.wake.wait(_RETRY):
                return

    def finish(self) -> bool:
        """Stop the watchdog; clear an exception it left pending.  True if it fired."""
        with self.lock:
            self.done = True
            fired = self.fired
            if fired:
                _clear_async_exc(self.thread_id, None)
        self.wake.set()
        return fired


def _timeout_error(seconds: float) -> CheckTimeout:
    return CheckTimeout(f"checking took longer than its time limit of {seconds:g} s; "
                        f"raise it with timeout= (or --timeout)")


def run_with_deadline(fn: Callable[[], T], seconds: float | None,
                      on_timeout: Callable[[], None] | None = None) -> T:
    """Call ``fn()`` in this thread; raise :class:`symrow.CheckTimeout` after ``seconds``.

    ``seconds=None`` (or infinity) means no limit.  Inside a call that
    already has a deadline, the outer one stays in force.  ``on_timeout``
    runs after an interruption, e.g. to drop caches the interrupted code may
    have left half-built.
    """
    if seconds is None or seconds == float("inf") or getattr(_local, "end", None) is not None:
        return fn()
    if _set_async_exc is None:  # pragma: no cover - not CPython: judge afterwards
        start = time.monotonic()
        result = fn()
        if time.monotonic() - start > seconds:
            raise _timeout_error(seconds)
        return result
    dog = _Watchdog(threading.get_ident(), seconds)
    _local.end = dog.start + seconds * (WALL_FACTOR if dog.clock is not None else 1.0)
    timed_out = False
    result = None
    _hook_on()
    try:
        dog.thread.start()
        result = fn()
    except Deadline:
        timed_out = True
    finally:
        # Stop the watchdog for good.  Its exception may arrive in the middle
        # of this very loop; finish() is idempotent, so just go round again.
        while True:
            try:
                timed_out = dog.finish() or timed_out
                break
            except Deadline:
                timed_out = True
        _local.end = None
        _hook_off()
    if timed_out:
        if on_timeout is not None:
            on_timeout()
        raise _timeout_error(seconds)
    return result
