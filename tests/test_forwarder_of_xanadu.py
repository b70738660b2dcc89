"""Forwarder of Xanadu: rulebook examples as known values, data checks, no-leak, determinize,
invariants under random play, determinism (rulebook seeds/000, RULINGS §6)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import random_walk
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.api import CHANCE, TERMINAL, SimError
from sim.games.forwarder_of_xanadu.actions import (
    END_ACTION,
    FULFIL,
    IMPROVE,
    QUALITY,
    SKILL,
    TRANSPORT,
    TRANSPORT_TRACK,
    WAREHOUSE,
    WORKERS,
    ChooseStart,
    DrawOrder,
    FulfilDaily,
    FulfilOrder,
    Improve,
    Move,
    PlaceProxy,
    PlaceResource,
    PlaceWorker,
    Unlock,
)
from sim.games.forwarder_of_xanadu.engine import (
    ACT,
    GAIN,
    GROW,
    PRE,
    V_COMP,
    V_FIN,
    V_INT,
    V_PROXY,
    ForwarderOfXanadu,
    payments,
)
from sim.games.forwarder_of_xanadu.rules import Options, load_data
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams


def GAME(n, options=None, data=None):
    """The engine; 2-player games set ``allow_two_players`` (RULINGS §6: published for 3-5)."""
    o = options or Options()
    if n == 2:
        o = o.model_copy(update={"allow_two_players": True})
    return ForwarderOfXanadu(n, o, data)


def first_main_state(n=4, **opts):
    """A state at the first decision of round 1 (chance: first outcome; setup: first choice)."""
    g = GAME(n, Options(**opts))
    s = g.new_initial_state()
    while not (s.phase == PRE and not s.to_draw):
        p = g.current_player(s)
        a = g.chance_outcomes(s)[0][0] if p == CHANCE else g.legal_actions(s)[0]
        g.apply_action(s, a)
    return g, s


def order_with_cost(g, cost, grade=None):
    return next(c for c in g.orders if c.cost == cost and (grade is None or c.grade == grade))


def area_pos_with_icon(g, s, type_):
    return next(x for x in range(1, 10) if type_ in g.area_icons[s.area_at[x - 1]])


# ---------------------------------------------------------------- data
def test_reference_data_matches_the_rulebook():
    d = load_data()
    assert len(d.orders.lower) + len(d.orders.upper) == 60  # 'Order Cards (60)'
    assert len(d.orders.types) == 5
    assert len(d.orders.daily) * len(d.companies.companies) == 10  # 'Daily Cards (10)', 2 per company
    assert len(d.companies.companies) == 5
    assert len(d.skills.cards) == 40
    colours = {c.colour for c in d.skills.cards}
    assert len(colours) == 6 and "white" in colours  # 5 company colours + white
    for comp in d.companies.companies:
        assert sum(c.colour == comp.colour for c in d.skills.cards) == 4  # 'Standard': 4 company cards
    marks = sorted(p.mark for p in d.map.positions)
    assert marks == [1, 1, 1, 1, 2, 2, 2, 3, 3]  # scoring marks 1/1/1/1/2/2/2/3/3
    t = d.companies.tracks
    assert t.warehouse[0].capacity == 4 and t.transport[0].capacity == 1
    locked = len(t.warehouse) + len(t.transport) + len(t.quality) - 3 + 1 + t.skill_spaces
    assert locked == 11  # 11 proxy workers on the locked spaces
    assert t.warehouse[-1].replenish == 3  # "= 3 from the 3rd space"
    g = GAME(5)
    assert g.tables.marks[0] == 0 and len(g.adj) == 10
    assert all(b in g.adj[a] for a in range(10) for b in g.adj[a])  # symmetric


def test_bad_data_file_names_file_line_and_key(tmp_path: Path):
    text = Path(__file__).resolve().parents[1].joinpath("sim/games/forwarder_of_xanadu/data/skills.yaml").read_text()
    bad = tmp_path / "skills.yaml"
    bad.write_text(text.replace("effect: gain_vp, amount: 2", "effect: gain_vpp, amount: 2"))
    with pytest.raises(SimError, match=r"skills.yaml, line \d+, key 'cards.\d+.effect'"):
        load_data({"skills": bad})
    few = tmp_path / "orders.yaml"
    otext = Path(__file__).resolve().parents[1].joinpath("sim/games/forwarder_of_xanadu/data/orders.yaml").read_text()
    few.write_text(otext.replace("  - {type: Books, cost: [2, 0, 0], vp: 3}\n", "", 1))
    with pytest.raises(SimError, match="60 order cards"):
        load_data({"orders": few})
    with pytest.raises(SimError, match="unknown data file"):
        load_data({"cards": few})


# ---------------------------------------------------------------- setup
def test_setup_gives_every_player_its_starting_kit():
    g, s = first_main_state(4)
    assert len(s.area_at) == 9 and sorted(s.area_at) == list(range(9))
    assert sum(g.grade_of[c] == 0 for c in s.market) == 3 and sum(g.grade_of[c] == 1 for c in s.market) == 3
    for seat in range(4):
        assert s.wh[seat][0] == 6 and sum(s.wh[seat]) == 6  # 6 standard resources at the port
        assert s.workers[seat] == 3 and s.proxies[seat] == 0 and s.tokens_left[seat] == 12
        assert s.excl[seat] >= 0 and g.grade_of[s.excl[seat]] == 0  # lower exclusive order
        assert s.dailies[seat] == [1, 1]
        hand = s.hands[seat]
        assert len(hand) == 6  # Standard: 4 company cards + 2 dealt
        colour = g.company_colours[s.company[seat]]
        assert sum(g.skills[c].colour == colour for c in hand) >= 4
    assert len(set(s.company)) == 4


def test_custom_style_drafts_six_cards_each():
    g, s = first_main_state(3, style="custom")
    assert all(len(h) == 6 for h in s.hands) and not any(s.draft_hands)
    assert len({c for h in s.hands for c in h}) == 18


# ---------------------------------------------------------------- actions
def test_space_n_gives_3_minus_n_resources_and_n_actions():
    g, s = first_main_state(2)
    me = s.active
    g.apply_action(s, PlaceWorker(TRANSPORT))  # space 1: 2 resources, 1 action
    assert s.phase == GAIN and s.gain_left == 2 and s.act_left == 1
    s2 = g.clone(s)
    g.apply_action(s, PlaceResource(0))
    g.apply_action(s, PlaceResource(0))
    assert s.phase == ACT and s.wh[me][0] == 8
    # the rulebook's example: the 2nd space of Transport gives 1 resource and 2 transports
    s2.spaces[TRANSPORT] = 1
    s2.phase = PRE
    s2.workers[me] += 1
    g.apply_action(s2, PlaceWorker(TRANSPORT))
    assert s2.gain_left == 1 and s2.act_left == 2


def test_gained_resources_go_one_per_area_already_holding_resources():
    g, s = first_main_state(2)
    me = s.active
    s.wh[me][3 * 3] = 1  # one resource at position 3
    g.apply_action(s, PlaceWorker(IMPROVE))  # 2 resources to place
    assert set(g.legal_actions(s)) == {PlaceResource(0), PlaceResource(3)}  # not where you have none
    g.apply_action(s, PlaceResource(3))
    assert g.legal_actions(s) == (PlaceResource(0),)  # no more than 1 in a single area


def test_proxy_workers_one_action_becomes_three():
    """'Action Count Adjustment': normally 1 action; two proxy workers make it 3."""
    g, s = first_main_state(2)
    me = s.active
    s.round, s.proxies[me] = 2, 2
    g.apply_action(s, PlaceProxy(FULFIL))
    g.apply_action(s, PlaceProxy(FULFIL))
    assert s.spaces[FULFIL] == 2 and s.proxies[me] == 0
    g.apply_action(s, PlaceWorker(FULFIL))
    assert s.act_left == 3 and s.gain_left == 0 and s.phase == ACT


def test_proxy_worker_reset_three_actions_become_one():
    """Normally 3 actions (spaces 1-2 filled); a proxy on space 3 resets, the worker takes space 1."""
    g, s = first_main_state(2)
    me = s.active
    s.round, s.proxies[me] = 2, 1
    s.spaces[TRANSPORT] = 2
    g.apply_action(s, PlaceProxy(TRANSPORT))
    assert s.spaces[TRANSPORT] == 0 and s.resets == 1
    g.apply_action(s, PlaceWorker(TRANSPORT))
    assert s.act_left == 1 and s.gain_left == 2


def test_no_proxy_workers_in_round_one_and_reset_after_third_space():
    g, s = first_main_state(2)
    me = s.active
    s.proxies[me] = 3
    assert PlaceProxy(FULFIL) not in g.legal_actions(s)  # from round 2 on
    s.spaces[IMPROVE] = 2
    g.apply_action(s, PlaceWorker(IMPROVE))
    assert s.act_left == 3 and s.spaces[IMPROVE] == 3
    g.apply_action(s, END_ACTION)
    assert s.spaces[IMPROVE] == 0  # 'Reset' once all three spaces are filled


def test_transport_respects_capacity_adjacency_and_warehouse_limits():
    g, s = first_main_state(2)
    me = s.active
    s.spaces[TRANSPORT] = 2  # 3 transports, no resources gained
    s.wh[me][3 * 1] = 4  # position 1 full (warehouse 4)
    g.apply_action(s, PlaceWorker(TRANSPORT))
    moves = [a for a in g.legal_actions(s) if isinstance(a, Move)]
    assert all(a.dst in g.adj[a.src] for a in moves)
    assert all(a.std + a.sup + a.spe == 1 for a in moves)  # Transport Enhancement 1 at first
    assert not any(a.dst == 1 for a in moves)  # cannot exceed the warehouse, even temporarily
    s.levels[me][TRANSPORT_TRACK] = 2  # carry 3
    s.wh[me][3 * 1] = 2
    moves = [a for a in g.legal_actions(s) if isinstance(a, Move)]
    into1 = [a for a in moves if a.src == 0 and a.dst == 1]
    assert max(a.std for a in into1) == 2  # room for 2 more only
    assert max(a.std for a in moves if a.src == 1 and a.dst == 0) == 2


def test_paying_two_superior_resources_three_ways():
    """'About Resources': 2 superior can be paid 2 superior, 1 superior + 1 special, or 2 special."""
    assert payments((0, 2, 0), 5, 2, 2) == ((0, 2, 0), (0, 1, 1), (0, 0, 2))
    assert payments((0, 2, 0), 5, 0, 1) == ()
    assert payments((2, 1, 0), 1, 1, 1) == ((1, 1, 1),)  # the special stands in for a standard
    g, s = first_main_state(2)
    me = s.active
    card = order_with_cost(g, (0, 2, 0))
    s.market[0] = card.id
    x = area_pos_with_icon(g, s, card.type)
    s.wh[me][3 * x:3 * x + 3] = [0, 2, 2]
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    pays = {(a.std, a.sup, a.spe) for a in g.legal_actions(s) if isinstance(a, FulfilOrder) and a.card == card.id and a.loc == x}
    assert pays == {(0, 2, 0), (0, 1, 1), (0, 0, 2)}


def test_fulfilling_an_order_scores_places_a_share_token_and_refills_at_turn_end():
    g, s = first_main_state(2)
    me = s.active
    card = order_with_cost(g, (2, 0, 0), grade=0)
    s.market[0] = card.id
    x = area_pos_with_icon(g, s, card.type)
    s.wh[me][3 * x] = 2
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    g.apply_action(s, FulfilOrder(card.id, x, 2, 0, 0))
    assert s.vp[me] == card.vp and s.gauges[x] == [me] and s.tokens_left[me] == 11
    assert card.id not in s.market and card.id in s.discards[0]
    assert len(s.market) == 5  # no refill during the turn
    g.apply_action(s, END_ACTION)
    assert g.current_player(s) == CHANCE and isinstance(g.chance_outcomes(s)[0][0], DrawOrder)
    g.apply_action(s, g.chance_outcomes(s)[0][0])
    assert len(s.market) == 6 and sum(g.grade_of[c] == 0 for c in s.market) == 3


def test_exclusive_orders_belong_to_their_owner():
    g, s = first_main_state(2)
    me, other = s.active, 1 - s.active
    card = g.orders[s.excl[other]]
    for x in range(1, 10):
        s.wh[me][3 * x:3 * x + 3] = [4, 0, 0]
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    cards = {a.card for a in g.legal_actions(s) if isinstance(a, FulfilOrder)}
    assert card.id not in cards and s.excl[me] in cards


def test_full_share_gauge_replaces_the_rightmost_token():
    g, s = first_main_state(4)
    me = s.active
    card = order_with_cost(g, (2, 0, 0), grade=0)
    s.market[0] = card.id
    x = area_pos_with_icon(g, s, card.type)
    others = [i for i in range(4) if i != me]
    s.gauges[x] = [others[0], others[1], others[1], others[0], others[2]]  # full (5 spaces)
    for i in others:
        s.tokens_left[i] = 12 - s.gauges[x].count(i)
    s.wh[me][3 * x] = 2
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    g.apply_action(s, FulfilOrder(card.id, x, 2, 0, 0))
    assert s.gauges[x] == [others[0], others[1], others[1], others[0], me]
    assert s.tokens_left[others[2]] == 12 and s.tokens_left[me] == 11


def test_share_ranking_ties_go_to_the_token_further_left():
    """Rulebook: Red 2, Blue 2, Yellow 1; Red's token is leftmost, so Red 1st, Blue 2nd, Yellow 3rd."""
    g, s = first_main_state(3)
    red, blue, yellow = 0, 1, 2
    s.gauges[5] = [red, blue, blue, red, yellow]
    assert g.ranking(s, 5) == [red, blue, yellow]
    s.gauges[5] = [blue, red, yellow, red, blue]
    assert g.ranking(s, 5) == [blue, red, yellow]


