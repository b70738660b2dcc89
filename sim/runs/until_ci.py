"""Sequential runs (``sim run --until-ci W``): play batches until every seat's and every
strategy's 95% Wilson win-rate interval is within ±W, or a maximum number of games.

Batches continue the same game indices (``fixed.play_ranges`` over ``[done, next)``), so a run
that stops at N games holds exactly the games a plain run of N games would hold. The rule and
every batch are written to ``stopping.json`` and stated in the report.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import polars as pl
from tqdm import tqdm

from .. import locks, store
from ..analysis.deals import deal_games, seat_table
from ..analysis.document import level
from ..analysis.stats import complete_players
from ..analysis.summaries import win_table
from ..api import SimError
from ..config import RunConfig, build_game
from ..data import read_json, write_file_atomic
from ..play import deal_size
from . import fixed


def widest_half_width(players: pl.DataFrame, games: pl.DataFrame, confidence: float = 0.95,
                      deal: int = 1) -> tuple[float, str]:
    """The largest distance from a win rate to either end of its interval (at ``confidence``) over
    every seat and every strategy (complete games), and which group it belongs to: the intervals
    the report gives, Wilson's, and for the seats under ``permute`` (``deal`` games a deal,
    ``deals.deal_games``) the t-interval over deals (breaker trial 2, session 10: the rule stopped
    on Wilson widths while the report's seat intervals were 0-100%). No interval: infinite."""
    cp = complete_players(players, games)
    if cp.is_empty():
        return math.inf, "no complete game"
    worst, who = 0.0, ""
    for by in ("seat", "strategy"):
        t = seat_table(cp, deal, confidence)[0] if by == "seat" and deal > 1 else win_table(cp, by, confidence)
        for r in t.iter_rows(named=True):
            hw = max(r["win_rate"] - r["ci_low"], r["ci_high"] - r["win_rate"])
            hw = math.inf if math.isnan(hw) else hw
            if hw > worst or not who:
                worst, who = hw, f"{by} {r[by]}"
    return worst, who


def _chunk_tables(out: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    players = store.chunk_tables(out, "players", ["game_index", "seat", "strategy", "score", "won"])
    return players, store.chunk_tables(out, "games")


def _rule(width: float, max_games: int, first: int, confidence: float = 0.95) -> dict:
    return {
        "rule": (f"--until-ci {width:g}: batches (first {first} games) until every seat's and every strategy's "
                 f"{level(confidence)} "
                 f"Wilson win-rate interval is within ±{width * 100:g} points, or at most {max_games} games"),
        "width": width, "max_games": max_games, "first_batch": first, "batches": [], "finished": False,
    }


def _write_stopping(out: Path, stopping: dict) -> None:
    write_file_atomic(out / "stopping.json", json.dumps(stopping, indent=2) + "\n")


def run_until_ci(rc: RunConfig, out: Path, width: float, max_games: int, *, force: bool = False,
                 progress: bool = True, fail_fast: bool = False, backend: str = "local",
                 scheduler: str | None = None, keep_lock: bool = False) -> fixed.RunOutcome:
    """Play ``rc.games`` games, then more batches until the widest half-width is at most ``width``
    or ``max_games`` games are played; merge the tables and write ``stopping.json``.

    The next batch aims at the size the interval width predicts (n grows as (half-width / W)^2,
    plus 10%), at least ``rc.games`` more games and at most four times the games so far.
    The rule is written to ``stopping.json`` before the first game (``finished: false`` until
    the end), so ``sim run --resume`` continues it after an interruption.
    """
    if not 0 < width < 0.5:
        raise SimError(f"--until-ci takes a half-width between 0 and 0.5 (0.01 means ±1 point), got {width}")
    if max_games < rc.games:
        raise SimError(f"--max-games ({max_games}) is below the first batch ({rc.games} games)")
    k = deal_size(fixed.setup_of(rc))  # the first batch too ends on a whole deal (seating: permute)
    max_games, rounded = fixed.whole_deals(max_games, k)
    rc = rc.model_copy(update={"games": min(max_games, -(-rc.games // k) * k)})
    build_game(rc)
    store.prepare_output(out, force, rc.source)
    with locks.locked(out, keep_lock):
        stopping = _rule(width, max_games, rc.games, rc.confidence)
        stopping["rule"] += rounded
        _write_stopping(out, stopping)
        return continue_until_ci(rc, out, stopping, progress=progress, fail_fast=fail_fast, backend=backend,
                                 scheduler=scheduler)


def continue_until_ci(rc: RunConfig, out: Path, stopping: dict, *, progress: bool = True, fail_fast: bool = False,
                      backend: str = "local", scheduler: str | None = None) -> fixed.RunOutcome:
    """Play the batch of ``rc.games`` games (only what is not on disk yet) and the further batches of
    the rule in ``stopping`` (``run_until_ci``, or ``sim run --resume`` of an interrupted run).
    The caller holds the folder's lock."""
    width, max_games, first = stopping["width"], stopping["max_games"], stopping["first_batch"]
    game = build_game(rc)
    stop, already = rc.games, None
    played = failed = truncated = 0
    seconds = 0.0
    k = deal_size(fixed.setup_of(rc))  # later batches end on whole deals (seating: permute)
    bar = tqdm(total=stop, unit="game", disable=not progress, file=sys.stderr, dynamic_ncols=True,
               desc=f"until ±{width * 100:g} pts")
    while True:
        rc_now = rc.model_copy(update={"games": stop})
        fixed.write_run_files(rc_now, out, game)
        done = store.done_games(out)
        already = sum(b - a for a, b in done) if already is None else already
        bar.total = stop
        bar.n = sum(b - a for a, b in done)
        bar.refresh()
        try:
            o = fixed.play_ranges(rc_now, out, fixed.todo_ranges(rc, stop, done), progress=progress,
                                  fail_fast=fail_fast, backend=backend, scheduler=scheduler, bar=bar)
        except BaseException:
            bar.close()
            raise
        played, failed, truncated, seconds = played + o.games, failed + o.failed, truncated + o.truncated, seconds + o.seconds
        hw, who = widest_half_width(*_chunk_tables(out), rc.confidence, deal_games(k, rc.seating))
        bar.set_description(f"until ±{width * 100:g} pts (now ±{hw * 100:.2f})")
        stopping["batches"].append({"games": stop, "widest_half_width": hw, "widest": who})
        _write_stopping(out, stopping)
        if hw <= width:
            reason = f"every interval within ±{width * 100:g} points after {stop} games (widest ±{hw * 100:.2f}, {who})"
            break
        if stop >= max_games:
            reason = (f"reached --max-games {max_games} with the widest interval ±{hw * 100:.2f} points ({who}),"
                      f" wider than the target ±{width * 100:g}")
            break
        target = math.ceil(stop * (hw / width) ** 2 * 1.1) if math.isfinite(hw) else stop * 2
        stop = min(max_games, max(stop + first, min(target, stop * 4)))
        stop = min(max_games, -(-stop // k) * k) if stop < max_games else stop
    bar.close()
    # the rule is finished before the merge: a kill during the merge resumes as a plain run of `stop` games
    stopping.update(games=stop, reason=reason, met=hw <= width, finished=True)
    _write_stopping(out, stopping)
    return fixed.merge(out, fixed.RunOutcome(out, played, seconds, failed, truncated, rc.jobs, already or 0))


def resume(out: Path, *, jobs: int | None = None, progress: bool = True, fail_fast: bool = False,
           backend: str = "local", scheduler: str | None = None, keep_lock: bool = False) -> fixed.RunOutcome:
    """Continue an interrupted ``--until-ci`` run under the rule in its ``stopping.json``."""
    rc = fixed.reopen(out, jobs)
    with locks.locked(out, keep_lock):
        store.clear_partial(out)
        stopping = read_json(out / "stopping.json")
        return continue_until_ci(rc, out, stopping, progress=progress, fail_fast=fail_fast, backend=backend,
                                 scheduler=scheduler)
