"""Forwarder of Xanadu actions: one frozen class per kind of move (rulebook "How to Play").

Locations are 0 (Hotan Port) or a layout position 1..9 (see ``Observation.area_at``). Resource
grades are 0 standard, 1 superior, 2 special. Action kinds are 0 Transport, 1 Improvement,
2 Order Fulfilment. Cards are integer ids into the game's tables (``Observation.orders``,
``Observation.skills``).
"""

from __future__ import annotations

from dataclasses import dataclass

TRANSPORT, IMPROVE, FULFIL = 0, 1, 2
ACTION_NAMES = ("Transport", "Improvement", "Order Fulfilment")
GRADES = ("standard", "superior", "special")
TRACKS = ("warehouse", "transport", "quality", "workers", "skill")
WAREHOUSE, TRANSPORT_TRACK, QUALITY, WORKERS, SKILL = range(5)


# ---------------------------------------------------------------- decisions
@dataclass(frozen=True, slots=True)
class ChooseCompany:
    """'Player Preparation': take company ``company`` (index into ``Observation.companies``)."""

    company: int


@dataclass(frozen=True, slots=True)
class DraftPick:
    """'Custom': keep skill card ``card`` from the hand being drafted, pass the rest left."""

    card: int


@dataclass(frozen=True, slots=True)
class PlaceProxy:
    """'Action Count Adjustment': fill the leftmost free space of ``action`` with a proxy worker.
    The turn's worker (and any further proxy) must then go on the same action (RULINGS §6)."""

    action: int


@dataclass(frozen=True, slots=True)
class Resurvey:
    """'Market Re-survey': return a proxy worker, draw a ``grade`` (0 lower, 1 upper) order as a
    temporary Exclusive Order for this turn."""

    grade: int


@dataclass(frozen=True, slots=True)
class UseDisposable:
    """'Disposable Skills': apply skill card ``card`` from hand once and discard it."""

    card: int


@dataclass(frozen=True, slots=True)
class PlaceWorker:
    """'1. Main Phase': place a worker on the leftmost free space of ``action``."""

    action: int


@dataclass(frozen=True, slots=True)
class PlaceResource:
    """Put one gained (or replenished) standard resource at location ``loc``."""

    loc: int


@dataclass(frozen=True, slots=True)
class Move:
    """'Transport': move ``std``/``sup``/``spe`` resources from ``src`` to adjacent ``dst``."""

    src: int
    dst: int
    std: int
    sup: int
    spe: int


@dataclass(frozen=True, slots=True)
class Improve:
    """'Improvement': raise one ``grade`` resource at ``loc`` (port or office) by one grade."""

    loc: int
    grade: int


@dataclass(frozen=True, slots=True)
class FulfilOrder:
    """'Market / Exclusive Order': achieve order ``card`` paying ``std``/``sup``/``spe`` from
    the warehouse at position ``loc`` (an area with the card's icon)."""

    card: int
    loc: int
    std: int
    sup: int
    spe: int


@dataclass(frozen=True, slots=True)
class FulfilDaily:
    """'Daily': achieve face-up daily card ``daily`` (0 or 1) paying ``std``/``sup``/``spe``
    from the port and the office (port first)."""

    daily: int
    std: int
    sup: int
    spe: int


@dataclass(frozen=True, slots=True)
class UseSkill:
    """'Skill Cost': pay the proxy workers of played skill ``card`` for one more action."""

    card: int


@dataclass(frozen=True, slots=True)
class EndAction:
    """Stop performing the action (leave the remaining count unused); ends the turn."""


@dataclass(frozen=True, slots=True)
class Unlock:
    """'Company Growth': remove the leftmost proxy worker of growth track ``track``."""

    track: int


@dataclass(frozen=True, slots=True)
class PlaceOffice:
    """'Transport Enhancement': build the office at Market Entry Area position ``loc``."""

    loc: int


@dataclass(frozen=True, slots=True)
class PostponeOffice:
    """Do not build the office now (it may be built at a later growth)."""


@dataclass(frozen=True, slots=True)
class PlaySkill:
    """'Skill': play skill card ``card`` face up on the space just unlocked."""

    card: int


@dataclass(frozen=True, slots=True)
class SkipSkill:
    """Leave the skill space just unlocked empty (the chance to play is lost)."""


@dataclass(frozen=True, slots=True)
class SwapExclusive:
    """'Quality Improvement' 3rd space: discard the Exclusive Order and draw an upper one."""


@dataclass(frozen=True, slots=True)
class KeepExclusive:
    """Keep the current Exclusive Order."""


@dataclass(frozen=True, slots=True)
class RefillExclusive:
    """End of turn: refill the empty Exclusive Order from the ``grade`` pile (1 only with
    Quality Improvement's 3rd space)."""

    grade: int


@dataclass(frozen=True, slots=True)
class ChooseStart:
    """Start player after a full cycle (option ``start_player_tie: choice``): give it to ``seat``."""

    seat: int


# ---------------------------------------------------------------- chance
@dataclass(frozen=True, slots=True)
class LayArea:
    """Chance: area ``area`` is placed on the next layout position."""

    area: int


@dataclass(frozen=True, slots=True)
class DrawOrder:
    """Chance: order card ``card`` is drawn."""

    card: int


@dataclass(frozen=True, slots=True)
class DealCompany:
    """Chance (option ``company_choice: random``): the next seat gets company ``company``."""

    company: int


@dataclass(frozen=True, slots=True)
class DealSkill:
    """Chance: skill card ``card`` is dealt."""

    card: int


END_ACTION = EndAction()
POSTPONE_OFFICE = PostponeOffice()
SKIP_SKILL = SkipSkill()
SWAP_EXCLUSIVE = SwapExclusive()
KEEP_EXCLUSIVE = KeepExclusive()
