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

from sim.analysis.checks import evaluate
from sim.cli import cli
from sim.runs import fixed

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

@pytest.mark.integration
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
    from sim.play import play_one, prepared
    from sim.runs.fixed import setup_of

    # replaying game 3 at both points: the first chance draws (deal) come from the same stream
    logs = []
    for c in cfgs:
        rc, game, strategies = prepared(setup_of(RunConfig.model_validate(c)).to_json())
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
    # the two chosen figures and the differences from the baseline point (paired tests)
    assert (sw / "report.html").read_text().count("data:image/png;base64,") == 3
    assert "## Against the baseline" in md and "exact McNemar" in md


BAD_SWEEPS = [
    ("unknown option", "sweep:\n  options.income: [12, 15]\n", r"line 10, key 'sweep.options.income': unknown option 'income'"),
    ("bad option value", "sweep:\n  options.end_tokens: [8, zero]\n", r"line 10, key 'sweep.options.end_tokens.1'.*must be a whole number, got 'zero'"),
    ("no prefix", "sweep:\n  end_tokens: [8]\n", r"key 'sweep.end_tokens'.*unknown sweep key 'end_tokens'; a sweep key is players, seating, options.<option>"),
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


def test_sweep_data_value_errors_name_the_config_line_and_leave_nothing(tmp_path):
    # the value is named, not numbered (a data key ends in indices itself), and the error is placed in the
    # data file the value was written into (the game's packaged cards.yaml), not in a temporary copy
    for values, message in (("[108, 100]", r"line 10, key 'sweep.data.cards.total_cards', value 100: data file cards"
                                           r" with total_cards = 100: \S*traders_of_osaka/data/cards.yaml, line \d+,"
                                           r" key '\(top level\)': .*total_cards is 100"),
                            ('[1, "x"]', r"line 10, key 'sweep.data.cards.total_cards', value 1: data file cards with"
                                         r" total_cards = 1: \S*traders_of_osaka/data/cards.yaml, line")):
        cfg = write(tmp_path, BASE + f"sweep:\n  data.cards.total_cards: {values}\n")
        for command in ("validate", "sweep"):
            res = invoke(command, cfg, *(["--out", tmp_path / "sw", "--quiet"] if command == "sweep" else []))
            assert res.exit_code == 2 and re.search(message, res.output), res.output
            assert "point000" not in res.output and not (tmp_path / "sw").exists()


def test_sweep_combination_errors_leave_no_data_files(tmp_path):
    """Each value alone is valid; the last point is not: Market 50 + Farm 10 = 60 cards is more than
    half the 108-card deck (54). Every point is built before any is played."""
    cfg = write(tmp_path, BASE + "sweep:\n  options.market_size: [5, 50]\n  options.farm_size: [3, 10]\n"
                                 "  data.cards.achievement_tokens_per_colour: [12]\n")
    assert invoke("validate", cfg).exit_code == 0
    res = invoke("sweep", cfg, "--out", tmp_path / "sw", "--quiet")
    assert res.exit_code == 2 and "sweep point 3 (market_size=50, farm_size=10, achievement_tokens_per_colour=12)" \
        in res.output, res.output
    assert not (tmp_path / "sw").exists()


@pytest.mark.integration
def test_sweep_force_replaces_a_sweep_folder_and_no_resume_hint(tmp_path):
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 3") + "sweep:\n  options.end_tokens: [6, 8]\n")
    out = tmp_path / "sw"
    # --figures never: the claims are about the folder, not its charts (drawing them cost most of this test)
    assert invoke("sweep", cfg, "--out", out, "--quiet", "--no-point-reports", "--figures", "never").exit_code == 0
    res = invoke("sweep", cfg, "--out", out, "--quiet")
    assert res.exit_code == 2 and "use --force to replace it" in res.output and "--resume" not in res.output
    res = invoke("sweep", cfg, "--out", out, "--quiet", "--force", "--figures", "never")
    assert res.exit_code == 0, res.output
    assert (out / "point-001" / "report.md").is_file()  # the second sweep wrote point reports
    (out / "notes.txt").write_text("mine")
    res = invoke("sweep", cfg, "--out", out, "--quiet", "--force")
    assert res.exit_code == 2 and "--force replaces only a sweep folder" in res.output
    assert (out / "notes.txt").is_file()


@pytest.mark.parametrize("key", ["sweep", "checks"])
def test_missing_and_empty_grids_are_told_apart(tmp_path, key):
    command = "sweep" if key == "sweep" else "check"
    res = invoke(command, write(tmp_path, BASE), "--out", tmp_path / "o")
    assert res.exit_code == 2 and f"no '{key}:' key" in res.output
    res = invoke(command, write(tmp_path, BASE + f"{key}:\n"), "--out", tmp_path / "o")
    assert res.exit_code == 2 and f"line 9, key '{key}': '{key}:' is empty" in res.output, res.output


@pytest.mark.parametrize("key", ["checks", "sweep"])
@pytest.mark.parametrize("value", [" {}", ""])
def test_validate_refuses_an_empty_checks_or_sweep_section(tmp_path, key, value):
    """`checks: {}` validated, then `sim check` said it was empty (breaker trial 2, session 9): now
    `sim validate` refuses it with the file, line and key and what is expected, exit 2."""
    res = invoke("validate", write(tmp_path, BASE + f"{key}:{value}\n"))
    assert res.exit_code == 2, res.output
    assert f"c.yaml, line 9, key '{key}': '{key}:' is empty; a mapping with at least one entry is expected" in res.output


@pytest.mark.integration
def test_run_warns_that_it_ignores_a_sweep_grid(tmp_path):
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 3") + "sweep:\n  options.end_tokens: [6, 8]\n")
    res = invoke("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 0 and f"`sim sweep {cfg}` plays the grid" in res.output


@pytest.mark.parametrize("junit", ["afile/x.xml", "/proc/x.xml"])
def test_check_refuses_an_unwritable_junit_file_before_playing(tmp_path, junit):
    (tmp_path / "afile").write_text("a file, not a folder")
    junit = junit if junit.startswith("/") else str(tmp_path / junit)
    cfg = write(tmp_path, BASE + "checks: {max_failed_games: 0}\n")
    res = invoke("check", cfg, "--out", tmp_path / "o", "--quiet", "--junit", junit)
    assert res.exit_code == 2 and "Traceback" not in res.output and f"--junit {junit}" in res.output, res.output
    assert not (tmp_path / "o").exists()  # refused before any game was played


# ------------------------------------------------------------------ until-ci

@pytest.mark.integration
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


@pytest.mark.integration
def test_until_ci_stops_at_max_games(tmp_path):
    res = invoke("run", write(tmp_path, BASE.replace("games: 40", "games: 20")), "--out", tmp_path / "u",
                 "--quiet", "--until-ci", "0.01", "--max-games", "45")
    assert res.exit_code == 0, res.output
    stop = json.loads((tmp_path / "u" / "stopping.json").read_text())
    # three different strategies, seating permute: deals of 3! = 6 games; 45 rounds down to 7 deals
    # so the run does not end on a partial deal (breaker finding 13, session 8)
    assert stop["games"] == 42 and not stop["met"] and "reached --max-games 42" in stop["reason"]
    assert "--max-games 45 rounded down to whole deals of 6 games" in stop["rule"]
    assert pl.read_parquet(tmp_path / "u" / "games.parquet")["game_index"].to_list() == list(range(42))


def _lock_holder(out):
    lock = out / ".lock"
    return int(lock.read_text()) if lock.is_file() else None


@pytest.mark.integration
def test_until_ci_holds_the_lock_while_playing_and_writing_the_report(tmp_path, monkeypatch):
    """A concurrent `--force` run is refused while the folder's lock names a live process: the lock
    must name this process during every batch and while the report is written, and be gone after."""
    import os

    from sim.analysis import report
    from sim.runs import fixed as runner

    out, seen = tmp_path / "u", []
    play, write_report = runner.play_ranges, report.write_report
    monkeypatch.setattr(runner, "play_ranges", lambda *a, **k: seen.append(("play", _lock_holder(out))) or play(*a, **k))
    monkeypatch.setattr(report, "write_report",
                        lambda *a, **k: seen.append(("report", _lock_holder(out))) or write_report(*a, **k))
    res = invoke("run", write(tmp_path, BASE.replace("games: 40", "games: 20")), "--out", out, "--quiet",
                 "--until-ci", "0.01", "--max-games", "45")
    assert res.exit_code == 0, res.output
    assert [w for w, _ in seen] == ["play", "play", "report"]  # batches of 20 and 25 games (the 45 maximum)
    assert {pid for _, pid in seen} == {os.getpid()} and _lock_holder(out) is None


@pytest.mark.integration
def test_check_holds_the_lock_until_its_report_is_written(tmp_path, monkeypatch):
    import os

    from sim.runs import check as report

    out, seen = tmp_path / "c", []
    write_report = report.write_report
    monkeypatch.setattr(report, "write_report", lambda *a, **k: seen.append(_lock_holder(out)) or write_report(*a, **k))
    res = invoke("check", write(tmp_path, BASE.replace("games: 40", "games: 6") + "checks: {max_failed_games: 0}\n"),
                 "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert seen == [os.getpid()] and _lock_holder(out) is None


@pytest.mark.integration
def test_resume_continues_an_interrupted_until_ci_run(tmp_path, monkeypatch):
    """Interrupted in its second batch, the run resumes the same stopping rule and ends with the
    tables and stopping.json of an uninterrupted run."""
    from sim.runs import fixed as runner

    cfg = write(tmp_path, BASE.replace("games: 40", "games: 20") + "chunk_size: 5\n")
    args = ["--quiet", "--until-ci", "0.01", "--max-games", "42"]
    assert invoke("run", cfg, "--out", tmp_path / "whole", *args).exit_code == 0
    play, calls = runner.play_ranges, []

    def interrupted(rc, out, ranges, **kw):
        calls.append(ranges)
        if len(calls) == 2:  # second batch: one chunk on disk, then Ctrl-C
            play(rc, out, ranges[:1], **kw)
            raise KeyboardInterrupt
        return play(rc, out, ranges, **kw)

    monkeypatch.setattr(runner, "play_ranges", interrupted)
    res = invoke("run", cfg, "--out", tmp_path / "cut", *args)
    assert res.exit_code == 130 and "sim run --resume" in res.output and "continues the stopping rule in stopping.json" in res.output
    monkeypatch.setattr(runner, "play_ranges", play)
    res = invoke("run", "--resume", tmp_path / "cut", "--quiet")
    assert res.exit_code == 0, res.output
    # three different strategies: permute seating, deals of 3! = 6 games, so the first batch of 20 is
    # rounded up to 24 (4 whole deals); the interruption left 24 + one chunk of 5 on disk
    assert "played 13 games (29 were already on disk)" in res.output and "reached --max-games 42" in res.output
    whole, cut = (json.loads((tmp_path / d / "stopping.json").read_text()) for d in ("whole", "cut"))
    assert cut == whole and cut["finished"] and [b["games"] for b in cut["batches"]] == [24, 42]
    for t in TABLES:
        assert pl.read_parquet(tmp_path / "whole" / f"{t}.parquet").equals(pl.read_parquet(tmp_path / "cut" / f"{t}.parquet"))


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
  max_truncated_share: 0.2
  max_failed_games: 0
  min_balance: 0.2
"""


@pytest.mark.integration
def test_check_passes_with_exit_0_and_writes_junit(tmp_path):
    cfg = write(tmp_path, BASE + CHECKS)
    res = invoke("check", cfg, "--out", tmp_path / "r", "--quiet", "--junit", tmp_path / "j.xml")
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith(("PASS", "FAIL", "UNDECIDED"))]
    # an undecided strict: false check passes, and its line says it is undecided (session 7)
    lenient = [line for line in lines if line.startswith("UNDECIDED (passes: strict is false) ")]
    assert len(lines) == 6 and all(line.startswith("PASS") for line in lines if line not in lenient)
    assert all(" min_strategy_win_rate: " in line for line in lenient)
    assert "6 of 6 checks passed" in res.output
    root = ET.parse(tmp_path / "j.xml").getroot()
    suite = root.find("testsuite")
    assert root.tag == "testsuites" and suite.get("tests") == "6" and suite.get("failures") == "0"
    assert [c.get("name") for c in suite.findall("testcase")] == [
        "max_seat_win_rate", "min_strategy_win_rate", "max_first_player_advantage", "max_truncated_share",
        "max_failed_games", "min_balance"]
    assert suite.find("testcase/failure") is None
    html = (tmp_path / "r" / "report.html").read_text()
    assert "<h2>Checks</h2>" in html and html.count("class='pass'") == 6 - len(lenient)


@pytest.mark.integration
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
    # breaker finding 3 (session 8): a check without a value was dropped and CI passed
    ("null check", "checks:\n  max_strategy_win_rate:\n  max_failed_games: 0\n",
     r"line 10, key 'checks.max_strategy_win_rate': no threshold given"),
    ("only nulls", "checks: {max_seat_win_rate: null}\n", r"key 'checks.max_seat_win_rate': no threshold given"),
]


@pytest.mark.parametrize("label,extra,message", BAD_CHECKS, ids=[b[0] for b in BAD_CHECKS])
def test_check_bad_input_exits_2(tmp_path, label, extra, message):
    res = invoke("check", write(tmp_path, BASE + extra), "--out", tmp_path / "never", "--quiet")
    assert res.exit_code == 2, res.output
    assert re.search(message, res.output), res.output
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize("extra", ["checks:\n  max_strategy_win_rate:\n  max_failed_games: 0\n",
                                   "checks: {max_seat_win_rate: null}\n"])
def test_validate_refuses_a_check_without_a_value(tmp_path, extra):
    res = invoke("validate", write(tmp_path, BASE + extra))
    assert res.exit_code == 2 and "no threshold given" in res.output, res.output


def test_check_missing_config_exits_2(tmp_path):
    res = invoke("check", tmp_path / "nope.yaml")
    assert res.exit_code == 2 and "file not found" in res.output


def _seat_table(rate, lo, hi):
    return pl.DataFrame({"seat": [0], "games": [100], "wins": [int(rate * 100)], "win_rate": [rate], "ci_low": [lo],
                         "ci_high": [hi], "mean_score": [0.0]})


def test_checks_pass_fail_or_stay_inconclusive_by_the_whole_interval():
    t = {"seat": _seat_table(0.40, 0.31, 0.50)}

    def status(name, thr, strict=True, tables=t, played=100, failed=0):
        return evaluate({name: {"threshold": thr, "strict": strict}}, tables, played, failed)[0].status

    # max 35%: the interval 31-50% straddles it -> inconclusive; strict: false counts that as a pass
    assert status("max_seat_win_rate", 0.35) == "inconclusive"
    assert status("max_seat_win_rate", 0.35, strict=False) == "pass"
    assert status("max_seat_win_rate", 0.30, strict=False) == "fail"  # whole interval above 30%
    assert status("max_seat_win_rate", 0.50) == "pass"  # whole interval at most 50%
    assert status("min_seat_win_rate", 0.45) == "inconclusive"
    assert status("min_seat_win_rate", 0.31) == "pass" and status("min_seat_win_rate", 0.51) == "fail"
    fp = {"first_player": pl.DataFrame([{"rate": 0.2, "expected": 0.25, "advantage": -0.05, "adv_low": -0.09,
                                         "adv_high": -0.01}])}
    # a first-player *disadvantage* counts too (absolute value): -9 to -1 points against ±4, ±0.5 and ±10
    assert status("max_first_player_advantage", 0.04, tables=fp) == "inconclusive"
    assert status("max_first_player_advantage", 0.005, tables=fp) == "fail"
    assert status("max_first_player_advantage", 0.10, tables=fp) == "pass"
    nothing = evaluate({"max_seat_win_rate": {"threshold": 0.5}}, {}, 0, 0)[0]
    assert nothing.status == "fail" and math.isnan(nothing.estimate)  # no evidence is not a pass
    assert status("max_failed_games", 2, tables={}, played=10, failed=3) == "fail"
    assert status("max_failed_games", 3, tables={}, played=10, failed=3) == "pass"


def test_exit_status_maps_inconclusive():
    from sim.analysis.checks import CheckResult, exit_status

    def r(status):
        return CheckResult("max_seat_win_rate", 0.3, True, status, "seat 0", 0.3, 0.2, 0.4)

    assert exit_status([r("pass"), r("pass")]) == 0
    assert exit_status([r("pass"), r("fail"), r("inconclusive")]) == 1
    assert exit_status([r("pass"), r("inconclusive")]) == 3
    assert exit_status([r("inconclusive")], "pass") == 0 and exit_status([r("inconclusive")], "fail") == 1
    assert exit_status([r("fail")], "pass") == 1  # a failure is never mapped away


def test_check_lines_say_what_was_tested_and_advantage_is_in_points():
    from sim.analysis.checks import CheckResult

    loose = CheckResult("max_seat_win_rate", 0.32, False, "inconclusive", "seat 2", 0.35, 0.221, 0.505)
    assert loose.line() == ("INCONCLUSIVE max_seat_win_rate: seat 2 35.0% (22.1–50.5%) "
                            "(test: 95% interval wholly <= 32.0%)")
    low = CheckResult("min_seat_win_rate", 0.18, True, "pass", "seat 3", 0.245, 0.219, 0.273, level="99%")
    assert low.line().endswith("(test: 99% interval wholly >= 18.0%)")
    adv = CheckResult("max_first_player_advantage", 0.05, True, "pass", "seat 0 − expected", 0.012, -0.015, 0.04)
    assert adv.line() == ("PASS max_first_player_advantage: seat 0 − expected +1.2 pp (-1.5 to +4.0 pp) "
                          "(test: 95% interval wholly within ±5.0 pp)")


@pytest.mark.integration
def test_check_reruns_into_its_own_folder_but_keeps_another_run(tmp_path):
    cfg = write(tmp_path, BASE + CHECKS)
    assert invoke("check", cfg, "--out", tmp_path / "r", "--quiet").exit_code == 0
    again = invoke("check", cfg, "--out", tmp_path / "r", "--quiet")  # the nightly job, next night
    assert again.exit_code == 0 and "6 of 6 checks passed" in again.output
    other = write(tmp_path, BASE.replace("seed:", "# another study\nseed:") + CHECKS, "other.yaml")
    res = invoke("check", other, "--out", tmp_path / "r", "--quiet")
    assert res.exit_code == 2 and "already exists" in res.output and (tmp_path / "r" / "report.md").is_file()


def test_check_resume_of_a_run_without_checks_is_refused_before_playing(tmp_path):
    """`sim check --resume` of a plain run (no `checks:`) is refused at once, naming what to do,
    instead of playing the rest of the games and then refusing."""
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 4"))
    assert invoke("run", cfg, "--out", tmp_path / "r", "--quiet").exit_code == 0
    (tmp_path / "r" / "games.parquet").rename(tmp_path / "games.bak")  # as if interrupted before the merge
    res = invoke("check", "--resume", tmp_path / "r", "--quiet")
    assert res.exit_code == 2 and "has no 'checks:'" in res.output and "sim run --resume" in res.output, res.output
    assert not (tmp_path / "r" / "games.parquet").exists()  # nothing played, nothing merged


def test_sweep_figures_never_draws_no_chart_and_report_always_draws_them(tmp_path):
    """Second breaker finding 7 (session 4): `--figures never` still drew the sweep charts; then a
    rebuilt report without charts left the old PNGs in `figures/`."""
    cfg = write(tmp_path, "game: traders_of_osaka\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [random]\n"
                          "sweep: {options.end_tokens: [6, 8]}\n")
    res = invoke("sweep", cfg, "--out", tmp_path / "sw", "--jobs", "1", "--quiet", "--figures", "never")
    assert res.exit_code == 0, res.output
    md = (tmp_path / "sw" / "report.md").read_text()
    assert list((tmp_path / "sw").rglob("*.png")) == [] and "![" not in md
    assert not (tmp_path / "sw" / "figures").exists()  # no empty folder (breaker finding 8, session 5)
    assert "Charts not drawn (`--figures never`)" in md and "## Win rate by seat against options.end_tokens" in md
    assert invoke("report", tmp_path / "sw", "--figures", "always").exit_code == 0
    drawn = sorted(p.name for p in (tmp_path / "sw" / "figures").glob("sweep_*.png"))
    assert drawn and all(f"figures/{n}" in (tmp_path / "sw" / "report.md").read_text() for n in drawn)
    assert invoke("report", tmp_path / "sw", "--figures", "never").exit_code == 0
    assert list((tmp_path / "sw" / "figures").glob("sweep_*.png")) == []  # no chart its report does not show


def test_a_sweep_folder_given_where_one_run_is_wanted_is_named_as_such(tmp_path):
    """Fresh-user finding 2 (session 5): replay, check --run and run --resume of a sweep folder blamed
    an "engine version None" or "no complete game"."""
    cfg = write(tmp_path, "game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies: [random]\n"
                          "sweep: {options.end_tokens: [6, 8]}\n"
                          "checks: {max_seat_win_rate: 0.9}\n")
    sw = tmp_path / "sw"
    assert invoke("sweep", cfg, "--out", sw, "--jobs", "1", "--quiet", "--figures", "never").exit_code == 0
    for args in (["replay", sw, "--game-index", "0"], ["check", cfg, "--run", sw], ["run", "--resume", sw]):
        res = invoke(*args)
        assert res.exit_code == 2, (args, res.output)
        assert f"'{sw}' is a sweep folder" in res.output and f"{sw}/point-000 ... point-001" in res.output


def test_sweep_resume_refuses_a_confidence_it_would_ignore(tmp_path):
    """Breaker finding 11 (session 8): `sim sweep --resume DIR --confidence 0.99` was accepted and
    ignored; refused before anything is read or played, naming the flag."""
    res = invoke("sweep", "--resume", tmp_path / "nowhere", "--confidence", "0.99")
    assert res.exit_code == 2 and "--confidence" in res.output and "sweep.json" in res.output, res.output


def test_an_interrupted_check_names_sim_check_resume(tmp_path, monkeypatch):
    """Breaker trial 2 (session 8): a stopped `sim check` said `sim run --resume DIR`, which finishes
    the games but never evaluates the checks; `sim check --resume DIR` does both."""
    from sim.runs import fixed as runner

    def stopped(rc, out, ranges, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "play_ranges", stopped)
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 6") + "checks: {max_failed_games: 0}\n")
    res = invoke("check", cfg, "--out", tmp_path / "cut", "--quiet")
    assert res.exit_code == 130 and f"sim check --resume {tmp_path / 'cut'}" in res.output, res.output


def _stop(*_args, **_kwargs):
    raise KeyboardInterrupt


@pytest.mark.integration
def test_a_finished_check_and_a_stopped_one_name_sim_check_run_with_the_junit_file(tmp_path, monkeypatch):
    """Breaker trial, session 14: `sim check --resume` of a finished check run suggested `sim report`
    (which evaluates no check), and a stop's hint left out the --junit file the user gave."""
    cfg = write(tmp_path, BASE.replace("games: 40", "games: 6") + "checks: {max_failed_games: 0}\n")
    out, junit = tmp_path / "c", tmp_path / "j.xml"
    assert invoke("check", cfg, "--out", out, "--quiet").exit_code == 0
    res = invoke("check", "--resume", out, "--quiet")
    assert res.exit_code == 2 and f"`sim check --run {out}` evaluates its checks" in res.output, res.output
    from sim.runs import check as check_run

    monkeypatch.setattr(check_run, "evaluate_run", _stop)  # stopped while the checks are evaluated
    res = invoke("check", cfg, "--out", tmp_path / "d", "--junit", junit, "--quiet")
    assert res.exit_code == 130 and f"sim check --run {tmp_path / 'd'} --junit {junit}" in res.output, res.output
    monkeypatch.setattr(fixed, "play_ranges", _stop)  # stopped while playing (second breaker trial, session 14)
    res = invoke("check", cfg, "--out", tmp_path / "e", "--junit", junit, "--quiet")
    assert res.exit_code == 130 and f"sim check --resume {tmp_path / 'e'} --junit {junit}" in res.output, res.output
