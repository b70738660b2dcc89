"""``sim sweep``: a config played at every point of its ``sweep:`` grid, one combined report."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..api import SimError
from ..config import load_config, load_run_config
from .group import cli
from .options import (
    check_out,
    confidence_option,
    figures_option,
    no_grid,
    no_plugins_option,
    option_values,
    options_option,
    refuse_plugins,
    resume_hint,
    say,
    write_failures,
)


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False),
              help="Complete an interrupted sweep folder (no CONFIG): finished points are kept.")
@click.option("--games", type=int, help="Override the number of games per point.")
@click.option("--jobs", type=int, help="Worker processes (default: config 'jobs', else the usable cores).")
@click.option("--seed", type=int, help="Override the root seed (the same at every point).")
@click.option("--out", type=click.Path(file_okay=False), help="Sweep folder (default: the config's output:, else reports/<game>/<config name>-sweep).")
@click.option("--force", is_flag=True, help="Replace an existing sweep folder.")
@click.option("--figure", "figures", multiple=True,
              type=click.Choice(["seat_win_rate", "strategy_win_rate", "first_player_advantage", "balance",
                                 "drawishness", "completion", "truncated_share", "game_length", "mean_score"]),
              help="Figures to chart against the parameter (repeat; default: all).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", help="Dask scheduler address (with --backend dask).")
@click.option("--quiet", is_flag=True, help="No progress bar and no strategy output while games play (results and errors are still printed).")
@click.option("--point-reports/--no-point-reports", default=True, show_default=True,
              help="Also write each point's full report in its folder.")
@figures_option
@confidence_option
@no_plugins_option
@options_option
def sweep(config, resume_dir, games, jobs, seed, out, force, figures, backend, scheduler, quiet, point_reports,
          figures_mode, confidence, no_plugins, option_pairs) -> None:
    """Play CONFIG at every point of its `sweep:` grid with the same game seeds; one combined report.

    Exit status 1 when some point has no complete game (every game failed, stalled or was capped): the
    report is written, marks that point and leaves it out of the comparisons; 2 bad input.

    \b
    Example: sim sweep configs/traders_of_osaka/sweep_end_tokens.yaml --games 200
    another fixed rule at every point: sim sweep CONFIG --option max_rounds=12
    after an interruption: sim sweep --resume reports/traders_of_osaka/sweep_end_tokens-sweep
    """
    from ..analysis.sweep_report import write_sweep_report  # imported when used (start-up, issue 20 item 8)
    from ..runs.sweep import resume_sweep, run_sweep

    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")
    check_out(out)
    options = option_values(option_pairs)
    if resume_dir:
        if config or games or seed is not None or out or force or options or confidence is not None:
            raise SimError("--resume DIR continues a sweep folder as it was started (its finished points keep the"
                           " confidence level in its sweep.json): give no CONFIG, --games, --seed, --out, --force,"
                           " --option or --confidence")
        out_dir = Path(resume_dir)
        if no_plugins:
            refuse_plugins(out_dir)
        t0 = time.perf_counter()
        with resume_hint("sim sweep", out_dir, "finished points and chunks"), \
                write_failures("sim sweep", out_dir):
            pts, table = resume_sweep(out_dir, progress=not quiet, backend=backend, scheduler=scheduler,
                                      echo=say, figures_mode=figures_mode)
        rc = load_run_config(out_dir)
    else:
        if not config:
            raise SimError("missing CONFIG (or --resume SWEEP_DIR); see `sim sweep --help`")
        rc = load_config(config, {"games": games, "jobs": jobs, "seed": seed, "confidence": confidence,
                                  "plugins": False if no_plugins else None}, options)
        if not rc.sweep:
            raise no_grid(config, "sweep", "{options.end_tokens: [6, 8, 10]}")
        swept = sorted(k for k in options if f"options.{k}" in rc.sweep)
        if swept:  # the grid would silently replace it at every point (breaker trial 2, session 8)
            raise SimError(f"--option {', '.join(swept)}: {config} sweeps options.{swept[0]}, so a fixed value would"
                           " be replaced at every point; drop the --option or edit the sweep: grid")
        # a config's ``output:`` names the sweep folder too (fresh-user finding 7, session 4)
        out_dir = Path(out) if out else Path(rc.output) if rc.output else Path("reports") / rc.game / f"{Path(config).stem}-sweep"
        t0 = time.perf_counter()
        with resume_hint("sim sweep", out_dir, "finished points and chunks"), \
                write_failures("sim sweep", out_dir):
            pts, table = run_sweep(rc, out_dir, force=force, progress=not quiet, backend=backend, scheduler=scheduler,
                                   echo=say, point_reports=point_reports, figures_mode=figures_mode, options=options)
    with resume_hint("sim sweep", out_dir, "all points"):  # a stop while the sweep report is written
        said: list[str] = []  # the sweep's findings, printed below (fresh-user finding 6, session 8)
        _, html_path = write_sweep_report(out_dir, table, list(figures) or None, draw=figures_mode != "never", said=said)
    for line in said:
        say(line)
    say(f"swept {len(pts)} point{'s' if len(pts) != 1 else ''} x {rc.games} games in {time.perf_counter() - t0:.1f} s; "
               f"report: {html_path} (points in {out_dir}/point-NNN)")
    _exit_if_a_point_never_completed(out_dir)


def _exit_if_a_point_never_completed(out_dir: Path) -> None:
    """Exit 1 when some point has no complete game, as `sim run` of that point would (its games say
    nothing about balance); the report is written and leaves it out of the comparisons (breaker
    finding 2, session 10: such a point made the sweep exit 2 without a report)."""
    from ..analysis.sweep_report import point_games
    from ..data import read_json

    meta = read_json(out_dir / "sweep.json")
    label = {p["index"]: p["label"] for p in meta["points"]}
    none = [i for i, (n, _, _) in point_games(out_dir, meta).items() if not n]
    if none:
        named = ", ".join(f"{i} ({label[i]})" for i in none)
        click.echo(f"error: no game completed at point{'s' if len(none) > 1 else ''} {named} (the sweep's findings"
                   " above say why; the report leaves it out of the comparisons); exit status 1", err=True)
        sys.exit(1)


