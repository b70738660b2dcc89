"""``random_by_kind``: a kind uniformly, then an action of that kind uniformly."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from scipy import stats

from strategies.common import RandomByKindStrategy


@dataclass(frozen=True)
class Place:
    space: int


@dataclass(frozen=True)
class Pass:
    pass


def test_each_kind_is_chosen_half_the_time_whatever_the_list_sizes():
    """Nine placements and one pass: `random` passes 10% of the time, `random_by_kind` 50% (kinds
    uniform), and each placement 50%/9. Chi-square goodness of fit on 9,000 draws, alpha 0.001."""
    legal = [Place(i) for i in range(9)] + [Pass()]
    s, rng = RandomByKindStrategy(), random.Random(5)
    counts = Counter(s.choose(None, legal, rng) for _ in range(9000))
    observed = [counts[a] for a in legal]
    expected = [9000 * 0.5 / 9] * 9 + [9000 * 0.5]
    assert stats.chisquare(observed, expected).pvalue > 0.001
    assert counts[Pass()] > 4000  # far from random's 900


def test_same_rng_same_choices():
    legal = [Place(i) for i in range(4)] + [Pass()]
    a = [RandomByKindStrategy().choose(None, legal, r) for r in [random.Random(1)] for _ in range(50)]
    b = [RandomByKindStrategy().choose(None, legal, r) for r in [random.Random(1)] for _ in range(50)]
    assert a == b and len(set(a)) > 1
