"""Seat or neighbour? (fresh-user finding 2, session 10.)

Under ``seating: permute`` every strategy sits after every other, so "who sits before you" can be
told apart from the seat and the strategy. Per strategy that holds one seat a game, a **chi-square
test of independence** of winning and the strategy before it (``scipy.stats.chi2_contingency(table,
correction=False)``), on the counts of ``seating.predecessor_cells`` (seat, strategy, the strategy
before, games, wins), Holm-adjusted over the strategies: *whose* win rate depends on its neighbour,
with the two extreme neighbours named.

The rows of one strategy are then one a game, so the test's units are games; a full deal gives each
of its neighbours the same seats and shuffles, so a deal's luck does not separate them. A
strategy holding several seats a game (the same name twice, no labels) is left out: its rows in one
game are not independent. Only under ``permute``: with ``rotate`` or ``fixed`` the player before a
strategy is tied to its seat, and a difference "by the player before" would be the seat's.

A first version (session 10) also fitted a logistic regression over seat-games with
likelihood-ratio tests of the seat and neighbour terms; it took each seat of a game as an
independent trial (one seat's win is the others' loss, and a deal's games share one shuffle), and a
breaker trial measured its neighbour term "significant" in 5 of 24 runs of four identical
strategies (5% expected): removed. With 3 players the player after a strategy is the one left, so a
difference by the player before is equally one by the player after; the finding says so.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .exact import chi2_sf
from .stats import holm, wilson
from .wording import Finding, pint, pval


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


def neighbour_tests(cells: pl.DataFrame, several: list[str] | tuple[str, ...] = (), n_seats: int = 4,
                    confidence: float = 0.95) -> dict | None:
    """``{"per": per_strategy(...), "left_out": several, "seats": n_seats}``, or ``None`` when no
    strategy outside ``several`` (the labels that hold more than one seat a game) has two different
    players before it."""
    c = cells.filter(~pl.col("strategy").is_in(list(several)))
    if c.is_empty() or c.group_by("strategy").agg(pl.col("before").n_unique())["before"].max() < 2:
        return None
    per = per_strategy(c, confidence)
    tested = {r["strategy"] for r in per}
    untested = sorted(set(c["strategy"].unique().to_list()) - tested)  # never (or always) won: nothing to test
    return {"per": per, "left_out": sorted(several), "untested": untested, "seats": n_seats}


def tests_table(res: dict) -> pl.DataFrame:
    """``question, test, statistic, df, p, p_holm``: each strategy's chi-square."""
    rows = [(f"{r['strategy']}: win rate by the player before", "chi-square of independence", r["chi2"], r["df"],
             r["p"], r["p_holm"]) for r in res["per"]]
    return pl.DataFrame(rows, schema={"question": pl.Utf8, "test": pl.Utf8, "statistic": pl.Float64, "df": pl.Int64,
                                      "p": pl.Float64, "p_holm": pl.Float64}, orient="row")


def neighbour_text(res: dict) -> str:
    """The section's paragraph: what is tested, and what was left out."""
    text = ("Does a strategy's win rate depend on who sits just before it? Per strategy, a chi-square test of "
            "independence of winning and the player before it, over games (a full deal gives every neighbour "
            "the same seats and shuffles), Holm-adjusted over the strategies.")
    if res["left_out"]:
        text += (f" Left out: {', '.join(res['left_out'])} (several seats in one game: its rows there are not "
                 "independent; give each seat a label to test them).")
    if res.get("untested"):
        text += (f" Not tested: {', '.join(res['untested'])} (never or always won, or one player before it: "
                 "no difference to test).")
    if res["seats"] == 3:
        text += (" With 3 players the player after a strategy is the one left, so a difference by the player before "
                 "is equally one by the player after.")
    return text


def holm_over(n: int) -> str:
    """How the per-strategy p-values were adjusted: over ``n`` strategies, or, for one, not at all
    (not "Holm-adjusted over the 1 strategies": breaker finding 5, session 10)."""
    return f"Holm-adjusted over the {n} strategies" if n > 1 else "one strategy tested, so unadjusted"


def neighbour_findings(res: dict | None, alpha: float) -> list[Finding]:
    """Per strategy whose win rate significantly depends on the player before it: who it wins least
    and most after (with 3 players: equally, before whom)."""
    if not res:
        return []
    out, n = [], len(res["per"])
    for r in res["per"]:
        if r["p_holm"] < alpha:
            lo, hi = r["low"], r["high"]
            also = (f"; with 3 players that is equally: it wins less before {hi['before']} than before {lo['before']}"
                    if res["seats"] == 3 else "")
            out.append(Finding(
                f"{r['strategy']} wins less after {lo['before']}: {pint(lo['rate'], lo['ci_low'], lo['ci_high'])} of "
                f"{lo['games']:,} games, against {pint(hi['rate'], hi['ci_low'], hi['ci_high'])} after {hi['before']} "
                f"(its win rate depends on the player before it: chi-square {r['chi2']:.1f}, {r['df']} df, "
                f"{holm_over(n)} {pval(r['p_holm'])}{also}).",
                hi["rate"] - lo["rate"], True, 1))
    return out
