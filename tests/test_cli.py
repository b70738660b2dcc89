"""The command line: runs, tables, reports, replays, config errors (Click's CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.runs import fixed

ROOT = Path(__file__).resolve().parents[1]
BASE = """\
game: traders_of_osaka
players: 3
games: 60
seed: 11
strategies:
  - {name: osaka.trader}
  - {name: osaka.shipper, params: {min_set: 3}}
  - {name: random}
"""


def write(tmp_path: Path, text: str, name: str = "c.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("run")
    cfg = write(tmp, BASE)
    res = invoke("run", cfg, "--out", tmp / "out", "--quiet", "--figures", "always")  # the figure checks below
    assert res.exit_code == 0, res.output
    return tmp / "out", res.output


@pytest.mark.integration
def test_run_writes_every_table_figure_and_report(run_dir):
    out, output = run_dir
    for name in ["games.parquet", "players.parquet", "metrics.parquet", "manifest.json", "config.json",
                 "config.yaml", "report.md", "report.html"]:
        assert (out / name).is_file(), name
    for fig in ["win_rate_by_seat", "win_rate_by_strategy", "score_by_strategy", "game_length"]:
        assert (out / "figures" / f"{fig}.png").stat().st_size > 5000
    games = pl.read_parquet(out / "games.parquet")
    players = pl.read_parquet(out / "players.parquet")
    assert games["game_index"].to_list() == list(range(60))
    assert players.height == 180 and players.columns[:6] == ["game_index", "seat", "strategy", "score", "rank", "won"]
    assert "achievement_tokens" in players.columns
    # seating permute (the default for different strategies): 10 deals of the 6 assignments, so each
    # strategy plays each seat 20 times in 60 games
    counts = players.group_by("strategy", "seat").len()
    assert counts.height == 9 and set(counts["len"]) == {20}
    # rank 1 exactly for the winners, and winners match games.winners
    won = players.filter(pl.col("won")).group_by("game_index").agg(pl.col("seat").sort())
    ok = games.filter(~pl.col("truncated")).join(won, on="game_index")
    assert all(a == b for a, b in zip(ok["winners"].to_list(), ok["seat"].to_list(), strict=True))
    assert (players.filter(pl.col("won"))["rank"] == 1).all()
    man = json.loads((out / "manifest.json").read_text())
    assert man["seed"] == 11 and man["engine_version"] == "1" and set(man["data_hashes"]) == {"cards", "track"}
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 4 and "Win rate by seat" in html
    assert "osaka.shipper" in output and "win rate (95% CI)" in output and "report:" in output


@pytest.mark.integration
def test_jobs_1_and_2_give_identical_tables(tmp_path, run_dir):
    out, _ = run_dir
    cfg = write(tmp_path, BASE)
    res = invoke("run", cfg, "--out", tmp_path / "j2", "--jobs", "2", "--quiet")
    assert res.exit_code == 0, res.output
    for t in ("games", "players", "metrics"):
        assert pl.read_parquet(out / f"{t}.parquet").equals(pl.read_parquet(tmp_path / "j2" / f"{t}.parquet")), t


@pytest.mark.integration
def test_run_line_counts_stalled_or_capped_games_as_the_games_table_does(run_dir):
    out, output = run_dir
    games = pl.read_parquet(out / "games.parquet")
    short, failed = int(games["truncated"].sum()), int(games["failed"].sum())
    assert f"; {short} stalled or capped, {failed} failed" in output


@pytest.mark.integration
def test_chunking_does_not_change_results(tmp_path, run_dir):
    out, _ = run_dir
    cfg = write(tmp_path, BASE + "chunk_size: 7\n")
    assert invoke("run", cfg, "--out", tmp_path / "c7", "--quiet").exit_code == 0
    assert pl.read_parquet(out / "players.parquet").equals(pl.read_parquet(tmp_path / "c7" / "players.parquet"))


@pytest.mark.integration
def test_report_rebuilds_from_tables(run_dir):
    out, _ = run_dir
    (out / "report.md").unlink()
    res = invoke("report", out)
    assert res.exit_code == 0 and (out / "report.md").is_file()
    assert "## Win rate by seat" in (out / "report.md").read_text()


@pytest.mark.integration
def test_replay_reproduces_the_recorded_game(run_dir):
    out, _ = run_dir
    games = pl.read_parquet(out / "games.parquet")
    players = pl.read_parquet(out / "players.parquet").filter(pl.col("game_index") == 5).sort("seat")
    res = invoke("replay", out, "--game-index", "5")
    assert res.exit_code == 0
    assert "seat 0: " in res.output and "chance: draw" in res.output and "buys goods" in res.output
    last = res.output.strip().splitlines()[-1]
    assert f"scores: {[int(x) for x in players['score']]}" in last  # VP are whole numbers
    assert f"decisions: {games['n_decisions'][5]}" in last


@pytest.mark.integration
def test_overrides_and_existing_output_refused(tmp_path):
    cfg = write(tmp_path, BASE)
    assert invoke("run", cfg, "--out", tmp_path / "o", "--games", "9", "--seed", "3", "--quiet").exit_code == 0
    assert pl.read_parquet(tmp_path / "o" / "games.parquet").height == 9
    assert json.loads((tmp_path / "o" / "manifest.json").read_text())["seed"] == 3
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 2 and "already exists" in res.output and "--force" in res.output
    assert pl.read_parquet(tmp_path / "o" / "games.parquet").height == 9  # nothing written over
    assert invoke("run", cfg, "--out", tmp_path / "o", "--games", "6", "--force", "--quiet").exit_code == 0


def test_list_validate_bench_version_help(tmp_path):
    assert "traders_of_osaka" in invoke("list", "games").output
    out = invoke("list", "strategies").output
    for name in ("random", "osaka.trader", "osaka.hoarder", "osaka.shipper"):
        assert name in out
    cfg = write(tmp_path, BASE)
    res = invoke("validate", cfg)
    assert res.exit_code == 0 and "ok" in res.output
    res = invoke("bench", "traders_of_osaka", "--games", "20")
    assert res.exit_code == 0 and "games/s" in res.output and "decisions/s" in res.output
    assert "CPU-s" in res.output and "wall" in res.output
    assert invoke("--version").output.startswith("sim, version")
    for cmd in ("run", "report", "validate", "list", "replay", "bench"):
        assert invoke(cmd, "--help").exit_code == 0


def test_python_dash_m_sim_works():
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "sim", "list", "games"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and "traders_of_osaka" in res.stdout


def test_make_demo_config_is_valid():
    res = invoke("validate", ROOT / "configs" / "traders_of_osaka" / "baseline.yaml")
    assert res.exit_code == 0, res.output


# ---------------------------------------------------------------- config errors

BAD = [
    ("unknown top-level key", BASE + "gmaes: 3\n", r"c.yaml, line 9, key 'gmaes': unknown key"),
    ("unknown strategy key", BASE.replace("{name: random}", "{name: random, parms: {}}"),
     r"line 8, key 'strategies.2.parms': unknown key"),
    ("unknown game", BASE.replace("traders_of_osaka", "catan"), r"line 1, key 'game': unknown game 'catan'"),
    ("unknown strategy", BASE.replace("name: random", "name: osaka.nope"), r"line 8, key 'strategies.2.name'.*unknown strategy 'osaka.nope'"),
    ("players out of range", BASE.replace("players: 3", "players: 5"), r"line 2, key 'players'.*2-4 players, not 5"),
    ("more strategies than seats", BASE.replace("players: 3", "players: 2"), r"line 5, key 'strategies': 3 strategies for 2 seats"),
    ("zero games", BASE.replace("games: 60", "games: 0"), r"line 3, key 'games': Input should be greater than or equal to 1"),
    ("seed not an integer", BASE.replace("seed: 11", "seed: eleven"), r"line 4, key 'seed': Input should be a valid integer"),
    ("YAML syntax", BASE + "options: {end_tokens: 8\n", r"c.yaml, line \d+, column \d+: YAML syntax error"),
    ("YAML indentation", BASE.replace("  - {name: random}", "  - {name: random}\n     params: {}"),
     r"c.yaml, line 9, column 6: YAML syntax error: expected <block end>, but found '<block mapping start>' \(most often"
     r" this line's indentation"),
    ("duplicate key", BASE + "seed: 12\n", r"line 9: duplicate key 'seed' \(first at line 4\)"),
    ("unknown option", BASE + "options:\n  end_token: 8\n", r"line 10, key 'options.end_token': unknown key"),
    ("option type", BASE + "options:\n  end_tokens: many\n", r"line 10, key 'options.end_tokens': 'end_tokens' must be a whole number, got 'many'"),
    ("option range", BASE + "options:\n  market_size: 0\n", r"line 10, key 'options.market_size': Input should be greater than or equal to 1"),
    ("bad strategy param", BASE.replace("params: {min_set: 3}", "params: {min_sets: 3}"), r"line 7, key .strategies.1.params.*bad params: .min_sets.: unknown parameter; it takes: min_set \(default 2\)"),
    ("missing data file", BASE + "data:\n  cards: nowhere.yaml\n", r"line 10, key 'data.cards': data file 'nowhere.yaml' not found"),
    ("python object tag", BASE + "output: !!python/object/apply:os.system ['echo hi']\n", r"line 9: unsupported YAML tag"),
    ("not a mapping", "- a\n- b\n", r"a config must be a mapping"),
    ("import string", BASE.replace("name: random", "name: 'nosuchpkg.mod:Thing'"), r"does not resolve"),
    ("strategy param type", BASE.replace("params: {min_set: 3}", "params: {min_set: two}"),
     r"line 7, key 'strategies.1.params.min_set': strategy 'osaka.shipper': bad params: 'min_set': must be a whole number, "
     r"got 'two'"),
    ("strategy param range", BASE.replace("params: {min_set: 3}", "params: {min_set: 0}"),
     r"line 7, key 'strategies.1.params.min_set': .*'min_set': Input should be greater than or equal to 1"),
    ("strategy of another game", BASE.replace("players: 3", "players: 3\ngame: xanadu").replace(
        "game: traders_of_osaka\n", ""), r"line 6, key 'strategies.0.name': strategy 'osaka.trader' plays "
     r"traders_of_osaka, not 'xanadu'"),
]


@pytest.mark.parametrize("label,text,message", BAD, ids=[b[0] for b in BAD])
def test_config_errors_name_file_line_key_and_exit_2(tmp_path, label, text, message):
    import re

    cfg = write(tmp_path, text)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "never"), "--quiet"])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert re.search(message, res.output), res.output
    assert not (tmp_path / "never").exists()


def test_bad_data_file_content_is_reported_with_its_line(tmp_path):
    (tmp_path / "cards.yaml").write_text("colours: [red]\ntotal_cards: 5\nper_colour:\n  - {value: 2, count: 4, insurance: 2}\n"
                                         "achievement_tokens_per_colour: 12\n")
    cfg = write(tmp_path, BASE + "data:\n  cards: cards.yaml\n")
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2 and "cards.yaml" in res.output and "total_cards is 5" in res.output


def test_missing_config_file():
    res = CliRunner().invoke(cli, ["run", "no/such/file.yaml"])
    assert res.exit_code == 2 and "file not found" in res.output


def test_charts_draw_intervals_that_miss_their_estimate():
    from sim.analysis import charts

    t = pl.DataFrame({"figure": ["Balance"], "value": [0.9], "ci_low": [0.65], "ci_high": [0.85]})
    fig = charts.interval_chart(t, "figure", "value", "t", "value")  # used to raise: negative error bar
    assert fig.axes


@pytest.mark.integration
def test_a_failing_chart_does_not_stop_the_report(run_dir, tmp_path, monkeypatch):
    import shutil

    from sim.analysis import charts

    out = tmp_path / "copy"
    shutil.copytree(run_dir[0], out)
    (out / "report.md").unlink()

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(charts, "head_to_head_chart", broken)
    res = invoke("report", out, "--figures", "always")
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    assert "## Head to head" in md and "figure 'head_to_head' could not be drawn: ValueError: boom" in md
    assert "![Win rate by seat" in md and "warning: figure 'head_to_head'" in res.output


@pytest.mark.integration
def test_default_run_folder_is_per_game_and_the_hint_suggests_resume_only_for_unfinished_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "configs").mkdir()
    (tmp_path / "other").mkdir()
    osaka = write(tmp_path / "configs", BASE.replace("games: 60", "games: 6"), "baseline.yaml")
    xanadu = write(tmp_path / "other", "game: xanadu\nplayers: 2\ngames: 4\nseed: 1\n"
                   "strategies: [{name: random}, {name: random}]\n", "baseline.yaml")
    assert invoke("run", osaka, "--quiet").exit_code == 0
    assert invoke("run", xanadu, "--quiet").exit_code == 0  # same config name, another game: no collision
    assert (tmp_path / "reports/traders_of_osaka/baseline/report.md").is_file()
    assert (tmp_path / "reports/xanadu/baseline/report.md").is_file()
    again = CliRunner().invoke(cli, ["run", str(osaka), "--quiet"])
    assert again.exit_code == 2 and "already exists" in again.output and "--resume" not in again.output
    (tmp_path / "reports/traders_of_osaka/baseline/chunks").mkdir()  # as an interrupted run leaves it
    again = CliRunner().invoke(cli, ["run", str(osaka), "--quiet"])
    assert again.exit_code == 2 and "sim run --resume reports/traders_of_osaka/baseline" in again.output


@pytest.mark.integration
def test_replay_and_resume_find_a_strategy_module_next_to_the_config_from_another_folder(tmp_path, monkeypatch):
    import sys

    from sim import chunking, play, store
    from sim.config import build_game, load_run_config
    from sim.runs import fixed

    study = tmp_path / "study"
    study.mkdir()
    (study / "wtr_next_to_config.py").write_text(
        "class Last:\n    def choose(self, obs, legal, rng):\n        return legal[-1]\n")
    write(study, BASE.replace("games: 60", "games: 8\nchunk_size: 2").replace(
        "{name: random}", "{name: 'wtr_next_to_config:Last'}"), "c.yaml")
    monkeypatch.setattr(sys, "path", list(sys.path))  # restored afterwards
    monkeypatch.chdir(study)
    assert invoke("run", "c.yaml", "--out", tmp_path / "o", "--quiet").exit_code == 0  # relative config path
    assert json.loads((tmp_path / "o" / "config.json").read_text())["source"] == str(study / "c.yaml")
    part = tmp_path / "part"  # the same run, interrupted before games 6-7
    store.prepare_output(part, False)
    rc = load_run_config(tmp_path / "o")
    fixed.write_run_files(rc, part, build_game(rc))
    fixed.play_ranges(rc, part, chunking.chunk_ranges(0, 6, 1, 2), progress=False)

    def fresh_process_elsewhere():  # the module is neither imported nor on sys.path nor cached
        monkeypatch.chdir(tmp_path)
        sys.path.remove(str(study))
        del sys.modules["wtr_next_to_config"]
        play.prepared.cache_clear()

    fresh_process_elsewhere()
    # seating: permute (different strategies): game 4 is the deal's fifth assignment (2, 0, 1)
    res = invoke("replay", tmp_path / "o", "--game-index", "4")
    assert res.exit_code == 0 and "seat 0: wtr_next_to_config:Last" in res.output
    fresh_process_elsewhere()
    res = invoke("run", "--resume", part, "--quiet")
    assert res.exit_code == 0 and "played 2 games" in res.output
    assert pl.read_parquet(part / "players.parquet").equals(pl.read_parquet(tmp_path / "o" / "players.parquet"))


@pytest.mark.integration
def test_validate_accepts_what_run_accepts(tmp_path):
    cfg = write(tmp_path, BASE.replace("games: 60\n", "").replace("seed: 11\n", ""))
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2 and "key 'games': required key is missing" in res.output
    assert "--games N, --seed S" in res.output
    res = CliRunner().invoke(cli, ["validate", str(cfg), "--games", "10", "--seed", "3"])
    assert res.exit_code == 0 and "3 players, 10 games" in res.output
    res = CliRunner().invoke(cli, ["run", str(cfg), "--games", "3", "--seed", "3", "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0


@pytest.mark.integration
def test_report_has_win_rate_by_strategy_and_seat(run_dir):
    out, _ = run_dir
    md = (out / "report.md").read_text()
    section = md.split("## Win rate by strategy and seat", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| osaka") or line.startswith("| random")]
    assert len(rows) == 9  # 3 strategies x 3 seats, each 20 games (seats rotate over 60 games)
    players = pl.read_parquet(out / "players.parquet")
    wins = int(players.filter((pl.col("strategy") == "random") & (pl.col("seat") == 2))["won"].sum())
    assert f"| random | 2 | 20 | {wins} |" in section


@pytest.mark.integration
def test_solo_report_is_about_scores_and_titles(tmp_path):
    cfg = write(tmp_path, "game: alpenzian\nplayers: 1\ngames: 12\nseed: 1\nstrategies: [{name: alpenzian.flowers}]\n")
    res = invoke("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 0, res.output
    md = (tmp_path / "o" / "report.md").read_text()
    findings = md.split("## Findings", 1)[1].split("## Run", 1)[0]
    assert "One-player (solo) game" in findings and "100.0%" not in findings and "comparisons do not apply;" in findings
    scores = pl.read_parquet(tmp_path / "o" / "players.parquet")["score"]
    assert f"alpenzian.flowers scores {scores.mean():.2f} (" in findings and "Games by title: " in findings
    assert "## Win rate by seat" not in md and "## Whole-game balance" not in md and "## Component distribution" in md
    assert "win rate (95% CI)" not in res.output  # no win-rate table in the terminal summary


def test_games_per_second_keeps_its_precision():
    from sim.cli.options import speed as _speed

    assert [_speed(x) for x in (0.4213, 3.46, 22.4, 155.4)] == ["0.42", "3.5", "22", "155"]


@pytest.mark.integration
def test_bench_of_a_config_plays_the_games_of_sim_run(tmp_path):
    """``sim bench CONFIG`` plays the config's first games as ``sim run`` does: its decisions per
    game are the mean ``n_decisions`` of the same games in a run folder."""
    import re

    cfg = write(tmp_path, BASE)
    assert invoke("run", cfg, "--games", "6", "--out", tmp_path / "r", "--quiet").exit_code == 0
    want = pl.read_parquet(tmp_path / "r" / "games.parquet")["n_decisions"].mean()
    res = invoke("bench", cfg, "--games", "6")
    assert res.exit_code == 0, res.output
    assert int(re.search(r"\((\d+) decisions/game\)", res.output).group(1)) == round(want)
    for extra in (["--players", "7"], ["--strategy", "nosuch"], ["--seed", "3"]):  # the config decides these
        res = invoke("bench", cfg, "--games", "2", *extra)
        assert res.exit_code == 2 and f"{extra[0]} cannot be used with a config" in res.output


@pytest.mark.integration
def test_a_failed_check_piped_into_a_reader_that_left_still_exits_1_and_writes_its_junit(tmp_path):
    """`sim check CONFIG | head -1` in CI (with pipefail): the check's own status, not 0, and the
    JUnit file written (session 10 fresh-user finding 1: sim stopped at its first line, status 0).
    Trader, shipper and random in 3 seats: each scripted plan wins about a third or more of 42 games (7 whole deals)
    (a fair share is 33%), so a ceiling of 10% on a strategy's win rate fails."""
    import subprocess
    import sys

    cfg = write(tmp_path, BASE)
    cfg.write_text(cfg.read_text() + "checks:\n  max_strategy_win_rate: 0.10\n")
    junit = tmp_path / "j.xml"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "check", str(cfg), "--games", "42", "--jobs", "1",
                             "--out", str(tmp_path / "c"), "--junit", str(junit)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.readline()
    proc.stdout.close()  # `head -1`: the reader is gone after the first line
    assert proc.wait(timeout=120) == 1, proc.stderr.read().decode()
    assert "max_strategy_win_rate" in junit.read_text() and "<failure" in junit.read_text()


