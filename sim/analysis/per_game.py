"""Per-game matrices of player rows without a group-by or a pivot (issue 20 item 5: the report's
memory). A polars ``group_by("game_index", by)`` and ``pivot`` over the player rows of a
million-game run held about 500 MB at their peak; ``np.bincount`` over a dense game number builds
the same matrices with a few arrays of one value per player row (8 bytes each)."""

from __future__ import annotations

import numpy as np
import polars as pl

from .streamed import whole_game_parts


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


def game_count(players: pl.DataFrame | pl.LazyFrame) -> int:
    """The number of distinct games of ``players`` (the rows of ``group_sums``' matrices); of a
    scan, counted part by part of whole games (``streamed.whole_game_parts``)."""
    if isinstance(players, pl.LazyFrame):  # part by part: a streamed n_unique holds every game index in a hash set
        return sum(game_count(part) for part in whole_game_parts(players.select("game_index", "seat")))
    p = whole_games_layout(players)
    return players.height // p if p else game_rows(players["game_index"])[1]


def group_sums(players: pl.DataFrame, by: str, values: list, column: str = "score",
               out: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(sums, counts)``, each of shape ``(games, len(values))``: per game (rows in increasing game
    index, every game of ``players``) and per value of column ``by`` (in the order of ``values``), the
    sum of ``column`` over the player rows with that value, and their number (0 when none), as
    ``players.group_by("game_index", by)`` pivoted on ``by`` with nulls filled by 0 gives them.
    ``out``: two float arrays of shape ``(len(values), games)`` (``game_count`` games) to fill,
    one row per value: the layout the bootstrap reads (``stats.bootstrap_ratio_rows``), so no
    other copy is made (issue 20 item 5); either way the results are their transposed views."""
    p = whole_games_layout(players)
    if p:  # one row per seat: the matrices are columns of a (games, seats) view, no game numbers (memory)
        return _dense_sums(players, by, values, column, p, out)
    row, n = game_rows(players["game_index"])
    x = players[column].cast(pl.Float64).to_numpy()
    sums, counts = out if out is not None else (np.zeros((len(values), n)), np.zeros((len(values), n)))
    for j, v in enumerate(values):
        mask = (players[by] == v).to_numpy()
        sums[j] = np.bincount(row, weights=np.where(mask, x, 0.0), minlength=n)
        counts[j] = np.bincount(row[mask], minlength=n)
    return sums.T, counts.T


def seat_wins(players: pl.DataFrame, seats: list[int], out: np.ndarray | None = None) -> list[np.ndarray]:
    """For each seat of ``seats``, one 0/1 float per game (rows in increasing game index): whether
    that seat won, as ``pivot(on="seat", index="game_index", values="won", aggregate_function="max")``
    with a missing seat as 0. ``out``: a float array ``(len(seats), games)`` to fill, one row per
    seat (the layout ``stats.balance_interval`` resamples; no other copy: issue 20 item 5); the
    results are its rows."""
    p = whole_games_layout(players)
    if p:  # one row per seat: a (games, seats) view of ``won``
        won = players["won"].to_numpy().reshape(-1, p)
        rows = out if out is not None else np.empty((len(seats), won.shape[0]))
        for i, s in enumerate(seats):
            rows[i] = won[:, s] if 0 <= s < p else 0.0
        return list(rows)
    row, n = game_rows(players["game_index"])
    won = players["won"].to_numpy()
    seat = players["seat"].to_numpy()
    rows = out if out is not None else np.empty((len(seats), n))
    for i, s in enumerate(seats):
        rows[i] = np.bincount(row[(seat == s) & won], minlength=n) > 0
    return list(rows)


def whole_games_layout(players: pl.DataFrame) -> int:
    """``p`` when the rows are whole games of ``p`` seats in ``(game_index, seat)`` order (every game
    increasing, seats ``0..p-1`` in each), as a run's merge writes the rows of complete games; else 0.
    Then row ``i * p + s`` is seat ``s`` of the ``i``-th game, and a column reshaped to ``(games, p)``
    is that game's row of the pivot."""
    if not players.height:
        return 0
    seat = players["seat"].to_numpy()
    p = int(seat.max()) + 1
    if p < 1 or players.height % p or not bool((seat.reshape(-1, p) == np.arange(p)).all()):
        return 0
    gi = players["game_index"].to_numpy().reshape(-1, p)
    return p if bool((gi == gi[:, :1]).all()) and bool((gi[1:, 0] > gi[:-1, 0]).all()) else 0


def _dense_sums(players: pl.DataFrame, by: str, values: list, column: str, p: int,
                out: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``group_sums`` for rows in the ``whole_games_layout`` of ``p`` seats (the same sums, in seat order)."""
    x = players[column].cast(pl.Float64).to_numpy().reshape(-1, p)
    n = x.shape[0]
    sums, counts = out if out is not None else (np.zeros((len(values), n)), np.zeros((len(values), n)))
    for j, v in enumerate(values):
        if by == "seat":
            sums[j], counts[j] = (x[:, v], 1.0) if 0 <= v < p else (0.0, 0.0)
            continue
        mask = (players[by] == v).to_numpy().reshape(-1, p)
        sums[j] = np.where(mask, x, 0.0).sum(axis=1)
        counts[j] = mask.sum(axis=1)
    return sums.T, counts.T
