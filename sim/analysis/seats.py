"""The seat question of the findings and the verdict, asked once (fresh-user finding 3, session 7).

Two seats: seat 0 against the expected share (exact binomial test) is the whole question; the
chi-square over the seats and the per-seat Holm table only ask it again (Holm over two mirror-image
seats halves its power), so the findings and the verdict give that one answer. Three or more
seats: the chi-square over the seats first (are the seats equally likely to win?), then which seat
(exact binomial tests, Holm-adjusted over the seats; claimed only when the chi-square is
significant), then seat 0 as a question asked of its own.

Multiplicity (fresh-user finding 10, session 10; ``docs/analysis.md``, "Seat claims and
multiplicity"): seat 0's binomial test is the pre-declared primary question, at the full level;
the chi-square gates the per-seat claims. A first-player claim that the chi-square does not back is
called weak evidence, with the games that would settle it.
"""

from __future__ import annotations

import math
from typing import Any

from .stats import games_for_chi_power, games_for_power
from .wording import Finding, claimed, expected_note, pct, pint, points, pval


def _deals(x: Any) -> int:
    """The deals the seat tests took as units (``deals``, seating: permute), 0 when the games were."""
    return int(x.first.get("deals") or 0) if x.first else 0


def _omni(x: Any) -> str:
    """The name of the test over the seats: the chi-square, or Friedman's over the deals (``deals``)."""
    return "chi-square" if not _deals(x) else f"Friedman test ({_deals(x)} deals)"


def _fp_test(x: Any) -> str:
    """The name of seat 0's test: the exact binomial test, or the t-test over the deals (``deals``)."""
    return "binomial test" if not _deals(x) else f"t-test over the {_deals(x)} deals"


def two_seats(x: Any) -> bool:
    return x.players == 2 and x.seat.height == 2


def first_significant(x: Any) -> bool:
    """Seat 0's binomial test is significant and its interval excludes the expected share."""
    f = x.first
    return bool(f and not math.isnan(f["p"]) and f["p"] < x.alpha and (f["adv_low"] > 0 or f["adv_high"] < 0))


def _unbacked(x: Any) -> str:
    """Why a significant first-player test stands alone, or "": the chi-square over three or more
    seats is not significant."""
    if not two_seats(x) and not math.isnan(x.chi[1]) and x.chi[1] >= x.alpha:
        return f"the seats together do not differ ({_omni(x)} {pval(x.chi[1])})"
    return ""


def weak_first(x: Any) -> str:
    """For a significant first-player claim that other seat tests do not back: the words "weak
    evidence", why, and about how many games would settle it (80% power at the report's level for
    an effect of the size observed); else ""."""
    why = _unbacked(x) if first_significant(x) else ""
    if not why:
        return ""
    f = x.first
    if f["p"] < x.alpha / 5:  # strong on its own: say what disagrees, no more
        return why
    return f"weak evidence: {why}, and {LONE.format(lo=x.alpha / 5, hi=x.alpha)}" + ("" if _deals(x) else _settle(
        games_for_power(f["expected"], f["rate"], x.alpha), f"{f['advantage'] * 100:+.1f} points", x.alpha))


LONE = "one p-value between {lo:g} and {hi:g} among several seat tests turns up often by chance"


def _settle(n: int | None, effect: str, alpha: float) -> str:
    """``; about N games in all would settle it (...)``, N up to two significant digits; "" without N."""
    if n is None:
        return ""
    m = 10 ** max(0, len(str(n)) - 2)
    return (f"; about {-(-n // m) * m:,} games in all would settle it (80% power to detect {effect} at the "
            f"{alpha * 100:g}% level; an effect that only just reaches significance is often smaller than it looks, "
            "so perhaps more)")


def weak_omnibus(x: Any) -> str:
    """For a significant chi-square over the seats that names no seat, with p between alpha/5 and
    alpha and seat 0's own test not significant either: the words "weak evidence" and the games that
    would settle it (80% power for a spread of the seats as observed); else ""."""
    chi, p = x.chi
    if two_seats(x) or math.isnan(p) or not x.alpha / 5 <= p < x.alpha or first_significant(x) \
            or any(claimed(r, x.alpha) for r in x.seat.iter_rows(named=True)):
        return ""
    # the power formula counts games as independent: under permute (deals the units) no estimate
    return f"weak evidence: {LONE.format(lo=x.alpha / 5, hi=x.alpha)}" + ("" if _deals(x) else _settle(
        games_for_chi_power(chi, int(x.seat["games"].max()), x.seat.height, x.alpha), "a spread of the seats as observed",
        x.alpha))


