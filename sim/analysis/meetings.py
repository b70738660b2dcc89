"""Head to head: how often strategy A finishes above strategy B, with **the game as the unit**.

A *meeting* is a pair of seats of one game held by A and B. A game in which one strategy holds
two seats holds several meetings, and they are not independent (the same deal, the same rivals),
so the test and the intervals count games, not meetings:

- the sign test asks in how many of the games holding A and B A is *ahead* (more of its meetings
  above B than below), ties and even games left out;
- the share of meetings A finishes above B gets a Wilson interval at the effective sample size
  of a clustered sample (Kish's design effect: the ratio estimator's variance over games,
  ``sum_g (a_g - r m_g)^2 / M^2``). Without duplicated strategies every game holds one meeting
  of a pair and both equal the per-meeting figures exactly.
"""

from __future__ import annotations

import math

import polars as pl

from . import streamed
from .stats import _z, binom_p, holm, wilson
from .streamed import streaming, whole_game_parts


def _per_game(players: pl.DataFrame) -> pl.LazyFrame:
    """One row per game and ordered pair of strategies meeting in it: ``m`` meetings, ``a`` with A
    above, ``b`` with B above (lazy; grouped by game only when a strategy holds two seats of a game)."""
    p = _with_won(players.lazy()).select("game_index", "seat", "strategy", "rank", "won")
    if streaming(players.lazy().select(pl.col("strategy").n_unique())).item() < 2:  # no pairs: skip the self-join
        p = p.head(0)  # the same (empty) table, without joining every seat with every seat (memory)
    both = p.join(p, on="game_index", suffix="_b").filter(pl.col("seat") != pl.col("seat_b"))
    twice = streaming(both.filter(pl.col("strategy") == pl.col("strategy_b")).select(pl.len())).item()
    pairs = both.filter(pl.col("strategy") != pl.col("strategy_b")).select(
        "game_index", strategy_a="strategy", strategy_b="strategy_b",
        a=(pl.col("rank") < pl.col("rank_b")).cast(pl.Int64), b=(pl.col("rank") > pl.col("rank_b")).cast(pl.Int64),
        aw="won", bw="won_b")
    if not twice:  # each game holds a pair once (streamed: the pairs of seats are never all held at once)
        return pairs.with_columns(m=pl.lit(1, pl.Int64))
    return pairs.group_by("game_index", "strategy_a", "strategy_b").agg(m=pl.len().cast(pl.Int64), a=pl.col("a").sum(),
                                                                        b=pl.col("b").sum(), aw=pl.col("aw").any(),
                                                                        bw=pl.col("bw").any())


def _with_won(p: pl.LazyFrame) -> pl.LazyFrame:
    """The rows with ``won``; without that column (rows built by hand), the seats ranked first."""
    return p if "won" in p.collect_schema().names() else p.with_columns(won=pl.col("rank") == 1)


