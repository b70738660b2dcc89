"""Which tests a pytest run without ``-m`` selects (tests/conftest.py, session 9): what ``make test``
selects, so a plain ``pytest tests/test_x.py`` does not play the nightly ``slow`` tests.

Before, such a run played them (``tests/test_strategy_ties.py`` alone holds 125, among them 35
mirrors of 600 games each) and looked like a hang: both pytest-xdist workers busy at about 85% for
far longer than anyone waited, with finished ``--jobs 1`` workers listed as ``<defunct>`` children.

Each case runs pytest in a subprocess (with a timeout) on a small folder holding the project's
conftest and one test file whose tests are known by hand: ``test_quick`` (not slow), ``test_long``
(slow; it fails when it runs, so a run that should leave it out and does not, fails) and
``test_long_param[1]``, ``[2]`` (slow). Old code: the first case ran ``test_long`` and failed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# each case starts pytest (about 1.5 CPU-s): in `make test`, not `make test-fast`
pytestmark = pytest.mark.integration

PICK = """\
import pytest


def test_quick():
    pass


@pytest.mark.slow
def test_long():
    pytest.fail("a slow test ran")


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
def test_long_param(n):
    pass
"""

INI = """\
[pytest]
addopts = -p no:cacheprovider
markers =
    slow: long
    integration: whole runs
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("selection")
    shutil.copy(TESTS / "conftest.py", root / "conftest.py")
    (root / "pytest.ini").write_text(INI)
    (root / "test_pick.py").write_text(PICK)
    return root


def pytest_in(folder: Path, *args: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("args, rc, summary", [
    ((), 0, "1 passed, 3 deselected"),  # only the quick one, as `make test` (-m "not slow")
    (("-m", "not slow"), 0, "1 passed, 3 deselected"),
    (("-m", "slow"), 1, "1 failed, 2 passed, 1 deselected"),  # -m decides: test_long runs (and fails)
    (("test_pick.py::test_long_param",), 0, "2 passed"),  # a slow test named by node id runs
    (("test_pick.py::test_long_param[2]", "test_pick.py::test_quick"), 0, "2 passed"),
], ids=["no-m", "not-slow", "slow", "named", "named-param"])
def test_a_run_without_m_leaves_out_the_slow_tests(folder, args, rc, summary):
    got_rc, out = pytest_in(folder, *args)
    assert got_rc == rc, out
    assert summary in out, out
    assert ("slow tests left out" in out) == (not args), out
