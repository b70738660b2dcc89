"""What one seat of Taiwan Formosa may know.

Everything on the table is public: coins, item tiles, stored items, VP (the point track),
time tracks, markers, the face-up landmarks, the building piles. The only hidden thing in the
game is the order of the face-down landmark cards; since every landmark is known, the
observation lists what remains in each deck **sorted** (the order is never stored: each reveal
is a chance node over the remaining cards). Hence every seat sees the same thing, apart from
``seat``.

Card ids index ``cards``: building types first, then landmarks. Items index
``items``: 0 wood, 1 brick, 2 steel, 3 stone, 4 worker, 5 merchant. Seat ``num_players`` in
``areas`` is the two-player neutral colour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card: ``kind`` is basic | exclusive | global | minor_landmark | landmark; ``ability``
    the building's ability key ('' for landmarks); ``region`` the landmark's region (-1 else);
    ``need`` the items paid (wood, brick, steel, stone, worker; the purchase worker included)."""

    id: int
    name: str
    kind: str
    ability: str
    region: int
    time: int
    vp: int
    coins: int
    need: tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class Observation:
    """A frozen per-seat view.

    ``prompt``: dice | action | give | place | warehouse | judicial | discard | none.
    ``actor``: the seat deciding now (-1 at chance nodes and the end).
    Per-seat tuples are indexed by seat. ``track[s]`` holds ``(card, space)`` for seat s's
    uncompleted cards; ``done[s][card]`` counts seat s's completed cards; ``excl[card]`` is the
    seat holding exclusive (red) building ``card``'s ability, or -1.
    """

    seat: int
    num_players: int
    prompt: str
    actor: int
    cards: tuple[CardInfo, ...]
    regions: tuple[str, ...]
    charity: tuple[tuple[int, int, int, int, int, int], ...]  # per region: coins, wood, brick, steel, stone, worker
    # the public state (same names as the engine's state, frozen)
    phase: int
    round: int
    start: int
    pos: int
    types_left: int
    piles: tuple[int, ...]
    lm_top: tuple[int, ...]
    lm_deck: tuple[tuple[int, ...], ...]
    to_reveal: tuple[int, ...]
    coins: tuple[int, ...]
    items: tuple[tuple[int, ...], ...]
    store: tuple[tuple[int, ...], ...]
    vp: tuple[int, ...]
    markers: tuple[int, ...]
    track: tuple[tuple[tuple[int, int], ...], ...]
    done: tuple[tuple[int, ...], ...]
    bought: tuple[tuple[int, ...], ...]
    areas: tuple[tuple[int, ...], ...]
    excl: tuple[int, ...]
    temple_used: tuple[int, ...]
    fac_used: tuple[tuple[int, ...], ...]
    dice: int
    exch_get: int
    gives_left: int
    place: int
    queue: tuple[int, ...]
    last_round: int
    train_bought: int
    hot_spring: tuple[tuple[int, ...], ...]
    vp_done: tuple[int, ...]
    vp_ability: tuple[int, ...]
    vp_uncomp: tuple[int, ...]
    vp_penalty: tuple[int, ...]
    vp_major: tuple[int, ...]
    dice_rolled: tuple[int, ...]
    n_exchanges: tuple[int, ...]
    n_overtime: tuple[int, ...]
    n_charity: tuple[int, ...]
    stalled: bool
    scored: bool

    def available(self, seat: int, item: int) -> int:
        """Items of type ``item`` ``seat`` can spend (tiles in hand plus those stored on cards)."""
        return self.items[seat][item] + self.store[seat][item]
