"""Alpenzian: rulebook examples as known values, data checks, rules, invariants, determinism.

Every expected number below is worked out by hand from the rulebook (seeds/001), never copied
from program output. Test sheets are built here with ``Board.from_rows`` (letters: B R Y P G
colours, M mountain, X gate); coordinates are (row, column).
"""

from __future__ import annotations

import copy
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.api import CHANCE, TERMINAL, SimError
from sim.games.alpenzian import Alpenzian
from sim.games.alpenzian.actions import (
    CURVED_ICONS,
    EMPTY,
    FACE_ICONS,
    HOUSE,
    OUTLINE,
    RAIL,
    SHEEP,
    SOLID,
    STRAIGHT_ICONS,
    ChooseArea,
    Draw,
    E,
    FirstHouseRoll,
    N,
    PlaceFirstHouse,
    RollDice,
    S,
    TakeDie,
    W,
)
from sim.games.alpenzian.engine import AREA, DIE, SQUARE
from sim.games.alpenzian.rules import Options, load_data
from sim.games.alpenzian.scoring import (
    Board,
    Tables,
    colour_points,
    fast_matching,
    nx_matching,
    rail_links,
    ranch_graph,
    resident_points,
    score_game,
    score_sheet,
)
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams

EW, NS = RAIL | E | W, RAIL | N | S
T = Tables()


def sheet(board: Board, icons: dict[tuple[int, int], int]) -> list[int]:
    cells = [EMPTY] * (board.width * board.height)
    for (r, c), v in icons.items():
        cells[board.cell(r, c)] = v
    return cells


PLAIN = Board.from_rows("plain", ["BBBBBBB"] * 7)


# ------------------------------------------------------------------ the total score example (section 7)
def test_total_score_example_is_43():
    """15 - 5 + 4 + 11 + 5 + 13 = 43: six houses (five paired), yellow and green majorities,
    11 flower-mountain contacts, 16 residents (most), express sets of 2 and 3 houses."""
    board = Board.from_rows("example", [
        "BBBBBBB",
        "BBBBBBB",
        "BBBBBBB",
        "BBYBGBB",
        "BGMYMGB",
        "XBGMYBB",
    ])
    icons = {
        # express set 1: a (0,0) - 2 rails - b (0,3)
        (0, 0): HOUSE, (0, 1): EW, (0, 2): EW, (0, 3): HOUSE,
        # express set 2: c (2,0) - 2 rails - d (2,3) - 2 rails - e (2,6)
        (2, 0): HOUSE, (2, 1): EW, (2, 2): EW, (2, 3): HOUSE, (2, 4): EW, (2, 5): EW, (2, 6): HOUSE,
        # sheep: one per house a-e
        (1, 0): SHEEP, (1, 3): SHEEP, (3, 0): SHEEP, (3, 3): SHEEP, (3, 6): SHEEP,
        # the house with no sheep
        (5, 6): HOUSE,
        # flowers by the mountains (4,2), (4,4), (5,3): contacts 3+1+1+2+2+1+1 = 11
        (4, 3): OUTLINE, (3, 2): OUTLINE, (3, 4): OUTLINE, (5, 2): OUTLINE,
        (5, 4): SOLID, (4, 1): SOLID, (4, 5): SOLID,
    }
    mine = sheet(board, icons)
    # the other player: one house, flowers: blue 1, red 0, yellow 1, green 2 (yellow 3 / green 4 are ours)
    other = sheet(board, {(0, 0): HOUSE, (0, 6): SOLID, (3, 2): SOLID, (4, 1): SOLID, (4, 5): SOLID})
    g = score_game([board, board], [mine, other], T, ["normal", "normal"], matcher=nx_matching)
    s = g.sheets[0]
    assert (s.houses, s.paired) == (6, 5)
    assert s.ranch == 15 - 5
    assert g.colour[0] == 4
    assert s.alpenzian == 11
    assert s.residents == 16 and g.resident[0] == 5
    assert sorted(s.express_sets) == [2, 3] and s.express == 13
    assert g.total[0] == 43
    assert g.resident[1] == 3  # second most residents


# ------------------------------------------------------------------ express bonus (section 7 (5))
def test_express_example_1_scores_4():
    """a-b one rail (too short), b-c two rails not opening into the houses, b-d three rails: 4 points."""
    cells = sheet(PLAIN, {
        (2, 0): HOUSE, (2, 1): EW, (2, 2): HOUSE,  # a - b: 1 rail
        (2, 3): NS, (2, 4): NS, (2, 5): HOUSE,  # b - c: 2 rails, pointing the wrong way
        (3, 2): NS, (4, 2): RAIL | N | E, (4, 3): RAIL | W | S, (5, 3): HOUSE,  # b - d: 3 rails
    })
    s = score_sheet(PLAIN, cells, T)
    assert s.express_sets == (2,) and s.express == 4


