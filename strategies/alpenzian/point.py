"""A plan's decision point: the values of its candidate draws (issue 20 item 2, round twelve).

``planner.Planner`` builds one ``Point`` per decision point (``Planner._prepare``: a new one when a
sheet changed) and scores every candidate through it: ``value(cell, icon)`` (the own sheet's figures
after the draw, ``evaluator.SheetBase.figures``, combined with the majority estimates and the
weights), ``area_value(face, colour)`` (the best draw of a die face in a colour area) and the memos
they fill (per candidate, per figures tuple, per area), which ``prune`` and ``turn`` read too. The
weights and the scoring tables are read once, into plain numbers.

Speed: ``Planner`` is a Python class (its base ``ScriptedStrategy`` is), so its attributes are
dictionary look-ups even when compiled. ``Point`` holds the same state in an object of its own, which
``point.pxd`` makes an extension type (C fields, the value calls C calls, the sums C doubles; every
float here is a float in Python too, and the sums are added in the same order), so ``prune`` calls it
in C. In Python it is an ordinary class with the same code.
"""

from __future__ import annotations

from sim.games.alpenzian.actions import FACE_ICONS, OUTLINE, RAIL, SOLID

from .evaluator import SheetBase

NONE = float("-inf")
QUIET_RAIL = RAIL  # the key a rail meeting no track is scored under (a rail with no openings: figures alike)


