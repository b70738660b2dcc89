"""Seat statistics under ``seating: permute`` take the deal as the unit (``sim.analysis.deals``;
breaker trial, session 10). Every expected value is computed here with scipy or statsmodels
directly from a hand-built table of games (deals of ``K`` games, one winner a game, the winners
clustered by deal), never copied from the program's output."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm
from scipy import stats as sps

from sim.analysis import checks, deals, sections, summaries
from sim.analysis.tables import RunTables

K, SEATS = 6, 4


def _players(n_deals: int, seed: int = 3, extra: int = 0) -> pl.DataFrame:
    """``n_deals`` deals of ``K`` games (and ``extra`` games of a partial last deal): in each deal one
    favourite seat, drawn per deal, wins with probability 0.7, the other seats share the rest."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_deals * K + extra):
        if g % K == 0:
            fav = int(rng.integers(SEATS))
        winner = fav if rng.random() < 0.7 else int(rng.integers(SEATS))
        rows += [{"game_index": g, "seat": s, "strategy": "x", "won": s == winner, "score": float(s == winner) + s,
                  "rank": 1 if s == winner else 2} for s in range(SEATS)]
    return pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "won": pl.Boolean,
                                      "score": pl.Float64, "rank": pl.Int64})


def _shares(p: pl.DataFrame) -> np.ndarray:
    """Deal shares by hand: ``(seats, deals)``."""
    t = p.group_by(pl.col("game_index") // K, "seat").agg(pl.col("won").mean()).sort("game_index", "seat")
    return t["won"].to_numpy().reshape(-1, SEATS).T


def _cluster_ols(p: pl.DataFrame, seat: int, confidence: float = 0.95):
    rows = p.filter(pl.col("seat") == seat)
    y = rows["won"].cast(pl.Float64).to_numpy()
    fit = sm.OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={"groups": rows["game_index"].to_numpy() // K},
                                              use_t=True)
    return fit, fit.conf_int(alpha=1 - confidence)[0]


def test_seat_intervals_and_tests_equal_scipy_over_the_deal_shares():
    p = _players(12)
    t, (stat, p_omni), first = deals.seat_table(p, K)
    shares = _shares(p)
    exp = float(p["won"].cast(pl.Float64).mean())
    for s in range(SEATS):
        r = t.row(s, named=True)
        tt = sps.ttest_1samp(shares[s], exp)
        lo, hi = sps.ttest_1samp(shares[s], 0).confidence_interval(0.95)
        assert r["win_rate"] == pytest.approx(shares[s].mean())
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((max(0, lo), min(1, hi)))
        assert r["p"] == pytest.approx(tt.pvalue)
        assert r["deals"] == 12
    f = sps.friedmanchisquare(*shares)
    assert (stat, p_omni) == pytest.approx((f.statistic, f.pvalue))
    assert first["p"] == pytest.approx(sps.ttest_1samp(shares[0] - exp, 0).pvalue)
    assert first["advantage"] == pytest.approx(shares[0].mean() - exp)


def test_a_partial_last_deal_weighs_by_its_games_as_statsmodels_cluster_robust_ols():
    p = _players(9, seed=11, extra=3)
    t, _, _ = deals.seat_table(p, K, 0.9)
    exp = float(p["won"].cast(pl.Float64).mean())
    for s in range(SEATS):
        fit, (lo, hi) = _cluster_ols(p, s, 0.9)
        r = t.row(s, named=True)
        assert r["win_rate"] == pytest.approx(fit.params[0])
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((max(0, lo), min(1, hi)))
        assert r["p"] == pytest.approx(_ols_p(fit, exp))


def _ols_p(fit, value: float) -> float:
    """The two-sided p of the cluster-robust t-test of the mean against ``value`` (statsmodels)."""
    return float(fit.t_test((np.array([[1.0]]), np.array([value]))).pvalue)


def test_clustered_winners_no_longer_look_significant_by_games():
    """The binomial test over games calls a seat that only had one lucky deal significant; the deal
    as the unit does not (one favourite deal of 6 among 12, seat 0 winning that whole deal)."""
    rows = []
    for g in range(12 * K):
        winner = 0 if g < K else (g // K) % SEATS if g % 2 else (g // K + 1) % SEATS
        rows += [{"game_index": g, "seat": s, "won": s == winner, "score": 0.0} for s in range(SEATS)]
    p = pl.DataFrame(rows)
    t, _, first = deals.seat_table(p, K)
    naive = summaries.first_player_advantage(p)
    shares = _shares(p)
    assert first["p"] == pytest.approx(sps.ttest_1samp(shares[0], 0.25).pvalue)
    assert first["ci_high"] - first["ci_low"] > naive["ci_high"] - naive["ci_low"]


def test_compare_welch_over_deals_equals_scipy():
    pa, pb = _players(10, seed=1), _players(14, seed=2)
    sa, sb = _shares(pa), _shares(pb)
    for s in range(SEATS):
        w = [(x.filter(pl.col("seat") == s).group_by(pl.col("game_index") // K).agg(w=pl.col("won").sum(), n=pl.len())
              .sort("game_index")) for x in (pa, pb)]
        lo, hi, p = deals.welch_deals(*(c.to_numpy().astype(float) for x in w for c in (x["w"], x["n"])))
        ref = sps.ttest_ind(sb[s], sa[s], equal_var=False)
        assert p == pytest.approx(ref.pvalue)
        assert (lo, hi) == pytest.approx(tuple(ref.confidence_interval(0.95)))


def test_two_seats_use_the_paired_t_test_over_deals():
    rng = np.random.default_rng(5)
    rows = [{"game_index": g, "seat": s, "won": s == w, "score": 0.0}
            for g in range(8 * 2) for w in [int(rng.random() < (0.3 if g // 2 % 2 else 0.6))] for s in range(2)]
    p = pl.DataFrame(rows)
    w, n = deals.deal_matrix(deals.deal_cells(p, 2))[1:]
    stat, pv = deals.seats_differ(w, n)
    ref = sps.ttest_rel(w[0] / n[0], w[1] / n[1])
    assert (stat, pv) == pytest.approx((ref.statistic, ref.pvalue))


def _draft(p: pl.DataFrame, seating: str, k: int) -> sections.Draft:
    games = p.group_by("game_index").agg(n_winners=pl.col("won").sum()).sort("game_index").with_columns(
        failed=pl.lit(False), truncated=pl.lit(False), deal_index=pl.col("game_index") // k)
    t = RunTables(games=games, players=p, metrics=pl.LazyFrame(), errors=pl.DataFrame(),
                  config={"players": SEATS, "seed": 1, "seating": seating}, manifest={"deal_size": k},
                  players_complete=True)
    return sections.Draft(t, 50, 100)


@pytest.mark.parametrize("seating", ["rotate", "fixed"])
def test_rotate_and_fixed_keep_the_games_as_the_unit(seating):
    """Outside permute every game is its own deal: the seat tables are the game-level ones, exactly."""
    p = _players(6)
    out = sections.win_rates(_draft(p, seating, 1))
    assert out["seat"].equals(summaries.win_table_tested(p, "seat"))
    assert out["chi"] == summaries.seat_chi_square(p)
    assert out["first"] == summaries.first_player_advantage(p)


def test_permute_seat_checks_judge_the_deal_intervals():
    p = _players(12)
    d = _draft(p, "permute", K)
    out = sections.win_rates(d)
    assert "deals" in out["seat"].columns and out["first"]["deals"] == 12
    d.tables["end_reasons"] = pl.DataFrame({"confidence": [0.95]})
    [r] = checks.evaluate({"max_seat_win_rate": {"threshold": 0.99}}, d.tables, p["game_index"].n_unique(), 0)
    worst = out["seat"].sort("ci_high").row(-1, named=True)
    assert (r.estimate, r.ci_low, r.ci_high) == (worst["win_rate"], worst["ci_low"], worst["ci_high"])
    assert math.isclose(d.tables["first_player"]["adv_low"][0], out["first"]["ci_low"] - out["first"]["expected"])


def test_balance_over_deals_resamples_the_deal_shares():
    """With deals of equal size the ratio of resampled sums is the mean of the resampled deal shares:
    Balance's interval is ``stats.balance_interval`` (the bootstrap of ``scipy.stats.bootstrap``,
    tested in test_pipeline_stats) of the (deals, seats) share matrix, with the same draws."""
    from sim.analysis.stats import analysis_rng, balance_interval

    p = _players(15, seed=9)
    w, n = deals.deal_matrix(deals.deal_cells(p, K))[1:]
    got = deals.balance_by_deals(w, n, analysis_rng(4, 3), 400)
    ref = balance_interval(_shares(p).T, analysis_rng(4, 3), 400)
    assert got == pytest.approx(ref)
    games = summaries.win_table(p, "seat")["win_rate"].to_numpy()
    assert got[0] <= 1 - np.ptp(games) <= got[1]


@pytest.mark.parametrize("seating", ["rotate", "fixed"])
def test_rotate_and_fixed_keep_the_ludii_figures(seating):
    p = _players(6)
    d = _draft(p, seating, 1)
    sections.ludii(d)
    assert d.tables["ludii"].equals(summaries.ludii_figures(d.t.games, p, 1, 100, complete=True))


def test_compare_seat_rows_take_deal_means_of_wins_and_scores():
    """``sim compare``'s unpaired seat rows under permute: Welch over the deals' win shares and mean
    scores (``scipy.stats.ttest_ind(equal_var=False)``), from ``compare.per_game``-shaped rows."""
    pa, pb = _players(8, seed=4), _players(11, seed=6)
    ga, gb = (x.filter(pl.col("seat") == 1).with_columns(pl.col("won").cast(pl.Float64)) for x in (pa, pb))
    for col in ("won", "score"):
        a, b, lo, hi, p, _ = deals.deal_difference(ga, gb, (K, K), 0.95, col)
        ma, mb = (g.group_by(pl.col("game_index") // K).agg(pl.col(col).mean()).sort("game_index")[col].to_numpy()
                  for g in (ga, gb))
        ref = sps.ttest_ind(mb, ma, equal_var=False)
        assert (a, b) == pytest.approx((ma.mean(), mb.mean()))
        assert (lo, hi, p) == pytest.approx((*ref.confidence_interval(0.95), ref.pvalue))


def test_a_scan_gives_the_same_seat_table():
    """From ``ANALYTIC_FROM`` complete games the report's player rows are a scan (``streamed``): the
    deal table is one streamed group-by, so the figures are the same."""
    p = _players(7, seed=8)
    t, chi, first = deals.seat_table(p, K)
    ts, chis, firsts = deals.seat_table(p.lazy(), K)
    assert ts.equals(t) and chis == chi and firsts == first


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_friedman_with_many_ties_equals_scipy(seed):
    x = np.random.default_rng(seed).integers(0, 3, size=(9, 4)).astype(float)  # small counts: ties in most blocks
    ref = sps.friedmanchisquare(*x.T)
    assert deals.friedman(x) == pytest.approx((ref.statistic, ref.pvalue))


def test_deals_without_variation_fall_back_to_the_games():
    """Two seats, one strategy winning every game: every deal gives seat 0 one win of two, a zero
    spread that is no evidence of certainty: the Wilson interval and binomial test of the 24 games."""
    from statsmodels.stats.proportion import proportion_confint

    p = pl.DataFrame([{"game_index": g, "seat": s, "won": s == g % 2, "score": 0.0} for g in range(24) for s in range(2)])
    t, _, first = deals.seat_table(p, 2, 0.99)
    lo, hi = proportion_confint(12, 24, alpha=0.01, method="wilson")
    assert (first["ci_low"], first["ci_high"]) == pytest.approx((lo, hi))
    assert first["p"] == pytest.approx(sps.binomtest(12, 24, 0.5).pvalue)


def test_two_seats_differing_alike_in_every_deal_use_friedmans_ranks():
    """Seat 0 wins both games of each of 12 deals: the paired t has no spread; Friedman's statistic
    with two treatments is then the number of blocks (by hand: 12/(2·12·3)·(24² + 12²) − 3·12·3 = 12)."""
    p = pl.DataFrame([{"game_index": g, "seat": s, "won": s == 0, "score": 0.0} for g in range(24) for s in range(2)])
    w, n = deals.deal_matrix(deals.deal_cells(p, 2))[1:]
    assert deals.seats_differ(w, n) == pytest.approx((12.0, sps.chi2.sf(12, 1)))


def test_balance_has_no_interval_when_no_deal_differs():
    # breaker trial 2 (session 10): every deal gave each seat the same share (3 deals, 2 seats, seat 0
    # winning 1 of 2 games in each): "Balance 100.0% (100.0-100.0%)" passed any floor; now no interval
    w, n = np.array([[1, 1, 1], [1, 1, 1]]), np.array([[2, 2, 2], [2, 2, 2]])
    lo, hi = deals.balance_by_deals(w, n, np.random.default_rng(0), 200)
    assert math.isnan(lo) and math.isnan(hi)
    from sim.analysis.checks import judge

    assert judge("min", 1.0, lo, hi, 0.999) == "inconclusive"


def test_until_ci_judges_the_seat_intervals_over_deals_under_permute():
    # breaker trial 2 (session 10): --until-ci stopped on Wilson widths while the report's seat
    # intervals (t over deals, here statsmodels' cluster-robust OLS) were far wider
    from sim.runs.until_ci import widest_half_width

    p = _players(10, seed=5)
    games = pl.DataFrame({"game_index": p["game_index"].unique().sort(), "failed": False, "truncated": False})
    by_deal = max(max(fit.params[0] - lo, hi - fit.params[0]) for fit, (lo, hi) in
                  (_cluster_ols(p, s) for s in range(SEATS)))
    hw, who = widest_half_width(p, games, 0.95, K)
    assert hw == pytest.approx(by_deal, rel=1e-6) and who.startswith("seat ")
    wilson_only, _ = widest_half_width(p, games, 0.95, 1)
    assert wilson_only < hw  # the games as units: narrower, which is what the rule used to stop on
    one_deal, _ = widest_half_width(_players(1, seed=5), games.head(K), 0.95, K)
    assert one_deal == math.inf  # one deal: no interval, never "within ±W"


def test_a_few_deals_alike_give_no_interval():
    # breaker trial 2 (session 10): two deals in which a seat won 12 of 60 each gave it the games'
    # Wilson interval (13.8-28.0%) beside seats at 0-100%: two equal deals may be chance
    w, n = np.array([12.0, 12.0]), np.array([60.0, 60.0])
    rate, lo, hi = deals.cluster_interval(w, n)
    assert rate == 0.2 and math.isnan(lo) and math.isnan(hi) and math.isnan(deals.cluster_p(w, n, 1 / 6))
    w5, n5 = np.full(5, 12.0), np.full(5, 60.0)  # five alike: the games' Wilson interval, as before
    assert deals.cluster_interval(w5, n5)[1:] == pytest.approx(tuple(sps.binomtest(60, 300).proportion_ci(
        0.95, method="wilson")))


def test_one_deal_says_why_there_is_no_interval_or_test():
    # breaker trial 2 (session 10): "seat 0 wins 20.8% (n/–n/a) ... no test applies (the expected share
    # is 0 or 1)" and "(+nan to +nan)" in the seat paragraph of a one-deal run
    from sim.analysis import findings as fnd
    from sim.analysis.wording import pint

    assert pint(0.208, math.nan, math.nan) == "20.8% (no interval)"
    p = _players(1, seed=2)
    t, chi, first = deals.seat_table(p, K)
    text = deals.seat_text(t, chi, first, "expected share 25.0%", "95%")
    assert "One deal only" in text and "nan" not in text
    x = fnd.Inputs(players=SEATS, seat=t, strategy=summaries.win_table_tested(p, "strategy"), chi=chi, first=first,
                   h2h=summaries.head_to_head(p), components=pl.DataFrame(), min_sample=30, games=K, complete=K,
                   truncated=0, failed=0, seating="permute")
    said = " ".join(fnd.findings(x))
    assert "no test applies (one deal: with the deal as the unit there is no spread to test against" in said, said
