"""`sim tune` / `sim discover` under `seating: permute` say what is true about common random
numbers: trials that deal in other deal sizes play other games (breaker trial 2 leftover 7,
session 9: the reports claimed common random numbers for every trial)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis import objectives
from sim.analysis.tune_report import discover_summary, same_games
from sim.cli import cli

# trader, X, random over 3 seats, permuted: X = random gives 3!/2! = 3 orders a deal, X = shipper 3! = 6
TUNE = """\
game: traders_of_osaka
players: 3
games: 12
seating: permute
seed: 9
jobs: 1
strategies:
  - {name: osaka.trader}
  - {name: random}
  - {name: random}
tune:
  params:
    strategies.1.name: {choice: [random, osaka.shipper]}
  target: {metric: rounds, value: 12}
  max_games: 12
"""


@pytest.mark.integration
def test_a_tune_whose_trials_deal_differently_does_not_claim_common_random_numbers(tmp_path):
    (tmp_path / "t.yaml").write_text(TUNE)
    res = CliRunner().invoke(cli, ["tune", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "o" / "tune.json").read_text())["deals"] == [3, 6]
    md = (tmp_path / "o" / "tune.md").read_text()
    assert "dealt 3 or 6 games per deal" in md and "common random numbers hold only among trials of the same" in md
    assert "game indices (common random numbers)" not in md


def test_same_games_names_one_deal_size_as_common_random_numbers():
    assert "deals (common random numbers)" in same_games({"deals": [6]})
    assert "deals (common random numbers)" in same_games({"deals": []})  # rotate / fixed: one game per deal
    assert "dealt 2, 3 or 6 games per deal" in same_games({"deals": [2, 3, 6]})


def test_a_confirmation_on_other_deals_is_compared_unpaired():
    # best: 3 wins of 4 games, default: 1 of 4, on other deals: Fisher's exact test on [[3, 1], [1, 3]],
    # two-sided p = (1 + 16 + 16 + 1) / 70 = 34/70 (hypergeometric, 8 games, 4 wins, 4 per row)
    a = pl.DataFrame({"game_index": [0, 1, 2, 3], "won": [True, True, True, False]})
    b = pl.DataFrame({"game_index": [0, 1, 2, 3], "won": [True, False, False, False]})
    test = objectives.fisher(a, b)
    assert test["test"] == "fisher" and test["p"] == pytest.approx(34 / 70)
    result = {"win_rate": {"best": {"value": 0.75, "ci": [0.3, 0.95], "games": 4},
                           "default": {"value": 0.25, "ci": [0.05, 0.7], "games": 4}},
              "fair_share": 0.5, "best_params": {"min_goods": 1}, "importances": {}, "dominant": False,
              "strategy": "osaka.trader", "p_vs_fair": 0.3, "margin": 0.1, "p": test["p"], "paired": test}
    text = discover_summary(result)
    assert "other deals" in text and "Fisher's exact test" in text and "McNemar" not in text
