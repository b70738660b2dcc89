"""A fixed number of games: chunks in parallel (joblib, or Dask), each chunk's tables written at
once, then merged. The base every other way to run composes.

Only the resolved setup (JSON) crosses process boundaries. Each chunk returns its rows; the
parent writes them atomically into the run folder (``sim.store``) before counting the chunk
done, so an interrupted run keeps every finished chunk. A forked worker (any ``--jobs``) that
may use polars writes its chunk itself and returns a ``store.Written`` summary
(``sim.runs.forked``); with ``--jobs 2`` and more, figure helpers are forked for the report
(``figure_policy``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from .. import chunking, integrity, locks, store
from ..api import SimError
from ..config import RunConfig, add_config_folder, build_game, dump_resolved, load_run_config
from ..config.seats import module_folders
from ..data import quote, read_json
from ..limits import is_stop
from ..play import Setup, deal_size
from ..registry import comparable_experiment, plugin_hashes


def setup_of(rc: RunConfig) -> Setup:
    """The plain description of a run that the play layer needs."""
    return Setup(
        game=rc.game, players=rc.players, seed=rc.seed, options=dict(rc.options), data=dict(rc.data),
        strategies=tuple((s.name, dict(s.params)) for s in rc.strategies), labels=tuple(rc.labels),
        seating=rc.seating, module_folder=os.pathsep.join(map(str, module_folders(rc.source))),
        plugins=rc.plugins, game_timeout_s=rc.game_timeout_s,
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
    merge_seconds: float = 0.0  # wall seconds the chunk files took to merge into the tables (``merge``)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def ends(self) -> str:
        """How the games did not finish, for the commands' one-line summaries: "N stalled or capped,
        M failed" (truncated: an engine ended a game nobody could change, or the decision/round cap)."""
        return f"{self.truncated} stalled or capped, {self.failed} failed"


def merge(out: Path, outcome: RunOutcome) -> RunOutcome:
    """``store.merge_chunks(out)``, its wall seconds recorded in ``outcome.merge_seconds`` (the run
    line's split: issue 20 item 1); returns ``outcome``."""
    t0 = time.perf_counter()
    store.merge_chunks(out)
    outcome.merge_seconds = time.perf_counter() - t0
    return outcome


class _NoBar:
    """The progress bar of a quiet run: counts nothing, shows nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


class FailFast(SimError):
    """``--fail-fast``: a game failed; its chunk is on disk."""


def _results(setup_json: str, ranges: list[tuple[int, int]], jobs: int, backend: str, scheduler: str | None,
             out: Path | None = None, drained: Callable[[], None] | None = None):
    """Chunk results as they finish: forked workers (``forked``) when the OS can fork and every
    strategy is the project's own; else joblib's fresh interpreters (``workers``; a plugin may
    have started thread pools a fork cannot use); on Dask, joblib's Dask backend."""
    if backend == "dask":
        from joblib import delayed

        from .cluster import dask_results, play_limited  # game_timeout_s in the workers' threads

        yield from dask_results((delayed(play_limited)(setup_json, a, b) for a, b in ranges), scheduler)
        return
    from .forked import fork_safe, forked_results, pool_results

    if fork_safe(setup_json):  # no interpreter start-up per worker (issue 20 item 1)
        yield from forked_results(setup_json, ranges, out) if jobs == 1 else pool_results(setup_json, ranges, jobs, out, drained)
        return
    from .workers import local_results  # a dying worker fails only its games, with any --jobs

    yield from local_results(setup_json, ranges, jobs)


