"""Helpers of the ``taiwan.*`` plans (``planner.py``, ``expert.py``): the area-majority rule and
a per-decision cache."""

from __future__ import annotations

import functools

from sim.games.taiwan_formosa.observation import area_majority

_majority = area_majority  # the engine's own rule, from the public observation module


def per_decision(fn):
    """Cache ``fn(self, obs, *args)`` (hashable ``args``) while ``obs`` is the observation being
    decided on: values that depend only on the observation and the parameters, asked for many
    times in one decision (one card's value, the rounds left). The cache holds the observation
    itself, so a later observation (a new object) always starts afresh; never for values that
    draw from ``rng``."""
    name = fn.__name__

    @functools.wraps(fn)
    def cached(self, obs, *args):
        memo = self.__dict__.get("_memo")
        if memo is None or memo[0] is not obs:
            memo = self.__dict__["_memo"] = (obs, {})
        key = (name, *args)
        table = memo[1]
        if key in table:
            return table[key]
        value = table[key] = fn(self, obs, *args)
        return value
    return cached
