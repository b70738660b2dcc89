"""Figure helpers: forked processes that draw a report's charts while ``sim`` analyses (``--jobs 2``
and more, issue 20 item 1).

``start_helpers(n)`` forks **one** helper while polars' thread pool has not started in ``sim`` (a
fork made after it would wait forever in its first polars call); it holds the sockets of all ``n``.
``warm`` has it import matplotlib and then fork the other ``n - 1`` from itself, so matplotlib is
imported once, not once per helper (about 0.3 CPU-s each: docs/speed.md, round thirteen). A helper
answers each ``("draw", make)`` (a pickled chart maker) with ``document.draw_chart(make)``, PNG bytes
or error text: the function the serial path calls, so the files are the same bytes either way.

A **pump** thread in ``sim`` hands each queued chart to the first idle helper the moment it is free,
while the main thread goes on analysing (docs/speed.md, round thirteen). A helper holds one chart
at a time, so neither side can block the other on a full socket. The thread is stopped before any
fork (``fork_child``) and once ``drawn`` has the answers. A chart that cannot be pickled, or whose
helper died or took over ``HELPER_TIMEOUT_S``, is drawn in ``sim`` itself. Helpers die with ``sim``
(Linux: the first with ``sim``, the others with the first) and are killed at its exit.
"""

from __future__ import annotations

import atexit
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection, Pipe, wait

from .. import forking
from ..forking import fork_into, messages, polars_pool_started
from .document import draw_chart

HELPER_TIMEOUT_S = 120.0  # one chart in a helper; after that it is drawn here


class Helper:
    """One helper's socket (the parent's end), process id (``None`` until a helper forked by the
    first one has said it), whether it is this process's child (the first one) or the first's, and
    for the first's a pidfd (``_pidfd``): the only way ``sim`` signals them, since their pids are
    freed without ``sim`` knowing when they die (breaker, session 13: a stale pid killed a stranger)."""

    __slots__ = ("conn", "pid", "child", "pidfd")

    def __init__(self, conn: Connection, pid: int | None, child: bool):
        self.conn, self.pid, self.child, self.pidfd = conn, pid, child, None


_HELPERS: list[Helper] = []  # the live figure helpers, the first one first
_STARTED = [False]  # helpers are started once per process
_WARMED = [False]


def fork_child(serve: Callable[[Connection], None], others: Iterable[Connection] = ()) -> tuple[int, Connection]:
    """``forking.fork_child`` after ending the pump thread: no thread but the forking one may live
    across a fork (a lock it held would stay held in the child). Used by ``runs.forked``'s workers."""
    _stop_pump()
    return forking.fork_child(serve, others)


def start_helpers(n: int) -> int:
    """Fork the first of ``n`` figure helpers (once per process; none without ``os.fork`` or once
    polars' pool runs); the others are forked from it by ``warm``. Returns how many will serve."""
    if _STARTED[0] or n < 1 or not hasattr(os, "fork") or polars_pool_started():
        return len(_HELPERS)
    _STARTED[0] = True
    _stop_pump()
    pairs = [Pipe(duplex=True) for _ in range(n)]
    ends = [child for _, child in pairs]
    pid = fork_into(lambda: _first(ends), [p for p, _ in pairs] + [h.conn for h in _HELPERS])
    for i, (parent, child) in enumerate(pairs):
        child.close()
        _HELPERS.append(Helper(parent, pid if i == 0 else None, i == 0))
    return len(_HELPERS)


def _first(ends: list[Connection]) -> None:
    """The first helper: serves ``ends[0]``; at ``("warm",)`` imports matplotlib, then forks one
    helper per other end (each says its pid first, ``("pid", pid)``)."""
    def forked() -> None:
        from . import charts

        charts.Figure()  # matplotlib and the Agg canvas png_bytes uses (``charts._import_matplotlib``)
        for i, end in enumerate(ends[1:], 1):
            fork_into(lambda end=end: (end.send(("pid", os.getpid())), _serve(end)),
                       [e for j, e in enumerate(ends) if j != i])
        for end in ends[1:]:
            end.close()
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps them: no zombie when sim kills one

    _serve(ends[0], forked)


