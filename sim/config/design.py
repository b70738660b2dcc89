"""The ``tune:`` and ``discover:`` sections of a config (``sim tune``, ``sim discover``), validated
into plain plans: the parameters and their ranges, the target, and the game budgets.

Parameters are addressed as sweep keys (``options.end_tokens``, ``data.cards.per_colour.0.count``,
``strategies.1.params.min_goods``, ``players``; see ``config.grid``). A range is written
``[low, high]`` (two integers: every integer between; two numbers with a dot: a float range),
``{int: [low, high]}``, ``{float: [low, high]}`` or ``{choice: [a, b, ...]}``.
"""

from __future__ import annotations

import math
import tempfile
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, StrictInt, ValidationError

from ..api import SimError, StrictModel
from ..data import Located, format_validation, quote
from ..registry import resolve_strategy
from .data_paths import in_source
from .grid import _check_key, _message, data_doc, listed, point_config
from .models import RunConfig, build_game, did_you_mean
from .plugin_params import params_model


@dataclass(frozen=True)
class Param:
    """One parameter searched: its key, ``kind`` (int, float or choice), bounds or choices."""

    key: str
    kind: str
    low: float = 0
    high: float = 0
    choices: tuple = ()

    def values(self) -> list:
        """Every value of an int or choice parameter (for the grid sampler)."""
        return list(self.choices) if self.kind == "choice" else list(range(int(self.low), int(self.high) + 1))

    @property
    def size(self) -> float:
        return len(self.choices) if self.kind == "choice" else (self.high - self.low + 1 if self.kind == "int" else math.inf)


@dataclass(frozen=True)
class Target:
    """What ``sim tune`` aims at: ``kind`` is ``metric`` (mean of ``column`` -> ``value``),
    ``first_player_advantage`` (-> ``value``), ``seat_spread`` (-> as small as possible) or
    ``strategy_gap`` (win rate of ``pair[0]`` minus ``pair[1]`` -> 0)."""

    kind: str
    value: float = 0.0
    column: str = ""
    pair: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.kind == "metric":
            return f"mean {self.column} = {self.value:g}"
        if self.kind == "seat_spread":
            return "smallest seat spread (largest minus smallest seat win rate)"
        if self.kind == "strategy_gap":
            return f"win rate of {self.pair[0]} minus {self.pair[1]} = 0"
        return f"first-player advantage = {self.value * 100:g} points"


@dataclass
class Budget:
    """Games per trial: ``min_games`` first, times ``eta`` for the best 1/eta, up to ``max_games``;
    the best value is confirmed on ``confirm_games`` games with fresh seeds."""

    min_games: int
    max_games: int
    eta: int
    trials: int
    grid_max: int
    confirm_games: int

    def rungs(self) -> list[int]:
        out = [self.min_games]
        while out[-1] * self.eta <= self.max_games:
            out.append(out[-1] * self.eta)
        return out


@dataclass
class Plan:
    """A validated ``tune:`` or ``discover:`` section."""

    params: list[Param]
    budget: Budget
    target: Target | None = None
    seat: int = -1  # discover: the listed strategy optimised
    label: str = ""  # discover: its label in the tables
    margin: float = 0.1
    defaults: dict = field(default_factory=dict)


class _Common(StrictModel):
    trials: StrictInt = Field(30, ge=1, le=10_000)
    min_games: StrictInt | None = Field(None, ge=1)
    max_games: StrictInt | None = Field(None, ge=1)
    eta: StrictInt = Field(3, ge=2, le=10)
    grid_max: StrictInt = Field(64, ge=1)
    confirm_games: StrictInt | None = Field(None, ge=2)


class TuneSpec(_Common):
    """``tune:``: ``params`` (key -> range) and ``target`` (one of the forms of ``Target``)."""

    params: dict[str, Any] = Field(min_length=1)
    target: dict[str, Any]


class DiscoverSpec(_Common):
    """``discover:``: ``seat`` (index in the config's strategies list), optional range overrides."""

    seat: StrictInt = Field(0, ge=0)
    params: dict[str, Any] = Field(default_factory=dict)
    margin: float = Field(0.1, ge=0, lt=1)


