"""Alpenzian scoring (rulebook section 7, 8 and 9-1; RULINGS §5), as pure functions of a sheet.

Everything here works on public data (a ``Board`` and a tuple of cell icons), so the engine and
the strategies (through ``observation``) share one implementation. The ranch bonus needs a
maximum bipartite matching of houses and sheep: ``fast_matching`` (augmenting paths, used by
strategies for speed) and ``nx_matching`` (networkx Hopcroft-Karp, used for the final scores);
the tests check that they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import HOUSE, OUTLINE, RAIL, SHEEP, SOLID

COLOURS = ("blue", "red", "yellow", "purple", "green")
BLUE = 0
MOUNTAIN, GATE = 5, 6
TERRAIN_CHARS = {"B": 0, "R": 1, "Y": 2, "P": 3, "G": 4, "M": MOUNTAIN, "X": GATE}
RANCH_RULES = ("normal", "beginner1", "beginner2")


@dataclass(frozen=True, slots=True)
class Board:
    """One sheet type's geometry: ``terrain[cell]`` is a colour 0-4, ``MOUNTAIN`` or ``GATE``;
    cells are numbered row by row; ``nbr[cell]`` gives the N, E, S, W neighbour (-1 off the sheet).
    ``first_house[face]`` is the listed square for faces house..solid flower (setup 4)."""

    name: str
    width: int
    height: int
    terrain: tuple[int, ...]
    nbr: tuple[tuple[int, int, int, int], ...]
    first_house: tuple[int, ...]
    colour_cells: tuple[tuple[int, ...], ...]  # drawable cells per colour, ascending
    drawable: tuple[int, ...]
    mountains_next: tuple[int, ...]  # per cell: number of orthogonally adjacent mountains
    gate: int
    gate_next: tuple[int, ...]  # drawable cells touching the gate

    @classmethod
    def from_rows(cls, name: str, rows: list[str] | tuple[str, ...], first_house: tuple[int, ...] = ()) -> Board:
        """Build from rows of terrain letters (``B R Y P G`` colours, ``M`` mountain, ``X`` gate)."""
        rows = [r.replace(" ", "") for r in rows]
        h, w = len(rows), len(rows[0])
        terrain = tuple(TERRAIN_CHARS[ch] for r in rows for ch in r)
        nbr = []
        for i in range(w * h):
            r, c = divmod(i, w)
            nbr.append((i - w if r > 0 else -1, i + 1 if c < w - 1 else -1,
                        i + w if r < h - 1 else -1, i - 1 if c > 0 else -1))
        colour_cells = tuple(tuple(i for i, t in enumerate(terrain) if t == col) for col in range(5))
        drawable = tuple(i for i, t in enumerate(terrain) if t < 5)
        mountains_next = tuple(sum(1 for j in nbr[i] if j >= 0 and terrain[j] == MOUNTAIN) for i in range(w * h))
        gates = [i for i, t in enumerate(terrain) if t == GATE]
        gate = gates[0] if gates else -1
        gate_next = tuple(sorted(j for j in nbr[gate] if j >= 0 and terrain[j] < 5)) if gate >= 0 else ()
        return cls(name, w, h, terrain, tuple(nbr), tuple(first_house), colour_cells, drawable,
                   mountains_next, gate, gate_next)

    def cell(self, row: int, col: int) -> int:
        return row * self.width + col

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)


@dataclass(frozen=True, slots=True)
class Tables:
    """Scoring numbers (data file ``scoring.yaml``), see rulebook section 7 and 9-1."""

    ranch_paired: int = 3
    ranch_unpaired: int = -5
    colour_majority: int = 2
    alpenzian_per_flower: int = 1
    resident_house: int = 2
    resident_outline: int = 1
    resident_first: int = 5
    resident_second: int = 3
    resident_first_tie: tuple[int, ...] = (4, 3, 2, 2)  # 2, 3, 4, 5+ tied for first
    resident_second_tie: tuple[int, ...] = (2, 1, 1)  # 2, 3, 4+ tied for second
    express: tuple[int, ...] = (4, 9, 15, 22, 30)  # sets of 2, 3, ... houses
    express_beyond: str = "extend"  # "extend": differences grow by 1 (39, 49, ...); "cap": stay at the last
    express_min_rails: int = 2
    solo_colour: tuple[tuple[int, int], ...] = ((0, 0), (3, 1), (4, 2), (5, 3))  # (from flowers, points)
    solo_resident: tuple[tuple[int, int], ...] = ((0, 0), (12, 3), (15, 5))  # (from residents, points)
    titles: tuple[tuple[int, str], ...] = ((0, "Mayor for a day"), (16, "Novice mayor"), (26, "Beloved mayor"),
                                           (36, "Reliable mayor"), (46, "Master mayor"), (56, "Already a king!"))

    def express_points(self, size: int) -> int:
        t = self.express
        if size < 2:
            return 0
        k = size - 2
        if k < len(t):
            return t[k]
        if self.express_beyond == "cap" or len(t) < 2:
            return t[-1]
        value, diff = t[-1], t[-1] - t[-2]
        for _ in range(k - len(t) + 1):
            diff += 1
            value += diff
        return value

    @staticmethod
    def band(table: tuple[tuple[int, int], ...], x: int) -> int:
        out = table[0][1]
        for lo, pts in table:
            if x >= lo:
                out = pts
        return out

    def title(self, score: float) -> int:
        """Index of the one-player title band ('Guide to Scores') for ``score`` (below 0: the first)."""
        k = 0
        for i, (lo, _) in enumerate(self.titles):
            if score >= lo:
                k = i
        return k


@dataclass(frozen=True, slots=True)
class SheetScore:
    """One sheet's own figures (the majority categories need every sheet: see ``score_game``)."""

    ranch: int
    houses: int
    sheep: int
    paired: int
    alpenzian: int
    express: int
    express_sets: tuple[int, ...]  # sizes of the linked sets
    residents: int
    outline: int
    flowers: tuple[int, ...]  # flowers (solid + outline) per colour area


