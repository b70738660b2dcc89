"""A plugin run's config.yaml replays from any folder (fresh-user finding 7, session 10): the
run folder's config.json records the config it was made from, whose folder is looked in too;
when the module still cannot be found, the error says how to make it importable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sim.config.seats import module_folders

ROOT = Path(__file__).resolve().parents[1]

STRATEGY = """\
class Firsty:
    def choose(self, obs, legal, rng):
        return legal[0]
"""

CONFIG = """\
game: traders_of_osaka
players: 2
games: 4
seed: 3
strategies:
  - name: 'plug_s10_{tag}:Firsty'
  - name: random
"""


def _run_folder(folder: Path, made_from: Path | str | None, text: str = "") -> Path:
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"source": str(made_from) if made_from else None}))
    (folder / "config.yaml").write_text(text)
    return folder / "config.yaml"


def test_the_folders_looked_in_follow_run_folders_back_to_the_first_config(tmp_path):
    first = tmp_path / "mine" / "bad.yaml"
    run1 = _run_folder(tmp_path / "run1", first)
    run2 = _run_folder(tmp_path / "run2", run1)  # a run made from run1/config.yaml
    assert module_folders(first) == [tmp_path / "mine"]  # no config.json there: only its own folder
    assert module_folders(run1) == [tmp_path / "run1", tmp_path / "mine"]
    assert module_folders(run2) == [tmp_path / "run2", tmp_path / "run1", tmp_path / "mine"]
    looped = _run_folder(tmp_path / "loop", tmp_path / "loop" / "config.yaml")  # a folder made from itself
    assert module_folders(looped) == [tmp_path / "loop"]
    relative = _run_folder(tmp_path / "rel", "bad.yaml")  # only absolute paths are followed
    assert module_folders(relative) == [tmp_path / "rel"] and module_folders(None) == []


def _validate(config: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "sim", "validate", str(config)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_run_folders_config_finds_the_plugin_next_to_the_original_config(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "plug_s10_a.py").write_text(STRATEGY)
    (mine / "c.yaml").write_text(CONFIG.format(tag="a"))
    copy = _run_folder(tmp_path / "runs" / "r", mine / "c.yaml", CONFIG.format(tag="a"))
    res = _validate(copy, tmp_path)  # from another folder, no PYTHONPATH to mine
    assert res.returncode == 0, res.stderr


def test_a_plugin_that_cannot_be_found_names_the_folders_and_the_fix(tmp_path):
    copy = _run_folder(tmp_path / "runs" / "r", tmp_path / "gone" / "c.yaml", CONFIG.format(tag="b"))
    res = _validate(copy, tmp_path)
    assert res.returncode == 2, res.stderr
    err = res.stderr
    assert "line 6, key 'strategies.0.name'" in err and "No module named 'plug_s10_b'" in err, err
    assert "run sim from the folder that holds plug_s10_b.py" in err and "PYTHONPATH=" in err, err
    assert f"sim looked in {tmp_path / 'runs' / 'r'}, {tmp_path / 'gone'}" in err, err


def test_sim_skill_and_sim_bench_find_a_plugin_module_in_the_current_folder(tmp_path):
    """`sim skill GAME --strategy mine:Cls` run from the folder holding mine.py, as `sim run --game`
    already did (session 10 fresh-user finding 3: skill said "No module named", bench too)."""
    (tmp_path / "plug_s10_cwd.py").write_text(STRATEGY)
    # -P: the current folder not on sys.path, as for the installed `sim` script
    sim = [sys.executable, "-P", "-c", "import sys; from sim.cli import main; sys.argv[0] = 'sim'; main()"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # sim itself; not the plugin's folder
    skill = subprocess.run([*sim, "skill", "traders_of_osaka", "--players", "2", "--games", "4", "--strategy",
                            "plug_s10_cwd:Firsty", "--strategy", "random", "--out", str(tmp_path / "s"), "--quiet"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert skill.returncode == 0, skill.stderr
    assert "plug_s10_cwd:Firsty" in (tmp_path / "s" / "skill.md").read_text()
    bench = subprocess.run([*sim, "bench", "traders_of_osaka", "--players", "2", "--games", "3", "--strategy",
                            "plug_s10_cwd:Firsty"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert bench.returncode == 0 and "games/s" in bench.stdout, bench.stderr
