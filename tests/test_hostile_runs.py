"""Issue 19: the 15 situations in which a run lost, duplicated or mixed results, ran code from a
config, crashed or hung. Each test is numbered as the issue's situation and failed on the code
before the fix (checked by running this file against commit f1f7de1; see docs/reliability.md).

Expected values are counted by hand: a run of N games of P players has N rows in games.parquet
and N * P rows in players.parquet when no game fails (the strategies used here never fail).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import psutil
import pytest
from click.testing import CliRunner

from sim.chunking import chunk_ranges
from sim.cli import cli
from sim.config import build_game, load_config
from sim.runs import fixed
from sim.runs.fixed import play_ranges, write_run_files
from sim.store import prepare_output

TESTS = Path(__file__).resolve().parent

CFG = """\
game: traders_of_osaka
players: 3
games: {games}
seed: 5
chunk_size: {chunk}
seating: rotate
strategies:
  - {{name: osaka.trader}}
  - {{name: {second}}}
  - {{name: random}}
"""


def write(tmp_path: Path, games: int = 40, second: str = "osaka.shipper", extra: str = "", name: str = "c.yaml",
          chunk: int = 10) -> Path:
    p = tmp_path / name
    p.write_text(CFG.format(games=games, second=second, chunk=chunk) + extra)
    return p


def sim(*args) -> object:
    return CliRunner().invoke(cli, [str(a) for a in args])


def interrupted(tmp_path: Path, games: int, pick, cfg: Path | None = None) -> tuple[Path, Path]:
    """A run folder as a kill -9 leaves it: the chunks ``pick(ranges)`` on disk, nothing merged."""
    cfg = cfg or write(tmp_path, games)
    rc = load_config(cfg)
    part = tmp_path / "part"
    prepare_output(part, False)
    write_run_files(rc, part, build_game(rc))
    play_ranges(rc, part, pick(chunk_ranges(0, games, 1, 10)), progress=False)
    return cfg, part


def finished(tmp_path: Path, games: int = 40, name: str = "run") -> Path:
    out = tmp_path / name
    res = sim("run", write(tmp_path, games), "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    return out


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = f"{TESTS}{os.pathsep}{e.get('PYTHONPATH', '')}"
    return e


# 1. a chunk's players file deleted after a kill: resume must replay that chunk, not merge without it
def test_01_a_chunk_missing_one_table_is_played_again(tmp_path):
    _, part = interrupted(tmp_path, 60, lambda r: r[:4])
    (part / "chunks" / "players-000000000010.parquet").unlink()
    res = sim("run", "--resume", part, "--quiet")
    assert res.exit_code == 0, res.output
    players = pl.read_parquet(part / "players.parquet")
    assert players.height == 60 * 3 and players["game_index"].n_unique() == 60


# 2. a stray copy of a chunk in chunks/ must not be merged (each game exactly once)
def test_02_a_stray_chunk_copy_is_set_aside_not_merged(tmp_path):
    _, part = interrupted(tmp_path, 40, lambda r: r[:2])
    shutil.copy(part / "chunks" / "games-000000000000.parquet", part / "chunks" / "games-extra-copy.parquet")
    res = sim("run", "--resume", part, "--quiet")
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(part / "games.parquet")["game_index"].to_list() == list(range(40))
    assert pl.read_parquet(part / "players.parquet").height == 40 * 3
    assert "games-extra-copy.parquet" in res.output  # named, and kept in set-aside/
    assert (part / "set-aside" / "games-extra-copy.parquet").is_file()


def _kill_while_removing_chunks(monkeypatch):
    """shutil.rmtree of a ``chunks`` folder deletes some players/metrics files, then the process
    'dies' (KeyboardInterrupt stands for the kill -9)."""
    real = shutil.rmtree

    def dying(path, *a, **k):
        if Path(path).name != "chunks":
            return real(path, *a, **k)
        for f in sorted(Path(path).glob("players-*.parquet"))[:2] + sorted(Path(path).glob("metrics-*.parquet"))[:2]:
            f.unlink()
        raise KeyboardInterrupt

    monkeypatch.setattr(shutil, "rmtree", dying)


# 3. a kill inside the merge's removal of chunks/ (plain run, and --until-ci): nothing may be lost
@pytest.mark.parametrize("until_ci", [False, True])
def test_03_a_kill_while_chunks_are_removed_loses_nothing(tmp_path, monkeypatch, until_ci):
    from sim.runs.until_ci import run_until_ci

    rc = load_config(write(tmp_path, 40))
    out = tmp_path / "o"
    _kill_while_removing_chunks(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        if until_ci:  # a wide target: the first batch of 40 games meets it
            run_until_ci(rc, out, 0.45, 400, progress=False)
        else:
            fixed.run(rc, out, progress=False)
    monkeypatch.undo()
    res = sim("run", "--resume", out, "--quiet")
    assert res.exit_code in (0, 2) and "Traceback" not in res.output, res.output
    assert pl.read_parquet(out / "games.parquet")["game_index"].to_list() == list(range(40))
    assert pl.read_parquet(out / "players.parquet").height == 40 * 3
    rep = sim("report", out)
    assert rep.exit_code == 0, rep.output


# 4. a table that lost games: `sim report` and `sim check --run` refuse and name what is missing
def test_04_report_refuses_a_table_that_lost_games(tmp_path):
    checks = write(tmp_path, 40, extra="checks: {max_truncated_share: 0.5}\n", name="checks.yaml")
    out = tmp_path / "run"  # made from the config with checks: `check --run` takes only the config that made it
    assert sim("run", checks, "--out", out, "--quiet").exit_code == 0
    players = pl.read_parquet(out / "players.parquet")
    players.filter(pl.col("game_index") < 20).write_parquet(out / "players.parquet")
    res = sim("report", out)
    assert res.exit_code == 2 and "players.parquet" in res.output and "20-39" in res.output, res.output
    chk = sim("check", checks, "--run", out)
    assert chk.exit_code == 2 and "players.parquet" in chk.output and "20-39" in chk.output, chk.output


# 5. resume after config.json was edited, or a plugin module changed: refused, both values named
def test_05_resume_refuses_an_edited_config(tmp_path):
    _, part = interrupted(tmp_path, 40, lambda r: r[:2])
    cfg = json.loads((part / "config.json").read_text())
    cfg["seed"] = 12
    (part / "config.json").write_text(json.dumps(cfg))
    res = sim("run", "--resume", part, "--quiet")
    assert res.exit_code == 2 and "seed = 5" in res.output and "seed = 12" in res.output, res.output
    assert not (part / "games.parquet").exists()


def test_05_report_refuses_a_config_edited_after_the_run(tmp_path):
    out = finished(tmp_path, 20)
    cfg = json.loads((out / "config.json").read_text())
    cfg["seed"] = 12
    (out / "config.json").write_text(json.dumps(cfg))
    res = sim("report", out)
    assert res.exit_code == 2 and "seed = 12" in res.output and "seed = 5" in res.output, res.output


def test_05_resume_refuses_an_edited_plugin_module(tmp_path):
    (tmp_path / "plug_issue19.py").write_text(
        "from strategies.common import RandomStrategy\n\nclass Mine(RandomStrategy):\n    pass\n")
    cfg = write(tmp_path, 40, second="'plug_issue19:Mine'")
    _, part = interrupted(tmp_path, 40, lambda r: r[:2], cfg)
    with open(tmp_path / "plug_issue19.py", "a") as fh:
        fh.write("# a new version of the strategy\n")
    res = sim("run", "--resume", part, "--quiet")
    assert res.exit_code == 2 and "plug_issue19" in res.output and "changed" in res.output, res.output


def test_05_resume_refuses_an_edited_helper_of_a_plugin_module(tmp_path):
    """The plugin imports a helper module of its folder: editing the helper is editing the strategy."""
    (tmp_path / "plug_helper19.py").write_text("PICK = 0\n")
    (tmp_path / "plug_main19.py").write_text(
        "import plug_helper19\nfrom strategies.common import RandomStrategy\n\nclass Mine(RandomStrategy):\n    pass\n")
    cfg = write(tmp_path, 40, second="'plug_main19:Mine'")
    _, part = interrupted(tmp_path, 40, lambda r: r[:2], cfg)
    (tmp_path / "plug_helper19.py").write_text("PICK = -1\n")
    res = sim("run", "--resume", part, "--quiet")
    assert res.exit_code == 2 and "plug_helper19" in res.output and "changed" in res.output, res.output


def test_05_resume_refuses_games_and_seed_it_would_ignore(tmp_path):
    """--resume completes the run as it was made: a --games or --seed beside it was silently ignored."""
    _, part = interrupted(tmp_path, 40, lambda r: r[:2])
    chunks = sorted(p.name for p in (part / "chunks").iterdir())
    for flag in (["--games", "10"], ["--seed", "99"]):
        res = sim("run", "--resume", part, "--quiet", *flag)
        assert res.exit_code == 2 and "cannot be combined with --resume" in res.output and flag[0] in res.output, res.output
    assert sorted(p.name for p in (part / "chunks").iterdir()) == chunks  # nothing played


# 6. `sim check OTHER.yaml --run RUN` with another seed or another game: refused, report untouched
@pytest.mark.parametrize("other, named", [
    (CFG.format(games=40, second="osaka.shipper", chunk=10).replace("seed: 5", "seed: 6"), "seed = 5"),
    ("game: alpenzian\nplayers: 1\ngames: 40\nseed: 5\nstrategies:\n  - {name: alpenzian.flowers}\n", "game = "),
])
def test_06_check_run_refuses_another_experiment(tmp_path, other, named):
    out = finished(tmp_path, 40)
    before = (out / "report.md").read_text()
    o = tmp_path / "other.yaml"
    o.write_text(other + "checks: {max_truncated_share: 0.5}\n")
    res = sim("check", o, "--run", out)
    assert res.exit_code == 2 and named in res.output, res.output
    assert (out / "report.md").read_text() == before


# 7. an import string naming any callable ran it (os:system); modules and classes are now checked first
@pytest.mark.parametrize("name, param", [("os:system", "command"), ("subprocess:call", "args")])
def test_07_a_config_cannot_run_a_command(tmp_path, name, param):
    """Before the fix the command ran during `sim validate` (the marker file appeared)."""
    marker = tmp_path / "ran"
    cfg = tmp_path / "evil.yaml"
    shell = ", shell: true" if param == "args" else ""
    cfg.write_text(f"game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies:\n"
                   f"  - {{name: '{name}', params: {{{param}: 'touch {marker}'{shell}}}}}\n"
                   "  - {name: random}\n")
    res = sim("validate", cfg)
    assert not marker.exists(), "the command ran"
    assert res.exit_code == 2 and "standard-library module" in res.output, res.output


def test_07_no_plugins_refuses_every_import_string_before_importing(tmp_path):
    marker = tmp_path / "imported"
    (tmp_path / "evilmod_issue19.py").write_text(f"open({str(marker)!r}, 'w').close()\nclass S:\n    def choose(self, o, l, r):\n        return l[0]\n")
    cfg = write(tmp_path, 4, second="'evilmod_issue19:S'")
    res = sim("validate", "--no-plugins", cfg)
    assert res.exit_code == 2 and "plugins are off" in res.output and "line 9" in res.output, res.output
    cfg.write_text(cfg.read_text() + "plugins: false\n")
    assert sim("validate", cfg).exit_code == 2
    assert not marker.exists()


# 8. a data file named by mistake: the error quotes at most 200 characters of it
def test_08_errors_quote_at_most_200_characters_of_a_file(tmp_path):
    secret = " ".join(f"line{i:04d}" for i in range(600)) + " THE-END"  # one long YAML scalar
    (tmp_path / "secret.txt").write_text(secret)
    cfg = write(tmp_path, 4, extra="data: {track: secret.txt}\n")
    res = sim("validate", cfg)
    assert res.exit_code == 2 and "THE-END" not in res.output and "line0100" not in res.output, res.output
    assert len(res.output) < 200 + 400 + len(str(tmp_path)) * 2


# 9. a strategy that never returns is stopped by game_timeout_s; one that kills its worker fails its games
def test_09_a_looping_strategy_times_out_and_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 2, second="'bad_strategies:Looper'", extra="game_timeout_s: 0.3\n")
    res = sim("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 1, res.output  # no game completed: exit 1 (session 10; it was 0)
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet")
    assert errors["game_index"].to_list() == [0, 1] and set(errors["exception"]) == {"GameTimeout"}
    assert set(errors["seed"]) == {5} and "game_timeout_s = 0.3 s" in errors["message"][0]


@pytest.mark.integration
def test_09_a_worker_killed_by_its_strategy_fails_its_games_and_the_run_goes_on(tmp_path):
    """Two jobs, so the first death breaks joblib's pool and ``_careful`` takes over; 2 games in
    chunks of 1 (4 in chunks of 2 before session 7) reach every path of that two-job case with
    about 6 worker interpreters instead of 10. A chunk of several games played game by game after
    a death: tests/test_play_pool.py (the same ``_alone``)."""
    cfg = write(tmp_path, 2, second="'bad_strategies:Exiter'", extra="jobs: 2\n", chunk=1)
    proc = subprocess.run([sys.executable, "-m", "sim", "run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"],
                          env=env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr  # no game completed: exit 1 (session 10; it was 0)
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet")
    assert errors["game_index"].to_list() == [0, 1] and set(errors["exception"]) == {"WorkerDied"}
    assert set(errors["seed"]) == {5}


def _descendants(pid: int) -> list[int]:
    try:
        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


# 10. SIGTERM or SIGINT to the parent alone: workers stopped (checked by pid), resume command printed
@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_10_a_signal_to_the_parent_leaves_no_worker(tmp_path, sig):
    cfg = write(tmp_path, 4000, chunk=25)
    out = tmp_path / "o"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", str(cfg), "--out", str(out), "--quiet", "--jobs", "2"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    for _ in range(1200):
        workers = _descendants(proc.pid)
        if len(workers) >= 2 and len(list((out / "chunks").glob("games-*.parquet"))) >= 2:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)  # to the parent alone, not its process group
    _, err = proc.communicate(timeout=60)
    deadline = time.time() + 10
    while any(map(_running, workers)) and time.time() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _running(p)], f"workers still running: {workers}"
    assert f"sim run --resume {out}" in err and "Traceback" not in err, err
    # no half-written chunk is left for --resume to set aside (breaker finding 3, session 5): each
    # chunk file on disk belongs to a chunk whose manifest (written last) exists
    done = {m.stem.removeprefix("manifest-") for m in (out / "chunks").glob("manifest-*.json")}
    left = [f.name for f in (out / "chunks").glob("*.parquet") if f.stem.rsplit("-", 1)[-1] not in done]
    assert done and not left, left


# 11. out of space or over a size limit while writing the report: exit 2, the path, nothing half-written
@pytest.mark.integration
def test_11_a_file_size_limit_while_writing_the_report(tmp_path):
    out = finished(tmp_path, 40)
    shutil.rmtree(out / "figures")
    (out / "report.html").unlink()

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    proc = subprocess.run([sys.executable, "-m", "sim", "report", str(out), "--figures", "always"],
                          capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert str(out) in proc.stderr and "cannot write" in proc.stderr
    for png in (out / "figures").glob("*.png"):
        assert png.read_bytes().endswith(b"IEND\xaeB`\x82"), png  # whole PNGs only
    assert not (out / "report.html").exists()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


# 12. deeply nested YAML, and a table with a wrong column type: clear errors, no traceback
def test_12_deeply_nested_yaml_is_a_clear_error(tmp_path):
    cfg = tmp_path / "deep.yaml"
    cfg.write_text("game: " + "[" * 5000 + "]" * 5000 + "\n")
    res = sim("validate", cfg)
    assert res.exit_code == 2 and "nested too deeply" in res.output and "deep.yaml" in res.output, res.output


def test_12_a_wrong_column_type_is_named(tmp_path):
    out = finished(tmp_path, 20)
    players = pl.read_parquet(out / "players.parquet")
    players.with_columns(pl.col("score").cast(pl.Utf8)).write_parquet(out / "players.parquet")
    res = sim("report", out)
    assert res.exit_code == 2 and "players.parquet" in res.output and "'score'" in res.output, res.output


# 12b. a manifest whose table record is gone or of the wrong kind: the tables cannot be verified,
# so no report is computed on them (an edited players.parquet would otherwise pass silently)
@pytest.mark.parametrize("edit, said", [
    (lambda m: m.pop("tables"), "no record of the merged tables"),
    (lambda m: m.update(tables="x"), "'tables' is not what a run writes"),
    (lambda m: m.update(experiment=[1]), "'experiment' is not what a run writes"),
    (lambda m: m.update(players="4"), "'players' is not what a run writes"),
])
def test_12b_a_damaged_manifest_is_named_and_nothing_is_reported(tmp_path, edit, said):
    out = finished(tmp_path, 20)
    players = pl.read_parquet(out / "players.parquet")
    players.with_columns(pl.when(pl.col("game_index") == 0).then(~pl.col("won")).otherwise(pl.col("won"))
                         .alias("won")).write_parquet(out / "players.parquet")
    man = json.loads((out / "manifest.json").read_text())
    edit(man)
    (out / "manifest.json").write_text(json.dumps(man))
    res = sim("report", out)
    assert res.exit_code == 2 and "manifest.json" in res.output and said in res.output, res.output
    assert "Traceback" not in res.output


# 13. a lock naming a live unrelated pid: the message names the lock file; --break-lock takes it over
def test_13_a_stale_lock_names_its_file_and_can_be_broken(tmp_path):
    _, part = interrupted(tmp_path, 20, lambda r: r[:1])
    sleeper = subprocess.Popen(["sleep", "60"])  # a live process that is not sim (pid reuse)
    try:
        (part / ".lock").write_text(str(sleeper.pid))
        res = sim("run", "--resume", part, "--quiet")
        assert res.exit_code == 2 and str(part / ".lock") in res.output and "--break-lock" in res.output, res.output
        res = sim("run", "--resume", part, "--quiet", "--break-lock")
        assert res.exit_code == 0 and ".lock" in res.output, res.output
        assert pl.read_parquet(part / "games.parquet").height == 20
    finally:
        sleeper.kill()
        sleeper.wait()


# 13b. --break-lock refuses a lock whose pid is a live sim process: with --force it would delete a
# folder that run is still writing (its finished games lost)
def test_13b_break_lock_refuses_a_live_sim_process(tmp_path):
    _, part = interrupted(tmp_path, 20, lambda r: r[:1])
    # a live process whose command line is that of a sim run (argv[0] "sim"), without running one
    fake = subprocess.Popen(["bash", "-c", "exec -a sim sleep 60"])
    try:
        for _ in range(100):  # until exec has replaced bash's command line
            if Path(f"/proc/{fake.pid}/cmdline").read_bytes().startswith(b"sim\0"):
                break
            time.sleep(0.02)
        (part / ".lock").write_text(str(fake.pid))
        res = sim("run", "--resume", part, "--quiet", "--break-lock")
        assert res.exit_code == 2 and "running sim process" in res.output and str(fake.pid) in res.output, res.output
        assert (part / ".lock").read_text() == str(fake.pid)  # the lock is left to its owner
    finally:
        fake.kill()
        fake.wait()


# 14. a sweep killed after its first point resumes from the finished points
@pytest.mark.integration
def test_14_a_sweep_resumes_from_its_finished_points(tmp_path):
    cfg = write(tmp_path, 6, extra="sweep: {options.end_tokens: [6, 8]}\n")
    out = tmp_path / "sw"
    res = sim("sweep", cfg, "--out", out, "--quiet", "--no-point-reports")
    assert res.exit_code == 0, res.output
    shutil.rmtree(out / "point-001")  # as if killed while the second point played
    for name in ("sweep.parquet", "report.html", "report.md"):
        (out / name).unlink()
    first = (out / "point-000" / "games.parquet").stat().st_mtime_ns
    res = sim("sweep", "--resume", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert "point 0 (options.end_tokens=6): finished before, kept" in res.output
    assert (out / "point-000" / "games.parquet").stat().st_mtime_ns == first
    assert pl.read_parquet(out / "point-001" / "games.parquet").height == 6
    assert sorted(pl.read_parquet(out / "sweep.parquet")["point"].unique().to_list()) == [0, 1]


# 15. a check with no meaning for the run (seat win rates in a solo game) is a validation error
def test_15_seat_checks_on_a_solo_game_are_refused_at_validation(tmp_path):
    cfg = tmp_path / "solo.yaml"
    cfg.write_text("game: alpenzian\nplayers: 1\ngames: 10\nseed: 1\nstrategies:\n  - {name: alpenzian.flowers}\n"
                   "checks:\n  max_failed_games: 0\n  max_seat_win_rate: 0.6\n")
    res = sim("validate", cfg)
    assert res.exit_code == 2 and "line 9, key 'checks.max_seat_win_rate'" in res.output and "solo" in res.output, \
        res.output


# whole `sim` runs through the CLI: in `make test`, not `make test-fast`
pytestmark = pytest.mark.integration
