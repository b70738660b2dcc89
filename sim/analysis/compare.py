"""Comparing two runs of the same game and player count (``sim compare``): per seat and per
strategy, win rate (and mean score) in A and in B, the difference B − A with an interval, a p-value
and a Holm-adjusted p-value, Holm over the rows of each metric (win rates one family, mean scores
another: different questions, so neither costs the other power; fresh-user finding 10, session 10).

**Paired** when both runs played the same games (same root seed, seating, game indices and deals):
game by game, the exact McNemar test (statsmodels ``mcnemar(exact=True)``) for a group holding one
seat a game, else a paired t-test on per-game win shares (and for scores), with a paired
percentile bootstrap interval. **Unpaired** otherwise: Newcombe's hybrid score interval (statsmodels
``confint_proportions_2indep(method="newcomb")``) and Fisher's exact test; scores by Welch's t-test
and an independent bootstrap; under ``permute`` the seat rows by Welch's t over deals
(``deals.deal_difference``). Only complete games count (paired: complete in both runs).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from ..api import SimError
from ..data import yaml_value
from .deals import deal_difference, deal_games
from .stats import analysis_rng, complete_count, complete_games, complete_players, holm, holm_within
from .tables import RunTables

# the unpaired test of a group holding several seats a game (designer finding 7, session 8: Fisher's
# test on its player rows took the seats of one game, of which at most one wins, as independent)
CLUSTERED = "Welch t-test on per-game win shares (a game is one unit)"

ROW_KEYS = ("group", "label", "metric", "a", "b", "diff", "ci_low", "ci_high", "p_value", "p_adjusted",
            "significant", "test", "games_a", "games_b", "p_all_rows")


@dataclass
class Comparison:
    """What ``compare_runs`` found: ``paired``, the rows (``ROW_KEYS``) and notes on the method."""

    paired: bool
    confidence: float
    rows: list[dict]
    why: str
    notes: list[str] = field(default_factory=list)
    identical: bool = False  # paired, and every common game gave every seat the same win and score
    decisions: tuple[float, float] = (math.nan, math.nan)  # mean decisions per complete game, A and B
    warning: str = ""  # the runs' strategies differ (``other_opponents``)
    changes: list[str] = field(default_factory=list)  # what differs between the runs (``run_changes``)

    def to_json(self) -> dict:
        """``{"paired", "confidence", "why", "identical", "warning", "changes", "rows": [...]}`` as
        ``sim compare --json`` writes it; a figure that could not be computed is null (strict JSON has no NaN)."""
        return {"paired": self.paired, "confidence": self.confidence, "why": self.why, "identical": self.identical,
                "warning": self.warning, "changes": self.changes,
                "rows": [{k: None if isinstance(r[k], float) and math.isnan(r[k]) else r[k] for k in ROW_KEYS}
                         for r in self.rows]}


def _sps():
    """``scipy.stats``, imported on first use: importing it costs about 0.9 s, and ``sim.cli``
    imports this module for every command (issue 20 item 8)."""
    from scipy import stats

    return stats

def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (games only A won, only B won):
    ``statsmodels.stats.contingency_tables.mcnemar([[0, a_only], [b_only, 0]], exact=True)``.
    1.0 when there is no discordant game."""
    from statsmodels.stats.contingency_tables import mcnemar

    if a_only + b_only == 0:
        return 1.0
    return float(mcnemar([[0, a_only], [b_only, 0]], exact=True).pvalue)


