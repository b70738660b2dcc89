"""Scripted Alpenzian strategies: three plans sharing one evaluator.

Every decision of a turn (die, colour area, square and orientation) is taken by scoring every
complete move still open given the choices already made: the move's value is the seat's sheet
evaluated after drawing the icon (the real scoring of section 7 on the own sheet, with the
majority categories estimated against the other sheets as they stand) plus the plan's
potential terms. The best move wins; ties are broken with the seat's ``rng``. Because the
die, area and square steps score the same moves, a turn follows through on the move chosen
at the die step.

- ``alpenzian.ranch``: sheep first, safe ranches: unpaired houses cost their full -5 from the
  start, spare sheep next to empty squares are worth keeping, houses only where a sheep pairs.
- ``alpenzian.express``: rail-and-house express lines: open track ends leading from a house
  are valued, express sets weigh more, unpaired houses are tolerated early (sheep come later).
- ``alpenzian.flowers``: flowers on mountain edges and colour majorities: the Alpenzian and
  colour bonuses weigh more, outline flowers earn residents, squares beside mountains are kept
  for flowers.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sim.games.alpenzian.actions import (
    FACE_ICONS,
    HOUSE,
    OUTLINE,
    RAIL,
    SHEEP,
    SOLID,
    ChooseArea,
    Draw,
    PlaceFirstHouse,
    TakeDie,
)
from sim.games.alpenzian.observation import Observation, fast_matching, rail_links, ranch_graph
from strategies.common import ScriptedStrategy


class PlanParams(BaseModel):
    """Weights of the evaluator (points are the rulebook's points; 1.0 counts them as they are)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    w_ranch: float = Field(1.0, description="weight of the ranch bonus (points)")
    unpaired_early: float = Field(1.0, ge=0, description="share of the -5 of an unpaired house counted at the "
                                  "start of the game (grows linearly to 1 as the sheet fills), unitless")
    w_alpenzian: float = Field(1.0, description="weight of the Alpenzian bonus (points)")
    w_express: float = Field(1.0, description="weight of the express bonus (points)")
    w_colour: float = Field(1.0, description="weight of the estimated colour-area bonus (points)")
    w_resident: float = Field(1.0, description="weight of the estimated resident bonus (points)")
    open_track: float = Field(0.0, description="points per rail (up to 2 per track) of a track leading from a "
                              "house to an empty square")
    spare_sheep: float = Field(0.0, description="points per unpaired sheep (up to 3) beside an empty square")
    mountain_reserve: float = Field(0.0, description="points lost per adjacent mountain when a non-flower icon "
                                    "takes a square next to mountains")
    colour_lead: float = Field(0.0, description="points per flower in a colour area where the seat is not "
                               "yet behind (chasing majorities)")


class _Planner(ScriptedStrategy):
    games = ("alpenzian",)
    Params = PlanParams
    shortcuts = True  # rescore only what a move can change (tests compare with False: full rescoring)

    def __init__(self, **params):
        super().__init__(**params)
        self._memo_key = None
        self._memo: dict = {}

    # ----------------------------------------------------------- decisions
    def choose(self, obs: Observation, legal, rng):
        prompt = obs.prompt
        if prompt == "first_house":
            return self._best(obs, [(a, self._value(obs, a.cell, HOUSE)) for a in legal], rng)
        if obs.left[obs.seat] == 0:  # sheet full: nothing to draw, any die and area
            return legal[int(rng.random() * len(legal))]
        if prompt == "square":
            return self._best(obs, [(a, self._value(obs, a.cell, a.icon)) for a in legal], rng)
        if prompt == "area":
            return self._best(obs, [(a, self._best_in_area(obs, obs.face, a.colour)) for a in legal], rng)
        if prompt == "die":
            areas = obs.legal_areas()
            return self._best(obs, [(a, max(self._best_in_area(obs, a.face, c) for c in areas)) for a in legal], rng)
        return legal[0]

    def _best(self, obs, scored, rng):
        top = max(v for _, v in scored)
        best = [a for a, v in scored if v >= top - 1e-9]
        return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]

    def _best_in_area(self, obs: Observation, face: int, colour: int) -> float:
        squares = obs.squares(colour)
        if squares:
            return max(self._value(obs, c, i) for c in squares for i in FACE_ICONS[face])
        # exceptional rule: a solid flower in any empty square
        cells = obs.my_cells
        return max(self._value(obs, c, SOLID) for c in obs.board.drawable if not cells[c])

    # ----------------------------------------------------------- evaluation
    def _value(self, obs: Observation, cell: int, icon: int) -> float:
        key = (obs.seat, obs.cells, obs.round)
        if key != self._memo_key:
            self._memo_key, self._memo = key, {}
            others = [i for i in range(obs.num_players) if i != obs.seat]
            self._other_flowers = [obs.sheet_flowers(i) for i in others]
            self._other_res = sorted((obs.sheet_residents(i) for i in others), reverse=True)
            cells = obs.my_cells
            self._base = obs.sheet_score(obs.seat)
            self._base_links = rail_links(obs.board, cells)
            self._base_open = _open_track_ends(obs.board, cells) if self.p.open_track else 0
        got = self._memo.get((cell, icon))
        if got is None:
            cells = list(obs.my_cells)
            cells[cell] = icon
            got = self._evaluate(obs, cells, cell, icon)
            self._memo[(cell, icon)] = got
        return got

    def _evaluate(self, obs: Observation, cells: list[int], cell: int, icon: int) -> float:
        p = self.p
        me, b, t = obs.seat, obs.board, obs.tables
        base = self._base
        open_ends = self._base_open
        short = self.shortcuts
        if short and (icon == SOLID or icon == OUTLINE):  # flowers change only the flower figures
            houses, sheep, paired, express = base.houses, base.sheep, base.paired, base.express
            alpenzian = base.alpenzian + t.alpenzian_per_flower * b.mountains_next[cell]
            fl = list(base.flowers)
            fl[b.terrain[cell]] += 1
            flowers = fl
            residents = base.residents + (t.resident_outline if icon == OUTLINE else 0)
        elif short and icon == SHEEP:  # the rails are unchanged: only the pairing is recomputed
            houses, sheep, express, alpenzian = base.houses, base.sheep + 1, base.express, base.alpenzian
            hs, sh, adj = ranch_graph(b, cells, obs.ranch_rules[me], obs.ranch_link, self._base_links)
            paired = min(len(hs), len(sh)) if obs.ranch_rules[me] == "beginner1" else fast_matching(adj, len(sh))
            flowers, residents = base.flowers, base.residents
        elif short and icon >= RAIL and not _rail_touches(b, cells, cell, icon):
            # a rail that opens into no house and no rail opening back changes no track
            houses, sheep, paired, express = base.houses, base.sheep, base.paired, base.express
            alpenzian, flowers, residents = base.alpenzian, base.flowers, base.residents
        else:
            sc = obs.sheet_score(me, cells)
            houses, sheep, paired, express = sc.houses, sc.sheep, sc.paired, sc.express
            alpenzian, flowers, residents = sc.alpenzian, sc.flowers, sc.residents
            if p.open_track:
                open_ends = _open_track_ends(b, cells)
        if short and p.open_track and icon < RAIL and icon != HOUSE and _rail_points_at(b, cells, cell):
            open_ends = _open_track_ends(b, cells)  # the icon blocks a track end
        total = len(b.drawable)
        progress = 1.0 - obs.left[me] / total
        pen = p.unpaired_early + (1.0 - p.unpaired_early) * progress
        unpaired = houses - paired
        ranch = paired * t.ranch_paired + unpaired * t.ranch_unpaired * pen
        v = p.w_ranch * ranch + p.w_alpenzian * alpenzian + p.w_express * express
        # majority categories against the other sheets as they stand
        other_flowers = self._other_flowers
        colour = 0.0
        for c in range(5):
            mine = flowers[c]
            if obs.colour_table:
                colour += t.band(t.solo_colour, mine)
                continue
            best = max((f[c] for f in other_flowers), default=0)
            if mine > 0 and mine >= best:
                colour += t.colour_majority
            if mine >= best:
                colour += p.colour_lead * mine
        v += p.w_colour * colour
        if obs.resident_table:
            res = t.band(t.solo_resident, residents)
        else:
            res = _resident_estimate(residents, self._other_res, t)
        v += p.w_resident * res
        nbr = b.nbr
        if p.open_track:
            v += p.open_track * open_ends
        if p.spare_sheep:
            spare = min(3, sheep - paired)
            if spare > 0:
                free = sum(1 for s in range(len(cells)) if cells[s] == SHEEP
                           and any(j >= 0 and b.terrain[j] < 5 and not cells[j] for j in nbr[s]))
                v += p.spare_sheep * min(spare, free)
        if p.mountain_reserve and icon != SOLID and icon != OUTLINE:
            v -= p.mountain_reserve * b.mountains_next[cell]
        return v


