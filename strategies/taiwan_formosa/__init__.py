"""Scripted strategies for Taiwan Formosa (``taiwan.*``).

The three greedy plans share one planner (``Planner``): each action-phase decision values every
legal purchase in VP-equivalents (printed VP, the ability over the rounds left, the area-
majority swing of a marker, the end penalty when the card cannot finish in time), buys the
best one worth buying, otherwise exchanges towards the best card it cannot yet afford, spends
leftover workers and merchants (lost at cleanup), and ends the turn. The plans differ in
their weights and in which extra moves they make:

- ``taiwan.landmarks``: landmarks and area majorities; contributes to charity where a marker
  gains the most, rolls many dice for the landmark resources.
- ``taiwan.economy``: an engine first (factories, Night Market, Convenience Store, Lottery
  Office, Warehouse, Tribal Village, Temple), few dice early, points late.
- ``taiwan.tempo``: rolls the most dice every round, values VP now, works overtime with every
  spare worker so cards finish early.

``taiwan.expert`` (``expert.py``) builds on the same planner and uses every mechanic: the
income engine and factories, red cards held and denied, area majorities, landmarks, Train
Station and Baseball Field scoring, and the end's timing. The planner lives in ``planner.py``.
"""

from __future__ import annotations

from pydantic import Field

from .expert import ExpertStrategy
from .planner import Planner


class LandmarkStrategy(Planner):
    """Landmarks and area majorities: landmark bonus, strong majority weight, charity, many dice."""

    class Params(Planner.Params):
        __doc__ = Planner.Params.__doc__
        coin_reserve: int = Field(8, ge=0)
        max_dice: int = Field(6, ge=2, le=7)
        engine_weight: float = Field(0.5, ge=0)
        landmark_bonus: float = Field(3.0, ge=0)
        majority_weight: float = Field(1.5, ge=0)
        charity: float = Field(3.0, ge=0)


class EconomyStrategy(Planner):
    """An income engine first (factories, Night Market, Convenience Store, ...), points later."""

    class Params(Planner.Params):
        __doc__ = Planner.Params.__doc__
        coin_reserve: int = Field(15, ge=0)
        max_dice: int = Field(4, ge=2, le=7)
        engine_weight: float = Field(2.5, ge=0)
        landmark_bonus: float = Field(0.0, ge=0)
        majority_weight: float = Field(0.7, ge=0)
        charity: float = Field(0.0, ge=0)
        min_value: float = Field(1.5)


class TempoStrategy(Planner):
    """Many dice every round, VP now, overtime with every spare worker."""

    class Params(Planner.Params):
        __doc__ = Planner.Params.__doc__
        coin_reserve: int = Field(4, ge=0)
        max_dice: int = Field(7, ge=2, le=7)
        engine_weight: float = Field(0.3, ge=0)
        majority_weight: float = Field(1.0, ge=0)
        overtime: bool = True
        min_value: float = Field(0.5)


__all__ = ["EconomyStrategy", "ExpertStrategy", "LandmarkStrategy", "Planner", "TempoStrategy"]

STRATEGIES = {
    "taiwan.expert": ExpertStrategy,
    "taiwan.landmarks": LandmarkStrategy,
    "taiwan.economy": EconomyStrategy,
    "taiwan.tempo": TempoStrategy,
}
