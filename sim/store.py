"""The run folder: lock, atomic chunk files, merge, manifest, resolved config, which games are
done, setting aside unreadable chunks. It knows no games and no configs: it stores tables and
JSON handed to it.

Layout: ``config.json`` (the resolved config), ``config.yaml`` (the original file),
``manifest.json``, ``chunks/<table>-<first game, 12 digits>.parquet`` while playing (a chunk's
``games`` file is written last, so a chunk counts as done only when all its tables are on
disk), then ``<table>.parquet`` merged in ``(game_index, seat)`` order.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import sys
import time
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import polars as pl

from . import __version__
from .api import SimError
from .data import read_json

TABLES = ("games", "players", "metrics", "components", "errors")
RUN_FILES = {"config.json", "config.yaml", "manifest.json", "chunks", "figures", "stopping.json", ".lock",
             "report.md", "report.html"} | {f"{t}.parquet" for t in TABLES} | {f"{t}.parquet.tmp" for t in TABLES}
SWEEP_FILES = {"config.json", "chunks", "data", "sweep.json", "sweep.parquet", "figures", "report.md", "report.html"}
SKILL_FILES = {"chunks", "skill.json", "skill.md"}  # and table-NNN run folders (``sim skill``)


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


def manifest(facts: dict) -> dict:
    """``facts`` (seed, game, engine version, data hashes, ...) plus the versions of sim, Python
    and the libraries the results depend on, and the creation time."""
    pkgs = {}
    for name in ("polars", "numpy", "scipy", "joblib", "matplotlib", "pydantic"):
        try:
            pkgs[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pkgs[name] = "?"
    return {**facts, "sim_version": __version__, "python": platform.python_version(), "packages": pkgs,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def write_run_files(out: Path, config_json: str, source: str, facts: dict) -> None:
    """Write ``config.json`` (the resolved config), a copy of the config file ``source`` as
    ``config.yaml`` (when it exists) and ``manifest.json`` (``manifest(facts)``)."""
    (out / "config.json").write_text(json.dumps(json.loads(config_json), indent=2) + "\n")
    if source and Path(source).is_file():
        shutil.copyfile(source, out / "config.yaml")
    (out / "manifest.json").write_text(json.dumps(manifest(facts), indent=2) + "\n")


def read_config(out: Path) -> dict:
    """The resolved config of a run folder as stored (a dict). ``SimError`` when there is none."""
    cfg = out / "config.json"
    if not cfg.is_file():
        raise SimError(f"'{out}' is not a run folder (no config.json)")
    return read_json(cfg)


def read_table(out: Path, name: str) -> pl.DataFrame:
    """``<name>.parquet`` of a run folder (empty when absent). ``SimError`` when unreadable."""
    p = Path(out) / f"{name}.parquet"
    if not p.is_file():
        return pl.DataFrame()
    try:
        return pl.read_parquet(p)
    except Exception as exc:  # a damaged file must not end in a traceback
        raise SimError(f"{p} is not a readable Parquet table ({str(exc).splitlines()[0]})") from None


def _foreign(out: Path, kind: str) -> list[str]:
    """Names in ``out`` that a run (or sweep) folder does not hold: files --force must not delete."""
    if kind == "sweep":
        return sorted(p.name for p in out.iterdir()
                      if p.name not in SWEEP_FILES and not re.fullmatch(r"point-\d{3,}", p.name))
    if kind == "skill":
        return sorted(p.name for p in out.iterdir()
                      if p.name not in SKILL_FILES and not re.fullmatch(r"table-\d{3,}", p.name))
    return sorted(p.name for p in out.iterdir() if p.name not in RUN_FILES)


def prepare_output(out: Path, force: bool, config_file: str | None = None, kind: str = "run") -> None:
    """Create the run (``kind="sweep"``: sweep) folder. Refuses one that holds anything unless
    ``force``; even then only a folder of that kind (nothing but its files) is replaced, never the
    current folder or the config's."""
    if out.exists() and not out.is_dir():
        raise SimError(f"output '{out}' exists and is not a folder")
    if out.exists() and any(out.iterdir()):
        _refuse_or_clear(out, force, config_file, kind)
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise SimError(f"cannot write to output folder '{out}': {exc.strerror or exc}") from None


def _refuse_or_clear(out: Path, force: bool, config_file: str | None, kind: str) -> None:
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


def write_chunk(out: Path, start: int, tables: dict[str, pl.DataFrame]) -> None:
    """Write one finished chunk's tables into ``out/chunks``, its ``games`` file last."""
    for name in (*[t for t in tables if t != "games"], "games"):
        write_atomic(tables[name], out / "chunks" / f"{name}-{start:012d}.parquet")


def clear_partial(out: Path) -> None:
    """Remove half-written files of an interrupted run (call while holding the lock)."""
    (out / "chunks").mkdir(exist_ok=True)
    for tmp in (out / "chunks").glob("*.tmp"):
        tmp.unlink()


def _chunk_start(f: Path) -> str:
    """The 12-digit first game of the chunk a table file belongs to (``players-000000000020.parquet``)."""
    return f.name.split("-")[-1].removesuffix(".parquet")


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


def todo_ranges(games: int, done: list[tuple[int, int]], jobs: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Chunks ``[start, stop)`` still to play for the first ``games`` games, given the ``done`` ranges."""
    return [r for a, b in missing_ranges(games, done) for r in chunk_ranges(a, b, jobs, chunk_size)]


def chunk_tables(out: Path, table: str, columns: list[str] | None = None) -> pl.DataFrame:
    """One table over every finished chunk on disk (for decisions taken while a run goes on)."""
    files = sorted((out / "chunks").glob(f"{table}-*.parquet"))
    return pl.concat([pl.read_parquet(f, columns=columns) for f in files], how="diagonal_relaxed")


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