class Point:
    """The state of one decision point of ``plan`` (``obs``): the sheet analysis ``base`` (None
    unless ``fast``), the unpaired-house weight ``pen`` and the other sheets' flowers per colour
    area and residents (in descending order)."""

    def __init__(self, plan, obs, base: SheetBase, fast: bool, pen: float, other_flowers: list, other_res: list):
        self.plan, self.obs, self.base, self.fast, self.pen = plan, obs, base, fast, pen
        self.has_extra = plan._has_extra
        t = self.t = obs.tables
        self.memo, self.area_memo, self.squares = {}, {}, {}
        self.area_lb = {}  # ``prune``: the areas scored under a bar
        self.by_fig, self.colour_of, self.res_of = {}, {}, {}
        self.other_flowers, self.other_res, self.best_others = other_flowers, other_res, None
        self.w_ranch, self.w_alp, self.w_x, self.w_col, self.w_res, self.ot, self.ss = plan._weights
        p = plan.p
        self.reserve, self.lead = p.mountain_reserve, p.colour_lead
        self.rp, self.ru, self.apf = t.ranch_paired, t.ranch_unpaired, t.alpenzian_per_flower
        self.colour_table, self.resident_table = obs.colour_table, obs.resident_table
        self.mnext = obs.board.mountains_next

    def value(self, cell: int, icon: int) -> float:
        """The plan's value of drawing ``icon`` at ``cell`` on the own sheet now."""
        key = cell << 5 | icon  # icons are below 32: one int key, cheaper to hash than a tuple
        got = self.memo.get(key)
        if got is None:
            fig = self.base.figures(cell, icon) if self.fast else self.plan._full_figures(cell, icon)
            got = self.by_fig.get(fig)
            if got is None:
                got = self.by_fig[fig] = self.combine(fig)
            if self.reserve and icon != SOLID and icon != OUTLINE:
                got -= self.reserve * self.mnext[cell]
            if self.has_extra:
                got += self.plan.extra(cell, icon, fig)
            self.memo[key] = got
        return got

    def fig_value(self, fig: tuple) -> float:
        """The value of figures ``fig`` before the mountain reserve (kept per figures tuple)."""
        got = self.by_fig.get(fig)
        if got is None:
            got = self.by_fig[fig] = self.combine(fig)
        return got

    def area_value(self, face: int, colour: int) -> float:
        """Best draw of ``face`` in ``colour`` (the exceptional solid flower when no square is open)."""
        key = face << 3 | colour  # one int key: cheaper to hash than a tuple
        got = self.area_memo.get(key)
        if got is None:
            got = self.area_memo[key] = self.area_best(face, colour)
        return got

    def area_best(self, face: int, colour: int) -> float:
        """``area_value`` scored (not kept)."""
        squares = self.squares.get(colour)
        if squares is None:
            squares = self.squares[colour] = self.obs.squares(colour)
        if not squares:  # exceptional rule 5.4: a solid flower in any empty square
            cells = self.obs.my_cells
            return max([self.value(c, SOLID) for c in self.obs.board.drawable if not cells[c]])
        icons = FACE_ICONS[face]
        counts = self.fast and not self.has_extra  # flowers and quiet rails built in one loop
        if len(icons) == 1:
            icon = icons[0]
            if counts and (icon == SOLID or icon == OUTLINE):
                return self.count_best(squares, icon)
            return max([self.value(c, icon) for c in squares])
        if not self.fast:
            return max([self.value(c, i) for c in squares for i in icons])
        return self._rails(squares, icons)

    def _rails(self, squares: list, icons: tuple) -> float:
        """``area_best`` of a rail face with the incremental evaluator."""
        base = self.base
        if self.has_extra:  # a rail meeting no track scores alike in every orientation
            return max([self.value(c, icons[0]) if base.quiet_rail(c) else max([self.value(c, i) for i in icons])
                        for c in squares])
        if base.want_open:  # a rail meeting no track scores alike in every orientation, straight or curved
            calm = [c for c in squares if base.quiet_rail(c)]
            got = [self.value(c, i) for c in squares if not base.quiet_rail(c) for i in icons]
        else:  # open ends not counted: a rail with an opening facing no house or track links nothing, so it
            # scores as a rail meeting no track (once per square)
            calm, got = [], []
            for c in squares:
                m = base.live_sides(c)
                if not m:
                    calm.append(c)
                    continue
                linking = [i for i in icons if not i & 15 & ~m]
                if len(linking) < len(icons):
                    calm.append(c)
                got.extend([self.value(c, i) for i in linking])
        if calm:
            got.append(self.count_best(calm, QUIET_RAIL))
        return max(got)

    def count_best(self, cells: list, icon: int) -> float:
        """``max(value(c, icon) for c in cells)`` for a flower or ``QUIET_RAIL`` (``SheetBase.count_figures``:
        the same figures and values, kept in the value memo, without a ``value`` call each)."""
        figs = self.base.count_figures(cells, icon)
        memo, by_fig, best = self.memo, self.by_fig, NONE
        reserve = self.reserve if icon == QUIET_RAIL else 0.0  # as ``value``: flowers keep their squares
        mnext = self.mnext
        for k in range(len(cells)):  # ``zip(cells, figs)``: an index loop is C when compiled
            c, fig = cells[k], figs[k]
            v = by_fig.get(fig)
            if v is None:
                v = by_fig[fig] = self.combine(fig)
            if reserve:
                v -= reserve * mnext[c]
            memo[c << 5 | icon] = v
            if v > best:
                best = v
        return best

    def combine(self, fig: tuple) -> float:
        """The value of figures ``fig``: the section 7 categories (majorities estimated), weighted."""
        houses, sheep, paired, express, alp, col, residents, open_ends, free = fig
        unpaired = houses - paired
        ranch = paired * self.rp + unpaired * self.ru * self.pen
        v = self.w_ranch * ranch + self.w_alp * (alp * self.apf) + self.w_x * express
        v += self.w_col * self.colour(col)
        v += self.w_res * self.resident(residents)
        if self.ot:
            v += self.ot * open_ends
        if self.ss:
            spare = min(3, sheep - paired)
            if spare > 0:
                v += self.ss * min(spare, free)
        return v

    def colour(self, col: int) -> float:
        """The estimated colour-area bonus with one more flower in area ``col`` (none: -1)."""
        kept = self.colour_of.get(col)
        if kept is not None:
            return kept
        t, obs = self.t, self.obs
        flowers = list(self.base.flowers if self.fast else obs.sheet_flowers(obs.seat))
        if col >= 0:
            flowers[col] += 1
        got = 0.0
        if self.colour_table:
            for c in range(5):
                got += t.band(t.solo_colour, flowers[c])
        else:
            lead, majority, top = self.lead, t.colour_majority, self.best_other()
            for c in range(5):  # five colour areas (``zip``: an index loop is C when compiled)
                mine = flowers[c]
                if mine >= top[c]:
                    if mine > 0:
                        got += majority
                    got += lead * mine
        self.colour_of[col] = got
        return got

    def best_other(self) -> list:
        """Per colour area, the most flowers any other sheet has (0 without others)."""
        got = self.best_others
        if got is None:
            got = [0] * 5
            for f in self.other_flowers:  # five colour areas each
                for c in range(5):
                    if f[c] > got[c]:
                        got[c] = f[c]
            self.best_others = got
        return got

    def resident(self, residents: int) -> float:
        """The estimated resident bonus with ``residents`` residents."""
        got = self.res_of.get(residents)
        if got is None:
            t = self.t
            if self.resident_table:
                got = t.band(t.solo_resident, residents)
            else:
                got = resident_estimate(residents, self.other_res, t)
            self.res_of[residents] = got
        return got


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
