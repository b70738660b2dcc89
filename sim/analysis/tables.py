"""A run folder read through the store: its tables, resolved config, manifest and stopping rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from .. import store
from ..api import SimError
from ..data import read_json


@dataclass
class RunTables:
    """The tables of a run folder (``errors`` may be empty). ``metrics`` (long: one row per game,
    seat and metric, the largest table) is a lazy scan, read only by what collects it: the report's
    figures come from the per-seat metric columns of ``players`` (issue 20 item 5: memory)."""

    games: pl.DataFrame
    players: pl.DataFrame
    metrics: pl.LazyFrame
    errors: pl.DataFrame
    config: dict
    manifest: dict
    components: pl.DataFrame = field(default_factory=pl.DataFrame)
    stopping: dict | None = None  # written by `sim run --until-ci` (stopping.json)
    run_dir: Path | None = None


def load_tables(run_dir: Path) -> RunTables:
    """Read a finished run folder. Raises ``SimError`` when it is not one (naming what is missing)
    or a table or JSON file is damaged."""
    run_dir = Path(run_dir)
    need = ["games.parquet", "players.parquet", "config.json", "manifest.json"]
    missing = [n for n in need if not (run_dir / n).is_file()]
    if missing:
        hint = (f"; it holds finished chunks of an interrupted run: complete it with `sim run --resume {run_dir}`"
                if (run_dir / "chunks").is_dir() and (run_dir / "config.json").is_file() else "")
        raise SimError(f"'{run_dir}' is not a finished run folder (missing {', '.join(missing)}){hint}")
    config = store.read_config(run_dir)
    absent = [k for k in ("game", "players", "seed", "labels", "strategies", "seating") if k not in config]
    if absent:
        raise SimError(f"{run_dir / 'config.json'}: not a valid run config (missing {', '.join(absent)});"
                       " was it edited by hand?")

    def read(name: str) -> pl.DataFrame:
        return store.read_table(run_dir, name)

    def scan(name: str) -> pl.LazyFrame:
        p = run_dir / f"{name}.parquet"
        return pl.scan_parquet(p) if p.is_file() else pl.LazyFrame()

    return RunTables(read("games"), read("players"), scan("metrics"), read("errors"), config,
                     read_json(run_dir / "manifest.json"), read("components"),
                     read_json(run_dir / "stopping.json", missing_ok=True), run_dir)

