"""The scripted Xanadu plans ``xanadu.builder``, ``xanadu.saboteur`` and ``xanadu.hoarder``
(see the package docstring). Every choice among equally valued actions is made with ``rng``."""

from __future__ import annotations

from pydantic import Field

from sim.games.xanadu.actions import Build, DrawCards, EndSelling, PlaceWorker, Sell
from sim.games.xanadu.observation import Observation
from strategies.common import ScriptedStrategy

from .helpers import PromptDispatch, end_turn, pick, plan_workers, price, table, wealth

BROWN, BLUE, YELLOW, GREEN = range(4)


class _Base(PromptDispatch, ScriptedStrategy):
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

    def extra_worker(self, obs: Observation, legal, rng) -> PlaceWorker | None:
        return None

    def start_value(self, obs: Observation, card: int) -> float:
        c = obs.cards[card]
        return sum(map(sum, c.boxes)) + sum(k >= 0 for k in c.khan) + c.prices[0]

    def draw_count(self, obs: Observation, legal, rng) -> DrawCards:
        """Phase 3 ('húzhat'): the scripted plans always draw the most cards allowed."""
        return max(legal, key=lambda a: a.count)

    # --- skeleton (``choose``: ``PromptDispatch``)
    def choose_draw(self, obs, legal, rng):
        return self.draw_count(obs, legal, rng)

    def choose_sale(self, obs, legal, rng):
        sells = [a for a in legal if isinstance(a, Sell)]
        wanted = [a for a in sells if self.want_sell(obs, a.card, obs.covered(a.card))]
        if wanted:
            return pick(wanted, lambda a: 0, rng)
        if len(obs.built[obs.seat]) >= obs.build_limit and sells:  # free a place: sell the best-priced card
            return pick(sells, lambda a: price(obs, a.card, obs.covered(a.card)), rng)
        if sells and self.stuck(obs):  # issue 17: this turn would change nothing unless a card goes
            return self.unstick_sale(obs, legal, rng)
        return next(a for a in legal if isinstance(a, EndSelling))

    def stuck(self, obs: Observation) -> bool:
        """True when the plan's own rules would end this turn changing nothing (RULINGS §4 stall
        rule): nothing sold or placed yet, a full hand (phase 3 draws nothing) and no box that
        ``cycle_worker`` takes (every open box is the last box of an own card)."""
        return (not obs.sold_this_turn and not obs.acted_this_turn and len(obs.hand) >= obs.hand_limit
                and not self.cycle_targets(obs, last_box=False))

    def unstick_sale(self, obs: Observation, legal, rng):
        """Phase 1 of a stuck turn: a card leaves the table either by a ``Sell`` now or by a last
        own worker in phase 2 (the forced sale at the end of the turn). Each is valued against
        keeping the card to the end-of-game sale: a sale now gains ``price - end_price`` at its
        cover (the 5-6 player bonus), a last worker the price step of that box (``cycle_targets``);
        the best wins, ties with ``rng``. Returns the ``Sell``, or ``EndSelling`` for the worker."""
        options: dict = {a: price(obs, a.card, n) - obs.end_price(a.card, n)
                         for a in legal if isinstance(a, Sell) for n in [obs.covered(a.card)]}
        options.update(self.cycle_targets(obs, last_box=True))
        best = pick(options, options.__getitem__, rng)
        return best if isinstance(best, Sell) else next(a for a in legal if isinstance(a, EndSelling))

    def worker_card(self, obs: Observation, exclude: int, rng) -> int | None:
        return pick((c for c in obs.hand if c != exclude), lambda c: -self.keep_value(obs, c), rng)

    def choose_work(self, obs, legal, rng):
        builds = [a for a in legal if isinstance(a, Build)]
        if builds:
            return pick(builds, lambda a: self.build_value(obs, a.card, 0), rng)
        can_build = obs.builds_this_turn < obs.builds_per_turn and len(obs.built[obs.seat]) < obs.build_limit
        if can_build and len(obs.hand) >= 2:
            plans = {}
            for c in obs.hand:
                if self.buildable_target(obs, c):
                    plan = plan_workers(obs, c, len(obs.hand) - 1, obs.seat, rng)
                    if plan is not None:
                        plans[c] = plan
            c = pick(plans, lambda c: self.build_value(obs, c, plans[c][0]), rng)
            if c is not None and plans[c][1] >= 0:
                w = self.worker_card(obs, c, rng)
                if w is not None:
                    a = PlaceWorker(w, plans[c][1])
                    if a in legal:
                        return a
        extra = self.extra_worker(obs, legal, rng)
        if extra is not None:
            return extra
        if len(obs.hand) >= obs.hand_limit - 1:  # a (nearly) full hand draws nothing: cycle a card
            cycle = self.cycle_worker(obs, legal, rng)
            if cycle is not None:
                return cycle
        if not obs.acted_this_turn and not obs.sold_this_turn and len(obs.hand) >= obs.hand_limit:
            cycle = self.cycle_worker(obs, legal, rng, last_box=True)  # issue 17: never a turn that changes nothing
            if cycle is not None:
                return cycle
        return end_turn(legal)

    def cycle_targets(self, obs: Observation, last_box: bool) -> dict[int, int]:
        """Open boxes as {card: tong bao gained}: the price step of the card's lowest open box,
        positive when it raises an own card or lowers another seat's. An own card's last box (its
        forced sale at the end of the turn) only with ``last_box``."""
        me = obs.seat
        side = set(obs.sideways)
        return {c: (obs.cards[c].prices[n + 1] - obs.cards[c].prices[n]) * (1 if s == me else -1)
                for c, s, n in table(obs) if n < 4 and c not in side and (last_box or not (s == me and n == 3))}

    def cycle_worker(self, obs: Observation, legal, rng, last_box: bool = False) -> PlaceWorker | None:
        """One worker on the box that best raises own prices or lowers others' (``cycle_targets``;
        an own card's last box only with ``last_box``); ties with ``rng``."""
        cands = self.cycle_targets(obs, last_box)
        best = pick(cands, cands.__getitem__, rng)
        w = self.worker_card(obs, -1, rng)
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

    def extra_worker(self, obs, legal, rng):
        if len(obs.hand) <= self.p.keep_hand:
            return None
        me = obs.seat
        others = [s for s in range(obs.num_players) if s != me]
        leader = pick(others, lambda s: wealth(obs, s), rng) if others else -1
        side = set(obs.sideways)
        cands = {}
        for c, s, n in table(obs):
            if n >= 4 or c in side or (s == me and n == 3):  # a full own card is a forced sale: left to the sell rule
                continue
            pr = obs.cards[c].prices
            delta = pr[n + 1] - pr[n]
            gain = delta if s == me else (-delta if s == leader else 0)
            if gain > 0:
                cands[c] = gain
        best = pick(cands, cands.__getitem__, rng)
        if best is None:
            return None
        w = self.worker_card(obs, -1, rng)
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
        now = price(obs, card, covered)
        return now >= self.p.sell_at or (covered < 4 and pr[covered] > 0 and pr[covered] >= max(pr[covered:])
                                         and covered >= 2)

    def choose_work(self, obs, legal, rng):
        builds = [a for a in legal if isinstance(a, Build)]
        if (not builds and not obs.acted_this_turn and not obs.sold_this_turn
                and len(obs.hand) < self.p.idle_refill):
            return end_turn(legal)  # an idle turn: phase 3 refills the hand to 7
        return super().choose_work(obs, legal, rng)
