"""Exact pruning of the Alpenzian plans' house and sheep candidates (``strategies.alpenzian.prune``,
issue 20 item 2): the bounds never lie below a candidate's value, and the plans choose the same
actions (same game logs, so the same ``rng`` draws) with and without pruning.

The values the bounds are checked against are the plans' own (``Planner.value``), whose figures
``tests/test_alpenzian_evaluator.py`` checks against the whole sheet rescored with networkx.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.alpenzian import Alpenzian
from sim.games.alpenzian.actions import (
    CURVED_ICONS,
    EMPTY,
    F_SHEEP,
    HOUSE,
    OUTLINE,
    SHEEP,
    SOLID,
    STRAIGHT_ICONS,
)
from sim.games.alpenzian.engine import DIE
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


def _sheet_a():
    game = Alpenzian(2)
    return game.boards[game.fixed_sheets[0]]


def _die_view(rule: str, cells: list[int]):
    """A 2-player game at a die step of round 2 with ``cells`` on seat 0's sheet (sheet A), seen by seat 0."""
    game = Alpenzian(2, Options(ranch_rule=rule))
    s = game.new_initial_state()
    s.cells[0] = list(cells)
    board = game.boards[s.sheets[0]]
    s.left[0] = sum(1 for c in board.drawable if not cells[c])
    s.phase, s.round, s.seat, s.dice, s.first_house = DIE, 2, 0, [0, 1, 2, 3, 4, 5], [-1, -1]
    return game.observe(s, 0), board


def _village_next_to_a_flock(board) -> tuple[int, int, int, int, int]:
    """Squares ``x0 x1 x2 x3`` in a row (each the east neighbour of the one before) and ``y3`` south of
    ``x3``, all drawable and with every other neighbour empty on an empty sheet."""
    nbr, ok = board.nbr, set(board.drawable)
    for x0 in board.drawable:
        x1 = nbr[x0][1]
        x2 = nbr[x1][1] if x1 >= 0 else -1
        x3 = nbr[x2][1] if x2 >= 0 else -1
        y3 = nbr[x3][2] if x3 >= 0 else -1
        if {x1, x2, x3, y3} <= ok:
            return x0, x1, x2, x3, y3
    raise AssertionError("sheet A has a 4 x 2 corner of drawable squares")


def test_a_house_joining_a_village_can_pair_twice():
    """Section 7 (1): houses side by side form a village and sheep side by side a flock; every house of a
    village pairs with every sheep of a flock beside any of its houses. Houses at ``x0 x1`` (a village
    reaching no sheep: 0 pairs) and sheep at ``x3 y3`` (one flock): a house at ``x2`` joins the village
    and touches the flock, so 3 houses reach 2 sheep and 2 pairs form: the matching grows by 2 with one
    draw. The house bound must allow it (the first bound allowed one pair more at most)."""
    board = _sheet_a()
    x0, x1, x2, x3, y3 = _village_next_to_a_flock(board)
    cells = [0] * len(board.terrain)
    cells[x0] = cells[x1] = HOUSE
    cells[x3] = cells[y3] = SHEEP
    obs, board = _die_view("normal", cells)
    plan = make_strategy("alpenzian.ranch", {}, "alpenzian")
    plan._prepare(obs)
    assert plan._base.paired == 0
    assert plan._base.figures(x2, HOUSE)[2] == 2
    bounds = plan._pruner()
    assert bounds.house(x2) >= plan.value(x2, HOUSE) - 1e-9


ANY = st.sampled_from((EMPTY,) * 5 + (HOUSE, SHEEP, SOLID, OUTLINE, *STRAIGHT_ICONS, *CURVED_ICONS))


@settings(max_examples=30, deadline=None)
@given(st.lists(ANY, min_size=80, max_size=80), st.sampled_from(["normal", "beginner1", "beginner2"]),
       st.sampled_from(PLANS))
def test_square_and_area_bounds_on_random_sheets(squares, rule, name):
    """On random sheets (about half full, with villages, flocks and tracks): every house and sheep bound
    is at least the plan's value of that draw, every area bound (``Bounds.area``) at least the area's
    best value scored square by square, and every coarse bound at least the area bound."""
    board = _sheet_a()
    cells = [0] * len(board.terrain)
    for c, v in zip(board.drawable, squares, strict=False):
        cells[c] = v
    obs, board = _die_view(rule, cells)
    plan = make_strategy(name, {}, "alpenzian")
    plan._prepare(obs)
    if not obs.left[0] or not plan._fast:
        return
    bounds = plan._pruner()
    assert bounds
    for c in board.drawable:
        if not cells[c]:
            assert bounds.house(c) >= plan.value(c, HOUSE) - 1e-9, (c, "house")
            assert bounds.sheep(c) >= plan.value(c, SHEEP) - 1e-9, (c, "sheep")
    for colour in range(5):
        sq = obs.squares(colour)
        if not sq:
            continue
        for face in range(6):
            ub = bounds.area(face, sq)
            assert ub >= plan._pt.area_best(face, colour) - 1e-9, (face, colour)
            if face <= F_SHEEP:
                assert bounds.coarse(face, sq) >= ub - 1e-9, (face, colour)


def test_the_experts_rival_losses_equal_every_part_scored():
    """Die denial (``alpenzian.expert``): the rival's loss for every die face and colour area, found by
    scoring the rival's parts best bound first (``expert._Best``), equals the loss from the whole table
    of the rival's values (every face in every open area scored, as ``Planner.area_value`` gives them):
    the rival's best before, less its best over the dice and areas left."""
    seen = {"checked": 0}

    class Probe:
        def __init__(self):
            self.inner = make_strategy("alpenzian.expert", {}, "alpenzian")

        def choose(self, obs, legal, rng):
            plan = self.inner
            rival = plan._next_seat(obs)
            if obs.prompt == "die" and obs.left[obs.seat] and rival >= 0:
                plan._prepare(obs)
                loss = plan._losses(obs, rival)
                ref = type(plan._rival)()
                view = obs.as_seat(rival)
                ref._prepare(view)
                empties = [c for c in range(5) if obs.areas[c] < 0]
                areas = [c for c in empties if view.squares(c)] or empties
                table = {(f, c): ref.area_value(f, c) for f in set(obs.dice) for c in areas}
                before = max(table.values())
                for face in set(obs.dice):
                    left = list(obs.dice)
                    left.remove(face)
                    for colour in empties:
                        rest = [v for (f, c), v in table.items() if f in left and c != colour]
                        assert loss(face, colour) == (before - max(rest) if rest else 0.0), (face, colour)
                        seen["checked"] += 1
            return plan.choose(obs, legal, rng)

    others = [make_strategy(n, {}, "alpenzian") for n in ("alpenzian.ranch", "alpenzian.express", "alpenzian.flowers")]
    _play(Alpenzian(4), [Probe(), *others], seed=3)
    assert seen["checked"] > 300