def test_express_example_2_scores_13():
    """a-b (2 houses, 4) and c-d-e (3 houses, 9); b and c adjacent stay separate sets: 13."""
    cells = sheet(PLAIN, {
        (0, 0): HOUSE, (0, 1): EW, (0, 2): EW, (0, 3): HOUSE,  # a - b
        (0, 4): HOUSE, (1, 4): NS, (2, 4): NS, (3, 4): HOUSE,  # c - d (c next to b)
        (4, 4): NS, (5, 4): NS, (6, 4): HOUSE,  # d - e
    })
    s = score_sheet(PLAIN, cells, T)
    assert sorted(s.express_sets) == [2, 3] and s.express == 13


def test_express_table_and_extension():
    assert [T.express_points(k) for k in range(1, 7)] == [0, 4, 9, 15, 22, 30]
    assert T.express_points(7) == 39 and T.express_points(8) == 49  # differences 5, 6, 7, 8, 9, 10
    capped = Tables(express_beyond="cap")
    assert capped.express_points(8) == 30


def test_rails_open_only_where_drawn():
    """Orientation matters: a curve that turns away does not link."""
    cells = sheet(PLAIN, {(1, 0): HOUSE, (1, 1): EW, (1, 2): RAIL | W | S, (1, 3): HOUSE})
    assert rail_links(PLAIN, cells) == []
    cells[PLAIN.cell(1, 2)] = EW
    assert rail_links(PLAIN, cells) == [(PLAIN.cell(1, 0), PLAIN.cell(1, 3), 2)]


# ------------------------------------------------------------------ ranch bonus (section 7 (1), 8)
def test_village_of_three_with_flock_of_two_loses_one_house():
    """Village of 3 houses, flock of 2 sheep joined by one contact: 2 paired (+6), 1 short (-5)."""
    cells = sheet(PLAIN, {(1, 1): HOUSE, (1, 2): HOUSE, (1, 3): HOUSE, (2, 1): SHEEP, (3, 1): SHEEP})
    s = score_sheet(PLAIN, cells, T, "normal")
    assert (s.houses, s.paired, s.ranch) == (3, 2, 1)
    # beginner rule 2 (no villages and flocks): only the house touching a sheep pairs: 3 - 10
    assert score_sheet(PLAIN, cells, T, "beginner2").ranch == -7
    # beginner rule 1: count only: 2 sheep for 3 houses: 6 - 5
    assert score_sheet(PLAIN, cells, T, "beginner1").ranch == 1


def test_sheep_next_to_an_unconnected_rail_does_not_pair():
    """The green sheep touches a rail, not a house reached through it: the house scores -5."""
    cells = sheet(PLAIN, {(1, 1): HOUSE, (1, 2): EW, (0, 2): SHEEP})
    s = score_sheet(PLAIN, cells, T)
    assert (s.paired, s.ranch) == (0, -5)


def test_rail_through_a_house_connects_a_sheep():
    """Method 2: house - rail - house - sheep: the far house may take the sheep."""
    with_rail = sheet(PLAIN, {(1, 1): HOUSE, (1, 2): EW, (1, 3): HOUSE, (0, 3): SHEEP, (2, 3): SHEEP})
    assert score_sheet(PLAIN, with_rail, T).ranch == 6
    no_rail = dict.fromkeys([(1, 1), (1, 3)], HOUSE) | {(0, 3): SHEEP, (2, 3): SHEEP}
    assert score_sheet(PLAIN, sheet(PLAIN, no_rail), T).ranch == 3 - 5


def test_sheep_pairs_once():
    """Two houses sharing one adjacent sheep: one pairs, one loses 5."""
    cells = sheet(PLAIN, {(1, 1): HOUSE, (1, 3): HOUSE, (1, 2): SHEEP})
    assert score_sheet(PLAIN, cells, T).ranch == 3 - 5


def test_beginner_rule_1_example():
    """Two houses have a sheep, one has none: 2 x 3 - 5 = 1 (houses and sheep anywhere)."""
    cells = sheet(PLAIN, {(0, 0): HOUSE, (3, 3): HOUSE, (6, 6): HOUSE, (0, 6): SHEEP, (6, 0): SHEEP})
    assert score_sheet(PLAIN, cells, T, "beginner1").ranch == 1
    assert score_sheet(PLAIN, cells, T, "normal").ranch == -15


