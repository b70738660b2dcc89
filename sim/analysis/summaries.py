"""Summary tables of a run (Polars in, Polars out): win rates with tests, head to head, ratings,
scores, margins, game length, outcomes, Ludii figures, components. Built on ``stats``; the
conventions (complete games, pooled expected share, 95% intervals) are in ``stats``' docstring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from .analytic import ANALYTIC_FROM, WinSums, balance_normal, score_intervals
from .by_value import per_value
from .counted import describe_counts, value_counts
from .describe import BASE_GAME_COLUMNS, describe_columns, length_table  # noqa: F401  (summary tables)
from .margins import margin_counts, margins  # noqa: F401  (summary tables)
from .meetings import head_to_head  # noqa: F401  (a summary table; lives with its test)
from .per_game import game_count, group_sums, seat_wins
from .rating_games import in_place_agrees, rate_games, whole_games
from .stats import (
    analysis_rng,
    balance_interval,
    binom_p,
    bootstrap_ratio_rows,
    complete_games,
    complete_players,
    holm,
    in_seat_order,
    pooled_win_rate,
    wilson,
    with_wilson,
)
from .streamed import Rows, gather, height, whole_game_parts


def win_table(players: pl.DataFrame, by: str | Sequence[str], confidence: float = 0.95) -> pl.DataFrame:
    """Win rate per value of ``by`` (``seat``, ``strategy`` or both, ``["strategy", "seat"]``) with
    Wilson intervals.

    In: ``players`` rows (``game_index, seat, strategy, score, won``). Out, one row per group in
    ``by`` order: ``games`` (player rows), ``wins`` (shared wins count for every winner),
    ``win_rate``, ``ci_low``, ``ci_high`` (proportions), ``mean_score``.
    """
    keys = [by] if isinstance(by, str) else list(by)
    agg = gather(players, lambda f: f.group_by(keys).agg(games=pl.len(), wins=pl.col("won").sum(),
                                                         mean_score=pl.col("score").mean()).sort(keys))
    return with_wilson(agg, confidence=confidence).select(*keys, "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score")


def win_table_tested(players: pl.DataFrame, by: str, expected: float | None = None,
                     confidence: float = 0.95) -> pl.DataFrame:
    """``win_table`` plus ``expected`` (default: pooled win rate), ``p`` (exact binomial test
    against it) and ``p_holm`` (Holm-adjusted over the groups)."""
    t = win_table(players, by, confidence)
    exp = pooled_win_rate(players) if expected is None else expected
    ps = [binom_p(w, g, exp) for w, g in zip(t["wins"].to_list(), t["games"].to_list(), strict=True)]
    return t.with_columns(expected=pl.lit(exp, dtype=pl.Float64), p=pl.Series(ps, dtype=pl.Float64),
                          p_holm=pl.Series(holm(ps), dtype=pl.Float64))


def seat_chi_square(players: pl.DataFrame) -> tuple[float, float]:
    """Chi-square test that every seat wins equally often: ``(statistic, p-value)``.

    In: complete player rows (``seat, won``). The wins of each seat against an equal share of all
    wins (Pearson's goodness of fit, ``seats - 1`` degrees of freedom, as ``scipy.stats.chisquare``):
    a game's winner is one draw among the seats. A seats x (won, lost) table would treat a game's
    seats as independent and overstate the statistic by ``seats / (seats - 1)`` (2x with two
    seats; fresh-user finding 1, session 6). A shared win gives each of its winners a win, two
    draws that cannot land on one seat, which makes the test slightly conservative.
    ``(nan, nan)`` when there is nothing to test (no win or a single seat).
    """
    t = gather(players, lambda f: f.group_by("seat").agg(won=pl.col("won").sum()).sort("seat"))
    if t.height < 2 or t["won"].sum() == 0:
        return (math.nan, math.nan)
    from .exact import chi2_uniform  # scipy's test without importing scipy.stats (start-up)

    return chi2_uniform(t["won"].to_list())


def first_player_advantage(players: pl.DataFrame, expected: float | None = None, confidence: float = 0.95) -> dict:
    """Seat 0's win rate minus the expected share (pooled win rate; ``1/players`` without shared wins).

    Returns ``rate, ci_low, ci_high, expected, advantage, adv_low, adv_high, p`` (exact binomial
    test of seat 0's wins against the expected share); NaNs when seat 0 has no complete game.
    """
    exp = pooled_win_rate(players) if expected is None else expected
    s0 = pl.col("seat") == 0  # counts, not a copy of seat 0's rows (memory)
    n, w = (int(x or 0) for x in gather(players, lambda f: f.select(n=s0.sum(), w=(s0 & pl.col("won")).sum())).row(0))
    lo, hi = wilson(w, n, confidence)
    rate = w / n if n else math.nan
    return {"rate": rate, "ci_low": lo, "ci_high": hi, "expected": exp, "advantage": rate - exp,
            "adv_low": lo - exp, "adv_high": hi - exp, "p": binom_p(w, n, exp), "games": n, "wins": w}


# ------------------------------------------------------------------ strategies

def ratings(players: pl.DataFrame) -> pl.DataFrame:
    """openskill (Plackett-Luce) rating per strategy, games processed in ``game_index`` order.

    Each seat is a one-player team ranked by its ``rank``. When a strategy holds several seats of
    one game, each seat is rated from the strategy's rating before the game and the strategy's
    new rating is the mean of its seats' new ``mu`` and ``sigma``. Out: ``strategy, games, mu,
    sigma, ordinal`` (mu - 3 sigma, a conservative skill estimate), best ordinal first.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating: dict[str, object] = {}
    count: dict[str, int] = {}
    in_place = in_place_agrees(model)  # openskill's update without its copies (``rating_games``)
    # a scan: part by part of whole games in game-index order, never held (issue 20 item 5: memory)
    for table in whole_game_parts(players.select("game_index", "seat", "strategy", "rank")):
        if not in_seat_order(table):
            table = table.sort("game_index", "seat")
        for part in whole_games(table):  # Python lists of one slice at a time (issue 20 item 5: memory)
            rate_games(model, part, rating, count, in_place)
    names = sorted(rating)
    return pl.DataFrame({
        "strategy": names,
        "games": [count[k] for k in names],
        "mu": [float(rating[k].mu) for k in names],
        "sigma": [float(rating[k].sigma) for k in names],
    }, schema={"strategy": pl.Utf8, "games": pl.Int64, "mu": pl.Float64, "sigma": pl.Float64}).with_columns(
        ordinal=pl.col("mu") - 3 * pl.col("sigma")).sort("ordinal", descending=True)


# ------------------------------------------------------------------ bootstrap over whole games

def score_table(players: pl.DataFrame, by: str, seed: int, n_resamples: int = 1000,
                confidence: float = 0.95) -> pl.DataFrame:
    """Final score per ``by`` group: ``rows, mean, ci_low, ci_high`` (bootstrap over whole games),
    ``sd, min, q25, median, q75, max``."""
    return score_tables(players, [by], seed, n_resamples, confidence)[0]


def score_tables(players: pl.DataFrame, bys: Sequence[str], seed: int, n_resamples: int = 1000,
                 confidence: float = 0.95) -> list[pl.DataFrame]:
    """``score_table`` for each column of ``bys``, from one bootstrap: every table resamples the
    same games with the same generator, so their resamples are the same and are drawn once
    (issue 20 item 1); each table equals the one ``score_table`` gives alone."""
    descs = [_score_desc(players, by) for by in bys]
    values = [desc[by].to_list() for desc, by in zip(descs, bys, strict=True)]
    k = sum(len(v) for v in values)
    n = game_count(players)
    if n >= ANALYTIC_FROM:  # normal intervals from streamed sums: no (2k, games) array (``analytic``)
        lows, highs = score_intervals(players, bys, values, confidence)
    elif n:  # per-game sums without a group-by (memory), every table's rows in one (2k, games) array
        by_column, at = np.empty((2 * k, game_count(players))), 0
        for by, v in zip(bys, values, strict=True):
            group_sums(players, by, v, out=(by_column[at:at + len(v)], by_column[k + at:k + at + len(v)]))
            at += len(v)
        lows, highs = bootstrap_ratio_rows(by_column, analysis_rng(seed, 1), n_resamples, confidence)
        del by_column
    else:
        lows, highs = [math.nan] * k, [math.nan] * k
    out, at = [], 0
    for desc, by, v in zip(descs, bys, values, strict=True):
        lo, hi = list(lows[at:at + len(v)]), list(highs[at:at + len(v)])
        at += len(v)
        out.append(desc.with_columns(ci_low=pl.Series(lo, dtype=pl.Float64), ci_high=pl.Series(hi, dtype=pl.Float64))
                   .select(by, "rows", "mean", "ci_low", "ci_high", "sd", "min", "q25", "median", "q75", "max"))
    return out


def _score_desc(players: Rows, by: str) -> pl.DataFrame:
    """``by, rows, mean, sd, min, q25, median, q75, max`` of the scores per value of ``by``; of a
    scan, from value counts (``counted``: polars' quantile gathers a group's scores, and a filter
    per value costs a pass over the rows each)."""
    s = pl.col("score")
    if isinstance(players, pl.DataFrame):  # value by value: a group-by's std and quantiles held ~220 MB each at 1M games
        return per_value(players, by, rows=pl.len(), mean=s.mean(), sd=s.std(), min=s.min(), q25=s.quantile(0.25),
                         median=s.median(), q75=s.quantile(0.75), max=s.max())
    return describe_counts(value_counts(players, by), by)


def end_reasons(games: pl.DataFrame) -> pl.Series:
    """Why each game ended: the ``end_reason`` column (``finished``, ``stalled``, ``round_cap``,
    ``decision_cap``, ``failed``); for run folders made before it existed, ``failed`` from
    ``failed``, ``truncated`` (stall or cap, not told apart then) from ``truncated``, else ``finished``."""
    if "end_reason" in games.columns:
        return games["end_reason"]
    return games.select(pl.when(pl.col("failed")).then(pl.lit("failed")).when(pl.col("truncated"))
                        .then(pl.lit("truncated")).otherwise(pl.lit("finished")).alias("end_reason"))["end_reason"]


REASON_TEXT = {
    "finished": "finished (by the rules' end condition)",
    "stalled": "stalled (no legal sequence could change the outcome)",
    "round_cap": "round cap (the game's safety limit on rounds)",
    "decision_cap": "decision cap (max_decisions reached)",
    "truncated": "truncated (stall or cap; older run folder)",
    "failed": "failed (error)",
}


def end_reason_table(games: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """How many games ended for each reason: ``reason, count, games, share, ci_low, ci_high``
    (Wilson) and ``confidence``, every reason listed (0 when none), over all games played."""
    total = games.height
    got = end_reasons(games).value_counts() if total else pl.DataFrame({"end_reason": [], "count": []})
    counts = dict(zip(got["end_reason"].to_list(), got["count"].to_list(), strict=True))
    order = [r for r in ("finished", "stalled", "round_cap", "decision_cap", "truncated", "failed")
             if r != "truncated" or r in counts]
    df = pl.DataFrame({"reason": order, "count": [int(counts.get(r, 0)) for r in order]},
                      schema={"reason": pl.Utf8, "count": pl.Int64}).with_columns(games=pl.lit(total, pl.Int64))
    return with_wilson(df, wins="count", n="games", rate="share", confidence=confidence).with_columns(
        confidence=pl.lit(confidence, pl.Float64))


def outcome_table(games: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """How games ended: ``outcome, count, games, share, ci_low, ci_high`` over all games played:
    finished games by winners (one, shared, none), then stalled, round cap, decision cap, failed."""
    total = games.height
    done = complete_games(games.select("failed", "truncated", "n_winners"))  # not a copy of every column (memory)
    reasons = end_reason_table(games, confidence)
    counts = [
        ("finished, one winner", done.filter(pl.col("n_winners") == 1).height),
        ("finished, shared win", done.filter(pl.col("n_winners") > 1).height),
        ("finished, no winner", done.filter(pl.col("n_winners") == 0).height),
    ] + [(REASON_TEXT[r], c) for r, c in zip(reasons["reason"], reasons["count"], strict=True) if r != "finished"]
    df = pl.DataFrame({"outcome": [c[0] for c in counts], "count": [c[1] for c in counts]},
                      schema={"outcome": pl.Utf8, "count": pl.Int64}).with_columns(games=pl.lit(total, pl.Int64))
    return with_wilson(df, wins="count", n="games", rate="share", confidence=confidence)


def ludii_figures(games: pl.DataFrame, players: pl.DataFrame, seed: int, n_resamples: int = 1000,
                  confidence: float = 0.95, complete: bool = False) -> pl.DataFrame:
    """Whole-game balance figures as the Ludii system defines them, with intervals at ``confidence``.

    - Balance: 1 - the largest gap between any two seats' win rates (complete games; interval
      from a bootstrap over games, ``balance_interval``; from ``ANALYTIC_FROM`` complete games on
      from its normal limit, ``analytic.balance_normal``, on streamed sums);
    - Advantage: seat 0's (the start player's) win rate (Wilson);
    - Drawishness: share of complete games whose win is shared or that nobody wins (Wilson);
    - Completion: share of all games played that end with a winner, i.e. neither truncated,
      failed nor without winner (Wilson).
    Out: ``figure, value, ci_low, ci_high, games, meaning``. ``complete``: ``players`` holds the
    rows of complete games only (``sections.Draft.complete``; the figures need no row order), so
    they are not checked again (passes over every row: issue 20 item 5).
    """
    done = complete_games(games.select("failed", "truncated", "n_winners"))  # not a copy of every column (memory)
    cp = players if complete else complete_players(players, games)
    rows = []
    if done.height >= ANALYTIC_FROM and height(cp):  # the normal limit of the bootstrap, from streamed sums
        m = _seat_win_sums(cp)
        fp = first_player_advantage(cp, confidence=confidence)
        value = float(1 - np.ptp(m.wins / m.n))
        lo, hi = balance_normal(m, analysis_rng(seed, 3), confidence)
        rows.append(("Balance", value, lo, hi, done.height, "1 - largest gap between two seats' win rates"))
        rows.append(("Advantage", fp["rate"], fp["ci_low"], fp["ci_high"], fp["games"], "start player's (seat 0) win rate"))
    elif height(cp):
        seats, by_seat = _seat_win_rows(cp, done.height)
        mats = list(by_seat)
        fp = first_player_advantage(cp, confidence=confidence)
        rates = np.array([m.mean() for m in mats])
        value = float(1 - (rates.max() - rates.min()))
        lo = hi = math.nan
        if len(seats) > 1 and len(mats[0]) > 1:  # a (games, seats) view: balance_interval copies nothing
            lo, hi = balance_interval(by_seat.T, analysis_rng(seed, 3), n_resamples, confidence)
        del mats, by_seat
        rows.append(("Balance", value, lo, hi, done.height, "1 - largest gap between two seats' win rates"))
        rows.append(("Advantage", fp["rate"], fp["ci_low"], fp["ci_high"], fp["games"], "start player's (seat 0) win rate"))
    if done.height:
        draws = done.filter(pl.col("n_winners") != 1).height
        lo, hi = wilson(draws, done.height, confidence)
        rows.append(("Drawishness", draws / done.height, lo, hi, done.height, "share of complete games with a shared win or no winner"))
    if games.height:
        won = done.filter(pl.col("n_winners") >= 1).height
        lo, hi = wilson(won, games.height, confidence)
        rows.append(("Completion", won / games.height, lo, hi, games.height, "share of games played that end with a winner"))
    return pl.DataFrame(rows, schema={"figure": pl.Utf8, "value": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                      "games": pl.Int64, "meaning": pl.Utf8}, orient="row")


def _seat_win_sums(cp: Rows) -> WinSums:
    """The seats' win sums of the complete player rows ``cp`` (``analytic.WinSums``), from their
    0/1 win rows made part by part of whole games (``seat_wins``; a scan is never held)."""
    seats = sorted(gather(cp, lambda f: f.select(pl.col("seat").unique()))["seat"].to_list())
    m = WinSums(len(seats))
    for part in whole_game_parts(cp.select("game_index", "seat", "won")):
        m.add(np.vstack(seat_wins(part, seats)))
    return m


def _seat_win_rows(cp: Rows, games: int) -> tuple[list[int], np.ndarray]:
    """The seats of the complete player rows ``cp`` and their wins, one 0/1 float row per seat and
    one column per game (``seat_wins``: the pivot of won on seat). A scan is read part by part of
    whole games into the rows, its ``games`` complete games (memory: issue 20 item 5)."""
    if isinstance(cp, pl.DataFrame):
        seats = sorted(cp["seat"].unique().to_list())
        by_seat = np.empty((len(seats), game_count(cp)))
        seat_wins(cp, seats, out=by_seat)
        return seats, by_seat
    seats = sorted(gather(cp, lambda f: f.select(pl.col("seat").unique()))["seat"].to_list())
    by_seat, at = np.empty((len(seats), games)), 0
    for part in whole_game_parts(cp.select("game_index", "seat", "won")):
        n = game_count(part)
        seat_wins(part, seats, out=by_seat[:, at:at + n])
        at += n
    return seats, by_seat


# ------------------------------------------------------------------ components

def component_table(components: pl.DataFrame, players: pl.DataFrame, min_sample: int = 50,
                    confidence: float = 0.95, outcome_kinds: tuple[str, ...] = ()) -> pl.DataFrame:
    """Win rate of the seats holding each component (a seat counts once per game however many
    copies it holds), over complete games, against what those seats would win anyway.

    Strong strategies may simply collect more of a component, and seats differ, so the expected
    share is **standardised by strategy and seat**: the mean, over the holding seat-games, of the
    win rate of their (strategy, seat) pair in all complete games. A component then stands out only
    when its holders win more (or less) than the same strategies in the same seats usually do.

    In: ``components`` (long: ``game_index, seat, kind, component``), ``players`` of complete
    games. Out per ``(kind, component)``: ``holders`` (seat-games), ``wins``, ``win_rate``,
    ``ci_low``, ``ci_high`` (Wilson), ``rate_without`` (win rate of the other seat-games),
    ``expected`` (standardised, above), ``pooled`` (all wins / all rows), ``p`` (exact binomial test
    against ``expected``), ``p_holm`` (Holm-adjusted over the components that reach
    ``min_sample``), ``enough`` (holders >= ``min_sample``), ``claim``: enough, Holm p < 0.05
    and the interval excludes ``expected``, and ``held_by``: the strategies behind the figure with
    their seat-games ("planner 120, economy 80", most first), and ``outcome``: the kind is one of
    ``outcome_kinds``, a function of the final score or of winning (Alpenzian's title): tabulated,
    but left out of the Holm family and never claimed (its holders win more by definition).
    """
    schema_out = ["kind", "component", "holders", "wins", "win_rate", "ci_low", "ci_high", "rate_without",
                  "expected", "pooled", "p", "p_holm", "enough", "claim", "held_by", "outcome"]
    if components.is_empty() or players.is_empty():
        return pl.DataFrame(schema={c: (pl.Utf8 if c in ("kind", "component", "held_by") else pl.Boolean if c in ("enough", "claim", "outcome")
                                        else pl.Int64 if c in ("holders", "wins") else pl.Float64) for c in schema_out})
    pooled = pooled_win_rate(players)
    total_rows, total_wins = players.height, int(players["won"].sum())
    held = (components.select("game_index", "seat", "kind", "component").unique()
            .join(players.select("game_index", "seat", "strategy", "won"), on=["game_index", "seat"], how="inner"))
    t = (held.group_by("kind", "component").agg(holders=pl.len(), wins=pl.col("won").sum())
         .join(_expected(held, players), on=["kind", "component"], how="left").sort("kind", "component"))
    t = with_wilson(t, wins="wins", n="holders", confidence=confidence).join(_held_by(held), on=["kind", "component"], how="left")
    t = t.with_columns(
        rate_without=((total_wins - pl.col("wins")) / (total_rows - pl.col("holders"))).cast(pl.Float64),
        pooled=pl.lit(pooled, pl.Float64), enough=pl.col("holders") >= min_sample,
        outcome=pl.col("kind").is_in(list(outcome_kinds)))
    ps = [binom_p(w, n, e) for w, n, e in zip(t["wins"].to_list(), t["holders"].to_list(), t["expected"].to_list(),
                                              strict=True)]
    enough = (t["enough"] & ~t["outcome"]).to_list()  # an outcome's test is no question of balance
    adj_in = [p if e else math.nan for p, e in zip(ps, enough, strict=True)]
    t = t.with_columns(p=pl.Series(ps, dtype=pl.Float64), p_holm=pl.Series(holm(adj_in), dtype=pl.Float64))
    t = t.with_columns(claim=(pl.col("enough") & ~pl.col("outcome") & (pl.col("p_holm") < 1 - confidence)
                              & ((pl.col("ci_low") > pl.col("expected")) | (pl.col("ci_high") < pl.col("expected"))))
                       .fill_null(False))
    return t.select(schema_out)


def _expected(held: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Per ``(kind, component)``: the mean over the holding seat-games of their (strategy, seat)
    cell's win rate. Summed per cell with ``math.fsum`` (correctly rounded, whatever the order) so
    the figure keeps its last bits from run to run; a multithreaded mean over rows did not."""
    cell = players.group_by("strategy", "seat").agg(cw=pl.col("won").cast(pl.Float64).sum(), cn=pl.len())
    k = (held.group_by("kind", "component", "strategy", "seat").agg(k=pl.len())
         .join(cell, on=["strategy", "seat"], how="left").sort("kind", "component", "strategy", "seat"))
    terms: dict[tuple[str, str], list[float]] = {}
    holders: dict[tuple[str, str], int] = {}
    for kind, comp, n, cw, cn in zip(k["kind"], k["component"], k["k"], k["cw"], k["cn"], strict=True):
        terms.setdefault((kind, comp), []).append(n * cw / cn)
        holders[kind, comp] = holders.get((kind, comp), 0) + n
    rows = [(kind, comp, math.fsum(v) / holders[kind, comp]) for (kind, comp), v in terms.items()]
    return pl.DataFrame(rows, schema={"kind": held.schema["kind"], "component": held.schema["component"],
                                      "expected": pl.Float64}, orient="row")


def _held_by(held: pl.DataFrame) -> pl.DataFrame:
    """Per ``(kind, component)``: which strategies held it, with seat-games, most first."""
    counts = held.group_by("kind", "component", "strategy").agg(n=pl.len()).sort(
        ["kind", "component", "n", "strategy"], descending=[False, False, True, False])
    return counts.group_by("kind", "component", maintain_order=True).agg(
        held_by=pl.concat_str([pl.col("strategy"), pl.col("n").cast(pl.Utf8)], separator=" ").str.join(", "))
