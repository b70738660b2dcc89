"""Successive halving of the game budget over an Optuna study (``sim tune``, ``sim discover``).

Every trial is first evaluated on ``rungs[0]`` games (Optuna's sampler learns from these values:
``study.tell``); then the best ``1/eta`` of the trials are evaluated again on ``eta`` times as many
games, and so on up to the last rung or until one trial is left (Jamieson & Talwalkar 2016,
"Non-stochastic best arm identification and hyperparameter optimization"). Every evaluation uses
the same root seed and game indices, so trials that deal alike play the same games (common random
numbers) and differ by their parameters, not by luck; under ``seating: permute`` a parameter that
changes which strategies are alike changes the games per deal, and such trials play other games
(the reports say so: ``tune_report.same_games``). The sampler: ``GridSampler`` over every combination when all parameters are integers
or choices with at most ``grid_max`` combinations, else ``TPESampler`` (seeded).

Knows no files, configs or runs: ``evaluate(params, games)`` is passed in.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import optuna
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend

optuna.logging.set_verbosity(optuna.logging.WARNING)


@dataclass
class Record:
    """One trial: its number, parameters, and per budget (games) ``(loss, figure, ci_low, ci_high)``."""

    number: int
    params: dict[str, Any]
    by_games: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return max(self.by_games)

    @property
    def loss(self) -> float:
        return self.by_games[self.games][0]

    def as_dict(self) -> dict:
        g = self.games
        loss, fig, lo, hi = self.by_games[g]
        return {"number": self.number, "params": self.params, "games": g, "loss": loss, "figure": fig,
                "ci": [lo, hi], "by_games": {str(k): list(v) for k, v in sorted(self.by_games.items())}}


CONFIRM_KEY = 0x7E57  # spawn key of the confirmation seed


def fresh_seed(seed: int) -> int:
    """A root seed independent of ``seed`` (``SeedSequence(seed, spawn_key=(0x7E57,))``), for a
    confirmation run: its games share no random stream with the trials'."""
    return int(np.random.SeedSequence(seed, spawn_key=(CONFIRM_KEY,)).generate_state(1, np.uint64)[0] % 2**63)


def study_in(path: Path, name: str, sampler: optuna.samplers.BaseSampler) -> optuna.Study:
    """A new Optuna study (minimising) saved in the journal file ``path``; reload it with
    ``optuna.load_study(study_name=name, storage=JournalStorage(JournalFileBackend(str(path))))``."""
    storage = JournalStorage(JournalFileBackend(str(path)))
    return optuna.create_study(study_name=name, storage=storage, sampler=sampler, direction="minimize")


def open_study(path: Path, name: str, sampler: optuna.samplers.BaseSampler, resume: bool) -> optuna.Study:
    """``study_in``, or with ``resume`` the study ``name`` saved in ``path`` (``KeyError`` when absent)."""
    if not resume:
        return study_in(path, name, sampler)
    drop_cut_record(path)
    return optuna.load_study(study_name=name, storage=JournalStorage(JournalFileBackend(str(path))), sampler=sampler)


def drop_cut_record(path: Path) -> bool:
    """Drop the last line of the study journal ``path`` when it was cut short (no newline at the
    end: what ``kill -9`` or a full disk leaves in an append-only journal); the operations before
    it are whole, so the study resumes from them. Returns whether a cut record was dropped."""
    if not path.is_file():
        return False
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return False
    path.write_bytes(data[: data.rfind(b"\n") + 1])
    return True


def finished(study: optuna.Study, first: int, evaluate: Callable[[dict, int], tuple[float, float, float, float]]
             ) -> list[Record]:
    """Records (first budget: ``first`` games) of the trials a resumed ``study`` holds, by number,
    for ``optimise(done=...)``: complete trials through ``evaluate`` (the caller reads their saved
    results back instead of playing them again); a trial left running by the interruption is
    evaluated now and told to the study under its own number. Failed trials are left out."""
    from optuna.trial import TrialState

    records: dict[str, Record] = {}
    for t in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        if t.state not in (TrialState.COMPLETE, TrialState.RUNNING):
            continue
        rec = records.get(values_key(t.params)) or Record(t.number, dict(t.params))  # a repeat: the first one's result
        rec.by_games.setdefault(first, evaluate(rec.params, first) if rec.number == t.number else rec.by_games[first])
        if t.state == TrialState.RUNNING:
            _tell(study, t.number, rec.loss if math.isfinite(rec.loss) else 1e300)
        records.setdefault(values_key(rec.params), rec)
    return list(records.values())


def values_key(params: dict) -> str:
    """A trial's parameter values as one comparable string (a value sampled twice is one trial)."""
    return json.dumps(params, sort_keys=True, default=str)


def distributions(params: list) -> dict[str, optuna.distributions.BaseDistribution]:
    """Optuna distributions of ``config.design.Param``-like objects (key, kind, low, high, choices)."""
    out: dict[str, optuna.distributions.BaseDistribution] = {}
    for p in params:
        if p.kind == "int":
            out[p.key] = optuna.distributions.IntDistribution(int(p.low), int(p.high))
        elif p.kind == "float":
            out[p.key] = optuna.distributions.FloatDistribution(float(p.low), float(p.high))
        else:
            out[p.key] = optuna.distributions.CategoricalDistribution(list(p.choices))
    return out


