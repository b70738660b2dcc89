"""How ``--jobs 2`` hands out games (issue 20 item 1): the default chunks shrink as the games left
do (guided scheduling), so the workers finish close together with few chunk files to write and
merge; a worker is sent its next chunk before the caller writes the chunk it returned (the worker
used to idle while the parent wrote and fsynced five files)."""

from __future__ import annotations

import random

import pytest
from test_play_pool import CFG

from sim.chunking import chunk_ranges
from sim.config import load_config
from sim.runs import fixed, forked


def _contiguous(r: list[tuple[int, int]], start: int, stop: int) -> bool:
    return (r[0][0] == start and r[-1][1] == stop and all(b > a for a, b in r)
            and all(x[1] == y[0] for x, y in zip(r, r[1:], strict=False)))


def test_two_jobs_use_guided_chunks_that_end_short():
    r = chunk_ranges(0, 20_000, 2, None)
    # big = 20,000 / (4 x 2 jobs) = 2,500; small = 2,500 // 16 = 156. While ceil(left / 4) >= 2,500
    # (left >= 10,000): five chunks of 2,500. Then ceil(left / 4): 7,500 -> 1,875; 5,625 -> 1,407;
    # 4,218 -> 1,055; 3,163 -> 791; 2,372 -> 593; 1,779 -> 445; 1,334 -> 334; 1,000 -> 250;
    # 750 -> 188; at 562 ceil(562 / 4) = 141 < 156: the rest cut into 562 // 156 = 3 chunks
    # (562 * i // 3: 187, 187, 188)
    sizes = [2500] * 5 + [1875, 1407, 1055, 791, 593, 445, 334, 250, 188, 187, 187, 188]
    assert [b - a for a, b in r] == sizes and _contiguous(r, 0, 20_000)


def test_one_job_and_a_given_chunk_size_are_cut_evenly():
    assert chunk_ranges(0, 20_000, 1, None) == [(2500 * i, 2500 * (i + 1)) for i in range(8)]
    assert chunk_ranges(3, 20, 2, 7) == [(3, 10), (10, 17), (17, 20)]
    assert chunk_ranges(0, 100, 2, None) == [(0, 20), (20, 40), (40, 60), (60, 80), (80, 100)]  # 20 at least
    assert chunk_ranges(0, 45, 2, None) == [(0, 22), (22, 45)]  # under 2 x 20 left: even chunks of 20 or more


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

    from sim.analysis.figure_helpers import polars_pool_started

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


@pytest.mark.integration
def test_drained_is_called_once_when_a_worker_has_nothing_left(tmp_path, monkeypatch):
    """``drained`` (the figure helpers' warm-up, issue 20 item 1) runs once, as soon as a worker
    answers with no chunk left to hand it. Four chunks on two workers: two are sent at the start
    and one more as each of the first two results comes in, so the third result's worker is the
    first to find nothing left: ``drained`` runs after two results reached the caller."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=8, chunk=2, second="osaka.shipper"))
    setup_json = fixed.setup_of(load_config(cfg)).to_json()
    calls: list[int] = []
    seen: list[int] = []
    for res in forked.pool_results(setup_json, [(0, 2), (2, 4), (4, 6), (6, 8)], 2,
                                   drained=lambda: calls.append(len(seen))):
        seen.append(res[0])
    assert calls == [2] and len(seen) == 4


def test_warm_ahead_warms_only_for_an_expected_mode_that_draws(monkeypatch):
    from sim.analysis import figure_policy as fp

    warmed: list[tuple[str, int]] = []
    monkeypatch.setattr(fp, "warm", lambda mode, games: warmed.append((mode, games)))
    monkeypatch.setattr(fp, "_EXPECTED", [None])
    fp.warm_ahead(500)  # no run said which mode: nothing
    fp.expect("auto")
    fp.warm_ahead(500)
    assert warmed == [("auto", 500)]  # ``warm`` itself decides by the mode and the count
