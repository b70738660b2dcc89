"""Hash the full action logs of Alpenzian configs: a speed change must leave every decision alone.

    python benchmarks/alpenzian_logs.py            # baseline.yaml (40 games) and expert_4p.yaml (12 games)
    python benchmarks/alpenzian_logs.py --time 3   # also: CPU seconds of play_one, best of 3, as games/s

Prints per config the sha256 of the games' logs: for each game in index order, ``repr`` of
``play_one(setup, game, factories, i, record=True)[0].log`` (a list of ``(seat, action)``) fed to
one ``hashlib.sha256`` in turn. Expected at 2ecf2a2 (issue 20 item 2, rounds five and six):
baseline ``950c9285c91d9fef...``, expert_4p ``4c03c57a911f62c3...``; ``--check`` exits 1 when a
hash differs from these. ``--time N`` plays the same games ``N`` times more without recording
and prints games per CPU-second (``time.process_time``), best of ``N``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from sim.config import load_config
from sim.play import play_one, prepared
from sim.runs.fixed import setup_of

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"baseline": ("configs/alpenzian/baseline.yaml", 40, "950c9285c91d9fef"),
           "expert_4p": ("configs/alpenzian/expert_4p.yaml", 12, "4c03c57a911f62c3")}


def prepare(path: str):
    """``(setup, game, factories)`` of a config, as ``sim run`` builds them."""
    return prepared(setup_of(load_config(ROOT / path)).to_json())


def log_hash(path: str, n_games: int) -> str:
    """sha256 (hex) of the logs of games ``0 .. n_games - 1`` of the config at ``path``."""
    s, g, f = prepare(path)
    h = hashlib.sha256()
    for i in range(n_games):
        h.update(repr(play_one(s, g, f, i, record=True)[0].log).encode())
    return h.hexdigest()


def games_per_cpu_s(path: str, n_games: int, repeats: int) -> float:
    """Games per CPU-second of ``play_one`` over games ``0 .. n_games - 1``, best of ``repeats``."""
    s, g, f = prepare(path)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for i in range(n_games):
            play_one(s, g, f, i)
        best = min(best, time.process_time() - t0)
    return n_games / best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=int, default=0, metavar="N", help="also time the games, best of N")
    ap.add_argument("--check", action="store_true", help="exit 1 when a hash differs from the expected one")
    ap.add_argument("--only", choices=sorted(CONFIGS), help="one config only")
    args = ap.parse_args(argv)
    bad = 0
    for name, (path, n, expected) in CONFIGS.items():
        if args.only and name != args.only:
            continue
        got = log_hash(path, n)
        ok = got.startswith(expected)
        bad += not ok
        line = f"{name}: {n} games sha256 {got[:16]}... {'same' if ok else 'DIFFERENT'}"
        if args.time:
            line += f"; {games_per_cpu_s(path, n, args.time):.1f} games/CPU-s (best of {args.time})"
        print(line, flush=True)
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
