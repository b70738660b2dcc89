"""The Wilson interval is computed in closed form, without scipy.stats (issue 20 item 8); it must
agree with statsmodels' ``proportion_confint(method="wilson")`` (a reference library) and with
the scipy call it replaces, and with a value worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.analysis.stats import wilson


@pytest.mark.parametrize("k,n", [(1, 2), (3, 10), (25, 100), (517, 2000), (4902, 19608), (999, 1000), (1, 1_000_000)])
@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_wilson_agrees_with_statsmodels(k, n, confidence):
    lo, hi = wilson(k, n, confidence)
    ref_lo, ref_hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    assert lo == pytest.approx(ref_lo, rel=1e-12, abs=1e-15)
    assert hi == pytest.approx(ref_hi, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("k,n", [(0, 5), (5, 5), (7, 13), (0, 1), (1, 1)])
def test_wilson_agrees_with_scipy_including_the_ends(k, n):
    from scipy import stats

    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15)
    if k == 0:
        assert wilson(k, n)[0] == 0.0
    if k == n:
        assert wilson(k, n)[1] == 1.0


def test_wilson_by_hand():
    # 5 wins in 10 at 95%: z = 1.959964, center = (10 + z^2/2)/(10 + z^2) = 0.5,
    # half-width = z/(10 + z^2) * sqrt(10*0.25 + z^2/4) = 1.959964/13.841459 * sqrt(3.460365) ≈ 0.26341 (five digits by hand)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.5 - 0.26341, abs=1e-5)
    assert hi == pytest.approx(0.5 + 0.26341, abs=1e-5)


def test_wilson_without_trials_is_nan():
    assert all(math.isnan(x) for x in wilson(0, 0))


# ---------------------------------------------------------------- scipy.stats replaced (sim.analysis.exact)

@pytest.mark.parametrize("k,n,p", [(0, 1, 0.5), (1, 1, 0.25), (3, 10, 0.5), (7, 10, 0.25), (25, 100, 0.25),
                                   (4902, 19608, 0.2567), (1200, 4000, 0.3), (5, 20, 0.25), (15, 20, 0.25),
                                   (50, 100, 0.5), (499, 1000, 0.5), (0, 50, 0.01), (50, 50, 0.99)])
def test_binomtest_p_equals_scipy(k, n, p):
    from scipy import stats

    from sim.analysis.exact import binomtest_p

    assert binomtest_p(k, n, p) == pytest.approx(stats.binomtest(k, n, p).pvalue, rel=1e-12, abs=1e-300)


def test_binomtest_p_by_hand():
    # 0 of 2 at p = 1/2: outcomes as unlikely as 0 are 0 and 2, each 1/4: p = 1/2
    from sim.analysis.exact import binomtest_p

    assert binomtest_p(0, 2, 0.5) == pytest.approx(0.5)
    assert binomtest_p(1, 2, 0.5) == 1.0


@pytest.mark.parametrize("counts", [[10, 20], [30, 40, 50], [120, 130, 90, 100], [1, 0, 2], [5, 5], [7, 0, 0, 0, 1]])
def test_chi2_uniform_equals_scipy(counts):
    from scipy import stats

    from sim.analysis.exact import chi2_uniform

    ref = stats.chisquare(counts)
    stat, p = chi2_uniform(counts)
    assert stat == pytest.approx(ref.statistic, rel=1e-12, abs=1e-12)
    assert p == pytest.approx(ref.pvalue, rel=1e-12)


def test_chi2_uniform_by_hand():
    # [10, 20]: E = 15; (25 + 25) / 15 = 10/3
    from sim.analysis.exact import chi2_uniform

    assert chi2_uniform([10, 20])[0] == pytest.approx(10 / 3)


@pytest.mark.parametrize("n,resamples,batch,conf", [(2, 1000, 1000, 0.95), (37, 999, 100, 0.9), (500, 1000, 1000, 0.95),
                                                    (3000, 1000, 1333, 0.99)])
def test_bootstrap_equals_scipy(n, resamples, batch, conf):
    from scipy import stats

    from sim.analysis.exact import bootstrap_percentile

    x = np.random.default_rng(n).normal(size=(n, 2))

    def stat(idx, axis=-1):  # two figures at once, as the report's ratios
        return np.stack([x[idx, 0].mean(axis=-1), (x[idx, 1] > 0).mean(axis=-1)])

    ref = stats.bootstrap((np.arange(n),), stat, vectorized=True, n_resamples=resamples, batch=batch,
                          method="percentile", confidence_level=conf, rng=np.random.default_rng(7))
    lo, hi = bootstrap_percentile(n, stat, np.random.default_rng(7), resamples, batch, conf)
    np.testing.assert_allclose(lo, ref.confidence_interval.low, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(hi, ref.confidence_interval.high, rtol=1e-12, atol=1e-15)


def test_special_functions_load_without_the_scipy_special_package():
    """``exact`` takes scipy's compiled binomial and chi-square ufuncs without running
    ``scipy/special/__init__.py`` (start-up, issue 20 item 8); a later ``import scipy.special``
    still works and holds the same module, and scipy.stats agrees with what was computed first."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from sim.analysis import exact\n"
        "p = exact.binomtest_p(3, 20, 0.25); c = exact.chi2_uniform([10, 14, 9, 7])\n"
        "assert 'scipy.special' not in sys.modules, 'package imported'\n"
        "import scipy.special, scipy.stats\n"
        "assert scipy.special._ufuncs is exact._ufuncs()\n"
        "assert p == scipy.stats.binomtest(3, 20, 0.25).pvalue, p\n"
        "s = scipy.stats.chisquare([10, 14, 9, 7]); assert c == (s.statistic, s.pvalue), c\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr
