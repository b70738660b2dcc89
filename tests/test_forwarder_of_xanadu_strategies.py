"""Forwarder of Xanadu strategies: no dead parameters, ties never by list position, proxies on
one action, the expert against the plans (issue 17; rulebook seeds/000)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from sim.api import CHANCE, keep
from sim.games.forwarder_of_xanadu.actions import (
    FULFIL,
    SKILL,
    TRANSPORT,
    EndAction,
    FulfilOrder,
    Move,
    PlaceProxy,
    PlaceResource,
    PlaceWorker,
    UseSkill,
)
from sim.games.forwarder_of_xanadu.engine import ACT, PRE, ForwarderOfXanadu
from sim.games.forwarder_of_xanadu.rules import Options
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams
from strategies.forwarder_of_xanadu import STRATEGIES

NAMES = sorted(STRATEGIES)


class Spy:
    """Plays ``inner`` and records every (observation, legal actions) it is shown in ``seen``."""

    def __init__(self, inner, seen):
        self.inner, self.seen = inner, seen

    def choose(self, obs, legal, rng):
        self.seen.append((keep(obs), tuple(legal)))  # views close after their decision
        return self.inner.choose(obs, legal, rng)


@cache
def decision_points() -> tuple:
    """(obs, legal) at every decision of a few fixed games: the four strategies at 4 players, and
    random play at 3 players (it reaches prompts the plans avoid, e.g. upper refills)."""
    out = []
    for n, names, seed in ((4, NAMES, 1), (4, NAMES[::-1], 2), (3, ["random"] * 3, 3)):
        g = ForwarderOfXanadu(n, Options())
        strats = [make_strategy(x, {}, g.info.name, game=g) for x in names]

        chance, rngs = game_streams(seed, 0, n)
        play_game(g, [Spy(s, out) for s in strats], chance, rngs, max_decisions=g.options.max_decisions)
    return tuple(out)


def flipped(cls, field, value):
    """A clearly different value: negated, 3 x + 2 (0 where that is out of bounds), + 3, reversed."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, float):
        try:
            cls(**{field: value * 3 + 2})
        except ValueError:
            return 0.0 if value > 0 else 1.0
        return value * 3 + 2
    if isinstance(value, int):
        return value + 3
    return tuple(reversed(value))


TARGETED = ("use_skills", "stock_superior")  # rare in the fixed games: tested on built states below


def _cases():
    return [(name, field) for name in NAMES for field in STRATEGIES[name].Params.model_fields if field not in TARGETED]


@pytest.mark.parametrize("name,field", _cases(), ids=[f"{n}-{f}" for n, f in _cases()])
def test_every_parameter_changes_some_decision(name, field):
    cls = STRATEGIES[name]
    base = cls()
    other = cls(**{field: flipped(cls, field, getattr(base.p, field))})
    for k, (obs, legal) in enumerate(decision_points()):
        if base.choose(obs, legal, random.Random(k)) != other.choose(obs, legal, random.Random(k)):
            return
    pytest.fail(f"{name}: flipping {field} changed no decision")


def _first_turn(n=3):
    g = ForwarderOfXanadu(n)
    s = g.new_initial_state()
    while not (s.phase == PRE and not s.to_draw):
        p = g.current_player(s)
        g.apply_action(s, g.chance_outcomes(s)[0][0] if p == CHANCE else g.legal_actions(s)[0])
    return g, s


@pytest.mark.parametrize("name", NAMES)
def test_use_skills_pays_for_an_extra_fulfilment(name):
    """Last Fulfilment action, two orders payable, an extra_fulfil skill played and proxies spare:
    with ``use_skills`` the strategy pays for one more action first; without, it fulfils."""
    g, s = _first_turn()
    me = s.active
    s.round, s.proxies[me] = 2, 4
    s.played[me], s.levels[me][SKILL] = [next(k for k, c in enumerate(g.skills) if c.effect == "extra_fulfil")], 1
    for x in range(1, 10):
        s.wh[me][3 * x] = 4
    g.apply_action(s, PlaceWorker(FULFIL))
    while s.phase != ACT:
        g.apply_action(s, PlaceResource(0))
    assert s.act_left == 1
    obs, legal = g.observe(s, me), g.legal_actions(s)
    on = STRATEGIES[name](use_skills=True).choose(obs, legal, random.Random(1))
    off = STRATEGIES[name](use_skills=False).choose(obs, legal, random.Random(1))
    assert isinstance(on, UseSkill) and isinstance(off, FulfilOrder)


