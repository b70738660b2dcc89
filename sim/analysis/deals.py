"""Seat statistics with the **deal** as the independent unit (``seating: permute``; breaker trial,
session 10).

Under ``permute`` the games of one deal replay one shuffle (the same chance stream for every
assignment of the strategies to the seats), so their seat outcomes cluster by deal: with four
identical strategies one seat won 20 of the 24 games of a deal. Taking the games as independent
(Wilson intervals, the chi-square over the seats, the binomial test of seat 0) made the seat
verdicts far too confident. Here, per deal ``d`` and seat ``s``, ``W_sd`` wins (a shared win counts
for every winner, as everywhere) of ``n_d`` games (every seat plays every game of a deal):

- a seat's win rate ``p_s = sum_d W_sd / sum_d n_d`` with the cluster-robust (by deal) standard
  error ``se = sqrt(D / (D - 1) * sum_d (W_sd - p_s n_d)^2) / sum_d n_d`` and a t quantile on
  ``D - 1`` degrees of freedom: statsmodels' ``OLS(won, 1).fit(cov_type="cluster", cov_kwds=
  {"groups": deal}, use_t=True)`` of the seat's rows (``tests/test_deal_seats.py``). With deals of
  equal size it is the one-sample t-interval of the deal shares ``W_sd / n_d``;
- a seat against the expected share (the pooled win rate): the t-test ``(p_s - e) / se`` on ``D - 1``
  df (= ``scipy.stats.ttest_1samp`` of the deal shares minus ``e`` with deals of equal size), Holm
  over the seats; seat 0 alone (the first-player test) is the same test of seat 0;
- "the seats differ": Friedman's test over the deals (blocks = deals, treatments = seats, on the
  deal shares: ``scipy.stats.friedmanchisquare``); with two seats, the paired t-test over deals of
  the two seats' shares (Friedman needs three).

Under ``rotate`` or ``fixed`` (each game its own shuffle) none of this is used: ``deal_games``
says 1 and the report keeps its Wilson intervals and exact tests.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .exact import _ufuncs
from .stats import analysis_rng, binom_p, bootstrap_games, holm, pooled_win_rate, weighted_sums, wilson
from .streamed import Rows, gather


def deal_games(k: int | None, seating: str | None) -> int:
    """The games per deal the seat statistics cluster on: ``k`` (the manifest's ``deal_size``) under
    ``seating: permute`` with more than one game a deal, else 1 (each game its own unit)."""
    return int(k) if seating == "permute" and k and int(k) > 1 else 1


def deal_cells(players: Rows, k: int) -> pl.DataFrame:
    """``deal, seat, games, wins, score`` per deal (``game_index // k``, as ``setup.deal_index``) and
    seat, from player rows of complete games (a frame or a scan: one streamed group-by)."""
    return gather(players, lambda f: f.group_by(deal=pl.col("game_index") // k, seat=pl.col("seat")).agg(
        games=pl.len(), wins=pl.col("won").cast(pl.Int64).sum(), score=pl.col("score").sum()).sort("deal", "seat"))


def deal_matrix(cells: pl.DataFrame) -> tuple[list[int], np.ndarray, np.ndarray]:
    """``(seats, W, N)``: the seats and their wins and games, arrays ``(seats, deals)`` (0 where a
    seat has no complete game in a deal)."""
    seats = sorted(cells["seat"].unique().to_list())
    deals = sorted(cells["deal"].unique().to_list())
    si, di = {s: i for i, s in enumerate(seats)}, {d: j for j, d in enumerate(deals)}
    w, n = np.zeros((len(seats), len(deals))), np.zeros((len(seats), len(deals)))
    for d, s, g, x in zip(cells["deal"], cells["seat"], cells["games"], cells["wins"], strict=True):
        w[si[s], di[d]], n[si[s], di[d]] = x, g
    return seats, w, n


def _t_ppf(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t on ``df`` degrees of freedom (``scipy.stats.t.ppf``), from
    ``scipy.special``'s compiled ``stdtrit`` without importing scipy.stats (0.9 s of start-up: issue
    20 item 8; ``exact``)."""
    return float(_ufuncs().stdtrit(df, q))


def _t_p(t: float, df: float) -> float:
    """The two-sided p of ``t`` on ``df`` degrees of freedom (``2 * scipy.stats.t.sf(|t|, df)``)."""
    return float(2 * _ufuncs().stdtr(df, -abs(t)))


# deals that all give a seat the same share are taken as "no spread" (the games' Wilson interval)
# only from this many on; fewer alike may be chance (2 deals of 60 games, 12 wins in each): no interval
MIN_EQUAL_DEALS = 5


def cluster_se(w: np.ndarray, n: np.ndarray) -> tuple[float, float, int]:
    """``(rate, se, deals)`` of one seat's wins ``w`` and games ``n`` per deal (module docstring);
    only deals where the seat played count. NaN se with fewer than two deals. A zero se (every deal
    gave the same share) is no evidence of certainty: ``cluster_interval`` and ``cluster_p`` then
    give the games' Wilson interval and exact binomial test (as before session 10)."""
    held = n > 0
    w, n = w[held], n[held]
    total, deals = float(n.sum()), int(held.sum())
    if not total:
        return math.nan, math.nan, 0
    rate = float(w.sum()) / total
    if deals < 2:
        return rate, math.nan, deals
    return rate, math.sqrt(deals / (deals - 1) * float(((w - rate * n) ** 2).sum())) / total, deals


def cluster_interval(w: np.ndarray, n: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(rate, low, high)``: the rate with its cluster-robust t-interval (``D - 1`` df), within [0, 1]."""
    rate, se, deals = cluster_se(w, n)
    if math.isnan(se):
        return rate, math.nan, math.nan
    if se == 0 and deals < MIN_EQUAL_DEALS:  # a few deals alike may be chance: no interval (breaker trial 2)
        return rate, math.nan, math.nan
    if se == 0:  # every deal gave the same share: the deals cannot say how much they vary; the games' Wilson interval
        return (rate, *wilson(int(w.sum()), int(n.sum()), confidence))
    half = _t_ppf(0.5 + 0.5 * confidence, deals - 1) * se
    return rate, max(0.0, rate - half), min(1.0, rate + half)


def cluster_p(w: np.ndarray, n: np.ndarray, expected: float) -> float:
    """Two-sided p of the t-test of the rate against ``expected`` on ``D - 1`` df; 1 when every deal
    gives the expected share, 0 when every deal gives one other share; NaN without two deals."""
    rate, se, deals = cluster_se(w, n)
    if math.isnan(se) or not 0 < expected < 1:
        return math.nan
    if se == 0:  # as ``cluster_interval``: the games' exact binomial test (none from a few deals alike)
        return binom_p(int(w.sum()), int(n.sum()), expected) if deals >= MIN_EQUAL_DEALS else math.nan
    return _t_p((rate - expected) / se, deals - 1)


def seats_differ(w: np.ndarray, n: np.ndarray) -> tuple[float, float]:
    """``(statistic, p)`` of "the seats win equally often", the deal the unit: Friedman's test over
    the deals on the seats' deal shares (three or more seats), the paired t-test over the deals of
    the two seats' shares (two seats). Deals where a seat has no complete game are left out."""
    whole = (n > 0).all(axis=0)
    shares = w[:, whole] / n[:, whole]
    if shares.shape[0] < 2 or shares.shape[1] < 2 or not w.sum():
        return math.nan, math.nan
    if shares.shape[0] == 2:  # the paired t-test (``scipy.stats.ttest_rel``) of the two seats' shares
        d = shares[0] - shares[1]
        if np.ptp(d) == 0:  # no variation to scale a t by: Friedman's ranks (a sign test over the deals)
            return (0.0, 1.0) if d[0] == 0 else friedman(shares.T)
        t = float(d.mean() / (d.std(ddof=1) / math.sqrt(len(d))))
        return t, _t_p(t, len(d) - 1)
    if np.ptp(shares, axis=0).max() == 0:  # every deal gives every seat the same share: no seat differs
        return 0.0, 1.0
    return friedman(shares.T)


def friedman(x: np.ndarray) -> tuple[float, float]:
    """Friedman's chi-square of ``x`` (blocks x treatments), mid-ranks within each block and the
    ties correction, p from the chi-square on ``treatments - 1`` df: ``scipy.stats.friedmanchisquare``'s
    formula without importing scipy.stats (``tests/test_deal_seats.py`` checks it against scipy)."""
    n, k = x.shape
    less, same = (x[:, :, None] > x[:, None, :]).sum(2), (x[:, :, None] == x[:, None, :]).sum(2)
    ranks = less + (same + 1) / 2  # mid-ranks, 1-based
    ties = float((same**2 - 1).sum())  # sum over tie groups of t (t^2 - 1)
    c = 1 - ties / (k * (k * k - 1) * n)
    stat = (12.0 / (k * n * (k + 1)) * float((ranks.sum(0) ** 2).sum()) - 3 * n * (k + 1)) / c
    return stat, float(_ufuncs().chdtrc(k - 1, stat))


def seat_table(players: Rows, k: int, confidence: float = 0.95) -> tuple[pl.DataFrame, tuple[float, float], dict]:
    """The report's seat inputs with the deal as the unit: ``(seat table, (statistic, p) of
    seats_differ, first-player dict)``, the same columns as ``summaries.win_table_tested`` (plus
    ``deals``) and ``summaries.first_player_advantage`` (plus ``deals`` and ``test``)."""
    cells = deal_cells(players, k)
    seats, w, n = deal_matrix(cells)
    exp = pooled_win_rate(players)
    rows = []
    for i, s in enumerate(seats):
        rate, lo, hi = cluster_interval(w[i], n[i], confidence)
        rows.append({"seat": s, "games": int(n[i].sum()), "wins": int(w[i].sum()), "win_rate": rate, "ci_low": lo,
                     "ci_high": hi, "p": cluster_p(w[i], n[i], exp), "deals": int((n[i] > 0).sum())})
    scores = cells.group_by("seat").agg(mean_score=pl.col("score").sum() / pl.col("games").sum())
    t = pl.DataFrame(rows, schema={"seat": cells.schema["seat"], "games": pl.UInt32, "wins": pl.Int64,
                                   "win_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                   "p": pl.Float64, "deals": pl.Int64}).join(scores, on="seat", how="left")
    t = t.with_columns(expected=pl.lit(exp, dtype=pl.Float64), p_holm=pl.Series(holm(t["p"].to_list()), dtype=pl.Float64))
    t = t.select("seat", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "expected", "p", "p_holm",
                 "deals").sort("seat")
    first = _first(t, exp)
    return t, seats_differ(w, n), first


def _first(t: pl.DataFrame, exp: float) -> dict:
    """Seat 0's row of ``t`` as ``summaries.first_player_advantage`` gives it (NaNs without seat 0)."""
    s0 = t.filter(pl.col("seat") == 0)
    if not s0.height:
        nan = math.nan
        return {"rate": nan, "ci_low": nan, "ci_high": nan, "expected": exp, "advantage": nan, "adv_low": nan,
                "adv_high": nan, "p": nan, "games": 0, "wins": 0, "deals": 0, "test": "t-test over deals"}
    r = s0.row(0, named=True)
    return {"rate": r["win_rate"], "ci_low": r["ci_low"], "ci_high": r["ci_high"], "expected": exp,
            "advantage": r["win_rate"] - exp, "adv_low": r["ci_low"] - exp, "adv_high": r["ci_high"] - exp,
            "p": r["p"], "games": r["games"], "wins": r["wins"], "deals": r["deals"], "test": "t-test over deals"}


def welch_deals(wa: np.ndarray, na: np.ndarray, wb: np.ndarray, nb: np.ndarray,
                confidence: float = 0.95) -> tuple[float, float, float]:
    """Run B's rate minus run A's, each clustered by its deals (``cluster_se``): ``(low, high, p)``
    of Welch's t (Welch-Satterthwaite df) on the two cluster-robust standard errors; with deals of
    equal size it is ``scipy.stats.ttest_ind(b_shares, a_shares, equal_var=False)`` and its interval."""
    (ra, sa, da), (rb, sb, db) = cluster_se(wa, na), cluster_se(wb, nb)
    if math.isnan(sa) or math.isnan(sb):
        return math.nan, math.nan, math.nan
    diff, var = rb - ra, sa**2 + sb**2
    if var == 0:
        return diff, diff, 1.0 if diff == 0 else 0.0
    df = var**2 / (sa**4 / (da - 1) + sb**4 / (db - 1))
    se = math.sqrt(var)
    half = _t_ppf(0.5 + 0.5 * confidence, df) * se
    return diff - half, diff + half, _t_p(diff / se, df)


def deal_difference(ga: pl.DataFrame, gb: pl.DataFrame, k: tuple[int, int], confidence: float = 0.95,
                    col: str = "won") -> tuple[float, float, float, float, float, str]:
    """``sim compare``'s unpaired seat rows under ``seating: permute`` (``compare.per_game`` rows of
    one seat in runs A and B, ``k`` their games per deal): ``(a, b, low, high, p, test)``,
    ``welch_deals`` of the sums of ``col`` (``won``: wins; ``score``) and games per deal
    (``game_index // k``): the win rate or the mean score, the deal the unit."""
    (wa, na), (wb, nb) = (_per_deal(g, kk, col) for g, kk in zip((ga, gb), k, strict=True))
    lo, hi, p = welch_deals(wa, na, wb, nb, confidence)
    return (wa.sum() / na.sum(), wb.sum() / nb.sum(), lo, hi, p,
            f"Welch t-test over deals ({len(na)} and {len(nb)} deals, the deal the unit)")


def _per_deal(g: pl.DataFrame, k: int, col: str = "won") -> tuple[np.ndarray, np.ndarray]:
    """Sums of ``col`` and games per deal of one group's per-game rows (``col``, ``game_index``)."""
    t = g.group_by(deal=pl.col("game_index") // k).agg(w=pl.col(col).sum(), n=pl.len()).sort("deal")
    return t["w"].to_numpy().astype(float), t["n"].to_numpy().astype(float)


def seat_text(by_seat: pl.DataFrame, chi: tuple[float, float], fp: dict, note: str, lev: str) -> str:
    """The report's seat paragraph: the intervals and tests, with the games (no ``deals`` column:
    as before) or the deals as the unit."""
    from .document import num, p_text

    adv = f"{(fp['advantage'] * 100):+.1f} points ({fp['adv_low'] * 100:+.1f} to {fp['adv_high'] * 100:+.1f})"
    if "deals" not in by_seat.columns:
        return (f"Win rate per seat over complete games, {lev} Wilson intervals; {note}. Chi-square test of equal seat "
                f"win rates: statistic {num(chi[0])}, p {p_text(chi[1])}. First-player advantage (seat 0 − expected): "
                f"{adv}, binomial test p {p_text(fp['p'])}." + (
                    " With two seats the binomial test of seat 0 is the seat question (the findings and the verdict use "
                    "it); the chi-square and the per-seat Holm column ask it again (Holm over two seats doubles its p)."
                    if by_seat.height == 2 else ""))
    if int(by_seat["deals"].max()) < 2:  # no spread between deals: no interval and no test (not "+nan to +nan")
        return (f"Win rate per seat over complete games; {note}. One deal only: with the deal as the unit "
                "(seating: permute, docs/analysis.md) there is no interval and no test; play at least two deals.")
    omnibus = "Friedman's test" if by_seat.height > 2 else "The paired t-test"
    return (f"Win rate per seat over complete games, {lev} intervals with the deal as the unit (seating: permute: the "
            f"games of a deal share its shuffle, so they are not independent; cluster-robust t-intervals over the "
            f"{int(by_seat['deals'].max())} deals, docs/analysis.md); {note}. {omnibus} over the deals of equal seat "
            f"win rates: statistic {num(chi[0])}, p {p_text(chi[1])}. First-player advantage (seat 0 − expected): "
            f"{adv}, t-test over the deals p {p_text(fp['p'])}; the p (Holm) of each seat is its t-test over the deals.")


def ludii_by_deals(ludii: pl.DataFrame, players: Rows, k: int, seed: int, n_resamples: int = 1000,
                   confidence: float = 0.95) -> pl.DataFrame:
    """The Ludii table with Balance's and Advantage's (seat 0's win rate) intervals over the deals:
    Advantage's seat 0's ``cluster_interval`` (as ``seat_table`` gives it), Balance's from
    ``balance_by_deals``; the deal cells are read once for both."""
    seats, w, n = deal_matrix(deal_cells(players, k))
    a_lo, a_hi = cluster_interval(w[seats.index(0)], n[seats.index(0)], confidence)[1:] if 0 in seats else (
        math.nan, math.nan)
    lo, hi = balance_by_deals(w, n, analysis_rng(seed, 3), n_resamples, confidence)
    fig = pl.col("figure")
    return ludii.with_columns(
        ci_low=pl.when(fig == "Advantage").then(pl.lit(a_lo, pl.Float64))
        .when(fig == "Balance").then(pl.lit(lo, pl.Float64)).otherwise(pl.col("ci_low")),
        ci_high=pl.when(fig == "Advantage").then(pl.lit(a_hi, pl.Float64))
        .when(fig == "Balance").then(pl.lit(hi, pl.Float64)).otherwise(pl.col("ci_high")))


def balance_by_deals(w: np.ndarray, n: np.ndarray, rng: np.random.Generator, n_resamples: int = 1000,
                     confidence: float = 0.95) -> tuple[float, float]:
    """Balance's interval (``stats.balance_interval``: ``1 - G`` widened by ``c``) with whole deals
    resampled: ``c`` is the one-sided ``confidence`` quantile of the range over the seats of
    ``r* - r``, ``r*`` a resample's win rates (its wins over its games, per seat), ``r`` the run's.
    ``w``, ``n``: wins and games ``(seats, deals)`` (``deal_matrix``)."""
    if w.shape[0] < 2 or w.shape[1] < 2:
        return math.nan, math.nan
    rates = w.sum(1) / n.sum(1)
    gap = float(np.ptp(rates))
    if not np.ptp(w / np.where(n == 0, np.nan, n) - rates[:, None], axis=1).any():
        return math.nan, math.nan  # no deal differs: no spread to measure, no interval (not a point: breaker 2)
    wn = np.vstack([w, n])  # (2 seats, deals)
    s = w.shape[0]

    def spread(weights, x):
        sums = weighted_sums(wn, weights)
        return np.ptp(sums[:s] / sums[s:] - rates[:, None], axis=0)

    c = float(bootstrap_games(wn.T, spread, rng, n_resamples, 2 * confidence - 1)[1])
    return max(0.0, 1 - gap - c), min(1.0, 1 - max(0.0, gap - c))
