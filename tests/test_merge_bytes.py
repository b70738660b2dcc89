"""The merged tables are the same bytes whatever the chunking (fresh-user finding, session 12:
``metrics.parquet`` of a 20,000-game run had equal rows but another SHA-256 in manifest.json with
``--jobs 2`` than with ``--jobs 1``, because polars wrote one row group per chunk file's morsels)."""

from __future__ import annotations

import hashlib

import polars as pl

from sim import concat, store


def _merged(df: pl.DataFrame, rows_per_chunk: int, folder) -> str:
    folder.mkdir()
    files = []
    for i, start in enumerate(range(0, df.height, rows_per_chunk)):
        files.append(folder / f"metrics-{i:012d}.parquet")
        store.write_atomic(df.slice(start, rows_per_chunk), files[-1])
    pl.collect_all([concat.concat_sink(files, folder / "metrics.parquet")])
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


def _concat_one_scan_per_file(files, path):
    """The merge before session 13, the reference: one scan per file, concatenated diagonally."""
    pl.concat([pl.scan_parquet(f) for f in files], how="diagonal_relaxed").sink_parquet(
        path, row_group_size=concat.ROW_GROUP)


def test_schema_runs_and_fan_in_give_the_bytes_of_one_scan_per_file(tmp_path, monkeypatch):
    """Chunk files are read as runs of one schema (``concat.schema_runs``, one multi-file scan each);
    with more runs than ``MERGE_FANIN`` (here 2) they are merged in parts first (``concat.fan_in``).
    Eight files: one lacks a column (a chunk whose games all failed has no game-specific columns:
    null there) and one has it all null (polars' Null type): five runs -> three parts -> the table.
    The bytes are those of one scan per file concatenated diagonally."""
    frames = [pl.DataFrame({"game_index": [2 * i, 2 * i + 1], "score": [float(i), float(-i)]}) for i in range(8)]
    frames[3] = frames[3].drop("score")
    frames[5] = frames[5].with_columns(score=pl.lit(None))
    files = []
    for i, f in enumerate(frames):
        files.append(tmp_path / f"games-{i:012d}.parquet")
        store.write_atomic(f, files[-1])
    assert [[int(f.stem[-2:]) for f in run] for run in concat.schema_runs(files)] == [[0, 1, 2], [3], [4], [5], [6, 7]]
    _concat_one_scan_per_file(files, tmp_path / "one.parquet")
    monkeypatch.setattr(concat, "MERGE_FANIN", 2)
    runs = concat.fan_in(files, tmp_path, "games")
    # five runs -> three parts (runs 0-1, 2-3, 4), each (game_index: Int64, score: Float64; Null's
    # supertype with Float64 is Float64): one run, no second level
    assert [[f.name for f in run] for run in runs] == [[f"merge-games-0-00000{k}.parquet.tmp" for k in range(3)]]
    assert not list(tmp_path.glob("merge-games-1-*"))
    pl.collect_all([concat.concat_runs(runs, tmp_path / "two.parquet")])
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()
    merged = pl.read_parquet(tmp_path / "two.parquet")
    assert merged["game_index"].to_list() == list(range(16))
    assert merged["score"].null_count() == 4  # the games of the chunk without the column and of the all-null one


def test_a_run_of_one_game_chunks_merges_to_the_same_tables(tmp_path):
    """``chunk_size: 1`` (60 chunk files a table, one schema: one multi-file scan each): the
    committed tables are the bytes of the same run in one chunk, and no part is left behind."""
    from click.testing import CliRunner

    from sim.cli import cli

    base = ("game: traders_of_osaka\nplayers: 3\ngames: 60\nseed: 11\nstrategies:\n  - {name: osaka.trader}\n"
            "  - {name: osaka.shipper}\n  - {name: random}\n")
    for name, extra in (("one", ""), ("tiny", "chunk_size: 1\n")):
        (tmp_path / f"{name}.yaml").write_text(base + extra)
        res = CliRunner().invoke(cli, ["run", str(tmp_path / f"{name}.yaml"), "--out", str(tmp_path / name), "--quiet",
                                       "--figures", "never"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
    for t in store.TABLES:
        assert (tmp_path / "one" / f"{t}.parquet").read_bytes() == (tmp_path / "tiny" / f"{t}.parquet").read_bytes(), t
    assert not (tmp_path / "tiny" / "chunks").exists() and not list((tmp_path / "tiny").rglob("*.tmp"))


def test_a_folder_named_like_a_glob_or_a_hive_partition_merges(tmp_path):
    """Chunk paths are read as they are: ``[`` is not a glob and ``seed=3`` not a hive partition
    (no ``seed`` column appears)."""
    folder = tmp_path / "runs[1]" / "seed=3"
    folder.mkdir(parents=True)
    files = []
    for i in range(3):
        files.append(folder / f"games-{i:012d}.parquet")
        store.write_atomic(pl.DataFrame({"game_index": [i]}), files[-1])
    pl.collect_all([concat.concat_sink(files, folder / "games.parquet")])
    assert pl.read_parquet(folder / "games.parquet", glob=False).to_dict(as_series=False) == {"game_index": [0, 1, 2]}


def test_a_run_folder_with_brackets_and_an_equals_sign_runs_and_reports(tmp_path):
    """polars reads ``[...]`` in a path as a glob and ``key=value`` folders as hive partitions by
    default: every read of the run folder takes paths as they are (before session 13 such a
    folder failed after the play: "expanded paths were empty")."""
    from click.testing import CliRunner

    from sim.cli import cli

    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 3\ngames: 30\nseed: 2\nstrategies:\n  - {name: random}\n")
    out = tmp_path / "study[v2]" / "seed=2"
    for args in (["run", str(cfg), "--out", str(out), "--quiet", "--figures", "always"], ["report", str(out), "--figures", "always"]):
        res = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert res.exit_code == 0, res.output
    players = pl.read_parquet(out / "players.parquet", glob=False)
    assert "seed" not in players.columns and players.height == 90  # 30 games of 3 seats
    assert (out / "report.md").is_file() and len(list((out / "figures").glob("*.png"))) >= 5


def test_every_parquet_read_of_sim_goes_through_sim_parquet():
    """The bracket-and-equals folder above works because no read takes polars' defaults: a new
    ``pl.scan_parquet``/``pl.read_parquet``/``pl.read_parquet_schema`` elsewhere in ``sim`` would
    bring the glob back (session 13 review)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "sim"
    bare = [f"{p.relative_to(root)}:{i}" for p in root.rglob("*.py") if p.name != "parquet.py" or p.parent != root
            for i, line in enumerate(p.read_text().splitlines(), 1)
            if any(f"pl.{f}(" in line for f in ("scan_parquet", "read_parquet", "read_parquet_schema"))]
    assert bare == []
