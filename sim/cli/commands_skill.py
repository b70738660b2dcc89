"""The ``skill`` command: a round robin of a game's strategies and the skill-versus-luck figures."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..analysis.skill import skill_text
from ..api import SimError
from ..config.starter import known_game
from ..limits import is_stop
from ..runs.skill import BASELINE, run_skill
from .group import cli
from .options import check_cluster, check_out, cluster_options, option_values, say


@cli.command()
@click.argument("game")
@click.option("--players", type=int, default=2, show_default=True,
              help="Seats per game, at least 2 (alone every strategy wins); the skill-depth index is defined at 2.")
@click.option("--games", type=int, default=200, show_default=True,
              help="Games per table (rounded up to a whole seating cycle).")
@click.option("--strategy", "names", multiple=True,
              help="A strategy of the pool (repeatable; default: every strategy made for GAME). "
                   f"The baseline {BASELINE} is always added.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed (the same in every table).")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes per table.")
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder for the tables and skill.md/skill.json (default reports/<game>/skill-<players>p).")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="A rule option for every table (repeatable; `sim list options GAME`), e.g. "
                   "--option allow_two_players=true for a 2-player Forwarder of Xanadu round robin.")
@click.option("--force", is_flag=True, help="Replace an existing skill folder.")
@click.option("--quiet", is_flag=True, help="No progress bar and no strategy output while games play (results and errors are still printed).")
@cluster_options
def skill(game: str, players: int, games: int, names: tuple[str, ...], seed: int, jobs: int, out: str | None,
          option_pairs: tuple[str, ...], force: bool, quiet: bool, backend: str, scheduler: str | None) -> None:
    """Round robin of GAME's strategies plus the random_by_kind baseline: a ranking with 95%
    intervals, the skill-depth index (best win rate minus the baseline's) and the upset rate
    (how often the lower-ranked strategy of a pairing wins).

    Every combination of --players different strategies plays one table of --games games, each a
    run folder (table-NNN) that `sim report` can read. --backend dask --scheduler tcp://host:8786
    plays every table's games on a Dask cluster (without --scheduler a local cluster starts per table).

    \b
    Example:
      sim skill xanadu --players 2 --games 100
      sim skill traders_of_osaka --strategy osaka.trader --strategy osaka.hoarder --games 40
      sim skill forwarder_of_xanadu --players 2 --option allow_two_players=true
    """
    check_out(out)
    check_cluster(backend, scheduler)
    cls = known_game(game)
    if not cls.info.min_players <= players <= cls.info.max_players:
        raise SimError(f"{game} takes {cls.info.min_players}-{cls.info.max_players} players, not {players}")
    if jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    folder = Path(out) if out else Path("reports") / game / f"skill-{players}p"
    try:
        figures = run_skill(game, players, games, seed, folder, names=names, jobs=jobs, force=force,
                            progress=not quiet, options=option_values(option_pairs),
                            echo=None if quiet else say, backend=backend, scheduler=scheduler)
    except BaseException as exc:  # Ctrl-C or SIGTERM: each table's workers ended and its lock released
        if not is_stop(exc):
            raise
        click.echo(f"\ninterrupted: the round robin in {folder} is not finished (sim skill has no --resume);"
                   f" start it again with --force", err=True)
        sys.exit(130)
    for line in skill_text(figures, players):
        say(line)
    say(f"skill: {folder / 'skill.md'}")

