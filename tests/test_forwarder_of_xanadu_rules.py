"""Forwarder of Xanadu, engine version 2: proxy workers on one action, the published player count,
company choice, the map reading, invariants and end reasons, rulebook examples not covered in
``test_forwarder_of_xanadu.py`` (rulebook seeds/000, RULINGS §6)."""

from __future__ import annotations

import pytest
from conftest import random_walk

from sim.api import CHANCE, OptionError
from sim.games.forwarder_of_xanadu.actions import (
    FULFIL,
    IMPROVE,
    TRANSPORT,
    TRANSPORT_TRACK,
    WAREHOUSE,
    ChooseCompany,
    DealCompany,
    FulfilOrder,
    Move,
    PlaceProxy,
    PlaceWorker,
)
from sim.games.forwarder_of_xanadu.engine import COMPANY, PRE, ForwarderOfXanadu
from sim.games.forwarder_of_xanadu.rules import Options


def game(n, **opts):
    return ForwarderOfXanadu(n, Options(**opts))


def first_turn(n=3, **opts):
    g = game(n, **opts)
    s = g.new_initial_state()
    while not (s.phase == PRE and not s.to_draw):
        p = g.current_player(s)
        g.apply_action(s, g.chance_outcomes(s)[0][0] if p == CHANCE else g.legal_actions(s)[0])
    return g, s


# ---------------------------------------------------------------- proxy workers (RULINGS §6)
def test_proxy_workers_bind_the_worker_to_their_action():
    """'Action Count Adjustment': proxies adjust the spaces of the action the worker then takes;
    after a proxy on Transport, the worker cannot go on Fulfilment or Improvement."""
    g, s = first_turn()
    me = s.active
    s.round, s.proxies[me] = 2, 3
    assert {PlaceWorker(k) for k in (TRANSPORT, IMPROVE, FULFIL)} <= set(g.legal_actions(s))
    g.apply_action(s, PlaceProxy(TRANSPORT))
    legal = set(g.legal_actions(s))
    assert PlaceWorker(TRANSPORT) in legal and PlaceProxy(TRANSPORT) in legal
    for k in (IMPROVE, FULFIL):
        assert PlaceWorker(k) not in legal and PlaceProxy(k) not in legal  # the refused case
    g.apply_action(s, PlaceProxy(TRANSPORT))
    g.apply_action(s, PlaceWorker(TRANSPORT))  # 3rd space: 0 resources, 3 transports
    assert s.act_left == 3 and s.gain_left == 0 and s.proxies[me] == 1


def test_a_proxy_reset_still_binds_the_worker():
    """Filling the 3rd space with a proxy resets the action; the worker then takes its space 1."""
    g, s = first_turn()
    me = s.active
    s.round, s.proxies[me] = 2, 1
    s.spaces[IMPROVE] = 2
    g.apply_action(s, PlaceProxy(IMPROVE))
    assert s.spaces[IMPROVE] == 0
    assert [a for a in g.legal_actions(s) if isinstance(a, PlaceWorker)] == [PlaceWorker(IMPROVE)]
    g.apply_action(s, PlaceWorker(IMPROVE))
    assert s.act_left == 1 and s.gain_left == 2  # space 1: 2 resources, 1 action


def test_the_next_turn_may_use_any_action_again():
    g, s = first_turn()
    me = s.active
    s.round, s.proxies[me] = 2, 1
    g.apply_action(s, PlaceProxy(FULFIL))
    g.apply_action(s, PlaceWorker(FULFIL))  # space 2 of Fulfilment: 1 resource, 2 actions
    while s.active == me or g.current_player(s) < 0:
        p = g.current_player(s)
        g.apply_action(s, g.chance_outcomes(s)[0][0] if p == CHANCE else g.legal_actions(s)[-1])
    assert s.proxy_kind == -1
    assert {PlaceWorker(k) for k in (TRANSPORT, IMPROVE, FULFIL)} <= set(g.legal_actions(s))


