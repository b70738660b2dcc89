"""The commands that play games: ``run`` and ``check`` (``sweep``: ``commands_sweep``)."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from ..analysis import figure_policy
from ..analysis.checks import exit_status
from ..analysis.report import build_report, summary_text
from ..api import SimError
from ..config import load_config, load_run_config
from ..config.overrides import replay_text
from ..data import read_json
from ..limits import is_stop
from ..locks import break_lock as take_lock_over
from ..locks import unlock
from ..runs import fixed
from .group import cli
from .options import (
    check_writable,
    confidence_option,
    figures_option,
    from_flags,
    games_on_disk,
    no_grid,
    option_values,
    options_option,
    refuse_plugins,
    report_hint,
    run_folder,
    run_options,
    say,
    speed,
)


def _break_lock(out_dir: Path, wanted: bool) -> None:
    """``--break-lock``: remove the folder's lock first, saying which."""
    said = take_lock_over(out_dir) if wanted else None
    if said:
        click.echo(f"warning: --break-lock {said}", err=True)


def _refuse_flag_mixes(config, resume_dir, games, seed, jobs, backend, scheduler, until_ci, max_games, options):
    """Raise ``SimError`` for flags that contradict each other or would be ignored (before anything is read)."""
    if resume_dir and config:
        raise SimError("give either CONFIG or --resume RUN_DIR, not both")
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")
    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    if max_games is not None and until_ci is None:
        raise SimError("--max-games needs --until-ci (or, with sim check, --until-decided)")
    if resume_dir and (until_ci is not None or options):
        raise SimError(f"{'--until-ci' if until_ci is not None else '--option'} cannot be combined with --resume")
    if resume_dir and (games is not None or seed is not None):  # they would be ignored: the run's own are kept
        raise SimError(f"--resume completes {resume_dir} with the games and seed it was made with; --games and --seed"
                       " cannot be combined with --resume (for another experiment: a new --out)")


