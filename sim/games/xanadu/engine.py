"""Xanadu: the forward model (rulebook seeds/002, rules/xanadu-english.md, RULINGS §4).

Flow: deal (chance) -> each seat places its starting card(s) face down, in seat order, hidden
until all are placed -> turns. A turn: phase 1 one ``Sell`` per card then ``EndSelling``
(skipped when the player has no built card); if then no built card is left anywhere, every
player draws up to 7 and places starting cards again; phase 2 ``PlaceWorker`` / ``Build``
decisions ending with ``EndTurn``; phase 3: with ``draw: optional`` the player chooses how many
cards to draw (``DrawCards``, "húzhat": may draw), then the draws (chance), sideways cards turn
upright, forced sales of fully covered cards.

Stall: a whole round of turns (one per player) in which nobody sold, placed a worker, built, drew
or made a forced sale leaves the table exactly as it was; the game then ends as ``stalled``
(``end_reason``), without the end-of-game sale. Only possible when players decline every draw
(or hold 7 cards) and do nothing else.

Draw pile: an unordered list; every draw is a chance node over it (nothing to leak). When the
End of Game card goes in, ``top_left`` counts the draws still to come before it can appear
(pile size - 10): the first ``top_left`` draws come from the pile without it, the rest from the
remaining cards plus the End card, exactly the distribution of "shuffle it into the bottom 10".
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from operator import itemgetter, sub

from sim.api import CHANCE, TERMINAL, EngineBase, GameInfo, bound_option

from .actions import (
    END_SELLING,
    END_TURN,
    Build,
    Draw,
    DrawCards,
    EndSelling,
    EndTurn,
    PlaceStart,
    PlaceWorker,
    Sell,
)
from .observation import Card, Observation
from .rules import COLOURS, Options, XanaduData, load_data, resolve

# phases
DEAL, RESTART_DRAW, TURN_DRAW, START, SELL, WORK, END, CHOOSE_DRAW = range(8)
PROMPTS = {START: "start", SELL: "sell", WORK: "work", CHOOSE_DRAW: "draw"}
BROWN, BLUE, YELLOW, GREEN = range(4)
START_PRIORITY = (BROWN, BLUE, YELLOW)  # 'Az építkezés kezdete': brown, else blue, else yellow


@dataclass
class State:
    """Plain, picklable game state. Seats count from the start player (seat 0), clockwise."""

    n: int
    draw: list[int]
    discard: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    built: list[list[int]] = field(default_factory=list)  # per seat, in building order
    workers: dict[int, list[int]] = field(default_factory=dict)  # built card -> worker cards, bottom box first
    placers: dict[int, list[int]] = field(default_factory=dict)  # built card -> seats that placed them
    owner: dict[int, int] = field(default_factory=dict)  # built card -> seat
    sideways: list[int] = field(default_factory=list)
    coins: list[int] = field(default_factory=list)
    phase: int = DEAL
    active: int = 0
    to_draw: list[int] = field(default_factory=list)  # seats receiving the next draws
    start_queue: list[int] = field(default_factory=list)
    start_left: int = 0
    pending: list[list[int]] = field(default_factory=list)  # face-down starting cards before the reveal
    restarting: bool = False  # the starting cards being placed follow a restart (then phase 2)
    sold: bool = False  # sold in phase 1 this turn
    acted: bool = False  # placed a worker or built this turn
    builds: int = 0
    pool: list[int] = field(default_factory=list)  # resources from boxes this turn
    perm_used: list[int] = field(default_factory=list)
    end_in: bool = False
    top_left: int = 0
    reshuffles: int = 0
    turns: int = 0
    restarts: int = 0
    end_drawn: bool = False
    draw_choices: list[int] = field(default_factory=list)  # phase 3 decision: numbers of cards allowed
    idle: bool = False  # this turn's draw is the idle refill ('up to 7')
    quiet_turns: int = 0  # consecutive turns that changed nothing (stall rule)
    busy: bool = False  # this turn drew a card or made a forced sale
    stalled: bool = False
    # per-seat figures for metrics and components
    coins_by_colour: list[list[int]] = field(default_factory=list)
    built_by_colour: list[list[int]] = field(default_factory=list)
    started_by_colour: list[list[int]] = field(default_factory=list)
    workers_own: list[int] = field(default_factory=list)
    workers_others: list[int] = field(default_factory=list)
    forced: list[int] = field(default_factory=list)
    refills: list[int] = field(default_factory=list)
    sales: list[int] = field(default_factory=list)
    built_ids: list[list[int]] = field(default_factory=list)
    started_ids: list[list[int]] = field(default_factory=list)
    sold_ids: list[list[int]] = field(default_factory=list)


class Xanadu(EngineBase):
    """Xanadu for 2-6 players. ``Xanadu(num_players, Options(), load_data())``.

    Raises ``ValueError`` for a player count outside 2-6.
    """

    info = GameInfo("xanadu", "2", 2, 6, "Xanadu", "seeds/002_318b777c54366f51.txt")
    lazy_observations = True  # observe() hands out LazyObservation views (issue 20 item 3)
    Options = Options
    load_data = staticmethod(load_data)

    def __init__(self, num_players: int, options: Options | None = None, data: XanaduData | None = None):
        self.check_players(num_players)
        self.num_players = num_players
        self.options = options or Options()
        self.data = data or load_data()
        self.r = resolve(self.options, num_players)
        cd = self.data.cards
        self.resources = tuple(cd.resources)
        nr = len(self.resources)
        ri = {r: i for i, r in enumerate(self.resources)}

        def counts(names) -> tuple[int, ...]:
            out = [0] * nr
            for x in names:
                out[ri[x]] += 1
            return tuple(out)

        cards = []
        for i, row in enumerate(cd.cards):
            cards.append(Card(
                i, row.name, COLOURS.index(row.colour), counts(row.cost),
                ri[row.permanent] if row.permanent else -1,
                tuple(counts(b.resources) for b in row.boxes),
                tuple(b.price for b in row.boxes) + (row.final,),
                tuple(ri[b.khan] if b.khan else -1 for b in row.boxes),
            ))
        self.cards = tuple(cards)
        self.n_cards = len(cards)
        bound_option("deal", self.r.deal, self.n_cards // num_players,
                     f"with {num_players} players (the deck has {self.n_cards} cards)")
        self.END = len(cards)  # the End of Game card's id
        self.colour = tuple(c.colour for c in cards)
        self.prices = tuple(c.prices for c in cards)
        self.perm = tuple(c.permanent for c in cards)
        self.khan = tuple(c.khan for c in cards)
        self.cost_items = tuple(tuple((r, k) for r, k in enumerate(c.cost) if k) for c in cards)
        self.box_items = tuple(tuple(tuple((r, k) for r, k in enumerate(b) if k) for b in c.boxes) for c in cards)
        # hot-path tables (issue 20 item 4), indexed by card id:
        self.cost_total = tuple(sum(c.cost) for c in cards)  # resources a build needs (a quick filter)
        # perm_items[c][k]: (resource, count) of the permanent resources card c gives its owner under k
        # workers: the printed one plus the Khan's help of the k covered boxes (RULINGS §4)
        self.perm_items = tuple(tuple(self._perm_items(c, k) for k in range(5)) for c in cards)
        self.bonus = self.r.sale_bonus
        # constants the observation shows (``Observation`` reads them from the game on first access)
        self.colours = COLOURS
        self.build_limit, self.builds_per_turn = self.r.build_limit, self.r.builds_per_turn
        self.hand_limit, self.bonus_on_every_sale = self.options.hand_limit, self.options.bonus_on_every_sale
        # action objects are immutable: build each once
        ids = range(len(cards) + 1)
        self._draw = tuple(Draw(i) for i in ids)
        self._sell = tuple(Sell(i) for i in ids)
        self._build = tuple(Build(i) for i in ids)
        self._start = tuple(PlaceStart(i) for i in ids)
        self._place = tuple(tuple(PlaceWorker(w, t) for t in ids) for w in ids)
        self._draw_cards = tuple(DrawCards(k) for k in range(max(self.options.hand_limit, self.r.restart_hand) + 1))
        self._apply = {
            PlaceWorker: self._do_place, Draw: self._do_draw,
            Build: lambda s, a: self._build_card(s, a.card), Sell: self._do_sell,
            EndSelling: lambda s, a: self._end_selling(s), EndTurn: lambda s, a: self._end_turn(s),
            DrawCards: self._do_draw_cards, PlaceStart: self._do_start,
        }

    @staticmethod
    def _perm_items(c: Card, k: int) -> tuple[tuple[int, int], ...]:
        got: dict[int, int] = {}
        for r in ([c.permanent] if c.permanent >= 0 else []) + [x for x in c.khan[:k] if x >= 0]:
            got[r] = got.get(r, 0) + 1
        return tuple(sorted(got.items()))

    # ------------------------------------------------------------------ protocol
    def new_initial_state(self) -> State:
        n = self.num_players
        s = self.new_blank(n)
        s.draw = list(range(self.n_cards))
        s.to_draw = [seat for _ in range(self.r.deal) for seat in range(n)]  # dealt one at a time, round-robin
        self._advance(s)
        return s

    def current_player(self, s: State) -> int:
        if s.to_draw:
            return CHANCE
        ph = s.phase
        if ph == END:
            return TERMINAL
        if ph == START:
            return s.start_queue[0]
        return s.active

    def _pile(self, s: State) -> list[int]:
        if s.end_in and s.top_left == 0:
            return s.draw + [self.END]
        return s.draw

    def chance_outcomes(self, s: State) -> tuple:
        pile = self._pile(s)
        p = 1.0 / len(pile)
        return tuple((self._draw[c], p) for c in pile)

    def sample_chance(self, s: State, rng) -> Draw:
        """Fast sampler, same distribution as ``chance_outcomes`` (tested)."""
        d = s.draw
        m = len(d) + (1 if s.end_in and s.top_left == 0 else 0)
        i = int(rng.random() * m)
        return self._draw[d[i] if i < len(d) else self.END]

    def legal_actions(self, s: State) -> tuple:
        ph = s.phase
        if ph == WORK:
            return self._work_actions(s)
        if ph == SELL:
            sell = self._sell
            return tuple(sell[c] for c in s.built[s.active]) + (END_SELLING,)
        if ph == START:
            return tuple(self._start[c] for c in self.start_options(s.hands[s.start_queue[0]]))
        if ph == CHOOSE_DRAW:
            return tuple(self._draw_cards[k] for k in s.draw_choices)
        return ()

    def apply_action(self, s: State, a) -> None:
        if type(a) is PlaceWorker:  # the commonest move; phase 2 goes on, so no automatic step follows
            self._do_place(s, a)
            return
        do = self._apply.get(type(a))  # one dict look-up instead of a chain of class patterns
        if do is None:
            raise ValueError(f"not a Xanadu action: {a!r}")
        do(s, a)
        self._advance(s)

    def _do_place(self, s: State, a: PlaceWorker) -> None:
        me, target = s.active, a.target
        s.hands[me].remove(a.worker)
        ws = s.workers[target]
        box = len(ws)
        ws.append(a.worker)
        s.placers[target].append(me)
        pool = s.pool
        for r, k in self.box_items[target][box]:
            pool[r] += k
        s.acted = True
        if s.owner[target] == me:
            s.workers_own[me] += 1
        else:
            s.workers_others[me] += 1

    def _do_draw(self, s: State, a: Draw) -> None:
        self._apply_draw(s, a.card)

    def _do_sell(self, s: State, a: Sell) -> None:
        s.sold = True
        s.sales[s.active] += 1
        self._sell_card(s, a.card)

    def _do_draw_cards(self, s: State, a: DrawCards) -> None:
        if a.count not in s.draw_choices or s.phase != CHOOSE_DRAW:
            raise ValueError(f"cannot draw {a.count} cards now (allowed: {s.draw_choices})")
        self._start_draws(s, a.count)

    def _do_start(self, s: State, a: PlaceStart) -> None:
        seat = s.start_queue[0]
        s.hands[seat].remove(a.card)
        s.pending[seat].append(a.card)
        s.start_left -= 1
        s.busy = True

    def observe(self, s: State, seat: int) -> Observation:
        """The seat's view; its fields are computed on first access (``LazyObservation``)."""
        return Observation((s, self), seat, prompt=PROMPTS.get(s.phase, "none"))

    def scores(self, s: State) -> tuple[float, ...]:
        """Tong bao per seat ('A játék lényege')."""
        return tuple(float(c) for c in s.coins)

    def scores_if_ended(self, s: State) -> tuple[float, ...]:
        """Tong bao per seat if the End of Game card were drawn now: coins plus the current sale
        price of every built card ('Játék vége': everyone sells every built card). The ``search``
        strategy's value at its depth cap."""
        bonus = self.options.bonus_on_every_sale
        return tuple(float(s.coins[i] + sum(self.sale_price(s, c, bonus=bonus) for c in s.built[i]))
                     for i in range(s.n))

    def winners(self, s: State) -> frozenset[int]:
        """Most tong bao; the rulebook has no tie-break, so ties share the win (RULINGS §4)."""
        best = max(s.coins)
        return frozenset(i for i in range(s.n) if s.coins[i] == best)

    def metrics(self, s: State) -> dict[str, tuple[float, ...]]:
        """Per seat: tong bao by colour sold, cards built by colour (paid builds), starting cards,
        workers on own / others' cards, sales in phase 1, forced sales, hand refills."""
        out: dict[str, tuple[float, ...]] = {}
        for k, name in enumerate(COLOURS):
            out[f"tong_bao_{name}"] = tuple(float(x[k]) for x in s.coins_by_colour)
        for k, name in enumerate(COLOURS):
            out[f"built_{name}"] = tuple(float(x[k]) for x in s.built_by_colour)
        out["cards_built"] = tuple(float(sum(x)) for x in s.built_by_colour)
        out["starting_cards"] = tuple(float(sum(x)) for x in s.started_by_colour)
        out["workers_own"] = tuple(map(float, s.workers_own))
        out["workers_others"] = tuple(map(float, s.workers_others))
        out["phase1_sales"] = tuple(map(float, s.sales))
        out["forced_sales"] = tuple(map(float, s.forced))
        out["hand_refills"] = tuple(map(float, s.refills))
        return out

    def progress(self, s: State) -> tuple[int, int]:
        """``(round, turn)`` of the turn being played, both from 0 (replay headers; ``summary``'s
        ``rounds`` counts rounds begun by the end, so it moves after a round's first turn)."""
        return s.turns // s.n, s.turns

    def summary(self, s: State) -> dict[str, float]:
        """Whole-game figures: turns, rounds, reshuffles, restarts, whether the End card was drawn."""
        begun = s.turns + (0 if s.stalled else 1)  # the game-ending turn was played (a stall ends between turns)
        return {
            "turns": float(begun),
            "rounds": float(-(-begun // s.n)),
            "reshuffles": float(s.reshuffles),
            "restarts": float(s.restarts),
            "end_card_drawn": float(s.end_drawn),
        }

    def components(self, s: State) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Per seat, the names of the cards it built (paid), placed as starting cards, and sold
        (phase 1, forced and final sales)."""
        name = lambda c: self.cards[c].name  # noqa: E731
        return {
            "card_built": tuple(tuple(map(name, x)) for x in s.built_ids),
            "card_started": tuple(tuple(map(name, x)) for x in s.started_ids),
            "card_sold": tuple(tuple(map(name, x)) for x in s.sold_ids),
        }

    def clone(self, s: State) -> State:
        return copy.deepcopy(s)

    def describe(self, s: State, a) -> str:
        """One log line for ``sim replay`` (called before ``a`` is applied)."""
        nm = self._name
        match a:
            case Draw(card):
                if card == self.END:
                    return "chance: the End of Game card is drawn"
                return f"chance: seat {s.to_draw[0]} draws {nm(card)}"
            case PlaceStart(card):
                return f"seat {s.start_queue[0]}: places {nm(card)} face down as a starting card"
            case Sell(card):
                return f"seat {s.active}: sells {nm(card)} for {self.sale_price(s, card)} tong bao"
            case EndSelling():
                return f"seat {s.active}: sells nothing {'more' if s.sold else ''}".rstrip()  # "more" after a sale only
            case PlaceWorker(worker, target):
                box = len(s.workers[target])
                got = ", ".join(f"{k} {self.resources[r]}" for r, k in self.box_items[target][box]) or "nothing"
                before, after = self.prices[target][box], self.prices[target][box + 1]
                return (f"seat {s.active}: worker {nm(worker)} on box {box + 1} of seat {s.owner[target]}'s "
                        f"{nm(target)} (takes {got}; price {before} -> {after})")
            case Build(card):
                return f"seat {s.active}: builds {nm(card)}"
            case EndTurn():
                return f"seat {s.active}: ends phase 2"
            case DrawCards(count):
                return f"seat {s.active}: draws {count} card{'s' * (count != 1)} (allowed {s.draw_choices})"
        return repr(a)

    def stalled(self, s: State) -> bool:
        """True when the game ended by the stall rule (a whole round that changed nothing; the
        runner reports it as truncated)."""
        return s.stalled

    def end_reason(self, s: State) -> str:
        """Why a game at ``TERMINAL`` ended: ``"finished"`` (the End of Game card was drawn,
        'Dobópakli és a játék vége') or ``"stalled"`` (a whole round of turns changed nothing, see
        the module docstring). Xanadu has no round cap (``"round_cap"`` never occurs; the runner's
        decision cap is separate). ``"unfinished"`` for a state that is not terminal."""
        if s.phase != END:
            return "unfinished"
        return "stalled" if s.stalled else "finished"

    def notes(self) -> tuple[str, ...]:
        """Plain-sentence warnings about the option combination in play (RULINGS §4 'Variant
        combinations'), for the run's report; empty when there is nothing to say."""
        o, n, out = self.options, self.num_players, []
        if n >= 5 and o.longer and o.reshuffles_before_end is None:
            out.append("longer adds nothing at 5-6 players: both mean three shuffles "
                       "(the End card goes in at the second reshuffle either way)")
        if n >= 5 and o.advanced:
            limit = ("the 5-6 player limit of 4 built cards applies" if o.build_limit is None
                     else f"build_limit is set to {o.build_limit} explicitly")
            out.append(f"the rulebook recommends the advanced game for at most 4 players; {limit}")
        return tuple(out)

    def check_invariants(self, s: State) -> None:
        """Conservation laws (raise ``AssertionError`` with a short message): every one of the 70
        cards in exactly one place (draw pile, discard, a hand, the table, under a card as a worker,
        face down as a starting card); workers fill 0-4 boxes, each with its placer; owners match the
        table; built cards within the limit; the End card inserted exactly at its reshuffle and
        within the bottom ``end_card_depth``; tong bao equal the sum of the sales by colour; pool
        and spendable resources never negative."""
        zones = [s.draw, s.discard, *s.hands, *s.built, *s.pending, *s.workers.values()]
        assert sorted(c for z in zones for c in z) == list(range(self.n_cards)), "cards lost or duplicated"
        assert set(s.owner) == {c for row in s.built for c in row}, "owner map differs from the table"
        assert set(s.workers) == set(s.owner) == set(s.placers), "worker map differs from the table"
        for seat, row in enumerate(s.built):
            assert all(s.owner[c] == seat for c in row), "card on the wrong seat"
            assert len(row) <= self.r.build_limit, "too many built cards"
        for c, ws in s.workers.items():
            assert 0 <= len(ws) <= 4 and len(s.placers[c]) == len(ws), "boxes out of range"
            assert all(0 <= p < s.n for p in s.placers[c]), "worker placed by no seat"
        assert set(s.sideways) <= set(s.owner) and all(s.owner[c] == s.active for c in s.sideways), "sideways card"
        if s.phase in (SELL, WORK, CHOOSE_DRAW):
            cap = max(self.options.hand_limit, self.r.deal, self.r.restart_hand)
            assert all(len(h) <= cap for h in s.hands), "hand over the limit"
        assert s.builds <= self.r.builds_per_turn, "too many builds this turn"
        assert all(x >= 0 for x in s.pool) and all(x >= 0 for x in s.perm_used), "negative pool"
        if s.phase == WORK:
            assert all(x >= 0 for x in self.available(s)), "spent resources the seat did not have"
        assert s.end_in == (s.reshuffles >= self.r.reshuffles_before_end), "End card inserted at the wrong reshuffle"
        assert 0 <= s.top_left <= len(s.draw), "End card position outside the pile"
        if s.end_in:
            assert len(s.draw) - s.top_left <= self.options.end_card_depth, "End card above the bottom cards"
        assert all(x >= 0 for x in s.coins), "negative tong bao"
        assert [sum(x) for x in s.coins_by_colour] == s.coins, "tong bao differ from the sum of sales"
        assert all(s.sales[i] + s.forced[i] <= len(s.sold_ids[i]) for i in range(s.n)), "sale counts"
        assert 0 <= s.quiet_turns <= s.n, "stall counter out of range"

    # ------------------------------------------------------------------ helpers used by tests too
    def _name(self, c: int) -> str:
        return "End of Game" if c == self.END else f"{self.cards[c].name} ({COLOURS[self.colour[c]]})"

    def sale_price(self, s: State, card: int, *, bonus: bool = True) -> int:
        """Current price: lowest uncovered box (the final price when all 4 are covered), plus the
        5-6 player colour bonus."""
        p = self.prices[card][len(s.workers[card])]
        return p + self.bonus[self.colour[card]] if bonus else p

    def start_options(self, hand: list[int]) -> list[int]:
        """Hand cards allowed as a starting card: brown, else blue, else yellow (never green)."""
        col = self.colour
        for want in START_PRIORITY:
            got = [c for c in hand if col[c] == want]
            if got:
                return got
        return []

    def permanent(self, s: State, seat: int) -> list[int]:
        """Per resource: permanent resources of ``seat`` this turn (printed ones and the Khan's
        help of covered boxes, RULINGS §4), before use."""
        out = [0] * len(self.resources)
        self._add_permanent(s, seat, out)
        return out

    def _add_permanent(self, s: State, seat: int, out: list[int]) -> None:
        perm_items, workers = self.perm_items, s.workers
        for c in s.built[seat]:
            for r, k in perm_items[c][len(workers[c])]:
                out[r] += k

    def available(self, s: State) -> list[int]:
        """Per resource: what the active player can still spend this turn."""
        out = list(map(sub, s.pool, s.perm_used))
        self._add_permanent(s, s.active, out)
        return out

    def can_build(self, s: State) -> bool:
        return s.builds < self.r.builds_per_turn and len(s.built[s.active]) < self.r.build_limit

    def _work_actions(self, s: State) -> tuple:
        """Phase 2: every (hand card, upright uncovered-box target) worker in hand order, then the
        builds the seat can pay in hand order, then ``EndTurn``."""
        me = s.active
        hand = s.hands[me]
        if not hand:
            return (END_TURN,)
        out: list = []
        sideways, workers = s.sideways, s.workers
        targets = [c for row in s.built for c in row if len(workers[c]) < 4 and c not in sideways]
        if len(targets) == 1:
            t = targets[0]
            out = [row[t] for row in map(self._place.__getitem__, hand)]
        elif targets:
            get, place = itemgetter(*targets), self._place  # one C call per worker card
            for w in hand:
                out += get(place[w])
        if s.builds < self.builds_per_turn and len(s.built[me]) < self.build_limit:
            avail = list(map(sub, s.pool, s.perm_used))  # as available(s), inlined
            perm_items = self.perm_items
            for c in s.built[me]:
                for r, k in perm_items[c][len(workers[c])]:
                    avail[r] += k
            total = sum(avail)
            items, cost_total, build = self.cost_items, self.cost_total, self._build
            for c in hand:
                if cost_total[c] <= total:  # cheap filter before the per-resource check
                    for r, k in items[c]:
                        if avail[r] < k:
                            break
                    else:
                        out.append(build[c])
        out.append(END_TURN)
        return tuple(out)

    def _build_card(self, s: State, card: int) -> None:
        me = s.active
        s.hands[me].remove(card)
        pool, used = s.pool, s.perm_used
        for r, k in self.cost_items[card]:  # this turn's box resources first, then permanent ones
            take = min(pool[r], k)
            pool[r] -= take
            used[r] += k - take
        self._put(s, me, card)
        s.sideways.append(card)
        s.builds += 1
        s.acted = True
        s.built_by_colour[me][self.colour[card]] += 1
        s.built_ids[me].append(card)

    def _put(self, s: State, seat: int, card: int) -> None:
        s.built[seat].append(card)
        s.owner[card] = seat
        s.workers[card] = []
        s.placers[card] = []

    def _sell_card(self, s: State, card: int, *, bonus: bool = True) -> int:
        seat = s.owner.pop(card)
        price = self.sale_price(s, card, bonus=bonus)
        s.coins[seat] += price
        s.coins_by_colour[seat][self.colour[card]] += price
        s.sold_ids[seat].append(card)
        s.built[seat].remove(card)
        s.discard.append(card)
        s.discard.extend(s.workers.pop(card))  # workers go to the discard with the card (RULINGS §4)
        del s.placers[card]
        return price

    def _end_selling(self, s: State) -> None:
        s.phase = WORK
        if any(s.built):
            return
        # 'no built card left anywhere': everyone draws up to 7 and places starting cards again
        s.restarts += 1
        n, me, lim = s.n, s.active, self.r.restart_hand  # as at the setup of the variant (RULINGS §4)
        order = [(me + k) % n for k in range(n)]
        s.to_draw = [seat for seat in order for _ in range(max(0, lim - len(s.hands[seat])))]
        s.start_queue = order
        s.start_left = self.r.starting_cards
        s.restarting = True
        s.phase = RESTART_DRAW

    def _end_turn(self, s: State) -> None:
        me, o = s.active, self.options
        room = max(0, o.hand_limit - len(s.hands[me]))
        s.idle = not s.sold and not s.acted and o.refill_when_idle
        k = room if s.idle else min(room, o.draw_sold if s.sold else o.draw_nothing_sold)
        if o.draw == "forced" or k == 0:
            self._start_draws(s, k)
            return
        # 'húzhat' (may draw): the allowed number or none; 'up to 7': any number up to the room
        s.draw_choices = list(range(k + 1)) if s.idle else [0, k]
        s.phase = CHOOSE_DRAW

    def _start_draws(self, s: State, k: int) -> None:
        me = s.active
        if s.idle:
            s.refills[me] += k > 0  # counted when the idle turn draws at least one card
        s.draw_choices = []
        s.to_draw = [me] * k
        s.phase = TURN_DRAW

    def _finish_turn(self, s: State) -> None:
        """Phase 3 after the draws: sideways cards upright, forced sales, next player."""
        s.sideways.clear()
        seats = [s.active] if self.options.forced_sale == "active" else list(range(s.n))
        bonus = self.options.bonus_on_every_sale
        for seat in seats:
            for c in [c for c in s.built[seat] if len(s.workers[c]) == 4]:
                self._sell_card(s, c, bonus=bonus)
                s.forced[seat] += 1
                s.busy = True
        quiet = not (s.sold or s.acted or s.busy)
        s.quiet_turns = s.quiet_turns + 1 if quiet else 0
        s.busy = False
        s.turns += 1
        if s.quiet_turns >= s.n:  # a whole round changed nothing: the game is stalled
            s.stalled = True
            s.phase = END
            return
        s.active = (s.active + 1) % s.n
        s.sold = s.acted = False
        s.builds = 0
        s.pool = [0] * len(self.resources)
        s.perm_used = [0] * len(self.resources)
        s.phase = SELL

    def _apply_draw(self, s: State, card: int) -> None:
        if card == self.END:  # 'Játék vége': everyone sells every built card, then count
            s.end_drawn = True
            s.to_draw.clear()
            bonus = self.options.bonus_on_every_sale
            for seat in range(s.n):
                for c in list(s.built[seat]):
                    self._sell_card(s, c, bonus=bonus)
            s.sideways.clear()
            s.phase = END
            return
        seat = s.to_draw.pop(0)
        d = s.draw
        i = d.index(card)
        d[i] = d[-1]
        d.pop()
        if s.end_in and s.top_left:
            s.top_left -= 1
        s.hands[seat].append(card)
        s.busy = True

    def _reshuffle(self, s: State) -> bool:
        """The draw pile is empty at a draw: shuffle the discard into a new pile (the End card into
        its bottom 10 at reshuffle ``reshuffles_before_end``). False when nothing can be drawn."""
        if s.reshuffles + 1 >= self.r.reshuffles_before_end:
            s.draw, s.discard = s.discard, []
            s.reshuffles += 1
            s.end_in = True
            s.top_left = max(0, len(s.draw) - self.options.end_card_depth)
            return True
        if not s.discard:
            return False
        s.draw, s.discard = s.discard, []
        s.reshuffles += 1
        return True

    def _reveal(self, s: State) -> None:
        for seat in range(s.n):
            for c in s.pending[seat]:
                self._put(s, seat, c)
                s.started_by_colour[seat][self.colour[c]] += 1
                s.started_ids[seat].append(c)
            s.pending[seat] = []

    def _advance(self, s: State) -> None:
        """Run automatic steps until a decision, a chance node or the end."""
        while True:
            if s.to_draw:
                if s.draw or s.end_in:
                    return
                if self._reshuffle(s):
                    continue
                s.to_draw.pop(0)  # nothing left to draw anywhere: the draw is skipped
                continue
            ph = s.phase
            if ph == WORK or ph == END:
                return
            if ph == SELL:
                if s.built[s.active]:
                    return
                self._end_selling(s)  # nothing to sell: phase 1 passes by itself
                continue
            if ph == START:
                q = s.start_queue
                while q and (s.start_left == 0 or not self.start_options(s.hands[q[0]])):
                    q.pop(0)
                    s.start_left = self.r.starting_cards
                if q:
                    return
                self._reveal(s)
                s.phase = WORK if s.restarting else SELL
                s.restarting = False
                continue
            if ph == DEAL:
                s.start_queue = list(range(s.n))
                s.start_left = self.r.starting_cards
                s.phase = START
                continue
            if ph == RESTART_DRAW:
                s.phase = START
                continue
            if ph == TURN_DRAW:
                self._finish_turn(s)
                continue
            return

    # ------------------------------------------------------------------ determinization
    def determinize(self, obs: Observation, rng) -> State:
        """A full state consistent with ``obs``: the cards ``obs.seat`` cannot see (others' hands,
        workers and face-down starting cards, the draw pile) redrawn at random from the unseen."""
        n, me = obs.num_players, obs.seat
        phase = {"start": START, "sell": SELL, "work": WORK, "draw": CHOOSE_DRAW}.get(obs.prompt, END)
        s = self.new_blank(n)
        s.phase, s.active = phase, obs.active
        s.hands[me] = list(obs.hand)
        s.discard = list(obs.discard)
        s.sideways = list(obs.sideways)
        s.coins = list(obs.coins)
        s.start_queue, s.start_left = list(obs.start_queue), obs.start_left
        s.pending[me] = list(obs.my_start)
        s.restarting = obs.restarting
        s.draw_choices, s.quiet_turns = list(obs.draw_choices), obs.quiet_turns
        s.idle = phase == CHOOSE_DRAW and not obs.sold_this_turn and not obs.acted_this_turn and self.options.refill_when_idle
        s.sold, s.acted, s.builds = obs.sold_this_turn, obs.acted_this_turn, obs.builds_this_turn
        s.pool, s.perm_used = list(obs.pool), list(obs.perm_used)
        s.end_in, s.top_left, s.reshuffles, s.turns = obs.end_card_in, obs.top_left, obs.reshuffles, obs.turns
        known = set(obs.hand) | set(obs.discard) | set(obs.my_start)
        mine: dict[int, list[int]] = {}
        for w, host in obs.my_workers:
            mine.setdefault(host, []).append(w)
            known.add(w)
        for row in obs.built:
            known.update(row)
        unseen = [c for c in range(self.n_cards) if c not in known]
        rng.shuffle(unseen)
        for seat, row in enumerate(obs.built):
            for c, pl in zip(row, obs.placers[seat], strict=True):
                self._put(s, seat, c)
                own = iter(mine.get(c, ()))
                s.workers[c] = [next(own) if p == me else unseen.pop() for p in pl]
                s.placers[c] = list(pl)
        for seat in range(n):
            if seat != me:
                s.hands[seat] = [unseen.pop() for _ in range(obs.hand_sizes[seat])]
                s.pending[seat] = [unseen.pop() for _ in range(obs.start_placed[seat])]
        if len(unseen) != obs.draw_pile_size:
            raise ValueError(f"observation inconsistent: {len(unseen)} unseen cards for a pile of {obs.draw_pile_size}")
        s.draw = unseen
        return s

    def new_blank(self, n: int) -> State:
        nr = len(self.resources)
        return State(
            n=n, draw=[], hands=[[] for _ in range(n)], built=[[] for _ in range(n)], coins=[0] * n,
            pending=[[] for _ in range(n)], pool=[0] * nr, perm_used=[0] * nr,
            coins_by_colour=[[0] * 4 for _ in range(n)], built_by_colour=[[0] * 4 for _ in range(n)],
            started_by_colour=[[0] * 4 for _ in range(n)], workers_own=[0] * n, workers_others=[0] * n,
            forced=[0] * n, refills=[0] * n, sales=[0] * n, built_ids=[[] for _ in range(n)],
            started_ids=[[] for _ in range(n)], sold_ids=[[] for _ in range(n)],
        )


GAME = Xanadu
