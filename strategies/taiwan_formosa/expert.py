"""``taiwan.expert``: a planner that uses every mechanic of Taiwan Formosa (issue 17 item 3).

It sees only its observation. Compared with the greedy plans (``planner.py``) it

- estimates the rounds left from the decks nearest to depletion ('Game End') and knows the
  final round once the end has triggered;
- prices every purchase as value minus cost, both in VP: the value is the printed VP (or VP
  minus the uncompleted penalty if the card cannot finish), the ability over the rounds it will
  be active (income engine: Night Market, Convenience Store, Lottery Office, Tribal Village,
  Warehouse, Temple; factories), the exclusive (red) abilities held and denied (Tax Bureau,
  Judicial Court, Urban Development Bureau, Demolition Company), Train Station and Baseball
  Field scoring, and the area-majority swing of its markers (landmarks, minor landmarks);
- pays with factories the resources it would otherwise lose at cleanup;
- times the end: hurries the trigger when ahead, holds it back when behind, and in the
  final round turns everything into VP (cards that score even uncompleted, charity markers,
  overtime that saves a penalty, the Temple).

Ties among equally valued actions are broken with ``rng``.
"""

from __future__ import annotations

import math

from pydantic import Field

# the action classes, item indices and helpers shared with the greedy plans
from .planner import (
    MERCHANT,
    MINOR_LANDMARKS,
    WORKER,
    BuyBuilding,
    BuyLandmark,
    Charity,
    ChooseDice,
    EndTurn,
    Exchange,
    Overtime,
    Planner,
    ScriptedStrategy,
    UseTemple,
    _majority,
    per_decision,
)

FACTORIES = ("sawmill", "brickworks", "steelworks", "stone_factory")  # resource 0..3 as a coin
WAYS = ("merchant", "items", "coins")  # preferred way to exchange, in order
RED_COINS = {"tax_bureau": 3.0, "urban_development_bureau": 1.2}  # coins a round, against each rival


