"""The config models: what a YAML config may say (``Config``) and the resolved run (``RunConfig``).

Validation with pydantic; unknown keys and silent conversions are errors (see ``sim.api.no_coercion``).
"""

from __future__ import annotations

import difflib
import os
import unicodedata
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    field_validator,
    model_serializer,
    model_validator,
)

from ..api import no_coercion
from ..registry import build_game as _build


class StrategySpec(BaseModel):
    """One seat's strategy: a registry name or import string, its params, an optional label."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)
    label: str | None = Field(None, min_length=1, max_length=80)

    @field_validator("label")
    @classmethod
    def _printable_label(cls, value: str | None) -> str | None:
        return printable(value, "a label")


def printable(value: str | None, what: str) -> str | None:
    """``value`` unless it holds a control character (U+0000-U+001F, U+007F-U+009F: a newline, a
    NUL, a terminal escape) or an invisible format or line-separator character (Unicode categories
    Cf, Zl, Zp: a bidi override U+202E, U+2028, U+FEFF; breaker trial 2), refused with its position: a label goes into reports, terminal lines and
    JUnit XML (which cannot hold them), a path into the file system (breaker findings 9, 10, session 8)."""
    for i, ch in enumerate(value or ""):
        if ord(ch) < 32 or 127 <= ord(ch) < 160:
            raise ValueError(f"{what} may not hold control characters; character {i + 1} is U+{ord(ch):04X}")
        if unicodedata.category(ch) in ("Cf", "Zl", "Zp"):  # a bidi override turns a report's text around
            raise ValueError(f"{what} may not hold invisible format or line-separator characters; character"
                             f" {i + 1} is U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')})")
    return value


def seat_labels(specs: list[StrategySpec]) -> tuple[str, ...]:
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


def closest(word: Any, choices: Any) -> str | None:
    """The closest of ``choices`` to a misspelt ``word`` (difflib), else None."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: Any, choices: Any) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices`` to a misspelt ``word`` (difflib), else ""."""
    close = closest(word, choices)
    return f" (did you mean '{close}'?)" if close else ""


# the source name of the config ``sim run --game ...`` writes from its flags: its errors name keys, not lines
COMMAND_LINE_SOURCE = "sim run --game"


class CheckSpec(BaseModel):
    """One nightly check: a threshold. It passes when the whole interval (at the config's
    ``confidence``) is on the good side, fails when the whole interval is on the bad side, and is
    otherwise inconclusive; ``strict: false`` counts an inconclusive result as a pass for this
    check. A bare number means ``{threshold: N}``. The strategy checks take ``strategies:`` (the
    labels judged) or ``exclude:`` (labels left out, e.g. the ``random`` baseline); the loader checks
    the labels against the line-up (``config.checks._check_labels``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    threshold: float = Field(ge=0, allow_inf_nan=False)
    strict: bool = True
    strategies: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None

    @field_validator("strategies", "exclude")
    @classmethod
    def _some_label(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """At least one label; checked after the labels (a `min_length` said "Tuple should have at
        least 1 item after validation, not 0" after a wrong label's own error: breaker finding 5, session 10)."""
        if value is not None and not value:
            raise ValueError("must list at least one strategy label of the line-up")
        return value

    @model_validator(mode="before")
    @classmethod
    def _bare_number(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return {"threshold": value}
        if not isinstance(value, dict):  # e.g. `max_truncated_share: true` (breaker finding 8, session 5)
            raise ValueError("a check is a threshold (a number) or {threshold: N, strict: true|false}"
                             " (strategy checks also take strategies: [LABEL, ...] or exclude: [LABEL, ...])")
        value = {k: [v] if k in ("strategies", "exclude") and isinstance(v, str) else v for k, v in value.items()}
        return no_coercion(cls, value)  # `exclude: random` is `exclude: [random]`

    @model_serializer(mode="wrap")
    def _without_unset_labels(self, handler: Any) -> dict:
        """``strategies`` / ``exclude`` written only when given: a run folder's config.json (and a sweep
        point's config.yaml) of a check without them is as before session 10."""
        return {k: v for k, v in handler(self).items() if v is not None or k not in ("strategies", "exclude")}


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
    max_stalled: CheckSpec | None = None
    max_failed_games: CheckSpec | None = None
    min_balance: CheckSpec | None = None
    max_drawishness: CheckSpec | None = None
    min_completion: CheckSpec | None = None


PROPORTION_CHECKS = tuple(n for n in Checks.model_fields if n != "max_failed_games")
# checks about seats, strategies or winning against others: no meaning in a one-player game
MULTIPLAYER_CHECKS = ("max_seat_win_rate", "min_seat_win_rate", "max_strategy_win_rate", "min_strategy_win_rate",
                      "max_first_player_advantage", "min_balance", "max_drawishness")
STRATEGY_CHECKS = ("max_strategy_win_rate", "min_strategy_win_rate")  # need two strategies to compare


def usable_cores() -> int:
    """CPU cores this process may run on: ``os.process_cpu_count()`` (Python 3.13), else the
    affinity mask (``os.sched_getaffinity``), else ``os.cpu_count()``; at least 1. The default ``jobs``."""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return max(1, os.cpu_count() or 1)


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
    seating: Literal["rotate", "fixed", "permute"] | None = None  # None: permute when the strategies differ
    confidence: StrictFloat = Field(0.95, gt=0.5, lt=1)  # level of every interval and test in the report
    jobs: StrictInt | None = Field(None, ge=1, le=1024)  # None: the usable cores (``usable_cores``)
    chunk_size: StrictInt | None = Field(None, ge=1)
    output: str | None = None
    sweep: dict[str, list[Any]] | None = None
    sweep_baseline: dict[str, Any] | StrictInt | None = None  # the point the others are compared with (default: first)
    checks: Checks | None = None
    plugins: StrictBool = True  # false: import strings are refused (configs from untrusted sources)
    game_timeout_s: StrictFloat = Field(60.0, ge=0.01, le=86_400)  # CPU seconds a game may use before it is stopped and recorded as failed
    tune: dict[str, Any] | None = None  # ``sim tune`` (validated by ``config.design``)
    discover: dict[str, Any] | None = None  # ``sim discover`` (validated by ``config.design``)

    @field_validator("output")
    @classmethod
    def _printable_output(cls, value: str | None) -> str | None:
        return printable(value, "a folder name")


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
    seating: Literal["rotate", "fixed", "permute"]
    jobs: int
    chunk_size: int | None
    output: str | None
    source: str = ""  # the config file, absolute: replay and resume find modules next to it from any folder
    sweep: dict[str, list[Any]] = Field(default_factory=dict)
    checks: dict[str, CheckSpec] = Field(default_factory=dict)
    confidence: float = 0.95
    sweep_baseline: dict[str, Any] | int | None = None
    plugins: bool = True
    game_timeout_s: float = 60.0
    listed: int = 0  # strategies the config listed (repeated in order to fill the seats); 0: one per seat
    tune: dict[str, Any] = Field(default_factory=dict)
    discover: dict[str, Any] = Field(default_factory=dict)

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        return cls.model_validate_json(text)


def build_game(rc: RunConfig) -> Any:
    """Construct the game of a resolved config (validates options and data files)."""
    return _build(rc.game, rc.players, rc.options, {k: Path(v) for k, v in rc.data.items()})
