"""Scripted Alpenzian strategies: plans sharing one evaluator (``planner.Planner``), and the expert.

- ``alpenzian.ranch``: sheep first, safe ranches: unpaired houses cost their full -5 from the
  start, spare sheep next to empty squares are worth keeping.
- ``alpenzian.express``: rail-and-house express lines: open track ends leading from a house
  are valued, express sets weigh more, unpaired houses are tolerated early (sheep come later).
- ``alpenzian.flowers``: flowers on mountain edges and colour majorities: the Alpenzian and
  colour bonuses weigh more, squares beside mountains are kept for flowers.
- ``alpenzian.expert`` (``expert.py``): every category weighed at once, plus die denial.
"""

from __future__ import annotations

from .expert import ExpertParams, ExpertStrategy
from .planner import ExpressParams, Planner, PlanParams


class RanchStrategy(Planner):
    """Sheep first and safe ranches. Params (``PlanParams``): defaults count an unpaired house's -5
    in full from the start and value up to 3 spare sheep beside empty squares at 1.5 points each.
    No ``w_express`` (it was 0.8): like the flowers plan, this plan never values open tracks, so
    it never meets a move completing an express link and the weight changed no decision (issue 17
    item 7; 20 four-player games with 0.8, 1.0 and 7.2 gave the same game logs)."""

    class Params(PlanParams):
        unpaired_early: float = 1.0
        spare_sheep: float = 1.5


class ExpressStrategy(Planner):
    """Rail-and-house express lines. Params (``ExpressParams``): defaults value a track leading from
    a house to an empty square at 2 points per rail (up to 2 rails), weigh the express bonus 1.5,
    and count only 30% of an unpaired house's -5 early in the game."""

    class Params(ExpressParams):
        unpaired_early: float = 0.3
        open_track: float = 2.0
        w_express: float = 1.5
        spare_sheep: float = 0.5


class FlowerStrategy(Planner):
    """Flowers on mountain edges and colour majorities. Params (``PlanParams``): defaults weigh the
    Alpenzian bonus 1.5 and the colour bonus 1.5, add 0.3 points per flower where the seat leads
    a colour, and keep squares beside mountains for flowers (1 point per mountain). No ``w_express``:
    the plan never values open tracks, so it never meets a move completing an express link."""

    class Params(PlanParams):
        w_alpenzian: float = 1.5
        w_colour: float = 1.5
        colour_lead: float = 0.3
        mountain_reserve: float = 1.0
        spare_sheep: float = 0.3


STRATEGIES = {
    "alpenzian.ranch": RanchStrategy,
    "alpenzian.express": ExpressStrategy,
    "alpenzian.flowers": FlowerStrategy,
    "alpenzian.expert": ExpertStrategy,
}

__all__ = ["STRATEGIES", "RanchStrategy", "ExpressStrategy", "FlowerStrategy", "ExpertStrategy", "PlanParams",
           "ExpertParams", "ExpressParams", "Planner"]
