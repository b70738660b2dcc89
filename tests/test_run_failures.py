"""What a run says about its failed games (fresh-user finding 6, session 10): the exceptions with
their counts, the first failed game and the exact replay command; no game completed: exit 1."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.analysis.report import failure_note


def _errors(rows):
    return pl.DataFrame(rows, schema=["game_index", "exception", "message", "seed"], orient="row")


def test_the_note_names_the_most_frequent_failures_with_counts_and_the_first_game():
    # by hand: KeyError 'x' in games 7, 3, 9 (3 games); ValueError in games 2 and 5 (2); one
    # each of three other kinds -> the top 3 are KeyError (3), ValueError (2), then the tie of
    # single failures broken by the lowest game index: ZeroDivisionError (game 1)
    errors = _errors([(7, "KeyError", "'x'", 11), (2, "ValueError", "bad", 11), (3, "KeyError", "'x'", 11),
                      (9, "KeyError", "'x'", 11), (5, "ValueError", "bad", 11), (1, "ZeroDivisionError", "div", 11),
                      (4, "OSError", "disk", 11), (8, "TypeError", "TypeError: none", 11)])
    note = failure_note(errors, 8, Path("runs/r"))
    assert note.startswith("8 game(s) failed: KeyError: 'x' (3 games); ValueError: bad (2 games); "
                           "ZeroDivisionError: div (1 game); 2 other kind(s) of failure. ")
    assert "First failed game: index 1 (run seed 11); replay it with `sim replay runs/r --game-index 1`" in note
    assert "(failed game index 1, 2, 3, 4, 5 and 3 more;" in note


def test_a_message_that_already_names_its_exception_is_not_prefixed_twice():
    note = failure_note(_errors([(0, "TypeError", "TypeError: none\nsecond line", 3)]), 1, None)
    assert note.startswith("1 game(s) failed: TypeError: none (1 game). First failed game: index 0 (run seed 3);")
    assert "`sim replay RUN_DIR --game-index 0`" in note and "second line" not in note
