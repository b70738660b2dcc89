"""The ground every layer stands on: the engine protocol, the strategy protocol, errors, and strict
models for options and config values (the one game loop is ``sim.play.play_game``).

Names follow OpenSpiel's vocabulary (see ../shared/DESIGN.md "Engine protocol"):
a *game* is a stateless forward model, a *state* is plain picklable data that only
`Game.apply_action` changes, `current_player` is a seat, ``CHANCE`` or ``TERMINAL``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from types import UnionType
from typing import Any, ClassVar, Protocol, Union, get_args, get_origin, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.lazy import LazyObservation, StaleObservationError, close_view, keep, lazy  # noqa: F401  (the protocol's views)

CHANCE = -1
TERMINAL = -2

Action = Any  # a small frozen dataclass, one class per kind of move
Observation = Any  # a frozen dataclass holding what one seat may know


class SimError(Exception):
    """A user-facing error (bad config, data file, CLI input): printed without traceback, exit status 2."""


class ParamsError(SimError):
    """Bad strategy params; ``key`` names the first parameter at fault ("" when none is named)."""

    def __init__(self, message: str, key: str = ""):
        super().__init__(message)
        self.key = key


class OptionError(ValueError):
    """An option value a game cannot be played with (e.g. more cards dealt than the deck holds);
    ``key`` names the option, so the config error points at ``options.<key>``; ``also``: the
    config key the option conflicts with (e.g. ``players``), named when the file does not set ``key``."""

    def __init__(self, key: str, message: str, also: str | None = None):
        super().__init__(message)
        self.key, self.also = key, also


def bound_option(key: str, value: int, maximum: int, why: str) -> None:
    """Raise ``OptionError`` when option ``key`` is above ``maximum`` (``why``: what limits it)."""
    if value > maximum:
        raise OptionError(key, f"{key} is at most {maximum} {why}, got {value}")


class IllegalActionError(RuntimeError):
    """Raised by the game loop when a strategy returns an action that is not legal (DESIGN principle 5).

    ``seat`` is the seat whose strategy chose it.
    """

    def __init__(self, seat: int, message: str):
        super().__init__(message)
        self.seat = seat


@dataclass(frozen=True)
class GameInfo:
    """Static description of a game: registry name, engine version, player range, rulebook source."""

    name: str
    version: str
    min_players: int
    max_players: int
    title: str = ""
    source: str = ""


@runtime_checkable
class Game(Protocol):
    """A stateless forward model. Built from validated options and rule data; holds no per-game state."""

    info: ClassVar[GameInfo]
    num_players: int

    def new_initial_state(self) -> Any: ...
    def current_player(self, state: Any) -> int: ...
    def legal_actions(self, state: Any) -> tuple[Action, ...]: ...
    def chance_outcomes(self, state: Any) -> tuple[tuple[Action, float], ...]: ...
    def apply_action(self, state: Any, action: Action) -> None: ...
    def observe(self, state: Any, seat: int) -> Observation: ...
    def scores(self, state: Any) -> tuple[float, ...]: ...
    def winners(self, state: Any) -> frozenset[int]: ...


class EngineBase:
    """Shared plumbing of the game classes: the player-count check and ``build`` from raw config
    values. Subclasses set ``info``, ``Options`` and ``load_data`` (a staticmethod reading the
    game's data files, ``SimError`` on bad data)."""

    info: ClassVar[GameInfo]
    Options: ClassVar[type]

    @classmethod
    def build(cls, num_players: int, options: dict | None = None, data_paths: dict | None = None) -> Any:
        """Build from raw option values and data paths (validated; ``SimError`` on bad data)."""
        return cls(num_players, cls.Options(**(options or {})), cls.load_data(data_paths))

    def check_players(self, num_players: int) -> None:
        """Raises ``ValueError`` for a player count outside the game's range."""
        i = self.info
        if not i.min_players <= num_players <= i.max_players:
            raise ValueError(f"{i.title or i.name} takes {i.min_players}-{i.max_players} players, not {num_players}")


class Strategy(Protocol):
    """A player: picks one of ``legal`` from the seat's observation, using only ``rng`` for randomness."""

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action: ...


def sample_chance(game: Game, state: Any, rng: random.Random) -> Action:
    """Draw one chance outcome. Uses the game's fast sampler when it has one (tested to agree)."""
    fast = getattr(game, "sample_chance", None)
    if fast is not None:
        return fast(state, rng)
    outcomes = game.chance_outcomes(state)
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def _coercion(ann: Any, value: Any) -> str | None:
    """What pydantic would silently convert in ``value`` for annotation ``ann`` ("a number, got
    True"), or None. Looks inside Optional/Union, lists, tuples and dict values."""
    origin, args = get_origin(ann), get_args(ann)
    if origin in (Union, UnionType):
        if value is None and type(None) in args:
            return None
        found = [_coercion(a, value) for a in args if a is not type(None)]
        return None if None in found else found[0]
    if origin in (list, tuple, set, frozenset) and isinstance(value, (list, tuple)):
        if origin is tuple and args and args[-1] is not Ellipsis:
            pairs = zip(args, value, strict=False)
        else:
            pairs = ((args[0] if args else Any, v) for v in value)
        for i, (a, v) in enumerate(pairs):
            problem = _coercion(a, v)
            if problem:  # "whole numbers, got true (item 0)" (breaker finding 5, session 10: "a number ... got True")
                one = next((o for o in PLURAL if problem.startswith(f"{o}, ")), None)
                return (f"{PLURAL[one]}{problem[len(one):]} (item {i})" if one else
                        problem.replace(", got", f" at item {i}, got", 1))
        return None
    if origin is dict and isinstance(value, dict) and len(args) == 2:
        for k, v in value.items():
            problem = _coercion(args[1], v)
            if problem:
                return problem.replace(", got", f" at key {k!r}, got", 1)
        return None
    if ann in (int, float) and isinstance(value, (bool, str)):  # a flag is not a count: "got true", as written
        return f"{'a whole number' if ann is int else 'a number'}, got {_as_written(value)}"
    if ann is int and isinstance(value, float) and not value.is_integer():
        return f"a whole number, got {value!r}"
    if ann is bool and not isinstance(value, bool):
        return f"true or false, got {value!r}"
    return None


PLURAL = {"a whole number": "whole numbers", "a number": "numbers"}


def _as_written(value: Any) -> str:
    """A config value as YAML spells it: ``true``/``false`` for a flag, else ``repr`` (``'5'``)."""
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def yaml_text_hint(value: Any) -> str:
    """Why a number came as text: YAML 1.1 (PyYAML) reads ``1e12`` (an exponent, no dot) as a string.
    Added by the strategy-parameter errors (``registry``); a config's own keys get ``data.exponent_hint``
    from ``format_validation``, so no message explains it twice."""
    if not isinstance(value, str) or "e" not in value.lower():
        return ""
    try:
        float(value)
    except ValueError:
        return ""
    return " (YAML reads it as text: write it with a dot and a signed exponent, e.g. 1.0e+12, or in full)"


def no_coercion(model: type[BaseModel], data: Any) -> Any:
    """Refuse what pydantic would silently convert: ``true`` or ``"5"`` for a number, ``"yes"`` or
    ``1`` for a flag (a config's typo must not change the rules), also inside optional values,
    lists and tuples. Used as a ``before`` validator (``StrictModel``, ``BaseOptions``)."""
    if isinstance(data, dict):
        problems = []
        for key, value in data.items():
            field = model.model_fields.get(key)
            problem = field is not None and _coercion(field.annotation, value)
            if problem:
                problems.append(f"'{key}' must be {problem}")
        if problems:  # every one at once (fresh-user finding 4, session 4)
            raise ValueError("; ".join(problems))
    return data


class StrictModel(BaseModel):
    """A model read from a config or data file: unknown keys and silent conversions are errors."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _strict_values(cls, data: Any) -> Any:
        return no_coercion(cls, data)


class BaseOptions(StrictModel):
    """Options every game has. Games subclass it with their rule options (RULINGS §1.3, §1.5)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_decisions: int = Field(5000, ge=1, description="decision cap; a game reaching it is recorded as truncated")


# ------------------------------------------------------------------ lazy observations (issue 20 item 3)

def message_of(exc: BaseException) -> str:
    """``str(exc)``, or ``<unprintable message>`` when the exception's ``__str__`` itself raises
    (breaker finding 5, session 10: the failure was summarised as that second error, "TypeError: str fails")."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001  (whatever a plugin's __str__ raises)
        return "<unprintable message>"
