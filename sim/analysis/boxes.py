"""Box-plot figures per group computed by polars (issue 20 item 5: the report's memory): the score
box plots are drawn by ``Axes.bxp`` from these few numbers per group, not by ``Axes.boxplot`` from
a Python list of every score (about 250 MB at a million games)."""

from __future__ import annotations

import polars as pl

from .by_value import per_value
from .counted import box_columns, value_counts

BOX_COLUMNS = ("q1", "med", "q3", "whislo", "whishi")


def box_stats(players: pl.DataFrame | pl.LazyFrame, by: str, column: str = "score", whis: float = 1.5) -> pl.DataFrame:
    """Per value of ``by`` (sorted), what ``matplotlib.cbook.boxplot_stats(x, whis=whis)`` gives for
    the non-null values ``x`` of ``column`` in that group: ``q1``, ``med``, ``q3`` (percentiles 25,
    50, 75 with linear interpolation, numpy's default), ``whislo`` (the smallest value at or above
    ``q1 - whis * (q3 - q1)``, or ``q1`` when that is above ``q1``) and ``whishi`` (the largest
    value at or below ``q3 + whis * (q3 - q1)``, or ``q3`` when that is below ``q3``), in the
    column's unit (Float64). Fliers (the values beyond the whiskers) are not kept: the report's
    box plots do not draw them (``showfliers=False``). Groups whose values are all null are left
    out. A scan ``players``: the same numbers from value counts (``counted``: no group held).
    Source: matplotlib's ``cbook.boxplot_stats`` (Tukey's box plot, whiskers at 1.5 IQR)."""
    if isinstance(players, pl.LazyFrame):  # a scan: from value counts, no group's column held (``counted``)
        return box_columns(value_counts(players, by, column), by, column, whis)
    s = pl.col(column).cast(pl.Float64)
    q1, q3 = s.quantile(0.25, "linear"), s.quantile(0.75, "linear")
    lo, hi = q1 - whis * (q3 - q1), q3 + whis * (q3 - q1)  # matplotlib's loval, hival, in its order
    kept = players.filter(pl.col(column).is_not_null()) if players[column].null_count() else players
    return (per_value(kept, by, q1=q1, med=s.quantile(0.5, "linear"), q3=q3,  # value by value: memory
                      whislo=s.filter(s >= lo).min(), whishi=s.filter(s <= hi).max())
            .with_columns(whislo=pl.when(pl.col("whislo").is_null() | (pl.col("whislo") > pl.col("q1")))
                          .then(pl.col("q1")).otherwise(pl.col("whislo")),
                          whishi=pl.when(pl.col("whishi").is_null() | (pl.col("whishi") < pl.col("q3")))
                          .then(pl.col("q3")).otherwise(pl.col("whishi"))))


def bxp_stats(boxes: pl.DataFrame) -> list[dict]:
    """The rows of a ``box_stats`` table as the dicts ``Axes.bxp`` draws (one per group, in order)."""
    return [{k: r[k] for k in BOX_COLUMNS} for r in boxes.iter_rows(named=True)]
