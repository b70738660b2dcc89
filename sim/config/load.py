"""Run configs: a YAML file naming the game, seats' strategies, options, data files and seed.

``load_config(path)`` validates everything a run needs before any game is played and raises
``SimError`` naming the file, line and key of the first problems found (exit status 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..api import OptionError, SimError
from ..data import Located, format_validation, read_json, read_yaml
from ..registry import add_module_folder, check_plays, get_game, make_strategy, resolve_strategy
from .grid import validate_sweep
from .models import MULTIPLAYER_CHECKS, PROPORTION_CHECKS, Config, RunConfig, StrategySpec, build_game


def _labels(specs: list[StrategySpec]) -> tuple[str, ...]:
    """Label per seat spec: ``label`` or the name; repeated names with different params get #2, #3."""
    out: list[str] = []
    first_params: dict[str, dict] = {}
    for spec in specs:
        label = spec.label or spec.name
        if spec.label is None and label in first_params and first_params[label] != spec.params:
            k = 2
            while f"{label}#{k}" in out:
                k += 1
            label = f"{label}#{k}"
        first_params.setdefault(label, spec.params)
        out.append(label)
    return tuple(out)


def _validated(doc: Located, overrides: dict[str, Any] | None) -> tuple[Config, dict]:
    """The file's keys plus command-line overrides, validated as a ``Config``; ``(config, raw)``."""
    raw = dict(doc.value) if isinstance(doc.value, dict) else doc.value
    if not isinstance(raw, dict):
        raise SimError(f"{doc.source}: a config must be a mapping of keys (game, players, ...), got {type(raw).__name__}")
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    flags = {k for k, v in (overrides or {}).items() if v is not None}
    try:
        return Config.model_validate(raw), raw
    except ValidationError as exc:
        lines = [f"command line --{e['loc'][0]} {raw[e['loc'][0]]}: {e['msg']}"
                 for e in exc.errors() if e["loc"] and e["loc"][0] in flags]  # the value came from the command line
        if lines:
            raise SimError("\n".join(lines)) from None
        text = format_validation(exc, doc)
        if any(e["type"] == "missing" and e["loc"][0] in ("games", "seed") for e in exc.errors()):
            text += "\n(games and seed may also be given on the command line: --games N, --seed S)"
        raise SimError(text) from None


def _game_class(doc: Located, cfg: Config) -> Any:
    """The game class, after checking the player count and one strategy per seat."""
    try:
        cls = get_game(cfg.game)
    except SimError as exc:
        raise SimError(f"{doc.where(('game',))}: {exc}") from None
    info = cls.info
    if not info.min_players <= cfg.players <= info.max_players:
        raise SimError(
            f"{doc.where(('players',))}: {info.title or info.name} takes {info.min_players}-{info.max_players}"
            f" players, not {cfg.players}"
        )
    if len(cfg.strategies) != cfg.players:
        raise SimError(
            f"{doc.where(('strategies',))}: expected one strategy per seat ({cfg.players}), got {len(cfg.strategies)}"
        )
    return cls


def _check_strategies(doc: Located, cfg: Config) -> tuple[str, ...]:
    """Build every seat's strategy once (names, params, games it plays); return the labels."""
    if doc.source:
        add_module_folder(Path(doc.source).resolve().parent)
    for i, spec in enumerate(cfg.strategies):
        try:
            check_plays(resolve_strategy(spec.name, cfg.plugins), spec.name, cfg.game)
        except SimError as exc:
            raise SimError(f"{doc.where(('strategies', i, 'name'))}: {exc}") from None
        try:
            make_strategy(spec.name, spec.params, cfg.game, plugins=cfg.plugins)
        except SimError as exc:
            key = getattr(exc, "key", "")
            path = ("strategies", i, "params") + ((key,) if key in spec.params else ())
            raise SimError(f"{doc.where(path)}: {exc}") from None
    labels = _labels(cfg.strategies)
    if len(set(labels)) < len(labels) and len(set(labels)) < len({(s.name, repr(s.params)) for s in cfg.strategies}):
        dup = next(lab for lab in labels if labels.count(lab) > 1)
        raise SimError(f"{doc.where(('strategies',))}: label '{dup}' names two different strategies; labels must"
                       " tell strategies apart in the tables")
    return labels


