"""Forwarder of Xanadu: the forward model (rulebook seeds/000, RULINGS §6).

Flow: setup chance (layout, Market) -> company choices -> exclusive orders and skill cards
(chance; Custom style: a draft) -> 6 rounds. A turn: optional proxy workers / re-surveys /
disposable skills, ``PlaceWorker``, one ``PlaceResource`` per gained resource, then the action's
steps (``Move``, ``Improve``, ``FulfilOrder``/``FulfilDaily``, ``UseSkill``) until the count
runs out or ``EndAction``; then the reset check, Market and Exclusive refills. End of round:
growth (``Unlock`` with office, skill and exclusive-swap follow-ups), workers, dailies,
replenishment (``PlaceResource`` when an office could take some), interim scoring after round
3, round marker and start player. Final scoring after round 6.

Every draw is a chance node over the pile's contents (uniform), so piles have no hidden order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields

from sim.api import CHANCE, TERMINAL, EngineBase, GameInfo, OptionError, bound_option

from .actions import (
    ACTION_NAMES,
    END_ACTION,
    FULFIL,
    GRADES,
    IMPROVE,
    KEEP_EXCLUSIVE,
    POSTPONE_OFFICE,
    QUALITY,
    SKILL,
    SKIP_SKILL,
    SWAP_EXCLUSIVE,
    TRACKS,
    TRANSPORT,
    TRANSPORT_TRACK,
    WAREHOUSE,
    WORKERS,
    ChooseCompany,
    ChooseStart,
    DealCompany,
    DealSkill,
    DraftPick,
    DrawOrder,
    EndAction,
    FulfilDaily,
    FulfilOrder,
    Improve,
    KeepExclusive,
    LayArea,
    Move,
    PlaceOffice,
    PlaceProxy,
    PlaceResource,
    PlaceWorker,
    PlaySkill,
    PostponeOffice,
    RefillExclusive,
    Resurvey,
    SkipSkill,
    SwapExclusive,
    Unlock,
    UseDisposable,
    UseSkill,
)
from .observation import Observation, ObservationFields, OrderCard, SkillCard, Tables
from .rules import ForwarderData, Options, load_data

# phases
(SETUP, COMPANY, DEAL_SETUP, DEALT, DRAFT, PRE, GAIN, ACT, TURN_REFILL, REFILL, NEXT_TURN, GROW, OFFICE,
 SKILLPLAY, SWAP, REPLENISH, START, END) = range(18)
_ACTIVE_MOVES = frozenset({PRE, GAIN, ACT, REFILL})  # the active player decides
_AUTOMATIC = frozenset({SETUP, DEAL_SETUP, DEALT, TURN_REFILL, NEXT_TURN, GROW})  # phases _advance runs through
PROMPTS = {COMPANY: "company", DRAFT: "draft", PRE: "turn", GAIN: "gain", ACT: "action", REFILL: "refill",
           GROW: "grow", OFFICE: "office", SKILLPLAY: "skill", SWAP: "swap", REPLENISH: "replenish", START: "start"}
# chance queue entries: kind * 1000 + grade * 100 + seat
K_LAYOUT, K_MARKET, K_EXCL, K_TEMP, K_SKILL, K_DRAFT, K_COMPANY = 1, 2, 3, 4, 5, 6, 7
NLOC = 10  # port + 9 positions
# VP sources and per-seat statistics
VP_SOURCES = ("orders", "dailies", "interim_majority", "final_majority", "company_skill", "proxy_workers", "skills")
V_ORD, V_DAY, V_INT, V_FIN, V_COMP, V_PROXY, V_SKILL = range(7)
STATS = ("orders_lower", "orders_upper", "orders_exclusive", "dailies", "proxies_on_spaces", "resurveys",
         "disposables_used", "skills_played", "transports", "improvements", "skill_uses")
(ST_LOW, ST_UP, ST_EXCL, ST_DAY, ST_PROXY, ST_RESURVEY, ST_DISP, ST_PLAYED, ST_MOVE, ST_IMPROVE,
 ST_SKILLUSE) = range(11)


@dataclass
class State:
    """Plain, picklable game state. Seats count from the first start player, clockwise."""

    n: int
    phase: int = SETUP
    round: int = 1
    start: int = 0
    active: int = 0
    to_draw: list[int] = field(default_factory=list)
    area_at: list[int] = field(default_factory=list)
    layout_pool: list[int] = field(default_factory=list)
    piles: list[list[int]] = field(default_factory=list)  # hidden: lower, upper
    market: list[int] = field(default_factory=list)
    excl: list[int] = field(default_factory=list)
    temp: list[int] = field(default_factory=list)
    discards: list[list[int]] = field(default_factory=list)
    company: list[int] = field(default_factory=list)
    wh: list[list[int]] = field(default_factory=list)
    stock_sup: int = 0
    stock_spe: int = 0
    workers: list[int] = field(default_factory=list)
    proxies: list[int] = field(default_factory=list)
    levels: list[list[int]] = field(default_factory=list)
    office: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)  # hidden (but own)
    draft_hands: list[list[int]] = field(default_factory=list)  # hidden (but own)
    skill_pool: list[int] = field(default_factory=list)  # hidden
    played: list[list[int]] = field(default_factory=list)
    skill_discard: list[int] = field(default_factory=list)
    dailies: list[list[int]] = field(default_factory=list)
    gauges: list[list[int]] = field(default_factory=list)
    tokens_left: list[int] = field(default_factory=list)
    spaces: list[int] = field(default_factory=lambda: [0, 0, 0])
    vp: list[int] = field(default_factory=list)
    vp_src: list[list[int]] = field(default_factory=list)
    act_kind: int = -1
    act_left: int = 0
    gain_left: int = 0
    had: list[int] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)
    setup_pos: int = 0
    draft_pos: int = 0
    grow_queue: list[int] = field(default_factory=list)
    unlocks_left: int = 0
    repl_queue: list[int] = field(default_factory=list)
    repl_left: int = 0
    start_choices: list[int] = field(default_factory=list)
    stats: list[list[int]] = field(default_factory=list)
    growth_path: list[list[int]] = field(default_factory=list)
    turns: int = 0
    resets: int = 0
    reshuffles: int = 0
    proxy_kind: int = -1  # action the proxy workers of this turn went on (-1: none yet)
    proxy_got: list[int] = field(default_factory=list)  # proxy workers gained from disposable skills
    proxy_used: list[int] = field(default_factory=list)  # proxy workers returned to the Stock


HIDDEN = ("n", "piles", "hands", "draft_hands", "skill_pool")
PUBLIC = tuple(f.name for f in fields(State) if f.name not in HIDDEN)
NESTED = frozenset({"discards", "wh", "levels", "played", "dailies", "gauges", "vp_src", "stats", "growth_path"})
_SCALAR = frozenset(f.name for f in fields(State) if f.type in ("int", int))
# (name, depth) of every public field: 0 scalar, 1 list, 2 list of lists
PUBLIC_DEPTH = tuple((f, 0 if f in _SCALAR else 2 if f in NESTED else 1) for f in PUBLIC)
# the Observation holds them scalars first, then lists, then nested lists (fast to build)
_OBS_PUBLIC = [f.name for f in fields(ObservationFields)][4:4 + len(PUBLIC)]
_DEPTH = dict(PUBLIC_DEPTH)
assert sorted(_OBS_PUBLIC) == sorted(PUBLIC) and [_DEPTH[f] for f in _OBS_PUBLIC] == sorted(_DEPTH[f] for f in _OBS_PUBLIC)


def payments(req: tuple[int, int, int], s: int, u: int, p: int) -> tuple[tuple[int, int, int], ...]:
    """Every way to pay ``req`` (standard, superior, special) from ``s``/``u``/``p`` available
    resources, a higher grade standing in for a lower ('About Resources')."""
    rs, ru, rp = req
    total = rs + ru + rp
    out = []
    for pp in range(rp, min(p, total) + 1):
        for pu in range(max(0, ru + rp - pp), min(u, total - pp) + 1):
            ps = total - pp - pu
            if ps <= rs and ps <= s:
                out.append((ps, pu, pp))
    return tuple(out)


class ForwarderOfXanadu(EngineBase):
    """Forwarder of Xanadu for 3-5 players (2 with ``allow_two_players``, RULINGS §6).
    ``ForwarderOfXanadu(n, Options(), load_data())``.

    Raises ``ValueError`` for a player count outside 2-5 and ``OptionError('allow_two_players')``
    for 2 players without that option (after the card-count checks, ``OptionError`` too).
    """

    lazy_observations = True  # observe() hands out LazyObservation views (issue 20 item 3)
    info = GameInfo("forwarder_of_xanadu", "2", 2, 5, "Forwarder of Xanadu", "seeds/000_9ef0bc5814b384a6.txt")
    Options = Options
    load_data = staticmethod(load_data)

    def __init__(self, num_players: int, options: Options | None = None, data: ForwarderData | None = None):
        self.check_players(num_players)
        self.num_players = num_players
        self.options = o = options or Options()
        self.data = d = data or load_data()
        od = d.orders
        self.order_types = tuple(od.types)
        orders = [(0, c) for c in od.lower] + [(1, c) for c in od.upper]
        self.orders = tuple(OrderCard(i, g, od.types.index(c.type), tuple(c.cost), c.vp) for i, (g, c) in enumerate(orders))
        self.grade_of = tuple(c.grade for c in self.orders)
        self.daily = tuple((tuple(x.cost), x.vp) for x in od.daily)
        self.skills = tuple(SkillCard(i, c.name, c.colour, c.effect, c.amount, c.proxies, c.disposable)
                            for i, c in enumerate(d.skills.cards))
        cd = d.companies
        self.companies = tuple(c.name for c in cd.companies)
        self.company_colours = tuple(c.colour for c in cd.companies)
        self.final = tuple((c.final.effect, c.final.amount, c.final.per, c.final.min_mark) for c in cd.companies)
        m = d.map
        self.area_names = tuple(a.name for a in m.areas)
        self.area_icons = tuple(tuple(od.types.index(i) for i in a.icons) for a in m.areas)
        self.gauge_size = tuple(a.gauge for a in m.areas)
        self.marks = (0,) + tuple(p.mark for p in m.positions)
        adj: list[list[int]] = [[] for _ in range(NLOC)]
        for a, b in m.adjacent:
            adj[a].append(b)
            adj[b].append(a)
        self.adj = tuple(tuple(sorted(x)) for x in adj)
        dist = []
        for src in range(NLOC):
            dd = [-1] * NLOC
            dd[src], frontier = 0, [src]
            while frontier:
                nxt = []
                for x in frontier:
                    for y in self.adj[x]:
                        if dd[y] < 0:
                            dd[y] = dd[x] + 1
                            nxt.append(y)
                frontier = nxt
            dist.append(tuple(dd))
        self.dist = tuple(dist)
        t = cd.tracks
        self.wh_cap = tuple(lv.capacity for lv in t.warehouse)
        self.repl = tuple(lv.replenish for lv in t.warehouse)
        self.t_cap = tuple(lv.capacity for lv in t.transport)
        self.q_bonus = tuple(lv.bonus for lv in t.quality)
        self.track_len = (len(t.warehouse) - 1, len(t.transport) - 1, len(t.quality) - 1, 1, t.skill_spaces)
        self.workers_per_round = tuple(t.workers)
        self.tables = Tables(
            self.order_types, self.orders, self.daily, self.skills, self.companies, self.company_colours, self.final,
            self.area_names, self.area_icons, self.gauge_size, self.marks, self.adj, self.dist, self.wh_cap, self.repl,
            self.t_cap, self.q_bonus, self.workers_per_round, t.skill_spaces, tuple(o.space_resources),
            o.upper_exclusive_quality,
        )
        self.n_lower = len(od.lower)
        self._check_counts(num_players)
        if num_players < 3 and not o.allow_two_players:
            raise OptionError("allow_two_players", "Forwarder of Xanadu is published for 3-5 players (RULINGS §6); "
                              "set allow_two_players: true (in options:, or --option allow_two_players=true) "
                              "to play with 2", also="players")
        # action objects are immutable: build each once
        n_orders, n_skills = len(self.orders), len(self.skills)
        self._lay = tuple(LayArea(a) for a in range(len(m.areas)))
        self._draw = tuple(DrawOrder(c) for c in range(n_orders))
        self._deal = tuple(DealSkill(c) for c in range(n_skills))
        self._company = tuple(ChooseCompany(c) for c in range(len(self.companies)))
        self._deal_company = tuple(DealCompany(c) for c in range(len(self.companies)))
        self._pick = tuple(DraftPick(c) for c in range(n_skills))
        self._proxy = tuple(PlaceProxy(a) for a in range(3))
        self._worker = tuple(PlaceWorker(a) for a in range(3))
        self._resurvey = (Resurvey(0), Resurvey(1))
        self._disp = tuple(UseDisposable(c) for c in range(n_skills))
        self._use = tuple(UseSkill(c) for c in range(n_skills))
        self._play = tuple(PlaySkill(c) for c in range(n_skills))
        self._place = tuple(PlaceResource(x) for x in range(NLOC))
        self._office = tuple(PlaceOffice(x) for x in range(NLOC))
        self._improve = tuple(tuple(Improve(x, g) for g in range(2)) for x in range(NLOC))
        self._unlock = tuple(Unlock(t) for t in range(len(TRACKS)))
        self._refill = (RefillExclusive(0), RefillExclusive(1))
        self._start = tuple(ChooseStart(i) for i in range(num_players))
        self._moves: dict[tuple, Move] = {}
        self._move_blocks: dict[tuple, tuple[Move, ...]] = {}  # (src, dst, a, b, c, free) -> its moves
        self._orders_cache: dict[tuple, FulfilOrder] = {}
        self._daily_cache: dict[tuple, FulfilDaily] = {}
        self._pay_cache: dict[tuple, tuple] = {}
        self._order_blocks: dict[tuple, tuple[FulfilOrder, ...]] = {}  # (card, loc, std, sup, spe) -> its fulfilments
        self._need = tuple(sum(c.cost) for c in self.orders)  # goods an order takes
        self._type_of = tuple(c.type for c in self.orders)
        self._layout_key: tuple[int, ...] | None = None
        self._layout_locs: tuple[tuple[int, ...], ...] = ()
        # skill effects by card
        self._effect = tuple(c.effect for c in self.skills)
        self._colour = tuple(c.colour for c in self.skills)
        self._amount = tuple(c.amount for c in self.skills)
        self._extra_kind = {"extra_transport": TRANSPORT, "extra_improve": IMPROVE, "extra_fulfil": FULFIL}
        self._extra_of = tuple(self._extra_kind.get(e, -1) for e in self._effect)  # per card: action kind it extends
        self._disp_cache: dict[tuple[int, ...], tuple[UseDisposable, ...]] = {}
        self._disp_of = tuple(self._disp[c] if self.skills[c].disposable else None for c in range(n_skills))

    def notes(self) -> tuple[str, ...]:
        """Plain-sentence warnings for the run's report: the player count outside the published
        range of 3-5 (RULINGS §6). Empty when there is nothing to say."""
        if self.num_players < 3:
            return (f"{self.num_players} players is outside the published range of 3–5 (option allow_two_players).",)
        return ()

    # ------------------------------------------------------------------ helpers
    def bonus(self, s: State, seat: int, effect: str) -> int:
        """Sum of the amounts of ``seat``'s played skills with ``effect``."""
        played = s.played[seat]
        if not played:  # the common case: no skill played yet
            return 0
        eff, amt = self._effect, self._amount
        return sum(amt[c] for c in played if eff[c] == effect)

    def capacity(self, s: State, seat: int) -> int:
        """Warehouse maximum of every area but the port ('About the Warehouse')."""
        return self.wh_cap[s.levels[seat][WAREHOUSE]] + self.bonus(s, seat, "warehouse_capacity")

    def carry(self, s: State, seat: int) -> int:
        """Resources per transport ('Transport Enhancement')."""
        return self.t_cap[s.levels[seat][TRANSPORT_TRACK]] + self.bonus(s, seat, "transport_capacity")

    def _pays(self, req, s, u, p):
        key = (req, s, u, p)
        r = self._pay_cache.get(key)
        if r is None:
            r = self._pay_cache[key] = payments(req, s, u, p)
        return r

    # ------------------------------------------------------------------ protocol
    def new_initial_state(self) -> State:
        n, o = self.num_players, self.options
        s = State(n=n)
        s.layout_pool = list(range(len(self.area_names)))
        s.piles = [list(range(self.n_lower)), list(range(self.n_lower, len(self.orders)))]
        s.discards = [[], []]
        s.excl = [-1] * n
        s.company = [-1] * n
        s.wh = [[0] * (NLOC * 3) for _ in range(n)]
        for seat in range(n):
            s.wh[seat][0] = o.start_resources
        s.stock_sup, s.stock_spe = o.stock_superior, o.stock_special
        s.workers = [0] * n
        s.proxies = [0] * n
        s.levels = [[0] * len(TRACKS) for _ in range(n)]
        s.office = [-1] * n
        s.hands = [[] for _ in range(n)]
        s.draft_hands = [[] for _ in range(n)]
        s.played = [[] for _ in range(n)]
        s.dailies = [[1] * len(self.daily) for _ in range(n)]
        s.gauges = [[] for _ in range(NLOC)]
        s.tokens_left = [o.share_tokens] * n
        s.vp = [0] * n
        s.vp_src = [[0] * len(VP_SOURCES) for _ in range(n)]
        s.stats = [[0] * len(STATS) for _ in range(n)]
        s.growth_path = [[] for _ in range(n)]
        s.proxy_got, s.proxy_used = [0] * n, [0] * n
        s.to_draw = ([K_LAYOUT * 1000] * len(self.area_names) + [K_MARKET * 1000] * o.market_lower
                     + [K_MARKET * 1000 + 100] * o.market_upper)
        self._advance(s)
        return s

    def current_player(self, s: State) -> int:
        if s.to_draw:
            return CHANCE
        ph = s.phase
        if ph in _ACTIVE_MOVES:  # the common case first
            return s.active
        if ph == END:
            return TERMINAL
        if ph == COMPANY:
            return s.setup_pos
        if ph == DRAFT:
            return s.draft_pos
        if ph in (GROW, OFFICE, SKILLPLAY, SWAP):
            return s.grow_queue[0]
        if ph == REPLENISH:
            return s.repl_queue[0]
        if ph == START:
            return s.start
        return s.active

    def _check_counts(self, n: int) -> None:
        """Card counts the decks can supply with ``n`` players (``OptionError`` naming the option)."""
        o, od = self.options, self.data.orders
        skills = len(self.skills)
        per_company = min(sum(c.colour == col for c in self.skills) for col in self.company_colours)
        if o.style == "standard":
            bound_option("company_cards", o.company_cards, per_company, "(skill cards of a company's colour)")
            spare = skills - per_company * n
            bound_option("dealt_cards", o.dealt_cards, spare // n,
                         f"with {n} players ({spare} skill cards are not of a chosen company's colour)")
        else:
            bound_option("draft_cards", o.draft_cards, skills // n, f"with {n} players ({skills} skill cards)")
        bound_option("market_lower", o.market_lower, len(od.lower), "(lower-grade order cards)")
        bound_option("market_upper", o.market_upper, len(od.upper), "(upper-grade order cards)")

    def _pool(self, s: State):
        kind, rest = divmod(s.to_draw[0], 1000)
        if kind == K_LAYOUT:
            return s.layout_pool, self._lay
        if kind in (K_SKILL, K_DRAFT):
            return s.skill_pool, self._deal
        if kind == K_COMPANY:
            return [c for c in range(len(self.companies)) if c not in s.company], self._deal_company
        return s.piles[rest // 100], self._draw

    def chance_outcomes(self, s: State) -> tuple:
        pool, acts = self._pool(s)
        p = 1.0 / len(pool)
        return tuple((acts[c], p) for c in pool)

    def sample_chance(self, s: State, rng):
        """Fast sampler, same distribution as ``chance_outcomes`` (tested)."""
        pool, acts = self._pool(s)
        return acts[pool[int(rng.random() * len(pool))]]

    def legal_actions(self, s: State) -> tuple:
        ph = s.phase
        if ph == ACT:
            return self._act_actions(s)
        if ph == GAIN:
            return self._gain_actions(s, s.active, True)
        if ph == PRE:
            return self._pre_actions(s)
        if ph == COMPANY:
            return tuple(self._company[c] for c in range(len(self.companies)) if c not in s.company)
        if ph == DRAFT:
            return tuple(self._pick[c] for c in sorted(s.draft_hands[s.draft_pos]))
        if ph == REFILL:
            return self._refill
        if ph == GROW:
            return tuple(self._unlock[t] for t in self._unlockable(s, s.grow_queue[0]))
        if ph == OFFICE:
            return tuple(self._office[x] for x in self._office_sites(s, s.grow_queue[0])) + (POSTPONE_OFFICE,)
        if ph == SKILLPLAY:
            seat = s.grow_queue[0]
            return tuple(self._play[c] for c in sorted(s.hands[seat]) if not self.skills[c].disposable) + (SKIP_SKILL,)
        if ph == SWAP:
            return (SWAP_EXCLUSIVE, KEEP_EXCLUSIVE)
        if ph == REPLENISH:
            return self._gain_actions(s, s.repl_queue[0], False)
        if ph == START:
            return tuple(self._start[i] for i in s.start_choices)
        return ()

    # ------------------------------------------------------------------ legal-action builders
    def _pre_actions(self, s: State) -> tuple:
        """Before the worker: proxy workers, re-surveys, disposable skills, then ``PlaceWorker``.
        Once a proxy worker is on an action, the worker and further proxies go on that action only
        ('Action Count Adjustment', RULINGS §6)."""
        me, o = s.active, self.options
        k = s.proxy_kind
        out = list(self._worker) if k < 0 else [self._worker[k]]
        if s.proxies[me]:
            if s.round >= o.proxies_from_round:
                out += self._proxy if k < 0 else [self._proxy[k]]
            out += [self._resurvey[g] for g in (0, 1) if s.piles[g] or s.discards[g]]
        if s.hands[me]:
            out += self._disposables(s.hands[me])
        return tuple(out)

    def _disposables(self, hand: list[int]) -> tuple[UseDisposable, ...]:
        """``UseDisposable`` for each disposable skill card of ``hand``, by card id."""
        key = tuple(hand)
        got = self._disp_cache.get(key)
        if got is None:
            if len(self._disp_cache) > 4096:  # bounded: hands differ from game to game
                self._disp_cache.clear()
            disp = self._disp_of
            got = self._disp_cache[key] = tuple(disp[c] for c in sorted(hand) if disp[c] is not None)
        return got

    def _gain_actions(self, s: State, me: int, areas: bool) -> tuple:
        """Where a gained standard resource may go: port, office, or (when placing a worker) one per
        area already holding your resources ('1. Main Phase'); never beyond the warehouse maximum."""
        place = self._place
        off = s.office[me]
        had, placed = (s.had, s.placed) if areas else ((), ())
        if off <= 0 and not had:  # nowhere but the port (no need to look at the warehouses)
            return (place[0],)
        out = [place[0]]
        cap = self.capacity(s, me)
        w = s.wh[me]
        for x in range(1, NLOC):
            if (x == off or (x in had and x not in placed)) and w[3 * x] + w[3 * x + 1] + w[3 * x + 2] < cap:
                out.append(place[x])
        return tuple(out)

    def _act_actions(self, s: State) -> tuple:
        me, kind = s.active, s.act_kind
        out: list = []
        if kind == TRANSPORT:
            out = self._move_actions(s, me)
        elif kind == IMPROVE:
            w = s.wh[me]
            for x in (0, s.office[me]) if s.office[me] > 0 else (0,):
                if w[3 * x] and s.stock_sup:
                    out.append(self._improve[x][0])
                if w[3 * x + 1] and s.stock_spe:
                    out.append(self._improve[x][1])
        else:
            out = self._fulfil_actions(s, me)
            if s.proxies[me]:
                out += [self._resurvey[g] for g in (0, 1) if s.piles[g] or s.discards[g]]
        if s.hands[me]:
            out += self._disposables(s.hands[me])
        px = s.proxies[me]
        if px:
            for c in s.played[me]:
                if self._extra_of[c] == kind and self.skills[c].proxies <= px:
                    out.append(self._use[c])
        out.append(END_ACTION)
        return tuple(out)

    def _move_actions(self, s: State, me: int) -> list:
        w = s.wh[me]
        carry = self.carry(s, me)
        cap = self.capacity(s, me)
        blocks, adj = self._move_blocks, self.adj
        out = []
        for src in range(NLOC):
            a, b, c = w[3 * src], w[3 * src + 1], w[3 * src + 2]
            if not (a or b or c):
                continue
            for dst in adj[src]:
                free = carry
                if dst:
                    room = cap - w[3 * dst] - w[3 * dst + 1] - w[3 * dst + 2]
                    if room < free:
                        free = room
                    if free <= 0:
                        continue
                # the block depends only on the goods that fit (min by comparisons: cheaper than min())
                key = (src, dst, a if a < free else free, b if b < free else free, c if c < free else free, free)
                block = blocks.get(key)
                if block is None:
                    block = blocks[key] = self._move_block(*key)
                out.extend(block)
        return out

    def _move_block(self, src: int, dst: int, a: int, b: int, c: int, free: int) -> tuple[Move, ...]:
        """Every move of ``x + y + z`` goods (x <= a standard, y <= b superior, z <= c special,
        1..free in all) from ``src`` to ``dst``, in the canonical order."""
        moves, out = self._moves, []
        for x in range(min(a, free) + 1):
            for y in range(min(b, free - x) + 1):
                for z in range(min(c, free - x - y) + 1):
                    if x + y + z:
                        key = (src, dst, x, y, z)
                        mv = moves.get(key)
                        if mv is None:
                            mv = moves[key] = Move(*key)
                        out.append(mv)
        return tuple(out)

    def _fulfil_actions(self, s: State, me: int) -> list:
        w = s.wh[me]
        out = []
        cards = list(s.market)
        if s.excl[me] >= 0:
            cards.append(s.excl[me])
        cards += s.temp
        blocks, need, type_of = self._order_blocks, self._need, self._type_of
        locs = self._locs_by_type(s.area_at)
        for card in cards:
            k = need[card]
            for x in locs[type_of[card]]:
                a, b, c = w[3 * x], w[3 * x + 1], w[3 * x + 2]
                if a + b + c < k:  # too few goods there to pay anything
                    continue
                key = (card, x, a, b, c)
                block = blocks.get(key)
                if block is None:
                    block = blocks[key] = self._order_block(*key)
                out += block
        off = s.office[me]
        ps, pu, pp = w[0], w[1], w[2]
        if off > 0:
            ps, pu, pp = ps + w[3 * off], pu + w[3 * off + 1], pp + w[3 * off + 2]
        for d, up in enumerate(s.dailies[me]):
            if up:
                for pay in self._pays(self.daily[d][0], ps, pu, pp):
                    key = (d,) + pay
                    a = self._daily_cache.get(key)
                    if a is None:
                        a = self._daily_cache[key] = FulfilDaily(*key)
                    out.append(a)
        return out

    def _order_block(self, card: int, x: int, a: int, b: int, c: int) -> tuple[FulfilOrder, ...]:
        """Every ``FulfilOrder`` of ``card`` at position ``x`` holding ``a``/``b``/``c`` goods."""
        cache, out = self._orders_cache, []
        for pay in self._pays(self.orders[card].cost, a, b, c):
            key = (card, x) + pay
            act = cache.get(key)
            if act is None:
                act = cache[key] = FulfilOrder(*key)
            out.append(act)
        return tuple(out)

    def _locs_by_type(self, area_at: list[int]) -> tuple[tuple[int, ...], ...]:
        """Per order type, the layout positions whose area shows its icon (the layout is fixed
        once laid, so the table of the last layout seen is kept)."""
        key = tuple(area_at)
        if key != self._layout_key:
            icons = self.area_icons
            self._layout_locs = tuple(
                tuple(x for x in range(1, len(key) + 1) if t in icons[key[x - 1]]) for t in range(len(self.order_types)))
            self._layout_key = key
        return self._layout_locs

    def _unlockable(self, s: State, seat: int) -> list[int]:
        lv, o = s.levels[seat], self.options
        out = []
        for t in range(len(TRACKS)):
            if lv[t] >= self.track_len[t]:
                continue
            if t == WORKERS and not any(lv[k] >= self.track_len[k] for k in (WAREHOUSE, TRANSPORT_TRACK, QUALITY)):
                continue  # 'Worker Increase' needs one of the three items fully unlocked
            if t == SKILL and lv[t] >= self.track_len[SKILL] - o.late_skill_spaces and s.round < o.late_skill_round:
                continue  # skill spaces 3 and 4 only after the interim scoring
            out.append(t)
        return out

    def _office_sites(self, s: State, seat: int) -> list[int]:
        """Market Entry Areas of ``seat`` without another player's office."""
        taken = {x for i, x in enumerate(s.office) if i != seat and x > 0}
        return [x for x in range(1, NLOC) if seat in s.gauges[x] and x not in taken]

    def _fewest(self, s: State) -> list[int]:
        low = min(s.vp)
        return [i for i in range(s.n) if s.vp[i] == low]

    # ------------------------------------------------------------------ apply
    def apply_action(self, s: State, a) -> None:
        # one dict look-up by the action's class instead of a long ``match`` (issue 20 item 4)
        handler = _HANDLERS.get(type(a))
        if handler is None:
            raise ValueError(f"not a Forwarder of Xanadu action: {a!r}")
        handler(self, s, a)
        self._advance(s)

    def _do_place_worker(self, s: State, a: PlaceWorker) -> None:
        self._place_worker(s, a.action)

    def _do_end_action(self, s: State, a: EndAction) -> None:
        self._end_turn(s)

    def _do_use_disposable(self, s: State, a: UseDisposable) -> None:
        self._use_disposable(s, s.active, a.card)

    def _do_draw_order(self, s: State, a: DrawOrder) -> None:
        self._draw_order(s, a.card)

    def _do_unlock(self, s: State, a: Unlock) -> None:
        self._unlock_track(s, s.grow_queue[0], a.track)

    def _do_postpone(self, s: State, a: PostponeOffice) -> None:
        self._next_grower(s)

    def _do_move(self, s: State, a: Move) -> None:
        w = s.wh[s.active]
        src, dst = 3 * a.src, 3 * a.dst
        x, y, z = a.std, a.sup, a.spe
        w[src] -= x
        w[src + 1] -= y
        w[src + 2] -= z
        w[dst] += x
        w[dst + 1] += y
        w[dst + 2] += z
        s.stats[s.active][ST_MOVE] += 1
        self._step_done(s)

    def _do_fulfil_order(self, s: State, a: FulfilOrder) -> None:
        self._fulfil_order(s, s.active, a.card, a.loc, a.std, a.sup, a.spe)
        self._step_done(s)

    def _do_fulfil_daily(self, s: State, a: FulfilDaily) -> None:
        self._fulfil_daily(s, s.active, a.daily, a.std, a.sup, a.spe)
        self._step_done(s)

    def _do_improve(self, s: State, a: Improve) -> None:
        w = s.wh[s.active]
        i = 3 * a.loc + a.grade
        w[i] -= 1
        w[i + 1] += 1
        if a.grade == 0:
            s.stock_sup -= 1
        else:
            s.stock_sup += 1
            s.stock_spe -= 1
        s.stats[s.active][ST_IMPROVE] += 1
        self._step_done(s)

    def _do_place_resource(self, s: State, a: PlaceResource) -> None:
        loc = a.loc
        if s.phase == GAIN:
            me = s.active
            s.wh[me][3 * loc] += 1
            if loc > 0 and loc != s.office[me]:
                s.placed.append(loc)
            s.gain_left -= 1
            if not s.gain_left:
                self._begin_action(s)
        else:
            s.wh[s.repl_queue[0]][3 * loc] += 1
            s.repl_left -= 1
            if not s.repl_left:
                s.repl_queue.pop(0)
                self._next_replenish(s)

    def _do_use_skill(self, s: State, a: UseSkill) -> None:
        me, card = s.active, a.card
        s.proxies[me] -= self.skills[card].proxies
        s.proxy_used[me] += self.skills[card].proxies
        s.act_left += self._amount[card]
        s.stats[me][ST_SKILLUSE] += 1

    def _do_place_proxy(self, s: State, a: PlaceProxy) -> None:
        me, kind = s.active, a.action
        s.proxies[me] -= 1
        s.proxy_used[me] += 1
        s.proxy_kind = kind
        s.stats[me][ST_PROXY] += 1
        s.spaces[kind] += 1
        if s.spaces[kind] == 3:  # 'Action Count Adjustment': filling all spaces resets
            s.spaces[kind] = 0
            s.resets += 1

    def _do_resurvey(self, s: State, a: Resurvey) -> None:
        me = s.active
        s.proxies[me] -= 1
        s.proxy_used[me] += 1
        s.stats[me][ST_RESURVEY] += 1
        s.to_draw.append(K_TEMP * 1000 + a.grade * 100 + me)

    def _do_lay_area(self, s: State, a: LayArea) -> None:
        s.to_draw.pop(0)
        s.layout_pool.remove(a.area)
        s.area_at.append(a.area)

    def _do_deal_skill(self, s: State, a: DealSkill) -> None:
        kind, rest = divmod(s.to_draw.pop(0), 1000)
        s.skill_pool.remove(a.card)
        (s.hands if kind == K_SKILL else s.draft_hands)[rest % 100].append(a.card)

    def _do_company(self, s: State, a) -> None:
        if isinstance(a, DealCompany):
            s.to_draw.pop(0)
        s.company[s.setup_pos] = a.company
        s.setup_pos += 1
        if s.setup_pos == s.n:
            s.to_draw += [K_EXCL * 1000 + seat for seat in range(s.n)]
            s.phase = DEAL_SETUP

    def _do_draft_pick(self, s: State, a: DraftPick) -> None:
        seat = s.draft_pos
        s.draft_hands[seat].remove(a.card)
        s.hands[seat].append(a.card)
        s.draft_pos += 1
        if s.draft_pos == s.n:  # everyone picked: pass the hands to the left
            s.draft_pos = 0
            s.draft_hands = [s.draft_hands[(i - 1) % s.n] for i in range(s.n)]
            if not s.draft_hands[0]:
                self._start_round(s)

    def _do_refill(self, s: State, a: RefillExclusive) -> None:
        s.to_draw.append(K_EXCL * 1000 + a.grade * 100 + s.active)
        s.phase = NEXT_TURN

    def _do_place_office(self, s: State, a: PlaceOffice) -> None:
        s.office[s.grow_queue[0]] = a.loc
        self._next_grower(s)

    def _do_play_skill(self, s: State, a: PlaySkill) -> None:
        seat = s.grow_queue[0]
        s.hands[seat].remove(a.card)
        s.played[seat].append(a.card)
        s.stats[seat][ST_PLAYED] += 1
        s.phase = GROW

    def _back_to_grow(self, s: State, a) -> None:
        s.phase = GROW

    def _do_swap(self, s: State, a: SwapExclusive) -> None:
        seat = s.grow_queue[0]
        if s.excl[seat] >= 0:
            s.discards[self.grade_of[s.excl[seat]]].append(s.excl[seat])
            s.excl[seat] = -1
        s.to_draw.append(K_EXCL * 1000 + 100 + seat)
        s.phase = GROW

    def _do_choose_start(self, s: State, a: ChooseStart) -> None:
        s.start = a.seat
        s.start_choices = []
        self._new_round(s)

    # ------------------------------------------------------------------ turn steps
    def _place_worker(self, s: State, kind: int) -> None:
        """'1. Main Phase': leftmost free space n: 3 - n standard resources, then n actions."""
        me = s.active
        s.proxy_kind = -1
        pos = s.spaces[kind]
        s.spaces[kind] = pos + 1
        s.workers[me] -= 1
        s.act_kind = kind
        s.act_left = pos + 1 + self._action_bonus(s, me, kind)
        s.gain_left = self.options.space_resources[pos] + self.bonus(s, me, "place_resources")
        w = s.wh[me]
        s.had = [x for x in range(1, NLOC) if w[3 * x] + w[3 * x + 1] + w[3 * x + 2]]
        s.placed = []
        if s.gain_left:
            s.phase = GAIN
        else:
            self._begin_action(s)

    def _action_bonus(self, s: State, me: int, kind: int) -> int:
        if kind == IMPROVE:
            return self.q_bonus[s.levels[me][QUALITY]] + self.bonus(s, me, "improve_actions")
        if kind == TRANSPORT:
            return self.bonus(s, me, "transport_actions")
        return self.bonus(s, me, "fulfil_actions")

    def _begin_action(self, s: State) -> None:
        s.had, s.placed = [], []
        s.phase = ACT
        if not s.act_left:
            self._end_turn(s)

    def _step_done(self, s: State) -> None:
        s.act_left -= 1
        if s.act_left <= 0:
            self._end_turn(s)

    def _end_turn(self, s: State) -> None:
        """Reset check, temporary exclusives discarded, Market refill (then the Exclusive)."""
        if s.spaces[s.act_kind] >= 3:  # 'Reset'
            s.spaces[s.act_kind] = 0
            s.resets += 1
        s.act_kind, s.act_left = -1, 0
        for c in s.temp:  # 'Market Re-survey': discarded at the end of your turn
            s.discards[self.grade_of[c]].append(c)
        s.temp = []
        lower = sum(1 for c in s.market if self.grade_of[c] == 0)
        upper = len(s.market) - lower
        o = self.options
        s.to_draw += [K_MARKET * 1000] * (o.market_lower - lower) + [K_MARKET * 1000 + 100] * (o.market_upper - upper)
        s.phase = TURN_REFILL

    def _fulfil_order(self, s: State, me: int, card: int, loc: int, x: int, y: int, z: int) -> None:
        w = s.wh[me]
        w[3 * loc] -= x
        w[3 * loc + 1] -= y
        w[3 * loc + 2] -= z
        s.stock_sup += y
        s.stock_spe += z
        oc = self.orders[card]
        st = s.stats[me]
        if card in s.market:
            s.market.remove(card)
        elif s.excl[me] == card:
            s.excl[me] = -1
            st[ST_EXCL] += 1
        else:
            s.temp.remove(card)
            st[ST_EXCL] += 1
        s.discards[oc.grade].append(card)
        st[ST_UP if oc.grade else ST_LOW] += 1
        self._gain_vp(s, me, V_ORD, oc.vp)
        self._gain_vp(s, me, V_SKILL, self.bonus(s, me, "order_vp"))
        if s.tokens_left[me]:  # share token: leftmost empty space, or replace the rightmost
            g = s.gauges[loc]
            if len(g) < self.gauge_size[s.area_at[loc - 1]]:
                g.append(me)
            else:
                s.tokens_left[g[-1]] += 1
                g[-1] = me
            s.tokens_left[me] -= 1

    def _fulfil_daily(self, s: State, me: int, d: int, x: int, y: int, z: int) -> None:
        w = s.wh[me]
        off = s.office[me]
        for g, k in enumerate((x, y, z)):
            take = min(k, w[g])  # ruling: paid from the port first, then the office
            w[g] -= take
            if k - take:
                w[3 * off + g] -= k - take
        s.stock_sup += y
        s.stock_spe += z
        s.dailies[me][d] = 0
        s.stats[me][ST_DAY] += 1
        self._gain_vp(s, me, V_DAY, self.daily[d][1])
        self._gain_vp(s, me, V_SKILL, self.bonus(s, me, "daily_vp"))

    def _use_disposable(self, s: State, me: int, card: int) -> None:
        sk = self.skills[card]
        s.hands[me].remove(card)
        s.skill_discard.append(card)
        s.stats[me][ST_DISP] += 1
        k = sk.amount
        w = s.wh[me]
        match sk.effect:
            case "gain_standard":
                w[0] += k
            case "gain_superior":
                k = min(k, s.stock_sup)
                w[1] += k
                s.stock_sup -= k
            case "gain_special":
                k = min(k, s.stock_spe)
                w[2] += k
                s.stock_spe -= k
            case "gain_vp":
                self._gain_vp(s, me, V_SKILL, k)
            case "gain_proxy":
                s.proxies[me] += k
                s.proxy_got[me] += k

    def _gain_vp(self, s: State, seat: int, src: int, k: int) -> None:
        s.vp[seat] += k
        s.vp_src[seat][src] += k

    def _draw_order(self, s: State, card: int) -> None:
        kind, rest = divmod(s.to_draw.pop(0), 1000)
        grade, seat = divmod(rest, 100)
        s.piles[grade].remove(card)
        if kind == K_MARKET:
            s.market.append(card)
        elif kind == K_EXCL:
            s.excl[seat] = card
        else:
            s.temp.append(card)

    # ------------------------------------------------------------------ rounds
    def _start_round(self, s: State) -> None:
        for seat in range(s.n):
            s.workers[seat] = self.workers_per_round[s.levels[seat][WORKERS]]
            s.dailies[seat] = [1] * len(self.daily)
        s.active = s.start
        s.phase = PRE

    def _end_round(self, s: State) -> None:
        o = self.options
        if s.round >= o.rounds:
            self._final_scoring(s)
            s.phase = END
            return
        s.grow_queue = [(s.start + k) % s.n for k in range(s.n)]
        s.unlocks_left = o.growth[s.round - 1] if s.round - 1 < len(o.growth) else 0
        s.phase = GROW

    def _unlock_track(self, s: State, seat: int, t: int) -> None:
        lv = s.levels[seat]
        lv[t] += 1
        s.proxies[seat] += 1  # the removed proxy worker can be used from then on
        s.unlocks_left -= 1
        s.growth_path[seat].append(t)
        if t == SKILL and any(not self.skills[c].disposable for c in s.hands[seat]):
            s.phase = SKILLPLAY
        elif t == QUALITY and lv[t] + 1 == self.options.upper_exclusive_quality and (s.piles[1] or s.discards[1]):
            s.phase = SWAP

    def _next_grower(self, s: State) -> None:
        s.grow_queue.pop(0)
        o = self.options
        s.unlocks_left = o.growth[s.round - 1] if s.grow_queue and s.round - 1 < len(o.growth) else 0
        s.phase = GROW

    def _after_growing(self, s: State) -> None:
        """'After Growing': replenishment (workers and dailies come back in ``_start_round``)."""
        s.repl_queue = [(s.start + k) % s.n for k in range(s.n)]
        self._next_replenish(s)

    def _next_replenish(self, s: State) -> None:
        while s.repl_queue:
            seat = s.repl_queue[0]
            k = self.repl[s.levels[seat][WAREHOUSE]] + self.bonus(s, seat, "replenish")
            off = s.office[seat]
            if k and off > 0 and sum(s.wh[seat][3 * off:3 * off + 3]) < self.capacity(s, seat):
                s.repl_left = k
                s.phase = REPLENISH
                return
            s.wh[seat][0] += k
            s.repl_queue.pop(0)
        o = self.options
        if s.round == o.interim_round and o.scoring_before_start_player:
            self._majority(s, o.interim_vp, V_INT)
        done = s.round
        s.round += 1
        if done < s.n:  # the start player marker moves 1 to the left
            s.start = (s.start + 1) % s.n
        else:  # after a full cycle: the player with the fewest VP
            low = self._fewest(s)
            if len(low) > 1 and o.start_player_tie == "choice":
                s.start_choices = low
                s.phase = START
                return
            # rulebook: the one farthest clockwise from this round's start player
            s.start = max(low, key=lambda i: (i - s.start) % s.n)
        self._new_round(s)

    def _new_round(self, s: State) -> None:
        o = self.options
        if s.round - 1 == o.interim_round and not o.scoring_before_start_player:
            self._majority(s, o.interim_vp, V_INT)
        self._start_round(s)

    def ranking(self, s: State, loc: int) -> list[int]:
        """Seats with share tokens at ``loc``, best first: most tokens, then the token further left."""
        g = s.gauges[loc]
        seats = sorted(set(g))
        return sorted(seats, key=lambda i: (-g.count(i), g.index(i)))

    def _majority(self, s: State, table, src: int) -> None:
        for x in range(1, NLOC):
            first_second = table[self.marks[x] - 1]
            for place, seat in enumerate(self.ranking(s, x)[:2]):
                self._gain_vp(s, seat, src, first_second[place])

    def final_skill_vp(self, s: State, seat: int) -> int:
        """VP of ``seat``'s company Final Scoring Skill (companies.yaml)."""
        effect, amount, per, min_mark = self.final[s.company[seat]]
        if effect == "per_full_track":
            k = sum(1 for t in range(len(TRACKS)) if s.levels[seat][t] >= self.track_len[t])
        elif effect == "per_entry_area":
            k = sum(1 for x in range(1, NLOC) if seat in s.gauges[x] and self.marks[x] >= min_mark)
        elif effect == "per_daily":
            k = s.stats[seat][ST_DAY]
        else:  # per_share_token
            k = sum(g.count(seat) for g in s.gauges)
        return amount * (k // per)

    def _final_scoring(self, s: State) -> None:
        for seat in range(s.n):
            self._gain_vp(s, seat, V_COMP, self.final_skill_vp(s, seat))
        self._majority(s, self.options.final_vp, V_FIN)
        for seat in range(s.n):
            self._gain_vp(s, seat, V_PROXY, s.proxies[seat] // self.options.proxy_vp_per)

    # ------------------------------------------------------------------ automatic steps
    def _advance(self, s: State) -> None:
        """Run automatic steps until a decision, a chance node or the end."""
        while True:
            if s.to_draw:
                kind, rest = divmod(s.to_draw[0], 1000)
                if kind in (K_LAYOUT, K_SKILL, K_DRAFT, K_COMPANY):
                    return
                g = rest // 100
                if s.piles[g]:
                    return
                if s.discards[g]:  # 'Reset': shuffle the discard pile to make a new pile
                    s.piles[g], s.discards[g] = sorted(s.discards[g]), []
                    s.reshuffles += 1
                    return
                s.to_draw.pop(0)  # nothing left to draw: the draw is skipped
                continue
            ph = s.phase
            if ph not in _AUTOMATIC:  # a decision (or the end): nothing to run
                return
            if ph == SETUP:
                s.phase, s.setup_pos = COMPANY, 0
                if self.options.company_choice == "random":
                    s.to_draw += [K_COMPANY * 1000 + seat for seat in range(s.n)]
                    continue
                return
            if ph == DEAL_SETUP:
                o = self.options
                if o.style == "standard":
                    chosen = [self.company_colours[c] for c in s.company]
                    for seat in range(s.n):
                        col = chosen[seat]
                        s.hands[seat] = [c for c in range(len(self.skills)) if self.skills[c].colour == col][: o.company_cards]
                    s.skill_pool = [c for c in range(len(self.skills)) if self.skills[c].colour not in chosen]
                    s.to_draw += [K_SKILL * 1000 + seat for _ in range(o.dealt_cards) for seat in range(s.n)]
                else:
                    s.skill_pool = list(range(len(self.skills)))
                    s.to_draw += [K_DRAFT * 1000 + seat for _ in range(o.draft_cards) for seat in range(s.n)]
                s.phase = DEALT
                continue
            if ph == DEALT:
                if self.options.style == "custom" and any(s.draft_hands):
                    s.phase, s.draft_pos = DRAFT, 0
                    return
                self._start_round(s)
                continue
            if ph == TURN_REFILL:
                me = s.active
                if s.excl[me] < 0:
                    if s.levels[me][QUALITY] + 1 >= self.options.upper_exclusive_quality and (s.piles[1] or s.discards[1]):
                        s.phase = REFILL
                        return
                    s.to_draw.append(K_EXCL * 1000 + me)
                s.phase = NEXT_TURN
                continue
            if ph == NEXT_TURN:
                s.turns += 1
                nxt = -1
                for k in range(1, s.n + 1):
                    seat = (s.active + k) % s.n
                    if s.workers[seat]:
                        nxt = seat
                        break
                if nxt < 0:
                    self._end_round(s)
                    if s.phase == END:
                        return
                    continue
                s.active, s.phase = nxt, PRE
                return
            if ph == GROW:
                if not s.grow_queue:
                    self._after_growing(s)
                    continue
                seat = s.grow_queue[0]
                if s.unlocks_left > 0 and self._unlockable(s, seat):
                    return
                if (s.levels[seat][TRANSPORT_TRACK] > 0 and s.office[seat] < 0 and self._office_sites(s, seat)):
                    s.phase = OFFICE
                    return
                self._next_grower(s)
                continue
            return

    # ------------------------------------------------------------------ observation & results
    def observe(self, s: State, seat: int) -> Observation:
        """The seat's view; its fields are computed on first access (``LazyObservation``)."""
        return Observation((s, self), seat)  # even the prompt is computed on first access

    def prompt(self, s: State) -> str:
        """The observation's ``prompt`` for the seat to move (``ObservationFields``)."""
        return "none" if s.to_draw else PROMPTS.get(s.phase, "none")

    def known_hands(self, s: State, seat: int) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards everyone knows to be in its hand (all of ``seat``'s own; in the
        Standard style the company cards the others still hold)."""
        if self.options.style == "standard":
            colour, cc = self._colour, self.company_colours
            return tuple(
                tuple(s.hands[i]) if i == seat else
                tuple(c for c in s.hands[i] if s.company[i] >= 0 and colour[c] == cc[s.company[i]])
                for i in range(s.n))
        return tuple(tuple(s.hands[i]) if i == seat else () for i in range(s.n))

    def determinize(self, obs: Observation, rng) -> State:
        """A full state consistent with ``obs``: unseen skill cards redealt to the other hands and
        the unused pool, order piles rebuilt from the cards not on the table or discarded."""
        s = State(n=obs.num_players)
        for f, k in PUBLIC_DEPTH:
            v = getattr(obs, f)
            setattr(s, f, v if k == 0 else list(v) if k == 1 else [list(x) for x in v])
        if not s.spaces:
            s.spaces = [0, 0, 0]
        seen = set(obs.market) | set(obs.temp) | {c for c in obs.excl if c >= 0} | set(obs.discards[0]) | set(obs.discards[1])
        s.piles = [[c for c in range(len(self.orders)) if self.grade_of[c] == g and c not in seen] for g in (0, 1)]
        me = obs.seat
        used = set(obs.hand) | set(obs.draft_hand) | set(obs.skill_discard) | {c for p in obs.played for c in p}
        used |= {c for k in obs.known_hands for c in k}
        unseen = [c for c in range(len(self.skills)) if c not in used]
        rng.shuffle(unseen)
        s.hands, s.draft_hands = [], []
        for i in range(obs.num_players):
            if i == me:
                s.hands.append(list(obs.hand))
                s.draft_hands.append(list(obs.draft_hand))
                continue
            k = obs.known_hands[i]
            extra = obs.hand_sizes[i] - len(k)
            s.hands.append(list(k) + unseen[:extra])
            del unseen[:extra]
            s.draft_hands.append(unseen[: obs.draft_sizes[i]])
            del unseen[: obs.draft_sizes[i]]
        s.skill_pool = sorted(unseen)
        return s

    def scores(self, s: State) -> tuple[float, ...]:
        """VP per seat."""
        return tuple(float(v) for v in s.vp)

    def rank_sum(self, s: State, seat: int) -> int:
        """Sum of ``seat``'s ranking values over all areas (tie-break); an area where it has no share
        token counts as the number of players (ruling)."""
        total = 0
        for x in range(1, NLOC):
            r = self.ranking(s, x)
            total += r.index(seat) + 1 if seat in r else s.n
        return total

    def winners(self, s: State) -> frozenset[int]:
        """Most VP; then the lower sum of ranking values over all areas; then shared."""
        key = [(s.vp[i], -self.rank_sum(s, i)) for i in range(s.n)]
        best = max(key)
        return frozenset(i for i in range(s.n) if key[i] == best)

    def stalled(self, s: State) -> bool:
        """Never: every turn places a worker, so every round and the game end ('How to Play')."""
        return False

    def end_reason(self, s: State) -> str:
        """Why a terminal state ended: always ``"finished"`` (after round 6, 'How to Play'). The
        game cannot stall (a turn always uses a worker; a round ends when none are left) and has
        no round cap; only the runner's decision cap can cut it short."""
        return "finished"

    def check_invariants(self, s: State) -> None:
        """Conservation laws (raise ``AssertionError`` with a short message): every order card and
        skill card in exactly one place, superior/special cubes in the Stock or a warehouse (30/15),
        share tokens on a gauge or in supply (12 each), proxy workers locked, usable or returned
        (11 each plus disposable gains), warehouses within their maximum, tracks and spaces in
        range, VP equal to the sum of their sources."""
        n, o = s.n, self.options
        cards = sorted(s.piles[0] + s.piles[1] + s.market + s.temp + s.discards[0] + s.discards[1]
                       + [c for c in s.excl if c >= 0])
        assert cards == list(range(len(self.orders))), "order cards lost or duplicated"
        assert all(self.grade_of[c] == g for g in (0, 1) for c in s.piles[g] + s.discards[g]), "order card in the wrong pile"
        skills = [c for h in s.hands for c in h] + [c for h in s.draft_hands for c in h] + s.skill_pool
        skills += [c for p in s.played for c in p] + s.skill_discard
        assert len(set(skills)) == len(skills), "skill card in two places"
        if s.phase > DEAL_SETUP and o.style == "standard":
            chosen = {self.company_colours[c] for c in s.company}
            skills += [c for col in chosen for c in [k for k in range(len(self.skills)) if self._colour[k] == col][o.company_cards:]]
        if s.phase > DEAL_SETUP:
            assert sorted(skills) == list(range(len(self.skills))), "skill cards lost"
        sup = s.stock_sup + sum(w[3 * x + 1] for w in s.wh for x in range(NLOC))
        spe = s.stock_spe + sum(w[3 * x + 2] for w in s.wh for x in range(NLOC))
        assert sup == o.stock_superior and spe == o.stock_special, "superior/special cubes not conserved"
        assert s.stock_sup >= 0 and s.stock_spe >= 0, "negative stock"
        locked = sum(self.track_len)
        offices = [x for x in s.office if x >= 0]
        assert len(set(offices)) == len(offices) and all(0 < x < NLOC for x in offices), "offices overlap or off the map"
        for seat in range(n):
            w, lv = s.wh[seat], s.levels[seat]
            assert min(w) >= 0, "negative warehouse"
            assert all(0 <= lv[t] <= self.track_len[t] for t in range(len(TRACKS))), "growth track out of range"
            cap = self.capacity(s, seat)
            assert all(w[3 * x] + w[3 * x + 1] + w[3 * x + 2] <= cap for x in range(1, NLOC)), "warehouse over its maximum"
            assert sum(lv) == len(s.growth_path[seat]) <= locked, "unlocks and growth path disagree"
            assert s.proxies[seat] == sum(lv) + s.proxy_got[seat] - s.proxy_used[seat] >= 0, "proxy workers not conserved"
            assert s.tokens_left[seat] + sum(g.count(seat) for g in s.gauges) == o.share_tokens, "share tokens not conserved"
            assert 0 <= s.workers[seat] <= self.workers_per_round[1], "workers out of range"
            assert s.vp[seat] == sum(s.vp_src[seat]) and min(s.vp_src[seat]) >= 0, "VP differ from their sources"
            assert all(d in (0, 1) for d in s.dailies[seat]), "daily card neither up nor down"
            assert len(s.played[seat]) <= lv[SKILL], "more skills played than skill spaces"
        full = 3 if s.phase in (ACT, GAIN, TURN_REFILL, REFILL) else 2
        assert all(0 <= k <= full for k in s.spaces), "action space count out of range"
        assert 1 <= s.round <= o.rounds + 1, "round out of range"
        if len(s.area_at) == NLOC - 1:
            assert all(len(s.gauges[x]) <= self.gauge_size[s.area_at[x - 1]] for x in range(1, NLOC)), "gauge overfull"
        assert not s.gauges[0], "share token at the port"

    def metrics(self, s: State) -> dict[str, tuple[float, ...]]:
        """Per-seat figures: company, VP by source, orders by grade, growth path, proxies, etc."""
        out: dict[str, tuple[float, ...]] = {"company": tuple(float(c) for c in s.company)}
        for k, name in enumerate(VP_SOURCES):
            out[f"vp_{name}"] = tuple(float(v[k]) for v in s.vp_src)
        for k, name in enumerate(STATS):
            out[name] = tuple(float(v[k]) for v in s.stats)
        for t, name in enumerate(TRACKS):
            out[f"growth_{name}"] = tuple(float(lv[t]) for lv in s.levels)
        out["office_built"] = tuple(float(x > 0) for x in s.office)
        out["share_tokens_on_board"] = tuple(float(sum(g.count(i) for g in s.gauges)) for i in range(s.n))
        out["entry_areas"] = tuple(float(sum(1 for g in s.gauges if i in g)) for i in range(s.n))
        out["proxies_unused"] = tuple(float(p) for p in s.proxies)
        out["rank_sum"] = tuple(float(self.rank_sum(s, i)) for i in range(s.n))
        return out

    def summary(self, s: State) -> dict[str, float]:
        """Whole-game figures: rounds, turns, resets, reshuffles, orders and dailies fulfilled."""
        return {
            "rounds": float(min(s.round, self.options.rounds)),
            "turns": float(s.turns),
            "resets": float(s.resets),
            "reshuffles": float(s.reshuffles),
            "orders": float(sum(st[ST_LOW] + st[ST_UP] for st in s.stats)),
            "dailies": float(sum(st[ST_DAY] for st in s.stats)),
        }

    def components(self, s: State) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Per seat: company, growth path (tracks in unlock order), skill cards played and used."""
        return {
            "company": tuple((self.companies[c],) if c >= 0 else () for c in s.company),
            "growth": tuple(tuple(TRACKS[t] for t in p) for p in s.growth_path),
            "skill_played": tuple(tuple(self.skills[c].name for c in p) for p in s.played),
        }

    def clone(self, s: State) -> State:
        return copy.deepcopy(s)

    def _loc(self, s: State, x: int) -> str:
        if x == 0:
            return "Hotan Port"
        return f"{self.area_names[s.area_at[x - 1]]} (pos {x})" if len(s.area_at) >= x else f"pos {x}"

    def _order(self, c: int) -> str:
        oc = self.orders[c]
        return f"{('lower', 'upper')[oc.grade]} {self.order_types[oc.type]} {list(oc.cost)}->{oc.vp}VP"

    def describe(self, s: State, a) -> str:
        """One log line for ``sim replay``."""
        who = f"seat {self.current_player(s)}"
        pay = lambda x, y, z: ", ".join(f"{k} {g}" for k, g in zip((x, y, z), GRADES, strict=True) if k)  # noqa: E731
        match a:
            case LayArea(area):
                return f"chance: {self.area_names[area]} placed at position {len(s.area_at) + 1}"
            case DrawOrder(card):
                return f"chance: draw {self._order(card)}"
            case DealSkill(card):
                return f"chance: deal skill {self.skills[card].name}"
            case ChooseCompany(c):
                return f"{who}: company {self.companies[c]}"
            case DealCompany(c):
                return f"chance: seat {s.setup_pos} gets company {self.companies[c]}"
            case DraftPick(c):
                return f"{who}: draft {self.skills[c].name}"
            case PlaceProxy(k):
                return f"{who}: proxy worker on {ACTION_NAMES[k]} space {s.spaces[k] + 1}"
            case Resurvey(g):
                return f"{who}: market re-survey ({('lower', 'upper')[g]})"
            case UseDisposable(c):
                return f"{who}: disposable skill {self.skills[c].name}"
            case PlaceWorker(k):
                return f"{who}: worker on {ACTION_NAMES[k]} space {s.spaces[k] + 1}"
            case PlaceResource(x):
                return f"{who}: standard resource to {self._loc(s, x)}"
            case Move(src, dst, x, y, z):
                return f"{who}: transport {pay(x, y, z)} {self._loc(s, src)} -> {self._loc(s, dst)}"
            case Improve(x, g):
                return f"{who}: improve a {GRADES[g]} resource at {self._loc(s, x)}"
            case FulfilOrder(c, x, y0, y1, y2):
                return f"{who}: fulfil {self._order(c)} at {self._loc(s, x)} paying {pay(y0, y1, y2)}"
            case FulfilDaily(d, y0, y1, y2):
                return f"{who}: daily card {d + 1} paying {pay(y0, y1, y2)}"
            case UseSkill(c):
                return f"{who}: skill {self.skills[c].name} (pay {self.skills[c].proxies} proxy)"
            case EndAction():
                return f"{who}: end of action"
            case Unlock(t):
                return f"{who}: unlock {TRACKS[t]}"
            case PlaceOffice(x):
                return f"{who}: office at {self._loc(s, x)}"
            case PlaySkill(c):
                return f"{who}: play skill {self.skills[c].name}"
            case RefillExclusive(g):
                return f"{who}: refill exclusive order from the {('lower', 'upper')[g]} pile"
            case ChooseStart(i):
                return f"{who}: start player to seat {i}"
        return f"{who}: {type(a).__name__}"


_E = ForwarderOfXanadu
# action class -> handler(engine, state, action): one per kind of move (module level: the engine pickles)
_HANDLERS = {
    Move: _E._do_move, FulfilOrder: _E._do_fulfil_order, FulfilDaily: _E._do_fulfil_daily, Improve: _E._do_improve,
    PlaceResource: _E._do_place_resource, PlaceWorker: _E._do_place_worker, EndAction: _E._do_end_action,
    UseSkill: _E._do_use_skill, PlaceProxy: _E._do_place_proxy, Resurvey: _E._do_resurvey,
    UseDisposable: _E._do_use_disposable, DrawOrder: _E._do_draw_order, LayArea: _E._do_lay_area,
    DealSkill: _E._do_deal_skill, ChooseCompany: _E._do_company, DealCompany: _E._do_company,
    DraftPick: _E._do_draft_pick, RefillExclusive: _E._do_refill, Unlock: _E._do_unlock,
    PlaceOffice: _E._do_place_office, PostponeOffice: _E._do_postpone, PlaySkill: _E._do_play_skill,
    SkipSkill: _E._back_to_grow, KeepExclusive: _E._back_to_grow, SwapExclusive: _E._do_swap,
    ChooseStart: _E._do_choose_start,
}

GAME = ForwarderOfXanadu
