"""``turns`` and ``rounds`` in ``games.parquet`` count the turns played, the game-ending one included
(second breaker finding 3, session 4: the tables left it out while ``sim replay`` numbered it).

Definition checked here, independent of the engine's counter: a turn is *begun* when the game is in
it at some state before the end (``progress(state)`` names the turn: a decision, or a draw such as
the Xanadu restart that can bring the End card before anyone acts); a stall ends the game between
turns, so the turn after it is not counted."""

from __future__ import annotations

import random

import pytest

from sim.api import CHANCE, TERMINAL
from sim.registry import get_game


def _played_turns(name: str, players: int, seed: int) -> tuple[dict, set, int]:
    game = get_game(name)(players)
    rng = random.Random(seed)
    state, seen = game.new_initial_state(), set()
    while (who := game.current_player(state)) != TERMINAL:
        seen.add(game.progress(state)[1])
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            x, acc, pick = rng.random(), 0.0, outcomes[-1][0]
            for o, p in outcomes:
                acc += p
                if x < acc:
                    pick = o
                    break
            game.apply_action(state, pick)
            continue
        game.apply_action(state, rng.choice(game.legal_actions(state)))
    return game.summary(state), seen, players


@pytest.mark.parametrize("name", ["traders_of_osaka", "xanadu"])
@pytest.mark.parametrize("seed", range(6))
def test_turns_count_every_turn_begun(name, seed):
    summary, seen, n = _played_turns(name, 2 + seed % 3, seed)
    assert seen == set(range(len(seen)))  # turns are numbered 0, 1, ... with none skipped
    assert summary["turns"] == len(seen)
    assert summary["rounds"] == -(-len(seen) // n)  # rounds begun