def _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet,
          until_ci=None, max_games=None, confidence=None, no_plugins=False, break_lock=False, given=None,
          options=None, command="sim run", seating=None, tail=""):
    """Play a config (or complete ``--resume``); return ``(run folder, config or None, outcome)``.
    ``no_plugins`` refuses import strings; ``break_lock`` takes over the folder's lock first;
    ``given``: a config already resolved (``sim run --game``); ``options``: ``--option`` values
    that replace or add to CONFIG's ``options:``; ``command``: what to resume with (``sim check``
    evaluates its checks after the games); ``seating``: ``--seating``, replacing CONFIG's; ``tail``: what the
    resume (or ``--run``) command a stop prints ends with (``sim check``'s ``--junit FILE``)."""
    from polars.exceptions import ComputeError

    _refuse_flag_mixes(config, resume_dir, games, seed, jobs, backend, scheduler, until_ci, max_games, options)
    # the folder stays locked until the caller has written the report (``_unlock``)
    opts = {"progress": not quiet, "fail_fast": fail_fast, "backend": backend, "scheduler": scheduler, "keep_lock": True}
    try:
        if resume_dir:
            out_dir = Path(resume_dir)
            if no_plugins:
                refuse_plugins(out_dir)
            _break_lock(out_dir, break_lock)
            if command == "sim check" and fixed.complete(out_dir):  # its checks, not only its report (breaker, s14)
                raise SimError(f"'{out_dir}' is already complete; nothing to resume (`sim check --run {out_dir}`"
                               " evaluates its checks)")
            from ..runs import check as check_run  # imported when used (start-up, issue 20 item 8)
            from ..runs import until_ci as sequential
            again = (check_run.resume_until_decided if check_run.is_unfinished_until_decided(out_dir) else
                     sequential.resume if fixed.is_unfinished_until_ci(out_dir) else fixed.resume)
            outcome = again(out_dir, jobs=jobs, **opts)
            rc = None
        elif config or given:
            rc = given or load_config(config, {"games": games, "jobs": jobs, "seed": seed, "confidence": confidence,
                                               "plugins": False if no_plugins else None, "seating": seating}, options)
            out_dir = run_folder(rc, out, config or "from-command-line")
            _break_lock(out_dir, break_lock)
            if rc.sweep:
                click.echo(f"warning: {config} has a 'sweep:' grid, which `sim run` ignores (it plays the config's own"
                           f" values); `sim sweep {config}` plays the grid", err=True)
            if until_ci is None and (partial := fixed.partial_deal(rc)):  # fresh-user finding 6, session 5
                click.echo(f"warning: {partial}", err=True)
            if until_ci is not None:
                from ..runs import until_ci as sequential
                outcome = sequential.run_until_ci(rc, out_dir, until_ci, max_games or 100 * rc.games, force=force, **opts)
            else:
                outcome = fixed.run(rc, out_dir, force=force, **opts)
        else:
            raise SimError("missing CONFIG (or --resume RUN_DIR); see `sim run --help`")
    except fixed.FailFast as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except (OSError, ComputeError) as exc:  # e.g. a full disk: finished chunks are safe on disk
        where = resume_dir or locals().get("out_dir")
        raise SimError(f"cannot write the run folder {where}: {exc}; finished chunks are kept: free space,"
                       f" then `{command} --resume {where}{tail}`") from None
    except BaseException as exc:
        if not is_stop(exc):
            raise
        where = resume_dir or locals().get("out_dir")
        if where is None:  # stopped while the config was read: no run folder yet (breaker finding 8)
            click.echo("\ninterrupted before any game was played: nothing was written", err=True)
            sys.exit(130)
        rule = " (it continues the stopping rule in stopping.json)" if (Path(where) / "stopping.json").is_file() else ""
        click.echo(f"\ninterrupted: finished chunks are on disk in {where}; complete the run with:\n"
                   f"  {command} --resume {where}{tail}{rule}", err=True)
        sys.exit(130)
    games_on_disk(out_dir, f"sim check --run {out_dir}{tail}" if command == "sim check" else None)
    say(run_line(outcome, backend))
    stop = read_json(out_dir / "stopping.json", missing_ok=True)
    if stop is not None:
        say(f"stopping rule: {stop['rule']}; stopped: {stop['reason']}")
    return out_dir, rc, outcome


def run_line(o: fixed.RunOutcome, backend: str = "local") -> str:
    """The line a run's play ends with: games played now (and those already on disk), seconds, games/s
    and jobs, the merge's seconds, how games did not finish (``RunOutcome.ends``). Seconds under 10
    get two decimals ("0.04 s", not "0.0 s" beside a rate: fresh-user finding, session 15)."""
    if not o.games:
        return f"played no games (all {o.already} were already on disk), merged in {_secs(o.merge_seconds)}; {o.ends()}"
    njobs = "dask cluster" if backend == "dask" else f"{o.jobs} job{'s' if o.jobs > 1 else ''}"
    before = f" ({o.already} were already on disk)" if o.already else ""
    return (f"played {o.games} game{'s' if o.games > 1 else ''}{before} in {_secs(o.seconds)}"
            f" ({speed(o.games_per_second)} games/s, {njobs}), merged in {_secs(o.merge_seconds)}; {o.ends()}")


def _secs(s: float) -> str:
    """Seconds for the run line: two decimals under 10 s, one above."""
    return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@run_options
@confidence_option
@figures_option
@click.option("--game", help="Play GAME without a config file (with --players, --games, --strategy).")
@click.option("--players", type=int, help="With --game: the number of players (default: the game's minimum).")
@click.option("--strategy", multiple=True,
              help="With --game: a seat's strategy (repeat; repeated in order to fill the seats; default: the "
                   "game's expert if it has one, else random).")
