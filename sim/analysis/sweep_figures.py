"""The figures of one sweep point's run folder, long: ``figure, series, value, ci_low, ci_high``."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import stats, summaries
from .tables import load_tables

FIGURES = ("seat_win_rate", "strategy_win_rate", "first_player_advantage", "balance", "drawishness",
           "completion", "truncated_share", "game_length", "mean_score")


def point_figures(run_dir: Path, n_resamples: int = 1000, confidence: float = 0.95) -> pl.DataFrame:
    """The sweep figures of one point's run folder, long: ``figure, series, value, ci_low, ci_high``
    (intervals at ``confidence``)."""
    t = load_tables(run_dir)
    seed = int(t.config["seed"])
    cp = stats.complete_players(t.players, t.games)
    rows: list[tuple] = []
    if cp.height:
        for r in summaries.win_table(cp, "seat", confidence).iter_rows(named=True):
            rows.append(("seat_win_rate", f"seat {r['seat']}", r["win_rate"], r["ci_low"], r["ci_high"]))
        strat = summaries.win_table(cp, "strategy", confidence)
        if strat.height > 1:
            for r in strat.iter_rows(named=True):
                rows.append(("strategy_win_rate", r["strategy"], r["win_rate"], r["ci_low"], r["ci_high"]))
        fp = summaries.first_player_advantage(cp, confidence=confidence)
        rows.append(("first_player_advantage", "seat 0 − expected", fp["advantage"], fp["adv_low"], fp["adv_high"]))
        for r in summaries.score_table(cp, "strategy", seed, n_resamples, confidence).iter_rows(named=True):
            rows.append(("mean_score", r["strategy"], r["mean"], r["ci_low"], r["ci_high"]))
    for r in summaries.ludii_figures(t.games, t.players, seed, n_resamples, confidence).iter_rows(named=True):
        name = r["figure"].lower()
        if name in ("balance", "drawishness", "completion"):
            rows.append((name, r["figure"], r["value"], r["ci_low"], r["ci_high"]))
    ended = summaries.end_reason_table(t.games, confidence)
    stopped = int(ended.filter(pl.col("reason").is_in(["stalled", "round_cap", "decision_cap", "truncated"]))["count"].sum())
    if t.games.height:
        lo, hi = stats.wilson(stopped, t.games.height, confidence)
        rows.append(("truncated_share", "stalled or capped", stopped / t.games.height, lo, hi))
    lt = summaries.length_table(t.games, seed, n_resamples, confidence)
    col = "rounds" if "rounds" in lt["figure"].to_list() else "turns" if "turns" in lt["figure"].to_list() else "n_decisions"
    for r in lt.filter(pl.col("figure") == col).iter_rows(named=True):
        rows.append(("game_length", col, r["mean"], r["ci_low"], r["ci_high"]))
    return pl.DataFrame(rows, schema={"figure": pl.Utf8, "series": pl.Utf8, "value": pl.Float64, "ci_low": pl.Float64,
                                      "ci_high": pl.Float64}, orient="row")
