"""Where the Forwarder of Xanadu planner works toward (rulebook seeds/000): the *goal* (the order
card and area of best value for the effort), the orders payable now, and what the goal still
lacks. A mixin of ``Planner``; the per-layout tables and caches here only speed it up (the same
goals, the same draws from the ``rng``)."""

from __future__ import annotations


def can_pay(cost, s, u, p) -> bool:
    """Whether ``s``/``u``/``p`` standard/superior/special resources pay ``cost`` ('About Resources')."""
    rs, ru, rp = cost
    return p >= rp and u + p >= ru + rp and s + u + p >= rs + ru + rp


class Goals:
    """Goal finding for ``Planner`` (needs ``self.p``, the planner's parameters, and ``self._rng``)."""

    _goal_for: tuple = (None, None)  # (observation, goal) of the current decision
    _orders_for: tuple = (None, ())  # (observation, orders) of the current decision
    _layout: tuple = (None, (), None)  # (area_at, positions per order type, tables) of the last layout seen
    _tops: dict  # (orders, own warehouse but the port's standard goods, tokens left) -> best goals (plain planner), set with the layout
    _statics: dict  # marks counted -> per-card static goal data (``_static``), set with the layout
    _payable: dict  # (orders, own warehouse in the areas) -> orders payable now (``_fulfillable``), per layout

    # ------------------------------------------------------------------ helpers
    def _orders(self, obs):
        """Market, own Exclusive and temporary orders (a new list; built once per observation)."""
        return list(self._order_ids(obs))

    def _order_ids(self, obs) -> tuple[int, ...]:
        """As ``_orders``, the tuple kept for the observation (not to be changed)."""
        if self._orders_for[0] is not obs:
            ex = obs.excl[obs.seat]
            self._orders_for = (obs, obs.market + ((ex,) if ex >= 0 else ()) + obs.temp)
        return self._orders_for[1]

    def _icons(self, obs, x):
        return obs.tables.area_icons[obs.area_at[x - 1]]

    def _locs(self, obs) -> tuple[tuple[int, ...], ...]:
        """Per order type, the layout positions 1..9 whose area shows its icon. The layout never
        changes once laid, so the table of the last layout seen is kept (recomputed on a new one,
        or on other game data)."""
        area_at = obs.area_at
        if area_at != self._layout[0] or obs.tables is not self._layout[2]:
            self._tops = {}  # goal cache of the plain planner: per layout
            self._statics = {}
            self._payable = {}
            icons = obs.tables.area_icons
            locs = tuple(tuple(x for x in range(1, 10) if t in icons[area_at[x - 1]])
                         for t in range(len(obs.tables.order_types)))
            self._layout = (area_at, locs, obs.tables)
        return self._layout[1]

    def _value(self, obs, card, x) -> float:
        """VP-equivalent of fulfilling ``card`` in area ``x``."""
        t, p = obs.tables, self.p
        oc = t.orders[card]
        v = oc.vp + p.upper_weight * oc.grade
        if obs.tokens_left[obs.seat]:
            v += p.mark_weight * t.marks[x]
        return v

    def _goal(self, obs):
        """(card, position, score) of the best order to work toward, or None (cached per observation)."""
        if self._goal_for[0] is obs:
            return self._goal_for[1]
        me = obs.seat
        w = obs.wh[me]
        orders = self._order_ids(obs)
        locs = self._locs(obs)
        if type(self)._value is Goals._value:  # the plain value reads nothing else: cache by what it reads
            key = (orders, w[1:], obs.tokens_left[me] > 0)  # w[0] (standard goods at the port) is not read
            top = self._tops.get(key)
            if top is None:
                if len(self._tops) > 4096:
                    self._tops.clear()
                top = self._tops[key] = self._top_goals(obs, orders, locs, None)
        else:
            top = self._top_goals(obs, orders, locs, self._value)
        # as ``best``: ties broken uniformly with the rng
        goal = top[0] if len(top) == 1 else top[int(self._rng.random() * len(top))] if top else None
        self._goal_for = (obs, goal)
        return goal

    def _top_goals(self, obs, orders, locs, value) -> list[tuple[int, int, float]]:
        """The (card, position, score) of highest score, in the order of ``orders`` then position;
        ``value(obs, card, x)`` or, when None, the plain planner's value inline."""
        me = obs.seat
        w = obs.wh[me]
        port_up, port_spe = w[1] + w[2], w[2]
        dc, uc = self.p.distance_cost, self.p.upgrade_cost
        static = self._static(obs, locs, value is None and obs.tokens_left[me] > 0)
        top, top_v = [], None
        for card in orders:
            total, up, rp, entries = static[card]
            for x, x3, d, v in entries:
                s, u, q = w[x3], w[x3 + 1], w[x3 + 2]
                miss_up = up - (u + q)
                miss_up = miss_up if miss_up > 0 else 0
                missing = total - (s + u + q)
                missing = missing if missing > miss_up else miss_up
                miss_sp = rp - q
                # improvements the port still needs for the missing upper resources
                upg = miss_up - port_up if miss_up > port_up else 0
                if miss_sp > port_spe:
                    upg += miss_sp - port_spe
                effort = dc * missing * d + uc * upg
                if value is not None:
                    v = value(obs, card, x)
                v /= 1.0 + effort
                if top_v is None or v > top_v:
                    top, top_v = [(card, x, v)], v
                elif v == top_v:
                    top.append((card, x, v))
        return top

    def _static(self, obs, locs, marked: bool) -> dict:
        """Per order card, what ``_top_goals`` reads that does not change within a layout:
        (resources in all, upper-grade resources, special resources, ((position, 3 x position,
        distance from the port, plain value), ...)); the plain value counts the area mark when
        ``marked``. Kept per layout (``_locs`` clears it with the goal cache); a card's entry is
        built when first asked for."""
        got = self._statics.get(marked)
        if got is None:
            got = self._statics[marked] = _Static(obs.tables, self.p, locs, marked)
        return got

    def _fulfillable(self, obs) -> tuple[int, int]:
        """(market/exclusive orders payable now, daily cards payable now)."""
        t, me = obs.tables, obs.seat
        w = obs.wh[me]
        locs = self._locs(obs)
        orders = self._order_ids(obs)
        key = (orders, w[3:])  # the orders are paid from the areas only (positions 1..9)
        k = self._payable.get(key)
        if k is None:
            k = 0
            static = self._static(obs, locs, False)
            for card in orders:
                total, up, rp, entries = static[card]
                for _, x3, _, _ in entries:  # can_pay inline
                    q = w[x3 + 2]
                    uq = w[x3 + 1] + q
                    if q >= rp and uq >= up and w[x3] + uq >= total:
                        k += 1
                        break
            if len(self._payable) > 4096:
                self._payable.clear()
            self._payable[key] = k
        off = obs.office[me]
        s, u, q = w[0], w[1], w[2]
        if off > 0:
            s, u, q = s + w[3 * off], u + w[3 * off + 1], q + w[3 * off + 2]
        d = sum(1 for i, up in enumerate(obs.dailies[me]) if up and can_pay(t.daily[i][0], s, u, q))
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
            if src == gx or not ((std_ok and w[3 * src]) or w[3 * src + 1] or w[3 * src + 2]):
                continue
            if any(dist[dst][gx] < dist[src][gx] for dst in t.adjacent[src]):
                return True
        return False


class _Static(dict):
    """``Goals._static``'s table: card -> static goal data, each entry built on first access."""

    def __init__(self, tables, p, locs, marked: bool):
        super().__init__()
        self.tables, self.p, self.locs, self.marked = tables, p, locs, marked

    def __missing__(self, card: int):
        t, p = self.tables, self.p
        oc = t.orders[card]
        rs, ru, rp = oc.cost
        base = oc.vp + p.upper_weight * oc.grade
        dist0, marks, mw = t.distance[0], t.marks, p.mark_weight
        got = self[card] = (rs + ru + rp, ru + rp, rp,
                            tuple((x, 3 * x, dist0[x], base + mw * marks[x] if self.marked else base)
                                  for x in self.locs[oc.type]))
        return got
