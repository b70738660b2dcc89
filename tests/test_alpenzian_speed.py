"""Alpenzian speed work (issue 20 items 3-4) keeps the rules: lazy views leak nothing and show
the state of their decision, the table-driven legal actions equal the rulebook's lists, the
fast dice sampler has the exact multinomial law of 5.1, and ``clone`` is independent."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from test_lazy_observation import _reachable  # the walk through instance data (the generic view test's)

from sim.api import CHANCE, TERMINAL, StaleObservationError, close_view
from sim.games.alpenzian.actions import FACE_ICONS, SOLID, ChooseArea, Draw, TakeDie
from sim.games.alpenzian.engine import AREA, DIE, ROLL, SQUARE, Alpenzian, State
from sim.games.alpenzian.observation import Observation
from sim.games.alpenzian.rules import Options
from sim.seeding import game_streams


def _states(g: Alpenzian, seed: int):
    """Every state at a player decision of one random game (copies)."""
    chance, rngs = game_streams(seed, 0, g.num_players)
    s = g.new_initial_state()
    while (p := g.current_player(s)) != TERMINAL:
        if p == CHANCE:
            a = g.sample_chance(s, chance)
        else:
            yield g.clone(s)
            legal = g.legal_actions(s)
            a = legal[int(rngs[p].random() * len(legal))]
        g.apply_action(s, a)


def _reference_legal(g: Alpenzian, s: State) -> tuple:
    """The legal actions written straight from 5.2-1 .. 5.4 (no tables, no caches)."""
    me = s.seat
    if s.phase == DIE:
        return tuple(TakeDie(f) for f in sorted(set(s.dice)))
    if s.phase == AREA:
        empties = [c for c in range(5) if s.areas[c] < 0]
        if s.left[me]:
            avail = [c for c in empties if g._squares(s, me, c)]
            empties = avail or empties
        return tuple(ChooseArea(c) for c in empties)
    if s.phase == SQUARE:
        if s.exceptional:
            return tuple(Draw(c, SOLID) for c in g._exception_squares(s, me))
        return tuple(Draw(c, i) for c in g._squares(s, me, s.area) for i in FACE_ICONS[s.face])
    return g.legal_actions(s)  # first-house choices: unchanged code


@pytest.mark.parametrize(("players", "pioneer"), [(4, False), (2, False), (1, True)])
def test_table_driven_legal_actions_equal_the_rulebook_lists(players, pioneer):
    g = Alpenzian(players, Options(pioneer_town=pioneer))
    n = 0
    for s in _states(g, 3):
        assert g.legal_actions(s) == _reference_legal(g, s)
        assert g.legal_actions(s) == g.legal_actions(s)  # a cached tuple is not consumed
        n += 1
    assert n > 100


def _chi2_pvalue(observed, expected) -> float:
    """Upper tail of Pearson's chi-square (Wilson-Hilferty normal approximation, good for the 100+
    degrees of freedom here; scipy.stats would cost seconds of import in a fast test)."""
    x = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    k = len(observed) - 1
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_dice_sampler_has_the_multinomial_law_of_5_1():
    """Six fair dice, sorted: P(faces) = 6! / prod(multiplicity!) / 6^6 (computed here, not taken
    from the engine). Chi-square over the outcomes expected at least 8 times, the rest pooled."""
    g = Alpenzian(2)
    s = g.new_initial_state()
    s.phase = ROLL
    dice = g.n_dice
    assert dice == 6
    rng = random.Random(20)
    draws = 20_000
    counts = Counter(g.sample_chance(s, rng).faces for _ in range(draws))
    listed = dict((a.faces, p) for a, p in g.chance_outcomes(s))
    assert set(counts) <= set(listed)
    exact = {}
    for faces in listed:
        ways = math.factorial(dice)
        for f in set(faces):
            ways //= math.factorial(faces.count(f))
        exact[faces] = ways / 6 ** dice
        assert math.isclose(listed[faces], exact[faces])  # chance_outcomes agrees with the hand formula
    big = [k for k, p in exact.items() if p * draws >= 8]
    observed = [counts.get(k, 0) for k in big] + [draws - sum(counts.get(k, 0) for k in big)]
    expected = [exact[k] * draws for k in big] + [draws * (1 - sum(exact[k] for k in big))]
    assert _chi2_pvalue(observed, expected) > 1e-4
    # a biased sampler (a die that never shows 5) fails the same test
    biased = Counter(tuple(sorted(int(rng.random() * 5) for _ in range(dice))) for _ in range(draws))
    bad = [biased.get(k, 0) for k in big] + [draws - sum(biased.get(k, 0) for k in big)]
    assert _chi2_pvalue(bad, expected) < 1e-4




def test_a_view_reaches_neither_the_state_nor_the_engine_and_goes_stale():
    g = Alpenzian(3)
    s = next(x for x in _states(g, 1) if x.phase == SQUARE)
    v = g.observe(s, 1)
    assert isinstance(v, Observation) and v.prompt == "square" and v.active == s.seat
    v.materialize()
    found = _reachable(v)
    assert not any(o is s or o is g or isinstance(o, (State, Alpenzian)) or o is s.cells for o in found)
    for name in dir(v):
        if not name.startswith("__"):
            value = getattr(v, name)
            assert value is not s and value is not g, name
    with pytest.raises(AttributeError):
        v.cells = ()  # read-only
    w = g.observe(s, 0)
    assert w.left == tuple(s.left)
    close_view(w)
    s.left[0] -= 1  # the state moves on
    assert w.left[0] == s.left[0] + 1  # read during the decision: kept as read
    with pytest.raises(StaleObservationError):
        w.cells  # noqa: B018  (first read after its decision)


def test_as_seat_is_the_same_table_for_another_seat():
    g = Alpenzian(3)
    s = next(x for x in _states(g, 2) if x.phase == DIE and x.round > 2)
    v = g.observe(s, 0)
    other = v.as_seat(2)
    assert other.seat == 2 and other.my_cells == tuple(s.cells[2]) and other == g.observe(s, 2)
    close_view(v)
    assert other.cells == tuple(map(tuple, s.cells))  # detached: stays readable


def test_clone_is_equal_and_independent():
    g = Alpenzian(2)
    s = next(x for x in _states(g, 4) if x.phase == AREA and x.round > 1)
    c = g.clone(s)
    assert c == s
    g.apply_action(c, g.legal_actions(c)[0])
    c.cells[0][0] = 99
    assert c != s and s.cells[0][0] != 99 and s.phase == AREA
