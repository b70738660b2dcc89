"""The report on a large run (issue 20 item 5: memory flat in the number of games), and the tool
that builds such a run without playing it.

``build_big_run(src, out, copies)`` makes a run folder of ``copies`` x the games of the finished run
``src``: each copy's tables with the game indices (and deal indices) shifted by ``k * games``, written
as chunk files through ``sim.store.write_chunk`` and merged by ``sim.store.merge_chunks`` (the run's
own merge: streamed, then checked for coverage and committed). The manifest and config say the new
game count. A report of it says what the report of ``src`` says, with ``copies`` x the games (its
intervals narrower); playing a million games was measured flat before (docs/speed.md), so this
measures the merge and the report alone.

    python benchmarks/test_report_scale.py SRC OUT --copies 100      # 10,000-game SRC -> 1,000,000
    /usr/bin/time -f "%M KB" sim report OUT > /dev/null             # the report's peak memory

The benchmark below times the report's analysis (tables, sections, findings; no figures) on a
run of 20 x 200 games: a regression shows as a ratio against the stored results, never a failure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import polars as pl

from sim import store
from sim.data import read_json

TABLES = ("games", "players", "metrics", "components", "errors")


def build_big_run(src: Path, out: Path, copies: int) -> int:
    """Write ``copies`` renumbered copies of run ``src`` into ``out`` (replaced) and merge them;
    returns the new number of games."""
    man = read_json(src / "manifest.json")
    n = int(man["games"])
    shutil.rmtree(out, ignore_errors=True)
    (out / "chunks").mkdir(parents=True)
    base = {t: pl.read_parquet(src / f"{t}.parquet") for t in TABLES if (src / f"{t}.parquet").is_file()}
    for k in range(copies):
        tables = {}
        for name, df in base.items():
            shift = [pl.col(c) + k * n for c in ("game_index", "deal_index") if c in df.columns]
            tables[name] = df.with_columns(shift) if shift else df
        store.write_chunk(out, k * n, tables, (k + 1) * n)
    total = n * copies
    man["games"] = total
    man.pop("tables", None)
    if isinstance(man.get("experiment"), dict):
        man["experiment"]["games"] = total
    (out / "manifest.json").write_text(json.dumps(man, indent=2))
    config = json.loads((src / "config.json").read_text())
    config["games"] = total
    (out / "config.json").write_text(json.dumps(config, indent=2))
    if (src / "config.yaml").is_file():
        shutil.copy(src / "config.yaml", out / "config.yaml")
    store.merge_chunks(out)
    return total


def test_report_analysis_4000_games(benchmark, tmp_path):
    from sim.analysis.report import analyse
    from sim.analysis.tables import load_tables
    from sim.config import load_config
    from sim.runs.fixed import run

    root = Path(__file__).resolve().parents[1]
    rc = load_config(root / "configs" / "traders_of_osaka" / "speed_random4.yaml").model_copy(
        update={"games": 200, "jobs": 1})
    run(rc, tmp_path / "small", force=True, progress=False)
    build_big_run(tmp_path / "small", tmp_path / "big", 20)
    rep = benchmark.pedantic(lambda: analyse(load_tables(tmp_path / "big")), rounds=3, iterations=1)
    small = pl.read_parquet(tmp_path / "small" / "games.parquet")
    complete = small.filter(~pl.col("failed") & ~pl.col("truncated")).height
    assert rep.tables["seat"]["games"].sum() == 4 * 20 * complete  # every seat of every complete copy


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--copies", type=int, default=100)
    a = ap.parse_args()
    print(f"{build_big_run(a.src, a.out, a.copies)} games in {a.out}", file=sys.stderr)
