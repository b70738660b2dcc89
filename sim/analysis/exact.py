"""The three scipy.stats computations a run report needs, without importing scipy.stats (0.9 s
of start-up for every `sim run`, issue 20 item 8): the exact two-sided binomial test, the
chi-square goodness-of-fit test against equal counts, and the percentile bootstrap. Each follows scipy's own
algorithm step by step (scipy 1.17: ``stats/_binomtest.py``, ``stats/_stats_py.py`` (``chisquare``),
``stats/_resampling.py``), using the same special functions (``scipy.special``'s compiled ufuncs,
loaded without the package's ``__init__``: ``_ufuncs``) and the same random draws, so the report's figures do not change; ``tests/test_pipeline_stats.py``
compares each with scipy.stats on many inputs.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Callable
from types import ModuleType

import numpy as np


def _ufuncs() -> ModuleType:
    """``scipy.special._ufuncs``, the compiled module holding the Boost binomial functions and
    ``chdtrc``, without running ``scipy/special/__init__.py``: that file also loads the array-API
    layer and parses docstrings (0.2 CPU-s, a fifth of a 10-game `sim run`; ``_ufuncs`` alone
    0.02 s: issue 20 item 8). While the module loads, an empty stand-in for the package (its
    spec, so ``_ufuncs``' relative imports resolve) sits in ``sys.modules`` and is removed after;
    a later ``import scipy.special`` runs the package as usual and takes this same ``_ufuncs``.
    Any failure (another scipy layout) falls back to the ordinary import."""
    if "scipy.special._ufuncs" in sys.modules:
        return sys.modules["scipy.special._ufuncs"]
    if "scipy.special" in sys.modules:
        from scipy.special import _ufuncs

        return _ufuncs
    try:
        spec = importlib.util.find_spec("scipy.special")
        sys.modules["scipy.special"] = importlib.util.module_from_spec(spec)
        try:
            from scipy.special import _ufuncs
        finally:
            del sys.modules["scipy.special"]
        return _ufuncs
    except Exception:  # noqa: BLE001 - whatever went wrong, the package's own import
        for name in [m for m in sys.modules if m.startswith("scipy.special.")]:
            del sys.modules[name]
        from scipy.special import _ufuncs

        return _ufuncs


def _binom():
    """``(pmf, cdf, sf)`` of the binomial distribution: scipy's own ufuncs (Boost), as ``scipy.stats.binom``
    evaluates them inside its support."""
    u = _ufuncs()

    def pmf(k, n, p):
        return float(u._binom_pmf(k, n, p)) if 0 <= k <= n else 0.0

    def cdf(k, n, p):
        k = math.floor(k)
        return 0.0 if k < 0 else 1.0 if k >= n else float(u._binom_cdf(k, n, p))

    def sf(k, n, p):
        k = math.floor(k)
        return 1.0 if k < 0 else 0.0 if k >= n else float(u._binom_sf(k, n, p))

    return pmf, cdf, sf


def _search(a: Callable[[int], float], d: float, lo: int, hi: int) -> int:
    """scipy's ``_binary_search_for_binom_tst``: the ``i`` in ``[lo, hi]`` with ``a(i) <= d < a(i + 1)``."""
    while lo < hi:
        mid = lo + (hi - lo) // 2
        midval = a(mid)
        if midval < d:
            lo = mid + 1
        elif midval > d:
            hi = mid - 1
        else:
            return mid
    return lo if a(lo) <= d else lo - 1


def binomtest_p(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial test p-value of ``k`` successes in ``n`` trials against ``p``
    (``scipy.stats.binomtest(k, n, p).pvalue``: the outcomes no more likely than ``k``, with
    scipy's relative tolerance 1e-7). ``n >= 1``, ``0 <= k <= n``."""
    pmf, cdf, sf = _binom()
    d = pmf(k, n, p)
    rerr = 1 + 1e-7
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x: -pmf(x, n, p), -d * rerr, int(np.ceil(p * n)), n)
        y = n - ix + int(d * rerr == pmf(ix, n, p))
        pval = cdf(k, n, p) + sf(n - y, n, p)
    else:
        ix = _search(lambda x: pmf(x, n, p), d * rerr, 0, int(np.floor(p * n)))
        y = ix + 1
        pval = cdf(y - 1, n, p) + sf(k - 1, n, p)
    return min(1.0, pval)


def chi2_uniform(observed) -> tuple[float, float]:
    """``(statistic, p)`` of Pearson's chi-square goodness-of-fit test of counts against equal
    expected counts (their mean), ``k - 1`` degrees of freedom: ``scipy.stats.chisquare(observed)``
    with its defaults. ``observed``: ``k >= 2`` counts, sum above 0."""
    chdtrc = _ufuncs().chdtrc
    obs = np.asarray(observed, dtype=np.float64)
    expected = obs.mean()
    stat = float(((obs - expected) ** 2 / expected).sum())
    return stat, float(chdtrc(obs.size - 1, stat))


def bootstrap_percentile(n: int, statistic: Callable[[np.ndarray], np.ndarray], rng: np.random.Generator,
                         n_resamples: int, batch: int, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided percentile bootstrap interval of a statistic of ``n`` observations, as
    ``scipy.stats.bootstrap((np.arange(n),), statistic, vectorized=True, method="percentile", ...)``:
    resamples drawn ``batch`` at a time as ``rng.integers(0, n, (batch, n))``; ``statistic`` gets
    the resampled indices (shape ``(batch, n)``) and returns one value per resample (or ``(k, batch)``);
    the interval is the linear-interpolation quantiles at ``(1 -+ confidence) / 2``."""
    theta = []
    for k in range(0, n_resamples, batch):
        idx = rng.integers(0, n, (min(batch, n_resamples - k), n), dtype=np.int64)
        theta.append(statistic(idx))
    theta_b = np.concatenate(theta, axis=-1)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(theta_b, [alpha, 1 - alpha], axis=-1)
    return lo[()], hi[()]


def chi2_sf(stat: float, df: int) -> float:
    """The chi-square distribution's upper tail, ``scipy.stats.chi2.sf(stat, df)`` (``chdtrc``)."""
    return float(_ufuncs().chdtrc(df, stat))
