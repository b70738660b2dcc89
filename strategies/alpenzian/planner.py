"""The evaluator shared by the Alpenzian plans (rulebook section 7; strategies see only observations).

Every decision of a turn (die, colour area, square and orientation) is taken by scoring every
complete move still open given the choices already made: the move's value is the seat's sheet
evaluated after drawing the icon (the real scoring of section 7 on the own sheet, with the
majority categories estimated against the other sheets as they stand) plus the plan's
potential terms. The best move wins; ties are broken with the seat's ``rng`` over the tie set
in a fixed order (never the order of ``legal``). The die, area and square steps score the same
moves, so a turn follows through on the move chosen at the die step; the die step takes the
area and square choices too, as those steps would (``turn``: same tie sets, same ``rng`` draws).

Speed: the own sheet is analysed once per sheet state (``evaluator.SheetBase``) and each
candidate is scored incrementally; the majority estimates are tabulated once per decision
point (the other sheets' best colour counts once, the values by figures tuple), the memo keys
are ints and the weights are read once per game; house and sheep candidates that provably cannot
be the best nor tie with it are not scored (``prune``), and a rail meeting no track is scored once
per square (``QUIET_RAIL``). ``shortcuts = False`` rescores the whole sheet for every candidate (the reference the
tests compare with).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sim.games.alpenzian.actions import (
    CURVED_ICONS,
    HOUSE,
    OUTLINE,
    SHEEP,
    SOLID,
    STRAIGHT_ICONS,
    ChooseArea,
    Draw,
    PlaceFirstHouse,
    TakeDie,
)
from sim.games.alpenzian.observation import Observation
from strategies.common import ScriptedStrategy

from .counts import other_counts
from .derive import after, single_change
from .evaluator import SheetBase, open_track_ends, supported
from .point import NONE, Point
from .prune import Bounds, area_scores, die_scores, square_scores, usable
from .turn import plan_turn, replay

ICON_RANK = {icon: k for k, icon in enumerate((HOUSE, SHEEP, *STRAIGHT_ICONS, *CURVED_ICONS, SOLID, OUTLINE))}


def canonical(a) -> tuple:
    """A fixed order of actions (die face, colour, square then icon) for the tie set."""
    if isinstance(a, Draw):
        return (a.cell, ICON_RANK[a.icon])
    if isinstance(a, TakeDie):
        return (a.face,)
    if isinstance(a, ChooseArea):
        return (a.colour,)
    if isinstance(a, PlaceFirstHouse):
        return (a.cell,)
    return (repr(a),)


class PlanParams(BaseModel):
    """Weights of the evaluator (points are the rulebook's points; 1.0 counts them as they are)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # .nan/.inf: config errors
    w_ranch: float = Field(1.0, description="weight of the ranch bonus (points)")
    unpaired_early: float = Field(1.0, ge=0, description="share of the -5 of an unpaired house counted at the "
                                  "start of the game (grows linearly to 1 as the sheet fills), unitless")
    w_alpenzian: float = Field(1.0, description="weight of the Alpenzian bonus (points)")
    w_colour: float = Field(1.0, description="weight of the estimated colour-area bonus (points)")
    w_resident: float = Field(1.0, description="weight of the estimated resident bonus (points)")
    open_track: float = Field(0.0, description="points per rail (up to 2 per track) of a track leading from a "
                              "house to an empty square")
    spare_sheep: float = Field(0.0, description="points per unpaired sheep (up to 3) beside an empty square")
    mountain_reserve: float = Field(0.0, description="points lost per adjacent mountain when a non-flower icon "
                                    "takes a square next to mountains")
    colour_lead: float = Field(0.0, description="points per flower in a colour area where the seat is not "
                               "yet behind (chasing majorities)")


class ExpressParams(PlanParams):
    """``PlanParams`` plus the weight of the express bonus (a plan without it counts the bonus as is:
    a plan that never values open tracks never meets a move that completes a link, so the weight
    would change nothing)."""

    w_express: float = Field(1.0, description="weight of the express bonus (points)")


class Planner(ScriptedStrategy):
    """Base of the plans: ``choose`` scores candidate draws with ``value(cell, icon)``."""

    games = ("alpenzian",)
    Params = PlanParams
    shortcuts = True  # False: rescore the whole sheet for every candidate (reference for the tests)
    _has_extra = False  # subclasses with an ``extra`` term set it

    def __init__(self, **params):
        super().__init__(**params)
        self._key = None
        self._sheet_key = None
        self._base = None  # the sheet analysis (``evaluator.SheetBase``) of ``_sheet_key``
        self._plan = None  # (seat, round, turn, face, colour, Draw or None): ``turn.plan_turn``
        # the weights, read once: a pydantic attribute read (and a missing ``w_express``) is slow
        p = self.p
        self._weights = (p.w_ranch, p.w_alpenzian, getattr(p, "w_express", 1.0), p.w_colour, p.w_resident,
                         p.open_track, p.spare_sheep)

    # ----------------------------------------------------------- decisions
    def choose(self, obs: Observation, legal, rng):
        prompt = obs.prompt
        if self._plan is not None and prompt != "die":
            got = replay(self, obs, legal)
            if got is not None:
                return got
        self._prepare(obs)
        pt = self._pt
        if prompt == "first_house":
            return self._best([(a, pt.value(a.cell, HOUSE)) for a in legal], rng)
        if obs.left[obs.seat] == 0:  # sheet full: nothing to draw, any die and area
            return sorted(legal, key=canonical)[int(rng.random() * len(legal))]
        bounds = self._pruner()  # exact pruning of house and sheep draws (``prune``): same choices
        if prompt == "square":
            return self._best(self._draw_scores(bounds, legal), rng)
        if prompt == "area":
            if bounds:
                return self._best(area_scores(pt, bounds, legal, obs.face), rng)
            return self._best([(a, pt.area_value(obs.face, a.colour)) for a in legal], rng)
        if prompt == "die":
            areas = self._legal_areas()
            if bounds:
                die = self._best(die_scores(pt, bounds, legal, areas), rng)
            else:
                die = self._best([(a, self.die_value(a.face, areas)) for a in legal], rng)
            return plan_turn(self, die, areas, bounds, rng)
        return self._best([(a, 0.0) for a in legal], rng)

    def _draw_scores(self, bounds, draws) -> list[tuple]:
        """``(Draw, value)`` of the square step (``prune.square_scores`` when bounded)."""
        if bounds:
            return square_scores(self._pt, bounds, draws)
        value = self._pt.value
        return [(a, value(a.cell, a.icon)) for a in draws]

    def _pruner(self) -> Bounds | bool:
        """The decision point's ``prune.Bounds`` (False when the weights or the evaluator rule it out)."""
        got = self._bounds
        if got is None:
            pt = self._pt
            got = self._bounds = Bounds(pt) if usable(pt) else False
        return got

    def _legal_areas(self) -> list[int]:
        """``obs.legal_areas()`` (5.2-2, the forced area of 5.4), keeping the squares it lists for
        ``area_value`` (the sheet is not full here)."""
        obs, squares = self.obs, self._pt.squares
        empties = [c for c in range(5) if obs.areas[c] < 0]
        missing = [c for c in empties if c not in squares]
        if missing:
            squares.update(obs.squares_of(missing))
        return [c for c in empties if squares[c]] or empties

    def die_value(self, face: int, areas) -> float:
        """Best value of a die showing ``face`` over the colour areas ``areas``."""
        area_value = self._pt.area_value
        return max(area_value(face, c) for c in areas)

    @staticmethod
    def _best(scored, rng):
        top = NONE  # ``max`` of the values as a loop (no generator when compiled)
        for _a, v in scored:
            if v > top:
                top = v
        best = [a for a, v in scored if v >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        best.sort(key=canonical)
        return best[int(rng.random() * len(best))]

    def area_value(self, face: int, colour: int) -> float:
        """Best draw of ``face`` in ``colour`` (``point.Point.area_value`` of this decision point)."""
        return self._pt.area_value(face, colour)

    def value(self, cell: int, icon: int) -> float:
        """The plan's value of drawing ``icon`` at ``cell`` on the own sheet now (``point.Point.value``)."""
        return self._pt.value(cell, icon)

    # ----------------------------------------------------------- evaluation
    def _prepare(self, obs: Observation) -> None:
        """Per decision point: the sheet analysis (kept while the own sheet is unchanged) and the
        decision point's values (``point.Point``: kept while no sheet changes)."""
        key = (obs.seat, obs.round, obs.cells)
        if key == self._key:
            self.obs = self._pt.obs = obs
            return
        self._key, self.obs = key, obs
        self._bounds = None  # ``prune``: the bounds
        me, p = obs.seat, self.p
        mine = obs.my_cells
        fast = self._fast = self.shortcuts and supported(obs.ranch_rules[me], obs.ranch_link)
        if fast and (me, mine) != self._sheet_key:
            self._base = self._next_base(obs, me, mine)
            self._sheet_key = (me, mine)
        progress = 1.0 - obs.left[me] / len(obs.board.drawable)
        pen = p.unpaired_early + (1.0 - p.unpaired_early) * progress
        flowers, residents = other_counts(obs, me)  # kept across seats
        self._pt = Point(self, obs, self._base if fast else None, fast, pen, flowers, residents)

    def _next_base(self, obs: Observation, me: int, mine: tuple) -> SheetBase:
        """The sheet analysis of ``mine``: derived from the last one when the sheet differs from it by
        one draw that ``derive.after`` handles (a flower, or a rail changing no link), else afresh."""
        old = self._sheet_key
        if old is not None and old[0] == me:
            x = single_change(old[1], mine)
            if x >= 0 and not old[1][x]:
                got = after(self._base, mine, x, mine[x])
                if got is not None:
                    return got
        return SheetBase(obs.board, mine, obs.tables, obs.ranch_rules[me], obs.ranch_link, bool(self.p.open_track))

    def _full_figures(self, cell: int, icon: int) -> tuple:
        obs = self.obs
        cells = list(obs.my_cells)
        cells[cell] = icon
        b = obs.board
        sc = obs.sheet_score(obs.seat, cells)
        col = b.terrain[cell] if icon == SOLID or icon == OUTLINE else -1
        free = sum(1 for s in range(len(cells)) if cells[s] == SHEEP
                   and any(j >= 0 and b.terrain[j] < 5 and not cells[j] for j in b.nbr[s]))
        op = open_track_ends(b, cells) if self.p.open_track else 0
        alp = sum(b.mountains_next[i] for i, v in enumerate(cells) if v == SOLID or v == OUTLINE)
        return (sc.houses, sc.sheep, sc.paired, sc.express, alp, col, sc.residents, op, free)

    def extra(self, cell: int, icon: int, fig: tuple) -> float:
        """Plan-specific terms added to a candidate's value (none here; ``_has_extra`` enables it)."""
        return 0.0

