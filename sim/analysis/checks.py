"""Nightly checks (``sim check``): thresholds from a config's ``checks:`` evaluated on a run.

Each check ends in one of three states, judged on its interval (at the run's confidence level):
**pass** when the whole interval is on the good side of the threshold, **fail** when the whole
interval is on the bad side, **inconclusive** when the interval straddles it (more games would
decide; for a share with a Wilson interval the line says about how many games would, if the share
stays as observed: ``games_to_decide``; for Balance and the first-player advantage an estimate by
the interval's width: ``games_by_width``, as for a seat's win rate under ``permute``, a t-interval over
deals). The strategy checks may judge some strategies only
(``strategies:`` / ``exclude:``: ``_chosen``). ``strict: false`` counts an inconclusive check as a pass,
and its line says so: ``UNDECIDED (passes: strict is false)``. ``max_*`` checks over several
seats or strategies fail when any of them fails, pass when all pass, and report the worst one.
``max_failed_games`` is a count. Exit status of ``sim check``: ``exit_status`` (and README)."""

from __future__ import annotations

import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import polars as pl

from .findings import pct
from .stats import wilson

DESCRIPTIONS = {
    "max_seat_win_rate": "every seat's win rate at most the threshold",
    "min_seat_win_rate": "every seat's win rate at least the threshold",
    "max_strategy_win_rate": "every strategy's win rate at most the threshold",
    "min_strategy_win_rate": "every strategy's win rate at least the threshold",
    "max_first_player_advantage": "|seat 0 win rate − expected share| at most the threshold",
    "max_truncated_share": "share of games stalled or stopped at a cap (round or decision) at most the threshold",
    "max_stalled": "share of games ending stalled (nobody could change the outcome) at most the threshold",
    "max_failed_games": "number of failed games at most the threshold",
    "min_balance": "Ludii Balance (1 − largest gap between seats' win rates) at least the threshold",
    "max_drawishness": "Ludii Drawishness (shared wins or no winner) at most the threshold",
    "min_completion": "Ludii Completion (games ending with a winner) at least the threshold",
}
PASS, FAIL, UNDECIDED = "pass", "fail", "inconclusive"


@dataclass
class CheckResult:
    """One evaluated check: ``status`` pass / fail / inconclusive; estimate and interval as
    proportions (a count for ``max_failed_games``); ``level`` the interval's confidence (``95%``)."""

    name: str
    threshold: float
    strict: bool
    status: str
    subject: str
    estimate: float
    ci_low: float
    ci_high: float
    detail: str = ""
    level: str = "95%"
    lenient: bool = False  # undecided, counted as a pass because ``strict: false``

    @property
    def passed(self) -> bool:
        return self.status == PASS

    @property
    def decided(self) -> bool:
        return self.status != UNDECIDED

    @property
    def count(self) -> bool:
        return self.name == "max_failed_games"

    @property
    def points(self) -> bool:
        """A difference of two proportions, shown in percentage points."""
        return self.name == "max_first_player_advantage"

    def _num(self, x: float, sign: bool = False) -> str:
        return f"{x * 100:{'+' if sign else ''}.1f} pp" if self.points else pct(x)

    def value_text(self) -> str:
        if self.count:
            return f"{self.estimate:.0f}"
        if math.isnan(self.estimate):
            return "n/a"
        if math.isnan(self.ci_low):
            return self._num(self.estimate, True)
        if self.points:
            return f"{self._num(self.estimate, True)} ({self.ci_low * 100:+.1f} to {self._num(self.ci_high, True)})"
        return f"{pct(self.estimate)} ({pct(self.ci_low)[:-1]}–{pct(self.ci_high)})"

    def threshold_text(self) -> str:
        return f"{self.threshold:g}" if self.count else self._num(self.threshold)

    def test_text(self) -> str:
        """What was tested, e.g. ``95% interval wholly <= 32.0%``."""
        thr = self.threshold_text()
        if self.count:
            return f"count <= {thr}"
        if self.points:
            return f"{self.level} interval wholly within ±{thr}"
        return f"{self.level} interval wholly {'<=' if self.name.startswith('max') else '>='} {thr}"

    def word(self) -> str:
        if self.lenient:
            return "UNDECIDED (passes: strict is false)"
        return {PASS: "PASS", FAIL: "FAIL", UNDECIDED: "INCONCLUSIVE"}[self.status]

    def line(self) -> str:
        subject = f"{self.subject} " if self.subject else ""
        tail = f"; {self.detail}" if self.detail else ""
        return f"{self.word()} {self.name}: {subject}{self.value_text()} (test: {self.test_text()}){tail}"

    def row(self) -> dict:
        """The report's checks table row; ``detail`` as the terminal line ends (how many fail, and
        for an undecided check about how many games would decide it: designer finding 9, session 8)."""
        return {"check": self.name, "worst": self.subject, f"estimate ({self.level} CI)": self.value_text(),
                "test": self.test_text(),
                "result": "undecided (passes: strict is false)" if self.lenient else
                self.status if self.status != FAIL else "FAIL", "detail": self.detail}

    def css(self) -> str:
        """The HTML class of the result cell: ``fail``, ``undecided`` (also when ``strict: false``
        counts it as a pass) or ``pass``."""
        return "undecided" if self.lenient or self.status == UNDECIDED else "fail" if self.status == FAIL else "pass"


