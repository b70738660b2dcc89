"""The commands that read or inspect: ``validate``, ``list``, ``replay``, ``bench``, ``init``."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import click

from .. import compiled, play
from .. import replay as replay_log
from ..analysis.pick import FIND_KINDS, find_game
from ..api import SimError
from ..config import load_config, load_run_config
from ..config.starter import copy_data, data_rows, known_game, option_rows, player_range, starter_config
from ..data import write_file_atomic
from ..registry import (
    add_module_folder,
    build_any_count,
    games,
    make_strategy,
    resolve_strategy,
    strategies,
    strategy_params,
)
from ..runs.fixed import check_same_rules, partial_deal, setup_of, with_data_copies
from ..seeding import streams_of  # the streams a run's games get (sim.setup.streams)
from ..store import refuse_sweep_folder
from .group import cli
from .options import check_writable, no_plugins_option


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--games", type=int, help="The number of games, as `sim run --games` gives it.")
@click.option("--seed", type=int, help="The root seed, as `sim run --seed` gives it.")
@no_plugins_option
def validate(config: str, games: int | None, seed: int | None, no_plugins: bool) -> None:
    """Check CONFIG (keys, game, strategies, options, data files) without playing.

    Accepts exactly what `sim run` accepts: games and seed may come from --games and --seed.
    A config from an untrusted source: `sim validate --no-plugins untrusted.yaml` (no import string runs).
    """
    rc = load_config(config, {"games": games, "seed": seed, "plugins": False if no_plugins else None})
    click.echo(f"{config}: ok ({rc.game}, {rc.players} players, {rc.games} games, strategies: {', '.join(rc.labels)})")
    if partial := partial_deal(rc):  # fresh-user finding 6, session 5
        click.echo(f"warning: {partial}", err=True)


LISTABLE = ("games", "strategies", "options", "data")


@cli.command(name="list")
@click.argument("what", type=click.Choice(LISTABLE), required=False)
@click.argument("game", required=False)
@click.option("--copy", "copy_to", type=click.Path(), metavar="DIR",
              help="With `list data GAME`: copy the game's data files into DIR (created if missing).")
def list_(what: str | None, game: str | None, copy_to: str | None) -> None:
    """List registered games or strategies, or the rule options or data files of GAME.

    `sim list` alone says what can be listed. `sim list strategies GAME` lists the strategies that
    play GAME (its own and the any-game ones). `sim list options GAME` prints every rule option with
    its type, default, allowed values and the rulebook passage or ruling it comes from. `sim list data
    GAME` prints the game's reference data files (data key and path); `--copy DIR` copies them into
    DIR, to edit and name in a config's `data:`.

    Example: sim list options traders_of_osaka; sim list strategies xanadu; sim list data xanadu --copy my_data
    """
    if what is None:
        if game is not None or copy_to is not None:
            raise SimError(f"`sim list WHAT ...` starts with one of: {', '.join(LISTABLE)}")
        _list_what()
        return
    if what in ("options", "data") and game is None:
        raise SimError(f"`sim list {what} GAME` names a game (`sim list games` lists them)")
    if what == "games" and game is not None:
        raise SimError("`sim list games` takes no GAME (`sim list strategies GAME` lists a game's strategies)")
    if copy_to is not None and what != "data":
        raise SimError("--copy DIR goes with `sim list data GAME`")
    if what == "data":
        _list_data(game, copy_to)
    elif what == "options":
        for row in option_rows(game):
            click.echo(f"{row['name']}  ({row['type']}, default {row['default']}, allowed: {row['allowed']})")
            if row["source"]:
                click.echo(f"    {row['source']}")
    elif what == "games":
        for name, cls in games().items():
            i = cls.info
            click.echo(f"{name:<24}{player_range(cls, ' players')}  v{i.version}  {i.title}")
    else:
        _list_strategies(game)


def _list_what() -> None:
    """``sim list`` with no argument: what can be listed, and the games to name."""
    for usage, what in (("games", "the registered games"),
                        ("strategies [GAME]", "the strategies (with GAME: those that play it)"),
                        ("options GAME", "GAME's rule options, defaults and rulebook sources"),
                        ("data GAME [--copy DIR]", "GAME's data files (with --copy: copies to edit)")):
        click.echo(f"sim list {usage:<24}{what}")
    click.echo(f"games: {', '.join(games())}")


def _list_strategies(game: str | None) -> None:
    """``sim list strategies [GAME]``: name, games, parameters and first doc paragraph of each."""
    if game is not None:
        known_game(game)  # an unknown name: did-you-mean
    for name, factory in strategies().items():
        if hasattr(factory, "load"):  # an installed plugin's entry point: describe the class it names
            try:
                factory = resolve_strategy(name)
            except SimError as exc:
                click.echo(f"{name}  [cannot load]\n    {exc}")
                continue
        allowed = getattr(factory, "games", ())
        if game is not None and allowed and game not in allowed:
            continue
        doc = " ".join((getattr(factory, "__doc__", "") or "").split("\n\n")[0].split()).replace("``", "")
        params = ", ".join(f"{k}={v!r}" for k, v in strategy_params(factory).items())
        click.echo(f"{name}  [{'/'.join(allowed) if allowed else 'any game'}]" + (f"  params: {params}" if params else ""))
        if doc:
            click.echo(f"    {doc}")


def _list_data(game: str, copy_to: str | None) -> None:
    """``sim list data GAME [--copy DIR]``: each data key and its reference file, or their copies."""
    if copy_to is None:
        rows = data_rows(game)
        for key, _, res in rows:
            click.echo(f"{key:<12}{res}")
        if not rows:
            click.echo(f"{game} has no data files")
        return
    copied = copy_data(game, Path(copy_to))
    for key, path in copied:
        click.echo(f"{key:<12}{path}")
    # absolute paths: a relative one in a config is read from the config's folder, not from here (breaker trial 2)
    click.echo("to play a variant, edit them and name them in the config (a relative path there is read from the"
               " config's folder): data: {" + ", ".join(f"{key}: {Path(path).resolve()}" for key, path in copied) + "}")


@cli.command()
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False), required=False)
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def init(game: str, file: str | None, force: bool) -> None:
    """Write a commented starter config for GAME to FILE (default: GAME.yaml) that validates as written:
    every rule option at its default with its rulebook source, and examples of sweep, checks, tune, discover.

    Example: sim init traders_of_osaka my_osaka.yaml && sim run my_osaka.yaml
    """
    path = Path(file or f"{game}.yaml")
    text = starter_config(game)
    if path.exists() and not force:
        raise SimError(f"{path} exists; use --force to replace it, or name another FILE")
    check_writable(path, "FILE")
    if path.exists() and not path.is_file():
        raise SimError(f"{path} exists and is not a regular file; give another FILE")
    try:
        write_file_atomic(path, text.encode())  # a full disk leaves the old file, never half a starter
    except OSError as exc:
        raise SimError(f"{path}: cannot write the starter config ({exc.strerror or exc})") from None
    rc = load_config(path)
    click.echo(f"wrote {path} ({rc.game}, {rc.players} players, strategies: {', '.join(dict.fromkeys(rc.labels))});"
               f" run it with: sim run {path}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--game-index", "-i", type=int, help="Index of the game in the run.")
@click.option("--find", type=click.Choice(FIND_KINDS),
              help="Pick the game: longest (most decisions), closest (smallest winning margin), upset (won by the "
                   "strategy with the lowest win rate), stalled (ended without reaching the decision cap, unfinished).")
@click.option("--full", is_flag=True, help="Print every line (no collapsing of repeated identical lines).")
def replay(run_dir: str, game_index: int | None, find: str | None, full: bool) -> None:
    """Replay one game of RUN_DIR from its seed and print a readable log, with a header per round or
    turn and repeated identical lines collapsed ("... x3"). Exit status 1 when the game fails in the
    replay (as it did in the run: the error ends the log), so a script can tell.

    Example: sim replay reports/traders_of_osaka/baseline --find closest
    """
    refuse_sweep_folder(Path(run_dir), "replay a game of")
    rc = load_run_config(Path(run_dir))
    if (game_index is None) == (find is None):
        raise SimError("give --game-index N or --find longest|closest|upset|stalled")
    if find is not None:
        game_index, why = find_game(Path(run_dir), find)
        click.echo(f"game {game_index}: {why}")
    if not 0 <= game_index < rc.games:
        raise SimError(f"--game-index must be in 0..{rc.games - 1}, got {game_index}")
    rc = with_data_copies(rc, Path(run_dir))  # the contents it was made with (fresh-user finding 4, session 8)
    game = check_same_rules(rc, Path(run_dir), "replayed")
    died = None
    if hasattr(os, "fork") and _killed_its_worker(Path(run_dir), game_index):
        lines, end, died = replay_log.replay_forked(setup_of(rc), game, game_index)
    else:
        lines, result = replay_log.replay(setup_of(rc), game, game_index)
        end = replay_log.ending(game, result) if result is not None else None
    for line in (lines if full else replay_log.collapse(lines)):
        click.echo(line)
    if died is not None:
        click.echo(f"ERROR: WorkerDied: the process replaying this game ended ({died}), as its worker did in the run")
    if end is not None:
        click.echo(end)
    else:  # the game failed: the log ends with the error (exit status 1, as a failed command)
        click.echo(f"game {game_index} failed in the replay, as in the run (exit status 1)", err=True)
        raise SystemExit(1)


def _killed_its_worker(run_dir: Path, game_index: int) -> bool:
    """Whether the run recorded game ``game_index`` as failed with ``WorkerDied``."""
    import polars as pl  # noqa: PLC0415  (imported when used: start-up)

    from .. import parquet  # noqa: PLC0415

    path = run_dir / "errors.parquet"
    if not path.is_file():
        return False
    errors = parquet.read(path, columns=["game_index", "exception"])
    return errors.filter((pl.col("game_index") == game_index) & (pl.col("exception") == "WorkerDied")).height > 0


@cli.command()
@click.argument("game")
@click.option("--games", type=int, default=1000, show_default=True)
@click.option("--players", type=int, help="Default: the game's maximum (a config: its own).")
@click.option("--strategy", help="Every seat (default: random; not with a config).")
@click.option("--seed", type=int, help="Root seed (default: 0; not with a config).")
def bench(game: str, games: int, players, strategy: str, seed: int) -> None:
    """Play GAME on one core through the game loop; print games/s and decisions/s per CPU second
    (process time: steadier than the wall-clock time, also printed, but a busy or shared machine
    lowers it too: compare figures taken on the same machine, in alternation).

    GAME may be a config file instead: its first --games games are played as `sim run` plays them
    (its strategies, seating, options and seed; no files written, no report).

    \b
    Example:
      sim bench traders_of_osaka --players 4 --games 2000
      sim bench configs/alpenzian/baseline.yaml --games 200
    """
    if game.endswith((".yaml", ".yml")) or Path(game).is_file():
        given = [f for f, v in (("--players", players), ("--strategy", strategy), ("--seed", seed)) if v is not None]
        if given:
            raise SimError(f"{' and '.join(given)} cannot be used with a config ({game}): the config says its "
                           f"players, strategies and seed; edit it, or bench a game name instead")
        label, n, decisions, cpu, wall, short = _bench_config(game, games)
    else:
        label, n, decisions, cpu, wall, short = _bench_game(game, games, players, strategy or "random", seed or 0)
    click.echo(f"{label}: {games} games in {cpu:.2f} CPU-s ({wall:.2f} s wall): {games / cpu:.1f} games/s, "
               f"{decisions / cpu:,.0f} decisions/s ({decisions / games:.0f} decisions/game), one core")
    click.echo(compiled.status())  # figures of pure Python and of the compiled copies differ about 1.3-1.7x
    if short:  # a speed figure over games that stalled or failed is not one of whole games
        from ..analysis.summaries import REASON_TEXT  # the report's words for each end reason

        kinds = ", ".join(f"{n} {REASON_TEXT.get(k, k)}" for k, n in sorted(short.items(), key=lambda kv: -kv[1]))
        click.echo(f"note: {sum(short.values())} of {games} games did not finish normally: {kinds}")


def _bench_game(game: str, games: int, players, strategy: str, seed: int) -> tuple:
    cls = known_game(game)
    n = players or cls.info.max_players
    if not cls.info.min_players <= n <= cls.info.max_players:
        raise SimError(f"{game} takes {cls.info.min_players}-{cls.info.max_players} players, not {n}")
    if games < 1:
        raise SimError("--games must be at least 1")
    g = build_any_count(game, n)
    add_module_folder(Path.cwd())  # an import string's module may sit in the current folder (as for sim run --game)
    make_strategy(strategy, {}, game, game=g)  # a bad name fails before the clock starts
    decisions, short = 0, Counter()
    c0, t0 = time.process_time(), time.perf_counter()
    for i in range(games):
        chance, rngs = streams_of(seed, i, n)
        strat = [make_strategy(strategy, {}, game, game=g) for _ in range(n)]  # afresh per game, as a run does
        try:  # a failing game is counted, as `sim run` records it (breaker, session 12)
            result = play.play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions)
        except Exception:  # noqa: BLE001 - any error of a strategy or the engine fails only its game
            short["failed"] += 1
            continue
        decisions += result.n_decisions
        if result.truncated:
            short[result.end_reason] += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return f"{game}, {n} players, {strategy}", n, decisions, max(cpu, 1e-9), wall, short


def _bench_config(path: str, games: int) -> tuple:
    """The first ``games`` games of a config through ``play.play_range`` (one chunk, this process)."""
    import polars as pl  # noqa: PLC0415  (imported when used: start-up)

    if games < 1:
        raise SimError("--games must be at least 1")
    setup = setup_of(load_config(path))
    c0, t0 = time.process_time(), time.perf_counter()
    _, _, tables = play.play_range(setup.to_json(), 0, games)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    decisions = int(tables["games"]["n_decisions"].sum())
    g = tables["games"].filter(pl.col("truncated") | pl.col("failed"))
    short = Counter(g["end_reason"].to_list())
    return f"{path} ({setup.players} players)", setup.players, decisions, max(cpu, 1e-9), wall, short