def newcombe(wins_a: int, n_a: int, wins_b: int, n_b: int, confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's (1998, method 10) interval of ``wins_b/n_b − wins_a/n_a`` (proportions), via
    ``statsmodels.stats.proportion.confint_proportions_2indep(method="newcomb")``."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    if n_a == 0 or n_b == 0:
        return (math.nan, math.nan)
    lo, hi = confint_proportions_2indep(wins_b, n_b, wins_a, n_a, method="newcomb", compare="diff",
                                        alpha=1 - confidence)
    return (float(lo), float(hi))


def fisher_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Two-sided Fisher exact test of equal proportions (``scipy.stats.fisher_exact``)."""
    if n_a == 0 or n_b == 0:
        return math.nan
    return float(_sps().fisher_exact([[wins_a, n_a - wins_a], [wins_b, n_b - wins_b]]).pvalue)


def paired_interval(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, confidence: float = 0.95,
                    n_resamples: int = 1000) -> tuple[float, float]:
    """Percentile interval of ``mean(y) − mean(x)`` resampling whole games (the same games from both
    runs): ``scipy.stats.bootstrap((x, y), paired=True)``. A point interval when nothing varies."""
    d = np.asarray(y, float) - np.asarray(x, float)
    if len(d) < 2 or np.ptp(d) == 0:
        m = float(d.mean()) if len(d) else math.nan
        return (m, m)
    res = _sps().bootstrap((np.asarray(x, float), np.asarray(y, float)), lambda a, b, axis=-1: b.mean(axis) - a.mean(axis),
                        paired=True, vectorized=True, n_resamples=n_resamples, method="percentile",
                        confidence_level=confidence, rng=rng)
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def independent_interval(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, confidence: float = 0.95,
                         n_resamples: int = 1000) -> tuple[float, float]:
    """Percentile interval of ``mean(y) − mean(x)``, resampling each run's games on its own."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or len(y) < 2:
        return (math.nan, math.nan)
    if np.ptp(x) == 0 and np.ptp(y) == 0:
        return (float(y.mean() - x.mean()),) * 2
    res = _sps().bootstrap((x, y), lambda a, b, axis=-1: b.mean(axis) - a.mean(axis), vectorized=True,
                        n_resamples=n_resamples, method="percentile", confidence_level=confidence, rng=rng)
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def _t_p(x: np.ndarray, y: np.ndarray, paired: bool) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    if paired:
        d = y - x
        if len(d) < 2 or np.all(d == 0):
            return 1.0
        if np.ptp(d) == 0:
            return 0.0  # every game moved by the same non-zero amount
        return float(_sps().ttest_rel(y, x).pvalue)
    if len(x) < 2 or len(y) < 2:
        return math.nan
    if np.ptp(x) == 0 and np.ptp(y) == 0:
        return 1.0 if x[0] == y[0] else 0.0
    return float(_sps().ttest_ind(y, x, equal_var=False).pvalue)


def per_game(t: RunTables, games: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per complete game and group: ``game_index, group, label, won`` (share of the group's seats
    that won, 0..1), ``score`` (their mean), ``seats``. Groups: each seat and each strategy label."""
    cp = complete_players(t.players, t.games)
    if games is not None:
        cp = cp.join(games, on="game_index", how="semi")
    seat = cp.select("game_index", group=pl.lit("seat"), label=pl.col("seat").cast(pl.Utf8),
                     won=pl.col("won").cast(pl.Float64), score=pl.col("score"), seats=pl.lit(1, pl.UInt32))
    strat = cp.group_by("game_index", "strategy").agg(
        won=pl.col("won").cast(pl.Float64).mean(), score=pl.col("score").mean(), seats=pl.len()).select(
        "game_index", group=pl.lit("strategy"), label="strategy", won="won", score="score", seats="seats")
    return pl.concat([seat, strat]).sort("group", "label", "game_index")


def same_results(pa: pl.DataFrame, pb: pl.DataFrame) -> bool:
    """Whether two runs' ``per_game`` rows of the same games give every seat the same win and score
    in every game: then the change between the runs altered no result (fresh-user 2, session 6)."""
    cols = ["game_index", "label", "won", "score"]
    sa, sb = (p.filter(pl.col("group") == "seat").select(cols) for p in (pa, pb))
    if sa.height != sb.height or not sa.height:
        return False
    j = sa.join(sb, on=["game_index", "label"], suffix="_b")
    return j.height == sa.height and bool(j.select((pl.col("won").eq_missing(pl.col("won_b"))
                                                    & pl.col("score").eq_missing(pl.col("score_b"))).all()).item())


def _decisions(t: RunTables) -> float:
    """Mean decisions per complete game of a run (``games.n_decisions``), NaN without the column."""
    g = complete_games(t.games)
    return float(g["n_decisions"].mean()) if "n_decisions" in g.columns and g.height else math.nan


def _deal_of(t: RunTables) -> tuple[int | None, dict[int, int] | None]:
    """A run's games per deal (manifest ``deal_size``) and each game's deal (``games.deal_index``):
    ``None`` for what the run folder does not record."""
    k = t.manifest.get("deal_size") if isinstance(t.manifest, dict) else None
    g = t.games
    deals = dict(zip(g["game_index"].to_list(), g["deal_index"].to_list(), strict=True)) \
        if "deal_index" in g.columns else None
    return (int(k) if k is not None else None), deals


def other_deals(a: RunTables, b: RunTables) -> str:
    """Why two runs with the same seed, seating and game indices still dealt other games, or "".
    Under ``seating: permute`` game g's chance stream (shuffles, dice) comes from its deal,
    ``g // k`` with ``k`` the games per deal, which depends on the strategies (breaker finding 1,
    session 8): with k = 6 in A and 12 in B, game 6 is deal 1 in A and deal 0 in B."""
    (ka, da), (kb, db) = _deal_of(a), _deal_of(b)
    if ka is not None and kb is not None and ka != kb:
        return f"other deals ({ka} and {kb} games per deal under seating {a.config.get('seating')}: game g is another shuffle)"
    if da is not None and db is not None:
        bad = sorted(g for g in da if g in db and da[g] != db[g])
        if bad:
            return (f"other deals (game {bad[0]} is deal {da[bad[0]]} in A and {db[bad[0]]} in B; {len(bad)} games "
                    "differ)")
        return ""
    if a.config.get("seating") == "permute":
        return "deals not recorded (seating permute): the games may differ"
    return ""


def pairing(a: RunTables, b: RunTables) -> tuple[bool, str]:
    """Whether two runs played the same games, and why (or why not): the same root seed, seating,
    game indices and deal of every game (common random numbers only then)."""
    ca, cb = a.config, b.config
    if ca["seed"] != cb["seed"]:
        return False, f"different root seeds ({ca['seed']} and {cb['seed']})"
    if ca.get("seating") != cb.get("seating"):
        return False, f"different seating ({ca.get('seating')} and {cb.get('seating')})"
    ia, ib = a.games["game_index"].to_list(), b.games["game_index"].to_list()
    if sorted(ia) != sorted(ib):
        return False, f"different games ({len(ia)} and {len(ib)} game indices)"
    deals = other_deals(a, b)
    if deals:
        return False, f"same root seed {ca['seed']} and game indices but {deals}"
    return True, f"same root seed {ca['seed']}, seating {ca.get('seating')}, {len(ia)} game indices and deals"


def _lineup(cfg: dict) -> list[str]:
    """A run's strategies as ``name`` or ``name {params}``, in seat order (config.json's ``strategies``)."""
    out = []
    for s in cfg.get("strategies") or []:
        if isinstance(s, dict):
            params = s.get("params") or {}
            out.append(str(s.get("name")) + (f" {json.dumps(params, sort_keys=True)}" if params else ""))
    return out


def _as_written(entries, game: str = ""):
    """A run's strategies as recorded (no defaults filled in): ``resolve``'s default."""
    return entries


def _resolved(exp: dict, resolve) -> dict:
    """A recorded experiment or config with ``resolve`` (``registry.resolved_lineup``, passed in by the
    command: analysis imports no registry) applied to its strategies."""
    return {**exp, "strategies": resolve(exp["strategies"], str(exp.get("game") or ""))} if "strategies" in exp else exp


def other_opponents(ca: dict, cb: dict, resolve=_as_written) -> str:
    """A warning when the two runs' strategies differ (designer finding 7, session 8): then every
    row compares a seat or strategy that met other opponents, and its difference may be theirs."""
    la, lb = _lineup(ca), _lineup(cb)
    ra, rb = (_lineup(_resolved(c, resolve)) for c in (ca, cb))
    if not la or not lb or sorted(ra) == sorted(rb):  # a default spelt out is the same strategy (session 9)
        return ""
    return (f"the runs' strategies differ (A: {', '.join(la)}; B: {', '.join(lb)}): each row compares a seat or"
            " strategy that met other opponents in B, so a difference may come from the opponents as much as from"
            " the change; a strategy holding several seats of a game is tested with one win share per game")


def _seat_text(s) -> str:
    """One seat's strategy as ``name {params} (label)``, from the experiment's ``strategies`` entry."""
    if not isinstance(s, dict):
        return yaml_value(s)
    params = s.get("params") or {}
    return (str(s.get("name")) + (f" {json.dumps(params, sort_keys=True)}" if params else "")
            + (f" (label {s['label']})" if s.get("label") else ""))


def _seat_change(i: int, x, y) -> list[str]:
    """What differs in seat ``i``'s strategy: param by param when only params differ, else the whole entry."""
    if isinstance(x, dict) and isinstance(y, dict) and {**x, "params": 0} == {**y, "params": 0}:
        px, py = x.get("params") or {}, y.get("params") or {}
        return [f"strategies.{i}.params.{k}: {yaml_value(px.get(k))} → {yaml_value(py.get(k))}"
                for k in sorted({*px, *py}, key=str) if px.get(k) != py.get(k)]
    return [f"strategies.{i}: {_seat_text(x)} → {_seat_text(y)}"]


