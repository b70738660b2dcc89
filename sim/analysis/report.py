"""The run report: ``report.md`` (tables, linked PNGs) and a self-contained ``report.html``.

``build_report(run_dir)`` reads the run's Parquet tables (``tables.load_tables``), computes each
section (``sections``), the findings (``findings``) and the checks of a config with ``checks:``
(``checks``), and writes ``figures/*.png``, ``report.md`` and ``report.html`` (``document``).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import figure_policy, sections, stats
from . import findings as fnd
from .checks import evaluate
from .document import Report, pct, write_report
from .seating import seating
from .streamed import release_heap
from .tables import COLUMNS, RunTables, load_tables

SOLO_SECTIONS = ("stopping", "score_strategy", "component_distribution", "length", "outcomes")


def _findings(t: RunTables, d: sections.Draft, inputs: dict | None, comp) -> tuple[list[str], str]:
    """The findings (ranked) and the verdict sentence."""
    games, n = t.games, d.players
    trunc = int(games["truncated"].sum()) if games.height else 0
    failed = int(games["failed"].sum()) if games.height else t.errors.height
    er = d.tables.get("end_reasons")
    ended = ({r: c for r, c in zip(er["reason"], er["count"], strict=True) if r not in ("finished", "failed") and c}
             if er is not None and er.height else {})
    verdict = "Verdict: no game completed, so nothing can be said about balance."
    if inputs is not None:
        x = fnd.Inputs(players=n, components=comp, min_sample=d.min_sample, games=games.height,
                       complete=stats.complete_count(games), truncated=trunc, failed=failed,
                       seating=t.config.get("seating", "rotate"), confidence=d.confidence, ended=ended, **inputs)
        found, verdict = fnd.findings(x), fnd.verdict(x)
    else:
        found = [no_game_note(games, t.config)]
        if failed:
            found.append(f"{failed} game(s) failed; see errors.parquet and `sim replay`.")
    if n == 1 and "score_strategy" in d.tables:  # nobody to beat: scores and titles, no win rates
        found = fnd.solo_findings(d.tables["score_strategy"], d.tables.get("component_distribution"), games.height,
                                  trunc, failed)
        r = d.tables["score_strategy"].row(0, named=True)
        verdict = (f"Verdict: one-player game; {r['strategy']} scores {r['mean']:.2f} on average ({d.lev} CI "
                   f"{r['ci_low']:.2f}–{r['ci_high']:.2f}).")
    found += [f"Rules note: {note}" for note in t.manifest.get("notes", [])]
    if t.errors.height:  # name the failures and the failed games, so they can be replayed
        note = failure_note(t.errors, failed, t.run_dir)
        found = [f if "game(s) failed" not in f else note for f in found]
    return found, verdict


CAPS = {"decision_cap": ("the decision cap", "max_decisions"), "round_cap": ("the round cap", "max_rounds")}


def no_game_note(games: pl.DataFrame, config: dict) -> str:
    """Why no game completed, as the report's finding (``no_game_why``; breaker finding 3, session 10:
    "the findings above say why" and none did)."""
    failed = " (the next finding names the errors)" if games.height and games["failed"].any() else ""
    return f"No game completed, so nothing can be said about balance: {no_game_why(games, config)}{failed}."


def no_game_why(games: pl.DataFrame, config: dict) -> str:
    """How the games of a run with no complete game ended (cap, stall, failure; most frequent first),
    a cap named with the option that sets it and its value, e.g. "all 10 games ended at the decision
    cap (the option max_decisions, 1 here: raise it, e.g. --option max_decisions=3000)"."""
    from .summaries import end_reasons

    options = config.get("options") or {}
    counts = end_reasons(games).value_counts().sort(["count", "end_reason"], descending=[True, False])
    parts = []
    for reason, n in counts.iter_rows() if games.height else ():
        share = ("the one game" if games.height == 1 else f"all {n} games" if n == games.height else
                 f"{n} of {games.height} games")
        if reason in CAPS:
            what, key = CAPS[reason]
            value = options.get(key)
            known = isinstance(value, int) and not isinstance(value, bool)
            more = (max(3000, 10 * value) if key == "max_decisions" else 10 * value) if known else 0
            opt = (f"the option {key}, {value} here: raise it, e.g. --option {key}={more}" if known else
                   f"a safety option of the game; `sim list options {config.get('game', 'GAME')}` names it")
            parts.append(f"{share} ended at {what} ({opt})")
        elif reason == "stalled":
            parts.append(f"{share} stalled (no legal sequence of moves could change the outcome: strategies that stop"
                         " acting or a gap in the rules; `sim replay` shows one)")
        elif reason in ("failed", "truncated"):
            parts.append(f"{share} {'failed' if reason == 'failed' else 'were truncated (a stall or a cap)'}")
    return "; ".join(parts) or "no game was played"


def failure_note(errors: pl.DataFrame, failed: int, run_dir: Path | None, top: int = 3) -> str:
    """What failed, in one finding: the most frequent exceptions (type, message, count; the ``top``
    of them), the failed games' indexes and the exact ``sim replay`` command for the first
    (fresh-user finding 6, session 10: the summary used to say only "20 game(s) failed")."""
    def said(exc: str, msg: str) -> str:
        msg = (msg or "").strip().splitlines()[0] if (msg or "").strip() else ""
        msg = msg if len(msg) <= 160 else msg[:157] + "..."
        return msg if msg.startswith(f"{exc}:") else f"{exc}: {msg}" if msg else exc

    kinds = (errors.group_by("exception", "message").agg(pl.len().alias("n"), pl.col("game_index").min().alias("first"))
             .sort(["n", "first"], descending=[True, False]))
    causes = "; ".join(f"{said(r['exception'], r['message'])} ({r['n']} game{'s' if r['n'] > 1 else ''})"
                       for r in kinds.head(top).iter_rows(named=True))
    if kinds.height > top:
        causes += f"; {kinds.height - top} other kind(s) of failure"
    first = errors.sort("game_index").row(0, named=True)
    idx = errors["game_index"].sort().head(5).to_list()
    more = f" and {errors.height - 5} more" if errors.height > 5 else ""
    return (f"{failed} game(s) failed: {causes}. First failed game: index {first['game_index']} (run seed"
            f" {first['seed']}); replay it with `sim replay {run_dir or 'RUN_DIR'} --game-index {first['game_index']}`"
            f" (failed game index {', '.join(map(str, idx))}{more}; tracebacks in errors.parquet).")


