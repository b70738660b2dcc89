"""What one seat of Forwarder of Xanadu may know.

Public: the layout, the Market, every Exclusive Order (face up), every warehouse, share gauge,
office, company board (unlocked spaces, proxy workers), played skill cards, discarded cards,
daily cards, VP (VP tokens lie in the open; the start-player rule looks at them), the action
board, pile sizes. Private to the seat: its own skill hand (and, in the Custom style, the hand
it is drafting from). In the Standard style the company cards a player still holds are public
(everyone knows each company's 4 cards, and played or discarded ones are seen), so
``known_hands`` lists them. Never visible: other hands' dealt or drafted cards, the order
piles' order and contents beyond what the discards and the table show, unused skill cards.

Locations: 0 is Hotan Port, 1..9 the layout positions; a warehouse is a flat tuple of
10 x 3 counts, ``wh[loc * 3 + grade]`` (grade 0 standard, 1 superior, 2 special).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from sim.api import LazyObservation, lazy


@dataclass(frozen=True, slots=True)
class OrderCard:
    """Order card ``id``: ``grade`` 0 lower (black) / 1 upper (gold), order ``type`` index,
    ``cost`` (standard, superior, special), ``vp``."""

    id: int
    grade: int
    type: int
    cost: tuple[int, int, int]
    vp: int


@dataclass(frozen=True, slots=True)
class SkillCard:
    """Skill card ``id``: ``colour``, ``effect`` (see data/skills.yaml), ``amount``, proxy cost
    ``proxies``, ``disposable`` (discard icon)."""

    id: int
    name: str
    colour: str
    effect: str
    amount: int
    proxies: int
    disposable: bool


@dataclass(frozen=True, slots=True)
class Tables:
    """The game's fixed data (shared by every observation of one game)."""

    order_types: tuple[str, ...]
    orders: tuple[OrderCard, ...]
    daily: tuple[tuple[tuple[int, int, int], int], ...]  # (cost, vp) of Daily 1, Daily 2
    skills: tuple[SkillCard, ...]
    companies: tuple[str, ...]
    company_colours: tuple[str, ...]
    final_skills: tuple[tuple[str, int, int, int], ...]  # (effect, amount, per, min_mark) per company
    area_names: tuple[str, ...]
    area_icons: tuple[tuple[int, ...], ...]  # per area id
    gauge_size: tuple[int, ...]  # per area id
    marks: tuple[int, ...]  # per location (0 for the port)
    adjacent: tuple[tuple[int, ...], ...]  # per location
    distance: tuple[tuple[int, ...], ...]  # transports between locations
    warehouse_capacity: tuple[int, ...]
    replenish: tuple[int, ...]
    transport_capacity: tuple[int, ...]
    quality_bonus: tuple[int, ...]
    workers: tuple[int, int]
    skill_spaces: int
    space_resources: tuple[int, int, int]
    upper_exclusive_quality: int


@dataclass(frozen=True, slots=True)
class ObservationFields:
    """The fields of an ``Observation``, in order, with their types (the declaration ``Observation``
    is built from; never instantiated by the engine). ``prompt``: ``company`` | ``draft`` | ``turn`` (before placing a
    worker) | ``gain`` | ``action`` | ``refill`` | ``grow`` | ``office`` | ``skill`` | ``swap`` |
    ``replenish`` | ``start`` | ``none``. Seats count from the first start player, clockwise."""

    seat: int
    num_players: int
    prompt: str
    tables: Tables
    # ---- public state (names as in the engine's state): scalars, then tuples, then nested tuples
    phase: int
    round: int
    start: int
    active: int
    stock_sup: int
    stock_spe: int
    act_kind: int
    act_left: int
    gain_left: int
    setup_pos: int
    draft_pos: int
    unlocks_left: int
    repl_left: int
    turns: int
    resets: int
    reshuffles: int
    proxy_kind: int  # action the active player's proxy workers went on this turn (-1: none)
    to_draw: tuple[int, ...]
    area_at: tuple[int, ...]  # area id at layout position 1..9 (index position - 1)
    layout_pool: tuple[int, ...]
    market: tuple[int, ...]
    excl: tuple[int, ...]  # per seat, order card id or -1
    temp: tuple[int, ...]  # temporary exclusive orders of the active player (re-survey)
    company: tuple[int, ...]
    workers: tuple[int, ...]
    proxies: tuple[int, ...]
    office: tuple[int, ...]
    skill_discard: tuple[int, ...]
    tokens_left: tuple[int, ...]
    spaces: tuple[int, ...]  # filled spaces per action
    vp: tuple[int, ...]
    had: tuple[int, ...]
    placed: tuple[int, ...]
    grow_queue: tuple[int, ...]
    repl_queue: tuple[int, ...]
    start_choices: tuple[int, ...]  # seats tied for fewest VP (prompt ``start``)
    proxy_got: tuple[int, ...]  # per seat: proxy workers gained from disposable skills
    proxy_used: tuple[int, ...]  # per seat: proxy workers returned to the Stock
    discards: tuple[tuple[int, ...], ...]  # lower, upper
    wh: tuple[tuple[int, ...], ...]
    levels: tuple[tuple[int, ...], ...]  # per seat: warehouse, transport, quality, workers, skill (spaces unlocked beyond the start)
    played: tuple[tuple[int, ...], ...]
    dailies: tuple[tuple[int, ...], ...]  # 1 face up
    gauges: tuple[tuple[int, ...], ...]  # per location (0 empty), seats left to right
    vp_src: tuple[tuple[int, ...], ...]
    stats: tuple[tuple[int, ...], ...]
    growth_path: tuple[tuple[int, ...], ...]
    # ---- private / derived
    hand: tuple[int, ...]  # this seat's skill hand
    draft_hand: tuple[int, ...]  # this seat's drafting hand (Custom style)
    hand_sizes: tuple[int, ...]
    draft_sizes: tuple[int, ...]
    known_hands: tuple[tuple[int, ...], ...]  # cards publicly known to be in each hand
    pile_sizes: tuple[int, int]


