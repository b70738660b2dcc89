"""The greedy goal-directed planner behind the Forwarder of Xanadu plans (rulebook seeds/000).

At each decision the planner picks a *goal*: the order card and area with the best value for the
effort of bringing resources there; it then places workers, gained resources, transports,
improvements and fulfilments toward it. Every tie among equally valued actions is broken with
the ``rng`` the game loop passes (never by seat, list position or card id).
"""

from __future__ import annotations

from pydantic import Field, field_validator

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

from .goals import Goals, can_pay  # noqa: F401  (can_pay: public helper, kept importable here)

EFFECTS = ("transport_capacity", "warehouse_capacity", "improve_actions", "transport_actions", "fulfil_actions",
           "order_vp", "daily_vp", "replenish", "place_resources", "extra_transport", "extra_improve", "extra_fulfil")
N_COMPANIES = 5  # 'Components': five forwarding companies (rules.py checks the data)
EXTRA = {"extra_transport": TRANSPORT, "extra_improve": IMPROVE, "extra_fulfil": FULFIL}


def best(items, value, rng):
    """The item of highest ``value``; ties broken uniformly with ``rng``. None when empty."""
    top, top_v = [], None
    for a in items:
        v = value(a)
        if top_v is None or v > top_v:
            top, top_v = [a], v
        elif v == top_v:
            top.append(a)
    if not top:
        return None
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


