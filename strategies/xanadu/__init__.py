"""Scripted Xanadu strategies (``xanadu.*``). They see only the seat's ``Observation`` and the
legal actions (DESIGN "Strategies"), and break ties among equally valued actions with their
``rng`` (never by seat, list position or card id).

- ``xanadu.builder``: build cheap cards fast, sell early at modest prices, keep hands flowing.
- ``xanadu.saboteur``: build the dearest card it can pay, raise its own cards' prices with spare
  workers and sabotage the leader's cards; sell at the top of a card's price curve.
- ``xanadu.hoarder``: keep yellow and green cards in hand (the last cards used as workers), refill the hand with
  idle turns, build only luxuries when possible and sell them at high prices.

No plan ends a turn that changes nothing (the stall rule, RULINGS §4; issue 17): with a full hand
and nothing sold or placed, a plan sells a card or covers an own card's last box (``plans.py``
``_Base.unstick_sale`` and ``cycle_worker``).
- ``xanadu.expert``: values every worker by its resources, price changes, Khan's help and denial,
  times sales against the other seats' workers and the draws against the End card
  (``strategies/xanadu/expert.py``).
"""

from __future__ import annotations

from .expert import Expert
from .helpers import available, permanent, pick, plan_workers, price, table, wealth
from .plans import Builder, Hoarder, Saboteur

STRATEGIES = {"xanadu.builder": Builder, "xanadu.saboteur": Saboteur, "xanadu.hoarder": Hoarder,
              "xanadu.expert": Expert}

__all__ = ["STRATEGIES", "Builder", "Expert", "Hoarder", "Saboteur", "available", "permanent", "pick", "plan_workers",
           "price", "table", "wealth"]
