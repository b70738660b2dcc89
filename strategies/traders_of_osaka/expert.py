"""``osaka.expert``: one-move lookahead over a rules model of its own observation (``model.py``).

Every turn action (Buy Goods, each Take Coins, each Reserve) is played out in the model: ships
advance, payments score with achievement-token bonuses (the payment order is chosen for its
own good), ships on the waves sink (its own insurance from the hand it keeps, rivals' insurance
estimated from their hand sizes), and a payment that ends the game is judged by who wins it (the end-token race).
Then the next player's best reply (buying what the action leaves in the Market, if it can
likely afford it) is played out too. Positions are valued as VP plus the expected payment of
each set held (set value with token bonus, discounted by the ship's risk of sinking: on the
waves or not, insured goods safe) and coin value, minus the best rival's.
"""

from __future__ import annotations

from pydantic import Field

from sim.games.traders_of_osaka.actions import (
    BuyGoods,
    ChoosePayment,
    EndInsurance,
    Insure,
    Reserve,
    TakeCoins,
)
from sim.games.traders_of_osaka.observation import Observation
from strategies.common import ScriptedStrategy

from . import OsakaBase, best_payment, pay_step
from .model import Model, Pos


class Expert(OsakaBase):
    """Lookahead over ship positions and waves, insurance, reservations and the end-token race,
    concentrating on the colours of its tokens (their bonus raises every set of that colour)."""

    class Params(ScriptedStrategy.Params):
        coin_value: float = Field(0.09, ge=0, description="VP per coin in hand (coins buy the next Market)")
        hold_weight: float = Field(0.6, ge=0, description="weight of a held set's payment (it is not scored yet)")
        wave_survival: float = Field(0.5, ge=0, le=1, description="chance goods on a ship on the waves reach Edo")
        route_survival: float = Field(0.6, ge=0, le=1, description="chance goods on a ship before the waves reach Edo")
        horizon_tokens: float = Field(4.0, gt=0, description="tokens short of the end below which held goods lose value")
        reply_weight: float = Field(0.7, ge=0, le=1, description="weight of the next player's best reply (buying)")
        reserve_weight: float = Field(0.0, ge=0, description="weight of the set value a reserved good adds for me")
        dry_cards: int = Field(5, ge=0, description="buy when draw pile + discard hold fewer cards than this per player (avoid a stall)")
        focus: float = Field(1.0, ge=0, description="setup token: penalty per rival token of a colour")

    def token_score(self, obs: Observation, colour: int) -> float:
        """Setup token: the colour richest in the Market and Farm and least taken by rivals."""
        on_show = sum(obs.cards[c].value for c in obs.market + obs.farm if obs.cards[c].colour == colour)
        rivals = sum(t[colour] for i, t in enumerate(obs.tokens) if i != obs.seat)
        return 0.2 * on_show - self.p.focus * rivals

    def choose(self, obs: Observation, legal, rng):
        if obs.prompt == "pay":
            return pay_step(obs, legal, rng)
        if obs.prompt == "token":
            return max(legal, key=lambda a: (self.token_score(obs, a.colour), rng.random()))
        m = Model(obs, self.p)
        if obs.prompt == "payment_order":
            return max(legal, key=lambda a: (self.order_value(m, a), rng.random()))
        if obs.prompt == "insure":
            return self.insure_choice(m, legal, rng)
        values = {a: self.action_value(m, a) for a in legal}
        if obs.draw_pile_size + len(obs.discard) < self.p.dry_cards * obs.num_players and any(isinstance(a, BuyGoods) for a in legal):
            # the deck is running dry: if nobody buys, the game stalls with no winner (RULINGS §2)
            values = {a: v if isinstance(a, BuyGoods) else v - 100.0 for a, v in values.items()}
        return max(legal, key=lambda a: (values[a], rng.random()))

    # ------------------------------------------------------------------ decisions
    def order_value(self, m: Model, a: ChoosePayment) -> float:
        p = m.position()
        icons = self.icons_of(m, m.obs.hand)
        m.payment(p, a.colour, m.me, icons)
        rest = [c for c in m.obs.pending_payments if c != a.colour]
        if not p.ended:
            p = m.pay_all(p, m.me, rest, icons)
        return m.value_of(p, m.me)

    def insure_choice(self, m: Model, legal, rng):
        """Insure with the card whose saved set value beats its coins most; else stop."""
        obs, w = m.obs, self.p
        mine = obs.merchandise[obs.seat]

        def gain(a: Insure) -> float:
            c = m.colour[a.card]
            held = [g for g in mine if m.colour[g] == c]
            exposed = sorted((g for g in held if g not in obs.insured), key=m.value.__getitem__, reverse=True)
            safe = [g for g in held if g in obs.insured]
            before = m.set_vp(obs.seat, safe, obs.tokens[obs.seat], c)
            after = m.set_vp(obs.seat, safe + exposed[: m.icons[a.card]], obs.tokens[obs.seat], c)
            return w.hold_weight * w.route_survival * (after - before) - w.coin_value * m.value[a.card]

        options = [(gain(a), rng.random(), a) for a in legal if isinstance(a, Insure)]
        best = max(options, key=lambda x: x[:2], default=None)
        if best is None or best[0] <= 0:
            return next(a for a in legal if isinstance(a, EndInsurance))
        return best[2]

    def action_value(self, m: Model, a) -> float:
        obs, me = m.obs, m.me
        base = m.position()
        reserved = dict(obs.reserved)
        market = list(obs.market)
        farm = list(obs.farm)
        extra = 0.0
        if isinstance(a, BuyGoods):
            goods = [c for c in market if reserved.get(c, me) == me]
            pay = best_payment(obs, obs.cost)
            left = [c for c in obs.hand if c not in pay]
            p = m.buy(base, me, goods, sum(m.value[c] for c in pay), self.icons_of(m, left))
            market = [c for c in market if c not in goods] + farm  # refreshed (2 unseen draws ignored)
            for c in goods:
                reserved.pop(c, None)
            farm = []
        elif isinstance(a, TakeCoins):
            p = base.copy()
            p.coins[me] += m.value[a.card]
            market.remove(a.card)
            reserved.pop(a.card, None)
        elif isinstance(a, Reserve):
            p = base.copy()
            reserved[a.card] = me
            extra = self.p.reserve_weight * self.set_gain(m, p, a.card)
        else:  # Pass
            p = base.copy()
        return self.after_reply(m, p, market, farm, reserved) + extra

    def after_reply(self, m: Model, p: Pos, market: list[int], farm: list[int], reserved: dict[int, int]) -> float:
        """My value after the next player's best reply: buying what the Market offers it, when it
        likely can afford it and gains by it (weighted by ``reply_weight``)."""
        me = m.me
        now = m.value_of(p, me)
        if p.ended:
            return now
        nxt = (me + 1) % m.n
        offer = [c for c in market if reserved.get(c, nxt) == nxt]
        if not offer:  # the Market refreshes at its turn: Farm to Market
            market = market + farm
            offer = [c for c in market if reserved.get(c, nxt) == nxt]
        cost = sum(m.value[c] for c in offer)
        if not offer or cost > p.coins[nxt]:
            return now
        q = m.buy(p, nxt, offer, cost, None)
        if m.value_of(q, nxt) <= m.value_of(p, nxt):
            return now
        w = self.p.reply_weight
        return (1 - w) * now + w * m.value_of(q, me)

    @staticmethod
    def set_gain(m: Model, p: Pos, card: int) -> float:
        """What ``card`` adds to my set of its colour (VP, weighted by its ship's survival)."""
        c = m.colour[card]
        goods = p.goods[m.me]
        before = m.set_vp(m.me, goods, p.tokens[m.me], c)
        after = m.set_vp(m.me, goods + [card], p.tokens[m.me], c)
        return (after - before) * m.survival(p.ships[c])

    @staticmethod
    def icons_of(m: Model, hand) -> list[int]:
        icons = [0] * m.nc
        for c in hand:
            icons[m.colour[c]] += m.icons[c]
        return icons
