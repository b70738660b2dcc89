"""The ``checks:`` section of a config: what the ``Checks`` model cannot see (a check without a
value, a proportion above 1, checks without meaning for the line-up, the labels a strategy check
names), each problem naming its file, line and key."""

from __future__ import annotations

from pydantic import ValidationError

from ..data import Located
from .models import (
    MULTIPLAYER_CHECKS,
    PROPORTION_CHECKS,
    STRATEGY_CHECKS,
    Checks,
    CheckSpec,
    Config,
    did_you_mean,
)


def _valid_checks(doc: Located) -> dict:
    """The checks of the file that validate one by one (their section as a whole did not, and its
    errors are reported already): so that one bad check does not hide another's problem."""
    raw = doc.value.get("checks") if isinstance(doc.value, dict) else None
    out = {}
    for name, value in (raw.items() if isinstance(raw, dict) else ()):
        try:
            out[name] = CheckSpec.model_validate(value).model_dump() if name in Checks.model_fields else None
        except ValidationError:
            continue
    return out


def section_checks(doc: Located, cfg: Config, labels: tuple[str, ...], problems: list[str]) -> dict:
    """The config's checks (name -> threshold, strict); problems a model cannot see appended.
    ``labels``: the seats' strategy labels (a strategy check needs two strategies, here or in a sweep)."""
    whole = cfg.checks.model_dump() if cfg.checks else _valid_checks(doc)
    checks = {k: v for k, v in whole.items() if v is not None}
    raw = doc.value.get("checks") if isinstance(doc.value, dict) else None
    for key, eg in (("checks", "{max_seat_win_rate: 0.35}"), ("sweep", "{options.end_tokens: [6, 8, 10]}")):
        if isinstance(doc.value, dict) and doc.value.get(key, 0) in (None, {}):  # validated (breaker trial 2, s9)
            problems.append(f"{doc.where((key,))}: '{key}:' is empty; a mapping with at least one entry is expected,"
                            f" e.g. {key}: {eg}, or delete the line")
    for name, value in (raw.items() if isinstance(raw, dict) else ()):
        if value is None and name in Checks.model_fields:  # `max_seat_win_rate:` with no value (breaker finding 3, s8)
            problems.append(f"{doc.where(('checks', name))}: no threshold given; write e.g. {name}:"
                            f" {0 if name == 'max_failed_games' else 0.35},"
                            " or delete the line")
    for name, spec in checks.items():
        if name == "max_failed_games" and not float(spec["threshold"]).is_integer():
            problems.append(f"{doc.where(('checks', name))}: max_failed_games is a count of games, got {spec['threshold']}")
        if name in PROPORTION_CHECKS and spec["threshold"] > 1:
            problems.append(f"{doc.where(('checks', name))}: {name} is a proportion in [0, 1] (0.35 means 35%),"
                            f" got {spec['threshold']}")
        if cfg.players == 1 and name in MULTIPLAYER_CHECKS:
            problems.append(f"{doc.where(('checks', name))}: {name} has no meaning in a one-player (solo) game:"
                            " nobody is beaten, so there are no win rates between seats or strategies; solo runs"
                            " take max_truncated_share, max_failed_games, min_completion and max_stalled")
        problems.extend(_check_labels(doc, name, spec, labels))
        if name in STRATEGY_CHECKS and len(set(labels)) < 2 and not _sweeps_strategies(cfg) and cfg.players > 1:
            problems.append(f"{doc.where(('checks', name))}: {name} compares strategies, but every seat plays"
                            f" {labels[0]!r} (its win rate is the seats' average, 1/players by symmetry);"
                            " list two strategies, or check the seats with max_seat_win_rate / min_seat_win_rate")
    return checks


def _check_labels(doc: Located, name: str, spec: dict, labels: tuple[str, ...]) -> list[str]:
    """Problems of a check's ``strategies:`` / ``exclude:``: only on the strategy checks, not both,
    every label one of the line-up's, at least one strategy left to judge (session 10, finding 14)."""
    keys = [k for k in ("strategies", "exclude") if spec.get(k)]
    if not keys:
        return []
    where = doc.where(("checks", name, keys[0]))
    if name not in STRATEGY_CHECKS:
        return [f"{where}: {keys[0]} applies to the strategy checks ({', '.join(STRATEGY_CHECKS)}), not to {name}"]
    if len(keys) == 2:
        return [f"{where}: give either strategies: (the labels judged) or exclude: (the labels left out), not both"]
    lineup = list(dict.fromkeys(labels))
    unknown = [x for x in spec[keys[0]] if x not in lineup]
    if unknown:
        return [f"{where}: {', '.join(map(repr, unknown))} is not a strategy label of this config"
                f"{did_you_mean(unknown[0], lineup)}; the line-up's labels are: {', '.join(lineup)}"]
    if keys[0] == "exclude" and not set(lineup) - set(spec["exclude"]):
        return [f"{where}: exclude leaves no strategy to judge (the line-up's labels are: {', '.join(lineup)})"]
    return []


def _sweeps_strategies(cfg: Config) -> bool:
    """Whether the ``sweep:`` grid may make two listed strategies differ (it varies
    ``strategies.<N>.name`` or ``.params`` and the config lists two or more: one listed fills every seat)."""
    return len(cfg.strategies) > 1 and any(str(key).startswith("strategies.") for key in (cfg.sweep or {}))
