"""Exact pruning of the plans' house and sheep candidates (issue 20 item 2, round five).

A decision of ``planner.Planner`` picks the best of its candidates and breaks ties (values within
1e-9 of the best) with the seat's ``rng``. A candidate whose **upper bound** lies more than
``MARGIN`` (1e-6) below a value already found cannot be the best nor tie with it, so it need not be
scored: the choice, the tie set and the ``rng`` draws stay exactly those of scoring every candidate.

``Bounds`` bounds a house or sheep draw (the costly candidates: their pairs need a matching) from
the sheet analysis (``evaluator.SheetBase``) without matching: every figure of section 7 is exact
except the pairs. A maximum matching grows by at most the number of vertices whose edges change,
so the pairs after a house gain at most one per house of the new house's unit (itself, the villages
it joins and those of the rail groups its tracks link) and never more than the unpaired sheep (a
sheep likewise, by its flock); session 7 found the first version's "one more pair at most" wrong
when a house joins a village or rail group that gains new sheep (or a sheep a flock); the open track
ends after a house count at most 2 per rail opening into its square (``tracks.OPEN_RAILS``). Used
only when the weights make the value grow with the pairs and the open ends (``usable``).

``die_scores``, ``area_scores`` and ``square_scores`` give the values of a decision's legal actions:
exact for every action that can be the best or tie with it, and below the tie threshold (a lower
value found, or ``-inf``) for the others. The die step bounds every (face, area) first
(``Bounds.area``: flowers and rails meeting no track from the sheet's figures, houses and sheep from
their squares' bounds) and scores them best bound first, stopping at the first bound below the best
found (session 7); an area scored under a bar keeps the bar it was scored under, and a later step
reuses it only under a bar at least as high.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush

from sim.games.alpenzian.actions import F_HOUSE, F_SHEEP, F_SOLID, HOUSE, OUTLINE, RAIL, SHEEP, SOLID

from .point import NONE, QUIET_RAIL, Point
from .tracks import OPEN_RAILS

MARGIN = 1e-6  # well above the 1e-9 of the tie set and any rounding of the sums
INF = float("inf")
FACE_ORDER = (4, 5, 2, 3, 1, 0)  # rank of each face in the die step: flowers, rails, sheep, houses last
PRUNED = {F_HOUSE: HOUSE, F_SHEEP: SHEEP}


def usable(pt: Point) -> bool:
    """Whether ``Bounds`` bounds the values of a plan's decision point ``pt`` (``point.Point``): the
    incremental evaluator, no ``extra`` term, and weights under which the value grows with the pairs
    (``w_ranch`` >= 0, paired >= 0 >= unpaired points) and with the open ends and spare sheep counted
    (``open_track``, ``spare_sheep`` >= 0)."""
    if not pt.fast or pt.has_extra:
        return False
    t = pt.t
    return pt.w_ranch >= 0 and pt.ot >= 0 and pt.ss >= 0 and t.ranch_paired >= 0 >= t.ranch_unpaired


class Bounds:
    """Upper bounds of ``pt.value(cell, HOUSE)`` and ``pt.value(cell, SHEEP)`` at one decision point ``pt``.

    The terms shared by every house (or sheep) candidate are summed once: ``house0`` (``sheep0``) with
    the pairs, the express and the open track ends as they are; a candidate adds what its square
    changes (``pair`` per pair it may gain).
    """

    def __init__(self, pt: Point):
        self._setup(pt)

    def _setup(self, pt: Point) -> None:
        """``__init__``'s work (a C method when compiled, ``pt`` typed: ``prune.pxd``)."""
        b, t = pt.base, pt.t
        self.b, self.mnext = b, b.board.mountains_next
        w_ranch, w_alp, w_x, w_col, w_res, self.ot, ss = pt.w_ranch, pt.w_alp, pt.w_x, pt.w_col, pt.w_res, pt.ot, pt.ss
        self.w_x, self.reserve = w_x, pt.reserve
        rp, ru = t.ranch_paired, t.ranch_unpaired * pt.pen
        h, s, p = b.houses, b.sheep, b.paired
        common = w_alp * (b.alp * t.alpenzian_per_flower) + w_col * pt.colour(-1) + w_x * b.express + \
            self.ot * b.open
        k_house = common + w_res * pt.resident(b.residents + t.resident_house)
        k_sheep = common + w_res * pt.resident(b.residents)
        if b.rule == "beginner1":  # min(houses, sheep) pairs, wherever the icon goes
            ph, ps, self.up_house, self.up_sheep = min(h + 1, s), min(h, s + 1), 0, 0
        else:  # pairs as they are, plus at most what the draw's units can gain (``_gain``)
            ph, ps, self.up_house, self.up_sheep = p, p, s - p, h - p
        self.house0 = w_ranch * (rp * ph + ru * (h + 1 - ph)) + k_house
        self.sheep0 = w_ranch * (rp * ps + ru * (h - ps)) + k_sheep
        self.pair = w_ranch * (rp - ru)  # the value of one more pair
        self.ss = ss
        self.spare_house, self.spare_sheep = min(3, s - p) if ss else 0, min(3, s + 1 - p) if ss else 0
        self.house_joins, self.sheep_joins = b.joins()
        self.pt = pt
        self._tops: dict[int, float] = {}  # ``coarse``: per face
        # a flower's value grows with the Alpenzian contacts (and, as every candidate's, with the open ends
        # and free sheep): bounded by the most mountains beside any square of its area (``area``)
        self.alp_up = w_alp * t.alpenzian_per_flower >= 0

    def _ctx(self, cell: int) -> tuple:
        b = self.b
        ctx = b._ctx.get(cell)
        if ctx is None:
            ctx = b._ctx[cell] = b._context(cell)
        return ctx

    def _houses_gaining(self, cell: int, arr) -> int:
        """How many houses may pair anew after a house at ``cell``: itself and every house of the villages
        whose reach it widens (those beside it, and those of the rail groups its arriving tracks join).
        A matching grows by at most the number of vertices whose edges change, so this bounds the gain."""
        b = self.b
        village, cells = b.village, b.cells
        vs = {village[j] for j in b.board.nbr[cell] if j >= 0 and cells[j] == HOUSE} if b.normal else set()
        if arr:
            gh, group = b.group_houses, b.group
            for _s, _n, e in arr:
                vs.update([village[x] for x in gh[group[e]]])
        vh = b.village_houses
        return 1 + sum([len(vh[v]) for v in vs])

    def _sheep_gaining(self, cell: int) -> int:
        """How many sheep may pair anew after a sheep at ``cell``: itself and the sheep of the flocks it
        joins (section 7 (1)); the bound of the gain, as ``_houses_gaining``."""
        b = self.b
        if not b.normal:
            return 1
        flock, cells, fs = b.flock, b.cells, b.flock_sheep
        return 1 + sum([len(fs[f]) for f in {flock[j] for j in b.board.nbr[cell] if j >= 0 and cells[j] == SHEEP}])

    def house(self, cell: int) -> float:
        b = self.b
        arr = b.arriving.get(cell)
        v = self.house0
        if self.up_house and (arr or cell in self.house_joins):
            v += self.pair * min(self.up_house, self._houses_gaining(cell, arr))
        if arr:
            v += self.w_x * (b._express_join([(e, n) for _s, n, e in arr]) - b.express)
        if self.ot and cell in b.rail_in:
            v += self.ot * self._open(cell, arr)
        if self.spare_house > 0:
            v += self.ss * min(self.spare_house, self._ctx(cell)[0])
        return v - self.reserve * self.mnext[cell]

    def _open(self, cell: int, arr) -> int:
        """At most the change of the open track ends after a house at ``cell`` (a rail opens into it): the
        tracks arriving here close, and one may open along each other rail opening into it."""
        nbr, cells, rails_in = self.b.board.nbr[cell], self.b.cells, 0
        for k in range(4):
            j = nbr[k]
            if j >= 0 and cells[j] >= RAIL and cells[j] & (1 << ((k + 2) & 3)):
                rails_in += 1
        arr = arr or ()
        return OPEN_RAILS * max(0, rails_in - len(arr)) - sum([min(n, OPEN_RAILS) for _s, n, _e in arr])

    def coarse(self, face: int, squares: list[int]) -> float:
        """A looser bound of a house or sheep area than ``area`` (``squares`` not empty): each term of
        ``house`` / ``sheep`` at its most over the sheet (summed once per decision point), less the
        area's least mountain reserve."""
        top = self._tops.get(face)
        if top is None:
            top = self._tops[face] = self._top_house() if face == F_HOUSE else self._top_sheep()
        return top - self._least_reserve(squares)

    def _top_house(self) -> float:
        b, v = self.b, self.house0 + self.pair * self.up_house
        arriving = b.arriving
        w_x, x0, join = self.w_x, b.express, b._express_join
        v += max([w_x * (join([(e, n) for _s, n, e in arr]) - x0) for arr in arriving.values()], default=0.0)
        if self.ot:
            v += self.ot * max([self._open(c, arriving.get(c)) for c in b.rail_in], default=0)
        if self.spare_house > 0:
            v += self.ss * min(self.spare_house, b.free)
        return v

    def _top_sheep(self) -> float:
        v = self.sheep0 + self.pair * self.up_sheep  # the open ends only fall
        if self.spare_sheep > 0:  # free sheep after a sheep: at most one more than now
            v += self.ss * min(self.spare_sheep, self.b.free + 1)
        return v

    def area(self, face: int, squares: list[int]) -> float:
        """An upper bound of ``pt.area_value(face, colour)`` (``squares``: the area's listed squares, not
        empty): the most of the per-square bounds for houses and sheep; for flowers the area's figures
        with the most mountains beside any square, the open ends and free sheep as they are (a flower
        only closes tracks and takes empty squares); for rails the figures of a rail meeting no track
        with the least mountain reserve (and one more open track when a rail there meets one), or
        ``inf`` when a rail there may link houses."""
        if face <= F_SHEEP:  # ``max(map(self.house, squares))`` (or sheep) as a loop: C calls when compiled
            best = NONE
            for c in squares:
                v = self.house(c) if face == F_HOUSE else self.sheep(c)
                if v > best:
                    best = v
            return best
        b = self.b
        if face >= F_SOLID:
            if not self.alp_up:
                return INF
            icon = SOLID if face == F_SOLID else OUTLINE
            res = b.residents + (b.t.resident_outline if icon == OUTLINE else 0)
            mnext, most = self.mnext, -1  # the most mountains beside a square (``max``: a C loop when compiled)
            for c in squares:
                near = mnext[c]
                if near > most:
                    most = near
            fig = (b.houses, b.sheep, b.paired, b.express, b.alp + most, b.board.terrain[squares[0]], res, b.open,
                   b.free)
            return self._value(fig)
        # a rail links houses only where two of its sides face a house or a rail opening into its square;
        # with one such side it links nothing and leaves at most one track open (``OPEN_RAILS``)
        more = 0
        for c in squares:
            m = b.live_sides(c)
            if m:
                if m & (m - 1):
                    return INF
                more = OPEN_RAILS if b.want_open else 0
        fig = (b.houses, b.sheep, b.paired, b.express, b.alp, -1, b.residents, b.open + more, b.free)
        return self._value(fig) - self._least_reserve(squares)

    def _least_reserve(self, squares: list[int]) -> float:
        """The least mountain reserve a non-flower icon pays on ``squares`` (0 without a reserve)."""
        reserve, mnext = self.reserve, self.mnext
        if not reserve:
            return 0.0
        least = INF  # ``min([reserve * mnext[c] for c in squares])`` as a loop (C when compiled; not empty)
        for c in squares:
            v = reserve * mnext[c]
            if v < least:
                least = v
        return least

    def _value(self, fig: tuple) -> float:
        """The plan's value of figures ``fig`` before the mountain reserve (its memo per decision point)."""
        return self.pt.fig_value(fig)

    def sheep(self, cell: int) -> float:
        b = self.b
        v = self.sheep0
        if self.up_sheep and cell in self.sheep_joins:
            v += self.pair * min(self.up_sheep, self._sheep_gaining(cell))
        if self.ot:
            arr = b.arriving.get(cell)
            if arr:  # the tracks arriving here close
                v -= self.ot * sum([min(n, OPEN_RAILS) for _s, n, _e in arr])
        if self.spare_sheep > 0:
            v += self.ss * min(self.spare_sheep, self._ctx(cell)[1])
        return v - self.reserve * self.mnext[cell]


