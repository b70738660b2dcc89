"""A sweep's points against its baseline point: the paired comparisons of ``compare`` (every
point played the same games), Holm-adjusted over the whole sweep within each metric (win rates one
family, mean scores another), as a table, sentences and a chart."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from . import charts
from .compare import compare_runs
from .compare_report import families, level
from .document import p_text
from .stats import holm, holm_within
from .tables import load_tables


def baseline_comparisons(out: Path, meta: dict, confidence: float = 0.95) -> tuple[pl.DataFrame, list[str]]:
    """``(rows, skipped)``: one row per (point other than the baseline, group, label, metric): the
    ``compare`` row of that point (B) against the baseline (A), with ``p_adjusted`` and
    ``significant`` recomputed by Holm over every row of the sweep of the same metric; adds ``point``, ``point_label``,
    ``paired``. ``skipped``: sentences naming the points that cannot be compared with the baseline
    (another player count: seats and win rates mean other things)."""
    points = meta["points"]
    base = meta.get("baseline", points[0]["index"])
    folder = {p["index"]: Path(out) / p["folder"] for p in points}
    a = load_tables(folder[base])
    rows, skipped = [], []
    for p in points:
        if p["index"] == base:
            continue
        b = load_tables(folder[p["index"]])
        if int(b.config["players"]) != int(a.config["players"]):
            skipped.append(f"point {p['label']} ({b.config['players']} players) is not compared with the baseline"
                           f" ({a.config['players']} players): seats and win rates differ in meaning")
            continue
        c = compare_runs(a, b, confidence)
        rows += [{**r, "point": p["index"], "point_label": p["label"], "paired": c.paired, "identical": c.identical,
                  "why": c.why}
                 for r in c.rows]
    adjusted = holm_within([r["p_value"] for r in rows], [r["metric"] for r in rows])
    for r, p, p_all in zip(rows, adjusted, holm([r["p_value"] for r in rows]), strict=True):
        r["p_adjusted"], r["p_all_rows"] = p, p_all
        r["significant"] = bool(not math.isnan(p) and p < 1 - confidence)
    return (pl.DataFrame(rows) if rows else pl.DataFrame()), skipped


def _fmt(v: float, metric: str) -> str:
    if v is None or math.isnan(v):
        return "n/a"
    return f"{v * 100:+.1f}" if metric == "win_rate" else f"{v:+.2f}"


def table(cmp: pl.DataFrame, confidence: float) -> pl.DataFrame:
    """The display table: point, group, label, figure, difference with interval, Holm p, significant."""
    lev = level(confidence)
    return pl.DataFrame([{
        "point (swept values)": r["point_label"], "group": r["group"], "label": r["label"],
        "figure": "win rate (points)" if r["metric"] == "win_rate" else "mean score",
        f"point − baseline ({lev} CI, unadjusted)": f"{_fmt(r['diff'], r['metric'])} ({_fmt(r['ci_low'], r['metric'])}"
                                                     f" to {_fmt(r['ci_high'], r['metric'])})",
        "test": r["test"], "p": p_text(r["p_value"]), "p (Holm)": p_text(r["p_adjusted"]), "significant": "yes" if r["significant"] else "no"}
        for r in cmp.iter_rows(named=True)])


def _how(cmp: pl.DataFrame) -> str:
    """Paired or not, and why not for the points that are not (breaker finding 1, session 8: under
    seating permute the deals of a game differ when the strategies or players change the deal size)."""
    if bool(cmp["paired"].all()):
        return ("game by game (same root seed, seating, game indices and deals: common random numbers, paired "
                "tests; exact McNemar for win rates)")
    un = cmp.filter(~pl.col("paired")).unique("point_label", maintain_order=True)
    why = "; ".join(f"{r['point_label']}: {r['why']}" if "why" in cmp.columns else str(r["point_label"])
                    for r in un.iter_rows(named=True))
    if not bool(cmp["paired"].any()):
        return (f"without pairing: the points did not play the same games ({why}), so luck does not cancel; "
                "Fisher exact, Newcombe intervals")
    return (f"game by game where the points played the same games (paired tests), unpaired where they did not "
            f"({why}; Fisher exact, Newcombe intervals)")


def sentences(cmp: pl.DataFrame, base_label: str, confidence: float) -> list[str]:
    """What the tests support: each significant win-rate difference, or the precision reached."""
    lev = level(confidence)
    out = [f"Each point is compared with the baseline point {base_label} " + _how(cmp)
           + f"; p-values Holm-adjusted over the sweep within each metric ({families(cmp['metric'].to_list())}); "
             f"significant means adjusted p < {1 - confidence:.3g}."]
    wins = cmp.filter(pl.col("metric") == "win_rate")
    sig = wins.filter(pl.col("significant")).with_columns(size=pl.col("diff").abs()).sort("size", descending=True)
    for r in sig.iter_rows(named=True):
        out.append(f"At {r['point_label']}, {r['group']} {r['label']} wins {abs(r['diff']) * 100:.1f} points "
                   f"{'more' if r['diff'] > 0 else 'less'} than at the baseline ({lev} CI {_fmt(r['ci_low'], 'win_rate')} "
                   f"to {_fmt(r['ci_high'], 'win_rate')} points; {r['test']}, Holm p {p_text(r['p_adjusted'])}).")
    if not sig.height and wins.height:
        reach = max(max(abs(lo), abs(hi)) for lo, hi in zip(wins["ci_low"], wins["ci_high"], strict=True)
                    if not math.isnan(lo))
        out.append(f"No win rate differs significantly from the baseline; every difference lies within "
                   f"±{reach * 100:.1f} points ({lev} intervals).")
    same = cmp.filter(pl.col("identical"))["point_label"].unique(maintain_order=True).to_list() \
        if "identical" in cmp.columns else []
    if same:  # "no difference" there means the option was never tested by these strategies (fresh-user 2)
        out.append(f"At {', '.join(map(str, same))}, every game ended with the same winners and scores as at the "
                   "baseline: the change altered no result. This does not show that it makes no difference to "
                   "balance: the strategies may never make the choice it affects, so test it with strategies that do.")
    scores = cmp.filter(pl.col("metric") == "mean_score")
    if scores.height:
        n_sig = int(scores["significant"].sum())
        out.append(f"Mean scores differ significantly from the baseline in {n_sig} of {scores.height} comparisons"
                   + (" (see the table)." if n_sig else "."))
    return out


def chart(cmp: pl.DataFrame, xname: str, confidence: float):
    """Win-rate differences from the baseline (points) against the swept parameter, with intervals."""
    wins = cmp.filter(pl.col("metric") == "win_rate").select(
        pl.col("point_label").alias(xname), series=pl.concat_str([pl.col("group"), pl.lit(" "), pl.col("label")]),
        value="diff", ci_low="ci_low", ci_high="ci_high")
    return charts.sweep_chart(wins, xname, f"Win rate − baseline against {xname} ({level(confidence)} intervals)",
                              "difference from the baseline (points)", 100.0, reference=0.0)
