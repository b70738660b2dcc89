"""Xanadu's fast chance sampler against ``chance_outcomes`` once the End of Game card is in the
pile (the generic conformance test covers only the opening deal): 'shuffle it into the bottom
10' means each remaining card, the End card included, is equally likely once ``top_left`` is 0
(rulebook 'Dobópakli és a játék vége'), and the End card cannot come while ``top_left`` > 0."""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare

from sim.games.xanadu import GAME


def _state_with_end_card(top_left: int):
    g = GAME.build(3)
    s = g.new_initial_state()
    s.draw = list(range(6))  # six cards left, the End card among the bottom ones
    s.end_in, s.top_left = True, top_left
    return g, s


def test_sampler_matches_the_exact_probabilities_with_the_end_card_in_reach():
    g, s = _state_with_end_card(0)
    exact = dict(g.chance_outcomes(s))
    assert len(exact) == 7 and all(abs(p - 1 / 7) < 1e-12 for p in exact.values())  # 6 cards + End, uniform
    n = 14000
    rng = random.Random(3)
    counts = Counter(g.sample_chance(s, rng) for _ in range(n))
    assert set(counts) == set(exact)
    keys = list(exact)
    assert chisquare([counts[k] for k in keys], [exact[k] * n for k in keys]).pvalue > 1e-4


def test_sampler_never_gives_the_end_card_above_the_bottom_part():
    g, s = _state_with_end_card(2)
    exact = dict(g.chance_outcomes(s))
    assert len(exact) == 6  # the End card is not yet a possible outcome
    got = {g.sample_chance(s, random.Random(k)) for k in range(600)}
    assert got == set(exact)