def play_ranges(rc: RunConfig, out: Path, ranges: list[tuple[int, int]], *, progress: bool = True,
                fail_fast: bool = False, backend: str = "local", scheduler: str | None = None,
                bar: Any = None) -> RunOutcome:
    """Play the games in ``ranges`` and write each finished chunk into ``out/chunks`` at once.

    ``bar``: a tqdm bar to advance (kept open: one bar over several batches); default a new one.
    Without ``progress`` (``--quiet``) what strategies print to standard output goes nowhere.
    Raises ``FailFast`` after writing the chunk holding the first failure.
    """
    setup_json = replace(setup_of(rc), quiet=not progress).to_json()  # --quiet: strategies' prints too
    total = sum(b - a for a, b in ranges)
    t0 = time.perf_counter()
    failed = truncated = 0
    own, drained = bar is None, None
    if rc.jobs >= 2 and backend == "local":  # figures drawn on every core after the play (issue 20 item 1)
        from ..analysis import figure_helpers, figure_policy

        if figure_helpers.start_helpers(min(rc.jobs, os.cpu_count() or 1)):
            drained = partial(figure_policy.warm_ahead, total)  # matplotlib loads on the cores the play frees
    if own and not progress:  # --quiet: tqdm is not even imported (start-up)
        bar = _NoBar()
    elif own:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)
    results = _results(setup_json, ranges, rc.jobs, backend, scheduler, out, drained)
    try:
        for start, stop, tables in results:
            if not isinstance(tables, store.Written):  # else the worker wrote its chunk itself
                store.write_chunk(out, start, tables, stop)
                tables = store.written(tables)
            failed += tables.failed
            truncated += tables.truncated
            bar.update(stop - start)
            if fail_fast and tables.first_error:
                e = tables.first_error
                what = e["message"] if e["message"].startswith(f"{e['exception']}:") else f"{e['exception']}: {e['message']}"
                raise FailFast(f"--fail-fast: game {e['game_index']} failed ({what});"
                               f" see {out / 'chunks'} and `sim replay {out} --game-index {e['game_index']}`")
    except BaseException as exc:  # Ctrl-C or SIGTERM: workers ended first, then their half-written chunks go
        if not is_stop(exc):
            raise
        from .forked import reap

        results.close()
        reap(wait=True)
        store.drop_unfinished(out)
        raise KeyboardInterrupt from None  # a polars panic around one, as the callers catch it
    finally:
        if own:
            bar.close()
    # the jobs that played at once: no more than the chunks (a 1-game run with --jobs 2 played on one)
    return RunOutcome(out, total, time.perf_counter() - t0, failed, truncated, max(1, min(rc.jobs, len(ranges))))


def todo_ranges(rc: RunConfig, games: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Chunks ``[start, stop)`` still to play for the first ``games`` games, given the ``done`` ranges."""
    return chunking.todo_ranges(games, done, rc.jobs, rc.chunk_size)


EXPERIMENT_KEYS = ("game", "players", "games", "seed", "strategies", "labels", "options", "data", "seating",
                   "game_timeout_s")


def whole_deals(max_games: int, k: int) -> tuple[int, str]:
    """An adaptive run's ``--max-games`` rounded down to whole deals of ``k`` games (seating
    permute), so a run stopped by it does not end on a partial deal (breaker finding 13, session 8),
    and the words that say so in its rule ("" when nothing was rounded)."""
    whole = max_games // k * k
    if k <= 1 or whole == max_games or whole == 0:
        return max_games, ""
    return whole, f" (--max-games {max_games} rounded down to whole deals of {k} games: seating permute)"


def partial_deal(rc: RunConfig) -> str | None:
    """A warning when ``seating: permute`` leaves the last deal partial (``games`` not a multiple
    of the games per deal), so some assignments of the last shuffle are never played; else None."""
    k = deal_size(setup_of(rc))
    if k <= 1 or rc.games % k == 0:
        return None
    how = "every assignment of the strategies to the seats" if rc.players <= 4 else "a balanced set of assignments"
    return (f"seating permute plays deals of {k} games ({how}); "
            f"{rc.games} games leave the last deal partial ({rc.games % k} of {k}): "
            f"{rc.games // k * k or k} or {(rc.games // k + 1) * k} games keep every deal whole")


def experiment(rc: RunConfig) -> dict:
    """What makes two runs the same experiment: the resolved config without how it is played
    (jobs, chunk size, output folder, checks, sweep)."""
    d = json.loads(rc.to_json())
    return {k: d.get(k) for k in EXPERIMENT_KEYS}


def deal_sizes(*folders: Path) -> list[int]:
    """The games per deal (manifest ``deal_size``) the run folders under ``folders`` played, sorted,
    each once: one size means every trial dealt the same games (common random numbers); under
    ``seating: permute`` a parameter that changes which strategies are alike gives other deals."""
    sizes = set()
    for folder in folders:
        for man in sorted(folder.glob("**/manifest.json")):
            k = (read_json(man, missing_ok=True) or {}).get("deal_size")
            if isinstance(k, int):
                sizes.add(k)
    return sorted(sizes)


def config_hash(rc: RunConfig) -> str:
    """SHA-256 of ``experiment(rc)`` (canonical JSON), recorded in the manifest."""
    return hashlib.sha256(json.dumps(experiment(rc), sort_keys=True).encode()).hexdigest()


def facts(rc: RunConfig, game: Any) -> dict:
    """What the manifest records about a run: seed, size, game, engine version, data-file hashes,
    the resolved experiment and its hash, and the source hash of every plugin module."""
    add_config_folder(rc)
    return {
        "seed": rc.seed, "games": rc.games, "players": rc.players, "game": rc.game,
        "engine_version": game.info.version, "data_hashes": getattr(getattr(game, "data", None), "hashes", {}),
        "strategies": list(rc.labels), "config_hash": config_hash(rc), "experiment": experiment(rc),
        "plugin_hashes": plugin_hashes([s.name for s in rc.strategies]),
        "notes": list(game.notes()) if hasattr(game, "notes") else [],  # warnings about the option combination
        "deal_size": deal_size(setup_of(rc)),  # games per deal (seating: permute), 1 otherwise
        "outcome_components": list(getattr(game, "outcome_components", ())),  # kinds derived from the score
    }


def write_run_files(rc: RunConfig, out: Path, game: Any) -> None:
    """The resolved config, the original config file and the manifest, into the run folder."""
    store.write_run_files(out, dump_resolved(rc), rc.source, facts(rc, game), rc.data)


def run(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True, fail_fast: bool = False,
        backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Play every game of ``rc`` into run folder ``out`` and merge the tables.

    Returns the games played, seconds and failed/truncated counts. Raises ``SimError`` for an
    output folder that cannot be used; a failing game is recorded in ``errors.parquet``.
    ``KeyboardInterrupt`` leaves the finished chunks on disk for ``resume``. ``keep_lock``: the
    folder stays locked after success, until the caller's ``locks.unlock`` (e.g. once the report is written).
    """
    game = build_game(rc)
    created = not out.exists()
    store.prepare_output(out, force, rc.source)
    with locks.locked(out, keep_lock):
        try:
            write_run_files(rc, out, game)
            outcome = merge(out, play_ranges(rc, out, chunking.chunk_ranges(0, rc.games, rc.jobs, rc.chunk_size),
                                             progress=progress, fail_fast=fail_fast, backend=backend,
                                             scheduler=scheduler))
        except SimError:
            if created and not store.done_games(out):  # nothing played (e.g. no Dask scheduler): leave no folder
                locks.unlock(out)
                shutil.rmtree(out, ignore_errors=True)
            raise
    return outcome


