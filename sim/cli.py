"""The ``sim`` command line: a thin Click layer over config, runner and analysis.

Exit status: 0 success, 1 a check failed (later: ``sim check``), 2 bad input (config, data,
paths): the message names the file, line and key, and no traceback is printed.
"""

from __future__ import annotations

import sys
import time
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
    if out:
        return Path(out)
    if rc.output:
        return Path(rc.output)
    return Path("reports") / Path(config).stem


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@click.option("--games", type=int, help="Override the number of games.")
@click.option("--jobs", type=int, help="Worker processes (default: config 'jobs', else 1).")
@click.option("--seed", type=int, help="Override the root seed.")
@click.option("--out", type=click.Path(file_okay=False), help="Run folder (default: config 'output', else reports/<config name>).")
@click.option("--force", is_flag=True, help="Replace an existing run folder.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), help="Complete an interrupted run folder (no CONFIG).")
@click.option("--fail-fast", is_flag=True, help="Stop at the first failed game (its chunk is kept).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: joblib processes on this machine; dask: a Dask cluster.")
@click.option("--scheduler", help="Dask scheduler address (tcp://host:8786); without it a local cluster starts.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def run(config, games, jobs, seed, out, force, resume_dir, fail_fast, backend, scheduler, quiet) -> None:
    """Play the games of CONFIG in parallel and write tables, figures and a report."""
    from .analysis.report import build_report, summary_text
    from .config import load_config
    from .runner import FailFast, resume
    from .runner import run as run_games

    if resume_dir and config:
        raise SimError("give either CONFIG or --resume RUN_DIR, not both")
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")
    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    opts = {"progress": not quiet, "fail_fast": fail_fast, "backend": backend, "scheduler": scheduler}
    try:
        if resume_dir:
            out_dir = Path(resume_dir)
            outcome = resume(out_dir, jobs=jobs, **opts)
            rc = None
        elif config:
            rc = load_config(config, {"games": games, "jobs": jobs, "seed": seed})
            out_dir = _out_dir(rc, out, config)
            outcome = run_games(rc, out_dir, force=force, **opts)
        else:
            raise SimError("missing CONFIG (or --resume RUN_DIR); see `sim run --help`")
    except FailFast as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        where = resume_dir or locals().get("out_dir")
        click.echo(f"\ninterrupted: finished chunks are on disk in {where}; complete the run with:\n"
                   f"  sim run --resume {where}", err=True)
        sys.exit(130)
    njobs = "dask cluster" if backend == "dask" else f"{outcome.jobs} job{'s' if outcome.jobs > 1 else ''}"
    click.echo(f"played {outcome.games} games in {outcome.seconds:.1f} s ({outcome.games_per_second:.0f} games/s, "
               f"{njobs}); {outcome.truncated} truncated, {outcome.failed} failed")
    t0 = time.perf_counter()
    rep = build_report(out_dir)
    click.echo(summary_text(rep))
    click.echo(f"report: {out_dir / 'report.html'} (and report.md; tables *.parquet) [{time.perf_counter() - t0:.1f} s]")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
def report(run_dir: str) -> None:
    """Rebuild RUN_DIR's report (report.md, report.html, figures) from its tables."""
    from .analysis.report import build_report, summary_text

    rep = build_report(Path(run_dir))
    click.echo(summary_text(rep))
    click.echo(f"report: {Path(run_dir) / 'report.html'}")


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False))
def validate(config: str) -> None:
    """Check CONFIG (keys, game, strategies, options, data files) without playing."""
    from .config import load_config

    rc = load_config(config)
    click.echo(f"{config}: ok ({rc.game}, {rc.players} players, {rc.games} games, strategies: {', '.join(rc.labels)})")


@cli.command(name="list")
@click.argument("what", type=click.Choice(["games", "strategies"]))
def list_(what: str) -> None:
    """List registered games or strategies."""
    from .registry import games, strategies

    if what == "games":
        for name, cls in games().items():
            i = cls.info
            click.echo(f"{name:<24}{i.min_players}-{i.max_players} players  v{i.version}  {i.title}")
    else:
        for name, factory in strategies().items():
            doc = " ".join((getattr(factory, "__doc__", "") or "").split("\n\n")[0].split()).replace("``", "")
            allowed = getattr(factory, "games", ())
            model = getattr(factory, "Params", None)
            params = ", ".join(f"{k}={f.default!r}" for k, f in model.model_fields.items()) if model else ""
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
    lines, game, result = replay_game(rc, game_index)
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
    strat = [make_strategy(strategy, {}, game) for _ in range(n)]
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
