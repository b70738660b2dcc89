"""openskill ratings over a run's player rows, a slice of whole games at a time (``summaries.ratings``):
only one slice's rows become Python objects at once (issue 20 item 5: memory).

Each game's update is openskill's own (``PlackettLuce._compute``, the model's arithmetic), called
as ``PlackettLuce.rate`` calls it but without what ``rate`` adds around it for a caller's safety:
checking every argument and deep-copying every rating (a new ``uuid4`` per copy: about 80% of the
ratings' CPU time, issue 20 item 5). ``rate_in_place`` writes the new ratings into the objects it is
given, the numbers ``rate`` returns in its copies; ``in_place_agrees`` checks that on the installed
openskill (``rate`` is used where it does not agree)."""

from __future__ import annotations

import math

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


def rate_in_place(model, players: list, ranks: list[float]) -> None:
    """``model.rate([[p] for p in players], ranks=ranks)`` of a Plackett-Luce ``model`` with its
    default ``tau`` and ``limit_sigma``, each new rating written into its own object of ``players``
    (distinct objects) instead of a deep copy: the steps of ``rate`` for one-player teams ranked by
    ``ranks`` (openskill 6): sigma widened by tau, the teams in stable rank order with the ranks
    sorted, ``_compute`` (which updates the teams' rating objects)."""
    tau_squared = model.tau * model.tau
    for p in players:
        p.sigma = math.sqrt(p.sigma * p.sigma + tau_squared)
    order = sorted(range(len(players)), key=ranks.__getitem__)  # openskill's ``_unwind``: a stable sort
    model._compute(teams=[[players[i]] for i in order], ranks=sorted(ranks))


# games whose ratings ``in_place_agrees`` compares: distinct ranks, ties, two to four teams
_PROBES = (((25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3)), (2.0, 0.0, 3.0, 1.0)), \
    (((31.5, 4.25), (18.0, 6.5), (25.0, 2.0)), (1.0, 1.0, 0.0)), (((20.0, 1.5), (29.0, 7.0)), (0.0, 1.0)), \
    (((22.0, 3.0), (27.5, 5.5), (24.0, 8.0), (26.0, 1.25)), (3.0, 0.0, 0.0, 3.0))


def in_place_agrees(model) -> bool:
    """Whether ``rate_in_place`` gives exactly the ratings ``model.rate`` returns on ``_PROBES``
    (with this openskill; ``False`` on any error)."""
    try:
        for start, ranks in _PROBES:
            want = model.rate([[model.rating(mu=m, sigma=s)] for m, s in start], ranks=list(ranks))
            got = [model.rating(mu=m, sigma=s) for m, s in start]
            rate_in_place(model, got, list(ranks))
            if [(t[0].mu, t[0].sigma) for t in want] != [(p.mu, p.sigma) for p in got]:
                return False
    except Exception:  # noqa: BLE001 - another openskill: its ``rate`` then
        return False
    return True


def rate_games(model, table: pl.DataFrame, rating: dict, count: dict, in_place: bool = False) -> None:
    """Update ``rating`` and ``count`` (per strategy) with the games of ``table``, in order.
    ``in_place``: through ``rate_in_place`` (the same numbers, when ``in_place_agrees``), else
    ``model.rate``."""
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
        if distinct == len(labels) and in_place:  # the usual case: the strategies' own ratings updated
            rate_in_place(model, [rating[lab] for lab in labels], [float(r) for r in ranks])
        elif distinct == len(labels):
            new = model.rate([[rating[lab]] for lab in labels], ranks=[float(r) for r in ranks])
            for lab, team in zip(labels, new, strict=True):
                rating[lab] = team[0]
        elif distinct > 1:
            teams = [[model.rating(mu=rating[lab].mu, sigma=rating[lab].sigma, name=lab)] for lab in labels]
            if in_place:
                rate_in_place(model, [t[0] for t in teams], [float(r) for r in ranks])
                new = teams
            else:
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
