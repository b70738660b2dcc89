"""What one seat of Xanadu may know (RULINGS §4).

Public: every built card, its owner, how many workers cover it and who placed each (the
workers themselves are face down), sideways cards, tong bao, hand sizes, the face-up discard
pile, the draw pile's size (and, once the End card is in, the size of the bottom part holding
it), the active player's pool of resources this turn. Private to the seat: its own hand, the
identity of the workers it placed, its own face-down starting cards before the reveal.
Never visible: others' hands, others' workers and face-down picks, the draw pile's order.
"""

from __future__ import annotations

from dataclasses import dataclass, make_dataclass

from sim.api import LazyObservation, lazy


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the table: ``colour`` index (0 brown, 1 blue, 2 yellow, 3 green); ``cost`` and
    ``permanent`` as resource-count tuples (one entry per resource); ``boxes``: per box, the
    resource-count tuple; ``prices``: the four box prices then the final price; ``khan``: per box,
    the resource index of the Khan's help or -1."""

    id: int
    name: str
    colour: int
    cost: tuple[int, ...]
    permanent: int  # resource index or -1
    boxes: tuple[tuple[int, ...], ...]
    prices: tuple[int, ...]  # 5 entries: box 1..4, final
    khan: tuple[int, ...]


def _copy(attr: str, conv=None):
    """A ``@lazy`` field copying public state attribute ``attr`` (through ``conv``, e.g. ``tuple``)."""
    if conv is None:
        def get(view, src):
            return getattr(src[0], attr)
    else:
        def get(view, src):
            return conv(getattr(src[0], attr))
    return lazy(get)


def _rule(attr: str):
    """A ``@lazy`` field copying a constant of the game (``src[1]``: table, options, resolved rules)."""
    def get(view, src):
        return getattr(src[1], attr)
    return lazy(get)


