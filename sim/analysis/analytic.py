"""Normal intervals of means over whole games from streamed sums: what the report uses instead of
the percentile bootstrap from ``ANALYTIC_FROM`` complete games on (issue 20 item 5: the bootstrap
needs every game's values in memory, ``(2k, games)`` floats; these need five sums per figure).

A mean over player rows of a group is the ratio ``R = sum_g S_g / sum_g C_g`` of per-game sums
``S_g`` (the group's scores in game ``g``) and counts ``C_g`` (its rows there; 1 per game for a
mean over games, 0 where the value is missing). Its variance, resampling whole games, is the
linearisation (delta-method, cluster-robust "sandwich") variance
``sum_g (S_g - R C_g)^2 / (sum_g C_g)^2``, which is what statsmodels' ``OLS(y, 1).fit(
cov_type="cluster", cov_kwds={"groups": game, "use_correction": False})`` gives for the mean
of the rows (``tests/test_report_analytic.py``), and the interval is ``R +- z se`` with
``z`` the two-sided normal quantile of the confidence level. docs/analysis.md gives the
switch point and how closely it agrees with the bootstrap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .per_game import group_sums
from .stats import _z
from .streamed import Rows, whole_game_parts

# complete games from which the report's means get the normal interval (and the run's rows are
# streamed, never held: ``tables.load_tables``); below it the percentile bootstrap, as before
ANALYTIC_FROM = 100_000


@dataclass
class RatioSums:
    """The sums of ``k`` ratios' per-game values, added part by part (``add``): ``n`` games and,
    per ratio, ``s`` = sum S, ``c`` = sum C, ``ss`` = sum S^2, ``sc`` = sum S C, ``cc`` = sum C^2."""

    k: int
    n: int = 0
    s: np.ndarray = field(init=False)
    c: np.ndarray = field(init=False)
    ss: np.ndarray = field(init=False)
    sc: np.ndarray = field(init=False)
    cc: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        for name in ("s", "c", "ss", "sc", "cc"):
            setattr(self, name, np.zeros(self.k))

    def add(self, sums: np.ndarray, counts: np.ndarray) -> None:
        """Add games: ``sums`` and ``counts`` of shape ``(games, k)`` (float; 0 where a game lacks
        the group: it still counts as a game)."""
        sums, counts = np.asarray(sums, float), np.asarray(counts, float)
        self.n += sums.shape[0]
        self.s += sums.sum(0)
        self.c += counts.sum(0)
        self.ss += (sums * sums).sum(0)
        self.sc += (sums * counts).sum(0)
        self.cc += (counts * counts).sum(0)


def ratio_intervals(m: RatioSums, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` arrays of shape ``(k,)``: ``R -+ z se`` for each ratio of ``m`` (module
    docstring); NaN where no game has the group (``c == 0``) or fewer than two games. A ratio
    without variation (every ``S_g = R C_g``) gets the point interval (up to rounding), as the
    bootstrap does."""
    if m.n < 2:
        return np.full(m.k, np.nan), np.full(m.k, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = m.s / np.where(m.c == 0, np.nan, m.c)
        resid = m.ss - 2 * r * m.sc + r * r * m.cc  # sum_g (S_g - R C_g)^2, expanded
        se = np.sqrt(np.maximum(resid, 0.0)) / m.c
    half = _z(confidence) * se
    return r - half, r + half


def mean_intervals(values: np.ndarray, present: np.ndarray, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """``ratio_intervals`` of per-game ``values`` over ``present`` (0/1), both ``(k, games)``: the
    mean of each row over the games where it is present (``describe_columns``' layout)."""
    m = RatioSums(values.shape[0])
    m.add(values.T, present.T)
    return ratio_intervals(m, confidence)


def score_intervals(players: Rows, bys: Sequence[str], values: Sequence[list], confidence: float = 0.95
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The normal intervals of the mean score of each value of each column of ``bys`` (values in
    ``values``' order, the columns one after the other): the rows of ``summaries.score_tables``.
    The per-game sums and counts (``per_game.group_sums``) are made part by part of whole games
    (``streamed.whole_game_parts``: a scan is never held whole) and only their five sums kept."""
    k = sum(len(v) for v in values)
    m = RatioSums(k)
    cols = list(dict.fromkeys(["game_index", "seat", "score", *bys]))
    for part in whole_game_parts(players.select(cols)):
        sums, counts = zip(*(group_sums(part, by, v) for by, v in zip(bys, values, strict=True)), strict=True)
        m.add(np.hstack(sums), np.hstack(counts))
    return ratio_intervals(m, confidence)


# draws of the normal approximation of Balance's bootstrap (``balance_normal``): its quantile's
# Monte Carlo error is then about 0.3% of the half-width, against about 3% for 1,000 resamples
BALANCE_DRAWS = 200_000


@dataclass
class WinSums:
    """The seats' per-game 0/1 wins summed part by part (``add``): ``n`` games, ``wins`` (per seat,
    ``(k,)``) and ``cross`` = sum over games of ``w_g w_g^T`` (``(k, k)``: games both seats won)."""

    k: int
    n: int = 0
    wins: np.ndarray = field(init=False)
    cross: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.wins, self.cross = np.zeros(self.k), np.zeros((self.k, self.k))

    def add(self, rows: np.ndarray) -> None:
        """Add games: ``rows`` of shape ``(k, games)``, one 0/1 row per seat (``per_game.seat_wins``)."""
        self.n += rows.shape[1]
        self.wins += rows.sum(axis=1)
        self.cross += np.einsum("kn,jn->kj", rows, rows)  # one thread, as ``stats.weighted_sums``


def balance_normal(m: WinSums, rng: np.random.Generator, confidence: float = 0.95,
                   draws: int = BALANCE_DRAWS) -> tuple[float, float]:
    """Balance's interval (``stats.balance_interval``: ``1 - G`` widened by ``c``, the ``confidence``
    quantile of the range of ``r* - r``) with the bootstrap's distribution of the seats' resampled
    win rates ``r*`` replaced by its normal limit: ``r* - r ~ N(0, S / n)``, ``S`` the covariance of
    a game's 0/1 win row (divisor ``n``, as resampling whole games gives it) from ``m``'s sums.
    ``c`` is the quantile of the range over ``draws`` draws of that normal (``rng``). Returns
    ``(low, high)``, within [0, 1]; NaN with fewer than two games or one seat."""
    if m.n < 2 or m.k < 2:
        return math.nan, math.nan
    r = m.wins / m.n
    gap = float(np.ptp(r))
    lam, vec = np.linalg.eigh((m.cross / m.n - np.outer(r, r)) / m.n)
    if not (lam > 0).any():  # no seat's results vary: nothing to resample (as the bootstrap)
        return 1 - gap, 1 - gap
    z = np.einsum("dk,jk->dj", rng.standard_normal((draws, m.k)) * np.sqrt(np.clip(lam, 0.0, None)), vec)
    c = float(np.quantile(np.ptp(z, axis=1), confidence))
    return max(0.0, 1 - gap - c), min(1.0, 1 - max(0.0, gap - c))
