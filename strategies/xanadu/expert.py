"""``xanadu.expert``: a one-step evaluator over the Xanadu observation.

Every worker is valued by what it does (rulebook 'Munkások lerakása', 'Fejlesztés, szabotázs vagy
kereskedés', 'A kán segítsége'): the resources it brings towards the card being built, the price
change of the card it covers (own: development; others': sabotage), the Khan's help it gives the
card's owner (a permanent resource: gained on own cards, denied to others), and denial (covering
scarce resources the next seats could use). Sales are timed against the other seats' workers (a
card whose next box is a sabotage box is sold before the others can cover it, a card its owner can
still develop is kept). Draws are timed against the End of Game card ('húzhat'): behind, it draws
none (or, after an idle turn, only the cards that cannot be the End card); ahead, it draws all.
In the endgame (the End card is in the pile and can come within ``end_draws`` draws) a hand card
is worth nothing once the End card is drawn ('Dobópakli és a játék vége': only built cards are
sold), so workers cost nothing and every worker that develops an own card or sabotages another's
is placed, and holding a card is valued at the best price free workers can reach.
It sees only its observation (issue 17 item 4).
"""

from __future__ import annotations

from pydantic import Field

from sim.games.xanadu.actions import Build, DrawCards, EndSelling, PlaceWorker, Sell
from sim.games.xanadu.observation import Observation
from strategies.common import ScriptedStrategy

from .helpers import PromptDispatch, end_turn, pick, plan_workers, table, wealth

BROWN, BLUE, YELLOW, GREEN = range(4)