def seat_findings(x: Any) -> list[Finding]:
    """The seat sentences, in the order they are asked (see the module docstring)."""
    if two_seats(x):
        return _two_seats(x)
    out = _omnibus(x)
    return out + _first_player(x, out)


def _wins(x: Any) -> str:
    f = x.first
    return f"wins {pint(f['rate'], f['ci_low'], f['ci_high'])}, {expected_note(f['expected'], x.players)}"


def _no_test(x: Any) -> str:
    """Why seat 0 has no test: one deal (the deal the unit: no spread to test against), else a share of 0 or 1."""
    if _deals(x) == 1:
        return "one deal: with the deal as the unit there is no spread to test against; play at least two deals"
    return "the expected share is 0 or 1"


def _two_seats(x: Any) -> list[Finding]:
    f = x.first
    if not f or math.isnan(f["rate"]):
        return []
    if math.isnan(f["p"]):  # e.g. every game a shared win: nothing to test against
        return [Finding(f"Seat 0 (start player) {_wins(x)}; no test applies ({_no_test(x)}).")]
    adv = f"{f['advantage'] * 100:+.1f} points ({x.lev} CI {points(f['adv_low'], f['adv_high'])})"
    one = "with two seats this one test answers the seat question"
    if first_significant(x):
        kind = "advantage" if f["advantage"] > 0 else "disadvantage"
        return [Finding(f"Seat 0 (start player) {_wins(x)}: a first-player {kind} of {adv}, significant ({_fp_test(x)}, {pval(f['p'])}); "
                        f"{one}.", abs(f["advantage"]), True)]
    return [Finding(f"Seat 0 (start player) {_wins(x)}: {adv}, no significant first-player advantage ({_fp_test(x)}, {pval(f['p'])}); {one}.")]


def _omnibus(x: Any) -> list[Finding]:
    """The chi-square over the seats, then the seats it lets us name."""
    chi, p_chi = x.chi
    n = x.seat.height
    if math.isnan(p_chi):
        return []
    if p_chi >= x.alpha:  # the precision as the verdict gives it: how far from a fair share an interval reaches
        reach = f"every seat's win rate lies within ±{seat_reach(x) * 100:.1f} points of a fair share ({x.lev} intervals)"
        if first_significant(x):  # fresh-user findings 1 and 2 (session 8): no "no" beside seat 0's "yes"
            return [Finding(f"The seats together do not differ significantly ({_omni(x)} over the {n} seats "
                            f"{pval(p_chi)}): apart from seat 0's own question above, no seat can be said to win more "
                            f"or less than a fair share; {reach}.")]
        return [Finding(f"No significant seat advantage ({_omni(x)} over the {n} seats {pval(p_chi)}): {reach}.")]
    rows = list(x.seat.iter_rows(named=True))
    far = max(rows, key=lambda r: abs(r["win_rate"] - r["expected"]))
    named = [r for r in rows if claimed(r, x.alpha)]
    which = ("" if named else f", but no single seat can be named: none differs significantly from the expected share "
             f"after Holm's correction over the {n} seats (the furthest, seat {far['seat']}, wins {pct(far['win_rate'])}, "
             f"expected {pct(far['expected'])}, Holm-adjusted {pval(far['p_holm'])}); see the seat table")
    weak = f"; {w}" if (w := weak_omnibus(x)) else ""
    out = [Finding(f"Seat win rates differ ({_omni(x)} over the {n} seats {chi:.1f}, {pval(p_chi)}): the seats are not "
                   f"equally likely to win{which}{weak}.", abs(far["win_rate"] - far["expected"]), True)]
    for r in named:
        what = "above" if r["win_rate"] > r["expected"] else "below"
        if r["seat"] == 0:
            f = x.first
            kind = "advantage" if what == "above" else "disadvantage"
            tail = (f"first-player {kind} is significant ({pval(r['p_holm'])}): "
                    f"{f['advantage'] * 100:+.1f} points ({x.lev} CI {points(f['adv_low'], f['adv_high'])})")
        else:
            tail = f"significantly {what} the expected share ({pval(r['p_holm'])})"
        name = "Seat 0 (start player)" if r["seat"] == 0 else f"Seat {r['seat']}"
        out.append(Finding(f"{name} wins {pint(r['win_rate'], r['ci_low'], r['ci_high'])}, "
                           f"{expected_note(r['expected'], x.players)}: {tail}.", abs(r["win_rate"] - r["expected"]), True))
    return out


