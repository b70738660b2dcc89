"""`sim tune` as a designer reads it (session 8, fresh-user finding 8): a value the sampler proposes
twice is played and promoted once; win-rate figures are in points like every other command; the
summary says when the other values' intervals overlap the best one's and where the config's own
value stands."""

from __future__ import annotations

import optuna

from sim.analysis import halving
from sim.analysis.tune_report import numbering, shown, trials_table, tune_summary
from sim.config.design import Param


def test_a_value_sampled_twice_is_played_once_and_its_result_reused():
    params = [Param("x", "int", 0, 20)]
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=0))
    for x in (5, 5, 9, 5, 2):  # asked in this order: 5 is proposed three times
        study.enqueue_trial({"x": x})
    calls, lines = [], []

    def evaluate(values, games):
        calls.append((values["x"], games))
        return abs(values["x"] - 6), float(values["x"]), values["x"] - 1.0, values["x"] + 1.0

    recs = halving.optimise(study, params, evaluate, [10, 30], 3, eta=1, echo=lines.append)
    assert sorted(x for x, g in calls if g == 10) == [2, 5, 9]  # three distinct values, each played once
    assert sorted(x for x, g in calls if g == 30) == [2, 5, 9]  # eta 1: all go on, none twice
    assert sorted(r.params["x"] for r in recs) == [2, 5, 9]
    assert sum("again: the result of trial 1 is reused" in line for line in lines) == 2
    # the study learnt the repeated value's result for the repeats (loss |5 - 6| = 1)
    assert [t.value for t in study.trials[:4]] == [1, 1, 3, 1]


def test_win_rate_figures_are_points_and_metrics_keep_their_digits():
    assert shown("first_player_advantage", 0.07118) == "+7.1"
    assert shown("first_player_advantage", -0.0156) == "-1.6"
    assert shown("seat_spread", 0.125) == "12.5"
    assert shown("metric", 24.6789) == "24.68"
    trial = {"number": 4, "params": {"options.end_card_depth": 15}, "games": 144, "figure": 0.07118,
             "ci": (0.001693, 0.1458), "loss": 0.07118}
    row = trials_table([trial], "fpa", kind="first_player_advantage").row(0, named=True)
    assert row["fpa"] == "+7.1 (+0.2 to +14.6)" and row["loss"] == "+7.1"


def _result(own):
    def trial(n, depth, games, fig, lo, hi):
        return {"number": n, "params": {"options.end_card_depth": depth}, "games": games, "figure": fig,
                "ci": [lo, hi], "loss": abs(fig)}
    trials = [trial(4, 15, 144, 0.071, 0.002, 0.146), trial(3, 10, 48, 0.094, -0.016, 0.193),
              trial(2, 7, 48, 0.151, 0.150, 0.271)]
    return {"best": {"options.end_card_depth": 15}, "objective": 0.0226, "ci": [-0.0451, 0.0886],
            "target": {"kind": "first_player_advantage", "value": 0.0, "describe": "first-player advantage = 0 points"},
            "confirm": {"games": 144, "seed": 7}, "edges": [], "trials": trials, "config_values": own}


def test_the_summary_says_the_intervals_overlap_and_where_the_config_value_stands():
    text = tune_summary(_result({"options.end_card_depth": 10}))
    assert "is +2.3 points (95% CI -4.5 to +8.9). The target 0 points is inside" in text
    # 10's interval (-1.6 to +19.3) overlaps 15's (+0.2 to +14.6); 7's (+15.0 to +27.1) does not
    assert "1 of the 2 other values tried has an interval overlapping it" in text
    assert "not a significantly better one" in text
    assert "The config's own value (options.end_card_depth = 10) gave +9.4 points (95% CI -1.6 to +19.3) on 48" \
           " games: not shown worse." in text
    assert "was not among the trials" in tune_summary(_result({"options.end_card_depth": 12}))
    assert "The best value is the config's own" in tune_summary(_result({"options.end_card_depth": 15}))