def _marks_state():
    g, s = first_main_state(3)
    s.vp = [0, 0, 0]
    s.vp_src = [[0] * 7 for _ in range(3)]
    pos = {m: [x for x in range(1, 10) if g.marks[x] == m] for m in (1, 2, 3)}
    s.gauges[pos[1][0]] = [0, 1]  # 0 first, 1 second
    s.gauges[pos[2][0]] = [1, 0, 0]  # 0 first (2 tokens), 1 second
    s.gauges[pos[3][0]] = [2, 1]  # 2 first, 1 second
    return g, s


def test_interim_scoring_table():
    """'Interim Scoring': marked 1: 3/1, marked 2: 4/2, marked 3: 5/3."""
    g, s = _marks_state()
    g._majority(s, g.options.interim_vp, V_INT)
    assert s.vp == [3 + 4, 1 + 2 + 3, 5]


def test_final_scoring_table_company_skill_and_proxies():
    """'Final Scoring': marked 1: 3/1, 2: 6/3, 3: 9/6; then 1 VP per 2 unused proxy workers."""
    g, s = _marks_state()
    s.company = [4, 3, 2]  # trading house: 2 per entry area; bear cub: 1 per 2 tokens; elephant: 1 per 2 dailies
    s.stats[2][3] = 5
    s.proxies = [3, 4, 0]
    g._final_scoring(s)
    assert [v[V_FIN] for v in s.vp_src] == [3 + 6, 1 + 3 + 6, 9]
    assert [v[V_PROXY] for v in s.vp_src] == [1, 2, 0]
    assert [v[V_COMP] for v in s.vp_src] == [2 * 2, 3 // 2, 5 // 2]


def test_winner_ties_broken_by_lower_ranking_sum_then_shared():
    g, s = _marks_state()
    s.vp = [10, 10, 9]
    # ranking sums: seat 0: 1 + 1 + 3 (absent) + 6 x 3 (absent); seat 1: 2 + 2 + 2 + 6 x 3
    assert g.rank_sum(s, 0) < g.rank_sum(s, 1)
    assert g.winners(s) == frozenset({0})
    s.gauges = [[] for _ in range(10)]
    assert g.winners(s) == frozenset({0, 1})


def test_improvement_grades_up_at_port_limited_by_stock():
    g, s = first_main_state(2)
    me = s.active
    s.spaces[IMPROVE] = 2
    s.stock_spe = 0
    s.wh[me][0:3] = [1, 1, 0]
    g.apply_action(s, PlaceWorker(IMPROVE))
    assert Improve(0, 0) in g.legal_actions(s) and Improve(0, 1) not in g.legal_actions(s)
    sup = s.stock_sup
    g.apply_action(s, Improve(0, 0))
    assert s.wh[me][0:3] == [0, 2, 0] and s.stock_sup == sup - 1


def test_daily_card_paid_at_port_turns_face_down_and_comes_back():
    g, s = first_main_state(2)
    me = s.active
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    cost, vp = g.daily[0]
    pay = next(a for a in g.legal_actions(s) if isinstance(a, FulfilDaily) and a.daily == 0)
    g.apply_action(s, pay)
    assert s.dailies[me] == [0, 1] and s.vp[me] == vp and s.wh[me][0] == 6 - sum(cost)
    assert not any(isinstance(a, FulfilDaily) and a.daily == 0 for a in g.legal_actions(s))
    g._start_round(s)
    assert s.dailies[me] == [1, 1]


# ---------------------------------------------------------------- rounds
def _play(g, seed, strategies=None):
    n = g.num_players
    chance, rngs = game_streams(seed, 0, n)
    strat = strategies or [make_strategy("random", {}, g.info.name) for _ in range(n)]
    log = play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions, record=True)
    return log


