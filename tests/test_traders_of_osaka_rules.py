"""Traders of Osaka: start-player option, stalls and end reasons, replay lines, invariants and the
rulebook examples not covered in test_traders_of_osaka.py.

Expected values are worked by hand from the rulebook (seeds/003) and RULINGS §2.
"""

from __future__ import annotations

import copy

import pytest
from test_traders_of_osaka import (
    ANORI,
    BLUE,
    EDO,
    GREEN,
    OSAKA,
    RED,
    WAVES1,
    WAVES2,
    YELLOW,
    Table,
    two_ships_table,
)

from sim.api import CHANCE, TERMINAL, sample_chance
from sim.games.traders_of_osaka.actions import (
    BUY,
    END_INSURANCE,
    PASS,
    ChoosePayment,
    Insure,
    PayCard,
    StartPlayer,
)
from sim.games.traders_of_osaka.engine import TOKENS, TradersOfOsaka
from sim.games.traders_of_osaka.rules import Options
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams

# 'Preparation' 7 example: draw positions 0-3 hold 5+5, 2+2+5, 2+2+2+2, 5+3
EXAMPLE_HANDS = [[(RED, 5), (BLUE, 5)], [(RED, 2), (BLUE, 2), (GREEN, 5)],
                 [(RED, 2), (BLUE, 2), (GREEN, 2), (YELLOW, 2)], [(YELLOW, 5), (RED, 3)]]


def setup_table(rule, hands=EXAMPLE_HANDS):
    t = Table(len(hands), start_player=rule)
    t.s.phase, t.s.setup_pos = 0, 0  # SETUP, hands drawn
    for pos, cards in enumerate(hands):
        t.hand(pos, *cards)
    marks = [h[:] for h in t.s.hands]
    t.g._advance(t.s)
    return t, marks


# ---------------------------------------------------------------- start_player option


def test_start_player_lowest_hand_is_the_default():
    assert Options().start_player == "lowest_hand"
    t, marks = setup_table("lowest_hand")  # 8 coins in 2 cards (position 3) beats 8 in 4 cards
    assert t.s.phase == TOKENS and t.s.hands[0] == marks[3] and t.s.hands[1] == marks[0]


def test_start_player_most_coins():
    """Carthage edition: the 5+5 = 10 coins hand (position 0) is the richest and starts."""
    t, marks = setup_table("most_coins")
    assert t.s.phase == TOKENS and t.s.hands == marks
    # 5+3, 2+2+2+2 and 3+3+2 all hold 8 coins: card counts do not matter, chance decides
    t, _ = setup_table("most_coins", [[(RED, 5), (BLUE, 3)], [(RED, 2), (BLUE, 2), (GREEN, 2), (YELLOW, 2)],
                                      [(GREEN, 3), (GREEN, 3), (GREEN, 2)]])
    assert t.g.current_player(t.s) == CHANCE  # 8 / 8 / 8 coins: chance among all three
    assert [a.position for a, _ in t.g.chance_outcomes(t.s)] == [0, 1, 2]


def test_start_player_random_is_a_chance_node_over_everyone():
    t, marks = setup_table("random")
    assert t.g.current_player(t.s) == CHANCE
    outcomes = t.g.chance_outcomes(t.s)
    assert [a for a, _ in outcomes] == [StartPlayer(i) for i in range(4)]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    t.g.apply_action(t.s, StartPlayer(2))  # position 2 starts; clockwise order kept
    assert t.s.hands == [marks[2], marks[3], marks[0], marks[1]]


def test_unknown_start_player_rule_is_refused():
    with pytest.raises(ValueError):
        Options(start_player="youngest")


# ---------------------------------------------------------------- stalls and end reasons


def stuck_table(players=2):
    """Market, Farm, draw pile and discard all empty; every card in hands: nobody can act."""
    t = Table(players)
    s = t.s
    for k, c in enumerate(list(s.draw)):
        s.hands[k % players].append(c)
        s.hand_value[k % players] += t.g.value[c]
    s.draw = []
    s.tokens = [[1, 0, 0, 0] for _ in range(players)]
    s.supply[RED] -= players
    s.vp[1] = 3  # VP do not matter: a stalled game has no winner
    s.vp_cards[1] = [s.hands[1].pop()]
    s.vp_cards[1] += [s.hands[1].pop(), s.hands[1].pop()]
    s.hand_value[1] = sum(t.g.value[c] for c in s.hands[1])
    return t


def test_a_whole_round_of_passes_ends_the_game_as_stalled():
    t = stuck_table(2)
    g, s = t.g, t.s
    assert t.ready(0) == 0 and g.legal_actions(s) == (PASS,)
    g.apply_action(s, PASS)
    assert g.current_player(s) == 1 and g.legal_actions(s) == (PASS,)
    g.check_invariants(s)
    before = copy.deepcopy(s)
    g.apply_action(s, PASS)
    assert g.current_player(s) == TERMINAL
    assert g.end_reason(s) == "stalled" and g.stalled(s)
    assert g.narrate(before, s)[-1].startswith("game over (stalled)")