def _resident_estimate(mine: int, others_desc: list[int], t) -> float:
    """Resident bonus if the game ended now (section 7 (4) with the tie table)."""
    if not others_desc:
        return float(t.resident_first)
    top = others_desc[0]
    if mine > top:
        return float(t.resident_first)
    if mine == top:
        k = 1 + others_desc.count(top)
        return float(t.resident_first_tie[min(k - 2, len(t.resident_first_tie) - 1)])
    rest = [r for r in others_desc[1:]]
    if others_desc.count(top) > 1:
        return 0.0  # two or more ahead tied for first: second place scores nothing
    second = rest[0] if rest else -1
    if mine > second:
        return float(t.resident_second)
    if mine == second:
        k = 1 + rest.count(second)
        return float(t.resident_second_tie[min(k - 2, len(t.resident_second_tie) - 1)])
    return 0.0


def _rail_touches(b, cells, cell: int, icon: int) -> bool:
    """Whether the rail ``icon`` at ``cell`` can change a track: it opens into a house, or a
    neighbouring rail opens into ``cell`` (the new rail extends that track or closes its end)."""
    nbr = b.nbr[cell]
    for k in range(4):
        j = nbr[k]
        if j < 0:
            continue
        v = cells[j]
        if v == HOUSE and icon & (1 << k):
            return True
        if v >= RAIL and v & (1 << ((k + 2) & 3)):
            return True
    return False