def parse_range(key: str, value: Any) -> Param:
    """``[lo, hi]``, ``{int: [lo, hi]}``, ``{float: [lo, hi]}`` or ``{choice: [...]}`` -> ``Param``."""
    kind = None
    if isinstance(value, dict) and len(value) == 1:
        kind, value = next(iter(value.items()))
    if kind == "choice":
        if not isinstance(value, list) or not value:
            raise SimError("choice takes a non-empty list of values, e.g. {choice: [2, 4, 6]}")
        return Param(key, "choice", choices=tuple(value))
    ok = isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    if not ok or kind not in (None, "int", "float"):
        raise SimError("a range is [low, high], {int: [low, high]}, {float: [low, high]} or {choice: [a, b, ...]}")
    kind = kind or ("int" if all(isinstance(v, int) for v in value) else "float")
    if kind == "int" and not all(isinstance(v, int) for v in value):
        raise SimError(f"an int range takes whole numbers, got {value}")
    if not value[0] < value[1]:
        raise SimError(f"the low end must be below the high end, got {value}")
    return Param(key, kind, value[0], value[1])


def _target(spec: dict, rc: RunConfig, doc: Located | None = None) -> Target:
    forms = ("{first_player_advantage: 0}, {seat_spread: min}, {strategy_gap: [A, B]} or"
             " {metric: COLUMN, value: X}")
    keys = set(spec)
    if keys == {"metric", "value"} and isinstance(spec["metric"], str) and _number(spec["value"]):
        low, high = _checked(doc, "tune", "target.metric", _metric_range, rc, spec["metric"])
        value = _checked(doc, "tune", "target.value", _within, spec["value"], low, high, f"mean {spec['metric']}")
        return Target("metric", value, column=spec["metric"])
    if keys == {"first_player_advantage"} and _number(spec["first_player_advantage"]):
        # seat 0's win rate w (in [0, 1]) minus the pooled share (w + o) / n, o the other seats' wins
        # (in [0, n - 1]): w (1 - 1/n) - o/n lies in [-(1 - 1/n), 1 - 1/n] (breaker 12: 0.9 with 2 players)
        most = 1 - 1 / int(rc.players)
        return Target("first_player_advantage", _checked(
            doc, "tune", "target.first_player_advantage", _within, spec["first_player_advantage"], -most, most,
            f"a first-player advantage with {rc.players} players (seat 0's win rate minus the pooled share)"))
    if keys == {"seat_spread"} and spec["seat_spread"] == "min":
        return Target("seat_spread")
    if keys == {"strategy_gap"} and isinstance(spec["strategy_gap"], list) and len(spec["strategy_gap"]) == 2:
        pair = tuple(str(s) for s in spec["strategy_gap"])
        missing = [s for s in pair if s not in rc.labels]
        if missing:
            raise SimError(f"strategy_gap names {missing[0]!r}, not a strategy of the config ({', '.join(rc.labels)})")
        if pair[0] == pair[1]:  # breaker 12: a strategy's gap to itself is 0 whatever the rules
            raise SimError(f"strategy_gap needs two different strategies, got {pair[0]!r} twice (its gap to itself is"
                           f" always 0); the config's strategies: {', '.join(dict.fromkeys(rc.labels))}")
        return Target("strategy_gap", 0.0, pair=pair)
    raise SimError(f"a target is {forms}; got {spec!r}")


# games.parquet columns every run has: the numeric ones with the range their mean can take
# (sim.play: counts are >= 0, flags are 0/1, so their means are shares in [0, 1]), and the others
BASE_COLUMNS = {"game_index": (0, math.inf), "n_decisions": (0, math.inf), "n_winners": (0, math.inf),
                "deal_index": (0, math.inf), "truncated": (0, 1), "failed": (0, 1)}
TEXT_COLUMNS = {"end_reason": "text", "winners": "a list of seats"}


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _within(value: float, low: float, high: float, what: str) -> float:
    """``value`` as a float when it is finite and in ``[low, high]``, else ``SimError``."""
    if not math.isfinite(value):
        raise SimError(f"the target value must be a finite number, got {value!r}")
    if not low <= value <= high:
        span = f"at least {low:g}" if high == math.inf else f"between {low:g} and {high:g}"
        raise SimError(f"{what} is always {span}, so a target of {value:g} can never be reached")
    return float(value)


def _metric_range(rc: RunConfig, column: str) -> tuple[float, float]:
    """The range of a numeric ``games.parquet`` column's mean: the base columns' (``BASE_COLUMNS``)
    or, for a game's own summary figures (read from ``summary()`` of a fresh state, no game
    played), unbounded. ``SimError`` for a text column or an unknown one (did you mean ...?)."""
    if column == "n_winners":  # breaker 12: at most every seat wins a game
        return 0, int(rc.players)
    if column in BASE_COLUMNS:
        return BASE_COLUMNS[column]
    if column in TEXT_COLUMNS:
        raise SimError(f"column '{column}' of games.parquet holds {TEXT_COLUMNS[column]}, not numbers; a metric is"
                       f" a numeric column: {', '.join(_numeric_columns(rc))}")
    numeric = _numeric_columns(rc)
    if column not in numeric:
        raise SimError(f"games.parquet has no numeric column '{column}'{did_you_mean(column, numeric)}; the numeric"
                       f" columns are: {', '.join(numeric)}")
    return -math.inf, math.inf


