"""A sweep (``sim sweep``): the same run at every point of the config's grid, each point a full
run folder ``point-NNN`` with the same root seed and game indices (common random numbers), and a
long table of figures per point (``sweep.parquet``). The grid itself is ``sim.config.grid``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl

from .. import store
from ..analysis.report import build_report
from ..analysis.sweep_figures import point_figures
from ..api import SimError
from ..config import RunConfig
from ..config.grid import Point, points
from . import fixed


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
    write_manifest(out, rc, pts, point_reports)
    (out / "config.json").write_text(json.dumps(json.loads(rc.to_json()), indent=2) + "\n")
    frames = []
    for p in pts:
        pdir = out / f"point-{p.index:03d}"
        o = fixed.run(p.rc, pdir, force=True, progress=progress, backend=backend, scheduler=scheduler,
                       keep_lock=True)
        try:
            if point_reports:
                build_report(pdir)
        finally:
            store.unlock(pdir)
        if echo:
            named = ", ".join(f"{k}={v}" for k, v in p.values.items())
            echo(f"point {p.index} ({named}): {o.games} games in {o.seconds:.1f} s; {o.truncated} truncated, {o.failed} failed")
        f = point_figures(pdir, n_resamples).with_columns(
            point=pl.lit(p.index, pl.Int64), label=pl.lit(p.label), seed=pl.lit(rc.seed, pl.Int64),
            games=pl.lit(p.rc.games, pl.Int64),
            **{k: pl.lit(str(v)) for k, v in p.values.items()})
        frames.append(f)
    table = pl.concat(frames, how="diagonal_relaxed")
    table.write_parquet(out / "sweep.parquet")
    return pts, table
