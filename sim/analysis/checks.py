"""Nightly checks (``sim check``): thresholds from a config's ``checks:`` evaluated on a run.

A check fails when the estimate breaks its threshold (``strict: true``, the default), or, with
``strict: false``, only when the whole 95% interval does. ``max_*`` checks over several seats or
strategies fail when any of them breaks the threshold and report the worst one.
Exit status of ``sim check``: 0 all pass, 1 any fails, 2 bad input.
"""

from __future__ import annotations

import math
import platform
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .findings import pct

DESCRIPTIONS = {
    "max_seat_win_rate": "every seat's win rate at most the threshold",
    "min_seat_win_rate": "every seat's win rate at least the threshold",
    "max_strategy_win_rate": "every strategy's win rate at most the threshold",
    "min_strategy_win_rate": "every strategy's win rate at least the threshold",
    "max_first_player_advantage": "|seat 0 win rate − expected share| at most the threshold",
    "max_truncated_share": "share of games truncated at the decision cap at most the threshold",
    "max_failed_games": "number of failed games at most the threshold",
    "min_balance": "Ludii Balance (1 − largest gap between seats' win rates) at least the threshold",
    "max_drawishness": "Ludii Drawishness (shared wins or no winner) at most the threshold",
    "min_completion": "Ludii Completion (games ending with a winner) at least the threshold",
}


@dataclass
class CheckResult:
    name: str
    threshold: float
    strict: bool
    passed: bool
    subject: str
    estimate: float
    ci_low: float
    ci_high: float
    detail: str = ""

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
        """What was tested, e.g. ``interval not wholly above 32.0%``."""
        thr = self.threshold_text()
        if self.count:
            return f"count <= {thr}"
        if self.points:
            return f"|estimate| <= {thr}" if self.strict else f"interval not wholly outside ±{thr}"
        if self.name.startswith("max"):
            return f"estimate <= {thr}" if self.strict else f"interval not wholly above {thr}"
        return f"estimate >= {thr}" if self.strict else f"interval not wholly below {thr}"

    def line(self) -> str:
        subject = f"{self.subject} " if self.subject else ""
        tail = f"; {self.detail}" if self.detail else ""
        return (f"{'PASS' if self.passed else 'FAIL'} {self.name}: {subject}{self.value_text()} "
                f"(test: {self.test_text()}){tail}")

    def row(self) -> dict:
        return {"check": self.name, "worst": self.subject, "estimate (95% CI)": self.value_text(),
                "test": self.test_text(),
                "result": "pass" if self.passed else "FAIL"}


def _breaks(kind: str, est: float, lo: float, hi: float, thr: float, strict: bool) -> bool:
    if math.isnan(est):
        return True  # nothing to show the threshold holds
    if kind == "max":
        return est > thr if strict else lo > thr
    return est < thr if strict else hi < thr


def _groups(name: str, kind: str, table: pl.DataFrame, by: str, thr: float, strict: bool) -> CheckResult:
    if table is None or table.is_empty():
        return CheckResult(name, thr, strict, False, "", math.nan, math.nan, math.nan, "no complete game")
    rows = list(table.iter_rows(named=True))
    broken = [r for r in rows if _breaks(kind, r["win_rate"], r["ci_low"], r["ci_high"], thr, strict)]
    key = (lambda r: r["win_rate"]) if strict else (lambda r: r["ci_low"] if kind == "max" else r["ci_high"])
    worst = (max if kind == "max" else min)(broken or rows, key=key)
    detail = f"{len(broken)} of {len(rows)} {by}s break it" if broken else ""
    return CheckResult(name, thr, strict, not broken, f"{by} {worst[by]}", worst["win_rate"], worst["ci_low"],
                       worst["ci_high"], detail)


