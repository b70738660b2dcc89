"""Traders of Osaka (rulebook seeds/003, RULINGS §2). Public surface for strategies:
``actions`` and ``observation``; the engine is ``GAME``."""

from .engine import GAME, TradersOfOsaka

__all__ = ["GAME", "TradersOfOsaka"]