def reopen(out: Path, jobs: int | None) -> RunConfig:
    """The config of an interrupted run folder, ready to continue (``jobs`` overrides its own).
    Refuses (``SimError``) a folder from another engine version or data, or one already complete."""
    store.refuse_sweep_folder(out, f"continue it with `sim sweep --resume {out}`, or resume")
    rc = with_data_copies(load_run_config(out), out)  # the contents it was made with (breaker finding 5, s8)
    if jobs:
        rc = rc.model_copy(update={"jobs": jobs})
    check_same_rules(rc, out, "resumed")
    check_same_experiment(rc, out, "resumed")
    if complete(out):
        raise SimError(f"'{out}' is already complete; nothing to resume (`sim report {out}` rebuilds its report)")
    return rc


def complete(out: Path) -> bool:
    """Whether run folder ``out`` holds its merged tables (nothing to resume); leftover chunks of a
    merge a kill cut short are removed."""
    if integrity.committed(out):  # merged; a kill may have landed while its chunks were being removed
        shutil.rmtree(out / "chunks", ignore_errors=True)
        return True
    return (out / "games.parquet").is_file() and not (out / "chunks").is_dir()


def check_same_experiment(rc: RunConfig, out: Path, verb: str, what: str = "config.json") -> None:
    """Refuse (``SimError`` naming both values) when ``rc`` is not the experiment recorded in the
    manifest of ``out`` (seed, size, game, strategies, options, ...), or a plugin module's source
    changed since: results would mix two experiments or two versions of a strategy. ``what``
    names where ``rc`` comes from."""
    man = read_json(out / "manifest.json", missing_ok=True) or {}
    before = man.get("experiment")
    if before is None:  # a run folder from before manifests recorded the experiment: compare what they hold
        before = {k: man[k] for k in ("seed", "games", "players", "game") if k in man}
    before, now = comparable_experiment(before), comparable_experiment(experiment(rc))
    for key in EXPERIMENT_KEYS:
        if key == "data":  # file paths (a run folder's copies, a renamed file): contents are check_same_rules'
            continue
        if key in before and before[key] != now[key]:
            hint = f" (give --{key} {before[key]} to use it)" if key in ("games", "seed") else ""
            raise SimError(f"'{out}' was made with {key} = {quote(before[key])}, but {what} now says {key} ="
                           f" {quote(now[key])}: results would mix two experiments, so it cannot be {verb}{hint}")
    add_config_folder(rc)
    now_code = plugin_hashes([s.name for s in rc.strategies])
    for module, digest in (man.get("plugin_hashes") or {}).items():
        if now_code.get(module) != digest:
            raise SimError(f"plugin module '{module}' changed since '{out}' was made (source sha256 {digest[:12]} then,"
                           f" {str(now_code.get(module, 'absent'))[:12]} now): results would mix two versions of a"
                           f" strategy, so it cannot be {verb}")


