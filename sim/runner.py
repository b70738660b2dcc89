"""Playing many games: chunks in parallel (joblib), each chunk's tables written at once.

Only the resolved config (JSON) crosses process boundaries. Each chunk returns its rows; the
parent writes them atomically as ``chunks/<table>-<first game>.parquet`` before counting the
chunk done, so an interrupted run keeps every finished chunk. At the end the chunk files are
merged, sorted by ``(game_index, seat)``, into the run folder's tables.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import time
import traceback
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import polars as pl
from joblib import Parallel, delayed
from tqdm import tqdm

from . import __version__
from .api import CHANCE, SimError, play_game
from .config import RunConfig, build_game, dump_resolved
from .registry import make_strategy
from .seeding import game_streams

TABLES = ("games", "players", "metrics", "errors")
ERROR_SCHEMA = {
    "game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "exception": pl.Utf8,
    "message": pl.Utf8, "traceback": pl.Utf8, "seed": pl.Int64,
}


class StrategyError(RuntimeError):
    """A strategy raised or returned an illegal action; carries the seat."""

    def __init__(self, seat: int, message: str):
        super().__init__(message)
        self.seat = seat


def seat_labels(rc: RunConfig, game_index: int) -> list[int]:
    """Index into ``rc.strategies`` for each seat of game ``game_index``.

    ``rotate``: seat i plays strategy (i + game_index) mod players, so over any ``players``
    consecutive games each strategy plays each seat once. ``fixed``: seat i plays strategy i.
    """
    n = rc.players
    if rc.seating == "fixed":
        return list(range(n))
    return [(i + game_index) % n for i in range(n)]


@lru_cache(maxsize=4)
def _setup(rc_json: str) -> tuple[RunConfig, Any, list[Any]]:
    rc = RunConfig.from_json(rc_json)
    game = build_game(rc)
    strategies = [make_strategy(s.name, s.params, rc.game) for s in rc.strategies]
    return rc, game, strategies


def play_one(rc: RunConfig, game: Any, strategies: list[Any], game_index: int, record: bool = False):
    """Play game ``game_index`` of a run (same streams and seating as in the run)."""
    chance, seat_rngs = game_streams(rc.seed, game_index, rc.players)
    order = seat_labels(rc, game_index)
    seated = [_Guard(strategies[k], seat) for seat, k in enumerate(order)]
    result = play_game(game, seated, chance, seat_rngs, max_decisions=rc.options["max_decisions"], record=record)
    return result, order


class _Guard:
    """Wraps a strategy so that what it raises is attributed to its seat."""

    __slots__ = ("inner", "seat", "choose")

    def __init__(self, inner: Any, seat: int):
        self.inner, self.seat = inner, seat
        inner_choose = inner.choose

        def choose(obs, legal, rng):
            try:
                return inner_choose(obs, legal, rng)
            except Exception as exc:
                raise StrategyError(seat, f"{type(exc).__name__}: {exc}") from exc

        self.choose = choose


def play_chunk(rc_json: str, start: int, stop: int) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """Play games ``start..stop-1``; return ``(start, stop, tables)``. Never raises for a game's fault."""
    rc, game, strategies = _setup(rc_json)
    labels = rc.labels
    g_rows: dict[str, list] = {k: [] for k in ("game_index", "n_decisions", "truncated", "failed", "n_winners", "winners")}
    summary_cols: dict[str, list] = {}
    p_rows: dict[str, list] = {k: [] for k in ("game_index", "seat", "strategy", "score", "rank", "won")}
    metric_cols: dict[str, list] = {}
    m_rows: dict[str, list] = {k: [] for k in ("game_index", "seat", "metric", "value")}
    errors: list[dict] = []
    has_metrics = hasattr(game, "metrics")
    has_summary = hasattr(game, "summary")
    for gi in range(start, stop):
        try:
            result, order = play_one(rc, game, strategies, gi)
            s = result.state
            scores = game.scores(s)
            winners = game.winners(s) if not result.truncated else frozenset()
            metrics = game.metrics(s) if has_metrics else {}
            summary = game.summary(s) if has_summary else {}
        except Exception as exc:  # recorded with its seed, never kills the run
            seat = getattr(exc, "seat", None)
            order = seat_labels(rc, gi)
            errors.append({
                "game_index": gi, "seat": -1 if seat is None else seat,
                "strategy": "" if seat is None else labels[order[seat]],
                "exception": type(exc.__cause__ or exc).__name__, "message": str(exc),
                "traceback": traceback.format_exc(), "seed": rc.seed,
            })
            for k, v in (("game_index", gi), ("n_decisions", 0), ("truncated", False), ("failed", True),
                         ("n_winners", 0), ("winners", [])):
                g_rows[k].append(v)
            for col in summary_cols.values():
                col.append(None)
            continue
        n = rc.players
        for k, v in (("game_index", gi), ("n_decisions", result.n_decisions), ("truncated", result.truncated),
                     ("failed", False), ("n_winners", len(winners)), ("winners", sorted(winners))):
            g_rows[k].append(v)
        for key, value in summary.items():
            summary_cols.setdefault(key, [None] * (len(g_rows["game_index"]) - 1)).append(value)
        keys = [(i in winners, scores[i]) for i in range(n)]
        for seat in range(n):
            p_rows["game_index"].append(gi)
            p_rows["seat"].append(seat)
            p_rows["strategy"].append(labels[order[seat]])
            p_rows["score"].append(float(scores[seat]))
            p_rows["rank"].append(1 + sum(k > keys[seat] for k in keys))
            p_rows["won"].append(seat in winners)
        for name, values in metrics.items():
            metric_cols.setdefault(name, []).extend(values)
            for seat, value in enumerate(values):
                m_rows["game_index"].append(gi)
                m_rows["seat"].append(seat)
                m_rows["metric"].append(name)
                m_rows["value"].append(float(value))
    games = pl.DataFrame(g_rows, schema_overrides={"winners": pl.List(pl.Int64)}).with_columns(
        [pl.Series(k, v, dtype=pl.Float64) for k, v in summary_cols.items()]
    )
    players = pl.DataFrame(p_rows).with_columns([pl.Series(k, v, dtype=pl.Float64) for k, v in metric_cols.items()])
    tables = {
        "games": games,
        "players": players,
        "metrics": pl.DataFrame(m_rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "metric": pl.Utf8, "value": pl.Float64}),
        "errors": pl.DataFrame(errors, schema=ERROR_SCHEMA),
    }
    return start, stop, tables