@pytest.mark.integration
def test_output_into_a_closed_pipe_ends_with_status_0(tmp_path):
    """`sim replay RUN | head -1`: the reader stops early; sim ends quietly with 0 (1 means a failed
    game or check), as `cat` does."""
    import subprocess
    import sys

    cfg = write(tmp_path, BASE)
    assert invoke("run", cfg, "--games", "2", "--out", tmp_path / "r", "--quiet").exit_code == 0
    proc = subprocess.Popen([sys.executable, "-m", "sim", "replay", str(tmp_path / "r"), "--game-index", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    assert proc.wait(timeout=120) == 0, proc.stderr.read().decode()


@pytest.mark.integration
def test_seating_flag_overrides_the_config_and_its_config_yaml_replays_it(tmp_path):
    """`sim run CONFIG --seating permute` (fresh-user finding 9, session 10): the run is played in deals
    (3 different strategies in 3 seats: 3! = 6 games a deal), its config.yaml says permute, and the
    flag goes with --game too; --resume refuses it."""
    cfg = write(tmp_path, BASE)  # rotate by default
    res = invoke("run", cfg, "--seating", "permute", "--games", "12", "--jobs", "1", "--out", tmp_path / "p",
                 "--quiet", "--figures", "never")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "p" / "config.json").read_text())["seating"] == "permute"
    assert "--seating permute`" in (tmp_path / "p" / "config.yaml").read_text().splitlines()[0]  # the header says so
    games = pl.read_parquet(tmp_path / "p" / "games.parquet")
    assert sorted(games["deal_index"].unique().to_list()) == [0, 1]  # 12 games = 2 deals of 6
    again = invoke("run", tmp_path / "p" / "config.yaml", "--jobs", "1", "--out", tmp_path / "q", "--quiet",
                   "--figures", "never")
    assert again.exit_code == 0 and json.loads((tmp_path / "q" / "config.json").read_text())["seating"] == "permute"
    flags = invoke("run", "--game", "traders_of_osaka", "--players", "2", "--games", "4", "--seating", "fixed",
                   "--out", tmp_path / "g", "--quiet", "--figures", "never")
    assert flags.exit_code == 0 and "seating: fixed" in (tmp_path / "g" / "config.yaml").read_text()
    res = CliRunner().invoke(cli, ["run", "--resume", str(tmp_path / "p"), "--seating", "rotate"])
    assert res.exit_code == 2 and "--seating cannot be combined with --resume" in res.output