def run_changes(ma: dict, mb: dict, resolve=_as_written) -> list[str]:
    """What differs between two runs' recorded experiments (manifest ``experiment``, ``data_hashes``,
    ``engine_version``), one ``"key: A → B"`` per difference, a mapping (options, data) key by key
    (fresh-user finding 11, session 8: a data variant's runs differed only by a hash nobody saw)."""
    ea, eb = (_resolved(m.get("experiment") or {}, resolve) for m in (ma, mb))  # defaults filled in (session 9)
    out = []
    for key in sorted({*ea, *eb} - {"labels"}):
        a, b = ea.get(key), eb.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += [f"{key}.{k}: {yaml_value(a.get(k))} → {yaml_value(b.get(k))}"
                    for k in sorted({*a, *b}, key=str) if a.get(k) != b.get(k)]
        elif key == "strategies" and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            out += [line for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y for line in _seat_change(i, x, y)]
        elif a != b:
            out.append(f"{key}: {yaml_value(a)} → {yaml_value(b)}")
    ha, hb = ma.get("data_hashes") or {}, mb.get("data_hashes") or {}
    out += [f"data file {k}: other contents" for k in sorted({*ha, *hb}) if ha.get(k) != hb.get(k)
            and not any(c.startswith(f"data.{k}:") for c in out)]
    if ma.get("engine_version") != mb.get("engine_version"):
        out.append(f"engine version: {ma.get('engine_version')} → {mb.get('engine_version')}")
    return out


