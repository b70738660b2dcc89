"""The Wilson interval is computed in closed form, without scipy.stats (issue 20 item 8); it must
agree with statsmodels' ``proportion_confint(method="wilson")`` (a reference library) and with
the scipy call it replaces, and with a value worked by hand."""

from __future__ import annotations

import math

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
