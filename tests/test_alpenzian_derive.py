"""The sheet analysis derived from the previous one after a flower or a rail that changes no link
(``derive.after``, issue 20 item 2, round six) against the sheet analysed afresh and against the
whole sheet rescored from first principles (``test_alpenzian_evaluator._reference``: networkx
matching, tracks walked square by square; rulebook section 7, RULINGS §5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_alpenzian_evaluator import BOARD, ICONS, SQUARE, TABLES, _reference

from sim.games.alpenzian.actions import CURVED_ICONS, HOUSE, OUTLINE, SHEEP, SOLID, STRAIGHT_ICONS
from sim.games.alpenzian.scoring import rail_links
from strategies.alpenzian import derive
from strategies.alpenzian.derive import FIELDS, after, single_change
from strategies.alpenzian.evaluator import SheetBase

CACHES = ("_ctx", "_pairs", "_live", "_joins")  # memos: the derived one may keep valid entries


def _sheet(squares) -> tuple:
    cells = [0] * len(BOARD.terrain)
    for i, v in zip(BOARD.drawable, squares, strict=True):
        cells[i] = v
    return tuple(cells)


def _state(base: SheetBase) -> dict:
    if hasattr(base, "__dict__"):  # Python: ``FIELDS`` names every attribute (``derive._copy`` copies them)
        assert set(base.__dict__) == set(FIELDS)
    return {k: getattr(base, k) for k in FIELDS if k not in CACHES}


@settings(max_examples=20, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]), st.booleans())
def test_derived_analysis_equals_the_fresh_one(squares, rule, want_open):
    """After every flower, every rail that links no new pair of houses (the engine's ``rail_links``) and
    every house beside no house, sheep or rail opening into its square and every sheep (session 8: a
    sheep joining units too), on a random sheet, the derived analysis holds what a fresh ``SheetBase``
    of the new sheet holds; other houses, and rails completing a link, are refused (None)."""
    cells = _sheet(squares)
    base = SheetBase(BOARD, cells, TABLES, rule, "rulings", want_open)
    empty = [c for c in BOARD.drawable if not cells[c]]
    base.joins()
    for c in empty:  # fill the memos the derived analysis inherits
        base.figures(c, HOUSE)
        base.live_sides(c)
    for c in empty:
        for icon in (SOLID, OUTLINE, *STRAIGHT_ICONS, *CURVED_ICONS, HOUSE, SHEEP):
            new = list(cells)
            new[c] = icon
            new = tuple(new)
            got = after(base, new, c, icon)
            relinks = icon not in (SOLID, OUTLINE) and sorted(rail_links(BOARD, new)) != sorted(rail_links(BOARD, cells))
            # a house or sheep beside no house, sheep or rail opening into its square forms units of its own
            lone = c not in base.rail_in and not any(j >= 0 and cells[j] in (HOUSE, SHEEP) for j in BOARD.nbr[c])
            if (icon == HOUSE and not lone) or relinks:
                assert got is None, (c, icon)
                continue
            assert got is not None, (c, icon)
            fresh = SheetBase(BOARD, new, TABLES, rule, "rulings", want_open)
            assert _state(got) == _state(fresh), (c, icon)
            assert got.joins() == fresh.joins(), (c, icon)
            assert [got.live_sides(j) for j in empty if j != c] == [fresh.live_sides(j) for j in empty if j != c]


@settings(max_examples=6, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]))
def test_derived_analysis_scores_every_candidate_as_the_whole_sheet(squares, rule):
    """Two derived steps (an outline flower, then a rail elsewhere, or a solid flower where the rail
    would link houses), memos inherited: every candidate's figures equal the whole sheet rescored."""
    cells = _sheet(squares)
    base = SheetBase(BOARD, cells, TABLES, rule, "rulings", want_open=True)
    empty = [c for c in BOARD.drawable if not cells[c]]
    for c in empty:  # fill the memos
        for icon in ICONS:
            base.figures(c, icon)
    for x, icon in ((empty[0], OUTLINE), (empty[-1], STRAIGHT_ICONS[0])) if len(empty) > 2 else ():
        new = list(cells)
        new[x] = icon
        derived = after(base, tuple(new), x, icon)
        if derived is None:  # the rail links houses: a solid flower there instead
            new[x] = SOLID
            derived = after(base, tuple(new), x, SOLID)
        cells, base = tuple(new), derived
        for c in BOARD.drawable:
            if not cells[c]:
                for i in ICONS:
                    assert base.figures(c, i) == _reference(cells, c, i, rule), (x, c, i)


@settings(max_examples=6, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]))
def test_a_lone_house_or_sheep_derived_scores_every_candidate_as_the_whole_sheet(squares, rule):
    """A house, then a sheep, each drawn where ``after`` derives the analysis (beside no house, sheep or
    rail opening in), memos inherited: every candidate's figures equal the whole sheet rescored."""
    cells = list(_sheet(squares))
    base = SheetBase(BOARD, tuple(cells), TABLES, rule, "rulings", want_open=True)
    for icon in (HOUSE, SHEEP):
        empty = [c for c in BOARD.drawable if not cells[c]]
        for c in empty:  # fill the memos
            for i in ICONS:
                base.figures(c, i)
        for x in empty:
            new = list(cells)
            new[x] = icon
            derived = after(base, tuple(new), x, icon)
            if derived is not None:
                break
        else:
            return
        cells, base = new, derived
        for c in BOARD.drawable:
            if not cells[c]:
                for i in ICONS:
                    assert base.figures(c, i) == _reference(tuple(cells), c, i, rule), (x, c, i)


