"""The game loop's collector setting (``sim.limits.fewer_collections``, issue 20 item 2 round nine): games
play with the youngest generation collected every ``PLAY_GC_THRESHOLD`` allocations, and the process's
own setting is back afterwards, also when a game fails or the setting was higher already."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import sim.play as play
from sim.config import load_config
from sim.runs.fixed import setup_of

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def setup_json() -> str:
    return setup_of(load_config(ROOT / "configs" / "alpenzian" / "baseline.yaml")).to_json()


@pytest.fixture(autouse=True)
def _threshold():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_games_play_with_fewer_collections_and_the_setting_is_restored(setup_json, monkeypatch):
    gc.set_threshold(700, 10, 10)  # Python's default
    seen = []
    real = play.play_one

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "play_one", spy)
    _, _, rows = play.play_rows(setup_json, 0, 2)
    assert seen == [(10_000, 10, 10)] * 2
    assert gc.get_threshold() == (700, 10, 10)
    assert len(rows.tables()["games"]) == 2


def test_a_failing_game_leaves_the_setting_restored_and_a_higher_one_stands(setup_json, monkeypatch):
    gc.set_threshold(50_000, 5, 5)
    seen = []

    def boom(*args, **kwargs):
        seen.append(gc.get_threshold())
        raise RuntimeError("a strategy bug")

    monkeypatch.setattr(play, "play_one", boom)
    _, _, rows = play.play_rows(setup_json, 0, 1)
    assert seen == [(50_000, 5, 5)]  # never lowered
    assert gc.get_threshold() == (50_000, 5, 5)
    assert rows.tables()["errors"].height == 1
