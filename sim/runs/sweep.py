"""A sweep (``sim sweep``): the same run at every point of the config's grid, each point a full
run folder ``point-NNN`` with the same root seed and game indices (common random numbers where the deals match), and a
long table of figures per point (``sweep.parquet``). The grid itself is ``sim.config.grid``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl

from .. import integrity, locks, store
from ..analysis.report import build_report
from ..analysis.sweep_figures import point_figures
from ..api import SimError
from ..config import RunConfig, load_run_config
from ..config.grid import Point, points
from ..data import read_json, write_file_atomic, yaml_value
from . import fixed


def baseline_index(rc: RunConfig, pts: list[Point]) -> int:
    """The point the others are compared with: ``sweep_baseline`` (an index, or values that pick
    the first point holding them), else the first point."""
    base = rc.sweep_baseline
    if base is None:
        return pts[0].index
    if isinstance(base, int):
        return base
    return next(p.index for p in pts if all(p.values.get(k) == v for k, v in base.items()))


def write_manifest(out: Path, rc: RunConfig, pts: list[Point], point_reports: bool = True,
                   options: dict | None = None) -> None:
    """``sweep.json``: the grid's points and folders, and the ``--option`` values every point plays with."""
    write_file_atomic(out / "sweep.json", json.dumps({
        "point_reports": point_reports, "game": rc.game, "seed": rc.seed, "games": rc.games, "keys": list(rc.sweep),
        "options": dict(options or {}),
        "baseline": baseline_index(rc, pts), "confidence": rc.confidence, "seating": rc.seating,
        "points": [{"index": p.index, "label": p.label, "values": p.values, "folder": f"point-{p.index:03d}"} for p in pts],
    }, indent=2, default=str) + "\n")


def run_sweep(rc: RunConfig, out: Path, *, force: bool = False, progress: bool = True, backend: str = "local",
              scheduler: str | None = None, n_resamples: int = 1000, echo=None, point_reports: bool = True,
              figures_mode: str = "always", options: dict | None = None) -> tuple[list[Point], pl.DataFrame]:
    """Play every point of ``rc.sweep`` into ``out/point-NNN`` (each a full run folder, same root
    seed and game indices) and return the points and the long figure table (also written as
    ``out/sweep.parquet``). ``figures_mode``: the point reports' ``--figures`` (``figure_policy``);
    ``options``: the ``--option`` values (already in ``rc``), recorded in ``sweep.json``."""
    if not rc.sweep:
        raise SimError("the config has no 'sweep:' key; e.g. sweep: {options.end_tokens: [6, 8, 10]}")
    store.prepare_output(out, force, rc.source, kind="sweep")
    (out / "chunks").rmdir()
    try:
        pts = points(rc, out)
    except SimError:  # leave nothing behind, so the corrected config can run into the same folder
        shutil.rmtree(out / "data", ignore_errors=True)
        if not any(out.iterdir()):
            out.rmdir()
        raise
    write_manifest(out, rc, pts, point_reports, options)
    write_file_atomic(out / "config.json", json.dumps(json.loads(rc.to_json()), indent=2) + "\n")
    return pts, _play_points(rc, out, pts, False, progress=progress, backend=backend, scheduler=scheduler,
                             n_resamples=n_resamples, echo=echo, point_reports=point_reports,
                             figures_mode=figures_mode)


def resume_sweep(out: Path, *, progress: bool = True, backend: str = "local", scheduler: str | None = None,
                 n_resamples: int = 1000, echo=None, figures_mode: str = "always") -> tuple[list[Point], pl.DataFrame]:
    """Continue an interrupted sweep folder (``sim sweep --resume DIR``): finished points are kept,
    an interrupted point is resumed, the others are played; then the figure table is rebuilt.
    Raises ``SimError`` when ``out`` is not a sweep folder or its grid no longer builds the same points."""
    if not (out / "sweep.json").is_file():
        raise SimError(f"'{out}' is not a sweep folder (no sweep.json)")
    rc = load_run_config(out)
    doc = read_json(out / "sweep.json")
    pts = points(rc, out)
    # the values, not the labels: labels changed spelling in session 8 (advanced=true, not False)
    if [json.loads(json.dumps(p.values)) for p in pts] != [q.get("values") for q in doc.get("points", [])]:
        raise SimError(f"'{out}': the grid in its config.json no longer gives the points of sweep.json; was it edited?")
    return pts, _play_points(rc, out, pts, True, progress=progress, backend=backend, scheduler=scheduler,
                             n_resamples=n_resamples, echo=echo, point_reports=bool(doc.get("point_reports", True)),
                             figures_mode=figures_mode)


