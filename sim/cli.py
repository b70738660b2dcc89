"""The ``sim`` command line: a thin Click layer over config, runner and analysis.

Exit status: 0 success, 1 a check failed (``sim check``), 2 bad input (config, data,
paths): the message names the file, line and key, and no traceback is printed.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from . import __version__
from .api import SimError


class SimGroup(click.Group):
    """Turns ``SimError`` into a one-paragraph message and exit status 2; Ctrl-C into status 130."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SimError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)


@click.group(cls=SimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sim")
def cli() -> None:
    """Balance simulator for tabletop games: play thousands of games, get win rates with intervals."""


def _out_dir(rc, out: str | None, config: str) -> Path:
    _check_out(out)
    if out:
        return Path(out)
    if rc.output:
        return Path(rc.output)
    return Path("reports") / rc.game / Path(config).stem


def _check_out(out: str | None) -> None:
    if out is not None and not out.strip():
        raise SimError("--out needs a folder name, got an empty one")


def _no_grid(config: str, key: str, example: str) -> SimError:
    """The error for a config without a ``sweep:``/``checks:`` grid: missing, or present but empty."""
    from .data import read_yaml

    doc = read_yaml(config)
    present = isinstance(doc.value, dict) and key in doc.value
    what = f"'{key}:' is empty" if present else f"no '{key}:' key"
    return SimError(f"{doc.where((key,)) if present else config}: {what}; e.g. {key}: {example}")


def _check_writable(path: Path, flag: str) -> None:
    """Refuse (before any game is played) a file path that cannot be written."""
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise SimError(f"{flag} {path}: cannot create its folder '{path.parent}': a file is in the way") from None
    except OSError as exc:
        raise SimError(f"{flag} {path}: cannot create its folder '{path.parent}' ({exc.strerror or exc})") from None
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise SimError(f"{flag} {path}: cannot write this file ({exc.strerror or exc})") from None
    if not existed:
        path.unlink()


def _speed(rate: float) -> str:
    """Games per second with sensible precision: 155, 22, 3.4, 0.42 (a slow search run is not 0)."""
    return f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"


def run_options(f):
    """The options `sim run` and `sim check` share."""
    opts = [
        click.option("--games", type=int, help="Override the number of games (with --until-ci: the first batch)."),
        click.option("--jobs", type=int, help="Worker processes (default: config 'jobs', else 1)."),
        click.option("--seed", type=int, help="Override the root seed."),
        click.option("--out", type=click.Path(file_okay=False),
                     help="Run folder (default: config 'output', else reports/<game>/<config name>)."),
        click.option("--force", is_flag=True, help="Replace an existing run folder."),
        click.option("--resume", "resume_dir", type=click.Path(file_okay=False),
                     help="Complete an interrupted run folder (no CONFIG)."),
        click.option("--fail-fast", is_flag=True, help="Stop at the first failed game (its chunk is kept)."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="local: joblib processes on this machine; dask: a Dask cluster."),
        click.option("--scheduler", help="Dask scheduler address (tcp://host:8786); without it a local cluster starts."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--until-ci", type=float, metavar="W",
                     help="Play batches until every seat's and strategy's 95% win-rate interval is within ±W "
                          "(0.01 = ±1 point), or --max-games."),
        click.option("--max-games", type=int, help="With --until-ci: stop at this many games (default 100 x --games)."),
        click.option("--min-sample", type=click.IntRange(min=0), default=50, show_default=True,
                     help="Seat-games a component needs before the report claims anything about it."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet,
          until_ci=None, max_games=None):
    """Play a config (or complete ``--resume``); return ``(run folder, config or None, outcome)``."""
    from polars.exceptions import ComputeError

    from .config import load_config
    from .runner import FailFast, resume
    from .runner import run as run_games

    if resume_dir and config:
        raise SimError("give either CONFIG or --resume RUN_DIR, not both")
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")
    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    if max_games is not None and until_ci is None:
        raise SimError("--max-games needs --until-ci")
    if until_ci is not None and resume_dir:
        raise SimError("--until-ci cannot be combined with --resume")
    # the folder stays locked until the caller has written the report (``_unlock``)
    opts = {"progress": not quiet, "fail_fast": fail_fast, "backend": backend, "scheduler": scheduler, "keep_lock": True}
    try:
        if resume_dir:
            out_dir = Path(resume_dir)
            outcome = resume(out_dir, jobs=jobs, **opts)
            rc = None
        elif config:
            rc = load_config(config, {"games": games, "jobs": jobs, "seed": seed})
            out_dir = _out_dir(rc, out, config)
            if rc.sweep:
                click.echo(f"warning: {config} has a 'sweep:' grid, which `sim run` ignores (it plays the config's own"
                           f" values); `sim sweep {config}` plays the grid", err=True)
            if until_ci is not None:
                from .sequential import run_until_ci

                outcome = run_until_ci(rc, out_dir, until_ci, max_games or 100 * rc.games, force=force, **opts)
            else:
                outcome = run_games(rc, out_dir, force=force, **opts)
        else:
            raise SimError("missing CONFIG (or --resume RUN_DIR); see `sim run --help`")
    except FailFast as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except (OSError, ComputeError) as exc:  # e.g. a full disk: finished chunks are safe on disk
        where = resume_dir or locals().get("out_dir")
        raise SimError(f"cannot write the run folder {where}: {exc}; finished chunks are kept: free space,"
                       f" then `sim run --resume {where}`") from None
    except KeyboardInterrupt:
        where = resume_dir or locals().get("out_dir")
        rule = " (it continues the --until-ci stopping rule)" if where and (Path(where) / "stopping.json").is_file() else ""
        click.echo(f"\ninterrupted: finished chunks are on disk in {where}; complete the run with:\n"
                   f"  sim run --resume {where}{rule}", err=True)
        sys.exit(130)
    njobs = "dask cluster" if backend == "dask" else f"{outcome.jobs} job{'s' if outcome.jobs > 1 else ''}"
    before = f" ({outcome.already} were already on disk)" if outcome.already else ""
    click.echo(f"played {outcome.games} games{before} in {outcome.seconds:.1f} s ({_speed(outcome.games_per_second)} games/s, {njobs}); "
               f"{outcome.truncated} truncated, {outcome.failed} failed")
    from .data import read_json

    stop = read_json(out_dir / "stopping.json", missing_ok=True)
    if stop is not None:
        click.echo(f"stopping rule: {stop['rule']}; stopped: {stop['reason']}")
    return out_dir, rc, outcome


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@run_options
def run(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet, until_ci, max_games,
        min_sample) -> None:
    """Play the games of CONFIG in parallel and write tables, figures and a report."""
    from .analysis.report import build_report, summary_text

    out_dir, _, _ = _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet,
                          until_ci, max_games)
    t0 = time.perf_counter()
    with _unlock(out_dir):
        rep = build_report(out_dir, min_sample=min_sample)
    click.echo(summary_text(rep))
    click.echo(f"report: {out_dir / 'report.html'} (and report.md; tables *.parquet) [{time.perf_counter() - t0:.1f} s]")


@contextmanager
def _unlock(out_dir: Path):
    """Release the run folder's lock (kept by ``_play``) once the block has written the report."""
    from .runner import unlock

    try:
        yield
    finally:
        unlock(out_dir)


def _previous_run_of(folder: Path, rc) -> bool:
    """Whether ``folder`` is a run folder made from the same config file as ``rc``."""
    from .runner import load_run_config

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
def check(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet, until_ci, max_games,
          min_sample, junit, run_dir) -> None:
    """Run CONFIG and evaluate its `checks:`; exit 0 when all pass, 1 when any fails, 2 for bad input.

    Prints one line per check; --junit FILE writes them for CI systems. A run folder from an earlier
    `sim check` (or `sim run`) of the same config is replaced without --force, so a nightly job can rerun.
    """
    from .analysis.report import analyse, load_tables, render_figures, write_report
    from .checks import evaluate, write_junit
    from .config import load_config
    from .runner import load_run_config

    t0 = time.perf_counter()
    if run_dir:
        if resume_dir or until_ci is not None:
            raise SimError("--run evaluates an existing folder: it takes no --resume or --until-ci")
        if junit:
            _check_writable(Path(junit), "--junit")
        out_dir = Path(run_dir)
        checks = (load_config(config) if config else load_run_config(out_dir)).checks
    else:
        rc = load_config(config) if config else None  # checks are validated before any game is played
        if rc is not None and not rc.checks:
            raise _no_grid(config, "checks", "{max_seat_win_rate: 0.35}")
        if junit:
            _check_writable(Path(junit), "--junit")
        if rc is not None and not force:  # a nightly rerun replaces the previous check of the same config
            force = _previous_run_of(_out_dir(rc, out, config), rc)
        out_dir, _, _ = _play(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler,
                                quiet, until_ci, max_games)
        checks = (rc or load_run_config(out_dir)).checks
    with _unlock(out_dir):
        if not checks:
            raise SimError("no 'checks:' in the config; e.g. checks: {max_seat_win_rate: 0.35}")
        t = load_tables(out_dir)
        played = t.games.height
        failed = int(t.games["failed"].sum()) if played else 0
        rep = analyse(t, min_sample=min_sample)
        results = evaluate({k: (v if isinstance(v, dict) else v.model_dump()) for k, v in checks.items()}, rep.tables,
                           played, failed)
        render_figures(t, rep)
        write_report(out_dir, rep, results)
    for r in results:
        click.echo(r.line())
    n_fail = sum(not r.passed for r in results)
    click.echo(f"{len(results) - n_fail} of {len(results)} checks passed; report: {out_dir / 'report.html'}")
    if junit:
        cfg = t.config
        try:
            write_junit(Path(junit), results, f"sim.check.{cfg['game']}",
                        {"config": config or str(out_dir), "game": cfg["game"], "games": played, "seed": cfg["seed"],
                         "run_folder": str(out_dir), **({"stopping_rule": t.stopping["rule"]} if t.stopping else {})},
                        time.perf_counter() - t0)
        except OSError as exc:  # the run and its report are on disk already
            raise SimError(f"--junit {junit}: cannot write this file ({exc.strerror or exc}); the run and its report"
                           f" are in {out_dir}") from None
        click.echo(f"junit: {junit}")
    sys.exit(1 if n_fail else 0)


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--games", type=int, help="Override the number of games per point.")
@click.option("--jobs", type=int, help="Worker processes (default: config 'jobs', else 1).")
@click.option("--seed", type=int, help="Override the root seed (the same at every point).")
@click.option("--out", type=click.Path(file_okay=False), help="Sweep folder (default: reports/<game>/<config name>-sweep).")
@click.option("--force", is_flag=True, help="Replace an existing sweep folder.")
@click.option("--figure", "figures", multiple=True,
              type=click.Choice(["seat_win_rate", "strategy_win_rate", "first_player_advantage", "balance",
                                 "drawishness", "completion", "truncated_share", "game_length", "mean_score"]),
              help="Figures to chart against the parameter (repeat; default: all).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", help="Dask scheduler address (with --backend dask).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--point-reports/--no-point-reports", default=True, show_default=True,
              help="Also write each point's full report in its folder.")
def sweep(config, games, jobs, seed, out, force, figures, backend, scheduler, quiet, point_reports) -> None:
    """Play CONFIG at every point of its `sweep:` grid with the same game seeds; one combined report."""
    from .analysis.sweep_report import write_sweep_report
    from .config import load_config
    from .experiment import run_sweep

    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")
    _check_out(out)
    rc = load_config(config, {"games": games, "jobs": jobs, "seed": seed})
    if not rc.sweep:
        raise _no_grid(config, "sweep", "{options.end_tokens: [6, 8, 10]}")
    out_dir = Path(out) if out else Path("reports") / rc.game / f"{Path(config).stem}-sweep"
    t0 = time.perf_counter()
    pts, table = run_sweep(rc, out_dir, force=force, progress=not quiet, backend=backend, scheduler=scheduler,
                           echo=click.echo, point_reports=point_reports)
    _, html_path = write_sweep_report(out_dir, table, list(figures) or None)
    click.echo(f"swept {len(pts)} point(s) x {rc.games} games in {time.perf_counter() - t0:.1f} s; "
               f"report: {html_path} (points in {out_dir}/point-NNN)")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--min-sample", type=click.IntRange(min=0), default=50, show_default=True,
              help="Seat-games a component needs before the report claims anything about it.")
