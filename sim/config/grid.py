"""Sweep grids: the same run at every point of a grid over any setting (``sim sweep``).

``sweep: {options.end_tokens: [6, 8, 10]}`` in a config plays the config's games once per value;
several keys give their product. Keys are ``options.<option>``, ``data.<file>.<path>`` where the
path walks the data file's mappings and lists (``data.cards.per_colour.2.insurance``), ``players``,
``seating``, ``strategies.<N>.name`` and ``strategies.<N>.params.<key>`` (N: the index in the
config's ``strategies`` list, whose entries are repeated in order to fill the seats, so one config
serves a player-count sweep). A data point is written as a YAML copy of the file (the config's own
or the game's packaged one) with the value replaced. Every point uses the config's root seed and the same game indices, so game ``i`` draws
from the same random streams at every point (common random numbers) as long as the points deal
alike: under ``seating: permute`` a game's shuffles come from its deal (``game // games per deal``)
and the deal size depends on the players and on which strategies are alike, so sweeping
``players`` or ``strategies.N.name`` there gives other deals, and those points are compared
unpaired (``sim.analysis.compare.pairing``).
"""

from __future__ import annotations

import copy
import importlib
import itertools
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..api import SimError
from ..data import Located, parse_yaml, quote, read_yaml, said_got, yaml_value
from ..registry import get_game, make_strategy, resolve_strategy, strategy_params
from .data_paths import in_source, path_parts, set_in
from .lists import length_problem
from .models import RunConfig, StrategySpec, build_game, did_you_mean, seat_labels
from .suggest import foreign_option

KEY_FORMS = ("players, seating, options.<option>, data.<file>.<key>[.<key>...], strategies.<N>.name or"
             " strategies.<N>.params.<param>")


@dataclass
class Point:
    """One grid point: its index, ``{sweep key: value}``, a label and the resolved config."""

    index: int
    values: dict[str, Any]
    label: str
    rc: RunConfig


def data_files(cls: Any) -> tuple[str, dict[str, str]]:
    """``(package, {data file key: file name})`` of a game class (its rules' ``DATA_FILES``)."""
    package = sys.modules[cls.__module__].__package__ or cls.__module__.rpartition(".")[0]
    try:
        files = getattr(importlib.import_module(f"{package}.rules"), "DATA_FILES", {})
    except ImportError:
        files = {}
    return package, files


def data_doc(rc: RunConfig, file_key: str) -> Located:
    """The data file ``file_key`` of the config: its own copy, else the one packaged with the game."""
    if file_key in rc.data:
        return read_yaml(rc.data[file_key])
    package, files = data_files(get_game(rc.game))
    name = files.get(file_key, f"{file_key}.yaml")
    res = resources.files(f"{package}.data").joinpath(name)
    if not res.is_file():
        known = ", ".join(sorted(files)) or "none"
        raise SimError(f"{rc.game} has no data file '{file_key}' (data files: {known})")
    try:  # the packaged file's own path when it is a file on disk (an editable or wheel install)
        source = str(Path(str(res)).resolve()) if Path(str(res)).is_file() else f"{package}/data/{name}"
    except (OSError, ValueError):
        source = f"{package}/data/{name}"
    return parse_yaml(res.read_text(encoding="utf-8"), source)


def listed(rc: RunConfig) -> list[StrategySpec]:
    """The strategies as the config listed them (before being repeated to fill the seats)."""
    return list(rc.strategies[:rc.listed or rc.players])


def _check_strategy_key(rc: RunConfig, key: str) -> None:
    parts = key.split(".")
    specs = listed(rc)
    if len(parts) < 3 or not parts[1].isdigit() or not (parts[2] == "name" and len(parts) == 3
                                                          or parts[2] == "params" and len(parts) == 4):
        raise SimError(f"a strategy sweep key is strategies.<N>.name or strategies.<N>.params.<param>, not '{key}'")
    n = int(parts[1])
    if n >= len(specs):
        raise SimError(f"strategies.{n}: the config lists {len(specs)} strategies (0..{len(specs) - 1})")
    if parts[2] == "params":
        known = strategy_params(resolve_strategy(specs[n].name))
        if known and parts[3] not in known:
            raise SimError(f"strategy '{specs[n].name}' has no parameter '{parts[3]}'{did_you_mean(parts[3], known)};"
                           f" it takes: {', '.join(known)}")


