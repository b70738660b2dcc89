"""A nightly check (``sim check``): a run (played by ``fixed`` or ``until_ci``, or an existing run
folder) whose config's ``checks:`` are evaluated, added to its report and written as JUnit XML;
``run_until_decided`` plays more batches of the same run until every check is decided."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl
from tqdm import tqdm

from .. import locks, store
from ..analysis import figure_policy, stats
from ..analysis.checks import CheckResult, evaluate, write_junit
from ..analysis.document import write_report
from ..analysis.report import analyse, failure_note, no_game_why
from ..analysis.tables import RunTables, load_tables
from ..api import SimError
from ..config import RunConfig, build_game, load_run_config
from ..data import quote, read_json, write_file_atomic
from ..play import deal_size
from ..registry import comparable_experiment
from . import fixed
from .fixed import check_same_experiment, check_same_rules


def previous_run_of(folder: Path, rc: RunConfig) -> bool:
    """Whether ``folder`` is a run folder made from the same config file as ``rc`` (a nightly
    rerun replaces it without ``--force``)."""
    if not (folder / "config.json").is_file():
        return False
    try:
        return load_run_config(folder).source == rc.source
    except SimError:
        return False


def _results(t: RunTables, checks: dict, min_sample: int, confidence: float | None):
    played = t.games.height
    failed = int(t.games["failed"].sum()) if played else 0
    rep = analyse(t, min_sample=min_sample, confidence=confidence)
    results = evaluate({k: (v if isinstance(v, dict) else v.model_dump()) for k, v in checks.items()}, rep.tables,
                       played, failed, rep.level)
    return results, rep


def same_experiment(rc: RunConfig, out_dir: Path, config: str) -> None:
    """``sim check CONFIG --run RUN``: refuse (``SimError`` naming both values) unless RUN was made
    from the same experiment as CONFIG (game, seed, size, strategies, options, data, engine and
    plugin versions), so CI never reports checks of one config on another run."""
    store.refuse_sweep_folder(out_dir, "check")
    load_run_config(out_dir)  # a run folder at all
    _made_with(rc, out_dir, config)
    check_same_experiment(rc, out_dir, "checked against it", what=config)
    check_same_rules(rc, out_dir, "checked against it")


def _made_with(rc: RunConfig, out_dir: Path, config: str) -> None:
    """Refuse a run folder whose recorded experiment differs from CONFIG's, naming the folder's
    value and the config's (neither changed: they are two experiments; fresh-user finding 9, session 7)."""
    man = read_json(out_dir / "manifest.json", missing_ok=True) or {}
    before = man.get("experiment") or {k: man[k] for k in ("seed", "games", "players", "game") if k in man}
    before, now = comparable_experiment(before), comparable_experiment(fixed.experiment(rc))  # defaults filled in
    # data: file paths differ for the run folder's own copies or a renamed file; contents are compared
    # by ``check_same_rules`` (breaker trial 2, session 8)
    differ = [key for key in fixed.EXPERIMENT_KEYS if key != "data" and key in before and before[key] != now[key]]
    if "strategies" in differ and "labels" in differ:  # the labels follow from the strategies
        differ.remove("labels")
    if not differ:
        return
    items = [item for key in differ for item in _differences(key, before[key], now[key])]
    (key, was, names), rest = items[0], items[1:]
    hints = [f"--{k} {before[k]}" for k in differ if k in ("games", "seed")]
    hint = f" (give {' '.join(hints)} to use it)" if hints and len(hints) == len(differ) else ""
    more = "".join(f"; {k}: {quote(a, 2000)} in the folder, {quote(b, 2000)} in {config}" for k, a, b in rest)
    raise SimError(f"--run {out_dir} was made with {key} = {quote(was, 2000)}, and {config} names"
                   f" {key} = {quote(names, 2000)}{more}: they are two experiments, so the folder cannot be checked"
                   f" against this config{hint}")


def _differences(key: str, a, b) -> list[tuple]:
    """``(name, folder's value, config's value)`` of one experiment key, down to the values that
    differ: a mapping (options, a strategy's params) key by key (``options.advanced``), lists of
    one length (strategies) entry by entry (``strategies.0.params.min_set``), not the whole value."""
    if isinstance(a, dict) and isinstance(b, dict) and a.get("name") == b.get("name"):  # (another strategy: whole)
        inner = [d for k in sorted({*a, *b}, key=str) if a.get(k) != b.get(k)
                 for d in _differences(f"{key}.{k}", a.get(k), b.get(k))]
        return inner or [(key, a, b)]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        inner = [d for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y for d in _differences(f"{key}.{i}", x, y)]
        return inner or [(key, a, b)]
    return [(key, a, b)]