def test_growth_schedule_and_gates():
    """1 unlock after rounds 1-3, 2 after rounds 4-5, none after round 6; gates respected."""
    g = GAME(3)
    res = _play(g, 11)
    s = g.new_initial_state()
    per_round: dict[int, int] = {}
    for _p, a in res.log:
        if isinstance(a, Unlock):
            seat = s.grow_queue[0]
            lv = s.levels[seat]
            if a.track == WORKERS:
                assert any(lv[t] >= g.track_len[t] for t in (WAREHOUSE, TRANSPORT_TRACK, QUALITY))
            if a.track == SKILL and lv[SKILL] >= 2:
                assert s.round >= 4
            per_round[s.round] = per_round.get(s.round, 0) + 1
        g.apply_action(s, a)
    assert per_round == {1: 3, 2: 3, 3: 3, 4: 6, 5: 6}
    assert all(sum(lv) == 7 for lv in s.levels) and all(len(p) == 7 for p in s.growth_path)


def test_start_player_moves_left_then_goes_to_fewest_vp():
    g = GAME(2)
    _, s = first_main_state(2)
    s.workers = [0, 0]
    s.phase, s.start, s.round = GROW, 0, 1
    # end of round 1 (2 players: the marker has not gone round yet): passes left
    s.grow_queue, s.unlocks_left = [], 0
    g._advance(s)
    assert s.round == 2 and s.start == 1
    # end of round 2: full cycle done; fewest VP takes it
    s.vp = [5, 9]
    s.phase, s.grow_queue = GROW, []
    g._advance(s)
    assert s.round == 3 and s.start == 0
    # tie: the one farthest clockwise from this round's start player (seat 0 -> seat 1)
    s.vp = [7, 7]
    s.phase, s.grow_queue = GROW, []
    g._advance(s)
    assert s.start == 1
    # option: the start player chooses among the tied
    g2 = GAME(2, Options(start_player_tie="choice"))
    s.phase, s.grow_queue = GROW, []
    g2._advance(s)
    assert g2.current_player(s) == 1 and set(g2.legal_actions(s)) == {ChooseStart(0), ChooseStart(1)}
    g2.apply_action(s, ChooseStart(0))
    assert s.start == 0 and s.phase == PRE


