"""How far exact pruning and reuse can take the Alpenzian plans: counts per die decision and ceilings.

    python benchmarks/alpenzian_ceiling.py [--games 40] [--repeats 3] [--skip-counts] [--skip-ceiling]
    python benchmarks/alpenzian_ceiling.py --games 8 --only {as-is,no-scoring,analysis,logged,record}

Plays games ``0 .. N-1`` of ``configs/alpenzian/baseline.yaml`` (the three plan seats and a random one).

Counts (per die decision of a plan seat; the decisions are those of the game, the counters only
watch): the die faces and (face, colour area) pairs offered, the area bounds computed (``prune``),
the areas scored and how many of those are the best or tie with it (they must be scored exactly
whatever the bounds), the candidates scored (``SheetBase.figures`` calls and cells of the flower and
quiet-rail loop ``count_figures``), and how many of those repeat the seat's previous die decision:
the same square, icon and figures tuple, and the same inputs of the value too (figures, the
unpaired-house weight, the other sheets' best flower counts and residents).

Ceilings (CPU ms per game, ``time.process_time``, best of ``--repeats``, the variants alternated in
one process so they see the same load): the games as they are; the die step's scoring skipped (its
decision read from a first, recorded pass: only the observation analysis, the bounds' set-up and the
legal areas are done); the die step reduced to the observation analysis (``_prepare``); and every
plan decision read from the record (the engine, the runner and the random seat alone). Session 9.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import Counter, defaultdict

from alpenzian_logs import prepare

import strategies.alpenzian.evaluator as ev
import strategies.alpenzian.planner as pl
import strategies.alpenzian.prune as pr
from sim.limits import PLAY_GC_THRESHOLD
from sim.play import play_one

CONFIG = "configs/alpenzian/baseline.yaml"


def _watch(count: Counter) -> list[tuple]:
    """Wrap the planner's parts with counters; returns ``(owner, name, original)`` to undo it."""
    seen: dict = {"plan": None, "prev": defaultdict(set), "cur": defaultdict(set)}
    undo = []

    def wrap(owner, name, make):
        old = getattr(owner, name)
        undo.append((owner, name, old))
        setattr(owner, name, make(old))

    def note(cell, icon, fig):
        plan = seen["plan"]
        pt = plan._pt
        inputs = (pt.pen, tuple(pt.best_other()), tuple(pt.other_res))
        key, full = (cell, icon, fig), (cell, icon, fig, inputs)
        prev, cur = seen["prev"][id(plan)], seen["cur"][id(plan)]
        count["candidates repeating the last turn's figures"] += key in prev
        count["candidates repeating the last turn's value inputs"] += full in prev
        cur.add(key)
        cur.add(full)

    def prepare_(old):
        def f(plan, obs):
            seen["plan"] = plan
            return old(plan, obs)
        return f

    def figures_(old):
        def f(base, cell, icon):
            fig = old(base, cell, icon)
            count["candidates scored"] += 1
            note(cell, icon, fig)
            return fig
        return f

    def count_figures_(old):
        def f(base, cells, icon):
            figs = old(base, cells, icon)
            count["candidates scored"] += len(cells)
            for c, fig in zip(cells, figs, strict=True):
                note(c, icon, fig)
            return figs
        return f

    wrap(pl.Planner, "_prepare", prepare_)
    wrap(ev.SheetBase, "figures", figures_)
    wrap(ev.SheetBase, "count_figures", count_figures_)
    _watch_areas(count, seen, wrap)
    return undo


def _watch_areas(count: Counter, seen: dict, wrap) -> None:
    """The die step's counters: faces, pairs, bounds, areas scored and those best or tied."""

    def scores_(old):
        def f(plan, bounds, items, extra=None):
            if items and isinstance(items[0][0], pl.TakeDie):
                key = id(plan.plan)  # ``plan``: the decision point (``point.Point``) of a plan
                seen["prev"][key], seen["cur"][key] = seen["cur"][key], set()
                count["die decisions"] += 1
                count["die faces"] += len(items)
                count["(face, area) pairs"] += sum(len(cs) for _a, _f, cs in items)
                seen["areas"] = []
            out = old(plan, bounds, items, extra)
            got = seen.pop("areas", None)
            if got is not None:
                top = max(v for _a, v in out)
                count["areas scored"] += len(got)
                count["areas scored: the best or tied"] += sum(1 for v in got if v >= top - 1e-9)
            return out
        return f

    def area_(old):
        def f(plan, bounds, face, colour, floor):
            v = old(plan, bounds, face, colour, floor)
            if "areas" in seen:
                seen["areas"].append(v)
            return v
        return f

    def bound_(old):
        def f(*args):
            if "areas" in seen:
                count["area bounds computed"] += 1
            return old(*args)
        return f

    wrap(pr, "scores", scores_)
    wrap(pr, "_area", area_)
    wrap(pr.Bounds, "area", bound_)
    wrap(pr.Bounds, "coarse", bound_)


