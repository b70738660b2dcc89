"""Strategies: ``common`` (any game) and one subpackage per game, each exposing ``STRATEGIES``."""

import sim  # noqa: F401  (installs the finder of the compiled copies first: sim/compiled.py)
