"""One row per figure of a one-row-per-game table: the report's game length and summary figures
and the winning margin (mean with an interval over games, sd, min, median, max)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .analytic import ANALYTIC_FROM, mean_intervals
from .stats import analysis_rng, bootstrap_ratio_rows, complete_games
from .streamed import Rows, gather, height, schema


def describe_columns(df: Rows, columns: Sequence[str], seed: int, key: int, unit: dict | None = None,
                     n_resamples: int = 1000, confidence: float = 0.95) -> pl.DataFrame:
    """One row per numeric column of a one-row-per-game table: ``figure, games, mean, ci_low,
    ci_high`` (bootstrap over games; from ``ANALYTIC_FROM`` games on the normal interval of
    ``analytic``, column by column: a scan ``df`` is then read one column at a time), ``sd, min,
    median, max``."""
    n = height(df)
    if n < ANALYTIC_FROM and isinstance(df, pl.LazyFrame):
        df = df.select(columns).collect()
    column = (lambda c: df[c]) if isinstance(df, pl.DataFrame) else (lambda c: gather(df, lambda f: f.select(c)).to_series())
    rows, ends = [], {}
    for c in columns:
        v = column(c)
        if not v.drop_nulls().len():
            continue
        if n >= ANALYTIC_FROM:
            present = _present(v.cast(pl.Float64))
            lo, hi = mean_intervals(np.where(present > 0, v.cast(pl.Float64).fill_null(0.0).to_numpy(), 0.0)[None],
                                    present[None], confidence)
            ends[c] = (float(lo[0]), float(hi[0]))
        v = v.drop_nulls().cast(pl.Float64)
        rows.append({"figure": c, "games": v.len(), "mean": v.mean(), "sd": v.std() if v.len() > 1 else None,
                     "min": v.min(), "median": v.median(), "max": v.max()})
    if rows and not ends:  # the bootstrap: every column's resamples in one pass
        ends = _bootstrap_columns(df, [r["figure"] for r in rows], seed, key, n_resamples, confidence)
    rows = [{**r, "ci_low": ends[r["figure"]][0], "ci_high": ends[r["figure"]][1]} for r in rows]
    schema_ = {"figure": pl.Utf8, "games": pl.Int64, **{c: pl.Float64 for c in
                                                         ("mean", "ci_low", "ci_high", "sd", "min", "median", "max")}}
    return pl.DataFrame(rows, schema=schema_).select(list(schema_))


def _present(v: pl.Series) -> np.ndarray:
    """1.0 where a float column holds a number (neither null nor NaN), else 0.0."""
    return (v.is_not_null().to_numpy() & ~v.is_nan().fill_null(True).to_numpy()).astype(float)


def _bootstrap_columns(df: pl.DataFrame, cols: list[str], seed: int, key: int, n_resamples: int,
                       confidence: float) -> dict[str, tuple[float, float]]:
    """Bootstrap intervals of the mean of each column of ``cols`` over the games where it is present."""
    # column by column into (2k, games) arrays: no frame-wide copy of every figure (memory, issue 20 item 5)
    k = len(cols)
    by_column = np.empty((2 * k, df.height))  # rows: the values, then whether present (bootstrap_ratio_rows)
    for j, c in enumerate(cols):
        v = df[c].cast(pl.Float64)
        by_column[k + j] = _present(v)
        by_column[j] = np.where(by_column[k + j] > 0, v.fill_null(0.0).to_numpy(), 0.0)
    lows, highs = bootstrap_ratio_rows(by_column, analysis_rng(seed, key), n_resamples, confidence)
    return {c: (float(lows[j]), float(highs[j])) for j, c in enumerate(cols)}


BASE_GAME_COLUMNS = ("game_index", "n_decisions", "truncated", "failed", "n_winners", "winners", "end_reason",
                     "deal_index")


def length_table(games: Rows, seed: int, n_resamples: int = 1000, confidence: float = 0.95) -> pl.DataFrame:
    """Game length and the game's summary figures (``n_decisions`` and every numeric column the
    game's ``summary`` adds, e.g. turns, rounds) over complete games, with bootstrap intervals
    (normal ones from ``ANALYTIC_FROM`` games on). ``games``: a frame, or a scan of ``games.parquet``."""
    types = schema(games)
    extra = [c for c in types if c not in BASE_GAME_COLUMNS and types[c].is_numeric()]
    cols = games.select("failed", "truncated", "n_decisions", *extra)  # not a copy of every column
    done = (complete_games(cols) if isinstance(cols, pl.DataFrame)
            else cols.filter(~pl.col("failed") & ~pl.col("truncated")))
    return describe_columns(done, ["n_decisions", *extra], seed, 2, n_resamples=n_resamples, confidence=confidence)
