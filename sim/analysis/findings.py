"""Findings: short plain sentences for what the data support, and nothing else.

A sentence claims a difference only when the test is significant (p below 1 − the confidence level,
0.05 by default, Holm-adjusted within a family of claims) **and** the interval excludes the expected
value. Significant claims come first, ranked by effect size; the verdict names the largest. Expected shares are the
pooled win rate (all wins / all player rows), which equals ``1/players`` only without shared wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import polars as pl

from .document import level
from .leaders import REFERENCE, level_verdict, level_with
from .neighbour import neighbour_findings
from .seats import omnibus_only, seat_findings, seat_imbalances
from .wording import Finding, claimed, expected_note, pct, pint, pval

ALPHA = 0.05


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
    confidence: float = 0.95
    ended: dict = field(default_factory=dict)  # end reason -> games (``end_reason_table``)
    neighbour: dict | None = None  # ``neighbour.neighbour_tests`` (seating: permute)

    @property
    def alpha(self) -> float:
        return 1 - self.confidence

    @property
    def lev(self) -> str:
        return level(self.confidence)


def _strategy_findings(x: Inputs) -> list[Finding]:
    labels = x.strategy["strategy"].to_list()
    out: list[Finding] = []
    if x.seating == "fixed" and len(labels) > 1:
        out.append(Finding("Seating is fixed (each strategy always holds the same seat): seat and strategy differences "
                           "cannot be told apart; use seating: permute to separate them."))
    if len(labels) == 1:
        out.append(Finding(f"Every seat plays {labels[0]}: strategy comparisons do not apply; seat figures show the "
                           "game's own balance."))
        return out
    claims = []
    for r in x.strategy.iter_rows(named=True):
        if claimed(r, x.alpha):
            what = "stronger" if r["win_rate"] > r["expected"] else "weaker"
            claims.append(Finding(f"Strategy {r['strategy']} wins {pint(r['win_rate'], r['ci_low'], r['ci_high'])}, "
                                  f"{expected_note(r['expected'], x.players)}: significantly {what} "
                                  f"({pval(r['p_holm'])}).", abs(r["win_rate"] - r["expected"]), True,
                                  2 if _reference(r) else 0))  # a reference player's claim after the others
    if not claims:
        out.append(Finding("No strategy's win rate differs significantly from the expected share."))
    h2h = [Finding(t, e, True, 1) for t, e in _h2h(x.h2h, x.alpha)]
    return claims + h2h + out


def _endings(x: Inputs) -> list[Finding]:
    """How games ended, when not every game finished normally; a stall rate above 1% is its own finding."""
    out = []
    ended = x.ended or ({"truncated": x.truncated} if x.truncated else {})
    stalled = ended.get("stalled", 0)
    if stalled and x.games and stalled / x.games > 0.01:
        out.append(Finding(f"{pct(stalled / x.games)} of games stalled ({stalled:,} of {x.games:,}): the engine ended "
                           "them because no legal sequence of moves could change the outcome (e.g. every seat passing "
                           "with nothing left to draw). They are left out of win rates; a stall rate above 1% usually "
                           "means strategies that stop acting or a gap in the rules. Replay one with `sim replay`."))
    elif stalled:
        out.append(Finding(f"{stalled} game(s) stalled ({pct(stalled / x.games)}) and are left out of win rates."))
    for key, what in (("round_cap", "the round cap"), ("decision_cap", "the decision cap"),
                      ("truncated", "a stall or a cap (an older run folder does not tell them apart)")):
        if ended.get(key):
            out.append(Finding(f"{ended[key]} game(s) ended at {what} ({pct(ended[key] / x.games)}) and are left out "
                               "of win rates."))
    if x.failed:
        out.append(Finding(f"{x.failed} game(s) failed; see errors.parquet and `sim replay`."))
    return out


def ranked_findings(x: Inputs) -> list[Finding]:
    """Every finding: significant claims first (seat and strategy win rates, then head to head and
    components; largest effect first within each), then the notes, then how games ended."""
    if x.complete == 0:
        return [Finding("No game completed: nothing can be said about balance."), *_endings(x)]
    seat = seat_findings(x)
    strat = _strategy_findings(x)
    comp = [Finding(t, e, sig, 1) for t, e, sig in _component_claims(x.components, x.min_sample, x.alpha)]
    everything = seat + strat + neighbour_findings(x.neighbour, x.alpha) + comp
    claims = sorted((f for f in everything if f.significant), key=lambda f: (f.tier, -f.effect))
    return claims + [f for f in everything if not f.significant] + _endings(x)


def findings(x: Inputs) -> list[str]:
    """The report's findings as sentences, significant claims first (largest effect first)."""
    return [f.text for f in ranked_findings(x)]


