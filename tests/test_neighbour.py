"""Session 10, fresh-user finding 2: seat or neighbour? The logistic regression's likelihood-ratio
tests and the per-strategy chi-square tests against direct statsmodels and scipy calls, on
synthetic seatings whose answer is known (a built-in neighbour effect, and none)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import polars as pl
import pytest
import statsmodels.formula.api as smf
from scipy import stats as sps

from sim.analysis import findings as fnd
from sim.analysis import neighbour, summaries
from sim.analysis.seating import predecessor_cells

NAMES = ("a", "b", "c", "d")


def _rows(chance, deals=60, seed=7):
    """Every assignment of a, b, c, d to 4 seats once a deal (as seating: permute); each seat wins
    independently with probability ``chance(seat, strategy, before)``."""
    rng, rows, g = np.random.default_rng(seed), [], 0
    for _ in range(deals):
        for perm in itertools.permutations(NAMES):
            for s, name in enumerate(perm):
                won = bool(rng.random() < chance(s, name, perm[s - 1]))
                rows.append((g, s, name, perm[s - 1], 0.0, 1 if won else 2, won))
            g += 1
    return pl.DataFrame(rows, schema=["game_index", "seat", "strategy", "before", "score", "rank", "won"], orient="row")


def _statsmodels_lr(df: pl.DataFrame):
    """The likelihood-ratio p-values of the seat and neighbour terms, by statsmodels on the seat-game rows."""
    data = pd.DataFrame(df.select("seat", "strategy", "before", won=pl.col("won").cast(pl.Int64)).to_dict(as_series=False))
    full = smf.logit("won ~ C(seat) + C(strategy) + C(before)", data).fit(disp=0)
    out = {}
    for key, formula in (("seat", "won ~ C(strategy) + C(before)"), ("before", "won ~ C(seat) + C(strategy)")):
        red = smf.logit(formula, data).fit(disp=0)
        lr = 2 * (full.llf - red.llf)
        out[key] = (lr, int(full.df_model - red.df_model), sps.chi2.sf(lr, full.df_model - red.df_model))
    return out


def _chi2_by_before(df: pl.DataFrame, name: str):
    t = df.filter(pl.col("strategy") == name).group_by("before").agg(w=pl.col("won").sum(), n=pl.len()).sort("before")
    table = np.array([t["w"].to_numpy(), (t["n"] - t["w"]).to_numpy()])
    return sps.chi2_contingency(table, correction=False)


def test_a_built_in_neighbour_effect_is_found_and_matches_statsmodels_and_scipy():
    # b wins 10% after a and 35% after anyone else; seat 0 wins 30% more often (x 1.3) than the others
    def chance(seat, name, before):
        p = (0.10 if before == "a" else 0.35) if name == "b" else 0.25
        return p * (1.3 if seat == 0 else 1.0)

    df = _rows(chance)
    cells = predecessor_cells(df.drop("before"), 4)
    res = neighbour.neighbour_tests(cells)
    want = _statsmodels_lr(df)
    for key in ("seat", "before"):
        lr, dof, p = res[key]
        assert dof == want[key][1] == 3 and lr == pytest.approx(want[key][0], rel=1e-6)
        assert p == pytest.approx(want[key][2], rel=1e-5)
    assert res["before"][2] < 0.001
    per = {r["strategy"]: r for r in res["per"]}
    for name in NAMES:
        chi2, p, dof, _ = _chi2_by_before(df, name)
        assert per[name]["chi2"] == pytest.approx(chi2, rel=1e-9) and per[name]["df"] == dof
        assert per[name]["p"] == pytest.approx(p, rel=1e-6)
    assert per["b"]["p_holm"] < 0.001 and per["b"]["low"]["before"] == "a"
    # the finding names it, with the counts of b after a (Wilson interval as scipy gives it)
    after_a = df.filter((pl.col("strategy") == "b") & (pl.col("before") == "a"))
    k, n = int(after_a["won"].sum()), after_a.height
    lo, hi = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
    said = [f.text for f in neighbour.neighbour_findings(res, 0.05) if f.text.startswith("b wins less after a: ")]
    assert len(said) == 1 and said[0].startswith(
        f"b wins less after a: {k / n * 100:.1f}% ({lo * 100:.1f}–{hi * 100:.1f}%) of {n:,} games, against "), said


def test_no_neighbour_effect_no_claim_and_the_same_p_values():
    df = _rows(lambda seat, name, before: 0.25, seed=11)
    res = neighbour.neighbour_tests(predecessor_cells(df.drop("before"), 4))
    want = _statsmodels_lr(df)
    for key in ("seat", "before"):
        assert res[key][2] == pytest.approx(want[key][2], rel=1e-5)
    assert res["before"][2] > 0.05 and all(r["p_holm"] > 0.05 for r in res["per"])  # seed 11: nothing found
    said = neighbour.neighbour_findings(res, 0.05)
    assert len(said) == 1 and not said[0].significant and said[0].text.startswith(
        "The player before does not change the win rate significantly")


def test_a_strategy_that_never_wins_is_left_out_of_the_regression():
    # d never wins (separation): the tests are those of the regression without d's rows
    df = _rows(lambda seat, name, before: 0.0 if name == "d" else (0.15 if before == "a" else 0.3))
    res = neighbour.neighbour_tests(predecessor_cells(df.drop("before"), 4))
    assert res["left_out"] == ["d"]
    want = _statsmodels_lr(df.filter(pl.col("strategy") != "d"))
    for key in ("seat", "before"):
        assert res[key][2] == pytest.approx(want[key][2], rel=1e-5)


def test_rotating_seats_never_vary_the_player_before_so_nothing_is_tested():
    rows = [(g, s, NAMES[(s + g) % 4], 0.0, 1 if s == g % 4 else 2, s == g % 4) for g in range(40) for s in range(4)]
    df = pl.DataFrame(rows, schema=["game_index", "seat", "strategy", "score", "rank", "won"], orient="row")
    assert neighbour.neighbour_tests(predecessor_cells(df, 4)) is None


def test_the_seat_finding_says_whether_the_seat_effect_holds_with_the_neighbour():
    # seat 0 wins 40% and the others 20% (1,000 games, one strategy): the seat finding, then the note
    rows = []
    for g in range(1000):
        w = 0 if g % 10 < 4 else 1 + g % 3
        rows += [(g, s, "same", 0.0, 1 if s == w else 2, s == w) for s in range(4)]
    p = pl.DataFrame(rows, schema=["game_index", "seat", "strategy", "score", "rank", "won"], orient="row")
    x = fnd.Inputs(players=4, seat=summaries.win_table_tested(p, "seat"), strategy=summaries.win_table_tested(p, "strategy"),
                   chi=summaries.seat_chi_square(p), first=summaries.first_player_advantage(p),
                   h2h=summaries.head_to_head(p), components=pl.DataFrame(), min_sample=30, games=1000, complete=1000,
                   truncated=0, failed=0)
    x.neighbour = {"seat": (9.0, 3, 0.029), "before": (1.0, 3, 0.8), "left_out": [], "note": "", "per": []}
    first = fnd.findings(x)[0]
    assert first.endswith("With the strategy and the player before each seat in the model (logistic regression, "
                          "likelihood-ratio test of the seat term, 3 df, p = 0.029), the seats differ significantly: "
                          "the seat effect holds with the neighbour accounted for."), first
    x.neighbour["seat"] = (3.0, 3, 0.39)
    assert fnd.findings(x)[0].endswith("the seats do not differ significantly: the seat effect does not hold with "
                                       "the neighbour accounted for.")
