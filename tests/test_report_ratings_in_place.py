"""The report's openskill ratings through ``rating_games.rate_in_place`` (openskill's ``_compute``
without ``rate``'s argument checks and deep copies, issue 20 item 5: 80% of the ratings' CPU):
the reference is openskill's own ``PlackettLuce.rate``, game by game, compared to the last bit."""

import random

import polars as pl
from openskill.models import PlackettLuce
from polars.testing import assert_frame_equal

from sim.analysis import rating_games, summaries


def test_rate_in_place_equals_openskill_rate_on_random_games_with_ties():
    model, rng = PlackettLuce(), random.Random(20)
    assert rating_games.in_place_agrees(model)
    for _ in range(2000):
        k = rng.randint(2, 6)
        start = [(rng.uniform(-10, 60), rng.uniform(0.3, 9)) for _ in range(k)]
        ranks = [float(rng.randint(1, k)) for _ in range(k)]  # ties often
        want = model.rate([[model.rating(mu=m, sigma=s)] for m, s in start], ranks=ranks)
        got = [model.rating(mu=m, sigma=s) for m, s in start]
        rating_games.rate_in_place(model, got, list(ranks))
        assert [(p.mu, p.sigma) for p in got] == [(t[0].mu, t[0].sigma) for t in want]


def _rows(games: int, seed: int) -> pl.DataFrame:
    """Four seats a game; strategies a-e (a game may seat one strategy twice); ranks with ties."""
    rng, rows = random.Random(seed), []
    for g in range(games):
        names = rng.sample("abcde", 4) if g % 7 else ["a", "b", "b", rng.choice("cde")]
        rows += [(g, s, n, rng.randint(1, 4)) for s, n in enumerate(names)]
    return pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "rank": pl.Int64},
                        orient="row")


def test_ratings_table_equals_the_one_from_openskill_rate(monkeypatch):
    players = _rows(3000, 5)
    fast = summaries.ratings(players)
    monkeypatch.setattr(summaries, "in_place_agrees", lambda model: False)  # openskill's ``rate`` every game
    assert_frame_equal(summaries.ratings(players), fast, check_exact=True)
    assert fast["games"].sum() == 3000 * 4 - 3000 // 7 - 1  # a strategy counts once per game it plays in


def test_another_openskill_falls_back_to_rate():
    class Other:  # an openskill whose internals differ (a compiled class cannot be subclassed)
        def __init__(self):
            self.model = PlackettLuce()

        def __getattr__(self, name):
            return getattr(self.model, name)

        def _compute(self, *a, **k):
            raise TypeError("no such argument")

    assert not rating_games.in_place_agrees(Other())
