"""What one seat of Xanadu may know (RULINGS §4).

Public: every built card, its owner, how many workers cover it and who placed each (the
workers themselves are face down), sideways cards, tong bao, hand sizes, the face-up discard
pile, the draw pile's size (and, once the End card is in, the size of the bottom part holding
it), the active player's pool of resources this turn. Private to the seat: its own hand, the
identity of the workers it placed, its own face-down starting cards before the reveal.
Never visible: others' hands, others' workers and face-down picks, the draw pile's order.
"""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass(frozen=True, slots=True)
class Observation:
    """A frozen per-seat view. ``prompt``: ``start`` | ``sell`` | ``work`` | ``draw`` | ``none``.

    ``built[s]`` lists seat ``s``'s built cards; ``placers[s][i]`` the seats whose workers cover
    ``built[s][i]`` (bottom box first). Seats count from the start player, clockwise.
    """

    seat: int
    num_players: int
    prompt: str
    active: int
    cards: tuple[Card, ...]
    resources: tuple[str, ...]
    colours: tuple[str, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    built: tuple[tuple[int, ...], ...]
    placers: tuple[tuple[tuple[int, ...], ...], ...]
    sideways: tuple[int, ...]
    my_workers: tuple[tuple[int, int], ...]  # (worker card, card it covers) placed by this seat
    my_start: tuple[int, ...]  # this seat's face-down starting cards before the reveal
    start_placed: tuple[int, ...]  # per seat: face-down starting cards waiting for the reveal
    start_queue: tuple[int, ...]  # seats still to place starting cards (head first)
    start_left: int  # starting cards the head of the queue must still place
    coins: tuple[int, ...]
    pool: tuple[int, ...]  # active player's resources from boxes this turn, per resource
    perm_used: tuple[int, ...]  # permanent resources the active player used this turn
    sold_this_turn: bool
    acted_this_turn: bool
    builds_this_turn: int
    draw_pile_size: int  # cards in the draw pile, not counting the End of Game card
    top_left: int  # once the End card is in: draws still to come before it can appear
    end_card_in: bool
    reshuffles: int
    discard: tuple[int, ...]
    turns: int
    build_limit: int
    builds_per_turn: int
    hand_limit: int
    restarting: bool  # the starting cards being placed follow a 'no built card left' restart
    draw_choices: tuple[int, ...]  # prompt 'draw': the numbers of cards the active seat may draw
    sale_bonus: tuple[int, ...]  # tong bao added to a phase-1 sale, per colour (5-6 players: 0, 0, 1, 2)
    bonus_on_every_sale: bool  # the bonus applies to forced and end-of-game sales too
    quiet_turns: int  # consecutive turns without a sale, worker, build, draw or forced sale (stall rule)

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
