"""The run report computes its tests and intervals without scipy.stats (issue 20 item 8,
``sim.analysis.exact``): every table of the report must equal the one the scipy.stats calls give.
The reference is scipy itself, patched back in for one of the two analyses."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from sim.analysis import exact, stats
from sim.analysis.report import analyse
from sim.analysis.tables import load_tables
from sim.config import load_config
from sim.runs.fixed import run


def _scipy_binom_p(k, n, p):
    from scipy import stats as sps

    return float(sps.binomtest(k, n, p).pvalue)


def _scipy_chi2(observed):
    from scipy import stats as sps

    res = sps.chisquare(observed)
    return float(res.statistic), float(res.pvalue)


def _scipy_bootstrap(n, statistic, rng, n_resamples, batch, confidence):
    from scipy import stats as sps

    res = sps.bootstrap((np.arange(n),), lambda idx, axis=-1: statistic(idx), vectorized=True,
                        n_resamples=n_resamples, batch=batch, method="percentile", confidence_level=confidence, rng=rng)
    return res.confidence_interval.low, res.confidence_interval.high


@pytest.mark.integration
@pytest.mark.parametrize("config,games", [("traders_of_osaka/baseline.yaml", 40), ("traders_of_osaka/random4.yaml", 30)])
def test_report_tables_equal_those_of_scipy_stats(tmp_path, monkeypatch, config, games):
    rc = load_config(f"configs/{config}", {"games": games, "jobs": 1})
    run(rc, tmp_path / "r", progress=False)
    t = load_tables(tmp_path / "r")
    ours = analyse(t, min_sample=5, n_resamples=200)
    monkeypatch.setattr(stats, "binomtest_p", _scipy_binom_p)
    monkeypatch.setattr(stats, "bootstrap_percentile", _scipy_bootstrap)
    monkeypatch.setattr(exact, "chi2_uniform", _scipy_chi2)
    ref = analyse(t, min_sample=5, n_resamples=200)
    assert ours.tables.keys() == ref.tables.keys()
    for name, table in ref.tables.items():
        assert_frame_equal(ours.tables[name], table, check_exact=False, rel_tol=1e-9, abs_tol=1e-12)
    assert ours.findings == ref.findings and ours.verdict == ref.verdict
    for sec_a, sec_b in zip(ours.sections, ref.sections, strict=True):
        assert sec_a.intro == sec_b.intro
        if sec_b.table is not None:
            assert_frame_equal(sec_a.table, sec_b.table)


def test_report_modules_do_not_import_scipy_stats():
    # a fresh interpreter: importing the report and computing a test loads scipy.special only
    import subprocess

    code = ("import sys; from sim.analysis import report, stats; stats.binom_p(3, 10, 0.25); "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