# an interval reaching further than this from the fair share says "too few games to tell"
TOO_WIDE = 0.2


def _reference(r: dict) -> bool:
    """Whether a row of the strategy table (seat rows have no ``strategy``) is a reference player's."""
    return r.get("strategy") in REFERENCE


def _imbalances(x: Inputs) -> list[tuple[str, float, float, float, dict]]:
    """Significant seat (``seats.seat_imbalances``) and strategy imbalances: ``(name, effect, low, high,
    row)`` against the expected share; the largest first, a reference player (``REFERENCE``) that wins
    less after every other (one that wins more is news: among the others), and a strategy that wins less after every strategy that significantly wins more (with
    three or more, the verdict leads with the winner, not with a larger loser: designer finding 2,
    session 8). With two strategies only the one that wins more: the other's is the same fact."""
    out = seat_imbalances(x)
    strat = [r for r in x.strategy.iter_rows(named=True) if x.strategy.height > 1 and claimed(r, x.alpha)]
    if x.strategy.height == 2 and any(r["win_rate"] > r["expected"] for r in strat):
        strat = [r for r in strat if r["win_rate"] > r["expected"]]
    out += [(f"strategy {r['strategy']}", r["win_rate"] - r["expected"], r["ci_low"] - r["expected"],
             r["ci_high"] - r["expected"], r) for r in strat]
    ahead = any(c[1] > 0 for c in out if "strategy" in c[4])
    # a reference player that loses comes last; one that wins more is the news (breaker finding 8, session 10)
    return sorted(out, key=lambda c: (_reference(c[4]) and c[1] < 0, ahead and "strategy" in c[4] and c[1] < 0,
                                      -abs(c[1])))


def verdict(x: Inputs) -> str:
    """One sentence starting ``Verdict:``: the largest significant seat or strategy imbalance with its
    interval, or, when nothing is significant, the precision reached (the largest distance from the
    expected share that the intervals still allow)."""
    if x.complete == 0:
        return "Verdict: no game completed, so nothing can be said about balance."
    return _verdict_balance(x) + _left_out(x)


def _left_out(x: Inputs) -> str:
    """A warning after the verdict when more than 1% of the games did not finish normally."""
    stopped = sum(x.ended.values()) if x.ended else x.truncated  # ended: reasons other than finished/failed
    if not x.games or (stopped + x.failed) / x.games <= 0.01:
        return ""
    ended = x.ended or ({"truncated": x.truncated} if x.truncated else {})
    parts = [f"{pct(n / x.games)} of the games {REASON_WORDS.get(k, k)}" for k, n in sorted(ended.items()) if n]
    parts += [f"{pct(x.failed / x.games)} failed"] if x.failed else []
    return f" Beware: {', '.join(parts)}; they are left out."


REASON_WORDS = {"stalled": "stalled", "round_cap": "hit the round cap", "decision_cap": "hit the decision cap",
                "truncated": "were truncated"}


