"""The report's sections, one function each: every function reads the run's tables and adds its
tables, sections and charts to a ``Draft``. ``report.analyse`` calls them in report order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial

import polars as pl

from ..data import yaml_value
from . import charts, stats, summaries
from .analytic import ANALYTIC_FROM
from .boxes import box_stats
from .counted import histogram_values
from .deals import deal_games, ludii_by_deals, seat_table, seat_text
from .document import Section, ci, level, num, p_text, pct, rows
from .figure_helpers import EagerCharts
from .margins import winning_margins
from .streamed import gather, height, schema
from .tables import RunTables


@dataclass
class Draft:
    """What the sections computed so far: named tables, sections in order, charts to draw."""

    t: RunTables
    min_sample: int
    n_resamples: int
    confidence: float = 0.95  # level of every interval and test of the report
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    charts: dict[str, tuple[str, Callable]] = field(default_factory=EagerCharts)  # drawn while analysing (--jobs 2)
    results: dict = field(default_factory=dict)  # for the findings: "neighbour" (``neighbour.neighbour_tests``)

    @property
    def players(self) -> int:
        return int(self.t.config["players"])

    @property
    def deals(self) -> int:
        """Games per deal the seat statistics take as one unit (``deals.deal_games``: 1 unless permute)."""
        return deal_games(self.t.manifest.get("deal_size"), self.t.config.get("seating"))

    @property
    def lev(self) -> str:
        """The confidence level as the report writes it: ``95%``."""
        return level(self.confidence)

    @property
    def seed(self) -> int:
        return int(self.t.config["seed"])

    @cached_property
    def complete(self) -> pl.DataFrame:
        """Player rows of complete games (not truncated, not failed); computed once (a join and
        a sort over every player row: issue 20 items 1 and 5)."""
        t = self.t
        if t.players_complete:  # read so (``load_tables(complete_only=True)``): no second pass over every row
            return t.players
        return stats.complete_players(t.players, t.games) if t.players.height and t.games.height else t.players

    @cached_property
    def complete_rows(self) -> int:
        """The number of player rows of complete games (counted by a streamed scan for a scan)."""
        return height(self.complete)

    @property
    def analytic(self) -> bool:
        """Whether the means get normal intervals, not the bootstrap (``analytic``: from
        ``ANALYTIC_FROM`` complete games on)."""
        return stats.complete_count(self.t.games) >= ANALYTIC_FROM

    def interval_text(self, n: int | None = None, short: bool = False) -> str:
        """How a mean's interval was made, as the sections say it (``n``: the games it is over;
        ``short``: without the reason, for a sentence in brackets)."""
        if not (self.analytic if n is None else n >= ANALYTIC_FROM):
            return f"{self.lev} bootstrap interval"
        if short:
            return f"{self.lev} normal interval, delta method"
        return (f"{self.lev} normal interval (delta method over whole games: the report's stand-in for the "
                f"bootstrap from {ANALYTIC_FROM:,} complete games on, docs/analysis.md)")


def facts(t: RunTables) -> list[tuple[str, str]]:
    """The run's facts: game, players, games played and complete, seed, seating, strategies, options."""
    cfg, games = t.config, t.games
    done = stats.complete_count(games)
    trunc = int(games["truncated"].sum()) if games.height else 0
    failed = int(games["failed"].sum()) if games.height else t.errors.height
    out = [
        ("game", f"{cfg['game']} (engine version {t.manifest.get('engine_version', '?')})"),
        ("players", str(cfg["players"])),
        ("games", f"{games.height} played, {done} complete"),
        ("truncated", str(trunc)),
        ("failed", str(failed)),
        ("seed", str(cfg["seed"])),
        ("seating", cfg["seating"]),
        ("strategies", "; ".join(
            lab + (f" = {spec['name']}" if spec["name"] != lab else "")
            + (" (" + ", ".join(f"{k}={v}" for k, v in spec.get("params", {}).items()) + ")" if spec.get("params") else "")
            for lab, spec in zip(cfg["labels"], cfg["strategies"], strict=True))),
    ]
    if cfg.get("data"):
        out.append(("data files", ", ".join(f"{k}: {v}" for k, v in cfg["data"].items())))
    if cfg.get("options"):
        out.append(("options", ", ".join(f"{k}={yaml_value(v)}" for k, v in cfg["options"].items())))
    for note in t.manifest.get("notes", []):  # the engine's warnings about this option combination
        out.append(("rules note", note))
    if t.stopping:
        out.append(("stopping rule", t.stopping.get("rule", "")))
        out.append(("stopped because", t.stopping.get("reason", "")))
    return out


