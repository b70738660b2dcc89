"""Data sweep keys say what the data file holds (session 8, fresh-user finding 5): a path that leaves
the file lists the keys or the index range there, and an invalid value is placed at the line of the
data file it was written into, with the sweep key named as written (no value index glued to it)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from sim.cli import cli

HEAD = """\
game: xanadu
players: 4
games: 4
seed: 7
strategies: [xanadu.expert, xanadu.hoarder, xanadu.saboteur, xanadu.builder]
sweep:
"""
CARDS = Path(__file__).resolve().parents[1] / "sim/games/xanadu/data/cards.yaml"


def validate(tmp_path, sweep_line: str) -> str:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(HEAD + sweep_line + "\n")
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    return res.output


def test_a_path_outside_the_file_lists_what_is_there(tmp_path):
    # cards.yaml's top level (docs/xanadu.md "Data"): resources, colours, counts and the list of cards
    out = validate(tmp_path, "  data.cards.0.cost: [1, 2]")
    assert "the file has the keys resources, colours, counts, cards" in out
    assert "did you mean 'data.cards.cards.0.cost'?" in out  # the list of cards is one level down
    # the rulebook's 70 cards (24 brown, 24 blue, 12 yellow, 10 green)
    out = validate(tmp_path, "  data.cards.cards.99.cost: [[wood]]")
    assert "'cards.99' is not in the data file cards" in out and "'cards' is a list of 70 entries: give an index 0..69" in out
    out = validate(tmp_path, "  data.cards.cards.0.costt: [[wood]]")
    assert "did you mean 'cost'?" in out


def test_an_invalid_value_is_placed_in_the_data_file_at_its_key(tmp_path):
    out = validate(tmp_path, "  data.cards.cards.0.cost: [1, 2]")
    # the line of the first card's cost in the packaged file, found by reading it
    line = next(n for n, text in enumerate(CARDS.read_text().splitlines(), 1) if re.match(r"\s+cost:", text))
    assert "c.yaml, line 7, key 'sweep.data.cards.cards.0.cost', value 1: data file cards with cards.0.cost = 1:" in out
    assert f"{CARDS}, line {line}, key 'cards.0.cost': Input should be a valid list (got 1)" in out
    assert "cost.0'" not in out and "point000" not in out
