"""A strategy module that fails while it is imported (an exception, a syntax error, sys.exit) is a
config error: exit 2, the config's file, line and key, and where the module failed; no traceback
(README "Plugins": bad input gets a clear error)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import cli

MODULES = {
    "raises_on_import": ('import os\nraise RuntimeError("boom")\n', "line 2", "RuntimeError: boom"),
    "bad_syntax": ("def f(:\n    pass\n", "line 1", "SyntaxError"),
    "exits_on_import": ("import sys\nsys.exit(5)\n", "line 2", "SystemExit: 5"),
}


@pytest.mark.parametrize("module", sorted(MODULES))
@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_module_failing_on_import_is_a_config_error(tmp_path, monkeypatch, module, command):
    source, line, what = MODULES[module]
    (tmp_path / f"{module}.py").write_text(source)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies:\n"
                   f"  - name: '{module}:Strategy'\n  - name: random\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    args = [command, str(cfg)] + (["--out", str(tmp_path / "out"), "--quiet"] if command == "run" else [])
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert "c.yaml, line 6, key 'strategies.0.name'" in res.output, res.output
    assert f"{module}.py, {line}" in res.output and what in res.output, res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "out").exists()