@pytest.mark.parametrize("name", NAMES)
def test_stock_superior_keeps_upgraded_goods_at_the_port(name):
    """Transporting with only superior goods at the port toward a standard-only goal: a strategy
    keeping at least 3 moves none; keeping fewer than 3 carries one toward the goal."""
    g, s = _first_turn()
    me = s.active
    std_only = [c.id for c in g.orders if c.cost[1] == c.cost[2] == 0 and c.grade == 0]
    s.market, s.excl[me] = std_only[:6], std_only[6]
    s.wh[me] = [0] * 30
    s.wh[me][1], s.stock_sup = 3, s.stock_sup - 3
    s.spaces[TRANSPORT] = 2
    g.apply_action(s, PlaceWorker(TRANSPORT))  # 3rd space: no resources, 3 transports
    obs, legal = g.observe(s, me), g.legal_actions(s)
    keep = STRATEGIES[name]().p.stock_superior
    assert keep < 3
    move = STRATEGIES[name]().choose(obs, legal, random.Random(1))
    stay = STRATEGIES[name](stock_superior=keep + 3).choose(obs, legal, random.Random(1))
    assert isinstance(move, Move) and move.src == 0 and isinstance(stay, EndAction)


@pytest.mark.parametrize("name", NAMES)
def test_choices_do_not_depend_on_the_order_of_legal(name):
    """With the legal actions reversed, every choice is one the strategy also makes (for some
    seed) with them in order: list position only matters through the rng among ties."""
    strat = STRATEGIES[name]()
    points = decision_points()[::12]
    for k, (obs, legal) in enumerate(points):
        made = {strat.choose(obs, legal, random.Random(100 * k + j)) for j in range(12)}
        rev = tuple(reversed(legal))
        for j in range(2):
            assert strat.choose(obs, rev, random.Random(7 * k + j)) in made, (obs.prompt, legal)


@pytest.mark.parametrize("name", NAMES)
def test_after_a_proxy_the_worker_goes_on_the_same_action(name):
    """Built state: a proxy on Transport in round 2; the strategy's worker (or next proxy) goes there
    too, whatever it would otherwise prefer (RULINGS §6)."""
    strat = STRATEGIES[name]()
    g, s = _first_turn()
    me = s.active
    s.round, s.proxies[me] = 2, 4
    g.apply_action(s, PlaceProxy(TRANSPORT))
    for k in range(4):
        t = g.clone(s)
        while t.phase == PRE:
            legal = g.legal_actions(t)
            a = strat.choose(g.observe(t, me), legal, random.Random(k))
            assert a in legal
            g.apply_action(t, a)
        assert t.act_kind == TRANSPORT


@pytest.mark.slow
@pytest.mark.parametrize("plan", ["forwarder.majority", "forwarder.quality", "forwarder.economy"])
def test_expert_wins_at_least_45_percent_against_two_copies_of_each_plan(plan):
    g = ForwarderOfXanadu(3)
    wins = 0.0
    games = 60
    for i in range(games):
        seat = i % 3
        strats = [make_strategy(plan, {}, g.info.name, game=g) for _ in range(3)]
        strats[seat] = make_strategy("forwarder.expert", {}, g.info.name, game=g)
        chance, rngs = game_streams(11, i, 3)
        w = g.winners(play_game(g, strats, chance, rngs, max_decisions=g.options.max_decisions).state)
        wins += (seat in w) / len(w)
    assert wins / games >= 0.45
