"""Statistics over run tables (Polars in, Polars out); intervals from scipy."""

from __future__ import annotations

import math

import polars as pl
from scipy import stats


def wilson(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``n`` trials, as proportions in [0, 1].

    ``(nan, nan)`` when ``n == 0``. Uses ``scipy.stats.binomtest(...).proportion_ci``.
    """
    if n <= 0:
        return (math.nan, math.nan)
    ci = stats.binomtest(int(wins), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def win_table(players: pl.DataFrame, by: str, confidence: float = 0.95) -> pl.DataFrame:
    """Win rate per value of ``by`` (``seat`` or ``strategy``) with Wilson intervals.

    In: ``players`` rows (``game_index, seat, strategy, score, won``). Out, one row per group in
    ``by`` order: ``games`` (player rows), ``wins`` (shared wins count for every winner),
    ``win_rate``, ``ci_low``, ``ci_high`` (proportions), ``mean_score``.
    """
    agg = (
        players.group_by(by)
        .agg(games=pl.len(), wins=pl.col("won").sum(), mean_score=pl.col("score").mean())
        .sort(by)
    )
    cis = [wilson(w, g, confidence) for w, g in zip(agg["wins"], agg["games"], strict=True)]
    return agg.with_columns(
        win_rate=pl.col("wins") / pl.col("games"),
        ci_low=pl.Series([c[0] for c in cis], dtype=pl.Float64),
        ci_high=pl.Series([c[1] for c in cis], dtype=pl.Float64),
    ).select(by, "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score")


def seat_chi_square(players: pl.DataFrame) -> tuple[float, float]:
    """Chi-square test that every seat wins equally often: ``(statistic, p-value)``.

    Contingency table seats x (won, lost) over completed games (scipy ``chi2_contingency``).
    ``(nan, nan)`` when there is nothing to test (no wins or a single seat).
    """
    t = players.group_by("seat").agg(won=pl.col("won").sum(), lost=(~pl.col("won")).sum()).sort("seat")
    if t.height < 2 or t["won"].sum() == 0 or t["lost"].sum() == 0:
        return (math.nan, math.nan)
    res = stats.chi2_contingency([t["won"].to_list(), t["lost"].to_list()])
    return (float(res.statistic), float(res.pvalue))
