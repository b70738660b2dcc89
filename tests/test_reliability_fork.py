"""Issue 19, ``--jobs 1``: games are played in one forked worker process (``sim.runs.forked``), so
a strategy that ends its process with ``os._exit`` fails only its game, and the run goes on.

Expected values by hand: with ``seating: rotate`` seat ``s`` of game ``g`` plays strategy
``(s + g) mod 3`` (DESIGN "Runs and results"), so strategy 1 (``SeatExiter``) sits in seat 0 in
the games with ``g mod 3 == 1``: games 1 and 4 of 0..5. Those two games die, the other four are
played (4 games x 3 seats = 12 player rows).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from sim.cli import cli
from sim.config import load_config
from sim.runs import fixed, forked
from strategies.common import RandomStrategy, ScriptedStrategy

TESTS = Path(__file__).resolve().parent


class SeatExiter(ScriptedStrategy):
    """Plays randomly, but ends its whole process (``os._exit(7)``) when it sits in seat 0."""

    def __init__(self, **params):
        super().__init__(**params)
        self.inner = RandomStrategy()

    def choose(self, obs, legal, rng):
        if obs.seat == 0:
            os._exit(7)
        return self.inner.choose(obs, legal, rng)


CFG = """\
game: traders_of_osaka
players: 3
games: 6
seed: 5
jobs: 1
chunk_size: {chunk}
seating: rotate
strategies:
  - {{name: osaka.trader}}
  - {{name: '{second}'}}
  - {{name: random}}
"""


@pytest.mark.integration
@pytest.mark.parametrize("chunk", [1, 3])
def test_a_strategy_ending_its_process_fails_only_its_game_with_one_job(tmp_path, monkeypatch, chunk):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(chunk=chunk, second="test_reliability_fork:SeatExiter"))
    monkeypatch.setattr(forked, "fork_safe", lambda setup_json: True)  # a plugin, forced into the fork
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output  # the run goes on and ends normally
    assert "played 6 games" in res.output and "2 failed" in res.output
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet").sort("game_index")
    assert errors["game_index"].to_list() == [1, 4]
    assert set(errors["exception"]) == {"WorkerDied"} and set(errors["seed"]) == {5}
    assert "exit code 7" in errors["message"][0]
    games = pl.read_parquet(tmp_path / "o" / "games.parquet").sort("game_index")
    assert games["failed"].to_list() == [False, True, False, False, True, False]
    assert pl.read_parquet(tmp_path / "o" / "players.parquet").height == 12


@pytest.mark.integration
def test_the_forked_worker_plays_the_same_games_as_the_sim_process(tmp_path, monkeypatch):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(chunk=4, second="osaka.shipper"))
    rc = load_config(cfg)
    fixed.run(rc, tmp_path / "forked", progress=False)
    monkeypatch.setattr(forked, "can_fork", lambda: False)  # the reference: in the sim process itself
    fixed.run(rc, tmp_path / "inproc", progress=False)
    for table in ("games", "players", "metrics"):
        assert_frame_equal(pl.read_parquet(tmp_path / "forked" / f"{table}.parquet"),
                           pl.read_parquet(tmp_path / "inproc" / f"{table}.parquet"))


def test_the_worker_is_gone_after_the_run(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(chunk=6, second="random").replace("games: 6", "games: 1"))
    setup_json = fixed.setup_of(load_config(cfg)).to_json()
    w = forked.Worker(setup_json)
    pid = w.pid
    a, b, tables = w.play(0, 1)
    assert (a, b, tables["games"].height) == (0, 1, 1)
    w.close()
    deadline = time.monotonic() + 10
    while pid in forked._UNREAPED and time.monotonic() < deadline:  # it exits by itself, reaped when it has
        time.sleep(0.01)
        forked.reap()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # reaped: no such process any more


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_parent_leaves_no_forked_worker(tmp_path, sig):
    import psutil

    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(chunk=10, second="osaka.shipper").replace("games: 6", "games: 4000"))
    out = tmp_path / "o"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", str(cfg), "--out", str(out), "--quiet"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    for _ in range(1200):  # until the worker is forked and a chunk is written
        try:
            workers = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            workers = []
        if workers and list((out / "chunks").glob("games-*.parquet")):
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)  # to the parent alone
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and f"sim run --resume {out}" in err, err

    def running(pid):
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.time() + 10
    while any(map(running, workers)) and time.time() < deadline:
        time.sleep(0.1)
    assert workers and not [p for p in workers if running(p)], workers