class Expert(PromptDispatch, ScriptedStrategy):
    """Values workers, builds, sales and draws in tong bao (see the module docstring).

    Params (tong bao unless said): ``worker_cost``: value of a hand card spent as a worker;
    ``khan_value``: a Khan's help gained on an own card (the same lost when given to another seat);
    ``deny_weight``: weight of the scarcity of resources covered on others' cards; ``sabotage_weight``:
    weight of a price drop on another seat's card (1 = as much as a rise of an own card);
    ``sale_risk`` (probability): that another seat covers a sabotage box of an own card before its
    next turn; ``draw_value``: value of each extra card a phase-1 sale draws (3 instead of 1);
    ``keep_hand`` (cards): extra workers only while the hand keeps this many; ``idle_refill``
    (cards): pass phase 2 idle (refill to 7) when the hand is below this and nothing builds;
    ``end_margin``: with the End card in reach, draw none when behind the leader by more than this;
    ``end_draws`` (draws): the endgame (workers free, no hand kept) starts once the End card is in
    the pile and at most this many draws remain before it can appear (``Observation.top_left``).
    """

    games = ("xanadu",)

    class Params(ScriptedStrategy.Params):
        worker_cost: float = Field(1.0, ge=0, description="tong bao value of a hand card spent as a worker")
        khan_value: float = Field(2.0, ge=0, description="value of a Khan's help gained (own card) or given (others')")
        deny_weight: float = Field(0.5, ge=0, description="weight of covering scarce resources on others' cards")
        sabotage_weight: float = Field(1.5, ge=0, description="weight of lowering another seat's card price")
        sale_risk: float = Field(0.7, ge=0, le=1, description="chance another seat covers a sabotage box before our turn")
        draw_value: float = Field(0.0, ge=0, description="value of each extra card a phase-1 sale draws")
        keep_hand: int = Field(2, ge=0, description="extra workers only while the hand keeps this many cards")
        idle_refill: int = Field(4, ge=0, description="idle turn (refill to 7) when the hand is below this")
        end_margin: float = Field(0.0, description="End card in reach: draw none when behind by more than this")
        end_draws: int = Field(40, ge=0, description="endgame once the End card can come within this many draws")

    # ------------------------------------------------------------------ values
    def endgame(self, obs: Observation) -> bool:
        """True once the End card is in the pile and at most ``end_draws`` draws remain before it
        can appear: hand cards then have no value at the end ('Dobópakli és a játék vége')."""
        return obs.end_card_in and obs.top_left <= self.p.end_draws

    def worker_price(self, obs: Observation) -> float:
        """Tong bao value of a hand card spent as a worker (0 in the endgame)."""
        return 0.0 if self.endgame(obs) else self.p.worker_cost

    def start_value(self, obs: Observation, card: int) -> float:
        c = obs.cards[card]
        khan = sum(k >= 0 for k in c.khan) * self.p.khan_value
        return sum(map(sum, c.boxes)) + khan + c.prices[0] + 0.5 * max(c.prices)

    def card_value(self, obs: Observation, card: int) -> float:
        """Expected tong bao of building ``card``: between its first price and its best price,
        plus its permanent resource and Khan's help."""
        c = obs.cards[card]
        v = 0.5 * obs.price(card, 0) + 0.5 * max(obs.price(card, k) for k in range(5))
        v += self.p.khan_value * ((c.permanent >= 0) + 0.25 * sum(k >= 0 for k in c.khan))
        return v

    def keep_value(self, obs: Observation, card: int) -> float:
        """How much a hand card is worth kept (the cheapest goes as a worker)."""
        return self.card_value(obs, card) - 0.5 * sum(obs.cards[card].cost)

    def scarcity(self, obs: Observation) -> list[float]:
        """Per resource: 1 / (1 + boxes offering it among the uncovered lowest boxes on the table)."""
        side = set(obs.sideways)
        count = [0] * len(obs.resources)
        for c, _s, n in table(obs):
            if n < 4 and c not in side:
                for r, k in enumerate(obs.cards[c].boxes[n]):
                    count[r] += k
        return [1.0 / (1 + x) for x in count]

    def worker_gain(self, obs: Observation, target: int, owner: int, n: int, scarce: list[float]) -> float:
        """Tong bao gained by covering box ``n`` of ``target`` (without its resources' use)."""
        me, p = obs.seat, self.p
        c = obs.cards[target]
        delta = obs.end_price(target, n + 1) - obs.end_price(target, n)
        khan = p.khan_value if c.khan[n] >= 0 else 0.0
        if owner == me:
            return delta + khan
        weight = p.sabotage_weight / max(1, obs.num_players - 1)
        deny = p.deny_weight * (sum(k * s for k, s in zip(c.boxes[n], scarce, strict=True))
                                - (sum(k * s for k, s in zip(c.boxes[n + 1], scarce, strict=True)) if n < 3 else 0))
        return -weight * (delta + khan) + deny

    # ------------------------------------------------------------------ phase 1
    def hold_value(self, obs: Observation, card: int, n: int) -> float:
        """What keeping ``card`` (``n`` workers on it) is worth: the best price own workers can
        reach (each worker at ``worker_price``: ``worker_cost``, 0 in the endgame), less the expected
        sabotage by the other seats when the next box lowers the price."""
        wc = self.worker_price(obs)
        best = max(obs.end_price(card, j) - (j - n) * wc for j in range(n, 5))
        if n < 4:
            now, nxt = obs.end_price(card, n), obs.end_price(card, n + 1)
            threat = any(obs.hand_sizes[s] for s in range(obs.num_players) if s != obs.seat)
            if nxt < now and threat:
                best = max(best - self.p.sale_risk * (now - nxt), now - self.p.sale_risk * (now - nxt))
        return best

    def choose_sale(self, obs, legal, rng):
        sells = [a for a in legal if isinstance(a, Sell)]
        room = obs.hand_limit - len(obs.hand)
        bonus = 0.0 if obs.sold_this_turn else self.p.draw_value * max(0, min(2, room - 1))

        def margin(a: Sell) -> float:
            n = obs.covered(a.card)
            return obs.price(a.card, n) + bonus - self.hold_value(obs, a.card, n)

        best = pick(sells, margin, rng)
        if best is not None and margin(best) > 0:
            return best
        full = len(obs.built[obs.seat]) >= obs.build_limit
        if full and sells and not obs.sold_this_turn and len(obs.hand) >= 2:  # free a place for a build
            return pick(sells, margin, rng)
        return next(a for a in legal if isinstance(a, EndSelling))

    # ------------------------------------------------------------------ phase 3
    def choose_draw(self, obs: Observation, legal, rng=None) -> DrawCards:
        counts = sorted(a.count for a in legal)
        most = DrawCards(counts[-1])
        quiet = not obs.acted_this_turn and not obs.sold_this_turn
        if not obs.end_card_in or quiet:
            return most  # (a turn without action or draw could stall the game: no winner)
        me = obs.seat
        lead = wealth(obs, me) - max(wealth(obs, s) for s in range(obs.num_players) if s != me)
        if lead >= -self.p.end_margin:
            return most  # ahead: bring the end closer
        safe = [k for k in counts if k <= obs.top_left]  # draws that cannot be the End card
        return DrawCards(max(safe))

    # ------------------------------------------------------------------ phase 2
    def choose_work(self, obs, legal, rng):
        me = obs.seat
        builds = [a for a in legal if isinstance(a, Build)]
        if builds:
            return pick(builds, lambda a: self.card_value(obs, a.card), rng)
        if (not obs.acted_this_turn and not obs.sold_this_turn and len(obs.hand) < self.p.idle_refill):
            return end_turn(legal)  # an idle turn refills the hand to 7
        can_build = obs.builds_this_turn < obs.builds_per_turn and len(obs.built[me]) < obs.build_limit
        if can_build and len(obs.hand) >= 2:
            a = self.plan_build(obs, legal, rng)
            if a is not None:
                return a
        a = self.extra_worker(obs, legal, rng)
        if a is None and not obs.acted_this_turn and not obs.sold_this_turn and len(obs.hand) >= obs.hand_limit:
            a = self.any_worker(obs, legal, rng)  # a turn without action or draw could stall the game
        return a if a is not None else end_turn(legal)

    def any_worker(self, obs: Observation, legal, rng) -> PlaceWorker | None:
        """The least harmful worker (a stalled game has no winner, RULINGS §1.6 / engine stall rule)."""
        side = set(obs.sideways)
        scarce = self.scarcity(obs)
        gains = {c: self.worker_gain(obs, c, s, n, scarce) for c, s, n in table(obs) if n < 4 and c not in side}
        best = pick(gains, gains.__getitem__, rng)
        w = self.worker_card(obs, -1, rng)
        a = PlaceWorker(w, best) if w is not None and best is not None else None
        return a if a in legal else None

    def plan_build(self, obs: Observation, legal, rng) -> PlaceWorker | None:
        plans = {}
        for c in obs.hand:
            plan = plan_workers(obs, c, len(obs.hand) - 1, obs.seat, rng)
            if plan is not None and plan[1] >= 0:
                plans[c] = plan
        value = {c: self.card_value(obs, c) - plan[0] * self.p.worker_cost for c, plan in plans.items()}
        c = pick(value, value.__getitem__, rng)
        if c is None or value[c] <= 0:
            return None
        w = self.worker_card(obs, c, rng)
        a = PlaceWorker(w, plans[c][1]) if w is not None else None
        return a if a in legal else None

    def worker_card(self, obs: Observation, exclude: int, rng) -> int | None:
        return pick((c for c in obs.hand if c != exclude), lambda c: -self.keep_value(obs, c), rng)

    def extra_worker(self, obs: Observation, legal, rng) -> PlaceWorker | None:
        full = len(obs.hand) >= obs.hand_limit  # a full hand draws nothing: a worker costs less
        end = self.endgame(obs)  # the hand is worth nothing at the end: keep none
        if len(obs.hand) <= self.p.keep_hand and not full and not end:
            return None
        side = set(obs.sideways)
        scarce = self.scarcity(obs)
        gains = {c: self.worker_gain(obs, c, s, n, scarce) for c, s, n in table(obs) if n < 4 and c not in side}
        best = pick(gains, gains.__getitem__, rng)
        cost = 0.0 if full or end else self.p.worker_cost
        if best is None or gains[best] <= cost:
            return None
        w = self.worker_card(obs, -1, rng)
        a = PlaceWorker(w, best) if w is not None else None
        return a if a in legal else None
