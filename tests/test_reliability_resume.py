"""Issue 19 and 18: interrupted studies and adaptive runs continue where they stopped.

- ``sim tune`` / ``sim discover``: an interruption prints ``--resume DIR``; the resumed study does
  not play its finished trials again and ends with the result of an uninterrupted study on the same
  seeds (grid sampler: every combination is evaluated whatever the order).
- ``sim sweep``: SIGINT or SIGTERM prints ``sim sweep --resume DIR``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.runs import fixed

BASE = """\
game: traders_of_osaka
players: 2
games: 4
seed: 3
seating: rotate
strategies:
  - {name: osaka.trader}
  - {name: random}
"""
# a grid of 4 values (end_tokens 3..6); rungs 4 -> 12 games; confirmation on 12 fresh games
TUNE = "tune:\n  params: {options.end_tokens: [3, 6]}\n  target: {metric: n_decisions, value: 60}\n  max_games: 12\n"
DISCOVER = ("discover:\n  seat: 0\n  params: {min_goods: [1, 2], insure_at: [1, 2]}\n  max_games: 12\n"
            "  confirm_games: 8\n")


def sim(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _by_params(result: dict) -> dict:
    """Each trial's figures by its parameters (trial numbers may differ with the order of asks)."""
    return {json.dumps(t["params"], sort_keys=True): t["by_games"] for t in result["trials"]}


@pytest.mark.integration
@pytest.mark.parametrize("kind, section", [("tune", TUNE), ("discover", DISCOVER)])
def test_an_interrupted_study_resumes_without_replaying_finished_trials(tmp_path, monkeypatch, kind, section):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + section)
    full = sim(kind, cfg, "--out", tmp_path / "full", "--json", tmp_path / "full.json", "--quiet")
    assert full.exit_code == 0, full.output

    played: list[str] = []
    real = fixed.run

    def counting(rc, out, **kw):
        played.append(Path(out).name)
        if stop_after is not None and len(played) > stop_after:
            raise KeyboardInterrupt  # as Ctrl-C during the third trial's games
        return real(rc, out, **kw)

    monkeypatch.setattr(fixed, "run", counting)
    stop_after = 2  # trials 0 and 1 finish, trial 2 is interrupted
    cut = sim(kind, cfg, "--out", tmp_path / "cut", "--quiet")
    assert cut.exit_code == 130
    assert f"sim {kind} --resume {tmp_path / 'cut'}" in cut.output
    finished = played[:2]
    assert finished == ["trial-000-4", "trial-001-4"]

    played.clear()
    stop_after = None
    res = sim(kind, "--resume", tmp_path / "cut", "--json", tmp_path / "resumed.json", "--quiet")
    assert res.exit_code == 0, res.output
    assert not set(finished) & set(played), played  # finished trials are read back, not played
    assert "trial-002-4" in played  # the interrupted one is played again

    a, b = (json.loads((tmp_path / f).read_text()) for f in ("full.json", "resumed.json"))
    assert _by_params(a) == _by_params(b)
    keys = ("best", "objective", "ci") if kind == "tune" else ("best_params", "win_rate", "p", "dominant")
    for k in keys:
        assert a[k] == b[k], k


def test_resume_refuses_a_folder_without_a_study(tmp_path):
    (tmp_path / "x").mkdir()
    res = sim("tune", "--resume", tmp_path / "x")
    assert res.exit_code == 2 and "holds no `sim tune` study" in res.output


def test_resume_takes_no_config(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + TUNE)
    res = sim("tune", cfg, "--resume", tmp_path / "x")
    assert res.exit_code == 2 and "give no CONFIG" in res.output


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_a_sweep_prints_its_resume_command(tmp_path, sig):
    cfg = tmp_path / "s.yaml"
    cfg.write_text(BASE.replace("games: 4", "games: 3000") + "chunk_size: 20\njobs: 1\n"
                   "sweep: {options.end_tokens: [4, 6]}\n")
    out = tmp_path / "sw"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "sweep", str(cfg), "--out", str(out), "--quiet"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(1200):  # until the first point has written a chunk
        if list(out.glob("point-*/chunks/games-*.parquet")):
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert f"sim sweep --resume {out}" in err and "Traceback" not in err, err


