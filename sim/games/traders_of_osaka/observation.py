"""What one seat of Traders of Osaka may know (RULINGS §2 "Hidden information").

Public: Market, Farm, reservations, everyone's merchandise (and which goods are insured),
achievement tokens, ships, hand sizes, the face-up discard pile, the draw pile's size.
Private to the seat: its own hand and its own VP. Never visible: others' hands and VP, the
draw pile's contents.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``id`` (0..107), ``colour`` (index into ``Observation.colours``), ``value`` (coins),
    ``insurance`` (icons)."""

    id: int
    colour: int
    value: int
    insurance: int


@dataclass(frozen=True, slots=True)
class Observation:
    """A frozen per-seat view. Cards are ids into ``cards`` (the game's card table).

    ``prompt`` says which decision is asked: ``token`` | ``action`` | ``pay`` |
    ``payment_order`` | ``insure`` | ``none``. Seats count from the start player (seat 0), clockwise.
    """

    seat: int
    num_players: int
    prompt: str
    active: int  # seat whose turn it is
    cards: tuple[Card, ...]  # the card table, indexed by card id
    colours: tuple[str, ...]
    track: tuple[str, ...]  # space kinds, Osaka first, Edo last
    market: tuple[int, ...]
    farm: tuple[int, ...]
    reserved: tuple[tuple[int, int], ...]  # (card id, seat) for every reservation piece in play
    hand: tuple[int, ...]  # this seat's hand only
    hand_sizes: tuple[int, ...]
    merchandise: tuple[tuple[int, ...], ...]  # per seat
    insured: frozenset[int]  # ids of insured merchandise (all seats)
    tokens: tuple[tuple[int, ...], ...]  # per seat, per colour
    ships: tuple[int, ...]  # track index per colour
    vp: int  # this seat's VP only
    draw_pile_size: int
    discard: tuple[int, ...]  # face up, public
    cost: int  # Buy Goods cost now (action prompt) or amount due (pay prompt), coins
    paid: int  # coins paid so far (pay prompt)
    pending_payments: tuple[int, ...]  # colours of ships waiting at Edo
    sinking: tuple[int, ...]  # colours of ships about to sink (insure prompt)
    end_tokens: int

    def reserved_by(self, card: int) -> int:
        """Seat holding a reservation on ``card``, or -1."""
        for c, seat in self.reserved:
            if c == card:
                return seat
        return -1

    def has_piece(self, seat: int) -> bool:
        """Whether ``seat`` still holds its reservation piece."""
        return all(s != seat for _, s in self.reserved)
