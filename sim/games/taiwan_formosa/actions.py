"""Taiwan Formosa actions: one frozen class per kind of move (rulebook "Gameplay").

Cards are integer ids into the game's card table (``Observation.cards``): building types
first, then landmarks. Items are indices into ``ITEMS``: 0 wood, 1 brick, 2 steel, 3 stone,
4 worker, 5 merchant. Regions are indices into ``Observation.regions``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DrawType:
    """Chance ('Game Setup' 1): building type ``card`` is drawn into play."""

    card: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance ('Game Setup' 2, 2-2): landmark ``card`` is turned face up on its region's deck."""

    card: int


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """Chance ('Game Setup' 5): ``seat`` is the start player."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseDice:
    """'1. Dice Phase': declare ``count`` dice and pay for those beyond the free ones."""

    count: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the dice show ``faces`` (how many of each item, in ``ITEMS`` order)."""

    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BuyBuilding:
    """2-1: buy the top card of building pile ``card``. ``subs[r]`` resources of type r are paid
    as coins through factories (Sawmill, Brickworks, Steelworks, Stone Factory)."""

    card: int
    subs: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class BuyLandmark:
    """2-2: buy face-up landmark ``card`` (its marker follows); ``subs`` as for ``BuyBuilding``."""

    card: int
    subs: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Exchange:
    """2-3: gain 1 of item ``get`` (a resource or a worker) by ``via``: ``coins`` (a),
    ``merchant`` (merchant + coins, c) or ``items`` (3 items, a: chosen next with ``Give``)."""

    get: int
    via: str


@dataclass(frozen=True, slots=True)
class Give:
    """2-3 a: give 1 of item ``item`` towards a 3-item exchange."""

    item: int


@dataclass(frozen=True, slots=True)
class Overtime:
    """2-4: pay 1 worker + 2 coins to move your uncompleted ``card`` on ``space`` one space
    toward completion (RULINGS §3; not from space 1)."""

    card: int
    space: int


@dataclass(frozen=True, slots=True)
class Charity:
    """2-5: pay the region's contribution and place a marker in ``region``."""

    region: int


@dataclass(frozen=True, slots=True)
class UseTemple:
    """Temple: pay 2 coins for 2 VP (once per round per completed Temple)."""


@dataclass(frozen=True, slots=True)
class PlaceMarkers:
    """Hot Spring Hotel / Public Art Installation: place the card's marker(s) in ``region``
    (-1: place none; offered only with the option ``minor_landmark_markers: optional``)."""

    region: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard 1 resource ``item`` (Cleanup hand limit, or the Judicial Court)."""

    item: int


@dataclass(frozen=True, slots=True)
class StockWarehouse:
    """Warehouse completed: place 3 resources of type ``item`` on it."""

    item: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your action-phase turn."""


END_TURN = EndTurn()
USE_TEMPLE = UseTemple()
