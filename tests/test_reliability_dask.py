"""Issue 19, ``--backend dask``: ``game_timeout_s`` holds on a Dask cluster too (its workers play
in threads, where a signal timer cannot stop a game; ``sim.runs.cluster.play_limited``).

Expected values by hand: the config's strategies are [Looper, random, random] with
``seating: rotate``, so the Looper sits in every game and loops on its first decision: every game
of the run times out, each recorded with the run's seed and the reason, and the run ends normally.
"""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.config import load_config
from sim.runs import cluster, fixed

LOOPER = '''\
from strategies.common import ScriptedStrategy


class Looper(ScriptedStrategy):
    """Never returns from its first decision."""

    def choose(self, obs, legal, rng):
        while True:
            pass
'''

CFG = """\
game: traders_of_osaka
players: 3
games: {games}
seed: 9
chunk_size: 2
seating: rotate
game_timeout_s: 0.5
strategies:
  - {{name: '{first}'}}
  - {{name: random}}
  - {{name: random}}
"""


def _config(tmp_path, games: int, first: str = "looper_here:Looper"):
    (tmp_path / "looper_here.py").write_text(LOOPER)  # found by the workers next to the config
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG.format(games=games, first=first))
    return cfg


@pytest.mark.integration
def test_a_looping_strategy_times_out_on_a_local_dask_cluster(tmp_path):
    cfg = _config(tmp_path, 3)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--backend", "dask"])
    assert res.exit_code == 1, res.output  # every game timed out: no game completed (session 10; it was 0)
    assert "played 3 games" in res.output and "3 failed" in res.output
    assert "3 game(s) failed: GameTimeout: the game ran over game_timeout_s = 0.5 s" in res.output
    errors = pl.read_parquet(tmp_path / "o" / "errors.parquet").sort("game_index")
    assert errors["game_index"].to_list() == [0, 1, 2]
    assert set(errors["exception"]) == {"GameTimeout"} and set(errors["seed"]) == {9}
    assert "game_timeout_s = 0.5 s" in errors["message"][0]


def test_the_thread_limit_stops_a_game_in_a_thread_and_the_chunk_goes_on(tmp_path):
    """Without Dask: ``play_limited`` on a thread other than the main one, as a Dask worker calls it."""
    import threading

    cfg = _config(tmp_path, 2)
    setup_json = fixed.setup_of(load_config(cfg)).to_json()
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", cluster.play_limited(setup_json, 0, 2)))
    t.start()
    t.join(20)
    assert not t.is_alive()
    a, b, tables = out["r"]
    assert (a, b) == (0, 2)
    assert tables["errors"]["game_index"].to_list() == [0, 1]
    assert set(tables["errors"]["exception"]) == {"GameTimeout"}
    assert tables["games"]["failed"].to_list() == [True, True]


def test_games_within_the_limit_are_played_in_a_thread_as_in_the_main_thread(tmp_path):
    import threading

    cfg = _config(tmp_path, 3, first="random")
    setup_json = fixed.setup_of(load_config(cfg)).to_json()
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", cluster.play_limited(setup_json, 0, 3)))
    t.start()
    t.join(20)
    _, _, threaded = out["r"]
    _, _, main = cluster.play_range(setup_json, 0, 3)
    for k in ("games", "players", "metrics"):
        assert threaded[k].equals(main[k]), k