def _public(name: str, depth: int) -> lazy:
    """A public field copied from the state on first access: as is (depth 0), as a tuple (1) or
    a tuple of tuples (2)."""
    if depth == 0:
        def get(view, src):
            return getattr(src[0], name)
    elif depth == 1:
        def get(view, src):
            return tuple(getattr(src[0], name))
    else:
        def get(view, src):
            return tuple(map(tuple, getattr(src[0], name)))
    get.__name__ = name
    return lazy(get)


def _grouped(name: str, group: tuple[tuple[str, int], ...]) -> lazy:
    """A public field computed together with the rest of ``group`` ((name, depth) pairs, copied
    as in ``_public``) on the first access to any of them: one lookup of the source instead of
    one per field, for fields a planner reads together at most decisions (issue 20). The values
    are those ``_public`` gives, and the view is still closed after its decision."""
    def get(view, src):
        s, d = src[0], view.__dict__
        for f, depth in group:
            if f not in d:
                v = getattr(s, f)
                d[f] = v if depth == 0 else tuple(v) if depth == 1 else tuple(map(tuple, v))
        return d[name]
    get.__name__ = name
    return lazy(get)


# read together by the scripted plans at most decisions (the goal, the turn, the action steps)
PLANNER_FIELDS = ("wh", "market", "excl", "temp", "area_at", "tokens_left", "proxies", "spaces", "office", "dailies",
                  "act_kind", "act_left", "proxy_kind", "stock_sup")


def _depth(annotation: str) -> int:
    return 0 if annotation in ("int", "str") else 2 if annotation.startswith("tuple[tuple[") else 1


class Observation(LazyObservation):
    """What one seat may know (fields as in ``ObservationFields``), computed on first access
    (``sim.api.LazyObservation``): a strategy pays only for the fields it reads. ``seat``,
    ``num_players``, ``prompt`` and ``tables`` are given; the public fields are copied from the
    state, ``hand``/``draft_hand`` are the seat's own, ``known_hands`` what everyone knows of
    each hand. Built by the engine as ``Observation((state, game), seat)``: even ``num_players``,
    ``prompt`` and ``tables`` are read on first access, so a player that never looks pays only
    the view itself (issue 20 item 3)."""

    @lazy
    def num_players(self, src) -> int:
        return src[0].n

    @lazy
    def prompt(self, src) -> str:
        return src[1].prompt(src[0])

    @lazy
    def tables(self, src) -> Tables:
        return src[1].tables

    @lazy
    def hand(self, src) -> tuple[int, ...]:
        return tuple(src[0].hands[self.seat])

    @lazy
    def draft_hand(self, src) -> tuple[int, ...]:
        return tuple(src[0].draft_hands[self.seat])

    @lazy
    def hand_sizes(self, src) -> tuple[int, ...]:
        return tuple(map(len, src[0].hands))

    @lazy
    def draft_sizes(self, src) -> tuple[int, ...]:
        return tuple(map(len, src[0].draft_hands))

    @lazy
    def known_hands(self, src) -> tuple[tuple[int, ...], ...]:
        return src[1].known_hands(src[0], self.seat)

    @lazy
    def pile_sizes(self, src) -> tuple[int, int]:
        s = src[0]
        return (len(s.piles[0]), len(s.piles[1]))


_PRIVATE = frozenset(Observation.field_names())
_GROUP = tuple((_f.name, _depth(_f.type)) for _f in fields(ObservationFields) if _f.name in PLANNER_FIELDS)
for _f in fields(ObservationFields)[4:]:
    if _f.name in PLANNER_FIELDS:
        setattr(Observation, _f.name, _grouped(_f.name, _GROUP))
        getattr(Observation, _f.name).__set_name__(Observation, _f.name)
    elif _f.name not in _PRIVATE:
        setattr(Observation, _f.name, _public(_f.name, _depth(_f.type)))
        getattr(Observation, _f.name).__set_name__(Observation, _f.name)
