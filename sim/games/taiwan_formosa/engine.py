"""Taiwan Formosa: the forward model (rulebook seeds/004, RULINGS §3).

Flow: setup (chance: 12 building types drawn, the top landmark of each region revealed, the
start player) -> rounds of five phases:

1. Dice: each seat from the start player declares 2-7 dice (a decision; auto when only 2 are
   affordable), pays, rolls (one chance node per roll over the multisets of faces).
2. Action: each seat in turn makes small decisions (buy building / landmark, exchange,
   overtime, charity, Temple) until ``EndTurn``; a 3-item exchange asks for the 3 items with
   ``Give``; a minor landmark asks for its region with ``PlaceMarkers``; a bought landmark is
   replaced by a chance reveal.
3. Building: every uncompleted card moves one space; cards reaching 0 complete (VP, ability;
   a Warehouse asks its owner for a resource type). Exclusive (red) abilities change hands.
4. Income: 15 coins +/- Night Market, Convenience Store, Tax Bureau; the Judicial Court makes
   the others discard a resource (their choice).
5. Cleanup: workers and merchants go; hands are cut to 5 resources (the owner's choice).
   The start player moves left; the end check runs.

Decisions with a single legal option (a forced discard, the only region left) are applied
automatically and are not counted as decisions.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, fields
from itertools import product
from operator import mul

from sim.api import CHANCE, TERMINAL, EngineBase, GameInfo, SimError

from .actions import (
    END_TURN,
    USE_TEMPLE,
    BuyBuilding,
    BuyLandmark,
    Charity,
    ChooseDice,
    Discard,
    DrawType,
    EndTurn,
    Exchange,
    Give,
    Overtime,
    PlaceMarkers,
    Reveal,
    Roll,
    StartPlayer,
    StockWarehouse,
    UseTemple,
)
from .observation import PUBLIC_FIELDS, CardInfo, Observation, Tables, area_majority  # noqa: F401  (public here too)
from .rules import FACTORY_RESOURCE, ITEMS, MERCHANT, RESOURCES, WORKER, Options, TaiwanData, load_data

# phases
SETUP, START, DICE, ROLL, ACTION, GIVE, PLACE, WAREHOUSE, JUDICIAL, DISCARD, END = range(11)
PROMPTS = {DICE: "dice", ACTION: "action", GIVE: "give", PLACE: "place", WAREHOUSE: "warehouse",
           JUDICIAL: "judicial", DISCARD: "discard"}
VIAS = ("coins", "merchant", "items")
NO_SUBS = (0, 0, 0, 0)


@dataclass
class State:
    """Plain, picklable game state (lists and ints only). Seats are fixed; ``start`` moves."""

    n: int
    phase: int = SETUP
    round: int = 1
    start: int = 0
    pos: int = 0  # position in turn order (from the start player) in the dice and action phases
    types_left: int = 0  # building types still to draw at setup
    piles: list[int] = field(default_factory=list)  # copies left per building type (0: not in play)
    lm_top: list[int] = field(default_factory=list)  # per region: face-up landmark or -1
    lm_deck: list[tuple[int, ...]] = field(default_factory=list)  # per region: face-down landmarks, sorted
    to_reveal: list[int] = field(default_factory=list)  # regions waiting for a reveal (chance)
    coins: list[int] = field(default_factory=list)
    items: list[list[int]] = field(default_factory=list)  # per seat, per item: tiles in hand
    store: list[list[int]] = field(default_factory=list)  # per seat, per item: on Warehouse / Tribal Village
    vp: list[int] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)  # markers left in each seat's supply
    track: list[tuple[int, ...]] = field(default_factory=list)  # per seat, flat: card, space, ... (uncompleted)
    done: list[tuple[int, ...]] = field(default_factory=list)  # per seat, per card: completed copies
    bought: list[tuple[int, ...]] = field(default_factory=list)  # per seat: card ids in purchase order
    areas: list[tuple[int, ...]] = field(default_factory=list)  # per region: seats in placement order
    excl: list[int] = field(default_factory=list)  # per building type: seat holding its red ability
    temple_used: list[int] = field(default_factory=list)
    fac_used: list[tuple[int, ...]] = field(default_factory=list)  # per seat, per resource
    dice: int = 0  # dice declared, waiting for the roll
    exch_get: int = -1
    gives_left: int = 0
    place: int = -1  # minor landmark waiting for its region
    queue: list[int] = field(default_factory=list)  # seats owing a decision (warehouse/judicial/discard)
    last_round: int = 0  # the final round once the end has triggered, else 0
    train_bought: int = 0
    hot_spring: list[tuple[int, ...]] = field(default_factory=list)  # per seat: regions of Hot Spring markers
    vp_done: list[int] = field(default_factory=list)
    vp_ability: list[int] = field(default_factory=list)
    vp_uncomp: list[int] = field(default_factory=list)
    vp_penalty: list[int] = field(default_factory=list)
    vp_major: list[int] = field(default_factory=list)
    dice_rolled: list[int] = field(default_factory=list)
    n_exchanges: list[int] = field(default_factory=list)
    n_overtime: list[int] = field(default_factory=list)
    n_charity: list[int] = field(default_factory=list)
    stalled: bool = False
    scored: bool = False


# what the observation holds of the state (the rest are end-of-game figures for metrics)
FIGURES = ("vp_done", "vp_ability", "vp_uncomp", "vp_penalty", "vp_major", "dice_rolled", "n_exchanges",
           "n_overtime", "n_charity", "stalled", "scored")
TUPLE_ROWS = ("lm_deck", "track", "done", "bought", "areas", "fac_used", "hot_spring")  # lists of tuples
STATE_FIELDS = tuple(f.name for f in fields(State) if f.name != "n" and f.name not in FIGURES)
assert STATE_FIELDS == PUBLIC_FIELDS, "the observation's public tuple follows the state's fields"


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v):
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


def uncompleted_penalty(space: int, table: tuple[int, ...]) -> int:
    """VP lost by a card left on ``space`` (RULINGS §3: beyond the table, space + 1)."""
    return table[space - 1] if space <= len(table) else space + 1


class TaiwanFormosa(EngineBase):
    """Taiwan Formosa for 2-5 players. ``TaiwanFormosa(num_players, Options(), load_data())``."""

    lazy_observations = True  # observe() hands out views; play_game closes each after its decision

    info = GameInfo("taiwan_formosa", "2", 2, 5, "Taiwan Formosa", "seeds/004_4a1bd00d23a16b91.txt")
    Options = Options
    load_data = staticmethod(load_data)

    def __init__(self, num_players: int, options: Options | None = None, data: TaiwanData | None = None):
        self.check_players(num_players)
        self.num_players = num_players
        self.options = o = options or Options()
        self.data = data or load_data()
        bd, ld = self.data.buildings, self.data.landmarks
        if o.building_types_in_play > len(bd.buildings):
            raise SimError(f"option building_types_in_play={o.building_types_in_play} but the data has only "
                           f"{len(bd.buildings)} building types")
        self.n_types = len(bd.buildings)
        self.regions = tuple(r.name for r in ld.regions)
        self.n_regions = len(self.regions)
        cards = []
        pw = o.purchase_workers
        for i, b in enumerate(bd.buildings):
            w, br, st, sn, wk = b.cost.vector()
            cards.append(CardInfo(i, b.name, b.kind, b.ability, -1, b.time, b.vp, b.cost.coins, (w, br, st, sn, wk + pw)))
        for lm in ld.landmarks:
            w, br, st, sn, wk = lm.cost.vector()
            cards.append(CardInfo(len(cards), lm.name, "landmark", "", self.regions.index(lm.region), lm.time, lm.vp,
                                  lm.cost.coins, (w, br, st, sn, wk + pw)))
        self.cards = tuple(cards)
        self.n_cards = len(cards)
        self.charity = tuple((r.charity.coins,) + r.charity.vector() for r in ld.regions)
        self.tables = Tables(self.cards, self.regions, self.charity, o.exchange_coins, o.merchant_coins,
                             o.exchange_items, o.die_cost, o.free_dice, o.hand_limit, o.overtime_coins,
                             o.temple_coins, o.markers_per_player, o.temple_limit, tuple(o.uncompleted_penalty))
        self.lm_of_region = tuple(tuple(c.id for c in cards if c.region == r) for r in range(self.n_regions))
        ab = {c.ability: c.id for c in cards if c.ability}
        self.ability_id = ab
        get = ab.get
        self.T_TEMPLE, self.T_BASEBALL, self.T_LOTTERY = get("temple", -1), get("baseball_field", -1), get("lottery_office", -1)
        self.T_NIGHT, self.T_TRIBAL, self.T_WAREHOUSE = get("night_market", -1), get("tribal_village", -1), get("warehouse", -1)
        self.T_JUDICIAL, self.T_UDB = get("judicial_court", -1), get("urban_development_bureau", -1)
        self.T_DEMOLITION, self.T_TAX = get("demolition_company", -1), get("tax_bureau", -1)
        self.T_TRAIN, self.T_CONV = get("train_station", -1), get("convenience_store", -1)
        self.T_ART, self.T_HOT = get("public_art", -1), get("hot_spring", -1)
        # factory card id per resource (-1: none in the data)
        self.factory = tuple(get(next(k for k, v in FACTORY_RESOURCE.items() if v == r), -1) for r in range(4))
        self.exclusive = tuple(c.id for c in cards if c.kind == "exclusive")
        self.train_vp = tuple(bd.train_station_vp)
        self.conv_coins = tuple(bd.convenience_store_coins)
        self.penalty = tuple(o.uncompleted_penalty)
        self.end_decks = num_players + o.end_decks_offset
        self.factories = tuple(f for f in self.factory if f >= 0)
        self.needs = tuple(c.need for c in cards)
        self.card_coins = tuple(c.coins for c in cards)
        self.card_vp = tuple(c.vp for c in cards)
        self.max_time = max(c.time for c in cards)
        self.min_workers = min(c.need[WORKER] for c in cards)
        self._plain_buy = tuple(
            BuyBuilding(c.id) if c.kind != "landmark" else BuyLandmark(c.id) for c in cards)
        # action objects are immutable: build each once
        self._draw_type = tuple(DrawType(i) for i in range(self.n_types))
        self._reveal = tuple(Reveal(i) for i in range(self.n_cards))
        self._start = tuple(StartPlayer(i) for i in range(num_players))
        self._choose = tuple(ChooseDice(k) for k in range(o.max_dice + 1))
        self._buy_b: dict = {}
        self._buy_l: dict = {}
        self._exchange = tuple(tuple(Exchange(g, v) for v in VIAS) for g in range(5))
        # exchange actions (then END_TURN) for each set of usable ways (bit 1 coins, 2 merchant, 4 items)
        self._exchanges = tuple(
            tuple(self._exchange[g][v] for g in range(5) for v in range(3) if key >> v & 1) + (END_TURN,)
            for key in range(8))
        self._give = tuple(Give(i) for i in range(6))
        self._overtime: dict = {}
        self._charity = tuple(Charity(r) for r in range(self.n_regions))
        self._place = tuple(PlaceMarkers(r) for r in range(self.n_regions))
        self._decline = PlaceMarkers(-1)
        self._discard = tuple(Discard(i) for i in range(4))
        # the Give / Discard actions offered for each set of items held (bit i: item i), in item order
        self._give_sets = tuple(tuple(self._give[i] for i in range(6) if m >> i & 1) for m in range(64))
        self._discard_sets = tuple(tuple(self._discard[i] for i in range(4) if m >> i & 1) for m in range(16))
        self._stock = tuple(StockWarehouse(i) for i in range(4))
        self._handlers = self._action_handlers()
        self._rolls: dict[int, tuple] = {}
        self._roll_of: dict[tuple, Roll] = {}
        for k in range(o.max_dice + 1):
            outs = []
            for faces in self._multisets(k, 6):
                coef = math.factorial(k)
                for c in faces:
                    coef //= math.factorial(c)
                a = Roll(faces)
                self._roll_of[faces] = a
                outs.append((a, coef / 6**k))
            self._rolls[k] = tuple(outs)

    @staticmethod
    def _multisets(k: int, m: int) -> list[tuple[int, ...]]:
        """All count vectors of length ``m`` summing to ``k``, in lexicographic order."""
        if m == 1:
            return [(k,)]
        return [(i,) + rest for i in range(k + 1) for rest in TaiwanFormosa._multisets(k - i, m - 1)]

    # ------------------------------------------------------------------ protocol
    def new_initial_state(self) -> State:
        n, o, nr = self.num_players, self.options, self.n_regions
        s = State(
            n=n,
            types_left=o.building_types_in_play,
            piles=[0] * self.n_types,
            lm_top=[-1] * nr,
            lm_deck=[tuple(sorted(self.lm_of_region[r])) for r in range(nr)],
            to_reveal=list(range(nr)),
            coins=[o.starting_coins] * n,
            items=[[0] * 6 for _ in range(n)],
            store=[[0] * 6 for _ in range(n)],
            vp=[0] * n,
            markers=[o.markers_per_player] * n,
            track=[()] * n,
            done=[(0,) * self.n_cards] * n,
            bought=[()] * n,
            areas=[()] * nr,
            excl=[-1] * self.n_types,
            temple_used=[0] * n,
            fac_used=[NO_SUBS] * n,
            hot_spring=[()] * n,
            vp_done=[0] * n, vp_ability=[0] * n, vp_uncomp=[0] * n, vp_penalty=[0] * n, vp_major=[0] * n,
            dice_rolled=[0] * n, n_exchanges=[0] * n, n_overtime=[0] * n, n_charity=[0] * n,
        )
        if n == 2 and o.neutral_in_two_player:
            s.areas = [(n,)] * nr  # 'Two-Player Rules': the neutral colour is placed first
        return s

    def current_player(self, s: State) -> int:
        ph = s.phase
        if ph == SETUP or ph == START or ph == ROLL or s.to_reveal:
            return CHANCE
        if ph == END:
            return TERMINAL
        if ph >= WAREHOUSE:
            return s.queue[0]
        return (s.start + s.pos) % s.n

    def chance_outcomes(self, s: State) -> tuple:
        if s.phase == SETUP and s.types_left:
            left = [t for t in range(self.n_types) if s.piles[t] == 0]
            p = 1.0 / len(left)
            return tuple((self._draw_type[t], p) for t in left)
        if s.to_reveal:
            deck = s.lm_deck[s.to_reveal[0]]
            p = 1.0 / len(deck)
            return tuple((self._reveal[c], p) for c in deck)
        if s.phase == START:
            p = 1.0 / s.n
            return tuple((a, p) for a in self._start)
        return self._rolls[s.dice]

    def sample_chance(self, s: State, rng):
        """Fast sampler, same distribution as ``chance_outcomes`` (tested)."""
        if s.phase == ROLL and not s.to_reveal:
            faces = [0] * 6
            r = rng.random
            for _ in range(s.dice):
                faces[int(r() * 6)] += 1
            return self._roll_of[tuple(faces)]
        outs = self.chance_outcomes(s)
        return outs[int(rng.random() * len(outs))][0]  # the other chance nodes are uniform

    def legal_actions(self, s: State) -> tuple:
        ph = s.phase
        if ph == ACTION:
            return self._turn_actions(s, (s.start + s.pos) % s.n)
        if ph == DICE:
            return self._choose[self.options.min_dice: self._max_dice(s, (s.start + s.pos) % s.n) + 1]
        if ph == GIVE:
            me = (s.start + s.pos) % s.n
            it, st = s.items[me], s.store[me]
            mask = 0  # bit i: item i can be given
            for i in range(6):
                if it[i] + st[i]:
                    mask |= 1 << i
            return self._give_sets[mask]
        if ph == PLACE:
            places = tuple(self._place[r] for r in self._place_regions(s, (s.start + s.pos) % s.n))
            return places + (self._decline,) if self.options.minor_landmark_markers == "optional" else places
        if ph == WAREHOUSE:
            return self._stock
        if ph == JUDICIAL or ph == DISCARD:
            it = s.items[s.queue[0]]
            return self._discard_sets[(it[0] > 0) | (it[1] > 0) << 1 | (it[2] > 0) << 2 | (it[3] > 0) << 3]
        return ()

    def apply_action(self, s: State, a) -> None:
        # one dict look-up by action class instead of a ``match`` that tries the classes in turn
        handler = self._handlers.get(type(a))
        if handler is None:
            raise ValueError(f"not a Taiwan Formosa action: {a!r}")
        handler(s, a)
        self._advance(s)

    def _action_handlers(self) -> dict:
        """Action class -> ``handler(state, action)`` (``apply_action`` then advances)."""
        return {
            Give: self._on_give, Exchange: self._on_exchange, EndTurn: self._end_turn, Roll: self._on_roll,
            ChooseDice: self._choose_dice, BuyBuilding: self._on_buy, BuyLandmark: self._on_buy,
            Overtime: self._on_overtime, Charity: self._contribute, UseTemple: self._use_temple,
            PlaceMarkers: self._on_place, Discard: self._on_discard, StockWarehouse: self._stock_warehouse,
            DrawType: self._draw_type_in, Reveal: self._reveal_landmark, StartPlayer: self._start_player,
        }

    # handlers of the actor's moves (the actor: (start + pos) % n; the queue's head off-turn)
    def _on_give(self, s: State, a) -> None:
        self._give_item(s, (s.start + s.pos) % s.n, a.item)

    def _on_exchange(self, s: State, a) -> None:
        self._exchange_start(s, (s.start + s.pos) % s.n, a.get, a.via)

    def _on_roll(self, s: State, a) -> None:
        self._roll(s, a.faces)

    def _on_buy(self, s: State, a) -> None:
        self._buy(s, (s.start + s.pos) % s.n, a.card, a.subs)

    def _on_overtime(self, s: State, a) -> None:
        self._work_overtime(s, (s.start + s.pos) % s.n, a.card, a.space)

    def _on_place(self, s: State, a) -> None:
        self._place_minor(s, (s.start + s.pos) % s.n, a.region)

    def _on_discard(self, s: State, a) -> None:
        self._discard_one(s, s.queue[0], a.item)

    @staticmethod
    def _end_turn(s: State, a) -> None:
        s.pos += 1

    def _choose_dice(self, s: State, a) -> None:
        me = (s.start + s.pos) % s.n
        s.coins[me] -= max(0, a.count - self.options.free_dice) * self.options.die_cost
        s.dice = a.count
        s.phase = ROLL

    def _contribute(self, s: State, a) -> None:
        me, region = (s.start + s.pos) % s.n, a.region
        self._pay(s, me, self.charity[region][1:], self.charity[region][0])
        self._place_marker(s, me, region)
        s.n_charity[me] += 1

    def _use_temple(self, s: State, a) -> None:
        me = (s.start + s.pos) % s.n
        s.coins[me] -= self.options.temple_coins
        s.vp[me] += self.options.temple_vp
        s.vp_ability[me] += self.options.temple_vp
        s.temple_used[me] += 1

    def _stock_warehouse(self, s: State, a) -> None:
        seat = s.queue.pop(0)
        s.store[seat][a.item] += self.options.warehouse_resources

    def _draw_type_in(self, s: State, a) -> None:
        s.piles[a.card] = self.data.buildings.copies
        s.types_left -= 1

    @staticmethod
    def _reveal_landmark(s: State, a) -> None:
        r = s.to_reveal.pop(0)
        s.lm_deck[r] = tuple(c for c in s.lm_deck[r] if c != a.card)
        s.lm_top[r] = a.card

    def _start_player(self, s: State, a) -> None:
        s.start = a.seat
        self._begin_round(s)

    def observe(self, s: State, seat: int) -> Observation:
        """A lazy view (``Observation``): fields are copied from ``s`` only when read."""
        ph = s.phase
        if ph == SETUP or ph == START or ph == ROLL or ph == END or s.to_reveal:
            actor, prompt = -1, "none"
        else:
            actor = s.queue[0] if ph >= WAREHOUSE else (s.start + s.pos) % s.n
            prompt = PROMPTS[ph]
        return Observation(s, seat, num_players=s.n, prompt=prompt, actor=actor, tables=self.tables)

    def determinize(self, obs: Observation, rng) -> State:
        """A full state consistent with ``obs``. Nothing is hidden but the face-down landmark
        order, which the state never stores (reveals are chance nodes), so the playing state is
        exact. Of the figures kept only for metrics, VP from completed cards is rebuilt from the
        public completed cards and the rest of the VP is credited to abilities (before final
        scoring nothing else scores); the counters (dice, exchanges, ...) restart at 0."""
        n = obs.num_players
        s = State(n=n, **{f: list(getattr(obs, f)) if f in TUPLE_ROWS else _thaw(getattr(obs, f))
                          for f in STATE_FIELDS})
        for f in FIGURES[:-2]:
            setattr(s, f, [0] * n)
        # VP by source: completed cards are public; before final scoring the rest came from abilities
        s.vp_done = [sum(k * self.cards[c].vp for c, k in enumerate(s.done[p])) for p in range(n)]
        s.vp_ability = [s.vp[p] - s.vp_done[p] for p in range(n)]
        s.stalled = s.scored = obs.phase == END
        return s

    def scores(self, s: State) -> tuple[float, ...]:
        """VP per seat (final scoring included once the game is over)."""
        return tuple(float(v) for v in s.vp)

    def scores_if_ended(self, s: State) -> tuple[float, ...]:
        """VP per seat if the game ended now: 'Final Scoring' (uncompleted buildings, penalties,
        abilities, area majorities) applied to a copy of the state. The ``search`` strategy's
        value at its depth cap."""
        if s.scored:
            return self.scores(s)
        t = self.clone(s)
        self._final_scoring(t)
        return self.scores(t)

    def winners(self, s: State) -> frozenset[int]:
        """Most VP; ties by most coins; then all tied players win ('Final Scoring')."""
        key = [(s.vp[i], s.coins[i]) for i in range(s.n)]
        best = max(key)
        return frozenset(i for i in range(s.n) if key[i] == best)

    def metrics(self, s: State) -> dict[str, tuple[float, ...]]:
        """Per-seat figures: VP by source, cards bought (in all and by type), dice, coins, actions,
        and ``turn_position`` (0 for the first start player, then clockwise)."""
        n, nt = s.n, self.n_types
        out = {
            "vp_buildings": tuple(map(float, s.vp_done)),
            "vp_uncompleted": tuple(map(float, s.vp_uncomp)),
            "vp_penalties": tuple(float(-v) for v in s.vp_penalty),
            "vp_abilities": tuple(map(float, s.vp_ability)),
            "vp_majority": tuple(map(float, s.vp_major)),
            "buildings_bought": tuple(float(sum(1 for c in s.bought[i] if c < nt)) for i in range(n)),
            "landmarks_bought": tuple(float(sum(1 for c in s.bought[i] if c >= nt)) for i in range(n)),
            "buildings_completed": tuple(float(sum(s.done[i][:nt])) for i in range(n)),
            "dice_rolled": tuple(map(float, s.dice_rolled)),
            "coins_end": tuple(map(float, s.coins)),
            "markers_placed": tuple(float(self.options.markers_per_player - m) for m in s.markers),
            "exchanges": tuple(map(float, s.n_exchanges)),
            "overtime": tuple(map(float, s.n_overtime)),
            "charity": tuple(map(float, s.n_charity)),
            "turn_position": tuple(float((i - self.first_player(s)) % n) for i in range(n)),
        }
        for t in range(nt):
            key = "bought." + self.cards[t].ability
            out[key] = tuple(float(s.bought[i].count(t)) for i in range(n))
        return out

    def rounds_played(self, s: State) -> int:
        """Rounds begun so far (all of them once the game is over)."""
        return s.round if s.phase != END else s.round - 1

    def first_player(self, s: State) -> int:
        """The seat that started round 1 (the start player moves left every round)."""
        return (s.start - self.rounds_played(s) + 1) % s.n

    def summary(self, s: State) -> dict[str, float]:
        """Whole-game figures: rounds played, first start seat, depleted decks, final round
        (0: the end never triggered), Train Stations bought."""
        return {
            "rounds": float(self.rounds_played(s)),
            "first_player": float(self.first_player(s)),
            "depleted_decks": float(self._depleted(s)),
            "final_round": float(s.last_round),
            "train_stations": float(s.train_bought),
        }

    def components(self, s: State) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Per seat, names of the building cards bought and completed and of the landmarks bought."""
        nt, name = self.n_types, [c.name for c in self.cards]
        return {
            "building_bought": tuple(tuple(name[c] for c in b if c < nt) for b in s.bought),
            "landmark_bought": tuple(tuple(name[c] for c in b if c >= nt) for b in s.bought),
            "building_completed": tuple(
                tuple(name[c] for c in range(nt) for _ in range(d[c])) for d in s.done),
        }

    def stalled(self, s: State) -> bool:
        """True when the game ended at the ``max_rounds`` safety cap (reported as truncated);
        the same as ``end_reason(s) == "round_cap"``."""
        return s.stalled

    def end_reason(self, s: State) -> str:
        """Why a finished game ended (meaningful once ``current_player`` is ``TERMINAL``):
        ``finished`` ('Game End': the final round after the deck trigger was played) or
        ``round_cap`` (option ``max_rounds``). Never ``stalled``: income (15 coins a round,
        '4. Income Phase') always lets some seat buy eventually, so the engine has no stall rule
        (docs/taiwan_formosa.md, "End reasons")."""
        return "round_cap" if s.stalled else "finished"

    def check_invariants(self, s: State) -> None:
        """Conservation laws and ranges; raises ``AssertionError`` with a short message.

        Cards: every copy of a building type in play is in its pile or bought by exactly one
        seat; every landmark is in its deck, face up or bought; every bought card is on its
        buyer's time track or completed. Markers: supply + board = ``markers_per_player`` per seat
        (the 2-player neutral: one per region, placed first). Coins, items, workers and merchants
        come from an unlimited bank (FAQ), so they are checked for sign, cleanup (none kept, hand
        limit) and storage (at most what Warehouse / Tribal Village placed). Time-track spaces
        in 1..5 + ``demolition_delay``. VP equal the sum of their sources. Abilities in use
        (Temple, factories, exclusive holders) belong to completed cards."""
        o, n, nt, cards = self.options, s.n, self.n_types, self.cards
        assert min(s.coins) >= 0, "negative coins"
        assert all(min(r) >= 0 for r in s.items) and all(min(r) >= 0 for r in s.store), "negative items"
        if s.phase == SETUP:
            return
        copies = self.data.buildings.copies
        bought = [0] * self.n_cards
        for b in s.bought:
            for c in b:
                bought[c] += 1
        in_play = 0
        for t in range(nt):
            total = s.piles[t] + bought[t]
            assert total in (0, copies), f"building type {cards[t].name}: {total} copies, not {copies}"
            in_play += total > 0
        assert in_play == o.building_types_in_play, f"{in_play} building types in play"
        assert s.train_bought == (bought[self.T_TRAIN] if self.T_TRAIN >= 0 else 0), "Train Stations miscounted"
        for r in range(self.n_regions):
            zone = list(s.lm_deck[r]) + ([s.lm_top[r]] if s.lm_top[r] >= 0 else [])
            zone += [c for c in self.lm_of_region[r] for _ in range(bought[c])]
            assert sorted(zone) == sorted(self.lm_of_region[r]), f"landmarks of region {r} lost or duplicated"
            assert (r in s.to_reveal) == (s.lm_top[r] < 0 and bool(s.lm_deck[r])), f"region {r} reveal pending"
        top = max(5, self.max_time) + o.demolition_delay
        for p in range(n):
            tr = s.track[p]
            assert all(1 <= sp <= top for sp in tr[1::2]), f"seat {p}: time-track space out of range"
            held = list(s.done[p])
            for c in tr[::2]:
                held[c] += 1
            mine = [0] * self.n_cards
            for c in s.bought[p]:
                mine[c] += 1
            assert mine == held, f"seat {p}: a bought card is not on the track or completed exactly once"
            on_board = sum(a.count(p) for a in s.areas)
            assert s.markers[p] >= 0 and s.markers[p] + on_board == o.markers_per_player, f"seat {p}: markers"
            st = s.store[p]
            tv = s.done[p][self.T_TRIBAL] if self.T_TRIBAL >= 0 else 0
            assert st[MERCHANT] == 0 and st[WORKER] <= o.tribal_village_workers * tv, f"seat {p}: stored workers"
            wh = s.done[p][self.T_WAREHOUSE] if self.T_WAREHOUSE >= 0 else 0
            assert sum(st[:4]) <= o.warehouse_resources * wh, f"seat {p}: stored resources"
            assert 0 <= s.temple_used[p] <= self.temple_uses(s, p), f"seat {p}: Temple overused"
            for r in range(4):
                f = self.factory[r]
                assert s.fac_used[p][r] <= (s.done[p][f] if f >= 0 else 0), f"seat {p}: factory overused"
            parts = s.vp_done[p] + s.vp_ability[p] + s.vp_uncomp[p] - s.vp_penalty[p] + s.vp_major[p]
            assert s.vp[p] == parts, f"seat {p}: VP {s.vp[p]} != sum of sources {parts}"
            assert s.vp_done[p] == sum(map(mul, s.done[p], self.card_vp)), f"seat {p}: VP of cards"
        if n == 2 and o.neutral_in_two_player:
            assert all(a[0] == n and a.count(n) == 1 for a in s.areas), "neutral markers"
        else:
            assert all(x < n for a in s.areas for x in a), "unknown marker colour"
        for t in range(nt):
            h = s.excl[t]
            assert h == -1 or (cards[t].kind == "exclusive" and s.done[h][t] > 0), f"exclusive {cards[t].name}"
        if s.phase in (DICE, ROLL):  # seats that have not rolled yet this round come out of cleanup
            for k in range(s.pos, n):
                it = s.items[(s.start + k) % n]
                assert it[WORKER] == it[MERCHANT] == 0 and sum(it[:4]) <= o.hand_limit, "cleanup not applied"
        assert bool(s.queue) <= (s.phase in (WAREHOUSE, JUDICIAL, DISCARD)), "decision queue outside its phase"
        assert (s.phase == GIVE) == (s.gives_left > 0), "3-item exchange state"
        assert (s.phase == PLACE) == (s.place >= 0), "minor landmark placement state"
        assert s.scored == (s.phase == END), "final scoring applied once, at the end"
        if self._depleted(s) >= self.end_decks:
            assert s.last_round, "end trigger missed"
        assert s.round <= o.max_rounds + 1, "round beyond the cap"

    def clone(self, s: State) -> State:
        return copy.deepcopy(s)

    def describe(self, s: State, a) -> str:
        """One log line for ``sim replay`` (called before ``a`` is applied)."""
        name = self.cards
        who = f"seat {self.current_player(s)}"
        match a:
            case DrawType(card):
                return f"chance: building type {name[card].name} is in play"
            case Reveal(card):
                return f"chance: landmark {name[card].name} revealed in {self.regions[name[card].region]}"
            case StartPlayer(seat):
                return f"chance: seat {seat} is the start player"
            case Roll(faces):
                got = ", ".join(f"{k} {ITEMS[i]}" for i, k in enumerate(faces) if k)
                return f"chance: seat {(s.start + s.pos) % s.n} rolls {got or 'nothing'} (round {s.round})"
            case ChooseDice(count):
                cost = max(0, count - self.options.free_dice) * self.options.die_cost
                return f"{who}: rolls {count} dice for {cost} coins (round {s.round})"
            case BuyBuilding(card, subs) | BuyLandmark(card, subs):
                via = "".join(f", {k} {RESOURCES[r]} as coins" for r, k in enumerate(subs) if k)
                fee = self.fee(s, self.current_player(s))
                fee_text = f", 1 coin to seat {s.excl[self.T_UDB]}" if fee else ""
                return f"{who}: buys {name[card].name}{via}{fee_text}"
            case Exchange(get, via):
                return f"{who}: exchanges {via} for 1 {ITEMS[get]}"
            case Give(item):
                return f"{who}: gives 1 {ITEMS[item]}"
            case Overtime(card, space):
                return f"{who}: works overtime on {name[card].name} (space {space} -> {space - 1})"
            case Charity(region):
                return f"{who}: contributes to {self.regions[region]}"
            case UseTemple():
                return f"{who}: pays at the Temple for {self.options.temple_vp} VP"
            case EndTurn():
                return f"{who}: ends the turn"
            case PlaceMarkers(region):
                if region < 0:
                    return f"{who}: places no {name[s.place].name} marker"
                return f"{who}: places {name[s.place].name} marker(s) in {self.regions[region]}"
            case Discard(item):
                return f"{who}: discards 1 {ITEMS[item]}"
            case StockWarehouse(item):
                return f"{who}: stocks the Warehouse with {self.options.warehouse_resources} {ITEMS[item]}"
        return repr(a)

    # ------------------------------------------------------------------ helpers
    def _max_dice(self, s: State, me: int) -> int:
        o = self.options
        if o.die_cost == 0:
            return o.max_dice
        return max(o.min_dice, min(o.max_dice, o.free_dice + s.coins[me] // o.die_cost))

    def _depleted(self, s: State) -> int:
        piles = sum(1 for t in range(self.n_types) if s.piles[t] == 0) - (self.n_types - self.options.building_types_in_play)
        decks = sum(1 for r in range(self.n_regions) if s.lm_top[r] < 0 and not s.lm_deck[r])
        return piles + decks if s.phase != SETUP else 0

    def owner(self, s: State, card: int) -> int:
        """Seat holding the exclusive ability of building ``card`` (-1: nobody, or no such card)."""
        return s.excl[card] if card >= 0 else -1

    def temple_uses(self, s: State, me: int) -> int:
        """Temple uses ``me`` has per round: one per completed Temple (``temple_limit: per_card``,
        RULINGS §3) or one if any is completed (``per_player``)."""
        k = s.done[me][self.T_TEMPLE] if self.T_TEMPLE >= 0 else 0
        return min(k, 1) if self.options.temple_limit == "per_player" else k

    def fee(self, s: State, me: int) -> int:
        """Urban Development Bureau: coins ``me`` owes its owner for each card bought."""
        u = s.excl[self.T_UDB] if self.T_UDB >= 0 else -1
        return self.options.udb_fee if u >= 0 and u != me else 0

    def _subs_options(self, s: State, me: int, card: CardInfo, avail: list[int], coins: int, fee: int) -> list[tuple]:
        """Factory substitutions ``subs`` (resources paid as coins) that make ``card`` affordable."""
        need = card.need
        for i in range(5):
            if avail[i] < need[i]:
                return []
        c = card.coins
        limits = []
        done, used = s.done[me], s.fac_used[me]
        any_sub = False
        for r in range(4):
            f = self.factory[r]
            k = 0
            if f >= 0 and c:
                k = min(done[f] - used[r], avail[r] - need[r], c)
                if k < 0:
                    k = 0
            limits.append(k)
            any_sub = any_sub or k > 0
        if not any_sub:
            return [NO_SUBS] if c + fee <= coins else []
        out = []
        for subs in product(*(range(k + 1) for k in limits)):
            t = sum(subs)
            if t <= c and c - t + fee <= coins:
                out.append(subs)
        return out

    def _turn_actions(self, s: State, me: int) -> tuple:
        out: list = []
        coins = s.coins[me]
        it, st = s.items[me], s.store[me]
        avail = [it[i] + st[i] for i in range(6)]
        fee = self.fee(s, me)
        cards = self.cards
        if coins >= fee and avail[WORKER] >= self.min_workers:
            done = s.done[me]
            a0, a1, a2, a3, a4 = avail[0], avail[1], avail[2], avail[3], avail[4]
            needs = self.needs
            if any(done[f] for f in self.factories):
                buy_b, buy_l = self._buy_b, self._buy_l
                for t in range(self.n_types):
                    w, b, st_, sn, wk = needs[t]
                    if s.piles[t] and a0 >= w and a1 >= b and a2 >= st_ and a3 >= sn and a4 >= wk:
                        for subs in self._subs_options(s, me, cards[t], avail, coins, fee):
                            a = buy_b.get((t, subs))
                            if a is None:
                                a = buy_b[(t, subs)] = BuyBuilding(t, subs)
                            out.append(a)
                for r in range(self.n_regions):
                    c = s.lm_top[r]
                    if c >= 0:
                        for subs in self._subs_options(s, me, cards[c], avail, coins, fee):
                            a = buy_l.get((c, subs))
                            if a is None:
                                a = buy_l[(c, subs)] = BuyLandmark(c, subs)
                            out.append(a)
            else:  # no factory: one way to pay
                cost, plain = self.card_coins, self._plain_buy
                budget = coins - fee
                for t in range(self.n_types):
                    if s.piles[t]:
                        w, b, st_, sn, wk = needs[t]
                        if a0 >= w and a1 >= b and a2 >= st_ and a3 >= sn and a4 >= wk and cost[t] <= budget:
                            out.append(plain[t])
                for c in s.lm_top:
                    if c >= 0:
                        w, b, st_, sn, wk = needs[c]
                        if a0 >= w and a1 >= b and a2 >= st_ and a3 >= sn and a4 >= wk and cost[c] <= budget:
                            out.append(plain[c])
        if s.markers[me]:
            for r in range(self.n_regions):
                c0, w, b, st_, sn, wk = self.charity[r]
                if coins >= c0 and avail[0] >= w and avail[1] >= b and avail[2] >= st_ and avail[3] >= sn \
                        and avail[4] >= wk:
                    out.append(self._charity[r])
        o = self.options
        tr = s.track[me]
        if tr and avail[WORKER] and coins >= o.overtime_coins:
            seen = set()
            for i in range(0, len(tr), 2):
                if tr[i + 1] >= 2:
                    seen.add((tr[i], tr[i + 1]))
            for key in sorted(seen):
                a = self._overtime.get(key)
                if a is None:
                    a = self._overtime[key] = Overtime(*key)
                out.append(a)
        if self.T_TEMPLE >= 0 and s.temple_used[me] < self.temple_uses(s, me) and coins >= o.temple_coins:
            out.append(USE_TEMPLE)
        key = (coins >= o.exchange_coins) + 2 * (avail[MERCHANT] > 0 and coins >= o.merchant_coins) \
            + 4 * (sum(avail) >= o.exchange_items)
        return (*out, *self._exchanges[key])

    def _take(self, s: State, me: int, item: int, k: int) -> None:
        """Spend ``k`` of ``item``: tiles in hand first, then those stored on cards."""
        it = s.items[me]
        if it[item] >= k:
            it[item] -= k
        else:
            rest = k - it[item]
            it[item] = 0
            s.store[me][item] -= rest
            if s.store[me][item] < 0:
                raise ValueError(f"seat {me} cannot pay {k} {ITEMS[item]}")

    def _pay(self, s: State, me: int, need, coins: int) -> None:
        for i in range(5):
            if need[i]:
                self._take(s, me, i, need[i])
        s.coins[me] -= coins
        if s.coins[me] < 0:
            raise ValueError(f"seat {me} cannot pay {coins} coins")

    def _buy(self, s: State, me: int, card: int, subs: tuple) -> None:
        c = self.cards[card]
        o = self.options
        need = list(c.need)
        if subs != NO_SUBS:
            for r in range(4):
                need[r] += subs[r]
            s.fac_used[me] = tuple(u + k for u, k in zip(s.fac_used[me], subs, strict=True))
        fee = self.fee(s, me)
        self._pay(s, me, need, c.coins - sum(subs) + fee)
        if fee:
            s.coins[s.excl[self.T_UDB]] += fee
        s.bought[me] += (card,)
        space = c.time
        demo = s.excl[self.T_DEMOLITION] if self.T_DEMOLITION >= 0 else -1
        if demo >= 0 and demo != me and (c.kind != "landmark" or o.demolition_applies_to_landmarks):
            space += o.demolition_delay
        s.track[me] += (card, space)
        if c.kind == "landmark":
            r = c.region
            s.lm_top[r] = -1
            if s.lm_deck[r]:
                s.to_reveal.append(r)
            self._place_marker(s, me, r)  # mandatory while markers last
        else:
            s.piles[card] -= 1
            if card == self.T_TRAIN:
                s.train_bought += 1
            elif card == self.T_ART or card == self.T_HOT:
                if self._place_regions(s, me, card):
                    s.place = card
                    s.phase = PLACE
        if not s.last_round and self._depleted(s) >= self.end_decks:
            s.last_round = s.round + 1  # 'Game End': finish this round, then one final round

    def _place_regions(self, s: State, me: int, card: int = -1) -> list[int]:
        card = s.place if card < 0 else card
        if not s.markers[me]:
            return []
        if card == self.T_ART:
            return [r for r in range(self.n_regions) if me not in s.areas[r]]
        return list(range(self.n_regions))

    def _place_marker(self, s: State, me: int, region: int) -> bool:
        if not s.markers[me]:
            return False
        s.markers[me] -= 1
        s.areas[region] += (me,)
        return True

    def _place_minor(self, s: State, me: int, region: int) -> None:
        o = self.options
        if region < 0:  # declined (option minor_landmark_markers: optional)
            pass
        elif s.place == self.T_ART:
            for _ in range(o.public_art_markers):
                self._place_marker(s, me, region)
        else:
            others = len(s.areas[region])
            if o.hot_spring_counts == "opponents":
                others -= s.areas[region].count(me)
            self._place_marker(s, me, region)
            if o.hot_spring_timing == "immediate":
                gain = o.hot_spring_vp * others
                s.vp[me] += gain
                s.vp_ability[me] += gain
            else:
                s.hot_spring[me] += (region,)
        s.place = -1
        s.phase = ACTION

    def _exchange_start(self, s: State, me: int, get: int, via: str) -> None:
        o = self.options
        s.n_exchanges[me] += 1
        if via == "coins":
            s.coins[me] -= o.exchange_coins
            s.items[me][get] += 1
        elif via == "merchant":
            self._take(s, me, MERCHANT, 1)
            s.coins[me] -= o.merchant_coins
            s.items[me][get] += 1
        else:
            s.exch_get, s.gives_left, s.phase = get, o.exchange_items, GIVE

    def _give_item(self, s: State, me: int, item: int) -> None:
        self._take(s, me, item, 1)
        s.gives_left -= 1
        if not s.gives_left:
            s.items[me][s.exch_get] += 1
            s.exch_get = -1
            s.phase = ACTION

    def _work_overtime(self, s: State, me: int, card: int, space: int) -> None:
        tr = list(s.track[me])
        for i in range(0, len(tr), 2):
            if tr[i] == card and tr[i + 1] == space:
                tr[i + 1] -= 1
                s.track[me] = tuple(tr)
                break
        else:
            raise ValueError(f"seat {me} has no {self.cards[card].name} on space {space}")
        self._take(s, me, WORKER, 1)
        s.coins[me] -= self.options.overtime_coins
        s.n_overtime[me] += 1

    def _roll(self, s: State, faces: tuple) -> None:
        me = (s.start + s.pos) % s.n
        it = s.items[me]
        for i in range(6):
            it[i] += faces[i]
        if faces[MERCHANT] and self.T_LOTTERY >= 0:
            s.coins[me] += self.options.lottery_coins * faces[MERCHANT] * s.done[me][self.T_LOTTERY]
        s.dice_rolled[me] += s.dice
        s.dice = 0
        s.pos += 1
        s.phase = DICE

    def _discard_one(self, s: State, seat: int, item: int) -> None:
        s.items[seat][item] -= 1
        if s.phase == JUDICIAL:
            s.queue.pop(0)
        elif sum(s.items[seat][:4]) <= self.options.hand_limit:
            s.queue.pop(0)

    def _begin_round(self, s: State) -> None:
        s.phase, s.pos = DICE, 0
        n = s.n
        s.temple_used = [0] * n
        s.fac_used = [NO_SUBS] * n

    def _order(self, s: State) -> list[int]:
        return [(s.start + k) % s.n for k in range(s.n)]

    def _building_phase(self, s: State) -> None:
        cards = self.cards
        completed: dict[int, list[int]] = {}
        for seat in self._order(s):
            keep = []
            tr = s.track[seat]
            for i in range(0, len(tr), 2):
                card, space = tr[i], tr[i + 1] - 1
                if space > 0:
                    keep += (card, space)
                    continue
                c = cards[card]
                done = list(s.done[seat])
                done[card] += 1
                s.done[seat] = tuple(done)
                s.vp[seat] += c.vp
                s.vp_done[seat] += c.vp
                if c.kind == "exclusive":
                    completed.setdefault(card, []).append(seat)
                elif card == self.T_TRIBAL:
                    s.store[seat][WORKER] += self.options.tribal_village_workers
                elif card == self.T_WAREHOUSE:
                    s.queue.append(seat)
            s.track[seat] = tuple(keep)
        for card, seats in completed.items():
            s.excl[card] = seats[0] if len(seats) == 1 else -1  # same-round copies: nobody keeps it

    def _income_phase(self, s: State) -> None:
        o = self.options
        conv_total = sum(s.done[p][self.T_CONV] for p in range(s.n)) if self.T_CONV >= 0 else 0
        tax = s.excl[self.T_TAX] if self.T_TAX >= 0 else -1
        for p in self._order(s):
            inc = o.income
            if self.T_NIGHT >= 0:
                inc += o.night_market_coins * s.done[p][self.T_NIGHT]
            if conv_total:
                inc += self.conv_coins[min(conv_total, len(self.conv_coins)) - 1] * s.done[p][self.T_CONV]
            if tax >= 0 and tax != p:
                inc -= o.tax_bureau_coins
            s.coins[p] += max(0, inc)
        judge = s.excl[self.T_JUDICIAL] if self.T_JUDICIAL >= 0 else -1
        if judge >= 0:
            for p in self._order(s):
                it = s.items[p]
                if p == judge or it[0] + it[1] + it[2] + it[3] <= 1:
                    continue
                kinds = [r for r in range(4) if it[r]]
                if len(kinds) == 1:
                    it[kinds[0]] -= 1
                else:
                    s.queue.append(p)

    def _cleanup_phase(self, s: State) -> None:
        limit = self.options.hand_limit
        for p in self._order(s):
            it = s.items[p]
            it[WORKER] = it[MERCHANT] = 0
            excess = it[0] + it[1] + it[2] + it[3] - limit
            if excess <= 0:
                continue
            kinds = [r for r in range(4) if it[r]]
            if len(kinds) == 1:
                it[kinds[0]] -= excess
            else:
                s.queue.append(p)

    def _final_scoring(self, s: State) -> None:
        o, cards, nt = self.options, self.cards, self.n_types
        for p in range(s.n):
            tr = s.track[p]
            for card, space in zip(tr[::2], tr[1::2], strict=True):
                s.vp_uncomp[p] += cards[card].vp
                s.vp_penalty[p] += uncompleted_penalty(space, self.penalty)
            abil = 0
            if self.T_TRAIN >= 0 and s.train_bought:
                per = self.train_vp[min(s.train_bought, len(self.train_vp)) - 1]
                abil += per * s.bought[p].count(self.T_TRAIN)
            if self.T_BASEBALL >= 0:
                fields_ = s.bought[p].count(self.T_BASEBALL)
                if fields_:
                    built = sum(s.done[p][:nt]) if not o.baseball_counts_landmarks else sum(s.done[p])
                    abil += fields_ * built
            for r in s.hot_spring[p]:  # hot_spring_timing 'final'
                others = len(s.areas[r]) - 1
                if o.hot_spring_counts == "opponents":
                    others = len(s.areas[r]) - s.areas[r].count(p)
                abil += o.hot_spring_vp * others
            s.vp_ability[p] += abil
            s.vp[p] += s.vp_uncomp[p] - s.vp_penalty[p] + abil
        for order in s.areas:
            for seat, v in area_majority(order, s.n).items():
                s.vp_major[seat] += v
                s.vp[seat] += v
        s.scored = True

    def _advance(self, s: State) -> None:
        """Run automatic steps until a decision, a chance node or the end."""
        while True:
            if s.to_reveal:
                return
            ph = s.phase
            if ph == SETUP:
                if s.types_left:
                    return
                if self.options.random_start_player:
                    s.phase = START
                    return
                s.start = 0
                self._begin_round(s)
                continue
            if ph == DICE:
                if s.pos == s.n:
                    s.phase, s.pos = ACTION, 0
                    continue
                me = (s.start + s.pos) % s.n
                if self._max_dice(s, me) == self.options.min_dice:  # a single choice: applied
                    s.dice, s.phase = self.options.min_dice, ROLL
                    return
                return
            if ph == ACTION:
                if s.pos == s.n:
                    self._building_phase(s)
                    s.phase = WAREHOUSE
                    continue
                return
            if ph == PLACE:
                regions = self._place_regions(s, (s.start + s.pos) % s.n)
                if len(regions) == 1 and self.options.minor_landmark_markers == "mandatory":
                    self._place_minor(s, (s.start + s.pos) % s.n, regions[0])
                    continue
                return
            if ph == WAREHOUSE:
                if s.queue:
                    return
                self._income_phase(s)
                s.phase = JUDICIAL
                continue
            if ph == JUDICIAL:
                if s.queue:
                    return
                self._cleanup_phase(s)
                s.phase = DISCARD
                continue
            if ph == DISCARD:
                while s.queue:
                    it = s.items[s.queue[0]]
                    kinds = [r for r in range(4) if it[r]]
                    if len(kinds) > 1:
                        return
                    it[kinds[0]] -= it[0] + it[1] + it[2] + it[3] - self.options.hand_limit
                    s.queue.pop(0)
                # end of round
                if s.last_round and s.round >= s.last_round:
                    s.round += 1
                    s.phase = END
                    self._final_scoring(s)
                    return
                if s.round >= self.options.max_rounds:
                    s.round += 1
                    s.phase, s.stalled = END, True
                    self._final_scoring(s)
                    return
                s.round += 1
                s.start = (s.start + 1) % s.n
                self._begin_round(s)
                continue
            return


GAME = TaiwanFormosa
