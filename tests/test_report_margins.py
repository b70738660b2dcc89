"""Winning margins from ``(games, seats)`` arrays (``summaries.margins`` on whole games in seat
order) against a hand-worked example and the group-by path (the same rows shuffled)."""

import numpy as np
import polars as pl

from sim.analysis.summaries import margins


def test_hand_worked_margins():
    # game 0: winner 9, best other 7 -> 2; game 1: shared win (9, 9), best other 4 -> 5;
    # game 2: nobody won -> left out; game 5: everybody won -> left out
    df = pl.DataFrame({"game_index": [0, 0, 0, 1, 1, 1, 2, 2, 2, 5, 5, 5], "seat": [0, 1, 2] * 4,
                       "score": [7.0, 9.0, 1.0, 9.0, 4.0, 9.0, 3.0, 3.0, 3.0, 1.0, 1.0, 1.0],
                       "won": [False, True, False, True, False, True, False, False, False, True, True, True]})
    got = margins(df)
    assert got.rows() == [(0, 2.0), (1, 5.0)]
    assert got.equals(margins(df[[3, 0, 11, 1, 7, 2, 4, 9, 5, 6, 8, 10]]))  # the group-by path: the same table


def test_arrays_and_group_by_agree():
    rng = np.random.default_rng(11)
    n, p = 500, 4
    score = np.round(rng.normal(10, 3, n * p))
    won = (score.reshape(-1, p) == score.reshape(-1, p).max(axis=1, keepdims=True)).ravel()
    won[:p] = True  # everybody won game 0
    df = pl.DataFrame({"game_index": np.repeat(np.arange(n) * 3, p), "seat": np.tile(np.arange(p), n),
                       "score": score, "won": won})
    fast, slow = margins(df), margins(df.reverse())
    assert fast.equals(slow) and fast.height < n and (fast["margin"] > 0).all()
