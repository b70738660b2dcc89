"""Forwarder of Xanadu rule options and component data (rulebook seeds/000, RULINGS §6).

Options default to the rulebook's numbers and to the rulings of RULINGS §6 and
``docs/forwarder_of_xanadu.md``. Components (map, order and daily cards, company boards, skill
cards) are reference data read from ``data/*.yaml`` or a designer's replacement named in a
config (keys ``map``, ``orders``, ``companies``, ``skills``), validated at load against every
number the rulebook gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sim.api import BaseOptions, SimError, StrictModel
from sim.data import data_hashes, read_data_files, validate

_PER_MARK = {"per": "area mark 1, 2, 3", "items": "(1st, 2nd) VP pairs"}  # interim_vp, final_vp


class Options(BaseOptions):
    """Rule options (defaults from the rulebook and RULINGS §6)."""

    rounds: int = Field(6, ge=1, description="'Overview': the game lasts 6 rounds")
    interim_round: int = Field(3, ge=0, description="'Interim Scoring': after round 3 (0: none)")
    start_resources: int = Field(6, ge=0, description="'Player Preparation': standard resources at the port")
    share_tokens: int = Field(12, ge=0, description="'Player Preparation': share tokens per player")
    market_lower: int = Field(3, ge=0, description="'Creating Hotan': lower-grade cards in the Market")
    market_upper: int = Field(3, ge=0, description="'Creating Hotan': upper-grade cards in the Market")
    style: Literal["standard", "custom"] = Field("standard", description="'Style Setting': skill cards by company (standard) or draft (custom)")
    company_cards: int = Field(4, ge=0, description="'Standard': skill cards of the company's colour")
    dealt_cards: int = Field(2, ge=0, description="'Standard': skill cards dealt at random")
    draft_cards: int = Field(6, ge=0, description="'Custom': skill cards dealt and drafted")
    space_resources: tuple[int, int, int] = Field((2, 1, 0), json_schema_extra={"per": "action space 1, 2, 3"},
                                                  description="RULINGS §6: space n gives 3 - n standard resources (and n actions)")
    proxies_from_round: int = Field(2, ge=1, description="'1. Main Phase': proxy workers usable from round 2")
    growth: tuple[int, ...] = Field((1, 1, 1, 2, 2), json_schema_extra={
        "allowed": "a list of whole numbers >= 0, the unlocks after round 1, 2, ... (rounds past its end: 0)"},
        description="'Company Growth': unlocks after rounds 1, 2, ... (RULINGS §6)")
    late_skill_round: int = Field(4, ge=1, description="'Company Growth': skill spaces 3-4 only from this round's growth on")
    late_skill_spaces: int = Field(2, ge=0, description="'Company Growth': how many of the last skill spaces (the 3rd and 4th) wait for late_skill_round")
    upper_exclusive_quality: int = Field(3, ge=1, description="'Quality Improvement' (docs ruling 3): the space (1-based) allowing upper exclusive orders")
    stock_superior: int = Field(30, ge=0, description="'Components': superior resource cubes")
    stock_special: int = Field(15, ge=0, description="'Components': special resource cubes")
    interim_vp: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = Field(
        ((3, 1), (4, 2), (5, 3)), json_schema_extra=_PER_MARK, description="'Interim Scoring': 1st/2nd VP by area mark 1, 2, 3")
    final_vp: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = Field(
        ((3, 1), (6, 3), (9, 6)), json_schema_extra=_PER_MARK, description="'Final Scoring': 1st/2nd VP by area mark 1, 2, 3")
    proxy_vp_per: int = Field(2, ge=1, description="'Final Scoring': 1 VP per this many unused proxy workers")
    start_player_tie: Literal["clockwise", "choice"] = Field(
        "clockwise", description="RULINGS §6 / 'After Growing': fewest-VP tie after a full cycle goes to the seat farthest "
        "clockwise from this round's start player (clockwise, the rulebook) or the start player's choice (choice)")
    company_choice: Literal["draft", "random"] = Field(
        "draft", description="'Player Preparation': companies chosen in seat order from the start player (draft, the "
        "rulebook) or dealt at random from the chance stream (random, for balance studies)")
    allow_two_players: bool = Field(
        False, description="RULINGS §6: the published game is for 3-5 players; true allows 2 (outside the published range)")
    scoring_before_start_player: bool = Field(
        True, description="docs/forwarder_of_xanadu.md ruling 13 ('After Growing', 'Interim Scoring'): interim scoring "
        "comes before the fewest-VP start player is chosen")
    max_decisions: int = Field(6000, ge=1, description="decision cap (RULINGS §1.5)")

    # field validators (not one for the model) so that each error names its own key and line
    @field_validator("space_resources", "growth")
    @classmethod
    def _non_negative(cls, v, info):
        if min(v, default=0) < 0:
            raise ValueError(f"every value of {info.field_name} must be >= 0, got {list(v)}")
        return v

    @field_validator("interim_round")
    @classmethod
    def _interim(cls, v, info):
        rounds = info.data.get("rounds")  # absent when rounds itself is invalid (reported there)
        if rounds is not None and v >= rounds:
            raise ValueError(f"interim_round must come before the last round (rounds: {rounds}), got {v};"
                             " 0 means no interim scoring")
        return v


# ---------------------------------------------------------------- map
class Position(StrictModel):
    id: int = Field(ge=1)
    row: int = Field(ge=1)
    mark: int = Field(ge=1, le=3)


class Area(StrictModel):
    name: str
    icons: list[str] = Field(min_length=1)
    gauge: int = Field(ge=1)


class MapData(StrictModel):
    port: str
    positions: list[Position]
    adjacent: list[tuple[int, int]]
    areas: list[Area]

    @model_validator(mode="after")
    def _check(self) -> MapData:
        ids = [p.id for p in self.positions]
        if ids != list(range(1, len(ids) + 1)):
            raise ValueError("positions must be numbered 1, 2, ... in order")
        if len(self.positions) != 9 or len(self.areas) != 9:
            raise ValueError("the rulebook has Hotan Port plus 9 areas: 9 positions and 9 areas needed")
        rows: dict[int, list[int]] = {}
        for p in self.positions:
            rows.setdefault(p.row, []).append(p.mark)
        layout = [rows[r] for r in sorted(rows)]
        if layout != [[1, 1], [1, 1], [2, 2, 2], [3, 3]]:
            raise ValueError(f"layout rows/marks must be 1,1 / 1,1 / 2,2,2 / 3,3 (RULINGS §6), got {layout}")
        n = len(self.positions)
        seen = set()
        for a, b in self.adjacent:
            if not (0 <= a <= n and 0 <= b <= n) or a == b:
                raise ValueError(f"adjacent pair {[a, b]}: positions are 0 (port) .. {n}, distinct")
            if (a, b) in seen or (b, a) in seen:
                raise ValueError(f"adjacent pair {[a, b]} listed twice")
            seen.add((a, b))
        reach, todo = {0}, [0]
        while todo:
            x = todo.pop()
            for a, b in self.adjacent:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in reach:
                        reach.add(v)
                        todo.append(v)
        if len(reach) != n + 1:
            raise ValueError("every position must be reachable from the port")
        names = [a.name for a in self.areas]
        if len(set(names)) != len(names):
            raise ValueError("area names must be distinct")
        for a in self.areas:
            if len(set(a.icons)) != len(a.icons):
                raise ValueError(f"area {a.name}: an icon is listed twice")
        return self


# ---------------------------------------------------------------- orders
class Order(StrictModel):
    type: str
    cost: tuple[int, int, int]
    vp: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> Order:
        if min(self.cost) < 0 or sum(self.cost) < 1:
            raise ValueError("cost is [standard, superior, special], non-negative, at least 1 resource")
        return self


class Daily(StrictModel):
    name: str
    cost: tuple[int, int, int]
    vp: int = Field(ge=0)


class OrderData(StrictModel):
    types: list[str]
    lower: list[Order]
    upper: list[Order]
    daily: list[Daily]

    @model_validator(mode="after")
    def _check(self) -> OrderData:
        if len(self.types) != 5 or len(set(self.types)) != 5:
            raise ValueError("the rulebook has 5 distinct order types")
        if len(self.lower) + len(self.upper) != 60:
            raise ValueError(f"the rulebook has 60 order cards, got {len(self.lower) + len(self.upper)}")
        for grade, cards in (("lower", self.lower), ("upper", self.upper)):
            for c in cards:
                if c.type not in self.types:
                    raise ValueError(f"{grade} card of unknown type {c.type!r}")
            if {c.type for c in cards} != set(self.types):
                raise ValueError(f"the {grade} cards must cover all 5 order types")
        if len(self.daily) != 2:
            raise ValueError("each company has 2 daily cards (10 in all)")
        return self


# ---------------------------------------------------------------- companies
FINAL_EFFECTS = ("per_full_track", "per_entry_area", "per_daily", "per_share_token")


class FinalSkill(StrictModel):
    effect: Literal["per_full_track", "per_entry_area", "per_daily", "per_share_token"]
    amount: int = Field(ge=0)
    per: int = Field(1, ge=1)
    min_mark: int = Field(1, ge=1, le=3)


class Company(StrictModel):
    name: str
    colour: str
    final: FinalSkill


class WarehouseLevel(StrictModel):
    capacity: int = Field(ge=1)
    replenish: int = Field(ge=0)


class TransportLevel(StrictModel):
    capacity: int = Field(ge=1)


class QualityLevel(StrictModel):
    bonus: int = Field(ge=0)


class Tracks(StrictModel):
    warehouse: list[WarehouseLevel] = Field(min_length=1)
    transport: list[TransportLevel] = Field(min_length=2)
    quality: list[QualityLevel] = Field(min_length=1)
    workers: tuple[int, int]
    skill_spaces: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> Tracks:
        if self.warehouse[0].capacity != 4:
            raise ValueError("'About the Warehouse': Warehouse Expansion starts at 4")
        if self.transport[0].capacity != 1:
            raise ValueError("'Transport': at first you can carry only 1 resource")
        if self.workers[0] != 3 or self.workers[1] != 4:
            raise ValueError("'After Growing': 3 workers each round, 4 with Worker Increase")
        locked = len(self.warehouse) + len(self.transport) + len(self.quality) - 3 + 1 + self.skill_spaces
        if locked != 11:
            raise ValueError(f"the locked spaces must hold the 11 proxy workers of 'Player Preparation', got {locked}")
        for name in ("warehouse", "transport"):
            caps = [lv.capacity for lv in getattr(self, name)]
            if caps != sorted(caps):
                raise ValueError(f"{name}: unlocking must not lower the capacity")
        return self


class CompanyData(StrictModel):
    tracks: Tracks
    companies: list[Company]

    @model_validator(mode="after")
    def _check(self) -> CompanyData:
        if len(self.companies) != 5:
            raise ValueError("the rulebook has 5 companies")
        if len({c.colour for c in self.companies}) != 5 or any(c.colour == "white" for c in self.companies):
            raise ValueError("companies need 5 distinct colours other than white")
        return self


# ---------------------------------------------------------------- skills
PASSIVE = ("transport_capacity", "warehouse_capacity", "improve_actions", "transport_actions", "fulfil_actions",
           "order_vp", "daily_vp", "replenish", "place_resources")
ACTIVATED = ("extra_transport", "extra_improve", "extra_fulfil")
DISPOSABLE = ("gain_standard", "gain_superior", "gain_special", "gain_vp", "gain_proxy")
SkillEffect = Literal[
    "transport_capacity", "warehouse_capacity", "improve_actions", "transport_actions", "fulfil_actions",
    "order_vp", "daily_vp", "replenish", "place_resources",
    "extra_transport", "extra_improve", "extra_fulfil",
    "gain_standard", "gain_superior", "gain_special", "gain_vp", "gain_proxy",
]


class Skill(StrictModel):
    name: str
    colour: str
    effect: SkillEffect
    amount: int = Field(ge=1)
    proxies: int = Field(0, ge=0)
    disposable: bool = False

    @model_validator(mode="after")
    def _check(self) -> Skill:
        if self.disposable != (self.effect in DISPOSABLE):
            raise ValueError(f"{self.effect}: disposable (discard icon) is true exactly for the gain_* effects")
        if (self.proxies > 0) != (self.effect in ACTIVATED):
            raise ValueError(f"{self.effect}: a proxy cost is needed by, and only by, the extra_* effects")
        return self


class SkillData(StrictModel):
    cards: list[Skill]

    @model_validator(mode="after")
    def _check(self) -> SkillData:
        if len(self.cards) != 40:
            raise ValueError(f"the rulebook has 40 skill cards, got {len(self.cards)}")
        return self


class ForwarderData(BaseModel):
    """Validated components plus the hashes of the files they came from."""

    map: MapData
    orders: OrderData
    companies: CompanyData
    skills: SkillData
    hashes: dict[str, str]


DATA_FILES = {"map": "map.yaml", "orders": "orders.yaml", "companies": "companies.yaml", "skills": "skills.yaml"}


def load_data(paths: dict[str, Path] | None = None) -> ForwarderData:
    """Load the components from the package or from ``paths`` (keys ``map``, ``orders``,
    ``companies``, ``skills``). Raises ``SimError`` naming file, line and key on invalid data."""
    docs = read_data_files(__package__ + ".data", "Forwarder of Xanadu", DATA_FILES, paths)
    m = validate(MapData, docs["map"])
    orders = validate(OrderData, docs["orders"])
    comp = validate(CompanyData, docs["companies"])
    skills = validate(SkillData, docs["skills"])
    # cross-file checks
    types = set(orders.types)
    for i, a in enumerate(m.areas):
        for icon in a.icons:
            if icon not in types:
                raise SimError(f"{docs['map'].where(('areas', i, 'icons'))}: icon {icon!r} is not an order type of orders.yaml")
    colours = [c.colour for c in comp.companies]
    for i, c in enumerate(skills.cards):
        if c.colour not in colours and c.colour != "white":
            raise SimError(f"{docs['skills'].where(('cards', i, 'colour'))}: colour {c.colour!r} is neither a company colour nor white")
    for col in colours:
        k = sum(c.colour == col for c in skills.cards)
        if k != 4:
            raise SimError(f"{docs['skills'].source}: colour {col} has {k} skill cards; 'Standard' needs 4 per company")
    hashes = data_hashes(docs)
    return ForwarderData(map=m, orders=orders, companies=comp, skills=skills, hashes=hashes)
