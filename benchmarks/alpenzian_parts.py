"""What a part of the Alpenzian plans costs: the games played with the part done twice, less as is.

    python benchmarks/alpenzian_parts.py PART [PART ...] [--games 60]

For each game (``configs/alpenzian/baseline.yaml``, games ``0 .. N-1``) the same game is played as is
and with ``PART`` run twice at every call (its result discarded once), in alternating order, in one
process; the CPU seconds (``time.process_time``) are summed per variant. The difference per game is
the part's cost: on a machine shared with other work it is steadier than timing two processes in
turn (both variants see the same load), and the decisions are those of playing once. Parts whose
second call finds its memo filled (``area``, ``figures``, ``combine``) are understated. Session 8
(docs/speed.md round nine).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

# the parts are methods of Python classes, replaced at run time: the compiled copies (``sim.compiled``)
# cannot be, so the plans run as Python here
os.environ["BOARDSIM_PURE"] = "1"

from alpenzian_logs import prepare  # noqa: E402

import strategies.alpenzian.evaluator as ev  # noqa: E402
import strategies.alpenzian.planner as pl  # noqa: E402
import strategies.alpenzian.point as pt  # noqa: E402
import strategies.alpenzian.prune as pr  # noqa: E402
from sim.limits import PLAY_GC_THRESHOLD  # noqa: E402
from sim.play import play_one  # noqa: E402

PARTS = {  # name -> (owner, attribute)
    "next_base": (pl.Planner, "_next_base"),  # the sheet analysis, fresh or derived
    "bounds": (pr.Bounds, "__init__"),  # a decision point's bounds
    "area": (pr.Bounds, "area"),  # an area's upper bound
    "figures": (ev.SheetBase, "figures"),  # one candidate's figures
    "count_figures": (ev.SheetBase, "count_figures"),  # flower and quiet-rail areas
    "combine": (pt.Point, "combine"),  # figures to a value
    "die_scores": (pl, "die_scores"),  # the die step's scoring, memos reset before the second
}


def _twice(name: str, fn):
    if name == "die_scores":
        def both(point, *args):
            kept = [dict(d) for d in (point.memo, point.area_memo, point.area_lb, point.by_fig)]
            fn(point, *args)
            point.memo, point.area_memo, point.area_lb, point.by_fig = kept
            return fn(point, *args)
        return both

    def both(*args):
        fn(*args)
        return fn(*args)
    return both


def cost(part: str, n_games: int) -> tuple[float, float]:
    """``(ms per game as is, ms per game of the part)`` over games ``0 .. n_games - 1``."""
    owner, attr = PARTS[part]
    once = getattr(owner, attr)
    twice = _twice(part, once)
    s, g, f = prepare("configs/alpenzian/baseline.yaml")
    spent = {False: 0.0, True: 0.0}
    try:
        for i in range(n_games):
            for doubled in ((False, True) if i % 2 else (True, False)):
                setattr(owner, attr, twice if doubled else once)
                t0 = time.process_time()
                play_one(s, g, f, i)
                spent[doubled] += time.process_time() - t0
    finally:
        setattr(owner, attr, once)
    return spent[False] / n_games * 1e3, (spent[True] - spent[False]) / n_games * 1e3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("parts", nargs="+", choices=sorted(PARTS))
    ap.add_argument("--games", type=int, default=60)
    args = ap.parse_args(argv)
    gc.set_threshold(PLAY_GC_THRESHOLD, *gc.get_threshold()[1:])  # as ``sim run`` plays
    for part in args.parts:
        game, part_ms = cost(part, args.games)
        print(f"{part}: {part_ms:.2f} ms of {game:.2f} ms a game ({part_ms / game * 100:.1f}%)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
