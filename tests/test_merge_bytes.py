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


def test_fan_in_merges_in_runs_and_gives_the_same_bytes(tmp_path, monkeypatch):
    """Thousands of chunk files (a tiny ``chunk_size``) are merged in runs of ``MERGE_FANIN``
    (``store.fan_in``): here 2, so 7 files -> 4 -> 2 parts; one file lacks a column (a chunk whose
    games all failed has no game-specific columns: null there, as in one concat)."""
    frames = [pl.DataFrame({"game_index": [2 * i, 2 * i + 1], "score": [float(i), float(-i)]}) for i in range(7)]
    frames[3] = frames[3].drop("score")
    files = []
    for i, f in enumerate(frames):
        files.append(tmp_path / f"games-{i:012d}.parquet")
        store.write_atomic(f, files[-1])
    pl.collect_all([store.concat_sink(files, tmp_path / "one.parquet")])
    monkeypatch.setattr(store, "MERGE_FANIN", 2)
    parts = store.fan_in(files, tmp_path, "games")
    assert [p.name for p in parts] == ["merge-games-1-000000.parquet.tmp", "merge-games-1-000001.parquet.tmp"]
    assert len(list(tmp_path.glob("merge-games-0-*.parquet.tmp"))) == 4  # ceil(7 / 2)
    pl.collect_all([store.concat_sink(parts, tmp_path / "two.parquet")])
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()
    merged = pl.read_parquet(tmp_path / "two.parquet")
    assert merged["game_index"].to_list() == list(range(14))
    assert merged["score"].null_count() == 2  # the two games of the chunk without the column


def test_a_run_of_one_game_chunks_merges_to_the_same_tables(tmp_path, monkeypatch):
    """``chunk_size: 1`` (60 chunk files a table) with ``MERGE_FANIN`` 4: parts of 4 files (15), of
    4 parts (4), then the table; no concat reads more than 4 files; the committed tables are the
    bytes of the same run in one chunk, and no part is left behind."""
    from click.testing import CliRunner

    from sim.cli import cli

    base = ("game: traders_of_osaka\nplayers: 3\ngames: 60\nseed: 11\nstrategies:\n  - {name: osaka.trader}\n"
            "  - {name: osaka.shipper}\n  - {name: random}\n")
    monkeypatch.setattr(store, "MERGE_FANIN", 4)
    widths, concat = [], store.concat_sink
    monkeypatch.setattr(store, "concat_sink", lambda files, path: (widths.append(len(files)), concat(files, path))[1])
    for name, extra in (("one", ""), ("tiny", "chunk_size: 1\n")):
        (tmp_path / f"{name}.yaml").write_text(base + extra)
        res = CliRunner().invoke(cli, ["run", str(tmp_path / f"{name}.yaml"), "--out", str(tmp_path / name), "--quiet",
                                       "--figures", "never"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
    for t in store.TABLES:
        assert (tmp_path / "one" / f"{t}.parquet").read_bytes() == (tmp_path / "tiny" / f"{t}.parquet").read_bytes(), t
    assert not (tmp_path / "tiny" / "chunks").exists() and not list((tmp_path / "tiny").rglob("*.tmp"))
    assert max(widths) == 4 and widths.count(4) >= 5 * (15 + 3)  # five tables, 15 + 3 full runs of 4 each
