"""What a report says (``Report``, ``Section``), how its numbers are written, and how it is
rendered: ``report.md``, a self-contained ``report.html`` (figures inline) and ``figures/*.png``."""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..data import write_file_atomic
from .wording import p_digits


def level(confidence: float) -> str:
    """``95%``, ``99%``, ``99.9%``: a confidence level as the reports write it (the digits it has:
    0.9999999999999 is not "100%")."""
    return f"{confidence * 100:.15g}%"


def pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x * 100:.1f}%"


@dataclass
class Section:
    """One part of the report: a heading, a sentence on what it shows, a table, figure names."""

    key: str
    title: str
    intro: str
    table: pl.DataFrame | None = None
    figures: list[str] = field(default_factory=list)


@dataclass
class Report:
    """What the report says, for printing and for the files."""

    title: str
    facts: list[tuple[str, str]]
    findings: list[str]
    tables: dict[str, pl.DataFrame]
    figures: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # name -> (caption, png)
    sections: list[Section] = field(default_factory=list)
    charts: dict[str, tuple[str, Callable]] = field(default_factory=dict)  # name -> (caption, figure maker) to render
    chart_errors: dict[str, str] = field(default_factory=dict)  # name -> why the figure could not be drawn
    solo: bool = False  # a one-player game: scores and titles, no win rates
    verdict: str = ""  # one sentence starting "Verdict:" that opens the report
    level: str = "95%"  # the confidence level of every interval
    figures_note: str = ""  # why the figures were not drawn and how to draw them (``figure_policy``)
    complete: int = -1  # the run's complete games (set by ``build_report``): 0 makes ``sim run`` exit 1


def fmt_win_table(t: pl.DataFrame, by: str) -> pl.DataFrame:
    return t.select(
        pl.col(by).cast(pl.Utf8),
        "games",
        "wins",
        pl.struct("win_rate", "ci_low", "ci_high").map_elements(
            lambda r: f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})", return_dtype=pl.Utf8
        ).alias("win rate (95% CI)"),
        pl.col("mean_score").round(2).alias("mean score"),
    )


