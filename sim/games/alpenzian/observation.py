"""What one seat of Alpenzian may know: everything on the table.

Alpenzian has no hidden information: every sheet is drawn in the open, the dice are rolled in
the open, and the only unknown is the future dice. A seat's observation therefore holds the
whole public state (which is the whole state). It also carries the sheet geometry (``Board``)
and the scoring tables, and offers the shared scoring functions, so strategies can evaluate
sheets without touching the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import (  # re-exported for strategies: the public scoring vocabulary
    BLUE,
    COLOURS,
    GATE,
    MOUNTAIN,
    Board,
    SheetScore,
    Tables,
    fast_matching,
    rail_links,
    ranch_graph,
    score_sheet,
    squares_for,
)

__all__ = ["Observation", "Board", "Tables", "SheetScore", "COLOURS", "BLUE", "MOUNTAIN", "GATE",
           "rail_links", "ranch_graph", "score_sheet", "fast_matching", "squares_for"]


@dataclass(frozen=True, slots=True)
class Observation:
    """A frozen per-seat view (here: the whole public state).

    ``prompt``: ``first_house`` | ``die`` | ``area`` | ``square`` | ``none``. ``active`` is the seat
    deciding (or -1). ``cells[seat][cell]`` is an icon (see ``actions``). ``dice`` are the faces of
    the unused dice this round; ``areas[colour]`` is the face placed on that colour area or -1.
    ``face``/``area`` are this turn's choices so far; ``exceptional``: the 5.4 rule applies this turn.
    """

    seat: int
    num_players: int
    prompt: str
    phase: int
    active: int
    boards: tuple[Board | None, ...]
    sheet_ids: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]
    left: tuple[int, ...]  # empty squares per seat
    ranch_rules: tuple[str, ...]
    ranch_link: str
    colour_table: bool
    resident_table: bool
    pioneer: bool
    tables: Tables
    start: int
    round: int
    turn: int  # player turns already taken in this round
    dice: tuple[int, ...]
    areas: tuple[int, ...]
    face: int
    area: int
    exceptional: bool
    first_roll: int
    first_house: tuple[int, ...]
    turns: tuple[int, ...]
    exceptions: tuple[int, ...]
    idle: tuple[int, ...]

    @property
    def board(self) -> Board:
        """This seat's sheet geometry."""
        return self.boards[self.seat]

    @property
    def my_cells(self) -> tuple[int, ...]:
        return self.cells[self.seat]

    def sheet_score(self, seat: int, cells=None) -> SheetScore:
        """The own-sheet figures of ``seat`` (or of ``cells`` drawn on that seat's sheet)."""
        return score_sheet(self.boards[seat], self.cells[seat] if cells is None else cells, self.tables,
                           self.ranch_rules[seat], self.ranch_link, fast_matching)

    def squares(self, colour: int, seat: int | None = None) -> list[int]:
        """Empty squares of ``colour`` where ``seat`` (default: this seat) may draw now (5.2-3, 9-2)."""
        seat = self.seat if seat is None else seat
        return squares_for(self.boards[seat], self.cells[seat], colour, self.pioneer, self.round == 0,
                           self.first_house[seat])

    def legal_areas(self, seat: int | None = None) -> list[int]:
        """Colour areas ``seat`` may choose now (5.2-2 and the forced-area rule of 5.4)."""
        seat = self.seat if seat is None else seat
        empties = [c for c in range(5) if self.areas[c] < 0]
        if self.left[seat]:
            avail = [c for c in empties if self.squares(c, seat)]
            if avail:
                return avail
        return empties

    def sheet_flowers(self, seat: int) -> tuple[int, ...]:
        """Flowers (solid + outline) per colour area on ``seat``'s sheet."""
        out = [0, 0, 0, 0, 0]
        terrain = self.boards[seat].terrain
        for i, v in enumerate(self.cells[seat]):
            if v == 3 or v == 4:  # SOLID, OUTLINE
                out[terrain[i]] += 1
        return tuple(out)

    def sheet_residents(self, seat: int) -> int:
        """Residents on ``seat``'s sheet (houses and outline flowers, section 7 (4))."""
        cells = self.cells[seat]
        return self.tables.resident_house * cells.count(1) + self.tables.resident_outline * cells.count(4)
