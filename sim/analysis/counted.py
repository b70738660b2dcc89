"""Quartiles and box-plot numbers of a column from its value counts (issue 20 item 5: the report's
memory). Polars' ``quantile`` gathers a group's whole column (and sorts a copy): at a million games
the largest score group held 31 MB and its sorted copy. Scores are whole numbers, so a streamed
``group_by(group, value).len()`` gives a few hundred (value, count) pairs per group, and every order
statistic follows exactly from the cumulative counts: the same numbers as the quantile of the rows.
Used for scans (``streamed``: from ``analytic.ANALYTIC_FROM`` complete games on); a column of
many distinct values still works, with one count per distinct value held."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .streamed import Rows, gather


def value_counts(frame: Rows, by: str, column: str = "score") -> pl.DataFrame:
    """``by, column, n``: how many non-null rows of ``frame`` hold each value of ``column`` in each
    group of ``by``, sorted by ``by`` then ``column`` (a scan: counted on the streaming engine)."""
    return gather(frame, lambda f: f.filter(pl.col(column).is_not_null()).group_by(by, column)
                  .agg(n=pl.len()).sort(by, column))


def order_stat(values: np.ndarray, cum: np.ndarray, i: int) -> float:
    """The ``i``-th smallest (0-based) of the rows whose sorted distinct ``values`` have cumulative
    counts ``cum`` (both shape ``(distinct,)``)."""
    return float(values[int(np.searchsorted(cum, i, side="right"))])


def quantile(values: np.ndarray, counts: np.ndarray, q: float, method: str = "nearest") -> float:
    """The ``q`` quantile of the rows that hold the sorted distinct ``values`` ``counts`` times, as
    polars' ``Expr.quantile(q, method)`` gives it on those rows: at position ``pos = (rows - 1) q``
    of the sorted rows, ``nearest`` takes the row at ``pos`` rounded half up (polars' rounding;
    numpy's ``nearest`` rounds halves to even), ``linear`` interpolates between the rows at
    ``floor(pos)`` and the next (numpy's default ``percentile`` method). NaN without rows."""
    cum = np.cumsum(counts)
    if not cum.size or cum[-1] == 0:
        return math.nan
    pos = (int(cum[-1]) - 1) * q
    if method == "nearest":
        return order_stat(values, cum, int(math.floor(pos + 0.5)))
    lo = int(math.floor(pos))
    a, b = order_stat(values, cum, lo), order_stat(values, cum, min(lo + 1, int(cum[-1]) - 1))
    return a + (b - a) * (pos - lo)


def describe_counts(counts: pl.DataFrame, by: str, column: str = "score") -> pl.DataFrame:
    """Per value of ``by`` in a ``value_counts`` table, what the score tables compute from the rows
    (``summaries.score_tables``): ``rows`` (UInt32, as ``pl.len()``), ``mean``, ``sd`` (divisor
    rows - 1; null for one row), ``min``, ``q25`` (``quantile`` ``nearest``), ``median``
    (``linear``), ``q75``, ``max``, Float64. With whole-number values every figure but ``sd`` is
    the rows' exactly (sums of whole numbers below 2**53 are exact); ``sd`` may differ in the last
    bits (another order of summation)."""
    out = []
    for key, g in counts.group_by(by, maintain_order=True):
        v, n = g[column].cast(pl.Float64).to_numpy(), g["n"].to_numpy()
        rows = int(n.sum())
        mean = float((v * n).sum()) / rows
        sd = math.sqrt(float((n * (v - mean) ** 2).sum()) / (rows - 1)) if rows > 1 else None
        out.append({by: key[0], "rows": rows, "mean": mean, "sd": sd, "min": float(v[0]),
                    "q25": quantile(v, n, 0.25), "median": quantile(v, n, 0.5, "linear"),
                    "q75": quantile(v, n, 0.75), "max": float(v[-1])})
    return pl.DataFrame(out, schema={by: counts.schema[by], "rows": pl.UInt32, **{c: pl.Float64 for c in
                                     ("mean", "sd", "min", "q25", "median", "q75", "max")}})


def box_columns(counts: pl.DataFrame, by: str, column: str = "score", whis: float = 1.5) -> pl.DataFrame:
    """``boxes.box_stats`` from a ``value_counts`` table: per value of ``by``, ``q1``, ``med``,
    ``q3`` (linear), ``whislo`` (the smallest value at or above ``q1 - whis * (q3 - q1)``, or ``q1``
    when that is above ``q1``) and ``whishi`` (likewise above ``q3``), Float64."""
    out = []
    for key, g in counts.group_by(by, maintain_order=True):
        v, n = g[column].cast(pl.Float64).to_numpy(), g["n"].to_numpy()
        q1, med, q3 = (quantile(v, n, q, "linear") for q in (0.25, 0.5, 0.75))
        lo, hi = q1 - whis * (q3 - q1), q3 + whis * (q3 - q1)
        inside_lo, inside_hi = v[v >= lo], v[v <= hi]
        whislo = float(inside_lo.min()) if inside_lo.size else q1
        whishi = float(inside_hi.max()) if inside_hi.size else q3
        out.append({by: key[0], "q1": q1, "med": med, "q3": q3,
                    "whislo": q1 if whislo > q1 else whislo, "whishi": q3 if whishi < q3 else whishi})
    return pl.DataFrame(out, schema={by: counts.schema[by], **{c: pl.Float64 for c in
                                                               ("q1", "med", "q3", "whislo", "whishi")}})


def histogram_values(frame: Rows, column: str, where: pl.Expr) -> tuple[np.ndarray, np.ndarray | None]:
    """What ``charts.histogram_chart`` draws of the non-null ``column`` of the rows of ``frame``
    where ``where`` holds: of a ``DataFrame`` the values (``counts`` ``None``), of a scan its
    distinct values and their counts (one streamed ``group_by``; the values are never gathered)."""
    if isinstance(frame, pl.DataFrame):
        return gather(frame, lambda f: f.filter(where).select(column))[column].drop_nulls().to_numpy(), None
    counts = gather(frame, lambda f: f.filter(where).select(column).drop_nulls().group_by(column)
                    .agg(n=pl.len()).sort(column))
    return counts[column].to_numpy(), counts["n"].to_numpy()
