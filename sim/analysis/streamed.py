"""Player rows that may be a scan (issue 20 item 5: the report's memory). From ``ANALYTIC_FROM``
complete games on, ``tables.load_tables`` hands the report the complete player rows as a
``pl.LazyFrame`` (a filtered ``scan_parquet``) instead of a ``DataFrame``; the summaries take
either: a query on a scan runs on polars' streaming engine (batches: the rows are never held),
on a frame in memory as before (the same results, so the report below the switch point does not
change), and what needs whole games reads them part by part (``whole_game_parts``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import polars as pl

Rows = pl.DataFrame | pl.LazyFrame

# games of one part read by ``whole_game_parts`` (four player rows of a few columns each: ~10 MB)
PART_GAMES = 125_000


def gather(frame: Rows, query: Callable[[pl.LazyFrame], pl.LazyFrame]) -> pl.DataFrame:
    """``query(frame.lazy())`` collected: on the streaming engine when ``frame`` is a scan, in
    memory (polars' default engine, as an eager query) when it is a ``DataFrame``."""
    lf = query(frame.lazy())
    return lf.collect(engine="streaming") if isinstance(frame, pl.LazyFrame) else lf.collect()


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
