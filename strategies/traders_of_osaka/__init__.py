"""Scripted Traders of Osaka strategies: three recognisably different plans.

- ``osaka.trader``: buys whenever it can afford a Market worth buying, else takes the best coin.
- ``osaka.hoarder``: saves coins for big Markets and reserves the best good it cannot buy yet.
- ``osaka.shipper``: times purchases to send ships to Edo while it holds a set of that colour,
  avoids pushing its own goods onto the waves, and insures what is exposed.

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


def best_payment(obs: Observation, remaining: int) -> list[int]:
    """Hand card ids covering ``remaining`` coins with the least overpay (then fewest icons spent).

    Subset sum over the hand (at most a few dozen cards, values up to 5): exact.
    """
    cards = obs.cards
    held = {cards[g].colour for g in obs.merchandise[obs.seat]}
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}  # total -> (penalty, cards)
    for c in obs.hand:
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


class OsakaBase(ScriptedStrategy):
    games = GAMES

    def choose(self, obs: Observation, legal, rng):
        if obs.prompt == "pay":
            plan = best_payment(obs, obs.cost - obs.paid)
            kinds = {(obs.cards[c].colour, obs.cards[c].value) for c in plan}
            for a in legal:  # legal pay actions are one card per (colour, value) kind
                if isinstance(a, PayCard) and (obs.cards[a.card].colour, obs.cards[a.card].value) in kinds:
                    return a
            return legal[0]
        if obs.prompt == "token":
            return max(legal, key=lambda a: (self.token_score(obs, a.colour), -a.colour))
        if obs.prompt == "payment_order":
            mine = obs.merchandise[obs.seat]
            return max(legal, key=lambda a: (sum(obs.cards[g].colour == a.colour for g in mine), -a.colour))
        if obs.prompt == "insure":
            return self.insure(obs, legal)
        return self.turn(obs, legal, rng)

    # -- shared helpers
    def token_score(self, obs: Observation, colour: int) -> float:
        """Default token choice: the colour most present in the Market and Farm."""
        return sum(obs.cards[c].colour == colour for c in obs.market + obs.farm)

    def exposed(self, obs: Observation, colour: int) -> int:
        return sum(1 for g in obs.merchandise[obs.seat] if obs.cards[g].colour == colour and g not in obs.insured)

    def insure(self, obs: Observation, legal) -> object:
        """Insure when at least ``insure_at`` goods of a sinking colour are exposed."""
        threshold = getattr(self.p, "insure_at", 1)
        options = [a for a in legal if isinstance(a, Insure)]
        options = [a for a in options if self.exposed(obs, obs.cards[a.card].colour) >= threshold]
        if not options:
            return next(a for a in legal if isinstance(a, EndInsurance))
        return max(options, key=lambda a: (obs.cards[a.card].insurance, -obs.cards[a.card].value))

    def market_goods(self, obs: Observation) -> list[int]:
        """Cards a purchase now would take: unreserved Market cards plus my reservation."""
        return [c for c in obs.market if obs.reserved_by(c) in (-1, obs.seat)]

    def best_coin(self, obs: Observation, legal):
        takes = [a for a in legal if isinstance(a, TakeCoins)]
        return max(takes, key=lambda a: (obs.cards[a.card].value, -a.card)) if takes else None

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
        return self.best_coin(obs, legal) or legal[0]


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
            return max(reserves, key=lambda a: (obs.cards[a.card].value, -a.card))
        coin = self.best_coin(obs, legal)
        if coin is not None:
            return coin
        return buy or legal[0]


class Shipper(OsakaBase):
    """Buys when the purchase sends a ship to Edo while it holds at least ``min_set`` goods of
    that colour (counting the ones bought), or when the Market holds ``min_goods`` goods and no
    ship it holds goods on would stop on the waves; insures any exposed good. Takes the token of
    the colour whose ship is furthest along."""

    class Params(ScriptedStrategy.Params):
        min_set: int = Field(2, ge=1, description="goods of a colour held to send its ship home")
        min_goods: int = Field(3, ge=1, description="otherwise buy Markets with at least this many goods")
        avoid_waves: bool = Field(True, description="do not push ships carrying my goods onto the waves")
        insure_at: int = Field(1, ge=1, description="insure a sinking colour with this many exposed goods")

    def token_score(self, obs, colour):
        return obs.ships[colour]

    def turn(self, obs, legal, rng):
        buy = next((a for a in legal if isinstance(a, BuyGoods)), None)
        goods = self.market_goods(obs)
        if buy is not None:
            cards = obs.cards
            edo = len(obs.track) - 1
            waves = {i for i, k in enumerate(obs.track) if k == "waves"}
            mine = [cards[g].colour for g in obs.merchandise[obs.seat]]
            bought = [cards[g].colour for g in goods]
            home = risky = False
            for colour in set(bought):
                k = bought.count(colour)
                dest = min(obs.ships[colour] + (1 if k == 1 else 2), edo)
                held = mine.count(colour) + k
                if dest == edo and held >= self.p.min_set:
                    home = True
                if dest in waves and mine.count(colour) > 0:
                    risky = True
            if home or (len(goods) >= self.p.min_goods and not (risky and self.p.avoid_waves)):
                return buy
        return self.best_coin(obs, legal) or buy or legal[0]


STRATEGIES = {"osaka.trader": Trader, "osaka.hoarder": Hoarder, "osaka.shipper": Shipper}