def test_end_reason_finished_and_undefined_before_the_end():
    t = Table(2, end_tokens=2)
    g, s = t.g, t.s
    with pytest.raises(ValueError):
        g.end_reason(s)
    s.tokens[0][RED] = 1
    t.goods(0, (RED, 2))
    t.pay(RED)  # seat 0 takes its 2nd token: the end
    assert g.current_player(s) == TERMINAL and g.end_reason(s) == "finished" and not g.stalled(s)
    assert g.winners(s) == frozenset({0})


# ---------------------------------------------------------------- replay lines


def two_ships_at_edo(end_tokens=8):
    t = two_ships_table(end_tokens=end_tokens)
    g, s = t.g, t.s
    g.apply_action(s, BUY)
    before = copy.deepcopy(s)
    g.apply_action(s, PayCard(s.hands[0][0]))
    return t, before


def test_replay_lines_for_a_payment_order_decision():
    t, before = two_ships_at_edo()
    g, s = t.g, t.s
    moved = "\n".join(g.narrate(before, s))
    assert "red ship: Anori -> Edo" not in moved  # EDO - 1 is the second Enshunada space
    assert "red ship: Enshunada -> Edo (payment order to choose)" in moved
    assert g.describe(s, ChoosePayment(BLUE)) == "seat 0: orders the blue payment next (ships at Edo: red, blue)"
    before = copy.deepcopy(s)
    g.apply_action(s, ChoosePayment(BLUE))
    lines = g.narrate(before, s)
    assert "Edo -> Edo" not in "\n".join(lines)
    assert "  red ship: payment for red goods, back to Osaka" in lines
    assert "  blue ship: payment for blue goods, back to Osaka" in lines
    # red 2 + red 5: 5 x 2 = 10 -> 2 VP for seat 0; blue 5: 5 -> 1 VP for seat 1; blue 2 bought by seat 0 -> 1 VP
    assert s.vp == [3, 1]


def test_replay_lines_for_sinking_and_insurance():
    t = Table(2)
    g, s = t.g, t.s
    s.ships = [WAVES1, OSAKA, OSAKA, OSAKA]
    t.goods(0, (RED, 5), (GREEN, 2))
    t.hand(0, (RED, 3))
    s.edo, s.ships[GREEN] = [GREEN], EDO
    s.phase = 6  # PAYMENTS
    before = copy.deepcopy(s)
    g._advance(s)  # green payment, then red sinks: seat 0 may insure (it is the active player)
    lines = g.narrate(before, s)
    assert "  green ship: payment for green goods, waits at Edo while ships sink" in lines
    red3 = s.hands[0][0]
    assert g.describe(s, Insure(red3)) == "seat 0: insures 1 red good(s) with red 3 (sinking: red)"
    before = copy.deepcopy(s)
    g.apply_action(s, Insure(red3))
    lines = g.narrate(before, s)
    assert "  red ship: sunk by the Black Tide, back to Anori" in lines
    assert "  green ship: Edo -> Osaka" in lines
    assert "  seat 0 insures 1 good(s)" in lines


# ---------------------------------------------------------------- invariants


def test_invariants_hold_after_every_action_of_scripted_and_random_play():
    names = ["osaka.trader", "osaka.hoarder", "osaka.shipper", "random"]
    for i in range(20):
        players = 2 + i % 3
        g = TradersOfOsaka(players, Options(start_player=("lowest_hand", "most_coins", "random")[i % 3]))
        strats = [make_strategy(names[(i + k) % 4], {}, "traders_of_osaka") for k in range(players)]
        chance, rngs = game_streams(11, i, players)
        s = g.new_initial_state()
        play_game(g, strats, chance, rngs, max_decisions=3000, state=s,
                  on_decision=lambda p, a, s=s, g=g: g.check_invariants(s))
        g.check_invariants(s)
        assert g.current_player(s) == TERMINAL and g.end_reason(s) in ("finished", "stalled")


def mid_game():
    g = TradersOfOsaka(3)
    chance, rngs = game_streams(5, 0, 3)
    s = g.new_initial_state()
    strats = [make_strategy("osaka.trader", {}, "traders_of_osaka")] * 3
    play_game(g, strats, chance, rngs, max_decisions=60, state=s)
    while g.current_player(s) == CHANCE:
        g.apply_action(s, sample_chance(g, s, chance))
    g.check_invariants(s)
    return g, s


