"""Tuning (``sim tune``): find the value of rule options, data values or strategy parameters that
brings a balance figure to its target, with Optuna and successive halving of the game budget.

Every trial is a plain fixed-size run (``fixed.play_point``) in ``OUT/trials/trial-NNN-GAMES``
with the config's root seed (common random numbers where the trials deal alike: ``fixed.deal_sizes``); the study is saved as ``OUT/study.log``
(Optuna ``JournalStorage``); the best value is then confirmed on fresh seeds (``OUT/confirm``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from .. import integrity, store
from ..analysis import halving, objectives
from ..analysis.stats import complete_count
from ..analysis.trial_completion import Completion
from ..analysis.tune_report import RATES, shown
from ..api import SimError
from ..config import RunConfig, dump_resolved
from ..config.design import Plan
from ..config.grid import config_values
from ..data import read_json
from . import fixed


def prepare(out: Path, rc: RunConfig, force: bool, kind: str, resume: bool = False) -> None:
    """The output folder (refused when it holds anything but a previous ``kind`` folder, unless
    ``--force`` and it is one) with the resolved config; ``resume``: only the check that ``out``
    holds an unfinished study of ``kind`` (``SimError``)."""
    if resume:
        if not (out / "study.log").is_file() or not (out / "config.json").is_file():
            raise SimError(f"'{out}' holds no `sim {kind}` study to resume (no study.log and config.json)")
        if (out / f"{kind}.json").is_file():
            raise SimError(f"'{out}' is already complete ({kind}.json); nothing to resume")
        return
    store.prepare_output(out, force, rc.source, kind=kind)
    (out / "chunks").rmdir()
    (out / "config.json").write_text(dump_resolved(rc) + "\n")


def run_tune(rc: RunConfig, plan: Plan, out: Path, *, force: bool = False,
             echo: Callable[[str], None] | None = None, n_resamples: int = 1000, resume: bool = False,
             backend: str = "local", scheduler: str | None = None) -> dict:
    """Tune ``plan.params`` of ``rc`` towards ``plan.target``; return (and write to ``out/tune.json``)
    ``{"best": {key: value}, "objective": figure, "ci": [lo, hi], "target": ..., "trials": [...]}``
    where ``objective`` is the target figure on the confirmation run (fresh seeds, ``confirm_games``
    games) and ``ci`` its 95% bootstrap interval. ``SimError`` for a bad column or output folder.
    ``resume``: continue the study saved in ``out`` (``sim tune --resume``): finished trials are read
    back from their folders, not played again (``halving.finished``). ``backend``/``scheduler``: where
    every trial's games are played (``--backend dask``, ``fixed.run``)."""
    t = plan.target
    where = {"backend": backend, "scheduler": scheduler}
    prepare(out, rc, force, "tune", resume)
    sampler, n_trials, how = halving.sampler_for(plan.params, plan.budget.trials, plan.budget.grid_max, rc.seed)
    rungs = plan.budget.rungs()
    if echo:
        echo(f"tuning {', '.join(p.key for p in plan.params)} towards {t.describe()}: {how}; games per trial"
             f" {' -> '.join(map(str, rungs))} (the best 1/{plan.budget.eta} go on)")

    def measure(games, players, seed, n=200):
        return objectives.figure(t.kind, games, players, column=t.column, pair=t.pair, seed=seed, n_resamples=n)

    index: dict[str, int] = {}
    seen = Completion()

    def evaluate(values: dict, games: int) -> tuple[float, float, float, float]:
        k = index.setdefault(json.dumps(values, sort_keys=True, default=str), len(index))
        g, p = fixed.play_point(rc, values, out / "trials" / f"trial-{k:03d}-{games}", games, index=k, reuse=resume,
                              **where)
        fig = measure(g, p, rc.seed)
        complete = seen.add(values, games, g, read_json(out / "trials" / f"trial-{k:03d}-{games}" / "config.json"), echo)
        loss = objectives.loss(t.kind, fig.value, t.value) if complete else float("inf")  # never the best
        return loss, fig.value, fig.ci_low, fig.ci_high

    study = halving.open_study(out / "study.log", "tune", sampler, resume)
    done = halving.finished(study, rungs[0], evaluate) if resume else None
    if echo and done is not None:
        echo(f"resumed: {len(done)} of {n_trials} trials already in the study")
    records = halving.optimise(study, plan.params, evaluate, rungs, n_trials, plan.budget.eta, echo, done,
                               show=lambda v: shown(t.kind, v), unit=" points" if t.kind in RATES else "")
    records = seen.eligible_first(records, "tune")
    best = records[0]
    seed = halving.fresh_seed(rc.seed)
    g, p = fixed.play_point(rc, best.params, out / "confirm", plan.budget.confirm_games, seed=seed, index=999,
                            reuse=resume, **where)
    fig = measure(g, p, seed, n_resamples)
    result = {"best": best.params, "objective": fig.value, "ci": [fig.ci_low, fig.ci_high],
              "target": {"kind": t.kind, "value": t.value, "column": t.column, "pair": list(t.pair),
                         "describe": t.describe()},
              "loss": objectives.loss(t.kind, fig.value, t.value),
              "confirm": {"games": plan.budget.confirm_games, "seed": seed, "counted": fig.games,
                          "complete": complete_count(g)},
              "config_values": config_values(rc, [p.key for p in plan.params]),
              "sampler": how, "rungs": rungs, "trials": seen.rows(records),
              "seating": rc.seating, "deals": fixed.deal_sizes(out / "trials"),
              "edges": [p.key for p in plan.params if p.kind != "choice" and best.params.get(p.key) in (p.low, p.high)]}
    integrity.write_json_atomic(out / "tune.json", halving.plain(result))  # whole or absent: --resume reads it
    return result
