"""The report of ``sim compare``: a terminal table, ``compare.md`` and ``compare.html`` with a
chart of the differences B − A and their intervals (``compare.Comparison`` in)."""

from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path

import polars as pl

from . import charts
from .compare import Comparison
from .document import STYLE, html_table, level, md_table, p_text


def _fmt(v: float, metric: str, sign: bool = False) -> str:
    if v is None or math.isnan(v):
        return "n/a"
    if metric == "win_rate":
        return f"{v * 100:+.1f} pts" if sign else f"{v * 100:.1f}%"
    return f"{v:+.2f}" if sign else f"{v:.2f}"


def table(c: Comparison) -> pl.DataFrame:
    """One display row per comparison row (strings)."""
    lev = level(c.confidence)
    return pl.DataFrame([{
        "group": r["group"], "label": r["label"], "figure": "win rate" if r["metric"] == "win_rate" else "mean score",
        "A": _fmt(r["a"], r["metric"]), "B": _fmt(r["b"], r["metric"]),
        f"B − A ({lev} CI)": f"{_fmt(r['diff'], r['metric'], True)} ({_fmt(r['ci_low'], r['metric'], True)} to "
                            f"{_fmt(r['ci_high'], r['metric'], True)})",
        "p": p_text(r["p_value"]), "p (Holm)": p_text(r["p_adjusted"]),
        "significant": "yes" if r["significant"] else "no", "test": r["test"]} for r in c.rows]) if c.rows else \
        pl.DataFrame()


def families(metrics: list[str]) -> str:
    """``the 8 win-rate rows, and separately the 8 mean-score rows``: the Holm families of a comparison."""
    words = {"win_rate": "win-rate", "mean_score": "mean-score"}
    parts = [f"the {metrics.count(m)} {words.get(m, m)} rows" for m in dict.fromkeys(metrics)]
    return ", and separately ".join(parts)


def headline(c: Comparison, name_a: str, name_b: str) -> list[str]:
    """Plain sentences: what was compared, how, and what differs (or the precision reached)."""
    lev = level(c.confidence)
    kind = (f"Paired comparison ({c.why}): the same games in both runs, so luck cancels game by game."
            if c.paired else f"Unpaired comparison ({c.why}): the runs played different games.")
    out = [f"B = {name_b} against A = {name_a}. {kind} Differences are B − A with {lev} intervals; p-values are "
           f"Holm-adjusted within each metric (over {families([r['metric'] for r in c.rows])}); significant means "
           f"adjusted p < {1 - c.confidence:.3g}."]
    out.append(f"What differs between the runs: {'; '.join(c.changes)}." if c.changes else
               "The runs record the same experiment (game, players, games, seed, strategies, options, data).")
    if c.warning:
        out.append(f"Beware: {c.warning}.")
    sig = [r for r in c.rows if r["significant"]]
    for r in sorted(sig, key=lambda r: -abs(r["diff"]) if r["metric"] == "win_rate" else 0):
        out.append(f"{r['group'].capitalize()} {r['label']}: {'win rate' if r['metric'] == 'win_rate' else 'mean score'}"
                   f" {_fmt(r['a'], r['metric'])} → {_fmt(r['b'], r['metric'])}, {_fmt(r['diff'], r['metric'], True)}"
                   f" ({lev} CI {_fmt(r['ci_low'], r['metric'], True)} to {_fmt(r['ci_high'], r['metric'], True)};"
                   f" {r['test']}, Holm p {p_text(r['p_adjusted'])}).")
    if not sig:
        wins = [r for r in c.rows if r["metric"] == "win_rate" and not math.isnan(r["ci_low"])]
        widest = max((max(abs(r["ci_low"]), abs(r["ci_high"])) for r in wins), default=math.nan)
        out.append("No significant difference" + (f": every win-rate difference lies within ±{widest * 100:.1f} "
                                                   f"points ({lev} intervals)." if not math.isnan(widest) else "."))
    da, db = c.decisions
    replayed = not c.changes and (math.isnan(da) or abs(da - db) <= 1e-9)  # nothing changed that could alter a result
    if c.identical and replayed:
        out.append("Every game ended with the same winners and scores in both runs, as the same experiment played "
                   "twice should: the code and the machines play it alike.")
    elif c.identical:
        out.append(unchanged_note(c, "both runs"))
    return out + [f"Note: {n}." for n in c.notes]


def unchanged_note(c: Comparison, where: str) -> str:
    """The sentence for a paired comparison whose every game ended alike: the change was never
    tested by these strategies, which is not the same as "it makes no difference"."""
    da, db = c.decisions
    moves = (f" (decisions per game {da:.1f} and {db:.1f}: the games were played differently)"
             if not math.isnan(da) and abs(da - db) > 1e-9 else "")
    return (f"Every game ended with the same winners and scores in {where}{moves}: the change altered no result. "
            "This does not show that it makes no difference to balance: the strategies may never make the choice it "
            "affects (see their docs), so test it with strategies that do.")


def chart(c: Comparison):
    """Dot-and-whisker chart of the win-rate differences (points) with their intervals."""
    wins = [r for r in c.rows if r["metric"] == "win_rate"]
    df = pl.DataFrame({"row": [f"{r['group']} {r['label']}" for r in wins], "diff": [r["diff"] for r in wins],
                       "ci_low": [r["ci_low"] for r in wins], "ci_high": [r["ci_high"] for r in wins]},
                      schema={"row": pl.Utf8, "diff": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64})
    return charts.interval_chart(df, "row", "diff", "Win rate B − A", "difference", unit="pts", expected=0.0,
                                 expected_label="no difference", level=level(c.confidence))


def write(out: Path, c: Comparison, name_a: str, name_b: str) -> tuple[Path, Path]:
    """Write ``compare.md``, ``compare.html`` and ``figures/compare.png`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(exist_ok=True)
    buf = io.BytesIO()
    chart(c).savefig(buf, format="png", dpi=110)
    (out / "figures" / "compare.png").write_bytes(buf.getvalue())
    lines, tab = headline(c, name_a, name_b), table(c)
    title = f"Comparison: {name_b} against {name_a}"
    md = [f"# {title}", ""] + [f"- {x}" for x in lines] + ["", md_table(tab) if tab.height else "(nothing to compare)",
                                                           "", "![win rate B − A](figures/compare.png)"]
    b64 = base64.b64encode(buf.getvalue()).decode()
    body = ([f"<h1>{html.escape(title)}</h1><ul>"] + [f"<li>{html.escape(x)}</li>" for x in lines] + ["</ul>"]
            + ([html_table(tab)] if tab.height else [])
            + [f'<figure><img alt="win rate B − A" src="data:image/png;base64,{b64}"></figure>'])
    (out / "compare.md").write_text("\n".join(md) + "\n")
    (out / "compare.html").write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
                                      f"</title><style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return out / "compare.md", out / "compare.html"
