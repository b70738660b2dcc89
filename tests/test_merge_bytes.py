"""The merged tables are the same bytes whatever the chunking (fresh-user finding, session 12:
``metrics.parquet`` of a 20,000-game run had equal rows but another SHA-256 in manifest.json with
``--jobs 2`` than with ``--jobs 1``, because polars wrote one row group per chunk file's morsels)."""

from __future__ import annotations

import hashlib

import polars as pl

from sim import store


def _merged(df: pl.DataFrame, rows_per_chunk: int, folder) -> str:
    folder.mkdir()
    files = []
    for i, start in enumerate(range(0, df.height, rows_per_chunk)):
        files.append(folder / f"metrics-{i:012d}.parquet")
        store.write_atomic(df.slice(start, rows_per_chunk), files[-1])
    pl.collect_all([store.concat_sink(files, folder / "metrics.parquet")])
    return hashlib.sha256((folder / "metrics.parquet").read_bytes()).hexdigest()


def test_merged_bytes_do_not_depend_on_the_chunk_files(tmp_path):
    # 300,000 rows of a metrics-like table (game, seat, metric, value): over two ROW_GROUPs, cut
    # into chunk files of 60,000 rows (2,500 games of four seats and six metrics) and of 15,000
    n = 300_000
    df = pl.DataFrame({"game_index": [i // 24 for i in range(n)], "seat": [i // 6 % 4 for i in range(n)],
                       "metric": [f"m{i % 6}" for i in range(n)], "value": [float(i % 97) for i in range(n)]})
    a, b = _merged(df, 60_000, tmp_path / "a"), _merged(df, 15_000, tmp_path / "b")
    assert a == b
    assert pl.read_parquet(tmp_path / "a" / "metrics.parquet").equals(df)
