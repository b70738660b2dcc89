"""Issue 18: an interrupted ``sim check --until-decided`` or ``sim run --until-ci`` run, resumed
with ``--resume``, continues the whole adaptive procedure (not only the batch it was in) and ends
with the tables and the batches of an uninterrupted run.

The interruption lands after the third chunk is written (``store.write_chunk``), i.e. inside
the third batch: with chunks of 4 games the batches are 4, 8, 16, ... games (doubling for
``--until-decided``), so chunks 1 and 2 are batches 1 and 2 and chunk 3 is the first half of
batch 3. The checks below stay undecided for so few games (a seat win rate of 2-player games
under 60% needs hundreds of games to decide), so the run goes to ``--max-games``.
"""

from __future__ import annotations

import json
import re

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from sim import store
from sim.cli import cli

CFG = """\
game: traders_of_osaka
players: 2
games: 4
seed: 8
chunk_size: 4
jobs: 1
seating: rotate
strategies:
  - {name: osaka.trader}
  - {name: random}
checks:
  max_seat_win_rate: 0.6
"""


def sim(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _same_tables(a, b):
    for t in ("games", "players", "metrics"):
        assert_frame_equal(pl.read_parquet(a / f"{t}.parquet"), pl.read_parquet(b / f"{t}.parquet"))


def _interrupt_after(monkeypatch, chunks: int):
    real, written = store.write_chunk, []

    def write_chunk(out, start, tables, stop=None):
        if len(written) >= chunks:
            raise KeyboardInterrupt  # as Ctrl-C (SIGTERM is turned into the same) in the next batch
        written.append(start)
        return real(out, start, tables, stop)

    monkeypatch.setattr(store, "write_chunk", write_chunk)
    return lambda: monkeypatch.setattr(store, "write_chunk", real)


@pytest.mark.integration
def test_until_decided_resumes_the_whole_procedure(tmp_path, monkeypatch):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG)
    full = sim("check", cfg, "--until-decided", "--max-games", 32, "--out", tmp_path / "full", "--quiet")
    assert full.exit_code == 3, full.output  # inconclusive at 32 games
    assert "raise --max-games" in full.output and "try --until-decided" not in full.output  # fresh-user 5, s5

    undo = _interrupt_after(monkeypatch, 3)
    cut = sim("check", cfg, "--until-decided", "--max-games", 32, "--out", tmp_path / "cut", "--quiet")
    assert cut.exit_code == 130 and f"sim check --resume {tmp_path / 'cut'}" in cut.output, cut.output
    stopping = json.loads((tmp_path / "cut" / "stopping.json").read_text())
    assert stopping["finished"] is False and [b["games"] for b in stopping["batches"]] == [4, 8]
    undo()

    res = sim("check", "--resume", tmp_path / "cut", "--quiet")
    assert res.exit_code == 3, res.output  # the checks are evaluated after the resumed procedure
    # resumed at its --max-games: more of the same rule, not the rule it already follows (breaker 14, s8)
    assert "raise --max-games" in res.output and "try --until-decided" not in res.output, res.output
    # the run line counts the games played now and those the interrupted run left: 32 in all (breaker, s14)
    now, before = map(int, re.search(r"played (\d+) games? \((\d+) were already on disk\)", res.output).groups())
    assert now + before == 32 and before > 0 and "already on disk" not in full.output
    _same_tables(tmp_path / "full", tmp_path / "cut")
    a, b = (json.loads((tmp_path / d / "stopping.json").read_text()) for d in ("full", "cut"))
    assert [x["games"] for x in b["batches"]] == [4, 8, 16, 32] == [x["games"] for x in a["batches"]]
    assert (a["games"], a["reason"], a["finished"]) == (b["games"], b["reason"], b["finished"]) == (
        32, a["reason"], True)
    assert pl.read_parquet(tmp_path / "cut" / "games.parquet").height == 32


@pytest.mark.integration
def test_until_ci_resumes_the_whole_procedure(tmp_path, monkeypatch):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG)
    args = ["--until-ci", 0.05, "--max-games", 40, "--quiet"]
    full = sim("run", cfg, "--out", tmp_path / "full", *args)
    assert full.exit_code == 0, full.output

    undo = _interrupt_after(monkeypatch, 3)
    cut = sim("run", cfg, "--out", tmp_path / "cut", *args)
    assert cut.exit_code == 130 and f"sim run --resume {tmp_path / 'cut'}" in cut.output, cut.output
    undo()
    res = sim("run", "--resume", tmp_path / "cut", "--quiet")
    assert res.exit_code == 0, res.output
    _same_tables(tmp_path / "full", tmp_path / "cut")
    a, b = (json.loads((tmp_path / d / "stopping.json").read_text()) for d in ("full", "cut"))
    assert a["batches"] == b["batches"] and a["games"] == b["games"] == 40 and b["finished"] is True
