"""Alpenzian: the forward model (rulebook seeds/001, RULINGS §5).

Flow: (option ``sheet: random``: a chance node picks the sheet type) -> first houses, seat by
seat (a die roll, a chance node; an outline flower or Pioneer Town asks the seat for a square)
-> rounds. A round: the start player rolls all dice (one chance node over the sorted faces),
then five player turns clockwise from the start player; a turn is ``TakeDie`` -> ``ChooseArea``
-> ``Draw`` (no ``Draw`` when the sheet is full). After five turns the start player passes
clockwise. The game ends as soon as every sheet is full (section 6).

Seat 0 is the first start player (setup 3 leaves the choice to the players; the runner rotates
strategies over seats).
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

from sim.api import CHANCE, TERMINAL, GameInfo, SimError

from .actions import (
    CURVED_ICONS,
    F_OUTLINE,
    FACE_ICONS,
    FACE_NAMES,
    HOUSE,
    OUTLINE,
    RAIL,
    SHEEP,
    SOLID,
    STRAIGHT_ICONS,
    ChooseArea,
    ChooseSheet,
    Draw,
    FirstHouseRoll,
    PlaceFirstHouse,
    RollDice,
    TakeDie,
    icon_name,
)
from .observation import Observation
from .rules import AlpenzianData, Options, load_data, per_seat
from .scoring import BLUE, COLOURS, RANCH_RULES, GameScore, fast_matching, score_game, squares_for

SHEET, FIRST_ROLL, FIRST_CHOICE, ROLL, DIE, AREA, SQUARE, END = range(8)
PROMPTS = {FIRST_CHOICE: "first_house", DIE: "die", AREA: "area", SQUARE: "square"}
AREAS = 5


@dataclass(slots=True)  # attribute reads without an instance dict (the engine reads the state at every step)
class State:
    """Plain, picklable game state (everything in it is public)."""

    n: int
    sheets: list[int]  # sheet index per seat (-1 until drawn)
    cells: list[list[int]]  # icon per cell, per seat
    left: list[int]  # empty drawable squares per seat
    phase: int = SHEET
    seat: int = 0  # seat placing its first house, or the active seat in a round
    start: int = 0
    round: int = 0
    turn: int = 0  # player turns taken in this round
    dice: list[int] = field(default_factory=list)  # faces of the unused dice, sorted
    areas: list[int] = field(default_factory=lambda: [-1] * AREAS)  # face placed per colour area
    face: int = -1
    area: int = -1
    exceptional: bool = False
    first_roll: int = -1
    first_house: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)  # player turns per seat
    exceptions: list[int] = field(default_factory=list)  # turns under the exceptional rule 5.4
    idle: list[int] = field(default_factory=list)  # turns with a full sheet (nothing drawn)


class Alpenzian:
    """Alpenzian for 1-5 players. ``Alpenzian(num_players, Options(), load_data())``.

    Raises ``ValueError`` for a player count outside 1-5, ``SimError`` for an option naming an
    unknown sheet or a per-seat list of the wrong length.
    """

    info = GameInfo("alpenzian", "1", 1, 5, "Alpenzian", "seeds/001_e1ea006a8dfc82a5.txt")
    # component kinds that are a function of the final score (the title is its band): the
    # report tabulates them but makes no balance claim about them (fresh-user finding 2, session 7)
    outcome_components = ("title",)
    Options = Options
    lazy_observations = True  # observe() hands out LazyObservation views (issue 20 item 3)

    def __init__(self, num_players: int, options: Options | None = None, data: AlpenzianData | None = None):
        if not self.info.min_players <= num_players <= self.info.max_players:
            raise ValueError(f"Alpenzian takes 1-5 players, not {num_players}")
        self.num_players = n = num_players
        self.options = o = options or Options()
        self.data = data or load_data()
        self.boards = tuple(s.board() for s in self.data.sheets.sheets)
        names = tuple(b.name for b in self.boards)
        self.sheet_names = names
        if o.sheet == "random":
            self.fixed_sheets = None
        else:
            self.fixed_sheets = [names.index(x) for x in per_seat(o.sheet, n, "sheet", names, ("random",))]
        self.ranch_rules = tuple(per_seat(o.ranch_rule, n, "ranch_rule", RANCH_RULES))
        self.colour_table = o.colour_scoring == "table" or (o.colour_scoring == "auto" and n == 1)
        self.resident_table = o.resident_scoring == "table" or (o.resident_scoring == "auto" and n == 1)
        self.tables = self.data.scoring.tables(o.express_min_rails, o.express_beyond)
        self.n_dice = self.data.scoring.dice
        size = max(b.width * b.height for b in self.boards)
        self.n_cells = len(self.boards[0].drawable)
        # action objects are immutable: build each once
        self._take = tuple(TakeDie(f) for f in range(6))
        self._area = tuple(ChooseArea(c) for c in range(AREAS))
        self._first = tuple(FirstHouseRoll(f) for f in range(6))
        self._place = tuple(PlaceFirstHouse(c) for c in range(size))
        self._draw = tuple(tuple(Draw(c, i) for i in range(RAIL + 16)) for c in range(size))
        self._sheet = tuple(ChooseSheet(k) for k in range(len(self.boards)))
        rolls, probs = [], []
        total = 6 ** self.n_dice
        for combo in itertools.combinations_with_replacement(range(6), self.n_dice):
            ways = math.factorial(self.n_dice)
            for f in range(6):
                ways //= math.factorial(combo.count(f))
            rolls.append(RollDice(combo))
            probs.append(ways / total)
        self._rolls = tuple(zip(rolls, probs, strict=True))
        self._roll_of = {r.faces: r for r in rolls}
        self._boards_of: dict[tuple, tuple] = {}
        # legal-action tables: dice left (sorted faces) -> TakeDie choices; 5-bit colour mask -> areas
        self._die_choices: dict[tuple, tuple] = {}
        self._area_sets = tuple(tuple(self._area[c] for c in range(AREAS) if m >> c & 1) for m in range(1 << AREAS))
        self._apply = {TakeDie: self._take_die, ChooseArea: self._choose_area, Draw: self._draw_icon,
                       RollDice: self._roll, FirstHouseRoll: self._first_roll, PlaceFirstHouse: self._first_place,
                       ChooseSheet: self._choose_sheet}
        self._final = None  # (key, GameScore) of the last final_score
        # the views' fields fixed for the whole game, handed over eagerly (a lazy read costs a descriptor call)
        self._constant = (self.ranch_rules, o.ranch_link, self.colour_table, self.resident_table, o.pioneer_town,
                          self.tables)  # in ``observe``'s dict literal: one presized dict, no merge
        self._pioneer = o.pioneer_town  # read at every area step (a pydantic attribute read is slow)

    @classmethod
    def build(cls, num_players: int, options: dict | None = None, data_paths: dict[str, Path] | None = None):
        """Build from raw option values and data paths (validated; ``SimError`` on bad data)."""
        try:
            opts = Options(**(options or {}))
        except Exception as exc:  # pydantic: name the option
            raise SimError(f"Alpenzian options: {exc}") from None
        return cls(num_players, opts, load_data(data_paths))

    # ------------------------------------------------------------------ protocol
    def new_initial_state(self) -> State:
        n = self.num_players
        s = State(n=n, sheets=[-1] * n, cells=[], left=[0] * n, first_house=[-1] * n,
                  turns=[0] * n, exceptions=[0] * n, idle=[0] * n)
        if self.fixed_sheets is not None:
            self._set_sheets(s, self.fixed_sheets)
        return s

    def _set_sheets(self, s: State, sheets: list[int]) -> None:
        s.sheets = list(sheets)
        s.cells = [[0] * (self.boards[k].width * self.boards[k].height) for k in sheets]
        s.left = [len(self.boards[k].drawable) for k in sheets]
        s.seat = 0
        s.phase = FIRST_CHOICE if self.options.pioneer_town else FIRST_ROLL

    def current_player(self, s: State) -> int:
        ph = s.phase
        if ph >= DIE:
            return TERMINAL if ph == END else s.seat
        if ph == FIRST_CHOICE:
            return s.seat
        return CHANCE

    def chance_outcomes(self, s: State) -> tuple:
        ph = s.phase
        if ph == ROLL:
            return self._rolls
        if ph == SHEET:
            p = 1.0 / len(self.boards)
            return tuple((a, p) for a in self._sheet)
        faces = self._first_faces(s)
        p = 1.0 / len(faces)
        return tuple((self._first[f], p) for f in faces)

    def sample_chance(self, s: State, rng):
        """Fast sampler, same distribution as ``chance_outcomes`` (tested)."""
        if s.phase == ROLL:
            faces = sorted(int(rng.random() * 6) for _ in range(self.n_dice))
            return self._roll_of[tuple(faces)]
        if s.phase == SHEET:
            return self._sheet[int(rng.random() * len(self.boards))]
        faces = self._first_faces(s)
        return self._first[faces[int(rng.random() * len(faces))]]

    def legal_actions(self, s: State) -> tuple:
        ph, me = s.phase, s.seat
        if ph == DIE:
            key = tuple(s.dice)  # sorted faces of the unused dice
            got = self._die_choices.get(key)
            if got is None:
                take = self._take
                got = self._die_choices[key] = tuple(take[f] for f in sorted(set(key)))
            return got
        if ph == AREA:
            areas = s.areas
            empties = 0  # bit c: colour area c is still empty
            for c in range(AREAS):
                if areas[c] < 0:
                    empties |= 1 << c
            if s.left[me]:
                avail = 0
                for c in range(AREAS):
                    if empties >> c & 1 and self._has_square(s, me, c):
                        avail |= 1 << c
                if avail:
                    empties = avail
            return self._area_sets[empties]
        if ph == SQUARE:
            draw = self._draw
            if s.exceptional:
                return tuple(draw[c][SOLID] for c in self._exception_squares(s, me))
            icons = FACE_ICONS[s.face]
            return tuple([draw[c][i] for c in self._squares(s, me, s.area) for i in icons])  # a list: a C loop
        if ph == FIRST_CHOICE:
            return tuple(self._place[c] for c in self._first_choices(s))
        return ()

    def apply_action(self, s: State, a) -> None:
        step = self._apply.get(type(a))  # one handler per action class (a dict beats a match on classes)
        if step is None:
            raise ValueError(f"not an Alpenzian action: {a!r}")
        step(s, a)

    def _take_die(self, s: State, a: TakeDie) -> None:
        if s.phase != DIE:
            raise ValueError(f"{a!r} outside a die choice")
        s.dice.remove(a.face)
        s.face, s.phase = a.face, AREA

    def _choose_area(self, s: State, a: ChooseArea) -> None:
        me, colour = s.seat, a.colour
        s.areas[colour] = s.face
        s.area = colour
        if s.left[me] == 0:
            s.idle[me] += 1
            self._end_turn(s)
        else:
            s.exceptional = not self._has_square(s, me, colour)
            if s.exceptional:
                s.exceptions[me] += 1
            s.phase = SQUARE

    def _draw_icon(self, s: State, a: Draw) -> None:
        me, cell = s.seat, a.cell
        cells = s.cells[me]
        if cells[cell]:
            raise ValueError(f"square {cell} of seat {me} is not empty")
        cells[cell] = a.icon
        s.left[me] -= 1
        self._end_turn(s)

    def _roll(self, s: State, a: RollDice) -> None:
        s.dice = list(a.faces)
        s.areas = [-1] * AREAS
        s.turn = 0
        s.seat = s.start
        s.phase = DIE

    def _first_roll(self, s: State, a: FirstHouseRoll) -> None:
        s.first_roll = a.face
        if a.face == F_OUTLINE:
            s.phase = FIRST_CHOICE
        else:
            self._place_first(s, self.boards[s.sheets[s.seat]].first_house[a.face])

    def _first_place(self, s: State, a: PlaceFirstHouse) -> None:
        self._place_first(s, a.cell)

    def _choose_sheet(self, s: State, a: ChooseSheet) -> None:
        self._set_sheets(s, [a.sheet] * s.n)

    def observe(self, s: State, seat: int) -> Observation:
        """The seat's view; its fields are computed on first access (``LazyObservation``)."""
        ph = s.phase
        active = s.seat if DIE <= ph <= SQUARE or ph == FIRST_CHOICE else -1
        rules, link, colour, resident, pioneer, tables = self._constant
        return Observation.of((s, self), seat, {
            "seat": seat, "num_players": s.n, "prompt": PROMPTS.get(ph, "none"), "phase": ph, "active": active,
            "round": s.round, "turn": s.turn, "face": s.face, "ranch_rules": rules, "ranch_link": link,
            "colour_table": colour, "resident_table": resident, "pioneer": pioneer, "tables": tables})

    def boards_of(self, s: State) -> tuple:
        """The ``Board`` of each seat's sheet (``None`` before the sheets are drawn), one tuple per sheet choice."""
        key = tuple(s.sheets)
        boards = self._boards_of.get(key)
        if boards is None:
            boards = self._boards_of[key] = tuple(self.boards[k] if k >= 0 else None for k in key)
        return boards

    def determinize(self, obs: Observation, rng=None) -> State:
        """The state behind ``obs``: Alpenzian hides nothing, so it is rebuilt exactly (``rng`` unused)."""
        s = State(n=obs.num_players, sheets=list(obs.sheet_ids), cells=[list(c) for c in obs.cells],
                  left=list(obs.left), phase=obs.phase, seat=obs.active if obs.active >= 0 else 0,
                  start=obs.start, round=obs.round, turn=obs.turn, dice=list(obs.dice), areas=list(obs.areas),
                  face=obs.face, area=obs.area, exceptional=obs.exceptional, first_roll=obs.first_roll,
                  first_house=list(obs.first_house), turns=list(obs.turns), exceptions=list(obs.exceptions),
                  idle=list(obs.idle))
        if obs.phase == FIRST_ROLL:  # the seat about to roll: the first without a first house
            s.seat = next(i for i, c in enumerate(obs.first_house) if c < 0)
        elif obs.phase == ROLL:
            s.seat = obs.start if obs.turn == 0 else (obs.start + obs.turn) % obs.num_players
        return s

    def final_score(self, s: State) -> GameScore:
        """Every category for every seat (maximum matching for the ranch bonus; the tests check it
        against networkx). The last result is kept: the runner asks for scores, winners, metrics
        and components of the same final state."""
        key = (tuple(s.sheets), tuple(map(tuple, s.cells)))
        if self._final is not None and self._final[0] == key:
            return self._final[1]
        boards = [self.boards[k] for k in s.sheets]
        got = score_game(boards, s.cells, self.tables, self.ranch_rules, self.options.ranch_link,
                         self.colour_table, self.resident_table, fast_matching)
        self._final = (key, got)
        return got

    def scores(self, s: State) -> tuple[float, ...]:
        """Total points per seat (section 7)."""
        if s.sheets[0] < 0:
            return (0.0,) * s.n
        return tuple(float(t) for t in self.final_score(s).total)

    def winners(self, s: State) -> frozenset[int]:
        """Highest total; ties by more house icons; then all tied players win (section 6)."""
        if s.sheets[0] < 0:
            return frozenset(range(s.n))
        g = self.final_score(s)
        key = [(g.total[i], g.sheets[i].houses) for i in range(s.n)]
        best = max(key)
        return frozenset(i for i in range(s.n) if key[i] == best)

    def metrics(self, s: State) -> dict[str, tuple[float, ...]]:
        """Per-seat figures: points by category, houses, sheep, unpaired houses, express sets, sheet type, ..."""
        if s.sheets[0] < 0:
            return {}
        g = self.final_score(s)
        sh = g.sheets
        f = lambda xs: tuple(float(x) for x in xs)  # noqa: E731
        rails = [sum(1 for v in c if v >= RAIL) for c in s.cells]
        return {
            "ranch_bonus": f(x.ranch for x in sh),
            "colour_bonus": f(g.colour),
            "alpenzian_bonus": f(x.alpenzian for x in sh),
            "resident_bonus": f(g.resident),
            "express_bonus": f(x.express for x in sh),
            "houses": f(x.houses for x in sh),
            "sheep": f(x.sheep for x in sh),
            "paired_houses": f(x.paired for x in sh),
            "unpaired_houses": f(x.houses - x.paired for x in sh),
            "express_sets": f(len(x.express_sets) for x in sh),
            "express_houses": f(sum(x.express_sets) for x in sh),
            "rails": f(rails),
            "flowers": f(sum(x.flowers) for x in sh),
            "outline_flowers": f(x.outline for x in sh),
            "residents": f(x.residents for x in sh),
            "sheet_type": f(s.sheets),
            "title_band": f(self.tables.title(t) for t in g.total),
            "exceptional_draws": f(s.exceptions),
            "idle_turns": f(s.idle),
        }

    def summary(self, s: State) -> dict[str, float]:
        """Whole-game figures: rounds, player turns, exceptional draws."""
        return {
            "rounds": float(s.round + (1 if s.turn else 0)),
            "turns": float(sum(s.turns)),
            "exceptional_draws": float(sum(s.exceptions)),
            "idle_turns": float(sum(s.idle)),
        }

    def components(self, s: State) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Per seat: the sheet type, the ranch rule, and the one-player title band reached."""
        if s.sheets[0] < 0:
            return {}
        titles = self.tables.titles
        totals = self.final_score(s).total
        return {
            "sheet": tuple((self.sheet_names[k],) for k in s.sheets),
            "ranch_rule": tuple((r,) for r in self.ranch_rules),
            "title": tuple((titles[self.tables.title(t)][1],) for t in totals),
        }

    def end_reason(self, s: State) -> str:
        """Why the game ended (meaningful once ``current_player(s) == TERMINAL``): always
        ``"finished"`` (section 6: every sheet is full). Alpenzian cannot stall: every player turn
        of a seat with an empty square fills one (5.2-3, or 5.4's solid flower), so the game ends
        after at most (drawable squares - 1) x players turns; no engine cap exists (the runner's
        ``max_decisions`` cap is reported by the runner as ``decision_cap``)."""
        if self.current_player(s) != TERMINAL:
            raise ValueError("end_reason: the game has not ended")
        return "finished"

    def stalled(self, s: State) -> bool:
        """Never: see ``end_reason`` (kept for the runner, which asks every engine)."""
        return False

    def check_invariants(self, s: State) -> None:
        """Consistency of a state (raises ``AssertionError`` with a short message): sheets and
        icons (valid icons on drawable squares only, the first house a house, ``left`` = empty
        squares), turn bookkeeping (turns per round, one icon per non-idle turn, exceptional and
        idle turns within the turns), dice conservation within a round (unused + placed + in hand
        = dice rolled), positions in range, and at the end the total equal to its five categories."""
        n = s.n
        assert len(s.sheets) == n == len(s.left) == len(s.turns) == len(s.exceptions) == len(s.idle), "seat lists"
        assert 0 <= s.start < n and 0 <= s.seat < n and 0 <= s.turn <= AREAS, "position out of range"
        if s.sheets[0] < 0:
            assert s.phase == SHEET and not s.cells, "cells before a sheet"
            return
        valid = {0, HOUSE, SHEEP, SOLID, OUTLINE, *STRAIGHT_ICONS, *CURVED_ICONS}
        for seat in range(n):
            b = self.boards[s.sheets[seat]]
            cells = s.cells[seat]
            assert len(cells) == b.width * b.height, "sheet size"
            assert all(v in valid for v in cells), "unknown icon"
            assert all(not cells[i] for i in range(len(cells)) if b.terrain[i] >= 5), "icon on a mountain or gate"
            empty = sum(1 for i in b.drawable if not cells[i])
            assert s.left[seat] == empty, "left differs from the empty squares"
            fh = s.first_house[seat]
            placed = fh >= 0
            assert not placed or cells[fh] == HOUSE, "first house missing"
            drawn = len(b.drawable) - empty
            assert drawn == placed + s.turns[seat] - s.idle[seat], "icons drawn differ from turns"
            pending = s.phase == SQUARE and seat == s.seat and s.exceptional  # counted at the area choice
            assert 0 <= s.exceptions[seat] <= s.turns[seat] - s.idle[seat] + pending and s.idle[seat] >= 0, \
                "turn counts"
        if s.phase in (DIE, AREA, SQUARE, END) and s.dice:
            used = sum(1 for a in s.areas if a >= 0)
            in_hand = 1 if s.phase == AREA else 0
            assert len(s.dice) + used + in_hand == self.n_dice, "dice lost or duplicated"
            assert used == s.turn + (1 if s.phase == SQUARE else 0), "areas filled differ from turns"
        if s.phase >= ROLL:
            assert sum(s.turns) == AREAS * s.round + s.turn, "turns differ from rounds"
        if s.phase == END:
            g = self.final_score(s)
            for seat, sh in enumerate(g.sheets):
                assert 0 <= sh.paired <= min(sh.houses, sh.sheep), "more pairs than houses or sheep"
                parts = sh.ranch + g.colour[seat] + sh.alpenzian + g.resident[seat] + sh.express
                assert g.total[seat] == parts, "total differs from its categories"

    def clone(self, s: State) -> State:
        """An independent copy (every list copied; the ints inside are immutable): ~10x a deepcopy."""
        c = copy.copy(s)
        c.sheets, c.left, c.dice, c.areas = list(s.sheets), list(s.left), list(s.dice), list(s.areas)
        c.first_house, c.turns, c.exceptions, c.idle = list(s.first_house), list(s.turns), list(s.exceptions), \
            list(s.idle)
        c.cells = [list(x) for x in s.cells]
        return c

    def describe(self, s: State, a) -> str:
        """One log line for ``sim replay``."""
        match a:
            case RollDice(faces):
                return f"chance: start player {s.start} rolls " + ", ".join(FACE_NAMES[f] for f in faces)
            case FirstHouseRoll(face):
                return f"chance: seat {s.seat} rolls {FACE_NAMES[face]} for the first house"
            case ChooseSheet(sheet):
                return f"chance: everyone plays sheet {self.sheet_names[sheet]}"
            case PlaceFirstHouse(cell):
                return f"seat {s.seat}: draws the first house at {self._where(s, cell)}"
            case TakeDie(face):
                return f"seat {s.seat}: takes a die showing {FACE_NAMES[face]}"
            case ChooseArea(colour):
                extra = " (sheet full: draws nothing)" if s.left[s.seat] == 0 else ""
                return f"seat {s.seat}: places it on the {COLOURS[colour]} area{extra}"
            case Draw(cell, icon):
                how = " (exceptional rule)" if s.exceptional else ""
                return f"seat {s.seat}: draws a {icon_name(icon)} at {self._where(s, cell)}{how}"
        return repr(a)

    # ------------------------------------------------------------------ helpers
    def _where(self, s: State, cell: int) -> str:
        b = self.boards[s.sheets[s.seat]]
        r, c = b.rc(cell)
        return f"row {r} column {c} ({COLOURS[b.terrain[cell]]})"

    def _first_faces(self, s: State) -> list[int]:
        """Faces a first-house roll may show (after the Note 1 / Note 2 rerolls the options ask for)."""
        o = self.options
        faces = list(range(5)) if o.first_house_outline == "reroll" else list(range(6))
        if o.first_house_distinct:
            taken = self._taken(s)
            fh = self.boards[s.sheets[s.seat]].first_house
            keep = [f for f in faces if f == F_OUTLINE or fh[f] not in taken]
            if F_OUTLINE in keep and not [c for c in fh if c not in taken]:
                keep.remove(F_OUTLINE)
            faces = keep or faces
        return faces

    def _taken(self, s: State) -> set[int]:
        me = s.sheets[s.seat]
        return {s.first_house[i] for i in range(s.seat) if s.sheets[i] == me}

    def _first_choices(self, s: State) -> list[int]:
        b = self.boards[s.sheets[s.seat]]
        if self.options.pioneer_town:
            return list(b.colour_cells[BLUE])
        cells = sorted(set(b.first_house))
        if self.options.first_house_distinct:
            taken = self._taken(s)
            cells = [c for c in cells if c not in taken] or cells
        return cells

    def _place_first(self, s: State, cell: int) -> None:
        me = s.seat
        s.cells[me][cell] = HOUSE
        s.left[me] -= 1
        s.first_house[me] = cell
        if me + 1 < s.n:
            s.seat = me + 1
            s.first_roll = -1
            s.phase = FIRST_CHOICE if self.options.pioneer_town else FIRST_ROLL
        else:
            s.seat, s.first_roll, s.phase = 0, -1, ROLL

    def _squares(self, s: State, seat: int, colour: int) -> list[int]:
        """Empty squares of ``colour`` where ``seat`` may draw now (Pioneer Town conditions, 9-2 (2))."""
        return squares_for(self.boards[s.sheets[seat]], s.cells[seat], colour, self._pioneer,
                           s.round == 0, s.first_house[seat])

    def _has_square(self, s: State, seat: int, colour: int) -> bool:
        if not self._pioneer:
            cells = s.cells[seat]
            for i in self.boards[s.sheets[seat]].colour_cells[colour]:
                if not cells[i]:
                    return True
            return False
        return bool(self._squares(s, seat, colour))

    def _exception_squares(self, s: State, seat: int) -> list[int]:
        """5.4: a solid flower in any empty square (Pioneer option: meeting 9-2 where possible)."""
        b = self.boards[s.sheets[seat]]
        cells = s.cells[seat]
        if self.options.pioneer_town and self.options.pioneer_exception_restricted:
            ok = sorted(c for col in range(AREAS) for c in self._squares(s, seat, col))
            if ok:
                return ok
        return [i for i in b.drawable if not cells[i]]

    def _end_turn(self, s: State) -> None:
        s.turns[s.seat] += 1
        s.face = s.area = -1
        s.exceptional = False
        s.turn += 1
        if not any(s.left):
            s.phase = END  # section 6: every sheet is full
            return
        if s.turn == AREAS:
            s.round += 1
            s.start = (s.start + 1) % s.n
            s.turn = 0
            s.seat = s.start
            s.phase = ROLL
            return
        s.seat = (s.start + s.turn) % s.n
        s.phase = DIE


GAME = Alpenzian