@pytest.mark.parametrize("corrupt, message", [
    (lambda g, s: s.discard.append(s.draw[0]), "cards lost or duplicated"),
    (lambda g, s: s.draw.pop(), "cards lost or duplicated"),
    (lambda g, s: s.ships.__setitem__(0, 9), "ship off the track"),
    (lambda g, s: s.tokens[1].__setitem__(2, s.tokens[1][2] + 1), "achievement tokens lost or duplicated"),
    (lambda g, s: s.vp.__setitem__(0, s.vp[0] + 1), "VP differ from their cards"),
    (lambda g, s: s.hand_value.__setitem__(0, s.hand_value[0] + 2), "cached hand value wrong"),
    (lambda g, s: s.reserved.update({s.market[0]: 0, s.farm[0]: 0}), "two reservation pieces"),
    (lambda g, s: s.insured.add(s.draw[0]), "insured card not in merchandise"),
])
def test_corrupted_states_are_caught(corrupt, message):
    g, s = mid_game()
    corrupt(g, s)
    with pytest.raises(AssertionError, match=message):
        g.check_invariants(s)


# ---------------------------------------------------------------- rulebook examples


def test_buy_goods_example_hand_of_twelve_coins():
    """'A. Buy Goods' example: a hand of 2+2+3+5 = 12 coins is discarded to buy a 12-coin Market."""
    t = Table(2)
    g, s = t.g, t.s
    goods = t.market((RED, 5), (BLUE, 5), (GREEN, 2))  # 12 coins of goods
    t.hand(0, (YELLOW, 2), (YELLOW, 2), (YELLOW, 3), (YELLOW, 5))
    hand = s.hands[0][:]
    t.ready()
    assert s.due == 12 and BUY in g.legal_actions(s)
    g.apply_action(s, BUY)
    for c in (hand[3], hand[2], hand[0], hand[1]):  # 5, 3, 2: 10 < 12, still paying; 2 more: 12
        assert g.current_player(s) == 0
        g.apply_action(s, PayCard(c))
    assert s.hands[0] == [] and sorted(s.goods[0]) == sorted(goods)
    assert sorted(s.discard) == sorted(hand)
    assert s.ships == [1, 1, 1, 0]  # one good each of red, blue, green: one step each


def test_black_tide_example_green_payment_sinks_red_and_blue():
    """'Sunk by the Black Tide' example: a green payment while red and blue sit on Enshunada."""
    t = Table(2)
    g, s = t.g, t.s
    s.ships = [WAVES1, WAVES2, EDO, OSAKA]
    t.goods(0, (RED, 5), (GREEN, 3))
    t.goods(1, (BLUE, 2), (BLUE, 3), (YELLOW, 2))
    s.edo, s.phase = [GREEN], 6  # PAYMENTS; nobody holds a card to insure with
    g._advance(s)
    assert s.vp == [1, 0]  # green 3 -> 5 -> 1 VP
    assert [g.colour[c] for c in s.goods[0]] == [] and [g.colour[c] for c in s.goods[1]] == [YELLOW]
    assert s.sunk == [1, 2] and s.ships == [ANORI, ANORI, OSAKA, OSAKA]


def test_insurance_example_three_cards_insure_four_goods():
    """'Insurance' example: blue and red sink; three cards (a 2 with 2 icons, two 3s with 1 each)
    insure four goods, and they are sold as normal at the next payment of their colour."""
    t = Table(2)
    g, s = t.g, t.s
    s.ships = [WAVES2, WAVES1, EDO, OSAKA]
    t.goods(0, (BLUE, 5), (BLUE, 2), (RED, 3), (RED, 2))
    t.hand(0, (BLUE, 2), (RED, 3), (RED, 3))
    s.edo, s.phase = [GREEN], 6
    g._advance(s)
    assert g.current_player(s) == 0
    for c in list(s.hands[0]):
        assert Insure(c) in g.legal_actions(s)
        g.apply_action(s, Insure(c))
    assert g.current_player(s) != 0 or END_INSURANCE not in g.legal_actions(s)  # nothing left to insure
    assert s.sunk == [0, 0] and len(s.goods[0]) == 4 and s.insured == set(s.goods[0])
    assert s.ships[:2] == [ANORI, ANORI]
    s.phase = 6
    t.pay(RED)  # insured goods are sold as normal: 3 x 2 = 6 -> 10 -> 2 VP
    assert s.vp[0] == 2


def test_describe_insurance_counts_only_exposed_goods():
    """A red 2 has two icons but only one red good is exposed: one good is insured."""
    t = Table(2)
    g, s = t.g, t.s
    s.ships = [WAVES1, OSAKA, EDO, OSAKA]
    t.goods(0, (RED, 5))
    t.hand(0, (RED, 2))
    s.edo, s.phase = [GREEN], 6
    g._advance(s)
    assert g.describe(s, Insure(s.hands[0][0])) == "seat 0: insures 1 red good(s) with red 2 (sinking: red)"