def stopping(d: Draft) -> None:
    s = d.t.stopping
    if not s:
        return
    d.sections.append(Section(
        "stopping", "Stopping rule", f"{s.get('rule', '')}. Stopped: {s.get('reason', '')}.",
        pl.DataFrame([{"batch": i + 1, "games so far": b["games"],
                       **({"widest half-width": f"±{b['widest_half_width'] * 100:.2f} pts", "widest interval": b["widest"]}
                          if "widest_half_width" in b else {"undecided checks": ", ".join(b.get("undecided", [])) or "none"})}
                      for i, b in enumerate(s.get("batches", []))])))


def ludii(d: Draft) -> None:
    games = d.t.games
    d.tables["outcomes"] = summaries.outcome_table(games, d.confidence) if games.height else pl.DataFrame()
    d.tables["end_reasons"] = summaries.end_reason_table(games, d.confidence) if games.height else pl.DataFrame()
    lf = (summaries.ludii_figures(games, d.complete, d.seed, d.n_resamples, d.confidence, complete=True) if games.height
          else pl.DataFrame())
    if d.deals > 1 and lf.height and d.complete_rows:  # seating: permute: Balance's and seat 0's intervals over the deals (``deals``)
        lf = ludii_by_deals(lf, d.complete, d.deals, d.seed, d.n_resamples, d.confidence)
    d.tables["ludii"] = lf
    if not lf.height:
        return
    d.sections.append(Section(
        "ludii", "Whole-game balance (Ludii figures)",
        "Balance = 1 − the largest gap between two seats' win rates (1 is perfectly even; the interval, from a "
        f"{_balance_method(d)}, covers every pairwise gap at once and always holds the estimate). Advantage = the "
        "start player's win rate. Drawishness = share of complete games with a shared win or no winner. "
        "Completion = share of games played that end with a winner.",
        rows(lf, lambda r: {"figure": r["figure"], f"value ({d.lev} CI)": ci(r["value"], r["ci_low"], r["ci_high"], 3),
                            "games": r["games"], "meaning": r["meaning"]}), ["ludii"]))
    d.charts["ludii"] = (f"Ludii balance figures with {d.lev} intervals",
                         partial(charts.interval_chart, lf, "figure", "value", "Whole-game balance figures (Ludii)",
                                 "value", unit="%", level=d.lev))


def _balance_method(d: Draft) -> str:
    """How Balance's interval was made, as the Ludii section says it."""
    if d.deals > 1 or not d.analytic:
        return "bootstrap over deals (seating: permute: the deal is the unit)" if d.deals > 1 else "bootstrap over games"
    return (f"normal approximation of the bootstrap over games [the report's stand-in from {ANALYTIC_FROM:,} "
            "complete games on: docs/analysis.md]")


def _exp_note(exp: float, n: int) -> str:
    return (f"expected share {pct(exp)}" + ("" if abs(exp - 1 / n) < 1e-9 else
            f" (the pooled win rate: shared wins count for every winner, so not 1/{n})"))


def _win_rows(table: pl.DataFrame, by: str, lev: str = "95%") -> pl.DataFrame:
    return rows(table, lambda r: {
        by: str(r[by]), "games": r["games"], "wins": r["wins"],
        f"win rate ({lev} CI)": ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
        "vs expected": f"{(r['win_rate'] - r['expected']) * 100:+.1f} pts", "p (Holm)": p_text(r["p_holm"]),
        "mean score": num(r["mean_score"])})