def sampler_for(params: list, trials: int, grid_max: int, seed: int) -> tuple[optuna.samplers.BaseSampler, int, str]:
    """``(sampler, number of trials, description)``: the grid when it is small enough (at most
    ``grid_max`` combinations, or no more than ``trials``: TPE would only sample values again, and
    the progress would count trials that cannot be played; breaker trial 2, session 9), else TPE."""
    sizes = [p.size for p in params]
    if all(p.kind in ("int", "choice") for p in params) and math.prod(sizes) <= max(grid_max, trials):
        grid = {p.key: p.values() for p in params}
        n = math.prod(len(v) for v in grid.values())
        why = f" (the range holds no more than the {trials} trials asked for)" if n > grid_max else ""
        return optuna.samplers.GridSampler(grid, seed=seed), n, f"grid of all {n} combinations{why}"
    return optuna.samplers.TPESampler(seed=seed), trials, f"TPE, {trials} trials"


def _tell(study: optuna.Study, trial: optuna.Trial | int, value: float) -> None:
    try:
        study.tell(trial, value)
    except RuntimeError:
        # GridSampler calls study.stop() after the last combination, which ask-and-tell cannot
        # take (optuna docs, GridSampler note; optuna issue 4121); the value is stored first.
        pass


def optimise(study: optuna.Study, params: list, evaluate: Callable[[dict, int], tuple[float, float, float, float]],
             rungs: list[int], n_trials: int, eta: int, echo: Callable[[str], None] | None = None,
             done: list[Record] | None = None, show: Callable[[float], str] | None = None, unit: str = "",
             loss: bool = True) -> list[Record]:
    """Run the trials and the halving; return every trial's record (best first by its last budget).
    Values the sampler proposes a second time are not played again: the study is told the first
    result and another value is asked, up to ``REPEATS`` asks per trial (a space smaller than
    ``n_trials`` ends the study early). ``show`` formats a figure (and its loss) in the progress lines, followed by ``unit``;
    ``loss=False``: no loss in them (discover's loss is only the win rate negated).

    ``evaluate(params, games)`` returns ``(loss, figure, ci_low, ci_high)``; the loss is minimised.
    ``echo`` receives one progress line per evaluation. ``done``: the first-budget records of
    trials already told to ``study`` (a resumed study); only the rest are asked.
    """
    space = distributions(params)
    records: list[Record] = list(done or [])
    seen = {values_key(r.params): r for r in records}
    asks = 0
    while len(records) < n_trials and asks < REPEATS * n_trials:
        asks += 1
        trial = study.ask(space)
        if (old := seen.get(values_key(trial.params))) is not None:
            # the sampler proposed values already tried (TPE on a small integer range does): the
            # study learns the same result, and the values are neither played nor promoted twice
            _tell(study, trial, old.by_games[rungs[0]][0] if math.isfinite(old.by_games[rungs[0]][0]) else 1e300)
            if echo:
                echo(f"sampled {_values(old.params)} again: the result of trial {old.number + 1} is reused, not replayed")
            continue
        rec = Record(trial.number, dict(trial.params))
        rec.by_games[rungs[0]] = evaluate(rec.params, rungs[0])
        _tell(study, trial, rec.loss if math.isfinite(rec.loss) else 1e300)
        records.append(rec)
        seen[values_key(rec.params)] = rec
        if echo:
            echo(_line(rec, rungs[0], f"trial {rec.number + 1} ({len(records)}/{n_trials} values)", show, unit, loss))
    alive = records
    for games in rungs[1:]:
        if len(alive) <= 1:
            break
        alive = sorted(alive, key=lambda r: r.loss)[:max(1, math.ceil(len(alive) / eta))]
        for rec in alive:
            rec.by_games[games] = evaluate(rec.params, games)
            if echo:
                echo(_line(rec, games, f"trial {rec.number + 1} again", show, unit, loss))
    return sorted(records, key=lambda r: (-r.games, r.loss))


REPEATS = 5  # asks per wanted trial before a study whose sampler keeps repeating itself stops


def _values(params: dict) -> str:
    return ", ".join(f"{k.split('.')[-1]}={_fmt(v)}" for k, v in params.items())


def _line(rec: Record, games: int, head: str, show: Callable[[float], str] | None = None, unit: str = "",
          with_loss: bool = True) -> str:
    loss, fig, lo, hi = rec.by_games[games]
    f = show or (lambda v: f"{v:.4g}")
    return (f"{head} ({games} games): {_values(rec.params)} -> {f(fig)}{unit} (95% CI {f(lo)} to {f(hi)})"
            + (f", loss {f(loss).lstrip('+')}{unit}" if with_loss else ""))


def _fmt(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def grid_values(params: list) -> list[dict]:
    """Every combination of int/choice parameters (for tests and reports)."""
    return [dict(zip([p.key for p in params], combo, strict=True))
            for combo in itertools.product(*(p.values() for p in params))]


def plain(value: Any) -> Any:
    """``value`` with NaN and infinities as None and numpy numbers as Python ones (strict JSON)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
