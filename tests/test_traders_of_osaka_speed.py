"""Traders of Osaka speed work (issue 20 items 3-4): the lazy observation view hides what the
seat may not know and reaches no state; the fast chance sampler agrees with ``chance_outcomes``."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from test_lazy_observation import _reachable  # the walk over instance data and closures

from sim.api import CHANCE, StaleObservationError, close_view, keep
from sim.games.traders_of_osaka.actions import BUY, TakeCoins
from sim.games.traders_of_osaka.engine import State, TradersOfOsaka
from sim.games.traders_of_osaka.observation import FIELDS, Observation
from sim.play import sample_chance
from sim.seeding import game_streams
from strategies.common import RandomStrategy


def _into_game(players: int, seed: int, steps: int) -> tuple[TradersOfOsaka, State, int]:
    g = TradersOfOsaka(players)
    chance, seats = game_streams(seed, 0, players)
    s = g.new_initial_state()
    strat = RandomStrategy()
    for _ in range(steps):
        p = g.current_player(s)
        if p == CHANCE:
            g.apply_action(s, sample_chance(g, s, chance))
        else:
            g.apply_action(s, strat.choose(keep(g.observe(s, p)), g.legal_actions(s), seats[p]))
    while (p := g.current_player(s)) < 0:
        g.apply_action(s, sample_chance(g, s, chance))
    return g, s, p


def test_view_reaches_neither_the_state_nor_hidden_lists():
    g, s, p = _into_game(3, 11, 150)
    view = g.observe(s, p)
    view.materialize()
    found = _reachable(view)
    hidden = [s, g, s.draw, s.vp, s.hands, *s.hands, s.goods, s.tokens, s.reserved, s.insured]
    assert not any(o is h for o in found for h in hidden)
    for name in dir(view):  # no public attribute hands out the state or the engine
        if not name.startswith("__"):
            value = getattr(view, name)
            assert value is not s and value is not g, name
    with pytest.raises(AttributeError):
        view.hand = ()  # read-only


def test_lazy_view_equals_the_detached_observation_of_every_field():
    g, s, p = _into_game(4, 2, 90)
    view = g.observe(s, p)
    full = Observation(*(getattr(view, f) for f in FIELDS))
    assert full == view and hash(full) == hash(view)
    assert full.hand == tuple(s.hands[p]) and full.hand_sizes == tuple(len(h) for h in s.hands)
    assert full.market == tuple(s.market) and full.draw_pile_size == len(s.draw)
    with pytest.raises(TypeError):
        Observation(0, 2)


def test_a_field_first_read_after_the_decision_raises():
    g, s, p = _into_game(2, 3, 40)
    view = g.observe(s, p)
    assert view.hand == tuple(s.hands[p])
    close_view(view)
    assert view.hand == tuple(s.hands[p])
    with pytest.raises(StaleObservationError):
        view.market  # noqa: B018


@pytest.mark.parametrize("steps", [0, 150])
def test_fast_sampler_agrees_with_chance_outcomes(steps):
    """Chi-square of 20,000 ``sample_chance`` draws against the exact outcome probabilities (at
    setup, all 108 cards; later, the draw pile). The statistic has mean df and sd sqrt(2 df)
    under agreement; df + 6 sd is far in the tail (p < 1e-5), a sampler skipping a card or
    favouring half the pile exceeds it many times over."""
    g, s, _ = _into_game(2, 9, steps)
    s.to_draw = s.to_draw or [-1]  # a pending Market draw: a chance node over the draw pile
    outcomes = dict(g.chance_outcomes(s))
    assert sum(outcomes.values()) == pytest.approx(1.0)
    rng = random.Random(17)
    counts = Counter(g.sample_chance(s, rng) for _ in range(20_000))
    assert set(counts) <= set(outcomes)
    keys = list(outcomes)
    chi2 = sum((counts.get(k, 0) - outcomes[k] * 20_000) ** 2 / (outcomes[k] * 20_000) for k in keys)
    df = len(keys) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5


def _turn_states(players: int, seed: int, games: int):
    """Every state at a decision of ``games`` random games (the engine's own chance sampler)."""
    g = TradersOfOsaka(players)
    strat = RandomStrategy()
    for gi in range(games):
        chance, seats = game_streams(seed, gi, players)
        s = g.new_initial_state()
        while (p := g.current_player(s)) != -2:
            if p == CHANCE:
                g.apply_action(s, g.sample_chance(s, chance))
                continue
            yield g, s, p
            g.apply_action(s, strat.choose(None, g.legal_actions(s), seats[p]))


@pytest.mark.parametrize("players", [2, 4])
def test_turn_legal_actions_built_at_turn_start_equal_a_fresh_scan(players):
    """The turn's legal actions are built in the turn-start pass and kept in ``State.legal`` (issue
    20 item 4). At every turn of 15 random games they equal the list a copy of the state without
    that cache builds from the Market, Farm and pieces, and its cost is the one ``buy_cost`` gives
    (unreserved Market cards plus the seat's own reservation, 'A. Buy Goods')."""
    turns = 0
    for g, s, p in _turn_states(players, 5, 15):
        if s.phase != 4:  # ACTION
            assert s.legal is None  # the cached list does not outlive its turn
            continue
        turns += 1
        fresh = dataclasses.replace(s, legal=None)
        assert s.legal is not None and g.legal_actions(s) == g.legal_actions(fresh)
        assert s.due == g.buy_cost(s, p)
        assert (BUY in s.legal) == (s.hand_value[p] >= s.due and any(isinstance(a, TakeCoins) for a in s.legal))
    assert turns > 100


def test_clone_shares_the_immutable_legal_list():
    g, s, _ = next((g, s, p) for g, s, p in _turn_states(3, 8, 1) if s.legal)
    c = g.clone(s)
    assert c.legal is s.legal and c == s and c.market is not s.market
