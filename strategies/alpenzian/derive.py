"""The plans' sheet analysis carried over one own draw (issue 20 item 2, round six).

A seat's sheet changes between two of its turns only by its own draw. ``after(base, cells, x, icon)``
gives the ``evaluator.SheetBase`` of ``cells`` (the analysed sheet with ``icon`` drawn at the empty
square ``x``) from ``base`` when the draw leaves every house, sheep and rail link where it was, so
the rail groups, villages, flocks, express sets and matchings of ``base`` still hold (section 7
(1)-(5), RULINGS §5):

* a flower: counts change (flowers per colour, Alpenzian contacts, residents for an outline
  flower) and the open tracks ending at ``x`` close;
* a rail meeting no track (``SheetBase.quiet_rail``): the squares it opens into change;
* any other rail whose tracks, walked again (``tracks.sheet_tracks``), link the same houses: the
  open track ends and the tracks arriving at each empty square are those of the new walk.

In every case the sheep beside ``x`` lose an empty square (free sheep). A house or sheep beside no
house, sheep or rail opening into ``x`` forms units of its own (``_lone``, session 7); any other sheep
moves no track either, so only the ranch analysis is redone (``_sheep``, session 8). Other houses,
and rails completing a link, return None: the caller analyses the sheet afresh. The memos of pairs
after a draw carry over when the units stand (they depend only on the units); the per-square ones
are dropped where the draw can change them. ``tests/test_alpenzian_derive.py`` compares the result with a fresh analysis.
"""

from __future__ import annotations

from operator import ne

from sim.compiled import is_copy
from sim.games.alpenzian.actions import HOUSE, OUTLINE, RAIL, SHEEP, SOLID

from .evaluator import SheetBase
from .tracks import OPEN_RAILS, sheet_tracks

COMPILED = is_copy(__file__)  # this module runs as its compiled copy (sim/compiled.py)

# every attribute of a ``SheetBase`` (evaluator.pxd declares them as the fields of the compiled class)
FIELDS = ("board", "cells", "t", "rule", "houses", "sheep", "flowers", "alp", "outline", "residents", "links",
          "group", "group_houses", "xroot", "xsize", "express", "normal", "paired", "village", "village_houses",
          "flock", "flock_sheep", "touch", "vedges", "ucomp", "comp_units", "comp_match", "_empty", "free",
          "last_free", "rail_in", "house_next", "open", "want_open", "arriving", "_joins", "_ctx", "_pairs", "_live")


def single_change(old, new):
    """The one square where the sheets ``old`` and ``new`` (as long) differ, or -1 (none, or several)."""
    if not COMPILED:  # Python: C-speed builtins
        diff = list(map(ne, old, new))
        return diff.index(True) if diff.count(True) == 1 else -1
    x = -1
    for i in range(len(new)):  # a C loop (derive.pxd)
        if old[i] != new[i]:
            if x >= 0:
                return -1
            x = i
    return x


def _copy(base: SheetBase) -> SheetBase:
    """A new analysis holding the same objects as ``base`` (the caller replaces what a draw changes)."""
    new = SheetBase.__new__(SheetBase)
    d = getattr(base, "__dict__", None)
    if d is not None:  # Python: the attributes are the instance's dict
        new.__dict__.update(d)
    else:  # compiled (evaluator.pxd): C fields
        _fields(new, base)
    return new


def _fields(new: SheetBase, base: SheetBase) -> None:
    """Set every field of ``FIELDS`` on ``new`` to ``base``'s (C field copies when compiled: derive.pxd)."""
    new.board, new.cells, new.t, new.rule, new.houses = base.board, base.cells, base.t, base.rule, base.houses
    new.sheep, new.flowers, new.alp, new.outline = base.sheep, base.flowers, base.alp, base.outline
    new.residents, new.links, new.group, new.group_houses = base.residents, base.links, base.group, base.group_houses
    new.xroot, new.xsize, new.express, new.normal = base.xroot, base.xsize, base.express, base.normal
    new.paired, new.village, new.village_houses, new.flock = base.paired, base.village, base.village_houses, base.flock
    new.flock_sheep, new.touch, new.vedges, new.ucomp = base.flock_sheep, base.touch, base.vedges, base.ucomp
    new.comp_units, new.comp_match, new._empty, new.free = base.comp_units, base.comp_match, base._empty, base.free
    new.last_free, new.rail_in, new.house_next, new.open = base.last_free, base.rail_in, base.house_next, base.open
    new.want_open, new.arriving, new._joins, new._ctx = base.want_open, base.arriving, base._joins, base._ctx
    new._pairs, new._live = base._pairs, base._live