def ci(v, lo, hi, digits: int = 2, percent: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if percent:
        return f"{pct(v)} ({pct(lo)}–{pct(hi)})" if lo is not None and not math.isnan(lo) else pct(v)
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def p_text(p) -> str:
    return "n/a" if p is None or math.isnan(p) else ("< 0.001" if p < 0.001 else p_digits(p))


def rows(df: pl.DataFrame, fn) -> pl.DataFrame:
    return pl.DataFrame([fn(r) for r in df.iter_rows(named=True)]) if df.height else pl.DataFrame()


def num(v, digits: int = 2) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def render_figures(rep: Report, draw: Callable | None = None) -> None:
    """Draw the charts into ``rep.figures`` (PNG bytes), each by ``draw(maker)`` (default
    ``draw_chart``, here; ``figure_helpers.drawn`` takes the figure helpers' answers). A chart that
    fails is left out and its error kept in ``rep.chart_errors`` (the report says so): it never
    stops the report."""
    for name, (caption, make) in rep.charts.items():
        ok, value = (draw or draw_chart)(make)
        if ok:
            rep.figures[name] = (caption, value)
        else:
            rep.chart_errors[name] = value


def draw_chart(make: Callable) -> tuple[bool, bytes | str]:
    """One chart: ``(True, PNG bytes at 110 dpi)``, or ``(False, "ExceptionName: message")`` when
    ``make`` or the drawing raises. Used alike in this process and in a figure helper process
    (``figure_policy``), so the bytes are the same either way."""
    from .charts import png_bytes  # numpy and matplotlib load only when a report is drawn

    try:
        return True, png_bytes(make(), dpi=110)
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"


def md_cell(v) -> str:
    """A Markdown table cell: ``|`` escaped (it would end the cell), line breaks as spaces."""
    return str(v).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def md_table(df: pl.DataFrame) -> str:
    cols = df.columns
    lines = ["| " + " | ".join(md_cell(c) for c in cols) + " |", "|" + "---|" * len(cols)]
    for row in df.iter_rows():
        lines.append("| " + " | ".join(md_cell(v) for v in row) + " |")
    return "\n".join(lines)


def html_table(df: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>" for r in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def checks_html(checks: list) -> str:
    """The checks table of report.html, each result cell coloured by ``CheckResult.css`` (an
    undecided ``strict: false`` check too: designer finding 9, session 8)."""
    out = html_table(pl.DataFrame([c.row() for c in checks]))
    for c in checks:
        text = html.escape(c.row()["result"])
        out = out.replace(f"<td>{text}</td>", f"<td class='{c.css()}'>{text}</td>")
    return out


STYLE = ("body{font-family:system-ui,sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}"
         "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f3f3f3}"
         "td:first-child,th:first-child{text-align:left}img{max-width:100%}figure{margin:1em 0}"
         "figcaption{font-size:.85em;color:#555}.findings li{margin:.3em 0}.fail{color:#b00;font-weight:bold}"
         ".undecided{color:#a60;font-weight:bold}p.verdict{font-size:1.1em;border-left:4px solid #4C72B0;padding-left:.6em}"
         ".pass{color:#070;font-weight:bold}p.intro{color:#444}")


def write_report(run_dir: Path, rep: Report, checks: list | None = None) -> tuple[Path, Path]:
    """Write ``figures/*.png``, ``report.md`` and ``report.html``; return the two report paths.
    Every file goes through a temporary file and a rename: ``SimError`` naming the path when one
    cannot be written (disk full, file-size limit), and nothing half-written is left.

    ``checks``: results of ``sim check`` (``sim.analysis.checks.CheckResult``), shown after the findings.
    """
    run_dir = Path(run_dir)
    (run_dir / "figures").mkdir(exist_ok=True)
    for name, (_, png) in rep.figures.items():
        write_file_atomic(run_dir / "figures" / f"{name}.png", png)
    md = [f"# {rep.title}", ""] + ([f"**{rep.verdict}**", ""] if rep.verdict else [])
    md += ["## Findings", ""] + [f"- {f}" for f in rep.findings]
    body = [f"<h1>{html.escape(rep.title)}</h1>"] + ([f"<p class='verdict'><b>{html.escape(rep.verdict)}</b></p>"]
                                                     if rep.verdict else [])
    body += ["<h2>Findings</h2><ul class='findings'>"]
    body += [f"<li>{html.escape(f)}</li>" for f in rep.findings] + ["</ul>"]
    if checks:
        ct = pl.DataFrame([c.row() for c in checks])
        md += ["", "## Checks", "", md_table(ct)]
        body += ["<h2>Checks</h2>", checks_html(checks)]
    md += ["", "## Run", ""] + [f"- **{k}**: {v}" for k, v in rep.facts]
    body += ["<h2>Run</h2><ul>"] + [f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in rep.facts] + ["</ul>"]
    for sec in rep.sections:
        md += ["", f"## {sec.title}", "", sec.intro]
        body += [f"<h2 id='{sec.key}'>{html.escape(sec.title)}</h2>", f"<p class='intro'>{html.escape(sec.intro)}</p>"]
        if sec.table is not None and sec.table.height:
            md += ["", md_table(sec.table)]
            body.append(html_table(sec.table))
        for name in sec.figures:
            if name in rep.chart_errors:
                note = f"(figure '{name}' could not be drawn: {rep.chart_errors[name]})"
                md += ["", f"_{note}_"]
                body.append(f"<p class='intro'><i>{html.escape(note)}</i></p>")
            if name not in rep.figures:
                continue
            cap, png = rep.figures[name]
            md += ["", f"![{cap}](figures/{name}.png)"]
            b64 = base64.b64encode(png).decode()
            body.append(f'<figure><img alt="{html.escape(cap)}" src="data:image/png;base64,{b64}">'
                        f'<figcaption>{html.escape(cap)}</figcaption></figure>')
    md_path = run_dir / "report.md"
    write_file_atomic(md_path, "\n".join(md) + "\n")
    html_path = run_dir / "report.html"
    write_file_atomic(html_path, f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(rep.title)}</title>"
                         f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return md_path, html_path
