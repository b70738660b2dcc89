"""``--jobs 2`` on a platform with ``os.fork``: chunks are played by forked workers
(``sim.runs.forked.pool_results``, issue 20 item 1). The same games as in the ``sim`` process;
a worker ended by its strategy fails only the games of the seat that ended it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal
from test_reliability_fork import CFG as ONE_JOB

from sim.cli import cli
from sim.config import load_config
from sim.runs import fixed, forked

TESTS = Path(__file__).resolve().parent

# the one-job config of the forked-worker tests, with two jobs and a game count to fill in
CFG = ONE_JOB.replace("games: 6", "games: {games}").replace("jobs: 1", "jobs: 2")


@pytest.mark.integration
def test_two_forked_workers_play_the_same_games_as_the_sim_process(tmp_path, monkeypatch):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=9, chunk=2, second="osaka.shipper"))
    rc = load_config(cfg)
    fixed.run(rc, tmp_path / "pool", progress=False)
    monkeypatch.setattr(forked, "can_fork", lambda: False)  # the reference: joblib's worker processes
    rc1 = rc.model_copy(update={"jobs": 1})
    fixed.run(rc1, tmp_path / "inproc", progress=False)
    for table in ("games", "players", "metrics"):
        assert_frame_equal(pl.read_parquet(tmp_path / "pool" / f"{table}.parquet"),
                           pl.read_parquet(tmp_path / "inproc" / f"{table}.parquet"))


@pytest.mark.integration
def test_a_worker_ended_by_its_strategy_fails_only_that_seats_games(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    # SeatExiter ends its process in seat 0: with rotate seating, strategy 1 sits in seat 0 in
    # games 1, 4, 7 of 9 (seat 0 plays strategy (0 + game) % 3, sim.setup.seat_labels)
    cfg.write_text(CFG.format(games=9, chunk=3, second="test_reliability_fork:SeatExiter"))
    # a plugin is played in joblib's fresh interpreters (fork_safe is False for it); forced
    # here into the forked pool, whose own handling of a dying worker this test is about
    monkeypatch.setattr(forked, "fork_safe", lambda setup_json: True)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--jobs", "2"])
    assert res.exit_code == 0, res.output
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet").sort("game_index")
    assert errors["game_index"].to_list() == [1, 4, 7]
    assert set(errors["exception"]) == {"WorkerDied"} and "exit code 7" in errors["message"][0]
    assert pl.read_parquet(tmp_path / "o" / "players.parquet").height == 18


@pytest.mark.integration
def test_a_plugin_plays_in_fresh_interpreters_and_its_dying_worker_fails_only_its_games(tmp_path, monkeypatch):
    """A plugin may have started thread pools (polars) in the sim process, which a fork cannot
    use, so plugin runs use joblib's fresh interpreters, with one job too (breaker finding 1,
    session 4); a worker that dies still fails only the games of the seat that ended it. (With
    two jobs, the same: tests/test_hostile_runs.py test_09.)

    4 games in chunks of 2 (9 in chunks of 3 before session 7): the exiter sits in seat 0 only in
    game 1 (seat 0 plays strategy game % 3), so chunk 0-1 kills its worker, is played alone, then
    game by game (game 0 played, game 1 failed), and chunk 2-3 goes on in a fresh pool: every path
    of ``sim.runs.workers._careful`` the 9 games took, with 5 fresh interpreters instead of about 12."""
    jobs = "1"
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=4, chunk=2, second="test_reliability_fork:SeatExiter"))
    calls = []
    monkeypatch.setattr(forked, "Worker", lambda *a: calls.append(a))  # a fork would be recorded
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--jobs", jobs])
    assert res.exit_code == 0, res.output
    assert calls == []
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet").sort("game_index")
    assert errors["game_index"].to_list() == [1]
    assert set(errors["exception"]) == {"WorkerDied"}
    assert pl.read_parquet(tmp_path / "o" / "players.parquet").height == 3 * 3  # games 0, 2, 3: 3 seats each


def test_only_the_projects_own_strategies_are_played_in_forks():
    from sim.registry import project_strategies

    assert project_strategies([("osaka.trader", {}), ("random", {})], "traders_of_osaka")
    assert not project_strategies([("test_reliability_fork:SeatExiter", {})], "traders_of_osaka")
    # a search whose rollout is a plugin runs plugin code too
    assert not project_strategies([("search", {"rollout": "mine:Plan"})], "traders_of_osaka")
