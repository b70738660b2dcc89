"""`sim tune`, `sim discover` and `sim skill` take --backend dask --scheduler ADDR as run, check and
sweep do (session 10): every trial or table is a run (``fixed.run``) and its games go to the
cluster. The cluster is stood in for by ``cluster.dask_results`` playing the calls in this process
(the same ``play_limited`` calls a Dask worker runs), so the test needs no scheduler; the results
must be those of the local backend (a game's streams depend on its seed and index only)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.runs import cluster

pytestmark = pytest.mark.integration

BASE = """\
game: traders_of_osaka
players: 2
games: 6
seed: 21
jobs: 1
strategies: [{name: osaka.trader}, {name: random}]
"""
TUNE = ("tune:\n  params: {options.end_tokens: [5, 6]}\n  target: {metric: n_decisions, value: 100}\n"
        "  min_games: 4\n  max_games: 8\n  confirm_games: 4\n")
DISCOVER = ("discover: {seat: 0, params: {min_goods: [1, 2], insure_at: {choice: [1]}}, max_games: 8,"
            " confirm_games: 4, trials: 2}\n")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def fake_cluster(monkeypatch):
    seen = []

    def results(calls, scheduler, local_workers=2):
        for f, args, kwargs in calls:
            seen.append((f.__name__, scheduler))
            yield f(*args, **kwargs)

    monkeypatch.setattr(cluster, "dask_results", results)
    return seen


@pytest.mark.parametrize("kind, extra, key", [("tune", TUNE, "trials"), ("discover", DISCOVER, "trials")])
def test_tune_and_discover_play_every_trial_on_the_cluster(tmp_path, fake_cluster, kind, extra, key):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + extra)
    local = invoke(kind, cfg, "--out", tmp_path / "local", "--quiet")
    assert local.exit_code == 0 and not fake_cluster, local.output
    res = invoke(kind, cfg, "--out", tmp_path / "dask", "--quiet", "--backend", "dask", "--scheduler", "tcp://h:8786")
    assert res.exit_code == 0, res.output
    # 2 values x (4 then 8 games for the best) + the confirmation (discover: best and default), chunks of up to 4
    assert fake_cluster and set(fake_cluster) == {("play_limited", "tcp://h:8786")}
    trial_folders = sorted(p.name for p in (tmp_path / "dask" / "trials").iterdir())
    assert trial_folders == sorted(p.name for p in (tmp_path / "local" / "trials").iterdir())
    a = json.loads((tmp_path / "local" / f"{kind}.json").read_text())
    b = json.loads((tmp_path / "dask" / f"{kind}.json").read_text())
    assert a[key] == b[key] and a["confirm"] == b["confirm"]


def test_skill_plays_its_tables_on_the_cluster(tmp_path, fake_cluster):
    args = ["skill", "traders_of_osaka", "--strategy", "first_legal", "--games", 4, "--quiet"]
    assert invoke(*args, "--out", tmp_path / "local").exit_code == 0
    res = invoke(*args, "--out", tmp_path / "dask", "--backend", "dask")
    assert res.exit_code == 0, res.output
    assert fake_cluster and set(fake_cluster) == {("play_limited", None)}  # no --scheduler: a local cluster
    a, b = (json.loads((tmp_path / d / "skill.json").read_text()) for d in ("local", "dask"))
    assert a["ranking"] == b["ranking"] and a["skill_depth"] == b["skill_depth"]


@pytest.mark.parametrize("command", [["tune", "c.yaml"], ["discover", "c.yaml"], ["skill", "xanadu"]])
def test_a_scheduler_without_the_dask_backend_is_refused(command):
    res = invoke(*command, "--scheduler", "tcp://h:8786")
    assert res.exit_code == 2 and "--scheduler needs --backend dask" in res.output, res.output
