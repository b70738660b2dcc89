"""The ``sim`` command group: ``SimError`` becomes a one-paragraph message and exit status 2.

Commands are imported when they are asked for (``COMMANDS``: name -> module of ``sim.cli``), so
``sim run`` does not load what ``compare``, ``tune`` or ``skill`` need (issue 20 item 8: start-up).
"""

from __future__ import annotations

import difflib
import importlib
import signal
import threading

import click

from .. import __version__
from ..api import SimError
from ..limits import is_stop
from .options import games_on_disk, interrupted_text

# command name -> the module of ``sim.cli`` whose import registers it on ``cli``
COMMANDS = {
    "bench": "commands_tools", "check": "commands_play", "compare": "commands_compare",
    "discover": "commands_design", "init": "commands_tools", "list": "commands_tools",
    "replay": "commands_tools", "report": "commands_report", "run": "commands_play",
    "skill": "commands_skill", "sweep": "commands_sweep", "tune": "commands_design",
    "validate": "commands_tools",
}


class SimGroup(click.Group):
    """Turns ``SimError`` into a one-paragraph message and exit status 2; Ctrl-C into status 130.
    Imports a command's module on first use (``COMMANDS``); ``sim --help`` imports them all."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__package__}.{COMMANDS[cmd_name]}")  # its decorators register it
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """As click's, with "did you mean" for a misspelt command (``sim rn``), exit status 2."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            ctx.fail(f"No such command '{name}'{hint}.")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context):
        old = _sigterm_interrupts()
        games_on_disk(None)
        try:
            return super().invoke(ctx)
        except SimError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except BaseException as exc:
            if not is_stop(exc):
                raise
            click.echo(f"\n{interrupted_text()}", err=True)
            ctx.exit(130)
        finally:
            if old is not None:
                signal.signal(signal.SIGTERM, old)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def _sigterm_interrupts():
    """SIGTERM stops every command as Ctrl-C does (``KeyboardInterrupt``: workers ended, locks
    released, how to continue printed, exit 130); before, only some commands' play phase did, and
    `sim check --until-decided` or `sim skill` died with 143 and a stale .lock (breaker finding 5,
    session 8). Returns the previous handler (None off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


@click.group(cls=SimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sim")
def cli() -> None:
    """Balance simulator for tabletop games: play thousands of games, get win rates with intervals."""


