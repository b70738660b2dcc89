"""Incremental scoring of candidate draws for the Alpenzian plans (rulebook section 7, RULINGS §5).

``SheetBase(board, cells, tables, rule, link)`` analyses one sheet once: rail links and rail
groups, villages and flocks, the house-sheep graph split into independent components (each
with its maximum matching), express sets, flowers, residents, free sheep and open track ends.
``figures(cell, icon)`` then gives the sheet's figures after drawing ``icon`` at ``cell`` by
recomputing only what the draw touches: a flower or a rail that meets no track changes counts
only; a house, a sheep or a rail completing a track re-matches only the components it joins
(a draw only adds pairing options, so the other components keep their matchings). The tests
check every candidate against the full ``score_sheet`` (``tests/test_alpenzian_strategies.py``,
and ``tests/test_alpenzian_evaluator.py`` on random sheets against networkx's matching).

Speed (issue 20 item 2): what every icon drawn at a square shares (free sheep, rail openings) is
worked out once per square (``_context``); the pairs after a house or sheep draw are kept by the
villages, rail groups and flocks it joins (draws joining the same units pair alike); a unit set
with a single village or flock is matched by counting (``_star_matching``); the open track ends
after a draw come from the tracks arriving at its square (``tracks.open_after``).

Handles the ranch rules ``normal`` (with ``ranch_link: rulings``), ``beginner1`` and
``beginner2``; ``supported(rule, link)`` is False for ``ranch_link: merged`` (the planner then
rescores the whole sheet).
"""

from __future__ import annotations

from sim.games.alpenzian.actions import HOUSE, OUTLINE, RAIL, SHEEP, SOLID
from sim.games.alpenzian.observation import fast_matching, track_end, track_starts

from .tracks import open_after, sheet_tracks
from .units import partition


def supported(rule: str, link: str) -> bool:
    """Whether ``SheetBase`` models this ranch rule and link reading exactly."""
    return rule != "normal" or link == "rulings"


def trace(nbr, cells, cell: int, k: int) -> tuple[int, int]:
    """Follow a track leaving ``cell`` towards side ``k``: ``(house or -1, rails passed)``.

    The neighbour must be a house (the end) or a rail opening back; rails are followed along their
    other opening, as in ``rail_links``."""
    count = 0
    j = nbr[cell][k]
    while j >= 0:
        v = cells[j]
        if v == HOUSE:
            return j, count
        back = 1 << ((k + 2) & 3)
        if v < RAIL or not v & back:
            return -1, count
        count += 1
        k = (v & 15 & ~back).bit_length() - 1
        j = nbr[j][k]
    return -1, count


def open_track_ends(b, cells) -> int:
    """Tracks leaving a house whose far end opens into an empty drawable square, each counted by its
    rails up to 2 (the rails an express link needs)."""
    terrain, count = b.terrain, 0
    for _h, c, m, back in track_starts(b, cells):
        end, rails = track_end(b, cells, c, m, back)
        if end >= 0 and cells[end] == 0 and terrain[end] < 5:
            count += min(rails, 2)
    return count


def _star_matching(vmembers: dict, fmembers: dict, edges: dict) -> int:
    """Maximum matching when one side is a single unit: every house of a village pairs with every
    sheep of a flock it reaches, so one village (or flock) pairs up to its size with what it reaches."""
    if len(vmembers) == 1:
        (v2, hs), = vmembers.items()
        reach = sum(len(fmembers[f2]) for f2 in edges.get(v2, ()) if f2 in fmembers)
        return min(len(hs), reach)
    (f2, ss), = fmembers.items()
    reach = sum(len(hs) for v2, hs in vmembers.items() if f2 in edges.get(v2, ()))
    return min(len(ss), reach)


