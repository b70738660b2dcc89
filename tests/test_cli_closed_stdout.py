"""A reader that closes the pipe at once (``sim run CONFIG | true``) must not stop the run before
its report is written (breaker finding 6, session 4): the text is dropped, the files are not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.integration
def test_a_closed_stdout_still_gets_the_report_written(tmp_path):
    out = tmp_path / "r"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", str(ROOT / "configs/traders_of_osaka/baseline.yaml"),
                             "--games", "6", "--jobs", "1", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.close()  # the reader is gone before sim writes a line
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    assert (out / "report.md").is_file() and (out / "report.html").is_file()
    assert b"Traceback" not in err


@pytest.mark.integration
@pytest.mark.parametrize("args, written", [
    (["skill", "traders_of_osaka", "--games", "2"], "skill.md"),
    (["sweep", "{cfg}", "--jobs", "1", "--figures", "never"], "report.md"),
])
def test_sweep_and_skill_with_a_closed_stdout_still_write_their_reports(tmp_path, args, written):
    """Second breaker, session 4: the fix for `sim run | true` did not reach sweep and skill."""
    cfg = tmp_path / "sw.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies: [random]\n"
                   "sweep: {options.end_tokens: [6, 8]}\n")
    out = tmp_path / "r"
    cmd = [sys.executable, "-m", "sim", *[a.format(cfg=cfg) for a in args], "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    assert (out / written).is_file()
