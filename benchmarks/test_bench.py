"""Games/s of every engine (random players, 4 seats or the game's maximum) and of every shipped
baseline config, through the one game loop (``sim.play.play_game``), on one core.

Each benchmark plays a fixed block of games (the same seeds every time) per round; pytest-benchmark
reports the time per block, and ``extra_info`` holds games/s and decisions/s of the fastest round.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.config import load_config
from sim.play import play_game, play_one, prepared
from sim.registry import build_any_count, games, make_strategy
from sim.runs.fixed import setup_of
from sim.seeding import game_streams

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(games())
BASELINES = sorted(g for g in GAMES if (ROOT / "configs" / g / "baseline.yaml").is_file())
RANDOM_GAMES, BASELINE_GAMES, ROUNDS = 20, 4, 3


def _record(benchmark, n_games: int, decisions: int) -> None:
    best = benchmark.stats.stats.min
    benchmark.extra_info.update(games=n_games, decisions=decisions, games_per_s=round(n_games / best, 1),
                                decisions_per_s=round(decisions / best))


@pytest.mark.parametrize("game", GAMES)
def test_random(benchmark, game):
    n = min(4, games()[game].info.max_players)
    g = build_any_count(game, n)
    strat = [make_strategy("random", {}, game, game=g) for _ in range(n)]

    def run() -> int:
        d = 0
        for i in range(RANDOM_GAMES):
            chance, rngs = game_streams(0, i, n)
            d += play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions).n_decisions
        return d

    decisions = benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    _record(benchmark, RANDOM_GAMES, decisions)


@pytest.mark.baseline
@pytest.mark.parametrize("game", BASELINES)
def test_baseline(benchmark, game):
    setup = setup_of(load_config(ROOT / "configs" / game / "baseline.yaml"))
    s, g, factories = prepared(setup.to_json())

    def run() -> int:
        return sum(play_one(s, g, factories, i)[0].n_decisions for i in range(BASELINE_GAMES))

    decisions = benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    _record(benchmark, BASELINE_GAMES, decisions)
