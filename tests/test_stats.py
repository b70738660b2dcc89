"""Statistics against values worked by hand, on small constructed tables."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from sim.analysis import findings as fnd
from sim.analysis import stats, summaries


def players_table(rows):
    """rows: (game_index, seat, strategy, score, rank, won)."""
    return pl.DataFrame(rows, schema=["game_index", "seat", "strategy", "score", "rank", "won"], orient="row")


def test_wilson_30_of_100_matches_the_formula():
    n, k, z = 100, 30, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = stats.wilson(30, 100)
    assert lo == pytest.approx(centre - half, abs=1e-6) and hi == pytest.approx(centre + half, abs=1e-6)
    assert (round(lo, 4), round(hi, 4)) == (0.2189, 0.3958)
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_seat_chi_square_on_a_constructed_table():
    # 50 two-player games: seat 0 wins 30, seat 1 wins 20. One draw per game between two seats:
    # sum (O - E)^2 / E with E = 25: 2 * 25 / 25 = 2, 1 df; p = P(|Z| >= sqrt 2) = erfc(1)
    rows = [(g, 0, "a", 0.0, 1 if g < 30 else 2, g < 30) for g in range(50)]
    rows += [(g, 1, "b", 0.0, 2 if g < 30 else 1, g >= 30) for g in range(50)]
    chi, p = summaries.seat_chi_square(players_table(rows))
    assert chi == pytest.approx(2.0, abs=1e-12)
    assert p == pytest.approx(math.erfc(1.0), rel=1e-12)


def test_seat_chi_square_three_seats():
    # 60 three-player games won 10 / 20 / 30 times by seats 0, 1, 2: E = 20;
    # (100 + 0 + 100) / 20 = 10, 2 df: p = e^(-10/2). (A seats x (won, lost) table gave 15: 1.5x.)
    rows = []
    for g in range(60):
        winner = 0 if g < 10 else 1 if g < 30 else 2
        rows += [(g, seat, "s", 0.0, 1 if seat == winner else 2, seat == winner) for seat in range(3)]
    chi, p = summaries.seat_chi_square(players_table(rows))
    assert chi == pytest.approx(10.0) and p == pytest.approx(math.exp(-5), rel=1e-9)


def test_seat_chi_square_has_its_nominal_size_on_a_fair_game():
    # 2,000 fair 4-player runs of 400 games (winner uniform over the seats): the test rejects at 5%
    # about 5% of the time (100 of 2,000; binomial sd 9.7, band of 3.3 sd: 68-132). The old seats x (won, lost) table
    # rejected about 11% (fresh-user finding 1, session 6)
    rng = np.random.default_rng(7)
    wins = rng.multinomial(400, [0.25] * 4, size=2000)
    from sim.analysis.exact import chi2_uniform

    rejected = sum(chi2_uniform(w)[1] < 0.05 for w in wins)
    assert 68 <= rejected <= 132


SMALL = players_table([
    # game 0: A wins, B second, C third
    (0, 0, "A", 10.0, 1, True), (0, 1, "B", 8.0, 2, False), (0, 2, "C", 5.0, 3, False),
    # game 1: B wins, C and A tie for second
    (1, 0, "B", 12.0, 1, True), (1, 1, "C", 7.0, 2, False), (1, 2, "A", 7.0, 2, False),
    # game 2: A twice (two seats) and C; C wins
    (2, 0, "A", 3.0, 2, False), (2, 1, "A", 1.0, 3, False), (2, 2, "C", 9.0, 1, True),
])


def test_head_to_head_on_a_small_table():
    h = summaries.head_to_head(SMALL)
    get = {(r["strategy_a"], r["strategy_b"]): r for r in h.iter_rows(named=True)}
    # A vs B: games 0 (A above) and 1 (B above) -> 2 meetings, 1 above, 1 below
    ab = get[("A", "B")]
    assert (ab["meetings"], ab["a_above"], ab["b_above"], ab["ties"]) == (2, 1, 1, 0)
    # A vs C: game 0 above, game 1 tie, game 2 two meetings both below
    ac = get[("A", "C")]
    assert (ac["meetings"], ac["a_above"], ac["b_above"], ac["ties"]) == (4, 1, 2, 1)
    ca = get[("C", "A")]
    assert (ca["meetings"], ca["a_above"], ca["b_above"], ca["ties"]) == (4, 2, 1, 1)
    # games as clusters: a_g = 0, 0, 2 of m_g = 1, 1, 2 -> sum (a_g - m_g/2)^2 = 1/4 + 1/4 + 1 = 3/2,
    # n_eff = r(1-r) M^2 / 1.5 = 1/4 * 16 / 1.5 = 8/3; Wilson at p = 1/2: 1/2 -+ z / (2 sqrt(n_eff + z^2))
    z = 1.959963984540054
    half = z / (2 * math.sqrt(8 / 3 + z * z))
    assert ca["rate"] == 0.5 and (ca["ci_low"], ca["ci_high"]) == pytest.approx((0.5 - half, 0.5 + half))
    # the sign test counts games: C ahead in game 2 (both A seats below), A ahead in game 0, game 1 even
    assert (ca["games"], ca["decided"], ca["ahead"]) == (3, 2, 0.5)
    assert (ab["ci_low"], ab["ci_high"]) == pytest.approx(stats.wilson(1, 2))  # one meeting per game: plain Wilson
    assert ("A", "A") not in get and h.height == 6


def test_ratings_follow_game_order_and_rank_the_winner_first():
    rows = [(g, s, lab, 0.0, 1 if lab == "strong" else 2, lab == "strong")
            for g in range(30) for s, lab in enumerate(("strong", "weak"))]
    r = summaries.ratings(players_table(rows))
    assert r["strategy"].to_list() == ["strong", "weak"] and r["games"].to_list() == [30, 30]
    assert r["mu"][0] > 25 > r["mu"][1]
    shuffled = players_table(rows).sample(fraction=1.0, shuffle=True, seed=3)
    assert summaries.ratings(shuffled).equals(r)  # sorted by game index first: same result


def test_pooled_win_rate_and_first_player_advantage_with_shared_wins():
    # 2 seats, 4 games: seat 0 wins games 0,1,2; game 3 is shared
    rows = [(g, 0, "x", 0.0, 1 if g < 4 else 2, True) for g in range(4)]
    rows += [(g, 1, "x", 0.0, 1 if g == 3 else 2, g == 3) for g in range(4)]
    t = players_table(rows)
    assert stats.pooled_win_rate(t) == pytest.approx(5 / 8)
    fp = summaries.first_player_advantage(t)
    assert fp["rate"] == 1.0 and fp["expected"] == pytest.approx(5 / 8) and fp["advantage"] == pytest.approx(3 / 8)


def test_ludii_figures_by_hand():
    games = pl.DataFrame({
        "game_index": [0, 1, 2, 3, 4], "n_decisions": [10] * 5, "truncated": [False, False, False, False, True],
        "failed": [False] * 5, "n_winners": [1, 1, 2, 1, 0],
    })
    won = {0: (True, False), 1: (True, False), 2: (True, True), 3: (False, True), 4: (False, False)}
    rows = [(g, s, "x", 0.0, 1 if won[g][s] else 2, won[g][s]) for g in range(5) for s in range(2)]
    lf = summaries.ludii_figures(games, players_table(rows), seed=1, n_resamples=200)
    v = dict(zip(lf["figure"], lf["value"], strict=True))
    # complete games 0-3: seat 0 wins 3/4, seat 1 wins 2/4 -> Balance = 1 - 0.25
    assert v["Balance"] == pytest.approx(0.75)
    assert v["Advantage"] == pytest.approx(0.75)
    assert v["Drawishness"] == pytest.approx(1 / 4)
    assert v["Completion"] == pytest.approx(4 / 5)  # the truncated game did not complete
    comp = lf.filter(pl.col("figure") == "Completion").row(0, named=True)
    assert (comp["ci_low"], comp["ci_high"]) == pytest.approx(stats.wilson(4, 5))


def test_outcomes_and_margins():
    rows = [(0, 0, "a", 10.0, 1, True), (0, 1, "b", 7.0, 2, False), (1, 0, "a", 5.0, 1, True),
            (1, 1, "b", 5.0, 1, True), (2, 0, "a", 2.0, 2, False), (2, 1, "b", 9.0, 1, True)]
    m = summaries.margins(players_table(rows))
    assert m.to_dict(as_series=False) == {"game_index": [0, 2], "margin": [3.0, 7.0]}  # shared game 1 has none


def test_bootstrap_is_reproducible_and_resamples_whole_games():
    rng_vals = np.random.default_rng(0).normal(10, 2, size=300)
    a = stats.bootstrap_mean(rng_vals, stats.analysis_rng(7, 1), 500)
    b = stats.bootstrap_mean(rng_vals, stats.analysis_rng(7, 1), 500)
    assert a == b and a[0] < rng_vals.mean() < a[1]
    # a ratio over games: every game contributes (sum, count); one constant game value gives a point interval
    assert stats.bootstrap_ratio(np.array([4.0, 4.0, 4.0]), np.array([2, 2, 2]), stats.analysis_rng(1), 100) == (2.0, 2.0)


def test_score_table_is_reproducible():
    rows = [(g, s, "ab"[s], float((g * 7 + s * 3) % 11), 1, s == 0) for g in range(60) for s in range(2)]
    t = players_table(rows)
    one, two = summaries.score_table(t, "strategy", seed=5, n_resamples=300), summaries.score_table(t, "strategy", 5, 300)
    assert one.equals(two)
    r = one.row(0, named=True)
    assert r["ci_low"] < r["mean"] < r["ci_high"] and r["rows"] == 60
    # one group only (every seat the same strategy, or a solo game) works too
    solo = summaries.score_table(t.filter(pl.col("seat") == 0), "seat", seed=5, n_resamples=300).row(0, named=True)
    assert solo["rows"] == 60 and solo["ci_low"] < solo["mean"] < solo["ci_high"]


def test_component_table_standardises_by_strategy_and_seat_and_needs_a_minimum_sample():
    # 400 games, 2 seats rotating strong "s" and weak "w"; s wins 70% of games (cells: s 0.7, w 0.3).
    rows, comps = [], []
    for g in range(400):
        s_seat = g % 2
        s_wins = (g // 2) % 10 < 7
        for seat in (0, 1):
            strong = seat == s_seat
            won = strong == s_wins
            rows.append((g, seat, "s" if strong else "w", 0.0, 1 if won else 2, won))
        comps += [(g, s_seat, "item", "sword"), (g, s_seat, "item", "sword")]  # the strong seat always; a copy counts once
        if s_wins:
            comps.append((g, s_seat, "item", "gold"))  # the strong seat, only when it wins
        elif g < 40:
            comps.append((g, 1 - s_seat, "item", "tin"))  # the weak seat when it wins, a few times
    cdf = pl.DataFrame(comps, schema=["game_index", "seat", "kind", "component"], orient="row")
    t = summaries.component_table(cdf, players_table(rows), min_sample=30)
    get = {r["component"]: r for r in t.iter_rows(named=True)}
    sword, gold, tin = get["sword"], get["gold"], get["tin"]
    # sword: 400 seat-games, 280 wins = exactly what the strong strategy wins anyway -> no claim (pooled is 50%)
    assert (sword["holders"], sword["wins"], sword["pooled"]) == (400, 280, 0.5)
    assert sword["expected"] == pytest.approx(0.7) and not sword["claim"]
    # gold: 280 of 280 against the expected 70% -> a claim; the other seat-games win 120 of 520
    assert (gold["holders"], gold["wins"], gold["win_rate"]) == (280, 280, 1.0)
    assert gold["expected"] == pytest.approx(0.7) and gold["rate_without"] == pytest.approx(120 / 520) and gold["claim"]
    assert (tin["holders"], tin["wins"], tin["enough"], tin["claim"]) == (12, 12, False, False)
    assert tin["expected"] == pytest.approx(0.3)
    sentences = fnd.component_findings(t, 30)
    assert any("'gold' (item) win 100.0%" in s and "the 70.0% the same strategies win in the same seats" in s for s in sentences)
    assert not any("'sword' win" in s or "'tin' win" in s for s in sentences)
    assert any("fewer than 30" in s for s in sentences)


def test_component_expected_share_keeps_its_bits_whatever_the_row_order():
    # 5 strategies in 3 seats with win rates like 1/3 and 2/7, whose float sum depends on the order of
    # addition; the expected share must be the exact mean (fractions.Fraction) to the last bits or so,
    # and bit-identical in any row order (a report must not change between two runs of one config).
    import fractions
    import random
    rows, comps = [], []
    for g in range(3000):
        for seat in range(3):
            strat = "abcde"[(g * 7 + seat * 3) % 5]
            rows.append((g, seat, strat, 0.0, 1, (g * 13 + seat * 5) % (3 + seat + "abcde".index(strat)) == 0))
            if (g + seat) % 4 != 0:
                comps.append((g, seat, "item", "gem"))
    cells: dict = {}
    for _g, seat, strat, _, _, won in rows:
        c = cells.setdefault((strat, seat), [0, 0])
        c[0], c[1] = c[0] + won, c[1] + 1
    by_seat = {(g, seat): (strat, seat) for g, seat, strat, *_ in rows}
    exact = sum(fractions.Fraction(cells[by_seat[g, seat]][0], cells[by_seat[g, seat]][1]) for g, seat, *_ in comps)
    want = float(exact / len(comps))
    random.Random(4).shuffle(rows)
    got = set()
    for order in range(4):
        random.Random(order).shuffle(comps)
        cdf = pl.DataFrame(comps, schema=["game_index", "seat", "kind", "component"], orient="row")
        got.add(summaries.component_table(cdf, players_table(rows), min_sample=30).row(0, named=True)["expected"])
    assert len(got) == 1 and got.pop() == pytest.approx(want, rel=1e-14)


def test_holm_adjustment():
    assert stats.holm([0.01, 0.04, 0.03, math.nan]) == pytest.approx([0.03, 0.06, 0.06, math.nan], nan_ok=True)


def _inputs(players, n, **kw):
    return fnd.Inputs(players=n, seat=summaries.win_table_tested(players, "seat"),
                      strategy=summaries.win_table_tested(players, "strategy"), chi=summaries.seat_chi_square(players),
                      first=summaries.first_player_advantage(players), h2h=summaries.head_to_head(players),
                      components=pl.DataFrame(), min_sample=30, games=kw.get("games", 0),
                      complete=kw.get("games", 0), truncated=0, failed=0)


def test_findings_claim_nothing_the_interval_does_not_support():
    # 4 seats, seat 0 wins 28 of 100 games (expected 25%): the interval contains 25%, no claim
    rows = []
    for g in range(100):
        w = 0 if g < 28 else 1 + g % 3
        rows += [(g, s, "same", 0.0, 1 if s == w else 2, s == w) for s in range(4)]
    f = fnd.findings(_inputs(players_table(rows), 4, games=100))
    assert not any("significant" in s and "Seat 0" in s for s in f)
    assert any("No significant seat advantage" in s for s in f)
    assert any("Every seat plays same" in s for s in f)


def test_findings_state_a_significant_first_player_advantage():
    rows = []
    for g in range(1000):
        w = 0 if g % 10 < 4 else 1 + g % 3  # seat 0 wins 40%
        rows += [(g, s, "same", 0.0, 1 if s == w else 2, s == w) for s in range(4)]
    f = fnd.findings(_inputs(players_table(rows), 4, games=1000))
    first = [s for s in f if s.startswith("Seat 0 (start player) wins 40.0%")]
    assert first and "expected 25.0%: first-player advantage is significant (p < 0.001)" in first[0]


def test_findings_with_shared_wins_use_the_pooled_rate():
    # 2 seats, every game shared: each seat wins 100%, pooled 100% -> nothing to claim about seats
    rows = [(g, s, "same", 1.0, 1, True) for g in range(50) for s in range(2)]
    t = players_table(rows)
    assert summaries.win_table_tested(t, "seat")["expected"].to_list() == [1.0, 1.0]
    f = fnd.findings(_inputs(t, 2, games=50))
    assert not any("significant" in s.lower() and "seat" in s.lower() and "no significant" not in s.lower() for s in f)


def test_findings_warn_that_fixed_seating_confounds_seat_and_strategy():
    rows = [(g, s, "ab"[s], 0.0, 1 if s == 0 else 2, s == 0) for g in range(40) for s in range(2)]
    x = _inputs(players_table(rows), 2, games=40)
    x.seating = "fixed"
    assert any(f.startswith("Seating is fixed") for f in fnd.findings(x))


def _even_four_seats():
    """40 games, 4 seats, one winner a game: seats win 10, 11, 10 and 9 games."""
    winner = [0] * 10 + [1] * 11 + [2] * 10 + [3] * 9
    return np.array([[float(w == s) for s in range(4)] for w in winner])


def test_balance_interval_holds_the_estimate_when_seats_are_nearly_even():
    wins = _even_four_seats()
    # win rates 10/40, 11/40, 10/40, 9/40: largest gap 2/40, Balance 0.95. A percentile bootstrap of
    # 1 - gap reaches no higher than 0.95 here (resampling only widens the gap); the interval must hold it.
    lo, hi = stats.balance_interval(wins, stats.analysis_rng(1, 3), 500)
    assert lo < 0.95 and hi == 1.0  # a gap of 2 games in 40 is well within noise: perfectly even is not excluded
    lf_games = pl.DataFrame({"game_index": range(40), "n_decisions": [1] * 40, "truncated": [False] * 40,
                             "failed": [False] * 40, "n_winners": [1] * 40})
    rows = [(g, s, "x", 0.0, 1 if wins[g, s] else 2, bool(wins[g, s])) for g in range(40) for s in range(4)]
    bal = summaries.ludii_figures(lf_games, players_table(rows), seed=1, n_resamples=300).row(0, named=True)
    assert bal["figure"] == "Balance" and bal["value"] == pytest.approx(0.95)
    assert bal["ci_low"] < 0.95 <= bal["ci_high"] == 1.0


def test_balance_interval_excludes_even_when_one_seat_dominates():
    # 2 seats, 100 games: seat 0 wins 80 -> gap 0.6, Balance 0.4; each rate is known to about ±0.08,
    # so the gap's bootstrap spread c is near 0.16: the interval is about 0.4 ± 0.16, far below 1
    wins = np.array([[1.0, 0.0]] * 80 + [[0.0, 1.0]] * 20)
    lo, hi = stats.balance_interval(wins, stats.analysis_rng(1, 3), 500)
    assert 0.15 < lo < 0.4 < hi < 0.65
    assert hi - 0.4 == pytest.approx(0.4 - lo)  # symmetric: G - c > 0, so [1 - G - c, 1 - G + c]


def _meetings(a_above: int, b_above: int, ties: int) -> pl.DataFrame:
    """Two-player games of A against B: A ranked above, B above, or a shared win."""
    rows, g = [], 0
    for ra, rb, n in ((1, 2, a_above), (2, 1, b_above), (1, 1, ties)):
        for _ in range(n):
            rows += [(g, 0, "A", 0.0, ra, ra == 1), (g, 1, "B", 0.0, rb, rb == 1)]
            g += 1
    return players_table(rows)


def test_head_to_head_claims_need_a_significant_sign_test():
    from scipy.stats import binomtest

    # 504 above, 460 below, 36 ties: 50.4% vs 46.0% of 1000 meetings, as in the review; of the 964 decided
    # meetings A is ahead in 52.3%, whose interval (about 49.1-55.4%) holds 50%: no claim
    h = summaries.head_to_head(_meetings(504, 460, 36))
    ab = h.filter(pl.col("strategy_a") == "A").row(0, named=True)
    assert ab["decided"] == 964 and ab["ahead"] == pytest.approx(504 / 964)
    assert ab["p"] == pytest.approx(binomtest(504, 964, 0.5).pvalue) and ab["p"] > 0.05
    assert ab["ahead_low"] < 0.5 and fnd.head_to_head_findings(h) == []
    # 560 above, 400 below: clearly ahead; the finding shows the test's p
    h = summaries.head_to_head(_meetings(560, 400, 40))
    found = fnd.head_to_head_findings(h)
    assert len(found) == 1 and found[0].startswith("A finishes above B in 56.0%")
    assert "ahead in 58.3%" in found[0] and "sign test over games, p < 0.001, Holm-adjusted" in found[0]  # 560 / 960


def test_head_to_head_counts_a_game_once_when_a_strategy_holds_two_seats():
    from scipy.stats import binomtest

    # six 3-player games, A in two seats, B in one, both A seats above B every time: 12 meetings but
    # 6 games; the sign test is over games, p = 2 * 0.5^6 (not 2 * 0.5^12), so no claim after all
    rows = []
    for g in range(6):
        rows += [(g, 0, "A", 9.0, 1, True), (g, 1, "A", 8.0, 2, False), (g, 2, "B", 1.0, 3, False)]
    h = summaries.head_to_head(players_table(rows))
    ab = h.filter(pl.col("strategy_a") == "A").row(0, named=True)
    assert (ab["meetings"], ab["a_above"], ab["games"], ab["decided"]) == (12, 12, 6, 6)
    assert ab["p"] == pytest.approx(binomtest(6, 6, 0.5).pvalue) == pytest.approx(2 * 0.5**6)
    assert (ab["ahead_low"], ab["ahead_high"]) == pytest.approx(stats.wilson(6, 6))
    assert (ab["ci_low"], ab["ci_high"]) == pytest.approx(stats.wilson(6, 6))  # rate 1: n_eff = the 6 games
    found = fnd.head_to_head_findings(h)  # Holm over one pair: p = 0.031; Wilson(6, 6) from 61.0%
    assert len(found) == 1 and "of their 12 meetings in 6 games, the unit of its interval" in found[0]


def test_head_to_head_p_values_are_holm_adjusted_over_pairs():
    h = summaries.head_to_head(SMALL)  # three pairs: A-B, A-C, B-C; A-B and B-A share one p
    p = {(r["strategy_a"], r["strategy_b"]): (r["p"], r["p_holm"]) for r in h.iter_rows(named=True)}
    assert p[("A", "B")] == p[("B", "A")]
    raw = sorted(p[k][0] for k in (("A", "B"), ("A", "C"), ("B", "C")))
    assert min(v[1] for v in p.values()) == pytest.approx(min(1.0, 3 * raw[0]))


def test_win_table_by_strategy_and_seat():
    t = summaries.win_table(SMALL, ["strategy", "seat"])
    cells = {(r["strategy"], r["seat"]): (r["games"], r["wins"]) for r in t.iter_rows(named=True)}
    # A: seat 0 in games 0 (won) and 2 (lost), seat 1 in game 2, seat 2 in game 1; B: seat 1 game 0, seat 0 game 1 (won)
    assert cells == {("A", 0): (2, 1), ("A", 1): (1, 0), ("A", 2): (1, 0), ("B", 0): (1, 1), ("B", 1): (1, 0),
                     ("C", 1): (1, 0), ("C", 2): (2, 1)}
    a0 = t.filter((pl.col("strategy") == "A") & (pl.col("seat") == 0)).row(0, named=True)
    assert (a0["ci_low"], a0["ci_high"]) == pytest.approx(stats.wilson(1, 2)) and a0["mean_score"] == 6.5


def test_an_outcome_component_is_tabulated_but_never_claimed_nor_in_the_holm_family():
    # 200 games, 2 seats, one strategy; seat 0 wins the even games. "crown": the winner's band of the
    # score (kind "title", declared an outcome), so its holders win 200 of 200 by definition; "gold":
    # held by seat 0 in games 0..99, which it wins when even: 50 of 100 against the expected 50%.
    rows = [(g, s, "a", 0.0, 1 if (g % 2 == 0) == (s == 0) else 2, (g % 2 == 0) == (s == 0))
            for g in range(200) for s in (0, 1)]
    comps = [(g, 0 if g % 2 == 0 else 1, "title", "crown") for g in range(200)]
    comps += [(g, 0, "item", "gold") for g in range(100)]
    cdf = pl.DataFrame(comps, schema=["game_index", "seat", "kind", "component"], orient="row")
    t = summaries.component_table(cdf, players_table(rows), min_sample=30, outcome_kinds=("title",))
    crown = t.filter(pl.col("component") == "crown").row(0, named=True)
    gold = t.filter(pl.col("component") == "gold").row(0, named=True)
    # crown: 200/200 against 50% is p < 1e-50, yet no claim and no Holm-adjusted p (out of the family)
    assert (crown["wins"], crown["holders"], crown["outcome"], crown["claim"]) == (200, 200, True, False)
    assert crown["p"] < 1e-50 and math.isnan(crown["p_holm"])
    # gold alone in the family: Holm over one test is the raw p (binomial 50 of 100 at 0.5: p = 1)
    assert gold["p_holm"] == pytest.approx(gold["p"]) == pytest.approx(1.0) and not gold["outcome"]
    said = fnd.component_findings(t, 30)
    assert not any("'crown'" in s for s in said)
    assert any(s.startswith("The title is a band of the final score") and "no claim" in s for s in said)


def test_complete_games_are_counted_by_one_helper():
    """Designer finding 11 (session 8): sim/runs/check.py (and compare, pick) counted complete games
    with their own ``complete_games(...).height``; ``stats.complete_count`` is the one helper."""
    import re
    from pathlib import Path

    games = pl.DataFrame({"failed": [False, True, False, False, True], "truncated": [False, False, True, False, True]})
    assert stats.complete_count(games) == 2  # games 0 and 3: neither failed nor truncated
    assert stats.complete_count(pl.DataFrame()) == 0
    root = Path(__file__).resolve().parents[1] / "sim"
    copies = [str(p.relative_to(root)) for p in root.rglob("*.py")
              if re.search(r"complete_games\([^()]*\)\.height", p.read_text()) and p.name != "stats.py"]
    assert copies == []
