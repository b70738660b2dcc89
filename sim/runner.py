"""Playing many games: chunks in parallel (joblib), each chunk's tables written at once.

Only the resolved config (JSON) crosses process boundaries. Each chunk returns its rows; the
parent writes them atomically as ``chunks/<table>-<first game>.parquet`` before counting the
chunk done, so an interrupted run keeps every finished chunk. At the end the chunk files are
merged, sorted by ``(game_index, seat)``, into the run folder's tables.
"""

from __future__ import annotations

import copy
import json
import os
import platform
import re
import shutil
import sys
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from importlib import metadata
from pathlib import Path
from typing import Any

import polars as pl
from joblib import Parallel, delayed
from tqdm import tqdm

from . import __version__
from .api import CHANCE, SimError, play_game
from .config import RunConfig, add_config_folder, build_game, dump_resolved, load_run_config
from .data import read_json
from .registry import make_strategy
from .seeding import game_streams

TABLES = ("games", "players", "metrics", "components", "errors")
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
    """Per process: the config, the game and one strategy factory per strategy spec."""
    rc = RunConfig.from_json(rc_json)
    add_config_folder(rc)
    game = build_game(rc)
    # game=game lets strategies that need the forward model (search) receive it via bind() (issue 9)
    factories = [partial(make_strategy, s.name, s.params, rc.game, game=game) for s in rc.strategies]
    return rc, game, factories


def play_one(rc: RunConfig, game: Any, factories: list[Any], game_index: int, record: bool = False):
    """Play game ``game_index`` of a run (same streams and seating as in the run).

    Strategies are built afresh for every game and seat (DESIGN "Strategies"), so no state
    leaks from one game to the next.
    """
    chance, seat_rngs = game_streams(rc.seed, game_index, rc.players)
    order = seat_labels(rc, game_index)
    seated = [_Guard(factories[k](), seat) for seat, k in enumerate(order)]
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
            except (Exception, SystemExit) as exc:  # sys.exit() in a plugin fails its game, not the run
                raise StrategyError(seat, f"{type(exc).__name__}: {exc}") from exc

        self.choose = choose


def play_chunk(rc_json: str, start: int, stop: int) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """Play games ``start..stop-1``; return ``(start, stop, tables)``. Never raises for a game's fault."""
    rc, game, factories = _setup(rc_json)
    labels = rc.labels
    g_rows: dict[str, list] = {k: [] for k in ("game_index", "n_decisions", "truncated", "failed", "n_winners", "winners")}
    summary_cols: dict[str, list] = {}
    p_rows: dict[str, list] = {k: [] for k in ("game_index", "seat", "strategy", "score", "rank", "won")}
    metric_cols: dict[str, list] = {}
    m_rows: dict[str, list] = {k: [] for k in ("game_index", "seat", "metric", "value")}
    c_rows: dict[str, list] = {k: [] for k in ("game_index", "seat", "kind", "component")}
    errors: list[dict] = []
    has_metrics = hasattr(game, "metrics")
    has_summary = hasattr(game, "summary")
    has_components = hasattr(game, "components")
    for gi in range(start, stop):
        try:
            result, order = play_one(rc, game, factories, gi)
            s = result.state
            scores = game.scores(s)
            winners = game.winners(s) if not result.truncated else frozenset()
            metrics = game.metrics(s) if has_metrics else {}
            summary = game.summary(s) if has_summary else {}
            components = game.components(s) if has_components else {}
        except (Exception, SystemExit) as exc:  # recorded with its seed, never kills the run (Ctrl-C does)
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
        for kind, per_seat in components.items():
            for seat, names in enumerate(per_seat):
                for name in names:
                    c_rows["game_index"].append(gi)
                    c_rows["seat"].append(seat)
                    c_rows["kind"].append(kind)
                    c_rows["component"].append(name)
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
        "components": pl.DataFrame(c_rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "kind": pl.Utf8, "component": pl.Utf8}),
        "errors": pl.DataFrame(errors, schema=ERROR_SCHEMA),
    }
    return start, stop, tables


