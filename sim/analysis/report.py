"""The run report: ``report.md`` (tables, linked PNGs) and a self-contained ``report.html``.

``build_report(run_dir)`` reads the run's Parquet tables and writes ``figures/*.png``,
``report.md`` and ``report.html`` (figures inline as data URIs, readable offline).
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..api import SimError
from . import charts
from .stats import seat_chi_square, win_table


@dataclass
class RunTables:
    """The tables of a run folder (``errors`` may be empty)."""

    games: pl.DataFrame
    players: pl.DataFrame
    metrics: pl.DataFrame
    errors: pl.DataFrame
    config: dict
    manifest: dict


def load_tables(run_dir: Path) -> RunTables:
    """Read a run folder. Raises ``SimError`` when it is not a finished run folder."""
    run_dir = Path(run_dir)
    need = ["games.parquet", "players.parquet", "config.json", "manifest.json"]
    missing = [n for n in need if not (run_dir / n).is_file()]
    if missing:
        raise SimError(f"'{run_dir}' is not a finished run folder (missing {', '.join(missing)})")

    def read(name: str) -> pl.DataFrame:
        p = run_dir / f"{name}.parquet"
        return pl.read_parquet(p) if p.is_file() else pl.DataFrame()

    return RunTables(read("games"), read("players"), read("metrics"), read("errors"),
                     json.loads((run_dir / "config.json").read_text()),
                     json.loads((run_dir / "manifest.json").read_text()))


def pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x * 100:.1f}%"


@dataclass
class Report:
    """What the report says, for printing and for the files."""

    title: str
    facts: list[tuple[str, str]]
    findings: list[str]
    tables: dict[str, pl.DataFrame]
    figures: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # name -> (caption, png)


def _fmt_win_table(t: pl.DataFrame, by: str) -> pl.DataFrame:
    return t.select(
        pl.col(by).cast(pl.Utf8),
        "games",
        "wins",
        pl.struct("win_rate", "ci_low", "ci_high").map_elements(
            lambda r: f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})", return_dtype=pl.Utf8
        ).alias("win rate (95% CI)"),
        pl.col("mean_score").round(2).alias("mean score"),
    )


def analyse(t: RunTables) -> Report:
    """Compute the report's figures, tables and findings from run tables."""
    cfg, man = t.config, t.manifest
    players = t.players
    n = int(cfg["players"])
    done = t.games.filter(~pl.col("failed") & ~pl.col("truncated")) if t.games.height else t.games
    complete = players.join(done.select("game_index"), on="game_index", how="semi") if players.height else players
    facts = [
        ("game", f"{cfg['game']} (engine version {man.get('engine_version', '?')})"),
        ("players", str(n)),
        ("games", f"{t.games.height} played, {done.height} complete"),
        ("truncated", str(int(t.games["truncated"].sum())) if t.games.height else "0"),
        ("failed", str(t.errors.height)),
        ("seed", str(cfg["seed"])),
        ("seating", cfg["seating"]),
        ("strategies", ", ".join(cfg["labels"])),
    ]
    findings: list[str] = []
    tables: dict[str, pl.DataFrame] = {}
    if complete.height:
        by_seat = win_table(complete, "seat")
        by_strat = win_table(complete, "strategy")
        tables["seat"] = by_seat
        tables["strategy"] = by_strat
        chi, p = seat_chi_square(complete)
        seat0 = by_seat.filter(pl.col("seat") == 0).row(0, named=True)
        exp = 1 / n
        if not math.isnan(p) and p < 0.05 and not (seat0["ci_low"] <= exp <= seat0["ci_high"]):
            pstr = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
            adv = "advantage" if seat0["win_rate"] > exp else "disadvantage"
            findings.append(
                f"Seat 0 (start player) wins {pct(seat0['win_rate'])} ({pct(seat0['ci_low'])}–{pct(seat0['ci_high'])}),"
                f" expected {pct(exp)}: a significant first-player {adv} (chi-square over seats, {pstr})."
            )
        elif not math.isnan(p) and p < 0.05:
            findings.append(f"Seat win rates differ significantly (chi-square {chi:.1f}, p = {p:.3g}); see the seat table.")
        else:
            findings.append(
                f"No significant difference between seats (chi-square p = {p:.3g})." if not math.isnan(p)
                else "Too few completed games to compare seats."
            )
        for row in by_strat.iter_rows(named=True):
            if row["games"] >= 30 and row["ci_low"] > exp:
                findings.append(f"Strategy {row['strategy']} wins {pct(row['win_rate'])} ({pct(row['ci_low'])}–{pct(row['ci_high'])}), above the {pct(exp)} of an equal share.")
            elif row["games"] >= 30 and row["ci_high"] < exp:
                findings.append(f"Strategy {row['strategy']} wins {pct(row['win_rate'])} ({pct(row['ci_low'])}–{pct(row['ci_high'])}), below the {pct(exp)} of an equal share.")
    if t.errors.height:
        findings.append(f"{t.errors.height} game(s) failed; see errors.parquet and `sim replay`.")
    trunc = int(t.games["truncated"].sum()) if t.games.height else 0
    if trunc:
        findings.append(f"{trunc} game(s) were truncated ({pct(trunc / t.games.height)}) and are left out of win rates.")
    return Report(f"Balance report: {cfg['game']}", facts, findings, tables)


