"""Skill-versus-luck figures of a round robin (``sim skill``): a ranking of strategies with
intervals, the skill-depth index and the upset rate.

In: the ``players`` rows of every table of the round robin, one extra column ``table`` (which
run of the round robin a game belongs to), complete games only (``stats.complete_players``).
Conventions as in ``stats``: Wilson 95% intervals for proportions; a shared win counts as a win
for every winner.

- **Ranking**: win rate per strategy over all its player rows (in a round robin every strategy
  meets every other equally often), best first, ties in name order.
- **Skill-depth index**: the best strategy's win rate minus the baseline's (``random_by_kind``),
  in points of win rate; with 2 players, 0 means playing well does not matter and 1 means the
  best strategy always wins where the baseline always loses. Interval: Newcombe's hybrid score
  interval for a difference of two proportions (Newcombe 1998, "Interval estimation for the
  difference between independent proportions", method 10), treating both win rates as
  independent samples (they share the games in which the two meet).
- **Upset rate**: over every pair of seats of one game whose strategies have different ranks and
  of which exactly one won, the share won by the lower-ranked strategy (2 players: decisive games
  between two strategies). 0 means the ranking is never upset (pure skill); 0.5 means the ranking
  says nothing about who wins a game (pure luck). The ranking is the one of the same games.
- **Head to head**: the best strategy against each other strategy but the baseline, over the games
  where both sat at the table ("meetings"): the margin is the first's win rate minus the second's
  in those games (a shared win counts for both and cancels), in points. Interval: the Wilson 95%
  interval of the first's share of the D decisive meetings (exactly one of the two won), mapped
  to the margin as ``(2 share - 1) D / N`` for N meetings (conditional on D: the sign test's interval).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import polars as pl

from .stats import wilson, with_wilson


def ranking(players: pl.DataFrame) -> pl.DataFrame:
    """One row per strategy, best first: ``rank`` (1 = best; equal win rates share the better
    rank, "1, 2, 2, 4"), ``strategy``, ``games`` (player rows),
    ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` (proportions, Wilson 95%), ``mean_score``."""
    agg = players.group_by("strategy").agg(games=pl.len(), wins=pl.col("won").sum(), mean_score=pl.col("score").mean())
    t = with_wilson(agg).sort(["win_rate", "strategy"], descending=[True, False])
    return t.with_columns(rank=pl.col("win_rate").rank("min", descending=True).cast(pl.Int64)).select(
        "rank", "strategy", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score")


def newcombe_difference(wins1: int, n1: int, wins2: int, n2: int) -> tuple[float, float, float]:
    """``(p1 - p2, low, high)``: the difference of two proportions with Newcombe's hybrid score
    95% interval (method 10 of Newcombe 1998, built on the Wilson intervals of each proportion).
    NaN when a sample is empty."""
    if n1 <= 0 or n2 <= 0:
        return (math.nan, math.nan, math.nan)
    p1, p2 = wins1 / n1, wins2 / n2
    l1, u1 = wilson(wins1, n1)
    l2, u2 = wilson(wins2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def head_to_head(players: pl.DataFrame, a: str, b: str) -> dict:
    """``a`` against ``b`` in the games where both played (see the module docstring): ``meetings``,
    ``a_only``/``b_only`` (meetings won by one of them and not the other), ``margin`` (a's win rate
    minus b's there, a proportion difference) with ``low``/``high`` (NaN without a decisive meeting)."""
    keys = ["table", "game_index"] if "table" in players.columns else ["game_index"]
    both = players.filter(pl.col("strategy").is_in([a, b])).group_by(keys).agg(
        a_won=(pl.col("won") & (pl.col("strategy") == a)).any(), b_won=(pl.col("won") & (pl.col("strategy") == b)).any(),
        n_a=(pl.col("strategy") == a).sum(), n_b=(pl.col("strategy") == b).sum(),
    ).filter((pl.col("n_a") > 0) & (pl.col("n_b") > 0))
    n = both.height
    a_only = both.filter(pl.col("a_won") & ~pl.col("b_won")).height
    b_only = both.filter(pl.col("b_won") & ~pl.col("a_won")).height
    d = a_only + b_only
    lo, hi = wilson(a_only, d) if d else (math.nan, math.nan)
    return {"a": a, "b": b, "meetings": n, "a_only": a_only, "b_only": b_only,
            "margin": (a_only - b_only) / n if n else math.nan,
            "low": (2 * lo - 1) * d / n if d else math.nan, "high": (2 * hi - 1) * d / n if d else math.nan}


def upsets(players: pl.DataFrame, rank: dict[str, int]) -> tuple[int, int]:
    """``(upsets, decisive pairs)``: pairs of seats of one game (same ``table`` and ``game_index``)
    with strategies of different ``rank`` and exactly one winner between them, and how many of
    those the lower-ranked (larger rank number) strategy won."""
    keys = ["table", "game_index"] if "table" in players.columns else ["game_index"]
    n_upsets = n_pairs = 0
    for _, g in players.sort([*keys, "seat"]).group_by(keys, maintain_order=True):
        rows = list(zip(g["strategy"].to_list(), g["won"].to_list(), strict=True))
        for i in range(len(rows)):
            for j in range(i + 1, len(rows)):
                (si, wi), (sj, wj) = rows[i], rows[j]
                if rank[si] == rank[sj] or wi == wj:
                    continue
                n_pairs += 1
                lower_won = wi if rank[si] > rank[sj] else wj
                n_upsets += bool(lower_won)
    return n_upsets, n_pairs


@dataclass
class SkillFigures:
    """The figures ``sim skill`` reports. Proportions in [0, 1]; ``depth*`` in win-rate points
    (a difference of proportions, in [-1, 1])."""

    ranking: pl.DataFrame
    baseline: str
    best: str
    depth: float
    depth_low: float
    depth_high: float
    upsets: int
    pairs: int
    upset_rate: float
    upset_low: float
    upset_high: float
    games: int
    played: int = 0  # games played in all tables (``games`` of them complete); 0: not known
    h2h: list = field(default_factory=list)  # ``head_to_head`` of the best against each other non-baseline


def skill_figures(players: pl.DataFrame, baseline: str) -> SkillFigures:
    """The ranking, skill-depth index (best strategy other than the baseline minus the baseline)
    and upset rate of a round robin's ``players`` rows (complete games; see the module docstring).

    Raises ``ValueError`` when ``baseline`` does not appear or no other strategy does."""
    rk = ranking(players)
    names = rk["strategy"].to_list()
    if baseline not in names:
        raise ValueError(f"baseline '{baseline}' played no complete game")
    others = [n for n in names if n != baseline]
    if not others:
        raise ValueError("a round robin needs a strategy besides the baseline")
    row = {r["strategy"]: r for r in rk.iter_rows(named=True)}
    best, base = row[others[0]], row[baseline]
    d, lo, hi = newcombe_difference(best["wins"], best["games"], base["wins"], base["games"])
    u, n = upsets(players, dict(zip(names, rk["rank"].to_list(), strict=True)))
    ul, uh = wilson(u, n)
    n_games = players.select(["table", "game_index"] if "table" in players.columns else ["game_index"]).unique().height
    h2h = [head_to_head(players, others[0], other) for other in others[1:]]
    return SkillFigures(rk, baseline, others[0], d, lo, hi, u, n, u / n if n else math.nan, ul, uh, n_games, h2h=h2h)


def skill_text(f: SkillFigures, players: int) -> list[str]:
    """The figures as plain lines (the ``sim skill`` output and ``skill.md``)."""
    lines = [f"{'rank':<5}{'strategy':<28}{'games':>7}{'wins':>7}{'win rate':>10}  95% interval"]
    for r in f.ranking.iter_rows(named=True):
        lines.append(f"{r['rank']:<5}{r['strategy']:<28}{r['games']:>7}{r['wins']:>7}{r['win_rate'] * 100:>9.1f}%"
                     f"  {r['ci_low'] * 100:.1f}-{r['ci_high'] * 100:.1f}%")
    lines.append(f"skill-depth index ({players} players): {f.depth * 100:+.1f} points ({f.best} minus baseline "
                 f"{f.baseline}; 95% interval {f.depth_low * 100:+.1f} to {f.depth_high * 100:+.1f})")
    for h in f.h2h:
        lines.append(_h2h_line(h))
    if f.pairs:
        lines.append(f"upset rate: {f.upset_rate * 100:.1f}% ({f.upsets} of {f.pairs} decisive pairings won by the "
                     f"lower-ranked strategy; 95% interval {f.upset_low * 100:.1f}-{f.upset_high * 100:.1f}%)")
    else:
        lines.append("upset rate: no decisive pairing between strategies of different ranks")
    if f.played > f.games:
        left = f.played - f.games
        lines.append(f"Beware: {left} of {f.played} games ({100 * left / f.played:.1f}%) ended without a result "
                     f"(stalled, cut short or failed) and are left out of every figure above; each table's "
                     f"report (sim report TABLE-FOLDER) says which and why")
    return lines


def _h2h_line(h: dict) -> str:
    """One head-to-head line: the margin in points with its interval, and the counts behind it."""
    if not h["meetings"]:
        return f"{h['a']} vs {h['b']}: they never met at one table"
    counts = (f"{h['meetings']} games together, {h['a_only']} won by {h['a']} alone, {h['b_only']} by {h['b']} alone")
    if h["low"] != h["low"]:
        return f"{h['a']} vs {h['b']}: margin {h['margin'] * 100:+.1f} points ({counts}; no interval without a decisive game)"
    return (f"{h['a']} vs {h['b']}: margin {h['margin'] * 100:+.1f} points (95% interval {h['low'] * 100:+.1f} to "
            f"{h['high'] * 100:+.1f}; {counts})")
