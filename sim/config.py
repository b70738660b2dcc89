"""Run configs: a YAML file naming the game, seats' strategies, options, data files and seed.

``load_config(path)`` validates everything a run needs before any game is played and raises
``SimError`` naming the file, line and key of the first problems found (exit status 2).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, model_validator

from .api import OptionError, SimError, no_coercion
from .data import Located, format_validation, read_json, read_yaml
from .registry import check_plays, get_game, make_strategy, resolve_strategy


class StrategySpec(BaseModel):
    """One seat's strategy: a registry name or import string, its params, an optional label."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)
    label: str | None = Field(None, min_length=1, max_length=80, pattern=r"^[^\n\r\t]+$")


class CheckSpec(BaseModel):
    """One nightly check: a threshold, and whether the estimate (``strict: true``, default) or the
    whole 95% interval (``strict: false``) must break it to fail. A bare number means ``{threshold: N}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    threshold: float = Field(ge=0)
    strict: bool = True

    @model_validator(mode="before")
    @classmethod
    def _bare_number(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return {"threshold": value}
        return no_coercion(cls, value)


class Checks(BaseModel):
    """The ``checks:`` of a config (``sim check``); an unknown name is an error naming its key.

    Proportions (win rates, shares, advantage, Ludii figures) are given in [0, 1];
    ``max_failed_games`` is a count of games.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    max_seat_win_rate: CheckSpec | None = None
    min_seat_win_rate: CheckSpec | None = None
    max_strategy_win_rate: CheckSpec | None = None
    min_strategy_win_rate: CheckSpec | None = None
    max_first_player_advantage: CheckSpec | None = None
    max_truncated_share: CheckSpec | None = None
    max_failed_games: CheckSpec | None = None
    min_balance: CheckSpec | None = None
    max_drawishness: CheckSpec | None = None
    min_completion: CheckSpec | None = None


PROPORTION_CHECKS = tuple(n for n in Checks.model_fields if n != "max_failed_games")


class Config(BaseModel):
    """The validated config file (see README "Configs")."""

    model_config = ConfigDict(extra="forbid")
    game: str
    players: StrictInt = Field(ge=1)
    games: StrictInt = Field(ge=1, le=10**9)
    seed: StrictInt = Field(ge=0, lt=2**63)
    strategies: list[StrategySpec] = Field(min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)
    data: dict[str, str] = Field(default_factory=dict)
    seating: Literal["rotate", "fixed"] = "rotate"
    jobs: StrictInt = Field(1, ge=1, le=1024)
    chunk_size: StrictInt | None = Field(None, ge=1)
    output: str | None = None
    sweep: dict[str, list[Any]] | None = None
    checks: Checks | None = None


class RunConfig(BaseModel):
    """A config resolved for running: labels unique, data paths absolute, options complete.

    This is the only thing that crosses process boundaries (as JSON).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    game: str
    players: int
    games: int
    seed: int
    strategies: tuple[StrategySpec, ...]
    labels: tuple[str, ...]
    options: dict[str, Any]
    data: dict[str, str]
    seating: Literal["rotate", "fixed"]
    jobs: int
    chunk_size: int | None
    output: str | None
    source: str = ""  # the config file, absolute: replay and resume find modules next to it from any folder
    sweep: dict[str, list[Any]] = Field(default_factory=dict)
    checks: dict[str, CheckSpec] = Field(default_factory=dict)

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        return cls.model_validate_json(text)


def add_config_folder(rc: RunConfig) -> None:
    """Let import strings name modules kept next to the config file (``mystrats:Greedy``); run
    folders store the config's absolute path, so this works from any folder (replay, resume)."""
    if rc.source:
        folder = str(Path(rc.source).resolve().parent)
        if folder not in sys.path:
            sys.path.append(folder)


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


def build_game(rc: RunConfig) -> Any:
    """Construct the game of a resolved config (validates options and data files)."""
    cls = get_game(rc.game)
    return cls.build(rc.players, rc.options, {k: Path(v) for k, v in rc.data.items()})


