"""The run report: ``report.md`` (tables, linked PNGs) and a self-contained ``report.html``.

``build_report(run_dir)`` reads the run's Parquet tables and writes ``figures/*.png``,
``report.md`` and ``report.html`` (figures inline as data URIs, readable offline).
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import polars as pl

from ..api import SimError
from ..config import load_run_config
from ..data import read_json
from . import charts, stats
from . import findings as fnd


@dataclass
class RunTables:
    """The tables of a run folder (``errors`` may be empty)."""

    games: pl.DataFrame
    players: pl.DataFrame
    metrics: pl.DataFrame
    errors: pl.DataFrame
    config: dict
    manifest: dict
    components: pl.DataFrame = field(default_factory=pl.DataFrame)
    stopping: dict | None = None  # written by `sim run --until-ci` (stopping.json)
    run_dir: Path | None = None


def load_tables(run_dir: Path) -> RunTables:
    """Read a run folder. Raises ``SimError`` when it is not a finished run folder."""
    run_dir = Path(run_dir)
    need = ["games.parquet", "players.parquet", "config.json", "manifest.json"]
    missing = [n for n in need if not (run_dir / n).is_file()]
    if missing:
        hint = (f"; it holds finished chunks of an interrupted run: complete it with `sim run --resume {run_dir}`"
                if (run_dir / "chunks").is_dir() and (run_dir / "config.json").is_file() else "")
        raise SimError(f"'{run_dir}' is not a finished run folder (missing {', '.join(missing)}){hint}")

    def read(name: str) -> pl.DataFrame:
        p = run_dir / f"{name}.parquet"
        if not p.is_file():
            return pl.DataFrame()
        try:
            return pl.read_parquet(p)
        except Exception as exc:  # a damaged file must not end in a traceback
            raise SimError(f"{p} is not a readable Parquet table ({str(exc).splitlines()[0]})") from None

    config = load_run_config(run_dir).model_dump(mode="json")
    return RunTables(read("games"), read("players"), read("metrics"), read("errors"), config,
                     read_json(run_dir / "manifest.json"), read("components"),
                     read_json(run_dir / "stopping.json", missing_ok=True), run_dir)


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


def _ci(v, lo, hi, digits: int = 2, percent: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if percent:
        return f"{pct(v)} ({pct(lo)}–{pct(hi)})" if lo is not None and not math.isnan(lo) else pct(v)
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def _p(p) -> str:
    return "n/a" if p is None or math.isnan(p) else ("< 0.001" if p < 0.001 else f"{p:.3f}")


def _rows(df: pl.DataFrame, fn) -> pl.DataFrame:
    return pl.DataFrame([fn(r) for r in df.iter_rows(named=True)]) if df.height else pl.DataFrame()


def _num(v, digits: int = 2) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def analyse(t: RunTables, min_sample: int = 50, n_resamples: int = 1000) -> Report:
    """Compute the report's figures, tables, sections, charts and findings from run tables.

    ``min_sample``: seat-games a component needs before any claim about it; ``n_resamples``:
    bootstrap resamples (of whole games, seeded from the run's seed).
    """
    cfg, man = t.config, t.manifest
    n = int(cfg["players"])
    seed = int(cfg["seed"])
    games = t.games
    done = stats.complete_games(games)
    complete = stats.complete_players(t.players, games) if t.players.height and games.height else t.players
    trunc = int(games["truncated"].sum()) if games.height else 0
    failed = int(games["failed"].sum()) if games.height else t.errors.height
    facts = [
        ("game", f"{cfg['game']} (engine version {man.get('engine_version', '?')})"),
        ("players", str(n)),
        ("games", f"{games.height} played, {done.height} complete"),
        ("truncated", str(trunc)),
        ("failed", str(failed)),
        ("seed", str(seed)),
        ("seating", cfg["seating"]),
        ("strategies", "; ".join(
            lab + (f" = {spec['name']}" if spec["name"] != lab else "")
            + (" (" + ", ".join(f"{k}={v}" for k, v in spec.get("params", {}).items()) + ")" if spec.get("params") else "")
            for lab, spec in zip(cfg["labels"], cfg["strategies"], strict=True))),
    ]
    if cfg.get("data"):
        facts.append(("data files", ", ".join(f"{k}: {v}" for k, v in cfg["data"].items())))
    if cfg.get("options"):
        facts.append(("options", ", ".join(f"{k}={v}" for k, v in cfg["options"].items())))
    if t.stopping:
        facts.append(("stopping rule", t.stopping.get("rule", "")))
        facts.append(("stopped because", t.stopping.get("reason", "")))
    tables: dict[str, pl.DataFrame] = {}
    sections: list[Section] = []
    charts_: dict[str, tuple[str, Callable]] = {}
    if t.stopping:
        sections.append(Section(
            "stopping", "Stopping rule", f"{t.stopping.get('rule', '')}. Stopped: {t.stopping.get('reason', '')}.",
            pl.DataFrame([{"batch": i + 1, "games so far": b["games"],
                           "widest half-width": f"±{b['widest_half_width'] * 100:.2f} pts", "widest interval": b["widest"]}
                          for i, b in enumerate(t.stopping.get("batches", []))])))
    # -------------------------------------------------------------- outcomes and Ludii figures
    outcomes = stats.outcome_table(games) if games.height else pl.DataFrame()
    tables["outcomes"] = outcomes
    ludii = stats.ludii_figures(games, t.players, seed, n_resamples) if games.height else pl.DataFrame()
    tables["ludii"] = ludii
    if ludii.height:
        sections.append(Section(
            "ludii", "Whole-game balance (Ludii figures)",
            "Balance = 1 − the largest gap between two seats' win rates (1 is perfectly even; the interval, from a "
            "bootstrap over games, covers every pairwise gap at once and always holds the estimate). Advantage = the "
            "start player's win rate. Drawishness = share of complete games with a shared win or no winner. "
            "Completion = share of games played that end with a winner.",
            _rows(ludii, lambda r: {"figure": r["figure"], "value (95% CI)": _ci(r["value"], r["ci_low"], r["ci_high"], 3),
                                    "games": r["games"], "meaning": r["meaning"]}), ["ludii"]))
        charts_["ludii"] = ("Ludii balance figures with 95% intervals",
                            partial(charts.interval_chart, ludii, "figure", "value", "Whole-game balance figures (Ludii)",
                                                  "value", unit="%"))
    inputs = None
    if complete.height:
        by_seat = stats.win_table_tested(complete, "seat")
        by_strat = stats.win_table_tested(complete, "strategy")
        exp = stats.pooled_win_rate(complete)
        tables["seat"], tables["strategy"] = by_seat, by_strat
        chi = stats.seat_chi_square(complete)
        fp = stats.first_player_advantage(complete)
        tables["first_player"] = pl.DataFrame([fp])
        exp_note = (f"expected share {pct(exp)}" + ("" if abs(exp - 1 / n) < 1e-9 else
                    f" (the pooled win rate: shared wins count for every winner, so not 1/{n})"))
        seat_rows = _rows(by_seat, lambda r: {
            "seat": str(r["seat"]), "games": r["games"], "wins": r["wins"],
            "win rate (95% CI)": _ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
            "vs expected": f"{(r['win_rate'] - r['expected']) * 100:+.1f} pts", "p (Holm)": _p(r["p_holm"]),
            "mean score": _num(r["mean_score"])})
        sections.append(Section(
            "seat", "Win rate by seat",
            f"Win rate per seat over complete games, 95% Wilson intervals; {exp_note}. Chi-square test of equal seat "
            f"win rates: statistic {_num(chi[0])}, p {_p(chi[1])}. First-player advantage (seat 0 − expected): "
            f"{(fp['advantage'] * 100):+.1f} points ({fp['adv_low'] * 100:+.1f} to {fp['adv_high'] * 100:+.1f}), "
            f"binomial test p {_p(fp['p'])}.", seat_rows, ["win_rate_by_seat"]))
        charts_["win_rate_by_seat"] = ("Win rate by seat with 95% Wilson intervals",
                                       partial(charts.win_rate_chart, by_seat, "seat", exp, "Win rate by seat"))
        strat_rows = _rows(by_strat, lambda r: {
            "strategy": r["strategy"], "games": r["games"], "wins": r["wins"],
            "win rate (95% CI)": _ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
            "vs expected": f"{(r['win_rate'] - r['expected']) * 100:+.1f} pts", "p (Holm)": _p(r["p_holm"]),
            "mean score": _num(r["mean_score"])})
        sections.append(Section("strategy", "Win rate by strategy",
                                f"Win rate per strategy (player rows of complete games), 95% Wilson intervals; {exp_note}.",
                                strat_rows, ["win_rate_by_strategy"]))
        charts_["win_rate_by_strategy"] = ("Win rate by strategy with 95% Wilson intervals",
                                           partial(charts.win_rate_chart, by_strat, "strategy", exp, "Win rate by strategy"))
        if by_strat.height > 1 and n > 1:
            cells = stats.win_table(complete, ["strategy", "seat"])
            tables["strategy_seat"] = cells
            sections.append(Section(
                "strategy_seat", "Win rate by strategy and seat",
                f"Win rate of each strategy in each seat (player rows of complete games), 95% Wilson intervals; "
                f"{exp_note}.",
                _rows(cells, lambda r: {"strategy": r["strategy"], "seat": str(r["seat"]), "games": r["games"],
                                        "wins": r["wins"],
                                        "win rate (95% CI)": _ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
                                        "mean score": _num(r["mean_score"])})))
        h2h = stats.head_to_head(complete)
        tables["head_to_head"] = h2h
        if h2h.height:
            sections.append(Section(
                "head_to_head", "Head to head",
                "For each pair of strategies, the share of their meetings (two seats of one game) in which A finishes "
                "above B (better rank), with 95% Wilson intervals; ties are neither. Sign test: is A ahead in more "
                "than half of the decided meetings (ties left out)? p Holm-adjusted over the pairs.",
                _rows(h2h, lambda r: {"A": r["strategy_a"], "B": r["strategy_b"], "meetings": r["meetings"],
                                      "A above B (95% CI)": _ci(r["rate"], r["ci_low"], r["ci_high"], percent=True),
                                      "B above A": r["b_above"], "ties": r["ties"],
                                      "A ahead of decided (95% CI)": _ci(r["ahead"], r["ahead_low"], r["ahead_high"],
                                                                         percent=True),
                                      "p (Holm)": _p(r["p_holm"])}), ["head_to_head"]))
            charts_["head_to_head"] = ("Head-to-head matrix", partial(charts.head_to_head_chart, h2h))
            rt = stats.ratings(complete)
            tables["ratings"] = rt
            sections.append(Section(
                "ratings", "Ratings (openskill)",
                "openskill Plackett-Luce ratings updated game by game in game-index order (reproducible); "
                "ordinal = mu − 3 sigma, a conservative estimate of strength.",
                _rows(rt, lambda r: {"strategy": r["strategy"], "games": r["games"], "mu": _num(r["mu"]),
                                     "sigma": _num(r["sigma"]), "ordinal": _num(r["ordinal"])}), ["ratings"]))
            charts_["ratings"] = ("openskill ratings", partial(charts.ratings_chart, rt))
        # ---------------------------------------------------------- scores and margins
        for by in ("strategy", "seat"):
            st = stats.score_table(complete, by, seed, n_resamples)
            tables[f"score_{by}"] = st
            sections.append(Section(
                f"score_{by}", f"Final score by {by}",
                "Mean with a 95% bootstrap interval (resampling whole games), spread and quartiles, in points.",
                _rows(st, lambda r, by=by: {by: str(r[by]), "rows": r["rows"],
                                            "mean (95% CI)": _ci(r["mean"], r["ci_low"], r["ci_high"]),
                                            "sd": _num(r["sd"]), "min": _num(r["min"], 1), "q25": _num(r["q25"], 1),
                                            "median": _num(r["median"], 1), "q75": _num(r["q75"], 1),
                                            "max": _num(r["max"], 1)}), [f"score_by_{by}"]))
            charts_[f"score_by_{by}"] = (f"Final score by {by}", partial(charts.score_chart, complete, by, st))
        mg = stats.margins(complete)
        tables["margins"] = mg
        if mg.height:
            md = stats.describe_columns(mg, ["margin"], seed, 4, n_resamples=n_resamples)
            r = md.row(0, named=True)
            sections.append(Section(
                "margin", "Winning margin",
                f"Best winner's score minus the best non-winner's score, over {mg.height} complete games with both: mean "
                f"{_ci(r['mean'], r['ci_low'], r['ci_high'])} points (95% bootstrap interval), median {_num(r['median'], 1)}.",
                None, ["winning_margin"]))
            charts_["winning_margin"] = ("Winning margin", partial(charts.histogram_chart,
                mg["margin"].to_numpy(), "winning margin (points)", "Winning margin per game",
                (r["ci_low"], r["ci_high"]), colour="#8172B2"))
        inputs = dict(seat=by_seat, strategy=by_strat, chi=chi, first=fp, h2h=h2h)
    # -------------------------------------------------------------- game length
    if games.height:
        lt = stats.length_table(games, seed, n_resamples)
        tables["length"] = lt
        sections.append(Section(
            "length", "Game length and summary figures",
            "Per complete game: player decisions and the figures the game reports (turns, rounds, ...), mean with a 95% "
            "bootstrap interval.",
            _rows(lt, lambda r: {"figure": r["figure"], "games": r["games"],
                                 "mean (95% CI)": _ci(r["mean"], r["ci_low"], r["ci_high"]), "sd": _num(r["sd"]),
                                 "min": _num(r["min"], 0), "median": _num(r["median"], 1), "max": _num(r["max"], 0)}),
            ["game_length"]))
        col = "rounds" if "rounds" in games.columns else "turns" if "turns" in games.columns else "n_decisions"
        unit = {"rounds": "rounds", "turns": "turns", "n_decisions": "player decisions"}[col]
        row = lt.filter(pl.col("figure") == col)
        ci = (row["ci_low"][0], row["ci_high"][0]) if row.height else None
        charts_["game_length"] = (f"Game length ({unit})", partial(charts.histogram_chart,
            done[col].drop_nulls().to_numpy(), f"game length ({unit})", f"Game length in {unit} (complete games)", ci))
        sections.append(Section(
            "outcomes", "How games ended",
            "Share of all games played, 95% Wilson intervals. Truncated games hit the decision cap and failed games "
            "raised an error; both are left out of win rates.",
            _rows(outcomes, lambda r: {"outcome": r["outcome"], "games": r["count"],
                                       "share (95% CI)": _ci(r["share"], r["ci_low"], r["ci_high"], percent=True)})))
    # -------------------------------------------------------------- components
    comp = stats.component_table(t.components, complete, min_sample) if complete.height else pl.DataFrame()
    tables["components"] = comp
    if comp.height:
        figs = []
        for kind in comp["kind"].unique(maintain_order=True).to_list():
            k = comp.filter(pl.col("kind") == kind).sort("holders", descending=True).head(40).sort("component")
            name = f"components_{kind}"
            figs.append(name)
            charts_[name] = (f"Win rate by {kind} (grey: fewer than {min_sample} seat-games, no claim)",
                             partial(charts.interval_chart, k, "component", "win_rate", f"Win rate of seats with each {kind}",
                                                   "win rate", expected=float(k["pooled"][0]), expected_label="pooled",
                                                   marks=k["expected"].to_list(),
                                                   marks_label="expected for the holders' strategies and seats",
                                                   muted=[not e for e in k["enough"].to_list()]))
        sections.append(Section(
            "components", "Components",
            f"Win rate of the seats holding each component (once per game), 95% Wilson intervals, against the share "
            f"the same strategies win in the same seats (expected); a claim needs at least {min_sample} seat-games, a "
            "Holm-adjusted binomial p < 0.05 and an interval that excludes the expected share. Associations, not "
            "causes: a component can also mark a game that was going well anyway.",
            _rows(comp, lambda r: {"kind": r["kind"], "component": r["component"], "seat-games": r["holders"],
                                   "win rate (95% CI)": _ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
                                   "expected": pct(r["expected"]), "without it": pct(r["rate_without"]),
                                   "p (Holm)": _p(r["p_holm"]),
                                   "claim": "yes" if r["claim"] else ("no" if r["enough"] else "too few")}), figs))
    if t.components.height and complete.height:  # how often each component occurs (e.g. solo title bands)
        held = (t.components.join(complete.select("game_index", "seat"), on=["game_index", "seat"], how="semi")
                .unique(["game_index", "seat", "kind", "component"])
                .group_by("kind", "component").agg(count=pl.len()).sort("kind", "component"))
        total = complete.height
        cis = [stats.wilson(c, total) for c in held["count"]]
        held = held.with_columns(share=pl.col("count") / total, ci_low=pl.Series([c[0] for c in cis]),
                                 ci_high=pl.Series([c[1] for c in cis]))
        tables["component_distribution"] = held
        sections.append(Section(
            "component_distribution", "Component distribution",
            f"Share of the {total:,} seat-games of complete games that had each component, 95% Wilson intervals.",
            _rows(held, lambda r: {"kind": r["kind"], "component": r["component"], "seat-games": r["count"],
                                   "share (95% CI)": _ci(r["share"], r["ci_low"], r["ci_high"], percent=True)})))
    if inputs is not None:
        found = fnd.findings(fnd.Inputs(players=n, components=comp, min_sample=min_sample, games=games.height,
                                        complete=done.height, truncated=trunc, failed=failed,
                                        seating=cfg.get("seating", "rotate"), **inputs))
    else:
        found = ["No game completed: nothing can be said about balance."]
        if failed:
            found.append(f"{failed} game(s) failed; see errors.parquet and `sim replay`.")
    solo = n == 1 and "score_strategy" in tables
    if solo:  # nobody to beat: scores and titles first, no win rates or balance figures
        found = fnd.solo_findings(tables["score_strategy"], tables.get("component_distribution"), games.height,
                                  trunc, failed)
        keep = ("stopping", "score_strategy", "component_distribution", "length", "outcomes")
        sections = sorted((s for s in sections if s.key in keep), key=lambda s: keep.index(s.key))
        charts_ = {k: v for k, v in charts_.items() if any(k in s.figures for s in sections)}
    if t.errors.height:  # name the failed games so they can be replayed
        idx = t.errors["game_index"].head(5).to_list()
        more = f" and {t.errors.height - 5} more" if t.errors.height > 5 else ""
        found = [f if "game(s) failed" not in f else
                 f"{failed} game(s) failed (game index {', '.join(map(str, idx))}{more}); replay one with"
                 f" `sim replay {t.run_dir or 'RUN_DIR'} --game-index {idx[0]}`; tracebacks and seeds in errors.parquet."
                 for f in found]
    return Report(f"Balance report: {cfg['game']}" + (" (solo)" if solo else ""), facts, found, tables,
                  sections=sections, charts=charts_, solo=solo)


def render_figures(t: RunTables, rep: Report) -> None:
    """Draw the charts into ``rep.figures`` (PNG bytes). A chart that fails is left out and its
    error kept in ``rep.chart_errors`` (the report says so): it never stops the report."""
    for name, (caption, make) in rep.charts.items():
        try:
            buf = io.BytesIO()
            make().savefig(buf, format="png", dpi=110)
        except Exception as exc:
            rep.chart_errors[name] = f"{type(exc).__name__}: {exc}"
            continue
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


STYLE = ("body{font-family:system-ui,sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}"
         "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f3f3f3}"
         "td:first-child,th:first-child{text-align:left}img{max-width:100%}figure{margin:1em 0}"
         "figcaption{font-size:.85em;color:#555}.findings li{margin:.3em 0}.fail{color:#b00;font-weight:bold}"
         ".pass{color:#070;font-weight:bold}p.intro{color:#444}")


def write_report(run_dir: Path, rep: Report, checks: list | None = None) -> tuple[Path, Path]:
    """Write ``figures/*.png``, ``report.md`` and ``report.html``; return the two report paths.

    ``checks``: results of ``sim check`` (``sim.checks.CheckResult``), shown after the findings.
    """
    run_dir = Path(run_dir)
    (run_dir / "figures").mkdir(exist_ok=True)
    for name, (_, png) in rep.figures.items():
        (run_dir / "figures" / f"{name}.png").write_bytes(png)
    md = [f"# {rep.title}", "", "## Findings", ""] + [f"- {f}" for f in rep.findings]
    body = [f"<h1>{html.escape(rep.title)}</h1>", "<h2>Findings</h2><ul class='findings'>"]
    body += [f"<li>{html.escape(f)}</li>" for f in rep.findings] + ["</ul>"]
    if checks:
        ct = pl.DataFrame([c.row() for c in checks])
        md += ["", "## Checks", "", _md_table(ct)]
        body += ["<h2>Checks</h2>", _html_table(ct).replace("<td>FAIL</td>", "<td class='fail'>FAIL</td>")
                 .replace("<td>pass</td>", "<td class='pass'>pass</td>")]
    md += ["", "## Run", ""] + [f"- **{k}**: {v}" for k, v in rep.facts]
    body += ["<h2>Run</h2><ul>"] + [f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in rep.facts] + ["</ul>"]
    for sec in rep.sections:
        md += ["", f"## {sec.title}", "", sec.intro]
        body += [f"<h2 id='{sec.key}'>{html.escape(sec.title)}</h2>", f"<p class='intro'>{html.escape(sec.intro)}</p>"]
        if sec.table is not None and sec.table.height:
            md += ["", _md_table(sec.table)]
            body.append(_html_table(sec.table))
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
    md_path.write_text("\n".join(md) + "\n")
    html_path = run_dir / "report.html"
    html_path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(rep.title)}</title>"
                         f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return md_path, html_path


def build_report(run_dir: Path, min_sample: int = 50, checks: list | None = None) -> Report:
    """Rebuild the whole report of a run folder from its tables; returns what it says."""
    t = load_tables(Path(run_dir))
    rep = analyse(t, min_sample=min_sample)
    if checks is None and t.config.get("checks"):  # a config with `checks:` shows them (verdict: `sim check`)
        from ..checks import evaluate

        checks = evaluate(t.config["checks"], rep.tables, t.games.height,
                          int(t.games["failed"].sum()) if t.games.height else 0)
    render_figures(t, rep)
    write_report(Path(run_dir), rep, checks)
    return rep
def summary_text(rep: Report) -> str:
    """The short terminal table printed at the end of ``sim run``."""
    lines = []
    for key in () if rep.solo else ("strategy", "seat"):
        if key not in rep.tables:
            continue
        lines.append(f"{'by ' + key:<22}{'games':>8}  {'win rate (95% CI)':<26}{'mean score':>10}")
        for r in rep.tables[key].iter_rows(named=True):
            ci = f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})"
            lines.append(f"{str(r[key]):<22}{r['games']:>8}  {ci:<26}{r['mean_score']:>10.2f}")
        lines.append("")
    lines += rep.findings
    lines += [f"warning: figure '{k}' could not be drawn ({v}); the report says so" for k, v in rep.chart_errors.items()]
    return "\n".join(lines)
