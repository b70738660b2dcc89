"""Player rows that may be a scan (issue 20 item 5: the report's memory). From ``ANALYTIC_FROM``
complete games on, ``tables.load_tables`` hands the report the complete player rows as a
``pl.LazyFrame`` (a filtered ``scan_parquet``) instead of a ``DataFrame``; the summaries take
either: a query on a scan runs on polars' streaming engine (batches: the rows are never held),
on a frame in memory as before (the same results, so the report below the switch point does not
change), and what needs whole games reads them part by part (``whole_game_parts``)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable, Iterator
from functools import cache

import polars as pl

Rows = pl.DataFrame | pl.LazyFrame

# polars' streaming Parquet reader decodes several row groups ahead (read at each query): one at a
# time held about 20 MB less per query of a million-game scan, the same CPU (issue 20 item 5)
PREFETCH = "POLARS_ROW_GROUP_PREFETCH_SIZE"

# games of one part read by ``whole_game_parts`` (four player rows of a few columns each: ~4 MB;
# 125,000 games a part held about 40 MB more at the peak of a million-game report for 0.2 CPU-s less)
PART_GAMES = 50_000
# games of one part of the self-joins part by part (head to head, who sits before you): a game of
# four seats joins into 12 pairs of rows, so a part of ``PART_GAMES`` held about 40 MB
JOIN_PART_GAMES = 10_000


def gather(frame: Rows, query: Callable[[pl.LazyFrame], pl.LazyFrame]) -> pl.DataFrame:
    """``query(frame.lazy())`` collected: on the streaming engine when ``frame`` is a scan (one
    row group read ahead: ``PREFETCH``), in memory (polars' default engine, as an eager query)
    when it is a ``DataFrame``."""
    lf = query(frame.lazy())
    return streaming(lf) if isinstance(frame, pl.LazyFrame) else lf.collect()


def streaming(lf: pl.LazyFrame) -> pl.DataFrame:
    """``lf.collect(engine="streaming")`` with one row group read ahead (``PREFETCH``, unless the
    environment sets it: then as set)."""
    if PREFETCH in os.environ:
        return lf.collect(engine="streaming")
    os.environ[PREFETCH] = "1"
    try:
        return lf.collect(engine="streaming")
    finally:
        del os.environ[PREFETCH]


def height(frame: Rows) -> int:
    """The number of rows (counted by a streamed scan for a ``LazyFrame``)."""
    return frame.height if isinstance(frame, pl.DataFrame) else int(gather(frame, lambda f: f.select(pl.len())).item())


def schema(frame: Rows) -> pl.Schema:
    """The column types (of the file, for a scan: nothing is read)."""
    return frame.schema if isinstance(frame, pl.DataFrame) else frame.collect_schema()


def whole_game_parts(frame: Rows, games: int | None = None) -> Iterator[pl.DataFrame]:
    """``frame`` as ``DataFrame`` parts of whole games in row order: a ``DataFrame`` is one part
    (itself); a scan is read ``games`` (default ``PART_GAMES``) game indices at a time (a filter on
    ``game_index``, which the Parquet row-group statistics of a merged, sorted table turn into
    reading only those rows)."""
    games = games or PART_GAMES
    if isinstance(frame, pl.DataFrame):
        yield frame
        return
    lo, hi = gather(frame, lambda f: f.select(pl.col("game_index").min().alias("lo"),
                                              pl.col("game_index").max().alias("hi"))).row(0)
    if lo is None:
        return
    for at in range(int(lo), int(hi) + 1, games):
        yield gather(frame, lambda f, at=at: f.filter(pl.col("game_index").is_between(at, at + games, closed="left")))


@cache
def _libc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` on another C library (macOS, musl)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def release_heap() -> None:
    """Give the pages of freed memory back to the system (glibc's ``malloc_trim(0)``; nothing
    elsewhere). Between the report's stages on a scan: glibc keeps the freed arrays of one stage
    (numpy's per-part arrays, once its mmap threshold has risen) on its heap, and the next stage's
    polars buffers came on top (about 30 MB at a million games: issue 20 item 5)."""
    trim = _libc_trim()
    if trim is not None:
        trim(0)