def judge(kind: str, est: float, lo: float, hi: float, thr: float) -> str:
    """pass / fail / inconclusive of one estimate and interval against a ``max`` or ``min`` threshold.
    A missing estimate fails; one without an interval (one deal under ``permute``) is inconclusive,
    never judged on the point (breaker trial 2, session 10: "FAIL ... seat 3 50.0%" on one deal)."""
    if est is None or math.isnan(est):
        return FAIL
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return UNDECIDED
    if kind == "max":
        return FAIL if lo > thr else PASS if hi <= thr else UNDECIDED
    return FAIL if hi < thr else PASS if lo >= thr else UNDECIDED


def _lenient(r: CheckResult) -> CheckResult:
    """``strict: false``: an inconclusive check counts as a pass (its word says so: ``lenient``)."""
    if r.status == UNDECIDED and not r.strict:
        r.status, r.lenient = PASS, True
    return r


def _wilson_share(share: float, m: float, z: float) -> tuple[float, float]:
    """The Wilson score interval (Newcombe 1998, method 3; ``stats.wilson``) of an observed share
    over m trials, the share kept as it is (not rounded to a count): it narrows as m grows."""
    denom = 2 * (m + z**2)
    center, delta = (2 * m * share + z**2) / denom, z / denom * math.sqrt(4 * m * share * (1 - share) + z**2)
    return max(0.0, center - delta), min(1.0, center + delta)


def games_to_decide(share: float, n: int, thr: float, kind: str, confidence: float, cap: int = 10**9) -> int | None:
    """The smallest number of trials m >= n at which the Wilson interval (the check's method) of the
    same observed ``share`` lies wholly on one side of ``thr`` (``judge``): "about" that many would
    decide a ``max``/``min`` check if the share stays. None when no m up to ``cap`` does (the share
    is at the threshold). The interval narrows as m grows, so doubling then bisection finds it."""
    z = NormalDist().inv_cdf(0.5 + 0.5 * confidence)

    def decided(m: int) -> bool:
        return judge(kind, share, *_wilson_share(share, m, z), thr) != UNDECIDED

    if n <= 0 or share == thr or math.isnan(share):
        return None
    low, high = n, n
    while not decided(high):
        if high > cap:
            return None
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if decided(mid) else (mid, high)
    return high  # low is undecided, high decided


def _decide_text(games: list[int | None], stays: str) -> str:
    """``about N games would decide it (if ... stays ...)`` from each undecided part's games needed."""
    if any(g is None for g in games) or not games:
        return f"no number of games decides it while {stays} at the threshold"
    return f"about {_up2(max(games)):,} games in all would decide it (if {stays} as observed)"


