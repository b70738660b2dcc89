"""How the findings word numbers: percentages, intervals, p-values, and the ``Finding`` record."""

from __future__ import annotations

import math
from dataclasses import dataclass


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x * 100:.{digits}f}%"


def pint(rate: float, low: float, high: float) -> str:
    """``31.2% (30.3–32.1%)``; ``31.2% (no interval)`` when an end is NaN (one deal under permute)."""
    if math.isnan(low) or math.isnan(high):
        return f"{pct(rate)} (no interval)"
    return f"{pct(rate)} ({pct(low)[:-1]}–{pct(high)})"


def p_digits(p: float) -> str:
    """A p-value with 3 decimals, or more when those round it onto a threshold a test may use (a
    multiple of 0.005 up to 0.2, e.g. 0.0497 -> "0.0497", not "0.050": fresh-user finding 11, session 8,
    a significant chi-square printed as p = 0.050). Exact values stay short (0.05 -> "0.050")."""
    text = f"{p:.3f}"
    for digits in (4, 5, 6):
        shown = float(text)
        if shown == p or shown > 0.2 or round(shown * 200, 9) % 1:
            break
        text = f"{p:.{digits}f}"
    return text


def pval(p: float) -> str:
    if p is None or math.isnan(p):
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p_digits(p)}"


def points(lo: float, hi: float) -> str:
    return f"{lo * 100:+.1f} to {hi * 100:+.1f} points"


def expected_note(exp: float, players: int) -> str:
    if abs(exp - 1 / players) < 1e-9:
        return f"expected {pct(exp)}"
    return f"expected {pct(exp)}, the pooled win rate with shared wins"


def claimed(r: dict, alpha: float) -> bool:
    """A row of a tested win table (``win_rate, ci_low, ci_high, expected, p_holm``) is claimed when its
    Holm-adjusted p is below ``alpha`` and its interval excludes the expected share."""
    outside = r["ci_low"] > r["expected"] or r["ci_high"] < r["expected"]
    return bool(outside and r["p_holm"] < alpha)


@dataclass
class Finding:
    """One sentence; ``effect`` (a proportion, e.g. |win rate − expected|) ranks significant claims."""

    text: str
    effect: float = 0.0
    significant: bool = False
    tier: int = 0  # 0: seat and strategy win rates; 1: head to head and components; 2: a reference player's win rate
