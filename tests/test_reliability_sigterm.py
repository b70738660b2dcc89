"""SIGTERM to every long command stops it as Ctrl-C does (breaker findings 4 and 5, session 8):
the message names how to continue, the exit status is 130 (not the signal's 143) and no `.lock`
is left behind in any folder."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

BASE = """\
game: traders_of_osaka
players: 2
games: 3000
seed: 3
seating: rotate
chunk_size: 20
jobs: 1
strategies:
  - {name: osaka.trader}
  - {name: random}
"""


def _term_when(proc, ready, timeout=60):
    """SIGTERM to ``proc`` (alone) once ``ready()`` holds; its standard error."""
    for _ in range(int(timeout / 0.05)):
        if ready():
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    return err


def _start(tmp_path, *args):
    return subprocess.Popen([sys.executable, "-m", "sim", *map(str, args)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.integration
def test_sigterm_to_check_until_decided_prints_its_resume_command(tmp_path):
    cfg = tmp_path / "ud.yaml"
    cfg.write_text(BASE.replace("games: 3000", "games: 40") + "checks: {max_seat_win_rate: 0.5}\n")
    out = tmp_path / "ud"
    proc = _start(tmp_path, "check", cfg, "--until-decided", "--max-games", 100000, "--out", out, "--quiet")
    err = _term_when(proc, lambda: len(list(out.glob("chunks/games-*.parquet"))) >= 3)
    assert proc.returncode == 130, err
    assert "interrupted" in err and f"sim check --resume {out}" in err and "Traceback" not in err, err
    assert not list(out.rglob(".lock"))


@pytest.mark.integration
def test_sigterm_to_skill_exits_130_and_leaves_no_lock(tmp_path):
    out = tmp_path / "sk"
    proc = _start(tmp_path, "skill", "traders_of_osaka", "--games", 4000, "--strategy", "osaka.trader",
                  "--out", out, "--quiet")
    err = _term_when(proc, lambda: len(list(out.glob("table-000/chunks/games-*.parquet"))) >= 1)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err, err
    assert not list(out.rglob(".lock"))