class Planner(Goals, ScriptedStrategy):
    """Greedy goal-directed player (base of the three plans; usable directly with any params)."""

    games = ("forwarder_of_xanadu",)

    class Params(ScriptedStrategy.Params):
        """Parameters of the goal-directed planner (VP are victory points)."""

        companies: tuple[int, ...] = Field((3, 1, 4, 0, 2), description="company indices in order of preference")
        growth: tuple[str, ...] = Field(("transport", "warehouse", "skill", "quality", "workers"),
                                        description="growth tracks in order of preference")
        mark_weight: float = Field(1.0, ge=0, description="VP-equivalent per area mark of the share token an order places")
        upper_weight: float = Field(0.0, description="extra VP-equivalent for an upper-grade order (negative: avoid them)")
        daily_weight: float = Field(0.0, description="extra VP-equivalent for a daily card (negative: avoid them)")
        distance_cost: float = Field(1.0, ge=0, description="VP-equivalent cost per missing resource per transport step")
        upgrade_cost: float = Field(1.0, ge=0, description="VP-equivalent cost per improvement a goal still needs")
        proxy_adjust: bool = Field(True, description="use proxy workers to raise a Fulfilment's or Transport's action count")
        keep_proxies: int = Field(2, ge=0, le=20, description="proxy workers kept in reserve (final VP: 1 per 2); at most "
                                  "20, more than a company holds (11 track levels and the skills' proxies)")
        resurvey: bool = Field(False, description="during Order Fulfilment with actions left and nothing payable, return a "
                                                  "spare proxy worker to draw a temporary Exclusive Order ('Market Re-survey')")
        use_skills: bool = Field(True, description="pay proxy workers for activated skills (extra actions) when the action "
                                                   "would otherwise run out with useful work left; when false, "
                                                   "activated skills are played last (they would stay unused)")
        refill_upper: bool = Field(False, description="refill the Exclusive Order (and re-survey) from the upper pile when allowed")
        stock_superior: int = Field(0, ge=0, description="superior/special resources to keep at the port before transporting")
        skills: tuple[str, ...] = Field(EFFECTS, description="skill effects in order of preference")

        @field_validator("companies", "growth", "skills")
        @classmethod
        def _preference_order(cls, value: tuple, info):
            """A preference order names known items, each once (a typo must not silently change
            the plan): companies are the rulebook's 5 (indices 0-4), growth tracks ``TRACKS``,
            skill effects ``EFFECTS``. Raises ``ValueError`` (a config error naming the key)."""
            known = {"companies": tuple(range(N_COMPANIES)), "growth": TRACKS, "skills": EFFECTS}[info.field_name]
            unknown = [v for v in value if v not in known]
            if not value or unknown or len(set(value)) != len(value):
                raise ValueError(f"must list some of {list(known)}, each at most once; got {list(value)}")
            return value

    # ------------------------------------------------------------------ choose
    def choose(self, obs, legal, rng):
        self._rng = rng
        self._goal_for = self._orders_for = (None, None)
        pr = obs.prompt
        if pr == "company":
            return self._by_pref(legal, lambda a: a.company, self.p.companies)
        if pr in ("draft", "skill"):
            return self._skill(obs, legal)
        if pr == "turn":
            a = self._turn(obs, legal)
            return a if a in legal else self._fallback_worker(obs, legal)
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
            return mine[0] if mine else legal[int(rng.random() * len(legal))]
        return legal[int(rng.random() * len(legal))]

    def _fallback_worker(self, obs, legal):
        """A worker placement among ``legal`` (after a proxy only the proxy's action is offered)."""
        spaces = obs.spaces
        workers = [a for a in legal if isinstance(a, PlaceWorker)]
        return best(workers, lambda a: -spaces[a.action], self._rng)

    def _by_pref(self, legal, key, pref):
        rank = {k: i for i, k in enumerate(pref)}
        return best(legal, lambda a: -rank.get(key(a), len(rank)), self._rng)

    def _skill(self, obs, legal):
        rank = {k: i for i, k in enumerate(self.p.skills)}
        if not self.p.use_skills:  # activated skills it will never pay for: after every other effect
            rank = {k: i + (len(rank) if k in EXTRA else 0) for k, i in rank.items()}
        sk = obs.tables.skills

        def value(a):
            if isinstance(a, (PlaySkill, DraftPick)):
                c = sk[a.card]
                if c.disposable:
                    return -(2 * len(rank) + 1 - c.amount * 0.1)
                return -rank.get(c.effect, 2 * len(rank))
            return -99

        return best(legal, value, self._rng)

    def _disposable(self, obs, legal):
        """A disposable skill to use now: any (resources, VP or proxy workers now are never worse)."""
        return best([a for a in legal if isinstance(a, UseDisposable)], lambda a: obs.tables.skills[a.card].amount, self._rng)

    def _turn(self, obs, legal):
        p, me = self.p, obs.seat
        disp = self._disposable(obs, legal)
        if disp is not None:
            return disp
        orders, dailies = self._fulfillable(obs)
        spaces = obs.spaces
        proxies = obs.proxies[me]
        w = obs.wh[me]
        t = obs.tables
        goal = self._goal(obs)
        bound = obs.proxy_kind
        want_dailies = dailies and (p.daily_weight > 0 or goal is None or not self._movable(obs, goal))
        if (orders or want_dailies) and bound in (-1, FULFIL):
            k = orders + (dailies if want_dailies else 0)
            if p.proxy_adjust and spaces[FULFIL] + 1 < min(k, 3) and proxies > p.keep_proxies and PlaceProxy(FULFIL) in legal:
                return PlaceProxy(FULFIL)
            return PlaceWorker(FULFIL)
        if goal is not None and bound in (-1, IMPROVE, TRANSPORT):
            oc = t.orders[goal[0]]
            _, ru, rp = oc.cost
            x = goal[1]
            need_up = max(0, ru + rp - w[3 * x + 1] - w[3 * x + 2])
            if need_up > w[1] + w[2] and w[0] and obs.stock_sup and bound != TRANSPORT:
                return PlaceWorker(IMPROVE)
            if (p.stock_superior and w[1] + w[2] < p.stock_superior and w[0] and obs.stock_sup
                    and bound != TRANSPORT):  # keep upgraded goods at the port before transporting
                return PlaceWorker(IMPROVE)
            if self._movable(obs, goal) and bound != IMPROVE:
                if (p.proxy_adjust and spaces[TRANSPORT] == 0 and proxies > p.keep_proxies + 1
                        and t.distance[0][x] > 1 and PlaceProxy(TRANSPORT) in legal):
                    return PlaceProxy(TRANSPORT)
                return PlaceWorker(TRANSPORT)
        if p.stock_superior and w[1] + w[2] < p.stock_superior and w[0] and obs.stock_sup:
            return PlaceWorker(IMPROVE)
        return self._fallback_worker(obs, legal)  # nothing useful: the space giving the most resources

    def _gain(self, obs, legal):
        goal = self._goal(obs)
        if len(legal) == 1:
            return legal[0]
        if goal is None:  # no goal: the port, where resources serve any later goal
            return best(legal, lambda a: a.loc == 0, self._rng)
        dist = obs.tables.distance
        gx = goal[1]
        return best(legal, lambda a: -dist[a.loc][gx], self._rng)

    def _office(self, obs, legal):
        sites = [a for a in legal if isinstance(a, PlaceOffice)]
        if not sites:
            return next(a for a in legal if isinstance(a, PostponeOffice))
        t = obs.tables
        return best(sites, lambda a: t.marks[a.loc], self._rng)

    def _action(self, obs, legal):
        kind = obs.act_kind
        if kind == FULFIL:
            return self._fulfil(obs, legal)
        if kind == IMPROVE:
            return self._improve(obs, legal)
        return self._transport(obs, legal)

    def _skill_use(self, obs, legal, useful):
        """An activated skill of this action to pay for when ``useful`` work remains beyond the
        action count (the caller judges it: a bool, or a callable asked only when a skill could
        be paid for), keeping ``keep_proxies``; else None."""
        p, me = self.p, obs.seat
        if not p.use_skills:
            return None
        uses = [a for a in legal if isinstance(a, UseSkill)]
        if not uses or not (useful() if callable(useful) else useful):
            return None
        sk = obs.tables.skills
        uses = [a for a in uses if obs.proxies[me] - sk[a.card].proxies >= p.keep_proxies]
        return best(uses, lambda a: -sk[a.card].proxies, self._rng)

    def _fulfil_value(self, obs, a) -> float | None:
        t, p = obs.tables, self.p
        if isinstance(a, FulfilOrder):
            oc = t.orders[a.card]
            waste = (a.sup - oc.cost[1] if a.sup > oc.cost[1] else 0) + 2 * (a.spe - oc.cost[2])
            return self._value(obs, a.card, a.loc) - 0.8 * max(0, waste) + 0.1 * a.std
        if isinstance(a, FulfilDaily):
            cost, vp = t.daily[a.daily]
            return vp + p.daily_weight - 0.8 * (a.sup - cost[1]) - 1.6 * a.spe + 0.05 * a.std
        return None

    def _fulfil(self, obs, legal):
        vals = [(a, v) for a in legal if (v := self._fulfil_value(obs, a)) is not None and v > 0]
        # more payable orders and daily cards than actions left: one more Fulfilment is worth a proxy
        use = self._skill_use(obs, legal, lambda: sum(self._fulfillable(obs)) > obs.act_left)
        if use is not None:
            return use
        pick = best(vals, lambda av: av[1], self._rng)
        if pick is not None:
            return pick[0]
        p, me = self.p, obs.seat
        if p.resurvey and obs.act_left >= 1 and obs.proxies[me] > p.keep_proxies:
            grade = 1 if p.refill_upper else 0
            for a in legal:
                if isinstance(a, Resurvey) and a.grade == grade:
                    return a
        return next(a for a in legal if isinstance(a, EndAction))

    def _improve(self, obs, legal):
        goal = self._goal(obs)
        t, me = obs.tables, obs.seat
        w = obs.wh[me]
        want_spe = goal is not None and t.orders[goal[0]].cost[2] > w[2] + w[3 * goal[1] + 2]
        imps = [a for a in legal if isinstance(a, Improve)]
        use = self._skill_use(obs, legal, obs.act_left <= 1 and any(a.grade == 0 for a in imps) and w[0] > 1)
        if use is not None:
            return use
        if imps:
            rng = self._rng
            up = [a for a in imps if a.grade == 1]
            std = [a for a in imps if a.grade == 0]
            if want_spe and up:
                return up[int(rng.random() * len(up))]
            if std:
                return std[int(rng.random() * len(std))]
            if self.p.upper_weight > 0:
                return imps[int(rng.random() * len(imps))]
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

        def value(a) -> float:
            if not isinstance(a, Move) or a.src == gx:
                return 0.0
            gain = dist[a.src][gx] - dist[a.dst][gx]
            if gain <= 0:
                return 0.0
            up = a.sup + a.spe
            use_up = min(up, need_up)
            use_std = min(a.std + up - use_up, need_std)
            useful = 1.5 * use_up + use_std - 0.3 * (a.std + up - use_up - use_std)
            if a.src == 0 and keep and w[1] + w[2] - up < keep and not need_up:
                useful -= up
            return gain * useful

        # as ``best`` over every Move, but moves that bring nothing closer (value 0.0) are only counted
        top, top_v, zeros = [], None, 0
        for a in legal:
            if not isinstance(a, Move):
                continue
            if a.src == gx or dist[a.src][gx] <= dist[a.dst][gx]:
                zeros += 1
                continue
            v = value(a)
            if top_v is None or v > top_v:
                top, top_v = [a], v
            elif v == top_v:
                top.append(a)
        if top_v is None or top_v <= 0:  # nothing useful: end, drawing the tie-break ``best`` would have drawn
            if zeros:  # the top value is 0.0: the idle moves and any useful move worth exactly 0
                ties = zeros + (len(top) if top_v == 0 else 0)
            else:
                ties = len(top)
            if ties > 1:
                self._rng.random()
            return end
        pick = top[0] if len(top) == 1 else top[int(self._rng.random() * len(top))]
        use = self._skill_use(obs, legal, obs.act_left <= 1 and dist[pick.dst][gx] > 0)
        return use if use is not None else pick
