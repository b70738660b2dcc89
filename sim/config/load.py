"""Run configs: a YAML file naming the game, seats' strategies, options, data files and seed.

``load_config(path)`` validates everything a run needs before any game is played and raises
``SimError`` naming the file, line and key of every problem found at once, with a "did you
mean ...?" for misspelt keys, options and strategy names (exit status 2).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..api import OptionError, SimError, no_coercion
from ..data import Located, format_validation, read_json, read_yaml
from ..registry import (
    add_module_folder,
    games,
    get_game,
)
from ..store import need_folder
from .checks import section_checks
from .design import discover_plan, tune_plan
from .grid import data_files, validate_sweep
from .lists import short_lists
from .models import (
    COMMAND_LINE_SOURCE,
    Config,
    RunConfig,
    build_game,
    closest,
    did_you_mean,
    usable_cores,
)
from .models import seat_labels as _labels
from .overrides import with_options
from .seats import check_strategies as _check_strategies
from .seats import module_folders
from .suggest import foreign_option
from .suggest import suggest as _suggest
from .suggest import top_fields as _top_fields


def _validated(doc: Located, overrides: dict[str, Any] | None, problems: list[str]) -> tuple[Config | None, dict]:
    """The file's keys plus command-line overrides, validated as a ``Config``; ``(config, raw)``.
    ``config`` is None when invalid (its problems appended); a bad command-line value raises at once."""
    raw = dict(doc.value) if isinstance(doc.value, dict) else doc.value
    if not isinstance(raw, dict):
        raise SimError(f"{doc.source}: a config must be a mapping of keys (game, players, ...), got {type(raw).__name__}")
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    if isinstance(raw.get("strategies"), list):  # shorthand: a bare name is {name: NAME}
        raw["strategies"] = [{"name": s} if isinstance(s, str) else s for s in raw["strategies"]]
    flags = {k for k, v in (overrides or {}).items() if v is not None}
    try:
        return Config.model_validate(raw), raw
    except ValidationError as exc:
        lines = [f"command line --{e['loc'][0]} {raw[e['loc'][0]]}: {e['msg']}"
                 for e in exc.errors() if e["loc"] and e["loc"][0] in flags]  # the value came from the command line
        if lines:
            raise SimError("\n".join(lines)) from None
        text = "\n".join(_suggest(exc, format_validation(exc, doc), _top_fields))
        if any(e["type"] == "missing" and e["loc"][0] in ("games", "seed") for e in exc.errors()):
            text += "\n(games and seed may also be given on the command line: --games N, --seed S)"
        problems.append(text)
        return _usable(raw, exc), raw


def _usable(raw: dict, exc: ValidationError) -> Config | None:
    """The config without its invalid optional keys (so that the other sections can still be
    checked and every problem reported at once); None when a required key is invalid."""
    bad = {e["loc"][0] for e in exc.errors() if e["loc"]}
    if not bad or any(Config.model_fields[k].is_required() for k in bad if k in Config.model_fields):
        return None
    try:
        return Config.model_validate({k: v for k, v in raw.items() if k not in bad})
    except ValidationError:
        return None


def _game_class(doc: Located, raw: dict, problems: list[str]) -> Any:
    """The game class, after checking the player count and the number of strategies (a list shorter
    than the player count is repeated in order); None (problems appended) when unusable."""
    name = raw.get("game")
    if not isinstance(name, str):
        return None
    try:
        cls = get_game(name)
    except SimError as exc:
        problems.append(f"{doc.where(('game',))}: {exc}{did_you_mean(name, games())}")
        return None
    info, players, specs = cls.info, raw.get("players"), raw.get("strategies")
    if isinstance(players, int) and not info.min_players <= players <= info.max_players:
        problems.append(f"{doc.where(('players',))}: {info.title or info.name} takes {info.min_players}-"
                        f"{info.max_players} players, not {players}")
    elif isinstance(players, int) and isinstance(specs, list) and len(specs) > players:
        problems.append(f"{doc.where(('strategies',))}: {len(specs)} strategies for {players} seats; list at most"
                        f" one per seat (a shorter list is repeated in order to fill the seats)")
    return cls


def _seat_labels(doc: Located, cfg: Config, problems: list[str]) -> tuple[str, ...]:
    labels = _labels(cfg.strategies)
    if len(set(labels)) < len(labels) and len(set(labels)) < len({(s.name, repr(s.params)) for s in cfg.strategies}):
        dup = next(lab for lab in labels if labels.count(lab) > 1)
        problems.append(f"{doc.where(('strategies',))}: label '{dup}' names two different strategies; labels must"
                        " tell strategies apart in the tables")
    return labels


def _data_paths(doc: Located, cls: Any, given: Any, problems: list[str]) -> dict[str, str]:
    """Absolute paths of the replaced data files (relative paths are from the config's folder);
    a key the game has no data file for is reported (with the closest known one) before any path."""
    if not isinstance(given, dict):
        return {}  # reported by the Config model
    base = Path(doc.source).parent if doc.source else Path(".")
    files = data_files(cls)[1]
    data = {}
    for key, value in given.items():
        if not isinstance(value, str):
            continue  # reported by the Config model
        if files and key not in files:  # (a game without DATA_FILES is left to its own data reader)
            close = closest(key, files)
            problems.append(f"{doc.where(('data', key))}: unknown data file key '{key}'"
                            + (f"; did you mean '{close}'?" if close else "")
                            + f" ({cls.info.title or cls.info.name} takes: {', '.join(files)})")
            continue
        path = Path(value) if Path(value).is_absolute() else (base / value)
        kept = base / "data" / f"{key}.yaml"  # a run folder's config.yaml: the run's own copy (fresh-user finding 3)
        if (base / "config.json").is_file() and (base / "manifest.json").is_file() and kept.is_file():
            path = kept
        if path.is_dir():  # (not "not found": designer finding 3, session 8)
            problems.append(f"{doc.where(('data', key))}: '{value}' is a folder ({path}); a data file (YAML) is"
                            f" expected, e.g. {Path(value) / files.get(key, key + '.yaml')}")
            continue
        if not path.is_file():
            problems.append(f"{doc.where(('data', key))}: data file '{value}' not found (looked at {path})")
            continue
        data[key] = str(path.resolve())
    return data


def _seating(doc: Located, cfg: Config, labels: tuple[str, ...], problems: list[str]) -> str:
    """The config's ``seating``; when absent ``permute`` if the strategies differ, else ``rotate``."""
    seating = cfg.seating or ("permute" if len(set(labels)) > 1 else "rotate")
    if seating == "permute" and cfg.players > 6:
        where = doc.where(("seating",)) if cfg.seating else doc.where(("players",))
        problems.append(f"{where}: seating: permute supports at most 6 seats (got {cfg.players}); use seating: rotate")
        return "rotate"
    return seating


def _baseline(doc: Located, cfg: Config) -> dict | int | None:
    """``sweep_baseline:``: a point's index in the grid (0 = the first) or its values
    (``{options.end_tokens: 8}``); checked against ``sweep:``."""
    base, grid = cfg.sweep_baseline, cfg.sweep or {}
    if base is None:
        return None
    where = doc.where(("sweep_baseline",))
    if not grid:
        raise SimError(f"{where}: sweep_baseline needs a 'sweep:' grid")
    if isinstance(base, int):
        size = 1
        for values in grid.values():
            size *= len(values)
        if not 0 <= base < size:
            raise SimError(f"{where}: sweep_baseline {base} is not a point index of the grid (0 to {size - 1})")
        return base
    for key, value in base.items():
        if key not in grid:
            raise SimError(f"{where}: '{key}' is not a key of sweep: ({', '.join(grid)})")
        if value not in grid[key]:
            raise SimError(f"{where}: {key} = {value!r} is not one of the swept values {grid[key]}")
    return dict(base)


def _check_builds(doc: Located, rc: RunConfig, cfg: Config) -> None:
    """Build the game once: options that only make sense together, and data files, are checked here."""
    try:
        build_game(rc)
    except OptionError as exc:  # an option the file does not set is named at the key it conflicts with
        given = isinstance(cfg.options, dict) and exc.key in cfg.options
        where = ("options", exc.key) if given or not exc.also else (exc.also,)
        raise SimError(f"{doc.where(where)}: {exc}") from None
    except (SimError, ValueError) as exc:
        about_data = bool(cfg.data) and (not cfg.options or "data" in str(exc)
                                         or any(v in str(exc) for v in rc.data.values()))
        key = ("data",) if about_data else ("options",)
        raise SimError(f"{doc.where(key)}: {exc}") from None


def _options(doc: Located, cls: Any, options: Any, problems: list[str]) -> dict | None:
    """The game's complete options (defaults filled in), every problem appended with suggestions:
    each value pydantic would convert, then every other error of the model. When some are invalid,
    the valid ones (``_the_valid``), so that the game is still built and checked; None when unusable."""
    if not isinstance(options, dict):
        return None  # reported by the Config model
    model, named = cls.Options, lambda loc: cls.Options.model_fields
    converted, foreign = short_lists(doc, model, options, problems), lambda key: foreign_option(key, cls.info.name)
    for key, value in options.items():
        if key in converted:
            continue  # its length is wrong: said once, plainly
        try:
            no_coercion(model, {key: value})
        except ValueError:
            converted.append(key)
            try:
                model.model_validate({key: value})
            except ValidationError as exc:
                problems.extend(_suggest(exc, format_validation(exc, doc, ("options",)), named, foreign))
    try:
        return model(**{k: v for k, v in options.items() if k not in converted}).model_dump()
    except ValidationError as exc:
        lines = _suggest(exc, format_validation(exc, doc, ("options",)), named, foreign)
        # with values left out, an error about the options together may come from their absence
        problems.extend(line for line, err in zip(lines, exc.errors(), strict=False) if err["loc"] or not converted)
        return _the_valid(model, options, converted + [e["loc"][0] for e in exc.errors() if e["loc"]])


def _the_valid(model: Any, options: dict, bad: list) -> dict | None:
    """The options without the ``bad`` keys (their errors are reported), so that building the game
    still checks the others (one mistake does not hide another); None when they do not validate."""
    try:
        return model(**{k: v for k, v in options.items() if k not in bad}).model_dump()
    except ValidationError:
        return None


def _first_problems(doc: Located, overrides: dict[str, Any] | None) -> tuple[Config | None, Any, dict | None, list]:
    """Everything that can be checked key by key, all at once: ``(config, game class, options, problems)``.
    The config is None when the rest cannot be checked (no game, a bad required key or player count);
    options are None when invalid; invalid data files are left out of the config's ``data``."""
    problems: list[str] = []
    cfg, raw = _validated(doc, overrides, problems)
    before = len(problems)
    cls = _game_class(doc, raw, problems)
    if cls is None:
        return None, None, None, problems
    bad_game = len(problems) > before
    said = doc.where(("players",))
    if any(p.startswith(said) for p in problems[before:]):  # the game's range says it better than "at least 1"
        kept = ["\n".join(x for x in p.split("\n") if not x.startswith(said)) for p in problems[:before]]
        problems[:before] = [p for p in kept if p]
    options = _options(doc, cls, raw.get("options", {}), problems)
    if isinstance(raw.get("strategies"), list):
        _check_strategies(doc, cls.info.name, raw["strategies"], problems, raw.get("plugins") is not False)
    data = _data_paths(doc, cls, raw.get("data"), problems)
    if cfg is None or bad_game:
        return None, cls, options, problems
    return cfg.model_copy(update={"data": data}), cls, options, problems


def _sections(doc: Located, rc: RunConfig, cfg: Config, problems: list[str]) -> None:
    """The game built once, then ``sweep:``, ``tune:`` and ``discover:``, each section's problem
    appended so that one does not hide the others (all need a game that builds)."""
    checks = [(validate_sweep, rc.sweep), (tune_plan, rc.tune), (discover_plan, rc.discover)]
    try:
        _check_builds(doc, rc, cfg)
    except SimError as exc:
        problems.append(str(exc))
        return
    for fn, section in checks:
        if not section:
            continue
        try:
            fn(rc, doc)
        except (SimError, ValueError) as exc:
            problems.append(str(exc))


def resolve(doc: Located, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Validate a parsed config document (plus CLI overrides) into a ``RunConfig``.

    A ``strategies`` list shorter than ``players`` is repeated in order to fill the seats.
    Raises ``SimError`` listing every problem found (one per line: file, line, key, the expected
    value and, for a misspelt key, option or strategy name, the closest known one). A config
    written from command-line flags (``sim run --game``) is named by its keys, not by lines.
    """
    if doc.source == COMMAND_LINE_SOURCE:
        doc = Located(doc.value, doc.source, {})
    cfg, cls, options, problems = _first_problems(doc, overrides)
    if cfg is None or cls is None:
        raise SimError("\n".join(problems) or f"{doc.where(('game',))}: required key is missing")
    seats = [cfg.strategies[i % len(cfg.strategies)] for i in range(cfg.players)]
    full = cfg.model_copy(update={"strategies": seats})
    labels = _seat_labels(doc, full, problems)
    baseline = _checked_baseline(doc, cfg, problems)
    rc = RunConfig(
        game=cfg.game, players=cfg.players, games=cfg.games, seed=cfg.seed,
        strategies=tuple(seats), labels=labels, options=cls.Options().model_dump() if options is None else options,
        data=cfg.data, seating=_seating(doc, full, labels, problems), confidence=cfg.confidence,
        jobs=cfg.jobs or usable_cores(), chunk_size=cfg.chunk_size, output=cfg.output,
        source=str(Path(doc.source).resolve()) if doc.source else "", sweep=cfg.sweep or {},
        checks=section_checks(doc, cfg, labels, problems), sweep_baseline=baseline,
        listed=len(cfg.strategies) if len(cfg.strategies) < cfg.players else 0,
        tune=cfg.tune or {}, discover=cfg.discover or {}, plugins=cfg.plugins, game_timeout_s=cfg.game_timeout_s,
    )
    _sections(doc, rc, cfg, problems)  # invalid options at their defaults, invalid data files left out
    if problems:
        raise SimError("\n".join(problems))
    return rc


def _checked_baseline(doc: Located, cfg: Config, problems: list[str]) -> dict | int | None:
    try:
        return _baseline(doc, cfg)
    except SimError as exc:
        problems.append(str(exc))
        return None


def load_config(path: str | Path, overrides: dict[str, Any] | None = None, options: dict | None = None) -> RunConfig:
    """Read and validate a config file; ``overrides`` (e.g. ``{"games": 100}``) replace its keys;
    ``options`` (``--option KEY=VALUE``) replace or add to its ``options:`` (``with_options``)."""
    return resolve(with_options(read_yaml(path), options), overrides)


def dump_resolved(rc: RunConfig) -> str:
    """The resolved config as pretty JSON (stored in every run folder as ``config.json``)."""
    return json.dumps(json.loads(rc.to_json()), indent=2)


def load_run_config(out: Path) -> RunConfig:
    """The resolved config of a run folder. Raises ``SimError`` when it is not one or is damaged."""
    need_folder(out)
    cfg = out / "config.json"
    if not cfg.is_file():
        raise SimError(f"'{out}' is not a run folder (no config.json)")
    try:
        return RunConfig.model_validate(read_json(cfg))
    except ValueError as exc:
        first = str(exc).splitlines()[0]
        raise SimError(f"{cfg}: not a valid run config ({first}); was it edited by hand?") from None


def add_config_folder(rc: RunConfig) -> None:
    """Let import strings name modules kept next to the config file (``mystrats:Greedy``); run
    folders store the config's absolute path, so this works from any folder (replay, resume)."""
    add_module_folder(os.pathsep.join(map(str, module_folders(rc.source))))
