"""Configs without writing YAML: the rule options of a game described (``sim list options``), a
config from command-line flags (``sim run --game``) and a commented starter file (``sim init``)."""

from __future__ import annotations

import typing
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ..api import SimError
from ..data import write_file_atomic
from ..registry import check_plays, games, get_game, resolve_strategy, strategies
from ..seeding import deal_assignments
from .lists import shape_text
from .models import did_you_mean


def known_game(name: str) -> Any:
    """The game class registered as ``name`` (``registry.get_game``). ``SimError`` for an unknown
    name, listing the known games with "did you mean ...?" for the closest one (difflib)."""
    try:
        return get_game(name)
    except SimError as exc:
        raise SimError(f"{exc}{did_you_mean(name, games())}") from None


def data_rows(game: str) -> list[tuple[str, str, Any]]:
    """The reference data files of ``game`` (``sim list data``): ``(data key, file name, resource)``
    per file, in the game's order; the resource's ``str`` is its path. ``SimError`` for an unknown game."""
    from .grid import data_files

    package, files = data_files(known_game(game))
    return [(key, name, resources.files(f"{package}.data").joinpath(name)) for key, name in files.items()]


def copy_data(game: str, dest: Path) -> list[tuple[str, Path]]:
    """Copy the reference data files of ``game`` into the folder ``dest`` (created if missing):
    ``(data key, copied path)`` per file. Refuses (``SimError``, nothing written) a ``dest`` that is
    not a folder and a file of that name already in it, so a designer's edited copy is never replaced."""
    rows = data_rows(game)
    if not rows:
        raise SimError(f"{game} has no data files to copy")
    if (dest.exists() or dest.is_symlink()) and not dest.is_dir():  # (a dangling link is no folder)
        raise SimError(f"--copy {dest}: exists and is not a folder; give a folder (it is created if missing)")
    # a dangling symbolic link is taken too: writing through it would create a file elsewhere (session 9)
    taken = [str(dest / name) for _, name, _ in rows if (dest / name).exists() or (dest / name).is_symlink()]
    if taken:
        raise SimError(f"--copy {dest}: {', '.join(taken)} already there (an edited copy is never replaced);"
                       " give another folder or move them away")
    made = [p for p in (dest, *dest.parents) if not (p.exists() or p.is_symlink())]  # folders this call creates
    written: list[Path] = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for _, name, res in rows:
            write_file_atomic(dest / name, res.read_bytes())
            written.append(dest / name)
    except (OSError, SimError) as exc:  # a full disk: leave nothing this call made (breaker trial 2, session 9)
        for path in written:
            path.unlink(missing_ok=True)
        for folder in made:  # deepest first
            try:
                folder.rmdir()
            except OSError:
                break
        why = f"cannot write there ({exc.strerror or exc})" if isinstance(exc, OSError) else str(exc)
        raise SimError(f"--copy {dest}: {why} [no copy and no folder of this command was left]") from None
    return [(key, dest / name) for key, name, _ in rows]


def option_rows(game: str) -> list[dict[str, str]]:
    """Every rule option of ``game``: ``name, type, default, allowed, source`` (the rulebook passage
    or ruling from the option's pydantic ``Field(description=...)``). ``SimError`` for an unknown game."""
    rows = []
    for name, info in known_game(game).Options.model_fields.items():
        rows.append({"name": name, "type": _type_name(info.annotation), "default": repr(info.default),
                     "allowed": _allowed(info), "source": info.description or ""})
    return rows


def _type_name(ann: Any) -> str:
    text = getattr(ann, "__name__", None) if typing.get_origin(ann) is None else None
    return text or str(ann).replace("typing.", "")


def _allowed(info: Any) -> str:
    """``>= 1``, ``0 .. 10``, ``one of 'a', 'b'``, ``4 integers, one per colour: ...`` (a fixed-length
    list, ``config.lists``) or ``any`` from a field's constraints; a field whose own validator
    decides says it with ``json_schema_extra={"allowed": ...}`` (``sheet``, ``growth``: session 10)."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    if extra.get("allowed"):
        return str(extra["allowed"])
    args = typing.get_args(info.annotation)
    lits = [a for a in ([info.annotation] + list(args)) if typing.get_origin(a) is typing.Literal]
    if lits:
        return "one of " + ", ".join(repr(v) for lit in lits for v in typing.get_args(lit))
    bounds = {}
    for m in info.metadata:
        for k in ("ge", "gt", "le", "lt"):
            if getattr(m, k, None) is not None:
                bounds[k] = getattr(m, k)
    if not bounds:
        least = next((m.min_length for m in info.metadata if getattr(m, "min_length", None)), None)
        return ("true/false" if info.annotation is bool else shape_text(info)
                or (f"a list of at least {least} value{'s' if least > 1 else ''}" if least else "any"))
    low = f">= {bounds['ge']}" if "ge" in bounds else f"> {bounds['gt']}" if "gt" in bounds else ""
    high = f"<= {bounds['le']}" if "le" in bounds else f"< {bounds['lt']}" if "lt" in bounds else ""
    return " and ".join(x for x in (low, high) if x) + (" (or null: by player count)" if type(None) in args else "")


def player_range(cls: Any, unit: str = "") -> str:
    """``3-5`` + ``unit`` or, for a game whose lowest count is behind a rule option off by default
    (Forwarder of Xanadu: ``allow_two_players``, RULINGS §6), ``3-5 players (2 with option allow_two_players: true)``."""
    i, flag = cls.info, cls.Options.model_fields.get("allow_two_players")
    if flag is None or flag.default is not False:
        return f"{i.min_players}-{i.max_players}{unit}"
    return f"{i.min_players + 1}-{i.max_players}{unit} ({i.min_players} with option allow_two_players: true)"


def default_strategy(game: str) -> str:
    """The game's expert (a registered ``*.expert`` strategy that plays it) if there is one, else ``random``."""
    for name in strategies():
        if name.endswith(".expert"):
            try:
                check_plays(resolve_strategy(name), name, game)
            except SimError:
                continue
            return name
    return "random"


