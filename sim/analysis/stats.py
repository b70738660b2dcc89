"""Statistics over run tables (Polars in, Polars out); intervals and tests from scipy.

Conventions (see docs/analysis.md):

- Win rates count **player rows** of **complete games** (neither failed nor truncated); a shared
  win counts as a win for every winner, so the expected share of a seat or strategy is the
  *pooled* win rate (all wins / all player rows), which is ``1/players`` only without shared wins.
- Intervals are 95% unless told otherwise: Wilson score intervals for proportions (the closed
  form ``scipy.stats.binomtest(...).proportion_ci(method="wilson")`` uses), percentile bootstrap for means, resampling
  **whole games** (``scipy.stats.bootstrap``) with a generator derived from the run's seed, so a
  report is reproducible.
- Ratings: openskill's Plackett-Luce model, games processed in ``game_index`` order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import polars as pl

from .exact import binomtest_p, bootstrap_percentile
from .streamed import streaming

# spawn-key prefix for the analysis streams: far from any game index (game streams use (game_index,))
BOOT_KEY = 2**31 - 7


# ------------------------------------------------------------------ proportions

def wilson(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``n`` trials, as proportions in [0, 1].

    ``(nan, nan)`` when ``n == 0``. The closed form of Newcombe (1998), method 3, written as
    ``scipy.stats.binomtest(...).proportion_ci(method="wilson")`` computes it (lower end 0 when
    ``wins == 0``, upper end 1 when ``wins == n``), without importing scipy.stats (0.9 s of
    start-up: issue 20 item 8); ``tests/test_pipeline_stats.py`` checks it against statsmodels'
    ``proportion_confint(method="wilson")`` and scipy.
    """
    if n <= 0:
        return (math.nan, math.nan)
    k, n = int(wins), int(n)
    z = _z(confidence)
    p = k / n
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if k == 0 else center - delta, 1.0 if k == n else center + delta)


@lru_cache(maxsize=16)
def _z(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence`` (1.959964... for 0.95)."""
    return NormalDist().inv_cdf(0.5 + 0.5 * confidence)


def binom_p(wins: int, n: int, expected: float) -> float:
    """Two-sided exact binomial test p-value of ``wins``/``n`` against proportion ``expected``."""
    if n <= 0 or not 0 < expected < 1:
        return math.nan
    return binomtest_p(int(wins), int(n), expected)  # scipy's algorithm without scipy.stats (``exact``)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (NaN stays NaN), for a family of claims."""
    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    order = sorted(idx, key=lambda i: pvalues[i])
    m = len(order)
    out = [math.nan] * len(pvalues)
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * pvalues[i]))
        out[i] = running
    return out


def holm_within(pvalues: Sequence[float], families: Sequence[object]) -> list[float]:
    """Holm-adjusted p-values computed separately within each family (rows with equal ``families``
    entries, e.g. the metric: win rates and mean scores are different questions, session 10)."""
    out = [math.nan] * len(pvalues)
    for fam in dict.fromkeys(families):
        idx = [i for i, f in enumerate(families) if f == fam]
        for i, p in zip(idx, holm([pvalues[i] for i in idx]), strict=True):
            out[i] = p
    return out