def _check_key(rc: RunConfig, key: str) -> None:
    kind, _, rest = key.partition(".")
    if key in ("players", "seating"):
        return
    if kind == "strategies":
        _check_strategy_key(rc, key)
    elif kind == "options":
        fields = get_game(rc.game).Options.model_fields
        if rest not in fields and foreign_option(rest, rc.game):  # another game's option: no misleading "did you mean"
            raise SimError(f"unknown option '{rest}'{foreign_option(rest, rc.game)}")
        if rest not in fields:
            raise SimError(f"unknown option '{rest}'{did_you_mean(rest, fields)}; options of {rc.game}: {', '.join(fields)}")
    elif kind == "data":
        file_key, parts = path_parts(key)
        if not parts:
            raise SimError("a data sweep key names a value inside a file: data.<file>.<key>[.<key>...]")
        located = data_doc(rc, file_key)
        set_in(copy.deepcopy(located.value), parts, None, key, f"the data file {file_key} ({located.source})")
    else:
        raise SimError(f"unknown sweep key '{key}'; a sweep key is {KEY_FORMS}")


def validate_sweep(rc: RunConfig, doc: Located | None = None) -> None:
    """Check every sweep key and value before any game is played: each value alone (the other
    keys at the config's values) must make a valid game. ``SimError`` naming the file, line and
    key of the first bad value of every key, one per line; combinations are checked when their
    point is built."""
    problems = [p for key, values in rc.sweep.items() if (p := _sweep_problem(rc, doc, key, values))]
    if problems:
        raise SimError("\n".join(problems))


def _sweep_problem(rc: RunConfig, doc: Located | None, key: str, values: list) -> str:
    """The problem of one sweep key (its first bad value), or ""."""
    def where(*path: Any) -> str:
        return doc.where(("sweep", *path)) if doc is not None else f"sweep key '{'.'.join(map(str, path))}'"

    if not values:
        return f"{where(key)}: give at least one value"
    try:
        _check_key(rc, key)
    except SimError as exc:
        return f"{where(key)}: {exc}"
    fields = get_game(rc.game).Options.model_fields
    for i, v in enumerate(values):
        short = length_problem(fields[key[8:]], v) if key.startswith("options.") else None  # key checked above
        if short:
            return f"{where(key, i)}: {short}"
        with tempfile.TemporaryDirectory() as tmp:
            try:
                _point_config(rc, {key: v}, Path(tmp), 0)
            except (SimError, ValueError) as exc:
                if not key.startswith("data."):
                    return f"{where(key, i)}: {_message(exc)}"
                # a data key ends in indices itself: the value is named, not numbered (cards.0.cost.0 misleads);
                # the data file is named with its line of the key, not the temporary copy holding the value
                line = doc.line_of(("sweep", key, i)) if doc is not None else None
                at = f"{doc.source}" + (f", line {line}" if line else "") if doc is not None else "sweep"
                text = in_source(_message(exc), tmp, key, v, lambda fk: data_doc(rc, fk))
                return f"{at}, key 'sweep.{key}', value {quote(v)}: {text}"
    return ""


