"""Scripted Xanadu strategies (``xanadu.*``). They see only the seat's ``Observation`` and the
legal actions (DESIGN "Strategies").

- ``xanadu.builder``: build cheap cards fast, sell early at modest prices, keep hands flowing.
- ``xanadu.saboteur``: build the dearest card it can pay, raise its own cards' prices with spare
  workers and sabotage the leader's cards; sell at the top of a card's price curve.
- ``xanadu.hoarder``: keep yellow and green cards in hand (the last cards used as workers), refill the hand with
  idle turns, build only luxuries when possible and sell them at high prices.
"""

from __future__ import annotations

from pydantic import Field

from sim.games.xanadu.actions import Build, EndSelling, EndTurn, PlaceStart, PlaceWorker, Sell
from sim.games.xanadu.observation import Observation
from strategies.common import ScriptedStrategy

BROWN, BLUE, YELLOW, GREEN = range(4)


# ---------------------------------------------------------------- observation helpers
def table(obs: Observation) -> list[tuple[int, int, int]]:
    """Every built card as (card, owner, workers on it)."""
    return [(c, s, len(obs.placers[s][i])) for s, row in enumerate(obs.built) for i, c in enumerate(row)]


def permanent(obs: Observation, seat: int) -> list[int]:
    """Per resource: printed permanent resources and the Khan's help of ``seat``'s built cards."""
    out = [0] * len(obs.resources)
    for i, c in enumerate(obs.built[seat]):
        card = obs.cards[c]
        if card.permanent >= 0:
            out[card.permanent] += 1
        for k in range(len(obs.placers[seat][i])):
            if card.khan[k] >= 0:
                out[card.khan[k]] += 1
    return out


def available(obs: Observation) -> list[int]:
    """What the active seat can still spend this turn, per resource."""
    perm = permanent(obs, obs.active)
    return [a + b - u for a, b, u in zip(obs.pool, perm, obs.perm_used, strict=True)]


def price(obs: Observation, card: int, covered: int) -> int:
    return obs.cards[card].prices[covered]


def wealth(obs: Observation, seat: int) -> int:
    """Tong bao plus what ``seat``'s table would sell for now."""
    return obs.coins[seat] + sum(price(obs, c, n) for c, s, n in table(obs) if s == seat)


def plan_workers(obs: Observation, card: int, max_workers: int, me: int) -> tuple[int, int] | None:
    """Greedy plan to gather ``card``'s missing resources with at most ``max_workers`` workers.

    Returns ``(workers needed, first target)`` (target -1 when nothing is missing), or None when
    the greedy plan fails. Each step takes the lowest free box that covers most of what is still
    missing, preferring boxes that raise own prices and lower others'.
    """
    avail = available(obs)
    need = [max(0, c - a) for c, a in zip(obs.cards[card].cost, avail, strict=True)]
    if not any(need):
        return 0, -1
    side = set(obs.sideways)
    level = {c: n for c, s, n in table(obs) if n < 4 and c not in side}
    owner = {c: s for c, s, _ in table(obs)}
    first = -1
    for step in range(max_workers):
        best, best_score = -1, 0.0
        for t, n in level.items():
            if n >= 4:
                continue
            box = obs.cards[t].boxes[n]
            useful = sum(min(b, x) for b, x in zip(box, need, strict=True))
            if not useful:
                continue
            delta = obs.cards[t].prices[n + 1] - obs.cards[t].prices[n]
            score = 10 * useful + (delta if owner[t] == me else -0.5 * delta)
            if score > best_score:
                best, best_score = t, score
        if best < 0:
            return None
        box = obs.cards[best].boxes[level[best]]
        need = [max(0, x - b) for b, x in zip(box, need, strict=True)]
        level[best] += 1
        if first < 0:
            first = best
        if not any(need):
            return step + 1, first
    return None


