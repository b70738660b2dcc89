"""A run folder read through the store: its tables, resolved config, manifest and stopping rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from .. import integrity, parquet, store
from ..api import SimError
from ..data import read_json
from .analytic import ANALYTIC_FROM
from .streamed import streaming

# the columns every run writes, and the kind of values they hold (a table may have more columns)
COLUMNS = {
    "games": {"game_index": "integer", "n_decisions": "integer", "truncated": "boolean", "failed": "boolean",
              "n_winners": "integer", "winners": "list"},
    "players": {"game_index": "integer", "seat": "integer", "strategy": "text", "score": "number",
                "rank": "integer", "won": "boolean"},
    "metrics": {"game_index": "integer", "seat": "integer", "metric": "text", "value": "number"},
    "components": {"game_index": "integer", "seat": "integer", "kind": "text", "component": "text"},
    "errors": {"game_index": "integer", "seed": "integer"},
}
_KIND = {"integer": lambda d: d.is_integer(), "number": lambda d: d.is_numeric(), "boolean": lambda d: d == pl.Boolean,
         "text": lambda d: d in (pl.Utf8, pl.Categorical), "list": lambda d: isinstance(d, pl.List)}


def check_columns(run_dir: Path) -> None:
    """Raise ``SimError`` naming the table, column, expected kind and the type found when a table
    of ``run_dir`` lacks a column every run writes or holds other values there."""
    for name, cols in COLUMNS.items():
        p = run_dir / f"{name}.parquet"
        if not p.is_file():
            continue
        try:
            schema = parquet.schema(p)
        except Exception as exc:  # a damaged file must not end in a traceback
            raise SimError(f"{p} is not a readable Parquet table ({str(exc).splitlines()[0][:200]})") from None
        for col, kind in cols.items():
            if col not in schema:
                if name in ("games", "players") or any(c in schema for c in cols):
                    raise SimError(f"{p}: column '{col}' is missing (a run writes it: {kind} values)")
                continue
            if schema[col] != pl.Null and not _KIND[kind](schema[col]):  # Null: no rows (every game failed)
                raise SimError(f"{p}: column '{col}' holds {schema[col]} values, but a run writes {kind} values"
                               " there; was the table edited or written by something else?")


@dataclass
class RunTables:
    """The tables of a run folder (``errors`` may be empty). ``metrics`` (long: one row per game,
    seat and metric, the largest table) is a lazy scan, read only by what collects it: the report's
    figures come from the per-seat metric columns of ``players`` (issue 20 item 5: memory)."""

    games: pl.DataFrame
    players: pl.DataFrame | pl.LazyFrame  # a scan of the complete games' rows from ANALYTIC_FROM of them (``streamed``)
    metrics: pl.LazyFrame
    errors: pl.DataFrame
    config: dict
    manifest: dict
    components: pl.DataFrame = field(default_factory=pl.DataFrame)
    stopping: dict | None = None  # written by `sim run --until-ci` (stopping.json)
    run_dir: Path | None = None
    players_complete: bool = False  # ``players`` holds the rows of complete games only (``load_tables(complete_only=True)``)
    game_figures: pl.LazyFrame | None = None  # ``games.parquet`` as a scan when ``games`` holds only the base columns


def load_tables(run_dir: Path, players_columns: list[str] | None = None, complete_only: bool = False) -> RunTables:
    """Read a finished run folder, after checking its columns and its integrity (every table is
    the file the run wrote and covers exactly the manifest's games: ``sim.integrity``). Raises
    ``SimError`` when it is not one (naming what is missing or duplicated) or a table or JSON file
    is damaged. ``players_columns``: read only these columns of ``players`` (those present; the
    report needs ``COLUMNS["players"]`` alone, not the game's per-seat figures: issue 20 item 5).
    ``complete_only``: ``players`` holds only the rows of complete games (neither failed nor
    truncated) in the file's ``(game_index, seat)`` order, read by a streamed scan and filter, so
    the whole table and a filtered copy of it are never held together, and ``games`` lacks the
    ``winners`` lists (``n_winners`` says what the report needs): what the report reads, as every
    figure of it counts complete games (``stats.complete_players``; issue 20 item 5). With
    ``complete_only`` and at least ``ANALYTIC_FROM`` complete games, the rows are never held:
    ``players`` is that filtered scan (a ``pl.LazyFrame``: ``streamed``), ``games`` holds only the
    columns every run writes but ``game_index`` (``end_reason`` as a categorical, ``n_winners``
    Int16, ``deal_index`` Int32) and ``game_figures`` is a scan of the whole table for the game's
    summary figures."""
    run_dir = Path(run_dir)
    store.need_folder(run_dir)
    need = ["games.parquet", "players.parquet", "config.json", "manifest.json"]
    missing = [n for n in need if not (run_dir / n).is_file()]
    if missing:
        hint = (f"; it holds finished chunks of an interrupted run: complete it with `sim run --resume {run_dir}`"
                if (run_dir / "chunks").is_dir() and (run_dir / "config.json").is_file() else "")
        raise SimError(f"'{run_dir}' is not a finished run folder (missing {', '.join(missing)}){hint}")
    config = store.read_config(run_dir)
    check_columns(run_dir)
    integrity.verify_run(run_dir)
    absent = [k for k in ("game", "players", "seed", "labels", "strategies", "seating") if k not in config]
    if absent:
        raise SimError(f"{run_dir / 'config.json'}: not a valid run config (missing {', '.join(absent)});"
                       " was it edited by hand?")

    def read(name: str, columns: list[str] | None = None) -> pl.DataFrame:
        return store.read_table(run_dir, name, columns)

    def scan(name: str) -> pl.LazyFrame:
        p = run_dir / f"{name}.parquet"
        return parquet.scan(p) if p.is_file() else pl.LazyFrame()

    if complete_only and _complete_count(run_dir) >= ANALYTIC_FROM:
        return _streamed_tables(run_dir, config, players_columns, read)
    games = read("games", _without(run_dir / "games.parquet", "winners") if complete_only else None)
    players = (_complete_players(run_dir, games, players_columns) if complete_only and games.height
               else read("players", players_columns))
    return RunTables(games, players, scan("metrics"), read("errors"), config,
                     read_json(run_dir / "manifest.json"), read("components"),
                     read_json(run_dir / "stopping.json", missing_ok=True), run_dir, complete_only)


def _complete_count(run_dir: Path) -> int:
    """The complete games (neither failed nor truncated) of ``games.parquet``, counted by a streamed scan."""
    q = parquet.scan(run_dir / "games.parquet").select((~pl.col("failed") & ~pl.col("truncated")).sum())
    return int(streaming(q).item() or 0)


def _streamed_tables(run_dir: Path, config: dict, players_columns: list[str] | None, read) -> RunTables:
    """``load_tables(complete_only=True)`` of a run with ``ANALYTIC_FROM`` complete games or more:
    the player rows as a filtered scan, ``games`` with its base columns only (issue 20 item 5)."""
    p, g = run_dir / "players.parquet", run_dir / "games.parquet"
    kinds = parquet.schema(g)
    # held through the whole report: a million games' game_index, n_winners and deal_index (8 bytes
    # each) were 24 MB of its 27 (session 8); the report reads no game index of ``games``, only
    # compares n_winners and counts games per deal_index
    small = {"end_reason": pl.Categorical, "n_winners": pl.Int16, "deal_index": pl.Int32}
    base = [pl.col(c).cast(small[c]) if c in small and kinds[c] != pl.Null else pl.col(c)
            for c in ("truncated", "failed", "n_winners", "end_reason", "deal_index") if c in kinds]
    games = streaming(parquet.scan(g).select(base))
    drop = streaming(parquet.scan(g).filter(pl.col("failed") | pl.col("truncated")).select("game_index"))["game_index"]
    cols = [c for c in parquet.schema(p) if players_columns is None or c in players_columns]
    players = parquet.scan(p).select(cols).filter(~pl.col("game_index").is_in(drop.implode()))
    return RunTables(games, players, parquet.scan(run_dir / "metrics.parquet") if (run_dir / "metrics.parquet").is_file()
                     else pl.LazyFrame(), read("errors"), config, read_json(run_dir / "manifest.json"), read("components"),
                     read_json(run_dir / "stopping.json", missing_ok=True), run_dir, True,
                     parquet.scan(g).select([c for c in kinds if c != "winners"]))



def _complete_players(run_dir: Path, games: pl.DataFrame, columns: list[str] | None) -> pl.DataFrame:
    """The player rows of the complete games of ``games``, streamed from ``players.parquet``
    (row order kept: a filter). ``SimError`` when the table is unreadable."""
    p = run_dir / "players.parquet"
    if not p.is_file():
        return pl.DataFrame()
    drop = games.filter(pl.col("failed") | pl.col("truncated"))["game_index"]
    try:
        cols = [c for c in parquet.schema(p) if columns is None or c in columns]
        lf = parquet.scan(p).select(cols)
        return streaming(lf.filter(~pl.col("game_index").is_in(drop.implode())) if drop.len() else lf)
    except Exception as exc:  # a damaged file must not end in a traceback
        raise SimError(f"{p} is not a readable Parquet table ({str(exc).splitlines()[0]})") from None


def _without(p: Path, column: str) -> list[str] | None:
    """Every column of the Parquet table ``p`` but ``column`` (``None``: all, when unreadable, so
    the read names the damage)."""
    try:
        return [c for c in parquet.schema(p) if c != column]
    except Exception:  # read_table raises the SimError that names the file
        return None
