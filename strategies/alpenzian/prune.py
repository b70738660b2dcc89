"""Exact pruning of the plans' house and sheep candidates (issue 20 item 2, round five).

A decision of ``planner.Planner`` picks the best of its candidates and breaks ties (values within
1e-9 of the best) with the seat's ``rng``. A candidate whose **upper bound** lies more than
``MARGIN`` (1e-6) below a value already found cannot be the best nor tie with it, so it need not be
scored: the choice, the tie set and the ``rng`` draws stay exactly those of scoring every candidate.

``Bounds`` bounds a house or sheep draw (the costly candidates: their pairs need a matching) from
the sheet analysis (``evaluator.SheetBase``) without matching: every figure of section 7 is exact
except the pairs, bounded by one more pair when the new icon can join a unit and the other side
still has an unpaired icon (a draw adds one house or sheep, so the maximum matching grows by at
most one; with every sheep paired a new house cannot pair, and the other way round); the open track
ends after a house count at most 2 per rail opening into its square (``tracks.OPEN_RAILS``). Used
only when the weights make the value grow with the pairs and the open ends (``usable``).

``die_scores``, ``area_scores`` and ``square_scores`` give the values of a decision's legal actions:
exact for every action that can be the best or tie with it, and below the tie threshold (a lower
value found, or ``-inf``) for the others. The die step scores the cheap faces first (flowers, rails)
so that the bar is high when the houses and sheep come; an area scored under a bar keeps the bar it
was scored under, and a later step reuses it only under a bar at least as high.
"""

from __future__ import annotations

from sim.games.alpenzian.actions import F_HOUSE, F_SHEEP, HOUSE, RAIL, SHEEP

from .tracks import OPEN_RAILS

MARGIN = 1e-6  # well above the 1e-9 of the tie set and any rounding of the sums
NONE = float("-inf")
FACE_ORDER = (4, 5, 2, 3, 1, 0)  # rank of each face in the die step: flowers, rails, sheep, houses last
PRUNED = {F_HOUSE: HOUSE, F_SHEEP: SHEEP}
QUIET_RAIL = RAIL  # the key a rail meeting no track is scored under (a rail with no openings: figures alike)


def usable(plan) -> bool:
    """Whether ``Bounds`` bounds ``plan``'s values: the incremental evaluator, no ``extra`` term, and
    weights under which the value grows with the pairs (``w_ranch`` >= 0, paired >= 0 >= unpaired
    points) and with the open ends and spare sheep counted (``open_track``, ``spare_sheep`` >= 0)."""
    if not plan._fast or plan._has_extra:
        return False
    w_ranch, _, _, _, _, open_track, spare_sheep = plan._weights
    t = plan.obs.tables
    return w_ranch >= 0 and open_track >= 0 and spare_sheep >= 0 and t.ranch_paired >= 0 >= t.ranch_unpaired


