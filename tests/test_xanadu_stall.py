"""Issue 17: a plan that stalls a game is a bug. The stall rule (RULINGS §4, engine docstring): a
whole round of turns in which nobody sold, placed a worker, built, drew or made a forced sale ends
the game as ``stalled``. A plan's turn changes nothing only when it sells nothing, places nothing
and draws nothing, i.e. with a full hand (7 cards: phase 3 draws none). The positions below are
the one the plans used to pass in: a full hand and, on the table, only own cards one worker from
full (the plans never cover an own card's last box, which forces its sale)."""

from __future__ import annotations

import random

import pytest

from sim.games.xanadu import GAME
from sim.games.xanadu.actions import Build, EndSelling, EndTurn, PlaceWorker, Sell
from sim.games.xanadu.engine import SELL, WORK, State
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams

PLANS = ("xanadu.builder", "xanadu.saboteur", "xanadu.hoarder")
NEVER_SELLS = {"xanadu.builder": {"sell_at": 99}, "xanadu.hoarder": {"sell_at": 99}, "xanadu.saboteur": {}}


def _position(g, card: int, phase: int, hand_size: int = 7) -> State:
    """Seat 0 to play ``phase`` of a fresh turn (nothing sold or placed), ``hand_size`` cards in
    hand, its own ``card`` built with 3 of seat 1's workers on it; nothing else on the table."""
    chance, _ = game_streams(3, 0, 2)
    s = g.new_initial_state()
    while g.current_player(s) < 0:  # the deal
        g.apply_action(s, g.sample_chance(s, chance))
    built = g.cards[card]
    perm = [0] * len(built.cost)  # what the built card gives under 3 workers: its printed resource and Khan's help
    for r in [built.permanent, *built.khan[:3]]:
        if r >= 0:
            perm[r] += 1
    last = built.boxes[3]  # hand cards it cannot pay for and whose missing resources its last box does not give
    others = [c.id for c in g.cards if c.id != card and any(k > p for k, p in zip(c.cost, perm, strict=True))
              and not any(k > p and b for k, p, b in zip(c.cost, perm, last, strict=True))]
    for row in s.built:
        row.clear()
    s.owner, s.workers, s.placers, s.sideways = {}, {}, {}, []
    g._put(s, 0, card)
    s.workers[card], s.placers[card] = others[:3], [1, 1, 1]
    s.hands[0], s.hands[1] = others[3:3 + hand_size], others[10:13]
    s.phase, s.active, s.acted, s.sold, s.builds = phase, 0, False, False, 0
    s.pool, s.perm_used = [0] * len(s.pool), [0] * len(s.perm_used)
    s.quiet_turns = 1  # seat 1 passed: a quiet turn of seat 0 now would stall the game
    return s


def _card(g, rising: bool) -> int:
    """A card whose last box raises its price (``rising``; its price under 3 workers above 0 and
    below 4, under every plan's selling rule) or lowers it (the base game has three: 5 then 4), so
    that a forced sale pays more (or less) than keeping the card."""
    if rising:
        return next(c.id for c in g.cards if 0 < c.prices[3] < 4 and c.prices[4] > c.prices[3])
    return next(c.id for c in g.cards if c.prices[4] < c.prices[3])


@pytest.mark.parametrize("name", PLANS)
@pytest.mark.parametrize("rising", [True, False])
def test_a_full_hand_never_ends_phase_2_idle(name, rising):
    """Phase 2, nothing done, 7 cards: the legal actions are the 7 workers on the own card's last
    box and EndTurn. EndTurn would change nothing (no draw with a full hand), so the plan places
    the worker (the card's forced sale at the end of the turn)."""
    g = GAME.build(2)
    card = _card(g, rising)
    s = _position(g, card, WORK)
    legal = g.legal_actions(s)
    assert not any(isinstance(a, Build) for a in legal)
    assert {a.target for a in legal if isinstance(a, PlaceWorker)} == {card}
    plan = make_strategy(name, NEVER_SELLS[name], "xanadu")
    for seed in range(5):
        a = plan.choose(g.observe(s, 0), legal, random.Random(seed))
        assert isinstance(a, PlaceWorker) and a.target == card and a.worker in s.hands[0]


@pytest.mark.parametrize("name", PLANS)
def test_a_stuck_turn_sells_now_when_the_last_box_lowers_the_price(name):
    """Phase 1 of the same turn: the card leaves the table either now (2 players: no bonus, so the
    sale gains nothing over keeping it) or by the last worker, which forces a sale at the lower
    last price (a loss). The plan sells now."""
    g = GAME.build(2)
    card = _card(g, rising=False)
    s = _position(g, card, SELL)
    plan = make_strategy(name, NEVER_SELLS[name], "xanadu")
    for seed in range(5):
        assert plan.choose(g.observe(s, 0), g.legal_actions(s), random.Random(seed)) == Sell(card)


@pytest.mark.parametrize("name", ["xanadu.builder", "xanadu.hoarder", "xanadu.saboteur"])
def test_a_stuck_turn_keeps_the_card_for_its_forced_sale_when_the_last_box_raises_it(name):
    """Phase 1 when the last box raises the price (and the price under 3 workers is below every
    plan's selling rule): the plan ends selling and covers the last box in phase 2 (previous
    test), which pays more than selling now."""
    g = GAME.build(2)
    card = _card(g, rising=True)
    s = _position(g, card, SELL)
    plan = make_strategy(name, NEVER_SELLS[name], "xanadu")
    assert plan.choose(g.observe(s, 0), g.legal_actions(s), random.Random(0)) == EndSelling()


def test_a_hand_that_can_still_draw_keeps_its_card():
    """With 6 cards phase 3 draws one, so the turn changes the game whatever the plan does: the
    guard does not fire and the builder (selling rule off) keeps the card whose last box lowers its
    price, which it sells with 7 cards (test above)."""
    g = GAME.build(2)
    card = _card(g, rising=False)
    plan = make_strategy("xanadu.builder", NEVER_SELLS["xanadu.builder"], "xanadu")
    s = _position(g, card, SELL, hand_size=6)
    for seed in range(5):
        assert plan.choose(g.observe(s, 0), g.legal_actions(s), random.Random(seed)) == EndSelling()


@pytest.mark.parametrize("name", PLANS)
def test_no_plan_stalls_a_game_against_random_by_kind(name):
    """40 two-player games (seats alternating) against ``random_by_kind``: no game is stalled.
    Before the fix 11-16 of 40 were (seed 0). Checked at every decision, not only at the end: a
    plan ends a turn with nothing done and a full hand only when no worker or build is legal (a
    round with any action is not a stall, RULINGS §4)."""
    g = GAME.build(2)
    for i in range(40):
        chance, rngs = game_streams(0, i, 2)
        me = i % 2
        seats = [make_strategy(name, {}, "xanadu"), make_strategy("random_by_kind", {}, "xanadu")]
        if me:
            seats.reverse()
        s = g.new_initial_state()
        idle_with_options: list[int] = []

        def check(p, a, s=s, me=me, bad=idle_with_options):
            if p == me and isinstance(a, EndTurn) and not (s.acted or s.sold) and len(s.hands[me]) >= 7:
                if any(isinstance(x, (PlaceWorker, Build)) for x in g.legal_actions(s)):  # (called before the action)
                    bad.append(s.turns)

        r = play_game(g, seats, chance, rngs, max_decisions=g.options.max_decisions, on_decision=check, state=s)
        assert r.end_reason == "finished", (name, i, r.end_reason)
        assert not idle_with_options, (name, i, idle_with_options)
