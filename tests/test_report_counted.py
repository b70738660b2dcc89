"""The million-game report's stand-ins (issue 20 item 5, session 7): quartiles, score figures and
box numbers from value counts (``counted``) against polars, numpy and matplotlib on the rows, and
Balance's normal approximation (``analytic.balance_normal``) against a hand-derived case and the
bootstrap it replaces."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import polars as pl
import pytest
from matplotlib import cbook

from sim.analysis import counted
from sim.analysis.analytic import WinSums, balance_normal
from sim.analysis.stats import balance_interval


def _counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    v, n = np.unique(x, return_counts=True)
    return v.astype(float), n


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 40, 101])
def test_quantiles_from_counts_are_those_of_the_rows(size):
    rng = np.random.default_rng(size)
    x = rng.integers(0, 6, size).astype(float)  # few distinct values: ties, halves in positions
    v, n = _counts(x)
    s = pl.Series(x)
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        assert counted.quantile(v, n, q, "linear") == float(np.percentile(x, q * 100))  # numpy's default
        assert counted.quantile(v, n, q, "nearest") == s.quantile(q, "nearest")  # polars' rounding (half up)
    # polars' nearest by hand: the sorted row at round-half-up((n - 1) q)
    assert counted.quantile(v, n, 0.25) == np.sort(x)[math.floor((size - 1) * 0.25 + 0.5)]


def test_nearest_rounds_halves_up_unlike_numpy():
    v, n = _counts(np.array([0.0, 1.0]))
    assert counted.quantile(v, n, 0.5, "nearest") == 1.0  # position 0.5: the upper row
    assert np.percentile([0.0, 1.0], 50, method="nearest") == 0.0  # numpy rounds the half to even


def test_no_rows_gives_nan():
    assert math.isnan(counted.quantile(np.array([]), np.array([], dtype=int), 0.5))


def test_score_figures_from_counts_match_the_rows():
    rng = np.random.default_rng(3)
    rows = pl.DataFrame({"seat": rng.integers(0, 3, 500), "score": rng.integers(0, 30, 500).astype(float)})
    got = counted.describe_counts(counted.value_counts(rows.lazy(), "seat"), "seat")
    for r in got.iter_rows(named=True):
        x = rows.filter(pl.col("seat") == r["seat"])["score"].to_numpy()
        assert r["rows"] == x.size and r["min"] == x.min() and r["max"] == x.max()
        assert r["mean"] == pytest.approx(x.mean(), rel=1e-15) and r["sd"] == pytest.approx(x.std(ddof=1), rel=1e-12)
        assert r["median"] == np.median(x)
        assert r["q25"] == pl.Series(x).quantile(0.25) and r["q75"] == pl.Series(x).quantile(0.75)


def test_box_numbers_from_counts_are_matplotlibs():
    rng = np.random.default_rng(8)
    x = np.concatenate([rng.integers(10, 20, 300), [0, 1, 45, 60]]).astype(float)  # fliers both sides
    rows = pl.DataFrame({"g": ["a"] * x.size, "score": x})
    got = counted.box_columns(counted.value_counts(rows, "g"), "g").row(0, named=True)
    want = cbook.boxplot_stats(x, whis=1.5)[0]
    for k in ("q1", "med", "q3", "whislo", "whishi"):
        assert got[k] == pytest.approx(float(want[k]), abs=1e-12), k


def test_balance_normal_two_seats_by_hand():
    # two seats, one winner a game: r*_0 - r*_1 = 2 (r*_0 - r_0), so the range is 2 |Z|, Z ~ N(0,
    # p (1 - p) / n): its 95% quantile is c = 2 z_0.975 sqrt(p (1 - p) / n)
    n, wins0 = 4000, 2200
    w = np.zeros((2, n))
    w[0, :wins0], w[1, wins0:] = 1, 1
    m = WinSums(2)
    m.add(w)
    p = wins0 / n
    c = 2 * NormalDist().inv_cdf(0.975) * math.sqrt(p * (1 - p) / n)
    gap = 2 * p - 1
    lo, hi = balance_normal(m, np.random.default_rng(0))
    # 200,000 draws: the quantile's Monte Carlo error is about 0.3% of c
    assert lo == pytest.approx(1 - gap - c, abs=0.01 * c) and hi == pytest.approx(1 - (gap - c), abs=0.01 * c)


def test_balance_normal_agrees_with_the_bootstrap():
    rng = np.random.default_rng(5)
    n = 5000
    w = np.zeros((n, 4))
    w[np.arange(n), rng.choice(4, n, p=[0.28, 0.26, 0.24, 0.22])] = 1
    w[rng.random(n) < 0.03, 0] = 1  # some shared wins
    m = WinSums(4)
    m.add(np.ascontiguousarray(w.T))
    assert np.allclose(m.cross / n - np.outer(m.wins / n, m.wins / n), np.cov(w.T, bias=True))
    gap = np.ptp(w.mean(axis=0))
    c_normal = 1 - gap - balance_normal(m, np.random.default_rng(1))[0]
    c_boot = 1 - gap - balance_interval(w, np.random.default_rng(2), 1000)[0]
    # the bootstrap's c from 1,000 resamples varies by about 2.1% between seeds (12 seeds here):
    # within four of those Monte Carlo standard deviations
    assert abs(c_normal - c_boot) <= 0.085 * c_boot


def test_balance_normal_without_variation_is_a_point():
    m = WinSums(3)
    m.add(np.array([[1.0] * 10, [0.0] * 10, [0.0] * 10]))
    assert balance_normal(m, np.random.default_rng(0)) == (0.0, 0.0)
