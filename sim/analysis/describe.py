"""One row per figure of a one-row-per-game table: the report's game length and summary figures
and the winning margin (mean with an interval over games, sd, min, median, max)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .analytic import ANALYTIC_FROM, RatioSums, mean_intervals, ratio_intervals
from .counted import quantile
from .stats import analysis_rng, bootstrap_ratio_rows, complete_games
from .streamed import Rows, gather, height, schema


def describe_columns(df: Rows, columns: Sequence[str], seed: int, key: int, unit: dict | None = None,
                     n_resamples: int = 1000, confidence: float = 0.95) -> pl.DataFrame:
    """One row per numeric column of a one-row-per-game table: ``figure, games, mean, ci_low,
    ci_high`` (bootstrap over games; from ``ANALYTIC_FROM`` games on the normal interval of
    ``analytic``: a scan ``df`` then gives each column's figures and sums by a streamed query, its
    median from value counts, and no column is held), ``sd, min, median, max``."""
    n = height(df)
    if n < ANALYTIC_FROM and isinstance(df, pl.LazyFrame):
        df = df.select(columns).collect()
    if isinstance(df, pl.LazyFrame):  # streamed sums, no column held (memory: issue 20 item 5)
        return _frame([r for c in columns if (r := _streamed_row(df, c, n, confidence)) is not None])
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
    return _frame([{**r, "ci_low": ends[r["figure"]][0], "ci_high": ends[r["figure"]][1]} for r in rows])


def _frame(rows: list[dict]) -> pl.DataFrame:
    schema_ = {"figure": pl.Utf8, "games": pl.Int64, **{c: pl.Float64 for c in
                                                         ("mean", "ci_low", "ci_high", "sd", "min", "median", "max")}}
    return pl.DataFrame(rows, schema=schema_).select(list(schema_))


def _streamed_row(df: pl.LazyFrame, c: str, n: int, confidence: float) -> dict | None:
    """``describe_columns``' row of column ``c`` of a scan of ``n`` games (at least ``ANALYTIC_FROM``):
    one streamed query of the figures and the normal interval's sums (a mean over games: ``C_g``
    is 1 where the value is present, neither null nor NaN, so ``sum S C = sum S``, ``sum C^2 =
    sum C``), the median from value counts (``counted``). ``None`` when every value is null."""
    x = pl.col(c).cast(pl.Float64)
    here = x.is_not_null() & ~x.is_nan().fill_null(True)
    sv = pl.when(here).then(x).otherwise(0.0)
    r = gather(df, lambda f: f.select(games=x.is_not_null().sum(), mean=x.mean(), sd=x.std(), min=x.min(),
                                      max=x.max(), s=sv.sum(), c=here.sum(), ss=(sv * sv).sum())).row(0, named=True)
    if not r["games"]:
        return None
    m = RatioSums(1)
    m.n, m.s[0], m.c[0], m.ss[0], m.sc[0], m.cc[0] = n, r["s"], r["c"], r["ss"], r["s"], r["c"]
    lo, hi = ratio_intervals(m, confidence)
    counts = gather(df, lambda f: f.select(x).drop_nulls().group_by(c).agg(n=pl.len()).sort(c))
    median = quantile(counts[c].to_numpy(), counts["n"].to_numpy(), 0.5, "linear")
    return {"figure": c, "games": r["games"], "mean": r["mean"], "sd": r["sd"] if r["games"] > 1 else None,
            "min": r["min"], "median": median, "max": r["max"], "ci_low": float(lo[0]), "ci_high": float(hi[0])}


def describe_counted(counts: pl.DataFrame, column: str, confidence: float = 0.95) -> pl.DataFrame:
    """``describe_columns``' row of a one-value-per-game ``column`` of ``ANALYTIC_FROM`` games or
    more, from its value counts (``column, games``, sorted by ``column``, no null or NaN value;
    ``margins.margin_counts``): the mean's normal interval from the sums of ``analytic`` (a mean
    over games: ``sum S = sum v n``, ``sum S^2 = sum v^2 n``, ``C_g = 1``), the median as
    ``counted.quantile`` gives it. With whole-number values below 2**53 every sum is exact, so
    each figure but ``sd`` is the one of the per-game column (``sd``: up to the last bits)."""
    v, k = counts[column].cast(pl.Float64).to_numpy(), counts["games"].to_numpy()
    n, games = k.astype(float), int(k.sum())
    s, ss = float((v * n).sum()), float((v * v * n).sum())
    m = RatioSums(1)
    m.n, m.s[0], m.c[0], m.ss[0], m.sc[0], m.cc[0] = games, s, games, ss, s, games
    lo, hi = ratio_intervals(m, confidence)
    mean = s / games
    sd = float(np.sqrt((n * (v - mean) ** 2).sum() / (games - 1))) if games > 1 else None
    return _frame([{"figure": column, "games": games, "mean": mean, "sd": sd, "min": float(v[0]),
                    "median": quantile(v, k, 0.5, "linear"), "max": float(v[-1]), "ci_low": float(lo[0]),
                    "ci_high": float(hi[0])}])


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