def test_merged_link_option_joins_village_and_rail():
    """X -rail- Y, village {Y, Z}, three sheep next to Z only. RULINGS: X reaches only sheep next
    to its rail partner Y (none), so Y and Z pair, X is short; ``merged``: X, Y, Z form one group."""
    cells = sheet(PLAIN, {(1, 0): HOUSE, (1, 1): EW, (1, 2): HOUSE, (1, 3): HOUSE,
                          (0, 3): SHEEP, (2, 3): SHEEP, (1, 4): SHEEP})
    assert score_sheet(PLAIN, cells, T, "normal", "rulings").paired == 2
    assert score_sheet(PLAIN, cells, T, "normal", "merged").paired == 3
    assert score_sheet(PLAIN, cells, T, "beginner2", "merged").paired == 1


# ------------------------------------------------------------------ colour area, Alpenzian, residents
def test_colour_area_example_a4_b6():
    """Counts (A, B): (0,0) (3,1) (2,3) (1,2) (2,2): A ticks 2 areas (4 points), B 3 (6)."""
    a = (0, 3, 2, 1, 2)
    b = (0, 1, 3, 2, 2)
    assert colour_points([a, b], T, table_mode=False) == [4, 6]


def test_alpenzian_counts_a_flower_once_per_mountain():
    board = Board.from_rows("m", ["BMB", "MBM", "BMB"])
    cells = sheet(board, {(1, 1): SOLID, (0, 0): OUTLINE, (2, 2): HOUSE})
    assert score_sheet(board, cells, T).alpenzian == 4 + 2


@pytest.mark.parametrize("residents,expected", [
    ([16, 10, 4], [5, 3, 0]),
    ([10, 10, 5], [4, 4, 0]),  # 2 tied for first: 4 each, second scores nothing
    ([10, 10, 10], [3, 3, 3]),
    ([9, 9, 9, 9], [2, 2, 2, 2]),
    ([9, 9, 9, 9, 9], [2, 2, 2, 2, 2]),
    ([12, 8, 8], [5, 2, 2]),  # 2 tied for second: 2 each
    ([12, 8, 8, 8], [5, 1, 1, 1]),
    ([12, 8, 8, 8, 8], [5, 1, 1, 1, 1]),
    ([12, 8], [5, 3]),
])
def test_resident_tie_table(residents, expected):
    assert resident_points(residents, T, table_mode=False) == expected


def test_one_player_tables():
    """9-1: colour 0-2 -> 0, 3 -> 1, 4 -> 2, 5-6 -> 3; residents 0-11 -> 0, 12-14 -> 3, 15+ -> 5."""
    expect = {0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 3}
    for k, pts in expect.items():
        assert colour_points([(k, 0, 0, 0, 0)], T, table_mode=True) == [pts]
    for r, pts in {0: 0, 11: 0, 12: 3, 14: 3, 15: 5, 30: 5}.items():
        assert resident_points([r], T, table_mode=True) == [pts]


def test_title_bands():
    names = [T.titles[T.title(x)][1] for x in (-3, 0, 15, 16, 25, 26, 35, 36, 45, 46, 55, 56, 90)]
    assert names == ["Mayor for a day", "Mayor for a day", "Mayor for a day", "Novice mayor", "Novice mayor",
                     "Beloved mayor", "Beloved mayor", "Reliable mayor", "Reliable mayor", "Master mayor",
                     "Master mayor", "Already a king!", "Already a king!"]


def test_one_player_game_uses_the_tables_by_default():
    g = Alpenzian(1)
    assert g.colour_table and g.resident_table
    g2 = Alpenzian(2, Options(colour_scoring="table"))
    assert g2.colour_table and not g2.resident_table


