"""The report's bootstraps after issue 20 items 1 and 5: weights built one resample at a time, a
batch bounded by ``stats.BATCH_CELLS`` and the two score tables drawn from one set of resamples.
Each must still be ``scipy.stats.bootstrap(..., method="percentile")`` given the same generator."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from sim.analysis import stats, summaries


def test_game_weights_count_each_game_per_resample():
    # resample 0 draws games 0, 0, 2; resample 1 draws 1, 2, 2 (counted by hand)
    w = stats._game_weights(np.array([[0, 0, 2], [1, 2, 2]]), 3)
    assert w.dtype == np.float64
    assert w.tolist() == [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
    assert stats._game_weights(np.array([1, 1]), 4).tolist() == [[0.0, 2.0, 0.0, 0.0]]


@pytest.mark.parametrize("n", [7, 1001, 20_000])
def test_numpy_draws_do_not_depend_on_the_batch(n):
    # the premise of BATCH_CELLS: rng.integers(0, n, (b, n)) in batches of any size gives the same indices
    whole = np.random.default_rng(3).integers(0, n, (12, n), dtype=np.int64)
    rng = np.random.default_rng(3)
    parts = [rng.integers(0, n, (b, n), dtype=np.int64) for b in (5, 1, 6)]
    assert np.array_equal(np.concatenate(parts), whole)


def test_ratio_bootstrap_equals_scipy_for_any_batch(monkeypatch):
    from scipy import stats as sps

    g = np.random.default_rng(11)
    sums, counts = g.normal(10, 3, size=(300, 2)), g.integers(0, 3, size=(300, 2)).astype(float)
    sums[counts == 0] = 0.0

    def ratio(idx, axis=-1):  # the ratio of sums over the resampled games, by indexing (scipy's own resamples)
        return np.stack([sums[idx, j].sum(-1) / counts[idx, j].sum(-1) for j in range(2)])

    ref = sps.bootstrap((np.arange(300),), ratio, vectorized=True, n_resamples=500, method="percentile",
                        confidence_level=0.9, rng=np.random.default_rng(5)).confidence_interval
    for cells in (1_000_000, 300 * 7, 1):  # one batch of 500 resamples, batches of 7, one resample at a time
        monkeypatch.setattr(stats, "BATCH_CELLS", cells)
        lo, hi = stats.bootstrap_ratios(sums, counts, np.random.default_rng(5), 500, 0.9)
        np.testing.assert_allclose(lo, ref.low, rtol=1e-12)
        np.testing.assert_allclose(hi, ref.high, rtol=1e-12)


def test_score_tables_share_resamples_and_equal_each_table_alone():
    g = np.random.default_rng(2)
    rows = [(gi, s, ["a", "b", "c"][(gi + s) % 3], float(g.integers(0, 20)), bool(s == gi % 3))
            for gi in range(60) for s in range(3)]
    t = pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "score": pl.Float64,
                                   "won": pl.Boolean}, orient="row")
    both = summaries.score_tables(t, ["strategy", "seat"], seed=9, n_resamples=300)
    assert_frame_equal(both[0], summaries.score_table(t, "strategy", 9, 300))
    assert_frame_equal(both[1], summaries.score_table(t, "seat", 9, 300))
    assert both[0]["ci_low"].null_count() == 0 and (both[0]["ci_low"] < both[0]["mean"]).all()


def test_weighted_sums_by_hand():
    cols = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 1.0]])  # two figures over three games
    w = np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 2.0]])  # resample 0: game 0 thrice; resample 1: games 1, 2, 2
    assert stats.weighted_sums(cols, w).tolist() == [[3.0, 8.0], [0.0, 3.0]]


def test_distinct_rows_give_the_whole_product():
    # rows: a figure, a row of ones (present in every game), a copy of the figure, and another figure
    rows = np.array([[1.5, 2.0, 3.0], [1.0, 1.0, 1.0], [1.5, 2.0, 3.0], [0.0, 1.0, 4.0]])
    w = np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 2.0]])  # resample 0: game 0 thrice; resample 1: games 1, 2, 2
    # by hand: 3 x 1.5 = 4.5 and 2 + 2 x 3 = 8; the ones sum to 3 games each; 0 and 1 + 8 = 9
    expected = [[4.5, 8.0], [3.0, 3.0], [4.5, 8.0], [0.0, 9.0]]
    assert stats._distinct_rows(rows)(w).tolist() == expected
    assert stats._distinct_rows(np.ones((2, 3)))(w).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    g = np.random.default_rng(4)
    many = np.vstack([g.normal(size=(3, 500)), np.ones((2, 500)), g.integers(0, 3, (2, 500)).astype(float)])
    many = np.vstack([many, many[[0, 5]]])
    ws = stats._game_weights(g.integers(0, 500, (40, 500)), 500)
    assert np.array_equal(stats._distinct_rows(many)(ws), stats.weighted_sums(many, ws))  # the same bits