def test_four_player_start_rotation():
    g = GAME(4)
    res = _play(g, 5)
    s = g.new_initial_state()
    starts = {}
    for _, a in res.log:
        g.apply_action(s, a)
        starts.setdefault(s.round, s.start)
    assert [starts[r] for r in (1, 2, 3, 4)] == [0, 1, 2, 3]


def test_interim_scoring_happens_once_after_round_three():
    g = GAME(3)
    res = _play(g, 2)
    s = g.new_initial_state()
    seen = {}
    for _, a in res.log:
        before = [v[V_INT] for v in s.vp_src]
        g.apply_action(s, a)
        if [v[V_INT] for v in s.vp_src] != before:
            seen[s.round] = seen.get(s.round, 0) + 1
    assert set(seen) <= {4}  # scored while moving from round 3 to 4
    assert g.current_player(res.state) == TERMINAL and res.state.round == 6


# ---------------------------------------------------------------- information
def test_no_leak_hidden_changes_leave_observation_unchanged():
    g, s = first_main_state(4)
    seat = 0
    obs = g.observe(s, seat)
    t = g.clone(s)
    # swap a dealt (non-company) card of seat 1 with an unused pool card, shuffle the piles
    col = g.company_colours[t.company[1]]
    dealt = next(c for c in t.hands[1] if g.skills[c].colour != col)
    t.hands[1][t.hands[1].index(dealt)] = t.skill_pool[0]
    t.skill_pool[0] = dealt
    t.piles[0].reverse()
    random.Random(1).shuffle(t.piles[1])
    assert g.observe(t, seat) == obs
    t.hands[0].reverse()
    assert g.observe(t, seat) != obs  # own hand is visible


