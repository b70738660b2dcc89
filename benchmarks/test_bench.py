"""Games/s of every engine (random players, 4 seats or the game's maximum) and of every shipped
baseline config, through the one game loop (``sim.play.play_game``), on one core.

Each benchmark plays a fixed block of games (the same seeds every time) per round; pytest-benchmark
reports the time per block, and ``extra_info`` holds games/s and decisions/s of the fastest round.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from profile_games import baseline_play, random_play  # the same thunks the profiler runs

from sim.registry import games

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
    decisions = benchmark.pedantic(random_play(game, RANDOM_GAMES), rounds=ROUNDS, iterations=1, warmup_rounds=1)
    _record(benchmark, RANDOM_GAMES, decisions)


@pytest.mark.baseline
@pytest.mark.parametrize("game", BASELINES)
def test_baseline(benchmark, game):
    decisions = benchmark.pedantic(baseline_play(game, BASELINE_GAMES), rounds=ROUNDS, iterations=1, warmup_rounds=1)
    _record(benchmark, BASELINE_GAMES, decisions)
