"""How ``--jobs 2`` hands out games (issue 20 item 1): the default chunks end in short ones, so
the workers finish close together; a worker is sent its next chunk before the caller writes the
chunk it returned (the worker used to idle while the parent wrote and fsynced five files)."""

from __future__ import annotations

import random

import pytest
from test_play_pool import CFG

from sim.config import load_config
from sim.runs import fixed, forked
from sim.store import chunk_ranges


def _contiguous(r: list[tuple[int, int]], start: int, stop: int) -> bool:
    return (r[0][0] == start and r[-1][1] == stop and all(b > a for a, b in r)
            and all(x[1] == y[0] for x, y in zip(r, r[1:], strict=False)))


def test_two_jobs_end_in_quarter_size_chunks():
    r = chunk_ranges(0, 20_000, 2, None)
    # 20,000 / (2 jobs x 16) = 625 games a chunk; the last 2 x 625 = 1,250 games are cut into
    # 1,250 // (625 // 4 = 156) = 8 chunks of 156.25 games on average: 156 or 157 each
    assert r[:30] == [(625 * i, 625 * (i + 1)) for i in range(30)]
    assert len(r) == 38 and {b - a for a, b in r[30:]} == {156, 157} and _contiguous(r, 0, 20_000)


def test_one_job_and_a_given_chunk_size_are_cut_evenly():
    assert chunk_ranges(0, 20_000, 1, None) == [(2500 * i, 2500 * (i + 1)) for i in range(8)]
    assert chunk_ranges(3, 20, 2, 7) == [(3, 10), (10, 17), (17, 20)]
    assert chunk_ranges(0, 100, 2, None) == [(0, 20), (20, 40), (40, 60), (60, 80), (80, 100)]  # 20 at least


def test_chunks_cover_any_range_in_order():
    rnd = random.Random(20)
    for _ in range(500):
        a = rnd.randrange(500)
        b = a + rnd.randrange(1, 30_000)
        assert _contiguous(chunk_ranges(a, b, rnd.choice([1, 2, 3, 8]), rnd.choice([None, None, 5, 300])), a, b)


@pytest.mark.integration
def test_a_worker_has_its_next_chunk_before_the_caller_sees_its_result(tmp_path, monkeypatch):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=8, chunk=2, second="osaka.shipper"))
    setup_json = fixed.setup_of(load_config(cfg)).to_json()
    sent: list[tuple[int, int]] = []
    send = forked.Worker.send
    monkeypatch.setattr(forked.Worker, "send", lambda self, a, b: (sent.append((a, b)), send(self, a, b))[1])
    ranges = [(0, 2), (2, 4), (4, 6), (6, 8)]
    seen = []
    for res in forked.pool_results(setup_json, ranges, 2):
        seen.append((res[0], res[1]))
        # two chunks in flight from the start, and one more sent for every result already returned
        assert len(sent) == min(len(ranges), 2 + len(seen))
    assert sorted(seen) == ranges


@pytest.mark.integration
def test_workers_forked_before_polars_starts_write_their_own_chunks(tmp_path):
    """In a fresh ``sim`` process (polars' pool not started) each worker writes its chunk and
    answers a ``store.Written`` summary; the merged tables are those of the rows path, which
    this test process takes (its polars pool runs: ``polars_pool_started``)."""
    import subprocess
    import sys

    import polars as pl
    from polars.testing import assert_frame_equal

    from sim.analysis.figure_policy import polars_pool_started

    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=9, chunk=2, second="osaka.shipper"))
    code = f"""
import sim.runs.forked as fk
from pathlib import Path
from sim.config import load_config
from sim.runs import fixed
kinds = []
result = fk.Worker.result
fk.Worker.result = lambda self: (lambda r: (kinds.append(type(r[2]).__name__), r)[1])(result(self))
outcome = fixed.run(load_config({str(cfg)!r}), Path({str(tmp_path / 'w')!r}), progress=False)
print(sorted(set(kinds)), outcome.games)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['Written']", "9"]
    pl.DataFrame({"a": [1, 2]}).group_by("a").len()  # this process: polars' pool runs
    assert polars_pool_started()
    fixed.run(load_config(cfg), tmp_path / "p", progress=False)  # the rows path
    for table in ("games", "players", "metrics", "errors"):
        assert_frame_equal(pl.read_parquet(tmp_path / "w" / f"{table}.parquet"),
                           pl.read_parquet(tmp_path / "p" / f"{table}.parquet"))
