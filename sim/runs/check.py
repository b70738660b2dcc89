"""A nightly check (``sim check``): a run (played by ``fixed`` or ``until_ci``, or an existing run
folder) whose config's ``checks:`` are evaluated, added to its report and written as JUnit XML."""

from __future__ import annotations

from pathlib import Path

from ..analysis.checks import CheckResult, evaluate, write_junit
from ..analysis.document import render_figures, write_report
from ..analysis.report import analyse
from ..analysis.tables import RunTables, load_tables
from ..api import SimError
from ..config import RunConfig, load_run_config
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


def same_experiment(rc: RunConfig, out_dir: Path, config: str) -> None:
    """``sim check CONFIG --run RUN``: refuse (``SimError`` naming both values) unless RUN was made
    from the same experiment as CONFIG (game, seed, size, strategies, options, data, engine and
    plugin versions), so CI never reports checks of one config on another run."""
    load_run_config(out_dir)  # a run folder at all
    check_same_experiment(rc, out_dir, "checked against it", what=config)
    check_same_rules(rc, out_dir, "checked against it")


def evaluate_run(out_dir: Path, checks: dict, min_sample: int) -> tuple[list[CheckResult], RunTables]:
    """Evaluate ``checks`` on the run folder and rewrite its report with a Checks table.

    Raises ``SimError`` when there are no checks or the folder is not a finished run."""
    if not checks:
        raise SimError("no 'checks:' in the config; e.g. checks: {max_seat_win_rate: 0.35}")
    t = load_tables(out_dir)
    played = t.games.height
    failed = int(t.games["failed"].sum()) if played else 0
    rep = analyse(t, min_sample=min_sample)
    results = evaluate({k: (v if isinstance(v, dict) else v.model_dump()) for k, v in checks.items()}, rep.tables,
                       played, failed)
    render_figures(rep)
    write_report(out_dir, rep, results)
    return results, t


def junit(path: Path, results: list[CheckResult], t: RunTables, config: str, seconds: float) -> None:
    """Write the JUnit XML file of a check (one test case per check). ``SimError`` when it cannot be
    written (the run and its report are on disk already)."""
    cfg = t.config
    try:
        write_junit(path, results, f"sim.check.{cfg['game']}",
                    {"config": config, "game": cfg["game"], "games": t.games.height, "seed": cfg["seed"],
                     "run_folder": str(t.run_dir), **({"stopping_rule": t.stopping["rule"]} if t.stopping else {})},
                    seconds)
    except OSError as exc:
        raise SimError(f"--junit {path}: cannot write this file ({exc.strerror or exc}); the run and its report"
                       f" are in {t.run_dir}") from None