@click.option("--seating", type=click.Choice(["rotate", "fixed", "permute"]),
              help="Override the config's seating (permute: deals that separate seat, strategy and neighbour).")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="A rule option (repeatable; `sim list options GAME`), read and checked as a config's options: are;"
                   " with CONFIG it replaces or adds to the file's options:, e.g. --option end_tokens=6.")
def run(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet, until_ci, max_games,
        min_sample, confidence, figures_mode, no_plugins, break_lock, game, players, strategy, seating,
        option_pairs) -> None:
    """Play the games of CONFIG in parallel and write tables, figures and a report.

    Figures are drawn from 100 complete games (--figures auto); --figures always draws them for any run.

    Exit status: 0 done (failed games, if some, are named in the summary), 1 no game completed
    (each failed, stalled or was capped) or a failure under --fail-fast, 2 bad input, 130 interrupted.

    Without a config: `sim run --game traders_of_osaka --players 3 --games 500 --strategy osaka.trader
    --strategy random` plays the same as a config file would and writes that config into the run
    folder (config.yaml), so `sim run RUN_DIR/config.yaml` reruns it. `--option KEY=VALUE` (repeat)
    sets a rule option as the config's `options:` would; with CONFIG it replaces or adds to the
    file's `options:` (try one rule change without copying the file), and the run folder's
    config.yaml holds the file with that change, so `sim run RUN_DIR/config.yaml` replays it.

    \b
    `--seating permute` plays the config in deals that separate seat, strategy and neighbour.

    \b
    Example: sim run configs/traders_of_osaka/baseline.yaml --jobs 2 --out reports/demo
    after an interruption: sim run --resume reports/demo
    """
    if seating and resume_dir:
        raise SimError("--seating cannot be combined with --resume (the run keeps the seating it was made with)")
    text, given = from_flags(config, game, players, strategy, games, jobs, seed, option_pairs, seating)
    options = option_values(option_pairs) if game is None else None
    figure_policy.expect(figures_mode)  # --jobs 2: helpers warm at the play's tail
    out_dir, _, _ = _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet,
                          until_ci, max_games, confidence, no_plugins, break_lock, given, options, seating=seating)
    if (options or seating) and config:  # the run folder's config.yaml replays the run as played
        text = replay_text(config, options or {}, {"games": games, "seed": seed, "seating": seating})
    if text is not None:
        (out_dir / "config.yaml").write_text(text)
    t0 = time.perf_counter()
    with _unlock(out_dir), report_hint(out_dir):
        rep = build_report(out_dir, min_sample=min_sample, confidence=confidence, figures=figures_mode)
    say(summary_text(rep))
    say(f"report: {out_dir / 'report.html'} (and report.md; tables *.parquet) [{time.perf_counter() - t0:.1f} s]")
    if rep.complete == 0:  # every game failed, stalled or was capped (fresh-user finding 6, session 10)
        _no_game_completed("the findings above say why")


def _no_game_completed(why: str) -> None:
    """Exit 1: no game of the run completed (``sim run``, ``sim check``), ``why`` in the message."""
    click.echo(f"error: no game completed ({why}), so the run says nothing about balance; exit status 1", err=True)
    sys.exit(1)


@contextmanager
def _unlock(out_dir: Path):
    """Release the run folder's lock (kept by ``_play``) once the block has written the report."""
    try:
        yield
    finally:
        unlock(out_dir)


def _previous_run_of(folder: Path, rc) -> bool:
    """Whether ``folder`` is a run folder made from the same config file as ``rc``."""
    if not (folder / "config.json").is_file():
        return False
    try:
        return load_run_config(folder).source == rc.source
    except SimError:
        return False


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@run_options
@click.option("--junit", type=click.Path(dir_okay=False), help="Write a JUnit XML file, one test case per check.")
@click.option("--run", "run_dir", type=click.Path(file_okay=False),
              help="Evaluate the checks on an existing run folder instead of playing (checks from CONFIG if given, "
                   "else from the folder's config).")
