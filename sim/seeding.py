"""Every random number of a game comes from here (DESIGN principle 4).

A game's streams derive from ``(root seed, game index)`` only, so results do not depend on
the number of workers, the chunking or the backend:
``SeedSequence(root, spawn_key=(game_index,)).spawn(1 + players)`` gives the chance stream
(index 0) and one stream per seat (index 1 + seat).
"""

from __future__ import annotations

import itertools
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


# ------------------------------------------------------------------ duplicate seating (deals)

# Ten directed Hamiltonian cycles of the complete directed graph on 6 vertices that together hold
# every ordered pair (a, b), a != b, exactly twice as neighbours (a just before b, circularly).
# A single set holding each pair once does not exist for 6 (Tillson 1980: only n = 4 and 6 lack
# one), hence twice. Found by exhaustive backtracking; ``tests/test_verdicts.py`` checks the balance.
_CYCLES_6 = ((0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 5, 4), (0, 2, 1, 3, 4, 5), (0, 2, 1, 5, 4, 3), (0, 3, 2, 5, 1, 4),
             (0, 3, 5, 1, 4, 2), (0, 4, 1, 5, 3, 2), (0, 4, 2, 5, 3, 1), (0, 5, 2, 4, 1, 3), (0, 5, 2, 4, 3, 1))


def _balanced_cycles(n: int) -> list[tuple[int, ...]]:
    """Cyclic orders of ``0..n-1`` in which every ordered pair is circular neighbours equally often."""
    if n == 6:
        return list(_CYCLES_6)
    if n == 5:  # Z_5: the cycles x -> x + d (d = 1..4) hold each pair (x, x + d) once
        return [tuple((d * i) % 5 for i in range(5)) for d in range(1, 5)]
    raise ValueError(f"no balanced cycle set for {n} seats")


def deal_assignments(classes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The assignments of one deal (``seating: permute``): each a tuple giving, per seat, an index
    into the configured strategies.

    ``classes``: per configured strategy, an id shared by identical strategies (same label), e.g.
    ``(0, 0, 1)`` for two copies of one strategy and one of another. Up to 4 seats: every
    *distinct* assignment once (n! when all differ; 4!/(2!2!) = 6 for two pairs), in
    lexicographic order of the ids. 5 and 6 seats: a balanced set of the configured strategies'
    positions: every cycle of ``_balanced_cycles`` at every rotation (20 for 5 seats, 60 for 6),
    so each strategy holds each seat, and each ordered pair of strategies sits next to each other
    (the first just before the second, turn order wrapping round), equally often.
    Raises ``ValueError`` for more than 6 seats.
    """
    n = len(classes)
    if n <= 4:
        seen: dict[tuple[int, ...], None] = {}
        for perm in itertools.permutations(range(n)):
            seen.setdefault(tuple(classes[i] for i in perm), None)
        out = []
        for pattern in sorted(seen):  # map each class pattern back to configured indices, in order
            pools = {c: [i for i in range(n) if classes[i] == c] for c in set(classes)}
            out.append(tuple(pools[c].pop(0) for c in pattern))
        return out
    if n > 6:
        raise ValueError(f"seating: permute supports at most 6 seats, got {n}")
    return [tuple(cyc[(r + s) % n] for s in range(n)) for cyc in _balanced_cycles(n) for r in range(n)]
