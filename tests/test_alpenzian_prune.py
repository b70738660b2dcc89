"""Exact pruning of the Alpenzian plans' house and sheep candidates (``strategies.alpenzian.prune``,
issue 20 item 2): the bounds never lie below a candidate's value, and the plans choose the same
actions (same game logs, so the same ``rng`` draws) with and without pruning.

The values the bounds are checked against are the plans' own (``Planner.value``), whose figures
``tests/test_alpenzian_evaluator.py`` checks against the whole sheet rescored with networkx.
"""

from __future__ import annotations

import pytest

from sim.games.alpenzian import Alpenzian
from sim.games.alpenzian.actions import CURVED_ICONS, HOUSE, SHEEP, STRAIGHT_ICONS
from sim.games.alpenzian.rules import Options
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams
from strategies.alpenzian import STRATEGIES
from strategies.alpenzian.prune import MARGIN, QUIET_RAIL

PLANS = sorted(STRATEGIES)  # expert, express, flowers, ranch


def _play(game, strategies, seed):
    chance, rngs = game_streams(seed, 0, game.num_players)
    return play_game(game, strategies, chance, rngs, max_decisions=game.options.max_decisions, record=True)


@pytest.mark.parametrize("rule", ["normal", "beginner1", "beginner2"])
def test_bounds_never_below_the_value(rule):
    """At every die step of a 4-player game of the four plans, every empty square: the bound of a
    house and of a sheep there is at least the plan's value of that draw; and some bounds fall more
    than ``MARGIN`` below the best house or sheep value (so the test can see a pruned candidate)."""
    seen = {"checked": 0, "prunable": 0}

    class Probe:
        def __init__(self, name):
            self.inner = make_strategy(name, {}, "alpenzian")

        def choose(self, obs, legal, rng):
            plan = self.inner
            if obs.prompt == "die" and obs.left[obs.seat]:
                plan._prepare(obs)
                bounds = plan._pruner()
                assert bounds, "the shipped plans' weights allow the bounds"
                empty = [c for c in obs.board.drawable if not obs.my_cells[c]]
                for icon, bound in ((HOUSE, bounds.house), (SHEEP, bounds.sheep)):
                    pairs = [(bound(c), plan.value(c, icon)) for c in empty]
                    for (ub, v), c in zip(pairs, empty, strict=True):
                        assert ub >= v - 1e-9, (rule, icon, c, ub, v)
                    top = max(v for _, v in pairs)
                    seen["checked"] += len(pairs)
                    seen["prunable"] += sum(1 for ub, _ in pairs if ub < top - MARGIN)
            return plan.choose(obs, legal, rng)

    _play(Alpenzian(4, Options(ranch_rule=rule)), [Probe(n) for n in PLANS], seed=5)
    assert seen["checked"] > 500
    assert seen["prunable"] > 0


@pytest.mark.parametrize(("players", "rule", "seed"), [(4, "normal", 11), (3, "beginner1", 12), (2, "beginner2", 13)])
def test_pruned_decisions_equal_unpruned(players, rule, seed):
    """The whole game log (every die, area and square, hence every tie broken by ``rng``) is the same
    with the pruning switched off (``_pruner`` answering False: every candidate scored)."""
    logs = []
    for prune in (True, False):
        strats = [make_strategy(n, {}, "alpenzian") for n in PLANS[:players]]
        if not prune:
            for s in strats:
                s._pruner = lambda: False
        logs.append(_play(Alpenzian(players, Options(ranch_rule=rule)), strats, seed).log)
    assert logs[0] == logs[1]


def test_a_rail_facing_no_track_scores_as_a_rail_meeting_none():
    """A plan counting no open ends (ranch, flowers): a rail with an opening that faces neither a house
    nor a rail opening back links nothing (section 7 (5): a link needs both end rails opening into
    houses), so its figures and value equal those of ``QUIET_RAIL`` on the same square; the full
    rescoring (``_full_figures``) is the reference."""
    seen = {"dead": 0, "live": 0}

    class Probe:
        def __init__(self, name):
            self.inner = make_strategy(name, {}, "alpenzian")
            self.full = make_strategy(name, {}, "alpenzian")
            self.full.shortcuts = False

        def choose(self, obs, legal, rng):
            plan = self.inner
            if obs.prompt == "die" and obs.left[obs.seat] and not plan.p.open_track:
                plan._prepare(obs)
                self.full._prepare(obs)
                base = plan._base
                for c in obs.board.drawable:
                    if obs.my_cells[c]:
                        continue
                    m = base.live_sides(c)
                    for icon in (*STRAIGHT_ICONS, *CURVED_ICONS):
                        if icon & 15 & ~m:
                            seen["dead"] += 1
                            assert self.full._full_figures(c, icon) == base.figures(c, QUIET_RAIL), (c, icon)
                        else:
                            seen["live"] += 1
            return plan.choose(obs, legal, rng)

    _play(Alpenzian(3), [Probe(n) for n in ("alpenzian.ranch", "alpenzian.flowers", "alpenzian.express")], seed=7)
    assert seen["dead"] > 100 and seen["live"] > 0