def analyse(t: RunTables, min_sample: int = 50, n_resamples: int = 1000, confidence: float | None = None) -> Report:
    """Compute the report's figures, tables, sections, charts, findings and verdict from run tables.

    ``min_sample``: seat-games a component needs before any claim about it; ``n_resamples``:
    bootstrap resamples (of whole games, seeded from the run's seed); ``confidence``: the level
    of every interval and test (default: the run config's ``confidence``, else 0.95).
    """
    level = confidence if confidence is not None else float(t.config.get("confidence", 0.95))
    d = sections.Draft(t, min_sample, n_resamples, level)
    streamed = isinstance(t.players, pl.LazyFrame)  # each stage's freed heap returned before the next (memory)
    stage = (lambda f, *a: (f(*a), release_heap())[0]) if streamed else (lambda f, *a: f(*a))
    stage(sections.stopping, d)
    at, inputs = len(d.sections), None
    if d.complete_rows:  # before ludii's bootstrap: its charts keep the figure helpers busy meanwhile (--jobs 2)
        inputs = stage(sections.win_rates, d)
    stage(sections.ludii, d)
    if d.sections and d.sections[-1].key == "ludii":  # the report still shows it first
        d.sections.insert(at, d.sections.pop())
    if inputs is not None:
        inputs["h2h"] = stage(sections.head_to_head, d)
        stage(sections.scores, d)
    stage(sections.length, d)
    stage(seating, d)
    comp = stage(sections.components, d)
    sections.component_distribution(d)
    if inputs is not None:
        inputs["neighbour"] = d.results.get("neighbour")
    found, verdict = _findings(t, d, inputs, comp)
    solo = d.players == 1 and "score_strategy" in d.tables
    secs, charts_ = d.sections, {k: d.charts[k] for k in sorted(d.charts, key=lambda k: k != "ludii")}  # ludii's first, as before
    if solo:  # scores and titles first, no win rates or balance figures
        secs = sorted((s for s in secs if s.key in SOLO_SECTIONS), key=lambda s: SOLO_SECTIONS.index(s.key))
        charts_ = {k: v for k, v in charts_.items() if any(k in s.figures for s in secs)}
    facts = sections.facts(t) + [("confidence level", f"{d.lev} (every interval; tests at p < {1 - level:.3g})")]
    return Report(f"Balance report: {t.config['game']}" + (" (solo)" if solo else ""), facts, found,
                  d.tables, sections=secs, charts=charts_, solo=solo, verdict=verdict, level=d.lev)


def build_report(run_dir: Path, min_sample: int = 50, checks: list | None = None,
                 confidence: float | None = None, figures: str = "always") -> Report:
    """Rebuild the whole report of a run folder from its tables; returns what it says.
    ``figures``: ``always``, ``auto`` or ``never`` (``figure_policy``; the commands default to ``auto``)."""
    # not the per-seat figures, only the rows of complete games: memory (issue 20 item 5)
    t = load_tables(Path(run_dir), list(COLUMNS["players"]), complete_only=True)
    complete = stats.complete_count(t.games)
    figure_policy.warm(figures, complete)  # --jobs 2: helpers import matplotlib during the analysis
    with figure_policy.eager(figures, complete):  # and draw each chart as the analysis adds it
        rep = analyse(t, min_sample=min_sample, confidence=confidence)
    rep.complete = complete
    played, failed = t.games.height, int(t.games["failed"].sum()) if t.games.height else 0
    if isinstance(t.players, pl.DataFrame):  # the figures and checks need none of the rows: freed before drawing (memory)
        t.players = t.players.clear()
    t.games = t.games.clear()  # nor the games' (27 MB at a million games)
    if isinstance(t.players, pl.LazyFrame):
        release_heap()
    if checks is None and t.config.get("checks"):  # a config with `checks:` shows them (verdict: `sim check`)
        checks = evaluate(t.config["checks"], rep.tables, played, failed, rep.level)
    figure_policy.draw(rep, figures, complete, run_dir)
    write_report(Path(run_dir), rep, checks)
    return rep


def summary_text(rep: Report) -> str:
    """The short terminal table printed at the end of ``sim run``."""
    lines = [rep.verdict, ""] if rep.verdict else []
    for key in () if rep.solo else ("strategy", "seat"):
        if key not in rep.tables:
            continue
        lines.append(f"{'by ' + key:<22}{'games':>8}  {f'win rate ({rep.level} CI)':<26}{'mean score':>10}")
        for r in rep.tables[key].iter_rows(named=True):
            ci = f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})"
            lines.append(f"{str(r[key]):<22}{r['games']:>8}  {ci:<26}{r['mean_score']:>10.2f}")
        lines.append("")
    lines += rep.findings
    lines += [f"figures: {rep.figures_note}"] if rep.figures_note else []
    lines += [f"warning: figure '{k}' could not be drawn ({v}); the report says so" for k, v in rep.chart_errors.items()]
    return "\n".join(lines)
