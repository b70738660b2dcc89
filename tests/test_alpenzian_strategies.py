"""Alpenzian strategies: incremental scoring equals full rescoring, ties never follow the order of
``legal``, every documented parameter changes play, the expert is registered and plays legally."""

from __future__ import annotations

import random

import pytest

from sim.games.alpenzian import Alpenzian
from sim.games.alpenzian.actions import FACE_ICONS, RAIL, SHEEP, SOLID
from sim.games.alpenzian.rules import Options
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams
from strategies.alpenzian import STRATEGIES
from strategies.alpenzian.evaluator import SheetBase

PLANS = sorted(STRATEGIES)
ALL_ICONS = sorted({i for icons in FACE_ICONS for i in icons})


def _play(game, strategies, seed=0):
    chance, rngs = game_streams(seed, 0, game.num_players)
    return play_game(game, strategies, chance, rngs, max_decisions=game.options.max_decisions, record=True)


@pytest.mark.parametrize("rule", ["normal", "beginner1", "beginner2"])
def test_incremental_figures_equal_full_rescoring(rule):
    """Every empty square and every icon, at every fourth own turn of a 3-player game: the
    incremental figures equal those of the whole sheet rescored (``shortcuts = False``)."""
    checked = set()

    class Probe:
        def __init__(self, name):
            self.inner = make_strategy(name, {}, "alpenzian")
            self.full = make_strategy(name, {}, "alpenzian")
            self.full.shortcuts = False

        def choose(self, obs, legal, rng):
            if obs.prompt == "die" and obs.left[obs.seat] % 4 == 0:
                t = obs.tables
                base = SheetBase(obs.board, obs.my_cells, t, obs.ranch_rules[obs.seat], obs.ranch_link,
                                 bool(self.full.p.open_track))
                self.full._prepare(obs)
                for c in obs.board.drawable:
                    if obs.my_cells[c]:
                        continue
                    for icon in ALL_ICONS:
                        assert base.figures(c, icon) == self.full._full_figures(c, icon), (c, icon)
                        checked.add(icon if icon < RAIL else RAIL)
            return self.inner.choose(obs, legal, rng)

    g = Alpenzian(3, Options(ranch_rule=rule))
    _play(g, [Probe(n) for n in PLANS], seed=8)
    assert {SOLID, SHEEP, RAIL} <= checked


def test_fast_values_equal_full_values_over_a_game():
    """The values (and so the decisions) of a plan do not depend on the incremental scoring."""
    logs = []
    for short in (True, False):
        strats = [make_strategy(n, {}, "alpenzian") for n in PLANS]
        for s in strats:
            s.shortcuts = short
        logs.append(_play(Alpenzian(3), strats, seed=3).log)
    assert logs[0] == logs[1]


def _params(name):
    cls = STRATEGIES[name]
    return {k: f.default for k, f in cls.Params.model_fields.items()}


FLIPS = [(name, key) for name in PLANS for key in _params(name)]


@pytest.mark.parametrize(("name", "key"), FLIPS)
def test_every_parameter_changes_some_decision(name, key):
    """No dead parameters: setting one documented parameter to 0 (or 1 when it is 0), or to 4
    times its default, changes some decision of a 2-player game against alpenzian.ranch over a
    few fixed seeds."""
    value = _params(name)[key]
    g = Alpenzian(2)

    def own_moves(params, seed):
        strats = [make_strategy(name, params, "alpenzian"), make_strategy("alpenzian.ranch", {}, "alpenzian")]
        return [a for p, a in _play(g, strats, seed).log if p == 0]

    for seed in range(3):
        plain = own_moves({}, seed)
        for flipped in (0.0 if value else 1.0, 4.0 * value if value else 4.0):
            if own_moves({key: flipped}, seed) != plain:
                return
    pytest.fail(f"{name}: {key} changes no decision")


class _Shuffled:
    """Presents the legal actions in a shuffled order (its own generator, not the seat's)."""

    def __init__(self, inner, seed):
        self.inner, self.order = inner, random.Random(seed)

    def choose(self, obs, legal, rng):
        legal = list(legal)
        self.order.shuffle(legal)
        return self.inner.choose(obs, tuple(legal), rng)


@pytest.mark.parametrize("name", PLANS)
def test_decisions_do_not_depend_on_the_order_of_legal(name):
    """Ties are broken with the seat's rng over the tie set in a fixed order, so the same seeds
    give the same game whatever order the legal actions come in."""
    g = Alpenzian(2)
    plain = _play(g, [make_strategy(name, {}, "alpenzian"), make_strategy(name, {}, "alpenzian")], 5).log
    mixed = _play(g, [_Shuffled(make_strategy(name, {}, "alpenzian"), 1),
                      _Shuffled(make_strategy(name, {}, "alpenzian"), 2)], 5).log
    assert plain == mixed


def test_expert_is_registered_and_beats_random():
    g = Alpenzian(2)
    strats = [make_strategy("alpenzian.expert", {}, "alpenzian"), make_strategy("random", {}, "alpenzian")]
    r = _play(g, strats, 11)
    assert g.winners(r.state) == frozenset({0})
