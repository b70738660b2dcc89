"""``--quiet`` means only errors (designer finding 6, session 8): what a strategy prints to standard
output while the games play (a designer's debugging ``print``) no longer reaches the terminal
under ``sim run --quiet``; without ``--quiet`` it still does (and ``sim replay`` shows it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CONFIG = """\
game: traders_of_osaka
players: 2
games: 4
seed: 1
jobs: 1
strategies: ['bad_strategies:Printer', random]
"""


def _run(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess:
    shutil.copy(HERE / "bad_strategies.py", tmp_path / "bad_strategies.py")  # found next to the config
    (tmp_path / "p.yaml").write_text(CONFIG)
    return subprocess.run([sys.executable, "-m", "sim", "run", "p.yaml", "--out", "r", "--force", *flags],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)


@pytest.mark.integration
def test_a_strategys_prints_are_silenced_by_quiet_only(tmp_path):
    loud = _run(tmp_path)
    assert loud.returncode == 0, loud.stderr
    assert "choosing among" in loud.stdout  # Printer prints each decision (tests/bad_strategies.py)
    quiet = _run(tmp_path, "--quiet")
    assert quiet.returncode == 0, quiet.stderr
    assert "choosing among" not in quiet.stdout + quiet.stderr
    assert (tmp_path / "r" / "report.md").is_file()
