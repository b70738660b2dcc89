"""The ``sim`` command group: ``SimError`` becomes a one-paragraph message and exit status 2."""

from __future__ import annotations

import click

from .. import __version__
from ..api import SimError


class SimGroup(click.Group):
    """Turns ``SimError`` into a one-paragraph message and exit status 2; Ctrl-C into status 130."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SimError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)


@click.group(cls=SimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sim")
def cli() -> None:
    """Balance simulator for tabletop games: play thousands of games, get win rates with intervals."""


