"""Shared test helpers."""

from __future__ import annotations

import pytest

from sim.api import CHANCE, TERMINAL, sample_chance
from sim.registry import build_any_count, games
from sim.seeding import game_streams

GAME_NAMES = list(games())


def player_counts(name: str) -> list[int]:
    info = games()[name].info
    return list(range(info.min_players, info.max_players + 1))


ALL_GAME_SEATS = [(g, n) for g in GAME_NAMES for n in player_counts(g)]


def random_walk(game, seed: int, check=None, max_steps: int = 200_000):
    """Play ``game`` with uniformly random legal actions (chance from its own stream).

    ``check(state, player)`` is called before every step. Returns ``(state, steps, ended)``.
    """
    chance, (rng, *_) = game_streams(seed, 0, 1)
    s = game.new_initial_state()
    cap = game.options.max_decisions
    decisions = 0
    for step in range(max_steps):
        p = game.current_player(s)
        if check is not None:
            check(s, p)
        if p == TERMINAL:
            return s, step, True
        if p == CHANCE:
            a = sample_chance(game, s, chance)
        else:
            if decisions >= cap:
                return s, step, False
            legal = game.legal_actions(s)
            assert legal, "a decision node must offer legal actions"
            a = legal[rng.randrange(len(legal))]
            decisions += 1
        game.apply_action(s, a)
    raise AssertionError("game neither ended nor reached its decision cap")


@pytest.fixture
def build():
    def _build(name: str, players: int, **options):
        return build_any_count(name, players, options)

    return _build
