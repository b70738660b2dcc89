"""Taiwan Formosa's lazy observation (issue 20 item 3): a view computes a field only when read,
copies it out of the state (no attribute path leads back to the state), and goes stale after
its decision. The equality-based no-leak tests are in ``test_taiwan_formosa.py``."""

from __future__ import annotations

import pytest
from test_lazy_observation import _reachable  # the walk through instance data (the generic view test's)
from test_taiwan_formosa import walk as _walk  # random play, the game tests' own walk

from sim.api import StaleObservationError, close_view, keep
from sim.games.taiwan_formosa import GAME
from sim.games.taiwan_formosa.observation import PUBLIC_FIELDS, Observation


def _mutables(s) -> list:
    """The state and every list inside it (what a view must never hand out)."""
    out = [s]
    for v in vars(s).values():
        if isinstance(v, list):
            out.append(v)
            out.extend(x for x in v if isinstance(x, list))
    return out


@pytest.fixture(scope="module")
def game_state():
    game = GAME.build(3)
    s = _walk(game, 11, 500)
    assert game.current_player(s) >= 0  # mid-game, at a decision
    return game, s


def test_building_a_view_computes_nothing(game_state):
    game, s = game_state
    v = game.observe(s, 1)
    assert set(vars(v)) == {"seat", "num_players", "prompt", "actor", "tables"}
    assert v.coins == tuple(s.coins)  # read: computed from the state at that moment
    assert set(vars(v)) == {"seat", "num_players", "prompt", "actor", "tables", "coins"}


def test_fields_are_copies_of_the_state(game_state):
    game, s = game_state
    v = game.observe(s, 0)
    for name in PUBLIC_FIELDS:
        value, held = getattr(v, name), getattr(s, name)
        if name in ("items", "store"):  # lists of lists: a tuple of tuples
            assert value == tuple(tuple(x) for x in held), name
        elif isinstance(held, list):
            assert value == tuple(held), name
        else:
            assert value == held, name
    assert v.public == tuple(getattr(v, f) for f in PUBLIC_FIELDS)
    assert v.available(0, 4) == s.items[0][4] + s.store[0][4]


def test_no_attribute_path_from_a_view_reaches_the_state(game_state):
    game, s = game_state
    v = game.observe(s, 2)
    v.materialize()
    banned = {id(x) for x in _mutables(s)}
    assert not any(id(o) in banned for o in _reachable(v))
    for name in dir(v):  # the public surface: no attribute hands out the state or its lists
        if not name.startswith("__"):
            assert id(getattr(v, name)) not in banned, name
    with pytest.raises(AttributeError):
        v.state  # noqa: B018
    with pytest.raises(AttributeError):
        v.coins = [0, 0, 0]  # read-only


def test_a_field_first_read_after_the_decision_raises(game_state):
    game, s = game_state
    t = game.clone(s)
    v = game.observe(t, 0)
    coins = v.coins
    close_view(v)
    t.coins[0] += 5  # the state moves on
    assert v.coins == coins  # read during the decision: stays
    with pytest.raises(StaleObservationError, match="vp"):
        v.vp  # noqa: B018


def test_kept_views_equal_fresh_ones_and_are_observations(game_state):
    game, s = game_state
    v = game.observe(s, 1)
    k = keep(v)
    close_view(v)
    assert isinstance(k, Observation) and k == game.observe(s, 1)
    assert k.uncompleted(1) == [(s.track[1][i], s.track[1][i + 1]) for i in range(0, len(s.track[1]), 2)]
