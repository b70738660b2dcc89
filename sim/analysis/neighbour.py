"""Seat or neighbour? (fresh-user finding 2, session 10.)

Under ``seating: permute`` every strategy sits after every other, so "who sits before you" can be
told apart from the seat and the strategy. Two tests, both on the counts of "who sits before you"
by seat (``seating.predecessor_cells``: seat, strategy, the strategy before, games, wins):

- **a logistic regression** of winning on the seat, the strategy and the strategy before,
  ``win ~ C(seat) + C(strategy) + C(before)``, fitted on the grouped counts (statsmodels' binomial
  GLM, imported only by a report that has the test),
  with likelihood-ratio tests of the seat term (does the seat effect hold with the neighbour in the
  model?) and of the neighbour term (does the player before matter, seat and strategy held fixed?).
  A strategy that never wins (or always does) has its own coefficient run off to infinity
  (separation): its rows are left out, which leaves every other estimate and both tests as they are
  in the limit; any other failure to converge drops the regression and says so.
- **per strategy, a chi-square test of independence** of winning and the strategy before it
  (``scipy.stats.chi2_contingency(table, correction=False)``), Holm-adjusted over the strategies:
  *whose* win rate depends on its neighbour, with the two extreme neighbours named.

The rows of one game are not independent (one seat's win is the others' loss): like the report's
other win-rate tests these treat seat-games as the units. Skipped when the seating never varies the
player before a strategy (``rotate``, ``fixed``): the neighbour term is then the strategy itself.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .exact import chi2_sf
from .stats import holm, wilson
from .wording import Finding, pint, pval

TERMS = ("seat", "strategy", "before")


def _design(cells: pl.DataFrame, terms: tuple[str, ...]) -> np.ndarray:
    """Intercept and a 0/1 column for every level but the first of each term (treatment coding)."""
    cols = [np.ones(cells.height)]
    for t in terms:
        values = cells[t].to_list()
        cols += [np.array([v == lev for v in values], dtype=float) for lev in sorted(set(values))[1:]]
    return np.column_stack(cols)


def _fit(x: np.ndarray, k: np.ndarray, n: np.ndarray) -> float | None:
    """The log-likelihood of the logistic regression of ``k`` wins in ``n`` games on ``x``
    (statsmodels' binomial GLM on grouped counts, imported here: about 0.6 CPU-s, paid only by a
    report that has the test); ``None`` when it does not converge or a fitted rate reaches 0 or 1
    (separation), which statsmodels reports as a warning."""
    import warnings

    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a separation or convergence warning: no estimate
        try:
            fit = GLM(np.column_stack([k, n - k]), x, family=Binomial()).fit()
        except (Warning, ValueError, np.linalg.LinAlgError):
            return None
    mu = np.asarray(fit.fittedvalues)
    if not fit.converged or mu.min() < 1e-10 or mu.max() > 1 - 1e-10:
        return None
    return float(fit.llf)


def regression(cells: pl.DataFrame) -> dict:
    """``{"seat": (lr, df, p), "before": (lr, df, p), "left_out": [strategies], "note": str}``; the
    tests are ``None`` with a ``note`` when the regression cannot be fitted or does not apply."""
    by = cells.group_by("strategy").agg(w=pl.col("wins").sum(), g=pl.col("games").sum())
    out = by.filter((pl.col("w") == 0) | (pl.col("w") == pl.col("g")))["strategy"].sort().to_list()
    c = cells.filter(~pl.col("strategy").is_in(out) & (pl.col("games") > 0))
    res = {"seat": None, "before": None, "left_out": out, "note": ""}
    if c.height == 0 or c["seat"].n_unique() < 2:
        res["note"] = "too few rows to fit"
        return res
    k, n = c["wins"].to_numpy().astype(float), c["games"].to_numpy().astype(float)
    full, no_seat, no_before = (_design(c, t) for t in (TERMS, ("strategy", "before"), ("seat", "strategy")))
    r_full, r_seat, r_before = (np.linalg.matrix_rank(m) for m in (full, no_seat, no_before))
    if r_full == r_before:
        res["note"] = "the seating never varies the player before a strategy"
        return res
    lls = [_fit(m, k, n) for m in (full, no_seat, no_before)]
    if any(ll is None for ll in lls):
        res["note"] = "the regression did not converge (a seat or neighbour that never or always wins)"
        return res
    for key, ll, df in (("seat", lls[1], r_full - r_seat), ("before", lls[2], r_full - r_before)):
        lr = max(0.0, 2 * (lls[0] - ll))
        res[key] = (lr, int(df), chi2_sf(lr, int(df)) if df else math.nan)
    return res


def per_strategy(cells: pl.DataFrame, confidence: float = 0.95) -> list[dict]:
    """Per strategy with at least two players before it and some but not all games won: Pearson's
    chi-square of winning by the strategy before (``chi2, df, p, p_holm``), and its lowest and highest
    neighbour (``low``, ``high``: ``before, wins, games, rate, ci_low, ci_high``)."""
    t = cells.group_by("strategy", "before").agg(pl.col("games").sum(), pl.col("wins").sum()).sort("strategy", "before")
    out = []
    for (name,), g in t.group_by("strategy", maintain_order=True):
        w, n = g["wins"].to_numpy().astype(float), g["games"].to_numpy().astype(float)
        if g.height < 2 or w.sum() in (0, n.sum()):
            continue
        obs = np.vstack([w, n - w])
        exp = obs.sum(axis=1, keepdims=True) * n / n.sum()
        chi2 = float(((obs - exp) ** 2 / exp).sum())
        rates = [(b, int(k), int(m), k / m, *wilson(int(k), int(m), confidence))
                 for b, k, m in zip(g["before"], w, n, strict=True)]
        keys = ("before", "wins", "games", "rate", "ci_low", "ci_high")
        out.append({"strategy": name, "chi2": chi2, "df": g.height - 1, "p": chi2_sf(chi2, g.height - 1),
                    "low": dict(zip(keys, min(rates, key=lambda r: r[3]), strict=True)),
                    "high": dict(zip(keys, max(rates, key=lambda r: r[3]), strict=True))})
    for r, p in zip(out, holm([r["p"] for r in out]), strict=True):
        r["p_holm"] = p
    return out


def neighbour_tests(cells: pl.DataFrame, confidence: float = 0.95) -> dict | None:
    """Both tests (module docstring), or ``None`` when no strategy has two different players before it."""
    if cells.is_empty() or cells.group_by("strategy").agg(pl.col("before").n_unique())["before"].max() < 2:
        return None
    return {**regression(cells), "per": per_strategy(cells, confidence)}


def tests_table(res: dict) -> pl.DataFrame:
    """``question, test, statistic, df, p, p_holm``: the regression's two likelihood-ratio tests (when
    fitted), then each strategy's chi-square."""
    rows = [(q, "logistic regression, likelihood ratio", *res[key], math.nan) for key, q in
            (("seat", "the seat, with strategy and player before in the model"),
             ("before", "the player before, with seat and strategy in the model")) if res[key] is not None]
    rows += [(f"{r['strategy']}: win rate by the player before", "chi-square of independence", r["chi2"], r["df"],
              r["p"], r["p_holm"]) for r in res["per"]]
    return pl.DataFrame(rows, schema={"question": pl.Utf8, "test": pl.Utf8, "statistic": pl.Float64, "df": pl.Int64,
                                      "p": pl.Float64, "p_holm": pl.Float64}, orient="row")


