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
        model_config = ConfigDict(extra="forbid", frozen=True)

        @model_validator(mode="before")
        @classmethod
        def _strict_values(cls, data: Any) -> Any:
            return no_coercion(cls, data)

    games: tuple[str, ...] = ()  # empty: any game

    def __init__(self, **params: Any) -> None:
        self.p = self.Params(**params)

    def choose(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Any:  # pragma: no cover
        raise NotImplementedError


class RandomStrategy(ScriptedStrategy):
    """Uniformly random legal action (any game). No parameters."""

    def choose(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]


class FirstLegalStrategy(ScriptedStrategy):
    """Always the first legal action in the engine's canonical order (any game). No parameters."""

    def choose(self, obs, legal, rng):
        return legal[0]


STRATEGIES = {"random": RandomStrategy, "first_legal": FirstLegalStrategy}
