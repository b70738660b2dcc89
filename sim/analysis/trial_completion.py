"""Trials of ``sim tune`` / ``sim discover`` whose games did not complete (breaker finding 4,
session 10: tuning max_decisions over [1, 3] named "Best: max_decisions = 1", every game at the cap):
which trials are flagged, which are not eligible as best, and the error when none is."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from ..api import SimError
from . import halving
from .report import no_game_why
from .stats import complete_count

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

    def add(self, values: dict, games: int, g: pl.DataFrame, config: dict,
            echo: Callable[[str], None] | None = None, report: str = "tune.md") -> int:
        """Record trial ``values`` on ``games`` games (its games table ``g`` and resolved ``config``,
        its run folder's config.json), with a warning to ``echo`` when it is flagged; its complete games."""
        n = complete_count(g)
        why = no_game_why(g, config) if n < MOSTLY * g.height else ""
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