def win_rates(d: Draft) -> dict:
    """Win rate by seat and by strategy (with tests); returns the inputs of the findings."""
    complete, n = d.complete, d.players
    if d.deals > 1 and d.complete_rows:  # seating: permute: the deal is the unit of the seat statistics (``deals``)
        by_seat, chi, fp = seat_table(complete, d.deals, d.confidence)
    else:
        by_seat = summaries.win_table_tested(complete, "seat", confidence=d.confidence)
        chi = summaries.seat_chi_square(complete)
        fp = summaries.first_player_advantage(complete, confidence=d.confidence)
    by_strat = summaries.win_table_tested(complete, "strategy", confidence=d.confidence)
    exp = stats.pooled_win_rate(complete)
    d.tables["seat"], d.tables["strategy"] = by_seat, by_strat
    d.tables["first_player"] = pl.DataFrame([fp])
    note = _exp_note(exp, n)
    d.sections.append(Section("seat", "Win rate by seat", seat_text(by_seat, chi, fp, note, d.lev),
                              _win_rows(by_seat, "seat", d.lev), ["win_rate_by_seat"]))
    what = "Wilson intervals" if d.deals == 1 else "intervals over deals"
    d.charts["win_rate_by_seat"] = (f"Win rate by seat with {d.lev} {what}",
                                    partial(charts.win_rate_chart, by_seat, "seat", exp, "Win rate by seat", d.lev))
    d.sections.append(Section("strategy", "Win rate by strategy",
                              f"Win rate per strategy (player rows of complete games), {d.lev} Wilson intervals; {note}.",
                              _win_rows(by_strat, "strategy", d.lev), ["win_rate_by_strategy"]))
    d.charts["win_rate_by_strategy"] = (f"Win rate by strategy with {d.lev} Wilson intervals",
                                        partial(charts.win_rate_chart, by_strat, "strategy", exp, "Win rate by strategy",
                                                d.lev))
    if by_strat.height > 1 and n > 1:
        cells = summaries.win_table(complete, ["strategy", "seat"], d.confidence)
        d.tables["strategy_seat"] = cells
        d.sections.append(Section(
            "strategy_seat", "Win rate by strategy and seat",
            f"Win rate of each strategy in each seat (player rows of complete games), {d.lev} Wilson intervals; {note}.",
            rows(cells, lambda r: {"strategy": r["strategy"], "seat": str(r["seat"]), "games": r["games"],
                                   "wins": r["wins"],
                                   f"win rate ({d.lev} CI)": ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
                                   "mean score": num(r["mean_score"])})))
    return dict(seat=by_seat, strategy=by_strat, chi=chi, first=fp)


def head_to_head(d: Draft) -> pl.DataFrame:
    """Head-to-head matrix and openskill ratings (when strategies meet); returns the matrix."""
    h2h = summaries.head_to_head(d.complete, d.confidence)
    d.tables["head_to_head"] = h2h
    if not h2h.height:
        return h2h
    d.sections.append(Section(
        "head_to_head", "Head to head",
        "For each pair of strategies, the share of their meetings (two seats of one game) in which A finishes "
        f"above B (better rank), with {d.lev} Wilson intervals; ties are neither. The game is the unit: A is ahead in a "
        "game when more of its meetings there are above B than below (one meeting per game unless a strategy holds two "
        "seats, whose meetings are not independent). Sign test: is A ahead in more than half of the decided games "
        "(even games left out)? p Holm-adjusted over the pairs.",
        rows(h2h, lambda r: {"A": r["strategy_a"], "B": r["strategy_b"], "meetings": r["meetings"],
                             f"A above B ({d.lev} CI)": ci(r["rate"], r["ci_low"], r["ci_high"], percent=True),
                             "B above A (meetings)": r["b_above"], "ties (meetings)": r["ties"],
                             f"A ahead, of decided games ({d.lev} CI)": ci(r["ahead"], r["ahead_low"], r["ahead_high"],
                                                               percent=True),
                             "p (Holm)": p_text(r["p_holm"])}), ["head_to_head"]))
    d.charts["head_to_head"] = ("Head-to-head matrix", partial(charts.head_to_head_chart, h2h, d.lev))
    rt = summaries.ratings(d.complete)
    d.tables["ratings"] = rt
    d.sections.append(Section(
        "ratings", "Ratings (openskill)",
        "openskill Plackett-Luce ratings updated game by game in game-index order (reproducible); "
        "ordinal = mu − 3 sigma, a conservative estimate of strength." + ratings_note(rt, d.tables.get("strategy")),
        rows(rt, lambda r: {"strategy": r["strategy"], "games": r["games"], "mu": num(r["mu"]),
                            "sigma": num(r["sigma"]), "ordinal": num(r["ordinal"])}), ["ratings"]))
    d.charts["ratings"] = ("openskill ratings", partial(charts.ratings_chart, rt))
    return h2h


def ratings_note(rt: pl.DataFrame, by_strat: pl.DataFrame | None) -> str:
    """One sentence when the ratings order two strategies the other way round from their win rates."""
    if by_strat is None or rt.height < 2:
        return ""
    rate = dict(zip(by_strat["strategy"].to_list(), by_strat["win_rate"].to_list(), strict=True))
    order = [s for s in rt["strategy"].to_list() if s in rate]  # best ordinal first
    for i, hi in enumerate(order):
        for lo in order[i + 1:]:
            if rate[lo] > rate[hi]:
                return (f" The ratings put {hi} above {lo} although {lo} wins more often ({pct(rate[lo])} against "
                        f"{pct(rate[hi])}): a rating rewards every place (finishing second beats finishing last), not "
                        "only wins, and it is updated game by game, so it weighs how a strategy places against whom; "
                        "the win rates answer \"who wins\", the ratings \"who places higher\".")
    return ""


