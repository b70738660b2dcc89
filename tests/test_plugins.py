"""Strategies from outside the project: entry points (group ``sim.strategies``), import strings,
and clear errors for names that resolve to nothing (issue 9)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import polars as pl
import pytest

from sim import registry
from sim.api import SimError
from sim.config import load_config
from sim.registry import make_strategy, resolve_strategy
from sim.runs.fixed import run
from sim.runs.workers import kill_workers

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "osaka_plugin"

CONFIG = """\
game: traders_of_osaka
players: 2
games: 12
seed: 4
strategies:
  - name: {name}
    params: {{colours: 1}}
  - name: random
"""


@pytest.fixture
def fresh_registry(monkeypatch):
    """Forget the cached strategy list before and after (entry points are read once)."""
    registry.strategies.cache_clear()
    importlib.invalidate_caches()
    yield monkeypatch
    for mod in [m for m in sys.modules if m == "osaka_plugin" or m.startswith("osaka_plugin.")]:
        del sys.modules[mod]
    registry.strategies.cache_clear()
    importlib.invalidate_caches()


def run_config(tmp_path: Path, name: str) -> pl.DataFrame:
    cfg = tmp_path / "plugin.yaml"
    cfg.write_text(CONFIG.format(name=name))
    rc = load_config(cfg)
    # a plugin plays in joblib's fresh interpreters, which take sys.path when they start: workers
    # left from an earlier test would not see the folder this test put on it
    kill_workers()
    out = run(rc, tmp_path / "run", progress=False)
    assert out.failed == 0
    return pl.read_parquet(tmp_path / "run" / "players.parquet")


def check_collector_played(players: pl.DataFrame, label: str) -> None:
    mine = players.filter(pl.col("strategy") == label)
    assert mine.height == 12 and sorted(mine["seat"].unique()) == [0, 1]  # seats rotate
    assert mine["won"].sum() >= 8  # it plays a plan: it beats random


@pytest.mark.integration
def test_plugin_installed_with_pip_is_found_by_its_registered_name(tmp_path, fresh_registry):
    """pip-install the example plugin (into a folder put on sys.path) and use it from a config."""
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
           "--target", str(target), str(PLUGIN)]
    if find_spec("wheel") and find_spec("setuptools"):
        cmd.append("--no-build-isolation")  # works offline: the environment's own build backend
    env = dict(os.environ, PIP_DEFAULT_TIMEOUT="10")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
    if proc.returncode:
        pytest.skip(f"pip cannot build the example plugin here (offline without setuptools/wheel?): "
                    f"{proc.stderr.strip().splitlines()[-1:]}")
    fresh_registry.syspath_prepend(str(target))
    registry.strategies.cache_clear()
    assert "osaka_plugin.collector" in registry.strategies()
    factory = resolve_strategy("osaka_plugin.collector")
    assert factory.__module__ == "osaka_plugin.collector"
    check_collector_played(run_config(tmp_path, "osaka_plugin.collector"), "osaka_plugin.collector")


def write_dist_info(site: Path, entry: str, name: str = "osaka_plugin.collector") -> None:
    """A minimal installed distribution: what pip writes, enough for importlib.metadata."""
    info = site / "boardsim_osaka_plugin-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: boardsim-osaka-plugin\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[sim.strategies]\n{name} = {entry}\n")


def test_entry_point_from_installed_metadata(tmp_path, fresh_registry):
    """Without pip: a dist-info on sys.path registers the name (what an installed package does)."""
    write_dist_info(tmp_path / "site", "osaka_plugin.collector:Collector")
    fresh_registry.syspath_prepend(str(tmp_path / "site"))
    fresh_registry.syspath_prepend(str(PLUGIN / "src"))
    registry.strategies.cache_clear()
    found = registry.strategies()
    assert hasattr(found["osaka_plugin.collector"], "load")  # loaded lazily, on first use
    s = make_strategy("osaka_plugin.collector", {"colours": 1}, "traders_of_osaka")
    assert type(s).__name__ == "Collector"
    check_collector_played(run_config(tmp_path, "osaka_plugin.collector"), "osaka_plugin.collector")


def test_plugin_by_import_string(tmp_path, fresh_registry):
    fresh_registry.syspath_prepend(str(PLUGIN / "src"))
    name = "osaka_plugin.collector:Collector"
    check_collector_played(run_config(tmp_path, name), name)


def test_plugin_refuses_other_games(fresh_registry):
    fresh_registry.syspath_prepend(str(PLUGIN / "src"))
    other = next((g for g in registry.games() if g != "traders_of_osaka"), None)
    if other is None:
        pytest.skip("only one game registered")
    with pytest.raises(SimError, match="plays traders_of_osaka"):
        make_strategy("osaka_plugin.collector:Collector", {}, other)


@pytest.mark.parametrize("name,message", [
    ("no_such_strategy", r"unknown strategy 'no_such_strategy'(; | \(did you mean .*\); )known strategies: .*random"),
    ("nosuchpkg.mod:Thing", r"strategy import string 'nosuchpkg.mod:Thing' does not resolve: No module named 'nosuchpkg'"),
    ("strategies.common:NoSuchThing", r"does not resolve: .*NoSuchThing"),
    (":Thing", r"does not resolve"),
    ("strategies.common:STRATEGIES", r"resolves to .* which is not a strategy factory"),
    ("collections:OrderedDict", r"standard-library module 'collections'"),
    ("sim.api:SimError", r"resolves to .* which is not a strategy factory: it must name a class with a choose"),
])
def test_names_that_resolve_to_nothing_give_clear_errors(name, message):
    with pytest.raises(SimError, match=message):
        make_strategy(name, {}, "traders_of_osaka")


def test_broken_entry_point_is_a_clear_error(tmp_path, fresh_registry):
    write_dist_info(tmp_path / "site", "osaka_plugin.gone:Nothing", name="broken.plugin")
    fresh_registry.syspath_prepend(str(tmp_path / "site"))
    registry.strategies.cache_clear()
    with pytest.raises(SimError, match=r"strategy 'broken.plugin' \(entry point osaka_plugin.gone:Nothing\) failed to load"):
        make_strategy("broken.plugin", {}, "traders_of_osaka")


def test_config_error_names_the_file_line_and_the_unknown_name(tmp_path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(CONFIG.format(name="osaka.nobody"))
    with pytest.raises(SimError, match=r"bad.yaml.*line 6.*unknown strategy 'osaka.nobody'"):
        load_config(cfg)


def test_example_plugin_is_documented_and_short():
    src = (PLUGIN / "src" / "osaka_plugin" / "collector.py").read_text()
    assert '"""' in src and "choose(self, obs, legal, rng)" in src
    assert "sim.games.traders_of_osaka.engine" not in src  # public surface only
    assert 'osaka_plugin.collector" = "osaka_plugin.collector:Collector"' in (PLUGIN / "pyproject.toml").read_text()
    assert "import random" not in src and "np.random" not in src  # only the rng it is given