def _verdict_balance(x: Inputs) -> str:
    found, seats = _imbalances(x), omnibus_only(x)
    if found and found[0][1] > 0 and x.strategy.height > 2 and "strategy" in found[0][4] \
            and (level := level_with(x, found[0][4]["strategy"])):  # no single winner (fresh-user finding 1, session 10)
        text, names = level_verdict(x, found[0][4], level)
        rest = [c for c in found if c[4].get("strategy") not in names]
        more = f"; {len(rest)} more significant imbalance{'s' if len(rest) > 1 else ''} below" if rest else ""
        return f"Verdict: {text}{more}." + (f" Also, {seats}." if seats else "")
    if found:
        name, eff, lo, hi, r = found[0]
        more, (a, b) = ("more", (lo, hi)) if eff > 0 else ("less", (-hi, -lo))
        rest = f"; {len(found) - 1} more significant imbalance{'s' if len(found) > 2 else ''} below" if len(found) > 1 else ""
        only = ("" if not _reference(r) else " (the reference player: the strategies here win less than random play "
                "would)" if eff > 0 else " (the reference player; no seat or other strategy differs significantly)")
        if "strategy" not in r and x.seating == "fixed" and x.strategy.height > 1:  # breaker trial 2, session 10
            only = " (seating: fixed: that seat always holds the same strategy, so this is as much the strategy's)"
        return (f"Verdict: {name}{only} wins {abs(eff) * 100:.1f} points {more} than a fair share ({x.lev} CI "
                f"{a * 100:.1f}–{b * 100:.1f}; {pct(r['win_rate'])} against {pct(r['expected'])}, "
                f"{r.get('test', 'Holm-adjusted')} {pval(r['p_holm'])}{r.get('after', '')}){rest}." + (f" Also, {seats}." if seats else ""))
    tables = [x.seat] + ([x.strategy] if x.strategy.height > 1 else [])
    reach = max(max(abs(r["ci_low"] - r["expected"]), abs(r["ci_high"] - r["expected"]))
                for t in tables for r in t.iter_rows(named=True))
    who = "seat or strategy" if x.strategy.height > 1 else "seat"
    none = f"no {who} wins significantly more or less than a fair share"
    span, tail = f"±{reach * 100:.1f} points", f"({x.lev} intervals, {x.complete:,} complete games).{_ahead_anyway(x)}"
    if seats:  # the seats differ, though no single one can be named
        strat = "; no strategy differs significantly either" if x.strategy.height > 1 else ""
        return f"Verdict: {seats}{strat} ({x.lev} intervals, {x.complete:,} complete games).{_ahead_anyway(x)}"
    if reach > TOO_WIDE:  # "every seat lies within ±56 points" would read as a finding (fresh-user 9)
        return f"Verdict: too few games to tell: {none}, but the intervals still allow any of them to be up to {span} from it {tail}"
    each = "every seat and strategy" if x.strategy.height > 1 else "every seat"
    return f"Verdict: {none}, and {each} lies within {span} of it {tail}"


def _ahead_anyway(x: Inputs) -> str:
    """When no win rate differs but a head-to-head placing does (a different, often more sensitive
    question: who finishes above whom), say so in the verdict, so the two never seem to disagree."""
    found = sorted(((r["ahead"], r) for r in x.h2h.iter_rows(named=True)
                    if r["p_holm"] < x.alpha and r["ahead_low"] > 0.5), key=lambda t: -t[0]) if not x.h2h.is_empty() else []
    if not found:
        return ""
    _, r = found[0]
    return (f" But in placings {r['strategy_a']} finishes above {r['strategy_b']} in "
            f"{pct(r['ahead'])} of the games they decide between them (sign test, Holm-adjusted {pval(r['p_holm'])}; see below).")


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


