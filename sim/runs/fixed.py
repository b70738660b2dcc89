"""A fixed number of games: chunks in parallel (joblib, or Dask), each chunk's tables written at
once, then merged. The base every other way to run composes.

Only the resolved setup (JSON) crosses process boundaries. Each chunk returns its rows; the
parent writes them atomically into the run folder (``sim.store``) before counting the chunk
done, so an interrupted run keeps every finished chunk.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import store
from ..api import SimError
from ..config import RunConfig, build_game, dump_resolved, load_run_config
from ..data import read_json
from ..play import Setup, play_range


def setup_of(rc: RunConfig) -> Setup:
    """The plain description of a run that the play layer needs."""
    return Setup(
        game=rc.game, players=rc.players, seed=rc.seed, options=dict(rc.options), data=dict(rc.data),
        strategies=tuple((s.name, dict(s.params)) for s in rc.strategies), labels=tuple(rc.labels),
        seating=rc.seating, module_folder=str(Path(rc.source).resolve().parent) if rc.source else "",
    )


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


def _results(setup_json: str, ranges: list[tuple[int, int]], jobs: int, backend: str, scheduler: str | None):
    """Chunk results as they finish: in-process for one local job, else through joblib."""
    if backend != "dask" and jobs == 1:  # in-process: joblib is not even imported (start-up)
        for a, b in ranges:
            yield play_range(setup_json, a, b)
        return
    from joblib import Parallel, delayed

    calls = (delayed(play_range)(setup_json, a, b) for a, b in ranges)
    if backend == "dask":
        from .cluster import dask_results

        yield from dask_results(calls, scheduler)
    else:  # never more workers than chunks or than this machine can start
        n = max(1, min(jobs, len(ranges), 4 * (os.cpu_count() or 1)))
        yield from Parallel(n_jobs=n, return_as="generator_unordered")(calls)


def play_ranges(rc: RunConfig, out: Path, ranges: list[tuple[int, int]], *, progress: bool = True,
                fail_fast: bool = False, backend: str = "local", scheduler: str | None = None) -> RunOutcome:
    """Play the games in ``ranges`` and write each finished chunk into ``out/chunks`` at once.

    Raises ``FailFast`` after writing the chunk holding the first failure.
    """
    setup_json = setup_of(rc).to_json()
    total = sum(b - a for a, b in ranges)
    t0 = time.perf_counter()
    failed = truncated = 0
    from tqdm import tqdm

    bar = tqdm(total=total, unit="game", disable=not progress, file=sys.stderr, dynamic_ncols=True)
    try:
        for start, stop, tables in _results(setup_json, ranges, rc.jobs, backend, scheduler):
            store.write_chunk(out, start, tables)
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


def todo_ranges(rc: RunConfig, games: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Chunks ``[start, stop)`` still to play for the first ``games`` games, given the ``done`` ranges."""
    return store.todo_ranges(games, done, rc.jobs, rc.chunk_size)


def facts(rc: RunConfig, game: Any) -> dict:
    """What the manifest records about a run: seed, size, game, engine version, data-file hashes."""
    return {
        "seed": rc.seed, "games": rc.games, "players": rc.players, "game": rc.game,
        "engine_version": game.info.version, "data_hashes": getattr(getattr(game, "data", None), "hashes", {}),
        "strategies": list(rc.labels),
    }


def write_run_files(rc: RunConfig, out: Path, game: Any) -> None:
    """The resolved config, the original config file and the manifest, into the run folder."""
    store.write_run_files(out, dump_resolved(rc), rc.source, facts(rc, game))


def run(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True, fail_fast: bool = False,
        backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Play every game of ``rc`` into run folder ``out`` and merge the tables.

    Returns the games played, seconds and failed/truncated counts. Raises ``SimError`` for an
    output folder that cannot be used; a failing game is recorded in ``errors.parquet``.
    ``KeyboardInterrupt`` leaves the finished chunks on disk for ``resume``. ``keep_lock``: the
    folder stays locked after success, until the caller's ``store.unlock`` (e.g. once the report is written).
    """
    game = build_game(rc)
    created = not out.exists()
    store.prepare_output(out, force, rc.source)
    with store.locked(out, keep_lock):
        try:
            write_run_files(rc, out, game)
            outcome = play_ranges(rc, out, store.chunk_ranges(0, rc.games, rc.jobs, rc.chunk_size),
                                  progress=progress, fail_fast=fail_fast, backend=backend, scheduler=scheduler)
            store.merge_chunks(out)
        except SimError:
            if created and not store.done_games(out):  # nothing played (e.g. no Dask scheduler): leave no folder
                store.unlock(out)
                shutil.rmtree(out, ignore_errors=True)
            raise
    return outcome


def reopen(out: Path, jobs: int | None) -> RunConfig:
    """The config of an interrupted run folder, ready to continue (``jobs`` overrides its own).
    Refuses (``SimError``) a folder from another engine version or data, or one already complete."""
    rc = load_run_config(out)
    if jobs:
        rc = rc.model_copy(update={"jobs": jobs})
    check_same_rules(rc, out, "resumed")
    if (out / "games.parquet").is_file() and not (out / "chunks").is_dir():
        raise SimError(f"'{out}' is already complete; nothing to resume (`sim report {out}` rebuilds its report)")
    return rc


def resume(out: Path, *, jobs: int | None = None, progress: bool = True, fail_fast: bool = False,
           backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Complete an interrupted fixed-size run: play only the games missing from ``out/chunks``, then
    merge. The merged tables are identical to an uninterrupted run's."""
    rc = reopen(out, jobs)
    with store.locked(out, keep_lock):
        store.clear_partial(out)
        outcome = play_ranges(rc, out, todo_ranges(rc, rc.games, store.done_games(out)), progress=progress,
                              fail_fast=fail_fast, backend=backend, scheduler=scheduler)
        outcome.already = rc.games - outcome.games
        store.merge_chunks(out)
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


def is_unfinished_until_ci(out: Path) -> bool:
    """Whether ``out`` holds an interrupted ``--until-ci`` run (its rule in ``stopping.json``)."""
    stopping = read_json(out / "stopping.json", missing_ok=True)
    return stopping is not None and not stopping.get("finished", True)