class Observation(LazyObservation):
    """What one seat may know (see the module docstring), computed on first access
    (``sim.api.LazyObservation``, issue 20 item 3): a strategy pays only for the fields it reads.
    Built by the engine as ``Observation((state, game), seat, prompt=...)``;
    the view holds no reference to the state, and every field is a plain immutable value.

    ``prompt``: ``start`` | ``sell`` | ``work`` | ``draw`` | ``none``. ``built[s]`` lists seat
    ``s``'s built cards; ``placers[s][i]`` the seats whose workers cover ``built[s][i]`` (bottom
    box first). Seats count from the start player, clockwise.

    Fields (all tuples of ints unless said): ``seat``, ``num_players``, ``prompt`` (str),
    ``active``, ``cards`` (``Card`` per id), ``resources``/``colours`` (names), ``hand``,
    ``hand_sizes``, ``built``, ``placers``, ``sideways``, ``my_workers`` ((worker card, card it
    covers) placed by this seat), ``my_start`` (own face-down starting cards before the reveal),
    ``start_placed`` (per seat: face-down starting cards waiting for the reveal), ``start_queue``
    (seats still to place starting cards, head first), ``start_left`` (int), ``coins``, ``pool``
    (active player's resources from boxes this turn), ``perm_used`` (permanent resources the active
    player used this turn), ``sold_this_turn``/``acted_this_turn`` (bool), ``builds_this_turn``,
    ``draw_pile_size`` (cards in the draw pile, not the End card), ``top_left`` (once the End card
    is in: draws still to come before it can appear), ``end_card_in`` (bool), ``reshuffles``,
    ``discard``, ``turns``, ``build_limit``, ``builds_per_turn``, ``hand_limit``, ``restarting``
    (bool: the starting cards being placed follow a 'no built card left' restart),
    ``draw_choices`` (prompt 'draw': the numbers of cards the active seat may draw), ``sale_bonus``
    (tong bao added to a phase-1 sale, per colour; 5-6 players: 0, 0, 1, 2),
    ``bonus_on_every_sale`` (bool: the bonus applies to forced and end-of-game sales too),
    ``quiet_turns`` (consecutive turns without a sale, worker, build, draw or forced sale).
    """

    def __init__(self, source=None, seat: int = 0, **fields):
        if source is None:  # detached: every field given (``dataclasses.replace``, relabelled test views)
            self.__dict__.update(fields, seat=seat)
            return
        super().__init__(source, seat, **fields)

    num_players = _copy("n")
    active = _copy("active")
    cards = _rule("cards")
    resources = _rule("resources")
    colours = _rule("colours")
    build_limit = _rule("build_limit")
    builds_per_turn = _rule("builds_per_turn")
    hand_limit = _rule("hand_limit")
    sale_bonus = _rule("bonus")
    bonus_on_every_sale = _rule("bonus_on_every_sale")
    hand_sizes = _copy("hands", lambda hands: tuple(map(len, hands)))
    built = _copy("built", lambda rows: tuple(map(tuple, rows)))
    sideways = _copy("sideways", tuple)
    start_placed = _copy("pending", lambda rows: tuple(map(len, rows)))
    start_queue = _copy("start_queue", tuple)
    start_left = _copy("start_left")
    coins = _copy("coins", tuple)
    pool = _copy("pool", tuple)
    perm_used = _copy("perm_used", tuple)
    sold_this_turn = _copy("sold")
    acted_this_turn = _copy("acted")
    builds_this_turn = _copy("builds")
    draw_pile_size = _copy("draw", len)
    top_left = _copy("top_left")
    end_card_in = _copy("end_in")
    reshuffles = _copy("reshuffles")
    discard = _copy("discard", tuple)
    turns = _copy("turns")
    restarting = _copy("restarting")
    quiet_turns = _copy("quiet_turns")

    @lazy
    def hand(self, src) -> tuple[int, ...]:
        return tuple(src[0].hands[self.seat])

    @lazy
    def my_start(self, src) -> tuple[int, ...]:
        return tuple(src[0].pending[self.seat])

    @lazy
    def placers(self, src) -> tuple[tuple[tuple[int, ...], ...], ...]:
        pl = src[0].placers
        return tuple(tuple(tuple(pl[c]) for c in row) for row in src[0].built)

    @lazy
    def my_workers(self, src) -> tuple[tuple[int, int], ...]:
        s, seat = src[0], self.seat
        mine = []
        for row in s.built:
            for c in row:
                pl = s.placers[c]
                if seat in pl:
                    ws = s.workers[c]
                    mine.extend([(ws[i], c) for i, p in enumerate(pl) if p == seat])
        return tuple(mine)

    @lazy
    def draw_choices(self, src) -> tuple[int, ...]:
        return tuple(src[0].draw_choices) if self.prompt == "draw" else ()

    def price(self, card: int, covered: int) -> int:
        """Tong bao a phase-1 sale of ``card`` under ``covered`` workers pays: the lowest uncovered
        box (the final price under 4) plus the 5-6 player colour bonus ('Eladási ár', '5 vagy 6
        személyes változat')."""
        c = self.cards[card]
        return c.prices[covered] + self.sale_bonus[c.colour]

    def end_price(self, card: int, covered: int) -> int:
        """Tong bao a forced or end-of-game sale pays (the bonus only with ``bonus_on_every_sale``)."""
        c = self.cards[card]
        return c.prices[covered] + (self.sale_bonus[c.colour] if self.bonus_on_every_sale else 0)

    def covered(self, card: int) -> int:
        """Workers on built card ``card`` (0 when not built)."""
        for s, row in enumerate(self.built):
            for i, c in enumerate(row):
                if c == card:
                    return len(self.placers[s][i])
        return 0

    def owner(self, card: int) -> int:
        """Seat owning built card ``card``, or -1."""
        for s, row in enumerate(self.built):
            if card in row:
                return s
        return -1


# ``dataclasses.replace(view, seat=...)`` and ``dataclasses.fields(view)`` work as on the frozen
# dataclass this view replaced (the shared seat-relabelling tests use them): the field list of a
# plain dataclass, and a detached view built from every field.
Observation.__dataclass_fields__ = make_dataclass(  # type: ignore[attr-defined]
    "ObservationFields", ["seat", "prompt", *Observation.field_names()], frozen=True).__dataclass_fields__
