"""The other sheets' flower and resident counts for the plans' majority estimates (issue 20 item 2, round nine).

Every plan seat reads, at each of its decision points, the flowers per colour and the residents of
every other sheet (``Observation.sheet_flowers``, ``sheet_residents``). Between two seats' turns only
the sheet of the seat that just drew changes, so most of those sheets were counted moments before by
another plan seat of the same game. ``sheet_counts`` keeps the counts by the sheet's cells (a tuple:
its hash and comparison cost a fraction of counting again) in one process-wide table, with the
terrain they were counted on; the table is emptied when it reaches ``KEEP`` sheets. Compiled,
``other_counts`` counts each sheet in C instead (cheaper than hashing it: round twelve, second pass).
The counts are those of the observation's own methods (``tests/test_alpenzian_counts.py``).
"""

from __future__ import annotations

from sim.compiled import is_copy
from sim.games.alpenzian.actions import HOUSE, OUTLINE, SOLID

COMPILED = is_copy(__file__)  # this module runs as its compiled copy (sim/compiled.py)

KEEP = 512  # sheets kept at most (a 4-player game meets about 300 distinct sheets)
_KEPT: dict[tuple, tuple] = {}  # cells -> (terrain, flowers per colour, houses, outline flowers)


def sheet_counts(obs, seat: int) -> tuple[tuple[int, ...], int]:
    """``(obs.sheet_flowers(seat), obs.sheet_residents(seat))``, kept by the sheet's cells."""
    got = _kept(obs, seat, obs.cells[seat])
    t = obs.tables
    return got[1], t.resident_house * got[2] + t.resident_outline * got[3]


def other_counts(obs, me: int) -> tuple[list, list]:
    """The other sheets' counts for ``me``'s majority estimates: the flowers per colour area of each
    (in seat order) and their residents, most first (``sheet_counts`` of every seat but ``me``)."""
    cells, t = obs.cells, obs.tables
    house, outline = t.resident_house, t.resident_outline
    flowers, residents = [], []
    boards = obs.boards if COMPILED else None
    for i in range(obs.num_players):
        if i != me:
            # compiled: counting the sheet in C costs less than hashing it for the table (and nearly half
            # the look-ups missed: round twelve, second pass); Python: the table
            if COMPILED:
                f, h, o = _tally(cells[i], boards[i].terrain)
            else:
                _terrain, f, h, o = _kept(obs, i, cells[i])
            flowers.append(f)
            residents.append(house * h + outline * o)
    residents.sort(reverse=True)
    return flowers, residents


def _kept(obs, seat: int, cells: tuple) -> tuple:
    """``(terrain, flowers per colour, houses, outline flowers)`` of ``seat``'s sheet ``cells``."""
    terrain = obs.boards[seat].terrain
    got = _KEPT.get(cells)
    if got is None or got[0] is not terrain:
        if len(_KEPT) >= KEEP:
            _KEPT.clear()
        if COMPILED:
            got = _KEPT[cells] = (terrain, *_tally(cells, terrain))
        else:  # Python: C-speed builtins
            got = _KEPT[cells] = (terrain, obs.sheet_flowers(seat), cells.count(HOUSE), cells.count(OUTLINE))
    return got


def _tally(cells, terrain):
    """``(obs.sheet_flowers(seat), cells.count(HOUSE), cells.count(OUTLINE))`` in one pass over the
    sheet (a C loop when compiled: ``counts.pxd``)."""
    flowers = [0, 0, 0, 0, 0]
    houses = outline = 0
    house, solid, outlined = HOUSE, SOLID, OUTLINE  # C longs when compiled (``counts.pxd``)
    for i in range(len(cells)):
        v = cells[i]
        if v == house:
            houses += 1
        elif v == solid or v == outlined:
            c = terrain[i]
            if 0 <= c < 5:  # ``sheet_flowers`` counts the colours 0-4 (a flower is never elsewhere)
                flowers[c] += 1
            if v == outlined:
                outline += 1
    return tuple(flowers), houses, outline
