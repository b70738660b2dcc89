"""Session 8 trial findings on wrong or contradictory figures: pairing of runs whose deals differ
(breaker 1), ... Expected values are derived by hand, never copied from program output."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.analysis import compare as cmp
from sim.analysis.compare_report import headline
from sim.analysis.tables import RunTables


def _permuted(seed: int, k: int, winners: list[int]) -> RunTables:
    """Two seats, seating permute, ``k`` games per deal: game g is deal g // k; seat w of game g wins."""
    n = len(winners)
    players = pl.DataFrame([(g, s, f"s{s}", float(s == w), 1 if s == w else 2, s == w)
                            for g, w in enumerate(winners) for s in range(2)],
                           schema=["game_index", "seat", "strategy", "score", "rank", "won"], orient="row")
    games = pl.DataFrame({"game_index": range(n), "failed": [False] * n, "truncated": [False] * n,
                          "n_winners": [1] * n, "deal_index": [g // k for g in range(n)]})
    config = {"game": "g", "players": 2, "seed": seed, "seating": "permute"}
    return RunTables(games, players, pl.DataFrame(), pl.DataFrame(), config, {"deal_size": k}, run_dir=Path("r"))


def test_runs_with_other_deal_sizes_are_not_paired():
    # breaker 1: same seed, seating permute and game indices, but 6 games per deal in A and 12 in B:
    # game 6 is deal 1 in A and deal 0 in B, another shuffle. Unpaired, and both permute: seat and
    # strategy rows by Welch over deals (breaker trial 2, session 10: strategy score rows over games
    # gave false differences between seeds); Welch over deals itself is tested against scipy in
    # test_deal_seats.py.
    wa, wb = [0] * 40 + [1] * 60, [0] * 60 + [1] * 40
    c = cmp.compare_runs(_permuted(1, 6, wa), _permuted(1, 12, wb))
    assert not c.paired and "6 and 12 games per deal" in c.why
    row = next(r for r in c.rows if r["group"] == "strategy" and r["label"] == "s0" and r["metric"] == "win_rate")
    assert row["test"].startswith("Welch t-test over deals") and (row["a"], row["b"]) == (0.4, 0.6)  # s0 wins 40 of 100, then 60
    seat = next(r for r in c.rows if r["group"] == "seat" and r["label"] == "0" and r["metric"] == "win_rate")
    assert seat["test"].startswith("Welch t-test over deals")  # permute: the deal is the unit (session 10)
    said = " ".join(headline(c, "A", "B"))
    assert "Unpaired" in said and "luck cancels" not in said


def test_runs_whose_deal_of_a_game_differs_are_not_paired_even_without_a_deal_size():
    a, b = _permuted(1, 6, [0, 1] * 30), _permuted(1, 12, [0, 1] * 30)
    a.manifest, b.manifest = {}, {}
    c = cmp.compare_runs(a, b)
    assert not c.paired and "game 6 is deal 1 in A and 0 in B" in c.why  # 6 // 6 = 1, 6 // 12 = 0


def test_runs_with_the_same_deals_stay_paired():
    wa, wb = [0] * 40 + [1] * 60, [0] * 60 + [1] * 40
    c = cmp.compare_runs(_permuted(1, 6, wa), _permuted(1, 6, wb))
    assert c.paired and "deals" in c.why


def test_a_sweep_names_the_points_it_could_not_pair():
    from sim.analysis.sweep_compare import sentences

    rows = [{"point_label": lab, "group": "seat", "label": "0", "metric": "win_rate", "diff": 0.0, "ci_low": -0.1,
             "ci_high": 0.1, "p_value": 1.0, "p_adjusted": 1.0, "significant": False, "test": "t",
             "paired": paired, "identical": False, "why": why}
             for lab, paired, why in (("players=3", False, "other deals (2 and 6 games per deal)"),
                                      ("players=4", True, "same"))]
    first = sentences(pl.DataFrame(rows), "players=2", 0.95)[0]
    assert "unpaired where they did not (players=3: other deals (2 and 6 games per deal)" in first
    assert "common random numbers" not in first


# ------------------------------------------------------------------ fresh-user 1 and 2: one seat answer, one precision figure

def _seat_inputs(wins: list[int], strategies: int = 1):
    """Rows of ``sum(wins)`` games at ``len(wins)`` seats: seat s wins ``wins[s]`` of them."""
    from tests.test_verdicts import _inputs

    win = [s for s, k in enumerate(wins) for _ in range(k)]
    rows = [(g, s, f"p{(s + g) % strategies}", 0.0, 1 if s == w else 2, s == w)
            for g, w in enumerate(win) for s in range(len(wins))]
    return _inputs(rows, len(wins))


def _wilson_reach(wins: list[int]) -> float:
    """The farthest end of any seat's Wilson interval from the fair share 1 / seats (statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint

    n, e = sum(wins), 1 / len(wins)
    return max(max(abs(lo - e), abs(hi - e)) for lo, hi in (proportion_confint(k, n, method="wilson") for k in wins))


def test_a_significant_first_player_question_leads_the_verdict_when_the_chi_square_is_not():
    # 400 games won 120/95/95/90 by seats 0-3: chi-square (400 + 25 + 25 + 100) / 100 = 5.5 on 3 df, not
    # significant; seat 0 asked alone, binomtest(120, 400, 0.25), is (p = 0.026 by scipy)
    from scipy.stats import binomtest, chisquare

    from sim.analysis import findings as fnd

    wins = [120, 95, 95, 90]
    p_chi, p0 = chisquare(wins).pvalue, binomtest(120, 400, 0.25).pvalue
    assert p_chi > 0.05 and p0 < 0.05
    x = _seat_inputs(wins)
    v = fnd.verdict(x)
    assert v.startswith("Verdict: seat 0 (the start player) wins 5.0 points more than a fair share (95% CI "), v
    assert (f"binomial test of seat 0 alone p = {p0:.3f}; the seats together do not differ significantly, chi-square "
            f"p = {p_chi:.3f}; weak evidence, see the findings)") in v  # session 10: the chi-square does not back it
    found = fnd.findings(x)
    assert not any("No significant seat advantage" in f for f in found)
    seat = next(f for f in found if f.startswith("The seats together do not differ significantly"))
    assert f"every seat's win rate lies within ±{_wilson_reach(wins) * 100:.1f} points of a fair share" in seat


def test_verdict_and_seat_finding_give_one_precision_figure():
    # 400 games won 100/100/105/95: nothing significant; the verdict and the seat finding both give
    # the farthest end of a seat's Wilson interval from 25%
    from sim.analysis import findings as fnd

    wins = [100, 100, 105, 95]
    x = _seat_inputs(wins)
    reach = f"±{_wilson_reach(wins) * 100:.1f} points"
    assert fnd.verdict(x) == (f"Verdict: no seat wins significantly more or less than a fair share, and every seat "
                              f"lies within {reach} of it (95% intervals, 1,000 complete games).")
    assert any(f"every seat's win rate lies within {reach} of a fair share (95% intervals)" in f for f in fnd.findings(x))


def test_skill_refuses_one_player_tables(tmp_path):
    # breaker 2: alone at a table every strategy wins every game, so a ranking by win rate says nothing
    from click.testing import CliRunner

    from sim.cli import cli

    res = CliRunner().invoke(cli, ["skill", "alpenzian", "--players", "1", "--games", "4", "--out", str(tmp_path / "sk")])
    assert res.exit_code == 2, res.output
    assert "--players must be at least 2 for a round robin, got 1" in res.output and not (tmp_path / "sk").exists()


# ------------------------------------------------------------------ fresh-user 11: p-values that round onto 0.05

def test_p_values_rounding_onto_a_threshold_get_more_digits():
    # 0.0497 < 0.05 is significant at 95%; three decimals would print it as the threshold itself
    from sim.analysis.document import p_text
    from sim.analysis.wording import pval

    assert pval(0.0497) == "p = 0.0497" and p_text(0.0497) == "0.0497"
    assert p_text(0.0503) == "0.0503" and p_text(0.00996) == "0.00996"  # 0.010 is a threshold too (99%)
    assert p_text(0.049996) == "0.049996"  # 0.050 and 0.0500 both sit on the threshold
    assert p_text(0.05) == "0.050" and p_text(0.098) == "0.098" and p_text(0.0442) == "0.044"
    assert p_text(0.5) == "0.500" and p_text(0.9996) == "1.000" and pval(0.0004) == "p < 0.001"


def test_a_chi_square_just_below_005_is_printed_below_it():
    # 420 games won 129/91/100/100: chi-square (24² + 14² + 5² + 5²) / 105 = 822 / 105 = 7.83 on 3 df,
    # p = 0.0497 (scipy): significant, and printed so (three decimals would say 0.050)
    from scipy.stats import chisquare

    from sim.analysis import findings as fnd

    p = chisquare([129, 91, 100, 100]).pvalue
    assert 0.0495 < p < 0.05
    assert any(f"(chi-square over the 4 seats 7.8, p = {p:.4f})" in f for f in fnd.findings(_seat_inputs([129, 91, 100, 100])))


# ------------------------------------------------------------------ fresh-user 6, breaker 15: what a sweep says

def test_point_labels_use_yaml_spelling_and_name_the_key():
    from sim.config.grid import key_names, point_label
    from sim.data import yaml_value

    assert [yaml_value(v) for v in (True, False, None, 3, "x", [1, 2])] == ["true", "false", "null", "3", "x", "[1, 2]"]
    assert point_label({"options.advanced": True}) == "advanced=true"
    keys = ["strategies.0.params.min_goods", "strategies.1.params.min_goods", "options.end_tokens"]
    assert key_names(keys) == dict(zip(keys, ["strategies.0.min_goods", "strategies.1.min_goods", "end_tokens"],
                                       strict=True))


def test_sweep_prints_its_findings_and_tells_two_strategies_apart(tmp_path):
    from click.testing import CliRunner

    from sim.cli import cli

    cfg = tmp_path / "s.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 4\nseed: 3\nstrategies: [osaka.trader, osaka.trader]\n"
                   "sweep:\n  strategies.0.params.min_goods: [1, 3]\n  strategies.1.params.min_goods: [1]\n")
    res = CliRunner().invoke(cli, ["sweep", str(cfg), "--out", str(tmp_path / "sw"), "--quiet", "--no-point-reports",
                                   "--figures", "never"])
    assert res.exit_code == 0, res.output
    base = "strategies.0.min_goods=1, strategies.1.min_goods=1"
    assert f"Each point is compared with the baseline point {base} game by game" in res.output
    assert "Mean scores differ significantly from the baseline in" in res.output
    md = (tmp_path / "sw" / "report.md").read_text()
    assert "strategies.0.min_goods=3, strategies.1.min_goods=1" in md and "min_goods=1, min_goods=3" not in md


# ------------------------------------------------------------------ breaker 12: impossible tune targets

TUNE = ("game: traders_of_osaka\nplayers: 2\ngames: 8\nseed: 1\nstrategies: [osaka.trader, random]\n"
        "tune:\n  params: {options.end_tokens: [6, 10]}\n")


def _validate(tmp_path, target: str):
    from click.testing import CliRunner

    from sim.cli import cli

    cfg = tmp_path / "t.yaml"
    cfg.write_text(TUNE + f"  target: {target}\n")
    return CliRunner().invoke(cli, ["validate", str(cfg)])


def test_tune_refuses_a_first_player_advantage_no_game_can_reach(tmp_path):
    # 2 players: seat 0 always winning gives 1 - 1/2 = 0.5 over the pooled share, the most possible
    res = _validate(tmp_path, "{first_player_advantage: 0.9}")
    assert res.exit_code == 2 and "line 8, key 'tune.target.first_player_advantage'" in res.output, res.output
    assert "between -0.5 and 0.5" in res.output
    assert _validate(tmp_path, "{first_player_advantage: 0.5}").exit_code == 0


def test_tune_refuses_more_winners_than_players_and_a_gap_to_itself(tmp_path):
    res = _validate(tmp_path, "{metric: n_winners, value: 5}")
    assert res.exit_code == 2 and "key 'tune.target.value'" in res.output and "between 0 and 2" in res.output, res.output
    res = _validate(tmp_path, "{strategy_gap: [osaka.trader, osaka.trader]}")
    assert res.exit_code == 2 and "strategy_gap needs two different strategies" in res.output, res.output
    assert "line 8" in res.output