def _area(pt, bounds: Bounds, face: int, colour: int, floor: float) -> float:
    """The best value of ``face`` in ``colour``: exact when it is at least ``floor - MARGIN``, else a
    value below that (and so is the exact one)."""
    if face > F_SHEEP:  # flowers and rails: scored in full
        return pt.area_value(face, colour)
    key = face << 3 | colour
    got = pt.area_memo.get(key)
    if got is not None:
        return got
    icon = PRUNED[face]
    squares = pt.squares.get(colour)
    if squares is None:
        squares = pt.squares[colour] = pt.obs.squares(colour)
    if not squares:
        return pt.area_value(face, colour)
    lb = pt.area_lb.get(key)
    if lb is not None and lb[1] <= floor:
        return lb[0]
    memo, start, best, skipped = pt.memo, floor, NONE, False
    bar = floor - MARGIN
    for c in squares:
        got = memo.get(c << 5 | icon)
        if got is None:
            ub = bounds.house(c) if icon == HOUSE else bounds.sheep(c)
            if ub < bar:
                skipped = True
                continue
            got = pt.value(c, icon)
        v = got  # a float (a C double when compiled: ``prune.pxd``)
        if v > best:
            best = v
            if v > floor:
                floor, bar = v, v - MARGIN
    if skipped:
        pt.area_lb[key] = (best, start)
    else:
        pt.area_memo[key] = best
    return best