def _counts(players: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Per ordered pair: meetings and games, with the sums the design effect needs. A scan: summed
    over parts of whole games (``streamed.whole_game_parts``: the self-join of every row held
    about 430 MB at a million games); every figure is a sum over games, ``most`` a maximum."""
    if isinstance(players, pl.LazyFrame):
        parts = [_counts(part) for part in whole_game_parts(_with_won(players).select("game_index", "seat", "strategy", "rank", "won"),
                                                            streamed.JOIN_PART_GAMES)]
        if not parts:  # no rows: the empty table, with its columns and types
            return _counts(players.head(0).collect())
        sums = [pl.col(c).sum() for c in ("meetings", "a_above", "b_above", "ties", "games", "a_games", "b_games",
                                            "a2", "am", "m2", "a_won", "b_won")]
        return (pl.concat(parts).group_by("strategy_a", "strategy_b").agg(*sums, pl.col("most").max())
                .sort("strategy_a", "strategy_b"))
    a, b, m = pl.col("a"), pl.col("b"), pl.col("m")
    return streaming(_per_game(players).group_by("strategy_a", "strategy_b")
            .agg(meetings=m.sum(), a_above=a.sum(), b_above=b.sum(), ties=(m - a - b).sum(), games=pl.len(),
                 a_games=(a > b).sum(), b_games=(b > a).sum(), a2=(a * a).sum(), am=(a * m).sum(), m2=(m * m).sum(),
                 most=m.max(), a_won=(pl.col("aw") & ~pl.col("bw")).sum(), b_won=(pl.col("bw") & ~pl.col("aw")).sum())
            .sort("strategy_a", "strategy_b"))


def clustered_wilson(r: dict, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson interval of ``a_above / meetings`` at the effective sample size of games as clusters.

    ``r`` holds ``meetings, a_above, games, a2, am, m2, most`` (sums over the games of a pair).
    With one meeting per game this is ``wilson(a_above, meetings)`` exactly; otherwise ``n_eff =
    r(1-r) M^2 / sum_g (a_g - r m_g)^2``, at most the meetings (games when ``r`` is 0 or 1).
    """
    k, n = r["a_above"], r["meetings"]
    if r["most"] <= 1 or n == 0:
        return wilson(k, n, confidence)
    rate = k / n
    spread = r["a2"] - 2 * rate * r["am"] + rate * rate * r["m2"]
    n_eff = r["games"] if rate in (0.0, 1.0) else (n if spread <= 0 else min(n, rate * (1 - rate) * n * n / spread))
    z = _z(confidence)
    denom = 2 * (n_eff + z**2)
    center = (2 * n_eff * rate + z**2) / denom
    delta = z / denom * math.sqrt(4 * n_eff * rate * (1 - rate) + z**2)
    return (0.0 if k == 0 else center - delta, 1.0 if k == n else center + delta)


def head_to_head(players: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """For each ordered pair of different strategies (A, B): how often A finishes above B.

    In: complete player rows (``game_index, seat, strategy, rank``; rank 1 = winner). Out, sorted
    by A then B: ``meetings, a_above, b_above, ties`` (pairs of seats), ``rate`` (= a_above /
    meetings) with ``ci_low, ci_high`` (``clustered_wilson``); ``games`` holding both, ``decided``
    (games where one is ahead), ``ahead`` (= games A ahead / decided) with ``ahead_low, ahead_high``
    (Wilson over games), ``p`` (exact binomial sign test of the games A is ahead in against half of
    the decided games) and ``p_holm`` (Holm-adjusted over the unordered pairs; A-B and B-A share it);
    ``a_won``, ``b_won``: the games A won and B did not, and the reverse, with ``p_won`` (exact binomial
    test of ``a_won`` against half of ``a_won + b_won``: does one win more often than the other in the
    same games?) and ``p_won_holm`` (Holm over the pairs). The verdict uses it (``leaders.py``).
    """
    c = _counts(players)
    if c.is_empty():
        return c.select("strategy_a", "strategy_b", "meetings", "a_above", "b_above", "ties").with_columns(
            rate=pl.lit(None, pl.Float64), ci_low=pl.lit(None, pl.Float64), ci_high=pl.lit(None, pl.Float64))
    rows = c.to_dicts()
    cis = [clustered_wilson(r, confidence) for r in rows]
    ahead = [wilson(r["a_games"], r["a_games"] + r["b_games"], confidence) for r in rows]
    ps = [binom_p(r["a_games"], r["a_games"] + r["b_games"], 0.5) for r in rows]
    keys = [tuple(sorted((r["strategy_a"], r["strategy_b"]))) for r in rows]
    per_pair = dict(zip(keys, ps, strict=True))  # the two-sided test at 1/2 gives A-B and B-A the same p
    adjusted = dict(zip(per_pair, holm(list(per_pair.values())), strict=True))
    pw = [binom_p(r["a_won"], r["a_won"] + r["b_won"], 0.5) for r in rows]  # who wins more: the games one won alone
    won_pair = dict(zip(keys, pw, strict=True))
    won_holm = dict(zip(won_pair, holm(list(won_pair.values())), strict=True))
    f64 = pl.Float64
    return c.select("strategy_a", "strategy_b", "meetings", "a_above", "b_above", "ties", "games", "a_won",
                    "b_won").with_columns(
        rate=(pl.col("a_above") / pl.col("meetings")).cast(f64),
        ci_low=pl.Series([x[0] for x in cis], dtype=f64), ci_high=pl.Series([x[1] for x in cis], dtype=f64),
        decided=c["a_games"] + c["b_games"],
        ahead=(c["a_games"] / (c["a_games"] + c["b_games"])).cast(f64),
        ahead_low=pl.Series([x[0] for x in ahead], dtype=f64), ahead_high=pl.Series([x[1] for x in ahead], dtype=f64),
        p=pl.Series(ps, dtype=f64), p_holm=pl.Series([adjusted[k] for k in keys], dtype=f64),
        p_won=pl.Series(pw, dtype=f64), p_won_holm=pl.Series([won_holm[k] for k in keys], dtype=f64))