def counts(n_games: int) -> None:
    if not pr.__file__.endswith(".py"):  # compiled (``sim.compiled``): calls inside a module bypass the wrappers
        print("## counts: skipped, the plans run compiled (BOARDSIM_PURE=1 counts them as Python)")
        return
    count: Counter = Counter()
    undo = _watch(count)
    s, g, f = prepare(CONFIG)
    try:
        for i in range(n_games):
            play_one(s, g, f, i)
    finally:
        for owner, name, old in reversed(undo):
            setattr(owner, name, old)
    d = count["die decisions"] or 1
    print(f"## counts over {n_games} games ({count['die decisions']} die decisions of the plan seats)")
    for k in ("die faces", "(face, area) pairs", "area bounds computed", "areas scored",
              "areas scored: the best or tied", "candidates scored", "candidates repeating the last turn's figures",
              "candidates repeating the last turn's value inputs"):
        print(f"  {k:50s} {count[k] / d:7.2f} per die decision, {count[k] / n_games:8.1f} per game")


def _record(s, g, f, n_games: int) -> dict:
    """Every plan decision of games ``0 .. n_games - 1``: ``(game, seat, prompt) -> [(action, plan)]``."""
    choose, rec, at = pl.Planner.choose, defaultdict(list), [0]

    def recording(self, obs, legal, rng):
        a = choose(self, obs, legal, rng)
        rec[(at[0], obs.seat, obs.prompt)].append((a, self._plan))
        return a
    pl.Planner.choose = recording
    try:
        for i in range(n_games):
            at[0] = i
            play_one(s, g, f, i)
    finally:
        pl.Planner.choose = choose
    return rec


def _variants(rec: dict, at: list, ptr: Counter) -> dict:
    choose = pl.Planner.choose

    def logged(obs):
        k = (at[0], obs.seat, obs.prompt)
        j = ptr[k]
        ptr[k] += 1
        return rec[k][j]

    def no_scoring(self, obs, legal, rng):
        if obs.prompt != "die":
            return choose(self, obs, legal, rng)
        a, plan = logged(obs)
        self._prepare(obs)
        if obs.left[obs.seat]:
            self._pruner()
            self._legal_areas()
        self._plan = plan
        return a

    def analysis_only(self, obs, legal, rng):
        if obs.prompt != "die":
            return choose(self, obs, legal, rng)
        a, plan = logged(obs)
        self._prepare(obs)
        self._plan = plan
        return a

    return {"as is": choose, "die step without its scoring (analysis, bounds set-up, areas)": no_scoring,
            "die step: the observation analysis only": analysis_only,
            "plan decisions read from the record (engine, runner, random seat)": lambda self, obs, legal, rng:
            logged(obs)[0]}


ONLY = ("as-is", "no-scoring", "analysis", "logged")  # ``--only``: the variants in ``_variants`` order


def ceiling(n_games: int, repeats: int, only: str | None = None) -> None:
    """CPU per game of each variant; ``only``: one variant played once after the recording pass, or
    ``record`` for that pass alone (for instruction counts: ``valgrind`` of the two, less one another)."""
    s, g, f = prepare(CONFIG)
    rec = _record(s, g, f, n_games)
    if only == "record":
        return
    at, ptr = [0], Counter()
    variants = _variants(rec, at, ptr)
    if only is not None:
        name = list(variants)[ONLY.index(only)]
        variants = {name: variants[name]}
    best = dict.fromkeys(variants, float("inf"))
    choose = pl.Planner.choose
    try:
        for _ in range(repeats):
            for name, fn in variants.items():
                pl.Planner.choose = fn
                ptr.clear()
                t0 = time.process_time()
                for i in range(n_games):
                    at[0] = i
                    play_one(s, g, f, i)
                best[name] = min(best[name], time.process_time() - t0)
    finally:
        pl.Planner.choose = choose
    print(f"## ceilings over {n_games} games (CPU, best of {repeats}, variants alternated)")
    for name, dt in best.items():
        print(f"  {name:70s} {dt / n_games * 1e3:6.2f} ms a game, {n_games / dt:6.1f} games/CPU-s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-counts", action="store_true")
    ap.add_argument("--skip-ceiling", action="store_true")
    ap.add_argument("--only", choices=(*ONLY, "record"), help="one ceiling variant, played once (no counts)")
    args = ap.parse_args(argv)
    gc.set_threshold(PLAY_GC_THRESHOLD, *gc.get_threshold()[1:])  # as ``sim run`` plays
    if args.only:
        ceiling(args.games, 1, args.only)
        return 0
    if not args.skip_counts:
        counts(args.games)
    if not args.skip_ceiling:
        ceiling(args.games, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
