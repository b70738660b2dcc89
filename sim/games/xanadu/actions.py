"""Xanadu actions: one frozen class per kind of move (rulebook 'A forduló').

Cards are integer ids into the game's card table (``Observation.cards``); the End of Game card
has id ``len(cards)``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlaceStart:
    """Setup / restart: place hand card ``card`` face down as a starting building (brown first,
    else blue, else yellow)."""

    card: int


@dataclass(frozen=True, slots=True)
class Sell:
    """Phase 1: sell your built card ``card`` to the Khan at its current price."""

    card: int


@dataclass(frozen=True, slots=True)
class EndSelling:
    """Phase 1: sell nothing more."""


@dataclass(frozen=True, slots=True)
class PlaceWorker:
    """Phase 2: put hand card ``worker`` face down on the lowest free box of upright built card
    ``target`` (any player's); the box's resources join this turn's pool."""

    worker: int
    target: int


@dataclass(frozen=True, slots=True)
class Build:
    """Phase 2: build hand card ``card`` (sideways until the end of the turn), paying its cost from
    this turn's pool first, then from permanent resources and the Khan's help."""

    card: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Phase 2 done: draw (phase 3), turn sideways cards upright, forced sales, next player."""


@dataclass(frozen=True, slots=True)
class DrawCards:
    """Phase 3 ('Kártyák húzása', "húzhat": may draw; RULINGS §4): draw ``count`` cards, one of
    ``Observation.draw_choices`` (0 or the allowed number; 0..the room left under 7 after an idle
    turn). Offered only with ``draw: optional`` and when at least one card may be drawn."""

    count: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: card ``card`` is drawn from the draw pile (the End of Game card ends the game)."""

    card: int


END_SELLING = EndSelling()
END_TURN = EndTurn()
