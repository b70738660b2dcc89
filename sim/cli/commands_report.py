"""The ``report`` command: (re)write and print the report of any folder the tool writes.

One behaviour for every kind (fresh-user finding 10, session 10; before, a skill folder printed
its skill.md, a tune or discover folder exited 2 and a sweep folder printed only its path):
``sim report DIR`` rewrites that kind's report from what the folder holds, prints its findings
and exits 0; a folder of no kind, or one whose work did not finish, exits 2 saying which and
what finishes it.

=========  =================================  ============================================
kind       recognised by                      report rewritten from
=========  =================================  ============================================
run        ``config.json`` + tables           the tables (``sim run``, ``sim check``, a point
                                              or table folder): report.md/html, figures
sweep      ``sweep.json``                     ``sweep.parquet``: report.md/html
skill      ``skill.json`` (no manifest)       its ``table-NNN`` run folders: skill.md/json
tune       ``study.log`` (+ ``tune.json``)    ``tune.json``: tune.md/html
discover   ``study.log`` (+ ``discover.json``) ``discover.json``: discover.md/html
=========  =================================  ============================================
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..api import SimError
from ..data import read_json
from ..locks import locked
from ..store import need_folder
from .group import cli
from .options import confidence_option, figures_option

KINDS = ("run", "sweep", "skill", "tune", "discover")


def folder_kind(folder: Path) -> str:
    """Which tool wrote ``folder``: one of ``KINDS`` (``run`` for anything else: its tables are checked)."""
    if (folder / "sweep.json").is_file():
        return "sweep"
    if (folder / "study.log").is_file():
        if (folder / "tune.json").is_file() or (folder / "discover.json").is_file():
            return "tune" if (folder / "tune.json").is_file() else "discover"
        section = read_json(folder / "config.json", missing_ok=True) or {}
        return next((k for k in ("tune", "discover") if isinstance(section, dict) and section.get(k)), "tune")
    if not (folder / "manifest.json").is_file() and ((folder / "skill.json").is_file() or (folder / "table-000").is_dir()):
        return "skill"
    return "run"


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--min-sample", type=click.IntRange(min=0), default=50, show_default=True,
              help="Seat-games a component needs before the report claims anything about it.")
@confidence_option
@figures_option
def report(run_dir: str, min_sample: int, confidence: float | None, figures_mode: str) -> None:
    """Rewrite and print the report of RUN_DIR, whatever wrote it, from what it holds; exit 0.

    \b
    a run folder (sim run, sim check, a sweep point, a skill table): report.md, report.html,
    figures, from its tables (figures from 100 complete games, --figures auto; --figures always
    draws them for any run);
    a sweep folder (sim sweep): the combined report from sweep.parquet;
    a skill folder (sim skill): skill.md and skill.json from its table-NNN run folders;
    a tune or discover folder: tune.md/.html or discover.md/.html from tune.json or discover.json.

    Exit status 2 for a folder none of these wrote, or whose work did not finish (the message
    names the command that finishes it).

    Example: sim report reports/traders_of_osaka/baseline
    """
    folder = Path(run_dir)
    need_folder(folder)
    kind = folder_kind(folder)
    if kind == "sweep":
        _sweep(folder, figures_mode)
    elif kind == "skill":
        _skill(folder)
    elif kind in ("tune", "discover"):
        _study(folder, kind)
    else:
        _run(folder, min_sample, confidence, figures_mode)


def _run(folder: Path, min_sample: int, confidence: float | None, figures_mode: str) -> None:
    from ..analysis.report import build_report, summary_text

    if not (folder / "config.json").is_file() and not (folder / "manifest.json").is_file():
        raise SimError(f"'{folder}' is not a finished run folder, nor a sweep, skill, tune or discover folder (it has"
                       " no config.json, sweep.json, skill.json or study.log): give a folder that `sim run`, `check`,"
                       " `sweep`, `skill`, `tune` or `discover` wrote (its --out)")
    with locked(folder):  # not while a live sim writes the folder; a dead one's lock is taken over and freed
        rep = build_report(folder, min_sample=min_sample, confidence=confidence, figures=figures_mode)
    click.echo(summary_text(rep))
    click.echo(f"report: {folder / 'report.html'}")


def _sweep(folder: Path, figures_mode: str) -> None:
    from ..analysis.sweep_report import rebuild_sweep_report

    said: list[str] = []
    _, html_path = rebuild_sweep_report(folder, draw=figures_mode != "never", said=said)
    for line in said:
        click.echo(line)
    click.echo(f"sweep report: {html_path} (and report.md; points in {folder}/point-NNN, each a run folder)")


def _skill(folder: Path) -> None:
    from ..analysis.skill import skill_text
    from ..runs.skill import rebuild_skill

    figures, players = rebuild_skill(folder)
    for line in skill_text(figures, players):
        click.echo(line)
    tables = sorted(p.name for p in folder.glob("table-[0-9][0-9][0-9]") if p.is_dir())
    click.echo(f"skill: {folder / 'skill.md'} (and skill.json). {folder} is a skill folder (sim skill): each of its"
               f" {len(tables)} tables is a run folder with its own report: sim report {folder / tables[0]}")


def _study(folder: Path, kind: str) -> None:
    from ..analysis import tune_report
    from ..analysis.halving import plain
    from ..config import load_run_config

    saved = folder / f"{kind}.json"
    if not saved.is_file():
        raise SimError(f"'{folder}' is a `sim {kind}` folder whose study did not finish (no {kind}.json), so it has"
                       f" no report yet: `sim {kind} --resume {folder}` finishes it and writes its report")
    try:
        result = plain(json.loads(saved.read_text()))
        game = load_run_config(folder).game
        write = tune_report.write_tune_report if kind == "tune" else tune_report.write_discover_report
        _, html_path = write(folder, result, game)
        text = (tune_report.tune_summary if kind == "tune" else tune_report.discover_summary)(result)
    except (OSError, ValueError, KeyError, TypeError, IndexError, SimError) as exc:
        raise SimError(f"{saved}: not a finished `sim {kind}` study ({type(exc).__name__}: {exc}); run the study"
                       f" again with `sim {kind} CONFIG --out {folder} --force`") from None
    click.echo(text)
    click.echo(f"{kind} report: {html_path} (and {kind}.md; study.log)")
