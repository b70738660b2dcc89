"""Where the time goes: cProfile of each engine's random play and of each shipped baseline config.

    python benchmarks/profile_games.py [--games 50] [--baseline-games 10] [--top 5] [GAME ...]

Prints, per game and setup, the ``--top`` functions by own time (``tottime``) with their share of
the profiled total, games/s and decisions/s under the profiler (slower than ``sim bench``: the
shares are what matter). Plays through ``sim.play.play_game`` exactly as ``sim bench`` and
``sim run`` do (random: 4 players or the game's maximum; baseline: ``configs/<game>/baseline.yaml``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from sim.config import load_config
from sim.play import play_game, play_one, prepared
from sim.registry import build_any_count, games, make_strategy
from sim.runs.fixed import setup_of
from sim.seeding import streams_of  # the streams a run derives (same draws as game_streams)

ROOT = Path(__file__).resolve().parents[1]


def random_play(game: str, n_games: int):
    """A thunk playing ``n_games`` random games of ``game`` (4 players or its maximum); returns decisions."""
    n = min(4, games()[game].info.max_players)
    g = build_any_count(game, n)
    strat = [make_strategy("random", {}, game, game=g) for _ in range(n)]

    def run() -> int:
        d = 0
        for i in range(n_games):
            chance, rngs = streams_of(0, i, n)
            d += play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions).n_decisions
        return d
    return run


def baseline_play(game: str, n_games: int):
    """A thunk playing the first ``n_games`` games of ``configs/<game>/baseline.yaml``; returns decisions."""
    setup = setup_of(load_config(ROOT / "configs" / game / "baseline.yaml"))
    s, g, factories = prepared(setup.to_json())

    def run() -> int:
        return sum(play_one(s, g, factories, i)[0].n_decisions for i in range(n_games))
    return run


def profile(label: str, run, n_games: int, top: int) -> None:
    prof = cProfile.Profile()
    t0 = time.process_time()
    prof.enable()
    decisions = run()
    prof.disable()
    dt = time.process_time() - t0
    st = pstats.Stats(prof)
    total = sum(v[2] for v in st.stats.values()) or 1.0
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]
    print(f"## {label}: {n_games / dt:.1f} games/s, {decisions / dt:,.0f} decisions/s under cProfile (CPU)")
    for (file, line, fn), (_, ncalls, tt, _ct, _) in rows:
        where = f"{Path(file).parent.name}/{Path(file).name}:{line}" if line else file
        print(f"  {100 * tt / total:5.1f}%  {fn}  ({where}, {ncalls:,} calls)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="*", help="games (default: all registered)")
    ap.add_argument("--games", type=int, default=50, help="random games per engine")
    ap.add_argument("--baseline-games", type=int, default=10, help="games of each baseline config")
    ap.add_argument("--top", type=int, default=5)
    a = ap.parse_args()
    for game in a.game or sorted(games()):
        profile(f"{game} random", random_play(game, a.games), a.games, a.top)
        if (ROOT / "configs" / game / "baseline.yaml").is_file():
            profile(f"{game} baseline", baseline_play(game, a.baseline_games), a.baseline_games, a.top)


if __name__ == "__main__":
    main()
