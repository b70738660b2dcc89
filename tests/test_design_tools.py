"""Designer tools (issue 21): tune, discover, sweeps over anything, configs without YAML,
validation that teaches, the jobs default, replays worth reading."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis import halving, objectives
from sim.analysis.pick import find_game
from sim.api import SimError
from sim.cli import cli
from sim.config import load_config
from sim.config.design import Param, _default_range, discover_plan, parse_range
from sim.config.grid import points
from sim.replay import collapse

OSAKA2 = """\
game: traders_of_osaka
players: 2
games: 10
seed: 21
jobs: 1
strategies: [{name: random}]
"""


def write(tmp_path: Path, text: str, name: str = "c.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# ------------------------------------------------------------------ 1. tune

@pytest.mark.integration
def test_tune_finds_the_end_tokens_value_whose_game_length_was_measured(tmp_path):
    """The issue's correctness test: the mean n_decisions measured at end_tokens = 6 is the target,
    so tuning end_tokens in 3..12 must return 6 (the same seed and game indices make its distance 0
    at the full budget; every other value plays other games' lengths)."""
    from sim.runs.fixed import run

    rc = load_config(write(tmp_path, OSAKA2 + "options: {end_tokens: 6}\n"), {"games": 18})
    run(rc, tmp_path / "measured", progress=False)
    target = pl.read_parquet(tmp_path / "measured" / "games.parquet")["n_decisions"].mean()
    cfg = write(tmp_path, OSAKA2 + f"tune:\n  params: {{options.end_tokens: [3, 12]}}\n"
                f"  target: {{metric: n_decisions, value: {target}}}\n  min_games: 6\n  max_games: 18\n  confirm_games: 6\n",
                "t.yaml")
    res = invoke("tune", cfg, "--out", tmp_path / "tune", "--json", tmp_path / "best.json", "--quiet")
    assert res.exit_code == 0, res.output
    best = json.loads((tmp_path / "best.json").read_text())
    assert best["best"] == {"options.end_tokens": 6}
    assert len(best["trials"]) == 10  # the grid: every value of 3..12 once
    lo, hi = best["ci"]
    assert lo <= best["objective"] <= hi
    assert (tmp_path / "tune" / "tune.md").is_file() and (tmp_path / "tune" / "study.log").is_file()
    assert "options.end_tokens = 6" in (tmp_path / "tune" / "tune.md").read_text()


def test_successive_halving_keeps_the_best_third_and_grid_covers_every_value():
    params = [Param("x", "int", 0, 20)]
    sampler, n, how = halving.sampler_for(params, trials=5, grid_max=64, seed=0)
    assert n == 21 and how.startswith("grid")
    calls = []

    def evaluate(values, games):
        calls.append((values["x"], games))
        return (values["x"] - 7) ** 2, float(values["x"]), math.nan, math.nan

    study = halving.optuna.create_study(sampler=sampler)
    recs = halving.optimise(study, params, evaluate, [10, 30, 90], n, eta=3)
    assert sorted(x for x, g in calls if g == 10) == list(range(21))
    assert len([1 for _, g in calls if g == 30]) == 7  # ceil(21 / 3)
    assert len([1 for _, g in calls if g == 90]) == 3  # ceil(7 / 3)
    assert recs[0].params == {"x": 7} and recs[0].games == 90


def test_tpe_is_used_for_float_ranges_and_approaches_the_minimum():
    params = [Param("x", "float", 0.0, 1.0)]
    sampler, n, how = halving.sampler_for(params, trials=40, grid_max=64, seed=3)
    assert how.startswith("TPE") and n == 40
    study = halving.optuna.create_study(sampler=sampler)
    recs = halving.optimise(study, params, lambda v, g: ((v["x"] - 0.3) ** 2, v["x"], 0, 0), [1], n, eta=3)
    assert abs(recs[0].params["x"] - 0.3) < 0.05


@pytest.mark.parametrize("value,expected", [
    ([3, 12], Param("k", "int", 3, 12)),
    ([0.1, 0.9], Param("k", "float", 0.1, 0.9)),
    ({"float": [1, 2]}, Param("k", "float", 1, 2)),
    ({"choice": ["a", "b"]}, Param("k", "choice", choices=("a", "b"))),
])
def test_parse_range(value, expected):
    assert parse_range("k", value) == expected


def test_bad_tune_sections_name_their_key(tmp_path):
    bad = OSAKA2 + "tune:\n  params: {options.end_tokns: [3, 12]}\n  target: {seat_spread: min}\n"
    res = invoke("tune", write(tmp_path, bad), "--out", tmp_path / "o")
    assert res.exit_code == 2 and "key 'tune.params.options.end_tokns'" in res.output
    assert "did you mean 'end_tokens'" in res.output and "Traceback" not in res.output
    bad = OSAKA2 + "tune:\n  params: {options.end_tokens: [3, 12]}\n  target: {seat_spread: max}\n"
    res = invoke("validate", write(tmp_path, bad))
    assert res.exit_code == 2 and "key 'tune.target'" in res.output and "{seat_spread: min}" in res.output


def test_every_tune_and_discover_problem_is_reported_at_once(tmp_path):
    # two bad ranges, a bad target and a budget below its minimum: four lines, each with its line and key
    bad = OSAKA2 + ("tune:\n  params:\n    options.end_tokns: [3, 12]\n    options.end_tokens: [12, 3]\n"
                    "  target: {seat_spread: max}\n  min_games: 100\n  max_games: 50\n")
    res = invoke("validate", write(tmp_path, bad))
    lines = [x for x in res.output.splitlines() if x.strip()]
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert any("line 9, key 'tune.params.options.end_tokns'" in x for x in lines)
    assert any("line 10, key 'tune.params.options.end_tokens'" in x and "low end must be below" in x for x in lines)
    assert any("line 11, key 'tune.target'" in x for x in lines)
    assert any("line 13, key 'tune.max_games'" in x and "max_games (50) is below min_games (100)" in x for x in lines)
    two = OSAKA2.replace("[{name: random}]", "[{name: osaka.hoarder}, {name: random}]")
    bad = two + "discover:\n  seat: 0\n  params:\n    min_cst: [10, 14]\n    min_goods: [5, 2]\n"
    res = invoke("validate", write(tmp_path, bad))
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "key 'discover.params.min_cst': 'osaka.hoarder' has no documented parameter 'min_cst'" in res.output
    assert "key 'discover.params.min_goods'" in res.output and "low end must be below" in res.output


# ------------------------------------------------------------------ objectives (hand-computed)

def _tables():
    """Three complete 2-seat games and one truncated: seat 0 wins games 0 and 1, seat 1 game 2."""
    games = pl.DataFrame({"game_index": [0, 1, 2, 3], "n_decisions": [10, 20, 60, 99],
                          "truncated": [False, False, False, True], "failed": [False] * 4})
    players = pl.DataFrame({"game_index": [0, 0, 1, 1, 2, 2, 3, 3], "seat": [0, 1] * 4,
                            "strategy": ["A", "B", "B", "A", "A", "B", "A", "B"],
                            "won": [True, False, True, False, False, True, False, False]})
    return games, players


def test_objective_figures_by_hand():
    g, p = _tables()
    # mean n_decisions over games that did not fail: (10 + 20 + 60 + 99) / 4
    assert objectives.figure("metric", g, p, column="n_decisions", n_resamples=0).value == pytest.approx(47.25)
    # seat 0 wins 2 of 3 complete games; pooled share 3 wins / 6 seats = 1/2 -> 2/3 - 1/2
    assert objectives.figure("first_player_advantage", g, p, n_resamples=0).value == pytest.approx(1 / 6)
    # seat rates 2/3 and 1/3
    assert objectives.figure("seat_spread", g, p, n_resamples=0).value == pytest.approx(1 / 3)
    # A holds seat 0, 1, 0 in games 0-2 and wins game 0 only: 1/3; B wins games 1, 2: 2/3
    assert objectives.figure("strategy_gap", g, p, pair=("A", "B"), n_resamples=0).value == pytest.approx(-1 / 3)
    assert objectives.loss("strategy_gap", -1 / 3) == pytest.approx(1 / 3)
    with pytest.raises(SimError, match="no column 'rounds'"):
        objectives.figure("metric", g, p, column="rounds")


def test_mcnemar_exact_by_hand():
    # 8 games won only by a, 2 only by b: two-sided binomial(10, 1/2): 2 * (C(10,8)+C(10,9)+C(10,10)) / 2^10
    a = pl.DataFrame({"game_index": list(range(12)), "won": [True] * 8 + [False] * 2 + [True, False]})
    b = pl.DataFrame({"game_index": list(range(12)), "won": [False] * 8 + [True] * 2 + [True, False]})
    t = objectives.mcnemar(a, b)
    assert (t["only_a"], t["only_b"]) == (8, 2)
    assert t["p"] == pytest.approx(2 * (45 + 10 + 1) / 1024)


# ------------------------------------------------------------------ 2. discover

def test_discover_space_comes_from_the_documented_params(tmp_path):
    rc = load_config(write(tmp_path, OSAKA2.replace("[{name: random}]", "[{name: osaka.hoarder}, {name: random}]")
                           + "discover: {seat: 0, params: {min_cost: [10, 14]}}\n"))
    plan = discover_plan(rc)
    got = {p.key.split(".")[-1]: p for p in plan.params}
    # Hoarder.Params: min_goods ge=1 default 4 -> [1, 2*4+2]; reserve: bool -> choice; min_cost overridden
    assert (got["min_goods"].low, got["min_goods"].high) == (1, 10)
    assert got["reserve"].choices == (False, True)
    assert (got["min_cost"].low, got["min_cost"].high) == (10, 14)
    assert plan.label == "osaka.hoarder" and plan.defaults["strategies.0.params.min_goods"] == 4


def test_default_range_bounds():
    from pydantic import BaseModel, Field

    class P(BaseModel):
        a: int = Field(3, ge=2, le=9)
        b: float = Field(0.5)

    assert _default_range("a", P.model_fields["a"]) == Param("a", "int", 2, 9)
    assert _default_range("b", P.model_fields["b"]) == Param("b", "float", 0, 3.0)


@pytest.mark.integration
def test_discover_cli_reports_win_rates_and_paired_test(tmp_path):
    cfg = write(tmp_path, OSAKA2.replace("[{name: random}]", "[{name: osaka.trader}, {name: random}]")
                + "discover: {seat: 0, params: {min_goods: [1, 3], insure_at: {choice: [1, 2]}}, max_games: 30,"
                " confirm_games: 20}\n")
    res = invoke("discover", cfg, "--out", tmp_path / "d", "--json", tmp_path / "d.json", "--quiet")
    assert res.exit_code == 0, res.output
    d = json.loads((tmp_path / "d.json").read_text())
    assert set(d["best_params"]) == {"min_goods", "insure_at"}
    for k in ("best", "default"):
        w = d["win_rate"][k]
        assert 0 <= w["ci"][0] <= w["value"] <= w["ci"][1] <= 1
    assert 0 <= d["p"] <= 1 and isinstance(d["dominant"], bool)
    assert ("A dominant plan was found" if d["dominant"] else "No dominant plan was found") in res.output
    assert (tmp_path / "d" / "discover.html").is_file()


# ------------------------------------------------------------------ 3. sweeps over anything

def test_sweep_points_over_players_seating_and_strategy_params(tmp_path):
    text = OSAKA2.replace("[{name: random}]", "[{name: osaka.trader}, {name: random}]") + (
        "sweep:\n  players: [2, 4]\n  strategies.0.params.min_goods: [1, 3]\n")
    rc = load_config(write(tmp_path, text))
    pts = points(rc, tmp_path)
    assert len(pts) == 4
    p = pts[2].rc  # players 4, min_goods 1: the two listed strategies repeated in order
    assert p.players == 4 and [s.name for s in p.strategies] == ["osaka.trader", "random"] * 2
    assert p.strategies[0].params["min_goods"] == 1 and p.strategies[2].params["min_goods"] == 1
    assert pts[1].rc.strategies[0].params == {"min_goods": 3}


def test_sweep_keys_are_checked(tmp_path):
    for sweep, message in (("players: [1]", "takes 2-4 players, not 1"),
                           ("strategies.5.name: [random]", "lists 1 strategies"),
                           ("seating: [circle]", "'rotate', 'fixed' or 'permute'"),
                           ("strategies.0.params.x: [1]", "unknown sweep key|no parameter|bad params"),
                           ("colour: [1]", "unknown sweep key 'colour'")):
        res = invoke("validate", write(tmp_path, OSAKA2 + f"sweep:\n  {sweep}\n"))
        assert res.exit_code == 2 and "key 'sweep." in res.output, (sweep, res.output)
        import re
        assert re.search(message, res.output), (sweep, res.output)


@pytest.mark.integration
def test_sweep_over_players_and_report_rebuild(tmp_path):
    cfg = write(tmp_path, OSAKA2.replace("games: 10", "games: 6") + "sweep:\n  players: [2, 3]\n")
    res = invoke("sweep", cfg, "--out", tmp_path / "s", "--quiet", "--no-point-reports")
    assert res.exit_code == 0, res.output
    assert "point 1 (players=3)" in res.output
    assert json.loads((tmp_path / "s" / "point-001" / "config.json").read_text())["players"] == 3
    (tmp_path / "s" / "report.md").unlink()
    res = invoke("report", tmp_path / "s")
    assert res.exit_code == 0 and "sweep report" in res.output
    assert "against players" in (tmp_path / "s" / "report.md").read_text()


# ------------------------------------------------------------------ 4. start without YAML

@pytest.mark.integration
def test_run_from_flags_writes_a_config_that_reruns(tmp_path):
    res = invoke("run", "--game", "traders_of_osaka", "--players", "3", "--games", "6", "--strategy", "osaka.trader",
                 "--strategy", "random", "--out", tmp_path / "r", "--quiet")
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(tmp_path / "r" / "games.parquet").height == 6
    rc = load_config(tmp_path / "r" / "config.yaml")
    assert rc.players == 3 and rc.games == 6 and list(rc.labels) == ["osaka.trader", "random", "osaka.trader"]
    assert json.loads((tmp_path / "r" / "config.json").read_text())["labels"] == list(rc.labels)


def test_run_flags_need_game_and_exclude_config(tmp_path):
    res = invoke("run", write(tmp_path, OSAKA2), "--game", "xanadu")
    assert res.exit_code == 2 and "either CONFIG or --game" in res.output
    res = invoke("run", "--players", "3")
    assert res.exit_code == 2 and "go with --game" in res.output


def test_default_strategy_is_the_expert_or_random():
    from sim.config.starter import default_strategy
    from sim.registry import strategies

    experts = [n for n in strategies() if n.startswith("osaka.") and n.endswith(".expert")]
    assert default_strategy("traders_of_osaka") == (experts[0] if experts else "random")


def test_init_writes_a_starter_that_validates_with_every_option(tmp_path):
    from sim.registry import get_game

    path = tmp_path / "osaka.yaml"
    res = invoke("init", "traders_of_osaka", path)
    assert res.exit_code == 0, res.output
    text = path.read_text()
    for name in get_game("traders_of_osaka").Options.model_fields:
        assert f"\n  {name}: " in text
    assert invoke("validate", path).exit_code == 0
    assert invoke("init", "traders_of_osaka", path).exit_code == 2  # no overwrite without --force


@pytest.mark.parametrize("game", ["traders_of_osaka", "xanadu", "alpenzian", "taiwan_formosa", "forwarder_of_xanadu"])
def test_init_starter_validates_for_every_game(tmp_path, game):
    res = invoke("init", game, tmp_path / "g.yaml")
    assert res.exit_code == 0, res.output
    # and without a warning: its games fill whole deals of the default seating (fresh-user 7, session 6)
    res = invoke("validate", tmp_path / "g.yaml")
    assert res.exit_code == 0 and "warning" not in res.output.lower() and "partial" not in res.output, res.output


EXAMPLES = ("# data:", "# sweep:", "# checks:", "# tune:", "# discover:")


@pytest.mark.parametrize("game", ["traders_of_osaka", "xanadu", "alpenzian", "taiwan_formosa", "forwarder_of_xanadu"])
def test_each_commented_starter_example_validates_once_uncommented(tmp_path, game):
    """Fresh-user finding 7 (session 7): `# data: {cards: ...}` was an error for Alpenzian and
    Forwarder once uncommented, and sweep/tune varied the safety cap max_decisions."""
    from importlib import resources

    from sim.config.grid import data_files
    from sim.registry import get_game

    assert invoke("init", game, tmp_path / "g.yaml").exit_code == 0
    text = (tmp_path / "g.yaml").read_text()
    package, files = data_files(get_game(game))
    # the starter's data example names the copy its comment says how to make (`sim list data GAME --copy my_data`)
    assert f"sim list data {game} --copy my_data" in text
    assert invoke("list", "data", game, "--copy", tmp_path / "my_data").exit_code == 0
    for name in files.values():
        assert (tmp_path / "my_data" / name).read_bytes() == resources.files(f"{package}.data").joinpath(name).read_bytes()
    examples = [line for line in text.splitlines() if line.startswith(EXAMPLES)]
    assert len(examples) == 5 if files else 4
    assert "max_decisions" not in "\n".join(examples)  # a sweep or tune varies a rule, not the safety cap
    for line in examples:
        (tmp_path / "one.yaml").write_text(text.replace(line, line[2:]))
        res = invoke("validate", tmp_path / "one.yaml")
        assert res.exit_code == 0, (line, res.output)


def test_the_alpenzian_starter_is_sized_for_a_first_try():
    from sim.config.starter import STARTER_GAMES, _whole_deals

    # the expert and 3 random over 4 seats: 4 orders a deal (4!/3!); 200 games are 50 whole deals
    # (about 15 CPU-s on one core, not the minutes of 1,002 games with two experts)
    assert STARTER_GAMES["alpenzian"] == 200 and _whole_deals(200, 4, ["e", "random", "random", "random"]) == 200


def test_starter_games_are_whole_deals():
    from sim.config.starter import _whole_deals

    # expert, random repeated over 4 seats: 4! / (2! 2!) = 6 orders; 1000 -> 1002
    assert _whole_deals(1000, 4, ["e", "random"]) == 1002
    assert _whole_deals(1000, 3, ["e", "random"]) == 1002  # e, random, e: 3! / 2! = 3
    assert _whole_deals(1000, 5, ["e", "random"]) == 1000  # e r e r e: 5! / (3! 2!) = 10
    assert _whole_deals(1000, 4, ["e"]) == 1000  # one strategy: rotate, no deals


def test_list_options_prints_type_default_range_and_source():
    res = invoke("list", "options", "traders_of_osaka")
    assert res.exit_code == 0
    assert "end_tokens  (int, default 8, allowed: >= 1)" in res.output
    assert "'The End of the Game'" in res.output
    assert invoke("list", "options").exit_code == 2


# ------------------------------------------------------------------ 5. validation that teaches

def test_every_error_at_once_with_suggestions(tmp_path):
    text = ("game: traders_of_osaka\nplayers: 2\ngmaes: 10\nseed: 1\nstrategies: [{name: osaka.trder}, {name: random}]\n"
            "options: {end_token: 6}\n")
    res = invoke("validate", write(tmp_path, text))
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "line 3, key 'gmaes': unknown key (did you mean 'games'?)" in res.output
    assert "line 6, key 'options.end_token': unknown key (did you mean 'end_tokens'?)" in res.output
    assert "key 'strategies.0.name'" in res.output and "(did you mean 'osaka.trader'?)" in res.output
    res = invoke("validate", write(tmp_path, text.replace("traders_of_osaka", "traders_of_osaca")))
    assert "did you mean 'traders_of_osaka'?" in res.output and "gmaes" in res.output


# ------------------------------------------------------------------ 6. jobs default

def test_jobs_default_is_the_usable_cores(tmp_path):
    rc = load_config(write(tmp_path, OSAKA2.replace("jobs: 1\n", "")))
    assert rc.jobs == len(os.sched_getaffinity(0))


# ------------------------------------------------------------------ 7. replays

def test_collapse_repeated_lines():
    assert collapse(["a", "a", "b", "a", "c", "c", "c"]) == ["a  (x2)", "b", "a", "c  (x3)"]


def _fake_run(tmp_path: Path, end_reason: bool = False) -> Path:
    games = pl.DataFrame({"game_index": [0, 1, 2, 3], "n_decisions": [50, 90, 40, 7],
                          "truncated": [False, False, True, True], "failed": [False] * 4})
    if end_reason:
        games = games.with_columns(end_reason=pl.Series(["won", "stalled", "cap", "stalled"]))
    players = pl.DataFrame({"game_index": [0, 0, 1, 1, 2, 2, 3, 3], "seat": [0, 1] * 4,
                            "strategy": ["A", "B", "B", "A", "A", "B", "B", "A"],
                            "score": [10.0, 4, 6, 7, 0, 0, 0, 0], "won": [True, False, False, True] + [False] * 4})
    games.write_parquet(tmp_path / "games.parquet")
    players.write_parquet(tmp_path / "players.parquet")
    (tmp_path / "config.json").write_text(json.dumps({"options": {"max_decisions": 40}}))
    return tmp_path


def test_find_picks_games_from_the_tables(tmp_path):
    run = _fake_run(tmp_path)
    assert find_game(run, "longest")[0] == 1  # 90 decisions
    assert find_game(run, "closest")[0] == 1  # margin 7 - 6 = 1 (game 0: 10 - 4 = 6)
    # complete games 0 and 1 are both won by A (its rate 1.0, B's 0.0): the first of them
    assert find_game(run, "upset")[0] == 0
    assert find_game(run, "stalled")[0] == 3  # truncated at 7 decisions, below the cap of 40 (game 2 hit it)


def test_find_stalled_uses_end_reason_when_present(tmp_path):
    assert find_game(_fake_run(tmp_path, end_reason=True), "stalled")[0] == 1


@pytest.mark.integration
def test_replay_find_longest_has_headers(tmp_path):
    res = invoke("run", "--game", "xanadu", "--players", "3", "--games", "4", "--strategy", "random",
                 "--out", tmp_path / "x", "--quiet")
    assert res.exit_code == 0, res.output
    longest = int(np.argmax(pl.read_parquet(tmp_path / "x" / "games.parquet")["n_decisions"].to_numpy()))
    res = invoke("replay", tmp_path / "x", "--find", "longest")
    assert res.exit_code == 0 and res.output.startswith(f"game {longest}:")
    assert "--- turn 1: seat 0 (random) ---" in res.output


@pytest.mark.integration
def test_replay_find_on_a_run_without_a_complete_game_is_a_clean_error(tmp_path):
    """Breaker s3 item 2: closest and upset gave a polars traceback on an all-failed run."""
    (tmp_path / "boom_design.py").write_text(
        "class Boom:\n    def choose(self, obs, legal, rng):\n        raise RuntimeError('boom')\n")
    cfg = write(tmp_path, OSAKA2.replace("games: 10", "games: 4").replace("[{name: random}]",
                                                                          '[{name: random}, {name: "boom_design:Boom"}]'))
    assert invoke("run", cfg, "--out", tmp_path / "r", "--quiet").exit_code == 1  # no game completed (session 10)
    assert pl.read_parquet(tmp_path / "r" / "games.parquet")["failed"].all()
    for kind in ("closest", "upset", "longest"):
        res = invoke("replay", tmp_path / "r", "--find", kind)
        assert res.exit_code == 2, res.output
        assert f"no game of kind '{kind}' in {tmp_path / 'r'} (no complete game)" in res.output
        assert "Traceback" not in res.output and isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("command", [["tune"], ["discover"], ["init"], ["list"], ["replay"], ["run"], ["report"]])
def test_new_commands_have_help_with_an_example(command):
    res = invoke(*command, "--help")
    assert res.exit_code == 0 and "Example: sim " in res.output


def test_a_cut_study_journal_record_is_dropped_on_resume(tmp_path):
    """An append-only journal whose last record was cut (no newline) loses only that record."""
    from sim.analysis.halving import drop_cut_record

    log = tmp_path / "study.log"
    log.write_bytes(b'{"op": 0}\n{"op": 1}\n{"op": 2, "va')
    assert drop_cut_record(log) and log.read_bytes() == b'{"op": 0}\n{"op": 1}\n'
    assert not drop_cut_record(log) and log.read_bytes() == b'{"op": 0}\n{"op": 1}\n'
    assert not drop_cut_record(tmp_path / "absent.log")


def test_tune_summary_says_when_the_best_value_sits_at_the_edge_of_its_range():
    """Best at a bound and the target outside the confirmation interval: the summary says to widen
    the range; inside the interval (or not at an edge) it does not."""
    from sim.analysis.tune_report import tune_summary

    result = {"best": {"options.end_card_depth": 12}, "objective": 24.7, "ci": [24.13, 25.35],
              "target": {"kind": "metric", "value": 20, "describe": "mean rounds -> 20"},
              "confirm": {"games": 400, "seed": 7}, "edges": ["options.end_card_depth"]}
    assert "options.end_card_depth is at the edge of its range" in tune_summary(result)
    assert "edge" not in tune_summary({**result, "edges": []})
    assert "edge" not in tune_summary({**result, "ci": [19.5, 25.35]})


def test_tune_tables_print_a_zero_loss_without_sign():
    from sim.analysis.tune_report import trials_table

    trial = {"number": 0, "params": {"options.end_tokens": 8}, "games": 10, "figure": 0.25, "ci": (0.1, 0.4),
             "loss": -0.0}
    row = trials_table([trial], "rate").row(0, named=True)
    assert row["loss"] == "0" and row["rate"] == "0.25 (0.1–0.4)"


def test_list_games_says_forwarders_two_player_game_needs_its_option():
    # RULINGS §6: the published Forwarder of Xanadu is for 3-5 players; 2 only with allow_two_players
    lines = {line.split()[0]: line for line in invoke("list", "games").output.splitlines()}
    assert "3-5 players (2 with option allow_two_players: true)" in lines["forwarder_of_xanadu"]
    assert " 2-4 players " in lines["traders_of_osaka"]  # no such option: the engine's own range
