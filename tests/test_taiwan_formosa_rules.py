"""Taiwan Formosa: board markers, the Temple limit, invariants, end reasons and the rulebook's
worked examples not covered in test_taiwan_formosa.py (seeds/004, RULINGS §3).

Expected values are derived by hand from the rulebook text, never copied from program output.
"""

from __future__ import annotations

import random

import pytest
from test_taiwan_formosa import (
    CENTRAL,
    EAST,
    NORTH,
    SOUTH,
    STEEL,
    WOOD,
    WORKER,
    cid,
    complete,
    give,
    setup,
    to_action_phase,
)

from sim.api import CHANCE, TERMINAL, sample_chance
from sim.games.taiwan_formosa import GAME
from sim.games.taiwan_formosa.actions import USE_TEMPLE, BuyBuilding, BuyLandmark, Charity, Exchange, Give
from sim.games.taiwan_formosa.engine import END
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams


# ---------------------------------------------------------------- markers (RULINGS §3)
def _charity_markers(game, s) -> int:
    """Contribute to charity (Southern Taiwan: 2 wood + 3 coins) until no longer allowed."""
    placed = 0
    while True:
        give(s, 0, wood=2, coins=3)
        if Charity(SOUTH) not in game.legal_actions(s):
            return placed
        game.apply_action(s, Charity(SOUTH))
        placed += 1


@pytest.mark.parametrize("markers,placed", [(None, 7), (8, 8), (3, 3)])
def test_board_markers_per_player(markers, placed):
    """Setup 3 gives 8 markers, setup 4 puts 1 on the point track: 7 on the board by default
    (FAQ: "after a player has placed all 7 ... unable to make charitable contributions")."""
    game, s = setup(**({} if markers is None else {"markers_per_player": markers}))
    to_action_phase(game, s)
    assert s.markers[0] == placed
    assert _charity_markers(game, s) == placed
    assert s.areas[SOUTH] == (0,) * placed and s.markers[0] == 0
    game.check_invariants(s)


# ---------------------------------------------------------------- Temple (RULINGS §3)
@pytest.mark.parametrize("limit,uses", [("per_card", 2), ("per_player", 1)])
def test_temple_limit_with_two_temples(limit, uses):
    """Two completed Temples, 40 coins: per card, each is used once (2 x (2 coins -> 2 VP));
    per player, one use a round whatever the copies. The next round allows the same again."""
    game, s = setup(types=["Temple"], **({} if limit == "per_card" else {"temple_limit": limit}))
    to_action_phase(game, s)
    complete(game, s, 0, "Temple")
    complete(game, s, 0, "Temple")
    temple = cid(game, "Temple")
    s.piles[temple] -= 2  # the two copies came from the pile
    s.vp[0] = s.vp_done[0] = 2 * game.cards[temple].vp
    base = s.vp[0]
    for _ in range(uses):
        game.apply_action(s, USE_TEMPLE)
    assert USE_TEMPLE not in game.legal_actions(s)
    assert s.vp[0] == base + 2 * uses and s.coins[0] == 40 - 2 * uses
    game.check_invariants(s)
    s.temple_used[0] = 0  # a new round (the dice phase resets the uses)
    assert USE_TEMPLE in game.legal_actions(s)


def test_temple_limit_per_player_single_temple_same_as_per_card():
    game, s = setup(types=["Temple"], temple_limit="per_player")
    to_action_phase(game, s)
    complete(game, s, 0, "Temple")
    game.apply_action(s, USE_TEMPLE)
    assert USE_TEMPLE not in game.legal_actions(s) and s.coins[0] == 38


# ---------------------------------------------------------------- worked examples
def test_exchange_example_two_wood_and_a_worker_for_a_steel():
    """2-3 a: "You may use 2 wood and 1 worker to exchange for 1 steel"."""
    game, s = setup()
    to_action_phase(game, s)
    give(s, 0, wood=2, worker=1, merchant=0)
    game.apply_action(s, Exchange(STEEL, "items"))
    for item in (WOOD, WOOD, WORKER):
        game.apply_action(s, Give(item))
    assert s.items[0] == [0, 0, 1, 0, 0, 0] and s.coins[0] == 40


def test_charity_example_north_and_costs_of_every_region():
    """2-5: East 2 stone + 5, North 2 steel + 5 ("Pay 2 steel + 5 coins to put 1 player marker in
    North"), Central 2 brick + 5, South 2 wood + 3 coins."""
    game, s = setup()
    to_action_phase(game, s)
    for region, item, coins in ((EAST, "stone", 5), (NORTH, "steel", 5), (CENTRAL, "brick", 5), (SOUTH, "wood", 3)):
        give(s, 0, **{item: 2, "coins": coins})
        game.apply_action(s, Charity(region))
        assert s.coins[0] == 0 and sum(s.items[0][:4]) == 0 and s.areas[region] == (0,)