def _serve(conn: Connection, on_warm: Callable[[], None] | None = None) -> None:
    """A helper's loop: ``("warm",)`` runs ``on_warm``; ``("draw", make)`` answers ``draw_chart(make)``;
    ``None`` or end-of-file ends it."""
    for msg in messages(conn):
        if msg[0] == "warm":
            if on_warm is not None:
                on_warm()
                on_warm = None
            continue
        conn.send(draw_chart(msg[1]))


def warm() -> None:
    """Have the helpers import matplotlib now (once; the first helper, then it forks the others)."""
    if _HELPERS and not _WARMED[0]:
        _WARMED[0] = True
        try:
            _HELPERS[0].conn.send(("warm",))
        except OSError:
            _drop(_HELPERS[0])


def warmed() -> bool:
    """Whether charts go to helpers (some are live and warm)."""
    return bool(_HELPERS) and _WARMED[0]


def _drop(h: Helper) -> None:
    """Kill and reap one helper (the first one is this process's child; the others are not)."""
    if h in _HELPERS:
        _HELPERS.remove(h)
    h.conn.close()
    try:
        if h.child:
            os.kill(h.pid, signal.SIGKILL)
            os.waitpid(h.pid, 0)
        elif h.pidfd is not None:  # else not said yet, or not verified: it dies with the first helper
            signal.pidfd_send_signal(h.pidfd, signal.SIGKILL)
    except (OSError, ChildProcessError):
        pass
    if h.pidfd is not None:
        os.close(h.pidfd)
        h.pidfd = None


