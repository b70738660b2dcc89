"""One forked worker process for ``--jobs 1`` (local backend): a strategy that ends its process
(``os._exit``, a crash, the out-of-memory killer) fails only its game, as with ``--jobs 2``.

``forked_results`` yields chunk results like ``workers.local_results``. The worker is a plain
``os.fork()`` of the ``sim`` process (about 10 ms with ``sim`` and the game already imported; no
new interpreter as loky's ``--jobs 2`` workers need), fed chunk ranges over a socket pair and
answering with each chunk's ``(start, stop, tables)`` (pickled). When the worker dies, the chunk
it was playing is played again game by game, each in a fresh fork; a game that kills that worker
too is recorded as failed (``WorkerDied``, with its seed and the reason), and the run goes on
with a fresh worker.

``forked_results`` (``--jobs 1``, since session 8) and ``pool_results`` (``--jobs 2`` and more) are
given the run folder: a worker forked while polars'
thread pool has not started in ``sim`` (``figure_policy.polars_pool_started``; a fork made after it
would hang in its first polars call) writes each chunk itself (``store.write_chunk``) and answers
only a ``store.Written`` summary, so ``sim`` neither unpickles the rows nor builds the tables
(issue 20 item 1); any other worker answers with the rows, which the caller writes.

On any exit other than the normal end (Ctrl-C, SIGTERM turned into ``KeyboardInterrupt``, an
error), the worker is killed (``SIGKILL``) and reaped, so none survives the run; a worker whose
parent is killed outright reads end-of-file and exits. Where ``os.fork`` does not exist
(Windows), chunks are played in the ``sim`` process itself, as before.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path

from .. import store
from ..analysis.figure_helpers import fork_child
from ..forking import messages, polars_pool_started
from ..play import failed_range, play_rows, prepared
from ..registry import project_strategies

Result = tuple
def can_fork() -> bool:
    """Whether this platform has ``os.fork`` (POSIX)."""
    return hasattr(os, "fork")


def fork_safe(setup_json: str) -> bool:
    """Whether this run's games may be played in forks of this process: the OS can fork and
    every strategy is the project's own (``registry.project_strategies``). A plugin may have
    started thread pools here (polars when it built a strategy; tokio), which a forked child
    cannot use: it would wait forever (breaker finding, session 4)."""
    if not can_fork():
        return False
    setup = prepared(setup_json)[0]  # built once per process; the forks inherit it
    return project_strategies(setup.strategies, setup.game)


class WorkerGone(Exception):
    """The forked worker ended (or closed its socket) before answering; ``reason`` says how."""


def _serve(conn: Connection, setup_json: str) -> None:
    """The worker's loop: ``(start, stop, folder)`` in, ``("ok", result)`` or ``("error", text)``
    out; ``None`` or end-of-file ends it. With a run folder the worker writes the chunk itself
    (``store.write_chunk``) and answers ``store.Written``; without, the plain rows."""
    for msg in messages(conn):
        try:
            out = ("ok", _play(setup_json, *msg))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it there
            out = ("error", exc)
        try:
            conn.send(out)
        except Exception as exc:  # noqa: BLE001 - an exception that cannot be pickled: its text
            conn.send(("error", RuntimeError(f"{type(out[1]).__name__}: {out[1]} ({exc})")))


def _play(setup_json: str, a: int, b: int, folder: str | None) -> Result:
    """Games ``a..b-1``: the rows (no polars: this fork may have inherited a started polars pool),
    or, with ``folder`` (forked before polars' pool started), the chunk written there and its summary."""
    a, b, rows = play_rows(setup_json, a, b)
    if folder is None:
        return a, b, rows
    tables = rows.tables()
    store.write_chunk(Path(folder), a, tables, b)
    return a, b, store.written(tables)


class Worker:
    """A forked child playing chunks of one run; ``play(a, b)`` returns the chunk's result or
    raises ``WorkerGone`` when the child died; ``close()`` ends and reaps it."""

    def __init__(self, setup_json: str, out: Path | None = None):
        reap()
        # writes its chunks into ``out`` itself when polars can run in it (issue 20 item 1)
        self.out = str(out) if out is not None and not polars_pool_started() else None
        sys.stdout.flush()
        sys.stderr.flush()
        # the other workers' sockets: only the parent holds them
        self.pid, self.conn = fork_child(lambda conn: _serve(conn, setup_json), _OPEN)
        _OPEN.add(self.conn)

    def play(self, a: int, b: int) -> Result:
        self.send(a, b)
        return self.result()

    def send(self, a: int, b: int) -> None:
        """Hand games ``a..b-1`` to the worker (``result()`` collects them)."""
        try:
            self.conn.send((a, b, self.out))
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerGone(self._reap()) from None

    def result(self) -> Result:
        """The result of the chunk last sent: ``(start, stop, tables)``; ``WorkerGone`` if the child died."""
        try:
            kind, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerGone(self._reap()) from None
        if kind == "error":  # outside any game (e.g. a strategy that cannot be built): as in-process
            raise value
        a, b, rows = value
        return a, b, rows if isinstance(rows, store.Written) else rows.tables()

    def _reap(self) -> str:
        """Wait for the dead child; how it ended, in words."""
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return "it ended"
        self.pid = 0
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGVTALRM:  # limits.TimeLimit's second timer
                return "killed by signal SIGVTALRM: over game_timeout_s and stuck in compiled code"
            return f"killed by signal {signal.Signals(sig).name if sig in signal.valid_signals() else sig}"
        return f"exit code {os.WEXITSTATUS(status)}"

    def close(self, kill: bool = False) -> None:
        """End the worker: politely after the last chunk (it exits by itself; reaped without
        waiting for its exit when possible, else at the next worker or at exit), ``SIGKILL``
        otherwise (reaped at once)."""
        _OPEN.discard(self.conn)
        if not self.pid:
            self.conn.close()
            return
        try:
            if kill:
                os.kill(self.pid, signal.SIGKILL)
            else:
                self.conn.send(None)
        except OSError:
            pass
        self.conn.close()
        _UNREAPED.append(self.pid)
        self.pid = 0
        reap(wait=kill)


_UNREAPED: list[int] = []
_OPEN: set[Connection] = set()  # the parent's sockets to its live workers


def reap(wait: bool = False) -> None:
    """Collect the exit status of ended workers (``wait``: block until every one has ended)."""
    for pid in list(_UNREAPED):
        try:
            done, _ = os.waitpid(pid, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _UNREAPED.remove(pid)


atexit.register(reap, True)


def forked_results(setup_json: str, ranges: list[tuple[int, int]], out: Path | None = None) -> Iterator[Result]:
    """Chunk results in order of ``ranges``, played by one forked worker (see the module docstring).
    ``out``: the run folder, where the worker writes its chunks itself when it can (as with two
    or more jobs): no rows pickled, sent and unpickled per chunk; the parent waits meanwhile."""
    prepared(setup_json)  # built once here (errors raised as in-process); every fork inherits it
    worker: Worker | None = None
    try:
        for a, b in ranges:
            if worker is None:
                worker = Worker(setup_json, out)
            try:
                res = worker.play(a, b)
            except WorkerGone:
                worker = None
                yield from _alone(setup_json, a, b, out=out)
                continue
            yield res
        if worker is not None:
            worker.close()
            worker = None
    finally:
        if worker is not None:
            worker.close(kill=True)


def pool_results(setup_json: str, ranges: list[tuple[int, int]], jobs: int, out: Path | None = None,
                 drained: Callable[[], None] | None = None) -> Iterator[Result]:
    """Chunk results as they finish, from ``jobs`` forked workers (``--jobs 2`` and more, local
    backend): no new interpreter per worker (a fork takes about 10 ms, a loky worker imports
    ``sim`` and the game again, about 1.4 CPU-s), and each worker is handed its next chunk as
    soon as it answers, while the parent writes the chunk it returned. A chunk whose worker dies
    is played again game by game in fresh forks (``_alone``), as with one job. ``drained``: called
    once, when a worker goes idle with no chunk left to hand out (a core is free from then on)."""
    prepared(setup_json)
    queue = deque(ranges)
    n = max(1, min(jobs, len(ranges)))
    idle: list[Worker] = []
    busy: dict[Connection, tuple[Worker, tuple[int, int]]] = {}
    try:
        while queue or busy:
            yield from _hand_out(setup_json, queue, idle, busy, n, out)
            for conn in wait(list(busy)):
                w, r = busy.pop(conn)  # type: ignore[index]
                try:
                    res = w.result()
                except WorkerGone:
                    w.close()
                    yield from _alone(setup_json, *r, out=out)
                    continue
                idle.append(w)
                # its next chunk first: the worker plays on while the caller writes this one (issue 20 item 1)
                yield from _hand_out(setup_json, queue, idle, busy, n, out)
                if drained is not None and not queue and idle:
                    drained()
                    drained = None
                yield res
        while idle:
            idle.pop().close()
    finally:
        for w in idle + [w for w, _ in busy.values()]:
            w.close(kill=True)


def _hand_out(setup_json: str, queue: deque, idle: list[Worker], busy: dict, n: int,
              out: Path | None) -> Iterator[Result]:
    """Send queued ranges to idle (else new) workers until ``n`` are busy; a range whose worker
    is gone before it is sent is played alone (its results are yielded)."""
    while queue and len(busy) < n:
        w, r = idle.pop() if idle else Worker(setup_json, out), queue.popleft()
        try:
            w.send(*r)
        except WorkerGone:
            w.close()
            yield from _alone(setup_json, *r, out=out)
            continue
        busy[w.conn] = (w, r)


def _alone(setup_json: str, a: int, b: int, out: Path | None = None) -> Iterator[Result]:
    """Games ``a..b-1`` one by one, each in a fresh worker; a game whose worker dies is failed."""
    for gi in range(a, b):
        worker = Worker(setup_json, out)
        try:
            res = worker.play(gi, gi + 1)
        except WorkerGone as exc:
            res = failed_range(setup_json, gi, gi + 1, f"the worker process playing this game died ({exc})")
            worker.pid = 0
        finally:
            worker.close(kill=True)
        yield res