def evaluate_run(out_dir: Path, checks: dict, min_sample: int, confidence: float | None = None,
                 figures: str = "always") -> tuple[list[CheckResult], RunTables]:
    """Evaluate ``checks`` on the run folder and rewrite its report with a Checks table
    (``figures``: ``always``, ``auto`` or ``never``, as ``sim.analysis.figure_policy``).

    Raises ``SimError`` when there are no checks or the folder is not a finished run."""
    if not checks:
        raise SimError("no 'checks:' in the config; e.g. checks: {max_seat_win_rate: 0.35}")
    t = load_tables(out_dir)
    complete = stats.complete_count(t.games)
    with figure_policy.eager(figures, complete):  # --jobs 2: charts drawn while the checks are analysed
        results, rep = _results(t, checks, min_sample, confidence)
    figure_policy.draw(rep, figures, complete, out_dir)
    write_report(out_dir, rep, results)
    return results, t


def no_game_completed(t: RunTables) -> tuple[str, str] | None:
    """``(why, what failed)`` when no game of the run completed (``report.no_game_why`` and
    ``report.failure_note``, "" when none failed), else None: the checks of such a run say nothing,
    so ``sim check`` exits 1 as ``sim run`` does (breaker finding 1, session 10)."""
    if stats.complete_count(t.games):
        return None
    return (no_game_why(t.games, t.config),
            failure_note(t.errors, t.errors.height, t.run_dir) if t.errors.height else "")


def junit(path: Path, results: list[CheckResult], t: RunTables, config: str, seconds: float) -> None:
    """Write the JUnit XML file of a check (one test case per check, and an error test case
    ``games_completed`` when no game completed). ``SimError`` when it cannot be written (the run and
    its report are on disk already)."""
    cfg = t.config
    try:
        write_junit(path, results, f"sim.check.{cfg['game']}",
                    {"config": config, "game": cfg["game"], "games": t.games.height,
                     "complete_games": stats.complete_count(t.games), "seed": cfg["seed"],
                     "run_folder": str(t.run_dir), **({"stopping_rule": t.stopping["rule"]} if t.stopping else {})},
                    seconds, error="; ".join(none) if (none := no_game_completed(t)) else "")
    except OSError as exc:
        raise SimError(f"--junit {path}: cannot write this file ({exc.strerror or exc}); the run and its report"
                       f" are in {t.run_dir}") from None


def same_config(out_dir: Path, config: str) -> str | None:
    """``sim check CONFIG --run DIR`` of the same experiment (``same_experiment`` passed): a note when
    DIR was made from another config file (its report is rewritten with CONFIG's checks), else None.
    The experiment decides, not the file name: a copy of a config with other thresholds checks the
    same games (fresh-user finding 7, session 8)."""
    from ..config import load_config

    given = load_config(config)
    made = load_run_config(out_dir).source
    if made == given.source:
        return None
    return (f"note: {out_dir} was made from {made or 'another config'}; {config} names the same experiment (game,"
            f" players, games, seed, strategies, options, data, seating), so its checks are evaluated on it and"
            f" written into its report")


def _chunk_run(out: Path) -> RunTables:
    """The tables of the chunks on disk, as a run folder's (for decisions while a run goes on)."""
    def table(name: str) -> pl.DataFrame:
        return store.chunk_tables(out, name) if any((out / "chunks").glob(f"{name}-*.parquet")) else pl.DataFrame()

    return RunTables(table("games"), table("players"), table("metrics"), table("errors"), store.read_config(out),
                     read_json(out / "manifest.json"), table("components"), None, out)