# ---------------------------------------------------------------- drawing rules
def squares_for(board: Board, cells, colour: int, pioneer: bool = False, first_round: bool = False,
                first_house: int = -1) -> list[int]:
    """Empty squares of ``colour`` where an icon may be drawn (5.2-3; Pioneer Town 9-2 (2))."""
    if not pioneer:
        return [i for i in board.colour_cells[colour] if not cells[i]]
    if first_round:
        if colour == BLUE:
            return [i for i in board.colour_cells[BLUE] if not cells[i] and first_house in board.nbr[i]]
        return [i for i in board.gate_next if board.terrain[i] == colour and not cells[i]]
    t, nbr = board.terrain, board.nbr
    return [i for i in board.colour_cells[colour] if not cells[i]
            and any(j >= 0 and t[j] == colour and cells[j] for j in nbr[i])]


# ---------------------------------------------------------------- graphs
def track_starts(board: Board, cells) -> list[tuple[int, int, int, int]]:
    """Where tracks leave houses (RULINGS §5): ``(house, rail cell, rail icon, back)`` for every rail
    beside a house that opens into it; ``back`` is the rail's opening bit towards the house. Shared
    by ``rail_links`` and the strategies' open-track count."""
    nbr = board.nbr
    out = []
    for h, v in enumerate(cells):
        if v != HOUSE:
            continue
        for k in range(4):
            c = nbr[h][k]
            if c < 0:
                continue
            m = cells[c]
            back = 1 << ((k + 2) & 3)
            if m >= RAIL and m & back:
                out.append((h, c, m, back))
    return out


def track_end(board: Board, cells, c: int, m: int, back: int) -> tuple[int, int]:
    """Follow a track from its first rail ``c`` (icon ``m``, entered through side ``back``, as
    ``track_starts`` gives it) over rails that open into each other: ``(square, rails)``, the
    first square that is not such a rail (a house, an empty square, ...; -1 off the sheet) and
    the rails passed. Tracks never loop (RULINGS §5); the bound on steps is a guard."""
    nbr, count = board.nbr, 1
    for _ in range(len(cells)):
        k2 = (m & 15 & ~back).bit_length() - 1
        nxt = nbr[c][k2]
        if nxt < 0:
            return -1, count
        v2 = cells[nxt]
        back = 1 << ((k2 + 2) & 3)
        if v2 < RAIL or not v2 & back:  # a house or empty square (icons below RAIL), or a rail turned away
            return nxt, count
        c, m = nxt, v2
        count += 1
    return -1, count


def rail_links(board: Board, cells) -> list[tuple[int, int, int]]:
    """Every rail track between two houses: ``(house_a, house_b, rails)`` with ``a < b``.

    A track starts at a house, enters a rail that opens into the house, follows rails that open
    into each other, and ends at a house the last rail opens into (RULINGS §5). Each track once.
    """
    out = []
    for h, c, m, back in track_starts(board, cells):
        end, rails = track_end(board, cells, c, m, back)
        if end > h and cells[end] == HOUSE:
            out.append((h, end, rails))
    return out


