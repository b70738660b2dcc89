"""How much faster ``--jobs 2`` runs a whole ``sim run`` than ``--jobs 1`` (issue 20 item 1: at least
1.85x), with the uncertainty this machine's drift puts on it. README "Speed", docs/speed.md rounds fourteen and fifteen.

    python benchmarks/jobs_ratio.py [CONFIG] [--pairs 20] [--target 1.85] [--out /tmp/jobs_ratio] [--steady 0.10]
                                    [--lowest CPU1,CPU2]
    python benchmarks/jobs_ratio.py --summarise FILE [FILE ...] [--lowest CPU1,CPU2]

Plays CONFIG (default ``configs/traders_of_osaka/speed_random4.yaml``, 20,000 random Osaka games)
``--pairs`` times with each job count, the two runs of a pair next to each other and their order
swapped every pair (one, two; two, one; ...) so a steady drift of the machine's speed favours
neither. Each run is the command as a user types it (start-up, play, merge and report), timed from
outside. Prints every pair (wall and CPU seconds, ``ratio = wall(--jobs 1) / wall(--jobs 2)``), then
the median ratio with its distribution-free confidence interval and the one-sided sign test of
"median > target" (``scipy.stats.quantile_test``), and the best run of each count against the other.
A pair's ratio moves by +-15% on this shared machine with the same code; the median of many is the
figure to quote. Run it with nothing else running (a helper's load takes a core ``--jobs 2`` needs).

The machine's own speed is sampled before and after every pair: the same pure-Python loop on both
cores at once (``spin_both``, CPU seconds; about 0.09 s when this machine is quiet, up to 0.18 s in
its slow spells, when the host's other guests take the cores from under us without it showing as
steal time). A pair whose two samples both lie within ``--steady`` (default 10%) of the fastest
sample of the session is *steady*; the summary is printed for every pair and for the steady ones,
chosen by the machine's speed alone, never by the ratio. A pair is *clean* when each of its runs
used at most ``--steady`` more CPU seconds than the lowest of its job count (``clean``): the same
games cost the same CPU time unless the host disturbed the run, so this tells a disturbed run by
itself, where the samples around it only tell the moments before and after. The lowest is this
set's unless ``--lowest A,B`` gives it (from earlier sets of the same config and code): a set in
which one job count never ran undisturbed has no clean pairs worth the name on its own.
``--summarise`` plays nothing and summarises saved outputs of this script together (sessions 14
and 15's sets are in ``benchmarks/jobs_ratio_sets/``).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIM = [sys.executable, "-m", "sim"]


class RunFailed(Exception):
    """A ``sim run`` of a pair ended with a status other than 0; the text names it and what it printed."""


def timed_run(config: str, jobs: int, out: str) -> tuple[float, float, int]:
    """One ``sim run CONFIG --jobs N --quiet`` from start to exit: ``(wall s, CPU s, failed games)``,
    CPU of every process it started and reaped (not the second figure helper of ``--jobs 2``: the
    kernel reaps it), failed games from its ``games.parquet``. Raises ``RunFailed`` if it fails
    (with the end of what it printed). On Ctrl-C (which reaches ``sim`` too) it waits for ``sim`` to
    stop by itself, a second Ctrl-C included, so no run folder is left locked, then re-raises."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([*SIM, "run", config, "--jobs", str(jobs), "--out", out, "--force", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = proc.communicate()[0]
    except KeyboardInterrupt:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave sim behind
        try:
            proc.send_signal(signal.SIGINT)  # as from the terminal, if it came from elsewhere
            proc.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
        raise
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RunFailed(f"sim run {config} --jobs {jobs} exited with status {proc.returncode}:\n{said[-800:].strip()}")
    import polars as pl  # noqa: PLC0415 - after the timing: not in the measured process anyway

    failed = int(pl.read_parquet(Path(out) / "games.parquet", columns=["failed"])["failed"].sum())
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), failed


# a fixed pure-Python loop; prints the CPU seconds it took in a fresh interpreter (not a fork of this
# process: polars' threads run here once a table was read, and a fork of a threaded process can hang)
SPIN = """import time
def spin():
    t, x = time.process_time(), 0
    for i in range(3_000_000):
        x += i * i
    return time.process_time() - t
print(spin())"""


