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

from sim.api import LazyObservation, lazy


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


# The public state, in this order (same names as the engine's state; see ``Observation``).
PUBLIC_FIELDS = (
    "phase", "round", "start", "pos", "types_left", "piles", "lm_top", "lm_deck", "to_reveal", "coins",
    "items", "store", "vp", "markers", "track", "done", "bought", "areas", "excl", "temple_used",
    "fac_used", "dice", "exch_get", "gives_left", "place", "queue", "last_round", "train_bought",
    "hot_spring",
)


@dataclass(frozen=True, slots=True)
class Tables:
    """The game's fixed tables: ``cards`` (building types, then landmarks), ``regions`` (names),
    ``charity`` per region (coins, wood, brick, steel, stone, worker), and the rule constants a
    player knows (from the game's options, in coins or items)."""

    cards: tuple[CardInfo, ...]
    regions: tuple[str, ...]
    charity: tuple[tuple[int, int, int, int, int, int], ...]
    exchange_coins: int = 9
    merchant_coins: int = 2
    exchange_items: int = 3
    die_cost: int = 5
    free_dice: int = 2
    hand_limit: int = 5
    overtime_coins: int = 2
    temple_coins: int = 2
    markers_per_player: int = 7
    temple_limit: str = "per_card"
    uncompleted_penalty: tuple[int, ...] = (2, 3, 4, 5)


# The public fields whose state value is a list of lists (copied as a tuple of tuples); every
# other list is a flat list or a list of tuples (copied as a tuple); the rest are ints.
_NESTED = frozenset({"items", "store"})
_SCALAR = frozenset({"phase", "round", "start", "pos", "types_left", "dice", "exch_get", "gives_left",
                     "place", "last_round", "train_bought"})


class Observation(LazyObservation):
    """A per-seat view whose fields are computed on first access (``sim.api.LazyObservation``,
    issue 20 item 3): a strategy pays only for what it reads, and the view holds no reference to
    the state (fields are copied into tuples).

    Given by the engine: ``seat``, ``num_players``, ``prompt`` (dice | action | give | place |
    warehouse | judicial | discard | none), ``actor`` (the seat deciding now; -1 at chance nodes
    and the end) and ``tables``. The public state, one field each (names as in the engine's
    state; per-seat tuples are indexed by seat):

    - ``phase``, ``round`` (from 1), ``start`` (start seat), ``pos`` (turn position from the start
      player), ``types_left`` (setup draws left);
    - ``piles[card]`` copies left of each building type (0: empty or not in play);
    - ``lm_top[region]`` the face-up landmark or -1; ``lm_deck[region]`` the face-down ones, sorted;
      ``to_reveal`` regions waiting for a reveal;
    - ``coins``, ``items[seat][item]`` (tiles in hand), ``store[seat][item]`` (on Warehouse and
      Tribal Village), ``vp``, ``markers`` (left in supply);
    - ``track[seat]``: ``card, space, card, space, ...`` for the seat's uncompleted cards (see
      ``uncompleted``); ``done[seat][card]`` completed copies; ``bought[seat]`` card ids in order;
    - ``areas[region]``: seats in placement order (seat ``num_players`` is the 2-player neutral);
    - ``excl[card]``: the seat holding exclusive (red) building ``card``'s ability, or -1;
    - ``temple_used``, ``fac_used[seat][resource]`` (this round);
    - ``dice`` declared, ``exch_get``/``gives_left`` (3-item exchange), ``place`` (minor landmark
      waiting for its region), ``queue`` (seats owing a decision), ``last_round`` (final round once
      the end has triggered, else 0), ``train_bought`` (all seats), ``hot_spring[seat]`` (regions,
      only with the 'final' Hot Spring option).

    ``public`` is all of them as one tuple in ``PUBLIC_FIELDS`` order. Built by the engine as
    ``Observation(state, seat, num_players=..., prompt=..., actor=..., tables=...)``.
    """

    @property
    def cards(self) -> tuple[CardInfo, ...]:
        return self.tables.cards

    @property
    def regions(self) -> tuple[str, ...]:
        return self.tables.regions

    @property
    def charity(self) -> tuple[tuple[int, ...], ...]:
        return self.tables.charity

    @lazy
    def public(self, s) -> tuple:
        return tuple(getattr(self, name) for name in PUBLIC_FIELDS)

    def available(self, seat: int, item: int) -> int:
        """Items of type ``item`` ``seat`` can spend (tiles in hand plus those stored on cards)."""
        return self.items[seat][item] + self.store[seat][item]

    def uncompleted(self, seat: int) -> list[tuple[int, int]]:
        """``(card, space)`` for each of ``seat``'s uncompleted cards."""
        t = self.track[seat]
        return [(t[i], t[i + 1]) for i in range(0, len(t), 2)]


def _public(name: str) -> lazy:
    """A public field copied from the state on first access (ints as they are, lists as tuples)."""
    if name in _SCALAR:
        def get(view, s):
            return getattr(s, name)
    elif name in _NESTED:
        def get(view, s):
            return tuple(map(tuple, getattr(s, name)))
    else:
        def get(view, s):
            return tuple(getattr(s, name))
    get.__name__ = name
    return lazy(get)


for _name in PUBLIC_FIELDS:
    setattr(Observation, _name, _public(_name))
    getattr(Observation, _name).__set_name__(Observation, _name)


def area_majority(order: list[int], scoring: int) -> dict[int, int]:
    """'Final Scoring' 3 for one area (the engine scores with it; plans read the board with it): ``order`` lists the seats in placement order; seats
    ``>= scoring`` (the neutral colour) take places but score nothing. Returns seat -> VP."""
    reward = len(order)
    count: dict[int, int] = {}
    first: dict[int, int] = {}
    for i, seat in enumerate(order):
        count[seat] = count.get(seat, 0) + 1
        first.setdefault(seat, i)
    ranked = sorted(count, key=lambda seat: (-count[seat], first[seat]))
    out: dict[int, int] = {}
    for place, seat in enumerate(ranked[:2]):
        if seat < scoring:
            out[seat] = reward * (2 if place == 0 else 1)
    return out