# ------------------------------------------------------------------ data checks
def test_reference_data_matches_the_rulebook():
    d = load_data()
    names = [s.name for s in d.sheets.sheets]
    assert names == ["A", "B", "C", "D", "E"]
    boards = [s.board() for s in d.sheets.sheets]
    counts = {len(b.drawable) for b in boards}
    assert len(counts) == 1 and next(iter(counts)) % 5 == 0
    for b in boards:
        assert len(b.first_house) == 5 and len(set(b.first_house)) == 5
        assert all(b.terrain[c] < 5 for c in b.first_house)
        assert all(b.colour_cells[c] for c in range(5)) and b.gate >= 0
    # sheet A: the blue squares are in the upper right (9-2 example)
    a = boards[0]
    assert all(a.rc(c)[1] >= a.width // 2 and a.rc(c)[0] < a.height // 2 + 1 for c in a.colour_cells[0])
    # A-C (beginners) open more colours at the gate than D-E (experts), 9-2
    touched = [len({b.terrain[c] for c in b.gate_next}) for b in boards]
    assert min(touched[:3]) > max(touched[3:])
    # ... and their colours come in more pieces (9-2: drawing grows only from same-colour icons)
    patches = [sum(_patches(b, col) for col in range(5)) for b in boards]
    assert min(patches[3:]) > 3 * max(patches[:3])
    t = d.scoring.tables()
    assert d.scoring.dice == 6
    assert t.express == (4, 9, 15, 22, 30)
    assert (t.ranch_paired, t.ranch_unpaired, t.colour_majority, t.resident_first, t.resident_second) == (3, -5, 2, 5, 3)
    assert t.resident_first_tie == (4, 3, 2, 2) and t.resident_second_tie == (2, 1, 1)


def _patches(b, colour: int) -> int:
    """Orthogonally connected pieces of one colour on a sheet."""
    cells, seen, n = set(b.colour_cells[colour]), set(), 0
    for c in cells:
        if c in seen:
            continue
        n += 1
        stack = [c]
        seen.add(c)
        while stack:
            x = stack.pop()
            for j in b.nbr[x]:
                if j in cells and j not in seen:
                    seen.add(j)
                    stack.append(j)
    return n


def test_mountain_contacts_of_the_reference_sheets():
    """Flower-mountain contacts (drawable square, adjacent mountain) per sheet, counted by hand from
    sheets.yaml: A 17, B 17, C 15, D 17, E 17. The expert sheets D-E offer as many as the
    beginner sheets A-C, so their difficulty (9-2) does not come from a smaller Alpenzian bonus."""
    boards = [s.board() for s in load_data().sheets.sheets]
    contacts = [sum(b.mountains_next[c] for c in b.drawable) for b in boards]
    assert contacts == [17, 17, 15, 17, 17]
    assert min(contacts[3:]) >= min(contacts[:3]) and max(contacts[3:]) <= max(contacts[:3])


def test_bad_sheet_file_names_file_line_and_key(tmp_path: Path):
    text = (Path(__file__).resolve().parents[1] / "sim/games/alpenzian/data/sheets.yaml").read_text()
    bad = tmp_path / "sheets.yaml"
    bad.write_text(text.replace("      - M G G G M B M", "      - M G G G M M M", 1))
    with pytest.raises(SimError, match=r"sheets.yaml, line \d+.*same number of drawable squares"):
        load_data({"sheets": bad})
    bad.write_text(text.replace("house: [1, 1], sheep: [4, 4]", "house: [0, 0], sheep: [4, 4]", 1))
    with pytest.raises(SimError, match=r"sheets.yaml, line \d+, key 'sheets.0'.*not a drawable square"):
        load_data({"sheets": bad})


def test_per_seat_options_are_checked():
    from sim.api import OptionError

    # an OptionError names its option, so a config's error points at options.sheet (fresh-user 5, session 7)
    with pytest.raises(OptionError, match="one per seat") as err:
        Alpenzian.build(3, {"sheet": ["A", "B"]})
    assert err.value.key == "sheet"
    with pytest.raises(OptionError, match="unknown value 'F'"):
        Alpenzian.build(2, {"sheet": "F"})
    g = Alpenzian.build(2, {"sheet": ["A", "E"], "ranch_rule": ["normal", "beginner1"]})
    s = g.new_initial_state()
    assert s.sheets == [0, 4] and g.ranch_rules == ("normal", "beginner1")


# ------------------------------------------------------------------ the matcher
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([EMPTY, EMPTY, HOUSE, SHEEP, *STRAIGHT_ICONS, *CURVED_ICONS]), min_size=49, max_size=49),
       st.sampled_from(["normal", "beginner2"]), st.sampled_from(["rulings", "merged"]))
def test_fast_matcher_agrees_with_networkx(cells, rule, link):
    houses, sheep, adj = ranch_graph(PLAIN, cells, rule, link)
    assert fast_matching(adj, len(sheep)) == nx_matching(adj, len(sheep))


# ------------------------------------------------------------------ turn order and the drawing rules
def _start_round(g: Alpenzian, faces=(0, 1, 2, 3, 4, 5)):
    s = g.new_initial_state()
    for _seat in range(g.num_players):
        g.apply_action(s, FirstHouseRoll(0))  # house face: the listed house square
    assert g.current_player(s) == CHANCE
    g.apply_action(s, RollDice(tuple(faces)))
    return s


def _play_first_legal_turn(g, s):
    """Play one player turn with the first legal actions; return the seat that played it."""
    seat, done = s.seat, sum(s.turns)
    while sum(s.turns) == done:
        g.apply_action(s, g.legal_actions(s)[0])
    return seat


@pytest.mark.parametrize("players,order,next_start", [
    (3, [0, 1, 2, 0, 1], 1),  # A, B, C, A, B; next start player B
    (4, [0, 1, 2, 3, 0], 1),  # A, B, C, D, A; next B
    (1, [0, 0, 0, 0, 0], 0),
])
def test_turn_order_and_start_player(players, order, next_start):
    g = Alpenzian(players)
    s = _start_round(g)
    seen = [_play_first_legal_turn(g, s) for _ in range(5)]
    assert seen == order
    assert g.current_player(s) == CHANCE and s.start == next_start
    g.apply_action(s, RollDice((0, 0, 1, 1, 2, 2)))
    assert g.current_player(s) == next_start


