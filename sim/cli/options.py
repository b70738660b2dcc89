"""Options and helpers the commands share (run folders, writable paths, games/s)."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click

from ..api import SimError
from ..limits import is_stop


def run_folder(rc, out: str | None, config: str) -> Path:
    check_out(out)
    if out:
        return Path(out)
    if rc.output:
        return Path(rc.output)
    return Path("reports") / rc.game / Path(config).stem


def check_out(out: str | None) -> None:
    if out is not None and not out.strip():
        raise SimError("--out needs a folder name, got an empty one")
    if out is not None and any(ord(c) < 32 or 127 <= ord(c) < 160 for c in out):
        raise SimError(f"--out {out!r}: a folder name may not hold control characters")


def refuse_plugins(out_dir: Path) -> None:
    """``--resume --no-plugins``: refuse a run (or sweep) folder whose config names import strings."""
    from ..config import load_run_config

    names = [s.name for s in load_run_config(out_dir).strategies if ":" in s.name]
    if names:
        raise SimError(f"strategy import string '{names[0][:80]}' in {out_dir / 'config.json'} refused: plugins are"
                       " off (--no-plugins)")


def options_option(f):
    """``--option KEY=VALUE`` (repeatable) of ``check`` and ``sweep``, as ``sim run CONFIG`` has it:
    replaces or adds to CONFIG's ``options:`` (``config.overrides``; designer finding 8, session 8)."""
    return click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
                        help="A rule option replacing or adding to CONFIG's options: (repeatable; `sim list options GAME`),"
                             " checked as the file's own are, e.g. --option end_tokens=6.")(f)


def no_grid(config: str, key: str, example: str) -> SimError:
    """The error for a config without a ``sweep:``/``checks:`` grid: missing, or present but empty."""
    from ..data import read_yaml

    doc = read_yaml(config)
    present = isinstance(doc.value, dict) and key in doc.value
    what = f"'{key}:' is empty" if present else f"no '{key}:' key"
    return SimError(f"{doc.where((key,)) if present else config}: {what}; e.g. {key}: {example}")


def check_writable(path: Path, flag: str) -> None:
    """Refuse (before any game is played) a file path that cannot be written."""
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise SimError(f"{flag} {path}: cannot create its folder '{path.parent}': a file is in the way") from None
    except OSError as exc:
        raise SimError(f"{flag} {path}: cannot create its folder '{path.parent}' ({exc.strerror or exc})") from None
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise SimError(f"{flag} {path}: cannot write this file ({exc.strerror or exc})") from None
    if not existed:
        path.unlink()


def speed(rate: float) -> str:
    """Games per second with sensible precision: 155, 22, 3.4, 0.42 (a slow search run is not 0)."""
    return f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"


def _finite(ctx, param, value):
    if value is not None and value != value:  # NaN passes FloatRange's comparisons
        raise click.BadParameter("must be a number between 0.5 and 1, got nan")
    return value


def confidence_option(f):
    """``--confidence``: the level of every interval and test (default: the config's ``confidence``, else 0.95)."""
    return click.option("--confidence", type=click.FloatRange(0.5, 1, min_open=True, max_open=True), callback=_finite,
                        help="Confidence level of every interval and test, e.g. 0.99 (default: the config's"
                             " 'confidence', else 0.95).")(f)
def figures_option(f):
    """``--figures auto|always|never``: when the report draws its figures (``sim.analysis.figure_policy``)."""
    return click.option("--figures", "figures_mode", type=click.Choice(["auto", "always", "never"]), default="auto",
                        show_default=True,
                        help="Draw the report's figures: auto (from 100 complete games; below that the report says"
                             " how to draw them), always, or never. Later: sim report RUN_DIR --figures always.")(f)


no_plugins_option = click.option(
    "--no-plugins", is_flag=True,
    help="Refuse every strategy import string (package.module:Class): for configs from untrusted sources.")


