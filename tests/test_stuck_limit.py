"""A game over ``game_timeout_s`` whose ``GameTimeout`` cannot be raised (the limit's Python handler
never runs: compiled code looping without calling back into Python, breaker trial of session 11)
ends its worker at ``limits.hard_limit`` CPU seconds and is recorded as failed; the run goes on.

Simulated here in Python by blocking SIGPROF (the limit's signal) before looping, which is what a
compiled loop amounts to. Expected by hand: with ``seating: rotate`` and 3 players, strategy 1
(``StuckInC``) sits in seat 0 in games 1 and 4 of 0..5 (as tests/test_reliability_fork.py).
"""

from __future__ import annotations

import signal
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.limits import hard_limit
from sim.runs import forked
from tests.test_reliability_fork import SeatExiter  # its random play in the other seats

TESTS = Path(__file__).resolve().parent


class StuckInC(SeatExiter):
    """Plays randomly, but in seat 0 loops forever with the limit's signal blocked."""

    def choose(self, obs, legal, rng):
        if obs.seat == 0:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPROF})
            while True:
                pass
        return self.inner.choose(obs, legal, rng)


CFG = """\
game: traders_of_osaka
players: 3
games: 6
seed: 5
jobs: 1
chunk_size: 3
seating: rotate
game_timeout_s: 0.3
strategies:
  - {name: osaka.trader}
  - {name: 'test_stuck_limit:StuckInC'}
  - {name: random}
"""


def test_the_hard_limit_is_above_the_limit():
    assert hard_limit(0.3) == pytest.approx(1.3) and hard_limit(60) == 120


@pytest.mark.integration
def test_a_game_stuck_where_the_limit_cannot_reach_fails_only_itself(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setattr(forked, "fork_safe", lambda setup_json: True)  # a plugin, forced into the fork
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet").sort("game_index")
    assert errors["game_index"].to_list() == [1, 4] and set(errors["exception"]) == {"WorkerDied"}
    assert "game_timeout_s" in errors["message"][0]
    assert pl.read_parquet(tmp_path / "o" / "players.parquet").height == 12
