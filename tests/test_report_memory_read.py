"""The report reads only the player rows of complete games, streamed (issue 20 item 5), and skips
the head-to-head self-join when only one strategy plays. Expected rows are worked out by hand."""

from __future__ import annotations

import polars as pl
from polars.testing import assert_frame_equal

from sim.analysis import summaries
from sim.analysis.tables import _complete_players


def _write(tmp_path, rows):
    df = pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "score": pl.Float64,
                                    "rank": pl.Int64, "won": pl.Boolean, "coins": pl.Int64}, orient="row")
    df.write_parquet(tmp_path / "players.parquet")
    return df


def test_complete_players_reads_only_complete_games_in_file_order(tmp_path):
    rows = [(g, s, "ab"[s], float(g + s), 2 - s, s == 0, 7) for g in range(4) for s in range(2)]
    _write(tmp_path, rows)
    games = pl.DataFrame({"game_index": [0, 1, 2, 3], "failed": [False, False, True, False],
                          "truncated": [False, True, False, False]})
    got = _complete_players(tmp_path, games, ["game_index", "seat", "score", "won"])
    # games 1 (truncated) and 2 (failed) are left out; game 0 then game 3, seat order kept; no 'coins'
    assert got.columns == ["game_index", "seat", "score", "won"]
    assert got.rows() == [(0, 0, 0.0, True), (0, 1, 1.0, False), (3, 0, 3.0, True), (3, 1, 4.0, False)]


def test_complete_players_keeps_every_row_when_every_game_completed(tmp_path):
    df = _write(tmp_path, [(g, s, "a", 1.0, 1, True, 0) for g in range(3) for s in range(2)])
    games = pl.DataFrame({"game_index": [0, 1, 2], "failed": [False] * 3, "truncated": [False] * 3})
    assert_frame_equal(_complete_players(tmp_path, games, None), df)


def test_head_to_head_of_one_strategy_is_the_empty_table_of_many():
    one = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "strategy": ["a"] * 4, "rank": [1, 2, 2, 1]})
    two = one.with_columns(strategy=pl.Series(["a", "b", "a", "b"]))
    empty, full = summaries.head_to_head(one), summaries.head_to_head(two)
    assert empty.height == 0
    # with two strategies: a above b in game 0, b above a in game 1 (by hand)
    assert full.select("strategy_a", "strategy_b", "a_above", "b_above").rows() == [("a", "b", 1, 1), ("b", "a", 1, 1)]
    # an empty table stops before the sign test: its columns are the counts and the Wilson interval
    assert empty.columns == ["strategy_a", "strategy_b", "meetings", "a_above", "b_above", "ties", "rate", "ci_low",
                             "ci_high"]
    assert empty.schema == full.select(empty.columns).head(0).schema


def test_whole_games_layout_and_its_matrices_equal_the_general_ones():
    from sim.analysis import per_game

    # three whole games of three seats: game 4, 5, 9 (indices need not be consecutive)
    rows = {"game_index": [4, 4, 4, 5, 5, 5, 9, 9, 9], "seat": [0, 1, 2] * 3,
            "strategy": ["a", "b", "a", "b", "b", "a", "a", "a", "a"], "score": [1.0, 2, 3, 4, 5, 6, 7, 8, 9],
            "won": [True, False, False, False, True, True, False, False, True]}
    t = pl.DataFrame(rows)
    assert per_game.whole_games_layout(t) == 3
    sums, counts = per_game.group_sums(t, "strategy", ["a", "b"])
    assert sums.tolist() == [[4, 2], [6, 9], [24, 0]] and counts.tolist() == [[2, 1], [1, 2], [3, 0]]  # by hand
    sums, counts = per_game.group_sums(t, "seat", [2, 0])
    assert sums.tolist() == [[3, 1], [6, 4], [9, 7]] and counts.tolist() == [[1, 1]] * 3
    assert [w.tolist() for w in per_game.seat_wins(t, [0, 2, 3])] == [[1, 0, 0], [0, 1, 1], [0, 0, 0]]
    # not whole games (a seat missing, out of order, a game split): the general path, 0 here
    assert per_game.whole_games_layout(t.slice(0, 8)) == 0
    assert per_game.whole_games_layout(t.reverse()) == 0
    assert per_game.whole_games_layout(t.with_columns(game_index=pl.Series([4, 4, 4, 5, 5, 9, 9, 9, 9]))) == 0
    assert per_game.whole_games_layout(t.with_columns(game_index=pl.Series([5, 5, 5, 4, 4, 4, 9, 9, 9]))) == 0
