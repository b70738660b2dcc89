"""The other sheets' counts the plans read (``strategies.alpenzian.counts``, issue 20 item 2 round nine):
flowers per colour area and residents of a sheet, kept across seats by the sheet's cells, are the
counts section 7 (2) and (4) give, also when read again, on another sheet type, or after the table
was emptied."""

from __future__ import annotations

import pytest

from sim.games.alpenzian import Alpenzian
from sim.games.alpenzian.actions import HOUSE, OUTLINE, SHEEP, SOLID
from sim.games.alpenzian.engine import DIE
from sim.games.alpenzian.rules import Options
from strategies.alpenzian import counts
from strategies.alpenzian.counts import other_counts, sheet_counts


def _view(sheet: str, drawn: dict[int, int]):
    """A 3-player die step seen by seat 0, with seat 1's sheet holding ``drawn`` (square -> icon)."""
    game = Alpenzian(3, Options(sheet=sheet))
    s = game.new_initial_state()
    s.cells[1] = [drawn.get(c, 0) for c in range(len(s.cells[1]))]
    s.phase, s.round, s.seat, s.dice = DIE, 2, 0, [0, 1, 2, 3, 4, 5]
    return game.observe(s, 0), game.boards[s.sheets[1]]


def _drawing(board) -> tuple[dict[int, int], tuple[int, ...]]:
    """Two solid flowers in colour area 0, an outline flower in area 2, two houses and a sheep; with the
    flowers per area counted by hand: (2, 0, 1, 0, 0)."""
    c0, c2 = board.colour_cells[0], board.colour_cells[2]
    free = [c for c in board.drawable if c not in c0[:2] and c != c2[0]]
    return {c0[0]: SOLID, c0[1]: SOLID, c2[0]: OUTLINE, free[0]: HOUSE, free[1]: HOUSE, free[2]: SHEEP}, (2, 0, 1, 0, 0)


@pytest.fixture(autouse=True)
def _empty_table():
    counts._KEPT.clear()
    yield
    counts._KEPT.clear()


def test_counts_of_a_sheet_drawn_by_hand_first_and_kept():
    obs, board = _view("A", {})
    drawn, flowers = _drawing(board)
    obs, _ = _view("A", drawn)
    # residents: 2 per house, 1 per outline flower (section 7 (4)): 2 * 2 + 1
    assert sheet_counts(obs, 1) == (flowers, 5)
    again, _ = _view("A", drawn)  # another view of the same sheet: read from the table
    assert again.cells[1] in counts._KEPT
    assert sheet_counts(again, 1) == (flowers, 5)
    assert sheet_counts(again, 2) == ((0, 0, 0, 0, 0), 0)  # an empty sheet


def test_the_same_cells_on_another_sheet_type_are_counted_on_its_terrain():
    obs_a, board_a = _view("A", {})
    drawn, _ = _drawing(board_a)
    obs_a, _ = _view("A", drawn)
    obs_b, board_b = _view("B", drawn)
    assert board_a.terrain != board_b.terrain
    want = [0] * 5
    for c, icon in drawn.items():
        if icon in (SOLID, OUTLINE):
            want[board_b.terrain[c]] += 1
    sheet_counts(obs_a, 1)
    assert sheet_counts(obs_b, 1) == (tuple(want), 5)
    assert sheet_counts(obs_a, 1)[0] == (2, 0, 1, 0, 0)


def test_a_full_table_is_emptied_and_counts_stay_right(monkeypatch):
    monkeypatch.setattr(counts, "KEEP", 2)
    obs, board = _view("A", {})
    drawn, flowers = _drawing(board)
    views = [_view("A", dict(list(drawn.items())[:k]))[0] for k in range(len(drawn) + 1)]
    for _ in range(2):
        got = [sheet_counts(v, 1) for v in views]
        assert len(counts._KEPT) <= 2
        assert got[-1] == (flowers, 5)
        assert got[0] == ((0, 0, 0, 0, 0), 0)


@pytest.mark.parametrize("compiled", [False, True])
def test_both_ways_of_counting_give_the_hand_counts(monkeypatch, compiled):
    """``sheet_counts`` counts with the observation's methods in Python and with ``_tally`` (one loop,
    a C loop in the compiled copy) when compiled: either way the hand counts (flowers per area, and
    2 houses and 1 outline flower: residents 2 * 2 + 1)."""
    monkeypatch.setattr(counts, "COMPILED", compiled)
    _, board = _view("A", {})
    drawn, flowers = _drawing(board)
    obs, _ = _view("A", drawn)
    assert sheet_counts(obs, 1) == (flowers, 5)
    assert counts._tally(obs.cells[1], board.terrain) == (flowers, 2, 1)


def test_the_other_sheets_counts_in_seat_order_and_residents_most_first():
    """``other_counts`` (a plan's majority estimates): the flowers per area of every sheet but the
    seat's own, in seat order, and their residents most first (seat 1: the hand counts, 5 residents;
    seats 0 and 2 empty)."""
    _, board = _view("A", {})
    drawn, flowers = _drawing(board)
    obs, _ = _view("A", drawn)
    empty = (0, 0, 0, 0, 0)
    assert other_counts(obs, 0) == ([flowers, empty], [5, 0])
    assert other_counts(obs, 2) == ([empty, flowers], [5, 0])
    assert other_counts(obs, 1) == ([empty, empty], [0, 0])