def test_list_strategies_describes_a_plugin_from_its_class_and_shows_factory_defaults(tmp_path, fresh_registry):
    from click.testing import CliRunner

    from sim.cli import cli

    write_dist_info(tmp_path / "site", "osaka_plugin.collector:Collector")
    fresh_registry.syspath_prepend(str(tmp_path / "site"))
    fresh_registry.syspath_prepend(str(PLUGIN / "src"))
    registry.strategies.cache_clear()
    out = CliRunner().invoke(cli, ["list", "strategies"]).output.splitlines()
    i = out.index("osaka_plugin.collector  [traders_of_osaka]  params: colours=2")  # Collector(colours=2)
    assert out[i + 1].strip() == "Collects goods of its colours favourite colours; takes the best coin otherwise."
    assert not any("PydanticUndefined" in line for line in out)


def test_strategy_params_show_what_a_default_factory_makes():
    from pydantic import BaseModel, Field

    class WithModel:
        class Params(BaseModel):
            depth: int = 3
            extra: dict = Field(default_factory=dict)

    def plain(seat_bias: float = 0.5, *, names=("a",)):
        return None

    assert registry.strategy_params(WithModel) == {"depth": 3, "extra": {}}
    assert registry.strategy_params(plain) == {"seat_bias": 0.5, "names": ("a",)}


def test_a_plugin_named_like_a_built_in_is_reported_not_silently_dropped(tmp_path, fresh_registry, capsys):
    """Breaker finding 10 (session 4): an entry point called `random` was ignored without a word."""
    write_dist_info(tmp_path / "site", "osaka_plugin.collector:Collector", name="random")
    fresh_registry.syspath_prepend(str(tmp_path / "site"))
    registry.strategies.cache_clear()
    found = registry.strategies()
    assert found["random"].__module__ == "strategies.common"  # the built-in still wins
    err = capsys.readouterr().err
    assert "plugin strategy 'random' (osaka_plugin.collector:Collector) is hidden by the built-in" in err