def _h2h(h2h: pl.DataFrame, alpha: float = ALPHA) -> list[tuple[str, float]]:
    out = []
    if h2h.is_empty():
        return out
    for r in h2h.iter_rows(named=True):
        if r["p_holm"] < alpha and r["ahead_low"] > 0.5:
            games = r.get("games", r["meetings"])
            units = f" in {games:,} games, the unit of its interval" if games < r["meetings"] else ""
            even = f"; {games - r['decided']:,} of {games:,} even" if games > r["decided"] else ""
            out.append((f"{r['strategy_a']} finishes above {r['strategy_b']} in "
                        f"{pint(r['rate'], r['ci_low'], r['ci_high'])} of their {r['meetings']:,} meetings{units}, below it in "
                        f"{pct(r['b_above'] / r['meetings'])}: ahead in {pint(r['ahead'], r['ahead_low'], r['ahead_high'])}"
                        f" of the {r['decided']:,} games they decide between them (sign test over games, {pval(r['p_holm'])},"
                        f" Holm-adjusted{even}).",
                        r["ahead"] - 0.5))
    return out


def head_to_head_findings(h2h: pl.DataFrame, alpha: float = ALPHA) -> list[str]:
    """A beats B when, over the games they decide between them (even games left out), A is ahead more often than half:
    sign test p < alpha after Holm's correction over the pairs, and the interval excludes 50%."""
    return [t for t, _ in _h2h(h2h, alpha)]


def _component_claims(comp: pl.DataFrame, min_sample: int, alpha: float = ALPHA,
                      limit: int = 8) -> list[tuple[str, float, bool]]:
    """``(sentence, effect, significant)``: one sentence per component claimed (however many kinds it
    was held as: a card built and sold is one card), largest effect first, then the notes."""
    if comp.is_empty():
        return []
    out, comp = [], comp if "outcome" in comp.columns else comp.with_columns(outcome=pl.lit(False))
    claims = comp.filter(pl.col("claim")).with_columns(effect=(pl.col("win_rate") - pl.col("expected")).abs()) \
        .sort(["effect", "kind"], descending=[True, False])
    by_name: dict[str, list[dict]] = {}
    for r in claims.iter_rows(named=True):
        by_name.setdefault(r["component"], []).append(r)
    for name, rs in list(by_name.items())[:limit]:
        r = rs[0]
        what = "above" if r["win_rate"] > r["expected"] else "below"
        kinds = [x["kind"] for x in rs]
        same = all((x["holders"], x["wins"]) == (r["holders"], r["wins"]) for x in rs)
        held = (f" (held as {' and '.join(kinds)}{', the same seat-games' if same else ''})" if len(rs) > 1
                else f" ({r['kind']})")
        others = "" if same else "; " + "; ".join(
            f"as {x['kind']}: {pint(x['win_rate'], x['ci_low'], x['ci_high'])} over {x['holders']:,}" for x in rs[1:])
        out.append((f"Seats with '{name}'{held} win {pint(r['win_rate'], r['ci_low'], r['ci_high'])} "
                    f"over {r['holders']:,} seat-games, {what} the {pct(r['expected'])} the same strategies win in the "
                    f"same seats ({pval(r['p_holm'])}, Holm-adjusted; an association, not proof of cause){others}.",
                    r["effect"], True))
    if len(by_name) > limit:
        out.append((f"{len(by_name) - limit} more component(s) differ significantly; see the components table.", 0.0,
                    False))
    few = comp.filter(~pl.col("enough")).height
    if few:
        out.append((f"{few} of {comp.height} component(s) appear in fewer than {min_sample} seat-games: no claim is "
                    "made about them.", 0.0, False))
    for kind in comp.filter(pl.col("outcome"))["kind"].unique(maintain_order=True).to_list():
        out.append((f"The {kind} is a band of the final score, so its holders' win rates are true by definition and no "
                    "claim is made about them (see the components table).", 0.0, False))
    if not claims.height and comp.filter(pl.col("enough") & ~pl.col("outcome")).height:
        out.append(("No component's win rate differs significantly from the expected share.", 0.0, False))
    return out


def component_findings(comp: pl.DataFrame, min_sample: int, limit: int = 8, alpha: float = ALPHA) -> list[str]:
    """The component sentences (see ``_component_claims``)."""
    return [t for t, _, _ in _component_claims(comp, min_sample, alpha, limit)]
