"""Which game of a run to replay (``sim replay RUN_DIR --find KIND``), chosen from its tables."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .. import store
from ..api import SimError
from . import stats

FIND_KINDS = ("longest", "closest", "upset", "stalled")


def find_game(run_dir: Path, kind: str) -> tuple[int, str]:
    """``(game_index, why)`` of the game of kind ``kind`` in ``run_dir`` (ties: the lowest index):

    - ``longest``: most decisions (games that did not fail);
    - ``closest``: complete game with the smallest score gap between the winner and the best other seat;
    - ``upset``: complete game won by the strategy (with one strategy: the seat) with the lowest win rate;
    - ``stalled``: ``end_reason == "stalled"`` where the table has that column, else truncated without
      reaching the decision cap (the engine found no way on).

    Raises ``SimError`` when the run holds no such game.
    """
    games, players = store.read_table(run_dir, "games"), store.read_table(run_dir, "players")
    if kind in ("closest", "upset") and not stats.complete_count(games):
        raise SimError(f"no game of kind '{kind}' in {run_dir} (no complete game)")
    if kind == "longest":
        g = games.filter(~pl.col("failed")).sort(["n_decisions", "game_index"], descending=[True, False])
        if g.height:
            return int(g["game_index"][0]), f"the longest game ({g['n_decisions'][0]} decisions)"
    elif kind == "closest":
        cp = stats.complete_players(players, games)
        gap = cp.group_by("game_index").agg(
            gap=pl.col("score").max() - pl.col("score").filter(~pl.col("won")).max().fill_null(pl.col("score").max()))
        g = gap.sort(["gap", "game_index"])
        if g.height:
            return int(g["game_index"][0]), f"the closest game (winner ahead by {g['gap'][0]:g} points)"
    elif kind == "upset":
        return _upset(players, games)
    elif kind == "stalled":
        return _stalled(run_dir, games)
    raise SimError(f"no game of kind '{kind}' in {run_dir} (no complete game)")


def _upset(players: pl.DataFrame, games: pl.DataFrame) -> tuple[int, str]:
    cp = stats.complete_players(players, games)
    by = "strategy" if cp["strategy"].n_unique() > 1 else "seat"
    rates = cp.group_by(by).agg(rate=pl.col("won").mean())
    won = cp.filter(pl.col("won")).join(rates, on=by).sort(["rate", "game_index"])
    if not won.height:
        raise SimError("no complete game with a winner: nothing to call an upset")
    r = won.row(0, named=True)
    why = f"an upset: won by {by} {r[by]}, whose win rate is {r['rate']:.1%}"
    shared = won.filter((pl.col("game_index") == r["game_index"]) & (pl.col("seat") != r["seat"])).sort("seat")
    if shared.height:  # a shared win: every winner is named, not only the upsetting one
        why += ", sharing the win with " + ", ".join(
            f"{by} {o[by]} (seat {o['seat']}, win rate {o['rate']:.1%})" for o in shared.iter_rows(named=True))
    return int(r["game_index"]), why


def _stalled(run_dir: Path, games: pl.DataFrame) -> tuple[int, str]:
    if "end_reason" in games.columns:
        g = games.filter(pl.col("end_reason") == "stalled")
    else:
        cap = int(store.read_config(run_dir).get("options", {}).get("max_decisions", 0))
        g = games.filter(pl.col("truncated") & (pl.col("n_decisions") < cap))
    if not g.height:
        raise SimError(f"no stalled game in {run_dir} (none ended unfinished before the decision cap)")
    return int(g.sort("game_index")["game_index"][0]), f"a stalled game ({g.height} in the run), ended after" \
        f" {g.sort('game_index')['n_decisions'][0]} decisions without a finish"
