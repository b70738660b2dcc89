"""Running chunks on a Dask cluster through joblib's Dask backend (``--backend dask``).

Workers must have this project installed (``pip install -e .`` on each machine) so they can
import ``sim`` and the strategies; only the resolved config crosses the network.

Per-game time limit: a Dask worker plays its tasks in threads, where a signal timer (the limit of
``play_range`` in local worker processes) cannot be used. ``play_limited`` therefore plays a
chunk game by game, each watched by a thread that raises ``GameTimeout`` inside the playing
thread once it has used ``game_timeout_s`` of CPU time (CPython's ``PyThreadState_SetAsyncExc``): the game is recorded as
failed with its seed and the reason, and the chunk goes on. The exception arrives at the next
Python bytecode, so it stops any loop in Python code; a strategy blocked inside one C call
(a ``time.sleep``, a blocking read) is stopped only when that call returns.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

import polars as pl
from joblib import Parallel, parallel_config

from ..api import SimError
from ..play import GameTimeout, failed_range, play_range
from ..setup import Setup


def _timeout_type(seconds: float) -> type[GameTimeout]:
    """A ``GameTimeout`` class whose instances (made without arguments, as an asynchronous
    exception is) carry the message of ``play_range``'s own limit."""
    text = f"the game ran over game_timeout_s = {seconds:g} s of CPU time and was stopped"

    def __init__(self):
        GameTimeout.__init__(self, text)

    return type("GameTimeout", (GameTimeout,), {"__init__": __init__, "text": text})


class _Watch:
    """Raise ``kind`` in thread ``ident`` once that thread has used ``seconds`` of CPU time
    (its own CPU clock, ``time.pthread_getcpuclockid``; wall time where the platform has no such
    clock), unless ``stop()`` came first. CPU time, as in ``play_range``'s own limit: a game's
    fate must not depend on how busy the worker machine is."""

    def __init__(self, ident: int, seconds: float, kind: type[BaseException]):
        self.ident, self.kind, self.seconds, self.lock, self.live = ident, kind, seconds, threading.Lock(), True
        try:
            clock = time.pthread_getcpuclockid(ident)
            self.now = lambda: time.clock_gettime(clock)
        except (AttributeError, OSError):
            self.now = time.monotonic
        self.start, self.done = self.now(), threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self.done.wait(min(0.05, self.seconds / 4)):
            if self.now() - self.start >= self.seconds:
                return self._ring()

    def _ring(self) -> None:
        with self.lock:
            if self.live:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.ident), ctypes.py_object(self.kind))

    def stop(self) -> None:
        with self.lock:
            self.live = False
        self.done.set()


def _timed_out(setup_json: str, gi: int, kind: type[GameTimeout]) -> tuple:
    """Game ``gi`` recorded as failed by the time limit (the limit rang outside the game's own
    ``try``, e.g. while its rows were being built)."""
    a, b, t = failed_range(setup_json, gi, gi + 1, kind.text)
    t["errors"] = t["errors"].with_columns(pl.lit("GameTimeout").alias("exception"))
    return a, b, t


def play_limited(setup_json: str, start: int, stop: int) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """``play_range`` with the per-game time limit enforced in a thread (see the module docstring);
    the same ``(start, stop, tables)``. Without a limit, or on a main thread (where
    ``play_range`` uses its own signal timer), it is ``play_range``."""
    seconds = Setup.from_json(setup_json).game_timeout_s
    if not seconds or seconds <= 0 or threading.current_thread() is threading.main_thread():
        return play_range(setup_json, start, stop)
    kind, me = _timeout_type(seconds), threading.get_ident()
    parts = []
    for gi in range(start, stop):
        res = None
        watch = _Watch(me, seconds, kind)
        try:
            try:
                res = play_range(setup_json, gi, gi + 1)
            finally:
                watch.stop()
        except GameTimeout:  # rang outside the game's own ``try``: recorded all the same
            pass
        if res is None:
            res = _timed_out(setup_json, gi, kind)
        parts.append(res[2])
    tables = {k: pl.concat([p[k] for p in parts], how="diagonal_relaxed") for k in parts[0]}
    return start, stop, tables


def dask_results(calls: Iterable[Any], scheduler: str | None, local_workers: int = 2) -> Iterator[Any]:
    """Run joblib ``delayed`` calls on the Dask scheduler at ``scheduler`` (``tcp://host:8786``),
    or on a local cluster of ``local_workers`` processes when it is None; yield results as they finish.

    Raises ``SimError`` when Dask is not installed or the scheduler cannot be reached.
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimError("--backend dask needs dask[distributed]: pip install 'dask[distributed]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
    except (OSError, ValueError, TimeoutError) as exc:
        raise SimError(f"cannot reach the Dask scheduler at {scheduler!r} (expected tcp://host:port): {exc}") from None
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
