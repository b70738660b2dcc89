"""Xanadu's lazy observation (issue 20 item 3): a strategy that does not look pays nothing, and
no attribute path from a view reaches the state or a hidden card list."""

from __future__ import annotations

import random

import pytest
from test_lazy_observation import _reachable  # the walk through instance data (the generic view test's)

from sim.api import CHANCE, TERMINAL, StaleObservationError, close_view, keep
from sim.games.xanadu import GAME
from sim.games.xanadu.observation import Observation

EAGER = {"seat", "prompt"}


def _decision_states(n: int, seed: int, every: int = 9):
    """States at player decisions of a random 4-player game (the live state, yielded in turn)."""
    g = GAME.build(n)
    s, rng = g.new_initial_state(), random.Random(seed)
    k = 0
    while (p := g.current_player(s)) != TERMINAL:
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
            continue
        if k % every == 0:
            yield g, s, p
        k += 1
        legal = g.legal_actions(s)
        g.apply_action(s, legal[rng.randrange(len(legal))])


def test_a_view_computes_nothing_until_read():
    for g, s, p in _decision_states(4, 1, every=25):
        v = g.observe(s, p)
        assert set(vars(v)) == EAGER  # the random player's cost: two given fields
        assert v.hand == tuple(s.hands[p])
        assert set(vars(v)) == EAGER | {"hand"}  # one read computes one field


def test_no_attribute_path_from_a_view_reaches_the_state_or_hidden_cards():
    checked = 0
    for g, s, p in _decision_states(4, 2):
        v = g.observe(s, p)
        v.materialize()
        hidden = [s, g, s.draw, *s.hands, *s.pending, *s.workers.values()]
        found = {id(o) for o in _reachable(v)}
        assert not any(id(h) in found for h in hidden)
        for name in dir(v):  # the public surface hands out no state container
            if not name.startswith("__"):
                value = getattr(v, name)
                assert not any(value is h for h in hidden), name
        with pytest.raises(AttributeError):
            v.hand = s.hands[(p + 1) % 4]  # read-only
        checked += 1
    assert checked > 10


def test_other_seats_hands_and_workers_are_not_fields():
    names = set(Observation.field_names()) | EAGER
    assert "hands" not in names and "workers" not in names and "draw" not in names
    assert {"hand", "hand_sizes", "my_workers", "placers"} <= names


def test_a_closed_view_keeps_what_was_read_and_refuses_the_rest():
    g, s, p = next(_decision_states(4, 3))
    v = g.observe(s, p)
    hand = v.hand
    kept = keep(g.observe(s, p))  # a detached copy (keep computes every field)
    close_view(v)
    assert v.hand == hand
    with pytest.raises(StaleObservationError, match="coins"):
        v.coins  # noqa: B018
    assert kept.coins == tuple(s.coins) and kept == g.observe(s, p)


def test_replace_gives_a_detached_view_with_the_change():
    from dataclasses import replace

    g, s, p = next(_decision_states(2, 4))
    v = g.observe(s, p)
    r = replace(v, seat=1 - p, coins=tuple(reversed(s.coins)))
    close_view(v)
    assert r.seat == 1 - p and r.coins == tuple(reversed(s.coins)) and r.hand == tuple(s.hands[p])
    assert type(r) is Observation and set(vars(r)) == EAGER | set(Observation.field_names())  # all given
