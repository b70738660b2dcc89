"""Per-game matrices of player rows without a group-by or a pivot (issue 20 item 5: the report's
memory). A polars ``group_by("game_index", by)`` and ``pivot`` over the player rows of a
million-game run held about 500 MB at their peak; ``np.bincount`` over a dense game number builds
the same matrices with a few arrays of one value per player row (8 bytes each)."""

from __future__ import annotations

import numpy as np
import polars as pl


def game_rows(game_index: pl.Series) -> tuple[np.ndarray, int]:
    """``(row, n)``: for each player row, the position of its game among the distinct game indices
    in increasing order (the row of that game in a ``pivot(index="game_index").sort("game_index")``),
    and the number of distinct games."""
    gi = game_index.to_numpy()
    if gi.size and np.all(gi[1:] >= gi[:-1]):  # sorted (as a run's merge writes them): no sort needed
        row = np.concatenate(([0], np.cumsum(gi[1:] != gi[:-1])))
        return row, int(row[-1]) + 1
    uniq, row = np.unique(gi, return_inverse=True)
    return row.ravel(), int(uniq.size)


def group_sums(players: pl.DataFrame, by: str, values: list, column: str = "score") -> tuple[np.ndarray, np.ndarray]:
    """``(sums, counts)``, each of shape ``(games, len(values))``: per game (rows in increasing game
    index, every game of ``players``) and per value of column ``by`` (in the order of ``values``), the
    sum of ``column`` over the player rows with that value, and their number (0 when none), as
    ``players.group_by("game_index", by)`` pivoted on ``by`` with nulls filled by 0 gives them."""
    row, n = game_rows(players["game_index"])
    x = players[column].cast(pl.Float64).to_numpy()
    sums, counts = np.zeros((n, len(values))), np.zeros((n, len(values)))
    for j, v in enumerate(values):
        mask = (players[by] == v).to_numpy()
        sums[:, j] = np.bincount(row, weights=np.where(mask, x, 0.0), minlength=n)
        counts[:, j] = np.bincount(row[mask], minlength=n)
    return sums, counts


def seat_wins(players: pl.DataFrame, seats: list[int]) -> list[np.ndarray]:
    """For each seat of ``seats``, one 0/1 float per game (rows in increasing game index): whether
    that seat won, as ``pivot(on="seat", index="game_index", values="won", aggregate_function="max")``
    with a missing seat as 0."""
    row, n = game_rows(players["game_index"])
    won = players["won"].to_numpy()
    seat = players["seat"].to_numpy()
    return [(np.bincount(row[(seat == s) & won], minlength=n) > 0).astype(float) for s in seats]
