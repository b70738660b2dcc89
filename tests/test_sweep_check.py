"""`sim sweep` (same seeds at every point), `sim run --until-ci`, `sim check` (exit status, JUnit),
and the config keys `sweep:` and `checks:`."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET

import polars as pl
import pytest
from click.testing import CliRunner

from sim.checks import evaluate
from sim.cli import cli

BASE = """\
game: traders_of_osaka
players: 3
games: 40
seed: 11
strategies:
  - {name: osaka.trader}
  - {name: osaka.shipper, params: {min_set: 3}}
  - {name: random}
"""


def write(tmp_path, text, name="c.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


TABLES = ("games", "players", "metrics")


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("base")
    res = invoke("run", write(tmp, BASE), "--out", tmp / "run", "--quiet")
    assert res.exit_code == 0, res.output
    return tmp / "run"


# ------------------------------------------------------------------ sweeps

def test_sweep_uses_the_same_game_seeds_at_every_point(tmp_path, baseline):
    cfg = write(tmp_path, BASE + "sweep:\n  options.end_tokens: [8, 5]\n"
                                 "  data.cards.achievement_tokens_per_colour: [12]\n")
    res = invoke("sweep", cfg, "--out", tmp_path / "sw", "--quiet", "--no-point-reports",
                 "--figure", "seat_win_rate", "--figure", "game_length")
    assert res.exit_code == 0, res.output
    sw = tmp_path / "sw"
    meta = json.loads((sw / "sweep.json").read_text())
    assert [p["values"] for p in meta["points"]] == [
        {"options.end_tokens": 8, "data.cards.achievement_tokens_per_colour": 12},
        {"options.end_tokens": 5, "data.cards.achievement_tokens_per_colour": 12}]
    # point 0 equals the baseline (default end_tokens 8, a data copy with the default value): same games exactly
    for t in TABLES:
        assert pl.read_parquet(sw / "point-000" / f"{t}.parquet").equals(pl.read_parquet(baseline / f"{t}.parquet")), t
    # every point: the same root seed and game indices, so the same streams and seating per game
    cfgs = [json.loads((sw / f"point-00{i}" / "config.json").read_text()) for i in (0, 1)]
    assert cfgs[0]["seed"] == cfgs[1]["seed"] == 11 and cfgs[1]["options"]["end_tokens"] == 5
    p0, p1 = (pl.read_parquet(sw / f"point-00{i}" / "players.parquet") for i in (0, 1))
    assert p0.select("game_index", "seat", "strategy").equals(p1.select("game_index", "seat", "strategy"))
    from sim.config import RunConfig
    from sim.runner import _setup, play_one

    # replaying game 3 at both points: the first chance draws (deal) come from the same stream
    logs = []
    for c in cfgs:
        rc, game, strategies = _setup(RunConfig.model_validate(c).to_json())
        result, _ = play_one(rc, game, strategies, 3, record=True)
        logs.append([a for p, a in result.log[:5] if p == -1])
    assert logs[0] and logs[0] == logs[1]
    table = pl.read_parquet(sw / "sweep.parquet")
    assert set(table["seed"]) == {11} and set(table["figure"]) >= {"seat_win_rate", "game_length", "balance"}
    # shorter games at end_tokens 5 (with intervals)
    gl = table.filter(pl.col("figure") == "game_length").sort("point")
    assert gl["value"][1] < gl["value"][0] and (gl["ci_low"] <= gl["value"]).all()
    md = (sw / "report.md").read_text()
    assert "## Win rate by seat" in md and "## Game length" in md and "## Balance" not in md  # only chosen figures
    assert (sw / "figures" / "sweep_seat_win_rate.png").stat().st_size > 5000
    assert (sw / "report.html").read_text().count("data:image/png;base64,") == 2


BAD_SWEEPS = [
    ("unknown option", "sweep:\n  options.income: [12, 15]\n", r"line 10, key 'sweep.options.income': unknown option 'income'"),
    ("bad option value", "sweep:\n  options.end_tokens: [8, zero]\n", r"line 10, key 'sweep.options.end_tokens.1'.*must be a number, got 'zero'"),
    ("no prefix", "sweep:\n  end_tokens: [8]\n", r"key 'sweep.end_tokens'.*starts with 'options.' or 'data.'"),
    ("empty list", "sweep:\n  options.end_tokens: []\n", r"key 'sweep.options.end_tokens': give at least one value"),
    ("data path", "sweep:\n  data.cards.nothing: [1]\n", r"key 'sweep.data.cards.nothing'.*'nothing' is not in the data file"),
    ("data file", "sweep:\n  data.rules.x: [1]\n", r"key 'sweep.data.rules.x'.*no data file 'rules'"),
    ("not a list", "sweep:\n  options.end_tokens: 8\n", r"line 10, key 'sweep.options.end_tokens': Input should be a valid list"),
]


@pytest.mark.parametrize("label,extra,message", BAD_SWEEPS, ids=[b[0] for b in BAD_SWEEPS])
def test_sweep_config_errors_name_line_and_key(tmp_path, label, extra, message):
    res = invoke("sweep", write(tmp_path, BASE + extra), "--out", tmp_path / "never", "--quiet")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert re.search(message, res.output), res.output
    assert not (tmp_path / "never").exists()


def test_sweep_point_with_invalid_data_is_named(tmp_path):
    res = invoke("sweep", write(tmp_path, BASE + "sweep:\n  data.cards.total_cards: [108, 100]\n"),
                 "--out", tmp_path / "sw", "--quiet", "--no-point-reports")
    assert res.exit_code == 2 and "sweep point 1 (100)" in res.output and "total_cards is 100" in res.output


def test_sweep_without_sweep_key_is_bad_input(tmp_path):
    res = invoke("sweep", write(tmp_path, BASE), "--out", tmp_path / "sw")
    assert res.exit_code == 2 and "no 'sweep:' key" in res.output


# ------------------------------------------------------------------ until-ci

def test_until_ci_continues_the_same_games_and_states_the_rule(tmp_path):
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 30"))
    res = invoke("run", cfg, "--out", tmp_path / "u", "--quiet", "--until-ci", "0.13", "--max-games", "400")
    assert res.exit_code == 0, res.output
    stop = json.loads((tmp_path / "u" / "stopping.json").read_text())
    n = stop["games"]
    assert stop["met"] and len(stop["batches"]) >= 2 and stop["batches"][0]["games"] == 30 and 30 < n <= 400
    assert stop["batches"][-1]["widest_half_width"] <= 0.13 < stop["batches"][0]["widest_half_width"]
    assert "stopping rule: --until-ci 0.13" in res.output
    md = (tmp_path / "u" / "report.md").read_text()
    assert "## Stopping rule" in md and "within ±13 points" in md
    assert json.loads((tmp_path / "u" / "config.json").read_text())["games"] == n  # replay/resume see every game
    # the batches hold exactly the games a plain run of n games holds
    res = invoke("run", cfg, "--out", tmp_path / "plain", "--games", n, "--quiet")
    assert res.exit_code == 0
    for t in TABLES:
        assert pl.read_parquet(tmp_path / "u" / f"{t}.parquet").equals(pl.read_parquet(tmp_path / "plain" / f"{t}.parquet"))


def test_until_ci_stops_at_max_games(tmp_path):
    res = invoke("run", write(tmp_path, BASE.replace("games: 40", "games: 20")), "--out", tmp_path / "u",
                 "--quiet", "--until-ci", "0.01", "--max-games", "45")
    assert res.exit_code == 0, res.output
    stop = json.loads((tmp_path / "u" / "stopping.json").read_text())
    assert stop["games"] == 45 and not stop["met"] and "reached --max-games 45" in stop["reason"]
    assert pl.read_parquet(tmp_path / "u" / "games.parquet")["game_index"].to_list() == list(range(45))


def test_until_ci_bad_input(tmp_path):
    cfg = write(tmp_path, BASE)
    assert invoke("run", cfg, "--until-ci", "0.7", "--out", tmp_path / "x").exit_code == 2
    res = invoke("run", cfg, "--until-ci", "0.05", "--max-games", "10", "--out", tmp_path / "y")
    assert res.exit_code == 2 and "below the first batch" in res.output
    res = invoke("run", cfg, "--max-games", "10", "--out", tmp_path / "z")
    assert res.exit_code == 2 and "--max-games needs --until-ci" in res.output


# ------------------------------------------------------------------ checks

CHECKS = """\
checks:
  max_seat_win_rate: 0.9
  min_strategy_win_rate: {threshold: 0.05, strict: false}
  max_first_player_advantage: 0.5
  max_truncated_share: 0.01
  max_failed_games: 0
  min_balance: 0.2
