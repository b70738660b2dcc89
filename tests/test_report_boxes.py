"""Box-plot numbers by polars (``sim.analysis.boxes``) against a hand-worked example and against
matplotlib's own ``cbook.boxplot_stats``; the score chart's boxes against ``Axes.boxplot``."""

import numpy as np
import polars as pl
import pytest

from sim.analysis.boxes import BOX_COLUMNS, box_stats


def test_hand_worked_groups():
    # a: 1 2 3 4 100 -> q1 2, median 3, q3 4, IQR 2, whiskers within [2 - 3, 4 + 3] = [-1, 7]: 1 and 4
    # b: 5 5 5 -> everything 5 (IQR 0: the whiskers sit on the box)
    # c: 0 10 -> q1 2.5, median 5, q3 7.5 (linear), limits -5 and 15: whiskers 0 and 10
    df = pl.DataFrame({"g": ["a"] * 5 + ["b"] * 3 + ["c"] * 2,
                       "score": [1, 2, 3, 4, 100, 5, 5, 5, 0, 10]})
    got = box_stats(df, "g")
    assert got["g"].to_list() == ["a", "b", "c"]
    assert got.select(BOX_COLUMNS).rows() == [(2.0, 3.0, 4.0, 1.0, 4.0), (5.0, 5.0, 5.0, 5.0, 5.0),
                                              (2.5, 5.0, 7.5, 0.0, 10.0)]


def test_whisker_never_inside_the_box():
    # 0 0 0 0 10 10 10 10 -> q1 0, q3 10 (linear: positions 1.75 and 5.25), whiskers 0 and 10;
    # 1 9 9 9 9 -> q1 = q3 = 9, limits 9..9: the lowest value at or above 9 is 9, so whislo = q1 = 9
    df = pl.DataFrame({"g": [0] * 8 + [1] * 5, "score": [0, 0, 0, 0, 10, 10, 10, 10, 1, 9, 9, 9, 9]})
    got = box_stats(df, "g").select(BOX_COLUMNS).rows()
    assert got == [(0.0, 5.0, 10.0, 0.0, 10.0), (9.0, 9.0, 9.0, 9.0, 9.0)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_matplotlib_boxplot_stats(seed):
    from matplotlib import cbook

    rng = np.random.default_rng(seed)
    groups = {g: np.round(rng.standard_t(3, size=n) * 7 + 20) for g, n in zip("wxyz", (1, 2, 57, 400), strict=True)}
    groups["v"] = rng.normal(size=33)  # not whole numbers
    df = pl.DataFrame({"g": [g for g, v in groups.items() for _ in v],
                       "score": np.concatenate(list(groups.values()))})
    got = box_stats(df, "g")
    for row in got.iter_rows(named=True):
        ref = cbook.boxplot_stats(groups[row["g"]])[0]
        for k in BOX_COLUMNS:
            assert row[k] == pytest.approx(ref[k], rel=1e-12, abs=1e-12), (row["g"], k)


def test_score_chart_draws_the_boxes_boxplot_draws():
    from sim.analysis.charts import Figure, score_chart

    rng = np.random.default_rng(5)
    df = pl.DataFrame({"seat": np.repeat([0, 1, 2], 200), "score": np.round(rng.gamma(2, 5, 600))})
    means = df.group_by("seat").agg(mean=pl.col("score").mean()).with_columns(
        ci_low=pl.col("mean") - 1, ci_high=pl.col("mean") + 1)
    fig = score_chart(box_stats(df, "seat"), "seat", means)
    ref = Figure().add_subplot()
    ref.boxplot([df.filter(pl.col("seat") == s)["score"].to_list() for s in (0, 1, 2)], showfliers=False)
    drawn = [line.get_xydata().tolist() for line in fig.axes[0].lines][:len(ref.lines)]
    assert drawn == [line.get_xydata().tolist() for line in ref.lines]
