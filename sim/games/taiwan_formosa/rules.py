"""Taiwan Formosa rule options and component data (rulebook seeds/004, RULINGS §3).

Options default to the rulebook's printed constants and to the RULINGS' readings of its
ambiguities. Data (building types, regions, landmarks) is read from ``data/*.yaml`` or a
designer's replacement named in a config, and validated at load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.api import BaseOptions, StrictModel
from sim.data import data_hashes, read_data_files, validate

RESOURCES = ("wood", "brick", "steel", "stone")
ITEMS = RESOURCES + ("worker", "merchant")  # dice faces, in this order
WORKER, MERCHANT = 4, 5

ABILITY_KIND = {
    "sawmill": "basic", "stone_factory": "basic", "brickworks": "basic", "steelworks": "basic",
    "temple": "basic", "baseball_field": "basic", "lottery_office": "basic", "night_market": "basic",
    "tribal_village": "basic", "warehouse": "basic",
    "judicial_court": "exclusive", "urban_development_bureau": "exclusive",
    "demolition_company": "exclusive", "tax_bureau": "exclusive",
    "train_station": "global", "convenience_store": "global",
    "public_art": "minor_landmark", "hot_spring": "minor_landmark",
}
FACTORY_RESOURCE = {"sawmill": 0, "brickworks": 1, "steelworks": 2, "stone_factory": 3}


def _amount(default: int, description: str):
    """A rule constant counted from 0 (coins, items, VP, markers): ``Field(default, ge=0, ...)``."""
    return Field(default, ge=0, description=description)


class Options(BaseOptions):
    """Rule options (defaults: the rulebook's constants and the RULINGS §3 readings)."""

    starting_coins: int = _amount(40, "'Game Setup' 3: coins per player")
    income: int = _amount(15, "'4. Income Phase': coins per player")
    free_dice: int = _amount(2, "'1. Dice Phase': dice rolled for free")
    min_dice: int = _amount(2, "'1. Dice Phase': fewest dice a player rolls")
    max_dice: int = Field(7, ge=1, le=12, description="'1. Dice Phase': most dice a player rolls (at most 12: "
                          "every roll's outcomes are tabled)")
    die_cost: int = _amount(5, "'1. Dice Phase': coins per die beyond the free ones")
    hand_limit: int = _amount(5, "'5. Cleanup Phase' 1: resource tiles kept")
    markers_per_player: int = Field(
        7, ge=0, description="RULINGS §3: board markers per player: 8 received ('Game Setup' 3) less the 1 on "
        "the point track (setup 4) = 7, the FAQ's 'all 7'")
    exchange_items: int = Field(3, ge=1, description="2-3 a: items given for 1 worker or resource")
    exchange_coins: int = Field(9, ge=1, description="RULINGS §3: printed rate table 9; the text says 10")
    merchant_coins: int = _amount(2, "2-3 c: coins paid with 1 merchant for 1 worker or resource")
    overtime_coins: int = _amount(2, "2-4: coins paid with 1 worker to work overtime")
    purchase_workers: int = _amount(1, "2-1, 2-2: workers paid on top of a card's cost")
    public_art_markers: int = _amount(2, "RULINGS §3: Public Art Installation places 2 ('21' a misprint)")
    hot_spring_vp: int = _amount(2, "Building Card Abilities D, Hot Spring Hotel: VP per other marker in the area")
    hot_spring_timing: Literal["immediate", "final"] = Field(
        "immediate", description="RULINGS §3: Hot Spring Hotel scores when bought ('final': at final scoring)")
    hot_spring_counts: Literal["all", "opponents"] = Field(
        "all", description="docs ruling 4 (Building Card Abilities D): Hot Spring Hotel's 'every other marker' counts all colours ('opponents': "
        "not the buyer's own)")
    minor_landmark_markers: Literal["mandatory", "optional"] = Field(
        "mandatory", description="docs ruling 4 (Building Card Abilities D): minor landmarks 'immediately place' their markers, as landmarks must "
        "(the section's 'may place': 'optional' offers PlaceMarkers(-1) to decline)")
    temple_coins: int = _amount(2, "Building Card Abilities A, Temple: coins paid for its VP")
    temple_vp: int = _amount(2, "Building Card Abilities A, Temple: VP gained")
    temple_limit: Literal["per_card", "per_player"] = Field(
        "per_card", description="RULINGS §3: Temple 'can be used only once per round' per Temple card (each "
        "completed copy once); 'per_player': once per round per player however many copies")
    lottery_coins: int = _amount(4, "Building Card Abilities A, Lottery Office: coins per merchant rolled")
    night_market_coins: int = _amount(3, "Building Card Abilities A, Night Market: coins in the Income Phase")
    tribal_village_workers: int = _amount(3, "Building Card Abilities A, Tribal Village: workers placed on completion")
    warehouse_resources: int = _amount(3, "Building Card Abilities A, Warehouse: resources of one type placed on completion")
    tax_bureau_coins: int = _amount(3, "Building Card Abilities B, Tax Bureau: coins the other players take fewer")
    udb_fee: int = _amount(1, "Building Card Abilities B, Urban Development Bureau: coins other buyers pay its owner")
    demolition_delay: int = _amount(1, "Building Card Abilities B, Demolition Company: extra time cost for other players")
    demolition_applies_to_landmarks: bool = Field(
        False, description="docs ruling 6 (Building Card Abilities B): the Demolition Company names 'building cards'; landmarks not delayed")
    baseball_counts_landmarks: bool = Field(
        False, description="docs ruling 8 (Building Card Abilities A): Baseball Field counts completed building cards, not landmark cards")
    building_types_in_play: int = Field(12, ge=1, description="'Game Setup' 1: building types drawn")
    uncompleted_penalty: tuple[int, ...] = Field(
        (2, 3, 4, 5), min_length=1,
        description="'Final Scoring' 1: VP lost on spaces 1, 2, 3, 4 (RULINGS §3: a higher space loses space + 1)")
    neutral_in_two_player: bool = Field(True, description="'Two-Player Rules': a neutral colour with a marker per region")
    random_start_player: bool = Field(
        False, description="'Game Setup' 5: False: seat 0 starts (the runner's seat rotation is the random "
        "choice, and by-seat results read as turn order, as for Osaka); True: a chance node picks the start seat")
    end_decks_offset: int = Field(
        0, description="'Game End': the end triggers at (players + this) depleted decks")
    max_rounds: int = Field(100, ge=1, description="RULINGS §1.5 safety cap: a game still running after this many rounds ends with end reason round_cap "
        "(truncated)")
    max_decisions: int = Field(6000, ge=1, description="decision cap (RULINGS §1.5)")

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.min_dice > self.max_dice:
            raise ValueError("min_dice must not exceed max_dice")
        return self


class Cost(StrictModel):
    """What a card or a contribution costs, besides the purchase worker."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    coins: int = Field(0, ge=0)
    wood: int = Field(0, ge=0)
    brick: int = Field(0, ge=0)
    steel: int = Field(0, ge=0)
    stone: int = Field(0, ge=0)
    worker: int = Field(0, ge=0)

    def vector(self) -> tuple[int, int, int, int, int]:
        """(wood, brick, steel, stone, worker)."""
        return (self.wood, self.brick, self.steel, self.stone, self.worker)


class Building(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    kind: Literal["basic", "exclusive", "global", "minor_landmark"]
    ability: Literal[tuple(ABILITY_KIND)]  # type: ignore[valid-type]
    time: int = Field(ge=1, le=5)
    vp: int = Field(ge=0)
    cost: Cost

    @model_validator(mode="after")
    def _check(self) -> Building:
        if ABILITY_KIND[self.ability] != self.kind:
            raise ValueError(f"ability '{self.ability}' belongs to a {ABILITY_KIND[self.ability]} building, not {self.kind}")
        return self


class BuildingData(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    copies: int = Field(ge=1)
    train_station_vp: list[int] = Field(min_length=1)
    convenience_store_coins: list[int] = Field(min_length=1)
    buildings: list[Building] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> BuildingData:
        names = [b.name for b in self.buildings]
        if len(set(names)) != len(names):
            raise ValueError("building names must be distinct")
        abilities = [b.ability for b in self.buildings]
        if len(set(abilities)) != len(abilities):
            raise ValueError("each ability may appear on one building type only")
        return self


class Region(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    charity: Cost


class Landmark(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    region: str
    time: int = Field(ge=1, le=5)
    vp: int = Field(ge=0)
    cost: Cost


class LandmarkData(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    regions: list[Region] = Field(min_length=1)
    landmarks: list[Landmark] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> LandmarkData:
        regions = [r.name for r in self.regions]
        if len(set(regions)) != len(regions):
            raise ValueError("region names must be distinct")
        names = [lm.name for lm in self.landmarks]
        if len(set(names)) != len(names):
            raise ValueError("landmark names must be distinct")
        for lm in self.landmarks:
            if lm.region not in regions:
                raise ValueError(f"landmark '{lm.name}' names unknown region '{lm.region}' (regions: {regions})")
        for r in regions:
            if not any(lm.region == r for lm in self.landmarks):
                raise ValueError(f"region '{r}' has no landmark deck")
        return self


class TaiwanData(BaseModel):
    """Validated components plus the hashes of the files they came from."""

    buildings: BuildingData
    landmarks: LandmarkData
    hashes: dict[str, str]


DATA_FILES = {"buildings": "buildings.yaml", "landmarks": "landmarks.yaml"}


def load_data(paths: dict[str, Path] | None = None) -> TaiwanData:
    """Load buildings and landmarks from the package or from ``paths`` (keys ``buildings``, ``landmarks``).

    Raises ``SimError`` naming the file, line and key for an unknown key or invalid data.
    """
    docs = read_data_files(__package__ + ".data", "Taiwan Formosa", DATA_FILES, paths)
    buildings = validate(BuildingData, docs["buildings"])
    landmarks = validate(LandmarkData, docs["landmarks"])
    hashes = data_hashes(docs)
    return TaiwanData(buildings=buildings, landmarks=landmarks, hashes=hashes)