class _Base(ScriptedStrategy):
    """Shared decision skeleton; subclasses set how cards are valued and when to sell."""

    games = ("xanadu",)

    # --- hooks
    def keep_value(self, obs: Observation, card: int) -> float:
        """How much the seat wants to keep hand card ``card`` (the lowest goes as a worker)."""
        c = obs.cards[card]
        return max(c.prices) - 0.5 * sum(c.cost)

    def build_value(self, obs: Observation, card: int, workers: int) -> float:
        c = obs.cards[card]
        return max(c.prices) - workers

    def want_sell(self, obs: Observation, card: int, covered: int) -> bool:
        return False

    def extra_worker(self, obs: Observation, legal) -> PlaceWorker | None:
        return None

    def start_value(self, obs: Observation, card: int) -> float:
        c = obs.cards[card]
        return sum(map(sum, c.boxes)) + sum(k >= 0 for k in c.khan) + c.prices[0]

    # --- skeleton
    def choose(self, obs, legal, rng):
        first = legal[0]
        if isinstance(first, PlaceStart):
            return max(legal, key=lambda a: (self.start_value(obs, a.card), -a.card))
        if obs.prompt == "sell":
            return self.choose_sale(obs, legal)
        if obs.prompt == "draw":
            return max(legal, key=lambda a: a.count)
        return self.choose_work(obs, legal, rng)

    def choose_sale(self, obs, legal):
        me = obs.seat
        for a in legal:
            if isinstance(a, Sell):
                n = obs.covered(a.card)
                if self.want_sell(obs, a.card, n):
                    return a
        row = obs.built[me]
        if len(row) >= obs.build_limit and len(legal) > 1:  # free a place: sell the best-priced card
            sells = [a for a in legal if isinstance(a, Sell)]
            return max(sells, key=lambda a: (price(obs, a.card, obs.covered(a.card)), -a.card))
        return next(a for a in legal if isinstance(a, EndSelling))

    def worker_card(self, obs: Observation, exclude: int) -> int | None:
        cands = [c for c in obs.hand if c != exclude]
        if not cands:
            return None
        return min(cands, key=lambda c: (self.keep_value(obs, c), c))

    def choose_work(self, obs, legal, rng):
        builds = [a for a in legal if isinstance(a, Build)]
        end = legal[-1]
        can_build = obs.builds_this_turn < obs.builds_per_turn and len(obs.built[obs.seat]) < obs.build_limit
        if builds:
            return max(builds, key=lambda a: (self.build_value(obs, a.card, 0), -a.card))
        if can_build and len(obs.hand) >= 2:
            best = None
            for c in obs.hand:
                if not self.buildable_target(obs, c):
                    continue
                plan = plan_workers(obs, c, len(obs.hand) - 1, obs.seat)
                if plan is None:
                    continue
                v = self.build_value(obs, c, plan[0])
                if best is None or v > best[0]:
                    best = (v, c, plan[1])
            if best is not None and best[2] >= 0:
                w = self.worker_card(obs, best[1])
                if w is not None:
                    a = PlaceWorker(w, best[2])
                    if a in legal:
                        return a
        extra = self.extra_worker(obs, legal)
        if extra is not None:
            return extra
        if len(obs.hand) >= obs.hand_limit - 1:  # a (nearly) full hand draws nothing: cycle a card
            cycle = self.cycle_worker(obs, legal)
            if cycle is not None:
                return cycle
        return end if isinstance(end, EndTurn) else legal[-1]

    def cycle_worker(self, obs: Observation, legal) -> PlaceWorker | None:
        """One worker on the box that best raises own prices or lowers others' (never on an own
        card's last box)."""
        me = obs.seat
        side = set(obs.sideways)
        best, best_gain = None, None
        for c, s, n in table(obs):
            if n >= 4 or c in side or (s == me and n == 3):
                continue
            pr = obs.cards[c].prices
            delta = pr[n + 1] - pr[n]
            gain = delta if s == me else -delta
            if best_gain is None or gain > best_gain:
                best, best_gain = c, gain
        w = self.worker_card(obs, -1)
        if best is None or w is None:
            return None
        a = PlaceWorker(w, best)
        return a if a in legal else None

    def buildable_target(self, obs: Observation, card: int) -> bool:
        return True


