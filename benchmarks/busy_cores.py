"""Idle cores in each phase of a ``sim`` command (start-up, play, merge, report): the machine's busy
cores sampled from ``/proc/stat`` every 25 ms in a thread of the ``sim`` process (Linux; run it on an
otherwise quiet machine: the figure is machine-wide). docs/speed.md, round thirteen.

    python benchmarks/busy_cores.py run configs/traders_of_osaka/speed_random4.yaml --jobs 2 --out /tmp/s2 --force --quiet

Prints, per phase: its wall seconds, the mean busy cores and the idle core-seconds (cores x time
nobody used). With two jobs on two cores every idle core-second lengthens the run by half a second.
"""

from __future__ import annotations

import os
import sys
import threading
import time

SAMPLE_S = 0.025
samples: list[tuple[float, float]] = []
marks: list[tuple[str, float]] = []
T0 = time.time()
CORES = os.cpu_count() or 1


def _stat() -> tuple[int, int]:
    with open("/proc/stat") as fh:
        v = list(map(int, fh.readline().split()[1:]))
    return sum(v), v[3] + v[4]  # all jiffies, idle + iowait


def _sample() -> None:
    prev = _stat()
    while True:
        time.sleep(SAMPLE_S)
        cur = _stat()
        total, idle = cur[0] - prev[0], cur[1] - prev[1]
        prev = cur
        samples.append((time.time() - T0, CORES * (total - idle) / total if total else 0.0))


def _mark(name: str) -> None:
    marks.append((name, time.time() - T0))


def _wrap() -> None:
    import sim.runs.forked as forked
    import sim.store as store

    merge = store.merge_chunks

    def merged(*a, **k):
        _mark("merge")
        out = merge(*a, **k)
        _mark("report")
        return out

    def played(f):
        def g(*a, **k):
            _mark("play")
            yield from f(*a, **k)
        return g

    store.merge_chunks = merged
    forked.pool_results, forked.forked_results = played(forked.pool_results), played(forked.forked_results)


def main() -> None:
    threading.Thread(target=_sample, daemon=True).start()
    marks.append(("start-up", 0.0))
    _wrap()
    from sim.cli import main as sim_main

    sys.argv = ["sim", *sys.argv[1:]]
    try:
        sim_main()
    except SystemExit:
        pass
    _mark("end")
    time.sleep(2 * SAMPLE_S)
    for (name, a), (_, b) in zip(marks, marks[1:], strict=False):
        got = [x for t, x in samples if a < t <= b]
        busy = sum(got) / max(1, len(got))
        idle = sum(CORES - x for x in got) * SAMPLE_S
        print(f"{name:8s} {b - a:6.3f} s  busy {busy:4.2f} cores  idle {idle:5.3f} core-s", file=sys.stderr)
    print(f"whole    {marks[-1][1]:6.3f} s (from this script's start)", file=sys.stderr)


if __name__ == "__main__":
    main()
