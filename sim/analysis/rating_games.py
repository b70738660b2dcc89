"""openskill ratings over a run's player rows, a slice of whole games at a time (``summaries.ratings``):
only one slice's rows become Python objects at once (issue 20 item 5: memory)."""

from __future__ import annotations

import polars as pl


def whole_games(table: pl.DataFrame, rows: int = 65536):
    """Consecutive slices of ``table`` (sorted by game) of about ``rows`` rows, never splitting a game."""
    gi, start, n = table["game_index"], 0, table.height
    while start < n:
        stop = min(n, start + rows)
        if stop < n:  # extend to the last row of the game at the cut
            stop = int(gi.search_sorted(gi[stop - 1], side="right"))
        yield table.slice(start, stop - start)
        start = stop


def rate_games(model, table: pl.DataFrame, rating: dict, count: dict) -> None:
    """Update ``rating`` and ``count`` (per strategy) with the games of ``table``, in order."""
    gi, strat, rank = (table[c].to_list() for c in ("game_index", "strategy", "rank"))
    start = 0
    n = len(gi)
    while start < n:
        stop = start
        while stop < n and gi[stop] == gi[start]:
            stop += 1
        labels, ranks = strat[start:stop], rank[start:stop]
        for lab in labels:
            if lab not in rating:
                rating[lab] = model.rating(name=lab)
        distinct = len(set(labels))
        if distinct == len(labels):  # the usual case: rate the strategies' own ratings
            new = model.rate([[rating[lab]] for lab in labels], ranks=[float(r) for r in ranks])
            for lab, team in zip(labels, new, strict=True):
                rating[lab] = team[0]
        elif distinct > 1:
            teams = [[model.rating(mu=rating[lab].mu, sigma=rating[lab].sigma, name=lab)] for lab in labels]
            new = model.rate(teams, ranks=[float(r) for r in ranks])
            by: dict[str, list] = {}
            for lab, team in zip(labels, new, strict=True):
                by.setdefault(lab, []).append(team[0])
            for lab, rs in by.items():
                rating[lab] = model.rating(mu=sum(r.mu for r in rs) / len(rs), sigma=sum(r.sigma for r in rs) / len(rs),
                                           name=lab)
        for lab in set(labels):
            count[lab] = count.get(lab, 0) + 1
        start = stop

