"""Forked children of ``sim`` (the play workers of ``runs.forked``, the figure helpers of
``analysis.figure_helpers``): a fork that dies with its parent and never returns into the caller's
code, the child's receive loop, and whether a fork may still use polars."""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, Pipe


def polars_pool_started() -> bool:
    """Whether polars' thread pool (threads ``polars-N``) or a tokio runtime runs in this process
    (Linux ``/proc``; ``True`` when it cannot be told): a fork made then cannot use polars."""
    try:
        names = []
        for t in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{t}/comm") as fh:
                names.append(fh.read().strip())
    except OSError:
        return True
    return any((n.startswith("polars-") and n[7:].isdigit()) or n.startswith("tokio") for n in names)


def _die_with_parent(ppid: int) -> None:
    """Linux: have the kernel SIGKILL this child when its parent dies, even by ``kill -9``, so no
    orphan plays on (breaker finding, session 4); elsewhere the child ends at its next message
    (end-of-file). A parent already gone ends it at once."""
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (AttributeError, OSError):  # no prctl: not Linux
        pass
    if os.getppid() != ppid:  # the parent died before prctl took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def fork_into(serve: Callable[[], None], close: Iterable[Connection]) -> int:
    """Fork a child that closes ``close`` (sockets that are not its own), runs ``serve()`` and ends
    with ``os._exit`` (status 1 when ``serve`` raised), never returning into the caller's code.
    Returns the child's pid (in the parent)."""
    close, ppid = list(close), os.getpid()
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            _die_with_parent(ppid)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills its children
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            for c in close:
                c.close()
            serve()
        except BaseException:  # noqa: BLE001 - the child's end; its parent hears of it by end-of-file
            status = 1
        finally:
            os._exit(status)
    return pid


def fork_child(serve: Callable[[Connection], None], others: Iterable[Connection] = ()) -> tuple[int, Connection]:
    """Fork a child that runs ``serve(its end of a new pipe)`` and then ends (see ``fork_into``);
    the child first closes the parent's end and ``others`` (sockets only the parent holds: other
    children's). Returns ``(pid, the parent's end)``."""
    parent, child = Pipe(duplex=True)
    pid = fork_into(lambda: serve(child), [parent, *others])
    child.close()
    return pid, parent


def messages(conn: Connection) -> Iterator:
    """What arrives on ``conn`` until ``None`` or end-of-file: a forked child's loop (the helpers',
    ``runs.forked``'s workers')."""
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        yield msg