class Builder(_Base):
    """Build cheap cards fast and sell early.

    Params: ``sell_at`` (tong bao): sell an own card in phase 1 once its current price reaches
    this; ``max_cost`` (resources): never plan to build a card costing more resources than this.
    """

    class Params(ScriptedStrategy.Params):
        sell_at: int = Field(3, ge=0, description="sell an own card once its price is at least this (tong bao)")
        max_cost: int = Field(3, ge=1, description="largest card cost (resources) it plans to build")

    def keep_value(self, obs, card):
        c = obs.cards[card]
        return -sum(c.cost) + 0.2 * max(c.prices)

    def build_value(self, obs, card, workers):
        c = obs.cards[card]
        return max(c.prices[:2]) - 2 * workers - sum(c.cost)

    def buildable_target(self, obs, card):
        return sum(obs.cards[card].cost) <= self.p.max_cost

    def want_sell(self, obs, card, covered):
        return price(obs, card, covered) >= self.p.sell_at


class Saboteur(_Base):
    """Build the dearest card it can pay; develop own cards and sabotage the leader.

    Params: ``keep_hand`` (cards): spend spare workers only while the hand keeps this many;
    ``sell_margin`` (tong bao): sell an own card when its price is within this of its best
    remaining price or the next box would lower it.
    """

    class Params(ScriptedStrategy.Params):
        keep_hand: int = Field(3, ge=0, description="spare workers only while the hand keeps this many cards")
        sell_margin: int = Field(0, ge=0, description="sell when the price is within this of its best remaining price")

    def build_value(self, obs, card, workers):
        c = obs.cards[card]
        return max(c.prices) + c.prices[0] - 1.5 * workers

    def want_sell(self, obs, card, covered):
        pr = obs.cards[card].prices
        now = pr[covered]
        if covered >= 3:
            return now >= pr[4] or now >= 4
        return now > 0 and (pr[covered + 1] < now or now + self.p.sell_margin >= max(pr[covered:]))

    def extra_worker(self, obs, legal):
        if len(obs.hand) <= self.p.keep_hand:
            return None
        me = obs.seat
        others = [s for s in range(obs.num_players) if s != me]
        leader = max(others, key=lambda s: (wealth(obs, s), -s)) if others else -1
        side = set(obs.sideways)
        best, best_gain = None, 0
        for c, s, n in table(obs):
            if n >= 4 or c in side:
                continue
            pr = obs.cards[c].prices
            delta = pr[n + 1] - pr[n]
            gain = delta if s == me else (-delta if s == leader else 0)
            if s == me and n == 3:
                gain = 0  # a full card is a forced sale: leave that to the sell rule
            if gain > best_gain:
                best, best_gain = c, gain
        if best is None:
            return None
        w = self.worker_card(obs, -1)
        a = PlaceWorker(w, best) if w is not None else None
        return a if a in legal else None


class Hoarder(_Base):
    """Hold yellow and green cards for big sales; refill the hand with idle turns.

    Params: ``sell_at`` (tong bao): sell an own card once its price reaches this; ``idle_refill``
    (cards): when no build is in reach and the hand holds fewer than this, pass phase 2 idle to
    draw up to 7.
    """

    class Params(ScriptedStrategy.Params):
        sell_at: int = Field(6, ge=0, description="sell an own card once its price is at least this (tong bao)")
        idle_refill: int = Field(5, ge=0, description="idle (refill to 7) when the hand is below this and nothing builds")

    def keep_value(self, obs, card):
        c = obs.cards[card]
        return (10 if c.colour >= YELLOW else 0) + max(c.prices) - 0.3 * sum(c.cost)

    def build_value(self, obs, card, workers):
        c = obs.cards[card]
        return (5 if c.colour >= YELLOW else 0) + max(c.prices) - 2 * workers

    def want_sell(self, obs, card, covered):
        pr = obs.cards[card].prices
        now = pr[covered]
        return now >= self.p.sell_at or (covered < 4 and now > 0 and now >= max(pr[covered:]) and covered >= 2)

    def choose_work(self, obs, legal, rng):
        builds = [a for a in legal if isinstance(a, Build)]
        if (not builds and not obs.acted_this_turn and not obs.sold_this_turn
                and len(obs.hand) < self.p.idle_refill):
            return legal[-1]  # an idle turn: phase 3 refills the hand to 7
        return super().choose_work(obs, legal, rng)


STRATEGIES = {"xanadu.builder": Builder, "xanadu.saboteur": Saboteur, "xanadu.hoarder": Hoarder}
