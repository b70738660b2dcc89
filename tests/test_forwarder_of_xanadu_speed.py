"""Forwarder of Xanadu: the speed work of issue 20 keeps the rules and the information rules.

- the fast chance sampler draws each outcome with the probability ``chance_outcomes`` lists
  (every draw is uniform over the pile or pool: engine docstring, rulebook 'Preparation');
- the lazy observation (``sim.api.LazyObservation``) computes nothing until read, and no attribute
  path from a view leads to the state or to hidden cards (the reachability walk of
  tests/test_lazy_observation.py);
- the per-layout tables the engine keeps between calls never leak from one game into another.
"""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare
from test_lazy_observation import _reachable  # the walk through instance data (the generic view test's)

from sim.api import CHANCE, TERMINAL
from sim.games.forwarder_of_xanadu.actions import FULFIL, FulfilOrder
from sim.games.forwarder_of_xanadu.engine import ACT, K_LAYOUT, K_MARKET, K_SKILL, ForwarderOfXanadu, State
from sim.games.forwarder_of_xanadu.rules import Options


def _walk_to(g, s, stop, rng):
    """Random legal play (chance: a uniform pick among ``chance_outcomes``) until ``stop(s)``."""
    while not stop(s):
        p = g.current_player(s)
        assert p != TERMINAL
        if p == CHANCE:
            outs = g.chance_outcomes(s)
            g.apply_action(s, outs[rng.randrange(len(outs))][0])
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[rng.randrange(len(legal))])
    return s


def _chance_kind(s) -> int:
    return s.to_draw[0] // 1000 if s.to_draw else -1


def _sampler_fits(g, s, draws: int = 12000) -> None:
    outcomes = dict(g.chance_outcomes(s))
    rng = random.Random(11)
    counts = Counter(g.sample_chance(s, rng) for _ in range(draws))
    assert set(counts) <= set(outcomes)
    keys = list(outcomes)
    # uniform over the pool: each of the k outcomes has probability 1/k (hand-derived, not from the engine)
    assert all(abs(outcomes[k] - 1 / len(keys)) < 1e-12 for k in keys)
    p = chisquare([counts.get(k, 0) for k in keys], [draws / len(keys)] * len(keys)).pvalue
    assert p > 1e-4, p


def test_fast_sampler_agrees_with_chance_outcomes_at_each_kind_of_draw():
    g = ForwarderOfXanadu(4, Options())
    rng = random.Random(3)
    s = g.new_initial_state()
    assert _chance_kind(s) == K_LAYOUT and len(g.chance_outcomes(s)) == 9  # the 9 areas
    _sampler_fits(g, s)
    s = _walk_to(g, s, lambda s: _chance_kind(s) == K_MARKET, rng)
    _sampler_fits(g, s)  # an order card from the lower pile
    s = _walk_to(g, s, lambda s: _chance_kind(s) == K_SKILL, rng)
    _sampler_fits(g, s)  # a skill card dealt from the pool
    s = _walk_to(g, s, lambda s: s.phase == ACT and not s.to_draw, rng)
    s = _walk_to(g, s, lambda s: _chance_kind(s) == K_MARKET, rng)
    _sampler_fits(g, s)  # a Market refill during play (a smaller pile)




def _main_state(seed: int = 5):
    g = ForwarderOfXanadu(4, Options())
    s = _walk_to(g, g.new_initial_state(), lambda s: s.phase == ACT and not s.to_draw, random.Random(seed))
    return g, s


def test_a_view_computes_nothing_until_read():
    g, s = _main_state()
    v = g.observe(s, s.active)
    assert set(vars(v)) == {"seat"}  # a random player that never looks pays for nothing else
    assert v.prompt == "action" and set(vars(v)) == {"seat", "prompt"}


def test_no_attribute_path_from_a_view_reaches_the_state_or_hidden_cards():
    g, s = _main_state()
    v = g.observe(s, 0)
    v.materialize()
    hidden = [s, s.piles, s.hands, s.draft_hands, s.skill_pool, g] + s.hands + s.piles
    found = _reachable(v)
    assert not any(any(o is h for h in hidden) for o in found)
    assert not any(isinstance(o, (State, ForwarderOfXanadu)) for o in found)
    for name in dir(v):
        if not name.startswith("__"):
            value = getattr(v, name)
            assert not isinstance(value, (State, ForwarderOfXanadu)), name
    # the seat's own hand is there, the others' only as far as they are public (Standard style:
    # the company-coloured cards still held)
    assert v.hand == tuple(s.hands[0])
    for i in range(1, 4):
        col = g.company_colours[s.company[i]]
        assert v.known_hands[i] == tuple(c for c in s.hands[i] if g.skills[c].colour == col)


def test_layout_tables_kept_by_the_engine_do_not_leak_between_games():
    def fulfil_turn(s):
        return s.phase == ACT and not s.to_draw and s.act_kind == FULFIL

    states, expected = [], []
    for seed in range(6):
        g = ForwarderOfXanadu(3, Options())
        s = _walk_to(g, g.new_initial_state(), fulfil_turn, random.Random(seed))
        s.wh[s.active] = [2, 1, 1] * 10  # goods everywhere: every order can be paid at every area with its icon
        states.append(s)
        expected.append(g.legal_actions(s))  # an engine that only ever saw this game
    assert len({tuple(s.area_at) for s in states}) > 1  # different layouts
    assert sum(isinstance(a, FulfilOrder) for legal in expected for a in legal) >= 20  # orders at areas
    shared = ForwarderOfXanadu(3, Options())
    for k in list(range(len(states))) * 2:  # alternate between games on one engine
        assert shared.legal_actions(states[k]) == expected[k]


def test_planner_fields_read_together_hold_the_decisions_state():
    """The planner's fields (``observation.PLANNER_FIELDS``) are computed together on the first read
    of any of them: each equals the state's value at that decision (the warehouse as a tuple of
    tuples, the lists as tuples), and a later state change does not show in them; a field outside
    the group first read after the decision still raises ``StaleObservationError``."""
    import pytest

    from sim.api import StaleObservationError, close_view
    from sim.games.forwarder_of_xanadu.observation import PLANNER_FIELDS

    g = ForwarderOfXanadu(3)
    s = _walk_to(g, g.new_initial_state(), lambda s: s.phase == ACT and not s.to_draw and g.current_player(s) >= 0,
                 random.Random(3))
    seat = g.current_player(s)
    expected = {f: getattr(s, f) for f in PLANNER_FIELDS}
    expected = {f: tuple(map(tuple, v)) if f in ("wh", "dailies") else tuple(v) if isinstance(v, list) else v
                for f, v in expected.items()}
    obs = g.observe(s, seat)
    assert obs.market == expected["market"]  # one read computes the whole group
    g.apply_action(s, g.legal_actions(s)[-1])  # the state moves on (EndAction is listed last)
    close_view(obs)
    later = g.observe(s, seat)
    assert any(getattr(later, f) != expected[f] for f in PLANNER_FIELDS)  # some field did change
    assert {f: getattr(obs, f) for f in PLANNER_FIELDS} == expected
    with pytest.raises(StaleObservationError):
        _ = obs.vp  # not in the group: never computed during the decision
