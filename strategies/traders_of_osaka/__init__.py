"""Scripted Traders of Osaka strategies: three recognisably different plans.

- ``osaka.trader``: buys whenever it can afford a Market worth buying, else takes the best coin.
- ``osaka.hoarder``: saves coins for big Markets and reserves the best good it cannot buy yet.
- ``osaka.shipper``: times purchases to send ships to Edo while it holds a set of that colour,
  avoids pushing its own goods onto the waves, and insures what is exposed.
- ``osaka.expert``: one-move lookahead over a rules model of its observation (``expert.py``).

All share the payment rule (cover the cost with the least overpay, keeping insurance cards for
colours it holds) and answer the off-turn prompts (token, payment order, insurance).
"""

from __future__ import annotations

from pydantic import Field

from sim.games.traders_of_osaka.actions import (
    BuyGoods,
    EndInsurance,
    Insure,
    PayCard,
    Reserve,
    TakeCoins,
)
from sim.games.traders_of_osaka.observation import Observation
from strategies.common import ScriptedStrategy

GAMES = ("traders_of_osaka",)


def best_payment(obs: Observation, remaining: int, rng=None) -> list[int]:
    """Hand card ids covering ``remaining`` coins with the least overpay (then fewest icons spent
    on colours held, then fewest cards); among equal payments the hand order is shuffled with
    ``rng`` when given (no tie-break by card position). Returns the whole hand when it cannot cover.

    Subset sum over the hand (at most a few dozen cards, values up to 5): exact.
    """
    cards = obs.cards
    held = {cards[g].colour for g in obs.merchandise[obs.seat]}
    hand = list(obs.hand)
    if rng is not None:
        rng.shuffle(hand)
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}  # total -> (penalty, cards)
    for c in hand:
        card = cards[c]
        penalty = card.insurance if card.colour in held else 0
        for total, (pen, chosen) in list(best.items()):
            if total >= remaining:
                continue
            t, p = total + card.value, pen + penalty
            if t not in best or p < best[t][0]:
                best[t] = (p, chosen + [c])
    feasible = [(t, p, ch) for t, (p, ch) in best.items() if t >= remaining]
    if not feasible:
        return list(obs.hand)
    return min(feasible, key=lambda x: (x[0], x[1], len(x[2])))[2]


def pay_step(obs: Observation, legal, rng) -> PayCard:
    """One ``PayCard`` of the least-overpay payment (``best_payment``); ties at random."""
    plan = best_payment(obs, obs.cost - obs.paid, rng)
    kinds = {(obs.cards[c].colour, obs.cards[c].value) for c in plan}
    pays = [a for a in legal if isinstance(a, PayCard)]  # one card per (colour, value) kind
    matching = [a for a in pays if (obs.cards[a.card].colour, obs.cards[a.card].value) in kinds]
    return rng.choice(matching or pays)


class OsakaBase(ScriptedStrategy):
    games = GAMES

    def choose(self, obs: Observation, legal, rng):
        if obs.prompt == "pay":
            return pay_step(obs, legal, rng)
        if obs.prompt == "token":
            return max(legal, key=lambda a: (self.token_score(obs, a.colour), rng.random()))
        if obs.prompt == "payment_order":
            mine = obs.merchandise[obs.seat]
            return max(legal, key=lambda a: (sum(obs.cards[g].colour == a.colour for g in mine), rng.random()))
        if obs.prompt == "insure":
            return self.insure(obs, legal, rng)
        return self.turn(obs, legal, rng)

    # -- shared helpers
    def token_score(self, obs: Observation, colour: int) -> float:
        """Default token choice: the colour most present in the Market and Farm."""
        return sum(obs.cards[c].colour == colour for c in obs.market + obs.farm)

    def exposed(self, obs: Observation, colour: int) -> int:
        return sum(1 for g in obs.merchandise[obs.seat] if obs.cards[g].colour == colour and g not in obs.insured)

    def insure(self, obs: Observation, legal, rng) -> object:
        """Insure when at least ``insure_at`` goods of a sinking colour are exposed."""
        threshold = getattr(self.p, "insure_at", 1)
        options = [a for a in legal if isinstance(a, Insure)]
        options = [a for a in options if self.exposed(obs, obs.cards[a.card].colour) >= threshold]
        if not options:
            return next(a for a in legal if isinstance(a, EndInsurance))
        return max(options, key=lambda a: (obs.cards[a.card].insurance, -obs.cards[a.card].value, rng.random()))

    def market_goods(self, obs: Observation) -> list[int]:
        """Cards a purchase now would take: unreserved Market cards plus my reservation."""
        return [c for c in obs.market if obs.reserved_by(c) in (-1, obs.seat)]

    def best_coin(self, obs: Observation, legal, rng):
        """The highest-value coin offered (ties at random), or None."""
        takes = [a for a in legal if isinstance(a, TakeCoins)]
        return max(takes, key=lambda a: (obs.cards[a.card].value, rng.random())) if takes else None

    @staticmethod
    def fallback(legal, rng):
        """Buy when offered, else a random legal action (never the first in the engine's order)."""
        return next((a for a in legal if isinstance(a, BuyGoods)), None) or rng.choice(list(legal))

    def turn(self, obs, legal, rng):  # pragma: no cover - overridden
        raise NotImplementedError