def _first_player(x: Any, seat_claims: list[Finding]) -> list[Finding]:
    """Seat 0 as a question of its own, unless a seat-0 claim already states it."""
    f = x.first
    if any(c.significant and c.text.startswith("Seat 0") for c in seat_claims) or not f or math.isnan(f["rate"]):
        return []
    if math.isnan(f["p"]):
        return [Finding(f"First-player advantage: seat 0 {_wins(x)}; no test applies ({_no_test(x)}).")]
    sig, p_chi, weak = first_significant(x), x.chi[1], weak_first(x)
    if sig and not math.isnan(p_chi) and p_chi < x.alpha:  # the seats differ, seat 0 alone does, not after Holm
        holm = x.seat.filter(x.seat["seat"] == 0)["p_holm"]
        alone = (f" as a question of its own, not among all seats (Holm-adjusted {pval(holm[0])} in the seat table)"
                 + (f"; but {weak}" if weak else ""))
    elif sig and weak:  # seat 0 alone differs, other seat tests do not back it (fresh-user finding 10, session 10)
        alone = f", the first-player question asked first; but {weak}"
    else:
        alone = ""
    return [Finding(f"First-player advantage: seat 0 {_wins(x)}: {f['advantage'] * 100:+.1f} points ({x.lev} CI "
                    f"{points(f['adv_low'], f['adv_high'])}); {'' if sig else 'not '}significant "
                    f"({_fp_test(x)}, {pval(f['p'])}){alone}.", abs(f["advantage"]) if sig else 0.0, sig)]


def seat_reach(x: Any) -> float:
    """The largest distance from the expected share that a seat's interval still allows (the
    precision figure of the verdict and of the seat finding: one figure, fresh-user finding 2, session 8)."""
    return max(max(abs(r["ci_low"] - r["expected"]), abs(r["ci_high"] - r["expected"])) for r in x.seat.iter_rows(named=True))


def _first_alone(x: Any) -> tuple[str, float, float, float, dict]:
    """Seat 0's own significant question as an imbalance of the verdict (fresh-user finding 1,
    session 8: it was a significant finding the verdict denied and did not count)."""
    f, p_chi = x.first, x.chi[1]
    after = ("; the seats together do not differ significantly, " + _omni(x) + " " + pval(p_chi)
             if not math.isnan(p_chi) and p_chi >= x.alpha else "; not significant after Holm's correction over the seats")
    after += "; weak evidence, see the findings" if weak_first(x).startswith("weak") else ""
    row = {"win_rate": f["rate"], "expected": f["expected"], "p_holm": f["p"], "test": f"{_fp_test(x)} of seat 0 alone",
           "after": after}
    return ("seat 0 (the start player)", f["advantage"], f["adv_low"], f["adv_high"], row)


def seat_imbalances(x: Any) -> list[tuple[str, float, float, float, dict]]:
    """The seat imbalances the verdict may name: ``(name, effect, low, high, row)``; ``row`` has
    ``win_rate, expected, p_holm`` and ``test`` (how its p-value was found)."""
    if two_seats(x):
        if not first_significant(x):
            return []
        f = x.first
        row = {"win_rate": f["rate"], "expected": f["expected"], "p_holm": f["p"], "test": _fp_test(x)}
        return [("seat 0 (the start player)", f["advantage"], f["adv_low"], f["adv_high"], row)]
    if math.isnan(x.chi[1]):
        return []
    named = [] if x.chi[1] >= x.alpha else [
        ("seat 0 (the start player)" if r["seat"] == 0 else f"seat {r['seat']}", r["win_rate"] - r["expected"],
         r["ci_low"] - r["expected"], r["ci_high"] - r["expected"], r)
        for r in x.seat.iter_rows(named=True) if claimed(r, x.alpha)]
    # seat 0 asked alone counts too, unless named already, or the chi-square is significant and no seat is
    # named (then ``omnibus_only`` says both in the verdict)
    alone = first_significant(x) and not any(n.startswith("seat 0") for n, *_ in named) \
        and (named or x.chi[1] >= x.alpha)
    return named + ([_first_alone(x)] if alone else [])


def omnibus_only(x: Any) -> str:
    """At three or more seats, when the chi-square is significant but no seat can be named: the
    verdict's words for the seat effect (what the per-seat tests can and cannot say); else ``""``."""
    chi, p = x.chi
    if two_seats(x) or math.isnan(p) or p >= x.alpha or seat_imbalances(x):
        return ""
    f = x.first
    alone = (f"; asked about on its own, seat 0 (the start player) wins {pct(f['rate'])} against {pct(f['expected'])} "
             f"({_fp_test(x)}, {pval(f['p'])})" if first_significant(x) else "")
    weak = "; weak evidence, see the findings" if weak_omnibus(x) else ""
    return (f"the seats are not equally likely to win ({_omni(x)} over the {x.seat.height} seats {chi:.1f}, {pval(p)}{weak}), "
            f"but no single seat differs significantly from a fair share after Holm's correction over the seats{alone}")