def test_first_house_from_the_list_and_outline_choice():
    g = Alpenzian(2)
    b = g.boards[0]
    s = g.new_initial_state()
    g.apply_action(s, FirstHouseRoll(1))  # sheep face: the square marked by the sheep
    assert s.cells[0][b.first_house[1]] == HOUSE
    g.apply_action(s, FirstHouseRoll(5))  # outline flower: seat 1 chooses any listed square
    assert g.current_player(s) == 1
    assert [a.cell for a in g.legal_actions(s)] == sorted(b.first_house)
    g.apply_action(s, PlaceFirstHouse(b.first_house[3]))
    assert s.cells[1][b.first_house[3]] == HOUSE and g.current_player(s) == CHANCE


def test_each_turn_one_unused_die_one_empty_area():
    g = Alpenzian(2)
    s = _start_round(g, (0, 0, 2, 3, 4, 5))
    assert g.legal_actions(s) == (TakeDie(0), TakeDie(2), TakeDie(3), TakeDie(4), TakeDie(5))
    g.apply_action(s, TakeDie(3))
    assert g.legal_actions(s) == tuple(ChooseArea(c) for c in range(5))
    g.apply_action(s, ChooseArea(1))
    legal = g.legal_actions(s)
    red = g.boards[0].colour_cells[1]
    assert {a.cell for a in legal} == {c for c in red if not s.cells[0][c]}
    assert all(a.icon in CURVED_ICONS for a in legal) and len(legal) == 4 * len({a.cell for a in legal})
    g.apply_action(s, legal[0])
    assert g.current_player(s) == 1 and s.phase == DIE
    assert g.legal_actions(s) == (TakeDie(0), TakeDie(2), TakeDie(4), TakeDie(5))  # one house die left
    g.apply_action(s, TakeDie(0))
    assert ChooseArea(1) not in g.legal_actions(s)


def test_forced_area_and_exceptional_rule():
    """5.4 Example 2: blue full on the sheet forces another empty area; Example 1: only blue left
    and blue full: a solid flower in any empty square."""
    g = Alpenzian(1)
    s = _start_round(g)
    b = g.boards[0]
    for c in b.colour_cells[0]:
        if not s.cells[0][c]:
            s.cells[0][c] = SHEEP
            s.left[0] -= 1
    g.apply_action(s, TakeDie(0))
    assert g.legal_actions(s) == tuple(ChooseArea(c) for c in (1, 2, 3, 4))
    # fill every area but blue
    s.areas = [-1, 0, 0, 0, 0]
    s.phase = AREA
    assert g.legal_actions(s) == (ChooseArea(0),)
    g.apply_action(s, ChooseArea(0))
    assert s.phase == SQUARE and s.exceptional
    legal = g.legal_actions(s)
    empty = [c for c in b.drawable if not s.cells[0][c]]
    assert legal == tuple(Draw(c, SOLID) for c in empty)


def test_full_sheet_still_chooses_die_and_area_and_game_ends_when_all_full():
    g = Alpenzian(2)
    s = _start_round(g)
    b = g.boards[0]
    for c in b.drawable:  # seat 0's sheet is full
        if not s.cells[0][c]:
            s.cells[0][c] = SOLID
    s.left[0] = 0
    g.apply_action(s, TakeDie(4))
    assert g.legal_actions(s) == tuple(ChooseArea(c) for c in range(5))
    g.apply_action(s, ChooseArea(2))
    assert s.idle[0] == 1 and g.current_player(s) == 1 and s.phase == DIE
    empty = [c for c in b.drawable if not s.cells[1][c]]
    for c in empty[:-1]:
        s.cells[1][c] = SOLID
    s.left[1] = 1
    g.apply_action(s, TakeDie(1))
    g.apply_action(s, ChooseArea(0) if empty[-1] in b.colour_cells[0] else g.legal_actions(s)[0])
    g.apply_action(s, g.legal_actions(s)[0])
    assert g.current_player(s) == TERMINAL


def test_pioneer_town_conditions():
    """9-2: first house on any blue square; round 1: blue next to the first house, other colours
    touching the gate; later rounds: next to an icon of the same colour."""
    g = Alpenzian(1, Options(pioneer_town=True))
    b = g.boards[0]
    s = g.new_initial_state()
    assert g.current_player(s) == 0
    assert [a.cell for a in g.legal_actions(s)] == list(b.colour_cells[0])
    fh = b.colour_cells[0][0]
    g.apply_action(s, PlaceFirstHouse(fh))
    g.apply_action(s, RollDice((0, 1, 2, 3, 4, 5)))
    g.apply_action(s, TakeDie(1))
    g.apply_action(s, ChooseArea(0))
    assert {a.cell for a in g.legal_actions(s)} == {c for c in b.colour_cells[0] if fh in b.nbr[c]}
    s.phase, s.area, s.face = SQUARE, 4, 1
    assert {a.cell for a in g.legal_actions(s)} == {c for c in b.gate_next if b.terrain[c] == 4}
    s.round = 1
    green = b.colour_cells[4]
    s.cells[0][green[0]] = SHEEP
    expect = {c for c in green if not s.cells[0][c] and green[0] in b.nbr[c]}
    assert {a.cell for a in g.legal_actions(s)} == expect