def scores(d: Draft) -> None:
    """Final score by strategy and by seat, and the winning margin."""
    complete = d.complete
    for by, st in zip(("strategy", "seat"), summaries.score_tables(complete, ("strategy", "seat"), d.seed,
                                                                  d.n_resamples, d.confidence), strict=True):
        d.tables[f"score_{by}"] = st
        d.sections.append(Section(
            f"score_{by}", f"Final score by {by}",
            f"Mean with a {d.interval_text()}{'' if d.analytic else ' (resampling whole games)'}, spread and "
            "quartiles, in points.",
            rows(st, lambda r, by=by: {by: str(r[by]), "rows": r["rows"],
                                       f"mean ({d.lev} CI)": ci(r["mean"], r["ci_low"], r["ci_high"]),
                                       "sd": num(r["sd"]), "min": num(r["min"], 1), "q25": num(r["q25"], 1),
                                       "median": num(r["median"], 1), "q75": num(r["q75"], 1),
                                       "max": num(r["max"], 1)}), [f"score_by_{by}"]))
        d.charts[f"score_by_{by}"] = (f"Final score by {by}", partial(charts.score_chart, box_stats(complete, by), by, st,
                                                                    level=d.lev, **({"interval": "normal"} if d.analytic else {})))
    mg = winning_margins(complete, d.seed, d.n_resamples, d.confidence)  # value counts of a scan (memory)
    d.tables[mg.name] = mg.table
    if not mg.games:
        return
    r = mg.row
    d.sections.append(Section(
        "margin", "Winning margin",
        f"Best winner's score minus the best non-winner's score, over {mg.games} complete games with both: mean "
        f"{ci(r['mean'], r['ci_low'], r['ci_high'])} points ({d.interval_text(mg.games, short=True)}), median {num(r['median'], 1)}.",
        None, ["winning_margin"]))
    d.charts["winning_margin"] = ("Winning margin", partial(
        charts.histogram_chart, mg.values, "winning margin (points)", "Winning margin per game",
        (r["ci_low"], r["ci_high"]), colour="#8172B2", level=d.lev, counts=mg.counts))


def length(d: Draft) -> None:
    """Game length and the game's summary figures, and how games ended."""
    games = d.t.games
    if not games.height:
        return
    figs = games if d.t.game_figures is None else d.t.game_figures  # a scan when ``games`` lacks the figures
    lt = summaries.length_table(figs, d.seed, d.n_resamples, d.confidence)
    d.tables["length"] = lt
    d.sections.append(Section(
        "length", "Game length and summary figures",
        "Per complete game: player decisions and the figures the game reports (turns, rounds, ...), mean with a "
        f"{d.interval_text()}.",
        rows(lt, lambda r: {"figure": r["figure"], "games": r["games"],
                            f"mean ({d.lev} CI)": ci(r["mean"], r["ci_low"], r["ci_high"]), "sd": num(r["sd"]),
                            "min": num(r["min"], 0), "median": num(r["median"], 1), "max": num(r["max"], 0)}),
        ["game_length"]))
    types = schema(figs)
    col = "rounds" if "rounds" in types else "turns" if "turns" in types else "n_decisions"
    unit = {"rounds": "rounds", "turns": "turns", "n_decisions": "player decisions"}[col]
    row = lt.filter(pl.col("figure") == col)
    interval = (row["ci_low"][0], row["ci_high"][0]) if row.height else None
    values, counts = histogram_values(figs, col, ~pl.col("failed") & ~pl.col("truncated"))  # counts of a scan
    d.charts["game_length"] = (f"Game length ({unit})", partial(
        charts.histogram_chart, values, f"game length ({unit})",
        f"Game length in {unit} (complete games)", interval, level=d.lev, counts=counts))
    d.sections.append(Section(
        "outcomes", "How games ended",
        f"Share of all games played, {d.lev} Wilson intervals. Finished: the rules' end condition was reached. "
        "Stalled: the engine found that no legal sequence of moves could change the outcome any more (e.g. a whole "
        "round of passes with nothing left to draw) and ended the game. Round cap and decision cap: the game was "
        "stopped at a safety limit. Stalled, capped and failed games are left out of win rates.",
        rows(d.tables["outcomes"], lambda r: {"outcome": r["outcome"], "games": r["count"],
                                              f"share ({d.lev} CI)": ci(r["share"], r["ci_low"], r["ci_high"],
                                                                        percent=True)})))


