"""Findings: short plain sentences for what the data support, and nothing else.

A sentence claims a difference only when the test is significant (p < 0.05, Holm-adjusted within
a family of claims) **and** the 95% interval excludes the expected value. Expected shares are the
pooled win rate (all wins / all player rows), which equals ``1/players`` only without shared wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

ALPHA = 0.05


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x * 100:.{digits}f}%"


def pint(rate: float, low: float, high: float) -> str:
    """``31.2% (30.3–32.1%)``"""
    return f"{pct(rate)} ({pct(low)[:-1]}–{pct(high)})"


def pval(p: float) -> str:
    if p is None or math.isnan(p):
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass
class Inputs:
    """What the findings are drawn from (all over complete games)."""

    players: int
    seat: pl.DataFrame  # win_table_tested by seat
    strategy: pl.DataFrame  # win_table_tested by strategy
    chi: tuple[float, float]
    first: dict  # first_player_advantage
    h2h: pl.DataFrame
    components: pl.DataFrame
    min_sample: int
    games: int
    complete: int
    truncated: int
    failed: int
    seating: str = "rotate"


def expected_note(exp: float, players: int) -> str:
    if abs(exp - 1 / players) < 1e-9:
        return f"expected {pct(exp)}"
    return f"expected {pct(exp)}, the pooled win rate with shared wins"


def findings(x: Inputs) -> list[str]:
    """The report's findings, most important first."""
    out: list[str] = []
    if x.complete == 0:
        return ["No game completed: nothing can be said about balance."]
    chi, p_chi = x.chi
    seat_claims = []
    if not math.isnan(p_chi) and p_chi < ALPHA:
        for r in x.seat.iter_rows(named=True):
            outside = r["ci_low"] > r["expected"] or r["ci_high"] < r["expected"]
            if outside and r["p_holm"] < ALPHA:
                what = "above" if r["win_rate"] > r["expected"] else "below"
                if r["seat"] == 0:
                    kind = "advantage" if what == "above" else "disadvantage"
                    tail = f"first-player {kind} is significant ({pval(r['p_holm'])})"
                else:
                    tail = f"significantly {what} the expected share ({pval(r['p_holm'])})"
                name = "Seat 0 (start player)" if r["seat"] == 0 else f"Seat {r['seat']}"
                seat_claims.append(f"{name} wins {pint(r['win_rate'], r['ci_low'], r['ci_high'])}, "
                                   f"{expected_note(r['expected'], x.players)}: {tail}.")
        out += seat_claims
        if not seat_claims:
            out.append(f"Seat win rates differ (chi-square {chi:.1f}, {pval(p_chi)}), but no single seat's interval "
                       "excludes the expected share; see the seat table.")
    elif not math.isnan(p_chi):
        widest = float((x.seat["ci_high"] - x.seat["ci_low"]).max()) / 2
        out.append(f"No significant seat advantage (chi-square over seats {pval(p_chi)}); seat win rates are known"
                   f" to within ±{widest * 100:.1f} points.")
    labels = x.strategy["strategy"].to_list()
    if x.seating == "fixed" and len(labels) > 1:
        out.append("Seating is fixed (each strategy always holds the same seat): seat and strategy differences "
                   "cannot be told apart; use seating: rotate to separate them.")
    if len(labels) == 1:
        out.append(f"Every seat plays {labels[0]}: strategy comparisons do not apply; seat figures show the game's own balance.")
    else:
        any_strat = False
        for r in x.strategy.iter_rows(named=True):
            outside = r["ci_low"] > r["expected"] or r["ci_high"] < r["expected"]
            if outside and r["p_holm"] < ALPHA:
                any_strat = True
                what = "stronger" if r["win_rate"] > r["expected"] else "weaker"
                out.append(f"Strategy {r['strategy']} wins {pint(r['win_rate'], r['ci_low'], r['ci_high'])}, "
                           f"{expected_note(r['expected'], x.players)}: significantly {what} ({pval(r['p_holm'])}).")
        if not any_strat:
            out.append("No strategy's win rate differs significantly from the expected share.")
        out += head_to_head_findings(x.h2h)
    out += component_findings(x.components, x.min_sample)
    if x.truncated:
        out.append(f"{x.truncated} game(s) reached the decision cap ({pct(x.truncated / x.games)}) and are left out of win rates.")
    if x.failed:
        out.append(f"{x.failed} game(s) failed; see errors.parquet and `sim replay`.")
    return out


