"""Configs: YAML -> validated plain models (``models``), sweep grids (``grid``), loading (``load``).

Imports nothing above the ground (api, data, registry)."""

from .load import add_config_folder, dump_resolved, load_config, load_run_config, resolve
from .models import PROPORTION_CHECKS, Checks, CheckSpec, Config, RunConfig, StrategySpec, build_game

__all__ = ["PROPORTION_CHECKS", "CheckSpec", "Checks", "Config", "RunConfig", "StrategySpec", "add_config_folder",
           "build_game", "dump_resolved", "load_config", "load_run_config", "resolve"]
