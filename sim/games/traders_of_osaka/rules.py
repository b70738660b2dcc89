"""Traders of Osaka rule options and component data (rulebook seeds/003, RULINGS §2).

Options default to the rulebook's values. Data (cards, sea route) is read from
``data/*.yaml`` or a designer's replacement named in a config, and validated at load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sim.api import BaseOptions, StrictModel
from sim.data import data_hashes, read_data_files, validate


class Options(BaseOptions):
    """Rule options (defaults from the rulebook)."""

    end_tokens: int = Field(8, ge=1, description="'The End of the Game': a player with this many achievement tokens ends it")
    market_size: int = Field(5, ge=1, description="'Preparation' 5: cards dealt to the Market")
    farm_size: int = Field(3, ge=0, description="'Preparation' 5 and refresh step 3: cards dealt to the Farm")
    refresh_market_draw: int = Field(2, ge=0, description="refresh step 2: cards drawn into the Market")
    hand_threshold: int = Field(8, ge=1, description="'Preparation' 7: draw until the hand value reaches this (coins)")
    vp_per: int = Field(5, ge=1, description="'Scoring': set value rounded up to a multiple of this; 1 VP each")
    start_player: Literal["lowest_hand", "most_coins", "random"] = Field(
        "lowest_hand",
        description="RULINGS §2 start player: lowest_hand = 'Preparation' 7 (lowest hand value, then fewest cards,"
        " then chance); most_coins = the Traders of Carthage edition (highest hand value, then chance); random",
    )
    max_decisions: int = Field(3000, ge=1, description="RULINGS §1.5: decision cap, the runner's safety cap")


class CardKind(StrictModel):
    value: int = Field(ge=1, le=100)  # the rulebook's cards are worth 2, 3 and 5 coins
    count: int = Field(ge=1)
    insurance: int = Field(ge=0)


class CardData(StrictModel):
    colours: list[str] = Field(min_length=1)
    total_cards: int = Field(ge=1, le=10_000)
    per_colour: list[CardKind] = Field(min_length=1)
    achievement_tokens_per_colour: int = Field(ge=1)

    @model_validator(mode="after")
    def _check(self) -> CardData:
        if len(set(self.colours)) != len(self.colours):
            raise ValueError("colours must be distinct")
        total = len(self.colours) * sum(k.count for k in self.per_colour)
        if total != self.total_cards:
            raise ValueError(f"total_cards is {self.total_cards} but colours x counts give {total}")
        return self


class Space(StrictModel):
    name: str
    kind: Literal["start", "sea", "anchor", "waves", "destination"]


class TrackData(StrictModel):
    spaces: list[Space] = Field(min_length=2)

    @field_validator("spaces")
    @classmethod
    def _check(cls, spaces: list[Space]) -> list[Space]:
        kinds = [s.kind for s in spaces]
        if kinds[0] != "start" or kinds.count("start") != 1:
            raise ValueError("the first space, and only it, must be of kind 'start' (Osaka)")
        if kinds[-1] != "destination" or kinds.count("destination") != 1:
            raise ValueError("the last space, and only it, must be of kind 'destination' (Edo)")
        if kinds.count("anchor") != 1:
            raise ValueError("exactly one space must be of kind 'anchor' (Anori, where sunk ships return)")
        return spaces


class OsakaData(BaseModel):
    """Validated components plus the hashes of the files they came from."""

    cards: CardData
    track: TrackData
    hashes: dict[str, str]


DATA_FILES = {"cards": "cards.yaml", "track": "track.yaml"}


def load_data(paths: dict[str, Path] | None = None) -> OsakaData:
    """Load cards and track from the package or from ``paths`` (keys ``cards``, ``track``).

    Raises ``SimError`` naming the file, line and key for an unknown key or invalid data.
    """
    docs = read_data_files(__package__ + ".data", "Traders of Osaka", DATA_FILES, paths)
    cards = validate(CardData, docs["cards"])
    track = validate(TrackData, docs["track"])
    hashes = data_hashes(docs)
    return OsakaData(cards=cards, track=track, hashes=hashes)