class Bounds:
    """Upper bounds of ``plan.value(cell, HOUSE)`` and ``plan.value(cell, SHEEP)`` at one decision point.

    The terms shared by every house (or sheep) candidate are summed once: ``house0`` / ``house1`` with
    the pairs as they are / one more (``sheep0`` / ``sheep1`` likewise), with the express and open
    track ends as they are; a candidate adds what its square changes.
    """

    def __init__(self, plan):
        b, t = plan._base, plan.obs.tables
        self.b, self.mnext = b, b.board.mountains_next
        w_ranch, w_alp, w_x, w_col, w_res, self.ot, ss = plan._weights
        self.w_x, self.reserve = w_x, plan._reserve
        rp, ru = t.ranch_paired, t.ranch_unpaired * plan._pen
        h, s, p = b.houses, b.sheep, b.paired
        common = w_alp * (b.alp * t.alpenzian_per_flower) + w_col * plan._colour(-1) + w_x * b.express + \
            self.ot * b.open
        k_house = common + w_res * plan._resident(b.residents + t.resident_house)
        k_sheep = common + w_res * plan._resident(b.residents)
        if b.rule == "beginner1":  # min(houses, sheep) pairs, wherever the icon goes
            ph0 = ph1 = min(h + 1, s)
            ps0 = ps1 = min(h, s + 1)
        else:  # one more pair at most, and none when the other side is all paired
            ph0, ph1 = p, p + (s > p)
            ps0, ps1 = p, p + (h > p)
        self.house0 = w_ranch * (rp * ph0 + ru * (h + 1 - ph0)) + k_house
        self.house1 = w_ranch * (rp * ph1 + ru * (h + 1 - ph1)) + k_house
        self.sheep0 = w_ranch * (rp * ps0 + ru * (h - ps0)) + k_sheep
        self.sheep1 = w_ranch * (rp * ps1 + ru * (h - ps1)) + k_sheep
        self.ss = ss
        self.spare_house, self.spare_sheep = min(3, s - p) if ss else 0, min(3, s + 1 - p) if ss else 0
        self.house_joins, self.sheep_joins = b.joins()

    def _ctx(self, cell: int) -> tuple:
        b = self.b
        ctx = b._ctx.get(cell)
        if ctx is None:
            ctx = b._ctx[cell] = b._context(cell)
        return ctx

    def house(self, cell: int) -> float:
        b = self.b
        arr = b.arriving.get(cell)
        v = self.house1 if arr or cell in self.house_joins else self.house0
        if arr:
            v += self.w_x * (b._express_join([(e, n) for _s, n, e in arr]) - b.express)
        if self.ot and cell in b.rail_in:  # closes the tracks arriving here, may open one per other rail
            nbr, cells, rails_in = b.board.nbr[cell], b.cells, 0
            for k in range(4):
                j = nbr[k]
                if j >= 0 and cells[j] >= RAIL and cells[j] & (1 << ((k + 2) & 3)):
                    rails_in += 1
            arr = arr or ()
            v += self.ot * (OPEN_RAILS * max(0, rails_in - len(arr)) - sum(min(n, OPEN_RAILS) for _s, n, _e in arr))
        if self.spare_house > 0:
            v += self.ss * min(self.spare_house, self._ctx(cell)[0])
        return v - self.reserve * self.mnext[cell]

    def sheep(self, cell: int) -> float:
        b = self.b
        v = self.sheep1 if cell in self.sheep_joins else self.sheep0
        if self.ot:
            arr = b.arriving.get(cell)
            if arr:  # the tracks arriving here close
                v -= self.ot * sum(min(n, OPEN_RAILS) for _s, n, _e in arr)
        if self.spare_sheep > 0:
            v += self.ss * min(self.spare_sheep, self._ctx(cell)[1])
        return v - self.reserve * self.mnext[cell]


def _area(plan, bounds: Bounds, face: int, colour: int, floor: float) -> float:
    """The best value of ``face`` in ``colour``: exact when it is at least ``floor - MARGIN``, else a
    value below that (and so is the exact one)."""
    if face > F_SHEEP:  # flowers and rails: scored in full
        return plan.area_value(face, colour)
    key = face << 3 | colour
    got = plan._area_memo.get(key)
    if got is not None:
        return got
    icon = PRUNED[face]
    squares = plan._squares.get(colour)
    if squares is None:
        squares = plan._squares[colour] = plan.obs.squares(colour)
    if not squares:
        return plan.area_value(face, colour)
    lb = plan._area_lb.get(key)
    if lb is not None and lb[1] <= floor:
        return lb[0]
    bound = bounds.house if icon == HOUSE else bounds.sheep
    memo, value, start, best, skipped = plan._memo, plan.value, floor, NONE, False
    bar = floor - MARGIN
    for c in squares:
        v = memo.get(c << 5 | icon)
        if v is None:
            if bound(c) < bar:
                skipped = True
                continue
            v = value(c, icon)
        if v > best:
            best = v
            if v > floor:
                floor, bar = v, v - MARGIN
    if skipped:
        plan._area_lb[key] = (best, start)
    else:
        plan._area_memo[key] = best
    return best


