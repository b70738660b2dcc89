"""Aggregations per value of a column, one value at a time (issue 20 item 5: the report's memory).
Polars' ``group_by(...).agg`` gathers every group's values for ``std`` and ``quantile`` and at a
million games (four million player rows) that alone held about 220 MB for each; a filter to one
value, then the aggregations in a ``select``, holds one group's column (8 bytes a row) at a time."""

from __future__ import annotations

import polars as pl


def per_value(frame: pl.DataFrame, by: str, **aggs: pl.Expr) -> pl.DataFrame:
    """``frame.group_by(by).agg(**aggs).sort(by)`` for expressions in one group's context
    (``pl.len()``, ``mean``, ``std``, ``quantile``, ``filter``...), computed value by value of
    ``by`` (nulls left out: the report's ``seat`` and ``strategy`` have none). The same figures as
    the group-by (``std`` may differ in the last bits: polars sums the group-by's variance in
    another order), the ``by`` column keeps its type."""
    dtype = frame.schema[by]
    values = frame.lazy().select(pl.col(by).drop_nulls().unique().sort()).collect()[by].to_list()
    parts = [frame.lazy().filter(pl.col(by) == v).select(pl.lit(v, dtype=dtype).alias(by), **aggs).collect()
             for v in values]
    if parts:
        return pl.concat(parts)
    return frame.lazy().group_by(by).agg(**aggs).collect()  # no rows: the group-by's empty frame and types