def _up2(m: int) -> int:
    """``m`` rounded *up* to two significant digits above 1,000 (3,838 -> 3,900): the number said
    is never below the games needed (until session 10 it was rounded to the nearest: 3,800)."""
    if m < 1000:
        return m
    step = 10 ** (len(str(m)) - 2)
    return -(-m // step) * step


def games_by_width(n: int, est: float, lo: float, hi: float, bounds: tuple[float, float]) -> int | None:
    """About how many games would decide a check whose interval has no closed form in the share
    (Balance: a bootstrap; the first-player advantage: a difference of two shares): an estimate that
    shrinks the interval's arms (est − lo, hi − est) by sqrt(n / n'), the estimate staying as observed.
    ``bounds`` (low, high): the check passes when the interval is wholly within them (``-inf`` or
    ``inf`` for a one-sided check) and fails when it is wholly outside. Each arm that must clear a
    bound at distance d needs n' >= n * (arm / d)^2; None when the estimate is on a bound."""
    low, high = bounds
    if n <= 0 or any(math.isnan(x) for x in (est, lo, hi)) or est in (low, high):
        return None
    if low < est < high:  # pass: each arm within its bound
        need = [(hi - est) / (high - est), (est - lo) / (est - low)]
    else:  # fail: the arm towards the bound wholly past it
        need = [(est - lo) / (est - high)] if est > high else [(hi - est) / (low - est)]
    return max(n, math.ceil(n * max(need) ** 2 - 1e-9))


def _width_text(need: int | None, what: str) -> str:
    """The games-needed clause of a check estimated by ``games_by_width``, said to be an estimate."""
    if need is None:
        return f"no number of games decides it while {what} stays at the threshold"
    return (f"about {_up2(need):,} games in all would decide it (an estimate: the interval's half-width"
            f" scaled by sqrt(n/n'), if {what} stays as observed)")


def _confidence(tables: dict) -> float:
    """The confidence level of the report's intervals (the ``end_reasons`` table records it)."""
    t = tables.get("end_reasons")
    return float(t["confidence"][0]) if t is not None and t.height and "confidence" in t.columns else 0.95


def _none(name: str, thr: float, strict: bool, why: str, subject: str = "") -> CheckResult:
    return CheckResult(name, thr, strict, FAIL, subject, math.nan, math.nan, math.nan, why)


def _groups(name: str, kind: str, table: pl.DataFrame, by: str, thr: float, strict: bool,
            played: int = 0, confidence: float = 0.95) -> CheckResult:
    if table is None or table.is_empty():
        return _none(name, thr, strict, "no complete game")
    rows = list(table.iter_rows(named=True))
    status = [judge(kind, r["win_rate"], r["ci_low"], r["ci_high"], thr) for r in rows]
    edge = (lambda r: r["ci_high"]) if kind == "max" else (lambda r: -r["ci_low"])  # nearest the bad side
    for want in (FAIL, UNDECIDED, PASS):
        picked = [r for r, s in zip(rows, status, strict=True) if s == want]
        if picked:
            worst = max(picked, key=edge)
            break
    n_fail, n_und = status.count(FAIL), status.count(UNDECIDED)
    overall = FAIL if n_fail else UNDECIDED if n_und else PASS
    plural = "strategies" if by == "strategy" else f"{by}s"
    detail = ", ".join(filter(None, [f"{n_fail} of {len(rows)} {plural} fail" if n_fail else "",
                                     f"{n_und} of {len(rows)} undecided" if n_und else ""]))
    if overall == UNDECIDED and played and "deals" in table.columns:  # t-intervals over deals: no Wilson to solve
        open_ = [r for r, s in zip(rows, status, strict=True) if s == UNDECIDED]
        bounds = (-math.inf, thr) if kind == "max" else (thr, math.inf)
        need = [games_by_width(played, r["win_rate"], r["ci_low"], r["ci_high"], bounds) for r in open_]
        detail += "; " + _width_text(None if None in need else max(need), "each win rate")
    elif overall == UNDECIDED and played:  # a row's games (seat-games) grow in proportion to the games played
        open_ = [r for r, s in zip(rows, status, strict=True) if s == UNDECIDED]
        need = [games_to_decide(r["win_rate"], r["games"], thr, kind, confidence) for r in open_]
        detail += "; " + _decide_text([None if m is None else math.ceil(m * played / r["games"])
                                       for m, r in zip(need, open_, strict=True)], "the win rates stay")
    return CheckResult(name, thr, strict, overall, f"{by} {worst[by]}", worst["win_rate"], worst["ci_low"],
                       worst["ci_high"], detail)


def _chosen(table: pl.DataFrame | None, spec: dict) -> tuple[pl.DataFrame | None, str]:
    """The strategy table's rows a check judges (its ``strategies:`` or all but its ``exclude:``)
    and the words saying so (``random left out``), "" when it judges every strategy."""
    keep, drop = spec.get("strategies"), spec.get("exclude")
    if table is None or not (keep or drop):
        return table, ""
    labels = table["strategy"].cast(pl.Utf8)
    chosen = table.filter(labels.is_in(list(keep)) if keep else ~labels.is_in(list(drop)))
    said = f"judged on {', '.join(keep)}" if keep else f"{', '.join(drop)} left out"
    return chosen, said


def _share(name: str, t: pl.DataFrame | None, reasons: tuple[str, ...], thr: float, strict: bool) -> CheckResult:
    """A ``max_*`` check of the share of games that ended for one of ``reasons`` (``end_reasons`` table)."""
    if t is None or not t.height:
        return _none(name, thr, strict, "no game played")
    r = t.filter(pl.col("reason").is_in(list(reasons)))
    count, games = int(r["count"].sum()), int(t["games"][0])
    lo, hi = wilson(count, games, float(t["confidence"][0]) if "confidence" in t.columns else 0.95)
    est = count / games if games else math.nan
    status = judge("max", est, lo, hi, thr)
    detail = f"{count} of {games} games"
    if status == UNDECIDED:
        conf = float(t["confidence"][0]) if "confidence" in t.columns else 0.95
        detail += "; " + _decide_text([games_to_decide(est, games, thr, "max", conf)], "the share stays")
    return CheckResult(name, thr, strict, status, " or ".join(reasons), est, lo, hi, detail)


def _one(name: str, spec: dict, tables: dict[str, pl.DataFrame], games_played: int, failed: int) -> CheckResult:
    thr, strict = float(spec["threshold"]), bool(spec.get("strict", True))
    kind = name[:3]
    if name in ("max_seat_win_rate", "min_seat_win_rate"):
        return _groups(name, kind, tables.get("seat"), "seat", thr, strict, games_played, _confidence(tables))
    if name in ("max_strategy_win_rate", "min_strategy_win_rate"):
        table, said = _chosen(tables.get("strategy"), spec)
        if said and table is not None and table.is_empty() and not tables["strategy"].is_empty():
            return _none(name, thr, strict, f"{said}: no such strategy in this run")
        r = _groups(name, kind, table, "strategy", thr, strict, games_played, _confidence(tables))
        r.detail = "; ".join(filter(None, [said, r.detail]))
        return r
    if name == "max_first_player_advantage":
        fp = tables.get("first_player")
        if fp is None or fp.is_empty():
            return _none(name, thr, strict, "no complete game")
        r = fp.row(0, named=True)
        adv, lo, hi = r["advantage"], r["adv_low"], r["adv_high"]
        status = FAIL if (lo > thr or hi < -thr) else PASS if (-thr <= lo and hi <= thr) else UNDECIDED
        detail = f"seat 0 wins {pct(r['rate'])}, expected {pct(r['expected'])}"
        if status == UNDECIDED:
            detail += "; " + _width_text(games_by_width(games_played, adv, lo, hi, (-thr, thr)), "the advantage")
        return CheckResult(name, thr, strict, status, "seat 0 − expected", adv, lo, hi, detail)
    if name == "max_truncated_share":
        return _share(name, tables.get("end_reasons"), ("stalled", "round_cap", "decision_cap"), thr, strict)
    if name == "max_stalled":
        return _share(name, tables.get("end_reasons"), ("stalled",), thr, strict)
    if name == "max_failed_games":
        return CheckResult(name, thr, True, PASS if failed <= thr else FAIL, "failed games", float(failed),
                           math.nan, math.nan, f"of {games_played} played")
    if name in ("min_balance", "max_drawishness", "min_completion"):
        fig = {"min_balance": "Balance", "max_drawishness": "Drawishness", "min_completion": "Completion"}[name]
        t = tables.get("ludii")
        r = t.filter(pl.col("figure") == fig).row(0, named=True) if t is not None and t.height and fig in t["figure"].to_list() else None
        if r is None:
            return _none(name, thr, strict, "no complete game", fig)
        lo = r["ci_low"] if r["ci_low"] is not None else math.nan
        hi = r["ci_high"] if r["ci_high"] is not None else math.nan
        res = CheckResult(name, thr, strict, judge(kind, r["value"], lo, hi, thr), fig, r["value"], lo, hi)
        if res.status == UNDECIDED and fig == "Balance":  # a bootstrap interval: scaled by its width
            bounds = (thr, math.inf) if kind == "min" else (-math.inf, thr)
            res.detail = _width_text(games_by_width(games_played, r["value"], lo, hi, bounds), "Balance")
        elif res.status == UNDECIDED and r.get("games"):
            need = games_to_decide(r["value"], r["games"], thr, kind, _confidence(tables))
            res.detail = _decide_text([None if need is None else math.ceil(need * games_played / r["games"])],
                                      "the share stays")
        return res
    raise KeyError(name)  # pragma: no cover - config validation rejects unknown names


def evaluate(checks: dict, tables: dict[str, pl.DataFrame], games_played: int, failed: int,
             level: str = "95%") -> list[CheckResult]:
    """Evaluate ``checks`` (``{name: {threshold, strict}}``) on a report's tables (``Report.tables``);
    ``level``: the confidence of those tables' intervals, as the results print it."""
    out = []
    for name, spec in checks.items():
        r = _one(name, spec if isinstance(spec, dict) else spec.model_dump(), tables, games_played, failed)
        r.level = level
        out.append(_lenient(r))
    return out


def exit_status(results: list[CheckResult], inconclusive: str | None = None) -> int:
    """0 all pass, 1 any fails, 3 none fails but some are inconclusive; ``inconclusive`` ("pass" or
    "fail") maps that 3 to 0 or 1 for CI systems that know only two states."""
    if any(r.status == FAIL for r in results):
        return 1
    if any(r.status == UNDECIDED for r in results):
        return {"pass": 0, "fail": 1}.get(inconclusive or "", 3)
    return 0


def write_junit(path: Path, results: list[CheckResult], suite: str, properties: dict, seconds: float,
                error: str = "") -> None:
    """A JUnit XML file with one test case per check: failures carry the check's line, an
    inconclusive check is ``<skipped>`` with its interval in the message; ``error`` (no game
    completed) adds a test case ``games_completed`` in error."""
    import xml.etree.ElementTree as ET  # only `sim check --junit` writes XML (start-up)

    failures, errors, tests = sum(r.status == FAIL for r in results), str(int(bool(error))), str(len(results) + bool(error))
    skipped = sum(r.status == UNDECIDED for r in results)
    root = ET.Element("testsuites", name="sim check", tests=tests, failures=str(failures), errors=errors,
                      time=f"{seconds:.3f}")
    ts = ET.SubElement(root, "testsuite", name=suite, tests=tests, failures=str(failures), errors=errors,
                       skipped=str(skipped), time=f"{seconds:.3f}", timestamp=time.strftime("%Y-%m-%dT%H:%M:%S"),
                       hostname=platform.node())
    props = ET.SubElement(ts, "properties")
    for k, v in properties.items():
        ET.SubElement(props, "property", name=str(k), value=str(v))
    for r in results:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=r.name, time="0")
        if r.status == FAIL:
            f = ET.SubElement(tc, "failure", message=r.line(), type="ThresholdBroken")
            f.text = f"{r.line()}\ncheck: {DESCRIPTIONS.get(r.name, r.name)}"
        elif r.status == UNDECIDED:  # not yet known: the interval straddles the threshold
            ET.SubElement(tc, "skipped", message=r.line())
        out = ET.SubElement(tc, "system-out")
        out.text = f"{r.line()}\n{DESCRIPTIONS.get(r.name, '')}"
    if error:
        ET.SubElement(ET.SubElement(ts, "testcase", classname=suite, name="games_completed", time="0"), "error",
                      message=error, type="NoGameCompleted")
    ET.indent(root)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")  # whole or not at all: no 0-byte file on a full disk (breaker finding 8)
    try:
        ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