# where the games are played: ``run``, ``check``, ``sweep``, ``tune``, ``discover`` and ``skill`` (session 10)
CLUSTER_OPTIONS = (
    click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                 help="local: joblib processes on this machine; dask: a Dask cluster."),
    click.option("--scheduler", help="Dask scheduler address (tcp://host:8786); without it a local cluster starts."),
)


def cluster_options(f):
    """``--backend`` and ``--scheduler`` (``CLUSTER_OPTIONS``) for a command that plays games."""
    for opt in reversed(CLUSTER_OPTIONS):
        f = opt(f)
    return f


def check_cluster(backend: str, scheduler: str | None) -> None:
    """``SimError`` for ``--scheduler`` without ``--backend dask``."""
    if scheduler and backend != "dask":
        raise SimError("--scheduler needs --backend dask")


def run_options(f):
    """The options `sim run` and `sim check` share."""
    opts = [
        click.option("--games", type=int, help="Override the number of games (with --until-ci or sim check --until-decided: the first batch)."),
        click.option("--jobs", type=int, help="Worker processes (default: config 'jobs', else the usable cores)."),
        click.option("--seed", type=int, help="Override the root seed."),
        click.option("--out", type=click.Path(file_okay=False),
                     help="Run folder (default: config 'output', else reports/<game>/<config name>)."),
        click.option("--force", is_flag=True, help="Replace an existing run folder."),
        click.option("--resume", "resume_dir", type=click.Path(file_okay=False),
                     help="Complete an interrupted run folder (no CONFIG)."),
        click.option("--fail-fast", is_flag=True, help="Stop at the first failed game (its chunk is kept)."),
        *CLUSTER_OPTIONS,
        click.option("--quiet", is_flag=True, help="No progress bar and no strategy output while games play (results and errors are still printed)."),
        click.option("--until-ci", type=float, metavar="W",
                     help="Play batches until every seat's and strategy's win-rate interval (at the confidence level) is within ±W "
                          "(0.01 = ±1 point), or --max-games."),
        click.option("--max-games", type=int,
                     help="With --until-ci or sim check --until-decided: stop at this many games (default 100 x --games)."),
        click.option("--min-sample", type=click.IntRange(min=0), default=50, show_default=True,
                     help="Seat-games a component needs before the report claims anything about it."),
        no_plugins_option,
        click.option("--break-lock", is_flag=True,
                     help="Take over the run folder's lock (.lock) left by a process that is not sim (pid reused)."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f





def say(text: str = "", **kwargs) -> None:
    """``click.echo``. A closed standard output (``sim run CONFIG | true``) cannot stop it: ``sim.cli.main``
    wraps stdout and stderr in ``limits.Unbroken`` for every command (session 10; before, only ``say``
    caught ``BrokenPipeError``, so a plain ``click.echo`` after a reader left still stopped the command)."""
    click.echo(text, **kwargs)

@contextmanager
def told_on_interrupt(message: str):
    """Make SIGTERM stop the block as Ctrl-C does (``KeyboardInterrupt``); on either, print
    ``message`` to standard error and exit 130."""
    old = None
    if threading.current_thread() is threading.main_thread():
        def stop(signum, frame):
            raise KeyboardInterrupt

        old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except BaseException as exc:
        if not is_stop(exc):
            raise
        click.echo(f"\ninterrupted: {message}", err=True)
        sys.exit(130)
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)


def _out_of_space(exc: BaseException) -> bool:
    """Whether ``exc`` is a failed write: an ``OSError``, or polars' error wrapping one."""
    text = str(exc)
    return isinstance(exc, OSError) or any(t in text for t in ("os error", "IO error", "No space left"))


@contextmanager
def write_failures(command: str, where: Path | str):
    """A write that fails in the block (a full disk: ``OSError``, or polars' ``ComputeError``
    wrapping one) is exit 2 naming the folder and the command that continues (``{command} --resume
    {where}``), not a traceback or a message blaming the config (breaker finding 7, session 8)."""
    from polars.exceptions import PolarsError

    try:
        yield
    except (OSError, PolarsError, ValueError) as exc:
        if not _out_of_space(exc):
            raise
        reason = (exc.strerror if isinstance(exc, OSError) and exc.strerror else "No space left on device"
                  if "No space left" in str(exc) else str(exc).strip().splitlines()[0][:200])
        raise SimError(f"cannot write in {where} ({reason}); what finished is kept: free space, then"
                       f" `{command} --resume {where}`") from None


def resume_hint(command: str, where: Path | str, what: str):
    """A stop of the block (Ctrl-C, SIGTERM: workers killed, what finished kept) prints how to
    continue (``{command} --resume {where}``) and exits 130."""
    return told_on_interrupt(f"{what} are on disk in {where}; continue with:\n  {command} --resume {where}")


def _report_message(where: Path | str, command: str | None) -> str:
    return f"every game is on disk in {where}, but the report was not finished; write it with:\n  {command or f'sim report {where}'}"


def report_hint(where: Path | str, command: str | None = None):
    """A stop while the report is written (every game on disk) says how to write it: ``command``,
    by default ``sim report``."""
    return told_on_interrupt(_report_message(where, command))


_ON_DISK: list[str] = []  # set by ``games_on_disk``: what a stop outside every handled block says


def games_on_disk(where: Path | str | None, command: str | None = None) -> None:
    """From now on a stop (Ctrl-C, SIGTERM) that no block of the command handles says, as
    ``report_hint`` does, that every game is on disk in ``where`` and how to write the report: the
    moments between the merge and the report (breaker finding, session 13: a bare "interrupted").
    ``where=None`` forgets it (each command starts so)."""
    _ON_DISK[:] = [] if where is None else [_report_message(where, command)]


def interrupted_text() -> str:
    """What the command group prints for a stop no block handled: "interrupted", and the report
    hint once ``games_on_disk`` was called."""
    return f"interrupted: {_ON_DISK[0]}" if _ON_DISK else "interrupted"


def option_values(pairs: tuple[str, ...]) -> dict:
    """``("KEY=VALUE", ...)`` -> ``{KEY: VALUE}``, each VALUE read as YAML (``true``, ``7``, ``[0, 0, 1, 2]``),
    as a config's ``options:`` values are read (``sim skill --option``, ``sim run --game ... --option``).
    Raises ``SimError`` for an item without ``=``; the game's options model checks names and values."""
    import yaml

    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise SimError(f"--option {pair!r}: expected KEY=VALUE, e.g. --option allow_two_players=true")
        if key.strip() in out:
            raise SimError(f"--option {key.strip()} is given twice: give each option once")
        try:
            out[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise SimError(f"--option {pair!r}: the value is not a plain YAML value") from None
    return out


def from_flags(config, game, players, strategy, games, jobs, seed, option_pairs=(), seating=None):
    """``(config text, resolved config)`` of ``sim run --game ...``; ``(None, None)`` without --game.
    ``--option KEY=VALUE`` pairs become the config's ``options:`` (the same checks and messages)."""
    if game is None:
        if players is not None or strategy:
            raise SimError("--players and --strategy go with --game GAME (a config file sets them itself; "
                           "--option KEY=VALUE goes with either)")
        return None, None
    if config:
        raise SimError("give either CONFIG or --game GAME, not both")
    if games is not None and games < 1 or players is not None and players < 1:
        raise SimError(f"--games and --players must be at least 1, got {games if games is not None else players}")
    from ..config import resolve
    from ..config.starter import command_line_config
    from ..data import parse_yaml

    text = command_line_config(game, players, 1000 if games is None else games, 1 if seed is None else seed,
                               list(strategy), option_values(option_pairs), seating)
    return text, resolve(parse_yaml(text, "sim run --game"), {"jobs": jobs})