def after(base: SheetBase, cells: tuple, x: int, icon: int) -> SheetBase | None:
    """``SheetBase(cells)`` derived from ``base`` (``cells``: ``base.cells`` with ``icon`` at the empty
    square ``x``), or None when the draw moves a house, a sheep or a rail link."""
    flower = icon == SOLID or icon == OUTLINE
    if not flower and icon < RAIL:
        if icon == HOUSE:
            return _lone(base, cells, x, icon)
        return (_lone(base, cells, x, icon) or _sheep(base, cells, x)) if icon == SHEEP else None
    b = base.board
    walked = None
    if not flower and not base.quiet_rail(x):
        walked = sheet_tracks(b, cells)
        if walked[0] != base.links:
            return None
    new = _copy(base)
    new.cells, new._ctx = cells, {}
    if flower:
        flowers = list(base.flowers)
        flowers[b.terrain[x]] += 1
        new.flowers, new.alp = tuple(flowers), base.alp + b.mountains_next[x]
        if icon == OUTLINE:
            new.outline, new.residents = base.outline + 1, base.residents + base.t.resident_outline
        here = base.arriving.get(x)
        if here:  # the tracks ending at ``x`` end at a flower now: no longer open
            new.arriving = {k: v for k, v in base.arriving.items() if k != x}
            if base.want_open:
                new.open = base.open - sum(min(n, OPEN_RAILS) for _s, n, _h in here)
    else:  # the squares the rail opens into (and their live sides) change
        nbr = b.nbr[x]
        new.rail_in = base.rail_in | {nbr[k] for k in range(4) if icon & (1 << k) and nbr[k] >= 0}
        new._live = {}
        if walked is not None:
            new.arriving = walked[2]
            new.open = walked[1] if base.want_open else 0
    empty = base._empty
    beside = [s for s in b.nbr[x] if s in empty]
    if beside:
        empty = new._empty = dict(empty)
        for s in beside:
            empty[s] -= 1
        new.free = sum(1 for v in empty.values() if v)
        new.last_free = {s for s, v in empty.items() if v == 1}
    return new


def _lone(base: SheetBase, cells: tuple, x: int, icon: int) -> SheetBase | None:
    """A house or sheep at ``x`` beside no house, sheep or rail opening into ``x``: a unit of its own
    (its village or flock, rail group, express set and house-sheep component, with no pairs), so every
    other unit and matching stands (session 7); None for any other house or sheep."""
    nbr = base.board.nbr[x]
    if x in base.rail_in or any(j >= 0 and (cells[j] == HOUSE or cells[j] == SHEEP) for j in nbr):
        return None
    new = _copy(base)
    new.cells, new._ctx, new._joins = cells, {}, None
    t = base.t
    if icon == HOUSE:
        new.houses = base.houses + 1
        new.residents = base.residents + t.resident_house
        new.group, new.group_houses = {**base.group, x: x}, {**base.group_houses, x: [x]}
        new.xroot, new.xsize = {**base.xroot, x: x}, {**base.xsize, x: 1}
        new.express = base.express + t.express_points(1)
        new.house_next = base.house_next | set(nbr)
        new._live = {}  # the squares beside ``x`` face a house now
    else:
        new.sheep = base.sheep + 1
        empty = base.board.terrain
        n = sum(1 for j in nbr if j >= 0 and empty[j] < 5 and not cells[j])
        new._empty = {**base._empty, x: n}
        new.free = base.free + (n > 0)
        new.last_free = base.last_free | {x} if n == 1 else base.last_free
    if base.rule == "beginner1":
        new.paired = min(new.houses, new.sheep)
        return new
    if icon == HOUSE:
        new.village, new.village_houses = {**base.village, x: x}, {**base.village_houses, x: [x]}
        new.touch, new.vedges = {**base.touch, x: set()}, {**base.vedges, x: set()}
    else:
        new.flock, new.flock_sheep = {**base.flock, x: x}, {**base.flock_sheep, x: [x]}
    new.ucomp, new.comp_units = {**base.ucomp, x: x}, {**base.comp_units, x: [x]}
    new.comp_match = {**base.comp_match, x: 0}
    return new


def _sheep(base: SheetBase, cells: tuple, x: int) -> SheetBase:
    """A sheep at ``x`` joining units (session 8): it moves no track (tracks arriving at ``x`` end at a
    sheep now: no longer open, as after a flower), so the rail groups and express sets stand; the free
    sheep are updated and the ranch analysis (villages, flocks, components and their matchings) is
    redone over the new sheet."""
    b = base.board
    new = _copy(base)
    new.cells, new._ctx, new._pairs, new._joins = cells, {}, {}, None
    new.sheep = base.sheep + 1
    here = base.arriving.get(x)
    if here:
        new.arriving = {k: v for k, v in base.arriving.items() if k != x}
        if base.want_open:
            new.open = base.open - sum(min(n, OPEN_RAILS) for _s, n, _h in here)
    nbr, terrain = b.nbr, b.terrain
    empty = new._empty = dict(base._empty)
    for s in nbr[x]:
        if s in empty:
            empty[s] -= 1
    empty[x] = sum(1 for j in nbr[x] if j >= 0 and terrain[j] < 5 and not cells[j])
    new.free = sum(1 for v in empty.values() if v)
    new.last_free = {s for s, v in empty.items() if v == 1}
    houses = [i for i, v in enumerate(cells) if v == HOUSE]
    new._ranch_base(houses, [i for i, v in enumerate(cells) if v == SHEEP], nbr, cells)
    return new
