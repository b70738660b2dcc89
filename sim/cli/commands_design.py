"""The designer's commands: ``tune`` (a rule value towards a balance target) and ``discover``
(a dominant plan for one seat's strategy)."""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from ..api import SimError
from ..config import load_config, load_run_config
from ..config.design import discover_plan, tune_plan
from ..data import read_yaml
from .group import cli
from .options import (
    CLUSTER_OPTIONS,
    check_cluster,
    check_out,
    check_writable,
    resume_hint,
    told_on_interrupt,
    write_failures,
)


def design_options(f):
    """Options ``tune`` and ``discover`` share."""
    opts = [
        click.option("--jobs", type=int, help="Worker processes per trial (default: config 'jobs', else the usable cores)."),
        click.option("--seed", type=int, help="Override the root seed (the same for every trial)."),
        click.option("--out", type=click.Path(file_okay=False),
                     help="Output folder (default: reports/<game>/<config name>-tune or -discover)."),
        click.option("--force", is_flag=True, help="Replace an existing output folder of the same kind."),
        click.option("--resume", "resume_dir", type=click.Path(file_okay=False),
                     help="Continue an interrupted study in this folder (no CONFIG): finished trials are not played again."),
        click.option("--json", "json_file", type=click.Path(dir_okay=False), help="Also write the result as JSON here."),
        click.option("--quiet", is_flag=True, help="No line per trial."),
        *CLUSTER_OPTIONS,  # every trial on the cluster (session 10); a local cluster starts per trial without --scheduler
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def _prepare(config: str | None, jobs, seed, out, force, json_file, section: str, resume_dir: str | None):
    """``(resolved config, plan, output folder)`` of a new study or (``resume_dir``) a saved one."""
    if jobs is not None and jobs < 1:
        raise SimError(f"--jobs must be at least 1, got {jobs}")
    check_out(out)
    if json_file:
        check_writable(Path(json_file), "--json")
    plan_of = tune_plan if section == "tune" else discover_plan
    if resume_dir:
        if config or seed is not None or out or force:
            raise SimError(f"--resume DIR continues a `sim {section}` folder as it was started: give no CONFIG,"
                           " --seed, --out or --force")
        out_dir = Path(resume_dir)
        if not (out_dir / "config.json").is_file():
            raise SimError(f"'{out_dir}' holds no `sim {section}` study to resume (no config.json)")
        rc = load_run_config(out_dir)
        if jobs:
            rc = rc.model_copy(update={"jobs": jobs})
        if not getattr(rc, section):
            raise SimError(f"'{out_dir}' is not a `sim {section}` folder (its config has no '{section}:' section)")
        return rc, plan_of(rc), out_dir
    if not config:
        raise SimError(f"missing CONFIG (or --resume DIR); see `sim {section} --help`")
    rc = load_config(config, {"jobs": jobs, "seed": seed})
    if not getattr(rc, section):
        raise SimError(f"{config}: no '{section}:' section; see `sim {section} --help` for an example")
    out_dir = Path(out) if out else Path("reports") / rc.game / f"{Path(config).stem}-{section}"
    return rc, plan_of(rc, read_yaml(config)), out_dir


def _write_json(json_file: str | None, payload: dict) -> None:
    """``--json FILE``, written whole or not at all (a temporary file renamed: breaker finding 8,
    session 8, left a 0-byte file on a full disk)."""
    from ..analysis.halving import plain
    from ..integrity import write_json_atomic

    if json_file:
        try:
            write_json_atomic(Path(json_file), plain(payload))
        except OSError as exc:
            raise SimError(f"--json {json_file}: cannot write it ({exc.strerror or exc}); free space, then write it"
                           f" again with the same command and --resume") from None
        click.echo(f"json: {json_file}")


@contextmanager
def _trial_errors(config: str, section: str):
    """A value of the ``tune:``/``discover:`` section that only fails once a trial builds its game or
    reads its figure (a float for a whole-number option, a text column as the metric) is bad input:
    exit 2 naming the section, not a traceback."""
    from polars.exceptions import PolarsError
    from pydantic import ValidationError

    try:
        yield
    except (ValidationError, PolarsError, ValueError, TypeError) as exc:
        first = str(exc).strip().splitlines()
        raise SimError(f"{config}, key '{section}': a trial could not be played with these values: "
                       f"{' '.join(first[:3])[:300]}") from None


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@design_options
def tune(config, jobs, seed, out, force, resume_dir, json_file, quiet, backend, scheduler) -> None:
    """Find the value of options, data values or strategy parameters that brings a balance figure
    to its target (Optuna: grid for small integer ranges, else TPE; successive halving of the games
    per trial; the best value confirmed on fresh seeds). CONFIG needs a `tune:` section:

    \b
      tune:
        params: {options.end_tokens: [3, 12]}     # int range; {float: [a, b]}; {choice: [..]}
        target: {metric: n_decisions, value: 150} # or {first_player_advantage: 0},
                                                  # {seat_spread: min}, {strategy_gap: [A, B]}
        max_games: 900                            # games per trial grow from `games` to this

    Each trial is a run: --backend dask --scheduler tcp://host:8786 plays every trial's games on a
    Dask cluster (without --scheduler a local cluster starts for each trial).

    Example: sim tune configs/traders_of_osaka/tune_end_tokens.yaml --json best.json
    after an interruption: sim tune --resume reports/traders_of_osaka/tune_end_tokens-tune
    """
    _design("tune", config, jobs, seed, out, force, resume_dir, json_file, quiet, backend, scheduler)


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@design_options
def discover(config, jobs, seed, out, force, resume_dir, json_file, quiet, backend, scheduler) -> None:
    """Search one seat's strategy parameters (its documented Params) for the highest win rate against
    the config's other seats, then replay the best and the default parameters on the same fresh
    seeds (paired McNemar test). Says whether a dominant plan exists and which parameters drive it.
    CONFIG needs a `discover:` section:

    \b
      discover:
        seat: 0                        # index in the config's strategies list
        params: {min_goods: [1, 8]}    # optional: narrow or widen a parameter's range
        trials: 40                     # TPE trials (a small integer space is searched whole)
        max_games: 900

    Each trial is a run: --backend dask --scheduler tcp://host:8786 plays every trial's games on a
    Dask cluster (without --scheduler a local cluster starts for each trial).

    Example: sim discover configs/traders_of_osaka/discover_trader.yaml --json found.json
    after an interruption: sim discover --resume reports/traders_of_osaka/discover_trader-discover
    """
    _design("discover", config, jobs, seed, out, force, resume_dir, json_file, quiet, backend, scheduler)


def _saved_result(path: Path) -> dict:
    """The result a finished study wrote (``tune.json`` / ``discover.json``)."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SimError(f"{path}: cannot read the finished study's result ({exc}); run the study again with"
                       " --force") from None


# per kind: the JSON keys written with --json, and the verb of the closing line
JSON_KEYS = {"tune": ("best", "objective", "ci", "target", "loss", "confirm", "trials"),
             "discover": ("best_params", "win_rate", "p", "p_vs_fair", "fair_share", "dominant", "importances", "defaults", "trials")}
VERB = {"tune": "tuned", "discover": "searched"}


def _design(kind: str, config, jobs, seed, out, force, resume_dir, json_file, quiet, backend="local",
            scheduler=None) -> None:
    """The body of ``tune`` and ``discover``: prepare, plan, run (resumable), report, summary, JSON."""
    from ..analysis import tune_report  # Optuna and the report libraries load only when used
    from ..analysis.halving import plain
    from ..analysis.trial_completion import NoCompleteTrial
    from ..runs.discover import run_discover
    from ..runs.tune import run_tune

    check_cluster(backend, scheduler)
    rc, plan, out_dir = _prepare(config, jobs, seed, out, force, json_file, kind, resume_dir)
    t0 = time.perf_counter()
    run = run_tune if kind == "tune" else run_discover
    saved = out_dir / f"{kind}.json"
    hint = f"sim {kind} --resume {out_dir}" + (f" --json {json_file}" if json_file else "")
    if resume_dir and saved.is_file():  # a finished study whose report was stopped: rebuilt from its JSON
        result = _saved_result(saved)
        click.echo(f"{out_dir}: the study is finished ({saved.name}); its report is written again from it")
    else:
        with resume_hint(f"sim {kind}", out_dir, "the finished trials (study.log, trials/)"), \
                _trial_errors(config or str(out_dir / "config.json"), kind), write_failures(f"sim {kind}", out_dir):
            try:
                result = run(rc, plan, out_dir, force=force, echo=None if quiet else click.echo,
                             resume=bool(resume_dir), backend=backend, scheduler=scheduler)
            except NoCompleteTrial as exc:  # as `sim run` with no complete game (breaker finding 4, session 10)
                click.echo(f"error: {exc}; exit status 1", err=True)
                sys.exit(1)
    write = tune_report.write_tune_report if kind == "tune" else tune_report.write_discover_report
    summary = tune_report.tune_summary if kind == "tune" else tune_report.discover_summary
    with told_on_interrupt(f"the study is finished ({saved}), but its report was not written; write it with:\n"
                           f"  {hint}"):
        _, html_path = write(out_dir, plain(result), rc.game)
        click.echo(summary(plain(result)))
        click.echo(f"{VERB[kind]} in {time.perf_counter() - t0:.1f} s; report: {html_path} (and {kind}.md; study.log)")
        _write_json(json_file, {k: result[k] for k in JSON_KEYS[kind]})