def test_determinize_is_consistent_with_the_observation():
    for style in ("standard", "custom"):
        g = GAME(3, Options(style=style))
        rng = random.Random(4)
        checks = 0

        def check(s, p, g=g, rng=rng):
            nonlocal checks
            if p >= 0 and rng.random() < 0.05:
                obs = g.observe(s, p)
                d = g.determinize(obs, random.Random(checks))
                assert g.observe(d, p) == obs
                assert g.legal_actions(d) == g.legal_actions(s)
                checks += 1

        random_walk(g, 9, check)
        assert checks > 5


# ---------------------------------------------------------------- invariants and determinism
def _invariants(g, s):
    n = s.n
    sup = s.stock_sup + sum(w[3 * x + 1] for w in s.wh for x in range(10))
    spe = s.stock_spe + sum(w[3 * x + 2] for w in s.wh for x in range(10))
    assert sup == g.options.stock_superior and spe == g.options.stock_special
    for seat in range(n):
        cap = g.capacity(s, seat)
        assert all(sum(s.wh[seat][3 * x:3 * x + 3]) <= cap for x in range(1, 10))  # never exceeded
        assert min(s.wh[seat]) >= 0
        on_board = sum(gg.count(seat) for gg in s.gauges)
        assert s.tokens_left[seat] + on_board == g.options.share_tokens
        assert s.vp[seat] == sum(s.vp_src[seat])
        assert s.proxies[seat] >= 0 and s.workers[seat] >= 0
    assert all(0 <= k <= (2 if s.phase == PRE else 3) for k in s.spaces)  # a full action resets
    orders = sorted(s.piles[0] + s.piles[1] + s.market + s.temp + s.discards[0] + s.discards[1]
                    + [c for c in s.excl if c >= 0])
    assert orders == list(range(60))
    assert all(len(s.gauges[x]) <= g.gauge_size[s.area_at[x - 1]] for x in range(1, 10) if len(s.area_at) == 9)


