"""Replay wording (session 8, fresh-user finding 11): `sim replay --find upset` names every winner
of a shared win, and a Xanadu seat that sold nothing "sells nothing" (not "nothing more")."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from sim.analysis.pick import find_game
from sim.games.xanadu import GAME
from sim.games.xanadu.actions import EndSelling


def test_an_upset_shared_with_another_winner_names_both(tmp_path: Path):
    # A wins 2 of 3 complete games (rate 2/3), B 1 of 3 (1/3): B's only win, game 2, is the upset,
    # and there A shares the win
    games = pl.DataFrame({"game_index": [0, 1, 2], "n_decisions": [10, 10, 10], "truncated": [False] * 3,
                          "failed": [False] * 3})
    players = pl.DataFrame({"game_index": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
                            "strategy": ["A", "B", "B", "A", "A", "B"], "score": [5.0, 1, 1, 5, 3, 3],
                            "won": [True, False, False, False, True, True]})
    games.write_parquet(tmp_path / "games.parquet")
    players.write_parquet(tmp_path / "players.parquet")
    (tmp_path / "config.json").write_text(json.dumps({"options": {}}))
    index, why = find_game(tmp_path, "upset")
    assert index == 2
    assert why == ("an upset: won by strategy B, whose win rate is 33.3%, sharing the win with strategy A"
                   " (seat 0, win rate 66.7%)")


def test_ending_the_selling_phase_says_more_only_after_a_sale():
    g = GAME.build(2)
    s = g.new_initial_state()
    s.sold = False
    assert g.describe(s, EndSelling()).endswith(": sells nothing")
    s.sold = True
    assert g.describe(s, EndSelling()).endswith(": sells nothing more")