def check_comparable(a: RunTables, b: RunTables) -> None:
    """``SimError`` (exit 2) unless both runs are of the same game with the same player count."""
    ga, gb = a.config["game"], b.config["game"]
    if ga != gb:
        raise SimError(f"cannot compare runs of different games: {a.run_dir} is {ga}, {b.run_dir} is {gb}")
    pa, pb = int(a.config["players"]), int(b.config["players"])
    if pa != pb:
        raise SimError(f"cannot compare runs with different player counts: {a.run_dir} has {pa} players,"
                       f" {b.run_dir} has {pb}")


def check_has_complete_games(t: RunTables, name: str) -> None:
    """``SimError`` (exit 2) when run ``t`` holds no complete game: nothing to compare."""
    if complete_count(t.games):
        return
    g = t.games
    failed = int(g["failed"].sum()) if "failed" in g.columns and g.height else 0
    truncated = int(g["truncated"].sum()) if "truncated" in g.columns and g.height else 0
    raise SimError(f"{name} has no complete game ({failed} failed, {truncated} truncated): nothing to compare")


def _row(group, label, metric, xa, xb, ci, p, test) -> dict:
    a, b = float(np.mean(xa)) if len(xa) else math.nan, float(np.mean(xb)) if len(xb) else math.nan
    return {"group": group, "label": label, "metric": metric, "a": a, "b": b, "diff": b - a,
            "ci_low": ci[0], "ci_high": ci[1], "p_value": p, "test": test, "games_a": len(xa), "games_b": len(xb)}


def _paired_rows(ga: pl.DataFrame, gb: pl.DataFrame, group: str, label: str, rng, conf: float) -> list[dict]:
    j = ga.join(gb, on="game_index", suffix="_b").sort("game_index")
    wa, wb = j["won"].to_numpy(), j["won_b"].to_numpy()
    if (j["seats"] == 1).all() and (j["seats_b"] == 1).all():
        p = mcnemar_exact(int(((wa == 1) & (wb == 0)).sum()), int(((wa == 0) & (wb == 1)).sum()))
        test = "exact McNemar"
    else:
        p, test = _t_p(wa, wb, True), "paired t-test on per-game win shares"
    out = [_row(group, label, "win_rate", wa, wb, paired_interval(wa, wb, rng, conf), p, test)]
    sa, sb = j["score"].to_numpy(), j["score_b"].to_numpy()
    out.append(_row(group, label, "mean_score", sa, sb, paired_interval(sa, sb, rng, conf), _t_p(sa, sb, True),
                    "paired t-test"))
    return out