def test_squares_of_lists_each_areas_squares():
    """``Observation.squares_of`` (the plans' legal areas read the sheet once): per colour area the
    squares of ``squares``, here the pioneer town's first round (9-2): blue beside the first house,
    the other colours touching the gate."""
    g = Alpenzian(1, Options(pioneer_town=True))
    b = g.boards[0]
    s = g.new_initial_state()
    fh = b.colour_cells[0][0]
    g.apply_action(s, PlaceFirstHouse(fh))
    g.apply_action(s, RollDice((0, 1, 2, 3, 4, 5)))
    obs = g.observe(s, 0)
    got = obs.squares_of([0, 1, 2, 3, 4])
    assert got[0] == [c for c in b.colour_cells[0] if fh in b.nbr[c]]
    for colour in range(1, 5):
        assert got[colour] == [c for c in b.gate_next if b.terrain[c] == colour]
    assert got == {c: obs.squares(c) for c in range(5)}
    assert obs.squares_of([3]) == {3: got[3]}


# ------------------------------------------------------------------ whole games
def _walk(game, seed, strategies=None):
    chance, rngs = game_streams(seed, 0, game.num_players)
    strategies = strategies or [make_strategy("random", {}, "alpenzian") for _ in range(game.num_players)]
    return play_game(game, strategies, chance, rngs, max_decisions=game.options.max_decisions, record=True)


@settings(max_examples=25, deadline=None)
@pytest.mark.integration  # many random games; test_conformance checks invariants in the fast suite
@given(st.integers(0, 10**6), st.integers(1, 5), st.booleans())
def test_invariants_under_random_play(seed, players, pioneer):
    g = Alpenzian(players, Options(pioneer_town=pioneer, sheet="random"))
    r = _walk(g, seed)
    s = r.state
    assert not r.truncated and g.current_player(s) == TERMINAL
    total = len(g.boards[0].drawable)
    for seat in range(players):
        b = g.boards[s.sheets[seat]]
        cells = s.cells[seat]
        assert s.left[seat] == 0 and all(cells[c] for c in b.drawable)
        assert all(not cells[c] for c in range(len(cells)) if b.terrain[c] >= 5)
        draws = s.turns[seat] - s.idle[seat]
        assert draws == total - 1  # every non-idle turn draws exactly one icon; the first house is setup
    # every turn of a round: one die, one area; turns per seat differ by at most one round's share
    assert sum(s.turns) == 5 * s.round + s.turn
    # each drawn icon matches the die taken, or is the exceptional solid flower
    faces, drawn = [], []
    for _p, a in r.log:
        if isinstance(a, TakeDie):
            faces.append(a.face)
        elif isinstance(a, Draw):
            drawn.append((faces[-1], a.icon))
    assert all(icon in FACE_ICONS[f] or icon == SOLID for f, icon in drawn)
    scores = g.scores(s)
    assert len(scores) == players and all(math.isfinite(x) for x in scores)


def test_same_seed_same_history():
    g = Alpenzian(4)
    a, b = _walk(g, 11), _walk(g, 11)
    assert a.log == b.log and g.scores(a.state) == g.scores(b.state)
    strat = [make_strategy(n, {}, "alpenzian") for n in ("alpenzian.ranch", "alpenzian.express", "alpenzian.flowers")]
    g3 = Alpenzian(3)
    x, y = _walk(g3, 5, strat), _walk(g3, 5, [make_strategy(n, {}, "alpenzian") for n in
                                              ("alpenzian.ranch", "alpenzian.express", "alpenzian.flowers")])
    assert x.log == y.log


def test_no_leak_and_determinize():
    """Nothing is hidden but future dice: the observation is the whole state, and
    ``determinize`` rebuilds a state whose observation is the same."""
    g = Alpenzian(3, Options(sheet=["A", "D", "E"]))
    r = _walk(g, 2)
    s = g.new_initial_state()
    chance_rng = random.Random(0)
    checked = 0
    for _p, a in r.log:
        seat = g.current_player(s)
        if seat >= 0:
            obs = g.observe(s, seat)
            det = g.determinize(obs, chance_rng)
            assert det == s and g.observe(det, seat) == obs
            assert g.legal_actions(det) == g.legal_actions(s)
            checked += 1
        g.apply_action(s, a)
    assert checked > 100
    # the future: two continuations with different dice leave today's observation unchanged
    s1 = copy.deepcopy(s)
    assert g.observe(s1, 0) == g.observe(s, 0)


