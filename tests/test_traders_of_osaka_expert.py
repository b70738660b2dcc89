"""osaka.expert on hand-built positions: the end-token race, sinking a rival, insurance, payment
order. Outcomes worked by hand from the rulebook's payment rules (seeds/003 'Payment')."""

from __future__ import annotations

import random

from test_traders_of_osaka import BLUE, EDO, GREEN, RED, WAVES1, WAVES2, Table, two_ships_table

from sim.games.traders_of_osaka.actions import BUY, ChoosePayment, Insure, PayCard
from sim.games.traders_of_osaka.engine import INSURE
from sim.registry import make_strategy
from strategies.traders_of_osaka.model import Model


def expert():
    return make_strategy("osaka.expert", {}, "traders_of_osaka")


def give_vp(t, seat, k):
    t.s.vp[seat] += k
    t.s.vp_cards[seat] += [t.s.draw.pop() for _ in range(k)]


def set_tokens(t, seat, colour, k):
    t.s.tokens[seat][colour] += k
    t.s.supply[colour] -= k


def choose(t, seat=0, seed=0):
    g, s = t.g, t.s
    return expert().choose(g.observe(s, seat), g.legal_actions(s), random.Random(seed))


def race(mine_ahead: bool):
    """Red ship one step from Edo; the Market is one red 2. Buying pays red and ends the game."""
    t = Table(2, end_tokens=8)
    t.s.ships[RED] = WAVES2
    t.market(RED, 2)
    t.farm((BLUE, 2), (GREEN, 3), (BLUE, 3))
    t.hand(0, (BLUE, 5))
    t.hand(1, (GREEN, 2))
    if mine_ahead:  # seat 0: 7 red tokens and a red 5: (5 + 7) x 2 = 24 -> 25 -> 5 VP, 8th token, wins 10-4
        set_tokens(t, 0, RED, 7)
        set_tokens(t, 1, BLUE, 1)
        t.goods(0, (RED, 5))
        give_vp(t, 0, 5)
        give_vp(t, 1, 4)
    else:  # seat 1: 7 red tokens and three red 5s: (5 + 7) x 3 = 36 -> 8 VP, 8th token, wins 13-7
        set_tokens(t, 0, BLUE, 1)
        set_tokens(t, 1, RED, 7)
        t.goods(1, (RED, 5), (RED, 5), (RED, 5))
        give_vp(t, 0, 6)
        give_vp(t, 1, 5)
    t.ready(0)
    t.g.check_invariants(t.s)
    return t


def test_expert_ends_the_game_when_the_ending_payment_makes_it_win():
    t = race(mine_ahead=True)
    assert BUY in t.g.legal_actions(t.s)
    assert all(choose(t, seed=k) == BUY for k in range(5))


def test_expert_does_not_end_the_game_for_a_rival():
    t = race(mine_ahead=False)
    assert BUY in t.g.legal_actions(t.s)
    assert all(choose(t, seed=k) != BUY for k in range(5))


def sink_table(rival_on_waves: bool):
    """Blue ship one step from Edo (seat 0 holds two blue 5s: 5 x 2 = 10 -> 2 VP at its payment).
    Seat 1 holds three green 5s, on the waves or safe at Anori."""
    t = Table(2)
    t.s.ships[BLUE] = WAVES2
    t.s.ships[GREEN] = WAVES1 if rival_on_waves else 2
    set_tokens(t, 0, BLUE, 1)
    set_tokens(t, 1, GREEN, 1)
    t.goods(0, (BLUE, 5), (BLUE, 5))
    t.goods(1, (GREEN, 5), (GREEN, 5), (GREEN, 5))
    t.market(BLUE, 2)
    t.farm((RED, 2), (RED, 3), (RED, 2))
    t.hand(0, (RED, 5))
    t.ready(0)
    return t


def test_expert_values_sinking_a_rivals_set():
    """Paying blue sinks the green ship when it is on the waves: seat 1 loses up to three green 5s
    ((5 + 1) x 3 = 18 -> 4 VP); the same purchase is worth less to seat 0 when green is at Anori."""
    values = []
    for on_waves in (True, False):
        t = sink_table(on_waves)
        m = Model(t.g.observe(t.s, 0), expert().p)
        values.append(expert().action_value(m, BUY))
        if on_waves:
            assert choose(t) == BUY
    assert values[0] > values[1]


def test_expert_insures_a_valuable_exposed_set():
    t = Table(2)
    g, s = t.g, t.s
    s.ships[RED] = WAVES1
    t.goods(0, (RED, 5), (RED, 5), (RED, 5))  # 15 -> 3 VP if it survives
    t.hand(0, (RED, 2))  # two icons: saves two red 5s for a 2-coin card
    s.edo, s.ships[GREEN], s.phase = [GREEN], EDO, 6
    g._advance(s)
    assert s.phase == INSURE and g.current_player(s) == 0
    assert choose(t) == Insure(s.hands[0][0])


def test_expert_orders_payments_to_win_the_end_race():
    """end_tokens 2. Red and blue reach Edo together. Blue first: 1 VP each, seat 1 takes its 2nd
    token and the game ends 1-1 on VP, seat 1 ahead on tokens. Red first: seat 0 scores red 5 + red
    2 = 10 -> 2 VP and a token, then blue ends the game at 3-1 for seat 0."""
    t = two_ships_table(end_tokens=2, seat1_green=1)
    g, s = t.g, t.s
    g.apply_action(s, BUY)
    g.apply_action(s, PayCard(s.hands[0][0]))
    assert g.legal_actions(s) == (ChoosePayment(RED), ChoosePayment(BLUE))
    assert all(choose(t, seed=k) == ChoosePayment(RED) for k in range(5))