def known(pt, face: int, colour: int) -> float:
    """A value of ``face`` in ``colour`` already found at this decision point (exact or under a bar)."""
    key = face << 3 | colour
    v = pt.area_memo.get(key)
    if v is None:
        lb = pt.area_lb.get(key)
        v = NONE if lb is None else lb[0]
    return v


def scores(pt, bounds: Bounds, items, extra=None) -> list[tuple]:
    """``(action, value)`` for ``items`` ``(action, face, colours)``: the action's value is its best
    over ``colours`` of the area value plus ``extra(face, colour)`` (the expert's denial; none for the
    plans). Exact for every action that can be the best or tie with it: the areas are scored best
    bound first (``Bounds.area``) and those whose bound lies below the best found are not scored;
    the bar is seeded with the values already found at this decision point."""
    floor = NONE
    for _a, face, colours in (items if pt.area_memo or pt.area_lb else ()):
        for c in colours:
            v = known(pt, face, c)
            if v > NONE:
                v = v + extra(face, c) if extra else v
                if v > floor:
                    floor = v
    todo = []
    squares = pt.squares
    for k, (_a, face, colours) in enumerate(items):
        for c in colours:
            e = extra(face, c) if extra else 0.0
            cells = squares.get(c)
            if not cells:
                ub, fine = INF, True
            elif face <= F_SHEEP:  # refined by ``area`` when it comes first
                ub, fine = bounds.coarse(face, cells) + e, False
            else:
                ub, fine = bounds.area(face, cells) + e, True
            todo.append((-ub, FACE_ORDER[face], c, k, face, e, fine))
    heapify(todo)
    val = [NONE] * len(items)
    while todo:
        ub, rank, c, k, face, e, fine = heappop(todo)
        if -ub < floor - MARGIN:  # this area and every later one: below the best found
            break
        if not fine:
            heappush(todo, (-(bounds.area(face, squares[c]) + e), rank, c, k, face, e, True))
            continue
        v = _area(pt, bounds, face, c, floor - e) + e
        if v > val[k]:
            val[k] = v
            if v > floor:
                floor = v
    return [(items[k][0], val[k]) for k in range(len(items))]  # ``zip``: a keyword call when compiled


