"""Observation helpers shared by the Xanadu strategies (they see only the seat's ``Observation``).

Ties among equally valued choices are always broken with the strategy's ``rng`` (``pick``), never
by seat, list position or card id (issue 17, DESIGN "Strategies").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from sim.games.xanadu.actions import EndTurn
from sim.games.xanadu.observation import Observation

T = TypeVar("T")


class Tables:
    """Sparse per-card tables of a card list (``Observation.cards``), built once per game
    (``tables``): ``box_items[c][n]`` the (resource, count) pairs of box ``n`` of card ``c``;
    ``perm_items[c][k]`` the (resource, count) permanent resources card ``c`` gives its owner
    under ``k`` workers (printed one plus the Khan's help of the covered boxes, RULINGS §4);
    ``prices[c]`` the five prices."""

    __slots__ = ("cards", "box_items", "perm_items", "prices")

    def __init__(self, cards):
        self.cards = cards
        self.box_items = tuple(tuple(tuple((r, k) for r, k in enumerate(b) if k) for b in c.boxes) for c in cards)
        self.perm_items = tuple(tuple(_perm_items(c, k) for k in range(5)) for c in cards)
        self.prices = tuple(c.prices for c in cards)


def _perm_items(card, k: int) -> tuple[tuple[int, int], ...]:
    got: dict[int, int] = {}
    for r in ([card.permanent] if card.permanent >= 0 else []) + [x for x in card.khan[:k] if x >= 0]:
        got[r] = got.get(r, 0) + 1
    return tuple(sorted(got.items()))


_TABLES: list[Tables] = []  # the last card list's tables (one game at a time in practice)


def tables(obs: Observation) -> Tables:
    """The ``Tables`` of ``obs.cards`` (cached; the card list is the game's constant)."""
    cards = obs.cards
    if _TABLES and _TABLES[0].cards is cards:
        return _TABLES[0]
    t = Tables(cards)
    _TABLES[:] = [t]
    return t


def pick(items: Iterable[T], key: Callable[[T], float], rng: random.Random) -> T | None:
    """The item with the highest ``key``; among ties one chosen uniformly with ``rng``. ``None``
    when ``items`` is empty. The tie set is put in a canonical order (``repr``) first, so the
    result does not depend on the order of ``items``."""
    best: list[T] = []
    top = None
    for x in items:
        v = key(x)
        if top is None or v > top:
            top, best = v, [x]
        elif v == top:
            best.append(x)
    if not best:
        return None
    if len(best) == 1:
        return best[0]
    best.sort(key=repr)
    return best[int(rng.random() * len(best))]


class PromptDispatch:
    """``choose`` by the observation's prompt, shared by the Xanadu strategies: ``start`` -> the
    legal ``PlaceStart`` with the highest ``start_value(obs, card)`` (ties with ``rng``), ``sell`` ->
    ``choose_sale``, ``draw`` -> ``choose_draw``, anything else -> ``choose_work`` (each hook takes
    ``(obs, legal, rng)`` and returns one of ``legal``)."""

    def choose(self, obs, legal, rng):
        prompt = obs.prompt
        if prompt == "start":
            return pick(legal, lambda a: self.start_value(obs, a.card), rng)
        if prompt == "sell":
            return self.choose_sale(obs, legal, rng)
        if prompt == "draw":
            return self.choose_draw(obs, legal, rng)
        return self.choose_work(obs, legal, rng)


def end_turn(legal: Sequence) -> EndTurn:
    """The ``EndTurn`` action of a phase-2 legal list (wherever it sits in the list)."""
    return next(a for a in legal if isinstance(a, EndTurn))


_MEMO: dict[str, tuple] = {}  # name -> (observation, value): the last observation's table and spendable resources


def _memo(name: str, obs: Observation):
    """The value cached for ``name`` if it was computed for this very observation object (the
    plans ask for the same table once per hand card); the memo holds the observation, so its id
    cannot be reused while cached."""
    got = _MEMO.get(name)
    return got[1] if got is not None and got[0] is obs else None


def table(obs: Observation) -> list[tuple[int, int, int]]:
    """Every built card as (card, owner, workers on it). Read-only (shared between calls for the
    same observation)."""
    rows = _memo("table", obs)
    if rows is None:
        rows = [(c, s, len(pl)) for s, (row, prow) in enumerate(zip(obs.built, obs.placers, strict=True))
                for c, pl in zip(row, prow, strict=True)]
        _MEMO["table"] = (obs, rows)
    return rows


def permanent(obs: Observation, seat: int) -> list[int]:
    """Per resource: printed permanent resources and the Khan's help of ``seat``'s built cards."""
    out = [0] * len(obs.resources)
    perm_items = tables(obs).perm_items
    for c, pl in zip(obs.built[seat], obs.placers[seat], strict=True):
        for r, k in perm_items[c][len(pl)]:
            out[r] += k
    return out


def available(obs: Observation) -> list[int]:
    """What the active seat can still spend this turn, per resource."""
    got = _memo("available", obs)
    if got is None:
        perm = permanent(obs, obs.active)
        got = [a + b - u for a, b, u in zip(obs.pool, perm, obs.perm_used, strict=True)]
        _MEMO["available"] = (obs, got)
    return list(got)


def price(obs: Observation, card: int, covered: int) -> int:
    """Phase-1 sale price in tong bao, the 5-6 player bonus included (``Observation.price``)."""
    return obs.price(card, covered)


def wealth(obs: Observation, seat: int) -> int:
    """Tong bao plus what ``seat``'s table would sell for now (end-of-game sale prices)."""
    return obs.coins[seat] + sum(obs.end_price(c, n) for c, s, n in table(obs) if s == seat)


def plan_workers(obs: Observation, card: int, max_workers: int, me: int,
                 rng: random.Random) -> tuple[int, int] | None:
    """Greedy plan to gather ``card``'s missing resources with at most ``max_workers`` workers.

    Returns ``(workers needed, first target)`` (target -1 when nothing is missing), or None when
    the greedy plan fails. Each step takes the lowest free box that covers most of what is still
    missing, preferring boxes that raise own prices and lower others' (ties: ``rng``).
    """
    avail = available(obs)
    need = [c - a if c > a else 0 for c, a in zip(obs.cards[card].cost, avail, strict=True)]
    if not any(need):
        return 0, -1
    got = _memo("levels", obs)
    if got is None:
        side = set(obs.sideways)
        rows = table(obs)
        got = ({c: n for c, s, n in rows if n < 4 and c not in side}, {c: s for c, s, _ in rows})
        _MEMO["levels"] = (obs, got)
    level, owner = dict(got[0]), got[1]  # the plan raises its own copy of the levels
    tab = tables(obs)
    box_items, prices = tab.box_items, tab.prices
    first = -1
    for step in range(max_workers):
        def score(t: int, need=need) -> float:
            n = level[t]
            if n >= 4:
                return 0.0
            useful = 0  # what box n of t covers of the missing resources (sparse: 1-2 resources a box)
            for r, k in box_items[t][n]:
                x = need[r]
                useful += k if k < x else x
            if not useful:
                return 0.0
            delta = prices[t][n + 1] - prices[t][n]
            return 10 * useful + (delta if owner[t] == me else -0.5 * delta)

        best = pick(level, score, rng)
        if best is None or score(best) <= 0:
            return None
        for r, k in box_items[best][level[best]]:
            need[r] = need[r] - k if need[r] > k else 0
        level[best] += 1
        if first < 0:
            first = best
        if not any(need):
            return step + 1, first
    return None
