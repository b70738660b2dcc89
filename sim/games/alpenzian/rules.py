"""Alpenzian rule options and component data (rulebook seeds/001, RULINGS §1 and §5).

Options default to the rulebook's rules (and to RULINGS where the book is open). Data
(the five sheets and the scoring tables) is read from ``data/*.yaml`` or a designer's
replacement named in a config, and validated at load.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sim.api import BaseOptions, OptionError, StrictModel
from sim.data import data_hashes, read_data_files, validate

from .actions import FACE_NAMES
from .scoring import MOUNTAIN, RANCH_RULES, TERRAIN_CHARS, Board, Tables

RanchRule = Literal["normal", "beginner1", "beginner2"]


class Options(BaseOptions):
    """Rule options (defaults: the rulebook; RULINGS §5 where the book is open)."""

    max_decisions: int = Field(5000, ge=1, description="decision cap (RULINGS §1.5); a 5-player game needs about 520")
    sheet: str | list[str] = Field(
        "A", json_schema_extra={"allowed": "a sheet type of the sheets data file ('A'-'E' as shipped) or 'random',"
                                           " or a list of one type per seat"},
        description="setup 1: one sheet type for everyone ('A'-'E', or 'random': one type drawn at setup), "
        "or one type per seat (10-2 mixed sheets)")
    ranch_rule: RanchRule | list[RanchRule] = Field(
        "normal", description="section 8: 'normal', 'beginner1' or 'beginner2', for everyone or one per seat",
        json_schema_extra={"allowed": "one of 'normal', 'beginner1', 'beginner2', or a list of them, one per seat"})
    ranch_link: Literal["rulings", "merged"] = Field(
        "rulings", description="7 (1) method 3: 'rulings' (RULINGS §5: village and flock joined by method 1/2 "
        "between their squares) or 'merged' (villages and rail-joined houses form one group first)")
    colour_scoring: Literal["auto", "majority", "table"] = Field(
        "auto", description="7 (2) majority, or the 9-1 table; 'auto': table with one player (9-1), majority otherwise")
    resident_scoring: Literal["auto", "majority", "table"] = Field(
        "auto", description="7 (4) majority, or the 9-1 table; 'auto': table with one player (9-1), majority otherwise")
    pioneer_town: bool = Field(False, description="9-2 Pioneer Town (one-player special rule): first house on any "
                               "blue square, drawing restricted to the gate / first house / same-colour neighbours")
    pioneer_exception_restricted: bool = Field(
        False, description="Pioneer Town: the exceptional solid flower (5.4) must also meet the 9-2 square "
        "conditions when some empty square does (ruling: no, any empty square, as 5.4 says)")
    first_house_outline: Literal["choose", "reroll"] = Field(
        "choose", description="setup 4: an outline flower lets the player choose any listed square ('choose'), "
        "or is rolled again (Note 2, 'reroll')")
    first_house_distinct: bool = Field(
        False, description="setup 4 Note 1: roll again when the square is already another player's first house "
        "(same sheet type)")
    express_min_rails: int = Field(2, ge=1, description="7 (5): rails needed between two linked houses")
    express_beyond: Literal["extend", "cap"] = Field(
        "extend", description="7 (5) and RULINGS §5 ('larger sets extend the table, option'): sets of 7+ houses "
        "'extend' the table (differences grow by 1: 39, 49, ...) or 'cap' at 30")

    @field_validator("sheet", mode="before")
    @classmethod
    def _sheet(cls, v):
        # the sheet names come from the data file: their values are checked when the game is built (per_seat)
        if isinstance(v, list) and not v:
            raise ValueError("give one sheet type per seat")
        if not isinstance(v, str) and not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
            raise ValueError("a sheet type ('A'-'E', or 'random') or a list of one per seat")
        return v

    @field_validator("ranch_rule", mode="before")
    @classmethod
    def _rule(cls, v):
        # checked here, once per mistake (pydantic would report each member of the union)
        if isinstance(v, list) and not v:
            raise ValueError("give one ranch rule per seat")
        for x in v if isinstance(v, list) else [v]:
            if x not in RANCH_RULES:
                raise ValueError(f"unknown ranch rule {x!r}{_did_you_mean(x, RANCH_RULES)}; allowed: "
                                 f"{', '.join(RANCH_RULES)}, or a list of one per seat")
        return v


# ------------------------------------------------------------------ data
class SheetSpec(StrictModel):
    name: str = Field(min_length=1)
    rows: list[str] = Field(min_length=1)
    first_house: dict[str, tuple[int, int]]

    @model_validator(mode="after")
    def _check(self) -> SheetSpec:
        rows = [r.replace(" ", "") for r in self.rows]
        if len({len(r) for r in rows}) != 1:
            raise ValueError(f"sheet {self.name}: rows must all have the same length")
        bad = sorted({ch for r in rows for ch in r} - set(TERRAIN_CHARS))
        if bad:
            raise ValueError(f"sheet {self.name}: unknown square letters {bad}; use {''.join(TERRAIN_CHARS)}")
        text = "".join(rows)
        if text.count("X") != 1:
            raise ValueError(f"sheet {self.name}: needs exactly one gate (X)")
        if "M" not in text:
            raise ValueError(f"sheet {self.name}: needs at least one mountain (M)")
        for ch in "BRYPG":
            if ch not in text:
                raise ValueError(f"sheet {self.name}: no square of colour {ch}")
        listed = list(FACE_NAMES[:5])
        if sorted(self.first_house) != sorted(listed):
            raise ValueError(f"sheet {self.name}: first_house must list exactly the faces {listed}")
        for face, (r, c) in self.first_house.items():
            if not (0 <= r < len(rows) and 0 <= c < len(rows[0])):
                raise ValueError(f"sheet {self.name}: first_house {face} at {[r, c]} is off the sheet")
            if TERRAIN_CHARS[rows[r][c]] >= MOUNTAIN:
                raise ValueError(f"sheet {self.name}: first_house {face} at {[r, c]} is not a drawable square")
        return self

    def board(self) -> Board:
        rows = [r.replace(" ", "") for r in self.rows]
        w = len(rows[0])
        fh = tuple(self.first_house[f][0] * w + self.first_house[f][1] for f in FACE_NAMES[:5])
        return Board.from_rows(self.name, rows, fh)


class SheetsData(StrictModel):
    colour_areas: int = Field(5, ge=5, le=5)
    sheets: list[SheetSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> SheetsData:
        names = [s.name for s in self.sheets]
        if len(set(names)) != len(names):
            raise ValueError("sheet names must be distinct")
        counts = {s.name: len(s.board().drawable) for s in self.sheets}
        if len(set(counts.values())) != 1:
            raise ValueError(f"every sheet must hold the same number of drawable squares, got {counts}")
        k = next(iter(counts.values()))
        if k % self.colour_areas:
            raise ValueError(f"drawable squares per sheet ({k}) must be a multiple of {self.colour_areas}")
        return self


class ScoringData(StrictModel):
    dice: int = Field(ge=5, description="dice rolled each round (at least one per colour area)")
    ranch_paired: int
    ranch_unpaired: int
    colour_majority: int
    alpenzian_per_flower: int
    resident_house: int
    resident_outline: int
    resident_first: int
    resident_second: int
    resident_first_tie: dict[int, int]
    resident_second_tie: dict[int, int]
    express: dict[int, int]
    solo_colour: dict[int, int]
    solo_resident: dict[int, int]
    titles: dict[int, str]

    @model_validator(mode="after")
    def _check(self) -> ScoringData:
        if sorted(self.resident_first_tie) != list(range(2, 2 + len(self.resident_first_tie))):
            raise ValueError("resident_first_tie keys must be 2, 3, ... without gaps")
        if sorted(self.resident_second_tie) != list(range(2, 2 + len(self.resident_second_tie))):
            raise ValueError("resident_second_tie keys must be 2, 3, ... without gaps")
        if sorted(self.express) != list(range(2, 2 + len(self.express))):
            raise ValueError("express keys (houses in a set) must be 2, 3, ... without gaps")
        for key in ("solo_colour", "solo_resident", "titles"):
            if min(getattr(self, key)) != 0:
                raise ValueError(f"{key} must start at 0")
        return self

    def tables(self, express_min_rails: int = 2, express_beyond: str = "extend") -> Tables:
        srt = sorted
        return Tables(
            self.ranch_paired, self.ranch_unpaired, self.colour_majority, self.alpenzian_per_flower,
            self.resident_house, self.resident_outline, self.resident_first, self.resident_second,
            tuple(self.resident_first_tie[k] for k in srt(self.resident_first_tie)),
            tuple(self.resident_second_tie[k] for k in srt(self.resident_second_tie)),
            tuple(self.express[k] for k in srt(self.express)), express_beyond, express_min_rails,
            tuple((k, self.solo_colour[k]) for k in srt(self.solo_colour)),
            tuple((k, self.solo_resident[k]) for k in srt(self.solo_resident)),
            tuple((k, self.titles[k]) for k in srt(self.titles)),
        )


class AlpenzianData(BaseModel):
    """Validated components plus the hashes of the files they came from."""

    sheets: SheetsData
    scoring: ScoringData
    hashes: dict[str, str]


DATA_FILES = {"sheets": "sheets.yaml", "scoring": "scoring.yaml"}


def load_data(paths: dict[str, Path] | None = None) -> AlpenzianData:
    """Load sheets and scoring tables from the package or from ``paths`` (keys ``sheets``, ``scoring``).

    Raises ``SimError`` naming the file, line and key for an unknown key or invalid data.
    """
    docs = read_data_files(__package__ + ".data", "Alpenzian", DATA_FILES, paths)
    sheets = validate(SheetsData, docs["sheets"])
    scoring = validate(ScoringData, docs["scoring"])
    hashes = data_hashes(docs)
    return AlpenzianData(sheets=sheets, scoring=scoring, hashes=hashes)


def _did_you_mean(word, choices) -> str:
    """`` (did you mean 'A'?)``: the choice equal but for case, else the closest (difflib), else ""."""
    text = str(word)
    same = [c for c in choices if c.lower() == text.lower()]
    close = same or difflib.get_close_matches(text, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def per_seat(value, n: int, what: str, allowed, whole: tuple[str, ...] = ()) -> list:
    """One value per seat from a single value or a list of ``n``; ``OptionError`` naming option
    ``what`` otherwise. ``whole``: values also allowed for everyone at once (``random``), listed in the error."""
    values = list(value) if isinstance(value, list) else [value] * n
    if len(values) != n:
        raise OptionError(what, f"give one value or {n} (one per seat), got {len(values)}")
    also = f", or {' or '.join(whole)} for everyone" if whole else ""
    for v in values:
        if v not in allowed:
            hint = _did_you_mean(v, tuple(allowed) + (() if isinstance(value, list) else whole))
            raise OptionError(what, f"unknown value {v!r}{hint}; allowed: {', '.join(allowed)}{also}"
                                    f" (or a list of {n}, one per seat)")
    return values


__all__ = ["Options", "AlpenzianData", "load_data", "per_seat", "RANCH_RULES"]
