"""Alpenzian actions and the icon vocabulary (rulebook seeds/001, RULINGS §5).

A player turn is three small decisions: ``TakeDie`` (5.2-1), ``ChooseArea`` (5.2-2) and
``Draw`` (5.2-3; skipped when the sheet is full). Chance: ``ChooseSheet`` (option
``sheet: random``), ``FirstHouseRoll`` (setup 4) and ``RollDice`` (5.1).

Icons on a sheet cell are small ints: ``EMPTY``, ``HOUSE``, ``SHEEP``, ``SOLID`` (solid
flower), ``OUTLINE`` (outline / smiling flower), or ``RAIL | mask`` where ``mask`` holds the
directions the rail opens to (``N``, ``E``, ``S``, ``W``): a straight rail opens to two
opposite sides, a curved rail to two neighbouring sides (RULINGS §5: orientation is part of
the action).
"""

from __future__ import annotations

from dataclasses import dataclass

# die faces (the dice and the first-house list), in canonical order
F_HOUSE, F_SHEEP, F_STRAIGHT, F_CURVED, F_SOLID, F_OUTLINE = range(6)
FACE_NAMES = ("house", "sheep", "straight_rail", "curved_rail", "solid_flower", "outline_flower")

# rail opening directions (bits) and cell icons
N, E, S, W = 1, 2, 4, 8
DIRECTIONS = (N, E, S, W)  # index k: bit 1 << k; the opposite side is index (k + 2) % 4
EMPTY, HOUSE, SHEEP, SOLID, OUTLINE = 0, 1, 2, 3, 4
RAIL = 16
STRAIGHT_ICONS = (RAIL | N | S, RAIL | E | W)
CURVED_ICONS = (RAIL | N | E, RAIL | E | S, RAIL | S | W, RAIL | W | N)
FACE_ICONS = ((HOUSE,), (SHEEP,), STRAIGHT_ICONS, CURVED_ICONS, (SOLID,), (OUTLINE,))
FLOWERS = (SOLID, OUTLINE)


def is_rail(icon: int) -> bool:
    return icon >= RAIL


def is_flower(icon: int) -> bool:
    return icon == SOLID or icon == OUTLINE


def icon_name(icon: int) -> str:
    """Readable name: ``house``, ``sheep``, ``solid flower``, ``outline flower``, ``rail N-S`` ..."""
    if icon >= RAIL:
        sides = "".join(ch for bit, ch in zip(DIRECTIONS, "NESW", strict=True) if icon & bit)
        kind = "straight" if icon in STRAIGHT_ICONS else "curved"
        return f"{kind} rail {sides[0]}-{sides[1]}"
    return ("empty", "house", "sheep", "solid flower", "outline flower")[icon]


@dataclass(frozen=True, slots=True)
class ChooseSheet:
    """Chance (option ``sheet: random``): every seat plays sheet ``sheet`` (index into the sheet list)."""

    sheet: int


@dataclass(frozen=True, slots=True)
class FirstHouseRoll:
    """Chance, setup 4: the seat placing its first house rolls ``face``."""

    face: int


@dataclass(frozen=True, slots=True)
class PlaceFirstHouse:
    """Setup 4 after an outline flower (any listed square), or Pioneer Town 9-2 (1) (any blue square)."""

    cell: int


@dataclass(frozen=True, slots=True)
class RollDice:
    """Chance, 5.1: the start player rolls all dice; ``faces`` sorted ascending."""

    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakeDie:
    """5.2-1: take an unused die showing ``face`` (dice showing the same face are one choice)."""

    face: int


@dataclass(frozen=True, slots=True)
class ChooseArea:
    """5.2-2: place the die on the empty colour area ``colour`` (0 blue, 1 red, 2 yellow, 3 purple, 4 green)."""

    colour: int


@dataclass(frozen=True, slots=True)
class Draw:
    """5.2-3: draw ``icon`` in square ``cell`` (a solid flower anywhere under the exceptional rule 5.4)."""

    cell: int
    icon: int