@settings(max_examples=8, deadline=None)
@given(st.lists(SQUARE, min_size=len(BOARD.drawable), max_size=len(BOARD.drawable)),
       st.sampled_from(["normal", "beginner1", "beginner2"]))
def test_a_sheep_joining_units_derived_scores_every_candidate_as_the_whole_sheet(squares, rule):
    """Two sheep in turn, each beside a house, a sheep or a rail opening into its square where the sheet has
    one (it joins a flock, reaches a rail group or ends a track), memos inherited: every candidate's
    figures equal the whole sheet rescored (networkx matching, tracks walked square by square)."""
    cells = list(_sheet(squares))
    base = SheetBase(BOARD, tuple(cells), TABLES, rule, "rulings", want_open=True)
    for _ in range(2):
        empty = [c for c in BOARD.drawable if not cells[c]]
        if not empty:
            return
        for c in empty:  # fill the memos
            for i in ICONS:
                base.figures(c, i)
        joining = [c for c in empty if c in base.rail_in
                   or any(j >= 0 and cells[j] in (HOUSE, SHEEP) for j in BOARD.nbr[c])]
        x = (joining or empty)[0]
        cells[x] = SHEEP
        base = after(base, tuple(cells), x, SHEEP)
        for c in BOARD.drawable:
            if not cells[c]:
                for i in ICONS:
                    assert base.figures(c, i) == _reference(tuple(cells), c, i, rule), (x, c, i)


@pytest.mark.parametrize("compiled", [False, True])
def test_the_one_changed_square_is_found_both_ways(monkeypatch, compiled):
    """``single_change`` (``Planner._next_base``): the square two sheets differ in when they differ in
    exactly one, else -1; the Python way (builtins) and the compiled one (a loop) agree."""
    monkeypatch.setattr(derive, "COMPILED", compiled)
    a = (0, 1, 2, 0, 0)
    assert single_change(a, (0, 1, 2, 3, 0)) == 3
    assert single_change(a, (5, 1, 2, 0, 0)) == 0
    assert single_change(a, a) == -1
    assert single_change(a, (0, 1, 2, 3, 4)) == -1


def test_the_compiled_copy_sets_every_field_to_the_same_object():
    """``derive._fields`` (how ``_copy`` copies an analysis when compiled) sets each attribute that
    ``FIELDS`` names to the very object of the analysis copied, whichever way the module runs."""
    base = SheetBase(BOARD, _sheet([0] * len(BOARD.drawable)), TABLES, "normal", "rulings", True)
    new = SheetBase.__new__(SheetBase)
    derive._fields(new, base)
    assert all(getattr(new, k) is getattr(base, k) for k in FIELDS)