def _numeric_columns(rc: RunConfig) -> list[str]:
    game = build_game(rc)
    try:
        own = list(game.summary(game.new_initial_state())) if hasattr(game, "summary") else []
    except Exception:  # noqa: BLE001 - a summary that needs a finished game: its columns are unknown here
        own = []
    return [*BASE_COLUMNS, *own]


def _budget(spec: _Common, rc: RunConfig) -> Budget:
    lo = spec.min_games or rc.games
    hi = spec.max_games or lo * spec.eta ** 2
    if hi < lo:
        raise SimError(f"max_games ({hi}) is below min_games ({lo})")
    return Budget(lo, hi, spec.eta, spec.trials, spec.grid_max, spec.confirm_games or hi)


class _Located(SimError):
    """A ``SimError`` already naming its file, line and key (an outer ``_checked`` keeps it)."""


def _checked(doc: Located | None, section: str, key: str | tuple, fn, *args) -> Any:
    """``fn(*args)``, its ``SimError``/``ValueError`` named by file, line and key (``key``: a
    dotted path, or a tuple of path parts when a part holds dots itself, as a parameter key does)."""
    try:
        return fn(*args)
    except _Located:
        raise
    except (SimError, ValueError) as exc:
        parts = key if isinstance(key, tuple) else tuple(key.split("."))
        where = doc.where((section, *parts)) if doc is not None else ".".join((section, *map(str, parts)))
        raise _Located(f"{where}: {_message(exc)}") from None


def _spec(model: type[BaseModel], rc: RunConfig, doc: Located | None, section: str) -> Any:
    raw = getattr(rc, section)
    if not raw:
        raise SimError(f"{doc.source if doc else 'the config'}: no '{section}:' section; see `sim {section} --help`")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        if doc is None:
            raise SimError(str(exc)) from None
        # "did you mean" for a misspelt key of the section (fresh-user 3, session 5)
        from .suggest import suggest

        lines = suggest(exc, format_validation(exc, doc, (section,)), lambda loc: model.model_fields if not loc else ())
        raise SimError("\n".join(lines)) from None


def _check_ends(rc: RunConfig, p: Param) -> None:
    """Each end of a range (each choice) alone must make a valid game; a float range must also
    take a value with a fraction (else the key takes whole numbers: ``SimError`` saying so)."""
    ends = p.choices if p.kind == "choice" else ((int(p.low), int(p.high)) if p.kind == "int" else (p.low, p.high))
    with tempfile.TemporaryDirectory() as tmp:
        for v in ends:
            try:
                point_config(rc, {p.key: v}, Path(tmp), 0)
            except (SimError, ValueError) as exc:
                what = f"choice {quote(v)}" if p.kind == "choice" else f"{p.kind} range end {v!r}"
                text = in_source(_message(exc), tmp, p.key, v, lambda fk: data_doc(rc, fk))
                raise SimError(f"{what} does not fit this key: {text}") from None
        if p.kind == "float":
            inside = p.low + (p.high - p.low) / math.pi  # not a whole number
            try:
                point_config(rc, {p.key: inside}, Path(tmp), 0)
            except (SimError, ValueError):
                raise SimError(f"a float range on a key that takes whole numbers ({inside:.4g} is refused); write an"
                               f" integer range such as [{math.ceil(p.low)}, {math.floor(p.high)}]") from None


def tune_plan(rc: RunConfig, doc: Located | None = None) -> Plan:
    """The validated ``tune:`` section of ``rc``. ``SimError`` names the file, line and key of
    every problem found, one per line (each parameter, the target and the budget checked alone)."""
    spec = _spec(TuneSpec, rc, doc, "tune")
    errors: list[str] = []
    params = [_gathered(errors, _tune_param, rc, doc, key, value) for key, value in spec.params.items()]
    target = _gathered(errors, _checked, doc, "tune", "target", _target, spec.target, rc, doc)
    budget = _gathered(errors, _checked, doc, "tune", "max_games", _budget, spec, rc)
    if errors:
        raise SimError("\n".join(errors))
    return Plan(params, budget, target)