@settings(max_examples=25, deadline=None)
@pytest.mark.integration  # many random games; test_conformance checks invariants in the fast suite
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5))
def test_invariants_hold_under_random_play(seed, n):
    g = GAME(n)

    def check(s, p):
        if s.phase in (PRE, ACT, GAIN):
            _invariants(g, s)

    s, _, ended = random_walk(g, seed, check)
    assert ended
    _invariants(g, s)


def test_same_seed_same_history():
    g = GAME(4)
    names = ["forwarder.majority", "forwarder.quality", "forwarder.economy", "random"]
    a = _play(g, 3, [make_strategy(x, {}, g.info.name) for x in names])
    b = _play(g, 3, [make_strategy(x, {}, g.info.name) for x in names])
    assert a.log == b.log and a.state == b.state


def test_scripted_plans_beat_random():
    g = GAME(2)
    wins = 0
    for i in range(6):
        for plan in ("forwarder.majority", "forwarder.quality", "forwarder.economy"):
            seats = [make_strategy(plan, {}, g.info.name), make_strategy("random", {}, g.info.name)]
            if i % 2:
                seats.reverse()
            res = _play(g, 100 + i, seats)
            me = i % 2
            wins += me in g.winners(res.state) and len(g.winners(res.state)) == 1
    assert wins >= 14  # of 18