# ---------------------------------------------------------------- player count (RULINGS §6)
@pytest.mark.parametrize("allow", [False, True])
def test_two_players_only_with_the_option(allow):
    if not allow:
        with pytest.raises(OptionError) as e:
            ForwarderOfXanadu(2)
        assert e.value.key == "allow_two_players"
        return
    g = game(2, allow_two_players=True)
    assert g.notes() == ("2 players is outside the published range of 3–5 (option allow_two_players).",)
    s, _, ended = random_walk(g, 1)
    assert ended and len(g.scores(s)) == 2


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_published_counts_need_no_option_and_give_no_note(n):
    assert game(n).notes() == ()
    assert game(n, allow_two_players=True).notes() == ()
    assert ForwarderOfXanadu.info.min_players == 2  # the config layer checks the range


# ---------------------------------------------------------------- company choice ('Player Preparation')
def _at_company(g):
    s = g.new_initial_state()
    while s.phase < COMPANY or (s.to_draw and s.to_draw[0] // 1000 != 7):
        g.apply_action(s, g.chance_outcomes(s)[0][0])
    return s


def test_company_choice_draft_goes_in_seat_order():
    """Draft (the rulebook): seat 0 chooses from all 5, then seat 1 from the other 4, ..."""
    g = game(3)
    s = _at_company(g)
    assert g.current_player(s) == 0 and set(g.legal_actions(s)) == {ChooseCompany(c) for c in range(5)}
    g.apply_action(s, ChooseCompany(3))
    assert g.current_player(s) == 1 and set(g.legal_actions(s)) == {ChooseCompany(c) for c in (0, 1, 2, 4)}
    g.apply_action(s, ChooseCompany(0))
    assert g.current_player(s) == 2 and set(g.legal_actions(s)) == {ChooseCompany(c) for c in (1, 2, 4)}
    g.apply_action(s, ChooseCompany(4))
    assert s.company == [3, 0, 4]


def test_company_choice_random_deals_from_the_chance_stream():
    """Random: no seat chooses; seat 0 gets each of 5 companies with probability 1/5, then seat 1
    each of the other 4 with 1/4, seat 2 each of the last 3 with 1/3."""
    g = game(3, company_choice="random")
    s = _at_company(g)
    assert g.current_player(s) == CHANCE
    for k, expect in enumerate((5, 4, 3)):
        out = g.chance_outcomes(s)
        assert len(out) == expect and all(p == pytest.approx(1 / expect) for _, p in out)
        assert all(isinstance(a, DealCompany) for a, _ in out)
        g.apply_action(s, out[-1][0])
        assert s.company[k] == out[-1][0].company
    assert s.company == [4, 3, 2]


# ---------------------------------------------------------------- the map ('Interim Scoring' figure note)
def test_hotan_port_sits_between_the_top_rows_two_outer_areas():
    """"the top row's two outer areas" are marked 1: the port is the middle of the top row, so
    positions 1 and 2 touch the port and not each other; the large port also touches row 2."""
    g = game(3)
    assert g.adj[0] == (1, 2, 3, 4)
    assert 2 not in g.adj[1] and 1 not in g.adj[2]
    assert [g.dist[0][x] for x in range(1, 10)] == [1, 1, 1, 1, 2, 2, 2, 3, 3]  # by mark: 1, 2, 3
    assert list(g.marks[1:]) == [1, 1, 1, 1, 2, 2, 2, 3, 3]


# ---------------------------------------------------------------- rulebook examples
def test_order_example_two_standard_and_one_superior():
    """'Order Fulfilment' figure: 2 standard + 1 superior; a superior may stand in for a standard,
    never a standard for the superior."""
    g, s = first_turn()
    me = s.active
    card = next(c for c in g.orders if c.cost == (2, 1, 0))
    s.market[0] = card.id
    x = next(x for x in range(1, 10) if card.type in g.area_icons[s.area_at[x - 1]])
    s.spaces[FULFIL] = 2
    s.wh[me][3 * x:3 * x + 3] = [3, 0, 0]
    g.apply_action(s, PlaceWorker(FULFIL))
    pays = {(a.std, a.sup, a.spe) for a in g.legal_actions(s) if isinstance(a, FulfilOrder) and a.card == card.id}
    assert pays == set()  # 3 standard cannot pay the superior
    s.wh[me][3 * x:3 * x + 3] = [1, 2, 0]
    pays = {(a.std, a.sup, a.spe) for a in g.legal_actions(s) if isinstance(a, FulfilOrder) and a.card == card.id and a.loc == x}
    assert pays == {(1, 2, 0)}
    vp = s.vp[me]
    g.apply_action(s, FulfilOrder(card.id, x, 1, 2, 0))
    assert s.vp[me] == vp + card.vp and s.wh[me][3 * x:3 * x + 3] == [0, 0, 0]


def test_higher_transport_limit_moves_several_resources_to_one_area():
    """'Transport' figure: with a limit of 2, one transport moves 2 resources together, to one
    adjacent area only (a Move has one destination)."""
    g, s = first_turn()
    me = s.active
    s.levels[me][TRANSPORT_TRACK] = 1  # carry 2
    s.spaces[TRANSPORT] = 2  # 3 transports, no resources
    g.apply_action(s, PlaceWorker(TRANSPORT))
    moves = [a for a in g.legal_actions(s) if isinstance(a, Move) and a.src == 0]
    assert max(a.std for a in moves) == 2 and all(a.std + a.sup + a.spe <= 2 for a in moves)
    g.apply_action(s, Move(0, 1, 2, 0, 0))
    assert s.wh[me][3] == 2 and s.wh[me][0] == 4


def test_warehouse_expansion_replenishment_does_not_stack():
    """'Warehouse Expansion': 2 at the start, 2 with the 2nd space, 3 with the 3rd (not 2 + 3)."""
    g = game(3)
    assert [g.repl[k] for k in range(3)] == [2, 2, 3]
    assert [g.wh_cap[k] for k in range(3)] == [4, 5, 6]
    _, s = first_turn()
    s.levels[0][WAREHOUSE] = 2
    assert g.capacity(s, 0) == 6


# ---------------------------------------------------------------- invariants and end reasons
@pytest.mark.parametrize("n", [3, 4, 5])
def test_invariants_hold_after_every_action(n):
    g = game(n)
    for seed in range(7 if n == 3 else 6):
        s, _, ended = random_walk(g, seed, lambda s, p: g.check_invariants(s))
        assert ended
        g.check_invariants(s)
        assert g.end_reason(s) == "finished" and not g.stalled(s)


def _corrupt_cases():
    return [
        ("order cards", lambda s: s.market.append(s.market[0])),
        ("skill card", lambda s: s.played[0].append(s.hands[1][0])),
        ("cubes", lambda s: s.wh[0].__setitem__(1, s.wh[0][1] + 1)),
        ("share tokens", lambda s: s.gauges[5].append(1)),
        ("proxy workers", lambda s: s.proxies.__setitem__(2, s.proxies[2] + 1)),
        ("VP differ", lambda s: s.vp.__setitem__(0, s.vp[0] + 1)),
        ("warehouse over", lambda s: s.wh[1].__setitem__(3 * 4, 9)),
        ("growth track", lambda s: s.levels[0].__setitem__(0, 7)),
        ("action space", lambda s: s.spaces.__setitem__(0, 3)),
    ]


@pytest.mark.parametrize("what,corrupt", _corrupt_cases(), ids=[c[0] for c in _corrupt_cases()])
def test_a_corrupted_state_is_caught(what, corrupt):
    g, s = first_turn(3)
    g.check_invariants(s)
    bad = g.clone(s)
    corrupt(bad)
    with pytest.raises(AssertionError):
        g.check_invariants(bad)
