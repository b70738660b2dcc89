"""A sweep point's config.yaml replays that point (`sim run POINT/config.yaml` plays the same
games) and `sim sweep CONFIG --option K=V` records K=V in sweep.json and in every point's config
(breaker trial 2 leftover 1, session 9)."""

from __future__ import annotations

import json

import polars as pl
import pytest
import yaml
from click.testing import CliRunner

from sim.cli import cli

SWEEP = """\
game: traders_of_osaka
players: 3
games: 8
seed: 5
strategies:
  - {name: osaka.trader}
  - {name: random}
sweep:
  options.end_tokens: [6, 9]
  data.cards.achievement_tokens_per_colour: [12]
"""


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.integration
def test_each_point_config_replays_the_point_with_the_option(tmp_path):
    cfg = tmp_path / "sw.yaml"
    cfg.write_text(SWEEP)
    res = invoke("sweep", cfg, "--option", "hand_threshold=10", "--out", tmp_path / "sw", "--quiet",
                 "--no-point-reports", "--figures", "never")
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "sw" / "sweep.json").read_text())
    assert doc["options"] == {"hand_threshold": 10}
    point = tmp_path / "sw" / "point-001"  # end_tokens 9 (the grid's second value), 12 tokens per colour
    written = yaml.safe_load((point / "config.yaml").read_text())
    assert "sweep" not in written and "output" not in written
    assert written["options"]["hand_threshold"] == 10 and written["options"]["end_tokens"] == 9
    assert "--option hand_threshold=10" in (point / "config.yaml").read_text().splitlines()[0]
    res = invoke("run", point / "config.yaml", "--out", tmp_path / "again", "--quiet", "--figures", "never")
    assert res.exit_code == 0, res.output
    tokens = yaml.safe_load((tmp_path / "again" / "data" / "cards.yaml").read_text())
    assert tokens["achievement_tokens_per_colour"] == 12
    for table in ("games", "players"):
        before, after = (pl.read_parquet(d / f"{table}.parquet") for d in (point, tmp_path / "again"))
        assert before.equals(after), table
