"""The normal (delta-method) intervals the report uses from ``ANALYTIC_FROM`` complete games on
(issue 20 item 5, ``sim.analysis.analytic``): the formula against statsmodels' cluster-robust
standard error of a mean, the interval against the percentile bootstrap at a moderate number of
games, and the streamed report (a scan of the player rows) against the tables in memory."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm
from statsmodels.api import OLS

from sim.analysis import analytic, describe, streamed, summaries
from sim.analysis.stats import bootstrap_ratios


def _games(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per-game sums and counts of two groups: group 0 holds 0-2 of 3 seats (a skewed score), group 1 one seat."""
    rng = np.random.default_rng(seed)
    c0 = rng.integers(0, 3, n).astype(float)
    s0 = np.array([rng.gamma(2.0, 3.0, int(k)).sum() for k in c0])
    s1 = rng.normal(10, 4, n)
    return np.column_stack([s0, s1]), np.column_stack([c0, np.ones(n)])


def test_ratio_interval_is_statsmodels_cluster_robust_mean():
    sums, counts = _games(400, seed=1)
    m = analytic.RatioSums(2)
    m.add(sums[:150], counts[:150])  # part by part: the same sums as at once
    m.add(sums[150:], counts[150:])
    lo, hi = analytic.ratio_intervals(m, 0.9)
    # group 0 as player rows: one row per seat it holds, the game as the cluster
    rows, game = [], []
    rng2 = np.random.default_rng(1)
    c0 = rng2.integers(0, 3, 400)
    for g, k in enumerate(c0):
        x = rng2.gamma(2.0, 3.0, int(k))
        rows += list(x)
        game += [g] * int(k)
    fit = OLS(np.array(rows), np.ones(len(rows))).fit(cov_type="cluster", use_t=False,
                                                        cov_kwds={"groups": np.array(game), "use_correction": False})
    ref_lo, ref_hi = fit.conf_int(alpha=0.1)[0]
    assert fit.params[0] == pytest.approx(sums[:, 0].sum() / counts[:, 0].sum(), rel=1e-12)
    assert (lo[0], hi[0]) == pytest.approx((ref_lo, ref_hi), rel=1e-10)
    # group 1: one row per game, so the usual normal interval of a mean with the n (not n - 1) variance
    x = sums[:, 1]
    half = norm.ppf(0.95) * x.std(ddof=0) / np.sqrt(x.size)
    assert (lo[1], hi[1]) == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-10)


def test_ratio_interval_agrees_with_the_bootstrap_at_moderate_n():
    # 5,000 games, 1,000 resamples: the Monte Carlo sd of a 2.5% percentile end is about
    # sqrt(.025 * .975 / 1000) / phi(1.96) = 0.085 standard errors, and the skew of a ratio adds
    # O(1/sqrt(n)); 0.35 standard errors is about four Monte Carlo sds
    sums, counts = _games(5000, seed=2)
    m = analytic.RatioSums(2)
    m.add(sums, counts)
    lo, hi = analytic.ratio_intervals(m)
    blo, bhi = bootstrap_ratios(sums, counts, np.random.default_rng(3), 1000)
    se = (hi - lo) / (2 * norm.ppf(0.975))
    assert np.all(np.abs(lo - blo) < 0.35 * se) and np.all(np.abs(hi - bhi) < 0.35 * se)


def test_no_variation_gives_the_point_interval_and_no_games_nan():
    m = analytic.RatioSums(2)
    m.add(np.array([[2.0, 0.0], [4.0, 0.0], [6.0, 0.0]]), np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]))
    lo, hi = analytic.ratio_intervals(m)
    assert lo[0] == pytest.approx(2.0) and hi[0] == pytest.approx(2.0)
    assert np.isnan(lo[1]) and np.isnan(hi[1])


def _players(n: int) -> pl.DataFrame:
    """``n`` four-seat games in seat order, two strategies, integer scores and one winner."""
    rng = np.random.default_rng(4)
    score = rng.integers(0, 30, (n, 4)).astype(float)
    won = score == score.max(axis=1, keepdims=True)
    return pl.DataFrame({"game_index": np.repeat(np.arange(n), 4), "seat": np.tile(np.arange(4), n),
                         "strategy": np.where(np.tile(np.arange(4), n) % 2 == 0, "a", "b"),
                         "score": score.ravel(), "rank": np.where(won, 1, 2).ravel(), "won": won.ravel()})


def test_a_scan_gives_the_tables_of_the_frame(tmp_path, monkeypatch):
    monkeypatch.setattr(analytic, "ANALYTIC_FROM", 10)
    monkeypatch.setattr(summaries, "ANALYTIC_FROM", 10)
    monkeypatch.setattr(describe, "ANALYTIC_FROM", 10)
    monkeypatch.setattr(streamed, "PART_GAMES", 7)  # several parts, one game cut nowhere
    players = _players(60)
    players.write_parquet(tmp_path / "players.parquet")
    scan = pl.scan_parquet(tmp_path / "players.parquet")
    frame_tables = summaries.score_tables(players, ("strategy", "seat"), 1)
    for x, y in zip(frame_tables, summaries.score_tables(scan, ("strategy", "seat"), 1), strict=True):
        assert x.drop("sd").equals(y.drop("sd")) and np.allclose(x["sd"], y["sd"], rtol=1e-12)
    assert summaries.win_table(players, "seat").equals(summaries.win_table(scan, "seat"))
    assert summaries.margins(players).equals(summaries.margins(scan))
    games = pl.DataFrame({"game_index": range(60), "n_winners": 1, "failed": False, "truncated": False})
    assert summaries.ludii_figures(games, players, 1, 200).equals(summaries.ludii_figures(games, scan, 1, 200, complete=True))
