"""Hints added to a config's validation errors: the closest known key for a misspelt one, the
closest choice for a misspelt value (``seating: rotaet``), how to write a share (``confidence: 95``),
and whose key it is when it belongs to another game (an option) or another strategy (a parameter)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from ..registry import games, resolve_strategy, strategies, strategy_params
from .models import Checks, Config, StrategySpec, did_you_mean


def suggest(exc: ValidationError, text: str, fields_at, foreign=None) -> list[str]:
    """``format_validation`` lines, each unknown key followed by the closest known one:
    ``fields_at(loc)`` gives the known keys of the mapping holding an error's key; ``foreign(key)``,
    when given, a hint that comes first (the key belongs to something else: ``foreign_option``)."""
    lines = text.split("\n")
    for i, err in enumerate(exc.errors()):
        if i >= len(lines):
            break
        other = foreign(err["loc"][-1]) if foreign and err["type"] == "extra_forbidden" else ""
        if other:
            lines[i] += other
        elif err["type"] == "extra_forbidden" and "did you mean" not in lines[i]:
            lines[i] += did_you_mean(err["loc"][-1], fields_at(err["loc"][:-1]))
        elif err["type"] == "literal_error":  # 'rotaet' among 'rotate', 'fixed' or 'permute'
            lines[i] += did_you_mean(err["input"], re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", ""))))
        elif err["loc"] == ("confidence",) and isinstance(err["input"], (int, float)) and 1 < err["input"] <= 100:
            lines[i] += f" (a share: {err['input']}% is written {err['input'] / 100:g})"
    return lines


def top_fields(loc: tuple) -> Any:
    if not loc:
        return Config.model_fields
    if loc[0] == "strategies":
        return StrategySpec.model_fields
    if loc[0] == "checks":
        return Checks.model_fields
    return ()


def foreign_option(key: Any, game: str) -> str:
    """``": an option of X, not of GAME; see `sim list options GAME`"`` when ``key`` is a rule option
    of another registered game (a config copied from another game), else ""."""
    owners = [name for name, cls in games().items() if name != game and key in cls.Options.model_fields]
    if not owners:
        return ""
    return f": an option of {' and '.join(owners)}, not of {game}; see `sim list options {game}`"


def foreign_param(key: Any, name: str, game: str) -> str:
    """``" (a parameter of X, not of NAME)"`` when ``key`` is a parameter of other strategies that
    play ``game`` (a params block copied from another strategy), else ""."""
    owners = []
    for other, factory in strategies().items():
        plays = getattr(factory, "games", None)
        if other != name and (not plays or game in plays) and key in strategy_params(factory):
            owners.append(other)
    return f" (a parameter of {', '.join(owners)}, not of {name})" if owners else ""


def param_hint(key: Any, name: str, game: str) -> str:
    """The hint after "unknown parameter": whose parameter it is (``foreign_param``), else the
    closest of the strategy's own parameters."""
    return foreign_param(key, name, game) or did_you_mean(key, strategy_params(resolve_strategy(name)))