def _message(exc: Exception) -> str:
    """One line for an invalid point: pydantic's first error with its value, else the message."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        msg = err["msg"].removeprefix("Value error, ")
        got = "" if isinstance(err["input"], dict) or said_got(msg) else f" (got {quote(err['input'])})"
        return f"{msg}{got}"
    return str(exc)


def _seats(rc: RunConfig, values: dict[str, Any]) -> dict[str, Any]:
    """Players, seating, strategies and labels of a point (``strategies.N.*`` edit listed entry N,
    then the list is repeated to fill the seats); each strategy built once to check it (``SimError``)."""
    specs = listed(rc)
    for key, value in values.items():
        if key.startswith("strategies."):
            _, n, field, *param = key.split(".")
            spec = specs[int(n)]
            upd = {"name": value} if field == "name" else {"params": {**spec.params, param[0]: value}}
            specs[int(n)] = spec.model_copy(update=upd)
    players, seating = values.get("players", rc.players), values.get("seating", rc.seating)
    info = get_game(rc.game).info
    if not isinstance(players, int) or isinstance(players, bool) or not info.min_players <= players <= info.max_players:
        raise SimError(f"{rc.game} takes {info.min_players}-{info.max_players} players, not {players!r}")
    if len(specs) > players:
        raise SimError(f"{players} players but the config lists {len(specs)} strategies; list at most {players}"
                       " (they are repeated in order to fill the seats)")
    if seating not in ("rotate", "fixed", "permute"):
        raise SimError(f"seating is 'rotate', 'fixed' or 'permute', not {seating!r}")
    if seating == "permute" and players > 6:
        raise SimError(f"seating: permute supports at most 6 seats (got {players}); use seating: rotate")
    if any(k.startswith("strategies.") for k in values):
        for spec in specs:
            make_strategy(spec.name, spec.params, rc.game)
    seats = tuple(specs[i % len(specs)] for i in range(players))
    return {"players": players, "seating": seating, "strategies": seats, "labels": seat_labels(list(seats)),
            "listed": len(specs) if len(specs) < players else 0}


def point_config(rc: RunConfig, values: dict[str, Any], work: Path, idx: int) -> RunConfig:
    """The resolved config of ``rc`` with ``values`` (``{sweep key: value}``) applied: what a sweep
    point, a tuning trial or a discovery trial plays. Data values are written into copies of the
    data files under ``work/data``. Raises ``SimError`` or ``ValueError`` for an invalid game."""
    return _point_config(rc, values, work, idx)


def _point_config(rc: RunConfig, values: dict[str, Any], work: Path, idx: int) -> RunConfig:
    """The resolved config of a point: options replaced, data values written into copies of the
    data files under ``work/data``; built once to check it (``SimError``/``ValueError``)."""
    options, data = dict(rc.options), dict(rc.data)
    edits: dict[str, list[tuple[list[Any], Any, str]]] = {}
    for key, value in values.items():
        if key.startswith("options."):
            options[key.partition(".")[2]] = value
        elif key in ("players", "seating") or key.startswith("strategies."):
            continue
        else:
            file_key, parts = path_parts(key)
            edits.setdefault(file_key, []).append((parts, value, key))
    for file_key, changes in edits.items():
        doc = copy.deepcopy(data_doc(rc, file_key).value)
        for parts, value, key in changes:
            set_in(doc, parts, value, key)
        (work / "data").mkdir(parents=True, exist_ok=True)
        path = work / "data" / f"{file_key}-point{idx:03d}.yaml"
        path.write_text(f"# sweep point {idx}: {values}\n" + yaml.safe_dump(doc, sort_keys=False))
        data[file_key] = str(path.resolve())
    opts = get_game(rc.game).Options(**options).model_dump()
    prc = rc.model_copy(update={"options": opts, "data": data, "sweep": {}, "output": None, "tune": {},
                                "discover": {}, **_seats(rc, values)})
    build_game(prc)
    return prc


def key_names(keys: list[str]) -> dict[str, str]:
    """Each sweep key's name in a point label: its last part (``end_tokens``), or, when two keys
    share it (two strategies sweeping ``min_goods``), ``strategies.N.min_goods`` or the whole key."""
    last = [k.split(".")[-1] for k in keys]
    out = {}
    for k, name in zip(keys, last, strict=True):
        parts = k.split(".")
        if last.count(name) > 1:
            name = f"strategies.{parts[1]}.{name}" if parts[0] == "strategies" and len(parts) > 2 else k
        out[k] = name
    return out


def point_label(values: dict) -> str:
    """A point's label: ``advanced=true`` or ``min_goods=1, end_tokens=8`` (``key_names``)."""
    names = key_names(list(values))
    return ", ".join(f"{names[k]}={yaml_value(v)}" for k, v in values.items())


def points(rc: RunConfig, work: Path) -> list[Point]:
    """The grid's points (product of the keys' values, in config order) with their configs.

    Data points are written under ``work/data``. Raises ``SimError`` naming the point when a
    value makes an invalid game (e.g. data that break the rulebook's counts).
    """
    keys = list(rc.sweep)
    out = []
    for idx, combo in enumerate(itertools.product(*(rc.sweep[k] for k in keys))):
        values = dict(zip(keys, combo, strict=True))
        label = point_label(values)
        try:
            prc = _point_config(rc, values, work, idx)
        except (SimError, ValueError) as exc:  # ValidationError and OptionError are ValueErrors
            raise SimError(f"sweep point {idx} ({label}): {_message(exc)}") from None
        out.append(Point(idx, values, label, prc))
    return out


def config_values(rc: RunConfig, keys: list[str]) -> dict[str, Any]:
    """The value each sweep key has in the config itself (a rule option's default when the config
    does not set it, the data file's value, the strategy's default parameter): the tuned values'
    reference. A key whose value cannot be read is left out."""
    out: dict[str, Any] = {}
    for key in keys:
        try:
            out[key] = _config_value(rc, key)
        except (SimError, ValueError, KeyError, IndexError, TypeError):
            continue
    return out


def _config_value(rc: RunConfig, key: str) -> Any:
    kind, _, rest = key.partition(".")
    if key in ("players", "seating"):
        return getattr(rc, key)
    if kind == "options":
        return get_game(rc.game).Options(**rc.options).model_dump()[rest]
    if kind == "strategies":
        _, n, field, *param = key.split(".")
        spec = listed(rc)[int(n)]
        if field == "name":
            return spec.name
        return spec.params[param[0]] if param[0] in spec.params else strategy_params(resolve_strategy(spec.name))[param[0]]
    file_key, parts = path_parts(key)
    node = data_doc(rc, file_key).value
    for part in parts:
        node = node[part]
    return node
