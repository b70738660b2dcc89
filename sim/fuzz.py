"""Nightly fuzzing: many random games per engine, every failing seed saved for replay.

``python -m sim.fuzz [--games N] [--game NAME ...] [--jobs J] [--out DIR]`` (``make fuzz``).
Each game is played with uniformly random legal actions at every player count; after every
step the engine's ``check_invariants(state)`` runs when it has one (conservation laws), and
the loop checks that decision nodes offer actions and that the game ends or is truncated.
A failure is written to ``DIR/<game>.jsonl`` as ``{"players", "seed", "game_index", "error"}``:
replay it with ``fuzz_one(game, players, seed, game_index)``.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import click
from joblib import Parallel, delayed

from .api import CHANCE, TERMINAL, sample_chance
from .registry import build_any_count
from .registry import games as registered_games
from .seeding import game_streams


def fuzz_one(name: str, players: int, seed: int, game_index: int) -> None:
    """Play one random game with invariant checks; raises ``AssertionError`` or the engine's error."""
    game = build_any_count(name, players)
    check = getattr(game, "check_invariants", None)
    chance, rngs = game_streams(seed, game_index, players)
    s = game.new_initial_state()
    decisions = 0
    while (p := game.current_player(s)) != TERMINAL:
        if check is not None:
            check(s)
        if p == CHANCE:
            a = sample_chance(game, s, chance)
        else:
            if decisions >= game.options.max_decisions:
                return  # truncated: allowed, counted by the runner
            legal = game.legal_actions(s)
            assert legal, f"no legal action for seat {p}"
            a = legal[int(rngs[p].random() * len(legal))]
            decisions += 1
        game.apply_action(s, a)
    if check is not None:
        check(s)


def _chunk(name: str, players: int, seed: int, start: int, stop: int) -> list[dict]:
    failures = []
    for i in range(start, stop):
        try:
            fuzz_one(name, players, seed, i)
        except Exception as exc:
            failures.append({"game": name, "players": players, "seed": seed, "game_index": i,
                             "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()})
    return failures


@click.command()
@click.option("--games", type=int, default=100_000, show_default=True,
              help="Games per engine, split over its player counts (at least one game per count).")
@click.option("--game", "names", multiple=True, help="Engines to fuzz (default: all).")
@click.option("--seed", type=int, default=20261201, show_default=True)
@click.option("--jobs", type=int, default=2, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default="reports/fuzz", show_default=True)
def main(games: int, names: tuple[str, ...], seed: int, jobs: int, out: str) -> None:
    """Fuzz every engine with random play; exit 1 when any game failed."""
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    total_failed = 0
    for name in names or tuple(registered_games()):
        info = registered_games()[name].info
        counts = list(range(info.min_players, info.max_players + 1))
        # exactly `games` games, split as evenly as the player counts allow (at least one each)
        per = {n: max(1, games // len(counts) + (i < games % len(counts))) for i, n in enumerate(counts)}
        tasks = [(n, a, min(a + 500, per[n])) for n in counts for a in range(0, per[n], 500)]
        results = Parallel(n_jobs=jobs)(delayed(_chunk)(name, n, seed + n, a, b) for n, a, b in tasks)
        failures = [f for r in results for f in r]
        total_failed += len(failures)
        with open(out_dir / f"{name}.jsonl", "w") as fh:
            for f in failures:
                fh.write(json.dumps(f) + "\n")
        click.echo(f"{name}: {sum(per.values())} games, {len(failures)} failed"
                   + (f" (seeds in {out_dir / (name + '.jsonl')})" if failures else ""))
    sys.exit(1 if total_failed else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