def _pidfd(pid: int, parent: int) -> int | None:
    """A pidfd (Linux 5.3+) of process ``pid`` if it is a child of ``parent`` once the pidfd is open,
    else ``None``: a pid that was freed and reused is refused, and a signal sent through the pidfd
    can never reach a later process with that pid."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
    try:
        with open(f"/proc/{pid}/stat") as fh:
            ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        ppid = -1
    if ppid != parent:
        os.close(fd)
        return None
    return fd


def stop_helpers() -> None:
    """Kill and reap every helper (at exit, ``atexit``). Ctrl-C is ignored meanwhile: the process is
    ending anyway, and a Ctrl-C landing in ``waitpid`` printed a traceback after a finished run
    (breaker, session 12)."""
    if _HELPERS and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop_pump()
    for h in list(_HELPERS):
        _drop(h)


atexit.register(stop_helpers)


_EAGER = [False]


@contextmanager
def eager(on: bool) -> Iterator[None]:
    """While this holds with ``on`` (a report that will draw its figures: ``build_report``,
    ``sim check``'s last report), an ``EagerCharts`` hands its charts to the helpers as they are
    added; otherwise it only collects them (``sim check --until-decided`` analyses every batch, and
    drew every batch's charts for nothing: breaker, session 13)."""
    before, _EAGER[0] = _EAGER[0], on
    try:
        yield
    finally:
        _EAGER[0] = before


class EagerCharts(dict):
    """A chart dict (``name -> (caption, maker)``) that hands each chart to the helpers the moment
    it is added inside ``eager(True)``, so the figures are drawn while the analysis goes on
    (``--jobs 2``); ``drawn`` then collects them. Otherwise a plain dict. Meant for
    ``sections.Draft.charts``."""

    def __setitem__(self, name, value) -> None:
        super().__setitem__(name, value)
        if _EAGER[0] and warmed():
            _submit(value[1])


_CV = threading.Condition()  # guards the queue, the charts out and the answers (the pump thread and the caller)
_QUEUE: deque = deque()  # chart makers waiting for a helper
_BUSY: dict[Connection, tuple[Helper, object, float]] = {}  # helper socket -> (helper, its maker, sent at)
_DONE: dict[int, tuple[object, tuple[bool, bytes | str]]] = {}  # id(maker) -> (maker, draw_chart's answer)
_PUMP: list = [None, None, False]  # the thread, the socket that wakes it, stop asked


def _submit(make: object) -> None:
    """Queue ``make`` for a helper unless it is queued, drawing or drawn (makers kept: ids stay unique)."""
    with _CV:
        if id(make) in _DONE or any(m is make for m in _QUEUE) or any(m is make for _, m, _ in _BUSY.values()):
            return
        _QUEUE.append(make)
    _wake()


def _wake() -> None:
    """Start the pump thread, or wake it to look at the queue."""
    if _PUMP[0] is not None and not _PUMP[0].is_alive():  # ended by an error: a new one
        _PUMP[1].close()
        _PUMP[0] = _PUMP[1] = None
    if _PUMP[0] is None:
        reader, writer = Pipe(duplex=False)
        _PUMP[1], _PUMP[2] = writer, False
        _PUMP[0] = threading.Thread(target=_pump, args=(reader,), name="figure-pump", daemon=True)
        _PUMP[0].start()
    else:
        _PUMP[1].send_bytes(b"")


def _stop_pump() -> None:
    """End the pump thread (charts still queued stay queued; ``drawn`` restarts it)."""
    thread = _PUMP[0]
    if thread is None:
        return
    with _CV:
        _PUMP[2] = True
    try:
        _PUMP[1].send_bytes(b"")
    except OSError:  # the thread ended by an error (its end is closed)
        pass
    thread.join()
    _PUMP[1].close()
    _PUMP[0] = _PUMP[1] = None


def _pump(wake: Connection) -> None:
    """The pump thread: send queued makers to idle helpers, take answers, drop helpers that died or
    went over ``HELPER_TIMEOUT_S``; until ``_stop_pump``."""
    try:
        while True:
            with _CV:
                _dispatch()
                if _PUMP[2]:
                    return
                out = list(_BUSY)
            ready = wait([*out, wake], timeout=HELPER_TIMEOUT_S / 4 if out else None)
            with _CV:
                for conn in ready:
                    if conn is wake:
                        wake.recv_bytes()
                    else:
                        _receive(conn)
                _expire()
                _CV.notify_all()
    finally:
        wake.close()


def _dispatch() -> None:
    """(Under ``_CV``.) Send queued makers to idle helpers; with no helper left, empty the queue
    (those charts are drawn in ``sim``)."""
    idle = [h for h in _HELPERS if h.conn not in _BUSY]
    while idle and _QUEUE:
        make = _QUEUE.popleft()
        try:
            idle[0].conn.send(("draw", make))
        except OSError:  # the helper is gone: the chart waits for another
            _drop(idle.pop(0))
            _QUEUE.appendleft(make)
            continue
        except Exception:  # noqa: BLE001 - cannot be pickled (nothing was sent): drawn here; the helper stays idle
            continue
        _BUSY[idle[0].conn] = (idle[0], make, time.monotonic())
        idle.pop(0)
    if not _HELPERS:
        _QUEUE.clear()


def _receive(conn: Connection) -> None:
    """(Under ``_CV``.) Read one message from a busy helper: its pid, or its chart's answer; a helper
    that died is dropped (its chart is drawn here)."""
    h, make, _ = _BUSY[conn]
    try:
        msg = conn.recv()
    except (EOFError, OSError):
        del _BUSY[conn]
        _drop(h)
        return
    if msg[0] == "pid":  # draw_chart's answers start with a bool
        h.pid, h.pidfd = msg[1], _pidfd(msg[1], _HELPERS[0].pid if _HELPERS and _HELPERS[0].child else -1)
        return
    del _BUSY[conn]
    _DONE[id(make)] = (make, msg)


def _expire() -> None:
    """(Under ``_CV``.) Drop helpers whose chart took over ``HELPER_TIMEOUT_S``; it is drawn here."""
    now = time.monotonic()
    for conn, (h, _, sent) in list(_BUSY.items()):
        if now - sent > HELPER_TIMEOUT_S:
            del _BUSY[conn]
            _drop(h)


def drawn(charts: dict[str, tuple[str, Callable]]) -> Callable[[Callable], tuple[bool, bytes | str]]:
    """Hand ``charts`` (``name -> (caption, maker)``) to the helpers (those an ``EagerCharts`` already
    handed them are only collected) and wait for their answers; returns the ``draw`` function for
    ``document.render_figures``: a helper's answer, else ``draw_chart`` here."""
    for _, make in charts.values():
        _submit(make)
    _wake()  # running even when every chart was queued before a fork stopped it
    with _CV:
        while (_QUEUE or _BUSY) and _PUMP[0] is not None and _PUMP[0].is_alive():
            _CV.wait(1.0)
    _stop_pump()
    with _CV:
        _QUEUE.clear()  # left only by a pump that ended by an error: drawn here
    answers = dict(_DONE)
    _DONE.clear()  # answers for charts this report dropped (solo reports) are not kept
    def draw(make: Callable) -> tuple[bool, bytes | str]:
        got = answers.get(id(make))
        return got[1] if got is not None and got[0] is make else draw_chart(make)
    return draw
