"""Ties never favour a seat (issue 17, item 1): a conformance test for every registered strategy
of every game it plays (``sim.registry.strategies()``, so experts are covered when they land).

(a) **Order**: at decision states sampled from ``random_by_kind`` playouts (2 players; 6 per
    game, all 18 in the ``slow`` version), the distribution of the strategy's choices over 40
    seeds is the same whether ``legal`` comes in the engine's canonical order or shuffled (a
    chi-square test of homogeneity per state, failing below p = 1e-5: a strategy that breaks a
    tie of two by list position picks one action 40 times in canonical order and each about 20
    times shuffled, p = 2.4e-7).
(b) **Seat labels** (2 players, games whose observation can be relabelled here: Traders of Osaka
    and Xanadu): the same observation presented with the two seats' labels swapped (every
    per-seat field and every seat number in it) gives the same distribution of choices.
    The other games' observations (Taiwan's public tuple, Forwarder's and Alpenzian's seat-keyed
    boards) are not relabelled here; (c) covers them.
(c) **Mirror**: in a 2-player mirror with fixed seats, seat 0's share of the decisive games does
    not differ from the same mirror with every tie broken at random (the strategy sees ``legal``
    shuffled; the issue's "68.4% against about 54%") beyond the noise: Fisher's exact test,
    alpha 0.01. The games have no start-player option, so "seats reversed" cannot be played
    otherwise without changing the rules' seat order. 40 games per arm (fast for Traders of
    Osaka's plans only, ``slow`` for its expert and the other games' slower engines and planners); the ``slow`` version 300
    (power about 0.8 against the issue's 68% against 54%: z = 0.14 / 0.040, alpha 0.01).

``first_legal`` is exempt: it is defined by the canonical order (a test fixture, not a player).
Every registered strategy passes since the per-game tie fixes (issue 17); ``FAILS_TODAY`` is where a
known failure would be marked ``xfail(strict=False)`` with its reason.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from scipy import stats
from strategy_probe import LIGHT, choice_counts, game_strategies, same_distribution_p, sampled_states

from sim.play import play_game
from sim.registry import build_any_count, make_strategy
from sim.seeding import game_streams

EXEMPT = {"first_legal": "defined by the engine's canonical order: a fixture, not a player"}
SEEDS = range(40)
ALPHA_STATE = 1e-5
FAST_STATES = 6  # states per game in the fast version (the slow one: every sampled state, 18)
HEAVY = ("search", "alpenzian.")  # names or prefixes: seconds per state, so (a) and (b) only in the slow version

FIXING = "issue 17: the {game} engineer is replacing this strategy's order/seat tie-breaks with its rng"
# (test, game, strategy) that failed when this file was written; strict=False: passes are fine
FAILS_TODAY: set[tuple[str, str, str]] = set()  # none since the per-game tie fixes (issue 17)
MIRROR_FAST = {"traders_of_osaka"}  # 2 x 40 games within the fast budget; the other games' mirrors are slow
MIRROR_SLOW = (".expert",)  # an expert's 2 x 40-game mirror takes tens of seconds: nightly only


def cases(test: str, heavy: bool = False) -> list:
    """``(game, strategy)`` params; ``heavy``: also the HEAVY strategies (else they are marked slow)."""
    out = []
    for game, name in game_strategies():
        if name in EXEMPT:
            continue
        marks = [pytest.mark.xfail(strict=False, reason=FIXING.format(game=game))] if (test, game, name) in FAILS_TODAY else []
        if name.startswith(HEAVY) and not heavy:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(game, name, marks=marks, id=f"{game}-{name}"))
    return out


def shuffle(legal: list, rng: random.Random) -> list:
    rng.shuffle(legal)
    return legal


def worst_state(game_name: str, name: str, other, n_states: int | None) -> tuple[float, str]:
    """The smallest p-value over the sampled states (``n_states`` of them, evenly spread) of the test that the
    strategy's choices with ``other(obs)`` -> ``(obs, reorder)`` are distributed as without."""
    game, states = sampled_states(game_name)
    worst = (1.0, "")
    picked = states if n_states is None else states[:: max(1, len(states) // n_states)][:n_states]
    for i, (state, seat) in enumerate(picked):
        obs, legal = game.observe(state, seat), list(game.legal_actions(state))
        a = choice_counts(game, game_name, name, obs, legal, SEEDS)
        obs2, reorder = other(obs)
        b = choice_counts(game, game_name, name, obs2, legal, SEEDS, reorder=reorder)
        p = same_distribution_p(a, b)
        if p < worst[0]:
            worst = (p, f"state {i} (seat {seat}): {_show(a, legal)} against {_show(b, legal)}")
    return worst


def _show(counts, legal) -> str:
    return ", ".join(f"{legal[k]!r} x{n}" for k, n in counts.most_common(3))


def shuffled(obs):
    return obs, shuffle


def check_order(game_name: str, name: str, n_states: int | None) -> None:
    p, where = worst_state(game_name, name, shuffled, n_states)
    assert p >= ALPHA_STATE, (f"{name} in {game_name} depends on the order of legal (canonical against shuffled):"
                              f" p = {p:.2g} at {where}")


@pytest.mark.parametrize("game_name, name", cases("order"))
def test_choice_does_not_depend_on_the_order_of_legal_actions(game_name, name):
    check_order(game_name, name, FAST_STATES)


@pytest.mark.slow
@pytest.mark.parametrize("game_name, name", cases("order_all", heavy=True))
def test_choice_does_not_depend_on_the_order_of_legal_actions_all_states(game_name, name):
    check_order(game_name, name, None)


# ------------------------------------------------------------------ (b) seat labels, 2 players
def _swap(s: int) -> int:
    return 1 - s if s in (0, 1) else s


def relabel_xanadu(o):
    return replace(o, seat=_swap(o.seat), active=_swap(o.active), hand_sizes=o.hand_sizes[::-1],
                   built=o.built[::-1], coins=o.coins[::-1], start_placed=o.start_placed[::-1],
                   start_queue=tuple(map(_swap, o.start_queue)),
                   placers=tuple(tuple(tuple(map(_swap, w)) for w in row) for row in o.placers[::-1]))


def relabel_osaka(o):
    return replace(o, seat=_swap(o.seat), active=_swap(o.active), hand_sizes=o.hand_sizes[::-1],
                   merchandise=o.merchandise[::-1], tokens=o.tokens[::-1],
                   reserved=tuple((c, _swap(s)) for c, s in o.reserved))


RELABEL = {"xanadu": relabel_xanadu, "traders_of_osaka": relabel_osaka}


def test_relabelling_keeps_what_a_seat_sees():
    """The relabellers only move content between seat labels: applied twice they give back the
    observation, and the observing seat's own hand and figures stay the same."""
    for game_name, relabel in RELABEL.items():
        game, states = sampled_states(game_name)
        for state, seat in states:
            o = game.observe(state, seat)
            r = relabel(o)
            assert relabel(r) == o and r.seat == 1 - o.seat and r.hand == o.hand
            assert r.hand_sizes[r.seat] == o.hand_sizes[o.seat]


def check_seat(game_name: str, name: str, n_states: int | None) -> None:
    p, where = worst_state(game_name, name, lambda o: (RELABEL[game_name](o), None), n_states)
    assert p >= ALPHA_STATE, f"{name} in {game_name} depends on the seat label (own against swapped): p = {p:.2g} at {where}"


@pytest.mark.parametrize("game_name, name", [c for c in cases("seat") if c.values[0] in RELABEL])
def test_choice_does_not_depend_on_the_seat_label(game_name, name):
    check_seat(game_name, name, FAST_STATES)


@pytest.mark.slow
@pytest.mark.parametrize("game_name, name", [c for c in cases("seat_all", heavy=True) if c.values[0] in RELABEL])
def test_choice_does_not_depend_on_the_seat_label_all_states(game_name, name):
    check_seat(game_name, name, None)


# ------------------------------------------------------------------ (c) mirror
class _TiesAtRandom:
    """The strategy shown ``legal`` shuffled (its own stream): ties by position become random."""

    def __init__(self, inner, seed: int):
        self.inner, self.rng = inner, random.Random(seed)

    def choose(self, obs, legal, rng):
        shown = list(legal)
        self.rng.shuffle(shown)
        return self.inner.choose(obs, tuple(shown), rng)


def seat0_wins(game_name: str, name: str, games: int, at_random: bool) -> tuple[int, int]:
    """``(seat 0's wins, decisive games)`` of a fixed-seat 2-player mirror of ``name``."""
    game = build_any_count(game_name, 2)
    wins = decisive = 0
    for gi in range(games):
        chance, rngs = game_streams(17, gi, 2)
        seats = [make_strategy(name, LIGHT.get(name, {}), game_name, game=game) for _ in range(2)]
        if at_random:
            seats = [_TiesAtRandom(s, 7919 * gi + k) for k, s in enumerate(seats)]
        r = play_game(game, seats, chance, rngs, max_decisions=game.options.max_decisions)
        w = game.winners(r.state) if not r.truncated else frozenset()
        if len(w) == 1:
            decisive += 1
            wins += 0 in w
    return wins, decisive


def mirror_p(game_name: str, name: str, games: int) -> tuple[float, str]:
    w1, n1 = seat0_wins(game_name, name, games, False)
    w2, n2 = seat0_wins(game_name, name, games, True)
    p = stats.fisher_exact([[w1, n1 - w1], [w2, n2 - w2]]).pvalue if n1 and n2 else 1.0
    return float(p), f"seat 0 won {w1} of {n1} decisive games, {w2} of {n2} with ties at random"


@pytest.mark.parametrize("game_name, name", [
    c if c.values[0] in MIRROR_FAST and not c.values[1].endswith(MIRROR_SLOW) else pytest.param(*c.values, marks=[*c.marks, pytest.mark.slow], id=c.id)
    for c in cases("mirror")])
def test_mirror_seat_share_is_that_of_random_ties(game_name, name):
    p, what = mirror_p(game_name, name, 40)
    assert p >= 0.01, f"{name} mirror in {game_name}: {what} (Fisher p = {p:.3g})"


@pytest.mark.slow
@pytest.mark.parametrize("game_name, name", cases("mirror_300", heavy=True))
def test_mirror_seat_share_is_that_of_random_ties_300_games(game_name, name):
    p, what = mirror_p(game_name, name, 300)
    assert p >= 0.01, f"{name} mirror in {game_name}: {what} (Fisher p = {p:.3g})"


def test_the_checks_catch_an_order_bias_and_a_seat_bias():
    """The order check fails ``first_legal`` (ties by position), the seat check a strategy that
    plays differently as seat 0: neither check is one that cannot fail."""
    with pytest.raises(AssertionError, match="depends on the order of legal"):
        check_order("traders_of_osaka", "first_legal", 3)
    with pytest.raises(AssertionError, match="depends on the seat label"):
        check_seat("traders_of_osaka", "strategy_probe:SeatBiased", 3)




# generic over every strategy of every game: whole decision sweeps, so in `make test`, not `make test-fast`
pytestmark = pytest.mark.integration