def test_roll_chance_outcomes():
    g = Alpenzian(2)
    s = _start_round(g)
    s.phase = 3  # ROLL
    outs = g.chance_outcomes(s)
    assert len(outs) == math.comb(11, 5)  # multisets of 6 dice over 6 faces
    assert math.isclose(sum(p for _, p in outs), 1.0)
    probs = dict(outs)
    assert math.isclose(probs[RollDice((0,) * 6)], 6 ** -6)
    assert math.isclose(probs[RollDice((0, 1, 2, 3, 4, 5))], math.factorial(6) / 6 ** 6)
    rng = random.Random(1)
    counts = [0] * 6
    for _ in range(3000):
        a = g.sample_chance(s, rng)
        assert a in probs
        for f in a.faces:
            counts[f] += 1
    assert all(abs(c / 18000 - 1 / 6) < 0.02 for c in counts)


def test_strategies_beat_random():
    g = Alpenzian(2)
    wins = 0
    for seed in range(4):
        strat = [make_strategy("alpenzian.ranch", {}, "alpenzian"), make_strategy("random", {}, "alpenzian")]
        r = _walk(g, seed, strat)
        sc = g.scores(r.state)
        wins += sc[0] > sc[1]
    assert wins >= 3


def test_metrics_components_summary_describe():
    g = Alpenzian(2, Options(sheet=["B", "C"]))
    r = _walk(g, 4)
    m = g.metrics(r.state)
    sc = g.scores(r.state)
    for seat in range(2):
        parts = sum(m[k][seat] for k in ("ranch_bonus", "colour_bonus", "alpenzian_bonus", "resident_bonus",
                                         "express_bonus"))
        assert parts == sc[seat]
        assert m["unpaired_houses"][seat] == m["houses"][seat] - m["paired_houses"][seat]
    assert m["sheet_type"] == (1.0, 2.0)
    comp = g.components(r.state)
    assert comp["sheet"] == (("B",), ("C",))
    assert g.summary(r.state)["rounds"] >= 2 * 34 / 5
    s = g.new_initial_state()
    assert "rolls house" in g.describe(s, FirstHouseRoll(0))


def test_first_house_note_options_and_random_sheet():
    g = Alpenzian(2, Options(first_house_outline="reroll"))
    outs = g.chance_outcomes(g.new_initial_state())
    assert [a.face for a, _ in outs] == [0, 1, 2, 3, 4] and all(math.isclose(p, 0.2) for _, p in outs)
    g = Alpenzian(2, Options(first_house_distinct=True))
    s = g.new_initial_state()
    g.apply_action(s, FirstHouseRoll(0))
    assert [a.face for a, _ in g.chance_outcomes(s)] == [1, 2, 3, 4, 5]  # the house square is taken
    g.apply_action(s, FirstHouseRoll(5))
    fh = g.boards[0].first_house
    assert [a.cell for a in g.legal_actions(s)] == sorted(set(fh) - {fh[0]})
    g = Alpenzian(3, Options(sheet="random"))
    s = g.new_initial_state()
    outs = g.chance_outcomes(s)
    assert len(outs) == 5 and g.current_player(s) == CHANCE
    g.apply_action(s, outs[3][0])
    assert s.sheets == [3, 3, 3] and g.observe(s, 0).boards[0].name == "D"


def test_run_tables_do_not_depend_on_chunking():
    """What ``--jobs 1`` and ``--jobs 2`` differ in (chunking) leaves every table row unchanged."""
    import polars as pl

    from sim.config import load_config
    from sim.play import play_range as play_chunk
    from sim.runs.fixed import setup_of

    cfg = Path(__file__).resolve().parents[1] / "configs/alpenzian/random4.yaml"
    rc = load_config(cfg, {"games": 6})
    _, _, whole = play_chunk(setup_of(rc).to_json(), 0, 6)
    parts = [play_chunk(setup_of(rc).to_json(), a, b)[2] for a, b in ((0, 2), (2, 5), (5, 6))]
    for name in ("games", "players", "metrics"):
        joined = pl.concat([p[name] for p in parts], how="diagonal_relaxed")
        assert joined.equals(whole[name]), name


