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
from ..analysis.report import no_game_why
from ..analysis.stats import complete_count
from ..analysis.tune_report import RATES, shown
from ..api import SimError
from ..config import RunConfig, dump_resolved
from ..config.design import Plan
from ..config.grid import config_values
from ..data import read_json
from . import fixed

MOSTLY = 0.5  # a trial whose complete games are fewer than this share of its games is flagged


def named(values: dict) -> str:
    """Trial values as the progress lines show them: ``max_decisions=1, end_tokens=6``."""
    return ", ".join(f"{k.split('.')[-1]}={v}" for k, v in values.items())


class NoCompleteTrial(SimError):
    """No trial of a study had a complete game: no value can be named best (``sim tune`` and
    ``sim discover`` exit 1, as ``sim run`` does when no game completed)."""


class Completion:
    """The complete games of every trial evaluation (``seen[(values, games)] = (complete, played,
    why)``, ``why`` from ``report.no_game_why`` when fewer than ``MOSTLY`` completed): a trial whose games
    never finished is not eligible as best, and a mostly incomplete one is flagged (breaker finding 4,
    session 10: "Best: max_decisions = 1", every game at the decision cap)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], tuple[int, int, str]] = {}

    def add(self, values: dict, games: int, g, folder: Path, echo: Callable[[str], None] | None = None,
            report: str = "tune.md") -> int:
        """Record trial ``values`` on ``games`` games (its games table ``g``, run folder ``folder``),
        with a warning to ``echo`` when it is flagged; its complete games."""
        n = complete_count(g)
        why = no_game_why(g, read_json(folder / "config.json")) if n < MOSTLY * g.height else ""
        self.seen[(halving.values_key(values), games)] = (n, g.height, why)
        if echo and why:
            echo(f"warning: {named(values)} on {games} games: {n} complete ({why})"
                 + ("; not eligible as best" if not n else f"; flagged in {report}"))
        return n

    def of(self, rec: halving.Record) -> tuple[int, int, str] | None:
        return self.seen.get((halving.values_key(rec.params), rec.games))

    def eligible_first(self, records: list[halving.Record], kind: str) -> list[halving.Record]:
        """``records`` (best first) with the trials that had no complete game at their largest budget
        moved last; ``NoCompleteTrial`` when no trial had one."""
        ok = [r for r in records if (self.of(r) or (1,))[0] > 0]
        if not ok:
            r = records[0]
            raise NoCompleteTrial(f"no trial had a complete game, so no value can be named best: e.g."
                                  f" {named(r.params)}: {(self.of(r) or (0, 0, '?'))[2]}; change the range"
                                  f" (or fix what stops the games) and {kind} again")
        return ok + [r for r in records if r not in ok]

    def rows(self, records: list[halving.Record]) -> list[dict]:
        """``Record.as_dict()`` rows with ``complete``, ``played`` and, when flagged, ``why``."""
        out = []
        for r in records:
            c = self.of(r)
            out.append(r.as_dict() | ({"complete": c[0], "played": c[1]} | ({"why": c[2]} if c[2] else {})
                                      if c else {}))
        return out


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
        complete = seen.add(values, games, g, out / "trials" / f"trial-{k:03d}-{games}", echo)
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
