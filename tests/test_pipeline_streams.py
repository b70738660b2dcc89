"""``sim.setup.streams`` derives each game's streams without the parent SeedSequence (issue 20
item 1); it must give exactly the streams of the reference ``sim.seeding.game_streams``
(DESIGN principle 4), for every seating, including the deal's chance stream under ``permute``."""

from __future__ import annotations

import pytest

from sim.seeding import game_streams
from sim.setup import Setup, deal_index, streams


def _setup(seating: str, players: int, seed: int) -> Setup:
    return Setup(game="traders_of_osaka", players=players, seed=seed, options={"max_decisions": 10}, data={},
                 strategies=(("random", {}), ("osaka.trader", {})) * 2, labels=("a", "b", "c", "d")[:players],
                 seating=seating)


def _states(chance, seats):
    return chance.getstate(), [r.getstate() for r in seats]


@pytest.mark.parametrize("seating", ["rotate", "fixed", "permute"])
@pytest.mark.parametrize("players,seed", [(2, 0), (3, 7), (4, 2026), (4, 2**40 + 3)])
def test_streams_equal_the_reference_derivation(seating, players, seed):
    setup = _setup(seating, players, seed)
    for gi in (0, 1, 5, 23, 1000, 999_999):
        chance, seats = streams(setup, gi)
        ref_chance, ref_seats = game_streams(seed, gi, players)
        if seating == "permute":  # the chance stream is the deal's: game deal_index's own chance stream
            ref_chance = game_streams(seed, deal_index(setup, gi), players)[0]
        assert _states(chance, seats) == _states(ref_chance, ref_seats)
        assert len(seats) == players


def test_streams_differ_between_games_and_seats():
    setup = _setup("rotate", 4, 1)
    a, b = streams(setup, 0), streams(setup, 1)
    draws = [r.random() for r in (a[0], *a[1], b[0], *b[1])]
    assert len(set(draws)) == len(draws)


def test_negative_index_is_refused():
    with pytest.raises(ValueError):
        streams(_setup("rotate", 2, 1), -1)
