"""Every random number of a game comes from here (DESIGN principle 4).

A game's streams derive from ``(root seed, game index)`` only, so results do not depend on
the number of workers, the chunking or the backend:
``SeedSequence(root, spawn_key=(game_index,)).spawn(1 + players)`` gives the chance stream
(index 0) and one stream per seat (index 1 + seat).
"""

from __future__ import annotations

import random

import numpy as np


def game_streams(root_seed: int, game_index: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """Return ``(chance_rng, [seat_rng, ...])`` for one game; ``players`` seat streams.

    Python ``random.Random`` objects (fast scalar draws), each seeded with 128 bits of its
    own ``SeedSequence`` child. Raises ``ValueError`` for a negative seed or index.
    """
    if root_seed < 0 or game_index < 0:
        raise ValueError("seed and game index must be non-negative integers")
    children = np.random.SeedSequence(root_seed, spawn_key=(game_index,)).spawn(1 + players)
    rngs = [random.Random(int.from_bytes(c.generate_state(4, np.uint32).tobytes(), "little")) for c in children]
    return rngs[0], rngs[1:]


def sub_rng(root_seed: int, *key: int) -> random.Random:
    """A stream for work outside a game (e.g. bootstrap resampling), keyed by small integers."""
    ss = np.random.SeedSequence(root_seed, spawn_key=tuple(key))
    return random.Random(int.from_bytes(ss.generate_state(4, np.uint32).tobytes(), "little"))