def point_yaml(p: Point, source: str, options: dict) -> str:
    """A config that replays point ``p`` (``sim run POINT/config.yaml`` plays the same games): its
    resolved settings (every rule option, the point's values and the ``--option`` values in it),
    no ``sweep:`` and no ``output:``; the header names the sweep command and the point."""
    import yaml

    doc = json.loads(p.rc.to_json())
    listed = doc["strategies"][:doc["listed"]] if doc["listed"] else doc["strategies"]
    value: dict = {k: doc[k] for k in ("game", "players", "games", "seed", "seating", "jobs")}
    value["strategies"] = [{k: v for k, v in s.items() if v not in (None, {})} for s in listed]
    value["options"] = doc["options"]
    value |= {k: doc[k] for k in ("data", "checks") if doc[k]}
    value |= {k: doc[k] for k, d in (("confidence", 0.95), ("chunk_size", None), ("plugins", True),
                                     ("game_timeout_s", 60.0)) if doc[k] != d}
    flags = "".join(f" --option {k}={json.dumps(v)}" for k, v in options.items())
    head = (f"# sweep point {p.index} ({p.label}) of `sim sweep {source}{flags}`, every rule option spelt out;"
            " replay it with `sim run config.yaml`\n")
    return head + yaml.safe_dump(value, sort_keys=False)


def _play_point(p: Point, pdir: Path, resume: bool, **opts) -> fixed.RunOutcome | None:
    """Play one point into ``pdir`` (locked on return); with ``resume``, keep a finished point
    (None) and complete an interrupted one."""
    if resume and (integrity.committed(pdir) or ((pdir / "games.parquet").is_file() and not (pdir / "chunks").is_dir())):
        locks.lock(pdir)
        return None
    if resume and (pdir / "config.json").is_file() and (pdir / "chunks").is_dir():
        return fixed.resume(pdir, keep_lock=True, **opts)
    return fixed.run(p.rc, pdir, force=True, keep_lock=True, **opts)


def _play_points(rc: RunConfig, out: Path, pts: list[Point], resume: bool, *, progress: bool, backend: str,
                 scheduler: str | None, n_resamples: int, echo, point_reports: bool,
                 figures_mode: str = "always") -> pl.DataFrame:
    """Play (or, with ``resume``, complete) every point; write and return ``sweep.parquet``."""
    frames = []
    for p in pts:
        pdir = out / f"point-{p.index:03d}"
        o = _play_point(p, pdir, resume, progress=progress, backend=backend, scheduler=scheduler)
        try:
            write_file_atomic(pdir / "config.yaml", point_yaml(p, rc.source, read_json(out / "sweep.json").get("options", {})))
            if point_reports and (o is not None or not (pdir / "report.html").is_file()):
                build_report(pdir, figures=figures_mode)
        finally:
            locks.unlock(pdir)
        named = ", ".join(f"{k}={yaml_value(v)}" for k, v in p.values.items())
        if echo and o is None:
            echo(f"point {p.index} ({named}): finished before, kept")
        elif echo:
            echo(f"point {p.index} ({named}): {o.games} games in {o.seconds:.1f} s; {o.ends()}")
        f = point_figures(pdir, n_resamples, p.rc.confidence).with_columns(
            point=pl.lit(p.index, pl.Int64), label=pl.lit(p.label), seed=pl.lit(rc.seed, pl.Int64),
            games=pl.lit(p.rc.games, pl.Int64),
            **{k: pl.lit(yaml_value(v)) for k, v in p.values.items()})
        frames.append(f)
    table = pl.concat(frames, how="diagonal_relaxed")
    store.write_atomic(table, out / "sweep.parquet")
    return table
