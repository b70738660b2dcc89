"""Bounds on one game while it plays: the per-game CPU-time limit (``game_timeout_s``) and the
tell-apart of a real Ctrl-C from a ``KeyboardInterrupt`` a strategy raises by itself; the
exceptions that record such games as failed (``GameTimeout``, ``WorkerDied``)."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Interrupts:
    """Tells a real Ctrl-C from a ``KeyboardInterrupt`` a strategy raises by itself: while a range
    plays in the main thread, SIGINT goes through ``ring``, which notes it and then does what the
    handler before it did (raise ``KeyboardInterrupt``, or nothing where SIGINT is ignored, as in
    the forked ``--jobs 1`` worker). A strategy's own ``KeyboardInterrupt`` (no signal) fails only
    its game; a signalled one stops the run."""

    signalled = False

    def __enter__(self) -> Interrupts:
        type(self).signalled = False
        self.on = threading.current_thread() is threading.main_thread()
        if self.on:
            self.old = signal.signal(signal.SIGINT, self._ring)
        return self

    def _ring(self, signum, frame) -> None:
        type(self).signalled = True
        if callable(self.old):
            self.old(signum, frame)
        elif self.old == signal.SIG_DFL:
            raise KeyboardInterrupt

    def __exit__(self, *exc) -> None:
        if self.on:
            signal.signal(signal.SIGINT, self.old)


def is_stop(exc: BaseException) -> bool:
    """Whether ``exc`` stops the command as Ctrl-C does: ``KeyboardInterrupt`` (SIGINT; the commands turn
    SIGTERM into it), or polars' ``PanicException`` around one: a Ctrl-C that lands while polars calls
    back into Python comes out of polars as a panic (breaker trial, session 14: a traceback, exit 1)."""
    return isinstance(exc, KeyboardInterrupt) or (
        type(exc).__name__ == "PanicException" and "KeyboardInterrupt" in str(exc))


class GameTimeout(BaseException):
    """A game ran longer than ``game_timeout_s`` (a BaseException, so a strategy's own
    ``except Exception`` cannot swallow it)."""


class WorkerDied(RuntimeError):
    """The worker process playing a game ended abruptly (``os._exit``, a crash, out of memory)."""


class TimeLimit:
    """Per-game limit of ``seconds`` of **CPU time** of this process (``signal.setitimer`` with
    ``ITIMER_PROF``, user + system time), where the platform has it and this is the main thread
    (joblib's loky workers and the forked ``--jobs 1`` worker); elsewhere (Dask threads:
    ``runs/cluster.py``) no limit here. CPU time, not wall time: a game's fate must not depend on
    how busy the machine is (a wall-clock limit failed slow games on a loaded machine).

    The limit is a Python signal handler, which compiled code (``sim/compiled.py``) never gives a
    chance to run while it loops without calling back into Python (breaker trial, session 11). So a
    second timer, ``ITIMER_VIRTUAL`` at ``hard_limit(seconds)`` of user CPU time with its default
    action, ends the process: the game's worker dies and the game is recorded as failed
    (``WorkerDied``, its reason naming this limit; ``runs/forked.py``)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.on = (seconds > 0 and hasattr(signal, "setitimer")
                   and threading.current_thread() is threading.main_thread())

    def __enter__(self) -> TimeLimit:
        if self.on:
            self.old = signal.signal(signal.SIGPROF, self._ring)
            self.old_hard = signal.signal(signal.SIGVTALRM, signal.SIG_DFL)
        return self

    def _ring(self, signum, frame) -> None:
        raise GameTimeout(f"the game ran over game_timeout_s = {self.seconds:g} s of CPU time and was stopped")

    def arm(self) -> None:
        if self.on:
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
            signal.setitimer(signal.ITIMER_VIRTUAL, hard_limit(self.seconds))

    def disarm(self) -> None:
        if self.on:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)

    def __exit__(self, *exc) -> None:
        if self.on:
            self.disarm()
            signal.signal(signal.SIGPROF, self.old)
            signal.signal(signal.SIGVTALRM, self.old_hard)


def hard_limit(seconds: float) -> float:
    """CPU seconds after which a game whose ``GameTimeout`` could not be raised ends its process."""
    return max(2 * seconds, seconds + 1)


class Unbroken:
    """A text stream a closed pipe cannot make fail: once a write meets ``BrokenPipeError``
    (``sim run CONFIG | head``), later output goes nowhere instead of failing the game or the
    command, and the file descriptor is pointed at the null device, so the interpreter's last flush
    of what was buffered does not fail either (that would end the process with status 120)."""

    def __init__(self, stream):
        self._stream, self._gone = stream, False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._leave()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._leave()

    def _leave(self) -> None:
        self._gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture): dropping is enough
            pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class _Nowhere:
    """Standard output under ``--quiet``: written text goes nowhere."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


@contextmanager
def harmless_output(quiet: bool = False):
    """While games play, a strategy's ``print`` to a closed standard output or error does not fail
    its game (second breaker finding 2, session 4: every game of a printing strategy failed with
    ``BrokenPipeError`` when stdout was a closed pipe, so results depended on where output went).
    ``quiet`` (``--quiet``: only errors): what it prints to standard output goes nowhere; its
    standard error (warnings, tracebacks it prints) is kept."""
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Nowhere() if quiet else Unbroken(old[0]), Unbroken(old[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = old


PLAY_GC_THRESHOLD = 10_000  # the cyclic collector's first threshold while games play (Python's default: 700)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector's youngest generation every ``PLAY_GC_THRESHOLD`` allocations
    instead of 700 while games play (restored after): the scripted plans allocate many short-lived
    tuples and dicts that reference counting frees anyway, and each collection walked them
    (Alpenzian baseline: about 4% of play, session 8, docs/speed.md round nine). No decision
    depends on it; at most a few thousand more objects wait for a collection."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], PLAY_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
