"""Scripted strategies for Forwarder of Xanadu: three plans on one greedy planner.

Every plan picks a *goal* each decision (the order card and area with the best value for the
effort of bringing resources there), then places workers, gained resources, transports,
improvements and fulfilments toward it. The plans differ by their parameters (documented on
each ``Params``): which company and growth they want, what they value (area marks, upper
orders, daily cards, unused proxy workers) and how they use proxy workers.

- ``forwarder.majority``: share-majority rush in the high-mark areas (areas marked 2-3 count
  extra), transport growth first, bear-cub/vanguard companies.
- ``forwarder.quality``: upgrade to superior/special goods for upper orders; Quality
  Improvement first, upper exclusive orders, machinery guild.
- ``forwarder.economy``: daily cards every round, proxy workers to stretch action counts and
  re-surveys, Warehouse Expansion (replenishment) and Worker Increase; elephant express.
"""

from __future__ import annotations

from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from sim.games.forwarder_of_xanadu.actions import (
    FULFIL,
    IMPROVE,
    TRACKS,
    TRANSPORT,
    ChooseStart,
    DraftPick,
    EndAction,
    FulfilDaily,
    FulfilOrder,
    Improve,
    KeepExclusive,
    Move,
    PlaceOffice,
    PlaceProxy,
    PlaceWorker,
    PlaySkill,
    PostponeOffice,
    RefillExclusive,
    Resurvey,
    SwapExclusive,
    UseDisposable,
    UseSkill,
)
from strategies.common import ScriptedStrategy

EFFECTS = ("transport_capacity", "warehouse_capacity", "improve_actions", "transport_actions", "fulfil_actions",
           "order_vp", "daily_vp", "replenish", "place_resources", "extra_transport", "extra_improve", "extra_fulfil")


def _can_pay(cost, s, u, p) -> bool:
    rs, ru, rp = cost
    return p >= rp and u + p >= ru + rp and s + u + p >= rs + ru + rp


