"""A strategy that raises ``KeyboardInterrupt`` itself fails its game (recorded with its seed), and
the run goes on; a real Ctrl-C (SIGINT) still stops it (``test_hostile_runs.py`` test 10)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import polars as pl
import pytest
from test_hostile_runs import TESTS, sim, write

from sim.limits import Interrupts as _Interrupts


@pytest.mark.integration
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_strategy_raising_keyboardinterrupt_fails_its_games_and_the_run_goes_on(tmp_path, monkeypatch, jobs):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 4, second="'bad_strategies:Interrupter'", extra=f"jobs: {jobs}\n")
    res = sim("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 1, res.output  # no game completed: exit 1 (session 10; it was 0)
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet")
    assert errors["game_index"].to_list() == [0, 1, 2, 3] and set(errors["seed"]) == {5}
    assert all("KeyboardInterrupt" in m for m in errors["message"])


def test_a_real_sigint_while_playing_is_still_an_interrupt():
    """In the main thread, SIGINT during play raises ``KeyboardInterrupt`` and is noted as a signal
    (so the game loop lets it stop the run instead of failing the game)."""
    with pytest.raises(KeyboardInterrupt), _Interrupts():
        assert not _Interrupts.signalled
        os.kill(os.getpid(), signal.SIGINT)
    assert _Interrupts.signalled


@pytest.mark.integration
def test_replay_of_a_timed_out_game_stops(tmp_path, monkeypatch):
    """The replay of a game that ran over ``game_timeout_s`` stops at the same limit (it ran for
    ever before) and says why."""
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 1, second="'bad_strategies:Looper'", extra="game_timeout_s: 0.3\n")
    assert sim("run", cfg, "--out", tmp_path / "o", "--quiet").exit_code == 1  # no game completed: exit 1 (session 10; it was 0)
    res = sim("replay", tmp_path / "o", "--game-index", "0")
    assert "GameTimeout" in res.output and "game_timeout_s = 0.3 s of CPU time" in res.output


@pytest.mark.integration
@pytest.mark.parametrize("second", ["BaseRaiser", "InterruptedBuild", "MixinOverRandom"])
def test_what_a_strategy_raises_or_misreads_fails_or_plays_only_its_own_games(tmp_path, monkeypatch, second):
    """Breaker findings 2, 3, 9 (session 4): a custom BaseException in ``choose`` and a
    KeyboardInterrupt while the strategy is built fail its games (the run goes on; every game
    failed, so exit 1 since session 10);
    a mixin's ``choose`` over ``random`` gets its observation (no game fails)."""
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 4, second=f"'bad_strategies:{second}'", extra="jobs: 1\n")
    res = sim("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == (0 if second == "MixinOverRandom" else 1), res.output
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet")
    if second == "MixinOverRandom":
        assert errors.height == 0, errors["message"].to_list()
    else:
        assert errors["game_index"].to_list() == [0, 1, 2, 3] and set(errors["seed"]) == {5}
        assert {"CustomBase", "KeyboardInterrupt"} & set(errors["exception"])


@pytest.mark.integration
def test_an_interrupt_before_the_run_folder_exists_offers_no_resume(tmp_path, monkeypatch):
    """Breaker finding 8 (session 4): it printed `sim run --resume None`."""
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 4, second="'bad_strategies:InterruptedCheck'", extra="jobs: 1\n")
    res = sim("run", cfg, "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 130
    assert "interrupted before any game was played" in res.output and "--resume None" not in res.output
    assert not (tmp_path / "o").exists()


@pytest.mark.integration
def test_replay_of_a_game_that_killed_its_worker_says_so_and_survives(tmp_path, monkeypatch):
    """Breaker finding 4 (session 4): the strategy's os._exit ended `sim replay` itself, silently."""
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = write(tmp_path, 2, second="'bad_strategies:Exiter'", extra="jobs: 1\n")
    assert sim("run", cfg, "--out", tmp_path / "o", "--quiet").exit_code == 1  # no game completed: exit 1 (session 10; it was 0)
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet")
    assert set(errors["exception"]) == {"WorkerDied"}
    res = sim("replay", tmp_path / "o", "--game-index", "0")
    assert res.exit_code == 1, res.output  # a failed game replays as failed (second breaker finding 8)
    assert res.output.startswith("seat 0:")  # the log up to the strategy's exit is kept
    assert "ERROR: WorkerDied" in res.output and "exit code 7" in res.output


@pytest.mark.integration
def test_an_interrupt_while_the_report_is_written_says_how_to_write_it(tmp_path, monkeypatch):
    """Second breaker finding 6 (session 4): a Ctrl-C in the report phase said only `interrupted`."""
    from sim.cli import commands_play

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(commands_play, "build_report", stopped)
    res = sim("run", write(tmp_path, 4, extra="jobs: 1\n"), "--out", tmp_path / "o", "--quiet")
    assert res.exit_code == 130
    assert f"every game is on disk in {tmp_path / 'o'}" in res.output and f"sim report {tmp_path / 'o'}" in res.output
    assert pl.read_parquet(tmp_path / "o" / "games.parquet").height == 4  # the tables are complete
    assert sim("report", tmp_path / "o").exit_code == 0


def test_a_printing_strategy_plays_on_when_stdout_is_a_closed_pipe(monkeypatch, tmp_path):
    """Second breaker finding 2 (session 4): `sim run CONFIG | true` failed every game of a strategy
    that prints (BrokenPipeError), so the results depended on where the output went."""
    import sys

    from sim.config import load_config
    from sim.play import play_rows
    from sim.runs.fixed import setup_of

    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.syspath_prepend(str(TESTS))
    setup = setup_of(load_config(write(tmp_path, 3, second="'bad_strategies:Printer'")))
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    _, _, rows = play_rows(setup.to_json(), 0, 3)
    tables = rows.tables()
    assert tables["errors"].height == 0 and tables["games"].height == 3
    assert isinstance(sys.stdout, ClosedPipe)  # restored after play


@pytest.mark.integration
def test_sim_report_frees_the_lock_a_killed_run_left(tmp_path):
    """Breaker finding 5 (session 5): after a `kill -9` in the report phase, `.lock` (a dead pid)
    stayed, and `sim report` rebuilt the report but left it. A live holder is still refused."""
    out = tmp_path / "o"
    assert sim("run", write(tmp_path, 4, extra="jobs: 1\n"), "--out", out, "--quiet").exit_code == 0
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / ".lock").write_text(str(dead.pid))
    assert sim("report", out).exit_code == 0 and not (out / ".lock").exists()
    (out / ".lock").write_text(str(os.getppid()))  # a live process holds it
    res = sim("report", out)
    assert res.exit_code == 2 and "is in use by another sim process" in res.output


def test_a_loky_worker_ends_itself_between_games_once_sim_is_gone(monkeypatch, tmp_path):
    """Breaker finding 1 (session 5): after `kill -9` of `sim`, loky workers (plugin configs) played
    on for minutes. Before each game a worker checks its parent: gone means `os._exit`."""
    from sim.config import load_config
    from sim.play import play_rows
    from sim.runs.fixed import setup_of
    from sim.runs.workers import EndIfOrphaned

    setup = setup_of(load_config(write(tmp_path, 3))).to_json()
    assert play_rows(setup, 0, 2, EndIfOrphaned(os.getppid()))[2].tables()["games"].height == 2  # parent alive
    ended = []
    monkeypatch.setattr(os, "_exit", lambda code: (ended.append(code), (_ for _ in ()).throw(SystemExit(code))))
    with pytest.raises(SystemExit):
        play_rows(setup, 0, 2, EndIfOrphaned(os.getppid() + 1_000_000))  # not our parent: as after a kill -9
    assert ended == [1]
