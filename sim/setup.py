"""A run resolved to plain values (``Setup``) and its seating: which strategy sits in which seat
of each game, deals under duplicate seating (``permute``), and each game's random streams."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .registry import build_game
from .seeding import deal_assignments, game_streams, stream_seeds  # noqa: F401  (game_streams: the reference derivation)


@dataclass(frozen=True)
class Setup:
    """A run resolved to plain values: what the workers need to play its games.

    ``strategies``: one ``(name, params)`` per configured strategy, ``labels`` their names in the
    tables; ``seating``: ``rotate``, ``fixed`` or ``permute`` (deals, see ``seat_labels``); ``module_folder``: where import-string
    strategies next to the config are found ("" for none); ``quiet``: what strategies print to standard
    output while the games play goes nowhere (``--quiet``: designer finding 6, session 8). Crosses
    process boundaries as JSON.
    """

    game: str
    players: int
    seed: int
    options: dict
    data: dict
    strategies: tuple
    labels: tuple
    seating: str = "rotate"
    module_folder: str = ""
    plugins: bool = True
    game_timeout_s: float = 60.0
    quiet: bool = False

    @property
    def max_decisions(self) -> int:
        return int(self.options["max_decisions"])

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Setup:
        d = json.loads(text)
        d["strategies"] = tuple((n, p) for n, p in d["strategies"])
        d["labels"] = tuple(d["labels"])
        return cls(**d)

    def build_game(self) -> Any:
        """The game of this setup (``SimError`` on bad data files, ``ValueError`` on bad options)."""
        return build_game(self.game, self.players, self.options, {k: Path(v) for k, v in self.data.items()})


def seat_labels(setup: Setup, game_index: int) -> list[int]:
    """Index into ``setup.strategies`` for each seat of game ``game_index``.

    ``rotate``: seat i plays strategy (i + game_index) mod players, so over any ``players``
    consecutive games each strategy plays each seat once. ``fixed``: seat i plays strategy i.
    ``permute``: game ``g`` is assignment ``g % k`` of deal ``g // k``, the ``k`` assignments of
    ``sim.seeding.deal_assignments`` (every distinct assignment for up to 4 seats, a balanced set
    for 5-6).
    """
    n = setup.players
    if setup.seating == "fixed":
        return list(range(n))
    if setup.seating == "permute":
        deal = _deal(setup.labels)
        return list(deal[game_index % len(deal)])
    return [(i + game_index) % n for i in range(n)]


@lru_cache(maxsize=16)
def _deal(labels: tuple) -> list[tuple[int, ...]]:
    return deal_assignments(tuple(labels.index(lab) for lab in labels))


def deal_size(setup: Setup) -> int:
    """Games per deal: the number of assignments under ``permute``, else 1 (each game its own deal)."""
    return len(_deal(tuple(setup.labels))) if setup.seating == "permute" else 1


def deal_index(setup: Setup, game_index: int) -> int:
    """The deal of game ``game_index``: ``game_index // deal_size`` (= ``game_index`` unless permute)."""
    return game_index // deal_size(setup)


def streams(setup: Setup, game_index: int) -> tuple[Any, list[Any]]:
    """``(chance, seat streams)`` of a game: seat streams from the game index, the chance stream
    from the deal (so every game of a deal sees the same shuffles; = the game's own unless permute).

    The same streams as ``sim.seeding.game_streams`` (``tests/test_pipeline_streams.py`` checks
    it), built without the parent ``SeedSequence``: child ``k`` of ``SeedSequence(root,
    spawn_key=(g,))`` is ``SeedSequence(root, spawn_key=(g, k))`` (numpy's ``spawn``), so only
    the streams in use are derived (issue 20 item 1: about half the cost per game).
    """
    seed, n = setup.seed, setup.players
    if seed < 0 or game_index < 0:
        raise ValueError("seed and game index must be non-negative integers")
    if setup.seating == "permute":
        seeds = [*stream_seeds(seed, deal_index(setup, game_index), (0,)), *stream_seeds(seed, game_index, range(1, n + 1))]
    else:  # one derivation for the game's n + 1 streams (sim.seeding.stream_seeds: numpy's, in Python)
        seeds = stream_seeds(seed, game_index, range(n + 1))
    rng = random.Random
    return rng(seeds[0]), [rng(x) for x in seeds[1:]]
