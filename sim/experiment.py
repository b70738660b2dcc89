"""Sweeps: the same run at every point of a grid over options or data values (``sim sweep``).

``sweep: {options.end_tokens: [6, 8, 10]}`` in a config plays the config's games once per value;
several keys give their product. Keys are ``options.<option>`` or ``data.<file>.<path>`` where the
path walks the data file's mappings and lists (``data.cards.per_colour.2.insurance``); a data point
is written as a YAML copy of the file (the config's own or the game's packaged one) with the value
replaced. Every point uses the config's root seed and the same game indices, so game ``i`` draws
from the same random streams at every point (common random numbers): differences between points
come from the parameter, not from luck.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import polars as pl
import yaml
from pydantic import ValidationError

from .api import SimError
from .config import RunConfig, build_game
from .data import Located, parse_yaml, read_yaml
from .registry import get_game


@dataclass
class Point:
    """One grid point: its index, ``{sweep key: value}``, a label and the resolved config."""

    index: int
    values: dict[str, Any]
    label: str
    rc: RunConfig


def _data_doc(rc: RunConfig, file_key: str) -> Located:
    """The data file ``file_key`` of the config: its own copy, else the one packaged with the game."""
    if file_key in rc.data:
        return read_yaml(rc.data[file_key])
    cls = get_game(rc.game)
    package = sys.modules[cls.__module__].__package__ or cls.__module__.rpartition(".")[0]
    try:
        files = getattr(importlib.import_module(f"{package}.rules"), "DATA_FILES", {})
    except ImportError:
        files = {}
    name = files.get(file_key, f"{file_key}.yaml")
    res = resources.files(f"{package}.data").joinpath(name)
    if not res.is_file():
        known = ", ".join(sorted(files)) or "none"
        raise SimError(f"{rc.game} has no data file '{file_key}' (data files: {known})")
    return parse_yaml(res.read_text(encoding="utf-8"), f"{package}/data/{name}")


def _path_parts(key: str) -> tuple[str, list[Any]]:
    _, file_key, *rest = key.split(".")
    return file_key, [int(p) if p.isdigit() else p for p in rest]


def _set_in(doc: Any, parts: list[Any], value: Any, key: str) -> None:
    node = doc
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        ok = (isinstance(node, dict) and part in node) or (isinstance(node, list) and isinstance(part, int)
                                                           and 0 <= part < len(node))
        if not ok:
            raise SimError(f"'{'.'.join(map(str, parts[:i + 1]))}' is not in the data file (sweep key '{key}')")
        if last:
            node[part] = value
        else:
            node = node[part]


def _check_key(rc: RunConfig, key: str) -> None:
    kind, _, rest = key.partition(".")
    if kind == "options":
        fields = get_game(rc.game).Options.model_fields
        if rest not in fields:
            raise SimError(f"unknown option '{rest}'; options of {rc.game}: {', '.join(fields)}")
    elif kind == "data":
        file_key, parts = _path_parts(key)
        if not parts:
            raise SimError("a data sweep key names a value inside a file: data.<file>.<key>[.<key>...]")
        _set_in(copy.deepcopy(_data_doc(rc, file_key).value), parts, None, key)
    else:
        raise SimError("a sweep key starts with 'options.' or 'data.' (e.g. options.end_tokens)")


def validate_sweep(rc: RunConfig, doc: Located | None = None) -> None:
    """Check every sweep key and value before any game is played: each value alone (the other
    keys at the config's values) must make a valid game. ``SimError`` naming the file, line and
    key of the value; combinations are checked when their point is built."""
    def where(*path: Any) -> str:
        return doc.where(("sweep", *path)) if doc is not None else f"sweep key '{'.'.join(map(str, path))}'"

    for key, values in rc.sweep.items():
        if not values:
            raise SimError(f"{where(key)}: give at least one value")
        try:
            _check_key(rc, key)
        except SimError as exc:
            raise SimError(f"{where(key)}: {exc}") from None
        for i, v in enumerate(values):
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    _point_config(rc, {key: v}, Path(tmp), 0)
                except (SimError, ValueError) as exc:
                    # name the data file by its key, not by the temporary copy holding the value
                    text = re.sub(rf"{re.escape(tmp)}/data/(\w+)-point000\.yaml", rf"data file \1 with {v!r}",
                                  _message(exc))
                    raise SimError(f"{where(key, i)}: {text}") from None


def _message(exc: Exception) -> str:
    """One line for an invalid point: pydantic's first error with its value, else the message."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        got = "" if isinstance(err["input"], dict) else f" (got {err['input']!r})"
        return f"{err['msg'].removeprefix('Value error, ')}{got}"
    return str(exc)


def _point_config(rc: RunConfig, values: dict[str, Any], work: Path, idx: int) -> RunConfig:
    """The resolved config of a point: options replaced, data values written into copies of the
    data files under ``work/data``; built once to check it (``SimError``/``ValueError``)."""
    options, data = dict(rc.options), dict(rc.data)
    edits: dict[str, list[tuple[list[Any], Any, str]]] = {}
    for key, value in values.items():
        if key.startswith("options."):
            options[key.partition(".")[2]] = value
        else:
            file_key, parts = _path_parts(key)
            edits.setdefault(file_key, []).append((parts, value, key))
    for file_key, changes in edits.items():
        doc = copy.deepcopy(_data_doc(rc, file_key).value)
        for parts, value, key in changes:
            _set_in(doc, parts, value, key)
        (work / "data").mkdir(parents=True, exist_ok=True)
        path = work / "data" / f"{file_key}-point{idx:03d}.yaml"
        path.write_text(f"# sweep point {idx}: {values}\n" + yaml.safe_dump(doc, sort_keys=False))
        data[file_key] = str(path.resolve())
    opts = get_game(rc.game).Options(**options).model_dump()
    prc = rc.model_copy(update={"options": opts, "data": data, "sweep": {}, "output": None})
    build_game(prc)
    return prc


def points(rc: RunConfig, work: Path) -> list[Point]:
    """The grid's points (product of the keys' values, in config order) with their configs.

    Data points are written under ``work/data``. Raises ``SimError`` naming the point when a
    value makes an invalid game (e.g. data that break the rulebook's counts).
    """
    keys = list(rc.sweep)
    out = []
    for idx, combo in enumerate(itertools.product(*(rc.sweep[k] for k in keys))):
        values = dict(zip(keys, combo, strict=True))
        label = (str(combo[0]) if len(keys) == 1 else ", ".join(f"{k.split('.')[-1]}={v}" for k, v in values.items()))
        try:
            prc = _point_config(rc, values, work, idx)
        except (SimError, ValueError) as exc:  # ValidationError and OptionError are ValueErrors
            raise SimError(f"sweep point {idx} ({label}): {_message(exc)}") from None
        out.append(Point(idx, values, label, prc))
    return out


FIGURES = ("seat_win_rate", "strategy_win_rate", "first_player_advantage", "balance", "drawishness",
           "completion", "truncated_share", "game_length", "mean_score")


def point_figures(run_dir: Path, n_resamples: int = 1000) -> pl.DataFrame:
    """The sweep figures of one point's run folder, long: ``figure, series, value, ci_low, ci_high``."""
    from .analysis import stats
    from .analysis.report import load_tables

    t = load_tables(run_dir)
    seed = int(t.config["seed"])
    cp = stats.complete_players(t.players, t.games)
    rows: list[tuple] = []
    if cp.height:
        for r in stats.win_table(cp, "seat").iter_rows(named=True):
            rows.append(("seat_win_rate", f"seat {r['seat']}", r["win_rate"], r["ci_low"], r["ci_high"]))
        strat = stats.win_table(cp, "strategy")
        if strat.height > 1:
            for r in strat.iter_rows(named=True):
                rows.append(("strategy_win_rate", r["strategy"], r["win_rate"], r["ci_low"], r["ci_high"]))
        fp = stats.first_player_advantage(cp)
        rows.append(("first_player_advantage", "seat 0 − expected", fp["advantage"], fp["adv_low"], fp["adv_high"]))
        for r in stats.score_table(cp, "strategy", seed, n_resamples).iter_rows(named=True):
            rows.append(("mean_score", r["strategy"], r["mean"], r["ci_low"], r["ci_high"]))
    for r in stats.ludii_figures(t.games, t.players, seed, n_resamples).iter_rows(named=True):
        name = r["figure"].lower()
        if name in ("balance", "drawishness", "completion"):
            rows.append((name, r["figure"], r["value"], r["ci_low"], r["ci_high"]))
    out = stats.outcome_table(t.games).filter(pl.col("outcome").str.starts_with("truncated"))
    for r in out.iter_rows(named=True):
        rows.append(("truncated_share", "truncated", r["share"], r["ci_low"], r["ci_high"]))
    lt = stats.length_table(t.games, seed, n_resamples)
    col = "rounds" if "rounds" in lt["figure"].to_list() else "turns" if "turns" in lt["figure"].to_list() else "n_decisions"
    for r in lt.filter(pl.col("figure") == col).iter_rows(named=True):
        rows.append(("game_length", col, r["mean"], r["ci_low"], r["ci_high"]))
    return pl.DataFrame(rows, schema={"figure": pl.Utf8, "series": pl.Utf8, "value": pl.Float64, "ci_low": pl.Float64,
                                      "ci_high": pl.Float64}, orient="row")


def write_manifest(out: Path, rc: RunConfig, pts: list[Point], point_reports: bool = True) -> None:
    (out / "sweep.json").write_text(json.dumps({
        "point_reports": point_reports, "game": rc.game, "seed": rc.seed, "games": rc.games, "keys": list(rc.sweep),
        "points": [{"index": p.index, "label": p.label, "values": p.values, "folder": f"point-{p.index:03d}"} for p in pts],
    }, indent=2, default=str) + "\n")


def run_sweep(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True, backend: str = "local",
              scheduler: str | None = None, n_resamples: int = 1000, echo=None,
              point_reports: bool = True) -> tuple[list[Point], pl.DataFrame]:
    """Play every point of ``rc.sweep`` into ``out/point-NNN`` (each a full run folder, same root
    seed and game indices) and return the points and the long figure table (also written as
    ``out/sweep.parquet``)."""
    from . import runner

    if not rc.sweep:
        raise SimError("the config has no 'sweep:' key; e.g. sweep: {options.end_tokens: [6, 8, 10]}")
    runner.prepare_output(out, force, rc.source, kind="sweep")
    (out / "chunks").rmdir()
    try:
        pts = points(rc, out)
    except SimError:  # leave nothing behind, so the corrected config can run into the same folder
        shutil.rmtree(out / "data", ignore_errors=True)
        if not any(out.iterdir()):
            out.rmdir()
        raise
    write_manifest(out, rc, pts, point_reports)
    (out / "config.json").write_text(json.dumps(json.loads(rc.to_json()), indent=2) + "\n")
    frames = []
    for p in pts:
        pdir = out / f"point-{p.index:03d}"
        o = runner.run(p.rc, pdir, force=True, progress=progress, backend=backend, scheduler=scheduler,
                       keep_lock=True)
        try:
            if point_reports:
                from .analysis.report import build_report

                build_report(pdir)
        finally:
            runner.unlock(pdir)
        if echo:
            echo(f"point {p.index} ({p.label}): {o.games} games in {o.seconds:.1f} s; {o.truncated} truncated, {o.failed} failed")
        f = point_figures(pdir, n_resamples).with_columns(
            point=pl.lit(p.index, pl.Int64), label=pl.lit(p.label), seed=pl.lit(rc.seed, pl.Int64),
            games=pl.lit(p.rc.games, pl.Int64),
            **{k: pl.lit(str(v)) for k, v in p.values.items()})
        frames.append(f)
    table = pl.concat(frames, how="diagonal_relaxed")
    table.write_parquet(out / "sweep.parquet")
    return pts, table
