"""Cost of the search strategy in decisions per CPU-second (one core; default 2-player Osaka).

    .venv/bin/python docs/bench_search.py --games 3 --params '{"iterations": 24, "max_depth": 24}'
    .venv/bin/python docs/bench_search.py --games 3 --config configs/xanadu/search_portfolio.yaml

Plays search against ``--opponent`` (or the game, search params and opponent of a 2-seat
``--config``) and prints search's decisions/s (its decisions only, single-choice decisions
included, as the runner counts them), simulations/s and CPU seconds per game. CPU time
(``time.process_time``) does not count waiting for a busy core, so the figures hold on a
shared machine.
"""

from __future__ import annotations

import argparse
import json
import time

from sim.play import play_game
from sim.registry import get_game, make_strategy
from sim.seeding import game_streams


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="traders_of_osaka")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--params", default="{}", help="search params as JSON")
    ap.add_argument("--config", help="a head-to-head config: its game, search params and other strategy")
    a = ap.parse_args()
    other_params: dict = {}
    if a.config:
        from sim.config import build_game, load_config

        rc = load_config(a.config)
        mine_specs = [s for s in rc.strategies if s.name == "search"]
        other_specs = [s for s in rc.strategies if s.name != "search"]
        if not mine_specs or not other_specs:
            raise SystemExit(f"{a.config}: needs a 'search' seat and another strategy")
        a.players, a.opponent, other_params = rc.players, other_specs[0].name, other_specs[0].params
        params = mine_specs[0].params
        game = build_game(rc)  # the config's options and data files
    else:
        params = json.loads(a.params)
        game = get_game(a.game).build(a.players)
    name = game.info.name
    search = make_strategy("search", params, name, game=game)
    other = make_strategy(a.opponent, other_params, name, game=game)
    mine = 0
    t0 = time.process_time()
    for i in range(a.games):
        seats = [search] + [other] * (a.players - 1)
        seats = seats[i % a.players:] + seats[:i % a.players]
        chance, rngs = game_streams(1, i, a.players)
        r = play_game(game, seats, chance, rngs, max_decisions=game.options.max_decisions, record=True)
        mine += sum(1 for p, _ in r.log if p >= 0 and seats[p] is search)
    dt = time.process_time() - t0
    print(f"search {params} vs {a.opponent}: {a.games} games in {dt:.1f} s; {mine / dt:.1f} search decisions/s "
          f"({mine / a.games:.0f} per game), {search.simulations / dt:,.0f} simulations/s, {dt / a.games:.1f} CPU s per game")


if __name__ == "__main__":
    main()
