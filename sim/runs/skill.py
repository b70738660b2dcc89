"""A round robin of strategies (``sim skill``): every combination of ``players`` different
strategies of the pool plays one table of games, each table a full run folder ``table-NNN``
(``fixed.run``, the same root seed and game indices in every table: common random numbers);
the figures of ``sim.analysis.skill`` over all tables go to ``skill.json`` and ``skill.md``.

The pool: every registered strategy made for the game (its ``games`` names it) plus the
baseline ``random_by_kind``; or the strategies named, plus the baseline. Seating: ``permute``
(every seat order equally often) when the config layer offers it, else ``rotate`` (each strategy
plays each seat equally often); a table's game count is rounded up so the seating is balanced.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from .. import store
from ..analysis.skill import SkillFigures, skill_figures, skill_text
from ..analysis.stats import complete_players
from ..analysis.tables import load_tables
from ..api import SimError
from ..config import RunConfig, load_run_config, resolve
from ..data import Located, read_json
from ..registry import add_module_folder, check_plays, get_game, resolve_strategy, strategies
from . import fixed

BASELINE = "random_by_kind"


def skill_pool(game: str, names: Sequence[str] = ()) -> list[str]:
    """The strategies of the round robin, baseline last: ``names`` (checked: each must exist and
    play ``game``; an import string's module is looked for in the current folder too), else every registered strategy whose ``games`` names ``game``. Raises
    ``SimError`` for an unknown game or strategy, or one that does not play the game."""
    get_game(game)
    if names:
        pool = list(dict.fromkeys(n for n in names if n != BASELINE))
        add_module_folder(Path.cwd())  # import strings given on the command line: as `sim run --game` looks
        for n in pool:
            check_plays(resolve_strategy(n), n, game)
    else:
        pool = [n for n, f in strategies().items() if game in (getattr(f, "games", ()) or ())]
    return [*pool, BASELINE]


def seating() -> str:
    """``permute``: duplicate seating, every deal played in every seat order (issue 17 item 5).
    (It read the config model's annotation, ``Literal[...] | None``, whose arguments never hold
    "permute", so every table rotated seats until session 4.)"""
    return "permute"


def table_games(games: int, players: int, how: str) -> int:
    """Games per table, rounded up to a whole number of seat cycles (``players`` for rotate,
    ``players!`` orders for permute)."""
    cycle = math.factorial(players) if how == "permute" else players
    return -(-games // cycle) * cycle


def table_config(game: str, players: int, names: Sequence[str], games: int, seed: int, jobs: int,
                 options: dict | None = None) -> RunConfig:
    """The resolved config of one table (validated like a config file; ``SimError`` on a problem).
    ``options``: the game's rule options (``sim list options GAME``), the same at every table."""
    how = seating()
    value = {"game": game, "players": players, "games": table_games(games, players, how), "seed": seed,
             "strategies": [{"name": n} for n in names], "seating": how, "jobs": jobs, "options": dict(options or {})}
    return resolve(Located(value, f"sim skill {game}", {}))


def plan(game: str, players: int, pool: Sequence[str], games: int, seed: int, jobs: int = 1,
         options: dict | None = None) -> list[RunConfig]:
    """One config per table: every combination of ``players`` different strategies of ``pool``.
    Raises ``SimError`` when the pool is smaller than ``players``, ``players`` is below 2 (breaker
    finding 2, session 8: alone at a table every strategy won every game, all ranked 1 with a skill
    index of +0.0) or ``games`` is below 1."""
    if players < 2:
        raise SimError(f"--players must be at least 2 for a round robin, got {players}: a strategy alone at a table "
                       "wins every game it completes, so win rates cannot rank strategies; for a solo game compare "
                       "their scores instead (sim run a config per strategy, then sim compare RUN_A RUN_B)")
    if games < 1:
        raise SimError(f"--games must be at least 1, got {games}")
    if len(pool) < players:
        raise SimError(f"a {players}-player round robin needs at least {players} strategies; the pool has "
                       f"{len(pool)} ({', '.join(pool)}): name more with --strategy")
    return [table_config(game, players, names, games, seed, jobs, options)
            for names in itertools.combinations(pool, players)]


def run_skill(game: str, players: int, games: int, seed: int, out: Path, *, names: Sequence[str] = (),
              jobs: int = 1, force: bool = False, progress: bool = True, options: dict | None = None,
              echo: Callable[[str], None] | None = None, backend: str = "local",
              scheduler: str | None = None) -> SkillFigures:
    """Play the round robin into ``out`` (``table-NNN`` run folders), write ``skill.json`` and
    ``skill.md``, and return the figures. ``games``: per table, before rounding for the seating;
    ``options``: rule options for every table (e.g. ``{"allow_two_players": True}``); ``backend``/
    ``scheduler``: where each table's games are played (``--backend dask``, ``fixed.run``).
    Raises ``SimError`` for bad input or when no game of the baseline completed."""
    pool = skill_pool(game, names)
    rcs = plan(game, players, pool, games, seed, jobs, options)
    store.prepare_output(out, force, kind="skill")
    shutil.rmtree(out / "chunks", ignore_errors=True)
    for i, rc in enumerate(rcs):
        tdir = out / f"table-{i:03d}"
        o = fixed.run(rc, tdir, force=True, progress=progress, backend=backend, scheduler=scheduler)
        if echo:
            echo(f"{tdir.name} ({i + 1} of {len(rcs)}: {' vs '.join(rc.labels)}): {o.games} games in {o.seconds:.1f} s;"
                 f" {o.ends()}")
    return _figures(out, game, players, rcs)


def _figures(out: Path, game: str, players: int, rcs: Sequence[RunConfig]) -> SkillFigures:
    """The figures over the finished tables ``out/table-NNN`` of ``rcs``, written (``write_results``)."""
    frames, played = [], 0
    for i in range(len(rcs)):
        t = load_tables(out / f"table-{i:03d}")
        played += t.games.height
        frames.append(complete_players(t.players, t.games).with_columns(table=pl.lit(i, pl.Int64)))
    try:
        figures = dataclasses.replace(skill_figures(pl.concat(frames), BASELINE), played=played)
    except ValueError as exc:
        raise SimError(f"sim skill {game}: {exc} (see the table folders in {out})") from None
    write_results(out, figures, game, players, rcs)
    return figures


def rebuild_skill(out: Path) -> tuple[SkillFigures, int]:
    """``sim report SKILL_DIR``: the figures and ``skill.md``/``skill.json`` again from the finished
    table folders (as ``run_skill`` wrote them); ``(figures, players)``. ``SimError`` when the round
    robin did not finish (``skill.json`` lists no tables, or a table folder is missing or unfinished)."""
    doc = read_json(out / "skill.json", missing_ok=True) or {}
    tables = [t.get("folder", "") for t in doc.get("tables", []) if isinstance(t, dict)]
    if not tables or tables != [f"table-{i:03d}" for i in range(len(tables))]:  # written last: unfinished
        raise SimError(f"{out} is a skill folder (sim skill) whose round robin did not finish: its skill.json, written"
                       f" at the end, lists no tables; `sim skill` has no --resume: run the same"
                       f" `sim skill ... --out {out} --force` again")
    rcs = [load_run_config(out / name) for name in tables]
    return _figures(out, doc.get("game", rcs[0].game), rcs[0].players, rcs), rcs[0].players


def write_results(out: Path, f: SkillFigures, game: str, players: int, rcs: Sequence[RunConfig]) -> None:
    """``skill.json`` (figures, ranking rows, tables) and ``skill.md`` (the text) into ``out``."""
    doc = {
        "game": game, "players": players, "seating": rcs[0].seating, "games_per_table": rcs[0].games,
        "seed": rcs[0].seed, "tables": [{"folder": f"table-{i:03d}", "strategies": list(rc.labels)} for i, rc in enumerate(rcs)],
        "games_played": f.played, "complete_games": f.games, "baseline": f.baseline, "best": f.best,
        "skill_depth": f.depth, "skill_depth_ci": [f.depth_low, f.depth_high],
        "upsets": f.upsets, "decisive_pairs": f.pairs, "upset_rate": f.upset_rate,
        "upset_rate_ci": [f.upset_low, f.upset_high], "ranking": f.ranking.to_dicts(), "head_to_head": f.h2h,
    }
    (out / "skill.json").write_text(json.dumps(doc, indent=2, default=str) + "\n")
    head = [f"# Skill depth: {game}, {players} players", "",
            f"{len(rcs)} tables of {rcs[0].games} games ({rcs[0].seating} seating, seed {rcs[0].seed}); "
            f"{f.games} complete games.", "", "```"]
    (out / "skill.md").write_text("\n".join([*head, *skill_text(f, players), "```", ""]))
