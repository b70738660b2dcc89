"""Helpers for the conformance tests of every registered strategy (ties, dead parameters):
the strategies that play each game, decision states sampled from playouts, and the distribution
of a strategy's choices at a state over many seeds."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from scipy import stats

from sim.api import CHANCE, TERMINAL, sample_chance
from sim.registry import build_any_count, games, make_strategy, resolve_strategy, strategies
from sim.seeding import game_streams
from strategies.common import RandomByKindStrategy

# test-sized params: search at its default budget is too slow to ask hundreds of times
LIGHT = {"search": {"iterations": 6, "max_depth": 4}}


def plays(name: str, game: str) -> bool:
    """Whether registered strategy ``name`` plays ``game`` (no ``games`` declared: any game)."""
    allowed = getattr(resolve_strategy(name), "games", ()) or ()
    return not allowed or game in allowed


def game_strategies() -> list[tuple[str, str]]:
    """``(game, strategy)`` for every registered strategy of every game that it plays (a strategy
    added to the registry, such as a game's expert, is covered without editing the tests)."""
    return [(g, n) for g in games() for n in strategies() if plays(n, g)]


def decision_states(game: Any, seats: Sequence[Any], chance: random.Random, rngs: Sequence[random.Random]) -> list:
    """Every decision state (at least two legal actions) of one game of ``game`` played by
    ``seats`` (one strategy per seat) with the given streams, deep-copied: ``[(state, seat), ...]``."""
    s, out = game.new_initial_state(), []
    for _ in range(game.options.max_decisions):
        p = game.current_player(s)
        if p == TERMINAL:
            break
        if p == CHANCE:
            game.apply_action(s, sample_chance(game, s, chance))
            continue
        legal = game.legal_actions(s)
        if len(legal) > 1:
            out.append((copy.deepcopy(s), p))
        game.apply_action(s, seats[p].choose(game.observe(s, p), legal, rngs[p]))
    return out


@cache
def sampled_states(game_name: str, players: int = 2, playouts: int = 3, per_playout: int = 6) -> tuple:
    """``(game, [(state, seat), ...])``: decision states with at least two legal actions, evenly
    spread over ``playouts`` ``random_by_kind`` games (fixed seeds), deep-copied."""
    game = build_any_count(game_name, players)
    out = []
    for k in range(playouts):
        chance, rngs = game_streams(20_261_201, k, players)
        seen = decision_states(game, [RandomByKindStrategy()] * players, chance, rngs)
        step = max(1, len(seen) // per_playout)
        out.extend(seen[step // 2::step][:per_playout])
    return game, out


def choice_counts(game: Any, game_name: str, name: str, obs: Any, legal: Sequence[Any], seeds: Sequence[int],
                  reorder: Callable[[list, random.Random], list] | None = None, params: dict | None = None) -> Counter:
    """How often strategy ``name`` (built afresh for every call) picks each action of ``legal``
    (by index in ``legal``) with ``rng = Random(seed)`` for each seed; ``reorder(list, rng)``
    presents the legal actions in another order first (its own rng, seeded apart)."""
    counts: Counter = Counter()
    p = {**LIGHT.get(name, {}), **(params or {})}
    for seed in seeds:
        strat = make_strategy(name, p, game_name, game=game)
        shown = list(legal) if reorder is None else reorder(list(legal), random.Random(10**6 + seed))
        a = strat.choose(obs, tuple(shown), random.Random(seed))
        counts[legal.index(a)] += 1
    return counts


def same_distribution_p(a: Counter, b: Counter) -> float:
    """p-value of the chi-square test that two samples of choices come from one distribution
    (``scipy.stats.chi2_contingency`` on the 2 x k table of the actions chosen at all)."""
    keys = sorted(set(a) | set(b))
    if len(keys) < 2:
        return 1.0
    return float(stats.chi2_contingency([[a[k] for k in keys], [b[k] for k in keys]]).pvalue)


# ------------------------------------------------------------------ strategies that must fail the checks
class SeatBiased:
    """Plays first-listed as seat 0 and at random otherwise: the seat-label check must catch it."""

    def choose(self, obs, legal, rng):
        return legal[0] if obs.seat == 0 else legal[int(rng.random() * len(legal))]


class Knob:
    """``live`` picks the action's index (capped), ``dead`` does nothing: the parameter check must
    find the one and not the other."""

    from pydantic import BaseModel as _Base

    class Params(_Base):
        live: int = 0
        dead: bool = False

    def __init__(self, **params):
        self.p = self.Params(**params)

    def choose(self, obs, legal, rng):
        return legal[min(self.p.live, len(legal) - 1)]
