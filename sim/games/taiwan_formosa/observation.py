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


@dataclass(frozen=True, slots=True)
class Observation:
    """A frozen per-seat view.

    ``prompt``: dice | action | give | place | warehouse | judicial | discard | none.
    ``actor``: the seat deciding now (-1 at chance nodes and the end).
    ``public`` holds the public state as a tuple, read through these attributes (per-seat
    tuples are indexed by seat):

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
    """

    seat: int
    num_players: int
    prompt: str
    actor: int
    tables: Tables
    public: tuple

    @property
    def cards(self) -> tuple[CardInfo, ...]:
        return self.tables.cards

    @property
    def regions(self) -> tuple[str, ...]:
        return self.tables.regions

    @property
    def charity(self) -> tuple[tuple[int, ...], ...]:
        return self.tables.charity

    def available(self, seat: int, item: int) -> int:
        """Items of type ``item`` ``seat`` can spend (tiles in hand plus those stored on cards)."""
        return self.public[10][seat][item] + self.public[11][seat][item]

    def uncompleted(self, seat: int) -> list[tuple[int, int]]:
        """``(card, space)`` for each of ``seat``'s uncompleted cards."""
        t = self.public[14][seat]
        return [(t[i], t[i + 1]) for i in range(0, len(t), 2)]


def _public(i: int) -> property:
    return property(lambda self: self.public[i], doc=f"public state item {PUBLIC_FIELDS[i]!r}")


for _i, _name in enumerate(PUBLIC_FIELDS):
    setattr(Observation, _name, _public(_i))


_new = object.__new__
_SET = tuple(Observation.__dict__[f].__set__ for f in ("seat", "num_players", "prompt", "actor", "tables", "public"))


def make_observation(seat: int, num_players: int, prompt: str, actor: int, tables: Tables, public: tuple) -> Observation:
    """``Observation(...)`` without the frozen dataclass's per-field ``object.__setattr__``
    (twice as fast; the engine calls it at every decision). Equal to the plain constructor."""
    o = _new(Observation)
    s0, s1, s2, s3, s4, s5 = _SET
    s0(o, seat)
    s1(o, num_players)
    s2(o, prompt)
    s3(o, actor)
    s4(o, tables)
    s5(o, public)
    return o
