"""Where a whole ``sim run`` spends its CPU time (issue 20 item 1): a cProfile of the command as a
user runs it, split into start-up, engine, strategies, the game loop around them, per-game set-up
(streams, seating, strategy objects), building the rows, writing chunks, merging, the report's
analysis and its figures.

    python benchmarks/profile_run.py [CONFIG] [--games 5000] [--jobs 1] [--out DIR] [--forked]
    python benchmarks/profile_run.py [CONFIG] --games 20000 --jobs 2 --processes

With ``--jobs 1`` a run plays its chunks in a forked worker (``sim.runs.forked``), which a
profiler in the ``sim`` process does not see; so by default this plays them in the profiled
process itself (what the forked worker does: same chunks, same tables), and
``--forked`` keeps the worker (the play then shows only as the parent's wait). With ``--jobs 2``
or more only the parent is profiled: start-up, merge and report.

Prints each part's *share* of the profiled time (the profiler's own clock is the wall clock,
far cheaper per call than a CPU clock; it slows Python-level calls about 2x, so shares are what
count), then runs the same command again without the profiler and prints its CPU seconds
(``unprofiled CPU-s``): share x that total estimates each part's CPU time.

``--processes`` (no profiler; the command as a user runs it, forked workers kept): wall and CPU
seconds of each phase (start-up from the interpreter's start, play, merge, report) for the ``sim``
process and, per process, what the play workers and the figure helpers used (``/proc/PID/stat``,
read as each worker answers and at the end). On a busy machine the CPU seconds are the figures to
compare: two jobs on two idle cores take about ``start-up + max(worker CPU) + merge + report``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ct(stats: dict, name: str, file_part: str) -> float:
    """Cumulative time of the function ``name`` defined in a file whose path holds ``file_part``."""
    return sum(v[3] for (f, _, n), v in stats.items() if n == name and file_part in f)


def _own(stats: dict, file_part: str) -> float:
    """Own time (tottime) of every function defined in files whose path holds ``file_part``."""
    return sum(v[2] for (f, _, _), v in stats.items() if file_part in f)


def _children(stats: dict, name: str, file_part: str) -> dict:
    """``{callee: cumulative time spent in it when called from name}`` (the call graph's edges)."""
    out: dict = {}
    for callee, v in stats.items():
        for (f, _, n), edge in v[4].items():
            if n == name and file_part in f:
                out[callee] = out.get(callee, 0.0) + edge[3]
    return out


def split(stats: dict, total: float) -> list[tuple[str, float]]:
    """``[(part, seconds)]`` of a profiled run (see the module docstring); sums to ``total``.
    Engine and strategies: what ``play_game`` spends in calls into ``sim/games`` and into the
    seats' ``choose`` (the guard around each strategy included)."""
    run = _ct(stats, "run", "sim/runs/fixed.py")
    play_rng = _ct(stats, "play_range", "sim/play.py")
    one = _ct(stats, "play_one", "sim/play.py")
    loop = _ct(stats, "play_game", "sim/play.py")
    kids = _children(stats, "play_game", "sim/play.py")
    engine = sum(t for (f, _, _), t in kids.items() if "sim/games/" in f)
    strategies = sum(t for (f, _, n), t in kids.items() if n == "choose" or "/strategies/" in f)
    write = _ct(stats, "write_chunk", "sim/store.py")
    merge = _ct(stats, "merge_chunks", "sim/store.py")
    report = _ct(stats, "build_report", "sim/analysis/report.py")
    figures = _ct(stats, "render_figures", "sim/analysis/document.py")
    return [
        ("start-up (imports, config, game built, run folder)", total - run - report),
        ("engine (calls into sim/games)", engine),
        ("strategies (choose, with its guard)", strategies),
        ("game loop around them (play_game itself)", loop - engine - strategies),
        ("per-game set-up (streams, seating, strategy objects)", one - loop),
        ("rows and per-chunk tables (play_range)", play_rng - one),
        ("chunk files (write, hash, manifest)", write),
        ("merge (concatenate, coverage check, commit)", merge),
        ("rest of the run (progress bar, manifest)", run - play_rng - write - merge),
        ("report: analysis and documents", report - figures),
        ("report: figures (matplotlib)", figures),
    ]


def _proc_cpu(pid: int | str = "self") -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; -1 when gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            f = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _since_start() -> float:
    """Wall seconds since this process started (``/proc``)."""
    with open("/proc/self/stat") as fh:
        start = int(fh.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as fh:
        return float(fh.read().split()[0]) - start


def processes(args: list[str]) -> None:
    """``--processes``: see the module docstring."""
    import sim.analysis.figure_helpers as fh
    import sim.cli.commands_play as cp
    import sim.runs.forked as forked
    from sim import store
    from sim.cli import cli
    from sim.runs import fixed

    marks: list[tuple[str, float, float]] = [("start-up", time.perf_counter() - _since_start(), 0.0)]
    workers: dict[int, float] = {}

    def wrap(mod, name: str, label: str) -> None:
        f = getattr(mod, name)

        def timed(*a, **k):
            marks.append((label, time.perf_counter(), _proc_cpu()))
            try:
                return f(*a, **k)
            finally:
                if label == "play":
                    forked.reap(True)  # the workers' CPU is read as they answer
                marks.append((label + " end", time.perf_counter(), _proc_cpu()))
        setattr(mod, name, timed)

    result = forked.Worker.result

    def answered(self):
        res = result(self)
        workers[self.pid] = _proc_cpu(self.pid)
        return res
    forked.Worker.result = answered
    wrap(fixed, "play_ranges", "play")
    wrap(store, "merge_chunks", "merge")
    wrap(cp, "build_report", "report")
    cli(args, prog_name="sim", standalone_mode=False)
    marks.append(("end", time.perf_counter(), _proc_cpu()))
    print("| phase | wall s | sim process CPU s |\n|---|---:|---:|")
    for (name, t, c), (_, t2, c2) in zip(marks, marks[1:], strict=False):
        if name.endswith(" end"):
            name = f"between {name[:-4]} and the next phase"
        print(f"| {name} | {t2 - t:.2f} | {c2 - c:.2f} |")
    print(f"| whole command | {marks[-1][1] - marks[0][1]:.2f} | {marks[-1][2]:.2f} |")
    for pid, cpu in workers.items():
        print(f"play worker {pid}: {cpu:.2f} CPU-s")
    for h in fh._HELPERS:  # the first helper, then those it forked (their pid known once they drew)
        if h.pid:
            print(f"figure helper {h.pid}: {_proc_cpu(h.pid):.2f} CPU-s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", nargs="?", default=str(ROOT / "configs/traders_of_osaka/speed_random4.yaml"))
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="/tmp/sim-profile-run")
    ap.add_argument("--no-plain", action="store_true", help="skip the unprofiled second run")
    ap.add_argument("--forked", action="store_true", help="--jobs 1: keep the forked worker (its play is not profiled)")
    ap.add_argument("--processes", action="store_true", help="no profiler: wall and CPU per phase and per process")
    a = ap.parse_args()
    if a.processes:
        processes(["run", a.config, "--games", str(a.games), "--jobs", str(a.jobs), "--out", a.out, "--force", "--quiet"])
        return
    if a.jobs == 1 and not a.forked:
        import sim.runs.forked as forked
        from sim.play import play_range

        # play the chunks in this (profiled) process: the forked worker's rows, made into tables as
        # the parent does; patching ``can_fork`` no longer serves (a setup that may not fork plays in loky)
        forked.forked_results = lambda setup_json, ranges, out=None: (play_range(setup_json, a, b) for a, b in ranges)
    args = ["run", a.config, "--games", str(a.games), "--jobs", str(a.jobs), "--out", a.out, "--force", "--quiet"]
    prof = cProfile.Profile()  # wall-clock timer: far cheaper than a CPU timer; shares are what count
    t0 = time.perf_counter()
    prof.enable()
    from sim.cli import cli  # imports are part of start-up

    try:
        cli(args, prog_name="sim", standalone_mode=False)
    finally:
        prof.disable()
    total = time.perf_counter() - t0
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    print(f"\nprofiled: {a.games} games, --jobs {a.jobs}, {total:.2f} s under the profiler (parent process)")
    print("| part | share |\n|---|---:|")
    for name, sec in split(stats, total):
        print(f"| {name} | {100 * sec / total:.1f}% |")
    if not a.no_plain:
        code = ("import time,sys; t=time.process_time(); from sim.cli import cli; "
                f"cli({args!r}, prog_name='sim', standalone_mode=False); print('unprofiled CPU-s (sim process)', round(time.process_time()-t, 2),"
                " file=sys.stderr)")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t1 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        print(f"unprofiled, all processes (the sim process, its forked or loky workers): {cpu:.2f} CPU-s,"
              f" {time.perf_counter() - t1:.2f} s wall, {a.games / cpu:.0f} games per CPU-second")


if __name__ == "__main__":
    main()