def spin_both() -> float:
    """The machine's speed with both cores busy: ``SPIN`` in two processes at once, the larger of
    their CPU seconds (the slower core is the one ``--jobs 2`` waits for); NaN if one failed."""
    procs = [subprocess.Popen([sys.executable, "-c", SPIN], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    out = [p.communicate()[0].strip() for p in procs]
    return max(float(x) if x else float("nan") for x in out)


def steady(spins: list[tuple[float, float]], tolerance: float) -> list[bool]:
    """Which pairs ran on a steady machine: both samples (before, after; CPU seconds of ``spin_both``)
    within ``tolerance`` (0.10 = 10%) of the fastest sample of all."""
    best = min(min(pair) for pair in spins)
    return [max(pair) <= best * (1 + tolerance) for pair in spins]


def clean(cpus: list[tuple[float, float]], tolerance: float,
          lowest: tuple[float, float] | None = None) -> list[bool]:
    """Which pairs ran clean: both runs' CPU seconds (``(--jobs 1, --jobs 2)`` per pair) within
    ``tolerance`` of the lowest of their job count (``lowest``, else the lowest in ``cpus``). The same
    games cost the same CPU seconds on a quiet machine; when the host takes the cores from under us
    (no steal time shows) they grow, so a run near its count's lowest ran undisturbed. Chosen by each
    run's own CPU time, never by the ratio."""
    low1, low2 = lowest or lowest_cpus(cpus)
    return [a <= low1 * (1 + tolerance) and b <= low2 * (1 + tolerance) for a, b in cpus]


def lowest_cpus(cpus: list[tuple[float, float]]) -> tuple[float, float]:
    """The lowest CPU seconds of ``--jobs 1`` and of ``--jobs 2`` among ``cpus`` (one pair each)."""
    return min(c for c, _ in cpus), min(c for _, c in cpus)


def summarise(ratios: list[float], target: float, level: float = 0.95) -> dict[str, float]:
    """The pairs' median ratio, its distribution-free ``level`` interval (order statistics, as
    ``scipy.stats.quantile_test(...).confidence_interval``) and the one-sided sign test's p of
    "the median ratio is above ``target``". ``ratios``: at least one pair's ratio (dimensionless).
    The interval is NaN at an end the sample is too small to bound (under 6 pairs at 0.95)."""
    from scipy.stats import quantile_test

    two_sided = quantile_test(ratios, q=target, p=0.5)
    ci = two_sided.confidence_interval(level)
    above = quantile_test(ratios, q=target, p=0.5, alternative="greater")
    return {"median": statistics.median(ratios), "low": float(ci.low), "high": float(ci.high),
            "p_above": float(above.pvalue), "below": sum(r < target for r in ratios)}


def _two_floats(text: str) -> tuple[float, float]:
    """``--lowest``'s ``A,B``: two CPU seconds, each finite and above 0 (``_positive``)."""
    try:
        a, b = (_positive(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected two CPU seconds, each above 0 and finite, as A,B (e.g. 12.3,12.2), got {text!r}") from None
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", nargs="?", default=None,
                    help="the config to play (default configs/traders_of_osaka/speed_random4.yaml)")
    ap.add_argument("--pairs", type=int, default=20, help="pairs of runs (default 20, about 9 minutes)")
    ap.add_argument("--target", type=float, default=1.85, help="the ratio asked for (default 1.85)")
    ap.add_argument("--out", default="/tmp/jobs_ratio", help="run folders OUT1 and OUT2 (replaced)")
    ap.add_argument("--steady", type=float, default=0.10,
                    help="the tolerance of steady pairs (machine samples) and clean pairs (CPU seconds), 0 to 1 (0.10)")
    ap.add_argument("--lowest", type=_two_floats, default=None, metavar="CPU1,CPU2",
                    help="the lowest CPU seconds of --jobs 1 and --jobs 2 seen for this config and code"
                         " (clean pairs; default: the lowest among the pairs summarised)")
    ap.add_argument("--summarise", nargs="+", metavar="FILE", default=None,
                    help="play nothing: summarise the pairs in these saved outputs of this script, together")
    args = ap.parse_args()
    _check(ap, args)
    try:
        if args.summarise:
            pairs, spins, cpus = _read_or_refuse(ap, args.summarise)
            print(f"{len(pairs)} pairs from {len(args.summarise)} file(s)")
            _summaries(pairs, spins, cpus, args)
            return
        pairs, spins, cpus, failed, status = _play_pairs(args)
        if pairs:
            print(f"load {os.getloadavg()[0]:.2f}, {time.strftime('%H:%M:%S')}")
            if failed:
                print(f"warning: {failed} game(s) of each run failed: the ratio times the failure path as much as play")
            _summaries(pairs, spins, cpus, args)
    except KeyboardInterrupt:
        print("interrupted (exit status 130)")
        sys.exit(130)
    except BrokenPipeError:  # `... | head`: the reader has gone; nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(status)


def _check(ap: argparse.ArgumentParser, args) -> None:
    """Refuse options that contradict each other or make no sense (``ap.error``: exit status 2)."""
    if args.summarise and (args.config is not None or args.pairs != 20):
        ap.error("--summarise plays nothing: give no CONFIG and no --pairs with it")
    if args.pairs < 1:
        ap.error("--pairs must be at least 1")
    if not 0 <= args.steady <= 1:  # NaN fails too
        ap.error(f"--steady must be a tolerance from 0 to 1 (0.10 = 10%), got {args.steady}")
    if not 0 < args.target < math.inf:
        ap.error(f"--target must be a ratio above 0, got {args.target}")
    if not args.summarise:
        args.config = args.config or str(ROOT / "configs/traders_of_osaka/speed_random4.yaml")
        if not Path(args.config).is_file():
            ap.error(f"config {args.config}: no such file")


def _read_or_refuse(ap: argparse.ArgumentParser, files: list[str]) -> tuple[list, list, list]:
    """``read_pairs(files)``, its errors (and a file named twice) as ``ap.error``."""
    if len({Path(f).resolve() for f in files}) < len(files):
        ap.error("a file is named twice in --summarise: its pairs would count twice")
    try:
        return read_pairs(files)
    except OSError as exc:
        ap.error(f"{exc.filename}: cannot be read ({exc.strerror})")
    except ValueError as exc:
        ap.error(str(exc))


def _play_pairs(args) -> tuple[list, list, list, int, int]:
    """Play ``args.pairs`` pairs, printing each: ``(pairs (wall 1, wall 2, ratio), machine samples,
    CPU seconds, failed games, exit status)``; the status is 130 after Ctrl-C and 1 when a run failed
    (the pairs before it are still summarised)."""
    config, out = str(Path(args.config).resolve()), str(Path(args.out).resolve())  # as given from here
    print(f"load {os.getloadavg()[0]:.2f}, {time.strftime('%H:%M:%S')}, {config}, run folders {out}1 and {out}2")
    pairs, spins, cpus, failed = [], [], [], 0
    try:
        for i in range(args.pairs):
            before, got = spin_both(), {}
            for jobs in ((1, 2) if i % 2 == 0 else (2, 1)):
                got[jobs] = timed_run(config, jobs, f"{out}{jobs}")
            after = spin_both()
            pairs.append((got[1][0], got[2][0], got[1][0] / got[2][0]))  # once both machine samples are in
            cpus.append((got[1][1], got[2][1]))
            spins.append((before, after))
            failed = max(failed, got[1][2])
            print(f"{time.strftime('%H:%M:%S')} pair {i + 1:2d}: --jobs 1 {got[1][0]:7.3f} s ({got[1][1]:6.3f} CPU-s)"
                  f"  --jobs 2 {got[2][0]:7.3f} s ({got[2][1]:6.3f} CPU-s)  ratio {pairs[-1][2]:.3f}"
                  f"  machine {before:.3f}/{after:.3f} CPU-s", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {len(pairs)} whole pair(s)"
              + ("; the summary covers those (exit status 130)" if pairs else "; nothing to summarise"))
        return pairs, spins, cpus, failed, 130
    except RunFailed as exc:
        print(f"{exc}\nstopped after {len(pairs)} whole pair(s)" + ("; the summary covers those" if pairs else ""))
        return pairs, spins, cpus, failed, 1
    return pairs, spins, cpus, failed, 0


_PAIR_START = re.compile(r"pair\s+\d+: --jobs 1\s")
_PAIR = re.compile(r"pair\s+\d+: --jobs 1\s+(\S+) s \(\s*(\S+) CPU-s\)\s+--jobs 2\s+(\S+) s \(\s*(\S+) CPU-s\)"
                   r"(?:\s+ratio (\S+))?(?:\s+machine (\S+)/(\S+) CPU-s)?\s*$")


def read_pairs(files: list[str]) -> tuple[list, list, list]:
    """The pairs printed in saved outputs of this script (``pair N: --jobs 1 W s (C CPU-s) --jobs 2
    W s (C CPU-s) ratio R machine A/B CPU-s``): ``(pairs (wall 1, wall 2, ratio), machine samples,
    CPU seconds)``. The ratio is the one printed (from unrounded walls), else wall 1 / wall 2; a pair
    without samples (older outputs) has ``(nan, nan)``. Raises ``OSError`` for a file that cannot be
    read and ``ValueError`` naming the file (and line) for one that is not text, a pair line that
    cannot be read or has a figure that is not a finite number above 0, or when no file holds a pair."""
    pairs, spins, cpus = [], [], []
    for f in files:
        try:
            lines = Path(f).read_text().splitlines()
        except UnicodeDecodeError:
            raise ValueError(f"{f}: not a text file (an output of this script is text)") from None
        for n, line in enumerate(lines, 1):
            if not _PAIR_START.search(line):
                continue
            m = _PAIR.search(line)
            try:
                w1, c1, w2, c2, ratio, *sp = (_positive(x) if x is not None else math.nan for x in m.groups())
            except (AttributeError, ValueError):  # no match, or a figure that is not a positive number
                raise ValueError(f"{f}, line {n}: not a pair line of this script with figures above 0:"
                                 f" {line.strip()[:200]!r}") from None
            pairs.append((w1, w2, w1 / w2 if math.isnan(ratio) else ratio))
            cpus.append((c1, c2))
            spins.append(tuple(sp))
    if not pairs:
        raise ValueError(f"no pair line (\"pair N: --jobs 1 ...\") in {', '.join(files)}")
    return pairs, spins, cpus


def _positive(text: str) -> float:
    """``float(text)``, raising ``ValueError`` unless it is finite and above 0."""
    x = float(text)
    if not 0 < x < math.inf:
        raise ValueError(text)
    return x


def _summaries(pairs: list, spins: list, cpus: list, args) -> None:
    """Print the summaries of every pair, the steady ones and the clean ones."""
    _report("every pair", pairs, args.target)
    sampled = [(p, sp) for p, sp in zip(pairs, spins, strict=True) if not math.isnan(min(sp))]
    if sampled:
        ok = steady([sp for _, sp in sampled], args.steady)
        _report(f"steady pairs (machine within {args.steady:.0%} of its fastest,"
                f" {min(min(sp) for _, sp in sampled):.3f} CPU-s)",
                [p for (p, _), k in zip(sampled, ok, strict=True) if k], args.target)
    low = args.lowest or lowest_cpus(cpus)
    whose = "given by --lowest" if args.lowest else "the lowest of these pairs: give --lowest to judge a few"
    _report(f"clean pairs (each run's CPU seconds within {args.steady:.0%} of {low[0]:.2f} (--jobs 1) and"
            f" {low[1]:.2f} (--jobs 2), {whose})",
            [p for p, ok in zip(pairs, clean(cpus, args.steady, low), strict=True) if ok], args.target)


def _report(what: str, pairs: list[tuple[float, float, float]], target: float) -> None:
    """Print the summary of ``pairs`` (``(wall --jobs 1, wall --jobs 2, ratio)``, seconds)."""
    if not pairs:
        print(f"{what}: none")
        return
    s = summarise([r for _, _, r in pairs], target)
    b1, b2 = min(p[0] for p in pairs), min(p[1] for p in pairs)
    ci = ("95% CI: needs at least 6 pairs" if math.isnan(s["low"]) else  # the order statistics cannot cover 95% yet
          f"95% CI {s['low']:.3f}-{s['high']:.3f}, distribution-free")
    print(f"{what}: median ratio {s['median']:.3f}x over {len(pairs)} ({ci}); {s['below']} below {target}x;"
          f" sign test of median > {target}x: p = {s['p_above']:.3g}; best against best {b1:.3f} / {b2:.3f} s ="
          f" {b1 / b2:.3f}x")


if __name__ == "__main__":
    main()
