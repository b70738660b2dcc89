"""Per-game matrices without group-by or pivot (``sim.analysis.per_game``) and the complete
player rows by a filter (``stats.complete_players``): issue 20 item 5, the report's memory.
Expected values worked out by hand from the six rows below."""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.analysis.per_game import game_rows, group_sums, seat_wins
from sim.analysis.stats import complete_players

# three games (0, 1, 3: game 2 is absent), two seats each; in game 3 strategy a holds both seats
PLAYERS = pl.DataFrame({"game_index": [0, 0, 1, 1, 3, 3], "seat": [0, 1, 0, 1, 0, 1],
                        "strategy": ["a", "b", "b", "a", "a", "a"], "score": [5.0, 3.0, 2.0, 7.0, 1.0, 4.0],
                        "rank": [1, 2, 2, 1, 2, 1], "won": [True, False, False, True, False, True]})
SHUFFLED = PLAYERS[[5, 2, 0, 4, 1, 3]]


def test_game_rows_number_the_distinct_games_in_order():
    row, n = game_rows(PLAYERS["game_index"])
    assert n == 3 and row.tolist() == [0, 0, 1, 1, 2, 2]
    row, n = game_rows(SHUFFLED["game_index"])  # games 3, 1, 0, 3, 0, 1
    assert n == 3 and row.tolist() == [2, 1, 0, 2, 0, 1]


def test_group_sums_by_strategy_and_by_seat():
    for df in (PLAYERS, SHUFFLED):
        sums, counts = group_sums(df, "strategy", ["a", "b"])
        # game 0: a 5, b 3; game 1: a 7, b 2; game 3: a 1 + 4 = 5 over two rows, b none
        assert sums.tolist() == [[5, 3], [7, 2], [5, 0]]
        assert counts.tolist() == [[1, 1], [1, 1], [2, 0]]
        sums, counts = group_sums(df, "seat", [1, 0])  # the order asked for, not the table's
        assert sums.tolist() == [[3, 5], [7, 2], [4, 1]] and counts.tolist() == [[1, 1]] * 3


def test_seat_wins():
    for df in (PLAYERS, SHUFFLED):
        s0, s1 = seat_wins(df, [0, 1])
        assert s0.tolist() == [1, 0, 0] and s1.tolist() == [0, 1, 1]
    (s2,) = seat_wins(PLAYERS, [2])  # a seat nobody held: 0 in every game
    assert np.array_equal(s2, np.zeros(3))


def test_complete_players_drops_incomplete_games_and_keeps_the_order():
    games = pl.DataFrame({"game_index": [0, 1, 3], "failed": [False, False, False], "truncated": [False, True, False]})
    expected = PLAYERS.filter(pl.col("game_index") != 1)  # rows of games 0 and 3, in seat order
    assert complete_players(PLAYERS, games).equals(expected)
    assert complete_players(SHUFFLED, games).equals(expected)  # out of order: joined and sorted
    all_done = games.with_columns(truncated=pl.lit(False))
    assert complete_players(PLAYERS, all_done) is PLAYERS  # nothing to drop: no copy
    failed = games.with_columns(failed=pl.Series([True, False, False]), truncated=pl.lit(False))
    assert complete_players(PLAYERS, failed)["game_index"].to_list() == [1, 1, 3, 3]