class Planner(ScriptedStrategy):
    """Greedy goal-directed player (base of the three plans; usable directly with any params)."""

    games = ("forwarder_of_xanadu",)

    class Params(ScriptedStrategy.Params):
        """Parameters of the goal-directed planner (VP are victory points)."""

        companies: tuple[int, ...] = Field((3, 1, 4, 0, 2), description="company indices in order of preference")
        growth: tuple[str, ...] = Field(("transport", "warehouse", "skill", "quality", "workers"),
                                        description="growth tracks in order of preference")
        mark_weight: float = Field(1.0, ge=0, description="VP-equivalent per area mark of the share token an order places")
        upper_weight: float = Field(0.0, description="extra VP-equivalent for an upper-grade order")
        daily_weight: float = Field(0.0, description="extra VP-equivalent for a daily card")
        distance_cost: float = Field(1.0, ge=0, description="VP-equivalent cost per missing resource per transport step")
        upgrade_cost: float = Field(1.0, ge=0, description="VP-equivalent cost per improvement a goal still needs")
        proxy_adjust: bool = Field(True, description="use proxy workers to raise a Fulfilment's action count")
        keep_proxies: int = Field(2, ge=0, description="proxy workers kept in reserve (final VP: 1 per 2)")
        resurvey: bool = Field(False, description="re-survey the Market with a spare proxy worker when no goal is near")
        refill_upper: bool = Field(False, description="refill the Exclusive Order from the upper pile when allowed")
        stock_superior: int = Field(0, ge=0, description="superior/special resources to keep at the port before transporting")
        skills: tuple[str, ...] = Field(EFFECTS, description="skill effects in order of preference")

    # ------------------------------------------------------------------ helpers
    def _orders(self, obs):
        cards = list(obs.market)
        if obs.excl[obs.seat] >= 0:
            cards.append(obs.excl[obs.seat])
        return cards + list(obs.temp)

    def _icons(self, obs, x):
        return obs.tables.area_icons[obs.area_at[x - 1]]

    def _value(self, obs, card, x) -> float:
        t, p = obs.tables, self.p
        oc = t.orders[card]
        v = oc.vp + p.upper_weight * oc.grade
        if obs.tokens_left[obs.seat]:
            v += p.mark_weight * t.marks[x]
        return v

    def _goal(self, obs):
        """(card, position, score) of the best order to work toward, or None."""
        t, p, me = obs.tables, self.p, obs.seat
        w = obs.wh[me]
        port = (w[0], w[1], w[2])
        best = None
        for card in self._orders(obs):
            oc = t.orders[card]
            rs, ru, rp = oc.cost
            for x in range(1, 10):
                if oc.type not in self._icons(obs, x):
                    continue
                s, u, q = w[3 * x], w[3 * x + 1], w[3 * x + 2]
                miss_up = max(0, ru + rp - (u + q))
                missing = max(0, rs + ru + rp - (s + u + q), miss_up)
                miss_sp = max(0, rp - q)
                # improvements the port still needs for the missing upper resources
                upg = max(0, miss_up - port[1] - port[2]) + max(0, miss_sp - port[2])
                d = t.distance[0][x]
                effort = p.distance_cost * missing * d + p.upgrade_cost * upg
                score = self._value(obs, card, x) / (1.0 + effort)
                if best is None or score > best[2]:
                    best = (card, x, score)
        return best

    def _fulfillable(self, obs) -> tuple[int, int]:
        """(market/exclusive orders payable now, daily cards payable now)."""
        t, me = obs.tables, obs.seat
        w = obs.wh[me]
        k = 0
        for card in self._orders(obs):
            oc = t.orders[card]
            if any(oc.type in self._icons(obs, x) and _can_pay(oc.cost, w[3 * x], w[3 * x + 1], w[3 * x + 2])
                   for x in range(1, 10)):
                k += 1
        off = obs.office[me]
        s, u, q = w[0], w[1], w[2]
        if off > 0:
            s, u, q = s + w[3 * off], u + w[3 * off + 1], q + w[3 * off + 2]
        d = sum(1 for i, up in enumerate(obs.dailies[me]) if up and _can_pay(t.daily[i][0], s, u, q))
        return k, d

    def _needs(self, obs, goal) -> tuple[int, int]:
        """(resources of any grade, upper-grade resources) the goal area still lacks."""
        t, me = obs.tables, obs.seat
        card, gx = goal[0], goal[1]
        rs, ru, rp = t.orders[card].cost
        w = obs.wh[me]
        s, u, q = w[3 * gx], w[3 * gx + 1], w[3 * gx + 2]
        need_up = max(0, ru + rp - u - q)
        return max(0, rs + ru + rp - s - u - q, need_up), need_up

    def _movable(self, obs, goal) -> bool:
        """Whether some resource the goal needs can step closer to the goal area."""
        t, me = obs.tables, obs.seat
        w = obs.wh[me]
        dist = t.distance
        gx = goal[1]
        need_all, need_up = self._needs(obs, goal)
        if not need_all:
            return False
        std_ok = need_all > need_up
        for src in range(10):
            if src == gx:
                continue
            if not ((std_ok and w[3 * src]) or w[3 * src + 1] or w[3 * src + 2]):
                continue
            if not std_ok and not need_up:
                continue
            for dst in t.adjacent[src]:
                if dist[dst][gx] < dist[src][gx]:
                    return True
        return False

    # ------------------------------------------------------------------ choose
    def choose(self, obs, legal, rng):
        pr = obs.prompt
        if pr == "company":
            return self._by_pref(legal, lambda a: a.company, self.p.companies)
        if pr in ("draft", "skill"):
            return self._skill(obs, legal)
        if pr == "turn":
            return self._turn(obs, legal, rng)
        if pr == "gain" or pr == "replenish":
            return self._gain(obs, legal)
        if pr == "action":
            return self._action(obs, legal)
        if pr == "refill":
            return RefillExclusive(1 if self.p.refill_upper else 0)
        if pr == "grow":
            return self._by_pref(legal, lambda a: TRACKS[a.track], self.p.growth)
        if pr == "office":
            return self._office(obs, legal)
        if pr == "swap":
            want = self.p.refill_upper
            return next(a for a in legal if isinstance(a, SwapExclusive if want else KeepExclusive))
        if pr == "start":
            mine = [a for a in legal if isinstance(a, ChooseStart) and a.seat == obs.seat]
            return mine[0] if mine else legal[0]
        return legal[int(rng.random() * len(legal))]

    @staticmethod
    def _by_pref(legal, key, pref):
        rank = {k: i for i, k in enumerate(pref)}
        return min(legal, key=lambda a: rank.get(key(a), len(rank)))

    def _skill(self, obs, legal):
        rank = {k: i for i, k in enumerate(self.p.skills)}
        sk = obs.tables.skills

        def key(a):
            if isinstance(a, (PlaySkill, DraftPick)):
                c = sk[a.card]
                if c.disposable:
                    return len(rank) + 1 - c.amount * 0.1
                return rank.get(c.effect, len(rank))
            return 99

        return min(legal, key=key)

    def _turn(self, obs, legal, rng):
        p, me = self.p, obs.seat
        for a in legal:  # disposable skills: take the resources / VP / proxies now
            if isinstance(a, UseDisposable):
                return a
        orders, dailies = self._fulfillable(obs)
        spaces = obs.spaces
        proxies = obs.proxies[me]
        w = obs.wh[me]
        t = obs.tables
        goal = self._goal(obs)
        want_dailies = dailies and (p.daily_weight > 0 or goal is None or not self._movable(obs, goal))
        if orders or want_dailies:
            k = orders + (dailies if want_dailies else 0)
            if (p.proxy_adjust and spaces[FULFIL] + 1 < min(k, 3) and proxies > p.keep_proxies
                    and PlaceProxy(FULFIL) in legal):
                return PlaceProxy(FULFIL)
            return PlaceWorker(FULFIL)
        if goal is None:
            if p.resurvey and proxies > p.keep_proxies:
                for a in legal:
                    if isinstance(a, Resurvey) and a.grade == (1 if p.refill_upper else 0):
                        return a
        else:
            oc = t.orders[goal[0]]
            _, ru, rp = oc.cost
            x = goal[1]
            need_up = max(0, ru + rp - w[3 * x + 1] - w[3 * x + 2])
            if need_up > w[1] + w[2] and w[0] and obs.stock_sup:
                return PlaceWorker(IMPROVE)
            if self._movable(obs, goal):
                if (p.proxy_adjust and spaces[TRANSPORT] == 0 and proxies > p.keep_proxies + 1
                        and t.distance[0][x] > 1 and PlaceProxy(TRANSPORT) in legal):
                    return PlaceProxy(TRANSPORT)
                return PlaceWorker(TRANSPORT)
        if p.stock_superior and w[1] + w[2] < p.stock_superior and w[0] and obs.stock_sup:
            return PlaceWorker(IMPROVE)
        # nothing useful to do: take the space giving the most resources
        return min((PlaceWorker(k) for k in (TRANSPORT, IMPROVE, FULFIL)), key=lambda a: (spaces[a.action], a.action))

    def _gain(self, obs, legal):
        goal = self._goal(obs)
        if goal is None or len(legal) == 1:
            return legal[0]
        dist = obs.tables.distance
        gx = goal[1]
        return min(legal, key=lambda a: (dist[a.loc][gx], a.loc))

    def _office(self, obs, legal):
        sites = [a for a in legal if isinstance(a, PlaceOffice)]
        if not sites:
            return next(a for a in legal if isinstance(a, PostponeOffice))
        t = obs.tables
        return max(sites, key=lambda a: (t.marks[a.loc], -a.loc))

    def _action(self, obs, legal):
        kind = obs.act_kind
        if kind == FULFIL:
            return self._fulfil(obs, legal)
        if kind == IMPROVE:
            return self._improve(obs, legal)
        return self._transport(obs, legal)

    def _fulfil(self, obs, legal):
        t, p = obs.tables, self.p
        best, best_v = None, 0.0
        for a in legal:
            if isinstance(a, FulfilOrder):
                oc = t.orders[a.card]
                waste = (a.sup - oc.cost[1] if a.sup > oc.cost[1] else 0) + 2 * (a.spe - oc.cost[2])
                v = self._value(obs, a.card, a.loc) - 0.8 * max(0, waste) + 0.1 * a.std
            elif isinstance(a, FulfilDaily):
                cost, vp = t.daily[a.daily]
                v = vp + p.daily_weight - 0.8 * (a.sup - cost[1]) - 1.6 * a.spe + 0.05 * a.std
            else:
                continue
            if v > best_v:
                best, best_v = a, v
        if best is not None:
            return best
        if obs.act_left <= 1:
            for a in legal:
                if isinstance(a, UseSkill) and obs.proxies[obs.seat] > p.keep_proxies and sum(self._fulfillable(obs)) > 1:
                    return a
        return next(a for a in legal if isinstance(a, EndAction))

    def _improve(self, obs, legal):
        goal = self._goal(obs)
        t, me = obs.tables, obs.seat
        w = obs.wh[me]
        want_spe = goal is not None and t.orders[goal[0]].cost[2] > w[2] + w[3 * goal[1] + 2]
        imps = [a for a in legal if isinstance(a, Improve)]
        if imps:
            if want_spe:
                up = [a for a in imps if a.grade == 1]
                if up:
                    return up[0]
            std = [a for a in imps if a.grade == 0]
            if std:
                return std[0]
            if self.p.upper_weight > 0:
                return imps[0]
        return next(a for a in legal if isinstance(a, EndAction))

    def _transport(self, obs, legal):
        goal = self._goal(obs)
        end = next(a for a in legal if isinstance(a, EndAction))
        if goal is None:
            return end
        t, me = obs.tables, obs.seat
        dist = t.distance
        gx = goal[1]
        w = obs.wh[me]
        need_all, need_up = self._needs(obs, goal)
        if need_all == 0:
            return end
        need_std = need_all - need_up
        keep = self.p.stock_superior
        best, best_v = end, 0.0
        for a in legal:
            if not isinstance(a, Move) or a.src == gx:
                continue
            gain = dist[a.src][gx] - dist[a.dst][gx]
            if gain <= 0:
                continue
            up = a.sup + a.spe
            use_up = min(up, need_up)
            use_std = min(a.std + up - use_up, need_std)
            useful = 1.5 * use_up + use_std - 0.3 * (a.std + up - use_up - use_std)
            if a.src == 0 and keep and w[1] + w[2] - up < keep and not need_up:
                useful -= up
            v = gain * useful
            if v > best_v:
                best, best_v = a, v
        return best