# ---------------------------------------------------------------- invariants
def _play_checked(game, strategies, seed):
    chance, rngs = game_streams(seed, 0, game.num_players)
    s = game.new_initial_state()
    while (p := game.current_player(s)) != TERMINAL:
        if p == CHANCE:
            a = sample_chance(game, s, chance)
        else:
            legal = game.legal_actions(s)
            a = strategies[p].choose(game.observe(s, p), legal, rngs[p])
        game.apply_action(s, a)
        game.check_invariants(s)
    return s


@pytest.mark.parametrize("options", [{}, {"temple_limit": "per_player", "hot_spring_timing": "final"},
                                     {"markers_per_player": 8, "minor_landmark_markers": "optional"}])
def test_invariants_after_every_action_of_scripted_games(options):
    """Scripted plans build factories, Temples, red cards and landmarks, which random play
    rarely reaches; the invariants hold after every action."""
    plans = ("taiwan.landmarks", "taiwan.economy", "taiwan.tempo", "taiwan.expert")
    for seed in range(3):
        n = 2 + seed
        game = GAME.build(n, options)
        strats = [make_strategy(plans[(seed + i) % 4], {}, "taiwan_formosa") for i in range(n)]
        s = _play_checked(game, strats, seed)
        assert s.phase == END and game.end_reason(s) == "finished"


def _midgame(n=3, seed=4, steps=150):
    game = GAME.build(n)
    strats = [make_strategy("taiwan.tempo", {}, "taiwan_formosa") for _ in range(n)]
    chance, rngs = game_streams(seed, 0, n)
    s = game.new_initial_state()
    for _ in range(steps):
        p = game.current_player(s)
        assert p != TERMINAL
        a = sample_chance(game, s, chance) if p == CHANCE else strats[p].choose(
            game.observe(s, p), game.legal_actions(s), rngs[p])
        game.apply_action(s, a)
    assert any(s.bought) and any(s.areas)
    game.check_invariants(s)
    return game, s


def _dup_card(s):
    s.bought[0] += (s.bought[1][0] if s.bought[1] else s.bought[2][0],)


def _drop_marker(s):
    s.markers[0] -= 1


def _vp(s):
    s.vp[1] += 1


def _space(s):
    seat = next(p for p in range(s.n) if s.track[p])
    s.track[seat] = (s.track[seat][0], 0) + s.track[seat][2:]


def _pile(s):
    t = next(t for t, k in enumerate(s.piles) if k)
    s.piles[t] -= 1


def _coins(s):
    s.coins[2] = -1


@pytest.mark.parametrize("corrupt", [_dup_card, _drop_marker, _vp, _space, _pile, _coins])
def test_corrupted_state_is_caught(corrupt):
    game, s = _midgame()
    corrupt(s)
    with pytest.raises(AssertionError):
        game.check_invariants(s)


def test_determinized_state_keeps_the_invariants():
    game, s = _midgame()
    seat = game.current_player(s)
    d = game.determinize(game.observe(s, seat), random.Random(0))
    game.check_invariants(d)
    assert d.vp_done == s.vp_done and d.vp_ability == s.vp_ability


# ---------------------------------------------------------------- end reasons
def test_end_reason_finished_and_round_cap():
    """A normal game ends 'finished'; with ``max_rounds: 2`` the game is cut after round 2:
    'round_cap', and ``stalled()`` (the runner's truncation flag) agrees."""
    strats = [make_strategy("taiwan.economy", {}, "taiwan_formosa") for _ in range(2)]
    for options, reason, rounds in (({}, "finished", None), ({"max_rounds": 2}, "round_cap", 2)):
        game = GAME.build(2, options)
        chance, rngs = game_streams(3, 0, 2)
        res = play_game(game, strats, chance, rngs, max_decisions=game.options.max_decisions)
        assert game.current_player(res.state) == TERMINAL and game.end_reason(res.state) == reason
        assert game.stalled(res.state) == (reason == "round_cap")
        if rounds:
            assert game.rounds_played(res.state) == rounds and res.state.scored


@pytest.mark.parametrize("n", [3, 4, 5])
def test_end_trigger_needs_as_many_depleted_decks_as_players(n):
    """'Game End': 3/4/5 depleted decks in a 3/4/5-player game trigger the end (this round is
    finished, then one final round: last_round = 1 + 1); one fewer does not."""
    game, s = setup(n=n, types=["Train Station"])
    to_action_phase(game, s)
    ts = cid(game, "Train Station")
    others = [t for t in range(game.n_types) if s.piles[t] and t != ts]
    for t in others[: n - 2]:
        s.piles[t] = 0  # n - 2 building piles already empty
    s.piles[ts] = 1
    give(s, 0, brick=2, steel=2, worker=1)
    game.apply_action(s, BuyBuilding(ts))  # n - 1 depleted
    assert s.last_round == 0
    s.lm_deck[EAST] = ()
    give(s, 0, stone=5, worker=1)
    game.apply_action(s, BuyLandmark(s.lm_top[EAST]))  # the East deck empties: n depleted
    assert s.last_round == 2
