"""Strategies: ``common`` (any game) and one subpackage per game, each exposing ``STRATEGIES``."""