class SheetBase:
    """One sheet analysed once; ``figures(cell, icon)`` for any empty drawable ``cell``."""

    def __init__(self, board, cells, tables, rule: str = "normal", link: str = "rulings",
                 want_open: bool = False):
        self.board, self.cells, self.t, self.rule = board, cells, tables, rule
        nbr, terrain, mnext = board.nbr, board.terrain, board.mountains_next
        houses, sheep, rails, flowers = [], [], [], [0, 0, 0, 0, 0]
        alp = outline = 0
        for i, v in enumerate(cells):
            if v == HOUSE:
                houses.append(i)
            elif v == SHEEP:
                sheep.append(i)
            elif v >= RAIL:
                rails.append(i)
            elif v == SOLID or v == OUTLINE:
                flowers[terrain[i]] += 1
                alp += mnext[i]
                outline += v == OUTLINE
        self.houses, self.sheep, self.flowers = len(houses), len(sheep), tuple(flowers)
        self.alp, self.outline = alp, outline
        self.residents = tables.resident_house * len(houses) + tables.resident_outline * outline
        links, open_ends, self.arriving = sheet_tracks(board, cells)
        self.links = links  # ``derive``: a rail that changes no link keeps the ranch analysis
        self.group, self.group_houses = partition(houses, [(a, b) for a, b, _ in links])
        self.xroot, xsets = partition(houses, [(a, b) for a, b, n in links if n >= tables.express_min_rails])
        self.xsize = {r: len(m) for r, m in xsets.items()}
        self.express = sum(tables.express_points(k) for k in self.xsize.values())
        self._ranch_base(houses, sheep, nbr, cells)
        # free sheep (a sheep beside an empty drawable square) and the squares rails open into
        self._empty = empty_nbrs = {s: sum(1 for j in nbr[s] if j >= 0 and terrain[j] < 5 and not cells[j])
                                    for s in sheep}
        self.free = sum(1 for s in sheep if empty_nbrs[s])
        self.last_free = {s for s in sheep if empty_nbrs[s] == 1}
        self.rail_in = {nbr[r][k] for r in rails for k in range(4) if cells[r] & (1 << k) and nbr[r][k] >= 0}
        self.house_next = {j for h in houses for j in nbr[h]}
        self.open = open_ends if want_open else 0
        self.want_open = want_open
        self._ctx: dict[int, tuple[int, int, bool, bool]] = {}  # per candidate square: ``_context``
        self._pairs: dict[tuple, int] = {}  # pairs after a draw, by the units the draw joins
        self._live: dict[int, int] = {}  # ``live_sides`` per square
        self._joins: tuple | None = None  # ``joins``

    def _ranch_base(self, houses, sheep, nbr, cells) -> None:
        rule = self.rule
        self.normal = rule == "normal"
        if rule == "beginner1":  # no units (``derive.FIELDS``: every analysis has every attribute)
            self.paired = min(len(houses), len(sheep))
            self.village = self.village_houses = self.flock = self.flock_sheep = self.touch = self.vedges = None
            self.ucomp = self.comp_units = self.comp_match = None
            return
        adj_pairs = (lambda xs, icon: [(x, j) for x in xs for j in nbr[x][1:3] if j >= 0 and cells[j] == icon]) \
            if self.normal else (lambda xs, icon: [])
        self.village, self.village_houses = partition(houses, adj_pairs(houses, HOUSE))
        self.flock, self.flock_sheep = partition(sheep, adj_pairs(sheep, SHEEP))
        group = self.group
        touch: dict[int, set[int]] = {g: set() for g in self.group_houses}
        for s in sheep:
            for j in nbr[s]:
                if j >= 0 and cells[j] == HOUSE:
                    touch[group[j]].add(s)
        self.touch = touch
        vedges: dict[int, set[int]] = {v: set() for v in self.village_houses}
        for g, ss in touch.items():
            fl = {self.flock[s] for s in ss}
            for h in self.group_houses[g]:
                vedges[self.village[h]] |= fl
        self.vedges = vedges
        # components of the village-flock graph (village roots are house cells, flock roots
        # sheep cells: one id space)
        self.ucomp, self.comp_units = partition(list(self.village_houses) + list(self.flock_sheep),
                                                [(v, f) for v, fs in vedges.items() for f in fs])
        self.comp_match = {k: self._match(units, {}, {}, (), -1, -1) if len(units) > 1 else 0
                           for k, units in self.comp_units.items()}
        self.paired = sum(self.comp_match.values())

    def _match(self, units, vmap, fmap, new_edges, new_house, new_sheep) -> int:
        """Maximum matching over ``units`` after merging villages (``vmap``) and flocks (``fmap``),
        adding ``new_edges`` (village, flock) and the new house / sheep (or -1)."""
        vmembers: dict[int, list[int]] = {}
        fmembers: dict[int, list[int]] = {}
        edges: dict[int, set[int]] = {}
        vh, fs, ve = self.village_houses, self.flock_sheep, self.vedges
        for u in units:
            if u in vh:
                v2 = vmap.get(u, u)
                vmembers.setdefault(v2, []).extend(vh[u])
                e = edges.setdefault(v2, set())
                for f in ve[u]:
                    e.add(fmap.get(f, f))
            else:
                fmembers.setdefault(fmap.get(u, u), []).extend(fs[u])
        if new_house >= 0:
            vmembers.setdefault(new_house, []).append(new_house)
        if new_sheep >= 0:
            fmembers.setdefault(new_sheep, []).append(new_sheep)
        for v2, f2 in new_edges:
            edges.setdefault(v2, set()).add(f2)
        if len(vmembers) == 1 or len(fmembers) == 1:
            return _star_matching(vmembers, fmembers, edges)
        index: dict[int, list[int]] = {}
        n = 0
        for f2, ms in fmembers.items():
            index[f2] = list(range(n, n + len(ms)))
            n += len(ms)
        if not n:
            return 0
        adj = []
        for v2, hs in vmembers.items():
            right = [j for f2 in edges.get(v2, ()) for j in index.get(f2, ())]
            adj.extend([right] * len(hs))
        return fast_matching(adj, n)

    # ------------------------------------------------------------ candidates
    def figures(self, cell: int, icon: int) -> tuple:
        """``(houses, sheep, paired, express, alpenzian flowers-mountain contacts, flower colour or -1,
        residents, open track ends, free sheep)`` after drawing ``icon`` at the empty ``cell``."""
        ctx = self._ctx.get(cell)
        if ctx is None:
            ctx = self._ctx[cell] = self._context(cell)
        free, sheep_free, rail_in, touched = ctx
        op = self.open
        if self.want_open and (rail_in or (icon >= RAIL and touched and self._opens_to_house(cell, icon))):
            op = open_after(self.board, self.cells, op, self.arriving, cell, icon)
        if icon == SOLID or icon == OUTLINE:
            res = self.residents + (self.t.resident_outline if icon == OUTLINE else 0)
            return (self.houses, self.sheep, self.paired, self.express, self.alp + self.board.mountains_next[cell],
                    self.board.terrain[cell], res, op, free)
        if icon == HOUSE:
            paired, express = self._house(cell)
            return (self.houses + 1, self.sheep, paired, express, self.alp, -1, self.residents + self.t.resident_house,
                    op, free)
        if icon == SHEEP:
            return (self.houses, self.sheep + 1, self._sheep(cell), self.express, self.alp, -1, self.residents, op,
                    sheep_free)
        # ``icon == RAIL`` (no openings): a rail meeting no track, as the plans score one (``prune.QUIET_RAIL``)
        paired, express = self._rail(cell, icon) if touched and icon & 15 else (self.paired, self.express)
        return (self.houses, self.sheep, paired, express, self.alp, -1, self.residents, op, free)

    def count_figures(self, cells: list[int], icon: int) -> list[tuple]:
        """``[figures(c, icon) for c in cells]`` for a flower (``SOLID``, ``OUTLINE``) or ``RAIL`` (a rail
        meeting no track, ``prune.QUIET_RAIL``): such a draw changes counts only, so one loop builds the
        tuples (the same ones; the plans' flower and quiet-rail areas are most of their candidates)."""
        ctxs, context, mnext, terrain = self._ctx, self._context, self.board.mountains_next, self.board.terrain
        h, s, p, x, alp, op0, want_open = self.houses, self.sheep, self.paired, self.express, self.alp, self.open, \
            self.want_open
        res = self.residents + (self.t.resident_outline if icon == OUTLINE else 0)
        flower = icon != RAIL
        out = []
        for c in cells:
            ctx = ctxs.get(c)
            if ctx is None:
                ctx = ctxs[c] = context(c)
            op = open_after(self.board, self.cells, op0, self.arriving, c, icon) if want_open and ctx[2] else op0
            if flower:
                out.append((h, s, p, x, alp + mnext[c], terrain[c], res, op, ctx[0]))
            else:
                out.append((h, s, p, x, alp, -1, res, op, ctx[0]))
        return out

    def _context(self, cell: int) -> tuple[int, int, bool, bool]:
        """What every icon drawn at ``cell`` shares: free sheep after a draw there (a sheep beside
        its last empty square is no longer free), the same when the draw is a sheep (free itself
        if an empty square is beside it), whether a rail opens into it, and whether a rail drawn
        there can meet a track (a rail opens into it or a house is beside it)."""
        nbr, cells, terrain, last_free = self.board.nbr[cell], self.cells, self.board.terrain, self.last_free
        free, spare = self.free, 0
        for j in nbr:
            if j in last_free:
                free -= 1
            if not spare and j >= 0 and terrain[j] < 5 and not cells[j]:
                spare = 1
        rail_in = cell in self.rail_in
        return free, free + spare, rail_in, rail_in or cell in self.house_next

    def joins(self) -> tuple[set[int], set[int]]:
        """``(house_joins, sheep_joins)``: the squares where a new house / sheep can join a unit (method 1,
        and 7 (1) villages and flocks), for ``prune.Bounds``; worked out once per analysis (``derive``
        keeps them: a flower or rail moves no house or sheep)."""
        got = self._joins
        if got is None:
            nbr = self.board.nbr  # ``flock`` is keyed by the sheep squares (no units under beginner rule 1)
            sheep_next = {j for i in self.flock for j in nbr[i]} if self.rule != "beginner1" else set()
            if self.normal:
                both = sheep_next | self.house_next
                got = (both, both)
            else:
                got = (sheep_next, self.house_next)
            self._joins = got
        return got

    def quiet_rail(self, cell):  # (int) -> bool; no annotations: evaluator.pxd declares it in C types
        """Whether no rail drawn at ``cell`` can meet a track (no house beside, no rail opening in)."""
        return cell not in self.rail_in and cell not in self.house_next

    def live_sides(self, cell):  # (int) -> int; no annotations: evaluator.pxd declares it in C types
        """Bit ``1 << k`` set when side ``k`` of ``cell`` faces a house or a rail opening into ``cell``:
        a rail drawn there links houses only if both its openings are such sides (``_rail``)."""
        got = self._live.get(cell)
        if got is None:
            nbr, cells, got = self.board.nbr[cell], self.cells, 0
            for k in range(4):
                j = nbr[k]
                if j >= 0 and (cells[j] == HOUSE or (cells[j] >= RAIL and cells[j] & (1 << ((k + 2) & 3)))):
                    got |= 1 << k
            self._live[cell] = got
        return got

    def _opens_to_house(self, cell: int, icon: int) -> bool:
        nbr, cells = self.board.nbr[cell], self.cells
        return any(icon & (1 << k) and nbr[k] >= 0 and cells[nbr[k]] == HOUSE for k in range(4))

    def _express_join(self, ends: list[tuple[int, int]]) -> int:
        """Express after linking a new set member to the houses in ``ends`` ((house, rails))."""
        t = self.t
        roots = {self.xroot[h] for h, n in ends if n >= t.express_min_rails}
        if not roots:
            return self.express
        sizes = [self.xsize[r] for r in roots]
        return self.express - sum(t.express_points(k) for k in sizes) + t.express_points(1 + sum(sizes))

    def _house(self, h: int) -> tuple[int, int]:
        b, cells = self.board, self.cells
        nbr = b.nbr
        # the tracks a house here completes: those leaving a house and ending at ``h`` (``sheet_tracks``)
        ends = [(e, n) for _side, n, e in self.arriving.get(h, ())]
        express = self._express_join(ends)
        if self.rule == "beginner1":
            return min(self.houses + 1, self.sheep), express
        vmap = {}
        if self.normal:
            for j in nbr[h]:
                if j >= 0 and cells[j] == HOUSE:
                    vmap[self.village[j]] = h
        g_houses, t_sheep, seen = [h], [j for j in nbr[h] if j >= 0 and cells[j] == SHEEP], set()
        for e, _ in ends:
            g = self.group[e]
            if g not in seen:
                seen.add(g)
                g_houses.extend(self.group_houses[g])
                t_sheep.extend(self.touch[g])
        if not vmap and not t_sheep:
            return self.paired, express
        village, flock = self.village, self.flock
        # the pairs depend only on the villages, rail groups and flocks the house joins
        key = (HOUSE, frozenset(vmap), frozenset(seen), frozenset([flock[s] for s in t_sheep]))
        got = self._pairs.get(key)
        if got is None:
            new_edges = {(h if x == h else vmap.get(village[x], village[x]), flock[s])
                         for x in g_houses for s in t_sheep}
            units = set(vmap) | {village[x] for x in g_houses if x != h} | {flock[s] for s in t_sheep}
            got = self._pairs[key] = self._rematch(units, vmap, {}, new_edges, h, -1)
        return got, express

    def _sheep(self, s: int) -> int:
        if self.rule == "beginner1":
            return min(self.houses, self.sheep + 1)
        cells, nbr = self.cells, self.board.nbr[s]
        fmap = {}
        if self.normal:
            for j in nbr:
                if j >= 0 and cells[j] == SHEEP:
                    fmap[self.flock[j]] = s
        groups = {self.group[j] for j in nbr if j >= 0 and cells[j] == HOUSE}
        if not groups and not fmap:
            return self.paired
        # the pairs depend only on the flocks and rail groups the sheep joins
        key = (SHEEP, frozenset(fmap), frozenset(groups))
        got = self._pairs.get(key)
        if got is None:
            got = self._pairs[key] = self._sheep_pairs(s, fmap, groups)
        return got

    def _sheep_pairs(self, s: int, fmap: dict, groups: set) -> int:
        if not groups:
            new_edges: set = set()
        else:
            village = self.village
            new_edges = {(village[x], s) for g in groups for x in self.group_houses[g]}
        units = set(fmap) | {v for v, _ in new_edges}
        return self._rematch(units, {}, fmap, new_edges, -1, s)

    def _rail(self, cell: int, icon: int) -> tuple[int, int]:
        dirs = [k for k in range(4) if icon & (1 << k)]
        ea, na = self._trace_rail(cell, dirs[0])
        if ea < 0:
            return self.paired, self.express
        eb, nb = self._trace_rail(cell, dirs[1])
        if eb < 0 or ea == eb:
            return self.paired, self.express
        n = 1 + na + nb
        t = self.t
        express = self.express
        ra, rb = self.xroot[ea], self.xroot[eb]
        if n >= t.express_min_rails and ra != rb:
            sa, sb = self.xsize[ra], self.xsize[rb]
            express += t.express_points(sa + sb) - t.express_points(sa) - t.express_points(sb)
        if self.rule == "beginner1":
            return self.paired, express
        ga, gb = self.group[ea], self.group[eb]
        if ga == gb:
            return self.paired, express
        g_houses = self.group_houses[ga] + self.group_houses[gb]
        t_sheep = self.touch[ga] | self.touch[gb]
        if not t_sheep:
            return self.paired, express
        village, flock = self.village, self.flock
        new_edges = {(village[x], flock[s]) for x in g_houses for s in t_sheep}
        units = {village[x] for x in g_houses} | {flock[s] for s in t_sheep}
        return self._rematch(units, {}, {}, new_edges, -1, -1), express

    def _trace_rail(self, cell: int, k: int) -> tuple[int, int]:
        return trace(self.board.nbr, self.cells, cell, k)

    def _rematch(self, units, vmap, fmap, new_edges, new_house: int, new_sheep: int) -> int:
        comps = {self.ucomp[u] for u in units}
        allu = [u for k in comps for u in self.comp_units[k]]
        m = self._match(allu, vmap, fmap, new_edges, new_house, new_sheep)
        return self.paired - sum(self.comp_match[k] for k in comps) + m