def resolve(doc: Located, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Validate a parsed config document (plus CLI overrides) into a ``RunConfig``.

    Raises ``SimError`` with file, line, key and the expected value for every problem.
    """
    raw = dict(doc.value) if isinstance(doc.value, dict) else doc.value
    if not isinstance(raw, dict):
        raise SimError(f"{doc.source}: a config must be a mapping of keys (game, players, ...), got {type(raw).__name__}")
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    flags = {k for k, v in (overrides or {}).items() if v is not None}
    try:
        cfg = Config.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            key = err["loc"][0] if err["loc"] else None
            if key in flags:  # the value came from the command line, not the file
                lines.append(f"command line --{key} {raw[key]}: {err['msg']}")
        if lines:
            raise SimError("\n".join(lines)) from None
        text = format_validation(exc, doc)
        if any(e["type"] == "missing" and e["loc"][0] in ("games", "seed") for e in exc.errors()):
            text += "\n(games and seed may also be given on the command line: --games N, --seed S)"
        raise SimError(text) from None
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
    if doc.source:
        folder = str(Path(doc.source).resolve().parent)
        if folder not in sys.path:
            sys.path.append(folder)
    for i, spec in enumerate(cfg.strategies):
        try:
            check_plays(resolve_strategy(spec.name), spec.name, cfg.game)
        except SimError as exc:
            raise SimError(f"{doc.where(('strategies', i, 'name'))}: {exc}") from None
        try:
            make_strategy(spec.name, spec.params, cfg.game)
        except SimError as exc:
            key = getattr(exc, "key", "")
            path = ("strategies", i, "params") + ((key,) if key in spec.params else ())
            raise SimError(f"{doc.where(path)}: {exc}") from None
    labels = _labels(cfg.strategies)
    if len(set(labels)) < len(labels) and len(set(labels)) < len({(s.name, repr(s.params)) for s in cfg.strategies}):
        dup = next(lab for lab in labels if labels.count(lab) > 1)
        raise SimError(f"{doc.where(('strategies',))}: label '{dup}' names two different strategies; labels must"
                       " tell strategies apart in the tables")
    try:
        options = cls.Options(**cfg.options).model_dump()
    except ValidationError as exc:
        raise SimError(format_validation(exc, doc, ("options",))) from None
    base = Path(doc.source).parent if doc.source else Path(".")
    data = {}
    for key, value in cfg.data.items():
        path = Path(value) if Path(value).is_absolute() else (base / value)
        if not path.is_file():
            raise SimError(f"{doc.where(('data', key))}: data file '{value}' not found (looked at {path})")
        data[key] = str(path.resolve())
    checks = {k: v for k, v in (cfg.checks.model_dump() if cfg.checks else {}).items() if v is not None}
    for name, spec in checks.items():
        if name in PROPORTION_CHECKS and spec["threshold"] > 1:
            raise SimError(f"{doc.where(('checks', name))}: {name} is a proportion in [0, 1] (0.35 means 35%),"
                           f" got {spec['threshold']}")
    rc = RunConfig(
        game=cfg.game, players=cfg.players, games=cfg.games, seed=cfg.seed,
        strategies=tuple(cfg.strategies), labels=labels, options=options, data=data,
        seating=cfg.seating, jobs=cfg.jobs, chunk_size=cfg.chunk_size, output=cfg.output,
        source=str(Path(doc.source).resolve()) if doc.source else "",
        sweep=cfg.sweep or {}, checks=checks,
    )
    try:
        build_game(rc)
    except OptionError as exc:
        raise SimError(f"{doc.where(('options', exc.key))}: {exc}") from None
    except (SimError, ValueError) as exc:  # data files, or options that only make sense together
        about_data = bool(cfg.data) and (not cfg.options or "data" in str(exc) or any(v in str(exc) for v in data.values()))
        key = ("data",) if about_data else ("options",)
        raise SimError(f"{doc.where(key)}: {exc}") from None
    if rc.sweep:
        from .experiment import validate_sweep

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