def _unpaired_rows(ga: pl.DataFrame, gb: pl.DataFrame, group: str, label: str, rng, conf: float,
                   deals: tuple[int, int] = (1, 1)) -> list[dict]:
    sa, sb = ga["score"].to_numpy(), gb["score"].to_numpy()
    score = _row(group, label, "mean_score", sa, sb, independent_interval(sa, sb, rng, conf), _t_p(sa, sb, False),
                 "Welch t-test")
    if min(deals) > 1:  # seating: permute in both: a group's games of one deal share its shuffle (seats and strategies)
        out = []  # the score row above is still made: the same draws of ``rng`` for the rows after it
        for metric, col in (("win_rate", "won"), ("mean_score", "score")):
            a, b, lo, hi, p, test = deal_difference(ga, gb, deals, conf, col)
            out.append({**_row(group, label, metric, [], [], (lo, hi), p, test), "a": a, "b": b, "diff": b - a,
                        "games_a": ga.height, "games_b": gb.height})
        return out
    if max(ga["seats"].max(), gb["seats"].max()) > 1:  # the group's seats of one game are not independent
        wa, wb = ga["won"].to_numpy(), gb["won"].to_numpy()  # one win share per game: the game is the unit
        return [_row(group, label, "win_rate", wa, wb, independent_interval(wa, wb, rng, conf), _t_p(wa, wb, False),
                     f"{CLUSTERED}; bootstrap interval over games"), score]
    # one seat a game: win rates over the games, wins and games of the group in each run
    wins_a, n_a = int(round((ga["won"] * ga["seats"]).sum())), int(ga["seats"].sum())
    wins_b, n_b = int(round((gb["won"] * gb["seats"]).sum())), int(gb["seats"].sum())
    row = _row(group, label, "win_rate", [], [], newcombe(wins_a, n_a, wins_b, n_b, conf),
               fisher_p(wins_a, n_a, wins_b, n_b), "Fisher exact; Newcombe interval")
    row.update(a=wins_a / n_a if n_a else math.nan, b=wins_b / n_b if n_b else math.nan, games_a=ga.height,
               games_b=gb.height)
    row["diff"] = row["b"] - row["a"]
    return [row, score]


def compare_runs(a: RunTables, b: RunTables, confidence: float = 0.95, resolve=_as_written) -> Comparison:
    """Compare run B with run A (differences are B − A). Raises ``SimError`` for runs of different
    games or player counts, or when either run has no complete game. Rows: per seat and per
    strategy label present in both runs, a ``win_rate`` row (proportions) and a ``mean_score`` row
    (points); ``significant`` when the Holm-adjusted p-value is below 1 − ``confidence``, Holm over the
    rows of one metric (the win-rate rows one family, the mean-score rows another: session 10);
    ``p_all_rows``: Holm over every row, for the one yes/no of ``--fail-on-difference``.
    ``resolve``: fills in each strategy's default params (``registry.resolved_lineup``; `sim compare`
    passes it), so a default spelt out in one run is no difference."""
    check_comparable(a, b)
    for t, side in ((a, "run A"), (b, "run B")):
        check_has_complete_games(t, str(t.run_dir) if t.run_dir is not None else side)
    paired, why = pairing(a, b)
    notes = []
    common = None
    if paired:  # games complete in both runs
        common = a.games.filter(~pl.col("failed") & ~pl.col("truncated")).select("game_index").join(
            b.games.filter(~pl.col("failed") & ~pl.col("truncated")).select("game_index"), on="game_index", how="semi")
    pa, pb = per_game(a, common), per_game(b, common)
    rng = analysis_rng(int(a.config["seed"]), 7)
    rows, deals = [], tuple(deal_games(_deal_of(t)[0], t.config.get("seating")) for t in (a, b))
    for group in ("seat", "strategy"):
        la = pa.filter(pl.col("group") == group)["label"].unique(maintain_order=True).to_list()
        lb = set(pb.filter(pl.col("group") == group)["label"].to_list())
        missing = sorted(set(lb) ^ set(la))
        if missing:
            notes.append(f"{group} label(s) {', '.join(missing)} appear in only one run: not compared")
        for label in [x for x in la if x in lb]:
            ga = pa.filter((pl.col("group") == group) & (pl.col("label") == label))
            gb = pb.filter((pl.col("group") == group) & (pl.col("label") == label))
            rows += (_paired_rows(ga, gb, group, label, rng, confidence) if paired
                     else _unpaired_rows(ga, gb, group, label, rng, confidence, deals))
    adjusted = holm_within([r["p_value"] for r in rows], [r["metric"] for r in rows])  # a family per metric
    for r, p, p_all in zip(rows, adjusted, holm([r["p_value"] for r in rows]), strict=True):
        r["p_adjusted"], r["p_all_rows"] = p, p_all  # p_all_rows: --fail-on-difference's one decision
        r["significant"] = bool(not math.isnan(p) and p < 1 - confidence)
    return Comparison(paired, confidence, rows, why, notes, paired and same_results(pa, pb),
                      (_decisions(a), _decisions(b)), other_opponents(a.config, b.config, resolve),
                      run_changes(a.manifest, b.manifest, resolve))
