"""Parquet files concatenated in order into one file with fixed row groups: the merge of a run's
chunk files (``store.merge_chunks``), however many there are and whatever their schemas."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import parquet

ROW_GROUP = 131_072  # rows per row group of a merged table (``concat_sink``)


def concat_sink(files: list[Path], path: Path) -> pl.LazyFrame:
    """The lazy sink (``pl.collect_all`` runs it) writing ``files`` (Parquet, in order) as one file
    at ``path``, in row groups of ``ROW_GROUP`` rows: fixed, so the bytes, and their hash in
    manifest.json, do not depend on how the games were chunked (``--jobs``, ``chunk_size``; left
    to polars the row groups follow the chunk files: fresh-user finding, session 12). Each run of
    files with one schema is a single multi-file scan (a concat of one scan per file grows about
    quadratically: 1,000 chunk files of a table took 5.5 s, one scan 0.13 s); runs of different
    schemas are concatenated diagonally (a chunk whose games all failed lacks the game-specific
    columns: null there). Paths are taken as named (``sim.parquet``)."""
    return concat_runs(schema_runs(files), path)


def concat_runs(runs: list[list[Path]], path: Path) -> pl.LazyFrame:
    """``concat_sink`` of files already cut into ``schema_runs``."""
    scans = [parquet.scan(run) for run in runs]
    lf = scans[0] if len(scans) == 1 else pl.concat(scans, how="diagonal_relaxed")
    return lf.sink_parquet(path, lazy=True, row_group_size=ROW_GROUP)


def schema_runs(files: list[Path]) -> list[list[Path]]:
    """``files`` cut into runs of consecutive files with the same Parquet schema (read from each
    file's footer: about 0.06 ms a file)."""
    runs: list[list[Path]] = []
    last = None
    for f in files:
        schema = parquet.schema(f)
        if runs and schema == last:
            runs[-1].append(f)
        else:
            runs.append([f])
        last = schema
    return runs


MERGE_FANIN = 64  # schema runs one concat reads (``fan_in``)


def fan_in(files: list[Path], folder: Path, name: str) -> list[list[Path]]:
    """``files`` (Parquet, in order) as at most ``MERGE_FANIN`` schema runs (``schema_runs``; what
    ``concat_runs`` takes): while there are more, every ``MERGE_FANIN`` runs are concatenated into
    ``folder/merge-NAME-LEVEL-K.parquet.tmp``, so a concat never grows past that many scans (many
    chunks whose games all failed alternate schemas). The merged bytes are the same
    (``tests/test_merge_bytes.py``). Raises what polars raises for an unreadable file."""
    level, runs = 0, schema_runs(files)
    while len(runs) > MERGE_FANIN:
        groups = [runs[k:k + MERGE_FANIN] for k in range(0, len(runs), MERGE_FANIN)]
        parts = [folder / f"merge-{name}-{level}-{k:06d}.parquet.tmp" for k in range(len(groups))]
        for group, part in zip(groups, parts, strict=True):
            concat_runs(group, part).collect()
        level, runs = level + 1, schema_runs(parts)
    return runs
