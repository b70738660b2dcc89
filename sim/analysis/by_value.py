"""Aggregations per value of a column, one value at a time (issue 20 item 5: the report's memory).
Polars' ``group_by(...).agg`` gathers every group's values for ``std`` and ``quantile`` and at a
million games (four million player rows) that alone held about 220 MB for each; a filter to one
value, then the aggregations in a ``select``, holds one group's column (8 bytes a row) at a time."""

from __future__ import annotations

import polars as pl

from .streamed import Rows, gather, schema


def per_value(frame: Rows, by: str, **aggs: pl.Expr) -> pl.DataFrame:
    """``frame.group_by(by).agg(**aggs).sort(by)`` for expressions in one group's context
    (``pl.len()``, ``mean``, ``std``, ``quantile``, ``filter``...), computed value by value of
    ``by`` (nulls left out: the report's ``seat`` and ``strategy`` have none). The same figures as
    the group-by (``std`` may differ in the last bits: polars sums the group-by's variance in
    another order), the ``by`` column keeps its type. ``frame`` may be a scan (``streamed``)."""
    dtype = schema(frame)[by]
    values = gather(frame, lambda f: f.select(pl.col(by).drop_nulls().unique().sort()))[by].to_list()
    parts = [gather(frame, lambda f, v=v: f.filter(pl.col(by) == v).select(pl.lit(v, dtype=dtype).alias(by), **aggs))
             for v in values]
    if parts:
        return pl.concat(parts)
    return gather(frame, lambda f: f.group_by(by).agg(**aggs))  # no rows: the group-by's empty frame and types