def test_a_range_with_fewer_values_than_trials_is_played_as_a_grid():
    """end_tokens 5..7 holds 3 values: asking 5 trials plays those 3, said so, not 5 counted
    (breaker trial 2, session 9: TPE sampled values again and the progress counted 1/5, 2/5, 3/5)."""
    sampler, n, how = halving.sampler_for([Param("options.end_tokens", "int", 5, 7)], trials=5, grid_max=2, seed=1)
    assert isinstance(sampler, optuna.samplers.GridSampler) and n == 3
    assert "grid of all 3 combinations" in how and "5 trials" in how
    # a range larger than both grid_max and trials stays TPE with the trials asked
    sampler, n, how = halving.sampler_for([Param("options.end_tokens", "int", 1, 40)], trials=5, grid_max=2, seed=1)
    assert isinstance(sampler, optuna.samplers.TPESampler) and n == 5


def test_discover_progress_prints_win_rates_in_percent_without_a_loss():
    """Breaker trial 2 leftover 8 (session 9): discover's lines read `-> 0.5833 (95% CI 0.3195 to
    0.8067), loss -0.5833`; a win rate of 7 of 12 games is 58.3%, as every other command prints it."""
    rec = halving.Record(0, {"strategies.1.params.min_goods": 2}, {12: (-7 / 12, 7 / 12, 0.32, 0.807)})
    line = halving._line(rec, 12, "trial 1 (1/4 values)", lambda v: f"{v * 100:.1f}", "%", with_loss=False)
    assert line == "trial 1 (1/4 values) (12 games): min_goods=2 -> 58.3% (95% CI 32.0 to 80.7)"


def test_discover_progress_lines_are_in_percent(tmp_path):
    from click.testing import CliRunner

    from sim.cli import cli

    (tmp_path / "d.yaml").write_text(
        "game: traders_of_osaka\nplayers: 2\ngames: 4\nseed: 3\nseating: rotate\njobs: 1\n"
        "strategies: [osaka.trader, random]\ndiscover: {seat: 0, params: {min_goods: [1, 2], insure_at: {choice: [2]}},"
        " max_games: 4, confirm_games: 4}\n")
    res = CliRunner().invoke(cli, ["discover", str(tmp_path / "d.yaml"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("trial ")]
    assert len(lines) == 2 and all("% (95% CI" in line and "loss" not in line for line in lines), lines


def test_discover_trials_table_is_in_percent_with_one_decimal_and_no_loss():
    """Fresh-user finding 13 (session 10): a 0-win trial read "0 (0–9.181)" beside "54.72 (49.56–59.79)"."""
    trials = [{"number": 18, "params": {"strategies.0.params.min_goods": 5}, "games": 360, "figure": 0.5472222,
               "ci": [0.4955746, 0.5978726], "loss": -0.5472222},
              {"number": 1, "params": {"strategies.0.params.min_goods": 6}, "games": 40, "figure": 0.0,
               "ci": [0.0, 0.09181], "loss": 0.0}]
    t = trials_table(trials, "win rate (%)", kind="win_rate")
    assert t.columns == ["trial", "min_goods", "games", "win rate (%)"]
    assert t["win rate (%)"].to_list() == ["54.7 (49.6–59.8)", "0.0 (0.0–9.2)"]
    assert t["trial"].to_list() == [19, 2]


def test_the_report_explains_the_gaps_in_trial_numbers():
    # Optuna numbers 0..5 shown as 1..6; numbers 1 and 4 (shown 2 and 5) were repeats, never played
    trials = [{"number": n} for n in (5, 0, 2, 3)]
    note = numbering(trials)
    assert "4 distinct values" in note and "2 time(s) (trial 2, 5)" in note and "reused" in note
    assert numbering([{"number": n} for n in (1, 0)]) == ""  # no gap: nothing to explain