def neighbour_text(res: dict) -> str:
    """The section's paragraph: what is tested, and what was left out or could not be fitted."""
    text = ("Does a strategy's win rate depend on who sits just before it, and does the seat effect hold once "
            "that is accounted for? A logistic regression of winning on seat, strategy and the strategy before "
            "(win ~ C(seat) + C(strategy) + C(before), over seat-games) with likelihood-ratio tests of the seat "
            "term and of the neighbour term; and per strategy a chi-square test of independence of winning and "
            "the player before it, Holm-adjusted over the strategies.")
    if res["left_out"]:
        text += (f" Left out of the regression: {', '.join(res['left_out'])} (never or always wins: its own term "
                 "runs off to infinity, and its rows tell nothing about the others).")
    if res["seat"] is None:
        text += f" No regression: {res['note']}; the chi-square tests stand alone."
    return text


def seat_note(res: dict | None, alpha: float) -> str:
    """A sentence for the seat finding: does the seat effect hold with the player before in the model?"""
    if not res or res["seat"] is None:
        return ""
    lr, df, p = res["seat"]
    said = (f" With the strategy and the player before each seat in the model (logistic regression, likelihood-ratio "
            f"test of the seat term, {df} df, {pval(p)}),")
    return said + (" the seats differ significantly: the seat effect holds with the neighbour accounted for." if p < alpha
                   else " the seats do not differ significantly: the seat effect does not hold with the neighbour "
                   "accounted for.")


def holm_over(n: int) -> str:
    """How the per-strategy p-values were adjusted: over ``n`` strategies, or, for one, not at all
    (not "Holm-adjusted over the 1 strategies": breaker finding 5, session 10)."""
    return f"Holm-adjusted over the {n} strategies" if n > 1 else "one strategy tested, so unadjusted"


def neighbour_findings(res: dict | None, alpha: float) -> list[Finding]:
    """Per strategy whose win rate significantly depends on the player before it: who it wins least
    and most after; then the regression's neighbour term (a claim when significant, else a note)."""
    if not res:
        return []
    out, n = [], len(res["per"])
    for r in res["per"]:
        if r["p_holm"] < alpha:
            lo, hi = r["low"], r["high"]
            out.append(Finding(
                f"{r['strategy']} wins less after {lo['before']}: {pint(lo['rate'], lo['ci_low'], lo['ci_high'])} of "
                f"{lo['games']:,} games, against {pint(hi['rate'], hi['ci_low'], hi['ci_high'])} after {hi['before']} "
                f"(its win rate depends on the player before it: chi-square {r['chi2']:.1f}, {r['df']} df, "
                f"{holm_over(n)} {pval(r['p_holm'])}).", hi["rate"] - lo["rate"], True, 1))
    if res["before"] is not None:
        lr, df, p = res["before"]
        test = f"logistic regression, likelihood-ratio test, {df} df, {pval(p)}"
        if p < alpha:
            out.append(Finding(f"The player before matters: with seat and strategy in the model, the strategy in the "
                               f"seat acting just before changes the win rate ({test}).", 0.0, True, 1))
        else:
            out.append(Finding(f"{'Over all strategies together, t' if out else 'T'}he player before does not change the "
                               f"win rate significantly with seat and strategy in the model ({test})."))
    return out