def games_for_power(expected: float, rate: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Seat-games a two-sided test of a share against ``expected`` at level ``alpha`` needs to detect a
    true share ``rate`` with probability ``power``: the arcsine (Cohen's h) normal approximation,
    ``n = ((z(1 − alpha/2) + z(power)) / h)^2`` with ``h = 2 asin(sqrt(rate)) − 2 asin(sqrt(expected))``
    (``statsmodels.stats.power.NormalIndPower().solve_power(h, ratio=0)`` solves the same);
    ``None`` when the shares are equal or outside (0, 1)."""
    from statistics import NormalDist

    if not (0 < expected < 1 and 0 < rate < 1) or rate == expected:
        return None
    h = 2 * math.asin(math.sqrt(rate)) - 2 * math.asin(math.sqrt(expected))
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return math.ceil((z / h) ** 2)


def games_for_chi_power(stat: float, games: int, bins: int, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Games a chi-square goodness-of-fit test over ``bins`` cells (``bins − 1`` df) at level ``alpha``
    needs to reach ``power`` when the effect is as observed (``stat`` over ``games``): Cohen's
    w² = stat / n, so the noncentrality ``lam`` with power ``power`` is reached at ``games · lam / stat``
    (``statsmodels.stats.power.GofChisquarePower().solve_power`` solves the same in draws). scipy's
    ``chdtri`` (critical value) and ``chndtrinc`` (noncentrality for a noncentral chi-square cdf), from
    ``exact._ufuncs`` without importing ``scipy.stats`` (0.8 CPU-s)."""
    if not stat > 0 or games <= 0 or bins < 2:
        return None
    from .exact import _ufuncs

    u, df = _ufuncs(), bins - 1
    lam = float(u.chndtrinc(u.chdtri(df, alpha), df, 1 - power))
    return math.ceil(games * lam / stat)


def with_wilson(df: pl.DataFrame, wins: str = "wins", n: str = "games", rate: str = "win_rate",
                confidence: float = 0.95) -> pl.DataFrame:
    """Add ``rate``, ``ci_low``, ``ci_high`` columns (Wilson) from count columns ``wins`` and ``n``."""
    cis = [wilson(w, g, confidence) for w, g in zip(df[wins].to_list(), df[n].to_list(), strict=True)]
    return df.with_columns(
        (pl.col(wins) / pl.col(n)).cast(pl.Float64).alias(rate),
        pl.Series("ci_low", [c[0] for c in cis], dtype=pl.Float64),
        pl.Series("ci_high", [c[1] for c in cis], dtype=pl.Float64),
    )


def complete_games(games: pl.DataFrame) -> pl.DataFrame:
    """Games that ended normally (neither failed nor truncated)."""
    if games.is_empty():
        return games
    return games.filter(~pl.col("failed") & ~pl.col("truncated"))


def complete_count(games: pl.DataFrame) -> int:
    """``complete_games(games).height`` without the filtered copy (a million games: ~25 MB)."""
    return int((~games["failed"] & ~games["truncated"]).sum()) if games.height else 0


def complete_players(players: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Player rows of complete games only, sorted by ``(game_index, seat)``. When every game is
    complete and the rows are in that order already (as a run's merge writes them), ``players``
    itself: no copy of the largest table (issue 20 item 5)."""
    if players.is_empty():
        return players
    done = complete_games(games)
    if in_seat_order(players):  # a filter keeps that order: no join, no sort of every row (memory)
        if done.height == games.height:
            return players
        keep = ~players["game_index"].is_in(games.filter(pl.col("failed") | pl.col("truncated"))["game_index"].implode())
        return players if keep.all() else players.filter(keep)
    return players.join(done.select("game_index"), on="game_index", how="semi").sort("game_index", "seat")


def in_seat_order(players: pl.DataFrame) -> bool:
    """Whether the rows are sorted by ``(game_index, seat)``."""
    g, s = pl.col("game_index").diff(), pl.col("seat").diff()
    return bool(players.select(((g > 0) | ((g == 0) & (s >= 0))).fill_null(True).all()).item())


def pooled_win_rate(players: pl.DataFrame) -> float:
    """All wins / all player rows: the expected share of any seat or strategy when nothing matters.

    Equals ``1/players`` when every game has exactly one winner; higher with shared wins.
    """
    if isinstance(players, pl.LazyFrame):  # a scan (``streamed``): a streamed mean
        rate = streaming(players.select(pl.col("won").cast(pl.Float64).mean())).item()
        return math.nan if rate is None else float(rate)
    if players.is_empty():
        return math.nan
    return float(players["won"].cast(pl.Float64).mean())


def analysis_rng(seed: int, *key: int) -> np.random.Generator:
    """Generator for resampling, derived from the run's root seed (reports are reproducible)."""
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(BOOT_KEY, *key)))


# resample cells (games x resamples) drawn at once: bounds the bootstrap's buffers at about 4 MB
# (the indices and the weights, 8 bytes each) however many games (issue 20 item 5), and keeps the
# weights in cache between ``bincount`` writing them and ``einsum`` reading them (a quarter less CPU
# than 1,000,000 cells at 20,000 games: issue 20 item 1). The draws do not depend on it: numpy's
# ``integers(0, n, dtype=int64)`` keeps its spare 32-bit half in the bit generator between calls
# (``tests/test_report_bootstrap.py`` checks that batches change no digit).
BATCH_CELLS = 250_000


def _game_weights(idx: np.ndarray, n_games: int, out: np.ndarray | None = None) -> np.ndarray:
    """How often each game appears in each resample: ``idx`` (batch, n) -> weights (batch, n_games),
    float. One ``bincount`` per resample, straight into its row of the matrix: no offset array, no
    integer matrix to convert (half the CPU of one ``bincount`` over the whole batch: issue 20 item 1).
    ``out``: a float buffer of at least that many rows to fill (one per bootstrap, not one per batch)."""
    idx = np.atleast_2d(idx)
    w = np.empty((idx.shape[0], n_games)) if out is None else out[: idx.shape[0]]
    for r, row in enumerate(idx):
        w[r] = np.bincount(row, minlength=n_games)
    return w


def bootstrap_games(per_game: np.ndarray, statistic, rng: np.random.Generator, n_resamples: int = 1000,
                    confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap over **whole games**, as ``scipy.stats.bootstrap`` computes it (``exact``).

    ``per_game`` is an array with one row per game (any number of columns). scipy resamples the
    game indices; ``statistic(weights, per_game)`` gets the resamples as game weights (how often
    each game was drawn; shape ``(batch, games)``) and returns one value per resample, or an array
    ``(k, batch)`` for ``k`` figures at once. Returns ``(low, high)`` arrays (scalars for one figure).
    """
    per_game = np.asarray(per_game, float)
    n = per_game.shape[0]
    if n < 2:
        return (np.nan, np.nan)

    batch = max(1, min(n_resamples, BATCH_CELLS // n))
    buf = np.empty((batch, n))  # the weights of every batch, in turn

    def stat(idx):
        return statistic(_game_weights(idx, n, buf), per_game)

    # scipy.stats.bootstrap's percentile method, step by step without importing scipy.stats (``exact``)
    return bootstrap_percentile(n, stat, rng, n_resamples, batch, confidence)


def weighted_sums(columns: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``columns @ w.T``: for each column (row of ``columns``, shape ``(k, games)``) and each
    resample (row of ``w``, ``(batch, games)``) the weighted sum over games, shape ``(k, batch)``.
    By ``einsum``, one thread: a BLAS product (``w @ d``) runs on every core OpenBLAS finds and on
    a busy machine spent 3-10x the CPU of this in the report's bootstraps (issue 20 item 1)."""
    return np.einsum("kn,bn->kb", columns, w)


def bootstrap_ratios(sums: np.ndarray, counts: np.ndarray, rng: np.random.Generator, n_resamples: int = 1000,
                     confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Intervals of ``sum(sums[:, j]) / sum(counts[:, j])`` for every column ``j`` at once,
    resampling games (rows): a mean over player rows (sums and counts per game; 0/0 for a game
    without the group) or over games (counts 1). Columns without variation get a point interval."""
    sums, counts = np.atleast_2d(np.asarray(sums, float).T).T, np.atleast_2d(np.asarray(counts, float).T).T
    k = sums.shape[1]
    by_column = np.empty((2 * k, sums.shape[0]))  # (2k, games), each column's values contiguous; no other copy
    by_column[:k], by_column[k:] = sums.T, counts.T
    return bootstrap_ratio_rows(by_column, rng, n_resamples, confidence)


def bootstrap_ratio_rows(by_column: np.ndarray, rng: np.random.Generator, n_resamples: int = 1000,
                         confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """``bootstrap_ratios`` of the sums in rows ``0..k-1`` of ``by_column`` (shape ``(2k, games)``,
    float) over the counts in rows ``k..2k-1``: the callers that build this layout themselves
    (``summaries.score_tables``, ``describe_columns``) hold no ``(games, k)`` copies besides it
    (issue 20 item 5). The same draws and intervals as ``bootstrap_ratios``."""
    k, n = by_column.shape[0] // 2, by_column.shape[1]
    tot_sums, tot_counts = by_column[:k].T.sum(0), by_column[k:].T.sum(0)  # bootstrap_ratios' order of sums
    est = tot_sums / np.where(tot_counts == 0, np.nan, tot_counts)
    if n < 2:
        return np.full(k, np.nan), np.full(k, np.nan)
    weighted = _distinct_rows(by_column)

    def stat(w, d):
        prod = weighted(w)
        tot = prod[k:]
        return prod[:k] / np.where(tot == 0, np.nan, tot)

    lo, hi = bootstrap_games(by_column.T, stat, rng, n_resamples, confidence)  # a view: one row per game
    lo, hi = np.atleast_1d(np.asarray(lo, float)).copy(), np.atleast_1d(np.asarray(hi, float)).copy()
    flat = np.array([_flat(by_column[j], by_column[k + j]) for j in range(k)], dtype=bool)
    lo[flat], hi[flat] = est[flat], est[flat]
    return lo, hi


def _distinct_rows(rows: np.ndarray):
    """``weighted_sums(rows, w)`` as a function of ``w``, computing each distinct row once: a row of
    ones (a seat in every game, a figure every game has) sums to the resample's size, which is the
    number of games (every resample draws that many), and a row equal to an earlier one (the
    counts of seats, of strategies that sit alike) is copied from it. Same bits as the whole
    product: the weights are whole numbers, so a row of ones sums exactly to ``n``, and each
    product's element is the same sum over games whichever rows share the call (tested)."""
    n, seen, source = rows.shape[1], {}, []
    for j, row in enumerate(rows):
        if (row == 1.0).all():
            source.append(-1)
            continue
        twin = next((i for i in seen.get(row.tobytes(), ()) if np.array_equal(rows[i], row)), None)
        source.append(j if twin is None else twin)
        seen.setdefault(row.tobytes(), []).append(j)
    own = [j for j, s in enumerate(source) if s == j]
    if len(own) == len(rows):
        return lambda w: weighted_sums(rows, w)
    sub = np.ascontiguousarray(rows[own]) if own else None
    where = {j: i for i, j in enumerate(own)}

    def weighted(w):
        out = np.empty((len(rows), w.shape[0]))
        part = weighted_sums(sub, w) if own else None
        for j, s in enumerate(source):
            out[j] = float(n) if s < 0 else part[where[s]]
        return out

    return weighted


def _flat(sums: np.ndarray, counts: np.ndarray) -> bool:
    """Whether every game with a count has the same ratio (or none has one): nothing to resample."""
    held = counts > 0
    return bool(np.ptp(sums[held] / counts[held]) == 0) if held.any() else True


def bootstrap_ratio(sums: np.ndarray, counts: np.ndarray, rng: np.random.Generator,
                    n_resamples: int = 1000, confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of ``sum(sums) / sum(counts)``, resampling games (rows)."""
    lo, hi = bootstrap_ratios(np.asarray(sums, float)[:, None], np.asarray(counts, float)[:, None], rng,
                              n_resamples, confidence)
    return (float(lo[0]), float(hi[0]))


def bootstrap_mean(values: np.ndarray, rng: np.random.Generator, n_resamples: int = 1000) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of per-game ``values``."""
    values = np.asarray(values, float)
    return bootstrap_ratio(values, np.ones_like(values), rng, n_resamples)


def balance_interval(wins: np.ndarray, rng: np.random.Generator, n_resamples: int = 1000,
                     confidence: float = 0.95) -> tuple[float, float]:
    """Interval of Balance = 1 - G, G the largest gap between two seats' win rates, that always
    holds the estimate (a percentile bootstrap of G does not: resampling widens the gap, so near
    even seats its interval lies wholly below the estimate).

    ``wins``: one row per complete game, one 0/1 column per seat. The bootstrap (whole games)
    gives ``c``, the ``confidence`` quantile of the largest deviation of a pairwise gap from its
    observed value, ``max_ij |(r*_i - r*_j) - (r_i - r_j)|`` = the range of ``r* - r``. With the
    stated confidence every true gap lies within ``c`` of the observed one at once, so the true G
    lies in ``[max(0, G - c), G + c]``, and Balance in ``[1 - G - c, 1 - max(0, G - c)]`` (within [0, 1]).
    """
    wins = np.asarray(wins, float)
    rates = wins.mean(axis=0)
    gap = float(np.ptp(rates))
    n = float(wins.shape[0])

    by_seat = np.ascontiguousarray(wins.T)  # (seats, games)

    def spread(w, x):
        return np.ptp(weighted_sums(by_seat, w) / n - rates[:, None], axis=0)  # each resample draws n games

    if not any(np.ptp(wins, axis=0) > 0):  # no seat's results vary: nothing to resample
        return 1 - gap, 1 - gap
    # a two-sided percentile interval at 2 * confidence - 1 has the one-sided `confidence` quantile on top
    c = float(bootstrap_games(wins, spread, rng, n_resamples, 2 * confidence - 1)[1])
    return max(0.0, 1 - gap - c), min(1.0, 1 - max(0.0, gap - c))
