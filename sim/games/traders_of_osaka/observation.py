"""What one seat of Traders of Osaka may know (RULINGS §2 "Hidden information").

Public: Market, Farm, reservations, everyone's merchandise (and which goods are insured),
achievement tokens, ships, hand sizes, the face-up discard pile, the draw pile's size.
Private to the seat: its own hand and its own VP. Never visible: others' hands and VP, the
draw pile's contents.

The engine hands out lazy views (``sim.api.LazyObservation``, issue 20 item 3): a field is
computed from the state on first access, so a strategy pays only for what it reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.api import LazyObservation, lazy


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``id`` (0..107), ``colour`` (index into ``Observation.colours``), ``value`` (coins),
    ``insurance`` (icons)."""

    id: int
    colour: int
    value: int
    insurance: int


# every field, in the order of the full constructor (the order of the former frozen dataclass)
FIELDS = ("seat", "num_players", "prompt", "active", "cards", "colours", "track", "market", "farm", "reserved",
          "hand", "hand_sizes", "merchandise", "insured", "tokens", "ships", "vp", "draw_pile_size", "discard",
          "cost", "paid", "pending_payments", "sinking", "end_tokens")


@dataclass(frozen=True, eq=False, repr=False)  # a dataclass for fields()/replace(); equality etc. from LazyObservation
class Observation(LazyObservation):
    """A read-only per-seat view. Cards are ids into ``cards`` (the game's card table).

    ``prompt`` says which decision is asked: ``token`` | ``action`` | ``pay`` |
    ``payment_order`` | ``insure`` | ``none``. Seats count from the start player (seat 0), clockwise.

    Fields (shapes): ``seat``, ``num_players``, ``active`` (seat whose turn it is) ints;
    ``cards`` tuple[Card] (the card table, indexed by id); ``colours`` tuple[str]; ``track``
    tuple[str] (space kinds, Osaka first, Edo last); ``market``, ``farm`` tuple[int];
    ``reserved`` tuple[(card id, seat)] for every reservation piece in play; ``hand`` this seat's
    hand only; ``hand_sizes`` tuple[int]; ``merchandise`` per seat tuple[int]; ``insured``
    frozenset of insured merchandise ids (all seats); ``tokens`` per seat, per colour;
    ``ships`` track index per colour; ``vp`` this seat's VP only; ``draw_pile_size``;
    ``discard`` (face up, public); ``cost`` Buy Goods cost now (action prompt) or amount due
    (pay prompt), coins; ``paid`` coins paid so far (pay prompt); ``pending_payments`` colours
    of ships waiting at Edo; ``sinking`` colours of ships about to sink (insure prompt);
    ``end_tokens``.

    ``Observation(*values)`` (the 24 fields in ``FIELDS`` order, or by keyword;
    ``dataclasses.replace`` works too) builds a detached observation with every field given;
    the engine builds lazy views with ``Observation.over(state, game, seat, prompt)``, whose
    fields not read during the decision raise ``StaleObservationError`` afterwards. Each lazy
    field is the default of its dataclass field: the generated ``__init__`` stores given values
    in the instance, where they take precedence over the (non-data) lazy descriptor.
    """

    # the dataclass fields, in FIELDS order; each ``@lazy`` method below is the default of its field
    seat: int = None  # type: ignore[assignment]  (always given: a default only to allow the lazy ones)
    num_players: int
    prompt: str = None  # type: ignore[assignment]
    active: int
    cards: tuple[Card, ...]
    colours: tuple[str, ...]
    track: tuple[str, ...]
    market: tuple[int, ...]
    farm: tuple[int, ...]
    reserved: tuple[tuple[int, int], ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    merchandise: tuple[tuple[int, ...], ...]
    insured: frozenset[int]
    tokens: tuple[tuple[int, ...], ...]
    ships: tuple[int, ...]
    vp: int
    draw_pile_size: int
    discard: tuple[int, ...]
    cost: int
    paid: int
    pending_payments: tuple[int, ...]
    sinking: tuple[int, ...]
    end_tokens: int

    def __post_init__(self) -> None:
        """A detached observation needs every field: a lazy default left in place was not given."""
        d = self.__dict__
        missing = [f for f in FIELDS if isinstance(d[f], lazy) or d[f] is None]
        if missing:
            raise TypeError(f"Observation needs every field; missing: {', '.join(missing)}")

    @classmethod
    def over(cls, state, game, seat: int, prompt: str) -> Observation:
        """A lazy view of ``state`` for ``seat`` (the engine's ``observe``)."""
        view = object.__new__(cls)
        LazyObservation.__init__(view, (state, game), seat, prompt=prompt)
        return view

    # -- constants of the game
    @lazy
    def num_players(self, src) -> int:
        return src[0].n

    @lazy
    def cards(self, src) -> tuple[Card, ...]:
        return src[1].cards

    @lazy
    def colours(self, src) -> tuple[str, ...]:
        return src[1].colours

    @lazy
    def track(self, src) -> tuple[str, ...]:
        return src[1].track

    @lazy
    def end_tokens(self, src) -> int:
        return src[1].options.end_tokens

    # -- the decision
    @lazy
    def active(self, src) -> int:
        return src[0].active

    @lazy
    def cost(self, src) -> int:
        return src[0].due if self.prompt in ("action", "pay") else 0

    @lazy
    def paid(self, src) -> int:
        return src[0].paid if self.prompt == "pay" else 0

    @lazy
    def pending_payments(self, src) -> tuple[int, ...]:
        return tuple(src[0].edo)

    @lazy
    def sinking(self, src) -> tuple[int, ...]:
        return tuple(src[0].sinking)

    # -- public table
    @lazy
    def market(self, src) -> tuple[int, ...]:
        return tuple(src[0].market)

    @lazy
    def farm(self, src) -> tuple[int, ...]:
        return tuple(src[0].farm)

    @lazy
    def reserved(self, src) -> tuple[tuple[int, int], ...]:
        return tuple(src[0].reserved.items())

    @lazy
    def hand_sizes(self, src) -> tuple[int, ...]:
        return tuple(map(len, src[0].hands))

    @lazy
    def merchandise(self, src) -> tuple[tuple[int, ...], ...]:
        return tuple(map(tuple, src[0].goods))

    @lazy
    def insured(self, src) -> frozenset[int]:
        return frozenset(src[0].insured)

    @lazy
    def tokens(self, src) -> tuple[tuple[int, ...], ...]:
        return tuple(map(tuple, src[0].tokens))

    @lazy
    def ships(self, src) -> tuple[int, ...]:
        return tuple(src[0].ships)

    @lazy
    def draw_pile_size(self, src) -> int:
        return len(src[0].draw)

    @lazy
    def discard(self, src) -> tuple[int, ...]:
        return tuple(src[0].discard)

    # -- private to the seat
    @lazy
    def hand(self, src) -> tuple[int, ...]:
        return tuple(src[0].hands[self.seat])

    @lazy
    def vp(self, src) -> int:
        return src[0].vp[self.seat]

    def reserved_by(self, card: int) -> int:
        """Seat holding a reservation on ``card``, or -1."""
        for c, seat in self.reserved:
            if c == card:
                return seat
        return -1

    def has_piece(self, seat: int) -> bool:
        """Whether ``seat`` still holds its reservation piece."""
        return all(s != seat for _, s in self.reserved)
