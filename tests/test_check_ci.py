"""``sim check`` usable in nightly CI (fresh-user trial, session 10, findings 3, 4, 5, 12, 14): the
shipped nightly config decidable at its own size, strategy checks that leave out the baseline,
unknown check names listed, an estimate of the games that decide the first-player advantage and
Balance, and ``sim compare --fail-on-difference`` to fail when a run drifts from a reference."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
import yaml
from click.testing import CliRunner
from scipy.stats import binomtest, norm

from sim.analysis.checks import evaluate, games_by_width, games_to_decide
from sim.cli import cli

NIGHTLY = Path(__file__).resolve().parent.parent / "configs" / "traders_of_osaka" / "nightly.yaml"


def _ends(count: int, games: int) -> pl.DataFrame:
    return pl.DataFrame({"reason": ["finished", "round_cap"], "count": [games - count, count],
                         "games": [games, games], "confidence": [0.95, 0.95]})


def _wilson_high(k: int, n: int) -> float:
    return binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson").high


def test_the_nightly_truncation_ceiling_is_decidable_at_the_configs_own_size():
    cfg = yaml.safe_load(NIGHTLY.read_text())
    n, thr = cfg["games"], cfg["checks"]["max_truncated_share"]
    # the reason for the change: 0 of n gives the upper end z^2 / (n + z^2) (scipy's Wilson interval)
    z2 = norm.ppf(0.975) ** 2
    assert _wilson_high(0, n) == pytest.approx(z2 / (n + z2)) and 0.0019 < z2 / (n + z2) < 0.0020
    assert _wilson_high(0, n) > 0.001  # the old ceiling: never decided at 2016 games with none truncated
    assert _wilson_high(0, n) <= thr and _wilson_high(3, n) <= thr < _wilson_high(4, n)  # as the comment says
    for count, status in ((0, "pass"), (3, "pass"), (4, "inconclusive"), (17, "fail")):
        r = evaluate({"max_truncated_share": {"threshold": thr}}, {"end_reasons": _ends(count, n)}, n, 0)[0]
        assert r.status == status, (count, r.line())


def test_zero_count_games_needed_agrees_with_scipy_and_is_rounded_up():
    # Wilson with 0 events: 3,837 games leave the upper end above 0.1%, 3,838 bring it to or below
    assert _wilson_high(0, 3837) > 0.001 >= _wilson_high(0, 3838)
    assert games_to_decide(0.0, 2016, 0.001, "max", 0.95) == 3838
    r = evaluate({"max_truncated_share": {"threshold": 0.001}}, {"end_reasons": _ends(0, 2016)}, 2016, 0)[0]
    assert r.status == "inconclusive"
    assert r.detail.endswith("about 3,900 games in all would decide it (if the share stays as observed)")  # not 3,800


def _strategies(rates: dict[str, tuple[float, float, float]]) -> pl.DataFrame:
    return pl.DataFrame({"strategy": list(rates), "games": [300] * len(rates), "wins": [0] * len(rates),
                         "win_rate": [v[0] for v in rates.values()], "ci_low": [v[1] for v in rates.values()],
                         "ci_high": [v[2] for v in rates.values()]})


STRATS = {"random": (0.0, 0.0, 0.0126), "trader": (0.45, 0.39, 0.51), "shipper": (0.55, 0.49, 0.61)}


@pytest.mark.parametrize("spec, status, said", [
    ({}, "fail", ""),                                                # judged on random's 0%
    ({"exclude": ("random",)}, "pass", "random left out"),
    ({"strategies": ("trader", "shipper")}, "pass", "judged on trader, shipper"),
    ({"strategies": ("random",)}, "fail", "judged on random"),
])
def test_a_strategy_check_judges_the_strategies_it_names(spec, status, said):
    r = evaluate({"min_strategy_win_rate": {"threshold": 0.05, **spec}}, {"strategy": _strategies(STRATS)}, 300, 0)[0]
    assert r.status == status and said in r.detail
    if spec.get("exclude"):
        assert r.subject == "strategy trader"  # the worst of those judged: the lower end nearest 5%


def test_a_strategy_check_naming_no_strategy_of_the_run_fails_and_says_why():
    # e.g. a sweep point whose line-up lost the label: no evidence fails, as "no complete game" does
    r = evaluate({"min_strategy_win_rate": {"threshold": 0.05, "strategies": ("gone",)}},
                 {"strategy": _strategies(STRATS)}, 300, 0)[0]
    assert r.status == "fail" and r.detail == "judged on gone: no such strategy in this run"


def _config(tmp_path: Path, checks: str, strategies: str = "[random, osaka.trader, osaka.shipper]") -> Path:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"game: traders_of_osaka\nplayers: 3\ngames: 12\nseed: 1\nstrategies: {strategies}\n"
                   f"checks:\n{checks}\n")
    return cfg


@pytest.mark.parametrize("checks, want", [
    ("  min_strategy_win_rate: {threshold: 0.05, exclude: [randon]}",
     "line 7, key 'checks.min_strategy_win_rate.exclude': 'randon' is not a strategy label of this config"
     " (did you mean 'random'?); the line-up's labels are: random, osaka.trader, osaka.shipper"),
    ("  max_strategy_win_rate: {threshold: 0.5, strategies: [trader]}",
     "key 'checks.max_strategy_win_rate.strategies': 'trader' is not a strategy label"),
    ("  max_seat_win_rate: {threshold: 0.5, exclude: random}",
     "exclude applies to the strategy checks (max_strategy_win_rate, min_strategy_win_rate), not to max_seat_win_rate"),
    ("  min_strategy_win_rate: {threshold: 0.05, exclude: [random], strategies: [osaka.trader]}",
     "give either strategies: (the labels judged) or exclude: (the labels left out), not both"),
    ("  min_strategy_win_rate: {threshold: 0.05, exclude: [random, osaka.trader, osaka.shipper]}",
     "exclude leaves no strategy to judge"),
])
def test_bad_strategy_labels_are_refused_naming_file_key_and_line_up(tmp_path, checks, want):
    cfg = _config(tmp_path, checks)
    for command in (["validate", str(cfg)], ["check", str(cfg), "--out", str(tmp_path / "o"), "--quiet"]):
        res = CliRunner().invoke(cli, command)
        assert res.exit_code == 2 and str(cfg) in res.output and want in res.output, res.output
    assert not (tmp_path / "o").exists()  # refused before any game is played


def test_exclude_as_a_single_label_and_the_check_line(tmp_path):
    cfg = _config(tmp_path, "  min_strategy_win_rate: {threshold: 0.0, exclude: random}")
    res = CliRunner().invoke(cli, ["check", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--figures", "never"])
    assert res.exit_code == 0, res.output  # a threshold of 0 passes every interval
    assert "PASS min_strategy_win_rate: strategy osaka." in res.output and "; random left out" in res.output
    # the run folder keeps it (config.json), so `sim check --run` of the folder judges the same strategies
    again = CliRunner().invoke(cli, ["check", "--run", str(tmp_path / "o"), "--figures", "never"])
    assert again.exit_code == 0 and "; random left out" in again.output, again.output


def test_a_check_without_labels_is_written_as_before():
    from sim.config import CheckSpec

    assert CheckSpec.model_validate(0.3).model_dump_json() == '{"threshold":0.3,"strict":true}'
    spec = CheckSpec.model_validate({"threshold": 0.1, "exclude": "random"})
    assert CheckSpec.model_validate_json(spec.model_dump_json()).exclude == ("random",)


def test_an_unknown_check_name_lists_the_valid_names(tmp_path):
    res = CliRunner().invoke(cli, ["validate", str(_config(tmp_path, "  max_seat_win_rat: 0.3"))])
    assert res.exit_code == 2
    assert "key 'checks.max_seat_win_rat': unknown key (did you mean 'max_seat_win_rate'?); the checks are:" \
           " max_seat_win_rate, min_seat_win_rate, max_strategy_win_rate, min_strategy_win_rate," \
           " max_first_player_advantage, max_truncated_share, max_stalled, max_failed_games, min_balance," \
           " max_drawishness, min_completion" in res.output


def test_games_by_width_by_hand():
    # advantage +3 pp (+1 to +5) on 1000 games against ±4 pp: the upper arm 2 pp must shrink into the
    # 1 pp left: sqrt(1000/n') = 1/2, n' = 4000; the lower arm (2 pp into 7 pp) needs fewer
    assert games_by_width(1000, 0.03, 0.01, 0.05, (-0.04, 0.04)) == 4000
    # −6 pp (−9 to −3) against ±4 pp: fails once the upper arm 3 pp fits in the 2 pp beyond −4 pp: n' = 1000 * 2.25
    assert games_by_width(1000, -0.06, -0.09, -0.03, (-0.04, 0.04)) == 2250
    # Balance 0.90 (0.80 to 0.98) against min 0.85 on 500 games: the lower arm 0.10 into 0.05: n' = 500 * 4
    assert games_by_width(500, 0.90, 0.80, 0.98, (0.85, math.inf)) == 2000
    # Balance 0.84 (0.76 to 0.88), min 0.85: fails once the upper arm 0.04 fits in 0.01: n' = 500 * 16
    assert games_by_width(500, 0.84, 0.76, 0.88, (0.85, math.inf)) == 8000
    assert games_by_width(500, 0.85, 0.80, 0.90, (0.85, math.inf)) is None  # on the threshold


def test_inconclusive_first_player_and_balance_lines_give_the_estimate():
    fp = pl.DataFrame([{"rate": 0.28, "ci_low": 0.26, "ci_high": 0.30, "expected": 0.25, "advantage": 0.03,
                        "adv_low": 0.01, "adv_high": 0.05, "p": 0.01, "games": 1000, "wins": 280}])
    ludii = pl.DataFrame({"figure": ["Balance"], "value": [0.90], "ci_low": [0.80], "ci_high": [0.98], "games": [1000]})
    tables = {"first_player": fp, "ludii": ludii}
    res = evaluate({"max_first_player_advantage": {"threshold": 0.04}, "min_balance": {"threshold": 0.85}},
                   tables, 1000, 0)
    est = "games in all would decide it (an estimate: the interval's half-width scaled by sqrt(n/n'), if"
    assert [r.status for r in res] == ["inconclusive", "inconclusive"]
    assert f"about 4,000 {est} the advantage stays as observed)" in res[0].line()
    assert f"about 4,000 {est} Balance stays as observed)" in res[1].line()  # 1000 * (0.10 / 0.05)^2


def test_check_help_says_games_and_max_games_apply_to_until_decided():
    out = " ".join(CliRunner().invoke(cli, ["check", "--help"]).output.split())
    assert "(with --until-ci or sim check --until-decided: the first batch)" in out
    assert "With --until-ci or sim check --until-decided: stop at this many games" in out


def test_compare_fail_on_difference(tmp_path):
    cfg = tmp_path / "d.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 120\nseed: 5\njobs: 1\n"
                   "strategies: [osaka.trader, osaka.shipper]\n")
    r = CliRunner()
    for out, extra in (("ref", []), ("same", []), ("seed", ["--seed", "6"]), ("one", ["--option", "end_tokens=1"])):
        res = r.invoke(cli, ["run", str(cfg), "--out", str(tmp_path / out), "--quiet", "--figures", "never", *extra])
        assert res.exit_code == 0, res.output

    def compare(b: str, *flags: str):
        return r.invoke(cli, ["compare", str(tmp_path / "ref"), str(tmp_path / b), "--out", str(tmp_path / f"c-{b}"),
                              *flags])

    # the game ends at the first achievement token instead of the eighth: scores fall by a dozen points
    res = compare("one", "--fail-on-difference")
    assert res.exit_code == 1 and "--fail-on-difference:" in res.output and "differ significantly" in res.output
    assert "strategy osaka.trader mean_score" in res.output
    assert compare("one").exit_code == 0  # without the flag, as before
    res = compare("same", "--fail-on-difference")  # the same games (paired): every difference 0
    assert res.exit_code == 0 and "none of 8 rows differs significantly" in res.output
    res = compare("seed", "--fail-on-difference")  # other games of the same rules (unpaired)
    assert res.exit_code == 0, res.output
    bad = r.invoke(cli, ["compare", str(tmp_path / "ref"), str(tmp_path / "nowhere"), "--fail-on-difference"])
    assert bad.exit_code == 2


@pytest.mark.integration
def test_until_decided_names_a_lenient_check_left_undecided_instead_of_calling_every_check_decided(tmp_path):
    """Fresh-user finding 5 (session 10): "stopped: every check decided" followed by an UNDECIDED
    line. Trader against random in 2 seats, rotated: each seat wins about half, so a 50% ceiling on a
    seat's win rate cannot be decided (strict: false: it passes undecided); no failed game is decided
    at once. The run stops after its first batch and says which check is still undecided."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 20\nseed: 5\njobs: 1\n"
                   "strategies: [{name: osaka.trader}, {name: random}]\n"
                   "checks:\n  max_seat_win_rate: {threshold: 0.5, strict: false}\n  max_failed_games: 0\n")
    res = CliRunner().invoke(cli, ["check", str(cfg), "--until-decided", "--max-games", "80", "--out",
                                   str(tmp_path / "o"), "--quiet", "--figures", "never"])
    assert res.exit_code == 0, res.output
    assert "every check decided" not in res.output
    assert "every strict check decided after 20 games (max_seat_win_rate still undecided" in res.output
    assert "UNDECIDED (passes: strict is false) max_seat_win_rate" in res.output


def test_an_estimate_without_an_interval_is_inconclusive_not_judged_on_the_point():
    # breaker trial 2 (session 10): one deal under permute has no spread, so no interval; a 50% seat
    # against a 32% ceiling must not fail on the point estimate alone (nor pass a floor)
    from sim.analysis.checks import judge

    assert judge("max", 0.5, math.nan, math.nan, 0.32) == "inconclusive"
    assert judge("min", 0.5, math.nan, math.nan, 0.18) == "inconclusive"
    assert judge("max", 0.5, 0.45, 0.55, 0.32) == "fail" and judge("min", 0.5, 0.45, 0.55, 0.18) == "pass"
    assert judge("max", math.nan, math.nan, math.nan, 0.32) == "fail"  # no estimate at all: no evidence
