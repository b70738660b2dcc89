"""Discovery (``sim discover``): is there a plan that breaks the game? Optuna searches the documented
parameters of one seat's strategy for the highest win rate against the config's other seats
(successive halving of the game budget, common random numbers where the trials deal alike), then the
best parameters and the defaults are replayed on the same fresh seeds and compared with an exact paired
(McNemar) test, or Fisher's exact test when they dealt other games (``seating: permute``).

Trials are plain fixed-size runs (``fixed.play_point``) in ``OUT/trials``; the study is saved as
``OUT/study.log``; the confirmation runs are ``OUT/confirm/best`` and ``OUT/confirm/default``.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path

import optuna

from .. import integrity, store
from ..analysis import halving, objectives
from ..analysis.stats import complete_players, pooled_win_rate, wilson
from ..analysis.trial_completion import Completion
from ..api import SimError
from ..config import RunConfig, dump_resolved
from ..config.design import Plan
from ..data import read_json
from . import fixed


def _prepare(out: Path, rc: RunConfig, force: bool, resume: bool) -> None:
    """A new ``discover`` folder with the resolved config, or (``resume``) the check that ``out``
    holds an unfinished study (``SimError``)."""
    if resume:
        if not (out / "study.log").is_file() or not (out / "config.json").is_file():
            raise SimError(f"'{out}' holds no `sim discover` study to resume (no study.log and config.json)")
        if (out / "discover.json").is_file():
            raise SimError(f"'{out}' is already complete (discover.json); nothing to resume")
        return
    store.prepare_output(out, force, rc.source, kind="discover")
    (out / "chunks").rmdir()
    (out / "config.json").write_text(dump_resolved(rc) + "\n")


def _win_rate(games, players, label: str) -> objectives.Figure:
    """The win rate of ``label`` over complete games, with its 95% Wilson interval."""
    wins = objectives.paired_wins(players, games, label)
    n, w = wins.height, int(wins["won"].sum()) if wins.height else 0
    lo, hi = wilson(w, n)
    return objectives.Figure(w / n if n else float("nan"), lo, hi, n)


def _importances(study: optuna.Study) -> dict[str, float]:
    """Optuna's parameter importances (``get_param_importances`` with PED-ANOVA, Watanabe et al.
    2023, which needs no scikit-learn: how much each parameter's distribution differs between the
    best 10% of trials and all of them), normalised to sum 1; empty when they cannot be computed."""
    try:
        with warnings.catch_warnings():  # "quantiles select the same set of trials" with few trials
            warnings.simplefilter("ignore")
            return dict(optuna.importance.get_param_importances(
                study, evaluator=optuna.importance.PedAnovaImportanceEvaluator()))
    except (RuntimeError, ValueError, ImportError):
        return {}


def _p_above(wins: int, games: int, fair: float) -> float:
    """One-sided exact binomial p that the win rate is above ``fair`` (dominance is a claim in one
    direction: a rate below the fair share must not get a small p; fresh-user finding 5, session 4)."""
    from scipy.stats import binomtest  # noqa: PLC0415  (imported when used: start-up)

    return float(binomtest(int(wins), int(games), fair, alternative="greater").pvalue) if 0 < fair < 1 else 1.0


def _confirm(rc: RunConfig, plan: Plan, out: Path, best: dict, reuse: bool = False, **where) -> dict:
    """Best and default parameters on the same fresh seeds: win rates, intervals, paired test."""
    seed, n = halving.fresh_seed(rc.seed), plan.budget.confirm_games
    runs = {}
    for name, values in (("best", best), ("default", plan.defaults)):
        g, p = fixed.play_point(rc, values, out / "confirm" / name, n, seed=seed, index=900 + len(runs), reuse=reuse,
                              **where)
        runs[name] = (g, p)
    g0, p0 = runs["default"]
    fair = pooled_win_rate(complete_players(p0, g0))  # 1/players without shared wins
    rates = {k: _win_rate(g, p, plan.label) for k, (g, p) in runs.items()}
    # the same games only when both dealt alike (seating permute: the deal size; session 9)
    same = len(fixed.deal_sizes(out / "confirm" / "best", out / "confirm" / "default")) <= 1
    test = (objectives.mcnemar if same else objectives.fisher)(
        objectives.paired_wins(runs["best"][1], runs["best"][0], plan.label),
        objectives.paired_wins(runs["default"][1], runs["default"][0], plan.label))
    b = rates["best"]
    p_fair = _p_above(round(b.value * b.games), b.games, fair) if b.games else 1.0
    dominant = b.games > 0 and b.ci_low > fair and b.value - fair >= plan.margin and p_fair < 0.05
    return {"seed": seed, "games": n, "fair_share": fair, "p_vs_fair": p_fair, "dominant": bool(dominant),
            "win_rate": {k: {"value": f.value, "ci": [f.ci_low, f.ci_high], "games": f.games} for k, f in rates.items()},
            "paired": test}


def run_discover(rc: RunConfig, plan: Plan, out: Path, *, force: bool = False,
                 echo: Callable[[str], None] | None = None, resume: bool = False, backend: str = "local",
                 scheduler: str | None = None) -> dict:
    """Maximise the win rate of ``plan.label`` over ``plan.params``; return (and write to
    ``out/discover.json``) ``{"best_params", "win_rate": {"best", "default"} (value, ci, games),
    "p" (paired McNemar test, best vs default), "fair_share", "dominant", "importances", "trials"}``.
    Win rates are proportions over complete games. ``SimError`` for a bad output folder.
    ``resume``: continue the study saved in ``out`` (``sim discover --resume``): finished trials are read
    back from their folders, not played again (``halving.finished``). ``backend``/``scheduler``: where
    every trial's games are played (``--backend dask``, ``fixed.run``)."""
    _prepare(out, rc, force, resume)
    where = {"backend": backend, "scheduler": scheduler}
    sampler, n_trials, how = halving.sampler_for(plan.params, plan.budget.trials, plan.budget.grid_max, rc.seed)
    rungs = plan.budget.rungs()
    if echo:
        echo(f"searching {len(plan.params)} parameter(s) of {plan.label} for the highest win rate: {how};"
             f" games per trial {' -> '.join(map(str, rungs))} (the best 1/{plan.budget.eta} go on)")
    index: dict[str, int] = {}
    seen = Completion()

    def evaluate(values: dict, games: int) -> tuple[float, float, float, float]:
        k = index.setdefault(json.dumps(values, sort_keys=True, default=str), len(index))
        g, p = fixed.play_point(rc, values, out / "trials" / f"trial-{k:03d}-{games}", games, index=k, reuse=resume,
                              **where)
        f = _win_rate(g, p, plan.label)
        complete = seen.add(values, games, g, read_json(out / "trials" / f"trial-{k:03d}-{games}" / "config.json"),
                            echo, "discover.md")
        if not complete:  # no complete game: never the best (breaker finding 4, session 10; it counted as no win)
            return math.inf, f.value, f.ci_low, f.ci_high
        return objectives.loss("win_rate", f.value), f.value, f.ci_low, f.ci_high

    study = halving.open_study(out / "study.log", "discover", sampler, resume)
    done = halving.finished(study, rungs[0], evaluate) if resume else None
    if echo and done is not None:
        echo(f"resumed: {len(done)} of {n_trials} trials already in the study")
    # win rates in percent, as every other command prints them (not 0.5833; breaker trial 2, session 9)
    records = halving.optimise(study, plan.params, evaluate, rungs, n_trials, plan.budget.eta, echo, done,
                               show=lambda v: f"{v * 100:.1f}", unit="%", loss=False)
    records = seen.eligible_first(records, "discover")
    best = records[0].params
    conf = _confirm(rc, plan, out, best, resume, **where)
    short = {k.split(".")[-1]: v for k, v in best.items()}
    result = {"strategy": plan.label, "best_params": short, "defaults": {k.split(".")[-1]: v for k, v in plan.defaults.items()},
              "win_rate": conf["win_rate"], "p": conf["paired"]["p"], "paired": conf["paired"],
              "fair_share": conf["fair_share"], "p_vs_fair": conf["p_vs_fair"], "dominant": conf["dominant"],
              "margin": plan.margin, "importances": {k.split(".")[-1]: v for k, v in _importances(study).items()},
              "confirm": {"games": conf["games"], "seed": conf["seed"]}, "sampler": how, "rungs": rungs,
              "trials": seen.rows(records), "seating": rc.seating, "deals": fixed.deal_sizes(out / "trials")}
    integrity.write_json_atomic(out / "discover.json", halving.plain(result))  # whole or absent: --resume reads it
    return result