def test_metrics_summary_components_and_describe():
    g = GAME(3)
    res = _play(g, 1)
    m = g.metrics(res.state)
    for key in ("company", "vp_orders", "vp_dailies", "vp_interim_majority", "vp_final_majority",
                "vp_company_skill", "vp_proxy_workers", "orders_lower", "orders_upper", "growth_skill"):
        assert len(m[key]) == 3
    assert sum(m["vp_" + k][0] for k in ("orders", "dailies", "interim_majority", "final_majority",
                                          "company_skill", "proxy_workers", "skills")) == res.state.vp[0]
    assert g.summary(res.state)["rounds"] == 6
    comp = g.components(res.state)
    assert all(len(c) == 1 for c in comp["company"]) and all(len(p) == 7 for p in comp["growth"])
    s = g.new_initial_state()
    for _p, a in res.log[:300]:
        assert isinstance(g.describe(s, a), str)
        g.apply_action(s, a)


@pytest.mark.parametrize("opts", [
    {"style": "custom"},
    {"company_choice": "random"},
    {"start_player_tie": "choice", "scoring_before_start_player": False},
    {"growth": (2, 2, 2, 2, 2), "rounds": 4, "interim_round": 2},
])
def test_option_variants_play_to_the_end(opts):
    for n in (2, 5):
        g = GAME(n, Options(**opts))
        for seed in range(2):
            s, _, ended = random_walk(g, seed, lambda s, p, g=g: _invariants(g, s) if s.phase == PRE else None)
            assert ended and s.round == g.options.rounds and len(set(s.company)) == n


def test_two_transports_carry_one_resource_two_steps():
    """'Transport' example: limit 1; the first action moves 1 resource to an adjacent area, the
    second moves it on to another adjacent area."""
    g, s = first_main_state(2)
    me = s.active
    s.spaces[TRANSPORT] = 1
    g.apply_action(s, PlaceWorker(TRANSPORT))  # space 2: 1 resource, 2 transports
    g.apply_action(s, PlaceResource(0))
    assert s.act_left == 2
    g.apply_action(s, Move(0, 1, 1, 0, 0))
    g.apply_action(s, Move(1, 3, 1, 0, 0))
    assert s.wh[me][3 * 3] == 1 and s.wh[me][3] == 0 and s.wh[me][0] == 6
    assert s.phase != ACT  # both transports used: the turn is over


def test_resurvey_gives_a_temporary_exclusive_discarded_at_turn_end():
    g, s = first_main_state(2)
    me = s.active
    s.proxies[me] = 1
    from sim.games.forwarder_of_xanadu.actions import Resurvey

    g.apply_action(s, Resurvey(1))
    assert g.current_player(s) == CHANCE
    g.apply_action(s, g.chance_outcomes(s)[0][0])
    card = s.temp[0]
    assert g.grade_of[card] == 1 and s.proxies[me] == 0 and s.phase == PRE
    g.apply_action(s, PlaceWorker(FULFIL))
    g.apply_action(s, PlaceResource(0))
    g.apply_action(s, PlaceResource(0))
    g.apply_action(s, END_ACTION)
    assert s.temp == [] and card in s.discards[1]