def _params(name: str, doc: str, **defaults):
    """A ``Planner.Params`` subclass with other defaults (descriptions and bounds kept)."""
    base = Planner.Params
    fields = {k: (base.model_fields[k].annotation, FieldInfo.merge_field_infos(base.model_fields[k], default=v))
              for k, v in defaults.items()}
    return create_model(name, __base__=base, __doc__=doc, __module__=__name__, **fields)


class Majority(Planner):
    """Share-majority rush: orders in areas marked 2-3, transport growth first, office early."""

    Params = _params(
        "MajorityParams", "Planner parameters (see ``Planner.Params``); defaults weigh area marks heavily.",
        companies=(3, 1, 4, 0, 2),
        growth=("transport", "warehouse", "skill", "workers", "quality"),
        mark_weight=2.5,
        distance_cost=0.6,
        skills=("transport_capacity", "transport_actions", "order_vp", "fulfil_actions", "place_resources",
                "extra_fulfil", "extra_transport", "warehouse_capacity", "improve_actions", "daily_vp", "replenish",
                "extra_improve"),
    )


class Quality(Planner):
    """Superior/special goods for upper orders: Quality Improvement first, upper exclusives."""

    Params = _params(
        "QualityParams", "Planner parameters (see ``Planner.Params``); defaults value upper orders and keep upgraded goods.",
        companies=(0, 4, 1, 3, 2),
        growth=("quality", "transport", "skill", "workers", "warehouse"),
        mark_weight=0.5,
        upper_weight=3.0,
        upgrade_cost=0.4,
        refill_upper=True,
        stock_superior=2,
        skills=("improve_actions", "transport_capacity", "order_vp", "extra_improve", "fulfil_actions",
                "transport_actions", "extra_fulfil", "warehouse_capacity", "place_resources", "daily_vp", "replenish",
                "extra_transport"),
    )


class Economy(Planner):
    """Daily cards every round, proxy workers for long actions and re-surveys, replenishment."""

    Params = _params(
        "EconomyParams", "Planner parameters (see ``Planner.Params``); defaults favour daily cards and proxy efficiency.",
        companies=(2, 4, 0, 1, 3),
        growth=("warehouse", "skill", "workers", "transport", "quality"),
        mark_weight=0.8,
        daily_weight=2.0,
        keep_proxies=0,
        resurvey=True,
        stock_superior=1,
        skills=("daily_vp", "replenish", "place_resources", "fulfil_actions", "order_vp", "extra_fulfil",
                "transport_capacity", "improve_actions", "transport_actions", "warehouse_capacity", "extra_transport",
                "extra_improve"),
    )


MajorityParams, QualityParams, EconomyParams = Majority.Params, Quality.Params, Economy.Params  # picklable by name

STRATEGIES = {
    "forwarder.majority": Majority,
    "forwarder.quality": Quality,
    "forwarder.economy": Economy,
}
