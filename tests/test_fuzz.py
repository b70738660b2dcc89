"""``make fuzz`` (python -m sim.fuzz): passes on healthy engines, saves failing seeds."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sim.fuzz import fuzz_one, main
from sim.games.traders_of_osaka import TradersOfOsaka


def test_fuzz_passes_and_writes_an_empty_failure_file(tmp_path):
    res = CliRunner().invoke(main, ["--games", "30", "--game", "traders_of_osaka", "--jobs", "1", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "traders_of_osaka: 30 games, 0 failed" in res.output
    assert (tmp_path / "traders_of_osaka.jsonl").read_text() == ""


def test_fuzz_plays_exactly_the_games_asked_for(tmp_path):
    # Osaka takes 2-4 players: 20 games split 7 + 7 + 6 (it used to play 3 x 6 = 18)
    res = CliRunner().invoke(main, ["--games", "20", "--game", "traders_of_osaka", "--jobs", "1", "--out", str(tmp_path)])
    assert res.exit_code == 0 and "traders_of_osaka: 20 games, 0 failed" in res.output


def test_fuzz_records_failing_seeds_and_exits_1(tmp_path, monkeypatch):
    def broken(self, s):
        assert s.turns < 40, "turn counter ran away"

    monkeypatch.setattr(TradersOfOsaka, "check_invariants", broken)
    res = CliRunner().invoke(main, ["--games", "9", "--game", "traders_of_osaka", "--jobs", "1", "--out", str(tmp_path)])
    assert res.exit_code == 1
    rows = [json.loads(line) for line in (tmp_path / "traders_of_osaka.jsonl").read_text().splitlines()]
    assert rows and all("turn counter ran away" in r["error"] for r in rows)
    r = rows[0]
    try:  # the saved seed replays the failure
        fuzz_one("traders_of_osaka", r["players"], r["seed"], r["game_index"])
    except AssertionError as exc:
        assert "turn counter ran away" in str(exc)
    else:
        raise AssertionError("the saved seed did not reproduce the failure")
