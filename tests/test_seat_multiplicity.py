"""Session 10, fresh-user finding 10 (part 1): seat claims and multiplicity. Seat 0's binomial test is
the pre-declared primary question, at the full level; the chi-square over the seats gates the
per-seat claims; a first-player claim the chi-square does not back is called weak
evidence, with the games that would settle it. Hand-built seat tables; p-values from scipy,
sample sizes from statsmodels."""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps
from statsmodels.stats.power import GofChisquarePower, NormalIndPower

from sim.analysis import findings as fnd
from sim.analysis.stats import games_for_chi_power, games_for_power
from tests.test_s8_verdict import _seat_inputs

# 400 games won 120/95/95/90 by seats 0-3 (no shared wins: expected 25%)
WINS = [120, 95, 95, 90]


def _h(rate: float, expected: float) -> float:
    return 2 * math.asin(math.sqrt(rate)) - 2 * math.asin(math.sqrt(expected))


def _settle(rate: float, expected: float) -> int:
    """statsmodels' one-sample sample size (ratio=0) at 80% power, up to two significant digits."""
    n = math.ceil(NormalIndPower().solve_power(effect_size=abs(_h(rate, expected)), alpha=0.05, power=0.8, ratio=0))
    step = 10 ** max(0, len(str(n)) - 2)
    return -(-n // step) * step


def _first_player(found: list[str]) -> str:
    return next(f for f in found if f.startswith("First-player advantage"))


@pytest.mark.parametrize(("expected", "rate"), [(0.25, 0.30), (0.25, 0.20), (0.2557, 0.3042), (0.5, 0.55)])
def test_games_for_power_is_statsmodels_one_sample_size(expected, rate):
    want = NormalIndPower().solve_power(effect_size=abs(_h(rate, expected)), alpha=0.05, power=0.8, ratio=0)
    assert games_for_power(expected, rate) == math.ceil(want)
    # by hand, the arcsine approximation: ((1.95996 + 0.84162) / h)^2
    assert games_for_power(expected, rate) == math.ceil(((1.959964 + 0.841621) / _h(rate, expected)) ** 2)


def test_games_for_power_has_no_answer_without_an_effect():
    assert games_for_power(0.25, 0.25) is None and games_for_power(0.0, 0.3) is None


def test_a_lone_first_player_p_the_chi_square_does_not_back_is_weak_evidence():
    p0, p_chi = sps.binomtest(120, 400, 0.25).pvalue, sps.chisquare(WINS).pvalue  # 0.024 and 0.139
    assert p0 < 0.05 <= p_chi
    text = _first_player(fnd.findings(_seat_inputs(WINS)))
    assert (f"significant (binomial test, p = {p0:.3f}), the first-player question asked first; but weak evidence: "
            f"the seats together do not differ (chi-square p = {p_chi:.3f}), and one p-value between 0.01 and 0.05 "
            "among several seat tests turns up often by chance") in text, text
    assert f"about {_settle(0.30, 0.25):,} games in all would settle it (80% power to detect +5.0 points" in text


def test_seats_the_chi_square_separates_carry_no_weak_label():
    # 130/90/90/90 of 400: chi-square (900 + 3 * 100) / 100 = 12 on 3 df, p = 0.0074; seat 0 named after Holm
    assert sps.chisquare([130, 90, 90, 90]).pvalue < 0.01
    x = _seat_inputs([130, 90, 90, 90])
    said = fnd.findings(x) + [fnd.verdict(x)]
    assert not any("weak evidence" in s for s in said), said
    assert fnd.verdict(x).startswith("Verdict: seat 0 (the start player) wins 7.5 points more")


def test_the_verdict_marks_a_lone_first_player_claim_as_weak():
    v = fnd.verdict(_seat_inputs(WINS))
    assert v.startswith("Verdict: seat 0 (the start player) wins 5.0 points more") and "; weak evidence, see the findings)" in v


def test_games_for_chi_power_is_statsmodels_goodness_of_fit_size():

    # 480 games won 1 each, chi-square 8.2 over 4 seats: Cohen's w = sqrt(8.2 / 480)
    want = GofChisquarePower().solve_power(effect_size=math.sqrt(8.2 / 480), nobs=None, alpha=0.05, power=0.8, n_bins=4)
    assert abs(games_for_chi_power(8.2, 480, 4) - want) <= 1
    assert games_for_chi_power(0.0, 480, 4) is None


def test_a_lone_chi_square_that_names_no_seat_is_weak_evidence():
    # 100/100/80/120 of 400: chi-square (0 + 0 + 400 + 400) / 100 = 8 on 3 df (p = 0.046); seats 2 and 3
    # binomial p 0.021 and 0.024, Holm over 4 seats 0.083: no seat named; seat 0 wins exactly 25%
    wins = [100, 100, 80, 120]
    p_chi = sps.chisquare(wins).pvalue
    assert 0.01 <= p_chi < 0.05 and 4 * sps.binomtest(80, 400, 0.25).pvalue > 0.05
    x = _seat_inputs(wins)
    seat = next(f for f in fnd.findings(x) if f.startswith("Seat win rates differ"))
    nobs = GofChisquarePower().solve_power(effect_size=math.sqrt(8 / 400), nobs=None, alpha=0.05, power=0.8, n_bins=4)
    n = math.ceil(nobs)
    step = 10 ** max(0, len(str(n)) - 2)
    assert ("weak evidence: one p-value between 0.01 and 0.05 among several seat tests turns up often by chance; "
            f"about {-(-n // step) * step:,} games in all would settle it") in seat, seat
    assert f"(chi-square over the 4 seats 8.0, p = {p_chi:.3f}; weak evidence, see the findings)" in fnd.verdict(x)


def test_under_deals_a_weak_claim_gives_no_games_estimate():
    # seating: permute (the seat tests over 12 deals): the power formula counts games as independent,
    # which deals are not, so the weak label stands without "about N games would settle it"
    x = _seat_inputs(WINS)
    x.first = {**x.first, "deals": 12}
    text = _first_player(fnd.findings(x))
    assert "weak evidence" in text and "would settle it" not in text, text
    assert "t-test over the 12 deals" in text and "Friedman test (12 deals)" in text
