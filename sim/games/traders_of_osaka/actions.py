"""Traders of Osaka actions: one frozen class per kind of move (rulebook "Playing the Game").

Cards are integer ids into the game's card table (see ``Card`` in ``observation``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChooseToken:
    """'Preparation' 8: take one achievement token of ``colour`` (colour index)."""

    colour: int


@dataclass(frozen=True, slots=True)
class BuyGoods:
    """'A. Buy Goods': buy every unreserved Market card plus your own reserved one; payment follows."""


@dataclass(frozen=True, slots=True)
class PayCard:
    """Pay for a purchase with hand card ``card``; the purchase completes once the cost is covered."""

    card: int


@dataclass(frozen=True, slots=True)
class TakeCoins:
    """'B. Take Coins': take Market card ``card`` (unreserved or your own reservation) into your hand."""

    card: int


@dataclass(frozen=True, slots=True)
class Reserve:
    """'C. Reserve Cards': put your reservation piece on Market or Farm card ``card``."""

    card: int


@dataclass(frozen=True, slots=True)
class ChoosePayment:
    """Several ships at Edo: the active player picks the colour paid next (RULINGS §2)."""

    colour: int


@dataclass(frozen=True, slots=True)
class Insure:
    """'Insurance': discard hand card ``card`` to insure that many goods of its colour."""

    card: int


@dataclass(frozen=True, slots=True)
class EndInsurance:
    """Stop insuring for this payment."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Offered only when no other action is legal (empty Market and Farm, nothing left to draw)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: card ``card`` is drawn from the draw pile."""

    card: int


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """Chance: the start player among those tied after 'Preparation' 7 (by draw position)."""

    position: int


BUY = BuyGoods()
END_INSURANCE = EndInsurance()
PASS = Pass()