@pytest.mark.integration
@pytest.mark.parametrize("kind, section", [("tune", TUNE), ("discover", DISCOVER)])
def test_a_stop_while_the_study_report_is_written_is_rebuilt_by_resume(tmp_path, monkeypatch, kind, section):
    """Breaker finding 4 (session 8): a SIGTERM (here its KeyboardInterrupt) while tune/discover
    writes its report lost report and --json for good (`--resume` said complete)."""
    from sim.analysis import tune_report

    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + section)
    name = f"write_{kind}_report"
    real = getattr(tune_report, name)

    def stopped(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_report, name, stopped)
    cut = sim(kind, cfg, "--out", tmp_path / "cut", "--json", tmp_path / "cut.json", "--quiet")
    assert cut.exit_code == 130, cut.output
    assert f"sim {kind} --resume {tmp_path / 'cut'}" in cut.output, cut.output
    assert not (tmp_path / "cut.json").exists() and not (tmp_path / "cut" / f"{kind}.md").exists()

    monkeypatch.setattr(tune_report, name, real)
    played: list[str] = []
    monkeypatch.setattr(fixed, "run", lambda rc, out, **kw: played.append(out))
    res = sim(kind, "--resume", tmp_path / "cut", "--json", tmp_path / "cut.json", "--quiet")
    assert res.exit_code == 0, res.output
    assert not played  # nothing is played again: the study's result is read from its JSON
    assert (tmp_path / "cut" / f"{kind}.md").is_file() and (tmp_path / "cut" / f"{kind}.html").is_file()
    saved = json.loads((tmp_path / "cut" / f"{kind}.json").read_text())
    again = json.loads((tmp_path / "cut.json").read_text())
    assert again["trials"] == saved["trials"] and again[("best" if kind == "tune" else "best_params")] == \
        saved["best" if kind == "tune" else "best_params"]


@pytest.mark.parametrize("files, says, code", [
    # session 10: a finished study's report is written again by `sim report` (tests/test_report_kinds.py);
    # a damaged result or an unfinished study is refused, naming what writes it
    ({"study.log": "", "tune.json": "{}"}, "not a finished `sim tune` study", 2),
    ({"study.log": "", "config.json": '{"discover": {"seat": 0}}'}, "sim discover --resume", 2),
    # a skill folder whose skill.json lists no tables (it is written last): unfinished
    ({"skill.json": "{}", "skill.md": "# skill"}, "did not finish", 2),
    ({"skill.json": "{}"}, "did not finish", 2)])  # interrupted (breaker trial 2, session 8)
def test_sim_report_of_a_study_folder_says_what_writes_its_report(tmp_path, files, says, code):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    res = sim("report", tmp_path)
    assert res.exit_code == code and says in res.output, res.output


@pytest.mark.integration
def test_a_trial_stopped_after_its_tables_were_merged_is_not_played_again(tmp_path, monkeypatch):
    """A stop between a trial's merged tables and their commit in manifest.json (breaker trial 2,
    session 9): the resumed study completes that trial from its chunks instead of replaying it."""
    from sim import store

    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + TUNE)
    full = sim("tune", cfg, "--out", tmp_path / "full", "--json", tmp_path / "full.json", "--quiet")
    assert full.exit_code == 0, full.output
    real_commit, commits = store._commit, []

    def stop_second(out, man):
        commits.append(Path(out).name)
        if len(commits) == 2:
            raise KeyboardInterrupt  # trial 1's tables are merged, not yet committed
        return real_commit(out, man)

    monkeypatch.setattr(store, "_commit", stop_second)
    cut = sim("tune", cfg, "--out", tmp_path / "cut", "--quiet")
    assert cut.exit_code == 130 and commits == ["trial-000-4", "trial-001-4"]
    monkeypatch.setattr(store, "_commit", real_commit)
    played: list[str] = []
    real_run = fixed.run
    monkeypatch.setattr(fixed, "run", lambda rc, out, **kw: (played.append(Path(out).name), real_run(rc, out, **kw))[1])
    res = sim("tune", "--resume", tmp_path / "cut", "--json", tmp_path / "resumed.json", "--quiet")
    assert res.exit_code == 0, res.output
    assert "trial-000-4" not in played and "trial-001-4" not in played, played
    assert sorted(p.name for p in (tmp_path / "cut" / "trials").iterdir()) == sorted(
        p.name for p in (tmp_path / "full" / "trials").iterdir())  # no orphan folder, no gap
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("full.json", "resumed.json"))
    assert _by_params(a) == _by_params(b) and a["best"] == b["best"]