def _rail_points_at(b, cells, cell: int) -> bool:
    """Whether a neighbouring rail opens into ``cell``."""
    nbr = b.nbr[cell]
    for k in range(4):
        j = nbr[k]
        if j >= 0 and cells[j] >= RAIL and cells[j] & (1 << ((k + 2) & 3)):
            return True
    return False


def _open_track_ends(b, cells) -> int:
    """Tracks leaving a house whose far end opens into an empty drawable square, each counted
    by its rails up to 2 (the rails an express link needs)."""
    nbr, terrain = b.nbr, b.terrain
    count = 0
    for h, v in enumerate(cells):
        if v != HOUSE:
            continue
        for k in range(4):
            c = nbr[h][k]
            if c < 0:
                continue
            back = 1 << ((k + 2) & 3)
            m = cells[c]
            if m < RAIL or not m & back:
                continue
            length = 1
            for _ in range(len(cells)):
                k2 = (m & 15 & ~back).bit_length() - 1
                nxt = nbr[c][k2]
                if nxt < 0:
                    break
                v2 = cells[nxt]
                if v2 == 0:
                    if terrain[nxt] < 5:
                        count += min(length, 2)
                    break
                back = 1 << ((k2 + 2) & 3)
                if v2 < RAIL or not v2 & back:
                    break
                c, m = nxt, v2
                length += 1
    return count


class RanchStrategy(_Planner):
    """Sheep first and safe ranches. Params (``PlanParams``): defaults count an unpaired house's -5
    in full from the start, value up to 3 spare sheep beside empty squares at 1.5 points each."""

    class Params(PlanParams):
        unpaired_early: float = 1.0
        spare_sheep: float = 1.5
        w_express: float = 0.8


class ExpressStrategy(_Planner):
    """Rail-and-house express lines. Params (``PlanParams``): defaults value a track leading from
    a house to an empty square at 2 points per rail (up to 2 rails), weigh the express bonus 1.5,
    and count only 30% of an unpaired house's -5 early in the game."""

    class Params(PlanParams):
        unpaired_early: float = 0.3
        open_track: float = 2.0
        w_express: float = 1.5
        spare_sheep: float = 0.5


class FlowerStrategy(_Planner):
    """Flowers on mountain edges and colour majorities. Params (``PlanParams``): defaults weigh the
    Alpenzian bonus 1.5 and the colour bonus 1.5, add 0.3 points per flower where the seat leads
    a colour, and keep squares beside mountains for flowers (1 point per mountain)."""

    class Params(PlanParams):
        w_alpenzian: float = 1.5
        w_colour: float = 1.5
        colour_lead: float = 0.3
        mountain_reserve: float = 1.0
        spare_sheep: float = 0.3


STRATEGIES = {
    "alpenzian.ranch": RanchStrategy,
    "alpenzian.express": ExpressStrategy,
    "alpenzian.flowers": FlowerStrategy,
}

__all__ = ["STRATEGIES", "RanchStrategy", "ExpressStrategy", "FlowerStrategy", "PlanParams",
           "ChooseArea", "Draw", "PlaceFirstHouse", "TakeDie"]
