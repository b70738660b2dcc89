"""Parquet files read by their names. polars takes ``[...]``, ``*`` and ``?`` in a path as a glob and
``key=value`` folders as hive partitions by default, so a run folder named ``study[v2]`` or
``seed=2`` failed after its play (session 13); every read of a run's tables goes through here."""

from __future__ import annotations

from pathlib import Path

import polars as pl


def scan(source: Path | list[Path], **kw) -> pl.LazyFrame:
    """``pl.scan_parquet`` of ``source`` (a file, or files in order), taken as named."""
    return pl.scan_parquet(source, glob=False, hive_partitioning=False, **kw)


def read(path: Path, **kw) -> pl.DataFrame:
    """``pl.read_parquet`` of ``path``, taken as named."""
    return pl.read_parquet(path, glob=False, hive_partitioning=False, **kw)


def schema(path: Path) -> pl.Schema:
    """The column names and types of ``path`` (read from its footer)."""
    return scan(path).collect_schema()