def resume(out: Path, *, jobs: int | None = None, progress: bool = True, fail_fast: bool = False,
           backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> RunOutcome:
    """Complete an interrupted fixed-size run: play only the games missing from ``out/chunks``, then
    merge. The merged tables are identical to an uninterrupted run's."""
    rc = reopen(out, jobs)
    with locks.locked(out, keep_lock):
        store.clear_partial(out)
        outcome = play_ranges(rc, out, todo_ranges(rc, rc.games, store.done_games(out)), progress=progress,
                              fail_fast=fail_fast, backend=backend, scheduler=scheduler)
        outcome.already = rc.games - outcome.games
        merge(out, outcome)
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
        where = ", ".join(f"{k} ({rc.data.get(k, 'built in')})" for k in changed)
        raise SimError(f"'{out}' was made with other contents of data file(s) {where}: results would mix two rule"
                       f" sets, so it cannot be {verb}; restore those contents (a run folder made since session 8"
                       " reads its own copies in data/: they too must be as the run was made), or play the config"
                       " again for a new run")
    return game


def with_data_copies(rc: RunConfig, out: Path) -> RunConfig:
    """``rc`` reading the copies of its data files that run folder ``out`` keeps (``data/``), so a
    replay uses the contents the run was made with even after the files were edited in place."""
    data = {k: str(store.data_copy(out, k).resolve()) if store.data_copy(out, k).is_file() else v
            for k, v in rc.data.items()}
    return rc.model_copy(update={"data": data}) if data != rc.data else rc


def is_unfinished_until_ci(out: Path) -> bool:
    """Whether ``out`` holds an interrupted ``--until-ci`` run (its rule in ``stopping.json``)."""
    stopping = read_json(out / "stopping.json", missing_ok=True)
    return stopping is not None and not stopping.get("finished", True) and stopping.get("kind") != "until_decided"


def play_point(rc: RunConfig, values: dict, folder: Path, games: int, *, seed: int | None = None,
               index: int = 0, reuse: bool = False, backend: str = "local",
               scheduler: str | None = None) -> tuple[Any, Any]:
    """Play ``games`` games of ``rc`` with ``values`` applied (sweep keys, ``config.grid.point_config``;
    data copies under ``folder.parent/data``) into run folder ``folder``, replaced if present, and
    return its ``(games, players)`` tables: one trial of ``sim tune`` / ``sim discover``.
    ``seed``: another root seed (a confirmation run). ``SimError``/``ValueError`` for an invalid point.
    ``reuse``: a complete run folder already at ``folder`` (a resumed study's finished trial) is read, not
    replayed; an interrupted one (chunks on disk, tables perhaps merged but not committed) is resumed:
    only its missing games are played (breaker trial 2, session 9: it was played again from scratch).
    ``backend``/``scheduler``: where the games are played (``--backend dask``, session 10), as for ``run``."""
    from ..config.grid import point_config

    if reuse and not integrity.committed(folder) and (folder / "config.json").is_file() and (folder / "chunks").is_dir():
        try:
            resume(folder, progress=False, backend=backend, scheduler=scheduler)
        except SimError:  # not resumable (another experiment, damaged): played again below
            pass
    if reuse and integrity.committed(folder):
        return store.read_table(folder, "games"), store.read_table(folder, "players")
    prc = point_config(rc, values, folder.parent, index).model_copy(
        update={"games": games, "seed": rc.seed if seed is None else seed})
    run(prc, folder, force=True, progress=False, backend=backend, scheduler=scheduler)
    return store.read_table(folder, "games"), store.read_table(folder, "players")