def evaluate(checks: dict, tables: dict[str, pl.DataFrame], games_played: int, failed: int) -> list[CheckResult]:
    """Evaluate ``checks`` (``{name: {threshold, strict}}``) on a report's tables (``Report.tables``)."""
    out = []
    for name, spec in checks.items():
        spec = spec if isinstance(spec, dict) else spec.model_dump()
        thr, strict = float(spec["threshold"]), bool(spec.get("strict", True))
        kind = name[:3]
        if name in ("max_seat_win_rate", "min_seat_win_rate"):
            out.append(_groups(name, kind, tables.get("seat"), "seat", thr, strict))
        elif name in ("max_strategy_win_rate", "min_strategy_win_rate"):
            out.append(_groups(name, kind, tables.get("strategy"), "strategy", thr, strict))
        elif name == "max_first_player_advantage":
            fp = tables.get("first_player")
            if fp is None or fp.is_empty():
                out.append(CheckResult(name, thr, strict, False, "", math.nan, math.nan, math.nan, "no complete game"))
                continue
            r = fp.row(0, named=True)
            adv, lo, hi = r["advantage"], r["adv_low"], r["adv_high"]
            broke = abs(adv) > thr if strict else (lo > thr or hi < -thr)
            out.append(CheckResult(name, thr, strict, not broke, "seat 0 − expected", adv, lo, hi,
                                   f"seat 0 wins {pct(r['rate'])}, expected {pct(r['expected'])}"))
        elif name == "max_truncated_share":
            t = tables.get("outcomes")
            r = t.filter(pl.col("outcome").str.starts_with("truncated")).row(0, named=True) if t is not None and t.height else None
            if r is None:
                out.append(CheckResult(name, thr, strict, False, "", math.nan, math.nan, math.nan, "no game played"))
                continue
            out.append(CheckResult(name, thr, strict, not _breaks("max", r["share"], r["ci_low"], r["ci_high"], thr, strict),
                                   "truncated", r["share"], r["ci_low"], r["ci_high"], f"{r['count']} of {r['games']} games"))
        elif name == "max_failed_games":
            out.append(CheckResult(name, thr, True, failed <= thr, "failed games", float(failed), math.nan, math.nan,
                                   f"of {games_played} played"))
        elif name in ("min_balance", "max_drawishness", "min_completion"):
            fig = {"min_balance": "Balance", "max_drawishness": "Drawishness", "min_completion": "Completion"}[name]
            t = tables.get("ludii")
            r = t.filter(pl.col("figure") == fig).row(0, named=True) if t is not None and t.height and fig in t["figure"].to_list() else None
            if r is None:
                out.append(CheckResult(name, thr, strict, False, fig, math.nan, math.nan, math.nan, "no complete game"))
                continue
            lo = r["ci_low"] if r["ci_low"] is not None else math.nan
            hi = r["ci_high"] if r["ci_high"] is not None else math.nan
            out.append(CheckResult(name, thr, strict, not _breaks(kind, r["value"], lo, hi, thr, strict), fig,
                                   r["value"], lo, hi))
        else:  # pragma: no cover - config validation rejects unknown names
            raise KeyError(name)
    return out


def write_junit(path: Path, results: list[CheckResult], suite: str, properties: dict, seconds: float) -> None:
    """A JUnit XML file with one test case per check (failures carry the check's line)."""
    failures = sum(not r.passed for r in results)
    root = ET.Element("testsuites", name="sim check", tests=str(len(results)), failures=str(failures),
                      errors="0", time=f"{seconds:.3f}")
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(results)), failures=str(failures), errors="0",
                       skipped="0", time=f"{seconds:.3f}", timestamp=time.strftime("%Y-%m-%dT%H:%M:%S"),
                       hostname=platform.node())
    props = ET.SubElement(ts, "properties")
    for k, v in properties.items():
        ET.SubElement(props, "property", name=str(k), value=str(v))
    for r in results:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=r.name, time="0")
        if not r.passed:
            f = ET.SubElement(tc, "failure", message=r.line(), type="ThresholdBroken")
            f.text = f"{r.line()}\ncheck: {DESCRIPTIONS.get(r.name, r.name)}"
        out = ET.SubElement(tc, "system-out")
        out.text = f"{r.line()}\n{DESCRIPTIONS.get(r.name, '')}"
    ET.indent(root)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