def write_atomic(df: pl.DataFrame, path: Path) -> None:
    """Write a Parquet file via a temporary name, fsync and ``os.replace`` (never half-written)."""
    tmp = path.with_name(path.name + ".tmp")
    df.write_parquet(tmp)
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def chunk_ranges(start: int, stop: int, jobs: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Split ``range(start, stop)`` into chunks (default: about 32 per job, 20-2000 games each,
    small enough to balance the load)."""
    size = chunk_size or max(20, min(2000, -(-(stop - start) // (jobs * 32))))
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


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


RUN_FILES = {"config.json", "config.yaml", "manifest.json", "chunks", "figures", "stopping.json", ".lock",
             "report.md", "report.html"} | {f"{t}.parquet" for t in TABLES} | {f"{t}.parquet.tmp" for t in TABLES}
SWEEP_FILES = {"config.json", "chunks", "data", "sweep.json", "sweep.parquet", "figures", "report.md", "report.html"}


def _foreign(out: Path, kind: str) -> list[str]:
    """Names in ``out`` that a run (or sweep) folder does not hold: files --force must not delete."""
    if kind == "sweep":
        return sorted(p.name for p in out.iterdir()
                      if p.name not in SWEEP_FILES and not re.fullmatch(r"point-\d{3,}", p.name))
    return sorted(p.name for p in out.iterdir() if p.name not in RUN_FILES)


def prepare_output(out: Path, force: bool, config_file: str | None = None, kind: str = "run") -> None:
    """Create the run (``kind="sweep"``: sweep) folder. Refuses one that holds anything unless
    ``force``; even then only a folder of that kind (nothing but its files) is replaced, never the
    current folder or the config's."""
    if out.exists() and not out.is_dir():
        raise SimError(f"output '{out}' exists and is not a folder")
    if out.exists() and any(out.iterdir()):
        here = Path.cwd().resolve()
        target = out.resolve()
        foreign = _foreign(out, kind)
        if foreign or target == here or target in here.parents or (
                config_file and Path(config_file).resolve().parent == target):
            what = f"it holds other files ({', '.join(foreign[:5])})" if foreign else f"it is not a {kind} folder"
            raise SimError((f"--force replaces only a {kind} folder; '{out}' is kept because {what}" if force else
                            f"output folder '{out}' is not empty and {what}") + "; use --out for another")
        if not force:
            unfinished = kind == "run" and (out / "config.json").is_file() and (out / "chunks").is_dir()
            raise SimError(f"output folder '{out}' already exists and is not empty; use --force to replace it"
                           + (f", --out for another, or `sim run --resume {out}` to complete its unfinished run"
                              if unfinished else " or --out for another"))
        lock(out)  # refuse while another sim process uses it
        shutil.rmtree(out)
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise SimError(f"cannot write to output folder '{out}': {exc.strerror or exc}") from None


def lock(out: Path) -> None:
    """Take the run folder's lock (``.lock`` holding our pid). Raises ``SimError`` when a live
    process holds it; a lock left by a dead process is taken over."""
    path = out / ".lock"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(path.read_text().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid == os.getpid():
                return
            if pid and _alive(pid):
                raise SimError(f"run folder '{out}' is in use by another sim process (pid {pid}); wait for it"
                               " to finish or stop it first") from None
            path.unlink(missing_ok=True)  # stale: its process is gone
            continue
        with os.fdopen(fd, "w") as fh:
            fh.write(str(os.getpid()))
        return
    raise SimError(f"cannot lock run folder '{out}'")


@contextmanager
def locked(out: Path, keep: bool = False):
    """Hold the run folder's lock for the block; with ``keep`` it stays held after the block ends
    normally (the caller unlocks later, e.g. after writing the report)."""
    lock(out)
    try:
        yield
    except BaseException:
        unlock(out)
        raise
    if not keep:
        unlock(out)


def unlock(out: Path) -> None:
    path = out / ".lock"
    try:
        if int(path.read_text().strip() or 0) == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class RunOutcome:
    """What a (possibly resumed) run did: games played now, seconds, failed and truncated games."""

    out: Path
    games: int
    seconds: float
    failed: int
    truncated: int
    jobs: int = 1
    already: int = 0  # games already on disk before a resume

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")


class FailFast(SimError):
    """``--fail-fast``: a game failed; its chunk is on disk."""


def _results(rc_json: str, ranges: list[tuple[int, int]], jobs: int, backend: str, scheduler: str | None):
    """Chunk results as they finish: in-process for one local job, else through joblib."""
    calls = (delayed(play_chunk)(rc_json, a, b) for a, b in ranges)
    if backend == "dask":
        from .cluster import dask_results

        yield from dask_results(calls, scheduler)
    elif jobs == 1:
        for a, b in ranges:
            yield play_chunk(rc_json, a, b)
    else:  # never more workers than chunks or than this machine can start
        n = max(1, min(jobs, len(ranges), 4 * (os.cpu_count() or 1)))
        yield from Parallel(n_jobs=n, return_as="generator_unordered")(calls)


def play_ranges(rc: RunConfig, out: Path, ranges: list[tuple[int, int]], *, progress: bool = True,
                fail_fast: bool = False, backend: str = "local", scheduler: str | None = None) -> RunOutcome:
    """Play the games in ``ranges`` and write each finished chunk into ``out/chunks`` at once.

    A chunk's ``games`` file is written last, so a chunk counts as done only when all its
    tables are on disk. Raises ``FailFast`` after writing the chunk holding the first failure.
    """
    rc_json = rc.to_json()
    total = sum(b - a for a, b in ranges)
    t0 = time.perf_counter()
    failed = truncated = 0
    bar = tqdm(total=total, unit="game", disable=not progress, file=sys.stderr, dynamic_ncols=True)
    try:
        for start, stop, tables in _results(rc_json, ranges, rc.jobs, backend, scheduler):
            for name in (*[t for t in tables if t != "games"], "games"):
                write_atomic(tables[name], out / "chunks" / f"{name}-{start:012d}.parquet")
            failed += tables["errors"].height
            truncated += int(tables["games"]["truncated"].sum())
            bar.update(stop - start)
            if fail_fast and tables["errors"].height:
                e = tables["errors"].row(0, named=True)
                raise FailFast(f"--fail-fast: game {e['game_index']} failed ({e['exception']}: {e['message']});"
                               f" see {out / 'chunks'} and `sim replay {out} --game-index {e['game_index']}`")
    finally:
        bar.close()
    return RunOutcome(out, total, time.perf_counter() - t0, failed, truncated, rc.jobs)


def _chunk_start(f: Path) -> str:
    """The 12-digit first game of the chunk a table file belongs to (``players-000000000020.parquet``)."""
    return f.name.split("-")[-1].removesuffix(".parquet")


def todo_ranges(rc: RunConfig, games: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Chunks ``[start, stop)`` still to play for the first ``games`` games, given the ``done`` ranges."""
    return [r for a, b in missing_ranges(games, done) for r in chunk_ranges(a, b, rc.jobs, rc.chunk_size)]


def _chunk_files(out: Path, start: str) -> list[Path]:
    """Every table file of the chunk starting at game ``start`` (its 12-digit name suffix)."""
    return sorted((out / "chunks").glob(f"*-{start}.parquet"))


def _set_aside(out: Path, start: str, problem: str) -> None:
    """Rename a damaged chunk's files to ``*.damaged`` (removed with ``chunks/`` once the run is
    merged), so its games count as missing and are played again."""
    for f in _chunk_files(out, start):
        f.rename(f.with_name(f.name + ".damaged"))
    sys.stderr.write(f"warning: chunk {start} in {out / 'chunks'} is damaged ({problem}); set aside as *.damaged,"
                     " its games are played again\n")


def done_games(out: Path) -> list[tuple[int, int]]:
    """Ranges ``[start, stop)`` of the chunks already on disk (their ``games`` file exists).
    A chunk with an unreadable file is set aside (its games are then missing, so played again)."""
    done = []
    for f in sorted((out / "chunks").glob("games-*.parquet")):
        start = _chunk_start(f)
        reading = f
        try:
            for reading in _chunk_files(out, start):
                pl.read_parquet_schema(reading)
            reading = f
            idx = pl.read_parquet(f, columns=["game_index"])["game_index"]
        except Exception as exc:  # junk or a truncated file: polars raises several kinds
            _set_aside(out, start, f"{reading.name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            continue
        if idx.len():
            done.append((int(idx.min()), int(idx.max()) + 1))
    return done


def missing_ranges(games: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The gaps of ``range(games)`` not covered by ``done``."""
    gaps, at = [], 0
    for a, b in sorted(done):
        if a > at:
            gaps.append((at, a))
        at = max(at, b)
    if at < games:
        gaps.append((at, games))
    return gaps


def merge_chunks(out: Path) -> None:
    """Concatenate ``chunks/<table>-*.parquet`` (each a contiguous run of game indices, in
    order) into ``<table>.parquet``: ordered by ``(game_index, seat)`` without a global sort,
    streamed, so memory stays flat in the number of games. Then removes the chunks."""
    done = {f.name.split("-")[-1] for f in (out / "chunks").glob("games-*.parquet")}
    for table in TABLES:
        files = sorted(f for f in (out / "chunks").glob(f"{table}-*.parquet") if f.name.split("-")[-1] in done)
        if not files:
            continue
        tmp = out / f"{table}.parquet.tmp"
        # diagonal: a chunk whose games all failed lacks the game-specific columns (null there)
        try:
            pl.concat([pl.scan_parquet(f) for f in files], how="diagonal_relaxed").sink_parquet(tmp)
        except Exception as exc:
            bad = next((f for f in files if not _readable(f)), None)
            if bad is None:
                raise
            tmp.unlink(missing_ok=True)
            _set_aside(out, _chunk_start(bad), bad.name)
            raise SimError(f"chunk file {bad} is damaged ({str(exc).splitlines()[0]}); its chunk was set aside:"
                           f" `sim run --resume {out}` plays its games again") from None
        os.replace(tmp, out / f"{table}.parquet")
    shutil.rmtree(out / "chunks", ignore_errors=True)


def _readable(f: Path) -> bool:
    try:
        pl.read_parquet(f)
    except Exception:
        return False
    return True


def write_run_files(rc: RunConfig, out: Path, game: Any) -> None:
    (out / "config.json").write_text(dump_resolved(rc) + "\n")
    if rc.source and Path(rc.source).is_file():
        shutil.copyfile(rc.source, out / "config.yaml")
    (out / "manifest.json").write_text(json.dumps(manifest(rc, game), indent=2) + "\n")


def run(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True, fail_fast: bool = False,
        backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Play every game of ``rc`` into run folder ``out`` and merge the tables.

    Returns the games played, seconds and failed/truncated counts. Raises ``SimError`` for an
    output folder that cannot be used; a failing game is recorded in ``errors.parquet``.
    ``KeyboardInterrupt`` leaves the finished chunks on disk for ``resume``. ``keep_lock``: the
    folder stays locked after success, until the caller's ``unlock`` (e.g. once the report is written).
    """
    game = build_game(rc)
    created = not out.exists()
    prepare_output(out, force, rc.source)
    with locked(out, keep_lock):
        try:
            write_run_files(rc, out, game)
            outcome = play_ranges(rc, out, chunk_ranges(0, rc.games, rc.jobs, rc.chunk_size), progress=progress,
                                  fail_fast=fail_fast, backend=backend, scheduler=scheduler)
            merge_chunks(out)
        except SimError:
            if created and not done_games(out):  # nothing played (e.g. no Dask scheduler): leave no folder
                unlock(out)
                shutil.rmtree(out, ignore_errors=True)
            raise
    return outcome


def resume(out: Path, *, jobs: int | None = None, progress: bool = True, fail_fast: bool = False,
           backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Complete an interrupted run: play only the games missing from ``out/chunks``, then merge.

    Refuses (``SimError``) a folder from another engine version or one already complete.
    The merged tables are identical to an uninterrupted run's.
    """
    rc = load_run_config(out)
    if jobs:
        rc = rc.model_copy(update={"jobs": jobs})
    check_same_rules(rc, out, "resumed")
    if (out / "games.parquet").is_file() and not (out / "chunks").is_dir():
        raise SimError(f"'{out}' is already complete; nothing to resume (`sim report {out}` rebuilds its report)")
    opts = {"progress": progress, "fail_fast": fail_fast, "backend": backend, "scheduler": scheduler}
    with locked(out, keep_lock):
        (out / "chunks").mkdir(exist_ok=True)
        for tmp in (out / "chunks").glob("*.tmp"):
            tmp.unlink()  # half-written files of the interrupted run (no other process holds the lock)
        stopping = read_json(out / "stopping.json", missing_ok=True)
        if stopping is not None and not stopping.get("finished", True):  # an interrupted `--until-ci` run
            from .sequential import continue_until_ci

            return continue_until_ci(rc, out, stopping, **opts)
        outcome = play_ranges(rc, out, todo_ranges(rc, rc.games, done_games(out)), **opts)
        outcome.already = rc.games - outcome.games
        merge_chunks(out)
    return outcome


def check_same_rules(rc: RunConfig, out: Path, verb: str) -> Any:
    """Build the game and refuse (``SimError``) when the engine version or a data file's content
    differs from what the run folder was made with: results would mix two rule sets."""
    game = build_game(rc)
    man = read_json(out / "manifest.json", missing_ok=True) or {}
    if man.get("engine_version") != game.info.version:
        raise SimError(f"'{out}' was made by {rc.game} engine version {man.get('engine_version')!r}; this is version"
                       f" {game.info.version!r}: results would mix two rule sets, so it cannot be {verb}")
    now = getattr(getattr(game, "data", None), "hashes", {})
    changed = sorted(k for k, v in man.get("data_hashes", {}).items() if now.get(k) != v)
    if changed:
        raise SimError(f"'{out}' was made with other contents of data file(s) {', '.join(changed)}: results would"
                       f" mix two rule sets, so it cannot be {verb}")
    return game


def replay(rc: RunConfig, game_index: int, out: Path | None = None) -> tuple[list[str], Any, Any]:
    """Replay one game of a run from its seed: ``(log lines, game, result)``."""
    add_config_folder(rc)
    game = build_game(rc)
    lines: list[str] = []
    if out is not None:
        game = check_same_rules(rc, out, "replayed")
    describe = getattr(game, "describe", None)
    chance, seat_rngs = game_streams(rc.seed, game_index, rc.players)
    order = seat_labels(rc, game_index)
    seated = [_Guard(make_strategy(rc.strategies[k].name, rc.strategies[k].params, rc.game, game=game), seat)
              for seat, k in enumerate(order)]
    for seat, k in enumerate(order):
        lines.append(f"seat {seat}: {rc.labels[k]}")

    narrate = getattr(game, "narrate", None)  # optional: what an action set off (payments, ...)
    state = game.new_initial_state()
    before = [copy.deepcopy(state)]

    def log(player: int, action: Any) -> None:
        if narrate is not None:
            lines.extend(narrate(before[0], state))
            before[0] = copy.deepcopy(state)
        who = "chance" if player == CHANCE else f"seat {player}"
        lines.append(describe(state, action) if describe else f"{who}: {action!r}")

    result = None
    try:
        result = play_game(game, seated, chance, seat_rngs, max_decisions=rc.options["max_decisions"],
                           on_decision=log, state=state)
        if narrate is not None:
            lines.extend(narrate(before[0], state))
    except (Exception, SystemExit) as exc:
        lines.append(f"ERROR: {type(exc).__name__}: {exc}")
        lines.append(traceback.format_exc())
    return lines, game, result
