"""The report and the integrity check without whole-table copies (issue 20 item 5). Expected values
are worked out by hand on small tables; the streamed code must give exactly them."""

from __future__ import annotations

import polars as pl
from polars.testing import assert_frame_equal

from sim import integrity
from sim.analysis import rating_games, summaries
from sim.analysis.stats import complete_players, in_seat_order


def _players(rows):
    return pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "rank": pl.Int64},
                        orient="row")


def test_whole_games_slices_never_split_a_game():
    t = _players([(g, s, "a", s + 1) for g in range(5) for s in range(3)])  # 5 games of 3 rows
    parts = list(rating_games.whole_games(t, rows=4))
    # cut after 4 rows falls inside game 1 -> slice ends with game 1 (6 rows); then 6 more; then game 4
    assert [p.height for p in parts] == [6, 6, 3]
    assert_frame_equal(pl.concat(parts), t)
    assert all(p["game_index"][-1] != q["game_index"][0] for p, q in zip(parts, parts[1:], strict=False))


def test_ratings_do_not_depend_on_the_slice_size(monkeypatch):
    rows = []
    for g in range(40):  # a beats b in 30 games of 40, c in between; one game with b twice
        order = ["a", "c", "b"] if g % 4 else ["b", "a", "c"]
        names = ["a", "b", "b"] if g == 7 else order
        rows += [(g, s, n, s + 1) for s, n in enumerate(names)]
    t = _players(rows)
    whole = summaries.ratings(t)
    real = rating_games.whole_games
    monkeypatch.setattr(summaries, "whole_games", lambda table: real(table, rows=5))
    assert_frame_equal(summaries.ratings(t), whole)
    assert whole["strategy"][0] == "a" and whole.filter(pl.col("strategy") == "a")["games"].item() == 40


def test_complete_players_keeps_the_table_when_nothing_to_drop():
    players = _players([(0, 0, "a", 1), (0, 1, "b", 2), (1, 0, "a", 2), (1, 1, "b", 1)])
    games = pl.DataFrame({"game_index": [0, 1], "failed": [False, False], "truncated": [False, False]})
    assert complete_players(players, games) is players
    late = games.with_columns(truncated=pl.Series([True, False]))
    assert complete_players(players, late)["game_index"].to_list() == [1, 1]
    shuffled = players.reverse()
    assert not in_seat_order(shuffled)
    assert complete_players(shuffled, games).rows() == players.rows()


def test_head_to_head_counts_by_hand():
    # game 0: a rank 1, b rank 2, b rank 3 -> a above b twice; game 1: b rank 1, a rank 1 (tie)
    t = _players([(0, 0, "a", 1), (0, 1, "b", 2), (0, 2, "b", 3), (1, 0, "b", 1), (1, 1, "a", 1)])
    h = summaries.head_to_head(t).select("strategy_a", "strategy_b", "meetings", "a_above", "b_above", "ties")
    assert h.rows() == [("a", "b", 3, 2, 0, 1), ("b", "a", 3, 0, 2, 1)]


def test_coverage_problems_name_missing_duplicated_and_stray_games(tmp_path):
    pl.DataFrame({"game_index": [0, 1, 1, 3, 7], "failed": [False] * 5}).write_parquet(tmp_path / "games.parquet")
    rows = [(g, s, "a", s + 1) for g in (0, 1, 1, 3, 7) for s in range(2)]
    _players(rows).write_parquet(tmp_path / "players.parquet")
    problems = integrity.coverage_problems(tmp_path, 5, 2)
    assert problems[0] == "games.parquet lacks 2 game(s): 2, 4"
    assert problems[1] == "games.parquet holds 1 game(s) more than once: 1"
    assert problems[2] == "games.parquet holds 1 game(s) outside the run: 7"
    assert "players.parquet lacks the rows of 1 complete game(s)" in problems[3] and problems[3].endswith(": 1")
    assert len(problems) == 4


def test_coverage_of_a_whole_run_is_clean(tmp_path):
    pl.DataFrame({"game_index": [0, 1, 2], "failed": [False, True, False]}).write_parquet(tmp_path / "games.parquet")
    _players([(g, s, "a", s + 1) for g in (0, 2) for s in range(2)]).write_parquet(tmp_path / "players.parquet")
    assert integrity.coverage_problems(tmp_path, 3, 2) == []


def test_read_table_reads_only_the_columns_asked_for(tmp_path):
    from sim import store

    pl.DataFrame({"game_index": [0], "seat": [0], "goods_bought": [3.0]}).write_parquet(tmp_path / "players.parquet")
    assert store.read_table(tmp_path, "players", ["seat", "game_index", "absent"]).columns == ["game_index", "seat"]
    assert store.read_table(tmp_path, "players").columns == ["game_index", "seat", "goods_bought"]


def test_coverage_problems_do_not_depend_on_the_slice_size(tmp_path, monkeypatch):
    # games 0..5 of a 6-game run: 2 read twice, 9 outside (twice), 4 failed; players: game 3 lacks a row,
    # game 4 (failed) has rows, game 9 has its two rows -> by hand: missing 5; dup 2, 9; outside 9, 9;
    # lacking 2 (four rows) and 3 (9 has its two); stray 4
    gi = [0, 1, 2, 2, 3, 4, 9, 9]
    pl.DataFrame({"game_index": gi, "failed": [g == 4 for g in gi]}).write_parquet(tmp_path / "games.parquet")
    rows = [(g, s, "a", s + 1) for g in (0, 1, 2, 2, 4, 9) for s in range(2)] + [(3, 0, "a", 1)]
    _players(rows).write_parquet(tmp_path / "players.parquet")
    expected = ["games.parquet lacks 1 game(s): 5", "games.parquet holds 2 game(s) more than once: 2, 9",
                "games.parquet holds 2 game(s) outside the run: 9, 9",
                "players.parquet lacks the rows of 2 complete game(s) (or holds them more than once): 2-3",
                "players.parquet holds rows of 1 game(s) that are not complete games of the run: 4"]
    assert integrity.coverage_problems(tmp_path, 6, 2) == expected
    monkeypatch.setattr(integrity, "SLICE_ROWS", 3)
    assert integrity.coverage_problems(tmp_path, 6, 2) == expected
