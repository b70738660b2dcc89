"""``forwarder.expert``: the planner with a board-aware valuation (rulebook seeds/000).

It values every order by what it is worth *on this board*: the order's VP, the skills that add
to it, the change in area-majority VP its share token makes at the interim and final scorings
(its own gain plus part of what rivals lose), and what it adds to the company's Final Scoring
Skill. It then plays the planner's turn (orders, daily cards, improvement, transport) with
proxy workers to stretch actions, re-surveys when a Fulfilment would go unused, activated and
disposable skills, and a growth order that completes a track for the machinery guild. It sees
only its observation.
"""

from __future__ import annotations

from pydantic import Field

from sim.games.forwarder_of_xanadu.actions import TRACKS, FulfilDaily, Unlock

from .planner import Planner, best
from .plans import params_with

# the rulebook's scoring tables ('Interim Scoring' after round 3, 'Final Scoring'): (1st, 2nd) by mark 1, 2, 3
INTERIM_ROUND = 3
INTERIM_VP = ((3, 1), (4, 2), (5, 3))
FINAL_VP = ((3, 1), (6, 3), (9, 6))


def ranking(gauge) -> list[int]:
    """Seats on a share gauge, best first: most tokens, then the token further left ('Interim Scoring')."""
    return sorted(set(gauge), key=lambda i: (-gauge.count(i), gauge.index(i)))


def placed(gauge, size: int, seat: int) -> list[int]:
    """The gauge after ``seat`` places a token: leftmost empty space, or the rightmost replaced."""
    return [*gauge, seat] if len(gauge) < size else [*gauge[:-1], seat]


def bonus(gauge, table) -> dict[int, int]:
    """Majority VP by seat for one area under ``table`` = (1st, 2nd)."""
    return {seat: table[k] for k, seat in enumerate(ranking(gauge)[:2])}


_ExpertDefaults = params_with(
    Planner.Params, "_ExpertDefaults", "The planner's parameters with the expert's defaults.", __name__,
    companies=(1, 3, 4, 0, 2),
    growth=("transport", "warehouse", "skill", "workers", "quality"),
    mark_weight=0.0,
    distance_cost=0.3,
    keep_proxies=1,
    resurvey=True,
    skills=("transport_capacity", "order_vp", "fulfil_actions", "transport_actions", "place_resources",
            "extra_fulfil", "extra_transport", "warehouse_capacity", "daily_vp", "replenish", "improve_actions",
            "extra_improve"),
)


class ExpertParams(_ExpertDefaults):
    """Expert parameters: the planner's (see ``Planner.Params``, expert defaults) plus the board-aware
    weights (VP-equivalents)."""

    share_weight: float = Field(1.0, ge=0, description="weight of the area-majority VP a share token gains (interim and final)")
    final_discount: float = Field(0.8, ge=0, le=1, description="weight of final-scoring majority VP (they can still be lost)")
    deny_weight: float = Field(0.4, ge=0, description="weight of the majority VP a token takes from rivals")
    company_weight: float = Field(1.0, ge=0, description="weight of the Final Scoring Skill VP an order or daily adds")
    complete_track: bool = Field(True, description="grow the track closest to completion first when the company scores "
                                                   "full tracks (machinery guild)")


class Expert(Planner):
    """Board-aware planner: majority gains, denial, company skill, every mechanic (see module doc)."""

    Params = ExpertParams

    def _majority_gain(self, obs, x: int) -> float:
        """VP-equivalent of ``obs.seat`` placing a share token at position ``x``."""
        t, p, me = obs.tables, self.p, obs.seat
        g = list(obs.gauges[x])
        after = placed(g, t.gauge_size[obs.area_at[x - 1]], me)
        mark = t.marks[x] - 1
        tables = [(FINAL_VP[mark], p.final_discount)]
        if obs.round <= INTERIM_ROUND:
            tables.append((INTERIM_VP[mark], 1.0))
        gain = 0.0
        for table, weight in tables:
            b0, b1 = bonus(g, table), bonus(after, table)
            mine = b1.get(me, 0) - b0.get(me, 0)
            lost = sum(b0[i] - b1.get(i, 0) for i in b0 if i != me)
            gain += weight * (mine + p.deny_weight * lost)
        return gain

    def _company_gain(self, obs, x: int) -> float:
        """Final Scoring Skill VP a share token at ``x`` adds (companies.yaml vocabulary)."""
        me = obs.seat
        c = obs.company[me]
        if c < 0:
            return 0.0
        effect, amount, per, min_mark = obs.tables.final_skills[c]
        if effect == "per_entry_area":
            return float(amount) if me not in obs.gauges[x] and obs.tables.marks[x] >= min_mark else 0.0
        if effect == "per_share_token":
            return amount / per
        return 0.0

    def _value(self, obs, card, x) -> float:
        t, p, me = obs.tables, self.p, obs.seat
        oc = t.orders[card]
        v = oc.vp + p.upper_weight * oc.grade + self._skill_vp(obs, "order_vp")
        if obs.tokens_left[me]:
            v += p.share_weight * self._majority_gain(obs, x) + p.company_weight * self._company_gain(obs, x)
            v += p.mark_weight * t.marks[x]
        return v

    def _skill_vp(self, obs, effect: str) -> int:
        sk = obs.tables.skills
        return sum(sk[c].amount for c in obs.played[obs.seat] if sk[c].effect == effect)

    def _fulfil_value(self, obs, a):
        v = super()._fulfil_value(obs, a)
        if isinstance(a, FulfilDaily) and v is not None:
            me = obs.seat
            v += self._skill_vp(obs, "daily_vp")
            c = obs.company[me]
            if c >= 0:
                effect, amount, per, _ = obs.tables.final_skills[c]
                if effect == "per_daily":
                    v += self.p.company_weight * amount / per
        return v

    def choose(self, obs, legal, rng):
        if obs.prompt == "grow" and self.p.complete_track:
            c = obs.company[obs.seat]
            if c >= 0 and obs.tables.final_skills[c][0] == "per_full_track":
                self._rng = rng
                return self._grow_complete(obs, legal)
        return super().choose(obs, legal, rng)

    def _grow_complete(self, obs, legal):
        """Machinery guild: the preferred track among those closest to full (3 VP each)."""
        t, lv = obs.tables, obs.levels[obs.seat]
        length = (len(t.warehouse_capacity) - 1, len(t.transport_capacity) - 1, len(t.quality_bonus) - 1, 1, t.skill_spaces)
        rank = {k: i for i, k in enumerate(self.p.growth)}
        unlocks = [a for a in legal if isinstance(a, Unlock)]
        return best(unlocks, lambda a: (-(length[a.track] - lv[a.track]), -rank.get(TRACKS[a.track], 9)), self._rng)
