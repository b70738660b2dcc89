"""Charts: pure functions from Polars tables to matplotlib Figures (object API, Agg backend)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402


def win_rate_chart(table: pl.DataFrame, by: str, expected: float | None, title: str) -> Figure:
    """Bar chart of ``win_rate`` per ``by`` with 95% Wilson intervals (from ``win_table``), in %.

    ``expected`` (a proportion) is drawn as a dashed line, e.g. 1/players for seats.
    """
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.add_subplot()
    labels = [str(v) for v in table[by].to_list()]
    rate = table["win_rate"].to_numpy() * 100
    low = table["ci_low"].to_numpy() * 100
    high = table["ci_high"].to_numpy() * 100
    x = range(len(labels))
    ax.bar(x, rate, color="#4C72B0", alpha=0.85, label="win rate")
    ax.errorbar(x, rate, yerr=[rate - low, high - rate], fmt="none", ecolor="black", capsize=6, label="95% Wilson interval")
    for xi, r in zip(x, rate, strict=True):
        ax.annotate(f"{r:.1f}%", (xi, r), textcoords="offset points", xytext=(12, 4), fontsize=8)
    if expected is not None:
        ax.axhline(expected * 100, color="#C44E52", linestyle="--", label=f"expected {expected * 100:.1f}%")
    ax.set_xticks(list(x), labels, rotation=20 if by == "strategy" else 0)
    ax.set_xlabel("seat (0 = start player)" if by == "seat" else by)
    ax.set_ylabel("win rate (%)")
    top = float(np.nanmax(high)) if len(high) and not np.isnan(high).all() else 80.0
    ax.set_ylim(0, min(100.0, top * 1.2 + 5))
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    return fig


def score_distribution_chart(players: pl.DataFrame, by: str = "strategy", unit: str = "points") -> Figure:
    """Box plot of final scores per ``by`` value (mean marked), ``unit`` on the axis label."""
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.add_subplot()
    groups = players.group_by(by).agg(pl.col("score")).sort(by)
    labels = [str(v) for v in groups[by].to_list()]
    data = [list(v) for v in groups["score"].to_list()]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20 if by == "strategy" else 0)
    ax.set_xlabel(by)
    ax.set_ylabel(f"final score ({unit})")
    ax.set_title(f"Score distribution by {by} (box: quartiles, triangle: mean)")
    return fig


def game_length_chart(games: pl.DataFrame, column: str = "n_decisions", unit: str = "decisions") -> Figure:
    """Histogram of game length (``column`` of the games table) over completed games."""
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.add_subplot()
    values = games.filter(~pl.col("failed"))[column].drop_nulls().to_numpy()
    ax.hist(values, bins=min(40, max(5, len(set(values.tolist())))), color="#55A868", edgecolor="white")
    if len(values):
        ax.axvline(values.mean(), color="black", linestyle="--", label=f"mean {values.mean():.1f}")
        ax.legend(fontsize=8)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.set_title(f"Game length in {unit}")
    return fig