def _find(parent: dict, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _components(nodes, edges) -> dict[int, int]:
    """Node -> root of its component (union-find)."""
    parent = {x: x for x in nodes}
    for a, b in edges:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: _find(parent, x) for x in nodes}


def fast_matching(adj: list[list[int]], n_right: int) -> int:
    """Size of a maximum bipartite matching (augmenting paths); ``adj[left]`` lists right nodes."""
    match = [-1] * n_right

    def augment(u: int, seen: list[bool]) -> bool:
        for v in adj[u]:
            if not seen[v]:
                seen[v] = True
                if match[v] < 0 or augment(match[v], seen):
                    match[v] = u
                    return True
        return False

    size = 0
    for u in range(len(adj)):
        if adj[u] and augment(u, [False] * n_right):
            size += 1
    return size


def nx_matching(adj: list[list[int]], n_right: int) -> int:
    """Size of a maximum bipartite matching with networkx (Hopcroft-Karp)."""
    import networkx as nx

    g = nx.Graph()
    left = [("h", i) for i in range(len(adj))]
    g.add_nodes_from(left)
    g.add_nodes_from(("s", j) for j in range(n_right))
    g.add_edges_from((("h", i), ("s", j)) for i, vs in enumerate(adj) for j in vs)
    return len(nx.bipartite.hopcroft_karp_matching(g, top_nodes=left)) // 2


def ranch_graph(board: Board, cells, rule: str = "normal", link: str = "rulings",
                links: list[tuple[int, int, int]] | None = None) -> tuple[list[int], list[int], list[list[int]]]:
    """Houses, sheep and, for each house, the sheep it may pair with (section 7 (1), 8).

    ``rule``: ``normal`` (methods 1-3), ``beginner2`` (methods 1 and 2 only), ``beginner1``
    (any house with any sheep). ``link``: ``rulings`` (RULINGS §5: a village and a flock are
    joined when some house of the village reaches some sheep of the flock by method 1 or 2) or
    ``merged`` (villages and rail-joined houses form one group first, then any sheep of a flock
    next to any house of the group joins them).
    """
    houses = [i for i, v in enumerate(cells) if v == HOUSE]
    sheep = [i for i, v in enumerate(cells) if v == SHEEP]
    if not houses or not sheep:
        return houses, sheep, [[] for _ in houses]
    if rule == "beginner1":
        allj = list(range(len(sheep)))
        return houses, sheep, [allj for _ in houses]
    nbr = board.nbr
    if links is None:
        links = rail_links(board, cells)
    rail_edges = [(a, b) for a, b, _ in links]
    sheep_idx = {s: j for j, s in enumerate(sheep)}
    if rule == "normal" and link == "merged":
        village_edges = [(h, j) for h in houses for j in nbr[h][1:3] if j >= 0 and cells[j] == HOUSE]
        group = _components(houses, rail_edges + village_edges)
    else:
        group = _components(houses, rail_edges)
    # rail groups (or merged groups) each sheep touches
    touch = []
    for s in sheep:
        touch.append({group[j] for j in nbr[s] if j >= 0 and cells[j] == HOUSE})
    if rule == "beginner2" or link == "merged":
        if link == "merged" and rule == "normal":  # a flock shares what any of its sheep touches
            flock = _components(sheep, [(s, j) for s in sheep for j in nbr[s][1:3] if j >= 0 and cells[j] == SHEEP])
            reach: dict[int, set] = {}
            for s, t in zip(sheep, touch, strict=True):
                reach.setdefault(flock[s], set()).update(t)
            touch = [reach[flock[s]] for s in sheep]
        adj = [[j for j in range(len(sheep)) if group[h] in touch[j]] for h in houses]
        return houses, sheep, adj
    # normal, RULINGS reading: method 1/2 between single squares, then villages and flocks as units
    village = _components(houses, [(h, j) for h in houses for j in nbr[h][1:3] if j >= 0 and cells[j] == HOUSE])
    flock = _components(sheep, [(s, j) for s in sheep for j in nbr[s][1:3] if j >= 0 and cells[j] == SHEEP])
    pairs = set()
    for h in houses:
        g = group[h]
        for s, t in zip(sheep, touch, strict=True):
            if g in t:
                pairs.add((village[h], flock[s]))
    adj = [[sheep_idx[s] for s in sheep if (village[h], flock[s]) in pairs] for h in houses]
    return houses, sheep, adj