class Trader(OsakaBase):
    """Buys whenever the Market is affordable and holds at least ``min_goods`` goods; otherwise
    takes the highest-value coin. Insures when ``insure_at`` or more goods are exposed."""

    class Params(ScriptedStrategy.Params):
        min_goods: int = Field(2, ge=1, description="buy only Markets with at least this many goods")
        insure_at: int = Field(2, ge=1, description="insure a sinking colour with this many exposed goods")

    def turn(self, obs, legal, rng):
        buy = next((a for a in legal if isinstance(a, BuyGoods)), None)
        if buy is not None and len(self.market_goods(obs)) >= self.p.min_goods:
            return buy
        return self.best_coin(obs, legal, rng) or self.fallback(legal, rng)


class Hoarder(OsakaBase):
    """Saves coins until the Market holds ``min_goods`` or more goods worth at least
    ``min_cost`` coins, then buys it all; meanwhile reserves the highest-value good (when
    ``reserve`` is on) and takes the highest coin."""

    class Params(ScriptedStrategy.Params):
        min_goods: int = Field(4, ge=1, description="goods the Market must hold before buying")
        min_cost: int = Field(12, ge=0, description="coins the Market must be worth before buying")
        reserve: bool = Field(True, description="reserve the best Market good while saving")
        insure_at: int = Field(1, ge=1, description="insure a sinking colour with this many exposed goods")

    def turn(self, obs, legal, rng):
        goods = self.market_goods(obs)
        buy = next((a for a in legal if isinstance(a, BuyGoods)), None)
        if buy is not None and len(goods) >= self.p.min_goods and obs.cost >= self.p.min_cost:
            return buy
        reserves = [a for a in legal if isinstance(a, Reserve) and a.card in obs.market]
        if self.p.reserve and reserves and len(goods) >= 2:
            return max(reserves, key=lambda a: (obs.cards[a.card].value, rng.random()))
        coin = self.best_coin(obs, legal, rng)
        if coin is not None:
            return coin
        return self.fallback(legal, rng)


class Shipper(OsakaBase):
    """Buys when the purchase sends a ship to Edo while it holds at least ``min_set`` goods of
    that colour (counting the ones bought), or when the Market holds ``min_goods`` goods, sends
    no ship home with fewer than ``min_set`` of its goods and leaves none of its goods on the
    waves unless forced or insurable: a ship at Anori or
    beyond must stop on the waves on its way (rulebook 'Advancing Ships': 1 or 2 steps), so only
    a ship still before Anori is held back, and only when its hand's insurance icons of that
    colour cannot cover the exposed goods. Insures any exposed good. Takes the token of the colour
    whose ship is furthest along (ties at random)."""

    class Params(ScriptedStrategy.Params):
        min_set: int = Field(2, ge=1, description="goods of a colour held to send its ship home")
        min_goods: int = Field(3, ge=1, description="otherwise buy Markets with at least this many goods")
        avoid_waves: bool = Field(True, description="do not push ships carrying my uninsurable goods onto the waves")
        insure_at: int = Field(1, ge=1, description="insure a sinking colour with this many exposed goods")

    def token_score(self, obs, colour):
        return obs.ships[colour]

    def turn(self, obs, legal, rng):
        buy = next((a for a in legal if isinstance(a, BuyGoods)), None)
        goods = self.market_goods(obs)
        if buy is not None:
            home, risky, wasted = self.assess(obs, goods)
            if home or (len(goods) >= self.p.min_goods and not (risky and self.p.avoid_waves) and not wasted):
                return buy
        return self.best_coin(obs, legal, rng) or self.fallback(legal, rng)

    def assess(self, obs, goods) -> tuple[bool, bool, bool]:
        """(sends a ship home with a set of ``min_set``, leaves uncovered goods on the waves
        avoidably, sends a ship home while holding fewer than ``min_set`` goods of its colour)."""
        cards = obs.cards
        edo = len(obs.track) - 1
        anchor = obs.track.index("anchor")
        waves = {i for i, k in enumerate(obs.track) if k == "waves"}
        mine = [cards[g].colour for g in obs.merchandise[obs.seat] if g not in obs.insured]
        bought = [cards[g].colour for g in goods]
        icons = [0] * len(obs.colours)
        for c in obs.hand:
            icons[cards[c].colour] += cards[c].insurance
        home = risky = wasted = False
        for colour in sorted(set(bought)):
            k = bought.count(colour)
            dest = min(obs.ships[colour] + (1 if k == 1 else 2), edo)
            if dest == edo:
                home = home or mine.count(colour) + k >= self.p.min_set
                wasted = wasted or mine.count(colour) + k < self.p.min_set
            exposed = mine.count(colour) + k
            if dest in waves and obs.ships[colour] < anchor and mine.count(colour) and exposed > icons[colour]:
                risky = True
        return home, risky, wasted


from .expert import Expert  # noqa: E402  (the expert builds on OsakaBase above)

STRATEGIES = {"osaka.trader": Trader, "osaka.hoarder": Hoarder, "osaka.shipper": Shipper, "osaka.expert": Expert}
