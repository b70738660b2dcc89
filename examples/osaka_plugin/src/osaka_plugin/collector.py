"""``osaka_plugin.collector``: a Traders of Osaka strategy kept outside boardsim.

Plan: specialise. Buy the Market only when it holds a good of one of the ``colours`` colours
the seat already collects most (any colour while it holds none); otherwise take the coin
worth most. Pay with the cards of highest value first; never insure; at the other prompts
take the first choice.

A strategy is any object with ``choose(obs, legal, rng)``: ``obs`` is the seat's frozen
Observation (its own hand and VP, everything public; never others' hands), ``legal`` the
legal actions in the engine's order (return one of them), ``rng`` a ``random.Random`` that
is the only randomness allowed (results stay reproducible). Import only a game's ``actions``
and ``observation`` modules.
"""

from __future__ import annotations

from collections import Counter

from sim.games.traders_of_osaka.actions import BuyGoods, PayCard, TakeCoins


class Collector:
    """Collects goods of its ``colours`` favourite colours; takes the best coin otherwise."""

    games = ("traders_of_osaka",)  # the registry refuses it for other games

    def __init__(self, colours: int = 2) -> None:
        if colours < 1:
            raise ValueError("colours must be at least 1")
        self.colours = colours

    def choose(self, obs, legal, rng):
        cards = obs.cards
        if obs.prompt == "pay":  # highest value first: fewer cards spent
            return max((a for a in legal if isinstance(a, PayCard)), key=lambda a: cards[a.card].value)
        if obs.prompt != "action":
            return legal[-1] if obs.prompt == "insure" else legal[0]  # insure: EndInsurance is last
        held = Counter(cards[g].colour for g in obs.merchandise[obs.seat])
        wanted = {c for c, _ in held.most_common(self.colours)} or set(range(len(obs.colours)))
        buy = next((a for a in legal if isinstance(a, BuyGoods)), None)
        if buy is not None and any(cards[c].colour in wanted for c in obs.market):
            return buy
        coins = [a for a in legal if isinstance(a, TakeCoins)]
        if coins:
            best = max(cards[a.card].value for a in coins)
            return rng.choice([a for a in coins if cards[a.card].value == best])  # the given rng only
        return legal[0]