@pytest.mark.integration
def test_run_line_gives_the_merge_apart_from_the_play(run_dir):
    _, output = run_dir
    assert re.search(r"played 60 games in \d\.\d\d s \([\d,.]+ games/s, \d jobs?\), merged in \d\.\d\d s; ", output), output


def test_merge_records_the_seconds_the_merge_took(monkeypatch, tmp_path):
    clock = iter([100.0, 102.5])  # perf_counter before and after the merge
    merged = []
    monkeypatch.setattr(fixed.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(fixed.store, "merge_chunks", merged.append)
    outcome = fixed.RunOutcome(tmp_path, games=10, seconds=1.0, failed=0, truncated=0)
    assert fixed.merge(tmp_path, outcome) is outcome and outcome.merge_seconds == 2.5 and merged == [tmp_path]


def _stop(*_args):
    raise KeyboardInterrupt


@pytest.mark.integration
def test_a_stop_between_the_merge_and_the_report_says_how_to_write_the_report(tmp_path, monkeypatch):
    cfg = write(tmp_path, BASE.replace("games: 60", "games: 6"))
    monkeypatch.setattr(fixed.RunOutcome, "ends", _stop)  # the run line, after the merge
    res = invoke("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 130 and (tmp_path / "o" / "games.parquet").is_file()
    assert f"interrupted: every game is on disk in {tmp_path / 'o'}" in res.output
    assert f"sim report {tmp_path / 'o'}" in res.output
    monkeypatch.undo()  # the next command starts without the hint: a stop before any game says only "interrupted"
    monkeypatch.setattr("sim.cli.commands_play.from_flags", _stop)  # before any game, outside every handled block
    res = invoke("run", cfg, "--out", tmp_path / "p", "--quiet")
    assert res.exit_code == 130 and res.output.strip() == "interrupted"


def _polars_stop(*_args, **_kwargs):
    from polars.exceptions import PanicException

    # what polars raised when a Ctrl-C landed in its callback into Python (breaker trial, session 14)
    raise PanicException("called `Result::unwrap()` on an `Err` value: PyErr { type: <class 'KeyboardInterrupt'>,"
                         " value: KeyboardInterrupt() }")


@pytest.mark.integration
def test_a_ctrl_c_that_polars_turns_into_a_panic_is_still_a_stop(tmp_path, monkeypatch):
    cfg = write(tmp_path, BASE.replace("games: 60", "games: 6"))
    monkeypatch.setattr("sim.cli.commands_play.build_report", _polars_stop)  # in the report, after the merge
    res = invoke("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 130 and f"sim report {tmp_path / 'o'}" in res.output
    monkeypatch.setattr("sim.store.merge_chunks", _polars_stop)  # in the merge: the games are not all on disk
    res = invoke("run", cfg, "--out", tmp_path / "p", "--quiet")
    assert res.exit_code == 130 and f"sim run --resume {tmp_path / 'p'}" in res.output


def test_only_a_panic_around_a_keyboard_interrupt_is_a_stop():
    from polars.exceptions import PanicException

    from sim.limits import is_stop

    assert is_stop(KeyboardInterrupt()) and is_stop(PanicException("PyErr { type: <class 'KeyboardInterrupt'> }"))
    assert not is_stop(PanicException("index out of bounds")) and not is_stop(ValueError("KeyboardInterrupt"))


def test_run_line_names_games_now_and_before_by_hand(tmp_path):
    from sim.cli.commands_play import run_line

    o = fixed.RunOutcome(tmp_path, games=60, seconds=2.0, failed=1, truncated=2, jobs=1, already=20, merge_seconds=0.04)
    assert run_line(o) == ("played 60 games (20 were already on disk) in 2.00 s (30 games/s, 1 job), merged in 0.04 s;"
                           " 2 stalled or capped, 1 failed")
    one = fixed.RunOutcome(tmp_path, games=1, seconds=0.5, failed=0, truncated=0, jobs=2, merge_seconds=0.125)
    assert run_line(one, "dask") == ("played 1 game in 0.50 s (2 games/s, dask cluster), merged in 0.12 s;"
                                     " 0 stalled or capped, 0 failed")  # 0.125 -> "0.12": Python rounds half to even
    long = fixed.RunOutcome(tmp_path, games=20000, seconds=12.25, failed=0, truncated=0, jobs=1, merge_seconds=0.1)
    assert run_line(long).startswith("played 20000 games in 12.2 s (1633 games/s, 1 job), merged in 0.10 s;")
    none = fixed.RunOutcome(tmp_path, games=0, seconds=0.0, failed=0, truncated=0, jobs=2, already=20000)
    assert run_line(none) == ("played no games (all 20000 were already on disk), merged in 0.00 s;"
                              " 0 stalled or capped, 0 failed")


@pytest.mark.integration
def test_run_line_counts_the_jobs_that_played_at_once(tmp_path):
    # one game is one chunk: --jobs 2 plays it on one job (second breaker trial, session 14: "2 jobs")
    res = invoke("run", write(tmp_path, BASE.replace("games: 60", "games: 1")), "--out", tmp_path / "o", "--jobs", "2")
    assert res.exit_code == 0 and "games/s, 1 job), merged in" in res.output, res.output