def run_until_decided(rc: RunConfig, out: Path, max_games: int, *, force: bool = False, progress: bool = True,
                      fail_fast: bool = False, backend: str = "local", scheduler: str | None = None,
                      min_sample: int = 50, keep_lock: bool = False) -> fixed.RunOutcome:
    """``sim check --until-decided``: play ``rc.games`` games, evaluate ``rc.checks`` on them, and
    while some check is inconclusive double the games (whole deals; the same run continues with
    the next game indices, so the games are those of a plain run of that size) up to ``max_games``.
    Writes ``stopping.json`` (the rule, each batch's undecided checks, why it stopped) before the
    first game with ``finished: false``, so an interrupted run continues the whole procedure with
    ``sim check --resume`` (or ``sim run --resume``; ``resume_until_decided``) and ends with the
    tables of an uninterrupted run. Raises ``SimError`` for bad limits or a folder that cannot be used."""
    if not rc.checks:
        raise SimError("--until-decided needs 'checks:' in the config")
    if max_games < rc.games:
        raise SimError(f"--max-games ({max_games}) is below the first batch ({rc.games} games)")
    build_game(rc)
    store.prepare_output(out, force, rc.source)
    k = deal_size(fixed.setup_of(rc))
    max_games, rounded = fixed.whole_deals(max_games, k)  # no partial last deal (breaker finding 13)
    stop = min(max_games, -(-rc.games // k) * k)  # the first batch too ends on a whole deal
    stopping = {"rule": f"--until-decided: batches (first {rc.games} games, then doubling) until every check is "
                        f"decided (pass or fail), or at most {max_games} games{rounded}", "kind": "until_decided",
                "max_games": max_games, "first_batch": rc.games, "min_sample": min_sample, "batches": [],
                "finished": False}
    with locks.locked(out, keep_lock):
        _write_stopping(out, stopping)
        return _continue_until_decided(rc.model_copy(update={"games": stop}), out, stopping, progress=progress,
                                       fail_fast=fail_fast, backend=backend, scheduler=scheduler)


def _write_stopping(out: Path, stopping: dict) -> None:
    write_file_atomic(out / "stopping.json", json.dumps(stopping, indent=2) + "\n")


def _continue_until_decided(rc: RunConfig, out: Path, stopping: dict, *, progress: bool = True,
                            fail_fast: bool = False, backend: str = "local",
                            scheduler: str | None = None) -> fixed.RunOutcome:
    """The batches of an ``--until-decided`` run from the one of ``rc.games`` games (only what is not
    on disk yet is played), under the rule in ``stopping``; the caller holds the folder's lock."""
    game = build_game(rc)
    max_games, min_sample = stopping["max_games"], stopping.get("min_sample", 50)
    k, played, failed, truncated, seconds = deal_size(fixed.setup_of(rc)), 0, 0, 0, 0.0
    stop = rc.games
    bar = tqdm(total=stop, unit="game", disable=not progress, file=sys.stderr, dynamic_ncols=True, desc="until decided")
    try:
        while True:
            rc_now = rc.model_copy(update={"games": stop})
            fixed.write_run_files(rc_now, out, game)
            done = store.done_games(out)
            bar.total, bar.n = stop, sum(b - a for a, b in done)
            bar.refresh()
            o = fixed.play_ranges(rc_now, out, fixed.todo_ranges(rc, stop, done), progress=progress,
                                  fail_fast=fail_fast, backend=backend, scheduler=scheduler, bar=bar)
            played, failed, truncated, seconds = (played + o.games, failed + o.failed, truncated + o.truncated,
                                                  seconds + o.seconds)
            now = _chunk_run(out)
            results = _results(now, rc.checks, min_sample, None)[0]
            undecided = [r.name for r in results if not r.decided]
            lenient = [r.name for r in results if r.lenient]  # undecided, passing because strict: false
            stopping["batches"].append({"games": stop, "undecided": undecided})
            _write_stopping(out, stopping)
            complete = stats.complete_count(now.games)  # none: more games would not decide (session 10)
            if not undecided or stop >= max_games or not complete:
                break
            stop = min(max_games, -(-2 * stop // k) * k)
    finally:
        bar.close()
    # the rule is finished before the merge: a kill during the merge resumes as a plain run of `stop` games
    stopping.update(games=stop, met=not undecided, finished=True, reason=(
        _decided_reason(stop, lenient) if not undecided else
        f"no game of the first {stop} completed: more games would not decide {', '.join(undecided)}" if not complete else
        f"reached --max-games {max_games} with {', '.join(undecided)} still inconclusive"))
    _write_stopping(out, stopping)
    return fixed.merge(out, fixed.RunOutcome(out, played, seconds, failed, truncated, rc.jobs, already=stop - played))


def _decided_reason(games: int, lenient: list[str]) -> str:
    """Why ``--until-decided`` stopped with no strict check undecided; a ``strict: false`` check may
    still be undecided (it passes so) and is named, not called decided (session 10 fresh-user finding 5)."""
    if not lenient:
        return f"every check decided after {games} games"
    return (f"every strict check decided after {games} games ({', '.join(lenient)} still undecided, passing "
            f"because strict is false: such a check does not make the run play on)")


def is_unfinished_until_decided(out: Path) -> bool:
    """Whether ``out`` holds an interrupted ``--until-decided`` run (its rule in ``stopping.json``)."""
    stopping = read_json(out / "stopping.json", missing_ok=True)
    return stopping is not None and stopping.get("kind") == "until_decided" and not stopping.get("finished", True)


def resume_until_decided(out: Path, *, jobs: int | None = None, progress: bool = True, fail_fast: bool = False,
                         backend: str = "local", scheduler: str | None = None,
                         keep_lock: bool = False) -> fixed.RunOutcome:
    """Continue an interrupted ``--until-decided`` run under the rule in its ``stopping.json``: the
    batch it was playing (what is on disk is kept), then the further batches of the rule."""
    rc = fixed.reopen(out, jobs)
    with locks.locked(out, keep_lock):
        store.clear_partial(out)
        return _continue_until_decided(rc, out, read_json(out / "stopping.json"), progress=progress,
                                       fail_fast=fail_fast, backend=backend, scheduler=scheduler)
