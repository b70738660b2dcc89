"""Xanadu rule options and card data (rulebook seeds/002, English rendering rules/xanadu-english.md,
RULINGS §4).

Options left at ``None`` take the value the player count and the chosen variants imply
(``resolve``): the 2-player game deals 8 and places 2 starting cards; 5-6 players reshuffle
once more, get +1 / +2 tong bao for yellow / green sales and may build at most 4 cards; the
advanced game builds several cards a turn, allows 6 built cards (4 with 5-6 players: the
stricter limit, RULINGS §4), deals 8 and places 2; the longer game reshuffles once more (nothing
more at 5-6 players, which already reshuffle once more). A restart deals and places as the
setup of the variant in play. An explicit value always wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.api import BaseOptions, SimError, StrictModel
from sim.data import data_hashes, read_data_files, validate

COLOURS = ("brown", "blue", "yellow", "green")


class Options(BaseOptions):
    """Rule options (defaults from the rulebook and RULINGS §4; ``None`` = by player count/variant)."""

    advanced: bool = Field(False, description="'Haladó játék' (Változatok): several builds a turn, 6 built cards "
                           "(4 with 5-6 players, RULINGS §4), deal 8, place 2")
    longer: bool = Field(False, description="'Hosszabb játék' (Dobópakli és a játék vége): reshuffle three times "
                         "instead of two (End card one reshuffle later; no effect at 5-6 players, RULINGS §4)")
    deal: int | None = Field(None, ge=1, description="'Az építkezés kezdete', 'Változatok': cards dealt "
                             "(7; 8 with 2 players or advanced)")
    starting_cards: int | None = Field(None, ge=0, description="'Az építkezés kezdete', 'Változatok', RULINGS §4: cards "
                                       "placed free at setup and at a restart (1; 2 with 2 players or advanced)")
    reshuffles_before_end: int | None = Field(
        None, ge=1, description="RULINGS §4: the End card goes in at this reshuffle of the discard (1; 2 for longer or 5-6 players)")
    end_card_depth: int = Field(10, ge=0, description="'Dobópakli és a játék vége': the End card is shuffled into "
                                "the bottom this many cards")
    build_limit: int | None = Field(None, ge=1, description="'Megépített kártyák számára vonatkozó korlátozás', "
                                    "'Változatok', RULINGS §4: max built cards per player (5; 4 with 5-6 players, "
                                    "also in the advanced game; 6 advanced with 2-4 players)")
    builds_per_turn: int | None = Field(None, ge=1, description="'Egy kártya megépítése', 'Haladó játék': cards built "
                                        "per turn (1; advanced: unlimited, given as 99)")
    sale_bonus: tuple[int, int, int, int] | None = Field(
        None, json_schema_extra={"per": "colour: brown, blue, yellow, green"}, description="'5 vagy 6 személyes változat': tong bao added to each sale by colour "
        "brown/blue/yellow/green ((0,0,0,0); 5-6 players (0,0,1,2))")
    hand_limit: int = Field(7, ge=1, description="'Kártyák húzása': never more than this many cards in hand; refill target")
    draw_nothing_sold: int = Field(1, ge=0, description="'Kártyák húzása': cards drawn when nothing was sold in phase 1")
    draw_sold: int = Field(3, ge=0, description="'Kártyák húzása': cards drawn when something was sold in phase 1")
    refill_when_idle: bool = Field(True, description="'Kártyák húzása': 'up to 7' when nothing was done in phases 1 and 2")
    draw: Literal["optional", "forced"] = Field(
        "optional", description="'Kártyák húzása' ('húzhat': may draw), RULINGS §4: 'optional' offers the draw "
        "(the allowed number or none; for 'up to 7' any number up to the limit); 'forced' always draws the most allowed")
    restart_hand: int | None = Field(None, ge=0, description="'Lapok eladása a Kánnak', RULINGS §4: at a restart (no "
                                     "built card left) every player draws up to this many (the variant's deal: 7; "
                                     "8 with 2 players or advanced)")
    forced_sale: Literal["active", "all"] = Field(
        "active", description="'Kötelező eladás' (docs/xanadu.md ruling): end of turn: sell fully covered cards of the "
        "active player only ('active', the rule as written) or every fully covered card on the table, each to its "
        "owner ('all')")
    bonus_on_every_sale: bool = Field(True, description="'5 vagy 6 személyes változat' ('Minden esetben'): the sale "
                                      "bonus applies to forced and final sales too")
    max_decisions: int = Field(4000, ge=1, description="decision cap (RULINGS §1.5)")


class Resolved(BaseModel):
    """Options with every ``None`` replaced by its player-count / variant default."""

    model_config = ConfigDict(frozen=True)
    deal: int
    starting_cards: int
    reshuffles_before_end: int
    build_limit: int
    builds_per_turn: int
    sale_bonus: tuple[int, int, int, int]
    restart_hand: int


def resolve(o: Options, n: int) -> Resolved:
    """Fill the ``None`` options from the player count and the variants ('Változatok')."""
    many = n >= 5
    two_or_adv = n == 2 or o.advanced
    deal = o.deal if o.deal is not None else (8 if two_or_adv else 7)
    return Resolved(
        deal=deal,
        starting_cards=o.starting_cards if o.starting_cards is not None else (2 if two_or_adv else 1),
        reshuffles_before_end=(o.reshuffles_before_end if o.reshuffles_before_end is not None
                               else (2 if (o.longer or many) else 1)),
        build_limit=o.build_limit if o.build_limit is not None else (4 if many else 6 if o.advanced else 5),
        builds_per_turn=o.builds_per_turn if o.builds_per_turn is not None else (99 if o.advanced else 1),
        sale_bonus=o.sale_bonus if o.sale_bonus is not None else ((0, 0, 1, 2) if many else (0, 0, 0, 0)),
        restart_hand=o.restart_hand if o.restart_hand is not None else deal,
    )


class Box(StrictModel):
    resources: list[str] = Field(default_factory=list)
    price: int = Field(ge=0)
    kind: Literal["development", "sabotage", "trade"]
    khan: str | None = None


class CardRow(StrictModel):
    name: str = Field(min_length=1)
    colour: Literal["brown", "blue", "yellow", "green"]
    cost: list[str] = Field(min_length=1)
    permanent: str | None = None
    boxes: list[Box] = Field(min_length=4, max_length=4)
    final: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> CardRow:
        prices = [b.price for b in self.boxes] + [self.final]
        for k, b in enumerate(self.boxes):
            a, c = prices[k], prices[k + 1]
            want = "development" if c > a else "sabotage" if c < a else "trade"
            if b.kind != want:
                raise ValueError(f"box {k + 1} is '{b.kind}' but covering it moves the price {a} -> {c} ({want})")
        return self


class CardData(StrictModel):
    resources: list[str] = Field(min_length=1)
    colours: list[str]
    counts: dict[str, int]
    cards: list[CardRow]

    @model_validator(mode="after")
    def _check(self) -> CardData:
        if tuple(self.colours) != COLOURS:
            raise ValueError(f"colours must be {list(COLOURS)} (the rulebook's four colours)")
        if len(set(self.resources)) != len(self.resources):
            raise ValueError("resources must be distinct")
        if set(self.counts) != set(COLOURS):
            raise ValueError(f"counts must name exactly the colours {list(COLOURS)}")
        got = {c: sum(1 for r in self.cards if r.colour == c) for c in COLOURS}
        for c in COLOURS:
            if got[c] != self.counts[c]:
                raise ValueError(f"counts.{c} is {self.counts[c]} but the list holds {got[c]} {c} cards")
        known = set(self.resources)
        for i, r in enumerate(self.cards):
            used = list(r.cost) + [r.permanent] * (r.permanent is not None)
            for b in r.boxes:
                used += b.resources + [b.khan] * (b.khan is not None)
            bad = sorted({u for u in used if u not in known})
            if bad:
                raise ValueError(f"card {i} ({r.name}): unknown resource(s) {bad}")
        return self


class XanaduData(BaseModel):
    """Validated cards plus the hashes of the files they came from."""

    cards: CardData
    hashes: dict[str, str]


DATA_FILES = {"cards": "cards.yaml"}
RULEBOOK_COUNTS = {"brown": 24, "blue": 24, "yellow": 12, "green": 10}


def load_data(paths: dict[str, Path] | None = None, *, strict_counts: bool = True) -> XanaduData:
    """Load the card list from the package or ``paths['cards']``; raise ``SimError`` naming file,
    line and key for invalid data (the card's name too for a resource box with no resource).
    ``strict_counts``: the colour counts must be the rulebook's
    (24/24/12/10, 70 cards)."""
    docs = read_data_files(__package__ + ".data", "Xanadu", DATA_FILES, paths)
    doc = docs["cards"]
    cards = validate(CardData, doc)
    for i, row in enumerate(cards.cards):  # card anatomy item 4: every box shows one or more resources
        for k, box in enumerate(row.boxes):
            if not box.resources:
                raise SimError(f"{doc.where(('cards', i, 'boxes', k, 'resources'))}: card '{row.name}' box {k + 1} "
                               "shows no resource (every resource box shows at least one, card anatomy item 4)")
    if strict_counts and cards.counts != RULEBOOK_COUNTS:
        raise SimError(f"{doc.where(('counts',))}: the rulebook has {RULEBOOK_COUNTS} (70 cards), got {cards.counts}")
    return XanaduData(cards=cards, hashes=data_hashes(docs))
