"""The winning margin per game (``margins``) and, from ``analytic.ANALYTIC_FROM`` complete games
on, its value counts instead (``margin_counts``: issue 20 item 5, the report's memory). A
million games' margins were a 16 MB report table held to the end, and a copy of them for the
histogram; their counts are a few hundred rows (scores, and so margins, are whole numbers in
every shipped game; any values still work, one row per distinct value), from which the section's
figures (``describe.describe_counted``) and the histogram (``charts.histogram_chart``'s
``counts``) follow: the same numbers and the same picture."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .analytic import ANALYTIC_FROM
from .describe import describe_columns, describe_counted
from .per_game import whole_games_layout
from .streamed import Rows, whole_game_parts


def margins(players: Rows) -> pl.DataFrame:
    """Winning margin per game: best winner's score minus the best non-winner's score.

    Games where everybody or nobody won have no margin (left out). Out: ``game_index, margin``.
    Rows of whole games in seat order with float scores and no nulls (what a run writes) are read
    as ``(games, seats)`` arrays: a polars group-by over a million games held ~350 MB (issue 20 item 5).
    """
    if isinstance(players, pl.LazyFrame):  # a scan: part by part of whole games (``streamed``)
        parts = [margins(part) for part in whole_game_parts(players.select("game_index", "seat", "score", "won"))]
        return pl.concat(parts) if parts else pl.DataFrame(schema={"game_index": pl.Int64, "margin": pl.Float64})
    p = whole_games_layout(players)
    if (p and players["score"].dtype == pl.Float64 and not players["score"].null_count()
            and not players["score"].is_nan().any()):
        score, won = players["score"].to_numpy().reshape(-1, p), players["won"].to_numpy().reshape(-1, p)
        keep = won.any(axis=1) & ~won.all(axis=1)
        margin = (np.where(won, score, -np.inf).max(axis=1) - np.where(won, -np.inf, score).max(axis=1))[keep]
        return pl.DataFrame({"game_index": players["game_index"].gather_every(p).filter(pl.Series(keep)),
                             "margin": pl.Series(margin, dtype=pl.Float64)})
    return (
        players.group_by("game_index")
        .agg(win=pl.col("score").filter(pl.col("won")).max(), rest=pl.col("score").filter(~pl.col("won")).max())
        .drop_nulls()
        .select("game_index", margin=pl.col("win") - pl.col("rest"))
        .sort("game_index")
    )


def margin_counts(players: Rows) -> pl.DataFrame:
    """``margin, games``: how many games have each winning margin (``margins``; a NaN margin is
    left out), sorted by margin. A scan is read part by part of whole games and only each part's
    counts kept, so no per-game table is held."""
    cols = ("game_index", "seat", "score", "won")
    parts = [margins(part).filter(pl.col("margin").is_not_nan()).group_by("margin").agg(games=pl.len())
             for part in whole_game_parts(players.select(cols))]
    if not parts:
        return pl.DataFrame(schema={"margin": pl.Float64, "games": pl.Int64})
    return pl.concat(parts).group_by("margin").agg(pl.col("games").cast(pl.Int64).sum()).sort("margin")


@dataclass
class Margins:
    """What the report's "Winning margin" section shows: the report table ``name`` (``margins``,
    one row per game; ``margin_counts`` of a scan), the ``games`` with a margin, the figures ``row``
    (``describe_columns``' row: mean, ci_low, ci_high, median...; ``None`` without games) and the
    histogram's ``values`` with their ``counts`` (``None``: one value per game)."""

    name: str
    table: pl.DataFrame
    games: int
    row: dict | None
    values: np.ndarray
    counts: np.ndarray | None


def winning_margins(complete: Rows, seed: int, n_resamples: int, confidence: float) -> Margins:
    """The winning margins of the complete games' rows ``complete``: per game of a ``DataFrame``
    (the mean's bootstrap interval below ``ANALYTIC_FROM`` games), as value counts of a scan with
    ``ANALYTIC_FROM`` games with a margin or more (the mean's normal interval, as before)."""
    if isinstance(complete, pl.LazyFrame):
        mc = margin_counts(complete)
        games = int(mc["games"].sum()) if mc.height else 0
        if games >= ANALYTIC_FROM:  # fewer: the bootstrap over the games' margins, as below
            row = describe_counted(mc, "margin", confidence).row(0, named=True)
            return Margins("margin_counts", mc, games, row, mc["margin"].to_numpy(), mc["games"].to_numpy())
    mg = margins(complete)
    row = (describe_columns(mg, ["margin"], seed, 4, n_resamples=n_resamples, confidence=confidence).row(0, named=True)
           if mg.height else None)
    return Margins("margins", mg, mg.height, row, mg["margin"].to_numpy(), None)
