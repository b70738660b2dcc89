"""Xanadu rules fidelity, round two (issue 16): optional draw, resource boxes, the observation's
sale price at 5-6 players, variant combinations and ``notes()``, the restart of the variant in
play, ``end_reason`` and the stall rule, ``check_invariants``. Expected values are worked out by
hand from the rulebook (seeds/002, rules/xanadu-english.md) and RULINGS §4."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from conftest import random_walk
from test_xanadu import RES, cid, filler, finish_draws, make

from sim.api import CHANCE, TERMINAL, SimError
from sim.games.xanadu import GAME
from sim.games.xanadu.actions import END_SELLING, END_TURN, Build, Draw, DrawCards, PlaceWorker, Sell
from sim.games.xanadu.engine import CHOOSE_DRAW, SELL, START, WORK
from sim.games.xanadu.rules import Options, load_data, resolve

DATA = Path(__file__).resolve().parents[1] / "sim/games/xanadu/data/cards.yaml"


# ---------------------------------------------------------------- phase 3: 'húzhat' (may draw)
def _turn(g, hand, *, sell=False, worker=False):
    """Seat 0 of a 2-player game: optionally sell the Kiln in phase 1 and place one worker."""
    s = make(g, hands=[hand, []], built=[["Barracks", "Kiln"], ["Tailor's Workshop"]], phase=SELL)
    if sell:
        g.apply_action(s, Sell(cid("Kiln")))
    g.apply_action(s, END_SELLING)
    if worker:
        g.apply_action(s, PlaceWorker(cid(hand[0]), cid("Tailor's Workshop")))
    g.apply_action(s, END_TURN)
    return s


@pytest.mark.parametrize("sell,worker,hand,offered", [
    (False, True, 4, (0, 1)),       # nothing sold: 1 card, or none
    (True, False, 4, (0, 3)),       # sold: 3 cards, or none
    (True, False, 6, (0, 1)),       # sold, but 6 in hand: never above 7
    (False, False, 4, (0, 1, 2, 3)),  # did nothing: any number up to 7 in hand
    (False, False, 6, (0, 1)),
])
def test_optional_draw_offers_the_allowed_number_or_none(sell, worker, hand, offered):
    g = GAME.build(2)
    s = _turn(g, filler(hand, avoid=["Kiln"]), sell=sell, worker=worker)
    assert g.current_player(s) == 0 and s.phase == CHOOSE_DRAW
    assert tuple(a.count for a in g.legal_actions(s)) == offered
    assert g.observe(s, 0).prompt == "draw" and g.observe(s, 0).draw_choices == offered


def test_declining_the_draw_keeps_the_hand_and_passes_the_turn():
    g = GAME.build(2)
    s = _turn(g, filler(4, avoid=["Kiln"]), sell=True)
    g.apply_action(s, DrawCards(0))
    assert g.current_player(s) == 1 and len(s.hands[0]) == 4 and s.active == 1
    s = _turn(g, filler(4, avoid=["Kiln"]))  # idle: any number up to 7, e.g. 2
    g.apply_action(s, DrawCards(2))
    assert s.to_draw == [0, 0] and s.refills[0] == 1
    with pytest.raises(ValueError):
        g.apply_action(s, DrawCards(5))


def test_draw_forced_draws_the_most_allowed_without_a_decision():
    g = GAME.build(2, {"draw": "forced"})
    s = _turn(g, filler(4, avoid=["Kiln"]), sell=True)
    assert s.phase != CHOOSE_DRAW and s.to_draw == [0, 0, 0]
    s = _turn(g, filler(4, avoid=["Kiln"]))  # idle: up to 7 from 4
    assert s.to_draw == [0, 0, 0]


def test_full_hand_offers_no_draw_decision():
    g = GAME.build(2)
    s = _turn(g, filler(7, avoid=["Kiln"]))
    assert s.phase != CHOOSE_DRAW and s.to_draw == []


# ---------------------------------------------------------------- card anatomy item 4
def test_every_resource_box_shows_at_least_one_resource():
    for c in GAME.build(2).cards:
        assert all(sum(b) >= 1 for b in c.boxes), c.name


def test_an_empty_resource_box_is_refused_naming_file_and_card(tmp_path: Path):
    text = DATA.read_text().replace("{resources: [wood, clay], price: 2, kind: development, khan: silk}",
                                    "{resources: [], price: 2, kind: development, khan: silk}", 1)
    assert text != DATA.read_text()
    bad = tmp_path / "cards.yaml"
    bad.write_text(text)
    with pytest.raises(SimError, match=r"cards\.yaml, line \d+.*'Sawmill' box 4 shows no resource"):
        load_data({"cards": bad})


# ---------------------------------------------------------------- the observation's sale price
@pytest.mark.parametrize("n,yellow,green", [(4, 0, 0), (5, 1, 2), (6, 1, 2)])
def test_observation_price_includes_the_five_six_player_bonus(n, yellow, green):
    g = GAME.build(n)
    s = make(g, built=[["Kublai's 4 Elephants", "Chuang-Mu Hall", "Quarry"]], phase=SELL)
    obs = g.observe(s, 0)
    for name, extra in [("Kublai's 4 Elephants", yellow), ("Chuang-Mu Hall", green), ("Quarry", 0)]:
        c = cid(name)
        assert obs.price(c, 0) == g.cards[c].prices[0] + extra == g.sale_price(s, c)
        assert obs.price(c, 4) == g.cards[c].prices[4] + extra
    # without the bonus on every sale, forced and final sales pay the printed price only
    g2 = GAME.build(n, {"bonus_on_every_sale": False})
    obs2 = g2.observe(make(g2, built=[["Kublai's 4 Elephants"]], phase=SELL), 0)
    y = cid("Kublai's 4 Elephants")
    assert obs2.end_price(y, 4) == g.cards[y].prices[4] and obs2.price(y, 4) == g.cards[y].prices[4] + yellow


# ---------------------------------------------------------------- variant combinations
@pytest.mark.parametrize("n,opts,limit,resh", [
    (5, {"advanced": True}, 4, 2), (6, {"advanced": True}, 4, 2), (4, {"advanced": True}, 6, 1),
    (5, {"longer": True}, 4, 2), (5, {}, 4, 2), (3, {"longer": True}, 5, 2),
])
def test_variant_combinations(n, opts, limit, resh):
    r = resolve(Options(**opts), n)
    assert (r.build_limit, r.reshuffles_before_end) == (limit, resh)


def test_advanced_with_five_players_blocks_the_fifth_built_card():
    g = GAME.build(5, {"advanced": True})
    browns = [c.name for c in g.cards if c.colour == 0 and c.name not in ("Sawmill", "Clay Pit")]
    s = make(g, hands=[["Sawmill", "Clay Pit"]], built=[browns[:4]])
    s.pool[RES["wood"]] = s.pool[RES["clay"]] = 2
    assert not any(isinstance(a, Build) for a in g.legal_actions(s))
    s.built[0].pop()
    assert Build(cid("Sawmill")) in g.legal_actions(s)


@pytest.mark.parametrize("n,opts,want", [
    (4, {}, ()),
    (4, {"advanced": True, "longer": True}, ()),
    (5, {"longer": True}, ("longer adds nothing at 5-6 players: both mean three shuffles",)),
    (6, {"advanced": True}, ("the rulebook recommends the advanced game for at most 4 players; "
                             "the 5-6 player limit of 4 built cards applies",)),
    (5, {"advanced": True, "longer": True}, ("longer adds nothing", "recommends the advanced game")),
    (5, {"advanced": True, "build_limit": 6}, ("build_limit is set to 6 explicitly",)),
])
def test_notes_warn_about_option_combinations(n, opts, want):
    notes = GAME.build(n, opts).notes()
    assert len(notes) == len(want)
    for note, text in zip(notes, want, strict=True):
        assert note.startswith(text) or text in note


# ---------------------------------------------------------------- restart (RULINGS §4)
@pytest.mark.parametrize("n,opts,upto,place", [(2, {}, 8, 2), (4, {"advanced": True}, 8, 2), (3, {}, 7, 1),
                                               (2, {"restart_hand": 5}, 5, 2)])
def test_restart_follows_the_setup_of_the_variant(n, opts, upto, place):
    g = GAME.build(n, opts)
    hands = [["Sawmill"], ["Kiln", "Reception Hall"], ["Library"], []][:n]
    s = make(g, hands=hands, built=[["Quarry"]] + [[] for _ in range(n - 1)], phase=SELL)
    g.apply_action(s, Sell(cid("Quarry")))  # no built card left anywhere: restart
    assert s.restarts == 1
    assert [s.to_draw.count(i) for i in range(n)] == [upto - len(h) for h in hands]
    finish_draws(g, s)
    assert all(len(h) == upto for h in s.hands) and s.phase == START
    while s.phase == START:
        g.apply_action(s, g.legal_actions(s)[0])
    assert s.phase == WORK and s.active == 0
    assert [len(b) for b in s.built] == [place] * n and all(len(h) == upto - place for h in s.hands)


# ---------------------------------------------------------------- end_reason, stall rule
def test_end_reason_finished_when_the_end_card_is_drawn():
    g = GAME.build(2)
    s = make(g, hands=[[], []], built=[["Barracks"], []], draw=[])
    assert g.end_reason(s) == "unfinished"
    s.end_in, s.top_left, s.to_draw = True, 0, [0]
    g.apply_action(s, Draw(g.END))
    assert g.current_player(s) == TERMINAL and g.end_reason(s) == "finished" and not g.stalled(s)


def test_a_whole_round_that_changes_nothing_stalls_the_game():
    """Both seats hold 7 cards (no draw allowed) and only end their turns: after two quiet turns
    (one round of 2 players) the table can never change by itself: ``stalled``."""
    g = GAME.build(2)
    a = filler(7)
    b = [c.name for c in g.cards if c.colour == 1 and c.name not in ("Barracks", "Reception Hall")][:7]
    s = make(g, hands=[a, b], built=[["Barracks"], ["Reception Hall"]], phase=WORK)
    g.apply_action(s, END_TURN)
    assert g.current_player(s) == 1 and s.quiet_turns == 1
    g.apply_action(s, END_SELLING)
    g.apply_action(s, END_TURN)
    assert g.current_player(s) == TERMINAL and g.stalled(s) and g.end_reason(s) == "stalled"
    assert s.coins == [0, 0]  # no end-of-game sale


def test_any_action_resets_the_stall_count():
    g = GAME.build(2)
    a = filler(7)
    b = [c.name for c in g.cards if c.colour == 1 and c.name not in ("Barracks", "Reception Hall")][:7]
    s = make(g, hands=[a, b], built=[["Barracks"], ["Reception Hall"]], phase=WORK)
    g.apply_action(s, END_TURN)
    g.apply_action(s, END_SELLING)
    g.apply_action(s, PlaceWorker(cid(b[0]), cid("Barracks")))
    g.apply_action(s, END_TURN)
    if g.current_player(s) == 1:
        g.apply_action(s, DrawCards(1))
    finish_draws(g, s)
    assert g.current_player(s) == 0 and s.quiet_turns == 0


# ---------------------------------------------------------------- check_invariants
@pytest.mark.parametrize("seed,n,opts", [(i, 2 + i % 5, {"advanced": i % 3 == 0, "draw": ("optional", "forced")[i % 2]})
                                         for i in range(20)])
def test_invariants_hold_after_every_action_of_random_play(seed, n, opts):
    g = GAME.build(n, opts)
    s, _, ended = random_walk(g, seed, lambda s, p: g.check_invariants(s))
    assert ended


@pytest.mark.parametrize("corrupt,msg", [
    (lambda s: s.hands[0].append(s.draw[0]), "cards lost or duplicated"),
    (lambda s: s.coins.__setitem__(1, s.coins[1] + 1), "sum of sales"),
    (lambda s: s.workers[next(iter(s.workers))].extend([-1] * 5), "lost or duplicated|boxes out of range"),
    (lambda s: s.built[0].extend(s.built[1]), "wrong seat|lost or duplicated"),
])
def test_check_invariants_catches_a_corrupted_state(corrupt, msg):
    g = GAME.build(2)
    states = []
    random_walk(g, 3, lambda s, p: states.append(copy.deepcopy(s)) if p >= 0 and len(states) < 60 else None)
    s = states[-1]
    g.check_invariants(s)
    assert s.built[0] and s.built[1], "the sampled state has cards on both sides"
    corrupt(s)
    with pytest.raises(AssertionError, match=msg):
        g.check_invariants(s)


def test_worked_example_3_the_reception_hall_is_built_sideways():
    """Example 3: Caroline has the resources for the Reception Hall (porcelain + ink in the
    reference data): it is built sideways, takes no worker this turn, upright after the draw."""
    g = GAME.build(3)
    hall = cid("Reception Hall")
    s = make(g, hands=[[], ["Reception Hall"] + filler(2), []], built=[["Barracks"], [], []], active=1)
    s.pool[RES["porcelain"]] = s.pool[RES["ink"]] = 1
    g.apply_action(s, Build(hall))
    assert s.built[1] == [hall] and s.sideways == [hall]
    assert not any(isinstance(a, PlaceWorker) and a.target == hall for a in g.legal_actions(s))
    g.apply_action(s, END_TURN)
    g.apply_action(s, DrawCards(1))
    finish_draws(g, s, random.Random(1))
    assert s.sideways == [] and hall in s.built[1] and g.current_player(s) != CHANCE
