"""Strategies that play any game through the engine protocol."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from sim.api import no_coercion


class ScriptedStrategy:
    """Base for strategies with documented parameters: subclasses define ``Params`` (pydantic).

    ``Strategy(**params)`` validates the params; unknown keys raise ``pydantic.ValidationError``.
    """

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # .nan/.inf: config errors

        @model_validator(mode="before")
        @classmethod
        def _strict_values(cls, data: Any) -> Any:
            return no_coercion(cls, data)

    games: tuple[str, ...] = ()  # empty: any game
    # False: ``choose`` never reads ``obs``, so the game loop builds none and passes None (issue 20)
    reads_observation = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a subclass with its own ``choose`` reads its observation unless it says otherwise
        if "choose" in vars(cls) and "reads_observation" not in vars(cls):
            cls.reads_observation = True

    def __init__(self, **params: Any) -> None:
        self.p = self.Params(**params)

    def choose(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Any:  # pragma: no cover
        raise NotImplementedError


class RandomStrategy(ScriptedStrategy):
    """Uniformly random legal action (any game). No parameters."""

    reads_observation = False
    # the game loop may draw this choice itself (same ``rng.random()``, same element): ``sim.play``
    uniform_choice = True

    def choose(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]


class FirstLegalStrategy(ScriptedStrategy):
    """Always the first legal action in the engine's canonical order (any game). No parameters."""

    reads_observation = False

    def choose(self, obs, legal, rng):
        return legal[0]


class RandomByKindStrategy(ScriptedStrategy):
    """The beginner baseline (any game): a kind of action uniformly (the action's class: buy, take
    coins, place a worker, pass, ...), then an action of that kind uniformly. Unlike ``random``,
    a long list of one kind (90% worker placements in Xanadu) does not drown the other kinds, so it
    measures "how much does playing well matter" rather than the size of the action lists.
    No parameters."""

    reads_observation = False

    def choose(self, obs, legal, rng):
        kinds: dict[type, list] = {}
        for a in legal:  # first-seen order of the canonical list: reproducible, no set iteration
            kinds.setdefault(type(a), []).append(a)
        group = list(kinds.values())[int(rng.random() * len(kinds))]
        return group[int(rng.random() * len(group))]


STRATEGIES = {"random": RandomStrategy, "random_by_kind": RandomByKindStrategy, "first_legal": FirstLegalStrategy}