def die_scores(pt, bounds: Bounds, legal, areas) -> list[tuple]:
    """``(TakeDie, value)`` for the die step: per face the best over ``areas``."""
    return scores(pt, bounds, [(a, a.face, areas) for a in legal])


def area_scores(pt, bounds: Bounds, legal, face: int) -> list[tuple]:
    """``(ChooseArea, value)`` for the area step of a die showing ``face``."""
    if face > F_SHEEP:  # flowers and rails: every area was scored in full at the die step
        return [(a, pt.area_value(face, a.colour)) for a in legal]
    return scores(pt, bounds, [(a, face, (a.colour,)) for a in legal])


def square_scores(pt, bounds: Bounds, legal) -> list[tuple]:
    """``(Draw, value)`` for the square step: house and sheep draws bounded below the best known."""
    memo, base = pt.memo, pt.base
    # a rail meeting no track scores alike in every orientation, straight or curved (``QUIET_RAIL``);
    # without open ends counted, so does a rail with an opening facing no house or track
    if base.want_open:
        icons = [QUIET_RAIL if a.icon >= RAIL and base.quiet_rail(a.cell) else a.icon for a in legal]
    else:
        icons = [QUIET_RAIL if a.icon >= RAIL and a.icon & 15 & ~base.live_sides(a.cell) else a.icon for a in legal]
    n = len(legal)  # index loops below (``zip`` and ``max(default=)`` are keyword calls when compiled)
    if HOUSE not in icons and SHEEP not in icons:  # a flower or rail face: nothing to bound
        return [(legal[k], pt.value(legal[k].cell, icons[k])) for k in range(n)]
    seen = [memo.get(legal[k].cell << 5 | icons[k]) for k in range(n)]
    floor = NONE
    for v in seen:
        if v is not None and v > floor:
            floor = v
    out = []
    for k in range(n):
        a, v, icon = legal[k], seen[k], icons[k]
        if v is None:
            if (icon == HOUSE and bounds.house(a.cell) < floor - MARGIN) or \
                    (icon == SHEEP and bounds.sheep(a.cell) < floor - MARGIN):
                v = NONE
            else:
                v = pt.value(a.cell, icon)
                if v > floor:
                    floor = v
        out.append((a, v))
    return out