def report(run_dir: str, min_sample: int) -> None:
    """Rebuild RUN_DIR's report (report.md, report.html, figures) from its tables."""
    from .analysis.report import build_report, summary_text

    rep = build_report(Path(run_dir), min_sample=min_sample)
    click.echo(summary_text(rep))
    click.echo(f"report: {Path(run_dir) / 'report.html'}")


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--games", type=int, help="The number of games, as `sim run --games` gives it.")
@click.option("--seed", type=int, help="The root seed, as `sim run --seed` gives it.")
def validate(config: str, games: int | None, seed: int | None) -> None:
    """Check CONFIG (keys, game, strategies, options, data files) without playing.

    Accepts exactly what `sim run` accepts: games and seed may come from --games and --seed.
    """
    from .config import load_config

    rc = load_config(config, {"games": games, "seed": seed})
    click.echo(f"{config}: ok ({rc.game}, {rc.players} players, {rc.games} games, strategies: {', '.join(rc.labels)})")


@cli.command(name="list")
@click.argument("what", type=click.Choice(["games", "strategies"]))
def list_(what: str) -> None:
    """List registered games or strategies."""
    from .registry import games, resolve_strategy, strategies, strategy_params

    if what == "games":
        for name, cls in games().items():
            i = cls.info
            click.echo(f"{name:<24}{i.min_players}-{i.max_players} players  v{i.version}  {i.title}")
    else:
        for name, factory in strategies().items():
            if hasattr(factory, "load"):  # an installed plugin's entry point: describe the class it names
                try:
                    factory = resolve_strategy(name)
                except SimError as exc:
                    click.echo(f"{name}  [cannot load]\n    {exc}")
                    continue
            doc = " ".join((getattr(factory, "__doc__", "") or "").split("\n\n")[0].split()).replace("``", "")
            allowed = getattr(factory, "games", ())
            params = ", ".join(f"{k}={v!r}" for k, v in strategy_params(factory).items())
            click.echo(f"{name}  [{'/'.join(allowed) if allowed else 'any game'}]" + (f"  params: {params}" if params else ""))
            if doc:
                click.echo(f"    {doc}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--game-index", "-i", type=int, required=True, help="Index of the game in the run.")