def _tune_param(rc: RunConfig, doc: Located | None, key: str, value: Any) -> Param:
    _checked(doc, "tune", ("params", key), _check_key, rc, key)
    p = _checked(doc, "tune", ("params", key), parse_range, key, value)
    _checked(doc, "tune", ("params", key), _check_ends, rc, p)
    return p


def _gathered(errors: list[str], fn, *args) -> Any:
    """``fn(*args)``, or None with its ``SimError`` appended to ``errors`` (so that one bad key of
    a section does not hide the next)."""
    try:
        return fn(*args)
    except SimError as exc:
        errors.append(str(exc))
        return None


def _default_range(name: str, info: Any) -> Param | None:
    """A strategy parameter's range from its pydantic field: bool and Literal -> choice; numbers ->
    their ``ge``/``le`` bounds, else [lower bound, 2 x default + 2]. None when it cannot be searched."""
    ann, default = info.annotation, info.default
    if ann is bool:
        return Param(name, "choice", choices=(False, True))
    if typing.get_origin(ann) is Literal:
        return Param(name, "choice", choices=tuple(typing.get_args(ann)))
    if ann not in (int, float) or not isinstance(default, (int, float)):
        return None
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else (
            getattr(m, "gt", None) if getattr(m, "gt", None) is not None else lo)
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else (
            getattr(m, "lt", None) if getattr(m, "lt", None) is not None else hi)
    lo = min(0, default) if lo is None else lo
    hi = max(lo + 1, 2 * default + 2) if hi is None else hi
    return Param(name, "int" if ann is int else "float", lo, hi)


def discover_plan(rc: RunConfig, doc: Located | None = None) -> Plan:
    """The validated ``discover:`` section: the space is the seat strategy's documented ``Params``
    (``_default_range``), ranges overridable in ``discover.params``. ``SimError`` names file, line, key."""
    spec = _spec(DiscoverSpec, rc, doc, "discover")
    specs = listed(rc)
    if spec.seat >= len(specs):
        raise SimError(f"{doc.where(('discover', 'seat')) if doc else 'discover.seat'}: the config lists"
                       f" {len(specs)} strategies (0..{len(specs) - 1}), not {spec.seat}")
    target = specs[spec.seat]
    if sum(s == target for s in rc.strategies) > 1:
        raise SimError(f"discover.seat {spec.seat} ({target.name}) fills several seats; list each seat's strategy"
                       " so that the one optimised plays one seat")
    model = params_model(resolve_strategy(target.name))  # a Params model, or a plugin's keyword defaults
    fields = model.model_fields if model is not None else {}
    params = {}
    for name, info in fields.items():
        p = _default_range(name, info)
        if p is not None:
            params[name] = p
    errors: list[str] = []
    for name, value in spec.params.items():
        p = _gathered(errors, _discover_param, rc, doc, spec.seat, target.name, fields, name, value)
        if p is not None:
            params[name] = p
    budget = _gathered(errors, _checked, doc, "discover", "max_games", _budget, spec, rc)
    if errors:
        raise SimError("\n".join(errors))
    if not params:
        where = doc.where(("discover", "seat")) if doc is not None else "discover.seat"
        raise SimError(f"{where}: strategy '{target.name}' (seat {spec.seat}) documents no numeric, flag or choice"
                       " parameter to search; discover needs a strategy with parameters (`sim list strategies`)")
    out = [Param(f"strategies.{spec.seat}.params.{n}", p.kind, p.low, p.high, p.choices) for n, p in params.items()]
    defaults = {p.key: fields[n].get_default(call_default_factory=True) for n, p in zip(params, out, strict=True)}
    defaults.update({f"strategies.{spec.seat}.params.{k}": v for k, v in target.params.items()})
    label = rc.labels[list(rc.strategies).index(target)]
    return Plan(out, budget, None, spec.seat, label, spec.margin, defaults)


def _discover_param(rc: RunConfig, doc: Located | None, seat: int, strategy: str, fields: dict, name: str,
                    value: Any) -> Param:
    """One ``discover.params`` range override, checked against the strategy's documented ``Params``."""
    if name not in fields:
        raise SimError(f"{doc.where(('discover', 'params', name)) if doc else name}: '{strategy}' has no"
                       f" documented parameter '{name}' (it takes: {', '.join(fields) or 'none'})")
    p = _checked(doc, "discover", ("params", name), parse_range, f"strategies.{seat}.params.{name}", value)
    _checked(doc, "discover", ("params", name), _check_ends, rc, p)
    return Param(name, p.kind, p.low, p.high, p.choices)
