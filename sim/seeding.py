"""Every random number of a game comes from here (DESIGN principle 4).

A game's streams derive from ``(root seed, game index)`` only, so results do not depend on
the number of workers, the chunking or the backend:
``SeedSequence(root, spawn_key=(game_index,)).spawn(1 + players)`` gives the chance stream
(index 0) and one stream per seat (index 1 + seat).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

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


# numpy's SeedSequence (pool of 4 words, its hashmix/mix constants), in plain Python for the one
# case the runs use: ``SeedSequence(seed, spawn_key=(game_index, k)).generate_state(4, uint32)``.
# The pool after the seed's words is the same for every game and the pool after the game index
# is the same for all its streams, so each is mixed once (issue 20 item 1: about 3x cheaper than
# numpy per game). ``tests/test_play_loop.py`` checks it against numpy.
_M32, _MULT_A, _MULT_B = 0xFFFFFFFF, 0x931E8875, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _consts(init: int, mult: int, n: int) -> list[int]:
    out = [init]
    for _ in range(n):
        out.append((out[-1] * mult) & _M32)
    return out


_HA = _consts(0x43B0D7E5, _MULT_A, 64)  # the hash constant before each hashmix of mix_entropy
_HB = _consts(0x8B51F9DD, _MULT_B, 4)  # the same for generate_state


def _words(x: int) -> list[int]:
    """``x`` as little-endian 32-bit words (numpy: ``[0]`` for 0)."""
    out = []
    while x:
        out.append(x & _M32)
        x >>= 32
    return out or [0]


def _mix_in(pool: list[int], words: list[int], j: int) -> tuple[list[int], int]:
    """Mix each word into every pool word (``mix_entropy``'s last loop); ``j``: hashmixes so far."""
    for e in words:
        out = []
        for p in pool:
            v = ((e ^ _HA[j]) * _HA[j + 1]) & _M32
            r = (_MIX_L * p - _MIX_R * (v ^ (v >> 16))) & _M32
            out.append(r ^ (r >> 16))
            j += 1
        pool = out
    return pool, j


def _seed_pool(seed: int) -> tuple[list[int], int]:
    """The pool after the seed's words (padded to 4) and the cross-mix: 16 hashmixes."""
    run = _words(seed) + [0] * 3
    pool, j = [], 0
    for e in run[:4]:
        v = ((e ^ _HA[j]) * _HA[j + 1]) & _M32
        pool.append(v ^ (v >> 16))
        j += 1
    for s in range(4):
        for d in range(4):
            if s != d:
                v = ((pool[s] ^ _HA[j]) * _HA[j + 1]) & _M32
                r = (_MIX_L * pool[d] - _MIX_R * (v ^ (v >> 16))) & _M32
                pool[d] = r ^ (r >> 16)
                j += 1
    return pool, j


_POOLS: dict[int, tuple[list[int], int]] = {}
_K_HASH: dict[tuple[int, int], tuple[int, ...]] = {}  # (stream index k, hashmixes so far) -> k's four hashmixes


def stream_seeds(seed: int, game_index: int, ks: Sequence[int]) -> list[int]:
    """``[int.from_bytes(SeedSequence(seed, spawn_key=(game_index, k)).generate_state(4,
    np.uint32).tobytes(), "little") for k in ks]``, computed without numpy. Seeds of more than
    4 words or indexes past the precomputed constants go through numpy itself, and so do negative
    ones: numpy raises its ``ValueError`` (``_words`` of a negative number would never end)."""
    if seed < 0 or game_index < 0 or min(ks, default=0) < 0:
        return [_numpy_seed(seed, game_index, k) for k in ks]
    extra = len(_words(game_index)) + max([len(_words(k)) for k in ks], default=1)
    if seed.bit_length() > 128 or 16 + 4 * extra >= len(_HA):
        return [_numpy_seed(seed, game_index, k) for k in ks]
    if seed not in _POOLS:
        if len(_POOLS) > 64:
            _POOLS.clear()
        _POOLS[seed] = _seed_pool(seed)
    base, j = _POOLS[seed]
    pool, j = _mix_in(base, _words(game_index), j)
    p0, p1, p2, p3 = pool
    b0, b1, b2, b3, b4 = _HB
    ml, mr, m32 = _MIX_L, _MIX_R, _M32  # locals: C unsigned 64-bit when compiled (seeding.pxd)
    out = []
    for k in ks:
        if k > _M32:  # more than one word: the general mix
            pk, _ = _mix_in(pool, _words(k), j)
            value = 0
            for i, p in enumerate(pk):
                v = ((p ^ _HB[i]) * _HB[i + 1]) & _M32
                value |= int(v ^ (v >> 16)) << (32 * i)  # int(): a Python int when compiled
            out.append(value)
            continue
        # one word: its four hashmixes depend on (k, j) only, kept in _K_HASH; then _mix_in's
        # mix into each pool word and generate_state's hash, unrolled (issue 20 item 1)
        hs = _K_HASH.get((k, j))
        if hs is None:
            if len(_K_HASH) > 4096:
                _K_HASH.clear()
            hs = _K_HASH[k, j] = _k_hash(k, j)
        # every operand below 2**32, every product below 2**64: when compiled, C unsigned 64-bit
        # arithmetic (a difference that wraps keeps its low 32 bits); the seed itself a Python int
        h0, h1, h2, h3 = hs
        r = (ml * p0 - mr * h0) & m32
        v = (((r ^ (r >> 16)) ^ b0) * b1) & m32
        value = v ^ (v >> 16)
        r = (ml * p1 - mr * h1) & m32
        v = (((r ^ (r >> 16)) ^ b1) * b2) & m32
        value |= (v ^ (v >> 16)) << 32  # below 2**64: a C shift when compiled
        r = (ml * p2 - mr * h2) & m32
        v = (((r ^ (r >> 16)) ^ b2) * b3) & m32
        value |= int(v ^ (v >> 16)) << 64  # int(): shifted as a Python int when compiled
        r = (ml * p3 - mr * h3) & m32
        v = (((r ^ (r >> 16)) ^ b3) * b4) & m32
        out.append(value | int(v ^ (v >> 16)) << 96)
    return out


def _k_hash(k: int, j: int) -> tuple[int, ...]:
    """The four hashmixes of a one-word stream index ``k`` after ``j`` hashmixes (``_K_HASH``'s entries)."""
    return tuple(v ^ (v >> 16) for v in (((k ^ _HA[j + i]) * _HA[j + i + 1]) & _M32 for i in range(4)))


def streams_of(root_seed: int, game_index: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """``game_streams(root_seed, game_index, players)`` (the same streams, tested), seeded through
    ``stream_seeds`` without numpy's ``SeedSequence`` objects: what ``sim.setup.streams`` gives a
    run's game, so ``sim bench`` times the derivation a run pays. ``ValueError`` for a negative
    seed or index."""
    if root_seed < 0 or game_index < 0:
        raise ValueError("seed and game index must be non-negative integers")
    seeds = stream_seeds(root_seed, game_index, range(players + 1))
    return random.Random(seeds[0]), [random.Random(x) for x in seeds[1:]]


def _numpy_seed(seed: int, game_index: int, k: int) -> int:
    state = np.random.SeedSequence(seed, spawn_key=(game_index, k)).generate_state(4, np.uint32)
    return int.from_bytes(state.tobytes(), "little")