def command_line_config(game: str, players: int | None, games: int, seed: int, names: list[str],
                        options: dict | None = None, seating: str | None = None) -> str:
    """The YAML config equivalent to ``sim run --game GAME --players N --games N --strategy ...
    --option KEY=VALUE`` (players default: the game's minimum; strategies default: ``default_strategy``;
    ``options`` become the config's ``options:``, validated as a file's are when it is resolved)."""
    cls = known_game(game)
    n = players or cls.info.min_players
    doc = {"game": game, "players": n, "games": games, "seed": seed,
           "strategies": [{"name": s} for s in (names or [default_strategy(game)])]}
    if options:
        doc["options"] = dict(options)
    if seating:
        doc["seating"] = seating
    head = ("# written by `sim run --game`; rerun with `sim run config.yaml`\n"
            "# a strategies list shorter than players is repeated in order to fill the seats\n")
    return head + yaml.safe_dump(doc, sort_keys=False)


def _whole_deals(games: int, players: int, listed: list[str]) -> int:
    """``games`` rounded up to whole deals of ``seating: permute`` (``listed`` repeated to fill the
    seats): a deal holds one game per distinct assignment of the strategies, as the run plays it
    (``sim.seeding.deal_assignments``, ``sim.setup.deal_size``)."""
    seats = [listed[i % len(listed)] for i in range(players)]
    if len(set(seats)) < 2:
        return games
    deal = len(deal_assignments(tuple(seats.index(s) for s in seats)))
    return -(-games // deal) * deal


# games in a starter: about 10-20 CPU-seconds on one core (a slow expert plays far fewer games)
STARTER_GAMES = {"alpenzian": 200}


def _example_option(cls: Any) -> tuple[str, int, int] | None:
    """``(name, low, high)`` of the first whole-number rule option that is not the safety cap
    ``max_decisions`` (the starter's sweep and tune vary it): its default +- 2, within its bounds."""
    for name, info in cls.Options.model_fields.items():
        if name == "max_decisions" or info.annotation is not int:
            continue
        low = max([info.default - 2] + [getattr(m, "ge", None) for m in info.metadata if getattr(m, "ge", None) is not None])
        return name, low, info.default + 2
    return None


def _examples(game: str, cls: Any) -> list[str]:
    """The starter's commented examples; each validates once uncommented (``data:`` needs the copy)."""
    from .grid import data_files

    files = data_files(cls)[1]
    key = next(iter(files), None)
    ex = _example_option(cls)
    lines = [f"# data: {{{key}: my_data/{files[key]}}}   # replace a data file: `sim list data {game} --copy my_data`"
             " copies the game's files, edit them (see the game's doc)"] if key else []
    if ex:
        name, low, high = ex
        mid = cls.Options.model_fields[name].default
        lines += [f"# sweep: {{options.{name}: [{low}, {mid}, {high}]}}   # `sim sweep`: also players, seating,"
                  " strategies.N.params.KEY",
                  "# checks: {max_seat_win_rate: 0.35}   # `sim check`",
                  f"# tune: {{params: {{options.{name}: [{low}, {high}]}}, target: {{first_player_advantage: 0}}}}"
                  "   # `sim tune`"]
    else:
        lines.append("# checks: {max_seat_win_rate: 0.35}   # `sim check`")
    return lines + ["# discover: {seat: 0}        # `sim discover`: a dominant plan for strategy 0?"]


def starter_config(game: str) -> str:
    """A commented starter config for ``game`` that validates as written (``sim init``): every rule
    option at its default with its rulebook source, and commented examples of the other sections."""
    cls = known_game(game)
    info = cls.info
    n = min(max(info.min_players, 4), info.max_players)
    expert = default_strategy(game)
    lines = [f"# {info.title or game}: starter config written by `sim init {game}`.",
             "# Check it with `sim validate FILE`, play it with `sim run FILE`; README \"Configs\" explains every key.",
             f"game: {game}", f"players: {n}                 # {player_range(cls)}",
             f"games: {_whole_deals(STARTER_GAMES.get(game, 1000), n, [expert] + ['random'] * (n - 1))}"
             "                # whole deals of `seating: permute`",
             "seed: 1", "# jobs: 2                  # worker processes (default: the usable cores)",
             "# seating: permute          # the default when the strategies differ (rotate when one strategy fills every"
             " seat): permute plays every seat order (seat and neighbour apart), rotate each seat in turn, fixed none",
             "strategies:                 # one per seat; a shorter list is repeated in order to fill the seats",
             f"  - name: {expert}", *["  - name: random"] * (n - 1),  # one seat each: `discover: {seat: 0}` works
             "options:                    # every rule option at its default"]
    for row in option_rows(game):
        value = yaml.safe_dump(cls.Options.model_fields[row["name"]].default, default_flow_style=True).strip()
        value = value.removesuffix("\n...").removesuffix("...").strip()
        lines.append(f"  {row['name']}: {value}    # {row['allowed']}; {row['source']}".rstrip("; "))
    return "\n".join(lines + _examples(game, cls)) + "\n"