def known(plan, face: int, colour: int) -> float:
    """A value of ``face`` in ``colour`` already found at this decision point (exact or under a bar)."""
    key = face << 3 | colour
    v = plan._area_memo.get(key)
    if v is None:
        lb = plan._area_lb.get(key)
        v = NONE if lb is None else lb[0]
    return v


def scores(plan, bounds: Bounds, items, extra=None) -> list[tuple]:
    """``(action, value)`` for ``items`` ``(action, face, colours)``: the action's value is its best
    over ``colours`` of the area value plus ``extra(face, colour)`` (the expert's denial; none for the
    plans). Exact for every action that can be the best or tie with it; cheap faces scored first,
    the bar seeded with the values already found at this decision point."""
    floor = NONE
    for _a, face, colours in (items if plan._area_memo or plan._area_lb else ()):
        for c in colours:
            v = known(plan, face, c)
            if v > NONE:
                v = v + extra(face, c) if extra else v
                if v > floor:
                    floor = v
    val = {}
    for a, face, colours in sorted(items, key=lambda it: FACE_ORDER[it[1]]):
        best = NONE
        for c in colours:
            if extra:
                e = extra(face, c)
                v = _area(plan, bounds, face, c, floor - e) + e
            else:
                v = _area(plan, bounds, face, c, floor)
            if v > best:
                best = v
                if v > floor:
                    floor = v
        val[id(a)] = best
    return [(a, val[id(a)]) for a, _f, _c in items]


def die_scores(plan, bounds: Bounds, legal, areas) -> list[tuple]:
    """``(TakeDie, value)`` for the die step: per face the best over ``areas``."""
    return scores(plan, bounds, [(a, a.face, areas) for a in legal])


def area_scores(plan, bounds: Bounds, legal, face: int) -> list[tuple]:
    """``(ChooseArea, value)`` for the area step of a die showing ``face``."""
    if face > F_SHEEP:  # flowers and rails: every area was scored in full at the die step
        return [(a, plan.area_value(face, a.colour)) for a in legal]
    return scores(plan, bounds, [(a, face, (a.colour,)) for a in legal])


def square_scores(plan, bounds: Bounds, legal) -> list[tuple]:
    """``(Draw, value)`` for the square step: house and sheep draws bounded below the best known."""
    memo, base, value = plan._memo, plan._base, plan.value
    # a rail meeting no track scores alike in every orientation, straight or curved (``QUIET_RAIL``);
    # without open ends counted, so does a rail with an opening facing no house or track
    if base.want_open:
        quiet = base.quiet_rail
        icons = [QUIET_RAIL if a.icon >= RAIL and quiet(a.cell) else a.icon for a in legal]
    else:
        live = base.live_sides
        icons = [QUIET_RAIL if a.icon >= RAIL and a.icon & 15 & ~live(a.cell) else a.icon for a in legal]
    if HOUSE not in icons and SHEEP not in icons:  # a flower or rail face: nothing to bound
        return [(a, value(a.cell, icon)) for a, icon in zip(legal, icons, strict=True)]
    seen = [memo.get(a.cell << 5 | icon) for a, icon in zip(legal, icons, strict=True)]
    floor = max([v for v in seen if v is not None], default=NONE)
    out = []
    for a, v, icon in zip(legal, seen, icons, strict=True):
        if v is None:
            if (icon == HOUSE and bounds.house(a.cell) < floor - MARGIN) or \
                    (icon == SHEEP and bounds.sheep(a.cell) < floor - MARGIN):
                v = NONE
            else:
                v = plan.value(a.cell, icon)
                if v > floor:
                    floor = v
        out.append((a, v))
    return out
