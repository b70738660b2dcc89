"""The run folder: lock, atomic chunk files, merge, manifest, resolved config, which games are
done, setting aside unreadable chunks. It knows no games and no configs: it stores tables and
JSON handed to it.

Layout: ``config.json`` (the resolved config), ``config.yaml`` (the original file),
``manifest.json``, ``chunks/<table>-<first game, 12 digits>.parquet`` while playing with the
chunk's manifest ``chunks/manifest-<first game>.json`` written last (a chunk counts as done only
when its manifest and files agree: ``sim.integrity``), then ``<table>.parquet`` merged in
``(game_index, seat)`` order; ``set-aside/`` holds chunk files that were not accepted.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import NoReturn

import polars as pl

from . import __version__, integrity, parquet
from .api import SimError
from .chunking import missing_ranges
from .concat import concat_runs, fan_in
from .data import read_json
from .locks import lock, unlock

TABLES = ("games", "players", "metrics", "components", "errors")
RUN_FILES = {"config.json", "config.yaml", "manifest.json", "chunks", "data", "figures", "stopping.json", ".lock",
             "report.md", "report.html", integrity.SET_ASIDE} | {f"{t}.parquet" for t in TABLES} | {f"{t}.parquet.tmp" for t in TABLES}
SWEEP_FILES = {"config.json", "chunks", "data", "sweep.json", "sweep.parquet", "figures", "report.md", "report.html"}
DESIGN_FILES = {"config.json", "chunks", "data", "trials", "confirm", "study.log", "figures", ".lock",  # tune, discover
                *(f"{k}.{e}" for k in ("tune", "discover") for e in ("md", "html", "json"))}
SKILL_FILES = {"chunks", "skill.json", "skill.md"}  # and table-NNN run folders (``sim skill``)


def write_atomic(df: pl.DataFrame, path: Path) -> None:
    """Write a Parquet file via a temporary name, fsync and ``os.replace`` (never half-written)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        df.write_parquet(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:  # disk full, size limit, interrupted: leave nothing half-written
        tmp.unlink(missing_ok=True)
        raise


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


def write_run_files(out: Path, config_json: str, source: str, facts: dict, data: dict | None = None) -> None:
    """Write ``config.json`` (the resolved config), a copy of the config file ``source`` as
    ``config.yaml`` (when it exists), a copy of each data file (``data``: key -> path) as
    ``data/<key>.yaml`` (kept once written: the contents the run was made with; fresh-user findings
    3, 4, session 8) and ``manifest.json`` (``manifest(facts)``)."""
    integrity.write_json_atomic(out / "config.json", json.loads(config_json))
    if source and Path(source).is_file():
        shutil.copyfile(source, out / "config.yaml")
    for key, path in (data or {}).items():
        copy = data_copy(out, key)
        if not copy.is_file() and Path(path).is_file():
            copy.parent.mkdir(exist_ok=True)
            tmp = copy.with_name(f".{copy.name}.tmp")
            shutil.copyfile(path, tmp)
            os.replace(tmp, copy)
    integrity.write_json_atomic(out / "manifest.json", manifest(facts))


def data_copy(out: Path, key: str) -> Path:
    """Where run folder ``out`` keeps its copy of data file ``key``."""
    return Path(out) / "data" / f"{key}.yaml"


def need_folder(out: Path) -> None:
    """``SimError`` naming a run folder that does not exist or is a file (before "not a run folder")."""
    out = Path(out)
    if not out.exists():
        raise SimError(f"'{out}' does not exist: give the folder a run wrote (its --out, or reports/GAME/CONFIG)")
    if not out.is_dir():
        raise SimError(f"'{out}' is a file, not a run folder")


def refuse_sweep_folder(out: Path, verb: str) -> None:
    """``SimError`` when ``out`` is a sweep folder (``sweep.json``): commands that take one run
    (``verb`` it) are pointed at its points and at ``sim report`` for the combined report."""
    out = Path(out)
    if (out / "sweep.json").is_file():
        points = sorted(p.name for p in out.glob("point-*") if p.is_dir())
        which = f"{points[0]} ... {points[-1]}" if points else "point-NNN"
        raise SimError(f"'{out}' is a sweep folder: {verb} one of its points ({out}/{which}); "
                       f"`sim report {out}` rebuilds its combined report")


def read_config(out: Path) -> dict:
    """The resolved config of a run folder as stored (a dict). ``SimError`` when there is none."""
    need_folder(out)
    cfg = out / "config.json"
    if not cfg.is_file():
        raise SimError(f"'{out}' is not a run folder (no config.json)")
    return read_json(cfg)


def read_table(out: Path, name: str, columns: list[str] | None = None) -> pl.DataFrame:
    """``<name>.parquet`` of a run folder (empty when absent). ``SimError`` when unreadable.
    ``columns``: only those of them the table has, in the table's order (default: every column)."""
    p = Path(out) / f"{name}.parquet"
    if not p.is_file():
        return pl.DataFrame()
    try:
        if columns is not None:
            columns = [c for c in parquet.schema(p) if c in columns]
        return parquet.read(p, columns=columns)
    except Exception as exc:  # a damaged file must not end in a traceback
        raise SimError(f"{p} is not a readable Parquet table ({str(exc).splitlines()[0]})") from None


PROBE = ".write-test"  # the file ``_writable`` writes and removes: sim's own, never a reason to refuse


def _foreign(out: Path, kind: str) -> list[str]:
    """Names in ``out`` that a run (or sweep) folder does not hold: files --force must not delete."""
    if (out / PROBE).is_file():  # left by a sim killed between writing and removing it: its own
        (out / PROBE).unlink(missing_ok=True)
    if kind == "sweep":
        return sorted(p.name for p in out.iterdir()
                      if p.name not in SWEEP_FILES and not re.fullmatch(r"point-\d{3,}", p.name))
    if kind in ("tune", "discover"):
        return sorted(p.name for p in out.iterdir() if p.name not in DESIGN_FILES)
    if kind == "skill":
        return sorted(p.name for p in out.iterdir()
                      if p.name not in SKILL_FILES and not re.fullmatch(r"table-\d{3,}", p.name))
    return sorted(p.name for p in out.iterdir() if p.name not in RUN_FILES
                  and not (p.name.startswith(".") and p.name.endswith(".tmp")))


def prepare_output(out: Path, force: bool, config_file: str | None = None, kind: str = "run") -> None:
    """Create the run (``kind="sweep"``: sweep) folder. Refuses one that holds anything unless
    ``force``; even then only a folder of that kind (nothing but its files) is replaced, never the
    current folder or the config's. A run folder is locked first and stays locked (the caller's
    ``locks.locked`` block goes on holding it): of two runs started on one new folder at once, the
    second is told the folder is in use, not that it holds the first one's files (designer finding 4)."""
    if out.exists() and not out.is_dir():
        raise SimError(f"output '{out}' exists and is not a folder")
    held, new = kind == "run", not out.exists()
    if held:
        _lock_new(out)
    try:
        if out.exists() and any(p.name != ".lock" or not held for p in out.iterdir()):
            _refuse_or_clear(out, force, config_file, kind)
            if held:
                _lock_new(out)  # again: --force removed the folder with its lock file
        _writable(out, out / "chunks")
    except BaseException:
        if held:
            unlock(out)
            if new:  # made by _lock_new: nothing is left that would refuse the next run (breaker finding 6)
                try:
                    out.rmdir()
                except OSError:
                    pass
        raise


def _lock_new(out: Path) -> None:
    """Create run folder ``out`` if it is missing and take its lock, before anything in it is read
    or written (a probe file written first would race with another run's). When even the lock cannot
    be written (a full disk), the folders this made are removed again (breaker trial 2, session 9)."""
    made = [d for d in (out, *out.parents) if not (d.exists() or d.is_symlink())]  # innermost first
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock(out)
    except OSError as exc:
        # a new folder holds only this call's (empty) lock file; then the folders, innermost first
        _undo_and_refuse(out, exc, [(out / ".lock").unlink] * (out in made) + [d.rmdir for d in made])


def _writable(out: Path, folder: Path) -> None:
    """Create ``folder`` (in run folder ``out``) and check a file can be written in ``out``. On
    failure (a full disk) what this made is removed again (the probe, ``folder``, ``out`` when it
    was new), so the next run is not refused for a folder holding ``.write-test`` (breaker finding 6)."""
    made = [d for d in dict.fromkeys((folder, out)) if not d.exists()]  # innermost first
    probe = out / PROBE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        _undo_and_refuse(out, exc, [probe.unlink, *(d.rmdir for d in made)])


def _undo_and_refuse(out: Path, exc: OSError, undo: list) -> NoReturn:
    """Call each of ``undo`` (removals, innermost first; one that fails is skipped), then raise
    ``SimError`` naming ``out`` and the cause (a full disk, no permission): exit 2, nothing left."""
    for gone in undo:
        try:
            gone()
        except OSError:
            pass
    raise SimError(f"cannot write to output folder '{out}': {exc.strerror or exc}; free space (or give --out"
                   f" another folder), then run the same command again") from None


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
        sweep = kind == "sweep" and (out / "sweep.json").is_file() and not (out / "sweep.parquet").is_file()
        raise SimError(f"output folder '{out}' already exists and is not empty; use --force to replace it"
                       + (f", --out for another, or `sim run --resume {out}` to complete its unfinished run"
                          if unfinished else f", --out for another, or `sim sweep --resume {out}` to complete it"
                          " (--force deletes its finished points)" if sweep else " or --out for another"))
    lock(out)  # refuse while another sim process uses it
    shutil.rmtree(out)


def write_chunk(out: Path, start: int, tables: dict[str, pl.DataFrame], stop: int | None = None) -> None:
    """Write one finished chunk's tables into ``out/chunks``, then its manifest (game range
    ``[start, stop)``, row counts, content hashes: ``sim.integrity``), which makes it count."""
    files = {}
    for name in (*[t for t in tables if t != "games"], "games"):
        files[name] = out / "chunks" / f"{name}-{start:012d}.parquet"
        write_atomic(tables[name], files[name])
    if stop is None:
        idx = tables["games"]["game_index"]
        stop = int(idx.max()) + 1 if idx.len() else start + 1
    integrity.write_chunk_manifest(out, start, stop, files, {k: v.height for k, v in tables.items()})


@dataclass(frozen=True)
class Written:
    """What a worker that wrote its chunk itself hands back (``written``): failed games, truncated
    games and the first error's row (``errors`` columns) or None."""

    failed: int
    truncated: int
    first_error: dict | None


def written(tables: dict[str, pl.DataFrame]) -> Written:
    """The ``Written`` summary of a chunk's tables."""
    errors = tables["errors"]
    return Written(errors.height, int(tables["games"]["truncated"].sum()),
                   errors.row(0, named=True) if errors.height else None)


def clear_partial(out: Path) -> None:
    """Remove half-written files of an interrupted run (call while holding the lock)."""
    (out / "chunks").mkdir(exist_ok=True)
    for tmp in (out / "chunks").glob("*.tmp"):
        tmp.unlink()


def drop_unfinished(out: Path) -> None:
    """After a clean stop, once the workers have ended: remove the files of chunks whose manifest
    was never written (a worker stopped while writing them; the manifest is written last, so they
    are partial by construction), so ``--resume`` has nothing to set aside."""
    chunks = out / "chunks"
    if not chunks.is_dir():
        return
    done = {m.stem.removeprefix("manifest-") for m in chunks.glob("manifest-*.json")}
    for f in chunks.glob("*.parquet"):
        if f.stem.rsplit("-", 1)[-1] not in done:
            f.unlink()
    clear_partial(out)


def done_games(out: Path) -> list[tuple[int, int]]:
    """Ranges ``[start, stop)`` of the chunks on disk whose manifest and files agree
    (``integrity.scan``); anything else in ``chunks/`` is set aside, so its games are played again."""
    return [(c.start, c.stop) for c in integrity.scan(out)]


def chunk_tables(out: Path, table: str, columns: list[str] | None = None) -> pl.DataFrame:
    """One table over every verified chunk on disk (for decisions taken while a run goes on)."""
    files = [c.files[table] for c in integrity.scan(out) if table in c.files]
    return pl.concat([parquet.read(f, columns=columns) for f in files], how="diagonal_relaxed")


def merge_chunks(out: Path) -> None:
    """Concatenate the verified chunks (``integrity.scan``, each a contiguous run of game indices,
    in order) into ``<table>.parquet``: ordered by ``(game_index, seat)`` without a global sort,
    streamed, so memory stays flat in the number of games. Refuses (``SimError``) when games of the
    manifest have no verified chunk or the merged tables do not cover each game exactly once; then
    records the tables' row counts and hashes in ``manifest.json`` (the commit) and removes the chunks."""
    problems: list[str] = []
    chunks = integrity.scan(out, problems)
    man = read_json(out / "manifest.json", missing_ok=True) or {}
    if isinstance(man.get("games"), int):
        gaps = missing_ranges(man["games"], [(c.start, c.stop) for c in chunks])
        if gaps:
            idx = [i for a, b in gaps for i in range(a, min(b, a + 1000))]
            why = f" ({'; '.join(problems[:3])}: set aside)" if problems else ""
            raise SimError(f"cannot merge '{out}': games {integrity.ranges_text(idx)} have no verified chunk{why};"
                           f" `sim run --resume {out}` plays them")
    merged = {t: [c.files[t] for c in chunks if t in c.files] for t in TABLES}
    merged = {t: files for t, files in merged.items() if files}
    try:
        # the tables are streamed together, one polars query (both cores after a --jobs 2 run: issue 20 item 1)
        pl.collect_all([concat_runs(fan_in(files, out / "chunks", t), out / f"{t}.parquet.tmp")
                        for t, files in merged.items()])
    except BaseException as exc:  # Ctrl-C too: no half-merged table left beside the chunks (breaker, session 12)
        for f in [*(out / f"{t}.parquet.tmp" for t in merged), *(out / "chunks").glob("merge-*.tmp")]:
            f.unlink(missing_ok=True)
        if not isinstance(exc, Exception):
            raise
        bad = next((f for files in merged.values() for f in files if not _readable(f)), None)
        if bad is None:
            raise
        integrity.set_aside(out, [f for f in (out / "chunks").iterdir() if f.name.endswith(bad.name[-20:])]
                             + [integrity.manifest_path(out, int(_chunk_start(bad)))], f"{bad.name} is unreadable")
        raise SimError(f"chunk file {bad} is damaged ({str(exc).splitlines()[0]}); its chunk was set aside:"
                       f" `sim run --resume {out}` plays its games again") from None
    for t in merged:
        os.replace(out / f"{t}.parquet.tmp", out / f"{t}.parquet")
    _commit(out, man)
    shutil.rmtree(out / "chunks", ignore_errors=True)


def _commit(out: Path, man: dict) -> None:
    """Check the merged tables cover the manifest's games, then record them in ``manifest.json``."""
    if isinstance(man.get("games"), int) and isinstance(man.get("players"), int):
        problems = integrity.coverage_problems(out, man["games"], man["players"])
        if problems:
            raise SimError(f"the merged tables of '{out}' are incomplete: {'; '.join(problems[:4])}; the chunks are"
                           f" kept: `sim run --resume {out}`")
    if man:
        integrity.write_json_atomic(out / "manifest.json", {**man, "tables": integrity.table_record(out, TABLES)})


def _chunk_start(f: Path) -> str:
    """The 12-digit first game of the chunk a table file belongs to (``players-000000000020.parquet``)."""
    return f.name.split("-")[-1].removesuffix(".parquet")


def _readable(f: Path) -> bool:
    try:
        parquet.read(f)
    except Exception:
        return False
    return True
