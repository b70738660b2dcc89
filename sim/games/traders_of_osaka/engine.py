"""Traders of Osaka: the forward model (rulebook seeds/003, RULINGS §2).

Flow: setup deals (chance) -> start player -> achievement-token choices -> turns. A turn is one
action (Buy Goods, Take Coins, Reserve); Buy Goods continues with one ``PayCard`` decision per
hand card until the cost is covered, then ships advance, payments run (order chosen by the
active player when several ships reach Edo; insurance offered clockwise from the active
player before ships sink), and the Market and Farm are refreshed.

Every card drawn is a chance node over the cards in the draw pile (uniform), so the pile has
no hidden order to leak.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import compress, filterfalse

from sim.api import CHANCE, TERMINAL, EngineBase, GameInfo, LazyObservation, OptionError

from .actions import (
    BUY,
    END_INSURANCE,
    PASS,
    BuyGoods,
    ChoosePayment,
    ChooseToken,
    Draw,
    EndInsurance,
    Insure,
    Pass,
    PayCard,
    Reserve,
    StartPlayer,
    TakeCoins,
)
from .observation import Card, Observation
from .rules import Options, OsakaData, load_data

# phases
SETUP, START_TIE, TOKENS, TURN_START, ACTION, PAY, PAYMENTS, ORDER, INSURE, TURN_END, END = range(11)
PROMPTS = {TOKENS: "token", ACTION: "action", PAY: "pay", ORDER: "payment_order", INSURE: "insure"}
_new, _open = object.__new__, LazyObservation.__init__
# draw destinations (entries of State.to_draw): a hand position during setup is its index >= 0
TO_MARKET, TO_FARM, TO_VP = -1, -2, 100


@dataclass(slots=True)
class State:
    """Plain, picklable game state. Seats count from the start player once setup is done."""

    n: int
    draw: list[int]
    discard: list[int] = field(default_factory=list)
    market: list[int] = field(default_factory=list)
    farm: list[int] = field(default_factory=list)
    reserved: dict[int, int] = field(default_factory=dict)  # card id -> seat
    hands: list[list[int]] = field(default_factory=list)
    hand_value: list[int] = field(default_factory=list)  # coins in each hand
    goods: list[list[int]] = field(default_factory=list)
    insured: set[int] = field(default_factory=set)  # card ids of insured merchandise
    vp: list[int] = field(default_factory=list)
    vp_cards: list[list[int]] = field(default_factory=list)
    tokens: list[list[int]] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)  # achievement tokens left per colour
    substitutes: list[int] = field(default_factory=list)  # tokens taken after the supply ran out
    ships: list[int] = field(default_factory=list)
    phase: int = SETUP
    to_draw: list[int] = field(default_factory=list)
    setup_pos: int = 0
    tied: list[int] = field(default_factory=list)
    active: int = 0
    due: int = 0
    paid: int = 0
    edo: list[int] = field(default_factory=list)  # colours of ships waiting at Edo
    paying: int = -1
    sinking: list[int] = field(default_factory=list)
    insure_queue: list[int] = field(default_factory=list)
    turns: int = 0
    # per-seat figures for metrics
    bought: list[int] = field(default_factory=list)
    purchases: list[int] = field(default_factory=list)
    sunk: list[int] = field(default_factory=list)
    insured_count: list[int] = field(default_factory=list)
    payments: list[int] = field(default_factory=list)
    n_payments: int = 0
    n_sinkings: int = 0
    reshuffles: int = 0
    stalled: bool = False
    paid_log: list[int] = field(default_factory=list)  # colour of every payment, in order
    sunk_log: list[int] = field(default_factory=list)  # colour of every sunk ship, in order
    passes: int = 0  # consecutive turns passed
    vp_unbacked: list[int] = field(default_factory=list)  # VP scored whose cards could not be drawn, per seat
    refreshed: bool = False  # the Market was refreshed at the start of this turn
    # the legal actions of the turn begun (phase ACTION), built with its cost at turn start and
    # cleared by the turn's action; code that edits a state by hand during a turn sets it to None
    legal: tuple | None = None
    # the legal actions of the seat first in the insurance queue (phase INSURE), built when
    # ``_advance`` skips the seats with nothing to insure and cleared by the Insure / EndInsurance
    insuring: tuple | None = None


class TradersOfOsaka(EngineBase):
    """Traders of Osaka for 2-4 players. ``TradersOfOsaka(num_players, Options(), load_data())``.

    Raises ``ValueError`` for a player count outside 2-4.
    """

    lazy_observations = True  # observe() hands out LazyObservation views (issue 20 item 3)
    # the attributes set in __init__, as slots: a read is a descriptor, not a dict look-up (the
    # instance keeps a __dict__ from EngineBase for anything else)
    __slots__ = ("num_players", "options", "data", "colours", "cards", "value", "colour", "icons", "kind",
                 "track", "edo", "anchor", "waves", "_on_waves", "_of_colour", "_refresh_draws", "_kind_bit",
                 "_colour_bit", "_icon_cards", "_draw", "_take", "_reserve", "_scan_tables", "_pay", "_insure",
                 "_token", "_order", "_handlers")
    info = GameInfo("traders_of_osaka", "1", 2, 4, "Traders of Osaka", "seeds/003_715edbacf1b1bb05.txt")
    Options = Options
    load_data = staticmethod(load_data)

    def __init__(self, num_players: int, options: Options | None = None, data: OsakaData | None = None):
        self.check_players(num_players)
        self.num_players = num_players
        self.options = options or Options()
        self.data = data or load_data()
        cd = self.data.cards
        self.colours = tuple(cd.colours)
        cards = []
        for colour in range(len(cd.colours)):
            for kind in cd.per_colour:
                cards += [(colour, kind.value, kind.insurance)] * kind.count
        self.cards = tuple(Card(i, c, v, ins) for i, (c, v, ins) in enumerate(cards))
        o = self.options
        if o.market_size + o.farm_size > len(cards) // 2:
            raise OptionError("market_size", f"market_size + farm_size ({o.market_size + o.farm_size}) leave too few of the"
                             f" {len(cards)} cards to play with (at most half the deck)")
        if o.hand_threshold * num_players > sum(v for _, v, _ in cards) // 2:
            raise OptionError("hand_threshold", f"hand_threshold {o.hand_threshold} coins x {num_players} players is more than half"
                             " the deck's value: starting hands could not be drawn")
        self.value = tuple(c.value for c in self.cards)
        self.colour = tuple(c.colour for c in self.cards)
        self.icons = tuple(c.insurance for c in self.cards)
        values = sorted({c.value for c in self.cards})
        self.kind = tuple(c.colour * len(values) + values.index(c.value) for c in self.cards)  # small int per (colour, value)
        kinds = [s.kind for s in self.data.track.spaces]
        self.track = tuple(kinds)
        self.edo = len(kinds) - 1
        self.anchor = kinds.index("anchor")
        self.waves = frozenset(i for i, k in enumerate(kinds) if k == "waves")
        self._on_waves = tuple(k == "waves" for k in kinds)  # per track space
        self._of_colour = tuple(frozenset(i for i, c in enumerate(self.colour) if c == colour)
                                for colour in range(len(self.colours)))  # card ids per colour
        self._refresh_draws = (TO_MARKET,) * o.refresh_market_draw + (TO_FARM,) * o.farm_size  # refresh steps 2-3
        self._kind_bit = tuple(1 << k for k in self.kind)  # a card's kind as one bit
        self._colour_bit = tuple(1 << c for c in self.colour)  # a card's colour as one bit
        self._icon_cards = tuple(frozenset(c for c in of if self.icons[c]) for of in self._of_colour)
        # action objects are immutable: build each once
        self._draw = tuple(Draw(i) for i in range(len(cards)))
        self._take = tuple(TakeCoins(i) for i in range(len(cards)))
        self._reserve = tuple(Reserve(i) for i in range(len(cards)))
        self._scan_tables = (self._take, self._reserve, self.value, self._kind_bit)  # _scan's, read at once
        self._pay = tuple(PayCard(i) for i in range(len(cards)))
        self._insure = tuple(Insure(i) for i in range(len(cards)))
        self._token = tuple(ChooseToken(c) for c in range(len(self.colours)))
        self._order = tuple(ChoosePayment(c) for c in range(len(self.colours)))
        self._handlers = {
            Draw: self._on_draw, BuyGoods: self._on_buy, PayCard: self._on_pay, TakeCoins: self._on_take,
            Reserve: self._on_reserve, ChooseToken: self._on_token, ChoosePayment: self._on_order,
            Insure: self._on_insure, EndInsurance: self._on_end_insurance, StartPlayer: self._on_start,
            Pass: self._on_pass,
        }

    # ------------------------------------------------------------------ protocol
    def new_initial_state(self) -> State:
        n, nc = self.num_players, len(self.colours)
        o = self.options
        s = State(
            n=n,
            draw=list(range(len(self.cards))),
            hands=[[] for _ in range(n)],
            hand_value=[0] * n,
            goods=[[] for _ in range(n)],
            vp=[0] * n,
            vp_cards=[[] for _ in range(n)],
            tokens=[[0] * nc for _ in range(n)],
            supply=[self.data.cards.achievement_tokens_per_colour] * nc,
            substitutes=[0] * nc,
            ships=[0] * nc,
            bought=[0] * n,
            purchases=[0] * n,
            sunk=[0] * n,
            insured_count=[0] * n,
            payments=[0] * n,
            vp_unbacked=[0] * n,
        )
        s.to_draw = [TO_MARKET] * o.market_size + [TO_FARM] * o.farm_size
        self._advance(s)
        return s

    def current_player(self, s: State) -> int:
        if s.to_draw:
            return CHANCE
        ph = s.phase
        if ph == ACTION or ph == PAY:
            return s.active
        if ph == START_TIE:
            return CHANCE
        if ph == END:
            return TERMINAL
        if ph == TOKENS:
            return s.setup_pos
        if ph == INSURE:
            return s.insure_queue[0]
        return s.active

    def chance_outcomes(self, s: State) -> tuple:
        if s.to_draw:
            p = 1.0 / len(s.draw)
            return tuple((self._draw[c], p) for c in s.draw)
        p = 1.0 / len(s.tied)
        return tuple((StartPlayer(pos), p) for pos in s.tied)

    def sample_chance(self, s: State, rng) -> Draw | StartPlayer:
        """Fast sampler, same distribution as ``chance_outcomes`` (tested)."""
        if s.to_draw:
            return self._draw[s.draw[int(rng.random() * len(s.draw))]]
        return StartPlayer(s.tied[int(rng.random() * len(s.tied))])

    def chance_run(self, s: State, rng, limit: int) -> int:
        """Play up to ``limit`` consecutive chance events (at least one; call it at a chance node)
        and return how many: each draws exactly as ``sample_chance`` then ``apply_action`` would
        (one ``rng.random()`` per event, same outcome), without the game loop's round trip per card."""
        rand, k = rng.random, 0
        while k < limit:
            draw, to_draw = s.draw, s.to_draw  # a reshuffle or a refresh may have replaced them
            if to_draw:
                # a row of draws (_advance would stop at each next draw at once): as many as are
                # queued, while cards are left and within the limit; _deliver reads no queue
                m = min(len(to_draw), len(draw), limit - k)
                _draw_row(self, s, rand, draw, to_draw, m)
                k += m
                if to_draw and draw:  # stopped by the limit, before the next draw
                    break
                self._advance(s)
            elif s.phase == START_TIE:
                self._set_start(s, s.tied[int(rand() * len(s.tied))])
                self._advance(s)
                k += 1
            else:
                break
        return k

    def legal_actions(self, s: State) -> tuple:
        ph, me = s.phase, s.active
        if ph == ACTION:  # built when the turn began (None in a state built by hand)
            return s.legal or self._turn_actions(s, me, s.due)
        if ph == PAY:  # one PayCard per (colour, value) kind in the hand, first card of each
            return _kinds(s.hands[me], self._kind_bit, self._pay)
        if ph == TOKENS:
            return self._token
        if ph == ORDER:
            return tuple([self._order[c] for c in s.edo])  # no generator: no closure per call
        if ph == INSURE:  # built by _advance (None in a state built by hand)
            return s.insuring or (*map(self._insure.__getitem__, self._insurance_cards(s, s.insure_queue[0])),
                                  END_INSURANCE)
        return ()

    def apply_action(self, s: State, a) -> None:
        # dispatch on the action's class through a table (a ``match`` tries the cases in turn)
        try:
            handler = self._handlers[type(a)]
        except KeyError:
            raise ValueError(f"not a Traders of Osaka action: {a!r}") from None
        handler(s, a)
        if s.phase != PAY or s.to_draw:  # paying on, nothing to draw: _advance would return at once
            self._advance(s)

    # one handler per action class; turn actions other than Pass end a round of passes
    def _on_draw(self, s: State, a: Draw) -> None:
        self._place_draw(s, a.card)

    def _on_buy(self, s: State, a: BuyGoods) -> None:
        if s.phase == ACTION:
            s.passes = 0
        s.legal = None  # the turn's list goes with the turn
        s.paid = 0  # s.due holds the cost, set when the turn began
        s.phase = PAY

    def _on_pay(self, s: State, a: PayCard) -> None:
        me, card = s.active, a.card
        s.hands[me].remove(card)
        s.hand_value[me] -= self.value[card]
        s.discard.append(card)
        s.paid += self.value[card]
        if s.paid >= s.due:
            self._complete_purchase(s, me)

    def _on_take(self, s: State, a: TakeCoins) -> None:
        if s.phase == ACTION:
            s.passes = 0
        s.legal = None  # the turn's list goes with the turn
        me, card = s.active, a.card
        s.market.remove(card)
        if s.reserved.get(card) == me:
            del s.reserved[card]
        s.hands[me].append(card)
        s.hand_value[me] += self.value[card]
        s.phase = TURN_END

    def _on_reserve(self, s: State, a: Reserve) -> None:
        if s.phase == ACTION:
            s.passes = 0
        s.legal = None  # the turn's list goes with the turn
        s.reserved[a.card] = s.active
        s.phase = TURN_END

    def _on_token(self, s: State, a: ChooseToken) -> None:
        self._gain_token(s, s.setup_pos, a.colour)
        s.setup_pos += 1
        if s.setup_pos == s.n:
            s.phase, s.active = TURN_START, 0

    def _on_order(self, s: State, a: ChoosePayment) -> None:
        self._pay_ship(s, a.colour)

    def _on_insure(self, s: State, a: Insure) -> None:
        s.insuring = None
        self._insure_with(s, s.insure_queue[0], a.card)

    def _on_end_insurance(self, s: State, a: EndInsurance) -> None:
        s.insuring = None
        s.insure_queue.pop(0)

    def _on_start(self, s: State, a: StartPlayer) -> None:
        self._set_start(s, a.position)

    def _on_pass(self, s: State, a: Pass) -> None:
        s.passes += 1
        s.legal = None
        s.phase = TURN_END

    def observe(self, s: State, seat: int) -> Observation:
        """The seat's view; its fields are computed on first access (``LazyObservation``)."""
        view = _new(Observation)  # Observation.over without its call frame (every decision)
        _open(view, (s, self), seat, prompt=PROMPTS.get(s.phase, "none"))
        return view

    def scores(self, s: State) -> tuple[float, ...]:
        """VP per seat ('Victory')."""
        return tuple(float(v) for v in s.vp)

    def winners(self, s: State) -> frozenset[int]:
        """Most VP; ties by most achievement tokens; then all tied players win ('Victory').

        For a stalled game (RULINGS §2: no winner) this still names the leaders, as the shared
        conformance test requires; the runner records a stalled game (``stalled()``,
        ``end_reason``) without winners.
        """
        key = [(s.vp[i], sum(s.tokens[i])) for i in range(s.n)]
        best = max(key)
        return frozenset(i for i in range(s.n) if key[i] == best)

    def metrics(self, s: State) -> dict[str, tuple[float, ...]]:
        """Per-seat figures: achievement tokens, goods bought, purchases (Buy Goods actions), goods
        sunk / insured, payments scored."""
        return {
            "achievement_tokens": tuple(float(sum(t)) for t in s.tokens),
            "goods_bought": tuple(map(float, s.bought)),
            "purchases": tuple(map(float, s.purchases)),
            "goods_sunk": tuple(map(float, s.sunk)),
            "goods_insured": tuple(map(float, s.insured_count)),
            "payments_scored": tuple(map(float, s.payments)),
        }

    def progress(self, s: State) -> tuple[int, int]:
        """``(round, turn)`` of the turn being played, both from 0 (replay headers; ``summary``'s
        ``rounds`` counts rounds begun by the end, so it moves after a round's first turn)."""
        return s.turns // s.n, s.turns

    def summary(self, s: State) -> dict[str, float]:
        """Whole-game figures: turns, rounds, payments, sinkings, reshuffles."""
        begun = s.turns + (0 if s.stalled else 1)  # the game-ending turn was played (a stall ends between turns)
        return {
            "turns": float(begun),
            "rounds": float(-(-begun // s.n)),
            "payments": float(s.n_payments),
            "sinkings": float(s.n_sinkings),
            "reshuffles": float(s.reshuffles),
        }

    def stalled(self, s: State) -> bool:
        """True when the game ended because nobody could act (RULINGS §2; reported as truncated)."""
        return s.stalled

    def end_reason(self, s: State) -> str:
        """Why a terminal game ended: ``"finished"`` (a player reached ``end_tokens`` achievement
        tokens, 'The End of the Game') or ``"stalled"`` (a whole round of passes, RULINGS §2).
        This engine has no round cap; the decision cap is the runner's. Raises ``ValueError``
        before the end."""
        if s.phase != END:
            raise ValueError("end_reason is defined once the game is over (current_player == TERMINAL)")
        return "stalled" if s.stalled else "finished"

    def check_invariants(self, s: State) -> None:
        """Conservation laws; raises ``AssertionError`` with a short message. Cards: each of the
        108 in exactly one zone (draw, discard, Market, Farm, a hand, merchandise, a VP pile).
        Ships: on the track, at Edo only during a payment, waiting at Edo exactly when listed.
        Achievement tokens: supply + held = 12 per colour + substitutes, at most ``end_tokens``
        each, at least the setup one once chosen. Reservation pieces: one per seat at most, on a
        Market or Farm card of a seat in play. Scores: VP = VP cards + VP draws owed + VP whose
        cards could not be drawn ('Bonus from Achievement Tokens', RULINGS §2), and VP scored
        only by payments. Cached hand values, insured goods held, passes within a round."""
        zones = [s.draw, s.discard, s.market, s.farm, *s.hands, *s.goods, *s.vp_cards]
        seen = sorted(c for z in zones for c in z)
        assert seen == list(range(len(self.cards))), "cards lost or duplicated"
        assert all(0 <= pos <= self.edo for pos in s.ships), "ship off the track"
        if s.phase in (ACTION, PAY, TOKENS):
            assert self.edo not in s.ships, "ship left at Edo"
        assert all(s.ships[c] == self.edo for c in s.edo), "a payment waits for a ship not at Edo"
        assert len(set(s.edo)) == len(s.edo), "a ship waits twice at Edo"
        for colour in range(len(self.colours)):
            held = sum(t[colour] for t in s.tokens)
            assert s.supply[colour] >= 0, "negative token supply"
            assert s.supply[colour] + held == self.data.cards.achievement_tokens_per_colour + s.substitutes[colour], \
                "achievement tokens lost or duplicated"
        assert all(sum(t) <= self.options.end_tokens for t in s.tokens), "more tokens than the end needs"
        if s.phase not in (SETUP, START_TIE, TOKENS):
            assert all(sum(t) >= 1 for t in s.tokens), "a seat without its setup token"
        assert s.hand_value == [sum(self.value[c] for c in h) for h in s.hands], "cached hand value wrong"
        assert s.insured <= {c for g in s.goods for c in g}, "insured card not in merchandise"
        assert len(set(s.reserved.values())) == len(s.reserved), "a seat with two reservation pieces"
        assert all(0 <= seat < s.n for seat in s.reserved.values()), "reservation piece of no seat"
        assert set(s.reserved) <= set(s.market) | set(s.farm), "reserved card not in the Market or Farm"
        owed = [s.to_draw.count(TO_VP + seat) for seat in range(s.n)]
        unbacked = s.vp_unbacked or [0] * s.n
        for seat in range(s.n):
            assert s.vp[seat] == len(s.vp_cards[seat]) + owed[seat] + unbacked[seat], "VP differ from their cards"
            assert s.vp[seat] >= s.payments[seat], "fewer VP than payments scored"
        assert 0 <= s.passes <= s.n, "passes beyond a round"

    def clone(self, s: State) -> State:
        # the kept legal actions are immutable objects: shared, not copied (memo)
        return copy.deepcopy(s, {id(t): t for t in (s.legal, s.insuring) if t is not None})

    def determinize(self, obs: Observation, rng) -> State:
        """A full state consistent with ``obs`` (an observation taken at a decision), for search.

        What ``obs.seat`` sees is copied. What it cannot see is drawn with ``rng`` from the cards
        it cannot see (every card not in the Market, Farm, its hand, anyone's merchandise or the
        discard pile): the other hands (sizes kept), the draw pile (size kept) and the VP cards.
        Others' VP: each payment scored gave one achievement token and at least 1 VP, so a seat
        with ``k`` tokens beyond its setup one has at least ``k`` VP; the VP cards not in the
        seat's own pile are dealt out as those minimums plus a random share weighted by payments.
        Figures kept only for metrics and summaries (purchases, sinkings, turns...) restart at 0,
        except payments scored (one per token beyond the setup one).

        ``observe(determinize(obs, rng), obs.seat) == obs``. Raises ``ValueError`` for an
        observation taken outside a decision (prompt ``none``) or one no state can produce.
        """
        phase = {p: ph for ph, p in PROMPTS.items()}.get(obs.prompt)
        if phase is None:
            raise ValueError(f"determinize needs an observation taken at a decision, not prompt {obs.prompt!r}")
        n, me, nc = obs.num_players, obs.seat, len(self.colours)
        seen = set(obs.market) | set(obs.farm) | set(obs.hand) | set(obs.discard)
        for goods in obs.merchandise:
            seen.update(goods)
        unseen = [c for c in range(len(self.cards)) if c not in seen]  # ascending ids: no set order
        rng.shuffle(unseen)
        hands = [list(obs.hand) if i == me else [] for i in range(n)]
        at = 0
        for i in range(n):
            if i != me:
                hands[i] = unseen[at : at + obs.hand_sizes[i]]
                at += obs.hand_sizes[i]
        draw = unseen[at : at + obs.draw_pile_size]
        at += obs.draw_pile_size
        vp_pool = unseen[at:]
        if len(hands[me]) != obs.hand_sizes[me] or len(draw) != obs.draw_pile_size:
            raise ValueError("observation inconsistent: not enough unseen cards for the hands and draw pile")
        # VP: own known; others from their payments (tokens beyond the setup one), summing to the VP cards left
        vp = [0] * n
        vp[me] = obs.vp
        own_cards = min(obs.vp, len(vp_pool))
        others = [i for i in range(n) if i != me]
        least = {i: max(0, sum(obs.tokens[i]) - 1) for i in others}
        spare = len(vp_pool) - own_cards - sum(least.values())
        for i in others:
            vp[i] = least[i]
        scorers = [i for i in others if least[i]]
        if spare > 0 and scorers:
            for i in rng.choices(scorers, weights=[least[i] for i in scorers], k=spare):
                vp[i] += 1
        vp_cards = [[] for _ in range(n)]
        vp_cards[me] = vp_pool[:own_cards]
        at = own_cards
        for i in others:
            vp_cards[i] = vp_pool[at : at + vp[i]]
            at += len(vp_cards[i])
        for k, c in enumerate(vp_pool[at:]):  # only when the tokens cannot explain the VP cards
            vp_cards[others[k % len(others)] if others else me].append(c)
        for i in others:
            vp[i] = len(vp_cards[i])
        unbacked = [0] * n
        unbacked[me] = max(0, obs.vp - len(vp_cards[me]))
        # tokens taken from the supply first, then substitutes (``_gain_token``)
        per = self.data.cards.achievement_tokens_per_colour
        taken = [sum(t[c] for t in obs.tokens) for c in range(nc)]
        edo = list(obs.pending_payments)
        paying = -1
        if phase == INSURE:  # the ship being paid waits at Edo, apart from those still to pay
            paying = next((c for c, pos in enumerate(obs.ships) if pos == self.edo and c not in edo), -1)
        insure_queue = []
        if phase == INSURE:  # the seat deciding is ``obs.seat``; the rest of the round follows it
            order = [(obs.active + k) % n for k in range(n)]
            insure_queue = order[order.index(me):]
        s = State(
            n=n,
            draw=draw,
            discard=list(obs.discard),
            market=list(obs.market),
            farm=list(obs.farm),
            reserved=dict(obs.reserved),
            hands=hands,
            hand_value=[sum(self.value[c] for c in h) for h in hands],
            goods=[list(g) for g in obs.merchandise],
            insured=set(obs.insured),
            vp=vp,
            vp_cards=vp_cards,
            tokens=[list(t) for t in obs.tokens],
            supply=[max(0, per - k) for k in taken],
            substitutes=[max(0, k - per) for k in taken],
            ships=list(obs.ships),
            phase=phase,
            setup_pos=sum(1 for t in obs.tokens if any(t)) if phase == TOKENS else n,
            active=obs.active,
            due=obs.cost if phase in (PAY, ACTION) else 0,  # the cost of buying, set when a turn begins
            paid=obs.paid,
            edo=edo,
            paying=paying,
            sinking=list(obs.sinking),
            insure_queue=insure_queue,
            bought=[0] * n,
            purchases=[0] * n,
            sunk=[0] * n,
            insured_count=[0] * n,
            payments=[max(0, sum(t) - 1) for t in obs.tokens],
            vp_unbacked=unbacked,
        )
        return s

    def describe(self, s: State, a) -> str:
        """One log line for ``sim replay``."""
        name = self._card_name
        match a:
            case Draw(card):
                dest = s.to_draw[0]
                where = {TO_MARKET: "Market", TO_FARM: "Farm"}.get(dest)
                if where is None:
                    where = (f"the VP pile of seat {dest - TO_VP}" if dest >= TO_VP
                             else f"the starting hand of the player drawing {dest + 1}. (seats are set once the start player is known)")
                return f"chance: draw {name(card)} to {where}"
            case StartPlayer(position):
                return f"chance: draw position {position} starts (tie)"
            case ChooseToken(colour):
                return f"seat {s.setup_pos}: takes a {self.colours[colour]} achievement token"
            case BuyGoods():
                goods = [name(c) for c in s.market if s.reserved.get(c, s.active) == s.active]
                return f"seat {s.active}: buys goods {', '.join(goods)} for {self.buy_cost(s, s.active)} coins"
            case PayCard(card):
                return f"seat {s.active}: pays with {name(card)}"
            case TakeCoins(card):
                return f"seat {s.active}: takes coins {name(card)}"
            case Reserve(card):
                zone = "Market" if card in s.market else "Farm"
                return f"seat {s.active}: reserves {name(card)} in the {zone}"
            case ChoosePayment(colour):
                waiting = ", ".join(self.colours[c] for c in s.edo)
                return f"seat {s.active}: orders the {self.colours[colour]} payment next (ships at Edo: {waiting})"
            case Insure(card):
                seat, colour = s.insure_queue[0], self.colour[card]
                exposed = sum(1 for g in s.goods[seat] if self.colour[g] == colour and g not in s.insured)
                sinking = ", ".join(self.colours[c] for c in s.sinking)
                return (f"seat {seat}: insures {min(self.icons[card], exposed)} {self.colours[colour]}"
                        f" good(s) with {name(card)} (sinking: {sinking})")
            case EndInsurance():
                return f"seat {s.insure_queue[0]}: insures nothing more"
            case Pass():
                return f"seat {s.active}: passes (no legal action)"
        return repr(a)

    def narrate(self, before: State, after: State) -> list[str]:
        """Log lines for what happened automatically between two states (for ``sim replay``):
        ships moving, payments (VP and tokens), sinkings, insured goods, the next turn, the end."""
        out = []
        track = [sp.name for sp in self.data.track.spaces]
        if before.phase in (0, START_TIE) and after.phase == TOKENS:
            out.append("  start player decided; seats count from it (hands: "
                       + ", ".join(f"seat {i} {after.hand_value[i]} coins" for i in range(after.n)) + ")")
        paid = after.paid_log[len(before.paid_log):]
        sunk = after.sunk_log[len(before.sunk_log):]
        for c, (a, b) in enumerate(zip(before.ships, after.ships, strict=True)):
            name = self.colours[c]
            if c in paid:  # a ship already waiting at Edo (payment order, insurance) did not move
                moved = "" if a == self.edo else f"{track[a]} -> Edo, "
                back = f", back to {track[b]}" if b != self.edo else ", waits at Edo while ships sink"
                out.append(f"  {name} ship: {moved}payment for {name} goods{back}")
            elif c in sunk:
                out.append(f"  {name} ship: sunk by the Black Tide, back to {track[b]}")
            elif a != b:
                waits = " (payment order to choose)" if b == self.edo and c in after.edo else ""
                out.append(f"  {name} ship: {track[a]} -> {track[b]}{waits}")
        for seat in range(after.n):
            gained = after.vp[seat] - before.vp[seat]
            tokens = [self.colours[c] for c in range(len(self.colours)) if after.tokens[seat][c] > before.tokens[seat][c]]
            if gained or (tokens and after.phase not in (TOKENS,) and before.phase != TOKENS):
                out.append(f"  payment: seat {seat} scores {gained} VP (now {after.vp[seat]})"
                           + (f" and takes a {'/'.join(tokens)} achievement token" if tokens else ""))
            if after.sunk[seat] > before.sunk[seat]:
                out.append(f"  seat {seat} loses {after.sunk[seat] - before.sunk[seat]} uninsured good(s) to the waves")
            if after.insured_count[seat] > before.insured_count[seat]:
                out.append(f"  seat {seat} insures {after.insured_count[seat] - before.insured_count[seat]} good(s)")
        if after.reshuffles > before.reshuffles:
            out.append("  the discard pile is shuffled into a new draw pile")
        if after.phase == END and before.phase != END:
            if after.stalled:
                out.append("game over (stalled): a whole round of passes, nobody can act; no winner (RULINGS §2)")
            else:
                best = max(range(after.n), key=lambda i: sum(after.tokens[i]))
                won = ", ".join(f"seat {i}" for i in sorted(self.winners(after)))
                out.append(f"game over (finished): seat {best} has {sum(after.tokens[best])} achievement tokens;"
                           f" winner(s): {won}")
        return out

    # ------------------------------------------------------------------ helpers
    def _card_name(self, c: int) -> str:
        return f"{self.colours[self.colour[c]]} {self.value[c]}"

    def buy_cost(self, s: State, seat: int) -> int:
        """Coins needed to buy now: unreserved Market cards plus ``seat``'s own reservation."""
        return sum(map(self.value.__getitem__, self._takeable(s, seat)))

    @staticmethod
    def _takeable(s: State, me: int) -> list[int]:
        """Market cards ``me`` may buy or take (unreserved or its own reservation), in Market
        order; the Market list itself when no other seat's piece blocks a card (do not mutate)."""
        res = s.reserved
        if not res:
            return s.market
        market = s.market
        blocked = [c for c, seat in res.items() if seat != me and c in market]  # at most 3: one piece per seat
        if not blocked:
            return market
        return [c for c in market if c not in blocked]

    def _distinct(self, cards: list[int]) -> list[int]:
        """First card of each (colour, value) kind: identical cards are one choice."""
        seen, out, bit = 0, [], self._kind_bit  # the kinds met so far, as bits of an int
        for c in cards:
            b = bit[c]
            if not seen & b:
                seen |= b
                out.append(c)
        return out

    def _turn_actions(self, s: State, me: int, due: int) -> tuple:
        """BUY (when ``due`` coins are in hand), one TakeCoins per kind of takeable Market card (your
        reserved card is its own kind), then, while you hold your piece, one Reserve per kind of
        unreserved Market card and per kind of unreserved Farm card; PASS when nothing is legal."""
        return _scan(self, s, me, due)[1]

    def _insurance_cards(self, s: State, seat: int) -> list[int]:
        """Distinct hand cards with icons whose colour has uninsured merchandise of ``seat`` on a sinking ship."""
        goods = s.goods[seat]
        if not goods:
            return []
        held, ins, bit = 0, s.insured, self._colour_bit  # colours of uninsured goods, as bits of an int
        for g in goods:
            if g not in ins:
                held |= bit[g]
        exposed = [x for x in s.sinking if held >> x & 1]
        if not exposed:
            return []
        icons = self._icon_cards  # per colour: the card ids with insurance icons
        usable = icons[exposed[0]] if len(exposed) == 1 else frozenset().union(*[icons[x] for x in exposed])
        return self._distinct([*filter(usable.__contains__, s.hands[seat])])

    def _drop_draws(self, s: State, keep: int, first: bool = False) -> None:
        """Drop queued draws (all but the first ``keep``, or the first one when ``first``); VP
        draws dropped are still scored (RULINGS §2) and counted in ``vp_unbacked``."""
        lo, hi = (0, 1) if first else (keep, len(s.to_draw))
        dropped = s.to_draw[lo:hi]
        del s.to_draw[lo:hi]
        if not s.vp_unbacked:
            s.vp_unbacked = [0] * s.n
        for dest in dropped:
            if dest >= TO_VP:
                s.vp_unbacked[dest - TO_VP] += 1

    def _place_draw(self, s: State, card: int) -> None:
        s.draw.remove(card)
        self._deliver(s, card, s.to_draw.pop(0))

    def _deliver(self, s: State, card: int, dest: int) -> None:
        """Put a drawn ``card`` where ``dest`` says: the Market, the Farm, a VP pile or a hand."""
        if dest == TO_MARKET:
            s.market.append(card)
        elif dest == TO_FARM:
            s.farm.append(card)
        elif dest >= TO_VP:
            s.vp_cards[dest - TO_VP].append(card)
        else:
            s.hands[dest].append(card)
            s.hand_value[dest] += self.value[card]

    def _start_candidates(self, s: State) -> list[int]:
        """Draw positions that may start (option ``start_player``, RULINGS §2): ``lowest_hand``
        ('Preparation' 7: lowest hand value, then fewest cards), ``most_coins`` (the Traders of
        Carthage edition: highest hand value) or ``random`` (everyone). Chance picks among several."""
        rule = self.options.start_player
        if rule == "random":
            return list(range(s.n))
        if rule == "most_coins":
            top = max(s.hand_value)
            return [i for i, v in enumerate(s.hand_value) if v == top]
        keys = [(v, len(h)) for v, h in zip(s.hand_value, s.hands, strict=True)]
        low = min(keys)
        return [i for i, k in enumerate(keys) if k == low]

    def _set_start(self, s: State, start: int) -> None:
        """'Preparation' 7: rotate so the start player is seat 0 (clockwise order kept)."""
        s.hands = s.hands[start:] + s.hands[:start]
        s.hand_value = s.hand_value[start:] + s.hand_value[:start]
        s.tied = []
        s.phase, s.setup_pos = TOKENS, 0

    def _gain_token(self, s: State, seat: int, colour: int) -> None:
        s.tokens[seat][colour] += 1
        if s.supply[colour]:
            s.supply[colour] -= 1
        else:  # 'Acquire Achievement Tokens': use some other substitute
            s.substitutes[colour] += 1

    def _refresh(self, s: State) -> None:
        """'Refresh the Market and the Farm': Farm to Market, then draw 2 to Market and 3 to Farm."""
        s.market.extend(s.farm)
        s.farm = []
        s.to_draw += self._refresh_draws

    def _complete_purchase(self, s: State, me: int) -> None:
        res, col, market = s.reserved, self.colour, s.market
        if res:
            bought = [c for c in market if res.get(c, me) == me]
            s.market = [c for c in market if res.get(c, me) != me] if len(bought) < len(market) else []
            for c, seat in res.items():
                if seat == me:
                    if c in bought:
                        del res[c]  # 'Reserve Cards': buying your reserved good returns the piece
                    break
        else:
            bought, s.market = market, []
        s.goods[me] += bought
        s.bought[me] += len(bought)
        s.purchases[me] += 1
        counts = [0] * len(self.colours)
        for c in bought:
            counts[col[c]] += 1
        ships, edo = s.ships, self.edo
        for colour, k in enumerate(counts):
            if k:  # 'Advancing Ships': 1 step for one good, 2 for two or more
                pos = ships[colour] + (1 if k == 1 else 2)
                if pos >= edo:
                    pos = edo
                    s.edo.append(colour)
                ships[colour] = pos
        s.phase = PAYMENTS

    def _pay_ship(self, s: State, colour: int) -> None:
        """'Payment' steps 1-2 for ``colour``, the end check, then step 3 (insurance, sinking) or 4."""
        s.edo.remove(colour)
        s.n_payments += 1
        s.paid_log.append(colour)
        val, per, ins = self.value, self.options.vp_per, s.insured
        of_colour = self._of_colour[colour].__contains__
        scored = []
        for seat, goods in enumerate(s.goods):
            sold = [*filter(of_colour, goods)]
            if not sold:
                continue
            s.goods[seat] = [*filterfalse(of_colour, goods)] if len(sold) < len(goods) else []
            sold.sort(key=val.__getitem__)  # VP cards are the lowest values of the set
            price = val[sold[-1]] + s.tokens[seat][colour]  # the highest value of the set
            vp = -(-price * len(sold) // per)  # rounded up to a multiple of 5, 1 VP per 5
            s.vp_cards[seat] += sold[:vp]
            s.discard += sold[vp:]
            if ins:
                ins.difference_update(sold)
            s.vp[seat] += vp
            if vp > len(sold):  # shortfall from the draw pile
                s.to_draw += [TO_VP + seat] * (vp - len(sold))
            s.payments[seat] += 1
            scored.append(seat)
        # draws beyond the cards left would be skipped: never queue them (a huge set value would
        # otherwise queue millions of VP draws)
        if len(s.to_draw) > len(s.draw) + len(s.discard):
            self._drop_draws(s, len(s.draw) + len(s.discard))
        tokens, supply = s.tokens, s.supply
        for seat in scored:  # _gain_token, in line
            tokens[seat][colour] += 1
            if supply[colour]:
                supply[colour] -= 1
            else:  # 'Acquire Achievement Tokens': use some other substitute
                s.substitutes[colour] += 1
        if max(map(sum, tokens)) >= self.options.end_tokens:
            s.phase = END  # 'The End of the Game': immediately after step 2
            self._drop_draws(s, 0)
            return
        s.paying = colour
        s.sinking = [*compress(range(len(s.ships)), map(self._on_waves.__getitem__, s.ships))]
        if s.sinking:
            s.n_sinkings += len(s.sinking)
            s.insure_queue = [*range(s.active, s.n), *range(s.active)]  # clockwise from the active player
            s.phase = INSURE
        else:
            s.ships[colour] = 0
            s.phase = PAYMENTS

    def _insure_with(self, s: State, seat: int, card: int) -> None:
        """'Insurance': discard ``card``; insure up to its icons of that colour, highest values first."""
        s.hands[seat].remove(card)
        s.hand_value[seat] -= self.value[card]
        s.discard.append(card)
        colour = self.colour[card]
        exposed = [g for g in s.goods[seat] if self.colour[g] == colour and g not in s.insured]
        exposed.sort(key=self.value.__getitem__, reverse=True)
        chosen = exposed[: self.icons[card]]
        s.insured.update(chosen)
        s.insured_count[seat] += len(chosen)

    def _sink(self, s: State) -> None:
        """'Sunk by the Black Tide' and 'Return the Ships'."""
        col, ins, sinking = self.colour, s.insured, s.sinking
        for seat, goods in enumerate(s.goods):
            if not goods:
                continue
            keep = [g for g in goods if col[g] not in sinking or g in ins]
            lost = len(goods) - len(keep)
            if lost:
                s.discard.extend(g for g in goods if col[g] in sinking and g not in ins)
                s.goods[seat] = keep
                s.sunk[seat] += lost
        for c in s.sinking:
            s.ships[c] = self.anchor
            s.sunk_log.append(c)
        s.ships[s.paying] = 0
        s.sinking = []
        s.paying = -1
        s.phase = PAYMENTS

    def _advance(self, s: State) -> None:
        """Run automatic steps until a decision, a chance node or the end."""
        while True:
            if s.to_draw:
                if s.draw:
                    return
                if s.discard:  # 'If the draw pile is exhausted, shuffle the discard pile'
                    s.draw, s.discard = s.discard, []
                    s.reshuffles += 1
                    return
                self._drop_draws(s, 0, first=True)  # nothing left to draw: skipped (VP still count)
                continue
            ph = s.phase  # the phases exclude each other: tested in order of frequency
            if ph == PAY:  # paying card by card: the next card is a decision
                return
            if ph == TURN_END:  # falls through to TURN_START: nothing is drawn in between
                s.turns += 1
                s.active = (s.active + 1) % s.n
                s.phase = ph = TURN_START
            if ph == TURN_START:
                me = s.active
                if s.passes >= s.n:  # a whole round of passes: nothing can ever change (ruling)
                    s.phase, s.stalled = END, True
                    return
                due, legal, takeable = _scan(self, s, me, None)
                if not takeable and not s.refreshed:  # the Market is empty or only others' reservations
                    self._refresh(s)  # 'Refresh the Market and the Farm'
                    s.refreshed = True
                    continue
                s.refreshed = False
                s.phase = ACTION
                s.due = due
                s.legal = legal  # this decision's legal actions, built in the same pass (issue 20 item 4)
                return
            if ph == PAYMENTS:
                if len(s.edo) > 1:
                    s.phase = ORDER
                    return
                if s.edo:
                    self._pay_ship(s, s.edo[0])
                    continue
                self._refresh(s)
                s.phase = TURN_END
                continue
            if ph == INSURE:  # seats with nothing to insure are skipped; the next one's list is kept
                queue = s.insure_queue
                while queue:
                    cards = self._insurance_cards(s, queue[0])
                    if cards:
                        s.insuring = (*map(self._insure.__getitem__, cards), END_INSURANCE)
                        return
                    queue.pop(0)
                self._sink(s)
                continue
            if ph == SETUP:
                pos = s.setup_pos
                if s.hand_value[pos] < self.options.hand_threshold:
                    s.to_draw.append(pos)
                    continue
                if pos + 1 < s.n:
                    s.setup_pos += 1
                    continue
                s.tied = self._start_candidates(s)
                if len(s.tied) == 1:
                    self._set_start(s, s.tied[0])
                else:
                    s.phase = START_TIE
                return
            return


def _scan(eng: TradersOfOsaka, s: State, me: int, due: int | None) -> tuple[int, tuple, bool]:
    """One pass over the Market and the Farm at ``me``'s turn: ``(cost of Buy Goods, legal actions,
    whether a Market card is takeable)``, the legal actions as in ``_turn_actions`` (BUY tested
    against ``due``, or against that cost when ``due`` is None). The cost is every Market card but
    those under another seat's piece ('A. Buy Goods', 'C. Reserve Cards'). A module function, so
    that ``engine.pxd`` gives its loops C types when compiled (docs/speed.md, round twelve)."""
    res, market, (take, reserve, value, bit) = s.reserved, s.market, eng._scan_tables
    seen, takes, out, cost = 0, [], [], 0  # seen: the kinds met so far, as bits of an int; cost summed in the pass
    placed = False  # whether my piece is on a card
    for r in res.values():
        if r == me:
            placed = True
            break
    get = res.get
    for c in market:  # identical cards are one choice; my reserved card is its own
        r = get(c)
        if r is not None:  # a piece: mine is bought and taken, another seat's blocks the card
            if r == me:
                cost += value[c]
                takes.append(take[c])
            continue
        cost += value[c]
        b = bit[c]
        if not seen & b:
            seen |= b
            takes.append(take[c])
            if not placed:  # my piece at hand: the Market's Take and Reserve choices are the same cards
                out.append(reserve[c])
    if not placed:  # the Farm's kinds are Reserve choices of their own (no Reserve once my piece is placed)
        seen = 0
        for c in s.farm:
            if c not in res:
                b = bit[c]
                if not seen & b:
                    seen |= b
                    out.append(reserve[c])
    if due is None:
        due = cost
    if not takes:
        return cost, (*out,) or (PASS,), False
    if s.hand_value[me] >= due:
        return cost, (BUY, *takes, *out), True
    return cost, (*takes, *out), True


def _kinds(hand: list[int], bit: tuple[int, ...], pay: tuple) -> tuple:
    """One ``pay[c]`` per (colour, value) kind of ``hand``, first card of each (kinds as bits of
    an int): the legal actions while paying; a module function for ``engine.pxd``'s C types."""
    seen, out = 0, []
    for c in hand:
        b = bit[c]
        if not seen & b:  # a kind not seen yet
            seen |= b
            out.append(pay[c])
    return tuple(out)


def _draw_row(eng: TradersOfOsaka, s: State, rand, draw: list[int], to_draw: list[int], m: int) -> None:
    """``chance_run``'s row of ``m`` draws: the first ``m`` destinations of ``to_draw`` (then dropped
    from it) each get a card drawn from ``draw`` with one ``rand()``; a module function for
    ``engine.pxd``'s C types."""
    market, farm = s.market, s.farm
    for dest in to_draw[:m]:
        x = rand()
        card = draw.pop(int(x * len(draw)))
        if dest == TO_MARKET:  # _deliver's two commonest cases, in line
            market.append(card)
        elif dest == TO_FARM:
            farm.append(card)
        else:
            eng._deliver(s, card, dest)
    del to_draw[:m]


GAME = TradersOfOsaka
