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
    FACE_ICONS,
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

from .counts import sheet_counts
from .derive import after, single_change
from .evaluator import SheetBase, open_track_ends, supported
from .prune import NONE, QUIET_RAIL, Bounds, area_scores, die_scores, square_scores, usable
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
        if prompt == "first_house":
            return self._best([(a, self.value(a.cell, HOUSE)) for a in legal], rng)
        if obs.left[obs.seat] == 0:  # sheet full: nothing to draw, any die and area
            return sorted(legal, key=canonical)[int(rng.random() * len(legal))]
        bounds = self._pruner()  # exact pruning of house and sheep draws (``prune``): same choices
        if prompt == "square":
            return self._best(self._draw_scores(bounds, legal), rng)
        if prompt == "area":
            if bounds:
                return self._best(area_scores(self, bounds, legal, obs.face), rng)
            return self._best([(a, self.area_value(obs.face, a.colour)) for a in legal], rng)
        if prompt == "die":
            areas = self._legal_areas()
            if bounds:
                die = self._best(die_scores(self, bounds, legal, areas), rng)
            else:
                die = self._best([(a, self.die_value(a.face, areas)) for a in legal], rng)
            return plan_turn(self, die, areas, bounds, rng)
        return self._best([(a, 0.0) for a in legal], rng)

    def _draw_scores(self, bounds, draws) -> list[tuple]:
        """``(Draw, value)`` of the square step (``prune.square_scores`` when bounded)."""
        if bounds:
            return square_scores(self, bounds, draws)
        return [(a, self.value(a.cell, a.icon)) for a in draws]

    def _pruner(self) -> Bounds | bool:
        """The decision point's ``prune.Bounds`` (False when the weights or the evaluator rule it out)."""
        got = self._bounds
        if got is None:
            got = self._bounds = Bounds(self) if usable(self) else False
        return got

    def _legal_areas(self) -> list[int]:
        """``obs.legal_areas()`` (5.2-2, the forced area of 5.4), keeping the squares it lists for
        ``area_value`` (the sheet is not full here)."""
        obs, squares = self.obs, self._squares
        empties = [c for c in range(5) if obs.areas[c] < 0]
        for c in empties:
            if c not in squares:
                squares[c] = obs.squares(c)
        return [c for c in empties if squares[c]] or empties

    def die_value(self, face: int, areas) -> float:
        """Best value of a die showing ``face`` over the colour areas ``areas``."""
        return max(self.area_value(face, c) for c in areas)

    @staticmethod
    def _best(scored, rng):
        top = max(v for _, v in scored)
        best = [a for a, v in scored if v >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        best.sort(key=canonical)
        return best[int(rng.random() * len(best))]

    def area_value(self, face: int, colour: int) -> float:
        """Best draw of ``face`` in ``colour`` (the exceptional solid flower when no square is open)."""
        key = face << 3 | colour  # one int key: cheaper to hash than a tuple
        got = self._area_memo.get(key)
        if got is None:
            got = self._area_memo[key] = self._area_best(face, colour)
        return got

    def _area_best(self, face: int, colour: int) -> float:
        squares = self._squares.get(colour)
        if squares is None:
            squares = self._squares[colour] = self.obs.squares(colour)
        value = self.value
        if not squares:  # exceptional rule 5.4: a solid flower in any empty square
            cells = self.obs.my_cells
            return max(value(c, SOLID) for c in self.obs.board.drawable if not cells[c])
        icons = FACE_ICONS[face]
        counts = self._fast and not self._has_extra  # flowers and quiet rails built in one loop
        if len(icons) == 1:
            icon = icons[0]
            if counts and (icon == SOLID or icon == OUTLINE):
                return self._count_best(squares, icon)
            return max([value(c, icon) for c in squares])
        if not self._fast:
            return max([value(c, i) for c in squares for i in icons])
        base = self._base
        if self._has_extra:
            quiet = base.quiet_rail  # a rail meeting no track scores alike in every orientation
            return max([value(c, icons[0]) if quiet(c) else max([value(c, i) for i in icons]) for c in squares])
        if base.want_open:  # a rail meeting no track scores alike in every orientation, straight or curved
            quiet = base.quiet_rail
            calm = [c for c in squares if quiet(c)]
            got = [value(c, i) for c in squares if not quiet(c) for i in icons]
        else:  # open ends not counted: a rail with an opening facing no house or track links nothing, so it
            # scores as a rail meeting no track (once per square)
            live, calm, got = base.live_sides, [], []
            for c in squares:
                m = live(c)
                if not m:
                    calm.append(c)
                    continue
                linking = [i for i in icons if not i & 15 & ~m]
                if len(linking) < len(icons):
                    calm.append(c)
                got.extend([value(c, i) for i in linking])
        if calm:
            got.append(self._count_best(calm, QUIET_RAIL))
        return max(got)

    def _count_best(self, cells: list[int], icon: int) -> float:
        """``max(value(c, icon) for c in cells)`` for a flower or ``QUIET_RAIL`` (``SheetBase.count_figures``:
        the same figures and values, kept in the value memo, without a ``value`` call each)."""
        figs = self._base.count_figures(cells, icon)
        memo, by_fig, combine, best = self._memo, self._by_fig, self._combine, NONE
        reserve = self._reserve if icon == QUIET_RAIL else 0.0  # as ``value``: flowers keep their squares
        mnext = self._mnext
        for c, fig in zip(cells, figs, strict=True):
            v = by_fig.get(fig)
            if v is None:
                v = by_fig[fig] = combine(fig)
            if reserve:
                v -= reserve * mnext[c]
            memo[c << 5 | icon] = v
            if v > best:
                best = v
        return best

    # ----------------------------------------------------------- evaluation
    def _prepare(self, obs: Observation) -> None:
        """Per decision point: the sheet analysis (kept while the own sheet is unchanged) and the
        majority tables (kept while no sheet changes)."""
        key = (obs.seat, obs.round, obs.cells)
        if key == self._key:
            self.obs = obs
            return
        self._key, self.obs = key, obs
        self._memo, self._area_memo, self._squares = {}, {}, {}
        self._area_lb, self._bounds = {}, None  # ``prune``: areas scored under a bar, the bounds
        me, p = obs.seat, self.p
        mine = obs.my_cells
        rule = obs.ranch_rules[me]
        self._fast = self.shortcuts and supported(rule, obs.ranch_link)
        if self._fast and (me, mine) != self._sheet_key:
            self._base = self._next_base(obs, me, mine)
            self._sheet_key = (me, mine)
        progress = 1.0 - obs.left[me] / len(obs.board.drawable)
        self._pen = p.unpaired_early + (1.0 - p.unpaired_early) * progress
        counts = [sheet_counts(obs, i) for i in range(obs.num_players) if i != me]  # kept across seats
        self._other_flowers = [f for f, _r in counts]
        self._other_res = sorted([r for _f, r in counts], reverse=True)
        self._colour_of: dict = {}
        self._best_others: list[int] | None = None
        self._res_of: dict = {}
        self._by_fig: dict = {}
        self._reserve = p.mountain_reserve
        self._mnext = obs.board.mountains_next

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

    def value(self, cell: int, icon: int) -> float:
        """The plan's value of drawing ``icon`` at ``cell`` on the own sheet now."""
        key = cell << 5 | icon  # icons are below 32: one int key, cheaper to hash than a tuple
        got = self._memo.get(key)
        if got is None:
            fig = self._base.figures(cell, icon) if self._fast else self._full_figures(cell, icon)
            got = self._by_fig.get(fig)
            if got is None:
                got = self._by_fig[fig] = self._combine(fig)
            if self._reserve and icon != SOLID and icon != OUTLINE:
                got -= self._reserve * self._mnext[cell]
            if self._has_extra:
                got += self.extra(cell, icon, fig)
            self._memo[key] = got
        return got

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

    def _colour(self, col: int) -> float:
        got = self._colour_of.get(col)
        if got is None:
            obs, t, p = self.obs, self.obs.tables, self.p
            flowers = list(self._base.flowers if self._fast else obs.sheet_flowers(obs.seat))
            if col >= 0:
                flowers[col] += 1
            got = 0.0
            if obs.colour_table:
                for c in range(5):
                    got += t.band(t.solo_colour, flowers[c])
            else:
                lead, majority = p.colour_lead, t.colour_majority
                for mine, best in zip(flowers, self._best_other(), strict=True):
                    if mine > 0 and mine >= best:
                        got += majority
                    if mine >= best:
                        got += lead * mine
            self._colour_of[col] = got
        return got

    def _best_other(self) -> list[int]:
        """Per colour area, the most flowers any other sheet has (0 without others): once per decision."""
        got = self._best_others
        if got is None:
            others = self._other_flowers
            got = self._best_others = list(map(max, zip(*others, strict=True))) if others else [0] * 5
        return got

    def _resident(self, residents: int) -> float:
        got = self._res_of.get(residents)
        if got is None:
            t = self.obs.tables
            if self.obs.resident_table:
                got = t.band(t.solo_resident, residents)
            else:
                got = resident_estimate(residents, self._other_res, t)
            self._res_of[residents] = got
        return got

    def _combine(self, fig: tuple) -> float:
        houses, sheep, paired, express, alp, col, residents, open_ends, free = fig
        t = self.obs.tables
        w_ranch, w_alpenzian, w_express, w_colour, w_resident, open_track, spare_sheep = self._weights
        unpaired = houses - paired
        ranch = paired * t.ranch_paired + unpaired * t.ranch_unpaired * self._pen
        v = w_ranch * ranch + w_alpenzian * (alp * t.alpenzian_per_flower) + w_express * express
        v += w_colour * self._colour(col)
        v += w_resident * self._resident(residents)
        if open_track:
            v += open_track * open_ends
        if spare_sheep:
            spare = min(3, sheep - paired)
            if spare > 0:
                v += spare_sheep * min(spare, free)
        return v

    def extra(self, cell: int, icon: int, fig: tuple) -> float:
        """Plan-specific terms added to a candidate's value (none here; ``_has_extra`` enables it)."""
        return 0.0


def resident_estimate(mine: int, others_desc: list[int], t) -> float:
    """Resident bonus if the game ended now (section 7 (4) with the tie table)."""
    if not others_desc:
        return float(t.resident_first)
    top = others_desc[0]
    if mine > top:
        return float(t.resident_first)
    if mine == top:
        k = 1 + others_desc.count(top)
        return float(t.resident_first_tie[min(k - 2, len(t.resident_first_tie) - 1)])
    rest = others_desc[1:]
    if others_desc.count(top) > 1:
        return 0.0  # two or more ahead tied for first: second place scores nothing
    second = rest[0] if rest else -1
    if mine > second:
        return float(t.resident_second)
    if mine == second:
        k = 1 + rest.count(second)
        return float(t.resident_second_tie[min(k - 2, len(t.resident_second_tie) - 1)])
    return 0.0
