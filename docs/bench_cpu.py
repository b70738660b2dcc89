"""Games and decisions per CPU-second of the game loop for every game (random strategies).

CPU time (``time.process_time``) does not count time the process waits for a busy core, so
the figures hold on a shared machine. Usage: ``.venv/bin/python docs/bench_cpu.py [players]``.
"""

import sys
import time

from sim.play import play_game
from sim.registry import games, make_strategy
from sim.seeding import game_streams

SECONDS = 10.0  # CPU budget per game
players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
for name, cls in games().items():
    n = min(max(players, cls.info.min_players), cls.info.max_players)
    g = cls.build(n)
    strat = [make_strategy("random", {}, name, game=g) for _ in range(n)]
    played = decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < SECONDS:
        chance, rngs = game_streams(0, played, n)
        decisions += play_game(g, strat, chance, rngs, max_decisions=g.options.max_decisions).n_decisions
        played += 1
    dt = time.process_time() - t0
    print(f"| {name} | {n} | {played / dt:,.0f} | {decisions / dt:,.0f} | {decisions / played:,.0f} |", flush=True)
