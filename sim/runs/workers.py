"""Local worker processes (joblib's loky backend) that survive a dying worker and never outlive
the run.

``local_results`` yields chunk results like joblib's ``Parallel(return_as="generator_unordered")``.
When a worker process dies (``os._exit`` in a strategy, a crash, the kernel's out-of-memory
killer), joblib raises ``TerminatedWorkerError`` for the whole batch; the chunks not yet returned
are then played with a fresh pool, at most ``jobs`` at a time, so only the chunks in flight when a
worker dies are suspects. Each suspect is played alone in a fresh worker; one that kills its
worker again is played game by game, and a game that kills its worker is recorded as failed
(``WorkerDied``, with its seed and the reason). The run goes on.

On any exit other than the normal end (Ctrl-C, SIGTERM turned into ``KeyboardInterrupt`` by the
CLI, an error), the worker processes are killed, so none survives the run.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, wait

from joblib import Parallel, delayed
from joblib.externals.loky import get_reusable_executor
from joblib.externals.loky.process_executor import BrokenProcessPool

from ..play import failed_range, play_range

Result = tuple


class EndIfOrphaned:
    """Called by a worker before each game: ends the worker (``os._exit``) once ``parent`` (the
    ``sim`` process) is gone, e.g. after a ``kill -9``. Loky starts its workers from a manager
    thread, so the kernel's parent-death signal cannot be used (it would fire when that thread
    ends); this check stops an orphan within one game (breaker finding 1, session 5)."""

    def __init__(self, parent: int):
        self.parent = parent

    def __call__(self) -> None:
        if os.getppid() != self.parent:
            os._exit(1)


def kill_workers() -> None:
    """Kill the loky worker processes of this process (joblib's and ours share the executor)."""
    try:
        get_reusable_executor().shutdown(wait=False, kill_workers=True)
    except Exception:  # already gone or never started
        pass


def local_results(setup_json: str, ranges: list[tuple[int, int]], jobs: int) -> Iterator[Result]:
    """Chunk results as they finish, from ``jobs`` worker processes (never more than chunks or
    than this machine can start). See the module docstring for dying workers."""
    n = max(1, min(jobs, len(ranges), 4 * (os.cpu_count() or 1)))
    pending = dict.fromkeys(ranges)
    finished = False
    try:
        try:
            if n == 1:  # Parallel(n_jobs=1) would play here: a dying strategy must fail only its game
                yield from _careful(setup_json, list(ranges), 1)
                pending.clear()
            else:
                for res in Parallel(n_jobs=n, return_as="generator_unordered")(
                        delayed(play_range)(setup_json, a, b, EndIfOrphaned(os.getpid())) for a, b in ranges):
                    pending.pop((res[0], res[1]), None)
                    yield res
        except BrokenProcessPool:  # TerminatedWorkerError: a worker died
            kill_workers()
            yield from _careful(setup_json, list(pending), n)
        finished = True
    finally:
        if not finished or n == 1:  # n == 1: _careful's plain loky executor must not serve joblib later
            kill_workers()


def _careful(setup_json: str, ranges: list[tuple[int, int]], n: int) -> Iterator[Result]:
    """Play ``ranges`` with at most ``n`` in flight; when a worker dies, the ones in flight are
    played alone (``_alone``) and the rest go on in a fresh pool."""
    queue = deque(ranges)
    while queue:
        ex = get_reusable_executor(max_workers=n)
        running: dict = {}
        suspects: list[tuple[int, int]] = []
        while (queue or running) and not suspects:
            while queue and len(running) < n and not suspects:
                r = queue.popleft()
                try:
                    running[ex.submit(play_range, setup_json, *r, EndIfOrphaned(os.getpid()))] = r
                except BrokenProcessPool:  # a worker died since the last result
                    suspects.append(r)
            if suspects:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                r = running.pop(f)
                try:
                    res = f.result()
                except BrokenProcessPool:
                    suspects.append(r)
                    continue
                yield res
        if suspects:
            suspects += list(running.values())  # in flight when the worker died: any of them may be at fault
            kill_workers()
            for r in sorted(suspects):
                yield from _alone(setup_json, r)


def _alone(setup_json: str, r: tuple[int, int]) -> Iterator[Result]:
    """Play chunk ``r`` alone in a fresh worker; if that worker dies, game by game; a game that
    kills its worker is recorded as failed."""
    a, b = r
    try:
        yield get_reusable_executor(max_workers=1).submit(play_range, setup_json, a, b, EndIfOrphaned(os.getpid())).result()
        return
    except BrokenProcessPool as exc:
        kill_workers()
        reason = str(exc).splitlines()[0][:200]
    if b - a == 1:
        yield failed_range(setup_json, a, b, f"the worker process playing this game died ({reason})")
        return
    for gi in range(a, b):
        yield from _alone(setup_json, (gi, gi + 1))
