"""From ``ANALYTIC_FROM`` complete games on, the report's winning margin and game-length figures
come from value counts, never a per-game column (issue 20 item 5, session 8): the counts against a
hand-worked table, the section's figures against numpy on the per-game values, and the histogram
drawn from counts against the one drawn from every game's value (the same PNG bytes)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from sim.analysis import charts, counted, describe, margins, streamed
from sim.analysis.analytic import RatioSums, ratio_intervals
from sim.analysis.document import draw_chart


def _players(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"game_index": pl.Int64, "seat": pl.Int64, "score": pl.Float64, "won": pl.Boolean},
                        orient="row")


def test_margin_counts_by_hand(tmp_path, monkeypatch):
    # margins: game 0: 10-7 = 3; game 1: 9-6 = 3; game 2: everybody won (none); game 3: 12-4 = 8; game 4: 5-5 = 0
    rows = [(0, 0, 10, True), (0, 1, 7, False), (1, 0, 6, False), (1, 1, 9, True), (2, 0, 4, True), (2, 1, 4, True),
            (3, 0, 12, True), (3, 1, 4, False), (4, 0, 5, True), (4, 1, 5, False)]
    players = _players(rows)
    want = pl.DataFrame({"margin": [0.0, 3.0, 8.0], "games": [1, 2, 1]})
    assert margins.margin_counts(players).equals(want)
    players.write_parquet(tmp_path / "p.parquet")
    monkeypatch.setattr(streamed, "PART_GAMES", 2)  # three parts: the counts of a part added to the next's
    assert margins.margin_counts(pl.scan_parquet(tmp_path / "p.parquet")).equals(want)


def test_describe_counted_is_the_per_game_figures():
    rng = np.random.default_rng(8)
    x = rng.integers(-3, 40, 5001).astype(float)  # whole numbers, as margins and lengths
    v, n = np.unique(x, return_counts=True)
    row = describe.describe_counted(pl.DataFrame({"margin": v, "games": n}), "margin", 0.9).row(0, named=True)
    assert row["games"] == 5001 and row["mean"] == x.mean()  # whole numbers: the sums are exact
    assert (row["min"], row["median"], row["max"]) == (x.min(), np.median(x), x.max())
    assert row["sd"] == pytest.approx(x.std(ddof=1), rel=1e-12)
    half = 1.6448536269514722 * x.std(ddof=0) / math.sqrt(5001)  # the normal interval of a mean over games
    assert row["ci_low"] == pytest.approx(x.mean() - half, rel=1e-12)
    assert row["ci_high"] == pytest.approx(x.mean() + half, rel=1e-12)
    m = RatioSums(1)  # and the per-game layout's interval (``mean_intervals``), to the last bits
    m.add(x[:, None], np.ones((5001, 1)))
    lo, hi = ratio_intervals(m, 0.9)
    assert (row["ci_low"], row["ci_high"]) == (float(lo[0]), float(hi[0]))


@pytest.mark.parametrize("whole", [True, False])
def test_histogram_from_counts_is_the_histogram_of_the_values(whole):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 60, 3000).astype(float) if whole else np.round(rng.normal(5, 2, 3000), 1)
    v, n = np.unique(x, return_counts=True)
    args = ("winning margin (points)", "Winning margin per game", (float(x.mean()) - 0.2, float(x.mean()) + 0.2))
    one = draw_chart(lambda: charts.histogram_chart(x, *args, colour="#8172B2"))
    counted_ = draw_chart(lambda: charts.histogram_chart(v, *args, colour="#8172B2", counts=n))
    assert one[0] and counted_[0] and one[1] == counted_[1]


def test_histogram_values_of_a_scan_are_counts(tmp_path):
    games = pl.DataFrame({"rounds": [5, 7, 5, None, 9, 5], "failed": [False, False, False, False, True, False]})
    games.write_parquet(tmp_path / "g.parquet")
    where = ~pl.col("failed")
    values, counts = counted.histogram_values(games, "rounds", where)
    assert values.tolist() == [5, 7, 5, 5] and counts is None
    values, counts = counted.histogram_values(pl.scan_parquet(tmp_path / "g.parquet"), "rounds", where)
    assert values.tolist() == [5, 7] and counts.tolist() == [3, 1]


@pytest.mark.integration
def test_streamed_report_margin_section_is_the_per_game_one(tmp_path, monkeypatch):
    """A 60-game run reported as a million-game one (the switch point lowered to 20 games, parts of
    7): the margin section's mean, interval and median are those of the per-game margins (numpy)."""
    from sim.analysis import analytic, report, sections, summaries, tables
    from sim.analysis.tables import COLUMNS, load_tables
    from sim.config import load_config
    from sim.runs.fixed import run

    run(load_config("configs/traders_of_osaka/baseline.yaml", {"games": 60, "jobs": 1}), tmp_path / "r", progress=False)
    frame = load_tables(tmp_path / "r", list(COLUMNS["players"]), complete_only=True)
    per_game = margins.margins(frame.players)["margin"].to_numpy()
    for mod in (analytic, describe, margins, sections, summaries, tables):
        monkeypatch.setattr(mod, "ANALYTIC_FROM", 20)
    monkeypatch.setattr(streamed, "PART_GAMES", 7)
    rep = report.build_report(tmp_path / "r", figures="never")
    assert isinstance(load_tables(tmp_path / "r", list(COLUMNS["players"]), complete_only=True).players, pl.LazyFrame)
    counts = rep.tables["margin_counts"]
    assert "margins" not in rep.tables and counts["games"].sum() == len(per_game) >= 20
    half = 1.959963984540054 * per_game.std(ddof=0) / math.sqrt(len(per_game))
    intro = next(s.intro for s in rep.sections if s.key == "margin")
    assert f"over {len(per_game)} complete games" in intro
    assert f"{per_game.mean():.2f} ({per_game.mean() - half:.2f}–{per_game.mean() + half:.2f})" in intro
    assert f"median {np.median(per_game):.1f}" in intro
