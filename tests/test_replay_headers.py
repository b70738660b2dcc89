"""Replay headers (fresh-user finding, session 4): a round starts with the turn after every seat
has had one, and each turn header names the seat's strategy, in every game that counts turns."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from sim.cli import cli


@pytest.mark.integration
@pytest.mark.parametrize("game, players, strategy", [("xanadu", 3, "xanadu.builder"),
                                                     ("traders_of_osaka", 4, "osaka.trader")])
def test_round_headers_come_every_n_turns_and_turns_name_the_strategy(tmp_path, game, players, strategy):
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["run", "--game", game, "--players", str(players), "--strategy", strategy,
                                   "--games", "1", "--seed", "2", "--jobs", "1", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    log = CliRunner().invoke(cli, ["replay", str(out), "--game-index", "0"]).output.splitlines()
    heads = [line for line in log if line.startswith(("=== round", "--- turn"))]
    turns = [int(m.group(1)) for line in heads if (m := re.match(r"--- turn (\d+): seat \d+ \((.+)\) ---", line))]
    assert len(turns) > players and turns == list(range(1, len(turns) + 1))
    assert all(f"({strategy})" in line for line in heads if line.startswith("--- turn"))
    # round r (from 1) is announced just before turn (r - 1) * players + 1
    for i, line in enumerate(heads):
        if m := re.match(r"=== round (\d+) ===", line):
            nxt = re.match(r"--- turn (\d+)", heads[i + 1])
            assert nxt and int(nxt.group(1)) == (int(m.group(1)) - 1) * players + 1, heads[i:i + 2]