@click.option("--until-decided", is_flag=True,
              help="Play more batches (the same run continued, games doubling) until every check is decided, or "
                   "--max-games (default 100 x --games).")
@click.option("--inconclusive", type=click.Choice(["pass", "fail"]),
              help="Exit status for a result with no failure but some inconclusive checks: 0 (pass) or 1 (fail) "
                   "instead of 3, for CI systems that know only two states.")
@confidence_option
@figures_option
@options_option
def check(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet, until_ci, max_games,
          min_sample, junit, run_dir, until_decided, inconclusive, confidence, figures_mode, no_plugins,
          break_lock, option_pairs) -> None:
    """Run CONFIG and evaluate its `checks:`; each check passes (the whole interval on the good side),
    fails (the whole interval on the bad side) or is inconclusive (the interval straddles the threshold).

    Exit status: 0 all pass, 1 any fails or no game completed, 3 none fails but some are inconclusive (--inconclusive pass|fail
    maps it to 0 or 1), 2 bad input. One line per check (an inconclusive one: about how many games would
    decide it); --junit FILE for CI. A rerun of the same config replaces its run folder without --force.
    Strategy checks take `strategies: [LABEL, ...]` or `exclude: [random]`. Drift: see the last example.

    \b
    Example:
      sim check configs/traders_of_osaka/nightly.yaml --junit reports/junit.xml
      sim check configs/traders_of_osaka/nightly.yaml --until-decided --max-games 20000
      sim check configs/traders_of_osaka/nightly.yaml --option end_tokens=6   # one rule changed
      sim compare reference/nightly reports/traders_of_osaka/nightly --fail-on-difference   # exit 1: drift
    """
    from ..runs import check as check_run  # imported when used (`sim run` start-up, issue 20 item 8)

    t0 = time.perf_counter()
    figure_policy.expect(figures_mode)
    tail = f" --junit {junit}" if junit else ""  # what a stop's resume or --run command ends with
    options = option_values(option_pairs)
    if options and (resume_dir or not config):
        raise SimError("--option KEY=VALUE changes CONFIG's options: it needs CONFIG and takes no --resume")
    if run_dir:
        if resume_dir or until_ci is not None or until_decided:
            raise SimError("--run evaluates an existing folder: it takes no --resume, --until-ci or --until-decided")
        if junit:
            check_writable(Path(junit), "--junit")
        out_dir = Path(run_dir)
        if config:  # the checks of CONFIG, only on a run made from CONFIG, of the same experiment
            given = load_config(config, {"games": games, "seed": seed, "plugins": False if no_plugins else None},
                                options)
            check_run.same_experiment(given, out_dir, config)  # another seed, size, game: names both values
            if note := check_run.same_config(out_dir, config):  # the same experiment from another file: said
                click.echo(note, err=True)
        checks = (given if config else load_run_config(out_dir)).checks
    else:
        overrides = {"games": games, "jobs": jobs, "seed": seed, "confidence": confidence,
                     "plugins": False if no_plugins else None}
        rc = load_config(config, overrides, options) if config else None  # checks validated before any game is played
        if rc is not None and not rc.checks:
            raise no_grid(config, "checks", "{max_seat_win_rate: 0.35}")
        if resume_dir and not load_run_config(Path(resume_dir)).checks:  # refused before any game is played
            raise SimError(f"{resume_dir}: its config has no 'checks:'; `sim run --resume {resume_dir}` finishes "
                           f"it as a plain run")
        if junit:
            check_writable(Path(junit), "--junit")
        if rc is not None and not force:  # a nightly rerun replaces the previous check of the same config
            force = check_run.previous_run_of(run_folder(rc, out, config), rc)
        if until_decided:
            out_dir = _until_decided(rc, config, out, force, max_games, until_ci, resume_dir, quiet, fail_fast,
                                     backend, scheduler, min_sample, tail=tail)
        else:
            out_dir, _, _ = _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler,
                                  quiet, until_ci, max_games, confidence, no_plugins, break_lock, options=options,
                                  command="sim check", tail=tail)
        if options:  # the run folder's config.yaml reruns it, as `sim run CONFIG --option` writes it
            (out_dir / "config.yaml").write_text(replay_text(config, options, {"games": games, "seed": seed}, "sim check"))
        checks = (rc or load_run_config(out_dir)).checks
    with _unlock(out_dir), report_hint(out_dir, f"sim check --run {out_dir}{tail}"):
        results, t = check_run.evaluate_run(out_dir, checks, min_sample, confidence, figures=figures_mode)
    _check_outcome(results, t, out_dir, config, junit, inconclusive, until_decided, t0)


