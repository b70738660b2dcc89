"""Who is level at the top (fresh-user finding 1, session 10).

With three or more strategies the verdict leads with the strategy that wins most when it
significantly wins more than a fair share. That alone does not make it *the* strongest: the
runner-up may win about as often. That is asked head to head, over the same games (``meetings.py``):
of the games one of the two won and the other did not, does the leader win more than half (exact
sign test, Holm-adjusted over the pairs)? A strategy the leader does not significantly out-win so is
*level* with it, and then the verdict names the strategies level at the top and no single winner
(``make demo`` said "osaka.shipper wins 23.9 points more than a fair share" with shipper 49.6% and
trader 48.0%). The placing test of the head-to-head table (who finishes above whom) asks another
question: in ``configs/traders_of_osaka/duplicate.yaml`` (480 games) osaka.expert wins 38.8% and
trader-copy 18.1%, yet expert finishes above trader-copy in only 53.5% of their decided games
(p = 0.45), so by placings alone every strategy would be "level at the top".
"""

from __future__ import annotations

from typing import Any

from .wording import claimed, pct, pval

# strategies that stand in as a yardstick, not as players: that they lose is expected, so their
# claims come after the others' in the verdict and the findings (fresh-user finding 3, session 6);
# never "level at the top"
REFERENCE = ("random", "random_by_kind")


def wins_more(h: dict, alpha: float) -> bool:
    """A head-to-head row (A against B) says A wins significantly more often than B in the same games."""
    return bool(h["p_won_holm"] < alpha and h["a_won"] > h["b_won"])


def level_with(x: Any, top: str) -> list[tuple[dict, dict | None]]:
    """The strategies ``top`` is not shown to out-win: ``(strategy row, head-to-head row of top against
    it)``, the most winning first. Two strategies holding as many seats a game are compared head to
    head (``wins_more``); when one holds more seats (a name listed twice) the games each "won" are not
    comparable, and their per-seat win rates are, by their intervals: level when they overlap (the
    head-to-head row is then ``None``; breaker finding 3, session 10). Reference players and strategies
    ``top`` never met are left out."""
    if x.h2h.is_empty() or "p_won_holm" not in x.h2h.columns:
        return []
    pairs = {(h["strategy_a"], h["strategy_b"]): h for h in x.h2h.iter_rows(named=True)}
    rows = {r["strategy"]: r for r in x.strategy.iter_rows(named=True)}
    out: list[tuple[dict, dict | None]] = []
    for r in x.strategy.sort("win_rate", descending=True).iter_rows(named=True):
        h = pairs.get((top, r["strategy"]))
        if r["strategy"] == top or r["strategy"] in REFERENCE or h is None:
            continue
        if r["games"] != rows[top]["games"]:  # other seats a game: per-seat rates, by their intervals
            if r["ci_high"] >= rows[top]["ci_low"]:
                out.append((r, None))
        elif not wins_more(h, x.alpha):
            out.append((r, h))
    return out


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _gain(r: dict, lev: str) -> str:
    a, b = (r["ci_low"] - r["expected"]) * 100, (r["ci_high"] - r["expected"]) * 100
    return f"{r['strategy']} {(r['win_rate'] - r['expected']) * 100:+.1f} points, {lev} CI {a:.1f}–{b:.1f}, {pval(r['p_holm'])}"


def _versus(top: dict, r: dict, h: dict | None, lev: str) -> str:
    if h is None:
        return (f"{r['strategy']} holds another number of seats a game: per seat {pct(top['win_rate'])} and "
                f"{pct(r['win_rate'])}, {lev} intervals {pct(top['ci_low'])}–{pct(top['ci_high'])} and "
                f"{pct(r['ci_low'])}–{pct(r['ci_high'])} overlap")
    return (f"head to head, {top['strategy']} won {h['a_won']:,} and {r['strategy']} {h['b_won']:,} of the games one of them won and "
            f"the other did not, sign test Holm-adjusted {pval(h['p_won_holm'])}")


def level_verdict(x: Any, top: dict, level: list[tuple[dict, dict | None]]) -> tuple[str, list[str]]:
    """The verdict's words for a top ``top`` (a strategy row) not separated from the strategies of
    ``level``: ``(sentence without "Verdict: " and the final full stop, strategies it names)``. "Level
    at the top" only when every one of them wins at least a fair share; else ``top`` wins most but the
    games do not separate it from them (breaker finding 7, session 10: a 16% strategy with a fair share
    of 20% was called level at the top)."""
    group = [top] + [r for r, _ in level]
    names = [r["strategy"] for r in group]
    rates = " and ".join(pct(r["win_rate"]) for r in group) if len(group) == 2 else ", ".join(
        f"{r['strategy']} {pct(r['win_rate'])}" for r in group)
    vs = "; ".join(_versus(top, r, h, x.lev) for r, h in level)
    per_seat = int(x.seat["games"].max())  # every seat plays every complete game
    won = "games won" if all(r["games"] == per_seat for r in group) else "seat-games won"  # a name in 2 seats
    if all(r["win_rate"] >= r["expected"] for r in group):
        text = f"no single strategy is significantly ahead: {_names(names)} are level at the top ({rates} of {won}; {vs})"
    else:
        text = (f"no single strategy is significantly ahead: {top['strategy']} wins most, but these games do not "
                f"separate it from {_names(names[1:])} ({rates} of {won}; {vs})")
    above = [r for r in group if claimed(r, x.alpha) and r["win_rate"] > r["expected"]]
    each = "both" if len(group) == 2 else f"all {len(group)}"
    if len(above) == len(group):
        text += f"; {each} win more than a fair share of {pct(top['expected'])} ("
    else:
        win = "wins" if len(above) == 1 else "win"
        text += (f"; of them only {_names([r['strategy'] for r in above])} significantly {win} more than a fair share of "
                 f"{pct(top['expected'])} (")
    return text + "; ".join(_gain(r, x.lev) for r in above) + "; Holm-adjusted)", names