def write_atomic(df: pl.DataFrame, path: Path) -> None:
    """Write a Parquet file via a temporary name and ``os.replace`` (never half-written)."""
    tmp = path.with_name(path.name + ".tmp")
    df.write_parquet(tmp)
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def chunk_ranges(games: int, jobs: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Split ``range(games)`` into chunks (default: about 32 per job, 20-2000 games each: small enough to balance the load)."""
    size = chunk_size or max(20, min(2000, -(-games // (jobs * 32))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def manifest(rc: RunConfig, game: Any) -> dict:
    """Seed, versions and data-file hashes for a run folder."""
    pkgs = {}
    for name in ("polars", "numpy", "scipy", "joblib", "matplotlib", "pydantic"):
        try:
            pkgs[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pkgs[name] = "?"
    data = getattr(game, "data", None)
    return {
        "seed": rc.seed,
        "games": rc.games,
        "players": rc.players,
        "game": rc.game,
        "engine_version": game.info.version,
        "sim_version": __version__,
        "python": platform.python_version(),
        "packages": pkgs,
        "data_hashes": getattr(data, "hashes", {}),
        "strategies": list(rc.labels),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def prepare_output(out: Path, force: bool) -> None:
    """Create the run folder. Refuses one that holds anything unless ``force`` (then clears it)."""
    if out.exists() and not out.is_dir():
        raise SimError(f"output '{out}' exists and is not a folder")
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SimError(f"output folder '{out}' already exists and is not empty; use --force to replace it or --out for another")
        shutil.rmtree(out)
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise SimError(f"cannot write to output folder '{out}': {exc.strerror or exc}") from None


@dataclass
class RunOutcome:
    out: Path
    games: int
    seconds: float
    failed: int
    truncated: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")


def merge_chunks(out: Path) -> None:
    """Merge ``chunks/<table>-*.parquet`` into ``<table>.parquet``, sorted by game and seat."""
    for table in TABLES:
        files = sorted((out / "chunks").glob(f"{table}-*.parquet"))
        if not files:
            continue
        keys = ["game_index", "seat"] if table in ("players", "metrics") else ["game_index"]
        if table == "metrics":
            keys.append("metric")
        lf = pl.scan_parquet(files).sort(keys)
        tmp = out / f"{table}.parquet.tmp"
        lf.sink_parquet(tmp)
        os.replace(tmp, out / f"{table}.parquet")


def run(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True) -> RunOutcome:
    """Play every game of ``rc`` into run folder ``out`` and merge the tables.

    Returns the games played, seconds and failed/truncated counts. Raises ``SimError`` for an
    output folder that cannot be used; a failing game is recorded in ``errors.parquet``.
    """
    game = build_game(rc)
    prepare_output(out, force)
    (out / "config.json").write_text(dump_resolved(rc) + "\n")
    if rc.source and Path(rc.source).is_file():
        shutil.copyfile(rc.source, out / "config.yaml")
    (out / "manifest.json").write_text(json.dumps(manifest(rc, game), indent=2) + "\n")
    rc_json = rc.to_json()
    chunks = chunk_ranges(rc.games, rc.jobs, rc.chunk_size)
    t0 = time.perf_counter()
    failed = truncated = 0
    bar = tqdm(total=rc.games, unit="game", disable=not progress, file=sys.stderr, dynamic_ncols=True)
    try:
        if rc.jobs == 1:
            results = (play_chunk(rc_json, a, b) for a, b in chunks)
        else:
            results = Parallel(n_jobs=rc.jobs, return_as="generator_unordered")(
                delayed(play_chunk)(rc_json, a, b) for a, b in chunks
            )
        for start, stop, tables in results:
            for name, df in tables.items():
                write_atomic(df, out / "chunks" / f"{name}-{start:012d}.parquet")
            failed += tables["errors"].height
            truncated += int(tables["games"]["truncated"].sum())
            bar.update(stop - start)
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    merge_chunks(out)
    return RunOutcome(out, rc.games, seconds, failed, truncated)


def replay(rc: RunConfig, game_index: int) -> tuple[list[str], Any, Any]:
    """Replay one game of a run from its seed: ``(log lines, game, result)``."""
    game = build_game(rc)
    strategies = [make_strategy(s.name, s.params, rc.game) for s in rc.strategies]
    lines: list[str] = []
    describe = getattr(game, "describe", None)
    chance, seat_rngs = game_streams(rc.seed, game_index, rc.players)
    order = seat_labels(rc, game_index)
    seated = [strategies[k] for k in order]
    for seat, k in enumerate(order):
        lines.append(f"seat {seat}: {rc.labels[k]}")

    def log(player: int, action: Any) -> None:
        who = "chance" if player == CHANCE else f"seat {player}"
        lines.append(describe(state_ref[0], action) if describe else f"{who}: {action!r}")

    state_ref = [game.new_initial_state()]
    result = None
    try:
        result = play_game(game, seated, chance, seat_rngs, max_decisions=rc.options["max_decisions"],
                           on_decision=log, state=state_ref[0])
    except Exception as exc:
        lines.append(f"ERROR: {type(exc).__name__}: {exc}")
        lines.append(traceback.format_exc())
    return lines, game, result