def components(d: Draft) -> pl.DataFrame:
    """Win rate by component (any kind a game declares: companies, sheets, cards), adjusted for
    the holders' strategies and seats; returns the component table for the findings."""
    complete, min_sample = _rows_for_components(d), d.min_sample
    outcome = tuple(d.t.manifest.get("outcome_components", ()))  # kinds the game derives from the score
    comp = (summaries.component_table(d.t.components, complete, min_sample, d.confidence, outcome) if d.complete_rows
            else pl.DataFrame())
    d.tables["components"] = comp
    if not comp.height:
        return comp
    figs = []
    for kind in comp["kind"].unique(maintain_order=True).to_list():
        k = comp.filter(pl.col("kind") == kind).sort("holders", descending=True).head(40).sort("component")
        name = f"components_{kind}"
        figs.append(name)
        d.charts[name] = (f"Win rate by {kind} (grey: fewer than {min_sample} seat-games, no claim)",
                          partial(charts.interval_chart, k, "component", "win_rate", f"Win rate of seats with each {kind}",
                                  "win rate", expected=float(k["pooled"][0]), expected_label="pooled",
                                  marks=k["expected"].to_list(),
                                  marks_label="expected for the holders' strategies and seats",
                                  muted=[not e for e in k["enough"].to_list()], level=d.lev))
    d.sections.append(Section(
        "components", "Components",
        f"Win rate of the seats holding each component (once per game; complete games only: truncated and failed "
        f"games are left out), {d.lev} Wilson intervals, against the share "
        f"the same strategies win in the same seats (expected); a claim needs at least {min_sample} seat-games, a "
        f"Holm-adjusted binomial p < {1 - d.confidence:.3g} and an interval that excludes the expected share. Associations, not "
        "causes: a component can also mark a game that was going well anyway." + _outcome_note(comp),
        rows(comp, lambda r: {"kind": r["kind"] + (" (band of the score)" if r["outcome"] else ""), "component": r["component"], "seat-games": r["holders"],
                              f"win rate ({d.lev} CI)": ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True),
                              "expected": pct(r["expected"]), "without it": pct(r["rate_without"]),
                              "p (Holm)": p_text(r["p_holm"]),
                              "claim": "yes" if r["claim"] else ("none: an outcome" if r["outcome"] else
                                                                 "no" if r["enough"] else "too few"),
                              "held by (strategy, seat-games)": r["held_by"]}), figs))
    return comp


def _outcome_note(comp: pl.DataFrame) -> str:
    kinds = comp.filter(pl.col("outcome"))["kind"].unique(maintain_order=True).to_list()
    return (f" A {' or '.join(kinds)} is a band of the final score (or of winning), so its win rate is no question of "
            "balance: it is shown, but left out of the Holm family and never claimed.") if kinds else ""


def _rows_for_components(d: Draft) -> pl.DataFrame:
    """The complete player rows the component tables join, in memory (of a scan: only when the run
    declares components, and only the columns they read)."""
    if isinstance(d.complete, pl.DataFrame) or not d.t.components.height:
        return d.complete if isinstance(d.complete, pl.DataFrame) else pl.DataFrame()
    return gather(d.complete, lambda f: f.select("game_index", "seat", "strategy", "won"))


def component_distribution(d: Draft) -> None:
    """How often each component occurs (e.g. solo title bands)."""
    comps = d.t.components
    if not (comps.height and d.complete_rows):
        return
    complete = _rows_for_components(d)
    held = (comps.join(complete.select("game_index", "seat"), on=["game_index", "seat"], how="semi")
            .unique(["game_index", "seat", "kind", "component"])
            .group_by("kind", "component").agg(count=pl.len()).sort("kind", "component"))
    total = complete.height
    cis = [stats.wilson(c, total, d.confidence) for c in held["count"]]
    held = held.with_columns(share=pl.col("count") / total, ci_low=pl.Series([c[0] for c in cis]),
                             ci_high=pl.Series([c[1] for c in cis]))
    d.tables["component_distribution"] = held
    d.sections.append(Section(
        "component_distribution", "Component distribution",
        f"Share of the {total:,} seat-games of complete games that had each component, {d.lev} Wilson intervals.",
        rows(held, lambda r: {"kind": r["kind"], "component": r["component"], "seat-games": r["count"],
                              f"share ({d.lev} CI)": ci(r["share"], r["ci_low"], r["ci_high"], percent=True)})))
