"""The plans' whole turn taken at the die step (``strategies.alpenzian.turn``) plays the games of
choosing the die, the area and the square one step at a time (issue 20 item 2, round seven)."""

from __future__ import annotations

from pathlib import Path

import pytest

import strategies.alpenzian.expert as expert
import strategies.alpenzian.planner as planner
from sim.config import load_config
from sim.play import play_one, prepared
from sim.runs.fixed import setup_of

ROOT = Path(__file__).resolve().parents[1]


def _logs(config: str, games: int) -> list:
    setup, game, factories = prepared(setup_of(load_config(ROOT / "configs" / "alpenzian" / config)).to_json())
    return [play_one(setup, game, factories, i, record=True)[0].log for i in range(games)]


@pytest.mark.parametrize("config,games", [("baseline.yaml", 4), ("expert_4p.yaml", 2), ("expert_vs_ranch.yaml", 4)])
def test_planned_turns_play_the_step_by_step_games(config, games, monkeypatch):
    planned = _logs(config, games)
    # the reference: the die step keeps no plan, so the area and square steps score their own decisions
    for module in (planner, expert):
        monkeypatch.setattr(module, "plan_turn", lambda plan, die, *args: die)
    assert _logs(config, games) == planned