def _check_outcome(results, t, out_dir: Path, config, junit, inconclusive, until_decided, t0: float) -> None:
    """Print each check's line and the tally, write --junit, and exit with the check's status (1 when
    no game completed: the checks of such a run say nothing; breaker finding 1, session 10)."""
    from ..runs import check as check_run

    for r in results:
        click.echo(r.line())
    counts = {s: sum(r.status == s for r in results) for s in ("pass", "fail", "inconclusive")}
    lenient = sum(r.lenient for r in results)  # undecided, passing only because strict is false
    click.echo(f"{counts['pass']} of {len(results)} checks passed"
               + (f" ({lenient} of them undecided: strict is false)" if lenient else "")
               + f", {counts['fail']} failed, {counts['inconclusive']} inconclusive; report: {out_dir / 'report.html'}")
    if junit:
        check_run.junit(Path(junit), results, t, config or str(out_dir), time.perf_counter() - t0)
        click.echo(f"junit: {junit}")
    if none := check_run.no_game_completed(t):  # the checks say nothing (breaker finding 1, session 10)
        if none[1]:
            click.echo(none[1], err=True)
        _no_game_completed(none[0])
    status = exit_status(results, inconclusive)
    if counts["inconclusive"] and not counts["fail"]:
        adaptive = until_decided or (read_json(out_dir / "stopping.json", missing_ok=True) or {}).get("kind") == \
            "until_decided"  # also after `sim check --resume` of one (breaker finding 14, session 8)
        more = "raise --max-games" if adaptive else "try --until-decided"  # fresh-user finding 5, session 5
        click.echo(f"inconclusive: more games would decide; {more}" +
                   (f" (exit status {status} by --inconclusive {inconclusive})" if inconclusive else " (exit status 3)"))
    sys.exit(status)


def _until_decided(rc, config, out, force, max_games, until_ci, resume_dir, quiet, fail_fast, backend, scheduler,
                   min_sample, tail="") -> Path:
    """``sim check --until-decided``: play batches until every check is decided; the run folder.
    ``tail``: what the resume (or ``--run``) command a stop prints ends with (``--junit FILE``)."""
    from ..runs import check as check_run

    if rc is None or resume_dir or until_ci is not None:
        raise SimError("--until-decided needs CONFIG and takes no --resume or --until-ci")
    out_dir = run_folder(rc, out, config)
    try:
        o = check_run.run_until_decided(rc, out_dir, max_games or 100 * rc.games, force=force, progress=not quiet,
                                        fail_fast=fail_fast, backend=backend, scheduler=scheduler,
                                        min_sample=min_sample, keep_lock=True)
    except fixed.FailFast as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except BaseException as exc:
        if not is_stop(exc):
            raise
        click.echo(f"\ninterrupted: finished chunks are on disk in {out_dir}; continue the --until-decided batches"
                   f" and evaluate the checks with:\n  sim check --resume {out_dir}{tail}", err=True)
        sys.exit(130)
    games_on_disk(out_dir, f"sim check --run {out_dir}{tail}")
    stop = read_json(out_dir / "stopping.json")
    click.echo(run_line(o, backend))
    click.echo(f"stopping rule: {stop['rule']}; stopped: {stop['reason']}")
    return out_dir
