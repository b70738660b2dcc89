"""What one seat of Alpenzian may know: everything on the table.

Alpenzian has no hidden information: every sheet is drawn in the open, the dice are rolled in
the open, and the only unknown is the future dice. A seat's observation therefore holds the
whole public state (which is the whole state). It also carries the sheet geometry (``Board``)
and the scoring tables, and offers the shared scoring functions, so strategies can evaluate
sheets without touching the engine.
"""

from __future__ import annotations

from itertools import compress

from sim.api import LazyObservation, lazy

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
    track_end,
    track_starts,
)

__all__ = ["Observation", "Board", "Tables", "SheetScore", "COLOURS", "BLUE", "MOUNTAIN", "GATE",
           "rail_links", "ranch_graph", "score_sheet", "fast_matching", "squares_for",
           "track_end", "track_starts"]

_IS_FLOWER = frozenset((3, 4)).__contains__  # SOLID, OUTLINE


class Observation(LazyObservation):
    """One seat's view (here: the whole public state), its fields computed on first access
    (``sim.api.LazyObservation``, issue 20 item 3): a strategy pays only for the fields it reads.

    Eager: ``seat``, ``num_players``, ``prompt`` (``first_house`` | ``die`` | ``area`` | ``square`` |
    ``none``), ``phase``, ``active`` (the seat deciding, or -1), ``round``, ``turn`` (player turns
    already taken this round), ``face`` (this turn's die so far, or -1), and the game's constants
    ``ranch_rules``, ``ranch_link``, ``colour_table``, ``resident_table``, ``pioneer``, ``tables``
    (the plans read them at every decision). Lazy (plain ints, bools and tuples; the view holds no
    reference to the state or the game): ``boards``, ``sheet_ids``, ``cells`` (``cells[seat][cell]``
    is an icon, see ``actions``), ``left`` (empty squares per seat), ``start``, ``dice`` (faces of the
    unused dice this round), ``areas`` (``areas[colour]``: the face placed there or -1), ``area``
    (this turn's area so far), ``exceptional`` (the 5.4 rule applies this turn),
    ``first_roll``, ``first_house``, ``turns``, ``exceptions``, ``idle`` (per seat). Built by the
    engine as ``Observation.of((state, game), seat, {"num_players": ..., "prompt": ..., ...})``.
    """

    @lazy
    def boards(self, src) -> tuple[Board | None, ...]:
        return src[1].boards_of(src[0])

    @lazy
    def cells(self, src) -> tuple[tuple[int, ...], ...]:
        return tuple(map(tuple, src[0].cells))

    @lazy
    def ranch_rules(self, src) -> tuple[str, ...]:
        return src[1].ranch_rules

    @lazy
    def ranch_link(self, src) -> str:
        return src[1].options.ranch_link

    @lazy
    def colour_table(self, src) -> bool:
        return src[1].colour_table

    @lazy
    def resident_table(self, src) -> bool:
        return src[1].resident_table

    @lazy
    def pioneer(self, src) -> bool:
        return src[1].options.pioneer_town

    @lazy
    def tables(self, src) -> Tables:
        return src[1].tables

    def as_seat(self, seat: int) -> Observation:
        """The same table seen by ``seat`` (Alpenzian hides nothing, so every field but ``seat`` is
        shared): a detached, fully computed view (used by ``alpenzian.expert`` to value a rival's moves)."""
        fields = self.materialize()
        fields["seat"] = seat
        view = object.__new__(type(self))
        view.__dict__.update(fields)
        return view

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

    def squares_of(self, colours) -> dict[int, list[int]]:
        """``{c: self.squares(c)}`` for the colour areas ``colours`` (this seat's sheet read once)."""
        seat = self.seat
        board, cells, house, pioneer, first = self.boards[seat], self.cells[seat], self.first_house[seat], \
            self.pioneer, self.round == 0
        return {c: squares_for(board, cells, c, pioneer, first, house) for c in colours}

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
        # the colours of the squares holding a flower, picked at C speed (one call per decision and sheet)
        colours = list(compress(self.boards[seat].terrain, map(_IS_FLOWER, self.cells[seat])))
        count = colours.count
        return (count(0), count(1), count(2), count(3), count(4))

    def sheet_residents(self, seat: int) -> int:
        """Residents on ``seat``'s sheet (houses and outline flowers, section 7 (4))."""
        cells = self.cells[seat]
        return self.tables.resident_house * cells.count(1) + self.tables.resident_outline * cells.count(4)


def _public(name: str, as_tuple: bool) -> lazy:
    """A state field copied on first access (a list as a tuple)."""
    if as_tuple:
        def get(view, src):
            return tuple(getattr(src[0], name))
    else:
        def get(view, src):
            return getattr(src[0], name)
    get.__name__ = name
    return lazy(get)


# state fields, in the order of the former frozen dataclass (``sheet_ids`` is the state's ``sheets``)
for _name, _attr, _tuple in (("sheet_ids", "sheets", True), ("left", "left", True), ("start", "start", False),
                             ("round", "round", False), ("turn", "turn", False), ("dice", "dice", True),
                             ("areas", "areas", True), ("face", "face", False), ("area", "area", False),
                             ("exceptional", "exceptional", False), ("first_roll", "first_roll", False),
                             ("first_house", "first_house", True), ("turns", "turns", True),
                             ("exceptions", "exceptions", True), ("idle", "idle", True)):
    _f = _public(_attr, _tuple)
    setattr(Observation, _name, _f)
    _f.__set_name__(Observation, _name)
