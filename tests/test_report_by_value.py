"""``by_value.per_value`` (aggregations one value at a time) against polars' own group-by and a
hand-worked table."""

import numpy as np
import polars as pl
import pytest

from sim.analysis.by_value import per_value


def test_hand_worked():
    df = pl.DataFrame({"seat": [1, 0, 1, 0, 1], "score": [4.0, 2.0, 6.0, 8.0, 5.0]})
    got = per_value(df, "seat", rows=pl.len(), mean=pl.col("score").mean(), q=pl.col("score").quantile(0.5))
    # seat 0: 2, 8 -> 2 rows, mean 5; seat 1: 4, 6, 5 -> 3 rows, mean 5, median 5
    assert got["seat"].to_list() == [0, 1] and got["rows"].to_list() == [2, 3]
    assert got["mean"].to_list() == [5.0, 5.0]
    assert got["q"].to_list() == df.group_by("seat").agg(q=pl.col("score").quantile(0.5)).sort("seat")["q"].to_list()
    assert got["q"].to_list()[1] == 5.0  # 4 5 6: the middle one


def test_same_as_group_by():
    rng = np.random.default_rng(3)
    df = pl.DataFrame({"strategy": rng.choice(["b", "a", "c"], 999), "score": np.round(rng.normal(10, 4, 999)),
                       "won": rng.random(999) < 0.3})
    aggs = dict(rows=pl.len(), wins=pl.col("won").sum(), mean=pl.col("score").mean(), sd=pl.col("score").std(),
                q25=pl.col("score").quantile(0.25), hi=pl.col("score").filter(pl.col("won")).max())
    got, ref = per_value(df, "strategy", **aggs), df.group_by("strategy").agg(**aggs).sort("strategy")
    assert got.schema == ref.schema
    assert got.drop("sd").equals(ref.drop("sd"))
    assert got["sd"].to_list() == pytest.approx(ref["sd"].to_list(), rel=1e-12)


def test_no_rows_keeps_the_types():
    df = pl.DataFrame({"seat": [], "score": []}, schema={"seat": pl.Int64, "score": pl.Float64})
    got = per_value(df, "seat", rows=pl.len(), mean=pl.col("score").mean())
    assert got.height == 0 and got.schema == {"seat": pl.Int64, "rows": pl.UInt32, "mean": pl.Float64}
