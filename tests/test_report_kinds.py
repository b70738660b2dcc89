"""`sim report DIR` behaves alike for every kind of folder the tool writes (fresh-user finding 10,
session 10): it rewrites that kind's report from what the folder holds, prints its findings and
exits 0; a folder of no kind, or whose work did not finish, exits 2 naming what finishes it.

One small folder of each kind, made once for the module (the smallest runs that still write each
report: 2 trials of 4-8 games, 2 sweep points of 6 games, one skill table of 4 games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import cli

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("report_kinds")]

BASE = """\
game: traders_of_osaka
players: 2
games: 6
seed: 21
jobs: 1
strategies: [{name: osaka.trader}, {name: random}]
"""
EXTRA = {
    "tune": "tune:\n  params: {options.end_tokens: [5, 6]}\n  target: {metric: n_decisions, value: 100}\n"
            "  min_games: 4\n  max_games: 8\n  confirm_games: 4\n",
    "discover": "discover: {seat: 0, params: {min_goods: [1, 2], insure_at: {choice: [1]}}, max_games: 8,"
                " confirm_games: 4, trials: 2}\n",
    "sweep": "sweep:\n  options.end_tokens: [5, 6]\n",
}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("kinds")
    out = {}
    for kind, extra in EXTRA.items():
        cfg = root / f"{kind}.yaml"
        cfg.write_text(BASE + extra)
        more = ["--no-point-reports", "--figures", "never"] if kind == "sweep" else []
        res = invoke(kind, cfg, "--out", root / kind, "--quiet", *more)
        assert res.exit_code == 0, res.output
        out[kind] = root / kind
    res = invoke("skill", "traders_of_osaka", "--strategy", "first_legal", "--games", 4, "--out", root / "skill",
                 "--quiet")
    assert res.exit_code == 0, res.output
    out["skill"] = root / "skill"
    res = invoke("run", root / "sweep.yaml", "--out", root / "run", "--quiet", "--figures", "never")
    assert res.exit_code == 0, res.output
    out["run"] = root / "run"
    return out


@pytest.mark.parametrize("kind, report, says", [
    ("run", "report.md", "No strategy's win rate differs significantly"),
    ("sweep", "report.md", "compared with the baseline point end_tokens=5"),
    ("tune", "tune.md", "Best: options.end_tokens = "),
    ("discover", "discover.md", "dominant plan was found: osaka.trader with min_goods = "),
    ("skill", "skill.md", "skill-depth index (2 players)"),
])
def test_report_rewrites_and_prints_each_kinds_report(folders, kind, report, says):
    folder = folders[kind]
    (folder / report).unlink()
    res = invoke("report", folder, "--figures", "never")
    assert res.exit_code == 0, res.output
    assert (folder / report).is_file() and says in res.output, res.output


def test_report_of_a_skill_folder_rebuilds_the_same_figures_from_its_tables(folders):
    folder = folders["skill"]
    before = json.loads((folder / "skill.json").read_text())
    res = invoke("report", folder)
    assert res.exit_code == 0 and f"{folder} is a skill folder (sim skill)" in res.output
    assert f"sim report {folder / 'table-000'}" in res.output
    assert json.loads((folder / "skill.json").read_text()) == before


def test_report_of_a_sweep_point_and_a_skill_table_are_run_reports(folders):
    for folder in (folders["sweep"] / "point-001", folders["skill"] / "table-000"):
        res = invoke("report", folder, "--figures", "never")
        assert res.exit_code == 0 and f"report: {folder / 'report.html'}" in res.output, res.output


@pytest.mark.parametrize("files, says", [
    ({}, "is not a finished run folder, nor a sweep, skill, tune or discover folder"),
    ({"study.log": "", "config.json": '{"tune": {"params": {}}}'}, "`sim tune --resume"),
    ({"sweep.json": "{}"}, "the sweep did not finish; `sim sweep --resume"),
])
def test_report_of_no_kind_or_unfinished_work_exits_2(tmp_path, files, says):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    res = invoke("report", tmp_path)
    assert res.exit_code == 2 and says in res.output, res.output