def express_sets(cells, links: list[tuple[int, int, int]], min_rails: int = 2) -> list[int]:
    """Sizes of the sets of houses linked by tracks of at least ``min_rails`` rails (section 7 (5))."""
    edges = [(a, b) for a, b, n in links if n >= min_rails]
    if not edges:
        return []
    nodes = sorted({x for e in edges for x in e})
    comp = _components(nodes, edges)
    sizes: dict[int, int] = {}
    for x in nodes:
        sizes[comp[x]] = sizes.get(comp[x], 0) + 1
    return sorted(sizes.values(), reverse=True)


def score_sheet(board: Board, cells, tables: Tables, rule: str = "normal", link: str = "rulings",
                matcher=fast_matching) -> SheetScore:
    """The figures of one sheet: ranch, Alpenzian and express bonuses, residents, flowers per colour."""
    links = rail_links(board, cells)
    houses, sheep, adj = ranch_graph(board, cells, rule, link, links)
    if rule == "beginner1":
        paired = min(len(houses), len(sheep))
    else:
        paired = matcher(adj, len(sheep)) if houses and sheep else 0
    ranch = paired * tables.ranch_paired + (len(houses) - paired) * tables.ranch_unpaired
    terrain, mnext = board.terrain, board.mountains_next
    flowers = [0, 0, 0, 0, 0]
    alp = outline = 0
    for i, v in enumerate(cells):
        if v == SOLID or v == OUTLINE:
            flowers[terrain[i]] += 1
            alp += mnext[i]
            if v == OUTLINE:
                outline += 1
    sets = express_sets(cells, links, tables.express_min_rails)
    express = sum(tables.express_points(k) for k in sets)
    residents = tables.resident_house * len(houses) + tables.resident_outline * outline
    return SheetScore(ranch, len(houses), len(sheep), paired, alp * tables.alpenzian_per_flower, express,
                      tuple(sets), residents, outline, tuple(flowers))


def colour_points(flowers: list[tuple[int, ...]], tables: Tables, table_mode: bool) -> list[int]:
    """Colour area bonus per seat: majority (2 each to all tied, never for 0) or the 9-1 table."""
    n = len(flowers)
    pts = [0] * n
    for c in range(5):
        counts = [f[c] for f in flowers]
        if table_mode:
            for i in range(n):
                pts[i] += Tables.band(tables.solo_colour, counts[i])
            continue
        best = max(counts)
        if best > 0:
            for i in range(n):
                if counts[i] == best:
                    pts[i] += tables.colour_majority
    return pts


def resident_points(residents: list[int], tables: Tables, table_mode: bool) -> list[int]:
    """Resident bonus per seat: 5 / 3 with the tie table of section 7 (4), or the 9-1 table."""
    n = len(residents)
    if table_mode:
        return [Tables.band(tables.solo_resident, r) for r in residents]
    first = max(residents)
    top = [i for i in range(n) if residents[i] == first]
    pts = [0] * n
    if len(top) > 1:
        t = tables.resident_first_tie
        for i in top:
            pts[i] = t[min(len(top) - 2, len(t) - 1)]
        return pts
    pts[top[0]] = tables.resident_first
    rest = [r for i, r in enumerate(residents) if i != top[0]]
    if not rest:
        return pts
    second = max(rest)
    sec = [i for i in range(n) if residents[i] == second]
    if len(sec) == 1:
        pts[sec[0]] = tables.resident_second
    else:
        t = tables.resident_second_tie
        for i in sec:
            pts[i] = t[min(len(sec) - 2, len(t) - 1)]
    return pts


@dataclass(frozen=True, slots=True)
class GameScore:
    """Every seat's points by category and total."""

    sheets: tuple[SheetScore, ...]
    colour: tuple[int, ...]
    resident: tuple[int, ...]
    total: tuple[int, ...]


def score_game(boards, cells_list, tables: Tables, rules, link: str = "rulings", colour_table: bool = False,
               resident_table: bool = False, matcher=fast_matching) -> GameScore:
    """Score every sheet; ``rules[seat]`` is that seat's ranch rule (section 8: players may mix)."""
    sheets = tuple(score_sheet(b, c, tables, r, link, matcher) for b, c, r in zip(boards, cells_list, rules, strict=True))
    colour = colour_points([s.flowers for s in sheets], tables, colour_table)
    resident = resident_points([s.residents for s in sheets], tables, resident_table)
    total = tuple(s.ranch + c + s.alpenzian + r + s.express for s, c, r in zip(sheets, colour, resident, strict=True))
    return GameScore(sheets, tuple(colour), tuple(resident), total)
