"""Session 10, fresh-user finding 10 (part 2): `sim compare` and `sim sweep` Holm-adjust the win-rate
rows and the mean-score rows as two families (different questions), not as one. Hand-built rows;
the reference is statsmodels' ``multipletests(method="holm")`` within each metric."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from sim.analysis import compare as cmp
from sim.analysis import sweep_compare
from sim.analysis.compare_report import headline
from sim.analysis.stats import holm_within
from sim.analysis.tables import RunTables


def _holm(ps):
    return list(multipletests(ps, method="holm")[1])


def test_holm_within_adjusts_each_family_on_its_own():
    ps = [0.01, 0.04, 0.03, 0.001, 0.2, 0.012]
    fam = ["w", "s", "w", "s", "w", "s"]
    got = holm_within(ps, fam)
    w, s = _holm([0.01, 0.03, 0.2]), _holm([0.04, 0.001, 0.012])
    assert got == pytest.approx([w[0], s[0], w[1], s[1], w[2], s[2]])


def _run(winners: list[int]) -> RunTables:
    """Two seats, seating rotate, the same seed: seat w of game g wins; every score 10 (no score moves)."""
    n = len(winners)
    players = pl.DataFrame([(g, s, f"s{s}", 10.0, 1 if s == w else 2, s == w) for g, w in enumerate(winners)
                            for s in range(2)], schema=["game_index", "seat", "strategy", "score", "rank", "won"],
                           orient="row")
    games = pl.DataFrame({"game_index": range(n), "failed": [False] * n, "truncated": [False] * n,
                          "n_winners": [1] * n})
    return RunTables(games, players, pl.DataFrame(), pl.DataFrame(), {"game": "g", "players": 2, "seed": 1,
                                                                      "seating": "rotate"}, {}, run_dir=Path("r"))


def test_compare_adjusts_win_rates_without_the_score_rows():
    # 100 paired games: seat 0 wins 40 in both runs, 16 only in B, 4 only in A (exact McNemar:
    # binomtest(4, 20, 0.5), p = 0.0118); scores never move (paired t-test p = 1)
    a = [0] * 40 + [1] * 16 + [0] * 4 + [1] * 40
    b = [0] * 40 + [0] * 16 + [1] * 4 + [1] * 40
    c = cmp.compare_runs(_run(a), _run(b))
    assert c.paired
    p = sps.binomtest(4, 20, 0.5).pvalue
    wins = [r for r in c.rows if r["metric"] == "win_rate"]
    scores = [r for r in c.rows if r["metric"] == "mean_score"]
    assert len(wins) == len(scores) == 4 and all(r["p_value"] == pytest.approx(p) for r in wins)
    assert [r["p_adjusted"] for r in wins] == pytest.approx(_holm([p] * 4))  # 4 x 0.0118 = 0.047
    assert [r["p_adjusted"] for r in scores] == pytest.approx(_holm([1.0] * 4))
    assert all(r["significant"] for r in wins) and not any(r["significant"] for r in scores)
    assert min(_holm([r["p_value"] for r in c.rows])) > 0.05  # one family of 8 would have lost them (8 x 0.0118)
    said = headline(c, "A", "B")[0]
    assert "Holm-adjusted within each metric (over the 4 win-rate rows, and separately the 4 mean-score rows)" in said


def test_a_sweep_adjusts_each_metric_over_all_its_points(monkeypatch):
    ps = {(1, "win_rate"): [0.004, 0.03], (1, "mean_score"): [1e-6, 0.02],
          (2, "win_rate"): [0.2, 0.01], (2, "mean_score"): [1e-5, 0.5]}

    def fake_compare(a, b, confidence):
        rows = [{"group": "seat", "label": str(i), "metric": m, "p_value": p, "diff": 0.0, "ci_low": 0.0,
                 "ci_high": 0.0, "test": "t"} for (pt, m), v in ps.items() if pt == b for i, p in enumerate(v)]
        return cmp.Comparison(True, confidence, rows, "same")

    class T(int):  # a point's "tables": its index, and the players count the sweep checks
        config = {"players": 2}

    monkeypatch.setattr(sweep_compare, "compare_runs", fake_compare)
    monkeypatch.setattr(sweep_compare, "load_tables", lambda folder: T(int(folder.name[-1])))
    meta = {"points": [{"index": i, "folder": f"p{i}", "label": f"x={i}"} for i in range(3)]}
    rows, skipped = sweep_compare.baseline_comparisons(Path("/nowhere"), meta)
    assert not skipped
    for metric in ("win_rate", "mean_score"):
        got = rows.filter(pl.col("metric") == metric)
        want = _holm(ps[(1, metric)] + ps[(2, metric)])
        assert got["p_adjusted"].to_list() == pytest.approx(want)
        assert got["significant"].to_list() == [p < 0.05 for p in want]
    first = sweep_compare.sentences(rows.with_columns(identical=pl.lit(False), paired=pl.lit(True)), "x=0", 0.95)[0]
    assert "Holm-adjusted over the sweep within each metric (the 4 win-rate rows, and separately the 4 mean-score rows)" in first


def test_fail_on_difference_is_one_decision_over_all_rows(tmp_path, monkeypatch):
    # --fail-on-difference answers one yes/no over all 8 rows, so it keeps Holm over all of them (false
    # alarms below 5%). Win rates p = 0.0118 (4 x 0.0118 = 0.047 within the metric; 8 x 0.0118 = 0.094
    # over all rows): the report calls them significant, the exit status stays 0 and says why.
    from click.testing import CliRunner

    from sim.cli import cli, commands_compare

    a = [0] * 40 + [1] * 16 + [0] * 4 + [1] * 40
    runs = {"A": _run(a), "B": _run([0] * 40 + [0] * 16 + [1] * 4 + [1] * 40),
            "C": _run([0] * 40 + [0] * 18 + [1] * 2 + [1] * 40)}  # 16 games only C wins, 2 only A: binomtest(2, 18, 0.5)
    monkeypatch.setattr(commands_compare, "load_tables", lambda path: runs[path.name])
    p = sps.binomtest(4, 20, 0.5).pvalue
    assert 4 * p < 0.05 < 8 * p and 8 * sps.binomtest(2, 18, 0.5).pvalue < 0.05

    def run(b):
        return CliRunner().invoke(cli, ["compare", "A", b, "--out", str(tmp_path / b), "--fail-on-difference"])

    res = run("B")
    assert res.exit_code == 0, res.output
    assert ("--fail-on-difference: none of 8 rows differs significantly with Holm over all 8 rows; 4 more significant "
            "within its metric, as the report says, but not over all rows; exit status 0") in res.output
    res = run("C")
    assert res.exit_code == 1 and "4 of 8 rows differ significantly with Holm over all 8 rows" in res.output
