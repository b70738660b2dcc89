"""Start-up (issue 20 item 8): each command imports only what it uses. Measured as which modules
a fresh interpreter has loaded, never as a time."""

from __future__ import annotations

import subprocess
import sys

import click

from sim.cli import cli
from sim.cli.group import COMMANDS


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "; import sys; print('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_every_command_is_listed_and_found():
    ctx = click.Context(cli)
    names = cli.list_commands(ctx)
    assert names == sorted(COMMANDS)
    for name in names:  # each lazy entry names the module that really defines the command
        cmd = cli.get_command(ctx, name)
        assert cmd is not None and cmd.name == name
        assert cmd.callback.__module__ == f"sim.cli.{COMMANDS[name]}"


def test_unknown_command_is_a_usage_error():
    from click.testing import CliRunner

    res = CliRunner().invoke(cli, ["nosuch"])
    assert res.exit_code == 2 and "No such command" in res.output


def test_importing_the_cli_loads_no_command_or_heavy_library():
    mods = _loaded_after("import sim.cli")
    assert not {m for m in mods if m.startswith("sim.cli.commands_")}
    assert not {"matplotlib", "scipy", "polars", "openskill", "optuna", "joblib"} & mods
    assert not {m for m in mods if m.startswith("sim.games.") or m.startswith("strategies.")}
