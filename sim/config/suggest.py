"""Hints added to a config's validation errors: the closest known key for a misspelt one, the
closest choice for a misspelt value (``seating: rotaet``), how to write a share (``confidence: 95``),
and whose key it is when it belongs to another game (an option) or another strategy (a parameter)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from ..api import SimError
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
            if tuple(err["loc"][:-1]) == ("checks",):  # the whole list, not only the closest (finding 12, s10)
                lines[i] += f"; the checks are: {', '.join(Checks.model_fields)}"
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


def _plays(factory: Any) -> tuple[str, ...]:
    """The games a registered strategy declares (empty: any game; an entry point is not loaded)."""
    return () if hasattr(factory, "load") else tuple(getattr(factory, "games", None) or ())


def foreign_param(key: Any, name: str, game: str) -> str:
    """``" (a parameter of X, not of NAME)"`` when ``key`` is a parameter of other strategies that
    play ``game`` (a params block copied from another strategy); else, when it is a parameter of
    another game's strategies, ``" (a parameter of Y, which play GAME2, not of NAME)"``; else ""."""
    here, there = [], []
    for other, factory in strategies().items():
        if other == name or hasattr(factory, "load") or key not in strategy_params(factory):
            continue
        plays = _plays(factory)
        (here if not plays or game in plays else there).append(other)
    if here:
        return f" (a parameter of {', '.join(here)}, not of {name})"
    if there:
        plays = sorted({g for o in there for g in _plays(strategies()[o])})
        return f" (a parameter of {', '.join(there)}, which play {' and '.join(plays)}, not of {name})"
    return ""


def unknown_strategy(name: str, game: str) -> str:
    """The error for a strategy name that is not registered: the closest name (this game's and the
    generic strategies first, then another game's, said so), and the names ``game`` can use."""
    own, generic, other = [], [], {}
    for n, factory in strategies().items():
        plays = _plays(factory)
        if not plays:
            generic.append(n)
        elif game in plays:
            own.append(n)
        else:
            other[n] = "/".join(plays)
    hint = did_you_mean(name, own + generic)
    if not hint and (close := did_you_mean(name, other)):
        found = close.split("'")[1]
        hint = f" (did you mean '{found}'? a strategy of {other[found]}, not of {game})"
    return (f"unknown strategy '{name}'{hint}; {game} strategies: {', '.join(own) or 'none'}; for any game:"
            f" {', '.join(generic)} (or an import string package.module:Class)")


UNKNOWN_PARAM = re.compile(r"strategy '([^']+)': bad params: '([^']+)': unknown parameter")


def param_hint(key: Any, name: str, game: str, message: str) -> str:
    """The hint after ``message``, the error of strategy ``name``'s parameter ``key``: when ``key`` is
    an unknown parameter, whose parameter it is (``foreign_param``), else the closest of the strategy's
    own; when the unknown one is a parameter of a strategy it builds (``search``'s ``rollout_params``:
    ``strategy 'osaka.trader': bad params: 'nope': unknown parameter``), the closest of that one's
    parameters, never ``name``'s own (designer finding 5, session 8); else ""."""
    for strategy, param in UNKNOWN_PARAM.findall(message):
        if strategy == name and param == str(key):
            return foreign_param(key, name, game) or did_you_mean(key, strategy_params(resolve_strategy(name)))
        if strategy != name:
            try:
                return did_you_mean(param, strategy_params(resolve_strategy(strategy)))
            except SimError:
                return ""
    return ""
