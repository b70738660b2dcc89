"""The greedy planner shared by the ``taiwan.*`` plans (see ``strategies/taiwan_formosa/__init__.py``).

Ties among equally valued actions are broken with the strategy's ``rng`` (issue 17), never by
seat, card id, region or the order of ``legal``.
"""

from __future__ import annotations

from pydantic import Field

from sim.games.taiwan_formosa.actions import (
    BuyBuilding,
    BuyLandmark,
    Charity,
    ChooseDice,
    EndTurn,
    Exchange,
    Overtime,
    UseTemple,
)
from strategies.common import ScriptedStrategy

from .helpers import _majority, per_decision

WORKER, MERCHANT = 4, 5  # item indices (``sim.games.taiwan_formosa.actions``)
MINOR_LANDMARKS = ("hot_spring", "public_art")
VIAS = ("coins", "merchant", "items")  # preferred way to exchange, in order
ENGINE = {"sawmill", "stone_factory", "brickworks", "steelworks", "night_market", "convenience_store",
          "lottery_office", "warehouse", "tribal_village", "temple"}


class Planner(ScriptedStrategy):
    """Greedy planner; the plan is set by the parameters (see the subclasses)."""

    games = ("taiwan_formosa",)

    class Params(ScriptedStrategy.Params):
        """Parameters of the greedy planner.

        - ``coin_reserve``: coins (coins) kept back when buying dice and exchanging coins.
        - ``max_dice``: most dice (dice) rolled in a round.
        - ``engine_weight``: multiplier (VP per VP) on the value of income abilities.
        - ``landmark_bonus``: VP added to every landmark card (VP, >= 0).
        - ``majority_weight``: multiplier (VP per VP) on the area-majority swing of a marker.
        - ``charity``: contribute to charity when a marker is worth at least this (VP; 0: never).
        - ``overtime``: work overtime with spare workers (bool).
        - ``min_value``: buy a card only when its value is at least this (VP; may be negative: buy at a loss).
        - ``item_coins``: coins one worker or resource is worth, for value per cost (coins).
        """

        coin_reserve: int = Field(10, ge=0)
        max_dice: int = Field(5, ge=2, le=7)
        engine_weight: float = Field(1.0, ge=0)
        landmark_bonus: float = Field(0.0, ge=0)
        majority_weight: float = Field(1.0, ge=0)
        charity: float = Field(0.0, ge=0)
        overtime: bool = False
        min_value: float = Field(1.0)
        item_coins: float = Field(6.0, gt=0)

    # ------------------------------------------------------------------ estimates
    @per_decision
    def rounds_left(self, obs) -> int:
        """Building phases still to come, this round's included (estimated before the trigger)."""
        if obs.last_round:
            return obs.last_round - obs.round + 1
        piles = sum(1 for t, k in enumerate(obs.piles) if k == 0 and any(t in b for b in obs.bought))
        decks = sum(1 for r, top in enumerate(obs.lm_top) if top < 0 and not obs.lm_deck[r])
        short = obs.num_players - piles - decks
        return max(2, min(12, 2 + 2 * short))

    def marker_value(self, obs, me: int, region: int, k: int = 1) -> float:
        """Majority swing (VP for me, minus half the best opponent's gain) of ``k`` markers."""
        order = obs.areas[region]
        key = (order, me, k, obs.num_players)  # the swing depends on nothing else: kept across decisions
        swings = self.__dict__.setdefault("_swings", {})
        got = swings.get(key)
        if got is None:
            if len(swings) > 100_000:  # bounded: a long run meets many area orders
                swings.clear()
            got = swings[key] = self._swing(obs, order, me, k)
        return got

    def _swing(self, obs, order: tuple[int, ...], me: int, k: int) -> float:
        before = _majority(order, obs.num_players)
        after = _majority(order + (me,) * k, obs.num_players)
        mine = after.get(me, 0) - before.get(me, 0)
        theirs = max((after.get(s, 0) - before.get(s, 0) for s in range(obs.num_players) if s != me), default=0)
        return self.p.majority_weight * (mine - 0.5 * theirs)

    def ability_value(self, obs, me: int, card, rounds: int) -> float:
        """Rough VP-equivalent of ``card``'s ability over ``rounds`` active rounds."""
        a, p = card.ability, self.p
        coin = 1.0 / (p.item_coins * 1.2)  # VP per coin
        v = 0.0
        if a in ("sawmill", "stone_factory", "brickworks", "steelworks"):
            v = 0.8 * coin * rounds
        elif a == "night_market":
            v = 3 * coin * rounds
        elif a == "convenience_store":
            built = sum(d[card.id] for d in obs.done)
            v = (2 + min(built, 3)) * coin * rounds
        elif a == "lottery_office":
            v = 4 * coin * rounds * 0.6
        elif a == "temple":
            v = 1.5 * rounds
        elif a in ("warehouse", "tribal_village"):
            v = 3 * p.item_coins * coin if rounds > 0 else 0
        elif a == "tax_bureau":
            v = 3 * coin * rounds * 0.6
        elif a == "urban_development_bureau":
            v = 0.5 * coin * rounds * (obs.num_players - 1)
        elif a == "judicial_court":
            v = 0.3 * rounds
        elif a == "demolition_company":
            v = 0.2 * rounds
        elif a == "baseball_field":
            return sum(obs.done[me][: self.n_types(obs)]) + 2.0  # scores even if uncompleted
        elif a == "train_station":
            bought = sum(b.count(card.id) for b in obs.bought)
            return 2.0 * min(bought + 1, 3) - 2.0  # table 0/2/4/6 grows with every station
        if a in ENGINE:
            v *= p.engine_weight
        return v

    def statics(self, obs) -> tuple[int, int, tuple[float, ...]]:
        """What never changes in a game: ``(building types, Demolition Company's card id or -1,
        cost per card)``, computed once per table of cards."""
        st = self.__dict__.get("_statics")
        if st is None or st[0] is not obs.tables:
            cards = obs.tables.cards
            demo = next((x.id for x in cards if x.ability == "demolition_company"), -1)
            costs = tuple(sum(c.need) * self.p.item_coins + c.coins for c in cards)
            st = self.__dict__["_statics"] = (obs.tables, (sum(1 for c in cards if c.kind != "landmark"), demo, costs))
        return st[1]

    def n_types(self, obs) -> int:
        return self.statics(obs)[0]

    def card_value(self, obs, me: int, cid: int) -> float:
        """VP-equivalent of buying ``cid`` now (``value_of``), kept across decisions while its
        inputs are unchanged (a turn's exchanges change only coins and items)."""
        memo = self.__dict__.get("_table_of")  # (obs, me, table): one look-up per decision
        if memo is None or memo[0] is not obs or memo[1] != me:
            memo = self.__dict__["_table_of"] = (obs, me, self.values_table(obs, me))
        values = memo[2]
        v = values.get(cid)
        if v is None:
            self._fill(obs, me, values, cid)
            v = values[cid]
        return v

    def _fill(self, obs, me: int, values: dict, cid: int) -> None:
        """Put ``value_of`` of ``cid`` and of every other card on offer into ``values`` at once
        (the position's inputs are read once; each value is the one ``value_of`` gives)."""
        offer = [t for t, k in enumerate(obs.piles) if k] + [c for c in obs.lm_top if c >= 0]
        if cid not in offer:
            offer.append(cid)
        cards, rounds, late, markers = self._inputs(obs, me)
        value = self._value
        # per strategy object; ``me`` in every key: a search's plans decide for every seat
        plain = self.__dict__.setdefault("_plain", {})
        special = self._special
        for c in offer:
            if c not in values:
                card = cards[c]
                if card.ability in special:
                    values[c] = value(obs, me, card, rounds, late, markers)
                    continue
                if card.kind == "landmark":  # its region's markers only
                    key = (c, me, rounds, markers > 0, obs.areas[card.region])
                elif card.ability in MINOR_LANDMARKS:
                    key = (c, me, rounds, late, markers, obs.areas)
                else:
                    key = (c, me, rounds, late)
                v = plain.get(key)
                if v is None:
                    if len(plain) > 50_000:  # bounded
                        plain.clear()
                    v = plain[key] = value(obs, me, card, rounds, late, markers)
                values[c] = v

    # abilities whose value reads more of the position than the rounds left, a rival's Demolition
    # Company and (landmarks, minor landmarks) my markers and the areas: not kept across positions
    # by ``_fill``
    _special = frozenset({"convenience_store", "baseball_field", "train_station"})

    def values_table(self, obs, me: int) -> dict[int, float]:
        """Card values already computed for a position with the same inputs of ``value_of``
        (the key holds every field it reads, so a hit is the same value); key ``-1`` holds the
        position's ``candidates``."""
        # the round counts only once the end has triggered (``rounds_left``)
        key = (me, obs.num_players, obs.last_round and obs.round, obs.last_round, obs.piles, obs.lm_top,
               obs.lm_deck, obs.excl, obs.done, obs.bought, obs.markers[me], obs.areas)
        tables = self.__dict__.get("_values")
        if tables is None or tables[0] is not obs.tables or len(tables[1]) > 20_000:
            tables = self.__dict__["_values"] = (obs.tables, {})  # bounded; one table of cards
        return tables[1].setdefault(key, {})

    def value_of(self, obs, me: int, cid: int) -> float:
        """Printed VP, the ability over the rounds left (or the end penalty), the landmark bonus
        and the majority swing of the card's markers (VP)."""
        cards, rounds, late, markers = self._inputs(obs, me)
        return self._value(obs, me, cards[cid], rounds, late, markers)

    def _inputs(self, obs, me: int) -> tuple:
        """What ``_value`` reads of the position: ``(cards, rounds left, 1 if a rival holds the
        Demolition Company else 0, my markers left)``."""
        demo_id = self.statics(obs)[1]
        demo = obs.excl[demo_id] if demo_id >= 0 else -1
        return obs.tables.cards, self.rounds_left(obs), 1 if demo >= 0 and demo != me else 0, obs.markers[me]

    def _value(self, obs, me: int, c, rounds: int, late: int, markers: int) -> float:
        t = c.time
        if c.kind != "landmark":
            t += late
        if t <= rounds:
            v = float(c.vp) + self.ability_value(obs, me, c, rounds - t)
        else:
            space = t - rounds
            v = float(c.vp) - (space + 1) + (self.ability_value(obs, me, c, 0)
                                              if c.ability in ("baseball_field", "train_station") else 0)
        if c.kind == "landmark":
            v += self.p.landmark_bonus
            if markers:
                v += self.marker_value(obs, me, c.region)
        elif c.ability in MINOR_LANDMARKS and markers:
            v += self.minor_marker_value(obs, me, c)
        return v

    def minor_marker_value(self, obs, me: int, c) -> float:
        """VP of minor landmark ``c``'s markers in their best region: Hot Spring Hotel 2 VP per
        marker already there plus the majority swing; Public Art Installation the swing of its 2
        markers in a region without mine (Building Card Abilities D)."""
        if c.ability == "hot_spring":
            return max(2 * len(obs.areas[r]) + self.marker_value(obs, me, r) for r in range(len(obs.regions)))
        k = min(2, obs.markers[me])
        return max((self.marker_value(obs, me, r, k) for r in range(len(obs.regions)) if me not in obs.areas[r]),
                   default=0.0)

    def cost(self, obs, cid: int) -> float:
        """Coins the card costs, its items (purchase worker included) at ``item_coins`` each."""
        return self.statics(obs)[2][cid]

    def target(self, obs, me: int, rng) -> int:
        """The card with the best value per cost among those on offer (-1: none worth it);
        ties broken with ``rng`` (one draw per card worth at least ``min_value``, in offer order)."""
        best, best_id = (0.0, 0.0), -1
        for cid, ratio in self.candidates(obs, me):
            score = (ratio, rng.random())
            if score > best:
                best, best_id = score, cid
        return best_id

    def candidates(self, obs, me: int) -> tuple[tuple[int, float], ...]:
        """``(card, value per cost)`` for each card on offer worth at least ``min_value``, in
        offer order (building types, then the regions' face-up landmarks). With the planner's own
        ``card_value`` the list is kept in the position's values table (key ``-1``: the offer is
        part of that table's key), so positions met again cost one look-up."""
        if type(self).card_value is not Planner.card_value:  # a subclass values cards its own way
            return self._candidates(obs, me)
        memo = self.__dict__.get("_table_of")
        if memo is None or memo[0] is not obs or memo[1] != me:
            memo = self.__dict__["_table_of"] = (obs, me, self.values_table(obs, me))
        values = memo[2]
        got = values.get(-1)
        if got is None:
            got = values[-1] = self._candidates(obs, me)
        return got

    def _candidates(self, obs, me: int) -> tuple[tuple[int, float], ...]:
        offer = [t for t, k in enumerate(obs.piles) if k] + [c for c in obs.lm_top if c >= 0]
        costs, floor = self.statics(obs)[2], self.p.min_value
        out = []
        for cid in offer:
            v = self.card_value(obs, me, cid)
            if v >= floor:
                out.append((cid, v / costs[cid]))
        return tuple(out)

    def missing(self, obs, me: int, cid: int) -> list[int]:
        need = obs.cards[cid].need
        return [max(0, need[i] - obs.available(me, i)) for i in range(5)]

    # ------------------------------------------------------------------ decisions
    def choose(self, obs, legal, rng):
        prompt, me = obs.prompt, obs.seat
        if prompt == "dice":
            return self.choose_dice(obs, legal, me)
        if prompt == "action":
            return self.choose_action(obs, legal, me, rng)
        if prompt == "give":
            return self.choose_give(obs, legal, me, rng)
        if prompt == "place":
            k = 2 if obs.cards[obs.place].ability == "public_art" else 1
            places = [a for a in legal if a.region >= 0]  # -1 declines (an option): never chosen
            return max(places, key=lambda a: (self.marker_value(obs, me, a.region, k)
                                              + (2 * len(obs.areas[a.region]) if k == 1 else 0), rng.random()))
        if prompt == "warehouse":
            tgt = self.target(obs, me, rng)
            miss = self.missing(obs, me, tgt) if tgt >= 0 else [0] * 5
            need = obs.cards[tgt].need if tgt >= 0 else (0,) * 5
            return max(legal, key=lambda a: (miss[a.item], need[a.item], rng.random()))
        if prompt in ("judicial", "discard"):
            return self.choose_discard(obs, legal, me, rng)
        return legal[int(rng.random() * len(legal))]

    def choose_dice(self, obs, legal, me):
        spare = obs.coins[me] - self.p.coin_reserve
        want = obs.tables.free_dice + max(0, spare) // max(1, obs.tables.die_cost)
        want = min(want, self.p.max_dice)
        best = min(legal, key=lambda a: a.count)
        for a in legal:
            if isinstance(a, ChooseDice) and a.count <= want:
                best = a if a.count > best.count else best
        return best

    def choose_give(self, obs, legal, me, rng):
        tgt = self.target(obs, me, rng)
        need = obs.cards[tgt].need + (0,) if tgt >= 0 else (0,) * 6
        have = [obs.available(me, i) for i in range(6)]
        # give what the target needs least: surplus first, most abundant first
        return max(legal, key=lambda a: (have[a.item] - need[a.item], a.item != obs.exch_get, rng.random()))

    def choose_discard(self, obs, legal, me, rng):
        tgt = self.target(obs, me, rng)
        need = obs.cards[tgt].need if tgt >= 0 else (0,) * 5
        have = obs.items[me]
        return max(legal, key=lambda a: (have[a.item] - need[a.item], rng.random()))

    def choose_action(self, obs, legal, me, rng):
        p = self.p
        buys = [a for a in legal if isinstance(a, (BuyBuilding, BuyLandmark))]
        if buys:
            vals = {}
            for a in buys:
                if a.card not in vals:
                    vals[a.card] = self.card_value(obs, me, a.card)
            best = max(buys, key=lambda a: (vals[a.card], -sum(a.subs), rng.random()))
            if vals[best.card] >= p.min_value:
                return best
        for a in legal:
            if isinstance(a, UseTemple):
                return a
        if p.charity:
            ch = [(self.marker_value(obs, me, a.region), rng.random(), a) for a in legal if isinstance(a, Charity)]
            if ch:
                v, _, a = max(ch)
                if v >= p.charity:
                    return a
        tgt = self.target(obs, me, rng)
        coins = obs.coins[me]
        exch = [a for a in legal if isinstance(a, Exchange)]
        if tgt >= 0 and exch:
            miss = self.missing(obs, me, tgt)
            short = [i for i in range(5) if miss[i]]
            want = short[int(rng.random() * len(short))] if short else -1
            if want >= 0:
                spare_items = sum(obs.available(me, i) - (obs.cards[tgt].need + (0,))[i]
                                  for i in range(6) if obs.available(me, i) > (obs.cards[tgt].need + (0,))[i])
                budget = coins - p.coin_reserve - obs.cards[tgt].coins
                rate = obs.tables.exchange_coins
                for a in sorted(exch, key=lambda a: VIAS.index(a.via)):  # a fixed preference of ways
                    if a.get != want:
                        continue
                    if a.via == "merchant":
                        return a
                    if a.via == "items" and spare_items >= obs.tables.exchange_items:
                        return a
                    if a.via == "coins" and budget >= rate and sum(miss) <= 1 + budget // rate:
                        return a
        # workers and merchants are lost at cleanup: use them
        it = obs.items[me]
        if p.overtime and it[WORKER] and coins - obs.tables.overtime_coins >= p.coin_reserve // 2:
            ots = [a for a in legal if isinstance(a, Overtime)]
            if ots:
                return max(ots, key=lambda a: (obs.cards[a.card].vp, -a.space, rng.random()))
        if it[MERCHANT] and sum(it[:4]) < obs.tables.hand_limit:
            a = self.merchant_move(obs, exch, me, tgt, rng)
            if a is not None:
                return a
        return next(a for a in legal if isinstance(a, EndTurn))

    def merchant_move(self, obs, exch, me: int, tgt: int, rng):
        """Turn a merchant (lost at cleanup) into the resource target ``tgt`` lacks most, else the
        one held least (ties by ``rng``): that merchant ``Exchange`` among ``exch``, or None."""
        it = obs.items[me]
        want = self.missing(obs, me, tgt) if tgt >= 0 else [0] * 5
        item = max(range(4), key=lambda i: (want[i], -it[i], rng.random()))
        return next((a for a in exch if a.via == "merchant" and a.get == item), None)


