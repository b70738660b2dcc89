"""When a report draws its figures (issue 20 item 8: a 10-game run in under 1 s).

Figures of a handful of games show no distribution, and drawing them (matplotlib imported, 7-10
charts) costs more than the rest of a small run. ``--figures`` on `sim run`, `sim check`,
`sim sweep` (its point reports) and `sim report` chooses:

- ``auto`` (the commands' default): drawn when the run has at least ``AUTO_MIN_GAMES`` complete
  games (neither failed nor truncated); below that the report says in one line why they are
  missing and how to draw them;
- ``always``: drawn whatever the size;
- ``never``: not drawn (the report says so and how to draw them).

matplotlib is imported only when a figure is drawn (``document.render_figures``).

Figure helpers (``--jobs 2`` and more, issue 20 item 1): ``start_helpers`` forks processes while
polars' thread pool has not started in ``sim`` (a fork made after it would wait forever in its
first polars call); ``warm`` has them import matplotlib: as soon as the play frees a core
(``warm_ahead``, when ``sim run``/``sim check`` said their ``--figures`` mode with ``expect``), else
when the report starts, while ``sim`` analyses; ``draw``
then hands them the charts one at a time (pickled chart makers) and takes back each chart's PNG
bytes or error text from ``document.draw_chart``, the function the serial path calls, so the files
are the same bytes either way. A chart that cannot be pickled, or whose helper died or took over
``HELPER_TIMEOUT_S``, is drawn in ``sim`` itself. Helpers die with ``sim`` (Linux) and are killed
at its exit. ``fork_child`` and ``polars_pool_started`` are shared with ``runs.forked`` (its
workers are forked the same way).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, Pipe, wait
from pathlib import Path

from .document import Report, draw_chart, render_figures

MODES = ("auto", "always", "never")
AUTO_MIN_GAMES = 100  # complete games from which `auto` draws the figures


def wanted(mode: str, complete: int) -> bool:
    """Whether figures are drawn for a run with ``complete`` complete games under ``mode``
    (one of ``MODES``; ``ValueError`` otherwise)."""
    if mode not in MODES:
        raise ValueError(f"figures mode must be one of {', '.join(MODES)}, got {mode!r}")
    # no complete game: every chart would be empty axes (breaker finding 6, session 5)
    return complete > 0 and (mode == "always" or (mode == "auto" and complete >= AUTO_MIN_GAMES))


def note(mode: str, complete: int, run_dir: Path | str) -> str:
    """The one line a report without figures gives: why, and the commands that draw them."""
    if complete == 0 and mode != "never":
        return "not drawn: no game is complete (each failed, stalled or hit the decision cap), so there is nothing to draw"
    why = (f"not drawn: figures start at {AUTO_MIN_GAMES} complete games and this run has {complete}" if mode == "auto"
           else "not drawn (--figures never)")
    return (f"{why}; draw them now with `sim report {run_dir} --figures always`"
            f" (or run with `--figures always`)")


def draw(rep: Report, mode: str, complete: int, run_dir: Path | str) -> bool:
    """Draw ``rep``'s charts when ``mode`` wants them for ``complete`` complete games; otherwise add
    the note (a "figures" line of the Run facts and ``rep.figures_note``). Returns whether drawn."""
    if wanted(mode, complete):
        if _HELPERS:
            _draw_in_helpers(rep)
        else:
            render_figures(rep)
        return True
    if rep.charts:
        rep.figures_note = note(mode, complete, run_dir)
        rep.facts.append(("figures", rep.figures_note))
    for name in rep.charts:  # an older report's charts: the folder holds no figure its report does not show
        (Path(run_dir) / "figures" / f"{name}.png").unlink(missing_ok=True)
    return False


HELPER_TIMEOUT_S = 120.0  # one chart in a helper; after that it is drawn here
_HELPERS: list[tuple[int, Connection]] = []  # (pid, socket) of the live figure helpers
_STARTED = [False]  # helpers are started once per process
_WARMED = [False]
_EXPECTED: list[str | None] = [None]  # the --figures mode of the coming run's report (``expect``)


def polars_pool_started() -> bool:
    """Whether polars' thread pool (threads ``polars-N``) or a tokio runtime runs in this process
    (Linux ``/proc``; ``True`` when it cannot be told): a fork made then cannot use polars."""
    try:
        tasks = os.listdir("/proc/self/task")
        names = []
        for t in tasks:
            with open(f"/proc/self/task/{t}/comm") as fh:
                names.append(fh.read().strip())
    except OSError:
        return True
    return any((n.startswith("polars-") and n[7:].isdigit()) or n.startswith("tokio") for n in names)


def _die_with_parent(ppid: int) -> None:
    """Linux: have the kernel SIGKILL this child when ``sim`` dies, even by ``kill -9``, so no
    orphan plays on (breaker finding, session 4); elsewhere the child ends at its next message
    (end-of-file). A parent already gone ends it at once."""
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (AttributeError, OSError):  # no prctl: not Linux
        pass
    if os.getppid() != ppid:  # the parent died before prctl took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def fork_child(serve: Callable[[Connection], None], others: Iterable[Connection] = ()) -> tuple[int, Connection]:
    """Fork a child that runs ``serve(its end of a new pipe)`` and then ends with ``os._exit``
    (status 1 when ``serve`` raised), never returning into the caller's code; the child first
    closes the parent's end and ``others`` (sockets only the parent holds: other children's).
    Returns ``(pid, the parent's end)``. Used by the forked workers and the figure helpers."""
    parent, child = Pipe(duplex=True)
    others, ppid = list(others), os.getpid()
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            _die_with_parent(ppid)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills its children
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            parent.close()
            for other in others:
                other.close()
            serve(child)
        except BaseException:  # noqa: BLE001 - the child's end; its parent hears of it by end-of-file
            status = 1
        finally:
            os._exit(status)
    child.close()
    return pid, parent


def start_helpers(n: int) -> int:
    """Fork ``n`` figure helpers (once per process; none without ``os.fork`` or once polars'
    pool runs). Returns how many are live."""
    if _STARTED[0] or n < 1 or not hasattr(os, "fork") or polars_pool_started():
        return len(_HELPERS)
    _STARTED[0] = True
    for _ in range(n):
        _HELPERS.append(fork_child(_serve, [c for _, c in _HELPERS]))
    return len(_HELPERS)


def _serve(conn: Connection) -> None:
    """A helper's loop: ``("warm",)`` imports matplotlib; ``("draw", make)`` answers
    ``draw_chart(make)``; ``None`` or end-of-file ends it."""
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        if msg[0] == "warm":
            from . import charts

            charts.Figure()  # matplotlib and the Agg canvas png_bytes uses (``charts._import_matplotlib``)
            continue
        conn.send(draw_chart(msg[1]))


def warm(mode: str, complete: int) -> None:
    """Have the helpers import matplotlib now (once), when ``mode`` will draw for ``complete`` games."""
    if _HELPERS and not _WARMED[0] and wanted(mode, complete):
        _WARMED[0] = True
        for pid, conn in list(_HELPERS):
            try:
                conn.send(("warm",))
            except OSError:
                _drop(pid, conn)


def expect(mode: str | None) -> None:
    """Say which ``--figures`` mode the report of the coming run will use (``sim run``, ``sim check``),
    so ``warm_ahead`` can warm the helpers before the play ends; ``None``: not known (no early warm)."""
    _EXPECTED[0] = mode


def warm_ahead(games: int) -> None:
    """``warm`` for a run of ``games`` games under the expected mode, at the play's tail, when a core
    is free (``runs.forked.pool_results``' ``drained``): matplotlib is imported on the freed core
    while the last chunks and the merge run, not during the analysis (issue 20 item 1). Nothing
    happens without an expected mode; a run that ends with fewer complete games costs the import only."""
    if _EXPECTED[0] is not None:
        warm(_EXPECTED[0], games)


def _drop(pid: int, conn: Connection) -> None:
    """Kill and reap one helper."""
    if (pid, conn) in _HELPERS:
        _HELPERS.remove((pid, conn))
    conn.close()
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (OSError, ChildProcessError):
        pass


def stop_helpers() -> None:
    """Kill and reap every helper (at exit, ``atexit``). Ctrl-C is ignored meanwhile: the process is
    ending anyway, and a Ctrl-C landing in ``waitpid`` printed a traceback after a finished run
    (breaker, session 12)."""
    if _HELPERS and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for pid, conn in list(_HELPERS):
        _drop(pid, conn)


atexit.register(stop_helpers)


class EagerCharts(dict):
    """A chart dict (``name -> (caption, maker)``) that hands each chart to a warm figure helper
    the moment it is added, so the figures are drawn while the analysis goes on (``--jobs 2``);
    ``draw`` then collects them. Without warm helpers it is a plain dict. Meant for
    ``sections.Draft.charts``."""

    def __setitem__(self, name, value) -> None:
        super().__setitem__(name, value)
        if _HELPERS and _WARMED[0]:
            _submit(value[1])
            _pump(block=False)


_QUEUE: deque = deque()  # chart makers waiting for a helper
_BUSY: dict[Connection, tuple[int, object]] = {}  # helper socket -> (pid, the maker it draws)
_DONE: dict[int, tuple[object, tuple[bool, bytes | str]]] = {}  # id(maker) -> (maker, draw_chart's answer)


def _submit(make: object) -> None:
    """Queue ``make`` for a helper unless it is queued, drawing or drawn (makers kept: ids stay unique)."""
    key = id(make)
    if key not in _DONE and all(m is not make for m in _QUEUE) and all(m is not make for _, m in _BUSY.values()):
        _QUEUE.append(make)


def _pump(block: bool) -> None:
    """Send queued makers to idle helpers and take their answers; ``block``: until every queued
    chart is answered (or its helper is dropped: that chart is then drawn here)."""
    while True:
        taken = {conn for conn in _BUSY}
        for pid, conn in [h for h in _HELPERS if h[1] not in taken]:
            if not _QUEUE:
                break
            make = _QUEUE.popleft()
            try:
                conn.send(("draw", make))
            except OSError:  # the helper is gone: the chart is drawn here
                _drop(pid, conn)
                continue
            except Exception:  # noqa: BLE001 - cannot be pickled (nothing was sent): drawn here
                continue
            _BUSY[conn] = (pid, make)
        if not _BUSY:
            _QUEUE.clear()  # no helper left: whatever waits is drawn here
            return
        ready = wait(list(_BUSY), timeout=HELPER_TIMEOUT_S if block else 0)
        if block and not ready:  # a helper that hangs: drop every busy one; their charts are drawn here
            for conn, (pid, _) in list(_BUSY.items()):
                _drop(pid, conn)
            _BUSY.clear()
            continue
        for conn in ready:
            pid, make = _BUSY.pop(conn)  # type: ignore[index]
            try:
                _DONE[id(make)] = (make, conn.recv())
            except (EOFError, OSError):
                _drop(pid, conn)
        if not block or not (_QUEUE or _BUSY):
            return


def _draw_in_helpers(rep: Report) -> None:
    """Draw ``rep.charts`` in the helpers (see the module docstring; those an ``EagerCharts``
    already handed them are only collected), charts they could not draw here; results in chart
    order, as ``render_figures`` gives them."""
    for _, make in rep.charts.values():
        _submit(make)
    _pump(block=True)
    for name, (caption, make) in rep.charts.items():
        got = _DONE.get(id(make))
        ok, value = got[1] if got is not None and got[0] is make else draw_chart(make)
        if ok:
            rep.figures[name] = (caption, value)
        else:
            rep.chart_errors[name] = value
    _DONE.clear()  # answers for charts this report dropped (solo reports) are not kept