def _data_paths(doc: Located, cfg: Config) -> dict[str, str]:
    """Absolute paths of the replaced data files (relative paths are from the config's folder)."""
    base = Path(doc.source).parent if doc.source else Path(".")
    data = {}
    for key, value in cfg.data.items():
        path = Path(value) if Path(value).is_absolute() else (base / value)
        if not path.is_file():
            raise SimError(f"{doc.where(('data', key))}: data file '{value}' not found (looked at {path})")
        data[key] = str(path.resolve())
    return data


def _checks(doc: Located, cfg: Config) -> dict:
    checks = {k: v for k, v in (cfg.checks.model_dump() if cfg.checks else {}).items() if v is not None}
    for name, spec in checks.items():
        if name in PROPORTION_CHECKS and spec["threshold"] > 1:
            raise SimError(f"{doc.where(('checks', name))}: {name} is a proportion in [0, 1] (0.35 means 35%),"
                           f" got {spec['threshold']}")
        if cfg.players == 1 and name in MULTIPLAYER_CHECKS:
            raise SimError(f"{doc.where(('checks', name))}: {name} has no meaning in a one-player (solo) game: nobody"
                           " is beaten, so there are no win rates between seats or strategies; solo runs take"
                           " max_truncated_share, max_failed_games, min_completion and max_stalled")
    return checks


def _seating(doc: Located, cfg: Config, labels: tuple[str, ...]) -> str:
    """The config's ``seating``; when absent ``permute`` if the strategies differ, else ``rotate``."""
    seating = cfg.seating or ("permute" if len(set(labels)) > 1 else "rotate")
    if seating == "permute" and cfg.players > 6:
        where = doc.where(("seating",)) if cfg.seating else doc.where(("players",))
        raise SimError(f"{where}: seating: permute supports at most 6 seats (got {cfg.players}); use seating: rotate")
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
    except OptionError as exc:
        raise SimError(f"{doc.where(('options', exc.key))}: {exc}") from None
    except (SimError, ValueError) as exc:
        about_data = bool(cfg.data) and (not cfg.options or "data" in str(exc)
                                         or any(v in str(exc) for v in rc.data.values()))
        key = ("data",) if about_data else ("options",)
        raise SimError(f"{doc.where(key)}: {exc}") from None


def resolve(doc: Located, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Validate a parsed config document (plus CLI overrides) into a ``RunConfig``.

    Raises ``SimError`` with file, line, key and the expected value for every problem.
    """
    cfg, _ = _validated(doc, overrides)
    cls = _game_class(doc, cfg)
    labels = _check_strategies(doc, cfg)
    try:
        options = cls.Options(**cfg.options).model_dump()
    except ValidationError as exc:
        raise SimError(format_validation(exc, doc, ("options",))) from None
    rc = RunConfig(
        game=cfg.game, players=cfg.players, games=cfg.games, seed=cfg.seed,
        strategies=tuple(cfg.strategies), labels=labels, options=options, data=_data_paths(doc, cfg),
        seating=_seating(doc, cfg, labels), confidence=cfg.confidence, jobs=cfg.jobs, chunk_size=cfg.chunk_size, output=cfg.output,
        source=str(Path(doc.source).resolve()) if doc.source else "",
        sweep=cfg.sweep or {}, checks=_checks(doc, cfg), sweep_baseline=_baseline(doc, cfg),
        plugins=cfg.plugins, game_timeout_s=cfg.game_timeout_s,
    )
    _check_builds(doc, rc, cfg)
    if rc.sweep:
        validate_sweep(rc, doc)
    return rc


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Read and validate a config file; ``overrides`` (e.g. ``{"games": 100}``) replace its keys."""
    return resolve(read_yaml(path), overrides)


def dump_resolved(rc: RunConfig) -> str:
    """The resolved config as pretty JSON (stored in every run folder as ``config.json``)."""
    return json.dumps(json.loads(rc.to_json()), indent=2)


def load_run_config(out: Path) -> RunConfig:
    """The resolved config of a run folder. Raises ``SimError`` when it is not one or is damaged."""
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
    if rc.source:
        add_module_folder(Path(rc.source).resolve().parent)