@pytest.mark.parametrize("sheet_type", ["A", "C", "D", "E"])
def test_exceptional_rule_never_applies_in_solo_games_on_seven_per_colour_sheets(sheet_type):
    """One player takes all five turns of a round, one per colour area (5.2-2), and must pick an
    area that still has a square (5.4 Example 2). A, C, D and E have 7 squares of each colour:
    the first house takes one square of some colour, six rounds draw one square of every colour
    (that colour is then full, the others have one square each), and in round 7 the last four
    squares fill the sheet before the full colour's area is needed: 5.4 never applies, whatever
    the player does and wherever the first house is."""
    g = Alpenzian(1, Options(sheet=sheet_type))
    for seed in range(4):
        r = _walk(g, seed)
        assert r.state.exceptions == [0]


# ------------------------------------------------------------------ invariants and end reason
@pytest.mark.parametrize("seed", range(20))
def test_check_invariants_after_every_action(seed):
    players = 1 + seed % 5
    g = Alpenzian(players, Options(pioneer_town=seed % 3 == 0, sheet="random"))
    checked = []

    def check(_player, _action):
        checked.append(1)

    chance, rngs = game_streams(seed, 0, players)
    strategies = [make_strategy("random", {}, "alpenzian") for _ in range(players)]
    s = g.new_initial_state()
    g.check_invariants(s)
    while g.current_player(s) != TERMINAL:
        p = g.current_player(s)
        if p == CHANCE:
            a = g.sample_chance(s, chance)
        else:
            a = strategies[p].choose(g.observe(s, p), g.legal_actions(s), rngs[p])
        g.apply_action(s, a)
        g.check_invariants(s)
        checked.append(a)
    assert g.end_reason(s) == "finished" and not g.stalled(s)
    assert len(checked) > 30 * players


def _finished_state(players=2, seed=1):
    g = Alpenzian(players)
    return g, _walk(g, seed).state


@pytest.mark.parametrize(("corrupt", "message"), [
    (lambda g, s: s.cells[0].__setitem__(g.boards[s.sheets[0]].drawable[3], 0), "left differs"),
    (lambda g, s: s.cells[1].__setitem__(next(i for i, t in enumerate(g.boards[s.sheets[1]].terrain) if t >= 5), 3),
     "mountain or gate"),
    (lambda g, s: s.left.__setitem__(0, 1), "left differs"),
    (lambda g, s: s.turns.__setitem__(1, s.turns[1] + 1), "icons drawn"),
    (lambda g, s: s.cells[0].__setitem__(s.first_house[0], 2), "first house"),
    (lambda g, s: s.dice.append(0), "dice"),
    (lambda g, s: s.cells[0].__setitem__(g.boards[s.sheets[0]].drawable[0], 99), "unknown icon"),
])
def test_check_invariants_catches_a_corrupted_state(corrupt, message):
    g, s = _finished_state()
    g.check_invariants(s)
    corrupt(g, s)
    with pytest.raises(AssertionError, match=message):
        g.check_invariants(s)


def test_end_reason_only_at_the_end():
    g = Alpenzian(2)
    s = g.new_initial_state()
    with pytest.raises(ValueError):
        g.end_reason(s)
    g, s = _finished_state()
    assert g.end_reason(s) == "finished"


def test_alpenzian_bonus_example_mountains_a_b_c():
    """7 (3) example: mountain a touches 1 flower (1 point), b a solid and an outline flower (2),
    c two solid and one outline flower (3): the Alpenzian bonus is 1 + 2 + 3 = 6."""
    board = Board.from_rows("abc", ["BBBBBBBBBBB", "BMBBBMBBBMB", "BBBBBBBBBBB"])
    cells = sheet(board, {(0, 1): SOLID,  # a
                          (1, 4): SOLID, (1, 6): OUTLINE,  # b
                          (0, 9): SOLID, (2, 9): SOLID, (1, 10): OUTLINE,  # c
                          (2, 3): SOLID})  # touches no mountain: nothing
    assert score_sheet(board, cells, T).alpenzian == 6


def test_resident_bonus_example_six_houses_four_smiling_flowers():
    """7 (4) example: six houses (12 residents) and four smiling flowers (4) make 16 residents;
    the most residents score 5 (here against 15 and 10)."""
    board = Board.from_rows("r", ["BBBBBBBBBB"])
    cells = sheet(board, {**{(0, c): HOUSE for c in range(6)}, **{(0, c): OUTLINE for c in range(6, 10)}})
    assert score_sheet(board, cells, T).residents == 16
    assert resident_points([16, 15, 10], T, table_mode=False) == [5, 3, 0]


@pytest.mark.parametrize(("players", "value", "table"), [
    (1, "auto", True), (2, "auto", False), (5, "auto", False),
    (2, "table", True), (1, "majority", False), (3, "majority", False),
])
def test_resident_scoring_option(players, value, table):
    """``resident_scoring: auto`` uses the 9-1 table with one player only (9-1 is required there);
    with more players the 7 (4) majority, unless ``table`` is chosen (10-1 (1), optional)."""
    assert Alpenzian(players, Options(resident_scoring=value)).resident_table is table
