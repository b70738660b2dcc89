"""``sim check`` lines that read as what they are (fresh-user trial, session 6; fixed in session 7):
an undecided check that passes only because ``strict: false`` says UNDECIDED, and an inconclusive
share says about how many games would decide it, computed with the check's own interval (Wilson)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import polars as pl
import pytest
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint

from sim.analysis.checks import CheckResult, evaluate, exit_status, games_to_decide, write_junit


def _brute(share: float, n: int, thr: float, kind: str, level: float = 0.95) -> int:
    """The smallest m >= n whose Wilson interval (statsmodels) of the share over m trials (share * m
    successes, not rounded) lies wholly on one side of thr: the reference for ``games_to_decide``."""
    m = n
    while True:
        lo, hi = proportion_confint(share * m, m, alpha=1 - level, method="wilson")
        if (kind == "max" and (hi <= thr or lo > thr)) or (kind == "min" and (lo >= thr or hi < thr)):
            return m
        m += 1


def test_no_event_in_n_games_needs_z2_times_1_minus_t_over_t_games():
    # 0 events: the Wilson upper end is z^2 / (m + z^2) <= t exactly when m >= z^2 (1 - t) / t
    z2 = norm.ppf(0.975) ** 2
    want = int(-(-z2 * (1 - 0.01) // 0.01))  # 3.8415 * 99 = 380.3 -> 381
    assert want == 381
    assert games_to_decide(0.0, 300, 0.01, "max", 0.95) == want
    assert games_to_decide(0.0, 300, 0.001, "max", 0.95) == int(-(-z2 * 0.999 // 0.001))  # 3,838


@pytest.mark.parametrize("share, n, thr, kind", [
    (0.35, 100, 0.40, "max"),   # below the bound: decides as a pass
    (0.45, 100, 0.40, "max"),   # above it: decides as a failure
    (0.45, 120, 0.40, "min"),
    (0.02, 300, 0.03, "max"),
])
def test_games_to_decide_matches_a_search_with_statsmodels(share, n, thr, kind):
    assert games_to_decide(share, n, thr, kind, 0.95) == _brute(share, n, thr, kind)


def test_a_share_at_the_threshold_is_never_decided():
    assert games_to_decide(0.4, 100, 0.4, "max", 0.95) is None


def _ends(count: int, games: int) -> pl.DataFrame:
    return pl.DataFrame({"reason": ["finished", "stalled"], "count": [games - count, count],
                         "games": [games, games], "confidence": [0.95, 0.95]})


def test_an_inconclusive_share_says_about_how_many_games_would_decide_it():
    r = evaluate({"max_truncated_share": {"threshold": 0.01}}, {"end_reasons": _ends(0, 300)}, 300, 0)[0]
    assert r.status == "inconclusive"
    assert r.line().endswith("0 of 300 games; about 381 games in all would decide it (if the share stays as observed)")


def test_an_inconclusive_seat_check_scales_seat_games_to_games():
    # 3 seats rotating: each seat plays every game, so seat-games and games are the same count
    seats = pl.DataFrame({"seat": [0, 1, 2], "games": [200] * 3, "wins": [70, 66, 64],
                          "win_rate": [0.35, 0.33, 0.32], "ci_low": [0.288, 0.269, 0.259],
                          "ci_high": [0.418, 0.398, 0.388]})
    r = evaluate({"max_seat_win_rate": {"threshold": 0.40}}, {"seat": seats, "end_reasons": _ends(0, 200)}, 200, 0)[0]
    want = max(_brute(rate, 200, 0.40, "max") for rate in (0.35, 0.33))  # seat 2's interval is under 40% already
    assert want < 1000 and f"about {want:,} games in all would decide it" in r.line()


def test_an_undecided_lenient_check_says_undecided_not_pass():
    seats = pl.DataFrame({"seat": [2], "games": [300], "wins": [105], "win_rate": [0.35], "ci_low": [0.298],
                          "ci_high": [0.406]})
    r = evaluate({"max_seat_win_rate": {"threshold": 0.40, "strict": False}}, {"seat": seats}, 300, 0)[0]
    assert r.line().startswith("UNDECIDED (passes: strict is false) max_seat_win_rate: seat 2 35.0% (29.8–40.6%)")
    assert "PASS" not in r.line() and "counted as a pass" not in r.line()
    # exit codes and JUnit as documented: it counts as a pass (no failure, not skipped)
    assert r.status == "pass" and exit_status([r]) == 0
    assert r.row()["result"] == "undecided (passes: strict is false)"


def test_a_lenient_check_is_a_passing_junit_case(tmp_path):
    lenient = CheckResult("max_seat_win_rate", 0.4, False, "pass", "seat 2", 0.35, 0.298, 0.406, lenient=True)
    write_junit(tmp_path / "j.xml", [lenient], "suite", {}, 0.0)
    case = ET.parse(tmp_path / "j.xml").getroot().find(".//testcase")
    assert case.find("failure") is None and case.find("skipped") is None
    assert case.find("system-out").text.startswith("UNDECIDED (passes: strict is false)")


def test_the_html_checks_table_colours_an_undecided_row_and_says_how_many_games_would_decide_it():
    # Designer finding 9 (session 8): the lenient row had no colour and the table no games-to-decide text
    from sim.analysis.document import checks_html

    seats = pl.DataFrame({"seat": [2], "games": [300], "wins": [105], "win_rate": [0.35], "ci_low": [0.298],
                          "ci_high": [0.406]})
    lenient = evaluate({"max_seat_win_rate": {"threshold": 0.40, "strict": False}}, {"seat": seats}, 300, 0)[0]
    strict = evaluate({"max_seat_win_rate": {"threshold": 0.40}}, {"seat": seats}, 300, 0)[0]
    want = _brute(0.35, 300, 0.40, "max")  # the games whose Wilson interval of 35% clears 40% (statsmodels)
    step = 10 ** (len(str(want)) - 2)
    want = want if want < 1000 else -(-want // step) * step  # "about": two significant digits, rounded up
    decide = f"about {want:,} games in all would decide it"
    html = checks_html([lenient, strict])
    assert "<td class='undecided'>undecided (passes: strict is false)</td>" in html
    assert "<td class='undecided'>inconclusive</td>" in html and "class='pass'" not in html
    assert html.count(decide) == 2 and "<th>detail</th>" in html  # as the terminal lines say it
    assert decide in strict.line() and decide in lenient.line()
    passed = CheckResult("max_failed_games", 0, True, "pass", "", 0, float("nan"), float("nan"), "0 of 10 games")
    assert "<td class='pass'>pass</td>" in checks_html([passed])