"""


def test_check_passes_with_exit_0_and_writes_junit(tmp_path):
    cfg = write(tmp_path, BASE + CHECKS)
    res = invoke("check", cfg, "--out", tmp_path / "r", "--quiet", "--junit", tmp_path / "j.xml")
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith(("PASS", "FAIL"))]
    assert len(lines) == 6 and all(line.startswith("PASS") for line in lines)
    assert "6 of 6 checks passed" in res.output
    root = ET.parse(tmp_path / "j.xml").getroot()
    suite = root.find("testsuite")
    assert root.tag == "testsuites" and suite.get("tests") == "6" and suite.get("failures") == "0"
    assert [c.get("name") for c in suite.findall("testcase")] == [
        "max_seat_win_rate", "min_strategy_win_rate", "max_first_player_advantage", "max_truncated_share",
        "max_failed_games", "min_balance"]
    assert suite.find("testcase/failure") is None
    html = (tmp_path / "r" / "report.html").read_text()
    assert "<h2>Checks</h2>" in html and html.count("class='pass'") == 6


def test_check_fails_with_exit_1_and_junit_failures(tmp_path):
    cfg = write(tmp_path, BASE + "checks:\n  max_strategy_win_rate: 0.4\n  max_seat_win_rate: {threshold: 0.99, strict: false}\n"
                                 "  min_strategy_win_rate: 0.2\n")
    res = invoke("check", cfg, "--out", tmp_path / "r", "--quiet", "--junit", tmp_path / "out" / "j.xml")
    assert res.exit_code == 1, res.output
    assert re.search(r"^FAIL max_strategy_win_rate: strategy osaka.shipper \d", res.output, re.M)
    assert re.search(r"^PASS max_seat_win_rate", res.output, re.M)
    assert re.search(r"^FAIL min_strategy_win_rate: strategy random 0.0%", res.output, re.M)
    suite = ET.parse(tmp_path / "out" / "j.xml").getroot().find("testsuite")
    assert suite.get("failures") == "2"
    failed = {c.get("name"): c.find("failure") for c in suite.findall("testcase")}
    assert failed["max_seat_win_rate"] is None
    assert "FAIL max_strategy_win_rate" in failed["max_strategy_win_rate"].get("message")
    # --run evaluates an existing run folder without playing again (same verdict)
    res2 = invoke("check", cfg, "--run", tmp_path / "r")
    assert res2.exit_code == 1 and "played" not in res2.output
    # `sim report` of a run whose config has checks shows them too (exit status stays 0)
    assert invoke("report", tmp_path / "r").exit_code == 0
    md = (tmp_path / "r" / "report.md").read_text()
    assert "## Checks" in md and md.count("| FAIL |") == 2


BAD_CHECKS = [
    ("unknown check", "checks:\n  max_seat_winrate: 0.3\n", r"line 10, key 'checks.max_seat_winrate': unknown key"),
    ("unknown check option", "checks:\n  max_seat_win_rate: {threshold: 0.3, strcit: false}\n",
     r"key 'checks.max_seat_win_rate.strcit': unknown key"),
    ("proportion above 1", "checks:\n  max_seat_win_rate: 35\n", r"line 10, key 'checks.max_seat_win_rate'.*proportion in \[0, 1\]"),
    ("negative", "checks:\n  max_failed_games: -1\n", r"key 'checks.max_failed_games.threshold'.*greater than or equal to 0"),
    ("no checks", "", r"no 'checks:' key"),
]


@pytest.mark.parametrize("label,extra,message", BAD_CHECKS, ids=[b[0] for b in BAD_CHECKS])
def test_check_bad_input_exits_2(tmp_path, label, extra, message):
    res = invoke("check", write(tmp_path, BASE + extra), "--out", tmp_path / "never", "--quiet")
    assert res.exit_code == 2, res.output
    assert re.search(message, res.output), res.output
    assert not (tmp_path / "never").exists()


def test_check_missing_config_exits_2(tmp_path):
    res = invoke("check", tmp_path / "nope.yaml")
    assert res.exit_code == 2 and "file not found" in res.output


def _seat_table(rate, lo, hi):
    return pl.DataFrame({"seat": [0], "games": [100], "wins": [int(rate * 100)], "win_rate": [rate], "ci_low": [lo],
                         "ci_high": [hi], "mean_score": [0.0]})


def test_strict_compares_the_estimate_and_non_strict_the_whole_interval():
    t = {"seat": _seat_table(0.40, 0.31, 0.50)}
    strict = evaluate({"max_seat_win_rate": {"threshold": 0.35, "strict": True}}, t, 100, 0)[0]
    loose = evaluate({"max_seat_win_rate": {"threshold": 0.35, "strict": False}}, t, 100, 0)[0]
    assert not strict.passed and loose.passed  # 40% > 35%, but the interval reaches down to 31%
    assert evaluate({"max_seat_win_rate": {"threshold": 0.30, "strict": False}}, t, 100, 0)[0].passed is False
    assert evaluate({"min_seat_win_rate": {"threshold": 0.45}}, t, 100, 0)[0].passed is False
    assert evaluate({"min_seat_win_rate": {"threshold": 0.45, "strict": False}}, t, 100, 0)[0].passed
    fp = {"first_player": pl.DataFrame([{"rate": 0.2, "expected": 0.25, "advantage": -0.05, "adv_low": -0.09,
                                         "adv_high": -0.01}])}
    # a first-player *disadvantage* counts too (absolute value)
    assert not evaluate({"max_first_player_advantage": {"threshold": 0.04}}, fp, 100, 0)[0].passed
    assert evaluate({"max_first_player_advantage": {"threshold": 0.04, "strict": False}}, fp, 100, 0)[0].passed
    nothing = evaluate({"max_seat_win_rate": {"threshold": 0.5}}, {}, 0, 0)[0]
    assert not nothing.passed and math.isnan(nothing.estimate)  # no evidence is not a pass
    assert evaluate({"max_failed_games": {"threshold": 2}}, {}, 10, 3)[0].passed is False


def test_check_lines_say_what_was_tested_and_advantage_is_in_points():
    from sim.checks import CheckResult

    loose = CheckResult("max_seat_win_rate", 0.32, False, True, "seat 2", 0.35, 0.221, 0.505)
    assert loose.line() == "PASS max_seat_win_rate: seat 2 35.0% (22.1–50.5%) (test: interval not wholly above 32.0%)"
    low = CheckResult("min_seat_win_rate", 0.18, True, True, "seat 3", 0.245, 0.219, 0.273)
    assert low.line().endswith("(test: estimate >= 18.0%)")
    adv = CheckResult("max_first_player_advantage", 0.05, True, True, "seat 0 − expected", 0.012, -0.015, 0.04)
    assert adv.line() == ("PASS max_first_player_advantage: seat 0 − expected +1.2 pp (-1.5 to +4.0 pp) "
                          "(test: |estimate| <= 5.0 pp)")


def test_check_reruns_into_its_own_folder_but_keeps_another_run(tmp_path):
    cfg = write(tmp_path, BASE + CHECKS)
    assert invoke("check", cfg, "--out", tmp_path / "r", "--quiet").exit_code == 0
    again = invoke("check", cfg, "--out", tmp_path / "r", "--quiet")  # the nightly job, next night
    assert again.exit_code == 0 and "6 of 6 checks passed" in again.output
    other = write(tmp_path, BASE.replace("seed:", "# another study\nseed:") + CHECKS, "other.yaml")
    res = invoke("check", other, "--out", tmp_path / "r", "--quiet")
    assert res.exit_code == 2 and "already exists" in res.output and (tmp_path / "r" / "report.md").is_file()
