"""The combined report of a sweep: each figure against the swept parameter, with intervals."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import polars as pl

from .. import parquet
from ..api import SimError
from ..data import read_json, write_file_atomic
from . import charts, sweep_compare
from .document import STYLE, html_table, level, md_table

TITLES = {
    "seat_win_rate": ("Win rate by seat", "win rate (%)", 100.0, "95% Wilson intervals; complete games."),
    "strategy_win_rate": ("Win rate by strategy", "win rate (%)", 100.0, "95% Wilson intervals; complete games."),
    "first_player_advantage": ("First-player advantage", "seat 0 win rate − expected share (points)", 100.0,
                               "Seat 0's win rate minus the pooled win rate; 95% Wilson interval shifted."),
    "balance": ("Balance (Ludii)", "balance (%)", 100.0, "1 − largest gap between seats' win rates; bootstrap interval."),
    "drawishness": ("Drawishness (Ludii)", "share of complete games (%)", 100.0, "Shared wins or no winner; Wilson."),
    "completion": ("Completion (Ludii)", "share of games played (%)", 100.0, "Games that end with a winner; Wilson."),
    "truncated_share": ("Truncated games", "share of games played (%)", 100.0, "Games stalled or stopped at a round or decision cap; Wilson."),
    "game_length": ("Game length", "mean per complete game", 1.0, "Mean with a 95% bootstrap interval over games."),
    "mean_score": ("Mean final score by strategy", "points", 1.0, "Mean with a 95% bootstrap interval over games."),
}


def _cell(v, lo, hi, scale):
    if v is None:
        return "n/a"
    d = 1 if scale == 100 else 2
    if lo is None or hi is None or lo != lo:
        return f"{v * scale:.{d}f}"
    return f"{v * scale:.{d}f} ({lo * scale:.{d}f}–{hi * scale:.{d}f})"


def point_games(out: Path, meta: dict) -> dict[int, tuple[int, int, str]]:
    """Each point's ``(complete games, games played, why none completed or "")`` (``report.no_game_why``),
    read from its games.parquet: a point with no complete game is marked, not compared (breaker
    finding 2, session 10: one such point left the whole sweep without a report, exit 2)."""
    from .report import no_game_why
    from .stats import complete_count

    found = {}
    for p in meta["points"]:
        folder = Path(out) / p["folder"]
        path = folder / "games.parquet"
        games = parquet.read(path, columns=[c for c in ("end_reason", "failed", "truncated")
                                            if c in parquet.schema(path)])  # not every column (memory)
        n = complete_count(games)
        found[p["index"]] = (n, games.height, "" if n else no_game_why(games, read_json(folder / "config.json")))
    return found


def _comparable(out: Path, meta: dict, conf: float) -> tuple[pl.DataFrame, list[str]]:
    """``sweep_compare.baseline_comparisons`` over the points with a complete game; sentences first
    naming the points left out (no complete game) and why."""
    done = point_games(out, meta)
    base = meta.get("baseline", meta["points"][0]["index"])
    label = {p["index"]: p["label"] for p in meta["points"]}
    out_ = [i for i in label if not done[i][0]]
    if base in out_:
        return pl.DataFrame(), [f"The baseline point {label[base]} has no complete game ({done[base][2]}), so no point"
                                " is compared with it; set sweep_baseline to a point whose games complete."]
    said = [f"Point {label[i]} has no complete game: {done[i][2]}; it is left out of the comparisons." for i in out_]
    cmp, skipped = sweep_compare.baseline_comparisons(
        out, {**meta, "points": [p for p in meta["points"] if p["index"] not in out_]}, conf)
    return cmp, said + skipped


def _baseline_section(out: Path, meta: dict, xname: str, conf: float, md: list, body: list,
                      draw: bool = True) -> list[str]:
    """The paired comparisons of every point with the baseline point (``sweep_compare``); returns its
    sentences (the terminal prints them: fresh-user finding 6, session 8)."""
    cmp, skipped = _comparable(out, meta, conf)
    if not cmp.height:
        if skipped:
            md += ["", "## Against the baseline", ""] + [f"- {x}" for x in skipped]
            body += ["<h2>Against the baseline</h2><ul>"] + [f"<li>{html.escape(x)}</li>" for x in skipped] + ["</ul>"]
        return skipped
    base = next(p["label"] for p in meta["points"] if p["index"] == meta.get("baseline", meta["points"][0]["index"]))
    said, tab = skipped + sweep_compare.sentences(cmp, base, conf), sweep_compare.table(cmp, conf)
    if not draw:
        md += ["", "## Against the baseline", ""] + [f"- {x}" for x in said] + ["", md_table(tab)]
        body += ["<h2>Against the baseline</h2><ul>"] + [f"<li>{html.escape(x)}</li>" for x in said] + [
            "</ul>", html_table(tab)]
        return said
    buf = io.BytesIO()
    sweep_compare.chart(cmp, xname, conf).savefig(buf, format="png", dpi=110)
    (out / "figures" / "sweep_vs_baseline.png").write_bytes(buf.getvalue())
    md += ["", "## Against the baseline", ""] + [f"- {x}" for x in said] + [
        "", md_table(tab), "", "![Win rate − baseline](figures/sweep_vs_baseline.png)"]
    b64 = base64.b64encode(buf.getvalue()).decode()
    body += ["<h2>Against the baseline</h2><ul>"] + [f"<li>{html.escape(x)}</li>" for x in said] + [
        "</ul>", html_table(tab), f'<figure><img alt="Win rate − baseline" src="data:image/png;base64,{b64}"></figure>']
    return said


def write_sweep_report(out: Path, table: pl.DataFrame, figures: list[str] | None = None,
                       draw: bool = True, said: list[str] | None = None) -> tuple[Path, Path]:
    """Write ``figures/sweep_*.png``, ``report.md`` and ``report.html`` into the sweep folder.
    ``draw=False`` (``--figures never``): the tables without charts; older sweep charts are removed,
    so the folder holds no figure its report does not show."""
    out = Path(out)
    meta = read_json(out / "sweep.json")
    keys = meta["keys"]
    xname = keys[0] if len(keys) == 1 else ", ".join(keys)  # every chart and table names the swept keys
    chosen = [f for f in (figures or list(TITLES)) if f in table["figure"].unique().to_list()]
    if draw:
        (out / "figures").mkdir(exist_ok=True)
    title = f"Sweep report: {meta['game']} over {', '.join(keys)}"
    conf = float(meta.get("confidence", 0.95))
    lev = level(conf)
    intro = (f"Each point played game indices 0–{meta['games'] - 1} from root seed {meta['seed']}: where two points"
             " deal the same games (same players, seating and deals), game i draws the same random streams at both"
             " (common random numbers) and they are compared game by game; where the deals differ (seating permute"
             " with another number of games per deal) they are compared unpaired, as said below. Each point is a "
             "full run folder" + (" with its own report." if meta.get("point_reports") else " (tables only)."))
    md = [f"# {title}", "", intro, "", "## Points", ""]
    done = point_games(out, meta)
    pts = pl.DataFrame([{"point": p["index"], "label": p["label"], "folder": p["folder"] + ("/report.html" if meta.get("point_reports") else ""),
                         "complete games": f"{done[p['index']][0]} of {done[p['index']][1]}"
                                           + ("" if done[p["index"]][0] else " (no complete game)")}
                        for p in meta["points"]])
    md.append(md_table(pts))
    body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(intro)}</p>", "<h2>Points</h2>", html_table(pts)]
    if not draw:
        for old in (out / "figures").glob("sweep_*.png"):
            old.unlink()
        if (out / "figures").is_dir() and not any((out / "figures").iterdir()):
            (out / "figures").rmdir()  # no empty folder left behind
        md += ["", "Charts not drawn (`--figures never`); `sim report SWEEP_DIR --figures always` draws them."]
    if len(meta["points"]) > 1:
        headline = _baseline_section(out, meta, xname, conf, md, body, draw)
        if said is not None:
            said += headline
    for fig_name in chosen:
        head, ylabel, scale, note = TITLES[fig_name]
        note = note.replace("95%", lev)
        t = table.filter(pl.col("figure") == fig_name).sort("point")
        tab, unit = _figure_table(t, xname, scale, fig_name)
        md += ["", f"## {head} against {xname}", "", f"{note} Values{' in ' + unit if unit else ''}, {lev} interval in brackets.", "",
               md_table(tab)]
        body += [f"<h2>{html.escape(head)} against {html.escape(xname)}</h2>", f"<p>{html.escape(note)}</p>", html_table(tab)]
        if not draw:
            continue
        plot = t.with_columns(pl.col("label").alias(xname))
        fig = charts.sweep_chart(plot, xname, f"{head} against {xname}", ylabel, scale,
                                 reference=0.0 if fig_name == "first_player_advantage" else None)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        png = buf.getvalue()
        write_file_atomic(out / "figures" / f"sweep_{fig_name}.png", png)
        md += ["", f"![{head}](figures/sweep_{fig_name}.png)"]
        b64 = base64.b64encode(png).decode()
        body += [f'<figure><img alt="{html.escape(head)}" src="data:image/png;base64,{b64}"></figure>']
    md_path, html_path = out / "report.md", out / "report.html"
    write_file_atomic(md_path, "\n".join(md) + "\n")
    write_file_atomic(html_path, f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                         f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return md_path, html_path


def _figure_table(t: pl.DataFrame, xname: str, scale: float, fig_name: str) -> tuple[pl.DataFrame, str]:
    """One figure's values per point (rows) and series (columns), as text cells; and its unit."""
    series = list(dict.fromkeys(t["series"].to_list()))
    rows = []
    for label in dict.fromkeys(t["label"].to_list()):
        row = {xname: label}
        for s in series:
            r = t.filter((pl.col("label") == label) & (pl.col("series") == s))
            row[s] = _cell(r["value"][0], r["ci_low"][0], r["ci_high"][0], scale) if r.height else "n/a"
        rows.append(row)
    unit = "%" if scale == 100 and fig_name != "first_player_advantage" else ("points" if scale == 100 else "")
    return pl.DataFrame(rows), unit


def rebuild_sweep_report(out: Path, figures: list[str] | None = None, draw: bool = True,
                         said: list[str] | None = None) -> tuple[Path, Path]:
    """Rewrite a finished sweep folder's report from its ``sweep.parquet`` (``sim report SWEEP_DIR``);
    ``said``: gets its findings. Raises ``SimError`` when the sweep did not finish (no ``sweep.parquet``)."""
    table_path = Path(out) / "sweep.parquet"
    if not table_path.is_file():
        raise SimError(f"'{out}' is a sweep folder without sweep.parquet: the sweep did not finish;"
                       f" `sim sweep --resume {out}` finishes it and writes its report")
    return write_sweep_report(Path(out), parquet.read(table_path), figures, draw, said=said)