def render_figures(t: RunTables, rep: Report) -> None:
    """Draw the figures into ``rep.figures`` (PNG bytes)."""
    n = int(t.config["players"])
    figs = {}
    if "seat" in rep.tables:
        figs["win_rate_by_seat"] = ("Win rate by seat with 95% Wilson intervals",
                                    charts.win_rate_chart(rep.tables["seat"], "seat", 1 / n, "Win rate by seat"))
        figs["win_rate_by_strategy"] = ("Win rate by strategy with 95% Wilson intervals",
                                        charts.win_rate_chart(rep.tables["strategy"], "strategy", 1 / n, "Win rate by strategy"))
        figs["score_by_strategy"] = ("Final score by strategy", charts.score_distribution_chart(t.players, "strategy"))
    if t.games.height:
        figs["game_length"] = ("Game length (player decisions)", charts.game_length_chart(t.games))
    for name, (caption, fig) in figs.items():
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        rep.figures[name] = (caption, buf.getvalue())


def _md_table(df: pl.DataFrame) -> str:
    cols = df.columns
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.iter_rows():
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines)


def _html_table(df: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>" for r in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def write_report(run_dir: Path, rep: Report) -> tuple[Path, Path]:
    """Write ``figures/*.png``, ``report.md`` and ``report.html``; return the two report paths."""
    run_dir = Path(run_dir)
    (run_dir / "figures").mkdir(exist_ok=True)
    for name, (_, png) in rep.figures.items():
        (run_dir / "figures" / f"{name}.png").write_bytes(png)
    shown = {k: _fmt_win_table(v, k) for k, v in rep.tables.items() if k in ("seat", "strategy")}
    md = [f"# {rep.title}", "", "## Findings", ""] + [f"- {f}" for f in rep.findings] + ["", "## Run", ""]
    md += [f"- **{k}**: {v}" for k, v in rep.facts]
    for key, df in shown.items():
        md += ["", f"## Win rate by {key}", "", _md_table(df)]
    md += ["", "## Figures", ""]
    md += [f"![{cap}](figures/{name}.png)" for name, (cap, _) in rep.figures.items()]
    md_path = run_dir / "report.md"
    md_path.write_text("\n".join(md) + "\n")
    body = [f"<h1>{html.escape(rep.title)}</h1>", "<h2>Findings</h2><ul>"]
    body += [f"<li>{html.escape(f)}</li>" for f in rep.findings] + ["</ul><h2>Run</h2><ul>"]
    body += [f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in rep.facts] + ["</ul>"]
    for key, df in shown.items():
        body += [f"<h2>Win rate by {html.escape(key)}</h2>", _html_table(df)]
    body.append("<h2>Figures</h2>")
    for _name, (cap, png) in rep.figures.items():
        b64 = base64.b64encode(png).decode()
        body.append(f'<figure><img alt="{html.escape(cap)}" src="data:image/png;base64,{b64}"><figcaption>{html.escape(cap)}</figcaption></figure>')
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}img{max-width:100%}")
    html_path = run_dir / "report.html"
    html_path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(rep.title)}</title>"
                         f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")
    return md_path, html_path


def build_report(run_dir: Path) -> Report:
    """Rebuild the whole report of a run folder from its tables; returns what it says."""
    t = load_tables(Path(run_dir))
    rep = analyse(t)
    render_figures(t, rep)
    write_report(Path(run_dir), rep)
    return rep


def summary_text(rep: Report) -> str:
    """The short terminal table printed at the end of ``sim run``."""
    lines = []
    for key in ("strategy", "seat"):
        if key not in rep.tables:
            continue
        lines.append(f"{'by ' + key:<22}{'games':>8}  {'win rate (95% CI)':<26}{'mean score':>10}")
        for r in rep.tables[key].iter_rows(named=True):
            ci = f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})"
            lines.append(f"{str(r[key]):<22}{r['games']:>8}  {ci:<26}{r['mean_score']:>10.2f}")
        lines.append("")
    lines += rep.findings
    return "\n".join(lines)