def solo_findings(scores: pl.DataFrame, held: pl.DataFrame | None, games: int, truncated: int,
                  failed: int) -> list[str]:
    """Findings of a one-player game: the score and how often each title (or other component) comes
    up; nobody is beaten, so win rates say nothing."""
    out = ["One-player (solo) game: there is nobody to beat, so win rates and seat or strategy comparisons do "
           "not apply; what counts is the score and the score title."]
    for r in scores.iter_rows(named=True):
        ci = "" if r["ci_low"] is None or math.isnan(r["ci_low"]) else f" ({r['ci_low']:.2f}–{r['ci_high']:.2f})"
        out.append(f"{r['strategy']} scores {r['mean']:.2f}{ci} on average over {r['rows']:,} games (median "
                   f"{r['median']:g}, range {r['min']:g}–{r['max']:g}).")
    if held is not None and held.height:
        for kind in held["kind"].unique(maintain_order=True).to_list():
            k = held.filter(pl.col("kind") == kind).sort("share", "component", descending=[True, False])
            if k.height > 1:  # a kind every game has once (the sheet played) says nothing
                out.append(f"Games by {kind}: " + ", ".join(
                    f"{r['component']} {pint(r['share'], r['ci_low'], r['ci_high'])}" for r in k.iter_rows(named=True))
                    + ".")
    if truncated:
        out.append(f"{truncated} game(s) reached the decision cap ({pct(truncated / games)}) and are left out.")
    if failed:
        out.append(f"{failed} game(s) failed; see errors.parquet and `sim replay`.")
    return out


def head_to_head_findings(h2h: pl.DataFrame) -> list[str]:
    """A beats B when, over their decided meetings (ties left out), A is ahead more often than half:
    sign test p < 0.05 after Holm's correction over the pairs, and the interval excludes 50%."""
    out = []
    if h2h.is_empty():
        return out
    for r in h2h.iter_rows(named=True):
        if r["p_holm"] < ALPHA and r["ahead_low"] > 0.5:
            out.append(f"{r['strategy_a']} finishes above {r['strategy_b']} in "
                       f"{pint(r['rate'], r['ci_low'], r['ci_high'])} of their {r['meetings']:,} meetings, below it in "
                       f"{pct(r['b_above'] / r['meetings'])}: ahead in {pint(r['ahead'], r['ahead_low'], r['ahead_high'])}"
                       f" of the {r['decided']:,} decided ones (sign test, {pval(r['p_holm'])}, Holm-adjusted).")
    return out


def component_findings(comp: pl.DataFrame, min_sample: int, limit: int = 8) -> list[str]:
    if comp.is_empty():
        return []
    out = []
    claims = comp.filter(pl.col("claim")).with_columns(effect=(pl.col("win_rate") - pl.col("expected")).abs()) \
        .sort("effect", descending=True)
    for r in claims.head(limit).iter_rows(named=True):
        what = "above" if r["win_rate"] > r["expected"] else "below"
        out.append(f"Seats with {r['kind']} '{r['component']}' win {pint(r['win_rate'], r['ci_low'], r['ci_high'])} "
                   f"over {r['holders']:,} seat-games, {what} the {pct(r['expected'])} the same strategies win in the "
                   f"same seats ({pval(r['p_holm'])}, Holm-adjusted; an association, not proof of cause).")
    if claims.height > limit:
        out.append(f"{claims.height - limit} more component(s) differ significantly; see the components table.")
    few = comp.filter(~pl.col("enough")).height
    if few:
        out.append(f"{few} of {comp.height} component(s) appear in fewer than {min_sample} seat-games: no claim is made about them.")
    if not claims.height and comp.filter(pl.col("enough")).height:
        out.append("No component's win rate differs significantly from the expected share.")
    return out