class ExpertStrategy(Planner):
    """The expert plan (see the module docstring)."""

    class Params(ScriptedStrategy.Params):
        """Parameters of the expert.

        - ``item_coins``: coins one resource or worker is worth (coins), for the cost of a card.
        - ``vp_per_coin``: VP a coin is worth while the game has rounds to run (VP per coin).
        - ``majority_weight``: multiplier (VP per VP) on the area-majority swing of a marker.
        - ``engine_weight``: multiplier (VP per VP) on income abilities (coins, workers, resources).
        - ``red_weight``: multiplier (VP per VP) on exclusive (red) abilities, held or taken away.
        - ``pace``: cards per round the table takes from the decks nearest to depletion (cards).
        - ``min_value``: buy only when value minus cost is at least this (VP).
        - ``coin_reserve``: coins kept when buying dice (coins).
        - ``max_dice``: most dice rolled in a round before the final one (dice).
        - ``charity_min``: majority swing a contribution must bring before the final round (VP).
        - ``trigger_lead``: VP lead (including current majorities) beyond which the expert
          hurries the end, and the deficit beyond which it holds it back (VP).
        - ``trigger_weight``: VP added to (ahead) or taken from (behind) a purchase that empties a
          deck (VP).
        """

        item_coins: float = Field(3.0, gt=0)
        vp_per_coin: float = Field(0.2, ge=0)
        majority_weight: float = Field(1.0, ge=0)
        engine_weight: float = Field(1.0, ge=0)
        red_weight: float = Field(1.0, ge=0)
        pace: float = Field(0.8, gt=0)
        min_value: float = Field(0.0)
        coin_reserve: int = Field(12, ge=0)
        max_dice: int = Field(6, ge=2, le=12)
        charity_min: float = Field(2.0)
        trigger_lead: float = Field(5.0, ge=0)
        trigger_weight: float = Field(3.0, ge=0)

    # ------------------------------------------------------------------ estimates
    @per_decision
    def rounds_left(self, obs) -> int:
        """Building phases still to come, this round's included: exact once the end has
        triggered, else from the remaining cards of the decks nearest to depletion."""
        if obs.last_round:
            return obs.last_round - obs.round + 1
        sizes, depleted = [], 0
        for t, k in enumerate(obs.piles):
            if k:
                sizes.append(k)
            elif any(t in b for b in obs.bought):
                depleted += 1
        for r, top in enumerate(obs.lm_top):
            left = len(obs.lm_deck[r]) + (top >= 0)
            if left:
                sizes.append(left)
            else:
                depleted += 1
        need = max(1, obs.num_players - depleted)
        cards = sum(sorted(sizes)[:need])
        return max(2, min(15, 1 + math.ceil(cards / self.p.pace)))

    @per_decision
    def standing(self, obs, me: int) -> float:
        """My VP plus current majorities, minus the best rival's (VP)."""
        n = obs.num_players
        est = list(obs.vp)
        for order in obs.areas:
            for seat, v in _majority(order, n).items():
                est[seat] += v
        return est[me] - max(est[s] for s in range(n) if s != me)

    def penalty(self, obs, space: int) -> int:
        table = obs.tables.uncompleted_penalty
        return table[space - 1] if space <= len(table) else space + 1

    def coin_vp(self, rounds: int) -> float:
        """VP a coin is worth with ``rounds`` building phases to come (less near the end)."""
        return self.p.vp_per_coin * min(1.0, rounds / 3)

    # ------------------------------------------------------------------ values
    def income_value(self, obs, me: int, card, active: int, rounds: int) -> float:
        """VP of a basic or global income ability over ``active`` income phases."""
        a, p, n = card.ability, self.p, obs.num_players
        vpc = self.coin_vp(rounds)
        if a == "night_market":
            return 3 * vpc * active * p.engine_weight
        if a == "convenience_store":
            table = (2, 3, 4, 5)
            total = sum(d[card.id] for d in obs.done) + sum(1 for s in range(n) for c, _ in obs.uncompleted(s)
                                                               if c == card.id)
            mine = obs.done[me][card.id]
            after = table[min(total + 1, 4) - 1] * (mine + 1) - table[min(total, 4) - 1] * mine if total else 2
            return after * vpc * active * p.engine_weight
        if a == "lottery_office":
            return 4 * (p.max_dice / 6) * vpc * active * p.engine_weight
        if a in ("tribal_village", "warehouse"):
            return 3 * p.item_coins * vpc * p.engine_weight if active > 1 else 0.0
        if a == "temple":
            uses = active - 1
            if obs.tables.temple_limit == "per_player" and (obs.done[me][card.id] or any(
                    c == card.id for c, _ in obs.uncompleted(me))):
                uses = 0  # a second Temple adds nothing when the limit is per player
            return max(0, uses) * (2 - 2 * vpc)
        if a in FACTORIES:
            return 2.0 * vpc * active * p.engine_weight  # coins a round saved (resources past the hand limit)
        return 0.0

    def red_value(self, obs, me: int, card, active: int, rounds: int) -> float:
        """VP of holding an exclusive (red) ability, against every rival, plus taking it from its
        holder (their edge over me goes too)."""
        a, vpc = card.ability, self.coin_vp(rounds)
        if a in RED_COINS:
            per_round = RED_COINS[a] * (obs.num_players if a == "urban_development_bureau" else 1) * vpc
        elif a == "judicial_court":
            per_round = 0.7 * self.p.item_coins * vpc
        else:  # demolition_company: rivals' new buildings finish a round later
            per_round = 0.5
        holder = obs.excl[card.id]
        rivals_building = sum(1 for s in range(obs.num_players) if s != me
                              for c, _ in obs.uncompleted(s) if c == card.id)
        keep = 0.5 if rivals_building else 0.85  # a later copy takes it away
        deny = 1.0 if 0 <= holder != me else 0.0
        return self.p.red_weight * per_round * active * (keep + deny)

    def end_value(self, obs, me: int, card) -> float:
        """Train Station and Baseball Field: final-scoring VP (even uncompleted)."""
        if card.ability == "train_station":
            table = (0, 2, 4, 6)
            total = obs.train_bought
            mine = obs.bought[me].count(card.id)
            rival = max(obs.bought[s].count(card.id) for s in range(obs.num_players) if s != me)
            new = table[min(total + 1, 4) - 1] * (mine + 1) - (table[min(total, 4) - 1] * mine if total else 0)
            rise = table[min(total + 1, 4) - 1] - (table[min(total, 4) - 1] if total else 0)
            return new - rival * rise
        if card.ability == "baseball_field":
            nt = self.n_types(obs)
            return sum(obs.done[me][:nt]) + sum(1 for c, _ in obs.uncompleted(me) if c < nt) + 0.5 * self.rounds_left(obs)
        return 0.0

    @per_decision
    def card_value(self, obs, me: int, cid: int) -> float:
        """VP the card is worth to me if bought now (see the module docstring)."""
        c = obs.cards[cid]
        rounds = self.rounds_left(obs)
        t = c.time
        if c.kind != "landmark":
            demo = next((obs.excl[x.id] for x in obs.cards if x.ability == "demolition_company"), -1)
            t += 1 if 0 <= demo != me else 0
        active = rounds - t + 1  # income phases after completion
        if active >= 1:
            v = float(c.vp)
            if c.kind == "exclusive":
                v += self.red_value(obs, me, c, active, rounds)
            else:
                v += self.income_value(obs, me, c, active, rounds)
        else:
            v = float(c.vp) - self.penalty(obs, t - rounds)
        v += self.end_value(obs, me, c)
        if obs.markers[me]:
            if c.kind == "landmark":
                v += self.marker_value(obs, me, c.region)
            elif c.ability in MINOR_LANDMARKS:
                v += self.minor_marker_value(obs, me, c)
        return v + self.trigger_value(obs, me, cid)

    def trigger_value(self, obs, me: int, cid: int) -> float:
        """Emptying a deck brings the end closer: worth ``trigger_weight`` when ahead, a loss when behind."""
        c = obs.cards[cid]
        empties = (obs.piles[cid] == 1) if c.kind != "landmark" else not obs.lm_deck[c.region]
        if not empties or obs.last_round:
            return 0.0
        lead = self.standing(obs, me)
        if lead >= self.p.trigger_lead:
            return self.p.trigger_weight
        if lead <= -self.p.trigger_lead:
            return -self.p.trigger_weight
        return 0.0

    def price(self, obs, me: int, a) -> float:
        """VP given up by paying for ``a``: items and coins (items are worthless in the final
        round; a factory pays with a resource that cleanup would discard; the purchase worker is
        free while one is in hand, since cleanup discards it: '5. Cleanup Phase')."""
        rounds = self.rounds_left(obs)
        c = obs.cards[a.card]
        vpc = self.coin_vp(rounds)
        item_vp = 0.0 if rounds <= 1 else self.p.item_coins * vpc
        coins = c.coins - sum(a.subs)
        extra = max(0, sum(obs.items[me][:4]) - sum(c.need[:4]) - obs.tables.hand_limit)
        subs_cost = sum(a.subs) * item_vp - min(sum(a.subs), extra) * item_vp
        # workers in hand are discarded at cleanup ('5. Cleanup Phase'): the purchase worker costs
        # nothing when one is in hand (those stored on a Tribal Village are kept, so they count)
        free = min(c.need[WORKER], obs.items[me][WORKER])
        return (sum(c.need) - free) * item_vp + coins * vpc + subs_cost

    # ------------------------------------------------------------------ decisions
    def choose_dice(self, obs, legal, me):
        """Extra dice while the coins beyond the reserve pay for them; in the final round coins
        are worth little, so all it can pay."""
        final = obs.last_round and obs.round >= obs.last_round
        spare = obs.coins[me] - (0 if final else self.p.coin_reserve)
        want = obs.tables.free_dice + max(0, spare) // max(1, obs.tables.die_cost)
        want = min(want, 12 if final else self.p.max_dice)
        fits = [a for a in legal if isinstance(a, ChooseDice) and a.count <= want]
        return max(fits, key=lambda a: a.count) if fits else min(legal, key=lambda a: a.count)

    def choose_action(self, obs, legal, me, rng):
        p = self.p
        rounds = self.rounds_left(obs)
        vpc = self.coin_vp(rounds)
        item_vp = 0.0 if rounds <= 1 else p.item_coins * vpc
        temple = next((a for a in legal if isinstance(a, UseTemple)), None)
        if temple is not None and 2 > obs.tables.temple_coins * vpc:
            return temple
        buys = [a for a in legal if isinstance(a, (BuyBuilding, BuyLandmark))]
        if buys:
            vals: dict[int, float] = {}
            for a in buys:
                if a.card not in vals:
                    vals[a.card] = self.card_value(obs, me, a.card)
            best = max(buys, key=lambda a: (vals[a.card] - self.price(obs, me, a), rng.random()))
            if vals[best.card] - self.price(obs, me, best) >= (p.min_value if rounds > 1 else 0.01):
                return best
        charity = self.charity_move(obs, legal, me, rounds, vpc, item_vp, rng)
        if charity is not None:
            return charity
        ot = self.overtime_move(obs, legal, me, rounds, vpc, rng)
        if ot is not None:
            return ot
        ex = self.exchange_move(obs, legal, me, rng)
        if ex is not None:
            return ex
        return next(a for a in legal if isinstance(a, EndTurn))

    def charity_move(self, obs, legal, me, rounds, vpc, item_vp, rng):
        """A contribution whose majority swing beats its price (and ``charity_min`` before the
        final round: later markers can still overturn an early lead)."""
        best, best_v = None, (0.0, 0.0)
        for a in legal:
            if isinstance(a, Charity):
                cost = obs.charity[a.region]
                v = self.marker_value(obs, me, a.region) - cost[0] * vpc - sum(cost[1:]) * item_vp
                if (rounds <= 1 or v >= self.p.charity_min) and (v, 0.0) > best_v:
                    best, best_v = a, (v, rng.random())
        return best

    def overtime_move(self, obs, legal, me, rounds, vpc, rng):
        """Overtime with a worker no purchase needs: when it saves an end penalty or makes the
        card finish in time (its ability then works)."""
        best, best_v = None, (0.0, 0.0)
        for a in legal:
            if not isinstance(a, Overtime):
                continue
            end = a.space - rounds  # space at final scoring (<= 0: completed)
            if end <= 0:
                gain = 0.3  # finishes a round earlier: one more round of its ability
            elif end == 1:
                gain = self.penalty(obs, 1) + max(0.0, self.card_value_done(obs, me, a.card))
            else:
                gain = self.penalty(obs, end) - self.penalty(obs, end - 1)
            v = gain - obs.tables.overtime_coins * vpc
            if v > 0 and (v, 0.0) > best_v:
                best, best_v = a, (v, rng.random())
        return best

    def card_value_done(self, obs, me: int, cid: int) -> float:
        """Ability VP of a card that completes in the last building phase (one income phase)."""
        c = obs.cards[cid]
        if c.kind == "exclusive":
            return self.red_value(obs, me, c, 1, 1)
        return self.income_value(obs, me, c, 1, 1)

    def exchange_move(self, obs, legal, me, rng):
        """Exchange towards the best card not yet affordable (merchant, spare items, then coins);
        otherwise turn a merchant cleanup would discard into a resource."""
        exch = [a for a in legal if isinstance(a, Exchange)]
        if not exch:
            return None
        coins, it = obs.coins[me], obs.items[me]
        final = obs.last_round and obs.round >= obs.last_round
        tgt = self.final_target(obs, me, rng) if final else self.target(obs, me, rng)
        if tgt >= 0:
            miss = self.missing(obs, me, tgt)
            short = [i for i in range(5) if miss[i]]
            if short:
                want = short[int(rng.random() * len(short))]
                need = obs.cards[tgt].need + (0,)
                spare = sum(max(0, obs.available(me, i) - need[i]) for i in range(6))
                budget = coins - obs.cards[tgt].coins - (0 if final else self.p.coin_reserve)
                rate = obs.tables.exchange_coins
                for a in sorted(exch, key=lambda a: WAYS.index(a.via)):
                    if a.get != want:
                        continue
                    if a.via == "merchant" or (a.via == "items" and spare >= obs.tables.exchange_items):
                        return a
                    if a.via == "coins" and budget >= rate * sum(miss):
                        return a
        if it[MERCHANT] and sum(it[:4]) < obs.tables.hand_limit and not final:
            return self.merchant_move(obs, exch, me, tgt, rng)
        return None

    def reachable(self, obs, me: int, cid: int, reserve: int) -> bool:
        """Whether exchanges this turn (merchants, spare items 3 for 1, coins beyond ``reserve``)
        can make card ``cid`` affordable."""
        c, tb = obs.cards[cid], obs.tables
        miss = sum(self.missing(obs, me, cid))
        need = c.need + (0,)
        merchants = obs.available(me, MERCHANT)
        spare = sum(max(0, obs.available(me, i) - need[i]) for i in range(5))
        by_merchant = min(miss, merchants, max(0, obs.coins[me] - c.coins) // max(1, tb.merchant_coins))
        left = miss - by_merchant - spare // tb.exchange_items
        coins = obs.coins[me] - c.coins - reserve - by_merchant * tb.merchant_coins
        return left <= 0 or coins >= left * tb.exchange_coins

    def final_target(self, obs, me: int, rng) -> int:
        """Final round: the card worth most VP that exchanges can still make affordable this turn
        (-1: none worth anything)."""
        offer = [t for t, k in enumerate(obs.piles) if k] + [c for c in obs.lm_top if c >= 0]
        best, best_id = (0.0, 0.0), -1
        for cid in offer:
            if self.reachable(obs, me, cid, 0):
                v = (self.card_value(obs, me, cid), rng.random())
                if v > best:
                    best, best_id = v, cid
        return best_id