def test_upper_exclusive_refill_after_quality_three():
    from sim.games.forwarder_of_xanadu.actions import RefillExclusive

    g, s = first_main_state(2)
    me = s.active
    card = g.orders[s.excl[me]]
    x = area_pos_with_icon(g, s, card.type)
    s.wh[me][3 * x:3 * x + 3] = [4, 2, 0]
    s.levels[me][QUALITY] = 2  # 3rd space unlocked
    s.spaces[FULFIL] = 2
    g.apply_action(s, PlaceWorker(FULFIL))
    pay = next(a for a in g.legal_actions(s) if isinstance(a, FulfilOrder) and a.card == card.id)
    g.apply_action(s, pay)
    assert s.excl[me] == -1
    g.apply_action(s, END_ACTION)
    while g.current_player(s) == CHANCE:
        g.apply_action(s, g.chance_outcomes(s)[0][0])
    assert g.legal_actions(s) == (RefillExclusive(0), RefillExclusive(1))
    g.apply_action(s, RefillExclusive(1))
    g.apply_action(s, g.chance_outcomes(s)[0][0])
    assert g.grade_of[s.excl[me]] == 1


def test_growth_gates_office_sites_and_replenishment():
    g, s = first_main_state(3)
    s.round = 3
    assert g._unlockable(s, 0) == [WAREHOUSE, TRANSPORT_TRACK, QUALITY, SKILL]  # no Worker Increase yet
    s.levels[0][QUALITY] = 2
    s.levels[0][SKILL] = 2
    assert g._unlockable(s, 0) == [WAREHOUSE, TRANSPORT_TRACK, WORKERS]  # skill space 3 waits for round 4
    s.round = 4
    assert SKILL in g._unlockable(s, 0)
    # office: only Market Entry Areas without another player's office
    s.gauges[2] = [0, 1]
    s.gauges[5] = [0]
    s.office[1] = 2
    assert g._office_sites(s, 0) == [5]
    # replenishment 2 / 2 / 3 by Warehouse level
    assert [g.repl[k] for k in range(3)] == [2, 2, 3]
    s.levels[1][WAREHOUSE] = 2
    s.office = [-1, -1, -1]
    before = [w[0] for w in s.wh]
    s.repl_queue = [0, 1, 2]
    s.round = 2
    g._next_replenish(s)
    assert [w[0] - b for w, b in zip(s.wh, before, strict=True)] == [2, 3, 2]


def test_growth_decisions_unlock_leftmost_and_free_a_proxy():
    g, s = first_main_state(2)
    s.workers = [0, 0]
    s.phase, s.round = PRE, 1
    g._end_round(s)
    g._advance(s)
    assert s.phase == GROW and g.current_player(s) == s.start
    p = s.start
    g.apply_action(s, Unlock(TRANSPORT_TRACK))
    assert s.levels[p][TRANSPORT_TRACK] == 1 and s.proxies[p] == 1
    assert g.carry(s, p) == 2


@pytest.mark.parametrize("before,expected", [(True, 1), (False, 0)])
def test_interim_scoring_before_or_after_the_start_player_choice(before, expected):
    g = GAME(3, Options(scoring_before_start_player=before))
    _, s = first_main_state(3)
    s.vp = [5, 6, 7]
    s.vp_src = [[v, 0, 0, 0, 0, 0, 0] for v in s.vp]
    x = next(x for x in range(1, 10) if g.marks[x] == 3)
    s.gauges[x] = [0]  # seat 0 scores 5 VP at the interim scoring
    s.tokens_left[0] -= 1
    s.round, s.start, s.repl_queue = 3, 2, []
    g._next_replenish(s)
    assert s.round == 4 and s.vp[0] == 10 and s.start == expected
