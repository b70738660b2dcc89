"""The figures ``sim tune`` and ``sim discover`` aim at, from a run's tables, with 95% intervals.

Each figure is computed from a per-game matrix (one row per game), so the same code gives the
estimate (every game weighted 1) and the percentile bootstrap over whole games
(``stats.bootstrap_games``). Games that failed are left out; win-rate figures use complete games
(neither failed nor truncated), as the report does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..api import SimError
from . import stats


@dataclass
class Figure:
    """An estimate with its 95% interval and the number of games it rests on."""

    value: float
    ci_low: float
    ci_high: float
    games: int



def _sps():
    """``scipy.stats``, imported on first use: importing it costs about 0.9 s, and ``sim.cli``
    imports this module for every command (issue 20 item 8)."""
    from scipy import stats

    return stats

def _per_game(kind: str, games: pl.DataFrame, players: pl.DataFrame, column: str = "",
              pair: tuple[str, ...] = ()) -> tuple[np.ndarray, callable]:
    """``(per-game matrix, statistic(weights, matrix) -> value per resample)`` of a figure."""
    if kind == "metric":
        ok = games.filter(~pl.col("failed"))
        if column not in ok.columns:
            numeric = [c for c, t in ok.schema.items() if t.is_numeric() and c != "game_index"]
            raise SimError(f"games.parquet has no column '{column}'; numeric columns: {', '.join(numeric)}")
        m = ok[column].cast(pl.Float64).to_numpy()[:, None]
        return m, lambda w, x: (w @ x[:, 0]) / w.sum(1)
    cp = stats.complete_players(players, games)
    n_seats = int(cp["seat"].max()) + 1 if cp.height else 1
    if kind in ("first_player_advantage", "seat_spread"):
        wins = cp.pivot(on="seat", index="game_index", values="won", aggregate_function="first").sort("game_index")
        m = wins.select([str(s) for s in range(n_seats)]).cast(pl.Float64).to_numpy()
        if kind == "seat_spread":
            def spread(w, x):
                rates = (w @ x) / w.sum(1)[:, None]
                return rates.max(1) - rates.min(1)
            return m, spread
        # seat 0's win rate minus the pooled share (1/players without shared wins), as the report
        return m, lambda w, x: (w @ x[:, 0]) / w.sum(1) - (w @ x.sum(1)) / (w.sum(1) * x.shape[1])
    cols = []
    for label in pair:
        g = cp.group_by("game_index").agg(
            wins=(pl.col("won") & (pl.col("strategy") == label)).sum(),
            seats=(pl.col("strategy") == label).sum()).sort("game_index")
        cols += [g["wins"].cast(pl.Float64).to_numpy(), g["seats"].cast(pl.Float64).to_numpy()]
    m = np.column_stack(cols) if cols else np.zeros((0, 2))
    if kind == "win_rate":
        return m, lambda w, x: (w @ x[:, 0]) / (w @ x[:, 1])
    return m, lambda w, x: (w @ x[:, 0]) / (w @ x[:, 1]) - (w @ x[:, 2]) / (w @ x[:, 3])


def figure(kind: str, games: pl.DataFrame, players: pl.DataFrame, *, column: str = "", pair: tuple[str, ...] = (),
           seed: int = 0, n_resamples: int = 1000) -> Figure:
    """A figure of a run with its 95% percentile-bootstrap interval over games.

    ``kind``: ``metric`` (mean of games.parquet ``column``), ``first_player_advantage`` (seat 0's
    win rate minus the pooled share), ``seat_spread`` (largest minus smallest seat win rate),
    ``strategy_gap`` (win rate of ``pair[0]`` minus ``pair[1]``) or ``win_rate`` (of ``pair[0]``).
    Win rates are proportions in [0, 1]. ``n_resamples=0``: no interval (NaN). ``SimError`` for an
    unknown column. NaN when no game counts.
    """
    m, stat = _per_game(kind, games, players, column, pair)
    if m.shape[0] == 0:
        return Figure(math.nan, math.nan, math.nan, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = float(stat(np.ones((1, m.shape[0])), m)[0])
        lo, hi = (math.nan, math.nan)
        if n_resamples and m.shape[0] > 1 and np.ptp(m, axis=0).any():
            lo, hi = stats.bootstrap_games(m, stat, stats.analysis_rng(seed, 21), n_resamples)
        elif n_resamples:
            lo = hi = value
    return Figure(value, float(lo), float(hi), int(m.shape[0]))


def loss(kind: str, value: float, target: float = 0.0) -> float:
    """What the optimiser minimises: the distance to the target (``seat_spread``: the spread itself;
    ``win_rate``: minus the win rate, i.e. maximised). NaN becomes +inf (never the best)."""
    if value != value:
        return math.inf
    if kind == "seat_spread":
        return value
    if kind == "win_rate":
        return -value
    return abs(value - target)


def paired_wins(players: pl.DataFrame, games: pl.DataFrame, label: str) -> pl.DataFrame:
    """Per complete game: whether strategy ``label`` won (``game_index, won``)."""
    cp = stats.complete_players(players, games)
    return cp.group_by("game_index").agg(won=(pl.col("won") & (pl.col("strategy") == label)).any()).sort("game_index")


def mcnemar(a: pl.DataFrame, b: pl.DataFrame) -> dict:
    """Exact McNemar test of two players on the same games (``game_index, won`` each): the games won
    by one and not the other are binomial(n, 1/2) when both are equally strong (two-sided,
    ``scipy.stats.binomtest``). Returns ``only_a, only_b, games, p``."""
    j = a.join(b, on="game_index", suffix="_b")
    only_a = int((j["won"] & ~j["won_b"]).sum())
    only_b = int((~j["won"] & j["won_b"]).sum())
    n = only_a + only_b
    p = float(_sps().binomtest(only_a, n, 0.5).pvalue) if n else 1.0
    return {"only_a": only_a, "only_b": only_b, "games": j.height, "p": p, "test": "mcnemar"}


def fisher(a: pl.DataFrame, b: pl.DataFrame) -> dict:
    """Fisher's exact test (two-sided, ``scipy.stats.fisher_exact``) of two players' win counts on
    games that were not the same games (``game_index, won`` each; other deals under ``seating:
    permute``): unpaired, so no game-by-game counts. Returns ``games, p, test``."""
    wa, wb = int(a["won"].sum()), int(b["won"].sum())
    table = [[wa, a.height - wa], [wb, b.height - wb]]
    p = float(_sps().fisher_exact(table).pvalue) if a.height and b.height else 1.0
    return {"only_a": None, "only_b": None, "games": min(a.height, b.height), "p": p, "test": "fisher"}
