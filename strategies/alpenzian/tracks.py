"""Tracks on one sheet for the plans' incremental evaluator (RULINGS §5, rulebook section 7 (5)).

``sheet_tracks`` walks every track leaving a house once and gives the rail links, the open track
ends (tracks from a house whose far end is an empty drawable square, each counted by its rails up
to 2: the rails an express link needs) and, per such empty end, the tracks arriving there.
``open_after`` then gives the open-end count after one draw from the tracks arriving at the
drawn square and the tracks the draw starts, without walking the others: a draw changes only
tracks that end at its square or pass through it. The tests compare both with the whole sheet
walked again (``tests/test_alpenzian_evaluator.py``).
"""

from __future__ import annotations

from sim.games.alpenzian.actions import HOUSE, RAIL
from sim.games.alpenzian.observation import track_starts

OPEN_RAILS = 2  # rails of an open track that count (an express link needs 2)


def walk(nbr, cells, cell: int, k: int) -> tuple[int, int, int]:
    """Leave ``cell`` through side ``k`` and follow rails opening into each other, as
    ``scoring.track_end`` does: ``(end, rails passed, side of end facing the last step)``, where
    ``end`` is the first square that is not such a rail (-1 off the sheet)."""
    count = 0
    j = nbr[cell][k]
    for _ in range(len(cells)):  # tracks never loop (RULINGS §5): a guard
        back_side = (k + 2) & 3
        if j < 0:
            return -1, count, back_side
        v = cells[j]
        if v < RAIL or not v & (1 << back_side):
            return j, count, back_side
        count += 1
        k = (v & 15 & ~(1 << back_side)).bit_length() - 1
        j = nbr[j][k]
    return -1, count, 0


def sheet_tracks(b, cells) -> tuple[list[tuple[int, int, int]], int, dict[int, list[tuple[int, int]]]]:
    """``(rail links, open track ends, arriving)``: the links as ``scoring.rail_links`` gives them,
    the open-end count, and ``arriving[square]``: ``(side, rails, house)`` of each open track ending
    at that empty square (``side``: where its last rail lies; ``house``: the house it leaves)."""
    nbr, terrain = b.nbr, b.terrain
    links, count, arriving = [], 0, {}
    for h, c, m, back in track_starts(b, cells):
        end, rails, side = walk(nbr, cells, c, (m & 15 & ~back).bit_length() - 1)
        rails += 1  # the first rail, ``c``
        if end > h and cells[end] == HOUSE:
            links.append((h, end, rails))
        elif end >= 0 and cells[end] == 0 and terrain[end] < 5:
            count += min(rails, OPEN_RAILS)
            arriving.setdefault(end, []).append((side, rails, h))
    return links, count, arriving


def open_after(b, cells, count: int, arriving: dict, x: int, icon: int) -> int:
    """Open track ends after drawing ``icon`` at the empty square ``x`` (``count`` and ``arriving``
    from ``sheet_tracks``): the tracks ending at ``x`` close, unless the new rail continues
    them; a new rail beside a house and a new house beside rails start tracks."""
    here = arriving.get(x, ())
    for _side, rails, _h in here:
        count -= min(rails, OPEN_RAILS)
    if icon >= RAIL:
        nbr = b.nbr[x]
        for side, rails, _h in here:
            if icon & (1 << side):  # the new rail continues this track
                count += _open_end(b, cells, x, _other(icon, side), rails + 1)
        for side in range(4):
            j = nbr[side]
            if icon & (1 << side) and j >= 0 and cells[j] == HOUSE:  # a track from that house
                count += _open_end(b, cells, x, _other(icon, side), 1)
    elif icon == HOUSE:
        nbr = b.nbr[x]
        for side in range(4):
            j = nbr[side]
            if j >= 0 and cells[j] >= RAIL and cells[j] & (1 << ((side + 2) & 3)):  # a rail opening into x
                count += _open_end(b, cells, x, side, 0)
    return count


def _other(icon: int, side: int) -> int:
    """The other opening of a rail ``icon`` entered through ``side``."""
    return (icon & 15 & ~(1 << side)).bit_length() - 1


def _open_end(b, cells, x: int, side: int, rails: int) -> int:
    """What a track leaving ``x`` through ``side``, with ``rails`` rails already, counts as an open end."""
    end, more, _ = walk(b.nbr, cells, x, side)
    if end >= 0 and end != x and cells[end] == 0 and b.terrain[end] < 5:
        return min(rails + more, OPEN_RAILS)
    return 0