def replay(run_dir: str, game_index: int) -> None:
    """Replay one game of RUN_DIR from its seed and print a readable log."""
    from .runner import load_run_config
    from .runner import replay as replay_game

    rc = load_run_config(Path(run_dir))
    if not 0 <= game_index < rc.games:
        raise SimError(f"--game-index must be in 0..{rc.games - 1}, got {game_index}")
    lines, game, result = replay_game(rc, game_index, Path(run_dir))
    for line in lines:
        click.echo(line)
    if result is not None:
        s = result.state
        scores = [int(x) if float(x).is_integer() else x for x in game.scores(s)]
        click.echo(f"scores: {scores}; winners: {sorted(game.winners(s))}; "
                   f"decisions: {result.n_decisions}; truncated: {result.truncated}")


@cli.command()
@click.argument("game")
@click.option("--games", type=int, default=1000, show_default=True)
@click.option("--players", type=int, help="Default: the game's maximum.")
@click.option("--strategy", default="random", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
def bench(game: str, games: int, players, strategy: str, seed: int) -> None:
    """Play GAME on one core through the game loop; print decisions/s and games/s."""
    from .api import play_game
    from .registry import get_game, make_strategy
    from .seeding import game_streams

    cls = get_game(game)
    n = players or cls.info.max_players
    if not cls.info.min_players <= n <= cls.info.max_players:
        raise SimError(f"{game} takes {cls.info.min_players}-{cls.info.max_players} players, not {n}")
    if games < 1:
        raise SimError("--games must be at least 1")
    g = cls.build(n)
    strat = [make_strategy(strategy, {}, game, game=g) for _ in range(n)]
    decisions = 0
    t0 = time.perf_counter()
    for i in range(games):
        chance, rngs = game_streams(seed, i, n)
        decisions += play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions).n_decisions
    dt = time.perf_counter() - t0
    click.echo(f"{game}, {n} players, {strategy}: {games} games in {dt:.2f} s: {games / dt:.1f} games/s, "
               f"{decisions / dt:,.0f} decisions/s ({decisions / games:.0f} decisions/game), one core")


def main() -> None:
    cli(prog_name="sim")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
