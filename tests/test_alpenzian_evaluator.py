"""The plans' incremental sheet analysis (``strategies.alpenzian.evaluator``, issue 20 item 2) against
the whole sheet rescored by the engine's scoring (rulebook section 7, RULINGS §5), on random sheets.

The reference here shares nothing with the evaluator but the track walk of ``scoring``: the ranch
bonus uses networkx's Hopcroft-Karp matching (``nx_matching``), and the open track ends, free sheep
and Alpenzian contacts are counted square by square from their definitions.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.alpenzian.actions import (
    CURVED_ICONS,
    EMPTY,
    HOUSE,
    OUTLINE,
    RAIL,
    SHEEP,
    SOLID,
    STRAIGHT_ICONS,
)
from sim.games.alpenzian.rules import load_data
from sim.games.alpenzian.scoring import nx_matching, score_sheet, track_end, track_starts
from strategies.alpenzian.evaluator import SheetBase, _star_matching
from strategies.alpenzian.units import partition

DATA = load_data()
BOARD = DATA.sheets.sheets[0].board()  # sheet A, the baseline's sheet
TABLES = DATA.scoring.tables()
ICONS = (HOUSE, SHEEP, SOLID, OUTLINE, *STRAIGHT_ICONS, *CURVED_ICONS)
# empty squares weigh 5 of 17, so random sheets are about half full, with villages, flocks and tracks
SQUARE = st.sampled_from((EMPTY,) * 5 + ICONS)


def _reference(cells, cell: int, icon: int, rule: str) -> tuple:
    """``SheetBase.figures`` from first principles: the sheet with ``icon`` drawn, rescored whole."""
    new = list(cells)
    new[cell] = icon
    b = BOARD
    sc = score_sheet(b, new, TABLES, rule, "rulings", matcher=nx_matching)
    open_ends = 0
    for _h, c, m, back in track_starts(b, new):
        end, rails = track_end(b, new, c, m, back)
        if end >= 0 and new[end] == EMPTY and b.terrain[end] < 5:
            open_ends += min(rails, 2)
    free = sum(1 for s, v in enumerate(new) if v == SHEEP
               and any(j >= 0 and b.terrain[j] < 5 and not new[j] for j in b.nbr[s]))
    alp = sum(b.mountains_next[i] for i, v in enumerate(new) if v == SOLID or v == OUTLINE)
    col = b.terrain[cell] if icon == SOLID or icon == OUTLINE else -1
    return (sc.houses, sc.sheep, sc.paired, sc.express, alp, col, sc.residents, open_ends, free)


@settings(max_examples=25, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]))
def test_incremental_figures_equal_the_whole_sheet_rescored(squares, rule):
    """Every empty square and every icon on a random sheet: the incremental figures (matchings by
    component, the single-unit count, tracks walked once) equal the whole sheet rescored."""
    cells = [0] * len(BOARD.terrain)
    for i, v in zip(BOARD.drawable, squares, strict=True):
        cells[i] = v
    cells = tuple(cells)
    base = SheetBase(BOARD, cells, TABLES, rule, "rulings", want_open=True)
    for c in BOARD.drawable:
        if not cells[c]:
            for icon in ICONS:
                assert base.figures(c, icon) == _reference(cells, c, icon, rule), (c, icon)


@settings(max_examples=15, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]), st.booleans())
def test_count_figures_equal_the_whole_sheet_rescored(squares, rule, want_open):
    """``count_figures`` (one loop over the squares) for the flowers and for ``RAIL``, a rail with no
    openings (how the plans score a rail meeting no track): every empty square rescored whole."""
    cells = [0] * len(BOARD.terrain)
    for i, v in zip(BOARD.drawable, squares, strict=True):
        cells[i] = v
    cells = tuple(cells)
    base = SheetBase(BOARD, cells, TABLES, rule, "rulings", want_open=want_open)
    empty = [c for c in BOARD.drawable if not cells[c]]
    for icon in (SOLID, OUTLINE, RAIL):
        want = [_reference(cells, c, icon, rule) for c in empty]
        if not want_open:  # open ends counted only by the plans that value them
            want = [(*fig[:7], 0, fig[8]) for fig in want]
        assert base.count_figures(empty, icon) == want, icon


def test_single_unit_matching_counts_what_the_unit_reaches():
    """One village of 3 houses reaching two flocks of 1 sheep: 2 pairs; one flock of 2 sheep reached
    by villages of 1 and 3 houses (a third village not reaching it): 2 pairs; nothing reached: 0."""
    assert _star_matching({10: [10, 11, 12]}, {20: [20], 30: [30]}, {10: {20, 30}}) == 2
    assert _star_matching({1: [1], 2: [2, 3, 4], 5: [5]}, {20: [20, 21]}, {1: {20}, 2: {20}}) == 2
    assert _star_matching({10: [10, 11]}, {20: [20]}, {}) == 0


def test_partition_roots_are_the_smallest_item_of_each_set():
    """Squares 3-7-5 joined in a chain, 9-4 joined, 8 alone: roots 3, 4 and 8, every member listed once."""
    root, members = partition([3, 4, 5, 7, 8, 9], [(7, 5), (9, 4), (5, 3)])
    assert root == {3: 3, 4: 4, 5: 3, 7: 3, 8: 8, 9: 4}
    assert {r: sorted(m) for r, m in members.items()} == {3: [3, 5, 7], 4: [4, 9], 8: [8]}
