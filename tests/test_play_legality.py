"""The game loop's legality check (``sim.play.play_game``): an offered object passes by identity,
an equal object built afresh passes by equality, anything else is ``IllegalActionError`` naming
the seat."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sim.api import IllegalActionError
from sim.play import play_game
from sim.registry import build_any_count


class _Copying:
    """Plays the last legal action, handed back as an equal copy (never the offered object)."""

    reads_observation = False

    def choose(self, obs, legal, rng):
        a = legal[-1]
        return dataclasses.replace(a) if dataclasses.is_dataclass(a) else a


class _LateCheat:
    """Legal play until its ``n``-th decision, then an action nobody offered."""

    reads_observation = False

    def __init__(self, n: int) -> None:
        self.n = n

    def choose(self, obs, legal, rng):
        self.n -= 1
        return legal[0] if self.n > 0 else "take everything"


def _play(strategies, max_decisions=3000):
    g = build_any_count("traders_of_osaka", 2)
    return play_game(g, strategies, random.Random(1), [random.Random(2), random.Random(3)], max_decisions=max_decisions)


def test_equal_copies_of_offered_actions_are_legal():
    copied = _play([_Copying(), _Copying()], max_decisions=60)
    assert copied.n_decisions == 60  # never rejected: the cap, not an error, ends it


def test_an_action_not_offered_is_illegal_and_names_its_seat():
    with pytest.raises(IllegalActionError, match=r"seat 1 \(_LateCheat\) chose illegal action 'take everything'"):
        _play([_LateCheat(10**6), _LateCheat(5)])
