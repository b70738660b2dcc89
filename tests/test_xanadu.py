"""Xanadu: rulebook examples as known values, data checks, variants, no-leak, determinize,
invariants under random play, determinism. Expected values are derived by hand from the
rulebook (seeds/002) and the reference data's documented example cards."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from conftest import random_walk
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.api import CHANCE, TERMINAL, SimError
from sim.games.xanadu import GAME
from sim.games.xanadu.actions import (
    END_SELLING,
    END_TURN,
    Build,
    Draw,
    DrawCards,
    EndSelling,
    PlaceStart,
    PlaceWorker,
    Sell,
)
from sim.games.xanadu.engine import CHOOSE_DRAW, SELL, START, WORK, State
from sim.games.xanadu.rules import Options, load_data, resolve
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams

G4 = GAME.build(4)
ID = {c.name: c.id for c in G4.cards}
RES = {r: i for i, r in enumerate(G4.resources)}


def cid(name: str) -> int:
    return ID[name]


def make(game, *, hands=None, built=None, workers=None, active=0, phase=WORK, draw=None, discard=None) -> State:
    """A hand-built state. ``built[seat]`` lists card names; ``workers[name]`` is a list of
    (worker card name, placer seat)."""
    n = game.num_players
    s = game.new_blank(n)
    used = set()
    for seat, names in enumerate(hands or []):
        s.hands[seat] = [cid(x) for x in names]
        used.update(s.hands[seat])
    for seat, names in enumerate(built or []):
        for x in names:
            game._put(s, seat, cid(x))
            used.add(cid(x))
    for host, ws in (workers or {}).items():
        s.workers[cid(host)] = [cid(w) for w, _ in ws]
        s.placers[cid(host)] = [p for _, p in ws]
        used.update(cid(w) for w, _ in ws)
    s.discard = [cid(x) for x in (discard or [])]
    used.update(s.discard)
    n_used = sum(len(h) for h in s.hands) + sum(len(b) for b in s.built) + len(s.discard)
    n_used += sum(len(w) for w in s.workers.values())
    assert n_used == len(used), "a card is used twice in the scripted state"
    s.draw = [c for c in range(game.n_cards) if c not in used] if draw is None else draw
    s.active, s.phase = active, phase
    return s


def filler(k: int, avoid=()) -> list[str]:
    """``k`` names of plain brown cards (hand fillers) not in ``avoid``."""
    names = [c.name for c in G4.cards if c.colour == 0 and c.name not in avoid and c.name != "Tailor's Workshop"]
    return names[:k]


def end_turn(game, s) -> tuple[int, ...]:
    """``EndTurn``, then (``draw: optional``) draw the most cards allowed, as the forced rule would.
    Returns the numbers of cards offered (empty when no choice was offered)."""
    game.apply_action(s, END_TURN)
    if game.current_player(s) >= 0 and s.phase == CHOOSE_DRAW:
        offered = tuple(a.count for a in game.legal_actions(s))
        game.apply_action(s, DrawCards(max(offered)))
        return offered
    return ()


def finish_draws(game, s, rng=None):
    rng = rng or random.Random(0)
    while game.current_player(s) == CHANCE:
        game.apply_action(s, game.sample_chance(s, rng))


# ---------------------------------------------------------------- data
def test_card_counts_and_colours_match_the_rulebook():
    cards = G4.cards
    assert len(cards) == 70
    counts = [sum(c.colour == k for c in cards) for k in range(4)]
    assert counts == [24, 24, 12, 10]
    for c in cards:
        assert len(c.boxes) == 4 and len(c.prices) == 5 and len(c.khan) == 4
        assert sum(c.cost) >= 1
    jade = RES["jade"]
    assert all(c.cost[jade] >= 1 for c in cards if c.colour == 3), "green cards cost jade"
    base = {0: {"wood", "clay", "stone"}, 1: {"silk", "porcelain", "ink"}, 2: {"gold", "bronze"}}
    for c in cards:
        if c.colour in base:  # each card's cost includes its colour's base resources
            assert any(c.cost[RES[r]] for r in base[c.colour]), c.name
    # brown cards give more resources than the others, and carry the most Khan's help
    per = [[sum(map(sum, c.boxes)) for c in cards if c.colour == k] for k in range(4)]
    assert min(per[0]) > max(per[2]) and sum(per[0]) / 24 > sum(per[1]) / 24
    khan = [sum(sum(k >= 0 for k in c.khan) for c in cards if c.colour == k) for k in range(4)]
    assert khan[0] > khan[1] >= khan[2]


def test_named_example_cards():
    bar = G4.cards[cid("Barracks")]
    assert bar.prices[0] == 6 and bar.prices[3] == 2  # 'a 3 workers ... 6-ról 2-re csökken'
    got = [sum(x) for x in zip(*bar.boxes[:3], strict=True)]
    assert got[RES["jade"]] >= 1 and got[RES["bronze"]] >= 2 and got[RES["stone"]] >= 1
    assert G4.cards[cid("Tailor's Workshop")].prices[2] == 1
    assert G4.cards[cid("Kublai's 4 Elephants")].prices[3] == 6
    hp = G4.cards[cid("Hunting Park")]
    assert hp.cost[RES["jade"]] == 1 and hp.cost[RES["bronze"]] == 2 and hp.cost[RES["stone"]] == 1 and sum(hp.cost) == 4


def test_bad_data_names_file_line_and_key(tmp_path: Path):
    src = Path(__file__).resolve().parents[1] / "sim/games/xanadu/data/cards.yaml"
    text = src.read_text().replace("kind: sabotage", "kind: sabbotage", 1)
    bad = tmp_path / "cards.yaml"
    bad.write_text(text)
    with pytest.raises(SimError) as e:
        load_data({"cards": bad})
    assert "cards.yaml, line" in str(e.value) and "kind" in str(e.value)
    text = src.read_text().replace("counts: {brown: 24", "counts: {brown: 23", 1)
    bad.write_text(text)
    with pytest.raises(SimError, match="counts"):
        load_data({"cards": bad})
    # a box kind that contradicts the prices is refused
    text = src.read_text().replace("kind: development", "kind: trade", 1)
    bad.write_text(text)
    with pytest.raises(SimError, match="price"):
        load_data({"cards": bad})


# ---------------------------------------------------------------- rulebook examples
def test_example_1_selling_two_cards_for_7_and_discarding_5_workers():
    """Alexander sells the Tailor's Workshop (1) and Kublai's 4 Elephants (6): 7 tong bao; both cards
    go to the discard with their 5 workers; he keeps the Chuang-Mu Hall; he then draws 3."""
    g = GAME.build(3)
    w = filler(5, avoid=["Sawmill"])
    s = make(g, hands=[["Sawmill"], [], []], built=[["Tailor's Workshop", "Kublai's 4 Elephants", "Chuang-Mu Hall"]],
             workers={"Tailor's Workshop": [(w[0], 1), (w[1], 2)],
                      "Kublai's 4 Elephants": [(w[2], 1), (w[3], 2), (w[4], 0)]}, phase=SELL)
    legal = g.legal_actions(s)
    assert set(legal) == {Sell(cid("Tailor's Workshop")), Sell(cid("Kublai's 4 Elephants")), Sell(cid("Chuang-Mu Hall")),
                          END_SELLING}
    g.apply_action(s, Sell(cid("Tailor's Workshop")))
    g.apply_action(s, Sell(cid("Kublai's 4 Elephants")))
    assert s.coins[0] == 7
    assert sorted(s.discard) == sorted([cid("Tailor's Workshop"), cid("Kublai's 4 Elephants")] + [cid(x) for x in w])
    assert s.built[0] == [cid("Chuang-Mu Hall")]
    g.apply_action(s, END_SELLING)
    end_turn(g, s)
    assert s.to_draw == [0, 0, 0]  # sold in phase 1: 3 cards


def test_example_2_three_workers_on_barracks_pay_a_card_and_drop_its_price_6_to_2():
    g = GAME.build(3)
    hand = ["Hunting Park"] + filler(3)
    s = make(g, hands=[[], hand, []], built=[["Barracks"], [], []], active=1)
    bar, park = cid("Barracks"), cid("Hunting Park")
    assert g.sale_price(s, bar) == 6
    assert Build(park) not in g.legal_actions(s)
    for w in filler(3):
        g.apply_action(s, PlaceWorker(cid(w), bar))
    assert g.sale_price(s, bar) == 2
    assert Build(park) in g.legal_actions(s)
    g.apply_action(s, Build(park))
    assert s.built[1] == [park] and s.sideways == [park]
    assert all(x == 0 for x in s.pool)  # jade, 2 bronze and stone spent; the Barracks' 4th box untouched
    # the build limit of one card a turn: nothing else builds this turn
    assert not any(isinstance(a, Build) for a in g.legal_actions(s))


def test_example_3_a_sideways_card_refuses_workers_until_the_end_of_the_turn():
    g = GAME.build(2)
    s = make(g, hands=[["Sawmill", "Clay Pit", "Quarry"], filler(2, avoid=["Sawmill", "Clay Pit", "Quarry"])],
             built=[["Barracks"], ["Tailor's Workshop"]], active=0)
    s.pool[RES["wood"]] = 1
    s.pool[RES["clay"]] = 1  # e.g. from boxes taken earlier this turn
    saw = cid("Sawmill")  # costs wood + clay
    g.apply_action(s, Build(saw))
    legal = g.legal_actions(s)
    assert not any(isinstance(a, PlaceWorker) and a.target == saw for a in legal)
    assert any(isinstance(a, PlaceWorker) and a.target == cid("Barracks") for a in legal)
    end_turn(g, s)
    finish_draws(g, s)
    assert s.sideways == [] and s.active == 1
    # upright again: the next player may place a worker on it (after phase 1)
    g.apply_action(s, END_SELLING)
    assert any(isinstance(a, PlaceWorker) and a.target == saw for a in g.legal_actions(s))


def test_sale_price_is_the_lowest_uncovered_box_then_the_final_price():
    g = GAME.build(2)
    bar = cid("Barracks")
    s = make(g, built=[["Barracks"], []])
    prices = g.cards[bar].prices
    for k in range(5):
        s.workers[bar] = list(range(60, 60 + k))
        assert g.sale_price(s, bar) == prices[k]


# ---------------------------------------------------------------- phase 3: draws, hand limit, forced sale
def test_draw_one_if_nothing_sold_three_if_sold_refill_to_7_if_idle():
    g = GAME.build(2)
    hand = filler(4)
    s = make(g, hands=[hand, []], built=[["Barracks", "Kiln"], ["Tailor's Workshop"]], phase=SELL)
    g.apply_action(s, END_SELLING)
    g.apply_action(s, PlaceWorker(cid(hand[0]), cid("Tailor's Workshop")))
    end_turn(g, s)
    assert s.to_draw == [0]  # placed a worker, sold nothing: 1 card
    s = make(g, hands=[hand, []], built=[["Barracks", "Kiln"], ["Tailor's Workshop"]], phase=SELL)
    g.apply_action(s, Sell(cid("Kiln")))
    g.apply_action(s, END_SELLING)
    end_turn(g, s)
    assert s.to_draw == [0, 0, 0]
    s = make(g, hands=[hand, []], built=[["Barracks", "Kiln"], ["Tailor's Workshop"]], phase=SELL)
    g.apply_action(s, END_SELLING)
    end_turn(g, s)
    assert s.to_draw == [0, 0, 0]  # idle: up to 7 from 4
    assert s.refills[0] == 1


def test_hand_never_above_7():
    g = GAME.build(2)
    hand = filler(6, avoid=["Kiln"])
    s = make(g, hands=[hand, []], built=[["Barracks", "Kiln"], ["Tailor's Workshop"]], phase=SELL)
    g.apply_action(s, Sell(cid("Kiln")))
    g.apply_action(s, END_SELLING)
    end_turn(g, s)
    assert s.to_draw == [0]  # sold: 3, but 6 + 1 = 7
    s = make(g, hands=[filler(7), []], built=[["Barracks"], ["Tailor's Workshop"]], phase=SELL)
    g.apply_action(s, END_SELLING)
    end_turn(g, s)
    assert s.to_draw == []


def test_forced_sale_at_final_price_after_the_draw_and_not_a_sale_for_drawing():
    g = GAME.build(2)
    w = filler(4, avoid=["Quarry"])
    quarry = cid("Quarry")
    s = make(g, hands=[["Stable", "Kiln"], []], built=[["Quarry", "Barracks"], ["Tailor's Workshop"]],
             workers={"Quarry": [(w[0], 1), (w[1], 1), (w[2], 1)]}, phase=SELL)
    g.apply_action(s, END_SELLING)
    g.apply_action(s, PlaceWorker(cid("Stable"), quarry))  # 4th box: fully covered
    # until the end of the turn its Khan's help stays usable
    assert quarry in s.built[0]
    end_turn(g, s)
    assert s.to_draw == [0]  # the forced sale is not a phase-1 sale
    finish_draws(g, s)
    assert quarry not in s.built[0] and s.coins[0] == g.cards[quarry].prices[4] and s.forced[0] == 1
    assert quarry in s.discard and all(cid(x) in s.discard for x in w[:3])


def test_khan_help_and_permanent_resources_count_once_per_turn():
    g = GAME.build(2)
    saw = g.cards[cid("Sawmill")]  # permanent: wood; box 1 Khan's help: stone
    s = make(g, hands=[filler(3, avoid=["Sawmill"]), []], built=[["Sawmill"], []])
    before = g.available(s)
    assert before[RES["wood"]] == 1 and before[RES["stone"]] == 0
    g.apply_action(s, PlaceWorker(s.hands[0][0], cid("Sawmill")))
    after = g.available(s)
    assert after[saw.khan[0]] == before[saw.khan[0]] + 1 + saw.boxes[0][saw.khan[0]]
    assert saw.permanent == RES["wood"]


def test_box_resources_are_lost_at_the_end_of_the_turn():
    g = GAME.build(2)
    s = make(g, hands=[filler(3), filler(2, avoid=filler(3))], built=[["Barracks"], ["Tailor's Workshop"]])
    g.apply_action(s, PlaceWorker(s.hands[0][0], cid("Barracks")))
    assert sum(s.pool) > 0
    end_turn(g, s)
    finish_draws(g, s)
    assert sum(s.pool) == 0 and sum(s.perm_used) == 0


# ---------------------------------------------------------------- variants and limits
@pytest.mark.parametrize("n,opts,limit,deal,start,resh,bonus,per_turn", [
    (2, {}, 5, 8, 2, 1, (0, 0, 0, 0), 1),
    (3, {}, 5, 7, 1, 1, (0, 0, 0, 0), 1),
    (4, {}, 5, 7, 1, 1, (0, 0, 0, 0), 1),
    (5, {}, 4, 7, 1, 2, (0, 0, 1, 2), 1),
    (6, {}, 4, 7, 1, 2, (0, 0, 1, 2), 1),
    (4, {"advanced": True}, 6, 8, 2, 1, (0, 0, 0, 0), 99),
    (4, {"advanced": True, "longer": True}, 6, 8, 2, 2, (0, 0, 0, 0), 99),
    (3, {"longer": True}, 5, 7, 1, 2, (0, 0, 0, 0), 1),
    (5, {"build_limit": 5, "sale_bonus": (0, 0, 0, 0)}, 5, 7, 1, 2, (0, 0, 0, 0), 1),
])
def test_variant_defaults(n, opts, limit, deal, start, resh, bonus, per_turn):
    r = resolve(Options(**opts), n)
    assert (r.build_limit, r.deal, r.starting_cards, r.reshuffles_before_end, r.sale_bonus, r.builds_per_turn) == (
        limit, deal, start, resh, bonus, per_turn)


@pytest.mark.parametrize("n,opts,limit", [(2, {}, 5), (4, {}, 5), (5, {}, 4), (6, {}, 4), (4, {"advanced": True}, 6)])
def test_built_card_limit_blocks_building(n, opts, limit):
    g = GAME.build(n, opts)
    browns = [c.name for c in g.cards if c.colour == 0]
    s = make(g, hands=[["Sawmill", "Clay Pit"]], built=[browns[2:2 + limit]])
    s.pool[RES["wood"]] = s.pool[RES["clay"]] = 2
    assert not any(isinstance(a, Build) for a in g.legal_actions(s))
    s.built[0].pop()
    assert Build(cid("Sawmill")) in g.legal_actions(s)


def test_advanced_game_builds_several_cards_each_with_its_own_resources():
    g = GAME.build(4, {"advanced": True})
    s = make(g, hands=[["Sawmill", "Clay Pit", "Quarry"]], built=[["Barracks"]])
    s.pool[RES["wood"]] = 3
    s.pool[RES["clay"]] = 1  # Sawmill: wood+clay; Clay Pit: wood+wood; Quarry: clay+clay
    g.apply_action(s, Build(cid("Sawmill")))
    legal = g.legal_actions(s)
    assert Build(cid("Clay Pit")) in legal and Build(cid("Quarry")) not in legal  # the clay went to the Sawmill
    g.apply_action(s, Build(cid("Clay Pit")))
    assert s.builds == 2 and sum(s.pool) == 0


@pytest.mark.parametrize("n,extra_yellow,extra_green", [(4, 0, 0), (5, 1, 2), (6, 1, 2)])
def test_five_six_player_sale_bonuses(n, extra_yellow, extra_green):
    g = GAME.build(n)
    y, gr, br = cid("Kublai's 4 Elephants"), cid("Chuang-Mu Hall"), cid("Quarry")
    s = make(g, built=[["Kublai's 4 Elephants", "Chuang-Mu Hall", "Quarry"]], phase=SELL)
    for c in (y, gr, br):
        g.apply_action(s, Sell(c))
    base = g.cards[y].prices[0] + g.cards[gr].prices[0] + g.cards[br].prices[0]
    assert s.coins[0] == base + extra_yellow + extra_green
    assert s.coins_by_colour[0][2] == g.cards[y].prices[0] + extra_yellow


# ---------------------------------------------------------------- setup, restart, deck
def test_setup_deals_and_places_starting_cards_by_colour_priority():
    for n, deal, k in [(4, 7, 1), (2, 8, 2)]:
        g = GAME.build(n)
        s = g.new_initial_state()
        finish_draws(g, s, random.Random(n))
        assert s.phase == START and [len(h) for h in s.hands] == [deal] * n
        while s.phase == START:
            seat = g.current_player(s)
            legal = g.legal_actions(s)
            hand = s.hands[seat]
            cols = [g.colour[c] for c in hand]
            want = next(c for c in (0, 1, 2) if c in cols)
            assert {g.colour[a.card] for a in legal} == {want}
            g.apply_action(s, legal[0])
        assert s.phase == SELL and all(len(b) == k for b in s.built) and all(len(h) == deal - k for h in s.hands)


def test_start_choices_stay_hidden_until_all_are_placed():
    g = GAME.build(3)
    s = g.new_initial_state()
    finish_draws(g, s)
    g.apply_action(s, g.legal_actions(s)[0])
    o1 = g.observe(s, 1)
    assert o1.built == ((), (), ()) and o1.start_placed == (1, 0, 0) and o1.my_start == ()
    assert g.observe(s, 0).my_start == tuple(s.pending[0]) and len(s.pending[0]) == 1


def test_restart_when_no_built_card_is_left():
    g = GAME.build(3)
    s = make(g, hands=[["Sawmill"], ["Kiln", "Reception Hall"], ["Library"]], built=[["Quarry"], [], []], phase=SELL)
    g.apply_action(s, Sell(cid("Quarry")))  # nothing left to sell: phase 1 ends by itself
    assert s.restarts == 1 and s.to_draw.count(0) == 6 and s.to_draw.count(1) == 5 and s.to_draw.count(2) == 6
    finish_draws(g, s)
    assert s.phase == START and all(len(h) == 7 for h in s.hands)
    while g.current_player(s) >= 0 and s.phase == START:
        g.apply_action(s, g.legal_actions(s)[0])
    assert s.phase == WORK and s.active == 0 and all(len(b) == 1 for b in s.built)
    end_turn(g, s)
    assert s.to_draw == [0]  # sold in phase 1 (3 cards) but 6 in hand: only 1 more


def test_end_card_always_within_the_last_10_after_the_first_reshuffle():
    for n, opts, resh in [(4, {}, 1), (3, {"longer": True}, 2), (5, {}, 2)]:
        g = GAME.build(n, opts)
        for seed in range(6):
            seen = {}

            def check(s, p, seen=seen, g=g):
                if p == CHANCE and s.end_in:
                    seen.setdefault("inserted", len(s.draw))
                    assert len(s.draw) <= s.top_left + 10
                    if s.top_left:
                        assert Draw(g.END) not in dict(g.chance_outcomes(s))
                if p == TERMINAL:
                    seen["end"] = (s.end_drawn, len(s.draw), s.reshuffles)

            random_walk(g, seed, check)
            drawn, left, reshuffles = seen["end"]
            assert drawn and left <= 10 and reshuffles == resh


def test_end_of_game_sells_every_built_card():
    g = GAME.build(2)
    s = make(g, hands=[[], []], built=[["Barracks"], ["Quarry", "Chuang-Mu Hall"]], draw=[])
    s.end_in, s.top_left = True, 0
    s.to_draw = [0]
    assert g.chance_outcomes(s) == ((Draw(g.END), 1.0),)
    g.apply_action(s, Draw(g.END))
    assert g.current_player(s) == TERMINAL
    assert s.coins == [6, g.cards[cid("Quarry")].prices[0] + g.cards[cid("Chuang-Mu Hall")].prices[0]]
    assert g.winners(s) == frozenset({1})


def test_ties_share_the_win():
    g = GAME.build(3)
    s = make(g)
    s.coins = [5, 9, 9]
    assert g.winners(s) == frozenset({1, 2})


# ---------------------------------------------------------------- hidden information
def test_no_leak_changing_hidden_cards_leaves_the_observation_unchanged():
    g = GAME.build(4)
    chance, (rng, *_) = game_streams(11, 0, 1)
    s = g.new_initial_state()
    checked = 0
    for _ in range(600):
        p = g.current_player(s)
        if p == TERMINAL:
            break
        if p == CHANCE:
            g.apply_action(s, g.sample_chance(s, chance))
            continue
        for seat in range(4):
            obs = g.observe(s, seat)
            t = copy.deepcopy(s)
            # swap hidden cards: another seat's hand card with a draw pile card, and another seat's worker
            others = [q for q in range(4) if q != seat and t.hands[q]]
            if others and t.draw:
                q = others[0]
                t.hands[q][0], t.draw[0] = t.draw[0], t.hands[q][0]
            for host, pl in t.placers.items():
                for i, who in enumerate(pl):
                    if who != seat and t.draw:
                        t.workers[host][i], t.draw[-1] = t.draw[-1], t.workers[host][i]
                        break
            random.Random(1).shuffle(t.draw)
            assert g.observe(t, seat) == obs
            checked += 1
        legal = g.legal_actions(s)
        g.apply_action(s, legal[rng.randrange(len(legal))])
    assert checked > 100


def test_determinize_is_consistent_with_the_observation():
    g = GAME.build(4)
    for seed in range(4):
        states: list = []

        def keep(s, p, states=states):
            if p >= 0 and len(states) < 300:
                states.append(copy.deepcopy(s))

        random_walk(g, seed, keep)
        rng = random.Random(seed)
        for s in states[::7]:
            for seat in range(4):
                obs = g.observe(s, seat)
                d = g.determinize(obs, rng)
                assert g.observe(d, seat) == obs
                assert g.current_player(d) == g.current_player(s)
                assert g.legal_actions(d) == g.legal_actions(s) or seat != g.current_player(s)


# ---------------------------------------------------------------- invariants and determinism
def _check_invariants(g, s, p):
    n_cards = g.n_cards
    cards = [c for h in s.hands for c in h] + [c for b in s.built for c in b] + s.draw + s.discard
    cards += [w for ws in s.workers.values() for w in ws] + [c for pnd in s.pending for c in pnd]
    assert sorted(cards) == list(range(n_cards)), "every card is in exactly one place"
    lim = g.r.build_limit
    for seat in range(s.n):
        assert len(s.built[seat]) <= lim
        if s.phase in (SELL, WORK):
            assert len(s.hands[seat]) <= g.options.hand_limit
    for c, ws in s.workers.items():
        assert len(ws) <= 4 and len(s.placers[c]) == len(ws) and c in s.owner
    assert set(s.owner) == {c for b in s.built for c in b}
    assert all(x >= 0 for x in s.pool) and all(x >= 0 for x in g.available(s)) if s.phase == WORK else True
    assert s.builds <= g.r.builds_per_turn
    assert sum(map(sum, s.coins_by_colour)) == sum(s.coins)


@settings(max_examples=20, deadline=None)
@pytest.mark.integration  # many random games; test_conformance checks invariants in the fast suite
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6), adv=st.booleans())
def test_invariants_under_random_play(seed, n, adv):
    g = GAME.build(n, {"advanced": adv})
    last = [0] * n

    def check(s, p):
        _check_invariants(g, s, p)
        assert all(a >= b for a, b in zip(s.coins, last, strict=True)), "tong bao never decrease"
        last[:] = s.coins

    s, _, ended = random_walk(g, seed, check)
    assert ended and (s.end_drawn or g.end_reason(s) == "stalled")  # a random walk may stall (engine stall rule)


def test_same_seed_same_history():
    g = GAME.build(4)
    strats = [make_strategy(x, {}, "xanadu") for x in ("xanadu.builder", "xanadu.saboteur", "xanadu.hoarder", "random")]

    def run():
        chance, rngs = game_streams(3, 5, 4)
        return play_game(g, strats, chance, rngs, max_decisions=g.options.max_decisions, record=True)

    a, b = run(), run()
    assert a.log == b.log and a.state == b.state and a.n_decisions > 50


def test_scripted_strategies_beat_random():
    g = GAME.build(2)
    for name in ("xanadu.builder", "xanadu.saboteur", "xanadu.hoarder"):
        wins = 0
        for i in range(10):
            chance, rngs = game_streams(21, i, 2)
            seats = [make_strategy(name, {}, "xanadu"), make_strategy("random", {}, "xanadu")]
            if i % 2:
                seats.reverse()
            r = play_game(g, seats, chance, rngs, max_decisions=g.options.max_decisions)
            me = i % 2
            wins += me in g.winners(r.state) and len(g.winners(r.state)) == 1
        assert wins >= 8, name


def test_describe_and_components():
    g = GAME.build(3)
    chance, rngs = game_streams(2, 0, 3)
    lines = []
    strats = [make_strategy("xanadu.builder", {}, "xanadu")] * 3
    st_ref = [None]

    def on(p, a):
        lines.append(g.describe(st_ref[0], a))

    s = g.new_initial_state()
    st_ref[0] = s
    play_game(g, strats, chance, rngs, max_decisions=2000, on_decision=on, state=s)
    assert any("builds" in x for x in lines) and any("worker" in x for x in lines)
    comp = g.components(s)
    assert set(comp) == {"card_built", "card_started", "card_sold"} and all(len(v) == 3 for v in comp.values())
    m = g.metrics(s)
    assert all(len(v) == 3 for v in m.values())
    assert sum(map(sum, (m[f"tong_bao_{c}"] for c in ("brown", "blue", "yellow", "green")))) == sum(g.scores(s))
    assert isinstance(EndSelling(), EndSelling) and PlaceStart(1).card == 1


def test_forced_sale_option_all_sells_every_fully_covered_card_to_its_owner():
    w = filler(4, avoid=["Quarry"])
    for mode, sold in [("active", False), ("all", True)]:
        g = GAME.build(2, {"forced_sale": mode})
        s = make(g, hands=[["Stable"], []], built=[["Barracks"], ["Quarry"]],
                 workers={"Quarry": [(w[0], 0), (w[1], 0), (w[2], 0)]}, phase=SELL)
        g.apply_action(s, END_SELLING)
        g.apply_action(s, PlaceWorker(cid("Stable"), cid("Quarry")))
        end_turn(g, s)
        finish_draws(g, s)
        assert (cid("Quarry") not in s.built[1]) == sold
        assert s.coins[1] == (g.cards[cid("Quarry")].prices[4] if sold else 0)


def test_selling_for_zero_is_allowed():
    g = GAME.build(2)
    quarry = cid("Quarry")
    assert g.cards[quarry].prices[0] == 0
    s = make(g, built=[["Quarry", "Barracks"], []], phase=SELL)
    assert Sell(quarry) in g.legal_actions(s)
    g.apply_action(s, Sell(quarry))
    assert s.coins[0] == 0 and s.sold and quarry in s.discard


def test_scores_if_ended_is_the_end_of_game_sale_now():
    """'Játék vége': every built card sells at its current price. Barracks with no worker sells
    for 6 (example above); Quarry under one worker at its box-2 price."""
    g = GAME.build(2)
    s = make(g, hands=[[], []], built=[["Barracks"], ["Quarry", "Chuang-Mu Hall"]],
             workers={"Quarry": [(filler(1)[0], 0)]}, draw=[])
    s.coins = [3, 4]
    quarry, hall = g.cards[cid("Quarry")], g.cards[cid("Chuang-Mu Hall")]
    expected = (3.0 + 6, 4.0 + quarry.prices[1] + hall.prices[0])
    assert g.scores_if_ended(s) == expected
    assert g.scores(s) == (3.0, 4.0)  # the state is not changed
    s.end_in, s.top_left, s.to_draw = True, 0, [0]
    g.apply_action(s, Draw(g.END))  # the real end gives the same tong bao
    assert g.scores(s) == expected
