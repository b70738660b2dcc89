"""Scripted strategies for Forwarder of Xanadu (rulebook seeds/000): three plans and an expert.

All are :class:`~strategies.forwarder_of_xanadu.planner.Planner` (greedy, goal-directed) with
different parameters, documented on each ``Params``:

- ``forwarder.majority``: share-majority rush in the high-mark areas (``mark_weight`` 8),
  transport growth first, bear-cub/vanguard companies.
- ``forwarder.quality``: upgrade to superior/special goods for upper orders; Quality
  Improvement first, upper exclusive orders, machinery guild.
- ``forwarder.economy``: daily cards every round, proxy workers to stretch action counts and
  re-surveys, Warehouse Expansion (replenishment) and Worker Increase; elephant express.
- ``forwarder.expert``: values each order by its VP, its skills, the area-majority VP its share
  token gains or denies, and the company's Final Scoring Skill (``expert.py``).
"""

from __future__ import annotations

from .expert import Expert, ExpertParams
from .planner import Planner
from .plans import Economy, EconomyParams, Majority, MajorityParams, Quality, QualityParams

__all__ = ["Economy", "EconomyParams", "Expert", "ExpertParams", "Majority", "MajorityParams", "Planner", "Quality",
           "QualityParams"]

STRATEGIES = {
    "forwarder.majority": Majority,
    "forwarder.quality": Quality,
    "forwarder.economy": Economy,
    "forwarder.expert": Expert,
}
